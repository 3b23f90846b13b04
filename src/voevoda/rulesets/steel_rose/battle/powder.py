"""«ПОРОХ»: which units get their powder and which sit the battle out.

«Некоторые ваши юниты потребляют порох для боя. В описании указывается трата пороха за 1 бой.
Если вы не выделите порох юниту, который его тратит, то он не сможет сражаться и будет выведен
из строя. Расход пороха для отряда удваивается, если вы отдаете приказ 'обстрел'.»

The player allocates the powder (docs/rulings/steel_rose.md R24): a deployment post may give
shares to squads or unit types (``Порох на пушки: 10``); the units a share names get powder from
it only, in deployment order, and a unit whose need is more than what is left of its share sits
out. What the shares leave of the stock, and the whole stock when the post gives no shares,
goes to the other units in deployment order (the greedy default). Without a stated stock a side
has all the powder it needs, except where a share says less.

One function for the exact engine and the batched simulator, so both withdraw the same units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from voevoda.rulesets.steel_rose.battle.model import PowderShare, SideInput
from voevoda.rulesets.steel_rose.rules import Rules


@dataclass
class Supply:
    """The powder of one side: per unit in deployment order (squad by squad, each squad's units in
    the order written), what it needs and whether it is withdrawn; totals; and per share of the
    post, what it supplied and whom it left out."""

    need: list[int]
    withdrawn: list[bool]
    needed: int
    supplied: int
    shares: list[dict[str, object]] = field(default_factory=list)


def unit_list(side: SideInput) -> list[tuple[int, str]]:
    """``(squad index, unit id)`` of every unit of ``side``, in deployment order."""
    return [(q, uid) for q, sq in enumerate(side.squads) for uid, count in sq.units.items() for _ in range(count)]


def _names(share: PowderShare, position: str, uid: str) -> bool:
    return share.position == position if share.position is not None else share.unit == uid


def supply(rules: Rules, side: SideInput) -> Supply:
    """Who gets powder («ПОРОХ», R24): shares first, in the order written, then the rest of the
    stock to the other units in deployment order."""
    volley = {m.squad for m in side.plan if m.kind in ("volley", "long_volley")}
    units = unit_list(side)
    need = [rules.units[uid].gunpowder * (rules.battle.volley_gunpowder_multiplier
                                          if side.squads[q].position in volley else 1) for q, uid in units]
    withdrawn = [False] * len(units)
    left = side.gunpowder  # None: as much as the side needs
    covered = [False] * len(units)
    supplied = 0
    shares: list[dict[str, object]] = []
    for share in side.powder:
        budget = share.amount if left is None else min(share.amount, left)
        spent = 0
        out: dict[str, int] = {}
        for i, (q, uid) in enumerate(units):
            if not need[i] or covered[i] or not _names(share, side.squads[q].position, uid):
                continue
            covered[i] = True
            if need[i] <= budget - spent:
                spent += need[i]
            else:
                withdrawn[i] = True
                out[uid] = out.get(uid, 0) + 1
        if left is not None:
            left -= spent
        supplied += spent
        shares.append({"position": share.position, "unit": share.unit, "amount": share.amount,
                       "supplied": spent, "withdrawn": out})
    for i in range(len(units)):
        if not need[i] or covered[i]:
            continue
        if left is None or need[i] <= left:
            supplied += need[i]
            if left is not None:
                left -= need[i]
        else:
            withdrawn[i] = True
    return Supply(need, withdrawn, sum(need), supplied, shares)
