"""Rules as data: every unit and garrison of the document, house rules over them."""

from __future__ import annotations

import pytest

from voevoda.core.errors import DataError
from voevoda.core.registry import configure
from voevoda.rulesets.steel_rose.rules import load_rules


def test_units_of_every_faction(rules):
    """«ЮНИТЫ» of the five factions: 11 imperial, 7 Steel Rose, 8 elven, 7 of the cult (with the
    demons), 9 ogre units; spot checks of the numbers."""
    per = {}
    for unit in rules.units.values():
        per[unit.faction] = per.get(unit.faction, 0) + 1
    assert per == {"empire": 11, "steel_rose": 7, "heaven": 8, "void_cult": 7, "ogres": 9}
    knight = rules.units["knight"]
    assert (knight.attack, knight.health, knight.defence, knight.gold, knight.unique, knight.upkeep) == (13, 60, 5, 80, 5, 15)
    fire_hail = rules.units["fire_hail"]
    assert (fire_hail.ranged, fire_hail.shots, fire_hail.gunpowder) == (24, 5, 20)
    assert (fire_hail.area.percent, fire_hail.area.min, fire_hail.area.max) == (35, 1, 15)
    assert rules.units["steam_tank"].attacks_per_round == 4 and rules.units["archdemon"].attacks_per_round == 3
    assert rules.recovery("lesser_demon") == 0.6 and rules.recovery("gnoblar") == 0.5 and rules.recovery("knight") == 0.2


def test_garrisons(rules):
    """«ГАРНИЗОН» of each faction and level; «В больших поселениях гарнизон такой же, как и в малых,
    но вдвое выше численностью.»"""
    assert rules.garrison("empire", 3) == {"paladin": 1, "heavy_infantry": 7, "crossbowman": 4, "knight": 3}
    assert rules.garrison("steel_rose", 2, large=True) == {"cannon": 2, "musketeer": 16, "shieldbearer": 16}
    assert rules.garrison("heaven", 1) == {"ranger": 7, "golem": 5, "wolf": 4}
    assert rules.garrison("void_cult", 3) == {"void_knight": 4, "demonologist": 1, "enlightened": 2}
    with pytest.raises(DataError):
        rules.garrison("ogres", 1)


def test_house_rules_override_and_are_checked():
    """DESIGN «Rules as data»: a house-rules file overrides any value; a bad one is refused with
    its field named."""
    rules = load_rules({"units": {"knight": {"attack": 14}}, "battle": {"outnumber_percent": 30}})
    assert rules.units["knight"].attack == 14 and rules.battle.outnumber_percent == 30
    with pytest.raises(DataError, match="units.knight.attack"):
        load_rules({"units": {"knight": {"attack": -1}}})
    with pytest.raises(DataError, match="garrison"):
        load_rules({"factions": {"empire": {"garrison": {"1": {"dragon": 3}}}}})
    ruleset = configure("steel-rose-battle", {}, {"units": {"spearman": {"health": 25}}})
    assert ruleset.rules.units["spearman"].health == 25  # type: ignore[attr-defined]
