"""Steel Rose battle engine benchmark: attacks simulated per second.

Runs 10v10, 100v100 and 2000v2000 battles with every effect in play (all manoeuvres;
volleys, long-range area volleys, charges through defenders, rearguard shots, healers,
regeneration, poison, burning, armour shred, healing on hit, compounding multipliers,
self-sacrifice, ranged debuffs, burps, summons, hero and archpriest auras, gunpowder,
squeamish elves) and prints a table, for the compiled engine (the default of ``fight``) and,
in the same run, the NumPy reference engine. Run as::

    PYTHONPATH=src python benchmarks/steel_rose_battle.py [--repeat N] [--engines compiled reference]

The first run of the compiled engine in a fresh environment compiles it (about two minutes and a
half) and caches the machine code; the warm-up before the timings absorbs that, and its time is
printed.

"Attacks" counts every melee attack, every shot (each unit a cannon shot strikes), every
sacrificial strike and every burp.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import ENGINES, fight
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.report import battle_text, strength_svg
from voevoda.rulesets.steel_rose.rules import load_rules

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
    Manoeuvre("centre.rearguard", "volley", ("centre.vanguard",)),
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
    a = SideInput("Империя и союзники", "empire", _squads(n, EMPIRE_SIDE, EMPIRE_SINGLES), tuple(EMPIRE_PLAN))
    b = SideInput("Стальная роза и эльфы", "steel_rose", _squads(n, ROSE_SIDE, {}), tuple(ROSE_PLAN),
                  gunpowder=None)
    return a, b


def warm_up(engine: str) -> float:
    """Seconds of the first battle (the compiled engine loads, or compiles, its machine code)."""
    rules = load_rules()
    t0 = time.perf_counter()
    fight(rules, scenario(10), Dice.from_text("warm-up"), engine=engine)
    return time.perf_counter() - t0


def run(sizes: list[int], repeat: int, engine: str = "compiled") -> list[dict[str, float]]:
    """Each battle is fought twice, back to back, with the same dice: once from sides built anew
    (the compiled engine packs them: what a single battle costs) and once from the sides of the
    previous battle (packed inputs reused: what many battles of one army cost, as in odds)."""
    rules = load_rules()
    fight(rules, scenario(10), Dice.from_text("warm-up"), engine=engine)
    rows = []
    for n in sizes:
        sides = scenario(n)
        units = [sum(sum(s.units.values()) for s in side.squads) for side in sides]
        new_times: list[float] = []
        same_times: list[float] = []
        best_total = float("inf")
        attacks = draws = 0
        for r in range(repeat):
            fresh = scenario(n)
            dice = Dice.from_text(f"bench/{n}/{r}")
            t0 = time.perf_counter()
            result = fight(rules, fresh, dice, engine=engine)
            t1 = time.perf_counter()
            data = result.to_json()
            battle_text(data, rules)
            strength_svg(data)
            json.dumps({"result": data, "dice": dice.records()}, ensure_ascii=False)
            t2 = time.perf_counter()
            again = Dice.from_text(f"bench/{n}/{r}")
            t3 = time.perf_counter()
            same = fight(rules, sides, again, engine=engine)
            t4 = time.perf_counter()
            assert same.attacks == result.attacks
            new_times.append(t1 - t0)
            same_times.append(t4 - t3)
            best_total = min(best_total, t2 - t0)
            attacks += result.attacks
            draws += sum(s.count for s in dice)
        mean_attacks = attacks / repeat
        new_s, same_s = statistics.median(new_times), statistics.median(same_times)
        rows.append({"engine": engine, "size": n, "units_a": units[0], "units_b": units[1],
                     "attacks": mean_attacks, "draws": draws / repeat,
                     "new_s": new_s, "same_s": same_s, "with_report_s": best_total,
                     "new_rate": mean_attacks / new_s, "same_rate": mean_attacks / same_s})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 100, 2000])
    parser.add_argument("--engines", nargs="*", default=["compiled", "reference"], choices=ENGINES)
    args = parser.parse_args()
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[0]
    first = {engine: warm_up(engine) for engine in args.engines}
    rows = [row for engine in args.engines for row in run(args.sizes, args.repeat, engine)]
    print(f"Steel Rose battle engine — {platform.python_implementation()} {platform.python_version()}, "
          f"{args.repeat} battles each (different seeds), load average {load}; attacks and dice: the mean; "
          f"engine time: the median, from new sides and from the same sides; +report: the fastest; "
          f"attacks/s: mean attacks over median time")
    print("first battle: " + ", ".join(f"{e} {s:.2f} s" for e, s in first.items()))
    print(f"{'engine':>9} {'battle':>12} {'units':>11} {'attacks':>8} {'dice':>8} {'new s':>9} {'same s':>9} "
          f"{'+report s':>10} {'att/s new':>11} {'att/s same':>11}")
    for r in rows:
        print(f"{r['engine']:>9} {r['size']:>5}v{r['size']:<6} {r['units_a']:>5}/{r['units_b']:<5} "
              f"{r['attacks']:>8.0f} {r['draws']:>8.0f} {r['new_s']:>9.5f} {r['same_s']:>9.5f} "
              f"{r['with_report_s']:>10.4f} {r['new_rate']:>11,.0f} {r['same_rate']:>11,.0f}")


if __name__ == "__main__":
    main()
