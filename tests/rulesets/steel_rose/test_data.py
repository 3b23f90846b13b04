"""Rules as data: every unit and garrison of the document, house rules over them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from voevoda.core.errors import DataError
from voevoda.core.registry import configure
from voevoda.rulesets.steel_rose.battle.posts import UnitNames, parse_deployment
from voevoda.rulesets.steel_rose.rules import load_rules

DOCUMENT = yaml.safe_load((Path(__file__).parents[2] / "cases" / "steel-rose" / "units.yaml").read_text(encoding="utf-8"))
STATS = ("faction", "level", "attack", "health", "defence", "upkeep", "meat_upkeep", "void_hunger_on_hire",
         "ranged", "shots", "gunpowder")
PRICE = ("gold", "unique", "purchasable")
NAMES = ("name_ru", "name_en", "names")


def _unit_id(rules, name: str) -> str:
    found = UnitNames(rules).match(name)
    assert len(found) == 1, (name, found)
    return found[0]


def _abilities(unit) -> dict:
    """The unit's fields that are neither names, stats nor price, where they differ from the
    default: what the table calls its abilities."""
    out = {}
    for name, info in type(unit).model_fields.items():
        if name in STATS or name in PRICE or name in NAMES:
            continue
        value = getattr(unit, name)
        if value != info.default:
            out[name] = value.model_dump() if hasattr(value, "model_dump") else value
    return out


def test_the_table_is_the_whole_document(rules):
    """«ЮНИТЫ» of the five factions: 11 imperial, 7 Steel Rose, 8 elven, 7 of the cult (demons
    included), 9 ogre units — 42, each once in the table and in the data."""
    ids = [_unit_id(rules, u["name"]) for u in DOCUMENT["units"]]
    assert len(ids) == 42 and sorted(ids) == sorted(rules.units)
    per = {}
    for u in DOCUMENT["units"]:
        per[u["faction"]] = per.get(u["faction"], 0) + 1
    assert per == {"empire": 11, "steel_rose": 7, "heaven": 8, "void_cult": 7, "ogres": 9}


@pytest.mark.parametrize("row", DOCUMENT["units"], ids=lambda u: u["name"])
def test_unit_as_the_document_gives_it(rules, row):
    """Each unit's level, attack, health, defence, price, upkeep, ranged damage, shots, powder and
    abilities as the document's line quoted in tests/cases/steel-rose/units.yaml gives them."""
    unit = rules.units[_unit_id(rules, row["name"])]
    for field in STATS:
        assert getattr(unit, field) == row.get(field, 0), (row["quote"], field)
    price = row["price"]
    if price is None:
        assert not unit.purchasable and unit.gold == 0 and unit.unique == 0, row["quote"]
    else:
        assert unit.purchasable, row["quote"]
        assert (unit.gold, unit.unique) == (price["gold"], price.get("unique", 0)), row["quote"]
    assert _abilities(unit) == row["abilities"], row["quote"]


def test_every_field_of_a_unit_is_checked():
    """The table covers every field of the unit data: a field added later without a column here
    shows up as an ability, and must be transcribed."""
    from voevoda.rulesets.steel_rose.rules import Unit

    checked = set(STATS) | set(PRICE) | set(NAMES)
    assert checked <= set(Unit.model_fields)


@pytest.mark.parametrize("faction", sorted(DOCUMENT["garrisons"]))
def test_garrisons_as_the_document_gives_them(rules, faction):
    """«ГАРНИЗОН» of each faction and level, read from the document's own wording; «В больших
    поселениях гарнизон такой же, как и в малых, но вдвое выше численностью.»"""
    levels = DOCUMENT["garrisons"][faction]
    assert sorted(int(k) for k in rules.factions[faction].garrison) == sorted(int(k) for k in levels)
    for level, text in levels.items():
        post = parse_deployment("Центральный авангард - " + text, rules)
        assert post.problems == [], text
        want = post.squads[0].units
        assert rules.garrison(faction, int(level)) == want, (faction, level)
        assert rules.garrison(faction, int(level), large=True) == {u: 2 * n for u, n in want.items()}
    if not levels:
        with pytest.raises(DataError):
            rules.garrison(faction, 1)


def test_recovery_rates(rules):
    """«после боя часть раненых юнитов (если не указано иного, то эта часть равна 20%)»: 60% for
    lesser demons and infectors, 50% for gnoblars, 20% for the rest."""
    assert rules.recovery("lesser_demon") == 0.6 and rules.recovery("gnoblar") == 0.5 and rules.recovery("knight") == 0.2


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
