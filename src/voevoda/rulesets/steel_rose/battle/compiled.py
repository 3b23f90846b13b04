# mypy: disable-error-code="no-untyped-def"
# (Numba infers every type of this module when it compiles it.)
"""The Steel Rose battle compiled with Numba: the same battle as :mod:`.reference`, unit by unit.

:func:`battle` runs a whole battle in one call: gunpowder, planning (covers, volleys, defences,
charges, moves), the clash and the final melee. It follows the reference engine operation for
operation, so that for the same inputs and dice it gives the same result to the last bit:

* the same dice: the same SHAKE-256 streams (:mod:`.shake`), the same draws in the same order
  with the same dice, every one written to the draw log ``DL``;
* a round stays simultaneous: damage, gains, shred, attack counters and effect stacks gather in
  round accumulators and are applied at its end, in the reference's order (its ``np.add.at``
  calls add in array order; here the loops add in the same order);
* the same floating-point operations in the same order (products left to right, the debuff
  ring holding logarithms, ``**`` for compounding, NumPy's pairwise sum for the timeline).

The event log is written as rows of integers (``EV``) and the timeline as rows (``TL``); unit
deaths are stamped with the step (a round, a charge fight, the volleys) that counts them as
losses. :mod:`.fast` turns these into the reference's dicts.

Small helpers are inlined (``inline="always"``) and the dice state is one array: Numba updates
the reference count of arrays bound to new names (an atomic operation each), which cost more
than the battle itself when every draw did it for several arrays.

Layout (``s`` a side, ``u`` a unit, ``q`` a squad):

* ``TF[TF_*, type]`` / ``TI[TI_*, type]``: the unit table;
* ``UF[s, UF_*, u]`` / ``UI[s, UI_*, u]``: unit state; ``RG[s, R_*, slot, u]`` the effect rings;
* ``RS[s, RS_*, u]``: the round accumulators; ``SQ[s, SQ_*, q]``: squad state, squad ``MS`` (one
  past the last) holds the final melee's queue; ``Q[s, q, :]`` the attack queues;
* ``G[G_*]``: counters of the battle.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from voevoda.rulesets.steel_rose.battle.shake import RATE_LANES, absorb, squeeze_block
from voevoda.rulesets.steel_rose.battle.unit_fields import (
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
    TF_SQUEAMISH,
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
    TI_GUNPOWDER,
    TI_HEAL_ROUNDS,
    TI_POISON_ROUNDS,
    TI_RANGED,
    TI_SAC_PCT,
    TI_SAC_TARGETS,
    TI_SHOOTER,
    TI_SHOTS,
    TI_SUMMON_EVERY,
    TI_SUMMON_TYPE,
)

RING = 8
KEY_SIDES = 2**32
KEY_SHIFT = 21
"""Queue keys are sorted as ``face << KEY_SHIFT | index``: ties keep deployment order."""
MAX_SQUAD_UNITS = 1 << KEY_SHIFT

# unit table fields: voevoda.rulesets.steel_rose.battle.unit_fields

# battle numbers (floats)
P_FATIGUE = 0        # fatigue_percent / 100
P_COVER = 1          # 1 + cover_percent / 100
P_OUTNUMBER_RATIO = 2
P_OUTNUMBER = 3      # 1 + outnumber_percent / 100
P_FLANKING = 4       # 1 + flanking_percent / 100
P_DAMAGE = 5         # per side: 1 + damage modifier / 100
P_TAKEN = 7          # per side
P_SHOTS = 9          # per side
NP = 11

# battle numbers and inputs (integers)
PI_MAX_CLASH = 0
PI_MAX_FINAL = 1
PI_MAX_CHARGE = 2
PI_MARCH_FATIGUE = 3
PI_DEFEND_FATIGUE = 4
PI_VOLLEY_MULT = 5
PI_PALADIN_WHOLE = 6
PI_SUMMONS = 7
PI_OUTNUMBER_FINAL = 8
PI_STOCK = 9         # per side, -1: as much as needed
PI_MIXED = 11        # per side: more than one faction (squeamish elves)
PI_NSQ = 13          # per side
PI_NU = 15           # per side: deployed units
PI_CAP = 17          # units per side the state can hold
PI_CAP_EV = 18
PI_CAP_TL = 19
PI_CAP_LOG = 20
PI_CAP_STRIKES = 21
PI_NSTREAMS = 22
PI_CAP_STACK = 23
NPI = 24

# squad inputs SIN[s, q, SIN_*]
SIN_HOME = 0
SIN_KIND = 1
SIN_NT = 2
SIN_T0 = 3           # up to three target positions (-1: not a position)
SIN_FREE = 6         # the free position change's cell, -1 none
SIN_POWDER = 7       # 1: a volley is ordered for the squad (its powder doubles)
NSIN = 8

K_NONE = 0
K_MOVE = 1
K_MARCH = 2
K_DEFEND = 3
K_COVER = 4
K_CHARGE = 5
K_VOLLEY = 6         # volleys last, and move next to march: the kernel tests ranges
K_LONG_VOLLEY = 7

# the dice array (see _draw)
D_STREAMS = 4
D_STRIDE = 2 + 25 + 17

# streams
S_VOLLEYS = 0
S_CLASH = 1          # + flank
S_FINAL = 4
S_CHARGE = 5         # + number - 1

# unit state
UF_HP = 0
UF_MAXHP = 1
UF_DEF = 2
UF_ATKC = 3
UF_SHOTC = 4
UF_OUTS = 5
UF_INS = 6
NUF = 7
UI_TYPE = 0
UI_SQUAD = 1
UI_ALIVE = 2
UI_WITHDRAWN = 3
UI_SUMMONED = 4
UI_TICK = 5
UI_STEP = 6          # the step whose losses count this unit's death, -1 none
UI_SACR = 7          # sacrificed this round
UI_OCC = 8           # scratch: strikes seen so far in one batch of hits
UI_MARK = 9          # scratch: member of the attacking group
NUI = 10
R_DOT = 0
R_HEAL = 1
R_DEBUFF = 2

# round accumulators
RS_DMG = 0
RS_GAIN = 1
RS_SHRED = 2
RS_ATK = 3
RS_SHOT = 4
NRS = 5

# squad state
SQ_POS = 0
SQ_FATIGUE = 1
SQ_COVER = 2
SQ_DEFENDING = 3
SQ_QLEN = 4
SQ_ALIVE = 5
NSQ = 6

# counters
G_ATTACKS = 0
G_ROUNDS = 1
G_CLASH = 2
G_FINAL = 3
G_NU = 4             # per side: units now (deployed and summoned)
G_STEP = 6           # the step counting deaths now, -1 none
G_STEP_NU = 7        # per side: units when the step began
G_NSTEPS = 9
G_NEV = 10
G_NTL = 11
G_NLOG = 12
G_SACR = 13          # per side, since the last report line
G_SUMM = 15          # per side
G_OVERFLOW = 17      # bits O_*: which capacity ran out
G_NEED = 18          # per side: gunpowder needed
G_SUPPLIED = 20      # per side
G_WINNER = 22
G_NSTACK = 23
NG = 24

O_UNITS = 1
O_STACKS = 2
O_EVENTS = 4
O_TIMELINE = 8

# events EV[row, :]
EV_W = 10
E_GUNPOWDER = 1      # side, stock, needed, supplied
E_STEP_UP = 2        # side, squad, flank
E_DEPLOYMENT = 3
E_COVER = 4          # side, squad
E_VOLLEY = 5         # side, squad, target, position, long, shots (+ EVF damage)
E_VOLLEY_LOSSES = 6  # step
E_DEFEND = 7         # side, squad
E_CHARGE = 8         # side, squad, target, cancelled, position, defender, fights
E_CHARGE_FIGHT = 9   # opponent, defender, rounds, step, charger survives, sacrifices x2, summoned x2
E_MOVE = 10          # side, squad, from, to, swap, blocked
E_ROUND = 11         # phase, round, step, sacrifices x2, summoned x2, flanks (bits)
E_FINAL = 12         # squads x2

# timeline TL[row, :] (+ TLF health)
T_DEPLOYMENT = 0
T_VOLLEYS = 1
T_CHARGES = 2
T_MOVES = 3
T_CLASH = 4
T_FINAL = 5

# fights of one round: FK[f, FK_*], lists FL[f, s, FL_*, :] with lengths FN[f, s, FL_*]
FK_KIND = 0
FK_ROUND = 1
FK_QUEUE = 2         # per side: the squad whose queue orders the attackers
FK_CHARGER = 4
FK_DEFENDER = 5
FK_STREAM = 6
NFK = 7
F_CLASH = 0
F_CHARGE = 1
F_FINAL = 2
FL_GROUP = 0
FL_SHOOT = 1
FL_HEAL = 2
NFL = 3

# scratch lists W[s, W_*, :]
W_OWN = 0
W_ATT = 1
W_TGT = 2
W_QB = 3
W_KEYS = 4
W_PART = 5
W_A = 6
W_B = 7
W_SHOTS = 8
W_FOE = 9
NW = 10


# --------------------------------------------------------------------------- dice

@njit(cache=True)
def _refill(D, base, blk):
    """Squeeze the stream at ``D[base:]`` up to block ``blk`` (its 17 words at ``base + 27``)."""
    state = D[base + 2:base + 27 + RATE_LANES]
    done = np.int64(D[base + 1]) - 1
    while done < blk:
        squeeze_block(state, done, state[25:])
        done += 1
    D[base + 1] = np.uint64(done + 1)


@njit(cache=True, inline="always")
def _draw(D, sid, sides):
    """The next face of stream ``sid`` with a ``sides``-sided die, recorded in the log.

    All the dice state is one array (one reference to count where this is inlined): ``D[0]``
    the draws logged, ``D[1]`` the log's capacity, ``D[2]`` where it starts; stream ``k`` at
    ``D_STREAMS + k * D_STRIDE``: draws made, current block + 1, Keccak state (25 lanes), the
    block's 17 words. The log holds (stream, die, face) per draw."""
    base = D_STREAMS + sid * D_STRIDE
    i = np.int64(D[base])
    blk = i // RATE_LANES
    if np.int64(D[base + 1]) - 1 < blk:
        _refill(D, base, blk)
    face = np.int64(D[base + 27 + i % RATE_LANES] % np.uint64(sides)) + 1
    D[base] = np.uint64(i + 1)
    n = np.int64(D[0])
    if n < np.int64(D[1]):
        at = np.int64(D[2]) + 3 * n
        D[at] = np.uint64(sid)
        D[at + 1] = np.uint64(sides)
        D[at + 2] = np.uint64(face)
    D[0] = np.uint64(n + 1)
    return face


