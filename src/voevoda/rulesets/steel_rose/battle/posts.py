"""Reading the two posts a side writes for a battle: the deployment and the plan.

The deployment follows the document's own template («РАЗМЕЩЕНИЕ АРМИИ»)::

    Правый фланг:
    Авангард - 5 копейщиков и 3 рыцаря
    Арьергард - 3 лучника

Unit names are matched in any grammatical case and number, in Russian or English
(``5 копейщиков``, ``рыцаря``, ``3 knights``). The plan gives one manoeuvre per squad::

    Правый авангард: натиск на правый арьергард
    Центральный арьергард: обстрел центрального авангарда

Posts are read through the core first (docs/posts.md): BBCode and Markdown read through
(``[b]Правый фланг:[/b]`` is a flank header), quotes and spoilers set aside. Lines that do not
begin like a line of the post (:func:`begins_deployment`, :func:`begins_plan`: the template's
heading «РАЗМЕЩЕНИЕ АРМИИ», a greeting, the city list) are prose, echoed and never refused.
Every mistake becomes a :class:`~voevoda.core.errors.Problem` naming the line and column the
player typed it at, in Russian and English; an unknown unit gets the nearest unit names as a
suggestion; a post is read whole, and what was understood is kept.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from voevoda.core import posts
from voevoda.core.errors import Problem, illegal, invalid
from voevoda.core.posts import NumberError, PostLine, did_you_mean, fold, read_int, suggest, word_forms
from voevoda.core.words import agree, counted, inflect_phrase, join_and, plural_en
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, Note, PowderShare, SquadInput
from voevoda.rulesets.steel_rose.battle.words import unit_counted
from voevoda.rulesets.steel_rose.rules import Rules

RULE_DEPLOY = "Расстановка"
RULE_PLAN = "Планирование"

_WORD = re.compile(r"[a-zа-яё]+", re.IGNORECASE)


def _norm(text: str) -> str:
    return text.lower().replace("ё", "е")


def _words(text: str) -> list[str]:
    return _WORD.findall(_norm(text))


_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
_NEAR = 0.7
"""How near an unknown name must be to a unit's name to be suggested (difflib's ratio)."""


class UnitNames:
    """Every unit's names, for matching a phrase of a post to a unit id.

    A word of a post is a unit's name only when it is a real form of that name: every case and
    number of each Russian name (pymorphy3, through :func:`word_forms`: «лучник», «лучников»,
    «тяжёлых пехотинцев», «огров-быков»), each English name as listed and in the plural. Anything
    else, however close («лучнекав», «рыцорей»), is no unit: the caller refuses it with the
    nearest names as a suggestion (issue 17 «Typos»: «Suggest, never guess silently»)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._table: list[tuple[list[frozenset[str]], str]] | None = None

    @property
    def names(self) -> list[tuple[list[frozenset[str]], str]]:
        """Per unit name: the set of accepted forms of each of its words, and the unit id.
        Built on first use, since the morphology dictionary is slow to load."""
        if self._table is None:
            table: list[tuple[list[frozenset[str]], str]] = []
            for uid, unit in self.rules.units.items():
                for name in dict.fromkeys([*unit.names, unit.name_ru, unit.name_en, uid.replace("_", " ")]):
                    forms = word_forms(name.lower()) if _CYRILLIC.search(name) else [name, plural_en(name)]
                    base = _words(name)
                    slots: list[set[str]] = [set() for _ in base]
                    for form in forms:
                        ws = _words(form)
                        if len(ws) == len(base):
                            for slot, w in zip(slots, ws, strict=True):
                                slot.add(w)
                    entry = ([frozenset(slot) for slot in slots], uid)
                    if base and entry not in table:
                        table.append(entry)
            self._table = table
        return self._table

    def suggestions(self, phrase: str, rules: Rules, count: int | None = None) -> list[str]:
        """The unit names nearest to an unknown ``phrase``, in the form it was written
        («копейшиков» → «копейщиков»); after a ``count`` of two or more, the form that agrees
        with it when that form is as near («5 лучнекав» → «лучников», not «лучника»; "6 horsemans" →
        "horsemen")."""
        if not hasattr(self, "_forms"):
            forms: dict[str, str] = {}
            for uid, unit in rules.units.items():
                for name in [unit.name_ru, *unit.names]:
                    if _CYRILLIC.search(name):
                        for form in word_forms(name.lower()):
                            forms.setdefault(form, uid)
                    else:
                        forms.setdefault(name.lower(), uid)
                forms.setdefault(unit.name_en.lower(), uid)
            self._forms = forms
        near = suggest(phrase, self._forms, limit=2, cutoff=_NEAR)
        k = abs(count) if count is not None else 1
        russian = bool(_CYRILLIC.search(phrase))
        if (k % 10 == 1 and k % 100 != 11) if russian else k == 1:
            return near
        out = []
        for form in near:
            unit = rules.units[self._forms[form]]
            agreeing = agree(k, unit.name_ru.lower()) if russian else plural_en(unit.name_en.lower())
            close = difflib.SequenceMatcher(None, fold(phrase), fold(agreeing)).ratio() >= _NEAR
            out.append(agreeing if close else form)
        return out

    def match(self, phrase: str) -> list[str]:
        """Unit ids whose name matches ``phrase`` word for word, each word a real form of the
        name's word in that place."""
        words = _words(phrase)
        found: list[str] = []
        for slots, uid in self.names:
            if (len(slots) == len(words) and uid not in found
                    and all(w in slot for w, slot in zip(words, slots, strict=True))):
                found.append(uid)
        return found


