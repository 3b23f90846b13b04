"""The campaign's state as Pydantic models, with the invariants a game master's edit must keep.

The engine stores plain JSON; :func:`load_state` validates it into :class:`CampaignState` (every
field typed and bounded, and the cross-field invariants of :meth:`CampaignState._invariants`),
the turn code works on the models, and :func:`dump_state` turns them back into plain data.
Identical states dump to identical data (lists are kept in a fixed order).

What each part is, and who may see it (the view cuts the rest, :mod:`.views`):

* ``cities``: type, size, level, owner, ruins, floating — public («Состав и тип городов у всех
  фракций»); buildings and the standing garrison placement — the owner only; corruption — the
  Void Cult only, and a faction whose detection found it (its ``intel``).
* ``factions``: seat, status and alliances — public; treasury, unique resource, units, armies
  and everything the faction learnt — the faction only («Игрокам НЕдоступна ... Баланс
  противников»).
* ``battles`` and ``captures`` of the turn: which city, who attacks, who defends, the outcome —
  public; the armies, deployments and plans — the two sides (the enemy's deployment only after
  both deployed, its plan after the battle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from voevoda.core.errors import DataError

FACTION_IDS = ("empire", "steel_rose", "heaven", "void_cult", "ogres")


def _faction(value: str) -> str:
    if value not in FACTION_IDS:
        raise ValueError(f"unknown faction '{value}' (known: {', '.join(FACTION_IDS)})")
    return value


FactionId = Annotated[str, AfterValidator(_faction)]

Phase = Literal["orders", "deployment", "planning", "capture", "over"]
Status = Literal["playing", "won", "out", "idle"]
"""``idle``: a faction nobody plays (fewer than five players): its cities keep their garrisons,
it takes no turn and cannot win."""
CAPTURE_CHOICES = ("colonise", "plunder", "raze", "raze_abandon")


def _choice(value: str) -> str:
    if value not in CAPTURE_CHOICES:
        raise ValueError(f"unknown capture choice '{value}' (known: {', '.join(CAPTURE_CHOICES)})")
    return value


CaptureChoice = Annotated[str, AfterValidator(_choice)]
ArmyAction = Literal["attack", "defend", "disperse"]

MAX = 10_000_000


ARMY_NAME = 60
"""The longest name of an army (a post naming a longer one is refused)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _counts(units: Mapping[str, int], where: str) -> None:
    for uid, n in units.items():
        if not 0 < n <= MAX:
            raise ValueError(f"{where}.{uid}: a unit count must be from 1 to {MAX}")


class City(_Model):
    id: str
    kind: Literal["small", "large", "mobile"]
    level: int = Field(ge=1, le=3)
    owner: FactionId | None = None
    ruins: bool = False
    gone: bool = False
    buildings: list[str] = Field(default_factory=list, max_length=10)
    corruption: int = Field(default=0, ge=0, le=1000)
    floating: bool = False
    idle_turn: int = Field(default=0, ge=0, le=MAX)
    """The turn whose income the city does not bring (a restoration's, a plunder's: ruling C16)."""
    idle_next: int = Field(default=0, ge=0, le=MAX)
    """The turn after a plunder, under the option ``plunder_income = "next_turn"`` (C16's literal
    reading: «В следующем ходу город дохода не принесёт»)."""
    quest_void: bool = False
    placement: list[dict[str, Any]] = Field(default_factory=list, max_length=6)
    road: list[str] | None = Field(default=None, min_length=2, max_length=2)


Pair = Annotated[list[FactionId], Field(min_length=2, max_length=2)]
"""Two factions (an alliance, or two that fought last turn), sorted."""


class Proposal(_Model):
    """An alliance offered by ``by`` to ``to`` in ``turn`` (ruling C19)."""

    by: FactionId
    to: FactionId
    turn: int = Field(ge=0, le=MAX)


