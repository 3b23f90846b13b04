"""The map of Новые Миры: a grid of square tiles («клетки») drawn as text, and its geometry.

A map file (TOML, JSON or YAML; ``data/maps/default.toml`` is the one shipped) draws the
terrain one character per tile, row by row (docs/new_worlds.md «The map»)::

    .  land                 ^  large mountains (de jure, «большие тайлы гор»)
    ~  water: a coastal sea where it touches land, open ocean elsewhere
    =  open ocean everywhere

Tiles are named like spreadsheet cells: column letters then the row number, ``A1`` at the
top left, ``AB12`` further right. Two tiles touch when they share a side or a corner (eight
neighbours); every distance of the rules («не далее 5 клеток», «в радиусе одной клетки») is
the number of king's steps between tiles.

Optional layers: ``continents`` (a letter per land tile; without it every connected landmass
is a continent), ``regions`` (a letter for each tile of a part of the map closed at the start;
``.`` for open tiles) with ``[regions_info]`` saying when each opens, ``[resources]`` (tile =
resource), ``[names]`` (tile = name), ``[[starts]]`` (a tile per seat) and ``[events]`` (where
the Sea Peoples and the Khaganate appear).
"""

# No ``from __future__ import annotations`` here: Pydantic would evaluate every field's
# annotation from its string, which cost `voevoda status` 6 ms for the models of this package.


import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import empty_list, load, read_house_rules, validate

DATA = Path(__file__).parent / "data"
Terrain = Literal["land", "mountain", "sea", "ocean"]
TERRAIN_CHARS: dict[str, str] = {".": "land", "^": "mountain", "~": "water", "=": "ocean"}
TILE_RE = re.compile(r"^([A-Z]{1,2})([1-9][0-9]?)$")
MAX_SIDE = 80
_LOOKALIKES = str.maketrans("АВСЕНКМОРТХаесоркмнтвх", "ABCEHKMOPTXAECOPKMHTBX")


