"""Whole battles and their phases (002_c01e70bb146ed8cc.txt)."""

from __future__ import annotations

import numpy as np
import pytest

from voevoda.core.dice import Dice, check_records
from voevoda.rulesets.steel_rose.battle.engine import Battle, _Round, fight


def kinds(result, kind):
    return [e for e in result.events if e["kind"] == kind]


def test_roll_many_gives_the_faces_of_roll():
    """DESIGN «Verifiable dice»: bulk draws are the same faces as one-by-one draws, recorded."""
    a = Dice.from_text("x").stream("s")
    b = Dice.from_text("x").stream("s")
    sides = np.arange(1, 300)
    assert a.roll_many(len(sides), sides).tolist() == [b.roll(int(k)) for k in sides]
    assert a.faces == b.faces and a.sides == b.sides


def test_same_seed_same_battle_and_rolls_rederive(rules, make_side):
    """DESIGN: «The same game replayed gives the same rolls»; every roll re-derivable."""
    a = make_side("A", {"centre.vanguard": {"spearman": 10, "hero": 1}, "centre.rearguard": {"archer": 6}},
                  [("centre.rearguard", "volley", ("centre.vanguard",))])
    b = make_side("B", {"centre.vanguard": {"cultist": 12, "infector": 2}}, faction="void_cult")
    d1, d2 = Dice.from_text("s"), Dice.from_text("s")
    r1, r2 = fight(rules, (a, b), d1), fight(rules, (a, b), d2)
    assert r1.to_json() == r2.to_json()
    assert check_records(d1.seed, d1.sealed_seed, d1.records()) == []
    assert sum(len(r["faces"]) for r in d1.records()) > 100


def test_rearguard_steps_up_when_vanguard_falls(rules, make_side):
    """«Если авангардный отряд умирает, то арьергард автоматически выступает вперёд и становится
    авангардом.»"""
    a = make_side("A", {"centre.vanguard": {"wolf": 1}, "centre.rearguard": {"archer": 5}})
    b = make_side("B", {"centre.vanguard": {"stonehorn": 3}}, faction="ogres")
    result = fight(rules, (a, b), Dice.from_text("s"))
    assert any(e["squad"] == "A2" for e in kinds(result, "step_up"))
    assert result.winner == 1


def test_charge_meets_the_defender_first(rules, make_side):
    """«При попытке натиска нужно будет сначала победить защитников.» and «Защищающийся отряд
    получит 1 единицу усталости, неважно, защитил он кого-либо или нет.»"""
    a = make_side("A", {"left.vanguard": {"knight": 10}}, [("left.vanguard", "charge", ("centre.rearguard",))])
    b = make_side("B", {"centre.vanguard": {"spearman": 3}, "centre.rearguard": {"archer": 3},
                        "right.vanguard": {"spearman": 2}, "right.rearguard": {"archer": 2}},
                  [("centre.vanguard", "defend", ("centre.rearguard",)), ("right.vanguard", "defend", ("right.rearguard",))])
    result = fight(rules, (a, b), Dice.from_text("s"))
    charge = kinds(result, "charge")[0]
    assert [f["opponent"] for f in charge["fights"]] == ["B1", "B2"]
    assert charge["fights"][0]["defender"] is True
    fatigue = {s["squad"]: s["fatigue"] for s in result.summary["sides"][1]["squads"]}
    assert fatigue["B1"] == 1 and fatigue["B3"] == 1


def test_forced_march_and_swap(rules, make_side):
    """«Если два отряда одновременно используют этот маневр, чтобы занять ячейки друг друга, они
    могут поменяться местами.» «Марш-бросок: ... Отряд получает две единицы усталости.»"""
    a = make_side("A", {"left.vanguard": {"spearman": 2}, "centre.vanguard": {"archer": 2},
                        "right.vanguard": {"horseman": 1}},
                  [("left.vanguard", "move", ("centre.vanguard",)), ("centre.vanguard", "move", ("left.vanguard",)),
                   ("right.vanguard", "march", ("centre.rearguard",))])
    b = make_side("B", {"centre.vanguard": {"spearman": 30}})
    battle = Battle(rules, (a, b), Dice.from_text("s"))
    battle._planning()
    pos = {sq.name: sq.position for sq in battle.sides[0].squads}
    assert pos == {"A1": "centre.vanguard", "A2": "left.vanguard", "A3": "centre.rearguard"}
    assert battle.sides[0].squads[2].fatigue == 2


