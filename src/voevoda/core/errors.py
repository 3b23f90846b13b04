"""Errors a person can act on: each names where it is and says what is wrong in
Russian and English.

Like python-chess, input is sorted into three kinds: text that cannot be read
(``invalid``), orders that break a rule (``illegal``) and text that could mean two
things (``ambiguous``). A post is parsed whole and every problem is collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ProblemKind = Literal["invalid", "illegal", "ambiguous", "warning"]
"""``warning`` is never a reason to refuse: something the rules expect that a post leaves out."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a post or an order."""

    kind: ProblemKind
    message_ru: str
    message_en: str
    line: int | None = None
    column: int | None = None
    order: str | None = None
    rule: str | None = None

    def where(self) -> str:
        if self.line is None:
            return ""
        return f"{self.line}:{self.column}" if self.column is not None else f"{self.line}"

    def format(self, lang: str = "ru") -> str:
        message = self.message_ru if lang == "ru" else self.message_en
        parts = []
        if self.line is not None:
            parts.append(("строка " if lang == "ru" else "line ") + self.where())
        if self.order:
            parts.append(f"«{self.order}»")
        head = ", ".join(parts)
        tail = f" [{self.rule}]" if self.rule else ""
        return f"{head}: {message}{tail}" if head else f"{message}{tail}"

    def both(self) -> str:
        """Russian first, English second, as the CLI and the web print it."""
        return f"{self.format('ru')}\n    {self.format('en')}"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "line": self.line,
            "column": self.column,
            "order": self.order,
            "rule": self.rule,
            "message_ru": self.message_ru,
            "message_en": self.message_en,
        }


def invalid(ru: str, en: str, line: int | None = None, column: int | None = None,
            order: str | None = None, rule: str | None = None) -> Problem:
    return Problem("invalid", ru, en, line, column, order, rule)


def illegal(ru: str, en: str, line: int | None = None, column: int | None = None,
            order: str | None = None, rule: str | None = None) -> Problem:
    return Problem("illegal", ru, en, line, column, order, rule)


def ambiguous(ru: str, en: str, line: int | None = None, column: int | None = None,
              order: str | None = None, rule: str | None = None) -> Problem:
    return Problem("ambiguous", ru, en, line, column, order, rule)


def warning(ru: str, en: str, line: int | None = None, column: int | None = None,
            order: str | None = None, rule: str | None = None) -> Problem:
    return Problem("warning", ru, en, line, column, order, rule)


class VoevodaError(Exception):
    """Base of every error the engine raises on purpose."""


@dataclass
class OrdersRejected(VoevodaError):
    """A post that cannot be accepted; nothing was stored."""

    problems: list[Problem]
    understood: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    """Lines of the post not read as orders, as «N: text» (filled in by the engine)."""
    unbold: list[int] = field(default_factory=list)
    """The numbers of those lines that were not read because nothing on them is bold (a
    bold-only game; filled in by the engine)."""
    orders: list[Any] = field(default_factory=list)
    """The orders (:class:`voevoda.core.ruleset.Order`) a ruleset's reader understood of the rest
    of the post: the engine checks them against the rules too, so that a post gets its reading
    errors and its rule errors in one answer, and keeps them when its refused lines are void
    (docs/posts.md «A post keeps its good lines»)."""

    def __str__(self) -> str:
        return "\n".join(p.both() for p in self.problems)


class ParseError(OrdersRejected):
    """Raised by a ruleset's ``parse`` with every problem of the post."""


class GameError(VoevodaError):
    """A request that does not fit the game's current state (wrong player, no such
    game, nothing to roll back, ...). ``message_ru`` and ``message_en`` are shown."""

    def __init__(self, message_ru: str, message_en: str) -> None:
        super().__init__(f"{message_ru} / {message_en}")
        self.message_ru = message_ru
        self.message_en = message_en


class AlreadyDone(GameError):
    """The action names a step that another action has resolved, rolled back or moved past
    meanwhile: nothing was done (the web answers 409 Conflict)."""


class DataError(VoevodaError):
    """A data, house-rules, config or save file that does not validate; the message
    names the file and the field."""
