"""A player's turn report and the public chronicle, built from a view and the events that
viewer may see, nothing else («Каждый ход игрок будет получать выписку по денежным
операциям, где будет указано сколько он кому заплатил и сколько от кого получил»).

A player reads what he needs to write his next orders: his treasury from the opening to the
closing balance, the income of each holding with the reason for every reduction, battles and
captures, other players' units seen coming into or standing in his holdings, what became of
his orders and bids, and where his units stand. The public chronicle tells the turn: battles
and captures (as the option ``chronicle`` allows), relations, condottieri, players out.
Everything is a :class:`~voevoda.core.markup.Document`, worded through
:mod:`voevoda.core.words` (docs/reports.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.markup import Document, Inline, Item, bold
from voevoda.core.ruleset import Event
from voevoda.core.words import Names, counted, join_and, number, percent
from voevoda.rulesets.ring_of_power.orders import TREASURY
from voevoda.rulesets.ring_of_power.rules import Options, Rules
from voevoda.rulesets.ring_of_power.turn import transfer_fee

ITEMS = {
    "move": ("приказ на перемещение", "move order"),
    "support": ("приказ на поддержку", "support order"),
    "disband": ("приказ на роспуск", "disband order"),
    "raise": ("приказ на сбор пешек", "raise order"),
    "raise_refund": ("возврат за несобранных пешек", "refund for pawns not raised"),
    "upgrade": ("улучшение пешек", "pawn upgrade"),
    "transfer": ("перевод", "transfer"),
    "fee": ("комиссия за перевод", "transfer fee"),
    "refund": ("возврат за распущенные отряды", "refund for disbanded units"),
    "bid": ("ставка за кондотьеров", "bid for condottieri"),
    "bid_refund": ("возврат ставки", "bid returned"),
    "incoming": ("поступление", "received"),
    "income": ("доход с владений", "income from holdings"),
    "tax": ("налог (удержан)", "tax (withheld)"),
    "upkeep": ("содержание отрядов", "upkeep of units"),
}

class Words:
    """The words of this report in one language: coins, units, players."""

    def __init__(self, rules: Rules, lang: str, names: Names, viewer: str, options: Options | None = None) -> None:
        self.rules = rules
        self.options = options or Options()
        self.lang = lang
        self.ru = lang == "ru"
        self.names = names
        self.viewer = viewer

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def coins(self, n: float, case: str = "nomn") -> str:
        return counted(n, "монета", case=case) if self.ru else counted(n, "coin", "en")

    def unit_name(self, kind: str) -> str:
        name = self.rules.units[kind].name(self.lang)
        return name[:1].lower() + name[1:]

    def units(self, counts: Mapping[str, int], case: str = "nomn") -> str:
        """«ферзь, офицер и 2 пешки»: strongest first, one without its number."""
        ordered = sorted(counts.items(), key=lambda kv: (-self.rules.units[kv[0]].strength, kv[0]))
        parts = []
        for kind, n in ordered:
            if not n:
                continue
            name = self.unit_name(kind)
            if n == 1 and self.ru:
                parts.append(counted(1, name, self.lang, case=case).split(" ", 1)[1])
            else:
                parts.append(counted(n, name, self.lang, case=case))
        return join_and(parts, self.lang) or self.t("никого", "nobody")

    def who(self, player: str | None, case: str = "nomn") -> str:
        """A player's name in ``case``; the Treasury; «вы» for the viewer himself."""
        if player is None:
            return self.t("никто", "nobody")
        if player == TREASURY:
            return self.t({"nomn": "казна", "gent": "казны", "datv": "казне", "accs": "казну"}.get(case, "казна"),
                          "the Treasury")
        if player == self.viewer:
            return self.t({"nomn": "вы", "gent": "вас", "datv": "вам", "accs": "вас", "ablt": "вами",
                           "loct": "вас"}[case], {"gent": "your"}.get(case, "you"))
        return self.names.case(player, case)

    def act(self, player: str, verb_ru: str, verb_en: str, you_ru: str | None = None) -> str:
        """«Анна захватила», «Вы захватили» (``you_ru``), "Anna captured"."""
        if player == self.viewer:
            return ("Вы " + (you_ru or verb_ru)) if self.ru else f"You {verb_en}"
        if not self.ru:
            return f"{player} {verb_en}"
        return self.names.act(player, verb_ru)


# -- the report ----------------------------------------------------------------------------------

