"""The state of a Новые Миры game as Pydantic models, with the invariants a game master's
edit must keep (docs/new_worlds.md «The state»).

The engine stores plain JSON (``NWState.model_dump(mode="json")``); the ruleset reads it back
with :func:`load_state`, which refuses a state that breaks a rule of shape or reference (a
tile that is not on the map, an owner that is not a country, a city on water) with the field
named, so that an edit that would break the game is caught before the next turn runs.

Secrets live here and nowhere else: resource deposits of epochs not yet reached, the closed
parts of the map, the game master's scheduled events and notes, and proposals between two
countries. ``views.py`` cuts them.
"""

# No ``from __future__ import annotations`` here: Pydantic would evaluate every field's
# annotation from its string, which cost `voevoda status` 6 ms for the models of this package.

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from voevoda.core.errors import GameError
from voevoda.core.rulesdata import empty_list
from voevoda.rulesets.new_worlds.mapdata import Grid, grid_from_state
from voevoda.rulesets.new_worlds.rules import FactoryKind, Religion, Rules

BIG = 10**9
CountryKind = Literal["player", "invader", "tributary", "old_believers"]
BuildingKind = Literal["port", "university", "factory"]
TreatyKind = Literal["pact", "alliance", "truce"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False, defer_build=True)


class Tile(Model):
    """What stands on one tile besides its terrain (tiles with nothing are not stored)."""

    owner: str | None = None
    city: int | None = Field(default=None, ge=0, le=10)   # upgrades of the city; None: no city
    building: BuildingKind | None = None
    factory: FactoryKind | None = None
    name: str | None = Field(default=None, max_length=60)
    taken_from: str | None = None   # the owner before the last capture («освобождённые территории»)
    slaves: int = Field(default=0, ge=0, le=100)   # «на их месте появляются рабы»

    def empty(self) -> bool:
        return (self.owner is None and self.city is None and self.building is None and self.name is None
                and self.taken_from is None and not self.slaves)


class Modifier(Model):
    """One line of a roll's ledger: what adds to (or takes from) the roll, and how much."""

    key: str
    amount: int
    count: int = 0
    detail: str = ""
    # a resource's line: who sold the units (None: on one's own land), what raised their bonus
    # (with:<resource>, factory), the multiplier and its reasons (unique, religion:<id>)
    seller: str | None = None
    boost: list[str] = Field(default_factory=empty_list)
    multiplier: int = Field(default=1, ge=1, le=BIG)
    why: list[str] = Field(default_factory=empty_list)


class Roll(Model):
    turn: int
    die: int = Field(ge=2, le=10)
    faces: list[int]
    digits: str
    pattern: str
    base: int
    modifiers: list[Modifier] = Field(default_factory=empty_list)
    total: int
    tribute_out: int = 0      # given to a suzerain or the Khagan
    tribute_in: int = 0       # received from vassals or tributaries
    aid_in: int = 0           # allies' help received last turn
    kept: int = 0             # points carried from before


class Reform(Model):
    status: Literal["civil_war", "done"]
    old_believers: str | None = None
    choice: str | None = None         # "upgrade" or a religion id
    result: Literal["reformed", "restored", "failed"] | None = None
    started: int = 0


class Country(Model):
    id: str = Field(min_length=1, max_length=60, pattern=r"^[^\s/][^/]*$")
    name: str = Field(min_length=1, max_length=60)
    name_en: str | None = Field(default=None, max_length=60)   # event countries speak both languages
    kind: CountryKind
    player: str | None = None
    color: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    own_color: str | None = None     # a Khagan's tributary: its colour before «оттенок Каганата»
    religion: Religion | None = None
    upgraded: bool = False
    original_religion: Religion | None = None     # before a suzerain imposed his
    alive: bool = True
    points: int = Field(default=0, ge=-BIG, le=BIG)
    war_points: int = Field(default=0, ge=0, le=BIG)
    roll: Roll | None = None
    research: dict[str, int] = Field(default_factory=dict)    # branch -> projects done
    research_branch: str | None = None
    research_points: int = Field(default=0, ge=0, le=BIG)
    recreated: bool = False
    may_restart: bool = False        # destroyed by the Khagan: a new civilisation is allowed
    suzerain: str | None = None
    vassal_land: list[str] = Field(default_factory=empty_list)   # «изначальные границы» of a vassal
    tribute_percent: int = Field(default=0, ge=0, le=100)
    khagan_tributary: bool = False
    war_permits: list[str] = Field(default_factory=empty_list)
    reform: Reform | None = None
    choice: Literal["khagan"] | None = None
    impositions: dict[str, int] = Field(default_factory=dict)  # Embargo: deals one may impose on a country
    event: str | None = None         # the event that made this country
    origin: str | None = None        # old believers: whose; tributaries: the Khagan
    capital: str | None = None
    created: int = 0
    bonus: int = Field(default=0, ge=-BIG, le=BIG)   # a game master's invader: its bonus a turn
    destroys_cities: bool = False    # «Морские Народы могут уничтожать города игроков.»
    gm_note: str = ""

    def title(self, lang: str = "ru") -> str:
        return self.name_en if lang != "ru" and self.name_en else self.name


