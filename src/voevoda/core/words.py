"""Words that agree: counted nouns, player names in any case, verbs that agree with their
subject, and numbers written the way each language writes them.

Russian agreement comes from the morphology dictionary (pymorphy3 with its Russian
dictionaries), never from string concatenation:

* counted nouns: ``counted(20, "копейщик")`` is «20 копейщиков», ``counted(2, "низший демон")``
  «2 низших демона», ``counted(3, "монета")`` «3 монеты»; in other cases too:
  ``counted(5, "рыцарь", case="datv")`` «5 рыцарям»;
* player names: ``Names(lang="ru").case("Анна", "gent")`` is «Анны», ``.case("Борис", "datv")``
  «Борису»; a name the dictionary does not know as a personal name nor as an animate noun («Dragon77», «Сталь») is
  not declined but introduced by a declined «игрок»: «игрока Dragon77», «к игроку Dragon77»;
* verbs: ``Names().act("Анна", "захватил")`` is «Анна захватила»; a player whose gender is
  unknown is written «игрок Dragon77 захватил», which agrees with «игрок»;
* a player's grammatical gender comes from the name («Анна» f, «Борис» m) or from the game's
  config, ``genders = {"Саша" = "f", "Dragon77" = "m"}``, for names that say nothing
  («Саша», «Женя») or are not Russian;
* numbers: ``number(8.8, signed=True)`` is «+8,8» in Russian and "+8.8" in English, ``number(261.0)``
  is «261», never «261.0»; 12 345 takes a no-break space between thousands in Russian.

English gets the same calls: ``counted(3, "coin", lang="en")`` is "3 coins", ``Names(lang="en")
.act("Anna", "captured")`` "Anna captured", ``.case("Anna", "gent")`` "Anna's".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Literal

from voevoda.core.errors import GameError

Lang = Literal["ru", "en"]
Case = Literal["nomn", "gent", "datv", "accs", "ablt", "loct"]
Gender = Literal["m", "f"]
CASES: tuple[Case, ...] = ("nomn", "gent", "datv", "accs", "ablt", "loct")

RussianForms = tuple[str, str, str]
"""(one, few, many): the form after 1, after 2–4, after 5–20 and 0 («раунд», «раунда», «раундов»)."""

NBSP = "\u00a0"


# -- numbers -----------------------------------------------------------------------------

def number(value: float, lang: str = "ru", *, signed: bool = False, digits: int = 1) -> str:
    """``value`` as a reader expects it: whole numbers without a fraction («261», not «261.0»),
    others with at most ``digits`` decimals, a decimal comma in Russian («8,8»), thousands
    grouped from 10 000 up (a no-break space in Russian, a comma in English), and a sign
    when ``signed`` («+8,8», «−3»; zero has none)."""
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0
    whole = rounded == int(rounded)
    magnitude = abs(rounded)
    text = f"{int(magnitude)}" if whole else f"{magnitude:.{digits}f}".rstrip("0").rstrip(".")
    head, _, tail = text.partition(".")
    if len(head) >= 5:
        sep = NBSP if lang == "ru" else ","
        groups = []
        while head:
            groups.append(head[-3:])
            head = head[:-3]
        head = sep.join(reversed(groups))
    text = head + (("," if lang == "ru" else ".") + tail if tail else "")
    if rounded < 0:
        return "−" + text if lang == "ru" else "-" + text
    if signed and rounded > 0:
        return "+" + text
    return text


def percent(value: float, lang: str = "ru", *, signed: bool = False, digits: int = 1) -> str:
    """``value`` per cent: «12,5%», "12.5%", «+10%»."""
    return number(value, lang, signed=signed, digits=digits) + "%"


# -- counted nouns -------------------------------------------------------------------------

def plural_ru(n: int, forms: RussianForms) -> str:
    """The form of a Russian noun that agrees with the whole number ``n``."""
    one, few, many = forms
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def count_ru(n: int, forms: RussianForms) -> str:
    """``n`` followed by the agreeing form: ``count_ru(22, ("раунд", "раунда", "раундов"))``
    is «22 раунда»."""
    return f"{n} {plural_ru(n, forms)}"


def count_en(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the English noun: "1 round", "0 rounds", "2 rounds"."""
    return f"{n} {singular if abs(int(n)) == 1 else (plural or plural_en(singular))}"


_EN_IRREGULAR = {"man": "men", "woman": "women", "child": "children", "foot": "feet", "tooth": "teeth",
                 "mouse": "mice", "person": "people", "ox": "oxen", "wolf": "wolves", "knife": "knives",
                 "elf": "elves", "dwarf": "dwarves", "thief": "thieves", "leaf": "leaves", "life": "lives",
                 "sheep": "sheep", "fish": "fish", "deer": "deer", "gold": "gold", "food": "food",
                 "honour": "honour", "meat": "meat", "mana": "mana", "gunpowder": "gunpowder",
                 "labour": "labour", "damage": "damage", "health": "health", "cavalry": "cavalry",
                 "condottiere": "condottieri"}
