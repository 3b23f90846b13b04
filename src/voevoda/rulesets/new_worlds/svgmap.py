"""The map a viewer receives, as SVG, drawn from that viewer's view alone: terrain, owners in
their colours with a border, cities with their upgrades, ports, universities and factories,
the resources that viewer may see, the closed parts of the map as dark unknown tiles, and a
legend for every symbol."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from voevoda.rulesets.new_worlds.mapdata import column_name, tile_name
from voevoda.rulesets.new_worlds.rules import Rules

CELL = 22
MARGIN = 24
TERRAIN_FILL = {"land": "#eadfc2", "mountain": "#a89a7c", "sea": "#a8cde6", "ocean": "#6d9fc6", "closed": "#3b3b3b"}
TERRAIN_NAMES = {
    "land": ("суша", "land"), "mountain": ("большие горы (де-юре)", "large mountains (de jure)"),
    "sea": ("прибрежное море", "coastal sea"), "ocean": ("океан", "ocean"),
    "closed": ("закрытая часть карты", "closed part of the map"),
}
BUILDING_LETTERS = {"port": ("П", "P"), "university": ("У", "U"), "factory": ("З", "F")}
BUILDING_NAMES = {"port": ("порт", "port"), "university": ("университет", "university"), "factory": ("завод", "factory")}


def render(view: Mapping[str, Any], rules: Rules, lang: str = "ru") -> str:
    ru = lang == "ru"
    m = view["map"]
    width, height = int(m["width"]), int(m["height"])
    kinds: Mapping[str, str] = view.get("kinds", {})
    tiles: Mapping[str, Any] = view.get("tiles", {})
    deposits: Mapping[str, str] = view.get("deposits", {})
    countries: Mapping[str, Any] = view.get("countries", {})
    names = {cid: (c.get("name_en") if not ru and c.get("name_en") else c["name"]) for cid, c in countries.items()}
    map_w = MARGIN + width * CELL + 8
    map_h = MARGIN + height * CELL + 8
    owners = sorted({str(v["owner"]) for v in tiles.values() if v.get("owner")})
    legend_rows = 3 + (len(owners) + 2) // 3
    total_h = map_h + 18 * legend_rows + 30
    total_w = max(map_w, 560)
    title = m.get("title_ru" if ru else "title_en") or m.get("name", "")
    epoch = view.get("epoch", "")
    try:
        epoch_name = rules.epoch(str(epoch)).name(lang)
    except KeyError:
        epoch_name = str(epoch)
    heading = f"{title} — {'ход' if ru else 'turn'} {view['turn']}, {epoch_name}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total_w} {total_h}" width="{total_w}" '
           f'height="{total_h}" font-family="sans-serif">',
           f"<title>{escape(heading)}</title>",
           '<rect width="100%" height="100%" fill="#fbf8f0"/>',
           f'<text x="{MARGIN}" y="15" font-size="13" font-weight="bold">{escape(heading)}</text>']
    for x in range(width):
        out.append(f'<text x="{MARGIN + x * CELL + CELL / 2:.0f}" y="{MARGIN - 4}" font-size="8" '
                   f'text-anchor="middle" fill="#5a5040">{column_name(x)}</text>')
    for y in range(height):
        out.append(f'<text x="{MARGIN - 3}" y="{MARGIN + y * CELL + CELL / 2 + 3:.0f}" font-size="8" '
                   f'text-anchor="end" fill="#5a5040">{y + 1}</text>')
    terrain_rows = m["terrain"]
    for y in range(height):
        for x in range(width):
            t = tile_name(x, y)
            px, py = MARGIN + x * CELL, MARGIN + y * CELL
            closed = terrain_rows[y][x] == "?"
            kind = "closed" if closed else str(kinds.get(t, "land"))
            out.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{TERRAIN_FILL[kind]}" '
                       f'stroke="#cfc6ad" stroke-width="0.4" data-tile="{t}" data-terrain="{kind}"/>')
            if closed:
                out.append(f'<text x="{px + CELL / 2:.0f}" y="{py + CELL / 2 + 4:.0f}" font-size="10" '
                           f'text-anchor="middle" fill="#8a8a8a">?</text>')
                continue
            info = tiles.get(t, {})
            owner = info.get("owner")
            if owner:
                color = escape(str(countries.get(owner, {}).get("color", "#888888")))
                out.append(f'<rect x="{px + 1}" y="{py + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="{color}" '
                           f'fill-opacity="0.55" stroke="{color}" stroke-width="1.2" data-owner="{escape(str(owner))}"/>')
            if info.get("city") is not None:
                level = int(info["city"])
                out.append(f'<circle cx="{px + CELL / 2:.0f}" cy="{py + CELL / 2:.0f}" r="6" fill="#ffffff" '
                           f'stroke="#222" stroke-width="1.2"/>')
                out.append(f'<text x="{px + CELL / 2:.0f}" y="{py + CELL / 2 + 3:.0f}" font-size="8" '
                           f'text-anchor="middle" font-weight="bold">{level + 1}</text>')
            building = info.get("building")
            if building:
                letter = BUILDING_LETTERS.get(str(building), ("?", "?"))[0 if ru else 1]
                out.append(f'<text x="{px + CELL - 2}" y="{py + CELL - 2}" font-size="8" text-anchor="end" '
                           f'font-weight="bold" fill="#1b1b1b">{letter}</text>')
            res = deposits.get(t)
            if res is not None and res in rules.resources:
                letter = rules.resources[res].letter if ru else res[:2].capitalize()
                out.append(f'<text x="{px + 2}" y="{py + 8}" font-size="7" fill="#5b2c00" '
                           f'data-tile="{t}" data-resource="{res}">{escape(letter)}</text>')
            if info.get("slaves"):
                out.append(f'<text x="{px + 2}" y="{py + CELL - 2}" font-size="7" fill="#7b241c">'
                           f'{"Р" if ru else "S"}</text>')
    y0 = map_h + 14
    out.append(f'<text x="{MARGIN}" y="{y0}" font-size="10" font-weight="bold">{"Легенда" if ru else "Legend"}</text>')
    x = MARGIN
    y = y0 + 16
    for kind in ("land", "mountain", "sea", "ocean", "closed"):
        label = TERRAIN_NAMES[kind][0 if ru else 1]
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{TERRAIN_FILL[kind]}" stroke="#999"/>')
        out.append(f'<text x="{x + 13}" y="{y}" font-size="9">{escape(label)}</text>')
        x += 20 + 6 * len(label)
    y += 18
    x = MARGIN
    symbols = [("●1", "город (число — бонус)" if ru else "city (number: its bonus)")]
    for kind, (ru_letter, en_letter) in BUILDING_LETTERS.items():
        symbols.append((ru_letter if ru else en_letter, BUILDING_NAMES[kind][0 if ru else 1]))
    symbols.append(("Мх" if ru else "Fu", "ресурс (буквы — его название)" if ru else "resource (letters: its name)"))
    symbols.append(("Р" if ru else "S", "рабы" if ru else "slaves"))
    for sym, label in symbols:
        out.append(f'<text x="{x}" y="{y}" font-size="9" font-weight="bold">{escape(sym)}</text>')
        out.append(f'<text x="{x + 16}" y="{y}" font-size="9">{escape(label)}</text>')
        x += 26 + 5 * len(label)
    y += 18
    for i, cid in enumerate(owners):
        col, row = i % 3, i // 3
        cx = MARGIN + col * 180
        cy = y + row * 18
        color = escape(str(countries.get(cid, {}).get("color", "#888888")))
        out.append(f'<rect x="{cx}" y="{cy - 9}" width="10" height="10" fill="{color}"/>')
        out.append(f'<text x="{cx + 13}" y="{cy}" font-size="9">{escape(names.get(cid, cid))}</text>')
    out.append("</svg>")
    return "\n".join(out)
