"""The compiled battle (:mod:`.compiled`) behind :func:`~.engine.fight`: inputs packed into a few
arrays, one kernel call, the dice written back to their streams, and the reference engine's event
log, timeline and summary rebuilt from the kernel's records when the result is first read.

The kernel's capacities (units with summons, effect stacks, events, timeline rows, draws) are
guessed from the battle's size; when one runs out the kernel says which, and the battle is run
again with room enough. The kernel draws its dice itself (SHAKE-256, :mod:`.shake`) and touches
no stream until it has finished, so a rerun is the same battle.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle import compiled as k
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.engine import BattleResult, UnitTable, unit_table
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, Manoeuvre, SideInput
from voevoda.rulesets.steel_rose.battle.unit_fields import unit_fields
from voevoda.rulesets.steel_rose.rules import Rules

IntArray = npt.NDArray[np.int64]

POS = {p: i for i, p in enumerate(fld.POSITIONS)}
KINDS = {"move": k.K_MOVE, "march": k.K_MARCH, "defend": k.K_DEFEND, "cover": k.K_COVER,
         "charge": k.K_CHARGE, "volley": k.K_VOLLEY, "long_volley": k.K_LONG_VOLLEY}
PHASES = ("deployment", "volleys", "charges", "moves", "clash", "final")


_layout: Callable[[int, int, int, int, int], tuple[int, ...]] = k.layout.py_func


def not_compiled_yet(dispatcher: Any) -> bool:
    """True when a ``cache=True`` Numba function is neither compiled in this process nor in
    Numba's cache, so its next call compiles it."""
    if dispatcher.signatures:
        return False
    cache: Any = getattr(dispatcher, "_cache", None)  # Numba's FunctionCache (no public API)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return isinstance(index, str) and not os.path.exists(index)


def needs_compiling() -> bool:
    """True when the kernel is not in Numba's cache yet, so the next battle compiles it (a
    few minutes, once per install): tools say so before a long pause."""
    return not_compiled_yet(k.battle)


class Unsupported(Exception):
    """Inputs the compiled battle does not take (the reference engine runs them)."""


class KernelTable:
    """The unit table as the kernel reads it: ``TF[field, type]``, ``TI[field, type]``."""

    def __init__(self, t: UnitTable) -> None:
        tf, ti = unit_fields(t)
        self.tf = tf
        self.ti = ti
        self.table = t
        self.summoner = t.summon_type >= 0
        # strikes one unit can make in a round or a volley (melee, or shots times units struck)
        self.strikes = int(max(1, t.apr.max(initial=1), (t.shots * np.maximum(t.area_max, 1)).max(initial=1)))


_TABLES: dict[int, tuple[UnitTable, KernelTable]] = {}


def kernel_table(rules: Rules) -> KernelTable:
    t = unit_table(rules)
    cached = _TABLES.get(id(rules))
    if cached is None or cached[0] is not t:
        cached = (t, KernelTable(t))
        _TABLES[id(rules)] = cached
    return cached[1]


# --------------------------------------------------------------------------- inputs

