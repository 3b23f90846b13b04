"""Battle odds: win probability with a 95% interval and expected losses per unit type.

:func:`odds` reads the same battle description as ``voevoda odds`` (a battle file, a loaded
:class:`BattleFile`, or both sides' :class:`SideInput`) and answers with the same JSON shape,
from the batched simulator.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voevoda.core.errors import DataError
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, SideInput
from voevoda.rulesets.steel_rose.battle.sides import BattleFile, build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import Rules, load_rules
from voevoda.sim.batch import Batch, run
from voevoda.sim.compile import Scenario, compile_battle

Z95 = 1.959963984540054

BattleDescription = str | Path | BattleFile | tuple[SideInput, SideInput]


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval (95%) of a proportion ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


def mean_interval(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Normal 95% interval of a mean from the sum and the sum of squares."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * n / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean - half, mean + half


def resolve(battle: BattleDescription, rules: Rules | None = None,
            options: BattleOptions | None = None) -> tuple[Rules, tuple[SideInput, SideInput], BattleOptions,
                                                           str | None]:
    """Rules, both sides, options and the file's seed of a battle description."""
    rules = rules or load_rules()
    if isinstance(battle, str | Path):
        battle = load_battle_file(Path(battle))
    if isinstance(battle, BattleFile):
        sides, problems = build_sides(battle.specs, rules)
        found = [f"{battle.specs[i].name}: {p.format('en')}" for i in (0, 1) for p in problems[i]]
        if found:
            raise DataError(f"{battle.path}: " + "; ".join(found))
        return rules, sides, options or battle.options, battle.seed
    return rules, battle, options or BattleOptions(), None


@dataclass(frozen=True)
class Odds:
    """The outcome of ``n`` simulated battles of one description."""

    scenario: Scenario
    batch: Batch
    seed: str | int

    @property
    def n(self) -> int:
        return self.batch.n

    @property
    def wins(self) -> tuple[int, int]:
        w = self.batch.winner
        return int(np.count_nonzero(w == 0)), int(np.count_nonzero(w == 1))

    @property
    def draws(self) -> int:
        return int(np.count_nonzero(self.batch.winner == -1))

    def to_json(self) -> dict[str, Any]:
        """The shape ``voevoda odds --json`` prints, plus intervals of the mean losses."""
        n = self.n
        wins = self.wins
        dead = self.batch.dead.astype(np.int64)
        totals = dead.sum(axis=0)
        squares = (dead * dead).sum(axis=0)
        sides = []
        for s in (0, 1):
            lo, hi = wilson(wins[s], n)
            losses = {}
            intervals = {}
            for j, uid in enumerate(self.scenario.types):
                if totals[s, j] or self.scenario.initial[s, j]:
                    losses[uid] = float(totals[s, j]) / n if n else 0.0
                    intervals[uid] = list(mean_interval(float(totals[s, j]), float(squares[s, j]), n))
            sides.append({"name": self.scenario.names[s], "wins": wins[s], "win_rate": wins[s] / n if n else 0.0,
                          "interval95": [lo, hi],
                          "mean_losses": {u: v for u, v in sorted(losses.items()) if v},
                          "losses_interval95": {u: v for u, v in sorted(intervals.items())}})
        # «после боя часть раненых юнитов ... удаётся спасти»: per battle and unit type, as the
        # engine rounds it (half up), for the winner, both sides of a draw, and the loser unless
        # the option recovery_for_loser is off
        recovered = np.floor(dead * self.scenario.recovery[None, None, :] + 0.5).astype(np.int64)
        winner = self.batch.winner.astype(np.int64)
        for s in (0, 1):
            if not self.scenario.recovery_for_loser:
                recovered[(winner != s) & (winner != -1), s, :] = 0
            rec = recovered[:, s, :].sum(axis=0)
            sides[s]["mean_recovered"] = {uid: float(rec[j]) / n for j, uid in enumerate(self.scenario.types)
                                          if rec[j]}
        rounds = self.batch.stats[:, 1]
        return {"battles": n, "seed": self.seed, "draws": self.draws, "engine": "batched",
                "mean_rounds": float(rounds.mean()) if n else 0.0, "attacks": self.batch.attacks,
                "sides": sides}


def odds(battle: BattleDescription, n: int = 10_000, seed: str | int = "odds", *, rules: Rules | None = None,
         options: BattleOptions | None = None, progress: Callable[[int], None] | None = None,
         block: int | None = None) -> Odds:
    """Simulate ``n`` battles of ``battle`` (a battle file's path, a :class:`BattleFile`, or both
    sides' :class:`SideInput`) with the batched simulator. ``progress(k)`` is told each block
    of ``k`` finished battles."""
    if n < 1:
        raise ValueError("n must be at least 1")
    rules, sides, opts, _ = resolve(battle, rules, options)
    scenario = compile_battle(rules, sides, opts)
    if progress is not None and block is None:
        block = max(1000, n // 50)
    return Odds(scenario, run(scenario, n, seed, progress=progress, block=block), seed)