# --------------------------------------------------------------------------- the field

@njit(cache=True, inline="always")
def _dist(a, b):
    return abs(a % 3 - b % 3) + abs(a // 3 - b // 3)


@njit(cache=True, inline="always")
def _at(SQ, nsq, s, pos):
    """The living squad standing at ``pos`` (the last in deployment order), or -1."""
    found = -1
    for q in range(nsq):
        if SQ[s, SQ_POS, q] == pos and SQ[s, SQ_ALIVE, q] > 0:
            found = q
    return found


@njit(cache=True, inline="always")
def _event(EV, G, code):
    n = G[G_NEV]
    G[G_NEV] = n + 1
    if n < EV.shape[0]:
        EV[n, 0] = code
        for k in range(1, EV_W):
            EV[n, k] = 0
    else:
        G[G_OVERFLOW] |= O_EVENTS
        return -1
    return n


@njit(cache=True, inline="always")
def _set(EV, row, k, value):
    if row >= 0:
        EV[row, k] = value


@njit(cache=True)
def _normalise(SQ, PI, EV, G, s):
    """«Арьергард без авангарда существовать не может. Если авангардный отряд умирает, то
    арьергард автоматически выступает вперёд и становится авангардом.» (Who stands where is
    read once, before any squad steps up.)"""
    nsq = PI[PI_NSQ + s]
    steps = 0
    for f in range(3):
        if _at(SQ, nsq, s, f) < 0 and _at(SQ, nsq, s, 3 + f) >= 0:
            steps |= 1 << f
    for f in range(3):
        if steps & (1 << f):
            rear = _at(SQ, nsq, s, 3 + f)
            SQ[s, SQ_POS, rear] = f
            row = _event(EV, G, E_STEP_UP)
            _set(EV, row, 1, s)
            _set(EV, row, 2, rear)
            _set(EV, row, 3, f)


@njit(cache=True)
def _normalise_all(SQ, PI, EV, G):
    _normalise(SQ, PI, EV, G, 0)
    _normalise(SQ, PI, EV, G, 1)


@njit(cache=True)
def _members(UI, G, s, q, out):
    """The living units of squad ``q`` in index order."""
    n = 0
    for u in range(G[G_NU + s]):
        if UI[s, UI_ALIVE, u] == 1 and UI[s, UI_SQUAD, u] == q:
            out[n] = u
            n += 1
    return n


@njit(cache=True, inline="always")
def _members_fl(UI, G, s, q, FL, fi, lst):
    """:func:`_members` into the fight list ``FL[fi, s, lst]`` (no array view: views cost two
    atomic reference-count updates each)."""
    n = 0
    for u in range(G[G_NU + s]):
        if UI[s, UI_ALIVE, u] == 1 and UI[s, UI_SQUAD, u] == q:
            FL[fi, s, lst, n] = u
            n += 1
    return n


@njit(cache=True, inline="always")
def _members_w(UI, G, s, q, W, row):
    """:func:`_members` into the scratch list ``W[s, row]``."""
    n = 0
    for u in range(G[G_NU + s]):
        if UI[s, UI_ALIVE, u] == 1 and UI[s, UI_SQUAD, u] == q:
            W[s, row, n] = u
            n += 1
    return n


@njit(cache=True, inline="always")
def _living_w(UI, G, s, W, row):
    n = 0
    for u in range(G[G_NU + s]):
        if UI[s, UI_ALIVE, u] == 1:
            W[s, row, n] = u
            n += 1
    return n


@njit(cache=True, inline="always")
def _living_fl(UI, G, s, FL, fi, lst):
    n = 0
    for u in range(G[G_NU + s]):
        if UI[s, UI_ALIVE, u] == 1:
            FL[fi, s, lst, n] = u
            n += 1
    return n


@njit(cache=True, inline="always")
def _kill(UI, SQ, G, s, u):
    UI[s, UI_ALIVE, u] = 0
    SQ[s, SQ_ALIVE, UI[s, UI_SQUAD, u]] -= 1
    if G[G_STEP] >= 0 and u < G[G_STEP_NU + s]:
        UI[s, UI_STEP, u] = G[G_STEP]


@njit(cache=True, inline="always")
def _begin_step(G):
    G[G_STEP] = G[G_NSTEPS]
    G[G_NSTEPS] += 1
    G[G_STEP_NU] = G[G_NU]
    G[G_STEP_NU + 1] = G[G_NU + 1]
    return G[G_STEP]


@njit(cache=True)
def _block_sum(values, lo, n):
    """NumPy's pairwise sum of a block of at most 128 values (eight accumulators)."""
    if n < 8:
        res = -0.0
        for i in range(n):
            res += values[lo + i]
        return res
    r0 = values[lo]
    r1 = values[lo + 1]
    r2 = values[lo + 2]
    r3 = values[lo + 3]
    r4 = values[lo + 4]
    r5 = values[lo + 5]
    r6 = values[lo + 6]
    r7 = values[lo + 7]
    i = 8
    end = n - n % 8
    while i < end:
        r0 += values[lo + i]
        r1 += values[lo + i + 1]
        r2 += values[lo + i + 2]
        r3 += values[lo + i + 3]
        r4 += values[lo + i + 4]
        r5 += values[lo + i + 5]
        r6 += values[lo + i + 6]
        r7 += values[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += values[lo + i]
        i += 1
    return res


@njit(cache=True)
def _np_sum(values, n, stack, sums):
    """``float(np.sum(values[:n]))``, bit for bit: NumPy's pairwise summation (halves rounded
    down to a multiple of eight, blocks of up to 128), walked with a stack (``stack[0/1/2]``:
    start, length, stage of each pending half; ``sums`` the partial sums) instead of recursion."""
    stack[0, 0] = 0
    stack[1, 0] = n
    stack[2, 0] = 0
    sp = 1
    vp = 0
    while sp > 0:
        top = sp - 1
        m = stack[1, top]
        if m <= 128:
            sums[vp] = _block_sum(values, stack[0, top], m)
            vp += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        stage = stack[2, top]
        if stage < 2:
            stack[2, top] = stage + 1
            stack[0, sp] = stack[0, top] + (0 if stage == 0 else half)
            stack[1, sp] = half if stage == 0 else m - half
            stack[2, sp] = 0
            sp += 1
        else:
            sums[vp - 2] = sums[vp - 2] + sums[vp - 1]
            vp -= 1
            sp -= 1
    return 0.0 + sums[0]


@njit(cache=True)
def _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, phase, step):
    n = G[G_NTL]
    G[G_NTL] = n + 1
    if n >= TL.shape[0]:
        G[G_OVERFLOW] |= O_TIMELINE
        return
    TL[n, 0] = phase
    TL[n, 1] = step
    for s in range(2):
        m = 0
        for u in range(G[G_NU + s]):
            if UI[s, UI_ALIVE, u] == 1:
                FB[m] = UF[s, UF_HP, u]
                m += 1
        TL[n, 2 + s] = m
        TLF[n, s] = _np_sum(FB, m, SS, SF)


# --------------------------------------------------------------------------- effects

@njit(cache=True, inline="always")
def _push_stack(STK, STKF, G, s, ring, u, per, rounds):
    """An effect stack to add at the end of the round (in the order they were made)."""
    n = G[G_NSTACK]
    if n >= STK.shape[0]:
        G[G_OVERFLOW] |= O_STACKS
        return
    STK[n, 0] = s
    STK[n, 1] = ring
    STK[n, 2] = u
    STK[n, 3] = rounds
    STKF[n] = per
    G[G_NSTACK] = n + 1


@njit(cache=True)
def _tick(TF, UF, UI, RG, SQ, G, W, n0, n1):
    """Start of a round for the participants ``W[s, W_PART, :n]``: poison, burning and burps hurt,
    regeneration and healers' stacks heal («регенерация 2 ед./ход»); a unit whose health falls to
    zero dies."""
    for s in range(2):
        n = n0 if s == 0 else n1
        for k in range(n):
            u = W[s, W_PART, k]
            if UI[s, UI_ALIVE, u] == 0:
                continue
            slot = UI[s, UI_TICK, u] % RING
            net = TF[TF_REGEN, UI[s, UI_TYPE, u]] + RG[s, R_HEAL, slot, u] - RG[s, R_DOT, slot, u]
            hp = UF[s, UF_HP, u] + net
            mx = UF[s, UF_MAXHP, u]
            UF[s, UF_HP, u] = hp if hp < mx else mx
            if hp <= 0:
                _kill(UI, SQ, G, s, u)


@njit(cache=True)
def _tock(UI, RG, W, n0, n1):
    """End of a round: the effects of the round that passed are spent."""
    for s in range(2):
        n = n0 if s == 0 else n1
        for k in range(n):
            u = W[s, W_PART, k]
            slot = UI[s, UI_TICK, u] % RING
            RG[s, R_DOT, slot, u] = 0.0
            RG[s, R_HEAL, slot, u] = 0.0
            RG[s, R_DEBUFF, slot, u] = 0.0
            UI[s, UI_TICK, u] += 1


@njit(cache=True)
def _init_unit(TF, P, PI, UF, UI, SQ, s, u, ty, q, summoned):
    UI[s, UI_TYPE, u] = ty
    UI[s, UI_SQUAD, u] = q
    UI[s, UI_ALIVE, u] = 1
    UI[s, UI_SUMMONED, u] = summoned
    UI[s, UI_STEP, u] = -1
    SQ[s, SQ_ALIVE, q] += 1
    UF[s, UF_HP, u] = TF[TF_HEALTH, ty]
    UF[s, UF_MAXHP, u] = TF[TF_HEALTH, ty]
    UF[s, UF_DEF, u] = TF[TF_DEFENCE, ty]
    squeam = TF[TF_SQUEAMISH, ty] if PI[PI_MIXED + s] != 0 else 1.0
    UF[s, UF_OUTS, u] = squeam * P[P_DAMAGE + s]
    UF[s, UF_INS, u] = P[P_TAKEN + s]


@njit(cache=True)
def _summons(TF, TI, P, PI, UF, UI, SQ, G, W, n0, n1):
    """Демонолог: «призывает низшего демона каждый ход» (into its own squad)."""
    if PI[PI_SUMMONS] == 0:
        return
    for s in range(2):
        n = n0 if s == 0 else n1
        for k in range(n):
            u = W[s, W_PART, k]
            if UI[s, UI_ALIVE, u] == 0:
                continue
            ty = UI[s, UI_TYPE, u]
            st = TI[TI_SUMMON_TYPE, ty]
            if st >= 0 and UI[s, UI_TICK, u] % TI[TI_SUMMON_EVERY, ty] == 0:
                v = G[G_NU + s]
                if v >= UF.shape[2]:
                    G[G_OVERFLOW] |= O_UNITS
                    continue
                G[G_NU + s] = v + 1
                _init_unit(TF, P, PI, UF, UI, SQ, s, v, st, UI[s, UI_SQUAD, u], 1)
                G[G_SUMM + s] += 1


# --------------------------------------------------------------------------- a round

@njit(cache=True)
def _auras(TF, P, PI, UI, SQ, G, AF):
    """Per squad at the start of a round: hero (+15% damage), archpriest (-15% taken), fatigue."""
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            AF[s, 0, q] = 1.0
            AF[s, 1, q] = 1.0
            AF[s, 2, q] = max(0.0, 1 - P[P_FATIGUE] * SQ[s, SQ_FATIGUE, q])
        for u in range(G[G_NU + s]):
            if UI[s, UI_ALIVE, u] == 1:
                ty = UI[s, UI_TYPE, u]
                if TF[TF_SQUAD_DAMAGE, ty] != 1.0 or TF[TF_SQUAD_TAKEN, ty] != 1.0:
                    q = UI[s, UI_SQUAD, u]
                    AF[s, 0, q] *= TF[TF_SQUAD_DAMAGE, ty]
                    AF[s, 1, q] *= TF[TF_SQUAD_TAKEN, ty]


@njit(cache=True)
def _clear_round(RS, UI, G):
    for s in range(2):
        for u in range(G[G_NU + s]):
            for f in range(NRS):
                RS[s, f, u] = 0.0
            UI[s, UI_SACR, u] = 0
    G[G_NSTACK] = 0


@njit(cache=True)
def _hits(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, W, WF, m, ranged, cover,
          outnumbered, flank_b):
    """The damage of strikes ``W[a, W_A, i] -> W[a, W_B, i]`` with dice ``WF[a, i]``: «Защита. Вычитается из
    любого получаемого урона. Может уменьшить урон до нуля. Штрафы и бонусы к урону (например,
    процентные увеличения) применяются после вычитания защиты.» ``fi`` is the fight (-1: the
    planning volleys)."""
    b = 1 - a
    kind = FK[fi, FK_KIND] if fi >= 0 else -1
    charger = FK[fi, FK_CHARGER] if fi >= 0 else -1
    for i in range(m):
        u = W[a, W_A, i]
        t = W[a, W_B, i]
        aty = UI[a, UI_TYPE, u]
        tty = UI[b, UI_TYPE, t]
        base = max(WF[a, i] - UF[b, UF_DEF, t], 0.0)
        base = max(base, TF[TF_MIN_RANGED, aty] if ranged else TF[TF_MIN_MELEE, aty])
        aq = UI[a, UI_SQUAD, u]
        out = UF[a, UF_OUTS, u] * AF[a, 0, aq] * AF[a, 2, aq]
        deb = RG[a, R_DEBUFF, UI[a, UI_TICK, u] % RING, u]
        if deb != 0.0:
            out = out * math.exp(deb)
        # compounding per attack (призрачный зверь) or per shot (чародей)
        comp = TF[TF_SHOT_COMP, aty] if ranged else TF[TF_ATK_COMP_OUT, aty]
        occ = UI[a, UI_OCC, u]
        UI[a, UI_OCC, u] = occ + 1
        if comp != 1.0:
            count = UF[a, UF_SHOTC, u] if ranged else UF[a, UF_ATKC, u]
            out = out * comp ** (count + float(occ))
        tq = UI[b, UI_SQUAD, t]
        inn = AF[b, 1, tq] * UF[b, UF_INS, t]
        if ranged:
            out = out * P[P_SHOTS + a]
            inn = inn * TF[TF_TAKEN_SHOTS, tty]
            if cover:
                inn = inn * P[P_COVER]
        else:
            inn = inn * TF[TF_TAKEN_MELEE, tty]
            cin = TF[TF_ATK_COMP_IN, tty]
            if cin != 1.0:
                inn = inn * cin ** UF[b, UF_ATKC, t]
            if outnumbered:
                inn = inn * P[P_OUTNUMBER]
        if fi >= 0:
            inn = inn * flank_b
            if kind == F_CHARGE and charger == a:
                out = out * TF[TF_CHARGE_BONUS, aty]
                if FK[fi, FK_ROUND] == 1:
                    out = out * TF[TF_CHARGE_FIRST, aty]
                # копейщик: «-25% к получаемому урону при натиске»
                inn = inn * TF[TF_TAKEN_VS_CHARGE, tty]
        # паладин: «-25% к получаемому урону при защите»
        if fi >= 0 and kind == F_CHARGE and FK[fi, FK_DEFENDER] != 0 and charger == a or PI[PI_PALADIN_WHOLE] != 0 and SQ[b, SQ_DEFENDING, tq] != 0:
            inn = inn * TF[TF_TAKEN_DEFENDING, tty]
        dmg = base * out * inn
        RS[b, RS_DMG, t] += dmg
        if ranged:
            RS[a, RS_SHOT, u] += 1.0
            dr = TI[TI_DEBUFF_ROUNDS, aty]
            if dr > 0:
                # просветлённый: «каждое попадание в дальнем бою снижает наносимый урон на 15% на
                # 3 хода (эффект может складываться)»
                _push_stack(STK, STKF, G, b, R_DEBUFF, t, TF[TF_DEBUFF_LOG, aty], dr)
        else:
            RS[a, RS_ATK, u] += 1.0
            # паладин: «восстанавливают 3 здоровья ... при каждом попадании»; рыцарь пустоты:
            # «восполняет здоровье в размере половины от итогового урона»
            RS[a, RS_GAIN, u] += TF[TF_HEAL_HIT, aty] + TF[TF_LIFESTEAL, aty] * dmg
            # заразитель: «При каждом получении урона в ближнем бою отравляет атакующего»
            if TI[TI_POISON_ROUNDS, tty] > 0 and dmg > 0:
                _push_stack(STK, STKF, G, a, R_DOT, u, TF[TF_POISON_PR, tty], TI[TI_POISON_ROUNDS, tty])
            # архидемон: «Каждая атака поджигает противника»
            if TI[TI_BURN_ROUNDS, aty] > 0:
                _push_stack(STK, STKF, G, b, R_DOT, t, TF[TF_BURN_PR, aty], TI[TI_BURN_ROUNDS, aty])
        # паладин, архижрец: броня снижается «вплоть до нуля»
        RS[b, RS_SHRED, t] += TF[TF_SHRED, aty]
    for i in range(m):
        UI[a, UI_OCC, W[a, W_A, i]] = 0
    G[G_ATTACKS] += m


@njit(cache=True)
def _volley_shots(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, nshots, nfoe,
                  sid, cover, W, WF, DICE, flank_b):
    """Shots ``W[a, W_SHOTS, :nshots]`` (one entry per shot) at ``W[1 - a, W_FOE, :nfoe]``; a
    cannon's or a Fire Hail's shot strikes a share of the squad: «задевает 20% вражеского отряда, но минимум 1 и максимум 5
    юнитов» (one die for the shot, each struck unit takes it)."""
    m = 0
    for k in range(nshots):
        u = W[a, W_SHOTS, k]
        if TF[TF_AREA_PCT, UI[a, UI_TYPE, u]] <= 0:
            W[a, W_A, m] = u
            m += 1
    if m > 0:
        for i in range(m):
            W[a, W_B, i] = W[1 - a, W_FOE, _draw(DICE, sid, nfoe) - 1]
        for i in range(m):
            WF[a, i] = float(_draw(DICE, sid, TI[TI_RANGED, UI[a, UI_TYPE, W[a, W_A, i]]]))
        _hits(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, W, WF, m, True, cover,
              False, flank_b)
    # area shots: how many each strikes, where each starts, then each shot's die
    nbig = 0
    for k in range(nshots):
        u = W[a, W_SHOTS, k]
        ty = UI[a, UI_TYPE, u]
        if TF[TF_AREA_PCT, ty] > 0:
            W[a, W_KEYS, nbig] = u
            nbig += 1
    if nbig == 0:
        return
    total = 0
    for k in range(nbig):
        W[a, W_OWN, k] = _draw(DICE, sid, nfoe) - 1
    for k in range(nbig):
        u = W[a, W_KEYS, k]
        ty = UI[a, UI_TYPE, u]
        size = int(math.floor(TF[TF_AREA_PCT, ty] * nfoe / 100.0))
        size = min(max(size, TI[TI_AREA_MIN, ty]), TI[TI_AREA_MAX, ty])
        size = min(size, nfoe)
        for j in range(size):
            W[a, W_A, total] = u
            W[a, W_B, total] = W[1 - a, W_FOE, (W[a, W_OWN, k] + j) % nfoe]
            total += 1
        W[a, W_OWN, k] = size
    j = 0
    for k in range(nbig):
        roll = float(_draw(DICE, sid, TI[TI_RANGED, UI[a, UI_TYPE, W[a, W_KEYS, k]]]))
        for _ in range(W[a, W_OWN, k]):
            WF[a, j] = roll
            j += 1
    _hits(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, W, WF, total, True, cover,
          False, flank_b)
    # one shot, however many units it strikes
    for k in range(nbig):
        u = W[a, W_KEYS, k]
        RS[a, RS_SHOT, u] -= float(W[a, W_OWN, k])
    for k in range(nbig):
        RS[a, RS_SHOT, W[a, W_KEYS, k]] += 1.0


@njit(cache=True, inline="always")
def _take_queue(UI, SQ, Q, G, W, a, qi, nown, count, sid, DICE):
    """«Гарантируется, что каждый юнит из отряда рано или поздно атакует»: attackers come from a
    shuffled queue of the squad's living units (``W[a, W_OWN]``), refilled when used up; the
    first ``count`` go to ``W[a, W_ATT]``."""
    if count <= 0 or nown == 0:
        return 0
    for k in range(nown):
        UI[a, UI_MARK, W[a, W_OWN, k]] = 1
    qn = 0
    for i in range(SQ[a, SQ_QLEN, qi]):
        u = Q[a, qi, i]
        if UI[a, UI_MARK, u] == 1:
            W[a, W_QB, qn] = u
            qn += 1
    for k in range(nown):
        UI[a, UI_MARK, W[a, W_OWN, k]] = 0
    need = count - qn
    if need > 0:
        blocks = (need + nown - 1) // nown
        if nown > 1:
            for _ in range(blocks):
                for k in range(nown):
                    W[a, W_KEYS, k] = (_draw(DICE, sid, KEY_SIDES) << KEY_SHIFT) | k
                W[a, W_KEYS, :nown].sort()
                for k in range(nown):
                    W[a, W_QB, qn] = W[a, W_OWN, W[a, W_KEYS, k] & (MAX_SQUAD_UNITS - 1)]
                    qn += 1
        else:
            for _ in range(blocks):
                W[a, W_QB, qn] = W[a, W_OWN, 0]
                qn += 1
    for i in range(count, qn):
        Q[a, qi, i - count] = W[a, W_QB, i]
    SQ[a, SQ_QLEN, qi] = qn - count
    for i in range(count):
        W[a, W_ATT, i] = W[a, W_QB, i]
    return count


@njit(cache=True)
def _round(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, FK, FL, FN, FF, nf, W, WF,
           DICE):
    """Every pairing of one round, simultaneous: all attacks see the state at its start."""
    _clear_round(RS, UI, G)
    _auras(TF, P, PI, UI, SQ, G, AF)
    for fi in range(nf):
        sid = FK[fi, FK_STREAM]
        # Культист: «Каждый ход может с шансом 10% пожертвовать собой нанести ровно 7 урона
        # четверым противникам. После такой атаки культист гарантированно умирает.»
        for a in range(2):
            b = 1 - a
            nfoe = FN[fi, b, FL_GROUP]
            nc = 0
            for k in range(FN[fi, a, FL_GROUP]):
                u = FL[fi, a, FL_GROUP, k]
                if UI[a, UI_ALIVE, u] == 1 and TI[TI_SAC_PCT, UI[a, UI_TYPE, u]] > 0:
                    W[a, W_A, nc] = u
                    nc += 1
            if nc == 0 or nfoe == 0:
                continue
            ng = 0
            for k in range(nc):
                face = _draw(DICE, sid, 100)
                if face <= TI[TI_SAC_PCT, UI[a, UI_TYPE, W[a, W_A, k]]]:
                    W[a, W_A, ng] = W[a, W_A, k]
                    ng += 1
            if ng == 0:
                continue
            for k in range(ng):
                W[a, W_B, k] = _draw(DICE, sid, nfoe) - 1
            for k in range(ng):
                ty = UI[a, UI_TYPE, W[a, W_A, k]]
                size = min(TI[TI_SAC_TARGETS, ty], nfoe)
                for j in range(size):
                    RS[b, RS_DMG, FL[fi, b, FL_GROUP, (W[a, W_B, k] + j) % nfoe]] += TF[TF_SAC_DAMAGE, ty]
                G[G_ATTACKS] += size
            for k in range(ng):
                UI[a, UI_SACR, W[a, W_A, k]] = 1
            G[G_SACR + a] += ng
        n = max(FN[fi, 0, FL_GROUP], FN[fi, 1, FL_GROUP])
        for a in range(2):
            b = 1 - a
            nfoe = FN[fi, b, FL_GROUP]
            nalive = 0
            nown = 0
            for k in range(FN[fi, a, FL_GROUP]):
                u = FL[fi, a, FL_GROUP, k]
                if UI[a, UI_ALIVE, u] == 1:
                    nalive += 1
                    if UI[a, UI_SACR, u] == 0:
                        W[a, W_OWN, nown] = u
                        nown += 1
            if nalive == 0 or nfoe == 0:
                continue
            m = _take_queue(UI, SQ, Q, G, W, a, FK[fi, FK_QUEUE + a], nown, n, sid, DICE)
            ns = 0
            for k in range(m):
                u = W[a, W_ATT, k]
                ty = UI[a, UI_TYPE, u]
                if TI[TI_ATTACK, ty] > 0:
                    for _ in range(TI[TI_APR, ty]):
                        W[a, W_A, ns] = u
                        ns += 1
            if ns == 0:
                continue
            for i in range(ns):
                W[a, W_B, i] = FL[fi, b, FL_GROUP, _draw(DICE, sid, nfoe) - 1]
            for i in range(ns):
                WF[a, i] = float(_draw(DICE, sid, TI[TI_ATTACK, UI[a, UI_TYPE, W[a, W_A, i]]]))
            outnumbered = P[P_OUTNUMBER_RATIO] * FN[fi, b, FL_GROUP] <= FN[fi, a, FL_GROUP]
            if FK[fi, FK_KIND] == F_FINAL and PI[PI_OUTNUMBER_FINAL] == 0:
                outnumbered = False
            _hits(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, W, WF, ns, False,
                  False, outnumbered, FF[fi, b])
        # «Если стрелки находятся в арьергарде, то каждый ход боя они автоматически ... совершают
        # каждый по 1 выстрелу и атакуют вражеский авангард своего фланга.»
        for a in range(2):
            b = 1 - a
            nfoe = FN[fi, b, FL_GROUP]
            ns = 0
            for k in range(FN[fi, a, FL_SHOOT]):
                u = FL[fi, a, FL_SHOOT, k]
                if UI[a, UI_ALIVE, u] == 1:
                    W[a, W_SHOTS, ns] = u
                    ns += 1
            if ns == 0 or nfoe == 0:
                continue
            for k in range(nfoe):
                W[b, W_FOE, k] = FL[fi, b, FL_GROUP, k]
            _volley_shots(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, fi, a, ns, nfoe, sid, False, W, WF, DICE, FF[fi, b])
        # Целитель: «накладывает регенерацию (6 единиц здоровья за 3 раунда) на случайного бойца
        # впередистоящего (если есть) или своего отряда каждый раунд. Регенерация может складываться.»
        for a in range(2):
            nh = FN[fi, a, FL_HEAL]
            if nh == 0:
                continue
            m = 0
            for k in range(nh):
                u = FL[fi, a, FL_HEAL, k]
                if UI[a, UI_ALIVE, u] == 1:
                    W[a, W_A, m] = u
                    m += 1
            npool = 0
            for k in range(FN[fi, a, FL_GROUP]):
                u = FL[fi, a, FL_GROUP, k]
                if UI[a, UI_ALIVE, u] == 1:
                    W[a, W_B, npool] = u
                    npool += 1
            if m == 0 or npool == 0:
                continue
            for k in range(m):
                t = W[a, W_B, _draw(DICE, sid, npool) - 1]
                hty = UI[a, UI_TYPE, W[a, W_A, k]]
                _push_stack(STK, STKF, G, a, R_HEAL, t, TF[TF_HEAL_PR, hty], TI[TI_HEAL_ROUNDS, hty])
        # Огнеглот: «каждый второй ход (начиная с первого) совершает огненную отрыжку на
        # случайного врага (-6 единиц здоровья за 2 раунда)»
        for a in range(2):
            b = 1 - a
            nfoe = FN[fi, b, FL_GROUP]
            nb = 0
            for k in range(FN[fi, a, FL_GROUP]):
                u = FL[fi, a, FL_GROUP, k]
                ty = UI[a, UI_TYPE, u]
                if (UI[a, UI_ALIVE, u] == 1 and TI[TI_BURP_ROUNDS, ty] > 0
                        and (FK[fi, FK_ROUND] - 1) % TI[TI_BURP_EVERY, ty] == 0 and UI[a, UI_SACR, u] == 0):
                    W[a, W_A, nb] = u
                    nb += 1
            if nb == 0 or nfoe == 0:
                continue
            for k in range(nb):
                t = FL[fi, b, FL_GROUP, _draw(DICE, sid, nfoe) - 1]
                ty = UI[a, UI_TYPE, W[a, W_A, k]]
                _push_stack(STK, STKF, G, b, R_DOT, t, TF[TF_BURP_PR, ty], TI[TI_BURP_ROUNDS, ty])
            G[G_ATTACKS] += nb
    _apply(UF, UI, RG, SQ, RS, G, STK, STKF)


@njit(cache=True)
def _apply(UF, UI, RG, SQ, RS, G, STK, STKF):
    """The round's damage, deaths (a sacrificed cultist dies), gains, shred, counters; then the
    effect stacks of the round's living targets."""
    for s in range(2):
        for u in range(G[G_NU + s]):
            hp = UF[s, UF_HP, u] - RS[s, RS_DMG, u]
            alive = UI[s, UI_ALIVE, u] == 1
            if UI[s, UI_SACR, u] == 1:
                hp = 0.0
                if alive:
                    _kill(UI, SQ, G, s, u)
            elif alive and hp <= 0:
                _kill(UI, SQ, G, s, u)
            elif alive:
                hp = min(hp + RS[s, RS_GAIN, u], UF[s, UF_MAXHP, u])
            UF[s, UF_HP, u] = hp
            UF[s, UF_DEF, u] = max(UF[s, UF_DEF, u] - RS[s, RS_SHRED, u], 0.0)
            UF[s, UF_ATKC, u] += RS[s, RS_ATK, u]
            UF[s, UF_SHOTC, u] += RS[s, RS_SHOT, u]
    for k in range(G[G_NSTACK]):
        s = STK[k, 0]
        u = STK[k, 2]
        if UI[s, UI_ALIVE, u] == 0:
            continue
        ring = STK[k, 1]
        t = UI[s, UI_TICK, u]
        for j in range(1, STK[k, 3] + 1):
            RG[s, ring, (t + j) % RING, u] += STKF[k]
    G[G_NSTACK] = 0


# --------------------------------------------------------------------------- the battle

@njit(cache=True, inline="always")
def _healers_fl(TI, UI, FL, fi, s, n, start):
    """Append the healers among ``FL[fi, s, FL_GROUP, :n]`` to ``FL[fi, s, FL_HEAL]`` from ``start``."""
    m = start
    for k in range(n):
        u = FL[fi, s, FL_GROUP, k]
        if TI[TI_HEAL_ROUNDS, UI[s, UI_TYPE, u]] > 0:
            FL[fi, s, FL_HEAL, m] = u
            m += 1
    return m


@njit(cache=True, inline="always")
def _healers_w(TI, UI, W, row, FL, fi, s, n, start):
    """Append the healers among ``W[s, row, :n]`` to ``FL[fi, s, FL_HEAL]`` from ``start``."""
    m = start
    for k in range(n):
        u = W[s, row, k]
        if TI[TI_HEAL_ROUNDS, UI[s, UI_TYPE, u]] > 0:
            FL[fi, s, FL_HEAL, m] = u
            m += 1
    return m


@njit(cache=True)
def _gunpowder(TI, PI, UI, SQ, SIN, G, EV):
    """«ПОРОХ»: «Если вы не выделите порох юниту, который его тратит, то он не сможет сражаться и
    будет выведен из строя. Расход пороха для отряда удваивается, если вы отдаете приказ
    'обстрел'.» Powder goes to units in the order they were deployed."""
    for s in range(2):
        nsq = PI[PI_NSQ + s]
        volley = np.zeros(nsq, np.int64)
        for q in range(nsq):
            volley[q] = SIN[s, q, SIN_POWDER]
        need_total = 0
        for u in range(G[G_NU + s]):
            need = TI[TI_GUNPOWDER, UI[s, UI_TYPE, u]]
            if volley[UI[s, UI_SQUAD, u]] == 1:
                need *= PI[PI_VOLLEY_MULT]
            need_total += need
        G[G_NEED + s] = need_total
        if need_total == 0:
            continue
        stock = PI[PI_STOCK + s]
        if stock < 0:
            G[G_SUPPLIED + s] = need_total
            continue
        left = stock
        for u in range(G[G_NU + s]):
            need = TI[TI_GUNPOWDER, UI[s, UI_TYPE, u]]
            if volley[UI[s, UI_SQUAD, u]] == 1:
                need *= PI[PI_VOLLEY_MULT]
            if need == 0:
                continue
            if need <= left:
                left -= need
            else:
                UI[s, UI_WITHDRAWN, u] = 1
                _kill(UI, SQ, G, s, u)
        G[G_SUPPLIED + s] = stock - left
        row = _event(EV, G, E_GUNPOWDER)
        _set(EV, row, 1, s)
        _set(EV, row, 2, stock)
        _set(EV, row, 3, need_total)
        _set(EV, row, 4, stock - left)


@njit(cache=True)
def _volleys(TF, TI, P, PI, UF, UI, RG, SQ, SIN, RS, G, AF, STK, STKF, EV, EVF, TL, TLF, FB, SS, SF, W, WF,
             DICE, FK):
    """«Обстрел: отряд атакует авангардный отряд противника до начала боя.» All volleys of both
    sides are fired at once; each unit fires its «число выстрелов при обстреле»."""
    any_plan = False
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            k = SIN[s, q, SIN_KIND]
            if K_VOLLEY <= k <= K_LONG_VOLLEY and SQ[s, SQ_ALIVE, q] > 0:
                any_plan = True
    if not any_plan:
        return
    _clear_round(RS, UI, G)
    _auras(TF, P, PI, UI, SQ, G, AF)
    step = _begin_step(G)
    for s in range(2):
        e = 1 - s
        for q in range(PI[PI_NSQ + s]):
            k = SIN[s, q, SIN_KIND]
            if not (K_VOLLEY <= k <= K_LONG_VOLLEY and SQ[s, SQ_ALIVE, q] > 0):
                continue
            target = -1
            if SIN[s, q, SIN_NT] > 0 and SIN[s, q, SIN_T0] >= 0:
                target = _at(SQ, PI[PI_NSQ + e], e, SIN[s, q, SIN_T0])
            row = _event(EV, G, E_VOLLEY)
            _set(EV, row, 1, s)
            _set(EV, row, 2, q)
            _set(EV, row, 3, target)
            if target < 0:
                continue
            shots = W[s, W_SHOTS]
            nshots = 0
            for u in range(G[G_NU + s]):
                if UI[s, UI_ALIVE, u] == 1 and UI[s, UI_SQUAD, u] == q:
                    for _ in range(TI[TI_SHOTS, UI[s, UI_TYPE, u]]):
                        shots[nshots] = u
                        nshots += 1
            foe = W[e, W_FOE]
            nfoe = _members(UI, G, e, target, foe)
            for k2 in range(nfoe):
                FB[k2] = RS[e, RS_DMG, foe[k2]]
            was = _np_sum(FB, nfoe, SS, SF)
            if nshots > 0 and nfoe > 0:
                _volley_shots(TF, TI, P, PI, UF, UI, RG, SQ, RS, G, AF, STK, STKF, FK, -1, s, nshots, nfoe,
                              S_VOLLEYS, SQ[e, SQ_COVER, target] != 0, W, WF, DICE, 1.0)
            for k2 in range(nfoe):
                FB[k2] = RS[e, RS_DMG, foe[k2]]
            _set(EV, row, 4, SQ[e, SQ_POS, target])
            _set(EV, row, 5, 1 if k == K_LONG_VOLLEY else 0)
            _set(EV, row, 6, nshots)
            if row >= 0:
                EVF[row] = _np_sum(FB, nfoe, SS, SF) - was
    _apply(UF, UI, RG, SQ, RS, G, STK, STKF)
    G[G_STEP] = -1
    row = _event(EV, G, E_VOLLEY_LOSSES)
    _set(EV, row, 1, step)
    _normalise_all(SQ, PI, EV, G)
    _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_VOLLEYS, 0)


