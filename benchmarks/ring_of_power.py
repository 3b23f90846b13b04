"""Ring of Power benchmarks: how long the referee takes for what a game master does.

Run: ``PYTHONPATH=src python -m benchmarks.ring_of_power`` (results: benchmarks/RESULTS.md).

- parse + validate of a ten-line post,
- one turn of eight computer opponents (views, bot posts, parse, validate, resolve),
- ``resolve`` alone for that turn,
- a whole eight-player game until it ends.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from voevoda.core.dice import Dice
from voevoda.rulesets.ring_of_power import RingOfPower

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]
POST = """# Анна
налог 4
ход 0303 -> 0403 -> 0404
поддержка 0304 -> 0404 Анна
сбор 0303 2
вражда Борис, Вера
мир Глеб
перевод 10 Борис: за проход
Плательщик: Анна, Получатель: Казна, Сумма: 1, Основание: Налоги.
ставка 20 0303
"""


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, min(samples) * 1000


def bot_orders(ruleset: RingOfPower, state: dict[str, Any], dice: Dice) -> dict[str, Any]:
    orders = {}
    for p in ruleset.awaiting(state):
        text = ruleset.bot(ruleset.view(state, p), p, dice.stream(f"bot/{p}")) or ""
        orders[p] = ruleset.parse(text, p, state)
        ruleset.validate(state, p, orders[p])
    return orders


def main() -> None:
    ruleset = RingOfPower({"max_turns": 60})
    state = ruleset.setup(NAMES, Dice.from_text("bench"))
    # advance a few turns so that the board is busy
    for turn in range(4):
        dice = Dice.from_text(f"bench/{turn}")
        state = ruleset.resolve(state, bot_orders(ruleset, state, dice), dice).state
    busy = state

    def parse_post() -> None:
        orders = ruleset.parse(POST, "Анна", busy)
        ruleset.validate(busy, "Анна", orders)

    def full_turn() -> None:
        dice = Dice.from_text("bench/turn")
        ruleset.resolve(busy, bot_orders(ruleset, busy, dice), dice)

    dice = Dice.from_text("bench/resolve")
    fixed = bot_orders(ruleset, busy, dice)

    def resolve_only() -> None:
        ruleset.resolve(busy, fixed, Dice.from_text("bench/resolve"))

    def whole_game() -> int:
        s = ruleset.setup(NAMES, Dice.from_text("bench/game"))
        while ruleset.outcome(s) is None:
            d = Dice.from_text(f"bench/game/{s['turn']}")
            s = ruleset.resolve(s, bot_orders(ruleset, s, d), d).state
        return int(s["turn"]) - 1

    rows = [
        ("parse + validate, 10-line post", *timed(parse_post, 200)),
        ("one turn, 8 bots (views, posts, resolve)", *timed(full_turn, 20)),
        ("resolve alone, 8 players", *timed(resolve_only, 50)),
    ]
    start = time.perf_counter()
    turns = whole_game()
    game_ms = (time.perf_counter() - start) * 1000
    print(f"{'benchmark':45} {'median ms':>10} {'best ms':>10}")
    for name, median, best in rows:
        print(f"{name:45} {median:10.2f} {best:10.2f}")
    print(f"{'whole 8-player bot game (' + str(turns) + ' turns)':45} {game_ms:10.1f}")


if __name__ == "__main__":
    main()