class Army(_Model):
    id: str
    faction: FactionId
    name: str = Field(max_length=ARMY_NAME)
    units: dict[str, int] = Field(default_factory=dict)
    action: ArmyAction = "disperse"
    target: str | None = None
    teleport: bool = False
    favoured: bool = False
    choice: CaptureChoice | None = None
    from_camp: bool = False
    """An attack the cult's camp alone brings within reach (ruling C53): beaten back, the camp falls."""
    line: int = 0

    @model_validator(mode="after")
    def _check(self) -> Army:
        _counts(self.units, f"armies.{self.id}.units")
        if self.action != "disperse" and not self.target:
            raise ValueError(f"armies.{self.id}: an army that attacks or defends needs a target city")
        return self


class Side(_Model):
    faction: FactionId | None
    armies: list[str] = Field(default_factory=list)
    garrison: dict[str, int] = Field(default_factory=dict)
    deployment: list[dict[str, Any]] | None = None
    gunpowder: int | None = Field(default=None, ge=0, le=MAX)
    powder: list[dict[str, Any]] = Field(default_factory=list, max_length=20)
    """Powder given to squads or unit types («Порох на пушки: 10»)."""
    plan: list[dict[str, Any]] | None = None
    skip: bool = False


class Battle(_Model):
    id: str
    city: str
    order: int = Field(ge=0, le=1000)
    attacker: Side
    defender: Side
    status: Literal["pending", "fought", "called_off", "walkover"] = "pending"
    winner: Literal["attacker", "defender", "none"] | None = None
    reason: str = ""
    result: dict[str, Any] | None = None


class Capture(_Model):
    city: str
    faction: FactionId
    battle: str
    choice: CaptureChoice | None = None
    done: bool = False


class Intel(_Model):
    """Something a faction learnt: a divination snapshot or a detected corruption."""

    turn: int = Field(ge=0, le=MAX)
    kind: Literal["divination", "corruption"]
    about: str
    data: dict[str, Any] = Field(default_factory=dict)


class Faction(_Model):
    id: FactionId
    player: str | None = None
    status: Status = "playing"
    ended_turn: int = Field(default=0, ge=0, le=MAX)
    end_reason: str = ""
    gold: int = Field(default=0, ge=0, le=10 * MAX)
    resource: float = Field(default=0, ge=0, le=10 * MAX)
    units: dict[str, int] = Field(default_factory=dict)
    gifted: dict[str, int] = Field(default_factory=dict)
    hunger_max: int = Field(default=100, ge=-MAX, le=MAX)
    rituals_per_turn: int = Field(default=1, ge=0, le=10)
    cursed_gold_uses: int = Field(default=0, ge=0, le=MAX)
    last_summoning: int = Field(default=-100, ge=-100, le=MAX)
    float_streak: int = Field(default=0, ge=0, le=MAX)
    float_last_turn: int = Field(default=-1, ge=-1, le=MAX)
    raids: int = Field(default=0, ge=0, le=MAX)
    captured: int = Field(default=0, ge=0, le=MAX)
    destroyed_by: FactionId | None = None
    oath_turn: int = Field(default=0, ge=0, le=MAX)
    feeding_turn: int = Field(default=0, ge=0, le=MAX)
    demon_choice: int = Field(default=0, ge=0, le=10)
    discount_turn: int = Field(default=0, ge=0, le=MAX)
    discount_used: int = Field(default=0, ge=0, le=MAX)
    snapshot: dict[str, Any] = Field(default_factory=dict)
    intel: list[Intel] = Field(default_factory=list, max_length=10_000)
    camp: list[str] | None = Field(default=None, min_length=2, max_length=2)
    """The Void Cult's camp: the road its army stands on («ваша армия может создавать временные
    лагеря на дороге между городами», ruling C53), sorted; secret like the army itself."""
    last_city: str | None = None
    """The city the cult lost last: where a cult with no city, ruins or camp left pitches its camp."""

    @model_validator(mode="after")
    def _check(self) -> Faction:
        _counts(self.units, f"factions.{self.id}.units")
        _counts(self.gifted, f"factions.{self.id}.gifted")
        for uid, n in self.gifted.items():
            if n > self.units.get(uid, 0):
                raise ValueError(f"factions.{self.id}.gifted.{uid}: more gifted units than the faction has")
        return self


class Ledger(_Model):
    """The money a faction moved this turn, for its report (private)."""

    opening: int = 0
    lines: list[dict[str, Any]] = Field(default_factory=list)


