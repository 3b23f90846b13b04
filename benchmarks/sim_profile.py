"""Where the batched simulator spends its time: sampled, per compiled function and per stretch of code.

Runs one scenario of benchmarks/sim_batched.py on one thread for a few seconds under ``perf record
-e cpu-clock`` (a software clock: it works in virtual machines without hardware counters) and maps
every sample to the compiled function it fell in. The kernel is compiled afresh into a temporary
cache directory, so that its object code (and with it the symbol table) is at hand; that takes
two to four minutes. Run as::

    PYTHONPATH=src:. python benchmarks/sim_profile.py [--scenario every100] [--seconds 10]
        [--annotate _fight] [--windows 4]

``--annotate NAME`` prints the most sampled stretches of instructions (24 at a time) of the
compiled functions whose symbol contains NAME, disassembled by ``objdump``. Needs Linux ``perf``
and binutils' ``objdump``. It is a tool, not a benchmark: ``python -m benchmarks`` does not run it.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SCENARIOS = ("every10", "every100", "plain100", "every2000")
WINDOW = 24


def _symbols(obj: Path) -> list[tuple[str, int, int]]:
    """(name, value, size) of every function in the object file."""
    out = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[2] == "F":
            found.append((parts[-1], int(parts[0], 16), int(parts[-2], 16)))
    return found


def _short(symbol: str) -> str:
    """A readable name for a Numba symbol: the function's name and the literal arguments it was
    specialised for (a fight is compiled once per kind of fight, for instance)."""
    if "parfor_gufunc" in symbol:
        return "the prange loop of simulate"
    m = re.search(r"kernel\d+(_*[A-Za-z][A-Za-z0-9_]*?)B\d", symbol)
    name = m.group(1) if m else symbol[:60]
    literals = [v.replace("_2d", "-") for v in re.findall(r"Literal_5b(?:int|bool)_5d_28(.*?)_29", symbol)]
    return f"{name}({', '.join(literals)})" if literals else name


def _run(scenario: str, seconds: float, workdir: Path) -> tuple[Path, list[tuple[str, int, int, int]]]:
    """Compile the kernel, write its object file, run the battles for ``seconds`` while perf
    samples this process, and return the samples' file and (symbol, address, size, value)."""
    import numba

    from benchmarks.sim_batched import plain
    from benchmarks.steel_rose_battle import scenario as every
    from voevoda.rulesets.steel_rose.rules import load_rules
    from voevoda.sim import kernel
    from voevoda.sim.batch import run
    from voevoda.sim.compile import compile_battle

    numba.set_num_threads(1)
    sides = {"every10": lambda: every(10), "every100": lambda: every(100), "plain100": lambda: plain(100),
             "every2000": lambda: every(2000)}[scenario]()
    sc = compile_battle(load_rules(), sides)
    print("compiling the kernel (two to four minutes)…", file=sys.stderr, flush=True)
    run(sc, 2, "profile/warm-up")
    library = next(iter(kernel.simulate.overloads.values())).library  # type: ignore[attr-defined]
    _, _, payload = library.serialize_using_object_code()
    obj = workdir / "kernel.o"
    obj.write_bytes(payload[0])
    functions = [(sym, library.get_pointer_to_function(sym), size, value) for sym, value, size in _symbols(obj)]
    samples = workdir / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "10000", "-q", "-o", str(samples),
                             "-p", str(os.getpid())], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    start = time.perf_counter()
    battles = 0
    n = 2000 if scenario != "every2000" else 100
    while time.perf_counter() - start < seconds:
        run(sc, n, f"profile/{battles}")
        battles += n
    perf.send_signal(2)
    perf.wait()
    print(f"{battles} battles of {scenario} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return samples, functions


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=SCENARIOS, default="every100")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--annotate", default="", help="disassemble the most sampled stretches of these functions")
    parser.add_argument("--windows", type=int, default=4, help="stretches shown per annotated function")
    return parser.parse_args()


def start() -> None:
    """Check the tools, then run :func:`profile` in a child process whose Numba cache is a fresh
    temporary directory: the kernel is compiled there, not loaded, so its object code is at hand."""
    _args()
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"sim_profile: `{tool}` is not installed")
    with tempfile.TemporaryDirectory(prefix="voevoda-profile-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"), VOEVODA_PROFILE_DIR=tmp)
        sys.exit(subprocess.call([sys.executable, *sys.argv], env=env))


def profile() -> None:
    args = _args()
    workdir = Path(os.environ["VOEVODA_PROFILE_DIR"])
    samples, functions = _run(args.scenario, args.seconds, workdir)
    script = subprocess.run(["perf", "script", "-i", str(samples), "-F", "ip"], capture_output=True, text=True,
                            check=True).stdout
    spans = sorted((addr, addr + size, sym, value) for sym, addr, size, value in functions if addr)
    starts = [s[0] for s in spans]
    per_function: Counter[str] = Counter()
    per_instruction: Counter[tuple[str, int]] = Counter()
    total = 0
    for line in script.split():
        try:
            ip = int(line, 16)
        except ValueError:
            continue
        total += 1
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < spans[i][1]:
            per_function[spans[i][2]] += 1
            per_instruction[(spans[i][2], ip - spans[i][0] + spans[i][3])] += 1
        else:
            per_function["(outside the kernel)"] += 1
    print(f"{total} samples")
    for sym, count in per_function.most_common(25):
        print(f"{count / total * 100:6.2f}%  {_short(sym)}")
    if not args.annotate:
        return
    values = {sym: (value, size) for sym, _, size, value in functions}
    for sym, (value, size) in values.items():
        if args.annotate not in sym or per_function[sym] == 0:
            continue
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", f"--start-address={value}",
                              f"--stop-address={value + size}", str(workdir / "kernel.o")],
                             capture_output=True, text=True, check=True).stdout
        lines = [(int(m.group(1), 16), m.group(2)) for m in
                 (re.match(r"\s*([0-9a-f]+):\s*(.*)", ln) for ln in dis.splitlines()) if m]
        counts = [per_instruction[(sym, a)] for a, _ in lines]
        own = sum(counts)
        # a sample whose address is not an instruction of the object file's listing (the code
        # the process ran can differ in places from the object code serialised afterwards) is
        # counted for the function but not shown here
        print(f"\n== {_short(sym)}: {own / total * 100:.2f}% of all samples on the listed instructions, "
              f"{own / per_function[sym] * 100:.0f}% of the function's samples")
        windows = sorted(((sum(counts[i:i + WINDOW]), i) for i in range(0, len(lines), WINDOW)), reverse=True)
        for share, i in windows[:args.windows]:
            print(f"-- {share / own * 100:.1f}% of the function")
            for j in range(i, min(i + WINDOW, len(lines))):
                print(f"{counts[j]:7d}  {lines[j][0]:6x}  {lines[j][1][:100]}")


if __name__ == "__main__":
    if "VOEVODA_PROFILE_DIR" in os.environ:
        profile()
    else:
        start()
