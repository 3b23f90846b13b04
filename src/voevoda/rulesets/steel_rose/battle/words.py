"""The words of the posts of a battle as a player reads them back: squads with their units
counted («правый авангард: 10 копейщиков, 3 рыцаря и герой»), manoeuvres with their targets in
the case the verb asks («обстрел правого авангарда», «натиск на центральный арьергард»), powder
(«порох для пушек: 10»). What the echo of a post, the game's report and its map say
(docs/reports.md: nouns agree through :mod:`voevoda.core.words`, never glued by hand)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from voevoda.core.words import counted, inflect_phrase, join_and, plural_en
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


def units_text(rules: Rules, counts: Mapping[str, int], lang: str = "ru") -> str:
    """«10 копейщиков, 3 рыцаря и герой»; "10 spearmen, 3 knights and 1 hero"."""
    parts = []
    for uid, n in counts.items():
        if not n:
            continue
        name = unit_name(rules, uid, lang)
        parts.append(name if n == 1 and lang == "ru" else counted(n, name, lang))
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
        whom = f"для {inflect_phrase(name, 'gent', plural=True)}" if lang == "ru" else f"for {plural_en(name)}"
    return f"{'порох' if lang == 'ru' else 'gunpowder'} {whom}: {share.amount}"
