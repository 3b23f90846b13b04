"""How fast could any batched simulator run a Steel Rose battle? A lean kernel for the plain battle.

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

Nothing else: no list of participants, no per-round factors, no effects, no positions, unit
state in flat one-dimensional arrays, the list of the living kept compact from round to round,
and the end of a round in one pass. The two kernels play the same battle and must agree on the
mean attacks and rounds per battle (printed, and checked within 2%). Each is timed with the bare
attack step of ``sim_batched.py`` just before it, on the same threads, and the ratio of each
to that step is printed. The issue's target is 0.29 of the bare step. Run as::

    PYTHONPATH=src:. python benchmarks/sim_ceiling.py [--battles N] [--repeat N]

The lean kernel is a measurement, not a simulator: it plays only a battle of one unit type, one
squad a side, and nothing in ``voevoda`` uses it.
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


@njit(cache=True)
def _lean_battle(key, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber, max_rounds,
                 HP, DMG, DEF, ATK, LV, Q, A, stats):  # type: ignore[no-untyped-def]
    """One plain battle; units ``s * cap + i``. Returns the winner (-1: neither side is gone)."""
    cap = LV.shape[1]
    n = np.zeros(2, np.int64)
    bn = np.zeros(2, np.int64)
    n[0] = n0
    n[1] = n1
    for s in range(2):
        for i in range(n[s]):
            u = s * cap + i
            HP[u] = hp0
            DMG[u] = 0.0
            DEF[u] = def0
            ATK[u] = atk
            LV[s, i] = u
    ctr = np.uint64(0)
    rounds = 0
    attacks = 0
    while n[0] > 0 and n[1] > 0 and rounds < max_rounds:
        rounds += 1
        count = n[0] if n[0] > n[1] else n[1]
        for a in range(2):
            b = 1 - a
            nb = n[b]
            # the outnumbering penalty of the side attacked
            mult = om * im * (outnumber if ratio * nb <= n[a] else 1.0)
            # the bag: the dead leave it
            m = 0
            for i in range(bn[a]):
                u = Q[a, i]
                Q[a, m] = u
                m += HP[u] > 0.0
            bag = m
            m = 0
            rem = count
            if rem >= bag:
                for i in range(bag):
                    A[m + i] = Q[a, i]
                m += bag
                rem -= bag
                bag = 0
                if rem > 0:
                    for i in range(n[a]):
                        Q[a, i] = LV[a, i]
                    bag = n[a]
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
            bn[a] = bag
            for i in range(m):
                die = ATK[A[i]]   # the attacker's own die: units of a real battle differ
                for _ in range(apr):
                    ctr += np.uint64(1)
                    x = draw_at(key, ctr)
                    t = LV[b, below(hi(x), nb)]
                    base = 1 + below(lo(x), die) - DEF[t]
                    base = base if base > 0.0 else 0.0
                    base = base if base > mn else mn
                    DMG[t] += base * mult
            attacks += m * apr
        # the end of the round: damage lands, the dead leave the list of the living
        for s in range(2):
            m = 0
            for i in range(n[s]):
                u = LV[s, i]
                hp = HP[u] - DMG[u]
                DMG[u] = 0.0
                HP[u] = hp
                LV[s, m] = u
                m += hp > 0.0
            n[s] = m
    stats[0] = attacks
    stats[1] = rounds
    return 0 if n[1] == 0 and n[0] > 0 else 1 if n[0] == 0 and n[1] > 0 else -1


@njit(cache=True, parallel=True)
def _lean(seed, n_battles, chunks, n0, n1, hp0, def0, atk, apr, mn, om, im, ratio, outnumber, max_rounds,
          winner, stats):  # type: ignore[no-untyped-def]
    cap = max(n0, n1)
    per = (n_battles + chunks - 1) // chunks
    for c in prange(chunks):
        HP = np.empty(2 * cap)
        DMG = np.empty(2 * cap)
        DEF = np.empty(2 * cap)
        ATK = np.empty(2 * cap, np.int64)
        LV = np.empty((2, cap), np.int64)
        Q = np.empty((2, cap), np.int64)
        A = np.empty(2 * cap, np.int64)
        for b in range(c * per, min(n_battles, (c + 1) * per)):
            winner[b] = _lean_battle(battle_key(seed, b), n0, n1, hp0, def0, atk, apr, mn, om, im, ratio,
                                     outnumber, max_rounds, HP, DMG, DEF, ATK, LV, Q, A, stats[b])


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


def lean(params: tuple, n: int, seed: str) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    winner = np.zeros(n, np.int8)
    stats = np.zeros((n, 2), np.int64)
    _lean(np.uint64(seed64(seed)), n, 4 * numba.get_num_threads(), *params, winner, stats)
    return winner, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5, help="runs per kernel and thread count (best is kept)")
    args = parser.parse_args()
    sc = compile_battle(load_rules(), plain(100))
    params = lean_params(sc)
    run(sc, 4, "warm-up")
    lean(params, 4, "warm-up")
    threads = numba.get_num_threads()
    ref = run(sc, args.battles, "ceiling")
    w, st = lean(params, args.battles, "ceiling")
    print(f"plain 100v100, {args.battles} battles: attacks/battle kernel {ref.attacks / ref.n:.1f}, "
          f"lean {st[:, 0].mean():.1f}; rounds/battle kernel {ref.stats[:, k.ST_ROUNDS].mean():.2f}, "
          f"lean {st[:, 1].mean():.2f}; first side wins kernel {np.mean(ref.winner == 0):.3f}, "
          f"lean {np.mean(w == 0):.3f}")
    if abs(st[:, 0].mean() / (ref.attacks / ref.n) - 1) > 0.02 or \
            abs(st[:, 1].mean() / ref.stats[:, k.ST_ROUNDS].mean() - 1) > 0.02:
        raise SystemExit("sim_ceiling: the lean kernel does not play the same battle")
    print(f"{'kernel':>8} {'threads':>7} {'seconds':>8} {'attacks/s':>14} {'bare/s':>14} {'of bare':>7}")
    for t in sorted({1, threads}):
        for name in ("kernel", "lean"):
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
                    attacks = int(lean(params, args.battles, f"ceiling/{r}")[1][:, 0].sum())
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
