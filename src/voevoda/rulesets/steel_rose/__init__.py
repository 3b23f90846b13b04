"""Война Стальной Розы (War of the Steel Rose).

Two games share this package and its data (``data/*.toml``, :mod:`.rules`):

* ``steel-rose-battle`` — one battle played as a game, two posts per side (:mod:`.ruleset`),
  on the battle engine (:mod:`.battle`);
* ``steel-rose`` — the campaign of five factions (reserved; it grows in :mod:`.campaign`).
"""

from voevoda.rulesets.steel_rose.ruleset import SteelRoseBattle

RULESETS = (SteelRoseBattle,)

__all__ = ["RULESETS", "SteelRoseBattle"]
