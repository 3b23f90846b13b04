"""Reading a faction's posts: the turn's orders, battle posts and capture choices.

Every order is one line that starts with its keyword, in Russian or English (the syntax with
examples is in docs/steel_rose/campaign.md)::

    Построить Барак в Авентале            Build barracks in Aventhal
    Продать Часовню в Гордриме            Sell chapel in Gordrim
    Повысить Авенталь до 2                Raise Aventhal to 2
    Восстановить Вельмар                  Restore Velmar
    Нанять 10 копейщиков, 6 лучников      Hire 10 spearmen, 6 archers
    Очистить Вельмар за честь             Cleanse Velmar for honour
    Армия 1: 10 копейщиков — атака Морвен (разграбить)
    Army 2: rest - defend Velmar
    Заклинание: Парящий город — Эльдаран  Spell: floating city - Eldaran
    Ритуал: Заражение — Вельмар           Ritual: infection - Velmar
    Союз с Культом                        Alliance with the cult
    Разорвать союз с Ограми               Break alliance with the ogres
    Предать Империю: Вельмар              Betray the Empire: Velmar
    Демоны: 5 заразителей                 Demons: 5 infectors
    Передвижной город: Тарнбург — Вельмар Mobile city: Tarnburg - Velmar
    Лагерь: Морвен — Вельмар              Camp: Morven - Velmar
    Гарнизон Авенталя:                    Garrison of Aventhal:
    <a deployment in the battle template>

An order that names one city may begin with it («Авенталь: построить Барак, Часовню»,
«Aventhal: raise»), or stand under a city heading on a line of its own («Авенталь:»);
and the document's city list («Города:») is read as the economic part of a post: a city's
block states the level and buildings wanted, and the difference becomes raise, build and sell
orders. A post is read whole; every problem names its line and column in Russian and English.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda.core import posts
from voevoda.core.errors import Problem, illegal, invalid
from voevoda.core.ruleset import Order
from voevoda.rulesets.steel_rose.battle.posts import (
    UnitNames,
    begins_deployment,
    begins_plan,
    parse_deployment,
)
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, RITUALS, SPELLS, Campaign
from voevoda.rulesets.steel_rose.campaign.names import Lexicon, norm, suggestion, words
from voevoda.rulesets.steel_rose.campaign.state import ARMY_NAME

RULE = "Приказы"
MOBILE_ID = "mobile"

FACTION_FORMS: dict[str, list[str]] = {
    "empire": ["империя", "империи", "империю", "империей", "имперцы", "имперцев", "empire", "imperials"],
    "steel_rose": ["княжество", "княжества", "княжеству", "княжеством", "княжество стальной розы",
                   "стальная роза", "стальную розу", "principality", "steel rose"],
    "heaven": ["благословлённые небом", "благословленные небом", "благословлённых небом", "эльфы", "эльфов",
               "эльфам", "эльфами", "небо", "heaven", "heaven blessed", "sky blessed", "elves"],
    "void_cult": ["культ", "культа", "культу", "культом", "культ пустоты", "культом пустоты", "культистов",
                  "cult", "void cult"],
    "ogres": ["огры", "огров", "ограм", "ограми", "ogres", "ogre"],
}
CHOICE_WORDS: list[tuple[str, str]] = [
    ("разрушить и бросить", "raze_abandon"), ("разрушить и оставить", "raze_abandon"),
    ("разрушить без захвата", "raze_abandon"), ("raze and abandon", "raze_abandon"),
    ("raze and leave", "raze_abandon"), ("разрушаем и бросаем", "raze_abandon"),
    ("разрушим и бросим", "raze_abandon"), ("разрушаю и бросаю", "raze_abandon"),
    ("разрушу и брошу", "raze_abandon"), ("колонизировать", "colonise"), ("колонизация", "colonise"),
    # as forum players write them: «Колонизирую!», «колонизируем», «разграбляю», «разрушим»
    ("колонизиру", "colonise"), ("разграбля", "plunder"), ("разграблю", "plunder"), ("разграбим", "plunder"),
    ("разруша", "raze"), ("разрушу", "raze"), ("разрушим", "raze"),
    ("colonise", "colonise"), ("colonize", "colonise"), ("разграбить", "plunder"), ("разграбление", "plunder"),
    ("набег", "plunder"), ("plunder", "plunder"), ("raid", "plunder"), ("sack", "plunder"),
    ("разрушить", "raze"), ("разрушение", "raze"), ("raze", "raze"),
]
CHOICE_RU = {"colonise": "колонизировать", "plunder": "разграбить", "raze": "разрушить",
             "raze_abandon": "разрушить и бросить"}
CHOICE_EN = {"colonise": "colonise", "plunder": "plunder", "raze": "raze", "raze_abandon": "raze and abandon"}

_KEYWORDS: dict[str, str] = {
    # the verb as forum players write it: the infinitive, «строю», «строим», «построим»
    "построить": "build", "строить": "build", "постройте": "build", "строю": "build", "строим": "build",
    "построю": "build", "построим": "build", "build": "build",
    "продать": "sell", "продаю": "sell", "продаем": "sell", "продам": "sell", "продадим": "sell", "sell": "sell",
    "повысить": "raise", "поднять": "raise", "повышаю": "raise", "повышаем": "raise", "поднимаю": "raise",
    "поднимаем": "raise", "raise": "raise", "upgrade": "raise",
    "восстановить": "restore", "восстанавливаю": "restore", "восстанавливаем": "restore", "restore": "restore",
    "rebuild": "restore",
    "нанять": "hire", "найм": "hire", "нанимаю": "hire", "нанимаем": "hire", "наймем": "hire", "найму": "hire",
    "hire": "hire", "recruit": "hire",
    "очистить": "cleanse", "очистка": "cleanse", "cleanse": "cleanse", "purge": "cleanse",
    "армия": "army", "army": "army",
    "заклинание": "spell", "заклинания": "spell", "spell": "spell", "cast": "spell",
    "ритуал": "ritual", "ritual": "ritual",
    "союз": "alliance", "alliance": "alliance", "ally": "alliance",
    "предложить": "alliance", "предлагаю": "alliance", "propose": "alliance", "offer": "alliance",
    "разорвать": "break", "break": "break",
    "предать": "betray", "предательство": "betray", "betray": "betray", "betrayal": "betray",
    "демоны": "demons", "демонов": "demons", "demons": "demons",
    "передвижной": "mobile", "mobile": "mobile",
    # the cult's camp on a road («армия может создавать временные лагеря на дороге между городами»)
    "лагерь": "camp", "разбить": "camp", "разбиваю": "camp", "разбиваем": "camp", "camp": "camp",
    "encamp": "camp", "pitch": "camp",
    "гарнизон": "garrison", "garrison": "garrison",
}
_TEMPLATE_SKIP = re.compile(
    r"^(?:города|cities|размещение армии|army placement|доход|income|суммарный доход|total income|"
    r"соблюдать|-{3,}|={3,}|_{3,})", re.IGNORECASE)
_CITY_HEADER = re.compile(
    r"^(?P<name>.+?)\s*\(\s*(?:(?P<lvl>\d+)\s*(?:-?\s*(?:й|го|ый))?\s*(?:ур(?:овень|\.)?|lvl\.?)|"
    r"(?:level|lvl\.?)\s*(?P<lvl2>\d+))\s*\)\s*(?:\(\s*(?P<kind>[^)]*)\))?\s*$", re.IGNORECASE)
_BUILDINGS_LINE = re.compile(r"^(?:постройки|постройка|buildings|building)\s*[:\-–—]\s*(?P<body>.*)$",
                             re.IGNORECASE)
_SEP = re.compile(r"\s+[—–-]+\s+|\s*[—–]\s*|\s*→\s*|\s*->\s*")
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\+|\bи\b|\band\b|&)\s*", re.IGNORECASE)
_ITEM = re.compile(r"^(?:(\d+)\s*(?:[xх×*](?=\s))?\s*)?(.*?)(?:\s+[xх×*]?\s*(\d+))?$", re.IGNORECASE)
_EMPTY = {"", "...", "…", "-", "—", "нет", "none", "ничего", "nothing"}
_ALL = {"все", "всё", "вся армия", "все юниты", "all", "everyone", "all units", "everything"}
_REST = {"остальные", "остальных", "остальное", "rest", "the rest", "others", "remaining"}
_BULLET = re.compile(r"^\s*(?:[-*•·]+|\d+[.)])\s+")


@dataclass
class Vocabulary:
    """Every name a post may use, built once per game."""

    campaign: Campaign
    cities: Lexicon = field(init=False)
    factions: Lexicon = field(init=False)
    buildings: dict[str, Lexicon] = field(init=False)
    spells: Lexicon = field(init=False)
    rituals: Lexicon = field(init=False)
    units: UnitNames = field(init=False)

    def __post_init__(self) -> None:
        c = self.campaign
        entries = [(cid, [city.name_ru, city.name_en]) for cid, city in c.map.cities.items()]
        if c.map.mobile is not None:
            entries.append((MOBILE_ID, [c.map.mobile.name_ru, c.map.mobile.name_en, "мобильный город",
                                        "город огров", "ogre city"]))
        self.cities = Lexicon(entries)
        self.factions = Lexicon((fid, [*FACTION_FORMS[fid], c.faction(fid).name_ru,
                                       c.faction(fid).name_en, *c.faction(fid).aliases])
                                for fid in FACTIONS)
        self.buildings = {fid: Lexicon((bid, [b.name_ru, b.name_en, *b.names])
                                       for bid, b in c.buildings.of(fid).items()) for fid in FACTIONS}
        spells = c.model.heaven.spells
        self.spells = Lexicon((sid, [spells[sid].name_ru, spells[sid].name_en]) for sid in SPELLS)
        rituals = c.model.void.rituals
        self.rituals = Lexicon((rid, [rituals[rid].name_ru, rituals[rid].name_en, *_RITUAL_EXTRA.get(rid, [])])
                               for rid in RITUALS)
        self.units = UnitNames(c.rules)


_RITUAL_EXTRA = {"teleport": ["телепортация", "teleport", "teleportation"], "deal": ["сделка", "deal"],
                 "cursed_gold": ["золото", "gold"], "oath": ["клятва", "oath"], "sacrifice": ["жертва", "sacrifice"],
                 "feeding": ["скормить", "feeding", "feed"], "summoning": ["summon"]}


@dataclass
class Reading:
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class _Line:
    """One order line of a post, as the core read it (markup read through, each character's
    original column kept): its number, the text, and where a part of it was typed."""

    def __init__(self, source: posts.PostLine) -> None:
        self.source = source
        self.number = source.number
        self.raw = source.original or source.text
        self.text = posts.without_openers(_BULLET.sub("", source.text).strip().rstrip("."))

    def col(self, part: str) -> int:
        at = self.source.text.find(part) if part else -1
        return self.source.column(at) if at >= 0 else (self.source.column(0) if self.source.columns else 1)


_CITY_PREFIX = re.compile(r"^(?P<city>[^:—–\-\d][^:—–]*?)\s*(?::|\s+[—–-]+\s+|\s*[—–]\s*)\s*(?P<rest>.*)$")
_CITY_KINDS = ("build", "sell", "raise", "restore", "cleanse")
"""The orders that name one city, so that the city may be written first: «Авенталь: построить
Барак», «Гордрим — продать Часовню», «Aventhal: raise», or a heading «Авенталь:» over them."""


def city_prefix(text: str, cities: Lexicon) -> tuple[str, str] | None:
    """A line that starts with a city and a colon or a dash, followed by nothing or by an order
    that names one city: (city id, the order without its city)."""
    m = _CITY_PREFIX.match(text)
    if not m:
        return None
    rest = m.group("rest").strip()
    if rest and _KEYWORDS.get(_first_word(rest)) not in _CITY_KINDS:
        return None
    # «В Тарнбурге: построить Часовню», «г. Гордрим — продать Часовню»
    phrase = re.sub(r"^(?:(?:в|во|in|at)\s+)?(?:г\.\s*|город\s+|city of\s+)?", "", m.group("city").strip(" «»\"'"),
                    flags=re.IGNORECASE)
    cid = cities.one(phrase.strip(" «»\"'"))
    return (cid, rest) if cid else None


def units_line(text: str, units: UnitNames) -> bool:
    """A line that is only counted units («10 копейщиков», «- 2 лучника и 3 всадника»): an item
    of a list under «Нанять:»."""
    items = [item.strip() for item in _LIST_SPLIT.split(text) if item.strip()]
    for item in items:
        m = re.match(r"^(\d+)\s*(?:[xх×*](?=\s))?\s*(\S.*)$", item, re.IGNORECASE)
        if m is None or len(units.match(m.group(2))) != 1:
            return False
    return bool(items)


def begins_turn_order(text: str, cities: Lexicon | None = None, units: UnitNames | None = None) -> bool:
    """Whether a line of a turn's post begins like an order: an order's keyword (or a near typo
    of one), a city line of the document's list («Авенталь (1 ур.) (Большой)»), its «Постройки:»
    line, a city of ``cities`` written before an order or as a heading («Авенталь: построить
    Барак», «Авенталь:»), counted units of ``units`` (a list under «Нанять:»), or a line of a
    garrison's deployment. Everything else — greetings,
    «Города:», «Доход:», «СУММАРНЫЙ ДОХОД» — is prose, echoed as not read."""
    stripped = posts.without_openers(_BULLET.sub("", text).strip())
    if not stripped or stripped.startswith("#"):
        return False
    if _CITY_HEADER.match(stripped) or _BUILDINGS_LINE.match(stripped):
        return True
    if cities is not None and city_prefix(stripped.rstrip("."), cities) is not None:
        return True
    if units is not None and units_line(stripped.rstrip(".;,"), units):
        return True
    first = _first_word(stripped)
    if first in _KEYWORDS:
        return True
    if len(first) >= 4 and posts.suggest(first, list(_KEYWORDS), limit=1, cutoff=0.8):
        return True
    return begins_deployment(stripped)


_BATTLE_HEADER = re.compile(r"^\s*(?:битва|бой|сражение|battle)\s+(?:за|при|у|for|at|of)\s+(.+?)\s*:?\s*$",
                            re.IGNORECASE)


def begins_battle_line(text: str, planning: bool) -> bool:
    """A battle step's post: a «Битва за <город>:» heading, or a line of a deployment or a plan."""
    stripped = text.strip()
    if _BATTLE_HEADER.match(stripped):
        return True
    return begins_plan(stripped) if planning else begins_deployment(stripped)


