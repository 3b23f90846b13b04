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

from tests.rulesets.ring_of_power.rop_helpers import CROWDED_MAP, HOUSE_RULES, random_post
from voevoda.core.dice import Dice
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import Event
from voevoda.rulesets.ring_of_power import RingOfPower

NAMES = ["Анна", "Борис", "Вера", "Глеб"]

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
