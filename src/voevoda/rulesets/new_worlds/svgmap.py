"""The map a viewer receives, drawn from that viewer's view and the events of the last turn
it may see, nothing else: terrain, owners in their colours with a border, cities with their
bonus, ports, universities and factories, the resources that viewer may see, slaves, the
closed parts of the map as unknown tiles, and the last turn's captures (a battle mark) and
settling; framed by :mod:`voevoda.core.maps` with the title, the turn and a legend of every
symbol drawn (docs/maps.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from voevoda.core import maps
from voevoda.core.ruleset import Event
from voevoda.rulesets.new_worlds.mapdata import column_name, tile_name
from voevoda.rulesets.new_worlds.rules import Rules
from voevoda.rulesets.new_worlds.views import kinds_of

CELL = 24
AXIS = 18
TERRAIN_FILL = {"land": "#eadfc2", "mountain": "#a89a7c", "sea": "#a8cde6", "ocean": "#6d9fc6", "closed": "#3b3b3b"}
TERRAIN_NAMES = {
    "land": ("суша", "land"), "mountain": ("большие горы (владение де-юре)", "large mountains (de jure)"),
    "sea": ("прибрежное море", "coastal sea"), "ocean": ("океан", "ocean"),
    "closed": ("закрытая часть карты", "a closed part of the map"),
}
BUILDING_LETTERS = {"port": ("П", "P"), "university": ("У", "U"), "factory": ("З", "F")}
BUILDING_NAMES = {"port": ("порт", "port"), "university": ("университет", "university"), "factory": ("завод", "factory")}
SETTLED = "#2e7d32"


def _square(fill: str, opacity: float = 1.0, stroke: str = "#8a7f66") -> str:
    return (f'<rect x="3" y="1" width="18" height="18" fill="{fill}" fill-opacity="{opacity:g}" '
            f'stroke="{stroke}" stroke-width="1.2"/>')


def _runs(row: list[str]) -> list[tuple[str, int, int]]:
    """(value, first index, index after the last) of each run of equal values in ``row``."""
    out: list[tuple[str, int, int]] = []
    start = 0
    for i in range(1, len(row) + 1):
        if i == len(row) or row[i] != row[start]:
            out.append((row[start], start, i))
            start = i
    return out


def render(view: Mapping[str, Any], rules: Rules, lang: str = "ru", events: Sequence[Event] = ()) -> str:
    ru = lang == "ru"
    m = view["map"]
    width, height = int(m["width"]), int(m["height"])
    kinds = kinds_of(view)
    tiles: Mapping[str, Any] = view.get("tiles", {})
    deposits: Mapping[str, str] = view.get("deposits", {})
    countries: Mapping[str, Any] = view.get("countries", {})
    names = {cid: (c.get("name_en") if not ru and c.get("name_en") else c["name"]) for cid, c in countries.items()}
    taken = {str(t) for e in events if e.kind == "battle" for t in e.data.get("taken", [])}
    settled = {str(t) for e in events if e.kind == "colonized" for t in e.data.get("tiles", [])}
    drawn_kinds: set[str] = set()
    drawn_buildings: set[str] = set()
    drawn_resources: set[str] = set()
    cities = slaves = False
    body = ['<g font-size="9" text-anchor="middle" fill="#5a5040">']
    body.extend(f'<text x="{AXIS + x * CELL + CELL / 2:g}" y="{AXIS - 5}">{column_name(x)}</text>' for x in range(width))
    body.append('</g><g font-size="9" text-anchor="end" fill="#5a5040">')
    body.extend(f'<text x="{AXIS - 3}" y="{AXIS + y * CELL + CELL / 2 + 3:g}">{y + 1}</text>' for y in range(height))
    body.append("</g>")
    terrain_rows = m["terrain"]
    closed_marks: list[str] = []
    owner_runs: list[str] = []
    marks: list[str] = []
    for y in range(height):
        py = AXIS + y * CELL
        # terrain and owners in runs of equal tiles along the row: a few dozen shapes a row, not
        # one per tile (the map of a 40 × 28 board stays small enough to send and to render)
        for kind, start, end in _runs([("closed" if terrain_rows[y][x] == "?" else str(kinds.get(tile_name(x, y), "land")))
                                       for x in range(width)]):
            drawn_kinds.add(kind)
            body.append(f'<rect x="{AXIS + start * CELL}" y="{py}" width="{(end - start) * CELL}" height="{CELL}" '
                        f'fill="{TERRAIN_FILL[kind]}" data-tiles="{tile_name(start, y)}:{tile_name(end - 1, y)}" '
                        f'data-terrain="{kind}"/>')
        row_owners = [str(tiles.get(tile_name(x, y), {}).get("owner") or "") for x in range(width)]
        for owner, start, end in _runs(row_owners):
            if not owner:
                continue
            color = escape(str(countries.get(owner, {}).get("color", "#888888")))
            owner_runs.append(f'<rect x="{AXIS + start * CELL + 1.5:g}" y="{py + 1.5:g}" width="{(end - start) * CELL - 3}" '
                              f'height="{CELL - 3}" fill="{color}" fill-opacity="0.6" stroke="{color}" stroke-width="1.5" '
                              f'data-owner="{escape(owner)}"/>')
        for x in range(width):
            t = tile_name(x, y)
            px = AXIS + x * CELL
            if terrain_rows[y][x] == "?":
                closed_marks.append(f'<text x="{px + CELL / 2:g}" y="{py + CELL / 2 + 4:g}">?</text>')
                continue
            info = tiles.get(t, {})
            if info.get("city") is not None:
                cities = True
                level = int(info["city"])
                marks.append(f'<circle cx="{px + CELL / 2:g}" cy="{py + CELL / 2:g}" r="7" fill="#ffffff" stroke="#222" '
                             'stroke-width="1.3"/>')
                marks.append(maps.text(px + CELL / 2, py + CELL / 2 + 3.5, str(level + 1), size=9, weight="bold",
                                       anchor="middle"))
            building = info.get("building")
            if building:
                drawn_buildings.add(str(building))
                letter = BUILDING_LETTERS.get(str(building), ("?", "?"))[0 if ru else 1]
                # beside a city's circle, in the top right corner; else in the bottom right
                letter_y = py + 9 if info.get("city") is not None else py + CELL - 2
                marks.append(maps.text(px + CELL - 2, letter_y, letter, size=9, weight="bold", anchor="end",
                                       halo=True))
            res = deposits.get(t)
            if res is not None and res in rules.resources:
                drawn_resources.add(res)
                letter = rules.resources[res].letter if ru else rules.resources[res].name_en[:2]
                marks.append(maps.text(px + 2, py + 9, letter, size=8, fill="#5b2c00", halo=True,
                                       extra=f' data-tile="{t}" data-resource="{res}"'))
            if info.get("slaves"):
                slaves = True
                marks.append(maps.text(px + 2, py + CELL - 2, "Р" if ru else "S", size=8, fill="#7b241c", halo=True))
            if t in taken:
                marks.append(maps.battle_mark(px + CELL - 6, py + 6, 5))
            elif t in settled:
                marks.append(f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                             f'stroke="{SETTLED}" stroke-width="1.5" stroke-dasharray="3 2"/>')
    grid = [f"M{AXIS + x * CELL} {AXIS}v{height * CELL}" for x in range(width + 1)]
    grid += [f"M{AXIS} {AXIS + y * CELL}h{width * CELL}" for y in range(height + 1)]
    body.append(f'<path d="{"".join(grid)}" stroke="#cfc6ad" stroke-width="0.5" fill="none"/>')
    if closed_marks:
        body.append('<g font-size="11" text-anchor="middle" fill="#9a9a9a">' + "".join(closed_marks) + "</g>")
    body.extend(owner_runs)
    body.extend(marks)
    legend: list[maps.LegendEntry] = []
    for kind in ("land", "mountain", "sea", "ocean", "closed"):
        if kind in drawn_kinds:
            legend.append(maps.LegendEntry(_square(TERRAIN_FILL[kind]), TERRAIN_NAMES[kind][0 if ru else 1]))
    if cities:
        legend.append(maps.LegendEntry('<circle cx="12" cy="10" r="7" fill="#ffffff" stroke="#222" stroke-width="1.3"/>'
                                       + maps.text(12, 13.5, "2", size=9, weight="bold", anchor="middle"),
                                       "город (число — его бонус к роллу)" if ru else "city (the number: its roll bonus)"))
    for kind in ("port", "university", "factory"):
        if kind in drawn_buildings:
            letter = BUILDING_LETTERS[kind][0 if ru else 1]
            legend.append(maps.LegendEntry(maps.legend_symbol_text(letter), BUILDING_NAMES[kind][0 if ru else 1]))
    for res in sorted(drawn_resources, key=list(rules.resources).index):
        spec = rules.resources[res]
        letter = spec.letter if ru else spec.name_en[:2]
        legend.append(maps.LegendEntry(maps.legend_symbol_text(letter, color="#5b2c00", size=10), spec.name(lang)))
    if slaves:
        legend.append(maps.LegendEntry(maps.legend_symbol_text("Р" if ru else "S", color="#7b241c"),
                                       "рабы" if ru else "slaves"))
    if taken:
        legend.append(maps.LegendEntry(maps.legend_symbol_battle(),
                                       "взято в бою в прошлый ход" if ru else "taken in battle last turn"))
    if settled:
        legend.append(maps.LegendEntry(f'<rect x="4" y="2" width="16" height="16" fill="none" stroke="{SETTLED}" '
                                       'stroke-width="1.5" stroke-dasharray="3 2"/>',
                                       "занято в прошлый ход" if ru else "settled last turn"))
    owners = sorted({str(v["owner"]) for v in tiles.values() if v.get("owner")})
    for cid in owners:
        color = escape(str(countries.get(cid, {}).get("color", "#888888")))
        legend.append(maps.LegendEntry(_square(color, 0.6, color), names.get(cid, cid)))
    title = m.get("title_ru" if ru else "title_en") or m.get("name", "")
    try:
        epoch_name = rules.epoch(str(view.get("epoch", ""))).name(lang)
    except KeyError:
        epoch_name = str(view.get("epoch", ""))
    viewer = str(view.get("viewer", "public"))
    whose = {"gm": ("ведущий", "game master"), "public": ("все", "public")}.get(viewer, (viewer, viewer))
    subtitle = (f"ход {view['turn']}, {epoch_name}; карта: {whose[0]}" if ru
                else f"turn {view['turn']}, {epoch_name}; map for: {whose[1]}")
    return maps.framed("\n".join(body), AXIS + width * CELL + 4, AXIS + height * CELL + 4, title=title,
                       subtitle=subtitle, legend=legend,
                       legend_title="Условные обозначения" if ru else "Legend")
