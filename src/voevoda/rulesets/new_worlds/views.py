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
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.rulesets.new_worlds.plan import free_land
from voevoda.rulesets.new_worlds.rules import Rules
from voevoda.rulesets.new_worlds.state import NWState
from voevoda.rulesets.new_worlds.world import World

CLOSED = "?"


def masked_terrain(world: World) -> list[str]:
    """The terrain rows with every tile of a closed region drawn as ``?``."""
    grid = world.grid
    rows = []
    for y, row in enumerate(world.state.map.terrain):
        chars = list(row)
        for x in range(len(chars)):
            if not world.tile_open(grid.tiles[y * grid.width + x]):
                chars[x] = CLOSED
        rows.append("".join(chars))
    return rows


def view(world: World, viewer: Viewer) -> dict[str, Any]:
    state = world.state
    if viewer == GM:
        out = state.model_dump(mode="json")
        out["viewer"] = GM
        out["visible_deposits"] = {t: r for t, r in state.deposits.items() if world.resource_visible(r)}
        out["kinds"] = {t: world.grid.kind(t) for t in world.grid.tiles}
        out["free_land"] = bool(free_land(world))
        return out
    me = state.countries.get(viewer) if viewer != PUBLIC else None
    open_tile = world.tile_open
    countries = {}
    for cid, c in state.countries.items():
        data = c.model_dump(mode="json")
        data.pop("gm_note", None)
        countries[cid] = data
    tiles = {t: v.model_dump(mode="json", exclude_defaults=True) for t, v in state.tiles.items() if open_tile(t)}
    deposits = {t: r for t, r in state.deposits.items() if open_tile(t) and world.resource_visible(r)}
    offers = [o.model_dump(mode="json") for o in state.offers
              if me is not None and me.id in (o.by, o.to)]
    map_view = state.map.model_dump(mode="json")
    map_view["terrain"] = masked_terrain(world)
    map_view["regions_info"] = {rid: info for rid, info in state.map.regions_info.items()
                                if rid in state.map.open_regions}
    if map_view.get("regions"):
        map_view["regions"] = None
    if map_view.get("continents"):
        grid = world.grid
        map_view["continents"] = ["".join(ch if open_tile(grid.tiles[y * grid.width + x]) else "."
                                          for x, ch in enumerate(row))
                                  for y, row in enumerate(map_view["continents"])]
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
        "kinds": {t: world.grid.kind(t) for t in world.grid.tiles if open_tile(t)},
        "free_land": bool(free_land(world)),
    }


def hidden_markers(world: World, viewer: Viewer, rules: Rules) -> list[str]:
    """Strings that name what ``viewer`` may not see, as the view's JSON and the map would
    write them: a hidden deposit (``"C5": "spices"``, the map's ``data-resource``), a tile of
    a closed region on the map, an unfired event's text, another pair's proposal, a GM note."""
    if viewer == GM:
        return []
    state: NWState = world.state
    me = state.countries.get(viewer) if viewer != PUBLIC else None
    markers: list[str] = []
    for tile, res in state.deposits.items():
        if not world.tile_open(tile) or not world.resource_visible(res):
            markers.append(f'"{tile}": "{res}"')
            markers.append(f'data-tile="{tile}" data-resource="{res}"')
    for tile in world.grid.tiles:
        if not world.tile_open(tile):
            markers.append(f'data-tile="{tile}" data-terrain="{world.grid.kind(tile)}"')
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
