"""The order grammar of Новые Миры: what a player writes in bold, Russian or English.

Each bold line holds one order or several (separated by «;», or simply written one after
another: the next order's keyword starts it). The whole syntax, with examples, is in
docs/new_worlds.md «Orders»; in short::

    город C5 · порт C6 · университет D4 · завод военный D5     city C5 · port C6 · university D4 · factory military D5
    улучшить город C5 · переориентировать завод D5 ткацкий      upgrade city C5 · refocus factory D5 textile
    занять C7 C8 D8                                             colonize C7 C8 D8
    война Борис захват ресурсов · улучшить войну Борис тотальная war Boris resource grab · upgrade war Boris total
    атака Борис 12: E5 E6 · оборона Борис 6 · мир Борис        attack Boris 12: E5 E6 · defend Boris 6 · peace Boris
    пакт Борис · союз Борис · разорвать пакт Борис              pact Boris · alliance Boris · break pact Boris
    нарушить перемирие Борис                                    break truce Boris
    торговля Борис: мех за вино · отменить торговлю …           trade Boris: fur for wine · cancel trade …
    помощь Борис 10 · передать Борис C5 C6                      aid Boris 10 · cede Boris C5 C6
    дань Борис 50% · освободить Борис · навязать веру Борис      tribute Boris 50% · release Boris · impose faith Boris
    разрешить Борис войну Вера · вернуть веру                   permit Boris war Vera · restore faith
    исследование мир 10 · ополчение                             research peace 10 · militia
    религия монотеизм · страна Ромея · назвать C5 Златоград     religion monotheism · country Romea · name C5 Goldtown
    пересоздание F9 Новая Ромея · данник · гибель · реформа улучшить   recreate F9 · tributary · refuse · reform upgrade
    бонус +7                                                    bonus +7 (checked against the ledger)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.errors import Problem, invalid
from voevoda.core.posts import (
    OPENERS,
    STOPS,
    NumberError,
    PostLine,
    did_you_mean,
    fold,
    read_int,
    stem,
    suggest,
    with_example,
)
from voevoda.core.ruleset import Order
from voevoda.rulesets.new_worlds.mapdata import normalise_tile
from voevoda.rulesets.new_worlds.rules import FACTORY_NAMES, Rules

MAX_NUMBER = 999_999_999
"""The shared reader's bound: prices and shares are checked against the points a country has."""


# (phrase, kind): the longest phrase that matches wins.
KEYWORDS: list[tuple[str, str]] = [
    *[(p, "upgrade") for p in ("улучшить город", "улучшение города", "улучшить", "upgrade city", "upgrade")],
    *[(p, "city") for p in ("город", "city", "новый город", "основать город", "found city")],
    *[(p, "port") for p in ("торговый порт", "порт", "trade port", "port")],
    *[(p, "university") for p in ("университет", "university")],
    *[(p, "refocus") for p in ("переориентировать завод", "переориентировать", "переориентация завода",
                               "переориентация", "refocus factory", "refocus")],
    *[(p, "factory") for p in ("завод", "фабрика", "factory")],
    *[(p, "colonize") for p in ("занять", "занимаю", "колонизировать", "колонизация", "экспансия", "освоить",
                                "colonize", "colonise", "expand", "settle", "claim")],
    *[(p, "name_tile") for p in ("назвать", "название", "name")],
    *[(p, "rename") for p in ("переименовать страну", "страна", "country", "rename")],
    *[(p, "religion") for p in ("религия", "вера", "religion", "faith")],
    *[(p, "recreate") for p in ("пересоздание", "пересоздать", "пересоздаюсь", "recreate")],
    *[(p, "war_upgrade") for p in ("улучшить войну", "улучшение войны", "upgrade war")],
    *[(p, "war") for p in ("объявить войну", "объявление войны", "война", "declare war", "war")],
    *[(p, "attack") for p in ("атака", "атаковать", "наступление", "attack")],
    *[(p, "defend") for p in ("оборона", "защита", "defend", "defence", "defense")],
    *[(p, "peace") for p in ("мир", "заключить мир", "peace", "make peace")],
    *[(p, "break_pact") for p in ("разорвать пакт", "break pact")],
    *[(p, "pact") for p in ("пакт о ненападении", "пакт", "non-aggression pact", "pact")],
    *[(p, "break_alliance") for p in ("разорвать союз", "break alliance")],
    *[(p, "alliance") for p in ("союз", "alliance")],
    *[(p, "break_truce") for p in ("нарушить перемирие", "разорвать перемирие", "break truce")],
    *[(p, "cancel_trade") for p in ("отменить торговлю", "разорвать сделку", "отменить сделку", "cancel trade",
                                    "cancel deal")],
    *[(p, "trade") for p in ("торговля", "сделка", "обмен", "trade", "deal")],
    *[(p, "aid") for p in ("помощь", "aid", "help")],
    *[(p, "cede") for p in ("передать", "cede", "transfer")],
    *[(p, "tribute") for p in ("дань", "tribute")],
    *[(p, "release") for p in ("освободить", "release")],
    *[(p, "impose") for p in ("навязать веру", "навязать религию", "impose faith", "impose religion")],
    *[(p, "permit") for p in ("разрешить", "permit")],
    *[(p, "restore_faith") for p in ("вернуть веру", "вернуть старую веру", "restore faith", "restore religion")],
    *[(p, "research") for p in ("исследование", "исследовать", "изучать", "research")],
    *[(p, "militia") for p in ("ополчение", "militia")],
    *[(p, "tributary") for p in ("стать данником", "данник", "tributary", "submit")],
    *[(p, "refuse") for p in ("гибель", "отказ", "refuse", "defy")],
    *[(p, "reform") for p in ("реформа", "reform")],
    *[(p, "bonus") for p in ("бонус", "bonus")],
    *[(p, "roll") for p in ("ролл", "roll", "бросок")],
]
_PHRASES = sorted(((tuple(fold(p).split()), kind) for p, kind in KEYWORDS), key=lambda pk: -len(pk[0]))
FIRST_WORDS = sorted({p[0] for p, _ in _PHRASES})
# the phrases by their first word, longest first: a line's keyword is looked up, not searched for
_BY_FIRST: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _phrase, _kind in _PHRASES:
    _BY_FIRST.setdefault(_phrase[0], []).append((_phrase, _kind))