_FLANK_STEMS = {"прав": "right", "лев": "left", "центр": "centre", "right": "right", "left": "left",
                "centr": "centre", "center": "centre", "central": "centre", "middle": "centre"}
_RANK_STEMS = {"авангард": "vanguard", "арьергард": "rearguard", "арьегард": "rearguard",
               "ариергард": "rearguard", "vanguard": "vanguard", "rearguard": "rearguard",
               "van": "vanguard", "rear": "rearguard"}


def _flank_word(word: str) -> str | None:
    for stem, flank in _FLANK_STEMS.items():
        if word.startswith(stem) and (len(stem) >= 4 or word == stem or len(word) - len(stem) <= 4):
            return flank
    return None


def _rank_word(word: str) -> str | None:
    for stem, rank in _RANK_STEMS.items():
        if word == stem or (len(stem) > 4 and word.startswith(stem)):
            return rank
    return None


def positions_in(text: str) -> list[str]:
    """Every «<фланг> <авангард|арьергард>» named in ``text``, in order."""
    found: list[str] = []
    flank: str | None = None
    for word in _words(text):
        f = _flank_word(word)
        if f is not None:
            flank = f
            continue
        r = _rank_word(word)
        if r is not None and flank is not None:
            found.append(fld.at(flank, r))
            flank = None
        elif word not in ("фланг", "фланга", "flank", "на", "the"):
            flank = None
    return found


_POST_WORDS = ("фланг", "flank", "авангард", "арьергард", "vanguard", "rearguard", "порох", "gunpowder",
               "powder")


def _post_word(word: str) -> bool:
    """A rank, «фланг» or «порох», or a typo of one («арьегард», «флнг»)."""
    return (_rank_word(word) is not None or word.startswith(("фланг", "flank", "порох", "powder", "gunpowder"))
            or bool(suggest(word, _POST_WORDS, limit=1, cutoff=0.8)))


