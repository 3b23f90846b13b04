"""Statistical comparison of the batched simulator with the per-battle engine.

Two checks live here. :func:`compare` is the corpus check of ``test_faithful.py`` (120 exact
battles per scenario: it finds gross errors only). :func:`differences` with :func:`design` is the
equivalence check sized by a power calculation (docs/sim.md, «Equivalence»): on the battles of
``tests/sim/equivalence/`` it finds a gap of ``GAP`` in a win rate or in the mean losses of a unit
type (as a share of the type's deployment) with probability ``POWER``, at a family-wise false alarm
rate of ``FAMILY_ALPHA``.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import NormalDist

import numpy as np

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, SideInput
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
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
                  n: int, seed: str, first: int = 0) -> Sample:
    """Exact battles ``first .. first + n - 1``, each under the dice ``{seed}/{index}``."""
    wins = np.zeros((n, 3))
    dead = np.zeros((n, 2, len(types)))
    for i in range(first, first + n):
        r = fight(rules, sides, Dice.from_text(f"{seed}/{i}"), options=options, ledger=False)
        wins[i - first, (r.winner if r.winner is not None else -1) + 1] = 1
        for s, side in enumerate(r.summary["sides"]):
            for uid, k in side["dead"].items():
                dead[i - first, s, types.index(uid)] = k
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


# ---------------------------------------------------------------- the equivalence check

EQUIVALENCE = Path(__file__).parent / "equivalence"
"""Battle files chosen for the equivalence check: every faction, near-even odds (where a bias in
the rules moves the win rate most), and between them charges through a defender, volleys,
long-range area volleys, cover, moves with swaps, a forced march, gunpowder short of need,
summons, burning, poison, regeneration, sacrifices, burps, debuffs, auras, compounding."""

GAP = 0.03
"""The gap to detect: 3 percentage points of a win rate, or of a unit type's deployment in its
mean losses."""
FAMILY_ALPHA = 0.01
"""Chance that a faithful simulator fails the check anywhere in the family of comparisons."""
POWER = 0.90
"""Chance that a gap of ``GAP`` in any one comparison is flagged."""
RATIO = 10
"""Batched battles per exact battle (the batched ones are nearly free; beyond ten they shrink the
exact sample needed by under 10%)."""
OUTCOMES = ("draw", "side 0 wins", "side 1 wins")


@dataclass(frozen=True)
class Column:
    """The losses of one unit type on one side: ``index`` into ``Sample.dead``, ``deployed`` the
    side's count of it before the battle (0 for a type the side only summons)."""

    side: int
    index: int
    unit: str
    deployed: int


@dataclass(frozen=True)
class Battle:
    name: str
    sides: tuple[SideInput, SideInput]
    options: BattleOptions
    planted: dict[str, float]
    """Side 0's campaign modifiers changed in the planted-bias run (see :func:`planted`)."""


@dataclass(frozen=True)
class Difference:
    what: str
    engine: float
    batched: float
    z: float

    @property
    def gap(self) -> float:
        return self.batched - self.engine

    def __str__(self) -> str:
        return f"{self.what}: engine {self.engine:.4f}, batched {self.batched:.4f} (z = {self.z:.2f})"


def load_battle(rules: Rules, path: Path) -> Battle:
    battle = load_battle_file(path)
    sides, problems = build_sides(battle.specs, rules)
    if any(problems):
        raise ValueError(f"{path.name}: {problems}")
    meta = tomllib.loads(path.read_text(encoding="utf-8"))["test"]
    return Battle(path.stem, (sides[0], sides[1]), battle.options, {str(k): float(v) for k, v in meta["planted"].items()})


def equivalence_battles(rules: Rules) -> list[Battle]:
    return [load_battle(rules, p) for p in sorted(EQUIVALENCE.glob("*.toml"))]


def columns(rules: Rules, sides: tuple[SideInput, SideInput], types: list[str]) -> list[Column]:
    """The loss columns a side can have: the types it deploys and the types they summon."""
    out = []
    for s, side in enumerate(sides):
        deployed: Counter[str] = Counter()
        for sq in side.squads:
            deployed.update({u: n for u, n in sq.units.items() if n})
        summoned = {summon.unit for u in deployed if (summon := rules.units[u].summon) is not None}
        out += [Column(s, j, uid, deployed[uid]) for j, uid in enumerate(types) if deployed[uid] or uid in summoned]
    return out


def comparisons(cols: list[Column]) -> int:
    """One comparison per outcome (draw, either side wins) and one per loss column."""
    return len(OUTCOMES) + len(cols)


def critical_z(alpha: float, m: int) -> float:
    """Two-sided z threshold of one of ``m`` comparisons at the family-wise rate ``alpha``
    (Bonferroni: alpha / m each)."""
    return NormalDist().inv_cdf(1 - alpha / (2 * m))


