"""What every game's map shares: a frame with the game's title and turn, a legend that
explains every symbol drawn, the usual symbols (hexes, fog, arrows for moves, marks for
battles), and export to PNG.

A game draws its board as SVG elements in its own coordinates and hands them to
:func:`framed` with the legend entries of what it drew; :func:`to_png` renders the result
with resvg and the fonts shipped in this package (DejaVu Sans, Latin and Cyrillic), so a map
looks the same on every machine and needs no font installed (docs/maps.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

FONT_FAMILY = "DejaVu Sans"
FONT_DIR = Path(__file__).parent / "fonts"
BACKGROUND = "#fbf8f0"
INK = "#2b2620"
FOG = "#7d858e"
UNSEEN = "#d9d4c7"
BATTLE = "#d62d20"


def text(x: float, y: float, content: str, *, size: float = 12, weight: str = "normal", anchor: str = "start",
         fill: str = INK, halo: bool = False, extra: str = "") -> str:
    """A line of text; ``halo`` outlines it in the background colour so it stays readable on
    any fill."""
    outline = (f' stroke="{BACKGROUND}" stroke-width="{max(1.5, size / 5):.1f}" paint-order="stroke" '
               'stroke-linejoin="round"') if halo else ""
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}"{bold} text-anchor="{anchor}" '
            f'fill="{fill}"{outline}{extra}>{escape(content)}</text>')


def hex_points(x: float, y: float, size: float, flat: bool = True) -> str:
    """The corners of a hexagon of circumradius ``size`` centred on (x, y); flat-topped by
    default."""
    start = 0 if flat else 30
    return " ".join(f"{x + size * math.cos(math.radians(start + 60 * i)):.1f},"
                    f"{y + size * math.sin(math.radians(start + 60 * i)):.1f}" for i in range(6))


def arrow(x1: float, y1: float, x2: float, y2: float, color: str, *, width: float = 2.5,
          head: float = 9.0, dashed: bool = False) -> str:
    """A line from (x1, y1) to (x2, y2) with an arrowhead at its end, drawn as a path and a
    polygon (no SVG markers, which renderers colour differently)."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * head * 0.5, ux * head * 0.5
    dash = ' stroke-dasharray="5 4"' if dashed else ""
    head_points = f"{x2:.1f},{y2:.1f} {bx + px:.1f},{by + py:.1f} {bx - px:.1f},{by - py:.1f}"
    # a pale outline under the arrow keeps it readable over any fill
    outline = (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{BACKGROUND}" '
               f'stroke-width="{width + 3:g}" stroke-linecap="round"/>'
               f'<polygon points="{head_points}" fill="{BACKGROUND}" stroke="{BACKGROUND}" stroke-width="3" '
               'stroke-linejoin="round"/>')
    return (f'<g class="arrow">{outline}<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
            f'stroke="{color}" stroke-width="{width:g}" stroke-linecap="round"{dash}/>'
            f'<polygon points="{head_points}" fill="{color}"/></g>')


def battle_mark(x: float, y: float, size: float = 9.0, color: str = BATTLE) -> str:
    """An eight-pointed burst: a battle was fought here."""
    points = []
    for i in range(16):
        r = size if i % 2 == 0 else size * 0.45
        a = math.radians(22.5 * i - 90)
        points.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return (f'<polygon class="battle" points="{" ".join(points)}" fill="{color}" stroke="#ffffff" '
            'stroke-width="1"/>')


FOG_PATTERN = "fog-hatch"
UNSEEN_PATTERN = "unseen-dots"


