"""The words of the posts of a battle as a player reads them back: squads with their units
counted («правый авангард: 10 копейщиков, 3 рыцаря и герой»), manoeuvres with their targets in
the case the verb asks («обстрел правого авангарда», «натиск на центральный арьергард»), powder
(«порох для пушек: 10»). What the echo of a post, the game's report and its map say
(docs/reports.md: nouns agree through :mod:`voevoda.core.words`, never glued by hand)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from voevoda.core.words import agree, counted, inflect_phrase, join_and, number, plural_en
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, PowderShare
from voevoda.rulesets.steel_rose.rules import Rules


def unit_name(rules: Rules, uid: str, lang: str = "ru") -> str:
    """A unit's name in the nominative singular, as written inside a sentence («всадник на
    грифоне», "griffin rider")."""
    unit = rules.units.get(uid)
    if unit is None:
        return uid
    name = unit.name_ru if lang == "ru" else unit.name_en
    return name[:1].lower() + name[1:]


def _plural_tail(rules: Rules, uid: str) -> tuple[tuple[int, str], ...]:
    """The words after a Russian unit name's head that its plural changes too, as the unit's own
    plural name in the data writes it: «всадник на грифоне» — «всадники на грифонах» gives
    ((2, «грифонах»),). The morphology changes the head and the adjectives before it («тяжёлые
    пехотинцы»); a phrase after the head («на грифоне», «пустоты») it keeps."""
    unit = rules.units[uid]
    return _tail_of(unit_name(rules, uid, "ru"), tuple(unit.names))


@lru_cache(maxsize=256)
def _tail_of(name: str, names: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    singular = name.split(" ")
    if len(singular) < 2:
        return ()
    by_rule = inflect_phrase(name, "nomn", plural=True).split(" ")
    for other in names:
        words = other.lower().split(" ")
        if len(words) != len(singular) or words == singular or words[0] != by_rule[0].lower():
            continue
        return tuple((i, words[i]) for i in range(len(words))
                     if by_rule[i].lower() == singular[i].lower() and words[i] != singular[i].lower())
    return ()


def _with_tail(rules: Rules, uid: str, phrase: str) -> str:
    words = phrase.split(" ")
    for i, word in _plural_tail(rules, uid):
        if i < len(words):
            words[i] = word
    return " ".join(words)


def unit_counted(rules: Rules, uid: str, n: int, lang: str = "ru", case: str = "nomn") -> str:
    """A number of units in ``case``: «2 всадника на грифонах», «21 всадник на грифоне», «5
    низших демонов», «нанять 2 целителей» (``accs``); "2 griffin riders"."""
    name = unit_name(rules, uid, lang)
    if lang != "ru":
        return counted(n, name, lang)
    phrase = agree(n, name, case=case)
    one = n % 10 == 1 and n % 100 != 11
    return f"{number(n, 'ru')} {phrase if one else _with_tail(rules, uid, phrase)}"


def unit_plural(rules: Rules, uid: str, case: str = "nomn", lang: str = "ru") -> str:
    """The units of a kind in the plural: «нанимать всадников на грифонах» (``gent``); "griffin riders"."""
    name = unit_name(rules, uid, lang)
    if lang != "ru":
        return plural_en(name)
    return _with_tail(rules, uid, inflect_phrase(name, case, plural=True))


def units_text(rules: Rules, counts: Mapping[str, int], lang: str = "ru") -> str:
    """«10 копейщиков, 3 рыцаря и герой»; "10 spearmen, 3 knights and 1 hero"."""
    parts = []
    for uid, n in counts.items():
        if not n:
            continue
        parts.append(unit_name(rules, uid, lang) if n == 1 and lang == "ru" else unit_counted(rules, uid, n, lang))
    return join_and(parts, lang) or ("никого" if lang == "ru" else "nobody")


def position(pos: str, lang: str = "ru", case: str = "nomn") -> str:
    """«правый авангард», «правого авангарда» (``case`` a pymorphy3 case); "the right vanguard"
    in English when ``case`` is not the nominative."""
    if lang == "ru":
        return inflect_phrase(fld.label_ru(pos), case) if case != "nomn" else fld.label_ru(pos)
    return fld.label_en(pos) if case == "nomn" else f"the {fld.label_en(pos)}"


def squad_line(rules: Rules, pos: str, counts: Mapping[str, int], lang: str = "ru") -> str:
    """«правый авангард: 10 копейщиков, 3 рыцаря и герой»."""
    return f"{position(pos, lang)}: {units_text(rules, counts, lang)}"


def manoeuvre_text(m: Manoeuvre, lang: str = "ru") -> str:
    """What a squad was ordered to do, the target in the case the manoeuvre asks: «обстрел
    правого авангарда», «защита правого арьергарда», «натиск на центральный арьергард»,
    «марш-бросок через левый авангард на левый арьергард», «в укрытие»."""
    ru = lang == "ru"
    targets: Sequence[str] = m.targets
    if m.kind in ("volley", "long_volley"):
        what = ("дальнобойный обстрел" if m.kind == "long_volley" else "обстрел") if ru else (
            "long-range volley at" if m.kind == "long_volley" else "volley at")
        doing = f"{what} {position(targets[0], lang, 'gent')}" if targets else what.removesuffix(" at")
    elif m.kind == "defend":
        doing = (f"защита {position(targets[0], lang, 'gent')}" if ru else f"defend {position(targets[0], lang, 'accs')}"
                 ) if targets else ("защита" if ru else "defend")
    elif m.kind == "charge":
        doing = (f"натиск на {position(targets[0], lang, 'accs')}" if ru else f"charge {position(targets[0], lang, 'accs')}"
                 ) if targets else ("натиск" if ru else "charge")
    elif m.kind in ("move", "march"):
        what = ("смена позиции" if m.kind == "move" else "марш-бросок") if ru else (
            "position change" if m.kind == "move" else "forced march")
        if len(targets) >= 2:
            via = ", ".join(position(t, lang, "accs") for t in targets[:-1])
            doing = (f"{what} через {via} на {position(targets[-1], lang, 'accs')}" if ru
                     else f"{what} via {via} to {position(targets[-1], lang, 'accs')}")
        elif targets:
            doing = f"{what} на {position(targets[0], lang, 'accs')}" if ru else f"{what} to {position(targets[0], lang, 'accs')}"
        else:
            doing = what
    elif m.kind == "cover":
        doing = "в укрытие" if ru else "take cover"
    else:
        doing = m.kind
    return f"{position(m.squad, lang)}: {doing}"


def powder_text(share: PowderShare, rules: Rules, lang: str = "ru") -> str:
    """«порох на центральный арьергард: 15», «порох для пушек: 10»; "gunpowder for cannons: 10"."""
    if share.position is not None:
        whom = f"на {position(share.position, lang, 'accs')}" if lang == "ru" else f"for {position(share.position, lang, 'accs')}"
    else:
        name = unit_name(rules, str(share.unit), lang)
        whom = f"для {unit_plural(rules, str(share.unit), 'gent')}" if lang == "ru" else f"for {plural_en(name)}"
    return f"{'порох' if lang == 'ru' else 'gunpowder'} {whom}: {share.amount}"
