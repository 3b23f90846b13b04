"""Cities, buildings, garrisons, hiring and upkeep: every economic rule, each once.

Quotes are from 002_c01e70bb146ed8cc.txt; the C-rulings are in docs/rulings/steel_rose.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from voevoda.core.words import plural_en
from voevoda.rulesets.steel_rose.battle.words import unit_plural
from voevoda.rulesets.steel_rose.campaign.data import Building, Campaign
from voevoda.rulesets.steel_rose.campaign.state import CampaignState, City, Faction


def add_units(into: dict[str, int], units: Mapping[str, int], times: int = 1) -> None:
    for uid, n in units.items():
        if n * times:
            into[uid] = into.get(uid, 0) + n * times


def remove_units(pool: dict[str, int], units: Mapping[str, int]) -> None:
    for uid, n in units.items():
        left = pool.get(uid, 0) - n
        if left > 0:
            pool[uid] = left
        else:
            pool.pop(uid, None)


def sorted_units(units: Mapping[str, int], campaign: Campaign) -> dict[str, int]:
    """Units in the data's order (so identical pools serialise identically)."""
    order = {uid: i for i, uid in enumerate(campaign.rules.units)}
    return {uid: n for uid, n in sorted(units.items(), key=lambda kv: order.get(kv[0], 10**6)) if n > 0}


# ----------------------------------------------------------------------------- cities

def base_income(campaign: Campaign, city: City) -> int:
    """«Малые: +(150*уровень)з в ход ... Большие: +(300*уровень)з в ход.» The mobile city
    «не приносит дохода»; ruins bring nothing."""
    if city.ruins or city.gone or city.kind == "mobile":
        return 0
    eco = campaign.economy
    per = eco.large_income_per_level if city.kind == "large" else eco.small_income_per_level
    return per * city.level


def slots(campaign: Campaign, city: City) -> int:
    """«В малых городах можно поставить 1 постройку, в больших - 3 постройки.»"""
    if city.kind == "mobile" or city.ruins:
        return 0
    return campaign.economy.large_slots if city.kind == "large" else campaign.economy.small_slots


def raise_cost(campaign: Campaign, city: City) -> int:
    """«Чтобы повысить уровень, нужно потратить золото в размере трёхкратного дохода города»:
    three times the base income at the current level (ruling C3)."""
    return int(math.ceil(campaign.economy.raise_multiplier * base_income(campaign, city)))


def restore_cost(campaign: Campaign, city: City) -> int:
    """«нужно потратить 300 золота для малого или 900 для большого»"""
    return campaign.economy.restore_large if city.kind == "large" else campaign.economy.restore_small


def buildings_of(campaign: Campaign, city: City) -> list[tuple[str, Building]]:
    """The city's buildings with their data (those of the owner's faction; ruling C12)."""
    if city.owner is None:
        return []
    table = campaign.buildings.of(city.owner)
    return [(bid, table[bid]) for bid in city.buildings if bid in table]


@dataclass
class Income:
    """A city's income this turn, and why."""

    city: str
    base: int = 0
    buildings: list[tuple[str, int]] = field(default_factory=list)
    halved: int = 0
    defended: int = 0
    idle: bool = False
    total: int = 0


def city_income(campaign: Campaign, city: City, *, defended: bool, turn: int) -> Income:
    """The city's gold this turn: the base, each building's «+N к доходу города», halved by each
    building that «уменьшает доход города вдвое» (ruling C8), less «(75*уровень города)» when an
    army defended it; nothing in the turn of a plunder or a restoration (ruling C16; the turn after
    a plunder under the option ``plunder_income = "next_turn"``)."""
    out = Income(city.id, base=base_income(campaign, city))
    if turn in (city.idle_turn, city.idle_next):
        out.idle = True
        return out
    amount = out.base
    for bid, b in buildings_of(campaign, city):
        if b.income:
            out.buildings.append((bid, b.income))
            amount += b.income
    for _bid, b in buildings_of(campaign, city):
        if b.halves_income:
            out.halved += 1
            amount = amount // 2
    if defended and out.base:
        out.defended = campaign.economy.defence_income_penalty_per_level * city.level
        amount -= out.defended
    out.total = max(0, amount)
    return out


