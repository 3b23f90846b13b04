"""Building Ring of Power positions for tests, and reading them back compactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import Dice, Stream
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.board import board


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


# A small crowded board for property tests: starts two hexes apart, little money, condottieri
# every other turn, so that players meet, fight, support, desert and lose land.
CROWDED_MAP = {
    "name": "crowded",
    "width": 8,
    "height": 8,
    "fog": ["0404", "0505"],
    "starts": [{"holdings": ["0302", "0303"]}, {"holdings": ["0603", "0604"]},
               {"holdings": ["0306", "0307"]}, {"holdings": ["0606", "0607"]}],
}
HOUSE_RULES = {
    "start": {"money": 40},
    "condottieri": {"first_offer_turn": 2, "interval": 2, "min_bid": 1},
    "chupacabra": {"initial": 1},
}


def random_post(view: dict[str, Any], player: str, stream: Stream) -> str:
    """A reckless player's post from his own view: moves, supports (of anyone seen next
    door), raises, bids, hostility, transfers; tax paid only now and then."""
    grid = board(int(view["map"]["width"]), int(view["map"]["height"]))
    own = sorted({u["hex"] for u in view["units"] if u["owner"] == player})
    mine = sorted(h for h, v in view["holdings"].items() if v["owner"] == player)
    others = sorted(p for p in view["players"] if p != player and view["players"][p]["alive"])
    occupied: dict[str, set[str]] = {}
    for u in view["units"]:
        occupied.setdefault(u["hex"], set()).add(u["owner"])
    lines: list[str] = []
    due = int(view["me"]["tax_due"])
    if due and stream.chance(0.5):
        lines.append(f"налог {due}")
    foes = sorted(h for h, who in occupied.items() if who - {player})
    for hex_ in own:
        roll = stream.roll(6)
        if roll <= 3:
            path = grid.step_towards(hex_, stream.choice(foes or list(grid.hexes)))[:3]
            if path:
                lines.append("ход " + " -> ".join([hex_, *path]))
        elif roll == 4:
            path, here = [], hex_
            for _ in range(stream.roll(3)):
                here = stream.choice(sorted(grid.neighbours(here)))
                path.append(here)
            lines.append("ход " + " -> ".join([hex_, *path]))
        elif roll == 5:
            near = [h for h in sorted(grid.neighbours(hex_)) if h in occupied]
            if near:
                target = stream.choice(near)
                lines.append(f"поддержка {hex_} -> {target} {stream.choice(sorted(occupied[target]))}")
    if mine and stream.chance(0.4):
        lines.append(f"сбор {stream.choice(mine)} {stream.roll(3)}")
    offer = view.get("offer")
    if mine and offer and offer["turn"] == view["turn"] and stream.chance(0.7):
        lines.append(f"ставка {stream.choice([1, 2, 3])} {stream.choice(mine)}")
    if others and stream.chance(0.3):
        lines.append(f"{stream.choice(['вражда', 'мир'])} {stream.choice(others)}")
    if others and stream.chance(0.2):
        lines.append(f"перевод {stream.roll(5)} {stream.choice(others)}: дар")
    return "\n".join(lines)
