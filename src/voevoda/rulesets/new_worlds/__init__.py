"""Новые Миры: Искусство Войны (New Worlds: The Art of War) — the game master's ledger for a
roll-based forum map game (docs/new_worlds.md)."""

from voevoda.rulesets.new_worlds.ruleset import NewWorlds

RULESET = NewWorlds

__all__ = ["RULESET", "NewWorlds"]
