"""A computer opponent for Кольцо Власти, written from one player's view alone.

It pays its tax, picks the seven hexes of a Ring of Power near its land, sends its
stacks to capture the missing ones (and then any free land), lets a stack that stands on
foreign land finish the capture, keeps out of the fog and away from stronger enemies,
declares hostility to neighbours, raises and upgrades pawns when the treasury allows,
and bids for condottieri when it is rich. Every order it writes is legal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from voevoda.core.dice import Stream
from voevoda.rulesets.ring_of_power.board import Board, distance
from voevoda.rulesets.ring_of_power.board import board as shared_board
from voevoda.rulesets.ring_of_power.rules import Options, Rules
from voevoda.rulesets.ring_of_power.state import commandable
from voevoda.rulesets.ring_of_power.turn import transfer_fee


def _ring_target(board: Board, mine: set[str], anchor: list[str], bad: set[str], theirs: set[str],
                 stream: Stream) -> list[str]:
    """The missing hexes of the most promising rosette: many own holdings, near home, few
    enemy holdings; a coin breaks ties so that bots do not all think alike."""
    scored: list[tuple[float, str]] = []
    for centre in board.hexes:
        flower = board.rosette(centre)
        if flower is None or any(h in bad for h in flower):
            continue
        owned = sum(1 for h in flower if h in mine)
        foreign = sum(1 for h in flower if h in theirs)
        far = min((distance(centre, a) for a in anchor), default=0)
        scored.append((owned * 10 - foreign * 6 - far * 3, centre))
    if not scored:
        return []
    scored.sort(key=lambda sc: (-sc[0], sc[1]))
    top = [c for sc, c in scored if sc == scored[0][0]][:4]
    flower = board.rosette(top[stream.roll(len(top)) - 1])
    return [h for h in (flower or ()) if h not in mine]


def write_orders(view: Mapping[str, Any], player: str, stream: Stream, rules: Rules, options: Options) -> str | None:
    if view.get("outcome") is not None or view.get("you") != player:
        return None
    board = shared_board(int(view["map"]["width"]), int(view["map"]["height"]))
    fog = set(view["map"]["fog"])
    monsters = set(view.get("chupacabra_hexes", []))
    me = view["me"]
    money = int(me["money"])
    turn = int(view["turn"])
    lines: list[str] = []
    mine = {h for h, v in view["holdings"].items() if v["owner"] == player}
    own: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    foes: dict[str, int] = defaultdict(int)
    for u in view["units"]:
        if u["owner"] == player:
            own[u["hex"]].append(u)
        else:
            foes[u["hex"]] += rules.units[u["type"]].strength

    def upkeep_of(u: Mapping[str, Any]) -> int:
        return int(u["upkeep"]) if u.get("upkeep") is not None else rules.units[u["type"]].upkeep

    fee = transfer_fee(0, int(me["tax_due"]), rules.prices.transfer_fee_percent, options.rounding)
    reserve = sum(upkeep_of(u) for us in own.values() for u in us)
    budget = money
    due = int(me["tax_due"]) if options.tax_mode == "order" else 0
    if due and due + fee <= budget:
        lines.append(f"налог {due}")
        budget -= due + fee
    budget -= reserve

    neighbours_of_mine = board.around(mine, 1)
    rivals = sorted({v["owner"] for h, v in view["holdings"].items()
                     if v["owner"] != player and h in neighbours_of_mine})
    hostile_now = set(view["players"][player]["hostile"])
    declare = [r for r in rivals if r not in hostile_now and view["players"].get(r, {}).get("alive")]
    if declare:
        lines.append("вражда " + ", ".join(declare))

    anchor = sorted(mine) or sorted(own)
    theirs = {h for h, v in view["holdings"].items() if v["owner"] != player}
    missing = _ring_target(board, mine, anchor, fog | monsters, theirs, stream) if anchor else []
    claimed: set[str] = set()
    busy: set[str] = set()
    intruders = sorted(h for h in foes if h in mine)

    for hex_ in sorted(own):
        units = own[hex_]
        power = sum(rules.units[u["type"]].strength for u in units)
        if hex_ not in mine:
            busy.add(hex_)  # standing on foreign land: one more turn without orders captures it
            continue
        if budget < rules.prices.move:
            break
        strong = {h for h, s in foes.items() if s >= power}
        if any(h in strong for h in board.neighbours(hex_)):
            continue  # hold the line against a stronger neighbour
        blocked = fog | monsters | strong | set(own)
        near = board.around({hex_}, rules.movement.max_steps)
        # Drive out an enemy standing on own land, then chase weak enemies near home, then
        # build the ring, then take any free land.
        goals = [h for h in intruders if h in near and h not in strong and h not in claimed]
        goals += [h for h in sorted(foes) if h in near and h not in strong and h not in claimed
                  and h in neighbours_of_mine and h not in goals]
        goals += [h for h in missing if h not in claimed and h not in own and h not in strong and h not in goals]
        if not goals:
            goals = [h for h in board.around({hex_}, 4) if h not in mine and h not in claimed and h not in blocked]
        goals.sort(key=lambda h: (h not in intruders, distance(hex_, h), h))
        for goal in goals[:8]:
            path = board.step_towards(hex_, goal, blocked - {goal})
            if not path:
                continue
            path = path[: rules.movement.max_steps]
            if path[-1] in own or (path[-1] in foes and foes[path[-1]] >= power):
                continue
            lines.append("ход " + " -> ".join([hex_, *path]))
            budget -= rules.prices.move
            claimed.add(goal)
            busy.add(hex_)
            break

    # Raise pawns where there is room, away from the ring's hexes when possible.
    stacks_count = len(own)
    max_raise = rules.income.max_raise
    if stacks_count < 5 and budget >= rules.prices.raise_base + rules.prices.raise_per_pawn * 2 + 20:
        spots = sorted((h for h in mine if h not in own and h not in foes), key=lambda h: (h in missing, h))
        if spots:
            n = min(max_raise, 2)
            lines.append(f"сбор {spots[0]} {n}")
            budget -= rules.prices.raise_base + rules.prices.raise_per_pawn * n

    # Upgrade pawns of an idle stack when rich.
    if budget >= rules.prices.upgrade_per_pawn + 40:
        for hex_ in sorted(own):
            if hex_ in busy or hex_ not in mine:
                continue
            pawns = [u for u in own[hex_] if u["type"] == "pawn" and u.get("upgrade_at") is None]
            if pawns:
                lines.append(f"улучшить {hex_} 1")
                budget -= rules.prices.upgrade_per_pawn
                busy.add(hex_)
                break

    offer = view.get("offer")
    if offer and int(offer["turn"]) == turn and budget >= rules.condottieri.min_bid + 30:
        spots = sorted(h for h in mine if h not in foes and commandable(
            [u["type"] for u in own.get(h, [])] + ["condottiere"] * int(offer["size"]), rules))
        if spots:
            amount = rules.condottieri.min_bid + stream.randint(0, max(0, min(30, budget - rules.condottieri.min_bid - 30)))
            lines.append(f"ставка {amount} {spots[0]}")
    return "\n".join(lines)
