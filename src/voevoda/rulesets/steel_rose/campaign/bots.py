"""Computer opponents: one purposeful plan per faction, written as the posts a person would write.

A bot sees its own seat's view and nothing else. Each turn it

* builds toward its faction's victory (the Empire its honour halls, the Principality powder and
  guns, the Sky-Blessed mana, the cult its refuge and rituals, the ogres their herd) and raises
  its cities when the epoch allows;
* hires the best units it can afford, keeping the next turn's upkeep in hand;
* weighs every city it may attack: the city's public type, size, level and owner give the
  garrison the document lists (buildings and defending armies it cannot see add a margin), and
  the batched simulator (:func:`voevoda.sim.odds.odds`) gives its chance of winning with the
  army it has; it attacks the best target above its faction's threshold;
* answers battle posts and capture choices as its faction should (the cult and the ogres
  plunder, the others colonise);
* seeks the Dark Alliance when it has lost cities; the cult accepts and betrays (``diplomacy``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from voevoda.core.dice import Stream
from voevoda.core.words import thing_accusative
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.posts import default_garrison_deployment, write_deployment
from voevoda.rulesets.steel_rose.campaign.context import Options
from voevoda.rulesets.steel_rose.campaign.data import Campaign
from voevoda.rulesets.steel_rose.campaign.orders import MOBILE_ID
from voevoda.rulesets.steel_rose.campaign.report import (
    FACTION_CASES_RU,
    Words,
    city_accusative,
    city_locative,
)

# What each faction builds, in order of need: (building, reason).
BUILD_PLAN: dict[str, list[str]] = {
    "empire": ["barracks", "chapel", "farmland", "knights_hall", "barracks2", "silver_mine", "paladins_hall",
               "griffin_fields", "gold_mine"],
    "steel_rose": ["barracks", "armoury", "manufactory", "barracks2", "powder_mill", "factory",
                   "military_academy", "arms_factory"],
    "heaven": ["nature_shrine", "ranger_outpost", "sorcerers_tower", "gardens_of_peace", "keepers_camp",
               "floating_monolith", "floating_isles"],
    "void_cult": ["cultist_refuge", "dark_altar", "torture_dungeon", "demonic_portal", "citadel_of_pain",
                  "slave_market", "void_rift", "summoners_cult"],
    "ogres": [],
}
# What each faction hires, best first.
HIRE_PLAN: dict[str, list[str]] = {
    "empire": ["knight", "paladin", "griffin_rider", "heavy_infantry", "crossbowman", "horseman", "archer",
               "spearman"],
    "steel_rose": ["musketeer", "cannon", "shieldbearer", "gunner", "mounted_gunner"],
    "heaven": ["sky_guard", "spectral_beast", "keeper", "wolf", "ranger"],
    "void_cult": ["void_knight", "cultist", "enlightened"],
    "ogres": ["stonehorn", "maneater", "sorrowfang", "bull", "leadbelcher", "gnoblar"],
}
THRESHOLD = {"empire": 0.6, "steel_rose": 0.65, "heaven": 0.7, "void_cult": 0.5, "ogres": 0.55}
SEEKS_DARK_ALLIANCE = {"steel_rose"}
"""Who offers the cult an alliance from the first turn when it starts without its resource (option
``start_powder = false``, ruling C2): the Principality, whose shooters then have no powder before
its workshops make it («Если вы не выделите порох юниту ... он не сможет сражаться»); the demons
hold its cities meanwhile. Otherwise it, like the others, offers it only once it has lost a city."""
MARGIN = 1.15
"""How much stronger than the listed garrison a bot assumes a city to be (buildings, armies)."""


def bot_post(campaign: Campaign, options: Options, view: Mapping[str, Any], player: str, stream: Stream) -> str:
    phase = view.get("phase")
    fid = str(view.get("me"))
    if phase == "orders":
        return Planner(campaign, options, view, fid, stream).orders()
    if phase == "deployment":
        return _deployments(campaign, view, fid)
    if phase == "planning":
        return _plans(campaign, view, fid)
    if phase == "capture":
        lines = []
        for cap in view.get("captures", []):
            if cap["faction"] == fid and not cap["done"]:
                choice = {"void_cult": "разграбить", "ogres": "разрушить и бросить"}.get(fid, "колонизировать")
                lines.append(f"{_city_name(campaign, cap['city'])}: {choice}")
        return "\n".join(lines)
    return ""


def _city_name(campaign: Campaign, cid: str) -> str:
    if cid == MOBILE_ID and campaign.map.mobile is not None:
        return campaign.map.mobile.name_ru
    return campaign.map.cities[cid].name_ru


def _units_text(campaign: Campaign, units: Mapping[str, int]) -> str:
    """Units to hire as a post writes them, counted in the accusative: «10 копейщиков и 1 лучника»."""
    return Words(campaign, "ru").units(dict(units), "accs")


def garrison_of(campaign: Campaign, owner: str | None, kind: str, level: int) -> dict[str, int]:
    """The garrison the document lists for a city (what any player can work out from the map)."""
    if owner is None or kind == "mobile":
        return {}
    table = campaign.faction(owner).garrison
    if str(level) not in table:
        return {}
    return campaign.rules.garrison(owner, level, kind == "large")


def strength(campaign: Campaign, units: Mapping[str, int]) -> float:
    """A rough fighting value: total health times total damage per round (Lanchester's square)."""
    hp = 0.0
    dmg = 0.0
    for uid, n in units.items():
        u = campaign.rules.units[uid]
        hp += (u.health + 3 * u.defence) * n
        dmg += ((u.attack + 1) / 2 * u.attacks_per_round + (u.ranged + 1) / 2 * (1 if u.volley else 0)) * n
    return hp * dmg


def win_chance(campaign: Campaign, options: Options, attacker: Mapping[str, int], att_faction: str,
               defender: Mapping[str, int], def_faction: str, seed: str, gunpowder: int | None = None) -> float:
    """The chance that ``attacker`` beats ``defender`` (both placed as the document's default),
    from ``bot_odds_battles`` battles on the batched simulator (200 by default), or from
    :func:`strength` when that option is 0."""
    if not defender:
        return 1.0
    if not attacker:
        return 0.0
    n = options.bot_odds_battles
    if n <= 0:
        a, d = strength(campaign, attacker), strength(campaign, defender) * MARGIN ** 2
        return a * a / (a * a + d * d)
    from voevoda.sim.odds import odds

    rules = campaign.rules
    side_a = SideInput("A", att_faction, tuple(default_garrison_deployment(dict(attacker), rules)), (),
                       gunpowder if att_faction == "steel_rose" else None)
    side_d = SideInput("D", def_faction, tuple(default_garrison_deployment(dict(defender), rules)), (),
                       None, True)
    result = odds((side_a, side_d), n=n, seed=seed, rules=rules, options=options.battle)
    return result.wins[0] / result.n


class Planner:
    """One bot's turn of orders."""

    def __init__(self, campaign: Campaign, options: Options, view: Mapping[str, Any], fid: str, stream: Stream) -> None:
        self.c = campaign
        self.options = options
        self.view = view
        self.fid = fid
        self.stream = stream
        own = view.get("own") or {}
        self.gold = int(own.get("gold", 0))
        self.resource = float(own.get("resource", 0))
        self.units: dict[str, int] = dict(own.get("units", {}))
        self.turn = int(view["turn"])
        self.epoch = campaign.epoch(self.turn)
        self.cities = view["cities"]
        self.own_cities: dict[str, dict[str, Any]] = {cid: dict(c) for cid, c in (view.get("own_cities") or {}).items()}
        self.lines: list[str] = []
        self.hired: dict[str, int] = {}
        self.buildings_bought: set[str] = set()
        self.allying: set[str] = set()
        """Factions this post offers or accepts an alliance: not to be attacked in the same post."""
        self.camp: list[str] | None = list(own["camp"]) if own.get("camp") else None
        self.last_city: str | None = own.get("last_city")

    # -- helpers ------------------------------------------------------------------------

    def mine(self) -> list[str]:
        return [cid for cid, c in self.cities.items() if c.get("owner") == self.fid and not c.get("ruins")
                and not c.get("gone") and c["kind"] != "mobile"]

    def within_reach(self, cid: str) -> bool:
        """A city next to one of the faction's, or at an end of the cult's camp's road (C53)."""
        return bool(set(self.mine()).intersection(self.c.neighbours.get(cid, ()))) or cid in (self.camp or [])

    def upkeep(self, units: Mapping[str, int]) -> int:
        return int(sum(self.c.rules.units[u].upkeep * n for u, n in units.items()))

    def income(self) -> int:
        total = 0
        per = {"small": self.c.economy.small_income_per_level, "large": self.c.economy.large_income_per_level}
        for cid in self.mine():
            c = self.cities[cid]
            total += per[c["kind"]] * c["level"]
            for bid in self.own_cities.get(cid, {}).get("buildings", []):
                total += self.c.building(self.fid, bid).income
        return total

    def all_units(self) -> dict[str, int]:
        units = dict(self.units)
        for u, n in self.hired.items():
            units[u] = units.get(u, 0) + n
        return units

    # -- the post ---------------------------------------------------------------------------

    def orders(self) -> str:
        self.diplomacy()
        if self.hoarding():
            # the treasury wins within two turns if nothing is spent: keep it
            if self.units:
                self.lines.append("Армия 1: все — рассредоточиться")
            return "\n".join(self.lines)
        if self.fid == "ogres":
            self.move_mobile()
        if self.fid == "void_cult":
            self.pitch_camp()
        self.restore_ruins()
        self.raise_levels()
        self.build()
        self.rituals_before()
        self.hire()
        self.spells()
        self.armies()
        return "\n".join(self.lines)

    def hoarding(self) -> bool:
        """«Накопить 1500з» (the cult), «Накопить 300 мяса и 1000з» (the ogres): when the
        faction's income alone gets there within two turns and its other conditions are met,
        spending would only delay the win."""
        goal = self.c.model.victory.get(self.fid)
        if goal is None or goal.gold is None:
            return False
        if self.view.get("victory_needs", "all") != "any" and any(
                not g["met"] for g in self.view.get("victory") or [] if g["item"] not in ("gold", "hoard")):
            return False  # every item at once (ruling C36): gold alone does not win
        if self.fid == "ogres" and goal.resource is not None and self.resource < goal.resource:
            return False
        net = self.income() - self.upkeep(self.units)
        return self.gold + 2 * net >= goal.gold

    def allies(self) -> set[str]:
        return {b if a == self.fid else a for a, b in self.view.get("alliances", []) if self.fid in (a, b)}

    def diplomacy(self) -> None:
        """The Dark Alliance as the document advises it: «Если совсем припрёт или вам нечего
        терять - можно заключить союз, но потом будет больно». A faction that has lost cities
        offers the cult an alliance for its demons; the cult takes every offer, and betrays an
        ally once the betrayal brings it a city («каждый третий малый и каждый второй крупный
        город») from Day on, or sooner when a taken city would save it from its hunger («При
        захвате чужого города любым способом ГП обнуляется»)."""
        cult = "void_cult"
        allies = self.allies()
        if self.fid == cult:
            offers = sorted({by for by, to in self.view.get("proposals", []) if to == cult and by not in allies})
            for by in offers:
                self.lines.append(f"Союз с {FACTION_CASES_RU[by]['ablt']}")
                self.allying.add(by)
            own = self.view.get("own") or {}
            hunger = float(own.get("resource", 0))
            growth = self.c.model.void.passive + self.c.model.void.per_city * len(self.mine())
            hungry = hunger + growth > int(own.get("hunger_max", 100)) - 30
            rules = self.c.model.void.betrayal
            for ally in sorted(allies):
                held = [c for c in self.cities.values() if c.get("owner") == ally and not c.get("ruins")
                        and not c.get("gone") and c["kind"] in ("small", "large")]
                due = (sum(1 for c in held if c["kind"] == "small") // rules.every_small
                       + sum(1 for c in held if c["kind"] == "large") // rules.every_large)
                if due and (self.turn >= 5 or hungry):
                    self.lines.append(f"Предать {FACTION_CASES_RU[ally]['accs']}")
                    break  # one betrayal a turn: the others stay allies and keep the war away
            return
        if self.fid == "ogres" or cult in allies or self.view["factions"].get(cult, {}).get("status") != "playing":
            return
        start = sum(1 for c in self.c.map.cities.values() if c.owner == self.fid)
        if len(self.mine()) < start or (self.fid in SEEKS_DARK_ALLIANCE and not self.options.start_powder):
            self.lines.append(f"Союз с {FACTION_CASES_RU[cult]['ablt']}")
            self.allying.add(cult)

    def restore_ruins(self) -> None:
        for cid, c in self.cities.items():
            if c.get("owner") == self.fid and c.get("ruins") and not c.get("gone"):
                if self.fid == "heaven" and self.resource >= 150:
                    self.lines.append(f"Заклинание: Зов леса — {_city_name(self.c, cid)}")
                    self.resource -= 50
                    continue
                cost = self.c.economy.restore_large if c["kind"] == "large" else self.c.economy.restore_small
                if self.gold - cost > self.reserve():
                    self.lines.append(f"Восстановить {city_accusative(_city_name(self.c, cid))}")
                    self.gold -= cost

    def reserve(self) -> int:
        return self.upkeep(self.all_units()) + 20

    def raise_levels(self) -> None:
        limit = min(self.epoch.max_level, self.c.economy.max_level)
        per = {"small": self.c.economy.small_income_per_level, "large": self.c.economy.large_income_per_level}
        order = sorted(self.mine(), key=lambda cid: (self.cities[cid]["kind"] != "large", self.cities[cid]["level"], cid))
        for cid in order:
            c = self.cities[cid]
            if c["level"] >= limit:
                continue
            cost = int(self.c.economy.raise_multiplier * per[c["kind"]] * c["level"])
            if self.gold - cost > self.reserve() + 100:
                self.lines.append(f"Повысить {city_accusative(_city_name(self.c, cid))} до {c['level'] + 1}")
                self.gold -= cost
                c["level"] += 1

    def build(self) -> None:
        owned = {b for c in self.own_cities.values() for b in c.get("buildings", [])}
        for bid in BUILD_PLAN.get(self.fid, []):
            b = self.c.buildings.of(self.fid).get(bid)
            if b is None:
                continue
            repeatable = b.income > 0 or b.resource_per_turn > 0
            if bid in owned and not repeatable:
                continue
            for cid in sorted(self.mine(), key=lambda x: (self.cities[x]["kind"] != "large", x)):
                c = self.cities[cid]
                here = self.own_cities.setdefault(cid, {"buildings": []})
                slots = self.c.economy.large_slots if c["kind"] == "large" else self.c.economy.small_slots
                if bid in here["buildings"] or len(here["buildings"]) >= slots or b.level > c["level"]:
                    continue
                if b.gold > self.gold - self.reserve() - 30 or b.resource > self.resource:
                    break
                self.lines.append(f"Построить {thing_accusative(b.name_ru)} в {city_locative(_city_name(self.c, cid))}")
                self.gold -= b.gold
                self.resource -= b.resource
                here["buildings"] = [*here["buildings"], bid]
                owned.add(bid)
                if not repeatable:
                    break

    def hireable(self, uid: str) -> bool:
        unit = self.c.rules.units[uid]
        if not unit.purchasable:
            return False
        if self.fid == "ogres":
            mobile = self.cities.get(MOBILE_ID)
            return mobile is not None and unit.level <= int(mobile["level"])
        needed = self.c.unlocked_by[self.fid].get(uid)
        owned = {b for c in self.own_cities.values() for b in c.get("buildings", [])}
        if needed:
            return bool(owned.intersection(needed))
        return max((self.cities[c]["level"] for c in self.mine()), default=0) >= unit.level

    def hire(self) -> None:
        budget = self.gold - self.reserve()
        # keep a turn of upkeep for what is hired (paid at the end of the turn)
        picks = [u for u in HIRE_PLAN.get(self.fid, []) if self.hireable(u)]
        if not picks:
            return
        rules = self.c.rules
        # a mix: the best unit gets half the budget, the cheapest line unit the rest
        plan = [(picks[0], 0.5), (picks[-1], 1.0)] if len(picks) > 1 else [(picks[0], 1.0)]
        for uid, share in plan:
            unit = rules.units[uid]
            price = unit.gold + (unit.unique * 0 if self.fid == "ogres" else 0)
            if unit.unique and unit.unique * 1 > self.resource:
                continue
            spend = budget * share
            count = int(spend // max(1, price + unit.upkeep))
            if unit.unique:
                count = min(count, int(self.resource // unit.unique))
            if self.fid == "steel_rose" and unit.gunpowder:
                count = min(count, max(0, int(self.resource // max(1, unit.gunpowder)) - self.powder_need()))
            count = min(count, 60)
            if count <= 0:
                continue
            self.hired[uid] = self.hired.get(uid, 0) + count
            budget -= count * price
            self.gold -= count * price
            self.resource -= unit.unique * count
        if self.hired:
            self.lines.append("Нанять " + _units_text(self.c, self.hired))   # «Нанять 10 копейщиков и 1 лучника»

    def powder_need(self) -> int:
        return sum(self.c.rules.units[u].gunpowder * n for u, n in self.units.items())

    def spells(self) -> None:
        if self.fid != "heaven":
            return
        target = self.c.model.victory["heaven"].resource or 0
        # the elves win by mana: they spend it only on what protects that win
        if self.resource > target * 2:
            self.lines.append("Заклинание: Прорицание — Империя")

    def rituals_before(self) -> None:
        if self.fid != "void_cult":
            return
        own = self.view.get("own") or {}
        hunger = float(own.get("resource", 0))
        limit = int(own.get("hunger_max", 100))
        corruption = self.view.get("corruption") or {}
        # Infection: the cheapest way to take a city, and a taken city empties the hunger
        candidates = []
        mine = set(self.mine())
        for cid, c in self.cities.items():
            if c.get("owner") in (None, "void_cult") or c.get("ruins") or c.get("gone") or c["kind"] == "mobile":
                continue
            if c.get("floating") or self.view["factions"].get(c.get("owner"), {}).get("status") == "won":
                continue
            if self.within_reach(cid):
                candidates.append((-(int(corruption.get(cid, 0))), c["kind"] != "small", cid))
        growth = self.c.model.void.passive + self.c.model.void.per_city * len(mine)
        # over the limit at the end of the turn a city is lost («Если ГП превысит 100»): a city
        # taken resets the hunger, so the deal with the devil, when it can be paid, saves one
        if hunger + growth > limit and self.gold >= 300 + self.reserve():
            small = sorted(cid for cid, c in self.cities.items()
                           if c["kind"] == "small" and c.get("owner") not in (None, "void_cult") and not c.get("ruins")
                           and not c.get("gone") and not c.get("floating")
                           and self.view["factions"].get(c.get("owner"), {}).get("status") != "won")
            if small:
                self.lines.append(f"Ритуал: Сделка с дьяволом — {_city_name(self.c, small[0])}")
                self.gold -= 300
                return
        ripe = [c for c in candidates if -c[0] >= 8]  # 1к12+12 takes a small city from 8 on
        if candidates and self.gold >= 100 + self.reserve() and (ripe or hunger + growth + 30 <= limit):
            cid = sorted(candidates)[0][2]
            self.lines.append(f"Ритуал: Заражение — {_city_name(self.c, cid)}")
            self.gold -= 100
        elif hunger + growth + 30 <= limit and self.turn - int(own.get("last_summoning", -100)) >= 2:
            self.lines.append("Ритуал: Призыв")
        elif hunger + growth + 30 <= limit:
            self.lines.append("Ритуал: Проклятое золото")

    def pitch_camp(self) -> None:
        """A cult with no city left camps on a road («Ваша фракция может существовать без городов, а
        ваша армия может создавать временные лагеря на дороге между городами», ruling C53): from
        its ruins, its camp or the city it lost last, next to the city easiest to infect or take
        (a small city, the weakest garrison the document lists), so that a city comes back."""
        if self.mine():
            return
        held = {cid for cid, c in self.cities.items() if c.get("owner") == self.fid and c.get("ruins")
                and not c.get("gone")} | set(self.camp or [])
        if not held and self.last_city and not self.cities.get(self.last_city, {}).get("gone"):
            held = {self.last_city}
        army = self.all_units()
        best: tuple[float, list[str]] | None = None
        for a, b in self.c.map.roads:
            if held and not held.intersection((a, b)):
                continue
            if self.cities[a].get("gone") or self.cities[b].get("gone"):
                continue
            value = 0.0
            for cid in (a, b):
                c = self.cities[cid]
                if c.get("owner") in (None, self.fid) or c.get("ruins") or c.get("floating") or \
                        self.view["factions"].get(c.get("owner"), {}).get("status") == "won":
                    continue
                garrison = garrison_of(self.c, c["owner"], c["kind"], c["level"])
                odds = strength(self.c, army) / (1 + strength(self.c, garrison) * MARGIN ** 2)
                value = max(value, odds + (1.0 if c["kind"] == "small" else 0.0))
            road = sorted([a, b])
            if road == self.camp:
                value += 0.01  # staying costs nothing
            if best is None or value > best[0]:
                best = (value, road)
        if best is not None and best[1] != self.camp:
            self.lines.append(f"Лагерь: {_city_name(self.c, best[1][0])} — {_city_name(self.c, best[1][1])}")
            self.camp = best[1]

    def move_mobile(self) -> None:
        mobile = self.cities.get(MOBILE_ID)
        if mobile is None or mobile.get("gone") or not mobile.get("road"):
            return
        start = frozenset(mobile["road"])
        roads = [frozenset(r) for r in self.c.map.roads]
        reach = {start: 0}
        frontier = [start]
        for step in (1, 2):
            nxt = []
            for road in frontier:
                for other in roads:
                    if other not in reach and road & other and not any(self.cities[x].get("gone") for x in other):
                        reach[other] = step
                        nxt.append(other)
            frontier = nxt
        army = self.all_units()
        best: tuple[float, frozenset[str]] | None = None
        for road in reach:
            for cid in road:
                c = self.cities[cid]
                if c.get("owner") in (None, "ogres") or c.get("ruins") or c.get("gone"):
                    continue
                value = strength(self.c, army) / (1 + strength(self.c, garrison_of(self.c, c["owner"], c["kind"], c["level"])))
                value += 0.01 * (c["level"] + (1 if c["kind"] == "large" else 0))
                if best is None or value > best[0]:
                    best = (value, road)
        if best is not None and best[1] != start:
            a, b = sorted(best[1])
            self.lines.append(f"Передвижной город: {_city_name(self.c, a)} — {_city_name(self.c, b)}")
            mobile["road"] = [a, b]

    def targets(self) -> list[str]:
        out = []
        mine = set(self.mine())
        alliances = {tuple(p) for p in self.view.get("alliances", [])}
        for cid, c in self.cities.items():
            owner = c.get("owner")
            if c.get("gone") or owner == self.fid:
                continue
            if owner is not None and ((self.fid, owner) in alliances or (owner, self.fid) in alliances
                                      or owner in self.allying):
                continue
            if owner is not None and self.view["factions"].get(owner, {}).get("status") == "won":
                continue
            if c.get("floating"):
                continue
            if self.fid == "ogres":
                mobile = self.cities.get(MOBILE_ID)
                if not mobile or not mobile.get("road") or cid not in mobile["road"] or c.get("ruins"):
                    continue
            elif cid == MOBILE_ID:
                if not mine.intersection(c.get("road", [])):
                    continue
            elif not self.within_reach(cid):
                continue
            out.append(cid)
        return sorted(out)

    def armies(self) -> None:
        army = self.all_units()
        if not army:
            return
        threshold = THRESHOLD.get(self.fid, 0.6)
        own = self.view.get("own") or {}
        if self.fid == "void_cult" and float(own.get("resource", 0)) > 40:
            threshold -= 0.15
        best: tuple[float, str] | None = None
        powder = int(self.resource) if self.fid == "steel_rose" else None
        for cid in self.targets():
            c = self.cities[cid]
            if c.get("ruins"):
                chance = 1.0
                garrison: dict[str, int] = {}
            else:
                garrison = garrison_of(self.c, c.get("owner"), c["kind"], c["level"])
                garrison = {u: int(math.ceil(n * MARGIN)) for u, n in garrison.items()}
                chance = win_chance(self.c, self.options, army, self.fid, garrison, str(c.get("owner") or "empire"),
                                    f"bot/{self.fid}/{self.turn}/{cid}", powder)
            value = chance + 0.05 * (c["level"] + (1 if c["kind"] == "large" else 0)) + self._preference(cid)
            if chance >= threshold and (best is None or value > best[0]):
                best = (value, cid)
        if best is None:
            self.lines.append("Армия 1: все — рассредоточиться")
            return
        cid = best[1]
        choice = {"void_cult": " (разграбить)", "ogres": " (разрушить и бросить)"}.get(self.fid, "")
        if self.cities[cid].get("ruins") or cid == MOBILE_ID:
            choice = ""
        self.lines.append(f"Армия 1: все — атака на {city_accusative(_city_name(self.c, cid))}{choice}")

    def _preference(self, cid: str) -> float:
        """Each faction's own aims: the Empire its quest cities and the Principality, the
        Principality the Empire, the Sky-Blessed their fortress, the ogres anything rich."""
        owner = self.cities[cid].get("owner")
        if self.fid == "empire":
            return 0.2 * float(cid in self.c.model.quests) + 0.1 * float(owner == "steel_rose")
        if self.fid == "steel_rose":
            return 0.15 * float(owner == "empire")
        if self.fid == "heaven":
            return 0.3 * (cid == self.c.model.victory["heaven"].cities_with)
        return 0.0


# ----------------------------------------------------------------------------- battle posts

def _available(view: Mapping[str, Any], battle: Mapping[str, Any]) -> dict[str, int]:
    own = battle["own"]
    units: dict[str, int] = dict(own.get("garrison") or {})
    armies = {a["id"]: a for a in view.get("armies", [])}
    for army_id in own.get("armies", []):
        if army_id == "*":
            for u, n in (view.get("own") or {}).get("units", {}).items():
                units[u] = units.get(u, 0) + n
        elif army_id in armies:
            for u, n in armies[army_id]["units"].items():
                units[u] = units.get(u, 0) + n
    return units


def _city_of(view: Mapping[str, Any], battle_id: str) -> str:
    for b in view.get("battles", []):
        if b["id"] == battle_id:
            return str(b["city"])
    return battle_id.split("/")[0]


def _deployments(campaign: Campaign, view: Mapping[str, Any], fid: str) -> str:
    """One block per city: a city attacked by several factions stands the same way in each of
    its battles."""
    blocks = []
    done: set[str] = set()
    for battle in view.get("my_battles", []):
        status = next((b["status"] for b in view.get("battles", []) if b["id"] == battle["id"]), "pending")
        city = _city_of(view, battle["id"])
        if status != "pending" or city in done:
            continue
        done.add(city)
        units = _available(view, battle)
        squads = default_garrison_deployment(units, campaign.rules)
        squads = _spread(campaign, squads)
        blocks.append(f"Битва за {city_accusative(_city_name(campaign, _city_of(view, battle['id'])))}:\n"
                      + write_deployment(squads, campaign.rules))
    return "\n".join(blocks)


def _spread(campaign: Campaign, squads: list[SquadInput]) -> list[SquadInput]:
    """Chargers ride on the left flank, where they can reach the centre's rearguard."""
    out: list[SquadInput] = []
    chargers: dict[str, int] = {}
    for s in squads:
        if s.position == "centre.vanguard":
            keep = {u: n for u, n in s.units.items() if not campaign.rules.units[u].charge}
            chargers = {u: n for u, n in s.units.items() if campaign.rules.units[u].charge}
            if not keep or sum(chargers.values()) < 4:
                out.append(s)
                chargers = {}
                continue
            out.append(SquadInput(s.position, keep))
        else:
            out.append(s)
    if chargers:
        left = next((s for s in out if s.position == "left.vanguard"), None)
        if left is None:
            out.append(SquadInput("left.vanguard", chargers))
        else:
            merged = dict(left.units)
            for u, n in chargers.items():
                merged[u] = merged.get(u, 0) + n
            out[out.index(left)] = SquadInput("left.vanguard", merged)
    return out


def _plans(campaign: Campaign, view: Mapping[str, Any], fid: str) -> str:
    blocks = []
    rules = campaign.rules
    for battle in view.get("my_battles", []):
        status = next((b["status"] for b in view.get("battles", []) if b["id"] == battle["id"]), "pending")
        if status != "pending":
            continue
        own = [SquadInput.from_json(s) for s in battle["own"].get("deployment") or []]
        enemy = {s["position"]: s for s in battle.get("enemy_deployment") or []}
        lines = []
        for s in own:
            units = s.units
            if fld.rank_of(s.position) == "rearguard" and all(rules.units[u].volley for u in units):
                target = fld.at(fld.flank_of(s.position), "vanguard")
                if target in enemy:
                    lines.append(f"{fld.label_ru(s.position).capitalize()}: обстрел {_genitive(target)}")
            elif all(rules.units[u].charge for u in units):
                rear = [p for p in enemy if fld.rank_of(p) == "rearguard" and fld.flanks_in_reach(s.position, p)]
                if rear:
                    lines.append(f"{fld.label_ru(s.position).capitalize()}: натиск на {fld.label_ru(rear[0])}")
        city = _city_of(view, battle["id"])
        foe: str | None = next((str(b["attacker"] if b["defender"] == fid else b["defender"])
                                for b in view.get("battles", []) if b["id"] == battle["id"]), None)
        several = sum(1 for b in view.get("my_battles", []) if _city_of(view, b["id"]) == city) > 1
        qualifier = f" ({campaign.faction(foe).name_ru})" if several and foe else ""
        header = f"Битва за {city_accusative(_city_name(campaign, city))}{qualifier}:"
        blocks.append(header + "\n" + ("\n".join(lines) if lines else "Без манёвров"))
    return "\n".join(blocks)


def _genitive(position: str) -> str:
    flank = {"left": "левого", "centre": "центрального", "right": "правого"}[fld.flank_of(position)]
    rank = {"vanguard": "авангарда", "rearguard": "арьергарда"}[fld.rank_of(position)]
    return f"{flank} {rank}"
