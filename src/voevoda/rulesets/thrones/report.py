"""A round of the Thrones companion told to one viewer, built as a
:class:`~voevoda.core.markup.Document` from that viewer's view and the events it may see, nothing
else: the holy lands, the alliances, the trade and the Night's Watch dues, the Westeros cards,
the Clash of Kings, Littlefinger's bribes, the orders, the marches and battles as the table
recorded them, the income; then, for a house alone, its payments, its deals and its statement.
Lines read like a ledger («Старк: 2 пеших → Винтерфелл, по 1 — 2»), so that a house's or an
area's name never needs declining; counted nouns agree through :mod:`voevoda.core.words`.

``describe`` is the echo of one order to its author.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.markup import Document, Inline, Item, bold
from voevoda.core.ruleset import GM, PUBLIC, Event, Order, Viewer
from voevoda.core.words import counted, inflect_phrase, join_and, name_in_case, with_name
from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.economy import note_units
from voevoda.rulesets.thrones.rules import TRACKS, UNIT_KINDS
from voevoda.rulesets.thrones.state import castles_held

TRACK_NAMES = {"iron_throne": ("Железный трон", "Iron Throne"), "fiefdoms": ("Вотчины", "Fiefdoms"),
               "kings_court": ("Королевский двор", "King's Court")}
ORDER_NAMES = {"march": ("поход", "march"), "defense": ("оборона", "defense"), "support": ("подмога", "support"),
               "raid": ("набег", "raid"), "consolidate": ("усиление власти", "consolidate power")}
BASE_CARDS = {"supply": ("Снабжение", "Supply"), "clash": ("Битва королей", "Clash of Kings")}
STATEMENT_ITEMS = {
    "crowns": ("доход с корон", "crowns"), "consolidate": ("усиление власти", "consolidate power"),
    "purchase": ("покупка войск", "troops bought"), "upgrade": ("улучшение войск", "troops upgraded"),
    "sale": ("продажа войск", "troops sold"),
    "dues_owed": ("взнос Ночному Дозору: к уплате", "Night's Watch dues owed:"),
    "dues_troops": ("взнос войсками", "dues in troops"),
    "dues": ("взнос Ночному Дозору монетами", "Night's Watch dues in coins"),
    "dues_sold": ("продано за номинал в счёт взноса", "sold at nominal for the dues"),
    "dues_change": ("сдача с взноса войсками", "change from the dues in troops"),
    "dues_unpaid": ("взнос не уплачен: продавать нечего", "dues unpaid: nothing left to sell"),
    "transfer_out": ("перевод", "payment"), "transfer_in": ("получено", "received"),
    "transfer_back": ("не принято (запас получателя полон)", "returned (the recipient's reserve was full)"),
    "deal_out": ("оплата сделки", "deal paid"), "bid": ("ставка в битве королей", "Clash of Kings bid"),
    "bribe": ("ставка подкупа", "bribe stake"), "bribe_in": ("ставка подкупа вам", "bribe stake to you"),
    "raid_gain": ("набег на усиление власти", "raid on consolidate power"),
    "raid_loss": ("набег на ваше усиление власти", "raid on your consolidate power"),
    "board": ("власть на поле", "power on the board"), "token": ("жетон власти на поле", "power token placed"),
    "reserve_cap": ("сверх запаса, не получено", "over the reserve, not received"),
}
INFO_ITEMS = frozenset({"dues_owed", "dues_troops", "dues_sold", "dues_unpaid"})
"""Statement lines that move no token: shown with «—» in the tokens column."""
WHY_DESTROYED = {"battle": ("остались на поле проигранной битвы", "stayed on a lost battlefield"),
                 "no_retreat": ("не смогли отступить", "could not retreat"),
                 "contested": ("пришли туда, где уже стоял другой дом", "arrived where another house stood")}
TRANSITS = {"own-ships": ("на своих кораблях", "on own ships"), "allied-ships": ("на кораблях союзника", "on an ally's ships"),
            "allied-land": ("через земли союзника", "through an ally's land"),
            "road": ("по королевскому тракту", "along the King's Road")}


class Words:
    """Names and numbers of one language, from the rules, the board and a view."""

    def __init__(self, ctx: Ctx, view: Mapping[str, Any] | None, lang: str) -> None:
        self.ctx = ctx
        self.lang = lang
        self.ru = lang == "ru"
        self.houses: dict[str, str] = {}
        if view is not None:
            for p, seat in view.get("houses", {}).items():
                house = ctx.rules.houses.get(seat["house"])
                self.houses[p] = house.name(lang) if house else p

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def q(self, text: str) -> str:
        """Quoted as each language quotes: «…» in Russian, '…' in English."""
        return f"«{text}»" if self.ru else f"'{text}'"

    def house(self, player: str | None) -> str:
        if player is None:
            return self.t("никто", "nobody")
        return self.houses.get(player, player)

    def who(self, player: str) -> str:
        """A house with its player: «Старк (Анна)»."""
        name = self.houses.get(player)
        return f"{name} ({player})" if name and name != player else player

    def area(self, area: str) -> str:
        return self.ctx.area_name(area, self.lang)

    def coins(self, n: int) -> str:
        return counted(n, "монета") if self.ru else counted(n, "coin", "en")

    def unit(self, kind: str, n: int) -> str:
        stats = self.ctx.rules.units[kind]
        return counted(n, stats.name_ru) if self.ru else counted(n, stats.name_en, "en", plural_en_form=stats.plural_en)

    def units(self, units: Mapping[str, int]) -> str:
        parts = [self.unit(k, int(units[k])) for k in UNIT_KINDS if units.get(k)]
        return join_and(parts, self.lang) or self.t("никого", "nobody")

    def upgraded(self, kind: str, n: int) -> str:
        """«пешего до рыцаря», «2 пеших до осадных башен»; "a footman to a knight", "2 footmen to
        knights" (what an upgrade turns into what)."""
        stats = self.ctx.rules.units[kind]
        base = self.ctx.rules.units[stats.upgrade_from or "footman"]
        if self.ru:
            if n == 1:
                return f"{inflect_phrase(base.name_ru, 'gent')} до {inflect_phrase(stats.name_ru, 'gent')}"
            return f"{counted(n, base.name_ru, case='gent')} до {inflect_phrase(stats.name_ru, 'gent', plural=True)}"
        if n == 1:
            return f"a {base.name_en} to a {stats.name_en}"
        return (f"{counted(n, base.name_en, 'en', plural_en_form=base.plural_en)} to "
                f"{stats.plural_en or stats.name_en + 's'}")

    def named(self, order: Order) -> None:
        """The houses an order's echo names (:meth:`Thrones.annotate`): its author reads the house
        as the table says it, «Ланнистер (Борис)»."""
        for p, hid in ((order.args.get("echo") or {}).get("houses") or {}).items():
            house = self.ctx.rules.houses.get(str(hid))
            if house is not None:
                self.houses[str(p)] = house.name(self.lang)

    def path(self, path: Sequence[str]) -> str:
        return " → ".join(self.area(a) for a in path)

    def card(self, card_id: str | None) -> str:
        if card_id is None:
            return self.t("нет", "none")
        try:
            return self.ctx.rules.card(card_id).name(self.lang)
        except KeyError:
            return card_id

    def holy(self, token: str) -> str:
        try:
            return self.ctx.rules.holy_place(token).name(self.lang)
        except KeyError:
            return token


