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
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import load

DATA = Path(__file__).parent / "data"

ResourceKind = Literal["food", "military", "luxury", "building", "clothing"]
BattleWhen = Literal["always", "opponent_lacks", "attacking", "defending"]
DICE_RE = re.compile(r"^(\d+)d(\d+)$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Bounds on every number of the tables, so that a house rule can neither hang a game (a loop
# over a billion faces) nor crash it (a die of no sides, a division by a zero price).
Die = Annotated[int, Field(ge=1, le=1000)]
"""The sides of a die."""
Face = Annotated[int, Field(ge=0, le=1000)]
"""A face of a die, or a threshold compared with one."""
Small = Annotated[int, Field(ge=0, le=1000)]
Positive = Annotated[int, Field(ge=1, le=1000)]
"""A price or rate something is divided by."""
Turns = Annotated[int, Field(ge=1, le=1000)]
Amount = Annotated[int, Field(ge=-1000, le=100_000)]
"""Any other number of the tables."""
MAX_DICE = 100


def dice_count(text: str) -> tuple[int, int]:
    """``"2d6"`` -> ``(2, 6)``."""
    match = DICE_RE.match(text)
    if not match:
        raise ValueError(f"not a dice expression: {text[:20]!r}")
    count, sides = int(match.group(1)), int(match.group(2))
    if not (1 <= count <= MAX_DICE and 1 <= sides <= 1000):
        raise ValueError(f"{text}: 1 to {MAX_DICE} dice of 1 to 1000 sides")
    return count, sides



def _check_dice(value: str | None) -> str | None:
    if value is not None:
        dice_count(value)
    return value


DiceText = Annotated[str, AfterValidator(_check_dice)]
"""Dice written ``NdX``: 1 to 100 dice of 1 to 1000 sides."""


class Named(Strict):
    ru: str
    en: str
    aliases: list[str] = Field(default_factory=list)


class Culture(Named):
    d20: Face
    tech: str


class CulturesFile(Strict):
    die: Die = 20
    choose_from: Face
    cultures: dict[str, Culture]


class Battle(Strict):
    when: BattleWhen
    needs_any: list[str] = Field(default_factory=list)


class Natural(Named):
    d20: Face
    kind: ResourceKind
    requires: list[str] = Field(default_factory=list)
    battle: Battle | None = None


class Industrial(Named):
    number: Amount
    kind: ResourceKind
    tech: str
    resources: list[str]


class ResourceRoll(Strict):
    die: Die
    industrial_from: Face
    natural_from: Face
    natural_die: Die


class ResourcesFile(Strict):
    roll: ResourceRoll
    natural: dict[str, Natural]
    industrial: dict[str, Industrial]


class Technology(Named):
    d100: Annotated[list[Face], Field(min_length=1, max_length=2)]
    """The faces of the ТАБЛИЦА ТЕХНОЛОГИЙ it holds: one face, or the first and the last."""
    note: str = ""
    group: str = ""
    keep_food: bool = False
    growth: Small = 0
    research_dice: Small = 0
    coins_per_city: Small = 0
    labour_discount: Small = 0
    coin_discount: Small = 0
    vp: Small = 0
    vp_requires: list[str] = Field(default_factory=list)
    vp_per_city: Small = 0
    vp_per_wonder: Small = 0
    labour_per_worker: Small = 0
    food_per_farmer: Small = 0
    resource_roll: Small = 0
    battle: Battle | None = None


class TechnologiesFile(Strict):
    die: Die
    choose_from: Face
    exclusive_groups: list[str]
    technologies: dict[str, Technology]


class Disaster(Named):
    d20: list[Face]
    effect: Literal["lose_resource", "lose_population", "lose_city", "lose_coins_half",
                    "lose_coins_all", "lose_food_half", "lose_wonder", "war"]
    dice: DiceText | None = None
    worse_with: str | None = None
    worse_dice: DiceText | None = None
    first: list[str] = Field(default_factory=list)
    on_defeat: Literal["lose_city", "lose_population", "lose_coins_all"] | None = None
    defeat_dice: DiceText | None = None
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
    chance_faces: Face
    die: Die
    table_die: Die
    disasters: dict[str, Disaster]


class Wonder(Named):
    requires: list[str]
    cost: Literal["wonder", "city"] = "wonder"
    income_dice: DiceText | None = None
    research_dice: Small = 0
    battle: Battle | None = None


class WondersFile(Strict):
    wonders: dict[str, Wonder]


class Leader(Named):
    d6: Face
    income_dice: DiceText | None = None
    research_dice: Small = 0
    labour_dice: DiceText | None = None
    growth_dice: DiceText | None = None
    cancel_from: Face = 0


class LeadersFile(Strict):
    die: Die
    hire_faces: Face
    death_from: Face
    leaders: dict[str, Leader]


class SetupRules(Strict):
    population: Small
    cities: Small
    order_die: Die


MostCount = Literal["population", "cities", "techs", "wonders", "army", "fleet", "military", "coins", "food",
                   "leaders"]
"""What a «most of» award counts: the whole population, cities, technologies, wonders under control,
armies, fleets, both, coins, food or leaders."""


class MostAward(Strict):
    """Points for the player who has the most of something, beyond the Russian document's
    resource majorities (docs/rulings/culture_conquest.md, ruling 47)."""

    ru: str = Field(max_length=200)
    en: str = Field(max_length=200)
    count: MostCount
    points: Amount
    option: Literal["biggest_population"] | None = None
    """The config option that switches the award on; an award without one counts in every game."""


class VictoryRules(Strict):
    turns: Turns
    tech: Amount
    city: Amount
    wonder_built: Amount
    wonder_held: Amount
    natural_majority: Amount
    industrial_majority: Amount
    most: dict[str, MostAward] = Field(default_factory=dict, max_length=50)


class GrowthRules(Strict):
    dice: DiceText
    modifier: Amount
    minimum: Amount


class AssignmentRules(Strict):
    max_change: Small
    military_cost: Positive
    cheap_cost: Positive
    army_cheap_with: list[str]
    fleet_cheap_with: list[str]
    scholars_per_city: Small


class HarvestRules(Strict):
    food_per_farmer: Positive
    food_per_resource: Small


CATEGORY = Literal["army", "fleet", "farmers", "merchants", "workers", "scholars"]


class UpkeepRules(Strict):
    food_per_person: Small
    coins_per_military: Small
    loss_order: list[CATEGORY]
    unpaid_order: list[CATEGORY]


class WarRules(Strict):
    attack_die: Die
    attack_from: Face
    general_bonus: Amount
    vp_dice: DiceText
    battle_die: Die
    casualty_face: Face
    casualty_order: list[CATEGORY]
    slaves_dice: DiceText


class BuildingRules(Strict):
    city_labour: Amount
    city_coins: Amount
    resource_labour: Amount
    industrial_labour: Amount
    wonder_labour: Amount
    wonder_coins: Amount
    discount_per_building_level: Amount
    min_labour: Amount
    min_coins: Amount


class ResearchRules(Strict):
    die: Die
    success_face: Face
    purchase_coins: Amount


class IncomeRules(Strict):
    per_merchant: Amount
    per_city: Amount
    per_luxury: Amount


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
        for face in range(1, min(self.cultures.die, self.cultures.choose_from - 1) + 1):
            if face not in self.culture_by_roll:
                problems.append(f"cultures: no culture on d{self.cultures.die} face {face}")
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
    for name, table in house.items():
        if not isinstance(table, Mapping):
            raise DataError(f"culture_conquest house rules: {name}: expected a table of overrides of "
                            f"data/{name}.toml, got {type(table).__name__}")
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
