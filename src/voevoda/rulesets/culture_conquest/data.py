"""The tables of Culture & Conquest as validated data.

Every number of the rules document lives in ``data/*.toml``; a game master's house
rules are a dict keyed by file name (``{"rules": {"war": {"attack_from": 4}}}``) and
are deep-merged over the file before validation, so a bad override names its field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import load

DATA = Path(__file__).parent / "data"

ResourceKind = Literal["food", "military", "luxury", "building", "clothing"]
BattleWhen = Literal["always", "opponent_lacks", "attacking", "defending"]
DICE_RE = re.compile(r"^(\d+)d(\d+)$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def dice_count(text: str) -> tuple[int, int]:
    """``"2d6"`` -> ``(2, 6)``."""
    match = DICE_RE.match(text)
    if not match:
        raise ValueError(f"not a dice expression: {text!r}")
    return int(match.group(1)), int(match.group(2))



def _check_dice(value: str | None) -> str | None:
    if value is not None:
        dice_count(value)
    return value


class Named(Strict):
    ru: str
    en: str
    aliases: list[str] = Field(default_factory=list)


class Culture(Named):
    d20: int
    tech: str


class CulturesFile(Strict):
    die: int = 20
    choose_from: int
    cultures: dict[str, Culture]


class Battle(Strict):
    when: BattleWhen
    needs_any: list[str] = Field(default_factory=list)


class Natural(Named):
    d20: int
    kind: ResourceKind
    requires: list[str] = Field(default_factory=list)
    battle: Battle | None = None


class Industrial(Named):
    number: int
    kind: ResourceKind
    tech: str
    resources: list[str]


class ResourceRoll(Strict):
    die: int
    industrial_from: int
    natural_from: int
    natural_die: int


class ResourcesFile(Strict):
    roll: ResourceRoll
    natural: dict[str, Natural]
    industrial: dict[str, Industrial]


class Technology(Named):
    d100: list[int]
    note: str = ""
    group: str = ""
    keep_food: bool = False
    growth: int = 0
    research_dice: int = 0
    coins_per_city: int = 0
    labour_discount: int = 0
    coin_discount: int = 0
    vp: int = 0
    vp_requires: list[str] = Field(default_factory=list)
    vp_per_city: int = 0
    vp_per_wonder: int = 0
    labour_per_worker: int = 0
    food_per_farmer: int = 0
    resource_roll: int = 0
    battle: Battle | None = None


class TechnologiesFile(Strict):
    die: int
    choose_from: int
    exclusive_groups: list[str]
    technologies: dict[str, Technology]


class Disaster(Named):
    d20: list[int]
    effect: Literal["lose_resource", "lose_population", "lose_city", "lose_coins_half",
                    "lose_coins_all", "lose_food_half", "lose_wonder", "war"]
    dice: str | None = None
    worse_with: str | None = None
    worse_dice: str | None = None
    first: list[str] = Field(default_factory=list)
    on_defeat: Literal["lose_city", "lose_population", "lose_coins_all"] | None = None
    defeat_dice: str | None = None
    reduced_by: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _dice(self) -> Disaster:
        for value in (self.dice, self.worse_dice, self.defeat_dice):
            _check_dice(value)
        if self.effect in ("lose_population", "war") and not self.dice:
            raise ValueError(f"{self.effect} needs `dice`")
        if self.effect == "war" and not self.on_defeat:
            raise ValueError("war needs `on_defeat`")
        return self


class DisastersFile(Strict):
    chance_faces: int
    die: int
    table_die: int
    disasters: dict[str, Disaster]


class Wonder(Named):
    requires: list[str]
    cost: Literal["wonder", "city"] = "wonder"
    income_dice: str | None = None
    research_dice: int = 0
    battle: Battle | None = None


class WondersFile(Strict):
    wonders: dict[str, Wonder]


class Leader(Named):
    d6: int
    income_dice: str | None = None
    research_dice: int = 0
    labour_dice: str | None = None
    growth_dice: str | None = None
    cancel_from: int = 0


class LeadersFile(Strict):
    die: int
    hire_faces: int
    death_from: int
    leaders: dict[str, Leader]


class SetupRules(Strict):
    population: int
    cities: int
    order_die: int


class VictoryRules(Strict):
    turns: int
    tech: int
    city: int
    wonder_built: int
    wonder_held: int
    natural_majority: int
    industrial_majority: int


class GrowthRules(Strict):
    dice: str
    modifier: int
    minimum: int


class AssignmentRules(Strict):
    max_change: int
    military_cost: int
    cheap_cost: int
    army_cheap_with: list[str]
    fleet_cheap_with: list[str]
    scholars_per_city: int


class HarvestRules(Strict):
    food_per_farmer: int
    food_per_resource: int


CATEGORY = Literal["army", "fleet", "farmers", "merchants", "workers", "scholars"]


class UpkeepRules(Strict):
    food_per_person: int
    coins_per_military: int
    loss_order: list[CATEGORY]
    unpaid_order: list[CATEGORY]


class WarRules(Strict):
    attack_die: int
    attack_from: int
    general_bonus: int
    vp_dice: str
    battle_die: int
    casualty_face: int
    casualty_order: list[CATEGORY]
    slaves_dice: str


class BuildingRules(Strict):
    city_labour: int
    city_coins: int
    resource_labour: int
    industrial_labour: int
    wonder_labour: int
    wonder_coins: int
    discount_per_building_level: int
    min_labour: int
    min_coins: int


class ResearchRules(Strict):
    die: int
    success_face: int
    purchase_coins: int


class IncomeRules(Strict):
    per_merchant: int
    per_city: int
    per_luxury: int


class RulesFile(Strict):
    setup: SetupRules
    victory: VictoryRules
    growth: GrowthRules
    assignment: AssignmentRules
    harvest: HarvestRules
    upkeep: UpkeepRules
    war: WarRules
    building: BuildingRules
    research: ResearchRules
    income: IncomeRules


@dataclass
class Tables:
    """Every table, plus lookups built once for the hot paths."""

    rules: RulesFile
    cultures: CulturesFile
    resources: ResourcesFile
    techs: TechnologiesFile
    disasters: DisastersFile
    wonders: WondersFile
    leaders: LeadersFile
    culture_by_roll: dict[int, str] = field(default_factory=dict)
    natural_by_roll: dict[int, str] = field(default_factory=dict)
    tech_by_roll: dict[int, str] = field(default_factory=dict)
    disaster_by_roll: dict[int, str] = field(default_factory=dict)
    leader_by_roll: dict[int, str] = field(default_factory=dict)
    kind_of: dict[str, str] = field(default_factory=dict)
    """resource id -> food/military/luxury/building/clothing"""

    def __post_init__(self) -> None:
        self.culture_by_roll = {c.d20: k for k, c in self.cultures.cultures.items()}
        self.natural_by_roll = {r.d20: k for k, r in self.resources.natural.items()}
        for key, tech in self.techs.technologies.items():
            for face in range(tech.d100[0], tech.d100[-1] + 1):
                self.tech_by_roll[face] = key
        for key, disaster in self.disasters.disasters.items():
            for face in disaster.d20:
                self.disaster_by_roll[face] = key
        self.leader_by_roll = {lead.d6: k for k, lead in self.leaders.leaders.items()}
        self.kind_of = {k: r.kind for k, r in self.resources.natural.items()}
        self.kind_of.update({k: r.kind for k, r in self.resources.industrial.items()})
        self._check_references()

    def _check_references(self) -> None:
        techs = self.techs.technologies
        natural = self.resources.natural
        industrial = self.resources.industrial
        problems: list[str] = []
        for key, culture in self.cultures.cultures.items():
            if culture.tech not in techs:
                problems.append(f"cultures.{key}.tech: unknown technology {culture.tech!r}")
        for key, ind in industrial.items():
            if ind.tech not in techs:
                problems.append(f"resources.industrial.{key}.tech: unknown technology {ind.tech!r}")
            for res in ind.resources:
                if res not in natural:
                    problems.append(f"resources.industrial.{key}.resources: unknown resource {res!r}")
        for key, wonder in self.wonders.wonders.items():
            for req in wonder.requires:
                if req not in techs and req not in natural and req not in industrial:
                    problems.append(f"wonders.{key}.requires: unknown technology or resource {req!r}")
        for key, disaster in self.disasters.disasters.items():
            for red in disaster.reduced_by:
                if red not in techs and red not in self.wonders.wonders:
                    problems.append(f"disasters.{key}.reduced_by: unknown technology or wonder {red!r}")
        for face in range(1, self.techs.choose_from):
            if face not in self.tech_by_roll:
                problems.append(f"technologies: no technology on d100 face {face}")
        for face in range(1, self.disasters.table_die + 1):
            if face not in self.disaster_by_roll:
                problems.append(f"disasters: no disaster on d20 face {face}")
        for face in range(1, self.resources.roll.natural_die + 1):
            if face not in self.natural_by_roll:
                problems.append(f"resources.natural: no resource on d20 face {face}")
        for face in range(1, self.leaders.die + 1):
            if face not in self.leader_by_roll:
                problems.append(f"leaders: no leader on d6 face {face}")
        if problems:
            raise DataError("culture_conquest data: " + "; ".join(problems))

    # -- names ------------------------------------------------------------------

    def named(self, key: str) -> Named:
        for table in (self.techs.technologies, self.resources.natural, self.resources.industrial,
                      self.wonders.wonders, self.leaders.leaders, self.cultures.cultures,
                      self.disasters.disasters):
            if key in table:
                return table[key]
        raise KeyError(key)

    def name(self, key: str, lang: str = "ru") -> str:
        try:
            item = self.named(key)
        except KeyError:
            return key
        return item.ru if lang == "ru" else item.en


_CACHE: dict[str, Tables] = {}


def load_tables(house_rules: Mapping[str, Any] | None = None) -> Tables:
    """All tables, with ``house_rules`` (keyed by file stem) laid over them."""
    import json

    house = dict(house_rules or {})
    unknown = sorted(set(house) - {"rules", "cultures", "resources", "technologies", "disasters",
                                   "wonders", "leaders"})
    if unknown:
        raise DataError(f"culture_conquest house rules: unknown table(s) {', '.join(unknown)}")
    key = json.dumps(house, sort_keys=True, default=str)
    if key in _CACHE:
        return _CACHE[key]
    tables = Tables(
        rules=load(RulesFile, DATA / "rules.toml", house.get("rules")),
        cultures=load(CulturesFile, DATA / "cultures.toml", house.get("cultures")),
        resources=load(ResourcesFile, DATA / "resources.toml", house.get("resources")),
        techs=load(TechnologiesFile, DATA / "technologies.toml", house.get("technologies")),
        disasters=load(DisastersFile, DATA / "disasters.toml", house.get("disasters")),
        wonders=load(WondersFile, DATA / "wonders.toml", house.get("wonders")),
        leaders=load(LeadersFile, DATA / "leaders.toml", house.get("leaders")),
    )
    _CACHE[key] = tables
    return tables
