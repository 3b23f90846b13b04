"""Unit abilities, one test each (002_c01e70bb146ed8cc.txt, «ЮНИТЫ» of each faction)."""

from __future__ import annotations

import numpy as np
import pytest

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import Battle, _Fight, _Round


def one_round(rules, make_side, a_units, b_units, a_faction="empire", b_faction="empire", rounds=1):
    """A bare battle of two centre vanguards and the state after ``rounds`` clash rounds."""
    battle = Battle(rules, (make_side("A", {"centre.vanguard": a_units}, faction=a_faction),
                            make_side("B", {"centre.vanguard": b_units}, faction=b_faction)), Dice.from_text("ab"))
    for _ in range(rounds):
        everyone = [s.living() for s in battle.sides]
        battle._tick(everyone)
        battle.rounds += 1
        battle._round([(battle._flank_fight("centre"), battle.stream("clash/centre"))])
        battle._summons(everyone)
        battle._tock(everyone)
    return battle


def test_steam_tank_attacks_four_times(rules, make_side):
    """Паровой танк: «4 атаки за ход»; архидемон: «3 атаки в ход»."""
    b = one_round(rules, make_side, {"steam_tank": 1}, {"ent": 10}, "steel_rose", "heaven")
    # 10 attacks a side per round (the larger squad), each of the tank's turns is 4 strikes
    assert b.sides[0].atk_count[0] == 40
    b = one_round(rules, make_side, {"archdemon": 1}, {"ent": 5}, "void_cult", "heaven")
    assert b.sides[0].atk_count[0] == 15


def test_paladin_heals_and_shreds(rules, make_side):
    """Паладин: «восстанавливают 3 здоровья и снижают броню на 1 при каждом попадании (вплоть до
    нуля)»; архижрец: «Каждая атака архижреца снижает броню на 2»."""
    b = one_round(rules, make_side, {"paladin": 1}, {"golem": 1}, "empire", "heaven", rounds=3)
    assert b.sides[1].defence[0] == 0          # 3 - 1 - 1 - 1
    b = one_round(rules, make_side, {"archpriest": 1}, {"knight": 1}, rounds=3)
    assert b.sides[1].defence[0] == 0          # 5 - 2 - 2 - 2, not below 0


def test_void_knight_heals_half_the_damage(rules, make_side):
    """Рыцарь пустоты: «Каждая атака восполняет здоровье в размере половины от итогового урона»."""
    b = Battle(rules, (make_side("A", {"centre.vanguard": {"void_knight": 1}}, faction="void_cult"),
                       make_side("B", {"centre.vanguard": {"ent": 1}}, faction="heaven")), Dice.from_text("v"))
    b.sides[0].hp[0] = 10
    rnd = _Round(b.sides)
    auras = [b._auras(s) for s in b.sides]
    tired = [b._fatigue(s) for s in b.sides]
    b._hits(None, 0, np.array([0]), np.array([0]), np.array([12.0]), False, rnd, auras, tired, False)
    b._apply(rnd)
    assert b.sides[1].hp[0] == 90 - 12 and b.sides[0].hp[0] == 10 + 6


def test_infector_poisons_its_attacker(rules, make_side):
    """Заразитель: «При каждом получении урона в ближнем бою отравляет атакующего (12 урона за 3
    хода, игнорирует броню)»."""
    b = one_round(rules, make_side, {"knight": 1}, {"infector": 1}, "empire", "void_cult")
    knight = b.sides[0]
    slots = knight.poison[:, 0]
    assert sorted(slots[slots > 0].tolist()) == [4.0, 4.0, 4.0]


def test_archdemon_sets_fire(rules, make_side):
    """Архидемон: «Каждая атака поджигает противника (12 урона за 4 хода...). Эффект горения может
    складываться.» Three strikes on a lone ent: three stacks of 3 a round."""
    b = one_round(rules, make_side, {"archdemon": 1}, {"ent": 1}, "void_cult", "heaven")
    assert sorted(b.sides[1].burn[:, 0].tolist())[-4:] == [9.0, 9.0, 9.0, 9.0]


def test_healer_stacks_regeneration(rules, make_side):
    """Целитель: «накладывает регенерацию (6 единиц здоровья за 3 раунда) на случайного бойца ...
    каждый раунд. Регенерация может складываться.»"""
    b = one_round(rules, make_side, {"healer": 2, "golem": 1}, {"healer": 1}, "empire", "empire")
    assert b.sides[0].heal.sum() == pytest.approx(12)