def describe(order: Order, ctx: Ctx, lang: str = "ru") -> str:
    """One line echoing an understood order back to its author."""
    w = Words(ctx, None, lang)
    w.named(order)
    a = order.args
    k = order.kind
    t = w.t
    echo = a.get("echo") or {}
    if k == "transfer":
        reason = f" ({t('за', 'for')} {w.q(a['reason'])})" if a.get("reason") else ""
        return f"{t('перевод', 'payment')} → {w.who(a['to'])}: {w.coins(int(a['amount']))}{reason}"
    if k == "deal":
        return (f"{t('сделка', 'deal')} → {w.who(a['to'])}: {w.coins(int(a['amount']))} {t('за', 'for')} "
                f"{w.q(a['service'])}")
    if k in ("accept", "decline"):
        verb = t("принять сделку", "accept deal") if k == "accept" else t("отклонить сделку", "decline deal")
        return f"{verb} №{a['deal']}" if w.ru else f"{verb} #{a['deal']}"
    if k == "holy":
        return f"{t('святыня', 'holy place')} → {w.area(a['area'])}"
    if k == "alliance":
        return f"{t('союз', 'alliance')}: {', '.join(w.who(m) for m in a['members'])}"
    if k == "alone":
        return t("одиночка", "alone")
    if k in ("buy", "sell"):
        verb = {"buy": t("купить", "buy"), "sell": t("продать", "sell")}[k]
        where = w.area(str(echo.get("where") or a["area"]))
        return f"{verb}: {w.unit(a['unit'], int(a['count']))}, {where}{_price(w, echo)}"
    if k == "upgrade":
        return f"{t('улучшить', 'upgrade')} {w.upgraded(a['unit'], int(a['count']))}, {w.area(a['area'])}{_price(w, echo)}"
    if k == "dues":
        return f"{t('взнос войсками', 'dues in troops')}: {w.area(a['area'])} — {w.units(a['units'])}"
    if k == "westeros":
        cards = ", ".join(BASE_CARDS[c][0 if w.ru else 1] for c in a["cards"]) or t("ничего", "none")
        return f"{t('вестерос', 'westeros')}: {cards}"
    if k == "fourth":
        return f"{t('четвёртая карта', 'fourth card')}: {w.card(a['card'])}"
    if k == "bid":
        return f"{t('ставка', 'bid')} {a['amount']}"
    if k == "tiebreak":
        return f"{t('порядок', 'tie order')}: {', '.join(w.who(p) for p in a['order'])}"
    if k == "bribe":
        faces = ", ".join(str(f) for f in a["guesses"]) or "—"
        return f"{t('подкуп', 'bribe')}: {w.area(a['area'])}, {t('ставка', 'stake')} {a['stake']}, " \
               f"{t('цифры', 'faces')} {faces}"
    if k == "pass":
        return t("пас", "pass")
    if k == "order":
        name = ORDER_NAMES[str(a["kind"])][0 if w.ru else 1]
        return f"{t('приказ', 'order')} «{name}»: {w.area(a['area'])}" if w.ru else f"order '{name}': {w.area(a['area'])}"
    if k == "passage":
        return f"{t('пропуск', 'passage')}: {w.who(str(a['to']))} — {w.area(a['area'])}"
    if k in ("disband", "losses", "record"):
        verb = {"disband": t("распустить", "disband"), "losses": t("потери", "losses"), "record": t("войска", "units")}[k]
        return f"{verb}: {w.area(a['area'])} — {w.units(a['units'])}"
    if k == "march":
        outcome = {"won": t(" (победа)", " (won)"), "lost": t(" (поражение)", " (lost)")}.get(a.get("outcome") or "", "")
        army = w.units(a["units"]) if a["units"] else t("всё войско", "the whole army")
        return f"{t('поход', 'march')} {w.path(a['path'])}: {army}{outcome}"
    if k == "raid":
        return f"{t('набег', 'raid')} {w.area(a['from'])} → {w.area(a['to'])}"
    if k == "retreat":
        return f"{t('отступление', 'retreat')} {w.area(a['from'])} → {w.area(a['to'])}: {w.units(a['units'])}"
    if k == "token":
        return f"{t('жетон власти', 'power token')}: {w.area(a['area'])}"
    if k == "power":
        reason = f" ({a['reason']})" if a.get("reason") else ""
        return f"{t('власть', 'power')} {int(a['amount']):+d}{reason}"
    if k == "battle":
        sides = []
        for side in a["sides"]:
            text = w.who(str(side["house"]))
            if side.get("for"):
                text += f" {t('за', 'for')} {w.who(str(side['for']))}"
                if side.get("card") is not None:
                    text += f", {t('генерал', 'general')} {side['card']}"
            else:
                told = []
                if side.get("card") is not None:
                    told.append(f"{t('карта', 'card')} {side['card']}")
                if side.get("bonus"):
                    told.append(f"{t('прочее', 'other')} {int(side['bonus']):+d}".replace("-", "−"))
                text += f": {', '.join(told)}" if told else ""
            sides.append(text)
        return f"{t('битва', 'battle')}: {w.area(a['area'])} — {'; '.join(sides)}"
    return order.text or k