def garrison(campaign: Campaign, city: City) -> dict[str, int]:
    """«Ваша фракция определяет гарнизон поселения, который зависит ещё и от уровня города ... В
    больших поселениях гарнизон ... вдвое выше численностью», plus the buildings' «+N к
    гарнизону» (not doubled unless ``double_building_garrison``, ruling C9)."""
    if city.owner is None or city.ruins or city.kind == "mobile":
        return {}
    units = campaign.rules.garrison(city.owner, city.level, city.kind == "large") \
        if str(city.level) in campaign.faction(city.owner).garrison else {}
    factor = campaign.rules.model.large_city_multiplier \
        if city.kind == "large" and campaign.economy.double_building_garrison else 1
    for _bid, b in buildings_of(campaign, city):
        add_units(units, b.garrison, factor)
    return sorted_units(units, campaign)


def garrison_powder(campaign: Campaign, cities: Iterable[City]) -> int:
    """The gunpowder the garrisons of ``cities`` spend in one battle each with a volley («В
    описании указывается трата пороха за 1 бой ... Расход пороха для отряда удваивается, если вы
    отдаете приказ 'обстрел'»): the Principality's stock at the start (ruling C2)."""
    per_battle = 0
    for city in cities:
        for uid, n in garrison(campaign, city).items():
            per_battle += campaign.rules.units[uid].gunpowder * n
    return int(math.ceil(per_battle * campaign.rules.battle.volley_gunpowder_multiplier))


def garrison_shots_percent(campaign: Campaign, city: City) -> float:
    """«+25% к урону выстрелов для юнитов в гарнизоне» (Стены с бойницами), «+35%» (Бастион):
    the factors multiply (battle ruling R7), given to the battle as one percentage."""
    factor = 1.0
    for _bid, b in buildings_of(campaign, city):
        if b.garrison_shots_percent:
            factor *= 1 + b.garrison_shots_percent / 100
    return round((factor - 1) * 100, 6)


# ----------------------------------------------------------------------------- hiring

def owned_buildings(state: CampaignState, fid: str) -> list[tuple[City, str]]:
    return [(c, bid) for c in state.cities_of(fid) for bid in c.buildings]


def max_city_level(state: CampaignState, fid: str) -> int:
    return max((c.level for c in state.cities_of(fid)), default=0)


def can_hire(campaign: Campaign, state: CampaignState, fid: str, uid: str) -> tuple[bool, str, str]:
    """Whether ``fid`` may hire ``uid`` now, and why not (ru, en).

    Units are hired by the faction, not by a city: a building that «позволяет обучать» a unit
    does so for the whole faction (ruling C11). A unit no building names (the wolf, the
    archpriest) needs a city of at least its level. The ogres hire «юнитов того же уровня, что и
    сам город» (their mobile city); any other faction hires ogres as mercenaries (see
    :func:`mercenary_problem`)."""
    unit = campaign.rules.units.get(uid)
    if unit is None:
        return False, f"нет юнита «{uid}»", f"no unit '{uid}'"
    if not unit.purchasable:
        return False, f"«{unit.name_ru}» не нанимается за золото (только призывом)", \
            f"{unit.name_en} cannot be hired (summoned only)"
    if unit.faction == "ogres":
        mobile = mobile_city(state)
        level = mobile.level if mobile is not None and not mobile.gone else 0
        if unit.level > level:
            return False, (f"передвижной город огров {level}-го уровня: «{unit.name_ru}» ({unit.level}-й уровень) "
                           "не обучить"), f"the ogres' mobile city is level {level}: no {unit.name_en} (level {unit.level})"
        return True, "", ""
    if unit.faction != fid:
        return False, f"«{unit.name_ru}» — юнит другой фракции", f"{unit.name_en} is another faction's unit"
    needed = campaign.unlocked_by[fid].get(uid)
    if needed:
        have = {bid for _c, bid in owned_buildings(state, fid)}
        if not have.intersection(needed):
            names_ru = " или ".join(f"«{campaign.building(fid, b).name_ru}»" for b in needed)
            names_en = " or ".join(campaign.building(fid, b).name_en for b in needed)
            many_ru = unit_plural(campaign.rules, uid, "gent")
            return False, f"чтобы нанимать {many_ru}, нужна постройка {names_ru}", \
                f"hiring {plural_en(unit.name_en.lower())} needs a building: {names_en}"
        return True, "", ""
    if max_city_level(state, fid) < unit.level:
        return False, f"для «{unit.name_ru}» нужен город {unit.level}-го уровня", \
            f"{unit.name_en} needs a city of level {unit.level}"
    return True, "", ""


def mobile_city(state: CampaignState) -> City | None:
    for city in state.cities.values():
        if city.kind == "mobile":
            return city
    return None


