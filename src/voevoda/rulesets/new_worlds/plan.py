"""One country's orders for a turn, checked and priced as the turn will run them.

The planner walks a post's orders in the turn's phase order (docs/new_worlds.md «The
turn»: breaks and releases, peace, war, treaties, settling land, building, research, help
to allies, fighting), keeping what the earlier orders change for this country (land taken,
cities built, structures this turn, points and war points spent), and gives each order its
price in points and war points, the points left after it in the order the player wrote
them, and every rule it breaks. ``validate`` reports those problems; ``parse`` puts the
price and the points left into each order so that the echo can show them; the turn charges
exactly these prices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from voevoda.core.ruleset import Order
from voevoda.rulesets.new_worlds.rules import RELIGIONS
from voevoda.rulesets.new_worlds.state import Country
from voevoda.rulesets.new_worlds.world import World

DOC = "000"

PHASES: dict[str, int] = {
    "roll": 0, "bonus": 0, "religion": 1, "rename": 1, "name_tile": 1, "recreate": 0, "tributary": 1, "refuse": 1,
    "reform": 1, "restore_faith": 1,
    "break_pact": 10, "break_alliance": 10, "break_truce": 10, "release": 10, "tribute": 10, "impose": 10,
    "permit": 10, "cancel_trade": 10,
    "peace": 20,
    "militia": 29, "war": 30, "war_upgrade": 31,
    "pact": 40, "alliance": 40, "trade": 41,
    "colonize": 50,
    "city": 60, "upgrade": 61, "port": 62, "university": 62, "factory": 62, "refocus": 63,
    "research": 70,
    "aid": 80, "cede": 81,
    "attack": 90, "defend": 91,
}
STRUCTURES = ("city", "port", "university", "factory")
SOLO = ("recreate",)
DEAD_OK = {"recreate", "rename", "religion", "roll", "bonus"}


def rule(section: str) -> str:
    """A section of document 000, or a ruling («R26») of docs/rulings/new_worlds.md."""
    if section[:1] == "R" and section[1:].isdigit():
        return f"{section}, docs/rulings/new_worlds.md"
    return f"{DOC} «{section}»"


@dataclass
class Item:
    """An order with its price (points, war points), what is left after it, and what it breaks."""

    order: Order
    index: int
    price: int = 0
    war_price: int = 0
    left: int = 0
    war_left: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    info: dict[str, object] = field(default_factory=dict)

    def fail(self, ru: str, en: str, section: str) -> None:
        self.problems.append((ru, en, rule(section)))

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Plan:
    country: str
    items: list[Item]
    points: int
    war_points: int

    @property
    def spent(self) -> int:
        return sum(i.price for i in self.items if i.ok)

    @property
    def war_spent(self) -> int:
        return sum(i.war_price for i in self.items if i.ok)

    def by_phase(self) -> list[Item]:
        return sorted(self.items, key=lambda i: (PHASES.get(i.order.kind, 99), i.index))


class Planner:
    """Checks and prices one country's orders against the state at the start of the turn."""

    def __init__(self, world: World, cid: str) -> None:
        self.w = world
        self.cid = cid
        self.me: Country = world.state.countries[cid]
        self.grid = world.grid
        self.land: set[str] = world.land_set(cid)
        self.held: set[str] = set(world.state.all_of(cid))
        self.new_cities: list[str] = []
        self.upgrades: dict[str, int] = {}
        self.new_buildings: dict[str, str] = {}
        self.structures = 0
        self.broken: set[tuple[str, str]] = set()
        self.declared: dict[str, str] = {}
        self.upgraded_wars: dict[str, str] = {}
        self.claimed: set[str] = set()
        self.ceded: set[str] = set()
        self.aid_given = 0
        self.cede_count = 0
        self.partners = {d.b if d.a == cid else d.a for d in world.state.deals if cid in (d.a, d.b)}
        self.cancelled: set[int] = set()
        self.alliances = len(world.state.allies_of(cid))
        self.militia = False
        self.listed: dict[str, int] = {}
        self.targets_listed: dict[str, list[str]] = {}
        self.recreating = False
        self.ports_ordered = 0

    # -- the walk ---------------------------------------------------------------------------------

    def plan(self, orders: Sequence[Order]) -> Plan:
        items = [Item(o, i) for i, o in enumerate(orders)]
        plan = Plan(self.cid, items, self.me.points, self.me.war_points)
        self.recreating = any(i.order.kind == "recreate" for i in items)
        self.ports_ordered = sum(1 for i in items if i.order.kind == "port")
        if any(i.order.kind in SOLO for i in items) and len(
                [i for i in items if i.order.kind not in ("rename", "religion", "roll", "bonus")]) > 1:
            for i in items:
                if i.order.kind in SOLO:
                    i.fail("пересоздание пишется отдельным постом (можно добавить имя страны и религию)",
                           "a re-creation is a post of its own (a country name and a religion may go with it)",
                           "I. Создание и пересоздание")
        points = self.me.points
        war_points = self.me.war_points
        for item in plan.by_phase():
            if not self.me.alive and item.order.kind not in DEAD_OK and self.me.choice is None:
                item.fail("у вашей страны нет земель: можно только пересоздаться",
                          "your country has no land: only a re-creation is possible", "I. Создание и пересоздание")
                continue
            handler = getattr(self, f"_{item.order.kind}", None)
            if handler is None:
                item.fail(f"неизвестный приказ {item.order.kind}", f"unknown order {item.order.kind}", "II. Механика")
                continue
            handler(item, item.order.args)
            if item.ok and item.price > points:
                item.fail(f"не хватает очков: нужно {item.price}, осталось {points}",
                          f"not enough points: {item.price} needed, {points} left", "II. Механика")
            if item.ok and item.war_price > war_points:
                item.fail(f"не хватает военных очков: нужно {item.war_price}, осталось {war_points}",
                          f"not enough war points: {item.war_price} needed, {war_points} left", "VIII. Война, 1")
            if item.ok:
                points -= item.price
                war_points -= item.war_price
                if item.order.kind == "militia":
                    war_points += int(item.info.get("restored", 0))  # type: ignore[call-overload]
            else:
                self._undo(item)
        left, war_left = self.me.points, self.me.war_points
        for item in items:
            if item.ok:
                left -= item.price
                war_left -= item.war_price
                if item.order.kind == "militia":
                    war_left += int(item.info.get("restored", 0))  # type: ignore[call-overload]
            item.left, item.war_left = left, war_left
        return plan

    def _undo(self, item: Item) -> None:
        """An order refused takes back what it had changed for the later orders."""
        kind = item.order.kind
        tile = str(item.order.args.get("tile"))
        if kind == "colonize":
            for t in item.info.get("tiles", []):  # type: ignore[attr-defined]
                self.land.discard(t)
                self.held.discard(t)
                self.claimed.discard(t)
        elif kind == "city" and tile in self.new_cities:
            self.new_cities.remove(tile)
            self.structures -= 1
        elif kind in ("port", "university", "factory") and self.new_buildings.get(tile) == kind:
            del self.new_buildings[tile]
            self.structures -= 1
        elif kind == "war":
            self.declared.pop(item.order.args.get("target", ""), None)

    # -- helpers -------------------------------------------------------------------------------------

    @property
    def epoch(self):  # type: ignore[no-untyped-def]
        return self.w.epoch

    def _name(self, cid: str) -> str:
        c = self.w.state.countries.get(cid)
        return c.name if c else cid

    def _own_land(self, item: Item, tile: str, section: str) -> bool:
        if tile not in self.land:
            owner = self.w.state.owner(tile)
            if owner is None or owner != self.cid:
                who = f" (владелец: {self._name(owner)})" if owner else ""
                whoe = f" (owner: {self._name(owner)})" if owner else ""
                item.fail(f"{tile} — не ваша земля{who}", f"{tile} is not your land{whoe}", section)
            else:
                item.fail(f"{tile} — не суша (горы и море — владения де-юре)",
                          f"{tile} is not land (mountains and sea are de jure holdings)", section)
            return False
        return True

    def _structure_room(self, item: Item) -> bool:
        limit = self.w.rules.prices.buildings_per_turn
        if self.structures >= limit:
            item.fail(f"за ход можно строить не более {limit} сооружений", f"at most {limit} structures a turn",
                      "III. Постройки, 0")
            return False
        return True

    def _building_here(self, tile: str) -> str | None:
        if tile in self.new_buildings:
            return self.new_buildings[tile]
        t = self.w.state.tiles.get(tile)
        return t.building if t else None

    def _near_city(self, item: Item, tile: str) -> bool:
        if not self.w.near_city(self.cid, tile, self.new_cities):
            r = self.w.rules.prices.building_radius
            item.fail(f"{tile} дальше {r} клетки от ваших городов", f"{tile} is more than {r} tile from your cities",
                      "III. Постройки, 0")
            return False
        return True

    def _country(self, item: Item, cid: str, section: str, alive: bool = True) -> Country | None:
        c = self.w.state.countries.get(cid)
        if c is None:
            item.fail(f"нет страны {cid}", f"no country {cid}", section)
            return None
        if cid == self.cid:
            item.fail("это ваша собственная страна", "that is your own country", section)
            return None
        if alive and not c.alive:
            item.fail(f"страны «{c.name}» больше нет", f"{c.name} is no more", section)
            return None
        return c

    def _at_war_with(self, other: str) -> bool:
        return other in self.declared or self.w.at_war(self.cid, other)

    def _has_treaty(self, kind: str, other: str) -> bool:
        return self.w.state.treaty(kind, self.cid, other) is not None and (kind, other) not in self.broken

    def _diplomacy_allowed(self, item: Item) -> bool:
        # «На вас перестают действовать ограничения вассала» during a war of independence
        if self.me.suzerain is not None and not self.in_independence():
            item.fail("вассал не имеет права использовать дипломатию (кроме торговли)",
                      "a vassal may not use diplomacy (trade aside)", "VI. Дипломатия, 3")
            return False
        return True

    def in_independence(self) -> bool:
        return any(w.attacker == self.cid and self.w.rules.war_types[w.attacker_type].kind == "independence"
                   for w in self.w.state.wars)

    def _not_invader(self, item: Item, c: Country, section: str) -> bool:
        if c.kind in ("invader", "tributary"):
            item.fail(f"{ru_with(c.name)} нельзя договориться: это эвентовые захватчики",
                      f"no agreement is possible with {c.name}: they are event invaders", section)
            return False
        return True

    # -- administration ------------------------------------------------------------------------------

    def _roll(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        item.info["note"] = "rolled_by_engine"

    def _bonus(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        roll = self.me.roll
        if roll is not None:
            item.info["ledger"] = roll.total - roll.base

    def _religion(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self.me.religion is not None and not self.recreating:
            item.fail("религия выбирается при создании страны; сменить её можно только при Реформации "
                      "или при насаждении вассалу", "a religion is chosen when a country is made; it changes only "
                      "by Reformation or when a suzerain imposes his", "V. Религия, 2")
        if args.get("religion") not in RELIGIONS:
            item.fail("нет такой религии", "no such religion", "V. Религия, 1")

    def _rename(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        name = str(args.get("name", "")).strip()
        taken = {c.name.casefold() for c in self.w.state.countries.values() if c.id != self.cid}
        if not name:
            item.fail("пустое название", "an empty name", "II. Механика, 6")
        elif any(ch in name for ch in "/,;:"):
            item.fail("в названии страны нельзя / , ; : (по нему её называют в приказах)",
                      "a country's name cannot hold / , ; : (orders name it)", "R44")
        elif name.casefold() in taken:
            item.fail(f"название «{name}» уже занято", f"the name '{name}' is taken", "II. Механика, 6")

    def _name_tile(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        tile = args["tile"]
        if tile not in self.held:
            item.fail(f"{tile} — не ваша клетка", f"{tile} is not your tile", "II. Механика, 6")

    def _recreate(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "I. Создание и пересоздание, 2"
        if self.me.recreated and not self.me.may_restart:
            item.fail("пересоздаться можно не больше одного раза", "a country may be re-created only once", section)
            return
        tile = args["tile"]
        need = self.epoch.start_territories
        free = free_land(self.w)
        if tile not in free:
            item.fail(f"{tile} — не свободная суша на открытой части карты",
                      f"{tile} is not free land on the open part of the map", section)
            return
        got = self.grid.grow(tile, need, free)
        if len(got) < need:
            item.fail(f"вокруг {tile} нет {need} свободных территорий (есть {len(got)})",
                      f"there are not {need} free territories around {tile} ({len(got)})", section)
        item.info["tiles"] = got

    def _tributary(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self.me.choice != "khagan":
            item.fail("Каган не ставит вас перед выбором", "the Khagan has not put a choice to you", "Эвенты, 3")

    _refuse = _tributary

    def _reform(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self.me.reform is None or self.me.reform.status != "civil_war":
            item.fail("ваша страна не проходит Реформацию", "your country is not in its Reformation", "V. Религия, 3")
        choice = args.get("choice")
        if choice != "upgrade" and choice not in RELIGIONS:
            item.fail("реформа: «улучшить» или религия", "reform: 'upgrade' or a religion", "V. Религия, 3")

    def _restore_faith(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self.me.original_religion is None or self.me.suzerain is not None:
            item.fail("вернуть старую веру может только освободившийся вассал, которому навязали религию",
                      "only a former vassal whose faith was imposed may restore it", "VI. Дипломатия, 3")

    # -- breaks, releases, vassals ---------------------------------------------------------------

    def _break(self, item: Item, args: dict, kind: str, price: int, section: str) -> None:  # type: ignore[type-arg]
        other = args["target"]
        c = self._country(item, other, section, alive=False)
        if c is None:
            return
        if self.w.state.treaty(kind, self.cid, other) is None:
            names = {"pact": ("пакта", "pact"), "alliance": ("союза", "alliance"), "truce": ("перемирия", "truce")}
            item.fail(f"у вас нет {names[kind][0]} {ru_with(c.name)}", f"you have no {names[kind][1]} with {c.name}", section)
            return
        item.price = price
        self.broken.add((kind, other))

    def _break_pact(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        self._break(item, args, "pact", self.w.rules.diplomacy.pact_break, "VI. Дипломатия, 1")

    def _break_alliance(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        self._break(item, args, "alliance", self.w.rules.diplomacy.alliance_break, "VI. Дипломатия, 2")
        if item.ok:
            self.alliances -= 1

    def _break_truce(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        # «Его можно нарушить за потерю половины своего ролла.»
        roll = self.me.roll.total if self.me.roll else 0
        self._break(item, args, "truce", roll * self.w.rules.diplomacy.truce_break_percent // 100,
                    "VIII. Война, 3")

    def _vassal(self, item: Item, args: dict, section: str) -> Country | None:  # type: ignore[type-arg]
        c = self._country(item, args["target"], section)
        if c is not None and c.suzerain != self.cid:
            item.fail(f"{c.name} — не ваш вассал", f"{c.name} is not your vassal", section)
            return None
        return c

    def _release(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        self._vassal(item, args, "VI. Дипломатия, 3")

    def _tribute(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self._vassal(item, args, "VI. Дипломатия, 3") is None:
            return
        cap = self.w.rules.diplomacy.vassal_tribute_percent
        if not 0 <= int(args["percent"]) <= cap:
            item.fail(f"вассал передаёт не больше {cap}% ролла", f"a vassal gives at most {cap}% of the roll",
                      "VI. Дипломатия, 3")

    def _impose(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        c = self._vassal(item, args, "VI. Дипломатия, 3")
        if c is not None and c.religion == self.me.religion and c.upgraded == self.me.upgraded:
            item.fail(f"{c.name} уже исповедует вашу веру", f"{c.name} already has your faith", "VI. Дипломатия, 3")

    def _permit(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        if self._vassal(item, args, "VI. Дипломатия, 3") is not None and args["enemy"] == args["target"]:
            item.fail("вассал не может воевать сам с собой", "a vassal cannot fight itself", "VI. Дипломатия, 3")

    def _cancel_trade(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "IV. Торговля, 3"
        other, give, get = args["target"], args["give"], args["get"]
        for d in self.w.state.deals:
            mine = (d.a == self.cid and d.b == other and d.a_gives == give and d.b_gives == get) or (
                d.b == self.cid and d.a == other and d.b_gives == give and d.a_gives == get)
            if mine and d.id not in self.cancelled:
                min_turns = self.w.rules.diplomacy.trade_min_turns
                if self.w.state.turn < d.since + min_turns:
                    item.fail(f"сделка заключается минимум на {min_turns} хода (с хода {d.since})",
                              f"a deal holds for at least {min_turns} turns (since turn {d.since})", section)
                    return
                self.cancelled.add(d.id)
                item.info["deal"] = d.id
                return
        item.fail("такой сделки нет", "there is no such deal", section)

    # -- peace and war ---------------------------------------------------------------------------------

    def _peace(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VIII. Война, 3"
        other = args["target"]
        c = self._country(item, other, section)
        if c is None:
            return
        war = self.w.state.war_between(self.cid, other)
        if war is None:
            item.fail(f"вы не воюете {ru_with(c.name)}", f"you are not at war with {c.name}", section)
            return
        if war.civil:
            item.fail("Реформация завершается только победой одной из сторон",
                      "a Reformation ends only with one side's victory", "V. Религия, 3")
            return
        for t in args.get("cede", []):
            if self.w.state.owner(t) != self.cid or not self.grid.is_land(t):
                item.fail(f"{t} — не ваша земля: отдать её нельзя", f"{t} is not your land to cede", section)

    def _militia(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        # «Ополчение: Вы можете раз в ход потратить 15 очков, чтобы восстановить 10 ВО.»
        section = "IX. Исследования: Ополчение"
        if not self.w.has_project(self.me, "militia"):
            item.fail("нужен проект «Ополчение»", "the Militia project is needed", section)
            return
        if self.militia:
            item.fail("ополчение — раз в ход", "militia only once a turn", section)
            return
        self.militia = True
        item.price = self.w.rules.research.militia_cost
        item.info["restored"] = self.w.rules.research.militia_war_points

    def war_type_price(self, war_type: str) -> int | None:
        price = self.w.rules.war_price(war_type, self.epoch)
        if price is None:
            return None
        if self.w.rules.war_types[war_type].kind == "total" and self.w.has_project(self.me, "fascism"):
            # «Фашизм: Стоимость Тотальной войны для вас уменьшена вдвое.»
            price = price * self.w.rules.research.fascism_total_war_percent // 100
        return price

    def _war(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VIII. Война, 2"
        other, wtype = args["target"], args["type"]
        c = self._country(item, other, section)
        if c is None:
            return
        spec = self.w.rules.war_types[wtype]
        if self.w.invader_war(self.cid, other):
            item.fail(f"{ru_with(c.name)} вы и так воюете", f"you are already at war with {c.name}", section)
            return
        if self._at_war_with(other):
            item.fail(f"вы уже воюете {ru_with(c.name)}", f"you are already at war with {c.name}", section)
            return
        price = self.war_type_price(wtype)
        if not spec.declarable or spec.against is not None:
            item.fail(f"войну «{spec.name_ru}» не объявляют", f"'{spec.name_en}' cannot be declared", section)
            return
        if price is None:
            item.fail(f"война «{spec.name_ru}» недоступна в эпоху «{self.epoch.name_ru}»",
                      f"'{spec.name_en}' is not waged in the {self.epoch.name_en}", "Века")
            return
        if self.me.khagan_tributary and c.event == "khaganate":
            item.fail("данник Каганата не воюет с Каганом", "a tributary of the Khaganate does not fight the Khagan",
                      "Эвенты, 3")
            return
        if spec.vassals_only:
            if self.me.suzerain != other:
                item.fail("войну за независимость ведёт только вассал против своего сюзерена",
                          "only a vassal wages a war of independence, against its suzerain", section)
                return
        elif self.me.suzerain is not None and other not in self.me.war_permits and not self.in_independence():
            item.fail("вассал не воюет без разрешения сюзерена", "a vassal does not go to war without its suzerain's leave",
                      "VI. Дипломатия, 3")
            return
        if spec.monotheists_only and (self.me.religion != "monotheism" or c.religion == "monotheism"):
            item.fail("только монотеисты против иноверцев", "monotheists against other faiths only", section)
            return
        for kind, ru, en, sec in (("pact", "пакт о ненападении", "a non-aggression pact", "VI. Дипломатия, 1"),
                                  ("alliance", "союз", "an alliance", "VI. Дипломатия, 2"),
                                  ("truce", "перемирие", "a truce", "VIII. Война, 3")):
            if self._has_treaty(kind, other):
                item.fail(f"у вас {ru_with(c.name)} {ru}: сначала разорвите", f"you have {en} with {c.name}: break it first", sec)
                return
        if c.suzerain == self.cid:
            item.fail(f"{c.name} — ваш вассал", f"{c.name} is your vassal", "VI. Дипломатия, 3")
            return
        if spec.needs_targets and not self._targets_in_reach(other, spec):
            item.fail("нет подходящих городов или ресурсов в пределах досягаемости",
                      "no suitable cities or resources within reach", section)
            return
        item.war_price = price
        self.declared[other] = wtype

    def _targets_in_reach(self, other: str, spec) -> bool:  # type: ignore[no-untyped-def]
        entry = spec.epochs[self.epoch.id]
        distance = entry.distance
        for t, v in self.w.state.tiles.items():
            if v.owner != other or not self.grid.is_land(t):
                continue
            valuable = v.city is not None or (t in self.w.state.deposits and self.w.resource_visible(self.w.state.deposits[t]))
            if not valuable:
                continue
            if distance is None:
                return True
            d = self.grid.distance_to_set(t, self.land)
            if d is not None and d <= distance:
                return True
        return False

    def _war_upgrade(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VIII. Война, 2"
        other, new = args["target"], args["type"]
        c = self._country(item, other, section)
        if c is None:
            return
        war = self.w.state.war_between(self.cid, other)
        if war is None:
            item.fail(f"вы не воюете {ru_with(c.name)}", f"you are not at war with {c.name}", section)
            return
        current = self.upgraded_wars.get(other, self.w.side_type(war, self.cid))
        enemy_type = self.w.side_type(war, other)
        rules = self.w.rules
        spec_now = rules.war_types[current]
        spec_new = rules.war_types[new]
        price_new = self.war_type_price(new)
        if price_new is None:
            item.fail(f"война «{spec_new.name_ru}» недоступна в эту эпоху", f"'{spec_new.name_en}' is not waged in this epoch",
                      "Века")
            return
        allowed = new in spec_now.upgrades_to or "*" in spec_now.upgrades_to
        if spec_new.kind == "total" and rules.war_types[enemy_type].kind == "total":
            allowed = True  # «Тотальная война становится доступна для улучшения, если её уже применяет враг.»
        if spec_new.against is not None and spec_new.against != enemy_type:
            allowed = False
        if spec_new.vassals_only or spec_new.kind == "defensive":
            allowed = False
        if spec_new.monotheists_only and (self.me.religion != "monotheism" or c.religion == "monotheism"):
            allowed = False
        if new == current or not allowed:
            item.fail(f"войну «{spec_now.name_ru}» нельзя улучшить до «{spec_new.name_ru}»",
                      f"'{spec_now.name_en}' cannot be upgraded to '{spec_new.name_en}'", "VIII. Война: Цепочки улучшений")
            return
        paid = war.attacker_paid if war.attacker == self.cid else war.defender_paid
        item.war_price = max(0, price_new - paid)
        self.upgraded_wars[other] = new

    # -- treaties ---------------------------------------------------------------------------------------

    def _pact(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VI. Дипломатия, 1"
        if not self.epoch.pacts:
            item.fail("пакты о ненападении доступны с Железного века", "non-aggression pacts come with the Iron Age", section)
            return
        c = self._country(item, args["target"], section)
        if c is None or not self._diplomacy_allowed(item) or not self._not_invader(item, c, section):
            return
        if self._has_treaty("pact", c.id):
            item.fail(f"пакт {ru_with(c.name)} уже есть", f"there is already a pact with {c.name}", section)
        elif self._has_treaty("alliance", c.id):
            # «Союзники не могут атаковать друг друга»: the alliance already holds what a pact gives
            item.fail(f"у вас {ru_with(c.name)} союз: союзники и так не нападают друг на друга, пакт не нужен",
                      f"you are allied with {c.name}: allies cannot attack each other, a pact adds nothing",
                      "VI. Дипломатия, 2")
        elif self._at_war_with(c.id):
            item.fail(f"вы воюете {ru_with(c.name)}", f"you are at war with {c.name}", section)
        elif c.suzerain is not None:
            item.fail(f"{c.name} — вассал и не ведёт дипломатии", f"{c.name} is a vassal and has no diplomacy",
                      "VI. Дипломатия, 3")
        else:
            item.price = self._proposal_price("pact", c.id, self.w.rules.diplomacy.pact, item)

    def _alliance(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VI. Дипломатия, 2"
        if not self.epoch.alliances:
            item.fail("союзы доступны с Античности", "alliances come with Antiquity", section)
            return
        c = self._country(item, args["target"], section)
        if c is None or not self._diplomacy_allowed(item) or not self._not_invader(item, c, section):
            return
        limit = self.w.rules.diplomacy.alliances_per_country
        if self._has_treaty("alliance", c.id):
            item.fail(f"союз {ru_with(c.name)} уже есть", f"there is already an alliance with {c.name}", section)
        elif self.alliances >= limit:
            item.fail(f"союзов не больше {limit} на игрока", f"at most {limit} alliance per player", section)
        elif self._at_war_with(c.id):
            item.fail(f"вы воюете {ru_with(c.name)}", f"you are at war with {c.name}", section)
        elif c.suzerain is not None:
            item.fail(f"{c.name} — вассал и не ведёт дипломатии", f"{c.name} is a vassal and has no diplomacy",
                      "VI. Дипломатия, 3")
        else:
            item.price = self._proposal_price("alliance", c.id, self.w.rules.diplomacy.alliance, item)
            self.alliances += 1

    def _proposal_price(self, kind: str, other: str, price: int, item: Item) -> int:
        """«стоит 5 для обеих сторон», paid once: a proposal of one's own still standing from an
        earlier turn is paid already, and writing it again costs nothing (ruling R15)."""
        state = self.w.state
        standing = next((o for o in state.offers if o.kind == kind and o.by == self.cid and o.to == other
                         and o.turn < state.turn), None)
        if standing is None:
            return price
        item.info["standing"] = standing.turn
        return max(0, price - standing.held)

    def _trade(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "IV. Торговля, 1"
        if not self.epoch.trade:
            item.fail("торговля доступна с Железного века", "trade comes with the Iron Age", section)
            return
        c = self._country(item, args["target"], section)
        if c is None or not self._not_invader(item, c, section):
            return
        give, get = args["give"], args["get"]
        res = self.w.rules.resources
        if give == get:
            item.fail("запрещено обменивать одинаковые ресурсы", "a resource cannot be traded for itself", section)
            return
        for r in (give, get):
            if not res[r].tradable:
                item.fail(f"{res[r].name_ru} не продаются", f"{res[r].name_en} cannot be traded", section)
                return
        if self._at_war_with(c.id):
            item.fail("воюющие между собой страны не могут торговать", "countries at war cannot trade", "IV. Торговля, 4")
            return
        offered = self.listed.get(give, 0)
        if self.w.free_units(self.cid, give) - offered < 1:
            item.fail(f"у вас нет свободной единицы ресурса «{res[give].name_ru}»",
                      f"you have no free unit of {res[give].name_en}", section)
            return
        partners = self.partners | {c.id}
        ports = len(self.w.state.buildings_of(self.cid, "port"))
        # «Для торговли между двумя странами достаточного одного порта» (ruling R14): one side
        # with a port for each of its partners is enough (trade_ports = "both": each side)
        their_partners = {d.b if d.a == c.id else d.a for d in self.w.state.deals if c.id in (d.a, d.b)} | {self.cid}
        their_ports = len(self.w.state.buildings_of(c.id, "port"))
        theirs_enough = self.w.options.trade_ports == "either" and len(their_partners) <= their_ports
        if len(partners) > ports and not theirs_enough:
            # a port written in the same post is built after the deals are signed (the turn's
            # order, docs/new_worlds.md «The turn»): say so rather than count it as missing
            later = (" — порт из этого поста строится после подписания сделок: торговать через него можно "
                     "со следующего хода" if ports + self.ports_ordered >= len(partners) else "")
            later_en = (" — the port of this post is built after the deals are signed: it trades from the next turn"
                        if later else "")
            other_ru = other_en = ""
            if self.w.options.trade_ports == "either":
                other_ru = (f"; у {ru_case(c.name, 'gent')} тоже не хватает: партнёров {len(their_partners)}, "
                            f"портов {their_ports}")
                other_en = f"; {c.name} has too few as well: {len(their_partners)} partners, {their_ports} ports"
            item.fail(f"торговых партнёров ({len(partners)}) не может быть больше, чем портов ({ports}){later}{other_ru}",
                      f"trade partners ({len(partners)}) cannot outnumber ports ({ports}){later_en}{other_en}",
                      "III. Постройки, 2")
            return
        self.listed[give] = offered + 1
        self.partners = partners

    # -- land and buildings ---------------------------------------------------------------------------

    def _colonize(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "II. Механика (шапка: занятие территорий)"
        taken: list[str] = []
        prices: list[int] = []
        voyages: dict[str, dict[str, object]] = {}
        price = 0
        has_port = self.w.has_port(self.cid) or "port" in self.new_buildings.values()
        for tile in args["tiles"]:
            if tile in self.claimed or tile in self.held:
                item.fail(f"{tile} уже ваша", f"{tile} is already yours", section)
                continue
            owner = self.w.state.owner(tile)
            if owner is not None:
                item.fail(f"{tile} принадлежит {ru_case(self._name(owner), 'datv')}: чужие земли берут войной",
                          f"{tile} belongs to {self._name(owner)}: others' land is taken by war", section)
                continue
            if not self.w.tile_open(tile):
                item.fail(f"{tile} лежит в закрытой части карты", f"{tile} lies in a closed part of the map",
                          "I. Создание и пересоздание, 2")
                continue
            reach = self.w.reach(self.cid, tile, self.land | {t for t in taken if self.grid.is_land(t)}, has_port)
            if reach is None:
                item.fail(f"до {tile} не добраться ни по суше, ни по прибрежным водам",
                          f"{tile} cannot be reached by land or along the coast", "VII. Морские путешествия")
                continue
            sea, path = reach
            base = self.w.rules.prices.dejure if self.grid.is_dejure(tile) else self.w.rules.prices.territory
            price += base + sea
            prices.append(base + sea)
            taken.append(tile)
            # the voyage itemised, not folded into the tile's price (ruling R3)
            voyages[tile] = {"base": base, "sea": sea,
                             "via": [list(x) for x in self.w.voyage(self.cid, path, has_port)]}
        item.price = price
        item.info["tiles"] = taken
        item.info["prices"] = prices
        if any(v["sea"] for v in voyages.values()):
            item.info["voyages"] = voyages   # every tile's price, so that the sum can be checked
        if item.ok:
            for t in taken:
                self.claimed.add(t)
                self.held.add(t)
                if self.grid.is_land(t):
                    self.land.add(t)

    def _city(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 1"
        tile = args["tile"]
        if not self._own_land(item, tile, section):
            return
        t = self.w.state.tiles.get(tile)
        if (t is not None and t.city is not None) or tile in self.new_cities:
            item.fail(f"в {tile} уже стоит город", f"there is already a city in {tile}", section)
            return
        cap = self.epoch.city_cap
        have = len(self.w.state.cities_of(self.cid)) + len(self.new_cities)
        if cap >= 0 and have >= cap:
            item.fail(f"в эпоху «{self.epoch.name_ru}» не больше {cap} городов",
                      f"at most {cap} cities in the {self.epoch.name_en}", section)
            return
        if not self._structure_room(item):
            return
        item.price = self.w.city_price(self.cid, have)
        self.new_cities.append(tile)
        self.structures += 1

    def _upgrade(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 1; Века"
        tile = args["tile"]
        t = self.w.state.tiles.get(tile)
        if t is None or t.owner != self.cid or t.city is None:
            item.fail(f"в {tile} нет вашего города", f"you have no city in {tile}", section)
            return
        level = t.city + self.upgrades.get(tile, 0)
        cap = self.epoch.city_upgrades
        if level >= cap:
            if cap == 0:
                item.fail("улучшать города можно со Средних веков", "cities can be upgraded from the Middle Ages", section)
            else:
                item.fail(f"в эту эпоху город улучшают не выше +{cap + 1}",
                          f"in this epoch a city is upgraded up to +{cap + 1}", section)
            return
        target = level + 1
        done = sum(1 for c in self.w.state.cities_of(self.cid) if (self.w.state.tiles[c].city or 0) >= target)
        done += sum(1 for c, n in self.upgrades.items() if (self.w.state.tiles[c].city or 0) + n >= target)
        item.price = self.w.upgrade_price(self.cid, target, done)
        self.upgrades[tile] = self.upgrades.get(tile, 0) + 1

    def _site(self, item: Item, tile: str, section: str) -> bool:
        if not self._own_land(item, tile, section):
            return False
        existing = self._building_here(tile)
        if existing is not None:
            item.fail(f"в {tile} уже есть постройка", f"there is already a building in {tile}", section)
            return False
        return self._near_city(item, tile) and self._structure_room(item)

    def _port(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 2"
        tile = args["tile"]
        if not self.epoch.ports:
            item.fail("порты строят с Железного века", "ports are built from the Iron Age", "Века")
            return
        if self.grid.contains(tile) and not self.grid.is_coast(tile):
            # the places that would do, as a game master points them out
            spots = [t for t in self.grid.sort(self.land) if self.grid.is_coast(t) and self.w.state.owner(t) == self.cid
                     and self.w.near_city(self.cid, t, self.new_cities)][:3]
            hint_ru = (f"; у ваших городов на берегу: {', '.join(spots)}" if spots
                       else "; у ваших городов нет береговых клеток")
            hint_en = (f"; coast by your cities: {', '.join(spots)}" if spots else "; your cities have no coast near them")
            if self.grid.is_water(tile):
                item.fail(f"{tile} — море: порт ставят на береговой клетке суши{hint_ru}",
                          f"{tile} is water: a port stands on a land tile of the coast{hint_en}", section)
            else:
                item.fail(f"{tile} не на берегу: порты строят только на берегах{hint_ru}",
                          f"{tile} is not on the coast: ports stand only on coasts{hint_en}", section)
            return
        if self._site(item, tile, section):
            item.price = self.w.port_price(self.cid)
            self.new_buildings[tile] = "port"
            self.structures += 1

    def _university(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 3"
        tile = args["tile"]
        if not self.epoch.universities:
            item.fail("университеты строят с Ренессанса", "universities are built from the Renaissance", section)
            return
        owned = len(self.w.state.buildings_of(self.cid, "university")) + sum(
            1 for k in self.new_buildings.values() if k == "university")
        cap = self.epoch.university_cap
        if cap >= 0 and owned >= cap:
            item.fail(f"в эпоху «{self.epoch.name_ru}» не больше {cap} университетов",
                      f"at most {cap} universities in the {self.epoch.name_en}", section)
            return
        if self._site(item, tile, section):
            item.price = self.w.university_price(self.cid, owned)
            self.new_buildings[tile] = "university"
            self.structures += 1

    def _factory(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 4"
        tile = args["tile"]
        if not self.epoch.factories:
            item.fail("заводы строят с эпохи Индустриализации", "factories are built from the Industrial Age", section)
            return
        owned = len(self.w.state.buildings_of(self.cid, "factory")) + sum(
            1 for k in self.new_buildings.values() if k == "factory")
        if self._site(item, tile, section):
            item.price = self.w.factory_price(self.cid, owned)
            self.new_buildings[tile] = "factory"
            self.structures += 1

    def _refocus(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "III. Постройки, 4"
        tile = args["tile"]
        t = self.w.state.tiles.get(tile)
        if t is None or t.owner != self.cid or t.building != "factory":
            item.fail(f"в {tile} нет вашего завода", f"you have no factory in {tile}", section)
            return
        if t.factory == args["type"]:
            item.fail("завод уже работает на этот ресурс", "the factory already works on that resource", section)
            return
        item.price = self.w.refocus_price(self.cid)

    def _research(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "IX. Исследования"
        # a university of this post counts: buildings come before research in the turn
        # (docs/new_worlds.md «The turn»)
        if not self.w.state.buildings_of(self.cid, "university") and "university" not in self.new_buildings.values():
            item.fail("исследовать проекты можно только с университетом", "research needs a university", section)
            return
        branch = args["branch"]
        done = self.me.research.get(branch, 0)
        projects = self.w.rules.research.branches[branch].projects
        if done >= len(projects):
            item.fail("в этой ветке всё изучено", "everything in this branch is done", section)
            return
        nxt = projects[done]
        if not self.w.epoch_reached(nxt.epoch):
            item.fail(f"проект «{nxt.name_ru}» откроется в эпоху «{self.w.rules.epoch(nxt.epoch).name_ru}»",
                      f"the project {nxt.name_en} opens in the {self.w.rules.epoch(nxt.epoch).name_en}", section)
            return
        item.price = int(args.get("points") or 0)

    # -- help, vassals, war turns ----------------------------------------------------------------------

    def _aid(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VI. Дипломатия, 2"
        c = self._country(item, args["target"], section)
        if c is None:
            return
        if not self._has_treaty("alliance", c.id):
            item.fail(f"{c.name} — не ваш союзник", f"{c.name} is not your ally", section)
            return
        if not self.w.in_war(c.id):
            item.fail(f"{c.name} ни с кем не воюет, а помогают союзнику в войне", f"{c.name} is at war with no one: aid is for war",
                      section)
            return
        roll = self.me.roll.total if self.me.roll else 0
        cap = roll * self.w.rules.diplomacy.ally_aid_percent // 100
        points = int(args["points"])
        if points < 1 or self.aid_given + points > cap:
            item.fail(f"союзнику можно передать до половины ролла: не больше {cap - self.aid_given}",
                      f"an ally may be given up to half the roll: at most {cap - self.aid_given}", section)
            return
        self.aid_given += points
        item.price = points

    def _cede(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VI. Дипломатия, 2"
        c = self._country(item, args["target"], section)
        if c is None:
            return
        if not self._has_treaty("alliance", c.id):
            item.fail(f"территории передают только союзнику; {c.name} им не является",
                      f"territory is ceded only to an ally; {c.name} is not one", section)
            return
        their = self.w.land_set(c.id)
        limit = self.w.rules.diplomacy.ally_cede_per_turn
        for t in args["tiles"]:
            if t not in self.land or t in self.ceded:
                item.fail(f"{t} — не ваша земля", f"{t} is not your land", section)
                continue
            if not any(n in their for n in self.grid.neighbours(t)):
                item.fail(f"{t} не граничит с землями {ru_case(c.name, 'gent')}", f"{t} does not touch {c.name}'s land",
                          section)
                continue
            if self.cede_count >= limit:
                item.fail(f"не больше {limit} территорий за ход", f"at most {limit} territories a turn", section)
                break
            self.cede_count += 1
            self.ceded.add(t)
            their.add(t)

    def _attack(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VIII. Война"
        other = args["target"]
        c = self._country(item, other, section)
        if c is None:
            return
        if not self._at_war_with(other):
            item.fail(f"вы не воюете {ru_with(c.name)}: сначала объявите войну", f"you are not at war with {c.name}: declare war first",
                      section)
            return
        check = war_limits(self.w, self.cid, other, self.declared.get(other), self.upgraded_wars.get(other))
        estimate = 0
        front = set(self.land)
        has_port = self.w.has_port(self.cid)
        already = self.targets_listed.setdefault(other, [])
        for tile in args["tiles"]:
            if self.w.state.owner(tile) != other:
                item.fail(f"{tile} не принадлежит {ru_case(c.name, 'datv')}", f"{tile} does not belong to {c.name}", section)
                continue
            if self.grid.is_dejure(tile):
                item.fail(f"{tile} — владение де-юре: его не нужно захватывать",
                          f"{tile} is a de jure holding: it need not be captured", "II. Механика, 7")
                continue
            problem = check.tile_problem(tile)
            if problem is not None:
                item.fail(problem[0], problem[1], problem[2])
                continue
            reach = self.w.reach(self.cid, tile, front, has_port)
            if reach is None:
                if any(n in already for n in self.grid.neighbours(tile)):
                    item.fail(f"{tile} не граничит с вашими землями: за ход фронт берёт клетки у своих границ",
                              f"{tile} does not touch your land: a turn's fighting takes tiles at one's borders",
                              "R26")
                else:
                    item.fail(f"до {tile} не добраться", f"{tile} cannot be reached", "VII. Морские путешествия")
                continue
            estimate += self.w.capture_price(tile) + reach[0]
            if self.w.options.capture_reach == "chain":
                front.add(tile)
            already.append(tile)
        if item.ok:
            problem = check.count_problem(already)
            if problem is not None:
                item.fail(problem[0], problem[1], problem[2])
        points = args.get("points")
        item.price = estimate if points is None else int(points)
        item.info["estimate"] = estimate

    def _defend(self, item: Item, args: dict) -> None:  # type: ignore[type-arg]
        section = "VIII. Война"
        if self.w.options.war_model == "purchase":
            item.fail("в этой игре оборону не покупают (war_model = purchase)",
                      "this game buys no defence (war_model = purchase)", section)
            return
        # «Атакованный игрок автоматически начинает "Оборонительную войну"»: the attacked may
        # answer a declaration of this turn in the same turn, before the war is stored; the
        # points come back at the fighting if no war came (ruling R45)
        answer = self.w.options.first_turn_defence == "answer"
        other = args.get("target")
        if other is not None:
            c = self._country(item, other, section)
            if c is None:
                return
            if not self._at_war_with(other):
                if not answer:
                    item.fail(f"вы не воюете {ru_with(c.name)}", f"you are not at war with {c.name}", section)
                    return
                item.info["unless_war"] = True
        elif not self.w.enemies(self.cid) and not self.declared:
            if not answer:
                item.fail("вы ни с кем не воюете", "you are at war with no one", section)
                return
            item.info["unless_war"] = True
        item.price = int(args["points"])


@dataclass
class Limits:
    """What a side may still take in a war, by its war type (section VIII.2)."""

    world: World
    cid: str
    other: str
    war_type: str
    kind: str
    territories: int | None
    targets: int | None
    distance: int | None
    borders: set[str]
    held: list[str]
    taken_targets: list[str]

    def tile_problem(self, tile: str) -> tuple[str, str, str] | None:
        w = self.world
        if self.kind in ("defensive", "independence") and tile not in self.borders:
            return (f"{tile} вне ваших границ на начало войны: {self._type_ru()} ведётся только в них",
                    f"{tile} lies outside your borders when the war began: a {self._type_en()} stays within them",
                    "VIII. Война, 2")
        if self.distance is not None and self.valuable(tile):
            # «до 2 ресурсов/городов, находящихся не далее 5 клеток от ваших границ» (ruling R7)
            d = w.grid.distance_to_set(tile, self.borders)
            if d is None or d > self.distance:
                return (f"{tile} (ресурс или город) дальше {self.distance} клеток от ваших границ",
                        f"{tile} (a resource or city) is more than {self.distance} tiles from your borders",
                        "VIII. Война, 2")
        return None

    def count_problem(self, listed: list[str]) -> tuple[str, str, str] | None:
        if self.territories is not None and len(self.held) + len(listed) > self.territories:
            return (f"{self._type_ru()}: не более {self.territories} территорий (взято {len(self.held)}, "
                    f"в приказе {len(listed)})",
                    f"{self._type_en()}: at most {self.territories} territories (taken {len(self.held)}, "
                    f"listed {len(listed)})", "VIII. Война, 2")
        if self.targets is not None:
            # «до 2 ресурсов/городов»: those the war has taken (a razed city too, ruling R7)
            taken = self.taken_targets
            new = [t for t in dict.fromkeys(listed) if self.valuable(t) and t not in taken]
            if len(taken) + len(new) > self.targets:
                return (f"{self._type_ru()}: не более {self.targets} ресурсов/городов (взято {len(taken)}"
                        f"{': ' + ', '.join(taken) if taken else ''}, в приказе {len(new)})",
                        f"{self._type_en()}: at most {self.targets} resources/cities (taken {len(taken)}"
                        f"{': ' + ', '.join(taken) if taken else ''}, listed {len(new)})", "VIII. Война, 2")
        return None

    def valuable(self, tile: str) -> bool:
        return self.world.valuable(tile)

    def _type_ru(self) -> str:
        return f"«{self.world.rules.war_types[self.war_type].name_ru}»"

    def _type_en(self) -> str:
        return f"'{self.world.rules.war_types[self.war_type].name_en}'"


def war_limits(world: World, cid: str, other: str, declared: str | None = None, upgraded: str | None = None) -> Limits:
    """The limits of ``cid``'s war on ``other``: its type's territories, resources and cities,
    distance from the borders at the war's start, or the borders themselves for a defensive
    war («Только в пределах своих границ на начало войны»)."""
    war = world.state.war_between(cid, other)
    if war is None:
        wtype = declared or "total"
        borders = world.land_set(cid)
        held: list[str] = []
    taken_targets: list[str] = []
    if war is not None:
        wtype = upgraded or world.side_type(war, cid)
        borders = set(war.attacker_land if war.attacker == cid else war.defender_land)
        held = [t for t in war.captured.get(cid, []) if world.state.owner(t) == cid]
        # «до 2 ресурсов/городов» (ruling R7): what the war took, whatever became of it; with
        # grab_count = "held", the tiles taken and still held that still hold a city or a resource
        taken_targets = (list(war.targets.get(cid, [])) if world.options.grab_count == "taken"
                         else [t for t in held if world.valuable(t)])
        if not borders:
            borders = world.land_set(cid)
    if world.invader_war(cid, other) and war is None:
        wtype = "total"
    spec = world.rules.war_types[wtype]
    entry = spec.epochs.get(world.epoch.id)
    if war is not None and entry is None:
        # an obsolete type goes on as it was declared: the limits of the last epoch it had
        known = [e for e in world.rules.epoch_ids if e in spec.epochs]
        entry = spec.epochs[known[-1]] if known else None
    kind = spec.kind
    me = world.state.countries[cid]
    if kind == "defensive" and me.id != other:
        # «Территория вассала считается "родной" территорией сюзерена.»
        for v in world.state.vassals_of(cid):
            borders |= world.land_set(v)
    if kind == "independence":
        borders = set(me.vassal_land) or borders
    return Limits(world, cid, other, wtype, kind,
                  entry.territories if entry else None, entry.targets if entry else None,
                  entry.distance if entry else None, borders, held, taken_targets)


def ru_with(name: str) -> str:
    """«с Верой», «со Староверами» (see :func:`ru_case`)."""
    from voevoda.core.words import with_name

    return with_name(name)


def ru_case(name: str, case: str) -> str:
    """A country's name as a Russian message puts it («вы не воюете с Верой», «H10 принадлежит
    Вере»); the morphology dictionary loads only when a message needs it."""
    from voevoda.core.words import name_in_case

    return name_in_case(name, case)


def free_land(world: World) -> set[str]:
    """Unowned land on the open part of the map."""
    grid = world.grid
    found = world.remembered(("free_land",), lambda: frozenset(
        t for t in grid.tiles if grid.is_land(t) and world.state.owner(t) is None and world.tile_open(t)))
    return set(found)


def half(value: int) -> int:
    return math.floor(value / 2)
