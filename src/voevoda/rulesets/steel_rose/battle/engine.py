"""The Steel Rose battle, exactly as the rules document runs it.

«Бой делится на четыре фазы: расстановка, планирование, столкновение и завершение.»
:func:`fight` is a pure function: both sides' deployments and plans, the rules data and a
:class:`~voevoda.core.dice.Dice` in, a :class:`BattleResult` with the whole event log out.

The battle reads like the document (docs/rulings/steel_rose.md decides every gap):

1. ``_supply_gunpowder``  «ПОРОХ»: units without powder cannot fight.
2. ``_planning``          «Манёвры обрабатываются в таком порядке: укрытия, обстрелы, защита,
                           натиск, а затем смена позиций и марш-броски».
3. ``_clash``             «Столкновение»: the vanguards of each flank fight round by round,
                           rearguard shooters fire one shot each per round.
4. ``_final``             «Завершение»: every survivor in one melee, flanking penalty.
5. ``_aftermath``         wounded recovery, gunpowder spent, honour, meat, void hunger.

Every unit is simulated on its own, as numpy arrays per side (structure of arrays); a round
of a fight is simultaneous (every attack of the round sees the state at its start), so a
round is a handful of array operations whatever the squads' sizes. Dice are drawn in bulk
with :meth:`Stream.roll_many`; every face is recorded in its stream.

This is the one exact engine: ``voevoda battle``, ``voevoda odds --engine exact`` and the
rulesets run it. The batched simulator (:mod:`voevoda.sim`) plays the same rules many battles at
once with other dice, for odds and balance; tests/sim/test_faithful.py checks that the two
agree in distribution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from voevoda.core.dice import Dice, Stream
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import BattleOptions, Manoeuvre, SideInput
from voevoda.rulesets.steel_rose.battle.powder import supply
from voevoda.rulesets.steel_rose.rules import Rules

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

RING = 8
"""Slots of the per-unit effect rings (longest effect: 4 rounds)."""
KEY_SIDES = 2**32
"""The die whose faces order a squad's attackers (ties keep deployment order)."""


# --------------------------------------------------------------------------- unit tables

class UnitTable:
    """The unit data compiled to one numpy array per field, indexed by unit type."""

    def __init__(self, rules: Rules) -> None:
        self.ids: list[str] = list(rules.units)
        self.index = {uid: i for i, uid in enumerate(self.ids)}
        units = [rules.units[uid] for uid in self.ids]
        factions = list(rules.factions)

        def arr(values: list[float]) -> FloatArray:
            return np.asarray(values, dtype=np.float64)

        def iarr(values: list[int]) -> IntArray:
            return np.asarray(values, dtype=np.int64)

        def pct(p: float) -> float:
            return 1.0 + p / 100.0

        self.attack = iarr([u.attack for u in units])
        self.health = arr([u.health for u in units])
        self.defence = arr([u.defence for u in units])
        self.ranged = iarr([u.ranged for u in units])
        self.shots = iarr([u.shots for u in units])
        self.shooter = np.asarray([u.shooter for u in units], dtype=bool)
        self.min_melee = arr([0 if u.min_damage_ranged_only else u.min_damage for u in units])
        self.min_ranged = arr([u.min_damage for u in units])
        self.area_pct = arr([u.area.percent if u.area else 0 for u in units])
        self.area_min = iarr([u.area.min if u.area else 1 for u in units])
        self.area_max = iarr([u.area.max if u.area else 1 for u in units])
        self.shot_comp = arr([pct(u.shot_compound_percent) for u in units])
        self.atk_comp_out = arr([pct(u.attack_compound_percent) for u in units])
        self.atk_comp_in = arr([pct(-u.attack_compound_percent) for u in units])
        self.debuff = arr([pct(-u.ranged_debuff.percent) if u.ranged_debuff else 1 for u in units])
        self.debuff_rounds = iarr([u.ranged_debuff.rounds if u.ranged_debuff else 0 for u in units])
        self.gunpowder = iarr([u.gunpowder for u in units])
        self.charge_first = arr([pct(u.charge_first_round_percent) for u in units])
        self.charge_bonus = arr([pct(u.charge_percent) for u in units])
        self.apr = iarr([u.attacks_per_round for u in units])
        self.taken_melee = arr([pct(u.taken_melee_percent) for u in units])
        self.taken_shots = arr([pct(u.taken_shots_percent) for u in units])
        self.taken_vs_charge = arr([pct(u.taken_vs_charge_percent) for u in units])
        self.taken_defending = arr([pct(u.taken_defending_percent) for u in units])
        self.squad_damage = arr([pct(u.squad_damage_percent) for u in units])
        self.squad_taken = arr([pct(u.squad_taken_percent) for u in units])
        self.heal_per_round = arr([u.heal_stack.per_round if u.heal_stack else 0 for u in units])
        self.heal_rounds = iarr([u.heal_stack.rounds if u.heal_stack else 0 for u in units])
        self.regen = arr([u.regeneration for u in units])
        self.poison_per_round = arr([u.poison_attacker.per_round if u.poison_attacker else 0 for u in units])
        self.poison_rounds = iarr([u.poison_attacker.rounds if u.poison_attacker else 0 for u in units])
        self.burn_per_round = arr([u.burn.per_round if u.burn else 0 for u in units])
        self.burn_rounds = iarr([u.burn.rounds if u.burn else 0 for u in units])
        self.shred = arr([u.shred_per_hit for u in units])
        self.heal_per_hit = arr([u.heal_per_hit for u in units])
        self.lifesteal = arr([u.lifesteal_percent / 100.0 for u in units])
        self.sacrifice_pct = iarr([round(u.sacrifice.chance_percent) if u.sacrifice else 0 for u in units])
        self.sacrifice_damage = arr([u.sacrifice.damage if u.sacrifice else 0 for u in units])
        self.sacrifice_targets = iarr([u.sacrifice.targets if u.sacrifice else 0 for u in units])
        self.burp_per_round = arr([u.burp.amount / u.burp.rounds if u.burp else 0 for u in units])
        self.burp_rounds = iarr([u.burp.rounds if u.burp else 0 for u in units])
        self.burp_every = iarr([u.burp.every if u.burp else 0 for u in units])
        self.summon_type = iarr([self.index[u.summon.unit] if u.summon else -1 for u in units])
        self.summon_every = iarr([u.summon.every if u.summon else 0 for u in units])
        self.faction = iarr([factions.index(u.faction) for u in units])
        self.faction_list: list[int] = self.faction.tolist()
        self.summon_type_list: list[int] = self.summon_type.tolist()
        self.upkeep = arr([u.upkeep for u in units])
        self.recovery = arr([rules.recovery(uid) for uid in self.ids])
        self.squeamish = arr([pct(-rules.factions[f].squeamish_percent) for f in factions])
        self.factions = factions
        # abilities present at all (skip their array work when no unit of a battle has them)
        self.has_atk_comp = self.atk_comp_out != 1.0
        self.has_shot_comp = self.shot_comp != 1.0


_TABLES: dict[int, tuple[Rules, UnitTable]] = {}


def unit_table(rules: Rules) -> UnitTable:
    cached = _TABLES.get(id(rules))
    if cached is None or cached[0] is not rules:
        cached = (rules, UnitTable(rules))
        _TABLES[id(rules)] = cached
    return cached[1]


# --------------------------------------------------------------------------- battle state

@dataclass
class Squad:
    """A deployed squad during the battle."""

    side: int
    index: int
    home: str
    position: str
    manoeuvre: Manoeuvre | None = None
    free_move: Manoeuvre | None = None
    fatigue: int = 0
    cover: bool = False
    defending: bool = False
    queue: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    qpos: int = 0

    @property
    def name(self) -> str:
        return f"{'AB'[self.side]}{self.index + 1}"