def column_name(x: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    if x < 26:
        return chr(ord("A") + x)
    return chr(ord("A") + x // 26 - 1) + chr(ord("A") + x % 26)


def tile_name(x: int, y: int) -> str:
    return f"{column_name(x)}{y + 1}"


def normalise_tile(token: str) -> str | None:
    """A tile name as written in a post («c5», «С5» in Cyrillic) in its canonical form, or
    ``None`` when ``token`` is not shaped like one."""
    text = token.strip().translate(_LOOKALIKES).upper()
    return text if TILE_RE.match(text) else None


def split_tile(tile: str) -> tuple[int, int]:
    m = TILE_RE.match(tile)
    if not m:
        raise ValueError(f"not a tile name: {tile!r}")
    letters, number = m.group(1), int(m.group(2))
    x = ord(letters[0]) - ord("A") if len(letters) == 1 else (ord(letters[0]) - ord("A") + 1) * 26 + ord(letters[1]) - ord("A")
    return x, number - 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RegionInfo(_Strict):
    name_ru: str
    name_en: str
    opens_at: str | None = None   # an epoch id; None: the game master opens it


class ContinentName(_Strict):
    name_ru: str
    name_en: str


class Start(_Strict):
    tile: str
    name: str | None = None


class EventPlaces(_Strict):
    sea_peoples: list[str] = Field(default_factory=empty_list)
    khaganate: list[str] = Field(default_factory=empty_list)
    khaganate_tributaries: list[list[str]] = Field(default_factory=empty_list)


class MapFile(_Strict):
    name: str = Field(min_length=1, max_length=60)
    title_ru: str = ""
    title_en: str = ""
    terrain: list[str] = Field(min_length=3, max_length=MAX_SIDE)
    continents: list[str] | None = None
    continent_names: dict[str, ContinentName] = Field(default_factory=dict)
    regions: list[str] | None = None
    regions_info: dict[str, RegionInfo] = Field(default_factory=dict)
    resources: dict[str, str] = Field(default_factory=dict)
    names: dict[str, str] = Field(default_factory=dict)
    starts: list[Start] = Field(min_length=1, max_length=64)
    events: EventPlaces = Field(default_factory=EventPlaces)

    @model_validator(mode="after")
    def _shape(self) -> "MapFile":
        width = len(self.terrain[0])
        if not 3 <= width <= MAX_SIDE:
            raise ValueError(f"terrain: rows must be 3 to {MAX_SIDE} tiles wide (row 1 has {width})")
        for i, row in enumerate(self.terrain, start=1):
            if len(row) != width:
                raise ValueError(f"terrain row {i}: {len(row)} tiles, row 1 has {width}")
            for j, ch in enumerate(row, start=1):
                if ch not in TERRAIN_CHARS:
                    raise ValueError(f"terrain row {i}, column {j} ({tile_name(j - 1, i - 1)}): unknown character "
                                     f"'{ch}' (use . land, ^ mountains, ~ water, = ocean)")
        for layer_name in ("continents", "regions"):
            layer = getattr(self, layer_name)
            if layer is None:
                continue
            if len(layer) != len(self.terrain):
                raise ValueError(f"{layer_name}: {len(layer)} rows, the terrain has {len(self.terrain)}")
            for i, row in enumerate(layer, start=1):
                if len(row) != width:
                    raise ValueError(f"{layer_name} row {i}: {len(row)} tiles, the terrain is {width} wide")
                for j, ch in enumerate(row, start=1):
                    if ch != "." and not ch.isalpha():
                        raise ValueError(f"{layer_name} row {i}, column {j}: '{ch}' is not a letter or '.'")
        if self.regions is not None:
            letters = {ch for row in self.regions for ch in row if ch != "."}
            missing = sorted(letters - set(self.regions_info))
            if missing:
                raise ValueError(f"regions_info: no entry for region {', '.join(missing)}")
        return self


@dataclass(frozen=True)
class Grid:
    """The static geometry of a map: terrain, continents, regions, neighbours, distances."""

    width: int
    height: int
    terrain: tuple[str, ...]
    continents: tuple[str, ...] | None = None
    regions: tuple[str, ...] | None = None
    closed: frozenset[str] = frozenset()
    """Tiles of regions not yet open: their land makes no coast and joins no continent, so that
    nothing a player sees (a sea's kind, a continent) tells what lies inside (ruling R40)."""
    tiles: tuple[str, ...] = field(init=False)
    kinds: dict[str, Terrain] = field(init=False, repr=False)
    _neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    _continent: dict[str, str] = field(init=False, repr=False)
    _xy: dict[str, tuple[int, int]] = field(init=False, repr=False)
    _index: dict[str, int] = field(init=False, repr=False)
    _region: dict[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # built by index arithmetic: `voevoda status` builds a grid or two, and naming every
        # neighbour afresh cost it a tenth of its time
        w, h = self.width, self.height
        columns = [column_name(x) for x in range(w)]
        tiles = [f"{columns[x]}{y + 1}" for y in range(h) for x in range(w)]
        xy = {t: (i % w, i // w) for i, t in enumerate(tiles)}
        object.__setattr__(self, "tiles", tuple(tiles))
        object.__setattr__(self, "_xy", xy)
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(tiles)})
        regions: dict[str, str] = {}
        if self.regions is not None:
            for t, (x, y) in xy.items():
                ch = self.regions[y][x]
                if ch != ".":
                    regions[t] = ch
        object.__setattr__(self, "_region", regions)
        neighbours: dict[str, tuple[str, ...]] = {}
        for i, t in enumerate(tiles):
            x, y = i % w, i // w
            xs = range(max(0, x - 1), min(w, x + 2))
            neighbours[t] = tuple(tiles[ny * w + nx] for ny in range(max(0, y - 1), min(h, y + 2)) for nx in xs
                                  if nx != x or ny != y)
        object.__setattr__(self, "_neighbours", neighbours)
        raw = {t: TERRAIN_CHARS[self.terrain[y][x]] for t, (x, y) in xy.items()}
        kinds: dict[str, Terrain] = {}
        for t, kind in raw.items():
            if kind == "water":
                touches_land = any(raw[n] in ("land", "mountain") and n not in self.closed for n in neighbours[t])
                kinds[t] = "sea" if touches_land else "ocean"
            else:
                kinds[t] = kind  # type: ignore[assignment]
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "_continent", self._find_continents())

    def _find_continents(self) -> dict[str, str]:
        found: dict[str, str] = {}
        if self.continents is not None:
            for t, (x, y) in self._xy.items():
                ch = self.continents[y][x]
                if self.kinds[t] in ("land", "mountain") and ch != ".":
                    found[t] = ch
        number = 0
        for closed_pass in (False, True):
            for t in self.tiles:
                if self.kinds[t] not in ("land", "mountain") or t in found or (t in self.closed) != closed_pass:
                    continue
                number += 1
                name = f"#{number}" if not closed_pass else f"#closed{number}"
                queue = deque([t])
                found[t] = name
                while queue:
                    here = queue.popleft()
                    for n in self._neighbours[here]:
                        if (self.kinds[n] in ("land", "mountain") and n not in found
                                and (n in self.closed) == closed_pass):
                            found[n] = name
                            queue.append(n)
        return found

    # -- questions ------------------------------------------------------------------------

    def contains(self, tile: str) -> bool:
        return tile in self._xy

    def xy(self, tile: str) -> tuple[int, int]:
        return self._xy[tile]

    def index(self, tile: str) -> int:
        """The tile's place in reading order (row by row): the order ties are broken in."""
        return self._index[tile]

    def sort(self, tiles: Iterable[str]) -> list[str]:
        return sorted(tiles, key=self._index.__getitem__)

    def neighbours(self, tile: str) -> tuple[str, ...]:
        return self._neighbours[tile]

    def kind(self, tile: str) -> Terrain:
        return self.kinds[tile]

    def is_land(self, tile: str) -> bool:
        """Land that counts as a territory (large mountains do not: they are de jure)."""
        return self.kinds[tile] == "land"

    def is_water(self, tile: str) -> bool:
        return self.kinds[tile] in ("sea", "ocean")

    def is_dejure(self, tile: str) -> bool:
        """«Морские тайлы и большие тайлы гор являются де-юре владениями.»"""
        return self.kinds[tile] != "land"

    def is_coast(self, tile: str) -> bool:
        """A land tile that touches water: where a port may stand («только на берегах»)."""
        return self.is_land(tile) and any(self.is_water(n) for n in self._neighbours[tile])

    def continent(self, tile: str) -> str | None:
        return self._continent.get(tile)

    def region(self, tile: str) -> str | None:
        return self._region.get(tile)

    def distance(self, a: str, b: str) -> int:
        ax, ay = self._xy[a]
        bx, by = self._xy[b]
        return max(abs(ax - bx), abs(ay - by))

    def within(self, centre: str, radius: int) -> list[str]:
        cx, cy = self._xy[centre]
        out = []
        for y in range(max(0, cy - radius), min(self.height, cy + radius + 1)):
            for x in range(max(0, cx - radius), min(self.width, cx + radius + 1)):
                out.append(tile_name(x, y))
        return out

    def distance_to_set(self, tile: str, tiles: Iterable[str]) -> int | None:
        best: int | None = None
        for t in tiles:
            d = self.distance(tile, t)
            if best is None or d < best:
                best = d
                if d == 0:
                    break
        return best

    def grow(self, seed: str, count: int, allowed: set[str]) -> list[str]:
        """Up to ``count`` tiles of ``allowed`` reached from ``seed`` in breadth-first order
        through ``allowed`` (ties in reading order): how starting lands and shares are drawn."""
        if seed not in allowed:
            return []
        out = [seed]
        seen = {seed}
        queue = deque([seed])
        while queue and len(out) < count:
            here = queue.popleft()
            for n in self._neighbours[here]:
                if n in allowed and n not in seen:
                    seen.add(n)
                    out.append(n)
                    queue.append(n)
                    if len(out) >= count:
                        break
        return out


@lru_cache(maxsize=32)
def grid_of(width: int, height: int, terrain: tuple[str, ...], continents: tuple[str, ...] | None,
            regions: tuple[str, ...] | None, closed: frozenset[str] = frozenset()) -> Grid:
    return Grid(width, height, terrain, continents, regions, closed)


def closed_tiles(regions: Sequence[str] | None, open_regions: Iterable[str]) -> frozenset[str]:
    """The tiles of the regions not in ``open_regions``."""
    if not regions:
        return frozenset()
    return _closed(tuple(regions), tuple(sorted(set(open_regions))))


@lru_cache(maxsize=64)
def _closed(regions: tuple[str, ...], opened: tuple[str, ...]) -> frozenset[str]:
    return frozenset(tile_name(x, y) for y, row in enumerate(regions) for x, ch in enumerate(row)
                     if ch != "." and ch not in opened)


def grid_from_state(map_state: Mapping[str, Any]) -> Grid:
    continents = map_state.get("continents")
    regions = map_state.get("regions")
    closed = closed_tiles(regions, map_state.get("open_regions", []))
    return grid_of(int(map_state["width"]), int(map_state["height"]), tuple(map_state["terrain"]),
                   tuple(continents) if continents else None, tuple(regions) if regions else None, closed)


def check_map(data: MapFile, resources: Mapping[str, Any], epochs: Sequence[str],
              open_regions: Iterable[str] = ()) -> Grid:
    """The checks that need the rules as well as the map: tiles exist, resources are known and
    placed on the right terrain, starts are on open land and apart. Returns the grid with the
    regions of ``open_regions`` open (none of the checks depends on which are: the grid is the
    one the game starts on, built once)."""
    grid = grid_of(len(data.terrain[0]), len(data.terrain), tuple(data.terrain),
                   tuple(data.continents) if data.continents else None,
                   tuple(data.regions) if data.regions else None,
                   closed_tiles(data.regions, open_regions))
    problems: list[str] = []

    def tile_ok(where: str, tile: str) -> bool:
        if not TILE_RE.match(tile) or not grid.contains(tile):
            problems.append(f"{where}: {tile} is not a tile of the {grid.width}x{grid.height} map")
            return False
        return True

    for tile, res in data.resources.items():
        if not tile_ok(f"resources.{tile}", tile):
            continue
        spec = resources.get(res)
        if spec is None:
            problems.append(f"resources.{tile}: unknown resource '{res}' (known: {', '.join(sorted(resources))})")
            continue
        water_only = bool(getattr(spec, "water_only", False))
        if water_only and not grid.is_water(tile):
            problems.append(f"resources.{tile}: {res} spawns only in water («спавн только в воде»)")
        if not water_only and not grid.is_land(tile):
            problems.append(f"resources.{tile}: {res} must be on land, {tile} is {grid.kind(tile)}")
    for tile in data.names:
        tile_ok(f"names.{tile}", tile)
    seen: dict[str, int] = {}
    for i, start in enumerate(data.starts, start=1):
        if not tile_ok(f"starts.{i}.tile", start.tile):
            continue
        if not grid.is_land(start.tile):
            problems.append(f"starts.{i}.tile: {start.tile} is not land")
        if grid.region(start.tile) is not None:
            problems.append(f"starts.{i}.tile: {start.tile} lies in a closed region")
        if start.tile in seen:
            problems.append(f"starts.{i}.tile: {start.tile} is already start {seen[start.tile]}")
        seen[start.tile] = i
    for key in ("sea_peoples", "khaganate"):
        for tile in getattr(data.events, key):
            if tile_ok(f"events.{key}", tile) and not grid.is_land(tile):
                problems.append(f"events.{key}: {tile} is not land")
    for i, group in enumerate(data.events.khaganate_tributaries, start=1):
        for tile in group:
            if tile_ok(f"events.khaganate_tributaries.{i}", tile) and not grid.is_land(tile):
                problems.append(f"events.khaganate_tributaries.{i}: {tile} is not land")
    for rid, info in data.regions_info.items():
        if info.opens_at is not None and info.opens_at not in epochs:
            problems.append(f"regions_info.{rid}.opens_at: unknown epoch '{info.opens_at}'")
    if problems:
        raise DataError(f"map {data.name}: " + "; ".join(problems))
    return grid


def load_map(name: str = "default", inline: Mapping[str, Any] | None = None) -> MapFile:
    """A packaged map by name, or a map given inline in the game's config."""
    if inline is not None:
        return validate(MapFile, inline, "config map")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise DataError(f"config map_name: '{name}' is not a map name")
    path = DATA / "maps" / f"{name}.toml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in (DATA / "maps").glob("*.toml")))
        raise DataError(f"config map_name: no map '{name}' (maps: {known})")
    return load(MapFile, path)


def read_map_file(path: Path) -> MapFile:
    """A map from a TOML, JSON or YAML file (for ``voevoda nw map-check``)."""
    return validate(MapFile, read_house_rules(path), str(path))
