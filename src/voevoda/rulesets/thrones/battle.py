"""The strength of a battle, added up before the table types its result (ruling T28).

Battles are fought at the table (ruling T25); what the table still adds up by hand is the sum of
what the companion already knows — the army that marches, the units and the garrison that defend,
the support orders that reach the battle, the holy bonus in force — and what only the table knows,
typed by the attacker with its march («битва за Ров Кейлин: Старк 3, Ланнистер 1»): each side's
house card, any bonus of an order token or a card's text («Старк 3 -1»), and whom a third house's
supports help, with its general when it is an ally of that side («Баратеон за Старка 2»):

* «подмога в виде генералов ... вместе с подмогой прибавляется не только сила помогающего отряда но
  и генерал союзника» (001 «Дипломатические операции»);
* «классическую подмогу оказывать можно кому хочешь, хоть союзникам, хоть врагам» — a third house's
  support counts for the side the table names, for nobody when it names none;
* the holy places: «+ 1 к боевой силе пехотинцев владельца» while the matching card is in force,
  «На союзников данные бонусы не распространяются» (001 «Модификация «Святые земли»», ruling T13).

The base game's numbers (each unit's strength, a siege tower's against a castle, which supports
reach which battles, who wins a tie) are the table's data: ``combat`` in ``data/setup.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.movement import card_in_force
from voevoda.rulesets.thrones.state import allied, unit_count

Term = dict[str, Any]
"""One term of a side's strength: ``kind`` (army, defenders, support, holy, garrison, card, general,
bonus) and ``value``, with what it is about (``area``, ``units``, ``house``, ``holy``)."""


def defender_of(state: Mapping[str, Any], area: str) -> str | None:
    """The house that defends ``area``: the one whose units or garrison stand there; None for a
    neutral force."""
    info = state["board"][area]
    if info["house"] is not None and (unit_count(info) or info["garrison"]):
        return str(info["house"])
    return None


def reaches(ctx: Ctx, source: str, battle: str) -> bool:
    """Whether a support order in ``source`` reaches a battle in ``battle``: the areas border and
    ``combat.support_reach`` lets the one kind of area help the other."""
    b = ctx.board
    if not b.adjacent(source, battle):
        return False
    into = "sea" if b[battle].holds_ships else "land"
    return any(terrain == b[source].type and into in battles
               for terrain, battles in ctx.rules.combat.support_reach.items())


def supports(ctx: Ctx, state: Mapping[str, Any], battle: str) -> list[tuple[str, str, dict[str, int]]]:
    """The support orders that reach ``battle`` and are not raided: (house, area, its units there)."""
    out = []
    for area, placed in sorted(state.get("orders", {}).items()):
        if placed["kind"] != "support" or placed.get("raided") or area == battle:
            continue
        info = state["board"][area]
        if info["house"] != placed["house"] or not unit_count(info) or not reaches(ctx, area, battle):
            continue
        out.append((str(placed["house"]), area, {k: int(n) for k, n in info["units"].items() if n}))
    return out


def holy_servants(ctx: Ctx, state: Mapping[str, Any],
                  leaving: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, tuple[str, str]]:
    """house → (holy place, unit kind) for every holy bonus in force: the matching card drawn this
    round, and the house's servant standing in the holy area (ruling T13) — not one that marches
    out of it (``leaving``: area → units): «Если уйти с земли ... «святые» бонусы действовать не
    будут»."""
    out: dict[str, tuple[str, str]] = {}
    card = state.get("card")
    if not card or not card_in_force(state, ctx, "holy"):
        return out
    try:
        holy_id = ctx.rules.card(card["id"]).holy
    except KeyError:
        return out
    place = (state.get("holy") or {}).get(holy_id or "")
    if not place or not place.get("area"):
        return out
    spec = ctx.rules.holy_place(str(holy_id))
    info = state["board"][place["area"]]
    gone = int((leaving or {}).get(place["area"], {}).get(spec.unit, 0))
    if info["house"] is not None and int(info["units"][spec.unit]) - gone > 0:
        out[str(info["house"])] = (spec.id, spec.unit)
    return out


def _strength(ctx: Ctx, units: Mapping[str, int], attacking_castle: bool) -> int:
    return sum(ctx.rules.combat.unit(k, attacking_castle) * int(n) for k, n in units.items())


def battle_strength(ctx: Ctx, state: Mapping[str, Any], attacker: str, area: str, army: Mapping[str, int],
                    typed: Sequence[Mapping[str, Any]] = (),
                    starts: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """Both sides of the battle ``attacker``'s ``army`` fights in ``area``, from ``state`` and what
    the table typed (``typed``: {house, card, bonus} for a side, {house, for, card} for a third
    house's support and its general); ``starts`` says where the army marches from (area → units).
    A plain dict, as events carry it."""
    defender = defender_of(state, area)
    info = state["board"][area]
    castle = bool(ctx.board[area].castle_level)
    holy = holy_servants(ctx, state, starts)
    sides: dict[str, list[Term]] = {"attack": [], "defence": []}
    servants: dict[str, dict[str, dict[str, int]]] = {"attack": {}, "defence": {}}
    """side → house → the units of the kind its holy bonus raises, fighting on that side."""

    def count(side: str, house: str, here: Mapping[str, int]) -> None:
        if house in holy:
            kind = holy[house][1]
            got = servants[side].setdefault(house, {})
            got[kind] = got.get(kind, 0) + int(here.get(kind, 0))

    sides["attack"].append({"kind": "army", "value": _strength(ctx, army, castle), "units": dict(army)})
    count("attack", attacker, army)
    if defender is not None and unit_count(info):
        standing = {k: int(n) for k, n in info["units"].items() if n}
        sides["defence"].append({"kind": "defenders", "value": _strength(ctx, standing, False), "units": standing})
        count("defence", defender, standing)
    if info["garrison"]:
        sides["defence"].append({"kind": "garrison", "value": int(info["garrison"])})
    helping = {str(t["house"]): str(t["for"]) for t in typed if t.get("for")}
    unassigned: list[Term] = []
    for house, where, here in supports(ctx, state, area):
        side_of = {attacker: "attack", **({defender: "defence"} if defender else {})}
        helped = house if house in side_of else helping.get(house)
        if helped is None or helped not in side_of:
            unassigned.append({"kind": "support", "house": house, "area": where, "units": here})
            continue
        side = side_of[helped]
        sides[side].append({"kind": "support", "value": _strength(ctx, here, castle and side == "attack"),
                            "house": house, "area": where, "units": here})
        count(side, house, here)
    for side, by_house in servants.items():
        for house, got in by_house.items():
            holy_id, kind = holy[house]
            n = sum(got.values())
            if n:
                value = 1 if ctx.options.holy_bonus == "once" else n
                sides[side].append({"kind": "holy", "value": value, "house": house, "holy": holy_id,
                                    "units": {kind: n}})
    cards = {"attack": False, "defence": defender is None}
    for t in typed:
        house = str(t["house"])
        if t.get("for"):
            side = "attack" if t["for"] == attacker else "defence"
            if t.get("card") is not None:
                sides[side].append({"kind": "general", "value": int(t["card"]), "house": house})
            continue
        side = "attack" if house == attacker else "defence"
        if t.get("card") is not None:
            sides[side].append({"kind": "card", "value": int(t["card"]), "house": house})
            cards[side] = True
        if t.get("bonus"):
            sides[side].append({"kind": "bonus", "value": int(t["bonus"]), "house": house})
    attack = sum(int(t["value"]) for t in sides["attack"])
    defence = sum(int(t["value"]) for t in sides["defence"])
    if attack != defence:
        stronger = "attack" if attack > defence else "defence"
    else:
        stronger = _tie(ctx, state, attacker, defender)
    return {"area": area, "attacker": attacker, "defender": defender, "attack": attack, "defence": defence,
            "attack_terms": sides["attack"], "defence_terms": sides["defence"], "unassigned": unassigned,
            "stronger": stronger, "cards": cards["attack"] and cards["defence"], "typed": bool(typed)}


def _tie(ctx: Ctx, state: Mapping[str, Any], attacker: str, defender: str | None) -> str:
    """Equal strength: the side higher on ``combat.tie_track`` («tie», left to the table, with no
    track or a neutral force)."""
    track = ctx.rules.combat.tie_track
    if not track or defender is None:
        return "tie"
    order = list(state["tracks"][track])
    if attacker not in order or defender not in order:
        return "tie"
    return "attack" if order.index(attacker) < order.index(defender) else "defence"


def typed_problems(ctx: Ctx, state: Mapping[str, Any], attacker: str, area: str,
                   typed: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """What the table typed for a battle that cannot be: a house that does not fight or support
    there, a general from a house not allied with the side it supports, a card for a neutral force,
    a house named twice. (Russian, English) each."""
    from voevoda.rulesets.thrones.movement import E, R

    out: list[tuple[str, str]] = []
    defender = defender_of(state, area)
    parties = {attacker} | ({defender} if defender else set())
    supporting = {house for house, _, _ in supports(ctx, state, area)}
    seen: set[str] = set()
    names = {p: state["houses"][p]["house"] for p in state["seats"]}

    def name(p: str, lang: str) -> str:
        house = ctx.rules.houses.get(names.get(p, ""))
        return house.name(lang) if house else p

    for t in typed:
        house = str(t["house"])
        if house in seen:
            out.append((f"{name(house, 'ru')} назван дважды", f"{name(house, 'en')} is named twice"))
            continue
        seen.add(house)
        helped = t.get("for")
        if helped is None:
            if house not in parties:
                out.append((f"{name(house, 'ru')} не сражается в области {R(area)}: его подмогу пишут «{name(house, 'ru')} "
                            "за ДОМ»", f"{name(house, 'en')} does not fight in {E(area)}: write its support as "
                            f"'{name(house, 'en')} for HOUSE'"))
            elif t.get("card") is None and not t.get("bonus"):
                out.append((f"для дома {name(house, 'ru')} не названа карта", f"no card given for {name(house, 'en')}"))
            continue
        helped = str(helped)
        if house in parties:
            out.append((f"{name(house, 'ru')} сам сражается в области {R(area)}", f"{name(house, 'en')} fights in "
                        f"{E(area)} itself"))
        elif helped not in parties:
            out.append((f"{name(helped, 'ru')} не сражается в области {R(area)}", f"{name(helped, 'en')} does not fight "
                        f"in {E(area)}"))
        elif house not in supporting:
            out.append((f"у дома {name(house, 'ru')} нет приказа подмоги, который достаёт до области {R(area)}",
                        f"{name(house, 'en')} has no support order that reaches {E(area)}"))
        elif t.get("card") is not None and not allied(state, house, helped):
            out.append(("генерал идёт вместе с подмогой только от союзника этого хода («подмога в виде генералов»)",
                        "a general comes with a support only from an ally of this round"))
    return out

