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
from voevoda.rulesets.new_worlds import labels
from voevoda.rulesets.new_worlds.mapdata import column_name, split_tile, tile_name
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
BUILDING_NAMES = {"port": ("порт", "port"), "university": ("университет", "university"), "factory": ("завод", "factory")}
BUILDING_FILL = {"port": "#1f4e79", "university": "#6c3483", "factory": "#3d3d3d"}
SETTLED = "#2e7d32"
SLAVES = "#7b241c"
RESOURCE_INK = "#5b2c00"
# Where each mark of a tile stands, from its top left corner (docs/new_worlds.md «The map»): the
# resource's label top left, a building's symbol top right, the city's circle below the middle,
# slaves bottom left, a battle bottom right — so that no two of them meet (tests measure it)
RESOURCE_AT = (1.5, 8.5, 7.5)          # x, baseline, size
BUILDING_BOX = (16.5, 2.5, 6.0)        # x, y, side
CITY_AT = (12.0, 16.5, 5.5)            # centre x, centre y, radius
SLAVES_AT = (3.5, 20.0, 2.2)
BATTLE_AT = (20.8, 19.8, 3.2)
NAME_SIZES = (11.0, 9.5, 8.0)
SPOTS = 60


def building_symbol(kind: str, x: float, y: float, side: float = BUILDING_BOX[2]) -> str:
    """A building as a shape, never a letter a reader could take for a column («P», «У»): a
    port a square, a university a triangle, a factory a diamond."""
    fill = BUILDING_FILL.get(kind, "#3d3d3d")
    if kind == "university":
        points = f"{x + side / 2:g},{y:g} {x + side:g},{y + side:g} {x:g},{y + side:g}"
    elif kind == "factory":
        points = f"{x + side / 2:g},{y:g} {x + side:g},{y + side / 2:g} {x + side / 2:g},{y + side:g} {x:g},{y + side / 2:g}"
    else:
        points = f"{x:g},{y:g} {x + side:g},{y:g} {x + side:g},{y + side:g} {x:g},{y + side:g}"
    return (f'<polygon class="building" points="{points}" fill="{fill}" stroke="#ffffff" stroke-width="0.8" '
            f'data-building="{kind}"/>')


