"""The unit table as the batched simulator reads it: one number per field and unit type.

:func:`unit_fields` builds it from the exact engine's
:class:`~voevoda.rulesets.steel_rose.battle.engine.UnitTable` (itself built from the validated
rules data, house rules included), so that both read every ability from the same numbers. The
kernel (:mod:`voevoda.sim.kernel`) reads it type-major (``tf[type, field]``, the transpose of
what :func:`unit_fields` returns).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from voevoda.rulesets.steel_rose.battle.engine import UnitTable

# float fields
TF_HEALTH = 0
TF_DEFENCE = 1
TF_MIN_MELEE = 2
TF_MIN_RANGED = 3
TF_AREA_PCT = 4
TF_SHOT_COMP = 5
TF_ATK_COMP_OUT = 6
TF_ATK_COMP_IN = 7
TF_DEBUFF_LOG = 8    # logarithm of the ranged debuff factor one hit lays on its target
TF_CHARGE_FIRST = 9
TF_CHARGE_BONUS = 10
TF_TAKEN_MELEE = 11
TF_TAKEN_SHOTS = 12
TF_TAKEN_VS_CHARGE = 13
TF_TAKEN_DEFENDING = 14
TF_SQUAD_DAMAGE = 15
TF_SQUAD_TAKEN = 16
TF_HEAL_PR = 17
TF_REGEN = 18
TF_POISON_PR = 19
TF_BURN_PR = 20
TF_SHRED = 21
TF_HEAL_HIT = 22
TF_LIFESTEAL = 23
TF_SAC_DAMAGE = 24
TF_BURP_PR = 25
TF_SQUEAMISH = 26    # the damage factor of a unit of this type in a mixed army
NTF = 27

# integer fields
TI_ATTACK = 0
TI_RANGED = 1
TI_SHOTS = 2
TI_SHOOTER = 3
TI_AREA_MIN = 4
TI_AREA_MAX = 5
TI_DEBUFF_ROUNDS = 6
TI_GUNPOWDER = 7
TI_APR = 8
TI_HEAL_ROUNDS = 9
TI_POISON_ROUNDS = 10
TI_BURN_ROUNDS = 11
TI_SAC_PCT = 12
TI_SAC_TARGETS = 13
TI_BURP_ROUNDS = 14
TI_BURP_EVERY = 15
TI_SUMMON_TYPE = 16
TI_SUMMON_EVERY = 17
TI_ON_HIT = 18       # ON_* bits: what a melee hit of this type does besides damage
NTI = 19

ON_GAIN = 1          # heals on hit or lifesteal
ON_BURN = 2
ON_SHRED = 4
ON_COMP = 8          # compounds per attack


def unit_fields(t: UnitTable) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """``(TF, TI)``, field-major: ``TF[field, type]``, ``TI[field, type]``."""
    n = len(t.ids)
    tf = np.zeros((NTF, n))
    ti = np.zeros((NTI, n), dtype=np.int64)
    tf[TF_HEALTH] = t.health
    tf[TF_DEFENCE] = t.defence
    tf[TF_MIN_MELEE] = t.min_melee
    tf[TF_MIN_RANGED] = t.min_ranged
    tf[TF_AREA_PCT] = t.area_pct
    tf[TF_SHOT_COMP] = t.shot_comp
    tf[TF_ATK_COMP_OUT] = t.atk_comp_out
    tf[TF_ATK_COMP_IN] = t.atk_comp_in
    tf[TF_DEBUFF_LOG] = np.log(t.debuff)  # the reference's ring holds np.log of the factor
    tf[TF_CHARGE_FIRST] = t.charge_first
    tf[TF_CHARGE_BONUS] = t.charge_bonus
    tf[TF_TAKEN_MELEE] = t.taken_melee
    tf[TF_TAKEN_SHOTS] = t.taken_shots
    tf[TF_TAKEN_VS_CHARGE] = t.taken_vs_charge
    tf[TF_TAKEN_DEFENDING] = t.taken_defending
    tf[TF_SQUAD_DAMAGE] = t.squad_damage
    tf[TF_SQUAD_TAKEN] = t.squad_taken
    tf[TF_HEAL_PR] = t.heal_per_round
    tf[TF_REGEN] = t.regen
    tf[TF_POISON_PR] = t.poison_per_round
    tf[TF_BURN_PR] = t.burn_per_round
    tf[TF_SHRED] = t.shred
    tf[TF_HEAL_HIT] = t.heal_per_hit
    tf[TF_LIFESTEAL] = t.lifesteal
    tf[TF_SAC_DAMAGE] = t.sacrifice_damage
    tf[TF_BURP_PR] = t.burp_per_round
    tf[TF_SQUEAMISH] = t.squeamish[t.faction]
    ti[TI_ATTACK] = t.attack
    ti[TI_RANGED] = t.ranged
    ti[TI_SHOTS] = t.shots
    ti[TI_SHOOTER] = t.shooter
    ti[TI_AREA_MIN] = t.area_min
    ti[TI_AREA_MAX] = t.area_max
    ti[TI_DEBUFF_ROUNDS] = t.debuff_rounds
    ti[TI_GUNPOWDER] = t.gunpowder
    ti[TI_APR] = t.apr
    ti[TI_HEAL_ROUNDS] = t.heal_rounds
    ti[TI_POISON_ROUNDS] = t.poison_rounds
    ti[TI_BURN_ROUNDS] = t.burn_rounds
    ti[TI_SAC_PCT] = t.sacrifice_pct
    ti[TI_SAC_TARGETS] = t.sacrifice_targets
    ti[TI_BURP_ROUNDS] = t.burp_rounds
    ti[TI_BURP_EVERY] = t.burp_every
    ti[TI_SUMMON_TYPE] = t.summon_type
    ti[TI_SUMMON_EVERY] = t.summon_every
    ti[TI_ON_HIT] = (np.where((t.heal_per_hit != 0) | (t.lifesteal != 0), ON_GAIN, 0)
                     | np.where(t.burn_rounds > 0, ON_BURN, 0)
                     | np.where(t.shred != 0, ON_SHRED, 0)
                     | np.where(t.atk_comp_out != 1.0, ON_COMP, 0))
    return tf, ti
