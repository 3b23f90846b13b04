"""A battle description compiled to the kernel's arrays.

The unit table comes from the Steel Rose package's own loader (:func:`load_rules`, house rules
included) and mirrors the exact engine's :class:`UnitTable` field by field; a battle's
deployments, plans, gunpowder and options become small integer arrays. Everything that is the
same in every battle of a batch (powder supply, which manoeuvre each squad carries out, the
free position change) is decided here once, exactly as the exact engine decides it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from voevoda.core.errors import DataError
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.engine import unit_table
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, SideInput
from voevoda.rulesets.steel_rose.battle.powder import supply
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim import kernel as k
from voevoda.sim import unit_fields as uf
from voevoda.sim.unit_fields import unit_fields

SMALL_ROUNDS = 48
"""Rounds of summons the first workspace of a battle has room for (see :func:`compile_battle`)."""

KIND_CODES = {"move": k.K_MOVE, "march": k.K_MARCH, "defend": k.K_DEFEND, "cover": k.K_COVER,
              "charge": k.K_CHARGE, "volley": k.K_VOLLEY, "long_volley": k.K_LONG_VOLLEY}


def position_index(position: str) -> int:
    """``row * 3 + column``: vanguards 0..2, rearguards 3..5 (left, centre, right)."""
    if position not in fld.POSITIONS:
        raise DataError(f"unknown position '{position}' (known: {', '.join(fld.POSITIONS)})")
    return fld.row(position) * 3 + fld.column(position)


@dataclass(frozen=True)
class UnitArrays:
    """The unit table of one set of rules."""

    ids: list[str]
    index: dict[str, int]
    tf: npt.NDArray[np.float64]
    ti: npt.NDArray[np.int64]


_TABLES: dict[int, tuple[Rules, UnitArrays]] = {}


def unit_arrays(rules: Rules) -> UnitArrays:
    cached = _TABLES.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    ids = list(rules.units)
    index = {uid: i for i, uid in enumerate(ids)}
    fields, ints = unit_fields(unit_table(rules))
    tf = np.ascontiguousarray(fields.T)  # the simulator reads tf[type, field]
    ti = np.ascontiguousarray(ints.T)
    table = UnitArrays(ids, index, tf, ti)
    _TABLES[id(rules)] = (rules, table)
    return table


@dataclass(frozen=True)
class Scenario:
    """One battle description, ready for :func:`voevoda.sim.kernel.simulate`."""

    arrays: tuple[npt.NDArray[np.generic], ...]
    types: list[str]
    """Unit ids of the result columns (every type that can take part, summons included)."""
    cap: int
    max_squads: int
    lcap: int
    cap_small: int
    lcap_small: int
    names: tuple[str, str]
    initial: npt.NDArray[np.int64]
    """Units deployed per side and result column (withdrawn ones included)."""
    withdrawn: npt.NDArray[np.int64]
    recovery: npt.NDArray[np.float64]
    recovery_for_loser: bool


def _manoeuvres(side: SideInput, nsq: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Which manoeuvre each squad carries out: the first one written for it; a second «смена
    позиции» is the free one (griffin riders, sabretooths) — as the exact engine reads it."""
    homes = [sq.position for sq in side.squads]
    kind = [k.K_NONE] * nsq
    t0 = [-1] * nsq
    t1 = [-1] * nsq
    free = [-1] * nsq
    taken = [False] * nsq
    for m in side.plan:
        if m.squad not in homes:
            continue
        q = homes.index(m.squad)
        if m.kind not in KIND_CODES:
            raise DataError(f"unknown manoeuvre '{m.kind}' (known: {', '.join(KIND_CODES)})")
        if not taken[q]:
            taken[q] = True
            kind[q] = KIND_CODES[m.kind]
            if m.targets:
                t0[q] = position_index(m.targets[0])
            if len(m.targets) > 1 and m.kind in ("move", "march"):
                t1[q] = position_index(m.targets[1])
        elif m.kind == "move" and m.targets:
            free[q] = position_index(m.targets[0])
    return kind, t0, t1, free