def render(view: Mapping[str, Any], events: Sequence[Event], viewer: str, rules: Rules,
           lang: str = "ru", turn: int | None = None, names: Names | None = None,
           options: Options | None = None) -> Document:
    names = names or Names(lang=lang)
    w = Words(rules, lang, names, viewer, options)
    shown = [e for e in events if e.visible_to(viewer)]
    turn = turn if turn is not None else max((int(e.data.get("turn", 0)) for e in shown),
                                             default=int(view.get("turn", 1)) - 1)
    game = w.t("Кольцо Власти", "Ring of Power")
    if viewer == "public":
        title = w.t(f"{game}, ход {turn}: летопись", f"{game}, turn {turn}: the chronicle")
    elif viewer == "gm":
        title = w.t(f"{game}, ход {turn}: отчёт ведущему", f"{game}, turn {turn}: the game master's report")
    else:
        title = w.t(f"{game}, ход {turn}: отчёт для {names.case(viewer, 'gent')}",
                    f"{game}, turn {turn}: report for {viewer}")
    doc = Document(title)
    by_kind: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for e in shown:
        by_kind[e.kind].append(e.data)
    me = view.get("me")
    if me is not None:
        _treasury(doc, w, me, by_kind, viewer)
        _income(doc, w, by_kind, viewer)
    _battles(doc, w, by_kind, viewer)
    _land(doc, w, by_kind, view, viewer)
    if me is not None:
        _intruders(doc, w, view, by_kind, viewer)
        _own_units(doc, w, view, by_kind, viewer)
        _orders(doc, w, by_kind, viewer)
    _condottieri(doc, w, by_kind, viewer)
    _chupacabra(doc, w, by_kind, viewer)
    _relations(doc, w, by_kind)
    _end(doc, w, by_kind)
    if not doc.blocks:
        doc.paragraph(w.t("За этот ход не случилось ничего, о чём знают все.",
                          "Nothing happened this turn that everyone knows of."))
    return doc


def _treasury(doc: Document, w: Words, me: Mapping[str, Any], by_kind: Mapping[str, list[Mapping[str, Any]]],
              viewer: str) -> None:
    statements = [d for d in by_kind.get("statement", []) if d.get("player") == viewer]
    entries = list(statements[-1]["entries"]) if statements else list(me.get("statement", []))
    closing = int(statements[-1]["money"]) if statements else int(me["money"])
    opening = closing - sum(int(e["amount"]) for e in entries)
    doc.heading(w.t("Казна", "Treasury"))
    doc.paragraph(w.t("На начало хода: ", "At the start of the turn: "), bold(w.coins(opening)), ".")
    if entries:
        rows = [[number(int(e["amount"]), w.lang, signed=True), _entry_text(w, e)] for e in entries]
        doc.table([w.t("Сумма", "Amount"), w.t("Статья", "Item")], rows, align="rl")
    else:
        doc.paragraph(w.t("Денежных операций не было.", "No money came in or went out."))
    doc.paragraph(w.t("На конец хода: ", "At the end of the turn: "), bold(w.coins(closing)), ".")
    due = int(me.get("tax_due", 0))
    if due:
        # «10 % от суммы перевода», to the nearest coin (ruling 10): a tax of 1–4 pays no fee
        fee = transfer_fee(0, due, w.rules.prices.transfer_fee_percent, w.options.rounding)
        if fee:
            how_ru = f"с комиссией за перевод ({w.coins(fee)}) — всего {w.coins(due + fee)}"
            how_en = f"with the transfer fee ({w.coins(fee)}), {w.coins(due + fee)} in all"
        else:
            how_ru, how_en = "комиссии с такой суммы нет", "no fee on such a sum"
        doc.paragraph(w.t(f"Налог к уплате в следующий ход: {w.coins(due)} — переводом в казну («налог {due}»), "
                          f"{how_ru}. Неуплата карается отъёмом владения.",
                          f"Tax due next turn: {w.coins(due)}, as a transfer to the Treasury ('tax {due}'), "
                          f"{how_en}. Unpaid tax costs a holding."))


def _quoted(w: Words, text: str) -> str:
    return f"«{text}»" if w.ru else f"“{text}”"


