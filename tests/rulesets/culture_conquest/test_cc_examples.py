"""The worked examples under examples/culture-conquest/ are posts a player could send:
each parses and passes validation under the prompt its file name names."""

from __future__ import annotations

from pathlib import Path

import pytest

from voevoda.rulesets.culture_conquest import CultureConquest

from .helpers import make_state

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "culture-conquest"
PROMPTS = {"culture": {}, "assign": {}, "attack": {"tried": []},
           "ally": {"attacker": "Борис", "defender": "Clio"},
           "tribute": {"defender": "Борис", "options": ["coins", "city", "population", "resource"]},
           "offer": {"made": 0}, "reply": {"made": 1, "offer": {"from": "Борис", "to": "Анна", "give": [],
                                                               "take": []}},
           "build": {"labour": 80}, "research": {"picks": 1}}


def example_state(kind: str) -> dict:
    state = make_state({
        "Анна": {"coins": 40, "techs": ["philosophy", "engineering", "masonry", "fermentation"],
                 "resources": {"fruit": 1}, "leaders": ["general"], "pop": {"army": 2, "farmers": 8}},
        "Борис": {"cities": [{"name": "Фивы", "wonder": None}], "resources": {"stone": 1}},
        "Clio": {"techs": ["writing"]},
    })
    state["pending"] = {"kind": kind, "players": ["Анна"], **PROMPTS[kind]}
    if kind == "culture":
        state["players"]["Анна"]["culture"] = None
    return state


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_example_post(path: Path) -> None:
    """docs/culture_conquest.md: every documented answer form is read and accepted."""
    kind = path.stem.split("_")[1]
    rs = CultureConquest()
    state = example_state(kind)
    orders = rs.parse(path.read_text(encoding="utf-8"), "Анна", state)
    assert orders
    assert not rs.validate(state, "Анна", orders), [p.both() for p in rs.validate(state, "Анна", orders)]
