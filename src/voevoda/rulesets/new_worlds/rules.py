"""The numbers of Новые Миры as validated data: the roll table, epochs, resources,
buildings, religions, war types, research, events; and the game's options.

Everything here is read from ``data/rules.toml`` and may be overridden by a game master's
house rules (deep-merged, then validated: a bad value is refused with its field named).
The options (``Options``) are the rulings of docs/rulings/new_worlds.md that a game master
may turn the other way; they come from the game's config.
"""

# No ``from __future__ import annotations`` here: Pydantic would evaluate every field's
# annotation from its string, which cost `voevoda status` 6 ms for the models of this package.

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.rulesdata import empty_list, load, validate

DATA = Path(__file__).parent / "data"

ResourceKind = Literal["military", "ordinary", "rare", "peaceful"]
FactoryKind = Literal["gold", "military", "textile", "wine"]
WarKind = Literal["defensive", "total", "limited", "vassalisation", "independence", "pacify", "punish"]
Religion = Literal["polytheism", "dualism", "monotheism"]
RELIGIONS: tuple[Religion, ...] = ("polytheism", "dualism", "monotheism")
FACTORY_KINDS: tuple[FactoryKind, ...] = ("gold", "military", "textile", "wine")
FACTORY_NAMES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # «Золотовалютный, Военный, Ткацкий и Винно-водочный»
    "gold": ("золотовалютный", "gold", ("золотовалютный", "золотой", "gold", "currency")),
    "military": ("военный", "military", ("военный", "military", "arms")),
    "textile": ("ткацкий", "textile", ("ткацкий", "textile", "weaving")),
    "wine": ("винно-водочный", "distillery", ("винно-водочный", "винный", "wine", "distillery")),
}
BIG = 10_000
"""The upper bound of any count or price in the data (a house rule cannot ask for more)."""


class Strict(BaseModel):
    # defer_build: a model's validator is built when the rules are first read, once for the
    # whole tree, not class by class at import (`voevoda status` pays for each)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Named(Strict):
    name_ru: str = Field(min_length=1)
    name_en: str = Field(min_length=1)

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en


class RollTable(Strict):
    dice: int = Field(ge=5, le=5)
    last_digit: list[int] = Field(min_length=9, max_length=9)
    zero: int = Field(ge=0, le=BIG)
    double: int = Field(ge=0, le=BIG)
    triple: int = Field(ge=0, le=BIG)
    quad: int = Field(ge=0, le=BIG)
    penta: int = Field(ge=0, le=BIG)

    @model_validator(mode="after")
    def _bounds(self) -> "RollTable":
        if any(not 0 <= v <= BIG for v in self.last_digit):
            raise ValueError(f"last_digit: every bonus must be 0..{BIG}")
        return self


class Cities(Strict):
    roll_bonus: int = Field(ge=0, le=BIG)
    upgrade_roll_bonus: int = Field(ge=0, le=BIG)


class Prices(Strict):
    territory: int = Field(ge=0, le=BIG)
    dejure: int = Field(ge=0, le=BIG)
    floor: int = Field(ge=0, le=BIG)
    city_base: int = Field(ge=0, le=BIG)
    city_step: int = Field(ge=0, le=BIG)
    upgrade_base: int = Field(ge=0, le=BIG)
    upgrade_step: int = Field(ge=0, le=BIG)
    upgrade_base_buildings: int = Field(ge=0, le=BIG)
    upgrade_step_buildings: int = Field(ge=0, le=BIG)
    port: int = Field(ge=0, le=BIG)
    university_base: int = Field(ge=0, le=BIG)
    university_step: int = Field(ge=0, le=BIG)
    factory_base: int = Field(ge=0, le=BIG)
    factory_step: int = Field(ge=0, le=BIG)
    factory_refocus_percent: int = Field(ge=0, le=100)
    buildings_per_turn: int = Field(ge=0, le=100)
    building_radius: int = Field(ge=0, le=10)


class Capture(Strict):
    territory: int = Field(ge=0, le=BIG)
    city: int = Field(ge=0, le=BIG)
    per_upgrade: int = Field(ge=0, le=BIG)


class Sea(Strict):
    coastal: int = Field(ge=0, le=BIG)
    coastal_with_port: int = Field(ge=0, le=BIG)
    ocean: int = Field(ge=0, le=BIG)


