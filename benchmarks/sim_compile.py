"""The batched simulator's first compile: what a newcomer's first ``voevoda odds`` waits for.

Each run is a new process, ``python -m voevoda odds examples/steel-rose/empire-vs-cult.toml
-n 2000``, with ``NUMBA_CACHE_DIR`` pointing at a fresh, empty folder (a fresh install), then
once more on the cache it left (every later run). For each it prints the wall time and the CPU
time of the process (user + system, from ``wait4``): on a machine shared with other work the
CPU time is what the compile costs, the wall time adds the waiting for a core.

``--baseline REV`` measures the source tree of a git revision too, in the same run, alternating
with the working tree, and prints the ratios (today's tree against the kernel before a change).
``--ahead`` runs ``voevoda compile-simulator`` (what ``make setup`` runs at install) on an empty
cache, then the first odds on the cache it left. ``--breakdown`` compiles once in this process
and lists, per compiled function, the number of specialisations, the time of its compile
(nested: a caller's time includes its callees') and its own, from Numba's compile events, and
the part of LLVM (optimisation and machine code of the function's own module, which holds
the code of its callees linked in).

Run: ``PYTHONPATH=src python benchmarks/sim_compile.py [--baseline REV] [--runs N] [--ahead] [--breakdown]``
or ``python -m benchmarks sim_compile``. One cold run costs one to three minutes of CPU.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BATTLE = "examples/steel-rose/empire-vs-cult.toml"
TARGET = 30.0


ODDS = ("odds", str(ROOT / BATTLE), "-n", "2000")
AHEAD = ("compile-simulator",)


def timed(src: Path, cache: Path, command: tuple[str, ...] = ODDS) -> tuple[float, float]:
    """Wall and CPU seconds of one ``voevoda`` process (``odds`` by default) on the source tree
    ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache), COLUMNS="120")
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "voevoda", *command],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode() if child.stderr else ""
    if status != 0:
        sys.exit(f"sim_compile: {command[0]} failed on {src}:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def source_of(rev: str, into: Path) -> Path:
    """The ``src`` folder of a git revision, extracted under ``into``."""
    archive = into / "src.tar"
    subprocess.run(["git", "archive", "-o", str(archive), rev, "src"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _llvm_timers() -> dict[str, list[float]]:
    """Process seconds of LLVM's work per library (a function's own module, named after it):
    function passes, module passes (over the callees' code linked in too), machine code. Numba's
    own CPU (bytecode, typing, lowering to LLVM's IR) is the rest."""
    from numba.core import codegen

    spent: dict[str, list[float]] = {}

    def timing(cls: type, method: str, column: int) -> None:
        inner = getattr(cls, method)

        def timed_method(library: codegen.CPUCodeLibrary, *args: object) -> object:
            start = time.process_time()
            try:
                return inner(library, *args)
            finally:
                row = spent.setdefault(library.name.rsplit(".", 1)[-1], [0.0, 0.0, 0.0])
                row[column] += time.process_time() - start

        setattr(cls, method, timed_method)

    timing(codegen.CPUCodeLibrary, "_optimize_functions", 0)
    timing(codegen.CPUCodeLibrary, "_optimize_final_module", 1)
    timing(codegen.JITCodeLibrary, "_finalize_specific", 2)
    return spent


def breakdown() -> None:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="sim-compile-")
    from numba.core import config, event
    from numba.core.registry import CPUDispatcher

    config.reload_config()  # type: ignore[no-untyped-call]  # Numba may be imported already
    llvm = _llvm_timers()
    with event.install_recorder("numba:compile") as recorder:
        from voevoda.sim import kernel, rng
        from voevoda.sim.odds import odds

        start = time.process_time()
        odds(str(ROOT / BATTLE), n=2000, seed="compile")
        cpu = time.process_time() - start
    opened: dict[tuple[str, str], list[float]] = {}
    spent: dict[str, float] = {}
    own: dict[str, float] = {}
    nested: list[list[float]] = []  # per open compile: the time of the compiles inside it
    for stamp, ev in recorder.buffer:
        data = ev.data or {}
        name = data["dispatcher"].py_func.__name__ if "dispatcher" in data else str(ev.kind)
        key = (name, str(data.get("args")))
        if ev.is_start:
            opened.setdefault(key, []).append(stamp)
            nested.append([0.0])
        else:  # the same helper (a Numba overload) may compile inside its own compile
            took = stamp - opened[key].pop()
            spent[name] = max(spent.get(name, 0.0), took)
            own[name] = own.get(name, 0.0) + took - nested.pop()[0]
            if nested:
                nested[-1][0] += took
    total_llvm = sum(sum(row) for row in llvm.values())
    print(f"first odds in this process: {cpu:.1f} s of CPU, of which LLVM {total_llvm:.1f} s "
          f"(function passes {sum(r[0] for r in llvm.values()):.1f}, module passes "
          f"{sum(r[1] for r in llvm.values()):.1f}, machine code {sum(r[2] for r in llvm.values()):.1f})")
    print(f"{'function':<22} {'copies':>6} {'longest, s (with callees)':>26} {'own, s':>7} {'of which LLVM':>14}")
    for module in (kernel, rng):
        for name, obj in sorted(vars(module).items()):
            if isinstance(obj, CPUDispatcher) and obj.signatures and obj.py_func.__module__ == module.__name__:
                print(f"{module.__name__.rsplit('.', 1)[1] + '.' + name:<22} {len(obj.signatures):>6} "
                      f"{spent.get(name, 0.0):>26.1f} {own.get(name, 0.0):>7.1f} {sum(llvm.get(name, [0.0])):>14.1f}")
    print("(seconds of the compile events are wall time; LLVM's are CPU time of this process)")


def ahead(runs: int) -> None:
    """The install's ahead-of-time compile (``make setup``) on an empty cache, then the first odds."""
    with tempfile.TemporaryDirectory(prefix="sim-compile-") as tmp:
        for r in range(runs):
            cache = Path(tmp) / f"cache-{r}"
            cache.mkdir()
            aot = timed(ROOT / "src", cache, AHEAD)
            first = timed(ROOT / "src", cache)
            print(f"compile-simulator {aot[0]:.1f} s wall, {aot[1]:.1f} s CPU; then the first odds "
                  f"{first[0]:.1f} s wall, {first[1]:.1f} s CPU", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", help="git revision to compare with (its src/ is extracted)")
    parser.add_argument("--runs", type=int, default=1, help="cold runs of each tree")
    parser.add_argument("--breakdown", action="store_true", help="per-function compile times, in this process")
    parser.add_argument("--ahead", action="store_true",
                        help="first `voevoda compile-simulator` (make setup) on an empty cache, then the first odds")
    args = parser.parse_args()
    if args.breakdown:
        breakdown()
        return
    if args.ahead:
        ahead(args.runs)
        return
    with tempfile.TemporaryDirectory(prefix="sim-compile-") as tmp:
        trees = {"working tree": ROOT / "src"}
        if args.baseline:
            trees = {args.baseline: source_of(args.baseline, Path(tmp)), **trees}
        rows: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in trees}
        for r in range(args.runs):
            for name, src in (trees.items() if r % 2 == 0 else reversed(trees.items())):
                cache = Path(tmp) / f"cache-{len(rows[name])}-{abs(hash(name))}"
                cache.mkdir()
                cold = timed(src, cache)
                warm = timed(src, cache)
                rows[name].append((*cold, *warm))
                print(f"{name}: cold {cold[0]:.1f} s wall, {cold[1]:.1f} s CPU; warm {warm[0]:.1f} s wall, "
                      f"{warm[1]:.1f} s CPU", flush=True)
        print(f"\n{'tree':<14} {'cold wall':>10} {'cold CPU':>9} {'warm wall':>10} {'warm CPU':>9}  (best of {args.runs})")
        best = {name: tuple(min(x[i] for x in runs) for i in range(4)) for name, runs in rows.items()}
        for name, b in best.items():
            print(f"{name:<14} {b[0]:>10.1f} {b[1]:>9.1f} {b[2]:>10.1f} {b[3]:>9.1f}")
        if args.baseline:
            old, new = best[args.baseline], best["working tree"]
            print(f"ratio new/old: cold CPU {new[1] / old[1]:.2f}, cold wall {new[0] / old[0]:.2f}")
        print(f"target: the first odds within {TARGET:.0f} s on an idle two-core machine")


if __name__ == "__main__":
    main()