class Plan:
    """One side's squads and the manoeuvre each carries out (as :meth:`Battle._planning` assigns
    them: a squad's first manoeuvre, and a later «смена позиции» as its free move)."""

    def __init__(self, spec: SideInput, table: UnitTable) -> None:
        self.spec = spec
        homes = [sq.position for sq in spec.squads]
        for h in homes:
            if h not in POS:
                raise Unsupported(f"squad position {h!r}")
        self.manoeuvre: list[Manoeuvre | None] = [None] * len(homes)
        free: list[Manoeuvre | None] = [None] * len(homes)
        first: dict[str, int] = {}
        for i, h in enumerate(homes):
            first.setdefault(h, i)
        for m in spec.plan:
            q = first.get(m.squad)
            if q is None:
                continue
            if self.manoeuvre[q] is None:
                self.manoeuvre[q] = m
            elif m.kind == "move":
                free[q] = m
        volley = {m.squad for m in spec.plan if m.kind in ("volley", "long_volley")}
        rows: list[int] = []
        for q, h in enumerate(homes):
            row = [-1] * k.NSIN
            row[k.SIN_HOME] = POS[h]
            row[k.SIN_POWDER] = 1 if h in volley else 0
            own = self.manoeuvre[q]
            row[k.SIN_KIND] = KINDS.get(own.kind, k.K_NONE) if own is not None else k.K_NONE
            row[k.SIN_NT] = 0
            if own is not None and own.targets:
                if own.kind in ("move", "march"):
                    path = own.targets[:3]
                    if any(p not in POS for p in path):
                        raise Unsupported(f"move to {path!r}")
                    row[k.SIN_NT] = len(path)
                    for j, p in enumerate(path):
                        row[k.SIN_T0 + j] = POS[p]
                else:
                    row[k.SIN_NT] = 1
                    row[k.SIN_T0] = POS.get(own.targets[0], -1)
            fm = free[q]
            if fm is not None and fm.targets:
                if fm.targets[0] not in POS:
                    raise Unsupported(f"move to {fm.targets[0]!r}")
                row[k.SIN_FREE] = POS[fm.targets[0]]
            rows.extend(row)
        self.squad_count = len(homes)
        self.sin_rows = rows
        """The squads' rows of the kernel's ``sin`` input, flat (``squad_count`` × ``NSIN``)."""
        # plain lists: a battle of a few units is packed in microseconds (numpy's per-call cost
        # would dominate); the arrays are made once, in :class:`Prepared`
        index = table.index
        summon = table.summon_type_list
        faction = table.faction_list
        types: list[int] = []
        squads: list[int] = []
        factions: set[int] = set()
        summoners = 0
        for q, sq in enumerate(spec.squads):
            for uid, count in sq.units.items():
                if count > 0:
                    t = index[uid]
                    types.extend([t] * count)
                    squads.extend([q] * count)
                    factions.add(faction[t])
                    if summon[t] >= 0:
                        summoners += count
        self.types = types
        self.squads = squads
        self.mixed = len(factions) > 1
        self.summoners = summoners


_STREAMS: dict[tuple[str, int], tuple[list[str], npt.NDArray[np.uint8], IntArray]] = {}


def _streams(label: str, charges: int) -> tuple[list[str], npt.NDArray[np.uint8], IntArray]:
    """The battle's stream labels (the kernel's stream order), their bytes one after another,
    and ``KSTART`` (draws made before, start and end of each label's bytes; shared: copy it
    before changing it)."""
    cached = _STREAMS.get((label, charges))
    if cached is None:
        names = ["volleys", "clash/left", "clash/centre", "clash/right", "final"]
        names += [f"charge/{i}" for i in range(1, charges + 1)]
        labels = [f"{label}/{name}" for name in names]
        encoded = [lab.encode("utf-8") for lab in labels]
        bounds = np.zeros((len(labels), 3), dtype=np.int64)
        at = 0
        for i, e in enumerate(encoded):
            bounds[i, 1] = at
            at += len(e)
            bounds[i, 2] = at
        cached = (labels, np.frombuffer(b"".join(encoded), dtype=np.uint8), bounds)
        if len(_STREAMS) > 256:
            _STREAMS.clear()
        _STREAMS[(label, charges)] = cached
    return cached[0], cached[1], cached[2]


_CONSTANTS: dict[int, tuple[Rules, list[float]]] = {}


def _constants(rules: Rules, numbers: Any) -> list[float]:
    """The kernel's ``p`` input before the sides' modifiers (which default to none)."""
    cached = _CONSTANTS.get(id(rules))
    if cached is None or cached[0] is not rules:
        p = [0.0] * k.NP
        p[k.P_FATIGUE] = numbers.fatigue_percent / 100.0
        p[k.P_COVER] = 1 + numbers.cover_percent / 100.0
        p[k.P_OUTNUMBER_RATIO] = numbers.outnumber_ratio
        p[k.P_OUTNUMBER] = 1 + numbers.outnumber_percent / 100.0
        p[k.P_FLANKING] = 1 + numbers.flanking_percent / 100.0
        for s in (0, 1):
            p[k.P_DAMAGE + s] = p[k.P_TAKEN + s] = p[k.P_SHOTS + s] = 1.0
        cached = (rules, p)
        _CONSTANTS[id(rules)] = cached
    return cached[1]