class War(Model):
    id: int
    attacker: str
    defender: str
    attacker_type: str
    defender_type: str
    attacker_paid: int = 0
    defender_paid: int = 0
    started: int
    last_turn: int | None = None     # the last turn of fighting; None: until one side falls
    attacker_land: list[str] = Field(default_factory=empty_list)   # borders when the war began
    defender_land: list[str] = Field(default_factory=empty_list)
    captured: dict[str, list[str]] = Field(default_factory=dict)   # side -> tiles taken and held
    # side -> the tiles with a city or a resource it took in this war, whatever became of them
    # since (razed, lost again): «до 2 ресурсов/городов» counts what the war took (ruling R7)
    targets: dict[str, list[str]] = Field(default_factory=dict)
    linked_to: int | None = None     # a suzerain's war for his attacked vassal
    civil: bool = False


class Treaty(Model):
    kind: TreatyKind
    parties: list[str] = Field(min_length=2, max_length=2)
    since: int
    until: int | None = None   # truces: the last turn they bind


class Deal(Model):
    """A trade deal: each side gives one unit of a resource to the other («единицы одного
    ресурса на другую»)."""

    id: int
    a: str
    b: str
    a_gives: str
    b_gives: str
    since: int
    imposed: bool = False


class Offer(Model):
    """A proposal one country made that the other has not answered yet (seen by the two only)."""

    kind: Literal["pact", "alliance", "trade", "peace"]
    by: str
    to: str
    turn: int
    give: str | None = None
    get: str | None = None
    cede: list[str] = Field(default_factory=empty_list)
    held: int = Field(default=0, ge=0, le=BIG)   # the proposer's price, returned if nobody answers


class SeaPeoplesState(Model):
    status: Literal["waiting", "active", "over"] = "waiting"
    starts: int | None = None
    country: str | None = None
    continent: str | None = None
    first_turn: int | None = None


class KhaganateState(Model):
    status: Literal["waiting", "active", "over"] = "waiting"
    starts: int | None = None
    khagan: str | None = None
    tributaries: list[str] = Field(default_factory=empty_list)
    base: dict[str, int] = Field(default_factory=dict)      # a player's land when the Khaganate came
    taken: dict[str, int] = Field(default_factory=dict)     # tiles the Khaganate took from a player
    cities_taken: int = 0
    cities_lost: int = 0


class AgrarianState(Model):
    status: Literal["waiting", "active", "over"] = "waiting"
    starts: int | None = None
    wave: int = 0
    reformed: list[str] = Field(default_factory=empty_list)


class ScheduledEvent(Model):
    """A game master's event waiting to fire (hidden from players until it does)."""

    event: dict[str, Any]
    due: int | None = None


class EventsState(Model):
    sea_peoples: SeaPeoplesState = Field(default_factory=SeaPeoplesState)
    khaganate: KhaganateState = Field(default_factory=KhaganateState)
    agrarian_revolution: AgrarianState = Field(default_factory=AgrarianState)
    scheduled: list[ScheduledEvent] = Field(default_factory=empty_list)
    fired: list[str] = Field(default_factory=empty_list)
    queue: list[str] = Field(default_factory=empty_list)   # manual events the GM asked to fire


class MapState(Model):
    name: str
    title_ru: str = ""
    title_en: str = ""
    width: int = Field(ge=3, le=80)
    height: int = Field(ge=3, le=80)
    terrain: list[str]
    continents: list[str] | None = None
    continent_names: dict[str, dict[str, str]] = Field(default_factory=dict)
    regions: list[str] | None = None
    regions_info: dict[str, dict[str, Any]] = Field(default_factory=dict)
    open_regions: list[str] = Field(default_factory=empty_list)
    starts: list[str] = Field(default_factory=empty_list)
    event_places: dict[str, Any] = Field(default_factory=dict)


