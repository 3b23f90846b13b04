"""Questions the rules ask of a game in progress: what a country holds and what it earns
from it, what each thing costs it, who is at war with whom, how far the sea carries.

:class:`World` binds the rules, the options, the typed state and the map's geometry; the
roll, the order planner and the turn all ask it the same questions, so that a price echoed
to a player is the price the turn charges.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from voevoda.rulesets.new_worlds.mapdata import Grid
from voevoda.rulesets.new_worlds.rules import Boost, Epoch, Options, ReligionForm, Rules
from voevoda.rulesets.new_worlds.state import Country, NWState, War

T = TypeVar("T")


@dataclass
class Unit:
    """One unit of a resource a country has: a deposit on its land, or one bought by a deal."""

    resource: str
    tile: str | None = None        # None: bought
    seller: str | None = None
    deal: int | None = None
    bonus: int = 0
    attack: int = 0
    defense: int = 0
    why: list[str] = field(default_factory=list)        # the multipliers' reasons: unique, religion:<id>
    multiplier: int = 1                                  # a bought unit's bonus multiplier
    boost: list[str] = field(default_factory=list)      # what raised the roll bonus: with:<resource>, factory


@dataclass
class Holdings:
    """The resources a country has this turn, each unit with the bonus it gives."""

    units: list[Unit]

    def count(self, resource: str) -> int:
        return sum(1 for u in self.units if u.resource == resource)

    def roll_bonus(self) -> int:
        return sum(u.bonus for u in self.units)

    def attack(self) -> int:
        return sum(u.attack for u in self.units)

    def defense(self) -> int:
        return sum(u.defense for u in self.units)


@dataclass
class World:
    rules: Rules
    options: Options
    state: NWState
    grid: Grid
    frozen: bool = False
    """True while nothing changes the state (planning, views, the computer opponent): answers
    are then remembered."""
    cache: dict[object, object] = field(default_factory=dict)

    # -- epoch and visibility -------------------------------------------------------------------

    @property
    def epoch(self) -> Epoch:
        return self.rules.epoch(self.state.epoch)

    def epoch_reached(self, epoch_id: str) -> bool:
        return self.rules.epoch_index(self.state.epoch) >= self.rules.epoch_index(epoch_id)

    def resource_visible(self, resource: str) -> bool:
        """«Новые типы ресурсов появляются на карте по мере смены эпох»: a deposit shows from
        the epoch its resource appears in; slaves only appear by capture."""
        spec = self.rules.resources[resource]
        if spec.on_capture_only:
            return self.epoch.slaves
        appears = self.rules.resource_epoch(resource)
        return appears is not None and self.epoch_reached(appears)

    def valuable(self, tile: str) -> bool:
        """A tile with a city or a resource one can see now: what «до 2 ресурсов/городов»
        counts."""
        t = self.state.tiles.get(tile)
        res = self.state.deposits.get(tile)
        return (t is not None and t.city is not None) or (res is not None and self.resource_visible(res))

    def tile_open(self, tile: str) -> bool:
        region = self.grid.region(tile)
        return region is None or region in self.state.map.open_regions

    def remembered(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """``compute()``, remembered while the world is frozen (nothing changes the state)."""
        if not self.frozen:
            return compute()
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]  # type: ignore[return-value]

    # -- relations ----------------------------------------------------------------------------------

    def country(self, cid: str) -> Country:
        return self.state.countries[cid]

    def at_war(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` fight: a war between them, or an invader against any country
        outside its own event."""
        if self.state.war_between(a, b) is not None:
            return True
        return self.invader_war(a, b)

    def invader_war(self, a: str, b: str) -> bool:
        ca, cb = self.state.countries.get(a), self.state.countries.get(b)
        if ca is None or cb is None or not ca.alive or not cb.alive:
            return False
        if ca.kind in ("invader", "tributary") and cb.kind in ("invader", "tributary"):
            return False
        for inv, other in ((ca, cb), (cb, ca)):
            if inv.kind in ("invader", "tributary"):
                return not (other.khagan_tributary and inv.event == "khaganate")
        return False

    def continents_of(self, cid: str) -> set[str]:
        key = ("continents", cid)
        if self.frozen and key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        found = {c for t, v in self.state.tiles.items() if v.owner == cid
                 for c in (self.grid.continent(t),) if c is not None}
        if self.frozen:
            self.cache[key] = found
        return found

    def enemies(self, cid: str) -> list[str]:
        out = {w.defender if w.attacker == cid else w.attacker for w in self.state.wars_of(cid)}
        for other in self.state.countries:
            if other != cid and self.invader_war(cid, other):
                out.add(other)
        return sorted(out)

    def in_war(self, cid: str) -> bool:
        """«в состоянии Мира» is its opposite: a war of the country's own, or event invaders on a
        continent where it has land (ruling R25; invaders elsewhere may be fought, but do not
        end its peace)."""
        if self.state.wars_of(cid):
            return True
        mine = self.continents_of(cid)
        return any(self.invader_war(cid, other) and mine & self.continents_of(other)
                   for other in self.state.countries if other != cid)

    def religion_form(self, country: Country) -> ReligionForm | None:
        if country.religion is None:
            return None
        return self.rules.religions[country.religion].form(country.upgraded)

    def has_project(self, country: Country, project_id: str) -> bool:
        branch, index, _ = self.rules.project(project_id)
        return country.research.get(branch, 0) > index

    # -- resources --------------------------------------------------------------------------------

    def factories(self, cid: str) -> list[tuple[str, str]]:
        return [(t, v.factory) for t, v in self.state.tiles.items()
                if v.owner == cid and v.building == "factory" and v.factory is not None]

    def deposits_of(self, cid: str) -> list[tuple[str, str]]:
        """(tile, resource) of the visible deposits on the country's tiles, in reading order."""
        out = [(t, r) for t, r in self.state.deposits.items()
               if self.state.owner(t) == cid and self.resource_visible(r)]
        return sorted(out, key=lambda tr: self.grid.index(tr[0]))

    def traded(self, cid: str) -> tuple[Counter[str], list[tuple[str, str, int]]]:
        """What the country gives away by deals (resource -> units) and what it buys
        ([(resource, seller, deal id)], oldest deal first)."""
        given: Counter[str] = Counter()
        bought: list[tuple[str, str, int]] = []
        for d in sorted(self.state.deals, key=lambda d: d.id):
            if d.a == cid:
                given[d.a_gives] += 1
                bought.append((d.b_gives, d.b, d.id))
            elif d.b == cid:
                given[d.b_gives] += 1
                bought.append((d.a_gives, d.a, d.id))
        return given, bought

    def free_units(self, cid: str, resource: str) -> int:
        """Units of ``resource`` on the country's land not already given away by a deal."""
        given, _ = self.traded(cid)
        own = sum(1 for _, r in self.deposits_of(cid) if r == resource)
        return own - given[resource]

    def holdings(self, cid: str) -> Holdings:
        """Every unit of every resource the country has, with its bonus (section «Ресурсы»,
        IV «Торговля», V «Религия», IX «Искусственный спрос»)."""
        key = ("holdings", cid)
        if self.frozen and key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        found = self._holdings(cid)
        if self.frozen:
            self.cache[key] = found
        return found

    def _holdings(self, cid: str) -> Holdings:
        country = self.state.countries[cid]
        own = self.deposits_of(cid)
        slaves = "slaves" if "slaves" in self.rules.resources else None
        if slaves is not None and self.epoch.slaves:
            for t, v in sorted(self.state.tiles.items(), key=lambda tv: self.grid.index(tv[0])):
                if v.owner == cid and v.slaves:
                    own.extend((t, slaves) for _ in range(v.slaves))
        given, bought = self.traded(cid)
        own_counts = Counter(r for _, r in own)
        has = set(own_counts) | {r for r, _, _ in bought}
        factories = self.factories(cid)
        units: list[Unit] = []
        for tile, res in own:
            spec = self.rules.resources[res]
            unit = Unit(res, tile=tile, bonus=spec.bonus, attack=spec.attack, defense=spec.defense)
            continent = self.grid.continent(tile)
            for boost in spec.boosts:
                if boost.with_ is not None:
                    held = own_counts[boost.with_] > 0 if boost.controlled else boost.with_ in has
                    if not held:
                        continue
                if boost.factory and not any(kind == spec.factory and self.grid.continent(ft) == continent
                                             for ft, kind in factories):
                    continue
                if self._apply_boost(unit, boost.bonus, boost.attack, boost.defense):
                    unit.boost = self._boost_reasons(boost)
            units.append(unit)
        # «Обменивая ресурс, игрок теряет его бонус»: the units given away are those worth least.
        for res, n in given.items():
            mine = sorted((u for u in units if u.resource == res), key=lambda u: (u.bonus + u.attack, u.tile or ""))
            for u in mine[:n]:
                units.remove(u)
        unique_left = 2 if self.has_project(country, "artificial_demand") else 1
        seen_bought: set[str] = set()
        form = self.religion_form(country)
        for res, seller, deal_id in bought:
            spec = self.rules.resources[res]
            unit = Unit(res, seller=seller, deal=deal_id, bonus=spec.bonus, attack=spec.attack, defense=spec.defense)
            for boost in spec.boosts:
                if boost.factory or boost.controlled:
                    continue
                if boost.with_ is not None and boost.with_ not in has:
                    continue
                if self._apply_boost(unit, boost.bonus, boost.attack, boost.defense):
                    unit.boost = self._boost_reasons(boost)
            multipliers: list[int] = []
            # «Все ресурсы, кроме металлов, дают двойной бонус, если они уникальны для страны
            # игрока. Ресурс не считается уникальным, если он присутствует на территории страны
            # или уже закупается.»
            if not spec.metal and own_counts[res] == 0 and res not in seen_bought and unique_left > 0:
                multipliers.append(2)
                unique_left -= 1
                unit.why.append("unique")
            seen_bought.add(res)
            seller_country = self.state.countries.get(seller)
            if form is not None and seller_country is not None and seller_country.religion in form.trade_with:
                m = form.trade_metal_multiplier if spec.metal else form.trade_multiplier
                if m > 1:
                    multipliers.append(m)
                    unit.why.append(f"religion:{country.religion}")
            factor = self._combine(multipliers)
            unit.multiplier = int(factor)
            unit.bonus, unit.attack, unit.defense = (int(unit.bonus * factor), int(unit.attack * factor),
                                                     int(unit.defense * factor))
            units.append(unit)
        return Holdings(units)

    @staticmethod
    def _apply_boost(unit: Unit, bonus: int | None, attack: int | None, defense: int | None) -> bool:
        """Raise the unit to the boost's values; whether its roll bonus rose."""
        raised = bonus is not None and bonus > unit.bonus
        if bonus is not None and bonus > unit.bonus:
            unit.bonus = bonus
        if attack is not None and attack > unit.attack:
            unit.attack = attack
        if defense is not None and defense > unit.defense:
            unit.defense = defense
        return raised

    @staticmethod
    def _boost_reasons(boost: Boost) -> list[str]:
        return [*([f"with:{boost.with_}"] if boost.with_ else []), *(["factory"] if boost.factory else [])]

    def _combine(self, multipliers: list[int]) -> float:
        if not multipliers:
            return 1
        if self.options.trade_multipliers == "add":
            return 1 + sum(m - 1 for m in multipliers)
        return math.prod(multipliers)

    # -- prices ---------------------------------------------------------------------------------

    def discount(self, cid: str, upgrade: bool = False) -> int:
        """«Драгоценности: -1 к стоимости построек и их улучшения»; «Дуализм: -4 к цене построек
        в состоянии Мира» (upgraded: -9, upgrades too)."""
        country = self.state.countries[cid]
        units = self.holdings(cid).units
        total = sum(self.rules.resources[u.resource].building_discount for u in units)
        form = self.religion_form(country)
        if form is not None and form.peace_building_discount and not self.in_war(cid) and (
                not upgrade or form.peace_discount_upgrades):
            total += form.peace_building_discount
        return total

    def floor(self, price: int) -> int:
        return max(self.rules.prices.floor, price)

    def city_price(self, cid: str, cities: int | None = None) -> int:
        """«Постройка города стоит 5+n*2, где n — это количество контролируемых городов»; less
        a point per slave («-1 к стоимости постройки города за 1 точку») and the discounts."""
        p = self.rules.prices
        n = len(self.city_tiles(cid)) if cities is None else cities
        slaves = sum(self.rules.resources[u.resource].city_discount for u in self.holdings(cid).units)
        return self.floor(p.city_base + p.city_step * n - slaves - self.discount(cid))

    def upgrade_price(self, cid: str, level: int, done: int | None = None) -> int:
        """The price of raising a city to ``level`` upgrades (option city_upgrade_cost)."""
        p = self.rules.prices
        if done is None:
            done = sum(1 for t in self.city_tiles(cid) if (self.state.tiles[t].city or 0) >= level)
        if self.options.city_upgrade_cost == "buildings":
            base = p.upgrade_base_buildings + p.upgrade_step_buildings * done
        else:
            base = p.upgrade_base + p.upgrade_step * done
        return self.floor(base - self.discount(cid, upgrade=True))

    def port_price(self, cid: str) -> int:
        return self.floor(self.rules.prices.port - self.discount(cid))

    def university_price(self, cid: str, owned: int | None = None, free_used: int | None = None) -> int:
        """«10+n*5, где n - это количество контролируемых Университетов»; «Бесплатный
        университет» of Absolute Harmony: a country with fewer universities than its free ones
        builds the next for nothing."""
        p = self.rules.prices
        n = len(self.state.buildings_of(cid, "university")) if owned is None else owned
        form = self.religion_form(self.state.countries[cid])
        if form is not None and n < form.free_universities:
            return 0
        return self.floor(p.university_base + p.university_step * n - self.discount(cid))

    def factory_price(self, cid: str, owned: int | None = None) -> int:
        p = self.rules.prices
        n = len(self.state.buildings_of(cid, "factory")) if owned is None else owned
        return self.floor(p.factory_base + p.factory_step * n - self.discount(cid))

    def refocus_price(self, cid: str) -> int:
        """«За половину стоимости постройки завода»: half the price of the next factory before
        discounts, rounded up (ruling R9)."""
        p = self.rules.prices
        n = len(self.state.buildings_of(cid, "factory"))
        return math.ceil((p.factory_base + p.factory_step * n) * p.factory_refocus_percent / 100)

    def city_capture_price(self, upgrades: int) -> int:
        c = self.rules.capture
        return c.city + c.per_upgrade * upgrades

    def capture_price(self, tile: str) -> int:
        """What taking ``tile`` from its owner costs: a territory, or a city by its upgrades;
        with the owner's Fortifications, «Цена захвата территорий вокруг города теперь равна
        цене захвата самого города», the highest such city when several (FAQ)."""
        t = self.state.tiles.get(tile)
        if t is None or t.owner is None:
            return self.rules.prices.territory
        price = self.city_capture_price(t.city) if t.city is not None else self.rules.capture.territory
        owner = self.state.countries.get(t.owner)
        if owner is not None and self.has_project(owner, "fortifications"):
            for near in self.grid.within(tile, 1):
                other = self.state.tiles.get(near)
                if other is not None and other.owner == t.owner and other.city is not None:
                    price = max(price, self.city_capture_price(other.city))
        return price

    # -- the sea ----------------------------------------------------------------------------------

    def has_port(self, cid: str) -> bool:
        return any(v.owner == cid and v.building == "port" for v in self.state.tiles.values())

    def water_step(self, cid: str, tile: str, port: bool | None = None) -> int | None:
        """The price of crossing one water tile, or ``None`` when it cannot be crossed:
        «по прибрежным территориям за 3Т», «Торговый Порт уменьшает цену … до 1Т», «по
        океаническим тайлам за 4Т … при наличии Торгового Порта» from the Renaissance."""
        kind = self.grid.kind(tile)
        if not self.tile_open(tile):
            return None
        has_port = self.has_port(cid) if port is None else port
        if kind == "sea":
            return self.rules.sea.coastal_with_port if has_port else self.rules.sea.coastal
        if kind == "ocean":
            return self.rules.sea.ocean if (self.epoch.ocean_travel and has_port) else None
        return None

    def reach(self, cid: str, target: str, land: set[str], port: bool | None = None) -> tuple[int, list[str]] | None:
        """How ``target`` can be reached from the country's ``land``: (0, []) when it touches
        that land, else (the price of the cheapest voyage from a coast of it across water to a
        water tile touching ``target``, the water tiles it crosses in order; none when the
        voyage is paid per trip); ``None`` when out of reach (ruling R3)."""
        grid = self.grid
        if any(n in land for n in grid.neighbours(target)):
            return 0, []
        goal = [w for w in grid.neighbours(target) if grid.is_water(w)]
        if not goal:
            return None
        has_port = self.has_port(cid) if port is None else port
        if self.options.sea_cost == "per_trip":
            # «за 3Т» for the whole voyage: the price of the dearest kind of water it must cross
            coastal = self.rules.sea.coastal_with_port if has_port else self.rules.sea.coastal
            if any(g in self._sea_map(land, has_port, oceans=False) for g in goal):
                return coastal, []
            if any(g in self._sea_map(land, has_port, oceans=True) for g in goal):
                return max(coastal, self.rules.sea.ocean), []
            return None
        dist = self._sea_map(land, has_port, oceans=True)
        found = [g for g in goal if g in dist]
        if not found:
            return None
        end = min(found, key=lambda g: (dist[g], grid.index(g)))
        came = self._sea_paths(land, has_port)
        path = [end]
        while path[-1] in came:
            path.append(came[path[-1]])
        return dist[end], path[::-1]

    def voyage(self, cid: str, path: list[str], port: bool | None = None) -> list[tuple[str, int]]:
        """Each water tile of a voyage with its price (R3: 3 a coastal tile, 1 with a port, 4
        an ocean tile), for a ledger a game master can add up."""
        out = []
        for tile in path:
            step = self.water_step(cid, tile, port)
            out.append((tile, step if step is not None else 0))
        return out

    def _sea_paths(self, land: set[str], port: bool) -> dict[str, str]:
        """The water tile each tile of the cheapest voyages is reached from (see _sea_map)."""
        self._sea_map(land, port, oceans=True)
        return self.cache[("sea-from", frozenset(land), port, True, self.state.epoch,
                           tuple(self.state.map.open_regions))]  # type: ignore[return-value]

    def _sea_map(self, land: set[str], port: bool, oceans: bool) -> dict[str, int]:
        """The price of sailing from the coasts of ``land`` to every water tile it can reach
        (each tile crossed paid once, the first included), remembered for the same land, port,
        epoch and open map, with the tile each was reached from (``sea-from``)."""
        key = ("sea", frozenset(land), port, oceans, self.state.epoch, tuple(self.state.map.open_regions))
        cached = self.cache.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        grid = self.grid
        best: dict[str, int] = {}
        came: dict[str, str] = {}
        frontier: list[tuple[int, int, str]] = []

        def step_of(tile: str) -> int | None:
            if not self.tile_open(tile):
                return None
            kind = grid.kind(tile)
            if kind == "sea":
                return self.rules.sea.coastal_with_port if port else self.rules.sea.coastal
            if kind == "ocean" and oceans and self.epoch.ocean_travel and port:
                return self.rules.sea.ocean
            return None

        for start in {w for t in land for w in grid.neighbours(t) if grid.is_water(w)}:
            step = step_of(start)
            if step is not None and step < best.get(start, step + 1):
                best[start] = step
                heapq.heappush(frontier, (step, grid.index(start), start))
        while frontier:
            cost, _, here = heapq.heappop(frontier)
            if cost > best.get(here, cost):
                continue
            for n in grid.neighbours(here):
                if not grid.is_water(n):
                    continue
                step = step_of(n)
                if step is None:
                    continue
                new = cost + step
                if new < best.get(n, new + 1):
                    best[n] = new
                    came[n] = here
                    heapq.heappush(frontier, (new, grid.index(n), n))
        self.cache[key] = best
        self.cache[("sea-from", *key[1:])] = came
        return best

    # -- counts for the epochs ------------------------------------------------------------------

    def territories(self, cid: str) -> int:
        """«подконтрольных территорий»: land tiles (seas and large mountains are de jure)."""
        return sum(1 for t, v in self.state.tiles.items() if v.owner == cid and self.grid.is_land(t))

    def cities(self, cid: str) -> int:
        return len(self.city_tiles(cid))

    def city_tiles(self, cid: str) -> list[str]:
        return list(self.remembered(("cities", cid), lambda: tuple(self.state.cities_of(cid))))

    def war_of(self, a: str, b: str) -> War | None:
        return self.state.war_between(a, b)

    def side_type(self, war: War, cid: str) -> str:
        return war.attacker_type if war.attacker == cid else war.defender_type

    def other(self, war: War, cid: str) -> str:
        return war.defender if war.attacker == cid else war.attacker

    def land_set(self, cid: str) -> set[str]:
        found = self.remembered(("land", cid), lambda: frozenset(
            t for t, v in self.state.tiles.items() if v.owner == cid and self.grid.is_land(t)))
        return set(found)

    def capital(self, cid: str) -> str | None:
        c = self.state.countries[cid]
        if c.capital and self.state.owner(c.capital) == cid:
            return c.capital
        cities = self.grid.sort(self.state.cities_of(cid))
        if cities:
            return cities[0]
        land = self.state.land_of(cid, self.grid)
        return land[0] if land else None

    def near_city(self, cid: str, tile: str, extra_cities: Iterable[str] = ()) -> bool:
        """«Все дополнительные строения должны быть в радиусе одной клетки от ближайшего города.»"""
        cities = set(self.city_tiles(cid)) | set(extra_cities)
        radius = self.rules.prices.building_radius
        return any(self.grid.distance(tile, c) <= radius for c in cities)


def place_country(world: World, c: Country, tiles: list[str]) -> None:
    """A new country on ``tiles``: the first is its capital; it gets the epoch's starting
    cities («10 стартовых территорий + 1 город»), spread from the capital outward."""
    state = world.state
    grid = world.grid
    for t in tiles:
        state.tile(t).owner = c.id
    cities = world.epoch.start_cities
    placed: list[str] = []
    for t in tiles:
        if len(placed) >= cities:
            break
        if all(grid.distance(t, p) >= 2 for p in placed):
            state.tile(t).city = 0
            placed.append(t)
    c.capital = tiles[0] if tiles else None
