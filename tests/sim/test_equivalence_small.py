"""Issue 30, item 13: CI's check of the batched simulator against the exact engine finds a gap of
3 points in a win rate with power 0.9, on small battles (tests/sim/equivalence/small/: several
unit mixes of a few units a side, where the exact engine fights a battle in about a millisecond).
The large battles of tests/sim/equivalence/ stay in benchmarks/sim_equivalence.py.

How many battles (docs/sim.md, «Equivalence in CI: small battles»). Per battle one comparison:
side 0's win rate in the engine's sample of ``n`` battles against the simulator's of ``r·n``.
A win is a Bernoulli variable, so a rate's variance is ``p(1 - p) / n``, at most ``1 / (4n)``
(p = 1/2). The difference of the two rates has the variance ``p(1 - p)(1/n + 1/(r·n))``, and a
two-sided z test at the family-wise false-alarm rate α over the ``m`` battles (Bonferroni: α/m
each, threshold ``z_{1-α/2m}``) flags a true gap ``d`` with probability at least ``power`` when
``d / sd ≥ z_{1-α/2m} + z_power``, that is when

    n ≥ (z_{1-α/2m} + z_power)² · p(1 - p) · (1 + 1/r) / d²
      = (3.023 + 1.282)² · 1/4 · (1 + 1/20) / 0.03²  =  5,406   (α = 0.01, m = 4, r = 20)

exact battles per battle at the worst case p = 1/2 (a lopsided battle only gains power):
21,624 exact battles and 432,480 simulated ones in all.

The power is shown, not only computed: simulator samples of the engine's size stand in for the
engine (they play the same rules, so each is in distribution a faithful engine's sample); as
they are, the check passes them; with side 0's win rate moved by exactly 3 points it flags at
least 85% of them (the design says 90%; the bound leaves room for the count's own noise over
the 4 × 40 trials); and a simulator with a planted rule bias (side 0's damage raised by a
2 or 2.5 percent in the simulator only, which moves its win rate by 3.3 to 4.2 points) is flagged
against the exact engine's own sample. Everything is seeded: each run gives the same samples.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from tests.sim.faithful import (
    EQUIVALENCE,
    Battle,
    Sample,
    batched_sample,
    critical_z,
    engine_battles,
    engine_sample,
    load_battle,
    planted,
    shifted,
    subsample,
    z_score,
)
from voevoda.rulesets.steel_rose.rules import Rules, load_rules

SMALL = EQUIVALENCE / "small"
GAP = 0.03
"""The gap to find: 3 points of side 0's win rate."""
FAMILY_ALPHA = 0.01
"""Chance that a faithful simulator fails the check on any of the battles."""
POWER = 0.90
RATIO = 20
"""Simulated battles per exact battle: they cost next to nothing, and past 20 they shrink the
exact sample by under 5%."""
STAND_INS = 40
"""Stand-in samples per battle for the power shown."""
NAMES = sorted(p.stem for p in SMALL.glob("*.toml"))
ENGINE_N = engine_battles(GAP, FAMILY_ALPHA, POWER, len(NAMES), RATIO)
Z = critical_z(FAMILY_ALPHA, len(NAMES))


@cache
def _battle(name: str) -> tuple[Rules, Battle]:
    rules = load_rules()
    return rules, load_battle(rules, SMALL / f"{name}.toml")


@cache
def _simulated(name: str, bias: bool = False) -> tuple[list[str], Sample]:
    rules, battle = _battle(name)
    sides = planted(battle.sides, battle.planted) if bias else battle.sides
    return batched_sample(rules, sides, battle.options, RATIO * ENGINE_N, f"equivalence/small/batched/{name}")


@cache
def _engine(name: str) -> Sample:
    rules, battle = _battle(name)
    types, _ = _simulated(name)
    return engine_sample(rules, battle.sides, battle.options, types, ENGINE_N, f"equivalence/small/engine/{name}")


def _z(engine: Sample, batched: Sample) -> float:
    """The comparison: side 0's win rate."""
    return z_score(engine.wins[:, 1], batched.wins[:, 1])


