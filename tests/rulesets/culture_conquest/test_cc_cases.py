"""The DATC-style corpus: every YAML file under tests/cases/culture-conquest/ holds
cases that quote a rule, set up a state, run one phase, handler, check or scoring with
scripted dice, and state the expected result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from voevoda.rulesets.culture_conquest import phases
from voevoda.rulesets.culture_conquest.choices import check
from voevoda.rulesets.culture_conquest.game import score

from .helpers import make_game, make_state

CASES = Path(__file__).resolve().parents[2] / "cases" / "culture-conquest"


def load_cases() -> list[Any]:
    found = []
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            found.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return found


def lookup(root: Any, path: str) -> Any:
    node = root
    for part in path.split("."):
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node[part]
        else:
            raise KeyError(path)
    return node


@pytest.mark.parametrize("case", load_cases())
def test_case(case: dict[str, Any]) -> None:
    """Each case names its rule in ``rule``; see the YAML files."""
    assert case.get("rule"), "every case quotes the rule it checks"
    state = make_state(case.get("players", {"A": {}, "B": {}}), **case.get("state", {}))
    g = make_game(state, case.get("dice", {}), case.get("config"))
    player = case.get("player", "A")
    root: dict[str, Any] = {}
    if "run" in case:
        phases.PHASE_FUNCTIONS[case["run"]](g, player)
    elif "handle" in case:
        pending = {"players": [player], **case["handle"]["pending"]}
        phases.HANDLERS[pending["kind"]](g, pending, case["handle"]["choices"])
    elif "check" in case:
        state["pending"] = {"players": [player], **case["check"]["pending"]}
        root["problems"] = len(check(state, g.t, g.o, player, case["check"]["choice"]))
    if case.get("score"):
        root["score"] = score(state, g.t, g.o)
    root.update(state)
    root["event"] = {e.kind: dict(e.data) for e in g.events}
    for path, expected in case["expect"].items():
        assert lookup(root, path) == expected, f"{case['name']}: {path}"
    assert not g.dice.unused(), f"scripted dice not rolled: {g.dice.unused()}"
