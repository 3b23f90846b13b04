"""Culture & Conquest on the core engine."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, ClassVar

from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import Problem, illegal, warning
from voevoda.core.hidden import HiddenParts
from voevoda.core.markup import Document, render
from voevoda.core.ruleset import (
    PUBLIC,
    Event,
    Order,
    Outcome,
    Prompt,
    ReportFormat,
    Resolution,
    Ruleset,
    State,
    StateProblem,
    Viewer,
)
from voevoda.core.words import count_en, count_ru

from . import bots, report
from .choices import build_losses, check, default_choice
from .data import Tables, load_tables
from .game import CATEGORIES, PHASE_NAMES, PHASES, Game, Options, cut_view, score
from .orders import Reader, choice_from_orders, format_choice, format_prefs
from .phases import answer
from .prompts import prompt_for
from .schema import CultureConquestState, invariants
from .setup import new_game

TURNS_GENITIVE = ("хода", "ходов", "ходов")


class CultureConquest(Ruleset):
    """Культура и Завоевание: twelve phases per player, fifty rounds."""

    id: ClassVar[str] = "culture-conquest"
    version: ClassVar[str] = "1.0"
    title_ru: ClassVar[str] = "Культура и Завоевание"
    title_en: ClassVar[str] = "Culture & Conquest"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 64

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        self.tables: Tables = load_tables(self.house_rules)
        self.options = Options.from_config(self.config)
        self.reader = Reader(self.tables)
        self.strategies: dict[str, str] = dict(self.config.get("strategies", {}))

    # -- the contract -----------------------------------------------------------------

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        g = new_game(players, dice, self.tables, self.options)
        g.state["carry_events"] = [e.to_json() for e in g.events]
        return g.state

    def begins_order(self, line: str, player: str, state: State) -> bool:
        return self.reader.begins(line, state)

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        """The post's lines read one by one; how they make one answer (a category named twice, a
        post of standing choices alone) is :meth:`validate`'s, which sees a follow-up's lines with
        the standing post's (issue 30: «P.S. потери: рабочие» adds a standing choice)."""
        return self.reader.parse(text, player, state)

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        pending = state.get("pending")
        if not pending or player not in pending["players"]:
            return [illegal("от вас сейчас ничего не ждут", "nothing is asked of you now")]
        if not orders:
            return []
        short: list[Problem] = []
        if pending["kind"] == "build":
            orders, short = self._labour_by_line(orders, int(pending["labour"]))
        choice, problems = choice_from_orders(pending["kind"], orders)
        # an answer is one choice: a rule it breaks refuses the answer, not one of its lines
        return short + problems + [illegal(ru, en, rule=f"culture-conquest/{pending['kind']}")
                                   for ru, en in check(state, self.tables, self.options, player, choice,
                                                       self.player_names("ru"))]

    @staticmethod
    def _labour_by_line(orders: Sequence[Order], labour: int) -> tuple[list[Order], list[Problem]]:
        """«ФАЗА СТРОИТЕЛЬСТВА»: the turn's labour is shared by the building lines, taken in the
        post's order; a line the labour left cannot pay is refused on its line and the others
        stand (issue 30)."""
        left = labour
        kept: list[Order] = []
        short: list[Problem] = []
        for order in orders:
            need = int(order.args.get("labour") or 0) if order.kind == "build" and order.args.get("project") else 0
            if need > left:
                short.append(illegal(f"не хватает труда на эту строку: нужно {need}, осталось {left} из {labour}",
                                     f"not enough labour for this line: {need} needed, {left} of {labour} left",
                                     order.line, None, order.text, "culture-conquest/build"))
                continue
            left -= need
            kept.append(order)
        return kept, short

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """Labour an accepted building answer will lose, line by line, as the building phase
        will lose it (ruling 32): beyond what a wonder or a named city still needs, and what no
        line assigns."""
        pending = state.get("pending")
        if not pending or pending["kind"] != "build" or player not in pending["players"]:
            return []
        choice, problems = choice_from_orders("build", orders)
        if problems or check(state, self.tables, self.options, player, choice):
            return []
        lines = [o.line for o in orders if o.kind == "build" and o.args.get("project")]
        return [warning(ru, en, lines[index] if index is not None else None,
                        rule="culture-conquest/build")
                for index, ru, en in build_losses(state, self.tables, self.options, player, choice)]

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        new = copy.deepcopy(state)
        carried = [Event.from_json(e) for e in new.pop("carry_events", [])]
        g = Game(new, self.tables, self.options, dice)
        pending = new.get("pending")
        choices: dict[str, dict[str, Any]] = {}
        if pending:
            for player in pending["players"]:
                if orders.get(player):
                    choices[player], _ = choice_from_orders(pending["kind"], orders[player])
        answer(g, choices)
        return Resolution(new, carried + g.events)

    def awaiting(self, state: State) -> dict[str, Prompt]:
        pending = state.get("pending")
        if not pending or state.get("finished"):
            return {}
        names = self.player_names("ru")
        return {player: prompt_for(state, player, self.tables, self.options, names) for player in pending["players"]}

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything on the table is open in this game; only an offer under
        negotiation is cut from those outside it (see :func:`.game.cut_view`)."""
        result = copy.deepcopy(cut_view(state, viewer))
        result["scores"] = score(state, self.tables, self.options)
        return result

    state_model = CultureConquestState
    state_keeps_every_field = False  # a player's standing loss orders are absent until he gives them

    def state_invariants(self, state: State) -> list[StateProblem]:
        return invariants(state, self.tables)

    def config_keys(self) -> frozenset[str]:
        """The options of docs/rulings/culture_conquest.md, the bots' strategies per seat and
        the language of the bots' posts."""
        return frozenset({f.name for f in fields(Options)} | {"strategies", "bot_lang"})

    def hidden_parts(self) -> HiddenParts:
        """The offer under negotiation (rulings 31 and 46), for the non-interference test."""
        from .hidden import CultureConquestHidden

        return CultureConquestHidden()

    def hidden_markers(self, state: State, viewer: Viewer) -> list[str]:
        """The one secret of this game: an offer under negotiation, as it would show in a
        view (JSON) or a report line (under its maker's name), for everyone outside the two
        parties."""
        pending = state.get("pending") or {}
        offer = pending.get("offer") if pending.get("kind") == "reply" else None
        if not offer or viewer in (offer["from"], offer["to"]):
            return []
        head = json.dumps({"offer": {"from": offer["from"], "to": offer["to"]}}, ensure_ascii=False)[1:-2]
        # the whole offer as a report line writes it (and as a post would): a party's own
        # earlier offer to the same player, which he may see, is not mistaken for this one
        lines = [format_choice("offer", offer, self.tables, lang) for lang in ("ru", "en")]
        players = [str(p) for p in state.get("order", [])]
        # as a third player would read it in a report («Предлагает Борису: …»); the partner's own
        # «Предлагает вам» is his alone
        told = [report.Lines(self.tables, lang, self.player_names(lang), players).offer(offer).split(": ", 1)[1]
                for lang in ("ru", "en")]
        return [head, *lines, *(line[:1].upper() + line[1:] for line in lines), *told]

    def outcome(self, state: State) -> Outcome | None:
        if not state.get("finished"):
            return None
        points = score(state, self.tables, self.options)
        best = max(p["total"] for p in points.values())
        winners = tuple(n for n in state["order"] if points[n]["total"] == best)
        return Outcome(winners, f"больше всего победных очков ({best}) после {count_ru(state['turns'], TURNS_GENITIVE)}",
                       f"most victory points ({best}) after {count_en(state['turns'], 'turn')}",
                       {n: float(points[n]["total"]) for n in state["order"]})

    # -- refinements -------------------------------------------------------------------

    def default_orders(self, state: State, player: str) -> list[Order]:
        pending = state.get("pending")
        if not pending or player not in pending["players"]:
            return []
        choice = default_choice(state, self.tables, self.options, player)
        return orders_from_choice(pending["kind"], choice, self.tables)

    def summary(self, view: Mapping[str, Any], viewer: Viewer) -> str:
        """``voevoda show``: the round and who is asked, the viewer's own people first, then every
        other player, the wonders and the victory points (:mod:`.summary`)."""
        from .summary import summary

        return summary(view, viewer, self.tables, self.player_names("ru"), self.awaiting(dict(view)),
                       self.outcome(dict(view)))

    def progress(self, state: State) -> tuple[int, str]:
        if state.get("finished"):
            return int(state["turn"]), "конец игры / game over"
        if state.get("pending") and state["pending"]["kind"] == "culture":
            return int(state["turn"]), "подготовка к игре / setup"
        index = max(0, int(state["phase"]) - 1)
        ru, en = PHASE_NAMES[PHASES[index]]
        who = state["order"][state["seat"]] if state["order"] else ""
        return int(state["turn"]), f"{who}: {index + 1}. {ru} / {en}"

    def describe(self, order: Order, lang: str = "ru") -> str:
        try:
            if order.kind == "prefs":
                return "; ".join(format_prefs(order.args, lang))
            if order.kind in ("build", "research", "assign"):
                return format_choice(order.kind, _single(order), self.tables, lang)
            return format_choice(order.kind, order.args, self.tables, lang)
        except (KeyError, ValueError, TypeError):
            return order.text or order.kind

    def strategy_of(self, player: str) -> str:
        return self.strategies.get(player, "builder")

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        pending = view.get("pending")
        if not pending or player not in pending["players"]:
            return None
        choice = bots.decide(view, player, stream, self.tables, self.options, self.strategy_of(player))
        return format_choice(pending["kind"], choice, self.tables, str(self.config.get("bot_lang", "ru")))

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        return report.render(view, [e for e in events if e.visible_to(viewer)], viewer, self.tables, lang, turn,
                             self.player_names(lang))

    def chronicle(self, view: Mapping[str, Any], events: Sequence[Event], fmt: ReportFormat = "text",
                  lang: str = "ru") -> str:
        """The public chronicle: only events whose audience is everyone."""
        return render(report.render(view, [e for e in events if "*" in e.audience], PUBLIC, self.tables, lang,
                                    names=self.player_names(lang)), fmt)


