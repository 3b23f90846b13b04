"""Benchmark: `voevoda verify` on a whole Steel Rose campaign (issue 28, «Measured»).

A campaign of five computer opponents played to Midnight (turn 9) through the engine, as
``steel_rose_campaign.py`` plays it, is exported; then timed, each in the same process:

- ``verify_export`` on the public export (what a player checks: every link, seed and input, every
  public roll, citation and digest, the header against the setup record, ``--last-digest``);
- the verifier written from docs/dice.md alone (``tests/core/docs_verifier.py``) on the same file;
- ``verify_export`` on the full export (every commitment opened with the secret, every sealed roll
  re-derived, the journal replayed and every computer opponent's post re-run);
- and, for the public export whose check costs most, a Steel Rose battle of two computer sides:
  every one of its public rolls re-derived and the battle fought again from its event.

The bots weigh attacks on a strength estimate (``bot_odds_battles = 0``, as ``voevoda demo`` plays)
unless ``--odds N`` is given: the full check replays them with the game's own setting.

Run: ``PYTHONPATH=src:. python benchmarks/verify_export.py [--repeat N] [--odds N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

try:
    import voevoda  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voevoda.core.engine import Game
from voevoda.core.verify import verify_export

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]


def timed(function: object, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--odds", type=int, default=0)
    parser.add_argument("--seed", default="bench/0")
    args = parser.parse_args(argv)
    from tests.core import docs_verifier

    print(f"python {platform.python_version()}, {platform.machine()}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    start = time.perf_counter()
    game = Game.create("steel-rose", "bench", PLAYERS, bots=PLAYERS, seed=args.seed,
                       config={"bot_odds_battles": args.odds}, auto_resolve=True)
    played = time.perf_counter() - start
    public_text = json.dumps(game.export(public=True), ensure_ascii=False)
    full_text = json.dumps(game.export(public=False), ensure_ascii=False)
    battles = sum(1 for step in game.steps for e in step.events if e.kind == "battle")
    print(f"campaign: {game.step_number} steps, turn {game.state['turn']}, {battles} battles, played in "
          f"{played:.2f} s; public export {len(public_text) / 1024:.0f} KiB, full {len(full_text) / 1024:.0f} KiB")
    seen = game.steps[-1].digest

    def public() -> None:
        report = verify_export(json.loads(public_text), game.record.commitment, seen)
        assert report.ok and report.reached == game.step_number, report.problems

    def docs() -> None:
        assert docs_verifier.verify(json.loads(public_text), game.record.commitment, seen) == []

    def full() -> None:
        report = verify_export(json.loads(full_text))
        assert report.ok and report.replayed, report.problems

    battle = Game.create("steel-rose-battle", "bench", ["Алиса", "Борис"], bots=["Алиса", "Борис"], seed=args.seed)
    while battle.outcome() is None:
        battle.resolve(force=True)
    battle_text = json.dumps(battle.export(public=True), ensure_ascii=False)
    draws = sum(r.get("count", len(r.get("faces", []))) for s in battle.steps for r in s.dice)
    print(f"battle (steel-rose-battle, two computer sides): {battle.step_number} steps, {draws} public rolls; "
          f"public export {len(battle_text) / 1024:.0f} KiB")

    def fought() -> None:
        report = verify_export(json.loads(battle_text))
        assert report.ok and report.reruns == 1, report.problems

    for name, function, repeat in (("campaign: verify, public export", public, args.repeat),
                                   ("campaign: docs/dice.md verifier, public export", docs, args.repeat),
                                   ("campaign: verify, full export (replay, bots re-run)", full,
                                    max(1, args.repeat // 3)),
                                   ("battle: verify, public export (every roll re-derived, the battle re-run)",
                                    fought, max(1, args.repeat // 3))):
        times = timed(function, repeat)
        print(f"{name}: median {statistics.median(times) * 1000:.1f} ms, best {min(times) * 1000:.1f} ms "
              f"({repeat} runs)")


if __name__ == "__main__":
    main()
