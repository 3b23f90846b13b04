"""The numbers of the Thrones companion as validated data: units, prices, dues, supply, houses,
tracks, holy places, the fourth Westeros deck, the board, and the game's options.

Everything is read from ``data/rules.toml`` (overridden by a game master's house rules),
``data/westeros-2e.json`` (the published board, validated here) and ``data/board.toml`` (the
Russian names and the drawing of each area). The options are the rulings of
``docs/rulings/thrones.md`` a table may turn the other way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import deep_merge, read_toml, validate

DATA = Path(__file__).parent / "data"
UNIT_KINDS = ("footman", "knight", "ship", "siege")
UnitKind = Literal["footman", "knight", "ship", "siege"]
LAND_UNITS = ("footman", "knight", "siege")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- the board -------------------------------------------------------------------------------------

class AreaFact(_Strict):
    """One area of ``westeros-2e.json``."""

    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name: str = Field(min_length=1)
    type: Literal["land", "sea", "port"]
    castle_level: int = Field(default=0, ge=0, le=2)
    supply: int = Field(default=0, ge=0, le=3)
    crowns: int = Field(default=0, ge=0, le=3)
    garrison: int = Field(default=0, ge=0, le=9)
    home_of: str | None = None


class BoardFacts(_Strict):
    about: str
    areas: list[AreaFact] = Field(min_length=2)
    borders: list[tuple[str, str]]

    @model_validator(mode="after")
    def _consistent(self) -> BoardFacts:
        ids = [a.id for a in self.areas]
        if len(ids) != len(set(ids)):
            raise ValueError("areas: an id repeats")
        kind = {a.id: a.type for a in self.areas}
        seen: set[frozenset[str]] = set()
        near: dict[str, set[str]] = {a: set() for a in ids}
        for i, (a, b) in enumerate(self.borders):
            for end in (a, b):
                if end not in kind:
                    raise ValueError(f"borders.{i}: no area '{end}'")
            if a == b:
                raise ValueError(f"borders.{i}: an area borders itself")
            pair = frozenset((a, b))
            if pair in seen:
                raise ValueError(f"borders.{i}: {a}–{b} is listed twice")
            seen.add(pair)
            near[a].add(b)
            near[b].add(a)
        for area in self.areas:
            if area.type != "land" and (area.castle_level or area.supply or area.crowns or area.garrison):
                raise ValueError(f"areas.{area.id}: only a land has castles, supply, crowns or a garrison")
            if area.type == "port":
                lands = [n for n in near[area.id] if kind[n] == "land"]
                seas = [n for n in near[area.id] if kind[n] == "sea"]
                if len(lands) != 1 or len(seas) != 1 or len(near[area.id]) != 2:
                    raise ValueError(f"areas.{area.id}: a port borders exactly its land and one sea")
            if not near[area.id]:
                raise ValueError(f"areas.{area.id}: borders nothing")
        return self


class AreaDrawing(_Strict):
    """One area of ``board.toml``: its Russian name, other names, and where it is drawn."""

    ru: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    x: float = Field(ge=0, le=2000)
    y: float = Field(ge=0, le=3000)


class BoardNames(_Strict):
    areas: dict[str, AreaDrawing]


# -- the rules -------------------------------------------------------------------------------------

class UnitStats(_Strict):
    name_ru: str
    name_en: str
    plural_en: str | None = None
    letter_ru: str = Field(min_length=1, max_length=2)
    letter_en: str = Field(min_length=1, max_length=2)
    nominal: int = Field(ge=0, le=1000)
    sale: int = Field(ge=0, le=1000)
    sites: Literal["castle", "stronghold"]
    upgrade_from: UnitKind | None = None
    forms: list[str] = Field(min_length=1)

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def letter(self, lang: str) -> str:
        return self.letter_ru if lang == "ru" else self.letter_en


class Game(_Strict):
    turns: int = Field(ge=1, le=100)
    castles_to_win: int = Field(ge=1, le=50)


class Economy(_Strict):
    start_power: int = Field(ge=0, le=1000)
    tokens: int = Field(ge=1, le=1000)

    @model_validator(mode="after")
    def _fits(self) -> Economy:
        if self.start_power > self.tokens:
            raise ValueError("start_power is more than the tokens a house owns")
        return self


class Dues(_Strict):
    loner: int = Field(ge=0, le=1000)
    all_alone: int = Field(ge=0, le=1000)
    by_size: dict[str, int]
    step: int = Field(ge=0, le=1000)

    @model_validator(mode="after")
    def _sizes(self) -> Dues:
        for key, value in self.by_size.items():
            if not key.isdigit() or int(key) < 2:
                raise ValueError(f"by_size: '{key}' is not an alliance size (2 or more)")
            if not 0 <= value <= 1000:
                raise ValueError(f"by_size.{key}: {value} is out of 0..1000")
        if not self.by_size:
            raise ValueError("by_size: empty")
        return self


class Supply(_Strict):
    limits: list[list[int]] = Field(min_length=1)

    @model_validator(mode="after")
    def _armies(self) -> Supply:
        for i, row in enumerate(self.limits):
            if any(not 2 <= n <= 20 for n in row):
                raise ValueError(f"limits.{i}: an army holds 2 to 20 units")
        return self


class House(_Strict):
    name_ru: str
    name_en: str
    color: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    home: str

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en


class Tracks(_Strict):
    iron_throne: list[str]
    fiefdoms: list[str]
    kings_court: list[str]


class Placement(_Strict):
    """Units of one house in one area at the start (``data/setup.toml``)."""

    area: str = Field(min_length=1, max_length=100)
    footman: int = Field(default=0, ge=0, le=20)
    knight: int = Field(default=0, ge=0, le=20)
    ship: int = Field(default=0, ge=0, le=20)
    siege: int = Field(default=0, ge=0, le=20)

    def units(self) -> dict[str, int]:
        return {kind: getattr(self, kind) for kind in UNIT_KINDS}


class HouseSetup(_Strict):
    """One house's starting position: its units, and the supply track position and power
    tokens in hand when the table's box says other than the companion derives (ruling T26)."""

    units: list[Placement]
    supply: int | None = Field(default=None, ge=0, le=20)
    power: int | None = Field(default=None, ge=0, le=1000)