@njit(cache=True)
def _charge_fight(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, FK, FL, FN, FF, W, WF,
                  DICE, s, charger, opponent, as_defender, sid, first_round):
    """One fight of a charge: the charging squad against the defender or the rearguard, round by
    round until one of them is gone (or the rounds run out)."""
    e = 1 - s
    step = _begin_step(G)
    rounds = 0
    r = first_round
    while (SQ[s, SQ_ALIVE, charger] > 0 and SQ[e, SQ_ALIVE, opponent] > 0
           and rounds < PI[PI_MAX_CHARGE]):
        n_s = _members_w(UI, G, s, charger, W, W_PART)
        n_e = _members_w(UI, G, e, opponent, W, W_PART)
        n0 = n_s if s == 0 else n_e
        n1 = n_e if s == 0 else n_s
        _tick(TF, UF, UI, RG, SQ, G, W, n0, n1)
        for side in range(2):
            q = charger if side == s else opponent
            ng = _members_fl(UI, G, side, q, FL, 0, FL_GROUP)
            FN[0, side, FL_GROUP] = ng
            FN[0, side, FL_SHOOT] = 0
            FN[0, side, FL_HEAL] = _healers_fl(TI, UI, FL, 0, side, ng, 0)
            FK[0, FK_QUEUE + side] = q
            FF[0, side] = 1.0
        FK[0, FK_KIND] = F_CHARGE
        FK[0, FK_ROUND] = r
        FK[0, FK_CHARGER] = s
        FK[0, FK_DEFENDER] = as_defender
        FK[0, FK_STREAM] = sid
        _round(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, FK, FL, FN, FF, 1, W, WF,
               DICE)
        _summons(TF, TI, P, PI, UF, UI, SQ, G, W, n0, n1)
        _tock(UI, RG, W, n0, n1)
        rounds += 1
        r += 1
    G[G_STEP] = -1
    row = _event(EV, G, E_CHARGE_FIGHT)
    _set(EV, row, 1, opponent)
    _set(EV, row, 2, as_defender)
    _set(EV, row, 3, rounds)
    _set(EV, row, 4, step)
    _set(EV, row, 5, 1 if SQ[s, SQ_ALIVE, charger] > 0 else 0)
    _specials(EV, G, row, 6)
    return r