def begins_capture(text: str) -> bool:
    """A capture choice: a line naming one («Хольмгард: колонизировать»)."""
    return _choice(text)[0] is not None or any(w in norm(text) for w in ("захват", "capture"))

_NEXT_ORDER = re.compile(r"\s*[,;]\s*(?=([^\W\d_]+))")


def _one_order_each(line: posts.PostLine) -> list[posts.PostLine]:
    """A line holding several orders, each begun by its word after a comma or «;»
    («Построить Барак в Авентале, нанять 10 копейщиков»), as one line per order (columns kept);
    a comma inside an order («10 копейщиков, 6 лучников») stays."""
    parts: list[posts.PostLine] = []
    start = 0
    for match in _NEXT_ORDER.finditer(line.text):
        current = _KEYWORDS.get(_first_word(line.text[start:]))
        if current is None or _KEYWORDS.get(norm(match.group(1))) is None:
            continue
        if current == "army" and "," in match.group(0):
            continue  # an army's units are listed by commas («…, демоны — атака …»): only «;» ends it
        parts.append(line.slice(start, match.start()).strip())
        start = match.end()
    parts.append(line.slice(start).strip())
    return [part for part in parts if part.text]


def _first_word(text: str) -> str:
    ws = words(text)
    return ws[0] if ws else ""


