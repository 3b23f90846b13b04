"""The numbers of Кольцо Власти as validated data: units, prices, income, map, options.

Everything here is read from ``data/rules.toml`` and ``data/maps/*.toml`` and may be
overridden by a game master's house rules; game options (the rulings a game master may
turn the other way) come from the game's config.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import load, read_house_rules, validate
from voevoda.rulesets.ring_of_power.board import HEX_RE, Board

DATA = Path(__file__).parent / "data"
UNIT_KINDS = ("pawn", "officer", "queen", "condottiere")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitStats(_Strict):
    name_ru: str
    name_en: str
    letter_ru: str
    letter_en: str
    refund: int = Field(ge=0)
    upkeep: int = Field(ge=0)
    income_influence: int
    strength: int = Field(ge=1)
    command: int = Field(ge=-1)
    commands: list[str]

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def letter(self, lang: str) -> str:
        return self.letter_ru if lang == "ru" else self.letter_en


class Prices(_Strict):
    move: int = Field(ge=0)
    support: int = Field(ge=0)
    disband: int = Field(ge=0)
    raise_base: int = Field(ge=0)
    raise_per_pawn: int = Field(ge=0)
    upgrade_per_pawn: int = Field(ge=0)
    transfer_fee_percent: int = Field(ge=0, le=100)


class Income(_Strict):
    base: int = Field(ge=0)
    hostile_gain: int = Field(ge=0)
    victim_loss: int = Field(ge=0)
    mutual_loss: int = Field(ge=0)
    raise_penalty: int = Field(ge=0, le=100)
    max_raise: int = Field(ge=1, le=1000)


class Tax(_Strict):
    percent: int = Field(ge=0, le=100)


class Upgrade(_Strict):
    turns: int = Field(ge=1)


class Capture(_Strict):
    stand_turns: int = Field(ge=0)


class Movement(_Strict):
    max_steps: int = Field(ge=1, le=100)


class StartUnit(_Strict):
    holding: int = Field(ge=0)
    type: Literal["pawn", "officer", "queen"]


class Start(_Strict):
    money: int = Field(ge=0)
    units: list[StartUnit]


class Condottieri(_Strict):
    first_offer_turn: int = Field(ge=1)
    interval: int = Field(ge=1)
    size_min: int = Field(ge=1, le=1000)
    size_max: int = Field(ge=1, le=1000)
    upkeep_min: int = Field(ge=0)
    upkeep_max: int = Field(ge=0)
    min_bid: int = Field(ge=1)

    @model_validator(mode="after")
    def _ranges(self) -> Condottieri:
        if self.size_max < self.size_min:
            raise ValueError("size_max is below size_min")
        if self.upkeep_max < self.upkeep_min:
            raise ValueError("upkeep_max is below upkeep_min")
        return self


class ChupacabraOdds(_Strict):
    move: float = Field(ge=0, le=1)
    leave: float = Field(ge=0, le=1)
    eat: float = Field(ge=0, le=1)
    kill: float = Field(ge=0, le=1)
    kill_per_strength: float = Field(ge=0, le=1)


class Chupacabra(_Strict):
    initial: int = Field(ge=0, le=100)
    breed_after: int = Field(ge=1, le=1000)
    fog: ChupacabraOdds
    open: ChupacabraOdds


class Victory(_Strict):
    ring_size: int = Field(ge=1)


class Colors(_Strict):
    players: list[str] = Field(min_length=1)


class Rules(_Strict):
    units: dict[str, UnitStats]
    prices: Prices
    income: Income
    tax: Tax
    upgrade: Upgrade
    capture: Capture
    movement: Movement
    start: Start
    condottieri: Condottieri
    chupacabra: Chupacabra
    victory: Victory
    colors: Colors

    @model_validator(mode="after")
    def _units(self) -> Rules:
        missing = [k for k in UNIT_KINDS if k not in self.units]
        if missing:
            raise ValueError(f"units: missing {', '.join(missing)}")
        for kind, stats in self.units.items():
            unknown = [c for c in stats.commands if c not in self.units]
            if unknown:
                raise ValueError(f"units.{kind}.commands: unknown kind {', '.join(unknown)}")
        return self


class StartPosition(_Strict):
    holdings: list[str] = Field(min_length=1)


class MapData(_Strict):
    name: str
    title_ru: str = ""
    title_en: str = ""
    width: int = Field(ge=3, le=99)
    height: int = Field(ge=3, le=99)
    fog: list[str] = Field(default_factory=list)
    income: dict[str, int] = Field(default_factory=dict)
    starts: list[StartPosition] = Field(min_length=1)

    @model_validator(mode="after")
    def _on_board(self) -> MapData:
        board = Board(self.width, self.height)
        for i, start in enumerate(self.starts):
            for h in start.holdings:
                if not board.contains(h):
                    raise ValueError(f"starts.{i}.holdings: {h} is not a hex of the {self.width}x{self.height} board")
        for h in self.fog:
            if not board.contains(h):
                raise ValueError(f"fog: {h} is not a hex of the board")
        for h, value in self.income.items():
            if not HEX_RE.match(h) or not board.contains(h):
                raise ValueError(f"income: {h} is not a hex of the board")
            if value < 0:
                raise ValueError(f"income.{h}: must not be negative")
        seen: set[str] = set()
        for i, start in enumerate(self.starts):
            overlap = seen & set(start.holdings)
            if overlap:
                raise ValueError(f"starts.{i}.holdings: {', '.join(sorted(overlap))} already belongs to another start")
            seen |= set(start.holdings)
        return self


class Options(_Strict):
    """The game's options: the rulings of docs/rulings/ring_of_power.md a game master
    may turn the other way, and the map."""

    upgrade_turns: int | None = Field(default=None, ge=1)
    tax_mode: Literal["order", "withheld"] = "order"
    combat_order: Literal["weakest_first", "strongest_first"] = "weakest_first"
    ring_shape: Literal["rosette", "connected"] = "rosette"
    support_reach: Literal["hex", "units"] = "hex"
    chupacabra_eats: Literal["stack", "unit"] = "unit"
    chupacabra_breeds_on: Literal["units", "stacks"] = "units"
    raise_limit: Literal["hex", "player"] = "hex"
    rounding: Literal["nearest", "up"] = "nearest"
    condottieri_arrive: Literal["holding", "near"] = "holding"
    max_turns: int | None = Field(default=None, ge=1)
    chronicle: Literal["names", "full", "none"] = "none"
    map_name: str = "default"
    map: dict[str, Any] | None = None


def load_rules(house_rules: Mapping[str, Any] | None = None) -> Rules:
    return load(Rules, DATA / "rules.toml", house_rules or {})


def load_map(name: str = "default", inline: Mapping[str, Any] | None = None) -> MapData:
    """A packaged map by name, or a map given inline in the game's config."""
    if inline is not None:
        return validate(MapData, inline, "config map")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise DataError(f"config map_name: '{name}' is not a map name")
    path = DATA / "maps" / f"{name}.toml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in (DATA / "maps").glob("*.toml")))
        raise DataError(f"config map_name: no map '{name}' (maps: {known})")
    return load(MapData, path)


def read_map_file(path: Path) -> MapData:
    """A map from a TOML, JSON or YAML file (for tools that hand it to the config)."""
    return validate(MapData, read_house_rules(path), str(path))


def load_options(config: Mapping[str, Any]) -> Options:
    known = set(Options.model_fields)
    relevant = {k: v for k, v in config.items() if k in known}
    return validate(Options, relevant, "config")