def _entry_text(w: Words, e: Mapping[str, Any]) -> str:
    item = str(e["item"])
    name = ITEMS.get(item, (item, item))[0 if w.ru else 1]
    hex_ = str(e.get("hex") or "")
    reason = " " + _quoted(w, str(e["reason"])) if e.get("reason") else ""
    if item == "transfer" and e["to"] == TREASURY and str(e.get("reason", "")).casefold() in ("налоги", "taxes"):
        return w.t("налог в казну", "tax to the Treasury")
    if item == "transfer":
        return w.t(f"перевод {w.who(str(e['to']), 'datv')}{reason}", f"transfer to {w.who(str(e['to']))}{reason}")
    if item == "fee" and e.get("to") == TREASURY:
        share = percent(w.rules.prices.transfer_fee_percent, w.lang)
        return w.t(f"комиссия {share} за перевод в казну", f"{share} fee on the transfer to the Treasury")
    if item == "fee":
        share = percent(w.rules.prices.transfer_fee_percent, w.lang)
        return w.t(f"комиссия {share} за перевод {w.who(str(e['to']), 'datv')}",
                   f"{share} fee on the transfer to {w.who(str(e['to']))}")
    if item == "incoming":
        return w.t(f"поступление от {w.who(str(e['from']), 'gent')}{reason}", f"received from {e['from']}{reason}")
    if item == "upgrade" and e.get("count"):
        pawns = counted(int(e["count"]), "пешка", w.lang) if w.ru else counted(int(e["count"]), "pawn", "en")
        return w.t(f"улучшение {counted(int(e['count']), 'пешка', case='gent')} в {hex_}",
                   f"upgrading {pawns} in {hex_}")
    if hex_:
        where = (w.t("из ", "from ") if item in ("move", "support") else w.t("в ", "in ")) + hex_
        return f"{name} {where}"
    return name


def _income(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], viewer: str) -> None:
    incomes = [d for d in by_kind.get("income", []) if d.get("player") == viewer]
    if not incomes:
        return
    d = incomes[-1]
    detail: Mapping[str, Mapping[str, Any]] = d.get("detail") or {}
    items: list[Inline | Item] = []
    for hex_, amount in sorted(d["holdings"].items()):
        info = detail.get(hex_)
        items.append(_holding_line(w, hex_, int(amount), info))
    doc.heading(w.t("Доход с владений", "Income from holdings"))
    doc.bullets(items)
    doc.paragraph(w.t("Итого: ", "In all: "), bold(w.coins(int(d["total"]))), ".")


def _holding_line(w: Words, hex_: str, amount: int, info: Mapping[str, Any] | None) -> str:
    head = f"{hex_}: {w.coins(amount)}"
    if info is None:
        return head
    if info.get("blocked") == "enemy":
        return head + w.t(" — в гексе чужой отряд: пока его не прогонят, дохода нет",
                          " — another player's unit stands there: no income until it is driven out")
    if info.get("blocked") == "chupacabra":
        return head + w.t(" — в гексе Чупакабра: дохода нет", " — the Chupacabra is there: no income")
    reasons = [_reason(w, r) for r in info.get("reasons", [])]
    if not reasons:
        return head + w.t(" (полный доход)", " (the full income)")
    return head + w.t(f" из {info['base']} — ", f" of {info['base']} — ") + "; ".join(reasons)


def _reason(w: Words, r: Mapping[str, Any]) -> str:
    pct = percent(int(r["percent"]), w.lang, signed=True)
    why = r["why"]
    if why in ("hostile", "victim", "mutual"):
        other = str(r["player"])
        near = (counted(int(r["holdings"]), "соседнее владение") if w.ru
                else counted(int(r["holdings"]), "neighbouring holding", "en"))
        if why == "hostile":
            return w.t(f"ваша вражда к {w.who(other, 'datv')}, {near} ({pct})",
                       f"your hostility to {other}, {near} ({pct})")
        if why == "victim":
            return w.t(f"вражда {w.who(other, 'gent')} к вам, {near} ({pct})",
                       f"{other}'s hostility to you, {near} ({pct})")
        return w.t(f"взаимная вражда с {w.who(other, 'ablt')}, {near} ({pct})",
                   f"mutual hostility with {other}, {near} ({pct})")
    if why == "unit":
        return w.t(f"в гексе {w.units({str(r['type']): int(r['count'])})} ({pct})",
                   f"{w.units({str(r['type']): int(r['count'])})} in the hex ({pct})")
    return w.t(f"пешек, собранных здесь: {int(r['pawns'])} ({pct} навсегда)",
               f"{counted(int(r['pawns']), 'pawn', 'en')} raised here ({pct} for good)")


def _battles(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], viewer: str) -> None:
    items: list[Inline | Item] = []
    known: set[tuple[int, tuple[str, ...]]] = set()
    for d in by_kind.get("battle", []):
        known.add((int(d["tick"]), tuple(sorted(s["player"] for s in d["sides"]))))
        items.append(_battle_item(w, d))
    news = [d for d in by_kind.get("battle_news", [])
            if (int(d["tick"]), tuple(sorted(d["sides"]))) not in known]
    for d in news:
        items.append(_battle_news(w, d))
    if items:
        doc.heading(w.t("Бои", "Battles"))
        doc.bullets(items)


