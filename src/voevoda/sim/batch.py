"""Running a compiled battle many times: per-battle results, totals, and the seed.

:func:`run` simulates battles ``first .. first + n - 1`` of a scenario under a seed and returns
one row per battle; the rows are a pure function of (scenario, seed, battle index), so any split
of the range (blocks for a progress bar, chunks per thread, Ray tasks) gives the same rows, and
the integer totals of :class:`Batch` are bit-identical.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from voevoda.sim import kernel
from voevoda.sim.compile import Scenario
from voevoda.sim.rng import seed_of

CHUNK = 0
"""Battles per workspace inside one kernel call; 0: about four chunks per thread (any value gives
the same results)."""


@dataclass(frozen=True)
class Batch:
    """Per-battle results: ``winner`` (0, 1, or -1 for a draw), ``stats`` (attacks, rounds,
    clash rounds, final rounds, summons refused for lack of room), ``dead`` and ``alive`` units
    per side and scenario type column."""

    first: int
    winner: npt.NDArray[np.int8]
    stats: npt.NDArray[np.int64]
    dead: npt.NDArray[np.int32]
    alive: npt.NDArray[np.int32]

    @property
    def n(self) -> int:
        return len(self.winner)

    @property
    def attacks(self) -> int:
        return int(self.stats[:, kernel.ST_ATTACKS].sum())

    @staticmethod
    def concat(parts: list[Batch]) -> Batch:
        parts = sorted(parts, key=lambda p: p.first)
        return Batch(parts[0].first if parts else 0,
                     np.concatenate([p.winner for p in parts]),
                     np.concatenate([p.stats for p in parts]),
                     np.concatenate([p.dead for p in parts]),
                     np.concatenate([p.alive for p in parts]))


def needs_compiling() -> bool:
    """True when the simulator's kernel is not in Numba's cache yet: the next run compiles it
    (one to two minutes, once per install), and tools say so first."""
    return not_compiled_yet(kernel.simulate_chunks)


def not_compiled_yet(dispatcher: Any) -> bool:
    """True when a ``cache=True`` Numba function is neither compiled in this process nor in
    Numba's cache, so its next call compiles it."""
    if dispatcher.signatures:
        return False
    cache: Any = getattr(dispatcher, "_cache", None)  # Numba's FunctionCache (no public API)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return isinstance(index, str) and not os.path.exists(index)


WARM_UP = '''
seed = "warm-up"
[attacker]
name = "A"
faction = "empire"
deployment = """
Центральный фланг:
Авангард - 2 копейщика
"""
[defender]
name = "B"
faction = "ogres"
deployment = """
Центральный фланг:
Авангард - 1 огр-бык
"""
'''
"""A battle of three units: the kernel is compiled once for every battle (the arrays of a scenario
have the same types whatever it holds), so a small one compiles it for all."""


def warm_up() -> None:
    """Compile the kernel now, or load it from Numba's cache: one small battle
    (``voevoda compile-simulator``, which ``make setup`` and ``make run`` call)."""
    from pathlib import Path

    from voevoda.rulesets.steel_rose.battle.sides import battle_from_text, build_sides
    from voevoda.rulesets.steel_rose.rules import load_rules
    from voevoda.sim.compile import compile_battle

    rules = load_rules()
    battle = battle_from_text(WARM_UP, Path("warm-up"))
    sides, _ = build_sides(battle.specs, rules)
    run(compile_battle(rules, (sides[0], sides[1]), battle.options), 1, "warm-up")


def seed64(seed: str | int) -> int:
    """A seed text (hashed) or a 64-bit integer (taken as is)."""
    if isinstance(seed, int):
        return seed & ((1 << 64) - 1)
    return seed_of(seed)


def run(scenario: Scenario, n: int, seed: str | int, first: int = 0, chunk: int = CHUNK,
        block: int | None = None, progress: Callable[[int], None] | None = None) -> Batch:
    """Simulate ``n`` battles (indices ``first ..``); ``progress(k)`` is called after each block
    of ``k`` battles (one kernel call per block)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    types = len(scenario.types)
    winner = np.zeros(n, dtype=np.int8)
    stats = np.zeros((n, kernel.NST), dtype=np.int64)
    dead = np.zeros((n, 2, types), dtype=np.int32)
    alive = np.zeros((n, 2, types), dtype=np.int32)
    key = np.uint64(seed64(seed))
    step = n if block is None or block <= 0 else block
    done = 0
    while done < n:
        m = min(step, n - done)
        size = chunk if chunk > 0 else max(1, -(-m // (4 * numba.get_num_threads())))
        kernel.simulate(scenario.arrays, scenario.cap_small, scenario.max_squads, scenario.lcap_small,
                        scenario.cap, scenario.lcap, key, first + done, m, size, winner[done:done + m],
                        stats[done:done + m], dead[done:done + m], alive[done:done + m])
        done += m
        if progress is not None:
            progress(m)
    return Batch(first, winner, stats, dead, alive)