class Side:
    """All units of one side as arrays (one entry per unit)."""

    def __init__(self, index: int, spec: SideInput, table: UnitTable) -> None:
        self.index = index
        self.spec = spec
        self.table = table
        types: list[int] = []
        squads: list[int] = []
        self.squads: list[Squad] = []
        for i, sq in enumerate(spec.squads):
            self.squads.append(Squad(index, i, sq.position, sq.position))
            for uid, count in sq.units.items():
                types.extend([table.index[uid]] * count)
                squads.extend([i] * count)
        self.type = np.asarray(types, dtype=np.int64)
        self.squad = np.asarray(squads, dtype=np.int64)
        n = len(types)
        self.hp = table.health[self.type].copy()
        self.maxhp = self.hp.copy()
        self.defence = table.defence[self.type].copy()
        self.alive = np.ones(n, dtype=bool)
        self.withdrawn = np.zeros(n, dtype=bool)
        self.summoned = np.zeros(n, dtype=bool)
        self.atk_count = np.zeros(n, dtype=np.float64)
        self.shot_count = np.zeros(n, dtype=np.float64)
        self.tick = np.zeros(n, dtype=np.int64)
        self.poison = np.zeros((RING, n))
        self.burn = np.zeros((RING, n))
        self.heal = np.zeros((RING, n))
        self.debuff = np.zeros((RING, n))
        self.debuffed = False
        factions = set(table.faction[self.type].tolist())
        # «БРЕЗГЛИВОСТЬ»: elves in an army with any unit of another faction.
        self._squeam = np.ones(len(table.ids))
        if len(factions) > 1:
            self._squeam = table.squeamish[table.faction]
        mods = spec.modifiers
        self._damage_mod = 1 + mods.get("damage", 0) / 100
        self._taken_mod = 1 + mods.get("taken", 0) / 100
        self.out_static = self._squeam[self.type] * self._damage_mod
        self.in_static = np.full(n, self._taken_mod)
        self.shot_static = 1 + mods.get("shots", 0) / 100

        self.ring_active = False
        self._flags()

    def _flags(self) -> None:
        """Which abilities this side's units have at all: the round skips the array work of
        the others."""
        t = self.table
        present = np.zeros(len(t.ids), dtype=bool)
        present[np.unique(self.type)] = True

        def has(values: npt.NDArray[Any], neutral: float = 0) -> bool:
            return bool((values[present] != neutral).any())

        self.has_aura = has(t.squad_damage, 1) or has(t.squad_taken, 1)
        self.has_multi = has(t.apr, 1)
        self.has_idle = bool((t.attack[present] == 0).any())
        self.has_gain = has(t.heal_per_hit) or has(t.lifesteal)
        self.has_shred = has(t.shred)
        self.has_poisoner = has(t.poison_rounds)
        self.has_burn = has(t.burn_rounds)
        self.has_debuffer = has(t.debuff_rounds)
        self.has_atk_comp = has(t.atk_comp_out, 1)
        self.has_shot_comp = has(t.shot_comp, 1)
        self.has_regen = has(t.regen)
        self.has_sacrifice = has(t.sacrifice_pct)
        self.has_burp = has(t.burp_rounds)
        self.has_healer = has(t.heal_rounds)
        self.has_summon = bool((t.summon_type[present] >= 0).any())
        self.has_taken_melee = has(t.taken_melee, 1)
        self.has_taken_shots = has(t.taken_shots, 1)

    @property
    def size(self) -> int:
        return len(self.type)

    def append(self, type_id: int, squad: int, count: int) -> None:
        """New units (a demonologist's summons) join ``squad``."""
        t = self.table
        types = np.full(count, type_id, dtype=np.int64)
        self.type = np.concatenate([self.type, types])
        self.squad = np.concatenate([self.squad, np.full(count, squad, dtype=np.int64)])
        self.hp = np.concatenate([self.hp, t.health[types]])
        self.maxhp = np.concatenate([self.maxhp, t.health[types]])
        self.defence = np.concatenate([self.defence, t.defence[types]])
        self.alive = np.concatenate([self.alive, np.ones(count, dtype=bool)])
        self.withdrawn = np.concatenate([self.withdrawn, np.zeros(count, dtype=bool)])
        self.summoned = np.concatenate([self.summoned, np.ones(count, dtype=bool)])
        self.atk_count = np.concatenate([self.atk_count, np.zeros(count)])
        self.shot_count = np.concatenate([self.shot_count, np.zeros(count)])
        self.tick = np.concatenate([self.tick, np.zeros(count, dtype=np.int64)])
        self.poison = np.concatenate([self.poison, np.zeros((RING, count))], axis=1)
        self.burn = np.concatenate([self.burn, np.zeros((RING, count))], axis=1)
        self.heal = np.concatenate([self.heal, np.zeros((RING, count))], axis=1)
        self.debuff = np.concatenate([self.debuff, np.zeros((RING, count))], axis=1)
        self.out_static = np.concatenate([self.out_static, self._squeam[types] * self._damage_mod])
        self.in_static = np.concatenate([self.in_static, np.full(count, self._taken_mod)])
        self._flags()

    def members(self, squad: int) -> IntArray:
        return np.flatnonzero(self.alive & (self.squad == squad))

    def living(self) -> IntArray:
        return np.flatnonzero(self.alive)

    def squad_alive(self, squad: int) -> bool:
        return bool((self.alive & (self.squad == squad)).any())

    def at(self, position: str) -> Squad | None:
        return self.standing().get(position)

    def standing(self) -> dict[str, Squad]:
        """Position -> the living squad standing there."""
        counts = np.bincount(self.squad[self.alive], minlength=len(self.squads))
        return {sq.position: sq for sq in self.squads if counts[sq.index]}

    def strength(self) -> tuple[int, float]:
        return int(self.alive.sum()), float(self.hp[self.alive].sum())

    def add_stack(self, ring: FloatArray, units: IntArray, per_round: FloatArray | float,
                  rounds: IntArray | int, first: int = 1) -> None:
        """Effects that last ``rounds`` rounds of each unit (they stack), from the unit's next
        round: laid during a round (``first`` 1), the round after the one its counter ``tick``
        stands at; laid before the clash (volleys, ``first`` 0), the next round the unit fights,
        which its counter already names."""
        if len(units) == 0:
            return
        per = np.broadcast_to(np.asarray(per_round, dtype=np.float64), units.shape)
        dur = np.broadcast_to(np.asarray(rounds, dtype=np.int64), units.shape)
        for j in range(1, int(dur.max()) + 1):
            sel = dur >= j
            np.add.at(ring, ((self.tick[units[sel]] + j - 1 + first) % RING, units[sel]), per[sel])
        self.ring_active = True


class BattleResult:
    """The outcome of a battle: the winner (``None``: nobody, or both sides, survived), the
    attacks made, and the report: ``events``, ``summary`` and ``timeline``."""

    def __init__(self, winner: int | None, events: list[dict[str, Any]], summary: dict[str, Any],
                 timeline: list[dict[str, Any]], attacks: int = 0) -> None:
        self.winner = winner
        self.attacks = attacks
        self.events = events
        self.summary = summary
        self.timeline = timeline

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "summary": self.summary, "events": self.events,
                "timeline": self.timeline, "attacks": self.attacks}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BattleResult) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"BattleResult(winner={self.winner}, attacks={self.attacks})"


# --------------------------------------------------------------------------- one round

@dataclass
class _Fight:
    """One pairing in a round: which units of each side fight, and how."""

    kind: str                     # "clash", "charge" or "final"
    round: int                    # round of this fight, from 1
    groups: tuple[IntArray, IntArray]
    shooters: tuple[IntArray, IntArray] = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    healers: tuple[IntArray, IntArray] = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    heal_targets: tuple[IntArray, IntArray] = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    queues: tuple[Squad | None, Squad | None] = (None, None)
    charger: int | None = None     # side that charges (charge fights)
    defender_fight: bool = False   # the charged side fights as the rearguard's defender
    flanking: tuple[float, float] = (1.0, 1.0)


class _Round:
    """Damage, heals and effects of one round, applied together at its end."""

    def __init__(self, sides: list[Side], first: int = 1) -> None:
        self.first = first  # effects laid now start: 1, next round; 0, at the next round (volleys)
        self.dmg = [np.zeros(s.size) for s in sides]
        self.gain = [np.zeros(s.size) for s in sides]
        self.shred = [np.zeros(s.size) for s in sides]
        self.atk = [np.zeros(s.size) for s in sides]
        self.shot = [np.zeros(s.size) for s in sides]
        self.stacks: list[tuple[int, str, IntArray, Any, Any]] = []
        self.sacrificed: list[IntArray] = [np.zeros(0, np.int64), np.zeros(0, np.int64)]


