"""The campaign's rules as data: Pydantic models of ``campaign/data/*.toml`` and the loader.

Three files: ``campaign.toml`` (economy, epochs, victory, quests, spells, rituals, the ogres'
trade), ``buildings.toml`` (every building of every faction with its effects) and
``maps/<name>.toml`` (cities, roads, the ogres' mobile city). The battle's own data (units,
garrisons) comes from :mod:`voevoda.rulesets.steel_rose.rules`. A game master's house rules
deep-merge over all of them: keys ``campaign``, ``buildings`` and ``map`` here, ``units``,
``factions``, ``battle`` and ``large_city_multiplier`` for the battle's files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import deep_merge, read_toml, validate
from voevoda.rulesets.steel_rose.campaign.state import FactionId
from voevoda.rulesets.steel_rose.rules import Faction, Rules, load_rules

DATA = Path(__file__).parent / "data"
MAPS = DATA / "maps"

FACTIONS: tuple[str, ...] = ("empire", "steel_rose", "heaven", "void_cult", "ogres")
"""The five factions in the document's order (also the default seating order)."""

CAMPAIGN_KEYS = frozenset({"campaign", "buildings", "map"})
BATTLE_KEYS = frozenset({"units", "factions", "battle", "large_city_multiplier"})

SpellId = Literal["floating_city", "call_of_the_forest", "heavenly_favour", "divination"]
SPELLS: tuple[SpellId, ...] = ("floating_city", "call_of_the_forest", "heavenly_favour", "divination")
RitualId = Literal["infection", "teleport", "deal", "summoning", "cursed_gold", "oath", "sacrifice", "feeding"]
RITUALS: tuple[RitualId, ...] = ("infection", "teleport", "deal", "summoning", "cursed_gold", "oath",
                                 "sacrifice", "feeding")

Count = int
"""A number of units or gold; bounded in the models."""
MAX_COUNT = 1_000_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


UnitCounts = dict[str, int]


def _check_counts(counts: Mapping[str, int], where: str) -> None:
    for uid, n in counts.items():
        if not 0 < n <= MAX_COUNT:
            raise ValueError(f"{where}.{uid}: expected a count from 1 to {MAX_COUNT}")


# ----------------------------------------------------------------------------- campaign.toml

class Economy(_Strict):
    small_income_per_level: int = Field(ge=0, le=MAX_COUNT)
    large_income_per_level: int = Field(ge=0, le=MAX_COUNT)
    small_slots: int = Field(ge=0, le=10)
    large_slots: int = Field(ge=0, le=10)
    max_level: int = Field(ge=1, le=3)
    raise_multiplier: float = Field(ge=0, le=100)
    sell_fraction: float = Field(ge=0, le=1)
    defence_income_penalty_per_level: int = Field(ge=0, le=MAX_COUNT)
    restore_small: int = Field(ge=0, le=MAX_COUNT)
    restore_large: int = Field(ge=0, le=MAX_COUNT)
    plunder_multiplier: float = Field(ge=0, le=100)
    raze_multiplier: float = Field(ge=0, le=100)
    double_building_garrison: bool = False


class Start(_Strict):
    gold: dict[FactionId, int]
    resource: dict[FactionId, float]

    @model_validator(mode="after")
    def _bounds(self) -> Start:
        for fid, v in self.gold.items():
            if not 0 <= v <= MAX_COUNT:
                raise ValueError(f"gold.{fid}: expected 0 to {MAX_COUNT}")
        for fid, r in self.resource.items():
            if not 0 <= r <= MAX_COUNT:
                raise ValueError(f"resource.{fid}: expected 0 to {MAX_COUNT}")
        return self


class Epoch(_Strict):
    id: str
    name_ru: str
    name_en: str
    first_turn: int = Field(ge=1, le=1000)
    max_level: int = Field(ge=1, le=3)
    max_armies: int = Field(ge=0, le=100)
    gift: int = Field(ge=0, le=MAX_COUNT)
    multiplier: float = Field(ge=0, le=10)
    ogre_discount: int = Field(ge=0, le=MAX_COUNT)
    ends_game: bool = False


