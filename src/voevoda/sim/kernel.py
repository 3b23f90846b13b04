# mypy: disable-error-code="no-untyped-def"
# (Numba infers every type of this module when it compiles it.)
"""The Numba kernel: many Steel Rose battles at once, one battle per loop iteration.

It runs exactly the battle of :mod:`voevoda.rulesets.steel_rose.battle.engine` (the phases,
the round structure, every ability and every reading of docs/rulings/steel_rose.md), over
structure-of-arrays state: per side, one row of a 2-D array per field, one column per unit.
Only the dice differ: :mod:`voevoda.sim.rng` instead of SHAKE-256 streams.

Layout (``s`` a side, ``u`` a unit, ``q`` a squad):

* ``TF[type, TF_*]`` / ``TI[type, TI_*]``: the unit table (float and integer fields).
* ``UF[s, UF_*, u]`` / ``UI[s, UI_*, u]``: unit state; ``RG[s, ring, u, slot]`` the effect rings
  (damage over time, healers' regeneration, ranged debuffs) indexed by the unit's own round
  counter, as in the exact engine.
* ``SQ[s, SQ_*, q]``: squad state; squad ``MS`` (one past the last) holds the final melee's queue.
* ``Q[s, q, :]``: each squad's bag of attackers («каждый юнит из отряда рано или поздно атакует»):
  the fighters that have not attacked since the bag was last filled. A round takes the whole bag
  when it needs at least as many attackers, and draws only a last, partial bag uniformly without
  replacement (the same distribution as taking them in the order of a shuffled queue).
* ``M[s, q, :]`` with lengths ``SQ[s, SQ_MLEN, q]``: each squad's living units in index order
  (row ``MS``: the whole side's), kept from round to round: a summoned unit is appended as it
  joins (it has the highest index yet), and the dead leave a list when it is next read, so a
  round reads only the living, not every unit the squad ever had.
* ``L[s, L_*, :]`` with lengths ``LN[s, L_*]``: scratch lists (group, shooters, healers, ...).
* ``RS``: the battle's key and its draw counter (hot loops keep the counter in a register).

Unit fields that never change in a battle (attack, attacks per round, on-hit flags, minimum melee
damage, the incoming melee factor) are copied into the unit's row when it enters, so the attack
loop reads them without going through its type; compounding attacks keep running factors
(``UF_CFOUT``, ``UF_CFIN``) instead of raising to a power per attack. The fields that only some
units ever change in a round (heal on hit, the compounding factor, shred, shot counters, the
sacrifice) are marked in ``UI_DIRTY`` by whatever changes them, and the end of a round reads
them only for marked units.

A battle allocates nothing: :func:`simulate` gives each chunk of battles one workspace.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils, config
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.typed_passes import NativeLowering
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from voevoda.sim.rng import battle_key, below, draw, draw_at, hi, lo
from voevoda.sim.unit_fields import (
    ON_BURN,
    ON_COMP,
    ON_GAIN,
    ON_SHRED,
    TF_AREA_PCT,
    TF_ATK_COMP_IN,
    TF_ATK_COMP_OUT,
    TF_BURN_PR,
    TF_BURP_PR,
    TF_CHARGE_BONUS,
    TF_CHARGE_FIRST,
    TF_DEBUFF_LOG,
    TF_DEFENCE,
    TF_HEAL_HIT,
    TF_HEAL_PR,
    TF_HEALTH,
    TF_LIFESTEAL,
    TF_MIN_MELEE,
    TF_MIN_RANGED,
    TF_POISON_PR,
    TF_REGEN,
    TF_SAC_DAMAGE,
    TF_SHOT_COMP,
    TF_SHRED,
    TF_SQUAD_DAMAGE,
    TF_SQUAD_TAKEN,
    TF_TAKEN_DEFENDING,
    TF_TAKEN_MELEE,
    TF_TAKEN_SHOTS,
    TF_TAKEN_VS_CHARGE,
    TI_APR,
    TI_AREA_MAX,
    TI_AREA_MIN,
    TI_ATTACK,
    TI_BURN_ROUNDS,
    TI_BURP_EVERY,
    TI_BURP_ROUNDS,
    TI_DEBUFF_ROUNDS,
    TI_HEAL_ROUNDS,
    TI_ON_HIT,
    TI_POISON_ROUNDS,
    TI_RANGED,
    TI_SAC_PCT,
    TI_SAC_TARGETS,
    TI_SHOOTER,
    TI_SHOTS,
    TI_SUMMON_EVERY,
    TI_SUMMON_TYPE,
)

njit_no_counts = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
"""``njit`` for a function that allocates nothing and is not inlined: compiled without Numba's
reference counting, it pays no call per array argument (and per view it takes) to count a
reference on entry and drop it on return. The arrays of a battle are the unmanaged views of
:func:`_unmanaged` or scratch rows of the workspace, whose memory outlives every call of
:func:`battle`; with many small fights a battle makes hundreds of such calls (every effect
10v10: 14–17% faster). ``_nrt`` is an internal option of Numba (its own tests use it): a release
without it would refuse to compile the kernel, not run it differently."""

I64 = np.int64
"""Every argument of a call between the kernel's compiled functions goes through ``I64`` (or
``np.bool_``, ``np.float64``) where it could be a constant: Numba types a constant argument as a
literal (``Literal[int](2)``, ``Literal[bool](True)``) and compiles the callee once per distinct
literal, so the calls of ``_fight`` with ``-1`` or a side for the charger and ``True``/``False``
for a defender compiled nine copies of the largest function, and ``_volley_shots`` six
(docs/sim.md, «Compilation»). One constant stays on purpose: ``_fight``'s kind of pairing
(``F_CLASH``, ``F_CHARGE``, ``F_FINAL``), three copies in which the compiler drops the branches
of the other kinds (with a single copy the plain 100v100 battle ran 10–15% slower in two runs of
three, and once the every-effect 10v10 23%). ``tests/sim/test_compile_time.py`` checks the calls."""

TOP_OPT = 1
"""LLVM's optimisation level for :func:`simulate_chunks`, the battle loop (NUMBA_OPT's default, 3,
for every function it calls). Numba links the code of every callee into its caller's module and
optimises the whole again, so the battle loop's module holds the whole kernel: at -O1 that last
pass over already optimised code costs a fraction of -O3's, and only the loop's own code (a
battle's phases, per battle) is less optimised (docs/sim.md, «Compilation»)."""


@register_pass(mutates_CFG=True, analysis_only=False)  # type: ignore[no-untyped-call]
class _LowerAtTopOpt(NativeLowering):
    """Numba's lowering (LLVM code, its optimisation, machine code) with ``config.OPT`` at
    :data:`TOP_OPT`, restored afterwards. The callees are compiled before it, during type
    inference, at the level they had."""

    _name = f"{__name__}.lower_at_top_opt"  # a copy of the module (benchmarks/sim_ab.py) registers its own

    def run_pass(self, state):
        saved = config.OPT  # type: ignore[attr-defined]
        config.OPT = config._OptLevel(TOP_OPT)  # type: ignore[attr-defined, no-untyped-call]
        try:
            return super().run_pass(state)  # type: ignore[no-untyped-call]
        finally:
            config.OPT = saved  # type: ignore[attr-defined]


class TopPipeline(CompilerBase):
    """Numba's nopython pipeline, lowering through :class:`_LowerAtTopOpt`."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)  # type: ignore[no-untyped-call]
        pm.passes = [(_LowerAtTopOpt if cls is NativeLowering else cls, what) for cls, what in pm.passes]
        pm.finalize()
        return [pm]


RING = 8
RING_MASK = RING - 1

# unit table fields: voevoda.sim.unit_fields

# battle numbers and options
P_FATIGUE = 0        # outgoing damage lost per fatigue level (fraction)
P_COVER = 1          # multiplier of volley damage taken under cover
P_OUTNUMBER_RATIO = 2
P_OUTNUMBER = 3      # multiplier of damage taken by an outnumbered group
P_FLANKING = 4       # multiplier of damage taken by the side with fewer squads in the final melee
NP = 5
PI_MAX_CLASH = 0
PI_MAX_FINAL = 1
PI_MAX_CHARGE = 2
PI_MARCH_FATIGUE = 3
PI_DEFEND_FATIGUE = 4
PI_PALADIN_WHOLE = 5
PI_SUMMONS = 6
PI_OUTNUMBER_FINAL = 7
PI_HAS_AURA = 8
PI_HAS_RING = 9      # damage over time, healers' stacks or ranged debuffs can happen
PI_HAS_REGEN = 10
PI_HAS_SAC = 11
PI_HAS_HEAL = 12
PI_HAS_BURP = 13
PI_HAS_SUMMON = 14
PI_HAS_POISON = 15
NPI = 16

# side numbers
SF_DAMAGE = 0
SF_TAKEN = 1
SF_SHOTS = 2

# manoeuvres
K_NONE = 0
K_MOVE = 1
K_MARCH = 2
K_DEFEND = 3
K_COVER = 4
K_CHARGE = 5
K_VOLLEY = 6
K_LONG_VOLLEY = 7

# unit state
UF_HP = 0
UF_MAXHP = 1
UF_DEF = 2
UF_CFIN = 3       # taken-damage factor of the unit's compounding attacks before this round
UF_SHOTC = 4
UF_OUTS = 5
UF_INSS = 6       # incoming factor of shots at the unit (side's campaign factor, type's shot factor)
UF_DMG = 7
UF_GAIN = 8
UF_SHRED = 9
UF_CFNEXT = 10    # the same factor counting this round's attacks too
UF_RSHOT = 11
UF_OM = 12
UF_IM = 13
UF_DEBUFF = 14   # the factor of the ranged debuffs on the unit's outgoing damage this round
UF_MN = 15
UF_CFOUT = 16     # outgoing-damage factor of the unit's compounding attacks so far
UF_INSM = 17      # incoming melee factor of the unit (side's campaign factor, type's melee factor)
UF_REGEN = 18     # the type's regeneration per round
UF_SHOTF = 19     # a compounding shooter's factor: its type's factor to the power of its shots so far
NUF = 20
UI_TYPE = 0
UI_SQUAD = 1
UI_ALIVE = 2
UI_WITHDRAWN = 3
UI_SUMMONED = 4
UI_TICK = 5
UI_SACR = 6
UI_RING_END = 7  # one past the last round counter whose ring slots may hold an effect (0: none)
UI_ATK = 8
UI_APR = 9
UI_FLAGS = 10
UI_SUMMON = 11   # the type the unit summons, or -1
UI_DIRTY = 12    # 1: the round changed a rarely changed field of the unit (heal on hit, the compounding
                 # factor, shred, shot counters, the sacrifice), which the end of the round applies
NUI = 13
# the fields of a deployed unit that a battle may change (the others hold the type's constants
# from the unit's entry, or are scratch written before they are read: UF_OM, UF_IM)
UF_CHANGING = (UF_HP, UF_DEF, UF_CFIN, UF_SHOTC, UF_DMG, UF_GAIN, UF_SHRED, UF_CFNEXT, UF_RSHOT, UF_DEBUFF,
               UF_CFOUT, UF_SHOTF)
UI_CHANGING = (UI_ALIVE, UI_TICK, UI_SACR, UI_RING_END, UI_DIRTY)
R_DOT = 0
R_HEAL = 1
R_DEBUFF = 2

# squad state
SQ_POS = 0
SQ_FATIGUE = 1
SQ_COVER = 2
SQ_DEFENDING = 3
SQ_QLEN = 4     # units in the squad's bag of attackers (``Q``)
SQ_ALIVE = 5
SQ_ROLES = 6    # which abilities its units have ever had (ROLE_*); column MS: the whole side
SQ_MLEN = 7     # length of the squad's list of members (``M``); column MS: the side's list
NSQF = 8
ROLE_SAC = 1
ROLE_BURP = 2
ROLE_HEAL = 4
ROLE_POISON = 8  # poisons whoever strikes it in melee
ROLE_ON_HIT = 16  # a strike of it has an effect on hit (UI_FLAGS)

# the planning phase's scratch rows (``PS``, 2 * (max_squads + 1) wide): volley targets (one row
# per side), the charges' sort keys and squads, the moves' squads, destinations, counts and path,
# and a step's done and alive flags
PS_TARGETS = 0
PS_KEYS = 2
PS_WHO = 3
PS_SQS = 4
PS_DESTS = 7
PS_CNT = 10
PS_PATH = 11
PS_DONE = 12
PS_ALIVE = 13
NPS = 14

# scratch lists
L_GROUP = 0
L_SHOOT = 1
L_HEAL = 2
L_SUMMON = 3  # the summoners among a round's participants
L_SHOTS = 4
L_FOE = 5
L_TOUCH = 6   # the units a round's fights may have changed (groups and rearguard shooters)
NL = 7

# statistics of one battle
ST_ATTACKS = 0
ST_ROUNDS = 1
ST_CLASH = 2
ST_FINAL = 3
ST_OVERFLOW = 4
ST_CHARGE = 5     # rounds of charges (each charge counts its own)
ST_FIGHTS = 6     # pairings fought: a clash round's flanks, a charge round, a final round
ST_FIGHTERS = 7   # their fighters, summed over the pairings
ST_STARTS = 8     # round starts passed by units (none in a battle without effects over time,
                  # regeneration or summons, whose rounds need no start)
NST = 9

F_CLASH = 0
F_CHARGE = 1
F_FINAL = 2
F_VOLLEY = 3


# --------------------------------------------------------------------------- the field

@njit(cache=True, inline="always")
def _col(p: int) -> int:
    return p % 3


@njit(cache=True, inline="always")
def _row(p: int) -> int:
    return p // 3


@njit(cache=True, inline="always")
def _dist(a: int, b: int) -> int:
    return abs(a % 3 - b % 3) + abs(a // 3 - b // 3)


@njit(cache=True, inline="always")
def _at(SQ, nsq, s, pos):
    """The first squad (in deployment order) with living units at ``pos``, or -1."""
    for q in range(nsq):
        if SQ[s, SQ_POS, q] == pos and SQ[s, SQ_ALIVE, q] > 0:
            return q
    return -1


@njit(cache=True, inline="always")
def _normalise(SQ, nsq, s):
    """«Если авангардный отряд умирает, то арьергард автоматически выступает вперёд»"""
    for f in range(3):
        if _at(SQ, nsq, s, f) < 0:
            rear = _at(SQ, nsq, s, 3 + f)
            if rear >= 0:
                SQ[s, SQ_POS, rear] = f


@njit(cache=True, inline="always")
def _occupy(SQ, NSQ, OCC):
    """``OCC[s, pos]``: the first squad (in deployment order) with living units at ``pos``, or -1."""
    for s in range(2):
        for p in range(6):
            OCC[s, p] = -1
        for q in range(NSQ[s] - 1, -1, -1):
            if SQ[s, SQ_ALIVE, q] > 0:
                OCC[s, SQ[s, SQ_POS, q]] = q


@njit(cache=True, inline="always")
def _normalise_both(SQ, NSQ, OCC):
    """:func:`_normalise` for both sides; ``OCC`` is left up to date."""
    _occupy(SQ, NSQ, OCC)
    moved = False
    for s in range(2):
        for f in range(3):
            if OCC[s, f] < 0 and OCC[s, 3 + f] >= 0:
                SQ[s, SQ_POS, OCC[s, 3 + f]] = f
                moved = True
    if moved:
        _occupy(SQ, NSQ, OCC)


@njit(cache=True, inline="always")
def _members(UI, SQ, M, s, q, out):
    """The living units of squad ``q`` in index order (column ``MS``: of the whole side).
    ``M[s, q]`` lists them as they were when last asked, summoned units appended as they join
    (a summoned unit has the highest index yet); the list is filtered by who is still alive,
    in place, so that a pass costs the squad's living units, not every unit it ever had."""
    n = 0
    for k in range(SQ[s, SQ_MLEN, q]):
        u = M[s, q, k]
        M[s, q, n] = u
        out[n] = u
        n += UI[s, UI_ALIVE, np.uint64(u)]
    SQ[s, SQ_MLEN, q] = n
    return n


@njit(cache=True, inline="always")
def _enlist(SQ, M, s, q, u):
    """Unit ``u`` (alive, with the highest index of its side yet) joins the lists of squad ``q``
    and of its side."""
    MS = SQ.shape[2] - 1
    M[s, q, SQ[s, SQ_MLEN, q]] = u
    SQ[s, SQ_MLEN, q] += 1
    M[s, MS, SQ[s, SQ_MLEN, MS]] = u
    SQ[s, SQ_MLEN, MS] += 1


@njit(cache=True, inline="always")
def _living(SQ, NSQ, s):
    """The living units of side ``s`` (each squad counts its own)."""
    n = 0
    for q in range(NSQ[s]):
        n += SQ[s, SQ_ALIVE, q]
    return n


# --------------------------------------------------------------------------- effects

@njit(cache=True, inline="always")
def _stack(RG, UI, s, ring, u, per, rounds):
    """An effect that lasts ``rounds`` rounds of the unit (stacks add up), from the round its
    counter names: within a round, whose start has already moved the counter on, the next round;
    before the clash (volleys), the first round the unit fights (R42)."""
    t = UI[s, UI_TICK, u] - 1
    for j in range(1, rounds + 1):
        if j & RING_MASK != 0:
            RG[s, ring, u, (t + j) & RING_MASK] += per
    if t + rounds + 1 > UI[s, UI_RING_END, u]:
        UI[s, UI_RING_END, u] = t + rounds + 1


@njit(cache=True, inline="always")
def _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, s, q, survivors):
    """Start of a round for its participants, the living units of squad ``q`` of side ``s``
    (column ``MS``: of the whole side), in one pass over their list ``M[s, q]`` (which drops the
    dead as :func:`_members` does): damage over time, regeneration and healers' stacks, and a unit
    whose health falls to zero dies. The round's ring slot is read and emptied here (no effect of
    the round lands in its own slot: a stack starts next round), the round's ranged debuff becomes
    the factor ``UF_DEBUFF``, and a unit whose ring is empty (``UI_RING_END`` not beyond its counter)
    skips the ring. Each participant's round counter moves on here, so the round's own counter
    is one less (:func:`_stack`); summoners are listed in ``L_SUMMON`` for :func:`_tock`, and
    with ``survivors`` the participants still alive become the fighters, ``L_GROUP``. Returns
    the number of participants."""
    has_ring = PI[PI_HAS_RING] != 0
    n = 0
    m = 0
    ns = LN[s, L_SUMMON]
    for k in range(SQ[s, SQ_MLEN, q]):
        w = M[s, q, k]
        u = np.uint64(w)
        if UI[s, UI_ALIVE, u] == 0:
            continue
        M[s, q, n] = w
        n += 1
        t = UI[s, UI_TICK, u]
        UI[s, UI_TICK, u] = t + 1
        if UI[s, UI_SUMMON, u] >= 0:
            L[s, L_SUMMON, ns] = w
            ns += 1
        alive = 1
        net = UF[s, UF_REGEN, u]
        if has_ring:
            if t < UI[s, UI_RING_END, u]:
                slot = t & RING_MASK
                net += RG[s, R_HEAL, u, slot] - RG[s, R_DOT, u, slot]
                d = RG[s, R_DEBUFF, u, slot]
                # the ring holds the sum of the logarithms of the stacks' factors
                UF[s, UF_DEBUFF, u] = math.exp(d) if d != 0.0 else 1.0
                RG[s, R_DOT, u, slot] = 0.0
                RG[s, R_HEAL, u, slot] = 0.0
                RG[s, R_DEBUFF, u, slot] = 0.0
            elif UF[s, UF_DEBUFF, u] != 1.0:
                UF[s, UF_DEBUFF, u] = 1.0
        if net != 0.0:
            hp = UF[s, UF_HP, u] + net
            if hp <= 0.0:
                alive = 0
                UI[s, UI_ALIVE, u] = 0
                SQ[s, SQ_ALIVE, np.uint64(UI[s, UI_SQUAD, u])] -= 1
            mx = UF[s, UF_MAXHP, u]
            UF[s, UF_HP, u] = hp if hp < mx else mx
        if survivors:
            L[s, L_GROUP, m] = w
            m += alive
    SQ[s, SQ_MLEN, q] = n
    LN[s, L_SUMMON] = ns
    ST[ST_STARTS] += n
    if survivors:
        LN[s, L_GROUP] = m
    return n