class Diplomacy(Strict):
    pact: int = Field(ge=0, le=BIG)
    pact_break: int = Field(ge=0, le=BIG)
    alliance: int = Field(ge=0, le=BIG)
    alliance_break: int = Field(ge=0, le=BIG)
    alliances_per_country: int = Field(ge=0, le=100)
    ally_aid_percent: int = Field(ge=0, le=100)
    ally_cede_per_turn: int = Field(ge=0, le=BIG)
    vassal_tribute_percent: int = Field(ge=0, le=100)
    truce_turns: int = Field(ge=0, le=100)
    truce_break_percent: int = Field(ge=0, le=100)
    trade_min_turns: int = Field(ge=0, le=100)
    offer_turns: int = Field(ge=0, le=10)


class Project(Named):
    id: str = Field(pattern=r"^[a-z_]+$")
    epoch: str
    price: int = Field(ge=0, le=BIG)


class Branch(Named):
    aliases: list[str] = Field(default_factory=empty_list)
    projects: list[Project] = Field(min_length=1, max_length=10)


class Research(Strict):
    points_per_university: int = Field(ge=0, le=BIG)
    militia_cost: int = Field(ge=0, le=BIG)
    militia_war_points: int = Field(ge=0, le=BIG)
    soft_power_bonus: int = Field(ge=0, le=BIG)
    fascism_total_war_percent: int = Field(ge=0, le=100)
    branches: dict[str, Branch]


class OpensWhen(Strict):
    cities: int = Field(default=0, ge=0, le=BIG)
    territories: int = Field(default=0, ge=0, le=BIG)
    resources: list[str] = Field(default_factory=empty_list)
    vassals: int = Field(default=0, ge=0, le=100)


class Epoch(Named):
    id: str = Field(pattern=r"^[a-z_]+$")
    die: int = Field(ge=2, le=10)
    war_points: int = Field(ge=0, le=BIG)
    war_duration: int = Field(ge=1, le=100)
    start_territories: int = Field(ge=1, le=500)
    start_cities: int = Field(ge=0, le=50)
    city_cap: int = Field(ge=-1, le=BIG)
    university_cap: int = Field(ge=-1, le=BIG)
    city_upgrades: int = Field(ge=0, le=10)
    captured_cities_destroyed: bool
    trade: bool
    ports: bool
    pacts: bool
    alliances: bool
    ocean_travel: bool
    universities: bool
    factories: bool
    reformation: bool
    slaves: bool
    new_resources: list[str]
    opens_when: OpensWhen | None = None
    opens_by_event: str | None = None


class Boost(Strict):
    """A better bonus under a condition: another resource held (``with``; ``controlled``: on
    the country's own land, not bought), a factory of the resource's kind on its continent."""

    with_: str | None = Field(default=None, alias="with")
    factory: bool = False
    controlled: bool = False
    bonus: int | None = Field(default=None, ge=0, le=BIG)
    attack: int | None = Field(default=None, ge=0, le=BIG)
    defense: int | None = Field(default=None, ge=0, le=BIG)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class Resource(Named):
    forms_ru: list[str] = Field(default_factory=empty_list)
    kind: ResourceKind
    metal: bool = False
    bonus: int = Field(default=0, ge=0, le=BIG)
    attack: int = Field(default=0, ge=0, le=BIG)
    defense: int = Field(default=0, ge=0, le=BIG)
    factory: FactoryKind | None = None
    boosts: list[Boost] = Field(default_factory=empty_list)
    water_only: bool = False
    city_discount: int = Field(default=0, ge=0, le=BIG)
    building_discount: int = Field(default=0, ge=0, le=BIG)
    on_capture_only: bool = False
    tradable: bool = True
    # the map's labels, Russian and English: two letters or more with a small letter among them,
    # so that none reads as a column of the map («Хл», not «Х» beside column «X»)
    letter: str = Field(min_length=2, max_length=3, pattern=r"^\w*[a-zа-яё]\w*$")
    letter_en: str = Field(min_length=2, max_length=3, pattern=r"^\w*[a-z]\w*$")

    def label(self, lang: str) -> str:
        return self.letter if lang == "ru" else self.letter_en


