"""The campaign's reports: each faction's turn (treasury, resource, army, cities, orders not
carried out, what it learnt, its battles in full) and the public chronicle, built as documents
of the core report model (docs/reports.md) from a view and the events the viewer may see."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from voevoda.core.markup import Document, Heading, Inline, Item, Table, bold
from voevoda.core.ruleset import GM, PUBLIC, Event, Order
from voevoda.core.words import (
    Names,
    counted,
    inflect_phrase,
    join_and,
    number,
    past,
    thing_accusative,
)
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, PowderShare, SquadInput
from voevoda.rulesets.steel_rose.battle.report import battle_document
from voevoda.rulesets.steel_rose.battle.words import manoeuvre_text, powder_text, squad_line, unit_counted
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, Campaign
from voevoda.rulesets.steel_rose.campaign.orders import CHOICE_EN, CHOICE_RU, MOBILE_ID

# Grammatical gender of each faction's Russian name, for the verbs that follow it.
FACTION_GENDER = {"empire": "f", "steel_rose": "n", "heaven": "plural", "void_cult": "m", "ogres": "plural"}
# Each faction's Russian name in the cases the reports need («предать Империю», «союз с Культом
# пустоты», «против Огров»), used while the data keeps the document's names.
FACTION_CASES_RU: dict[str, dict[str, str]] = {
    "empire": {"nomn": "Империя", "gent": "Империи", "datv": "Империи", "accs": "Империю", "ablt": "Империей"},
    "steel_rose": {"nomn": "Княжество стальной розы", "gent": "Княжества стальной розы",
                   "datv": "Княжеству стальной розы", "accs": "Княжество стальной розы",
                   "ablt": "Княжеством стальной розы"},
    "heaven": {"nomn": "Благословлённые небом", "gent": "Благословлённых небом", "datv": "Благословлённым небом",
               "accs": "Благословлённых небом", "ablt": "Благословлёнными небом"},
    "void_cult": {"nomn": "Культ пустоты", "gent": "Культа пустоты", "datv": "Культу пустоты", "accs": "Культ пустоты",
                  "ablt": "Культом пустоты"},
    "ogres": {"nomn": "Огры", "gent": "Огров", "datv": "Ограм", "accs": "Огров", "ablt": "Ограми"},
}
RESOURCE_RU = {"empire": "честь", "steel_rose": "порох", "heaven": "мана", "void_cult": "голод пустоты", "ogres": "мясо"}


@lru_cache(maxsize=512)
def _neuter(verb: str) -> str:
    """A masculine past-tense verb made neuter («захватил» -> «захватило»)."""
    words = verb.split(" ")
    for parse in _analyzer().parse(words[0].lower()):
        if parse.tag.POS == "VERB" and "past" in parse.tag:
            got = parse.inflect({"neut", "sing"})
            if got is not None:
                words[0] = str(got.word)
                return " ".join(words)
    return verb


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def city_accusative(name: str) -> str:
    """A Russian city name after «за» («битва за Чёрную Топь», «за Парящую крепость», «за
    Сильванию»; «за Эльдаран», «за Пик кошмаров»). The names are the map's own, mostly unknown to
    the dictionary: feminine ones are told by their endings — an adjective in «-ая» before its
    noun, a noun in «-а», «-я» or «-ь»."""
    words = name.split(" ")
    if len(words) >= 2 and words[0].endswith("ая"):
        words[0] = words[0][:-2] + "ую"
        noun = words[1]
    elif len(words) == 1:
        noun = words[0]
    else:
        return name
    i = words.index(noun)
    if noun.endswith("а"):
        words[i] = noun[:-1] + "у"
    elif noun.endswith("я"):
        words[i] = noun[:-1] + "ю"
    return " ".join(words)


def city_locative(name: str) -> str:
    """A Russian city name after «в»: «в Авентале», «в Розентале» (a city in «-ль» is masculine),
    «в Хольмгарде», «в Сильвании», «в Парящей крепости», «в Чёрной Топи», «в Лунном Лесу», «в Пике
    кошмаров». The map's names, told by their endings as :func:`city_accusative` tells them; the
    order reader knows every one of these forms (names.name_forms)."""
    words = name.split(" ")

    def noun_loct(noun: str, feminine: bool) -> str:
        if noun.endswith("ия"):
            return noun[:-1] + "и"
        if noun.endswith(("а", "я")):
            return noun[:-1] + "е"
        if noun.endswith("ь"):
            return noun[:-1] + ("и" if feminine else "е")
        if noun.lower() == "лес":
            return noun + "у"   # the second locative: «в лесу»
        if noun[-1:].lower() in "бвгджзклмнпрстфхцчшщ":
            return noun + "е"
        return noun

    if len(words) >= 2 and words[0].endswith("ая"):
        stem = words[0][:-2]
        words[0] = stem + ("ей" if stem[-1:] in "жчшщ" else "ой")
        words[1] = noun_loct(words[1], feminine=True)
    elif len(words) >= 2 and words[0].endswith(("ый", "ий", "ой")):
        stem = words[0][:-2]
        words[0] = stem + ("ем" if words[0].endswith("ий") and stem[-1:] not in "гкх" else "ом")
        words[1] = noun_loct(words[1], feminine=False)
    else:
        # «Пик кошмаров»: the head noun first, what follows it stays
        words[0] = noun_loct(words[0], feminine=False)
    return " ".join(words)


class Words:
    """The campaign's names and verbs in one language."""

    def __init__(self, campaign: Campaign, lang: str) -> None:
        self.c = campaign
        self.ru = lang == "ru"
        self.lang = lang

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def faction(self, fid: str | None) -> str:
        if fid is None:
            return self.t("никто", "nobody")
        f = self.c.rules.factions.get(fid)  # type: ignore[call-overload]
        return (f.name_ru if self.ru else f.name_en) if f else fid

    def faction_in(self, fid: str | None, case: str) -> str:
        """The faction's name after a preposition or as an object: «предать Империю», «союз с
        Культом пустоты»; English: "the Void Cult"."""
        if not self.ru:
            return self.the_faction(fid)
        name = self.faction(fid)
        table = FACTION_CASES_RU.get(fid or "")
        if table is not None and table["nomn"] == name:
            return table.get(case, name)
        return inflect_phrase(name, case, plural=FACTION_GENDER.get(fid or "") == "plural")

    def did(self, fid: str | None, verb_ru: str, verb_en: str) -> str:
        """«Империя захватила», «Огры захватили», «Княжество захватило»; "the Empire took"."""
        if not self.ru:
            return f"{self.the_faction(fid, capital=True)} {verb_en}"
        gender = FACTION_GENDER.get(fid or "", "m")
        verbs = []
        for part in verb_ru.split(" и "):  # «разрушил и бросил»: each verb agrees
            if gender == "n":
                verbs.append(_neuter(part))
            else:
                verbs.append(past(part, "f" if gender == "f" else None, plural=gender == "plural"))
        return f"{self.faction(fid)} {' и '.join(verbs)}"

    def the_city(self, cid: str | None) -> str:
        """«город Морвен» / the city's name: a city's name stands in the nominative after «город»,
        whatever the verb before it needs (the names are not all in the dictionary)."""
        if cid == MOBILE_ID:
            return self.t("передвижной город огров", "the ogres' mobile city")
        return self.t(f"город {self.city(cid)}", self.city(cid))

    def the_faction(self, fid: str | None, capital: bool = False) -> str:
        """English: «the Empire», «the Ogres» (a faction's name takes the article)."""
        if fid is None:
            return self.t("никто", "Nobody" if capital else "nobody")
        if self.ru:
            return self.faction(fid)
        return ("The " if capital else "the ") + self.faction(fid)

    def city_for(self, cid: str | None) -> str:
        """The city after «битва за»: «Чёрную Топь»; English: the name."""
        name = self.city(cid)
        return city_accusative(name) if self.ru else name

    def army_action(self, action: str, target: Any) -> str:
        """An army's order as Russian says it: «атака на Пик кошмаров», «телепортация на Чёрную
        Топь» (the city in the accusative after «на»), «оборона города Вельмар» (a name after
        «города» stays in the nominative: the map's names are not all in the dictionary),
        «рассредоточиться»; "attack Morven", "teleport to Ormis", "defend Velmar", "disperse"."""
        if action == "disperse" or target is None:
            return self.t("рассредоточиться", "disperse") if action == "disperse" else action
        cid = str(target)
        if action == "defend":
            if cid == MOBILE_ID:
                return self.t("оборона передвижного города огров", "defend the ogres' mobile city")
            return self.t(f"оборона города {self.city(cid)}", f"defend {self.city(cid)}")
        verb_ru, verb_en = ("телепортация на", "teleport to") if action == "teleport" else ("атака на", "attack")
        if cid == MOBILE_ID:
            return self.t(f"{verb_ru} передвижной город огров", f"{verb_en} the ogres' mobile city")
        return self.t(f"{verb_ru} {self.city_for(cid)}", f"{verb_en} {self.city(cid)}")

    def city(self, cid: str | None) -> str:
        if cid is None:
            return "—"
        if cid == MOBILE_ID and self.c.map.mobile is not None:
            return self.c.map.mobile.name_ru if self.ru else self.c.map.mobile.name_en
        city = self.c.map.cities.get(cid)
        return (city.name_ru if self.ru else city.name_en) if city else cid

    def unit(self, uid: str) -> str:
        u = self.c.rules.units.get(uid)
        if u is None:
            return uid
        return u.name_ru.lower() if self.ru else u.name_en.lower()

    def units(self, counts: Mapping[str, int], case: str = "nomn") -> str:
        """«20 копейщиков, 6 рыцарей и 2 всадника на грифонах»; after a verb (``accs``): «нанять 10
        копейщиков и 2 лучников», «нанять 1 лучника»."""
        parts = [unit_counted(self.c.rules, u, n, self.lang, case) if u in self.c.rules.units
                 else counted(n, u, self.lang, case=case) for u, n in counts.items() if n]
        return join_and(parts, self.lang) or self.t("никого", "nobody")

    def building(self, fid: str | None, bid: str) -> str:
        if fid is None:
            return bid
        b = self.c.buildings.of(fid).get(bid)
        return (b.name_ru if self.ru else b.name_en) if b else bid

    def building_accs(self, fid: str | None, bid: str) -> str:
        """A building as the object of a verb: «построить Оружейную мастерскую»."""
        name = self.building(fid, bid)
        return thing_accusative(name) if self.ru else name

    def resource(self, fid: str) -> str:
        f = self.c.faction(fid)
        return f.resource_ru if self.ru else f.resource_en

    def gold(self, amount: float, signed: bool = False) -> str:
        return number(amount, self.lang, signed=signed) + self.t("з", " gold")

    def amount(self, value: float, signed: bool = False) -> str:
        return number(value, self.lang, signed=signed)

    def spell(self, sid: str) -> str:
        s = self.c.model.heaven.spells[sid]  # type: ignore[index]
        return s.name_ru if self.ru else s.name_en

    def ritual(self, rid: str) -> str:
        r = self.c.model.void.rituals[rid]  # type: ignore[index]
        return r.name_ru if self.ru else r.name_en

    def epoch(self, eid: str) -> str:
        for e in self.c.model.epochs:
            if e.id == eid:
                return e.name_ru if self.ru else e.name_en
        return eid

    def choice(self, choice: str) -> str:
        return CHOICE_RU.get(choice, choice) if self.ru else CHOICE_EN.get(choice, choice)


