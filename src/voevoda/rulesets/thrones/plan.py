"""One house's post walked against the state: what each order costs, what it changes, and every
rule it breaks.

Validation (``Thrones.validate``) and resolution (:mod:`.turn`) walk a post the same way, so a post
that was accepted resolves as it was checked. A house spends what it holds when the step begins
(plus what its own sales in the same post bring in): money another house sends arrives at the end
of the step (ruling T10). Orders are walked in the order of :data:`PRIORITY` (sales before
purchases; marches before losses and retreats; records of mustered units before the orders placed
on them), and in the order written within each kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.ruleset import Order
from voevoda.core.words import join_and
from voevoda.rulesets.thrones import economy
from voevoda.rulesets.thrones.context import Ctx, rule, ruling
from voevoda.rulesets.thrones.movement import E, R, check_march
from voevoda.rulesets.thrones.rules import LAND_UNITS, UNIT_KINDS
from voevoda.rulesets.thrones.state import alliance_of, allied, fits_supply, unit_count
from voevoda.rulesets.thrones.views import money_of

MONEY = frozenset({"transfer", "deal", "accept", "decline"})
ALLOWED: dict[str, frozenset[str]] = {
    "holy": frozenset({"holy"}) | MONEY,
    "diplomacy": frozenset({"alliance", "alone"}) | MONEY,
    # «пас»: nothing this step (a house that buys and sells nothing, places or moves nothing)
    "trade": frozenset({"buy", "upgrade", "sell", "dues", "pass"}) | MONEY,
    "westeros": frozenset({"westeros", "fourth"}) | MONEY,
    # «по-прежнему нельзя сговариваться при битве королей»: no money changes hands while bidding
    "bids": frozenset({"bid"}),
    "tiebreak": frozenset({"tiebreak"}),
    "bribe": frozenset({"bribe", "pass"}) | MONEY,
    "planning": frozenset({"order", "passage", "disband", "record", "power", "pass"}) | MONEY,
    "action": frozenset({"march", "raid", "losses", "retreat", "token", "record", "disband", "power", "pass",
                         "battle"}) | MONEY,
}
REQUIRED: dict[str, frozenset[str]] = {
    "holy": frozenset({"holy"}),
    "diplomacy": frozenset({"alliance", "alone"}),
    "westeros": frozenset({"westeros"}),
    "bids": frozenset({"bid"}),
    "tiebreak": frozenset({"tiebreak"}),
    "bribe": frozenset({"bribe", "pass"}),
}
PRIORITY = {"sell": 0, "disband": 0, "record": 1, "upgrade": 2, "buy": 3, "dues": 4, "order": 5, "passage": 5,
            "march": 6, "raid": 7, "battle": 7, "losses": 8, "retreat": 9, "token": 10}
PHASE_NAMES = {
    "holy": ("святые земли", "holy lands"), "diplomacy": ("дипломатические операции", "diplomacy"),
    "trade": ("торговые операции", "trade"), "westeros": ("фаза Вестероса", "Westeros"),
    "bids": ("битва королей", "Clash of Kings"), "tiebreak": ("битва королей: ничьи", "Clash of Kings: ties"),
    "bribe": ("Рука Мизинца", "Littlefinger's Hand"), "planning": ("приказы", "planning"),
    "action": ("действия", "action"), "over": ("игра окончена", "game over"),
}
KIND_NAMES = {
    "transfer": ("перевод", "payment"), "deal": ("сделка", "deal"), "accept": ("принять сделку", "accept deal"),
    "decline": ("отклонить сделку", "decline deal"), "holy": ("святыня", "holy place"),
    "alliance": ("союз", "alliance"), "alone": ("одиночка", "alone"), "buy": ("покупка", "purchase"),
    "upgrade": ("улучшение", "upgrade"), "sell": ("продажа", "sale"), "dues": ("взнос войсками", "dues in troops"),
    "westeros": ("карты Вестероса", "Westeros cards"), "fourth": ("четвёртая карта", "fourth card"),
    "bid": ("ставка", "bid"), "tiebreak": ("порядок ничьих", "tie order"), "bribe": ("подкуп", "bribe"),
    "pass": ("пас", "pass"), "order": ("приказ", "order"), "passage": ("пропуск", "passage"),
    "disband": ("роспуск", "disband"), "record": ("войска", "units"), "power": ("власть", "power"),
    "march": ("поход", "march"), "raid": ("набег", "raid"), "losses": ("потери", "losses"),
    "retreat": ("отступление", "retreat"), "token": ("жетон власти", "power token"),
    "battle": ("битва", "battle"),
}
TRADE = "Торговые операции"
DIPLOMACY = "Дипломатические операции"
HOLY = "Модификация «Святые земли»"
LITTLEFINGER = "Модификация «Карта Вестероса «Рука Мизинца»»"
WESTEROS = "Модификации фазы Вестероса"
BASICS = "Основные положения"

Found = tuple[str, str, str]


@dataclass
class Item:
    order: Order
    problems: list[Found] = field(default_factory=list)
    cost: int = 0
    """Tokens this order takes from the house (negative: brings in)."""
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Plan:
    """A house's post as it would change the board and its treasury."""

    player: str
    items: list[Item]
    problems: list[Found] = field(default_factory=list)
    """Problems of the post as a whole (no order of the kind this phase needs, ...)."""
    own: dict[str, dict[str, int]] = field(default_factory=dict)
    """The house's units, area → kind → count, after the post."""
    money: int = 0
    """What the house holds after the post's own orders."""

    def ordered(self) -> list[Item]:
        ranked = sorted(enumerate(self.items), key=lambda pair: (PRIORITY.get(pair[1].order.kind, 5), pair[0]))
        return [item for _, item in ranked]