class Victory(_Strict):
    destroy: FactionId | None = None
    cities: int | None = Field(default=None, ge=1, le=1000)
    cities_with: str | None = None
    resource: float | None = Field(default=None, gt=0, le=MAX_COUNT)
    gold: int | None = Field(default=None, gt=0, le=MAX_COUNT)
    raids: int | None = Field(default=None, ge=1, le=1000)


class Quest(_Strict):
    enabled: bool = True
    resource: float = Field(ge=0, le=MAX_COUNT)
    units: UnitCounts = Field(default_factory=dict)

    @model_validator(mode="after")
    def _counts(self) -> Quest:
        _check_counts(self.units, "units")
        return self


class Spell(_Strict):
    name_ru: str
    name_en: str
    mana: int = Field(ge=0, le=MAX_COUNT)
    repeat_increase: int = Field(default=0, ge=0, le=MAX_COUNT)
    damage_percent: float = Field(default=0, ge=-100, le=1000)
    taken_percent: float = Field(default=0, ge=-100, le=1000)


class HeavenRules(_Strict):
    mana_per_turn: int = Field(ge=0, le=MAX_COUNT)
    spells: dict[SpellId, Spell]

    @model_validator(mode="after")
    def _all_spells(self) -> HeavenRules:
        missing = [s for s in SPELLS if s not in self.spells]
        if missing:
            raise ValueError(f"spells: missing {', '.join(missing)}")
        return self


class Roll(_Strict):
    dice: int = Field(ge=0, le=100)
    sides: int = Field(ge=1, le=1000)
    plus: int = Field(ge=0, le=1000)


class Ritual(_Strict):
    name_ru: str
    name_en: str
    hunger: int = Field(ge=-1000, le=1000)
    gold: int = Field(ge=0, le=MAX_COUNT)
    small: Roll | None = None
    large: Roll | None = None
    max_change: int = Field(default=0, ge=-1000, le=1000)
    demons: UnitCounts = Field(default_factory=dict)
    every: int = Field(default=1, ge=1, le=100)
    reward: int = Field(default=0, ge=0, le=MAX_COUNT)
    reward_decrease: int = Field(default=0, ge=0, le=MAX_COUNT)


class DemonTable(_Strict):
    first_turn: int = Field(ge=1, le=1000)
    choices: list[UnitCounts] = Field(min_length=1)

    @model_validator(mode="after")
    def _counts(self) -> DemonTable:
        for i, choice in enumerate(self.choices):
            if not choice:
                raise ValueError(f"choices.{i}: empty")
            _check_counts(choice, f"choices.{i}")
        return self


class Betrayal(_Strict):
    every_small: int = Field(ge=1, le=100)
    every_large: int = Field(ge=1, le=100)


class VoidRules(_Strict):
    passive: int = Field(ge=-1000, le=1000)
    per_city: int = Field(ge=-1000, le=1000)
    max: int = Field(ge=1, le=100_000)
    captured_city: int = Field(ge=-1000, le=1000)
    battle_win_deaths: int = Field(ge=1, le=1000)
    plunder_or_raze: int = Field(ge=-1000, le=1000)
    defended: int = Field(ge=-1000, le=1000)
    corruption_max: int = Field(ge=1, le=1000)
    rituals_per_turn: int = Field(ge=0, le=10)
    rituals_per_turn_max: int = Field(ge=0, le=10)
    rituals: dict[RitualId, Ritual]
    summoning: list[DemonTable] = Field(min_length=1)
    alliance: list[DemonTable] = Field(min_length=1)
    betrayal: Betrayal

    @model_validator(mode="after")
    def _all_rituals(self) -> VoidRules:
        missing = [r for r in RITUALS if r not in self.rituals]
        if missing:
            raise ValueError(f"rituals: missing {', '.join(missing)}")
        infection = self.rituals["infection"]
        if infection.small is None or infection.large is None:
            raise ValueError("rituals.infection: needs 'small' and 'large' rolls")
        for name, table in (("summoning", self.summoning), ("alliance", self.alliance)):
            if table[0].first_turn != 1:
                raise ValueError(f"{name}.0.first_turn: the first row must start at turn 1")
        return self