@njit(cache=True)
def _specials(EV, G, row, k):
    """Cultists' sacrifices and demonologists' summons since the last report line."""
    for s in range(2):
        _set(EV, row, k + s, G[G_SACR + s])
        _set(EV, row, k + 2 + s, G[G_SUMM + s])
        G[G_SACR + s] = 0
        G[G_SUMM + s] = 0


@njit(cache=True)
def _charges(TF, TI, P, PI, UF, UI, RG, SQ, SIN, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
             DICE):
    """«Натиск: отряд идёт в обход авангарда и сражается с арьергардом противника. После боя
    отряд возвращается на своё место.» «При попытке натиска нужно будет сначала победить
    защитников.» Charges go flank by flank (left, centre, right), the first side first."""
    plans_s = np.empty(32, np.int64)
    plans_q = np.empty(32, np.int64)
    keys = np.empty(32, np.int64)
    n = 0
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            if SIN[s, q, SIN_KIND] == K_CHARGE and SQ[s, SQ_ALIVE, q] > 0:
                pos = SQ[s, SQ_POS, q]
                plans_s[n] = s
                plans_q[n] = q
                keys[n] = (pos % 3) * 4 + s * 2 + pos // 3
                n += 1
    # a stable insertion sort by (column, side, row)
    for i in range(1, n):
        j = i
        while j > 0 and keys[j - 1] > keys[j]:
            keys[j - 1], keys[j] = keys[j], keys[j - 1]
            plans_s[j - 1], plans_s[j] = plans_s[j], plans_s[j - 1]
            plans_q[j - 1], plans_q[j] = plans_q[j], plans_q[j - 1]
            j -= 1
    for number in range(1, n + 1):
        s = plans_s[number - 1]
        q = plans_q[number - 1]
        e = 1 - s
        if SQ[s, SQ_ALIVE, q] == 0:
            continue
        target = -1
        if SIN[s, q, SIN_NT] > 0 and SIN[s, q, SIN_T0] >= 0:
            for o in range(PI[PI_NSQ + e]):
                if SIN[e, o, SIN_HOME] == SIN[s, q, SIN_T0]:
                    target = o
                    break
        row = _event(EV, G, E_CHARGE)
        _set(EV, row, 1, s)
        _set(EV, row, 2, q)
        _set(EV, row, 3, target)
        if target < 0 or SQ[e, SQ_ALIVE, target] == 0 or SQ[e, SQ_POS, target] // 3 != 1:
            _set(EV, row, 4, 1)
            continue
        defender = -1
        for o in range(PI[PI_NSQ + e]):
            if (SIN[e, o, SIN_KIND] == K_DEFEND and SIN[e, o, SIN_NT] > 0
                    and SIN[e, o, SIN_T0] == SIN[e, target, SIN_HOME] and SQ[e, SQ_ALIVE, o] > 0):
                defender = o
        _set(EV, row, 5, SQ[e, SQ_POS, target])
        _set(EV, row, 6, defender)
        sid = S_CHARGE + number - 1
        first_round = 1
        fights = 0
        for which in range(2):
            opponent = defender if which == 0 else target
            if opponent < 0 or SQ[s, SQ_ALIVE, q] == 0:
                continue
            first_round = _charge_fight(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, FK, FL, FN,
                                        FF, W, WF, DICE, s, q, opponent, 1 - which, sid,
                                        first_round)
            fights += 1
        _set(EV, row, 7, fights)
        _normalise_all(SQ, PI, EV, G)
    if n > 0:
        _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_CHARGES, 0)


