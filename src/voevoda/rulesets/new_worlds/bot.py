"""A computer opponent for New Worlds: it writes a forum post (a greeting, bold orders, chatter
under a spoiler) from its own view alone, and checks every order it writes with the same
planner the game uses, so that its post is always accepted.

It builds cities where it can afford them, settles free land next to its own, builds ports,
universities and factories when the epoch allows, and researches. It answers the proposals
made to it (pacts, alliances, deals, a peace), proposes pacts to neighbours of its size, one
alliance, and a deal a turn for a resource it lacks. The event countries are everybody's
enemy and the epochs open only when they are beaten: a country that borders them throws most
of its points at them (the one they strike holds the line), one that cannot reach them lands
on their coast or helps its ally with half its roll. At peace, a country a third larger than
a neighbour saves its points, breaks its pact or alliance with it and wages a war of
vassalisation, striking in the war's last turns; now and then it starts a smaller war on a
weaker neighbour. While event countries stand, free land is settled toward them.
tests/rulesets/new_worlds/test_nw_bot_epochs.py plays such a game through every epoch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from voevoda.core.dice import Stream
from voevoda.core.ruleset import Order
from voevoda.core.words import name_in_case, thing_accusative, with_name
from voevoda.rulesets.new_worlds.mapdata import grid_from_state
from voevoda.rulesets.new_worlds.plan import Planner, free_land
from voevoda.rulesets.new_worlds.state import NWState, War
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

    def name(self, cid: str, case: str = "nomn") -> str:
        """A country as a Russian post names it: its name in ``case`` («союз с Любовью»,
        «помощь Северной Марке 10», «атака на Улус Ветра 12: …»), which the order reader
        knows in every case (orders.Lexicon)."""
        country = self.w.state.countries.get(cid)
        name = country.name if country is not None else cid
        return name_in_case(name, case)

    def with_name(self, cid: str) -> str:
        """«с Любовью», «со Староверами»."""
        country = self.w.state.countries.get(cid)
        return with_name(country.name if country is not None else cid)

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
    return _post(plan_post(view, player, stream, ruleset), stream)


def plan_post(view: Mapping[str, Any], player: str, stream: Stream, ruleset: NewWorlds) -> Writer:
    """The orders the computer opponent in ``player``'s seat chooses, each with the text it
    writes for it (the post itself is :func:`write_post`)."""
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
        return wr
    if me.religion is None:
        rel = ["polytheism", "dualism", "monotheism"][stream.roll(3) - 1]
        wr.try_add("religion", {"religion": rel}, f"религия {RELIGION_WORDS[rel]}")
    if me.choice == "khagan":
        wr.try_add("tributary", {}, "данник")
    if me.reform is not None and me.reform.status == "civil_war" and me.reform.choice is None:
        wr.try_add("reform", {"choice": "upgrade"}, "реформа улучшить")
    _answer_offers(wr)
    _war_orders(wr)
    _diplomacy(wr)
    _build(wr)
    _settle(wr)
    _research(wr)
    return wr


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


def _event_enemies(w: World, cid: str) -> list[str]:
    """The event countries (invaders and the Khagan's tributaries) at war with ``cid``."""
    return [e for e in w.enemies(cid) if w.state.countries[e].kind in ("invader", "tributary")]


def _war_orders(wr: Writer) -> None:
    """Wars first: the event countries are everybody's enemy («Эвентовые захватчики»), and the
    epochs open only when they are beaten (Antiquity, the Middle Ages), so a country that
    borders them throws most of its points at them; a country at war with a player holds its
    front; a strong country at peace seeks a vassal («Иметь минимум 1 игрока-вассала» opens
    the Renaissance) and now and then a smaller neighbour's land."""
    w = wr.w
    me = w.state.countries[wr.me]
    enemies = w.enemies(wr.me)
    border = _neighbours_of(w, wr.me)
    fronts = [e for e in enemies if e in border]
    invaders = _event_enemies(w, wr.me)
    if fronts:
        near_invaders = [e for e in fronts if e in invaders]
        target = max(near_invaders or fronts, key=lambda e: (border[e], e))
        war = w.war_of(wr.me, target)
        # an event country throws its attack at the country it borders most (npc.py): that
        # country holds the line, the others strike
        struck = any(max(_neighbours_of(w, e).items(), key=lambda kv: (kv[1], kv[0]))[0] == wr.me
                     for e in near_invaders if _neighbours_of(w, e))
        if near_invaders:
            # the struck country holds with everything while others border the invaders: an
            # invader that takes nothing while it loses all its land is gone
            others = any(len(_neighbours_of(w, e)) > 1 for e in near_invaders)
            share = (0 if others else 1 / 2) if struck else 4 / 5
        elif war is not None and war.attacker == wr.me:
            share = 9 / 10 if war.attacker_type == "vassalisation" else 2 / 3
        else:
            share = 1 / 3
        attack = int(me.points * share)
        if war is not None and war.attacker == wr.me and war.attacker_type == "vassalisation":
            _vassal_war(wr, target, war)
            return
        # «нужно захватить все территории, подконтрольные лично Кагану и его трем изначальным
        # данникам»: the weakest event countries on our borders (a tributary rolls nothing of its
        # own) are taken on the side, with what their ring of land costs
        weak = sorted((e for e in near_invaders if e != target and not struck),
                      key=lambda e: (w.state.countries[e].points, e))
        side = {e: min(w.state.countries[e].points // 3 + 2 * border[e] + 2, attack // 3) for e in weak}
        attack -= sum(side.values())
        defence = me.points - attack - sum(side.values()) if struck else min(me.points - attack, me.points // 4)
        if defence and w.options.war_model == "contest":
            wr.try_add("defend", {"target": None, "points": defence}, f"оборона {defence}")
        _attack(wr, target, attack)
        for e, points in side.items():
            _attack(wr, e, points)
        return
    for inv in sorted(invaders):
        # invaders across the water: a landing on their coast
        if _attack(wr, inv, me.points * 2 // 3, by_sea=True):
            return
    if invaders:
        _aid_allies(wr)
        return
    if me.suzerain is None and not w.in_war(wr.me) and _vassalise(wr, border):
        return
    if border and me.suzerain is None and wr.stream.roll(6) == 1:
        weakest = min(border, key=lambda c: (w.territories(c), c))
        other = w.state.countries[weakest]
        if other.kind == "player" and w.territories(weakest) < w.territories(wr.me):
            for wtype in ("resource_grab", "small_conquest", "conquest", "total"):
                spec = w.rules.war_types[wtype]
                if w.rules.war_price(wtype, w.epoch) is None:
                    continue
                if wr.try_add("war", {"target": weakest, "type": wtype},
                              f"война {wr.with_name(weakest)}: {spec.name_ru.lower()}"):
                    _attack(wr, weakest, me.points // 3)
                    break


def _vassalise(wr: Writer, border: Mapping[str, int]) -> bool:
    """«Вассализация»: a country with a third more land than a neighbour's, and the points saved
    for it, declares it (breaking a pact or an alliance with it first); the fighting is planned
    by :func:`_vassal_war`."""
    w = wr.w
    if "vassalisation" not in w.rules.war_types or w.rules.war_price("vassalisation", w.epoch) is None:
        return False
    mine = w.territories(wr.me)
    weak = sorted((c for c in border if w.state.countries[c].kind == "player" and w.state.countries[c].suzerain is None
                   and not w.state.vassals_of(c) and 4 * w.territories(c) <= 3 * mine
                   # savings for two turns of it (_vassal_war): beating the enemy's defence twice
                   # and holding against its counter-attack once, about three quarters of its points
                   and w.state.countries[wr.me].points >= 3 * w.state.countries[c].points // 4 + 3 * border[c] + 20),
                  key=lambda c: (w.territories(c), c))
    name = w.rules.war_types["vassalisation"].name_ru.lower()
    me = w.state.countries[wr.me]
    for target in weak:
        # «Чтобы разорвать союз, нужно потратить 40 очков»: worth it for a vassal
        if w.state.treaty("alliance", wr.me, target) is not None and (
                me.points < 2 * w.rules.diplomacy.alliance_break
                or not wr.try_add("break_alliance", {"target": target}, f"разорвать союз {wr.with_name(target)}")):
            continue
        # «Чтобы разорвать пакт, нужно потратить 10 очков односторонне»
        if w.state.treaty("pact", wr.me, target) is not None and not wr.try_add(
                "break_pact", {"target": target}, f"разорвать пакт {wr.with_name(target)}"):
            continue
        if wr.try_add("war", {"target": target, "type": "vassalisation"}, f"война {wr.with_name(target)}: {name}"):
            # the fighting is planned turn by turn (_vassal_war): the savings are kept for it
            return True
    return False


def _vassal_war(wr: Writer, target: str, war: War) -> None:
    """A war of vassalisation is won by what is held when it ends («Если вы удерживаете более
    50% территорий противника»), and the enemy's defensive war may only take back its own land:
    the points are saved while the war has turns to spare, then spent over its last turns, one
    ring of the enemy's land a turn (R26), each turn enough to beat its defence (a quarter of
    its points, as it defends) and, once there is land of its to hold, a defence against its
    counter-attack (a third)."""
    w = wr.w
    me = w.state.countries[wr.me]
    theirs = w.state.countries[target].points
    base = set(war.defender_land)
    land = w.land_set(wr.me)
    held = sum(1 for t in base if w.state.owner(t) == wr.me)
    wanted = len(base) // 2 + 1 - held
    ring = len({n for t in land for n in w.grid.neighbours(t) if w.state.owner(n) == target and w.grid.is_land(n)})
    left = max(1, (war.last_turn if war.last_turn is not None else w.state.turn) - w.state.turn + 1)
    defence = min(me.points, theirs // 3 + 6) if held else 0
    if defence and w.options.war_model == "contest":
        wr.try_add("defend", {"target": target, "points": defence}, f"оборона от {wr.name(target, 'gent')} {defence}")
    if wanted > 0 and left <= -(-wanted // max(1, ring)):
        attack = me.points - defence if left == 1 else min(me.points - defence, theirs // 4 + 6 + 2 * ring)
        _attack(wr, target, attack)


def _aid_allies(wr: Writer) -> None:
    """«Страны, имеющие союз, могут помогать друг другу в войне, передавая до половины ролла»:
    a country that cannot reach the invaders helps an ally who fights them."""
    w = wr.w
    me = w.state.countries[wr.me]
    for ally in sorted(w.state.allies_of(wr.me)):
        if _event_enemies(w, ally) and any(e in _neighbours_of(w, ally) for e in _event_enemies(w, ally)):
            half = (me.roll.total if me.roll is not None else me.points) // 2
            points = min(half, me.points // 2)
            if points > 0 and wr.try_add("aid", {"target": ally, "points": points},
                                         f"помощь {wr.name(ally, 'datv')} {points}"):
                return


def _attack(wr: Writer, target: str, points: int, by_sea: bool = False) -> bool:
    """An attack on the cheapest tiles of ``target`` next to our land (or, ``by_sea``, on its
    coast across the water), as many as the points and our attack bonus pay for with some to
    spare (the defence takes its share first); True when one was written."""
    w = wr.w
    grid = w.grid
    land = w.land_set(wr.me)
    if points <= 0:
        return False
    priced: list[tuple[int, str]] = []
    if by_sea:
        theirs = sorted((t for t in w.land_set(target) if grid.is_coast(t)), key=grid.index)
        for t in theirs[:12]:
            reach = w.reach(wr.me, t, land)
            if reach is not None:
                priced.append((w.capture_price(t) + reach[0], t))
    else:
        near = {n for t in land for n in grid.neighbours(t) if w.state.owner(n) == target and grid.is_land(n)}
        priced = [(w.capture_price(t), t) for t in near]
    priced.sort(key=lambda pt: (pt[0], grid.index(pt[1])))
    budget = points + w.holdings(wr.me).attack()
    chosen: list[str] = []
    spent = 0
    for price, t in priced:
        # twice what the points pay for: the tiles another country takes first are skipped
        if spent >= 2 * budget or len(chosen) >= 40:
            break
        if price > budget:
            continue   # a landing dearer than the whole attack takes nothing
        chosen.append(t)
        spent += price
    while chosen:
        if wr.try_add("attack", {"target": target, "points": points, "tiles": chosen},
                      f"атака на {wr.name(target, 'accs')} {points}: {' '.join(chosen)}"):
            return True
        chosen = chosen[: len(chosen) // 2] if len(chosen) > 1 else []
    return False


def _answer_offers(wr: Writer) -> None:
    """Proposals made to us are answered by writing the same order back (ruling R15): pacts,
    alliances and trade deals are accepted whenever the rules allow them, peace when the war
    is not going our way or against a stronger enemy."""
    w = wr.w
    for offer in sorted(w.state.offers, key=lambda o: (o.turn, o.by, o.kind)):
        if offer.to != wr.me:
            continue
        if offer.kind in ("pact", "alliance"):
            word = "пакт" if offer.kind == "pact" else "союз"
            wr.try_add(offer.kind, {"target": offer.by}, f"{word} {wr.with_name(offer.by)}")
        elif offer.kind == "trade" and offer.give and offer.get:
            res = w.rules.resources
            wr.try_add("trade", {"target": offer.by, "give": offer.get, "get": offer.give},
                       f"торговля {wr.with_name(offer.by)}: {res[offer.get].name_ru.lower()} за "
                       f"{thing_accusative(res[offer.give].name_ru.lower())}")
        elif offer.kind == "peace" and not offer.cede and w.territories(offer.by) >= w.territories(wr.me):
            wr.try_add("peace", {"target": offer.by, "cede": []}, f"мир {wr.with_name(offer.by)}")


def _diplomacy(wr: Writer) -> None:
    """Pacts with neighbours (Iron Age), one alliance with the strongest neighbour (Antiquity),
    and a trade deal a turn for a resource we lack («дают двойной бонус, если они уникальны»)."""
    w = wr.w
    if w.state.countries[wr.me].suzerain is None:
        border = _neighbours_of(w, wr.me)
        neighbours = [c for c in sorted(border, key=lambda c: (-border[c], c))
                      if w.state.countries[c].kind == "player" and w.state.countries[c].suzerain is None
                      and not w.at_war(wr.me, c)]
        pending = {(o.kind, o.to) for o in w.state.offers if o.by == wr.me}
        mine = w.territories(wr.me)
        # the alliance goes to a country beyond our borders or a neighbour of our size (an ally
        # cannot be attacked: a small neighbour is kept as a vassal to be), the largest first;
        # pacts to neighbours of our size
        if w.epoch.alliances and not w.state.allies_of(wr.me):
            far = [c.id for c in w.state.players() if c.alive and c.id != wr.me and c.suzerain is None
                   and not w.at_war(wr.me, c.id) and (c.id not in border or 2 * w.territories(c.id) > mine)]
            for other in sorted(far, key=lambda c: (-w.territories(c), c)):
                if (("alliance", other) not in pending and not w.state.allies_of(other)
                        and wr.try_add("alliance", {"target": other}, f"союз {wr.with_name(other)}")):
                    break
        if w.epoch.pacts and wr.stream.roll(3) == 1:
            for other in [c for c in neighbours if 2 * w.territories(c) > mine]:
                if (w.state.treaty("pact", wr.me, other) is None and w.state.treaty("alliance", wr.me, other) is None
                        and ("pact", other) not in pending
                        and wr.try_add("pact", {"target": other}, f"пакт {wr.with_name(other)}")):
                    break
    _trade(wr)


def _trade(wr: Writer) -> None:
    w = wr.w
    if not w.epoch.trade or not w.has_port(wr.me):
        return
    res = w.rules.resources
    mine = {r for _, r in w.deposits_of(wr.me)}
    _, bought = w.traded(wr.me)
    have = mine | {r for r, _, _ in bought}
    spare = sorted(r for r in mine if w.free_units(wr.me, r) > 0)
    if not spare:
        return
    pending = {o.to for o in w.state.offers if o.by == wr.me and o.kind == "trade"}
    for other in sorted(c.id for c in w.state.players() if c.alive and c.id != wr.me):
        if other in pending or w.at_war(wr.me, other) or not w.has_port(other):
            continue
        theirs = sorted(r for _, r in w.deposits_of(other) if r not in have and w.free_units(other, r) > 0)
        for get in theirs:
            give = next((g for g in spare if g != get), None)
            if give is None:
                continue
            if wr.try_add("trade", {"target": other, "give": give, "get": get},
                          f"торговля {wr.with_name(other)}: {res[give].name_ru.lower()} за "
                          f"{thing_accusative(res[get].name_ru.lower())}"):
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
    # toward the event countries, when there are any: a front by land is cheaper than landings
    targets = [t for e in _event_enemies(w, wr.me) for t in w.land_set(e)]
    if targets:
        options.sort(key=lambda t: (grid.distance_to_set(t, targets) or 0, grid.index(t)))
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