@njit(cache=True, inline="always")
def _tock(TF, TI, PI, SF, SQM, UF, UI, RG, SQ, M, L, LN, NU, ST):
    """End of a fought round: the demonologist's summons («призывает низшего демона каждый ход»,
    into its own squad; a summoned unit joins after the round), by the summoners that
    :func:`_start` listed and that are still alive, on the round's counter (one less than the
    counter its start moved on). A round cut short by a finished phase summons nothing. Called
    only where summons can happen (the battle has summoners and the option allows them)."""
    for s in range(2):
        for k in range(LN[s, L_SUMMON]):
            u = np.uint64(L[s, L_SUMMON, k])
            if UI[s, UI_ALIVE, u] == 1 and (UI[s, UI_TICK, u] - 1) % TI[UI[s, UI_TYPE, u], TI_SUMMON_EVERY] == 0:
                _add_unit(TF, TI, SF, SQM, UF, UI, RG, SQ, M, NU, ST, s, UI[s, UI_SUMMON, u], UI[s, UI_SQUAD, u])


@njit_no_counts
def _add_unit(TF, TI, SF, SQM, UF, UI, RG, SQ, M, NU, ST, s, ty, q):
    """A summoned unit joins squad ``q``."""
    u = NU[s]
    if u >= UF.shape[2]:
        ST[ST_OVERFLOW] += 1
        return
    NU[s] = u + 1
    _init_unit(TF, TI, SF, SQM, UF, UI, RG, SQ, s, u, ty, q, I64(0), I64(1))
    _enlist(SQ, M, s, q, u)


