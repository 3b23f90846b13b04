"""The example posts of examples/new-worlds/ and the five-minute tour of docs/new_worlds.md
stay true (issue 30 item 10): each post is read as its README says (bold only, 000 «II.
Механика, 3»: «Указывайте бонус и действия жирным, иначе они не учитываются»), the typo is
answered with its line, column and the nearest keyword, and the turn resolves to the ledger
both documents show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from voevoda.core.engine import Game
from voevoda.core.errors import ParseError
from voevoda.core.ruleset import PUBLIC

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "new-worlds"
README = (EXAMPLES / "README.md").read_text(encoding="utf-8")
TOUR = (ROOT / "docs" / "new_worlds.md").read_text(encoding="utf-8").split("\n## ", 2)[1]
AUTHORS = {"turn1_anna.txt": "Анна", "turn1_boris_en.txt": "Борис", "turn1_vera.txt": "Вера"}
PLAYERS = ["Анна", "Борис", "Вера"]


def fresh() -> Game:
    """The game of the README and the tour: «voevoda new new-worlds --game nw1 --players
    Анна,Борис,Вера --seed tour»."""
    return Game.create("new-worlds", "nw1", PLAYERS, seed="tour")


def echo(game: Game, name: str) -> list[str]:
    """The echo of an example post as `voevoda order` prints it: «  5: город F8 — 5 очков, …»."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    orders = game.ruleset.parse(text, AUTHORS[name], game.state)
    assert game.ruleset.validate(game.state, AUTHORS[name], orders) == []
    return [f"  {o.line}: {game.ruleset.describe(o)}" for o in orders]


def blocks(text: str) -> list[list[str]]:
    """The lines of each fenced block without a language (what a command prints)."""
    out: list[list[str]] = []
    current: list[str] | None = None
    fence = ""
    for line in text.splitlines():
        if current is None and line.startswith("```"):
            current, fence = [], line[3:].strip()
        elif current is not None and line.startswith("```"):
            if not fence:
                out.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return out


def test_the_rolls_of_the_tour() -> None:
    """«With --seed tour the rolls for turn 1 give Анна 40 points, Борис 10 and Вера 10.»"""
    game = fresh()
    assert [game.state["countries"][p]["points"] for p in PLAYERS] == [40, 10, 10]
    assert "Анна 40 points, Борис 10 and Вера 10" in README


@pytest.mark.parametrize("name", sorted(AUTHORS))
def test_an_example_post_is_echoed_as_documented(name: str) -> None:
    """Every good example is accepted on turn 1, and its echo is a block of the README."""
    lines = echo(fresh(), name)
    assert lines and lines in blocks(README), lines


def test_the_typo_is_answered_as_documented() -> None:
    """000 «II. Механика, 3»: the misspelt keyword is named with its line and column and the
    nearest keyword; the line without bold is no order; the rest is understood."""
    game = fresh()
    text = (EXAMPLES / "turn1_vera_typo.txt").read_text(encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        game.ruleset.parse(text, "Вера", game.state)
    for problem in caught.value.problems:
        assert problem.both() in README and problem.both() in TOUR
    assert caught.value.understood == ["религия дуализм — бесплатно, осталось 10 очков",
                                       "занять H15, G16 и I16 — 3 очка, осталось 7 очков"]
    post = game.ruleset.read_post(text, "Вера", game.state)
    assert post.orders and all("H17" not in line.text for line in post.orders)


def test_the_turn_resolves_to_the_documented_ledger() -> None:
    """The three posts and a resolution give the ledger the README and the tour show; the
    countries carry the names their posts gave them (000 «II. Механика, 6»)."""
    game = fresh()
    for name, player in AUTHORS.items():
        game.submit(player, (EXAMPLES / name).read_text(encoding="utf-8"))
    game.resolve()
    report = game.report(PUBLIC, fmt="text")
    ledger = report.split("Расходы")[1].split("Роллы на ход 2")[0]
    shown = next(b for b in blocks(README) if b and b[0].startswith("Ромейская держава: было"))
    for line in shown:
        assert line.strip() in ledger, line
    rolls = report.split("Роллы на ход 2")[1].split("Страны")[0]
    # the tour: «a city gives +1, Northmark's fur +1, Вера's cotton +1»
    assert all("города (1) +1" in line for line in rolls.splitlines() if line.startswith("- "))
    assert "Northmark: " in rolls and "; мех +1 =" in rolls and "; хлопок +1 =" in rolls
    assert game.state["countries"]["Анна"]["name"] == "Ромейская держава"
    assert game.state["countries"]["Борис"]["name"] == "Northmark"
    assert game.state["tiles"]["F8"]["name"] == "Царьград"
    assert all(game.state["countries"][p]["religion"] for p in PLAYERS)


def test_the_tour_uses_the_examples() -> None:
    """The five-minute tour at the top of docs/new_worlds.md runs the example files, and every
    echo line it quotes is one the posts give."""
    assert TOUR.startswith("A five-minute tour")
    for name in (*AUTHORS, "turn1_vera_typo.txt"):
        assert f"examples/new-worlds/{name}" in TOUR, name
    game = fresh()
    given = {line.strip() for name in AUTHORS for line in echo(game, name)}
    quoted = [line.strip() for block in blocks(TOUR) for line in block if re.match(r"^\s+\d+: ", line)]
    assert quoted and set(quoted) <= given, set(quoted) - given