@njit(cache=True)
def _step(SQ, PI, EV, G, s, mq, md, nm):
    """One step of the moves of side ``s``: squads ``mq[:nm]`` to cells ``md[:nm]``. «Если два
    отряда одновременно используют этот маневр, чтобы занять ячейки друг друга, они могут
    поменяться местами.»"""
    nsq = PI[PI_NSQ + s]
    done = np.zeros(nm, np.int64)
    for i in range(nm):
        for j in range(i + 1, nm):
            if done[i] == 1 or done[j] == 1:
                continue
            qi = mq[i]
            qj = mq[j]
            pi = SQ[s, SQ_POS, qi]
            pj = SQ[s, SQ_POS, qj]
            if md[i] == pj and md[j] == pi and _dist(pi, md[i]) == 1:
                row = _event(EV, G, E_MOVE)
                _set(EV, row, 1, s)
                _set(EV, row, 2, qi)
                _set(EV, row, 3, pi)
                _set(EV, row, 4, md[i])
                _set(EV, row, 5, qj)
                row = _event(EV, G, E_MOVE)
                _set(EV, row, 1, s)
                _set(EV, row, 2, qj)
                _set(EV, row, 3, pj)
                _set(EV, row, 4, md[j])
                _set(EV, row, 5, qi)
                SQ[s, SQ_POS, qi] = md[i]
                SQ[s, SQ_POS, qj] = md[j]
                done[i] = 1
                done[j] = 1
    progress = True
    while progress:
        progress = False
        for i in range(nm):
            q = mq[i]
            if done[i] == 1 or _dist(SQ[s, SQ_POS, q], md[i]) != 1:
                continue
            if _at(SQ, nsq, s, md[i]) < 0:
                row = _event(EV, G, E_MOVE)
                _set(EV, row, 1, s)
                _set(EV, row, 2, q)
                _set(EV, row, 3, SQ[s, SQ_POS, q])
                _set(EV, row, 4, md[i])
                _set(EV, row, 5, -1)
                SQ[s, SQ_POS, q] = md[i]
                done[i] = 1
                progress = True
    for i in range(nm):
        if done[i] == 0:
            q = mq[i]
            row = _event(EV, G, E_MOVE)
            _set(EV, row, 1, s)
            _set(EV, row, 2, q)
            _set(EV, row, 3, SQ[s, SQ_POS, q])
            _set(EV, row, 4, md[i])
            _set(EV, row, 5, -1)
            _set(EV, row, 6, 1)


