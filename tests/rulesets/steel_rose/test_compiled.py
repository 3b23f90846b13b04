"""The compiled battle (battle/compiled.py) against the NumPy reference (battle/engine.py).

«Every roll is recorded, so the report can be re-derived with `voevoda verify`»: for the same
inputs and seed both engines must give the same result (winner, events, timeline, summary, attack
count) and the same recorded dice, draw for draw. These tests run both on every battle scenario
of the test suite and the examples, the benchmark's every-effect battles, every combination of
the battle options, and random deployments and plans (Hypothesis).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from benchmarks.steel_rose_battle import scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.compile_notice import check_compile_notice
from tests.rulesets.steel_rose.test_property import battle

from voevoda.core.dice import Dice, check_records
from voevoda.rulesets.steel_rose.battle import compiled, fast, unit_fields
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.shake import stream_words
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import Rules, load_rules

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted((ROOT / "tests" / "sim" / "scenarios").glob("*.toml")) + [
    ROOT / "examples" / "steel-rose" / "empire-vs-cult.toml",
    ROOT / "examples" / "steel-rose" / "steel-rose-garrison.toml",
]
RULES = load_rules()


def both(rules: Rules, sides: tuple[SideInput, SideInput], seed: str,
         options: BattleOptions | None = None, label: str = "steel-rose/battle") -> tuple[Any, Any]:
    """Both engines on the same battle: (result, dice records) of each."""
    out = []
    for engine in ("reference", "compiled"):
        dice = Dice.from_text(seed)
        result = fight(rules, sides, dice, label, options, engine=engine)
        out.append((json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True), dice.records(), dice))
    return out[0], out[1]


def assert_same(rules: Rules, sides: tuple[SideInput, SideInput], seed: str,
                options: BattleOptions | None = None) -> None:
    (ref_json, ref_dice, _), (new_json, new_dice, dice) = both(rules, sides, seed, options)
    assert new_json == ref_json
    assert new_dice == ref_dice
    assert check_records(dice.seed, dice.sealed_seed, new_dice) == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_files_give_the_reference_result(path: Path) -> None:
    """Each battle file of the test corpus and the examples, several seeds: same result, same dice."""
    file = load_battle_file(path)
    sides, problems = build_sides(file.specs, RULES)
    assert not any(problems), problems
    for i in range(4):
        assert_same(RULES, sides, f"{file.seed}/{i}", file.options)


@pytest.mark.parametrize("size", [10, 100])
def test_every_effect_battles_give_the_reference_result(size: int) -> None:
    """The benchmark's battles with every effect in play (volleys, area shots, charges through a
    defender, healers, poison, burning, shred, compounding, sacrifices, debuffs, burps, summons,
    auras, gunpowder, squeamish elves)."""
    sides = scenario(size)
    for i in range(6 if size == 10 else 2):
        assert_same(RULES, sides, f"bench/{size}/{i}")


def test_every_option_gives_the_reference_result() -> None:
    """The named options of docs/rulings/steel_rose.md, every combination."""
    sides = scenario(10)
    names = list(BattleOptions.__dataclass_fields__)
    for values in itertools.product([False, True], repeat=len(names)):
        options = BattleOptions(**dict(zip(names, values, strict=True)))
        assert_same(RULES, sides, f"options/{values}", options)


def test_gunpowder_garrison_and_modifiers_give_the_reference_result() -> None:
    """«ПОРОХ» with too little powder (units withdrawn), a garrison, campaign modifiers, and a
    manoeuvre for a squad that is not there."""
    a, b = scenario(10)
    a = SideInput(a.name, a.faction, a.squads, a.plan + (Manoeuvre("left.vanguard", "move", ("left.rearguard",)),),
                  gunpowder=None, modifiers={"damage": 10, "taken": -5, "shots": 20})
    b = SideInput(b.name, b.faction, b.squads, b.plan + (Manoeuvre("centre.rearguard", "march", ("left.vanguard",)),),
                  gunpowder=7, garrison=True, modifiers={"taken": 15})
    for i in range(4):
        assert_same(RULES, (a, b), f"powder/{i}")


def test_a_battle_continues_streams_already_drawn_from() -> None:
    """A label drawn from before the battle: both engines continue its stream where it stopped."""
    sides = scenario(10)
    results = []
    for engine in ("reference", "compiled"):
        dice = Dice.from_text("continued")
        dice.stream("steel-rose/battle/clash/centre").rolls(5, 6)
        result = fight(RULES, sides, dice, engine=engine)
        results.append((result.to_json(), dice.records()))
    assert results[0] == results[1]


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(battle(), st.integers(0, 10**6))
def test_random_battles_give_the_reference_result(sides: tuple[SideInput, SideInput], seed: int) -> None:
    """Random armies (every unit type) and every manoeuvre a planning post can give."""
    assert_same(RULES, sides, str(seed))


def test_the_comparison_catches_a_changed_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the compiled battle is wrong: the hero's aura («+15% к урону
    отряда») off by one percent changes the report."""
    sides = scenario(10)
    table = fast.kernel_table(RULES)
    changed = fast.KernelTable(table.table)
    changed.tf[unit_fields.TF_SQUAD_DAMAGE, table.table.index["hero"]] *= 1.01
    monkeypatch.setattr(fast, "kernel_table", lambda rules: changed)
    monkeypatch.setattr(fast, "_PREPARED", {})
    (ref_json, ref_dice, _), (new_json, _new_dice, _) = both(RULES, sides, "bench/10/0")
    assert new_json != ref_json