class Prepared:
    """A battle's inputs packed for the kernel (everything but the dice)."""

    def __init__(self, rules: Rules, sides: tuple[SideInput, SideInput], options: BattleOptions) -> None:
        kt = kernel_table(rules)
        self.kt = kt
        table = kt.table
        plans = (Plan(sides[0], table), Plan(sides[1], table))
        self.plans = plans
        numbers = rules.battle
        n0, n1 = len(plans[0].types), len(plans[1].types)
        if max(n0, n1) >= k.MAX_SQUAD_UNITS:
            raise Unsupported("too many units")
        nsq = (plans[0].squad_count, plans[1].squad_count)
        ms = max(nsq[0], nsq[1], 1)

        p = list(_constants(rules, numbers))
        pi = [0] * k.NPI
        pi[k.PI_MAX_CLASH] = numbers.max_clash_rounds
        pi[k.PI_MAX_FINAL] = numbers.max_final_rounds
        pi[k.PI_MAX_CHARGE] = numbers.max_charge_rounds
        pi[k.PI_MARCH_FATIGUE] = numbers.forced_march_fatigue
        pi[k.PI_DEFEND_FATIGUE] = numbers.defend_fatigue
        pi[k.PI_VOLLEY_MULT] = numbers.volley_gunpowder_multiplier
        pi[k.PI_PALADIN_WHOLE] = int(options.paladin_defending_whole_battle)
        pi[k.PI_SUMMONS] = int(options.demonologist_summons_in_battle)
        pi[k.PI_OUTNUMBER_FINAL] = int(options.outnumber_in_final_melee)
        for s, spec in enumerate(sides):
            mods = spec.modifiers
            if mods:
                p[k.P_DAMAGE + s] = 1 + mods.get("damage", 0) / 100
                p[k.P_TAKEN + s] = 1 + mods.get("taken", 0) / 100
                p[k.P_SHOTS + s] = 1 + mods.get("shots", 0) / 100
            pi[k.PI_STOCK + s] = -1 if spec.gunpowder is None else int(spec.gunpowder)
            pi[k.PI_MIXED + s] = int(plans[s].mixed)
            pi[k.PI_NSQ + s] = nsq[s]
            pi[k.PI_NU + s] = (n0, n1)[s]
        self.p = np.array(p, dtype=np.float64)

        # one array call each (numpy's cost per call, not per element, is what a small battle pays)
        width = max(n0, n1, 1)
        pad0, pad1 = [0] * (width - n0), [0] * (width - n1)
        self.units = np.array([plans[0].types + pad0, plans[0].squads + pad0,
                               plans[1].types + pad1, plans[1].squads + pad1],
                              dtype=np.int64).reshape((2, 2, width))
        rows = [plan.sin_rows + [0] * ((ms - plan.squad_count) * k.NSIN) for plan in plans]
        self.sin = np.array(rows[0] + rows[1], dtype=np.int64).reshape((2, ms, k.NSIN))
        self.charges = sum(plan.sin_rows[k.SIN_KIND::k.NSIN].count(k.K_CHARGE) for plan in plans)
        pi[k.PI_NSTREAMS] = 5 + self.charges
        self.pi = np.array(pi, dtype=np.int64)
        # first guesses of the capacities (units with summons, stacks, events, timeline, draws)
        n = max(n0, n1)
        extra = 8 * (plans[0].summoners + plans[1].summoners)
        rounds = numbers.max_clash_rounds + numbers.max_final_rounds
        self.resize([n + extra + 8, 8 * (n + extra) + 64, 64 + 16 * rounds + 24 * self.charges,
                     8 + rounds, 64 * (n0 + n1 + extra) + 1024])

    def resize(self, sizes: list[int]) -> None:
        """The kernel's capacities: units per side, effect stacks of a round, events, timeline
        rows, draws."""
        self.sizes = sizes
        cap, cap_stack, cap_ev, cap_tl, cap_log = sizes
        pi = self.pi
        pi[k.PI_CAP] = cap
        pi[k.PI_CAP_STACK] = cap_stack
        pi[k.PI_CAP_EV] = cap_ev
        pi[k.PI_CAP_TL] = cap_tl
        pi[k.PI_CAP_LOG] = cap_log
        pi[k.PI_CAP_STRIKES] = cap * max(3, self.kt.strikes) + 8


