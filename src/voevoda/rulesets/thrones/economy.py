"""Prices, dues and the loners' rule of «Торговые операции», and the treasury's bookkeeping.

Every sum a house pays or receives goes through :func:`credit` and :func:`debit`, which keep
its statement (the lines of the turn, shown to the house alone) and bound what it holds by its
reserve: «Жетоны власти становятся игровой валютой. У каждого дома она «своя», не более
имеющегося запаса - резерва».
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.ruleset import State
from voevoda.rulesets.thrones.context import Ctx
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


# -- the treasury ------------------------------------------------------------------------------------

def note(state: State, player: str, item: str, amount: int, text: str = "") -> None:
    state["treasury"][player]["statement"].append({"item": item, "amount": amount, "note": text[:500]})


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