class Outcome(Model):
    reason: Literal["invaders", "turns", "gm", "no_countries"]
    winners: list[str]
    scores: dict[str, float] = Field(default_factory=dict)


class NWState(Model):
    ruleset: Literal["new-worlds"] = "new-worlds"
    turn: int = Field(ge=1, le=BIG)
    phase: Literal["orders"] = "orders"
    epoch: str
    epoch_since: int = Field(ge=1)
    seats: list[str]
    map: MapState
    tiles: dict[str, Tile] = Field(default_factory=dict)
    deposits: dict[str, str] = Field(default_factory=dict)
    countries: dict[str, Country]
    wars: list[War] = Field(default_factory=empty_list)
    treaties: list[Treaty] = Field(default_factory=empty_list)
    deals: list[Deal] = Field(default_factory=empty_list)
    offers: list[Offer] = Field(default_factory=empty_list)
    events: EventsState = Field(default_factory=EventsState)
    next_id: int = Field(default=1, ge=1)
    outcome: Outcome | None = None

    # -- questions --------------------------------------------------------------------------

    def grid(self) -> Grid:
        return grid_from_state(self.map.model_dump())

    def owner(self, tile: str) -> str | None:
        t = self.tiles.get(tile)
        return t.owner if t else None

    def tile(self, tile: str) -> Tile:
        """The tile's record, created empty when missing (callers that write)."""
        if tile not in self.tiles:
            self.tiles[tile] = Tile()
        return self.tiles[tile]

    def land_of(self, country: str, grid: Grid) -> list[str]:
        return grid.sort(t for t, v in self.tiles.items() if v.owner == country and grid.is_land(t))

    def all_of(self, country: str) -> list[str]:
        return [t for t, v in self.tiles.items() if v.owner == country]

    def cities_of(self, country: str) -> list[str]:
        return [t for t, v in self.tiles.items() if v.owner == country and v.city is not None]

    def buildings_of(self, country: str, kind: str) -> list[str]:
        return [t for t, v in self.tiles.items() if v.owner == country and v.building == kind]

    def players(self) -> list[Country]:
        return [c for c in self.countries.values() if c.kind == "player"]

    def living(self) -> list[Country]:
        return [c for c in self.countries.values() if c.alive]

    def country_of(self, player: str) -> Country | None:
        return self.countries.get(player)

    def wars_of(self, country: str) -> list[War]:
        return [w for w in self.wars if country in (w.attacker, w.defender)]

    def war_between(self, a: str, b: str) -> War | None:
        for w in self.wars:
            if {w.attacker, w.defender} == {a, b}:
                return w
        return None

    def treaty(self, kind: str, a: str, b: str) -> Treaty | None:
        pair = sorted((a, b))
        for t in self.treaties:
            if t.kind == kind and t.parties == pair:
                return t
        return None

    def allies_of(self, country: str) -> list[str]:
        return sorted(p for t in self.treaties if t.kind == "alliance" and country in t.parties
                      for p in t.parties if p != country)

    def vassals_of(self, country: str) -> list[str]:
        return sorted(c.id for c in self.countries.values() if c.suzerain == country and c.alive)

    def is_invader(self, country: str) -> bool:
        c = self.countries.get(country)
        return c is not None and c.kind in ("invader", "tributary")

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value


