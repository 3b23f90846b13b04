"""Building Ring of Power positions for tests, and reading them back compactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.ring_of_power import RingOfPower


def make_game(players: Sequence[str] = ("A", "B"), *, config: Mapping[str, Any] | None = None,
              house_rules: Mapping[str, Any] | None = None, holdings: Mapping[str, Any] | None = None,
              units: Sequence[Sequence[Any]] = (), money: Mapping[str, int] | None = None,
              fog: Sequence[str] | None = None, chupacabras: Sequence[str] = (),
              hostile: Mapping[str, Sequence[str]] | None = None, offer: Mapping[str, Any] | None = None,
              depletion: Mapping[str, int] | None = None, tax_due: Mapping[str, int] | None = None,
              turn: int = 1, camps: Mapping[str, Mapping[str, int]] | None = None,
              ) -> tuple[RingOfPower, dict[str, Any]]:
    """A game with exactly the given holdings, units ([owner, type, hex] or [owner, type,
    hex, {extra fields}]), money and fog, and nothing else on the board. Units count as
    having arrived this turn unless ``camps`` says since when they stand there."""
    ruleset = RingOfPower(config or {}, house_rules or {})
    state = ruleset.setup(list(players), Dice.from_text("setup"))
    state["turn"] = turn
    state["holdings"] = {}
    for h, spec in sorted((holdings or {}).items()):
        owner_, since = (spec, 0) if isinstance(spec, str) else (spec[0], spec[1])
        state["holdings"][h] = {"owner": owner_, "since": since}
    state["units"] = []
    state["next_unit"] = 1
    state["camps"] = {}
    for spec in units:
        owner, kind, hex_ = spec[0], spec[1], spec[2]
        unit = {"id": state["next_unit"], "owner": owner, "type": kind, "hex": hex_, "upgrade_at": None,
                "upkeep": None}
        if len(spec) > 3:
            unit.update(spec[3])
        state["units"].append(unit)
        state["next_unit"] += 1
        state["camps"].setdefault(hex_, {})[owner] = turn  # as if they had just arrived
    if camps:
        for h, v in camps.items():
            state["camps"].setdefault(h, {}).update(v)
    for p in players:
        state["players"][p]["money"] = (money or {}).get(p, 100)
        state["players"][p]["hostile"] = sorted((hostile or {}).get(p, []))
        state["players"][p]["tax_due"] = (tax_due or {}).get(p, 0)
    state["map"]["fog"] = sorted(fog or [])
    state["chupacabras"] = [{"id": i + 1, "hex": h, "eaten": 0, "reborn_at": None, "died_in": None}
                            for i, h in enumerate(chupacabras)]
    state["next_chupacabra"] = len(chupacabras) + 1
    state["offer"] = dict(offer) if offer else None
    state["depletion"] = dict(depletion or {})
    return ruleset, state


def play(ruleset: RingOfPower, state: dict[str, Any], posts: Mapping[str, str], seed: str = "turn",
         refused: Mapping[str, Sequence[int]] | None = None) -> tuple[dict[str, Any], list[Event]]:
    """Parse, validate and resolve one turn. Every problem fails, except that a player's
    lines listed in ``refused`` must be exactly the lines the order check refuses (the
    resolution then drops them, as it does at a forced deadline)."""
    orders: dict[str, list[Order]] = {}
    for p in state["seats"]:
        if not state["players"][p]["alive"]:
            continue
        text = posts.get(p, "")
        orders[p] = ruleset.parse(text, p, state)
        problems = ruleset.validate(state, p, orders[p])
        expected = sorted((refused or {}).get(p, []))
        assert sorted({x.line for x in problems if x.line is not None}) == expected, [x.both() for x in problems]
        assert all(x.line is not None for x in problems), [x.both() for x in problems]
    result = ruleset.resolve(state, orders, Dice.from_text(f"{seed}/{state['turn']}"))
    return result.state, result.events


def placement(state: Mapping[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    """hex -> player -> unit type -> count."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for u in state["units"]:
        kinds = table.setdefault(u["hex"], {}).setdefault(u["owner"], {})
        kinds[u["type"]] = kinds.get(u["type"], 0) + 1
    return table


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]
