"""A player's turn report: money statement, battles, captures and the rest, in Russian or
English, as plain text, BBCode (forums) or Markdown. Built from a view and the events
that viewer may see, nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.markup import Document
from voevoda.core.ruleset import Event
from voevoda.rulesets.ring_of_power.orders import TREASURY
from voevoda.rulesets.ring_of_power.rules import Rules

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


def units_text(units: Mapping[str, int], rules: Rules, lang: str) -> str:
    if not units:
        return "—"
    parts = []
    for kind, n in sorted(units.items(), key=lambda kv: -rules.units[kv[0]].strength):
        name = rules.units[kind].name(lang).lower()
        parts.append(f"{name} ×{n}" if n > 1 else name)
    return ", ".join(parts)


def _who(name: str | None, lang: str) -> str:
    if name is None:
        return "никто" if lang == "ru" else "nobody"
    if name == TREASURY and lang != "ru":
        return "the Treasury"
    return name


def event_line(e: Event, rules: Rules, lang: str, viewer: str) -> str | None:
    d = dict(e.data)
    ru = lang == "ru"
    k = e.kind
    if k == "battle":
        sides = []
        for s in d["sides"]:
            helpers = ""
            if s["supporters"]:
                names = "; ".join(f"{h['player']} из {h['hex']}: {units_text(h['units'], rules, lang)}" if ru
                                  else f"{h['player']} from {h['hex']}: {units_text(h['units'], rules, lang)}"
                                  for h in s["supporters"])
                helpers = f" + поддержка ({names})" if ru else f" + support ({names})"
            sides.append(f"{s['player']} [{s['strength']}]: {units_text(s['units'], rules, lang)}{helpers}")
        where = d["where"].replace("|", "–")
        losses = "; ".join(f"{p}: {units_text(v, rules, lang)}" for p, v in sorted(d["losses"].items()))
        winner = _who(d["winner"], lang)
        if ru:
            return (f"Бой в {where} (шаг {d['tick']}): " + " против ".join(sides)
                    + f". Выжил: {winner}. Потери: {losses or 'нет'}.")
        return (f"Battle at {where} (step {d['tick']}): " + " against ".join(sides)
                + f". Survivor: {winner}. Losses: {losses or 'none'}.")
    if k == "captured":
        before = d.get("from")
        if ru:
            return f"{d['player']} захватил {d['hex']}" + (f" у {before}." if before else ".")
        return f"{d['player']} captured {d['hex']}" + (f" from {before}." if before else ".")
    if k == "moved":
        return (f"{d['player']}: отряды прошли {d['from']} → {d['to']}: {units_text(d['units'], rules, lang)}." if ru
                else f"{d['player']}'s units went {d['from']} → {d['to']}: {units_text(d['units'], rules, lang)}.")
    if k == "blocked":
        return (f"Отряды из {d['at']} не смогли присоединить своих в {d['next']} и остановились." if ru
                else f"The units at {d['at']} could not take along their own in {d['next']} and stopped.")
    if k == "joined":
        return (f"В {d['hex']} отряды объединились и двинулись дальше вместе." if ru
                else f"In {d['hex']} the units joined and went on together.")
    if k == "unpaid":
        o = d["order"]
        return (f"Не хватило денег на приказ «{o['text'] or o['kind']}»: нужно {d['cost']}, в казне {d['money']}." if ru
                else f"Not enough money for '{o['text'] or o['kind']}': it costs {d['cost']}, the treasury has {d['money']}.")
    if k == "order_rejected":
        o = d["order"]
        return (f"Приказ «{o['text'] or o['kind']}» отклонён как недопустимый." if ru
                else f"The order '{o['text'] or o['kind']}' was rejected as illegal.")
    if k == "disbanded":
        return (f"В {d['hex']} распущены: {units_text(d['units'], rules, lang)}; возврат {d['refund']}." if ru
                else f"Disbanded in {d['hex']}: {units_text(d['units'], rules, lang)}; refund {d['refund']}.")
    if k == "raised":
        return (f"В {d['hex']} собрано пешек: {d['count']}." if ru else f"{d['count']} pawn(s) raised in {d['hex']}.")
    if k == "raise_failed":
        why = {"enemy": ("в гекс вошёл чужой отряд", "another player's unit entered the hex"),
               "not_yours": ("гекс больше не ваш", "the hex is no longer yours"),
               "command": ("отряды в гексе не смогут ими командовать", "the units there could not command them")}
        reason = why[d["reason"]][0 if ru else 1]
        return (f"Сбор пешек в {d['hex']} не выполнен: {reason}; деньги за пешек возвращены." if ru
                else f"No pawns raised in {d['hex']}: {reason}; their price was returned.")
    if k == "upgrade_started":
        return (f"Пешки в {d['hex']} ({d['count']}) станут офицерами к ходу {d['ready']}." if ru
                else f"{d['count']} pawn(s) in {d['hex']} will be officers by turn {d['ready']}.")
    if k == "promoted":
        return f"Пешка в {d['hex']} стала офицером." if ru else f"A pawn in {d['hex']} became an officer."
    if k == "chupacabra":
        what = {"ate": ("Чупакабра сожрала отряды {p} в {h}: {u}.", "The Chupacabra ate {p}'s units in {h}: {u}."),
                "killed": ("Отряды {p} загнали и убили Чупакабру в {h}!", "{p}'s units hunted down the Chupacabra in {h}!"),
                "spared": ("Отряды {p} наткнулись на Чупакабру в {h}, но она их не тронула.",
                           "{p}'s units ran into the Chupacabra in {h}, and she left them be.")}[d["outcome"]]
        return what[0 if ru else 1].format(p=d["player"], h=d["hex"], u=units_text(d.get("units", {}), rules, lang))
    if k == "chupacabra_multiplied":
        return (f"Чупакабр стало больше: теперь их {d['count']}." if ru
                else f"The Chupacabras multiply: there are {d['count']} now.")
    if k in ("chupacabra_moved", "chupacabra_reborn", "chupacabra_born"):
        if viewer != "gm":
            return None
        if k == "chupacabra_moved":
            return (f"[ГМ] Чупакабра №{d['id']}: {d['from']} → {d['to']}." if ru
                    else f"[GM] Chupacabra #{d['id']}: {d['from']} → {d['to']}.")
        if k == "chupacabra_reborn":
            return (f"[ГМ] Чупакабра №{d['id']} возродилась в {d['hex']}." if ru
                    else f"[GM] Chupacabra #{d['id']} is reborn in {d['hex']}.")
        return (f"[ГМ] Родилась Чупакабра №{d['id']} в {d['hex']}." if ru
                else f"[GM] Chupacabra #{d['id']} is born in {d['hex']}.")
    if k == "condottieri_offered":
        return (f"Отряд кондотьеров ({d['size']}, содержание {d['upkeep']} за каждого) ждёт ставок в ход {d['bids_turn']}."
                if ru else
                f"A band of {d['size']} condottieri (upkeep {d['upkeep']} each) takes bids in turn {d['bids_turn']}.")
    if k == "condottieri_hired":
        return (f"Кондотьеры ({d['size']}) перешли на сторону {d['player']} за {d['amount']}." if ru
                else f"The condottieri ({d['size']}) sided with {d['player']} for {d['amount']}.")
    if k == "condottieri_arrived":
        return (f"Кондотьеры {d['player']} пришли в {d['hex']}." if ru
                else f"{d['player']}'s condottieri arrived in {d['hex']}.")
    if k == "condottieri_left":
        return "Кондотьеры ушли, никого не найдя." if ru else "The condottieri left with no master."
    if k == "bid_lost":
        return (f"Ставка {d['amount']} не выиграла; деньги возвращены." if ru
                else f"The bid of {d['amount']} did not win; the money was returned.")
    if k == "transfer":
        reason = f" ({d['reason']})" if d.get("reason") else ""
        return (f"Перевод {d['amount']} от {d['from']} к {d['to']}{reason}." if ru
                else f"Transfer of {d['amount']} from {d['from']} to {d['to']}{reason}.")
    if k == "tax_unpaid":
        seized = d.get("seized")
        if ru:
            return (f"Налог не уплачен ({d['paid']} из {d['due']})"
                    + (f": владение {seized} отнято в казну." if seized else "."))
        return f"Tax unpaid ({d['paid']} of {d['due']})" + (f": holding {seized} seized by the crown." if seized else ".")
    if k == "deserted":
        return (f"Не хватило денег на содержание, ушли: {units_text(d['units'], rules, lang)}." if ru
                else f"Upkeep could not be paid; gone: {units_text(d['units'], rules, lang)}.")
    if k == "hostility":
        if ru:
            return f"{d['player']}: вражда к {', '.join(d['hostile']) or 'никому'}."
        return f"{d['player']} is hostile to {', '.join(d['hostile']) or 'nobody'}."
    if k == "eliminated":
        return f"{d['player']} выбыл из игры." if ru else f"{d['player']} is out of the game."
    if k == "game_over":
        names = ", ".join(d["winners"]) or ("никто" if ru else "nobody")
        if d["reason"] == "ring":
            return f"Кольцо Власти собрано! Победа: {names}." if ru else f"The Ring of Power is assembled! Winner: {names}."
        return f"Игра окончена. Победа: {names}." if ru else f"The game is over. Winner: {names}."
    if k == "income":
        if viewer not in ("gm", d["player"]):
            return None
        parts = ", ".join(f"{h}: {v}" for h, v in sorted(d["holdings"].items()))
        return (f"Доход {d['player']}: {d['total']} ({parts})." if ru
                else f"{d['player']}'s income: {d['total']} ({parts}).")
    return None


def statement_lines(entries: Sequence[Mapping[str, Any]], lang: str) -> list[str]:
    out = []
    for e in entries:
        name = ITEMS.get(str(e["item"]), (str(e["item"]), str(e["item"])))[0 if lang == "ru" else 1]
        detail = []
        if e.get("hex"):
            detail.append(str(e["hex"]))
        if e.get("to"):
            detail.append("→ " + _who(str(e["to"]), lang))
        if e.get("from"):
            detail.append(("от " if lang == "ru" else "from ") + str(e["from"]))
        if e.get("reason"):
            detail.append(f"«{e['reason']}»")
        extra = f" ({', '.join(detail)})" if detail else ""
        out.append(f"{int(e['amount']):+d}  {name}{extra}")
    return out


def render(view: Mapping[str, Any], events: Sequence[Event], viewer: str, rules: Rules,
           lang: str = "ru", turn: int | None = None) -> Document:
    ru = lang == "ru"
    shown = [e for e in events if e.visible_to(viewer)]
    turns = [turn] if turn is not None else (sorted({int(e.data.get("turn", 0)) for e in shown})
                                             or [int(view.get("turn", 1)) - 1])
    title = ("Кольцо Власти" if ru else "Ring of Power") + (f" — ход {turns[-1]}" if ru else f" — turn {turns[-1]}")
    who = {"gm": "ГМ" if ru else "GM", "public": "все" if ru else "everyone"}.get(viewer, viewer)
    doc = Document(f"{title} — {who}")
    if view.get("me"):
        me = view["me"]
        doc.heading("Казна" if ru else "Treasury")
        statements = [e for e in shown if e.kind == "statement" and e.data.get("player") == viewer]
        entries = statements[-1].data["entries"] if statements else me.get("statement", [])
        doc.bullets(statement_lines(entries, lang))
        doc.paragraph((f"В казне: {me['money']}" if ru else f"In the treasury: {me['money']}")
                      + (f"; доход {me['last_income']}, налог к уплате {me['tax_due']}" if ru
                         else f"; income {me['last_income']}, tax due {me['tax_due']}"))
    groups = [
        ("Бои" if ru else "Battles", {"battle"}),
        ("Захваты и потери земель" if ru else "Captures and lost land", {"captured", "tax_unpaid", "eliminated"}),
        ("Отряды" if ru else "Units", {"moved", "blocked", "joined", "disbanded", "raised", "raise_failed",
                                       "upgrade_started", "promoted", "deserted", "condottieri_arrived"}),
        ("Чупакабра" if ru else "The Chupacabra", {"chupacabra", "chupacabra_multiplied", "chupacabra_moved",
                                                   "chupacabra_reborn", "chupacabra_born"}),
        ("Приказы и деньги" if ru else "Orders and money", {"unpaid", "order_rejected", "transfer", "bid_lost", "income"}),
        ("Империя" if ru else "The Empire", {"hostility", "condottieri_offered", "condottieri_hired",
                                             "condottieri_left", "game_over"}),
    ]
    for name, kinds in groups:
        body = [x for x in (event_line(e, rules, lang, viewer) for e in shown if e.kind in kinds) if x]
        if body:
            doc.heading(name)
            doc.bullets(body)
    if view.get("me") is not None:
        own = [u for u in view.get("units", []) if u.get("owner") == viewer]
        if own:
            doc.heading("Ваши отряды" if ru else "Your units")
            by_hex: dict[str, dict[str, int]] = {}
            for u in own:
                by_hex.setdefault(u["hex"], {}).setdefault(u["type"], 0)
                by_hex[u["hex"]][u["type"]] += 1
            doc.bullets([f"{h}: {units_text(c, rules, lang)}" for h, c in sorted(by_hex.items())])
        mine = sorted(h for h, v in view.get("holdings", {}).items() if v["owner"] == viewer)
        doc.heading("Ваши владения" if ru else "Your holdings")
        doc.paragraph(", ".join(mine) or "—")
    return doc