def test_enlightened_debuff(rules, make_side):
    """Просветлённый: «каждое попадание в дальнем бою снижает наносимый урон на 15% на 3 хода
    (эффект может складываться)»: two hits, the next rounds' damage * 0.85**2."""
    b = Battle(rules, (make_side("A", {"centre.vanguard": {"enlightened": 2}}, faction="void_cult"),
                       make_side("B", {"centre.vanguard": {"ent": 1}}, faction="heaven")), Dice.from_text("e"))
    rnd = _Round(b.sides)
    auras = [b._auras(s) for s in b.sides]
    tired = [b._fatigue(s) for s in b.sides]
    b._hits(None, 0, np.array([0, 1]), np.array([0, 0]), np.array([5.0, 5.0]), True, rnd, auras, tired, False)
    b._apply(rnd)
    b._tock([np.zeros(0, np.int64), np.array([0])])
    factor = b._out_factor(b.sides[1], np.array([0]), *[x for x in (auras[1][0], tired[1])])
    assert factor[0] == pytest.approx(0.85 ** 2)


def test_sorcerer_shots_compound(rules, make_side):
    """Чародей: «каждый последующий выстрел наносит на 5% урона больше. Эффект перемножается»."""
    b = Battle(rules, (make_side("A", {"centre.vanguard": {"sorcerer": 1}}, faction="heaven"),
                       make_side("B", {"centre.vanguard": {"ent": 1}}, faction="heaven")), Dice.from_text("e"))
    rnd = _Round(b.sides)
    auras = [b._auras(s) for s in b.sides]
    tired = [b._fatigue(s) for s in b.sides]
    b._hits(None, 0, np.array([0, 0, 0]), np.array([0, 0, 0]), np.array([8.0, 8.0, 8.0]), True, rnd, auras,
            tired, False)
    assert rnd.dmg[1][0] == pytest.approx(8 * (1 + 1.05 + 1.05 ** 2))


def test_spectral_beast_compounding(rules, make_side):
    """Призрачный зверь: «понижает получаемый урон и повышает исходящий на 5% с каждой атакой»."""
    b = Battle(rules, (make_side("A", {"centre.vanguard": {"spectral_beast": 1}}, faction="heaven"),
                       make_side("B", {"centre.vanguard": {"ent": 1}}, faction="heaven")), Dice.from_text("e"))
    b.sides[0].atk_count[0] = 10
    rnd = _Round(b.sides)
    auras = [b._auras(s) for s in b.sides]
    tired = [b._fatigue(s) for s in b.sides]
    b._hits(None, 0, np.array([0]), np.array([0]), np.array([10.0]), False, rnd, auras, tired, False)
    assert rnd.dmg[1][0] == pytest.approx(10 * 1.05 ** 10)
    rnd = _Round(b.sides)
    b._hits(None, 1, np.array([0]), np.array([0]), np.array([9.0]), False, rnd, auras, tired, False)
    assert rnd.dmg[0][0] == pytest.approx(9 * 0.95 ** 10)


def test_firebelly_burps_every_second_round(rules, make_side):
    """Огнеглот: «каждый второй ход (начиная с первого) совершает огненную отрыжку на случайного
    врага (-6 единиц здоровья за 2 раунда)»: rounds 1 and 3, not 2."""
    b = Battle(rules, (make_side("A", {"centre.vanguard": {"firebelly": 1}}, faction="ogres"),
                       make_side("B", {"centre.vanguard": {"ent": 1}}, faction="heaven")), Dice.from_text("f"))
    for r, expected in ((1, 1), (2, 0), (3, 1)):
        rnd = _Round(b.sides)
        fight = _Fight("clash", r, (b.sides[0].members(0), b.sides[1].members(0)))
        b._burps(fight, 0, b.stream("f"), rnd)
        assert len(rnd.stacks) == expected


def test_demonologist_summons_a_lesser_demon(rules, make_side):
    """Демонолог: «призывает низшего демона каждый ход»."""
    b = one_round(rules, make_side, {"demonologist": 1, "cultist": 1}, {"golem": 1}, "void_cult", "heaven", rounds=3)
    summoned = b.sides[0].summoned
    assert int(summoned.sum()) == 3
    assert set(b.sides[0].type[summoned].tolist()) == {b.table.index["lesser_demon"]}


def test_free_position_change(rules, make_side):
    """Всадник на грифоне: «один раз могут бесплатно совершить манёвр 'смена позиции' (т.е. может
    выполнять два манёвра в ход)»."""
    from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput
    a = SideInput("A", "empire", (SquadInput("left.vanguard", {"griffin_rider": 2}),),
                  (Manoeuvre("left.vanguard", "cover"), Manoeuvre("left.vanguard", "move", ("centre.vanguard",))))
    b = make_side("B", {"centre.vanguard": {"spearman": 3}})
    battle = Battle(rules, (a, b), Dice.from_text("g"))
    battle._planning()
    sq = battle.sides[0].squads[0]
    assert sq.cover and sq.position == "centre.vanguard" and sq.fatigue == 0