def defs() -> str:
    """Patterns the symbols use: fog is hatched grey, what the viewer cannot see is dotted."""
    return (f'<defs><pattern id="{FOG_PATTERN}" width="7" height="7" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)">'
            f'<rect width="7" height="7" fill="{FOG}" fill-opacity="0.55"/>'
            '<line x1="0" y1="0" x2="0" y2="7" stroke="#4d545c" stroke-width="2.2"/></pattern>'
            f'<pattern id="{UNSEEN_PATTERN}" width="6" height="6" patternUnits="userSpaceOnUse">'
            f'<rect width="6" height="6" fill="{UNSEEN}" fill-opacity="0.7"/>'
            '<circle cx="3" cy="3" r="0.9" fill="#8c8677"/></pattern></defs>')


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a symbol drawn in a 24×20 box whose top left is (0, 0), and
    what it means."""

    symbol: str
    label: str


def swatch(fill: str, stroke: str = "#8a7f66", stroke_width: float = 1.0, opacity: float = 1.0) -> str:
    return (f'<polygon points="{hex_points(12, 10, 9.5)}" fill="{fill}" fill-opacity="{opacity:g}" '
            f'stroke="{stroke}" stroke-width="{stroke_width:g}"/>')


def legend_symbol_arrow(color: str) -> str:
    return arrow(1, 10, 23, 10, color, width=2.5, head=7)


def legend_symbol_battle() -> str:
    return battle_mark(12, 10, 8)


def legend_symbol_text(label: str, color: str = INK, weight: str = "bold", size: float = 11) -> str:
    return text(12, 14, label, size=size, weight=weight, anchor="middle", fill=color, halo=True)


LEGEND_ROW = 22.0
LEGEND_COLUMN = 300.0
HEADER = 58.0
PAD = 14.0


def framed(body: str, width: float, height: float, *, title: str, subtitle: str,
           legend: Sequence[LegendEntry], legend_title: str = "Условные обозначения") -> str:
    """The whole map: a header with ``title`` (the game) and ``subtitle`` (turn, whose map),
    ``body`` (drawn in a ``width`` × ``height`` box from its origin) and, under it, the legend
    in as many columns as fit."""
    # as many columns as the longest entry leaves room for (its text measured in the shipped font)
    widest = max((32 + text_width(entry.label, 12) + 18 for entry in legend), default=LEGEND_COLUMN)
    column = max(LEGEND_COLUMN, widest)
    columns = max(1, int((width + 2 * PAD - PAD) // column))
    rows = math.ceil(len(legend) / columns) if legend else 0
    legend_h = (28 + rows * LEGEND_ROW + PAD) if legend else 0
    total_w = width + 2 * PAD
    total_h = HEADER + height + PAD + legend_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
           f'width="{total_w:.0f}" height="{total_h:.0f}" font-family="{FONT_FAMILY}, sans-serif">',
           f"<title>{escape(title)} — {escape(subtitle)}</title>",
           defs(),
           f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
           text(PAD, 28, title, size=20, weight="bold"),
           text(PAD, 48, subtitle, size=14, fill="#5a5040"),
           f'<g transform="translate({PAD:g},{HEADER:g})">', body, "</g>"]
    if legend:
        top = HEADER + height + PAD
        out.append(f'<line x1="{PAD:g}" y1="{top:.0f}" x2="{total_w - PAD:.0f}" y2="{top:.0f}" '
                   'stroke="#cfc6b0" stroke-width="1"/>')
        out.append(text(PAD, top + 20, legend_title, size=13, weight="bold"))
        for i, entry in enumerate(legend):
            col, row = i // rows, i % rows
            x = PAD + col * column
            y = top + 28 + row * LEGEND_ROW
            out.append(f'<g class="legend" transform="translate({x:.0f},{y:.0f})">{entry.symbol}</g>')
            out.append(text(x + 32, y + 14, entry.label, size=12))
    out.append("</svg>")
    return "\n".join(out)


@cache
def _advances(bold: bool) -> tuple[dict[int, int], int, int]:
    """The shipped DejaVu Sans's advance widths by character (its ``cmap`` format 4 and ``hmtx``
    tables, read with nothing but ``struct``), the default advance and the units per em."""
    import struct

    data = (FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")).read_bytes()
    (count,) = struct.unpack(">H", data[4:6])
    tables = {data[12 + 16 * i:16 + 16 * i].decode("latin-1"): struct.unpack(">I", data[20 + 16 * i:24 + 16 * i])[0]
              for i in range(count)}
    (per_em,) = struct.unpack(">H", data[tables["head"] + 18:tables["head"] + 20])
    (metrics,) = struct.unpack(">H", data[tables["hhea"] + 34:tables["hhea"] + 36])
    hmtx = tables["hmtx"]
    advance = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] for i in range(metrics)]
    cmap = tables["cmap"]
    (subtables,) = struct.unpack(">H", data[cmap + 2:cmap + 4])
    widths: dict[int, int] = {}
    for i in range(subtables):
        platform, encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        at = cmap + offset
        if (platform, encoding) != (3, 1) or struct.unpack(">H", data[at:at + 2])[0] != 4:
            continue
        (seg2,) = struct.unpack(">H", data[at + 6:at + 8])
        segs = seg2 // 2
        ends = struct.unpack(f">{segs}H", data[at + 14:at + 14 + seg2])
        starts = struct.unpack(f">{segs}H", data[at + 16 + seg2:at + 16 + 2 * seg2])
        deltas = struct.unpack(f">{segs}h", data[at + 16 + 2 * seg2:at + 16 + 3 * seg2])
        range_at = at + 16 + 3 * seg2
        ranges = struct.unpack(f">{segs}H", data[range_at:range_at + seg2])
        for k in range(segs):
            for code in range(starts[k], min(ends[k], 0x04FF) + 1):
                if ranges[k] == 0:
                    glyph = (code + deltas[k]) & 0xFFFF
                else:
                    where = range_at + 2 * k + ranges[k] + 2 * (code - starts[k])
                    (glyph,) = struct.unpack(">H", data[where:where + 2])
                    glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                widths[code] = advance[min(glyph, metrics - 1)]
        break
    return widths, advance[0], per_em


def text_width(content: str, size: float, bold: bool = False) -> float:
    """How wide ``content`` is drawn in the shipped font at ``size`` (pixels): what a map needs
    to keep its labels from running into each other."""
    widths, default, per_em = _advances(bold)
    return sum(widths.get(ord(c), default) for c in content) * size / per_em


def text_box(x: float, y: float, content: str, size: float, *, bold: bool = False,
             anchor: str = "start") -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) a line of :func:`text` drawn at (x, y) covers: from its
    cap height above the baseline to its descenders below."""
    width = text_width(content, size, bold)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return left, y - 0.76 * size, left + width, y + 0.24 * size


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@cache
def font_files() -> tuple[str, ...]:
    """The fonts shipped with voevoda (DejaVu Sans, regular and bold)."""
    return tuple(sorted(str(p) for p in FONT_DIR.glob("*.ttf")))


def to_png(svg: str, zoom: float = 1.0) -> bytes:
    """``svg`` rendered to PNG with the shipped fonts only (the machine's fonts are not read,
    so the picture is the same everywhere and needs nothing installed)."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, skip_system_fonts=True,
                                       font_files=list(font_files()), font_family=FONT_FAMILY,
                                       sans_serif_family=FONT_FAMILY, serif_family=FONT_FAMILY,
                                       monospace_family=FONT_FAMILY))


def map_bytes(svg: str, png: bool, zoom: float = 1.0) -> bytes:
    """The file to write: the SVG as UTF-8, or the PNG."""
    return to_png(svg, zoom) if png else svg.encode("utf-8")
