"""«УСЛОВИЯ ПОБЕДЫ»: each faction's list, item by item, and whether it is met.

The document gives each faction a list of conditions followed by what happens «При победе»:

* Империя: «Уничтожить фракцию 'Княжество Стальной Розы'. Захватить как минимум 9 городов.
  Накопить 60 чести.»
* Княжество: «Уничтожить фракцию 'Империя'. Захватить как минимум 8 городов.»
* Благословлённые небом: «Накопить 500 маны. Держать под контролем не меньше 7 городов, среди
  которых должна быть Парящая крепость»
* Культ пустоты: «Захватить не менее 6 городов. Накопить 1500з»
* Огры: «Накопить 300 мяса и 1000з. Разграбить или разрушить не менее 4-х городов.»

A faction wins when every item of its list is met at once (ruling C36); the option
``victory_conditions = any`` lets one item do. The items are computed here once, from the state,
for the end of a turn (:func:`voevoda.rulesets.steel_rose.campaign.turn.victory_step`), for the
faction's own view (its progress, shown in its report) and so for its computer opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign.context import Options
from voevoda.rulesets.steel_rose.campaign.data import Campaign
from voevoda.rulesets.steel_rose.campaign.state import CampaignState

ITEMS = ("destroy", "cities", "hoard", "resource", "gold", "raids")
"""The kinds of item a list may hold, in the order the document writes them."""


@dataclass(frozen=True)
class Goal:
    """One item of a faction's list: what it asks (``need``), what the faction has (``have``),
    and whether it is met; ``about`` names the faction to destroy or the city the cities must
    include."""

    item: str
    met: bool
    have: float
    need: float
    about: str | None = None
    gold_have: int = 0
    gold_need: int = 0
    """The ogres' «Накопить 300 мяса и 1000з» is one item of two amounts: meat in ``have`` and
    ``need``, gold here."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"item": self.item, "met": self.met, "have": self.have, "need": self.need}
        if self.about is not None:
            out["about"] = self.about
        if self.gold_need:
            out["gold_have"] = self.gold_have
            out["gold_need"] = self.gold_need
        return out


def cities_counted(campaign: Campaign, options: Options, state: CampaignState, fid: str) -> int:
    """«Захватить N городов»: the cities held (ruling C6), or those taken (``victory_cities =
    captured``)."""
    if options.victory_cities == "captured":
        return state.factions[fid].captured
    return eco.count_cities(state, fid)


def goals(campaign: Campaign, options: Options, state: CampaignState, fid: str) -> list[Goal]:
    """The items of ``fid``'s «УСЛОВИЯ ПОБЕДЫ», each with its progress now."""
    rules = campaign.model.victory.get(fid)
    if rules is None:
        return []
    f = state.factions[fid]
    out: list[Goal] = []
    if rules.destroy:
        victim = state.factions.get(rules.destroy)
        done = victim is not None and victim.status == "out" and (
            options.destroy_victory == "any" or victim.destroyed_by == fid)
        out.append(Goal("destroy", done, float(done), 1.0, rules.destroy))
    if rules.cities:
        have = cities_counted(campaign, options, state, fid)
        with_city = rules.cities_with
        holds = True
        if with_city:
            city = state.cities.get(with_city)
            holds = city is not None and city.owner == fid and not city.ruins and not city.gone
        out.append(Goal("cities", have >= rules.cities and holds, float(have), float(rules.cities), with_city))
    if fid == "ogres" and rules.resource is not None and rules.gold is not None:
        # «Накопить 300 мяса и 1000з» is one item of the list
        met = f.resource >= rules.resource and f.gold >= rules.gold
        out.append(Goal("hoard", met, f.resource, rules.resource, None, f.gold, rules.gold))
    else:
        if rules.resource is not None:
            out.append(Goal("resource", f.resource >= rules.resource, f.resource, rules.resource))
        if rules.gold is not None:
            out.append(Goal("gold", f.gold >= rules.gold, float(f.gold), float(rules.gold)))
    if rules.raids:
        out.append(Goal("raids", f.raids >= rules.raids, float(f.raids), float(rules.raids)))
    return out


def won_by(options: Options, items: list[Goal]) -> str | None:
    """The reason ``fid`` wins now, or ``None``: ``conditions`` when every item is met (the
    default), else under ``victory_conditions = any`` the first item met."""
    if not items:
        return None
    if options.victory_conditions == "any":
        return next((g.item for g in items if g.met), None)
    return "conditions" if all(g.met for g in items) else None
