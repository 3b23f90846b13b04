"""Steel Rose battle engine benchmark: the first ``voevoda battle`` after an install, and one
battle with its report.

Two targets (issue 18, item 12): the first ``voevoda battle`` after an install answers within
5 s, and a 100-against-100 battle with its report within 100 ms.

* **First battle.** ``voevoda battle`` on the example file in a new process: with nothing
  compiled to bytecode (the worst case), as after an install (voevoda's own sources not yet
  compiled, its dependencies as pip installed them), and later (see :func:`first_battle`).
* **One battle.** 10v10, 100v100 and 2000v2000 battles with every effect in play (all
  manoeuvres; volleys, long-range area volleys, charges through defenders, rearguard shots,
  healers, regeneration, poison, burning, armour shred, healing on hit, compounding
  multipliers, self-sacrifice, ranged debuffs, burps, summons, hero and archpriest auras,
  gunpowder, squeamish elves), in this process: ``fight()`` alone, and ``fight()`` with the whole
  report ``voevoda battle`` prints or writes (the text report, the BBCode report, the SVG chart
  and the JSON with every recorded die).

Run as::

    PYTHONPATH=src python benchmarks/steel_rose_battle.py [--repeat N] [--sizes 10 100 2000]

"Attacks" counts every melee attack, every shot (each unit a cannon shot strikes), every
sacrificial strike and every burp.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.report import battle_text, strength_svg
from voevoda.rulesets.steel_rose.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "steel-rose" / "empire-vs-cult.toml"

# unit shares per squad (they sum to 1 per side); heroes, archpriests, archdemons and
# demonologists are added one each.
EMPIRE_SIDE = {
    "right.vanguard": {"spearman": 0.10, "knight": 0.05, "paladin": 0.03, "healer": 0.02, "gnoblar": 0.10},
    "right.rearguard": {"crossbowman": 0.08},
    "centre.vanguard": {"lesser_demon": 0.10, "infector": 0.05, "cultist": 0.10, "void_knight": 0.05},
    "centre.rearguard": {"enlightened": 0.07},
    "left.vanguard": {"bull": 0.10, "firebelly": 0.10},
    "left.rearguard": {"griffin_rider": 0.05},
}
EMPIRE_SINGLES = {"right.vanguard": ["hero", "archpriest"], "centre.vanguard": ["archdemon", "demonologist"]}
EMPIRE_PLAN = [
    Manoeuvre("right.rearguard", "volley", ("right.vanguard",)),
    Manoeuvre("right.vanguard", "defend", ("right.rearguard",)),
    Manoeuvre("centre.vanguard", "cover"),
    Manoeuvre("left.vanguard", "charge", ("centre.rearguard",)),
    Manoeuvre("left.rearguard", "charge", ("left.rearguard",)),
]
ROSE_SIDE = {
    "right.vanguard": {"shieldbearer": 0.12, "steam_tank": 0.02, "ent": 0.04},
    "right.rearguard": {"musketeer": 0.10, "gunner": 0.08},
    "centre.vanguard": {"spectral_beast": 0.06, "golem": 0.08, "wolf": 0.10},
    "centre.rearguard": {"sorcerer": 0.08, "ranger": 0.08},
    "left.vanguard": {"mounted_gunner": 0.10},
    "left.rearguard": {"cannon": 0.10, "fire_hail": 0.04},
}
ROSE_PLAN = [
    Manoeuvre("right.rearguard", "volley", ("right.vanguard",)),
    Manoeuvre("right.vanguard", "move", ("centre.vanguard",)),
    Manoeuvre("centre.rearguard", "volley", ("centre.vanguard",)),
    Manoeuvre("centre.vanguard", "move", ("right.vanguard",)),
    Manoeuvre("left.vanguard", "defend", ("left.rearguard",)),
    Manoeuvre("left.rearguard", "long_volley", ("centre.vanguard",)),
]


def _squads(n: int, shares: dict[str, dict[str, float]], singles: dict[str, list[str]]) -> tuple[SquadInput, ...]:
    out = []
    for position, units in shares.items():
        counts = {u: max(1, round(n * s)) for u, s in units.items()}
        for u in singles.get(position, []):
            counts[u] = 1
        out.append(SquadInput(position, counts))
    return tuple(out)


def scenario(n: int) -> tuple[SideInput, SideInput]:
    """The every-effect battle of about ``n`` units a side."""
    a = SideInput("Империя и союзники", "empire", _squads(n, EMPIRE_SIDE, EMPIRE_SINGLES), tuple(EMPIRE_PLAN))
    b = SideInput("Стальная роза и эльфы", "steel_rose", _squads(n, ROSE_SIDE, {}), tuple(ROSE_PLAN),
                  gunpowder=None)
    return a, b


def first_battle(repeat: int) -> dict[str, list[float]]:
    """Seconds of ``voevoda battle`` on the example, each in a new process, three ways:

    * ``nothing compiled``: an empty bytecode cache (``PYTHONPYCACHEPREFIX`` at a new directory):
      every module of voevoda and of its dependencies is compiled from source;
    * ``after an install``: a fresh copy of voevoda's sources, with no bytecode, and the
      dependencies as pip installed them (pip compiles their bytecode when it installs them);
    * ``later``: the same copy again, its bytecode now written.
    """
    times: dict[str, list[float]] = {"nothing compiled": [], "after an install": [], "later": []}
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # a run writes the bytecode the next one reads
    command = [sys.executable, "-m", "voevoda", "battle", str(EXAMPLE), "--seed", "bench"]

    def timed(env: dict[str, str], key: str) -> None:
        t0 = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, check=False)
        times[key].append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode("utf-8", "replace"))

    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "cache"
            copy = Path(tmp) / "src"
            shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
            timed({**base, "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": str(cache)}, "nothing compiled")
            env = {**base, "PYTHONPATH": str(copy)}
            env.pop("PYTHONPYCACHEPREFIX", None)
            timed(env, "after an install")
            timed(env, "later")
    return times


def report(rules, result, dice: Dice) -> None:  # type: ignore[no-untyped-def]
    """Everything ``voevoda battle`` prints or writes from one result."""
    data = result.to_json()
    battle_text(data, rules)
    battle_text(data, rules, "ru", "bbcode")
    strength_svg(data)
    json.dumps({"result": data, "dice": dice.records()}, ensure_ascii=False)


def one_battle(sizes: list[int], repeat: int) -> list[dict[str, float]]:
    rules = load_rules()
    fight(rules, scenario(10), Dice.from_text("warm-up"))
    rows = []
    for n in sizes:
        sides = scenario(n)
        units = [sum(sum(s.units.values()) for s in side.squads) for side in sides]
        engine: list[float] = []
        total: list[float] = []
        attacks = draws = 0
        for r in range(repeat):
            dice = Dice.from_text(f"bench/{n}/{r}")
            t0 = time.perf_counter()
            result = fight(rules, scenario(n), dice)
            t1 = time.perf_counter()
            report(rules, result, dice)
            t2 = time.perf_counter()
            engine.append(t1 - t0)
            total.append(t2 - t0)
            attacks += result.attacks
            draws += sum(s.count for s in dice)
        rows.append({"size": n, "units_a": units[0], "units_b": units[1], "attacks": attacks / repeat,
                     "draws": draws / repeat, "engine": statistics.median(engine),
                     "total": statistics.median(total), "worst": max(total)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="battles per size")
    parser.add_argument("--starts", type=int, default=3, help="first-battle processes")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 100, 2000])
    args = parser.parse_args()
    if args.repeat < 1 or args.starts < 0:
        raise SystemExit("--repeat must be at least 1 and --starts at least 0")
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[0]
    print(f"Steel Rose battle engine — {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores, load average {load}")
    if args.starts:
        starts = first_battle(args.starts)
        print(f"voevoda battle {EXAMPLE.name} in a new process, {args.starts} runs each (target: under 5 s): "
              + "; ".join(f"{key} {min(t):.2f}–{max(t):.2f} s" for key, t in starts.items()))
    rows = one_battle(args.sizes, args.repeat)
    print(f"{args.repeat} battles per size (different seeds); attacks and dice: the mean; times: the median "
          f"and the slowest (target for 100v100 with its report: under 100 ms)")
    print(f"{'battle':>12} {'units':>11} {'attacks':>8} {'dice':>8} {'engine ms':>10} {'+report ms':>11} "
          f"{'slowest ms':>11} {'attacks/s':>11}")
    for r in rows:
        print(f"{r['size']:>5}v{r['size']:<6} {r['units_a']:>5}/{r['units_b']:<5} {r['attacks']:>8.0f} "
              f"{r['draws']:>8.0f} {1000 * r['engine']:>10.1f} {1000 * r['total']:>11.1f} "
              f"{1000 * r['worst']:>11.1f} {r['attacks'] / r['engine']:>11,.0f}")


if __name__ == "__main__":
    main()