def _side_text(w: Words, s: Mapping[str, Any], case: str) -> str:
    text = f"{w.who(s['player'], case)} ({w.units(s['units'])}"
    for h in s.get("supporters", []):
        whose = w.t("ваша поддержка", "your support") if h["player"] == w.viewer else w.t(
            f"поддержка {w.who(h['player'], 'gent')}", f"support from {h['player']}")
        text += w.t(f"; {whose} из {h['hex']}: {w.units(h['units'])}",
                    f"; {whose} in {h['hex']}: {w.units(h['units'])}")
    if s.get("unseen_support"):
        # a supporter the reader did not watch is only strength to him (ruling 34)
        text += w.t(f"; поддержка невидимых отрядов: сила {s['unseen_support']}",
                    f"; support from units out of sight: strength {s['unseen_support']}")
    return text + w.t(f"; сила {s['strength']})", f"; strength {s['strength']})")


def _battle_item(w: Words, d: Mapping[str, Any]) -> Item:
    where = str(d["where"])
    place = (w.t(f"на границе {where.replace('|', ' и ')}", f"on the edge between {where.replace('|', ' and ')}")
             if "|" in where else w.t(f"в {where}", f"at {where}"))
    sides = list(d["sides"])
    first = _side_text(w, sides[0], "nomn")
    rest = [_side_text(w, s, "gent" if w.ru else "nomn") for s in sides[1:]]
    head = w.t(f"Бой {place} (шаг {d['tick']} движения): ", f"Battle {place} (step {d['tick']} of movement): ")
    head += first + w.t(" против ", " against ") + w.t(" и ", " and ").join(rest) + "."
    winner = d.get("winner")
    children: list[Inline | Item] = []
    if winner is None:
        children.append(w.t("Не выжил никто.", "Nobody survived."))
    else:
        children.append(w.act(str(winner), "победил", "won", "победили") + ".")
    losses = d.get("losses", {})
    involved = [s["player"] for s in sides]
    involved += sorted({h["player"] for s in sides for h in s.get("supporters", [])} - set(involved))
    for p in involved:
        lost = losses.get(p)
        if p == w.viewer:
            children.append(w.t(f"Ваши потери: {w.units(lost)}.", f"You lost {w.units(lost)}.") if lost
                            else w.t("Вы обошлись без потерь.", "You lost nothing."))
        elif lost:
            children.append(w.t(f"Потери {w.who(p, 'gent')}: {w.units(lost)}.", f"{p} lost {w.units(lost)}."))
        else:
            children.append(w.t(f"{w.names.act(p, 'обошёлся')} без потерь.", f"{p} lost nothing."))
    return Item(head, children)


def _battle_news(w: Words, d: Mapping[str, Any]) -> str:
    sides = list(d["sides"])
    place = w.t(f" в {d['where']}", f" at {d['where']}") if d.get("where") else ""
    head = w.t(f"{w.who(sides[0]).capitalize()} и {' и '.join(w.who(s) for s in sides[1:])} сошлись в бою{place}",
               f"{' and '.join(sides)} fought{place}")
    winner = d.get("winner")
    result = (w.t("не выжил никто", "nobody survived") if winner is None else
              w.t(f"{'победили вы' if winner == w.viewer else 'победа за ' + w.who(str(winner), 'ablt')}",
                  f"{winner} won"))
    lost = [w.t(f"{w.who(p) if p != w.viewer else 'ваши'} — {counted(int(k), 'отряд')}",
                f"{p} {counted(int(k), 'unit', 'en')}")
            for p, k in d.get("lost", {}).items() if k]
    tail = w.t(f"; потери: {', '.join(lost)}", f"; lost: {', '.join(lost)}") if lost else ""
    return f"{head}: {result}{tail}."