@njit(cache=True)
def _via(SQ, PI, s, start, goal):
    first = -1
    for p in range(6):
        if _dist(start, p) == 1 and _dist(p, goal) == 1:
            if first < 0:
                first = p
            if _at(SQ, PI[PI_NSQ + s], s, p) < 0:
                return p
    return first


@njit(cache=True)
def _moves(UF, UI, PI, SQ, SIN, G, EV, TL, TLF, FB, SS, SF):
    """«Смена позиции: Отряд перемещается на одну свободную соседнюю ячейку.» «Марш-бросок: отряд
    дважды использует смену позиции. Отряд получает две единицы усталости.» Step one of every
    move, then the second steps (marches and the free position change of griffin riders and
    sabretooths)."""
    ms = max(PI[PI_NSQ], PI[PI_NSQ + 1])
    mq = np.empty((3, ms), np.int64)
    md = np.empty((3, ms), np.int64)
    path = np.empty(4, np.int64)
    for s in range(2):
        nm = np.zeros(3, np.int64)
        for q in range(PI[PI_NSQ + s]):
            if SQ[s, SQ_ALIVE, q] == 0:
                continue
            k = SIN[s, q, SIN_KIND]
            np_ = 0
            if K_MOVE <= k <= K_MARCH:
                for j in range(SIN[s, q, SIN_NT]):
                    path[np_] = SIN[s, q, SIN_T0 + j]
                    np_ += 1
                if k == K_MARCH:
                    SQ[s, SQ_FATIGUE, q] += PI[PI_MARCH_FATIGUE]
                    if np_ == 1 and _dist(SQ[s, SQ_POS, q], path[0]) == 2:
                        path[1] = path[0]
                        path[0] = _via(SQ, PI, s, SQ[s, SQ_POS, q], path[1])
                        np_ = 2
            if SIN[s, q, SIN_FREE] >= 0:
                path[np_] = SIN[s, q, SIN_FREE]
                np_ += 1
            for j in range(min(np_, 3)):
                mq[j, nm[j]] = q
                md[j, nm[j]] = path[j]
                nm[j] += 1
        for j in range(3):
            if nm[j] > 0:
                _step(SQ, PI, EV, G, s, mq[j], md[j], nm[j])
        _normalise(SQ, PI, EV, G, s)
    _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_MOVES, 0)


