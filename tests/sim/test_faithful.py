"""The batched simulator runs the per-battle engine's rules: on a corpus of battles covering
every faction, every unit ability and every manoeuvre (tests/sim/scenarios/), win rates and
mean losses per unit type agree within their confidence intervals (fixed seeds). With 120 exact
battles per scenario this finds gross errors only (gaps of about 15 points); test_equivalence.py
and benchmarks/sim_equivalence.py are sized to find a 3-point gap (docs/sim.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.sim.conftest import SCENARIOS
from tests.sim.faithful import batched_sample, compare, engine_sample
from voevoda.rulesets.steel_rose.battle.model import MANOEUVRES, BattleOptions
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import Rules, load_rules

FILES = sorted(SCENARIOS.glob("*.toml"))
ENGINE_N = 120
BATCHED_N = 20_000

OPTIONS = ("paladin_defending_whole_battle", "demonologist_summons_in_battle", "outnumber_in_final_melee")
EFFECTS = ("swap", "free_move", "gunpowder", "squeamish", "modifiers", "outnumber", "flanking", "summon")


def _meta(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["test"]


def _load(rules: Rules, path: Path):
    battle = load_battle_file(path)
    sides, problems = build_sides(battle.specs, rules)
    assert not any(problems), problems
    return battle, sides


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_batched_agrees_with_engine(rules: Rules, path: Path) -> None:
    """Each scenario quotes the rules it exercises (its [test].rule); the batched simulator's
    win/draw rates and mean losses per unit type must match the per-battle engine's."""
    battle, sides = _load(rules, path)
    types, batched = batched_sample(rules, sides, battle.options, BATCHED_N, f"batched/{path.stem}")
    engine = engine_sample(rules, sides, battle.options, types, ENGINE_N, f"engine/{path.stem}")
    problems = compare(types, engine, batched)
    assert not problems, f"{path.name} ({_meta(path)['rule']}):\n" + "\n".join(problems)


def test_comparison_detects_a_wrong_rule(rules: Rules) -> None:
    """The comparison has teeth: with the spearman's attack changed from 6 to 8 in the batched
    run only («Копейщик: атака 6»), the corpus battle it decides is flagged."""
    path = SCENARIOS / "options_off.toml"
    battle, sides = _load(rules, path)
    wrong = load_rules({"units": {"spearman": {"attack": 8}}})
    types, batched = batched_sample(wrong, sides, battle.options, BATCHED_N, "batched/wrong")
    engine = engine_sample(rules, sides, battle.options, types, ENGINE_N, "engine/options_off")
    assert compare(types, engine, batched)


def test_corpus_covers_every_unit_faction_manoeuvre_and_option(rules: Rules) -> None:
    """«every faction, every unit ability, every manoeuvre» (issue 5): each unit of units.toml
    fights in some scenario, each manoeuvre and named option is used."""
    fought: set[str] = set()
    factions: set[str] = set()
    kinds: set[str] = set()
    options: set[str] = set()
    covers: set[str] = set()
    for path in FILES:
        battle, sides = _load(rules, path)
        covers.update(_meta(path)["covers"])
        for side in sides:
            factions.add(side.faction)
            for sq in side.squads:
                fought.update(u for u, n in sq.units.items() if n)
            kinds.update(m.kind for m in side.plan)
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        options.update(raw.get("options", {}))
    assert set(rules.units) - fought == set()
    assert set(rules.factions) - factions == set()
    assert set(MANOEUVRES) - kinds == set()
    assert set(OPTIONS) - options == set()
    assert set(EFFECTS) - covers == set()


@pytest.mark.parametrize("size", [10, 30])
def test_every_effect_at_once(rules: Rules, size: int) -> None:
    """The benchmark's battle with every effect in play at once (benchmarks/steel_rose_battle.py:
    all manoeuvres, area volleys, charges through defenders, healers, poison, burning, shred,
    compounding, sacrifices, debuffs, burps, summons, auras, squeamish elves in a mixed army)."""
    from benchmarks.steel_rose_battle import scenario

    sides = scenario(size)
    options = BattleOptions()
    types, batched = batched_sample(rules, sides, options, BATCHED_N, f"batched/every/{size}")
    engine = engine_sample(rules, sides, options, types, ENGINE_N, f"engine/every/{size}")
    problems = compare(types, engine, batched)
    assert not problems, "\n".join(problems)


def test_compounding_shots_agree_and_are_detected() -> None:
    """Чародей: «каждый последующий выстрел наносит на 5% урона больше». The batched simulator
    keeps the factor running (one multiplication per shot), the engine raises to the power of
    the shots fired; with the growth raised to 40%, so that it decides how many golems fall, the two agree,
    and a batched run without the growth is flagged."""
    from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput

    sides = (SideInput("A", "heaven", (SquadInput("centre.vanguard", {"golem": 4}),
                                       SquadInput("centre.rearguard", {"sorcerer": 8})),
                       (Manoeuvre("centre.rearguard", "volley", ("centre.vanguard",)),)),
             SideInput("B", "empire", (SquadInput("centre.vanguard", {"spearman": 30}),)))
    growing = load_rules({"units": {"sorcerer": {"shot_compound_percent": 40}}})
    flat = load_rules({"units": {"sorcerer": {"shot_compound_percent": 0}}})
    options = BattleOptions()
    types, batched = batched_sample(growing, sides, options, BATCHED_N, "batched/compounding")
    engine = engine_sample(growing, sides, options, types, ENGINE_N, "engine/compounding")
    assert not compare(types, engine, batched)
    types_flat, batched_flat = batched_sample(flat, sides, options, BATCHED_N, "batched/compounding-flat")
    assert types_flat == types
    assert compare(types, engine, batched_flat)


