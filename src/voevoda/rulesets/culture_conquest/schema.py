"""The shape of a Culture & Conquest state (``CultureConquest.state_model``) and the rules between
its fields (``CultureConquest.state_invariants``): what a game master's ``edit`` must leave intact
for the next phase to resolve (docs/engine.md «Game-master actions»)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from voevoda.core.bounds import Amount, Count, Name, StrictModel
from voevoda.core.ruleset import StateProblem

from .data import Tables

Turn = Annotated[int, Field(ge=0, le=100_000)]


class City(StrictModel):
    name: Name
    wonder: Name | None


class Project(StrictModel):
    project: Name
    target: str | None
    labour: Count
    name: str | None = None
    city: Name | None = None
    """The city a wonder is to stand in (ruling 33)."""


Category = Literal["army", "fleet", "farmers", "merchants", "workers", "scholars"]
Military = Literal["army", "fleet"]


class Prefs(StrictModel):
    """A player's standing choices (ruling 48), private to him: the categories named first."""

    losses: list[Category] | None = Field(default=None, min_length=1, max_length=6)
    battle: list[Military] | None = Field(default=None, min_length=1, max_length=2)
    unpaid: list[Military] | None = Field(default=None, min_length=1, max_length=2)


class DisasterMark(StrictModel):
    turn: Turn
    id: Name
    war: bool


class Promise(StrictModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)

    giver: Name = Field(alias="from")
    text: str = Field(max_length=10_000)
    turn: Turn


class Population(StrictModel):
    army: Count
    fleet: Count
    farmers: Count
    merchants: Count
    workers: Count
    scholars: Count


class PlayerState(StrictModel):
    culture: Name | None
    pop: Population
    food: Amount
    coins: Amount
    cities: list[City]
    resources: dict[Name, Count]
    techs: list[Name]
    leaders: list[Name]
    war_vp: Amount
    wonders_built: list[Name]
    projects: list[Project]
    labour_credit: Count
    disaster: DisasterMark | None
    promises: list[Promise]
    prefs: Prefs = Field(default_factory=Prefs)


class WonderState(StrictModel):
    builder: Name | None
    owner: Name | None
    city: str | None
    lost: bool


One = Annotated[list[Name], Field(min_length=1, max_length=1)]
Some = Annotated[list[Name], Field(min_length=1, max_length=64)]


class AskCulture(StrictModel):
    kind: Literal["culture"]
    players: Some


class AskAssign(StrictModel):
    kind: Literal["assign"]
    players: One


class AskIndustrial(StrictModel):
    kind: Literal["industrial"]
    players: One
    options: list[Name] = Field(min_length=1)


class AskAttack(StrictModel):
    kind: Literal["attack"]
    players: One
    tried: list[Name]


class AskAlly(StrictModel):
    kind: Literal["ally"]
    players: Some
    attacker: Name
    defender: Name


class AskTribute(StrictModel):
    kind: Literal["tribute"]
    players: One
    defender: Name
    options: list[Literal["coins", "city", "population", "resource"]] = Field(min_length=1)


class AskOffer(StrictModel):
    kind: Literal["offer"]
    players: One
    made: Count


class Offer(StrictModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)

    giver: Name = Field(alias="from")
    to: Name
    give: list[dict[str, Any]]
    take: list[dict[str, Any]]


class AskReply(StrictModel):
    kind: Literal["reply"]
    players: One
    offer: Offer
    made: Count


class AskBuild(StrictModel):
    kind: Literal["build"]
    players: One
    labour: Count


class AskResearch(StrictModel):
    kind: Literal["research"]
    players: One
    picks: Count


Pending = Annotated[AskCulture | AskAssign | AskIndustrial | AskAttack | AskAlly | AskTribute | AskOffer
                    | AskReply | AskBuild | AskResearch, Field(discriminator="kind")]
"""What the game waits for, one shape per kind of choice (``Game.ask`` in :mod:`.phases`)."""


class CultureConquestState(StrictModel):
    ruleset: Literal["culture-conquest"]
    turn: int = Field(ge=1, le=100_000)
    turns: int = Field(ge=1, le=100_000)
    order: list[Name] = Field(min_length=1, max_length=64)
    seat: int = Field(ge=0, le=63)
    phase: int = Field(ge=0, le=13)
    pending: Pending | None
    finished: bool
    players: dict[Name, PlayerState]
    wonders: dict[Name, WonderState]
    carry_events: list[dict[str, Any]] | None = None


