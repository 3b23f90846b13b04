"""Batched simulator benchmark: attacks per second, batched against the per-battle engine.

Both run the same battles — the every-effect scenarios of benchmarks/steel_rose_battle.py
(10v10 and 100v100: all manoeuvres, area volleys, charges through defenders, healers,
regeneration, poison, burning, shred, compounding, sacrifices, debuffs, burps, summons, auras,
gunpowder, squeamish elves) — in one process, and the same scenario at 2000 against 2000 (the
largest battle of that benchmark; a twentieth of the battles); and the odds target: 10,000 battles
of 100 against 100 (the every-effect battle, and a plain one: a squad of 100 spearmen on each
side). Run as::

    PYTHONPATH=src python benchmarks/sim_batched.py [--battles N] [--engine-battles N] [--repeat N]

"Attacks" counts what the per-battle engine counts: every melee strike, every shot (each unit
an area shot strikes), every sacrificial strike and every burp. The kernel is compiled (or
loaded from Numba's cache) before anything is timed.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.steel_rose_battle import scenario  # noqa: E402
from voevoda.core.dice import Dice  # noqa: E402
from voevoda.rulesets.steel_rose.battle.engine import fight  # noqa: E402
from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput  # noqa: E402
from voevoda.rulesets.steel_rose.rules import load_rules  # noqa: E402
from voevoda.sim.batch import run  # noqa: E402
from voevoda.sim.compile import compile_battle  # noqa: E402


def plain(n: int) -> tuple[SideInput, SideInput]:
    return (SideInput("A", "empire", (SquadInput("centre.vanguard", {"spearman": n}),)),
            SideInput("B", "empire", (SquadInput("centre.vanguard", {"spearman": n}),)))


def batched(rules, sides, n: int, repeat: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    sc = compile_battle(rules, sides)
    run(sc, 4, "warm-up")
    best = float("inf")
    attacks = 0
    for r in range(repeat):
        t0 = time.perf_counter()
        batch = run(sc, n, f"bench/{r}")
        best = min(best, time.perf_counter() - t0)
        attacks = batch.attacks
    return best, attacks


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
    parser.add_argument("--engine-battles", type=int, default=30, help="per-battle engine battles per scenario")
    parser.add_argument("--repeat", type=int, default=3, help="batched runs (best is kept)")
    args = parser.parse_args()
    rules = load_rules()
    threads = numba.get_num_threads()
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[0]
    print(f"Batched simulator — {platform.python_implementation()} {platform.python_version()}, "
          f"numba {numba.__version__}, best of {args.repeat}; load average {load}")
    print(f"{'battle':>22} {'threads':>7} {'battles':>8} {'seconds':>8} {'attacks/battle':>15} {'attacks/s':>14} "
          f"{'engine att/s':>13} {'ratio':>7}")
    large = max(1, args.battles // 20)
    for label, sides, battles, engine_battles in (
            ("every effect 10v10", scenario(10), args.battles, args.engine_battles),
            ("every effect 100v100", scenario(100), args.battles, args.engine_battles),
            ("plain 100v100", plain(100), args.battles, args.engine_battles),
            ("every effect 2000v2000", scenario(2000), large, max(1, args.engine_battles // 10))):
        e_seconds, e_attacks = engine(rules, sides, engine_battles)
        e_rate = e_attacks / e_seconds
        for t in sorted({1, threads}):
            numba.set_num_threads(t)
            seconds, attacks = batched(rules, sides, battles, args.repeat)
            rate = attacks / seconds
            print(f"{label:>22} {t:>7} {battles:>8} {seconds:>8.3f} {attacks / battles:>15.0f} "
                  f"{rate:>14,.0f} {e_rate:>13,.0f} {rate / e_rate:>6.0f}x", flush=True)
        numba.set_num_threads(threads)


if __name__ == "__main__":
    main()