def _price(w: Words, echo: Mapping[str, Any]) -> str:
    """What a purchase, an upgrade or a sale costs or brings, as its echo carries it: « — по 2, всего
    4 монеты», « — 1 монета»."""
    if "total" in echo:
        if int(echo.get("count", 1)) == 1:
            return w.t(f" — {w.coins(int(echo['total']))}", f" — {w.coins(int(echo['total']))}")
        return w.t(f" — по {echo['price']}, всего {w.coins(int(echo['total']))}",
                   f" — {echo['price']} each, {w.coins(int(echo['total']))} in all")
    if "value" in echo:
        return f" — {w.coins(int(echo['value']))}"
    return ""


# -- a battle's strength (ruling T28) ---------------------------------------------------------------------

def _term(w: Words, term: Mapping[str, Any], side_house: str | None) -> str:
    kind, value = term["kind"], int(term["value"])
    units = term.get("units") or {}
    if kind == "army":
        return w.t(f"войско {value} ({w.units(units)})", f"army {value} ({w.units(units)})")
    if kind == "defenders":
        return w.t(f"защитники {value} ({w.units(units)})", f"defenders {value} ({w.units(units)})")
    if kind == "garrison":
        return w.t(f"гарнизон {value}", f"garrison {value}")
    if kind == "support":
        whose = "" if term.get("house") == side_house else f", {w.house(term.get('house'))}"
        return w.t(f"подмога {value} ({w.area(term['area'])}{whose}: {w.units(units)})",
                   f"support {value} ({w.area(term['area'])}{whose}: {w.units(units)})")
    if kind == "holy":
        return f"{w.q(w.holy(term['holy']))} +{value} ({w.units(units)})"
    if kind == "card":
        return w.t(f"карта {value}", f"card {value}")
    if kind == "general":
        return w.t(f"генерал союзника ({w.house(term.get('house'))}) {value}",
                   f"the ally's general ({w.house(term.get('house'))}) {value}")
    return w.t(f"прочее {value:+d}", f"other {value:+d}").replace("-", "−")


def battle_text(w: Words, s: Mapping[str, Any], outcome: str | None = None, *, echo: bool = False) -> str:
    """A battle's strength as the table reads it before typing the result: «Битва за Ров Кейлин.
    Нападает Старк — 7: войско 4 (2 пеших и 1 рыцарь), карта 3. Защищается Ланнистер — 4: …. По силе
    побеждает Старк, 7 : 4.»; with ``outcome``, whether the result typed agrees."""
    attacker, defender = str(s["attacker"]), s.get("defender")
    att = "; ".join(_term(w, t, attacker) for t in s["attack_terms"])
    dfn = "; ".join(_term(w, t, defender) for t in s["defence_terms"]) or w.t("никого", "nobody")
    who_defends = w.house(defender) if defender is not None else w.t("нейтральная сила", "the neutral force")
    parts = [w.t(f"Битва: {w.area(s['area'])}.", f"Battle: {w.area(s['area'])}."),
             w.t(f"Нападает {w.house(attacker)} — {s['attack']}: {att}.",
                 f"{w.house(attacker)} attacks — {s['attack']}: {att}."),
             w.t(f"Защищается {who_defends} — {s['defence']}: {dfn}.",
                 f"{who_defends[:1].upper() + who_defends[1:]} defends — {s['defence']}: {dfn}.")]
    score = f"{s['attack']} : {s['defence']}"
    stronger = s["stronger"]
    winner = w.house(attacker) if stronger == "attack" else who_defends
    if s["attack"] != s["defence"]:
        parts.append(w.t(f"По силе побеждает {winner}, {score}.", f"By strength {winner} wins, {score}."))
    elif stronger == "tie":
        parts.append(w.t(f"Поровну, {score}: исход решает стол.", f"Equal, {score}: the table decides."))
    else:
        track = TRACK_NAMES.get(w.ctx.rules.combat.tie_track, ("", ""))
        parts.append(w.t(f"Поровну, {score}: на треке «{track[0]}» выше {winner}, победа за ним.",
                         f"Equal, {score}: {winner} stands higher on the {track[1]} track and wins."))
    for t in s.get("unassigned", []):
        house = w.house(t.get("house"))
        parts.append(w.t(f"Не учтена подмога ({w.area(t['area'])}, {house}): не сказано, за кого — «{house} за ДОМ».",
                         f"Not counted: the support ({w.area(t['area'])}, {house}), for nobody said — "
                         f"'{house} for HOUSE'."))
    typed_bonus = any(t["kind"] == "bonus" for t in [*s["attack_terms"], *s["defence_terms"]])
    one = defender is None
    if not s.get("cards") and not echo:
        parts.append(w.t("Карту дома стол не записал." if one else "Карты домов стол не записал.",
                         "The table wrote no house card." if one else "The table wrote no house cards."))
    elif not s.get("cards"):
        names = ", ".join(f"{w.house(p)} N" for p in (attacker, defender) if p is not None)
        parts.append(w.t(f"{'Карта дома не названа' if one else 'Карты домов не названы'}: "
                         f"«битва: {w.area(s['area'])} — {names}».",
                         f"{'No house card' if one else 'No house cards'} given: "
                         f"'battle: {w.area(s['area'])} — {names}'."))
    elif echo and not typed_bonus:
        parts.append(w.t(f"Бонусы жетонов приказов и тексты карт программа не знает: их пишут после карты "
                         f"(«{w.house(attacker)} 3 +1»).",
                         f"The companion knows neither the order tokens' bonuses nor the cards' texts: they follow "
                         f"the card ('{w.house(attacker)} 3 +1')."))
    if echo and outcome in ("won", "lost") and s.get("cards") and stronger != "tie" \
            and (outcome == "won") != (stronger == "attack"):
        typed = w.t("победа", "won") if outcome == "won" else w.t("поражение", "lost")
        parts.append(w.t(f"Записан исход «{typed}»: он не сходится с силой — проверьте (его может объяснить текст "
                         "карты).", f"The result typed, '{typed}', does not follow the strength — check it (a card's "
                         "text may explain it)."))
    if echo and any(t["kind"] == "support" for t in [*s["attack_terms"], *s["defence_terms"], *s["unassigned"]]):
        parts.append(w.t("Подмога — как лежит до набегов этого шага.", "Supports as they lie before this step's raids."))
    return " ".join(parts)


# -- the report ------------------------------------------------------------------------------------------