def _land(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], view: Mapping[str, Any],
          viewer: str) -> None:
    items: list[Inline | Item] = []
    known: set[tuple[str, str | None]] = set()
    for d in by_kind.get("captured", []):
        p, before = str(d["player"]), d.get("from")
        known.add((p, before))
        if p == viewer:
            items.append(w.t(f"Вы захватили {d['hex']}" + (f" у {w.who(before, 'gent')}" if before else "") + ".",
                             f"You captured {d['hex']}" + (f" from {before}" if before else "") + "."))
        elif before == viewer:
            items.append(w.t(f"{w.names.act(p, 'захватил')} ваше владение {d['hex']}.",
                             f"{p} captured your holding {d['hex']}."))
        else:
            items.append(w.t(f"{w.names.act(p, 'захватил')} {d['hex']}" + (f" у {w.who(before, 'gent')}" if before
                                                                            else "") + ".",
                             f"{p} captured {d['hex']}" + (f" from {before}" if before else "") + "."))
    news: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    for d in by_kind.get("capture_news", []):
        p, before = str(d["player"]), d.get("from")
        if (p, before) not in known:
            news[(p, before)].append(str(d.get("where") or ""))
    for (p, before), places in news.items():
        whom = w.t(f" у {w.who(before, 'gent')}", f" from {before}") if before else ""
        where = [x for x in places if x]
        what = (w.t("владение", "a holding") if len(places) == 1 else
                counted(len(places), "владение") if w.ru else counted(len(places), "holding", "en"))
        at = f" ({', '.join(where)})" if where else ""
        items.append(w.t(f"{w.act(p, 'захватил', 'captured', 'захватили')} {what}{whom}{at}.",
                         f"{p} captured {what}{whom}{at}."))
    for d in by_kind.get("tax_unpaid", []):
        if d.get("player") != viewer and viewer != "gm":
            continue
        who = "" if d.get("player") == viewer else f"{d['player']}: "
        seized = d.get("seized")
        items.append(who + w.t(f"Налог не уплачен ({d['paid']} из {d['due']})"
                               + (f": корона отняла владение {seized}." if seized else "."),
                               f"Tax unpaid ({d['paid']} of {d['due']})"
                               + (f": the crown seized {seized}." if seized else ".")))
    for d in by_kind.get("eliminated", []):
        items.append(w.act(str(d["player"]), "выбыл из игры", "is out of the game", "выбыли из игры") + ".")
    if items:
        doc.heading(w.t("Земли", "Land"))
        doc.bullets(items)
    if view.get("me") is not None:
        mine = sorted(h for h, v in view.get("holdings", {}).items() if v["owner"] == viewer)
        if mine:
            doc.paragraph(w.t("Ваши владения", "Your holdings") + f" ({len(mine)}): " + ", ".join(mine) + ".")
        else:
            doc.paragraph(w.t("Владений у вас не осталось.", "You hold no land."))


def _intruders(doc: Document, w: Words, view: Mapping[str, Any], by_kind: Mapping[str, list[Mapping[str, Any]]],
               viewer: str) -> None:
    """«Вражеский отряд ... пришедший во владение ... не позволяет ни одному игроку получать
    доход с этого владения» and «Захват происходит в два хода»: who came in, who stands."""
    mine = {h for h, v in view.get("holdings", {}).items() if v["owner"] == viewer}
    items: list[Inline | Item] = []
    for d in by_kind.get("marched", []):
        if d["player"] != viewer and d["to"] in mine:
            items.append(w.t(f"В ваше владение {d['to']} из {d['from']} вошли отряды {w.who(d['player'], 'gent')}: "
                             f"{w.units(d['units'])} (шаг {d['tick']} движения).",
                             f"{d['player']}'s units came into your holding {d['to']} from {d['from']}: "
                             f"{w.units(d['units'])} (step {d['tick']} of movement)."))
    standing: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for u in view.get("units", []):
        if u["owner"] != viewer and u["hex"] in mine:
            standing[(u["hex"], u["owner"])][u["type"]] += 1
    for (hex_, p), kinds in sorted(standing.items()):
        items.append(w.t(f"В вашем владении {hex_} стоят отряды {w.who(p, 'gent')}: {w.units(kinds)}. Дохода с него "
                         f"нет; если их не уничтожить, владение перейдёт к {w.who(p, 'datv')}.",
                         f"{p}'s units stand in your holding {hex_}: {w.units(kinds)}. It yields nothing; unless "
                         f"they are destroyed, the holding will pass to {p}."))
    if items:
        doc.heading(w.t("Чужие отряды в ваших владениях", "Other players' units in your holdings"))
        doc.bullets(items)