def test_sample_size_is_the_binomial_one() -> None:
    """Item 13: n from the binomial variance at p = 1/2, for four battles: 5,406 exact battles
    each, which reach power 0.9 on a 3-point gap at the family's threshold, and 100 fewer do not."""
    assert len(NAMES) == 4
    z = NormalDist().inv_cdf(1 - FAMILY_ALPHA / (2 * 4)) + NormalDist().inv_cdf(POWER)
    assert ENGINE_N == int(np.ceil(z * z * 0.25 * (1 + 1 / RATIO) / GAP**2)) == 5406
    def power(n: int) -> float:
        se = (0.25 * (1 / n + 1 / (RATIO * n))) ** 0.5
        return 1 - NormalDist().cdf(Z - GAP / se)
    assert power(ENGINE_N) >= POWER > power(ENGINE_N - 100)


def test_small_battles_are_small_varied_and_even() -> None:
    """Several unit mixes (every one a different pair of factions, each with a special rule in
    play: rearguard shooters, summons and sacrifices, poison, a charge through a defender), at
    most a dozen units a side, and near even odds (side 0 wins 30–70% in the simulator), where a
    bias moves the win rate most."""
    pairs = set()
    for name in NAMES:
        rules, battle = _battle(name)
        pairs.add(frozenset(s.faction for s in battle.sides))
        for side in battle.sides:
            assert sum(n for sq in side.squads for n in sq.units.values()) <= 12, name
        _, sample = _simulated(name)
        assert 0.30 <= sample.wins[:, 1].mean() <= 0.70, name
    assert len(pairs) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_engine_agrees_with_simulator_on_small_battles(name: str) -> None:
    """The unbiased simulator passes: the exact engine's win rate of side 0 (5,406 battles) and
    the simulator's (108,120) agree within the family's threshold (|z| ≤ 3.02)."""
    _, simulated = _simulated(name)
    engine = _engine(name)
    z = _z(engine, simulated)
    assert abs(z) <= Z, (f"{name}: engine {engine.wins[:, 1].mean():.4f}, simulator "
                         f"{simulated.wins[:, 1].mean():.4f}, z = {z:.2f}")


@pytest.mark.parametrize("name", NAMES)
def test_planted_rule_bias_is_caught(name: str) -> None:
    """A simulator with side 0's damage raised in the simulator only (the battle's ``planted``
    campaign modifier, chosen so that side 0's win rate moves by 3 to 4.5 points) is flagged
    against the exact engine's sample."""
    _, simulated = _simulated(name)
    _, wrong = _simulated(name, bias=True)
    effect = wrong.wins[:, 1].mean() - simulated.wins[:, 1].mean()
    assert GAP <= effect <= 0.045, effect
    assert abs(_z(_engine(name), wrong)) > Z


def test_the_check_has_its_power() -> None:
    """Simulator samples of the engine's size stand in for the engine: as they are, at most one
    of the 160 is flagged (about 0.4 expected at α/m = 0.25% each); with side 0's win rate moved by
    exactly 3 points (``shifted``: each battle side 1 won goes to side 0 with probability
    0.03 / side 1's win rate) at least 85% are flagged."""
    alarms = caught = trials = 0
    for name in NAMES:
        rules, battle = _battle(name)
        _, reference = _simulated(name)
        _, stand_ins = batched_sample(rules, battle.sides, battle.options, STAND_INS * ENGINE_N,
                                      f"equivalence/small/stand-in/{name}")
        for r in range(STAND_INS):
            x = subsample(stand_ins, r * ENGINE_N, ENGINE_N)
            alarms += abs(_z(x, reference)) > Z
            caught += abs(_z(shifted(x, GAP, r), reference)) > Z
            trials += 1
    assert alarms <= 1
    assert caught >= 0.85 * trials, caught / trials


def test_small_battles_are_not_the_benchmarks() -> None:
    """The large battles stay in the benchmark: the small ones are a folder of their own."""
    assert not {p.stem for p in EQUIVALENCE.glob("*.toml")} & set(NAMES)
    assert Path(__file__).parent / "equivalence" / "small" == SMALL