class ReligionForm(Strict):
    title_ru: str
    title_en: str
    trade_with: list[Religion] = Field(default_factory=empty_list)
    trade_multiplier: int = Field(default=1, ge=1, le=100)
    trade_metal_multiplier: int = Field(default=1, ge=1, le=100)
    peace_building_discount: int = Field(default=0, ge=0, le=BIG)
    peace_discount_upgrades: bool = False
    roll_bonus: int = Field(default=0, ge=0, le=BIG)
    war_roll_bonus: int = Field(default=0, ge=0, le=BIG)
    war_bonus_against: list[Religion] = Field(default_factory=empty_list)
    war_points_per_epoch: int = Field(default=0, ge=0, le=BIG)
    free_universities: int = Field(default=0, ge=0, le=100)

    def title(self, lang: str) -> str:
        return self.title_ru if lang == "ru" else self.title_en


class ReligionData(Named):
    forms_ru: list[str] = Field(default_factory=empty_list)
    base: ReligionForm
    upgraded: ReligionForm

    def form(self, upgraded: bool) -> ReligionForm:
        return self.upgraded if upgraded else self.base


class WarEpoch(Strict):
    price: int = Field(ge=-1, le=BIG)          # -1: the epoch's war points («Максимум ВО за эпоху»)
    territories: int | None = Field(default=None, ge=0, le=BIG)
    targets: int | None = Field(default=None, ge=0, le=BIG)
    distance: int | None = Field(default=None, ge=0, le=BIG)
    keep: int | None = Field(default=None, ge=0, le=BIG)


class WarType(Named):
    forms_ru: list[str] = Field(default_factory=empty_list)
    kind: WarKind
    declarable: bool = True
    needs_targets: bool = False
    monotheists_only: bool = False
    vassals_only: bool = False
    against: str | None = None
    upgrades_to: list[str] = Field(default_factory=empty_list)
    keep_percent: int | None = Field(default=None, ge=0, le=100)
    keep_minimum: int | None = Field(default=None, ge=0, le=BIG)
    epochs: dict[str, WarEpoch]


class SeaPeoples(Named):
    after_epoch: str
    delay: int = Field(ge=0, le=1000)
    first_turn_bonus_per_player: int = Field(ge=0, le=BIG)
    bonus_per_player: int = Field(ge=0, le=BIG)
    tiles: int = Field(ge=1, le=500)
    destroys_cities: bool
    color: str


class Khaganate(Named):
    after_epoch: str
    delay: int = Field(ge=0, le=1000)
    bonus: int = Field(ge=0, le=BIG)
    loss_per_city: int = Field(ge=0, le=BIG)
    tributaries: int = Field(ge=0, le=10)
    tiles: int = Field(ge=1, le=500)
    tributary_tiles: int = Field(ge=1, le=500)
    capture_percent: int = Field(ge=1, le=100)
    color: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    # «оттенок Каганата»: the first tributaries' shades, one each (the Khagan's colour when absent)
    tributary_colors: list[str] = Field(default_factory=empty_list)
    tributary_names_ru: list[str]
    tributary_names_en: list[str]

    @model_validator(mode="after")
    def _colors(self) -> "Khaganate":
        bad = [c for c in self.tributary_colors if not (len(c) == 7 and c[0] == "#"
                                                        and all(ch in "0123456789abcdefABCDEF" for ch in c[1:]))]
        if bad:
            raise ValueError(f"tributary_colors: not a colour #rrggbb: {', '.join(bad)}")
        return self


class Agrarian(Named):
    after_epoch: str
    delay: int = Field(ge=0, le=1000)
    first_wave: int = Field(ge=1, le=100)
    wave_step: int = Field(ge=0, le=100)
    share_dice: int = Field(ge=1, le=10)
    share_die: int = Field(ge=2, le=100)
    color: str


class CustomEffect(Strict):
    """One effect of a game master's event (docs/new_worlds.md «Events»)."""

    kind: Literal["message", "points", "war_points", "resource", "remove_resource", "open_region",
                  "epoch", "invader"]
    countries: list[str] = Field(default_factory=lambda: ["*"])
    amount: int = Field(default=0, ge=-BIG, le=BIG)
    tile: str | None = None
    resource: str | None = None
    region: str | None = None
    epoch: str | None = None
    id: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")
    name_ru: str | None = None
    name_en: str | None = None
    tiles: list[str] = Field(default_factory=empty_list)
    bonus: int = Field(default=0, ge=-BIG, le=BIG)
    bonus_per_player: int = Field(default=0, ge=-BIG, le=BIG)
    color: str = "#555555"
    destroys_cities: bool = False


