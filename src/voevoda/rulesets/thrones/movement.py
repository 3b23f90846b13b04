"""The movement rules of the expansion, checked against the board the table recorded.

* «Осадные башни. Передвигать их можно только вместе с пехотинцем в отряде. Одинокие башни могут
  только стоять. Рыцари башни не катают.»
* «Рыцари ... Конница ходит по двум пустым клеткам вместо одной, когда действует четвертая карта
  Вестероса «Вдоль королевского тракта». Независимо от действия карты, если конница использует
  корабли, движется через занятые земли (союзники, жетоны власти, противники), то перемещение
  осуществляется на одну клетку. ... в смешанных отрядах (рыцарь+пехотинец) без их разделения
  движение происходит на 1 клетку.»
* «проброска» войск: «Для прохода через моря/земли с кораблями/войсками другого лорда требуется
  согласие лорда, союз с ним и обязательно приказ подмоги на морях/землях, где расположены
  транзитные корабли/войска»; «Перейти на землю союзника нельзя»; «Высадка с кораблей союзника
  возможна только на нейтральные земли или землю лорда, не состоящего в данном союзе»; several
  allied areas may be passed in one move, «Аналогичным образом можно перебрасывать корабли».
* the base rules: a unit moves to an adjacent area; land units cross seas on their own ships;
  ships enter a port only of a land their house controls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from voevoda.rulesets.thrones.board import board
from voevoda.rulesets.thrones.context import Ctx, rule, ruling
from voevoda.rulesets.thrones.rules import LAND_UNITS
from voevoda.rulesets.thrones.state import allied, unit_count

Problem = tuple[str, str, str]


def R(area: str) -> str:  # noqa: N802 - short on purpose: it stands inside every message
    """An area's Russian name, for messages."""
    b = board()
    return f"«{b[area].name_ru}»" if area in b else area


def E(area: str) -> str:  # noqa: N802
    """An area's English name, for messages."""
    b = board()
    return b[area].name_en if area in b else area

MOVES = "Дополнительные модификации движения"
PASSAGE = "Дипломатические операции"


@dataclass
class MarchCheck:
    problems: list[Problem] = field(default_factory=list)
    battle: bool = False
    transits: list[str] = field(default_factory=list)
    """How each area between start and end was crossed: ``own-ships``, ``allied-ships``,
    ``allied-land`` or ``road``."""


def card_in_force(state: Mapping[str, Any], ctx: Ctx, effect: str) -> bool:
    card = state.get("card")
    if not card or card.get("turn") != state.get("turn"):
        return False
    try:
        return ctx.rules.card(card["id"]).effect == effect
    except KeyError:
        return False


def other_units(state: Mapping[str, Any], area: str, player: str) -> bool:
    info = state["board"][area]
    return info["house"] not in (None, player) and unit_count(info) > 0


def defended_against(state: Mapping[str, Any], ctx: Ctx, area: str, player: str) -> bool:
    """Whether ``player`` marching into ``area`` fights a battle there: another house's units, or
    a garrison that is not his own (a neutral force, or another house's home garrison)."""
    info = state["board"][area]
    if other_units(state, area, player):
        return True
    return bool(info["garrison"]) and info["house"] != player


def own_garrison(state: Mapping[str, Any], area: str, player: str) -> bool:
    """Whether the garrison in ``area`` is ``player``'s own: the garrison token of its home, while
    it holds its home (the board data: «the home house's garrison token»)."""
    info = state["board"][area]
    seat = state["houses"].get(player) or {}
    return bool(info["garrison"]) and info["house"] == player and seat.get("home") == area


def empty_for_road(state: Mapping[str, Any], ctx: Ctx, area: str, player: str) -> bool:
    """«по двум пустым клеткам»: no rival's or ally's units, no power token, no garrison but the
    house's own; the house's own units and its own home garrison do not occupy it — the document's
    list is «занятые земли (союзники, жетоны власти, противники)» (ruling T15; option
    ``road_through_own = false``: they occupy too)."""
    info = state["board"][area]
    own = info["house"] == player and ctx.options.road_through_own
    if info["token"] is not None or (info["garrison"] and not (own and own_garrison(state, area, player))):
        return False
    if unit_count(info) == 0:
        return True
    return own


