"""The boxes the map's labels take, so that none is drawn over another.

A label's width is the sum of its glyphs' advances and its height the ink of its glyphs, both
read from the fonts the maps are rendered with (DejaVu Sans, shipped in ``voevoda/core/fonts``:
the ``hmtx``, ``cmap``, ``loca`` and ``glyf`` tables of a TrueType file). The SVG map places its
country names where their boxes meet no other label, and the tests measure the drawn map's
labels with the same boxes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from voevoda.core import maps


@dataclass(frozen=True)
class Box:
    """A rectangle of the map: left, top, right, bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, margin: float = 0.0) -> bool:
        """Whether the two share more than an edge (``margin``: space kept between them)."""
        return (self.x0 < other.x1 + margin and other.x0 < self.x1 + margin
                and self.y0 < other.y1 + margin and other.y0 < self.y1 + margin)

    def inside(self, other: Box) -> bool:
        return self.x0 >= other.x0 and self.y0 >= other.y0 and self.x1 <= other.x1 and self.y1 <= other.y1


class Font:
    """Advances and glyph heights of one TrueType font."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        tables: dict[str, tuple[int, int]] = {}
        for i in range(struct.unpack(">H", data[4:6])[0]):
            tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
            tables[tag.decode("latin-1")] = (offset, length)
        head = tables["head"][0]
        self.units: int = struct.unpack(">H", data[head + 18:head + 20])[0]
        long_loca = struct.unpack(">h", data[head + 50:head + 52])[0] == 1
        hhea = tables["hhea"][0]
        metrics = struct.unpack(">H", data[hhea + 34:hhea + 36])[0]
        hmtx = tables["hmtx"][0]
        self.advances: list[int] = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0]
                                    for i in range(metrics)]
        self.glyphs = self._cmap(data, tables["cmap"][0])
        glyph_count = struct.unpack(">H", data[tables["maxp"][0] + 4:tables["maxp"][0] + 6])[0]
        loca = tables["loca"][0]
        if long_loca:
            offsets = struct.unpack(f">{glyph_count + 1}I", data[loca:loca + 4 * (glyph_count + 1)])
        else:
            offsets = tuple(2 * o for o in struct.unpack(f">{glyph_count + 1}H", data[loca:loca + 2 * (glyph_count + 1)]))
        glyf = tables["glyf"][0]
        self.heights: list[tuple[int, int]] = []   # (yMin, yMax) of each glyph's ink
        for g in range(glyph_count):
            if offsets[g + 1] == offsets[g]:
                self.heights.append((0, 0))
            else:
                _, _, y_min, _, y_max = struct.unpack(">hhhhh", data[glyf + offsets[g]:glyf + offsets[g] + 10])
                self.heights.append((y_min, y_max))

    @staticmethod
    def _cmap(data: bytes, cmap: int) -> dict[int, int]:
        """Code point → glyph from the Windows Unicode BMP subtable (format 4)."""
        for i in range(struct.unpack(">H", data[cmap + 2:cmap + 4])[0]):
            platform, encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
            table = cmap + offset
            if (platform, encoding) not in ((3, 1), (0, 3)) or struct.unpack(">H", data[table:table + 2])[0] != 4:
                continue
            segments = struct.unpack(">H", data[table + 6:table + 8])[0] // 2
            base = table + 14
            ends = struct.unpack(f">{segments}H", data[base:base + 2 * segments])
            starts_at = base + 2 * segments + 2
            starts = struct.unpack(f">{segments}H", data[starts_at:starts_at + 2 * segments])
            deltas = struct.unpack(f">{segments}h", data[starts_at + 2 * segments:starts_at + 4 * segments])
            ranges_at = starts_at + 4 * segments
            ranges = struct.unpack(f">{segments}H", data[ranges_at:ranges_at + 2 * segments])
            found: dict[int, int] = {}
            for s in range(segments):
                for code in range(starts[s], ends[s] + 1):
                    if code == 0xFFFF:
                        continue
                    if ranges[s] == 0:
                        glyph = (code + deltas[s]) & 0xFFFF
                    else:
                        at = ranges_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                        glyph = struct.unpack(">H", data[at:at + 2])[0]
                        if glyph:
                            glyph = (glyph + deltas[s]) & 0xFFFF
                    if glyph:
                        found[code] = glyph
            return found
        raise ValueError("the font has no Unicode cmap of format 4")

    def width(self, text: str, size: float) -> float:
        """The advance of ``text`` at ``size`` (kerning only narrows it)."""
        last = self.advances[-1]
        total = sum(self.advances[g] if g < len(self.advances) else last
                    for g in (self.glyphs.get(ord(ch), 0) for ch in text))
        return total * size / self.units

    def ink(self, text: str, size: float) -> tuple[float, float]:
        """How far the glyphs of ``text`` reach above and below the baseline at ``size``."""
        spans = [self.heights[self.glyphs.get(ord(ch), 0)] for ch in text if not ch.isspace()]
        if not spans:
            return 0.0, 0.0
        return max(y for _, y in spans) * size / self.units, -min(y for y, _ in spans) * size / self.units


@cache
def font(bold: bool = False) -> Font:
    return Font(maps.FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"))


def text_box(x: float, y: float, text: str, size: float, *, bold: bool = False, anchor: str = "start") -> Box:
    """The box of a ``<text>`` at (``x``, ``y``): ``y`` is its baseline, ``anchor`` as in SVG."""
    f = font(bold)
    width = f.width(text, size)
    up, down = f.ink(text, size)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return Box(left, y - up, left + width, y + down)


class BoxIndex:
    """Boxes bucketed by cells of the map, to ask quickly whether a new one meets any."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[Box]] = {}

    def _cells(self, box: Box, margin: float = 0.0) -> Iterator[tuple[int, int]]:
        for cx in range(int((box.x0 - margin) // self.cell), int((box.x1 + margin) // self.cell) + 1):
            for cy in range(int((box.y0 - margin) // self.cell), int((box.y1 + margin) // self.cell) + 1):
                yield cx, cy

    def add(self, box: Box) -> None:
        for cell in self._cells(box):
            self.buckets.setdefault(cell, []).append(box)

    def extend(self, boxes: Iterable[Box]) -> None:
        for box in boxes:
            self.add(box)

    def meets(self, box: Box, margin: float = 0.0) -> bool:
        return any(other.overlaps(box, margin) for cell in self._cells(box, margin)
                   for other in self.buckets.get(cell, ()))
