"""The road map a viewer receives, drawn from that viewer's view and the events of the turn it
may see, framed by :mod:`voevoda.core.maps` (title, turn, whose map, a legend for every sign,
PNG with the shipped fonts): cities in their owners' colours (a circle for a small city, a
square for a large one, a hexagon for the ogres' mobile city on its road), the level inside,
ruins crossed out, floating cities ringed, the turn's battles marked and its attacks drawn as
arrows in the attacker's colour, and for a player what only it knows (its buildings, the
corruption it sees)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core import maps
from voevoda.core.ruleset import Event
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, Campaign
from voevoda.rulesets.steel_rose.campaign.orders import MOBILE_ID

COLOURS = {"empire": "#c0392b", "steel_rose": "#6f7f8a", "heaven": "#27ae60", "void_cult": "#7d3c98",
           "ogres": "#d35400"}
NOBODY = "#bdb6a6"
ROAD = "#8a7f66"
SKY = "#2e86c1"
MARGIN = 30.0


def _t(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def _square(x: float, y: float, r: float, fill: str, stroke: float, opacity: float, cid: str) -> str:
    return (f'<rect x="{x - r:.0f}" y="{y - r:.0f}" width="{2 * r:.0f}" height="{2 * r:.0f}" rx="3" fill="{fill}" '
            f'stroke="{maps.INK}" stroke-width="{stroke:g}" opacity="{opacity:g}" data-city="{cid}"/>')


def _circle(x: float, y: float, r: float, fill: str, stroke: float, opacity: float, cid: str) -> str:
    return (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.0f}" fill="{fill}" stroke="{maps.INK}" '
            f'stroke-width="{stroke:g}" opacity="{opacity:g}" data-city="{cid}"/>')


def _hexagon(x: float, y: float, r: float, fill: str, stroke: float) -> str:
    return (f'<polygon points="{maps.hex_points(x, y, r, flat=False)}" fill="{fill}" stroke="{maps.INK}" '
            f'stroke-width="{stroke:g}" data-city="{MOBILE_ID}"/>')


def map_svg(campaign: Campaign, view: Mapping[str, Any], lang: str = "ru", events: Sequence[Event] = (),
            turn: int | None = None) -> str:
    gmap = campaign.map
    cities: Mapping[str, Mapping[str, Any]] = view.get("cities", {})
    own = view.get("own_cities") or {}
    me = view.get("me")
    corruption: dict[str, int] = dict(view.get("corruption") or {})
    for intel in (view.get("own") or {}).get("intel", []):
        if intel.get("kind") == "corruption":
            corruption[str(intel["about"])] = int(intel["data"]["level"])
    fought = [e.data for e in events if e.kind == "battle_result"]
    # a burst where a battle was fought: not for an attack called off or ruins taken without a fight
    battles = {str(b["city"]) for b in fought if not b.get("walkover")} | \
        {str(b["city"]) for b in view.get("battles", []) if b.get("status") == "fought"}
    camp = (view.get("own") or {}).get("camp")

    def pos(cid: str) -> tuple[float, float]:
        if cid == MOBILE_ID:
            mobile = cities.get(MOBILE_ID, {})
            road = mobile.get("road") or []
            if len(road) == 2:
                (x1, y1), (x2, y2) = pos(road[0]), pos(road[1])
                return (x1 + x2) / 2, (y1 + y2) / 2
            return MARGIN, MARGIN
        c = gmap.cities[cid]
        return MARGIN + c.x, MARGIN + c.y

    body: list[str] = []
    for a, b in gmap.roads:
        gone = cities.get(a, {}).get("gone") or cities.get(b, {}).get("gone")
        (x1, y1), (x2, y2) = pos(a), pos(b)
        dash = ' stroke-dasharray="4 6" opacity="0.35"' if gone else ""
        body.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="{ROAD}" '
                    f'stroke-width="3"{dash}/>')
    def camp_pos() -> tuple[float, float]:
        """The cult's tent on its road, beside the mobile city when both stand there."""
        assert camp is not None
        (x1, y1), (x2, y2) = pos(camp[0]), pos(camp[1])
        mobile_road = (cities.get(MOBILE_ID) or {}).get("road")
        t = 0.3 if mobile_road and sorted(mobile_road) == sorted(camp) else 0.5
        return x1 + (x2 - x1) * t, y1 + (y2 - y1) * t

    segments: list[tuple[float, float, float, float]] = []
    for a, b in gmap.roads:
        (x1, y1), (x2, y2) = pos(a), pos(b)
        segments.append((x1, y1, x2, y2))
    for fight in fought:
        attacker, city = fight.get("attacker"), str(fight["city"])
        if attacker is None or city not in cities:
            continue
        source = _nearest_own(campaign, cities, str(attacker), city)
        if source is None and camp and attacker == me and city in camp:
            (x1, y1), (x2, y2) = camp_pos(), pos(city)
        elif source is None:
            continue
        else:
            (x1, y1), (x2, y2) = pos(source), pos(city)
        segments.append((x1, y1, x2, y2))
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        body.append(maps.arrow(x1 + dx * 24 / length, y1 + dy * 24 / length, x2 - dx * 26 / length,
                               y2 - dy * 26 / length, COLOURS.get(str(attacker), maps.INK)))
    obstacles: list[tuple[float, float, float, float]] = []  # boxes: cities, signs, labels placed
    for cid in gmap.cities:
        if cid in cities:
            x, y = pos(cid)
            r = 20.0 if cities[cid]["kind"] == "large" else 14.0
            obstacles.append((x - r - 2, y - r - 2, x + r + 2, y + r + 2))
            if cid in battles:
                obstacles.append((x + r * 0.8 - 9, y - r * 0.8 - 9, x + r * 0.8 + 9, y - r * 0.8 + 9))
            if cid in own and own[cid].get("buildings"):
                obstacles.append((x + r + 2, y - r - 8, x + r + 24, y - r + 6))  # ◆
            if corruption.get(cid):
                obstacles.append((x - r - 32, y - r - 8, x - r - 2, y - r + 6))  # ☠
    mobile_now = cities.get(MOBILE_ID)
    if mobile_now is not None and mobile_now.get("road") and not mobile_now.get("gone"):
        x, y = pos(MOBILE_ID)
        obstacles.append((x - 17, y - 17, x + 17, y + 17))
    if camp:
        x, y = camp_pos()
        obstacles.append((x - 12, y - 12, x + 12, y + 12))
    for cid in gmap.cities:
        c = cities.get(cid)
        if c is None:
            continue
        x, y = pos(cid)
        colour = COLOURS.get(str(c.get("owner")), NOBODY)
        opacity = 0.3 if c.get("gone") else 1.0
        stroke = 3.5 if cid in own else 1.5
        r = 20.0 if c["kind"] == "large" else 14.0
        if c.get("floating"):
            body.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r + 8:.0f}" fill="none" stroke="{SKY}" '
                        f'stroke-width="3" stroke-dasharray="3 3" data-floating="{cid}"/>')
        shape = _square if c["kind"] == "large" else _circle
        body.append(shape(x, y, r, colour, stroke, opacity, cid))
        body.append(maps.text(x, y + 5, "×" if c.get("ruins") else str(c["level"]), size=14, weight="bold",
                              anchor="middle", fill="#ffffff"))
        name = gmap.cities[cid].name_ru if lang == "ru" else gmap.cities[cid].name_en
        lines, anchor, box = place_label(name, x, y, r, segments, obstacles, gmap.width + 2 * MARGIN,
                                         gmap.height + 2 * MARGIN)
        obstacles.append(box)
        body.extend(maps.text(lx, ly, part, size=LABEL_SIZE, anchor=anchor, halo=True) for lx, ly, part in lines)
        if cid in own and own[cid].get("buildings"):
            body.append(maps.text(x + r + 4, y - r + 4, f"◆{len(own[cid]['buildings'])}", size=11, halo=True))
        if corruption.get(cid):
            body.append(maps.text(x - r - 4, y - r + 4, f"☠{corruption[cid]}", size=11, weight="bold",
                                  anchor="end", fill=COLOURS["void_cult"], halo=True))
        if cid in battles:
            body.append(maps.battle_mark(x + r * 0.8, y - r * 0.8, 8))
    mobile = cities.get(MOBILE_ID)
    if mobile is not None and mobile.get("road") and not mobile.get("gone"):
        x, y = pos(MOBILE_ID)
        body.append(_hexagon(x, y, 15, COLOURS["ogres"], 3.5 if me == "ogres" else 1.5))
        body.append(maps.text(x, y + 5, str(mobile["level"]), size=13, weight="bold", anchor="middle",
                              fill="#ffffff"))
        if MOBILE_ID in battles:
            body.append(maps.battle_mark(x + 12, y - 12, 8))
    if camp:
        x, y = camp_pos()
        body.append(_tent(x, y, 10, COLOURS["void_cult"]))
    shown = turn if turn is not None else int(view.get("turn", 1))
    phase = str(view.get("phase", ""))
    viewer = str(view.get("viewer", "public"))
    whose = {"public": _t(lang, "общая карта", "public map"), "gm": _t(lang, "карта ведущего", "GM's map")}.get(
        viewer, _t(lang, f"карта: {viewer}", f"{viewer}'s map"))
    # the map of a turn's orders step shows the battles of the turn before: say whose they are
    fought_turn = max((int(b.get("turn", shown)) for b in fought), default=shown)
    subtitle = (_t(lang, f"ход {shown}", f"turn {shown}") + (_t(lang, ", игра окончена", ", game over")
                                                              if phase == "over" else "") + f" · {whose}")
    if fought and fought_turn != shown:
        subtitle += _t(lang, f" · атаки и битвы хода {fought_turn}", f" · attacks and battles of turn {fought_turn}")
    title = gmap.name_ru if lang == "ru" else gmap.name_en
    return maps.framed("\n".join(body), gmap.width + 2 * MARGIN, gmap.height + 2 * MARGIN,
                       title=f"{_t(lang, 'Война Стальной Розы', 'War of the Steel Rose')}: {title}",
                       subtitle=subtitle, legend=legend(campaign, view, lang, me,
                                                        fought_turn if fought and fought_turn != shown else None),
                       legend_title=_t(lang, "Условные обозначения", "Legend"))


