"""«VIII. Война»: declaring and upgrading wars, the fighting of a turn, and how wars end.

A turn of fighting (docs/new_worlds.md «War», ruling R5): on each front the attacker commits
points to an attack on a list of the enemy's tiles; the defender commits points to defence.
With the default ``war_model = "contest"`` the attack's strength is its points plus the
attacker's military resources' attack bonus («Бронза: +3 к атаке и защите»), the defence's is
its points plus the defender's defence bonus, and what the attack has over the defence buys
the listed tiles in order at their capture price (a territory, a city by its upgrades,
fortified ground, plus the voyage when the tile is across water). With ``"purchase"`` there
is no defence: the attack's points and bonus buy the tiles outright.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from voevoda.core.ruleset import Event
from voevoda.rulesets.new_worlds.plan import war_limits
from voevoda.rulesets.new_worlds.state import Treaty, War
from voevoda.rulesets.new_worlds.world import World


@dataclass
class Front:
    attacker: str
    defender: str
    committed: int
    tiles: list[str]
    line: int = 0
    defence: int = 0
    attack_bonus: int = 0
    defence_bonus: int = 0
    taken: list[str] = field(default_factory=list)
    missed: list[dict[str, object]] = field(default_factory=list)
    voyages: dict[str, dict[str, object]] = field(default_factory=dict)
    notes: list[Event] = field(default_factory=list)

    @property
    def strength(self) -> int:
        return self.committed + self.attack_bonus

    @property
    def net(self) -> int:
        return max(0, self.strength - self.defence - self.defence_bonus)


def group_of(world: World, cid: str) -> str:
    """Which side an event country fights for: the Khagan and his tributaries are one."""
    c = world.state.countries[cid]
    if c.kind in ("invader", "tributary"):
        return f"event:{c.event}"
    return cid


def declare(world: World, attacker: str, defender: str, war_type: str, price: int) -> list[Event]:
    """«Начиная войну, игрок выбирает и оплачивает её тип… Атакованный игрок автоматически
    начинает "Оборонительную войну".» «Если вассала атакуют, сюзерен тоже считает себя
    атакованным.»"""
    state = world.state
    duration = world.epoch.war_duration
    turn = state.turn
    events: list[Event] = []
    war = War(id=state.new_id(), attacker=attacker, defender=defender, attacker_type=war_type,
              defender_type="defensive", attacker_paid=price, started=turn, last_turn=turn + duration - 1,
              attacker_land=state.land_of(attacker, world.grid), defender_land=state.land_of(defender, world.grid),
              captured={attacker: [], defender: []})
    state.wars.append(war)
    for deal in [d for d in state.deals if {d.a, d.b} == {attacker, defender}]:
        state.deals.remove(deal)
        events.append(Event("deal_ended", {"deal": deal.model_dump(), "reason": "war"}))
    events.append(Event("war_declared", {"attacker": attacker, "defender": defender, "type": war_type,
                                         "price": price, "war": war.id, "until": war.last_turn}))
    suzerain = state.countries[defender].suzerain
    if suzerain is not None and suzerain != attacker and state.war_between(attacker, suzerain) is None:
        linked = War(id=state.new_id(), attacker=attacker, defender=suzerain, attacker_type=war_type,
                     defender_type="defensive", started=turn, last_turn=war.last_turn,
                     attacker_land=war.attacker_land, defender_land=state.land_of(suzerain, world.grid),
                     captured={attacker: [], suzerain: []}, linked_to=war.id)
        state.wars.append(linked)
        events.append(Event("war_linked", {"attacker": attacker, "defender": suzerain, "vassal": defender,
                                           "war": linked.id}))
    return events


def upgrade(world: World, cid: str, other: str, new_type: str, price: int) -> Event:
    war = world.state.war_between(cid, other)
    assert war is not None
    if war.attacker == cid:
        old, war.attacker_type = war.attacker_type, new_type
        war.attacker_paid += price
    else:
        old, war.defender_type = war.defender_type, new_type
        war.defender_paid += price
    return Event("war_upgraded", {"country": cid, "other": other, "from": old, "to": new_type, "price": price})


# -- a turn of fighting ------------------------------------------------------------------------------

def fight(world: World, fronts: list[Front], defences: dict[str, list[tuple[str | None, int]]]) -> list[Event]:
    """Every front of the turn, strongest net attack first (ties by name)."""
    events: list[Event] = []
    attacked_by: dict[str, list[str]] = defaultdict(list)
    for f in fronts:
        attacked_by[f.defender].append(f.attacker)
    for f in fronts:
        f.attack_bonus = world.holdings(f.attacker).attack()
        f.defence_bonus = world.holdings(f.defender).defense()
        if world.options.war_model == "purchase":
            f.defence_bonus = 0
            continue
        for target, points in defences.get(f.defender, []):
            if target == f.attacker:
                f.defence += points
            elif target is None:
                share = _split(points, sorted(attacked_by[f.defender]), f.attacker)
                f.defence += share
    # «the front» (ruling R26): a tile is taken from the land held when the turn's fighting began
    start_land = {f.attacker: world.land_set(f.attacker) for f in fronts}
    for f in sorted(fronts, key=lambda f: (-f.net, f.attacker, f.defender)):
        events.extend(_resolve_front(world, f, set(start_land[f.attacker])))
    events.extend(follow_dejure(world))
    return events


def _split(points: int, attackers: list[str], who: str) -> int:
    """«оборона N» with no enemy named: split evenly over this turn's attackers, the first
    in name order taking the remainder."""
    if who not in attackers:
        return 0
    share, rest = divmod(points, len(attackers))
    return share + (rest if attackers.index(who) == 0 else 0)


def _resolve_front(world: World, f: Front, land: set[str]) -> list[Event]:
    state = world.state
    net = f.net
    war = state.war_between(f.attacker, f.defender)
    chain = world.options.capture_reach == "chain"
    has_port = world.has_port(f.attacker)
    stop = world.options.capture_order == "stop"
    for tile in f.tiles:
        if state.owner(tile) != f.defender:
            f.missed.append({"tile": tile, "why": "not_theirs"})
            continue
        limits = war_limits(world, f.attacker, f.defender)
        problem = limits.tile_problem(tile) or limits.count_problem([tile])
        if problem is not None:
            f.missed.append({"tile": tile, "why": "limit", "ru": problem[0], "en": problem[1]})
            continue
        reach = world.reach(f.attacker, tile, land, has_port)
        if reach is None:
            f.missed.append({"tile": tile, "why": "unreachable"})
            continue
        capture_price = world.capture_price(tile)
        price = capture_price + reach[0]
        if reach[0]:
            # the voyage itemised beside the tile's own price (ruling R3)
            f.voyages[tile] = {"capture": capture_price, "sea": reach[0],
                               "via": [list(x) for x in world.voyage(f.attacker, reach[1], has_port)]}
        if price > net:
            f.missed.append({"tile": tile, "why": "strength", "price": price, "left": net})
            if stop:
                break
            continue
        net -= price
        f.taken.append(tile)
        capture_events = capture(world, f.attacker, tile, war)
        if chain and state.owner(tile) == f.attacker:
            land.add(tile)
        f.notes.extend(capture_events)
    events = [Event("battle", {
        "attacker": f.attacker, "defender": f.defender, "committed": f.committed, "attack_bonus": f.attack_bonus,
        "defence": f.defence, "defence_bonus": f.defence_bonus, "net": f.net, "taken": f.taken, "missed": f.missed,
        "model": world.options.war_model, "unused": net, "voyages": f.voyages})]
    events.extend(f.notes)
    return events


def capture(world: World, taker: str, tile: str, war: War | None) -> list[Event]:
    """A tile changes hands in war: liberation for allies and vassals, cities destroyed
    (before the Middle Ages, by the Sea Peoples, or over the cap: FAQ) leaving slaves,
    universities over the cap destroyed, the Khaganate's counts."""
    state = world.state
    rules = world.rules
    events: list[Event] = []
    t = state.tile(tile)
    prev = t.owner
    assert prev is not None
    new_owner = taker
    # «Если освобождённые игроком территории принадлежали его союзнику или вассалу, то они
    # обязательно возвращаются к нему.»
    # «до 2 ресурсов/городов» counts what the war took, whatever becomes of it (ruling R7):
    # the city is looked at before a capture razes it
    valuable = world.valuable(tile)
    back = t.taken_from
    if back is not None and back != taker and back in state.countries and state.countries[back].alive and (
            back in state.allies_of(taker) or state.countries[back].suzerain == taker):
        new_owner = back
        events.append(Event("liberated", {"tile": tile, "by": taker, "to": back, "from": prev}))
    t.owner = new_owner
    t.taken_from = prev
    if war is not None:
        if new_owner == taker:
            war.captured.setdefault(taker, []).append(tile)
            if valuable and tile not in war.targets.get(taker, []):
                war.targets.setdefault(taker, []).append(tile)
        lost = war.captured.get(prev, [])
        if tile in lost:
            lost.remove(tile)
    taker_c = state.countries[taker]
    prev_c = state.countries[prev]
    kh = state.events.khaganate
    if taker_c.event == "khaganate" and prev_c.kind == "player":
        kh.taken[prev] = kh.taken.get(prev, 0) + 1
    if t.city is not None:
        if taker_c.event == "khaganate":
            kh.cities_taken += 1
        if prev_c.event == "khaganate":
            kh.cities_lost += 1
        destroys = world.epoch.captured_cities_destroyed or taker_c.destroys_cities
        cap = world.epoch.city_cap
        over = cap >= 0 and len(state.cities_of(new_owner)) - 1 >= cap
        if destroys or over:
            t.city = None
            slaves = bool(world.epoch.slaves and destroys and "slaves" in rules.resources)
            if slaves:
                t.slaves += 1
            events.append(Event("city_destroyed", {"tile": tile, "by": taker, "from": prev, "slaves": slaves,
                                                   "reason": "cap" if over and not destroys else "capture"}))
    if t.building == "university":
        cap = world.epoch.university_cap
        if cap >= 0 and len(state.buildings_of(new_owner, "university")) > cap:
            t.building = None
            events.append(Event("building_destroyed", {"tile": tile, "kind": "university", "owner": new_owner}))
    if t.building is not None and taker_c.kind in ("invader", "tributary"):
        kind = t.building
        t.building = None
        t.factory = None
        events.append(Event("building_destroyed", {"tile": tile, "kind": kind, "owner": new_owner}))
    return events