class OgreRules(_Strict):
    moves_per_turn: int = Field(ge=0, le=10)
    raid_gold_multiplier: float = Field(ge=0, le=100)
    raid_meat_divisor: float = Field(gt=0, le=1000)
    raze_gold_multiplier: float = Field(ge=0, le=100)
    raze_meat_divisor: float = Field(gt=0, le=1000)
    mercenary_price_multiplier: float = Field(ge=0, le=100)
    mercenary_share: float = Field(ge=0, le=1)
    alliance_income_percent: float = Field(ge=0, le=100)


class CampaignModel(_Strict):
    economy: Economy
    start: Start
    epochs: list[Epoch] = Field(min_length=1)
    victory: dict[FactionId, Victory]
    quests: dict[str, Quest] = Field(default_factory=dict)
    heaven: HeavenRules
    void: VoidRules
    ogres: OgreRules
    exchange: dict[FactionId, float] = Field(default_factory=dict)
    """Gold a unit of each faction's own resource is worth (pricing armies, ruling C50)."""

    @model_validator(mode="after")
    def _rates(self) -> CampaignModel:
        for fid, rate in self.exchange.items():
            if not 0 <= rate <= 10_000:
                raise ValueError(f"exchange.{fid}: expected 0 to 10000 gold")
        return self

    @model_validator(mode="after")
    def _epochs_in_order(self) -> CampaignModel:
        if self.epochs[0].first_turn != 1:
            raise ValueError("epochs.0.first_turn: the first epoch must start at turn 1")
        for i in range(1, len(self.epochs)):
            if self.epochs[i].first_turn <= self.epochs[i - 1].first_turn:
                raise ValueError(f"epochs.{i}.first_turn: epochs must start at increasing turns")
        return self


# ---------------------------------------------------------------------------- buildings.toml

class Detect(_Strict):
    chance: float = Field(ge=0, le=1)
    gold_per_level: int = Field(ge=0, le=MAX_COUNT)
    resource_per_level: float | None = Field(default=None, ge=0, le=MAX_COUNT)


class Building(_Strict):
    name_ru: str
    name_en: str
    names: list[str] = Field(default_factory=list)
    level: int = Field(ge=1, le=3)
    gold: int = Field(ge=0, le=MAX_COUNT)
    resource: float = Field(default=0, ge=0, le=MAX_COUNT)
    income: int = Field(default=0, ge=-MAX_COUNT, le=MAX_COUNT)
    halves_income: bool = False
    resource_per_turn: float = Field(default=0, ge=0, le=MAX_COUNT)
    unlocks: list[str] = Field(default_factory=list)
    garrison: UnitCounts = Field(default_factory=dict)
    units_per_turn: UnitCounts = Field(default_factory=dict)
    detect: Detect | None = None
    floating_discount: int = Field(default=0, ge=0, le=MAX_COUNT)
    garrison_shots_percent: float = Field(default=0, ge=-100, le=1000)
    hunger_passive: int = Field(default=0, ge=-1000, le=1000)
    raid_reward: int = Field(default=0, ge=0, le=MAX_COUNT)
    catacombs_corruption: int | None = Field(default=None, ge=0, le=1000)

    @model_validator(mode="after")
    def _counts(self) -> Building:
        _check_counts(self.garrison, "garrison")
        _check_counts(self.units_per_turn, "units_per_turn")
        return self


class BuildingsModel(_Strict):
    empire: dict[str, Building] = Field(default_factory=dict)
    steel_rose: dict[str, Building] = Field(default_factory=dict)
    heaven: dict[str, Building] = Field(default_factory=dict)
    void_cult: dict[str, Building] = Field(default_factory=dict)
    ogres: dict[str, Building] = Field(default_factory=dict)

    def of(self, faction: str) -> dict[str, Building]:
        return dict(getattr(self, faction))


# ------------------------------------------------------------------------------------ maps

class MapCity(_Strict):
    name_ru: str = Field(min_length=1, max_length=60)
    name_en: str = Field(min_length=1, max_length=60)
    kind: Literal["small", "large"]
    level: int = Field(default=1, ge=1, le=3)
    owner: FactionId | Literal[""] = ""
    ruins: bool = False
    x: float = Field(ge=0, le=100_000)
    y: float = Field(ge=0, le=100_000)


class Mobile(_Strict):
    faction: FactionId = "ogres"
    name_ru: str
    name_en: str
    road: tuple[str, str]


