"""The game master's post for a turn: what happened, the ledger of every country (what it
had, what each action cost, what is left), the battles, and the rolls for the next turn,
in Russian or English, as plain text, BBCode (forums) or Markdown. Built from a view and the
events that viewer may see, nothing else. ``describe`` is the echo of one order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.markup import Markup
from voevoda.core.ruleset import Event, Order
from voevoda.core.words import count_en, count_ru
from voevoda.rulesets.new_worlds.rules import FACTORY_NAMES, Rules

POINTS_RU = ("очко", "очка", "очков")
WAR_POINTS_RU = ("ВО", "ВО", "ВО")
TILES_RU = ("клетка", "клетки", "клеток")
DETAIL_RU = {"double": "дабл", "palindrome3": "3д пали", "triple": "трипл", "palindrome4": "4д пали",
             "quad": "квадра", "palindrome5": "5д пали", "penta": "пента", "digit": "последняя цифра"}
DETAIL_EN = {"double": "double", "palindrome3": "3-digit palindrome", "triple": "triple",
             "palindrome4": "4-digit palindrome", "quad": "quad", "palindrome5": "5-digit palindrome",
             "penta": "penta", "digit": "last digit"}
ORDER_NAMES = {
    "city": ("город", "city"), "upgrade": ("улучшение города", "city upgrade"), "port": ("порт", "port"),
    "university": ("университет", "university"), "factory": ("завод", "factory"),
    "refocus": ("переориентация завода", "factory refocus"), "colonize": ("занятие земель", "settling"),
    "name_tile": ("название", "name"), "rename": ("новое имя страны", "country renamed"),
    "religion": ("религия", "religion"), "recreate": ("пересоздание", "re-creation"),
    "war": ("объявление войны", "war declared"), "war_upgrade": ("улучшение войны", "war upgraded"),
    "attack": ("атака", "attack"), "defend": ("оборона", "defence"), "peace": ("мир", "peace"),
    "pact": ("пакт о ненападении", "non-aggression pact"), "break_pact": ("разрыв пакта", "pact broken"),
    "alliance": ("союз", "alliance"), "break_alliance": ("разрыв союза", "alliance broken"),
    "break_truce": ("нарушение перемирия", "truce broken"), "trade": ("торговля", "trade"),
    "cancel_trade": ("отмена сделки", "deal cancelled"), "aid": ("помощь союзнику", "aid to an ally"),
    "cede": ("передача земель", "land ceded"), "tribute": ("дань", "tribute"),
    "release": ("освобождение вассала", "vassal released"), "impose": ("насаждение веры", "faith imposed"),
    "permit": ("разрешение на войну", "war permitted"), "restore_faith": ("возврат веры", "faith restored"),
    "research": ("исследование", "research"), "militia": ("ополчение", "militia"),
    "tributary": ("стать данником", "become a tributary"), "refuse": ("отказ Кагану", "defy the Khagan"),
    "reform": ("выбор реформы", "reform choice"), "bonus": ("заявленный бонус", "bonus claimed"),
    "roll": ("ролл", "roll"),
}
MOD_NAMES = {
    "cities": ("города", "cities"), "upgrades": ("улучшения городов", "city upgrades"),
    "religion": ("религия", "religion"), "crusade": ("война с иноверцами", "war on other faiths"),
    "soft_power": ("мягкая сила", "soft power"), "invaders": ("бонус захватчиков", "invaders' bonus"),
    "khaganate": ("бонус Каганата", "the Khaganate's bonus"),
}
REFUND_RU = {
    "contested": "клетку хотели двое", "unreachable": "клетка недосягаема", "not_yours": "клетка не ваша",
    "no_site": "место занято", "treaty_gone": "договора уже нет", "already_at_war": "война уже идёт",
    "war_over": "война окончена", "not_ally": "не союзник", "no_war": "войны нет",
}
REFUND_EN = {
    "contested": "two wanted the tile", "unreachable": "the tile is out of reach", "not_yours": "not your tile",
    "no_site": "the site is taken", "treaty_gone": "the treaty is gone", "already_at_war": "already at war",
    "war_over": "the war is over", "not_ally": "not an ally", "no_war": "no war",
}


def points(n: int, lang: str) -> str:
    return count_ru(n, POINTS_RU) if lang == "ru" else count_en(n, "point")


def tiles_text(n: int, lang: str) -> str:
    return count_ru(n, TILES_RU) if lang == "ru" else count_en(n, "tile")


class Words:
    """Names in one language, from the rules and a view."""

    def __init__(self, rules: Rules, view: Mapping[str, Any] | None, lang: str) -> None:
        self.rules = rules
        self.lang = lang
        self.ru = lang == "ru"
        self.names: dict[str, str] = {}
        if view is not None:
            for cid, c in view.get("countries", {}).items():
                self.names[cid] = c.get("name_en") if not self.ru and c.get("name_en") else c["name"]

    def country(self, cid: str | None) -> str:
        if cid is None:
            return "никто" if self.ru else "nobody"
        return self.names.get(cid, cid)

    def resource(self, rid: str) -> str:
        r = self.rules.resources.get(rid)
        return r.name(self.lang) if r else rid

    def war_type(self, wid: str) -> str:
        w = self.rules.war_types.get(wid)
        return f"«{w.name_ru}»" if w and self.ru else (f"'{w.name_en}'" if w else wid)

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
        form = rel.form(upgraded)
        return f"{rel.name(self.lang)} ({form.title(self.lang)})"

    def branch(self, bid: str) -> str:
        b = self.rules.research.branches.get(bid)
        return b.name(self.lang) if b else bid

    def project(self, pid: str) -> str:
        try:
            return self.rules.project(pid)[2].name(self.lang)
        except KeyError:
            return pid

    def factory(self, kind: str | None) -> str:
        if kind is None:
            return ""
        ru, en, _ = FACTORY_NAMES.get(kind, (kind, kind, ()))
        return ru if self.ru else en

    def tiles(self, tiles: Sequence[str]) -> str:
        return ", ".join(tiles) if tiles else "—"


# -- the echo of one order --------------------------------------------------------------------------

def describe(order: Order, rules: Rules, lang: str = "ru") -> str:
    """«город C5 — 7 очков, осталось 13», or the rule the order breaks."""
    w = Words(rules, None, lang)
    ru = w.ru
    name = ORDER_NAMES.get(order.kind, (order.kind, order.kind))[0 if ru else 1]
    a = order.args
    what = order.text or name
    echo = a.get("echo") or {}
    if order.kind == "roll":
        return what + (" — кости бросает движок (docs/dice.md)" if ru else " — the engine rolls the dice (docs/dice.md)")
    if order.kind == "bonus":
        ledger = echo.get("ledger")
        if ledger is None:
            return what
        claimed = int(a.get("amount", 0))
        if claimed == ledger:
            return what + (f" — совпадает с расчётом (+{ledger})" if ru else f" — matches the ledger (+{ledger})")
        return what + (f" — по расчёту бонус +{ledger}, а не {claimed:+d}" if ru
                       else f" — the ledger says +{ledger}, not {claimed:+d}")
    if echo.get("problem"):
        return f"{what} — {echo['problem']}"
    parts = []
    price = int(echo.get("price", 0))
    war_price = int(echo.get("war_price", 0))
    if price:
        parts.append(points(price, lang))
    if war_price:
        parts.append(f"{war_price} ВО" if ru else f"{war_price} WP")
    cost = " + ".join(parts) if parts else ("бесплатно" if ru else "free")
    left = echo.get("left")
    tail = ""
    if left is not None:
        tail = (f", осталось {points(int(left), lang)}" if ru else f", {points(int(left), lang)} left")
        if war_price:
            tail += f", {echo.get('war_left')} ВО" if ru else f", {echo.get('war_left')} WP"
    return f"{what} — {cost}{tail}"


# -- the turn's post ------------------------------------------------------------------------------------

def render(view: Mapping[str, Any], events: Sequence[Event], viewer: str, rules: Rules, fmt: str = "text",
           lang: str = "ru", turn: int | None = None) -> str:
    m = Markup(fmt)
    w = Words(rules, view, lang)
    ru = w.ru
    shown_turn = turn if turn is not None else int(view["turn"]) - 1
    title = (f"Новые Миры — итоги хода {shown_turn}" if ru else f"New Worlds — turn {shown_turn}")
    lines = [m.heading(title, 1)]
    epoch = w.epoch(str(view["epoch"]))
    lines.append(f"Эпоха: {epoch}. Следующий ход: {view['turn']}." if ru
                  else f"Epoch: {epoch}. Next turn: {view['turn']}.")
    by_kind: dict[str, list[Event]] = {}
    for e in events:
        by_kind.setdefault(e.kind, []).append(e)

    world_lines = [x for x in (_world_line(e, w) for e in events) if x]
    if world_lines:
        lines.append("")
        lines.append(m.heading("События" if ru else "Events", 2))
        lines.extend(m.items([m.item(x) for x in world_lines]))
    diplo = [x for x in (_diplomacy_line(e, w) for e in events) if x]
    if diplo:
        lines.append("")
        lines.append(m.heading("Война и дипломатия" if ru else "War and diplomacy", 2))
        lines.extend(m.items([m.item(x) for x in diplo]))
    battles = [_battle_line(e, w) for e in by_kind.get("battle", [])]
    if battles:
        lines.append("")
        lines.append(m.heading("Сражения" if ru else "Battles", 2))
        lines.extend(m.items([m.item(x) for x in battles]))
    ledgers = by_kind.get("ledger", [])
    if ledgers:
        lines.append("")
        lines.append(m.heading("Расходы" if ru else "The ledger", 2))
        for e in ledgers:
            lines.extend(_ledger(e, w, m))
    rolls = by_kind.get("roll", [])
    if rolls:
        lines.append("")
        lines.append(m.heading(f"Роллы на ход {view['turn']}" if ru else f"Rolls for turn {view['turn']}", 2))
        lines.extend(m.items([m.item(_roll_line(e, w, m)) for e in rolls]))
    private = [x for x in (_private_line(e, w) for e in events) if x]
    if private:
        lines.append("")
        lines.append(m.heading("Лично вам" if ru else "For you alone", 2))
        lines.extend(m.items([m.item(x) for x in private]))
    if len(lines) <= 2:
        lines.append("Ход ещё не решён." if ru else "No turn has been resolved yet.")
    return "\n".join(lines)


def _roll_line(e: Event, w: Words, m: Markup) -> str:
    d = e.data
    ru = w.ru
    faces = " ".join(str(f) for f in d["faces"])
    detail = (DETAIL_RU if ru else DETAIL_EN).get(str(d["pattern"]), str(d["pattern"]))
    mods = []
    for mod in d.get("modifiers", []):
        key = str(mod["key"])
        if key.startswith("resource:"):
            label = w.resource(key.split(":", 1)[1])
            if mod.get("count", 0) > 1:
                label += f" ×{mod['count']}"
        else:
            label = MOD_NAMES.get(key, (key, key))[0 if ru else 1]
            if key in ("cities", "upgrades") and mod.get("count"):
                label += f" ({mod['count']})"
        mods.append(f"{label} {int(mod['amount']):+d}")
    body = f"{m.bold(w.country(d['country']))}: 5d{d['die']} → {faces} ({d['digits']}): {detail} +{d['base']}"
    if mods:
        body += "; " + "; ".join(mods)
    body += f" = {m.bold(str(d['total']))}"
    extra = []
    if d.get("tribute_out"):
        extra.append(f"дань −{d['tribute_out']}" if ru else f"tribute −{d['tribute_out']}")
    if d.get("tribute_in"):
        extra.append(f"дань получена +{d['tribute_in']}" if ru else f"tribute received +{d['tribute_in']}")
    if d.get("aid_in"):
        extra.append(f"помощь союзника +{d['aid_in']}" if ru else f"allies' aid +{d['aid_in']}")
    if d.get("kept"):
        extra.append(f"остаток {d['kept']}" if ru else f"carried {d['kept']}")
    if extra:
        body += " (" + ", ".join(extra) + ")"
    body += (f"; к ходу: {points(int(d['points']), w.lang)}" if ru else f"; for the turn: {points(int(d['points']), w.lang)}")
    return body


def _ledger(e: Event, w: Words, m: Markup) -> list[str]:
    d = e.data
    ru = w.ru
    head = (f"{m.bold(w.country(d['country']))}: было {points(int(d['opening']), w.lang)}, {d['war_opening']} ВО"
            if ru else f"{m.bold(w.country(d['country']))}: had {points(int(d['opening']), w.lang)}, "
            f"{d['war_opening']} WP")
    out = [m.item(head)]
    rows = []
    left = int(d["opening"])
    for item in d["items"]:
        price = int(item["price"])
        war = int(item["war_price"])
        left -= price
        cost = []
        if price:
            cost.append(f"−{price}")
        if war:
            cost.append(f"−{war} ВО" if ru else f"−{war} WP")
        text = item["text"] or ORDER_NAMES.get(item["kind"], (item["kind"],) * 2)[0 if ru else 1]
        rows.append(m.item(f"{text}: {', '.join(cost) if cost else ('0' if ru else '0')} → {left}", nested=True))
    for r in d.get("refunds", []):
        reason = (REFUND_RU if ru else REFUND_EN).get(str(r["reason"]), str(r["reason"]))
        rows.append(m.item((f"возврат +{r['amount']} ({reason})" if ru else f"refund +{r['amount']} ({reason})"),
                           nested=True))
    out.extend(m.items(rows))
    out.append(m.item((f"осталось {points(int(d['closing']), w.lang)}, {d['war_points']} ВО" if ru
                       else f"left {points(int(d['closing']), w.lang)}, {d['war_points']} WP"), nested=True))
    return out


def _battle_line(e: Event, w: Words) -> str:
    d = e.data
    ru = w.ru
    a, b = w.country(d["attacker"]), w.country(d["defender"])
    taken = w.tiles(d["taken"])
    if d.get("model") == "purchase":
        core = (f"{a} → {b}: атака {d['committed']} + {d['attack_bonus']}" if ru
                else f"{a} → {b}: attack {d['committed']} + {d['attack_bonus']}")
    else:
        core = (f"{a} → {b}: атака {d['committed']} + {d['attack_bonus']} против обороны "
                f"{d['defence']} + {d['defence_bonus']}, перевес {d['net']}" if ru else
                f"{a} → {b}: attack {d['committed']} + {d['attack_bonus']} against defence "
                f"{d['defence']} + {d['defence_bonus']}, margin {d['net']}")
    core += (f"; взято: {taken}" if ru else f"; taken: {taken}")
    missed = [x for x in d.get("missed", []) if x.get("why") in ("strength", "limit")]
    if missed:
        core += ("; не хватило сил на " if ru else "; not enough for ") + ", ".join(str(x["tile"]) for x in missed)
    return core


def _world_line(e: Event, w: Words) -> str | None:
    d = e.data
    ru = w.ru
    k = e.kind
    if k == "epoch":
        who = f" ({w.country(d['by'])})" if d.get("by") else ""
        return (f"Наступает новая эпоха: {w.epoch(d['epoch'])}{who}, с хода {d['turn']}" if ru
                else f"A new epoch begins: {w.epoch(d['epoch'])}{who}, from turn {d['turn']}")
    if k == "event_country":
        name = d["name_ru"] if ru else d["name_en"]
        return (f"Появляются {name}: {w.tiles(d['tiles'])}" if ru else f"{name} appear: {w.tiles(d['tiles'])}")
    if k == "event_over":
        names = {"sea_peoples": ("Морские Народы изгнаны", "The Sea Peoples are driven out"),
                 "khaganate": ("Великий Каганат повержен", "The Great Khaganate is defeated"),
                 "agrarian_revolution": ("Аграрная революция завершена", "The Agrarian Revolution is over")}
        ru_text, en_text = names.get(str(d["event"]), (str(d["event"]), str(d["event"])))
        return ru_text if ru else en_text
    if k == "khagan_choice":
        return (f"Каган захватил {w.country(d['country'])}: данник или гибель?" if ru
                else f"The Khagan has taken {w.country(d['country'])}: tribute or ruin?")
    if k == "tributary":
        return (f"{w.country(d['country'])} — данник Каганата" if ru else f"{w.country(d['country'])} pays tribute to the Khaganate")
    if k == "tributary_freed":
        return (f"{w.country(d['country'])} больше не данник" if ru else f"{w.country(d['country'])} is free of tribute")
    if k == "destroyed":
        return (f"Каган уничтожил цивилизацию {w.country(d['country'])}" if ru
                else f"The Khagan destroyed {w.country(d['country'])}")
    if k == "reformation_wave":
        return (f"Аграрная революция, волна {d['wave']}: " + ", ".join(w.country(c) for c in d["countries"]) if ru
                else f"Agrarian Revolution, wave {d['wave']}: " + ", ".join(w.country(c) for c in d["countries"]))
    if k == "reformation":
        faces = " ".join(str(f) for f in d["faces"])
        return (f"Реформация в {w.country(d['country'])}: 5d4 ведущего → {faces}, староверам {d['share']}% — "
                f"{tiles_text(len(d['tiles']), w.lang)}" if ru else
                f"Reformation in {w.country(d['country'])}: the GM's 5d4 → {faces}, old believers get {d['share']}% — "
                f"{tiles_text(len(d['tiles']), w.lang)}")
    if k == "reformation_done":
        res = {"reformed": ("реформаторы победили", "the reformers won"),
               "failed": ("победили староверы", "the old believers won")}.get(str(d["result"]), (d["result"], d["result"]))
        return (f"Реформация в {w.country(d['country'])} завершена: {res[0]}; вера — {w.religion(d['religion'], d['upgraded'])}"
                if ru else f"The Reformation in {w.country(d['country'])} is over: {res[1]}; faith: "
                f"{w.religion(d['religion'], d['upgraded'])}")
    if k == "custom_event":
        name = d["name_ru"] if ru else d["name_en"]
        msg = d["message_ru"] if ru else d["message_en"]
        return f"{name}" + (f": {msg}" if msg else "")
    if k == "region_opened":
        name = d["name_ru"] if ru else d["name_en"]
        return (f"Открыта новая часть карты: {name}" if ru else f"A new part of the map opens: {name}")
    if k == "eliminated":
        return (f"{w.country(d['country'])} больше нет на карте" if ru else f"{w.country(d['country'])} is gone from the map")
    if k == "recreated":
        return (f"{w.country(d['country'])} пересоздана в {d['tile']}" if ru else f"{w.country(d['country'])} is re-created at {d['tile']}")
    if k == "slaves_freed":
        return ("Рабы исчезают с наступлением Ренессанса" if ru else "Slaves vanish with the Renaissance")
    if k == "game_over":
        return (f"Игра окончена: {_outcome(d, w)}" if ru else f"The game is over: {_outcome(d, w)}")
    if k == "colonized":
        return (f"{w.country(d['country'])} занимает {w.tiles(d['tiles'])} ({points(int(d['price']), w.lang)})" if ru
                else f"{w.country(d['country'])} settles {w.tiles(d['tiles'])} ({points(int(d['price']), w.lang)})")
    if k == "contested":
        who = ", ".join(w.country(c) for c in d["countries"])
        if d.get("winner"):
            return (f"{w.tiles(d['tiles'])} хотели {who}: достаётся {w.country(d['winner'])}" if ru
                    else f"{w.tiles(d['tiles'])} was wanted by {who}: it goes to {w.country(d['winner'])}")
        return (f"{w.tiles(d['tiles'])} хотели {who}: клетка остаётся свободной" if ru
                else f"{w.tiles(d['tiles'])} was wanted by {who}: it stays free")
    if k == "built":
        what = ORDER_NAMES.get(str(d["kind"]), (d["kind"], d["kind"]))[0 if ru else 1]
        if d["kind"] == "factory" or d["kind"] == "refocus":
            what += f" ({w.factory(d.get('factory'))})"
        if d["kind"] == "upgrade":
            what += f" → +{int(d['level']) + 1}"
        return f"{w.country(d['country'])}: {what} {d['tile']}"
    if k == "project_done":
        return (f"{w.country(d['country'])} завершает проект «{w.project(d['project'])}»" if ru
                else f"{w.country(d['country'])} completes the project {w.project(d['project'])}")
    if k == "named":
        return (f"{w.country(d['country'])} называет {d['tile']}: «{d['name']}»" if ru
                else f"{w.country(d['country'])} names {d['tile']} '{d['name']}'")
    if k == "renamed":
        return (f"{d['old']} отныне зовётся «{d['new']}»" if ru else f"{d['old']} is now called '{d['new']}'")
    if k == "religion_chosen":
        return (f"{w.country(d['country'])} исповедует {w.religion(d['religion'])}" if ru
                else f"{w.country(d['country'])} follows {w.religion(d['religion'])}")
    if k == "city_destroyed":
        slaves = (" — на месте появляются рабы" if ru else ": slaves appear") if d.get("slaves") else ""
        return (f"Город в {d['tile']} уничтожен ({w.country(d['by'])}){slaves}" if ru
                else f"The city in {d['tile']} is destroyed ({w.country(d['by'])}){slaves}")
    if k == "building_destroyed":
        what = ORDER_NAMES.get(str(d["kind"]), (d["kind"], d["kind"]))[0 if ru else 1]
        return (f"{what} в {d['tile']} разрушен" if ru else f"the {what} in {d['tile']} is destroyed")
    if k == "liberated":
        return (f"{d['tile']} освобождена и возвращена {w.country(d['to'])}" if ru
                else f"{d['tile']} is liberated and returned to {w.country(d['to'])}")
    if k == "bonus_claim":
        if d.get("ledger") is None or d["ledger"] == d["claimed"]:
            return None
        return (f"{w.country(d['country'])} заявляет бонус {int(d['claimed']):+d}, по расчёту +{d['ledger']}" if ru
                else f"{w.country(d['country'])} claims a bonus of {int(d['claimed']):+d}; the ledger says +{d['ledger']}")
    return None


def _diplomacy_line(e: Event, w: Words) -> str | None:
    d = e.data
    ru = w.ru
    k = e.kind
    if k == "war_declared":
        return (f"{w.country(d['attacker'])} объявляет войну {w.country(d['defender'])}: {w.war_type(d['type'])} "
                f"({d['price']} ВО), до хода {d['until']}" if ru else
                f"{w.country(d['attacker'])} declares war on {w.country(d['defender'])}: {w.war_type(d['type'])} "
                f"({d['price']} WP), until turn {d['until']}")
    if k == "war_linked":
        return (f"{w.country(d['defender'])} вступает в войну за вассала {w.country(d['vassal'])}" if ru
                else f"{w.country(d['defender'])} joins the war for its vassal {w.country(d['vassal'])}")
    if k == "war_upgraded":
        return (f"{w.country(d['country'])} улучшает войну с {w.country(d['other'])}: {w.war_type(d['from'])} → "
                f"{w.war_type(d['to'])} ({d['price']} ВО)" if ru else
                f"{w.country(d['country'])} upgrades its war on {w.country(d['other'])}: {w.war_type(d['from'])} → "
                f"{w.war_type(d['to'])} ({d['price']} WP)")
    if k == "war_ended":
        reason = {"duration": ("срок вышел", "its time ran out"), "peace": ("заключён мир", "peace was made"),
                  "linked": ("вместе с войной вассала", "with its vassal's war")}.get(str(d["reason"]),
                                                                                   (d["reason"], d["reason"]))
        text = (f"Война {w.country(d['attacker'])} и {w.country(d['defender'])} окончена ({reason[0]})" if ru
                else f"The war of {w.country(d['attacker'])} and {w.country(d['defender'])} is over ({reason[1]})")
        for side, tiles in (d.get("returned") or {}).items():
            text += (f"; {w.country(side)} возвращает {w.tiles(tiles)}" if ru else f"; {w.country(side)} returns {w.tiles(tiles)}")
        return text
    if k == "vassalised":
        return (f"{w.country(d['vassal'])} становится вассалом {w.country(d['suzerain'])}" if ru
                else f"{w.country(d['vassal'])} becomes the vassal of {w.country(d['suzerain'])}")
    if k == "vassal_freed":
        return (f"{w.country(d['vassal'])} свободна от {w.country(d['suzerain'])}" if ru
                else f"{w.country(d['vassal'])} is free of {w.country(d['suzerain'])}")
    if k == "truce":
        a, b = d["parties"]
        return (f"Перемирие {w.country(a)} и {w.country(b)} до хода {d['until']}" if ru
                else f"Truce between {w.country(a)} and {w.country(b)} until turn {d['until']}")
    if k == "treaty_signed":
        a, b = d["parties"]
        name = {"pact": ("пакт о ненападении", "a non-aggression pact"), "alliance": ("союз", "an alliance")}[str(d["kind"])]
        return (f"{w.country(a)} и {w.country(b)} заключают {name[0]}" if ru
                else f"{w.country(a)} and {w.country(b)} sign {name[1]}")
    if k == "treaty_broken":
        name = {"pact": ("пакт", "pact"), "alliance": ("союз", "alliance"), "truce": ("перемирие", "truce")}[str(d["kind"])]
        return (f"{w.country(d['by'])} разрывает {name[0]} с {w.country(d['other'])} ({points(int(d['price']), w.lang)})"
                if ru else f"{w.country(d['by'])} breaks its {name[1]} with {w.country(d['other'])} "
                f"({points(int(d['price']), w.lang)})")
    if k == "deal_signed":
        return (f"Сделка: {w.country(d['a'])} даёт {w.resource(d['a_gives'])}, {w.country(d['b'])} — "
                f"{w.resource(d['b_gives'])}" + (" (навязана)" if d.get("imposed") else "") if ru else
                f"Deal: {w.country(d['a'])} gives {w.resource(d['a_gives'])}, {w.country(d['b'])} gives "
                f"{w.resource(d['b_gives'])}" + (" (imposed)" if d.get("imposed") else ""))
    if k == "deal_ended":
        deal = d["deal"]
        return (f"Сделка {w.country(deal['a'])} и {w.country(deal['b'])} прекращена" if ru
                else f"The deal of {w.country(deal['a'])} and {w.country(deal['b'])} ends")
    if k == "deal_failed":
        return (f"Сделка {w.country(d['a'])} и {w.country(d['b'])} не состоялась" if ru
                else f"The deal of {w.country(d['a'])} and {w.country(d['b'])} fell through")
    if k == "peace":
        a, b = d["parties"]
        return (f"{w.country(a)} и {w.country(b)} заключают мир" if ru else f"{w.country(a)} and {w.country(b)} make peace")
    if k == "tribute_set":
        return (f"{w.country(d['suzerain'])} берёт с {w.country(d['vassal'])} {d['percent']}% ролла" if ru
                else f"{w.country(d['suzerain'])} takes {d['percent']}% of {w.country(d['vassal'])}'s roll")
    if k == "religion_imposed":
        return (f"{w.country(d['suzerain'])} насаждает свою веру в {w.country(d['vassal'])}" if ru
                else f"{w.country(d['suzerain'])} imposes its faith on {w.country(d['vassal'])}")
    if k == "war_permitted":
        return (f"{w.country(d['suzerain'])} разрешает {w.country(d['vassal'])} войну с {w.country(d['enemy'])}" if ru
                else f"{w.country(d['suzerain'])} lets {w.country(d['vassal'])} go to war on {w.country(d['enemy'])}")
    if k == "aid":
        return (f"{w.country(d['from'])} помогает {w.country(d['to'])}: {points(int(d['points']), w.lang)}" if ru
                else f"{w.country(d['from'])} aids {w.country(d['to'])}: {points(int(d['points']), w.lang)}")
    if k == "ceded":
        return (f"{w.country(d['from'])} передаёт {w.country(d['to'])} {w.tiles(d['tiles'])}" if ru
                else f"{w.country(d['from'])} cedes {w.tiles(d['tiles'])} to {w.country(d['to'])}")
    if k == "embargo":
        return (f"Эмбарго: {w.country(d['by'])} отменяет сделки {w.country(d['on'])}" if ru
                else f"Embargo: {w.country(d['by'])} cancels the deals of {w.country(d['on'])}")
    if k == "militia":
        return (f"{w.country(d['country'])} собирает ополчение: +{d['restored']} ВО" if ru
                else f"{w.country(d['country'])} raises militia: +{d['restored']} WP")
    return None


def _private_line(e: Event, w: Words) -> str | None:
    d = e.data
    ru = w.ru
    if e.kind == "order_void":
        text = d["order"].get("text") or d["order"]["kind"]
        return (f"не исполнено «{text}»: {d['reason_ru']}" if ru else f"not carried out '{text}': {d['reason_en']}")
    if e.kind == "offer":
        kinds = {"pact": ("пакт о ненападении", "a non-aggression pact"), "alliance": ("союз", "an alliance"),
                 "trade": ("сделку", "a deal"), "peace": ("мир", "peace")}
        name = kinds.get(str(d["kind"]), (d["kind"], d["kind"]))
        extra = ""
        if d["kind"] == "trade":
            extra = (f": {w.resource(d['give'])} за {w.resource(d['get'])}" if ru
                     else f": {w.resource(d['give'])} for {w.resource(d['get'])}")
        return (f"{w.country(d['by'])} предлагает {w.country(d['to'])} {name[0]}{extra} — ответ до конца следующего хода"
                if ru else f"{w.country(d['by'])} offers {w.country(d['to'])} {name[1]}{extra}; answer by the end of next turn")
    if e.kind == "refund" and d.get("reason", "").endswith("_unanswered"):
        return (f"предложение {w.country(d['country'])} осталось без ответа: возвращено {points(int(d['amount']), w.lang)}"
                if ru else f"{w.country(d['country'])}'s offer went unanswered: {points(int(d['amount']), w.lang)} returned")
    return None


def _outcome(d: Mapping[str, Any], w: Words) -> str:
    ru = w.ru
    reason = d.get("reason")
    if reason == "invaders":
        return "победили эвентовые страны" if ru else "the event countries won"
    if reason == "turns":
        names = ", ".join(w.country(x) for x in d.get("winners", []))
        return (f"последний ход; больше всех земель у {names}" if ru else f"the last turn; most land: {names}")
    if reason == "no_countries":
        return "не осталось ни одной страны" if ru else "no country is left"
    names = ", ".join(w.country(x) for x in d.get("winners", []))
    return (f"решение ведущего: {names}" if ru else f"the GM's decision: {names}")
