"""«Эвенты и смена Веков»: the conditions that open an epoch, the Sea Peoples, the Great
Khaganate, the Agrarian Revolution with its reformation civil wars, the game master's own
events, and the end of the game.

Every random draw here goes through the dice under the labels of docs/dice.md: where the
invaders land (``event/sea_peoples``, ``event/khaganate``), who reforms
(``event/agrarian/<turn>``), the old believers' share (``reformation/<country>``, the game
master's 5d4) and where their lands lie (``reformation/<country>/seed``).
"""

from __future__ import annotations

from typing import Any

from voevoda.core.dice import CITED, Dice
from voevoda.core.ruleset import Event
from voevoda.rulesets.new_worlds import war as war_module
from voevoda.rulesets.new_worlds.plan import free_land
from voevoda.rulesets.new_worlds.rules import CustomEvent
from voevoda.rulesets.new_worlds.state import Country, Reform, War
from voevoda.rulesets.new_worlds.world import World

SEA_PEOPLES = "sea_peoples"
KHAGAN = "khaganate"


# -- epochs ------------------------------------------------------------------------------------------

def next_epoch(world: World) -> str | None:
    ids = world.rules.epoch_ids
    i = ids.index(world.state.epoch)
    return ids[i + 1] if i + 1 < len(ids) else None


def check_conditions(world: World) -> list[Event]:
    """«Для начала Железного века, как минимум одному игроку необходимо выполнить все
    условия» (and the same for the Renaissance): cities, territories, resources, vassals."""
    nxt = next_epoch(world)
    if nxt is None:
        return []
    cond = world.rules.epoch(nxt).opens_when
    if cond is None:
        return []
    state = world.state
    for c in sorted(state.players(), key=lambda c: c.id):
        if not c.alive:
            continue
        have = {r for r in (u.resource for u in world.holdings(c.id).units if u.tile is not None)}
        if (world.cities(c.id) >= cond.cities and world.territories(c.id) >= cond.territories
                and all(r in have for r in cond.resources) and len(state.vassals_of(c.id)) >= cond.vassals):
            return advance(world, nxt, by=c.id)
    return []


def advance(world: World, epoch_id: str, by: str | None = None) -> list[Event]:
    """A new epoch from the next turn: its war points («Военные очки не накапливаются»), its
    resources, its regions; slaves gone in the Renaissance; the events it brings scheduled."""
    state = world.state
    state.epoch = epoch_id
    state.epoch_since = state.turn + 1
    epoch = world.rules.epoch(epoch_id)
    events: list[Event] = [Event("epoch", {"epoch": epoch_id, "from_turn": state.turn + 1, "by": by})]
    for c in state.countries.values():
        c.war_points = epoch.war_points + war_points_bonus(world, c)
    if not epoch.slaves:
        freed = [t for t, v in state.tiles.items() if v.slaves]
        for t in freed:
            state.tiles[t].slaves = 0
        if freed:
            events.append(Event("slaves_freed", {"tiles": sorted(freed)}))
    for rid, info in state.map.regions_info.items():
        if info.get("opens_at") == epoch_id and rid not in state.map.open_regions:
            state.map.open_regions.append(rid)
            events.append(Event("region_opened", {"region": rid, "name_ru": info.get("name_ru", rid),
                                                  "name_en": info.get("name_en", rid)}))
    ev = world.rules.events
    evs = state.events
    if ev.sea_peoples.after_epoch == epoch_id and evs.sea_peoples.status == "waiting":
        evs.sea_peoples.starts = state.turn + 1 + ev.sea_peoples.delay
    if ev.khaganate.after_epoch == epoch_id and evs.khaganate.status == "waiting":
        evs.khaganate.starts = state.turn + 1 + ev.khaganate.delay
    if ev.agrarian_revolution.after_epoch == epoch_id and evs.agrarian_revolution.status == "waiting":
        evs.agrarian_revolution.starts = state.turn + 1 + ev.agrarian_revolution.delay
    for sched in state.events.scheduled:
        after = sched.event.get("after_epoch")
        if after == epoch_id and sched.due is None:
            sched.due = state.turn + 1 + int(sched.event.get("delay", 0))
    return events