def _supported_by(state: Mapping[str, Any], area: str, house: str) -> bool:
    order = state.get("orders", {}).get(area)
    return bool(order) and order["house"] == house and order["kind"] == "support" and not order.get("raided")


def _consented(state: Mapping[str, Any], area: str, by: str, to: str) -> bool:
    return any(p["by"] == by and p["to"] == to and p["area"] == area for p in state.get("passages", []))


def _allied_transit(state: Mapping[str, Any], area: str, player: str, ships: bool) -> Problem | None:
    """Why ``area`` cannot be passed through as an ally's area holding a support order, or None."""
    info = state["board"][area]
    ally = info["house"]
    if ally is None or unit_count(info) == 0 or ally == player:
        return None if ally == player else ("", "", "")
    names = "кораблями" if ships else "войсками"
    if not allied(state, player, ally):
        return (f"в области {R(area)} стоят {names} не союзника: пройти нельзя",
                f"{E(area)} holds units of a house not allied this turn: no passage", rule(PASSAGE))
    if not _supported_by(state, area, ally):
        return (f"в области {R(area)} у союзника нет приказа подмоги: пройти нельзя",
                f"the ally has no support order in {E(area)}: no passage", rule(PASSAGE))
    if not _consented(state, area, ally, player):
        return (f"союзник не дал согласия на проход через область {R(area)} («пропуск …» в фазе приказов)",
                f"the ally gave no consent to pass through {E(area)} ('passage …' in the planning phase)",
                rule(PASSAGE))
    return None


def check_march(ctx: Ctx, state: Mapping[str, Any], player: str, path: list[str], units: Mapping[str, int],
                outcome: str | None) -> MarchCheck:
    """Every rule a march breaks, whether it ends in a battle, and how it crosses each area."""
    b = ctx.board
    out = MarchCheck()
    bad = out.problems.append
    end = path[-1]
    land = [k for k in units if k in LAND_UNITS]
    ships = "ship" in units
    if land and ships:
        bad(("корабли и сухопутные войска ходят раздельно", "ships and land units move separately",
             rule(MOVES)))
        return out
    if len(set(path)) != len(path):
        bad(("путь проходит одну область дважды", "the path passes one area twice", rule(MOVES)))
        return out
    for here, there in zip(path, path[1:], strict=False):
        if not b.adjacent(here, there):
            bad((f"область {R(there)} не граничит с областью {R(here)}", f"{E(there)} does not border {E(here)}", rule(MOVES)))
            return out
    # «Осадные башни. Передвигать их можно только вместе с пехотинцем в отряде.»
    siege = units.get("siege", 0)
    if siege:
        footmen = units.get("footman", 0)
        needed = siege if ctx.options.siege_escort == "each" else 1
        if footmen < needed:
            knights = " Рыцари башни не катают." if units.get("knight") else ""
            knights_en = " Knights do not haul towers." if units.get("knight") else ""
            bad((f"осадную башню двигают только вместе с пешим в отряде.{knights}",
                 f"a siege tower moves only with a footman in the army.{knights_en}", rule(MOVES)))
    if ships:
        _check_ships(ctx, state, player, path, out)
    else:
        _check_land(ctx, state, player, path, units, out)
    if out.problems:
        return out
    out.battle = defended_against(state, ctx, end, player)
    if out.battle and outcome is None:
        bad((f"в области {R(end)} будет битва: допишите её исход («победа» или «поражение»)",
             f"there is a battle in {E(end)}: add its result ('won' or 'lost')", ruling(18)))
    if not out.battle and outcome is not None:
        bad((f"в области {R(end)} битвы нет: исход не нужен", f"there is no battle in {E(end)}: no result is needed", ruling(18)))
    return out