def follow_dejure(world: World) -> list[Event]:
    """«Морские тайлы и большие тайлы гор являются де-юре владениями. Их не нужно захватывать
    во время войны»: a sea or mountain tile that touches no land of its owner any more passes
    to the country holding most of the land around it (ties: the first name), or is free."""
    state = world.state
    grid = world.grid
    events: list[Event] = []
    for tile, t in sorted(state.tiles.items()):
        if t.owner is None or not grid.is_dejure(tile):
            continue
        around = [state.owner(n) for n in grid.neighbours(tile) if grid.is_land(n)]
        if t.owner in around:
            continue
        counts: dict[str, int] = defaultdict(int)
        for o in around:
            if o is not None:
                counts[o] += 1
        new = min(counts, key=lambda o: (-counts[o], o)) if counts else None
        if new is None and any(state.owner(n) == t.owner for n in grid.neighbours(tile)):
            continue  # a sea tile in a chain of the owner's sea tiles keeps its owner
        events.append(Event("dejure_moved", {"tile": tile, "from": t.owner, "to": new}))
        t.owner = new
    return events


# -- the end of wars ----------------------------------------------------------------------------------

def end_war(world: World, war: War, reason: str) -> list[Event]:
    """A war ends: «текущая позиция навязывается им обоим» within what each type allows,
    vassalisation and independence decided, the truce signed, the Embargo applied."""
    state = world.state
    rules = world.rules
    events: list[Event] = []
    returned: dict[str, list[str]] = {}
    vassal = False
    freed = False
    for side in (war.attacker, war.defender):
        other = war.defender if side == war.attacker else war.attacker
        wtype = war.attacker_type if side == war.attacker else war.defender_type
        spec = rules.war_types[wtype]
        held = [t for t in war.captured.get(side, []) if state.owner(t) == side]
        base = war.defender_land if side == war.attacker else war.attacker_land
        keep: int | None = None
        entry = spec.epochs.get(world.epoch.id) or (list(spec.epochs.values())[-1] if spec.epochs else None)
        if spec.kind == "vassalisation":
            # «Если вы удерживаете более 50% территорий противника, он становится вашим вассалом.»
            held_of_base = sum(1 for t in base if state.owner(t) == side)
            if base and held_of_base * 2 > len(base) and state.countries[other].alive:
                vassal = True
                make_vassal(world, side, other, events)
            keep = entry.keep if entry else None
        elif spec.kind == "pacify":
            keep = 0   # «никаких завоеваний по итогу войны»
        elif spec.kind == "punish":
            pct = spec.keep_percent or 0
            keep = max(math.ceil(len(base) * pct / 100), spec.keep_minimum or 0)
        elif spec.kind == "independence":
            own = set(state.countries[side].vassal_land) or set(base)
            held_own = sum(1 for t in own if state.owner(t) == side)
            # «Если вы удерживаете хотя бы 50% своей территории, вы освобождаетесь.»
            if own and held_own * 2 >= len(own) and state.countries[side].suzerain == other:
                freed = True
                free_vassal(world, side, events, reason="independence")
        if keep is not None and len(held) > keep:
            give_back = held[keep:]
            for t in give_back:
                state.tile(t).owner = other
            returned[side] = give_back
    war_index = state.wars.index(war)
    state.wars.pop(war_index)
    for linked in [w for w in state.wars if w.linked_to == war.id]:
        state.wars.remove(linked)
        _truce(world, linked.attacker, linked.defender, events)
        events.append(Event("war_ended", {"war": linked.id, "attacker": linked.attacker, "defender": linked.defender,
                                          "reason": "linked", "returned": {}, "vassal": False, "freed": False}))
    events.append(Event("war_ended", {"war": war.id, "attacker": war.attacker, "defender": war.defender,
                                      "reason": reason, "returned": returned, "vassal": vassal, "freed": freed,
                                      "taken": {s: [t for t in v if state.owner(t) == s] for s, v in war.captured.items()}}))
    if not war.civil:
        _truce(world, war.attacker, war.defender, events)
        events.extend(_embargo(world, war))
    return events


