"""The hex board: the document's four-digit coordinates, neighbours and distance.

«Для игры используется доска, разделенная на шестиугольники, общим числом 400» and the
worked examples name hexes «0201», «0202». A hex is written ``CCRR``: column then row,
both counted from 01. Hexes are flat-topped and every even column is set half a hex
lower than the odd columns beside it (the usual wargame numbering), so hex ``0201``
touches ``0101``, ``0102``, ``0202``, ``0301`` and ``0302`` (see docs/rulings).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

HEX_RE = re.compile(r"^\d{4}$")


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def split(hex_: str) -> tuple[int, int]:
    return int(hex_[:2]), int(hex_[2:])


def cube(hex_: str) -> tuple[int, int, int]:
    """Cube coordinates of a hex (columns 0-based, odd 0-based columns shoved down)."""
    col, row = split(hex_)
    q, r = col - 1, row - 1
    x = q
    z = r - (q - (q & 1)) // 2
    return x, -x - z, z


def distance(a: str, b: str) -> int:
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


@dataclass(frozen=True)
class Board:
    """A rectangle of ``width`` x ``height`` hexes (20 x 20 = 400 in the document)."""

    width: int
    height: int

    def contains(self, hex_: str) -> bool:
        if not HEX_RE.match(hex_):
            return False
        col, row = split(hex_)
        return 1 <= col <= self.width and 1 <= row <= self.height

    @cached_property
    def hexes(self) -> tuple[str, ...]:
        return tuple(hex_id(c, r) for c in range(1, self.width + 1) for r in range(1, self.height + 1))

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        table: dict[str, tuple[str, ...]] = {}
        for h in self.hexes:
            col, row = split(h)
            if col % 2 == 1:
                cands = [(col, row - 1), (col, row + 1), (col - 1, row - 1), (col - 1, row),
                         (col + 1, row - 1), (col + 1, row)]
            else:
                cands = [(col, row - 1), (col, row + 1), (col - 1, row), (col - 1, row + 1),
                         (col + 1, row), (col + 1, row + 1)]
            table[h] = tuple(sorted(hex_id(c, r) for c, r in cands
                                    if 1 <= c <= self.width and 1 <= r <= self.height))
        return table

    def neighbours(self, hex_: str) -> tuple[str, ...]:
        return self._neighbours[hex_]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._neighbours.get(a, ())

    def around(self, hexes: Iterable[str], radius: int = 1) -> set[str]:
        """``hexes`` and every hex within ``radius`` of one of them."""
        result = set(hexes)
        frontier = set(result)
        for _ in range(radius):
            nxt: set[str] = set()
            for h in frontier:
                nxt.update(self._neighbours[h])
            frontier = nxt - result
            result |= nxt
        return result

    def rosette(self, centre: str) -> tuple[str, ...] | None:
        """The centre and its six neighbours, or ``None`` near the edge (fewer than 7)."""
        ring = self._neighbours[centre]
        if len(ring) != 6:
            return None
        return (centre, *ring)

    def step_towards(self, start: str, goal: str, avoid: set[str] | None = None) -> list[str]:
        """A shortest path from ``start`` to ``goal`` (excluding ``start``) that avoids
        ``avoid`` where it can; breadth-first, ties broken by coordinate."""
        avoid = avoid or set()
        if start == goal:
            return []
        previous: dict[str, str] = {start: start}
        queue = [start]
        for current in queue:
            for n in self._neighbours[current]:
                if n in previous or (n in avoid and n != goal):
                    continue
                previous[n] = current
                if n == goal:
                    path = [n]
                    while previous[path[-1]] != start:
                        path.append(previous[path[-1]])
                    return list(reversed(path))
                queue.append(n)
        return []


@cache
def board(width: int, height: int) -> Board:
    """The one shared board of a size (its neighbour table is built once)."""
    return Board(width, height)
