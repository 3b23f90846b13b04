"""What every part of the Thrones ruleset needs at hand: the rules data, the options, the board."""

from __future__ import annotations

from dataclasses import dataclass

from voevoda.rulesets.thrones.board import Board
from voevoda.rulesets.thrones.rules import Options, Rules

RULE = "001"


def rule(section: str) -> str:
    """A citation of the rules document: «001 «Торговые операции»»."""
    return f"{RULE} «{section}»"


def ruling(number: int) -> str:
    return f"docs/rulings/thrones.md T{number}"


@dataclass(frozen=True)
class Ctx:
    rules: Rules
    options: Options
    board: Board

    @property
    def turns(self) -> int:
        return self.options.turns or self.rules.game.turns

    def unit_name(self, kind: str, lang: str) -> str:
        return self.rules.units[kind].name(lang)

    def area_name(self, area: str, lang: str) -> str:
        return self.board[area].name(lang) if area in self.board else area