def at_war_with_ogres(state: CampaignState, fid: str) -> bool:
    """«если не находятся в этот ход с Ограми в состоянии войны»: a battle between the two in the
    turn before (ruling C26)."""
    return state.at_war(fid, "ogres")


def mercenary_problem(state: CampaignState, fid: str) -> tuple[str, str] | None:
    """Why ``fid`` cannot hire ogres now: «если Передвижной город стоит рядом с городом другой
    фракции» and it is not at war with them."""
    ogres = state.factions.get("ogres")
    mobile = mobile_city(state)
    if ogres is None or mobile is None or mobile.gone or ogres.status not in ("playing", "idle"):
        return "огров нет в игре", "the ogres are not in the game"
    if at_war_with_ogres(state, fid):
        return "вы воевали с ограми в прошлом ходу", "you fought the ogres last turn"
    assert mobile.road is not None
    if not any(state.cities[c].owner == fid and not state.cities[c].ruins and not state.cities[c].gone
               for c in mobile.road):
        return ("передвижной город огров не стоит рядом с вашим городом",
                "the ogres' mobile city does not stand next to a city of yours")
    return None


@dataclass(frozen=True)
class Price:
    gold: int
    resource: float = 0


def hire_price(campaign: Campaign, fid: str, uid: str, count: int) -> Price:
    """The unit's own price; ogres hired by another faction cost «двойную цену»."""
    unit = campaign.rules.units[uid]
    gold = unit.gold * count
    if unit.faction == "ogres" and fid != "ogres":
        gold = int(math.ceil(gold * campaign.model.ogres.mercenary_price_multiplier))
        return Price(gold, 0)
    return Price(gold, unit.unique * count)


def building_price(b: Building) -> Price:
    return Price(b.gold, b.resource)


def sale_price(campaign: Campaign, b: Building) -> Price:
    """«Постройки можно мгновенно 'продавать' за половину стоимости» (rounded down)."""
    f = campaign.economy.sell_fraction
    return Price(int(b.gold * f), math.floor(b.resource * f * 100) / 100)


def upkeep(campaign: Campaign, units: Mapping[str, int]) -> tuple[int, float]:
    """Gold and meat a turn for ``units`` («5з/ход», «-2 Мяса в ход»). Gold is rounded up."""
    gold = 0.0
    meat = 0.0
    for uid, n in units.items():
        unit = campaign.rules.units[uid]
        gold += unit.upkeep * n
        meat += unit.meat_upkeep * n
    return int(math.ceil(gold - 1e-9)), meat


def dismiss_for_upkeep(campaign: Campaign, faction: Faction, gold_available: int,
                       meat_available: float, meat_applies: bool) -> tuple[dict[str, int], int, float]:
    """Units that leave because their upkeep cannot be paid (ruling C14): the dearest to keep
    leave first, one at a time, until the rest can be paid. Returns (left, gold, meat)."""
    left: dict[str, int] = {}
    units = dict(faction.units)
    order = sorted(units, key=lambda u: (-campaign.rules.units[u].upkeep, -campaign.rules.units[u].meat_upkeep, u))
    while True:
        gold, meat = upkeep(campaign, units)
        if gold <= gold_available and (not meat_applies or meat <= meat_available + 1e-9):
            return left, gold, meat if meat_applies else 0.0
        short_meat = meat_applies and meat > meat_available + 1e-9
        pick = None
        for uid in order:
            if units.get(uid, 0) <= 0:
                continue
            unit = campaign.rules.units[uid]
            if gold > gold_available and unit.upkeep > 0 or short_meat and unit.meat_upkeep > 0:
                pick = uid
                break
        if pick is None:
            return left, min(gold, gold_available), min(meat, meat_available) if meat_applies else 0.0
        units[pick] -= 1
        if units[pick] == 0:
            del units[pick]
        left[pick] = left.get(pick, 0) + 1


# ----------------------------------------------------------------------------- per turn

def resource_per_turn(campaign: Campaign, state: CampaignState, fid: str) -> list[tuple[str, float]]:
    """The unique resource a faction makes each turn: buildings («+2ч в ход», «15 Пороха в ход»,
    «+30м в ход»), and the elves' «+100/ход»."""
    out: list[tuple[str, float]] = []
    if fid == "heaven":
        out.append(("", float(campaign.model.heaven.mana_per_turn)))
    for city in state.cities_of(fid):
        for bid, b in buildings_of(campaign, city):
            if b.resource_per_turn:
                out.append((f"{city.id}/{bid}", b.resource_per_turn))
    return out