@njit(cache=True)
def _active_flanks(PI, SQ):
    mask = 0
    for f in range(3):
        if _at(SQ, PI[PI_NSQ], 0, f) >= 0 and _at(SQ, PI[PI_NSQ + 1], 1, f) >= 0:
            mask |= 1 << f
    return mask


@njit(cache=True)
def _clash(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
           DICE):
    """«Столкновение: отряды движутся навстречу друг другу и сталкиваются в бою.» Each flank
    where both sides stand fights; the rounds of all flanks are counted together."""
    while G[G_CLASH] < PI[PI_MAX_CLASH]:
        if _active_flanks(PI, SQ) == 0:
            break
        n0 = _living_w(UI, G, 0, W, W_PART)
        n1 = _living_w(UI, G, 1, W, W_PART)
        _tick(TF, UF, UI, RG, SQ, G, W, n0, n1)
        _normalise_all(SQ, PI, EV, G)
        active = _active_flanks(PI, SQ)
        if active == 0:
            _tock(UI, RG, W, n0, n1)
            break
        G[G_CLASH] += 1
        G[G_ROUNDS] += 1
        step = _begin_step(G)
        nf = 0
        for f in range(3):
            if active & (1 << f) == 0:
                continue
            for s in range(2):
                nsq = PI[PI_NSQ + s]
                van = _at(SQ, nsq, s, f)
                rear = _at(SQ, nsq, s, 3 + f)
                ng = _members_fl(UI, G, s, van, FL, nf, FL_GROUP)
                FN[nf, s, FL_GROUP] = ng
                nback = _members_w(UI, G, s, rear, W, W_A) if rear >= 0 else 0
                m = 0
                for k in range(nback):
                    u = W[s, W_A, k]
                    if TI[TI_SHOOTER, UI[s, UI_TYPE, u]] != 0:
                        FL[nf, s, FL_SHOOT, m] = u
                        m += 1
                FN[nf, s, FL_SHOOT] = m
                h = _healers_fl(TI, UI, FL, nf, s, ng, 0)
                FN[nf, s, FL_HEAL] = _healers_w(TI, UI, W, W_A, FL, nf, s, nback, h)
                FK[nf, FK_QUEUE + s] = van
                FF[nf, s] = 1.0
            FK[nf, FK_KIND] = F_CLASH
            FK[nf, FK_ROUND] = G[G_ROUNDS]
            FK[nf, FK_CHARGER] = -1
            FK[nf, FK_DEFENDER] = 0
            FK[nf, FK_STREAM] = S_CLASH + f
            nf += 1
        _round(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, FK, FL, FN, FF, nf, W, WF,
               DICE)
        _summons(TF, TI, P, PI, UF, UI, SQ, G, W, n0, n1)
        _tock(UI, RG, W, n0, n1)
        G[G_STEP] = -1
        row = _event(EV, G, E_ROUND)
        _set(EV, row, 1, 0)
        _set(EV, row, 2, G[G_ROUNDS])
        _set(EV, row, 3, step)
        _specials(EV, G, row, 4)
        _set(EV, row, 8, active)
        _normalise_all(SQ, PI, EV, G)
        _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_CLASH, G[G_ROUNDS])


@njit(cache=True)
def _final(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
           DICE):
    """«Завершение: все выжившие юниты сталкиваются в хаотичной битве, формируя 2 отряда и
    сражаясь, пока все противники не будут истреблены.» «Та команда, у которой на момент фазы
    завершения осталось меньше выживших отрядов (не юнитов), получает штраф +25%.»"""
    ms = SQ.shape[2] - 1
    counts = np.zeros(2, np.int64)
    alive = np.zeros(2, np.int64)
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            if SQ[s, SQ_ALIVE, q] > 0:
                counts[s] += 1
                alive[s] = 1
    if alive[0] == 0 or alive[1] == 0:
        return
    flank0 = P[P_FLANKING] if counts[0] < counts[1] else 1.0
    flank1 = P[P_FLANKING] if counts[1] < counts[0] else 1.0
    row = _event(EV, G, E_FINAL)
    _set(EV, row, 1, counts[0])
    _set(EV, row, 2, counts[1])
    SQ[0, SQ_QLEN, ms] = 0
    SQ[1, SQ_QLEN, ms] = 0
    r = 0
    while r < PI[PI_MAX_FINAL]:
        n0 = _living_w(UI, G, 0, W, W_PART)
        n1 = _living_w(UI, G, 1, W, W_PART)
        if n0 == 0 or n1 == 0:
            break
        _tick(TF, UF, UI, RG, SQ, G, W, n0, n1)
        g0 = _living_fl(UI, G, 0, FL, 0, FL_GROUP)
        g1 = _living_fl(UI, G, 1, FL, 0, FL_GROUP)
        if g0 == 0 or g1 == 0:
            _tock(UI, RG, W, n0, n1)
            break
        r += 1
        G[G_FINAL] += 1
        G[G_ROUNDS] += 1
        step = _begin_step(G)
        FN[0, 0, FL_GROUP] = g0
        FN[0, 1, FL_GROUP] = g1
        for s in range(2):
            FN[0, s, FL_SHOOT] = 0
            FN[0, s, FL_HEAL] = _healers_fl(TI, UI, FL, 0, s, FN[0, s, FL_GROUP], 0)
            FK[0, FK_QUEUE + s] = ms
        FF[0, 0] = flank0
        FF[0, 1] = flank1
        FK[0, FK_KIND] = F_FINAL
        FK[0, FK_ROUND] = G[G_ROUNDS]
        FK[0, FK_CHARGER] = -1
        FK[0, FK_DEFENDER] = 0
        FK[0, FK_STREAM] = S_FINAL
        _round(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, FK, FL, FN, FF, 1, W, WF,
               DICE)
        _summons(TF, TI, P, PI, UF, UI, SQ, G, W, n0, n1)
        _tock(UI, RG, W, n0, n1)
        G[G_STEP] = -1
        row = _event(EV, G, E_ROUND)
        _set(EV, row, 1, 1)
        _set(EV, row, 2, G[G_ROUNDS])
        _set(EV, row, 3, step)
        _specials(EV, G, row, 4)
        _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_FINAL, G[G_ROUNDS])