def test_cannon_strikes_a_share_of_the_squad(rules, make_side):
    """Пушка: «в дальнем бою задевает 20% вражеского отряда, но минимум 1 и максимум 5 юнитов»;
    one long-range volley of one cannon is 5 shots."""
    a = make_side("A", {"centre.vanguard": {"cannon": 1}}, [("centre.vanguard", "long_volley", ("centre.vanguard",))],
                  faction="steel_rose")
    for size, per_shot in ((100, 5), (10, 2), (3, 1)):
        b = make_side("B", {"centre.vanguard": {"ent": size}}, faction="heaven")
        battle = Battle(rules, (a, b), Dice.from_text(f"c{size}"))
        battle._planning()
        assert battle.attacks == 5 * per_shot


def test_gunpowder_shortage_withdraws_units_and_volley_doubles(rules, make_side):
    """«Если вы не выделите порох юниту, ... он не сможет сражаться»; «Расход пороха для отряда
    удваивается, если вы отдаете приказ 'обстрел'.»"""
    a = make_side("A", {"centre.vanguard": {"shieldbearer": 5}, "centre.rearguard": {"musketeer": 5}},
                  [("centre.rearguard", "volley", ("centre.vanguard",))], faction="steel_rose", gunpowder=12)
    b = make_side("B", {"centre.vanguard": {"spearman": 5}})
    result = fight(rules, (a, b), Dice.from_text("s"))
    event = kinds(result, "gunpowder")[0]
    assert event["needed"] == 20            # 5 musketeers * 2 powder * 2 (volley)
    assert event["withdrawn"] == {"musketeer": 2}


def test_garrison_keeps_powder_after_quick_win(rules, make_side):
    """«Если ваш гарнизон справился с нападением менее чем за 5 ходов, ... вы не потеряете порох.»"""
    g = make_side("G", {"centre.vanguard": {"steam_tank": 3}}, faction="steel_rose", garrison=True)
    a = make_side("A", {"centre.vanguard": {"wolf": 2}}, faction="heaven")
    result = fight(rules, (a, g), Dice.from_text("s"))
    assert result.winner == 1 and result.summary["rounds"] < 5
    assert result.summary["sides"][1]["gunpowder_needed"] == 90
    assert result.summary["sides"][1]["gunpowder_spent"] == 0


def test_wounded_recovery_rates(rules, make_side):
    """«после боя часть раненых юнитов (... 20%) удаётся спасти»; низший демон «Восполнение потерь
    после боя 60%»; гноблары «50% восстановление потерь после боя»."""
    a = make_side("A", {"centre.vanguard": {"spearman": 10, "lesser_demon": 10, "gnoblar": 10}})
    b = make_side("B", {"centre.vanguard": {"steam_tank": 5}}, faction="steel_rose")
    result = fight(rules, (a, b), Dice.from_text("s"))
    assert result.winner == 1
    assert result.summary["sides"][0]["recovered"] == {"spearman": 2, "lesser_demon": 6, "gnoblar": 5}