# ----------------------------------------------------------------------------- orders echoed

def describe_order(campaign: Campaign, order: Order, lang: str) -> str:
    w = Words(campaign, lang)
    a = order.args
    k = order.kind
    if k == "build":
        return w.t("построить", "build") + f" {w.building_accs(_owner_of(campaign, a), str(a['building']))} " + \
            w.t("в городе", "in") + f" {w.city(str(a['city']))}"
    if k == "sell":
        return w.t("продать", "sell") + f" {w.building_accs(_owner_of(campaign, a), str(a['building']))} " + \
            w.t("в городе", "in") + f" {w.city(str(a['city']))}"
    if k == "raise":
        to = a.get("to")
        return w.t("повысить", "raise") + f" {w.city(str(a['city']))}" + (f" {w.t('до', 'to')} {to}" if to else "")
    if k == "restore":
        return w.t("восстановить", "restore") + f" {w.city(str(a['city']))}"
    if k == "hire":
        return w.t("нанять", "hire") + " " + w.units(dict(a["units"]), "accs")
    if k == "cleanse":
        # «Очистить Вельмар за честь»: the payment is echoed, else a player reads it as gold
        paid = w.t(" за ресурс фракции", " for the faction's resource") if a.get("pay") == "resource" else ""
        return w.t("очистить", "cleanse") + f" {w.city(str(a['city']))}{paid}"
    if k == "army":
        units = a["units"]
        shown = w.t("все", "all") if units == "all" else w.t("остальные", "the rest") if units == "rest" \
            else w.units(dict(units))
        text = f"{w.t('армия', 'army')} {a['name']}: {shown} — {w.army_action(str(a['action']), a.get('target'))}"
        if a.get("choice"):
            text += f" ({w.choice(str(a['choice']))})"
        return text
    if k == "spell":
        target = a.get("city") or a.get("faction") or a.get("army")
        shown = w.city(str(target)) if a.get("city") else w.the_faction(str(target)) if a.get("faction") else \
            f"{w.t('армия', 'army')} {target}"
        return f"{w.t('заклинание', 'spell')}: {w.spell(str(a['spell']))} — {shown}"
    if k == "ritual":
        text = f"{w.t('ритуал', 'ritual')}: {w.ritual(str(a['ritual']))}"
        if a.get("city"):
            text += f" — {w.city(str(a['city']))}"
        if a.get("units"):
            text += f" — {w.units(dict(a['units']))}"
        return text
    if k == "alliance":
        return w.t("союз с", "alliance with") + f" {w.faction_in(str(a['faction']), 'ablt')}"
    if k == "break":
        return w.t("разорвать союз с", "break the alliance with") + f" {w.faction_in(str(a['faction']), 'ablt')}"
    if k == "betray":
        return w.t("предать", "betray") + f" {w.faction_in(str(a['faction']), 'accs')}" + (
            ": " + ", ".join(w.city(str(c)) for c in a.get("cities", [])) if a.get("cities") else "")
    if k == "demons":
        return w.t("демоны", "demons") + ": " + w.units(dict(a["units"]))
    if k == "mobile":
        return w.t("передвижной город", "mobile city") + ": " + " — ".join(w.city(str(c)) for c in a["road"])
    if k == "garrison":
        squads = [SquadInput.from_json(sq) for sq in a["squads"]]
        return w.t(f"гарнизон города {w.city(str(a['city']))} — ", f"garrison of {w.city(str(a['city']))} — ") + \
            "; ".join(squad_line(campaign.rules, sq.position, sq.units, lang) for sq in squads)
    if k == "template":
        text = w.t(f"город {w.city(str(a['city']))}: уровень {a['level']}",
                   f"{w.city(str(a['city']))}: level {a['level']}")
        if a.get("raise_from"):  # what the level written implies (ruling C18)
            text += w.t(f" — повысить с {a['raise_from']} до {a['level']} ({w.gold(-int(a['raise_cost']), signed=True)})",
                        f" — raise from {a['raise_from']} to {a['level']} ({w.gold(-int(a['raise_cost']), signed=True)})")
        return text
    if k == "template_buildings":
        # the faction whose buildings these are (a «Барак» is the Empire's and the Principality's)
        named = [str(b) for b in a["buildings"]] + [str(x["building"]) for x in a.get("sell", [])]
        owner = next((fid for fid in FACTIONS if all(b in campaign.buildings.of(fid) for b in named)),
                     None) if named else None
        text = w.t(f"город {w.city(str(a['city']))}: постройки ", f"{w.city(str(a['city']))}: buildings ") + (
            ", ".join(w.building(owner, str(b)) for b in a["buildings"]) or "—")
        # what the list implies (ruling C18): each building built, each left out sold at half price
        changes = []
        if a.get("build"):
            changes.append(w.t("построить ", "build ") + ", ".join(
                f"{w.building_accs(owner, str(x['building']))} ({w.gold(-int(x['gold']), signed=True)})"
                for x in a["build"]))
        if a.get("sell"):
            changes.append(w.t("продать ", "sell ") + ", ".join(
                f"{w.building_accs(owner, str(x['building']))} ({w.gold(int(x['gold']), signed=True)})"
                for x in a["sell"]))
        return text + (" — " + "; ".join(changes) if changes else "")
    if k == "deploy":
        squads = [SquadInput.from_json(sq) for sq in a["squads"]]
        parts = [squad_line(campaign.rules, sq.position, sq.units, lang) for sq in squads]
        if a.get("gunpowder") is not None:
            parts.append(w.t(f"порох: {a['gunpowder']}", f"gunpowder: {a['gunpowder']}"))
        parts.extend(powder_text(PowderShare.from_json(p), campaign.rules, lang) for p in a.get("powder") or [])
        return _battle_title(w, str(a["battle"]), by_attacker=True) + " — " + "; ".join(parts)
    if k == "plan":
        if a.get("skip"):
            return _battle_title(w, str(a["battle"]), by_attacker=True) + " — " + w.t("без манёвров", "no manoeuvres")
        moves = [manoeuvre_text(Manoeuvre.from_json(m), lang) for m in a.get("manoeuvres") or []]
        return _battle_title(w, str(a["battle"]), by_attacker=True) + " — " + (
            "; ".join(moves) or w.t("без манёвров", "no manoeuvres"))
    if k == "capture":
        return f"{w.city(str(a['city']))}: {w.choice(str(a['choice']))}"
    return order.text or k


