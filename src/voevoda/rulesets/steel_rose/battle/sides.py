"""From posts to the engine's input: both sides' deployments and plans, checked together.

Used by the battle-mode ruleset and by the battle file of ``voevoda battle`` / ``voevoda odds``
(its format is in docs/steel_rose/battle.md).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voevoda.core.bounds import plain_problem
from voevoda.core.errors import DataError, Problem, illegal, invalid
from voevoda.core.words import counted
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.posts import (
    Deployment,
    UnitNames,
    check_powder_stock,
    default_garrison_deployment,
    parse_deployment,
    parse_plan,
)
from voevoda.rulesets.steel_rose.rules import Rules

MAX_UNITS = 10_000
"""The most units of one type a side may bring (an army, a garrison's extra troops)."""
MAX_MODIFIER = 1000.0


def side_problem(where: str, side: Mapping[str, Any], rules: Rules | None = None) -> str | None:
    """What is wrong with one side of a battle file or a battle game's config, bounds
    included: ``army`` a table of known units and counts 0..MAX_UNITS, ``gunpowder`` a count,
    ``modifiers`` a table of numbers, ``garrison`` a table with its level. ``None`` when sound."""
    army = side.get("army")
    if army is not None:
        if not isinstance(army, Mapping):
            return f"{where}.army: expected a table of unit = count"
        for uid, count in army.items():
            if rules is not None and uid not in rules.units:
                return f"{where}.army.{uid}: unknown unit (known: {', '.join(sorted(rules.units))})"
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_UNITS:
                return f"{where}.army.{uid}: expected a whole number of units from 0 to {MAX_UNITS:,}"
    gunpowder = side.get("gunpowder")
    if gunpowder is not None and (not isinstance(gunpowder, int) or isinstance(gunpowder, bool)
                                  or not 0 <= gunpowder <= 10**9):
        return f"{where}.gunpowder: expected a whole number >= 0"
    modifiers = side.get("modifiers", {})
    if not isinstance(modifiers, Mapping):
        return f"{where}.modifiers: expected a table of name = number"
    for key, value in modifiers.items():
        if not isinstance(value, int | float) or isinstance(value, bool) or not -MAX_MODIFIER <= value <= MAX_MODIFIER:
            return f"{where}.modifiers.{key}: expected a number from {-MAX_MODIFIER:g} to {MAX_MODIFIER:g}"
    garrison = side.get("garrison")
    if garrison is not None:
        if not isinstance(garrison, Mapping):
            return f"{where}.garrison: expected {{ faction = ..., level = 1..3, large = false }}"
        if not isinstance(garrison.get("large", False), bool):
            return f"{where}.garrison.large: expected true or false"
        level = garrison.get("level", 1)
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 100:
            return f"{where}.garrison.level: expected a whole number"
    faction = side.get("faction")
    if faction is not None and (not isinstance(faction, str) or (rules is not None and faction not in rules.factions)):
        known = f" (known: {', '.join(sorted(rules.factions))})" if rules is not None else ""
        return f"{where}.faction: unknown faction{known}"
    return None


def army_faction(units: Mapping[str, int], rules: Rules) -> str:
    """The faction most of an army's units belong to (a tie goes to the first in the data)."""
    counts: dict[str, int] = {}
    for uid, n in units.items():
        f = rules.units[uid].faction
        counts[f] = counts.get(f, 0) + n
    if not counts:
        return "empire"
    order: list[str] = list(rules.factions)
    return max(counts, key=lambda f: (counts[f], -order.index(f)))


def check_army(squads: list[SquadInput], army: Mapping[str, int] | None, rules: Rules) -> list[Problem]:
    """A deployment may place only the units the army has (units left out stay in reserve). The
    squads are taken in the post's order: a squad the army has not enough units left for is
    refused on its line, and the units it names are not counted (issue 30: a shared budget is
    refused line by line, the rest of the post stands)."""
    if army is None:
        return []
    placed: dict[str, int] = {}
    problems = []
    for s in squads:
        over = [(uid, placed.get(uid, 0) + n) for uid, n in s.units.items() if placed.get(uid, 0) + n > int(army.get(uid, 0))]
        for uid, n in over:
            have = int(army.get(uid, 0))
            unit = rules.units[uid]
            name = unit.name_ru.lower()
            problems.append(illegal(
                f"расставлено {counted(n, name)}, а в армии {'только ' + counted(have, name) if have else 'их нет'}",
                f"{n} {unit.name_en} placed, but the army has {have}", s.line or None, None, None, "Расстановка"))
        if not over:
            for uid, n in s.units.items():
                placed[uid] = placed.get(uid, 0) + n
    return problems


@dataclass
class SideSpec:
    """One side as a battle file or a game config describes it."""

    name: str
    faction: str | None = None
    army: dict[str, int] | None = None
    garrison: dict[str, Any] | None = None
    deployment: str | None = None
    plan: str | None = None
    gunpowder: int | None = None
    modifiers: dict[str, float] = field(default_factory=dict)

    def units(self, rules: Rules) -> dict[str, int] | None:
        """The units the side may place: its army, or the city's garrison plus the army that
        defends the city («ваша армия временно прибавится к гарнизону»)."""
        if self.garrison is not None:
            g = self.garrison
            units = rules.garrison(str(g.get("faction", self.faction)), int(g.get("level", 1)),
                                   bool(g.get("large", False)))
            for uid, n in (self.army or {}).items():
                units[uid] = units.get(uid, 0) + n
            return units
        return self.army


def read_deployment(spec: SideSpec, rules: Rules, names: UnitNames) -> Deployment:
    """The side's deployment post read, or the garrison's default placement when its owner
    gave none («мастер просто поставит стрелков в центральный арьергард...»)."""
    units = spec.units(rules)
    if spec.deployment is None or not spec.deployment.strip():
        if spec.garrison is None or units is None:
            return Deployment(problems=[invalid("нет поста с расстановкой", "no deployment post",
                                                None, None, None, "Расстановка")])
        return Deployment(squads=default_garrison_deployment(units, rules), gunpowder=spec.gunpowder)
    dep = parse_deployment(spec.deployment, rules, names)
    dep.problems.extend(check_army(dep.squads, units, rules))
    if dep.gunpowder is None:
        dep.gunpowder = spec.gunpowder
        dep.problems.extend(check_powder_stock(dep.powder, dep.gunpowder))
    return dep


def build_sides(specs: tuple[SideSpec, SideSpec], rules: Rules) -> tuple[tuple[SideInput, SideInput],
                                                                         list[list[Problem]]]:
    """Both sides read and checked; ``problems[i]`` lists side ``i``'s mistakes. A side whose
    army, faction or garrison the rules do not know is refused (DataError) before any of it."""
    for role, spec in zip(("attacker", "defender"), specs, strict=True):
        problem = side_problem(f"[{role}]", {"army": spec.army, "faction": spec.faction,
                                             "garrison": spec.garrison}, rules)
        if problem:
            raise DataError(problem)
    names = UnitNames(rules)
    deps = [read_deployment(s, rules, names) for s in specs]
    problems: list[list[Problem]] = [list(d.problems) for d in deps]
    plans = []
    for i, spec in enumerate(specs):
        text = spec.plan or ""
        # the enemy's deployment counts only when all of it was read: a line of it refused is
        # the enemy's error, never this side's («у противника нет отряда…»)
        enemy = None if deps[1 - i].problems else deps[1 - i].squads
        plan = parse_plan(text, rules, deps[i].squads, enemy)
        problems[i].extend(plan.problems)
        plans.append(plan)
    # «Для ускорения игры при битве с [гарнизоном] (но не с вражеской армией) атакующий имеет
    # право пропустить фазу планирования. Ни одна из сторон в таком случае просто не использует
    # манёвры.»
    skip = any(specs[1 - i].garrison is not None and (plans[i].skip or not (specs[i].plan or "").strip())
               for i in range(2))
    sides = []
    for i, spec in enumerate(specs):
        squads = deps[i].squads
        all_units: dict[str, int] = {}
        for s in squads:
            for u, n in s.units.items():
                all_units[u] = all_units.get(u, 0) + n
        faction = spec.faction or (str(spec.garrison.get("faction")) if spec.garrison else None) \
            or army_faction(all_units, rules)
        sides.append(SideInput(spec.name, faction, tuple(squads),
                               () if skip else tuple(plans[i].manoeuvres),
                               deps[i].gunpowder, spec.garrison is not None, dict(spec.modifiers),
                               tuple(deps[i].powder), tuple(deps[i].notes)))
    return (sides[0], sides[1]), problems


# --------------------------------------------------------------------------- battle files

@dataclass
class BattleFile:
    path: Path
    specs: tuple[SideSpec, SideSpec]
    options: BattleOptions
    seed: str | None
    text: str

    def line_of(self, side: int, key: str, line: int | None) -> int | None:
        """The file line of line ``line`` of side ``side``'s post ``key``."""
        if line is None:
            return None
        post = getattr(self.specs[side], key)
        if not post:
            return None
        if not post.strip():
            return None
        # the post's first line, searched after its side's table and key
        start = self.text.find(f"[{('attacker', 'defender')[side]}]")
        start = self.text.find(key, max(start, 0))
        at = self.text.find(post.strip("\n").splitlines()[0], max(start, 0))
        if at < 0:
            return None
        first_nonblank = next(i for i, ln in enumerate(post.splitlines(), 1) if ln.strip())
        return self.text[:at].count("\n") + 1 + (line - first_nonblank)


_SIDE_KEYS = {"name", "faction", "army", "garrison", "deployment", "plan", "gunpowder", "modifiers"}


def load_battle_file(path: Path) -> BattleFile:
    """Read a battle file (TOML with ``[attacker]`` and ``[defender]``); a bad field is
    refused with its name."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc
    return battle_from_text(text, path)


def battle_from_text(text: str, path: Path) -> BattleFile:
    """A battle file's text (pasted into a chat, sent to a form), read as :func:`load_battle_file`
    reads the file; ``path`` names it in errors."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from exc
    except (RecursionError, ValueError) as exc:
        raise DataError(f"{path}: nested too deeply or a number too long ({type(exc).__name__})") from exc
    problem = plain_problem(raw)
    if problem:
        raise DataError(f"{path}: {problem}")
    specs = []
    for role in ("attacker", "defender"):
        table = raw.get(role)
        if not isinstance(table, dict):
            raise DataError(f"{path}: [{role}]: missing table (a battle file needs [attacker] and [defender])")
        unknown = set(table) - _SIDE_KEYS
        if unknown:
            raise DataError(f"{path}: [{role}].{sorted(unknown)[0]}: unknown field "
                            f"(known: {', '.join(sorted(_SIDE_KEYS))})")
        for key in ("name", "faction", "deployment", "plan"):
            if key in table and not isinstance(table[key], str):
                raise DataError(f"{path}: [{role}].{key}: expected text")
        problem = side_problem(f"[{role}]", table)
        if problem:
            raise DataError(f"{path}: {problem}")
        army = table.get("army")
        garrison = table.get("garrison")
        if garrison is not None:
            if not isinstance(garrison, dict) or "level" not in garrison:
                raise DataError(f"{path}: [{role}].garrison: expected {{ faction = ..., level = 1..3, large = false }}")
            if garrison.get("level") not in (1, 2, 3):
                raise DataError(f"{path}: [{role}].garrison.level: expected 1, 2 or 3")
            if "faction" not in garrison and "faction" not in table:
                raise DataError(f"{path}: [{role}].garrison.faction: missing")
        if garrison is None and not table.get("deployment"):
            raise DataError(f"{path}: [{role}].deployment: missing (only a garrison may omit it)")
        specs.append(SideSpec(
            name=str(table.get("name", "Атакующий" if role == "attacker" else "Защитник")),
            faction=table.get("faction"), army=army, garrison=garrison,
            deployment=table.get("deployment"), plan=table.get("plan"), gunpowder=table.get("gunpowder"),
            modifiers={str(k): float(v) for k, v in table.get("modifiers", {}).items()}))
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise DataError(f"{path}: [options]: expected a table")
    known = set(BattleOptions.__dataclass_fields__)
    for key in options:
        if key not in known:
            raise DataError(f"{path}: [options].{key}: unknown option (known: {', '.join(sorted(known))})")
    seed = raw.get("seed")
    return BattleFile(path, (specs[0], specs[1]), BattleOptions.from_config(options),
                      str(seed) if seed is not None else None, text)


def battle_inputs(raw: Any, rules: Rules) -> tuple[SideInput, SideInput]:
    """The two sides a battle event records (``SideInput.to_json`` each), read back for
    ``voevoda verify`` to fight the battle again (docs/dice.md §5). Data a forger could
    have written is bounded first: known factions, units and positions, at most MAX_UNITS
    of a unit type in a side, modifiers within ±MAX_MODIFIER; ValueError names the field."""
    if not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(s, Mapping) for s in raw):
        raise ValueError("sides: expected the two sides of the battle")
    sides = []
    for index, entry in enumerate(raw):
        where = f"sides/{index}"
        try:
            side = SideInput.from_json(dict(entry))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{where}: not a side of a battle ({exc!r})") from exc
        if side.faction not in rules.factions:
            raise ValueError(f"{where}/faction: unknown faction {side.faction!r}")
        units: dict[str, int] = {}
        for number, squad in enumerate(side.squads):
            if squad.position not in fld.POSITIONS:
                raise ValueError(f"{where}/squads/{number}/position: unknown position {squad.position!r}")
            for uid, count in squad.units.items():
                if uid not in rules.units or count < 0:
                    raise ValueError(f"{where}/squads/{number}/units/{uid}: unknown unit or a negative count")
                units[uid] = units.get(uid, 0) + count
        problem = side_problem(where, {"army": units, "gunpowder": side.gunpowder,
                                       "modifiers": side.modifiers}, rules)
        if problem:
            raise ValueError(problem)
        sides.append(side)
    return sides[0], sides[1]
