"""The roll: «Роллы делаются так: ##5dX##, где X — число сторон дайса в эту эпоху.»

Five dice of the epoch's die are rolled under the label ``roll/<country>`` (docs/dice.md);
each face is a digit (a face of 10 reads 0), the five read as a number left to right. The
pattern table gives the points::

    last digit 1-3 = +5, 4-6 = +10, 7-9 = +15, 0 = +20
    double (last two equal) or 3-digit palindrome (last three, aba)   = +25
    triple (last three equal) or 4-digit palindrome (last four, abba) = +40
    quad (last four equal) or 5-digit palindrome (abcba)              = +50
    penta (all five equal)                                            = +80

The best pattern counts; with the option ``pattern_bonus = "add"`` it is added to the last
digit's bonus instead of replacing it (docs/rulings/new_worlds.md R4). Then the modifiers:
cities and their upgrades, resources, religion, research, the invaders' bonuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voevoda.core.dice import Dice
from voevoda.rulesets.new_worlds.rules import RollTable
from voevoda.rulesets.new_worlds.state import Country, Modifier, Roll
from voevoda.rulesets.new_worlds.world import World

PATTERNS = ("penta", "quad", "triple", "double", "digit")
PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "penta": ("пента", "penta"),
    "quad": ("квадра / 5д пали", "quad / 5-digit palindrome"),
    "triple": ("трипл / 4д пали", "triple / 4-digit palindrome"),
    "double": ("дабл / 3д пали", "double / 3-digit palindrome"),
    "digit": ("последняя цифра", "last digit"),
}


@dataclass(frozen=True)
class Pattern:
    name: str         # a key of PATTERNS
    detail: str       # which shape matched: "double", "palindrome3", ...
    bonus: int
    digit_bonus: int


def digits_of(faces: Sequence[int]) -> str:
    """The number the dice make: each face a digit, 10 read as 0."""
    return "".join(str(f % 10) for f in faces)


def last_digit_bonus(digit: int, table: RollTable) -> int:
    """«1-3 = +5, 4-6 = +10, 7-9 = +15, 0 = +20»"""
    return table.zero if digit == 0 else table.last_digit[digit - 1]


def pattern_of(digits: str, table: RollTable, mode: str = "replace") -> Pattern:
    """The best pattern of a five-digit roll and its points."""
    if len(digits) != 5 or not digits.isdigit():
        raise ValueError(f"a roll is five digits, got {digits!r}")
    d = digits
    digit_bonus = last_digit_bonus(int(d[-1]), table)
    found: tuple[str, str, int] | None = None
    if len(set(d)) == 1:
        found = ("penta", "penta", table.penta)
    elif len(set(d[1:])) == 1:
        found = ("quad", "quad", table.quad)
    elif d == d[::-1]:
        found = ("quad", "palindrome5", table.quad)
    elif len(set(d[2:])) == 1:
        found = ("triple", "triple", table.triple)
    elif d[1:] == d[1:][::-1]:
        found = ("triple", "palindrome4", table.triple)
    elif d[3] == d[4]:
        found = ("double", "double", table.double)
    elif d[2] == d[4]:
        found = ("double", "palindrome3", table.double)
    if found is None:
        return Pattern("digit", "digit", digit_bonus, digit_bonus)
    name, detail, bonus = found
    total = bonus + digit_bonus if mode == "add" else bonus
    return Pattern(name, detail, total, digit_bonus)


def modifiers(world: World, country: Country, turn: int) -> list[Modifier]:
    """Everything that adds to a country's roll this turn, one line each."""
    rules = world.rules
    cid = country.id
    mods: list[Modifier] = []
    cities = world.state.cities_of(cid)
    if cities:
        # «Города дают игрокам +1 к итогу ролла»
        mods.append(Modifier(key="cities", amount=rules.cities.roll_bonus * len(cities), count=len(cities)))
        levels = sum(world.state.tiles[t].city or 0 for t in cities)
        if levels:
            # «Каждое улучшение города дает ещё +1 бонус к роллу»
            mods.append(Modifier(key="upgrades", amount=rules.cities.upgrade_roll_bonus * levels, count=levels))
    holdings = world.holdings(cid)
    # one line for the units of a resource that give the same and for the same reasons: those
    # on one's land, then those bought from each seller, each with its boost and multiplier
    # («хлопок (с рабами) +2», «вино от Бориса ×2 (уникальный) +2»), so the roll adds up by hand
    groups: dict[tuple[str, str, tuple[str, ...], int, tuple[str, ...]], list[int]] = {}
    order = list(rules.resources)
    for unit in sorted(holdings.units, key=lambda u: (order.index(u.resource), u.seller is not None, u.seller or "")):
        if unit.bonus:
            key = (unit.resource, unit.seller or "", tuple(unit.boost), unit.multiplier, tuple(unit.why))
            groups.setdefault(key, []).append(unit.bonus)
    for (res, seller, boost, multiplier, why), values in groups.items():
        mods.append(Modifier(key=f"resource:{res}", amount=sum(values), count=len(values), seller=seller or None,
                             boost=list(boost), multiplier=multiplier, why=list(why)))
    form = world.religion_form(country)
    if form is not None:
        at_war = world.in_war(cid)
        if form.roll_bonus and (world.options.dualism_roll_bonus == "always" or not at_war):
            mods.append(Modifier(key="religion", amount=form.roll_bonus))
        if form.war_roll_bonus:
            foes = [e for e in world.enemies(cid) if world.state.countries[e].religion in form.war_bonus_against]
            if foes:
                # «Бонус +5 к роллу во время Войны с Политеистами и Дуалистами.»
                mods.append(Modifier(key="crusade", amount=form.war_roll_bonus, detail=", ".join(foes)))
    if world.has_project(country, "soft_power"):
        n = len(world.state.buildings_of(cid, "university")) + len(world.state.buildings_of(cid, "factory"))
        if n:
            mods.append(Modifier(key="soft_power", amount=rules.research.soft_power_bonus * n, count=n))
    mods.extend(event_bonus(world, country, turn))
    return mods


