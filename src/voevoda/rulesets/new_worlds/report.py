"""The game master's post for a turn, built as a :class:`~voevoda.core.markup.Document` from a
view and the events that viewer may see, nothing else: the world's events, war and diplomacy,
the battles, the ledger of every country (what it had, what each action cost, what is left)
and the rolls for the next turn; a player's own refused orders and proposals come last, for
him alone. Sentences name countries as a ledger does, «Анна: город C5», «Анна → Борис: …»,
so that a country called «Морские Народы» or «Ромейская держава» never needs declining;
counted nouns agree through :mod:`voevoda.core.words` («1 очко», «3 очка», «5 очков»).

``describe`` is the echo of one order: its price and the points left, or the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.markup import Document, Inline, Item, bold
from voevoda.core.ruleset import Event, Order
from voevoda.core.words import counted, join_and, name_in_case, with_name
from voevoda.rulesets.new_worlds.rules import FACTORY_NAMES, Rules
from voevoda.rulesets.new_worlds.views import kinds_of

DETAIL = {"double": ("дабл", "double"), "palindrome3": ("палиндром", "palindrome"),
          "triple": ("трипл", "triple"), "palindrome4": ("палиндром", "palindrome"),
          "quad": ("квадра", "quad"), "palindrome5": ("палиндром", "palindrome"),
          "penta": ("пента", "penta"), "digit": ("последняя цифра", "last digit")}
PATTERN_DIGITS = {"digit": 1, "double": 2, "palindrome3": 3, "triple": 3, "palindrome4": 4, "quad": 4,
                  "palindrome5": 5, "penta": 5}
"""How many of the last digits make each pattern («Дабл/3д Пали = +25»: «3д пали» is a
palindrome of the last three, 4 3 2 3 2 → «палиндром 232»)."""


def pattern_text(pattern: str, digits: str, lang: str) -> str:
    """The pattern of a roll with the digits that make it, so a reader sees why it pays: «дабл
    22», «палиндром 232», «трипл 444», «последняя цифра 7» (the document's «3д пали» spelt out)."""
    name = DETAIL.get(pattern, (pattern, pattern))[0 if lang == "ru" else 1]
    n = PATTERN_DIGITS.get(pattern)
    return f"{name} {digits[-n:]}" if n and len(digits) >= n else name
ORDER_NAMES = {
    "city": ("город", "city"), "upgrade": ("улучшение города", "city upgrade"), "port": ("порт", "port"),
    "university": ("университет", "university"), "factory": ("завод", "factory"),
    "refocus": ("переориентация завода", "factory refocused"), "colonize": ("занятие земель", "settling"),
    "name_tile": ("название клетки", "a tile named"), "rename": ("новое имя страны", "country renamed"),
    "religion": ("выбор религии", "religion chosen"), "recreate": ("пересоздание", "re-creation"),
    "war": ("объявление войны", "war declared"), "war_upgrade": ("улучшение войны", "war upgraded"),
    "attack": ("атака", "attack"), "defend": ("оборона", "defence"), "peace": ("мир", "peace"),
    "pact": ("пакт о ненападении", "non-aggression pact"), "break_pact": ("разрыв пакта", "pact broken"),
    "alliance": ("союз", "alliance"), "break_alliance": ("разрыв союза", "alliance broken"),
    "break_truce": ("нарушение перемирия", "truce broken"), "trade": ("торговая сделка", "trade deal"),
    "cancel_trade": ("отмена сделки", "deal cancelled"), "aid": ("помощь союзнику", "aid to an ally"),
    "cede": ("передача земель", "land ceded"), "tribute": ("дань", "tribute"),
    "release": ("освобождение вассала", "vassal released"), "impose": ("насаждение веры", "faith imposed"),
    "permit": ("разрешение на войну", "leave to go to war"), "restore_faith": ("возврат веры", "faith restored"),
    "research": ("исследование", "research"), "militia": ("ополчение", "militia"),
    "tributary": ("стать данником", "become a tributary"), "refuse": ("отказ Кагану", "defy the Khagan"),
    "reform": ("выбор реформы", "reform chosen"), "bonus": ("заявленный бонус", "bonus claimed"),
    "roll": ("ролл", "roll"),
}
MOD_NAMES = {
    "cities": ("города", "cities"), "upgrades": ("улучшения городов", "city upgrades"),
    "religion": ("религия", "religion"), "crusade": ("война с иноверцами", "war on other faiths"),
    "soft_power": ("мягкая сила", "soft power"), "invaders": ("бонус захватчиков", "the invaders' bonus"),
    "khaganate": ("бонус Каганата", "the Khaganate's bonus"),
}
REFUNDS = {
    "contested": ("клетка досталась другому", "another country got the tile"),
    "unreachable": ("клетка недосягаема", "the tile is out of reach"),
    "not_yours": ("клетка уже не ваша", "the tile is no longer yours"), "no_site": ("место занято", "the site is taken"),
    "treaty_gone": ("договора уже нет", "the treaty is gone"), "already_at_war": ("война уже идёт", "already at war"),
    "war_over": ("война окончена", "the war is over"), "not_ally": ("не союзник", "not an ally"),
    "no_war": ("войны нет", "no war"),
    "no_university": ("университет не построен", "no university was built"),
    "defence_no_war": ("войны не было — оборона не понадобилась", "there was no war to defend"),
    "pact_failed": ("пакт не заключён", "no pact was signed"),
    "alliance_failed": ("союз не заключён", "no alliance was signed"),
    "pact_unanswered": ("предложение пакта без ответа", "the pact was not answered"),
    "alliance_unanswered": ("предложение союза без ответа", "the alliance was not answered"),
    "trade_unanswered": ("предложение сделки без ответа", "the deal was not answered"),
    "peace_unanswered": ("предложение мира без ответа", "the peace was not answered"),
}
WAR_END = {"duration": ("срок вышел", "its time ran out"), "peace": ("заключён мир", "peace was made"),
           "linked": ("вместе с войной вассала", "with its vassal's war")}


class Words:
    """Names and numbers in one language, from the rules and a view."""

    def __init__(self, rules: Rules, view: Mapping[str, Any] | None, lang: str) -> None:
        self.rules = rules
        self.lang = lang
        self.ru = lang == "ru"
        self.names: dict[str, str] = {}
        if view is not None:
            for cid, c in view.get("countries", {}).items():
                self.names[cid] = c.get("name_en") if not self.ru and c.get("name_en") else c["name"]

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def points(self, n: int, case: str = "nomn") -> str:
        return counted(n, "очко", case=case) if self.ru else counted(n, "point", "en")

    def war_points(self, n: int) -> str:
        return f"{n} ВО" if self.ru else f"{n} WP"

    def tiles_count(self, n: int) -> str:
        return counted(n, "клетка") if self.ru else counted(n, "tile", "en")

    def country(self, cid: str | None) -> str:
        if cid is None:
            return self.t("никто", "nobody")
        return self.names.get(cid, cid)

    def country_in(self, cid: str | None, case: str) -> str:
        """The country's name as a Russian sentence puts it after a preposition («с Борисом»,
        «на Ромейскую державу»); in English as it is."""
        name = self.country(cid)
        return name_in_case(name, case) if self.ru and cid is not None else name

    def countries(self, cids: Sequence[str]) -> str:
        return join_and([self.country(c) for c in cids], self.lang)

    def resource(self, rid: str) -> str:
        r = self.rules.resources.get(rid)
        return (r.name(self.lang).lower() if self.ru else r.name(self.lang).lower()) if r else rid

    def war_type(self, wid: str) -> str:
        w = self.rules.war_types.get(wid)
        if w is None:
            return wid
        return f"«{w.name_ru}»" if self.ru else f"'{w.name_en}'"

    def epoch(self, eid: str) -> str:
        try:
            return self.rules.epoch(eid).name(self.lang)
        except KeyError:
            return eid

    def religion(self, rid: str | None, upgraded: bool = False) -> str:
        if rid is None:
            return "—"
        rel = self.rules.religions.get(rid)  # type: ignore[call-overload]
        if rel is None:
            return str(rid)
        return f"{rel.name(self.lang)} ({rel.form(upgraded).title(self.lang)})"

    def project(self, pid: str) -> str:
        try:
            return self.rules.project(pid)[2].name(self.lang)
        except KeyError:
            return pid

    def factory(self, kind: str | None) -> str:
        if kind is None:
            return ""
        ru, en, _ = FACTORY_NAMES.get(kind, (kind, kind, ()))
        return self.t(ru, en)

    def tiles(self, tiles: Sequence[str]) -> str:
        return ", ".join(tiles) if tiles else "—"

    def order(self, kind: str) -> str:
        ru, en = ORDER_NAMES.get(kind, (kind, kind))
        return self.t(ru, en)

    def voyage(self, v: Mapping[str, Any]) -> str:
        """A voyage's price with the water it crosses (ruling R3): «плавание 9 (D4, D5, D6 по
        3)», «плавание 6 (D4 1, E5 4, F6 1)», «плавание 3 (за поездку)»."""
        sea = int(v["sea"])
        via = [(str(t), int(step)) for t, step in v.get("via") or []]
        if not via:
            return self.t(f"плавание {sea} (за поездку)", f"voyage {sea} (per trip)")
        steps = {step for _, step in via}
        tiles = ", ".join(t for t, _ in via)
        if len(steps) == 1:
            return self.t(f"плавание {sea} ({tiles} по {via[0][1]})", f"voyage {sea} ({tiles} at {via[0][1]} each)")
        each = ", ".join(f"{t} {step}" for t, step in via)
        return self.t(f"плавание {sea} ({each})", f"voyage {sea} ({each})")

    def settled_by_sea(self, voyages: Mapping[str, Mapping[str, Any]]) -> str:
        """«C7: 1 + плавание 3 (D7 по 3); C8: 1»: the price of each tile settled by a post that
        crosses water."""
        return "; ".join(f"{tile}: {v['base']} + {self.voyage(v)}" if v.get("sea") else f"{tile}: {v['base']}"
                         for tile, v in voyages.items())


# -- the echo of one order --------------------------------------------------------------------------

def describe(order: Order, rules: Rules, lang: str = "ru") -> str:
    """«город C5 — 7 очков, осталось 13 очков», or the rule the order breaks."""
    w = Words(rules, None, lang)
    a = order.args
    what = order.text or w.order(order.kind)
    echo = a.get("echo") or {}
    if order.kind == "roll":
        return what + w.t(" — кости бросает движок, ролл уже в отчёте хода (docs/dice.md)",
                          " — the engine rolls the dice; the roll is in the turn's report (docs/dice.md)")
    if order.kind == "bonus":
        ledger = echo.get("ledger")
        if ledger is None:
            return what
        claimed = int(a.get("amount", 0))
        if claimed == ledger:
            return what + w.t(f" — совпадает с расчётом (+{ledger})", f" — matches the ledger (+{ledger})")
        return what + w.t(f" — по расчёту бонус +{ledger}, а не {claimed:+d}",
                          f" — the ledger says +{ledger}, not {claimed:+d}")
    if echo.get("problem"):
        return f"{what} — {echo['problem']}"
    parts = []
    price = int(echo.get("price", 0))
    war_price = int(echo.get("war_price", 0))
    if price:
        parts.append(w.points(price))
    if war_price:
        parts.append(w.war_points(war_price))
    cost = " + ".join(parts) if parts else w.t("бесплатно", "free")
    if echo.get("voyages"):
        cost += f" ({w.settled_by_sea(echo['voyages'])})"
    left = echo.get("left")
    tail = ""
    if left is not None:
        tail = w.t(f", осталось {w.points(int(left))}", f", {w.points(int(left))} left")
        if war_price:
            tail += f", {w.war_points(int(echo.get('war_left', 0)))}"
    if echo.get("standing"):
        # ruling R15: a proposal written again is paid once
        tail += w.t(f"; ваше предложение хода {echo['standing']} ещё в силе и уже оплачено",
                    f"; your proposal of turn {echo['standing']} still stands and is paid for")
    if echo.get("unless_war"):
        # ruling R45: a defence written before the war is stored
        tail += w.t("; войны пока нет: оборона встретит войну, объявленную в этом ходу, иначе очки вернутся",
                    "; no war yet: the defence meets a war declared this turn, else the points come back")
    return f"{what} — {cost}{tail}"


# -- the turn's post ------------------------------------------------------------------------------------

def document(view: Mapping[str, Any], events: Sequence[Event], viewer: str, rules: Rules, lang: str = "ru",
             turn: int | None = None) -> Document:
    w = Words(rules, view, lang)
    shown = turn if turn is not None else int(view["turn"]) - 1
    if shown < 1:
        doc = Document(w.t("Новые Миры — начало игры", "New Worlds — the game begins"))
    else:
        doc = Document(w.t(f"Новые Миры — итоги хода {shown}", f"New Worlds — turn {shown}"))
    if shown < 1:
        doc.paragraph(w.t(f"Эпоха: {w.epoch(str(view['epoch']))}. Игра начинается с хода {view['turn']}.",
                          f"Epoch: {w.epoch(str(view['epoch']))}. The game begins with turn {view['turn']}."))
    elif view.get("outcome") is not None and shown == int(view["turn"]) - 1:
        doc.paragraph(w.t(f"Эпоха: {w.epoch(str(view['epoch']))}. Игра окончена.",
                          f"Epoch: {w.epoch(str(view['epoch']))}. The game is over."))
    else:
        doc.paragraph(w.t(f"Эпоха: {w.epoch(str(view['epoch']))}. Следующий ход — {view['turn']}-й.",
                          f"Epoch: {w.epoch(str(view['epoch']))}. Turn {view['turn']} is next."))
    # what a country paid for is told once, in its ledger: the events list keeps the rest (and
    # the settling and building of countries without a ledger, the event countries)
    ledgered = {e.data.get("country") for e in events if e.kind == "ledger"}
    told_events = [e for e in events if not (e.kind in ("colonized", "built") and e.data.get("country") in ledgered)]
    sections: list[tuple[str, list[Inline | Item]]] = [
        (w.t("События", "Events"), [x for x in (world_line(e, w) for e in told_events) if x]),
        (w.t("Война и дипломатия", "War and diplomacy"), [x for x in (diplomacy_line(e, w) for e in events) if x]),
        (w.t("Сражения", "Battles"), [battle_line(e, w) for e in events if e.kind == "battle"]),
    ]
    told = False
    for title, lines in sections:
        if lines:
            told = True
            doc.heading(title, 2)
            doc.bullets(lines)
    ledgers = [e for e in events if e.kind == "ledger"]
    if ledgers:
        told = True
        doc.heading(w.t("Расходы", "The ledger"), 2)
        doc.bullets(ledger_item(e, w) for e in ledgers)
    rolls = [e for e in events if e.kind == "roll"]
    if not rolls and not told and int(view["turn"]) == 1:
        # the start of the game: the rolls for turn 1 were made at the setup
        rolls = [Event("roll", {"country": cid, **c["roll"], "points": c["points"]})
                 for cid, c in view["countries"].items() if c.get("alive") and c.get("roll")]
    if rolls:
        told = True
        doc.heading(w.t(f"Роллы на ход {view['turn']}", f"Rolls for turn {view['turn']}"), 2)
        doc.bullets(roll_line(e, w) for e in rolls)
    if told:
        standings(doc, view, w)
    private = [x for x in (private_line(e, w) for e in events) if x]
    if private:
        told = True
        doc.heading(w.t("Лично вам", "For you alone"), 2)
        doc.bullets(private)
    if not told:
        doc.paragraph(w.t("Ход ещё не рассчитан.", "No turn has been resolved yet."))
    return doc


def roll_modifiers(d: Mapping[str, Any], w: Words) -> list[str]:
    """The lines a roll adds up after its pattern: «города (2) +2», «мех ×2 +2», …"""
    mods = []
    for mod in d.get("modifiers", []):
        key = str(mod["key"])
        if key.startswith("resource:"):
            label = resource_label(mod, w)
        else:
            label = MOD_NAMES.get(key, (key, key))[0 if w.ru else 1]
            if key in ("cities", "upgrades") and mod.get("count"):
                label += f" ({mod['count']})"
        mods.append(f"{label} {int(mod['amount']):+d}")
    return mods


WHY = {"unique": ("уникальный", "unique")}


def resource_label(mod: Mapping[str, Any], w: Words) -> str:
    """A resource's line of the roll as a game master re-checks it: how many units, what
    raised their bonus, who sold them, the multiplier and why — «мех (2)», «хлопок (с рабами)»,
    «вино от Бориса ×4 (уникальный, политеизм)» («Ресурсы», IV «Торговля, 2», V «Религия»)."""
    label = w.resource(str(mod["key"]).split(":", 1)[1])
    if mod.get("seller"):
        label += w.t(f" от {w.country_in(str(mod['seller']), 'gent')}", f" from {w.country(str(mod['seller']))}")
    inside = [str(mod["count"])] if int(mod.get("count", 0)) > 1 else []
    for reason in mod.get("boost") or []:
        if str(reason).startswith("with:"):
            other = w.resource(str(reason).split(":", 1)[1])
            inside.append(w.t(with_name(other), f"with {other}"))
        elif reason == "factory":
            inside.append(w.t("завод", "factory"))
    if inside:
        label += f" ({', '.join(inside)})"
    if int(mod.get("multiplier", 1)) > 1:
        why = []
        for reason in mod.get("why") or []:
            if str(reason).startswith("religion:"):
                rel = w.rules.religions.get(str(reason).split(":", 1)[1])  # type: ignore[call-overload]
                why.append(rel.name(w.lang).lower() if rel else str(reason))
            else:
                why.append(WHY.get(str(reason), (str(reason),) * 2)[0 if w.ru else 1])
        label += f" ×{mod['multiplier']}" + (f" ({', '.join(why)})" if why else "")
    return label


def roll_line(e: Event, w: Words) -> Inline:
    d = e.data
    faces = " ".join(str(f) for f in d["faces"])
    detail = pattern_text(str(d["pattern"]), str(d["digits"]), w.lang)
    mods = roll_modifiers(d, w)
    body = f": 5d{d['die']} → {faces} ({d['digits']}), {detail} +{d['base']}"
    if mods:
        body += "; " + "; ".join(mods)
    extra = []
    if d.get("tribute_out"):
        extra.append(w.t(f"дань −{d['tribute_out']}", f"tribute −{d['tribute_out']}"))
    if d.get("tribute_in"):
        extra.append(w.t(f"получено данью +{d['tribute_in']}", f"tribute received +{d['tribute_in']}"))
    if d.get("aid_in"):
        extra.append(w.t(f"помощь союзника +{d['aid_in']}", f"allies' aid +{d['aid_in']}"))
    if d.get("kept"):
        extra.append(w.t(f"остаток {d['kept']}", f"carried {d['kept']}"))
    tail = f" ({', '.join(extra)})" if extra else ""
    return [bold(w.country(str(d["country"]))), body, " = ", bold(str(d["total"])), tail,
            w.t(f"; к ходу: {w.points(int(d['points']))}", f"; for the turn: {w.points(int(d['points']))}")]


def standings(doc: Document, view: Mapping[str, Any], w: Words) -> None:
    """The countries as they stand after the turn: faith, land, cities, buildings, the points
    and war points they have for the next turn, and who is whose vassal or tributary."""
    kinds = kinds_of(view)
    land: dict[str, int] = {}
    cities: dict[str, int] = {}
    buildings: dict[str, dict[str, int]] = {}
    for tile, t in view.get("tiles", {}).items():
        owner = t.get("owner")
        if owner is None:
            continue
        if kinds.get(tile) == "land":
            land[owner] = land.get(owner, 0) + 1
        if t.get("city") is not None:
            cities[owner] = cities.get(owner, 0) + 1
        if t.get("building"):
            kind = str(t["building"])
            buildings.setdefault(owner, {})[kind] = buildings.setdefault(owner, {}).get(kind, 0) + 1
    nouns = {"port": ("порт", "port"), "university": ("университет", "university"), "factory": ("завод", "factory")}
    rows = []
    for cid, c in view["countries"].items():
        if not c.get("alive"):
            continue
        name = w.country(cid)
        if c.get("player") and name != c["player"]:
            name += f" ({c['player']})"
        built = ", ".join(counted(n, nouns[k][0]) if w.ru else counted(n, nouns[k][1], "en")
                          for k, n in sorted(buildings.get(cid, {}).items(), key=lambda kn: list(nouns).index(kn[0])))
        status = []
        if c.get("suzerain"):
            status.append(w.t(f"сюзерен: {w.country(c['suzerain'])}", f"suzerain: {w.country(c['suzerain'])}"))
        if c.get("khagan_tributary"):
            status.append(w.t("данник Каганата", "a tributary of the Khaganate"))
        faith = w.religion(c.get("religion"), bool(c.get("upgraded"))) if c.get("religion") else "—"
        rows.append([name, faith, str(land.get(cid, 0)), str(cities.get(cid, 0)), built or "—",
                     str(c.get("points", 0)), str(c.get("war_points", 0)), "; ".join(status) or "—"])
    if not rows:
        return
    doc.heading(w.t("Страны", "Countries"), 2)
    doc.table([w.t("страна", "country"), w.t("вера", "faith"), w.t("земли", "land"), w.t("города", "cities"),
               w.t("постройки", "buildings"), w.t(f"очки на ход {view['turn']}", f"points for turn {view['turn']}"),
               w.t("ВО", "WP"), w.t("положение", "standing")], rows, "llrrlrrl")


def order_line(kind: str, args: Mapping[str, Any], w: Words) -> str:
    """An order as the ledger names it, in the report's language, from what the order does
    (not the player's words, which may be English in a Russian post, or misspelt)."""
    c = w.country
    target = c(str(args["target"])) if args.get("target") else ""
    other = str(args["target"]) if args.get("target") else None

    def to(case: str) -> str:
        return w.country_in(other, case)

    def with_(ru: str) -> str:
        """«союз с Борисом», «война со Староверами»."""
        return f"{ru} {with_name(w.country(other))}"

    tile = str(args.get("tile", ""))
    if kind in ("city", "port", "university"):
        return f"{w.order(kind)} {tile}"
    if kind == "upgrade":
        return w.t(f"улучшение города {tile}", f"city upgrade {tile}")
    if kind == "factory":
        return w.t(f"завод {tile} ({w.factory(args.get('type'))})", f"factory {tile} ({w.factory(args.get('type'))})")
    if kind == "refocus":
        return w.t(f"переориентация завода {tile}: {w.factory(args.get('type'))}",
                   f"factory {tile} refocused: {w.factory(args.get('type'))}")
    if kind == "colonize":
        return w.t(f"занятие земель: {w.tiles(args.get('tiles', []))}", f"settling: {w.tiles(args.get('tiles', []))}")
    if kind == "war":
        return w.t(f"{with_('война')}, {w.war_type(str(args['type']))}",
                   f"war on {target}, {w.war_type(str(args['type']))}")
    if kind == "war_upgrade":
        return w.t(f"{with_('улучшение войны')}: {w.war_type(str(args['type']))}",
                   f"war on {target} upgraded: {w.war_type(str(args['type']))}")
    if kind == "attack":
        return w.t(f"атака на {to('accs')}: {w.tiles(args.get('tiles', []))}",
                   f"attack on {target}: {w.tiles(args.get('tiles', []))}")
    if kind == "defend":
        return w.t(f"оборона от {to('gent')}", f"defence against {target}") if target else w.t("оборона", "defence")
    if kind == "research":
        branch = w.rules.research.branches.get(str(args.get("branch")))
        return w.t(f"исследование: {branch.name_ru if branch else args.get('branch')}",
                   f"research: {branch.name_en if branch else args.get('branch')}")
    if kind == "militia":
        return w.t(f"ополчение (+{w.rules.research.militia_war_points} ВО)",
                   f"militia (+{w.rules.research.militia_war_points} WP)")
    if kind == "proposal":
        return w.t("предложение договора (видно только сторонам)", "a proposal (seen by its two parties only)")
    if target and kind in WITH_TARGET:
        ru, en, case = WITH_TARGET[kind]
        if case == "ablt":
            return w.t(with_(ru), f"{en} {target}")
        return w.t(f"{ru} {to(case)}", f"{en} {target}")
    if target:
        return f"{w.order(kind)} → {target}"
    return w.order(kind)


# an order on another country as a game master names it: «пакт с Борисом», «помощь Анне»
WITH_TARGET: dict[str, tuple[str, str, str]] = {
    "pact": ("пакт о ненападении", "non-aggression pact with", "ablt"),
    "break_pact": ("разрыв пакта", "pact broken with", "ablt"),
    "alliance": ("союз", "alliance with", "ablt"),
    "break_alliance": ("разрыв союза", "alliance broken with", "ablt"),
    "break_truce": ("нарушение перемирия", "truce broken with", "ablt"),
    "peace": ("мир", "peace with", "ablt"),
    "trade": ("торговая сделка", "trade deal with", "ablt"),
    "cancel_trade": ("отмена сделки", "deal cancelled with", "ablt"),
    "aid": ("помощь", "aid to", "datv"),
    "cede": ("передача земель", "land ceded to", "datv"),
    "release": ("освобождение вассала:", "vassal released:", "nomn"),
    "impose": ("насаждение веры вассалу", "faith imposed on", "datv"),
}


def ledger_item(e: Event, w: Words) -> Item:
    """«было …», each order that cost points or war points with what it cost and the points
    left after it, the refunds, «осталось …». Free orders are told among the events."""
    d = e.data
    head: Inline = [bold(w.country(str(d["country"]))),
                    w.t(f": было {w.points(int(d['opening']))}, {w.war_points(int(d['war_opening']))}",
                        f": had {w.points(int(d['opening']))}, {w.war_points(int(d['war_opening']))}")]
    rows: list[Inline | Item] = []
    left = int(d["opening"])
    war_left = int(d["war_opening"])
    for item in d["items"]:
        price = int(item["price"])
        war = int(item["war_price"])
        if item["kind"] == "militia":
            war_left += w.rules.research.militia_war_points
        if not price and not war:
            continue
        left -= price
        war_left -= war
        cost = []
        if price:
            cost.append(w.points(price))
        if war:
            cost.append(w.war_points(war))
        tail = []
        if price:
            tail.append(str(left))
        if war:
            tail.append(w.war_points(war_left))
        what = order_line(str(item['kind']), item.get('args') or {}, w)
        spent = " + ".join(cost)
        if item.get("voyages"):
            spent += f" ({w.settled_by_sea(item['voyages'])})"
        rows.append(w.t(f"{what} — {spent}, осталось {', '.join(tail)}", f"{what} — {spent}, {', '.join(tail)} left"))
    for r in d.get("refunds", []):
        reason = REFUNDS.get(str(r["reason"]), (str(r["reason"]),) * 2)[0 if w.ru else 1]
        rows.append(w.t(f"возврат +{r['amount']} ({reason})", f"refund +{r['amount']} ({reason})"))
    for x in d.get("effects", []):
        # the game master's event: its points or war points, so the ledger adds up to what is left
        amount = int(x["amount"])
        what = w.points(abs(amount)) if x["kind"] == "points" else w.war_points(abs(amount))
        name = x["name_ru"] if w.ru else x["name_en"]
        rows.append(w.t(f"событие «{name}»: {'+' if amount >= 0 else '−'}{what}",
                        f"event '{name}': {'+' if amount >= 0 else '−'}{what}"))
    if d.get("epoch"):
        # «Века»: a new epoch gives every country its war points anew
        rows.append(w.t(f"новая эпоха, «{w.epoch(str(d['epoch']))}»: {w.war_points(int(d['war_points']))}",
                        f"a new epoch, the {w.epoch(str(d['epoch']))}: {w.war_points(int(d['war_points']))}"))
    rows.append(w.t(f"осталось {w.points(int(d['closing']))}, {w.war_points(int(d['war_points']))}",
                    f"left: {w.points(int(d['closing']))}, {w.war_points(int(d['war_points']))}"))
    return Item(head, rows)


def battle_line(e: Event, w: Words) -> Inline:
    d = e.data
    a, b = w.country(str(d["attacker"])), w.country(str(d["defender"]))

    def side(points: int, bonus: int) -> str:
        # «Бронза: +3 к атаке и защите»: the military resources' bonus named, none left out
        return f"{points} + {bonus} " + w.t("(военные ресурсы)", "(military resources)") if bonus else str(points)

    attack = side(int(d["committed"]), int(d["attack_bonus"]))
    if d.get("model") == "purchase":
        core = w.t(f"атака {attack}", f"attack {attack}")
    else:
        defence = side(int(d["defence"]), int(d["defence_bonus"]))
        core = w.t(f"атака {attack} против обороны {defence}, перевес {d['net']}",
                   f"attack {attack} against defence {defence}, margin {d['net']}")
    voyages: Mapping[str, Mapping[str, Any]] = d.get("voyages") or {}
    taken = ", ".join(f"{t} ({voyages[t]['capture']} + {w.voyage(voyages[t])})" if t in voyages else str(t)
                      for t in d["taken"]) or "—"
    out = f"{a} → {b}: {core}; " + w.t(f"взято: {taken}", f"taken: {taken}")
    # the tiles not taken with their reason, as a game master answers «why not?»
    missed = _missed(d.get("missed", []), w, voyages)
    if missed:
        out += w.t(f"; не взято: {'; '.join(missed)}", f"; not taken: {'; '.join(missed)}")
    return out


def _missed(entries: Sequence[Mapping[str, Any]], w: Words,
            voyages: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """The tiles a battle did not take, those of one reason together: «M8, N8, O8 (перевеса не
    хватило: стоят 1–2, осталось 0)», «AE8 (уже взята)»; a single tile over the margin with its
    price («E2 (стоит 7, осталось 5)»), one across water with its voyage itemised («AF16 (стоит
    36: захват 2 + плавание 34 (…), осталось 19)», ruling R3)."""
    voyages = voyages or {}
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for x in entries:
        why = str(x.get("why"))
        if why == "strength" and x.get("tile") in voyages:
            # tiles across the same water at the same price are told once
            v = voyages[str(x["tile"])]
            groups.setdefault(f"sea:{x['price']}:{v['capture']}:{w.voyage(v)}:{x['left']}", []).append(x)
        elif why in ("strength", "unreachable", "not_theirs"):
            groups.setdefault(why, []).append(x)
        elif why == "limit":
            groups.setdefault(f"limit:{x.get('ru') if w.ru else x.get('en')}", []).append(x)
    out = []
    for why, xs in groups.items():
        tiles = ", ".join(str(x["tile"]) for x in xs)
        if why == "strength":
            prices = sorted({int(x["price"]) for x in xs})
            left = min(int(x["left"]) for x in xs)
            if len(xs) == 1:
                out.append(w.t(f"{tiles} (стоит {prices[0]}, осталось {left})", f"{tiles} (costs {prices[0]}, {left} left)"))
            else:
                cost = str(prices[0]) if len(prices) == 1 else f"{prices[0]}–{prices[-1]}"
                out.append(w.t(f"{tiles} (перевеса не хватило: стоят {cost}, осталось {left})",
                               f"{tiles} (the margin fell short: they cost {cost}, {left} left)"))
        elif why.startswith("sea:"):
            x = xs[0]
            v = voyages[str(x["tile"])]
            costs = w.t("стоит", "costs") if len(xs) == 1 else w.t("стоят по", "cost")
            out.append(w.t(f"{tiles} ({costs} {x['price']}: захват {v['capture']} + {w.voyage(v)}, осталось {x['left']})",
                           f"{tiles} ({costs} {x['price']} each: capture {v['capture']} + {w.voyage(v)}, {x['left']} left)"
                           if len(xs) > 1 else
                           f"{tiles} ({costs} {x['price']}: capture {v['capture']} + {w.voyage(v)}, {x['left']} left)"))
        elif why == "unreachable":
            out.append(w.t(f"{tiles} (не добраться)", f"{tiles} (out of reach)"))
        elif why == "not_theirs":
            out.append(w.t(f"{tiles} (уже взяты)" if len(xs) > 1 else f"{tiles} (уже взята)", f"{tiles} (already taken)"))
        else:
            out.append(f"{tiles} ({why.split(':', 1)[1]})")
    return out


def world_line(e: Event, w: Words) -> Inline | None:  # noqa: C901 - one sentence per kind of event
    d = e.data
    k = e.kind
    c = w.country
    if k == "epoch":
        who = w.t(f" (условия выполнила страна «{c(d['by'])}»)", f" (conditions met by {c(d['by'])})") if d.get("by") else ""
        return w.t(f"Новая эпоха: {w.epoch(d['epoch'])}{who}, с хода {d['from_turn']}",
                   f"A new epoch: the {w.epoch(d['epoch'])}{who}, from turn {d['from_turn']}")
    if k == "event_country":
        name = d["name_ru"] if w.ru else d["name_en"]
        return w.t(f"{name}: появление на карте — {w.tiles(d['tiles'])}", f"{name} appear: {w.tiles(d['tiles'])}")
    if k == "event_over":
        texts = {"sea_peoples": ("Морские Народы изгнаны с континента", "The Sea Peoples are driven off the continent"),
                 "khaganate": ("Великий Каганат повержен", "The Great Khaganate has fallen"),
                 "agrarian_revolution": ("Аграрная революция завершена", "The Agrarian Revolution is over")}
        ru, en = texts.get(str(d["event"]), (str(d["event"]), str(d["event"])))
        return w.t(ru, en)
    if k == "khagan_choice":
        return w.t(f"Страна «{c(d['country'])}» захвачена Каганатом: данник или гибель?",
                   f"{c(d['country'])} has been taken by the Khaganate: tribute or ruin?")
    if k == "tributary":
        return w.t(f"{c(d['country'])}: данник Каганата", f"{c(d['country'])}: a tributary of the Khaganate")
    if k == "tributary_freed":
        return w.t(f"{c(d['country'])}: больше не данник", f"{c(d['country'])}: no longer a tributary")
    if k == "destroyed":
        return w.t(f"{c(d['country'])}: цивилизация уничтожена Каганом", f"{c(d['country'])}: destroyed by the Khagan")
    if k == "reformation_wave":
        return w.t(f"Аграрная революция, волна {d['wave']}: {w.countries(d['countries'])}",
                   f"Agrarian Revolution, wave {d['wave']}: {w.countries(d['countries'])}")
    if k == "reformation":
        faces = " ".join(str(f) for f in d["faces"])
        return w.t(f"{c(d['country'])}: Реформация; 5d4 ведущего → {faces}, староверам {d['share']}% — "
                   f"{w.tiles_count(len(d['tiles']))}",
                   f"{c(d['country'])}: Reformation; the GM's 5d4 → {faces}, the old believers get {d['share']}% — "
                   f"{w.tiles_count(len(d['tiles']))}")
    if k == "reformation_done":
        res = {"reformed": ("победили реформаторы", "the reformers won"),
               "failed": ("победили староверы", "the old believers won")}.get(str(d["result"]), (d["result"],) * 2)
        return w.t(f"{c(d['country'])}: Реформация завершена — {res[0]}; вера: {w.religion(d['religion'], d['upgraded'])}",
                   f"{c(d['country'])}: the Reformation is over — {res[1]}; faith: "
                   f"{w.religion(d['religion'], d['upgraded'])}")
    if k == "custom_event":
        name = d["name_ru"] if w.ru else d["name_en"]
        msg = d["message_ru"] if w.ru else d["message_en"]
        return [bold(name), f": {msg}" if msg else ""]
    if k == "region_opened":
        name = d["name_ru"] if w.ru else d["name_en"]
        return w.t(f"Открыта новая часть карты: {name}", f"A new part of the map opens: {name}")
    if k == "eliminated":
        return w.t(f"{c(d['country'])}: страна исчезла с карты", f"{c(d['country'])} is gone from the map")
    if k == "recreated":
        return w.t(f"{c(d['country'])}: страна пересоздана в {d['tile']}", f"{c(d['country'])}: re-created at {d['tile']}")
    if k == "slaves_freed":
        return w.t("С Ренессансом рабов больше нет", "With the Renaissance the slaves are gone")
    if k == "game_over":
        return w.t(f"Игра окончена: {outcome_text(d, w)}", f"The game is over: {outcome_text(d, w)}")
    if k == "colonized":
        return w.t(f"{c(d['country'])}: занято {w.tiles(d['tiles'])} — {w.points(int(d['price']))}",
                   f"{c(d['country'])}: settled {w.tiles(d['tiles'])} — {w.points(int(d['price']))}")
    if k == "contested":
        who = w.countries(d["countries"])
        tile = w.tiles(d["tiles"])
        if d.get("winner") is None:
            return w.t(f"{tile}: спорная клетка ({who}) остаётся свободной", f"{tile}: wanted by {who}, stays free")
        roll = (w.t(f", ролл 1d{len(d['tied'])} → {d['roll']}", f", a 1d{len(d['tied'])} roll → {d['roll']}")
                if d.get("roll") else "")
        return w.t(f"{tile}: спорная клетка ({who}) достаётся {w.country_in(d['winner'], 'datv')}{roll}",
                   f"{tile}: wanted by {who}, goes to {c(d['winner'])}{roll}")
    if k == "built":
        what = w.order(str(d["kind"]))
        if d["kind"] in ("factory", "refocus"):
            what += f" ({w.factory(d.get('factory'))})"
        if d["kind"] == "upgrade":
            what += w.t(f" до +{int(d['level']) + 1}", f" to +{int(d['level']) + 1}")
        return f"{c(d['country'])}: {what} {d['tile']}"
    if k == "project_done":
        return w.t(f"{c(d['country'])}: завершён проект «{w.project(d['project'])}»",
                   f"{c(d['country'])}: the project {w.project(d['project'])} is done")
    if k == "named":
        return w.t(f"{c(d['country'])}: клетка {d['tile']} названа «{d['name']}»",
                   f"{c(d['country'])}: tile {d['tile']} is named '{d['name']}'")
    if k == "renamed":
        return w.t(f"«{d['old']}» отныне зовётся «{d['new']}»", f"'{d['old']}' is now called '{d['new']}'")
    if k == "religion_chosen":
        return w.t(f"{c(d['country'])}: религия — {w.religion(d['religion'])}",
                   f"{c(d['country'])}: religion — {w.religion(d['religion'])}")
    if k == "faith_restored":
        return w.t(f"{c(d['country'])}: возвращена прежняя вера — {w.religion(d['religion'])}",
                   f"{c(d['country'])}: the old faith restored — {w.religion(d['religion'])}")
    if k == "city_destroyed":
        slaves = w.t("; на его месте рабы", "; slaves appear") if d.get("slaves") else ""
        whose = w.t(f" {w.country_in(d['from'], 'gent')}", f" of {c(d['from'])}") if d.get("from") else ""
        # «Города, захваченные до Средних веков, уничтожаются»; or the epoch's cap on cities
        why = w.t(": городов у неё больше, чем позволяет эпоха", ": more cities than the epoch allows") if (
            d.get("reason") == "cap") else ""
        return w.t(f"{d['tile']}: город{whose} взят {w.country_in(d['by'], 'ablt')} и разрушен{why}{slaves}",
                   f"{d['tile']}: the city{whose} is taken by {c(d['by'])} and razed{why}{slaves}")
    if k == "building_destroyed":
        return w.t(f"{d['tile']}: {w.order(str(d['kind']))} разрушен", f"{d['tile']}: the {w.order(str(d['kind']))} is razed")
    if k == "liberated":
        return w.t(f"{d['tile']}: освобождена и возвращена {w.country_in(d['to'], 'datv')}",
                   f"{d['tile']}: liberated, back to {c(d['to'])}")
    if k == "dejure_moved":
        if d.get("to") is None:
            return w.t(f"{d['tile']}: владение де-юре становится ничьим", f"{d['tile']}: the de jure holding is nobody's")
        return w.t(f"{d['tile']}: владение де-юре переходит к {w.country_in(d['to'], 'datv')}",
                   f"{d['tile']}: the de jure holding passes to {c(d['to'])}")
    if k == "bonus_claim":
        if d.get("ledger") is None or d["ledger"] == d["claimed"]:
            return None
        return w.t(f"{c(d['country'])}: заявлен бонус {int(d['claimed']):+d}, по расчёту +{d['ledger']}",
                   f"{c(d['country'])}: a bonus of {int(d['claimed']):+d} claimed, the ledger says +{d['ledger']}")
    if k == "event_effect" and d.get("kind") in ("points", "war_points"):
        what = w.t("очки", "points") if d["kind"] == "points" else w.t("ВО", "war points")
        return w.t(f"{what} {int(d['amount']):+d}: {w.countries(d['countries'])}",
                   f"{what} {int(d['amount']):+d}: {w.countries(d['countries'])}")
    return None


def diplomacy_line(e: Event, w: Words) -> Inline | None:  # noqa: C901 - one sentence per kind of event
    d = e.data
    k = e.kind
    c = w.country
    if k == "war_declared":
        return w.t(f"{c(d['attacker'])} → {c(d['defender'])}: война {w.war_type(d['type'])} "
                   f"({w.war_points(int(d['price']))}), до хода {d['until']}",
                   f"{c(d['attacker'])} → {c(d['defender'])}: war, {w.war_type(d['type'])} "
                   f"({w.war_points(int(d['price']))}), until turn {d['until']}")
    if k == "war_linked":
        return w.t(f"{c(d['attacker'])} → {c(d['defender'])}: оборонительная война сюзерена за вассала "
                   f"{w.country_in(d['vassal'], 'accs')}", f"{c(d['attacker'])} → {c(d['defender'])}: a suzerain's defensive war "
                   f"for the vassal {c(d['vassal'])}")
    if k == "war_upgraded":
        return w.t(f"{c(d['country'])} → {c(d['other'])}: война улучшена, {w.war_type(d['from'])} → "
                   f"{w.war_type(d['to'])} ({w.war_points(int(d['price']))})",
                   f"{c(d['country'])} → {c(d['other'])}: war upgraded, {w.war_type(d['from'])} → "
                   f"{w.war_type(d['to'])} ({w.war_points(int(d['price']))})")
    if k == "war_ended":
        reason = WAR_END.get(str(d["reason"]), (str(d["reason"]),) * 2)[0 if w.ru else 1]
        text = w.t(f"Конец войны: {c(d['attacker'])} — {c(d['defender'])} ({reason})",
                   f"The war is over: {c(d['attacker'])} — {c(d['defender'])} ({reason})")
        for side, tiles in sorted((d.get("returned") or {}).items()):
            # «Вы не можете получить больше, чем положено типом войны»: what goes back, counted
            text += w.t(f"; {c(side)} возвращает {counted(len(tiles), 'клетка', case='accs')}: {w.tiles(tiles)}",
                        f"; {c(side)} gives back {w.tiles_count(len(tiles))}: {w.tiles(tiles)}")
        return text
    if k == "vassalised":
        return w.t(f"{c(d['vassal'])}: вассал, сюзерен — {c(d['suzerain'])}",
                   f"{c(d['vassal'])}: a vassal of {c(d['suzerain'])}")
    if k == "vassal_freed":
        how = {"independence": ("война за независимость выиграна", "the war of independence is won"),
               "released": ("освобождение сюзереном", "released by the suzerain")}.get(str(d["reason"]),
                                                                                  (str(d["reason"]),) * 2)
        return w.t(f"{c(d['vassal'])}: больше не вассал ({how[0]})", f"{c(d['vassal'])}: no longer a vassal ({how[1]})")
    if k == "truce":
        a, b = d["parties"]
        return w.t(f"Перемирие: {c(a)} и {c(b)}, до хода {d['until']}", f"Truce: {c(a)} and {c(b)}, until turn {d['until']}")
    if k == "truce_over":
        a, b = d["parties"]
        return w.t(f"Перемирие между {w.country_in(a, 'ablt')} и {w.country_in(b, 'ablt')} истекло",
                   f"The truce of {c(a)} and {c(b)} has run out")
    if k == "treaty_signed":
        a, b = d["parties"]
        name = {"pact": ("Пакт о ненападении", "Non-aggression pact"), "alliance": ("Союз", "Alliance")}[str(d["kind"])]
        return w.t(f"{name[0]}: {c(a)} и {c(b)}", f"{name[1]}: {c(a)} and {c(b)}")
    if k == "treaty_broken":
        name = {"pact": ("пакта", "pact"), "alliance": ("союза", "alliance"), "truce": ("перемирия", "truce")}[str(d["kind"])]
        return w.t(f"{c(d['by'])} → {c(d['other'])}: разрыв {name[0]} ({w.points(int(d['price']))})",
                   f"{c(d['by'])} → {c(d['other'])}: {name[1]} broken ({w.points(int(d['price']))})")
    if k == "deal_signed":
        imposed = w.t(" (навязана)", " (imposed)") if d.get("imposed") else ""
        return w.t(f"Сделка{imposed}: {c(d['a'])} — {w.resource(d['a_gives'])}, {c(d['b'])} — {w.resource(d['b_gives'])}",
                   f"Deal{imposed}: {c(d['a'])} gives {w.resource(d['a_gives'])}, {c(d['b'])} gives "
                   f"{w.resource(d['b_gives'])}")
    if k == "deal_ended":
        deal = d["deal"]
        return w.t(f"Сделка {c(deal['a'])} — {c(deal['b'])} прекращена", f"The deal of {c(deal['a'])} and {c(deal['b'])} ends")
    if k == "deal_failed":
        return w.t(f"Сделка {c(d['a'])} — {c(d['b'])} не состоялась", f"The deal of {c(d['a'])} and {c(d['b'])} fell through")
    if k == "peace":
        a, b = d["parties"]
        text = w.t(f"Мир: {c(a)} и {c(b)}", f"Peace: {c(a)} and {c(b)}")
        # «мир X отдать C5 C6»: what each side gave up (ruling R16)
        for giver, tiles in sorted((d.get("cede") or {}).items()):
            if tiles:
                taker = b if giver == a else a
                text += w.t(f"; {c(giver)} отдаёт {w.country_in(taker, 'datv')} {w.tiles(tiles)}",
                            f"; {c(giver)} cedes {w.tiles(tiles)} to {c(taker)}")
        return text
    if k == "tribute_set":
        if not int(d["percent"]):
            return w.t(f"{c(d['vassal'])} больше не платит дань {w.country_in(d['suzerain'], 'datv')}",
                       f"{c(d['vassal'])} no longer pays tribute to {c(d['suzerain'])}")
        return w.t(f"{c(d['vassal'])} платит дань {w.country_in(d['suzerain'], 'datv')}: {d['percent']}% ролла",
                   f"{c(d['vassal'])} pays {c(d['suzerain'])} a tribute of {d['percent']}% of its roll")
    if k == "religion_imposed":
        return w.t(f"{c(d['suzerain'])} навязывает свою веру вассалу {w.country_in(d['vassal'], 'datv')}",
                   f"{c(d['suzerain'])}: its faith imposed on the vassal {c(d['vassal'])}")
    if k == "war_permitted":
        return w.t(f"{c(d['suzerain'])}: вассалу {w.country_in(d['vassal'], 'datv')} разрешена война "
                   f"{with_name(c(d['enemy']))}",
                   f"{c(d['suzerain'])}: the vassal {c(d['vassal'])} may go to war on {c(d['enemy'])}")
    if k == "aid":
        return w.t(f"{c(d['from'])} → {c(d['to'])}: помощь, {w.points(int(d['points']))}",
                   f"{c(d['from'])} → {c(d['to'])}: aid, {w.points(int(d['points']))}")
    if k == "ceded":
        tiles = list(d["tiles"])
        given = (f"передана клетка {tiles[0]}" if len(tiles) == 1 else f"переданы клетки {w.tiles(tiles)}")
        return w.t(f"{c(d['from'])} → {c(d['to'])}: {given}",
                   f"{c(d['from'])} → {c(d['to'])}: ceded {w.tiles(d['tiles'])}")
    if k == "embargo":
        return w.t(f"Эмбарго: {c(d['by'])} → {c(d['on'])}, сделки отменены",
                   f"Embargo: {c(d['by'])} → {c(d['on'])}, the deals are cancelled")
    if k == "militia":
        return w.t(f"{c(d['country'])}: ополчение, +{w.war_points(int(d['restored']))}",
                   f"{c(d['country'])}: militia, +{w.war_points(int(d['restored']))}")
    return None


def private_line(e: Event, w: Words) -> Inline | None:
    d = e.data
    if e.kind == "order_void":
        text = d["order"].get("text") or w.order(str(d["order"]["kind"]))
        return w.t(f"не исполнено «{text}»: {d['reason_ru']}", f"not carried out: '{text}': {d['reason_en']}")
    if e.kind == "offer":
        kinds = {"pact": ("пакт о ненападении", "a non-aggression pact"), "alliance": ("союз", "an alliance"),
                 "trade": ("сделка", "a deal"), "peace": ("мир", "peace")}
        name = kinds.get(str(d["kind"]), (str(d["kind"]),) * 2)
        extra = ""
        if d["kind"] == "trade":
            extra = w.t(f": {w.resource(d['give'])} за {w.resource(d['get'])}",
                        f": {w.resource(d['give'])} for {w.resource(d['get'])}")
        if d["kind"] == "peace" and d.get("cede"):
            extra = w.t(f", {w.country(d['by'])} отдаёт {w.tiles(d['cede'])}",
                        f", {w.country(d['by'])} cedes {w.tiles(d['cede'])}")
        return w.t(f"{w.country(d['by'])} → {w.country(d['to'])}: предложение — {name[0]}{extra}; ответ до конца "
                   f"следующего хода", f"{w.country(d['by'])} → {w.country(d['to'])}: an offer of {name[1]}{extra}; "
                   f"answer by the end of the next turn")
    return None


def outcome_text(d: Mapping[str, Any], w: Words) -> str:
    reason = d.get("reason")
    if reason == "invaders":
        return w.t("победили эвентовые страны", "the event countries won")
    if reason == "turns":
        return w.t(f"последний ход; больше всех земель — {w.countries(d.get('winners', []))}",
                   f"the last turn; most land: {w.countries(d.get('winners', []))}")
    if reason == "no_countries":
        return w.t("не осталось ни одной страны", "no country is left")
    return w.t(f"решение ведущего; победа — {w.countries(d.get('winners', [])) or 'никто'}",
               f"the game master's decision; winners: {w.countries(d.get('winners', [])) or 'none'}")