def engine_battles(gap: float, alpha: float, power: float, m: int, ratio: float) -> int:
    """Exact battles per battle description so that a two-sided z test at ``alpha / m`` finds a
    difference ``gap`` in the mean of a quantity between 0 and 1 with probability ``power``,
    against ``ratio`` times as many batched battles. The variance of such a quantity is at most
    1/4 (a rate of one half, or losses of all or nothing with even odds), so
    ``n = (z_{1 - alpha / 2m} + z_power)^2 * 1/4 * (1 + 1 / ratio) / gap^2`` is enough for every
    win rate and every share of a deployment lost."""
    z = critical_z(alpha, m) + NormalDist().inv_cdf(power)
    return math.ceil(z * z * 0.25 * (1 + 1 / ratio) / (gap * gap))


@dataclass(frozen=True)
class Design:
    comparisons: int
    z: float
    engine_n: int
    batched_n: int


def design(rules: Rules, battles: list[Battle], gap: float = GAP, alpha: float = FAMILY_ALPHA,
           power: float = POWER, ratio: int = RATIO) -> Design:
    """Sizes of the equivalence check over ``battles`` (one family of comparisons)."""
    m = 0
    for b in battles:
        types = compile_battle(rules, b.sides, b.options).types
        m += comparisons(columns(rules, b.sides, types))
    n = engine_battles(gap, alpha, power, m, ratio)
    return Design(m, critical_z(alpha, m), n, ratio * n)


def differences(cols: list[Column], engine: Sample, batched: Sample) -> list[Difference]:
    """Every comparison of the two samples: the three outcome rates, and each column's mean
    losses as a share of the side's deployment of the type (of the most that died in any battle
    of either sample, for a type the side only summons)."""
    out = []
    for k, what in enumerate(OUTCOMES):
        a, b = engine.wins[:, k], batched.wins[:, k]
        out.append(Difference(what, float(a.mean()), float(b.mean()), z_score(a, b)))
    for c in cols:
        a, b = engine.dead[:, c.side, c.index], batched.dead[:, c.side, c.index]
        scale = c.deployed or max(float(a.max(initial=0)), float(b.max(initial=0)), 1.0)
        a, b = a / scale, b / scale
        out.append(Difference(f"side {c.side} {c.unit} losses / {c.deployed or 'most summoned'}",
                              float(a.mean()), float(b.mean()), z_score(a, b)))
    return out


def flagged(cols: list[Column], engine: Sample, batched: Sample, z: float) -> list[Difference]:
    return [d for d in differences(cols, engine, batched) if abs(d.z) > z]


def planted(sides: tuple[SideInput, SideInput], bias: dict[str, float]) -> tuple[SideInput, SideInput]:
    """The planted bias: side 0's campaign modifiers (``damage`` dealt, damage ``taken``, in
    percent) moved by ``bias``, as a simulator that got one multiplier slightly wrong would play."""
    a, b = sides
    mods = dict(a.modifiers)
    for key, value in bias.items():
        mods[key] = mods.get(key, 0.0) + value
    return replace(a, modifiers=mods), b


def shifted(sample: Sample, gap: float, seed: int) -> Sample:
    """The sample with side 0's win rate raised by ``gap`` on average, at side 1's expense: each
    battle side 1 won goes to side 0 with probability ``gap / (side 1's win rate)`` (seeded)."""
    won = sample.wins[:, 2] == 1
    rate = float(won.mean())
    if rate < gap:
        raise ValueError("side 1 wins too rarely to shift")
    flip = won & (np.random.default_rng(seed).random(len(won)) < gap / rate)
    wins = sample.wins.copy()
    wins[flip, 2] = 0
    wins[flip, 1] = 1
    return Sample(wins, sample.dead)


def shifted_losses(sample: Sample, col: Column, gap: float, seed: int) -> Sample:
    """The sample with the column's mean losses raised by ``gap`` of the side's deployment on
    average: each battle in which some of the type survived loses one more of it with probability
    ``gap * deployed / (share of such battles)`` (seeded)."""
    dead = sample.dead[:, col.side, col.index]
    room = dead < col.deployed
    chance = gap * col.deployed / float(room.mean()) if room.any() else math.inf
    if not col.deployed or chance > 1:
        raise ValueError(f"{col.unit}: too few survivors to shift")
    more = room & (np.random.default_rng(seed).random(len(dead)) < chance)
    out = sample.dead.copy()
    out[more, col.side, col.index] += 1
    return Sample(sample.wins, out)


def widest_losses(cols: list[Column], sample: Sample, gap: float) -> Column:
    """The deployed loss column whose share lost varies most (the hardest to tell apart) among
    those :func:`shifted_losses` can move by ``gap``."""
    def spread(c: Column) -> float:
        return float((sample.dead[:, c.side, c.index] / c.deployed).var())

    def movable(c: Column) -> bool:
        room = float((sample.dead[:, c.side, c.index] < c.deployed).mean())
        return bool(c.deployed) and room > 0 and gap * c.deployed <= room

    return max((c for c in cols if movable(c)), key=spread)


def subsample(sample: Sample, start: int, n: int) -> Sample:
    return Sample(sample.wins[start:start + n], sample.dead[start:start + n])
