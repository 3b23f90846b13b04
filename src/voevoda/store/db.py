"""Games in a database.

Every change is one transaction that holds the game's row lock from the moment the
journal is read until the new entries and the cached state are committed: a process
killed in the middle leaves the previous turn exactly as it was, and two players
posting at the same moment are serialised so that both posts land.

SQLite (the default, ``./voevoda.db``) takes its write lock at ``BEGIN IMMEDIATE``;
PostgreSQL locks the game's row with ``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, defer, sessionmaker

from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.core.journal import Entry, GameRecord, state_hash, stored_json
from voevoda.store.models import EntryRow, GameRow

Announcer = Callable[[Session, int, Game, int], None]
"""Writes what a change announces into its transaction (see :meth:`Store.change`)."""

LOCK_PATIENCE = 120.0
"""Seconds a change waits in the queue for a game's lock before it gives up (:class:`NotStored`)."""


class NotStored(GameError):
    """The database stayed busy for longer than a writer waits: nothing was stored, and the
    person is told to send it again (never «the database is unavailable»)."""

    def __init__(self) -> None:
        super().__init__("не сохранено: база данных занята другими записями; отправьте ещё раз",
                         "not stored: the database is busy with other writes; send it again")


class _Busy(Exception):
    """The game's lock could not be taken now (SQLite «database is locked», PostgreSQL lock
    timeout): the change waits and tries again."""


def _is_busy(exc: OperationalError) -> bool:
    text = str(exc.orig).lower()
    return "database is locked" in text or "database table is locked" in text or "lock timeout" in text \
        or "could not obtain lock" in text or "deadlock detected" in text


_ENTRIES: Any = EntryRow.__table__
_GAMES: Any = GameRow.__table__

DEFAULT_URL = "sqlite:///voevoda.db"
ENV_VAR = "VOEVODA_DATABASE_URL"
MIGRATIONS = Path(__file__).parent / "migrations"
_PG_MIGRATION_LOCK = 0x766F65766F6461  # "voevoda"


def resolve_url(url: str | None = None) -> str:
    """``--db`` wins, then ``VOEVODA_DATABASE_URL``, then ``./voevoda.db``. A bare
    path means a SQLite file; ``postgresql://`` uses the psycopg 3 driver."""
    chosen = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    if "://" not in chosen:
        return f"sqlite:///{chosen}"
    if chosen.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + chosen.split("://", 1)[1]
    return chosen


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class _Snapshot:
    """The one read connection the plain reads of a request share (:meth:`Store.snapshot`),
    opened at the first of them."""

    __slots__ = ("connection", "lock", "store")

    def __init__(self, store: Store) -> None:
        self.store = store
        self.connection: Any = None
        self.lock = threading.Lock()  # the loop and a thread the request waits for may both end it

    def close(self) -> None:
        with self.lock:
            connection, self.connection = self.connection, None
        if connection is not None:
            connection.close()


_SNAPSHOT: ContextVar[_Snapshot | None] = ContextVar("voevoda_read_snapshot", default=None)


