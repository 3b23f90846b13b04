"""One turn of Кольцо Власти, step by step, in the order of docs/rulings/ring_of_power.md:

 1. hostility        «Каждый ход игрок может изменить свое отношение к любому другому игроку»
 2. paying orders    «Каждый приказ имеет свою цену. Чтобы он был исполнен необходимо заплатить»
 3. disbanding       «Все отряды, находящиеся в зачеркнутом гексе, будут расформированы»
 4. movement         up to three steps, one step for every stack at a time, with battles
 5. the Chupacabra   reborn, wandering, eating
 6. raising pawns    «Если в тот ход ... в этот гекс входит отряд другого игрока, приказ не будет выполнен»
 7. condottieri      «принимают сторону того игрока, который больше всех заплатит»
 8. transfers        money reaches its recipients
 9. capture          «сначала отряд игрока приходит на чужой гекс. Потом стоит там ещё 1 ход»
10. upgrades         «Через 4 хода пешки ... будут офицерами»
11. income, tax, upkeep
12. the end          players left with nothing, the Ring of Power, the next band on offer

Each step is a method that quotes the rule it implements.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.dice import CITED, Dice, Stream, rerun_ref
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.ring_of_power.board import Board
from voevoda.rulesets.ring_of_power.combat import Fighter, Side, battle
from voevoda.rulesets.ring_of_power.orders import TREASURY
from voevoda.rulesets.ring_of_power.rules import MapData, Options, Rules
from voevoda.rulesets.ring_of_power.state import (
    State,
    alive_players,
    band_may_land,
    board_of,
    commandable,
    holdings_of,
    owner,
    ring_hexes,
    stacks,
    strength,
    units_at,
    visible_hexes,
)

UPKEEP_DESERTION_ORDER = ("condottiere", "pawn", "officer", "queen")


def percent_up(amount: int, percent: int) -> int:
    """``percent`` of ``amount`` in whole coins, rounded up."""
    return (amount * percent + 99) // 100


def percent_of(amount: int, percent: int, rounding: str = "nearest") -> int:
    """``percent`` of ``amount`` in whole coins (docs/rulings 10): to the nearest coin, a half
    coin up (``rounding = nearest``), or always up (``rounding = up``)."""
    if rounding == "up":
        return percent_up(amount, percent)
    return (amount * percent + 50) // 100


def transfer_fee(sent_before: int, amount: int, percent: int, rounding: str = "nearest") -> int:
    """The fee of a transfer of ``amount`` after ``sent_before`` coins already sent this turn:
    «10 % от суммы перевода» of the turn's transfers together, so that splitting a transfer
    never changes what it costs (docs/rulings 9)."""
    return percent_of(sent_before + amount, percent, rounding) - percent_of(sent_before, percent, rounding)


def counts(units: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    table: dict[str, int] = defaultdict(int)
    for u in units:
        table[str(u["type"])] += 1
    return dict(sorted(table.items()))


@dataclass
class Mover:
    """A stack under a move order, stepping along its path."""

    index: int
    player: str
    hex: str
    origin: str
    path: list[str]
    units: list[int]
    line: int
    blocked: bool = False
    alive: bool = True


@dataclass
class Supporter:
    player: str
    hex: str
    target_hex: str
    target_player: str | None
    target_units: set[int]
    cut: bool = False
    helped: int = 0


@dataclass
class PendingEvent:
    """An event before its audience is known (that waits for the end of the turn).

    ``players`` always see it. ``observed`` makes it an event that happens *in a place*: it
    is called for every other player with the hexes he watched this turn (seen at its start
    or at its end, «Видимость») and returns what he saw of it, or ``None``."""

    kind: str
    data: dict[str, Any]
    players: set[str] = field(default_factory=set)
    public: bool = False
    gm_only: bool = False
    observed: Callable[[str, set[str], set[str]], dict[str, Any] | None] | None = None


def income_of(state: Mapping[str, Any], rules: Rules, player: str) -> dict[str, int]:
    """Each holding's income this turn (see :func:`income_breakdown`)."""
    return {h: int(b["amount"]) for h, b in income_breakdown(state, rules, player).items()}


