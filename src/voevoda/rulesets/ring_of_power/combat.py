"""«Боестолкновение»: battles decided by strength, without dice.

«Отряды гибнут по мере убывания их силы. Уровень силы показывает сколько более слабых
отрядов может уничтожить более сильный отряд, прежде чем сам будет уничтожен.»

Two sides line up their units (the weakest first, by default: docs/rulings) and the
front units meet: the stronger one destroys the weaker and keeps the difference of
their strengths; equal ones destroy each other. That reproduces the document's
examples — a queen (4) destroys two condottieri (2+2) and dies herself; against two
officers she destroys one and dies; a condottiere kills one pawn and lives, kills two
and dies — and means the side with the greater total strength survives while equal
totals destroy both. Damage does not outlast the battle.

With more than two sides the two weakest fight first and the survivor meets the next
weakest, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Fighter:
    unit: int
    strength: int
    group: int = 0
    """0 for the stack whose battle it is, 1 for its supporters: breaks strength ties
    in the order units enter the fight."""


@dataclass
class Side:
    player: str
    fighters: list[Fighter] = field(default_factory=list)

    @property
    def strength(self) -> int:
        return sum(f.strength for f in self.fighters)


@dataclass
class BattleResult:
    winner: str | None
    killed: list[int]
    survivors: list[int]
    strengths: dict[str, int]


def _line_up(side: Side, order: str) -> list[list[int]]:
    ordered = sorted(side.fighters, key=lambda f: (f.strength if order == "weakest_first" else -f.strength,
                                                   f.group, f.unit))
    return [[f.unit, f.strength] for f in ordered]


def duel(a: list[list[int]], b: list[list[int]]) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Front units meet until one line is empty; returns what is left of each line
    (with the remaining strength of the front unit) and the units destroyed."""
    a = [list(x) for x in a]
    b = [list(x) for x in b]
    killed: list[int] = []
    while a and b:
        fa, fb = a[0], b[0]
        if fa[1] > fb[1]:
            fa[1] -= fb[1]
            killed.append(fb[0])
            b.pop(0)
        elif fb[1] > fa[1]:
            fb[1] -= fa[1]
            killed.append(fa[0])
            a.pop(0)
        else:
            killed.extend([fa[0], fb[0]])
            a.pop(0)
            b.pop(0)
    return a, b, killed


def battle(sides: list[Side], order: str = "weakest_first") -> BattleResult:
    strengths = {s.player: s.strength for s in sides}
    queue = sorted(sides, key=lambda s: (s.strength, s.player))
    killed: list[int] = []
    holder: tuple[str, list[list[int]]] | None = None
    for side in queue:
        line = _line_up(side, order)
        if holder is None:
            holder = (side.player, line)
            continue
        left, right, dead = duel(holder[1], line)
        killed.extend(dead)
        if left:
            holder = (holder[0], left)
        elif right:
            holder = (side.player, right)
        else:
            holder = None
    if holder is None:
        return BattleResult(None, killed, [], strengths)
    return BattleResult(holder[0], killed, [u for u, _ in holder[1]], strengths)
