"""What each viewer may see: the only way a New Worlds state leaves the engine.

New Worlds is played in an open forum thread: every country's roll, points, war points,
buildings, wars, treaties and deals are public (the game master publishes the ledger). Four
things are the game master's alone (docs/engine.md, docs/new_worlds.md «Who sees what»):

* the closed parts of the map («ожидайте открытия новых частей карты»): their terrain,
  owners, names and deposits;
* deposits of resources whose epoch has not come («Новые типы ресурсов появляются на карте по
  мере смены эпох»);
* the game master's scheduled events, and his notes on countries;
* proposals between two countries (pacts, alliances, deals, peace) not yet answered: only
  the two parties see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.rulesets.new_worlds.mapdata import Grid, closed_tiles, tile_name
from voevoda.rulesets.new_worlds.plan import free_land
from voevoda.rulesets.new_worlds.rules import Rules
from voevoda.rulesets.new_worlds.state import NWState
from voevoda.rulesets.new_worlds.world import World

CLOSED = "?"


def masked_terrain(world: World) -> list[str]:
    """The terrain rows with every tile of a closed region drawn as ``?``."""
    return list(_open_map(world)["terrain"])


_OPEN_MAPS: dict[tuple[int, tuple[str, ...]], tuple[Grid, dict[str, Any]]] = {}


def _open_map(world: World) -> dict[str, Any]:
    """What the players see of the map itself (terrain, continents, regions), which changes only
    when a region opens: worked out once per map and set of open regions."""
    state = world.state
    grid = world.grid
    key = (id(grid), tuple(sorted(state.map.open_regions)))
    found = _OPEN_MAPS.get(key)
    if found is not None and found[0] is grid:
        return found[1]
    closed = closed_tiles(state.map.regions, state.map.open_regions)
    rows = []
    for y, row in enumerate(state.map.terrain):
        rows.append("".join(CLOSED if grid.tiles[y * grid.width + x] in closed else ch for x, ch in enumerate(row)))
    continents = None
    if state.map.continents:
        continents = ["".join("." if grid.tiles[y * grid.width + x] in closed else ch for x, ch in enumerate(row))
                      for y, row in enumerate(state.map.continents)]
    parts = {"terrain": tuple(rows), "continents": tuple(continents) if continents else None, "closed": closed}
    if len(_OPEN_MAPS) > 32:
        _OPEN_MAPS.clear()
    _OPEN_MAPS[key] = (grid, parts)
    return parts


@lru_cache(maxsize=64)
def _kinds(terrain: tuple[str, ...], closed: frozenset[str]) -> dict[str, str]:
    kinds: dict[str, str] = {}
    height, width = len(terrain), len(terrain[0]) if terrain else 0
    for y, row in enumerate(terrain):
        for x, ch in enumerate(row):
            if ch == "~":
                near = (terrain[yy][xx] for yy in range(max(0, y - 1), min(height, y + 2))
                        for xx in range(max(0, x - 1), min(width, x + 2)) if tile_name(xx, yy) not in closed)
                kind = "sea" if any(n in ".^" for n in near) else "ocean"
            else:
                kind = VIEW_KINDS[ch]
            kinds[tile_name(x, y)] = kind
    return kinds


VIEW_KINDS = {".": "land", "^": "mountain", "=": "ocean", CLOSED: "closed"}


def kinds_of(view: Mapping[str, Any]) -> Mapping[str, str]:
    """Each tile's kind as the viewer sees the map (land, mountain, sea, ocean, closed), from
    the view's terrain: a water tile is a coastal sea where it touches open land (R40; the game
    master's view shows the closed land, which makes no coast either)."""
    m = view["map"]
    closed = closed_tiles(m.get("regions"), m.get("open_regions", [])) if m.get("regions") else frozenset()
    return _kinds(tuple(m["terrain"]), closed)