"""The words an order may begin with, for suggestions («горд» → «город»)."""
FILLERS = OPENERS | {fold(w) for w in ("построить", "строю", "строим", "постройка", "строительство", "возвести",
                                       "build", "новый", "новая", "новое")}
SEPARATORS = {",", ";", ":", "и", "and", "&", "+", "-", "—", "–", "->", "→"}
CYRILLIC = re.compile("[а-яё]")
ROLL_RE = re.compile(r"^#*\d*[dдк]\d+#*$", re.IGNORECASE)
_TOKEN = re.compile(r"##[^#\s]*##|[^\s,;:]+|[,;:]")

SYNTAX: dict[str, tuple[str, str]] = {
    "city": ("город C5", "city C5"),
    "upgrade": ("улучшить город C5", "upgrade city C5"),
    "port": ("порт C5", "port C5"),
    "university": ("университет C5", "university C5"),
    "factory": ("завод военный C5 (золотовалютный, военный, ткацкий, винно-водочный)",
                "factory military C5 (gold, military, textile, wine)"),
    "refocus": ("переориентировать завод C5 ткацкий", "refocus factory C5 textile"),
    "colonize": ("занять C5 C6", "colonize C5 C6"),
    "name_tile": ("назвать C5 Златоград", "name C5 Goldtown"),
    "rename": ("страна Новое имя", "country New name"),
    "religion": ("религия монотеизм (политеизм, дуализм, монотеизм)", "religion monotheism (polytheism, dualism, monotheism)"),
    "recreate": ("пересоздание F9 [имя страны]", "recreate F9 [country name]"),
    "war": ("война с Борисом: захват ресурсов", "war Boris resource grab"),
    "war_upgrade": ("улучшить войну с Борисом: завоевание", "upgrade war Boris conquest"),
    "attack": ("атака на Бориса 12: E5 E6", "attack Boris 12: E5 E6"),
    "defend": ("оборона от Бориса 6", "defend Boris 6"),
    "peace": ("мир с Борисом [отдать C5 C6]", "peace Boris [cede C5 C6]"),
    "pact": ("пакт с Борисом", "pact Boris"),
    "break_pact": ("разорвать пакт с Борисом", "break pact Boris"),
    "alliance": ("союз с Борисом", "alliance Boris"),
    "break_alliance": ("разорвать союз с Борисом", "break alliance Boris"),
    "break_truce": ("нарушить перемирие с Борисом", "break truce Boris"),
    "trade": ("торговля с Борисом: мех за вино", "trade Boris: fur for wine"),
    "cancel_trade": ("отменить торговлю с Борисом: мех за вино", "cancel trade Boris: fur for wine"),
    "aid": ("помощь Борису 10", "aid Boris 10"),
    "cede": ("передать Борису C5 C6", "cede Boris C5 C6"),
    "tribute": ("дань с Бориса 50%", "tribute Boris 50%"),
    "release": ("освободить Бориса", "release Boris"),
    "impose": ("навязать веру Борису", "impose faith Boris"),
    "permit": ("разрешить Борису войну с Верой", "permit Boris war Vera"),
    "restore_faith": ("вернуть веру", "restore faith"),
    "research": ("исследование мир 10 (мир, экономика, война)", "research peace 10 (peace, economy, war)"),
    "militia": ("ополчение", "militia"),
    "tributary": ("данник", "tributary"),
    "refuse": ("гибель", "refuse"),
    "reform": ("реформа улучшить | реформа монотеизм", "reform upgrade | reform monotheism"),
    "bonus": ("бонус +7", "bonus +7"),
    "roll": ("ролл", "roll"),
}
ORDER_WORDS_RU = "город, порт, университет, завод, улучшить, занять, война, атака, оборона, мир, пакт, союз, торговля, исследование"
ORDER_WORDS_EN = "city, port, university, factory, upgrade, colonize, war, attack, defend, peace, pact, alliance, trade, research"


