"""The state of a Thrones game: its shape (Pydantic models, so that a game master's ``edit`` is
validated, docs/engine.md «Game-master actions»), the rules between its fields, and the small
questions every phase asks of it (who holds an area, who is allied with whom, what a house's
armies are).

A state is plain JSON::

    turn, phase            the game round (1..10) and the step of it that is awaited
    seats                  the players, in seat order
    houses                 player → {house, color, home}: who plays which house (public)
    treasury               player → {power, opening, statement}: power tokens in hand, the
                           turn's opening balance and the lines of the turn's statement (hidden)
    board                  area → {house, units, token, garrison}: who controls it, the units
                           there (footman, knight, ship, siege), a power token, a garrison
    supply                 player → position on the supply track (0..6)
    tracks                 iron_throne, fiefdoms, kings_court: players, first place first
    alliances              this turn's alliances (lists of players), fixed after diplomacy
    declared               player → the allies it declared this turn ([] for a loner)
    orders                 area → {house, kind}: the orders placed this turn (public once placed)
    passages               [{by, to, area}]: a lord's consent to let an ally pass
    card                   {id, turn}: the fourth Westeros card in force, or null
    deck                   {drawn: [...]}: the fourth deck's cards drawn since it was shuffled
    westeros               the base Westeros cards the table recorded this turn
    holy                   token id → {area, winner}
    bidding                {track, bids, ties}: a Clash of Kings track awaiting its tie-break
    bribed                 the houses that made (or passed) their Littlefinger attempt this turn
    deals                  [{id, by, to, amount, service, turn, status}]: services bought for coins
    next_deal, outcome
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from voevoda.core.bounds import Amount, Count, Name, StrictModel
from voevoda.core.ruleset import State, StateProblem
from voevoda.rulesets.thrones.board import Board
from voevoda.rulesets.thrones.rules import LAND_UNITS, TRACKS, UNIT_KINDS, Rules

PHASES = ("holy", "diplomacy", "trade", "westeros", "bids", "tiebreak", "bribe", "planning", "action", "over")
Phase = Literal["holy", "diplomacy", "trade", "westeros", "bids", "tiebreak", "bribe", "planning", "action",
                "over"]
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
BASE_CARDS = ("supply", "clash")
"""The base Westeros cards the companion acts on: «Снабжение» and «Битва королей»."""

Turn = Annotated[int, Field(ge=0, le=1000)]
Small = Annotated[int, Field(ge=0, le=1000)]


# -- the schema --------------------------------------------------------------------------------------

class HouseSeat(StrictModel):
    house: Name
    color: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    home: Name


class StatementLine(StrictModel):
    item: Name
    amount: Amount
    note: str = Field(default="", max_length=500)


class Treasury(StrictModel):
    power: Count
    opening: Count
    statement: list[StatementLine]


class Units(StrictModel):
    footman: Small = 0
    knight: Small = 0
    ship: Small = 0
    siege: Small = 0


class AreaState(StrictModel):
    house: Name | None
    units: Units
    token: Name | None
    garrison: Small


class Tracks(StrictModel):
    iron_throne: list[Name]
    fiefdoms: list[Name]
    kings_court: list[Name]


class PlacedOrder(StrictModel):
    house: Name
    kind: Literal["march", "defense", "support", "raid", "consolidate"]
    raided: bool = False


class Passage(StrictModel):
    by: Name
    to: Name
    area: Name


class CardInForce(StrictModel):
    id: Name
    turn: Turn


class DeckState(StrictModel):
    drawn: list[Name]


class WesterosRecord(StrictModel):
    turn: Turn
    cards: list[Literal["supply", "clash"]]


class HolyState(StrictModel):
    area: Name | None
    winner: Name | None
    faces: dict[str, list[Annotated[int, Field(ge=1, le=6)]]] = Field(default_factory=dict)
    told: bool = False


class Bidding(StrictModel):
    track: Literal["iron_throne", "fiefdoms", "kings_court"]
    bids: dict[str, Count]
    ties: list[list[Name]]


class Deal(StrictModel):
    id: int = Field(ge=1, le=10**9)
    by: Name
    to: Name
    amount: Count
    service: str = Field(max_length=500)
    turn: Turn
    status: Literal["offered", "accepted", "declined", "lapsed"]


class ThronesState(StrictModel):
    ruleset: Literal["thrones"]
    turn: Turn
    phase: Phase
    seats: list[Name] = Field(min_length=3, max_length=6)
    houses: dict[str, HouseSeat]
    treasury: dict[str, Treasury]
    board: dict[str, AreaState]
    supply: dict[str, Annotated[int, Field(ge=0, le=20)]]
    tracks: Tracks
    alliances: list[list[Name]]
    declared: dict[str, list[Name]]
    orders: dict[str, PlacedOrder]
    passages: list[Passage]
    card: CardInForce | None
    deck: DeckState
    westeros: WesterosRecord | None
    holy: dict[str, HolyState]
    bidding: Bidding | None
    bribed: list[Name]
    deals: list[Deal]
    next_deal: int = Field(ge=1, le=10**9)
    outcome: dict[str, Any] | None


def invariants(state: State, rules: Rules, board: Board) -> list[StateProblem]:
    """The rules between fields a schema cannot state (called on a state that passed it)."""
    out: list[StateProblem] = []

    def bad(pointer: str, ru: str, en: str) -> None:
        out.append(StateProblem(pointer, ru, en))

    seats = list(state["seats"])
    seated = set(seats)
    if len(seated) != len(seats):
        bad("/seats", "игроки повторяются", "a player repeats")
    if set(state["houses"]) != seated:
        bad("/houses", "дома назначены не тем игрокам", "the houses are not those of the seated players")
    used = [h["house"] for h in state["houses"].values()]
    if len(used) != len(set(used)):
        bad("/houses", "один дом у двух игроков", "two players play one house")
    for p, seat in state["houses"].items():
        if seat["house"] not in rules.houses:
            bad(f"/houses/{p}/house", f"нет дома «{seat['house']}»", f"no house '{seat['house']}'")
        if seat["home"] not in board:
            bad(f"/houses/{p}/home", f"нет области «{seat['home']}»", f"no area '{seat['home']}'")
    for key in ("treasury", "supply"):
        if set(state[key]) != seated:
            bad(f"/{key}", "не у каждого игрока или у чужих", "not one entry per seated player")
    for track in TRACKS:
        if sorted(state["tracks"][track]) != sorted(seats):
            bad(f"/tracks/{track}", "трек должен перечислять каждого игрока один раз",
                "a track lists every player once")
    owned = {p: 0 for p in seats}
    for area, info in state["board"].items():
        where = f"/board/{area}"
        if area not in board:
            bad(where, f"нет области «{area}» на поле", f"no area '{area}' on the board")
            continue
        for field in ("house", "token"):
            if info[field] is not None and info[field] not in seated:
                bad(f"{where}/{field}", f"«{info[field]}» не играет", f"'{info[field]}' is not seated")
        units = info["units"]
        count = sum(units.values())
        kind = board[area]
        for unit in UNIT_KINDS:
            if units[unit] and ((unit in LAND_UNITS) != kind.is_land):
                bad(f"{where}/units/{unit}", "такой отряд здесь стоять не может", "such a unit cannot stand here")
        if count and info["house"] is None:
            bad(f"{where}/house", "у отрядов нет хозяина", "the units have no house")
        if info["token"] is not None:
            if not kind.is_land:
                bad(f"{where}/token", "жетон власти кладут только на землю", "a power token is put on land only")
            if info["token"] != info["house"]:
                bad(f"{where}/token", "жетон не того, кто держит область", "the token is not the holder's")
            owned[info["token"]] = owned.get(info["token"], 0) + 1
        if info["garrison"] and not kind.is_land:
            bad(f"{where}/garrison", "гарнизон бывает только на земле", "only a land holds a garrison")
        if info["house"] is not None and not kind.is_land and not count:
            bad(f"{where}/house", "море держат только корабли", "only ships hold a sea")
    missing = sorted(set(board.areas) - set(state["board"]))
    if missing:
        bad("/board", f"нет областей: {', '.join(missing[:5])}", f"areas missing: {', '.join(missing[:5])}")
    for p, t in state["treasury"].items():
        if p in owned and t["power"] + owned[p] > rules.economy.tokens:
            bad(f"/treasury/{p}/power", f"больше жетонов, чем у дома есть ({rules.economy.tokens})",
                f"more tokens than the house owns ({rules.economy.tokens})")
    for i, alliance in enumerate(state["alliances"]):
        if len(alliance) < 2 or not set(alliance) <= seated:
            bad(f"/alliances/{i}", "союз — это два и более игрока", "an alliance is two or more seated players")
    members = [p for a in state["alliances"] for p in a]
    if len(members) != len(set(members)):
        bad("/alliances", "игрок в двух союзах", "a player in two alliances")
    for area, order in state["orders"].items():
        if area not in board or order["house"] not in seated:
            bad(f"/orders/{area}", "приказ не на поле или не игрока", "an order off the board or of nobody")
    if state["card"] is not None:
        try:
            rules.card(state["card"]["id"])
        except KeyError:
            bad("/card/id", f"нет карты «{state['card']['id']}»", f"no card '{state['card']['id']}'")
    holy_ids = {h.id for h in rules.holy}
    if set(state["holy"]) - holy_ids:
        bad("/holy", "неизвестная святыня", "an unknown holy place")
    for hid, h in state["holy"].items():
        if h["area"] is not None and h["area"] not in board:
            bad(f"/holy/{hid}/area", f"нет области «{h['area']}»", f"no area '{h['area']}'")
    for i, deal in enumerate(state["deals"]):
        if deal["by"] not in seated or deal["to"] not in seated or deal["by"] == deal["to"]:
            bad(f"/deals/{i}", "сделка не между двумя игроками", "a deal not between two players")
    return out


# -- questions every phase asks ----------------------------------------------------------------------

def units_of(info: Mapping[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in info["units"].items() if v}


def unit_count(info: Mapping[str, Any]) -> int:
    return sum(int(v) for v in info["units"].values())


def alliance_of(state: Mapping[str, Any], player: str) -> list[str]:
    """The alliance ``player`` is in this turn (itself alone for a loner)."""
    for alliance in state.get("alliances", []):
        if player in alliance:
            return list(alliance)
    return [player]


def allied(state: Mapping[str, Any], a: str, b: str) -> bool:
    return a != b and b in alliance_of(state, a)


def iron_throne_order(state: Mapping[str, Any]) -> list[str]:
    return list(state["tracks"]["iron_throne"])


def holder(state: Mapping[str, Any]) -> str:
    """Who holds the Iron Throne: first on its track."""
    return str(state["tracks"]["iron_throne"][0])


def house_name(state: Mapping[str, Any], rules: Rules, player: str, lang: str) -> str:
    seat = state["houses"].get(player)
    if seat is None or seat["house"] not in rules.houses:
        return player
    return rules.houses[seat["house"]].name(lang)


def armies(state: Mapping[str, Any], player: str, extra: Mapping[str, Mapping[str, int]] | None = None) -> list[int]:
    """The sizes of ``player``'s armies (two or more units in one area), largest first, with
    ``extra`` units (area → kind → change) laid over the board."""
    sizes = []
    for area, info in state["board"].items():
        n = unit_count(info) if info["house"] == player else 0
        if extra and area in extra:
            n += sum(extra[area].values())
        if n >= 2:
            sizes.append(n)
    return sorted(sizes, reverse=True)


def fits_supply(sizes: Iterable[int], limits: list[int]) -> bool:
    """Whether armies of ``sizes`` fit the supply limits of one track position (both largest
    first): each army takes a slot at least as large as itself."""
    sizes = sorted(sizes, reverse=True)
    if len(sizes) > len(limits):
        return False
    return all(s <= limit for s, limit in zip(sizes, limits, strict=False))


def supply_level(state: Mapping[str, Any], board: Board, player: str, top: int) -> int:
    """The supply track position ``player``'s lands give: the barrels of every area it
    controls, at most ``top`` (base rules, «Снабжение»)."""
    total = sum(board[a].supply for a, info in state["board"].items() if info["house"] == player)
    return min(total, top)


def castles_held(state: Mapping[str, Any], board: Board, player: str) -> int:
    return sum(1 for a, info in state["board"].items() if info["house"] == player and board[a].castle_level)


def lands_held(state: Mapping[str, Any], board: Board, player: str) -> int:
    return sum(1 for a, info in state["board"].items() if info["house"] == player and board[a].is_land)


def reserve(state: Mapping[str, Any], rules: Rules, player: str) -> int:
    """Power tokens of ``player``'s house neither in hand nor on the board: the most it can
    take («не более имеющегося запаса - резерва»)."""
    on_board = sum(1 for info in state["board"].values() if info["token"] == player)
    return max(0, rules.economy.tokens - int(state["treasury"][player]["power"]) - on_board)