def _of(events: Sequence[Event], *kinds: str) -> list[Mapping[str, Any]]:
    return [e.data for e in events if e.kind in kinds]


def document(view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer, ctx: Ctx, lang: str = "ru",
             turn: int | None = None) -> Document:
    w = Words(ctx, view, lang)
    t = w.t
    shown = turn if turn is not None else view.get("turn")
    doc = Document(t(f"Игра престолов: «Дипломатия и торговля» — ход {shown}",
                     f"A Game of Thrones: Diplomacy and Trade — round {shown}"))
    if viewer not in (GM, PUBLIC):
        doc.paragraph(t(f"Отчёт для дома {w.house(viewer)} ({viewer}).", f"The report for house {w.house(viewer)} "
                        f"({viewer})."))
    _holy(doc, w, _untold_draws(view) if shown == view.get("turn") else [], events)
    _diplomacy(doc, w, events)
    _trade(doc, w, events)
    _westeros(doc, w, events)
    _clash(doc, w, events)
    _bribes(doc, w, events)
    _orders(doc, w, events, view.get("tracks", {}).get("iron_throne", []))
    _action(doc, w, events)
    _income(doc, w, events)
    _private(doc, w, events, viewer)
    standing(doc, w, view)
    return doc


def _untold_draws(view: Mapping[str, Any]) -> list[Event]:
    """The dice-off rolled when the game was created (step 0), which no step has told yet: the
    first report already names the rolls and the winner who is asked to place the token."""
    return [Event("holy_draw", {"token": hid, "faces": h["faces"], "winner": h["winner"]})
            for hid, h in view.get("holy", {}).items()
            if h.get("winner") is not None and h.get("area") is None and not h.get("told")]


def _holy(doc: Document, w: Words, untold: Sequence[Event], events: Sequence[Event]) -> None:
    items: list[Inline | Item] = []
    told = {e.data["token"] for e in events if e.kind == "holy_draw"}
    for e in [*(u for u in untold if u.data["token"] not in told), *events]:
        d = e.data
        if e.kind == "holy_draw":
            rolls = []
            for p, faces in d["faces"].items():
                if faces:  # a lone contender takes the token without a roll (ruling T13)
                    rolls.append(f"{w.house(p)} {' · '.join(str(f) for f in faces)}")
            how = "; ".join(rolls) if rolls else w.t("бросков не было", "no rolls")
            items.append(w.t(f"«{w.holy(d['token'])}»: d6 — {how}; жетон → {w.house(d['winner'])}."
                             if rolls else f"«{w.holy(d['token'])}»: единственный претендент — {w.house(d['winner'])}.",
                             f"'{w.holy(d['token'])}': d6 — {how}; the token goes to {w.house(d['winner'])}."
                             if rolls else f"'{w.holy(d['token'])}': the only contender is {w.house(d['winner'])}."))
        elif e.kind == "holy_placed":
            items.append(w.t(f"{w.house(d['player'])}: «{w.holy(d['token'])}» → {w.area(d['area'])}.",
                             f"{w.house(d['player'])}: '{w.holy(d['token'])}' → {w.area(d['area'])}."))
    if items:
        doc.heading(w.t("Святые земли", "Holy lands"))
        doc.bullets(items)


def _diplomacy(doc: Document, w: Words, events: Sequence[Event]) -> None:
    items: list[Inline | Item] = []
    for d in _of(events, "declared"):
        if d["members"]:
            items.append(w.t(f"{w.who(d['player'])}: союз — {', '.join(w.house(m) for m in d['members'])}.",
                             f"{w.who(d['player'])}: alliance with {', '.join(w.house(m) for m in d['members'])}."))
        else:
            items.append(w.t(f"{w.who(d['player'])}: одиночка.", f"{w.who(d['player'])}: alone."))
    formed = _of(events, "alliances")
    if not items and not formed:
        return
    doc.heading(w.t("Дипломатические операции", "Diplomacy"))
    doc.bullets(items)
    for d in formed:
        if d["alliances"]:
            names = "; ".join(", ".join(w.house(p) for p in a) for a in d["alliances"])
            doc.paragraph(bold(w.t("Союзы этого хода: ", "Alliances of this round: ")), names + ".")
        else:
            doc.paragraph(bold(w.t("Союзов нет: ", "No alliances: ")),
                          w.t("все — одиночки.", "every house is alone."))
        dues = {p: n for p, n in d.get("dues", {}).items() if n}
        if dues:
            doc.paragraph(w.t("Взнос Ночному Дозору: ", "Night's Watch dues: ")
                          + ", ".join(f"{w.house(p)} {n}" for p, n in dues.items()) + ".")


def _trade(doc: Document, w: Words, events: Sequence[Event]) -> None:
    items: list[Inline | Item] = []
    for e in events:
        d = e.data
        if e.kind == "purchase":
            items.append(w.t(f"{w.house(d['player'])}: покупка — {w.unit(d['unit'], d['count'])} → {w.area(d['area'])}, "
                             f"по {d['price']} — {w.coins(d['total'])}.",
                             f"{w.house(d['player'])}: bought {w.unit(d['unit'], d['count'])} → {w.area(d['area'])}, "
                             f"{d['price']} each — {w.coins(d['total'])}."))
        elif e.kind == "upgrade":
            items.append(w.t(f"{w.house(d['player'])}: улучшение {w.upgraded(d['unit'], d['count'])}, {w.area(d['area'])}, "
                             f"по {d['price']} — {w.coins(d['total'])}.",
                             f"{w.house(d['player'])}: upgraded {w.upgraded(d['unit'], d['count'])}, "
                             f"{w.area(d['area'])}, {d['price']} each — {w.coins(d['total'])}."))
        elif e.kind == "sale":
            items.append(w.t(f"{w.house(d['player'])}: продажа — {w.unit(d['unit'], d['count'])}, {w.area(d['area'])} — "
                             f"{w.coins(d['value'])}.",
                             f"{w.house(d['player'])}: sold {w.unit(d['unit'], d['count'])}, {w.area(d['area'])} — "
                             f"{w.coins(d['value'])}."))
        elif e.kind == "purchase_refused":
            items.append(w.t(f"{w.house(d['player'])}: {w.unit(d['unit'], d['count'])} не спущены в {w.area(d['area'])} — "
                             "там уже чужие корабли; деньги не взяты.",
                             f"{w.house(d['player'])}: {w.unit(d['unit'], d['count'])} not launched in "
                             f"{w.area(d['area'])} — another house's ships got there first; nothing paid."))
    dues: list[Inline | Item] = [_dues_line(w, d) for d in _of(events, "dues")]
    if not items and not dues:
        return
    doc.heading(w.t("Торговые операции", "Trade"))
    doc.bullets(items)
    if dues:
        doc.paragraph(bold(w.t("Взнос на снабжение Ночного Дозора", "The Night's Watch dues")))
        doc.bullets(dues)


