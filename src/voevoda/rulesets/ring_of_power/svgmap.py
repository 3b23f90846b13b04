"""The map a viewer receives, as SVG, drawn from that viewer's view alone: holdings in
their owners' colours, units as letters, fog in grey, and what the viewer cannot see
dimmed («будет рассылаться каждому игроку каждый ход»)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from html import escape
from typing import Any

from voevoda.rulesets.ring_of_power.board import board as shared_board
from voevoda.rulesets.ring_of_power.board import split
from voevoda.rulesets.ring_of_power.rules import Rules

SIZE = 18.0
MARGIN = 12.0


def _centre(hex_: str) -> tuple[float, float]:
    col, row = split(hex_)
    x = MARGIN + SIZE + 1.5 * SIZE * (col - 1)
    y = MARGIN + math.sqrt(3) * SIZE * (row - 0.5 + (0.5 if col % 2 == 0 else 0.0))
    return x, y


def _corners(x: float, y: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i)
        pts.append(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}")
    return " ".join(pts)


def holding_mark(hex_: str, color: str) -> str:
    """The attributes that colour ``hex_`` as a holding of the player of ``color``."""
    return f'fill="{escape(color)}" fill-opacity="0.55" stroke="#8a7f66" stroke-width="0.8" data-hex="{hex_}"'


def units_mark(hex_: str, index: int, color: str) -> str:
    """The opening of the label of the ``index``-th player's units drawn in ``hex_``."""
    x, y = _centre(hex_)
    return (f'<text x="{x:.1f}" y="{y + 3 + 8 * index:.1f}" font-size="8" font-weight="bold" '
            f'text-anchor="middle" fill="{escape(color)}"')


def monster_mark(hex_: str) -> str:
    """The opening of the Chupacabra's glyph in ``hex_``."""
    x, y = _centre(hex_)
    return f'<text x="{x:.1f}" y="{y + SIZE * 0.75:.1f}" font-size="8" text-anchor="middle" fill="#3b0a45">'


def render(view: Mapping[str, Any], rules: Rules, lang: str = "ru") -> str:
    width, height = int(view["map"]["width"]), int(view["map"]["height"])
    board = shared_board(width, height)
    fog = set(view["map"]["fog"])
    visible = set(view.get("visible", []))
    viewer = str(view.get("viewer", "public"))
    colors = {p: v["color"] for p, v in view["players"].items()}
    holdings = view.get("holdings", {})
    monsters = set(view.get("chupacabra_hexes", []))
    units: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for u in view.get("units", []):
        units[u["hex"]][u["owner"]][u["type"]] += 1
    w = MARGIN * 2 + SIZE * (1.5 * width + 0.5)
    h = MARGIN * 2 + math.sqrt(3) * SIZE * (height + 0.5)
    title = escape(f"{view['map'].get('title_ru' if lang == 'ru' else 'title_en') or view['map']['name']}"
                   f" — {'ход' if lang == 'ru' else 'turn'} {view['turn']}")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h + 24:.0f}" '
           f'width="{w:.0f}" height="{h + 24:.0f}" font-family="sans-serif">',
           f"<title>{title}</title>",
           '<rect width="100%" height="100%" fill="#fbf8f0"/>']
    for hex_ in board.hexes:
        x, y = _centre(hex_)
        holding = holdings.get(hex_)
        if holding:
            out.append(f'<polygon points="{_corners(x, y)}" {holding_mark(hex_, colors.get(holding["owner"], "#ccc"))}/>')
        else:
            out.append(f'<polygon points="{_corners(x, y)}" fill="#efe7d2" fill-opacity="1" '
                       f'stroke="#8a7f66" stroke-width="0.8" data-hex="{hex_}"/>')
        if hex_ in fog:
            out.append(f'<polygon points="{_corners(x, y)}" fill="#8d949c" fill-opacity="0.75" stroke="none"/>')
        if viewer != "gm" and hex_ not in visible and not holding:
            out.append(f'<polygon points="{_corners(x, y)}" fill="#000000" fill-opacity="0.18" stroke="none"/>')
        out.append(f'<text x="{x:.1f}" y="{y - SIZE * 0.5:.1f}" font-size="5.5" text-anchor="middle" '
                   f'fill="#5a5040">{hex_}</text>')
        lines = []
        for owner, kinds in sorted(units.get(hex_, {}).items()):
            label = "".join(f"{rules.units[k].letter(lang)}{n if n > 1 else ''}"
                            for k, n in sorted(kinds.items(), key=lambda kv: -rules.units[kv[0]].strength))
            lines.append((owner, label))
        for i, (owner, label) in enumerate(lines):
            out.append(f'{units_mark(hex_, i, colors.get(owner, "#000"))} stroke="#ffffff" '
                       f'stroke-width="0.4">{escape(label)}</text>')
        if hex_ in monsters:
            out.append(f'{monster_mark(hex_)}{"Ч" if lang == "ru" else "X"}</text>')
    legend_y = h + 14
    x = MARGIN
    for p, color in colors.items():
        out.append(f'<rect x="{x:.0f}" y="{legend_y - 8:.0f}" width="10" height="10" fill="{escape(color)}"/>')
        out.append(f'<text x="{x + 13:.0f}" y="{legend_y:.0f}" font-size="9">{escape(p)}</text>')
        x += 16 + 6 * len(p) + 10
    out.append("</svg>")
    return "\n".join(out)
