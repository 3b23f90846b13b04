"""How fast could any batched simulator run a Steel Rose battle? Lean kernels for the plain battle.

The batched simulator's kernel (``voevoda.sim.kernel``) handles every unit and effect, and pays for
that in passes over each round's units. This benchmark bounds what a different layout could
gain: it runs the plain battle of ``benchmarks/sim_batched.py`` (a squad of 100 spearmen against
another, on one flank) with a kernel written for that battle alone and with nothing to spare,
that still does what the rules ask of every round:

* «Гарантируется, что каждый юнит из отряда рано или поздно атакует»: a bag of the units that
  have not attacked since it was filled, taken whole and refilled, the last part drawn without
  replacement (the kernel's procedure);
* each attack: a draw, a uniform target among the enemy's living units, a die of the attacker's
  own attack, defence and the minimum damage subtracted, the multipliers applied (the outnumbering
  penalty included), the damage added to the target's pending damage;
* the round is simultaneous: damage lands at its end, where the dead leave the list of the living.

Nothing else: no list of participants, no per-round factors, no effects, no positions, and the
end of a round in one pass. Two such kernels are timed. *lean* keeps each unit in place (flat
one-dimensional arrays) and a list of the living, compact from round to round, that attacks pick
their targets from. *moving* moves the living units' data together at the end of each round, so
that an attack indexes the data by its draw with no list in between, and the bag follows its
units to their new places. Both play the same battle as the simulator: they must agree with it
on the mean attacks and rounds per battle (printed, and checked within 2%). Each kernel is timed
with the bare attack step of ``sim_batched.py`` just before it, on the same threads, and its
median share of that step is printed. The issue's target is 0.29 of the bare step. Run as::

    PYTHONPATH=src:. python benchmarks/sim_ceiling.py [--battles N] [--repeat N]

The lean kernels are a measurement, not a simulator: they play only a battle of one unit type,
one squad a side, and nothing in ``voevoda`` uses them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.sim_batched import TARGET_SHARE, bare_rate, plain  # noqa: E402
from voevoda.rulesets.steel_rose.rules import load_rules  # noqa: E402
from voevoda.sim import kernel as k  # noqa: E402
from voevoda.sim.batch import run, seed64  # noqa: E402
from voevoda.sim.compile import Scenario, compile_battle  # noqa: E402
from voevoda.sim.rng import battle_key, below, draw_at, hi, lo  # noqa: E402


@njit(cache=True, inline="always")
def _attackers(Q, A, LV, a, bag, count, n_a, key, ctr):
    """The round's ``count`` attackers of side ``a`` into ``A`` from its bag ``Q[a, :bag]``
    (refilled from the living ``LV[a, :n_a]`` when used up), as the simulator takes them.
    Returns (attackers, what is left in the bag, the draw counter)."""
    m = 0
    rem = count
    if rem >= bag:
        for i in range(bag):
            A[m + i] = Q[a, i]
        m += bag
        rem -= bag
        bag = 0
        if rem > 0:
            for i in range(n_a):
                Q[a, i] = LV[a, i]
            bag = n_a
            while rem >= bag:
                for i in range(bag):
                    A[m + i] = Q[a, i]
                m += bag
                rem -= bag
            if rem == 0:
                bag = 0
    for _ in range(rem):
        ctr += np.uint64(1)
        j = below(hi(draw_at(key, ctr)), bag)
        bag -= 1
        A[m] = Q[a, j]
        m += 1
        Q[a, j] = Q[a, bag]
    return m, bag, ctr


@njit(cache=True, inline="always")
def _deploy(n0, n1, hp0, def0, atk, HP, DMG, DEF, ATK, LV):
    """Both sides as the battle starts (``X[s, i]``: unit ``i`` of side ``s``), every unit on
    the list of the living; the units per side, and the empty bags."""
    n = np.zeros(2, np.int64)
    n[0] = n0
    n[1] = n1
    for s in range(2):
        for i in range(n[s]):
            HP[s, i] = hp0
            DMG[s, i] = 0.0
            DEF[s, i] = def0
            ATK[s, i] = atk
            LV[s, i] = i
    return n, np.zeros(2, np.int64)


@njit(cache=True, inline="always")
def _strikes(key, ctr, A, m, apr, a, nb, mn, mult, ATK, DEF, DMG, LV, listed):
    """The attacks of side ``a``'s ``m`` attackers ``A``: a draw each, its high half the target
    (a place on the enemy's list of the living when ``listed``, else the unit's own place), its
    low half the attacker's die. Returns the draw counter."""
    b = 1 - a
    for i in range(m):
        die = ATK[a, A[i]]   # the attacker's own die: units of a real battle differ
        for _ in range(apr):
            ctr += np.uint64(1)
            x = draw_at(key, ctr)
            t = LV[b, below(hi(x), nb)] if listed else below(hi(x), nb)
            base = 1 + below(lo(x), die) - DEF[b, t]
            base = base if base > 0.0 else 0.0
            base = base if base > mn else mn
            DMG[b, t] += base * mult
    return ctr


