"""Thrones («Дипломатия и торговля») benchmarks: how long the companion takes for what a table does.

Run: ``PYTHONPATH=src python -m benchmarks thrones`` (results: benchmarks/RESULTS.md).

- parse + validate of a house's trade post (purchases, a sale, dues in troops, a payment),
- the report of a round for a house, in all four formats,
- the map of the board (SVG, and PNG),
- a whole game of six computer houses through the engine (every step: the bots' posts from
  their views, parse, validate, resolve, the journal), ten rounds with holy lands.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from voevoda.core.engine import Game
from voevoda.core.maps import to_png

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"]
TRADE_POST = """Всем привет! Старки торгуют:
[b]купить пешего в Винтерфелле[/b]
купить корабль Порт Винтерфелла
улучшить пешего до рыцаря Белая Гавань
продать корабль Дрожащее море
взнос войсками Белая Гавань: рыцарь
перевод Ланнистеру 1 за «подмогу у Рва Кейлин»
-- Анна
"""


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, min(samples) * 1000


def trade_game() -> Game:
    """A game at the trade phase of round 2, Stark and Lannister allied, Stark rich enough."""
    game = Game.create("thrones", "bench", NAMES, config={"holy_lands": False}, seed="bench/trade")
    state = game.state
    state["turn"] = 2
    state["phase"] = "trade"
    state["alliances"] = [["Анна", "Борис"]]
    state["declared"] = {p: [] for p in NAMES} | {"Анна": ["Борис"], "Борис": ["Анна"]}
    state["treasury"]["Анна"]["power"] = 12
    return game


def main() -> None:
    game = trade_game()
    median, best = timed(lambda: game.check_post("Анна", TRADE_POST), 30)
    print(f"trade post, parse + validate: {median:.1f} ms median, {best:.1f} ms best")

    played = Game.create("thrones", "bench", NAMES, bots=NAMES, seed="bench/report")
    for _ in range(12):
        played.resolve(force=True)
    turn = played.steps[-1].turn

    def reports() -> None:
        for fmt in ("text", "bbcode", "markdown", "telegram"):
            played.report("Анна", turn, fmt)  # type: ignore[arg-type]

    median, best = timed(reports, 10)
    print(f"a round's report for a house, four formats: {median:.1f} ms median, {best:.1f} ms best")
    median, best = timed(lambda: played.map_svg("public"), 20)
    print(f"the board's map, SVG: {median:.1f} ms median, {best:.1f} ms best")
    svg = played.map_svg("public") or ""
    median, best = timed(lambda: to_png(svg), 5)
    print(f"the board's map, PNG: {median:.1f} ms median, {best:.1f} ms best")

    times = []
    steps = []
    for seed in ("bench/game/1", "bench/game/2", "bench/game/3"):
        start = time.perf_counter()
        whole = Game.create("thrones", "bench", NAMES, bots=NAMES, seed=seed, auto_resolve=True)
        times.append(time.perf_counter() - start)
        steps.append(whole.step_number)
        assert whole.outcome() is not None
    print(f"a whole game, six computer houses, ten rounds: {statistics.median(times):.2f} s median "
          f"({min(times):.2f}–{max(times):.2f} s; {min(steps)}–{max(steps)} steps)")


if __name__ == "__main__":
    main()