def _units_text(ctx: Ctx, units: Mapping[str, int], lang: str) -> str:
    from voevoda.core.words import counted, join_and

    parts = []
    for kind in UNIT_KINDS:
        n = units.get(kind, 0)
        if n:
            stats = ctx.rules.units[kind]
            parts.append(counted(n, stats.name_ru) if lang == "ru" else counted(n, stats.name_en, "en",
                                                                               plural_en_form=stats.plural_en))
    return join_and(parts, lang) or ("никого" if lang == "ru" else "nobody")


def _sizes(sizes: Sequence[int], lang: str = "ru") -> str:
    """The armies by their sizes as a sentence names them: «армия из 4 отрядов», «армии из 3 и 2
    отрядов»; "an army of 4 units", "armies of 3 and 2 units" (numbers are written out: the
    morphology is not loaded for a post)."""
    if not sizes:
        return "—"
    numbers = [str(n) for n in sizes]
    last = int(sizes[-1])
    if lang == "ru":
        unit = "отряда" if last % 10 == 1 and last % 100 != 11 else "отрядов"
        head = "армия" if len(sizes) == 1 else "армии"
        return f"{head} из {join_and(numbers, 'ru')} {unit}"
    head = "an army" if len(sizes) == 1 else "armies"
    return f"{head} of {join_and(numbers, 'en')} {'unit' if len(sizes) == 1 and last == 1 else 'units'}"


def _seated_name(state: Mapping[str, Any], ctx: Ctx, player: str, lang: str) -> str:
    seat = state["houses"].get(player)
    if seat and seat["house"] in ctx.rules.houses:
        return ctx.rules.houses[seat["house"]].name(lang)
    return player


def make_plan(ctx: Ctx, state: Mapping[str, Any], player: str, orders: Sequence[Order]) -> Plan:
    """Walk ``orders`` of ``player`` against ``state`` (see the module's docstring)."""
    phase = str(state["phase"])
    own: dict[str, dict[str, int]] = {}
    for area, info in state["board"].items():
        if info["house"] == player and unit_count(info):
            own[area] = {k: int(v) for k, v in info["units"].items() if v}
    money = money_of(state, player) or 0
    plan = Plan(player, [Item(o) for o in orders], own=own, money=money)
    allowed = ALLOWED.get(phase, frozenset())
    kinds = [o.kind for o in orders]
    needed = REQUIRED.get(phase)
    if needed is not None:
        count = sum(1 for k in kinds if k in needed)
        what_ru, what_en = {
            "holy": ("куда поставить святыню («святыня ОБЛАСТЬ»)", "where to put the holy place ('holy AREA')"),
            "diplomacy": ("союз («союз ДОМ, ДОМ») или «одиночка»", "an alliance ('alliance HOUSE, HOUSE') or 'alone'"),
            "westeros": ("какие карты Вестероса сыграли («вестерос: снабжение» или «вестерос: ничего»)",
                         "which Westeros cards were played ('westeros: supply' or 'westeros: none')"),
            "bids": ("ставку («ставка N», можно 0)", "a bid ('bid N', 0 allowed)"),
            "tiebreak": ("порядок равных ставок («порядок ДОМ, ДОМ»)", "the order of equal bids ('tie order HOUSE, HOUSE')"),
            "bribe": ("попытку подкупа («подкуп ОБЛАСТЬ СТАВКА: ЦИФРЫ») или «пас»",
                      "a bribe ('bribe AREA STAKE: FACES') or 'pass'"),
        }[phase]
        if count == 0:
            plan.problems.append((f"в этой фазе нужно указать {what_ru}", f"this phase needs {what_en}",
                                  rule(PHASE_RULES.get(phase, BASICS))))
        elif count > 1:
            plan.problems.append((f"только одно: {what_ru}", f"only one: {what_en}", rule(PHASE_RULES.get(phase, BASICS))))
    walker = _Walker(ctx, state, plan)
    for item in plan.ordered():
        if item.order.kind not in allowed:
            ru, en = PHASE_NAMES.get(phase, (phase, phase))
            kru, ken = KIND_NAMES.get(item.order.kind, (item.order.kind, item.order.kind))
            item.problems.append((f"«{kru}» не отдаётся в фазе «{ru}»", f"'{ken}' is not given in the {en} phase",
                                  rule(PHASE_RULES.get(phase, BASICS))))
            continue
        getattr(walker, item.order.kind)(item)
        if not item.problems and item.cost:
            if item.cost > 0 and item.cost > walker.money:
                item.problems.append((f"не хватает жетонов власти: нужно {item.cost}, есть {max(walker.money, 0)}",
                                      f"not enough power tokens: {item.cost} needed, {max(walker.money, 0)} held",
                                      rule(BASICS)))
            else:
                walker.money -= item.cost
    walker.finish()
    plan.money = walker.money
    return plan