def _battle_sides(campaign: Campaign, battle: str, events: Sequence[Event]) -> tuple[str | None, str | None]:
    """The attacker and the defender of a battle, from its announcement."""
    for e in events:
        if e.kind == "battle_announced" and e.data["battle"] == battle:
            return e.data["attacker"], e.data.get("defender")
    return battle.split("/")[-1], None


def _battle_title(w: Words, battle: str, by_attacker: bool = False) -> str:
    """«битва за Хольмгард» for a battle id ``city/attacker``; ``by_attacker``: «битва за
    Хольмгард (атака Империи)», as the echo of a deployment or a plan names it — a city attacked by
    two factions has two battles, and a post's one block for the city answers both."""
    city, _, attacker = battle.partition("/")
    if by_attacker and attacker in w.c.rules.factions:
        return w.t(f"битва за {w.city_for(city)} (атака {w.faction_in(attacker, 'gent')})",
                   f"battle for {w.city(city)} (attacked by {w.the_faction(attacker)})")
    return w.t(f"битва за {w.city_for(city)}", f"battle for {w.city(city)}")


def _owner_of(campaign: Campaign, args: Mapping[str, Any]) -> str | None:
    bid = str(args.get("building", ""))
    for fid in FACTIONS:
        if bid in campaign.buildings.of(fid):
            return fid
    return None


