"""What each viewer may see of a Thrones game (docs/engine.md, the `thrones` table).

The board stays on the table and is public: areas, holders, units, power tokens, garrisons,
holy places, orders once placed, alliances, tracks, the Westeros cards, the bids once revealed,
bribes and their dice. Hidden are the sums in hand — «имеющиеся на руках суммы не озвучиваются» —
with what follows from them (a house's reserve and its statement), the deals between two houses
(to those two only), and every post until it is resolved (sealed bids and bribe guesses among
them).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC, State, Viewer
from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.state import reserve

HIDDEN_KEYS = ("treasury", "deals", "next_deal")


def view(state: State, viewer: Viewer, ctx: Ctx) -> dict[str, Any]:
    if viewer == GM:
        out = copy.deepcopy(dict(state))
        out["viewer"] = GM
        out["reserves"] = {p: reserve(state, ctx.rules, p) for p in state["seats"]}
        return out
    out = {k: copy.deepcopy(v) for k, v in state.items() if k not in HIDDEN_KEYS}
    if viewer != PUBLIC and viewer in state["seats"]:
        t = state["treasury"][viewer]
        out["me"] = {"player": viewer, "power": t["power"], "reserve": reserve(state, ctx.rules, viewer),
                     "opening": t["opening"], "statement": copy.deepcopy(t["statement"])}
        out["deals"] = [copy.deepcopy(d) for d in state["deals"] if viewer in (d["by"], d["to"])]
        out["viewer"] = viewer
    else:
        out["viewer"] = PUBLIC
    return out


def money_of(view_or_state: Mapping[str, Any], player: str) -> int | None:
    """What ``player`` holds, where the data given shows it (the state, the GM's view, or the
    player's own view); None elsewhere."""
    if "treasury" in view_or_state and player in view_or_state["treasury"]:
        return int(view_or_state["treasury"][player]["power"])
    me = view_or_state.get("me")
    if me and me.get("player") == player:
        return int(me["power"])
    return None
