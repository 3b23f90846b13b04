"""Statistical comparison of the batched simulator with the per-battle engine."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, SideInput
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim.batch import run
from voevoda.sim.compile import compile_battle

Z = 3.29
"""Two-sided 99.9%: with fixed seeds every comparison is deterministic, and a corpus of a few
hundred comparisons stays clear of chance failures while a wrong rule (tests/sim/test_faithful.py
shows one) lands far outside."""


@dataclass
class Sample:
    wins: np.ndarray     # (n, 3): draw, side 0, side 1 as 0/1
    dead: np.ndarray     # (n, 2, types)


def engine_sample(rules: Rules, sides: tuple[SideInput, SideInput], options: BattleOptions, types: list[str],
                  n: int, seed: str) -> Sample:
    wins = np.zeros((n, 3))
    dead = np.zeros((n, 2, len(types)))
    for i in range(n):
        r = fight(rules, sides, Dice.from_text(f"{seed}/{i}"), options=options)
        wins[i, (r.winner if r.winner is not None else -1) + 1] = 1
        for s, side in enumerate(r.summary["sides"]):
            for uid, k in side["dead"].items():
                dead[i, s, types.index(uid)] = k
    return Sample(wins, dead)


def batched_sample(rules: Rules, sides: tuple[SideInput, SideInput], options: BattleOptions, n: int,
                   seed: str) -> tuple[list[str], Sample]:
    scenario = compile_battle(rules, sides, options)
    batch = run(scenario, n, seed)
    wins = np.zeros((n, 3))
    wins[np.arange(n), batch.winner.astype(np.int64) + 1] = 1
    return scenario.types, Sample(wins, batch.dead.astype(np.float64))


def z_score(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sample z of the means under the null of one distribution (pooled variance)."""
    na, nb = len(a), len(b)
    pooled = np.concatenate([a, b])
    var = float(pooled.var(ddof=1)) if len(pooled) > 1 else 0.0
    diff = float(a.mean() - b.mean())
    if var == 0.0:
        return 0.0 if diff == 0.0 else math.inf
    return diff / math.sqrt(var * (1 / na + 1 / nb))


def compare(types: list[str], engine: Sample, batched: Sample) -> list[str]:
    """Every disagreement beyond ``Z``: win, draw and loss rates, mean losses per unit type."""
    out = []
    for k, what in enumerate(("draw", "side 0 wins", "side 1 wins")):
        z = z_score(engine.wins[:, k], batched.wins[:, k])
        if abs(z) > Z:
            out.append(f"{what}: engine {engine.wins[:, k].mean():.3f}, batched {batched.wins[:, k].mean():.3f} "
                       f"(z = {z:.1f})")
    for s in (0, 1):
        for j, uid in enumerate(types):
            z = z_score(engine.dead[:, s, j], batched.dead[:, s, j])
            if abs(z) > Z:
                out.append(f"side {s} {uid} losses: engine {engine.dead[:, s, j].mean():.3f}, "
                           f"batched {batched.dead[:, s, j].mean():.3f} (z = {z:.1f})")
    return out