class CampaignState(_Model):
    ruleset: Literal["steel-rose"] = "steel-rose"
    turn: int = Field(ge=1, le=1000)
    phase: Phase
    players: list[str]
    seats: dict[str, FactionId]
    factions: dict[FactionId, Faction]
    cities: dict[str, City]
    alliances: list[Pair] = Field(default_factory=list)
    proposals: list[Proposal] = Field(default_factory=list)
    wars: list[Pair] = Field(default_factory=list)
    armies: list[Army] = Field(default_factory=list)
    battles: list[Battle] = Field(default_factory=list)
    captures: list[Capture] = Field(default_factory=list)
    ledgers: dict[FactionId, Ledger] = Field(default_factory=dict)
    winners: list[FactionId] = Field(default_factory=list)
    result_reason: str = ""

    @model_validator(mode="after")
    def _invariants(self) -> CampaignState:
        for player, fid in self.seats.items():
            if player not in self.players:
                raise ValueError(f"seats.{player}: not a player of this game")
            if fid not in self.factions or self.factions[fid].player != player:
                raise ValueError(f"seats.{player}: faction '{fid}' is not seated with this player")
        for fid, faction in self.factions.items():
            if faction.id != fid:
                raise ValueError(f"factions.{fid}.id: says '{faction.id}'")
        for cid, city in self.cities.items():
            if city.id != cid:
                raise ValueError(f"cities.{cid}.id: says '{city.id}'")
            if city.owner is not None and city.owner not in self.factions:
                raise ValueError(f"cities.{cid}.owner: no faction '{city.owner}'")
            if city.ruins and city.buildings:
                raise ValueError(f"cities.{cid}: ruins have no buildings")
            if len(set(city.buildings)) != len(city.buildings):
                raise ValueError(f"cities.{cid}.buildings: a building twice («не может быть две одинаковые постройки»)")
            if (city.kind == "mobile") != (city.road is not None):
                raise ValueError(f"cities.{cid}.road: the mobile city, and only it, stands on a road")
        pairs = {"alliances": self.alliances, "proposals": [[p.by, p.to] for p in self.proposals], "wars": self.wars}
        for name, pair_list in pairs.items():
            for i, (a, b) in enumerate(pair_list):
                if a not in self.factions or b not in self.factions or a == b:
                    raise ValueError(f"{name}.{i}: expected two different factions")
        seen: set[str] = set()
        for army in self.armies:
            if army.id in seen:
                raise ValueError(f"armies: the id '{army.id}' twice")
            seen.add(army.id)
            if army.target is not None and army.target not in self.cities:
                raise ValueError(f"armies.{army.id}.target: no city '{army.target}'")
        for fid, faction in self.factions.items():
            for cid in [*(faction.camp or []), *([faction.last_city] if faction.last_city else [])]:
                if cid not in self.cities:
                    raise ValueError(f"factions.{fid}: no city '{cid}' (camp, last_city)")
        for battle in self.battles:
            if battle.city not in self.cities:
                raise ValueError(f"battles.{battle.id}.city: no city '{battle.city}'")
        return self

    # -- helpers the turn code uses --------------------------------------------------------

    def faction_of(self, player: str) -> Faction:
        return self.factions[self.seats[player]]

    def allied(self, a: str, b: str) -> bool:
        return [a, b] in self.alliances or [b, a] in self.alliances

    def at_war(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` fought a battle in the last turn."""
        return [a, b] in self.wars or [b, a] in self.wars

    def cities_of(self, fid: str, *, ruins: bool = False) -> list[City]:
        """The cities ``fid`` holds, in map order (ruins only when asked)."""
        return [c for c in self.cities.values()
                if c.owner == fid and not c.gone and (ruins or not c.ruins)]

    def army(self, army_id: str) -> Army:
        for army in self.armies:
            if army.id == army_id:
                return army
        raise KeyError(army_id)


def load_state(state: Mapping[str, Any]) -> CampaignState:
    """Validate plain state data; a bad field is refused with its path."""
    try:
        return CampaignState.model_validate(dict(state))
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()[:10])
        raise DataError(f"steel-rose state: {details}") from exc


def dump_state(state: CampaignState) -> dict[str, Any]:
    data: dict[str, Any] = state.model_dump(mode="json")
    return data