class MapModel(_Strict):
    name_ru: str
    name_en: str
    width: float = Field(gt=0, le=100_000)
    height: float = Field(gt=0, le=100_000)
    cities: dict[str, MapCity] = Field(min_length=2, max_length=500)
    roads: list[tuple[str, str]] = Field(max_length=5000)
    mobile: Mobile | None = None

    @model_validator(mode="after")
    def _roads(self) -> MapModel:
        seen: set[frozenset[str]] = set()
        for i, (a, b) in enumerate(self.roads):
            for end in (a, b):
                if end not in self.cities:
                    raise ValueError(f"roads.{i}: no city '{end}'")
            if a == b:
                raise ValueError(f"roads.{i}: a road from '{a}' to itself")
            key = frozenset((a, b))
            if key in seen:
                raise ValueError(f"roads.{i}: the road {a}–{b} is listed twice")
            seen.add(key)
        if self.mobile is not None:
            a, b = self.mobile.road
            if frozenset((a, b)) not in seen:
                raise ValueError(f"mobile.road: no road {a}–{b}")
        names: dict[str, str] = {}
        for cid, city in self.cities.items():
            for name in (city.name_ru.lower(), city.name_en.lower()):
                if names.setdefault(name, cid) != cid:
                    raise ValueError(f"cities.{cid}: the name '{name}' is also city '{names[name]}'")
            if city.ruins and city.level != 1:
                raise ValueError(f"cities.{cid}: ruins are level 1")
        return self


# ------------------------------------------------------------------------------ the whole

@dataclass(frozen=True)
class Campaign:
    """The validated rules of one campaign: battle rules, campaign numbers, buildings, map."""

    rules: Rules
    model: CampaignModel
    buildings: BuildingsModel
    map: MapModel

    @property
    def economy(self) -> Economy:
        return self.model.economy

    def epoch(self, turn: int) -> Epoch:
        current = self.model.epochs[0]
        for epoch in self.model.epochs:
            if epoch.first_turn <= turn:
                current = epoch
        return current

    @cached_property
    def last_turn(self) -> int:
        """The turn whose end finishes the game (Midnight), or 0 when no epoch ends it."""
        for epoch in self.model.epochs:
            if epoch.ends_game:
                return epoch.first_turn
        return 0

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {cid: [] for cid in self.map.cities}
        for a, b in self.map.roads:
            out[a].append(b)
            out[b].append(a)
        return {cid: tuple(sorted(ns)) for cid, ns in out.items()}

    def faction(self, fid: str) -> Faction:
        """The battle data of a faction (names, resource, garrisons)."""
        return self.rules.factions[fid]  # type: ignore[index]

    def building(self, faction: str, bid: str) -> Building:
        return self.buildings.of(faction)[bid]

    @cached_property
    def unlocked_by(self) -> dict[str, dict[str, list[str]]]:
        """faction -> unit -> the buildings that unlock it."""
        out: dict[str, dict[str, list[str]]] = {}
        for fid in FACTIONS:
            table: dict[str, list[str]] = {}
            for bid, b in self.buildings.of(fid).items():
                for uid in b.unlocks:
                    table.setdefault(uid, []).append(bid)
            out[fid] = table
        return out

    def demons(self, table: list[DemonTable], turn: int) -> list[UnitCounts]:
        """The choices of a demon table («1-2 ход ... 3-4 ход ... 5+ ход») for ``turn``."""
        row = table[0]
        for entry in table:
            if entry.first_turn <= turn:
                row = entry
        return [dict(c) for c in row.choices]


