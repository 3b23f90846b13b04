"""A game round of the expansion, step by step, as the document orders it.

    turn 1      [holy lands: the dice-off for each token, its winner places it] → planning → action
    turn 2..10  diplomacy → trade (and the Night's Watch dues) → Westeros (the fourth card)
                → [Clash of Kings: three sealed bids, ties broken by the Iron Throne]
                → [Littlefinger's Hand: one bribe a house] → planning → action
    end         crowns and Consolidate Power pay; each house's statement; seven castles win

«Модификация фаз хода. Начиная со второго хода, перед фазой Вестероса, будут фазы
«Дипломатические операции» и «Торговые операции».» Each step resolves the posts of the houses
:func:`awaited` names; :class:`Resolver` walks the step's phase and moves the game to the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import CITED, Dice, pointer
from voevoda.core.ruleset import Event, Order, State
from voevoda.rulesets.thrones import economy
from voevoda.rulesets.thrones.battle import battle_strength
from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.movement import card_in_force, defended_against
from voevoda.rulesets.thrones.plan import Item, Plan, make_plan
from voevoda.rulesets.thrones.rules import TRACKS
from voevoda.rulesets.thrones.state import (
    alliance_of,
    castles_held,
    fits_supply,
    holder,
    iron_throne_order,
    lands_held,
    reserve,
    supply_level,
    unit_count,
)

PUBLIC = ("*",)


# -- who must answer ------------------------------------------------------------------------------------

def bribe_possible(state: Mapping[str, Any], ctx: Ctx, player: str) -> bool:
    """Whether ``player`` has a rival's army without knights next to its units (public facts
    only: a house is asked in turn even when it may have no money)."""
    board = state["board"]
    mine = [a for a, info in board.items() if info["house"] == player and unit_count(info)]
    for area in mine:
        for n in ctx.board.neighbours(area):
            info = board[n]
            if info["house"] not in (None, player) and unit_count(info) and not info["units"]["knight"]:
                return True
    return False


def current_holy(state: Mapping[str, Any]) -> str | None:
    """The holy token whose winner must place it now."""
    for hid, h in state["holy"].items():
        if h["area"] is None and h["winner"] is not None:
            return str(hid)
    return None


def awaited(state: Mapping[str, Any], ctx: Ctx) -> list[str]:
    """Who must post now, in the order the document asks them: the Iron Throne's order where it
    says «в порядке очередности хода»."""
    phase = state["phase"]
    order = iron_throne_order(state)
    if phase == "over":
        return []
    if phase == "holy":
        token = current_holy(state)
        return [state["holy"][token]["winner"]] if token else []
    if phase == "diplomacy":
        left = [p for p in order if p not in state["declared"]]
        if ctx.options.diplomacy == "together":
            return left
        return left[:1]
    if phase in ("westeros", "tiebreak"):
        return [holder(state)]
    if phase == "bribe":
        left = [p for p in order if p not in state["bribed"] and bribe_possible(state, ctx, p)]
        return left if ctx.options.bribes == "together" else left[:1]
    return order


# -- the resolution -------------------------------------------------------------------------------------

class Resolver:
    """Resolves one step: the posts of the awaited houses in ``orders``."""

    def __init__(self, ctx: Ctx, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> None:
        self.ctx = ctx
        self.state = state
        self.orders = orders
        self.dice = dice
        self.events: list[Event] = []
        self.turn = int(state["turn"])
        self.arrivals: dict[str, dict[str, dict[str, int]]] = {}
        self.before: dict[str, str | None] = {a: info["house"] for a, info in state["board"].items()}

    def emit(self, kind: str, data: dict[str, Any], audience: tuple[str, ...] = PUBLIC) -> None:
        self.events.append(Event(kind, {"turn": self.turn, **data}, audience))

    def plans(self, players: Sequence[str]) -> list[Plan]:
        """The posts of ``players`` (in that order), each walked against the state as it stands
        before any of them is applied; orders that break a rule are dropped (they were refused
        when posted, so this only happens to default orders)."""
        out = []
        for p in players:
            plan = make_plan(self.ctx, self.state, p, list(self.orders.get(p, [])))
            for item in plan.items:
                if item.problems:
                    self.emit("order_refused", {"player": p, "order": item.order.to_json(),
                                                "why_ru": item.problems[0][0], "why_en": item.problems[0][1]}, (p,))
            out.append(plan)
        return out

    @staticmethod
    def good(plan: Plan, *kinds: str) -> list[Item]:
        return [i for i in plan.ordered() if not i.problems and (not kinds or i.order.kind in kinds)]

    def run(self) -> list[Event]:
        phase = self.state["phase"]
        getattr(self, f"phase_{phase}")()
        return self.events

    # -- money, in any phase --------------------------------------------------------------------------------

    def money_out(self, plan: Plan) -> list[tuple[str, str, int, str]]:
        """The post's payments, taken from the payer now; the credits they owe, for :meth:`money_in`."""
        owed: list[tuple[str, str, int, str]] = []
        p = plan.player
        for item in self.good(plan, "transfer"):
            a = item.order.args
            paid = economy.debit(self.state, p, int(a["amount"]), "transfer_out", f"{a['to']}: {a.get('reason', '')}")
            owed.append((p, str(a["to"]), paid, str(a.get("reason", ""))))
        for item in self.good(plan, "deal"):
            a = item.order.args
            deal: dict[str, Any] = {"id": int(self.state["next_deal"]), "by": p, "to": str(a["to"]), "amount": int(a["amount"]),
                    "service": str(a["service"]), "turn": self.turn, "status": "offered"}
            self.state["next_deal"] += 1
            self.state["deals"].append(deal)
            self.emit("deal_offered", {k: deal[k] for k in ("id", "by", "to", "amount", "service")}, (p, deal["to"]))
        for item in self.good(plan, "accept", "decline"):
            number = int(item.order.args["deal"])
            deal = next(d for d in self.state["deals"] if d["id"] == number)
            if item.order.kind == "decline":
                deal["status"] = "declined"
                self.emit("deal_declined", {k: deal[k] for k in ("id", "by", "to", "amount", "service")},
                          (deal["by"], deal["to"]))
                continue
            payer = deal["by"]
            if int(self.state["treasury"][payer]["power"]) < int(deal["amount"]):
                deal["status"] = "lapsed"
                self.emit("deal_lapsed", {**{k: deal[k] for k in ("id", "by", "to", "amount", "service")},
                                          "why": "funds"}, (deal["by"], deal["to"]))
                continue
            deal["status"] = "accepted"
            paid = economy.debit(self.state, payer, int(deal["amount"]), "deal_out", f"{deal['to']}: deal:{number}")
            owed.append((payer, deal["to"], paid, f"deal:{number}"))
            self.emit("deal_accepted", {k: deal[k] for k in ("id", "by", "to", "amount", "service")},
                      (deal["by"], deal["to"]))
        return owed

    def money_in(self, owed: list[tuple[str, str, int, str]]) -> None:
        """The end of the step: what was sent arrives, within the recipient's reserve; what the
        reserve cannot hold stays with the payer (ruling T9)."""
        for payer, to, amount, reason in owed:
            room = reserve(self.state, self.ctx.rules, to)
            got = min(amount, room)
            if got:
                economy.credit(self.state, self.ctx, to, got, "transfer_in", f"{payer}: {reason}")
            if got < amount:
                economy.credit(self.state, self.ctx, payer, amount - got, "transfer_back", to)
            self.emit("transfer", {"from": payer, "to": to, "amount": got, "offered": amount, "reason": reason},
                      (payer, to))

    def settle_money(self, plans: Sequence[Plan]) -> None:
        owed: list[tuple[str, str, int, str]] = []
        for plan in plans:
            owed.extend(self.money_out(plan))
        self.money_in(owed)

    def power_lines(self, plan: Plan) -> None:
        for item in self.good(plan, "power"):
            amount, reason = int(item.order.args["amount"]), str(item.order.args.get("reason", ""))
            if amount > 0:
                economy.credit(self.state, self.ctx, plan.player, amount, "board", reason)
            else:
                economy.debit(self.state, plan.player, -amount, "board", reason)
            self.emit("power", {"player": plan.player, "amount": amount, "reason": reason})

    # -- turn 1: the holy places -------------------------------------------------------------------------

    def emit_draw(self, token: str, step: int | None = None) -> None:
        h = self.state["holy"][token]
        faces = h.get("faces", {})
        cited = [self.dice.stream(f"holy/{token}/{p}").cite(pointer("faces", p), step=step)
                 for p in faces if faces[p]] if step is None else [
                     {"field": pointer("faces", p), "label": f"holy/{token}/{p}", "from": 0, "count": len(faces[p]),
                      "step": 0} for p in faces if faces[p]]
        self.emit("holy_draw", {"token": token, "faces": faces, "winner": h["winner"], CITED: cited})

    def phase_holy(self) -> None:
        state = self.state
        token = current_holy(state)
        assert token is not None
        first = next(iter(state["holy"]))
        if token == first and not state["holy"][token].get("told"):
            # the first dice-off was rolled at setup (step 0); it is told now
            self.emit_draw(token, step=0)
        state["holy"][token]["told"] = True
        player = state["holy"][token]["winner"]
        plan = self.plans([player])[0]
        placed = self.good(plan, "holy")
        area = str(placed[0].order.args["area"]) if placed else default_holy_area(state, self.ctx, token, player)
        state["holy"][token]["area"] = area
        self.emit("holy_placed", {"token": token, "player": player, "area": area})
        self.settle_money([plan])
        nxt = next((hid for hid, h in state["holy"].items() if h["area"] is None and h["winner"] is None), None)
        if nxt is not None:
            dice_off(state, self.dice, nxt)
            self.emit_draw(nxt)
            state["holy"][nxt]["told"] = True
        else:
            state["phase"] = "planning"

    # -- diplomacy ------------------------------------------------------------------------------------------

    def phase_diplomacy(self) -> None:
        """«После того, как все переговоры закончены, игроки объявляют о своих союзах в порядке
        очередности хода в соответствии с треком железного трона. После этого заявленные союзы
        фиксируются до конца данного хода.» An alliance stands when every member named the same
        members (ruling T5)."""
        state = self.state
        players = awaited(state, self.ctx)
        plans = self.plans(players)
        for plan in plans:
            said = self.good(plan, "alliance", "alone")
            members = sorted(str(m) for m in said[0].info.get("members", [])) if said else []
            state["declared"][plan.player] = members
            self.emit("declared", {"player": plan.player, "members": members})
        self.settle_money(plans)
        if all(p in state["declared"] for p in state["seats"]):
            state["alliances"] = form_alliances(state["declared"])
            self.emit("alliances", {"alliances": state["alliances"],
                                    "dues": {p: economy.dues_each(state, self.ctx, p) for p in state["seats"]}})
            state["phase"] = "trade"

    # -- trade ---------------------------------------------------------------------------------------------

    def phase_trade(self) -> None:
        """«В этой фазе происходит покупка и продажа войск» and, «В конце торговой фазы», the
        Night's Watch dues."""
        state = self.state
        order = iron_throne_order(state)
        plans = self.plans(order)
        troops: dict[str, list[tuple[str, dict[str, int]]]] = {p: [] for p in order}
        for plan in plans:
            p = plan.player
            for item in self.good(plan):
                kind, a = item.order.kind, item.order.args
                if kind == "sell":
                    units = {str(a["unit"]): int(a["count"])}
                    self.remove(str(a["area"]), p, units)
                    value = -item.cost
                    economy.note(state, p, "sale", value, f"{a['area']}")
                    state["treasury"][p]["power"] += value
                    self.emit("sale", {"player": p, "unit": a["unit"], "count": a["count"], "area": a["area"],
                                       "value": value})
                elif kind == "upgrade":
                    stats = self.ctx.rules.units[a["unit"]]
                    self.remove(str(a["area"]), p, {str(stats.upgrade_from): int(a["count"])})
                    self.add(str(a["area"]), p, {str(a["unit"]): int(a["count"])})
                    economy.debit(state, p, item.cost, "upgrade", f"{a['area']}")
                    self.emit("upgrade", {"player": p, "unit": a["unit"], "count": a["count"], "area": a["area"],
                                          "price": item.info["price"], "total": item.cost})
                elif kind == "buy":
                    where = str(item.info["where"])
                    info = state["board"][where]
                    if info["house"] not in (None, p) and unit_count(info):
                        # another house launched its ships there earlier in this step
                        self.emit("purchase_refused", {"player": p, "unit": a["unit"], "count": a["count"],
                                                       "area": where})
                        continue
                    self.add(where, p, {str(a["unit"]): int(a["count"])})
                    economy.debit(state, p, item.cost, "purchase", f"{where}")
                    self.emit("purchase", {"player": p, "unit": a["unit"], "count": a["count"], "area": where,
                                           "price": item.info["price"], "total": item.cost,
                                           "alliance": len(alliance_of(state, p))})
                elif kind == "dues":
                    units = {str(k): int(v) for k, v in a["units"].items()}
                    self.remove(str(a["area"]), p, units)
                    troops[p].append((str(a["area"]), units))
            self.trim(p)
        self.settle_money(plans)
        self.night_watch(troops)
        state["phase"] = "westeros"

    def night_watch(self, troops: Mapping[str, list[tuple[str, dict[str, int]]]]) -> None:
        """«Каждый член союза должен потратить некую сумму денег в конце торговой фазы ... Если
        денег не хватает, то надо продать имеющихся воинов за номинал и набрать необходимую для
        взноса сумму». Troops a house named pay at their nominal first; then coins; then the
        companion sells the house's troops as a table would (:func:`economy.settle_dues`, ruling
        T8). The house's statement says what it owed and which troops went, named or sold."""
        state, ctx = self.state, self.ctx
        for p in iron_throne_order(state):
            due = economy.dues_each(state, ctx, p)
            given = troops.get(p, [])
            if not due and not given:
                continue
            value = sum(economy.units_value(ctx, u) for _, u in given)
            own = {area: {k: int(n) for k, n in info["units"].items() if n}
                   for area, info in state["board"].items() if info["house"] == p and unit_count(info)}
            settled = economy.settle_dues(ctx, due, value, int(state["treasury"][p]["power"]), own)
            economy.note(state, p, "dues_owed", 0, str(due))
            for area, units in given:
                economy.note(state, p, "dues_troops", 0, area, units)
            economy.debit(state, p, settled.coins, "dues", "")
            for area, units in settled.sold:
                self.remove(area, p, units)
                economy.note(state, p, "dues_sold", 0, area, units)
            if settled.change:
                economy.credit(state, ctx, p, settled.change, "dues_change", "")
            if settled.unpaid:
                economy.note(state, p, "dues_unpaid", 0, str(settled.unpaid))
            self.emit("dues", {"player": p, "due": due, "troops": [[a, u] for a, u in given], "troops_value": value,
                               "coins": settled.coins, "forced": [[a, u] for a, u in settled.sold],
                               "unpaid": settled.unpaid})

    # -- the board ------------------------------------------------------------------------------------------

    def add(self, area: str, player: str, units: Mapping[str, int]) -> None:
        info = self.state["board"][area]
        if unit_count(info) and info["house"] != player:
            raise AssertionError(f"{area}: units of two houses")
        for k, n in units.items():
            info["units"][k] += n
        if unit_count(info):
            info["house"] = player
            if info["token"] not in (None, player):
                info["token"] = None

    def remove(self, area: str, player: str, units: Mapping[str, int]) -> dict[str, int]:
        info = self.state["board"][area]
        taken: dict[str, int] = {}
        if info["house"] != player:
            return taken
        for k, n in units.items():
            got = min(n, int(info["units"][k]))
            info["units"][k] -= got
            if got:
                taken[k] = got
        if not unit_count(info):
            keep_home = self.home_of(area) == player or info["token"] == player
            if not keep_home:
                info["house"] = None if not self.ctx.board[area].is_land or info["token"] is None else info["token"]
        return taken

    def home_of(self, area: str) -> str | None:
        for p, seat in self.state["houses"].items():
            if seat["home"] == area:
                return str(p)
        return None

    def trim(self, player: str) -> None:
        """Bound the hand by the box: what a house cannot hold is lost (ruling T9)."""
        on_board = sum(1 for info in self.state["board"].values() if info["token"] == player)
        limit = self.ctx.rules.economy.tokens - on_board
        hand = int(self.state["treasury"][player]["power"])
        if hand > limit:
            self.state["treasury"][player]["power"] = limit
            economy.note(self.state, player, "reserve_cap", 0, str(hand - limit))

    # -- Westeros -------------------------------------------------------------------------------------------

    def phase_westeros(self) -> None:
        """«Четвертая карта Вестероса. Модифицирует некоторым образом перемещения, взаимодействия
        союзов и т.д.» The Iron Throne records the base cards the companion acts on (Supply, Clash of
        Kings); the fourth card is drawn by the companion (``deck/<turn>``) or recorded by the table."""
        state, ctx = self.state, self.ctx
        player = holder(state)
        plan = self.plans([player])[0]
        said = self.good(plan, "westeros")
        cards = [str(c) for c in said[0].order.args["cards"]] if said else []
        state["westeros"] = {"turn": self.turn, "cards": cards}
        data: dict[str, Any] = {"player": player, "cards": cards}
        if ctx.options.deck_draw == "table":
            named = self.good(plan, "fourth")
            card_id = str(named[0].order.args["card"]) if named else None
            data["drawn_by"] = "table"
        else:
            card_id, face, left, cite = self.draw_fourth()
            data.update({"drawn_by": "companion", "draw": face, "left": left, CITED: [cite]})
        state["card"] = {"id": card_id, "turn": self.turn} if card_id else None
        data["card"] = card_id
        self.emit("westeros", data)
        if "supply" in cards:
            top = len(ctx.rules.supply.limits) - 1
            for p in state["seats"]:
                state["supply"][p] = supply_level(state, ctx.board, p, top)
            self.emit("supply", {"levels": dict(state["supply"])})
        self.settle_money([plan])
        if "clash" in cards:
            state["phase"] = "bids"
            state["bidding"] = {"track": TRACKS[0], "bids": {}, "ties": []}
        else:
            self.after_westeros()

    def draw_fourth(self) -> tuple[str, int, int, dict[str, object]]:
        """One card from what is left of the fourth deck: a d(n) over the cards left, in the deck's
        order (``deck/<turn>``); an empty deck is shuffled anew first (ruling T12)."""
        deck: list[str] = []
        for spec in self.ctx.rules.deck.all():
            deck.extend([spec.id] * spec.count)
        left = list(deck)
        for drawn in self.state["deck"]["drawn"]:
            if drawn in left:
                left.remove(drawn)
        if not left:
            self.state["deck"]["drawn"] = []
            left = list(deck)
        stream = self.dice.stream(f"deck/{self.turn}")
        face = stream.roll(len(left))
        card = left[face - 1]
        self.state["deck"]["drawn"].append(card)
        cite = stream.cite("/draw", stream.count - 1, 1)
        return card, face, len(left), cite

    def after_westeros(self) -> None:
        state = self.state
        state["bidding"] = None
        if card_in_force(state, self.ctx, "littlefinger") and any(
                bribe_possible(state, self.ctx, p) for p in state["seats"]):
            state["phase"] = "bribe"
            state["bribed"] = []
        else:
            state["phase"] = "planning"

    # -- the Clash of Kings ------------------------------------------------------------------------------------

    def phase_bids(self) -> None:
        """«Битва королей (торговлю за треки влияния) играется молча ... ставки втемную, имеющиеся
        на руках суммы не озвучиваются.» The bids are revealed together and paid (base rules);
        equal bids are ordered by the holder of the Iron Throne."""
        state = self.state
        bidding = state["bidding"]
        plans = self.plans(iron_throne_order(state))
        bids: dict[str, int] = {}
        for plan in plans:
            said = self.good(plan, "bid")
            bids[plan.player] = int(said[0].order.args["amount"]) if said else 0
            economy.debit(state, plan.player, bids[plan.player], "bid", bidding["track"])
        previous = list(state["tracks"][bidding["track"]])
        groups: dict[int, list[str]] = {}
        for p in previous:
            groups.setdefault(bids[p], []).append(p)
        ties = [g for _, g in sorted(groups.items(), reverse=True) if len(g) > 1]
        self.emit("bids", {"track": bidding["track"], "bids": bids, "ties": ties})
        bidding["bids"] = bids
        bidding["ties"] = ties
        if ties:
            state["phase"] = "tiebreak"
        else:
            self.apply_track(bids, [])

    def phase_tiebreak(self) -> None:
        state = self.state
        plan = self.plans([holder(state)])[0]
        listed = [str(p) for item in self.good(plan, "tiebreak") for p in item.order.args["order"]]
        bidding = state["bidding"]
        self.emit("tiebreak", {"player": plan.player, "track": bidding["track"], "order": listed})
        self.apply_track(dict(bidding["bids"]), listed)

    def apply_track(self, bids: Mapping[str, int], listed: Sequence[str]) -> None:
        """The track ordered by bids, highest first; equal bids as the Iron Throne listed them (by
        default, as they stood before, ruling T20)."""
        state = self.state
        bidding = state["bidding"]
        track = bidding["track"]
        previous = list(state["tracks"][track])
        rank = {p: i for i, p in enumerate(listed)}

        def key(p: str) -> tuple[int, int, int]:
            return (-bids.get(p, 0), rank.get(p, len(rank)), previous.index(p))

        new = sorted(previous, key=key)
        state["tracks"][track] = new
        self.emit("track", {"track": track, "order": new})
        index = TRACKS.index(track)
        if index + 1 < len(TRACKS):
            state["bidding"] = {"track": TRACKS[index + 1], "bids": {}, "ties": []}
            state["phase"] = "bids"
        else:
            self.after_westeros()

    # -- Littlefinger's Hand ------------------------------------------------------------------------------------

    def phase_bribe(self) -> None:
        """«Угадал выпавшую цифру - войска противника становятся его собственностью, земля/замок -
        тоже. Нет так нет.» «Ставлю 6 монет (ушестеренную стоимость отряда). Без броска кубика
        пехотинец гарантированно переходит ко мне»."""
        state = self.state
        players = awaited(state, self.ctx)
        plans = self.plans(players)
        for plan in plans:
            p = plan.player
            state["bribed"].append(p)
            attempts = self.good(plan, "bribe")
            if not attempts:
                self.emit("bribe_pass", {"player": p})
                continue
            item = attempts[0]
            a, info = item.order.args, item.info
            area = str(a["area"])
            there = state["board"][area]
            target = str(info["target"])
            if there["house"] != target or any(int(there["units"][k]) != n for k, n in info["units"].items()):
                # the army changed hands earlier in this step (bribes together)
                self.emit("bribe_void", {"player": p, "area": area}, PUBLIC)
                continue
            stake = int(a["stake"])
            economy.debit(state, p, stake, "bribe", area)
            if self.ctx.options.bribe_stake == "target":
                economy.credit(state, self.ctx, target, stake, "bribe_in", "")
            data: dict[str, Any] = {"player": p, "target": target, "area": area, "units": info["units"],
                                    "stake": stake, "times": info["times"], "faces": info["faces"]}
            if info["times"] >= 6:
                data["roll"] = None
                success = True
            else:
                stream = self.dice.stream(f"bribe/{self.turn}/{p}")
                data["roll"] = stream.roll(6)
                data[CITED] = [stream.cite("/roll", stream.count - 1, 1)]
                success = data["roll"] in info["faces"]
            data["success"] = success
            if success:
                there["house"] = p
                there["garrison"] = 0
                there["token"] = None
            self.emit("bribe", data)
        self.settle_money(plans)
        if not awaited(state, self.ctx):
            state["phase"] = "planning"

    # -- planning -------------------------------------------------------------------------------------------

    def phase_planning(self) -> None:
        state = self.state
        order = iron_throne_order(state)
        plans = self.plans(order)
        placed: dict[str, dict[str, Any]] = {}
        passages: list[dict[str, str]] = []
        for plan in plans:
            p = plan.player
            self.unit_lines(plan)
            for item in self.good(plan, "order"):
                placed[str(item.order.args["area"])] = {"house": p, "kind": str(item.order.args["kind"]),
                                                        "raided": False}
            for item in self.good(plan, "passage"):
                passages.append({"by": p, "to": str(item.order.args["to"]), "area": str(item.order.args["area"])})
            self.power_lines(plan)
            self.trim(p)
            self.enforce_supply(p)
        state["orders"] = dict(sorted(placed.items()))
        state["passages"] = passages
        self.emit("orders", {"orders": state["orders"], "passages": passages})
        self.settle_money(plans)
        state["phase"] = "action"

    def enforce_supply(self, player: str) -> None:
        """A house over its supply limit disbands until it fits (base rules, «Снабжение»); units
        it did not name go from its largest army, never a footman a siege tower needs while the army
        has another unit, then the cheapest (ruling T8)."""
        state = self.state
        limits = self.ctx.rules.supply.limits
        allowed = limits[min(int(state["supply"][player]), len(limits) - 1)]
        gone: dict[str, dict[str, int]] = {}
        while True:
            armies = sorted(((unit_count(info), area) for area, info in state["board"].items()
                             if info["house"] == player and unit_count(info) >= 2), key=lambda x: (-x[0], x[1]))
            if fits_supply([n for n, _ in armies], allowed):
                break
            area = armies[0][1]
            kind = economy.unit_to_give_up(self.ctx, {k: int(n) for k, n in state["board"][area]["units"].items()})
            self.remove(area, player, {kind: 1})
            here = gone.setdefault(area, {})
            here[kind] = here.get(kind, 0) + 1
        for area, units in gone.items():
            # one line an area: «Хайгарден — 2 пеших», not a line for each footman
            self.emit("disband", {"player": player, "area": area, "units": units, "why": "supply"})

    def unit_lines(self, plan: Plan) -> None:
        p = plan.player
        for item in self.good(plan, "disband"):
            area, units = str(item.order.args["area"]), {str(k): int(v) for k, v in item.order.args["units"].items()}
            self.remove(area, p, units)
            self.emit("disband", {"player": p, "area": area, "units": units})
        for item in self.good(plan, "record"):
            area, units = str(item.order.args["area"]), {str(k): int(v) for k, v in item.order.args["units"].items()}
            info = self.state["board"][area]
            if unit_count(info) and info["house"] not in (None, p):
                self.emit("order_refused", {"player": p, "order": item.order.to_json(),
                                            "why_ru": "там уже другие войска", "why_en": "another house stands there"},
                          (p,))
                continue
            if info["house"] == p:
                self.remove(area, p, {k: int(v) for k, v in info["units"].items() if v})
            if units:
                self.add(area, p, units)
            self.emit("record", {"player": p, "area": area, "units": units})

    # -- action ---------------------------------------------------------------------------------------------

    def phase_action(self) -> None:
        """The table's action phase as recorded: raids, then marches in the Iron Throne's order,
        then losses and retreats, then the battles' losers that stayed are destroyed (ruling T18);
        power tokens left on lands; corrections. Then the end of the round."""
        state = self.state
        order = iron_throne_order(state)
        plans = self.plans(order)
        by_player = {plan.player: plan for plan in plans}
        for p in order:
            for item in self.good(by_player[p], "raid"):
                self.raid(p, item)
        won: dict[str, str] = {}
        for p in order:
            typed = {str(i.order.args["area"]): list(i.order.args["sides"]) for i in self.good(by_player[p], "battle")}
            for item in self.good(by_player[p], "march"):
                self.march(p, item, won, typed)
        for p in order:
            for item in self.good(by_player[p], "losses"):
                area = str(item.order.args["area"])
                units = {str(k): int(v) for k, v in item.order.args["units"].items()}
                taken = self.remove_anywhere(area, p, units)
                self.emit("losses", {"player": p, "area": area, "units": taken})
        for p in order:
            for item in self.good(by_player[p], "retreat"):
                self.retreat(p, item)
        for area, winner in won.items():
            self.settle_battle(area, winner)
        self.collapse()
        for p in order:
            plan = by_player[p]
            for item in self.good(plan, "token"):
                area = str(item.order.args["area"])
                info = state["board"][area]
                if unit_count(info) or info["token"] is not None or int(state["treasury"][p]["power"]) < 1:
                    self.emit("token", {"player": p, "area": area, "placed": False})
                    continue
                economy.debit(state, p, 1, "token", area)
                info["token"] = p
                info["house"] = p
                self.emit("token", {"player": p, "area": area, "placed": True})
            self.unit_lines(plan)
            self.power_lines(plan)
            self.trim(p)
        self.settle_money(plans)
        self.end_of_round()

    def raid(self, player: str, item: Item) -> None:
        src, dst = str(item.order.args["from"]), str(item.order.args["to"])
        target = self.state["orders"].get(dst)
        if not target or target.get("raided"):
            self.emit("raid", {"player": player, "from": src, "to": dst, "order": None})
            return
        target["raided"] = True
        victim = str(target["house"])
        data = {"player": player, "from": src, "to": dst, "order": target["kind"], "victim": victim}
        if target["kind"] == "consolidate":
            # base rules: raiding Consolidate Power, the raider gains a token and the raided loses one
            economy.credit(self.state, self.ctx, player, 1, "raid_gain", dst)
            economy.debit(self.state, victim, 1, "raid_loss", dst)
        self.emit("raid", data)

    def presence(self, area: str) -> dict[str, dict[str, int]]:
        """Who has units in ``area`` during the action step: the board's holder, and the houses
        that arrived there while a battle is pending (``self.arrivals``)."""
        info = self.state["board"][area]
        out: dict[str, dict[str, int]] = {}
        if info["house"] is not None and unit_count(info):
            out[str(info["house"])] = {k: int(v) for k, v in info["units"].items() if v}
        for p, units in self.arrivals.get(area, {}).items():
            mine = out.setdefault(p, {})
            for k, n in units.items():
                if n:
                    mine[k] = mine.get(k, 0) + n
        return {p: u for p, u in out.items() if u}

    def march(self, player: str, item: Item, won: dict[str, str],
              typed: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> None:
        a = item.order.args
        path, outcome = [str(x) for x in a["path"]], a.get("outcome")
        units = {str(k): int(v) for k, v in (item.info.get("units") or a["units"]).items()}
        start, end = path[0], path[-1]
        data = {"player": player, "path": path, "units": units, "outcome": outcome,
                "transits": item.info.get("transits", [])}
        if item.info.get("battle") and defended_against(self.state, self.ctx, end, player):
            # the strength the table added up, as the board stands after this step's raids (ruling T28)
            strength = battle_strength(self.ctx, self.state, player, end, units, (typed or {}).get(end, ()),
                                       {start: units})
            self.emit("battle", {"player": player, "area": end, "outcome": outcome, "strength": strength})
        if outcome == "lost":
            # the attacker lost: its army stays where it marched from (base rules, «Отступление»)
            self.emit("march", {**data, "applied": True})
            return
        lost_support = [a for a, how in zip(path[1:-1], item.info.get("transits", []), strict=False)
                        if how in ("allied-land", "allied-ships") and self.state["orders"].get(a, {}).get("raided")]
        if lost_support:
            # a raid resolved before the marches removed the support order the passage needed
            self.emit("march", {**data, "applied": False, "raided_support": lost_support[0]})
            return
        others = [q for q in self.presence(end) if q != player]
        if others and not item.info.get("battle"):
            # another house got there first in this step: the table fought a battle the companion
            # was not told of, so the march is not applied (ruling T18)
            self.emit("march", {**data, "applied": False, "blocked_by": others[0]})
            return
        taken = self.remove_anywhere(start, player, units)
        if not taken:
            self.emit("march", {**data, "applied": False})
            return
        info = self.state["board"][end]
        token = info["token"]
        self.arrive(end, player, taken)
        if outcome == "won":
            won[end] = player
        elif token not in (None, player):
            self.emit("token_removed", {"player": token, "area": end, "by": player})
            info["token"] = None
        self.emit("march", {**data, "units": taken, "applied": True})

    def arrive(self, area: str, player: str, units: Mapping[str, int]) -> None:
        """Units reach ``area``: onto the board when no other house's units stand there, else
        they wait beside them until the battle is settled."""
        info = self.state["board"][area]
        if unit_count(info) and info["house"] != player:
            mine = self.arrivals.setdefault(area, {}).setdefault(player, {})
            for k, n in units.items():
                mine[k] = mine.get(k, 0) + n
            return
        self.add(area, player, units)

    def remove_anywhere(self, area: str, player: str, units: Mapping[str, int]) -> dict[str, int]:
        """Units taken from ``area``: first from those that arrived there in this step, then from
        those that stood there."""
        taken: dict[str, int] = {}
        mine = self.arrivals.get(area, {}).get(player, {})
        for k, n in units.items():
            got = min(n, mine.get(k, 0))
            if got:
                mine[k] -= got
                taken[k] = got
        rest = {k: n - taken.get(k, 0) for k, n in units.items() if n - taken.get(k, 0) > 0}
        for k, n in self.remove(area, player, rest).items():
            taken[k] = taken.get(k, 0) + n
        return taken

    def retreat(self, player: str, item: Item) -> None:
        """A loser's retreat; when another house now stands where it would go, the units cannot
        retreat and are destroyed (base rules)."""
        a = item.order.args
        src, dst = str(a["from"]), str(a["to"])
        units = {str(k): int(v) for k, v in a["units"].items()}
        taken = self.remove_anywhere(src, player, units)
        if any(q != player for q in self.presence(dst)):
            self.emit("destroyed", {"player": player, "area": src, "units": taken, "why": "no_retreat"})
            return
        if taken:
            self.arrive(dst, player, taken)
        self.emit("retreat", {"player": player, "from": src, "to": dst, "units": taken})

    def settle_battle(self, area: str, winner: str) -> None:
        """A battle the attacker won: what the loser left there is destroyed, and a garrison or a
        power token there is gone (base rules)."""
        info = self.state["board"][area]
        loser = info["house"] if info["house"] != winner else None
        if loser is not None and unit_count(info):
            left = {k: int(v) for k, v in info["units"].items() if v}
            for k in info["units"]:
                info["units"][k] = 0
            self.emit("destroyed", {"player": loser, "area": area, "units": left, "why": "battle"})
        if info["garrison"] and self.before.get(area) != winner:
            self.emit("garrison_taken", {"player": winner, "area": area, "garrison": info["garrison"]})
            info["garrison"] = 0
        if info["token"] not in (None, winner):
            self.emit("token_removed", {"player": info["token"], "area": area, "by": winner})
            info["token"] = None
        if not unit_count(info) and info["house"] != winner:
            info["house"] = None

    def collapse(self) -> None:
        """Arrivals join the board once the battles are settled."""
        for area, houses in sorted(self.arrivals.items()):
            for p, units in houses.items():
                units = {k: n for k, n in units.items() if n > 0}
                if not units:
                    continue
                info = self.state["board"][area]
                if unit_count(info) and info["house"] != p:
                    self.emit("destroyed", {"player": p, "area": area, "units": units, "why": "contested"})
                    continue
                self.add(area, p, units)
        self.arrivals = {}

    # -- the end of the round --------------------------------------------------------------------------------

    def end_of_round(self) -> None:
        """«земли с короной теперь приносят доход каждый ход, даже если приказа на них нет.
        Поставленный на такие земли приказ увеличивает доход, как и в базовых правилах» (ruling T6),
        each house's statement, and the end of the game."""
        state, ctx = self.state, self.ctx
        income: dict[str, dict[str, int]] = {p: {"crowns": 0, "consolidate": 0} for p in state["seats"]}
        for area, info in state["board"].items():
            holder_ = info["house"]
            if holder_ is not None and ctx.board[area].is_land:
                income[holder_]["crowns"] += ctx.board[area].crowns
        for area, placed in state["orders"].items():
            if placed["kind"] != "consolidate" or placed.get("raided"):
                continue
            if state["board"][area]["house"] != placed["house"]:
                continue
            extra = 1 + (ctx.board[area].crowns if ctx.options.consolidate == "base_added" else 0)
            income[placed["house"]]["consolidate"] += extra
        for p in state["seats"]:
            total = income[p]["crowns"] + income[p]["consolidate"]
            if income[p]["crowns"]:
                economy.credit(state, ctx, p, income[p]["crowns"], "crowns", "")
            if income[p]["consolidate"]:
                economy.credit(state, ctx, p, income[p]["consolidate"], "consolidate", "")
            income[p]["total"] = total
        self.emit("income", {"income": income})
        for deal in state["deals"]:
            if deal["status"] == "offered":
                deal["status"] = "lapsed"
                self.emit("deal_lapsed", {**{k: deal[k] for k in ("id", "by", "to", "amount", "service")},
                                          "why": "turn"}, (deal["by"], deal["to"]))
        for p in state["seats"]:
            t = state["treasury"][p]
            self.emit("statement", {"player": p, "opening": t["opening"], "lines": list(t["statement"]),
                                    "closing": t["power"]}, (p,))
            t["opening"] = t["power"]
            t["statement"] = []
        castles = {p: castles_held(state, ctx.board, p) for p in state["seats"]}
        winners = [p for p in state["seats"] if castles[p] >= ctx.rules.game.castles_to_win]
        if winners or self.turn >= ctx.turns:
            ranked = sorted(state["seats"], key=lambda p: (-castles[p], -lands_held(state, ctx.board, p),
                                                           -int(state["supply"][p]),
                                                           -int(state["treasury"][p]["power"]),
                                                           state["tracks"]["iron_throne"].index(p)))
            reason = "castles" if winners else "turns"
            state["outcome"] = {"winners": [ranked[0]], "reason": reason, "castles": castles, "ranking": ranked}
            state["phase"] = "over"
            self.emit("game_over", dict(state["outcome"]))
            return
        state["turn"] = self.turn + 1
        state["phase"] = "diplomacy"
        state["alliances"] = []
        state["declared"] = {}
        state["orders"] = {}
        state["passages"] = []
        state["card"] = None
        state["westeros"] = None
        state["bribed"] = []
        state["bidding"] = None


# -- shared with setup and the defaults --------------------------------------------------------------------

def dice_off(state: State, dice: Dice, token: str) -> None:
    """«перед началом партии за первый жетон каждый игрок кидает кубик. Выкинувший наибольшее
    число (иногда требуется несколько раундов бросков) получает жетон ... В бросках за следующие
    жетоны победитель участие не принимает.» Each contender's d6 under ``holy/<token>/<player>``;
    the tied highest roll again; a lone contender takes the token without a roll."""
    winners = {h["winner"] for h in state["holy"].values() if h["winner"]}
    contenders = [p for p in state["seats"] if p not in winners]
    faces: dict[str, list[int]] = {p: [] for p in contenders}
    group = list(contenders)
    while len(group) > 1:
        for p in group:
            faces[p].append(dice.stream(f"holy/{token}/{p}").roll(6))
        top = max(faces[p][-1] for p in group)
        group = [p for p in group if faces[p][-1] == top]
    state["holy"][token]["winner"] = group[0] if group else None
    state["holy"][token]["faces"] = faces


def form_alliances(declared: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """«Официальное заключение союза ознаменовывается заявлением домов о том, что у них союз»: an
    alliance stands when each of its houses declared exactly the others (ruling T5)."""
    formed: list[list[str]] = []
    for p, members in declared.items():
        if not members:
            continue
        group = sorted({p, *members})
        if group in formed:
            continue
        if all(q in declared and sorted({q, *declared[q]}) == group for q in group):
            formed.append(group)
    return sorted(formed)


def default_holy_area(state: Mapping[str, Any], ctx: Ctx, token: str, player: str) -> str:
    """Where a winner who says nothing puts a holy place: his home («обычно ставят в свою»), or for
    the sea token the first sea by his home; else the first free area of the right kind."""
    spec = ctx.rules.holy_place(token)
    taken = {h["area"] for h in state["holy"].values() if h["area"]}
    home = state["houses"][player]["home"]
    if spec.terrain == "land":
        candidates = [home] + [a for a, info in state["board"].items() if info["house"] == player] + ctx.board.lands()
        fits = [a for a in candidates if ctx.board[a].is_land and a not in taken]
    else:
        near = [n for n in ctx.board.neighbours(home) if ctx.board[n].is_sea]
        port = ctx.board.port_of.get(home)
        if port:
            near.append(ctx.board.port_sea[port])
        fits = [a for a in [*near, *ctx.board.seas()] if ctx.board[a].is_sea and a not in taken]
    return str(fits[0])
