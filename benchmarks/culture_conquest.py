"""Benchmark: full 4-player, 50-turn Culture & Conquest games between computer players.

Two paths are timed on one core:

* the fast runner (``culture_conquest.simulate``): the phase functions driven by the
  bots' structured choices; the target is at least 10 games a second;
* the engine path: every answer written as a post by ``bot``, read by ``parse``,
  checked by ``validate`` and applied by ``resolve`` (which copies the state).

Run: ``PYTHONPATH=src python benchmarks/culture_conquest.py [--games N]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

try:
    import voevoda  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voevoda.core.dice import Dice
from voevoda.rulesets.culture_conquest import CultureConquest
from voevoda.rulesets.culture_conquest import simulate as sim

PLAYERS = ["P1", "P2", "P3", "P4"]
STRATEGIES = {"P1": "builder", "P2": "warmonger", "P3": "builder", "P4": "warmonger"}


def fast(games: int, seed: str) -> tuple[float, int]:
    """Seconds for ``games`` games on the fast runner, and the choices made."""
    choices = 0
    start = time.perf_counter()
    for n in range(games):
        result, _, _ = sim.play(f"{seed}/{n}", PLAYERS, STRATEGIES)
        choices += result.choices
    return time.perf_counter() - start, choices


def engine(games: int, seed: str) -> float:
    """Seconds for ``games`` games through bot -> parse -> validate -> resolve."""
    ruleset = CultureConquest({"strategies": STRATEGIES})
    start = time.perf_counter()
    for n in range(games):
        state = ruleset.setup(PLAYERS, Dice.from_text(f"{seed}/{n}"))
        step = 0
        while ruleset.outcome(state) is None:
            step += 1
            orders = {}
            for player in ruleset.awaiting(state):
                text = ruleset.bot(ruleset.view(state, player), player, Dice.from_text(f"b{step}").stream(player))
                orders[player] = ruleset.parse(text or "", player, state)
                assert not ruleset.validate(state, player, orders[player])
            state = ruleset.resolve(state, orders, Dice.from_text(f"{seed}/{n}/{step}")).state
    return time.perf_counter() - start


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games on the fast runner per repeat")
    parser.add_argument("--engine-games", type=int, default=5, help="games through the engine path")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(list(argv))
    fast(3, "warm-up")
    rates = []
    choices = 0
    for r in range(args.repeats):
        seconds, choices = fast(args.games, f"{args.seed}/{r}")
        rates.append(args.games / seconds)
    engine_seconds = engine(args.engine_games, args.seed)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print(f"fast runner: {args.games} games x {args.repeats}: best {max(rates):.1f}, "
          f"median {statistics.median(rates):.1f} games/s (target >= 10); "
          f"{choices / args.games:.0f} choices per game")
    print(f"engine path: {args.engine_games} games in {engine_seconds:.2f} s = "
          f"{args.engine_games / engine_seconds:.2f} games/s")


if __name__ == "__main__":
    main(sys.argv[1:])