def _single(order: Order) -> dict[str, Any]:
    if order.kind == "build":
        return {"alloc": [dict(order.args)] if order.args.get("project") else []}
    if order.kind == "research":
        return {"picks": [order.args["pick"]] if "pick" in order.args else [],
                "buy": [order.args["buy"]] if "buy" in order.args else []}
    return {"pop": {c: order.args["pop"][c] for c in CATEGORIES if c in order.args["pop"]}}


def orders_from_choice(kind: str, choice: Mapping[str, Any], tables: Tables) -> list[Order]:
    """The orders a post carrying ``choice`` would parse into."""
    if kind == "build":
        parts = [dict(x) for x in choice.get("alloc", [])] or [{"project": None}]
        return [Order("build", part, i + 1, format_choice("build", {"alloc": [part]} if part.get("project")
                                                          else {"alloc": []}, tables))
                for i, part in enumerate(parts)]
    if kind == "research":
        orders = [Order("research", {"pick": x}, 0, "") for x in choice.get("picks", [])]
        orders += [Order("research", {"buy": x}, 0, "") for x in choice.get("buy", [])]
        orders = orders or [Order("research", {}, 0, "")]
        return [Order(o.kind, o.args, i + 1, format_choice("research", _single(o), tables))
                for i, o in enumerate(orders)]
    return [Order(kind, dict(choice), 1, format_choice(kind, choice, tables))]
