"""Bounds on what a file may claim.

Every file voevoda reads from a person (house rules, game config, battle files, exports to
verify or import, patches) is plain data first: tables, lists, strings, numbers. Before a
model validates its meaning, :func:`plain_problem` bounds its shape — nesting depth, size,
the magnitude of every number, the length of every string — so that a hostile or broken file
gets a clear error naming the field instead of a traceback, a hang or a number that makes
every later step crash.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

MAX_DEPTH = 32
"""No real file nests tables deeper than this."""
MAX_NODES = 2_000_000
MAX_STRING = 1_000_000
DATA_INT = 10**9
"""The largest magnitude of a number in rules data, config or a battle file."""
EXPORT_INT = 10**15
"""The largest magnitude of a number in an export (faces, money, counters)."""


def _where(path: list[str | int]) -> str:
    return ".".join(str(p) for p in path) or "(root)"


def plain_problem(value: Any, *, max_int: int = DATA_INT, max_depth: int = MAX_DEPTH,
                  max_nodes: int = MAX_NODES, max_string: int = MAX_STRING) -> str | None:
    """The first thing out of bounds in ``value`` (its path and what is wrong), or None.

    Walks without recursion, so a file nested a million levels deep is answered, not
    crashed on. Numbers must be finite and at most ``max_int`` in magnitude; strings at
    most ``max_string`` characters; the whole at most ``max_nodes`` values."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    seen = 0
    while stack:
        item, path = stack.pop()
        seen += 1
        if seen > max_nodes:
            return f"{_where(path)}: the file holds more than {max_nodes:,} values"
        if len(path) > max_depth:
            return f"{_where(path[:max_depth])}: nested deeper than {max_depth} levels"
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if abs(item) > max_int:
                return f"{_where(path)}: {_short(item)} is out of bounds (at most {max_int:,} in magnitude)"
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > max_int:
                return f"{_where(path)}: {item!r} is out of bounds (a finite number up to {max_int:,})"
        elif isinstance(item, str):
            if len(item) > max_string:
                return f"{_where(path)}: a text of {len(item):,} characters (at most {max_string:,})"
        elif isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    return f"{_where(path)}: a key that is not text ({_short(key)})"
                if len(key) > 1000:
                    return f"{_where(path)}: a key of {len(key):,} characters"
                stack.append((child, [*path, key]))
        elif isinstance(item, list | tuple):
            for index, child in enumerate(item):
                stack.append((child, [*path, index]))
        else:
            # datetimes and dates from TOML or YAML: plain enough, never numbers
            continue
    return None


def _short(value: Any) -> str:
    if isinstance(value, int) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}…({len(text)} characters)"


# -- building blocks for state schemas (``Ruleset.state_model``) -----------------------------

class StrictModel(BaseModel):
    """A part of a game's state: exact types (no string where a number belongs), no unknown
    keys (a misspelt field in a GM's patch is refused rather than ignored)."""

    # defer_build: a schema's validator is built when a state is first checked (an edit, an
    # import, a resolution), not when the ruleset is imported for `voevoda status`
    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)


Count = Annotated[int, Field(ge=0, le=DATA_INT)]
"""How many of something: never negative."""
Amount = Annotated[int, Field(ge=-DATA_INT, le=DATA_INT)]
"""A signed quantity (money that may run short, a modifier)."""
Name = Annotated[str, Field(min_length=1, max_length=200)]
"""A player's, unit's or place's name."""