def _tent(x: float, y: float, r: float, fill: str) -> str:
    """The Void Cult's camp (ruling C53): a tent on its road."""
    return (f'<polygon points="{x:.1f},{y - r:.1f} {x + r:.1f},{y + r * 0.8:.1f} {x - r:.1f},{y + r * 0.8:.1f}" '
            f'fill="{fill}" stroke="{maps.INK}" stroke-width="1.5" data-camp="1"/>')


LABEL_SIZE = 13
CHAR_WIDTH = 0.62 * LABEL_SIZE
"""About the width of a letter of the map's font (DejaVu Sans) at the labels' size."""


def _crosses(seg: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether the segment passes through the box (Liang–Barsky clipping)."""
    x1, y1, x2, y2 = seg
    left, top, right, bottom = box
    dx, dy = x2 - x1, y2 - y1
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_label(name: str, x: float, y: float, r: float, segments: Sequence[tuple[float, float, float, float]],
                obstacles: Sequence[tuple[float, float, float, float]], width_of_map: float = math.inf,
                height_of_map: float = math.inf) -> tuple[list[tuple[float, float, str]], str,
                                                          tuple[float, float, float, float]]:
    """Where a city's name goes: below the city unless a road, a city, a sign or another name is
    there, else above, to the right, to the left or at a corner, on one line or (a name of two
    words) on two — the first place nothing crosses and the map's edge does not cut, or the one
    the fewest things cross. Returns the lines (x, y, text), their anchor and the name's box."""
    words = name.split(" ")
    layouts = [[name]]
    if len(words) > 1:
        cut = max(range(1, len(words)), key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
        layouts.append([" ".join(words[:cut]), " ".join(words[cut:])])
    gap, line = 6.0, LABEL_SIZE + 2
    best: tuple[int, int, tuple[list[tuple[float, float, str]], str, tuple[float, float, float, float]]] | None = None
    order = 0
    for lines in layouts:
        width = CHAR_WIDTH * max(len(t) for t in lines)
        # the first line's baseline for each place around the city
        places = [(x, y + r + 16, "middle"), (x, y - r - 7 - line * (len(lines) - 1), "middle"),
                  (x + r + gap, y + 5 - line * (len(lines) - 1) / 2, "start"),
                  (x - r - gap, y + 5 - line * (len(lines) - 1) / 2, "end"),
                  (x + r * 0.7 + gap, y + r + 14, "start"), (x - r * 0.7 - gap, y + r + 14, "end"),
                  (x + r * 0.7 + gap, y - r - 5 - line * (len(lines) - 1), "start"),
                  (x - r * 0.7 - gap, y - r - 5 - line * (len(lines) - 1), "end"),
                  (x, y + r + 30, "middle"), (x, y - r - 21 - line * (len(lines) - 1), "middle")]
        for lx, ly, anchor in places:
            left = lx - width / 2 if anchor == "middle" else lx if anchor == "start" else lx - width
            # from the cap height of the first line to the descenders of the last
            box = (left - 2, ly - LABEL_SIZE + 1, left + width + 2, ly + 4 + line * (len(lines) - 1))
            hits = sum(1 for seg in segments if _crosses(seg, box)) + sum(1 for o in obstacles if _overlaps(o, box))
            if box[0] < 0 or box[1] < 0 or box[2] > width_of_map or box[3] > height_of_map:
                hits += 100  # cut by the map's edge
            placed = [(lx, ly + i * line, t) for i, t in enumerate(lines)]
            if best is None or (hits, order) < best[:2]:
                best = (hits, order, (placed, anchor, box))
            if hits == 0:
                return best[2]
            order += 1
    assert best is not None
    return best[2]


def _nearest_own(campaign: Campaign, cities: Mapping[str, Mapping[str, Any]], fid: str, target: str) -> str | None:
    """A city of ``fid`` joined by road to ``target`` (where its attack came from), if any."""
    if target == MOBILE_ID:
        road = cities.get(MOBILE_ID, {}).get("road") or []
        return next((c for c in road if cities.get(c, {}).get("owner") == fid), None)
    for cid in campaign.neighbours.get(target, ()):
        if cities.get(cid, {}).get("owner") == fid:
            return cid
    mobile = cities.get(MOBILE_ID, {})
    if fid == "ogres" and target in (mobile.get("road") or []):
        return MOBILE_ID
    return None


def legend(campaign: Campaign, view: Mapping[str, Any], lang: str, me: Any,
           fought_turn: int | None = None) -> list[maps.LegendEntry]:
    """The signs of the map; ``fought_turn`` when the battles drawn are of an earlier turn."""
    when_ru = f"хода {fought_turn}" if fought_turn else "этого хода"
    when_en = f"of turn {fought_turn}" if fought_turn else "this turn"
    entries: list[maps.LegendEntry] = []
    factions = view.get("factions", {})
    for fid in FACTIONS:
        if fid not in factions:
            continue
        f = campaign.faction(fid)
        name = f.name_ru if lang == "ru" else f.name_en
        player = factions[fid].get("player")
        entries.append(maps.LegendEntry(_circle(12, 10, 8, COLOURS[fid], 1, 1, ""),
                                        f"{name} ({player})" if player else name))
    entries.append(maps.LegendEntry(_circle(12, 10, 8, NOBODY, 1, 1, ""), _t(lang, "ничьи руины", "nobody's ruins")))
    entries.extend([
        maps.LegendEntry(_circle(12, 10, 8, "#ffffff", 1.5, 1, "") + maps.text(12, 14, "1", size=10, anchor="middle"),
                         _t(lang, "малый город (цифра — уровень)", "small city (the number is its level)")),
        maps.LegendEntry(_square(12, 10, 8, "#ffffff", 1.5, 1, "") + maps.text(12, 14, "2", size=10, anchor="middle"),
                         _t(lang, "большой город", "large city")),
        maps.LegendEntry(_hexagon(12, 10, 9, COLOURS["ogres"], 1.5),
                         _t(lang, "передвижной город огров (на дороге)", "the ogres' mobile city (on a road)")),
        maps.LegendEntry(maps.legend_symbol_text("×"), _t(lang, "руины", "ruins")),
        maps.LegendEntry(f'<circle cx="12" cy="10" r="8" fill="none" stroke="{SKY}" stroke-width="2.5" '
                         'stroke-dasharray="3 3"/>', _t(lang, "парит в небе (захватить нельзя)",
                                                        "floating in the sky (cannot be taken)")),
        maps.LegendEntry(f'<line x1="0" y1="10" x2="24" y2="10" stroke="{ROAD}" stroke-width="3"/>',
                         _t(lang, "дорога", "road")),
        maps.LegendEntry(maps.legend_symbol_arrow(maps.INK), _t(lang, f"атака {when_ru} (цвет атакующего)",
                                                                f"an attack {when_en} (the attacker's colour)")),
        maps.LegendEntry(maps.legend_symbol_battle(), _t(lang, f"битва {when_ru}", f"a battle {when_en}")),
    ])
    cities = view.get("cities", {})
    if any(c.get("gone") for cid, c in cities.items() if cid != MOBILE_ID):
        # the cities of a winner who left the map («прямиком в ад», «поднимаются в небо»), drawn faded
        entries.append(maps.LegendEntry(_circle(12, 10, 8, NOBODY, 1.5, 0.3, ""),
                                        _t(lang, "бледные: города, ушедшие с карты с победителем",
                                           "faded: cities gone from the map with their winner")))
    if (view.get("own") or {}).get("camp"):
        entries.append(maps.LegendEntry(_tent(12, 10, 8, COLOURS["void_cult"]),
                                        _t(lang, "ваш лагерь на дороге", "your camp on the road")))
    if me:
        entries.append(maps.LegendEntry(_circle(12, 10, 8, "#ffffff", 3.5, 1, ""),
                                        _t(lang, "ваши города (толстая обводка)", "your cities (thick border)")))
        entries.append(maps.LegendEntry(maps.legend_symbol_text("◆"),
                                        _t(lang, "ваши постройки (число)", "your buildings (count)")))
        entries.append(maps.LegendEntry(maps.legend_symbol_text("☠", COLOURS["void_cult"]),
                                        _t(lang, "известная вам порча (из 20)", "corruption known to you (of 20)")))
    else:
        entries.append(maps.LegendEntry(maps.legend_symbol_text("?"),
                                        _t(lang, "армии, постройки и казна не публичны",
                                           "armies, buildings and treasuries are not public")))
    return entries