def test_unsupported_inputs_go_to_the_reference() -> None:
    """A squad deployed outside the six positions: the reference engine runs the battle."""
    a = SideInput("A", "empire", (SquadInput("left.vanguard", {"spearman": 3}), SquadInput("nowhere", {"archer": 2})))
    b = SideInput("B", "empire", (SquadInput("left.vanguard", {"spearman": 3}),))
    with pytest.raises(fast.Unsupported):
        fast.run(RULES, (a, b), Dice.from_text("x"), "steel-rose/battle", BattleOptions())
    assert_same(RULES, (a, b), "x")


def test_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown battle engine"):
        fight(RULES, scenario(10), Dice.from_text("x"), engine="fortran")


@pytest.mark.parametrize("seed,label", [(b"", b""), (b"ab", b"c"), (bytes(range(32)), b"steel-rose/battle/final"),
                                        (b"x" * 100, b"y" * 35), (b"x" * 100, b"y" * 36), (b"z" * 136, b"w" * 300)])
def test_compiled_shake_matches_hashlib(seed: bytes, label: bytes) -> None:
    """Draw ``i`` of a stream is the big-endian word at offset ``8 i`` of SHAKE-256(seed || label)
    (docs/dice.md); the compiled SHAKE-256 gives the same words across block boundaries."""
    count = 60
    expected = np.frombuffer(hashlib.shake_256(seed + label).digest(8 * count), dtype=">u8").astype(np.uint64)
    got = stream_words(np.frombuffer(seed, dtype=np.uint8), np.frombuffer(label, dtype=np.uint8), count)
    assert np.array_equal(got, expected)


def test_compiled_sum_is_numpys_sum() -> None:
    """The timeline's health is ``np.sum``; the kernel's pairwise sum gives the same bits."""
    rng = np.random.default_rng(7)
    stack = np.empty((3, 64), dtype=np.int64)
    sums = np.empty(64)
    for n in [*range(0, 300), 1000, 2047, 4100, 20000]:
        values = rng.random(n) * rng.choice([1e-3, 1.0, 1e3], n)
        assert compiled._np_sum(values, n, stack, sums) == float(np.sum(values))


def test_tools_know_when_the_first_battle_will_compile(tmp_path, monkeypatch):
    """The first battle after an install compiles the kernel (minutes): `needs_compiling` tells
    from Numba's cache index, and the battle tools announce the pause on stderr."""
    from voevoda.cli import battle as battle_cli

    check_compile_notice(monkeypatch, tmp_path, fast, "k", "compiled.battle", fast.needs_compiling,
                         battle_cli.announce_compiling, "compiling the battle engine")