def _own_units(doc: Document, w: Words, view: Mapping[str, Any], by_kind: Mapping[str, list[Mapping[str, Any]]],
               viewer: str) -> None:
    items: list[Inline | Item] = []
    for d in by_kind.get("moved", []):
        if d["player"] == viewer:
            items.append(w.t(f"Отряды из {d['from']} дошли до {d['to']}: {w.units(d['units'])}.",
                             f"The units from {d['from']} reached {d['to']}: {w.units(d['units'])}."))
    for d in by_kind.get("blocked", []):
        if d["player"] == viewer:
            items.append(w.t(f"Отряды в {d['at']} не смогли присоединить ваши отряды в {d['next']} "
                             "(не хватает командования) и остановились.",
                             f"The units at {d['at']} could not take along your units in {d['next']} "
                             "(not enough command) and stopped."))
    for d in by_kind.get("joined", []):
        if d["player"] == viewer:
            items.append(w.t(f"В {d['hex']} отряды объединились и пошли дальше вместе.",
                             f"In {d['hex']} the units joined and went on together."))
    for d in by_kind.get("disbanded", []):
        if d["player"] == viewer:
            items.append(w.t(f"В {d['hex']} распущены {w.units(d['units'])}; возвращено {w.coins(int(d['refund']))}.",
                             f"Disbanded in {d['hex']}: {w.units(d['units'])}; {w.coins(int(d['refund']))} returned."))
    for d in by_kind.get("raised", []):
        if d["player"] == viewer:
            items.append(w.t(f"В {d['hex']} собрано: {w.units({'pawn': int(d['count'])})}.",
                             f"Raised in {d['hex']}: {w.units({'pawn': int(d['count'])})}."))
    why = {"enemy": ("в гекс вошёл чужой отряд", "another player's unit entered the hex"),
           "not_yours": ("гекс больше не ваш", "the hex is no longer yours"),
           "command": ("стоящие там отряды не смогли бы ими командовать", "the units there could not command them")}
    for d in by_kind.get("raise_failed", []):
        if d["player"] == viewer:
            reason = why.get(str(d["reason"]), (str(d["reason"]), str(d["reason"])))
            items.append(w.t(f"Сбор пешек в {d['hex']} не состоялся: {reason[0]}; цена пешек возвращена.",
                             f"No pawns raised in {d['hex']}: {reason[1]}; their price was returned."))
    for d in by_kind.get("upgrade_started", []):
        if d["player"] == viewer:
            one = int(d["count"]) == 1  # «Пешка в 0503 станет офицером», «2 пешки … станут офицерами»
            items.append(w.t(f"{w.units({'pawn': int(d['count'])}).capitalize()} в {d['hex']} "
                             f"{'станет офицером' if one else 'станут офицерами'} к ходу {d['ready']}.",
                             f"{w.units({'pawn': int(d['count'])}).capitalize()} in {d['hex']} will be officers "
                             f"by turn {d['ready']}."))
    promoted: dict[str, int] = defaultdict(int)
    for d in by_kind.get("promoted", []):
        if d["player"] == viewer:
            promoted[str(d["hex"])] += 1
    for hex_, k in sorted(promoted.items()):
        items.append(w.t(f"В {hex_} стали офицерами: {w.units({'pawn': k})}.",
                         f"In {hex_} {w.units({'pawn': k})} became officers."))
    for d in by_kind.get("deserted", []):
        if d["player"] == viewer:
            items.append(w.t(f"Денег на содержание не хватило, ушли: {w.units(d['units'])}.",
                             f"Upkeep could not be paid; gone: {w.units(d['units'])}."))
    for d in by_kind.get("condottieri_arrived", []):
        if d["player"] == viewer:
            items.append(w.t(f"Кондотьеры пришли в {d['hex']}: {w.units({'condottiere': int(d['size'])})}.",
                             f"The condottieri arrived in {d['hex']}: {w.units({'condottiere': int(d['size'])})}."))
    own = [u for u in view.get("units", []) if u.get("owner") == viewer]
    by_hex: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for u in own:
        by_hex[u["hex"]][u["type"]] += 1
    if items or by_hex:
        doc.heading(w.t("Ваши отряды", "Your units"))
        doc.bullets(items)
        doc.paragraph(w.t("Где стоят: ", "Where they stand: ")
                      + ("; ".join(f"{h} — {w.units(c)}" for h, c in sorted(by_hex.items())) or w.t("нигде", "nowhere"))
                      + ".")


