"""Building New Worlds positions for tests, on the cases' map (tests/cases/new-worlds/map.toml):
exactly the land, cities, buildings, deposits, points, wars and treaties a case gives, and
nothing else."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.new_worlds import NewWorlds
from voevoda.rulesets.new_worlds.state import (
    Country,
    Deal,
    EventsState,
    Reform,
    Roll,
    Treaty,
    War,
    dump_state,
    load_state,
)

CASES_DIR = Path(__file__).resolve().parents[2] / "cases" / "new-worlds"
MAP = tomllib.loads((CASES_DIR / "map.toml").read_text(encoding="utf-8"))


def tiles_of(spec: str | Sequence[str]) -> list[str]:
    return spec.split() if isinstance(spec, str) else list(spec)


def make_game(players: Sequence[str] = ("A", "B"), *, config: Mapping[str, Any] | None = None,
              house_rules: Mapping[str, Any] | None = None, epoch: str = "bronze", turn: int = 1,
              land: Mapping[str, Any] | None = None, cities: Mapping[str, int] | None = None,
              buildings: Mapping[str, str] | None = None, deposits: Mapping[str, str] | None = None,
              slaves: Mapping[str, int] | None = None, points: Mapping[str, int] | None = None,
              war_points: Mapping[str, int] | None = None, religion: Mapping[str, str] | None = None,
              upgraded: Sequence[str] = (), research: Mapping[str, Mapping[str, int]] | None = None,
              rolls: Mapping[str, int] | None = None, wars: Sequence[Mapping[str, Any]] = (),
              treaties: Sequence[Mapping[str, Any]] = (), deals: Sequence[Mapping[str, Any]] = (),
              vassals: Mapping[str, str] | None = None, open_regions: Sequence[str] | None = None,
              taken_from: Mapping[str, str] | None = None, invaders: Mapping[str, Any] | None = None,
              old_believers: Mapping[str, Any] | None = None, events: Mapping[str, Any] | None = None,
              country_fields: Mapping[str, Mapping[str, Any]] | None = None,
              extra: Mapping[str, Any] | None = None) -> tuple[NewWorlds, dict[str, Any]]:
    """A game on the cases' map with exactly the given position. ``land``: player -> tiles
    ("B2 C2" or a list); ``buildings``: tile -> port | university | factory:KIND; ``wars``:
    {attacker, defender, type, defender_type, started, last_turn, captured, defender_captured,
    targets}; ``treaties``: {kind,
    parties, until}; ``deals``: {a, b, a_gives, b_gives, since}; ``vassals``: vassal ->
    suzerain."""
    cfg = {"map": MAP, **(config or {})}
    ruleset = NewWorlds(cfg, house_rules or {})
    raw = ruleset.setup(list(players), Dice.from_text("setup"))
    state = load_state(raw, ruleset.rules)
    state.epoch = epoch
    state.turn = turn
    state.epoch_since = 1
    state.tiles = {}
    state.deposits = dict(deposits or {})
    world_epoch = ruleset.rules.epoch(epoch)
    for p in players:
        c = state.countries[p]
        c.points = (points or {}).get(p, 100)
        c.war_points = (war_points or {}).get(p, world_epoch.war_points)
        chosen = (religion or {}).get(p, "polytheism")
        c.religion = None if chosen == "none" else chosen  # type: ignore[assignment]
        c.upgraded = p in upgraded
        c.research = dict((research or {}).get(p, {}))
        total = (rolls or {}).get(p, 20)
        c.roll = Roll(turn=turn, die=world_epoch.die, faces=[1, 2, 3, 4, 5], digits="12345", pattern="digit",
                      base=total, total=total)
        c.capital = None
    for cid, spec in (invaders or {}).items():
        if isinstance(spec, str):
            spec = {"tiles": spec}
        state.countries[cid] = Country(id=cid, name=cid, kind=spec.get("kind", "invader"),
                                       event=spec.get("event", "sea_peoples"), color="#555555",
                                       destroys_cities=spec.get("event", "sea_peoples") == "sea_peoples",
                                       origin=spec.get("origin"))
        for t in tiles_of(spec["tiles"]):
            state.tile(t).owner = cid
    for origin, spec in (old_believers or {}).items():
        cid = f"old-{origin}"
        state.countries[cid] = Country(id=cid, name=f"Староверы ({origin})", name_en=f"Old Believers ({origin})",
                                       kind="old_believers", color="#777777", origin=origin,
                                       religion=state.countries[origin].religion, event="agrarian_revolution")
        for t in tiles_of(spec):
            state.tile(t).owner = cid
        state.countries[origin].reform = Reform(status="civil_war", old_believers=cid, started=turn)
        state.wars.append(War(id=state.new_id(), attacker=cid, defender=origin, attacker_type="total",
                              defender_type="total", started=turn, last_turn=None, attacker_land=tiles_of(spec),
                              defender_land=[], captured={cid: [], origin: []}, civil=True))
    for p, spec in (land or {}).items():
        for t in tiles_of(spec):
            state.tile(t).owner = p
    for t, who in (taken_from or {}).items():
        state.tile(t).taken_from = who
    for t, level in (cities or {}).items():
        state.tile(t).city = level
    for t, kind in (buildings or {}).items():
        tile = state.tile(t)
        if kind.startswith("factory:"):
            tile.building, tile.factory = "factory", kind.split(":", 1)[1]  # type: ignore[assignment]
        else:
            tile.building = kind  # type: ignore[assignment]
    for t, n in (slaves or {}).items():
        state.tile(t).slaves = n
    for w in wars:
        attacker, defender = w["attacker"], w["defender"]
        state.wars.append(War(
            id=state.new_id(), attacker=attacker, defender=defender, attacker_type=w.get("type", "total"),
            defender_type=w.get("defender_type", "defensive"), attacker_paid=w.get("paid", 0),
            started=w.get("started", turn), last_turn=w.get("last_turn", turn + 2),
            attacker_land=tiles_of(w["attacker_land"]) if "attacker_land" in w else state.land_of(attacker, state.grid()),
            defender_land=tiles_of(w["defender_land"]) if "defender_land" in w else state.land_of(defender, state.grid()),
            captured={attacker: tiles_of(w.get("captured", "")), defender: tiles_of(w.get("defender_captured", ""))},
            **({"targets": {attacker: tiles_of(w["targets"])}} if "targets" in w else {})))
    for t in treaties:
        state.treaties.append(Treaty(kind=t["kind"], parties=sorted(t["parties"]), since=t.get("since", 1),
                                     until=t.get("until")))
    for d in deals:
        state.deals.append(Deal(id=state.new_id(), a=d["a"], b=d["b"], a_gives=d["a_gives"], b_gives=d["b_gives"],
                                since=d.get("since", 1)))
    for v, s in (vassals or {}).items():
        state.countries[v].suzerain = s
        state.countries[v].vassal_land = state.land_of(v, state.grid())
    if open_regions is not None:
        state.map.open_regions = list(open_regions)
    if events:
        merged = state.events.model_dump()
        for key, value in events.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key].update(value)
            else:
                merged[key] = value
        state.events = EventsState.model_validate(merged)
    for cid, fields in (country_fields or {}).items():
        state.countries[cid] = Country.model_validate({**state.countries[cid].model_dump(), **fields})
    raw = dump_state(state)
    for key, value in (extra or {}).items():
        raw[key] = value
    load_state(raw, ruleset.rules)
    return ruleset, raw


def play(ruleset: NewWorlds, state: dict[str, Any], posts: Mapping[str, str], seed: str = "turn",
         ) -> tuple[dict[str, Any], list[Event]]:
    """Parse, validate (failing on any problem) and resolve one turn."""
    orders: dict[str, list[Order]] = {}
    for p in ruleset.awaiting(state):
        text = posts.get(p, "")
        orders[p] = ruleset.parse(text, p, state)
        problems = ruleset.validate(state, p, orders[p])
        assert not problems, [x.both() for x in problems]
    result = ruleset.resolve(state, orders, Dice.from_text(f"{seed}/{state['turn']}"))
    return result.state, result.events


def problems_of(ruleset: NewWorlds, state: dict[str, Any], player: str, text: str) -> list[str]:
    """Every problem of a post, parse and rules, as Russian and English text."""
    from voevoda.core.errors import ParseError

    try:
        orders = ruleset.parse(text, player, state)
    except ParseError as exc:
        return [p.both() for p in exc.problems]
    return [p.both() for p in ruleset.validate(state, player, orders)]


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def owners(state: Mapping[str, Any]) -> dict[str, str]:
    return {t: v["owner"] for t, v in state["tiles"].items() if v.get("owner")}