# ----------------------------------------------------------------------------- the report

def document(campaign: Campaign, view: Mapping[str, Any], events: Sequence[Event], viewer: str,
             lang: str = "ru", turn: int | None = None, names: Names | None = None) -> Document:
    w = Words(campaign, lang)
    shown_turn = turn if turn is not None else int(view.get("turn", 1))
    epoch = campaign.epoch(shown_turn)
    title = w.t(f"Война Стальной Розы — ход {shown_turn}, {epoch.name_ru}",
                f"War of the Steel Rose — turn {shown_turn}, {epoch.name_en}")
    doc = Document(title)
    fid = view.get("me")
    if fid and viewer not in (PUBLIC, GM):
        _faction_part(doc, w, view, events, str(fid), names)
    _chronicle(doc, w, view, events, fid)
    _map_table(doc, w, view)
    return doc


def _ledger_line(w: Words, fid: str, line: Mapping[str, Any]) -> str:
    what = str(line.get("what"))
    city = w.city(line.get("city")) if line.get("city") else ""
    names_ru = {"income": f"доход: {city}", "build": f"постройка: {w.building(fid, str(line.get('building')))} ({city})",
                "sell": f"продажа: {w.building(fid, str(line.get('building')))} ({city})",
                "raise": f"повышение уровня: {city} → {line.get('level')}", "restore": f"восстановление: {city}",
                "hire": "найм: " + w.units(line.get("units", {})),
                "mercenaries": "наёмники-огры: " + w.units(line.get("units", {})),
                "mercenary_fee": f"плата за наёмников ({w.faction(line.get('payer'))})",
                "upkeep": "содержание армии", "production": "производство", "plunder": f"разграбление: {city}",
                "raze": f"разрушение: {city}", "raze_abandon": f"разрушение: {city}", "gift": "подарок богов",
                "quest": f"особое задание: {city}", "cleanse": f"очистка от порчи: {city}",
                "spell": "заклинание: " + (w.spell(str(line.get("spell"))) if line.get("spell") else ""),
                "ritual": "ритуал: " + (w.ritual(str(line.get("ritual"))) if line.get("ritual") else ""),
                "ritual_hunger": "ритуал: " + (w.ritual(str(line.get("ritual"))) if line.get("ritual") else ""),
                "cursed_gold": "проклятое золото", "feeding": "скормить демонам", "battle_honour": "честь павших",
                "battle_meat": "мясо павших врагов", "battle_hunger": "победа в битве", "gunpowder": "порох на битву",
                "defended": "город отбился", "city_lost": "город потерян", "hunger_passive": "голод копится",
                "hunger_reset": "захват города", "hunger_overflow": "голод переполнился", "raid_hunger": "набег",
                "hire_hunger": "найм", "ogre_contract": "наёмничий договор с ограми",
                "hunger_altar": f"{w.building(fid, str(line.get('building')))} построен в этот ход ({city})"}
    names_en = {"income": f"income: {city}", "build": f"building: {w.building(fid, str(line.get('building')))} ({city})",
                "sell": f"sale: {w.building(fid, str(line.get('building')))} ({city})",
                "raise": f"level raised: {city} → {line.get('level')}", "restore": f"restoration: {city}",
                "hire": "hired: " + w.units(line.get("units", {})),
                "mercenaries": "ogre mercenaries: " + w.units(line.get("units", {})),
                "mercenary_fee": f"mercenary fee ({w.faction(line.get('payer'))})", "upkeep": "upkeep",
                "production": "production", "plunder": f"plunder: {city}", "raze": f"razed: {city}",
                "raze_abandon": f"razed: {city}", "gift": "the gods' gift", "quest": f"special quest: {city}",
                "cleanse": f"corruption cleansed: {city}",
                "spell": "spell: " + (w.spell(str(line.get("spell"))) if line.get("spell") else ""),
                "ritual": "ritual: " + (w.ritual(str(line.get("ritual"))) if line.get("ritual") else ""),
                "ritual_hunger": "ritual: " + (w.ritual(str(line.get("ritual"))) if line.get("ritual") else ""), "cursed_gold": "cursed gold", "feeding": "feeding the demons",
                "battle_honour": "honour of the fallen", "battle_meat": "meat of the fallen foes",
                "battle_hunger": "battle won", "gunpowder": "gunpowder spent", "defended": "city held",
                "city_lost": "city lost", "hunger_passive": "hunger grows", "hunger_reset": "a city taken",
                "hunger_overflow": "hunger overflowed", "raid_hunger": "raid", "hire_hunger": "hiring",
                "ogre_contract": "the ogres' contract",
                "hunger_altar": f"{w.building(fid, str(line.get('building')))} built this turn ({city})"}
    text = (names_ru if w.ru else names_en).get(what, what)
    if what == "production" and "source" in line:  # «производство: Святилище природы (Эльдаран)»
        if not line["source"]:
            text += ": " + w.t("основной прирост", "the base rate")
        else:
            city, _, building = str(line["source"]).partition("/")
            text += f": {w.building(fid, building)} ({w.city(city)})"
    if what == "hunger_passive" and "cities" in line:
        # «голод копится: 10 + 15 × 3 города − 5 (Тёмный алтарь)»: how the line's sum is made
        void = w.c.model.void
        cities, altars = int(line["cities"]), int(line.get("altars") or 0)
        parts = [w.amount(void.passive)]
        if cities:
            parts.append(f"+ {w.amount(void.per_city)} × " + (counted(cities, "город") if w.ru
                                                               else counted(cities, "city", "en")))
        altar = next(((bid, b) for bid, b in w.c.buildings.of("void_cult").items() if b.hunger_passive), None)
        if altars and altar is not None:
            name = w.building("void_cult", altar[0])
            shown = name if altars == 1 else (counted(altars, name.lower()) if w.ru else f"{altars} × {name}")
            parts.append(f"− {w.amount(-altar[1].hunger_passive * altars)} ({shown})")
        text += ": " + " ".join(parts) + (w.t(", ×2 (Закат)", ", ×2 (Sunset)") if line.get("doubled") else "")
    if line.get("battle"):  # «честь павших (битва за Вельмар)»
        text += f" ({_battle_title(w, str(line['battle']))})"
    if what == "income":
        notes = []
        if line.get("buildings"):
            notes.append(w.t("постройки ", "buildings ") + ", ".join(f"+{b[1]}" for b in line["buildings"]))
        if line.get("halved"):
            notes.append(w.t("доход вдвое меньше", "income halved"))
        if line.get("defended"):
            notes.append(w.t(f"оборона армией −{line['defended']}", f"army defending −{line['defended']}"))
        if line.get("idle"):
            notes.append(w.t("в этот ход дохода нет", "no income this turn"))
        if notes:
            text += " (" + "; ".join(notes) + ")"
    return text