def _dues_line(w: Words, d: Mapping[str, Any]) -> str:
    """«Старк: взнос 5 монет: 3 — монетами, 2 — продажей за номинал (Винтерфелл — 2 пеших).»,
    «Ланнистер: взнос 1 монета — монетами.»: what was owed, and each way it was paid with its sum
    (docs/rulings/thrones.md T8: troops named, coins, then the troops the companion sells)."""
    parts: list[tuple[int, str, str]] = []
    if d["troops_value"]:
        troops = "; ".join(f"{w.area(a)} — {w.units(u)}" for a, u in d["troops"])
        parts.append((int(d["troops_value"]), f"войсками ({troops})", f"in troops ({troops})"))
    if d["coins"]:
        parts.append((int(d["coins"]), "монетами", "in coins"))
    if d["forced"]:
        forced = "; ".join(f"{w.area(a)} — {w.units(u)}" for a, u in d["forced"])
        value = sum(w.ctx.rules.units[k].sale * int(n) for _, u in d["forced"] for k, n in u.items())
        parts.append((value, f"продажей за номинал ({forced})", f"by sale at nominal ({forced})"))
    if d["unpaid"]:
        parts.append((int(d["unpaid"]), "не уплачено: продавать нечего", "unpaid: nothing left to sell"))
    due = int(d["due"])
    owed = w.t(f"взнос {w.coins(due)}", f"dues of {w.coins(due)}") if due else w.t("взноса нет", "no dues")
    if not parts:
        return f"{w.house(d['player'])}: {owed}."
    if len(parts) == 1 and parts[0][0] == due:
        return f"{w.house(d['player'])}: {owed} — {w.t(parts[0][1], parts[0][2])}."
    listed = ", ".join(w.t(f"{n} — {ru}", f"{n} {en}") for n, ru, en in parts)
    return f"{w.house(d['player'])}: {owed}: {listed}."


def _westeros(doc: Document, w: Words, events: Sequence[Event]) -> None:
    found = _of(events, "westeros")
    if not found:
        return
    doc.heading(w.t("Фаза Вестероса", "Westeros"))
    for d in found:
        if d["cards"]:
            base = ", ".join(f"«{BASE_CARDS[c][0]}»" if w.ru else f"'{BASE_CARDS[c][1]}'" for c in d["cards"])
            doc.paragraph(w.t(f"Сыграли карты: {base}.", f"Cards played: {base}."))
        else:
            doc.paragraph(w.t("Ни «Снабжения», ни «Битвы королей»: колоды Вестероса сыграны у стола.",
                              "Neither 'Supply' nor 'Clash of Kings': the Westeros decks are played at the table."))
        if d.get("card"):
            card = w.ctx.rules.card(d["card"]) if d["card"] else None
            how = (w.t(f" (вытянута программой: d{d['left']} → {d['draw']})", f" (drawn by the companion: "
                       f"d{d['left']} → {d['draw']})") if d.get("drawn_by") == "companion" else "")
            text = card.text(w.lang) if card is not None else ""
            doc.paragraph(bold(w.t("Четвёртая карта: ", "Fourth card: ")), f"{w.q(w.card(d['card']))}{how}. {text}".strip())
    for d in _of(events, "supply"):
        doc.paragraph(w.t("Снабжение: ", "Supply: ") + ", ".join(f"{w.house(p)} {n}" for p, n in d["levels"].items()) + ".")


def _clash(doc: Document, w: Words, events: Sequence[Event]) -> None:
    rows = _of(events, "bids", "tiebreak", "track")
    if not rows:
        return
    doc.heading(w.t("Битва королей", "Clash of Kings"))
    for e in events:
        d = e.data
        if e.kind == "bids":
            name = TRACK_NAMES[d["track"]][0 if w.ru else 1]
            bids = ", ".join(f"{w.house(p)} {n}" for p, n in sorted(d["bids"].items(), key=lambda x: -x[1]))
            doc.paragraph(bold(w.t(f"«{name}»: ", f"{name}: ")), w.t(f"ставки {bids}.", f"bids {bids}."))
        elif e.kind == "tiebreak" and d["order"]:
            doc.paragraph(w.t(f"Равные ставки расставил Железный трон ({w.house(d['player'])}): "
                              f"{', '.join(w.house(p) for p in d['order'])}.",
                              f"The Iron Throne ({w.house(d['player'])}) ordered the equal bids: "
                              f"{', '.join(w.house(p) for p in d['order'])}."))
        elif e.kind == "tiebreak":
            # ruling T20: the Iron Throne sent nothing; the equal bidders keep their order on the track
            doc.paragraph(w.t(f"Железный трон ({w.house(d['player'])}) не расставил равные ставки: они остались "
                              "в прежнем порядке трека.",
                              f"The Iron Throne ({w.house(d['player'])}) did not order the equal bids: they keep "
                              "their order on the track."))
        elif e.kind == "track":
            name = TRACK_NAMES[d["track"]][0 if w.ru else 1]
            doc.paragraph(w.t(f"Трек «{name}»: ", f"The {name} track: ") + ", ".join(
                f"{i + 1}. {w.house(p)}" for i, p in enumerate(d["order"])) + ".")