def test_honour_meat_and_void_hunger(rules, make_side):
    """Честь: «Каждый умерший юнит даёт честь в размере десятой части своего содержания»; мясо:
    «4 мяса за каждого мёртвого вражеского юнита»; ГП: «При победе в битве ГП уменьшается на 1 за
    каждые 2 мёртвых вражеских юнита.»"""
    a = make_side("A", {"centre.vanguard": {"spearman": 10}})
    b = make_side("B", {"centre.vanguard": {"stonehorn": 5}}, faction="ogres")
    result = fight(rules, (a, b), Dice.from_text("s"))
    assert result.summary["sides"][0]["honour"] == pytest.approx(10 * 0.5)
    assert result.summary["sides"][1]["meat"] == 40
    c = make_side("C", {"centre.vanguard": {"archdemon": 3}}, faction="void_cult")
    result = fight(rules, (a, c), Dice.from_text("s"))
    assert result.winner == 1 and result.summary["sides"][1]["void_hunger"] == -5


def test_final_melee_flanking(rules, make_side):
    """«Если в фазе столкновения отряд не встретил противников вовсе, то он будет участвовать только
    в завершающей битве.» «Та команда, у которой ... осталось меньше выживших отрядов ... получает
    штраф +25%.»"""
    a = make_side("A", {"left.vanguard": {"spearman": 5}, "right.vanguard": {"spearman": 5}})
    b = make_side("B", {"centre.vanguard": {"spearman": 10}})
    result = fight(rules, (a, b), Dice.from_text("s"))
    final = kinds(result, "final")[0]
    assert final["squads"] == [2, 1] and final["flanked"] == 1
    assert result.summary["clash_rounds"] == 0


def test_each_unit_attacks_about_equally(rules, make_side):
    """«Гарантируется, что каждый юнит из отряда рано или поздно атакует. Каждый юнит совершает
    примерно равное число атак.» and «За 1 раунд происходит столько атак, сколько юнитов в бо́льшем
    отряде» (both squads attack that often)."""
    a = make_side("A", {"centre.vanguard": {"golem": 7}}, faction="heaven")
    b = make_side("B", {"centre.vanguard": {"ent": 20}}, faction="heaven")
    battle = Battle(rules, (a, b), Dice.from_text("s"))
    from voevoda.rulesets.steel_rose.battle.engine import _Fight
    side = battle.sides[0]
    stream = battle.stream("t")
    members = side.members(0)
    counts = np.zeros(7)
    for _ in range(10):
        picked = battle._take_queue(stream, side, side.squads[0], members, 20)
        np.add.at(counts, picked, 1)
    assert counts.sum() == 200 and counts.max() - counts.min() <= 1
    del _Fight


def test_cultist_sacrifice_rate(rules, make_side):
    """Культист: «Каждый ход может с шансом 10% пожертвовать собой нанести ровно 7 урона четверым
    противникам.» 400 cultists, one round: about 40 sacrifices, each 4 hits of exactly 7."""
    a = make_side("A", {"centre.vanguard": {"cultist": 400}}, faction="void_cult")
    b = make_side("B", {"centre.vanguard": {"golem": 400}}, faction="heaven")
    battle = Battle(rules, (a, b), Dice.from_text("s"))
    from voevoda.rulesets.steel_rose.battle.engine import _Fight
    fightr = _Fight("clash", 1, (battle.sides[0].members(0), battle.sides[1].members(0)))
    rnd = _Round(battle.sides)
    battle._sacrifices(fightr, battle.stream("x"), rnd)
    n = len(rnd.sacrificed[0])
    assert 25 <= n <= 55
    assert rnd.dmg[1].sum() == pytest.approx(n * 4 * 7)


def test_regeneration_poison_and_burning(rules, make_side):
    """Низший демон «регенерация 2 ед./ход»; заразитель «отравляет атакующего (12 урона за 3 хода,
    игнорирует броню)»; архидемон «поджигает противника (12 урона за 4 хода)»."""
    a = make_side("A", {"centre.vanguard": {"lesser_demon": 1}}, faction="void_cult")
    b = make_side("B", {"centre.vanguard": {"golem": 1}}, faction="heaven")
    battle = Battle(rules, (a, b), Dice.from_text("s"))
    side = battle.sides[0]
    side.hp[0] = 5
    battle._tick([np.array([0]), np.array([], dtype=np.int64)])
    assert side.hp[0] == 7
    golems = battle.sides[1]
    golems.add_stack(golems.poison, np.array([0]), 4.0, 3)
    golems.add_stack(golems.burn, np.array([0]), 3.0, 4)
    parts = [np.array([], dtype=np.int64), np.array([0])]
    lost = []
    for _ in range(5):
        battle._tock(parts)
        before = float(golems.hp[0])
        battle._tick(parts)
        lost.append(before - float(golems.hp[0]))
    assert lost == [7, 7, 7, 3, 0]