class CustomEvent(Named):
    """An event the game master adds as data: when it fires and what it does."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    turn: int | None = Field(default=None, ge=1, le=BIG)
    after_epoch: str | None = None
    delay: int = Field(default=0, ge=0, le=1000)
    manual: bool = False
    message_ru: str = ""
    message_en: str = ""
    effects: list[CustomEffect] = Field(default_factory=empty_list, max_length=100)

    @model_validator(mode="after")
    def _trigger(self) -> "CustomEvent":
        given = sum(x for x in (self.turn is not None, self.after_epoch is not None, self.manual))
        if given != 1:
            raise ValueError(f"event {self.id}: give exactly one of turn, after_epoch or manual = true")
        return self


class Events(Strict):
    sea_peoples: SeaPeoples
    khaganate: Khaganate
    agrarian_revolution: Agrarian
    custom: list[CustomEvent] = Field(default_factory=empty_list, max_length=200)


class Colors(Strict):
    players: list[str] = Field(min_length=1)


class Rules(Strict):
    roll: RollTable
    cities: Cities
    prices: Prices
    capture: Capture
    sea: Sea
    diplomacy: Diplomacy
    research: Research
    epochs: list[Epoch] = Field(min_length=1, max_length=20)
    resources: dict[str, Resource]
    religions: dict[Religion, ReligionData]
    war_types: dict[str, WarType]
    events: Events
    colors: Colors

    @model_validator(mode="after")
    def _references(self) -> "Rules":
        epochs = [e.id for e in self.epochs]
        if len(set(epochs)) != len(epochs):
            raise ValueError("epochs: an id repeats")
        for e in self.epochs:
            unknown = [r for r in e.new_resources if r not in self.resources]
            if unknown:
                raise ValueError(f"epochs.{e.id}.new_resources: unknown resource {', '.join(unknown)}")
            if e.opens_when:
                bad = [r for r in e.opens_when.resources if r not in self.resources]
                if bad:
                    raise ValueError(f"epochs.{e.id}.opens_when.resources: unknown resource {', '.join(bad)}")
            if e.opens_by_event and e.opens_by_event not in ("sea_peoples", "khaganate", "agrarian_revolution"):
                raise ValueError(f"epochs.{e.id}.opens_by_event: unknown event {e.opens_by_event}")
        missing = [r for r in RELIGIONS if r not in self.religions]
        if missing:
            raise ValueError(f"religions: missing {', '.join(missing)}")
        for rid, res in self.resources.items():
            for b in res.boosts:
                if b.with_ is not None and b.with_ not in self.resources:
                    raise ValueError(f"resources.{rid}.boosts: unknown resource {b.with_}")
                if b.factory and res.factory is None:
                    raise ValueError(f"resources.{rid}.boosts: a factory boost needs `factory` on the resource")
        for key in ("defensive", "total"):
            if key not in self.war_types:
                raise ValueError(f"war_types: missing {key}")
        for wid, war in self.war_types.items():
            for ep in war.epochs:
                if ep not in epochs:
                    raise ValueError(f"war_types.{wid}.epochs: unknown epoch {ep}")
            for target in war.upgrades_to:
                if target != "*" and target not in self.war_types:
                    raise ValueError(f"war_types.{wid}.upgrades_to: unknown war type {target}")
            if war.against is not None and war.against not in self.war_types:
                raise ValueError(f"war_types.{wid}.against: unknown war type {war.against}")
        for bid, branch in self.research.branches.items():
            for p in branch.projects:
                if p.epoch not in epochs:
                    raise ValueError(f"research.branches.{bid}: unknown epoch {p.epoch}")
        ev = self.events
        for name, after in (("sea_peoples", ev.sea_peoples.after_epoch), ("khaganate", ev.khaganate.after_epoch),
                            ("agrarian_revolution", ev.agrarian_revolution.after_epoch)):
            if after not in epochs:
                raise ValueError(f"events.{name}.after_epoch: unknown epoch {after}")
        ids = [c.id for c in ev.custom]
        if len(set(ids)) != len(ids):
            raise ValueError("events.custom: an id repeats")
        for c in ev.custom:
            if c.after_epoch is not None and c.after_epoch not in epochs:
                raise ValueError(f"events.custom.{c.id}.after_epoch: unknown epoch {c.after_epoch}")
            for eff in c.effects:
                if eff.resource is not None and eff.resource not in self.resources:
                    raise ValueError(f"events.custom.{c.id}: unknown resource {eff.resource}")
                if eff.epoch is not None and eff.epoch not in epochs:
                    raise ValueError(f"events.custom.{c.id}: unknown epoch {eff.epoch}")
                if eff.kind == "invader" and (eff.id is None or not eff.tiles):
                    raise ValueError(f"events.custom.{c.id}: an invader needs an id and tiles")
        return self

    # -- lookups --------------------------------------------------------------------------

    @cached_property
    def epoch_ids(self) -> list[str]:
        return [e.id for e in self.epochs]

    def epoch(self, epoch_id: str) -> Epoch:
        for e in self.epochs:
            if e.id == epoch_id:
                return e
        raise KeyError(epoch_id)

    def epoch_index(self, epoch_id: str) -> int:
        return self.epoch_ids.index(epoch_id)

    def resource_epoch(self, resource: str) -> str | None:
        """The epoch a resource appears in (``None``: it never appears by itself)."""
        for e in self.epochs:
            if resource in e.new_resources:
                return e.id
        return None

    def war_price(self, war_type: str, epoch: Epoch) -> int | None:
        """The price of ``war_type`` in ``epoch``, or ``None`` where it cannot be waged."""
        entry = self.war_types[war_type].epochs.get(epoch.id)
        if entry is None:
            return None
        return epoch.war_points if entry.price < 0 else entry.price

    def project(self, project_id: str) -> tuple[str, int, Project]:
        """(branch, index in branch, project)."""
        for bid, branch in self.research.branches.items():
            for i, p in enumerate(branch.projects):
                if p.id == project_id:
                    return bid, i, p
        raise KeyError(project_id)


class CountrySetup(Strict):
    """A country as the game master sets it up for a player (all optional)."""

    name: str | None = Field(default=None, min_length=1, max_length=60)
    religion: Religion | None = None
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")
    start: str | None = None


class Options(Strict):
    """The game's options: the rulings of docs/rulings/new_worlds.md a game master may turn
    the other way, the map and the countries."""

    map_name: str = "default"
    map: dict[str, Any] | None = None
    countries: dict[str, CountrySetup] = Field(default_factory=dict)
    start_epoch: str = "bronze"
    max_turns: int | None = Field(default=None, ge=1, le=BIG)
    pattern_bonus: Literal["replace", "add"] = "replace"
    city_upgrade_cost: Literal["epoch", "buildings"] = "epoch"
    war_model: Literal["contest", "purchase"] = "contest"
    carry_over: bool = True
    sea_cost: Literal["per_tile", "per_trip"] = "per_tile"
    old_believers_share: Literal["sum", "last_two"] = "sum"
    reformation_waves: Literal["step", "triple"] = "step"
    khaganate_bonus_loss: Literal["cities_taken", "cities_lost"] = "cities_taken"
    trade_ports: Literal["either", "both"] = "either"
    trade_multipliers: Literal["multiply", "add"] = "multiply"
    dualism_roll_bonus: Literal["peace", "always"] = "always"
    capture_order: Literal["skip", "stop"] = "skip"
    capture_reach: Literal["front", "chain"] = "front"
    contested_tiles: Literal["neighbours", "nobody"] = "neighbours"
    grab_count: Literal["taken", "held"] = "taken"
    first_turn_defence: Literal["answer", "none"] = "answer"


def load_rules(house_rules: Mapping[str, Any] | None = None) -> Rules:
    return load(Rules, DATA / "rules.toml", house_rules or {})


def load_options(config: Mapping[str, Any], rules: Rules) -> Options:
    known = set(Options.model_fields)
    relevant = {k: v for k, v in config.items() if k in known}
    options = validate(Options, relevant, "config")
    if options.start_epoch not in rules.epoch_ids:
        from voevoda.core.errors import DataError

        raise DataError(f"config start_epoch: unknown epoch '{options.start_epoch}' "
                        f"(epochs: {', '.join(rules.epoch_ids)})")
    return options
