"""The corpus of post cases in tests/cases/steel-rose/ (one case per rule situation)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.battle.posts import parse_deployment, parse_plan

CASES = Path(__file__).parents[2] / "cases" / "steel-rose"


def load(name: str) -> list[dict]:
    return yaml.safe_load((CASES / name).read_text(encoding="utf-8"))


def squads(raw: dict) -> list[SquadInput]:
    return [SquadInput(p, dict(u)) for p, u in raw.items()]


def check_problems(problems, expected) -> None:
    assert problems, "expected the post to be refused"
    for want in expected:
        assert any(p.line == want["line"] and want["contains"].lower() in p.message_ru.lower() + p.order.__str__().lower()
                   and ("column" not in want or p.column == want["column"]) for p in problems), \
            [p.both() for p in problems]
    for p in problems:
        assert p.message_en and p.message_ru


@pytest.mark.parametrize("case", load("deployment.yaml"), ids=lambda c: c["name"])
def test_deployment_case(case, rules):
    result = parse_deployment(case["post"], rules)
    if "problems" in case:
        check_problems(result.problems, case["problems"])
        return
    assert result.problems == [], [p.both() for p in result.problems]
    assert {s.position: s.units for s in result.squads} == case["squads"], case["rule"]
    assert result.gunpowder == case.get("gunpowder")


@pytest.mark.parametrize("case", load("plan.yaml"), ids=lambda c: c["name"])
def test_plan_case(case, rules):
    result = parse_plan(case["post"], rules, squads(case["own"]), squads(case["enemy"]))
    if "problems" in case:
        check_problems(result.problems, case["problems"])
        return
    assert result.problems == [], [p.both() for p in result.problems]
    got = [[m.squad, m.kind, list(m.targets)] for m in result.manoeuvres]
    assert got == case["manoeuvres"], case["rule"]
