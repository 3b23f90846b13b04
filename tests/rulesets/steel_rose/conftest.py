from __future__ import annotations

import numpy as np
import pytest

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle.engine import Battle, _Fight, _Round
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.rules import Rules, load_rules


@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules()


def side(name: str, squads: dict[str, dict[str, int]], plan: list[tuple[str, str, tuple[str, ...]]] = (),
         faction: str = "empire", **kw: object) -> SideInput:
    return SideInput(name, faction, tuple(SquadInput(p, u) for p, u in squads.items()),
                     tuple(Manoeuvre(s, k, t) for s, k, t in plan), **kw)  # type: ignore[arg-type]


def hit(rules: Rules, a: dict[str, int], b: dict[str, int], roll: float, *, ranged: bool = False,
        outnumbered: bool = False, cover: bool = False, fight: _Fight | None = None,
        a_faction: str = "empire", attacker: int = 0, target: int = 0, fatigue: int = 0) -> float:
    """Damage of one attack of unit ``attacker`` of squad ``a`` on unit ``target`` of ``b``."""
    battle = Battle(rules, (side("A", {"centre.vanguard": a}, faction=a_faction),
                            side("B", {"centre.vanguard": b})), Dice.from_text("t"))
    battle.sides[0].squads[0].fatigue = fatigue
    rnd = _Round(battle.sides)
    auras = [battle._auras(s) for s in battle.sides]
    tired = [battle._fatigue(s) for s in battle.sides]
    battle._hits(fight, 0, np.array([attacker]), np.array([target]), np.array([float(roll)]), ranged, rnd,
                 auras, tired, outnumbered, cover)
    return float(rnd.dmg[1][target])


@pytest.fixture
def hit_of(rules: Rules):  # type: ignore[no-untyped-def]
    return lambda *a, **k: hit(rules, *a, **k)


@pytest.fixture
def make_side():  # type: ignore[no-untyped-def]
    return side
