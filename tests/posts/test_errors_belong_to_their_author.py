"""Issue 17 «Errors belong to their author»: «one side's refused line never shows up as the other
side's error («у противника нет отряда…»)». In a battle file both sides' posts are read
together; a line of one side's deployment that cannot be read must not make the other side's
plan wrong for aiming at the squad that line would have placed."""

from __future__ import annotations

from voevoda.rulesets.steel_rose.battle.sides import SideSpec, build_sides
from voevoda.rulesets.steel_rose.rules import load_rules

ATTACKER = SideSpec(
    "Анна", army={"spearman": 20, "horseman": 6},
    deployment="Центральный фланг:\nАвангард - 20 копейщиков\nЛевый фланг:\nАвангард - 6 всадников",
    plan="Левый авангард: натиск на центральный арьергард")


def test_the_defenders_refused_line_is_the_defenders_alone() -> None:
    rules = load_rules()
    defender = SideSpec("Борис", army={"shieldbearer": 8, "musketeer": 8},
                        deployment="Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 драконов")
    _, problems = build_sides((ATTACKER, defender), rules)
    assert problems[0] == [], [p.both() for p in problems[0]]  # Анна's charge is not her error
    assert problems[1] and all(p.line == 3 for p in problems[1])
    assert any("драконов" in p.message_ru for p in problems[1])


def test_a_charge_at_an_empty_place_is_still_its_authors_error() -> None:
    """The same plan against a deployment read whole, with nobody in the centre rearguard:
    then it is Анна's own mistake, and hers alone."""
    rules = load_rules()
    defender = SideSpec("Борис", army={"shieldbearer": 8}, deployment="Центральный фланг:\nАвангард - 8 щитовиков")
    _, problems = build_sides((ATTACKER, defender), rules)
    assert problems[1] == []
    assert any("у противника нет отряда" in p.message_ru for p in problems[0])
