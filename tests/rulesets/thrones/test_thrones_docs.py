"""docs/thrones.md shows orders as players write them: every example of its «Orders» tables is
read by the parser in the phase its table is for (Russian and English), so the documentation
cannot drift from the grammar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rulesets.thrones.helpers import make_game
from voevoda.core.errors import OrdersRejected

DOC = Path(__file__).resolve().parents[3] / "docs" / "thrones.md"
PHASES = {"In any step": "planning", "Holy lands": "holy", "Diplomacy": "diplomacy", "Trade": "trade",
          "Westeros": "westeros", "Clash of Kings": "bids", "Planning": "planning", "Action": "action"}


def examples() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Orders", 1)[1].split("\n## ", 1)[0]
    found: list[tuple[str, str]] = []
    phase = "planning"
    for line in section.splitlines():
        heading = re.match(r"^### (.+)$", line)
        if heading:
            phase = next((p for key, p in PHASES.items() if heading.group(1).startswith(key)), phase)
            continue
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        for cell in cells[:2]:
            for code in re.findall(r"`([^`]+)`", cell):
                if "…" in code or code.isupper():
                    continue
                found.append((phase, code))
    return found


EXAMPLES = examples()


def test_the_orders_tables_are_found() -> None:
    assert len(EXAMPLES) >= 40
    assert {p for p, _ in EXAMPLES} >= {"planning", "holy", "diplomacy", "trade", "westeros", "bids", "action"}


@pytest.mark.parametrize(("phase", "example"), EXAMPLES)
def test_every_documented_order_reads(phase: str, example: str) -> None:
    ruleset, state = make_game({"turn": 2, "phase": "bids" if phase == "tiebreak" else phase,
                                "alliances": [["Анна", "Борис"]]})
    if "порядок" in example or "tie order" in example:
        state["phase"] = "tiebreak"
    if example.startswith(("подкуп", "bribe", "пас", "pass")):
        state["phase"] = "bribe"
    try:
        orders = ruleset.parse(example, "Анна", state)
    except OrdersRejected as exc:
        raise AssertionError(f"{example!r} ({phase}): {[p.both() for p in exc.problems]}") from exc
    assert orders, example


def test_every_config_example_is_a_config_the_game_takes() -> None:
    """Each ```toml block of docs/thrones.md is valid TOML (keys in Cyrillic are quoted) and every
    key in it is one of the game's options, with a value it accepts (issue 29, item 20)."""
    import tomllib

    from voevoda.rulesets.thrones import Thrones

    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        config = tomllib.loads(block)
        assert set(config) <= Thrones().config_keys(), set(config) - Thrones().config_keys()
        ruleset = Thrones(config)
        assert ruleset.seating(["Анна", "Борис", "Вера"]) == {"Анна": "lannister", "Борис": "stark", "Вера": "baratheon"}


def test_the_battle_example_is_the_answer_given() -> None:
    """docs/thrones.md «Battles»: the answer shown to the march without its result is the one the
    companion gives (docs/rulings/thrones.md T28)."""
    from tests.rulesets.thrones.helpers import problems_of

    section = DOC.read_text(encoding="utf-8").split("## Battles", 1)[1].split("\n## ", 1)[0]
    post, answer = re.findall(r"```\n(.*?)```", section, re.S)[:2]
    ruleset, state = make_game({"turn": 2, "phase": "action", "board": {"Ров Кейлин": {"house": "Борис", "footman": 2}},
                                "orders": {"Белая Гавань": "Анна support"}})
    said = [p.split(" | ")[0] for p in problems_of(ruleset, state, "Анна", post)]
    assert said == [" ".join(answer.split())]