def _orders(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], viewer: str) -> None:
    items: list[Inline | Item] = []
    for d in by_kind.get("unpaid", []):
        if d["player"] != viewer:
            continue
        o = d["order"]
        items.append(w.t(f"Приказ «{o['text'] or o['kind']}» не выполнен: его цена — {w.coins(int(d['cost']))}, "
                         f"а в казне к тому времени — только {number(int(d['money']))} "
                         "(приказы оплачиваются по порядку).",
                         f"The order '{o['text'] or o['kind']}' was not carried out: it costs "
                         f"{w.coins(int(d['cost']))}, the treasury had {w.coins(int(d['money']))} "
                         "(orders are paid in the order written)."))
    for d in by_kind.get("order_rejected", []):
        if d["player"] != viewer:
            continue
        o = d["order"]
        items.append(w.t(f"Приказ «{o['text'] or o['kind']}» отклонён: на момент расчёта он нарушал правила.",
                         f"The order '{o['text'] or o['kind']}' was rejected: it broke the rules when the turn "
                         "was resolved."))
    for d in by_kind.get("transfer", []):
        reason = f" ({_quoted(w, str(d['reason']))})" if d.get("reason") else ""
        if d["from"] == viewer:
            items.append(w.t(f"Вы перевели {w.who(d['to'], 'datv')} {w.coins(int(d['amount']))}{reason}.",
                             f"You sent {d['to']} {w.coins(int(d['amount']))}{reason}."))
        elif d["to"] == viewer:
            items.append(w.t(f"{w.names.act(d['from'], 'перевёл')} вам {w.coins(int(d['amount']))}{reason}.",
                             f"{d['from']} sent you {w.coins(int(d['amount']))}{reason}."))
        else:
            items.append(w.t(f"Перевод {w.coins(int(d['amount']), 'gent')} от {w.who(d['from'], 'gent')} "
                             f"{w.who(d['to'], 'datv')}{reason}.",
                             f"{d['from']} sent {d['to']} {w.coins(int(d['amount']))}{reason}."))
    if items:
        doc.heading(w.t("Приказы и переводы", "Orders and transfers"))
        doc.bullets(items)


def _condottieri(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], viewer: str) -> None:
    items: list[Inline | Item] = []
    hired = by_kind.get("condottieri_hired", [])
    for d in hired:
        band = (counted(int(d["size"]), "кондотьер", case="accs") if w.ru
                else counted(int(d["size"]), "condottiere", "en"))
        items.append(w.t(f"{w.act(str(d['player']), 'нанял', 'hired', 'наняли')} {band} "
                         f"за {w.coins(int(d['amount']), 'accs')}; содержание — "
                         f"{w.coins(int(d['upkeep']))} за каждого в ход.",
                         f"{w.act(str(d['player']), 'нанял', 'hired')} {band} for {w.coins(int(d['amount']))}; "
                         f"upkeep {w.coins(int(d['upkeep']))} each a turn."))
    winner = hired[-1] if hired else None
    for d in by_kind.get("bid_lost", []):
        if d["player"] != viewer:
            continue
        amount = w.coins(int(d["amount"]))
        reason = str(d.get("reason"))
        if reason == "draw" and winner is not None:
            text = w.t(f"Ваша ставка {amount} равна ставке {w.who(str(winner['player']), 'gent')}; жребий "
                       f"(на скрытых костях) выпал {w.who(str(winner['player']), 'datv')}.",
                       f"Your bid of {amount} equalled {winner['player']}'s; the draw (on the sealed dice) went "
                       f"to {winner['player']}.")
        elif reason == "outbid" and winner is not None:
            text = w.t(f"Ваша ставка {amount} проиграла: {w.names.act(str(winner['player']), 'предложил')} "
                       f"больше — {w.coins(int(winner['amount']), 'accs')}.",
                       f"Your bid of {amount} lost: {winner['player']} offered more, {w.coins(int(winner['amount']))}.")
        elif reason == "hex":
            text = w.t(f"Ваша ставка {amount} не прошла: в названный гекс кондотьеры встать не могут (он не ваш, "
                       "в нём чужие отряды или ваши отряды там не уживутся с кондотьерами).",
                       f"Your bid of {amount} failed: the condottieri cannot stand in the hex it named (not yours, "
                       "other players' units there, or your units there cannot share it with them).")
        else:
            text = w.t(f"Ваша ставка {amount} не выиграла.", f"Your bid of {amount} did not win.")
        items.append(text + w.t(" Деньги возвращены.", " The money was returned."))
    for _ in by_kind.get("condottieri_left", []):
        items.append(w.t("Кондотьеры ушли: подходящих ставок не было.", "The condottieri left: no bid they could take."))
    for d in by_kind.get("condottieri_offered", []):
        band = counted(int(d["size"]), "кондотьер") if w.ru else counted(int(d["size"]), "condottiere", "en")
        items.append(w.t(f"В ход {d['bids_turn']} ждёт ставок отряд: {band}, содержание — {w.coins(int(d['upkeep']))} "
                         "за каждого в ход. Ставка: «ставка СУММА ГЕКС».",
                         f"In turn {d['bids_turn']} a band takes bids: {band}, upkeep {w.coins(int(d['upkeep']))} each "
                         "a turn. Bid with 'bid AMOUNT HEX'."))
    if items:
        doc.heading(w.t("Кондотьеры", "Condottieri"))
        doc.bullets(items)