@njit_no_counts
def _init_unit(TF, TI, SF, SQM, UF, UI, RG, SQ, s, u, ty, q, withdrawn, summoned):
    """Unit ``u`` of side ``s`` as it enters the battle: a fresh unit of type ``ty`` in squad
    ``q`` (a withdrawn one, short of gunpowder, stands aside and is not counted as alive)."""
    UI[s, UI_TYPE, u] = ty
    UI[s, UI_SQUAD, u] = q
    UI[s, UI_ALIVE, u] = 1 - withdrawn
    UI[s, UI_WITHDRAWN, u] = withdrawn
    UI[s, UI_SUMMONED, u] = summoned
    UI[s, UI_TICK, u] = 0
    UI[s, UI_SACR, u] = 0
    UI[s, UI_DIRTY, u] = 0
    # the rings are emptied as they are read; a unit that ever held an effect (in an earlier
    # battle of this workspace) has them emptied here
    if UI[s, UI_RING_END, u] > 0:
        for r in range(3):
            for j in range(RING):
                RG[s, r, u, j] = 0.0
    UI[s, UI_RING_END, u] = 0
    UI[s, UI_SUMMON, u] = TI[ty, TI_SUMMON_TYPE]
    UI[s, UI_ATK, u] = TI[ty, TI_ATTACK]
    UI[s, UI_APR, u] = TI[ty, TI_APR]
    UI[s, UI_FLAGS, u] = TI[ty, TI_ON_HIT]
    if withdrawn == 0:
        SQ[s, SQ_ALIVE, q] += 1
        roles = (ROLE_SAC if TI[ty, TI_SAC_PCT] > 0 else 0) | (ROLE_BURP if TI[ty, TI_BURP_ROUNDS] > 0 else 0) \
            | (ROLE_HEAL if TI[ty, TI_HEAL_ROUNDS] > 0 else 0) | (ROLE_POISON if TI[ty, TI_POISON_ROUNDS] > 0 else 0) \
            | (ROLE_ON_HIT if TI[ty, TI_ON_HIT] != 0 else 0)
        SQ[s, SQ_ROLES, q] |= roles
        SQ[s, SQ_ROLES, SQ.shape[2] - 1] |= roles
    UF[s, UF_HP, u] = TF[ty, TF_HEALTH]
    UF[s, UF_MAXHP, u] = TF[ty, TF_HEALTH]
    UF[s, UF_DEF, u] = TF[ty, TF_DEFENCE]
    UF[s, UF_CFIN, u] = 1.0
    UF[s, UF_SHOTC, u] = 0.0
    UF[s, UF_OUTS, u] = SQM[s, ty]
    for f in range(UF_DMG, UF_DEBUFF):
        UF[s, f, u] = 0.0
    UF[s, UF_DEBUFF, u] = 1.0
    UF[s, UF_MN, u] = TF[ty, TF_MIN_MELEE]
    UF[s, UF_CFNEXT, u] = 1.0
    UF[s, UF_CFOUT, u] = 1.0
    UF[s, UF_INSM, u] = SF[s, SF_TAKEN] * TF[ty, TF_TAKEN_MELEE]
    UF[s, UF_INSS, u] = SF[s, SF_TAKEN] * TF[ty, TF_TAKEN_SHOTS]
    UF[s, UF_REGEN, u] = TF[ty, TF_REGEN]
    UF[s, UF_SHOTF, u] = 1.0


# --------------------------------------------------------------------------- a round

@njit(cache=True, inline="always")
def _auras(TF, P, PI, NSQ, UI, SQ, NU, ACAR, AF):
    """Per squad at the start of a round: hero (+15% damage), archpriest (-15% taken), fatigue."""
    for s in range(2):
        for q in range(NSQ[s]):
            AF[s, 0, q] = 1.0
            AF[s, 1, q] = 1.0
            fat = 1.0 - P[P_FATIGUE] * SQ[s, SQ_FATIGUE, q]
            AF[s, 2, q] = fat if fat > 0.0 else 0.0
        if PI[PI_HAS_AURA] == 1:  # only deployed units carry auras: ACAR lists them
            for k in range(ACAR[s, 0]):
                u = np.uint64(ACAR[s, 1 + k])
                if UI[s, UI_ALIVE, u] == 1:
                    ty = np.uint64(UI[s, UI_TYPE, u])
                    sq = np.uint64(UI[s, UI_SQUAD, u])
                    AF[s, 0, sq] *= TF[ty, TF_SQUAD_DAMAGE]
                    AF[s, 1, sq] *= TF[ty, TF_SQUAD_TAKEN]
        elif PI[PI_HAS_AURA] == 2:  # summoned units may carry them too
            for w in range(NU[s]):
                u = np.uint64(w)
                if UI[s, UI_ALIVE, u] == 1:
                    ty = np.uint64(UI[s, UI_TYPE, u])
                    sq = np.uint64(UI[s, UI_SQUAD, u])
                    AF[s, 0, sq] *= TF[ty, TF_SQUAD_DAMAGE]
                    AF[s, 1, sq] *= TF[ty, TF_SQUAD_TAKEN]


@njit_no_counts
def _volley_shots(TF, TI, P, PI, SF, UF, UI, RG, SQ, L, RS, ST, AF, kind, a, nshots, foe, nf, cover):
    """Shots ``L[a, L_SHOTS, :nshots]`` (one entry per shot) at the enemy list ``foe``. A cannon's
    or a Fire Hail's shot strikes a share of the squad: «задевает 20% вражеского отряда, но
    минимум 1 и максимум 5 юнитов» (one die for the shot, each struck unit takes it: a random unit
    and the ones after it in the squad's order, as the exact engine strikes them).

    The damage of a shot: «Защита. Вычитается из любого получаемого урона... Штрафы и бонусы к
    урону применяются после вычитания защиты»; shields (taken from shots), cover, the squad's
    archpriest, the side's campaign modifiers; the enlightened's debuff and armour shred."""
    paladin = PI[PI_PALADIN_WHOLE] != 0
    has_ring = PI[PI_HAS_RING] != 0
    cover_f = P[P_COVER] if cover else 1.0
    b = 1 - a
    key = RS[0]
    ctr = RS[1]
    attacks = 0
    for k in range(nshots):
        u = np.uint64(L[a, L_SHOTS, k])
        ty = np.uint64(UI[a, UI_TYPE, u])
        q = np.uint64(UI[a, UI_SQUAD, u])
        out = UF[a, UF_OUTS, u] * AF[a, 0, q] * AF[a, 2, q] * SF[a, SF_SHOTS]
        if has_ring:
            out *= UF[a, UF_DEBUFF, u]
        if TF[ty, TF_AREA_PCT] > 0.0:
            m = int(math.floor(TF[ty, TF_AREA_PCT] * nf / 100.0))
            if m > TI[ty, TI_AREA_MAX]:
                m = TI[ty, TI_AREA_MAX]
            if m < TI[ty, TI_AREA_MIN]:
                m = TI[ty, TI_AREA_MIN]
            if m > nf:
                m = nf
            ctr += np.uint64(1)
            x = draw_at(key, ctr)
            start = below(hi(x), nf)
            roll = 1 + below(lo(x), TI[ty, TI_RANGED])
            m_single = False
        else:
            m = 1
            ctr += np.uint64(1)
            x = draw_at(key, ctr)
            start = below(hi(x), nf)
            roll = 1 + below(lo(x), TI[ty, TI_RANGED])
            m_single = True
        comp = TF[ty, TF_SHOT_COMP]
        mn = TF[ty, TF_MIN_RANGED]
        dr = TI[ty, TI_DEBUFF_ROUNDS]
        sh = TF[ty, TF_SHRED]
        for j in range(m):
            w = start + j
            t = np.uint64(L[b, foe, w - nf if w >= nf else w])
            tq = np.uint64(UI[b, UI_SQUAD, t])
            base = roll - UF[b, UF_DEF, t]
            if base < 0.0:
                base = 0.0
            if base < mn:
                base = mn
            o = out
            if comp != 1.0:
                # чародей: «каждый последующий выстрел наносит на 5% урона больше»: a single shot
                # keeps the running factor, an area shot raises to the power of its place
                o *= UF[a, UF_SHOTF, u] if m_single else comp ** (UF[a, UF_SHOTC, u] + j)
            # призрачный зверь: «понижает получаемый урон ... на 5% с каждой атакой» (UF_CFIN):
            # against shots too (R41)
            inn = AF[b, 1, tq] * UF[b, UF_INSS, t] * UF[b, UF_CFIN, t] * cover_f
            if paladin and SQ[b, SQ_DEFENDING, tq] != 0:
                inn *= TF[UI[b, UI_TYPE, t], TF_TAKEN_DEFENDING]
            UF[b, UF_DMG, t] += base * o * inn
            if dr > 0:
                # просветлённый: «каждое попадание в дальнем бою снижает наносимый урон на 15% на
                # 3 хода (эффект может складываться)»
                _stack(RG, UI, b, R_DEBUFF, t, TF[ty, TF_DEBUFF_LOG], dr)
            if sh != 0.0:
                UF[b, UF_SHRED, t] += sh
                UI[b, UI_DIRTY, t] = 1
        UF[a, UF_RSHOT, u] += 1.0
        UI[a, UI_DIRTY, u] = 1
        if m_single and comp != 1.0:
            UF[a, UF_SHOTF, u] *= comp
        attacks += m
    RS[1] = ctr
    ST[ST_ATTACKS] += attacks


