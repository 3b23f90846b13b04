"""How fast the command line answers: `voevoda --help`, `voevoda --version` and `voevoda status`
(issue 17 «The command line»: «`voevoda --help` and `voevoda status` answer in under 0.3 s»).

Every run is a new process (`python -m voevoda ...`), as a game master or a bot calls it. Before
measuring, one run of each command writes the bytecode (an installed package has it: pip compiles
what it installs), so what is measured is what a user meets from the second run on. The games are
made first in a SQLite file: a Ring of Power game of four (three computer players) after ten
turns, a Culture & Conquest game of three after its first turn, a Steel Rose battle waiting for
its plans, and two New Worlds games: a new one, and one of three computer players at turn 6.

For each command: the fastest and the median wall time over the runs, and the fastest CPU time
(user + system of the process, from ``wait4``) — on a machine shared with other work the CPU
time is what the command itself costs, the wall time adds the waiting for a core.

Run: ``PYTHONPATH=src python benchmarks/cli_startup.py [--runs N]`` or ``python -m benchmarks
cli_startup``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 0.3


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "120"
    return env


def _once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m voevoda ARGS``."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "voevoda", *args], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        assert process.stderr is not None
        raise SystemExit(f"voevoda {' '.join(args)} failed: {process.stderr.read().decode()}")
    if process.stderr is not None:
        process.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def _make_games(db: str) -> list[tuple[str, str]]:
    """The games whose status is asked, made in ``db``; (label, game name)."""
    from voevoda.core.engine import Game
    from voevoda.store import Store

    store = Store(db)
    rop = Game.create("ring-of-power", "rop", ["Анна", "Борис", "Вера", "Глеб"], bots=["Борис", "Вера", "Глеб"],
                      seed="bench")
    store.create(rop)
    for _ in range(10):
        with store.change("rop") as game:
            if game.outcome() is not None:
                break
            if "Анна" in game.waiting_for():
                due = game.state["players"]["Анна"]["tax_due"]
                game.submit("Анна", f"налог {due}" if due else "вражда Борис")
            game.resolve(force=True)
    cc = Game.create("culture-conquest", "cc", ["Анна", "Борис", "Вера"], bots=["Борис", "Вера"], seed="bench")
    store.create(cc)
    battle = Game.create("steel-rose-battle", "battle", ["Анна", "Борис"], seed="bench")
    store.create(battle)
    with store.change("battle") as game:
        game.submit("Анна", "Центральный фланг:\nАвангард - 20 копейщиков, 6 рыцарей\nАрьергард - 12 лучников")
        game.submit("Борис", "Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 мушкетёров и пушка")
        game.resolve()
    turn = store.load("rop").state["turn"]
    games = [(f"Ring of Power, 4 players, turn {turn}", "rop"), ("Culture & Conquest, 3 players", "cc"),
             ("Steel Rose battle, planning", "battle")]
    try:
        nw = Game.create("new-worlds", "nw", ["Анна", "Борис"], seed="bench")
        store.create(nw)
        games.append(("New Worlds, 2 players", "nw"))
        # a game that has been played: status replays its posts and turns
        played = Game.create("new-worlds", "nw6", ["Анна", "Борис", "Вера"], bots=["Анна", "Борис", "Вера"],
                             seed="bench")
        store.create(played)
        for _ in range(5):
            with store.change("nw6") as game:
                game.resolve(force=True)
        games.append(("New Worlds, 3 bots, turn 6", "nw6"))
    except Exception as exc:  # a ruleset still being built must not stop the benchmark
        print(f"(New Worlds left out: {exc})")
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    runs = max(1, parser.parse_args().runs)
    env = _env()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        commands: list[tuple[str, list[str]]] = [("voevoda --help", ["--help"]),
                                                 ("voevoda --version", ["--version"])]
        for label, name in _make_games(db):
            commands.append((f"voevoda status ({label})", ["status", name, "--as", "gm", "--db", db]))
        for _, args in commands:
            _once(args, env)  # bytecode written, caches warm
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"{runs} runs of each; CPython {sys.version.split()[0]}, {os.cpu_count()} cores, "
              f"load average {load:.1f} at the start")
        print()
        print("| command | fastest (s) | median (s) | CPU, fastest (s) | under 0.3 s |")
        print("|---|---:|---:|---:|---|")
        for label, args in commands:
            walls, cpus = zip(*(_once(args, env) for _ in range(runs)), strict=True)
            best = min(walls)
            print(f"| `{label}` | {best:.3f} | {statistics.median(walls):.3f} | {min(cpus):.3f} | "
                  f"{'yes' if best < TARGET else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