def income_breakdown(state: Mapping[str, Any], rules: Rules, player: str) -> dict[str, dict[str, Any]]:
    """Each holding's income this turn, and why it is what it is.

    «Если игрок 1 выбирает враждебное отношение к игроку 2, то владение игрока 1 начинает
    приносить больше дохода на 10% за каждое соседнее владение враждебного игрока 2. У
    игрока 2 при этом доходы падают на 20 % за каждую соседнюю враждебную область. Если
    игрок 2 после этого объявит игроку 1 взаимную вражду, то они оба будут терять по 10 %»;
    the units in a holding change its income by the table's «Влияние на доходность»;
    each pawn raised there lowers «максимальный доход» by 20% for good; and «Вражеский
    отряд, включая Чупакабру ... не позволяет ни одному игроку получать доход».

    Per holding: ``base``, ``percent`` (after hostility and units), ``ceiling`` (per cent of
    the maximum left after raising), ``amount``, ``blocked`` (``"enemy"``, ``"chupacabra"``
    or ``None``) and ``reasons``: ``{"why": "hostile" | "victim" | "mutual", "player",
    "holdings", "percent"}``, ``{"why": "unit", "type", "count", "percent"}`` and ``{"why":
    "raised", "pawns", "percent"}``, which the report turns into words.
    """
    board = board_of(state)
    cfg = rules.income
    hostile = {p: set(v["hostile"]) for p, v in state["players"].items()}
    by_hex: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for u in state["units"]:
        by_hex[u["hex"]].append(u)
    monsters = {c["hex"] for c in state["chupacabras"] if c["hex"] is not None}
    result: dict[str, dict[str, Any]] = {}
    for h in holdings_of(state, player):
        present = by_hex.get(h, [])
        base = int(state["map"]["income"].get(h, cfg.base))
        blocked = "chupacabra" if h in monsters else "enemy" if any(u["owner"] != player for u in present) else None
        if blocked:
            result[h] = {"base": base, "percent": 0, "ceiling": 100, "amount": 0, "blocked": blocked, "reasons": []}
            continue
        pct = 100
        relations: dict[tuple[str, str], int] = defaultdict(int)
        for n in board.neighbours(h):
            other = owner(state, n)
            if other is None or other == player:
                continue
            mine, theirs = other in hostile[player], player in hostile.get(other, set())
            if mine and theirs:
                pct -= cfg.mutual_loss
                relations[("mutual", other)] += 1
            elif mine:
                pct += cfg.hostile_gain
                relations[("hostile", other)] += 1
            elif theirs:
                pct -= cfg.victim_loss
                relations[("victim", other)] += 1
        step = {"mutual": -cfg.mutual_loss, "hostile": cfg.hostile_gain, "victim": -cfg.victim_loss}
        reasons: list[dict[str, Any]] = [{"why": why, "player": other, "holdings": k, "percent": step[why] * k}
                                         for (why, other), k in sorted(relations.items())]
        kinds: dict[str, int] = defaultdict(int)
        for u in present:
            pct += rules.units[u["type"]].income_influence
            kinds[str(u["type"])] += 1
        reasons += [{"why": "unit", "type": t, "count": k, "percent": rules.units[t].income_influence * k}
                    for t, k in sorted(kinds.items()) if rules.units[t].income_influence]
        raised = int(state["depletion"].get(h, 0))
        ceiling = max(0, 100 - cfg.raise_penalty * raised)
        if raised:
            reasons.append({"why": "raised", "pawns": raised, "percent": ceiling - 100})
        result[h] = {"base": base, "percent": max(0, pct), "ceiling": ceiling,
                     "amount": base * max(0, pct) * ceiling // 10000, "blocked": None, "reasons": reasons}
    return result


class Turn:
    """Resolves one turn over a deep copy of the state."""

    def __init__(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice,
                 rules: Rules, options: Options, map_data: MapData | None = None) -> None:
        self.s = state
        self.orders = orders
        self.dice = dice
        self.rules = rules
        self.options = options
        self.board: Board = board_of(state)
        self.t = int(state["turn"])
        self.fog = set(state["map"]["fog"])
        self.pending: list[PendingEvent] = []
        self.statement: dict[str, list[dict[str, Any]]] = {p: [] for p in state["seats"]}
        self.seen_at_start: dict[str, set[str]] = {}
        self.start_hex = {u["id"]: u["hex"] for u in state["units"]}
        self.acted: set[int] = set()
        self.entered: dict[str, set[str]] = defaultdict(set)
        self.met: set[tuple[str, int]] = set()
        self.accepted: dict[str, list[Order]] = {p: [] for p in state["seats"]}
        self.transfers: list[tuple[str, Order]] = []
        self.tax_paid: dict[str, int] = defaultdict(int)
        self.sent: dict[str, int] = defaultdict(int)
        self.killed_units: set[int] = set()

    # -- helpers ---------------------------------------------------------------------------

    def event(self, kind: str, data: dict[str, Any], players: Sequence[str] = (), public: bool = False,
              gm_only: bool = False,
              observed: Callable[[str, set[str], set[str]], dict[str, Any] | None] | None = None) -> None:
        self.pending.append(PendingEvent(kind, data, set(players), public, gm_only, observed))

    def news(self, kind: str, data: dict[str, Any], where: str) -> None:
        """What the public chronicle tells of a battle or a capture (option ``chronicle``,
        docs/rulings/ring_of_power.md): ``names`` who and with what result, ``full`` also
        where, ``none`` nothing."""
        if self.options.chronicle == "none":
            return
        if self.options.chronicle == "full":
            data = {**data, "where": where}
        self.event(kind, data, public=True)

    def money(self, player: str, amount: int, item: str, **detail: Any) -> None:
        """Move money in or out of a treasury and write it in the player's statement."""
        self.s["players"][player]["money"] += amount
        entry: dict[str, Any] = {"item": item, "amount": amount}
        entry.update({k: v for k, v in detail.items() if v is not None})
        self.statement[player].append(entry)

    def unit_types(self, units: Sequence[Mapping[str, Any]]) -> list[str]:
        return [str(u["type"]) for u in units]

    def remove_units(self, ids: set[int]) -> None:
        if not ids:
            return
        self.killed_units |= ids
        self.s["units"] = [u for u in self.s["units"] if u["id"] not in ids]

    def new_unit(self, player: str, kind: str, hex_: str, upkeep: int | None = None) -> dict[str, Any]:
        number = int(self.s["next_unit"])
        unit: dict[str, Any] = {"id": number, "owner": player, "type": kind, "hex": hex_,
                                "upgrade_at": None, "upkeep": upkeep}
        self.s["next_unit"] = number + 1
        self.s["units"].append(unit)
        return unit

    # -- the turn --------------------------------------------------------------------------

    def run(self) -> list[Event]:
        self.seen_at_start = {p: visible_hexes(self.s, p) for p in alive_players(self.s)}
        self.hostility()
        self.pay_orders()
        self.disband()
        self.movement()
        self.chupacabra()
        self.raise_pawns()
        self.condottieri()
        self.credit_transfers()
        self.capture()
        self.upgrades()
        self.economy()
        self.finish()
        return self.events()

    # 1 -------------------------------------------------------------------------------------
    def hostility(self) -> None:
        """«Каждый ход игрок может изменить свое отношение к любому другому игроку или сразу
        к нескольким.» Declarations are free and public, and count from this turn's income."""
        for p in alive_players(self.s):
            hostile = set(self.s["players"][p]["hostile"])
            before = set(hostile)
            for order in self.orders.get(p, ()):
                names = [n for n in order.args.get("players", []) if n != p and n in self.s["players"]]
                if order.kind == "hostile":
                    hostile |= set(names)
                elif order.kind == "neutral":
                    hostile -= set(names)
            if hostile != before:
                self.s["players"][p]["hostile"] = sorted(hostile)
                self.event("hostility", {"player": p, "hostile": sorted(hostile),
                                         "declared": sorted(hostile - before), "lifted": sorted(before - hostile)},
                           public=True)

    # 2 -------------------------------------------------------------------------------------
    def price(self, player: str, order: Order) -> int:
        prices = self.rules.prices
        if order.kind == "move":
            return prices.move
        if order.kind == "support":
            return prices.support
        if order.kind == "disband":
            return prices.disband
        if order.kind == "raise":
            return prices.raise_base + prices.raise_per_pawn * int(order.args["count"])
        if order.kind == "upgrade":
            return prices.upgrade_per_pawn * len(self.upgrade_candidates(player, order))
        if order.kind == "transfer":
            amount = int(order.args["amount"])
            return amount + transfer_fee(self.sent[player], amount, prices.transfer_fee_percent,
                                         self.options.rounding)
        if order.kind == "bid":
            return int(order.args["amount"])
        return 0

    def upgrade_candidates(self, player: str, order: Order) -> list[dict[str, Any]]:
        pawns = [u for u in units_at(self.s, order.args["hex"], player)
                 if u["type"] == "pawn" and u["upgrade_at"] is None]
        count = order.args.get("count")
        return pawns if count is None else pawns[: int(count)]

    def pay_orders(self) -> None:
        """«Каждый приказ имеет своию цену. Чтобы он был исполнен необходимо заплатить.»
        Orders are paid in the order they are written, from the money held at the start of
        the turn; an order that cannot be paid is not executed and the report says why."""
        for p in alive_players(self.s):
            for order in self.orders.get(p, ()):
                if order.kind in ("hostile", "neutral"):
                    continue
                if order.kind in ("move", "support", "disband") and not units_at(self.s, order.args.get(
                        "from", order.args.get("hex", "")), p):
                    continue
                if order.kind == "bid" and (self.s["offer"] is None or self.s["offer"]["turn"] != self.t):
                    continue
                cost = self.price(p, order)
                if order.kind == "upgrade" and cost == 0:
                    continue
                have = int(self.s["players"][p]["money"])
                if cost > have:
                    self.event("unpaid", {"player": p, "order": order.to_json(), "cost": cost, "money": have},
                               players=[p])
                    continue
                if order.kind == "transfer":
                    amount = int(order.args["amount"])
                    fee = cost - amount
                    self.sent[p] += amount
                    self.money(p, -amount, "transfer", to=order.args["to"], reason=order.args.get("reason") or None)
                    if fee:
                        self.money(p, -fee, "fee", to=order.args["to"])
                    self.transfers.append((p, order))
                elif order.kind == "bid":
                    self.money(p, -cost, "bid", hex=order.args["hex"])
                elif order.kind == "upgrade":
                    pawns = self.upgrade_candidates(p, order)
                    turns = self.options.upgrade_turns or self.rules.upgrade.turns
                    for u in pawns:
                        u["upgrade_at"] = self.t + turns - 1
                    self.money(p, -cost, "upgrade", hex=order.args["hex"], count=len(pawns))
                    self.event("upgrade_started", {"player": p, "hex": order.args["hex"], "count": len(pawns),
                                                   "ready": self.t + turns}, players=[p])
                else:
                    hex_ = order.args.get("from", order.args.get("hex"))
                    self.money(p, -cost, order.kind, hex=hex_)
                self.accepted[p].append(order)

    # 3 -------------------------------------------------------------------------------------
    def disband(self) -> None:
        """«Все отряды, находящиеся в зачеркнутом гексе, будут расформированы. Их стоимость
        вернется распустившему их игроку.» Disbanding comes before movement."""
        for p in alive_players(self.s):
            for order in self.accepted[p]:
                if order.kind != "disband":
                    continue
                units = units_at(self.s, order.args["hex"], p)
                refund = sum(self.rules.units[u["type"]].refund for u in units)
                self.remove_units({u["id"] for u in units})
                if refund:
                    self.money(p, refund, "refund", hex=order.args["hex"])
                self.event("disbanded", {"player": p, "hex": order.args["hex"], "units": counts(units),
                                         "refund": refund}, players=[p])

    # 4 -------------------------------------------------------------------------------------
    def movement(self) -> None:
        """«Все отряды, находящиеся в исходном гексе будут двигаться по указанному маршруту до
        тех пор пока не достигнут конечной точки, либо не встретят противника.»

        Every stack takes its first step at the same time, then its second, then its third.
        A stack that steps onto its own player's stack takes it along when it can command
        it («если офицер встретит пешку, то они вместе двинутся дальше») and stops before it
        when it cannot, or when that stack has an order of its own. Stacks of different
        players that meet in a hex, or cross one edge in opposite directions, fight.
        """
        self.movers: list[Mover] = []
        self.supporters: list[Supporter] = []
        busy: set[tuple[str, str]] = set()
        for p in alive_players(self.s):
            for order in self.accepted[p]:
                if order.kind == "move":
                    src = order.args["from"]
                    ids = [u["id"] for u in units_at(self.s, src, p)]
                    if not ids:
                        continue
                    self.acted.update(ids)
                    self.movers.append(Mover(len(self.movers), p, src, src, list(order.args["path"]), ids, order.line))
                elif order.kind == "support":
                    src = order.args["from"]
                    ids = [u["id"] for u in units_at(self.s, src, p)]
                    self.acted.update(ids)
                    busy.add((p, src))
                    target_player = order.args.get("player")
                    there = units_at(self.s, order.args["to"])
                    if target_player is None:
                        # unnamed (support into the fog): the one player standing there, if one
                        owners = {u["owner"] for u in there}
                        target_player = owners.pop() if len(owners) == 1 else None
                    targets = {u["id"] for u in there if u["owner"] == target_player}
                    self.supporters.append(Supporter(p, src, order.args["to"], target_player, targets))
                elif order.kind == "upgrade":
                    ids = [u["id"] for u in units_at(self.s, order.args["hex"], p)]
                    self.acted.update(ids)
                    busy.add((p, order.args["hex"]))
        self.busy = busy
        for tick in range(1, self.rules.movement.max_steps + 1):
            active = [m for m in self.movers if m.alive and m.path]
            if not active:
                break
            self.step(tick, active)
        for m in self.movers:
            if m.alive and m.hex != m.origin:
                self.event("moved", {"player": m.player, "from": m.origin, "to": m.hex,
                                     "units": counts(units_at(self.s, m.hex, m.player))},
                           players=[m.player])

    def positions(self) -> dict[tuple[str, str], list[dict[str, Any]]]:
        return stacks(self.s)

    def step(self, tick: int, active: list[Mover]) -> None:
        pos = self.positions()
        blocked: set[int] = set()
        while True:
            going = [m for m in active if m.index not in blocked]
            leaving = {(m.player, m.hex) for m in going}
            standing_orders = self.busy | {(m.player, m.hex) for m in self.movers
                                           if m.alive and m.index not in {g.index for g in going}}
            plan: dict[tuple[str, str], list[Mover]] = {}
            newly: int | None = None
            for m in going:
                key = (m.player, m.path[0])
                base = pos.get(key, []) if key not in leaving else []
                arrivals = plan.setdefault(key, [])
                if base and key in standing_orders:
                    newly = m.index
                    break
                if arrivals and not (len(m.path) == 1 and all(len(a.path) == 1 for a in arrivals)):
                    newly = m.index
                    break
                together = self.unit_types(base) + [t for a in [*arrivals, m] for t in self.mover_types(a)]
                if not commandable(together, self.rules):
                    newly = m.index
                    break
                arrivals.append(m)
            if newly is None:
                break
            blocked.add(newly)
        for m in active:
            if m.index in blocked:
                self.event("blocked", {"player": m.player, "at": m.hex, "next": m.path[0], "tick": tick},
                           players=[m.player])
                m.path = []
                m.blocked = True
        moved: list[tuple[Mover, str]] = []
        for (player, target), arrivals in plan.items():
            lead = arrivals[0]
            base_ids = [u["id"] for u in pos.get((player, target), [])] if (player, target) not in leaving else []
            for m in arrivals:
                moved.append((m, m.hex))
                for u in self.s["units"]:
                    if u["id"] in m.units:
                        u["hex"] = target
                m.hex = target
                m.path.pop(0)
            if base_ids:
                lead.units.extend(base_ids)
                self.acted.update(base_ids)
                self.event("joined", {"player": player, "hex": target, "tick": tick}, players=[player])
            for other in arrivals[1:]:
                lead.units.extend(other.units)
                other.units = []
                other.alive = False
            self.entered[target].add(player)
        entered_now: dict[str, set[str]] = defaultdict(set)
        for m, _ in moved:
            entered_now[m.hex].add(m.player)
        # A step is seen by its player and by whoever sees the hex it enters (docs/rulings,
        # «Видимость»): the map draws it as an arrow, the report says who came in.
        for m, came_from in moved:
            step = {"player": m.player, "from": came_from, "to": m.hex, "tick": tick,
                    "units": counts([u for u in self.s["units"] if u["id"] in m.units])}
            self.event("marched", step, players=[m.player], observed=watching([m.hex], step))
        # «В случае, если отряд, оказывающий поддержку, атакован, то он вынужден драться и не
        # может оказывать поддержку.»
        for s in self.supporters:
            if any(p != s.player for p in self.entered.get(s.hex, set())):
                s.cut = True
        # Stacks crossing one edge in opposite directions meet on it: every stack that crossed
        # that edge this step, in either direction, fights there, one side per player.
        crossings: dict[tuple[str, str], list[tuple[Mover, str]]] = defaultdict(list)
        for m, came_from in moved:
            crossings[(min(came_from, m.hex), max(came_from, m.hex))].append((m, came_from))
        for (a, b), crossers in sorted(crossings.items()):
            one_way = {m.player for m, came_from in crossers if came_from == a}
            other_way = {m.player for m, came_from in crossers if came_from == b}
            if not one_way or not other_way or (one_way == other_way and len(one_way) == 1):
                continue
            sides: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for m, _ in sorted(crossers, key=lambda mc: mc[0].index):
                if m.alive:
                    sides[m.player].extend(u for u in self.s["units"] if u["id"] in m.units)
            if len(sides) < 2:
                continue
            self.fight(f"{a}|{b}", dict(sides), tick, [a, b])
            for m, _ in crossers:
                m.path = []
        # Stacks of different players in one hex.
        by_hex: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
        for u in self.s["units"]:
            by_hex[u["hex"]][u["owner"]].append(u)
        for hex_ in sorted(by_hex):
            sides = by_hex[hex_]
            if len(sides) < 2:
                continue
            self.fight(hex_, dict(sides), tick, [hex_])
            for m in self.movers:
                if m.hex == hex_:
                    m.path = []
        for m in self.movers:
            m.units = [i for i in m.units if i not in self.killed_units]
            if not m.units:
                m.alive = False
                m.path = []
        # «на неё можно случайно нарваться»
        for m, _ in moved:
            if m.alive:
                for c in sorted(self.s["chupacabras"], key=lambda c: c["id"]):
                    if c["hex"] == m.hex and units_at(self.s, m.hex, m.player):
                        self.encounter(c, m.player, m.hex)
                        m.path = []
        for m in self.movers:
            if m.alive and not units_at(self.s, m.hex, m.player):
                m.alive = False
                m.path = []

    def mover_types(self, m: Mover) -> list[str]:
        return [str(u["type"]) for u in self.s["units"] if u["id"] in m.units]

    def fight(self, where: str, sides: Mapping[str, list[dict[str, Any]]], tick: int, hexes: list[str]) -> None:
        """«Боестолкновение происходит в том случае, если отряды разных игроков перемещаются в
        один и тот же гекс.» «Отряды других игроков могут оказывать поддержку любой из сторон.»

        A support order names a neighbouring hex and the player supported; by default
        (``support_reach = hex``, ruling 26) it joins every battle fought in that hex this
        turn on that player's side, whether his units stood there or came in to attack;
        under ``support_reach = units`` it follows the units that stood in the hex into
        whatever battle they fight. An attacked supporter supports nobody, and nobody fights
        against his own stack.

        Who hears of the battle, and how much, follows from who sees its hex and its
        participants (ruling 34): those who fought or supported, and whoever watched a hex of
        the battle; a supporting group is named (player, hex, units, losses) only to its own
        player and to those who watched its hex, and to everyone else it is only strength
        that fought «out of sight» for that side."""
        fighting: list[Side] = []
        groups: list[dict[str, Any]] = []
        involved: set[str] = set(sides)
        alive_ids = {u["id"] for u in self.s["units"]}
        for player in sorted(sides):
            own = sides[player]
            ids = {u["id"] for u in own}
            fighters = [Fighter(u["id"], self.rules.units[u["type"]].strength, 0) for u in own]
            helpers: list[dict[str, Any]] = []
            for s in self.supporters:
                if s.cut or s.hex in hexes or s.target_player != player:
                    continue
                if s.player != player and s.player in sides:
                    continue  # his own stack fights on another side: he does not fight himself
                if self.options.support_reach == "hex" and s.target_hex not in hexes:
                    continue
                if self.options.support_reach == "units" and not (s.target_units & ids):
                    continue
                helping = [u for u in self.s["units"]
                           if u["owner"] == s.player and u["hex"] == s.hex and u["id"] in alive_ids]
                if not helping:
                    continue
                s.helped += 1
                involved.add(s.player)
                fighters.extend(Fighter(u["id"], self.rules.units[u["type"]].strength, 1) for u in helping)
                helpers.append({"player": s.player, "hex": s.hex, "members": helping,
                                "strength": strength(helping, self.rules)})
            fighting.append(Side(player, fighters))
            groups.append({"player": player, "members": own,
                           "supporters": sorted(helpers, key=lambda h: (h["player"], h["hex"]))})
        result = battle(fighting, self.options.combat_order)
        killed = set(result.killed)
        self.remove_units(killed)

        def lost(members: Sequence[Mapping[str, Any]]) -> dict[str, int]:
            return counts([u for u in members if u["id"] in killed])

        def told(viewer: str | None, watched: set[str]) -> dict[str, Any]:
            """The battle as ``viewer`` saw it (``None``: the whole of it)."""
            losses: dict[str, dict[str, int]] = defaultdict(dict)
            out_sides = []
            for g in groups:
                for kind, n in lost(g["members"]).items():
                    losses[g["player"]][kind] = losses[g["player"]].get(kind, 0) + n
                shown, unseen = [], 0
                for h in g["supporters"]:
                    if viewer is None or h["player"] == viewer or h["hex"] in watched:
                        shown.append({"player": h["player"], "hex": h["hex"], "units": counts(h["members"])})
                        for kind, n in lost(h["members"]).items():
                            losses[h["player"]][kind] = losses[h["player"]].get(kind, 0) + n
                    else:
                        unseen += int(h["strength"])
                side: dict[str, Any] = {"player": g["player"], "units": counts(g["members"]), "supporters": shown,
                                        "strength": result.strengths[g["player"]]}
                if unseen:
                    side["unseen_support"] = unseen
                out_sides.append(side)
            return {"where": where, "hexes": hexes, "tick": tick, "sides": out_sides, "winner": result.winner,
                    "losses": {p: dict(sorted(v.items())) for p, v in sorted(losses.items()) if v}}

        def observed(viewer: str, start: set[str], end: set[str]) -> dict[str, Any] | None:
            watched = start | end
            if viewer not in involved and not any(h in watched for h in hexes):
                return None
            return told(viewer, watched)

        # Nobody is told the whole of it by right: a fighter, too, learns of a supporter he did
        # not watch only as strength out of sight.
        self.event("battle", told(None, set()), observed=observed)
        # The public chronicle (option chronicle) names only the stacks that fought in the
        # hex: supporters and what they lost stay with those who saw them (ruling 34).
        self.news("battle_news", {"tick": tick, "sides": sorted(sides), "winner": result.winner,
                                  "lost": {g["player"]: n for g in groups
                                           if (n := sum(lost(g["members"]).values()))}}, where)

    # 5 -------------------------------------------------------------------------------------
    def encounter(self, monster: dict[str, Any], player: str, hex_: str) -> None:
        """«В Тумане водится злая Чупакабра, которая может сожрать любой отряд. А может и не
        сожрать.» The odds are data; out of the fog she is «гораздо менее опасна»."""
        if (player, int(monster["id"])) in self.met:
            return
        self.met.add((player, int(monster["id"])))
        units = units_at(self.s, hex_, player)
        if not units:
            return
        odds = self.rules.chupacabra.fog if hex_ in self.fog else self.rules.chupacabra.open
        power = strength(units, self.rules)
        p_eat = odds.eat
        p_kill = min(1.0 - p_eat, odds.kill + odds.kill_per_strength * power)
        stream = self.dice.stream(f"chupacabra/{monster['id']}/encounter", sealed=True)
        roll = stream.roll(1_000_000)
        if roll <= round(p_eat * 1_000_000):
            if self.options.chupacabra_eats == "unit":
                ordered = sorted(units, key=lambda u: u["id"])
                victims = [ordered[stream.roll(len(ordered)) - 1]]
            else:
                victims = units
            self.remove_units({u["id"] for u in victims})
            monster["eaten"] += len(victims) if self.options.chupacabra_breeds_on == "units" else 1
            self.encountered(player, hex_, stream, {"outcome": "ate", "units": counts(victims)})
            while monster["eaten"] >= self.rules.chupacabra.breed_after:
                monster["eaten"] -= self.rules.chupacabra.breed_after
                self.breed(hex_)
        elif roll <= round((p_eat + p_kill) * 1_000_000):
            monster["hex"] = None
            monster["reborn_at"] = self.t + 1
            monster["died_in"] = hex_
            monster["eaten"] = 0
            self.encountered(player, hex_, stream, {"outcome": "killed"})
        else:
            self.encountered(player, hex_, stream, {"outcome": "spared"})

    def encountered(self, player: str, hex_: str, stream: Stream, what: dict[str, Any]) -> None:
        """The encounter is told to the player whose units met her, with the sealed roll (citing
        it, docs/dice.md §5, so that `verify` holds it to the dice once the secret is out), and
        to whoever watched the hex, without it."""
        seen = {"player": player, "hex": hex_, **what}
        told = {**seen, "roll": stream.faces[0], CITED: [stream.cite("/roll", 0, 1)]}
        self.event("chupacabra", told, players=[player], observed=watching([hex_], seen))

    def fog_hex(self, label: str, exclude: str | None = None) -> str | None:
        choices: list[str] = sorted(h for h in self.fog if h != exclude) or sorted(self.fog)
        if not choices:
            return None
        stream = self.dice.stream(label, sealed=True)
        return choices[stream.roll(len(choices)) - 1]

    def breed(self, where: str) -> None:
        """«Если Чупакабра сожрала три любых отряда, их станет на одну больше.»"""
        new_id = int(self.s["next_chupacabra"])
        self.s["next_chupacabra"] = new_id + 1
        hex_ = self.fog_hex("chupacabra/birth") or where
        self.s["chupacabras"].append({"id": new_id, "hex": hex_, "eaten": 0, "reborn_at": None, "died_in": None})
        self.event("chupacabra_born", {"id": new_id, "hex": hex_}, gm_only=True)
        self.event("chupacabra_multiplied", {"count": len(self.s["chupacabras"])}, public=True)

    def chupacabra(self) -> None:
        """«Если отряды игрока загнали и убили Чупакабру, она появляется на следующий ход в
        другом, случайном гексе где есть туман.» «она выходит из Тумана крайне редко, и вне
        тумана двигается медленно». A stack sharing her hex meets her."""
        for monster in sorted(self.s["chupacabras"], key=lambda c: c["id"]):
            if monster["hex"] is None and monster["reborn_at"] is not None and monster["reborn_at"] <= self.t:
                monster["hex"] = self.fog_hex(f"chupacabra/{monster['id']}/reborn", monster["died_in"])
                monster["reborn_at"] = None
                self.event("chupacabra_reborn", {"id": monster["id"], "hex": monster["hex"]}, gm_only=True)
        for monster in sorted(self.s["chupacabras"], key=lambda c: c["id"]):
            here = monster["hex"]
            if here is None:
                continue
            stream = self.dice.stream(f"chupacabra/{monster['id']}/move", sealed=True)
            odds = self.rules.chupacabra.fog if here in self.fog else self.rules.chupacabra.open
            if stream.chance(odds.move):
                options = list(self.board.neighbours(here))
                target = options[stream.roll(len(options)) - 1]
                if here in self.fog and target not in self.fog and not stream.chance(odds.leave):
                    target = here
                if target != here:
                    monster["hex"] = target
                    self.event("chupacabra_moved", {"id": monster["id"], "from": here, "to": target}, gm_only=True)
            where = monster["hex"]
            for player in sorted({u["owner"] for u in self.s["units"] if u["hex"] == where}):
                if monster["hex"] == where:
                    self.encounter(monster, player, where)

    # 6 -------------------------------------------------------------------------------------
    def raise_pawns(self) -> None:
        """«В указанном гексе появится желаемое количество пешек.» «Если в тот ход, когда был
        отдан приказ на сбор пешек, в этот гекс входит отряд другого игрока, приказ не будет
        выполнен.» «максимальный доход ... будет окончательно и бесповоротно понижен на 20% за
        каждую пешку.» A failed raise returns the pawns' price; the order's own 1 is spent."""
        # In the order of the hexes, so that the new pawns' numbers never depend on the seats.
        raises = sorted(((p, o) for p in alive_players(self.s) for o in self.accepted[p] if o.kind == "raise"),
                        key=lambda po: (po[1].args["hex"], po[0], po[1].line))
        for p, order in raises:
            hex_, n = order.args["hex"], int(order.args["count"])
            reason = None
            if owner(self.s, hex_) != p:
                reason = "not_yours"
            elif any(q != p for q in self.entered.get(hex_, set())) or any(
                    u["owner"] != p for u in units_at(self.s, hex_)):
                reason = "enemy"
            elif not commandable(self.unit_types(units_at(self.s, hex_, p)) + ["pawn"] * n, self.rules):
                reason = "command"
            if reason:
                self.money(p, self.rules.prices.raise_per_pawn * n, "raise_refund", hex=hex_)
                self.event("raise_failed", {"player": p, "hex": hex_, "count": n, "reason": reason},
                           players=[p])
                continue
            for _ in range(n):
                self.new_unit(p, "pawn", hex_)
            self.s["depletion"][hex_] = int(self.s["depletion"].get(hex_, 0)) + n
            self.event("raised", {"player": p, "hex": hex_, "count": n}, players=[p])

    # 7 -------------------------------------------------------------------------------------
    def condottieri(self) -> None:
        """«Кондотьеры приходят группами по 3-5 отрядов и принимают сторону того игрока,
        который больше всех заплатит.» Bids are sealed; the highest pays, the others get
        their money back. Equal bids are ordered by a roll on the **sealed** stream
        ``condottieri/<offer>/tie`` (docs/dice.md: a sealed bid's tie-break must not be
        computable from the published seed), drawn only for the bids that the band reaches.
        The band comes to the hex named in the bid, which must still be the bidder's and hold
        none of his other units; if it cannot, the next bid wins. Only the winner and his
        price are made public: a losing bid, and whether the winner was drawn among equal
        bids, stay with their bidders."""
        offer = self.s["offer"]
        if offer is None or offer["turn"] != self.t:
            return
        bids = [(p, o) for p in alive_players(self.s) for o in self.accepted[p] if o.kind == "bid"]
        if not bids:
            self.event("condottieri_left", {"size": offer["size"]}, public=True)
            return
        winner: tuple[str, Order] | None = None
        for amount in sorted({int(o.args["amount"]) for _, o in bids}, reverse=True):
            group = sorted([b for b in bids if int(b[1].args["amount"]) == amount], key=lambda b: (b[0], b[1].line))
            drawn = winner is None and len(group) > 1
            if drawn:
                stream = self.dice.stream(f"condottieri/{offer['id']}/tie", sealed=True)
                group = [group[int(str(i))] for i in stream.shuffle(list(range(len(group))))]
            for p, order in group:
                hex_ = order.args["hex"]
                mine = units_at(self.s, hex_, p)
                fits = (band_may_land(self.s, p, hex_, self.options.condottieri_arrive)
                        and not any(u["owner"] != p for u in units_at(self.s, hex_))
                        and commandable(self.unit_types(mine) + ["condottiere"] * int(offer["size"]), self.rules))
                if winner is None and fits:
                    winner = (p, order)
                    continue
                if winner is None:
                    reason = "hex"
                elif drawn and int(winner[1].args["amount"]) == amount:
                    reason = "draw"
                else:
                    reason = "outbid"
                self.money(p, amount, "bid_refund", hex=hex_)
                self.event("bid_lost", {"player": p, "amount": amount, "reason": reason}, players=[p])
        if winner is None:
            self.event("condottieri_left", {"size": offer["size"]}, public=True)
            return
        p, order = winner
        for _ in range(int(offer["size"])):
            self.new_unit(p, "condottiere", order.args["hex"], int(offer["upkeep"]))
        self.event("condottieri_hired", {"player": p, "amount": int(order.args["amount"]), "size": offer["size"],
                                         "upkeep": offer["upkeep"]}, public=True)
        self.event("condottieri_arrived", {"player": p, "hex": order.args["hex"], "size": offer["size"]},
                   players=[p])

    # 8 -------------------------------------------------------------------------------------
    def credit_transfers(self) -> None:
        """«Деньги будут перечислены от плательщика к получателю в указанной сумме, и
        получатель получит уведомление о том, сколько денег пришло, от кого и по какому
        поводу.» Money sent this turn arrives after every order of the turn is paid."""
        for payer, order in sorted(self.transfers, key=lambda po: (po[0], po[1].line)):
            amount = int(order.args["amount"])
            to = order.args["to"]
            reason = order.args.get("reason") or None
            if to == TREASURY:
                self.tax_paid[payer] += amount
                continue
            if to in self.s["players"]:
                self.money(to, amount, "incoming", **{"from": payer, "reason": reason})
                self.event("transfer", {"from": payer, "to": to, "amount": amount, "reason": reason},
                           players=[payer, to])

    # 9 -------------------------------------------------------------------------------------
    def capture(self) -> None:
        """«Захват происходит в два хода: сначала отряд игрока приходит на чужой гекс. Потом
        стоит там ещё 1 ход, не выполняя никаких приказов. Если за это время вторгшийся на
        чужой гекс отряд не будет уничтожен, то гекс переходит под контроль игрока.»
        «Чупакабра владения не захватывает.»"""
        camps: dict[str, dict[str, int]] = {}
        present = self.positions()
        by_hex: dict[str, set[str]] = defaultdict(set)
        for (p, h) in present:
            by_hex[h].add(p)
        for (p, h), units in sorted(present.items()):
            old = self.s["camps"].get(h, {}).get(p)
            stayed = [u for u in units if self.start_hex.get(u["id"]) == h and u["id"] not in self.acted]
            since = int(old) if old is not None and stayed else self.t
            camps.setdefault(h, {})[p] = since
            if owner(self.s, h) == p or len(by_hex[h]) > 1:
                continue
            if since <= self.t - self.rules.capture.stand_turns:
                before = owner(self.s, h)
                self.s["holdings"][h] = {"owner": p, "since": self.t}
                self.event("captured", {"player": p, "hex": h, "from": before},
                           players=[p] + ([before] if before else []), observed=capture_seen(p, h, before))
                self.news("capture_news", {"player": p, "from": before}, h)
        self.s["camps"] = {h: dict(sorted(v.items())) for h, v in sorted(camps.items())}

    # 10 ------------------------------------------------------------------------------------
    def upgrades(self) -> None:
        """«Через 4 хода пешки, указанные в этом приказе будут офицерами, если не будут
        распущены или уничтожены ... На четвёртый ход они станут офицерами.» Ordered in turn
        T, they are officers from turn T + N (N = 4, or 2 under the other reading)."""
        for u in self.s["units"]:
            if u["type"] == "pawn" and u["upgrade_at"] is not None and u["upgrade_at"] <= self.t:
                u["type"] = "officer"
                u["upgrade_at"] = None
                self.event("promoted", {"player": u["owner"], "hex": u["hex"], "unit": u["id"]},
                           players=[u["owner"]])

    # 11 ------------------------------------------------------------------------------------
    def economy(self) -> None:
        """Income, then tax, then upkeep, each for every player from one snapshot.

        «Необходимо каждый ход перечислять 10% своего дохода на уплату налогов. Неуплата
        налога карается отъемом владения.» «Если денег на содержание отрядов не хватает,
        они убираются с доски.» Orders are simultaneous, so no player's seized holding or
        deserting units may change another player's income of the same turn: every income
        is counted before any tax is judged or any upkeep paid."""
        pct = self.rules.tax.percent
        players = alive_players(self.s)
        details = {p: income_breakdown(self.s, self.rules, p) for p in players}
        incomes = {p: {h: int(b["amount"]) for h, b in details[p].items()} for p in players}
        for p in players:
            per_hex = incomes[p]
            total = sum(per_hex.values())
            if total:
                self.money(p, total, "income")
            self.event("income", {"player": p, "total": total, "holdings": per_hex, "detail": details[p]},
                       players=[p])
        for p in players:
            player = self.s["players"][p]
            total = sum(incomes[p].values())
            if self.options.tax_mode == "withheld":
                tax = percent_of(total, pct, self.options.rounding)
                if tax:
                    self.money(p, -tax, "tax")
                player["tax_due"] = 0
            else:
                due, paid = int(player["tax_due"]), self.tax_paid.get(p, 0)
                if paid < due:
                    self.seize(p, due, paid)
                player["tax_due"] = percent_of(total, pct, self.options.rounding)
            player["last_income"] = total
        for p in players:
            self.upkeep(p)

    def seize(self, player: str, due: int, paid: int) -> None:
        """Unpaid tax: the crown takes the holding the player acquired last (docs/rulings)."""
        mine = [(h, v) for h, v in self.s["holdings"].items() if v["owner"] == player]
        if not mine:
            self.event("tax_unpaid", {"player": player, "due": due, "paid": paid, "seized": None}, players=[player])
            return
        hex_ = sorted(mine, key=lambda hv: (-int(hv[1]["since"]), hv[0]))[0][0]
        del self.s["holdings"][hex_]
        self.event("tax_unpaid", {"player": player, "due": due, "paid": paid, "seized": hex_},
                   players=[player])

    def upkeep(self, p: str) -> None:
        units = [u for u in self.s["units"] if u["owner"] == p]

        def cost(u: Mapping[str, Any]) -> int:
            if u.get("upkeep") is not None:
                return int(u["upkeep"])
            return self.rules.units[u["type"]].upkeep

        total = sum(cost(u) for u in units)
        money = int(self.s["players"][p]["money"])
        gone: list[dict[str, Any]] = []
        if total > money:
            queue = sorted(units, key=lambda u: (UPKEEP_DESERTION_ORDER.index(u["type"]), -u["id"]))
            for u in queue:
                if total <= money:
                    break
                gone.append(u)
                total -= cost(u)
            self.remove_units({u["id"] for u in gone})
            self.event("deserted", {"player": p, "units": counts(gone), "hexes": sorted({u["hex"] for u in gone})},
                       players=[p])
        if total:
            self.money(p, -total, "upkeep")

    # 12 ------------------------------------------------------------------------------------
    def finish(self) -> None:
        """Players with neither holdings nor units leave the game; the first to hold the Ring
        of Power wins («Побеждает в игре тот, кто первым собирает Кольцо Власти»)."""
        for p in alive_players(self.s):
            if not holdings_of(self.s, p) and not any(u["owner"] == p for u in self.s["units"]):
                self.s["players"][p]["alive"] = False
                self.event("eliminated", {"player": p}, public=True)
        rings: dict[str, list[str]] = {}
        for p in alive_players(self.s):
            ring = ring_hexes(set(holdings_of(self.s, p)), self.board, self.options.ring_shape,
                              self.rules.victory.ring_size)
            if ring:
                rings[p] = ring
        alive = alive_players(self.s)
        scores = {p: float(len(holdings_of(self.s, p))) for p in self.s["seats"]}
        if rings:
            self.s["outcome"] = {"winners": sorted(rings), "reason": "ring", "ring": rings, "scores": scores}
        elif len(alive) <= 1 and len(self.s["seats"]) > 1:
            self.s["outcome"] = {"winners": sorted(alive), "reason": "last", "ring": {}, "scores": scores}
        elif self.options.max_turns is not None and self.t >= self.options.max_turns:
            best = max((scores[p] for p in alive), default=0.0)
            self.s["outcome"] = {"winners": sorted(p for p in alive if scores[p] == best), "reason": "turns",
                                 "ring": {}, "scores": scores}
        if self.s["outcome"] is not None:
            self.s["phase"] = "over"
            self.event("game_over", dict(self.s["outcome"]), public=True)
        for p in self.s["seats"]:
            self.s["players"][p]["statement"] = self.statement[p]
            if self.statement[p]:
                self.event("statement", {"player": p, "turn": self.t, "entries": self.statement[p],
                                         "money": self.s["players"][p]["money"]}, players=[p])
        self.s["turn"] = self.t + 1
        self.s["offer"] = next_offer(self.s, self.rules, self.dice, self.t + 1) if self.s["outcome"] is None else None
        if self.s["offer"] is not None:
            offer = self.s["offer"]
            # the two faces behind size and upkeep cited; verify draws the band again for both
            label = f"condottieri/{offer['id']}/offer"
            stream = self.dice.stream(label)
            self.event("condottieri_offered", {"id": offer["id"], "size": offer["size"], "upkeep": offer["upkeep"],
                                               "bids_turn": offer["turn"], "faces": list(stream.faces),
                                               CITED: [stream.cite("/faces", 0, 2),
                                                       rerun_ref("/size", "condottieri/size", label),
                                                       rerun_ref("/upkeep", "condottieri/upkeep", label)]},
                       public=True)

    def events(self) -> list[Event]:
        """Every event with its audience (ruling 34). Private events go to their players
        only. An event that happens in a place goes, besides its players, to every player
        who watched one of its hexes this turn (seen at the start or at the end of it), with
        only what he could see of it: players who saw the same get one event, marked
        ``partial`` when it is not the whole story, which the game master alone gets."""
        seen_at_end = {p: visible_hexes(self.s, p) for p in self.s["seats"]}
        out: list[Event] = []
        for e in self.pending:
            data = {"turn": self.t, **e.data}
            if e.public:
                out.append(Event(e.kind, data, ("*",)))
                continue
            if e.gm_only:
                out.append(Event(e.kind, data, ()))
                continue
            if e.observed is None:
                out.append(Event(e.kind, data, tuple(sorted(e.players))))
                continue
            whole = json.dumps(data, sort_keys=True, ensure_ascii=False)
            variants: dict[str, tuple[dict[str, Any], list[str]]] = {whole: (data, [])}
            for p in self.s["seats"]:
                start, end = self.seen_at_start.get(p, set()), seen_at_end.get(p, set())
                seen = data if p in e.players else e.observed(p, start, end)
                if seen is None:
                    continue
                seen = {"turn": self.t, **seen}
                key = json.dumps(seen, sort_keys=True, ensure_ascii=False)
                variants.setdefault(key, (seen, []))[1].append(p)
            for key, (seen, who) in variants.items():
                if key == whole:
                    out.append(Event(e.kind, seen, tuple(sorted(who))))
                elif who:
                    out.append(Event(e.kind, {**seen, "partial": True}, tuple(sorted(who))))
        return out


def stacks_at_raising(state: Mapping[str, Any], player: str, orders: Sequence[Order], rules: Rules,
                      options: Options) -> dict[str, list[str]]:
    """Where ``player``'s units will stand when pawns are raised (after disbanding and
    movement), hex -> unit types, if his own orders go as written.

    «в любом подконтрольном ему владении игрок может создать за 1 ход до 3 пешек» and the
    new pawns join the stack that stands there *then*, so the order check judges command
    capacity on this forecast rather than on the units standing in the hex now. Only what
    the player knows goes into it: his own units, money and orders; other players' units
    and the Chupacabra are left out (a battle or an encounter can still change the outcome,
    and the raising step checks again)."""
    own = dict(state)  # what these three steps change is copied; the rest is only read
    own["units"] = [dict(u) for u in state["units"] if u["owner"] == player]
    own["players"] = {p: dict(v) for p, v in state["players"].items()}
    own["chupacabras"] = []
    turn = Turn(own, {player: list(orders)}, Dice(b"forecast"), rules, options)
    turn.pay_orders()
    turn.disband()
    turn.movement()
    table: dict[str, list[str]] = defaultdict(list)
    for u in own["units"]:
        table[str(u["hex"])].append(str(u["type"]))
    return dict(table)


def watching(hexes: Sequence[str], seen: dict[str, Any]) -> Callable[[str, set[str], set[str]], dict[str, Any] | None]:
    """What a player who watched one of ``hexes`` this turn is told of an event there."""
    def observed(viewer: str, start: set[str], end: set[str]) -> dict[str, Any] | None:
        return seen if any(h in start or h in end for h in hexes) else None
    return observed


def capture_seen(player: str, hex_: str, before: str | None) -> Callable[[str, set[str], set[str]], dict[str, Any] | None]:
    """A capture as a watcher of the hex saw it: the former owner only if he saw the hex
    before the turn (after it, the hex is already the new owner's)."""
    def observed(viewer: str, start: set[str], end: set[str]) -> dict[str, Any] | None:
        if hex_ in start:
            return {"player": player, "hex": hex_, "from": before}
        if hex_ in end:
            return {"player": player, "hex": hex_, "from": None}
        return None
    return observed


def next_offer(state: Mapping[str, Any], rules: Rules, dice: Dice, turn: int) -> dict[str, Any] | None:
    """A band of condottieri comes on offer at the start of ``turn`` when the schedule says so."""
    cfg = rules.condottieri
    if turn < cfg.first_offer_turn or (turn - cfg.first_offer_turn) % cfg.interval:
        return None
    number = (turn - cfg.first_offer_turn) // cfg.interval + 1
    stream = dice.stream(f"condottieri/{number}/offer")
    return {"id": number, "turn": turn, "size": stream.randint(cfg.size_min, cfg.size_max),
            "upkeep": stream.randint(cfg.upkeep_min, cfg.upkeep_max)}
