"""Prices, dues and the loners' rule of «Торговые операции», and the treasury's bookkeeping.

Every sum a house pays or receives goes through :func:`credit` and :func:`debit`, which keep
its statement (the lines of the turn, shown to the house alone) and bound what it holds by its
reserve: «Жетоны власти становятся игровой валютой. У каждого дома она «своя», не более
имеющегося запаса - резерва».
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.ruleset import State
from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.rules import UNIT_KINDS
from voevoda.rulesets.thrones.state import alliance_of, reserve


def alliance_size(state: Mapping[str, Any], player: str) -> int:
    return len(alliance_of(state, player))


def members_and_loners(state: Mapping[str, Any], ctx: Ctx) -> tuple[int, int]:
    """The people in alliances (all alliances, or only the largest under option ``loners_count
    = "largest"``, ruling T7) and the loners."""
    alliances = [a for a in state.get("alliances", []) if len(a) >= 2]
    in_any = sum(len(a) for a in alliances)
    loners = len(state["seats"]) - in_any
    if ctx.options.loners_count == "largest":
        return (max((len(a) for a in alliances), default=0), loners)
    return in_any, loners


def loners_may_buy(state: Mapping[str, Any], ctx: Ctx) -> bool:
    """«если число людей в союзе меньше (или равно) числу одиночек, то одиночки вообще не могут
    покупать дополнительные войска»."""
    members, loners = members_and_loners(state, ctx)
    return members > loners


def buy_price(state: Mapping[str, Any], ctx: Ctx, player: str, unit: str) -> int:
    """«Цена покупаемого воина = номинал умножить на количество игроков в союзе.»"""
    return ctx.rules.units[unit].nominal * alliance_size(state, player)


def upgrade_price(state: Mapping[str, Any], ctx: Ctx, player: str, unit: str) -> int:
    """An upgrade of a footman costs the difference of the nominals (ruling T3; option
    ``upgrade_price = "full"``: the whole nominal of the new unit), times the alliance's size
    like any purchase."""
    stats = ctx.rules.units[unit]
    base = stats.nominal
    if ctx.options.upgrade_price == "difference" and stats.upgrade_from is not None:
        base -= ctx.rules.units[stats.upgrade_from].nominal
    return max(0, base) * alliance_size(state, player)


def sale_price(ctx: Ctx, unit: str) -> int:
    """«1 жетон власти за пешего и корабль, 2 за рыцаря и осадную башню. Независимо от количества
    игроков в союзе войска продаются за номинал.»"""
    return ctx.rules.units[unit].sale


def units_value(ctx: Ctx, units: Mapping[str, int]) -> int:
    return sum(sale_price(ctx, k) * n for k, n in units.items())


def dues_each(state: Mapping[str, Any], ctx: Ctx, player: str) -> int:
    """«Одиночка не платит ничего(*), союз из двоих - по 1 монете, союз из троих - по 3 монеты,
    союз из 4 по 5 монет и т.д + 2 монеты за каждого дополнительного союзника.» (*) «если на
    текущем ходу нет заключенных союзов (все игроки - одиночки), то каждый из игроков платит
    взнос на снабжение Ночного Дозора по 5 монет»."""
    if not any(len(a) >= 2 for a in state.get("alliances", [])):
        return ctx.rules.dues.all_alone
    return ctx.rules.dues_for(alliance_size(state, player), ctx.options.dues_growth)


# -- troops that must go: the dues and the supply limit ------------------------------------------------

def movable_towers(ctx: Ctx, units: Mapping[str, int]) -> int:
    """The siege towers of one area that can still march: «Передвигать их можно только вместе с
    пехотинцем в отряде» — all of them beside one footman, or one per footman under option
    ``siege_escort = "each"`` (ruling T23)."""
    towers, footmen = units.get("siege", 0), units.get("footman", 0)
    if ctx.options.siege_escort == "each":
        return min(towers, footmen)
    return towers if footmen else 0


def strands_tower(ctx: Ctx, units: Mapping[str, int], kind: str) -> bool:
    """Whether taking one ``kind`` from ``units`` (one area's) leaves a siege tower that could march
    unable to: «Одинокие башни могут только стоять»."""
    if kind != "footman" or not units.get("siege"):
        return False
    after = {**units, "footman": units.get("footman", 0) - 1}
    return movable_towers(ctx, after) < movable_towers(ctx, units)


def unit_to_give_up(ctx: Ctx, units: Mapping[str, int]) -> str:
    """The unit one area gives up first, as a table would: never a footman a siege tower needs while
    the area has another unit, then the cheapest (ruling T8)."""
    return min((k for k in UNIT_KINDS if units.get(k)),
               key=lambda k: (strands_tower(ctx, units, k), sale_price(ctx, k), UNIT_KINDS.index(k)))


@dataclass
class DuesSettlement:
    """How a house meets its Night's Watch dues (ruling T8): the troops it named first, at their
    nominal; coins for the rest; then troops sold at the nominal."""

    due: int
    troops_value: int
    coins: int = 0
    sold: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    """The troops sold, area by area in the order they went, each area once."""
    change: int = 0
    """What comes back in coins: troops named or sold beyond the dues."""
    unpaid: int = 0


def settle_dues(ctx: Ctx, due: int, troops_value: int, hand: int,
                own: Mapping[str, Mapping[str, int]]) -> DuesSettlement:
    """«Если денег не хватает, то надо продать имеющихся воинов за номинал и набрать необходимую для
    взноса сумму». ``own`` is the house's units (area → kind → count) left after its trade post;
    the troops sold are chosen as a table would choose them: never a footman a siege tower needs
    while another sale covers the dues (a tower alone «может только стоять»), then the cheapest,
    from the largest army, areas in the order of their ids (ruling T8)."""
    out = DuesSettlement(due, troops_value)
    from_troops = min(troops_value, due)
    out.change = troops_value - from_troops
    left = due - from_troops
    out.coins = min(left, max(hand, 0))
    left -= out.coins
    units = {area: {k: int(n) for k, n in here.items() if n} for area, here in own.items()}
    sold: dict[str, dict[str, int]] = {}
    while left > 0:
        choices = [((strands_tower(ctx, here, kind), sale_price(ctx, kind), -sum(here.values()), area,
                     UNIT_KINDS.index(kind)), area, kind)
                   for area, here in units.items() for kind in UNIT_KINDS if here.get(kind)]
        if not choices:
            break
        _, area, kind = min(choices)
        units[area][kind] -= 1
        if not units[area][kind]:
            del units[area][kind]
        got = sold.setdefault(area, {})
        got[kind] = got.get(kind, 0) + 1
        price = sale_price(ctx, kind)
        used = min(price, left)
        left -= used
        out.change += price - used
    out.sold = [(area, got) for area, got in sold.items()]
    out.unpaid = left
    return out


# -- the treasury ------------------------------------------------------------------------------------

def note(state: State, player: str, item: str, amount: int, text: str = "",
         units: Mapping[str, int] | None = None) -> None:
    """A line of ``player``'s statement; ``units`` names the troops a line is about (the dues paid
    in troops, the troops sold for them), kept in the note after the area: «winterfell|footman:2»
    (:func:`note_units` reads it back)."""
    if units:
        text += "|" + ",".join(f"{k}:{int(units[k])}" for k in UNIT_KINDS if units.get(k))
    state["treasury"][player]["statement"].append({"item": item, "amount": amount, "note": text[:500]})


def note_units(text: str) -> tuple[str, dict[str, int]]:
    """A statement note written with troops (:func:`note`): the area and the troops."""
    area, _, listed = text.partition("|")
    units: dict[str, int] = {}
    for part in listed.split(","):
        kind, _, n = part.partition(":")
        if kind in UNIT_KINDS and n.isdigit():
            units[kind] = int(n)
    return area, units


def credit(state: State, ctx: Ctx, player: str, amount: int, item: str, text: str = "") -> int:
    """Give ``player`` up to ``amount`` tokens from its reserve; what the reserve cannot give is
    lost (and noted in the statement). Returns what was given."""
    if amount <= 0:
        return 0
    room = reserve(state, ctx.rules, player)
    given = min(amount, room)
    state["treasury"][player]["power"] += given
    note(state, player, item, given, text)
    if given < amount:
        note(state, player, "reserve_cap", 0, f"{amount - given}")
    return given


def debit(state: State, player: str, amount: int, item: str, text: str = "") -> int:
    """Take up to ``amount`` from ``player``'s hand back to its reserve; returns what was taken."""
    if amount <= 0:
        return 0
    taken = min(amount, int(state["treasury"][player]["power"]))
    state["treasury"][player]["power"] -= taken
    note(state, player, item, -taken, text)
    return taken