def view(world: World, viewer: Viewer) -> dict[str, Any]:
    state = world.state
    if viewer == GM:
        out = state.model_dump(mode="json")
        out["viewer"] = GM
        out["visible_deposits"] = {t: r for t, r in state.deposits.items() if world.resource_visible(r)}
        out["free_land"] = bool(free_land(world))
        return out
    me = state.countries.get(viewer) if viewer != PUBLIC else None
    parts = _open_map(world)
    closed = parts["closed"]
    countries = {}
    for cid, c in state.countries.items():
        data = c.model_dump(mode="json")
        data.pop("gm_note", None)
        countries[cid] = data
    tiles = {t: v.model_dump(mode="json", exclude_defaults=True) for t, v in state.tiles.items() if t not in closed}
    visible = {r: world.resource_visible(r) for r in set(state.deposits.values())}
    deposits = {t: r for t, r in state.deposits.items() if t not in closed and visible[r]}
    offers = [o.model_dump(mode="json") for o in state.offers
              if me is not None and me.id in (o.by, o.to)]
    map_view = state.map.model_dump(mode="json")
    map_view["terrain"] = list(parts["terrain"])
    map_view["regions_info"] = {rid: info for rid, info in state.map.regions_info.items()
                                if rid in state.map.open_regions}
    if map_view.get("regions"):
        map_view["regions"] = None
    if parts["continents"] is not None:
        map_view["continents"] = list(parts["continents"])
    map_view["event_places"] = {}
    evs = state.events
    return {
        "ruleset": state.ruleset,
        "viewer": viewer,
        "you": viewer if me is not None else None,
        "turn": state.turn,
        "phase": state.phase,
        "epoch": state.epoch,
        "epoch_since": state.epoch_since,
        "seats": list(state.seats),
        "map": map_view,
        "tiles": tiles,
        "deposits": deposits,
        "countries": countries,
        "wars": [w.model_dump(mode="json") for w in state.wars],
        "treaties": [t.model_dump(mode="json") for t in state.treaties],
        "deals": [d.model_dump(mode="json") for d in state.deals],
        "offers": offers,
        "events": {
            "sea_peoples": evs.sea_peoples.model_dump(mode="json", exclude={"starts"}),
            "khaganate": evs.khaganate.model_dump(mode="json", exclude={"starts"}),
            "agrarian_revolution": evs.agrarian_revolution.model_dump(mode="json", exclude={"starts"}),
            "fired": list(evs.fired),
        },
        "outcome": state.outcome.model_dump(mode="json") if state.outcome else None,
        "free_land": bool(free_land(world)),
    }


def hidden_markers(world: World, viewer: Viewer, rules: Rules) -> list[str]:
    """Strings that name what ``viewer`` may not see, as the view's JSON and the map would
    write them: a hidden deposit (``"C5": "spices"``, the map's ``data-resource``), a row of the
    terrain with its closed land unmasked, an unfired event's text, another pair's proposal, a GM
    note. (The map draws terrain in runs; that it shows nothing of a closed region is proved by
    the non-interference test, which varies that region.)"""
    if viewer == GM:
        return []
    state: NWState = world.state
    me = state.countries.get(viewer) if viewer != PUBLIC else None
    markers: list[str] = []
    for tile, res in state.deposits.items():
        if not world.tile_open(tile) or not world.resource_visible(res):
            markers.append(f'"{tile}": "{res}"')
            markers.append(f'data-tile="{tile}" data-resource="{res}"')
    masked = _open_map(world)["terrain"]
    for real, shown in zip(state.map.terrain, masked, strict=True):
        if real != shown:
            # a row of the map as the view's JSON would write it with the closed land unmasked
            markers.append(f'"{real}"')
    for sched in state.events.scheduled:
        for key in ("message_ru", "message_en"):
            text = str(sched.event.get(key) or "")
            if len(text) >= 12:
                markers.append(text)
    for o in state.offers:
        if me is None or me.id not in (o.by, o.to):
            markers.append(f'"kind": "{o.kind}", "by": "{o.by}", "to": "{o.to}"')
    for c in state.countries.values():
        if len(c.gm_note) >= 8:
            markers.append(c.gm_note)
    return sorted(set(markers))


def country_names(view: Mapping[str, Any], lang: str) -> dict[str, str]:
    out = {}
    for cid, c in view["countries"].items():
        out[cid] = c.get("name_en") if lang != "ru" and c.get("name_en") else c["name"]
    return out