def _bribes(doc: Document, w: Words, events: Sequence[Event]) -> None:
    items: list[Inline | Item] = []
    for e in events:
        d = e.data
        if e.kind == "bribe":
            faces = ", ".join(str(f) for f in d["faces"])
            roll = (w.t(f"на кубике {d['roll']}", f"the die shows {d['roll']}") if d["roll"] is not None
                    else w.t("без броска (ушестерённая ставка)", "no roll (six times the nominal)"))
            result = (w.t("перешли на его сторону", "changed sides") if d["success"]
                      else w.t("деньги взяли, но не перешли", "took the money and stayed"))
            items.append(w.t(
                f"{w.house(d['player'])} → {w.house(d['target'])}, {w.area(d['area'])} ({w.units(d['units'])}): "
                f"ставка {d['stake']} ({d['times']}× номинал), цифры {faces}; {roll} — {result}.",
                f"{w.house(d['player'])} → {w.house(d['target'])}, {w.area(d['area'])} ({w.units(d['units'])}): "
                f"stake {d['stake']} ({d['times']}x the nominal), faces {faces}; {roll} — {result}."))
        elif e.kind == "bribe_pass":
            items.append(w.t(f"{w.house(d['player'])}: пас.", f"{w.house(d['player'])}: pass."))
        elif e.kind == "bribe_void":
            items.append(w.t(f"{w.house(d['player'])}: войска в {w.area(d['area'])} уже сменили хозяина — попытки нет.",
                             f"{w.house(d['player'])}: the army in {w.area(d['area'])} had already changed hands — "
                             "no attempt."))
    if items:
        doc.heading(w.t("Рука Мизинца", "Littlefinger's Hand"))
        doc.bullets(items)


def _orders(doc: Document, w: Words, events: Sequence[Event], order: Sequence[str]) -> None:
    for d in _of(events, "orders"):
        by_house: dict[str, list[str]] = {}
        for area, placed in d["orders"].items():
            name = ORDER_NAMES[placed["kind"]][0 if w.ru else 1]
            by_house.setdefault(placed["house"], []).append(f"{name} — {w.area(area)}")
        # in the turn order, as the orders are carried out («в порядке очередности хода»)
        turn_order = {p: i for i, p in enumerate(order)}
        items: list[Inline | Item] = [f"{w.house(p)}: {'; '.join(lines)}." for p, lines in
                                      sorted(by_house.items(), key=lambda pl: turn_order.get(pl[0], len(turn_order)))]
        for passage in d["passages"]:
            items.append(w.t(f"Пропуск: {w.house(passage['by'])} → {w.house(passage['to'])}, {w.area(passage['area'])}.",
                             f"{w.house(passage['by'])} lets {w.house(passage['to'])} pass through "
                             f"{w.area(passage['area'])}."))
        if items:
            doc.heading(w.t("Приказы", "Orders"))
            doc.bullets(items)


def _action(doc: Document, w: Words, events: Sequence[Event]) -> None:
    items: list[Inline | Item] = []
    for e in events:
        d = e.data
        k = e.kind
        if k == "raid":
            if d.get("order") is None:
                items.append(w.t(f"{w.house(d['player'])}: набег {w.area(d['from'])} → {w.area(d['to'])} — приказа там уже нет.",
                                 f"{w.house(d['player'])}: raid {w.area(d['from'])} → {w.area(d['to'])} — no order left there."))
            else:
                name = ORDER_NAMES[d["order"]][0 if w.ru else 1]
                extra = w.t(" (+1 жетон власти набегу, −1 ограбленному)", " (+1 power to the raider, −1 to the raided)") \
                    if d["order"] == "consolidate" else ""
                items.append(w.t(f"{w.house(d['player'])}: набег {w.area(d['from'])} → {w.area(d['to'])} снимает «{name}» "
                                 f"{w.house(d['victim'])}{extra}.",
                                 f"{w.house(d['player'])}: raid {w.area(d['from'])} → {w.area(d['to'])} removes "
                                 f"{w.house(d['victim'])}'s '{name}'{extra}."))
        elif k == "battle":
            items.append(battle_text(w, d["strength"], d.get("outcome")))
        elif k == "march":
            how = ", ".join(TRANSITS[x][0 if w.ru else 1] for x in d.get("transits", []) if x in TRANSITS)
            how = f" ({how})" if how else ""
            result = {"won": w.t(" — победа", " — won"), "lost": w.t(" — поражение, войска остались на месте",
                                                                     " — lost, the army stayed")}.get(d.get("outcome") or "", "")
            if not d.get("applied") and d.get("raided_support"):
                result = w.t(f" — не состоялся: набег снял подмогу союзника, {w.area(d['raided_support'])}",
                             f" — not made: a raid removed the ally's support, {w.area(d['raided_support'])}")
            elif not d.get("applied"):
                result = w.t(" — не записан: там уже стоит другой дом, поправьте войска",
                             " — not recorded: another house stands there, correct the units")
            items.append(f"{w.house(d['player'])}: {w.t('поход', 'march')} {w.path(d['path'])}, {w.units(d['units'])}"
                         f"{how}{result}.")
        elif k == "losses":
            items.append(w.t(f"{w.house(d['player'])}: потери, {w.area(d['area'])} — {w.units(d['units'])}.",
                             f"{w.house(d['player'])}: losses, {w.area(d['area'])} — {w.units(d['units'])}."))
        elif k == "retreat":
            items.append(w.t(f"{w.house(d['player'])}: отступление {w.area(d['from'])} → {w.area(d['to'])}, "
                             f"{w.units(d['units'])}.",
                             f"{w.house(d['player'])}: retreat {w.area(d['from'])} → {w.area(d['to'])}, "
                             f"{w.units(d['units'])}."))
        elif k == "destroyed":
            why = WHY_DESTROYED.get(d.get("why", ""), ("", ""))[0 if w.ru else 1]
            items.append(w.t(f"{w.house(d['player'])}: уничтожено, {w.area(d['area'])} — {w.units(d['units'])} ({why}).",
                             f"{w.house(d['player'])}: destroyed, {w.area(d['area'])} — {w.units(d['units'])} ({why})."))
        elif k == "garrison_taken":
            items.append(w.t(f"{w.house(d['player'])}: гарнизон {w.area(d['area'])} ({d['garrison']}) разбит.",
                             f"{w.house(d['player'])}: the garrison of {w.area(d['area'])} ({d['garrison']}) is beaten."))
        elif k == "token_removed":
            items.append(w.t(f"Жетон власти {w.house(d['player'])} снят: {w.area(d['area'])}.",
                             f"{w.house(d['player'])}'s power token removed: {w.area(d['area'])}."))
        elif k == "token":
            items.append(w.t(f"{w.house(d['player'])}: жетон власти → {w.area(d['area'])}." if d["placed"] else
                             f"{w.house(d['player'])}: жетон власти не положен (там войска или жетон), {w.area(d['area'])}.",
                             f"{w.house(d['player'])}: power token → {w.area(d['area'])}." if d["placed"] else
                             f"{w.house(d['player'])}: power token not placed (units or a token there), {w.area(d['area'])}."))
        elif k == "record":
            items.append(w.t(f"{w.house(d['player'])}: записано, {w.area(d['area'])} — {w.units(d['units'])}.",
                             f"{w.house(d['player'])}: recorded, {w.area(d['area'])} — {w.units(d['units'])}."))
        elif k == "disband":
            why = w.t(" (предел снабжения)", " (supply limit)") if d.get("why") == "supply" else ""
            items.append(w.t(f"{w.house(d['player'])}: распущено, {w.area(d['area'])} — {w.units(d['units'])}{why}.",
                             f"{w.house(d['player'])}: disbanded, {w.area(d['area'])} — {w.units(d['units'])}{why}."))
        elif k == "power":
            reason = f" ({d['reason']})" if d.get("reason") else ""
            items.append(w.t(f"{w.house(d['player'])}: власть на поле {int(d['amount']):+d}{reason}.",
                             f"{w.house(d['player'])}: power on the board {int(d['amount']):+d}{reason}."))
    if items:
        doc.heading(w.t("Действия", "Action"))
        doc.bullets(items)


