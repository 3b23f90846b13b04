"""What a battle is computed from: each side's deployment and plan, as plain data.

These are what the posts (:mod:`.posts`) are read into, and what the campaign will hand
the engine; every one converts to and from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MANOEUVRES = ("move", "march", "defend", "cover", "charge", "volley", "long_volley")
"""«Смена позиции», «Марш-бросок», «Защита», «В укрытие», «Натиск», «Обстрел»,
«Дальнобойный обстрел»."""


@dataclass(frozen=True)
class SquadInput:
    """One squad of a deployment: where it stands and what it is made of (unit id -> count,
    in the order written)."""

    position: str
    units: dict[str, int]
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "units": dict(self.units), "line": self.line}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> SquadInput:
        """From :meth:`to_json`, or with ``units`` as ``[[unit, count], ...]`` (:meth:`SideInput.to_record`)."""
        units = raw["units"]
        pairs = units.items() if isinstance(units, dict) else [(pair[0], pair[1]) for pair in units]
        return SquadInput(str(raw["position"]), {str(k): int(v) for k, v in pairs}, int(raw.get("line", 0)))


@dataclass(frozen=True)
class Manoeuvre:
    """One manoeuvre of one squad. ``targets`` holds positions: the cell(s) to move to
    (own side), the rearguard defended (own side), or the enemy squad charged or fired at."""

    squad: str
    kind: str
    targets: tuple[str, ...] = ()
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"squad": self.squad, "kind": self.kind, "targets": list(self.targets), "line": self.line}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Manoeuvre:
        return Manoeuvre(str(raw["squad"]), str(raw["kind"]), tuple(raw.get("targets", ())),
                         int(raw.get("line", 0)))


@dataclass(frozen=True)
class PowderShare:
    """Powder a side gives to one squad (``position``) or to every unit of one type (``unit``):
    «Если вы не выделите порох юниту, который его тратит, то он не сможет сражаться»
    (docs/rulings/steel_rose.md R24). ``amount`` is the most those units get."""

    amount: int
    position: str | None = None
    unit: str | None = None
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "position": self.position, "unit": self.unit, "line": self.line}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> PowderShare:
        position, unit = raw.get("position"), raw.get("unit")
        return PowderShare(int(raw["amount"]), str(position) if position is not None else None,
                           str(unit) if unit is not None else None, int(raw.get("line", 0)))


@dataclass(frozen=True)
class Note:
    """Something the reading of a post decided that its author should know (docs/rulings R1),
    in both languages; the battle report prints it."""

    ru: str
    en: str
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ru": self.ru, "en": self.en, "line": self.line}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Note:
        return Note(str(raw["ru"]), str(raw["en"]), int(raw.get("line", 0)))


@dataclass(frozen=True)
class SideInput:
    """One side of a battle.

    ``gunpowder`` is the powder the side brings (``None``: as much as its units need);
    ``garrison`` marks a city's garrison (it fights first and keeps its powder when it wins
    quickly); ``modifiers`` are campaign effects in percent (``damage``, ``taken``,
    ``shots``) such as Небесное благоволение or Стены с бойницами; ``powder`` the shares of
    powder the side's post gives to squads or unit types (the rest goes to the other units in
    deployment order); ``notes`` what the reading of its posts decided (for the report).
    """

    name: str
    faction: str
    squads: tuple[SquadInput, ...]
    plan: tuple[Manoeuvre, ...] = ()
    gunpowder: int | None = None
    garrison: bool = False
    modifiers: dict[str, float] = field(default_factory=dict)
    powder: tuple[PowderShare, ...] = ()
    notes: tuple[Note, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "faction": self.faction,
                "squads": [s.to_json() for s in self.squads],
                "plan": [m.to_json() for m in self.plan], "gunpowder": self.gunpowder,
                "garrison": self.garrison, "modifiers": dict(self.modifiers),
                "powder": [p.to_json() for p in self.powder], "notes": [n.to_json() for n in self.notes]}

    def to_record(self) -> dict[str, Any]:
        """:meth:`to_json` with each squad's units as ``[[unit, count], ...]``: the order of a
        squad's units is part of the battle (they take their blows in the order written), and a
        JSON object's order does not survive canonical JSON (sorted keys), so what an event
        records for the battle to be fought again keeps it in a list."""
        out = self.to_json()
        out["squads"] = [{**s.to_json(), "units": [[u, n] for u, n in s.units.items()]} for s in self.squads]
        return out

    @staticmethod
    def from_json(raw: dict[str, Any]) -> SideInput:
        return SideInput(str(raw["name"]), str(raw["faction"]),
                         tuple(SquadInput.from_json(s) for s in raw["squads"]),
                         tuple(Manoeuvre.from_json(m) for m in raw.get("plan", ())),
                         raw.get("gunpowder"), bool(raw.get("garrison", False)),
                         {str(k): float(v) for k, v in raw.get("modifiers", {}).items()},
                         tuple(PowderShare.from_json(p) for p in raw.get("powder", ())),
                         tuple(Note.from_json(n) for n in raw.get("notes", ())))


@dataclass(frozen=True)
class BattleOptions:
    """The named options of docs/rulings/steel_rose.md (a game master may flip them)."""

    paladin_defending_whole_battle: bool = False
    demonologist_summons_in_battle: bool = True
    recovery_for_loser: bool = True
    outnumber_in_final_melee: bool = True

    @staticmethod
    def from_config(config: dict[str, Any]) -> BattleOptions:
        known = BattleOptions.__dataclass_fields__
        return BattleOptions(**{k: bool(v) for k, v in config.items() if k in known})
