"""Кольцо Власти (Ring of Power): the ruleset the engine drives.

Every turn all living players post their orders at once; ``resolve`` runs the turn of
:mod:`voevoda.rulesets.ring_of_power.turn`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import GameError, ParseError, Problem, illegal, warning
from voevoda.core.hidden import HiddenParts
from voevoda.core.markup import Document
from voevoda.core.ruleset import (
    GM,
    PUBLIC,
    Event,
    Order,
    Outcome,
    Prompt,
    Resolution,
    Ruleset,
    State,
    StateProblem,
    Viewer,
)
from voevoda.core.words import count_ru, counted, past
from voevoda.rulesets.ring_of_power import bot as bot_module
from voevoda.rulesets.ring_of_power import report as report_module
from voevoda.rulesets.ring_of_power import svgmap
from voevoda.rulesets.ring_of_power.board import Board
from voevoda.rulesets.ring_of_power.orders import (
    TREASURY,
    TREASURY_ALIASES,
    PostReader,
    begins_order,
    describe,
)
from voevoda.rulesets.ring_of_power.rules import Options, load_map, load_options, load_rules
from voevoda.rulesets.ring_of_power.schema import RingOfPowerState, invariants
from voevoda.rulesets.ring_of_power.state import (
    alive_players,
    band_may_land,
    board_of,
    commandable,
    owner,
    units_at,
    visible_hexes,
)
from voevoda.rulesets.ring_of_power.turn import Turn, next_offer, stacks_at_raising, transfer_fee
from voevoda.rulesets.ring_of_power.views import gm_view, player_view, public_view

RULE = "003"
CONDOTTIERI = ("кондотьер", "кондотьера", "кондотьеров")
"""Written out: the prompts of `voevoda status` count them, and status loads no dictionary."""
RESERVED_NAMES = {"public", "gm", *TREASURY_ALIASES, TREASURY.casefold()}
UNIT_ORDERS = ("move", "support", "disband", "upgrade")
PHASE_NAMES = {"orders": ("приказы", "orders"), "over": ("игра окончена", "game over")}


def _rule(section: str) -> str:
    return f"{RULE} «{section}»"


class RingOfPower(Ruleset):
    id = "ring-of-power"
    version = "1.0"
    title_ru = "Кольцо Власти"
    title_en = "Ring of Power"
    min_players = 2
    max_players = 8

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        self.options = load_options(self.config)
        self.rules = load_rules(self.house_rules)
        self.map = load_map(self.options.map_name, self.options.map)
        self.seats = min(len(self.map.starts), len(self.rules.colors.players))

    # -- setup --------------------------------------------------------------------------------

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        names = list(players)
        if not self.min_players <= len(names) <= self.seats:
            raise GameError(f"на этой карте играют от {self.min_players} до {self.seats} игроков (дано {len(names)})",
                            f"this map takes {self.min_players} to {self.seats} players (got {len(names)})")
        if len({n.casefold() for n in names}) != len(names):
            raise GameError("имена игроков повторяются", "player names repeat")
        for n in names:
            if not n.strip() or n.casefold() in RESERVED_NAMES or "," in n:
                raise GameError(f"имя «{n}» занято или недопустимо", f"the name '{n}' is reserved or not allowed")
        fog = sorted(set(self.map.fog))
        state: State = {
            "ruleset": self.id,
            "turn": 1,
            "phase": "orders",
            "seats": names,
            "map": {"name": self.map.name, "title_ru": self.map.title_ru, "title_en": self.map.title_en,
                    "width": self.map.width, "height": self.map.height, "fog": fog,
                    "income": dict(sorted(self.map.income.items()))},
            "players": {},
            "holdings": {},
            "depletion": {},
            "units": [],
            "camps": {},
            "next_unit": 1,
            "chupacabras": [],
            "next_chupacabra": 1,
            "offer": None,
            "outcome": None,
        }
        for seat, name in enumerate(names):
            start = self.map.starts[seat]
            state["players"][name] = {"color": self.rules.colors.players[seat], "money": self.rules.start.money,
                                      "last_income": 0, "tax_due": 0, "hostile": [], "alive": True,
                                      "statement": []}
            for h in start.holdings:
                state["holdings"][h] = {"owner": name, "since": 0}
            for su in self.rules.start.units:
                if su.holding >= len(start.holdings):
                    raise GameError(f"в стартовой позиции {seat + 1} нет владения №{su.holding}",
                                    f"start position {seat + 1} has no holding #{su.holding}")
                hex_ = start.holdings[su.holding]
                state["units"].append({"id": state["next_unit"], "owner": name, "type": su.type, "hex": hex_,
                                       "upgrade_at": None, "upkeep": None})
                state["next_unit"] += 1
                state["camps"].setdefault(hex_, {})[name] = 0
        for _ in range(self.rules.chupacabra.initial):
            if not fog:
                break
            stream = dice.stream("chupacabra/setup", sealed=True)
            state["chupacabras"].append({"id": state["next_chupacabra"], "hex": fog[stream.roll(len(fog)) - 1],
                                         "eaten": 0, "reborn_at": None, "died_in": None})
            state["next_chupacabra"] += 1
        state["holdings"] = dict(sorted(state["holdings"].items()))
        state["offer"] = next_offer(state, self.rules, dice, 1)
        return state

    # -- orders --------------------------------------------------------------------------------

    def begins_order(self, line: str, player: str, state: State) -> bool:
        return begins_order(line)

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        post = self.read_post(text, player, state)
        reader = PostReader(list(state["seats"]), player)
        orders, problems = reader.read(post.orders)
        if problems:
            raise ParseError(problems, [self.describe(o) for o in orders], orders=orders)
        return orders

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """«Необходимо каждый ход перечислять 10% своего дохода на уплату налогов. Неуплата
        налога карается отъемом владения.» A post that pays less than the tax due is accepted
        (the player may mean it), with a warning."""
        me = state.get("players", {}).get(player)
        if not me or self.options.tax_mode != "order":
            return []
        due = int(me.get("tax_due", 0))
        paid = sum(int(o.args.get("amount", 0)) for o in orders
                   if o.kind == "transfer" and o.args.get("to") == TREASURY)
        if paid >= due:
            return []
        return [warning(
            f"налог к уплате {due}, а в посте {paid}: без налога казна отнимет владение (например, «налог {due}»)",
            f"tax due {due}, this post pays {paid}: unpaid tax costs a holding (e.g. 'tax {due}')",
            rule=_rule("Необходимо платить налоги"))]

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        problems: list[Problem] = []
        if state.get("outcome") is not None:
            return [illegal("игра окончена", "the game is over", rule=_rule("Побеждает"))]
        if player not in state["players"] or not state["players"][player]["alive"]:
            return [illegal(f"«{player}» не играет в этой партии", f"'{player}' does not play in this game")]
        board = board_of(state)
        seen = visible_hexes(state, player)
        unit_hex: dict[str, int] = {}
        raised: set[str] = set()
        raised_total = 0
        bid_seen = False
        sound: list[Order] = []
        for order in orders:
            found = self._check(state, board, seen, player, order)
            for ru, en, rule in found:
                problems.append(illegal(ru, en, line=order.line or None, column=1 if order.line else None,
                                        order=order.text or order.kind, rule=rule))
            if not found:
                sound.append(order)
        problems.extend(self._check_raising(state, player, sound))
        for order in orders:
            a = order.args
            if order.kind in UNIT_ORDERS:
                h = str(a.get("from", a.get("hex")))
                if h in unit_hex:
                    problems.append(illegal(
                        f"отряды в {h} уже получили приказ (строка {unit_hex[h]}): один отряд — один приказ за ход",
                        f"the units in {h} already have an order (line {unit_hex[h]}): one order per unit a turn",
                        line=order.line or None, column=1 if order.line else None, order=order.text,
                        rule=_rule("В ход один отряд может выполнить только один приказ")))
                else:
                    unit_hex[h] = order.line
            if order.kind == "raise":
                raised_total += int(a["count"])
                if self.options.raise_limit == "player" and raised_total > self.rules.income.max_raise:
                    problems.append(illegal(
                        f"не более {self.rules.income.max_raise} пешек за ход на всех",
                        f"at most {self.rules.income.max_raise} pawns a turn in all",
                        line=order.line or None, column=1, order=order.text,
                        rule=_rule("Можно поднять не более 3 пешек за 1 ход")))
                if a["hex"] in raised:
                    problems.append(illegal(f"второй приказ на сбор в {a['hex']}", f"a second raise in {a['hex']}",
                                            line=order.line or None, column=1, order=order.text,
                                            rule=_rule("Можно поднять не более 3 пешек за 1 ход")))
                raised.add(a["hex"])
            if order.kind == "bid":
                if bid_seen:
                    problems.append(illegal("одна ставка за ход", "one bid a turn", line=order.line or None,
                                            column=1, order=order.text, rule=_rule("Найм Кондотьеров")))
                bid_seen = True
        return sorted(problems, key=lambda pr: pr.line or 0)

    def _check_raising(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """«Пешка – ... Может командовать только двумя другими такими же пешками»: the new
        pawns join the stack that will stand in the hex at the raising step, after this
        post's own disbanding and moves (docs/rulings, raising)."""
        raises = [o for o in orders if o.kind == "raise"]
        if not raises:
            return []
        forecast = stacks_at_raising(state, player, orders, self.rules, self.options)
        problems: list[Problem] = []
        for order in raises:
            hex_, n = str(order.args["hex"]), int(order.args["count"])
            there = forecast.get(hex_, [])
            if commandable(there + ["pawn"] * n, self.rules):
                continue
            problems.append(illegal(
                f"отряды, которые будут стоять в {hex_} после ходов этого поста, не смогут командовать ещё "
                f"{counted(n, 'пешка', case='ablt')}",
                f"the units that will stand in {hex_} after this post's moves could not command "
                f"{counted(n, 'more pawn', 'en')}",
                line=order.line or None, column=1 if order.line else None, order=order.text or order.kind,
                rule=_rule("Фишки")))
        return problems

    def _check(self, state: State, board: Board, seen: set[str], player: str,
               order: Order) -> list[tuple[str, str, str]]:
        a = order.args
        out: list[tuple[str, str, str]] = []

        def on_board(h: str) -> bool:
            if not board.contains(h):
                out.append((f"гекса {h} нет на доске {board.width}×{board.height}",
                            f"there is no hex {h} on the {board.width}x{board.height} board", _rule("доска")))
                return False
            return True

        def own_units(h: str, section: str) -> bool:
            if not units_at(state, h, player):
                out.append((f"в {h} нет ваших отрядов", f"you have no units in {h}", _rule(section)))
                return False
            return True

        kind = order.kind
        if kind == "move":
            section = "Приказ на перемещение"
            path = [a["from"], *a["path"]]
            if not all(on_board(h) for h in path):
                return out
            own_units(a["from"], section)
            if len(a["path"]) > self.rules.movement.max_steps:
                out.append((f"не более {self.rules.movement.max_steps} шагов за ход",
                            f"at most {self.rules.movement.max_steps} steps a turn", _rule(section)))
            for here, there in zip(path, path[1:], strict=False):
                if not board.adjacent(here, there):
                    out.append((f"{there} не соседний с {here}", f"{there} does not touch {here}", _rule(section)))
                    break
        elif kind == "support":
            section = "Приказ на поддержку"
            if not (on_board(a["from"]) and on_board(a["to"])):
                return out
            own_units(a["from"], section)
            if not board.adjacent(a["from"], a["to"]):
                out.append((f"{a['to']} не соседний с {a['from']}", f"{a['to']} does not touch {a['from']}",
                            _rule(section)))
            elif a.get("player") is not None and a["player"] not in state["players"]:
                out.append((f"нет игрока {a['player']}", f"no player {a['player']}", _rule(section)))
            elif a["to"] in seen:
                # «в любой соседний гекс, в котором находятся отряды свои или другого игрока ...
                # написать кому именно оказывается поддержка»; «Отряды других игроков могут
                # оказывать поддержку любой из сторон»: under support_reach = hex the player
                # named may be the one who will attack into the hex (ruling 26).
                there = {u["owner"] for u in units_at(state, a["to"])}
                whom = a.get("player")
                if not there:
                    out.append((f"в {a['to']} нет отрядов", f"there are no units in {a['to']}", _rule(section)))
                elif whom is not None and whom not in there and self.options.support_reach == "units":
                    out.append((f"в {a['to']} нет отрядов игрока {whom}", f"{whom} has no units in {a['to']}",
                                _rule(section)))
                elif whom is None and len(there) > 1:
                    out.append(("укажите, кого поддержать", "name whom to support", _rule(section)))
        elif kind == "disband":
            if on_board(a["hex"]):
                own_units(a["hex"], "Приказ на роспуск отряда")
        elif kind == "raise":
            section = "Приказ на сбор пешек"
            if on_board(a["hex"]):
                n = int(a["count"])
                if owner(state, a["hex"]) != player:
                    out.append((f"{a['hex']} — не ваше владение", f"{a['hex']} is not your holding", _rule(section)))
                if not 1 <= n <= self.rules.income.max_raise:
                    out.append((f"можно поднять от 1 до {self.rules.income.max_raise} пешек",
                                f"1 to {self.rules.income.max_raise} pawns may be raised", _rule(section)))
        elif kind == "upgrade":
            section = "Приказ на улучшение пешек"
            if on_board(a["hex"]) and own_units(a["hex"], section):
                free = [u for u in units_at(state, a["hex"], player) if u["type"] == "pawn" and u["upgrade_at"] is None]
                count = a.get("count")
                if not free:
                    out.append((f"в {a['hex']} нет пешек для улучшения", f"no pawns to upgrade in {a['hex']}",
                                _rule(section)))
                elif count is not None and not 1 <= int(count) <= len(free):
                    out.append((f"в {a['hex']} можно улучшить от 1 до {len(free)} пешек",
                                f"1 to {len(free)} pawns can be upgraded in {a['hex']}", _rule(section)))
        elif kind == "transfer":
            section = "Приказ на перевод денег"
            if int(a["amount"]) < 1:
                out.append(("сумма должна быть больше нуля", "the amount must be above zero", _rule(section)))
            if a.get("payer") not in (None, player):
                out.append((f"платить может только сам игрок, а не {a['payer']}",
                            f"only you can pay from your treasury, not {a['payer']}", _rule(section)))
            if a["to"] == player:
                out.append(("перевод самому себе", "a transfer to yourself", _rule(section)))
            elif a["to"] != TREASURY and a["to"] not in state["players"]:
                out.append((f"нет игрока {a['to']}", f"no player {a['to']}", _rule(section)))
        elif kind in ("hostile", "neutral"):
            if player in a["players"]:
                out.append(("отношение к самому себе не меняется", "you cannot change your relation to yourself",
                            _rule("Владения")))
        elif kind == "bid":
            section = "Найм Кондотьеров"
            offer = state.get("offer")
            if offer is None or offer["turn"] != state["turn"]:
                out.append(("кондотьеров сейчас не нанимают", "no condottieri are on offer this turn", _rule(section)))
            if int(a["amount"]) < self.rules.condottieri.min_bid:
                out.append((f"ставка не меньше {self.rules.condottieri.min_bid}",
                            f"a bid is at least {self.rules.condottieri.min_bid}", _rule(section)))
            if on_board(a["hex"]) and not band_may_land(state, player, a["hex"], self.options.condottieri_arrive):
                if self.options.condottieri_arrive == "near":
                    out.append((f"{a['hex']} — не ваше владение и не свободная земля рядом с ним вне тумана",
                                f"{a['hex']} is neither your holding nor free land outside the fog beside one",
                                _rule(section)))
                else:
                    out.append((f"{a['hex']} — не ваше владение", f"{a['hex']} is not your holding", _rule(section)))
        else:
            out.append((f"неизвестный приказ {kind}", f"unknown order {kind}", _rule("Приказы")))
        return out

    # -- the turn --------------------------------------------------------------------------------

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        if state.get("outcome") is not None:
            raise GameError("игра уже окончена", "the game is already over")
        new_state = copy.deepcopy(state)
        clean: dict[str, list[Order]] = {}
        rejected: list[Event] = []
        for p in alive_players(state):
            given = [o if isinstance(o, Order) else Order(str(o["kind"]), dict(o.get("args", {})),
                                                          int(o.get("line", 0)), str(o.get("text", "")))
                     for o in orders.get(p, self.default_orders(state, p))]
            problems = self.validate(state, p, given)
            bad_lines = {pr.line for pr in problems if pr.line is not None}
            whole_post = any(pr.line is None for pr in problems)
            kept: list[Order] = []
            for index, o in enumerate(given):
                line_key = o.line or None
                if whole_post or (line_key is not None and line_key in bad_lines) or (
                        line_key is None and self.validate(state, p, [*kept, o])):
                    rejected.append(Event("order_rejected", {"turn": state["turn"], "player": p,
                                                             "order": o.to_json(), "index": index}, (p,)))
                    continue
                kept.append(o)
            clean[p] = kept
        events = Turn(new_state, clean, dice, self.rules, self.options).run()
        return Resolution(new_state, rejected + events)

    def awaiting(self, state: State) -> dict[str, Prompt]:
        """Every living player, at once. Works on the state and on any view: a player's
        treasury and tax due appear in his own prompt only where the given data shows them
        (the state and the game master's view show all; a player's view shows his own, in
        ``me``), so a status built from a view names no other player's money (R34)."""
        if state.get("outcome") is not None:
            return {}
        prompts: dict[str, Prompt] = {}
        for p in alive_players(state):
            ru = f"Ход {state['turn']}: ваши приказы."
            en = f"Turn {state['turn']}: your orders."
            me = state["players"][p] if "money" in state["players"][p] else (
                state["me"] if state.get("you") == p else None)
            if me is not None:
                ru += f" Казна {me['money']}, налог к уплате {me['tax_due']}."
                en += f" Treasury {me['money']}, tax due {me['tax_due']}."
            if state.get("offer") and state["offer"]["turn"] == state["turn"]:
                ru += f" {count_ru(int(state['offer']['size']), CONDOTTIERI)} ждут ставок."
                en += f" A band of {state['offer']['size']} condottieri awaits bids."
            prompts[p] = Prompt("orders", ru, en)
        return prompts

    def rerun(self, computation: str, label: str, data: Mapping[str, Any], dice: Dice) -> Any:
        """«condottieri/size», «condottieri/upkeep»: the band offered for bids in turn
        ``bids_turn``, drawn again (docs/dice.md §5, ring-of-power labels)."""
        if computation not in ("condottieri/size", "condottieri/upkeep"):
            raise KeyError(computation)
        turn = data.get("bids_turn")
        if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= 100_000:
            raise ValueError("bids_turn: expected a turn number")
        offer = next_offer({}, self.rules, dice, turn)
        if offer is None or f"condottieri/{offer['id']}/offer" != label or offer["id"] != data.get("id"):
            raise ValueError(f"no band {data.get('id')!r} is offered for turn {turn} under '{label}'")
        return offer["size" if computation == "condottieri/size" else "upkeep"]

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        if viewer == GM:
            return gm_view(state)
        if viewer == PUBLIC or viewer not in state["players"]:
            return public_view(state)
        return player_view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        raw = state.get("outcome")
        if raw is None:
            return None
        winners = tuple(raw["winners"])
        names = self.player_names("ru")
        many = len(winners) != 1
        female = not many and names.gender(winners[0]) == "f"
        reasons = {
            # «Анна собрала Кольцо Власти», «Анна и Борис собрали …»: the verb agrees with who won
            "ring": (f"{past('собрал', None if many else names.gender(winners[0]), plural=many)} Кольцо Власти",
                     "assembled the Ring of Power"),
            "last": ("осталась последней" if female else "остался последним", "is the last one standing"),
            "turns": ("больше всех владений к последнему ходу", "held the most land at the last turn"),
        }
        ru, en = reasons[raw["reason"]]
        return Outcome(winners, ru, en, dict(raw.get("scores", {})))

    # -- extras --------------------------------------------------------------------------------

    def default_orders(self, state: State, player: str) -> list[Order]:
        """A silent player pays the tax due when he can, and does nothing else."""
        me = state["players"].get(player)
        if not me or self.options.tax_mode != "order" or not me["tax_due"]:
            return []
        due = int(me["tax_due"])
        fee = transfer_fee(0, due, self.rules.prices.transfer_fee_percent, self.options.rounding)
        if due + fee > int(me["money"]):
            return []
        return [Order("transfer", {"amount": due, "to": TREASURY, "reason": "Налоги"}, 0, f"налог {due}")]

    def describe(self, order: Order, lang: str = "ru") -> str:
        return describe(order, lang)

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        return bot_module.write_orders(view, player, stream, self.rules, self.options)

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        if viewer == GM:
            # the game master has the whole of every event; the parts players were told are
            # copies of it (turn.Turn.events)
            events = [e for e in events if not e.data.get("partial")]
        return report_module.render(view, events, viewer, self.rules, lang, turn, self.player_names(lang),
                                    self.options)

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """«Каждый игрок отдает приказы»: one phase of orders a turn, then the game's end."""
        ru, en = PHASE_NAMES.get(phase, (phase, phase))
        return ru if lang == "ru" else en

    def summary(self, view: Mapping[str, Any], viewer: Viewer) -> str:
        """``voevoda show``: the viewer's treasury, holdings and units first, then what he sees
        around him, the players and the condottieri on offer (:mod:`.summary`)."""
        from voevoda.rulesets.ring_of_power.summary import summary

        return summary(view, viewer, self.rules, self.player_names("ru"), self.options, self.outcome(dict(view)))

    def map_svg(self, view: Mapping[str, Any], viewer: Viewer, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        return svgmap.render(view, self.rules, lang, events, self.player_names(lang), turn)

    state_model = RingOfPowerState

    def state_invariants(self, state: State) -> list[StateProblem]:
        return invariants(state, self.rules)

    def config_keys(self) -> frozenset[str]:
        return frozenset(Options.model_fields)

    def hidden_parts(self) -> HiddenParts:
        """What each viewer may not see (ruling 34), for the non-interference test."""
        from voevoda.rulesets.ring_of_power.hidden import RingOfPowerHidden

        return RingOfPowerHidden()

    def hidden_markers(self, state: State, viewer: Viewer) -> list[str]:
        """What ``viewer`` may not see, as it would appear in a view's JSON or on the map:
        other players' units and holdings out of sight, and Chupacabras out of sight."""
        if viewer == GM:
            return []
        seen = visible_hexes(state, viewer) if viewer in state["players"] else set()
        colors = {p: v["color"] for p, v in state["players"].items()}
        markers: list[str] = []
        for u in state["units"]:
            if u["owner"] == viewer or u["hex"] in seen:
                continue
            markers.append(f'"owner": "{u["owner"]}", "type": "{u["type"]}", "hex": "{u["hex"]}"')
            markers.extend(svgmap.units_mark(u["hex"], i, colors[u["owner"]]) for i in range(len(colors)))
        for h, v in state["holdings"].items():
            if v["owner"] != viewer and h not in seen:
                markers.append(f'"{h}": {{"owner": "{v["owner"]}"')
                markers.append(svgmap.holding_mark(h, colors[v["owner"]]))
        for c in state["chupacabras"]:
            if c["hex"] is not None and c["hex"] not in seen:
                markers.append(svgmap.monster_mark(c["hex"]))
        return sorted(set(markers))

    def demo_script(self, players: Sequence[str]) -> list[dict[str, str]]:
        return []