def state_problems(state: NWState) -> list[str]:
    """Every broken invariant of ``state`` that its shape cannot say, each naming its field
    as a JSON pointer (``/tiles/C5/owner: …``)."""
    problems: list[str] = []
    try:
        grid = state.grid()
    except (KeyError, IndexError, ValueError) as exc:
        return [f"/map: {exc}"]
    if len(state.map.terrain) != state.map.height or any(len(r) != state.map.width for r in state.map.terrain):
        return [f"/map/terrain: must be {state.map.height} rows of {state.map.width} tiles"]
    countries = state.countries
    for cid, c in countries.items():
        if c.id != cid:
            problems.append(f"/countries/{cid}/id: is '{c.id}'")
        if c.kind == "player" and c.player is None:
            problems.append(f"/countries/{cid}/player: a player's country names its player")
        for ref_name in ("suzerain", "origin"):
            ref = getattr(c, ref_name)
            if ref is not None and ref not in countries:
                problems.append(f"/countries/{cid}/{ref_name}: no country '{ref}'")
        if c.capital is not None and not grid.contains(c.capital):
            problems.append(f"/countries/{cid}/capital: '{c.capital}' is not a tile of the map")
    for tile, t in state.tiles.items():
        if not grid.contains(tile):
            problems.append(f"/tiles/{tile}: not a tile of the {state.map.width}x{state.map.height} map")
            continue
        if t.owner is not None and t.owner not in countries:
            problems.append(f"/tiles/{tile}/owner: no country '{t.owner}'")
        if (t.city is not None or t.building is not None) and not grid.is_land(tile):
            problems.append(f"/tiles/{tile}: a building stands on {grid.kind(tile)}")
        if (t.city is not None or t.building is not None) and t.owner is None:
            problems.append(f"/tiles/{tile}: a building without an owner")
        if (t.building == "factory") != (t.factory is not None):
            problems.append(f"/tiles/{tile}/factory: a factory needs its kind, and only a factory has one")
    for tile in state.deposits:
        if not grid.contains(tile):
            problems.append(f"/deposits/{tile}: not a tile of the map")
    for i, w in enumerate(state.wars):
        for side in (w.attacker, w.defender):
            if side not in countries:
                problems.append(f"/wars/{i}: no country '{side}'")
        for key in ("captured", "targets"):
            for side in getattr(w, key):
                if side not in (w.attacker, w.defender):
                    problems.append(f"/wars/{i}/{key}: '{side}' is not a side of this war")
    for i, treaty in enumerate(state.treaties):
        for p in treaty.parties:
            if p not in countries:
                problems.append(f"/treaties/{i}/parties: no country '{p}'")
    for i, d in enumerate(state.deals):
        for p in (d.a, d.b):
            if p not in countries:
                problems.append(f"/deals/{i}: no country '{p}'")
    for p in state.seats:
        if p not in countries:
            problems.append(f"/seats: player '{p}' has no country")
    return problems


def check_state(state: NWState, rules: Rules) -> list[str]:
    """The invariants that need the rules too: known epoch, resources, war types, branches."""
    problems: list[str] = []
    if state.epoch not in rules.epoch_ids:
        problems.append(f"/epoch: unknown epoch '{state.epoch}'")
    for tile, res in state.deposits.items():
        if res not in rules.resources:
            problems.append(f"/deposits/{tile}: unknown resource '{res}'")
    for i, w in enumerate(state.wars):
        for key in ("attacker_type", "defender_type"):
            if getattr(w, key) not in rules.war_types:
                problems.append(f"/wars/{i}/{key}: unknown war type '{getattr(w, key)}'")
    for cid, c in state.countries.items():
        for branch in c.research:
            if branch not in rules.research.branches:
                problems.append(f"/countries/{cid}/research: unknown branch '{branch}'")
        if c.research_branch is not None and c.research_branch not in rules.research.branches:
            problems.append(f"/countries/{cid}/research_branch: unknown branch '{c.research_branch}'")
    for i, d in enumerate(state.deals):
        for res in (d.a_gives, d.b_gives):
            if res not in rules.resources:
                problems.append(f"/deals/{i}: unknown resource '{res}'")
    return problems


def load_state(raw: Mapping[str, Any], rules: Rules) -> NWState:
    """The typed state, or a :class:`GameError` naming every broken field."""
    try:
        state = NWState.model_validate(raw)
    except ValidationError as exc:
        details = "; ".join(f"/{'/'.join(str(p) for p in err['loc'])}: {err['msg']}"
                            for err in exc.errors()[:10])
        raise GameError(f"состояние игры не проходит проверку: {details}",
                        f"the game state does not validate: {details}") from exc
    problems = state_problems(state) + check_state(state, rules)
    if problems:
        details = "; ".join(problems[:10])
        raise GameError(f"состояние игры не проходит проверку: {details}",
                        f"the game state does not validate: {details}")
    return state


def dump_state(state: NWState) -> dict[str, Any]:
    state.tiles = {t: v for t, v in sorted(state.tiles.items()) if not v.empty()}
    state.deposits = dict(sorted(state.deposits.items()))
    return state.model_dump(mode="json")


def names(countries: Iterable[Country]) -> list[str]:
    return sorted(c.id for c in countries)