_PREPARED: dict[tuple[int, int, int], tuple[Rules, SideInput, SideInput, BattleOptions, Prepared]] = {}
"""Packed inputs of recent battles, by the identity of their rules and sides (the inputs are
frozen; the entry keeps them alive, so an identity is not reused while it is cached)."""


def prepared(rules: Rules, sides: tuple[SideInput, SideInput], options: BattleOptions) -> Prepared:
    key = (id(rules), id(sides[0]), id(sides[1]))
    entry = _PREPARED.get(key)
    if (entry is not None and entry[0] is rules and entry[1] is sides[0] and entry[2] is sides[1]
            and entry[3] == options):
        return entry[4]
    prep = Prepared(rules, sides, options)
    if len(_PREPARED) >= 64:
        _PREPARED.clear()
    _PREPARED[key] = (rules, sides[0], sides[1], options, prep)
    return prep


def run(rules: Rules, sides: tuple[SideInput, SideInput], dice: Dice, label: str,
        options: BattleOptions) -> BattleResult:
    """The battle with the compiled kernel; raises :class:`Unsupported` for inputs it does not take."""
    prep = prepared(rules, sides, options)
    kt = prep.kt
    # streams: volleys, clash/<flank>, final, charge/<n> (numbered over the charge orders)
    labels, label_bytes, kstart = _streams(label, prep.charges)
    before = [dice.existing(lab) for lab in labels]
    if any(st is not None and st.count for st in before):
        kstart = kstart.copy()
        for i, st in enumerate(before):
            kstart[i, 0] = st.count if st is not None else 0
    seed = np.frombuffer(dice.seed, dtype=np.uint8)
    pi = prep.pi
    while True:
        cap, cap_ev, cap_tl, cap_log = prep.sizes[0], prep.sizes[2], prep.sizes[3], prep.sizes[4]
        out, outf = k.battle(kt.tf, kt.ti, prep.p, pi, prep.units, prep.sin, seed, label_bytes, kstart)
        g = out[: k.NG]
        over = int(g[k.G_OVERFLOW])
        if over == 0 and g[k.G_NEV] <= cap_ev and g[k.G_NTL] <= cap_tl and g[k.G_NLOG] <= cap_log:
            break
        cap_stack = prep.sizes[1]
        prep.resize([cap * 2 if over & k.O_UNITS else cap, cap_stack * 2 if over & k.O_STACKS else cap_stack,
                     max(cap_ev, int(g[k.G_NEV])), max(cap_tl, int(g[k.G_NTL])), max(cap_log, int(g[k.G_NLOG]))])
    # the dice, written to their streams as the reference's roll_many would have (the kernel
    # leaves the dice of all draws stream by stream, then the faces, then each stream's count)
    nlog = int(g[k.G_NLOG])
    if nlog:
        at = _layout(cap, prep.sin.shape[1], cap_ev, cap_tl, cap_log)[6]
        dies = out[at:at + nlog]
        faces = out[at + nlog:at + 2 * nlog]
        counts = out[at + 2 * nlog:at + 2 * nlog + len(labels)].tolist()
        start = 0
        for i, count in enumerate(counts):
            if count:
                stream = dice.stream(labels[i])
                end = start + count
                if stream.faces:
                    stream.sides.extend(dies[start:end].tolist())
                    stream.faces.extend(faces[start:end].tolist())
                else:
                    stream.sides = dies[start:end].tolist()
                    stream.faces = faces[start:end].tolist()
                start = end

    winner = int(g[k.G_WINNER])
    report = _Report(rules, kt.table, prep.plans, options, out, outf, (cap, cap_ev, cap_tl, cap_log))
    return BattleResult.deferred(None if winner < 0 else winner, int(g[k.G_ATTACKS]), report.build)


# --------------------------------------------------------------------------- the report

def _name(side: int, q: int) -> str:
    return f"{'AB'[side]}{q + 1}"