def _income(doc: Document, w: Words, events: Sequence[Event]) -> None:
    for d in _of(events, "income"):
        rows = []
        for p, inc in d["income"].items():
            rows.append([w.house(p), str(inc["crowns"]), str(inc["consolidate"]), str(inc["total"])])
        doc.heading(w.t("Доход", "Income"))
        doc.table([w.t("дом", "house"), w.t("короны", "crowns"), w.t("усиление власти", "consolidate"),
                   w.t("всего", "total")], rows, "lrrr")
        doc.paragraph(w.t("Доход берётся из запаса дома: сверх запаса ничего не приходит.",
                          "Income comes from a house's reserve: nothing comes beyond it."))
    for d in _of(events, "game_over"):
        doc.heading(w.t("Конец игры", "The end of the game"))
        castles = ", ".join(f"{w.house(p)} {n}" for p, n in d["castles"].items())
        winner = d["winners"][0]
        need = w.ctx.rules.game.castles_to_win
        if d["reason"] == "castles":
            reason = w.t(f"{counted(need, 'замок')} и крепостей — столько, сколько нужно для победы",
                         f"{need} castles and strongholds, as many as win the game")
        else:
            reason = w.t("больше всех замков и крепостей к концу последнего хода",
                         "the most castles and strongholds at the end")
            best = d["castles"].get(winner, 0)
            tied = [p for p, n in d["castles"].items() if n == best and p != winner]
            if tied:
                # T24: a tie broken by lands held, then the supply track, tokens in hand, the Iron Throne
                others = join_and([w.house(p) for p in tied], w.lang)
                declined = join_and([name_in_case(w.house(p), "ablt") for p in tied], w.lang)
                with_others = with_name(w.house(tied[0])).split(" ", 1)[0] + " " + declined
                reason = w.t(f"замков и крепостей к концу последнего хода поровну {with_others} "
                             f"(по {best}); ничью решают земли, затем снабжение, жетоны на руках и трек «Железный трон»",
                             f"as many castles and strongholds at the end as {others} ({best} each); the tie goes by "
                             "lands held, then supply, tokens in hand and the Iron Throne track")
        doc.paragraph(bold(w.t("Победил: ", "Winner: ")), f"{w.who(winner)} — {reason}.")
        doc.paragraph(w.t(f"Замки и крепости: {castles}.", f"Castles and strongholds: {castles}."))


def _private(doc: Document, w: Words, events: Sequence[Event], viewer: Viewer) -> None:
    items: list[Inline | Item] = []
    for e in events:
        d = e.data
        if e.kind == "transfer":
            # the post's «за «подмогу»»: the service paid for, with its preposition
            reason = w.t(f" за {w.q(d['reason'])}", f" for {w.q(d['reason'])}") if d.get("reason") else ""
            if str(d.get("reason", "")).startswith("deal:"):
                number = str(d["reason"])[5:]
                reason = w.t(f" по сделке №{number}", f" for deal #{number}")
            back = (w.t(f"; принято {d['amount']} из {d['offered']}: запас получателя полон",
                        f"; {d['amount']} of {d['offered']} accepted: the recipient's reserve was full")
                    if d["amount"] != d["offered"] else "")
            items.append(w.t(f"Перевод {w.house(d['from'])} → {w.house(d['to'])}: {w.coins(d['amount'])}{reason}{back}.",
                             f"Payment {w.house(d['from'])} → {w.house(d['to'])}: {w.coins(d['amount'])}{reason}{back}."))
        elif e.kind in ("deal_offered", "deal_accepted", "deal_declined", "deal_lapsed"):
            status = {"deal_offered": w.t("предложена", "offered"), "deal_accepted": w.t("принята и оплачена",
                                                                                          "accepted and paid"),
                      "deal_declined": w.t("отклонена", "declined"),
                      "deal_lapsed": w.t("не состоялась", "lapsed")}[e.kind]
            if e.kind == "deal_lapsed":
                status += w.t(" (у плательщика не хватило денег)", " (the payer lacked the money)") \
                    if d.get("why") == "funds" else w.t(" (без ответа до конца хода)", " (unanswered by the end of the round)")
            items.append(w.t(f"Сделка №{d['id']}: {w.house(d['by'])} → {w.house(d['to'])}, {w.coins(d['amount'])} "
                             f"за «{d['service']}» — {status}.",
                             f"Deal #{d['id']}: {w.house(d['by'])} pays {w.house(d['to'])} {w.coins(d['amount'])} "
                             f"for '{d['service']}' — {status}."))
        elif e.kind == "order_refused":
            items.append(w.t(f"Не выполнено: «{d['order'].get('text') or d['order']['kind']}» — {d['why_ru']}.",
                             f"Not carried out: '{d['order'].get('text') or d['order']['kind']}' — {d['why_en']}."))
    if items:
        doc.heading(w.t("Переводы и сделки", "Payments and deals") if viewer != GM else
                    w.t("Переводы, сделки, отказы (для ведущего)", "Payments, deals, refusals (game master)"))
        doc.bullets(items)
    for d in _of(events, "statement"):
        rows: list[list[Inline]] = [[w.t("на начало хода", "opening"), str(d["opening"])]]
        for line in d["lines"]:
            name = STATEMENT_ITEMS.get(line["item"], (line["item"], line["item"]))[0 if w.ru else 1]
            note = line.get("note", "")
            if line["item"] == "reserve_cap":
                rows.append([name, f"({note})"])
                continue
            if line["item"] in INFO_ITEMS:
                # a line that moves no token: what was owed, which troops went, what went unpaid
                if line["item"] in ("dues_owed", "dues_unpaid"):
                    name = f"{name} {note}" if line["item"] == "dues_owed" else f"{name} ({note})"
                else:
                    area, units = note_units(note)
                    value = sum(w.ctx.rules.units[k].sale * int(n) for k, n in units.items())
                    name = (f"{name}: {w.area(area)} — {w.units(units)} "
                            f"({w.t('номинал', 'nominal')} {value})")
                rows.append([name, "—"])
                continue
            if line["item"] in ("transfer_out", "transfer_in", "deal_out", "transfer_back") and note:
                who, _, rest = note.partition(":")
                rest = rest.strip()
                if rest.startswith("deal:"):
                    name = f"{name}: {w.house(who)} ({w.t('сделка №', 'deal #')}{rest[5:]})"
                else:
                    name = f"{name}: {w.house(who)}" + (w.t(f" — за {w.q(rest)}", f" — for {w.q(rest)}") if rest else "")
            elif note and line["item"] == "bid" and note in TRACK_NAMES:
                name = f"{name}: {TRACK_NAMES[note][0 if w.ru else 1]}"
            elif note and line["item"] in ("board", "purchase", "sale", "upgrade", "bribe", "token", "raid_gain",
                                           "raid_loss"):
                shown = w.area(note) if note in w.ctx.board else note
                name = f"{name}: {shown}"
            rows.append([name, f"{int(line['amount']):+d}" if line["amount"] else "0"])
        rows.append([bold(w.t("на конец хода", "closing")), bold(str(d["closing"]))])
        title = w.t(f"Казна: {w.house(d['player'])}", f"Treasury: {w.house(d['player'])}")
        doc.heading(title)
        doc.table([w.t("статья", "item"), w.t("жетоны", "tokens")], rows, "lr")