def _faction_part(doc: Document, w: Words, view: Mapping[str, Any], events: Sequence[Event], fid: str,
                  names: Names | None = None) -> None:
    own = view.get("own") or {}
    mine = [e for e in events if e.data.get("faction") == fid and "*" not in e.audience]
    ledgers = [e for e in events if e.kind == "ledger" and e.data.get("faction") == fid]
    doc.heading(w.t(f"{w.faction(fid)}: казна и ресурсы", f"{w.the_faction(fid, capital=True)}: treasury and resources"))
    for led in ledgers:
        rows = [[_ledger_line(w, fid, line), w.gold(line["gold"], signed=True) if line.get("gold") else "",
                 w.amount(line["resource"], signed=True) if line.get("resource") else ""]
                for line in led.data["lines"]]
        doc.paragraph(w.t("В начале хода: ", "At the start of the turn: "), bold(w.gold(led.data["opening"])),
                      w.t("; в конце: ", "; at its end: "), bold(w.gold(led.data["closing"])))
        if rows:
            doc.table([w.t("Статья", "Item"), w.t("Золото", "Gold"), w.resource(fid).capitalize()], rows, "lrr")
    if not ledgers and "gold" in own:  # mid-turn: the ledger comes at the turn's end
        doc.paragraph(w.t("Золото: ", "Gold: "), bold(w.gold(float(own["gold"]))))
    doc.paragraph(f"{w.resource(fid).capitalize()}: ", bold(w.amount(float(own.get("resource", 0)))),
                  *([w.t(f" (предел {own.get('hunger_max')})", f" (limit {own.get('hunger_max')})")]
                    if fid == "void_cult" else []))
    _victory_part(doc, w, view, fid)
    doc.heading(w.t("Армия", "Army"), 3)
    units = {u: n for u, n in (own.get("units") or {}).items() if n}
    doc.paragraph(w.units(units) if units else w.t("войск нет", "no troops"))
    if own.get("gifted"):
        doc.paragraph(w.t("из них подарены Культом: ", "of them gifts of the cult: ") + w.units(own["gifted"]))
    if own.get("camp"):
        road = " — ".join(w.city(c) for c in own["camp"])
        doc.paragraph(w.t(f"Лагерь: на дороге {road}", f"Camp: on the road {road}"))
    cities = view.get("own_cities") or {}
    if cities:
        doc.heading(w.t("Города", "Cities"), 3)
        rows = []
        for cid, c in cities.items():
            pub = view["cities"][cid]
            kind = {"small": w.t("малый", "small"), "large": w.t("большой", "large"),
                    "mobile": w.t("передвижной", "mobile")}[pub["kind"]]
            state = w.t("руины", "ruins") if pub["ruins"] else f"{pub['level']} {w.t('ур.', 'lvl')}"
            rows.append([w.city(cid), kind, state, ", ".join(w.building(fid, b) for b in c["buildings"]) or "—"])
        doc.table([w.t("Город", "City"), w.t("Тип", "Type"), w.t("Уровень", "Level"), w.t("Постройки", "Buildings")],
                  rows, "llll")
    notes: list[str | Item] = []
    for e in mine:
        line = _private_line(w, e)
        if line:
            notes.append(line)
    if notes:
        doc.heading(w.t("Что произошло", "What happened"), 3)
        doc.bullets(notes)
    fought = {e.data["battle"] for e in events if e.kind in ("battle", "battle_called_off")}
    for e in events:
        if e.kind == "deployed" and e.data["battle"] not in fought:
            # both sides' deployments, for the planning post («Вы узнаёте расстановку войск противника»)
            a, d = _battle_sides(w.c, str(e.data["battle"]), events)
            doc.heading(w.t(f"Битва за {w.city_for(e.data['city'])}: расстановки",
                            f"Battle for {w.city(e.data['city'])}: the deployments"), 3)
            sides: list[str | Item] = []
            for side_fid, squads in ((a, e.data["attacker"]), (d, e.data["defender"])):
                lines = [squad_line(w.c.rules, sq["position"], sq["units"], w.lang) for sq in squads]
                sides.append(Item(w.faction(side_fid) if w.ru else w.the_faction(side_fid, capital=True),
                                  list(lines) or [w.t("войск нет", "no troops")]))
            doc.bullets(sides)
    for e in events:
        if e.kind == "battle":
            # the battle engine's own report (docs/steel_rose/battle.md §3), under this battle's title
            battle = battle_document(e.data["result"], w.c.rules, w.lang, names)
            doc.heading(w.t(f"Битва за {w.city_for(e.data['city'])}", f"Battle for {w.city(e.data['city'])}"), 3)
            # the battle's own sections sit under this battle's title
            doc.blocks.extend(Heading(b.text, max(b.level, 4)) if isinstance(b, Heading) else b for b in battle.blocks)


