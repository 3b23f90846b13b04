"""The shape of a Steel Rose battle game's state (``SteelRoseBattle.state_model``) and the rules
between its fields (``SteelRoseBattle.state_invariants``): what a game master's ``edit`` must leave
intact for the battle to be computed (docs/engine.md «Game-master actions»). The same bounds on
unit counts hold for battle files (:mod:`.battle.sides`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from voevoda.core.bounds import Count, Name, StrictModel
from voevoda.core.errors import DataError
from voevoda.core.ruleset import StateProblem
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.battle.sides import MAX_UNITS, SideSpec, check_army
from voevoda.rulesets.steel_rose.rules import Rules

UnitCount = Annotated[int, Field(ge=0, le=MAX_UNITS)]
Position = Literal["left.vanguard", "centre.vanguard", "right.vanguard",
                   "left.rearguard", "centre.rearguard", "right.rearguard"]
assert set(Position.__args__) == set(fld.POSITIONS)  # type: ignore[attr-defined]


class Garrison(StrictModel):
    faction: Name
    level: int = Field(ge=1, le=100)
    large: bool = False


class Side(StrictModel):
    role: Literal["attacker", "defender"]
    faction: Name | None
    army: dict[Name, UnitCount] | None
    garrison: Garrison | None
    gunpowder: Count | None
    modifiers: dict[Name, Annotated[float, Field(ge=-1000, le=1000)]]


class Squad(StrictModel):
    position: Position
    units: dict[Name, UnitCount]
    line: Count = 0


class PowderShare(StrictModel):
    amount: Count
    position: Position | None
    unit: Name | None
    line: Count = 0


class Note(StrictModel):
    ru: str = Field(max_length=10_000)
    en: str = Field(max_length=10_000)
    line: Count = 0


class Deployment(StrictModel):
    squads: list[Squad] = Field(max_length=6)
    gunpowder: Count | None
    powder: list[PowderShare] = Field(default_factory=list, max_length=100)
    notes: list[Note] = Field(default_factory=list, max_length=1000)


class Manoeuvre(StrictModel):
    squad: Position
    kind: Name
    targets: list[Position] = Field(max_length=6)
    line: Count = 0


class Plan(StrictModel):
    manoeuvres: list[Manoeuvre] = Field(max_length=12)
    skip: bool


class SteelRoseBattleState(StrictModel):
    ruleset: Literal["steel-rose-battle"]
    mode: Literal["battle"]
    turn: int = Field(ge=1, le=100_000)
    phase: Literal["deployment", "planning", "done"]
    players: list[Name] = Field(min_length=2, max_length=2)
    sides: dict[Name, Side]
    deployments: dict[Name, Deployment]
    plans: dict[Name, Plan]
    result: dict[str, Any] | None


def invariants(state: dict[str, Any], rules: Rules) -> list[StateProblem]:
    """Rules between fields: the two players are the two sides, one attacking and one
    defending; every unit is of a known type; a garrison is one the faction has; a deployment
    places only units its side has; the phase has what it needs."""
    problems: list[StateProblem] = []

    def bad(field: str, ru: str, en: str) -> None:
        problems.append(StateProblem(field, ru, en))

    players = list(state["players"])
    if len(set(players)) != 2 or set(state["sides"]) != set(players):
        bad("/sides", "стороны не совпадают с игроками", "the sides do not match the players")
        return problems
    if sorted(side["role"] for side in state["sides"].values()) != ["attacker", "defender"]:
        bad("/sides", "нужны атакующий и обороняющийся", "one side attacks and the other defends")
    for player, side in state["sides"].items():
        where = f"/sides/{player}"
        for uid in side["army"] or {}:
            if uid not in rules.units:
                bad(f"{where}/army/{uid}", f"нет юнита «{uid}»", f"no unit '{uid}'")
        if side["faction"] is not None and side["faction"] not in rules.factions:
            bad(f"{where}/faction", f"нет фракции «{side['faction']}»", f"no faction '{side['faction']}'")
        if side["army"] is None and side["garrison"] is None:
            bad(where, "ни армии, ни гарнизона", "neither an army nor a garrison")
        if side["garrison"] is not None:
            g = side["garrison"]
            try:
                rules.garrison(g["faction"], g["level"], g.get("large", False))
            except DataError as exc:
                bad(f"{where}/garrison", f"такого гарнизона нет ({exc})", f"no such garrison ({exc})")
    if problems:
        return problems
    for player, deployment in state["deployments"].items():
        where = f"/deployments/{player}"
        if player not in state["sides"]:
            bad(where, f"«{player}» не участвует в битве", f"'{player}' is not in this battle")
            continue
        squads = [SquadInput.from_json(s) for s in deployment["squads"]]
        unknown = sorted({uid for s in squads for uid in s.units if uid not in rules.units})
        if unknown:
            bad(f"{where}/squads", f"нет юнитов: {', '.join(unknown)}", f"no units: {', '.join(unknown)}")
            continue
        for index, share in enumerate(deployment.get("powder", [])):
            if share["unit"] is not None and share["unit"] not in rules.units:
                bad(f"{where}/powder/{index}/unit", f"нет юнита «{share['unit']}»", f"no unit '{share['unit']}'")
        side = state["sides"][player]
        spec = SideSpec(player, side["faction"], side["army"], side["garrison"])
        for problem in check_army(squads, spec.units(rules), rules):
            bad(f"{where}/squads", problem.message_ru, problem.message_en)
    for player in state["plans"]:
        if player not in state["sides"]:
            bad(f"/plans/{player}", f"«{player}» не участвует в битве", f"'{player}' is not in this battle")
    if state["phase"] == "planning" and set(state["deployments"]) != set(players):
        bad("/phase", "планирование без расстановки обеих сторон", "planning before both sides have deployed")
    if state["phase"] == "done" and state["result"] is None:
        bad("/result", "битва окончена, а итога нет", "the battle is over but has no result")
    return problems
