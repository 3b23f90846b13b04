"""`voevoda report` (issue 17, «Posts out»): a past turn as it was, `--turn` beyond the last
turn refused, every player's report in one go (`--all -o DIR`), the Telegram format and the
forum flavours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.core.toy import Guess
from voevoda.cli import app
from voevoda.core import registry
from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.core.markup import MESSAGE_BREAK, Document, bold
from voevoda.core.ruleset import Event, Viewer

runner = CliRunner()


class Scores(Guess):
    """«Угадайка» whose report prints the scores of the view it is given, so that a test can
    see which state a report was built from."""

    id = "toy-scores"

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        doc = Document(f"Ход {turn} — {viewer}")
        doc.paragraph("Очки: ", bold(", ".join(f"{p} {s}" for p, s in sorted(view["scores"].items()))))
        doc.paragraph(f"следующий ход: {view['turn']}")
        doc.paragraph("Длинная строка. " * 400)
        return doc


@pytest.fixture(autouse=True)
def scores_registered() -> Any:
    """Registered for this module's tests only: a toy registered at import would join every
    parametrised test over the installed rulesets (the non-interference test among them)."""
    registry.register(Scores)
    yield
    registry.available().pop(Scores.id, None)


def played(turns: int) -> Game:
    game = Game.create("toy-scores", "g", ["Анна", "Бо/рис"], bots=[], seed="report")
    for _ in range(turns):
        for p in game.record.players:
            game.submit(p, "число 3")
        game.resolve()
    return game


def test_a_past_turn_is_reported_from_the_state_after_that_turn() -> None:
    """`report --turn N` «shows the state as it was after turn N»."""
    game = played(4)
    for turn in (1, 2, 3, 4):
        assert game.state_after(turn)["turn"] == turn + 1
        text = game.report("Анна", turn)
        assert f"следующий ход: {turn + 1}" in text
        assert game.steps[turn - 1].seed in text and game.steps[turn % 4].seed not in text if turn < 4 else True
    scores_then = game.state_after(1)["scores"]
    assert f"Анна {scores_then['Анна']}" in game.report("Анна", 1)


def test_turns_not_resolved_are_refused() -> None:
    game = played(2)
    with pytest.raises(GameError, match="рассчитаны: 1–2"):
        game.report("Анна", 3)
    with pytest.raises(GameError, match="resolved: 1–2"):
        game.report("Анна", 0)
    with pytest.raises(GameError, match="ни один ход"):
        played(0).report_document("Анна", 1)


@pytest.fixture()
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "r.db")
    from voevoda.store import Store

    Store(path).create(played(3))
    return path


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_report_turn_on_the_command_line(db: str) -> None:
    code, out = run("report", "g", "--as", "Анна", "--turn", "2", "--db", db)
    assert code == 0 and "следующий ход: 3" in out
    code, out = run("report", "g", "--as", "Анна", "--turn", "9", "--db", db)
    assert code == 1 and "хода 9 нет среди рассчитанных (рассчитаны: 1–3)" in out


def test_every_players_report_in_one_go(db: str, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    code, out = run("report", "g", "--all", "-o", str(folder), "--format", "bbcode", "--db", db)
    assert code == 0, out
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["public.bbcode.txt", "Анна.bbcode.txt", "Бо_рис.bbcode.txt"]
    assert "[u][b]Ход 3 — Анна[/b][/u]" in (folder / "Анна.bbcode.txt").read_text(encoding="utf-8")
    assert "Ход 3 — Бо/рис" in (folder / "Бо_рис.bbcode.txt").read_text(encoding="utf-8")
    assert "Ход 3 — public" in (folder / "public.bbcode.txt").read_text(encoding="utf-8")
    code, out = run("report", "g", "--all", "--db", db)
    assert code == 1 and "-o" in out


def test_every_players_report_of_the_turn_and_language_asked(db: str, tmp_path: Path) -> None:
    """docs/engine.md and docs/reports.md (issue 30, item 11): `--all -o DIR` writes one turn —
    `--turn N`, by default the last — in the one format, flavour and language asked, one file per
    viewer; another turn or language is another run."""
    folder = tmp_path / "turn2"
    code, out = run("report", "g", "--all", "-o", str(folder), "--turn", "2", "--db", db)
    assert code == 0, out
    assert sorted(p.name for p in folder.iterdir()) == ["public.txt", "Анна.txt", "Бо_рис.txt"]
    anna = (folder / "Анна.txt").read_text(encoding="utf-8")
    assert "Ход 2 — Анна" in anna and "следующий ход: 3" in anna and "Ход 3" not in anna
    assert "Кости (проверяемые)" in anna
    code, out = run("report", "g", "--all", "-o", str(folder), "--lang", "en", "--db", db)
    assert code == 0, out
    anna = (folder / "Анна.txt").read_text(encoding="utf-8")
    assert "Ход 3 — Анна" in anna and "Dice (verifiable)" in anna and "Кости" not in anna


def test_telegram_messages_and_flavours(db: str, tmp_path: Path) -> None:
    code, out = run("report", "g", "--as", "Анна", "--format", "telegram", "--db", db)
    assert code == 0
    messages = out.split(MESSAGE_BREAK)
    assert len(messages) == 3 and messages[0].startswith("<b>Ход 3 — Анна</b>")
    assert all(len(m) <= 4096 for m in messages) and messages[-1].endswith("</blockquote>")
    code, out = run("report", "g", "--as", "Анна", "--format", "bbcode", "--flavour", "phpbb", "--db", db)
    assert code == 0 and "[size=150]" in out
    code, out = run("report", "g", "--format", "bbcode", "--flavour", "markdown", "--db", db)
    assert code == 1 and "flavour" in out and "xenforo" in out
    target = tmp_path / "anna.md"
    code, out = run("report", "g", "--as", "Анна", "--format", "markdown", "-o", str(target), "--db", db)
    assert code == 0 and target.read_text(encoding="utf-8").startswith("# Ход 3 — Анна")


def test_output_is_never_wrapped(db: str) -> None:
    code, out = run("report", "g", "--as", "Анна", "--db", db)
    assert code == 0 and max(len(line) for line in out.splitlines()) > 5000


def test_tables_written_to_a_pipe_are_never_cut() -> None:
    """«No hard wrapping: output written to a file or pipe is never wrapped ... table cells are
    truncated» today: off a terminal a table is plain aligned columns, whole."""
    import io

    from rich.console import Console

    from voevoda.cli.common import print_table

    buffer = io.StringIO()
    long_cell = "копейщик 1,25, рыцарь 0,5, " * 12
    print_table("Шансы / odds", ["Сторона / side", "Средние потери / mean losses"],
                [["Империя", long_cell], ["Княжество", "—"]], "ll", Console(file=buffer, width=80))
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "Шансы / odds"
    assert any(long_cell.rstrip() in line for line in lines)
    assert max(len(line) for line in lines) > 200


def test_the_config_names_players_genders_and_refuses_bad_ones() -> None:
    """«a player's grammatical gender can be set in the game config when it cannot be guessed»."""
    game = Game.create("toy-scores", "g", ["Саша", "Dragon"], seed="genders", config={"genders": {"Саша": "ж"}})
    assert game.ruleset.player_names().act("Саша", "захватил") == "Саша захватила"
    assert game.ruleset.player_names().act("Dragon", "захватил") == "Игрок Dragon захватил"
    with pytest.raises(GameError, match="нет игрока «Петя»"):
        Game.create("toy-scores", "g", ["Саша"], seed="genders", config={"genders": {"Петя": "m"}})
    with pytest.raises(GameError, match="m или f"):
        Game.create("toy-scores", "g", ["Саша"], seed="genders", config={"genders": {"Саша": "girl"}})
