"""The orders and announcements of the Thrones companion, in Russian and English.

One order a line (or several on a line, separated by «;»). Areas, houses and units are written
as players write them, in any case («в Винтерфелле», «из Рва Кейлин», «Ланнистеру», «2 пеших»),
by a house's name or by its player's; the whole syntax with examples is in docs/thrones.md
«Orders». In short::

    перевод Ланнистер 3 за «подмогу»             pay Lannister 3 for "support"
    сделка Ланнистер 3 за «подмогу в Харренхолле» deal Lannister 3 for "support at Harrenhal"
    принять сделку 2 · отклонить сделку 2          accept deal 2 · decline deal 2
    святыня Винтерфелл                             holy Winterfell
    союз Ланнистер, Баратеон · одиночка            alliance Lannister, Baratheon · alone
    купить 2 пеших Винтерфелл                      buy 2 footmen Winterfell
    улучшить пешего до рыцаря Винтерфелл           upgrade footman to knight Winterfell
    продать рыцаря Ров Кейлин                      sell knight Moat Cailin
    взнос войсками Белая Гавань: пеший             dues in troops White Harbor: footman
    вестерос: снабжение, битва королей            westeros: supply, clash of kings
    четвёртая карта: Рука Мизинца                  fourth card: Littlefinger's Hand
    ставка 3 · порядок Старк, Ланнистер            bid 3 · tie order Stark, Lannister
    подкуп Сероводье 4: 2, 5 · пас                 bribe Greywater Watch 4: 2, 5 · pass
    подмога Ров Кейлин · усиление Винтерфелл       support Moat Cailin · consolidate Winterfell
    пропуск Старк Ров Кейлин                       passage Stark Moat Cailin
    поход Винтерфелл → Ров Кейлин: 2 пеших         march Winterfell -> Moat Cailin: 2 footmen
    набег Ров Кейлин → Сероводье                   raid Moat Cailin -> Greywater Watch
    потери Ров Кейлин: пеший                       losses Moat Cailin: footman
    отступление Сероводье → Сигард: пеший          retreat Greywater Watch -> Seagard: footman
    жетон Ров Кейлин · войска Сигард: 2 пеших      token Moat Cailin · units Seagard: 2 footmen
    распустить Винтерфелл: пеший                   disband Winterfell: footman
    власть +2 (Игра престолов)                     power +2 (Game of Thrones)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
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
    suggest,
    with_example,
    word_forms,
)
from voevoda.core.ruleset import Order
from voevoda.rulesets.thrones.board import Board
from voevoda.rulesets.thrones.rules import UNIT_KINDS, Rules

MAX_AMOUNT = 1000
"""No sum of power tokens in this game comes near a thousand."""
MAX_TEXT = 200
"""The longest reason of a transfer or description of a service."""


_TOKEN = re.compile(r"→|->|—>|=>|[+−-]?\d+|[\w’']+(?:-[\w’']+)*|[,;:()«»\"“”„]|\S")
ARROWS = {"→", "->", "—>", "=>", "-", "–", "—"}


@dataclass(frozen=True)
class Token:
    text: str
    key: str
    start: int


def tokens_of(text: str) -> list[Token]:
    return [Token(m.group(0), fold(m.group(0)), m.start()) for m in _TOKEN.finditer(text)]


def phrase_key(text: str) -> tuple[str, ...]:
    return tuple(t.key for t in tokens_of(text))


# (phrase, kind): the longest phrase that matches wins.
KEYWORDS: list[tuple[str, str]] = [
    *[(p, "transfer") for p in ("перевод", "перевести", "перевожу", "заплатить", "плачу", "платеж", "платёж",
                                "передать", "передаю", "pay", "transfer", "payment")],
    *[(p, "deal") for p in ("сделка", "предложить сделку", "предлагаю сделку", "deal", "offer deal")],
    *[(p, "accept") for p in ("принять сделку", "принимаю сделку", "принять", "принимаю", "accept deal", "accept")],
    *[(p, "decline") for p in ("отклонить сделку", "отклоняю сделку", "отклонить", "отклоняю", "decline deal",
                               "decline", "reject deal", "reject")],
    *[(p, "holy") for p in ("святыня", "святое место", "святая земля", "holy", "holy place")],
    *[(p, "alliance") for p in ("союз", "в союзе", "союзники", "вступаю в союз", "заключаю союз", "объявляю союз",
                                "alliance", "allied with", "allies")],
    *[(p, "alone") for p in ("одиночка", "без союза", "один", "одна", "alone", "no alliance", "loner")],
    *[(p, "buy") for p in ("купить", "куплю", "покупка", "покупаю", "buy", "purchase")],
    *[(p, "upgrade") for p in ("улучшить", "улучшаю", "улучшение", "upgrade")],
    *[(p, "sell") for p in ("продать", "продаю", "продажа", "sell")],
    *[(p, "dues") for p in ("взнос войсками", "взнос", "dues in troops", "dues")],
    *[(p, "westeros") for p in ("вестерос", "карты вестероса", "westeros", "westeros cards")],
    *[(p, "fourth") for p in ("четвертая карта", "четвертая", "fourth card", "fourth")],
    *[(p, "bid") for p in ("ставка", "ставлю", "bid")],
    *[(p, "tiebreak") for p in ("порядок", "ничьи", "tie order", "ties", "tie")],
    *[(p, "bribe") for p in ("подкуп", "подкупить", "подкупаю", "перекупить", "перекупаю", "перекуп", "bribe")],
    *[(p, "pass") for p in ("пас", "пасую", "pass")],
    *[(p, "order_march") for p in ("приказ поход", "приказ похода", "order march")],
    *[(p, "order_defense") for p in ("оборона", "приказ оборона", "приказ обороны", "defense", "defence",
                                     "order defense", "order defence")],
    *[(p, "order_support") for p in ("подмога", "приказ подмога", "приказ подмоги", "support", "order support")],
    *[(p, "order_consolidate") for p in ("усиление", "усиление власти", "приказ усиление", "приказ усиления",
                                         "приказ усиления власти", "сбор власти", "consolidate",
                                         "consolidate power", "order consolidate", "order consolidate power")],
    *[(p, "order_raid") for p in ("приказ набег", "приказ набега", "order raid")],
    *[(p, "march") for p in ("поход", "march")],
    *[(p, "raid") for p in ("набег", "raid")],
    *[(p, "passage") for p in ("пропуск", "пропустить", "пропускаю", "проход", "passage", "let pass")],
    *[(p, "disband") for p in ("распустить", "роспуск", "распускаю", "disband")],
    *[(p, "losses") for p in ("потери", "погибли", "погиб", "losses", "casualties")],
    *[(p, "retreat") for p in ("отступление", "отступить", "отступаю", "retreat")],
    *[(p, "token") for p in ("жетон", "жетон власти", "token", "power token")],
    *[(p, "record") for p in ("войска", "units", "forces")],
    *[(p, "power") for p in ("власть", "power")],
    # «битва за Ров Кейлин: …», or as a ledger line «битва: Ров Кейлин — …» (never «битва королей»)
    *[(p, "battle") for p in ("битва за", "битва в", "битва у", "битва:", "бой за", "бой в", "бой у", "бой:",
                              "battle for", "battle at", "battle of", "battle in", "battle:")],
]
DIPLOMACY_ALONE = [phrase_key(p) for p in ("пока одиночка", "пока один", "пока одна", "играю один", "играю одна",
                                            "играю в одиночку", "пока в одиночку")]
"""«Я пока один», «пока одиночка», «играю один»: in the diplomacy phase, where each house announces
its alliance for the round (001 «Дипломатические операции»), a house that says it plays alone for
now announces no alliance; in any other phase these words are prose («пока один рыцарь…»)."""
LET = "let"
LET_PASS = {"pass", "through"}
"""«Let Lannister pass through Moat Cailin», «let Lannister through …»: consent to a passage when a
house's name follows «let» and «pass» or «through» follows the name; «Let me…», «Let's…» are prose."""
NOT_TYPOS = {fold(w) for w in ("let's", "lets", "битва", "battle")}
"""Words one letter from an order's first word that are words of their own: «Let's talk» is prose,
not a misspelt «let»; «Битва королей!» is prose, not a misspelt «битва за …»."""
PLACED: list[tuple[str, str]] = [("подмогу", "order_support"), ("оборону", "order_defense")]
"""An order's word as the object of a sentence («ставлю подмогу», «кладу оборону»): read, but
never offered for a typo (the suggestion is the order's own word)."""
FIRST_WORDS = sorted({phrase_key(p)[0] for p, _ in KEYWORDS})
_PHRASES = sorted(((phrase_key(p), kind) for p, kind in [*KEYWORDS, *PLACED]), key=lambda pk: -len(pk[0]))
HEADINGS = {fold(w) for w in ("приказы", "приказов", "распоряжения", "orders")}
"""The word a template's heading begins with («Приказы:», «ПРИКАЗЫ ДОМА СТАРК», «Orders:»): the
line is prose, unless an order follows the heading's colon on the same line."""
AFTER_KEYWORD = {":", "-", "–", "—"}
"""What a player puts between an order's word and the rest («Подмога - Винтерфелл», «Оборона: …»)."""
SEPARATORS = {",", ";", "и", "and", "&", "+"}
PLACING = {fold(w) for w in ("ставлю", "ставим", "поставить", "поставлю", "кладу", "кладем", "положить",
                              "положу", "размещаю", "place", "put")}
"""Verbs a player places an order with («я ставлю подмогу в Винтерфелле», «кладу оборону на …»):
before an order's word they are prose; alone («ставлю 3») «ставлю» is a bid."""
LEADING = OPENERS | {fold(w) for w in ("мой", "моя", "мое", "мои", "наш", "наша", "наше", "наши", "my", "our")}
"""Words before an order or a heading: the core's openers, and «Моя ставка: 4», «Мои приказы:»."""

SYNTAX: dict[str, tuple[str, str]] = {
    "transfer": ("перевод Ланнистер 3 за «подмогу»", "pay Lannister 3 for \"support\""),
    "deal": ("сделка Ланнистер 3 за «подмогу в Харренхолле»", "deal Lannister 3 for \"support at Harrenhal\""),
    "accept": ("принять сделку 2", "accept deal 2"),
    "decline": ("отклонить сделку 2", "decline deal 2"),
    "holy": ("святыня Винтерфелл", "holy Winterfell"),
    "alliance": ("союз Ланнистер, Баратеон", "alliance Lannister, Baratheon"),
    "alone": ("одиночка", "alone"),
    "buy": ("купить 2 пеших Винтерфелл", "buy 2 footmen Winterfell"),
    "upgrade": ("улучшить пешего до рыцаря Винтерфелл", "upgrade footman to knight Winterfell"),
    "sell": ("продать рыцаря Ров Кейлин", "sell knight Moat Cailin"),
    "dues": ("взнос войсками Белая Гавань: пеший", "dues in troops White Harbor: footman"),
    "westeros": ("вестерос: снабжение, битва королей (или: вестерос: ничего)",
                 "westeros: supply, clash of kings (or: westeros: none)"),
    "fourth": ("четвёртая карта: Рука Мизинца", "fourth card: Littlefinger's Hand"),
    "bid": ("ставка 3", "bid 3"),
    "tiebreak": ("порядок Старк, Ланнистер", "tie order Stark, Lannister"),
    "bribe": ("подкуп Сероводье 4: 2, 5", "bribe Greywater Watch 4: 2, 5"),
    "pass": ("пас", "pass"),
    "order_march": ("приказ поход Винтерфелл", "order march Winterfell"),
    "order_defense": ("оборона Винтерфелл", "defense Winterfell"),
    "order_support": ("подмога Ров Кейлин", "support Moat Cailin"),
    "order_consolidate": ("усиление Винтерфелл", "consolidate Winterfell"),
    "order_raid": ("приказ набег Белая Гавань", "order raid White Harbor"),
    "march": ("поход Винтерфелл → Ров Кейлин: 2 пеших (в битве: «победа» или «поражение»)",
              "march Winterfell -> Moat Cailin: 2 footmen (in a battle: 'won' or 'lost')"),
    "raid": ("набег Ров Кейлин → Сероводье", "raid Moat Cailin -> Greywater Watch"),
    "passage": ("пропуск Старк Ров Кейлин", "passage Stark Moat Cailin"),
    "let": ("пропуск Старк Ров Кейлин", "let Stark pass through Moat Cailin"),
    "disband": ("распустить Винтерфелл: пеший", "disband Winterfell: footman"),
    "losses": ("потери Ров Кейлин: пеший", "losses Moat Cailin: footman"),
    "retreat": ("отступление Сероводье → Сигард: пеший", "retreat Greywater Watch -> Seagard: footman"),
    "token": ("жетон Ров Кейлин", "token Moat Cailin"),
    "record": ("войска Сигард: 2 пеших (или: войска Сигард: нет)", "units Seagard: 2 footmen (or: units Seagard: none)"),
    "power": ("власть +2 (Игра престолов)", "power +2 (Game of Thrones)"),
    "battle": ("битва за Ров Кейлин: Старк 3, Ланнистер 1 +1, Баратеон за Старка 2 (или: битва: Ров Кейлин — …)",
               "battle for Moat Cailin: Stark 3, Lannister 1 +1, Baratheon for Stark 2"),
}
ORDER_WORDS_RU = "перевод, сделка, союз, одиночка, купить, продать, взнос, ставка, подкуп, пас, подмога, поход, потери, власть"
ORDER_WORDS_EN = "pay, deal, alliance, alone, buy, sell, dues, bid, bribe, pass, support, march, losses, power"

BASE_CARD_FORMS: dict[str, tuple[str, ...]] = {
    "supply": ("снабжение", "supply"),
    "clash": ("битва королей", "битва", "clash of kings", "clash"),
    "none": ("ничего", "нет", "none", "nothing", "-"),
}
OUTCOMES = {"won": ("победа", "победил", "победили", "won", "win", "victory"),
            "lost": ("поражение", "проиграл", "проиграли", "lost", "loss", "defeat")}
NONE_WORDS = {fold(w) for w in ("нет", "никого", "ничего", "пусто", "none", "nothing", "empty", "0")}


class PhraseTable:
    """Names, as tuples of folded words, mapped to what they name; the longest match wins."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, ...], str] = {}
        self.shown: dict[str, str] = {}
        """Every written form → what it names (for typo suggestions)."""
        self.canonical: dict[str, str] = {}
        """What a name names → the name to offer for it (the first added)."""
        self.longest = 1

    def add(self, form: str, value: str) -> None:
        key = phrase_key(form)
        if not key:
            return
        self.entries.setdefault(key, value)
        self.shown.setdefault(form, value)
        self.canonical.setdefault(value, form)
        self.longest = max(self.longest, len(key))

    def suggest(self, word: str, limit: int = 2, cutoff: float = 0.6) -> list[str]:
        """The names nearest to ``word`` among every form, offered as each thing's own name."""
        out: list[str] = []
        for form in suggest(word, self.shown, limit=limit, cutoff=cutoff):
            name = self.canonical[self.shown[form]]
            if name not in out:
                out.append(name)
        return out

    def match(self, tokens: Sequence[Token], pos: int) -> tuple[str, int] | None:
        for n in range(min(self.longest, len(tokens) - pos), 0, -1):
            key = tuple(t.key for t in tokens[pos:pos + n])
            if key in self.entries:
                return self.entries[key], n
        return None


@cache
def _russian_forms(name: str) -> tuple[str, ...]:
    """Every case of ``name``, and its second locative where Russian has one: from the table kept
    as data (``forms.py``) for the shipped names, else worked out (:func:`compute_forms`)."""
    from voevoda.rulesets.thrones.forms import shipped

    known = shipped().get(name)
    return known if known is not None else compute_forms(name)


def compute_forms(name: str) -> tuple[str, ...]:
    """Every case of ``name``, and its second locative where Russian has one («в Порту
    Винтерфелла», «в Королевском лесу»), through the morphology dictionary."""
    from voevoda.core.words import inflect_phrase

    forms = list(word_forms(name))
    if forms == [name] and " " not in name and name[-1:].lower() in "бвгджзклмнпрстфхцчшщ":
        # a name the morphology does not know as a noun («Риверран»): the masculine declension it
        # follows in the novels' translation («из Риверрана», «в Риверране»)
        forms += [name + ending for ending in ("а", "у", "ом", "е")]
    original = name.split(" ")
    located = inflect_phrase(name, "loct").split(" ")
    for i, word in enumerate(original):
        second = _second_locative(word.lower())
        if second and len(located) == len(original):
            # the head noun takes its second locative; what follows it (a genitive: «Порт
            # Винтерфелла») stays as written
            located[i] = second.capitalize() if word[:1].isupper() else second
            forms.append(" ".join([*located[:i + 1], *original[i + 1:]]))
            break
    return tuple(forms)


@cache
def _second_locative(word: str) -> str | None:
    """The second locative of a noun in the nominative («порт» → «порту»), or None."""
    import pymorphy3

    for parse in _analyzer(pymorphy3).parse(word):
        if parse.tag.POS == "NOUN" and parse.tag.case == "nomn":
            got = parse.inflect({"loc2", "sing"})
            loct = parse.inflect({"loct", "sing"})
            if got is not None and loct is not None and got.word != loct.word:
                return str(got.word)
            return None
    return None


@cache
def _analyzer(module: Any) -> Any:
    return module.MorphAnalyzer(lang="ru")


def _english_forms(name: str) -> list[str]:
    forms = [name]
    if name.lower().startswith("the "):
        forms.append(name[4:])
    return forms


@dataclass
class Lexicon:
    """The names a post may use: areas, houses and players, units, cards."""

    areas: PhraseTable = field(default_factory=PhraseTable)
    houses: PhraseTable = field(default_factory=PhraseTable)
    units: PhraseTable = field(default_factory=PhraseTable)
    cards: PhraseTable = field(default_factory=PhraseTable)
    base_cards: PhraseTable = field(default_factory=PhraseTable)
    outcomes: PhraseTable = field(default_factory=PhraseTable)
    players: dict[str, str | None] = field(default_factory=dict)
    """player → the gender the config gives («m», «f») or None, for :meth:`decline_players`."""
    declined: bool = False

    def decline_players(self) -> bool:
        """Add every player's name in every case («союз с Борисом», «перевод Анне»), once, when a post
        names a house the table does not hold yet: the morphology dictionary costs about a second to
        load, which a post naming houses as written never pays. Whether anything was added."""
        if self.declined:
            return False
        self.declined = True
        from voevoda.core.words import Names, decline_name

        names = Names({p: g for p, g in self.players.items() if g})
        added = False
        for player in self.players:
            for case in PLAYER_CASES:
                form = decline_name(player, case, names.gender(player))
                if form and phrase_key(form) not in self.houses.entries:
                    self.houses.add(form, player)
                    added = True
        return added


_AREA_TABLES: dict[int, PhraseTable] = {}


def area_table(board: Board) -> PhraseTable:
    """Every form of every area's name (cached: the board never changes)."""
    key = id(board)
    if key not in _AREA_TABLES:
        table = PhraseTable()
        for area in board.areas.values():
            for name in (area.name_ru, *area.aliases):
                for form in _russian_forms(name):
                    table.add(form, area.id)
            for form in _english_forms(area.name_en):
                table.add(form, area.id)
            table.add(area.id.replace("-", " "), area.id)
        _AREA_TABLES[key] = table
    return _AREA_TABLES[key]


PLAYER_CASES = ("gent", "datv", "accs", "ablt", "loct")


def build_lexicon(rules: Rules, board: Board, houses: Mapping[str, str],
                  genders: Mapping[str, str] | None = None) -> Lexicon:
    """``houses`` maps each player to his house's id; a player is named by his name, and in any
    case («союз с Борисом», «перевод Анне») declined with the gender ``genders`` gives or his name
    shows (:meth:`Lexicon.decline_players`, on first need)."""
    lex = Lexicon(areas=area_table(board))
    lex.players = {p: (genders or {}).get(p) for p in houses}
    for player, hid in houses.items():
        house = rules.houses.get(hid)
        if house is not None:
            for form in (*_russian_forms(house.name_ru), house.name_en, house.name_en + "s", "дом " + house.name_ru,
                         "house " + house.name_en):
                lex.houses.add(form, player)
        lex.houses.add(player, player)
    for kind in UNIT_KINDS:
        stats = rules.units[kind]
        for name in stats.forms:
            cyrillic = any("а" <= ch <= "я" or ch == "ё" for ch in name.lower())
            for form in (_russian_forms(name) if cyrillic else (name,)):
                lex.units.add(form, kind)
    for card in rules.deck.all():
        for name in (card.name_ru, *card.forms):
            for form in _russian_forms(name):
                lex.cards.add(form, card.id)
        lex.cards.add(card.name_en, card.id)
        lex.cards.add(card.id.replace("-", " "), card.id)
    for cid, forms in BASE_CARD_FORMS.items():
        for form in forms:
            lex.base_cards.add(form, cid)
    for outcome, forms in OUTCOMES.items():
        for form in forms:
            lex.outcomes.add(form, outcome)
    return lex


class _Fail(Exception):
    def __init__(self, index: int, ru: str, en: str) -> None:
        super().__init__(en)
        self.index = index
        self.ru = ru
        self.en = en


ORDER_TOKEN_KINDS = {"order_march", "order_defense", "order_support", "order_consolidate", "order_raid",
                     "march", "raid"}
"""Keywords that name an order token, which players also write after the area («Винтерфелл: поход»)."""


def area_first_order(tokens: Sequence[Token], pos: int, areas: PhraseTable) -> tuple[str, str, int] | None:
    """«Винтерфелл: поход», «Белая Гавань — подмога»: an area, then an order token's keyword and
    nothing else. Returns (area, order kind, tokens read) or None."""
    found = areas.match(tokens, pos)
    if found is None:
        return None
    at = pos + found[1]
    while at < len(tokens) and tokens[at].key in (":", "-", "–", "—"):
        at += 1
    for phrase, kind in _PHRASES:
        n = len(phrase)
        if kind in ORDER_TOKEN_KINDS and tuple(t.key for t in tokens[at:at + n]) == phrase:
            end = at + n
            if end == len(tokens) or tokens[end].key == ";":
                return found[0], kind.removeprefix("order_"), end - pos
            return None
    return None


def let_passage(tokens: Sequence[Token], pos: int, houses: PhraseTable) -> int | None:
    """«let HOUSE pass …» at ``pos``: the tokens that «let» and the house's name take, or None."""
    if pos >= len(tokens) or tokens[pos].key != LET:
        return None
    found = houses.match(tokens, pos + 1)
    if found is None or pos + 1 + found[1] >= len(tokens) or tokens[pos + 1 + found[1]].key not in LET_PASS:
        return None
    return 1 + found[1]


def diplomacy_alone(tokens: Sequence[Token], pos: int) -> int | None:
    """«пока один», «играю один», … at ``pos`` (:data:`DIPLOMACY_ALONE`): the tokens taken, or None."""
    keys = tuple(t.key for t in tokens[pos:])
    return next((len(p) for p in DIPLOMACY_ALONE if keys[:len(p)] == p), None)


def begins_order(text: str) -> bool:
    """Whether a line begins like an order: a keyword, or a word one typo away from one (an
    order misspelt is an error with a suggestion, never prose)."""
    tokens = [t.key for t in tokens_of(text)][:8]
    while tokens and tokens[0] in LEADING:
        tokens.pop(0)
    if tokens and tokens[0] in HEADINGS:
        if tokens[1:2] != [":"]:
            return False
        tokens = tokens[2:]
    while tokens and tokens[0] in LEADING:
        tokens.pop(0)
    if tokens and tokens[0] in PLACING and any(tuple(tokens[1:1 + len(p)]) == p for p, kind in _PHRASES if kind != "bid"):
        tokens.pop(0)
    if not tokens:
        return False
    if any(tuple(tokens[:len(p)]) == p for p, _ in _PHRASES):
        return True
    return len(tokens[0]) >= 4 and tokens[0] not in NOT_TYPOS \
        and bool(suggest(tokens[0], FIRST_WORDS, limit=1, cutoff=0.8))


class LineReader:
    """Reads the orders of one line of a post."""

    def __init__(self, line: PostLine, lex: Lexicon, phase: str) -> None:
        self.line = line
        self.lex = lex
        self.phase = phase
        self.tokens = tokens_of(line.text)
        self.pos = 0

    def read(self) -> tuple[list[Order], list[Problem]]:
        orders: list[Order] = []
        problems: list[Problem] = []
        self._skip(LEADING)
        if self.tokens[self.pos:self.pos + 1] and self.tokens[self.pos].key in HEADINGS \
                and self.tokens[self.pos + 1:self.pos + 2] and self.tokens[self.pos + 1].key == ":":
            self.pos += 2  # «Приказы: подмога Винтерфелл», «Мои приказы: …»
        while True:
            self._skip(LEADING | {";"})
            if self.pos >= len(self.tokens):
                break
            if self.tokens[self.pos].key in PLACING and self._order_at(self.pos + 1):
                self.pos += 1
            start = self.pos
            kind = self._keyword() or self._phrase_order()
            placed = area_first_order(self.tokens, self.pos, self.lex.areas) if kind is None else None
            if placed is not None:
                area, token_kind, length = placed
                self.pos += length
                end = self.tokens[self.pos - 1]
                text = self.line.text[self.tokens[start].start:end.start + len(end.text)]
                orders.append(Order("order", {"kind": token_kind, "area": area}, self.line.number, text.strip()))
                continue
            if kind is None:
                tok = self.tokens[self.pos]
                if not orders:
                    ru, en = did_you_mean(suggest(tok.key, FIRST_WORDS, limit=2, cutoff=0.7))
                    problems.append(self._problem(
                        tok.start, f"не понимаю «{tok.text}»{ru or ': приказы — ' + ORDER_WORDS_RU}",
                        f"cannot read '{tok.text}'{en or ': orders are ' + ORDER_WORDS_EN}"))
                else:
                    problems.append(self._problem(tok.start, f"лишнее «{self._rest(self.pos)}» после приказа",
                                                  f"unexpected '{self._rest(self.pos)}' after the order"))
                break
            keyword = kind
            end_of_order = self.pos
            try:
                # «власть - 2» keeps its sign: after «власть» only a colon is set aside
                self._skip({":"} if kind == "power" else AFTER_KEYWORD)
                kind, args = self._read(kind)
                end_of_order = self.pos
                self._skip(set(STOPS))
                if self._next_order():
                    self.tokens[self.pos] = Token(self.tokens[self.pos].text, ";", self.tokens[self.pos].start)
                if self.pos < len(self.tokens) and self.tokens[self.pos].key != ";":
                    tok = self.tokens[self.pos]
                    raise _Fail(tok.start, f"лишнее «{self._rest(self.pos)}»", f"unexpected '{self._rest(self.pos)}'")
            except _Fail as fail:
                ru, en = SYNTAX.get(kind) or SYNTAX.get(keyword) or SYNTAX.get("order_" + keyword, ("", ""))
                problems.append(self._problem(fail.index, *with_example(fail.ru, fail.en, ru, en)))
                while self.pos < len(self.tokens) and self.tokens[self.pos].key != ";":
                    self.pos += 1
                continue
            end = self.tokens[end_of_order - 1]
            text = self.line.text[self.tokens[start].start:end.start + len(end.text)]
            orders.append(Order(kind, args, self.line.number, text.strip()))
        return orders, problems

    def _next_order(self) -> bool:
        """A comma followed by another order's word separates two orders («подмога Винтерфелл,
        оборона Ров Кейлин»), as «;» does."""
        if self.pos >= len(self.tokens) or self.tokens[self.pos].key != ",":
            return False
        return self._order_at(self.pos + 1)

    def _order_at(self, pos: int) -> bool:
        """Whether an order's word (not a bid's) begins at token ``pos``."""
        keys = tuple(t.key for t in self.tokens[pos:])
        return any(keys[:len(p)] == p for p, kind in _PHRASES if kind != "bid")

    # -- helpers ----------------------------------------------------------------------------------

    def _problem(self, index: int, ru: str, en: str) -> Problem:
        return invalid(ru, en, line=self.line.number, column=self.line.column(index), order=self.line.text)

    def _rest(self, pos: int) -> str:
        if pos >= len(self.tokens):
            return ""
        stop = next((t.start for t in self.tokens[pos:] if t.key == ";"), len(self.line.text))
        return self.line.text[self.tokens[pos].start:stop].strip()

    def _here(self) -> int:
        return self.tokens[self.pos].start if self.pos < len(self.tokens) else len(self.line.text)

    def _done(self) -> bool:
        return self.pos >= len(self.tokens) or self.tokens[self.pos].key == ";"

    def _skip(self, words: AbstractSet[str]) -> None:
        while self.pos < len(self.tokens) and self.tokens[self.pos].key in words:
            self.pos += 1

    def _keyword(self) -> str | None:
        for phrase, kind in _PHRASES:
            n = len(phrase)
            if tuple(t.key for t in self.tokens[self.pos:self.pos + n]) == phrase:
                self.pos += n
                return kind
        return None

    def _phrase_order(self) -> str | None:
        """The orders said in a sentence: «let Lannister pass through …» (read from the house's
        name on), «я пока один» in the diplomacy phase."""
        if let_passage(self.tokens, self.pos, self.lex.houses) is not None:
            self.pos += 1
            return "let"
        taken = diplomacy_alone(self.tokens, self.pos) if self.phase == "diplomacy" else None
        if taken is not None:
            self.pos += taken
            return "alone"
        return None

    def _read(self, kind: str) -> tuple[str, dict[str, Any]]:
        # «поход Винтерфелл» in the planning phase is the order token, «поход A → B» a march;
        # «набег» likewise
        if kind == "pass" and self.phase == "bids":
            # «пас» at an auction is a bid of nothing
            self._pass()
            return "bid", {"amount": 0}
        if kind == "passage" and self.phase != "planning" and (
                self._done() or self.tokens[self.pos].key in (",", "-", "–", "—", "(", ":", ".", "!")):
            # «Пропускаю» with no house after it is «I pass» (the Littlefinger step: «может сделать
            # одну попытку», or none); a passage («пропуск ДОМ ОБЛАСТЬ») is an order of the planning
            # phase only, and names a house
            self._pass()
            return "pass", {}
        if kind in ("march", "raid") and self.phase == "planning":
            return "order", {"kind": kind, "area": self.area()}
        if kind.startswith("order_"):
            return "order", {"kind": kind[len("order_"):], "area": self.area()}
        if kind == "let":
            return "passage", self._let()
        reader = getattr(self, f"_{kind}")
        return kind, dict(reader())

    def area(self, required: bool = True) -> str:
        self._skip({"в", "во", "на", "из", "изо", "с", "со", "in", "at", "from", "on", "into", "to", "через",
                    "through", ":"})
        found = self.lex.areas.match(self.tokens, self.pos)
        if found is None:
            if self._done():
                raise _Fail(self._here(), "не указана область", "no area given")
            tok = self.tokens[self.pos]
            words = " ".join(t.text for t in self.tokens[self.pos:self.pos + 3] if t.key not in (":", ",", ";"))
            options = self.lex.areas.suggest(words) or self.lex.areas.suggest(tok.text)
            ru, en = did_you_mean(options)
            raise _Fail(tok.start, f"нет области «{tok.text}» на поле{ru}", f"no area '{tok.text}' on the board{en}")
        self.pos += found[1]
        return found[0]

    def house(self) -> str:
        self._skip({"с", "со", "дому", "дом", "для", "to", "with", "house", "for", ":"})
        found = self.lex.houses.match(self.tokens, self.pos)
        if found is None and not self._done() and self.lex.decline_players():
            found = self.lex.houses.match(self.tokens, self.pos)
        if found is None:
            if self._done():
                raise _Fail(self._here(), "не указан дом", "no house given")
            tok = self.tokens[self.pos]
            ru, en = did_you_mean(self.lex.houses.suggest(tok.text))
            raise _Fail(tok.start, f"нет дома «{tok.text}»{ru}", f"no house '{tok.text}'{en}")
        self.pos += found[1]
        return found[0]

    def houses(self) -> list[str]:
        out = [self.house()]
        while not self._done():
            self._skip(SEPARATORS)
            if self._done() or all(t.key in STOPS for t in self.tokens[self.pos:]):
                break  # «союз с Ланнистером!»: the line's own end
            out.append(self.house())
        return out

    def number(self, *, signed: bool = False, what_ru: str = "число", what_en: str = "a number") -> int:
        self._skip({":", "=", "в", "за", "of", "at", "for"})
        if self._done():
            raise _Fail(self._here(), f"не указано {what_ru}", f"no {what_en} given")
        tok = self.tokens[self.pos]
        text = tok.text.replace("−", "-")
        sign = 1
        if text[:1] in "+-" and len(text) > 1:
            if not signed:
                raise _Fail(tok.start, f"«{tok.text}» — нужно число без знака", f"'{tok.text}' — a number without a sign")
            sign = -1 if text[0] == "-" else 1
            text = text[1:]
        elif signed and text in ("+", "-") and self.pos + 1 < len(self.tokens):
            sign = -1 if text == "-" else 1
            self.pos += 1
            tok = self.tokens[self.pos]
            text = tok.text
        try:
            value = read_int(text, maximum=MAX_AMOUNT)
        except NumberError as exc:
            raise _Fail(tok.start, exc.ru, exc.en) from exc
        self.pos += 1
        self._skip({fold(w) for w in ("монета", "монеты", "монет", "монету", "жетон", "жетона", "жетонов",
                                      "coin", "coins", "token", "tokens")})
        return sign * value

    def _optional_count(self) -> int | None:
        if self._done():
            return None
        tok = self.tokens[self.pos]
        if tok.key.isdigit():
            return self.number()
        if tok.key in ("a", "an", "one", "один", "одного", "одну", "одна"):
            self.pos += 1
            return 1
        return None

    def unit(self) -> str:
        found = self.lex.units.match(self.tokens, self.pos)
        if found is None:
            if self._done():
                raise _Fail(self._here(), "не указан род войск", "no unit given")
            tok = self.tokens[self.pos]
            ru, en = did_you_mean(self.lex.units.suggest(tok.text))
            raise _Fail(tok.start, f"«{tok.text}» — не пеший, рыцарь, корабль или осадная башня{ru}",
                        f"'{tok.text}' is not a footman, knight, ship or siege tower{en}")
        self.pos += found[1]
        return found[0]

    def units(self, allow_none: bool = False) -> dict[str, int]:
        self._skip({":", "—", "-"})
        if allow_none and not self._done() and self.tokens[self.pos].key in NONE_WORDS:
            self.pos += 1
            return {}
        out: dict[str, int] = {}
        while True:
            self._skip(SEPARATORS | {"—", "–", "-", "(", ")"})
            if self._done() or self.lex.outcomes.match(self.tokens, self.pos):
                break
            count = self._optional_count()
            kind = self.unit()
            out[kind] = out.get(kind, 0) + (count if count is not None else 1)
        if not out:
            raise _Fail(self._here(), "не указаны войска", "no units given")
        if any(n == 0 for n in out.values()):
            raise _Fail(self._here(), "ноль войск", "zero units")
        return out

    def area_and_units(self) -> tuple[str, dict[str, int]]:
        """«Винтерфелл: 2 пеших» or «2 пеших Винтерфелл» (or «2 пеших в Винтерфелле»)."""
        if not self._done() and (self.tokens[self.pos].key.isdigit() or self.lex.units.match(self.tokens, self.pos)):
            units = self._units_before_area()
            return self.area(), units
        area = self.area()
        return area, self.units()

    def _units_before_area(self) -> dict[str, int]:
        out: dict[str, int] = {}
        while not self._done():
            self._skip(SEPARATORS)
            if self._done():
                break
            tok = self.tokens[self.pos]
            if not (tok.key.isdigit() or self.lex.units.match(self.tokens, self.pos)
                    or tok.key in ("a", "an", "один", "одного", "одну")):
                break
            count = self._optional_count()
            kind = self.unit()
            out[kind] = out.get(kind, 0) + (count if count is not None else 1)
        return out

    def path(self) -> list[str]:
        out = [self.area()]
        while not self._done() and (self.tokens[self.pos].key in ARROWS | {"в", "во", "на", "to", "into", "через",
                                                                            "through", "->"}):
            if len(out) >= 2 and self.lex.outcomes.match(self.tokens, self.pos + 1) is not None:
                break  # «A → B - победа»: the dash puts the battle's result, not another area
            self.pos += 1
            out.append(self.area())
        if len(out) < 2:
            raise _Fail(self._here(), "укажите, откуда и куда: «A → B»", "say from where to where: 'A -> B'")
        return out

    def free_text(self, required: bool = False) -> str:
        self._skip({"за", "for", ":", "—", "-", "(", "основание", "reason"})
        if self._done():
            if required:
                raise _Fail(self._here(), "не указано, за что", "no service given")
            return ""
        stop = next((t.start for t in self.tokens[self.pos:] if t.key == ";"), len(self.line.text))
        text = self.line.text[self.tokens[self.pos].start:stop].strip().strip("«»\"“”„()").strip()
        while not self._done():
            self.pos += 1
        if len(text) > MAX_TEXT:
            raise _Fail(self._here(), f"текст длиннее {MAX_TEXT} знаков", f"the text is longer than {MAX_TEXT} characters")
        return text

    # -- the orders -------------------------------------------------------------------------------

    def _transfer(self) -> dict[str, Any]:
        if not self._done() and self.tokens[self.pos].key.isdigit():
            amount = self.number()
            to = self.house()
        else:
            to = self.house()
            amount = self.number(what_ru="сколько", what_en="how much")
        return {"to": to, "amount": amount, "reason": self.free_text()}

    def _deal(self) -> dict[str, Any]:
        to = self.house()
        amount = self.number(what_ru="сколько", what_en="how much")
        return {"to": to, "amount": amount, "service": self.free_text(required=True)}

    def _deal_id(self) -> dict[str, Any]:
        self._skip({"сделку", "сделка", "deal", "№", "#", "no"})
        return {"deal": self.number(what_ru="номер сделки", what_en="the deal's number")}

    def _accept(self) -> dict[str, Any]:
        return self._deal_id()

    def _decline(self) -> dict[str, Any]:
        return self._deal_id()

    def _holy(self) -> dict[str, Any]:
        return {"area": self.area()}

    def _alliance(self) -> dict[str, Any]:
        return {"members": self.houses()}

    def _alone(self) -> dict[str, Any]:
        return {}

    def _trade(self) -> dict[str, Any]:
        count = self._optional_count()
        kind = self.unit()
        return {"unit": kind, "count": count if count is not None else 1, "area": self.area()}

    def _buy(self) -> dict[str, Any]:
        return self._trade()

    def _sell(self) -> dict[str, Any]:
        return self._trade()

    def _upgrade(self) -> dict[str, Any]:
        count = self._optional_count()
        self._skip({"пешего", "пеших", "пехотинца", "пехотинцев", "footman", "footmen"})
        self._skip({"до", "в", "во", "to", "into"})
        target = self.unit()
        return {"unit": target, "count": count if count is not None else 1, "area": self.area()}

    def _dues(self) -> dict[str, Any]:
        # «Взнос Ночному Дозору войсками: пеший из Риверрана», «dues to the Night's Watch in troops: …»
        self._skip({fold(w) for w in ("войсками", "ночному", "дозору", "в", "дозор", "на", "стену", "to", "the",
                                      "nights", "watch", "in", "troops", ":", "-", "–", "—")})
        area, units = self.area_and_units()
        return {"area": area, "units": units}

    def _westeros(self) -> dict[str, Any]:
        self._skip({":", "—", "-"})
        cards: list[str] = []
        while not self._done():
            self._skip(SEPARATORS | {":"})
            if self._done():
                break
            found = self.lex.base_cards.match(self.tokens, self.pos)
            if found is None:
                tok = self.tokens[self.pos]
                ru, en = did_you_mean(self.lex.base_cards.suggest(tok.text))
                raise _Fail(tok.start, f"«{tok.text}» — не «снабжение», «битва королей» или «ничего»{ru}",
                            f"'{tok.text}' is not 'supply', 'clash of kings' or 'none'{en}")
            self.pos += found[1]
            if found[0] != "none" and found[0] not in cards:
                cards.append(found[0])
        return {"cards": cards}

    def _fourth(self) -> dict[str, Any]:
        self._skip({"карта", "card", ":", "—", "-"})
        found = self.lex.cards.match(self.tokens, self.pos)
        if found is None:
            if self._done():
                raise _Fail(self._here(), "не названа карта", "no card named")
            tok = self.tokens[self.pos]
            ru, en = did_you_mean(self.lex.cards.suggest(self._rest(self.pos), cutoff=0.5))
            raise _Fail(tok.start, f"нет такой карты четвёртой колоды: «{self._rest(self.pos)}»{ru}",
                        f"no such card of the fourth deck: '{self._rest(self.pos)}'{en}")
        self.pos += found[1]
        return {"card": found[0]}

    def _bid(self) -> dict[str, Any]:
        return {"amount": self.number(what_ru="сколько", what_en="how much")}

    def _tiebreak(self) -> dict[str, Any]:
        return {"order": self.houses()}

    def _bribe(self) -> dict[str, Any]:
        # «перекупаю пешего в Белой Гавани», «подкуп отряда в …»: the units a player names stand
        # for the army there, which is bribed whole («1 отряд (или одинокого воина)»)
        army_words = {fold(w) for w in ("отряд", "отряда", "войско", "войска", "армию", "army", "units")}
        while not self._done() and self.lex.areas.match(self.tokens, self.pos) is None:
            tok = self.tokens[self.pos]
            unit = self.lex.units.match(self.tokens, self.pos)
            if unit is not None:
                self.pos += unit[1]
            elif tok.key.isdigit() or tok.key in army_words or tok.key in SEPARATORS:
                self.pos += 1
            else:
                break
        area = self.area()
        self._skip({fold(w) for w in (",", "ставка", "ставлю", "stake", ":", "за", "for", "-", "–", "—")})
        stake = self.number(what_ru="ставка", what_en="the stake")
        self._skip({fold(w) for w in (",", ":", "цифры", "цифра", "цифру", "грани", "грань", "угадываю", "загадываю",
                                      "на", "guess", "guesses", "faces", "on", "—", "–", "-")})
        guesses: list[int] = []
        while not self._done():
            self._skip(SEPARATORS)
            if self._done():
                break
            tok = self.tokens[self.pos]
            if not tok.key.isdigit():
                raise _Fail(tok.start, f"«{tok.text}» — не грань кубика (1–6)", f"'{tok.text}' is not a face of a die (1-6)")
            guesses.append(self.number())
        return {"area": area, "stake": stake, "guesses": guesses}

    def _pass(self) -> dict[str, Any]:
        # «Пас, ничего не покупаю»: what follows a pass after a comma or a dash is the player's aside
        if not self._done() and self.tokens[self.pos].key in (",", "-", "–", "—", "(", ":"):
            self.free_text()
        return {}

    def _passage(self) -> dict[str, Any]:
        to = self.house()
        return {"to": to, "area": self.area()}

    def _let(self) -> dict[str, Any]:
        to = self.house()
        self._skip({"pass"})
        return {"to": to, "area": self.area()}

    def _disband(self) -> dict[str, Any]:
        area, units = self.area_and_units()
        return {"area": area, "units": units}

    def _losses(self) -> dict[str, Any]:
        area, units = self.area_and_units()
        return {"area": area, "units": units}

    def _march(self) -> dict[str, Any]:
        path = self.path()
        self._skip({":", "—", "–", "-"})
        # «поход Пайк → Палец Флинта» with no units named: the whole army there marches
        whole = self._done() or self.lex.outcomes.match(self.tokens, self.pos) is not None
        units = {} if whole else self.units()
        outcome = None
        self._skip({",", "—", "-", ":", "(", ")"})
        found = self.lex.outcomes.match(self.tokens, self.pos)
        if found is not None:
            outcome = found[0]
            self.pos += found[1]
            self._skip({")"})
        return {"path": path, "units": units, "outcome": outcome}

    def _raid(self) -> dict[str, Any]:
        path = self.path()
        if len(path) != 2:
            raise _Fail(self._here(), "набег идёт из одной области в соседнюю", "a raid goes from one area to the next")
        return {"from": path[0], "to": path[1]}

    def _retreat(self) -> dict[str, Any]:
        path = self.path()
        if len(path) != 2:
            raise _Fail(self._here(), "отступают из одной области в соседнюю", "a retreat goes from one area to the next")
        return {"from": path[0], "to": path[1], "units": self.units()}

    def _token(self) -> dict[str, Any]:
        return {"area": self.area()}

    def _record(self) -> dict[str, Any]:
        area = self.area()
        return {"area": area, "units": self.units(allow_none=True)}

    def _battle(self) -> dict[str, Any]:
        """«битва за Ров Кейлин: Старк 3, Ланнистер 1 +1, Баратеон за Старка 2»: each side's house
        card and any bonus the table adds, and whom a third house supports, with its general."""
        area = self.area()
        self._skip({":", "—", "–", "-"})
        sides: list[dict[str, Any]] = []
        while not self._done():
            self._skip(SEPARATORS)
            if self._done():
                break
            entry: dict[str, Any] = {"house": self.house()}
            if not self._done() and self.tokens[self.pos].key in ("за", "for", "→", "->", "=>"):
                self.pos += 1
                entry["for"] = self.house()
            self._skip({":", "—", "–", "карта", "card", "генерал", "general"})
            if not self._done() and self.tokens[self.pos].key.isdigit():
                entry["card"] = self.number(what_ru="сила карты", what_en="the card's strength")
            tok = self.tokens[self.pos] if not self._done() else None
            if tok is not None and (tok.key[:1] in "+-−" and tok.key[1:].isdigit() or tok.key in ("+", "-", "−")):
                entry["bonus"] = self.number(signed=True, what_ru="прибавка", what_en="the bonus")
            sides.append(entry)
        if not sides:
            raise _Fail(self._here(), "не названы карты домов", "no house cards given")
        return {"area": area, "sides": sides}

    def _power(self) -> dict[str, Any]:
        amount = self.number(signed=True, what_ru="сколько", what_en="how much")
        if amount == 0:
            raise _Fail(self._here(), "ноль жетонов ничего не меняет", "zero tokens change nothing")
        return {"amount": amount, "reason": self.free_text()}


def read_lines(lines: Sequence[PostLine], lex: Lexicon, phase: str) -> tuple[list[Order], list[Problem]]:
    orders: list[Order] = []
    problems: list[Problem] = []
    for line in lines:
        got, found = LineReader(line, lex, phase).read()
        orders.extend(got)
        problems.extend(found)
    return orders, problems