def _check_ships(ctx: Ctx, state: Mapping[str, Any], player: str, path: list[str], out: MarchCheck) -> None:
    b = ctx.board
    bad = out.problems.append
    for area in path:
        if not b[area].holds_ships:
            bad((f"корабли не ходят по суше ({R(area)})", f"ships do not sail on land ({E(area)})", rule(MOVES)))
            return
    end = path[-1]
    if b[end].is_port:
        land = b.land_of(end)
        if state["board"][land]["house"] != player:
            bad((f"корабли входят только в порт своей земли: земля {R(land)} не ваша",
                 f"ships enter only the port of a land their house holds: {E(land)} is not yours",
                 "Игра престолов, базовые правила «Порты»"))
    for area in path[1:-1]:
        problem = _allied_transit(state, area, player, ships=True)
        if problem is None:
            out.transits.append("allied-ships")
        elif problem[0]:
            bad(problem)
        else:
            bad((f"корабли проходят только через моря союзника с приказом подмоги ({R(area)})",
                 f"ships pass only through an ally's seas holding a support order ({E(area)})", rule(PASSAGE)))
    if "allied-ships" in out.transits:
        _not_to_ally(state, ctx, player, end, out)


def _check_land(ctx: Ctx, state: Mapping[str, Any], player: str, path: list[str], units: Mapping[str, int],
                out: MarchCheck) -> None:
    b = ctx.board
    bad = out.problems.append
    start, end, middle = path[0], path[-1], path[1:-1]
    if not b[start].is_land or not b[end].is_land:
        bad(("сухопутные войска ходят с земли на землю", "land units move from land to land", rule(MOVES)))
        return
    if not middle:
        return
    only_knights = set(units) == {"knight"}
    road = card_in_force(state, ctx, "kings_road")
    if len(middle) == 1 and b[middle[0]].is_land and only_knights and road:
        # «Конница ходит по двум пустым клеткам вместо одной»
        if not empty_for_road(state, ctx, middle[0], player):
            bad((f"область {R(middle[0])} занята (союзники, жетоны власти, противники): конница проходит её только на одну "
                 "клетку", f"{E(middle[0])} is occupied (allies, power tokens, rivals): knights move one area through it",
                 rule(MOVES)))
            return
        if ctx.options.road_destination == "empty" and not empty_for_road(state, ctx, end, player):
            bad((f"область {R(end)} не пуста: по тракту конница ходит по двум пустым клеткам",
                 f"{E(end)} is not empty: on the King's Road knights move through two empty areas", ruling(14)))
            return
        out.transits.append("road")
        return
    allied_used = False
    for area in middle:
        info = state["board"][area]
        kind = b[area]
        if allied_used and not (info["house"] not in (None, player) and unit_count(info)):
            # «сквозь землю союзника, на ближайшую нейтральную или землю лорда, не состоящего в данном
            # союзе»: out of the allies' areas, the army stops in the first one it enters (ruling T16)
            bad((f"пройдя через союзника, войско идёт на ближайшую землю за ним («на ближайшую нейтральную или "
                 f"землю лорда, не состоящего в данном союзе»): дальше через область {R(area)} нельзя",
                 f"after passing through an ally the army goes to the nearest land beyond it: it cannot go on "
                 f"through {E(area)}", rule(PASSAGE)))
            return
        if kind.is_sea:
            if info["house"] == player and info["units"]["ship"]:
                out.transits.append("own-ships")
                continue
            if unit_count(info) == 0:
                bad((f"в области {R(area)} нет кораблей, чтобы переправить войска",
                     f"there are no ships in {E(area)} to carry the army", rule(MOVES)))
                return
            problem = _allied_transit(state, area, player, ships=True)
            if problem is not None and problem[0]:
                bad(problem)
                return
            out.transits.append("allied-ships")
            allied_used = True
            continue
        if kind.is_land:
            if info["house"] == player or unit_count(info) == 0:
                why_ru = "своя земля" if info["house"] == player else "пустая земля"
                why_en = "your own land" if info["house"] == player else "an empty land"
                extra_ru = ("; по тракту ходят только одни рыцари, и только когда действует «Вдоль королевского тракта»"
                            if "knight" in units else "")
                extra_en = ("; only knights alone move two areas, and only under «Вдоль королевского тракта»"
                            if "knight" in units else "")
                bad((f"через область {R(area)} ({why_ru}) за ход не пройти: отряд ходит на одну область{extra_ru}",
                     f"{E(area)} ({why_en}) cannot be passed: an army moves one area{extra_en}", rule(MOVES)))
                return
            problem = _allied_transit(state, area, player, ships=False)
            if problem is not None and problem[0]:
                bad(problem)
                return
            out.transits.append("allied-land")
            allied_used = True
            continue
        bad((f"сухопутные войска не проходят через порт ({R(area)})", f"land units do not pass through a port ({E(area)})",
             rule(MOVES)))
        return
    if allied_used:
        _not_to_ally(state, ctx, player, end, out)
        if not out.problems and ctx.options.passage_nearest == "shortest":
            _shortest(ctx, state, player, path, out)