def begins_deployment(text: str) -> bool:
    """Whether a line begins like a line of a deployment post: a flank header («Правый
    фланг:»), a squad («Авангард - …», «Левый арьергард: …»), the powder line, or a count
    («5 копейщиков» without a place is an error, not prose)."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped[0].isdigit():
        return True
    words = _words(stripped)
    if not words:
        return False
    if _post_word(words[0]):
        return True
    if _FLANK_ALONE.match(stripped) and _flank_word(words[0]) is not None:
        return True  # «Центр:», «ЛЕВЫЙ»: a flank's heading
    return _flank_word(words[0]) is not None and len(words) > 1 and _post_word(words[1])


@dataclass
class Deployment:
    squads: list[SquadInput] = field(default_factory=list)
    gunpowder: int | None = None
    gunpowder_line: int = 0
    """The line of the post that gave ``gunpowder`` («Порох: 30»)."""
    powder: list[PowderShare] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


_FLANK_HEADER = re.compile(r"^\s*([^\s:,\-–—]+)\s+(фланг\w*|flank)\s*[:.]?\s*(.*)$", re.IGNORECASE)
_FLANK_ALONE = re.compile(r"^\s*([^\W\d_]+)()\s*[:.]?\s*()$")
"""A flank named alone as a heading: «Центр:», «Левый», «RIGHT»."""
_SEPARATOR = re.compile(r"\s*(?:[-–—:=]+)\s*")
_ITEM_SPLIT = re.compile(r"\s*(?:,|;|\+|\bи\b|\band\b|&)\s*", re.IGNORECASE)
_ITEM = re.compile(r"^(?:(\d+)\s*(?:[xх×*](?=\s))?\s*)?(.*?)(?:\s+[xх×*]?\s*(\d+))?$", re.IGNORECASE)
_POWDER = re.compile(r"^\s*(порох|gunpowder|powder)\s*[-–—:=]?\s*(\d+)\s*$", re.IGNORECASE)
# «Порох на пушки: 10», «Порох центральному арьергарду - 20», «Gunpowder for cannons: 10»
_POWDER_SHARE = re.compile(r"^\s*(?:порох|gunpowder|powder)\s+(?:(?:на|для|to|for)\s+)?(\S.*?)\s*[-–—:=]+\s*(\S+)\s*$",
                           re.IGNORECASE)
# A comma or semicolon followed by a rank word and its dash starts the next squad of the line.
_SEGMENT = re.compile(r"\s*[,;]\s*(?=(?:[а-яёa-z]+\s+)?(?:авангард|арьергард|арьегард|ариергард|vanguard|rearguard)"
                      r"\w*\s*[-–—:])", re.IGNORECASE)
_EMPTY = {"", "...", "…", "-", "—", "нет", "никого", "none", "nobody", "пусто", "empty"}


def parse_deployment(text: str, rules: Rules, names: UnitNames | None = None) -> Deployment:
    """Read a deployment post («Расстановка»)."""
    names = names or UnitNames(rules)
    out = Deployment()
    flank: str | None = None
    seen_flanks: list[str] = []
    squads: dict[str, SquadInput] = {}
    lines: dict[str, int] = {}
    unread: set[str] = set()
    """Positions whose line was refused: a rearguard behind one is not also «without a vanguard»."""
    for source in posts.read(text, begins_order=begins_deployment).orders:
        number, line = source.number, source.text
        m = _POWDER.match(line)
        if m:
            try:
                out.gunpowder = read_int(m.group(2))
                out.gunpowder_line = number
            except NumberError as exc:
                out.problems.append(invalid(exc.ru, exc.en, number, source.column(m.start(2)), line, RULE_DEPLOY))
            continue
        m = _POWDER_SHARE.match(line)
        if m:
            share = _powder_share(source, m, names, rules, out.problems)
            if share is not None:
                out.powder.append(share)
            continue
        rest = source
        header = _FLANK_HEADER.match(line) or _FLANK_ALONE.match(line)
        if header and _flank_word(_norm(header.group(1))):
            named = _flank_word(_norm(header.group(1)))
            assert named is not None
            # The template names «Центральный фланг» twice and never the left one: a second
            # centre block in a post that has no left flank is the left flank.
            if named in seen_flanks and named == "centre" and "left" not in seen_flanks:
                out.notes.append(Note(
                    f"строка {number}: второй «Центральный фланг» прочитан как левый фланг (как в образце "
                    "«РАЗМЕЩЕНИЕ АРМИИ», где левый фланг не назван)",
                    f"line {number}: the second 'Centre flank' is read as the left flank (as in the "
                    "document's template, which never names the left flank)", number))
                named = "left"
            elif named in seen_flanks:
                out.problems.append(invalid(
                    f"фланг «{header.group(1)}» назван второй раз",
                    f"the {named} flank is named a second time", number, source.column(0), line, RULE_DEPLOY))
            flank = named
            seen_flanks.append(named)
            rest = source.slice(header.start(3)).strip()
            if not rest.text:
                continue
        # Several squads may share a line: «Авангард - 5 копейщиков и 3 рыцаря, Арьергард - 3 лучника».
        for segment in _segments(rest):
            # «Авангард - ...», «Левый авангард - ...», «Правый фланг, авангард: ...»
            head, body = _split_head(segment)
            found = positions_in(head.text) if head.text else []
            rank = None
            for word in _words(head.text):
                rank = rank or _rank_word(word)
            if found:
                position = found[0]
                flank = fld.flank_of(position)
            elif rank is not None and flank is not None:
                position = fld.at(flank, rank)
            elif rank is not None:
                out.problems.append(invalid(
                    "не сказано, на каком фланге стоит отряд: начните с «Правый фланг:» или напишите «правый авангард»",
                    "no flank for this squad: start with 'Right flank:' or write 'right vanguard'",
                    number, segment.column(0), line, RULE_DEPLOY))
                continue
            else:
                out.problems.append(invalid(
                    "не понимаю строку: ожидаю «Авангард - ...», «Арьергард - ...», «Правый фланг:» или «Порох: N»",
                    "cannot read this line: expected 'Vanguard - ...', 'Rearguard - ...', 'Right flank:' or 'Gunpowder: N'",
                    number, segment.column(0), line, RULE_DEPLOY))
                continue
            units = _units(body, names, rules, line, out.problems)
            if units is None:
                unread.add(position)
                continue
            if position in squads:
                out.problems.append(invalid(
                    f"позиция «{fld.label_ru(position)}» уже занята отрядом из строки {lines[position]}",
                    f"the {fld.label_en(position)} already holds the squad of line {lines[position]}",
                    number, segment.column(0), line, RULE_DEPLOY))
                continue
            if not units:
                continue
            squads[position] = SquadInput(position, units, number)
            lines[position] = number
    for position, squad in squads.items():
        front = fld.at(fld.flank_of(position), "vanguard")
        if fld.rank_of(position) == "rearguard" and front not in squads and front not in unread:
            out.problems.append(illegal(
                f"арьергард без авангарда: на {fld.flank_ru(fld.flank_of(position), 'loct')} нет авангарда"
                " («Арьергард без авангарда существовать не может»)",
                f"a rearguard without a vanguard: the {fld.flank_of(position)} flank has no vanguard",
                squad.line, 1, None, RULE_DEPLOY))
        for uid, count in squad.units.items():
            unit = rules.units[uid]
            if unit.one_per_squad and count > 1:
                out.problems.append(illegal(
                    f"в одном отряде может быть только {counted(1, unit.name_ru.lower())}, а здесь "
                    f"{counted(count, unit.name_ru.lower())}",
                    f"a squad may hold only one {unit.name_en}, this one has {count}",
                    squad.line, 1, None, RULE_DEPLOY))
    out.squads = [squads[p] for p in fld.POSITIONS if p in squads]
    out.squads.sort(key=lambda s: s.line)
    out.problems.extend(check_powder(out.squads, out.powder, out.gunpowder, rules))
    return out


def _powder_share(source: PostLine, m: re.Match[str], names: UnitNames, rules: Rules,
                  problems: list[Problem]) -> PowderShare | None:
    """«Порох на <отряд или тип юнитов>: N» — a share of the powder for one squad (named by its
    position) or for every unit of one type."""
    number, line = source.number, source.text
    target, amount = m.group(1), m.group(2)
    try:
        value = read_int(amount)
    except NumberError as exc:
        problems.append(invalid(exc.ru, exc.en, number, source.column(m.start(2)), line, RULE_DEPLOY))
        return None
    found = positions_in(target)
    if len(found) == 1:
        return PowderShare(value, position=found[0], line=number)
    units = names.match(target)
    if len(units) == 1:
        return PowderShare(value, unit=units[0], line=number)
    ru, en = did_you_mean(names.suggestions(target, rules)) if not units and not found else ("", "")
    problems.append(invalid(
        f"кому порох? «{target}» — не позиция отряда («центральный арьергард») и не юнит («пушки»){ru}",
        f"powder for whom? '{target}' is neither a squad's position ('centre rearguard') nor a unit "
        f"('cannons'){en}", number, source.column(m.start(1)), line, RULE_DEPLOY))
    return None


def check_powder(squads: Sequence[SquadInput], shares: Sequence[PowderShare], stock: int | None,
                 rules: Rules) -> list[Problem]:
    """The shares of powder a deployment gives («Если вы не выделите порох юниту...», R24): each
    names a squad or a unit type of this deployment that uses powder, once, a unit is named by
    one share at most, and together they give no more than the stock (when one is stated)."""
    problems: list[Problem] = []
    at = {s.position: s for s in squads}
    seen: dict[tuple[str | None, str | None], int] = {}
    for share in shares:
        key = (share.position, share.unit)
        if key in seen:
            problems.append(invalid("порох этому отряду или юниту уже выделен в строке " + str(seen[key]),
                                    f"powder for this squad or unit is already given on line {seen[key]}",
                                    share.line, 1, None, RULE_DEPLOY))
            continue
        seen[key] = share.line
        if share.position is not None:
            squad = at.get(share.position)
            if squad is None:
                problems.append(illegal(f"порох: на позиции «{fld.label_ru(share.position)}» нет вашего отряда",
                                        f"gunpowder: you have no squad in the {fld.label_en(share.position)}",
                                        share.line, 1, None, RULE_DEPLOY))
            elif not any(rules.units[u].gunpowder for u in squad.units):
                problems.append(illegal(
                    f"порох: отряду на позиции «{fld.label_ru(share.position)}» порох не нужен",
                    f"gunpowder: the squad in the {fld.label_en(share.position)} uses none",
                    share.line, 1, None, RULE_DEPLOY))
            continue
        assert share.unit is not None
        unit = rules.units[share.unit]
        if not unit.gunpowder:
            problems.append(illegal(f"порох: {inflect_phrase(unit.name_ru.lower(), plural=True)} не тратят пороха",
                                    f"gunpowder: {unit.name_en} uses none",
                                    share.line, 1, None, RULE_DEPLOY))
        elif not any(share.unit in s.units for s in squads):
            problems.append(illegal(f"порох: {inflect_phrase(unit.name_ru.lower(), 'gent', plural=True)} нет в "
                                    "расстановке",
                                    f"gunpowder: no {unit.name_en} is deployed", share.line, 1, None, RULE_DEPLOY))
        else:
            for other in shares:
                if (other.position is not None and other.position in at
                        and share.unit in at[other.position].units):
                    problems.append(illegal(
                        f"порох: {inflect_phrase(unit.name_ru.lower(), plural=True)} на позиции "
                        f"«{fld.label_ru(other.position)}» уже получают порох "
                        f"отряда (строка {other.line}); выделите его отряду или типу юнитов, но не обоим",
                        f"gunpowder: the {unit.name_en} in the {fld.label_en(other.position)} already share their "
                        f"squad's powder (line {other.line}); give it to the squad or to the unit type, not both",
                        share.line, 1, None, RULE_DEPLOY))
    problems.extend(check_powder_stock(shares, stock))
    return problems


def check_powder_stock(shares: Sequence[PowderShare], stock: int | None) -> list[Problem]:
    """The shares together give no more than the stock."""
    given = sum(s.amount for s in shares)
    if stock is None or given <= stock:
        return []
    return [illegal(f"порох: выделено {given}, а в запасе {stock}", f"gunpowder: {given} given, but the stock is {stock}",
                    shares[-1].line, 1, None, RULE_DEPLOY)]


def _segments(line: PostLine) -> list[PostLine]:
    """The squads of one line, split where a comma or semicolon is followed by a rank word."""
    out: list[PostLine] = []
    start = 0
    for m in _SEGMENT.finditer(line.text):
        out.append(line.slice(start, m.start()))
        start = m.end()
    out.append(line.slice(start))
    return [part.strip() for part in out]


def _split_head(segment: PostLine) -> tuple[PostLine, PostLine]:
    """«Авангард - 5 копейщиков» → («Авангард», «5 копейщиков»); a segment without a rank word
    before a separator is all head. «Огры-быки» have a hyphen in their name: the separator is
    the first one after a rank word."""
    text = segment.text
    for sep in _SEPARATOR.finditer(text):
        head = text[: sep.start()]
        if any(_rank_word(w) for w in _words(head)):
            return segment.slice(0, sep.start()), segment.slice(sep.end())
    # no separator: «авангард 6 всадников», «правый арьергард 3 лучника» — the head is the
    # words up to the rank
    for word in _WORD.finditer(text):
        if _rank_word(_norm(word.group(0))):
            if text[word.end():].strip():
                return segment.slice(0, word.end()), segment.slice(word.end()).strip()
            break
        if _flank_word(_norm(word.group(0))) is None:
            break
    return segment, segment.slice(len(text))


def _units(body: PostLine, names: UnitNames, rules: Rules, line: str,
           problems: list[Problem]) -> dict[str, int] | None:
    units: dict[str, int] = {}
    if _norm(body.text.strip()) in _EMPTY:
        return units
    ok = True
    start = 0
    pieces: list[PostLine] = []
    for split in _ITEM_SPLIT.finditer(body.text):
        pieces.append(body.slice(start, split.start()))
        start = split.end()
    pieces.append(body.slice(start))
    number = body.number
    for piece in pieces:
        piece = piece.strip()
        item = piece.text.strip(".")
        col = piece.column(0)
        if _norm(item) in _EMPTY:
            continue
        m = _ITEM.match(item)
        assert m is not None
        try:
            count = read_int(m.group(1) or m.group(3) or "1")
        except NumberError as exc:
            problems.append(invalid(exc.ru, exc.en, number, col, item, RULE_DEPLOY))
            ok = False
            continue
        phrase = m.group(2).strip()
        found = names.match(phrase)
        if not found:
            ru, en = did_you_mean(names.suggestions(phrase, rules, count))
            problems.append(invalid(
                f"неизвестный юнит «{phrase}»{ru}", f"unknown unit '{phrase}'{en}", number, col, item,
                RULE_DEPLOY))
            ok = False
            continue
        if len(found) > 1:
            problems.append(invalid(
                f"«{phrase}» подходит к нескольким юнитам: " + ", ".join(rules.units[u].name_ru for u in found),
                f"'{phrase}' matches several units: " + ", ".join(rules.units[u].name_en for u in found),
                number, col, item, RULE_DEPLOY))
            ok = False
            continue
        if count < 1:
            problems.append(invalid("число юнитов должно быть больше нуля", "a unit count must be above zero",
                                    number, col, item, RULE_DEPLOY))
            ok = False
            continue
        units[found[0]] = units.get(found[0], 0) + count
    return units if ok else None


# --------------------------------------------------------------------------- plan

_MANOEUVRE_WORDS: list[tuple[str, str]] = [
    ("дальнобойный обстрел", "long_volley"), ("дальний обстрел", "long_volley"),
    ("long-range volley", "long_volley"), ("long range volley", "long_volley"), ("long volley", "long_volley"),
    ("марш-бросок", "march"), ("марш бросок", "march"), ("forced march", "march"), ("march", "march"),
    ("смена позиции", "move"), ("сменить позицию", "move"), ("смена позиций", "move"),
    ("перемещение", "move"), ("переместиться", "move"), ("move", "move"), ("reposition", "move"),
    ("position change", "move"),
    ("в укрытие", "cover"), ("укрытие", "cover"), ("take cover", "cover"), ("cover", "cover"),
    ("защита", "defend"), ("защищать", "defend"), ("защищает", "defend"), ("оборона", "defend"),
    ("defend", "defend"), ("defence", "defend"), ("defense", "defend"), ("guard", "defend"),
    ("натиск", "charge"), ("charge", "charge"),
    ("обстрел", "volley"), ("volley", "volley"), ("shoot", "volley"),
    ("без манёвра", "none"), ("без маневра", "none"), ("ничего", "none"), ("стоять", "none"),
    ("hold", "none"), ("none", "none"), ("nothing", "none"),
]
_SKIP = ("без манёвров", "без маневров", "пропустить планирование", "пропуск планирования", "skip planning",
         "no manoeuvres", "no plan")

MANOEUVRE_RU = {"move": "смена позиции", "march": "марш-бросок", "defend": "защита", "cover": "в укрытие",
                "charge": "натиск", "volley": "обстрел", "long_volley": "дальнобойный обстрел"}
MANOEUVRE_EN = {"move": "position change", "march": "forced march", "defend": "defend", "cover": "take cover",
                "charge": "charge", "volley": "volley", "long_volley": "long-range volley"}


@dataclass
class Plan:
    manoeuvres: list[Manoeuvre] = field(default_factory=list)
    skip: bool = False
    problems: list[Problem] = field(default_factory=list)


def begins_plan(text: str) -> bool:
    """Whether a line begins like a line of a planning post: a squad's position («Правый
    авангард: …», or «Авангард: …» under a «Правый фланг:» header), a manoeuvre, or «Без
    манёвров»."""
    if begins_deployment(text):
        return True
    low = _norm(text).strip(" .!")
    if low in _SKIP:
        return True
    words = _words(low)
    first = words[0] if words else ""
    return any(low.startswith(_norm(w)) for w, _ in _MANOEUVRE_WORDS if " " in w or len(w) > 4) or (
        bool(first) and bool(suggest(first, [w for w, _ in _MANOEUVRE_WORDS if " " not in w], limit=1, cutoff=0.85)))


def parse_plan(text: str, rules: Rules, own: Sequence[SquadInput], enemy: Sequence[SquadInput] | None) -> Plan:
    """Read a planning post and check each manoeuvre against both deployments («Планирование»).

    ``enemy`` is ``None`` when the enemy's deployment is not known in full (a line of it was
    refused): then no manoeuvre is refused for what the enemy has or lacks, so that one side's
    refused line never shows up as the other side's error."""
    out = Plan()
    own_at = {s.position: s for s in own}
    enemy_at = None if enemy is None else {s.position: s for s in enemy}
    by_squad: dict[str, list[Manoeuvre]] = {}
    flank: str | None = None
    for source in posts.read(text, begins_order=begins_plan).orders:
        number, line = source.number, source.text
        if _norm(line).strip(" .!") in _SKIP:
            out.skip = True
            continue
        header = _FLANK_HEADER.match(line)
        if header and _flank_word(_norm(header.group(1))) and not positions_in(line):
            flank = _flank_word(_norm(header.group(1)))
            if not header.group(3).strip():
                continue  # «Правый фланг:» over the lines of its squads
            line = header.group(3).strip()
        head, _, body = _plan_split(line, flank)
        squads = positions_in(head) or _ranked(head, flank)
        if len(squads) != 1 or not body:
            out.problems.append(invalid(
                "ожидаю «<позиция отряда>: <манёвр> [цель]», например «Правый авангард: натиск на правый арьергард»",
                "expected '<squad position>: <manoeuvre> [target]', e.g. 'Right vanguard: charge right rearguard'",
                number, source.column(0), source.text, RULE_PLAN))
            continue
        squad = squads[0]
        if squad not in own_at:
            out.problems.append(illegal(
                f"у вас нет отряда на позиции «{fld.label_ru(squad)}»",
                f"you have no squad in the {fld.label_en(squad)}", number, source.column(0), source.text, RULE_PLAN))
            continue
        for part in re.split(r"\s*(?:;|\+|\bзатем\b|\bthen\b|\bи затем\b)\s*", body):
            if not part.strip():
                continue
            col = source.column(max(0, source.text.find(part)))
            kind, rest = _manoeuvre(part)
            if kind is None:
                head = " ".join(part.split()[:2])
                near = suggest(head, [w for w, _ in _MANOEUVRE_WORDS], limit=2, cutoff=0.7) or suggest(
                    part.split()[0], [w for w, _ in _MANOEUVRE_WORDS], limit=2, cutoff=0.7)
                ru, en = did_you_mean(near)
                out.problems.append(invalid(
                    f"неизвестный манёвр «{part}»{ru or ':'} манёвры: смена позиции, марш-бросок, защита, в укрытие, "
                    "натиск, обстрел, дальнобойный обстрел",
                    f"unknown manoeuvre '{part}'{en or ':'} manoeuvres: move, forced march, defend, take cover, "
                    "charge, volley, long-range volley", number, col, part, RULE_PLAN))
                continue
            if kind == "none":
                continue
            targets = positions_in(rest)
            earlier = by_squad.setdefault(squad, [])
            # a second position change (griffin riders, sabretooths) starts where the first ended
            start = earlier[-1].targets[-1] if earlier and earlier[-1].kind in ("move", "march") else squad
            problem, targets = _check(kind, squad, targets, rules, own_at, enemy_at, number, col, part, start)
            if problem:
                out.problems.append(problem)
                continue
            m = Manoeuvre(squad, kind, tuple(targets), number)
            if earlier:
                units = own_at[squad].units
                free = all(rules.units[u].free_move for u in units)
                if not free or len(earlier) > 1 or (kind != "move" and earlier[0].kind != "move"):
                    out.problems.append(illegal(
                        "каждому отряду можно назначить строго 1 манёвр (вторая смена позиции — только у "
                        "всадников на грифонах и саблезубов)",
                        "each squad gets exactly one manoeuvre (a second position change only for griffin "
                        "riders and sabretooths)", number, col, part, RULE_PLAN))
                    continue
                if kind != "move":  # the free position change goes last
                    earlier.insert(0, m)
                    continue
            earlier.append(m)
    defended: dict[str, int] = {}
    for squad, ms in by_squad.items():
        for m in ms:
            if m.kind == "defend":
                target = m.targets[0]
                if target in defended:
                    out.problems.append(illegal(
                        f"«{fld.label_ru(target)}» уже прикрывает отряд из строки {defended[target]}: "
                        "«Один арьергард может быть прикрыт только одним защитником»",
                        f"the {fld.label_en(target)} is already defended (line {defended[target]}): one "
                        "defender per rearguard", m.line, 1, None, RULE_PLAN))
                    continue
                defended[target] = m.line
            out.manoeuvres.append(m)
        del squad
    return out