def _burst(x: float, y: float, size: float) -> str:
    """The core's battle burst (:func:`voevoda.core.maps.battle_mark`) at a tile's corner, its
    white edge thinned so that the small mark stays red."""
    return maps.battle_mark(x, y, size).replace('stroke-width="1"', 'stroke-width="0.5"')


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
    frames: list[str] = []
    boxes = labels.BoxIndex(CELL)      # every mark drawn, for the country names to keep clear of
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
                boxes.add(labels.text_box(px + CELL / 2, py + CELL / 2 + 4, "?", 11, anchor="middle"))
                continue
            info = tiles.get(t, {})
            if info.get("city") is not None:
                cities = True
                cx, cy, r = CITY_AT
                marks.append(f'<circle cx="{px + cx:g}" cy="{py + cy:g}" r="{r:g}" fill="#ffffff" stroke="#222" '
                             'stroke-width="1.2"/>')
                marks.append(maps.text(px + cx, py + cy + 2.7, str(int(info["city"]) + 1), size=7.5, weight="bold",
                                       anchor="middle"))
                boxes.add(labels.Box(px + cx - r, py + cy - r, px + cx + r, py + cy + r))
            building = info.get("building")
            if building:
                drawn_buildings.add(str(building))
                bx, by, side = BUILDING_BOX
                marks.append(building_symbol(str(building), px + bx, py + by))
                boxes.add(labels.Box(px + bx, py + by, px + bx + side, py + by + side))
            res = deposits.get(t)
            if res is not None and res in rules.resources:
                drawn_resources.add(res)
                label = rules.resources[res].label(lang)
                rx, ry, size = RESOURCE_AT
                marks.append(maps.text(px + rx, py + ry, label, size=size, fill=RESOURCE_INK, halo=True,
                                       extra=f' data-tile="{t}" data-resource="{res}"'))
                boxes.add(labels.text_box(px + rx, py + ry, label, size))
            if info.get("slaves"):
                slaves = True
                sx, sy, r = SLAVES_AT
                marks.append(f'<circle class="slaves" cx="{px + sx:g}" cy="{py + sy:g}" r="{r:g}" fill="{SLAVES}" '
                             'stroke="#ffffff" stroke-width="0.8"/>')
                boxes.add(labels.Box(px + sx - r, py + sy - r, px + sx + r, py + sy + r))
                if int(info["slaves"]) > 1:
                    marks.append(maps.text(px + sx, py + sy - r - 1.5, str(info["slaves"]), size=6, weight="bold",
                                           fill=SLAVES, anchor="middle", halo=True))
                    boxes.add(labels.text_box(px + sx, py + sy - r - 1.5, str(info["slaves"]), 6, bold=True,
                                              anchor="middle"))
            if t in taken:
                bx, by, size = BATTLE_AT
                marks.append(_burst(px + bx, py + by, size))
                boxes.add(labels.Box(px + bx - size, py + by - size, px + bx + size, py + by + size))
            elif t in settled:
                # a frame, under the tile's labels (their halo keeps them readable over it)
                frames.append(f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                              f'stroke="{SETTLED}" stroke-width="1.5" stroke-dasharray="3 2"/>')
    grid = [f"M{AXIS + x * CELL} {AXIS}v{height * CELL}" for x in range(width + 1)]
    grid += [f"M{AXIS} {AXIS + y * CELL}h{width * CELL}" for y in range(height + 1)]
    body.append(f'<path d="{"".join(grid)}" stroke="#cfc6ad" stroke-width="0.5" fill="none"/>')
    if closed_marks:
        body.append('<g font-size="11" text-anchor="middle" fill="#9a9a9a">' + "".join(closed_marks) + "</g>")
    body.extend(owner_runs)
    body.extend(frames)
    body.extend(marks)
    body.extend(country_names(tiles, names, width, height, terrain_rows, boxes))
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
            legend.append(maps.LegendEntry(building_symbol(kind, 5, 3, 14), BUILDING_NAMES[kind][0 if ru else 1]))
    for res in sorted(drawn_resources, key=list(rules.resources).index):
        spec = rules.resources[res]
        legend.append(maps.LegendEntry(maps.legend_symbol_text(spec.label(lang), color=RESOURCE_INK, size=10),
                                       spec.name(lang)))
    if slaves:
        legend.append(maps.LegendEntry(f'<circle cx="12" cy="10" r="4" fill="{SLAVES}" stroke="#ffffff" stroke-width="1"/>',
                                       "рабы (число — сколько их)" if ru else "slaves (the number: how many)"))
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