def _transit(state: Mapping[str, Any], ctx: Ctx, area: str, player: str) -> str | None:
    """How a land army may cross ``area`` on its way (``own-ships``, ``allied-ships``,
    ``allied-land``), or None."""
    info = state["board"][area]
    kind = ctx.board[area]
    if kind.is_sea and info["house"] == player and info["units"]["ship"]:
        return "own-ships"
    if (kind.is_sea or kind.is_land) and info["house"] not in (None, player) and unit_count(info) \
            and _allied_transit(state, area, player, ships=kind.is_sea) is None:
        return "allied-ships" if kind.is_sea else "allied-land"
    return None


def _shortest(ctx: Ctx, state: Mapping[str, Any], player: str, path: list[str], out: MarchCheck) -> None:
    """Option ``passage_nearest = "shortest"`` (ruling T16): «на ближайшую» read as the nearest way,
    so a passage crosses no more areas than the shortest crossing to the same destination, under
    the same rules (own ships, then allies with a support order and consent, then the first area
    beyond them)."""
    start, end = path[0], path[-1]
    frontier: list[tuple[str, bool]] = [(start, False)]
    came: dict[tuple[str, bool], tuple[str, bool] | None] = {(start, False): None}
    while frontier:
        nxt: list[tuple[str, bool]] = []
        for here, allied_used in frontier:
            for n in ctx.board.neighbours(here):
                if n == end:
                    way = [end]
                    at: tuple[str, bool] | None = (here, allied_used)
                    while at is not None:
                        way.append(at[0])
                        at = came[at]
                    way.reverse()
                    if len(way) < len(path):
                        names_ru = " → ".join(ctx.board[a].name_ru for a in way)
                        names_en = " -> ".join(ctx.board[a].name_en for a in way)
                        out.problems.append((f"путь через союзников длиннее нужного; короче: {names_ru} (настройка "
                                             "passage_nearest = shortest)",
                                             f"the passage through allies is longer than needed; shorter: {names_en} "
                                             "(option passage_nearest = shortest)", ruling(16)))
                    return
                how = _transit(state, ctx, n, player)
                if how is None or (allied_used and how == "own-ships"):
                    continue
                key = (n, allied_used or how != "own-ships")
                if key not in came:
                    came[key] = (here, allied_used)
                    nxt.append(key)
        frontier = nxt


def _not_to_ally(state: Mapping[str, Any], ctx: Ctx, player: str, end: str, out: MarchCheck) -> None:
    """«Перейти на землю союзника нельзя, даже если он по каким-то причинам согласен»;
    «Высаживать войска на землю союзника нельзя»."""
    info = state["board"][end]
    holder = info["house"]
    if holder is not None and holder != player and allied(state, player, holder):
        out.problems.append((f"пройдя через союзника, нельзя остановиться в его области ({R(end)})",
                             f"after passing through an ally you cannot stop in the ally's area ({E(end)})",
                             rule(PASSAGE)))
    if holder == player and not ctx.options.passage_to_own:
        out.problems.append((f"пройдя через союзника, идут на нейтральную землю или к лорду вне союза, не в свою ({R(end)})",
                             f"after passing through an ally you go to a neutral land or a lord outside the alliance, "
                             f"not your own ({E(end)})", ruling(16)))