def _ranked(head: str, flank: str | None) -> list[str]:
    """«Авангард» under a flank header is that flank's vanguard."""
    if flank is None:
        return []
    ranks = [r for r in (_rank_word(w) for w in _words(head)) if r is not None]
    return [fld.at(flank, ranks[0])] if len(ranks) == 1 else []


def _plan_split(line: str, flank: str | None = None) -> tuple[str, str, str]:
    for sep in re.finditer(r"\s*[:\-–—=]+\s*", line):
        head = line[: sep.start()]
        if positions_in(head) or _ranked(head, flank):
            return head, sep.group(0), line[sep.end():]
    return line, "", ""


def _manoeuvre(part: str) -> tuple[str | None, str]:
    text = _norm(part).strip()
    for words, kind in _MANOEUVRE_WORDS:
        if text.startswith(_norm(words)):
            return kind, text[len(words):]
    return None, text


def _check(kind: str, squad: str, targets: list[str], rules: Rules, own: dict[str, SquadInput],
           enemy: dict[str, SquadInput] | None, line: int, col: int, text: str,
           start: str | None = None) -> tuple[Problem | None, list[str]]:
    units = own[squad].units
    start = start or squad

    def bad(ru: str, en: str) -> tuple[Problem | None, list[str]]:
        return illegal(ru, en, line, col, text, RULE_PLAN), targets

    ability = {"charge": "charge", "volley": "volley", "long_volley": "long_volley"}.get(kind)
    if ability:
        unable = [u for u in units if not getattr(rules.units[u], ability)]
        if unable:
            ru = join_and([inflect_phrase(rules.units[u].name_ru.lower(), plural=units[u] > 1) for u in unable])
            en = join_and([plural_en(rules.units[u].name_en.lower()) if units[u] > 1 else rules.units[u].name_en.lower()
                           for u in unable], "en")
            one = len(unable) == 1 and units[unable[0]] == 1
            # «просветлённые не умеют его выполнять», «архидемон не умеет его выполнять»
            return bad(
                f"манёвр «{MANOEUVRE_RU[kind]}» невозможен: {ru} не {'умеет' if one else 'умеют'} его выполнять "
                "(«Если не все в отряде могут выполнять особый манёвр, то манёвр не может быть выполнен»)",
                f"{MANOEUVRE_EN[kind]} is impossible: {en} cannot do it")
    if kind == "cover":
        return None, []
    if kind == "volley":
        if not targets:
            front = fld.at(fld.flank_of(squad), "vanguard")
            if enemy is not None and front not in enemy:
                return bad("укажите цель обстрела (авангард противника)", "name the volley's target (an enemy vanguard)")
            targets = [front]
        target = targets[0]
        if fld.rank_of(target) != "vanguard" or not fld.flanks_in_reach(squad, target):
            return bad("обстрел может нацелиться только на авангард противника на том же или соседнем фланге",
                       "a volley may only target an enemy vanguard on the same or an adjacent flank")
        if enemy is not None and target not in enemy:
            return bad(f"у противника нет отряда на позиции «{fld.label_ru(target)}»",
                       f"the enemy has no squad in the {fld.label_en(target)}")
        return None, [target]
    if kind == "long_volley":
        if not targets or (enemy is not None and targets[0] not in enemy):
            return bad("укажите цель дальнобойного обстрела: любой отряд противника",
                       "name the long-range volley's target: any enemy squad")
        return None, targets[:1]
    if kind == "charge":
        if not targets:
            return bad("укажите арьергард противника для натиска", "name the enemy rearguard to charge")
        target = targets[0]
        if fld.rank_of(target) != "rearguard" or not fld.flanks_in_reach(squad, target):
            return bad("натиск возможен только на арьергард противника на том же или соседнем фланге",
                       "a charge may only target an enemy rearguard on the same or an adjacent flank")
        if enemy is not None and target not in enemy:
            return bad(f"у противника нет отряда на позиции «{fld.label_ru(target)}»",
                       f"the enemy has no squad in the {fld.label_en(target)}")
        return None, [target]
    if kind == "defend":
        if not targets:
            near = [p for p in fld.neighbours(squad) if fld.rank_of(p) == "rearguard" and p in own]
            if len(near) != 1:
                return bad("укажите, какой соседний арьергард защищать", "name the adjacent rearguard to defend")
            targets = near
        target = targets[0]
        if fld.rank_of(target) != "rearguard" or not fld.adjacent(squad, target) or target not in own:
            return bad("защищать можно только свой арьергард на соседней позиции",
                       "a squad may only defend an own rearguard on an adjacent position")
        return None, [target]
    # move and march
    if not targets:
        return bad("укажите, куда перемещается отряд", "name where the squad moves to")
    if kind == "move":
        if len(targets) != 1 or not fld.adjacent(start, targets[0]):
            return bad("смена позиции — на одну соседнюю ячейку", "a position change goes to one adjacent cell")
        return None, targets
    path = [squad, *targets]
    if len(targets) == 1 and 1 <= fld.distance(squad, targets[0]) <= 2:
        return None, targets
    if len(targets) == 2 and all(fld.adjacent(x, y) for x, y in zip(path, path[1:], strict=False)):
        return None, targets
    return bad("марш-бросок — две смены позиции: не дальше двух соседних ячеек",
               "a forced march is two position changes: at most two adjacent cells away")