@njit(cache=True)
def layout(cap, ms, cap_ev, cap_tl, cap_log):
    """Where :func:`battle`'s outputs lie: the ends of ``G``, ``UI``, ``SQ``, ``DEPLOY``, ``EV``,
    ``TL``, ``DL`` in the integer array, then of ``EVF`` and ``TLF`` in the real one."""
    g = NG
    ui = g + 2 * NUI * cap
    sq = ui + 2 * NSQ * (ms + 1)
    deploy = sq + 2 * (ms + 1)
    ev = deploy + cap_ev * EV_W
    tl = ev + cap_tl * 4
    dl = tl + 3 * cap_log
    return 0, g, ui, sq, deploy, ev, tl, dl, cap_ev, cap_ev + 2 * cap_tl


@njit(cache=True)
def battle(TF, TI, P, PI, UNITS, SIN, SEED, LABELS, KSTART):
    """The whole battle. ``UNITS[s, 0/1, :]``: each deployed unit's type and squad; ``SIN``: the
    squads' homes and manoeuvres; stream ``k`` is SHAKE-256 over ``SEED || LABELS[KSTART[k, 1]:
    KSTART[k, 2]]`` (bytes) and had made ``KSTART[k, 0]`` draws before the battle.

    Returns two arrays, integers and reals, laid out by :func:`layout`: the counters ``G``, the
    unit state ``UI``, the squad state ``SQ``, the squads' positions at deployment, the events
    ``EV``/``EVF``, the timeline ``TL``/``TLF`` and the draw log ``DL``."""
    cap = PI[PI_CAP]
    ms = max(PI[PI_NSQ], PI[PI_NSQ + 1], 1)
    o = layout(cap, ms, PI[PI_CAP_EV], PI[PI_CAP_TL], PI[PI_CAP_LOG])
    OUT = np.empty(o[7], np.int64)
    OUT[:o[4]] = 0
    OUTF = np.empty(o[9])
    G = OUT[o[0]:o[1]]
    UI = OUT[o[1]:o[2]].reshape((2, NUI, cap))
    SQ = OUT[o[2]:o[3]].reshape((2, NSQ, ms + 1))
    DEPLOY = OUT[o[3]:o[4]].reshape((2, ms + 1))
    EV = OUT[o[4]:o[5]].reshape((PI[PI_CAP_EV], EV_W))
    TL = OUT[o[5]:o[6]].reshape((PI[PI_CAP_TL], 4))
    DL = OUT[o[6]:o[7]].reshape((PI[PI_CAP_LOG], 3))
    EVF = OUTF[:o[8]]
    TLF = OUTF[o[8]:o[9]].reshape((PI[PI_CAP_TL], 2))
    UF = np.zeros((2, NUF, cap))
    RG = np.zeros((2, 3, RING, cap))
    RS = np.zeros((2, NRS, cap))
    Q = np.zeros((2, ms + 1, cap), np.int64)
    AF = np.ones((2, 3, ms + 1))
    scap = PI[PI_CAP_STRIKES]
    STK = np.empty((PI[PI_CAP_STACK], 4), np.int64)
    STKF = np.empty(PI[PI_CAP_STACK])
    FB = np.zeros(2 * cap + 8)
    SS = np.empty((3, 64), np.int64)
    SF = np.empty(64)
    FK = np.zeros((3, NFK), np.int64)
    FL = np.zeros((3, 2, NFL, cap), np.int64)
    FN = np.zeros((3, 2, NFL), np.int64)
    FF = np.ones((3, 2))
    W = np.empty((2, NW, scap), np.int64)
    WF = np.empty((2, scap))
    ns = PI[PI_NSTREAMS]
    DICE = np.empty(D_STREAMS + ns * D_STRIDE + 3 * PI[PI_CAP_LOG], np.uint64)
    DICE[:D_STREAMS + ns * D_STRIDE] = 0
    DICE[1] = PI[PI_CAP_LOG]
    DICE[2] = D_STREAMS + ns * D_STRIDE
    block = np.zeros(8 * RATE_LANES, np.uint8)
    for k in range(ns):
        base = D_STREAMS + k * D_STRIDE
        absorb(SEED, LABELS, KSTART[k, 1], KSTART[k, 2], DICE[base + 2:base + 27], block)
        DICE[base] = KSTART[k, 0]
        DICE[base + 1] = 0
    G[G_STEP] = -1
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            SQ[s, SQ_POS, q] = SIN[s, q, SIN_HOME]
        for u in range(PI[PI_NU + s]):
            _init_unit(TF, P, PI, UF, UI, SQ, s, u, UNITS[s, 0, u], UNITS[s, 1, u], 0)
        G[G_NU + s] = PI[PI_NU + s]
    _gunpowder(TI, PI, UI, SQ, SIN, G, EV)
    _normalise_all(SQ, PI, EV, G)
    _event(EV, G, E_DEPLOYMENT)
    DEPLOY[:, :] = SQ[:, SQ_POS, :]
    _snapshot(UF, UI, G, TL, TLF, FB, SS, SF, T_DEPLOYMENT, 0)
    # planning: «Манёвры обрабатываются в таком порядке: укрытия, обстрелы, защита, натиск, а
    # затем смена позиций и марш-броски»
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            if SIN[s, q, SIN_KIND] == K_COVER and SQ[s, SQ_ALIVE, q] > 0:
                SQ[s, SQ_COVER, q] = 1
                row = _event(EV, G, E_COVER)
                _set(EV, row, 1, s)
                _set(EV, row, 2, q)
    _volleys(TF, TI, P, PI, UF, UI, RG, SQ, SIN, RS, G, AF, STK, STKF, EV, EVF, TL, TLF, FB, SS, SF, W, WF,
             DICE, FK)
    for s in range(2):
        for q in range(PI[PI_NSQ + s]):
            if SIN[s, q, SIN_KIND] == K_DEFEND and SQ[s, SQ_ALIVE, q] > 0:
                SQ[s, SQ_DEFENDING, q] = 1
                SQ[s, SQ_FATIGUE, q] += PI[PI_DEFEND_FATIGUE]
                row = _event(EV, G, E_DEFEND)
                _set(EV, row, 1, s)
                _set(EV, row, 2, q)
    _charges(TF, TI, P, PI, UF, UI, RG, SQ, SIN, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
             DICE)
    _moves(UF, UI, PI, SQ, SIN, G, EV, TL, TLF, FB, SS, SF)
    _clash(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
           DICE)
    _final(TF, TI, P, PI, UF, UI, RG, SQ, RS, Q, G, AF, STK, STKF, EV, TL, TLF, FB, SS, SF, FK, FL, FN, FF, W, WF,
           DICE)
    a0 = SQ[0, SQ_ALIVE, :PI[PI_NSQ]].sum() > 0
    a1 = SQ[1, SQ_ALIVE, :PI[PI_NSQ + 1]].sum() > 0
    G[G_WINNER] = 0 if (a0 and not a1) else (1 if (a1 and not a0) else -1)
    G[G_NLOG] = np.int64(DICE[0])
    _sort_log(DICE, DL, G, ns)
    return OUT, OUTF


@njit(cache=True)
def _sort_log(DICE, DL, G, ns):
    """The draw log grouped by stream for the streams' lists, written to ``DL``: the dice of every
    draw, stream by stream (each stream's in the order drawn), then the faces likewise, then the
    number of draws of each stream (a stable counting sort)."""
    n = G[G_NLOG]
    if n > DL.shape[0]:
        return
    log = np.int64(DICE[2])
    start = np.zeros(ns + 1, np.int64)
    for j in range(n):
        start[np.int64(DICE[log + 3 * j]) + 1] += 1
    flat = DL.reshape(-1)
    for k in range(ns):
        flat[2 * n + k] = start[k + 1]
        start[k + 1] += start[k]
    for j in range(n):
        sid = np.int64(DICE[log + 3 * j])
        at = start[sid]
        start[sid] = at + 1
        flat[at] = np.int64(DICE[log + 3 * j + 1])
        flat[n + at] = np.int64(DICE[log + 3 * j + 2])
