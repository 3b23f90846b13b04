"""Unit names in a Steel Rose post (docs/steel_rose/battle.md «Units»: «Names are matched in any
case and number»; issue 17 «Typos»: «Suggest, never guess silently»): every case and number of
every unit's Russian name is that unit, and a word that only begins like one is not."""

from __future__ import annotations

import re

from voevoda.core.posts import word_forms
from voevoda.rulesets.steel_rose.battle.posts import UnitNames
from voevoda.rulesets.steel_rose.rules import load_rules


def test_every_form_of_every_name_is_its_unit() -> None:
    rules = load_rules()
    names = UnitNames(rules)
    missed = [(uid, form) for uid, unit in rules.units.items() for name in [unit.name_ru, *unit.names]
              if re.search("[а-яё]", name, re.IGNORECASE) for form in word_forms(name.lower())
              if uid not in names.match(form)]
    assert not missed, missed[:10]


def test_a_misspelt_name_is_no_unit() -> None:
    """«рыцорей», «копейшиков», «всодников», and words that keep the name's stem but are no form
    of it («лучнекав», «рыцарьи», "horsemans", "archars"): refused (with a suggestion), never
    read as the unit they resemble."""
    names = UnitNames(load_rules())
    for typo in ("рыцорей", "копейшиков", "всодников", "лучнекав", "лучникав", "рыцарьи", "пушкаа", "horsemans",
                 "archars", "тяжелых пехотинцав"):
        assert names.match(typo) == [], typo
