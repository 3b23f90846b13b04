"""Игра престолов, дополнение «Дипломатия и торговля» (A Game of Thrones, Diplomacy and Trade):
the companion of the board game's second edition that keeps the expansion's economy, diplomacy,
trade in troops, holy lands, fourth Westeros deck and bribes (docs/thrones.md)."""

from voevoda.rulesets.thrones.ruleset import Thrones

RULESET = Thrones

__all__ = ["RULESET", "Thrones"]
