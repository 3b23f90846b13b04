"""Война Стальной Розы (War of the Steel Rose).

For now the battle mode: the battle engine (:mod:`.battle`) behind a two-post-per-side
decision point. Unit, garrison and battle data live in ``data/*.toml`` (:mod:`.rules`).
The campaign (economy, buildings, spells, rituals, epochs) will grow beside it.
"""

from voevoda.rulesets.steel_rose.ruleset import SteelRose

RULESET = SteelRose

__all__ = ["RULESET", "SteelRose"]
