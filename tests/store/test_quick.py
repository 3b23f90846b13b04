"""The quick read path of `voevoda status` and the other reading commands (issue 17 «The
command line»: status in under 0.3 s): a SQLite game read with the standard library gives the
very record the store gives, and anything it cannot read exactly falls back to the store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory

from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.store import Store
from voevoda.store.db import MIGRATIONS
from voevoda.store.quick import SCHEMA_HEAD, load_record, sqlite_path


def test_schema_head_is_the_newest_migration() -> None:
    """A new migration must move SCHEMA_HEAD with it, or the quick path would read a schema it
    does not know (it refuses any other revision and the store migrates)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == SCHEMA_HEAD


def test_quick_record_equals_the_stores(tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    store = Store(db)
    game = Game.create("ring-of-power", "r", ["Анна", "Борис"], bots=["Борис"], seed="quick")
    store.create(game)
    with store.change("r") as g:
        g.submit("Анна", "ход 0303 0304")
        g.resolve()
    record = load_record(db, "r")
    assert record is not None
    assert record == store.load("r").record
    with pytest.raises(GameError):
        load_record(db, "nope")


def test_what_the_quick_path_leaves_to_the_store(tmp_path: Path) -> None:
    assert load_record(str(tmp_path / "missing.db"), "r") is None  # the store creates it
    assert sqlite_path("postgresql://u@h/db") is None
    assert sqlite_path("sqlite:///:memory:") is None
    assert sqlite_path("x.db") == Path("x.db") and sqlite_path("sqlite:///y.db") == Path("y.db")
    old = tmp_path / "old.db"
    Store(str(old)).create(Game.create("toy-guess", "g", ["А"], seed="q"))
    with sqlite3.connect(old) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0000'")
    assert load_record(str(old), "g") is None  # a schema to migrate: the store's job