@njit_no_counts
def _fight(TF, TI, P, PI, SF, UF, UI, RG, SQ, Q, L, LN, RS, ST, AF, kind, rnd, charger, defender_fight,
           flank0, flank1, q0, q1):
    """One pairing of a round: groups ``L_GROUP``, rearguard shooters ``L_SHOOT``, healers
    ``L_HEAL`` of each side; sacrifices, attacks, shots, healers and burps in the engine's
    order. Damage and effects wait in the accumulators until :func:`_apply`, so every unit of
    these lists stays alive until the round's end (a sacrificed cultist only stops attacking)."""
    n = (LN[0, L_GROUP], LN[1, L_GROUP])
    ST[ST_FIGHTS] += 1
    ST[ST_FIGHTERS] += n[0] + n[1]
    nsac0 = 0  # cultists who sacrificed themselves this round, per side
    nsac1 = 0
    # Культист: «Каждый ход может с шансом 10% пожертвовать собой нанести ровно 7 урона
    # четверым противникам. После такой атаки культист гарантированно умирает.»
    for a in range(2):
        b = 1 - a
        if n[b] == 0 or PI[PI_HAS_SAC] == 0 or SQ[a, SQ_ROLES, q0 if a == 0 else q1] & ROLE_SAC == 0:
            continue
        for k in range(n[a]):
            u = np.uint64(L[a, L_GROUP, k])
            ty = np.uint64(UI[a, UI_TYPE, u])
            pct = TI[ty, TI_SAC_PCT]
            if pct <= 0:
                continue
            if 1 + below(hi(draw(RS)), 100) <= pct:
                m = min(TI[ty, TI_SAC_TARGETS], n[b])
                start = below(hi(draw(RS)), n[b])
                for j in range(m):
                    w = start + j
                    UF[b, UF_DMG, L[b, L_GROUP, w - n[b] if w >= n[b] else w]] += TF[ty, TF_SAC_DAMAGE]
                ST[ST_ATTACKS] += m
                UI[a, UI_SACR, u] = 1
                UI[a, UI_DIRTY, u] = 1
                if a == 0:
                    nsac0 += 1
                else:
                    nsac1 += 1
    # «Если один отряд численно превышает другой в два раза или больше, то меньший отряд получит
    # штраф +25% к получаемому урону.»
    out0 = False
    out1 = False
    if kind != F_FINAL or PI[PI_OUTNUMBER_FINAL] != 0:
        out1 = P[P_OUTNUMBER_RATIO] * n[1] <= n[0]
        out0 = P[P_OUTNUMBER_RATIO] * n[0] <= n[1]
    # each fighter's outgoing (UF_OM) and incoming (UF_IM) melee multiplier for this fight:
    # «Штрафы и бонусы к урону (например, процентные увеличения) применяются после вычитания защиты.»
    has_ring = PI[PI_HAS_RING] != 0
    poison = PI[PI_HAS_POISON] != 0
    paladin = PI[PI_PALADIN_WHOLE] != 0
    for e in range(2):
        a = 1 - e
        # the fighters are touched by the round (the list of units its end goes through)
        t0 = LN[e, L_TOUCH]
        for k in range(LN[e, L_GROUP]):
            u = np.uint64(L[e, L_GROUP, k])
            L[e, L_TOUCH, t0 + k] = u
            ty = np.uint64(UI[e, UI_TYPE, u])
            q = np.uint64(UI[e, UI_SQUAD, u])
            om = UF[e, UF_OUTS, u] * AF[e, 0, q] * AF[e, 2, q]
            if has_ring:
                om *= UF[e, UF_DEBUFF, u]
            if kind == F_CHARGE and charger == e:
                om *= TF[ty, TF_CHARGE_BONUS]
                if rnd == 1:
                    om *= TF[ty, TF_CHARGE_FIRST]
            UF[e, UF_OM, u] = om
            # призрачный зверь: «понижает получаемый урон ... на 5% с каждой атакой» (UF_CFIN)
            im = AF[e, 1, q] * UF[e, UF_INSM, u] * UF[e, UF_CFIN, u]
            if (out0 if e == 0 else out1):
                im *= P[P_OUTNUMBER]
            im *= flank0 if e == 0 else flank1
            if kind == F_CHARGE and charger == a:
                # копейщик: «-25% к получаемому урону при натиске»
                im *= TF[ty, TF_TAKEN_VS_CHARGE]
            # паладин: «-25% к получаемому урону при защите» (fighting off a charge as the
            # rearguard's defender; the option: for the whole battle after «Защита»)
            if ((kind == F_CHARGE and defender_fight and charger == a)
                    or (paladin and SQ[e, SQ_DEFENDING, q] != 0)):
                im *= TF[ty, TF_TAKEN_DEFENDING]
            UF[e, UF_IM, u] = im
    count = n[0] if n[0] > n[1] else n[1]
    for a in range(2):
        b = 1 - a
        if n[a] == (nsac0 if a == 0 else nsac1) or n[b] == 0:
            continue
        # «Гарантируется, что каждый юнит из отряда рано или поздно атакует»: each squad keeps a
        # bag of the fighters that have not attacked since it was last filled (``Q[a, qi,
        # :SQ_QLEN]``); the round's ``count`` attackers are taken from it without replacement,
        # and an empty bag is filled again with the squad's fighting units (the group less the
        # cultists who sacrificed themselves). Units gone since are dropped.
        qi = q0 if a == 0 else q1
        bn = 0
        for i in range(SQ[a, SQ_QLEN, qi]):
            u = np.uint64(Q[a, qi, i])
            Q[a, qi, bn] = u
            bn += UI[a, UI_ALIVE, u] & (1 - UI[a, UI_SACR, u])
        # The round's attackers, in ``L[a, L_SHOTS, :m]``: the order of a round's attacks does not
        # matter (every attack sees the state at the round's start), so a bag that the round
        # empties attacks whole, as does each full refill, and only a last, partial bag is drawn
        # from at random.
        nb = n[b]
        attacks = 0
        key = RS[0]
        ctr = RS[1]
        used = 0   # draws taken (counters ctr + 1 .. ctr + used)
        ua = np.uint64(a)
        ub = np.uint64(b)
        A = L[a, L_SHOTS]
        m = 0
        rem = count
        if rem >= bn:
            for i in range(bn):
                A[m + i] = Q[a, qi, i]
            m += bn
            rem -= bn
            bn = 0
            if rem > 0:
                for i in range(n[a]):
                    u = np.uint64(L[a, L_GROUP, i])
                    Q[a, qi, bn] = u
                    bn += 1 - UI[ua, UI_SACR, np.uint64(u)]
                while rem >= bn:
                    for i in range(bn):
                        A[m + i] = Q[a, qi, i]
                    m += bn
                    rem -= bn
                if rem == 0:
                    bn = 0   # the refill is used up: the next round fills the bag anew
        have = False
        spare = np.uint64(0)
        for _ in range(rem):
            if have:
                j = below(spare, bn)
                have = False
            else:
                used += 1
                x = draw_at(key, ctr + np.uint64(used))
                j = below(hi(x), bn)
                spare = lo(x)
                have = True
            bn -= 1
            A[m] = Q[a, qi, j]
            m += 1
            Q[a, qi, j] = Q[a, qi, bn]
        # whether a strike at this group may poison the striker, and whether a strike of this
        # group may have an effect on hit (each group is one squad, or a whole side in the final)
        poisoned = poison and SQ[b, SQ_ROLES, q1 if a == 0 else q0] & ROLE_POISON != 0
        if not poisoned and SQ[a, SQ_ROLES, q0 if a == 0 else q1] & ROLE_ON_HIT == 0:
            # the common case: strikes that only deal damage (the strike of the loop below,
            # written out again: the two sharing an inlined helper compiled 3–13% slower)
            for k in range(m):
                u = np.uint64(A[k])
                atk = UI[ua, UI_ATK, u]
                om = UF[ua, UF_OM, u]
                mn = UF[ua, UF_MN, u]
                for _ in range(UI[ua, UI_APR, u] if atk > 0 else 0):
                    used += 1
                    x = draw_at(key, ctr + np.uint64(used))
                    t = np.uint64(L[b, L_GROUP, below(hi(x), nb)])
                    roll = 1 + below(lo(x), atk)
                    base = roll - UF[ub, UF_DEF, t]
                    base = base if base > 0.0 else 0.0
                    base = base if base > mn else mn
                    UF[ub, UF_DMG, t] += base * om * UF[ub, UF_IM, t]
                    attacks += 1
            m = 0
        for k in range(m):
            u = np.uint64(A[k])
            atk = UI[ua, UI_ATK, u]
            if atk <= 0:
                continue
            om = UF[ua, UF_OM, u]
            mn = UF[ua, UF_MN, u]
            flags = UI[ua, UI_FLAGS, u]
            if flags & (ON_COMP | ON_GAIN):
                UI[ua, UI_DIRTY, u] = 1   # its compounding factor or its heal on hit moves
            for _ in range(UI[ua, UI_APR, u]):
                used += 1
                x = draw_at(key, ctr + np.uint64(used))
                t = np.uint64(L[b, L_GROUP, below(hi(x), nb)])
                roll = 1 + below(lo(x), atk)
                base = roll - UF[ub, UF_DEF, t]
                base = base if base > 0.0 else 0.0
                base = base if base > mn else mn
                out = om
                if flags & ON_COMP:
                    out *= UF[ua, UF_CFOUT, u]
                dmg = base * out * UF[ub, UF_IM, t]
                UF[ub, UF_DMG, t] += dmg
                attacks += 1
                if flags != 0:
                    ty = np.uint64(UI[ua, UI_TYPE, u])
                    if flags & ON_COMP:
                        # «повышает исходящий на 5% с каждой атакой»: the factors move on
                        UF[ua, UF_CFOUT, u] *= TF[ty, TF_ATK_COMP_OUT]
                        UF[ua, UF_CFNEXT, u] *= TF[ty, TF_ATK_COMP_IN]
                    if flags & ON_GAIN:
                        UF[ua, UF_GAIN, u] += TF[ty, TF_HEAL_HIT] + TF[ty, TF_LIFESTEAL] * dmg
                    if flags & ON_BURN:
                        _stack(RG, UI, ub, R_DOT, t, TF[ty, TF_BURN_PR], TI[ty, TI_BURN_ROUNDS])
                    if flags & ON_SHRED:
                        UF[ub, UF_SHRED, t] += TF[ty, TF_SHRED]
                        UI[ub, UI_DIRTY, t] = 1
                if not poisoned:
                    continue
                tt = np.uint64(UI[ub, UI_TYPE, t])
                if TI[tt, TI_POISON_ROUNDS] > 0 and dmg > 0.0:
                    # заразитель: «При каждом получении урона в ближнем бою отравляет атакующего»
                    _stack(RG, UI, ua, R_DOT, u, TF[tt, TF_POISON_PR], TI[tt, TI_POISON_ROUNDS])
        ctr += np.uint64(used)
        SQ[a, SQ_QLEN, qi] = bn
        RS[1] = ctr
        ST[ST_ATTACKS] += attacks
    # «Если стрелки находятся в арьергарде, то каждый ход боя они автоматически ... совершают
    # каждый по 1 выстрелу и атакуют вражеский авангард своего фланга.»
    for a in range(2):
        nb = n[1 - a]
        m = LN[a, L_SHOOT]
        for k in range(m):
            L[a, L_SHOTS, k] = L[a, L_SHOOT, k]
        if m == 0 or nb == 0:
            continue
        _volley_shots(TF, TI, P, PI, SF, UF, UI, RG, SQ, L, RS, ST, AF, I64(kind), I64(a), I64(m), I64(L_GROUP),
                      I64(nb), np.bool_(False))
    # Целитель: «накладывает регенерацию (6 единиц здоровья за 3 раунда) на случайного бойца
    # впередистоящего (если есть) или своего отряда каждый раунд»
    for a in range(2):
        if LN[a, L_HEAL] == 0:
            continue
        m = n[a]
        if m == 0:
            continue
        for k in range(LN[a, L_HEAL]):
            h = np.uint64(L[a, L_HEAL, k])
            hty = np.uint64(UI[a, UI_TYPE, h])
            t = np.uint64(L[a, L_GROUP, below(hi(draw(RS)), m)])
            _stack(RG, UI, a, R_HEAL, t, TF[hty, TF_HEAL_PR], TI[hty, TI_HEAL_ROUNDS])
    # Огнеглот: «каждый второй ход (начиная с первого) совершает огненную отрыжку на случайного
    # врага (-6 единиц здоровья за 2 раунда)»
    for a in range(2):
        b = 1 - a
        if n[b] == 0 or PI[PI_HAS_BURP] == 0 or SQ[a, SQ_ROLES, q0 if a == 0 else q1] & ROLE_BURP == 0:
            continue
        for k in range(n[a]):
            u = np.uint64(L[a, L_GROUP, k])
            ty = np.uint64(UI[a, UI_TYPE, u])
            br = TI[ty, TI_BURP_ROUNDS]
            if br <= 0 or UI[a, UI_SACR, u] == 1:
                continue
            if (rnd - 1) % TI[ty, TI_BURP_EVERY] != 0:
                continue
            t = np.uint64(L[b, L_GROUP, below(hi(draw(RS)), n[b])])
            _stack(RG, UI, b, R_DOT, t, TF[ty, TF_BURP_PR], br)
            ST[ST_ATTACKS] += 1
    for a in range(2):
        t0 = LN[a, L_TOUCH] + n[a]
        for k in range(LN[a, L_SHOOT]):
            L[a, L_TOUCH, t0 + k] = L[a, L_SHOOT, k]
        LN[a, L_TOUCH] = t0 + LN[a, L_SHOOT]