def _squads(*positions: tuple[str, dict[str, int]]):
    from voevoda.rulesets.steel_rose.battle.model import SquadInput

    return tuple(SquadInput(p, units) for p, units in positions)


# Each case: the rule, a battle it decides, the house rule that makes it decisive, and the same
# house rule with the effect taken out. The simulator applies these effects at the end of a round
# only for units that a hit, a shot or a sacrifice marked (``UI_DIRTY``): a mark left out would
# read as the effect taken out, and be flagged.
RARE_EFFECTS = {
    "heal_on_hit": (
        "Паладин: «восстанавливают 3 здоровья ... при каждом попадании»",
        (("empire", (("centre.vanguard", {"paladin": 4}),), ()),
         ("empire", (("centre.vanguard", {"heavy_infantry": 12}),), ())),
        {"paladin": {"heal_per_hit": 5, "shred_per_hit": 0}}, {"paladin": {"heal_per_hit": 0, "shred_per_hit": 0}}),
    "lifesteal": (
        "Низший демон: «восполняет здоровье в размере половины от итогового урона»",
        (("void_cult", (("centre.vanguard", {"lesser_demon": 10}),), ()),
         ("empire", (("centre.vanguard", {"spearman": 8}),), ())),
        {"lesser_demon": {"lifesteal_percent": 100, "regeneration": 0}},
        {"lesser_demon": {"lifesteal_percent": 0, "regeneration": 0}}),
    "melee_shred": (
        "Архижрец: «Каждая атака архижреца снижает броню на 2»",
        (("empire", (("centre.vanguard", {"spearman": 16}),), ()), ("empire", (("centre.vanguard", {"paladin": 6}),), ())),
        {"spearman": {"shred_per_hit": 3}, "paladin": {"heal_per_hit": 0, "shred_per_hit": 0}},
        {"spearman": {"shred_per_hit": 0}, "paladin": {"heal_per_hit": 0, "shred_per_hit": 0}}),
    "shot_shred": (
        "«каждое попадание ... снижает броню» for a shooter's hits as for melee ones (shred on every hit)",
        (("empire", (("centre.vanguard", {"spearman": 10}), ("centre.rearguard", {"crossbowman": 8})), ()),
         ("empire", (("centre.vanguard", {"paladin": 6}),), ())),
        {"crossbowman": {"shred_per_hit": 3}, "paladin": {"heal_per_hit": 0, "shred_per_hit": 0}},
        {"crossbowman": {"shred_per_hit": 0}, "paladin": {"heal_per_hit": 0, "shred_per_hit": 0}}),
    "attack_compounding": (
        "Призрачный зверь: «понижает получаемый урон и повышает исходящий на 5% с каждой атакой»",
        (("heaven", (("centre.vanguard", {"spectral_beast": 8}),), ()), ("empire", (("centre.vanguard", {"spearman": 24}),), ())),
        {"spectral_beast": {"attack_compound_percent": 30}}, {"spectral_beast": {"attack_compound_percent": 0}}),
    "sacrifice": (
        "Культист: «с шансом 10% пожертвовать собой нанести ровно 7 урона четверым противникам»",
        (("void_cult", (("centre.vanguard", {"cultist": 12}),), ()), ("empire", (("centre.vanguard", {"spearman": 14}),), ())),
        {"cultist": {"sacrifice": {"chance_percent": 60, "damage": 7, "targets": 4}}},
        {"cultist": {"sacrifice": {"chance_percent": 0.001, "damage": 7, "targets": 4}}}),
}


@pytest.mark.parametrize("case", sorted(RARE_EFFECTS))
def test_rarely_changed_fields_take_effect(case: str) -> None:
    """Heal on hit, lifesteal, armour shred by blows and by shots, compounding attacks and the
    cultist's sacrifice (units.toml, quoted per case) agree between the simulator and the engine
    with each effect made decisive by a house rule, and a simulator run without the effect is
    flagged."""
    from voevoda.rulesets.steel_rose.battle.model import SideInput

    rule, (a, b), on, off = RARE_EFFECTS[case]
    sides = tuple(SideInput(name, faction, _squads(*squads), plan) for name, (faction, squads, plan)
                  in zip(("A", "B"), (a, b), strict=True))
    rules_on = load_rules({"units": on})
    rules_off = load_rules({"units": off})
    options = BattleOptions()
    types, batched = batched_sample(rules_on, sides, options, BATCHED_N, f"batched/{case}")
    engine = engine_sample(rules_on, sides, options, types, ENGINE_N, f"engine/{case}")
    problems = compare(types, engine, batched)
    assert not problems, f"{rule}:\n" + "\n".join(problems)
    types_off, batched_off = batched_sample(rules_off, sides, options, BATCHED_N, f"batched/{case}-off")
    assert types_off == types
    assert compare(types, engine, batched_off), f"{rule}: a run without the effect is not told apart"