def country_names(tiles: Mapping[str, Any], names: Mapping[str, str], width: int, height: int,
                  terrain: Sequence[str], boxes: labels.BoxIndex) -> list[str]:
    """Each country's name over its land, where its box meets no other label: over its own
    tiles first, near the middle of its largest piece of land, then a little beyond; smaller
    sizes when the full size finds no room; a name no place fits is left to the legend."""
    land: dict[str, set[tuple[int, int]]] = {}
    owner_at: dict[tuple[int, int], str] = {}
    for t, info in tiles.items():
        owner = info.get("owner")
        if owner:
            x, y = split_tile(t)
            land.setdefault(str(owner), set()).add((x, y))
            owner_at[(x, y)] = str(owner)
    frame = labels.Box(AXIS, AXIS, AXIS + width * CELL, AXIS + height * CELL)
    owned_rows = _prefix_rows(set(owner_at), width, height)
    out: list[str] = []
    # the smallest countries first: they have the fewest places to go
    for cid in sorted(land, key=lambda c: (len(land[c]), c)):
        name = names.get(cid, cid)
        piece = _largest_piece(land[cid])
        mid_x = sum(x for x, _ in piece) / len(piece)
        mid_y = sum(y for _, y in piece) / len(piece)
        reach = 0 if len(piece) > 12 else 2
        around = {(x + dx, y + dy) for x, y in piece for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                  if 0 <= x + dx < width and 0 <= y + dy < height and terrain[y + dy][x + dx] != "?"}
        # the places nearest the middle: a large country's name fits there, and the search stays short
        spots = sorted(around, key=lambda t: ((t[0] - mid_x) ** 2 + (t[1] - mid_y) ** 2, t))[:SPOTS]
        own_rows = _prefix_rows({c for c, who in owner_at.items() if who == cid}, width, height)
        placed = None
        bold = labels.font(True)
        for size in NAME_SIZES:
            half_w = bold.width(name, size) / 2
            up, down = bold.ink(name, size)
            half_h = (up + down) / 2
            best: tuple[tuple[bool, int, float, float], float, float, labels.Box] | None = None
            for x, y in spots:
                for half in (0.0, 0.5):
                    for quarter in (1, 2, 3, 4):
                        cx = AXIS + (x + 0.5 + half) * CELL
                        cy = AXIS + y * CELL + quarter * CELL / 4
                        box = labels.Box(cx - half_w, cy - half_h, cx + half_w, cy + half_h)
                        if not box.inside(frame) or boxes.meets(box, margin=1.0):
                            continue
                        mine, owned = _over(box, own_rows), _over(box, owned_rows)
                        others = owned - mine
                        far = (cx - (AXIS + (mid_x + 0.5) * CELL)) ** 2 + (cy - (AXIS + (mid_y + 0.5) * CELL)) ** 2
                        whole = 4 * half_w * half_h
                        score = (others > 0, -round(8 * mine / whole), others, far)
                        if best is None or score < best[0]:
                            best = (score, cx, cy, box)
                # the spots come nearest the middle first: a place wholly over one's own land
                # found here is as good as any further out
                if best is not None and best[0][:2] == (False, -8):
                    break
            if best is not None:
                _, cx, cy, box = best
                # the box's middle at (cx, cy): the baseline below it by half the ink's height
                placed = (size, cx, cy + (up - down) / 2, box)
                break
        if placed is None:
            continue
        size, cx, baseline, box = placed
        boxes.add(box)
        out.append(maps.text(cx, baseline, name, size=size, weight="bold", anchor="middle", halo=True,
                             extra=f' class="country-name" data-country="{escape(cid)}"'))
    return out


def _prefix_rows(cells: set[tuple[int, int]], width: int, height: int) -> list[list[int]]:
    """For each row, how many of the ``cells`` lie left of each column (a prefix sum)."""
    rows = []
    for y in range(height):
        acc = [0]
        for x in range(width):
            acc.append(acc[-1] + ((x, y) in cells))
        rows.append(acc)
    return rows


def _over(box: labels.Box, rows: list[list[int]]) -> float:
    """The area of ``box`` over the cells counted by ``rows`` (see _prefix_rows)."""
    width = len(rows[0]) - 1

    def along(acc: list[int], u: float) -> float:
        """Cells of the row from its left edge to ``u`` (in columns), a part one in part."""
        u = min(max(u, 0.0), float(width))
        whole = int(u)
        return acc[whole] + ((u - whole) * (acc[whole + 1] - acc[whole]) if whole < width else 0.0)

    total = 0.0
    u0, u1 = (box.x0 - AXIS) / CELL, (box.x1 - AXIS) / CELL
    for y in range(max(0, int((box.y0 - AXIS) // CELL)), min(len(rows), int((box.y1 - AXIS) // CELL) + 1)):
        top = AXIS + y * CELL
        h = min(box.y1, top + CELL) - max(box.y0, top)
        if h > 0:
            total += h * CELL * (along(rows[y], u1) - along(rows[y], u0))
    return total


def _largest_piece(tiles: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The largest group of the tiles touching by side or corner."""
    left = set(tiles)
    best: list[tuple[int, int]] = []
    while left:
        start = min(left)
        left.discard(start)
        piece, stack = [start], [start]
        while stack:
            x, y = stack.pop()
            for n in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
                if n in left:
                    left.discard(n)
                    piece.append(n)
                    stack.append(n)
        if len(piece) > len(best):
            best = piece
    return best
