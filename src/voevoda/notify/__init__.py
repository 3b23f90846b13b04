"""Notifications: the outbox and what it announces (issue 26; docs/notify.md).

What must be announced is written into the ``outbox`` table in the same transaction as the
change it announces, so that nothing announced is lost and nothing is announced that did not
happen; the worker delivers it later, with retries, to each receiver's channels, each receiver
getting what its own view shows.

- :func:`record_changes` is the store's announcer (:meth:`voevoda.store.db.Store.change`): the
  journal entries a change appended become announcements (a post stored, a step resolved, rolled
  back, reopened, edited, revealed).
- :func:`announce` writes one announcement into a transaction the caller holds (the clock's: a
  deadline near, a game paused, a seat in civil disorder).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import Table
from sqlalchemy import insert as generic_insert
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from voevoda.store.models import OutboxRow

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from voevoda.core.engine import Game
    from voevoda.core.journal import Entry

Kind = Literal["post", "resolved", "rolled-back", "reopened", "edited", "revealed",
               "deadline", "paused", "resumed", "extended", "civil-disorder", "delivery-failing"]
"""What an announcement says happened."""

PUBLIC = "public"
GAME_MASTER = "gm"


def seat_audience(player: str) -> str:
    """The audience of one seat: its player (and the game master, who sees everything)."""
    return f"seat:{player}"


@dataclass(frozen=True)
class Announcement:
    """One outbox row before it is written. ``payload`` holds only what ``audience`` may see."""

    key: str
    kind: Kind
    audience: str
    game_id: int | None = None
    step: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)


def announce(session: Session, announcement: Announcement, *, at: datetime | None = None) -> None:
    """Add ``announcement`` to the caller's transaction; the same key written again is kept
    once (the first one stands)."""
    values = {"key": announcement.key, "game_id": announcement.game_id, "kind": announcement.kind,
              "step": announcement.step, "audience": announcement.audience,
              "payload": announcement.payload, "created_at": at or datetime.now(UTC)}
    connection = session.connection()  # a plain insert on the transaction's connection: no ORM objects
    dialect = connection.dialect.name
    if dialect in _INSERTS:
        connection.execute(_INSERTS[dialect], values)
    else:  # pragma: no cover - the store runs on SQLite and PostgreSQL only
        if session.query(OutboxRow.id).filter(OutboxRow.key == announcement.key).first() is None:
            connection.execute(generic_insert(_OUTBOX), values)


_OUTBOX: Table = OutboxRow.__table__  # type: ignore[assignment]
_INSERTS = {
    "postgresql": postgresql_insert(_OUTBOX).on_conflict_do_nothing(index_elements=["key"]),
    "sqlite": sqlite_insert(_OUTBOX).on_conflict_do_nothing(index_elements=["key"]),
}
"""The outbox's insert, built once (SQLAlchemy reuses its compiled form): a key already there is
kept."""


def announcements_of(game_id: int, game: Game, first: int) -> list[Announcement]:
    """What the journal entries from index ``first`` on announce. A computer opponent's post
    announces nothing (nobody waits for it)."""
    found: list[Announcement] = []
    entries = game.record.entries
    for seq in range(first, len(entries)):
        made = _announcement(game_id, game, seq, entries[seq])
        if made is not None:
            found.append(made)
    return found


def _announcement(game_id: int, game: Game, seq: int, entry: Entry) -> Announcement | None:
    key = f"game{game_id}:entry{seq}"
    if entry.kind == "submit":
        if entry.source == "bot" or entry.player is None:
            return None
        return Announcement(key, "post", seat_audience(entry.player), game_id, entry.step,
                            {"player": entry.player, "at": entry.at, "follow_up": bool(entry.follow_up),
                             "by_game_master": entry.source == "gm"})
    if entry.kind == "resolve":
        number = entry.step or game.step_number
        if not 1 <= number <= len(game.steps):
            return None
        return Announcement(key, "resolved", PUBLIC, game_id, number, game.steps[number - 1].notice())
    if entry.kind == "rollback":
        undone = entry.step or game.step_number + 1  # the step it undid (the last resolved)
        return Announcement(key, "rolled-back", PUBLIC, game_id, undone,
                            {"reason": entry.reason or "", "at": entry.at})
    if entry.kind == "reopen":
        if entry.player is None:
            return None
        return Announcement(key, "reopened", seat_audience(entry.player), game_id, entry.step,
                            {"player": entry.player, "reason": entry.reason or "", "at": entry.at})
    if entry.kind == "edit":
        return Announcement(key, "edited", PUBLIC, game_id, entry.step, {"reason": entry.reason or "", "at": entry.at})
    if entry.kind == "reveal":
        return Announcement(key, "revealed", PUBLIC, game_id, entry.step, {"at": entry.at})
    return None


def record_changes(session: Session, game_id: int, game: Game, first: int) -> None:
    """The store's announcer: every announcement of the entries a change appended, written into
    its transaction."""
    for made in announcements_of(game_id, game, first):
        announce(session, made)


__all__ = ["GAME_MASTER", "PUBLIC", "Announcement", "Kind", "announce", "announcements_of",
           "record_changes", "seat_audience"]
