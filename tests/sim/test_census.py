"""The kernel's census of a battle (docs/sim.md, Performance): the statistics columns count the
charge rounds, the pairings fought, their fighters and the units' round starts, which
benchmarks/sim_batched.py prints per battle to show what each scenario asks of the kernel."""

from __future__ import annotations

import numpy as np

from tests.sim.conftest import SCENARIOS
from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim import kernel
from voevoda.sim.batch import run
from voevoda.sim.compile import compile_battle


def test_a_plain_battle_is_one_pairing_a_round_with_no_round_starts(rules: Rules) -> None:
    """One squad a side on the centre flank: each round is one pairing whose fighters are the
    living of both sides (60 in the first round, fewer later); with no effect over time,
    regeneration or summons no round needs a start, and nobody charges."""
    sides = (SideInput("A", "empire", (SquadInput("centre.vanguard", {"spearman": 30}),)),
             SideInput("B", "empire", (SquadInput("centre.vanguard", {"spearman": 30}),)))
    st = run(compile_battle(rules, sides), 200, "census/plain").stats
    rounds = st[:, kernel.ST_ROUNDS]
    assert (rounds > 1).all()
    assert np.array_equal(st[:, kernel.ST_FIGHTS], rounds)
    assert (st[:, kernel.ST_FIGHTERS] > 60).all()
    assert (st[:, kernel.ST_FIGHTERS] < 60 * rounds).all()
    assert (st[:, kernel.ST_CHARGE] == 0).all()
    assert (st[:, kernel.ST_STARTS] == 0).all()


def test_a_charge_and_healers_are_counted(rules: Rules) -> None:
    """tests/sim/scenarios/empire_charge.toml: the left vanguard charges through a defender in
    every battle, so every battle has charge rounds; each is a pairing, as is each clash and
    final round at least once; healers' stacks make every round start, and every fighter has
    passed its round's start (a clash round starts for the rearguards too)."""
    battle = load_battle_file(SCENARIOS / "empire_charge.toml")
    sides, _ = build_sides(battle.specs, rules)
    st = run(compile_battle(rules, sides, battle.options), 200, "census/charge").stats
    charge = st[:, kernel.ST_CHARGE]
    assert (charge > 0).all()
    assert (st[:, kernel.ST_FIGHTS] >= charge + st[:, kernel.ST_ROUNDS]).all()
    assert (st[:, kernel.ST_FIGHTERS] >= 2 * st[:, kernel.ST_FIGHTS]).all()
    assert (st[:, kernel.ST_STARTS] >= st[:, kernel.ST_FIGHTERS]).all()
    assert (st[:, kernel.ST_STARTS] > st[:, kernel.ST_FIGHTERS]).any()
