"""Building Thrones positions for tests: a game set up for the given players, then exactly the
phase, round, sums in hand, alliances, board and orders a case gives; and stepping it with posts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.errors import OrdersRejected
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.thrones import Thrones
from voevoda.rulesets.thrones.turn import awaited

PLAYERS = ("Анна", "Борис", "Вера")
"""Анна plays Stark, Борис Lannister, Вера Baratheon (the second edition's seats)."""
EMPTY_UNITS = {"footman": 0, "knight": 0, "ship": 0, "siege": 0}


def area_id(ruleset: Thrones, name: str) -> str:
    """An area by its id or by any name a post may use."""
    if name in ruleset.board:
        return name
    from voevoda.rulesets.thrones.orders import tokens_of

    tokens = tokens_of(name)
    found = ruleset.lexicon({"houses": {}}).areas.match(tokens, 0)
    assert found is not None and found[1] == len(tokens), f"no area '{name}'"
    return found[0]


def make_game(given: Mapping[str, Any] | None = None) -> tuple[Thrones, dict[str, Any]]:
    """A game with the position ``given`` describes:

    players, config, house_rules   the game (holy lands off unless the config turns them on)
    turn, phase                    where the game stands
    power                          {player: tokens in hand}
    alliances                      [[player, player], ...] (and declarations to match)
    supply                         {player: track position}
    clear                          areas emptied of units, tokens and garrisons ("all" for all)
    board                          {area: {house, footman, knight, ship, siege, token, garrison}}
    orders                         {area: "house kind"} placed orders ("house kind raided": removed by a raid)
    passages                       [[by, to, area], ...]
    card, card_turn                the fourth card drawn (in force in the round it was drawn: card_turn,
                                   by default this one)
    tracks                         {track: [players]}
    holy                           {token: area}
    deals                          the deals list as the state holds it
    drawn                          the fourth deck's cards drawn since its last shuffle
    holy_winner                    {token: player}: a token won and not yet placed
    bidding                        the Clash of Kings track being bid for
    """
    given = dict(given or {})
    players = list(given.get("players", PLAYERS))
    config = {"holy_lands": False, **given.get("config", {})}
    ruleset = Thrones(config, given.get("house_rules") or {})
    state = ruleset.setup(players, Dice.from_text(str(given.get("seed", "setup"))))
    if "turn" in given:
        state["turn"] = int(given["turn"])
    if "phase" in given:
        state["phase"] = given["phase"]
    for p, n in given.get("power", {}).items():
        state["treasury"][p]["power"] = int(n)
        state["treasury"][p]["opening"] = int(n)
    if "alliances" in given:
        state["alliances"] = [sorted(a) for a in given["alliances"]]
        state["declared"] = {p: [] for p in players}
        for alliance in state["alliances"]:
            for p in alliance:
                state["declared"][p] = sorted(set(alliance) - {p})
    elif state["phase"] != "diplomacy" and state["turn"] > 1:
        state["declared"] = {p: [] for p in players}
    for p, n in given.get("supply", {}).items():
        state["supply"][p] = int(n)
    clear = given.get("clear", [])
    areas = list(state["board"]) if clear == "all" else [area_id(ruleset, a) for a in clear]
    for area in areas:
        state["board"][area] = {"house": None, "units": dict(EMPTY_UNITS), "token": None, "garrison": 0}
    for name, spec in given.get("board", {}).items():
        area = area_id(ruleset, name)
        info = state["board"][area]
        if "house" in spec:
            info["house"] = spec["house"]
        for kind in EMPTY_UNITS:
            if kind in spec:
                info["units"][kind] = int(spec[kind])
        if "token" in spec:
            info["token"] = spec["token"]
        if "garrison" in spec:
            info["garrison"] = int(spec["garrison"])
    for name, spec in given.get("orders", {}).items():
        house, kind, *rest = spec.split()
        state["orders"][area_id(ruleset, name)] = {"house": house, "kind": kind, "raided": rest == ["raided"]}
    for by, to, name in given.get("passages", []):
        state["passages"].append({"by": by, "to": to, "area": area_id(ruleset, name)})
    if "card" in given:
        state["card"] = {"id": given["card"], "turn": int(given.get("card_turn", state["turn"]))}
    for track, order in given.get("tracks", {}).items():
        state["tracks"][track] = list(order)
    for token, name in given.get("holy", {}).items():
        state["holy"][token] = {"area": area_id(ruleset, name), "winner": None, "faces": {}, "told": True}
    if "deals" in given:
        state["deals"] = [dict(d) for d in given["deals"]]
        state["next_deal"] = 1 + max((int(d["id"]) for d in state["deals"]), default=0)
    if "drawn" in given:
        state["deck"]["drawn"] = list(given["drawn"])
    for token, player in given.get("holy_winner", {}).items():
        state["holy"][token] = {"area": None, "winner": player, "faces": {}, "told": True}
    if "bidding" in given:
        state["bidding"] = dict(given["bidding"])
    problems = ruleset.check_state(state)
    assert not problems, [p.format("en") for p in problems]
    return ruleset, state


def read(ruleset: Thrones, state: Mapping[str, Any], player: str, text: str) -> list[Order]:
    """``text`` parsed and validated as ``player``'s post: every problem fails the test."""
    try:
        orders = ruleset.parse(text, player, dict(state))
    except OrdersRejected as exc:
        raise AssertionError(f"{player}'s post is not read: {[p.both() for p in exc.problems]}") from exc
    problems = ruleset.validate(dict(state), player, orders)
    assert not problems, f"{player}'s post is refused: {[p.both() for p in problems]}"
    return orders


def problems_of(ruleset: Thrones, state: Mapping[str, Any], player: str, text: str) -> list[str]:
    """Every problem of a post (reading and rules), Russian and English."""
    try:
        orders = ruleset.parse(text, player, dict(state))
    except OrdersRejected as exc:
        return [p.message_ru + " | " + p.message_en for p in exc.problems]
    return [p.message_ru + " | " + p.message_en for p in ruleset.validate(dict(state), player, orders)]


def step(ruleset: Thrones, state: dict[str, Any], posts: Mapping[str, str] | None = None,
         seed: str = "step") -> tuple[dict[str, Any], list[Event]]:
    """One resolution: every awaited house posts its text from ``posts`` or its default orders."""
    posts = posts or {}
    orders: dict[str, list[Order]] = {}
    for p in awaited(state, ruleset.ctx):
        orders[p] = read(ruleset, state, p, posts[p]) if p in posts else ruleset.default_orders(state, p)
    unknown = set(posts) - set(orders)
    assert not unknown, f"not awaited now: {unknown} (awaited: {list(orders)})"
    result = ruleset.resolve(state, orders, Dice.from_text(seed))
    problems = ruleset.check_state(result.state)
    assert not problems, [p.format("en") for p in problems]
    return result.state, result.events


def play(ruleset: Thrones, state: dict[str, Any], steps: Sequence[Mapping[str, str]],
         seed: str = "play") -> tuple[dict[str, Any], list[Event]]:
    events: list[Event] = []
    for i, posts in enumerate(steps):
        state, got = step(ruleset, state, posts, seed=f"{seed}/{i}")
        events.extend(got)
    return state, events


def units_at(state: Mapping[str, Any], area: str) -> dict[str, int]:
    return {k: int(v) for k, v in state["board"][area]["units"].items() if v}


def power(state: Mapping[str, Any], player: str) -> int:
    return int(state["treasury"][player]["power"])
