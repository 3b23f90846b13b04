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
    shares = [{k: v for k, v in s.to_json().items() if v is not None and k != "line"} for s in result.powder]
    if "problems" in case:
        check_problems(result.problems, case["problems"])
        if "powder" in case:
            assert shares == case["powder"], case["rule"]
        return
    assert result.problems == [], [p.both() for p in result.problems]
    assert {s.position: s.units for s in result.squads} == case["squads"], case["rule"]
    assert result.gunpowder == case.get("gunpowder")
    assert shares == case.get("powder", []), case["rule"]
    assert len(result.notes) == len(case.get("notes", [])), case["rule"]
    for note, want in zip(result.notes, case.get("notes", []), strict=False):
        assert want in note.ru and note.en, case["rule"]


@pytest.mark.parametrize("case", load("plan.yaml"), ids=lambda c: c["name"])
def test_plan_case(case, rules):
    result = parse_plan(case["post"], rules, squads(case["own"]), squads(case["enemy"]))
    if "problems" in case:
        check_problems(result.problems, case["problems"])
        return
    assert result.problems == [], [p.both() for p in result.problems]
    got = [[m.squad, m.kind, list(m.targets)] for m in result.manoeuvres]
    assert got == case["manoeuvres"], case["rule"]


def test_documented_examples_parse(rules):
    """The posts shown in docs/steel_rose.md are read without a problem, in both languages."""
    import re

    text = (Path(__file__).parents[3] / "docs" / "steel_rose.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    deployments = [b for b in blocks if b.startswith(("Правый фланг", "Right flank"))]
    plans = [b for b in blocks if ("арьергард:" in b or "rearguard:" in b) and b not in deployments]
    assert len(deployments) == 2 and len(plans) == 2
    enemy = parse_deployment("Центральный фланг:\nАвангард - 5 копейщиков\nАрьергард - 3 лучника\n"
                             "Правый авангард - 2 рыцаря", rules).squads
    for deployment, plan in zip(deployments, plans, strict=True):
        dep = parse_deployment(deployment, rules)
        assert dep.problems == [] and len(dep.squads) == 4 and dep.gunpowder == 20
        read = parse_plan(plan, rules, dep.squads, enemy)
        assert read.problems == [] and len(read.manoeuvres) == 5


def test_every_unit_name_reads_back(rules):
    """Every unit's Russian and English names, singular and plural, in a written deployment read
    back to the same unit (the bot and the report write what the parser reads)."""
    from voevoda.rulesets.steel_rose.battle.posts import UnitNames, write_deployment

    names = UnitNames(rules)
    for uid, unit in rules.units.items():
        for name in [*unit.names, unit.name_ru, unit.name_en]:
            assert names.match(name) == [uid], (uid, name)
        count = 1 if unit.one_per_squad else 3
        for lang in ("ru", "en"):
            text = write_deployment([SquadInput("centre.vanguard", {uid: count})], rules, lang)
            back = parse_deployment(text, rules, names)
            assert back.problems == [] and back.squads[0].units == {uid: count}, (uid, lang, text)


# --------------------------------------------------------------------------- battle cases

def _matches(actual: object, expected: object) -> bool:
    """``expected`` is found in ``actual``: dicts by their given keys, numbers to 1e-6."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _matches(actual[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(_matches(a, e) for a, e in zip(actual, expected, strict=True)))
    if isinstance(expected, float | int) and not isinstance(expected, bool) and isinstance(actual, float | int):
        return abs(float(actual) - float(expected)) <= 1e-6
    return actual == expected


def _battle(case: dict):
    """The case's battle, fought from its posts through the same reading as ``voevoda battle``."""
    from voevoda.core.dice import Dice
    from voevoda.rulesets.steel_rose.battle.engine import fight
    from voevoda.rulesets.steel_rose.battle.model import BattleOptions
    from voevoda.rulesets.steel_rose.battle.sides import SideSpec, build_sides
    from voevoda.rulesets.steel_rose.rules import load_rules

    rules = load_rules(case.get("house_rules"))
    specs = []
    for role in ("attacker", "defender"):
        raw = dict(case[role])
        specs.append(SideSpec(name=raw.pop("name", role), **raw))
    sides, problems = build_sides((specs[0], specs[1]), rules)
    if "problems" in case:
        return None, problems
    assert not any(problems), [p.both() for side in problems for p in side]
    dice = Dice.from_text(case.get("seed", case["name"]))
    return fight(rules, sides, dice, options=BattleOptions.from_config(case.get("options", {}))).to_json(), problems


@pytest.mark.parametrize("case", load("battle.yaml"), ids=lambda c: c["name"])
def test_battle_case(case):
    """Each case quotes its rule; house rules make the dice irrelevant (attack 1: every die
    shows 1), so the expected health and events are exact."""
    result, problems = _battle(case)
    if "problems" in case:
        for side, expected in enumerate(case["problems"]):
            for want in expected:
                assert any(want.lower() in p.message_ru.lower() for p in problems[side]), \
                    [p.both() for p in problems[side]]
        return
    expect = case["expect"]
    timeline = {(e["phase"], e["step"]): e for e in result["timeline"]}
    for want in expect.get("timeline", []):
        got = timeline.get((want["phase"], want["step"]))
        assert got is not None and _matches(got, want), (case["rule"], want, got)
    for want in expect.get("events", []):
        assert any(_matches(e, want) for e in result["events"]), \
            (case["rule"], want, [e for e in result["events"] if e.get("kind") == want.get("kind")])
    for unwanted in expect.get("no_events", []):
        assert not any(_matches(e, unwanted) for e in result["events"]), (case["rule"], unwanted)
    if "summary" in expect:
        assert _matches(result["summary"], expect["summary"]), (case["rule"], result["summary"])