@njit(cache=True, inline="always")
def _apply_unit(UF, UI, SQ, s, uu):
    """The end of a round for one unit: damage, death (a sacrificed cultist dies), heal on hit,
    armour shred, and the round's attack and shot counters. Health and death are written with
    selects rather than branches (which units die is random, a branch would be mispredicted).
    The fields that only some units ever change (heal on hit, the compounding factor, shred,
    shots, the sacrifice) are read only for units whose ``UI_DIRTY`` says the round changed one:
    most units of a round read five fields (alive, health, damage, the mark, the squad), not nine."""
    u = np.uint64(uu)
    alive = UI[s, UI_ALIVE, u]
    before = UF[s, UF_HP, u]
    hp = before - UF[s, UF_DMG, u]
    UF[s, UF_DMG, u] = 0.0
    if UI[s, UI_DIRTY, u] == 0:
        dies = alive & int(hp <= 0.0)
        if hp > before:   # only a negative damage factor (a house rule) can heal
            mx = UF[s, UF_MAXHP, u]
            hp = hp if hp < mx else mx
        UF[s, UF_HP, u] = hp if alive == 1 else before
        UI[s, UI_ALIVE, u] = alive - dies
        SQ[s, SQ_ALIVE, np.uint64(UI[s, UI_SQUAD, u])] -= dies
        return
    UI[s, UI_DIRTY, u] = 0
    sac = UI[s, UI_SACR, u]
    flags = UI[s, UI_FLAGS, u]
    dies = alive & (int(hp <= 0.0) | sac)
    healed = hp
    if flags & ON_GAIN:
        healed += UF[s, UF_GAIN, u]
        UF[s, UF_GAIN, u] = 0.0
    mx = UF[s, UF_MAXHP, u]
    healed = healed if healed < mx else mx
    after = (0.0 if sac == 1 else hp) if dies == 1 else healed
    UF[s, UF_HP, u] = after if alive == 1 else before
    UI[s, UI_ALIVE, u] = alive - dies
    SQ[s, SQ_ALIVE, np.uint64(UI[s, UI_SQUAD, u])] -= dies
    sh = UF[s, UF_SHRED, u]
    if sh != 0.0:
        d = UF[s, UF_DEF, u] - sh
        UF[s, UF_DEF, u] = d if d > 0.0 else 0.0
        UF[s, UF_SHRED, u] = 0.0
    if flags & ON_COMP:
        UF[s, UF_CFIN, u] = UF[s, UF_CFNEXT, u]
    rs = UF[s, UF_RSHOT, u]
    if rs != 0.0:
        UF[s, UF_SHOTC, u] += rs
        UF[s, UF_RSHOT, u] = 0.0
    if sac != 0:
        UI[s, UI_SACR, u] = 0


@njit(cache=True, inline="always")
def _apply(UF, UI, SQ, NU):
    """The end of a round for every unit."""
    for s in range(2):
        for u in range(NU[s]):
            _apply_unit(UF, UI, SQ, s, u)


@njit(cache=True, inline="always")
def _apply_part(UF, UI, SQ, L, LN):
    """:func:`_apply` for the units the round's fights touched (``L_TOUCH``): nobody else took
    damage, healed on a hit, lost armour, attacked or shot."""
    for s in range(2):
        for k in range(LN[s, L_TOUCH]):
            _apply_unit(UF, UI, SQ, s, L[s, L_TOUCH, k])


@njit(cache=True, inline="always")
def _healers_into(TI, UI, L, LN, s, lst, has_heal):
    """Append the healers among ``L[s, lst]`` to ``L_HEAL``."""
    if has_heal == 0:
        return
    m = LN[s, L_HEAL]
    for k in range(LN[s, lst]):
        u = L[s, lst, k]
        L[s, L_HEAL, m] = u
        m += TI[UI[s, UI_TYPE, np.uint64(u)], TI_HEAL_ROUNDS] > 0
    LN[s, L_HEAL] = m


