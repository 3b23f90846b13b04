"""A viewer's view as a person reads it: what ``voevoda show`` prints (``--json`` gives the view
itself, for programs).

:func:`outline` turns any view into indented ``key: value`` lines: nested tables become
indented blocks, short lists one line, a list of small records one line each, and long runs of
plain values (a map's 400 incomes, a fog list) are cut with their count, since ``--json`` has
them whole. A ruleset may write its own :meth:`~voevoda.core.ruleset.Ruleset.summary`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

LONG = 12
"""Plain values shown of a long list or table before it is cut."""


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "да / yes" if value else "нет / no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _flat(record: Mapping[str, Any]) -> bool:
    return all(_is_scalar(v) or (isinstance(v, list) and all(_is_scalar(x) for x in v) and len(v) <= 4)
               for v in record.values())


def _inline(record: Mapping[str, Any]) -> str:
    parts = []
    for k, v in record.items():
        shown = (", ".join(_scalar(x) for x in v) or "—") if isinstance(v, list) else _scalar(v)
        parts.append(f"{k} {shown}")
    return "; ".join(parts)


def _cut(items: Sequence[str]) -> str:
    if len(items) <= LONG:
        return ", ".join(items)
    return ", ".join(items[:LONG]) + f", … (всего / in all {len(items)})"


def outline(value: Any, indent: int = 0) -> list[str]:
    """Indented lines for ``value`` (a view, or any part of one)."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        if value and all(_is_scalar(v) for v in value.values()) and len(value) > LONG:
            return [pad + _cut([f"{k} {_scalar(v)}" for k, v in value.items()])]
        for key, item in value.items():
            if _is_scalar(item):
                lines.append(f"{pad}{key}: {_scalar(item)}")
            elif isinstance(item, Mapping) and not item:
                lines.append(f"{pad}{key}: —")
            elif isinstance(item, Mapping) and _flat(item) and len(item) <= 6:
                lines.append(f"{pad}{key}: {_inline(item)}")
            elif isinstance(item, list) and all(_is_scalar(x) for x in item):
                lines.append(f"{pad}{key}: {_cut([_scalar(x) for x in item]) if item else '—'}")
            else:
                lines.append(f"{pad}{key}:")
                lines.extend(outline(item, indent + 1))
        return lines
    if isinstance(value, list):
        shown = value[:LONG * 4]
        for item in shown:
            if isinstance(item, Mapping) and _flat(item):
                lines.append(f"{pad}- {_inline(item)}")
            elif _is_scalar(item):
                lines.append(f"{pad}- {_scalar(item)}")
            else:
                lines.append(f"{pad}-")
                lines.extend(outline(item, indent + 1))
        if len(value) > len(shown):
            lines.append(f"{pad}… (всего / in all {len(value)}; --json: всё / everything)")
        return lines
    return [pad + _scalar(value)]
