"""Steel Rose rules as data: the Pydantic models of data/*.toml.

``units.toml`` holds every unit and its abilities (each a named field implemented once in
:mod:`voevoda.rulesets.steel_rose.battle.engine`), ``factions.toml`` the factions and their
garrisons, ``battle.toml`` the numbers of the battle itself. A game master's house rules
deep-merge over the three files (keys ``units``, ``factions``, ``battle``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import deep_merge, read_toml, validate

DATA = Path(__file__).parent / "data"

FactionId = Literal["empire", "steel_rose", "heaven", "void_cult", "ogres"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Stack(_Strict):
    """An effect spread over rounds: ``amount`` in total over ``rounds`` rounds."""

    amount: float = Field(gt=0)
    rounds: int = Field(ge=1, le=8)

    @property
    def per_round(self) -> float:
        return self.amount / self.rounds


class Area(_Strict):
    percent: float = Field(gt=0, le=100)
    min: int = Field(ge=1)
    max: int = Field(ge=1)


class Sacrifice(_Strict):
    chance_percent: float = Field(gt=0, le=100)
    damage: float = Field(gt=0)
    targets: int = Field(ge=1)


class Debuff(_Strict):
    percent: float = Field(gt=0, lt=100)
    rounds: int = Field(ge=1, le=8)


class Burp(_Strict):
    amount: float = Field(gt=0)
    rounds: int = Field(ge=1, le=8)
    every: int = Field(ge=1)


class Summon(_Strict):
    unit: str
    every: int = Field(ge=1)


class Unit(_Strict):
    faction: FactionId
    level: int = Field(ge=1, le=3)
    name_ru: str
    name_en: str
    names: list[str] = Field(min_length=1)
    attack: int = Field(ge=0)
    health: int = Field(ge=1)
    defence: int = Field(ge=0)
    gold: int = Field(default=0, ge=0)
    unique: int = Field(default=0, ge=0)
    upkeep: float = Field(default=0, ge=0)
    meat_upkeep: int = Field(default=0, ge=0)
    void_hunger_on_hire: int = 0
    purchasable: bool = True
    # ranged fighting
    volley: bool = False
    long_volley: bool = False
    shoots_from_rearguard: bool = False
    ranged: int = Field(default=0, ge=0)
    shots: int = Field(default=0, ge=0)
    min_damage: int = Field(default=0, ge=0)
    min_damage_ranged_only: bool = False
    area: Area | None = None
    shot_compound_percent: float = 0
    ranged_debuff: Debuff | None = None
    gunpowder: int = Field(default=0, ge=0)
    # melee and manoeuvres
    charge: bool = False
    charge_first_round_percent: float = 0
    charge_percent: float = 0
    free_move: bool = False
    attacks_per_round: int = Field(default=1, ge=1)
    # damage taken
    taken_melee_percent: float = 0
    taken_shots_percent: float = 0
    taken_vs_charge_percent: float = 0
    taken_defending_percent: float = 0
    # squad auras
    squad_damage_percent: float = 0
    squad_taken_percent: float = 0
    one_per_squad: bool = False
    # effects
    heal_stack: Stack | None = None
    regeneration: float = Field(default=0, ge=0)
    poison_attacker: Stack | None = None
    burn: Stack | None = None
    shred_per_hit: int = Field(default=0, ge=0)
    heal_per_hit: float = Field(default=0, ge=0)
    lifesteal_percent: float = Field(default=0, ge=0)
    attack_compound_percent: float = 0
    sacrifice: Sacrifice | None = None
    burp: Burp | None = None
    summon: Summon | None = None
    recovery_percent: float | None = Field(default=None, ge=0, le=100)

    @model_validator(mode="after")
    def _ranged_needs_shots(self) -> Unit:
        if (self.volley or self.long_volley) and (self.ranged < 1 or self.shots < 1):
            raise ValueError("a unit that can volley needs 'ranged' and 'shots' of at least 1")
        if self.long_volley and not self.volley:
            raise ValueError("'long_volley' implies 'volley'")
        if self.shoots_from_rearguard and self.ranged < 1:
            raise ValueError("a unit that shoots from a rearguard needs 'ranged' of at least 1")
        return self

    @property
    def shooter(self) -> bool:
        """Fires from a rearguard every clash round («Если стрелки находятся в арьергарде...»):
        every unit that may volley, and ranged attackers that may not (the enlightened)."""
        return self.volley or self.shoots_from_rearguard


class Faction(_Strict):
    name_ru: str
    name_en: str
    resource_ru: str
    resource_en: str
    aliases: list[str] = Field(default_factory=list)
    squeamish_percent: float = 0
    garrison: dict[str, dict[str, Annotated[int, Field(ge=0, le=10_000)]]] = Field(default_factory=dict)
    """level -> unit -> count; at most 10,000 of a type, as for any side (battle.sides.MAX_UNITS)."""


class BattleNumbers(_Strict):
    fatigue_percent: float
    forced_march_fatigue: int
    defend_fatigue: int
    cover_percent: float
    outnumber_ratio: float
    outnumber_percent: float
    flanking_percent: float
    recovery_percent: float
    volley_gunpowder_multiplier: int
    garrison_free_powder_rounds: int
    honour_per_upkeep: float
    meat_per_enemy_death: float
    enemy_deaths_per_void_hunger: int
    max_clash_rounds: int = Field(ge=1)
    max_final_rounds: int = Field(ge=1)
    max_charge_rounds: int = Field(ge=1)


class RulesModel(_Strict):
    units: dict[str, Unit]
    factions: dict[FactionId, Faction]
    large_city_multiplier: int = Field(ge=1, le=10)
    battle: BattleNumbers

    @model_validator(mode="after")
    def _references(self) -> RulesModel:
        for fid, faction in self.factions.items():
            for level, units in faction.garrison.items():
                for uid in units:
                    if uid not in self.units:
                        raise ValueError(f"factions.{fid}.garrison.{level}: unknown unit '{uid}'")
        for uid, unit in self.units.items():
            if unit.summon and unit.summon.unit not in self.units:
                raise ValueError(f"units.{uid}.summon.unit: unknown unit '{unit.summon.unit}'")
        return self


@dataclass(frozen=True)
class Rules:
    """The validated rules of one game (data files plus house rules)."""

    model: RulesModel

    @property
    def units(self) -> dict[str, Unit]:
        return self.model.units

    @property
    def factions(self) -> dict[FactionId, Faction]:
        return self.model.factions

    @property
    def battle(self) -> BattleNumbers:
        return self.model.battle

    def recovery(self, unit_id: str) -> float:
        unit = self.units[unit_id]
        percent = unit.recovery_percent if unit.recovery_percent is not None else self.battle.recovery_percent
        return percent / 100.0

    def garrison(self, faction: str, level: int, large: bool = False) -> dict[str, int]:
        """«В больших поселениях гарнизон такой же, как и в малых, но вдвое выше численностью.»"""
        if faction not in self.factions:
            raise DataError(f"unknown faction '{faction}'")
        units = self.factions[faction].garrison.get(str(level))
        if units is None:
            raise DataError(f"faction '{faction}' has no garrison of level {level}")
        factor = self.model.large_city_multiplier if large else 1
        return {uid: count * factor for uid, count in units.items()}


def load_rules(house_rules: Mapping[str, Any] | None = None) -> Rules:
    """Read the three data files, lay the house rules over them and validate the whole."""
    raw: dict[str, Any] = {
        "units": read_toml(DATA / "units.toml")["units"],
        "battle": read_toml(DATA / "battle.toml"),
    }
    factions = read_toml(DATA / "factions.toml")
    raw["factions"] = factions["factions"]
    raw["large_city_multiplier"] = factions["large_city_multiplier"]
    source = str(DATA)
    if house_rules:
        raw = deep_merge(raw, house_rules)
        source += " + house rules"
    return Rules(validate(RulesModel, raw, source))