# --------------------------------------------------------------------------- phases

@njit(cache=True)
def _init(S, W):
    TF, NINIT, ITYPE, ISQ, IWD, NSQ, HOME = S[0], S[6], S[7], S[8], S[9], S[11], S[12]
    SF, SQM = S[4], S[5]
    UF, UI, RG, SQ, NU, ST, M = W[0], W[1], W[2], W[3], W[7], W[8], W[12]
    for i in range(NST):
        ST[i] = 0
    MS = SQ.shape[2] - 1
    for s in range(2):
        for q in range(MS + 1):
            for f in range(NSQF):
                SQ[s, f, q] = 0
        for q in range(NSQ[s]):
            SQ[s, SQ_POS, q] = HOME[s, q]
        n = NINIT[s]
        NU[s] = n
        for u in range(n):
            _init_unit(TF, S[1], SF, SQM, UF, UI, RG, SQ, I64(s), I64(u), ITYPE[s, u], ISQ[s, u], IWD[s, u], I64(0))
            if IWD[s, u] == 0:
                _enlist(SQ, M, s, ISQ[s, u], u)


@njit(cache=True)
def _template(S, cap, max_squads, lcap):
    """The deployed units and squads as every battle of the scenario starts: :func:`_init`'s
    result, computed once per call of :func:`simulate` and copied into each battle's workspace."""
    W = _workspace(cap, max_squads, lcap)
    _init(S, W)
    n = max(S[6][0], S[6][1])
    return W[0][:, :, :n].copy(), W[1][:, :, :n].copy(), W[3].copy(), W[12][:, :, :n].copy()


@njit_no_counts
def _init_from(S, W, T, full):
    """:func:`_init` by copying the template ``T``; effect rings that a unit used in an earlier
    battle of the workspace are emptied first (its ``UI_RING_END`` still says so). Without
    ``full`` the workspace holds a battle of the same template already, and only the fields a
    battle changes (``UF_CHANGING``, ``UI_CHANGING``) are copied: the rest of a deployed unit's
    row never changes, and summoned units are set up whole as they join."""
    NINIT = S[6]
    UF, UI, RG, SQ, NU, ST, M = W[0], W[1], W[2], W[3], W[7], W[8], W[12]
    UF0, UI0, SQ0, M0 = T
    for i in range(NST):
        ST[i] = 0
    for s in range(2):
        for f in range(NSQF):
            for q in range(SQ.shape[2]):
                SQ[s, f, q] = SQ0[s, f, q]
        n = NINIT[s]
        NU[s] = n
        for u in range(n):
            if UI[s, UI_RING_END, u] > 0:
                for r in range(3):
                    for j in range(RING):
                        RG[s, r, u, j] = 0.0
        if full:
            for f in range(NUF):
                for u in range(n):
                    UF[s, f, u] = UF0[s, f, u]
            for f in range(NUI):
                for u in range(n):
                    UI[s, f, u] = UI0[s, f, u]
        else:
            for f in UF_CHANGING:
                for u in range(n):
                    UF[s, f, u] = UF0[s, f, u]
            for f in UI_CHANGING:
                for u in range(n):
                    UI[s, f, u] = UI0[s, f, u]
        for q in range(SQ.shape[2]):
            for k in range(SQ0[s, SQ_MLEN, q]):
                M[s, q, k] = M0[s, q, k]


@njit_no_counts
def _volleys(S, W, AF):
    """«Обстрел: отряд атакует авангардный отряд противника до начала боя.» All volleys of both
    sides at once; each unit fires its «число выстрелов при обстреле»."""
    TF, TI, P, PI, SF, NSQ = S[0], S[1], S[2], S[3], S[4], S[11]
    ACAR = S[18]
    UF, UI, RG, SQ, Q, L, LN, NU, ST, RS, PS, OCC, M = W
    KIND, T0 = S[13], S[14]
    any_volley = False
    for s in range(2):
        for q in range(NSQ[s]):
            if (KIND[s, q] == K_VOLLEY or KIND[s, q] == K_LONG_VOLLEY) and SQ[s, SQ_ALIVE, q] > 0:
                any_volley = True
    if not any_volley:
        return
    _auras(TF, P, PI, NSQ, UI, SQ, NU, ACAR, AF)
    # all targets are chosen on the state before any volley lands
    targets = PS[PS_TARGETS:PS_TARGETS + 2]
    for s in range(2):
        for q in range(NSQ[s]):
            targets[s, q] = -1
            if (KIND[s, q] == K_VOLLEY or KIND[s, q] == K_LONG_VOLLEY) and SQ[s, SQ_ALIVE, q] > 0:
                targets[s, q] = _at(SQ, NSQ[1 - s], 1 - s, T0[s, q]) if T0[s, q] >= 0 else -1
    for s in range(2):
        e = 1 - s
        for q in range(NSQ[s]):
            tq = targets[s, q]
            if tq < 0:
                continue
            m = 0
            for u in range(NU[s]):
                if UI[s, UI_ALIVE, u] == 1 and UI[s, UI_SQUAD, u] == q:
                    for _ in range(TI[UI[s, UI_TYPE, u], TI_SHOTS]):
                        L[s, L_SHOTS, m] = u
                        m += 1
            nf = _members(UI, SQ, M, e, tq, L[e, L_FOE])
            LN[e, L_FOE] = nf
            _volley_shots(TF, TI, P, PI, SF, UF, UI, RG, SQ, L, RS, ST, AF, I64(F_VOLLEY), I64(s), I64(m), I64(L_FOE),
                          I64(nf), np.bool_(SQ[e, SQ_COVER, tq] != 0))
    _apply(UF, UI, SQ, NU)
    _normalise(SQ, NSQ[0], 0)
    _normalise(SQ, NSQ[1], 1)


@njit_no_counts
def _charge_fight(S, W, AF, s, q, opp, as_defender, first_round):
    """The charger ``q`` of side ``s`` against enemy squad ``opp`` until one is gone."""
    TF, TI, P, PI, SF, NSQ = S[0], S[1], S[2], S[3], S[4], S[11]
    ACAR, SQM = S[18], S[5]
    UF, UI, RG, SQ, Q, L, LN, NU, ST, RS, PS, OCC, M = W
    e = 1 - s
    rounds = 0
    r = first_round
    start = PI[PI_HAS_RING] != 0 or PI[PI_HAS_REGEN] != 0 or PI[PI_HAS_SUMMON] != 0
    summons = PI[PI_HAS_SUMMON] != 0 and PI[PI_SUMMONS] != 0
    while SQ[s, SQ_ALIVE, q] > 0 and SQ[e, SQ_ALIVE, opp] > 0 and rounds < PI[PI_MAX_CHARGE]:
        if start:
            LN[0, L_SUMMON] = 0
            LN[1, L_SUMMON] = 0
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, s, q, True)
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, e, opp, True)
        else:
            LN[s, L_GROUP] = _members(UI, SQ, M, s, q, L[s, L_GROUP])
            LN[e, L_GROUP] = _members(UI, SQ, M, e, opp, L[e, L_GROUP])
        for x in range(2):
            LN[x, L_SHOOT] = 0
            LN[x, L_HEAL] = 0
            if PI[PI_HAS_HEAL] != 0:
                _healers_into(TI, UI, L, LN, x, L_GROUP, SQ[x, SQ_ROLES, q if x == s else opp] & ROLE_HEAL)
        _auras(TF, P, PI, NSQ, UI, SQ, NU, ACAR, AF)
        LN[0, L_TOUCH] = 0
        LN[1, L_TOUCH] = 0
        if s == 0:
            _fight(TF, TI, P, PI, SF, UF, UI, RG, SQ, Q, L, LN, RS, ST, AF, F_CHARGE, I64(r), I64(s),
                   np.bool_(as_defender), 1.0, 1.0, I64(q), I64(opp))
        else:
            _fight(TF, TI, P, PI, SF, UF, UI, RG, SQ, Q, L, LN, RS, ST, AF, F_CHARGE, I64(r), I64(s),
                   np.bool_(as_defender), 1.0, 1.0, I64(opp), I64(q))
        _apply_part(UF, UI, SQ, L, LN)
        if summons:
            _tock(TF, TI, PI, SF, SQM, UF, UI, RG, SQ, M, L, LN, NU, ST)
        ST[ST_CHARGE] += 1
        rounds += 1
        r += 1
    return r