def event_bonus(world: World, country: Country, turn: int) -> list[Modifier]:
    """The invaders' bonuses: «+20 * P на первый ход, далее +15 * P» (Sea Peoples), «+36. За
    каждый захваченный город, они теряют 4 очка» (the Khagan), and a GM invader's own."""
    ev = world.rules.events
    state = world.state
    players = len([c for c in state.players() if c.alive])
    if country.event == "sea_peoples" and country.kind == "invader":
        first = state.events.sea_peoples.first_turn in (None, turn)
        per = ev.sea_peoples.first_turn_bonus_per_player if first else ev.sea_peoples.bonus_per_player
        return [Modifier(key="invaders", amount=per * players, count=players)]
    if country.event == "khaganate" and country.kind == "invader":
        kh = state.events.khaganate
        lost = kh.cities_taken if world.options.khaganate_bonus_loss == "cities_taken" else kh.cities_lost
        return [Modifier(key="khaganate", amount=max(0, ev.khaganate.bonus - ev.khaganate.loss_per_city * lost),
                         count=lost)]
    if country.kind == "invader" and country.event is not None and country.event.startswith("custom:"):
        return [Modifier(key="invaders", amount=country.bonus, count=players)]
    return []


def roll_country(world: World, country: Country, dice: Dice, turn: int) -> Roll:
    """Roll 5dX for ``country`` under ``roll/<id>`` and add its modifiers. ``turn`` is the
    turn the points are for."""
    die = world.epoch.die
    stream = dice.stream(f"roll/{country.id}")
    faces = stream.rolls(world.rules.roll.dice, die)
    digits = digits_of(faces)
    pattern = pattern_of(digits, world.rules.roll, world.options.pattern_bonus)
    mods = modifiers(world, country, turn)
    total = max(0, pattern.bonus + sum(m.amount for m in mods))
    return Roll(turn=turn, die=die, faces=faces, digits=digits, pattern=pattern.detail, base=pattern.bonus,
                modifiers=mods, total=total)