SPARE_POSITIONS = ("left.vanguard", "right.vanguard", "left.rearguard", "right.rearguard")
"""Where the default placement puts a second hero or archpriest, in turn (ruling C51)."""


def default_garrison_deployment(units: dict[str, int], rules: Rules) -> list[SquadInput]:
    """«мастер просто поставит стрелков в центральный арьергард, а всех остальных - в
    центральный авангард» (shooters alone stand in the centre vanguard: a rearguard cannot
    stand without one). «В 1 отряде может быть только 1 герой»: a second hero or archpriest
    stands in the next free position of :data:`SPARE_POSITIONS`; what no position holds stays out
    of the battle (ruling C51)."""
    spare: dict[str, int] = {}
    placed: dict[str, int] = {}
    for u, n in units.items():
        if n <= 0:
            continue
        keep = 1 if rules.units[u].one_per_squad else n
        placed[u] = keep
        if n > keep:
            spare[u] = n - keep
    shooters = {u: n for u, n in placed.items() if rules.units[u].shooter}
    others = {u: n for u, n in placed.items() if not rules.units[u].shooter}
    if not others:
        out = [SquadInput("centre.vanguard", shooters)] if shooters else []
    else:
        out = [SquadInput("centre.vanguard", others)]
        if shooters:
            out.append(SquadInput("centre.rearguard", shooters))
    for position in SPARE_POSITIONS:
        if not spare:
            break
        squad = {u: 1 for u in spare}
        out.append(SquadInput(position, squad))
        spare = {u: n - 1 for u, n in spare.items() if n > 1}
    return out


def write_deployment(squads: Sequence[SquadInput], rules: Rules, lang: str = "ru") -> str:
    """A deployment in the document's template (the inverse of :func:`parse_deployment`)."""
    lines = []
    for flank in ("right", "centre", "left"):
        here = [s for s in squads if fld.flank_of(s.position) == flank]
        if not here:
            continue
        if lang == "ru":
            lines.append(f"{fld.FLANK_RU[flank].capitalize()} фланг:")
        else:
            lines.append(f"{flank.capitalize()} flank:")
        for s in sorted(here, key=lambda s: fld.row(s.position)):
            rank = fld.rank_of(s.position)
            head = fld.RANK_RU[rank].capitalize() if lang == "ru" else rank.capitalize()
            # as players write it: «10 копейщиков, 3 рыцаря» (it was «10 Копейщик, 3 Рыцарь»)
            items = ", ".join(unit_counted(rules, u, n, lang) for u, n in s.units.items())
            lines.append(f"{head} - {items}")
    return "\n".join(lines)