def _victory_part(doc: Document, w: Words, view: Mapping[str, Any], fid: str) -> None:
    """The faction's «УСЛОВИЯ ПОБЕДЫ», item by item, with how far it has come."""
    goals = view.get("victory") or []
    if not goals:
        return
    every = view.get("victory_needs", "all") != "any"
    doc.heading(w.t("Условия победы (нужно выполнить все)" if every else "Условия победы (достаточно одного)",
                    "Victory conditions (all at once)" if every else "Victory conditions (any one)"), 3)
    doc.bullets([_goal_line(w, fid, g) for g in goals])


def _goal_line(w: Words, fid: str, g: Mapping[str, Any]) -> str:
    item = str(g["item"])
    have, need = float(g["have"]), float(g["need"])
    of = w.t(" из ", " of ")
    if item == "destroy":
        text = w.t(f"уничтожить фракцию «{w.faction(g.get('about'))}»", f"destroy {w.the_faction(g.get('about'))}")
    elif item == "cities":
        text = w.t("городов под контролем: ", "cities held: ") + w.amount(have) + of + w.amount(need)
        if g.get("about"):
            text += w.t(f", среди них {w.the_city(str(g['about']))}", f", {w.city(str(g['about']))} among them")
    elif item == "hoard":
        text = (f"{w.resource(fid)}: {w.amount(have)}{of}{w.amount(need)}, "
                + w.t("золото: ", "gold: ") + w.amount(float(g.get("gold_have", 0))) + of
                + w.amount(float(g.get("gold_need", 0))))
    elif item == "resource":
        text = f"{w.resource(fid)}: {w.amount(have)}{of}{w.amount(need)}"
    elif item == "gold":
        text = w.t("золото: ", "gold: ") + w.amount(have) + of + w.amount(need)
    elif item == "raids":
        text = w.t("городов разграблено или разрушено: ", "cities plundered or razed: ") + w.amount(have) + of \
            + w.amount(need)
    else:
        text = item
    return text + (w.t(" — выполнено", " — met") if g.get("met") else "")


def _private_line(w: Words, e: Event) -> str | None:
    d = e.data
    k = e.kind
    if k == "refused":
        return w.t(f"Не исполнено: «{d.get('order')}» — {d.get('ru')}", f"Not carried out: '{d.get('order')}' — {d.get('en')}")
    if k == "divination":
        snap = d.get("snapshot") or {}
        when_ru = f"конец хода {snap.get('turn')}" if snap.get("turn") else "до первого хода"
        when_en = f"end of turn {snap.get('turn')}" if snap.get("turn") else "before the first turn"
        return w.t(f"Прорицание о фракции «{w.faction(d['target'])}» ({when_ru}): "
                   f"{w.gold(snap.get('gold', 0))}, {w.resource(d['target'])} {w.amount(snap.get('resource', 0))}, "
                   f"войска: {w.units(snap.get('units', {}))}",
                   f"Divination of {w.the_faction(d['target'])} ({when_en}): "
                   f"{w.gold(snap.get('gold', 0))}, {w.resource(d['target'])} {w.amount(snap.get('resource', 0))}, "
                   f"troops: {w.units(snap.get('units', {}))}")
    if k == "corruption_found":
        return w.t(f"Дозор нашёл порчу в городе {w.city(d['city'])}: {d['level']} из 20",
                   f"The watch found corruption in {w.city(d['city'])}: {d['level']} of 20")
    if k == "corruption":
        return w.t(f"Порча в городе {w.city(d['city'])}: +{d['added']}, теперь {d['level']}",
                   f"Corruption in {w.city(d['city'])}: +{d['added']}, now {d['level']}")
    if k == "corruption_cleansed":
        return w.t(f"Порчу в городе {w.city(d['city'])} очистили (было {d['was']})",
                   f"The corruption in {w.city(d['city'])} was cleansed (it was {d['was']})")
    if k == "cleansed":
        return w.t(f"Город {w.city(d['city'])} очищен от порчи", f"{w.city(d['city'])} cleansed of corruption")
    if k == "free_units":
        return w.t("Пришли бесплатно: ", "Arrived free: ") + w.units(d["units"])
    if k == "demons_gift":
        return w.t("Культ прислал демонов: ", "The cult sent demons: ") + w.units(d["units"])
    if k == "gifts_vanished":
        return w.t("Подаренные демоны исчезли: ", "The gifted demons vanished: ") + w.units(d["units"])
    if k == "deserted":
        return w.t("Не хватило на содержание, ушли: ", "Upkeep not paid, these left: ") + w.units(d["units"])
    if k == "ritual":
        text = w.t(f"Ритуал «{w.ritual(d['ritual'])}»", f"Ritual: {w.ritual(d['ritual'])}")
        if d.get("city"):
            text += f" — {w.city(d['city'])}"
        if d.get("amount"):
            text += w.t(f", порча +{d['amount']}", f", corruption +{d['amount']}")
        if d.get("units"):
            text += ": " + w.units(d["units"])
        if d.get("gold"):
            text += f": +{w.gold(d['gold'])}"
        return text
    if k == "oath_fulfilled":
        return w.t(f"Клятва исполнена: предел голода теперь {d['max']}", f"The oath is fulfilled: the hunger limit is now {d['max']}")
    if k == "feeding":
        return w.t(f"Демоны накормлены: +{w.gold(d['gold'])}, ", f"The demons fed: +{w.gold(d['gold'])}, ") + w.units(d["units"])
    if k == "taken":
        how = {"corruption": w.t("порча дошла до 20", "the corruption reached 20"),
               "deal": w.t("сделка с дьяволом", "the deal with the devil")}.get(d["how"], d["how"])
        return w.t(f"Город {w.city(d['city'])} наш: {how}", f"{w.city(d['city'])} is ours: {how}")
    if k == "hunger_overflow":
        return w.t(f"Голод пустоты переполнился: город {w.city(d['city'])} обращён в руины",
                   f"The void hunger overflowed: {w.city(d['city'])} fell to ruins")
    if k == "called_off":
        # an attack the post's checks could not stop, called off when its battle's turn came
        by = d.get("by")
        why_ru, why_en = {
            "floating": ("город парит в небе", "the city floats in the sky"),
            "taken": (Words(w.c, "ru").did(by, "взял", "") + " город раньше", f"{w.the_faction(by)} took the city first"),
            "changed": ((f"город до битвы перешёл к {w.faction_in(by, 'datv')}" if by else "у города до битвы сменился "
                         "владелец"), f"the city passed to {w.the_faction(by)} before the battle" if by
                        else "the city changed hands before the battle"),
            "gone": ("города больше нет на карте", "the city is gone from the map"),
            "no_units": ("в армии не осталось юнитов", "no unit of the army was left"),
            "problem": (str(d.get("ru", "")), str(d.get("en", ""))),
        }.get(str(d.get("why")), (str(d.get("why")), str(d.get("why"))))
        army_ru = f" (армия {d['army']})" if d.get("army") else ""
        army_en = f" (army {d['army']})" if d.get("army") else ""
        return w.t(f"Не исполнено: {w.army_action('attack', d['city'])}{army_ru} — {why_ru}",
                   f"Not carried out: the attack on {w.city(d['city'])}{army_en} — {why_en}")
    if k == "camp":
        road = " — ".join(w.city(c) for c in d["road"])
        return w.t(f"Лагерь разбит на дороге {road}", f"Camp pitched on the road {road}")
    if k == "camp_fell":
        road = " — ".join(w.city(c) for c in d["road"])
        why = {"beaten": w.t(f"армию отбили от города {w.city(d.get('city'))}",
                             f"the army was beaten back from {w.city(d.get('city'))}"),
               "no_army": w.t("в армии не осталось никого", "no unit is left to hold it"),
               "road_gone": w.t("дороги больше нет на карте", "the road is gone from the map")}.get(
            str(d.get("why")), str(d.get("why")))
        return w.t(f"Лагерь на дороге {road} пал: {why}", f"The camp on the road {road} fell: {why}")
    if k == "choice_refused":
        return w.t(f"Выбор «{w.choice(d['choice'])}» вашей фракции недоступен", f"Your faction cannot {w.choice(d['choice'])}")
    return None