def _check_references(rules: Rules, model: CampaignModel, buildings: BuildingsModel, game_map: MapModel) -> None:
    problems: list[str] = []
    for fid in FACTIONS:
        for bid, b in buildings.of(fid).items():
            for field_name, ids in (("unlocks", b.unlocks), ("garrison", list(b.garrison)),
                                    ("units_per_turn", list(b.units_per_turn))):
                for uid in ids:
                    unit = rules.units.get(uid)
                    if unit is None:
                        problems.append(f"buildings.{fid}.{bid}.{field_name}: unknown unit '{uid}'")
                    elif unit.faction != fid:
                        problems.append(f"buildings.{fid}.{bid}.{field_name}: '{uid}' is a unit of '{unit.faction}'")
    for cid, quest in model.quests.items():
        if quest.enabled and cid not in game_map.cities:
            problems.append(f"campaign.quests.{cid}: no such city on the map (set enabled = false)")
        for uid in quest.units:
            if uid not in rules.units:
                problems.append(f"campaign.quests.{cid}.units: unknown unit '{uid}'")
    for fid, victory in model.victory.items():
        if victory.cities_with and victory.cities_with not in game_map.cities:
            problems.append(f"campaign.victory.{fid}.cities_with: no city '{victory.cities_with}' on the map")
    for name, table in (("summoning", model.void.summoning), ("alliance", model.void.alliance)):
        for i, row in enumerate(table):
            for j, choice in enumerate(row.choices):
                for uid in choice:
                    if uid not in rules.units:
                        problems.append(f"campaign.void.{name}.{i}.choices.{j}: unknown unit '{uid}'")
    for rid, ritual in model.void.rituals.items():
        for uid in ritual.demons:
            if uid not in rules.units:
                problems.append(f"campaign.void.rituals.{rid}.demons: unknown unit '{uid}'")
    if problems:
        raise DataError("; ".join(problems))


def map_from(source: str | Mapping[str, Any] | None) -> dict[str, Any]:
    """A map's raw table: ``None`` or a shipped map's name (``"default"``), or the table itself
    (a game's config may carry a whole map read from a file)."""
    if source is None or source == "":
        source = "default"
    if isinstance(source, str):
        path = MAPS / f"{source}.toml"
        if not source.replace("-", "").replace("_", "").isalnum() or not path.is_file():
            shipped = ", ".join(sorted(p.stem for p in MAPS.glob("*.toml")))
            raise DataError(f"map: no shipped map '{source}' (shipped: {shipped})")
        return read_toml(path)
    if not isinstance(source, Mapping):
        raise DataError("map: expected a shipped map's name or a map table")
    return dict(source)


def split_house_rules(house_rules: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(battle part, campaign part) of a house-rules table; an unknown top-level key is refused."""
    house = dict(house_rules or {})
    unknown = sorted(set(house) - CAMPAIGN_KEYS - BATTLE_KEYS)
    if unknown:
        known = ", ".join(sorted(CAMPAIGN_KEYS | BATTLE_KEYS))
        raise DataError(f"house rules: unknown key '{unknown[0]}' (known: {known})")
    return ({k: v for k, v in house.items() if k in BATTLE_KEYS},
            {k: v for k, v in house.items() if k in CAMPAIGN_KEYS})


def load_campaign(house_rules: Mapping[str, Any] | None = None,
                  game_map: str | Mapping[str, Any] | None = None) -> Campaign:
    """Read the data files and the map, lay the house rules over them and validate the whole."""
    battle_part, campaign_part = split_house_rules(house_rules)
    rules = load_rules(battle_part)
    suffix = " + house rules" if campaign_part else ""
    raw_campaign = read_toml(DATA / "campaign.toml")
    raw_buildings = read_toml(DATA / "buildings.toml")
    raw_map = map_from(game_map)
    for key in ("campaign", "buildings", "map"):
        override = campaign_part.get(key)
        if override is not None and not isinstance(override, Mapping):
            raise DataError(f"house rules: '{key}' must be a table")
    if "campaign" in campaign_part:
        raw_campaign = deep_merge(raw_campaign, campaign_part["campaign"])
    if "buildings" in campaign_part:
        raw_buildings = deep_merge(raw_buildings, campaign_part["buildings"])
    if "map" in campaign_part:
        raw_map = deep_merge(raw_map, campaign_part["map"])
    model = validate(CampaignModel, raw_campaign, f"{DATA / 'campaign.toml'}{suffix}")
    buildings = validate(BuildingsModel, raw_buildings, f"{DATA / 'buildings.toml'}{suffix}")
    map_name = game_map if isinstance(game_map, str) and game_map else "default" if game_map is None else "config"
    game_map_model = validate(MapModel, raw_map, f"map {map_name}{suffix}")
    _check_references(rules, model, buildings, game_map_model)
    return Campaign(rules, model, buildings, game_map_model)