class Setup(_Strict):
    """The starting position the table copies from its own box (``data/setup.toml``, ruling T26):
    which houses play with fewer than six players, each house's units, the influence tracks."""

    seating: list[str] = Field(min_length=3)
    houses: dict[str, HouseSetup]
    tracks: Tracks


TRACKS = ("iron_throne", "fiefdoms", "kings_court")


class Holy(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name_ru: str
    name_en: str
    letter_ru: str = Field(min_length=1, max_length=2)
    letter_en: str = Field(min_length=1, max_length=2)
    unit: UnitKind
    terrain: Literal["land", "sea"]

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def letter(self, lang: str) -> str:
        return self.letter_ru if lang == "ru" else self.letter_en


class Card(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)
    name_ru: str = Field(min_length=1, max_length=200)
    name_en: str = Field(min_length=1, max_length=200)
    effect: Literal["none", "kings_road", "littlefinger", "holy"]
    holy: str | None = None
    count: int = Field(default=1, ge=0, le=20)
    text_ru: str = Field(default="", max_length=2000)
    text_en: str = Field(default="", max_length=2000)
    forms: list[str] = Field(default_factory=list)

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def text(self, lang: str) -> str:
        return self.text_ru if lang == "ru" else self.text_en

    @model_validator(mode="after")
    def _holy(self) -> Card:
        if (self.effect == "holy") != (self.holy is not None):
            raise ValueError(f"{self.id}: a card with effect 'holy' names its token in `holy`, and only such a card")
        return self


class Deck(_Strict):
    cards: list[Card]
    extra: list[Card] = Field(default_factory=list)

    def all(self) -> list[Card]:
        return [*self.cards, *self.extra]


Terrain = Literal["land", "sea", "port"]


class Combat(_Strict):
    """The base game's battle numbers the companion adds up (ruling T28). Neither document 001 nor
    the board data give them: they are the table's (``data/setup.toml``), like the starting
    position, and a table checks them against its own rulebook."""

    strength: dict[str, int]
    """Each unit's combat strength in a battle."""
    siege_vs_castle: int = Field(ge=0, le=20)
    """A siege tower's strength when it attacks, or supports an attack on, an area with a castle or
    a stronghold (``strength.siege`` elsewhere)."""
    support_reach: dict[Terrain, list[Literal["land", "sea"]]]
    """From which kind of area a support order reaches a battle on land or at sea."""
    tie_track: Literal["", "iron_throne", "fiefdoms", "kings_court"]
    """The influence track whose higher house wins equal strength; "" leaves a tie to the table."""

    @model_validator(mode="after")
    def _every_unit(self) -> Combat:
        missing = [k for k in UNIT_KINDS if k not in self.strength]
        extra = [k for k in self.strength if k not in UNIT_KINDS]
        if missing or extra:
            raise ValueError(f"strength: missing {', '.join(missing) or '—'}; unknown {', '.join(extra) or '—'}")
        if any(not 0 <= v <= 20 for v in self.strength.values()):
            raise ValueError("strength: each unit's strength is 0 to 20")
        return self

    def unit(self, kind: str, attacking_castle: bool) -> int:
        if kind == "siege" and attacking_castle:
            return self.siege_vs_castle
        return self.strength[kind]


class Rules(_Strict):
    game: Game
    economy: Economy
    units: dict[str, UnitStats]
    dues: Dues
    supply: Supply
    houses: dict[str, House]
    setup: Setup
    holy: list[Holy]
    deck: Deck
    combat: Combat

    @model_validator(mode="after")
    def _references(self) -> Rules:
        missing = [k for k in UNIT_KINDS if k not in self.units]
        extra = [k for k in self.units if k not in UNIT_KINDS]
        if missing or extra:
            raise ValueError(f"units: missing {', '.join(missing) or '—'}; unknown {', '.join(extra) or '—'}")
        if sorted(self.setup.seating) != sorted(self.houses):
            raise ValueError("setup.seating: must list every house once")
        if sorted(self.setup.houses) != sorted(self.houses):
            raise ValueError("setup.houses: must give every house's position once")
        for track in TRACKS:
            if sorted(getattr(self.setup.tracks, track)) != sorted(self.houses):
                raise ValueError(f"setup.tracks.{track}: must list every house once")
        for hid, house in self.setup.houses.items():
            if house.power is not None and house.power > self.economy.tokens:
                raise ValueError(f"setup.houses.{hid}.power: more than the {self.economy.tokens} tokens a house owns")
            if house.supply is not None and house.supply >= len(self.supply.limits):
                raise ValueError(f"setup.houses.{hid}.supply: the supply track has positions "
                                 f"0 to {len(self.supply.limits) - 1}")
        holy_ids = [h.id for h in self.holy]
        if len(holy_ids) != len(set(holy_ids)):
            raise ValueError("holy: an id repeats")
        for lang in ("ru", "en"):
            letters = [h.letter(lang) for h in self.holy]
            units = {u.letter(lang) for u in self.units.values()}
            if len(letters) != len(set(letters)) or units & set(letters):
                raise ValueError(f"holy: each holy place needs a map letter of its own, no unit's (letter_{lang})")
        cards = self.deck.all()
        ids = [c.id for c in cards]
        if len(ids) != len(set(ids)):
            raise ValueError("deck: a card id repeats")
        if not any(c.count for c in cards):
            raise ValueError("deck: no card at all")
        for card in cards:
            if card.holy is not None and card.holy not in holy_ids:
                raise ValueError(f"deck: card {card.id} names no holy place '{card.holy}'")
        return self

    def card(self, card_id: str) -> Card:
        for card in self.deck.all():
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def holy_place(self, holy_id: str) -> Holy:
        for h in self.holy:
            if h.id == holy_id:
                return h
        raise KeyError(holy_id)

    def dues_for(self, size: int, reading: str = "per_member") -> int:
        """What each member of an alliance of ``size`` pays the Night's Watch (ruling T8)."""
        if size <= 1:
            return self.dues.loner
        table = {int(k): v for k, v in self.dues.by_size.items()}
        if size in table:
            return table[size]
        top = max(table)
        if size < top:
            below = max(k for k in table if k < size)
            return table[below] + self.dues.step * (size - below)
        if reading == "alliance":
            # the whole alliance pays `step` more for each ally beyond the table, shared out
            extra = self.dues.step * (size - top)
            return table[top] + -(-extra // size)
        return table[top] + self.dues.step * (size - top)


class Options(_Strict):
    """The game's config: who plays which house, and the rulings of docs/rulings/thrones.md a
    table may turn the other way."""

    houses: dict[str, str] | None = None
    """{player: house id}; by default the houses of ``setup.seating`` in seat order."""
    turns: int | None = Field(default=None, ge=1, le=100)
    holy_lands: bool = True
    diplomacy: Literal["in_order", "together"] = "in_order"
    bribes: Literal["in_order", "together"] = "in_order"
    deck_draw: Literal["companion", "table"] = "companion"
    knight_sites: Literal["stronghold", "castle"] = "stronghold"
    upgrade_price: Literal["difference", "full"] = "difference"
    consolidate: Literal["plus_one", "base_added"] = "plus_one"
    loners_count: Literal["all_alliances", "largest"] = "all_alliances"
    dues_growth: Literal["per_member", "alliance"] = "per_member"
    road_destination: Literal["empty", "any"] = "empty"
    road_through_own: bool = True
    passage_to_own: bool = True
    passage_nearest: Literal["next", "shortest"] = "next"
    siege_escort: Literal["one", "each"] = "one"
    holy_bonus: Literal["each", "once"] = "each"
    bribe_stake: Literal["reserve", "target"] = "reserve"


def load_rules(house_rules: Mapping[str, Any] | None = None) -> Rules:
    """``rules.toml`` (the document's numbers and the rulings), with ``setup.toml`` (the table's
    box: starting position, supply track, tokens per house) laid over it, then the house rules."""
    raw = deep_merge(read_toml(DATA / "rules.toml"), read_toml(DATA / "setup.toml"))
    source = f"{DATA / 'rules.toml'} + setup.toml"
    if house_rules:
        raw = deep_merge(raw, house_rules)
        source += " + house rules"
    return validate(Rules, raw, source)


def load_options(config: Mapping[str, Any]) -> Options:
    known = set(Options.model_fields)
    relevant = {k: v for k, v in config.items() if k in known}
    return validate(Options, relevant, "config")


@cache
def board_facts() -> BoardFacts:
    """``westeros-2e.json``, validated."""
    path = DATA / "westeros-2e.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: {exc}") from exc
    try:
        return BoardFacts.model_validate(raw)
    except ValidationError as exc:
        details = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in exc.errors())
        raise DataError(f"{path}: {details}") from exc


@cache
def board_names() -> BoardNames:
    """``board.toml``, validated against the board: every area named and drawn, nothing else."""
    path = DATA / "board.toml"
    names = validate(BoardNames, read_toml(path), str(path))
    ids = {a.id for a in board_facts().areas}
    missing = sorted(ids - set(names.areas))
    extra = sorted(set(names.areas) - ids)
    if missing or extra:
        raise DataError(f"{path}: areas missing: {', '.join(missing) or '—'}; not on the board: {', '.join(extra) or '—'}")
    return names