def _chronicle(doc: Document, w: Words, view: Mapping[str, Any], events: Sequence[Event], fid: Any) -> None:
    lines: list[str] = []
    told = {e.data["battle"] for e in events if e.kind in ("battle_result", "battle_called_off")}
    for e in events:
        if e.kind == "battle_announced" and e.data["battle"] in told:
            continue  # its result says who fought whom
        line = _public_line(w, e, fid)
        if line:
            lines.append(line)
    doc.heading(w.t("Летопись", "Chronicle"))
    doc.bullets(lines or [w.t("Ничего не произошло.", "Nothing happened.")])


def _public_line(w: Words, e: Event, fid: Any) -> str | None:
    d = e.data
    k = e.kind
    if k == "battle_result":
        verdict = {"attacker": w.t("атакующие победили", "the attackers won"),
                   "defender": w.t("город отбился", "the city held"),
                   "none": w.t("ничья, город не взят", "a draw, the city not taken")}[d["winner"]]
        if d.get("walkover"):
            if d.get("defender") is None:
                return None  # nobody's ruins: the capture line says it
            verdict = w.t("без боя", "without a fight")
        return w.did(d["attacker"], "атаковал", "attacked") + f" {w.the_city(d['city'])} ({w.faction(d.get('defender'))}): {verdict}"
    if k == "battle_called_off":
        return _called_off_line(w, d)
    if k == "captured":
        verbs = {"colonise": ("колонизировал", "colonised"), "plunder": ("разграбил", "plundered"),
                 "raze": ("разрушил", "razed"), "raze_abandon": ("разрушил и бросил", "razed and abandoned"),
                 "destroyed": ("уничтожил", "destroyed")}
        if d["choice"] == "ruins":
            return w.did(d["by"], "занял руины", "took the ruins of") + w.t(f" города {w.city(d['city'])}",
                                                                            f" {w.city(d['city'])}")
        ru, en = verbs.get(d["choice"], ("захватил", "took"))
        return w.did(d["by"], ru, en) + f" {w.the_city(d['city'])}"
    if k == "owner" and d.get("how") in ("cult", "betrayal"):
        # how the cult came by it (corruption, the deal) is its secret: the map says only that it did
        how = w.t(" (предательство)", " (betrayal)") if d["how"] == "betrayal" else ""
        return w.t(f"Город {w.city(d['city'])} перешёл к {w.faction_in(d['to'], 'datv')}{how}",
                   f"{w.city(d['city'])} passed to {w.the_faction(d['to'])}{how}")
    if k == "ruins" and d.get("how") == "cult":
        return w.t(f"Город {w.city(d['city'])} обратился в руины", f"{w.city(d['city'])} fell to ruins")
    if k == "restored":
        return w.did(d["faction"], "восстановил", "restored") + f" {w.the_city(d['city'])}"
    if k == "floating":
        return w.t(f"Город {w.city(d['city'])} поднялся в небо", f"{w.city(d['city'])} rose into the sky")
    if k == "alliance":
        a, b = d["factions"]
        if d.get("formed"):
            return w.t(f"Союз: {w.faction(a)} и {w.faction(b)}", f"Alliance: {w.faction(a)} and {w.faction(b)}")
        how = w.t("предательство", "betrayal") if d.get("how") == "betrayal" else w.t("разорван", "broken")
        return w.t(f"Союз {w.faction_in(a, 'gent')} и {w.faction_in(b, 'gent')} расторгнут ({how})",
                   f"The alliance of {w.faction(a)} and {w.faction(b)} is over ({how})")
    if k == "proposal":
        return w.did(d["from"], "предложил союз", "proposed an alliance to") + w.t(
            f" {w.faction_in(d['to'], 'datv')}", f" {w.the_faction(d['to'])}")
    if k == "betrayal":
        return w.did(d["by"], "предал", "betrayed") + f" {w.faction_in(d['victim'], 'accs')}" + (
            ": " + ", ".join(w.city(c) for c in d["cities"]) if d["cities"] else "")
    if k == "gift":
        return w.t(f"Боги послали подарок ({w.gold(d['gold'])}): ", f"The gods sent a gift ({w.gold(d['gold'])}) to ") + \
            join_and([w.faction(f) if w.ru else w.the_faction(f) for f in d["factions"]], w.lang)
    if k == "epoch":
        return w.t(f"Наступила эпоха «{w.epoch(d['epoch'])}»", f"{w.epoch(d['epoch'])} begins")
    if k == "victory":
        reason = {"conditions": w.t("выполнены все условия победы", "every victory condition met"),
                  "destroy": w.t("уничтожение врага", "the enemy destroyed"), "cities": w.t("города", "cities"),
                  "resource": w.t("накопленный ресурс", "the resource hoarded"), "gold": w.t("золото", "gold"),
                  "hoard": w.t("мясо и золото", "meat and gold"), "raids": w.t("набеги", "raids"),
                  "midnight": w.t("Полночь: больше всего городов", "Midnight: the most cities"),
                  "last_standing": w.t("никого не осталось", "nobody else left")}.get(d["reason"], d["reason"])
        return w.did(d["faction"], "победил", "won") + f" ({reason})"
    if k == "eliminated":
        return w.did(d["faction"], "выбыл из игры", "is out of the game") + (
            w.t(f" ({w.faction(d['by'])})", f" ({w.faction(d['by'])})") if d.get("by") else "")
    if k == "midnight":
        return w.t("Полночь: богам наскучила война", "Midnight: the gods grew bored of the war")
    if k == "mobile_moved":
        return w.t("Передвижной город огров встал на дорогу ", "The ogres' mobile city stands on the road ") + \
            " — ".join(w.city(c) for c in d["road"])
    if k == "quest":
        units = (", " + w.units(d["units"])) if d.get("units") else ""
        return w.t(f"Империя выполнила особое задание: {w.city(d['city'])} (+{w.amount(d['honour'])} чести{units})",
                   f"The Empire fulfilled a special quest: {w.city(d['city'])} (+{w.amount(d['honour'])} honour{units})")
    if k == "battle_announced" and d.get("defender"):  # nobody's ruins: the capture line says it
        return w.t(f"Битва за {w.city_for(d['city'])}: {w.faction(d['attacker'])} против {w.faction_in(d['defender'], 'gent')}",
                   f"Battle for {w.city(d['city'])}: {w.the_faction(d['attacker'], capital=True)} against "
                   f"{w.the_faction(d['defender'])}")
    return None