def _truce(world: World, a: str, b: str, events: list[Event]) -> None:
    """«После конца войны всегда заключается пакт о перемирии на 3 хода.»"""
    state = world.state
    if not (state.countries[a].alive and state.countries[b].alive):
        return
    turns = world.rules.diplomacy.truce_turns
    if turns <= 0:
        return
    existing = state.treaty("truce", a, b)
    if existing is not None:
        state.treaties.remove(existing)
    until = state.turn + turns
    state.treaties.append(Treaty(kind="truce", parties=sorted((a, b)), since=state.turn + 1, until=until))
    events.append(Event("truce", {"parties": sorted((a, b)), "until": until}))


def _embargo(world: World, war: War) -> list[Event]:
    """«Эмбарго: Игрок может отменить все торговые сделки противника и навязать две своих в
    конце войны, если он захватил больше территорий противника, чем противник — его.»"""
    state = world.state
    events: list[Event] = []
    for side, other in ((war.attacker, war.defender), (war.defender, war.attacker)):
        mine = len([t for t in war.captured.get(side, []) if state.owner(t) == side])
        theirs = len([t for t in war.captured.get(other, []) if state.owner(t) == other])
        country = state.countries[side]
        if mine > theirs and world.has_project(country, "embargo") and state.countries[other].alive:
            cancelled = [d for d in state.deals if other in (d.a, d.b)]
            for d in cancelled:
                state.deals.remove(d)
            country.impositions[other] = 2
            events.append(Event("embargo", {"by": side, "on": other, "cancelled": [d.model_dump() for d in cancelled]}))
    return events