def invariants(state: dict[str, Any], tables: Tables) -> list[StateProblem]:
    """Rules between fields: names are players in the turn order, cultures, technologies,
    resources, leaders and wonders are in the game's tables, the seat is in the order."""
    problems: list[StateProblem] = []

    def bad(field: str, ru: str, en: str) -> None:
        problems.append(StateProblem(field, ru, en))

    def known(field: str, value: str | None, table: dict[str, Any], what_ru: str, what_en: str) -> None:
        if value is not None and value not in table:
            bad(field, f"нет {what_ru} «{value}»", f"no {what_en} '{value}'")

    order = list(state["order"])
    if len(set(order)) != len(order) or set(order) != set(state["players"]):
        bad("/order", "порядок хода не совпадает с игроками", "the turn order does not match the players")
    if state["seat"] >= len(order):
        bad("/seat", f"места {state['seat']} нет в порядке хода", f"seat {state['seat']} is not in the turn order")
    if state["turn"] > state["turns"] + 1:
        bad("/turn", "ход позже последнего", "the turn is past the last one")
    resources = {**tables.resources.natural, **tables.resources.industrial}
    for name, player in state["players"].items():
        where = f"/players/{name}"
        known(f"{where}/culture", player["culture"], tables.cultures.cultures, "культуры", "culture")
        for index, tech in enumerate(player["techs"]):
            known(f"{where}/techs/{index}", tech, tables.techs.technologies, "технологии", "technology")
        for index, leader in enumerate(player["leaders"]):
            known(f"{where}/leaders/{index}", leader, tables.leaders.leaders, "лидера", "leader")
        for index, wonder in enumerate(player["wonders_built"]):
            known(f"{where}/wonders_built/{index}", wonder, tables.wonders.wonders, "чуда", "wonder")
        for resource in player["resources"]:
            known(f"{where}/resources/{resource}", resource, resources, "ресурса", "resource")
        for index, city in enumerate(player["cities"]):
            known(f"{where}/cities/{index}/wonder", city["wonder"], tables.wonders.wonders, "чуда", "wonder")
        if player["disaster"] is not None:
            known(f"{where}/disaster/id", player["disaster"]["id"], tables.disasters.disasters, "бедствия",
                  "disaster")
        for key, named in (player.get("prefs") or {}).items():
            if named is not None and len(set(named)) != len(named):
                bad(f"{where}/prefs/{key}", "категория названа дважды", "a category is named twice")
        for index, project in enumerate(player["projects"]):
            if project.get("city") is not None and project["project"] != "wonder":
                bad(f"{where}/projects/{index}/city", "город указывают только для чуда",
                    "only a wonder names its city")
            if project["project"] == "wonder":
                known(f"{where}/projects/{index}/target", project.get("target"), tables.wonders.wonders, "чуда",
                      "wonder")
            elif project["project"] == "industrial":
                known(f"{where}/projects/{index}/target", project.get("target"), tables.resources.industrial,
                      "промресурса", "industrial resource")
        for index, promise in enumerate(player["promises"]):
            if promise["from"] not in state["players"]:
                bad(f"{where}/promises/{index}/from", f"нет игрока «{promise['from']}»",
                    f"no player '{promise['from']}'")
    for wonder, held in state["wonders"].items():
        known(f"/wonders/{wonder}", wonder, tables.wonders.wonders, "чуда", "wonder")
        for key in ("builder", "owner"):
            if held[key] is not None and held[key] not in state["players"]:
                bad(f"/wonders/{wonder}/{key}", f"нет игрока «{held[key]}»", f"no player '{held[key]}'")
    pending = state["pending"]
    if pending is not None:
        for key in ("attacker", "defender"):
            if key in pending and pending[key] not in state["players"]:
                bad(f"/pending/{key}", f"нет игрока «{pending[key]}»", f"no player '{pending[key]}'")
        named = [*pending["players"], *pending.get("tried", [])]
        if "offer" in pending:
            named += [pending["offer"]["from"], pending["offer"]["to"]]
        for name in named:
            if name not in state["players"]:
                bad("/pending", f"нет игрока «{name}»", f"no player '{name}'")
        if pending["kind"] == "industrial":
            for index, option in enumerate(pending["options"]):
                known(f"/pending/options/{index}", option, tables.resources.industrial, "ресурса", "resource")
    return problems