PHASE_RULES = {"holy": HOLY, "diplomacy": DIPLOMACY, "trade": TRADE, "westeros": WESTEROS, "bids": WESTEROS,
               "tiebreak": WESTEROS, "bribe": LITTLEFINGER, "planning": "Дополнительные модификации движения",
               "action": "Дополнительные модификации движения"}


class _Walker:
    """The checks of each kind of order, run in the plan's order over a scratch copy of the
    house's units."""

    def __init__(self, ctx: Ctx, state: Mapping[str, Any], plan: Plan) -> None:
        self.ctx = ctx
        self.state = state
        self.plan = plan
        self.player = plan.player
        self.own = plan.own
        self.money = plan.money
        self.bought: dict[str, dict[str, int]] = {}
        self.placed: dict[str, Item] = {}
        self.seen: dict[str, int] = {}
        self.tokens: set[str] = set()
        self.marched_into: dict[str, str] = {}
        self.battles: dict[str, list[Item]] = {}
        """area → the post's marches that fight a battle there."""
        self.typed: dict[str, Item] = {}
        """area → the post's «битва за …» line: what the table typed for that battle."""

    # -- helpers -------------------------------------------------------------------------------------

    def board(self) -> Mapping[str, Any]:
        board: Mapping[str, Any] = self.state["board"]
        return board

    def has(self, area: str, units: Mapping[str, int]) -> bool:
        here = self.own.get(area, {})
        return all(here.get(k, 0) >= n for k, n in units.items())

    def take(self, area: str, units: Mapping[str, int]) -> None:
        here = self.own.setdefault(area, {})
        for k, n in units.items():
            here[k] = here.get(k, 0) - n
            if here[k] <= 0:
                del here[k]
        if not here:
            del self.own[area]

    def put(self, area: str, units: Mapping[str, int]) -> None:
        here = self.own.setdefault(area, {})
        for k, n in units.items():
            here[k] = here.get(k, 0) + n

    def missing(self, item: Item, area: str, units: Mapping[str, int]) -> bool:
        if self.has(area, units):
            return False
        have = self.own.get(area, {})
        item.problems.append((
            f"в области {R(area)} у вас {_units_text(self.ctx, have, 'ru')}, а нужно {_units_text(self.ctx, units, 'ru')}",
            f"you have {_units_text(self.ctx, have, 'en')} in {E(area)}, {_units_text(self.ctx, units, 'en')} needed",
            rule(BASICS)))
        return True

    def once(self, item: Item, key: str, ru: str, en: str, section: str) -> bool:
        if key in self.seen:
            item.problems.append((f"{ru} (уже в строке {self.seen[key]})", f"{en} (already on line {self.seen[key]})",
                                  section))
            return False
        self.seen[key] = item.order.line
        return True

    def other(self, item: Item, to: str) -> bool:
        if to == self.player:
            item.problems.append(("самому себе нельзя", "not to yourself", rule(BASICS)))
            return False
        if to not in self.state["seats"]:
            item.problems.append((f"«{to}» не играет", f"'{to}' does not play", rule(BASICS)))
            return False
        return True

    def controls(self, area: str) -> bool:
        return bool(self.board()[area]["house"] == self.player)

    # -- money ------------------------------------------------------------------------------------------

    def transfer(self, item: Item) -> None:
        """«Денежные операции происходят мгновенно, по достижении договоренности между лордами, в любой
        фазе.» The money arrives at the end of the step (ruling T10)."""
        a = item.order.args
        if not self.other(item, a["to"]):
            return
        if int(a["amount"]) < 1:
            item.problems.append(("сумма должна быть больше нуля", "the amount must be above zero", rule(BASICS)))
            return
        item.cost = int(a["amount"])

    def deal(self, item: Item) -> None:
        """«заключение сделок с другими Домами вида «окажи мне некую услугу, подмогу и т.п. за
        столько-то монет»»: recorded when the other house accepts, and paid then (ruling T11)."""
        a = item.order.args
        if not self.other(item, a["to"]):
            return
        if int(a["amount"]) < 1:
            item.problems.append(("сумма должна быть больше нуля", "the amount must be above zero", rule(BASICS)))
        if not str(a.get("service", "")).strip():
            item.problems.append(("укажите услугу", "name the service", rule(BASICS)))

    def _deal_offered(self, item: Item) -> dict[str, Any] | None:
        number = int(item.order.args["deal"])
        for deal in self.state.get("deals", []):
            if deal["id"] == number and deal["to"] == self.player and deal["status"] == "offered":
                if not self.once(item, f"deal/{number}", "ответ на эту сделку уже дан",
                                 "this deal is already answered", ruling(11)):
                    return None
                return dict(deal)
        item.problems.append((f"нет предложенной вам сделки №{number}", f"no deal #{number} offered to you", ruling(11)))
        return None

    def accept(self, item: Item) -> None:
        deal = self._deal_offered(item)
        if deal is not None:
            item.info["deal"] = deal

    def decline(self, item: Item) -> None:
        deal = self._deal_offered(item)
        if deal is not None:
            item.info["deal"] = deal

    def power(self, item: Item) -> None:
        """Power tokens gained or spent on the board (a Consolidate Power order's star, the Game of
        Thrones card, the wildlings' bid...), recorded by the house: ruling T19."""
        amount = int(item.order.args["amount"])
        if amount < 0:
            item.cost = -amount

    # -- holy places ------------------------------------------------------------------------------------

    def holy(self, item: Item) -> None:
        """«Выкинувший наибольшее число ... получает жетон и может поставить его в любую землю»;
        «Чертог утонувшего бога» ставится в море»."""
        token = next((hid for hid, h in self.state["holy"].items() if h["area"] is None and h["winner"]), None)
        if token is None or self.state["holy"][token]["winner"] != self.player:
            item.problems.append(("святыню ставит тот, кто выиграл бросок за неё", "the holy place is put by the one who "
                                  "won its roll", rule(HOLY)))
            return
        spec = self.ctx.rules.holy_place(token)
        area = str(item.order.args["area"])
        kind = self.ctx.board[area]
        if spec.terrain == "sea" and not kind.is_sea:
            item.problems.append((f"«{spec.name_ru}» ставится в море, а {R(area)} — не море",
                                  f"'{spec.name_en}' is put in a sea, and {E(area)} is not a sea", rule(HOLY)))
        elif spec.terrain == "land" and not kind.is_land:
            item.problems.append((f"«{spec.name_ru}» ставится на землю, а {R(area)} — не земля",
                                  f"'{spec.name_en}' is put on a land, and {E(area)} is not a land", rule(HOLY)))
        elif any(h["area"] == area for h in self.state["holy"].values()):
            item.problems.append((f"в области {R(area)} уже есть святое место", f"{E(area)} already holds a holy place",
                                  ruling(13)))
        item.info["token"] = token

    # -- diplomacy --------------------------------------------------------------------------------------

    def alliance(self, item: Item) -> None:
        """«Каждый дом может заключить союз с одним или несколькими другими домами» (one alliance a
        house, ruling T5)."""
        # «союз Баратеон, Ланнистер» from Baratheon names the whole alliance: its author is dropped
        members = [str(m) for m in item.order.args["members"] if m != self.player]
        item.info["members"] = members
        if not members:
            item.problems.append(("себя в союз не называют: назовите союзников", "do not name yourself: name your allies",
                                  rule(DIPLOMACY)))
        if len(set(members)) != len(members):
            item.problems.append(("союзник назван дважды", "an ally is named twice", rule(DIPLOMACY)))
        for m in members:
            if m not in self.state["seats"]:
                item.problems.append((f"«{m}» не играет", f"'{m}' does not play", rule(DIPLOMACY)))

    def alone(self, item: Item) -> None:
        return None

    # -- trade --------------------------------------------------------------------------------------------

    def _site(self, item: Item, unit: str, area: str) -> str | None:
        """The castle area a unit bought in ``area`` is bought at (for a ship, the land whose port
        or coast it is), or None with a problem."""
        b = self.ctx.board
        stats = self.ctx.rules.units[unit]
        if unit == "ship":
            if b[area].is_land:
                if area in b.port_of:
                    area = b.port_of[area]
                else:
                    item.problems.append((f"у области {R(area)} нет порта: назовите море, куда спустить корабль",
                                          f"{E(area)} has no port: name the sea to launch the ship in", rule(TRADE)))
                    return None
            if b[area].is_port:
                land = b.land_of(area)
                candidates = [land]
            else:
                candidates = [n for n in b.neighbours(area) if b[n].is_land]
                info = self.board()[area]
                if info["house"] not in (None, self.player) and unit_count(info):
                    item.problems.append((f"в области {R(area)} чужие корабли", f"{E(area)} holds another house's ships",
                                          "Игра престолов, базовые правила «Сбор войск»"))
                    return None
            sites = [c for c in candidates if b[c].castle_level and self.controls(c)]
            if not sites:
                item.problems.append((f"корабль покупают у своей земли с крепостью или замком, а рядом с областью {R(area)} "
                                      "такой нет", f"a ship is bought by a land of yours with a castle or stronghold; "
                                      f"{E(area)} borders none", rule(TRADE)))
                return None
            return sites[0]
        if not b[area].is_land:
            item.problems.append((f"{R(area)} — не земля", f"{E(area)} is not a land", rule(TRADE)))
            return None
        if not self.controls(area):
            item.problems.append((f"{R(area)} — не ваша земля", f"{E(area)} is not your land", rule(TRADE)))
            return None
        level = b[area].castle_level
        strongholds_only = stats.sites == "stronghold" and self.ctx.options.knight_sites == "stronghold"
        if level == 0 or (strongholds_only and level < 2):
            where_ru = "только в землях с замком" if strongholds_only else "в землях с крепостью или замком"
            where_en = "only in a land with a stronghold" if strongholds_only else "in a land with a castle or stronghold"
            item.problems.append((f"{stats.name_ru}: покупают {where_ru}; в области {R(area)} его нет",
                                  f"a {stats.name_en} is bought {where_en}; {E(area)} has none", rule(TRADE)))
            return None
        return area

    def _may_buy(self, item: Item) -> bool:
        if len(alliance_of(self.state, self.player)) == 1 and not economy.loners_may_buy(self.state, self.ctx):
            members, loners = economy.members_and_loners(self.state, self.ctx)
            item.problems.append((
                f"одиночки не покупают войска, пока людей в союзах ({members}) не больше, чем одиночек ({loners})",
                f"loners cannot buy troops while the people in alliances ({members}) are no more than the loners "
                f"({loners})", rule(TRADE)))
            return False
        return True

    def buy(self, item: Item) -> None:
        """«Пеший и корабль приобретаются в землях с крепостью и замком. Рыцарь и башня
        приобретаются только в землях с замком. ... Приобрести можно сколько хочешь, лишь бы не
        превысить предел снабжения.»"""
        a = item.order.args
        unit, count, area = str(a["unit"]), int(a["count"]), str(a["area"])
        if count < 1:
            item.problems.append(("купить можно от одного", "buy at least one", rule(TRADE)))
            return
        if not self._may_buy(item):
            return
        site = self._site(item, unit, area)
        if site is None:
            return
        where = area if unit != "ship" else (self.ctx.board.port_of.get(area, area) if self.ctx.board[area].is_land
                                             else area)
        item.info.update({"site": site, "where": where, "price": economy.buy_price(self.state, self.ctx, self.player,
                                                                                  unit)})
        item.cost = item.info["price"] * count
        self.put(where, {unit: count})
        self._supply(item)

    def upgrade(self, item: Item) -> None:
        """«Улучшать пеших до рыцаря/башни можно в любых крепостях и замках.»"""
        a = item.order.args
        unit, count, area = str(a["unit"]), int(a["count"]), str(a["area"])
        stats = self.ctx.rules.units[unit]
        if stats.upgrade_from is None:
            item.problems.append((f"до «{stats.name_ru}» не улучшают", f"nothing is upgraded to a {stats.name_en}",
                                  rule(TRADE)))
            return
        if count < 1:
            item.problems.append(("улучшить можно от одного", "upgrade at least one", rule(TRADE)))
            return
        if not self._may_buy(item):
            return
        b = self.ctx.board
        if not b[area].is_land or not b[area].castle_level or not self.controls(area):
            item.problems.append((f"улучшают в своих крепостях и замках, а область {R(area)} не такая",
                                  f"upgrades are made in your castles and strongholds; {E(area)} is not one", rule(TRADE)))
            return
        base: dict[str, int] = {str(stats.upgrade_from): count}
        if self.missing(item, area, base):
            return
        item.info["price"] = economy.upgrade_price(self.state, self.ctx, self.player, unit)
        item.cost = item.info["price"] * count
        self.take(area, base)
        self.put(area, {unit: count})

    def sell(self, item: Item) -> None:
        """«В торговой фазе можно продать имеющиеся войска по курсу: 1 жетон власти за пешего и
        корабль, 2 за рыцаря и осадную башню.»"""
        a = item.order.args
        unit, count, area = str(a["unit"]), int(a["count"]), str(a["area"])
        if count < 1:
            item.problems.append(("продать можно от одного", "sell at least one", rule(TRADE)))
            return
        units = {unit: count}
        if self.missing(item, area, units):
            return
        self.take(area, units)
        item.cost = -economy.sale_price(self.ctx, unit) * count

    def dues(self, item: Item) -> None:
        """«взнос на снабжение Ночного Дозора можно внести целиком (или по большей части) в виде
        воинов»: the troops count their nominal."""
        a = item.order.args
        area, units = str(a["area"]), dict(a["units"])
        if economy.dues_each(self.state, self.ctx, self.player) == 0:
            item.problems.append(("вы одиночка при заключённых союзах: взноса нет",
                                  "you are a loner while alliances stand: you owe no dues", rule(TRADE)))
            return
        if self.missing(item, area, units):
            return
        self.take(area, units)
        item.info["value"] = economy.units_value(self.ctx, units)

    def _supply(self, item: Item) -> None:
        level = int(self.state["supply"][self.player])
        limits = self.ctx.rules.supply.limits[min(level, len(self.ctx.rules.supply.limits) - 1)]
        sizes = sorted((sum(u.values()) for u in self.own.values() if sum(u.values()) >= 2), reverse=True)
        if not fits_supply(sizes, limits):
            item.problems.append((
                f"превышен предел снабжения: {_sizes(sizes, 'ru')}, а при снабжении {level} можно "
                f"{_sizes(limits, 'ru')}",
                f"over the supply limit: {_sizes(sizes, 'en')}, where supply {level} allows "
                f"{_sizes(limits, 'en')}",
                rule(TRADE)))

    # -- Westeros and the Clash of Kings ----------------------------------------------------------------------

    def westeros(self, item: Item) -> None:
        if self.ctx.options.deck_draw == "table" and not any(i.order.kind == "fourth" for i in self.plan.items):
            item.problems.append(("колода четвёртой карты у стола: назовите и её («четвёртая карта: …»)",
                                  "the table draws the fourth card: name it too ('fourth card: …')", ruling(12)))

    def fourth(self, item: Item) -> None:
        if self.ctx.options.deck_draw != "table":
            item.problems.append(("четвёртую карту тянет программа (настройка deck_draw = companion)",
                                  "the companion draws the fourth card (option deck_draw = companion)", ruling(12)))
            return
        self.once(item, "fourth", "четвёртая карта одна", "one fourth card", ruling(12))

    def bid(self, item: Item) -> None:
        """«ставки втемную»: a bid is at most what the house holds."""
        item.cost = int(item.order.args["amount"])

    def tiebreak(self, item: Item) -> None:
        bidding = self.state.get("bidding") or {}
        tied = sorted(p for group in bidding.get("ties", []) for p in group)
        listed = [p for i in self.plan.items if i.order.kind == "tiebreak" for p in i.order.args["order"]]
        if sorted(listed) != tied:
            names_ru = ", ".join(_seated_name(self.state, self.ctx, p, "ru") for p in tied)
            names_en = ", ".join(_seated_name(self.state, self.ctx, p, "en") for p in tied)
            item.problems.append((f"перечислите по одному разу равные ставки: {names_ru}",
                                  f"list each equal bidder once: {names_en}", "Игра престолов, базовые правила «Ничьи»"))

    # -- Littlefinger's Hand --------------------------------------------------------------------------------

    def pass_(self, item: Item) -> None:
        return None

    def bribe(self, item: Item) -> None:
        """«Каждый дом в порядке очередности хода может сделать одну попытку перекупить
        расположенный рядом с его войсками 1 отряд (или одинокого воина противника). Перекупщик
        делает денежную ставку: номинал перекупаемого отряда/ удвоенную/утроенную и так далее до
        ушестеренной стоимости отряда. После этого загадывает одну/две и так далее цифр (из 1-6)».
        «Рыцарей перекупить нельзя. Если в смешанном отряде есть хотя бы один рыцарь, то перекупить
        отряд нельзя.»"""
        a = item.order.args
        area, stake, guesses = str(a["area"]), int(a["stake"]), [int(g) for g in a["guesses"]]
        info = self.board()[area]
        target = info["house"]
        if target in (None, self.player) or not unit_count(info):
            item.problems.append((f"в области {R(area)} нет войск соперника", f"{E(area)} holds no rival's units", rule(LITTLEFINGER)))
            return
        if info["units"]["knight"]:
            item.problems.append((f"в области {R(area)} есть рыцарь: такой отряд не перекупить",
                                  f"{E(area)} holds a knight: that army cannot be bribed", rule(LITTLEFINGER)))
            return
        if not any(n in self.own for n in self.ctx.board.neighbours(area)):
            item.problems.append((f"область {R(area)} не рядом с вашими войсками", f"{E(area)} is not next to your units",
                                  rule(LITTLEFINGER)))
            return
        nominal = economy.units_value(self.ctx, {k: int(v) for k, v in info["units"].items() if v})
        if nominal < 1 or stake % nominal or not 1 <= stake // nominal <= 6:
            item.problems.append((f"ставка — номинал отряда ({nominal}), удвоенный … до ушестерённого: "
                                  f"{', '.join(str(nominal * k) for k in range(1, 7))}",
                                  f"the stake is the army's nominal ({nominal}) times 1 to 6: "
                                  f"{', '.join(str(nominal * k) for k in range(1, 7))}", rule(LITTLEFINGER)))
            return
        times = stake // nominal
        faces = sorted(set(guesses))
        if any(not 1 <= g <= 6 for g in guesses) or len(faces) != len(guesses):
            item.problems.append(("загадывают разные цифры от 1 до 6", "guess different faces from 1 to 6",
                                  rule(LITTLEFINGER)))
            return
        if times < 6 and len(faces) != times:
            from voevoda.core.words import counted

            item.problems.append((f"при ставке в {times}× номинал загадывают {counted(times, 'цифра')}, а у вас "
                                  f"{counted(len(faces), 'цифра')}",
                                  f"a stake of {times}x the nominal guesses {counted(times, 'face', 'en')}; "
                                  f"{len(faces)} given", rule(LITTLEFINGER)))
            return
        if times == 6 and faces not in ([], [1, 2, 3, 4, 5, 6]):
            item.problems.append(("при ушестерённой ставке кубик не бросают: цифры не нужны",
                                  "at six times the nominal no die is rolled: no faces are needed", rule(LITTLEFINGER)))
            return
        # «Все правила снабжения ... остаются в силе»: the bribed army must fit the briber's supply
        gained = {k: int(v) for k, v in info["units"].items() if v}
        self.put(area, gained)
        self._supply(item)
        self.take(area, gained)
        item.cost = stake
        item.info.update({"target": target, "times": times, "faces": faces if times < 6 else [1, 2, 3, 4, 5, 6],
                          "units": gained, "nominal": nominal})

    # -- planning -----------------------------------------------------------------------------------------------

    def order(self, item: Item) -> None:
        a = item.order.args
        area, kind = str(a["area"]), str(a["kind"])
        if area not in self.own:
            item.problems.append((f"в области {R(area)} нет ваших войск: приказ не положить",
                                  f"you have no units in {E(area)} to give an order", "Игра престолов, базовые правила "
                                  "«Фаза замыслов»"))
            return
        if kind == "consolidate" and self.ctx.board[area].is_sea:
            item.problems.append(("усиление власти не кладут в море", "consolidate power is not placed at sea",
                                  "Игра престолов, базовые правила «Приказ усиления власти»"))
            return
        self.once(item, f"order/{area}", f"в области {R(area)} уже лежит приказ", f"{E(area)} already has an order",
                  "Игра престолов, базовые правила «Фаза замыслов»")

    def passage(self, item: Item) -> None:
        """«Для прохода через моря/земли с кораблями/войсками другого лорда требуется согласие
        лорда, союз с ним и обязательно приказ подмоги»."""
        a = item.order.args
        to, area = str(a["to"]), str(a["area"])
        if not self.other(item, to):
            return
        if not allied(self.state, self.player, to):
            item.problems.append(("пропускают только союзника этого хода", "passage is given only to an ally of this turn",
                                  rule(DIPLOMACY)))
        if area not in self.own:
            item.problems.append((f"в области {R(area)} нет ваших войск", f"you have no units in {E(area)}", rule(DIPLOMACY)))

    def disband(self, item: Item) -> None:
        a = item.order.args
        area, units = str(a["area"]), dict(a["units"])
        if not self.missing(item, area, units):
            self.take(area, units)

    def record(self, item: Item) -> None:
        """The table records the units a house has in an area (mustered, lost, moved outside the
        companion): ruling T17."""
        a = item.order.args
        area, units = str(a["area"]), dict(a["units"])
        kind = self.ctx.board[area]
        for unit in units:
            if (unit in LAND_UNITS) != kind.is_land:
                item.problems.append((f"{self.ctx.unit_name(unit, 'ru')} не может стоять в области {R(area)}",
                                      f"a {self.ctx.unit_name(unit, 'en')} cannot stand in {E(area)}", ruling(17)))
                return
        info = self.board()[area]
        if units and info["house"] not in (None, self.player) and unit_count(info):
            item.problems.append((f"в области {R(area)} стоят войска другого дома", f"another house's units stand in {E(area)}",
                                  ruling(17)))
            return
        if not self.once(item, f"record/{area}", f"войска в области {R(area)} уже записаны",
                         f"the units in {E(area)} are already recorded", ruling(17)):
            return
        self.own.pop(area, None)
        if units:
            self.put(area, units)
        item.info["units"] = units

    # -- action ---------------------------------------------------------------------------------------------

    def march(self, item: Item) -> None:
        a = item.order.args
        path, units = [str(p) for p in a["path"]], dict(a["units"])
        if not units:
            # no units named: the whole army the house has there as the post stands
            units = dict(self.own.get(path[0], {}))
            if not units:
                item.problems.append((f"в области {R(path[0])} у вас нет войск", f"you have no units in {E(path[0])}",
                                      rule(BASICS)))
                return
        item.info["units"] = units
        if self.missing(item, path[0], units):
            return
        check = check_march(self.ctx, self.state, self.player, path, units, a.get("outcome"))
        item.problems.extend(check.problems)
        if check.battle:
            # its strength is shown even while its result is still to be typed (ruling T28)
            item.info["battle"] = True
            self.battles.setdefault(path[-1], []).append(item)
        if check.problems:
            return
        item.info.update({"battle": check.battle, "transits": check.transits})
        self.take(path[0], units)
        if a.get("outcome") != "lost":
            self.put(path[-1], units)
            self.marched_into[path[-1]] = str(a.get("outcome") or "")
        else:
            self.put(path[0], units)

    def battle(self, item: Item) -> None:
        """«битва за ОБЛАСТЬ: ДОМ N, …»: what only the table knows of a battle the post's march
        fights — the house cards, any bonus, whom a third house supports with its general (ruling
        T28). Written by the attacker with its march."""
        from voevoda.rulesets.thrones.battle import typed_problems

        area = str(item.order.args["area"])
        if area not in self.battles:
            item.problems.append((f"битву записывают вместе с походом, который её ведёт: в этом посте нет похода в "
                                  f"область {R(area)} с битвой", f"a battle is written with the march that fights it: "
                                  f"this post has no march into {E(area)} that fights a battle", ruling(28)))
            return
        if not self.once(item, f"battle/{area}", f"битва в области {R(area)} уже записана",
                         f"the battle in {E(area)} is already written", ruling(28)):
            return
        for ru, en in typed_problems(self.ctx, self.state, self.player, area, item.order.args["sides"]):
            item.problems.append((ru, en, ruling(28)))
        if not item.problems:
            self.typed[area] = item

    def raid(self, item: Item) -> None:
        a = item.order.args
        src, dst = str(a["from"]), str(a["to"])
        placed = self.state.get("orders", {}).get(src)
        if not placed or placed["house"] != self.player or placed["kind"] != "raid":
            item.problems.append((f"в области {R(src)} нет вашего приказа набега", f"you have no raid order in {E(src)}",
                                  "Игра престолов, базовые правила «Приказ набега»"))
            return
        if not self.ctx.board.adjacent(src, dst):
            item.problems.append((f"область {R(dst)} не граничит с областью {R(src)}", f"{E(dst)} does not border {E(src)}",
                                  "Игра престолов, базовые правила «Приказ набега»"))
            return
        if self.ctx.board[src].is_land and not self.ctx.board[dst].is_land:
            item.problems.append(("с суши набег идёт только на сушу", "a raid from land goes only to land",
                                  "Игра престолов, базовые правила «Приказ набега»"))
            return
        target = self.state.get("orders", {}).get(dst)
        if not target or target["house"] == self.player or target["kind"] not in ("support", "raid", "consolidate"):
            item.problems.append((f"в области {R(dst)} нет чужого приказа подмоги, набега или усиления",
                                  f"{E(dst)} holds no other house's support, raid or consolidate order",
                                  "Игра престолов, базовые правила «Приказ набега»"))
            return
        self.once(item, f"raid/{src}", f"набег из области {R(src)} уже есть", f"a raid from {E(src)} is already given",
                  "Игра престолов, базовые правила «Приказ набега»")

    def losses(self, item: Item) -> None:
        a = item.order.args
        area, units = str(a["area"]), dict(a["units"])
        if not self.missing(item, area, units):
            self.take(area, units)

    def retreat(self, item: Item) -> None:
        a = item.order.args
        src, dst, units = str(a["from"]), str(a["to"]), dict(a["units"])
        if self.missing(item, src, units):
            return
        b = self.ctx.board
        if not b.adjacent(src, dst):
            item.problems.append((f"область {R(dst)} не граничит с областью {R(src)}", f"{E(dst)} does not border {E(src)}",
                                  "Игра престолов, базовые правила «Отступление»"))
            return
        land = any(k in LAND_UNITS for k in units)
        if land != b[dst].is_land or (not land and not b[dst].holds_ships):
            item.problems.append((f"туда эти войска отступить не могут: {R(dst)}", f"these units cannot retreat to {E(dst)}",
                                  "Игра престолов, базовые правила «Отступление»"))
            return
        if self.board()[dst]["house"] not in (None, self.player) and unit_count(self.board()[dst]):
            item.problems.append((f"в области {R(dst)} чужие войска: туда не отступают",
                                  f"{E(dst)} holds another house's units: no retreat there",
                                  "Игра престолов, базовые правила «Отступление»"))
            return
        self.take(src, units)
        self.put(dst, units)

    def token(self, item: Item) -> None:
        """A power token left to hold a land (base rules): it costs one token from the hand."""
        area = str(item.order.args["area"])
        b = self.ctx.board
        if not b[area].is_land:
            item.problems.append((f"{R(area)} — не земля", f"{E(area)} is not a land", "Игра престолов, базовые правила "
                                  "«Жетоны власти»"))
            return
        if area in self.own:
            item.problems.append((f"в области {R(area)} остаются ваши войска: жетон не нужен",
                                  f"your units stay in {E(area)}: no token is needed", "Игра престолов, базовые правила "
                                  "«Жетоны власти»"))
            return
        if not (self.controls(area) or area in self.state_own_start()):
            item.problems.append((f"область {R(area)} не ваша", f"{E(area)} is not yours", "Игра престолов, базовые правила "
                                  "«Жетоны власти»"))
            return
        if self.board()[area]["token"] is not None:
            item.problems.append((f"в области {R(area)} уже лежит жетон", f"{E(area)} already holds a token",
                                  "Игра престолов, базовые правила «Жетоны власти»"))
            return
        if self.once(item, f"token/{area}", "жетон уже положен", "the token is already placed",
                     "Игра престолов, базовые правила «Жетоны власти»"):
            item.cost = 1

    def state_own_start(self) -> set[str]:
        return {a for a, info in self.board().items() if info["house"] == self.player and unit_count(info)}

    # -- the end ----------------------------------------------------------------------------------------------

    def finish(self) -> None:
        """The strength of each battle the post fights (ruling T28); the supply limit after the post:
        a planning post must bring the house within it (after a «Снабжение» card), and an action
        post may not march or record it beyond (base rules: «Все правила снабжения ... остаются в
        силе»)."""
        from voevoda.rulesets.thrones.battle import battle_strength

        for area, marches in self.battles.items():
            army: dict[str, int] = {}
            starts: dict[str, dict[str, int]] = {}
            for march in marches:
                start = starts.setdefault(str(march.order.args["path"][0]), {})
                for k, n in (march.info.get("units") or {}).items():
                    army[k] = army.get(k, 0) + int(n)
                    start[k] = start.get(k, 0) + int(n)
            typed = self.typed.get(area)
            strength = battle_strength(self.ctx, self.state, self.player, area, army,
                                       typed.order.args["sides"] if typed is not None else (), starts)
            for march in marches:
                march.info["strength"] = strength
                if march.order.args.get("outcome") is None:
                    # the result is still to be typed: the refusal shows what the table adds up
                    from voevoda.rulesets.thrones.report import Words, battle_text

                    march.problems = [
                        (f"{ru}. {battle_text(Words(self.ctx, self.state, 'ru'), strength, echo=True)}",
                         f"{en}. {battle_text(Words(self.ctx, self.state, 'en'), strength, echo=True)}", why)
                        if why == ruling(18) else (ru, en, why) for ru, en, why in march.problems]
            if typed is not None:
                typed.info["strength"] = strength
        phase = self.state["phase"]
        if phase in ("planning", "action"):
            level = int(self.state["supply"][self.player])
            limits = self.ctx.rules.supply.limits[min(level, len(self.ctx.rules.supply.limits) - 1)]
            sizes = sorted((sum(u.values()) for u in self.own.values() if sum(u.values()) >= 2), reverse=True)
            if not fits_supply(sizes, limits):
                self.plan.problems.append((
                    f"войска превышают предел снабжения {level} ({_sizes(sizes)}, а можно {_sizes(limits)}): "
                    "распустите лишних («распустить ОБЛАСТЬ: …»)",
                    f"the units exceed supply {level} ({_sizes(sizes, 'en')}, where {_sizes(limits, 'en')} "
                    "are allowed): disband "
                    "some ('disband AREA: …')", rule(BASICS)))


setattr(_Walker, "pass", _Walker.pass_)  # noqa: B010 - «pass» is a keyword