def compile_battle(rules: Rules, sides: tuple[SideInput, SideInput],
                   options: BattleOptions | None = None) -> Scenario:
    """The arrays of one battle description (both sides' deployments and plans)."""
    options = options or BattleOptions()
    table = unit_arrays(rules)
    numbers = rules.battle
    factions = list(rules.factions)
    nt = len(table.ids)
    for side in sides:
        if not side.squads:
            raise DataError(f"side '{side.name}': no squads")
        for sq in side.squads:
            position_index(sq.position)
            for uid, count in sq.units.items():
                if uid not in table.index:
                    raise DataError(f"side '{side.name}': unknown unit '{uid}'")
                if count < 0:
                    raise DataError(f"side '{side.name}': negative count of '{uid}'")
    # unit lists, in deployment order
    types: list[list[int]] = [[], []]
    squads: list[list[int]] = [[], []]
    for s, side in enumerate(sides):
        for q, sq in enumerate(side.squads):
            for uid, count in sq.units.items():
                types[s].extend([table.index[uid]] * count)
                squads[s].extend([q] * count)
    # «ПОРОХ»: the post's shares, then deployment order (the exact engine's own rule)
    withdrawn: list[list[int]] = [[int(w) for w in supply(rules, side).withdrawn] for side in sides]
    # every type that can take part (summons of summons included)
    present: list[int] = sorted({t for s in (0, 1) for t in types[s]})
    frontier = list(present)
    while frontier:
        t = frontier.pop()
        st = int(table.ti[t, uf.TI_SUMMON_TYPE])
        if st >= 0 and st not in present:
            present.append(st)
            frontier.append(st)
    present.sort()
    tmap = np.full(nt, 0, dtype=np.int64)
    for j, t in enumerate(present):
        tmap[t] = j
    # capacity: deployed units plus every summon the battle can make
    summoners = [sum(1 for t in types[s] if table.ti[t, uf.TI_SUMMON_TYPE] >= 0) for s in (0, 1)]
    charges = sum(1 for side in sides for m in side.plan if m.kind == "charge")
    rounds_bound = numbers.max_clash_rounds + numbers.max_final_rounds + 2 * charges * numbers.max_charge_rounds
    caps = [len(types[s]) + (summoners[s] * rounds_bound if options.demonologist_summons_in_battle else 0)
            for s in (0, 1)]
    cap = max(1, max(caps))
    # most battles end long before the round limits: they run on arrays with room for
    # SMALL_ROUNDS rounds of summons, and a battle that needs more is run again on the full size
    # (same dice, same result), which keeps the common case's arrays small
    caps_small = [len(types[s]) + (summoners[s] * min(rounds_bound, SMALL_ROUNDS)
                                   if options.demonologist_summons_in_battle else 0) for s in (0, 1)]
    cap_small = max(1, max(caps_small))
    ms = max(len(sides[0].squads), len(sides[1].squads))
    max_shots = max(1, int(table.ti[:, uf.TI_SHOTS].max()))
    lcap = cap * max_shots + 8
    lcap_small = cap_small * max_shots + 8
    # side numbers: squeamishness, campaign modifiers
    sf = np.zeros((2, 3))
    sqm = np.zeros((2, nt))
    unit_faction = np.asarray([factions.index(rules.units[uid].faction) for uid in table.ids])
    for s, side in enumerate(sides):
        mods = side.modifiers
        damage_mod = 1 + mods.get("damage", 0) / 100
        sf[s, k.SF_DAMAGE] = damage_mod
        sf[s, k.SF_TAKEN] = 1 + mods.get("taken", 0) / 100
        sf[s, k.SF_SHOTS] = 1 + mods.get("shots", 0) / 100
        # «БРЕЗГЛИВОСТЬ»: elves in an army with any unit of another faction
        mixed = len({int(unit_faction[t]) for t in types[s]}) > 1
        for t in range(nt):
            squeam = 1.0
            if mixed:
                squeam = 1 - rules.factions[factions[unit_faction[t]]].squeamish_percent / 100.0
            sqm[s, t] = squeam * damage_mod
    nmax = max(1, len(types[0]), len(types[1]))
    ninit = np.asarray([len(types[0]), len(types[1])], dtype=np.int64)
    itype = np.zeros((2, nmax), dtype=np.int64)
    isq = np.zeros((2, nmax), dtype=np.int64)
    iwd = np.zeros((2, nmax), dtype=np.int64)
    nsq = np.asarray([len(sides[0].squads), len(sides[1].squads)], dtype=np.int64)
    home = np.full((2, ms), -1, dtype=np.int64)
    kind = np.zeros((2, ms), dtype=np.int64)
    t0 = np.full((2, ms), -1, dtype=np.int64)
    t1 = np.full((2, ms), -1, dtype=np.int64)
    free = np.full((2, ms), -1, dtype=np.int64)
    for s, side in enumerate(sides):
        itype[s, : len(types[s])] = types[s]
        isq[s, : len(types[s])] = squads[s]
        iwd[s, : len(types[s])] = withdrawn[s]
        for q, sq in enumerate(side.squads):
            home[s, q] = position_index(sq.position)
        kd, a, b, f = _manoeuvres(side, len(side.squads))
        kind[s, : len(kd)] = kd
        t0[s, : len(kd)] = a
        t1[s, : len(kd)] = b
        free[s, : len(kd)] = f
    p = np.zeros(k.NP)
    p[k.P_FATIGUE] = numbers.fatigue_percent / 100.0
    p[k.P_COVER] = 1 + numbers.cover_percent / 100.0
    p[k.P_OUTNUMBER_RATIO] = numbers.outnumber_ratio
    p[k.P_OUTNUMBER] = 1 + numbers.outnumber_percent / 100.0
    p[k.P_FLANKING] = 1 + numbers.flanking_percent / 100.0
    tf, ti = table.tf, table.ti
    used = np.asarray(present, dtype=np.int64)
    has_aura = bool(np.any(tf[used, uf.TF_SQUAD_DAMAGE] != 1) or np.any(tf[used, uf.TF_SQUAD_TAKEN] != 1))
    has_ring = bool(np.any(ti[used, uf.TI_HEAL_ROUNDS] > 0) or np.any(ti[used, uf.TI_POISON_ROUNDS] > 0)
                    or np.any(ti[used, uf.TI_BURN_ROUNDS] > 0) or np.any(ti[used, uf.TI_BURP_ROUNDS] > 0)
                    or np.any(ti[used, uf.TI_DEBUFF_ROUNDS] > 0))
    pi = np.zeros(k.NPI, dtype=np.int64)
    pi[k.PI_MAX_CLASH] = numbers.max_clash_rounds
    pi[k.PI_MAX_FINAL] = numbers.max_final_rounds
    pi[k.PI_MAX_CHARGE] = numbers.max_charge_rounds
    pi[k.PI_MARCH_FATIGUE] = numbers.forced_march_fatigue
    pi[k.PI_DEFEND_FATIGUE] = numbers.defend_fatigue
    pi[k.PI_PALADIN_WHOLE] = int(options.paladin_defending_whole_battle)
    pi[k.PI_SUMMONS] = int(options.demonologist_summons_in_battle)
    pi[k.PI_OUTNUMBER_FINAL] = int(options.outnumber_in_final_melee)
    pi[k.PI_HAS_AURA] = int(has_aura)
    pi[k.PI_HAS_RING] = int(has_ring)
    pi[k.PI_HAS_REGEN] = int(bool(np.any(tf[used, uf.TF_REGEN] != 0)))
    pi[k.PI_HAS_SAC] = int(bool(np.any(ti[used, uf.TI_SAC_PCT] > 0)))
    pi[k.PI_HAS_HEAL] = int(bool(np.any(ti[used, uf.TI_HEAL_ROUNDS] > 0)))
    pi[k.PI_HAS_BURP] = int(bool(np.any(ti[used, uf.TI_BURP_ROUNDS] > 0)))
    pi[k.PI_HAS_SUMMON] = int(bool(np.any(ti[used, uf.TI_SUMMON_TYPE] >= 0)))
    pi[k.PI_HAS_POISON] = int(bool(np.any(ti[used, uf.TI_POISON_ROUNDS] > 0)))
    # the deployed units that carry a squad aura (hero, archpriest)
    aura_type = (tf[:, uf.TF_SQUAD_DAMAGE] != 1) | (tf[:, uf.TF_SQUAD_TAKEN] != 1)
    carriers = [[i for i, t in enumerate(types[s]) if aura_type[t]] for s in (0, 1)]
    acar = np.zeros((2, 1 + max(len(c) for c in carriers)), dtype=np.int64)
    for s in (0, 1):
        acar[s, 0] = len(carriers[s])
        acar[s, 1: 1 + len(carriers[s])] = carriers[s]
    summoned = [t for t in present if t not in {t2 for side in types for t2 in side}]
    if has_aura:
        pi[k.PI_HAS_AURA] = 2 if any(aura_type[t] for t in summoned) else 1
    arrays = (tf, ti, p, pi, sf, sqm, ninit, itype, isq, iwd, np.zeros(1, dtype=np.int64), nsq, home, kind,
              t0, t1, free, tmap, acar)
    initial = np.zeros((2, len(present)), dtype=np.int64)
    wd = np.zeros((2, len(present)), dtype=np.int64)
    for s in (0, 1):
        for i, t in enumerate(types[s]):
            initial[s, tmap[t]] += 1
            wd[s, tmap[t]] += withdrawn[s][i]
    recovery = np.asarray([rules.recovery(table.ids[t]) for t in present])
    return Scenario(arrays, [table.ids[t] for t in present], cap, ms, lcap, cap_small, lcap_small,
                    (sides[0].name, sides[1].name),
                    initial, wd, recovery, options.recovery_for_loser)