def _chupacabra(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]], viewer: str) -> None:
    items: list[Inline | Item] = []
    for d in by_kind.get("chupacabra", []):
        p, hex_ = str(d["player"]), d["hex"]
        whose = w.t("ваши отряды", "your units") if p == viewer else w.t(f"отряды {w.who(p, 'gent')}",
                                                                          f"{p}'s units")
        if d["outcome"] == "ate":
            items.append(w.t(f"Чупакабра сожрала {whose} в {hex_}: {w.units(d.get('units', {}))}.",
                             f"The Chupacabra ate {whose} in {hex_}: {w.units(d.get('units', {}))}."))
        elif d["outcome"] == "killed":
            items.append(w.t(f"{whose.capitalize()} загнали и убили Чупакабру в {hex_}! Она возродится в другом тумане.",
                             f"{whose.capitalize()} hunted down the Chupacabra in {hex_}! She will return in another fog."))
        else:
            items.append(w.t(f"{whose.capitalize()} наткнулись на Чупакабру в {hex_}, но она их не тронула.",
                             f"{whose.capitalize()} ran into the Chupacabra in {hex_}, and she left them be."))
    for d in by_kind.get("chupacabra_multiplied", []):
        items.append(w.t(f"Чупакабр стало больше: теперь их {d['count']}.",
                         f"The Chupacabras multiply: there are {d['count']} now."))
    if viewer == "gm":
        for d in by_kind.get("chupacabra_moved", []):
            items.append(w.t(f"[ГМ] Чупакабра №{d['id']}: {d['from']} → {d['to']}.",
                             f"[GM] Chupacabra #{d['id']}: {d['from']} → {d['to']}."))
        for d in by_kind.get("chupacabra_reborn", []):
            items.append(w.t(f"[ГМ] Чупакабра №{d['id']} возродилась в {d['hex']}.",
                             f"[GM] Chupacabra #{d['id']} is reborn in {d['hex']}."))
        for d in by_kind.get("chupacabra_born", []):
            items.append(w.t(f"[ГМ] Родилась Чупакабра №{d['id']} в {d['hex']}.",
                             f"[GM] Chupacabra #{d['id']} is born in {d['hex']}."))
    if items:
        doc.heading(w.t("Чупакабра", "The Chupacabra"))
        doc.bullets(items)


def _relations(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]]) -> None:
    items: list[Inline | Item] = []
    for d in by_kind.get("hostility", []):
        p = str(d["player"])
        declared = list(d.get("declared", []))
        lifted = list(d.get("lifted", []))
        parts = []
        if declared:
            whom = join_and([w.who(x, 'datv') for x in declared])
            # «объявила вам вражду»: a pronoun alone goes before its noun
            told = f"{whom} вражду" if declared == [w.viewer] else f"вражду {whom}"
            parts.append(w.t(f"{w.act(p, 'объявил', 'declared', 'объявили')} {told}",
                             f"{w.act(p, 'объявил', 'declared')} hostility to {join_and(declared, 'en')}"))
        if lifted:
            verb = w.t("отказался", "gave up") if p != w.viewer else w.t("отказались", "gave up")
            text = w.t(f"от вражды к {join_and([w.who(x, 'datv') for x in lifted])}",
                       f"hostility to {join_and(lifted, 'en')}")
            if parts:
                parts.append(w.t(f"{w.names.verb(p, verb) if p != w.viewer else verb} {text}", f"{verb} {text}"))
            else:
                parts.append(w.t(f"{w.act(p, 'отказался', 'gave up', 'отказались')} {text}",
                                 f"{w.act(p, 'gave up', 'gave up')} {text}"))
        if parts:
            items.append(w.t(" и ", " and ").join(parts) + ".")
    if items:
        doc.heading(w.t("Отношения", "Relations"))
        doc.bullets(items)


def _end(doc: Document, w: Words, by_kind: Mapping[str, list[Mapping[str, Any]]]) -> None:
    for d in by_kind.get("game_over", []):
        winners = list(d.get("winners", []))
        names = join_and([w.names.case(p) for p in winners], w.lang) or w.t("никто", "nobody")
        if d.get("reason") == "ring":
            text = w.t(f"Кольцо Власти собрано! Победа: {names}.", f"The Ring of Power is assembled! Winner: {names}.")
        elif d.get("reason") == "last":
            text = w.t(f"Остался последний игрок. Победа: {names}.", f"One player is left. Winner: {names}.")
        else:
            text = w.t(f"Игра окончена: больше всех владений. Победа: {names}.",
                       f"The game is over: the most holdings. Winner: {names}.")
        doc.heading(w.t("Конец игры", "The end"))
        doc.paragraph(bold(text))


__all__ = ["ITEMS", "Words", "render"]