class _Report:
    """The reference engine's events, summary and timeline, rebuilt from the kernel's records."""

    def __init__(self, rules: Rules, table: UnitTable, plans: tuple[Plan, Plan], options: BattleOptions,
                 out: IntArray, outf: npt.NDArray[np.float64], caps: tuple[int, int, int, int]) -> None:
        self.rules = rules
        self.table = table
        self.plans = plans
        self.options = options
        self.out = out
        self.outf = outf
        self.caps = caps
        self._losses: list[dict[int, list[int]]] = []

    def _unpack(self) -> None:
        cap, cap_ev, cap_tl, cap_log = self.caps
        ms = max(self.plans[0].squad_count, self.plans[1].squad_count, 1)
        out, outf = self.out, self.outf
        o = _layout(cap, ms, cap_ev, cap_tl, cap_log)
        g = out[: k.NG]
        self.g = g
        self.ui = out[o[1]:o[2]].reshape((2, k.NUI, cap))
        self.sq = out[o[2]:o[3]].reshape((2, k.NSQ, ms + 1))
        self.deploy = out[o[3]:o[4]].reshape((2, ms + 1))
        self.ev = out[o[4]:o[5]].reshape((cap_ev, k.EV_W))[: int(g[k.G_NEV])]
        self.tl = out[o[5]:o[6]].reshape((cap_tl, 4))[: int(g[k.G_NTL])]
        self.evf = outf[:o[8]]
        self.tlf = outf[o[8]:o[9]].reshape((cap_tl, 2))
        self.nu = (int(g[k.G_NU]), int(g[k.G_NU + 1]))

    def build(self) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
        self._unpack()
        self._index_losses()
        events = self._events()
        timeline = [{"phase": PHASES[int(r[0])], "step": int(r[1]), "units": [int(r[2]), int(r[3])],
                     "health": [round(float(self.tlf[i, 0]), 2), round(float(self.tlf[i, 1]), 2)]}
                    for i, r in enumerate(self.tl.tolist())]
        summary = self._summary()
        return events, summary, timeline

    # -- pieces ------------------------------------------------------------------------------

    def _index_losses(self) -> None:
        for s in range(2):
            steps = self.ui[s, k.UI_STEP, : self.nu[s]]
            per: dict[int, list[int]] = {}
            for u in np.flatnonzero(steps >= 0).tolist():
                per.setdefault(int(steps[u]), []).append(u)
            self._losses.append(per)

    def losses(self, step: int) -> list[dict[str, dict[str, int]]]:
        out: list[dict[str, dict[str, int]]] = []
        ids = self.table.ids
        for s in range(2):
            per: dict[str, dict[str, int]] = {}
            types = self.ui[s, k.UI_TYPE]
            squads = self.ui[s, k.UI_SQUAD]
            for u in self._losses[s].get(step, []):
                name = _name(s, int(squads[u]))
                uid = ids[int(types[u])]
                d = per.setdefault(name, {})
                d[uid] = d.get(uid, 0) + 1
            out.append({n: dict(sorted(v.items())) for n, v in sorted(per.items())})
        return out

    @staticmethod
    def _specials(row: list[int], at: int) -> dict[str, list[int]]:
        out = {}
        if row[at] or row[at + 1]:
            out["sacrifices"] = [row[at], row[at + 1]]
        if row[at + 2] or row[at + 3]:
            out["summoned"] = [row[at + 2], row[at + 3]]
        return out

    def _deployment(self, s: int) -> dict[str, Any]:
        spec = self.plans[s].spec
        ids = self.table.ids
        n_init = len(self.plans[s].types)
        types = self.ui[s, k.UI_TYPE, :n_init]
        squads = self.ui[s, k.UI_SQUAD, :n_init]
        present = self.ui[s, k.UI_WITHDRAWN, :n_init] == 0
        out = []
        for q in range(len(spec.squads)):
            counts: dict[str, int] = {}
            for ty in types[present & (squads == q)].tolist():
                uid = ids[ty]
                counts[uid] = counts.get(uid, 0) + 1
            out.append({"squad": _name(s, q), "position": fld.POSITIONS[int(self.deploy[s, q])], "units": counts})
        return {"name": spec.name, "faction": spec.faction, "squads": out}

    def _withdrawn(self, s: int) -> dict[str, int]:
        out: dict[str, int] = {}
        ui = self.ui[s]
        for u in np.flatnonzero(ui[k.UI_WITHDRAWN, : self.nu[s]]).tolist():
            uid = self.table.ids[int(ui[k.UI_TYPE, u])]
            out[uid] = out.get(uid, 0) + 1
        return out

    def _events(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        rows = self.ev.tolist()
        i = 0
        P = fld.POSITIONS
        while i < len(rows):
            r = rows[i]
            code = r[0]
            if code == k.E_GUNPOWDER:
                events.append({"kind": "gunpowder", "side": r[1], "stock": r[2], "needed": r[3], "supplied": r[4],
                               "withdrawn": self._withdrawn(r[1])})
            elif code == k.E_STEP_UP:
                events.append({"kind": "step_up", "side": r[1], "squad": _name(r[1], r[2]),
                               "flank": fld.FLANKS[r[3]]})
            elif code == k.E_DEPLOYMENT:
                events.append({"kind": "deployment", "sides": [self._deployment(0), self._deployment(1)]})
            elif code == k.E_COVER:
                events.append({"kind": "cover", "side": r[1], "squad": _name(r[1], r[2])})
            elif code == k.E_VOLLEY:
                m = self.plans[r[1]].manoeuvre[r[2]]
                assert m is not None
                if r[3] < 0:
                    events.append({"kind": "volley", "side": r[1], "squad": _name(r[1], r[2]), "target": None,
                                   "position": m.targets[0] if m.targets else None, "shots": 0})
                else:
                    events.append({"kind": "volley", "side": r[1], "squad": _name(r[1], r[2]),
                                   "target": _name(1 - r[1], r[3]), "position": P[r[4]], "long": bool(r[5]),
                                   "shots": r[6], "damage": round(float(self.evf[i]), 2)})
            elif code == k.E_VOLLEY_LOSSES:
                events.append({"kind": "volley_losses", "losses": self.losses(r[1])})
            elif code == k.E_DEFEND:
                m = self.plans[r[1]].manoeuvre[r[2]]
                assert m is not None
                events.append({"kind": "defend", "side": r[1], "squad": _name(r[1], r[2]),
                               "position": m.targets[0] if m.targets else None})
            elif code == k.E_CHARGE:
                s = r[1]
                target = _name(1 - s, r[3]) if r[3] >= 0 else None
                if r[4]:
                    events.append({"kind": "charge", "side": s, "squad": _name(s, r[2]), "target": target,
                                   "cancelled": True})
                else:
                    fights = []
                    for f in rows[i + 1: i + 1 + r[7]]:
                        fights.append({"opponent": _name(1 - s, f[1]), "defender": bool(f[2]), "rounds": f[3],
                                       "losses": self.losses(f[4]), "charger_survives": bool(f[5]),
                                       **self._specials(f, 6)})
                    i += r[7]
                    events.append({"kind": "charge", "side": s, "squad": _name(s, r[2]), "target": target,
                                   "position": P[r[5]], "defender": _name(1 - s, r[6]) if r[6] >= 0 else None,
                                   "fights": fights})
            elif code == k.E_MOVE:
                e: dict[str, Any] = {"kind": "move", "side": r[1], "squad": _name(r[1], r[2]), "from": P[r[3]],
                                     "to": P[r[4]]}
                if r[5] >= 0:
                    e["swap"] = _name(r[1], r[5])
                if r[6]:
                    e["blocked"] = True
                events.append(e)
            elif code == k.E_ROUND:
                if r[1] == 0:
                    events.append({"kind": "round", "phase": "clash", "round": r[2], **self._specials(r, 4),
                                   "flanks": [f for j, f in enumerate(fld.FLANKS) if r[8] & (1 << j)],
                                   "losses": self.losses(r[3])})
                else:
                    events.append({"kind": "round", "phase": "final", "round": r[2], **self._specials(r, 4),
                                   "losses": self.losses(r[3])})
            elif code == k.E_FINAL:
                c0, c1 = r[1], r[2]
                events.append({"kind": "final", "squads": [c0, c1],
                               "flanked": 0 if c0 < c1 else 1 if c1 < c0 else None})
            else:  # pragma: no cover - the kernel writes no other rows
                raise AssertionError(f"unknown event row {r}")
            i += 1
        winner = int(self.g[k.G_WINNER])
        events.append({"kind": "result", "winner": None if winner < 0 else winner, "rounds": int(self.g[k.G_ROUNDS])})
        return events

    def _count(self, types: IntArray, mask: npt.NDArray[np.bool_]) -> dict[str, int]:
        counts = np.bincount(types[mask], minlength=len(self.table.ids))
        return {self.table.ids[i]: int(c) for i, c in enumerate(counts.tolist()) if c}

    def _summary(self) -> dict[str, Any]:
        """As :meth:`Battle._aftermath`: wounded recovery, gunpowder, honour, meat, void hunger."""
        t = self.table
        numbers = self.rules.battle
        g = self.g
        winner_raw = int(g[k.G_WINNER])
        winner = None if winner_raw < 0 else winner_raw
        rounds = int(g[k.G_ROUNDS])
        arrays = []
        for s in range(2):
            n = self.nu[s]
            ui = self.ui[s]
            arrays.append((ui[k.UI_TYPE, :n], ui[k.UI_SQUAD, :n], ui[k.UI_ALIVE, :n] == 1,
                           ui[k.UI_WITHDRAWN, :n] == 1, ui[k.UI_SUMMONED, :n] == 1))
        deaths_total = [int((~alive & ~withdrawn).sum()) for _, _, alive, withdrawn, _ in arrays]
        sides_out = []
        for s in range(2):
            spec = self.plans[s].spec
            types, squad, alive, withdrawn, summoned = arrays[s]
            dead_mask = ~alive & ~withdrawn
            squads = []
            for q, sq_in in enumerate(spec.squads):
                in_sq = squad == q
                squads.append({
                    "squad": _name(s, q), "home": sq_in.position,
                    "position": fld.POSITIONS[int(self.sq[s, k.SQ_POS, q])],
                    "fatigue": int(self.sq[s, k.SQ_FATIGUE, q]),
                    "units": self._count(types, in_sq & ~summoned),
                    "summoned": self._count(types, in_sq & summoned),
                    "dead": self._count(types, in_sq & dead_mask),
                    "survivors": self._count(types, in_sq & alive),
                    "withdrawn": self._count(types, in_sq & withdrawn),
                })
            dead = self._count(types, dead_mask)
            recovered: dict[str, int] = {}
            if winner == s or winner is None or self.options.recovery_for_loser:
                for uid, n in dead.items():
                    back = int(math.floor(n * float(t.recovery[t.index[uid]]) + 0.5))
                    if back:
                        recovered[uid] = back
            survivors = self._count(types, alive)
            returning = dict(survivors)
            for uid, n in list(recovered.items()) + list(self._count(types, withdrawn).items()):
                returning[uid] = returning.get(uid, 0) + n
            powder = int(g[k.G_SUPPLIED + s])
            if spec.garrison and winner == s and rounds < numbers.garrison_free_powder_rounds:
                powder = 0
            dead_types = types[dead_mask]
            honour = float(np.sum(t.upkeep[dead_types] * (t.faction[dead_types] == t.factions.index("empire"))))
            honour *= numbers.honour_per_upkeep
            enemy_dead = deaths_total[1 - s]
            ogres_alive = bool(np.any(alive & (t.faction[types] == t.factions.index("ogres"))))
            meat = enemy_dead * numbers.meat_per_enemy_death if ogres_alive else 0
            void = 0
            if spec.faction == "void_cult" and winner == s:
                void = -(enemy_dead // numbers.enemy_deaths_per_void_hunger)
            sides_out.append({
                "name": spec.name, "faction": spec.faction, "garrison": spec.garrison,
                "squads": squads, "dead": dead, "deaths": deaths_total[s], "recovered": recovered,
                "survivors": survivors, "returning": dict(sorted(returning.items())),
                "gunpowder_needed": int(g[k.G_NEED + s]), "gunpowder_spent": powder,
                "honour": round(honour, 4), "meat": meat, "void_hunger": void,
            })
        return {"winner": winner, "winner_name": self.plans[winner].spec.name if winner is not None else None,
                "rounds": rounds, "clash_rounds": int(g[k.G_CLASH]), "final_rounds": int(g[k.G_FINAL]),
                "attacks": int(g[k.G_ATTACKS]), "sides": sides_out}

