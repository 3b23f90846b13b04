"""Война Стальной Розы (War of the Steel Rose).

Two games share this package and its data (``data/*.toml``, :mod:`.rules`):

* ``steel-rose`` — the campaign of five factions (:mod:`.campaign`), fighting its battles on
  the battle engine (:mod:`.battle`);
* ``steel-rose-battle`` — one battle played as a game, two posts per side (:mod:`.ruleset`).
"""

from voevoda.rulesets.steel_rose.campaign.ruleset import SteelRoseCampaign
from voevoda.rulesets.steel_rose.ruleset import SteelRoseBattle

RULESETS = (SteelRoseCampaign, SteelRoseBattle)

__all__ = ["RULESETS", "SteelRoseBattle", "SteelRoseCampaign"]
