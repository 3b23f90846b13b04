"""A/B timing of versions of the batched simulator's kernel, in one process.

Each argument is a copy of ``src/voevoda/sim/kernel.py`` (a changed one, or the one before a
change) that reads the scenario as ``voevoda.sim.compile`` builds it now; every copy is loaded
as a module of its own, compiled (or loaded from Numba's cache next to the copy), and then the
copies run the same battles with the same seed, one after the other and round after round, on
one thread, in the opposite order every other round. For each scenario it prints each copy's
best time and its speed (attacks a second, each copy counting its own attacks, so that a copy
that plays the battles differently is compared per attack) as a ratio to the first copy's, the
median (and quartiles) of the per-round ratios (each taken between runs a fraction of a second apart, which a drift over minutes
does not reach), and whether every battle's result (winner, statistics, deaths and survivors per
type) is identical to the first copy's. Machines here are noisy: two identical copies have come
out 21% apart by their best times; give a copy of the reference as a third argument to see the
noise of a run. Run as::

    PYTHONPATH=src:. python benchmarks/sim_ab.py OLD.py NEW.py [MORE.py] [--rounds 7] [--threads 1]

The first compilation of each copy takes two to four minutes. It is a tool, not a benchmark:
``python -m benchmarks`` does not run it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.sim_batched import plain  # noqa: E402
from benchmarks.steel_rose_battle import scenario as every  # noqa: E402
from voevoda.rulesets.steel_rose.rules import load_rules  # noqa: E402
from voevoda.sim import kernel  # noqa: E402
from voevoda.sim.compile import Scenario, compile_battle  # noqa: E402

SCENARIOS = {"every100": (lambda: every(100), 2500), "plain100": (lambda: plain(100), 3000),
             "every10": (lambda: every(10), 10000)}


def load(path: Path) -> ModuleType:
    """A kernel copy as a module named after its file (each copy has its own Numba cache, which
    names the module: the module is registered under that name so that the cache can find it)."""
    name = path.stem
    if name in sys.modules:
        sys.exit(f"sim_ab: {path}: a module named '{name}' is already loaded; rename the copy")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        sys.exit(f"sim_ab: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def simulate(module: ModuleType, sc: Scenario, n: int, seed: int) -> tuple[float, tuple[np.ndarray, ...]]:
    """Seconds for ``n`` battles in chunks of a quarter, and the per-battle results."""
    types = len(sc.types)
    out = (np.zeros(n, np.int8), np.zeros((n, module.NST), np.int64),
           np.zeros((n, 2, types), np.int32), np.zeros((n, 2, types), np.int32))
    t0 = time.perf_counter()
    module.simulate(sc.arrays, sc.cap_small, sc.max_squads, sc.lcap_small, sc.cap, sc.lcap, np.uint64(seed), 0, n,
                    max(1, n // 4), *out)
    return time.perf_counter() - t0, out


def _same(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> bool:
    """Whether two copies' results are identical: winners, deaths and survivors, and the
    statistics columns both copies have (a copy may count more than another)."""
    k = min(a[1].shape[1], b[1].shape[1])
    return (np.array_equal(a[0], b[0]) and np.array_equal(a[1][:, :k], b[1][:, :k])
            and np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3]))


def start() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("copies", nargs="+", type=Path, help="kernel copies (.py); the first is the reference")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of alternating runs")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), action="append",
                        help="scenarios to time (default: all)")
    args = parser.parse_args()
    if args.rounds < 1 or args.threads < 1:
        parser.error("--rounds and --threads must be at least 1")
    for path in args.copies:
        if not path.is_file() or path.suffix != ".py":
            parser.error(f"{path}: not a Python file")
    numba.set_num_threads(args.threads)
    modules = [load(p) for p in args.copies]
    rules = load_rules()
    chosen = args.scenario or list(SCENARIOS)
    scenarios = {name: (compile_battle(rules, SCENARIOS[name][0]()), SCENARIOS[name][1]) for name in chosen}
    for path, module in zip(args.copies, modules, strict=True):
        t0 = time.perf_counter()
        for sc, _ in scenarios.values():
            simulate(module, sc, 4, 1)
        print(f"{path.name}: ready in {time.perf_counter() - t0:.1f} s", flush=True)
    for name, (sc, n) in scenarios.items():
        best = [float("inf")] * len(modules)
        ratios: list[list[float]] = [[] for _ in modules]
        results: list[tuple[np.ndarray, ...]] = [() for _ in modules]
        for r in range(args.rounds):
            # forward on even rounds, backward on odd ones: a drift within a round favours no copy
            order = range(len(modules)) if r % 2 == 0 else range(len(modules) - 1, -1, -1)
            seconds = [0.0] * len(modules)
            for i in order:
                seconds[i], results[i] = simulate(modules[i], sc, n, 12345)
                best[i] = min(best[i], seconds[i])
            attacks = [int(out[1][:, kernel.ST_ATTACKS].sum()) for out in results]
            for i in range(len(modules)):
                ratios[i].append(attacks[i] / seconds[i] / (attacks[0] / seconds[0]))
        print(f"{name} ({n} battles, {attacks[0] / n:.0f} attacks each by the first copy):")
        for path, t, rs, out, att in zip(args.copies, best, ratios, results, attacks, strict=True):
            same = _same(results[0], out)
            q1, med, q3 = np.percentile(rs, [25, 50, 75])
            print(f"  {path.name:>24} {t * 1e3:8.1f} ms {att / t / 1e6:7.1f} M attacks/s "
                  f"best {att / t / (attacks[0] / best[0]):5.3f}  per round {med:5.3f} ({q1:.3f}–{q3:.3f})  "
                  f"{'same results' if same else f'DIFFERENT results ({att / n:.0f} attacks each)'}", flush=True)

if __name__ == "__main__":
    start()
