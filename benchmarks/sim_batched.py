"""Batched simulator benchmark: attacks per second, batched against the exact engine.

Both run the same battles — the every-effect scenarios of benchmarks/steel_rose_battle.py
(10v10 and 100v100: all manoeuvres, area volleys, charges through defenders, healers,
regeneration, poison, burning, shred, compounding, sacrifices, debuffs, burps, summons, auras,
gunpowder, squeamish elves) — in one process, and the same scenario at 2000 against 2000 (the
largest battle of that benchmark; a twentieth of the battles); and the odds target: 10,000 battles
of 100 against 100 (the every-effect battle, and a plain one: a squad of 100 spearmen on each
side). Run as::

    PYTHONPATH=src python benchmarks/sim_batched.py [--battles N] [--engine-battles N] [--repeat N]

The issue's yardstick for the 100 million attacks a second is a bare attack step (a draw, a target
and a die by multiply-shift, a subtraction from a 100-unit health array), at about 350 million a
second on the reference machine's two cores. Machines here differ by 2× and more from session to
session, and one machine's speed drifts by half within minutes, so the benchmark times that step
too, just before each batched run on the same threads, and prints each rate also as a share of it
(the median of the runs' shares): as a share, the target is at least 100 / 350 = 0.29 on two
threads. The benchmark prints both readings of the target; docs/sim.md (*How the 100-million
target is read*) says which is taken and why: the absolute rate, on the machine it runs on.

"Attacks" counts what the exact engine counts: every melee strike, every shot (each unit
an area shot strikes), every sacrificial strike and every burp. The kernel is compiled (or
loaded from Numba's cache) before anything is timed.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.steel_rose_battle import scenario  # noqa: E402
from voevoda.core.dice import Dice  # noqa: E402
from voevoda.rulesets.steel_rose.battle.engine import fight  # noqa: E402
from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput  # noqa: E402
from voevoda.rulesets.steel_rose.rules import load_rules  # noqa: E402
from voevoda.sim import kernel  # noqa: E402
from voevoda.sim.batch import Batch, run  # noqa: E402
from voevoda.sim.compile import compile_battle  # noqa: E402
from voevoda.sim.rng import battle_key, below, draw_at, hi, lo  # noqa: E402

TARGET_RATE = 100e6
"""The target as read (docs/sim.md, *How the 100-million target is read*): 100 million attacks a
second with every effect in play, on two threads of the machine the benchmark runs on."""
TARGET_SHARE = 100 / 350
"""The target as a share: 100 million attacks a second where a bare attack step runs at 350 million."""


@njit(cache=True, parallel=True)
def _bare_steps(seed, per_thread, threads):  # type: ignore[no-untyped-def]
    """``per_thread`` bare attack steps on each of ``threads`` health arrays, in parallel."""
    left = np.empty(threads)
    for t in prange(threads):
        hp = np.full(100, 1e15)
        key = battle_key(seed, t)
        for c in range(per_thread):
            x = draw_at(key, np.uint64(c))
            hp[below(hi(x), 100)] -= 1 + below(lo(x), 10)
        left[t] = hp.sum()
    return left


def bare_rate(threads: int, repeat: int, per_thread: int = 50_000_000) -> float:
    """Bare attack steps a second on ``threads`` threads (best of ``repeat``)."""
    numba.set_num_threads(threads)
    _bare_steps(np.uint64(1), 1000, threads)
    best = float("inf")
    for r in range(repeat):
        t0 = time.perf_counter()
        _bare_steps(np.uint64(r), per_thread, threads)
        best = min(best, time.perf_counter() - t0)
    return per_thread * threads / best


def plain(n: int) -> tuple[SideInput, SideInput]:
    return (SideInput("A", "empire", (SquadInput("centre.vanguard", {"spearman": n}),)),
            SideInput("B", "empire", (SquadInput("centre.vanguard", {"spearman": n}),)))


def census(label: str, batch: Batch) -> str:
    """What the battles asked of the kernel, per battle: rounds by phase, pairings and their
    fighters, and per attack the fighters and the units' round starts (the kernel's statistics).
    A battle whose pairings are small, or whose rounds start for many units that do not fight
    (the rearguards of a clash, say), does more work per attack."""
    st = batch.stats.mean(axis=0)
    attacks = st[kernel.ST_ATTACKS]
    fights = st[kernel.ST_FIGHTS]
    return (f"{label:>22}: {st[kernel.ST_ROUNDS]:.1f} rounds ({st[kernel.ST_CLASH]:.1f} clash, "
            f"{st[kernel.ST_FINAL]:.1f} final) and {st[kernel.ST_CHARGE]:.1f} charge rounds; "
            f"{fights:.1f} pairings of {st[kernel.ST_FIGHTERS] / fights:.1f} fighters; per attack "
            f"{st[kernel.ST_FIGHTERS] / attacks:.2f} fighters and {st[kernel.ST_STARTS] / attacks:.2f} round starts")


def batched(rules, sides, n: int, repeat: int, threads: int) -> tuple[float, int, float, float, Batch]:  # type: ignore[no-untyped-def]
    """Best seconds and attacks of ``n`` battles on ``threads`` threads, the best bare-step rate,
    the median share of the bare step, and the last run's battles. Each run is paired with a bare-step run on the same
    threads just before it, and the share is taken within each pair: these machines' speed drifts
    by half and more within minutes, and a pair taken seconds apart drifts far less."""
    sc = compile_battle(rules, sides)
    run(sc, 4, "warm-up")
    best = float("inf")
    best_bare = 0.0
    attacks = 0
    shares = []
    for r in range(repeat):
        bare = bare_rate(threads, 1, per_thread=20_000_000)
        numba.set_num_threads(threads)
        t0 = time.perf_counter()
        batch = run(sc, n, f"bench/{r}")
        seconds = time.perf_counter() - t0
        best = min(best, seconds)
        best_bare = max(best_bare, bare)
        attacks = batch.attacks
        shares.append(attacks / seconds / bare)
    return best, attacks, best_bare, statistics.median(shares), batch


def engine(rules, sides, n: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    fight(rules, sides, Dice.from_text("warm-up"))
    attacks = 0
    t0 = time.perf_counter()
    for i in range(n):
        attacks += fight(rules, sides, Dice.from_text(f"bench/{i}")).attacks
    return time.perf_counter() - t0, attacks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000, help="batched battles per scenario")
    parser.add_argument("--engine-battles", type=int, default=30, help="exact engine battles per scenario")
    parser.add_argument("--repeat", type=int, default=3, help="batched runs (best is kept)")
    args = parser.parse_args()
    if args.battles < 1 or args.engine_battles < 1 or args.repeat < 1:
        parser.error("--battles, --engine-battles and --repeat must be at least 1")
    rules = load_rules()
    threads = numba.get_num_threads()
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[0]
    print(f"Batched simulator — {platform.python_implementation()} {platform.python_version()}, "
          f"numba {numba.__version__}, best of {args.repeat}; load average {load}")
    bare = {t: bare_rate(t, args.repeat) for t in sorted({1, threads})}
    numba.set_num_threads(threads)
    print("bare attack step: " + ", ".join(f"{r:,.0f}/s on {t} thread{'s' if t > 1 else ''}"
                                           for t, r in bare.items()))
    print(f"{'battle':>22} {'threads':>7} {'battles':>8} {'seconds':>8} {'attacks/battle':>15} {'attacks/s':>14} "
          f"{'bare/s':>14} {'of bare':>7} {'engine att/s':>13} {'ratio':>7}")
    large = max(1, args.battles // 20)
    censuses = []
    two_thread_rates: dict[str, float] = {}
    two_thread_shares: dict[str, float] = {}
    for label, sides, battles, engine_battles in (
            ("every effect 10v10", scenario(10), args.battles, args.engine_battles),
            ("every effect 100v100", scenario(100), args.battles, args.engine_battles),
            ("plain 100v100", plain(100), args.battles, args.engine_battles),
            ("every effect 2000v2000", scenario(2000), large, max(1, args.engine_battles // 10))):
        e_seconds, e_attacks = engine(rules, sides, engine_battles)
        e_rate = e_attacks / e_seconds
        for t in sorted({1, threads}):
            seconds, attacks, bare_t, share, batch = batched(rules, sides, battles, args.repeat, t)
            rate = attacks / seconds
            print(f"{label:>22} {t:>7} {battles:>8} {seconds:>8.3f} {attacks / battles:>15.0f} "
                  f"{rate:>14,.0f} {bare_t:>14,.0f} {share:>7.2f} {e_rate:>13,.0f} {rate / e_rate:>6.0f}x", flush=True)
            if t == 2:
                two_thread_rates[label] = rate
                two_thread_shares[label] = share
        numba.set_num_threads(threads)
        censuses.append(census(label, batch))
    for label, rate in two_thread_rates.items():
        if label.startswith("every effect"):
            verdict = "met" if rate >= TARGET_RATE else "NOT met"
            print(f"target: {TARGET_RATE:,.0f} attacks/s with every effect on two threads: {verdict} by "
                  f"{label} ({rate:,.0f})")
    if not two_thread_rates:
        print(f"target: {TARGET_RATE:,.0f} attacks/s on two threads: not measured (the runs used "
              f"{threads} thread{'s' if threads > 1 else ''})")
    print(f"as a share: attacks/s at least {TARGET_SHARE:.2f} of the bare step on two threads "
          f"({TARGET_SHARE * bare[max(bare)]:,.0f} a second at the bare rate above)"
          + "".join(f"; {'met' if sh >= TARGET_SHARE else 'NOT met'} by {label} ({sh:.2f})"
                    for label, sh in two_thread_shares.items()
                    if label.startswith("every effect")))
    print("'of bare' is the median, over the runs, of each run's rate over the bare step timed just before it")
    print("per battle:")
    for line in censuses:
        print(line)


if __name__ == "__main__":
    main()