def units_per_turn(campaign: Campaign, state: CampaignState, fid: str) -> dict[str, int]:
    """«+1 голем бесплатно каждый ход», «+2 стрелка и +2 щитовика в армию каждый ход», «каждый
    ход добавляет в вашу армию 2 низших демонов», «добавляет 4 заразителей в вашу армию»."""
    units: dict[str, int] = {}
    for city in state.cities_of(fid):
        for _bid, b in buildings_of(campaign, city):
            add_units(units, b.units_per_turn)
    return sorted_units(units, campaign)


def hunger_passive(campaign: Campaign, state: CampaignState) -> int:
    """«ГП копится пассивно со скоростью +10 в ход и ещё +15 за каждый город под вашим
    контролем», less 5 for each «Тёмный алтарь» (ruling C33: not below zero)."""
    cities = state.cities_of("void_cult")
    amount = campaign.model.void.passive + campaign.model.void.per_city * len(cities)
    for city in cities:
        for _bid, b in buildings_of(campaign, city):
            amount += b.hunger_passive
    return max(0, amount)


def raid_bonus(campaign: Campaign, state: CampaignState, fid: str) -> int:
    """«+50з к наградам от разрушения и разграбления городов» (Темница для пыток, Рынок рабов)."""
    return sum(b.raid_reward for c in state.cities_of(fid) for _bid, b in buildings_of(campaign, c))


def floating_price(campaign: Campaign, state: CampaignState, city: City, cast_in_a_row: int) -> int:
    """«Парящий город (100м) ... каждое следующее использование будет на 50м дороже», less 50 for
    each «Парящий шпиль» / «Парящий монолит» in the city (never below zero)."""
    spell = campaign.model.heaven.spells["floating_city"]
    price = spell.mana + spell.repeat_increase * cast_in_a_row
    price -= sum(b.floating_discount for _bid, b in buildings_of(campaign, city))
    return max(0, price)


def detectors(campaign: Campaign, state: CampaignState, fid: str) -> list[tuple[City, str, float]]:
    """(city, building, chance) for each detection building ``fid`` owns."""
    out = []
    for city in state.cities_of(fid):
        for bid, b in buildings_of(campaign, city):
            if b.detect is not None:
                out.append((city, bid, b.detect.chance))
    return out


def covered_by(campaign: Campaign, state: CampaignState, fid: str, city_id: str) -> list[tuple[City, str]]:
    """Detection buildings of ``fid`` covering ``city_id`` («в этом и связанных городах»)."""
    near = {city_id, *campaign.neighbours.get(city_id, ())}
    return [(c, bid) for c, bid, _ in detectors(campaign, state, fid) if c.id in near]


def cleanse_price(campaign: Campaign, state: CampaignState, fid: str, city: City,
                  pay: str) -> Price | None:
    """«Позволяет обнулить заражение за (100*уровень города)з либо (10*уровень города)ч»: the
    cheapest price among the buildings covering the city; ``None`` when none covers it or none
    takes that payment."""
    best: Price | None = None
    for _c, bid in covered_by(campaign, state, fid, city.id):
        detect = campaign.building(fid, bid).detect
        assert detect is not None
        if pay == "gold":
            price = Price(detect.gold_per_level * city.level)
        elif detect.resource_per_level is not None:
            price = Price(0, detect.resource_per_level * city.level)
        else:
            continue
        if best is None or (price.gold, price.resource) < (best.gold, best.resource):
            best = price
    return best


def count_cities(state: CampaignState, fid: str) -> int:
    """Cities a faction holds (ruins are not cities; the mobile city is one)."""
    return len(state.cities_of(fid))


def plunder_reward(campaign: Campaign, city: City, income: int, fid: str, state: CampaignState,
                   raze: bool) -> tuple[int, float]:
    """«вы мгновенно получаете утроенный доход города за ход» (+ the cult's «к наградам»; the
    ogres «получают вдвое больше золота и мясо в размере восьмой (пятой) части»)."""
    eco = campaign.economy
    gold = income * (eco.raze_multiplier if raze else eco.plunder_multiplier)
    gold += raid_bonus(campaign, state, fid)
    meat = 0.0
    if fid == "ogres":
        o = campaign.model.ogres
        gold *= o.raze_gold_multiplier if raze else o.raid_gold_multiplier
        meat = math.floor(gold / (o.raze_meat_divisor if raze else o.raid_meat_divisor))
    return int(gold), float(meat)


def units_text(units: Mapping[str, int]) -> str:
    return ", ".join(f"{uid}×{n}" for uid, n in units.items())


def total(units: Iterable[int]) -> int:
    return sum(units)
