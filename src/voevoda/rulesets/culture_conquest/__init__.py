"""Culture & Conquest (Культура и Завоевание): the 50-turn dice civilisation.

The twelve phases are in :mod:`.phases`, the tables in ``data/*.toml``, the computer
opponents in :mod:`.bots` and a fast whole-game runner in :mod:`.simulate`.
"""

from .ruleset import CultureConquest

RULESET = CultureConquest

__all__ = ["RULESET", "CultureConquest"]
