"""What each viewer may see: the only way a Ring of Power state leaves the engine.

«Каждый игрок получает карту, на которой отражены: его владения; его отряды; владения
[и отряды] других игроков, которые находятся от его отрядов или его владений на
расстоянии не более 1 гекса.» Fog hides a hex even from a neighbour. Other players'
money, orders, bids, statements, upgrades and capture progress are never shown.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from voevoda.rulesets.ring_of_power.state import holdings_of, visible_hexes


def _public_players(state: Mapping[str, Any]) -> dict[str, Any]:
    return {p: {"color": v["color"], "alive": v["alive"], "hostile": list(v["hostile"])}
            for p, v in state["players"].items()}


def _map(state: Mapping[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(dict(state["map"]))


def public_view(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": state["ruleset"],
        "viewer": "public",
        "turn": state["turn"],
        "phase": state["phase"],
        "seats": list(state["seats"]),
        "map": _map(state),
        "players": _public_players(state),
        "offer": copy.deepcopy(state["offer"]),
        "outcome": copy.deepcopy(state["outcome"]),
        "visible": [],
        "holdings": {},
        "units": [],
        "chupacabra_hexes": [],
        "depletion": {},
    }


def player_view(state: Mapping[str, Any], player: str) -> dict[str, Any]:
    seen = visible_hexes(state, player)
    own_holdings = set(holdings_of(state, player))
    me = state["players"][player]
    holdings = {h: {"owner": v["owner"], **({"since": v["since"]} if v["owner"] == player else {})}
                for h, v in state["holdings"].items() if h in seen or h in own_holdings}
    units: list[dict[str, Any]] = []
    # Own units without their numbers: numbers are handed out to every player's units in turn, so
    # a new unit's number would count the units others raised and hired out of sight.
    for u in sorted(state["units"], key=lambda u: u["id"]):
        if u["owner"] == player:
            units.append({k: copy.deepcopy(v) for k, v in u.items() if k != "id"})
        elif u["hex"] in seen:
            units.append({"owner": u["owner"], "type": u["type"], "hex": u["hex"]})
    camps = {h: v[player] for h, v in state["camps"].items() if player in v}
    view = public_view(state)
    view.update({
        "viewer": player,
        "you": player,
        "me": {
            "money": me["money"],
            "last_income": me["last_income"],
            "tax_due": me["tax_due"],
            "statement": copy.deepcopy(me["statement"]),
        },
        "visible": sorted(seen),
        "holdings": dict(sorted(holdings.items())),
        "units": sorted(units, key=lambda u: (u["hex"], u["owner"], u["type"])),
        "camps": dict(sorted(camps.items())),
        "chupacabra_hexes": sorted({c["hex"] for c in state["chupacabras"] if c["hex"] in seen}),
        "depletion": {h: n for h, n in sorted(state["depletion"].items()) if h in seen or h in own_holdings},
    })
    return view


def gm_view(state: Mapping[str, Any]) -> dict[str, Any]:
    view = copy.deepcopy(dict(state))
    view["viewer"] = "gm"
    view["visible"] = sorted(f"{c:02d}{r:02d}" for c in range(1, int(state["map"]["width"]) + 1)
                             for r in range(1, int(state["map"]["height"]) + 1))
    view["chupacabra_hexes"] = sorted({c["hex"] for c in state["chupacabras"] if c["hex"] is not None})
    return view