def test_damage_die_is_uniform_and_outnumbering_adds_a_quarter(rules, make_side):
    """«Нанесённый урон каждый раз является случайным числом между единицей и значением атаки»:
    wolves (6 attack) on ents (0 defence) average 3.5 a strike; the outnumbered squad («в два раза
    или больше») takes +25%. One simultaneous round, fixed seed."""
    from voevoda.rulesets.steel_rose.battle.engine import _Fight

    for wolves, ents, factor in ((3000, 3000, 1.0), (3000, 1500, 1.25)):
        a = make_side("A", {"centre.vanguard": {"wolf": wolves}}, faction="heaven")
        b = make_side("B", {"centre.vanguard": {"ent": ents}}, faction="heaven")
        battle = Battle(rules, (a, b), Dice.from_text(f"u{ents}"))
        rnd = _Round(battle.sides)
        fightr = _Fight("clash", 1, (battle.sides[0].members(0), battle.sides[1].members(0)),
                        queues=(battle.sides[0].squads[0], battle.sides[1].squads[0]))
        battle.attacks = 0
        auras = [battle._auras(s) for s in battle.sides]
        tired = [battle._fatigue(s) for s in battle.sides]
        stream = battle.stream("u")
        attackers = battle._take_queue(stream, battle.sides[0], battle.sides[0].squads[0],
                                       battle.sides[0].members(0), wolves)
        targets = battle.sides[1].members(0)[stream.roll_many(wolves, ents) - 1]
        rolls = stream.roll_many(wolves, 6).astype(float)
        outnumbered = 2 * ents <= wolves
        battle._hits(fightr, 0, attackers, targets, rolls, False, rnd, auras, tired, outnumbered)
        mean = rnd.dmg[1].sum() / wolves
        assert mean == pytest.approx(3.5 * factor, rel=0.03)
        assert set(np.unique(rolls).tolist()) == {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}


def test_volley_fires_every_units_shots(rules, make_side):
    """«указывается ... количество выстрелов, которое каждый юнит может совершить при обстреле»:
    8 archers with 2 shots each fire 16 shots."""
    a = make_side("A", {"centre.vanguard": {"spearman": 5}, "centre.rearguard": {"archer": 8}},
                  [("centre.rearguard", "volley", ("centre.vanguard",))])
    b = make_side("B", {"centre.vanguard": {"heavy_infantry": 5}})
    result = fight(rules, (a, b), Dice.from_text("v"))
    assert kinds(result, "volley")[0]["shots"] == 16


def test_options_recovery_for_loser_and_summons(rules, make_side):
    """Options of docs/rulings/steel_rose.md: `recovery_for_loser` (R22) and
    `demonologist_summons_in_battle` (R17)."""
    from voevoda.rulesets.steel_rose.battle.model import BattleOptions

    a = make_side("A", {"centre.vanguard": {"spearman": 10, "demonologist": 1}})
    b = make_side("B", {"centre.vanguard": {"steam_tank": 5}}, faction="steel_rose")
    plain = fight(rules, (a, b), Dice.from_text("o"))
    assert plain.summary["sides"][0]["recovered"] and plain.summary["sides"][0]["squads"][0]["summoned"]
    strict = fight(rules, (a, b), Dice.from_text("o"),
                   options=BattleOptions(recovery_for_loser=False, demonologist_summons_in_battle=False))
    assert strict.winner == 1
    assert strict.summary["sides"][0]["recovered"] == {}
    assert strict.summary["sides"][0]["squads"][0]["summoned"] == {}