def standing(doc: Document, w: Words, view: Mapping[str, Any]) -> None:
    ctx = w.ctx
    doc.heading(w.t("Положение", "Standing"))
    tracks = view.get("tracks", {})
    for track in TRACKS:
        if track in tracks:
            name = TRACK_NAMES[track][0 if w.ru else 1]
            doc.paragraph(bold(f"{name}: "), ", ".join(w.house(p) for p in tracks[track]) + ".")
    rows = []
    for p in view.get("seats", []):
        castles = castles_held(view, ctx.board, p)
        units = {k: sum(int(info["units"][k]) for info in view["board"].values() if info["house"] == p)
                 for k in UNIT_KINDS}
        tokens = sum(1 for info in view["board"].values() if info["token"] == p)
        rows.append([w.who(p), str(view.get("supply", {}).get(p, 0)), str(castles), w.units(units), str(tokens)])
    doc.table([w.t("дом", "house"), w.t("снабжение", "supply"), w.t("замки", "castles"), w.t("войска", "units"),
               w.t("жетоны на поле", "tokens on board")], rows, "lrrlr")
    holy_lines = []
    card = view.get("card")
    for hid, h in view.get("holy", {}).items():
        if h.get("area") is None:
            continue
        spec = ctx.rules.holy_place(hid)
        info = view["board"][h["area"]]
        servant = info["house"] if info["house"] is not None and int(info["units"][spec.unit]) > 0 else None
        active = card is not None and card.get("turn") == view.get("turn") and _card_holy(ctx, card["id"]) == hid
        text = f"{w.q(spec.name(w.lang))} — {w.area(h['area'])}"
        if servant is not None:
            text += w.t(f", служитель: {w.house(servant)}", f", servant: {w.house(servant)}")
        if active and servant is not None:
            stats = ctx.rules.units[spec.unit]
            text += w.t(f"; бонус в силе: {w.house(servant)}, {inflect_phrase(stats.name_ru, 'nomn', plural=True)} +1 "
                        "к боевой силе",
                        f"; the bonus is in force: {w.house(servant)}'s {stats.plural_en or stats.name_en + 's'} "
                        "+1 combat strength")
        holy_lines.append(text + ".")
    if holy_lines:
        doc.paragraph(bold(w.t("Святые места", "Holy places")))
        doc.bullets(holy_lines)
    if card:
        fourth = ctx.rules.card(card["id"]) if _known_card(ctx, card["id"]) else None
        doc.paragraph(bold(w.t("Четвёртая карта в силе: ", "The fourth card in force: ")),
                      w.q(w.card(card["id"])) + (f" — {fourth.text(w.lang)}" if fourth and fourth.text(w.lang) else ""))
    alliances = view.get("alliances", [])
    if alliances:
        doc.paragraph(bold(w.t("Союзы: ", "Alliances: ")), "; ".join(", ".join(w.house(p) for p in a) for a in alliances) + ".")
    me = view.get("me")
    if me is not None:
        doc.paragraph(bold(w.t("На руках: ", "In hand: ")),
                      w.t(f"{w.coins(int(me['power']))}; в запасе {me['reserve']}.",
                          f"{w.coins(int(me['power']))}; {me['reserve']} in the reserve."))
    deals = [d for d in view.get("deals", []) if d["status"] == "offered"]
    if deals:
        doc.paragraph(bold(w.t("Сделки ждут ответа", "Deals awaiting an answer")))
        doc.bullets([w.t(f"№{d['id']}: {w.house(d['by'])} → {w.house(d['to'])}, {w.coins(d['amount'])} за «{d['service']}».",
                         f"#{d['id']}: {w.house(d['by'])} pays {w.house(d['to'])} {w.coins(d['amount'])} for '{d['service']}'.")
                     for d in deals])


def _card_holy(ctx: Ctx, card_id: str) -> str | None:
    try:
        card = ctx.rules.card(card_id)
    except KeyError:
        return None
    return card.holy if card.effect == "holy" else None


def _known_card(ctx: Ctx, card_id: str) -> bool:
    try:
        ctx.rules.card(card_id)
    except KeyError:
        return False
    return True
