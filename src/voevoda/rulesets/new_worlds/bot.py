"""A computer opponent for New Worlds: it writes a forum post (a greeting, bold orders, chatter
under a spoiler) from its own view alone, and checks every order it writes with the same
planner the game uses, so that its post is always accepted.

It builds cities where it can afford them, settles free land next to its own, builds ports,
universities and factories when the epoch allows, researches, signs pacts with neighbours,
defends and counter-attacks when at war, and now and then starts a war on a weak neighbour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from voevoda.core.dice import Stream
from voevoda.core.ruleset import Order
from voevoda.rulesets.new_worlds.mapdata import grid_from_state
from voevoda.rulesets.new_worlds.plan import Planner, free_land
from voevoda.rulesets.new_worlds.state import NWState
from voevoda.rulesets.new_worlds.world import World

if TYPE_CHECKING:
    from voevoda.rulesets.new_worlds.ruleset import NewWorlds

CLOSED_REGION = "Q"
RELIGION_WORDS = {"polytheism": "политеизм", "dualism": "дуализм", "monotheism": "монотеизм"}
FACTORY_WORDS = {"gold": "золотовалютный", "military": "военный", "textile": "ткацкий", "wine": "винно-водочный"}
BRANCH_WORDS = {"peace": "мир", "economy": "экономика", "war": "война"}
GREETINGS = ["Доброго времени суток!", "Приветствую, ведущий.", "Ход такой:", "Всем привет!"]


def world_from_view(view: Mapping[str, Any], ruleset: NewWorlds) -> World:
    """The world as this seat sees it: closed tiles become a region that never opens."""
    m = dict(view["map"])
    terrain = list(m["terrain"])
    regions = ["".join(CLOSED_REGION if ch == "?" else "." for ch in row) for row in terrain]
    m["terrain"] = [row.replace("?", "=") for row in terrain]
    m["regions"] = regions if any(CLOSED_REGION in r for r in regions) else None
    m["regions_info"] = {**dict(m.get("regions_info") or {}),
                         CLOSED_REGION: {"name_ru": "?", "name_en": "?", "opens_at": None}}
    raw = {
        "turn": view["turn"], "phase": view["phase"], "epoch": view["epoch"], "epoch_since": view["epoch_since"],
        "seats": list(view["seats"]), "map": m, "tiles": dict(view["tiles"]), "deposits": dict(view["deposits"]),
        "countries": dict(view["countries"]), "wars": list(view["wars"]), "treaties": list(view["treaties"]),
        "deals": list(view["deals"]), "offers": list(view["offers"]),
        "events": {k: v for k, v in view["events"].items()}, "outcome": view.get("outcome"),
    }
    state = NWState.model_validate(raw)
    return World(ruleset.rules, ruleset.options, state, grid_from_state(state.map.model_dump()), frozen=True)


class Writer:
    def __init__(self, world: World, me: str, stream: Stream) -> None:
        self.w = world
        self.me = me
        self.stream = stream
        self.lines: list[str] = []
        self.orders: list[Order] = []

    def name(self, cid: str) -> str:
        return cid

    def try_add(self, kind: str, args: dict[str, Any], text: str) -> bool:
        """Keep the order only when the planner accepts it with everything written so far."""
        candidate = [*self.orders, Order(kind, args, len(self.orders) + 1, text)]
        plan = Planner(self.w, self.me).plan(candidate)
        if all(i.ok for i in plan.items):
            self.orders = candidate
            self.lines.append(text)
            return True
        return False

    def left(self) -> int:
        plan = Planner(self.w, self.me).plan(self.orders)
        return plan.points - plan.spent


def write_post(view: Mapping[str, Any], player: str, stream: Stream, ruleset: NewWorlds) -> str:
    world = world_from_view(view, ruleset)
    state = world.state
    me = state.countries[player]
    wr = Writer(world, player, stream)
    grid = world.grid
    if not me.alive:
        free = sorted(free_land(world), key=grid.index)
        need = world.epoch.start_territories
        for tile in free[:: max(1, len(free) // 40)]:
            if len(grid.grow(tile, need, set(free))) >= need and wr.try_add("recreate", {"tile": tile, "name": None},
                                                                               f"пересоздание {tile}"):
                break
        return _post(wr, stream)
    if me.religion is None:
        rel = ["polytheism", "dualism", "monotheism"][stream.roll(3) - 1]
        wr.try_add("religion", {"religion": rel}, f"религия {RELIGION_WORDS[rel]}")
    if me.choice == "khagan":
        wr.try_add("tributary", {}, "данник")
    if me.reform is not None and me.reform.status == "civil_war" and me.reform.choice is None:
        wr.try_add("reform", {"choice": "upgrade"}, "реформа улучшить")
    _war_orders(wr)
    _diplomacy(wr)
    _build(wr)
    _settle(wr)
    _research(wr)
    return _post(wr, stream)


def _neighbours_of(world: World, cid: str) -> dict[str, int]:
    state = world.state
    grid = world.grid
    border: dict[str, int] = {}
    for t in world.land_set(cid):
        for n in grid.neighbours(t):
            owner = state.owner(n)
            if owner is not None and owner != cid and grid.is_land(n):
                border[owner] = border.get(owner, 0) + 1
    return border


def _war_orders(wr: Writer) -> None:
    w = wr.w
    me = w.state.countries[wr.me]
    enemies = w.enemies(wr.me)
    border = _neighbours_of(w, wr.me)
    fronts = [e for e in enemies if e in border]
    invaders = [e for e in enemies if w.state.countries[e].kind in ("invader", "tributary")]
    if fronts:
        budget = me.points
        defence = budget // 3
        if defence and w.options.war_model == "contest":
            wr.try_add("defend", {"target": None, "points": defence}, f"оборона {defence}")
        # the common enemy first: event invaders next to us
        near_invaders = [e for e in fronts if e in invaders]
        target = max(near_invaders or fronts, key=lambda e: (border[e], e))
        _attack(wr, target, me.points // 2 if near_invaders else me.points // 3)
        return
    for inv in sorted(invaders):
        # invaders across the water: a landing on their coast
        if _attack(wr, inv, me.points // 2, by_sea=True):
            return
    # now and then, a war on a smaller neighbour
    if border and me.suzerain is None and wr.stream.roll(6) == 1:
        weakest = min(border, key=lambda c: (w.territories(c), c))
        other = w.state.countries[weakest]
        if other.kind == "player" and w.territories(weakest) < w.territories(wr.me):
            for wtype in ("resource_grab", "small_conquest", "conquest", "vassalisation", "total"):
                spec = w.rules.war_types[wtype]
                if w.rules.war_price(wtype, w.epoch) is None:
                    continue
                if wr.try_add("war", {"target": weakest, "type": wtype}, f"война {weakest} {spec.name_ru.lower()}"):
                    _attack(wr, weakest, me.points // 3)
                    break


def _attack(wr: Writer, target: str, points: int, by_sea: bool = False) -> bool:
    """An attack on the cheapest tiles of ``target`` next to our land (or, ``by_sea``, on its
    coast across the water), as many as ``points`` pay for; True when one was written."""
    w = wr.w
    grid = w.grid
    land = w.land_set(wr.me)
    options: list[str]
    if by_sea:
        theirs = sorted((t for t in w.land_set(target) if grid.is_coast(t)), key=grid.index)
        priced: list[tuple[int, str]] = []
        for t in theirs[:12]:
            reach = w.reach(wr.me, t, land)
            if reach is not None:
                priced.append((w.capture_price(t) + reach[0], t))
        options = [t for _, t in sorted(priced)]
    else:
        options = sorted({n for t in land for n in grid.neighbours(t)
                          if w.state.owner(n) == target and grid.is_land(n)},
                         key=lambda t: (w.capture_price(t), grid.index(t)))
    chosen: list[str] = []
    for t in options[:8]:
        if wr.try_add("attack", {"target": target, "points": points, "tiles": [*chosen, t]},
                      f"атака {target} {points}: {' '.join([*chosen, t])}"):
            wr.orders.pop()
            wr.lines.pop()
            chosen.append(t)
    if chosen and points > 0:
        return wr.try_add("attack", {"target": target, "points": points, "tiles": chosen},
                          f"атака {target} {points}: {' '.join(chosen)}")
    return False


def _diplomacy(wr: Writer) -> None:
    w = wr.w
    if not w.epoch.pacts or wr.stream.roll(3) != 1:
        return
    border = _neighbours_of(w, wr.me)
    for other in sorted(border, key=lambda c: (-border[c], c)):
        c = w.state.countries[other]
        if (c.kind == "player" and w.state.treaty("pact", wr.me, other) is None and not w.at_war(wr.me, other)
                and wr.try_add("pact", {"target": other}, f"пакт {other}")):
            return


def _build(wr: Writer) -> None:
    w = wr.w
    grid = w.grid
    land = sorted(w.land_set(wr.me), key=grid.index)
    cities = set(w.state.cities_of(wr.me))
    epoch = w.epoch
    reserve = 0
    for _ in range(3):
        sites = [t for t in land if t not in cities and all(grid.distance(t, c) >= 3 for c in cities)]
        if not sites:
            break
        sites.sort(key=lambda t: (-sum(1 for n in grid.within(t, 1) if n in w.state.deposits), grid.index(t)))
        if not wr.try_add("city", {"tile": sites[0]}, f"город {sites[0]}"):
            break
        cities.add(sites[0])
    if epoch.city_upgrades:
        for c in sorted(cities, key=grid.index)[:2]:
            wr.try_add("upgrade", {"tile": c}, f"улучшить город {c}")
    near = [t for t in land if w.near_city(wr.me, t, cities)]
    if epoch.ports and not w.has_port(wr.me):
        for t in near:
            if grid.is_coast(t) and wr.try_add("port", {"tile": t}, f"порт {t}"):
                break
    if epoch.universities:
        for t in near:
            if wr.try_add("university", {"tile": t}, f"университет {t}"):
                break
    if epoch.factories:
        kind = ["gold", "military", "textile", "wine"][wr.stream.roll(4) - 1]
        for t in near:
            if wr.try_add("factory", {"tile": t, "type": kind}, f"завод {FACTORY_WORDS[kind]} {t}"):
                break
    del reserve


def _settle(wr: Writer) -> None:
    w = wr.w
    grid = w.grid
    budget = wr.left()
    if budget <= 0:
        return
    free = free_land(w)
    land = w.land_set(wr.me)
    options = sorted({n for t in land for n in grid.neighbours(t) if n in free}, key=grid.index)
    chosen: list[str] = []
    for t in options:
        if len(chosen) >= budget // max(1, w.rules.prices.territory):
            break
        chosen.append(t)
    while chosen and not wr.try_add("colonize", {"tiles": chosen}, "занять " + " ".join(chosen)):
        chosen.pop()


def _research(wr: Writer) -> None:
    w = wr.w
    me = w.state.countries[wr.me]
    if not w.state.buildings_of(wr.me, "university"):
        return
    for branch in ("war", "economy", "peace"):
        points = min(wr.left(), 10)
        if wr.try_add("research", {"branch": branch, "points": points}, f"исследование {BRANCH_WORDS[branch]} {points}"):
            return
    del me


def _post(wr: Writer, stream: Stream) -> str:
    greeting = GREETINGS[stream.roll(len(GREETINGS)) - 1]
    body = [greeting, ""]
    body.extend(f"[b]{line}[/b]" for line in wr.lines)
    body.append("")
    body.append("[spoiler]Ролл бросает движок; пишу только приказы.[/spoiler]")
    return "\n".join(body)