_EN_LINKS = (" of ", " on ", " in ", " with ", " from ")


def plural_en(phrase: str) -> str:
    """The English plural of a noun phrase: "spearman" → "spearmen", "army" → "armies",
    "rider on a griffin" → "riders on a griffin"."""
    for link in _EN_LINKS:
        if link in phrase:
            head, _, rest = phrase.partition(link)
            return plural_en(head) + link + rest
    stem, _, last = phrase.rpartition(" ")
    lower = last.lower()
    if lower in _EN_IRREGULAR:
        word = _EN_IRREGULAR[lower]
    elif lower.endswith("man") and len(lower) > 3:
        word = last[:-3] + "men"
    elif lower.endswith("ed") or lower.endswith("ish"):
        word = last
    elif lower.endswith("o") and lower in ("hero", "potato", "tomato", "echo"):
        word = last + "es"
    elif re.search(r"[^aeiou]y$", lower):
        word = last[:-1] + "ies"
    elif re.search(r"(s|x|z|ch|sh)$", lower):
        word = last + "es"
    else:
        word = last + "s"
    if last[:1].isupper():
        word = word[:1].upper() + word[1:]
    return f"{stem} {word}" if stem else word


@cache
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


_CYRILLIC = re.compile(r"^[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*$")


@lru_cache(maxsize=4096)
def lexeme(word: str) -> tuple[str, ...]:
    """Every form of one Russian word as the dictionary reads it first, of the same part of
    speech (a participle's forms, not its verb's): «небом» → «небо», «неба», …, «небесами»;
    «благословлённые» → «благословлённых», «благословлёнными», …. The word alone if it is not
    Russian."""
    if not _CYRILLIC.match(word):
        return (word,)
    parse = _morph().parse(word.lower())[0]
    tag = parse.tag
    return tuple(dict.fromkeys([word.lower(), *(str(f.word) for f in parse.lexeme if f.tag.POS == tag.POS
                                                and f.tag.voice == tag.voice and f.tag.tense == tag.tense)]))


