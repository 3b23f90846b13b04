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


def render(view: Mapping[str, Any], rules: Rules, lang: str = "ru", events: Sequence[Event] = ()) -> str:
    ru = lang == "ru"
    m = view["map"]
    width, height = int(m["width"]), int(m["height"])
    kinds: Mapping[str, str] = view.get("kinds", {})
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
    body = []
    for x in range(width):
        body.append(maps.text(AXIS + x * CELL + CELL / 2, AXIS - 5, column_name(x), size=9, anchor="middle",
                              fill="#5a5040"))
    for y in range(height):
        body.append(maps.text(AXIS - 3, AXIS + y * CELL + CELL / 2 + 3, str(y + 1), size=9, anchor="end",
                              fill="#5a5040"))
    terrain_rows = m["terrain"]
    for y in range(height):
        for x in range(width):
            t = tile_name(x, y)
            px, py = AXIS + x * CELL, AXIS + y * CELL
            closed = terrain_rows[y][x] == "?"
            kind = "closed" if closed else str(kinds.get(t, "land"))
            drawn_kinds.add(kind)
            body.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{TERRAIN_FILL[kind]}" '
                        f'stroke="#cfc6ad" stroke-width="0.5" data-tile="{t}" data-terrain="{kind}"/>')
            if closed:
                body.append(maps.text(px + CELL / 2, py + CELL / 2 + 4, "?", size=11, anchor="middle", fill="#9a9a9a"))
                continue
            info = tiles.get(t, {})
            owner = info.get("owner")
            if owner:
                color = escape(str(countries.get(owner, {}).get("color", "#888888")))
                body.append(f'<rect x="{px + 1.5}" y="{py + 1.5}" width="{CELL - 3}" height="{CELL - 3}" fill="{color}" '
                            f'fill-opacity="0.5" stroke="{color}" stroke-width="1.5" data-owner="{escape(str(owner))}"/>')
            if info.get("city") is not None:
                cities = True
                level = int(info["city"])
                body.append(f'<circle cx="{px + CELL / 2}" cy="{py + CELL / 2}" r="7" fill="#ffffff" stroke="#222" '
                            'stroke-width="1.3"/>')
                body.append(maps.text(px + CELL / 2, py + CELL / 2 + 3.5, str(level + 1), size=9, weight="bold",
                                      anchor="middle"))
            building = info.get("building")
            if building:
                drawn_buildings.add(str(building))
                letter = BUILDING_LETTERS.get(str(building), ("?", "?"))[0 if ru else 1]
                body.append(maps.text(px + CELL - 2, py + CELL - 2, letter, size=9, weight="bold", anchor="end",
                                      halo=True))
            res = deposits.get(t)
            if res is not None and res in rules.resources:
                drawn_resources.add(res)
                letter = rules.resources[res].letter if ru else rules.resources[res].name_en[:2]
                body.append(maps.text(px + 2, py + 9, letter, size=8, fill="#5b2c00", halo=True,
                                      extra=f' data-tile="{t}" data-resource="{res}"'))
            if info.get("slaves"):
                slaves = True
                body.append(maps.text(px + 2, py + CELL - 2, "Р" if ru else "S", size=8, fill="#7b241c", halo=True))
            if t in taken:
                body.append(maps.battle_mark(px + CELL - 6, py + 6, 5))
            elif t in settled:
                body.append(f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                            f'stroke="{SETTLED}" stroke-width="1.5" stroke-dasharray="3 2"/>')
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
