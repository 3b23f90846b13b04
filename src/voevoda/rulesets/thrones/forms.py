"""Every Russian form of the names a Thrones post may use (areas, houses, units, cards), kept as
data: working them out with the morphology dictionary costs about a second a process, which every
command that reads a post would pay (issue 17: «voevoda status answers in under 0.3 s»; `status`
reads the posts of the step again). ``data/forms.json`` holds the forms of every name of the
shipped rules and board; a name a house-rules file brings is worked out when first read.
``tests/rulesets/thrones/test_thrones_forms.py`` checks the file against the morphology, and
``python -m voevoda.rulesets.thrones.forms`` writes it again after a change of the names or of
how their forms are made (``orders._russian_forms``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

FORMS_FILE = Path(__file__).parent / "data" / "forms.json"


@cache
def shipped() -> dict[str, tuple[str, ...]]:
    """The forms kept in ``data/forms.json``, by name."""
    if not FORMS_FILE.exists():
        return {}
    data = json.loads(FORMS_FILE.read_text(encoding="utf-8"))
    return {name: tuple(forms) for name, forms in data.items()}


def names() -> list[str]:
    """Every Russian name of the shipped rules and board that a post may use."""
    from voevoda.rulesets.thrones.board import board
    from voevoda.rulesets.thrones.rules import UNIT_KINDS, load_rules

    rules = load_rules()
    found: list[str] = []
    for area in board().areas.values():
        found.extend((area.name_ru, *area.aliases))
    found.extend(house.name_ru for house in rules.houses.values())
    for kind in UNIT_KINDS:
        found.extend(name for name in rules.units[kind].forms
                     if any("а" <= ch <= "я" or ch == "ё" for ch in name.lower()))
    for card in rules.deck.all():
        found.extend((card.name_ru, *card.forms))
    return sorted(set(found))


def table(compute: Callable[[str], tuple[str, ...]]) -> dict[str, list[str]]:
    """The forms of every name, worked out by ``compute``."""
    return {name: list(compute(name)) for name in names()}


def write() -> None:
    from voevoda.rulesets.thrones.orders import compute_forms

    FORMS_FILE.write_text(json.dumps(table(compute_forms), ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")


if __name__ == "__main__":
    write()