def _called_off_line(w: Words, d: Mapping[str, Any]) -> str:
    """«Битва за Чёрную Топь (Благословлённые небом против Культа пустоты) не состоялась: Империя
    взяла город раньше» — why, where everyone may know it (ruling C7)."""
    sides_ru = w.faction(d["attacker"]) + (f" против {w.faction_in(d['defender'], 'gent')}" if d.get("defender") else "")
    sides_en = w.the_faction(d["attacker"], capital=True) + (f" against {w.the_faction(d['defender'])}"
                                                            if d.get("defender") else "")
    by = d.get("by")
    why_ru, why_en = {
        "taken": (Words(w.c, "ru").did(by, "взял", "") + " город раньше", f"{w.the_faction(by)} took the city first"),
        "changed": ((f"город перешёл к {w.faction_in(by, 'datv')}" if by else "у города сменился владелец"),
                    f"the city passed to {w.the_faction(by)}" if by else "the city changed hands"),
        "gone": ("города больше нет на карте", "the city is gone from the map"),
        "attacker_out": ("атакующая фракция к тому времени выбыла из игры", "the attacker was out of the game by then"),
    }.get(str(d.get("reason") or ""), ("", ""))
    ru = f"Битва за {w.city_for(d['city'])} ({sides_ru}) не состоялась" + (f": {why_ru}" if why_ru else "")
    en = f"The battle for {w.city(d['city'])} ({sides_en}) did not take place" + (f": {why_en}" if why_en else "")
    return w.t(ru, en)


def _map_table(doc: Document, w: Words, view: Mapping[str, Any]) -> None:
    rows: list[list[Inline]] = []
    for cid, c in view.get("cities", {}).items():
        if c.get("gone"):
            continue
        kind = {"small": w.t("малый", "small"), "large": w.t("большой", "large"),
                "mobile": w.t("передвижной", "mobile")}[c["kind"]]
        state = w.t("руины", "ruins") if c["ruins"] else f"{c['level']} {w.t('ур.', 'lvl')}"
        if c.get("floating"):
            state += w.t(", в небе", ", in the sky")
        rows.append([w.city(cid), w.faction(c.get("owner")) if c.get("owner") else "—", kind, state])
    if rows:
        doc.spoiler(w.t("Карта: города", "Map: cities"),
                    [Table([w.t("Город", "City"), w.t("Владелец", "Owner"), w.t("Тип", "Type"),
                            w.t("Уровень", "Level")], rows, "llll")])
    alliances = view.get("alliances") or []
    if alliances:
        doc.paragraph(w.t("Союзы: ", "Alliances: ") + "; ".join(f"{w.faction(a)} — {w.faction(b)}" for a, b in alliances))