def war_points_bonus(world: World, country: Country) -> int:
    form = world.religion_form(country)
    return form.war_points_per_epoch if form is not None else 0


# -- event countries ----------------------------------------------------------------------------------

def _spawn(world: World, cid: str, name_ru: str, name_en: str, kind: str, event: str, color: str,
           tiles: list[str], **extra: Any) -> tuple[Country, list[Event]]:
    """An event country on ``tiles``: it takes them whoever held them (cities there are lost)."""
    state = world.state
    country = Country(id=cid, name=name_ru, name_en=name_en, kind=kind, color=color, event=event,  # type: ignore[arg-type]
                      created=state.turn + 1, points=0, war_points=world.epoch.war_points, **extra)
    state.countries[cid] = country
    events: list[Event] = []
    lost: dict[str, list[str]] = {}
    for t in tiles:
        tile = state.tile(t)
        if tile.owner is not None and tile.owner != cid:
            lost.setdefault(tile.owner, []).append(t)
            tile.taken_from = tile.owner
            if tile.city is not None:
                tile.city = None
            tile.building = None
            tile.factory = None
        tile.owner = cid
    country.capital = tiles[0] if tiles else None
    events.append(Event("event_country", {"country": cid, "name_ru": name_ru, "name_en": name_en, "event": event,
                                          "tiles": tiles, "lost": lost}))
    return country, events


