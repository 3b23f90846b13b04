"""docs/thrones.md «Five minutes: a first round» and examples/thrones/ stay true (issue 30, item 10):
the tour's commands run as written, in order, on a fresh database; every example post is used by
it; each post is accepted or refused as the tour says; the answers and the report shown in the
documentation and in examples/thrones/README.md are the ones the companion gives."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from voevoda.cli import app

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "thrones.md"
EXAMPLES = ROOT / "examples" / "thrones"


def tour() -> list[tuple[list[str], str]]:
    """The tour's commands: (arguments after «voevoda», the comment)."""
    section = DOC.read_text(encoding="utf-8").split("## Five minutes", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    out = []
    for line in block.group(1).splitlines():
        command, _, comment = line.partition("#")
        if command.strip():
            words = shlex.split(command)
            assert words[0] == "voevoda", line
            out.append((words[1:], comment.strip()))
    return out


def shown(text: str) -> list[str]:
    """The plain ``` blocks of a Markdown text (not ```sh or ```toml)."""
    blocks: list[str] = []
    inside: list[str] | None = None
    plain = False
    for line in text.splitlines():
        if line.startswith("```") and inside is None:
            inside, plain = [], line == "```"
        elif line.startswith("```"):
            if plain:
                blocks.append("\n".join(inside).strip())
            inside = None
        elif inside is not None:
            inside.append(line)
    return blocks


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[list[str], str, int, str]]:
    """Every command of the tour run in the repository's root (where the example paths lead), the
    database and the map in a temporary folder (the map as SVG: the PNG is the same drawing)."""
    tmp = tmp_path_factory.mktemp("tour")
    db = str(tmp / "tour.db")
    runner = CliRunner()
    results = []
    import os

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for args, comment in tour():
            run = list(args)
            if "-o" in run:
                at = run.index("-o") + 1
                run[at] = str(tmp / Path(run[at]).with_suffix(".svg").name)
            result = runner.invoke(app, [*run, "--db", db])
            results.append((args, comment, result.exit_code, result.output))
    finally:
        os.chdir(here)
    return results


def test_the_tour_runs_as_written(played: list[tuple[list[str], str, int, str]]) -> None:
    """Each command succeeds, except the one the tour marks «refused (exit 1)»."""
    for args, comment, code, output in played:
        expected = 1 if "exit 1" in comment else 0
        assert code == expected, (args, code, output)


def test_every_example_is_in_the_tour() -> None:
    used = {Path(a).name for args, _ in tour() for a in args if a.startswith("examples/thrones/")}
    files = {p.name for p in EXAMPLES.glob("*.txt")}
    assert files and used == files
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in files:
        assert f"`{name}`" in readme, name


def test_the_answers_shown_are_the_ones_given(played: list[tuple[list[str], str, int, str]]) -> None:
    """The refusal docs/thrones.md and the README show for Вера's march without its result, and the
    report's «Действия» the README shows (001 «Модификация «Святые земли»»; docs/rulings/thrones.md
    T13, T18, T28)."""
    refused = next(out for args, comment, code, out in played if code == 1)
    answer = " ".join(refused.split())
    doc_answer = shown(DOC.read_text(encoding="utf-8").split("## Five minutes", 1)[1].split("\n## ", 1)[0])[0]
    readme = shown((EXAMPLES / "README.md").read_text(encoding="utf-8"))
    assert doc_answer == readme[0]
    assert " ".join(doc_answer.split()) in answer
    report = next(out for args, _, _, out in played if args[:1] == ["report"] and "--format" not in args)
    assert "Старк (Анна)" in report and "Казна: Старк" in report
    public = next(out for args, _, _, out in played if args[:1] == ["report"] and "bbcode" in args)
    for line in readme[1].splitlines():
        assert "[*]" + line.removeprefix("- ") in public, line
    assert "«Чертог утонувшего бога»: единственный претендент — Старк." in report


def test_each_post_is_echoed_as_the_tour_says(played: list[tuple[list[str], str, int, str]]) -> None:
    """The greeting and the signature are echoed as not read, the quote and the spoiler set aside,
    the English keywords read, Вера's result accepted with the battle's strength in its echo."""
    by_file = {Path(args[-1]).name: out for args, _, _, out in played if args[:1] == ["order"]}
    assert "не прочитано как приказы" in by_file["1_holy_boris.txt"]
    assert "-- Борис, дом Ланнистер" in by_file["1_holy_boris.txt"]
    assert "святыня → Ланниспорт" in by_file["1_holy_boris.txt"]
    assert "цитаты и спойлеры не читаются" in by_file["1_holy_vera.txt"]
    assert "святыня → Дрожащее море" in by_file["1_holy_anna.txt"]
    assert by_file["2_planning_anna.txt"].count("приказ «") == 3
    assert "приказ «усиление власти»: Ланниспорт" in by_file["2_planning_boris_en.txt"]
    assert "приказ «поход»: Королевский лес" in by_file["2_planning_vera.txt"]
    assert "жетон власти: Винтерфелл" in by_file["3_action_anna.txt"]
    assert "поход Каменная Септа → Риверран: 1 пеший" in by_file["3_action_boris_en.txt"]
    assert "принято 2 приказа / 2 orders accepted" in by_file["3_action_vera.txt"]
    assert "По силе побеждает нейтральная сила, 4 : 5." in by_file["3_action_vera.txt"]
