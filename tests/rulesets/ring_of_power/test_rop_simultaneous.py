"""Orders are simultaneous: the order of the seats never changes a resolution.

003 «Приказы»: every player gives his orders for the same turn, and the document nowhere
lets one player's orders or money go before another's. So every step of a turn must work
from one snapshot: the same position, the same posts and the same dice give the same new
state and the same events whatever order the seats are listed in.

The games are crowded on purpose (a small board, starts two hexes apart, little money,
condottieri every other turn, seats played now by the computer opponent and now by a
reckless random player), so that battles on hexes and on edges, supports, desertion,
seized holdings, hostility and tied bids happen between players, not each in a corner.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voevoda.core.dice import Dice, Stream
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import Event
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.board import board

NAMES = ["Анна", "Борис", "Вера", "Глеб"]

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


def _events(events: list[Event]) -> list[str]:
    return sorted(json.dumps(e.to_json(), sort_keys=True, ensure_ascii=False) for e in events)


def _reseated(state: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """The same position with the seats (and the players table) in another order."""
    other = copy.deepcopy(state)
    other["seats"] = list(seats)
    other["players"] = {p: other["players"][p] for p in seats}
    return other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=1_000_000), players=st.integers(min_value=2, max_value=4),
       order=st.randoms(use_true_random=False))
def test_the_order_of_seats_never_changes_a_resolution(seed: int, players: int, order: Any) -> None:
    """003 «Приказы» (orders of one turn are given together): resolving a turn of a random
    crowded bot game with the seats permuted (every player keeps his name, pieces, money and
    posts) gives the same state and the same events, turn after turn."""
    ruleset = RingOfPower({"map": CROWDED_MAP, "max_turns": 8}, HOUSE_RULES)
    names = NAMES[:players]
    state = ruleset.setup(names, Dice.from_text(f"seats/{seed}"))
    while ruleset.outcome(state) is None:
        dice_text = f"seats/{seed}/{state['turn']}"
        orders = {}
        for p in ruleset.awaiting(state):
            stream = Dice.from_text(dice_text).stream(f"bot/{p}")
            view = ruleset.view(state, p)
            post = (ruleset.bot(view, p, stream) or "") if stream.chance(0.5) else random_post(view, p, stream)
            orders[p] = ruleset.parse(post, p, state)
        seats = list(state["seats"])
        order.shuffle(seats)
        first = ruleset.resolve(state, orders, Dice.from_text(dice_text))
        second = ruleset.resolve(_reseated(state, seats), orders, Dice.from_text(dice_text))
        assert second.state["seats"] == seats
        assert canonical_json(_reseated(second.state, list(state["seats"]))) == canonical_json(first.state)
        assert _events(second.events) == _events(first.events)
        state = first.state