def _restore_case(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return "-".join(part[:1].upper() + part[1:] for part in word.split("-")) if "-" in template else (
            word[:1].upper() + word[1:])
    return word


def _nominative_parse(word: str, pos: tuple[str, ...]) -> Any | None:
    parses = [p for p in _morph().parse(word) if p.tag.POS in pos and p.tag.case == "nomn"]
    if not parses:
        return None
    first = parses[0]
    if first.tag.POS == "NOUN" and "inan" in first.tag and _guessed_by_prefix(first):
        # a compound the dictionary does not know, read as a known noun behind a prefix
        # («камнерог» as «рог», «кровогриф» as «гриф»): the games' creatures, so an animate
        # reading of the same gender is taken when the analyser offers one («нанять камнерога»)
        animate = [p for p in parses[1:] if "anim" in p.tag and p.tag.gender == first.tag.gender
                   and not {"Name", "Surn", "Patr", "Fixd"} & p.tag.grammemes]
        if animate:
            return animate[0]
    return first


def _guessed_by_prefix(parse: Any) -> bool:
    return any(type(step[0]).__name__ == "UnknownPrefixAnalyzer" for step in parse.methods_stack)


def _inflect(parse: Any, grammemes: set[str]) -> str | None:
    got = parse.inflect(grammemes)
    return None if got is None else str(got.word)


def _inflect_noun(word: str, parse: Any, grammemes: set[str]) -> str | None:
    """A head noun in ``grammemes``. A compound of creatures joined by a hyphen declines every
    part («огр-бык» → «огров-быков», «огра-людоеда»): the dictionary alone declines only the last;
    a part it does not know («огр») is declined as a regular masculine noun. Compounds whose
    first part is a thing («штаб-квартира») keep that part."""
    parts = word.split("-")
    if len(parts) > 1 and "anim" in parse.tag:
        case = next((c for c in CASES if c in grammemes), "nomn")
        plural = "plur" in grammemes
        forms: list[str] = []
        for part in parts[:-1]:
            known = [p for p in _morph().parse(part) if p.tag.POS == "NOUN" and p.tag.case == "nomn"]
            if known and "anim" in known[0].tag:
                form = _inflect(known[0], grammemes)
            elif not any(p.is_known for p in _morph().parse(part)):
                form = _regular_masculine(part, "gent" if case == "accs" else case, plural)
            else:
                form = None
            if form is None:
                return _inflect(parse, grammemes)
            forms.append(form)
        last = _nominative_parse(parts[-1], ("NOUN",))
        tail = _inflect(last, grammemes) if last is not None else None
        if tail is not None:
            return "-".join([*forms, tail])
    return _inflect(parse, grammemes)


# Adjective endings by case for (masc, femn, neut, plur); «*» stands for «ы» after a hard
# stem and «и» after г к х ж ч ш щ; «°» for «о» after a stressed ending and «е» after a
# hissing consonant or a soft stem.
_ADJ_ENDINGS = {
    "nomn": ("*й", "ая", "°е", "*е"), "gent": ("°го", "°й", "°го", "*х"), "datv": ("°му", "°й", "°му", "*м"),
    "ablt": ("*м", "°й", "*м", "*ми"), "loct": ("°м", "°й", "°м", "*х"),
}


def _agrees(word: str, noun: Any) -> bool:
    """Whether ``word`` is, first of all its readings, a known nominative adjective of the
    noun's gender and number («Польское» after «Царство»)."""
    if not _CYRILLIC.match(word):
        return False
    adj = _morph().parse(word.lower())[0]
    if (adj.tag.POS not in ("ADJF", "PRTF") or adj.tag.case != "nomn" or not adj.is_known
            or {"Apro", "Poss"} & adj.tag.grammemes):
        return False
    if noun.tag.number == "plur":
        return bool(adj.tag.number == "plur")
    return bool(adj.tag.number == "sing" and adj.tag.gender == noun.tag.gender)


def _adjective_by_rule(word: str, case: str, gender: str, plural: bool, animate: bool) -> str | None:
    """A full adjective in ``case`` by the spelling rules, for the few the dictionary reads as
    another lexeme («низший» as a superlative of «низкий»)."""
    if len(word) < 4 or word[-2:] not in ("ый", "ий", "ой", "ая", "ое", "ее", "ые", "ие"):
        return None
    stem, ending = word[:-2], word[-2:]
    hushing = stem[-1] in "жчшщ"
    velar = stem[-1] in "гкх"
    if ending in ("ий", "ее", "ие") and not (hushing or velar):
        return None  # soft stems («синий») are not in the game vocabulary
    stressed = ending == "ой"
    if case == "accs":
        if plural or gender in ("masc", "neut"):
            case = "gent" if animate and (plural or gender == "masc") else "nomn"
        else:
            return stem + "ую"
    index = 3 if plural else {"masc": 0, "femn": 1, "neut": 2}.get(gender, 0)
    form = _ADJ_ENDINGS[case][index]
    if case == "nomn" and index == 0:
        form = "ой" if stressed else "*й"
    if case == "nomn" and index == 1:
        form = "ая"
    form = form.replace("*", "и" if hushing or velar else "ы")
    form = form.replace("°", "о" if stressed or not hushing else "е")
    return stem + form


def _inflect_adjective(word: str, parse: Any, grammemes: set[str], gender: str, animate: bool) -> str | None:
    """``parse`` inflected, unless the dictionary's lexeme changes the stem («низший» →
    «нижайших»), in which case the spelling rules decide."""
    got = _inflect(parse, grammemes)
    if got is not None and got.startswith(word[:-2]):
        return got
    case = next(c for c in CASES if c in grammemes)
    return _adjective_by_rule(word, case, gender, "plur" in grammemes, animate)


def _head(words: Sequence[str]) -> int | None:
    """The head noun of a phrase: the first word read as a nominative noun, passing over
    adjectives that stand before another noun («конный стрелок», «низшая каста»)."""
    for i, word in enumerate(words):
        if not _CYRILLIC.match(word) or _nominative_parse(word.lower(), ("NOUN",)) is None:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        if (nxt is not None and _nominative_parse(word.lower(), ("ADJF", "PRTF")) is not None
                and _CYRILLIC.match(nxt) and _nominative_parse(nxt.lower(), ("NOUN",)) is not None):
            continue
        return i
    return None


def _plural_tail(words: list[str], head: int, animate: bool) -> list[str]:
    """The words after the head of a plural phrase: what each creature rides or stands on goes
    plural with them («всадники на грифонах», «4 всадника на грифонах»; one is «всадник на
    грифоне»). Other tails («рыцари пустоты»), and a thing's («Септа на перекрёстке», a place),
    stay."""
    out = list(words)
    if not animate:
        return out
    for i in range(head + 1, len(words) - 1):
        if words[i].lower() != "на" or not _CYRILLIC.match(words[i + 1]):
            continue
        for parse in _morph().parse(words[i + 1].lower()):
            if parse.tag.POS == "NOUN" and parse.tag.case == "loct" and parse.tag.number == "sing":
                got = _inflect(parse, {"loct", "plur"})
                if got is not None:
                    out[i + 1] = _restore_case(words[i + 1], got)
                break
    return out


@lru_cache(maxsize=4096)
def inflect_phrase(phrase: str, case: str = "nomn", plural: bool = False) -> str:
    """A Russian noun phrase in its nominative singular («низший демон», «всадник на грифоне»,
    «Огненный град») put into ``case`` and number: the head noun and the adjectives before it
    change, the words after the head («на грифоне», «пустоты») stay. A phrase the dictionary
    cannot read is returned unchanged."""
    words = phrase.split(" ")
    head = _head(words)
    if head is None:
        if not plural and _unknown_feminine(words[-1]):
            return _feminine_phrase(words, case) or phrase
        return _substantive(words, case, plural)
    noun = _nominative_parse(words[head].lower(), ("NOUN",))
    assert noun is not None
    animate = "anim" in noun.tag
    out = list(words)
    number_tag = "plur" if plural else "sing"
    grammemes = {case, number_tag}
    form = _inflect_noun(words[head].lower(), noun, grammemes)
    if form is None:
        return phrase
    out[head] = _restore_case(words[head], form)
    # the adjectives before the head, and one standing right after it in its gender and number
    # («Царство Польское» → «Царства Польского»)
    after = [head + 1] if head + 1 < len(words) and _agrees(words[head + 1], noun) else []
    for i in [*range(head), *after]:
        adj = _nominative_parse(words[i].lower(), ("ADJF", "PRTF"))
        if adj is None:
            continue
        wanted = set(grammemes)
        if not plural:
            wanted.add(str(noun.tag.gender or "masc"))
        if case == "accs":
            wanted.add("anim" if animate else "inan")
        got = _inflect_adjective(words[i].lower(), adj, wanted, str(noun.tag.gender or "masc"), animate)
        if got:
            out[i] = _restore_case(words[i], got)
    return " ".join(_plural_tail(out, head, animate) if plural else out)


def _unknown_feminine(word: str) -> bool:
    """An invented word ending in «-а» or «-я» that the dictionary does not know («Ромея»,
    «Гиперборея», «Тартария»): a feminine noun, as such names are read."""
    low = word.lower()
    return (len(low) > 2 and low[-1] in "ая" and bool(_CYRILLIC.match(word))
            and not any(p.is_known for p in _morph().parse(low)))


def _regular_feminine(word: str, case: str) -> str:
    """A feminine noun in «-а», «-я», «-ия» declined by the spelling rules («Ромея» → «Ромеи»,
    «Ромее», «Ромеей»; «Тартария» → «Тартарии»; «Вольха» → «Вольхи»), singular."""
    low = word.lower()
    if low.endswith("ия"):
        stem, endings = word[:-2], {"nomn": "ия", "gent": "ии", "datv": "ии", "accs": "ию", "ablt": "ией",
                                    "loct": "ии"}
    elif low.endswith("я"):
        stem, endings = word[:-1], {"nomn": "я", "gent": "и", "datv": "е", "accs": "ю", "ablt": "ей", "loct": "е"}
    else:
        stem = word[:-1]
        last = stem[-1:].lower()
        endings = {"nomn": "а", "gent": "и" if last in "гкхжчшщ" else "ы", "datv": "е", "accs": "у",
                   "ablt": "ей" if last in "жчшщц" else "ой", "loct": "е"}
    return stem + endings[case]


def _feminine_phrase(words: Sequence[str], case: str) -> str | None:
    """Adjectives and an invented feminine noun («Новая Ромея» → «Новой Ромеи»); ``None`` when
    a word before the noun is not an adjective."""
    out = []
    for word in words[:-1]:
        adj = _nominative_parse(word.lower(), ("ADJF", "PRTF")) if _CYRILLIC.match(word) else None
        if adj is None:
            return None
        wanted = {case, "sing", "femn"} | ({"inan"} if case == "accs" else set())
        got = _inflect_adjective(word.lower(), adj, wanted, "femn", False)
        if got is None:
            return None
        out.append(_restore_case(word, got))
    out.append(_restore_case(words[-1], _regular_feminine(words[-1].lower(), case)))
    return " ".join(out)


def _adjective_first(words: Sequence[str]) -> bool:
    """A name of several words whose first is an adjective, not a first name («Новая Вера»,
    «Ромейская держава»): a country's name, never a person's."""
    return (len(words) > 1 and bool(_CYRILLIC.match(words[0]))
            and _nominative_parse(words[0].lower(), ("ADJF", "PRTF")) is not None
            and _name_parse(words[0], None, ("Name",)) is None)


@lru_cache(maxsize=1024)
def name_in_case(name: str, case: str) -> str:
    """A name as a sentence puts it after a preposition: a person's name («с Борисом», «на
    Анну»), a country's («с Ромейской державой», «с Новой Верой»: a first word that is an
    adjective makes it a country's), a plural one («с Морскими Народами»), an invented
    feminine one («с Ромеей», «с Новой Ромеей»). A name the dictionary cannot read (Latin
    letters, an invented word of another shape) stays as written."""
    if case == "nomn":
        return name
    words = name.split(" ")
    if not _adjective_first(words):
        person = decline_name(name, case, guess_gender(name))
        if person is not None:
            return person
    head = _head(words)
    plural = False
    if head is not None:
        # a head read only as a plural nominative («Народы», «Староверы»): the name is plural
        parses = [p for p in _morph().parse(words[head].lower()) if p.tag.POS == "NOUN" and p.tag.case == "nomn"]
        plural = bool(parses) and all(p.tag.number == "plur" for p in parses)
    return inflect_phrase(name, case, plural=plural)


_CONSONANTS = "бвгджзйклмнпрстфхцчшщ"


def with_name(name: str) -> str:
    """«с» and the name in the instrumental: «с Борисом», «с Ромейской державой»; «со» before
    с, з, ш, ж, щ and another consonant («со Староверами», «со Швецией»)."""
    form = name_in_case(name, "ablt")
    low = form.lower()
    so = len(low) > 1 and low[0] in "сзшжщ" and low[1] in _CONSONANTS
    return f"{'со' if so else 'с'} {form}"


@lru_cache(maxsize=1024)
def thing_accusative(phrase: str) -> str:
    """The accusative of a phrase naming a thing (a building, a spell): «построить Оружейную
    мастерскую», «продать Часовню», but «построить Барак», «Фермерские угодья», «Святилище
    природы» unchanged. Only a feminine singular head changes in the inanimate accusative; the
    dictionary's readings of a name as a person («Барак», «Поля») are not used."""
    words = phrase.split(" ")
    head = _head(words)
    if head is None:
        return phrase
    nouns = [p for p in _morph().parse(words[head].lower()) if p.tag.POS == "NOUN" and p.tag.case == "nomn"
             and not {"Name", "Surn", "Patr"} & p.tag.grammemes]
    if any("femn" in p.tag and "sing" in p.tag for p in nouns) and not any("plur" in p.tag for p in nouns):
        return inflect_phrase(phrase, "accs")
    return phrase


_MASC_SING = {"nomn": "", "gent": "а", "datv": "у", "accs": "а", "ablt": "ом", "loct": "е"}
_MASC_PLUR = {"nomn": "ы", "gent": "ов", "datv": "ам", "accs": "ов", "ablt": "ами", "loct": "ах"}


_SOFT_SING = {"nomn": "й", "gent": "я", "datv": "ю", "accs": "я", "ablt": "ем", "loct": "е"}
_SOFT_PLUR = {"nomn": "и", "gent": "ев", "datv": "ям", "accs": "ев", "ablt": "ями", "loct": "ях"}


def _regular_masculine(word: str, case: str, plural: bool) -> str | None:
    """A word the dictionary does not know («голем», «энт», «саблезуб»: the games' creatures),
    declined as a regular masculine animate noun with a hard stem; one ending in a vowel and
    «й» («Грейджой», as «герой») with its soft endings: «с Грейджоем», «Грейджою»."""
    if _CYRILLIC.match(word) and len(word) > 2 and word[-1].lower() == "й" and word[-2].lower() in "аеоуэ":
        return word[:-1] + (_SOFT_PLUR if plural else _SOFT_SING)[case]
    if not _CYRILLIC.match(word) or word[-1].lower() in "аеёиоуыэюяйь":
        return None
    ending = (_MASC_PLUR if plural else _MASC_SING)[case]
    last = word[-1].lower()
    if plural and case == "nomn" and last in "гкхжчшщ":
        ending = "и"
    if plural and case in ("gent", "accs") and last in "жчшщ":
        ending = "ей"
    return word + ending


def _substantive(words: Sequence[str], case: str, plural: bool) -> str:
    """A phrase with no noun the dictionary knows: adjectives used as a noun («просветлённый»,
    a unit of the Cult) are declined as a masculine animate noun, one unknown word as a
    regular masculine noun; anything else is left unchanged."""
    if len(words) == 1 and _nominative_parse(words[0].lower(), ("ADJF", "PRTF")) is None:
        return _regular_masculine(words[0], case, plural) or words[0]
    out = []
    for word in words:
        adj = _nominative_parse(word.lower(), ("ADJF", "PRTF")) if _CYRILLIC.match(word) else None
        if adj is None:
            return " ".join(words)
        wanted = {case, "plur" if plural else "sing"}
        if not plural:
            wanted.add("masc")
        if case == "accs":
            wanted.add("anim")
        got = _inflect_adjective(word.lower(), adj, wanted, "masc", True)
        if got is None:
            return " ".join(words)
        out.append(_restore_case(word, got))
    return " ".join(out)


def noun_forms(phrase: str) -> RussianForms:
    """The three forms a number chooses among, from the dictionary: «копейщик» gives
    («копейщик», «копейщика», «копейщиков»), «низший демон» («низший демон», «низших демона»,
    «низших демонов»)."""
    return (phrase, _few(phrase, "nomn"), inflect_phrase(phrase, "gent", plural=True))


@lru_cache(maxsize=4096)
def _few(phrase: str, case: str) -> str:
    """After 2, 3, 4 in the nominative (and inanimate accusative) the noun takes the genitive
    singular and its adjectives the genitive plural for masculine and neuter nouns, the
    nominative plural for feminine ones («2 низших демона», «2 большие армии»)."""
    words = phrase.split(" ")
    head = _head(words)
    if head is None:
        # «3 просветлённых»: an adjective used as a noun counts like an animate plural;
        # «3 голема»: an unknown noun like any masculine one
        if len(words) == 1 and _nominative_parse(words[0].lower(), ("ADJF", "PRTF")) is None:
            return _regular_masculine(words[0], "gent", False) or phrase
        return _substantive(words, "gent", True)
    noun = _nominative_parse(words[head].lower(), ("NOUN",))
    assert noun is not None
    if case == "accs" and "anim" in noun.tag:
        return inflect_phrase(phrase, "gent", plural=True)
    form = _inflect_noun(words[head].lower(), noun, {"gent", "sing"})
    if form is None:
        return phrase
    out = list(words)
    out[head] = _restore_case(words[head], form)
    adj_case = "nomn" if noun.tag.gender == "femn" else "gent"
    for i in range(head):
        adj = _nominative_parse(words[i].lower(), ("ADJF", "PRTF"))
        got = (_inflect_adjective(words[i].lower(), adj, {adj_case, "plur"}, str(noun.tag.gender), False)
               if adj is not None else None)
        if got:
            out[i] = _restore_case(words[i], got)
    return " ".join(_plural_tail(out, head, "anim" in noun.tag))


def counted(n: float, phrase: str, lang: str = "ru", *, case: str = "nomn", plural_en_form: str | None = None,
            forms: RussianForms | None = None) -> str:
    """``n`` and the noun phrase agreeing with it: «20 копейщиков», «21 копейщик», «2 низших
    демона», «1,5 монеты»; with ``case``, as after a preposition: «от 5 рыцарей» (``gent``),
    «к 3 рыцарям» (``datv``). English: "20 spearmen". ``forms`` overrides the dictionary
    for the nominative (one, few, many)."""
    if lang != "ru":
        one = abs(n) == 1
        return f"{number(n, 'en')} {phrase if one else (plural_en_form or plural_en(phrase))}"
    return f"{number(n, 'ru')} {agree(n, phrase, case=case, forms=forms)}"


def agree(n: float, phrase: str, *, case: str = "nomn", forms: RussianForms | None = None) -> str:
    """The form of the Russian ``phrase`` that follows the number ``n`` in ``case``."""
    if n != int(n):
        # «1,5 монеты», «2,5 рыцаря»: a fraction takes the genitive singular
        return inflect_phrase(phrase, "gent", plural=False)
    k = abs(int(n))
    one = k % 10 == 1 and k % 100 != 11
    few = 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14
    if case in ("nomn", "accs"):
        if forms is not None and case == "nomn":
            return plural_ru(k, forms)
        if one:
            return inflect_phrase(phrase, case) if case == "accs" else phrase
        if few:
            return _few(phrase, case)
        return inflect_phrase(phrase, "gent", plural=True)
    return inflect_phrase(phrase, case, plural=not one)


def counted_list(counts: Mapping[str, float] | Iterable[tuple[str, float]], lang: str = "ru", *,
                 case: str = "nomn", nothing: str | None = None) -> str:
    """Several counted nouns joined the way a sentence joins them: «20 копейщиков, 6 рыцарей
    и 2 целителя»; "20 spearmen, 6 knights and 2 healers". An empty list gives ``nothing``
    (default «никого» / "nobody")."""
    items = list(counts.items()) if isinstance(counts, Mapping) else list(counts)
    parts = [counted(k, phrase, lang, case=case) for phrase, k in items if k]
    if not parts:
        return nothing if nothing is not None else ("никого" if lang == "ru" else "nobody")
    return join_and(parts, lang)


def join_and(items: Sequence[str], lang: str = "ru", word: str | None = None) -> str:
    """«а, б и в»; "a, b and c" (no serial comma)."""
    items = [x for x in items if x]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    conj = word or ("и" if lang == "ru" else "and")
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


@lru_cache(maxsize=1024)
def past(verb: str, gender: str | None, plural: bool = False) -> str:
    """A Russian verb in the masculine past («захватил», «сдался», «пришёл») made to agree:
    ``past("захватил", "f")`` is «захватила», ``past("сдался", None, plural=True)``
    «сдались». Unknown gender keeps the masculine."""
    if not plural and gender != "f":
        return verb
    words = verb.split(" ")
    at = 1 if len(words) > 1 and words[0].lower() == "не" else 0  # «не прислал» → «не прислала»
    for parse in _morph().parse(words[at].lower()):
        if parse.tag.POS == "VERB" and "past" in parse.tag:
            got = parse.inflect({"plur"} if plural else {"femn", "sing"})
            if got is not None:
                words[at] = _restore_case(words[at], str(got.word))
                return " ".join(words)
    return verb


def short_adjective(masc: str, gender: str | None, plural: bool = False) -> str:
    """A short adjective or participle («ранен», «уничтожен», «готов») agreeing with its subject."""
    if not plural and gender != "f":
        return masc
    for parse in _morph().parse(masc.lower()):
        if parse.tag.POS in ("ADJS", "PRTS"):
            got = parse.inflect({"plur"} if plural else {"femn", "sing"})
            if got is not None:
                return _restore_case(masc, str(got.word))
    return masc


# -- player names ------------------------------------------------------------------------

_GENDER_WORDS = {"m": "m", "f": "f", "м": "m", "ж": "f", "male": "m", "female": "f", "masc": "m", "femn": "f",
                 "муж": "m", "жен": "f", "мужской": "m", "женский": "f"}


def read_genders(raw: Any, players: Sequence[str]) -> dict[str, Gender]:
    """The game config's ``genders`` table ({player: "m" | "f"}, also «м»/«ж»), checked: an
    unknown player or gender is a clear error naming the entry."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise GameError("config.genders: нужна таблица «игрок = m или f»",
                        "config.genders: expected a table 'player = m or f'")
    out: dict[str, Gender] = {}
    for name, value in raw.items():
        if name not in players:
            listed = ", ".join(players)
            raise GameError(f"config.genders: нет игрока «{name}» (игроки: {listed})",
                            f"config.genders: no player '{name}' (players: {listed})")
        gender = _GENDER_WORDS.get(str(value).strip().lower())
        if gender is None:
            raise GameError(f"config.genders.{name}: «{value}» — укажите m или f (м или ж)",
                            f"config.genders.{name}: '{value}' — write m or f")
        out[str(name)] = gender  # type: ignore[assignment]
    return out


@lru_cache(maxsize=1024)
def guess_gender(name: str) -> Gender | None:
    """The gender a Russian personal name shows («Анна» f, «Борис» m); ``None`` when the
    dictionary does not know the name or it serves both («Саша», «Женя»)."""
    words = name.split(" ")
    if not all(_CYRILLIC.match(w) for w in words):
        return None
    for word in words:
        genders = set()
        for parse in _morph().parse(word.lower()):
            if "Name" in parse.tag and parse.tag.case == "nomn" and parse.score >= 0.05:
                genders.add(str(parse.tag.gender))
        if not genders:
            # a title or a word used as a name («Княжна Ирма», «Дракон»): an animate noun
            # whose gender the dictionary knows
            title = _title_parse(word, None)
            if title is not None:
                genders.add(str(title.tag.gender))
        if genders == {"masc"}:
            return "m"
        if genders == {"femn"}:
            return "f"
        if genders:
            return None
    return None


def _title_parse(word: str, gender: Gender | None) -> Any | None:
    """An animate noun in the nominative singular («княжна», «король», «дракон»), of ``gender``
    when given."""
    wanted = {"m": "masc", "f": "femn"}.get(gender or "")
    for parse in _morph().parse(word.lower()):
        tag = parse.tag
        if (tag.POS == "NOUN" and "anim" in tag and tag.case == "nomn" and tag.number == "sing"
                and tag.gender in ("masc", "femn") and "Fixd" not in tag and "Name" not in tag
                and (wanted is None or tag.gender == wanted) and parse.score >= 0.05):
            return parse
    return None


def _name_parse(word: str, gender: Gender | None, kinds: tuple[str, ...]) -> Any | None:
    wanted = {"m": "masc", "f": "femn"}.get(gender or "")
    best = None
    for parse in _morph().parse(word.lower()):
        if not any(k in parse.tag for k in kinds) or parse.tag.case != "nomn" or "Fixd" in parse.tag:
            continue
        if wanted and parse.tag.gender not in (wanted, "ms-f"):
            continue
        if best is None or parse.score > best.score:
            best = parse
    return best


@lru_cache(maxsize=2048)
def decline_name(name: str, case: str, gender: Gender | None) -> str | None:
    """A Russian personal name («Анна», «Анна Петрова», «Рагнар» with its gender given) in
    ``case``; ``None`` when it cannot be declined with confidence (not Cyrillic, or a word the
    dictionary does not know as a name while the gender is unknown)."""
    if case == "nomn":
        return name
    words = name.split(" ")
    if not all(_CYRILLIC.match(w) for w in words):
        return None
    out = []
    for i, word in enumerate(words):
        parse = _name_parse(word, gender, ("Name",) if i == 0 else ("Surn", "Name", "Patr"))
        if parse is None:
            parse = _title_parse(word, gender)
        form = _inflect(parse, {case, "sing"}) if parse is not None else None
        if form is None:
            if gender is None:
                return None
            form = _petrovich(word, case, gender, first=i == 0)
            if form is None:
                return None
        out.append(_restore_case(word, form.lower()))
    return " ".join(out)


_PETROVICH_CASES = {"gent": "GENITIVE", "datv": "DATIVE", "accs": "ACCUSATIVE", "ablt": "INSTRUMENTAL",
                    "loct": "PREPOSITIONAL"}


def _petrovich(word: str, case: str, gender: Gender, first: bool) -> str | None:
    try:
        from petrovich.enums import Case as PCase
        from petrovich.enums import Gender as PGender
        from petrovich.main import Petrovich
    except ImportError:  # pragma: no cover - a dependency of the package
        return None
    engine = _petrovich_engine(Petrovich)
    p_case = getattr(PCase, _PETROVICH_CASES[case])
    p_gender = PGender.MALE if gender == "m" else PGender.FEMALE
    result = engine.firstname(word, p_case, p_gender) if first else engine.lastname(word, p_case, p_gender)
    return str(result) if result else None


@cache
def _petrovich_engine(cls: Any) -> Any:
    return cls()


PLAYER_WORD = "игрок"
_EN_CASE_NOTE = "English has no cases: 'gent' gives the possessive (Anna's), every other case the name."


class Names:
    """How a report names its players, in one language, with the genders a game master set.

    ``case(name, case)`` gives the name in a case («Анны»); ``subject(name)`` the name as a
    subject, ``act(name, verb)`` a subject with its agreeing past-tense verb («Анна захватила»).
    Names that cannot be declined are introduced by «игрок» («игрока Dragon77»)."""

    def __init__(self, genders: Mapping[str, str] | None = None, lang: str = "ru") -> None:
        self.lang = lang
        self.genders: dict[str, Gender] = {}
        for name, value in (genders or {}).items():
            gender = _GENDER_WORDS.get(str(value).strip().lower())
            if gender is not None:
                self.genders[name] = gender  # type: ignore[assignment]

    @property
    def ru(self) -> bool:
        return self.lang == "ru"

    def gender(self, name: str) -> Gender | None:
        return self.genders.get(name) or guess_gender(name)

    def declinable(self, name: str) -> bool:
        return decline_name(name, "gent", self.gender(name)) is not None

    def case(self, name: str, case: str = "nomn") -> str:
        """``name`` in ``case``: «Анны», «Борису»; «игрока Dragon77» when it cannot be declined.
        English: "Anna's" for the genitive, the name otherwise."""
        if not self.ru:
            if case == "gent":
                return f"{name}'" if name.endswith("s") and name.islower() else f"{name}'s"
            return name
        if case == "nomn":
            return name
        declined = decline_name(name, case, self.gender(name))
        if declined is not None:
            return declined
        return f"{inflect_phrase(PLAYER_WORD, case)} {name}"

    def subject(self, name: str, *, capital: bool = False) -> str:
        """``name`` as the subject of a sentence: the name, or «игрок Dragon77» when its gender
        is unknown (the verb then agrees with «игрок»)."""
        if not self.ru or self.gender(name) is not None:
            return name
        word = PLAYER_WORD.capitalize() if capital else PLAYER_WORD
        return f"{word} {name}"

    def verb(self, name: str, verb: str) -> str:
        """A masculine past-tense verb («захватил») agreeing with the player ``name``."""
        if not self.ru:
            return verb
        return past(verb, self.gender(name))

    def act(self, name: str, verb: str, *, capital: bool = True) -> str:
        """Subject and verb: «Анна захватила», «Игрок Dragon77 захватил»; "Anna captured"."""
        return f"{self.subject(name, capital=capital)} {self.verb(name, verb)}"

    def adjective(self, name: str, masc: str) -> str:
        """A short adjective or participle agreeing with the player («ранен» → «ранена»)."""
        if not self.ru:
            return masc
        return short_adjective(masc, self.gender(name))

    def many(self, names: Sequence[str], case: str = "nomn") -> str:
        """Several players joined: «Анны, Бориса и Веры»."""
        return join_and([self.case(n, case) for n in names], self.lang)
