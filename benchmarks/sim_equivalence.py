"""Equivalence of the batched simulator with the exact engine, sized to find a 3-point gap.

The battles of ``tests/sim/equivalence/`` (every faction, near-even odds, charges, volleys,
long-range area volleys, cover, moves with swaps, a forced march, gunpowder short of need,
summons...) are fought by the exact engine (``fight()``, the verifiable dice) and by the batched
simulator, as many times as the power calculation of ``tests/sim/faithful.py`` asks (docs/sim.md,
«Equivalence»): enough to find a gap of 3 percentage points in a win rate, or in the mean losses
of a unit type as a share of its deployment, with probability 0.9, at a family-wise false alarm
rate of 0.01 over every comparison of every battle. For each battle it prints:

* the engine's and the simulator's outcome rates, and the comparison that differs most;
* **planted bias**: the simulator again with side 0's campaign modifiers moved by the battle's
  ``planted`` (damage dealt 1.3 to 12 percent higher), on the same dice as the faithful run, so
  that the difference of the two runs is the bias's own effect; the check against the engine
  must flag it;
* **power**: ``--repeats`` disjoint samples of the simulator, each as large as the engine's, stand
  in for the engine (both play the same rules, so they are a faithful engine's sample in
  distribution): how many the check flags as they are (false alarms), and how many it flags once
  side 0's win rate is moved by exactly 3 points, or the mean losses of the unit type whose losses
  vary most by 3% of its deployment (detections; the power calculation promises 90%).

Run as::

    PYTHONPATH=src python benchmarks/sim_equivalence.py [--jobs N] [--engine-n N] [--repeats R]

The exact battles run in ``--jobs`` processes (each battle's dice are its own, so the split does
not change a result).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.sim.faithful import (  # noqa: E402
    EQUIVALENCE,
    GAP,
    Sample,
    batched_sample,
    columns,
    design,
    differences,
    engine_sample,
    equivalence_battles,
    load_battle,
    planted,
    shifted,
    shifted_losses,
    subsample,
    widest_losses,
)

from voevoda.rulesets.steel_rose.rules import load_rules  # noqa: E402
from voevoda.sim.compile import compile_battle  # noqa: E402

PART = 250
"""Exact battles per task of the process pool."""


def _engine_part(task: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    name, first, n = task
    rules = load_rules()
    battle = load_battle(rules, EQUIVALENCE / f"{name}.toml")
    types = compile_battle(rules, battle.sides, battle.options).types
    sample = engine_sample(rules, battle.sides, battle.options, types, n, f"equivalence/engine/{name}", first)
    return sample.wins, sample.dead


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the exact battles")
    parser.add_argument("--engine-n", type=int, default=0, help="exact battles per battle (0: the power calculation's)")
    parser.add_argument("--repeats", type=int, default=50, help="stand-in samples per battle for the power estimate")
    parser.add_argument("--only", nargs="*", default=[], help="battle names (default: all)")
    parser.add_argument("--engine-cache", type=Path, default=None,
                        help="folder keeping the exact samples (NAME-N.npz): a rerun after a change to the "
                             "simulator reads them instead of fighting again")
    args = parser.parse_args()
    rules = load_rules()
    battles = equivalence_battles(rules)
    plan = design(rules, battles)
    n_e = args.engine_n or plan.engine_n
    n_b = plan.batched_n
    print(f"Equivalence — {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {_load()} at the start")
    print(f"{len(battles)} battles, {plan.comparisons} comparisons, |z| > {plan.z:.2f} flags; "
          f"{n_e} exact and {n_b} batched battles per battle")
    failed = False
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for b in battles:
            if args.only and b.name not in args.only:
                continue
            seed = f"equivalence/batched/{b.name}"
            types, batched = batched_sample(rules, b.sides, b.options, n_b, seed)
            cols = columns(rules, b.sides, types)
            t0 = time.perf_counter()
            kept = args.engine_cache / f"{b.name}-{n_e}.npz" if args.engine_cache else None
            cached = kept is not None and kept.exists()
            if kept is not None and cached:
                with np.load(kept) as saved:
                    engine = Sample(saved["wins"], saved["dead"])
            else:
                tasks = [(b.name, first, min(PART, n_e - first)) for first in range(0, n_e, PART)]
                parts = pool.map(_engine_part, tasks)
                engine = Sample(np.concatenate([w for w, _ in parts]), np.concatenate([d for _, d in parts]))
                if kept is not None:
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    np.savez(kept, wins=engine.wins, dead=engine.dead)
            seconds = time.perf_counter() - t0
            diffs = differences(cols, engine, batched)
            worst = max(diffs, key=lambda d: abs(d.z))
            bad = [d for d in diffs if abs(d.z) > plan.z]
            _, wrong = batched_sample(rules, planted(b.sides, b.planted), b.options, n_b, seed)
            effect = float(wrong.wins[:, 1].mean() - batched.wins[:, 1].mean())
            caught = max(differences(cols, engine, wrong), key=lambda d: abs(d.z))
            _, pool_b = batched_sample(rules, b.sides, b.options, args.repeats * n_e, f"equivalence/stand-in/{b.name}")
            col = widest_losses(cols, batched, GAP)
            alarms = detected = lost = 0
            for r in range(args.repeats):
                x = subsample(pool_b, r * n_e, n_e)
                alarms += any(abs(d.z) > plan.z for d in differences(cols, x, batched))
                detected += any(abs(d.z) > plan.z for d in differences(cols, shifted(x, GAP, r), batched))
                lost += any(abs(d.z) > plan.z for d in differences(cols, shifted_losses(x, col, GAP, r), batched))
            fought = (f"read from {kept}" if cached else
                      f"fought in {seconds:.0f} s by {args.jobs} processes "
                      f"({1000 * seconds * args.jobs / n_e:.1f} ms a battle per process)")
            print(f"\n{b.name}: {n_e} exact battles {fought}, load average {_load()}")
            print(f"  side 0 wins: engine {engine.wins[:, 1].mean():.4f}, batched {batched.wins[:, 1].mean():.4f}; "
                  f"draws: engine {engine.wins[:, 0].mean():.4f}, batched {batched.wins[:, 0].mean():.4f}")
            print(f"  most different of {len(diffs)}: {worst}")
            print("  flagged: " + ("; ".join(map(str, bad)) if bad else "none"))
            print(f"  planted bias (side 0's modifiers {b.planted}): moves side 0's win rate by "
                  f"{100 * effect:+.2f} points; the check against the engine: {caught}"
                  + (" — FLAGGED" if abs(caught.z) > plan.z else " — MISSED"))
            print(f"  power: {alarms}/{args.repeats} false alarms; side 0's win rate moved by 3 points flagged in "
                  f"{detected}/{args.repeats}; side {col.side} {col.unit} losses moved by 3% of "
                  f"{col.deployed} flagged in {lost}/{args.repeats}")
            failed |= bool(bad) or abs(caught.z) <= plan.z
    print(f"\nload average {_load()} at the end")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
