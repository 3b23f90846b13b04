"""The shape of a Ring of Power state (``RingOfPower.state_model``) and the rules between its
fields (``RingOfPower.state_invariants``): what a game master's ``edit`` must leave intact for the
next turn to resolve (docs/engine.md «Game-master actions»). The fields are described in
:mod:`.state`."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

from pydantic import Field

from voevoda.core.bounds import Amount, Count, Name, StrictModel
from voevoda.core.ruleset import StateProblem
from voevoda.rulesets.ring_of_power.board import board
from voevoda.rulesets.ring_of_power.rules import Rules

Hex = Annotated[str, Field(pattern=r"^\d{4}$")]
Turn = Annotated[int, Field(ge=0, le=100_000)]


class MapInfo(StrictModel):
    name: Name
    title_ru: str
    title_en: str
    width: int = Field(ge=1, le=99)
    height: int = Field(ge=1, le=99)
    fog: list[Hex]
    income: dict[Hex, Count]


class StatementLine(StrictModel):
    model_config = {"extra": "allow"}

    item: Name
    amount: Amount


class PlayerState(StrictModel):
    color: str = Field(max_length=64)
    money: Amount
    last_income: Amount
    tax_due: Count
    hostile: list[Name]
    alive: bool
    statement: list[StatementLine]


class Holding(StrictModel):
    owner: Name
    since: Turn


class Unit(StrictModel):
    id: int = Field(ge=1, le=10**9)
    owner: Name
    type: Name
    hex: Hex
    upgrade_at: Turn | None
    upkeep: Count | None


class Chupacabra(StrictModel):
    id: int = Field(ge=1, le=10**9)
    hex: Hex | None
    eaten: Count
    reborn_at: Turn | None
    died_in: Hex | None


class Offer(StrictModel):
    id: int = Field(ge=1, le=10**9)
    turn: Turn
    size: int = Field(ge=1, le=10_000)
    upkeep: Count


class Outcome(StrictModel):
    model_config = {"extra": "allow"}

    winners: list[Name]
    reason: Name


class RingOfPowerState(StrictModel):
    ruleset: Literal["ring-of-power"]
    turn: int = Field(ge=1, le=100_000)
    phase: Literal["orders", "over"]
    seats: list[Name] = Field(min_length=1, max_length=64)
    map: MapInfo
    players: dict[Name, PlayerState]
    holdings: dict[Hex, Holding]
    depletion: dict[Hex, Count]
    units: list[Unit]
    camps: dict[Hex, dict[Name, Turn]]
    next_unit: int = Field(ge=1, le=10**9)
    chupacabras: list[Chupacabra]
    next_chupacabra: int = Field(ge=1, le=10**9)
    offer: Offer | None
    outcome: Outcome | None


def invariants(state: dict[str, Any], rules: Rules) -> list[StateProblem]:
    """Rules between fields: every hex on the board, every name a seated player, every unit of
    a known type with its own id, every Chupacabra with its own id."""
    problems: list[StateProblem] = []

    def bad(field: str, ru: str, en: str) -> None:
        problems.append(StateProblem(field, ru, en))

    seats = list(state["seats"])
    grid = board(int(state["map"]["width"]), int(state["map"]["height"]))

    def on_board(field: str, hex_: str | None) -> None:
        if hex_ is not None and not grid.contains(hex_):
            bad(field, f"гекса {hex_} нет на карте", f"hex {hex_} is not on the map")

    def seated(field: str, name: str) -> None:
        if name not in seats:
            bad(field, f"«{name}» не сидит за столом", f"'{name}' is not a seated player")

    if len(set(seats)) != len(seats):
        bad("/seats", "игроки повторяются", "players repeat")
    if set(state["players"]) != set(seats):
        bad("/players", "игроки не совпадают с местами (seats)", "the players do not match the seats")
    for name, player in state["players"].items():
        for index, other in enumerate(player["hostile"]):
            seated(f"/players/{name}/hostile/{index}", other)
    for hex_, holding in state["holdings"].items():
        on_board(f"/holdings/{hex_}", hex_)
        seated(f"/holdings/{hex_}/owner", holding["owner"])
    for hex_ in state["depletion"]:
        on_board(f"/depletion/{hex_}", hex_)
    for index, hex_ in enumerate(state["map"]["fog"]):
        on_board(f"/map/fog/{index}", hex_)
    for hex_, stays in state["camps"].items():
        on_board(f"/camps/{hex_}", hex_)
        for name in stays:
            seated(f"/camps/{hex_}/{name}", name)
    ids = Counter(unit["id"] for unit in state["units"])
    for index, unit in enumerate(state["units"]):
        where = f"/units/{index}"
        on_board(f"{where}/hex", unit["hex"])
        seated(f"{where}/owner", unit["owner"])
        if unit["type"] not in rules.units:
            bad(f"{where}/type", f"нет отряда «{unit['type']}» (есть: {', '.join(sorted(rules.units))})",
                f"no unit type '{unit['type']}' (known: {', '.join(sorted(rules.units))})")
        if ids[unit["id"]] > 1:
            bad(f"{where}/id", f"номер отряда {unit['id']} повторяется", f"unit id {unit['id']} repeats")
        if unit["id"] >= state["next_unit"]:
            bad(f"{where}/id", "номер отряда не меньше next_unit", "the unit id is not below next_unit")
    monsters = Counter(c["id"] for c in state["chupacabras"])
    for index, monster in enumerate(state["chupacabras"]):
        where = f"/chupacabras/{index}"
        on_board(f"{where}/hex", monster["hex"])
        on_board(f"{where}/died_in", monster["died_in"])
        if monsters[monster["id"]] > 1 or monster["id"] >= state["next_chupacabra"]:
            bad(f"{where}/id", "номер Чупакабры повторяется или не меньше next_chupacabra",
                "the Chupacabra's id repeats or is not below next_chupacabra")
    if state["outcome"] is not None:
        for index, name in enumerate(state["outcome"]["winners"]):
            seated(f"/outcome/winners/{index}", name)
    return problems
