"""New Worlds benchmarks: how long the referee takes for what a game master does.

Run: ``PYTHONPATH=src python -m benchmarks new_worlds`` (results: benchmarks/RESULTS.md).

- parse + validate of a post of ten bold orders (each priced, as the echo shows it),
- one turn of six computer players (views, bot posts, parse, validate, resolve),
- ``resolve`` alone for that turn,
- the game master's post of the turn (BBCode) and a player's map (SVG),
- a whole six-player game of 60 turns on the default map (epochs, the Sea Peoples, wars),
- the same game rebuilt from its journal by the engine (every post read again, every turn
  resolved again, the state compared byte for byte).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import PUBLIC
from voevoda.rulesets.new_worlds import NewWorlds

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"]
TURNS = 60


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, min(samples) * 1000


def bot_orders(ruleset: NewWorlds, state: dict[str, Any], dice: Dice) -> dict[str, Any]:
    orders = {}
    for p in ruleset.awaiting(state):
        text = ruleset.bot(ruleset.view(state, p), p, dice.stream(f"bot/{p}")) or ""
        orders[p] = ruleset.parse(text, p, state)
        problems = ruleset.validate(state, p, orders[p])
        assert not problems, [x.both() for x in problems]
    return orders


def post_for(ruleset: NewWorlds, state: dict[str, Any], player: str) -> str:
    """Ten bold orders the player could give: settling, cities, a pact, research."""
    world = ruleset.world(state)
    own = sorted(world.land_set(player), key=world.grid.index)
    free = sorted({n for t in own for n in world.grid.neighbours(t)
                   if world.grid.is_land(n) and world.state.owner(n) is None and world.tile_open(n)},
                  key=world.grid.index)
    lines = ["Доброго времени суток!", "[b]бонус +5[/b]"]
    lines += [f"[b]занять {t}[/b]" for t in free[:5]]
    lines += [f"[b]город {t}[/b]" for t in own[-2:]]
    lines.append("[spoiler]Ролл бросил движок[/spoiler]")
    return "\n".join(lines)


def main() -> None:
    ruleset = NewWorlds()
    state = ruleset.setup(NAMES, Dice.from_text("bench"))
    for turn in range(10):
        dice = Dice.from_text(f"bench/{turn}")
        state = ruleset.resolve(state, bot_orders(ruleset, state, dice), dice).state
    busy = state
    post = post_for(ruleset, busy, "Анна")

    def parse_post() -> None:
        orders = ruleset.parse(post, "Анна", busy)
        ruleset.validate(busy, "Анна", orders)

    def full_turn() -> None:
        dice = Dice.from_text("bench/turn")
        ruleset.resolve(busy, bot_orders(ruleset, busy, dice), dice)

    dice = Dice.from_text("bench/resolve")
    fixed = bot_orders(ruleset, busy, dice)
    resolution = ruleset.resolve(busy, fixed, Dice.from_text("bench/resolve"))

    def resolve_only() -> None:
        ruleset.resolve(busy, fixed, Dice.from_text("bench/resolve"))

    def post_and_map() -> None:
        ruleset.report(ruleset.view(resolution.state, PUBLIC), resolution.events, PUBLIC, "bbcode")
        ruleset.map_svg(ruleset.view(resolution.state, "Анна"), "Анна", "ru", resolution.events)

    rows = [
        ("parse + validate, post of 10 bold orders", *timed(parse_post, 20)),
        ("one turn, 6 bots (views, posts, resolve)", *timed(full_turn, 5)),
        ("resolve alone, 6 countries", *timed(resolve_only, 10)),
        ("the turn's post (BBCode) + a player's map (SVG)", *timed(post_and_map, 10)),
    ]
    start = time.perf_counter()
    game = Game.create("new-worlds", "bench", NAMES, bots=NAMES, seed="bench-game")
    epochs = []
    for _ in range(TURNS):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
        if not epochs or epochs[-1] != game.state["epoch"]:
            epochs.append(game.state["epoch"])
    live = time.perf_counter() - start
    turns = game.state["turn"] - 1
    start = time.perf_counter()
    again = Game(game.record)
    replay = time.perf_counter() - start
    assert canonical_json(again.state) == canonical_json(game.state)
    kinds: dict[str, int] = {}
    for step in game.steps:
        for e in step.events:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
    print("| benchmark | median ms | best ms |")
    print("|---|---:|---:|")
    for name, median, best in rows:
        print(f"| {name} | {median:.1f} | {best:.1f} |")
    print(f"| whole 6-player bot game, {turns} turns, engine path (live) | {live * 1000:.0f} | |")
    print(f"| the same game rebuilt from its journal | {replay * 1000:.0f} | |")
    print(f"\nepochs: {' → '.join(epochs)}; battles {kinds.get('battle', 0)}, wars declared "
          f"{kinds.get('war_declared', 0)}, cities built {sum(1 for s in game.steps for e in s.events if e.kind == 'built' and e.data['kind'] == 'city')}, "
          f"events {sum(kinds.values())}; {live / max(1, turns) * 1000:.0f} ms a turn", file=sys.stdout)


if __name__ == "__main__":
    main()
