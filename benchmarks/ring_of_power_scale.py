"""Ring of Power at the scale the project promises (issue «Core engine», Benchmark):

- one resolved turn of an 8-player game on the 400-hex map with 300 stacks, every stack
  under orders (moves of 1-3 steps, supports; collisions make battles): target < 100 ms;
- replay of a 50-turn 8-player game from its journal through the engine (every post parsed
  and validated again, every turn resolved again): target < 5 s.

Run: ``PYTHONPATH=src python -m benchmarks ring_of_power_scale``; results in RESULTS.md.
"""

from __future__ import annotations

import copy
import statistics
import time
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.journal import canonical_json
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.state import board_of

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]
STACKS = 300
UNIT_MIX = (["queen"], ["officer", "pawn"], ["pawn", "pawn"], ["officer"], ["pawn"])


def crowded_state(ruleset: RingOfPower) -> dict[str, Any]:
    """The default map with 300 stacks: each player's stacks on that player's holdings,
    dealt out in bands across the board so that neighbours meet."""
    state = ruleset.setup(NAMES, Dice.from_text("scale/setup"))
    board = board_of(state)
    fog = set(state["map"]["fog"])
    free = [h for h in board.hexes if h not in fog]
    state["units"] = []
    state["holdings"] = {}
    next_id = 1
    for index in range(STACKS):
        hex_ = free[index * len(free) // STACKS]
        owner = NAMES[(index * 7 // 8 + index) % len(NAMES)]
        state["holdings"][hex_] = {"owner": owner, "since": 0}
        for kind in UNIT_MIX[index % len(UNIT_MIX)]:
            state["units"].append({"id": next_id, "owner": owner, "type": kind, "hex": hex_,
                                   "upgrade_at": None, "upkeep": None})
            next_id += 1
    for player in state["players"].values():
        player["money"] = 5000
    return state


def posts(state: dict[str, Any]) -> dict[str, str]:
    """Orders for every stack: moves of one to three steps along neighbours, and supports."""
    board = board_of(state)
    lines: dict[str, list[str]] = {p: [] for p in NAMES}
    stacks = sorted({(u["owner"], u["hex"]) for u in state["units"]})
    held = {(u["hex"]): u["owner"] for u in state["units"]}
    for index, (owner, hex_) in enumerate(stacks):
        occupied = [n for n in board.neighbours(hex_) if n in held]
        if index % 5 == 4 and occupied:
            target = occupied[index % len(occupied)]
            lines[owner].append(f"поддержка {hex_} -> {target} {held[target]}")
            continue
        path = [hex_]
        for step in range(1 + index % 3):
            options = [n for n in board.neighbours(path[-1]) if n not in path]
            path.append(options[(index + step) % len(options)])
        lines[owner].append("ход " + " -> ".join(path))
    return {p: "\n".join(v) for p, v in lines.items()}


def resolve_turn() -> list[tuple[str, float, float]]:
    ruleset = RingOfPower({})
    state = crowded_state(ruleset)
    texts = posts(state)
    stacks = len({(u["owner"], u["hex"]) for u in state["units"]})
    assert stacks == STACKS, stacks

    def parsed() -> dict[str, Any]:
        orders = {}
        for player, text in texts.items():
            orders[player] = ruleset.parse(text, player, state)
            problems = ruleset.validate(state, player, orders[player])
            assert not problems, problems[:3]
        return orders

    orders = parsed()
    samples_resolve, samples_all = [], []
    for _ in range(15):
        start = time.perf_counter()
        result = ruleset.resolve(copy.deepcopy(state), orders, Dice.from_text("scale/turn"))
        samples_resolve.append(time.perf_counter() - start)
        start = time.perf_counter()
        ruleset.resolve(copy.deepcopy(state), parsed(), Dice.from_text("scale/turn"))
        samples_all.append(time.perf_counter() - start)
    battles = sum(1 for e in result.events if "battle" in e.kind)
    label = f"300 stacks, 8 players: resolve ({battles} battle events)"
    return [(label, statistics.median(samples_resolve) * 1000, min(samples_resolve) * 1000),
            ("300 stacks, 8 players: parse + validate + resolve", statistics.median(samples_all) * 1000,
             min(samples_all) * 1000)]


def replay_50_turns() -> tuple[int, int, float, float]:
    """An 8-bot game kept going for 50 turns (the ring made unreachable by house rules), then
    rebuilt from its journal."""
    game = Game.create("ring-of-power", "bench", NAMES, bots=NAMES, seed="scale/replay", auto_resolve=False,
                       config={"ring_shape": "connected", "max_turns": 50},
                       house_rules={"victory": {"ring_size": 400}})
    start = time.perf_counter()
    while game.outcome() is None:
        game.resolve()
    play = time.perf_counter() - start
    turns = int(game.state["turn"]) - 1
    start = time.perf_counter()
    again = Game(game.record)
    replay = time.perf_counter() - start
    assert canonical_json(again.state) == canonical_json(game.state)
    return turns, len(game.record.entries), play, replay


def main() -> None:
    print(f"{'benchmark':55} {'median ms':>10} {'best ms':>10}")
    for name, median, best in resolve_turn():
        print(f"{name:55} {median:10.1f} {best:10.1f}")
    turns, entries, play, replay = replay_50_turns()
    print(f"50-turn game: {turns} turns, {entries} journal entries; played in {play:.2f} s, "
          f"replayed in {replay:.2f} s (identical state)")


if __name__ == "__main__":
    main()
