"""One attack's damage, rule by rule (002_c01e70bb146ed8cc.txt)."""

from __future__ import annotations

import numpy as np
import pytest

from voevoda.rulesets.steel_rose.battle.engine import _Fight

E = np.zeros(0, np.int64)


def test_defence_is_subtracted_and_floors_at_zero(rules, hit_of):
    """«Защита. Вычитается из любого получаемого урона. Может уменьшить урон до нуля.»"""
    assert hit_of({"spearman": 1}, {"knight": 1}, 6) == pytest.approx(1)      # 6 - 5
    assert hit_of({"spearman": 1}, {"knight": 1}, 3) == 0                     # not below 0


def test_percentages_apply_after_defence(rules, hit_of):
    """«Штрафы и бонусы к урону ... применяются после вычитания защиты.» Hero: «+15% урону
    всему своему отряду»: (10 - 1) * 1.15."""
    assert hit_of({"spearman": 1, "hero": 1}, {"spearman": 1}, 10) == pytest.approx(9 * 1.15)


def test_archpriest_lowers_damage_to_his_squad(rules, hit_of):
    """Архижрец: «даёт -15% к получаемому урону всему отряду»."""
    assert hit_of({"knight": 1}, {"spearman": 1, "archpriest": 1}, 11) == pytest.approx(10 * 0.85)


def test_armour_piercing_minimum(rules, hit_of):
    """Арбалетчик: «не может нанести меньше 2-х урона (пробивает броню)»; мушкетёр «дальний бой -
    12 (минимум 3 урона)» only at range."""
    assert hit_of({"crossbowman": 1}, {"knight": 1}, 1) == 2
    assert hit_of({"musketeer": 1}, {"knight": 1}, 1, ranged=True, a_faction="steel_rose") == 3
    assert hit_of({"musketeer": 1}, {"knight": 1}, 1, ranged=False, a_faction="steel_rose") == 0


def test_fatigue_lowers_outgoing_damage(rules, hit_of):
    """«Каждая единица усталости даёт -10% к исходящему урону за каждый уровень эффекта.»"""
    assert hit_of({"spearman": 1}, {"spearman": 1}, 11, fatigue=2) == pytest.approx(10 * 0.8)


def test_outnumbered_squad_takes_more_melee_damage_only(rules, hit_of):
    """«меньший отряд получит штраф +25% к получаемому урону. Не влияет на урон обстрела.»"""
    assert hit_of({"spearman": 1}, {"spearman": 1}, 5, outnumbered=True) == pytest.approx(4 * 1.25)
    assert hit_of({"archer": 1}, {"spearman": 1}, 5, ranged=True, outnumbered=True) == pytest.approx(4)


def test_griffin_riders_take_less_melee_damage(rules, hit_of):
    """Всадник на грифоне: «-30% урона от атак в ближнем бою»."""
    assert hit_of({"knight": 1}, {"griffin_rider": 1}, 13) == pytest.approx(8 * 0.7)
    assert hit_of({"archer": 1}, {"griffin_rider": 1}, 6, ranged=True) == pytest.approx(1)


def test_shieldbearers_take_less_from_shots_and_cover_halves_volleys(rules, hit_of):
    """Щитовик: «-30% входящего урона от выстрелов»; «В укрытие: отряд получает вдвое меньше урона
    от особого манёвра 'обстрел'»."""
    assert hit_of({"archer": 1}, {"shieldbearer": 1}, 6, ranged=True) == pytest.approx(4 * 0.7)
    assert hit_of({"archer": 1}, {"spearman": 1}, 6, ranged=True, cover=True) == pytest.approx(5 * 0.5)


def test_charge_bonuses_and_spearmen(rules, hit_of):
    """Рыцарь: «+50% к урону в первый ход натиска»; копейщик: «-25% к получаемому урону при натиске».
    Огр-бык: «+25% к наносимому урону при натиске» every round of it."""
    first = _Fight("charge", 1, (E, E), charger=0)
    later = _Fight("charge", 2, (E, E), charger=0)
    assert hit_of({"knight": 1}, {"heavy_infantry": 1}, 12, fight=first) == pytest.approx(8 * 1.5)
    assert hit_of({"knight": 1}, {"heavy_infantry": 1}, 12, fight=later) == pytest.approx(8)
    assert hit_of({"knight": 1}, {"spearman": 1}, 11, fight=later) == pytest.approx(10 * 0.75)
    assert hit_of({"bull": 1}, {"heavy_infantry": 1}, 10, fight=later, a_faction="ogres") == pytest.approx(6 * 1.25)


def test_paladin_defending_takes_less(rules, hit_of):
    """Паладин: «-25% к получаемому урону при защите» (fighting off a charge as a defender)."""
    defending = _Fight("charge", 2, (E, E), charger=0, defender_fight=True)
    assert hit_of({"knight": 1}, {"paladin": 1}, 13, fight=defending) == pytest.approx(8 * 0.75)


def test_elves_squeamish_in_mixed_army(rules, hit_of):
    """«Когда ваши воины сражаются в одной и той же армии хотя бы с 1 юнитом другой фракции, они
    получают штраф -15% к атаке.»"""
    assert hit_of({"ent": 1}, {"spearman": 1}, 9, a_faction="heaven") == pytest.approx(8)
    assert hit_of({"ent": 1, "gnoblar": 1}, {"spearman": 1}, 9, a_faction="heaven") == pytest.approx(8 * 0.85)


def test_flanking_penalty(rules, hit_of):
    """«получает штраф +25% к получаемому урону за фланкирование»."""
    final = _Fight("final", 1, (E, E), flanking=(1.0, 1.25))
    assert hit_of({"spearman": 1}, {"spearman": 1}, 5, fight=final) == pytest.approx(4 * 1.25)


def test_paladin_defending_whole_battle_option(rules, make_side):
    """Option `paladin_defending_whole_battle` (docs/rulings/steel_rose.md R12): after «Защита»
    the paladin takes −25% in the clash too; by default only while fighting off a charge."""
    from voevoda.core.dice import Dice
    from voevoda.rulesets.steel_rose.battle.engine import Battle, _Round
    from voevoda.rulesets.steel_rose.battle.model import BattleOptions

    a = make_side("A", {"centre.vanguard": {"knight": 1}})
    b = make_side("B", {"centre.vanguard": {"paladin": 1}, "centre.rearguard": {"archer": 1}},
                  [("centre.vanguard", "defend", ("centre.rearguard",))])
    for option, expected in ((False, 8.0), (True, 6.0)):
        battle = Battle(rules, (a, b), Dice.from_text("p"), options=BattleOptions(paladin_defending_whole_battle=option))
        battle._planning()
        rnd = _Round(battle.sides)
        auras = [battle._auras(s) for s in battle.sides]
        tired = [battle._fatigue(s) for s in battle.sides]
        fight = _Fight("clash", 1, (battle.sides[0].members(0), battle.sides[1].members(0)))
        battle._hits(fight, 0, np.array([0]), np.array([0]), np.array([13.0]), False, rnd, auras, tired, False)
        assert rnd.dmg[1][0] == pytest.approx(expected)