class Battle:
    """One battle in progress; :func:`fight` runs it."""

    def __init__(self, rules: Rules, sides: tuple[SideInput, SideInput], dice: Dice,
                 label: str = "steel-rose/battle", options: BattleOptions | None = None) -> None:
        self.rules = rules
        self.numbers = rules.battle
        self.table = unit_table(rules)
        self.options = options or BattleOptions()
        self.dice = dice
        self.label = label
        self.sides = [Side(0, sides[0], self.table), Side(1, sides[1], self.table)]
        self.events: list[dict[str, Any]] = []
        self.timeline: list[dict[str, Any]] = []
        self.attacks = 0
        self.rounds = 0            # clash and final rounds (the battle's «ходы»)
        self.clash_rounds = 0
        self.final_rounds = 0
        self.initial = [s.type.copy() for s in self.sides]
        self.initial_squad = [s.squad.copy() for s in self.sides]
        self.powder_needed = [0, 0]
        # sacrifices and summons since the last report line (a round or a charge fight)
        self.sacrificed = [0, 0]
        self.summoned = [0, 0]
        self.powder_supplied = [0, 0]
        # the report's ledger of the round (or charge fight) in progress, per side and squad:
        # damage taken by source, health restored by source, damage dealt (see _ledger)
        self.book: list[dict[str, list[tuple[IntArray, Any]]]] | None = None
        self.outnumbered: set[str] = set()

    # -- helpers ---------------------------------------------------------------------

    def stream(self, name: str) -> Stream:
        return self.dice.stream(f"{self.label}/{name}")

    def snapshot(self, phase: str, step: int) -> None:
        a, b = self.sides[0].strength(), self.sides[1].strength()
        self.timeline.append({"phase": phase, "step": step, "units": [a[0], b[0]],
                              "health": [round(a[1], 2), round(b[1], 2)]})

    def _losses(self, before: list[BoolArray]) -> list[dict[str, dict[str, int]]]:
        """Deaths since ``before`` per side: squad name -> unit id -> count."""
        out: list[dict[str, dict[str, int]]] = []
        for side, was in zip(self.sides, before, strict=True):
            died = np.flatnonzero(was & ~side.alive[: len(was)])
            per: dict[str, dict[str, int]] = {}
            for u in died.tolist():
                sq = side.squads[int(side.squad[u])].name
                uid = self.table.ids[int(side.type[u])]
                per.setdefault(sq, {})
                per[sq][uid] = per[sq].get(uid, 0) + 1
            out.append({k: dict(sorted(v.items())) for k, v in sorted(per.items())})
        return out

    def _specials(self) -> dict[str, list[int]]:
        """Cultists' sacrifices and demonologists' summons since the last call, per side."""
        out = {}
        if any(self.sacrificed):
            out["sacrifices"] = list(self.sacrificed)
        if any(self.summoned):
            out["summoned"] = list(self.summoned)
        self.sacrificed = [0, 0]
        self.summoned = [0, 0]
        return out

    LEDGER = ("melee", "shots", "poison", "burn", "sacrifice", "regen", "heal", "lifesteal", "dealt")

    keep_ledger = True

    def _open_book(self) -> None:
        """Start the ledger of a round: it records, never decides."""
        self.book = [{k: [] for k in self.LEDGER} for _ in self.sides] if self.keep_ledger else None
        self.outnumbered = set()

    def _book_add(self, side: int, key: str, squads: IntArray, amounts: FloatArray) -> None:
        """Note amounts per unit's squad; they are summed once, when the ledger is closed."""
        assert self.book is not None
        if len(squads):
            self.book[side][key].append((squads, amounts))

    def _ledger(self, squads: list[set[int]] | None = None) -> dict[str, Any]:
        """What the ledger holds for the report, per squad that fought or was hurt: damage
        taken by source, health restored by source, damage dealt, units and health left, and
        fatigue; and the squads that took the outnumbering penalty («Если один отряд численно
        превышает другой в два раза или больше, то меньший отряд получит штраф +25%»)."""
        if self.book is None:
            return {}
        out: dict[str, Any] = {}
        for side in self.sides:
            n = len(side.squads)
            book: dict[str, list[float]] = {}
            zero = [0.0] * n
            for k, parts in self.book[side.index].items():
                if not parts:
                    book[k] = zero
                    continue
                idx = np.concatenate([p[0] for p in parts])
                amounts = np.concatenate([np.broadcast_to(np.asarray(p[1], dtype=np.float64), p[0].shape)
                                          for p in parts])
                book[k] = np.bincount(idx, weights=amounts, minlength=n).tolist()
            alive_squads = side.squad[side.alive]
            units = np.bincount(alive_squads, minlength=n).tolist()
            health = np.bincount(alive_squads, weights=side.hp[side.alive], minlength=n).tolist()
            wanted = squads[side.index] if squads is not None else set()
            for sq in side.squads:
                i = sq.index
                if i not in wanted and not any(book[k][i] > 0 for k in self.LEDGER):
                    continue
                out[sq.name] = {
                    "units": int(units[i]),
                    "health": round(health[i], 1),
                    "fatigue": sq.fatigue,
                    "taken": {k: round(book[k][i], 1) for k in ("melee", "shots", "poison", "burn", "sacrifice")
                              if book[k][i] > 0},
                    "healed": {k: round(book[k][i], 1) for k in ("regen", "heal", "lifesteal") if book[k][i] > 0},
                    "dealt": round(book["dealt"][i], 1),
                }
        detail: dict[str, Any] = {"squads": out}
        if self.outnumbered:
            detail["outnumbered"] = sorted(self.outnumbered)
        self.book = None
        return detail

    def _alive_copy(self) -> list[BoolArray]:
        return [s.alive.copy() for s in self.sides]

    def _auras(self, side: Side) -> tuple[FloatArray, FloatArray]:
        """Hero (+15% damage) and archpriest (-15% taken) of each squad, while they live."""
        n_sq = len(side.squads)
        out = np.ones(n_sq)
        taken = np.ones(n_sq)
        if not side.has_aura:
            return out, taken
        t = self.table
        carriers = np.flatnonzero(side.alive & ((t.squad_damage[side.type] != 1) | (t.squad_taken[side.type] != 1)))
        if len(carriers):
            np.multiply.at(out, side.squad[carriers], t.squad_damage[side.type[carriers]])
            np.multiply.at(taken, side.squad[carriers], t.squad_taken[side.type[carriers]])
        return out, taken

    def _fatigue(self, side: Side) -> FloatArray:
        per = self.numbers.fatigue_percent / 100.0
        return np.asarray([max(0.0, 1 - per * sq.fatigue) for sq in side.squads])

    def _out_factor(self, side: Side, units: IntArray, auras: FloatArray, fatigue: FloatArray) -> FloatArray:
        factor = side.out_static[units] * auras[side.squad[units]] * fatigue[side.squad[units]]
        if side.debuffed:
            # the ring holds the logarithm of each round's debuff factor: stacks multiply
            deb = side.debuff[side.tick[units] % RING, units]
            if deb.any():
                factor = factor * np.exp(deb)
        return factor

    def _take_queue(self, stream: Stream, side: Side, squad: Squad | None, members: IntArray,
                    count: int) -> IntArray:
        """«Гарантируется, что каждый юнит из отряда рано или поздно атакует»: attackers come
        from a shuffled queue of the squad's living units, refilled when used up."""
        if count <= 0 or len(members) == 0:
            return np.zeros(0, np.int64)
        if squad is None:  # the final melee keeps one queue per side on a scratch squad
            squad = self._final_queues[side.index]
        queue = squad.queue[squad.qpos:]
        if len(queue):
            member = np.zeros(side.size, dtype=bool)
            member[members] = True
            queue = queue[member[queue]]
        need = count - len(queue)
        if need > 0:
            n = len(members)
            blocks = -(-need // n)
            if n > 1:
                keys = stream.roll_many(blocks * n, KEY_SIDES).reshape(blocks, n)
                order = np.argsort(keys, axis=1, kind="stable")
                fresh = members[order].reshape(-1)
            else:
                fresh = np.repeat(members, blocks)
            queue = np.concatenate([queue, fresh])
        squad.queue = queue
        squad.qpos = count
        return queue[:count]

    # -- one round of one fight ------------------------------------------------------------

    def _round(self, fights: list[tuple[_Fight, Stream]]) -> None:
        """Every pairing of one round, simultaneous: all attacks see the state at its start."""
        t = self.table
        rnd = _Round(self.sides)
        auras = [self._auras(s) for s in self.sides]
        fatigue = [self._fatigue(s) for s in self.sides]
        for fight, stream in fights:
            self._sacrifices(fight, stream, rnd)
            for a in (0, 1):
                b = 1 - a
                att_side = self.sides[a]
                own = fight.groups[a][att_side.alive[fight.groups[a]]]
                foe = fight.groups[b]
                if len(own) == 0 or len(foe) == 0:
                    continue
                if len(rnd.sacrificed[a]):
                    own = own[~np.isin(own, rnd.sacrificed[a])]
                n = max(len(fight.groups[0]), len(fight.groups[1]))
                attackers = self._take_queue(stream, att_side, fight.queues[a], own, n)
                if att_side.has_multi:
                    attackers = np.repeat(attackers, t.apr[att_side.type[attackers]])
                if att_side.has_idle:
                    attackers = attackers[t.attack[att_side.type[attackers]] > 0]
                if len(attackers) == 0:
                    continue
                targets, rolls = self._aim(stream, foe, t.attack[att_side.type[attackers]])
                outnumbered = self.numbers.outnumber_ratio * len(fight.groups[b]) <= len(fight.groups[a])
                if fight.kind == "final" and not self.options.outnumber_in_final_melee:
                    outnumbered = False
                if outnumbered and self.book is not None:
                    self.outnumbered.update(self.sides[b].squads[int(i)].name
                                            for i in np.unique(self.sides[b].squad[foe]).tolist())
                self._hits(fight, a, attackers, targets, rolls.astype(np.float64), False, rnd,
                           auras, fatigue, outnumbered)
            for a in (0, 1):
                self._shots(fight, a, stream, rnd, auras, fatigue)
            for a in (0, 1):
                self._healers(fight, a, stream, rnd)
            for a in (0, 1):
                self._burps(fight, a, stream, rnd)
        self._apply(rnd)

    def _sacrifices(self, fight: _Fight, stream: Stream, rnd: _Round) -> None:
        """Культист: «Каждый ход может с шансом 10% пожертвовать собой нанести ровно 7 урона
        четверым противникам. После такой атаки культист гарантированно умирает.»"""
        t = self.table
        for a in (0, 1):
            side, foe_side = self.sides[a], self.sides[1 - a]
            if not side.has_sacrifice:
                continue
            group = fight.groups[a]
            cult = group[side.alive[group] & (t.sacrifice_pct[side.type[group]] > 0)]
            foe = fight.groups[1 - a]
            if len(cult) == 0 or len(foe) == 0:
                continue
            faces = stream.roll_many(len(cult), 100)
            go = cult[faces <= t.sacrifice_pct[side.type[cult]]]
            if len(go) == 0:
                continue
            struck, owner = self._runs(stream, foe, t.sacrifice_targets[side.type[go]])
            np.add.at(rnd.dmg[1 - a], struck, t.sacrifice_damage[side.type[go]][owner])
            if self.book is not None:
                self._book_add(1 - a, "sacrifice", foe_side.squad[struck], t.sacrifice_damage[side.type[go]][owner])
            self.attacks += len(struck)
            rnd.sacrificed[a] = np.concatenate([rnd.sacrificed[a], go])
            self.sacrificed[a] += int(len(go))
            del foe_side

    @staticmethod
    def _aim(stream: Stream, foe: IntArray, dice: IntArray) -> tuple[IntArray, FloatArray]:
        """Targets (one d(len(foe)) per strike) then damage dice (one d(die) per strike), drawn
        in that order in one call."""
        m = len(dice)
        faces = stream.roll_many(2 * m, np.concatenate([np.full(m, len(foe), dtype=np.int64), dice]))
        return foe[faces[:m] - 1], faces[m:].astype(np.float64)

    @staticmethod
    def _runs(stream: Stream, pool: IntArray, sizes: IntArray) -> tuple[IntArray, IntArray]:
        """Strikes that hit several units (a cultist's sacrifice, a cannon's shot): each strikes
        a random unit of ``pool`` (one d(len(pool))) and the units after it in the squad's
        order, wrapping round, ``sizes[i]`` different units in all (fewer when the squad is
        smaller). Returns the struck units and, for each, the strike it belongs to."""
        n = len(pool)
        sizes = np.minimum(sizes, n)
        starts = stream.roll_many(len(sizes), n) - 1
        owner = np.repeat(np.arange(len(sizes)), sizes)
        offset = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        return pool[(starts[owner] + offset) % n], owner

    def _hits(self, fight: _Fight | None, a: int, attackers: IntArray, targets: IntArray,
              rolls: FloatArray, ranged: bool, rnd: _Round, auras: list[tuple[FloatArray, FloatArray]],
              fatigue: list[FloatArray], outnumbered: bool, cover: bool = False) -> None:
        """The damage of attacks (or shots) ``attackers[i] -> targets[i]`` with dice ``rolls``:
        «Защита. Вычитается из любого получаемого урона. Может уменьшить урон до нуля. Штрафы и
        бонусы к урону (например, процентные увеличения) применяются после вычитания защиты.»"""
        t = self.table
        b = 1 - a
        att, dfd = self.sides[a], self.sides[b]
        at_type = att.type[attackers]
        tg_type = dfd.type[targets]
        base = np.maximum(rolls - dfd.defence[targets], 0.0)
        base = np.maximum(base, (t.min_ranged if ranged else t.min_melee)[at_type])
        out = self._out_factor(att, attackers, auras[a][0], fatigue[a])
        # compounding per attack (призрачный зверь) or per shot (чародей): the k-th of this
        # round continues the unit's count
        counts = att.shot_count if ranged else att.atk_count
        comp = t.shot_comp if ranged else t.atk_comp_out
        if (att.has_shot_comp if ranged else att.has_atk_comp) and (comp[at_type] != 1.0).any():
            order = np.argsort(attackers, kind="stable")
            srt = attackers[order]
            first = np.r_[0, np.flatnonzero(srt[1:] != srt[:-1]) + 1]
            runs = np.diff(np.r_[first, len(srt)])
            occ = np.empty(len(srt))
            occ[order] = np.arange(len(srt)) - np.repeat(first, runs)
            out = out * np.power(comp[at_type], counts[attackers] + occ)
        inn = auras[b][1][dfd.squad[targets]] * dfd.in_static[targets]
        if dfd.has_atk_comp:
            # призрачный зверь: «понижает получаемый урон ... на 5% с каждой атакой» — against
            # every strike and every shot (R41)
            inn = inn * np.power(t.atk_comp_in[tg_type], dfd.atk_count[targets])
        if ranged:
            out = out * att.shot_static
            if dfd.has_taken_shots:
                inn = inn * t.taken_shots[tg_type]
            if cover:
                inn = inn * (1 + self.numbers.cover_percent / 100.0)
        else:
            if dfd.has_taken_melee:
                inn = inn * t.taken_melee[tg_type]
            if outnumbered:
                inn = inn * (1 + self.numbers.outnumber_percent / 100.0)
        if fight is not None:
            inn = inn * fight.flanking[b]
            if fight.kind == "charge" and fight.charger == a:
                out = out * t.charge_bonus[at_type]
                if fight.round == 1:
                    out = out * t.charge_first[at_type]
                # копейщик: «-25% к получаемому урону при натиске»
                inn = inn * t.taken_vs_charge[tg_type]
        # паладин: «-25% к получаемому урону при защите» (while fighting off a charge as the
        # rearguard's defender; the option: for the whole battle after «Защита»)
        if fight is not None and fight.kind == "charge" and fight.defender_fight and fight.charger == a:
            inn = inn * t.taken_defending[tg_type]
        elif self.options.paladin_defending_whole_battle:
            mask = np.asarray([sq.defending for sq in dfd.squads])[dfd.squad[targets]]
            inn = inn * np.where(mask, t.taken_defending[tg_type], 1.0)
        dmg = base * out * inn
        self.attacks += len(attackers)
        np.add.at(rnd.dmg[b], targets, dmg)
        if self.book is not None:
            self._book_add(b, "shots" if ranged else "melee", dfd.squad[targets], dmg)
            self._book_add(a, "dealt", att.squad[attackers], dmg)
        if ranged:
            np.add.at(rnd.shot[a], attackers, 1.0)
            deb = t.debuff_rounds[at_type] > 0 if att.has_debuffer else None
            if deb is not None and deb.any():
                # просветлённый: «каждое попадание в дальнем бою снижает наносимый урон на 15% на
                # 3 хода (эффект может складываться)»
                rnd.stacks.append((b, "debuff", targets[deb], np.log(t.debuff[at_type[deb]]),
                                   t.debuff_rounds[at_type[deb]]))
                dfd.debuffed = True
        else:
            np.add.at(rnd.atk[a], attackers, 1.0)
            # паладин: «восстанавливают 3 здоровья ... при каждом попадании»; рыцарь пустоты:
            # «восполняет здоровье в размере половины от итогового урона»
            if att.has_gain:
                gain = t.heal_per_hit[at_type] + t.lifesteal[at_type] * dmg
                np.add.at(rnd.gain[a], attackers, gain)
                if self.book is not None:
                    self._book_add(a, "lifesteal", att.squad[attackers], gain)
            # заразитель: «При каждом получении урона в ближнем бою отравляет атакующего»
            poisoned = (t.poison_rounds[tg_type] > 0) & (dmg > 0) if dfd.has_poisoner else None
            if poisoned is not None and poisoned.any():
                rnd.stacks.append((a, "poison", attackers[poisoned], t.poison_per_round[tg_type[poisoned]],
                                   t.poison_rounds[tg_type[poisoned]]))
            # архидемон: «Каждая атака поджигает противника»
            burning = t.burn_rounds[at_type] > 0 if att.has_burn else None
            if burning is not None and burning.any():
                rnd.stacks.append((b, "burn", targets[burning], t.burn_per_round[at_type[burning]],
                                   t.burn_rounds[at_type[burning]]))
        # паладин, архижрец: броня снижается «вплоть до нуля»
        if att.has_shred:
            np.add.at(rnd.shred[b], targets, t.shred[at_type])

    def _shots(self, fight: _Fight, a: int, stream: Stream, rnd: _Round,
               auras: list[tuple[FloatArray, FloatArray]], fatigue: list[FloatArray]) -> None:
        """«Если стрелки находятся в арьергарде, то каждый ход боя они автоматически ... совершают
        каждый по 1 выстрелу и атакуют вражеский авангард своего фланга.»"""
        side = self.sides[a]
        shooters = fight.shooters[a]
        shooters = shooters[side.alive[shooters]]
        foe = fight.groups[1 - a]
        if len(shooters) == 0 or len(foe) == 0:
            return
        self._volley_shots(fight, a, shooters, foe, stream, rnd, auras, fatigue, cover=False)

    def _volley_shots(self, fight: _Fight | None, a: int, shots: IntArray, foe: IntArray, stream: Stream,
                      rnd: _Round, auras: list[tuple[FloatArray, FloatArray]], fatigue: list[FloatArray],
                      cover: bool) -> None:
        """Shots ``shots`` (one entry per shot) at the squad ``foe``; a cannon's or a Fire Hail's
        shot strikes a share of the squad: «задевает 20% вражеского отряда, но минимум 1 и
        максимум 5 юнитов» (one die for the shot, each struck unit takes it)."""
        t = self.table
        side = self.sides[a]
        types = side.type[shots]
        area = t.area_pct[types] > 0
        single = shots[~area]
        if len(single):
            targets, rolls = self._aim(stream, foe, t.ranged[side.type[single]])
            self._hits(fight, a, single, targets, rolls, True, rnd, auras, fatigue, False, cover)
        big = shots[area]
        if len(big):
            bt = side.type[big]
            k = np.floor(t.area_pct[bt] * len(foe) / 100.0).astype(np.int64)
            k = np.clip(k, t.area_min[bt], t.area_max[bt])
            struck, owner = self._runs(stream, foe, k)
            rolls = stream.roll_many(len(big), t.ranged[bt]).astype(np.float64)
            self._hits(fight, a, big[owner], struck, rolls[owner], True, rnd, auras, fatigue, False, cover)
            # one shot, however many units it strikes
            np.add.at(rnd.shot[a], big[owner], -1.0)
            np.add.at(rnd.shot[a], big, 1.0)

    def _healers(self, fight: _Fight, a: int, stream: Stream, rnd: _Round) -> None:
        """Целитель: «накладывает регенерацию (6 единиц здоровья за 3 раунда) на случайного бойца
        впередистоящего (если есть) или своего отряда каждый раунд. Регенерация может складываться.»"""
        side = self.sides[a]
        healers = fight.healers[a]
        if len(healers) == 0:
            return
        healers = healers[side.alive[healers]]
        pool = fight.heal_targets[a]
        pool = pool[side.alive[pool]]
        if len(healers) == 0 or len(pool) == 0:
            return
        t = self.table
        targets = pool[stream.roll_many(len(healers), len(pool)) - 1]
        rnd.stacks.append((a, "heal", targets, t.heal_per_round[side.type[healers]],
                           t.heal_rounds[side.type[healers]]))

    def _burps(self, fight: _Fight, a: int, stream: Stream, rnd: _Round) -> None:
        """Огнеглот: «каждый второй ход (начиная с первого) совершает огненную отрыжку на
        случайного врага (-6 единиц здоровья за 2 раунда)»"""
        t = self.table
        side = self.sides[a]
        if not side.has_burp:
            return
        group = fight.groups[a]
        foe = fight.groups[1 - a]
        belly = group[side.alive[group] & (t.burp_rounds[side.type[group]] > 0)]
        if len(belly) == 0 or len(foe) == 0:
            return
        every = t.burp_every[side.type[belly]]
        belly = belly[(fight.round - 1) % every == 0]
        belly = belly[~np.isin(belly, rnd.sacrificed[a])]
        if len(belly) == 0:
            return
        targets = foe[stream.roll_many(len(belly), len(foe)) - 1]
        rnd.stacks.append((1 - a, "burn", targets, t.burp_per_round[side.type[belly]],
                           t.burp_rounds[side.type[belly]]))
        self.attacks += len(belly)

    def _apply(self, rnd: _Round) -> None:
        for i, side in enumerate(self.sides):
            live = side.alive
            side.hp -= rnd.dmg[i]
            dead = live & (side.hp <= 0)
            if len(rnd.sacrificed[i]):
                dead[rnd.sacrificed[i]] = True
                side.hp[rnd.sacrificed[i]] = 0.0
            side.alive = live & ~dead
            side.hp = np.where(side.alive, np.minimum(side.hp + rnd.gain[i], side.maxhp), side.hp)
            side.defence = np.maximum(side.defence - rnd.shred[i], 0.0)
            side.atk_count += rnd.atk[i]
            side.shot_count += rnd.shot[i]
        for i, ring, units, per, rounds in rnd.stacks:
            side = self.sides[i]
            keep = side.alive[units]
            if not keep.any():
                continue
            per_arr = np.broadcast_to(np.asarray(per, dtype=np.float64), units.shape)[keep]
            rounds_arr = np.broadcast_to(np.asarray(rounds, dtype=np.int64), units.shape)[keep]
            side.add_stack(getattr(side, ring), units[keep], per_arr, rounds_arr, rnd.first)

    def _tick(self, participants: list[IntArray]) -> None:
        """Start of a round: poison, burning and burps hurt, regeneration and healers' stacks
        heal («регенерация 2 ед./ход»), and the round's ranged debuffs take hold; a unit whose
        health falls to zero dies. Effects of units that do not fight this round wait."""
        t = self.table
        for side, units in zip(self.sides, participants, strict=True):
            units = units[side.alive[units]]
            if len(units) == 0:
                continue
            if not (side.ring_active or side.has_regen):
                continue
            slot = side.tick[units] % RING
            regen = t.regen[side.type[units]]
            net = regen
            if side.ring_active:
                poison, burn, heal = side.poison[slot, units], side.burn[slot, units], side.heal[slot, units]
                net = net + heal - poison - burn
            hp = side.hp[units] + net
            dead = hp <= 0
            if self.book is not None:
                self._book_tick(side, units, hp, dead, regen,
                                (poison, burn, heal) if side.ring_active else None)
            side.hp[units] = np.minimum(hp, side.maxhp[units])
            side.alive[units[dead]] = False

    def _book_tick(self, side: Side, units: IntArray, hp: FloatArray, dead: BoolArray, regen: FloatArray,
                   rings: tuple[FloatArray, FloatArray, FloatArray] | None) -> None:
        """The report's ledger of a round's start: what hurt each squad (poison, burning) and
        what healed it (regeneration, healers), as health actually lost and restored."""
        squads = side.squad[units]
        hurt = side.hp[units]
        heal: FloatArray | float = 0.0
        if rings is not None:
            poison, burn, heal = rings
            if poison.any():
                self._book_add(side.index, "poison", squads, poison)
            if burn.any():
                self._book_add(side.index, "burn", squads, burn)
            hurt = hurt - poison - burn
        total = regen + heal
        if not np.any(total > 0):
            return
        gained = np.where(dead, 0.0, np.maximum(np.minimum(hp, side.maxhp[units]) - hurt, 0.0))
        share = np.where(total > 0, gained / np.where(total > 0, total, 1.0), 0.0)
        if np.any(regen > 0):
            self._book_add(side.index, "regen", squads, regen * share)
        if rings is not None:
            self._book_add(side.index, "heal", squads, rings[2] * share)

    def _tock(self, participants: list[IntArray]) -> None:
        """End of a round: the effects of the round that passed are spent."""
        for side, units in zip(self.sides, participants, strict=True):
            if len(units) == 0:
                continue
            if side.ring_active:
                slot = side.tick[units] % RING
                side.poison[slot, units] = 0.0
                side.burn[slot, units] = 0.0
                side.heal[slot, units] = 0.0
                side.debuff[slot, units] = 0.0
            side.tick[units] += 1

    def _summons(self, participants: list[IntArray]) -> None:
        """Демонолог: «призывает низшего демона каждый ход» (into its own squad)."""
        if not self.options.demonologist_summons_in_battle:
            return
        t = self.table
        for side, units in zip(self.sides, participants, strict=True):
            if not side.has_summon:
                continue
            units = units[side.alive[units]]
            callers = units[t.summon_type[side.type[units]] >= 0]
            for u in callers.tolist():
                ty = int(side.type[u])
                if (side.tick[u]) % int(t.summon_every[ty]) == 0:
                    side.append(int(t.summon_type[ty]), int(side.squad[u]), 1)
                    self.summoned[side.index] += 1

    # -- phases ----------------------------------------------------------------------------

    def run(self) -> BattleResult:
        self._supply_gunpowder()
        self._normalise_all()
        self.events.append({"kind": "deployment", "sides": [self._deployment(s) for s in self.sides]})
        self.snapshot("deployment", 0)
        self._planning()
        self._clash()
        self._final()
        return self._aftermath()

    def _deployment(self, side: Side) -> dict[str, Any]:
        squads = []
        for sq in side.squads:
            members = side.members(sq.index)
            counts: dict[str, int] = {}
            for ty in side.type[members].tolist():
                uid = self.table.ids[ty]
                counts[uid] = counts.get(uid, 0) + 1
            squads.append({"squad": sq.name, "position": sq.position, "units": counts})
        out: dict[str, Any] = {"name": side.spec.name, "faction": side.spec.faction, "squads": squads}
        if side.spec.notes:
            out["notes"] = [n.to_json() for n in side.spec.notes]
        return out

    def _supply_gunpowder(self) -> None:
        """«ПОРОХ»: «Если вы не выделите порох юниту, который его тратит, то он не сможет
        сражаться и будет выведен из строя. Расход пороха для отряда удваивается, если вы отдаете
        приказ 'обстрел'.» The post's shares first, then deployment order (:mod:`.powder`)."""
        t = self.table
        for side in self.sides:
            given = supply(self.rules, side.spec)
            self.powder_needed[side.index] = given.needed
            self.powder_supplied[side.index] = given.supplied
            if not given.needed or (side.spec.gunpowder is None and not side.spec.powder):
                continue
            withdrawn: dict[str, int] = {}
            for u in np.flatnonzero(given.withdrawn).tolist():
                side.withdrawn[u] = True
                side.alive[u] = False
                uid = t.ids[int(side.type[u])]
                withdrawn[uid] = withdrawn.get(uid, 0) + 1
            event: dict[str, Any] = {"kind": "gunpowder", "side": side.index, "stock": side.spec.gunpowder,
                                     "needed": given.needed, "supplied": given.supplied, "withdrawn": withdrawn}
            if given.shares:
                event["shares"] = given.shares
            self.events.append(event)

    def _normalise(self, side: Side) -> list[dict[str, Any]]:
        """«Арьергард без авангарда существовать не может. Если авангардный отряд умирает, то
        арьергард автоматически выступает вперёд и становится авангардом.»"""
        moved = []
        standing = side.standing()
        for flank in fld.FLANKS:
            van = standing.get(fld.at(flank, "vanguard"))
            rear = standing.get(fld.at(flank, "rearguard"))
            if van is None and rear is not None:
                rear.position = fld.at(flank, "vanguard")
                moved.append({"kind": "step_up", "side": side.index, "squad": rear.name, "flank": flank})
        return moved

    def _normalise_all(self) -> None:
        for side in self.sides:
            self.events.extend(self._normalise(side))

    # planning ------------------------------------------------------------------------------

    def _squad_of(self, side: Side, home: str) -> Squad | None:
        for sq in side.squads:
            if sq.home == home:
                return sq
        return None

    def _planning(self) -> None:
        """«Манёвры обрабатываются в таком порядке: укрытия, обстрелы, защита, натиск, а затем
        смена позиций и марш-броски»"""
        for side in self.sides:
            for m in side.spec.plan:
                sq = self._squad_of(side, m.squad)
                if sq is None:
                    continue
                if sq.manoeuvre is None:
                    sq.manoeuvre = m
                elif m.kind == "move":
                    sq.free_move = m
        self._covers()
        self._volleys()
        self._defences()
        self._charges()
        self._moves()

    def _plans(self, kind: str) -> list[tuple[Side, Squad, Manoeuvre]]:
        out = []
        for side in self.sides:
            for sq in side.squads:
                if sq.manoeuvre is not None and sq.manoeuvre.kind == kind and side.squad_alive(sq.index):
                    out.append((side, sq, sq.manoeuvre))
        return out

    def _covers(self) -> None:
        """«В укрытие: отряд получает вдвое меньше урона от особого манёвра 'обстрел'»"""
        for side, sq, _ in self._plans("cover"):
            sq.cover = True
            self.events.append({"kind": "cover", "side": side.index, "squad": sq.name})

    def _volleys(self) -> None:
        """«Обстрел: отряд атакует авангардный отряд противника до начала боя.» All volleys of
        both sides are fired at once; each unit fires its «число выстрелов при обстреле»."""
        plans = self._plans("volley") + self._plans("long_volley")
        if not plans:
            return
        plans.sort(key=lambda p: (p[0].index, p[1].index))
        stream = self.stream("volleys")
        # the volleys are no round: what they lay (the enlightened's debuff) holds from the
        # target's next round on, the first of the clash or of a charge it fights (R42)
        rnd = _Round(self.sides, first=0)
        auras = [self._auras(s) for s in self.sides]
        fatigue = [self._fatigue(s) for s in self.sides]
        before = self._alive_copy()
        self._open_book()
        fired = []
        for side, sq, m in plans:
            enemy = self.sides[1 - side.index]
            target = enemy.at(m.targets[0]) if m.targets else None
            if target is None:
                fired.append({"kind": "volley", "side": side.index, "squad": sq.name, "target": None,
                              "position": m.targets[0] if m.targets else None, "shots": 0})
                continue
            members = side.members(sq.index)
            shots = np.repeat(members, self.table.shots[side.type[members]])
            foe = enemy.members(target.index)
            was = float(rnd.dmg[1 - side.index][foe].sum())
            self._volley_shots(None, side.index, shots, foe, stream, rnd, auras, fatigue, target.cover)
            fired.append({"kind": "volley", "side": side.index, "squad": sq.name, "target": target.name,
                          "position": target.position, "long": m.kind == "long_volley",
                          "shots": int(len(shots)),
                          "damage": round(float(rnd.dmg[1 - side.index][foe].sum()) - was, 2)})
        self._apply(rnd)
        losses = self._losses(before)
        self.events.extend(fired)
        self.events.append({"kind": "volley_losses", "losses": losses, "detail": self._ledger()})
        self._normalise_all()
        self.snapshot("volleys", 0)

    def _defences(self) -> None:
        """«Защита: отряд обороняет арьергард на соседней позиции от особого манёвра 'натиск'...
        Защищающийся отряд получит 1 единицу усталости, неважно, защитил он кого-либо или нет.»"""
        for side, sq, m in self._plans("defend"):
            sq.defending = True
            sq.fatigue += self.numbers.defend_fatigue
            self.events.append({"kind": "defend", "side": side.index, "squad": sq.name,
                                "position": m.targets[0] if m.targets else None})

    def _charges(self) -> None:
        """«Натиск: отряд идёт в обход авангарда и сражается с арьергардом противника. После боя
        отряд возвращается на своё место.» «При попытке натиска нужно будет сначала победить
        защитников.» Charges go flank by flank (left, centre, right), the first side first."""
        plans = self._plans("charge")
        plans.sort(key=lambda p: (fld.column(p[1].position), p[0].index, fld.row(p[1].position)))
        for number, (side, sq, m) in enumerate(plans, 1):
            if not side.squad_alive(sq.index):
                continue
            enemy = self.sides[1 - side.index]
            target = self._squad_of(enemy, m.targets[0])
            if target is None or not enemy.squad_alive(target.index) or fld.rank_of(target.position) != "rearguard":
                self.events.append({"kind": "charge", "side": side.index, "squad": sq.name,
                                    "target": target.name if target else None, "cancelled": True})
                continue
            defender = None
            for other in enemy.squads:
                om = other.manoeuvre
                if (om is not None and om.kind == "defend" and om.targets and om.targets[0] == target.home
                        and enemy.squad_alive(other.index)):
                    defender = other
            stream = self.stream(f"charge/{number}")
            record: dict[str, Any] = {"kind": "charge", "side": side.index, "squad": sq.name,
                                      "target": target.name, "position": target.position,
                                      "defender": defender.name if defender else None, "fights": []}
            first_round = 1
            for opponent, as_defender in ((defender, True), (target, False)):
                if opponent is None or not side.squad_alive(sq.index):
                    continue
                fight_log, first_round = self._charge_fight(side, sq, enemy, opponent, as_defender, stream,
                                                            first_round)
                record["fights"].append(fight_log)
            self.events.append(record)
            self._normalise_all()
        if plans:
            self.snapshot("charges", 0)

    def _charge_fight(self, side: Side, charger: Squad, enemy: Side, opponent: Squad, as_defender: bool,
                      stream: Stream, first_round: int) -> tuple[dict[str, Any], int]:
        before = self._alive_copy()
        rounds = 0
        r = first_round
        self._open_book()
        while (side.squad_alive(charger.index) and enemy.squad_alive(opponent.index)
               and rounds < self.numbers.max_charge_rounds):
            own = side.members(charger.index)
            foe = enemy.members(opponent.index)
            part = [own, foe] if side.index == 0 else [foe, own]
            self._tick(part)
            own = side.members(charger.index)
            foe = enemy.members(opponent.index)
            groups = (own, foe) if side.index == 0 else (foe, own)
            queues = (charger, opponent) if side.index == 0 else (opponent, charger)
            healers = [self._healers_of(s, g) for s, g in zip(self.sides, groups, strict=True)]
            fight = _Fight("charge", r, groups, healers=(healers[0], healers[1]), heal_targets=groups,
                           queues=queues, charger=side.index, defender_fight=as_defender)
            self._round([(fight, stream)])
            self._summons(part)
            self._tock(part)
            rounds += 1
            r += 1
        losses = self._losses(before)
        fought: list[set[int]] = [set(), set()]
        fought[side.index].add(charger.index)
        fought[enemy.index].add(opponent.index)
        return ({"opponent": opponent.name, "defender": as_defender, "rounds": rounds,
                 "losses": losses, "charger_survives": side.squad_alive(charger.index),
                 **self._specials(), "detail": self._ledger(fought)}, r)

    def _healers_of(self, side: Side, group: IntArray) -> IntArray:
        return group[self.table.heal_rounds[side.type[group]] > 0]

    def _moves(self) -> None:
        """«Смена позиции: Отряд перемещается на одну свободную соседнюю ячейку. Если два отряда
        одновременно используют этот маневр, чтобы занять ячейки друг друга, они могут
        поменяться местами.» «Марш-бросок: отряд дважды использует смену позиции. Отряд получает
        две единицы усталости.» Step one of every move, then the second steps (marches and the
        free position change of griffin riders and sabretooths)."""
        for side in self.sides:
            steps: list[list[tuple[Squad, str]]] = [[], [], []]
            for sq in side.squads:
                if not side.squad_alive(sq.index):
                    continue
                m = sq.manoeuvre
                path: list[str] = []
                if m is not None and m.kind in ("move", "march"):
                    path = list(m.targets)
                    if m.kind == "march":
                        sq.fatigue += self.numbers.forced_march_fatigue
                        if len(path) == 1 and fld.distance(sq.position, path[0]) == 2:
                            path = [self._via(side, sq.position, path[0]), path[0]]
                if sq.free_move is not None:
                    path += list(sq.free_move.targets[:1])
                for k, dest in enumerate(path[:3]):
                    steps[k].append((sq, dest))
            for step in steps:
                if step:
                    self._step(side, step)
            # «Если после перемещения выходит так, что арьергард находится на каком-либо фланге без
            # авангарда, то отряд мгновенно займёт место авангарда» (after the whole manoeuvre)
            self.events.extend(self._normalise(side))
        self.snapshot("moves", 0)

    def _via(self, side: Side, start: str, goal: str) -> str:
        options = [p for p in fld.POSITIONS if fld.adjacent(start, p) and fld.adjacent(p, goal)]
        for p in options:
            if side.at(p) is None:
                return p
        return options[0]

    def _step(self, side: Side, moves: list[tuple[Squad, str]]) -> None:
        pending = [(sq, dest) for sq, dest in moves if side.squad_alive(sq.index)]
        # swaps: two squads that take each other's cells
        done: set[int] = set()
        for i, (sq, dest) in enumerate(pending):
            for j, (other, odest) in enumerate(pending):
                if j <= i or i in done or j in done:
                    continue
                if dest == other.position and odest == sq.position and fld.adjacent(sq.position, dest):
                    self.events.append({"kind": "move", "side": side.index, "squad": sq.name,
                                        "from": sq.position, "to": dest, "swap": other.name})
                    self.events.append({"kind": "move", "side": side.index, "squad": other.name,
                                        "from": other.position, "to": odest, "swap": sq.name})
                    sq.position, other.position = dest, odest
                    done.update((i, j))
        progress = True
        while progress:
            progress = False
            for i, (sq, dest) in enumerate(pending):
                if i in done or not fld.adjacent(sq.position, dest):
                    continue
                if side.at(dest) is None:
                    self.events.append({"kind": "move", "side": side.index, "squad": sq.name,
                                        "from": sq.position, "to": dest})
                    sq.position = dest
                    done.add(i)
                    progress = True
        for i, (sq, dest) in enumerate(pending):
            if i not in done:
                self.events.append({"kind": "move", "side": side.index, "squad": sq.name,
                                    "from": sq.position, "to": dest, "blocked": True})

    # clash ---------------------------------------------------------------------------------

    def _clash(self) -> None:
        """«Столкновение: отряды движутся навстречу друг другу и сталкиваются в бою.» Each flank
        where both sides stand fights; the rounds of all flanks are counted together."""
        streams = {f: self.stream(f"clash/{f}") for f in fld.FLANKS}
        while self.clash_rounds < self.numbers.max_clash_rounds:
            if not self._active_flanks():
                break
            everyone = [s.living() for s in self.sides]
            self._open_book()
            before = self._alive_copy()  # deaths from poison and burning at the round's start count too
            self._tick(everyone)
            self._normalise_all()
            active = self._active_flanks()
            if not active:
                self._tock(everyone)
                break
            self.clash_rounds += 1
            self.rounds += 1
            fights = []
            for flank in active:
                fights.append((self._flank_fight(flank), streams[flank]))
            self._round(fights)
            self._summons(everyone)
            self._tock(everyone)
            losses = self._losses(before)
            fought = [{int(i) for g in (f.groups[s.index] for f, _ in fights) for i in s.squad[g].tolist()}
                      for s in self.sides]
            self.events.append({"kind": "round", "phase": "clash", "round": self.rounds, **self._specials(),
                                "flanks": active, "losses": losses, "detail": self._ledger(fought)})
            self._normalise_all()
            self.snapshot("clash", self.rounds)

    def _active_flanks(self) -> list[str]:
        a, b = self.sides[0].standing(), self.sides[1].standing()
        return [f for f in fld.FLANKS if fld.at(f, "vanguard") in a and fld.at(f, "vanguard") in b]

    def _flank_fight(self, flank: str) -> _Fight:
        t = self.table
        groups, shooters, healers, targets, queues = [], [], [], [], []
        for side in self.sides:
            standing = side.standing()
            van = standing.get(fld.at(flank, "vanguard"))
            rear = standing.get(fld.at(flank, "rearguard"))
            assert van is not None
            front = side.members(van.index)
            back = side.members(rear.index) if rear is not None else np.zeros(0, np.int64)
            groups.append(front)
            queues.append(van)
            shooters.append(back[t.shooter[side.type[back]]])
            healers.append(np.concatenate([self._healers_of(side, front), self._healers_of(side, back)]))
            targets.append(front)
        return _Fight("clash", self.rounds, (groups[0], groups[1]), (shooters[0], shooters[1]),
                      (healers[0], healers[1]), (targets[0], targets[1]), (queues[0], queues[1]))

    # final ---------------------------------------------------------------------------------

    def _final(self) -> None:
        """«Завершение: все выжившие юниты сталкиваются в хаотичной битве, формируя 2 отряда и
        сражаясь, пока все противники не будут истреблены.» «Та команда, у которой на момент фазы
        завершения осталось меньше выживших отрядов (не юнитов), получает штраф +25%.»"""
        if not (self.sides[0].alive.any() and self.sides[1].alive.any()):
            return
        counts = [sum(1 for sq in s.squads if s.squad_alive(sq.index)) for s in self.sides]
        penalty = 1 + self.numbers.flanking_percent / 100.0
        flanking = (penalty if counts[0] < counts[1] else 1.0, penalty if counts[1] < counts[0] else 1.0)
        self.events.append({"kind": "final", "squads": counts,
                            "flanked": 0 if counts[0] < counts[1] else 1 if counts[1] < counts[0] else None})
        self._final_queues = [Squad(0, -1, "", ""), Squad(1, -1, "", "")]
        stream = self.stream("final")
        r = 0
        while self.sides[0].alive.any() and self.sides[1].alive.any() and r < self.numbers.max_final_rounds:
            everyone = [s.living() for s in self.sides]
            self._open_book()
            before = self._alive_copy()  # deaths from poison and burning at the round's start count too
            self._tick(everyone)
            groups = (self.sides[0].living(), self.sides[1].living())
            if len(groups[0]) == 0 or len(groups[1]) == 0:
                self._tock(everyone)
                break
            r += 1
            self.final_rounds += 1
            self.rounds += 1
            healers = [self._healers_of(s, g) for s, g in zip(self.sides, groups, strict=True)]
            fight = _Fight("final", self.rounds, groups, healers=(healers[0], healers[1]), heal_targets=groups,
                           flanking=flanking)
            self._round([(fight, stream)])
            self._summons(everyone)
            self._tock(everyone)
            fought = [{int(i) for i in s.squad[g].tolist()} for s, g in zip(self.sides, groups, strict=True)]
            self.events.append({"kind": "round", "phase": "final", "round": self.rounds, **self._specials(),
                                "losses": self._losses(before), "detail": self._ledger(fought)})
            self.snapshot("final", self.rounds)

    _final_queues: list[Squad]

    # aftermath -----------------------------------------------------------------------------

    def _aftermath(self) -> BattleResult:
        """Wounded recovery («после боя часть раненых юнитов ... удаётся спасти»), gunpowder,
        and the resources the deaths produce (honour, meat, void hunger)."""
        t = self.table
        alive = [bool(s.alive.any()) for s in self.sides]
        winner = 0 if alive[0] and not alive[1] else 1 if alive[1] and not alive[0] else None
        sides_out = []
        deaths_total = []
        for side in self.sides:
            dead_mask = ~side.alive & ~side.withdrawn
            deaths_total.append(int(dead_mask.sum()))
        for side in self.sides:
            i = side.index
            dead_mask = ~side.alive & ~side.withdrawn
            squads = []
            for sq in side.squads:
                in_sq = side.squad == sq.index
                squads.append({
                    "squad": sq.name, "home": sq.home, "position": sq.position,
                    "fatigue": sq.fatigue,
                    "units": self._count(side, in_sq & ~side.summoned),
                    "summoned": self._count(side, in_sq & side.summoned),
                    "dead": self._count(side, in_sq & dead_mask),
                    "survivors": self._count(side, in_sq & side.alive),
                    "withdrawn": self._count(side, in_sq & side.withdrawn),
                })
            dead = self._count(side, dead_mask)
            recovered: dict[str, int] = {}
            if winner == i or winner is None or self.options.recovery_for_loser:
                for uid, n in dead.items():
                    back = int(math.floor(n * float(t.recovery[t.index[uid]]) + 0.5))
                    if back:
                        recovered[uid] = back
            survivors = self._count(side, side.alive)
            returning = dict(survivors)
            for uid, n in list(recovered.items()) + list(self._count(side, side.withdrawn).items()):
                returning[uid] = returning.get(uid, 0) + n
            powder = self.powder_supplied[i]
            if (side.spec.garrison and winner == i
                    and self.rounds < self.numbers.garrison_free_powder_rounds):
                powder = 0
            dead_types = side.type[dead_mask]
            honour = float(np.sum(t.upkeep[dead_types] * (t.faction[dead_types] == t.factions.index("empire"))))
            honour *= self.numbers.honour_per_upkeep
            enemy_dead = deaths_total[1 - i]
            ogres_alive = bool(np.any(side.alive & (t.faction[side.type] == t.factions.index("ogres"))))
            meat = enemy_dead * self.numbers.meat_per_enemy_death if ogres_alive else 0
            void = 0
            if side.spec.faction == "void_cult" and winner == i:
                void = -(enemy_dead // self.numbers.enemy_deaths_per_void_hunger)
            sides_out.append({
                "name": side.spec.name, "faction": side.spec.faction, "garrison": side.spec.garrison,
                "squads": squads, "dead": dead, "deaths": deaths_total[i], "recovered": recovered,
                "survivors": survivors, "returning": dict(sorted(returning.items())),
                "gunpowder_needed": self.powder_needed[i], "gunpowder_spent": powder,
                "honour": round(honour, 4), "meat": meat, "void_hunger": void,
            })
        summary = {"winner": winner,
                   "winner_name": self.sides[winner].spec.name if winner is not None else None,
                   "rounds": self.rounds, "clash_rounds": self.clash_rounds, "final_rounds": self.final_rounds,
                   "attacks": self.attacks, "sides": sides_out}
        self.events.append({"kind": "result", "winner": winner, "rounds": self.rounds})
        return BattleResult(winner, self.events, summary, self.timeline, self.attacks)

    def _count(self, side: Side, mask: BoolArray) -> dict[str, int]:
        counts = np.bincount(side.type[mask], minlength=len(self.table.ids))
        return {self.table.ids[i]: int(c) for i, c in enumerate(counts.tolist()) if c}


def fight(rules: Rules, sides: tuple[SideInput, SideInput], dice: Dice, label: str = "steel-rose/battle",
          options: BattleOptions | None = None, ledger: bool = True) -> BattleResult:
    """The whole battle: deployments and plans of both sides in, result and event log out.
    Every die is drawn from ``dice`` under ``label`` (docs/steel_rose/battle.md §6) and recorded
    there, so ``voevoda verify`` re-derives the battle. ``ledger=False`` leaves out the report's
    per-round detail (for many battles whose reports nobody reads); the battle is the same."""
    battle = Battle(rules, sides, dice, label, options)
    battle.keep_ledger = ledger
    return battle.run()