def _place(world: World, dice: Dice, label: str, wanted: list[str], size: int,
           near_players: bool) -> list[str]:
    """The map's tiles for an event, or tiles drawn by the dice: a coastal start on the
    continent with most players' land (``near_players``), or free land farthest from them."""
    grid = world.grid
    state = world.state
    if wanted:
        return [t for t in wanted if grid.contains(t) and grid.is_land(t)]
    stream = dice.stream(label)
    player_land = [t for t, v in state.tiles.items() if v.owner and state.countries[v.owner].kind == "player"
                   and grid.is_land(t)]
    open_land = {t for t in grid.tiles if grid.is_land(t) and world.tile_open(t)}
    if near_players and player_land:
        counts: dict[str, int] = {}
        for t in player_land:
            cont = grid.continent(t)
            if cont is not None:
                counts[cont] = counts.get(cont, 0) + 1
        cont = min(counts, key=lambda c: (-counts[c], c))
        coast = [t for t in grid.tiles if grid.continent(t) == cont and grid.is_coast(t) and t in open_land]
        free = [t for t in coast if state.owner(t) is None] or coast
        seed = free[stream.roll(len(free)) - 1]
        return grid.grow(seed, size, {t for t in open_land if grid.continent(t) == cont})
    free_tiles = free_land(world) or open_land
    ranked = sorted(free_tiles, key=lambda t: (-(grid.distance_to_set(t, player_land) or 0), grid.index(t)))
    best = ranked[: max(1, len(ranked) // 20)]
    seed = best[stream.roll(len(best)) - 1]
    return grid.grow(seed, size, free_tiles)


def _cite_placement(events: list[Event], dice: Dice, label: str) -> None:
    """The ``event_country`` event of a landing whose place the dice drew quotes that draw (the
    seed tile's index among the candidates, docs/dice.md new-worlds table) and cites it."""
    stream = dice.existing(label)
    if stream is None or not stream.faces:
        return
    for index, event in enumerate(events):
        if event.kind == "event_country":
            events[index] = Event(event.kind, {**event.data, "place_faces": list(stream.faces),
                                               CITED: [stream.cite("/place_faces")]}, event.audience)


def players_count(world: World) -> int:
    return len([c for c in world.state.players() if c.alive])


def sea_peoples(world: World, dice: Dice) -> list[Event]:
    """«Эвент: Нападение Морских Народов»: they land, fight with «+20 * P на первый ход, далее
    +15 * P пока их не выбьют с континента», and «При полном захвате территорий Морских
    Народов на континенте, начинается век Античности.»"""
    state = world.state
    sp = state.events.sea_peoples
    spec = world.rules.events.sea_peoples
    events: list[Event] = []
    if sp.status == "waiting" and sp.starts is not None and state.turn + 1 >= sp.starts:
        tiles = _place(world, dice, "event/sea_peoples", list(state.map.event_places.get("sea_peoples", [])),
                       spec.tiles, near_players=True)
        if not tiles:
            return events
        country, spawned = _spawn(world, SEA_PEOPLES, spec.name_ru, spec.name_en, "invader", SEA_PEOPLES, spec.color,
                                  tiles, destroys_cities=spec.destroys_cities)
        _cite_placement(spawned, dice, "event/sea_peoples")
        sp.status = "active"
        sp.country = SEA_PEOPLES
        sp.continent = world.grid.continent(tiles[0])
        sp.first_turn = state.turn + 1
        events.extend(spawned)
        return events
    if sp.status == "active" and sp.country in state.countries:
        country = state.countries[sp.country]
        on_continent = [t for t in world.land_set(country.id) if world.grid.continent(t) == sp.continent]
        if not on_continent:
            sp.status = "over"
            _dissolve(world, country, events)
            events.append(Event("event_over", {"event": SEA_PEOPLES, "result": "expelled"}))
            events.extend(_epoch_by_event(world, SEA_PEOPLES))
    return events


def khaganate(world: World, dice: Dice) -> list[Event]:
    """«Эвент: Великий Каганат»: the Khagan (+36, less 4 a city) and his three tributaries;
    a player «захвачен» must choose tribute or ruin; «Для того чтобы победить Кагана, нужно
    захватить все территории, подконтрольные лично Кагану и его трем изначальным данникам.»"""
    state = world.state
    kh = state.events.khaganate
    spec = world.rules.events.khaganate
    events: list[Event] = []
    if kh.status == "waiting" and kh.starts is not None and state.turn + 1 >= kh.starts:
        places = state.map.event_places
        tiles = _place(world, dice, "event/khaganate", list(places.get("khaganate", [])), spec.tiles, near_players=False)
        if not tiles:
            return events
        _, spawned = _spawn(world, KHAGAN, spec.name_ru, spec.name_en, "invader", KHAGAN, spec.color, tiles)
        _cite_placement(spawned, dice, "event/khaganate")
        events.extend(spawned)
        kh.status = "active"
        kh.khagan = KHAGAN
        groups = list(places.get("khaganate_tributaries", []))
        for i in range(spec.tributaries):
            cid = f"{KHAGAN}_{i + 1}"
            if i < len(groups):
                where = [t for t in groups[i] if world.grid.is_land(t)]
            else:
                near = {n for t in world.land_set(KHAGAN) for n in world.grid.neighbours(t)} & free_land(world)
                seed = world.grid.sort(near)[0] if near else None
                where = world.grid.grow(seed, spec.tributary_tiles, free_land(world)) if seed else []
            if not where:
                continue
            name_ru = spec.tributary_names_ru[i] if i < len(spec.tributary_names_ru) else f"Данник {i + 1}"
            name_en = spec.tributary_names_en[i] if i < len(spec.tributary_names_en) else f"Tributary {i + 1}"
            # «оттенок Каганата»: each first tributary in a shade of its own, told apart on the map
            color = spec.tributary_colors[i] if i < len(spec.tributary_colors) else spec.color
            _, spawned = _spawn(world, cid, name_ru, name_en, "tributary", KHAGAN, color, where, origin=KHAGAN)
            events.extend(spawned)
            kh.tributaries.append(cid)
        kh.base = {c.id: world.territories(c.id) for c in state.players() if c.alive}
        return events
    if kh.status != "active":
        return events
    for c in sorted(state.players(), key=lambda c: c.id):
        if not c.alive or c.khagan_tributary or c.choice is not None:
            continue
        base = kh.base.get(c.id, 0)
        taken = kh.taken.get(c.id, 0)
        if base and taken * 100 > spec.capture_percent * base:
            c.choice = "khagan"
            events.append(Event("khagan_choice", {"country": c.id, "taken": taken, "base": base}))
    group = [kh.khagan, *kh.tributaries]
    if all(not world.land_set(g) for g in group if g is not None and g in state.countries):
        kh.status = "over"
        for g in group:
            if g is not None and g in state.countries:
                _dissolve(world, state.countries[g], events)
        for c in state.players():
            if c.khagan_tributary:
                c.khagan_tributary = False
                if c.own_color:
                    c.color, c.own_color = c.own_color, None
                events.append(Event("tributary_freed", {"country": c.id}))
        events.append(Event("event_over", {"event": KHAGAN, "result": "defeated"}))
        events.extend(_epoch_by_event(world, KHAGAN))
    return events


def khagan_choice(world: World, c: Country, choice: str) -> list[Event]:
    """«стать данником Каганата, или же его цивилизация будет уничтожена»: a tributary takes
    the Khaganate's shade and gives it its roll; a refusal loses every city and all land to
    the Khagan, and the player may start a new civilisation."""
    state = world.state
    c.choice = None
    khagan = state.events.khaganate.khagan
    if choice == "tributary" or khagan is None or khagan not in state.countries:
        c.khagan_tributary = True
        c.own_color = c.color
        c.color = _shade(world.rules.events.khaganate.color, c.color)
        return [Event("tributary", {"country": c.id})]
    tiles = state.all_of(c.id)
    for t in tiles:
        tile = state.tiles[t]
        tile.city = None
        tile.building = None
        tile.factory = None
        tile.taken_from = c.id
        tile.owner = khagan if world.grid.is_land(t) else None
    events = [Event("destroyed", {"country": c.id, "tiles": sorted(tiles), "by": khagan})]
    eliminate(world, c, events, may_restart=True)
    return events


def _shade(base: str, own: str) -> str:
    """Half way between the Khaganate's colour and the player's."""
    a = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(own[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{(x * 2 + y) // 3:02x}" for x, y in zip(a, b, strict=True))


def agrarian(world: World, dice: Dice) -> list[Event]:
    """«Не раньше, чем через 5 ходов с начала Ренессанса сначала один случайный игрок проходит
    реформацию, на следующем ходу реформация наступает у трёх случайных игроков и т.д. Когда
    более половины игроков завершат эвент, начинается новый век - Эпоха Индустриализации.»"""
    state = world.state
    ag = state.events.agrarian_revolution
    spec = world.rules.events.agrarian_revolution
    events: list[Event] = []
    if ag.status == "waiting" and ag.starts is not None and state.turn + 1 >= ag.starts:
        ag.status = "active"
        ag.wave = 0
    if ag.status != "active":
        return events
    eligible = sorted(c.id for c in state.players() if c.alive and c.reform is None)
    if eligible:
        if world.options.reformation_waves == "triple":
            size = spec.first_wave * 3 ** ag.wave
        else:
            size = spec.first_wave + spec.wave_step * ag.wave
        stream = dice.stream(f"event/agrarian/{state.turn}")
        chosen = stream.shuffle(list(eligible))[:size]
        ag.wave += 1
        # the shuffle's faces quoted and cited: with the eligible players, anyone redoes the draw
        events.append(Event("reformation_wave", {"wave": ag.wave, "countries": sorted(str(c) for c in chosen),
                                                 "eligible": eligible, "faces": list(stream.faces),
                                                 CITED: [stream.cite("/faces")]}))
        for cid in sorted(str(c) for c in chosen):
            ag.reformed.append(cid)
            events.extend(start_reformation(world, state.countries[cid], dice))
    done = [c for c in state.players() if c.reform is not None and c.reform.status == "done"]
    living = [c for c in state.players() if c.alive]
    if living and len(done) * 2 > len(living):
        ag.status = "over"
        events.append(Event("event_over", {"event": "agrarian_revolution", "result": "done"}))
        events.extend(_epoch_by_event(world, "agrarian_revolution"))
    return events


def old_believers_share(world: World, faces: list[int]) -> int:
    """5d4 as a percentage (ruling R17): the sum (5–20%), or the last two dice as a
    two-digit number (11–44%)."""
    if world.options.old_believers_share == "last_two":
        return faces[-2] * 10 + faces[-1]
    return sum(faces)


def start_reformation(world: World, c: Country, dice: Dice) -> list[Event]:
    """«Реформация приводит к гражданской войне. Староверы получают случайный процент
    территорий страны, выясняемый роллом ##5d4##. За староверов роллит ГМ. Обе стороны
    находятся в перманентной Тотальной войне.»"""
    state = world.state
    grid = world.grid
    spec = world.rules.events.agrarian_revolution
    land = state.land_of(c.id, grid)
    stream = dice.stream(f"reformation/{c.id}")
    faces = stream.rolls(spec.share_dice, spec.share_die)
    cite = [stream.cite("/faces", 0, len(faces))]
    share = old_believers_share(world, faces)
    c.reform = Reform(status="civil_war", started=state.turn + 1, choice=c.reform.choice if c.reform else None)
    if len(land) < 2:
        events = [Event("reformation", {"country": c.id, "faces": faces, "share": share, "tiles": [],
                                        "old_believers": None, CITED: cite})]
        events.extend(finish_reformation(world, c, "reformed"))
        return events
    count = min(len(land) - 1, max(1, round(len(land) * share / 100)))
    capital = world.capital(c.id)
    candidates = [t for t in land if t != capital] or land
    seed_stream = dice.stream(f"reformation/{c.id}/seed")
    seed = candidates[seed_stream.roll(len(candidates)) - 1]
    cite.append(seed_stream.cite("/seed_faces"))
    allowed = {t for t in land if t != capital}
    tiles = grid.grow(seed, count, allowed)
    ob_id = f"old-{c.id}"
    n = 2
    while ob_id in state.countries:
        ob_id = f"old-{c.id}-{n}"
        n += 1
    old = Country(id=ob_id, name=f"Староверы ({c.name})", name_en=f"Old Believers ({c.name})",
                  kind="old_believers", color=_shade("#7a7a7a", c.color), religion=c.religion,
                  upgraded=c.upgraded, origin=c.id, event="agrarian_revolution", created=state.turn + 1,
                  war_points=world.epoch.war_points)
    state.countries[ob_id] = old
    for t in tiles:
        tile = state.tiles[t]
        tile.owner = ob_id
        tile.taken_from = c.id
    for t in state.all_of(c.id):
        if grid.is_dejure(t) and not any(state.owner(n) == c.id for n in grid.neighbours(t) if grid.is_land(n)):
            state.tiles[t].owner = ob_id if any(state.owner(n) == ob_id for n in grid.neighbours(t)) else c.id
    old.capital = tiles[0]
    c.reform.old_believers = ob_id
    state.wars.append(War(id=state.new_id(), attacker=ob_id, defender=c.id, attacker_type="total",
                          defender_type="total", started=state.turn + 1, last_turn=None,
                          attacker_land=list(tiles), defender_land=[t for t in land if t not in tiles],
                          captured={ob_id: [], c.id: []}, civil=True))
    return [Event("reformation", {"country": c.id, "faces": faces, "share": share, "tiles": tiles,
                                  "seed_faces": list(seed_stream.faces), "old_believers": ob_id, CITED: cite})]


def check_reformations(world: World) -> list[Event]:
    """«Реформация завершается только победой одной из сторон.»"""
    state = world.state
    events: list[Event] = []
    for c in sorted(state.players(), key=lambda c: c.id):
        if c.reform is None or c.reform.status != "civil_war" or c.reform.old_believers is None:
            continue
        old = state.countries.get(c.reform.old_believers)
        if old is None or not world.land_set(old.id):
            events.extend(finish_reformation(world, c, "reformed"))
        elif not world.land_set(c.id):
            events.extend(finish_reformation(world, c, "failed"))
    return events


def finish_reformation(world: World, c: Country, result: str) -> list[Event]:
    """The reformers win: the religion is upgraded, or changed (ruling R18); the old
    believers win: the country is theirs again, its faith unchanged."""
    state = world.state
    assert c.reform is not None
    events: list[Event] = []
    old_id = c.reform.old_believers
    if old_id is not None:
        for w in [w for w in state.wars if w.civil and {w.attacker, w.defender} == {old_id, c.id}]:
            state.wars.remove(w)
        old = state.countries.get(old_id)
        if old is not None:
            for t in state.all_of(old_id):
                state.tiles[t].owner = c.id
            old.alive = False
            old.points = 0
    c.reform.status = "done"
    c.reform.result = result  # type: ignore[assignment]
    if result == "reformed":
        choice = c.reform.choice or "upgrade"
        if choice in ("upgrade", c.religion):
            c.upgraded = True
        else:
            c.religion = choice  # type: ignore[assignment]
            c.upgraded = False
        c.war_points += war_points_bonus(world, c)
    c.alive = True
    events.append(Event("reformation_done", {"country": c.id, "result": result, "religion": c.religion,
                                             "upgraded": c.upgraded}))
    return events


def _dissolve(world: World, country: Country, events: list[Event]) -> None:
    for t in world.state.all_of(country.id):
        world.state.tiles[t].owner = None
    country.alive = False
    country.points = 0
    events.append(Event("eliminated", {"country": country.id}))


def _epoch_by_event(world: World, event: str) -> list[Event]:
    for e in world.rules.epochs:
        if e.opens_by_event == event and world.rules.epoch_index(e.id) > world.rules.epoch_index(world.state.epoch):
            return advance(world, e.id)
    return []


# -- the game master's events ---------------------------------------------------------------------

def gm_queue(world: World) -> list[Event]:
    """A new epoch the game master asked for (``voevoda nw gm GAME "эпоха iron"``)."""
    state = world.state
    events: list[Event] = []
    for entry in [q for q in state.events.queue if q.startswith("epoch:")]:
        state.events.queue.remove(entry)
        epoch = entry.split(":", 1)[1]
        if epoch in world.rules.epoch_ids and world.rules.epoch_index(epoch) > world.rules.epoch_index(state.epoch):
            events.extend(advance(world, epoch, by=None))
    return events


def custom_events(world: World) -> list[Event]:
    """Events the game master defined as data (``[[events.custom]]`` in the house rules, or
    added to ``/events/scheduled`` by an edit): fired on their turn, after their epoch, or when
    the game master queues them (``/events/queue``)."""
    state = world.state
    events: list[Event] = []
    for sched in list(state.events.scheduled):
        ev = CustomEvent.model_validate(sched.event)
        due = ev.turn if ev.turn is not None else sched.due
        fire = (due is not None and state.turn >= due) or (ev.manual and ev.id in state.events.queue)
        if not fire:
            continue
        state.events.scheduled.remove(sched)
        state.events.fired.append(ev.id)
        if ev.id in state.events.queue:
            state.events.queue.remove(ev.id)
        events.append(Event("custom_event", {"id": ev.id, "name_ru": ev.name_ru, "name_en": ev.name_en,
                                             "message_ru": ev.message_ru, "message_en": ev.message_en}))
        for eff in ev.effects:
            events.extend(_effect(world, ev, eff))
    state.events.queue = [q for q in state.events.queue if any(
        s.event.get("id") == q for s in state.events.scheduled)]
    return events


def _effect(world: World, ev: CustomEvent, eff: Any) -> list[Event]:
    state = world.state
    targets = [c for c in state.countries.values() if c.alive and (
        "*" in eff.countries and c.kind == "player" or c.id in eff.countries)]
    if eff.kind in ("points", "war_points"):
        for c in targets:
            if eff.kind == "points":
                c.points += eff.amount
            else:
                c.war_points = max(0, c.war_points + eff.amount)
        return [Event("event_effect", {"id": ev.id, "kind": eff.kind, "amount": eff.amount,
                                       "countries": sorted(c.id for c in targets)})]
    if eff.kind == "resource" and eff.tile and eff.resource and world.grid.contains(eff.tile):
        state.deposits[eff.tile] = eff.resource
        return [Event("event_effect", {"id": ev.id, "kind": "resource", "tile": eff.tile, "resource": eff.resource})]
    if eff.kind == "remove_resource" and eff.tile:
        state.deposits.pop(eff.tile, None)
        return [Event("event_effect", {"id": ev.id, "kind": "remove_resource", "tile": eff.tile})]
    if eff.kind == "open_region" and eff.region and eff.region not in state.map.open_regions:
        state.map.open_regions.append(eff.region)
        return [Event("region_opened", {"region": eff.region, "name_ru": eff.region, "name_en": eff.region})]
    if eff.kind == "epoch" and eff.epoch and world.rules.epoch_index(eff.epoch) > world.rules.epoch_index(state.epoch):
        return advance(world, eff.epoch)
    if eff.kind == "invader" and eff.id and eff.id not in state.countries:
        tiles = [t for t in eff.tiles if world.grid.contains(t) and world.grid.is_land(t)]
        country, spawned = _spawn(world, eff.id, eff.name_ru or ev.name_ru, eff.name_en or ev.name_en, "invader",
                                  f"custom:{ev.id}", eff.color, tiles, destroys_cities=eff.destroys_cities)
        country.bonus = eff.bonus + eff.bonus_per_player * players_count(world)
        return spawned
    if eff.kind == "message":
        return []
    return []


# -- the end ------------------------------------------------------------------------------------------

def eliminate(world: World, c: Country, events: list[Event], may_restart: bool = False) -> None:
    """A country without land: «на них нельзя выжить, не имея других наземных тайлов»."""
    state = world.state
    for t in state.all_of(c.id):
        state.tiles[t].owner = None
    for w in [w for w in state.wars if c.id in (w.attacker, w.defender)]:
        state.wars.remove(w)
    state.treaties = [t for t in state.treaties if c.id not in t.parties]
    state.deals = [d for d in state.deals if c.id not in (d.a, d.b)]
    state.offers = [o for o in state.offers if c.id not in (o.by, o.to)]
    for v in state.countries.values():
        if v.suzerain == c.id:
            v.suzerain = None
            v.vassal_land = []
    c.alive = False
    c.suzerain = None
    c.may_restart = c.may_restart or may_restart
    events.append(Event("eliminated", {"country": c.id}))


def eliminations(world: World) -> list[Event]:
    events: list[Event] = []
    for c in sorted(world.state.living(), key=lambda c: c.id):
        if not world.land_set(c.id) and not (c.reform is not None and c.reform.status == "civil_war"):
            eliminate(world, c, events)
    return events


def outcome(world: World) -> list[Event]:
    """«Победа эвентовых стран приводит к концу игры» (ruling R24); the last turn of the
    config's ``max_turns``."""
    from voevoda.rulesets.new_worlds.state import Outcome

    state = world.state
    players = [c for c in state.players()]
    independent = [c for c in players if c.alive and not c.khagan_tributary]
    invaders = [c for c in state.countries.values() if c.alive and c.kind == "invader"]
    if invaders and not independent:
        state.outcome = Outcome(reason="invaders", winners=[], scores={})
    elif not any(c.alive or (not c.recreated or c.may_restart) for c in players):
        state.outcome = Outcome(reason="no_countries", winners=[], scores={})
    elif world.options.max_turns is not None and state.turn >= world.options.max_turns:
        scores = {c.id: float(world.territories(c.id)) for c in players}
        best = max(scores.values(), default=0)
        state.outcome = Outcome(reason="turns", winners=sorted(p for p, s in scores.items() if s == best and s > 0),
                                scores=scores)
    if state.outcome is None:
        return []
    return [Event("game_over", state.outcome.model_dump())]


def war_end_checks(world: World) -> list[Event]:
    events: list[Event] = []
    for w in war_module.wars_due(world):
        if w in world.state.wars:
            events.extend(war_module.end_war(world, w, "duration"))
    return events
