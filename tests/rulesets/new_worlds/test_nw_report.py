"""The game master's post of a turn, golden: a scripted turn on the cases' map rendered as BBCode
and Markdown, Russian and English, compared with the files in tests/cases/new-worlds/golden/,
which a native reader checked and which change only on purpose (set VOEVODA_REGOLD=1 to write
them anew, then read the difference)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.rulesets.new_worlds.nw_helpers import make_game, play
from voevoda.core.ruleset import PUBLIC

GOLDEN = Path(__file__).resolve().parents[2] / "cases" / "new-worlds" / "golden"


def scripted_turn() -> tuple[object, dict, list]:
    ruleset, state = make_game(
        players=("Анна", "Борис"), epoch="iron",
        land={"Анна": "B2 C2 B3 C3 B4 C4", "Борис": "D2 E2 D3 E3 D4 E4 S2 S3"},
        cities={"B3": 0, "E3": 0, "S2": 0}, deposits={"B2": "bronze", "E2": "fur", "D4": "gold"},
        buildings={"C2": "port"}, points={"Анна": 41, "Борис": 22},
        wars=[{"attacker": "Анна", "defender": "Борис", "type": "resource_grab", "paid": 10}],
        religion={"Анна": "monotheism", "Борис": "polytheism"})
    state, events = play(ruleset, state, {
        "Анна": "Приветствую!\n[b]атака Борис 12: D2 D3 D4[/b]\n[b]город C4[/b]\n[b]занять B5 C5 D5[/b]\n"
                "[b]назвать B3 Царьград[/b]",
        "Борис": "[b]оборона Анна 5[/b]\n[b]порт S3[/b]\n[b]занять R2 R3[/b]\n[b]бонус +4[/b]",
    }, seed="golden")
    return ruleset, state, events


@pytest.mark.parametrize(("fmt", "lang"), [("bbcode", "ru"), ("bbcode", "en"), ("markdown", "ru"), ("text", "ru")])
def test_the_turns_post(fmt: str, lang: str) -> None:
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), [e for e in events if e.visible_to(PUBLIC)], PUBLIC,
                          fmt, lang, turn=1)  # type: ignore[arg-type, attr-defined]
    path = GOLDEN / f"turn.{lang}.{fmt}"
    if os.environ.get("VOEVODA_REGOLD") == "1":
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")


def test_the_report_says_what_happened() -> None:
    """The post of the scripted turn: the battle with both sides' strength, the capture, the city
    founded, the ledger with each price and what is left, the rolls for the next turn."""
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "Анна → Борис: атака 12 + 3 против обороны 5 + 0, перевес 10; взято: D2, D3, D4" in text
    assert "Анна: город C4" in text
    assert "Анна: было 41 очко, 30 ВО" in text and "осталось 19 очков, 30 ВО" in text
    assert "Борис: заявлен бонус +4, по расчёту +0" in text
    assert "Роллы на ход 2" in text