def make_vassal(world: World, suzerain: str, vassal: str, events: list[Event]) -> None:
    """«В результате войны одна страна может стать вассалом другой. Это обнуляет все её
    дипломатические и торговые связи.»"""
    state = world.state
    v = state.countries[vassal]
    v.suzerain = suzerain
    v.vassal_land = state.land_of(vassal, world.grid)
    v.tribute_percent = 0
    v.war_permits = []
    for t in [t for t in state.treaties if vassal in t.parties and t.kind in ("pact", "alliance")]:
        state.treaties.remove(t)
    for d in [d for d in state.deals if vassal in (d.a, d.b)]:
        state.deals.remove(d)
    state.offers = [o for o in state.offers if vassal not in (o.by, o.to)]
    for sub in [c for c in state.countries.values() if c.suzerain == vassal]:
        sub.suzerain = suzerain
    events.append(Event("vassalised", {"suzerain": suzerain, "vassal": vassal}))


def free_vassal(world: World, vassal: str, events: list[Event], reason: str) -> None:
    v = world.state.countries[vassal]
    suzerain = v.suzerain
    v.suzerain = None
    v.tribute_percent = 0
    v.war_permits = []
    v.vassal_land = []
    events.append(Event("vassal_freed", {"vassal": vassal, "suzerain": suzerain, "reason": reason}))


def wars_due(world: World) -> list[War]:
    """Wars whose last turn of fighting is this one («по прошествии некоторого количества ходов»)."""
    return [w for w in world.state.wars if w.last_turn is not None and w.last_turn <= world.state.turn
            and w.linked_to is None]