def _strip_keyword(text: str) -> str:
    """The line without its first word and a separator after it."""
    m = re.match(r"^\s*[\w-]+\s*[:\-–—]?\s*", text)
    return text[m.end():] if m else text


def _choice(text: str) -> tuple[str | None, str]:
    """A capture choice named anywhere in ``text`` (in brackets or after a comma), and the rest."""
    t = norm(text)
    for phrase, choice in CHOICE_WORDS:
        at = t.find(phrase)
        if at >= 0:
            end = at + len(phrase)
            while end < len(t) and t[end].isalpha():  # the word's ending: «колонизиру|ю», «разрушим»
                end += 1
            rest = (text[:at] + text[end:]).strip(" ,;()[].!…")
            return choice, rest
    return None, text


class PostReader:
    """Reads the three kinds of post a faction writes."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.campaign = vocab.campaign

    # -- helpers ------------------------------------------------------------------------

    def _bad(self, out: Reading, line: _Line, part: str, ru: str, en: str, kind: str = "invalid") -> None:
        maker = invalid if kind == "invalid" else illegal
        out.problems.append(maker(ru, en, line.number, line.col(part), line.text, RULE))

    def city(self, out: Reading, line: _Line, phrase: str) -> str | None:
        phrase = phrase.strip(" .,:;()«»\"'")
        phrase = re.sub(r"^(?:в|во|на|из|город|городе|города|in|at|on|the|city of|city)\s+", "", phrase,
                        flags=re.IGNORECASE)
        phrase = re.sub(r"^(?:г\.\s*)", "", phrase, flags=re.IGNORECASE)  # «в г. Гордрим»
        found = self.vocab.cities.match(phrase)
        if len(found) == 1:
            return found[0]
        if not found:
            self._bad(out, line, phrase, f"нет города «{phrase}»{suggestion(self.vocab.cities, phrase, 'ru')}",
                      f"no city '{phrase}'{suggestion(self.vocab.cities, phrase, 'en')}")
        else:
            self._bad(out, line, phrase, f"«{phrase}» подходит к нескольким городам", f"'{phrase}' matches several cities")
        return None

    def faction(self, out: Reading, line: _Line, phrase: str) -> str | None:
        phrase = re.sub(r"^(?:(?:с|со|with|the)\s+)+", "", phrase.strip(" .,:;()«»"), flags=re.IGNORECASE)
        found = self.vocab.factions.match(phrase)
        if len(found) == 1:
            return found[0]
        self._bad(out, line, phrase, f"нет фракции «{phrase}»{suggestion(self.vocab.factions, phrase, 'ru')}",
                  f"no faction '{phrase}'{suggestion(self.vocab.factions, phrase, 'en')}")
        return None

    def building(self, out: Reading, line: _Line, fid: str, phrase: str) -> str | None:
        phrase = phrase.strip(" .,:;()«»\"'")
        lex = self.vocab.buildings[fid]
        found = lex.match(phrase)
        if len(found) == 1:
            return found[0]
        # another faction's building is named as the buildings list names it («Оружейная
        # мастерская», not the «Оружейную мастерскую» of the post) with its faction
        for other, olex in self.vocab.buildings.items():
            theirs = olex.match(phrase) if other != fid else []
            if len(theirs) == 1:
                ru, en = olex.display.get(theirs[0], (phrase, phrase))
                faction = self.vocab.campaign.faction(other)
                self._bad(out, line, phrase, f"«{ru}» — постройка другой фракции ({faction.name_ru}), у вашей её нет",
                          f"'{en}' is another faction's building ({faction.name_en}), not yours")
                return None
        self._bad(out, line, phrase, f"у вашей фракции нет постройки «{phrase}»{suggestion(lex, phrase, 'ru')}",
                  f"your faction has no building '{phrase}'{suggestion(lex, phrase, 'en')}")
        return None

    def units(self, out: Reading, line: _Line, body: str) -> dict[str, int] | None:
        """«10 копейщиков, 6 лучников и 3 всадника» -> {unit: count}."""
        units: dict[str, int] = {}
        ok = True
        for item in _LIST_SPLIT.split(body):
            item = item.strip().strip(".")
            if norm(item) in _EMPTY:
                continue
            m = _ITEM.match(item)
            assert m is not None
            try:
                count = posts.read_int(m.group(1) or m.group(3) or "1")
            except posts.NumberError as exc:
                self._bad(out, line, item, exc.ru, exc.en)
                ok = False
                continue
            phrase = m.group(2).strip()
            found = self.vocab.units.match(phrase)
            if len(found) != 1:
                names = [self.campaign.rules.units[u].name_ru for u in found]
                near_ru, near_en = posts.did_you_mean(
                    self.vocab.units.suggestions(phrase, self.campaign.rules, count))
                self._bad(out, line, item,
                          f"неизвестный юнит «{phrase}»{near_ru}" if not found
                          else f"«{phrase}» — это " + " или ".join(names),
                          f"unknown unit '{phrase}'{near_en}" if not found else f"'{phrase}' matches several units")
                ok = False
                continue
            if count < 1:
                self._bad(out, line, item, "число юнитов должно быть больше нуля", "a unit count must be above zero")
                ok = False
                continue
            units[found[0]] = units.get(found[0], 0) + count
        return units if ok else None

    # -- the turn's orders -----------------------------------------------------------------

    def orders(self, text: str, fid: str) -> Reading:
        """The turn's orders: the post's order lines (``posts.read`` with :func:`begins_turn_order`)."""
        out = Reading()
        lines = [_Line(part) for s in posts.read(text, begins_order=lambda t: begins_turn_order(t, self.vocab.cities, self.vocab.units)).orders
                 for part in _one_order_each(s)]
        originals = text.split("\n")
        template_city: tuple[str, int, int] | None = None  # (city, level, line)
        city_heading: str | None = None  # a city on a line of its own («Авенталь:») over its orders
        hire_heading = False  # «Нанять:» on a line of its own, the units listed below it
        garrison: tuple[str, int, list[str]] | None = None  # (city, first line, numbers of its lines)
        garrison_text = ""
        i = 0

        def close_garrison() -> None:
            nonlocal garrison
            if garrison is None:
                return
            cid, first, block = garrison
            garrison = None
            # the block's lines as posted, at their own line numbers (the deployment reader reads
            # their markup itself and reports the post's lines and columns)
            numbers = {int(n) for n in block}
            padded = "\n".join(originals[i] if i + 1 in numbers else "" for i in range(len(originals)))
            dep = parse_deployment(padded, self.campaign.rules, self.vocab.units)
            out.problems.extend(dep.problems)
            if not dep.problems:
                out.orders.append(Order("garrison", {"city": cid, "squads": [s.to_json() for s in dep.squads]},
                                        first, garrison_text))

        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.text or line.text.startswith("#"):
                continue
            if garrison is not None:
                if self._is_order(line.text) or _CITY_HEADER.match(line.text) or \
                        city_prefix(line.text, self.vocab.cities) is not None:
                    close_garrison()
                else:
                    garrison[2].append(str(line.number))
                    continue
            head = _CITY_HEADER.match(line.text)
            if head:
                try:
                    level = posts.read_int(head.group("lvl") or head.group("lvl2"))
                except posts.NumberError as exc:
                    self._bad(out, line, line.text, exc.ru, exc.en)
                    continue
                cid = self.city(out, line, head.group("name"))
                template_city = (cid, level, line.number) if cid else None
                city_heading = None
                if cid:
                    out.orders.append(Order("template", {"city": cid, "level": level}, line.number, line.text))
                continue
            listed = _BUILDINGS_LINE.match(line.text)
            if listed:
                if template_city is None:
                    self._bad(out, line, line.text, "«Постройки:» без строки города над ней («Название (1 ур.) (Малый)»)",
                              "'Buildings:' without a city line above it ('Name (1 ур.) (small)')")
                    continue
                body = listed.group("body").strip()
                if norm(body) in _EMPTY:
                    continue
                ids = []
                for phrase in _LIST_SPLIT.split(body):
                    if norm(phrase.strip()) in _EMPTY:
                        continue
                    bid = self.building(out, line, fid, phrase)
                    if bid:
                        ids.append(bid)
                out.orders.append(Order("template_buildings", {"city": template_city[0], "buildings": ids},
                                        line.number, line.text))
                continue
            if _TEMPLATE_SKIP.match(norm(line.text)):
                continue
            prefixed = city_prefix(line.text, self.vocab.cities) if _first_word(line.text) not in _KEYWORDS else None
            if prefixed is not None:
                template_city = None
                heading, rest = prefixed
                if rest:
                    self._for_city(out, line, fid, heading, rest)
                else:
                    city_heading = heading
                continue
            kind = _KEYWORDS.get(_first_word(line.text))
            if kind is None and units_line(line.text.rstrip(";,"), self.vocab.units):
                if hire_heading:
                    self._hire(out, line, fid, line.text.rstrip(";,"))
                else:
                    self._bad(out, line, line.text, f"юнитов нанимают приказом «Нанять {line.text}» (или списком под "
                              "строкой «Нанять:»)", f"units are hired with 'Hire {line.text}' (or listed under 'Hire:')")
                continue
            hire_heading = kind == "hire" and not _strip_keyword(line.text).strip(" :")
            if kind in _CITY_KINDS and city_heading is not None and not self._names_city(line.text, kind):
                self._for_city(out, line, fid, city_heading, line.text)
                continue
            if kind is None and self._starts_with_flank(line.text):
                self._bad(out, line, line.text,
                          "расстановка вне блока: начните его строкой «Гарнизон <город>:»",
                          "a deployment outside a block: start it with 'Garrison <city>:'")
                continue
            if kind is None:
                near_ru, near_en = posts.did_you_mean(posts.suggest(_first_word(line.text), list(_KEYWORDS),
                                                                    limit=2, cutoff=0.8))
                if near_ru:
                    self._bad(out, line, line.text, f"неизвестный приказ «{_first_word(line.text)}»{near_ru}",
                              f"unknown order '{_first_word(line.text)}'{near_en}")
                    continue
                self._bad(out, line, line.text,
                          "не понимаю строку: приказ начинается со слова «Построить», «Продать», «Повысить», "
                          "«Восстановить», «Нанять», «Очистить», «Армия», «Заклинание», «Ритуал», «Союз», "
                          "«Разорвать», «Предать», «Демоны», «Передвижной город», «Лагерь», «Гарнизон» или с города из "
                          "списка «Название (1 ур.)»",
                          "cannot read this line: an order starts with Build, Sell, Raise, Restore, Hire, Cleanse, "
                          "Army, Spell, Ritual, Alliance, Break, Betray, Demons, Mobile city, Camp, Garrison, or a city "
                          "line 'Name (level 1)'")
                continue
            if kind != "garrison":
                template_city = None
            if kind == "garrison":
                body = _strip_keyword(line.text)
                name, _, rest = body.partition(":")
                name = re.sub(r"^(?:of|города)\s+", "", name.strip(), flags=re.IGNORECASE)
                cid = self.city(out, line, name)
                if cid is None:
                    continue
                garrison = (cid, line.number, [])
                garrison_text = line.text
                if rest.strip():
                    self._bad(out, line, rest, "расстановку гарнизона пишут со следующей строки",
                              "write the garrison's deployment from the next line")
                continue
            getattr(self, f"_{kind}")(out, line, fid)
        close_garrison()
        return out

    def _names_city(self, text: str, kind: str) -> bool:
        """Whether an order that names one city names it itself («построить Барак в Авентале»)."""
        body = _strip_keyword(text)
        if kind in ("build", "sell"):
            return re.search(r"\s(?:в|во|in|at)\s", body, re.IGNORECASE) is not None
        body = re.sub(r"^(?:уровень|level of|level)\b\s*", "", body, flags=re.IGNORECASE)
        body = re.sub(r"\s*(?:\b(?:до|to)\s+\d.*|\b(?:за|for)\s+\S+)$", "", body, flags=re.IGNORECASE)
        return bool(body.strip())

    def _for_city(self, out: Reading, line: _Line, fid: str, cid: str, text: str) -> None:
        """An order that names one city, the city written before it («Авенталь: построить Барак,
        Часовню», «Авенталь — поднять уровень», «Aventhal: sell chapel»): the same orders as
        «Построить Барак в Авентале», one per building listed."""
        kind = _KEYWORDS.get(_first_word(text))
        body = _strip_keyword(text).strip()
        if kind in ("build", "sell"):
            if not body or norm(body) in _EMPTY:
                self._bad(out, line, text, "назовите постройку: «Авенталь: построить Барак»",
                          "name the building: 'Aventhal: build barracks'")
                return
            for phrase in _LIST_SPLIT.split(body):
                if norm(phrase.strip()) in _EMPTY:
                    continue
                bid = self.building(out, line, fid, phrase)
                if bid:
                    out.orders.append(Order(str(kind), {"city": cid, "building": bid}, line.number, line.text))
            return
        if kind == "raise":
            body = re.sub(r"^(?:уровень|level of|level)\b\s*", "", body, flags=re.IGNORECASE)
            m = re.search(r"(?:^|\s)(?:до|to)\s+(\d)\S*(?:\s+(?:уровня|ур\.?|level))?\s*$", body, re.IGNORECASE)
            rest = body[:m.start()] if m else body
            if rest.strip():
                self._bad(out, line, rest.strip(), "ожидаю «Авенталь: повысить до 2»", "expected 'Aventhal: raise to 2'")
                return
            out.orders.append(Order("raise", {"city": cid, "to": int(m.group(1)) if m else None},
                                    line.number, line.text))
            return
        if kind == "restore":
            if body:
                self._bad(out, line, body, "ожидаю «Вельмар: восстановить»", "expected 'Velmar: restore'")
                return
            out.orders.append(Order("restore", {"city": cid}, line.number, line.text))
            return
        pay = "gold"
        m = re.match(r"^(?:за|for)\s+(\S+)$", body, re.IGNORECASE)
        if m and norm(m.group(1)).startswith(("чест", "ман", "honour", "honor", "mana", "рес", "resource")):
            pay = "resource"
        elif body and not (m and norm(m.group(1)).startswith(("зол", "gold"))):
            self._bad(out, line, body, "ожидаю «Вельмар: очистить за честь» или «за золото»",
                      "expected 'Velmar: cleanse for honour' or 'for gold'")
            return
        out.orders.append(Order("cleanse", {"city": cid, "pay": pay}, line.number, line.text))

    def _is_order(self, text: str) -> bool:
        return _KEYWORDS.get(_first_word(text)) is not None and not self._starts_with_flank(text)

    @staticmethod
    def _starts_with_flank(text: str) -> bool:
        ws = words(text)
        return bool(ws) and any(ws[0].startswith(s) for s in ("прав", "лев", "центр", "right", "left", "centr",
                                                              "авангард", "арьергард", "vanguard", "rearguard",
                                                              "порох", "gunpowder"))

    def _split_in(self, out: Reading, line: _Line, fid: str, body: str, kind: str = "build"
                  ) -> tuple[str, str] | None:
        """«Барак в Авентале» / «в Авентале: Барак» / «barracks in Aventhal» -> (building, city)."""
        m = re.match(r"^(?:в|во|in|at)\s+(.+?)\s*[:\-–—]\s*(.+)$", body, re.IGNORECASE)
        if m:
            city, building = m.group(1), m.group(2)
            cid = self.city(out, line, city)
            bid = self.building(out, line, fid, building)
            return (bid, cid) if bid and cid else None
        m = re.match(r"^(?:в|во|in|at)\s+(.+)$", body, re.IGNORECASE)
        if m:  # «Строю в Авентале Барак»: the city first, then the building, no colon between
            ws = m.group(1).split()
            for cut in range(1, len(ws)):
                cid = self.vocab.cities.one(" ".join(ws[:cut]))
                bid = self.vocab.buildings[fid].one(" ".join(ws[cut:]))
                if cid and bid:
                    return bid, cid
        for sep in re.finditer(r"\s+(?:в|во|in|at)\s+", body, re.IGNORECASE):
            b, c = body[:sep.start()], body[sep.end():]
            if self.vocab.buildings[fid].one(b) and self.vocab.cities.one(c.strip(" .")):
                return self.vocab.buildings[fid].one(b) or "", self.vocab.cities.one(c.strip(" .")) or ""
        seps = list(re.finditer(r"\s+(?:в|во|in|at)\s+", body, re.IGNORECASE))
        if not seps:
            if kind == "sell":
                self._bad(out, line, body, "укажите город: «Продать Часовню в Гордриме» или «Гордрим: продать Часовню»",
                          "name the city: 'Sell chapel in Gordrim' or 'Gordrim: sell chapel'")
            else:
                self._bad(out, line, body, "укажите город: «Построить Барак в Авентале» или «Авенталь: построить Барак»",
                          "name the city: 'Build barracks in Aventhal' or 'Aventhal: build barracks'")
            return None
        last = seps[-1]
        bid = self.building(out, line, fid, body[:last.start()])
        cid = self.city(out, line, body[last.end():])
        return (bid, cid) if bid and cid else None

    def _several_in(self, fid: str, body: str) -> list[tuple[str, str]] | None:
        """Several buildings in one order, each part a building known to the faction and the
        city after the last ones: «Барак в Авентале и Часовню в Гордриме», «Барак, Часовню в
        Авентале» -> [(building, city), ...]; ``None`` unless every part is read so."""
        parts = [p.strip() for p in _LIST_SPLIT.split(body) if p.strip()]
        if len(parts) < 2:
            return None
        read: list[tuple[str, str | None]] = []
        for part in parts:
            bid = self.vocab.buildings[fid].one(part)
            if bid is not None:
                read.append((bid, None))
                continue
            seps = list(re.finditer(r"\s+(?:в|во|in|at)\s+", part, re.IGNORECASE))
            bid = self.vocab.buildings[fid].one(part[:seps[-1].start()]) if seps else None
            cid = self.vocab.cities.one(part[seps[-1].end():].strip(" .")) if seps else None
            if bid is None or cid is None:
                return None
            read.append((bid, cid))
        pairs: list[tuple[str, str]] = []
        city: str | None = None
        for bid, cid in reversed(read):
            city = cid or city
            if city is None:
                return None
            pairs.append((bid, city))
        return pairs[::-1]

    def _build(self, out: Reading, line: _Line, fid: str) -> None:
        self._build_or_sell(out, line, fid, "build")

    def _sell(self, out: Reading, line: _Line, fid: str) -> None:
        self._build_or_sell(out, line, fid, "sell")

    def _city_then_list(self, fid: str, body: str) -> list[tuple[str, str]] | None:
        """«в Морвене Убежище культистов, Тёмный алтарь и Демонический портал»: the city after «в»,
        then the buildings it gets, listed by commas and «и» -> [(building, city), ...]; ``None``
        unless the city and every building are read so."""
        m = re.match(r"^(?:в|во|in|at)\s+(.+)$", body, re.IGNORECASE)
        if not m:
            return None
        rest = m.group(1)
        for cut in re.finditer(r"\s+", rest):
            cid = self.vocab.cities.one(rest[:cut.start()].strip(" ,:"))
            if cid is None:
                continue
            parts = [p.strip() for p in _LIST_SPLIT.split(rest[cut.end():]) if p.strip()]
            bids = [self.vocab.buildings[fid].one(p) for p in parts]
            if len(parts) >= 2 and all(bids):
                return [(str(bid), cid) for bid in bids]
        return None

    def _build_or_sell(self, out: Reading, line: _Line, fid: str, kind: str) -> None:
        body = _strip_keyword(line.text)
        several = self._several_in(fid, body) or self._city_then_list(fid, body)
        pairs = several if several is not None else [p for p in [self._split_in(out, line, fid, body, kind)] if p]
        for bid, cid in pairs:
            out.orders.append(Order(kind, {"city": cid, "building": bid}, line.number, line.text))

    def _raise(self, out: Reading, line: _Line, fid: str) -> None:
        body = _strip_keyword(line.text)
        body = re.sub(r"^(?:уровень|level of|level)\s+", "", body, flags=re.IGNORECASE)
        to = None
        m = re.search(r"\s+(?:до|to)\s+(\d)\S*(?:\s+(?:уровня|ур\.?|level))?\s*$", body, re.IGNORECASE)
        if m:
            to = int(m.group(1))
            body = body[:m.start()]
        cid = self.city(out, line, body)
        if cid:
            out.orders.append(Order("raise", {"city": cid, "to": to}, line.number, line.text))

    def _restore(self, out: Reading, line: _Line, fid: str) -> None:
        cid = self.city(out, line, _strip_keyword(line.text))
        if cid:
            out.orders.append(Order("restore", {"city": cid}, line.number, line.text))

    def _hire(self, out: Reading, line: _Line, fid: str, listed: str | None = None) -> None:
        body = _strip_keyword(line.text) if listed is None else listed
        body = re.sub(r"^(?:наёмников|наемников|mercenaries)\s*[:\-–—]?\s*", "", body, flags=re.IGNORECASE)
        where = re.search(r"\s+(?:в|во|in|at)\s+(\S.*)$", body, re.IGNORECASE)
        if where and self.vocab.cities.match(where.group(1).strip(" .")):
            self._bad(out, line, where.group(0).strip(),
                      "юнитов нанимают без города: «Нанять 10 копейщиков»",
                      "units are hired without a city: 'Hire 10 spearmen'")
            return
        units = self.units(out, line, body)
        if units:
            out.orders.append(Order("hire", {"units": units}, line.number, line.text))

    def _cleanse(self, out: Reading, line: _Line, fid: str) -> None:
        body = _strip_keyword(line.text)
        pay = "gold"
        m = re.search(r"\s+(?:за|for)\s+(\S+)\s*$", body, re.IGNORECASE)
        if m:
            word = norm(m.group(1))
            if word.startswith(("зол", "gold")):
                pay = "gold"
            elif word.startswith(("чест", "ман", "honour", "honor", "mana", "рес", "resource")):
                pay = "resource"
            else:
                self._bad(out, line, m.group(1), "платят золотом или честью/маной: «за золото», «за честь»",
                          "pay with gold or honour/mana: 'for gold', 'for honour'")
                return
            body = body[:m.start()]
        cid = self.city(out, line, body)
        if cid:
            out.orders.append(Order("cleanse", {"city": cid, "pay": pay}, line.number, line.text))

    _ACTIONS: tuple[tuple[str, str], ...] = (
        ("телепортация на", "teleport"), ("телепортация", "teleport"), ("телепорт на", "teleport"),
        ("телепорт", "teleport"), ("teleport to", "teleport"), ("teleport", "teleport"),
        ("атаковать", "attack"), ("атака на", "attack"), ("атака", "attack"), ("attack", "attack"),
        ("атакует", "attack"), ("атакуют", "attack"), ("атакуем", "attack"), ("attacks", "attack"),
        ("нападение на", "attack"), ("напасть на", "attack"), ("штурм", "attack"), ("assault", "attack"),
        ("оборонять", "defend"), ("оборона", "defend"), ("защищать", "defend"), ("защита", "defend"),
        ("обороняет", "defend"), ("обороняют", "defend"), ("обороняем", "defend"), ("защищает", "defend"),
        ("защищают", "defend"), ("защищаем", "defend"), ("defends", "defend"),
        ("defend", "defend"), ("defence of", "defend"), ("defense of", "defend"), ("hold", "defend"),
        ("рассредоточиться", "disperse"), ("рассредоточение", "disperse"), ("disperse", "disperse"),
        ("отдых", "disperse"), ("stand down", "disperse"),
    )

    def _army(self, out: Reading, line: _Line, fid: str) -> None:
        text = line.text
        m = re.match(r"^\s*(?:армия|army)\s*(?P<name>[^:—–-]*?)\s*[:—–-]\s*(?P<body>.*)$", text, re.IGNORECASE)
        if not m:
            self._bad(out, line, text, "ожидаю «Армия 1: <юниты> — атака <город>»",
                      "expected 'Army 1: <units> - attack <city>'")
            return
        # «Армия №1», «Army #1»: the number sign is no part of the name
        name = m.group("name").strip().lstrip("№#").strip() or "1"
        if len(name) > ARMY_NAME:
            self._bad(out, line, name, f"имя армии длиннее {ARMY_NAME} знаков", f"an army's name is longer than "
                      f"{ARMY_NAME} characters")
            return
        body = m.group("body")
        low = norm(body)
        found: tuple[int, str, str] | None = None
        for phrase, action in self._ACTIONS:
            for hit in re.finditer(r"(?:^|[\s,;:(—–-])" + re.escape(phrase) + r"(?=$|[\s,;:)])", low):
                start = hit.start() + (1 if hit.group(0)[0] in " ,;:(—–-" else 0)
                if found is None or start < found[0]:
                    found = (start, phrase, action)
        if found is None:
            self._bad(out, line, body, "армии нужен приказ: «атака <город>», «оборона <город>» или «рассредоточиться»",
                      "an army needs an order: 'attack <city>', 'defend <city>' or 'disperse'")
            return
        start, phrase, action = found
        units_text = body[:start].strip(" ,;:—–-")
        target_text = body[start + len(phrase):].strip(" ,;:—–-")
        choice, target_text = _choice(target_text)
        if norm(units_text) in _ALL:
            units: dict[str, int] | str | None = "all"
        elif norm(units_text) in _REST:
            units = "rest"
        elif not units_text:
            self._bad(out, line, body, "перечислите юниты армии (или «все», «остальные»)",
                      "list the army's units (or 'all', 'rest')")
            return
        else:
            units = self.units(out, line, units_text)
            if units is None:
                return
        target = None
        if action != "disperse":
            if not target_text:
                self._bad(out, line, body, "укажите город", "name the city")
                return
            target = self.city(out, line, target_text)
            if target is None:
                return
        elif target_text:
            self._bad(out, line, target_text, "рассредоточенной армии город не нужен", "a dispersing army needs no city")
            return
        if choice is not None and action not in ("attack", "teleport"):
            self._bad(out, line, body, "выбор при захвате — только у атакующей армии",
                      "a capture choice belongs to an attacking army")
            return
        out.orders.append(Order("army", {"name": name, "units": units, "action": action, "target": target,
                                         "choice": choice}, line.number, text))

    def _named_target(self, out: Reading, line: _Line, lex: Lexicon, what_ru: str, what_en: str
                      ) -> tuple[str, str] | None:
        """«<name> — <target>» after the keyword; returns (id, target text)."""
        body = _strip_keyword(line.text)
        parts = _SEP.split(body, maxsplit=1)
        if len(parts) == 1:
            parts = re.split(r"\s*:\s*", body, maxsplit=1)
        name = parts[0].strip()
        target = parts[1].strip() if len(parts) > 1 else ""
        ident = lex.one(name)
        if ident is None:
            # the target may follow the name without a dash: «Прорицание Империя»
            ws = name.split()
            for cut in range(len(ws) - 1, 0, -1):
                ident = lex.one(" ".join(ws[:cut]))
                if ident:
                    target = " ".join(ws[cut:]) + (" " + target if target else "")
                    break
        if ident is None:
            self._bad(out, line, name, f"нет {what_ru} «{name}»{suggestion(lex, name, 'ru')}",
                      f"no {what_en} '{name}'{suggestion(lex, name, 'en')}")
            return None
        return ident, target.strip()

    def _spell(self, out: Reading, line: _Line, fid: str) -> None:
        got = self._named_target(out, line, self.vocab.spells, "заклинания", "spell")
        if got is None:
            return
        sid, target = got
        args: dict[str, Any] = {"spell": sid}
        if sid in ("floating_city", "call_of_the_forest"):
            cid = self.city(out, line, target) if target else None
            if cid is None:
                if not target:
                    self._bad(out, line, line.text, "укажите город", "name the city")
                return
            args["city"] = cid
        elif sid == "divination":
            target_fid = self.faction(out, line, target) if target else None
            if target_fid is None:
                if not target:
                    self._bad(out, line, line.text, "укажите фракцию", "name the faction")
                return
            args["faction"] = target_fid
        else:
            m = re.match(r"^(?:армия|армию|army)\s*(.*)$", target, re.IGNORECASE)
            args["army"] = (m.group(1).strip() if m else target.strip()) or "1"
        out.orders.append(Order("spell", args, line.number, line.text))

    def _ritual(self, out: Reading, line: _Line, fid: str) -> None:
        got = self._named_target(out, line, self.vocab.rituals, "ритуала", "ritual")
        if got is None:
            return
        rid, target = got
        args: dict[str, Any] = {"ritual": rid}
        if rid in ("infection", "deal", "sacrifice"):
            if not target:
                self._bad(out, line, line.text, "укажите город", "name the city")
                return
            cid = self.city(out, line, target)
            if cid is None:
                return
            args["city"] = cid
        elif rid in ("summoning", "feeding"):
            if target:
                units = self.units(out, line, target)
                if units is None:
                    return
                args["units"] = units
        elif rid == "teleport":
            self._bad(out, line, line.text,
                      "телепортацию пишут в строке армии: «Армия 2: 10 рыцарей пустоты — телепортация на Ормис»",
                      "a teleport is written in the army's line: 'Army 2: 10 void knights - teleport to Ormis'")
            return
        elif target:
            self._bad(out, line, target, "этому ритуалу цель не нужна", "this ritual takes no target")
            return
        out.orders.append(Order("ritual", args, line.number, line.text))

    def _alliance(self, out: Reading, line: _Line, fid: str) -> None:
        # «Союз: Империя», «Предлагаю союз Княжеству», «Propose alliance to the Empire»
        body = re.sub(r"^(?:союз|alliance)(?:\s+to)?\s*[:\-–—]?\s*", "", _strip_keyword(line.text), flags=re.IGNORECASE)
        target = self.faction(out, line, body)
        if target:
            out.orders.append(Order("alliance", {"faction": target}, line.number, line.text))

    def _break(self, out: Reading, line: _Line, fid: str) -> None:
        body = re.sub(r"^(?:разорвать|break)\s+(?:союз|alliance)\s*(?:с|со|with)?\s*", "", line.text, flags=re.IGNORECASE)
        target = self.faction(out, line, body)
        if target:
            out.orders.append(Order("break", {"faction": target}, line.number, line.text))

    def _betray(self, out: Reading, line: _Line, fid: str) -> None:
        body = _strip_keyword(line.text)
        name, _, rest = body.partition(":")
        target = self.faction(out, line, name)
        if target is None:
            return
        cities = []
        for phrase in _LIST_SPLIT.split(rest):
            if phrase.strip():
                cid = self.city(out, line, phrase)
                if cid is None:
                    return
                cities.append(cid)
        out.orders.append(Order("betray", {"faction": target, "cities": cities}, line.number, line.text))

    def _demons(self, out: Reading, line: _Line, fid: str) -> None:
        units = self.units(out, line, _strip_keyword(line.text))
        if units:
            out.orders.append(Order("demons", {"units": units}, line.number, line.text))

    def _mobile(self, out: Reading, line: _Line, fid: str) -> None:
        body = re.sub(r"^(?:передвижной город|mobile city)\s*[:\-–—]?\s*", "", line.text, flags=re.IGNORECASE)
        road = self._road(out, line, body, "ожидаю «Передвижной город: Тарнбург — Вельмар» (дорога между двумя городами)",
                          "expected 'Mobile city: Tarnburg - Velmar' (the road between two cities)")
        if road:
            out.orders.append(Order("mobile", {"road": road}, line.number, line.text))

    def _camp(self, out: Reading, line: _Line, fid: str) -> None:
        """«Лагерь: Морвен — Вельмар», «Разбить лагерь на дороге Морвен — Вельмар», "Camp: Morven -
        Velmar" (ruling C53)."""
        body = re.sub(r"^(?:(?:разбить|разбиваю|разбиваем|pitch|pitch a|make)\s+)?(?:лагерь|лагеря|a camp|camp|encamp)"
                      r"\s*[:\-–—]?\s*", "", line.text, flags=re.IGNORECASE)
        body = re.sub(r"^(?:на дороге|на дорогу|дорога|on the road|the road)\s*[:\-–—]?\s*", "", body,
                      flags=re.IGNORECASE)
        road = self._road(out, line, body, "ожидаю «Лагерь: Морвен — Вельмар» (дорога между двумя городами)",
                          "expected 'Camp: Morven - Velmar' (the road between two cities)")
        if road:
            out.orders.append(Order("camp", {"road": road}, line.number, line.text))

    def _road(self, out: Reading, line: _Line, body: str, ru: str, en: str) -> list[str] | None:
        """A road written as its two cities: «Тарнбург — Вельмар», «между Морвеном и Вельмаром»."""
        body = re.sub(r"^(?:на дорогу|на|to the road|to|между|between)\s+", "", body, flags=re.IGNORECASE)
        parts = [p for p in re.split(r"\s+[—–-]+\s+|\s*[—–]\s*|\s*→\s*|\s*->\s*|\s+(?:и|and)\s+|\s*,\s*", body) if p.strip()]
        if len(parts) != 2:
            self._bad(out, line, body, ru, en)
            return None
        a = self.city(out, line, parts[0])
        b = self.city(out, line, parts[1])
        return [a, b] if a and b else None

    # -- battle posts and capture choices ---------------------------------------------------

    def battle_blocks(self, text: str, battles: Sequence[tuple[str, str]], planning: bool = False
                      ) -> tuple[dict[tuple[str, str | None], str], list[Problem]]:
        """Split a battle post into blocks by «Битва за <город>:» headers — «Битва за <город>
        (<фракция>):» for one of several attackers of the city — keyed by (city, enemy or
        ``None``). ``battles`` are the (city, enemy) pairs the faction fights; with one city the
        header may be left out. Each block keeps the post's line numbers (other lines blanked)."""
        lines = text.split("\n")
        blocks: dict[tuple[str, str | None], list[int]] = {}
        problems: list[Problem] = []
        cities = sorted({c for c, _e in battles})
        current: tuple[str, str | None] | None = (cities[0], None) if len(cities) == 1 else None
        read = posts.read(text, begins_order=lambda line: begins_battle_line(line, planning))
        for source in read.orders:
            number, raw = source.number, source.text
            m = _BATTLE_HEADER.match(_BULLET.sub("", raw).strip())
            if m:
                out = Reading()
                # «Битва за Вельмар — гарнизон по умолчанию»: a remark after a dash is the player's
                named = re.split(r"\s+[—–-]+\s+", m.group(1), maxsplit=1)[0]
                enemy: str | None = None
                qualified = re.match(r"^(.*?)\s*\(([^)]*)\)\s*$", named)
                if qualified:
                    named = qualified.group(1)
                    enemy = self.faction(out, _Line(source), qualified.group(2))
                cid = self.city(out, _Line(source), named)
                problems.extend(out.problems)
                if cid is not None and (cid not in cities or enemy is not None and (cid, enemy) not in battles):
                    problems.append(illegal("у вас нет такой битвы за этот город", "you have no such battle for this city",
                                            number, 1, raw.strip(), RULE))
                    cid = None
                current = (cid, enemy) if cid is not None else None
                continue
            if not raw.strip() or raw.strip().startswith("#"):
                continue
            if current is None:
                if len(battles) > 1:
                    problems.append(invalid(
                        "у вас несколько битв: начните блок строкой «Битва за <город>:»",
                        "you have several battles: start each block with 'Battle for <city>:'",
                        number, 1, raw.strip(), RULE))
                continue
            blocks.setdefault(current, []).append(number)
        out_blocks = {key: "\n".join(lines[n - 1] if n in set(nums) else "" for n in range(1, max(nums) + 1))
                      for key, nums in blocks.items()}
        return out_blocks, problems

    def captures(self, text: str, cities: Sequence[str]) -> Reading:
        """«Ормис: колонизировать» per captured city; with one city the name may be left out."""
        out = Reading()
        for source in posts.read(text, begins_order=begins_capture).orders:
            line = _Line(source)
            number = line.number
            if not line.text or line.text.startswith("#"):
                continue
            choice, rest = _choice(line.text)
            if choice is None:
                self._bad(out, line, line.text, "ожидаю «<город>: колонизировать | разграбить | разрушить | "
                          "разрушить и бросить»", "expected '<city>: colonise | plunder | raze | raze and abandon'")
                continue
            rest = re.sub(r"^(?:захват|capture)\s*", "", rest.strip(" :—–-"), flags=re.IGNORECASE)
            if not rest.strip(" :—–-"):
                if len(cities) != 1:
                    self._bad(out, line, line.text, "назовите город: у вас несколько захватов",
                              "name the city: you have several captures")
                    continue
                cid: str | None = cities[0]
            else:
                cid = self.city(out, line, rest.strip(" :—–-"))
                if cid is None:
                    continue
            out.orders.append(Order("capture", {"city": cid, "choice": choice}, number, line.text))
        return out