@njit(cache=True)
def _lean_battle(key, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber, max_rounds,
                 HP, DMG, DEF, ATK, LV, Q, A, stats):  # type: ignore[no-untyped-def]
    """One plain battle, units in place and a list of the living ``LV`` that attacks pick their
    targets from. Returns the winner (-1: neither side is gone)."""
    n, bn = _deploy(n0, n1, hp0, def0, atk, HP, DMG, DEF, ATK, LV)
    ctr = np.uint64(0)
    rounds = 0
    attacks = 0
    while n[0] > 0 and n[1] > 0 and rounds < max_rounds:
        rounds += 1
        count = n[0] if n[0] > n[1] else n[1]
        for a in range(2):
            nb = n[1 - a]
            # the outnumbering penalty of the side attacked
            mult = om * im * (outnumber if ratio * nb <= n[a] else 1.0)
            # the bag: the dead leave it
            m = 0
            for i in range(bn[a]):
                u = Q[a, i]
                Q[a, m] = u
                m += HP[a, u] > 0.0
            m, bn[a], ctr = _attackers(Q, A, LV, a, m, count, n[a], key, ctr)
            ctr = _strikes(key, ctr, A, m, apr, a, nb, mn, mult, ATK, DEF, DMG, LV, True)
            attacks += m * apr
        # the end of the round: damage lands, the dead leave the list of the living
        for s in range(2):
            m = 0
            for i in range(n[s]):
                u = LV[s, i]
                hp = HP[s, u] - DMG[s, u]
                DMG[s, u] = 0.0
                HP[s, u] = hp
                LV[s, m] = u
                m += hp > 0.0
            n[s] = m
    stats[0] = attacks
    stats[1] = rounds
    return 0 if n[1] == 0 and n[0] > 0 else 1 if n[0] == 0 and n[1] > 0 else -1


@njit(cache=True)
def _moving_battle(key, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber, max_rounds,
                   HP, DMG, DEF, ATK, LV, Q, A, stats):  # type: ignore[no-untyped-def]
    """The same battle with the living's data moved together at the end of each round
    (``HP[s, p]`` for the ``p``-th living unit of side ``s``): an attack indexes the data by
    its draw, without a list in between; the bag follows its units to their new places
    (``LV[s, old]`` holds the new place, or -1, until the list is the identity again).
    Returns the winner."""
    n, bn = _deploy(n0, n1, hp0, def0, atk, HP, DMG, DEF, ATK, LV)
    ctr = np.uint64(0)
    rounds = 0
    attacks = 0
    while n[0] > 0 and n[1] > 0 and rounds < max_rounds:
        rounds += 1
        count = n[0] if n[0] > n[1] else n[1]
        for a in range(2):
            nb = n[1 - a]
            mult = om * im * (outnumber if ratio * nb <= n[a] else 1.0)
            m, bn[a], ctr = _attackers(Q, A, LV, a, bn[a], count, n[a], key, ctr)
            ctr = _strikes(key, ctr, A, m, apr, a, nb, mn, mult, ATK, DEF, DMG, LV, False)
            attacks += m * apr
        for s in range(2):
            m = 0
            for p in range(n[s]):
                hp = HP[s, p] - DMG[s, p]
                alive = hp > 0.0
                HP[s, m] = hp
                DEF[s, m] = DEF[s, p]
                ATK[s, m] = ATK[s, p]
                DMG[s, p] = 0.0
                LV[s, p] = m if alive else -1
                m += alive
            n[s] = m
            k = 0
            for i in range(bn[s]):
                q = LV[s, Q[s, i]]
                Q[s, k] = q
                k += q >= 0
            bn[s] = k
            for p in range(m):   # the refill's order: the living in place
                LV[s, p] = p
    stats[0] = attacks
    stats[1] = rounds
    return 0 if n[1] == 0 and n[0] > 0 else 1 if n[0] == 0 and n[1] > 0 else -1


@njit(cache=True, parallel=True)
def _lean(seed, n_battles, chunks, moving, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber,
          max_rounds, winner, stats):  # type: ignore[no-untyped-def]
    cap = max(n0, n1)
    per = (n_battles + chunks - 1) // chunks
    for c in prange(chunks):
        HP = np.empty((2, cap))
        DMG = np.empty((2, cap))
        DEF = np.empty((2, cap))
        ATK = np.empty((2, cap), np.int64)
        LV = np.empty((2, cap), np.int64)
        Q = np.empty((2, cap), np.int64)
        A = np.empty(2 * cap, np.int64)
        for b in range(c * per, min(n_battles, (c + 1) * per)):
            key = battle_key(seed, b)
            if moving:
                winner[b] = _moving_battle(key, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber,
                                           max_rounds, HP, DMG, DEF, ATK, LV, Q, A, stats[b])
            else:
                winner[b] = _lean_battle(key, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber,
                                         max_rounds, HP, DMG, DEF, ATK, LV, Q, A, stats[b])