@njit_no_counts
def _charges(S, W, AF):
    """«Натиск: отряд идёт в обход авангарда и сражается с арьергардом противника.» «При
    попытке натиска нужно будет сначала победить защитников.» Flank by flank, first side first."""
    NSQ, HOME, KIND, T0 = S[11], S[12], S[13], S[14]
    SQ, PS = W[3], W[10]
    keys = PS[PS_KEYS]
    who = PS[PS_WHO]
    m = 0
    for s in range(2):
        for q in range(NSQ[s]):
            if KIND[s, q] == K_CHARGE and SQ[s, SQ_ALIVE, q] > 0:
                p = SQ[s, SQ_POS, q]
                keys[m] = _col(p) * 100 + s * 10 + _row(p)
                who[m] = s * 1000 + q
                m += 1
    # stable insertion sort by (column, side, row)
    for i in range(1, m):
        k, w = keys[i], who[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            who[j + 1] = who[j]
            j -= 1
        keys[j + 1] = k
        who[j + 1] = w
    for i in range(m):
        s = who[i] // 1000
        q = who[i] % 1000
        e = 1 - s
        if SQ[s, SQ_ALIVE, q] == 0:
            continue
        target = -1
        for o in range(NSQ[e]):
            if HOME[e, o] == T0[s, q]:
                target = o
                break
        if target < 0 or SQ[e, SQ_ALIVE, target] == 0 or _row(SQ[e, SQ_POS, target]) != 1:
            continue
        defender = -1
        for o in range(NSQ[e]):
            if KIND[e, o] == K_DEFEND and T0[e, o] == HOME[e, target] and SQ[e, SQ_ALIVE, o] > 0:
                defender = o
        r = 1
        if defender >= 0 and SQ[s, SQ_ALIVE, q] > 0:
            r = _charge_fight(S, W, AF, I64(s), I64(q), I64(defender), np.bool_(True), I64(r))
        if SQ[s, SQ_ALIVE, q] > 0:
            r = _charge_fight(S, W, AF, I64(s), I64(q), I64(target), np.bool_(False), I64(r))
        _normalise(SQ, NSQ[0], 0)
        _normalise(SQ, NSQ[1], 1)


@njit_no_counts
def _step(SQ, nsq, s, sqs, dests, n, done, alive):
    """One step of every move of side ``s``: swaps first («они могут поменяться местами»), then
    moves into free cells until none is possible. ``done`` and ``alive`` are scratch rows."""
    for i in range(n):
        done[i] = False
        alive[i] = SQ[s, SQ_ALIVE, sqs[i]] > 0
    for i in range(n):
        if not alive[i]:
            continue
        for j in range(i + 1, n):
            if not alive[j] or done[i] or done[j]:
                continue
            pi = SQ[s, SQ_POS, sqs[i]]
            pj = SQ[s, SQ_POS, sqs[j]]
            if dests[i] == pj and dests[j] == pi and _dist(pi, dests[i]) == 1:
                SQ[s, SQ_POS, sqs[i]] = dests[i]
                SQ[s, SQ_POS, sqs[j]] = dests[j]
                done[i] = True
                done[j] = True
    progress = True
    while progress:
        progress = False
        for i in range(n):
            if not alive[i] or done[i] or _dist(SQ[s, SQ_POS, sqs[i]], dests[i]) != 1:
                continue
            if _at(SQ, nsq, s, dests[i]) < 0:
                SQ[s, SQ_POS, sqs[i]] = dests[i]
                done[i] = True
                progress = True


@njit_no_counts
def _moves(S, W):
    """«Смена позиции: Отряд перемещается на одну свободную соседнюю ячейку.» «Марш-бросок:
    отряд дважды использует смену позиции. Отряд получает две единицы усталости.» Step one of
    every move, then the second steps (marches and the free position change)."""
    PI, NSQ, KIND, T0, T1, FREE = S[3], S[11], S[13], S[14], S[15], S[16]
    SQ, PS = W[3], W[10]
    sqs = PS[PS_SQS:PS_SQS + 3]
    dests = PS[PS_DESTS:PS_DESTS + 3]
    cnt = PS[PS_CNT]
    path = PS[PS_PATH]
    for s in range(2):
        nsq = NSQ[s]
        for k in range(3):
            cnt[k] = 0
        for q in range(nsq):
            if SQ[s, SQ_ALIVE, q] == 0:
                continue
            for k in range(3):
                path[k] = -1
            plen = 0
            kind = KIND[s, q]
            if kind in (K_MOVE, K_MARCH):
                if T0[s, q] >= 0:
                    path[plen] = T0[s, q]
                    plen += 1
                if T1[s, q] >= 0:
                    path[plen] = T1[s, q]
                    plen += 1
                if kind == K_MARCH:
                    SQ[s, SQ_FATIGUE, q] += PI[PI_MARCH_FATIGUE]
                    here = SQ[s, SQ_POS, q]
                    if plen == 1 and _dist(here, path[0]) == 2:
                        goal = path[0]
                        via = -1
                        first = -1
                        for p in (0, 1, 2, 3, 4, 5):
                            if _dist(here, p) == 1 and _dist(p, goal) == 1:
                                if first < 0:
                                    first = p
                                if via < 0 and _at(SQ, nsq, s, p) < 0:
                                    via = p
                        path[0] = via if via >= 0 else first
                        path[1] = goal
                        plen = 2
            if FREE[s, q] >= 0 and plen < 3:
                path[plen] = FREE[s, q]
                plen += 1
            for k in range(plen):
                sqs[k, cnt[k]] = q
                dests[k, cnt[k]] = path[k]
                cnt[k] += 1
        for k in range(3):
            if cnt[k] > 0:
                _step(SQ, nsq, s, sqs[k], dests[k], cnt[k], PS[PS_DONE], PS[PS_ALIVE])
        # «Если после перемещения выходит так, что арьергард находится на каком-либо фланге без
        # авангарда, то отряд мгновенно займёт место авангарда» (after the whole manoeuvre)
        _normalise(SQ, nsq, s)


@njit(cache=True, inline="always")
def _planning(S, W, AF):
    """«Манёвры обрабатываются в таком порядке: укрытия, обстрелы, защита, натиск, а затем смена
    позиций и марш-броски»"""
    PI, NSQ, KIND = S[3], S[11], S[13]
    SQ = W[3]
    for s in range(2):
        for q in range(NSQ[s]):
            if KIND[s, q] == K_COVER and SQ[s, SQ_ALIVE, q] > 0:
                SQ[s, SQ_COVER, q] = 1
    _volleys(S, W, AF)
    for s in range(2):
        for q in range(NSQ[s]):
            if KIND[s, q] == K_DEFEND and SQ[s, SQ_ALIVE, q] > 0:
                SQ[s, SQ_DEFENDING, q] = 1
                SQ[s, SQ_FATIGUE, q] += PI[PI_DEFEND_FATIGUE]
    _charges(S, W, AF)
    _moves(S, W)


@njit_no_counts
def _clash(S, W, AF):
    """«Столкновение»: each flank where both sides stand fights; rounds of all flanks count together."""
    TF, TI, P, PI, SF, NSQ = S[0], S[1], S[2], S[3], S[4], S[11]
    ACAR, SQM = S[18], S[5]
    UF, UI, RG, SQ, Q, L, LN, NU, ST, RS, PS, OCC, M = W
    has_heal = PI[PI_HAS_HEAL] != 0
    start = PI[PI_HAS_RING] != 0 or PI[PI_HAS_REGEN] != 0 or PI[PI_HAS_SUMMON] != 0
    summons = PI[PI_HAS_SUMMON] != 0 and PI[PI_SUMMONS] != 0
    MS = SQ.shape[2] - 1
    _occupy(SQ, NSQ, OCC)
    while ST[ST_CLASH] < PI[PI_MAX_CLASH]:
        active = 0
        for f in range(3):
            if OCC[0, f] >= 0 and OCC[1, f] >= 0:
                active += 1
        if active == 0:
            break
        # every living unit takes part in a clash round
        if start:
            LN[0, L_SUMMON] = 0
            LN[1, L_SUMMON] = 0
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, 0, MS, False)
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, 1, MS, False)
        _normalise_both(SQ, NSQ, OCC)
        active = 0
        for f in range(3):
            if OCC[0, f] >= 0 and OCC[1, f] >= 0:
                active += 1
        if active == 0:
            break
        ST[ST_CLASH] += 1
        ST[ST_ROUNDS] += 1
        _auras(TF, P, PI, NSQ, UI, SQ, NU, ACAR, AF)
        LN[0, L_TOUCH] = 0
        LN[1, L_TOUCH] = 0
        for f in range(3):
            van0 = OCC[0, f]
            van1 = OCC[1, f]
            if van0 < 0 or van1 < 0:
                continue
            for s in range(2):
                van = van0 if s == 0 else van1
                rear = OCC[s, 3 + f]
                LN[s, L_GROUP] = _members(UI, SQ, M, s, van, L[s, L_GROUP])
                LN[s, L_HEAL] = 0
                LN[s, L_SHOOT] = 0
                if has_heal:
                    _healers_into(TI, UI, L, LN, s, L_GROUP, SQ[s, SQ_ROLES, van] & ROLE_HEAL)
                if rear >= 0:
                    nb = _members(UI, SQ, M, s, rear, L[s, L_FOE])
                    LN[s, L_FOE] = nb
                    m = 0
                    for k in range(nb):
                        u = L[s, L_FOE, k]
                        L[s, L_SHOOT, m] = u
                        m += TI[UI[s, UI_TYPE, np.uint64(u)], TI_SHOOTER] != 0
                    LN[s, L_SHOOT] = m
                    if has_heal:
                        _healers_into(TI, UI, L, LN, s, L_FOE, SQ[s, SQ_ROLES, rear] & ROLE_HEAL)
            _fight(TF, TI, P, PI, SF, UF, UI, RG, SQ, Q, L, LN, RS, ST, AF, F_CLASH, I64(ST[ST_ROUNDS]), I64(-1),
                   np.bool_(False), 1.0, 1.0, I64(van0), I64(van1))
        _apply_part(UF, UI, SQ, L, LN)
        if summons:
            _tock(TF, TI, PI, SF, SQM, UF, UI, RG, SQ, M, L, LN, NU, ST)
        _normalise_both(SQ, NSQ, OCC)