@dataclass(frozen=True)
class Token:
    text: str
    key: str
    start: int


@dataclass
class Lexicon:
    """The names a post may use: countries, tiles, resources, war types, religions, branches."""

    countries: dict[str, str] = field(default_factory=dict)      # folded name -> country id
    shown: dict[str, str] = field(default_factory=dict)          # folded name -> as written
    tiles: set[str] = field(default_factory=set)
    tile_names: dict[str, str] = field(default_factory=dict)     # folded name -> tile
    resources: dict[str, str] = field(default_factory=dict)
    war_types: dict[str, str] = field(default_factory=dict)
    religions: dict[str, str] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    factories: dict[str, str] = field(default_factory=dict)
    _declined: dict[str, str] | None = field(default=None, repr=False)
    _stemmed: dict[str, str] | None = field(default=None, repr=False)

    def stemmed(self) -> dict[str, str]:
        """Countries by the stems of their words («Ромейск держав» for «Ромейская держава»,
        «Борис»), so that a name in another case («с Ромейской державой», «Борису») is found
        by its stem without the morphology dictionary (whose loading cost every replay of a
        game a tenth of a second); a stem two countries share is left out."""
        if self._stemmed is None:
            found: dict[str, set[str]] = {}
            for folded, shown in self.shown.items():
                cid = self.countries[folded]
                found.setdefault(" ".join(stem(w) for w in fold(shown).split(" ")), set()).add(cid)
            self._stemmed = {k: next(iter(v)) for k, v in found.items() if len(v) == 1}
        return self._stemmed

    def declined(self) -> dict[str, str]:
        """Countries named in another case, as Russian posts name them: «союз с Борисом», «помощь
        Анне 10», «пакт с Ромейской державой», «дань с Бориса 50%». Built when a name is not found
        as written (the morphology dictionary loads only then); a form two countries share is
        left out."""
        if self._declined is None:
            from voevoda.core.words import name_in_case

            found: dict[str, set[str]] = {}
            for folded, shown in self.shown.items():
                cid = self.countries[folded]
                for case in ("gent", "datv", "accs", "ablt", "loct"):
                    # the forms the reports write («с Новой Верой», «с Ромеей»), so a post may echo them
                    form = name_in_case(shown, case)
                    key = fold(form)
                    if key not in self.countries:
                        found.setdefault(key, set()).add(cid)
            self._declined = {k: next(iter(v)) for k, v in found.items() if len(v) == 1}
        return self._declined

    @classmethod
    def build(cls, rules: Rules, countries: Mapping[str, str], tiles: Iterable[str],
              tile_names: Mapping[str, str]) -> Lexicon:
        lex = cls()
        for cid, name in countries.items():
            lex.countries[fold(cid)] = cid
            lex.countries.setdefault(fold(name), cid)
            lex.shown.setdefault(fold(cid), cid)
            lex.shown.setdefault(fold(name), name)
        # a Russian name as an English post spells it («Vera», «Boris», «Gleb»), where no other
        # country's name reads the same
        spelt: dict[str, set[str]] = {}
        for cid, name in countries.items():
            for form in {*latin(cid), *latin(name)}:
                spelt.setdefault(fold(form), set()).add(cid)
        for key, cids in spelt.items():
            if len(cids) == 1 and key not in lex.countries:
                lex.countries[key] = next(iter(cids))
        lex.tiles = set(tiles)
        for tile, name in tile_names.items():
            lex.tile_names[fold(name)] = tile
        for rid, res in rules.resources.items():
            for form in (res.name_ru, res.name_en, rid, *res.forms_ru):
                lex.resources[fold(form)] = rid
            lex.resources[fold(res.name_en) + "s"] = rid
        for wid, war in rules.war_types.items():
            for form in (war.name_ru, war.name_en, wid.replace("_", " "), *war.forms_ru):
                lex.war_types[fold(form)] = wid
            lex.war_types[fold(war.name_en.replace(" war", ""))] = wid
        for relid, rel in rules.religions.items():
            for form in (rel.name_ru, rel.name_en, relid, *rel.forms_ru, rel.base.title_ru, rel.base.title_en):
                lex.religions[fold(form)] = relid
        for bid, branch in rules.research.branches.items():
            for form in (branch.name_ru, branch.name_en, bid, *branch.aliases):
                lex.branches[fold(form)] = bid
        for kind, (ru, en, aliases) in FACTORY_NAMES.items():
            for form in (ru, en, kind, *aliases):
                lex.factories[fold(form)] = kind
        return lex




