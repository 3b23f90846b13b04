"""The board of the second edition as the companion knows it: areas (land, sea, port), castles
and strongholds, supply barrels, power crowns, garrisons, home areas, borders, and the names
players write.

Built once from ``data/westeros-2e.json`` and ``data/board.toml`` (both validated at load);
:func:`check_rules` checks that the rules data (houses' homes and starting units) names real
areas of the right kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from voevoda.core.errors import DataError
from voevoda.rulesets.thrones.rules import LAND_UNITS, Rules, board_facts, board_names


@dataclass(frozen=True)
class Area:
    id: str
    name_en: str
    name_ru: str
    aliases: tuple[str, ...]
    type: str
    castle_level: int
    supply: int
    crowns: int
    garrison: int
    home_of: str | None
    x: float
    y: float

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    @property
    def is_land(self) -> bool:
        return self.type == "land"

    @property
    def is_sea(self) -> bool:
        return self.type == "sea"

    @property
    def is_port(self) -> bool:
        return self.type == "port"

    @property
    def holds_ships(self) -> bool:
        return self.type in ("sea", "port")


class Board:
    """Areas by id and who borders whom."""

    def __init__(self) -> None:
        facts = board_facts()
        names = board_names()
        self.areas: dict[str, Area] = {}
        for a in facts.areas:
            drawn = names.areas[a.id]
            self.areas[a.id] = Area(a.id, a.name, drawn.ru, tuple(drawn.aliases), a.type, a.castle_level,
                                    a.supply, a.crowns, a.garrison, a.home_of, drawn.x, drawn.y)
        self.near: dict[str, frozenset[str]] = {}
        pairs: dict[str, set[str]] = {a: set() for a in self.areas}
        for one, other in facts.borders:
            pairs[one].add(other)
            pairs[other].add(one)
        self.near = {a: frozenset(n) for a, n in pairs.items()}
        self.port_of: dict[str, str] = {}
        """land id → its port id."""
        self.port_sea: dict[str, str] = {}
        """port id → the sea it opens on."""
        for area in self.areas.values():
            if area.is_port:
                land = next(n for n in self.near[area.id] if self.areas[n].is_land)
                sea = next(n for n in self.near[area.id] if self.areas[n].is_sea)
                self.port_of[land] = area.id
                self.port_sea[area.id] = sea

    def __contains__(self, area_id: object) -> bool:
        return area_id in self.areas

    def __getitem__(self, area_id: str) -> Area:
        return self.areas[area_id]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.near.get(a, ())

    def neighbours(self, a: str) -> list[str]:
        return sorted(self.near.get(a, ()))

    def lands(self) -> list[str]:
        return sorted(a for a, v in self.areas.items() if v.is_land)

    def seas(self) -> list[str]:
        return sorted(a for a, v in self.areas.items() if v.is_sea)

    def castles(self) -> list[str]:
        """Lands with a castle or a stronghold."""
        return sorted(a for a, v in self.areas.items() if v.castle_level > 0)

    def land_of(self, port: str) -> str:
        return next(n for n in self.near[port] if self.areas[n].is_land)

    def ship_sites(self, land: str) -> list[str]:
        """Where a ship bought at ``land`` may be put: its port, and the seas it borders
        (base rules: a ship is mustered in a port or an adjacent sea area)."""
        sites = [n for n in self.near[land] if self.areas[n].is_sea]
        if land in self.port_of:
            sites.append(self.port_of[land])
        return sorted(sites)


@cache
def board() -> Board:
    return Board()


def check_rules(rules: Rules, b: Board) -> None:
    """The rules data fit the board: each house's home is the area the board data mark as its
    home, every holy token names a unit kind that can serve it, and the starting position of
    ``data/setup.toml`` (or the table's own, laid over it) is one a game can start from
    (ruling T26)."""
    homes = {a.home_of: a.id for a in b.areas.values() if a.home_of}
    for hid, house in rules.houses.items():
        if house.home not in b or not b[house.home].is_land:
            raise DataError(f"rules: houses.{hid}.home: '{house.home}' is not a land of the board")
        if homes.get(hid, house.home) != house.home:
            raise DataError(f"rules: houses.{hid}.home: the board data give '{homes[hid]}' as its home, "
                            f"not '{house.home}'")
    for holy in rules.holy:
        if (holy.terrain == "sea") != (holy.unit == "ship"):
            raise DataError(f"rules: holy.{holy.id}: a sea token is served by ships, a land token by land units")
    check_setup(rules, b)


def _refused(at: str, ru: str, en: str) -> DataError:
    """A setup refusal for the table that edits the file: the entry, then Russian and English."""
    return DataError(f"rules: {at}: {ru} / {en}")


def check_setup(rules: Rules, b: Board) -> None:
    """What ``new`` refuses in a starting position, each named by its entry: units in an area the
    board does not have; land units at sea or in a port, ships on land; a ship in the port of a
    land its house does not hold; an area twice in one house's list; two houses in one area; a
    house in another house's home or in an area of a neutral force; armies over the house's supply
    limit («Все правила снабжения ... остаются в силе»)."""
    from voevoda.rulesets.thrones.state import fits_supply

    homes = {house.home: hid for hid, house in rules.houses.items()}
    taken: dict[str, str] = {}
    limits = rules.supply.limits
    kinds_ru = {"land": "на суше", "sea": "в море", "port": "в порту"}
    for hid, house in rules.setup.houses.items():
        where = f"setup.houses.{hid}.units"
        held = {rules.houses[hid].home}
        seen: set[str] = set()
        for i, place in enumerate(house.units):
            at = f"{where}.{i} ({place.area})"
            if place.area not in b:
                raise _refused(at, f"на поле нет области «{place.area}»", f"no area '{place.area}' on the board")
            if place.area in seen:
                raise _refused(at, "область названа дважды; дайте все войска в ней одной строкой",
                               "the area is listed twice; give all its units in one entry")
            seen.add(place.area)
            area = b[place.area]
            for kind, n in place.units().items():
                if n and (kind in LAND_UNITS) != area.is_land:
                    stats = rules.units[kind]
                    raise _refused(at, f"{stats.name_ru} не может стоять {kinds_ru[area.type]}",
                                   f"a {stats.name_en} cannot stand in a {area.type}")
            if place.area in taken and taken[place.area] != hid:
                other = rules.houses[taken[place.area]]
                raise _refused(at, f"там уже стоит дом {other.name_ru}", f"house {taken[place.area]} starts there too")
            owner = homes.get(place.area)
            if owner is not None and owner != hid:
                raise _refused(at, f"это родовая земля дома {rules.houses[owner].name_ru}",
                               f"it is the home of house {owner}")
            if owner is None and area.garrison:
                raise _refused(at, f"её держит нейтральный гарнизон {area.garrison}",
                               f"a neutral force of {area.garrison} holds it at the start")
            if any(place.units().values()):
                taken[place.area] = hid
                held.add(place.area)
        for place in house.units:
            if b[place.area].is_port and b.land_of(place.area) not in held:
                land = b.land_of(place.area)
                raise _refused(f"{where} ({place.area})",
                               f"корабль в порту земли, которой дом не владеет ({b[land].name_ru})",
                               f"a ship stands in the port of a land house {hid} does not hold ({land})")
        level = house.supply
        if level is None:
            level = min(sum(b[a].supply for a in held), len(limits) - 1)
        sizes = sorted((n for n in (sum(p.units().values()) for p in house.units) if n >= 2), reverse=True)
        if not fits_supply(sizes, limits[level]):
            raise _refused(where, f"армии {sizes} больше предела снабжения на делении {level} ({limits[level]})",
                           f"armies of {sizes} are over the supply limit of position {level} ({limits[level]})")
