"""Benchmark: whole Steel Rose campaigns of five computer opponents, through the engine.

Each game is an ordinary game of the engine (``Game.create`` with every seat a bot, resolved as
soon as all have posted): every post written by ``bot``, read by ``parse``, checked by
``validate``, applied by ``resolve`` (battles on the exact battle engine), every view and state
validated by the campaign's Pydantic models. Timed twice: the bots weighing attacks on a
strength estimate (``bot_odds_battles = 0``, as ``voevoda demo`` plays), and on the batched
simulator (200 battles per target, the default; the simulator is warmed first).

Run: ``PYTHONPATH=src python benchmarks/steel_rose_campaign.py [--games N]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

try:
    import voevoda  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voevoda.core.engine import Game

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]


def game(seed: str, odds: int) -> tuple[float, int, int, int]:
    """Seconds for one whole game, its steps, its last turn and the battles fought."""
    start = time.perf_counter()
    g = Game.create("steel-rose", "bench", PLAYERS, bots=PLAYERS, seed=seed,
                    config={"bot_odds_battles": odds}, auto_resolve=True)
    elapsed = time.perf_counter() - start
    battles = sum(1 for step in g.steps for e in step.events if e.kind == "battle")
    return elapsed, len(g.steps), int(g.state["turn"]), battles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, {platform.machine()}, {args.games} games per setting")
    for odds in (0, 200):
        if odds:
            from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput
            from voevoda.rulesets.steel_rose.rules import load_rules
            from voevoda.sim.odds import odds as sim_odds

            side = SideInput("a", "empire", (SquadInput("centre.vanguard", {"spearman": 3}),))
            sim_odds((side, side), n=8, rules=load_rules())  # compile or load the simulator first
        times, steps, turns, battles = [], [], [], []
        for i in range(args.games):
            t, s, turn, b = game(f"{args.seed}/{i}", odds)
            times.append(t)
            steps.append(s)
            turns.append(turn)
            battles.append(b)
        print(f"bot_odds_battles={odds}: {statistics.mean(times):.2f} s a game (median {statistics.median(times):.2f}, "
              f"min {min(times):.2f}, max {max(times):.2f}); {statistics.mean(steps):.1f} steps, "
              f"{statistics.mean(turns):.1f} turns, {statistics.mean(battles):.1f} battles a game")


if __name__ == "__main__":
    main()