def _running_loop() -> Any:
    """The event loop running in this thread, or ``None`` (no loop here, or asyncio not even
    imported: a command line's reads)."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # not the event loop's thread
        return None


class Store:
    """Games kept in one database."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = resolve_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = create_engine(self.url, connect_args={"timeout": 60})
            self._sqlite_transactions(self.engine, "BEGIN IMMEDIATE")
            self.read_engine: Engine = create_engine(self.url, connect_args={"timeout": 60})
            self._sqlite_transactions(self.read_engine, "BEGIN")
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True)
            self.read_engine = self.engine
        event.listen(self.engine, "begin", self._end_snapshot, insert=True)  # before BEGIN IMMEDIATE waits
        self._loop_snapshots: weakref.WeakKeyDictionary[Any, _Snapshot] = weakref.WeakKeyDictionary()
        """The request snapshot holding a connection on each event loop (:meth:`read_connection`)."""
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.reads = sessionmaker(self.read_engine, expire_on_commit=False)
        """Read-only sessions: on SQLite they read the last committed snapshot (WAL) without
        waiting for a writer, so a command can name the step it means while another process
        holds the game's lock."""
        if migrate:
            self.migrate()

    @staticmethod
    def _sqlite_transactions(engine: Engine, begin: str) -> None:
        # pysqlite's own transaction handling starts transactions lazily and in
        # DEFERRED mode; the writing engine takes the write lock at BEGIN IMMEDIATE so that
        # a read-modify-write cannot interleave with another process, the reading engine
        # reads one consistent snapshot.
        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        if begin == "BEGIN":  # a reader's snapshot: straight on the driver's connection (it cannot be refused)
            @event.listens_for(engine, "begin")
            def _begin_read(connection: Any) -> None:
                connection.connection.driver_connection.execute(begin)
        else:  # through SQLAlchemy, so that a busy database raises its OperationalError, which the store tells
            @event.listens_for(engine, "begin")
            def _begin(connection: Any) -> None:
                connection.exec_driver_sql(begin)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (a store already there is not
        locked: opening it never waits for a process that holds a game's lock)."""
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        head = ScriptDirectory.from_config(config).get_current_head()
        with self.read_engine.connect() as connection:
            if MigrationContext.configure(connection).get_current_revision() == head:
                return
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def read_connection(self) -> Iterator[Any]:
        """A connection for a few plain reads (no ORM objects): the last committed snapshot on
        SQLite, never waiting for a writer. Inside :meth:`snapshot`, on the event loop's thread,
        the one connection of the snapshot."""
        shared = _SNAPSHOT.get()
        if shared is None or shared.store is not self:
            with self.read_engine.connect() as connection:
                yield connection
            return
        loop = _running_loop()
        if loop is None:  # a thread the request waits for: the loop's connection is idle meanwhile
            shared.close()
            with self.read_engine.connect() as connection:
                yield connection
            return
        if shared.connection is None:
            # one open on a loop at a time: another request's is idle now (it waits, or this
            # code would not run), and many requests ready in one turn of the loop would
            # otherwise each hold one until the next turn, past the size of the pool
            before = self._loop_snapshots.get(loop)
            if before is not None and before is not shared:
                before.close()
            shared.connection = self.read_engine.connect()
            self._loop_snapshots[loop] = shared
            loop.call_soon(shared.close)  # at the latest when the loop turns: never held while waiting
        try:
            yield shared.connection
        except BaseException:
            shared.close()  # a read that failed leaves no half-used transaction to the next
            raise

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """The plain reads of a request on the event loop (:meth:`read_connection`: who a session
        is, what an actor holds in a game, the deadline card) share one connection, opened at the
        first of them: a page pays for one connection and reads one snapshot of the database.
        The connection goes back to the pool whenever the request waits — :meth:`pause_snapshot`
        (the web app calls it before it reads a request's body or sends its answer), a read in
        another thread, another request's read on the same loop, the loop's next turn — so a
        loop holds at most one at a time and requests in flight hold none while they wait: they
        never empty the pool. A write that begins inside gives it back too; the reads after it
        open a new one and see the write. (A request whose reads are split by a wait may read
        two snapshots, each of them consistent.)"""
        if _SNAPSHOT.get() is not None:
            yield
            return
        shared = _Snapshot(self)
        token = _SNAPSHOT.set(shared)
        try:
            yield
        finally:
            _SNAPSHOT.reset(token)
            shared.close()

    @staticmethod
    def pause_snapshot() -> None:
        """The request is about to wait: the snapshot's connection goes back to the pool (the
        next read opens another)."""
        shared = _SNAPSHOT.get()
        if shared is not None:
            shared.close()

    def _end_snapshot(self, connection: Any) -> None:
        """A transaction begins on the writing engine: the reads before it are over."""
        shared = _SNAPSHOT.get()
        if shared is not None and shared.store is self and shared.connection is not None \
                and shared.connection is not connection:
            shared.close()

    # -- games ------------------------------------------------------------------

    def create(self, game: Game) -> None:
        record = game.record
        header = record.model_dump(mode="json", exclude={"entries"})
        stamp = datetime.now(UTC)
        try:
            with self.sessions.begin() as session:
                if session.scalar(select(GameRow.id).where(GameRow.name == record.name)) is not None:
                    raise GameError(f"игра «{record.name}» уже есть", f"a game named '{record.name}' exists")
                row = GameRow(name=record.name, ruleset=record.ruleset, header=header,
                              state=stored_json(game.state), state_hash=state_hash(game.state),
                              step=game.step_number, entry_count=len(record.entries),
                              created_at=stamp, updated_at=stamp)
                session.add(row)
                session.flush()
                for seq, entry in enumerate(record.entries):
                    session.add(EntryRow(game_id=row.id, seq=seq, entry=entry.model_dump(mode="json")))
        except IntegrityError as exc:
            raise GameError(f"игра «{record.name}» уже есть", f"a game named '{record.name}' exists") from exc

    def names(self) -> list[tuple[str, str, int]]:
        with self.reads() as session:
            rows = session.execute(select(GameRow.name, GameRow.ruleset, GameRow.step).order_by(GameRow.name))
            return [(r.name, r.ruleset, r.step) for r in rows]

    def load_version(self, name: str, base: Game, version: tuple[int, str, int]) -> Game:
        """``base`` itself when it is the game ``name`` at ``version`` (its row and number of
        entries, just read by the caller), else :meth:`load`."""
        if base.store_key == (self.url, version[0], version[1]) and len(base.record.entries) == version[2]:
            return base
        return self.load(name, base)

    def load(self, name: str, base: Game | None = None) -> Game:
        """The game rebuilt by replaying its journal. With ``base``, a game of this store read
        earlier (:attr:`Game.store_key` says which row it came from), only the entries stored
        since are applied to a copy of it (the journal is append-only), or ``base`` itself is
        given back when nothing was stored since."""
        with self.reads() as session:
            row = self._row(session, name, lock=False, light=True)
            return self._game(session, row, base, copy=False)

    def current_step(self, name: str) -> int:
        """How many steps the game has resolved, as last committed (read without the lock:
        a caller names the step it means before taking the lock, and the engine refuses the
        action if another process resolved that step meanwhile)."""
        with self.reads() as session:
            return self._row(session, name, lock=False).step

    def stored_state(self, name: str) -> tuple[str, str]:
        """The cached state (:func:`~voevoda.core.journal.stored_json`) and its hash, as last
        committed."""
        with self.reads() as session:
            row = self._row(session, name, lock=False)
            return row.state, row.state_hash

    @contextmanager
    def change(self, name: str, base: Game | None = None, *,
               announce: Announcer | None = None) -> Iterator[Game]:
        """Lock the game, hand it over rebuilt, and commit whatever it appended to its
        journal, all in one transaction. An exception inside stores nothing.

        With ``base`` (a game of this store read earlier, see :meth:`load`), the game handed
        over is a copy of it brought up to date inside the lock, instead of a replay of the
        whole journal: the lock is held only for the action itself. Writers queue for the lock
        (:data:`LOCK_PATIENCE`); a change that still cannot get it raises :class:`NotStored`.

        ``announce`` (:func:`voevoda.notify.record_changes`) is called with the transaction, the
        game's row id, the game and the index of its first new journal entry when the change
        appended any: what it adds to the session (the outbox's rows) is committed with the
        change, or not at all."""
        session, row = self._locked(name)
        try:
            game = self._game(session, row, base, copy=True)
            before = len(game.record.entries)
            state_before = game.state
            yield game
            if len(game.record.entries) != before:
                # plain inserts and one update on the transaction's connection: no ORM unit of
                # work for the journal's new entries (a post near a deadline is one of them)
                connection = session.connection()
                connection.execute(_ENTRIES.insert(), [
                    {"game_id": row.id, "seq": seq, "entry": game.record.entries[seq].model_dump(mode="json")}
                    for seq in range(before, len(game.record.entries))])
                values: dict[str, Any] = {"step": game.step_number, "entry_count": len(game.record.entries),
                                          "updated_at": datetime.now(UTC)}
                if game.state is not state_before or base is None:
                    # a post leaves the state as it was (the engine never changes one in place):
                    # only a resolution, an edit or a rollback writes it again
                    values.update(state=stored_json(game.state), state_hash=state_hash(game.state))
                connection.execute(_GAMES.update().where(_GAMES.c.id == row.id).values(values))
                if announce is not None:
                    announce(session, row.id, game, before)
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def _locked(self, name: str) -> tuple[Session, GameRow]:
        """A transaction holding the lock of the game ``name``, and its row: SQLite's write lock
        (``BEGIN IMMEDIATE``), PostgreSQL's row lock. While another writer holds it the change
        waits in line, trying again with a growing pause, for :data:`LOCK_PATIENCE` seconds."""
        deadline = time.monotonic() + LOCK_PATIENCE
        delay = 0.05
        while True:
            session = self.sessions()
            try:
                session.begin()
                return session, self._row(session, name, lock=True)
            except _Busy:
                session.close()
                if time.monotonic() >= deadline:
                    raise NotStored() from None
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
            except BaseException:
                session.close()
                raise

    def delete(self, name: str) -> None:
        with self.sessions.begin() as session:
            row = self._row(session, name, lock=True)
            session.query(EntryRow).filter(EntryRow.game_id == row.id).delete()
            session.delete(row)

    def import_record(self, record: GameRecord) -> Game:
        game = Game(record)
        self.create(game)
        return game

    def count_entries(self, name: str) -> int:
        with self.reads() as session:
            row = self._row(session, name, lock=False)
            return int(session.scalar(select(func.count()).where(EntryRow.game_id == row.id)) or 0)

    # -- internals -----------------------------------------------------------------------

    def _row(self, session: Session, name: str, *, lock: bool, light: bool = False) -> GameRow:
        """The game's row; ``light`` leaves its header and state unread until they are used (a
        game read earlier is checked by its entry count alone)."""
        query = select(GameRow).where(GameRow.name == name)
        if light or lock:
            query = query.options(defer(GameRow.state), defer(GameRow.header))
        if lock and not self.is_sqlite:
            query = query.with_for_update()
        try:
            row = session.scalar(query)
        except OperationalError as exc:
            if lock and _is_busy(exc):
                raise _Busy() from exc
            raise GameError(f"база данных недоступна: {exc.orig}", f"the database is unavailable: {exc.orig}") from exc
        if row is None:
            raise GameError(f"нет игры «{name}»", f"no game named '{name}'")
        return row

    def _game(self, session: Session, row: GameRow, base: Game | None, *, copy: bool) -> Game:
        """The game of ``row``: ``base`` brought up to date when it was read from this very row
        (the journal is append-only), else a replay of the whole journal."""
        key = (self.url, row.id, row.created_at.isoformat() if row.created_at else "")
        known = getattr(base, "store_key", None) if base is not None else None
        if base is not None and known == key and len(base.record.entries) <= row.entry_count:
            have = len(base.record.entries)
            if have == row.entry_count and not copy:
                return base
            game = base.fork()
            if have < row.entry_count:
                newer = session.scalars(select(EntryRow.entry).where(EntryRow.game_id == row.id, EntryRow.seq >= have)
                                        .order_by(EntryRow.seq))
                game.apply_entries([Entry.model_validate(e) for e in newer])
        else:
            game = Game(self._record(session, row))
        game.store_key = key
        return game

    @staticmethod
    def _record(session: Session, row: GameRow) -> GameRecord:
        entries = session.scalars(select(EntryRow.entry).where(EntryRow.game_id == row.id).order_by(EntryRow.seq))
        return GameRecord.model_validate({**row.header, "entries": [Entry.model_validate(e) for e in entries]})
