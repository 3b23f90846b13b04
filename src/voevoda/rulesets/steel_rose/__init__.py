"""Война Стальной Розы (War of the Steel Rose).

Two games share this package and its data (``data/*.toml``, :mod:`.rules`):

* ``steel-rose`` — the campaign of five factions (:mod:`.campaign`), fighting its battles on
  the battle engine (:mod:`.battle`);
* ``steel-rose-battle`` — one battle played as a game, two posts per side (:mod:`.ruleset`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voevoda.rulesets.steel_rose.campaign.ruleset import SteelRoseCampaign
    from voevoda.rulesets.steel_rose.ruleset import SteelRoseBattle

RULESET_MODULES = {
    "steel-rose": "voevoda.rulesets.steel_rose.campaign.ruleset:SteelRoseCampaign",
    "steel-rose-battle": "voevoda.rulesets.steel_rose.ruleset:SteelRoseBattle",
}
"""The two games, imported one at a time by the registry (a battle's status does not load the
campaign)."""


def __getattr__(name: str) -> Any:
    if name == "SteelRoseCampaign":
        from voevoda.rulesets.steel_rose.campaign.ruleset import SteelRoseCampaign

        return SteelRoseCampaign
    if name == "SteelRoseBattle":
        from voevoda.rulesets.steel_rose.ruleset import SteelRoseBattle

        return SteelRoseBattle
    if name == "RULESETS":
        return (__getattr__("SteelRoseCampaign"), __getattr__("SteelRoseBattle"))
    raise AttributeError(f"module 'voevoda.rulesets.steel_rose' has no attribute '{name}'")


__all__ = ["RULESETS", "RULESET_MODULES", "SteelRoseBattle", "SteelRoseCampaign"]