def lean_params(sc: Scenario) -> tuple:  # type: ignore[type-arg]
    """The plain battle's numbers, read from the same compiled scenario the kernel runs."""
    TF, TI, P, PI, SF, SQM, NINIT, ITYPE = (sc.arrays[i] for i in (0, 1, 2, 3, 4, 5, 6, 7))
    ty = int(ITYPE[0, 0])
    if any(int(ITYPE[s, u]) != ty for s in (0, 1) for u in range(int(NINIT[s]))):
        raise SystemExit("sim_ceiling: the lean kernel plays one unit type only")
    return (int(NINIT[0]), int(NINIT[1]), float(TF[ty, k.TF_HEALTH]), float(TF[ty, k.TF_DEFENCE]),
            int(TI[ty, k.TI_ATTACK]), int(TI[ty, k.TI_APR]), float(TF[ty, k.TF_MIN_MELEE]),
            float(SQM[0, ty]), float(SF[0, k.SF_TAKEN] * TF[ty, k.TF_TAKEN_MELEE]),
            float(P[k.P_OUTNUMBER_RATIO]), float(P[k.P_OUTNUMBER]),
            int(PI[k.PI_MAX_CLASH]) + int(PI[k.PI_MAX_FINAL]))


def lean(params: tuple, n: int, seed: str, moving: bool = False) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    """Winners and (attacks, rounds) of ``n`` plain battles by a lean kernel."""
    winner = np.zeros(n, np.int8)
    stats = np.zeros((n, 2), np.int64)
    _lean(np.uint64(seed64(seed)), n, 4 * numba.get_num_threads(), moving, *params, winner, stats)
    return winner, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5, help="runs per kernel and thread count (best is kept)")
    args = parser.parse_args()
    if args.battles < 1 or args.repeat < 1:
        parser.error("--battles and --repeat must be at least 1")
    sc = compile_battle(load_rules(), plain(100))
    params = lean_params(sc)
    run(sc, 4, "warm-up")
    lean(params, 4, "warm-up")
    lean(params, 4, "warm-up", moving=True)
    threads = numba.get_num_threads()
    ref = run(sc, args.battles, "ceiling")
    kernel_attacks = ref.attacks / ref.n
    kernel_rounds = ref.stats[:, k.ST_ROUNDS].mean()
    print(f"plain 100v100, {args.battles} battles: kernel {kernel_attacks:.1f} attacks and {kernel_rounds:.2f} "
          f"rounds a battle, first side wins {np.mean(ref.winner == 0):.3f}")
    for name, moving in (("lean", False), ("moving", True)):
        w, st = lean(params, args.battles, "ceiling", moving)
        print(f"{name:>34}: {st[:, 0].mean():.1f} attacks and {st[:, 1].mean():.2f} rounds a battle, "
              f"first side wins {np.mean(w == 0):.3f}")
        if abs(st[:, 0].mean() / kernel_attacks - 1) > 0.02 or abs(st[:, 1].mean() / kernel_rounds - 1) > 0.02:
            raise SystemExit(f"sim_ceiling: the {name} kernel does not play the same battle")
    print(f"{'kernel':>8} {'threads':>7} {'seconds':>8} {'attacks/s':>14} {'bare/s':>14} {'of bare':>7}")
    for t in sorted({1, threads}):
        for name in ("kernel", "lean", "moving"):
            best = float("inf")
            best_bare = 0.0
            shares = []
            for r in range(args.repeat):
                bare = bare_rate(t, 1, per_thread=20_000_000)
                numba.set_num_threads(t)
                t0 = time.perf_counter()
                if name == "kernel":
                    attacks = run(sc, args.battles, f"ceiling/{r}").attacks
                else:
                    attacks = int(lean(params, args.battles, f"ceiling/{r}", name == "moving")[1][:, 0].sum())
                seconds = time.perf_counter() - t0
                best = min(best, seconds)
                best_bare = max(best_bare, bare)
                shares.append(attacks / seconds / bare)
            print(f"{name:>8} {t:>7} {best:>8.3f} {attacks / best:>14,.0f} {best_bare:>14,.0f} "
                  f"{statistics.median(shares):>7.2f}", flush=True)
        numba.set_num_threads(threads)
    print(f"target: {TARGET_SHARE:.2f} of the bare step on two threads")


if __name__ == "__main__":
    main()
