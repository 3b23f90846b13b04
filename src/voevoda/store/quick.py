"""Reading a game from a SQLite store without SQLAlchemy or Alembic.

``voevoda status`` (and every command that only reads a game) must answer at once; importing
SQLAlchemy's ORM and Alembic alone takes longer than the whole answer may (benchmarks/
cli_startup.py). For a SQLite file already at the newest schema, the game's header and journal
are read here with the standard library's ``sqlite3``, read-only, in one transaction (WAL: the
last committed snapshot, never waiting for a writer). Anything else — a PostgreSQL URL, a file
that does not exist yet, a schema that needs migrating, a table that looks different — answers
``None`` and the caller goes through :class:`voevoda.store.db.Store`, which handles all of it.
`status` and `show` read the committed state with the journal (:func:`load_standing`) and print it
without replaying the journal when :mod:`voevoda.core.standing` finds it safe.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from voevoda.core.errors import GameError

if TYPE_CHECKING:
    from voevoda.core.journal import GameRecord
    from voevoda.core.standing import Standing

SCHEMA_HEAD = "0007"
"""The newest Alembic revision (tests/store/test_quick.py keeps it equal to the migrations')."""

DEFAULT_URL = "sqlite:///voevoda.db"
ENV_VAR = "VOEVODA_DATABASE_URL"


def sqlite_path(url: str | None) -> Path | None:
    """The file of a SQLite store named by ``--db`` (or the environment, or the default), or
    ``None`` when the store is not a plain SQLite file."""
    chosen = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    if "://" not in chosen:
        return Path(chosen)
    if chosen.startswith("sqlite:///") and "?" not in chosen:
        rest = chosen[len("sqlite:///"):]
        return Path(rest) if rest and rest != ":memory:" else None
    return None


def load_record(url: str | None, name: str) -> GameRecord | None:
    """The stored game ``name`` as a record, read straight from a SQLite file at the newest
    schema; ``None`` when this quick path does not apply. A game that is not there is a
    :class:`GameError`, as in the store."""
    read = _read(url, name)
    return None if read is None else read[0]


def load_standing(url: str | None, name: str) -> Standing | None:
    """The stored game ``name`` as it stands, from its committed state and without replaying
    its journal (:mod:`voevoda.core.standing`); ``None`` when this quick path does not apply or
    the game must be replayed. A game that is not there is a :class:`GameError`."""
    read = _read(url, name)
    if read is None:
        return None
    from voevoda.core.standing import standing

    return standing(*read)


_NOT_HERE = object()
"""What :func:`_read_one` answers when the quick path does not apply."""


def _read_one(url: str | None, query: str, *params: Any) -> Any:
    """The first row of ``query`` on a SQLite file opened read-only (``None`` when none matches),
    or :data:`_NOT_HERE` when this quick path does not apply: no SQLite file, another schema
    revision, any SQLite error."""
    path = sqlite_path(url)
    if path is None or not path.is_file():
        return _NOT_HERE
    try:
        connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=60)
    except sqlite3.Error:
        return _NOT_HERE
    try:
        version = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        if [row[0] for row in version] != [SCHEMA_HEAD]:
            return _NOT_HERE
        return connection.execute(query, params).fetchone()
    except sqlite3.Error:
        return _NOT_HERE
    finally:
        connection.close()


def read_step(url: str | None, name: str) -> int | None:
    """How many steps the game ``name`` has resolved, as last committed, read straight from a
    SQLite file in a millisecond (a command names the step it means as soon as it starts);
    ``None`` when this quick path does not apply. A game that is not there is a
    :class:`GameError`."""
    row = _read_one(url, "SELECT step FROM games WHERE name = ?", name)
    if row is _NOT_HERE:
        return None
    if row is None:
        raise GameError(f"нет игры «{name}»", f"no game named '{name}'")
    return int(row[0])


def has_schedule(url: str | None, name: str) -> bool | None:
    """Whether the game ``name`` has a schedule (docs/clock.md), read straight from a SQLite file;
    ``None`` when this quick path does not apply (the caller asks the service)."""
    row = _read_one(url, "SELECT 1 FROM clock_schedules JOIN games ON games.id = clock_schedules.game_id "
                         "WHERE games.name = ?", name)
    if row is _NOT_HERE:
        return None
    return row is not None


def _read(url: str | None, name: str) -> tuple[GameRecord, str, str, int, int] | None:
    """The game's record, its committed state (text) and that state's hash, step and number of
    journal entries, all from one snapshot of the file."""
    path = sqlite_path(url)
    if path is None or not path.is_file():
        return None
    try:
        connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=60)
    except sqlite3.Error:
        return None
    try:
        connection.execute("BEGIN")
        version = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        if [row[0] for row in version] != [SCHEMA_HEAD]:
            return None
        row = connection.execute("SELECT id, header, state, state_hash, step, entry_count FROM games WHERE name = ?",
                                 (name,)).fetchone()
        if row is None:
            raise GameError(f"нет игры «{name}»", f"no game named '{name}'")
        entries = [json.loads(text) for (text,) in connection.execute(
            "SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (row[0],))]
        header = json.loads(row[1])
        state, stored_hash, step, entry_count = str(row[2]), str(row[3]), int(row[4]), int(row[5])
    except (sqlite3.Error, ValueError, TypeError):
        return None
    finally:
        connection.close()
    from voevoda.core.journal import Entry, GameRecord

    record = GameRecord.model_validate({**header, "entries": [Entry.model_validate(e) for e in entries]})
    return record, state, stored_hash, step, entry_count
