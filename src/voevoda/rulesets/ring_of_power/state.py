"""Questions asked of a Ring of Power state (plain JSON data, see ``setup``).

The state holds::

    turn, phase, seats, map {name, width, height, fog, income, title_*}
    players   {name: {color, money, last_income, tax_due, hostile[], alive, statement[]}}
    holdings  {hex: {owner, since}}        «Владение»
    depletion {hex: pawns raised there}    each lowers the hex's maximum income for good
    units     [{id, owner, type, hex, upgrade_at, upkeep}]
    camps     {hex: {player: turn}}        since when a player's stack stands in the hex
    chupacabras [{id, hex, eaten, reborn_at, died_in}]
    offer     the band of condottieri on offer this turn, or null
    outcome   null, or the end of the game
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from voevoda.rulesets.ring_of_power.board import Board, board
from voevoda.rulesets.ring_of_power.rules import Rules

State = dict[str, Any]


def board_of(state: Mapping[str, Any]) -> Board:
    return board(int(state["map"]["width"]), int(state["map"]["height"]))


def commandable(types: Iterable[str], rules: Rules) -> bool:
    """Whether these units can stand and move as one stack.

    «Пешка ... может командовать только двумя другими такими же пешками. Офицер ... тремя
    другими офицерами и/или пешками. Ферзь ... любым количеством других отрядов.
    Кондотьер – может командовать любым количеством других кондотьеров, но никем другим.
    Сам также не подчиняется ничьим командам.» A stack is whole when one of its units can
    command all the others.
    """
    kinds = list(types)
    if len(kinds) <= 1:
        return True
    for lead in sorted(set(kinds)):
        stats = rules.units[lead]
        others = list(kinds)
        others.remove(lead)
        if all(o in stats.commands for o in others) and (stats.command < 0 or len(others) <= stats.command):
            return True
    return False


def stacks(state: Mapping[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(player, hex) -> that player's units in that hex, by id."""
    table: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for unit in state["units"]:
        table[(unit["owner"], unit["hex"])].append(unit)
    return dict(table)


def units_at(state: Mapping[str, Any], hex_: str, player: str | None = None) -> list[dict[str, Any]]:
    return [u for u in state["units"] if u["hex"] == hex_ and (player is None or u["owner"] == player)]


def owner(state: Mapping[str, Any], hex_: str) -> str | None:
    holding = state["holdings"].get(hex_)
    return None if holding is None else str(holding["owner"])


def holdings_of(state: Mapping[str, Any], player: str) -> list[str]:
    return sorted(h for h, v in state["holdings"].items() if v["owner"] == player)


def alive_players(state: Mapping[str, Any]) -> list[str]:
    return [p for p in state["seats"] if state["players"][p]["alive"]]


def chupacabra_hexes(state: Mapping[str, Any]) -> set[str]:
    return {c["hex"] for c in state["chupacabras"] if c["hex"] is not None}


def strength(units: Iterable[Mapping[str, Any]], rules: Rules) -> int:
    return sum(rules.units[u["type"]].strength for u in units)


def visible_hexes(state: Mapping[str, Any], player: str) -> set[str]:
    """«Каждый игрок получает карту, на которой отражены: его владения; его отряды;
    владения [и отряды] других игроков, которые находятся от его отрядов или его
    владений на расстоянии не более 1 гекса.» «Туман полностью скрывает видимость в
    этом гексе» — a fog hex shows its contents only to a player with units inside it."""
    board = board_of(state)
    own_units = {u["hex"] for u in state["units"] if u["owner"] == player}
    own = own_units | set(holdings_of(state, player))
    seen = board.around(own, 1)
    fog = set(state["map"]["fog"])
    return {h for h in seen if h not in fog or h in own_units}


def band_may_land(state: Mapping[str, Any], player: str, hex_: str, arrive: str) -> bool:
    """Whether a band of condottieri hired by ``player`` may come to ``hex_`` (docs/rulings
    28): one of his holdings (``arrive = holding``), or also, under ``arrive = near``, free
    land outside the fog next to one of them."""
    if owner(state, hex_) == player:
        return True
    if arrive != "near" or owner(state, hex_) is not None or hex_ in set(state["map"]["fog"]):
        return False
    return any(owner(state, n) == player for n in board_of(state).neighbours(hex_))


def ring_hexes(holdings: set[str], board: Board, shape: str, size: int) -> list[str] | None:
    """The 7-hex Ring of Power among ``holdings``, or ``None``.

    «Побеждает в игре тот, кто первым собирает Кольцо Власти: захватит 7 соседних
    шестиугольников» — ``rosette``: a hex and its six neighbours (the shape the picture of
    the document shows is lost; docs/rulings); ``connected``: any ``size`` holdings joined
    edge to edge.
    """
    if shape == "rosette":
        for centre in sorted(holdings):
            flower = board.rosette(centre)
            if flower is not None and all(h in holdings for h in flower):
                return sorted(flower)
        return None
    remaining = set(holdings)
    while remaining:
        seed = min(remaining)
        group = {seed}
        frontier = [seed]
        while frontier:
            current = frontier.pop()
            for n in board.neighbours(current):
                if n in remaining and n not in group:
                    group.add(n)
                    frontier.append(n)
        if len(group) >= size:
            return sorted(group)
        remaining -= group
    return None