_LATIN = {"а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
          "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
          "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "",
          "э": "e", "ю": "yu", "я": "ya"}
# the other usual spellings of a few letters («Khan» / «Han», «Yegor» / «Egor», «Daria» / «Darya»)
_LATIN_ALSO = {"х": "h", "й": "i", "ю": "iu", "я": "ia", "ё": "yo"}


def latin(name: str) -> set[str]:
    """The Latin spellings of a Cyrillic name: the usual one and, letter by letter, the
    common variants (at most a few); a name with no Cyrillic letter gives nothing."""
    low = name.lower()
    if not CYRILLIC.search(low):
        return set()
    base = "".join(_LATIN.get(ch, ch) for ch in low)
    out = {base}
    for ch, other in _LATIN_ALSO.items():
        if ch in low:
            out.add("".join(other if c == ch else _LATIN.get(c, c) for c in low))
    if low.startswith("е"):
        out.add("ye" + base[1:])   # «Yegor»
    return out


class _Fail(Exception):
    def __init__(self, index: int, ru: str, en: str) -> None:
        super().__init__(en)
        self.index = index
        self.ru = ru
        self.en = en


class LineReader:
    """Reads the orders of one bold line."""

    def __init__(self, line: PostLine, lex: Lexicon) -> None:
        self.line = line
        self.lex = lex
        self.tokens = [Token(m.group(0).rstrip(STOPS), fold(m.group(0).rstrip(STOPS)), m.start())
                       for m in _TOKEN.finditer(line.text) if m.group(0).rstrip(STOPS)]
        self.pos = 0

    # -- the line -----------------------------------------------------------------------------

    def read(self) -> tuple[list[Order], list[Problem]]:
        orders: list[Order] = []
        problems: list[Problem] = []
        while True:
            self._skip(SEPARATORS | FILLERS)
            if self.pos >= len(self.tokens):
                break
            start = self.pos
            kind = self._keyword()
            if kind is None:
                tok = self.tokens[self.pos]
                if not orders:
                    ru, en = did_you_mean(suggest(tok.key, FIRST_WORDS, limit=2, cutoff=0.7))
                    problems.append(self._problem(
                        tok.start, f"не понимаю «{tok.text}»{ru or ': приказы — ' + ORDER_WORDS_RU}",
                        f"cannot read '{tok.text}'{en or ': orders are ' + ORDER_WORDS_EN}"))
                else:
                    problems.append(self._problem(
                        tok.start, f"лишнее «{self._rest_text(self.pos)}» после приказа",
                        f"unexpected '{self._rest_text(self.pos)}' after the order"))
                break
            try:
                args = getattr(self, f"_{kind}")()
            except _Fail as fail:
                ru, en = SYNTAX[kind]
                problems.append(self._problem(fail.index, *with_example(fail.ru, fail.en, ru, en)))
                break
            end_tok = self.tokens[self.pos - 1] if self.pos > start else self.tokens[start]
            text = self.line.text[self.tokens[start].start:end_tok.start + len(end_tok.text)]
            orders.append(Order(kind, args, self.line.number, text.strip().rstrip(" ;,:")))
        return orders, problems

    def _problem(self, index: int, ru: str, en: str) -> Problem:
        return invalid(ru, en, line=self.line.number, column=self.line.column(index), order=self.line.text)

    def _rest_text(self, pos: int) -> str:
        if pos >= len(self.tokens):
            return ""
        return self.line.text[self.tokens[pos].start:].strip()

    def _here(self) -> int:
        if self.pos < len(self.tokens):
            return self.tokens[self.pos].start
        return len(self.line.text)

    def _skip(self, words: set[str]) -> None:
        while self.pos < len(self.tokens) and self.tokens[self.pos].key in words:
            self.pos += 1

    def _keyword(self) -> str | None:
        first = self.tokens[self.pos].key if self.pos < len(self.tokens) else ""
        for phrase, kind in _BY_FIRST.get(first, ()):
            n = len(phrase)
            if tuple(t.key for t in self.tokens[self.pos:self.pos + n]) == phrase:
                self.pos += n
                return kind
        tok = self.tokens[self.pos]
        if ROLL_RE.match(tok.key):
            self.pos += 1
            return "roll_text"
        return None

    def _at_keyword(self) -> bool:
        if self.pos >= len(self.tokens):
            return True
        for phrase, _ in _BY_FIRST.get(self.tokens[self.pos].key, ()):
            if tuple(t.key for t in self.tokens[self.pos:self.pos + len(phrase)]) == phrase:
                return True
        return False

    # -- arguments ----------------------------------------------------------------------------

    def _match_name(self, table: Mapping[str, str], stems: bool = False) -> tuple[str, int] | None:
        """The longest run of tokens from here that is a name in ``table`` (by the words'
        stems with ``stems``)."""
        best: tuple[str, int] | None = None
        for n in range(1, min(6, len(self.tokens) - self.pos) + 1):
            words = [t.key for t in self.tokens[self.pos:self.pos + n]]
            key = " ".join(stem(w) for w in words) if stems else " ".join(words)
            if key in table:
                best = (table[key], n)
        return best

    def country(self) -> str:
        self._skip({"с", "со", "на", "против", "для", "от", "к", "ко", "to", "with", "on", "against", "for", "from",
                    "у"})
        found = self._match_name(self.lex.countries)
        if found is None and self.pos < len(self.tokens) and CYRILLIC.search(self.tokens[self.pos].key):
            found = self._match_name(self.lex.stemmed(), stems=True) or self._match_name(self.lex.declined())
        if found is None:
            if self.pos >= len(self.tokens):
                raise _Fail(self._here(), "не указана страна", "no country given")
            tok = self.tokens[self.pos]
            ru, en = did_you_mean(suggest(tok.text, list(self.lex.shown.values()), limit=2, cutoff=0.6))
            raise _Fail(tok.start, f"нет страны «{tok.text}»{ru}", f"no country '{tok.text}'{en}")
        self.pos += found[1]
        return found[0]

    def tile(self, required: bool = True) -> str | None:
        self._skip({"в", "во", "на", "in", "at", "клетка", "клетку", "tile", "-", "—", "–"})
        if self.pos >= len(self.tokens):
            if required:
                raise _Fail(self._here(), "не указана клетка", "no tile given")
            return None
        tok = self.tokens[self.pos]
        name = normalise_tile(tok.text)
        if name is not None:
            if name not in self.lex.tiles:
                raise _Fail(tok.start, f"клетки {name} нет на карте", f"there is no tile {name} on the map")
            self.pos += 1
            return name
        found = self._match_name(self.lex.tile_names)
        if found is not None:
            self.pos += found[1]
            return found[0]
        if required:
            raise _Fail(tok.start, f"«{tok.text}» — не клетка (например, C5)", f"'{tok.text}' is not a tile (like C5)")
        return None

    def tiles(self) -> list[str]:
        out: list[str] = []
        while True:
            self._skip({",", "и", "and", ":", ";"} if out else {":"})
            if self._at_keyword():
                break
            tile = self.tile(required=not out)
            if tile is None:
                break
            out.append(tile)
        return out

    def number(self, required: bool = True, percent: bool = False) -> int | None:
        self._skip({"очков", "очка", "очко", "points", "point", "во"})
        if self.pos >= len(self.tokens):
            if required:
                raise _Fail(self._here(), "не указано число", "no number given")
            return None
        tok = self.tokens[self.pos]
        text = tok.text.lstrip("+")
        if percent and text.endswith("%"):
            text = text[:-1]
        if percent and tok.key in ("половина", "половину", "half"):
            self.pos += 1
            return 50
        if not text or not text[0].isdigit():
            if required:
                raise _Fail(tok.start, f"«{tok.text}» — не число", f"'{tok.text}' is not a number")
            return None
        try:
            value = read_int(text, maximum=MAX_NUMBER)
        except NumberError as exc:
            raise _Fail(tok.start, exc.ru, exc.en) from exc
        self.pos += 1
        self._skip({"очков", "очка", "очко", "points", "point", "%"})
        return value

    def word_from(self, table: Mapping[str, str], what_ru: str, what_en: str) -> str:
        self._skip({":", "—", "-", "типа", "type"})
        found = self._match_name(table)
        if found is None:
            if self.pos >= len(self.tokens):
                raise _Fail(self._here(), f"не указан {what_ru}", f"no {what_en} given")
            tok = self.tokens[self.pos]
            ru, en = did_you_mean(suggest(self._rest_key(3), table, limit=2, cutoff=0.7))
            raise _Fail(tok.start, f"«{self._rest_text(self.pos)}» — не {what_ru}{ru}",
                        f"'{self._rest_text(self.pos)}' is not a {what_en}{en}")
        self.pos += found[1]
        return found[0]

    def _rest_key(self, n: int) -> str:
        return " ".join(t.key for t in self.tokens[self.pos:self.pos + n])

    def free_text(self) -> str:
        self._skip({":", "—", "-"})
        if self.pos >= len(self.tokens):
            raise _Fail(self._here(), "не указано название", "no name given")
        text = self.line.text[self.tokens[self.pos].start:].strip().strip("«»\"'")
        self.pos = len(self.tokens)
        if len(text) > 60:
            raise _Fail(self._here(), "название длиннее 60 знаков", "the name is longer than 60 characters")
        return text

    # -- the orders -----------------------------------------------------------------------------

    def _city(self) -> dict[str, Any]:
        return {"tile": self.tile()}

    def _port(self) -> dict[str, Any]:
        return {"tile": self.tile()}

    def _university(self) -> dict[str, Any]:
        return {"tile": self.tile()}

    def _upgrade(self) -> dict[str, Any]:
        self._skip({"город", "city"})
        return {"tile": self.tile()}

    def _factory(self) -> dict[str, Any]:
        kind = self._match_name(self.lex.factories)
        if kind is not None:
            self.pos += kind[1]
            return {"type": kind[0], "tile": self.tile()}
        tile = self.tile()
        return {"tile": tile, "type": self.word_from(self.lex.factories, "вид завода", "kind of factory")}

    def _refocus(self) -> dict[str, Any]:
        self._skip({"завод", "factory"})
        tile = self.tile()
        self._skip({"на", "в", "to", "into"})
        return {"tile": tile, "type": self.word_from(self.lex.factories, "вид завода", "kind of factory")}

    def _colonize(self) -> dict[str, Any]:
        return {"tiles": self.tiles()}

    def _name_tile(self) -> dict[str, Any]:
        tile = self.tile()
        return {"tile": tile, "name": self.free_text()}

    def _rename(self) -> dict[str, Any]:
        return {"name": self.free_text()}

    def _religion(self) -> dict[str, Any]:
        return {"religion": self.word_from(self.lex.religions, "религия", "religion")}

    def _recreate(self) -> dict[str, Any]:
        tile = self.tile()
        name = self.free_text() if self.pos < len(self.tokens) else None
        return {"tile": tile, "name": name}

    def _war(self) -> dict[str, Any]:
        target = self.country()
        return {"target": target, "type": self.word_from(self.lex.war_types, "тип войны", "war type")}

    def _war_upgrade(self) -> dict[str, Any]:
        target = self.country()
        self._skip({"до", "в", "на", "to", "into"})
        return {"target": target, "type": self.word_from(self.lex.war_types, "тип войны", "war type")}

    def _attack(self) -> dict[str, Any]:
        target = self.country()
        points = self.number(required=False)
        tiles = self.tiles()
        return {"target": target, "points": points, "tiles": tiles}

    def _defend(self) -> dict[str, Any]:
        target = None
        if self.pos < len(self.tokens) and not self.tokens[self.pos].key.lstrip("+").isdigit():
            target = self.country()
        points = self.number()
        return {"target": target, "points": points}

    def _peace(self) -> dict[str, Any]:
        target = self.country()
        self._skip({",", ":", ";"})
        cede: list[str] = []
        if self.pos < len(self.tokens) and self.tokens[self.pos].key in ("отдать", "отдаю", "cede", "give", "уступить"):
            self.pos += 1
            cede = self.tiles()
        return {"target": target, "cede": cede}

    def _target_only(self) -> dict[str, Any]:
        return {"target": self.country()}

    _pact = _alliance = _break_pact = _break_alliance = _break_truce = _release = _impose = _target_only

    def _trade(self) -> dict[str, Any]:
        target = self.country()
        give = self.word_from(self.lex.resources, "ресурс", "resource")
        self._skip({"за", "на", "for", "against", "->", "→", "=", "/"})
        get = self.word_from(self.lex.resources, "ресурс", "resource")
        return {"target": target, "give": give, "get": get}

    _cancel_trade = _trade

    def _aid(self) -> dict[str, Any]:
        target = self.country()
        return {"target": target, "points": self.number()}

    def _cede(self) -> dict[str, Any]:
        target = self.country()
        return {"target": target, "tiles": self.tiles()}

    def _tribute(self) -> dict[str, Any]:
        target = self.country()
        return {"target": target, "percent": self.number(percent=True)}

    def _permit(self) -> dict[str, Any]:
        target = self.country()
        self._skip({"войну", "войны", "war", "на", "против", "against", "with", "с"})
        return {"target": target, "enemy": self.country()}

    def _no_args(self) -> dict[str, Any]:
        return {}

    _restore_faith = _militia = _tributary = _refuse = _no_args

    def _research(self) -> dict[str, Any]:
        branch = self.word_from(self.lex.branches, "раздел исследований", "research branch")
        points = self.number(required=False)
        return {"branch": branch, "points": points or 0}

    def _reform(self) -> dict[str, Any]:
        if self.pos < len(self.tokens) and self.tokens[self.pos].key in ("улучшить", "улучшение", "upgrade"):
            self.pos += 1
            return {"choice": "upgrade"}
        return {"choice": self.word_from(self.lex.religions, "религия", "religion")}

    def _bonus(self) -> dict[str, Any]:
        self._skip({":", "=", "—", "–"})   # «Бонус: +5», «Бонус = 5»
        sign = 1
        if self.pos < len(self.tokens) and self.tokens[self.pos].text.startswith("-"):
            sign = -1
            tok = self.tokens[self.pos]
            self.tokens[self.pos] = Token(tok.text[1:], tok.key[1:], tok.start + 1)
        amount = self.number()
        assert amount is not None
        self.pos = len(self.tokens)  # «бонус +7 (города, мех)»: the explanation is the player's
        return {"amount": sign * amount}

    def _roll(self) -> dict[str, Any]:
        self.pos = len(self.tokens)
        return {}

    def _roll_text(self) -> dict[str, Any]:
        return {}


def read_lines(lines: Iterable[PostLine], lex: Lexicon) -> tuple[list[Order], list[Problem]]:
    orders: list[Order] = []
    problems: list[Problem] = []
    for line in lines:
        got, bad = LineReader(line, lex).read()
        orders.extend(Order("roll", {}, o.line, o.text) if o.kind == "roll_text" else o for o in got)
        problems.extend(bad)
    return orders, problems


def begins_order(text: str) -> bool:
    """Whether a line begins like an order (for the core's post reader)."""
    tokens = [fold(m.group(0).rstrip(".")) for m in _TOKEN.finditer(text)][:6]
    while tokens and (tokens[0] in FILLERS or tokens[0] in SEPARATORS):
        tokens.pop(0)
    if not tokens:
        return False
    if ROLL_RE.match(tokens[0]):
        return True
    if any(tuple(tokens[:len(p)]) == p for p, _ in _BY_FIRST.get(tokens[0], ())):
        return True
    # a bold line that begins with a misspelt keyword is an order with a typo, not prose
    return len(tokens[0]) >= 3 and bool(suggest(tokens[0], FIRST_WORDS, limit=1, cutoff=0.75))
