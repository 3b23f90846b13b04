"""Игра престолов, дополнение «Дипломатия и торговля» (document 001): the table's companion.

The board game stays on the table; the companion keeps what the expansion adds and a table
tracks on paper today: each house's power tokens as its own currency (bounded by its reserve),
payments and deals between houses, the Diplomacy and Trade phases from the second round (alliances
declared in the Iron Throne's order, troops bought at the nominal times the alliance's size, sold
at the nominal, the Night's Watch dues), the Clash of Kings bid in the dark, the holy lands, the
fourth Westeros deck, Littlefinger's bribes, and the expansion's movement rules checked against
the board the table records. Each step resolves the posts :func:`.turn.awaited` names.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from functools import cached_property
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
from voevoda.rulesets.thrones import economy
from voevoda.rulesets.thrones import views as views_module
from voevoda.rulesets.thrones.board import board, check_rules
from voevoda.rulesets.thrones.context import Ctx, rule, ruling
from voevoda.rulesets.thrones.orders import (
    LEADING,
    Lexicon,
    area_first_order,
    begins_order,
    build_lexicon,
    diplomacy_alone,
    let_passage,
    read_lines,
    tokens_of,
)
from voevoda.rulesets.thrones.plan import PHASE_NAMES, make_plan
from voevoda.rulesets.thrones.rules import TRACKS, Options, load_options, load_rules
from voevoda.rulesets.thrones.state import (
    ThronesState,
    house_name,
    invariants,
    supply_level,
)
from voevoda.rulesets.thrones.turn import Resolver, awaited, current_holy, dice_off

RESERVED = {"public", "gm"}
DECLARATIONS = frozenset({"alliance", "alone", "holy", "westeros", "bid", "tiebreak", "bribe"})
"""What a phase asks of a house once (REQUIRED in plan.py): written twice alike, it is said once."""


class Thrones(Ruleset):
    id = "thrones"
    version = "1.0"
    title_ru = "Игра престолов: «Дипломатия и торговля»"
    title_en = "A Game of Thrones: Diplomacy and Trade"
    min_players = 3
    max_players = 6

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        self.rules = load_rules(self.house_rules)
        self.options: Options = load_options(self.config)
        self.board = board()
        check_rules(self.rules, self.board)
        self.ctx = Ctx(self.rules, self.options, self.board)

    # -- setup -------------------------------------------------------------------------------------------

    def seating(self, players: Sequence[str]) -> dict[str, str]:
        """player → house: the config's ``houses``, else ``setup.seating`` in order (ruling T26)."""
        names = list(players)
        if self.options.houses is not None:
            chosen = dict(self.options.houses)
            unknown = sorted(set(chosen) - set(names))
            if unknown:
                raise GameError(f"config.houses: не игроки: {', '.join(unknown)}",
                                f"config.houses: not players: {', '.join(unknown)}")
            missing = [p for p in names if p not in chosen]
            if missing:
                raise GameError(f"config.houses: не назначен дом: {', '.join(missing)}",
                                f"config.houses: no house for {', '.join(missing)}")
            for p, hid in chosen.items():
                if hid not in self.rules.houses:
                    known = ", ".join(self.rules.houses)
                    raise GameError(f"config.houses.{p}: нет дома «{hid}» (есть: {known})",
                                    f"config.houses.{p}: no house '{hid}' (houses: {known})")
            if len(set(chosen.values())) != len(chosen):
                raise GameError("config.houses: один дом у двух игроков", "config.houses: two players play one house")
            return {p: chosen[p] for p in names}
        return {p: self.rules.setup.seating[i] for i, p in enumerate(names)}

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        names = list(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise GameError(f"играют от 3 до 6 домов (дано {len(names)})", f"3 to 6 houses play (got {len(names)})")
        for n in names:
            if n.casefold() in RESERVED:
                raise GameError(f"имя «{n}» занято", f"the name '{n}' is reserved")
        seats = self.seating(names)
        by_house = {hid: p for p, hid in seats.items()}
        state: State = {
            "ruleset": "thrones", "turn": 1, "phase": "planning", "seats": names,
            "houses": {p: {"house": hid, "color": self.rules.houses[hid].color, "home": self.rules.houses[hid].home}
                       for p, hid in seats.items()},
            "treasury": {p: {"power": self.rules.economy.start_power, "opening": self.rules.economy.start_power,
                             "statement": []} for p in names},
            "board": {}, "supply": {}, "tracks": {}, "alliances": [], "declared": {}, "orders": {}, "passages": [],
            "card": None, "deck": {"drawn": []}, "westeros": None, "holy": {}, "bidding": None, "bribed": [],
            "deals": [], "next_deal": 1, "outcome": None,
        }
        for area in sorted(self.board.areas):
            fact = self.board[area]
            owner = by_house.get(fact.home_of) if fact.home_of else None
            # the homes of houses nobody plays keep their garrison as a neutral force (ruling T21)
            state["board"][area] = {"house": owner, "units": {"footman": 0, "knight": 0, "ship": 0, "siege": 0},
                                    "token": None, "garrison": fact.garrison}
        for p, hid in seats.items():
            start = self.rules.setup.houses[hid]
            for place in start.units:
                if not any(place.units().values()):
                    continue
                info = state["board"][place.area]
                info["house"] = p
                for kind, count in place.units().items():
                    info["units"][kind] += count
            if start.power is not None:
                state["treasury"][p]["power"] = state["treasury"][p]["opening"] = start.power
        top = len(self.rules.supply.limits) - 1
        state["supply"] = {p: supply_level(state, self.board, p, top) for p in names}
        for p, hid in seats.items():
            if self.rules.setup.houses[hid].supply is not None:
                state["supply"][p] = self.rules.setup.houses[hid].supply
        for track in TRACKS:
            state["tracks"][track] = [by_house[h] for h in getattr(self.rules.setup.tracks, track) if h in by_house]
        if self.options.holy_lands:
            state["holy"] = {h.id: {"area": None, "winner": None, "faces": {}, "told": False} for h in self.rules.holy}
            dice_off(state, dice, self.rules.holy[0].id)
            state["phase"] = "holy"
        return state

    # -- posts ---------------------------------------------------------------------------------------------

    def lexicon(self, state: Mapping[str, Any]) -> Lexicon:
        houses = {p: seat["house"] for p, seat in state["houses"].items()}
        return self._lexicon(tuple(sorted(houses.items())))

    def _lexicon(self, houses: tuple[tuple[str, str], ...]) -> Lexicon:
        cache = self._lexicons
        if houses not in cache:
            cache[houses] = build_lexicon(self.rules, self.board, dict(houses), self.config.get("genders"))
        return cache[houses]

    @cached_property
    def _lexicons(self) -> dict[tuple[tuple[str, str], ...], Lexicon]:
        return {}

    def begins_order(self, line: str, player: str, state: State) -> bool:
        """A keyword begins an order; so does an area followed by an order token's keyword
        («Винтерфелл: поход»), as players list their orders by area; so does «let HOUSE pass …»
        with a house of this game after «let», and in the diplomacy phase «я пока один»."""
        if begins_order(line):
            return True
        tokens = tokens_of(line)
        lexicon = self.lexicon(state)
        if area_first_order(tokens, 0, lexicon.areas) is not None:
            return True
        first = next((i for i, t in enumerate(tokens) if t.key not in LEADING), len(tokens))
        return let_passage(tokens, first, lexicon.houses) is not None \
            or (state.get("phase") == "diplomacy" and diplomacy_alone(tokens, first) is not None)

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        post = self.read_post(text, player, state)
        orders, problems = read_lines(post.orders, self.lexicon(state), str(state.get("phase", "")))
        orders = self.annotate(state, player, orders)
        if problems:
            raise ParseError(problems, [self.describe(o) for o in orders], orders=orders)
        return orders

    def declaration(self, order: Order) -> tuple[str, str] | None:
        """«союз Ланнистер» twice (or again in a follow-up), «одиночка», «ставка 3», … said twice
        alike are said once (issue 30); an alliance is the same whatever order its houses come in."""
        if order.kind not in DECLARATIONS:
            return None
        args = {k: v for k, v in order.args.items() if k != "echo"}  # what the echo adds is not said
        if order.kind == "alliance":
            args["members"] = sorted(str(m) for m in args.get("members", ()))
        return order.kind, json.dumps(args, sort_keys=True, ensure_ascii=False)

    def annotate(self, state: State, player: str, orders: Sequence[Order]) -> list[Order]:
        """Each order with what its echo says beyond the words posted (``args["echo"]``): the houses
        of the players it names («союз: Ланнистер (Борис)»), and in the trade phase what a purchase,
        an upgrade or a sale costs or brings as the post stands."""
        seats = {p: seat["house"] for p, seat in state.get("houses", {}).items()}
        costs: dict[int, dict[str, Any]] = {}
        if state.get("phase") == "trade" and player in state.get("seats", []):
            plan = make_plan(self.ctx, state, player, orders)
            for i, item in enumerate(plan.items):
                a = item.order.args
                if item.order.kind in ("buy", "upgrade") and "price" in item.info:
                    # the price stands even where the order breaks a rule (the supply, the hand)
                    costs[i] = {"price": item.info["price"], "total": item.cost, "count": int(a["count"])}
                    if item.order.kind == "buy":
                        costs[i]["where"] = item.info["where"]
                elif item.order.kind == "sell" and item.cost < 0:
                    costs[i] = {"value": -item.cost}
        out = []
        for i, order in enumerate(orders):
            a = order.args
            named = [a.get("to"), *(a.get("members") or []), *(a.get("order") or []),
                     *(x for side in a.get("sides") or [] for x in (side.get("house"), side.get("for")))]
            echo: dict[str, Any] = dict(costs.get(i, {}))
            houses = {str(p): seats[p] for p in named if isinstance(p, str) and p in seats}
            if houses:
                echo["houses"] = houses
            args = {k: v for k, v in a.items() if k != "echo"}
            if echo:
                args["echo"] = echo
            out.append(Order(order.kind, args, order.line, order.text))
        return out

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        if state.get("outcome") is not None:
            return [illegal("игра окончена", "the game is over")]
        if player not in state["seats"]:
            return [illegal(f"«{player}» не играет в этой партии", f"'{player}' does not play in this game")]
        if player not in awaited(state, self.ctx):
            ru, en = PHASE_NAMES.get(str(state["phase"]), ("", ""))
            return [illegal(f"сейчас ({ru}) от вас ничего не ждут", f"nothing is awaited from you now ({en})")]
        plan = make_plan(self.ctx, state, player, orders)
        problems = [illegal(ru, en, rule=r) for ru, en, r in plan.problems]
        for item in plan.items:
            for ru, en, r in item.problems:
                problems.append(illegal(ru, en, line=item.order.line or None, column=1 if item.order.line else None,
                                        order=item.order.text or item.order.kind, rule=r))
        return sorted(problems, key=lambda p: p.line or 0)

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """What an accepted post leaves to chance: the dues it may not cover (the companion then
        sells troops), a consent to pass without a support order, purchases that leave no coin."""
        out: list[Problem] = []
        if state.get("phase") == "trade" and player in state["seats"]:
            plan = make_plan(self.ctx, state, player, orders)
            due = economy.dues_each(state, self.ctx, player)
            troops = sum(int(i.info.get("value", 0)) for i in plan.items if i.order.kind == "dues" and not i.problems)
            if due > troops + plan.money:
                out.append(self._dues_warning(due, troops, plan.money, plan.own))
        if state.get("phase") == "action" and player in state["seats"]:
            out.extend(self._battle_notes(state, player, orders))
        if state.get("phase") == "planning":
            supported = {str(o.args["area"]) for o in orders if o.kind == "order" and o.args.get("kind") == "support"}
            for o in orders:
                if o.kind == "passage" and str(o.args["area"]) not in supported:
                    out.append(warning("пропуск без приказа подмоги в этой области ничего не даст",
                                       "a passage without a support order in that area gives nothing",
                                       line=o.line or None, order=o.text, rule=rule("Дипломатические операции")))
        return out

    def _battle_notes(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """Each battle the post fights with the cards typed («битва за …»), added up in the echo
        (ruling T28); a result typed without them was decided at the table and is not second-guessed
        (the refusal of a march without its result always shows the sum)."""
        from voevoda.rulesets.thrones.report import Words, battle_text

        out: list[Problem] = []
        shown: set[str] = set()
        for item in make_plan(self.ctx, state, player, orders).items:
            strength = item.info.get("strength")
            if item.order.kind != "march" or not strength or not strength.get("typed") or item.problems \
                    or strength["area"] in shown:
                continue
            shown.add(strength["area"])
            outcome = item.order.args.get("outcome")
            ru, en = (battle_text(Words(self.ctx, state, lang), strength, outcome, echo=True) for lang in ("ru", "en"))
            out.append(warning(ru, en, line=item.order.line or None, order=item.order.text, rule=ruling(28)))
        return out

    def _dues_warning(self, due: int, troops: int, money: int, own: Mapping[str, Mapping[str, int]]) -> Problem:
        """The dues a trade post leaves uncovered, and the troops the companion would sell for them
        if the house pays nothing more (:func:`economy.settle_dues`, ruling T8)."""
        from voevoda.rulesets.thrones.report import Words

        settled = economy.settle_dues(self.ctx, due, troops, money, own)
        said = {}
        for lang in ("ru", "en"):
            w = Words(self.ctx, None, lang)
            held = w.coins(max(money, 0)) + (w.t(f" и войска на {troops}", f" and troops worth {troops}") if troops else "")
            sold = "; ".join(f"{w.area(area)} — {w.units(units)}" for area, units in settled.sold)
            parts = []
            if sold:
                parts.append(w.t(f"если больше ничего не внесёте, за номинал продадут: {sold}",
                                 f"if you pay nothing more, the companion sells at nominal: {sold}"))
            if settled.unpaid:
                parts.append(w.t(f"продавать больше нечего: не уплачено {settled.unpaid}",
                                 f"nothing more to sell: {settled.unpaid} unpaid"))
            said[lang] = w.t(f"взнос Ночному Дозору {due}: после этого поста у вас {held}; {'; '.join(parts)} "
                             "(другие войска назовите так: «взнос войсками ОБЛАСТЬ: …»)",
                             f"the Night's Watch dues are {due}: after this post you hold {held}; {'; '.join(parts)} "
                             "(name other troops: 'dues in troops AREA: …')")
        return warning(said["ru"], said["en"], rule=rule("Торговые операции"))

    # -- the step ------------------------------------------------------------------------------------------

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        if state.get("outcome") is not None:
            raise GameError("игра уже окончена", "the game is already over")
        new_state = copy.deepcopy(state)
        events = Resolver(self.ctx, new_state, orders, dice).run()
        return Resolution(new_state, events)

    def default_orders(self, state: State, player: str) -> list[Order]:
        """A house that sends nothing: a loner in diplomacy, bids nothing, passes on a bribe,
        records no Westeros card; elsewhere it does nothing (the holy place goes to its home, ties
        stay as they stood, the dues are met by selling its cheapest troops)."""
        phase = state.get("phase")
        if phase == "diplomacy":
            return [Order("alone", {}, 0, "одиночка")]
        if phase == "bids":
            return [Order("bid", {"amount": 0}, 0, "ставка 0")]
        if phase == "bribe":
            return [Order("pass", {}, 0, "пас")]
        if phase == "westeros":
            return [Order("westeros", {"cards": []}, 0, "вестерос: ничего")]
        return []

    def awaiting(self, state: State) -> dict[str, Prompt]:
        """Who must post now and what is asked; works on the state and on every view (the prompt
        names a house's own sums only where the data given shows them)."""
        if state.get("outcome") is not None:
            return {}
        prompts: dict[str, Prompt] = {}
        for p in awaited(state, self.ctx):
            ru, en = self.prompt(state, p)
            money = views_module.money_of(state, p)
            if money is not None:
                ru += f" На руках {money}."
                en += f" In hand: {money}."
            prompts[p] = Prompt(str(state["phase"]), ru, en)
        return prompts

    def prompt(self, state: Mapping[str, Any], player: str) -> tuple[str, str]:
        turn = state["turn"]
        phase = state["phase"]
        if phase == "holy":
            token = current_holy(state)
            spec = self.rules.holy_place(str(token))
            where_ru = "в море" if spec.terrain == "sea" else "на любую землю"
            where_en = "in a sea" if spec.terrain == "sea" else "on any land"
            return (f"Святые земли: жетон «{spec.name_ru}» ваш — поставьте его {where_ru}: «святыня ОБЛАСТЬ».",
                    f"Holy lands: '{spec.name_en}' is yours — put it {where_en}: 'holy AREA'.")
        if phase == "diplomacy":
            return (f"Ход {turn}, дипломатия: объявите союз («союз ДОМ, ДОМ») или «одиночка».",
                    f"Round {turn}, diplomacy: declare an alliance ('alliance HOUSE, HOUSE') or 'alone'.")
        if phase == "trade":
            due = economy.dues_each(state, self.ctx, player)
            size = economy.alliance_size(state, player)
            if size == 1 and not economy.loners_may_buy(state, self.ctx):
                # «если число людей в союзе меньше (или равно) числу одиночек, то одиночки вообще не
                # могут покупать дополнительные войска»: the prompt does not offer what is refused
                members, loners = economy.members_and_loners(state, self.ctx)
                return (f"Ход {turn}, торговля: одиночки не покупают (в союзах {members}, одиночек {loners}); "
                        f"продать войска можно по номиналу; взнос Ночному Дозору {due}.",
                        f"Round {turn}, trade: loners cannot buy ({members} in alliances, {loners} alone); you may "
                        f"sell troops at nominal; Night's Watch dues {due}.")
            return (f"Ход {turn}, торговля: купить или продать войска (цена — номинал × {size}); взнос Ночному "
                    f"Дозору {due}.",
                    f"Round {turn}, trade: buy or sell troops (price: nominal × {size}); Night's Watch dues {due}.")
        if phase == "westeros":
            extra_ru = " и четвёртую карту («четвёртая карта: …»)" if self.options.deck_draw == "table" else ""
            extra_en = " and the fourth card ('fourth card: …')" if self.options.deck_draw == "table" else ""
            return (f"Ход {turn}, Вестерос: какие карты сыграли — «вестерос: снабжение, битва королей» или "
                    f"«вестерос: ничего»{extra_ru}.",
                    f"Round {turn}, Westeros: which cards were played — 'westeros: supply, clash of kings' or "
                    f"'westeros: none'{extra_en}.")
        if phase == "bids":
            track = (state.get("bidding") or {}).get("track", "iron_throne")
            ru, en = TRACK_NAMES[track]
            return (f"Битва королей, трек «{ru}»: ставка втемную («ставка N», можно 0).",
                    f"Clash of Kings, the {en} track: your sealed bid ('bid N', 0 allowed).")
        if phase == "tiebreak":
            ties = (state.get("bidding") or {}).get("ties", [])
            groups_ru = "; ".join(", ".join(house_name(state, self.rules, p, "ru") for p in g) for g in ties)
            groups_en = "; ".join(", ".join(house_name(state, self.rules, p, "en") for p in g) for g in ties)
            return (f"Равные ставки ({groups_ru}): расставьте их — «порядок ДОМ, ДОМ».",
                    f"Equal bids ({groups_en}): order them — 'tie order HOUSE, HOUSE'.")
        if phase == "bribe":
            return ("Рука Мизинца: попытка подкупа («подкуп ОБЛАСТЬ СТАВКА: ЦИФРЫ») или «пас».",
                    "Littlefinger's Hand: a bribe ('bribe AREA STAKE: FACES') or 'pass'.")
        if phase == "planning":
            return (f"Ход {turn}, приказы: «подмога ОБЛАСТЬ», «усиление ОБЛАСТЬ», «пропуск ДОМ ОБЛАСТЬ»; "
                    "«войска ОБЛАСТЬ: …» для набранных.",
                    f"Round {turn}, planning: 'support AREA', 'consolidate AREA', 'passage HOUSE AREA'; "
                    "'units AREA: …' for mustered ones.")
        return (f"Ход {turn}, действия: «поход A → B: войска», «потери …», «отступление …», «жетон …».",
                f"Round {turn}, action: 'march A -> B: units', 'losses …', 'retreat …', 'token …'.")

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        if viewer not in (GM, PUBLIC) and viewer not in state["seats"]:
            viewer = PUBLIC
        return views_module.view(state, viewer, self.ctx)

    def outcome(self, state: State) -> Outcome | None:
        raw = state.get("outcome")
        if raw is None:
            return None
        reasons = {"castles": ("взял семь замков и крепостей", "holds seven castles and strongholds"),
                   "turns": ("больше всех замков и крепостей к концу десятого хода",
                             "holds the most castles and strongholds at the end of the last round")}
        ru, en = reasons.get(str(raw.get("reason")), reasons["turns"])
        return Outcome(tuple(raw["winners"]), ru, en, {p: float(n) for p, n in raw.get("castles", {}).items()})

    def progress(self, state: State) -> tuple[int, str]:
        return int(state.get("turn", 0)), str(state.get("phase", ""))

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """«Рука Мизинца», «фаза Вестероса», «приказы» (the names of the report's plan)."""
        ru, en = PHASE_NAMES.get(phase, (phase, phase))
        return ru if lang == "ru" else en

    # -- extras -----------------------------------------------------------------------------------------------

    def summary(self, view: Mapping[str, Any], viewer: Viewer) -> str:
        """What ``voevoda show`` prints: who is asked now, then the standing of the report (tracks,
        each house's supply, castles, units and tokens, holy places, the card in force, alliances,
        the viewer's own hand and deals); ``--json`` gives the whole view, the board included."""
        from voevoda.core.markup import Document, render
        from voevoda.rulesets.thrones.report import Words, standing

        doc = Document(None, [])
        words = Words(self.ctx, view, "ru")
        asked = [f"{words.who(p)}: {prompt.text_ru}" for p, prompt in self.awaiting(dict(view)).items()
                 if viewer == GM or p == viewer] or [words.who(p) for p in self.awaiting(dict(view))]
        if asked:
            doc.heading("Ждём / awaited")
            doc.bullets(asked)
        standing(doc, words, view)
        board = []
        for area, info in view.get("board", {}).items():
            units = {k: int(v) for k, v in info["units"].items() if v}
            parts = []
            if units:
                parts.append(f"{words.house(info['house'])} — {words.units(units)}")
            elif info["house"] is not None:
                parts.append(words.house(info["house"]))
            if info["token"] is not None:
                parts.append(f"жетон власти: {words.house(info['token'])}")
            if info["garrison"]:
                parts.append(f"гарнизон {info['garrison']}")
            if parts:
                board.append(f"{words.area(area)}: {'; '.join(parts)}")
        if board:
            doc.heading("Поле / board")
            doc.bullets(sorted(board))
        return render(doc, "text").rstrip("\n")

    def describe(self, order: Order, lang: str = "ru") -> str:
        from voevoda.rulesets.thrones.report import describe

        return describe(order, self.ctx, lang)

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        from voevoda.rulesets.thrones.bot import write_post

        return write_post(view, player, stream, self)

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        from voevoda.rulesets.thrones.report import document

        return document(view, events, viewer, self.ctx, lang, turn)

    def map_svg(self, view: Mapping[str, Any], viewer: Viewer, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        from voevoda.rulesets.thrones.svgmap import render

        return render(view, self.ctx, lang, events, turn)

    def config_keys(self) -> frozenset[str]:
        return frozenset(Options.model_fields)

    state_model = ThronesState

    def state_invariants(self, state: State) -> list[StateProblem]:
        return invariants(state, self.rules, self.board)

    def hidden_parts(self) -> HiddenParts:
        from voevoda.rulesets.thrones.hidden import ThronesHidden

        return ThronesHidden()

    def hidden_markers(self, state: State, viewer: Viewer) -> list[str]:
        """Other houses' sums in hand as a view's JSON would write them, and the deals between other
        houses as a report or a view names them."""
        if viewer == GM:
            return []
        markers = []
        for deal in state["deals"]:
            if viewer not in (deal["by"], deal["to"]):
                # the words of a service may be any house's words too: a deal is named by its number
                markers.extend([f"Сделка №{deal['id']}:", f"Deal #{deal['id']}:", f'"id": {deal["id"]}, "by": '])
        for p, t in state["treasury"].items():
            if p != viewer:
                markers.append(f'"player": "{p}", "power": {t["power"]}')
        return markers

    def demo_script(self, players: Sequence[str]) -> list[dict[str, str]]:
        return []


TRACK_NAMES = {"iron_throne": ("Железный трон", "Iron Throne"), "fiefdoms": ("Вотчины", "Fiefdoms"),
               "kings_court": ("Королевский двор", "King's Court")}
