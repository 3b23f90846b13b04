"""Armies on real prices: what a unit costs a faction in gold, its own resource counted at its
exchange value, and what the buildings that unlock it cost (``voevoda balance --prices real``).

002 prices units in gold and the faction's resource («Целитель: ... 15з+5ч», «Голем: ... 10з+30м»),
makes some cost void hunger when hired («+2 ГП при найме») and makes the Principality's shooters
spend gunpowder in each battle («1 порох»; «Расход пороха для отряда удваивается, если вы
отдаете приказ 'обстрел'»). The exchange rates are in ``campaign.toml`` ``[exchange]`` (ruling
C50). A unit a building «позволяет обучать» needs that building first: its price (the cheapest
of the buildings that unlock it) is paid once for the army, for the units the army buys only
(:func:`voevoda.sim.balance.real_army`; issue 29, item 14).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from voevoda.rulesets.steel_rose.campaign.data import Campaign


@dataclass(frozen=True)
class Pricing:
    campaign: Campaign

    def rate(self, fid: str) -> float:
        return float(self.campaign.model.exchange.get(fid, 0))

    def unit(self, fid: str, uid: str) -> float:
        """Gold, the faction's resource at its rate, the hunger taken on when hired, and one
        battle's gunpowder with a volley (doubled)."""
        unit = self.campaign.rules.units[uid]
        rate = self.rate(unit.faction)
        price = unit.gold + unit.unique * rate
        if unit.faction == "void_cult":
            price += unit.void_hunger_on_hire * rate
        if unit.faction == "steel_rose" and unit.gunpowder:
            price += unit.gunpowder * self.campaign.rules.battle.volley_gunpowder_multiplier * rate
        return float(price)

    def building(self, fid: str, bid: str) -> float:
        b = self.campaign.building(fid, bid)
        return float(b.gold + b.resource * self.rate(fid))

    def unlocks(self, fid: str, units: Iterable[str]) -> dict[str, float]:
        """The buildings an army of ``units`` needs (the cheapest for each unit), and their prices."""
        needed: dict[str, float] = {}
        for uid in units:
            options = self.campaign.unlocked_by.get(fid, {}).get(uid)
            if not options:
                continue
            if any(bid in needed for bid in options):
                continue
            best = min(options, key=lambda bid: (self.building(fid, bid), bid))
            needed[best] = self.building(fid, best)
        return needed