@njit_no_counts
def _final(S, W, AF):
    """«Завершение: все выжившие юниты сталкиваются в хаотичной битве ... пока все противники не
    будут истреблены.» «Та команда, у которой на момент фазы завершения осталось меньше выживших
    отрядов (не юнитов), получает штраф +25%.»"""
    TF, TI, P, PI, SF, NSQ = S[0], S[1], S[2], S[3], S[4], S[11]
    ACAR, SQM = S[18], S[5]
    UF, UI, RG, SQ, Q, L, LN, NU, ST, RS, PS, OCC, M = W
    MS = SQ.shape[2] - 1
    c0 = 0
    c1 = 0
    for s in range(2):
        for q in range(NSQ[s]):
            if SQ[s, SQ_ALIVE, q] > 0:
                if s == 0:
                    c0 += 1
                else:
                    c1 += 1
    if c0 == 0 or c1 == 0:
        return
    flank0 = P[P_FLANKING] if c0 < c1 else 1.0
    flank1 = P[P_FLANKING] if c1 < c0 else 1.0
    r = 0
    start = PI[PI_HAS_RING] != 0 or PI[PI_HAS_REGEN] != 0 or PI[PI_HAS_SUMMON] != 0
    summons = PI[PI_HAS_SUMMON] != 0 and PI[PI_SUMMONS] != 0
    while r < PI[PI_MAX_FINAL]:
        if start:
            # a round starts only if both sides still have someone (its start may kill)
            if _living(SQ, NSQ, 0) == 0 or _living(SQ, NSQ, 1) == 0:
                break
            LN[0, L_SUMMON] = 0
            LN[1, L_SUMMON] = 0
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, 0, MS, True)
            _start(TF, PI, UF, UI, RG, SQ, M, L, LN, ST, 1, MS, True)
        else:
            # the fighters are the living: no round start to pass, no end that needs the list
            n0 = _members(UI, SQ, M, 0, MS, L[0, L_GROUP])
            n1 = _members(UI, SQ, M, 1, MS, L[1, L_GROUP])
            LN[0, L_GROUP] = n0
            LN[1, L_GROUP] = n1
            if n0 == 0 or n1 == 0:
                break
        if LN[0, L_GROUP] == 0 or LN[1, L_GROUP] == 0:
            break
        r += 1
        ST[ST_FINAL] += 1
        ST[ST_ROUNDS] += 1
        for s in range(2):
            LN[s, L_SHOOT] = 0
            LN[s, L_HEAL] = 0
            if PI[PI_HAS_HEAL] != 0:
                _healers_into(TI, UI, L, LN, s, L_GROUP, SQ[s, SQ_ROLES, MS] & ROLE_HEAL)
        _auras(TF, P, PI, NSQ, UI, SQ, NU, ACAR, AF)
        LN[0, L_TOUCH] = 0
        LN[1, L_TOUCH] = 0
        _fight(TF, TI, P, PI, SF, UF, UI, RG, SQ, Q, L, LN, RS, ST, AF, F_FINAL, I64(ST[ST_ROUNDS]), I64(-1),
               np.bool_(False), np.float64(flank0), np.float64(flank1), I64(MS), I64(MS))
        _apply_part(UF, UI, SQ, L, LN)
        if summons:
            _tock(TF, TI, PI, SF, SQM, UF, UI, RG, SQ, M, L, LN, NU, ST)


@intrinsic
def _voidptr(typingctx, addr):
    """An address as a raw pointer (for :func:`numba.carray`)."""
    sig = types.voidptr(addr)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True)
def _rf(a):
    return carray(_voidptr(a.ctypes.data), a.shape, np.float64)  # type: ignore[call-arg]


@njit(cache=True)
def _ri(a):
    return carray(_voidptr(a.ctypes.data), a.shape, np.int64)  # type: ignore[call-arg]


@njit(cache=True)
def _ru(a):
    return carray(_voidptr(a.ctypes.data), a.shape, np.uint64)  # type: ignore[call-arg]


@njit(cache=True)
def _unmanaged(S, W, AF, T):
    """Views of every array of a battle that carry no reference count: a call that passes an
    array to a compiled function otherwise pays an atomic increment and decrement per array,
    which costs more than the work of many helpers. The views live no longer than the call of
    :func:`battle` that made them, while ``S``, ``W`` and ``AF`` hold the memory."""
    S2 = (_rf(S[0]), _ri(S[1]), _rf(S[2]), _ri(S[3]), _rf(S[4]), _rf(S[5]), _ri(S[6]), _ri(S[7]), _ri(S[8]),
          _ri(S[9]), _ri(S[10]), _ri(S[11]), _ri(S[12]), _ri(S[13]), _ri(S[14]), _ri(S[15]), _ri(S[16]),
          _ri(S[17]), _ri(S[18]))
    W2 = (_rf(W[0]), _ri(W[1]), _rf(W[2]), _ri(W[3]), _ri(W[4]), _ri(W[5]), _ri(W[6]), _ri(W[7]), _ri(W[8]),
          _ru(W[9]), _ri(W[10]), _ri(W[11]), _ri(W[12]))
    return S2, W2, _rf(AF), (_rf(T[0]), _ri(T[1]), _ri(T[2]), _ri(T[3]))


@njit(cache=True, inline="always")
def battle(S0, W0, AF0, T0, key, full):
    """One whole battle; the statistics are left in ``W[8]``, the units in ``W[0]``/``W[1]``.
    ``full``: the workspace has not held a battle of this template yet (:func:`_init_from`).
    Inlined into :func:`simulate_chunks`, as :func:`_planning` into it: every compiled function
    between the battle loop and ``_fight`` is one more LLVM pass over all the code below it."""
    S, W, AF, T = _unmanaged(S0, W0, AF0, T0)
    RS = W[9]
    RS[0] = key
    RS[1] = np.uint64(0)
    NSQ = S[11]
    SQ = W[3]
    _init_from(S, W, T, full)
    _normalise(SQ, NSQ[0], 0)
    _normalise(SQ, NSQ[1], 1)
    _planning(S, W, AF)
    _clash(S, W, AF)
    _final(S, W, AF)


@njit(cache=True)
def _workspace(cap, max_squads, lcap):
    UF = np.empty((2, NUF, cap))
    UI = np.zeros((2, NUI, cap), dtype=np.int64)   # zeros: UI_RING_END says a ring is empty
    RG = np.zeros((2, 3, cap, RING))
    SQ = np.zeros((2, NSQF, max_squads + 1), dtype=np.int64)
    Q = np.empty((2, max_squads + 1, cap + 1), dtype=np.int64)
    L = np.empty((2, NL, lcap), dtype=np.int64)
    LN = np.zeros((2, NL), dtype=np.int64)
    NU = np.zeros(2, dtype=np.int64)
    ST = np.zeros(NST, dtype=np.int64)
    RS = np.zeros(2, dtype=np.uint64)
    PS = np.empty((NPS, 2 * (max_squads + 1)), dtype=np.int64)
    OCC = np.full((2, 6), -1, dtype=np.int64)
    M = np.empty((2, max_squads + 1, cap), dtype=np.int64)
    return (UF, UI, RG, SQ, Q, L, LN, NU, ST, RS, PS, OCC, M)


@njit_no_counts
def _record(S, W, b, winner, stats, dead, alive):
    TMAP = S[17]
    UI, NU, ST = W[1], W[7], W[8]
    a0 = False
    a1 = False
    for s in range(2):
        for u in range(NU[s]):
            k = TMAP[UI[s, UI_TYPE, u]]
            if UI[s, UI_ALIVE, u] == 1:
                alive[b, s, k] += 1
                if s == 0:
                    a0 = True
                else:
                    a1 = True
            elif UI[s, UI_WITHDRAWN, u] == 0:
                dead[b, s, k] += 1
    winner[b] = 0 if a0 and not a1 else 1 if a1 and not a0 else -1
    for i in range(NST):
        stats[b, i] = ST[i]


@njit(cache=True, nogil=True, pipeline_class=TopPipeline)
def simulate_chunks(S, cap, max_squads, lcap, cap_big, lcap_big, seed, first, n, chunk, c0, c1, winner, stats, dead,
                    alive):
    """Chunks ``c0 .. c1 - 1`` of battles ``first .. first + n - 1`` under ``seed``; chunk ``c`` of
    ``chunk`` battles runs on one workspace. Battle ``b``'s result depends on (seed, b) alone: a
    battle that runs out of room for its summons in the workspace of ``cap`` units is run again,
    with the same dice, in one of ``cap_big``. Compiled without the GIL, so that :func:`simulate`
    runs chunks on several threads."""
    T = _template(S, cap, max_squads, lcap)
    for c in range(c0, c1):
        W = _workspace(cap, max_squads, lcap)
        AF = np.ones((2, 3, max_squads + 1))
        lo_b = c * chunk
        hi_b = min(n, lo_b + chunk)
        for b in range(lo_b, hi_b):
            key = battle_key(seed, first + b)
            WB = W
            big = False
            while True:  # one call site: battle is inlined here, and compiled once
                battle(S, WB, AF, T, key, np.bool_(big or b == lo_b))
                if big or WB[8][ST_OVERFLOW] == 0 or cap_big <= cap:
                    break
                WB = _workspace(cap_big, max_squads, lcap_big)
                big = True
            _record(S, WB, I64(b), winner, stats, dead, alive)


_pool: list[ThreadPoolExecutor] = []
"""The threads of :func:`simulate`, started on first use (one per core)."""


def simulate(S: tuple[np.ndarray, ...], cap: int, max_squads: int, lcap: int, cap_big: int, lcap_big: int,
             seed: np.uint64, first: int, n: int, chunk: int, winner: np.ndarray, stats: np.ndarray, dead: np.ndarray,
             alive: np.ndarray) -> None:
    """Battles ``first .. first + n - 1`` under ``seed``, chunks of ``chunk`` battles spread over
    ``numba.get_num_threads()`` threads in contiguous runs (as a ``prange`` schedules them).
    Python threads instead of ``parallel=True``: the parallel compile of this loop took about
    45% of the kernel's first compile (docs/sim.md, «Compilation»), and the battles' results do
    not depend on the thread that runs them."""
    nchunks = (n + chunk - 1) // chunk
    threads = min(numba.get_num_threads(), nchunks)
    args = (S, cap, max_squads, lcap, cap_big, lcap_big, seed, first, n, chunk)
    if threads <= 1:
        simulate_chunks(*args, 0, nchunks, winner, stats, dead, alive)
        return
    if not _pool:
        _pool.append(ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="voevoda-sim"))
    cuts = [nchunks * t // threads for t in range(threads + 1)]
    jobs = [_pool[0].submit(simulate_chunks, *args, cuts[t], cuts[t + 1], winner, stats, dead, alive)
            for t in range(threads)]
    for job in jobs:
        job.result()
