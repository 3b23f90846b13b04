"""Storage (issue «Core engine», section Storage): SQLAlchemy 2 + Alembic, SQLite by default and
PostgreSQL by URL; submitting and resolving are transactions; a process killed in the middle of a
resolution leaves the previous turn intact; two players submitting at the same moment both land."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import inspect

from voevoda.core.engine import Game
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.core.journal import canonical_json, state_hash, stored_json
from voevoda.store import Store, resolve_url

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
sys.path[:0] = [{root!r}, {src!r}]
from voevoda.core import registry
from tests.core.toy import Guess, Twenty
registry.register(Guess)
registry.register(Twenty)
from voevoda.store import Store
store = Store({url!r})
{body}
"""


def child(url: str, body: str) -> subprocess.Popen[str]:
    code = CHILD.format(root=str(ROOT), src=str(ROOT / "src"), url=url, body=body)
    return subprocess.Popen([sys.executable, "-c", code], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_resolve_url_defaults_and_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--db URL` on every command, default ./voevoda.db, or VOEVODA_DATABASE_URL."""
    monkeypatch.delenv("VOEVODA_DATABASE_URL", raising=False)
    assert resolve_url(None) == "sqlite:///voevoda.db"
    assert resolve_url("games/x.db") == "sqlite:///games/x.db"
    assert resolve_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    monkeypatch.setenv("VOEVODA_DATABASE_URL", "sqlite:///env.db")
    assert resolve_url(None) == "sqlite:///env.db"
    assert resolve_url("sqlite:///flag.db") == "sqlite:///flag.db"


def test_migrations_create_the_schema(store_url: str) -> None:
    store = Store(store_url)
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "entries", "alembic_version"} <= tables
    Store(store_url)  # migrating again is a no-op


def test_a_game_round_trips_through_the_store(store_url: str) -> None:
    store = Store(store_url)
    game = Game.create("toy-twenty", "round", ["A", "B"], seed="store")
    store.create(game)
    with pytest.raises(GameError):
        store.create(Game.create("toy-twenty", "round", ["A", "B"], seed="other"))
    for _ in range(4):
        with store.change("round") as live:
            (player,) = live.waiting_for()
            live.submit(player, "roll 2")
            live.resolve()
    loaded = store.load("round")
    assert loaded.step_number == 4
    state_text, digest = store.stored_state("round")
    assert state_text == stored_json(loaded.state)  # the engine's order of keys, which outputs follow
    assert digest == state_hash(loaded.state)
    assert len(digest) == 64
    assert [n for n, _, _ in store.names()] == ["round"]
    with pytest.raises(GameError):
        store.load("missing")


def test_a_failed_change_stores_nothing(store_url: str) -> None:
    """«a rejected submission changes nothing»: an error inside the transaction rolls it back."""
    store = Store(store_url)
    store.create(Game.create("toy-guess", "g", ["A", "B"], seed="s"))
    with pytest.raises(OrdersRejected), store.change("g") as game:
        game.submit("A", "guess 4")
        game.submit("B", "guess 9")
    assert store.count_entries("g") == 0
    assert store.load("g").pending == {}


def test_two_players_submitting_at_the_same_moment_both_land(store_url: str, tmp_path: Path) -> None:
    """«two players submitting at the same moment both land»: four processes post at once."""
    store = Store(store_url)
    players = ["A", "B", "C", "D"]
    store.create(Game.create("toy-guess", "race", players, seed="race"))
    start = time.time() + 1.5
    body = ("import time\n"
            "time.sleep(max(0, {start} - time.time()))\n"
            "with store.change('race') as game:\n"
            "    game.submit({player!r}, 'guess 3')\n"
            "print('ok')\n")
    processes = [child(store_url, body.format(start=start, player=p)) for p in players]
    outputs = [p.communicate(timeout=120) for p in processes]
    assert all(p.returncode == 0 for p in processes), outputs
    game = store.load("race")
    assert sorted(game.pending) == players
    assert store.count_entries("race") == 4


def test_a_process_killed_while_resolving_loses_nothing(store_url: str, tmp_path: Path) -> None:
    """«a process killed in the middle of a resolution (test it by killing a real process) leaves
    the previous turn intact and loses nothing»."""
    store = Store(store_url)
    marker = tmp_path / "resolving"
    game = Game.create("toy-guess", "kill", ["A", "B"], seed="kill", config={"slow_marker": str(marker)})
    store.create(game)
    with store.change("kill") as live:
        live.submit("A", "guess 1")
        live.submit("B", "guess 2")
    before_state = store.stored_state("kill")
    process = child(store_url, "with store.change('kill') as game:\n    game.resolve()\n")
    deadline = time.time() + 60
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, "the child never started resolving"
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert store.stored_state("kill") == before_state
    assert store.count_entries("kill") == 2
    survivor = store.load("kill")
    assert survivor.step_number == 0 and sorted(survivor.pending) == ["A", "B"]
    # The lock died with the process: another process can post right away.
    with store.change("kill") as live:
        live.submit("A", "guess 5")
    assert store.count_entries("kill") == 3


def test_import_of_an_export_replays_it(store_url: str) -> None:
    store = Store(store_url)
    game = Game.create("toy-twenty", "orig", ["A", "B"], seed="imp")
    (player,) = game.waiting_for()
    game.submit(player, "roll 3")
    game.resolve()
    record = game.record.model_copy(deep=True)
    record.name = "copy"
    imported = store.import_record(record)
    assert canonical_json(store.load("copy").state) == canonical_json(imported.state)
    assert json.loads(store.stored_state("copy")[0]) == game.state


def _entry_count(store: Store, name: str) -> int:
    from sqlalchemy import text

    with store.read_connection() as connection:
        return int(connection.execute(text("SELECT entry_count FROM games WHERE name = :n"), {"n": name}).scalar())


def test_the_reads_of_one_snapshot_share_one_connection_and_a_write_ends_it(store_url: str) -> None:
    """docs/web.md, «Reading fast»: inside ``Store.snapshot()``, on the event loop, every plain read
    goes through one connection until the request waits for something; a write that begins
    inside gives it back, and the reads after it see the write."""
    store = Store(store_url)
    store.create(Game.create("toy-twenty", "snap", ["A", "B"], seed="snapshot"))
    with store.read_connection() as first, store.read_connection() as second:
        assert first is not second  # outside a snapshot each read has a connection of its own

    async def request() -> None:
        with store.snapshot():
            with store.read_connection() as first:
                pass
            with store.read_connection() as again:
                assert again is first
            assert _entry_count(store, "snap") == 0
            with store.change("snap") as live:
                live.submit("A", "roll 2")
            with store.read_connection() as after:
                assert after is not first
            assert _entry_count(store, "snap") == 1  # the write is seen inside the same snapshot
            with store.snapshot(), store.read_connection() as inner:  # nested: the outer one goes on
                assert inner is after
            await asyncio.sleep(0)  # the request waits: its connection goes back to the pool
            assert after.closed and first.closed
            with store.read_connection() as later:
                assert later is not after
        assert later.closed  # given back when the snapshot ends

    asyncio.run(request())


def test_a_snapshot_is_not_shared_with_other_threads(store_url: str) -> None:
    store = Store(store_url)

    async def request() -> None:
        with store.snapshot():
            with store.read_connection() as here:
                pass
            seen: list[object] = []

            def elsewhere() -> None:
                with store.read_connection() as there:
                    seen.append(there)

            await asyncio.to_thread(elsewhere)
            assert seen[0] is not here

    asyncio.run(request())


def test_requests_waiting_with_a_snapshot_hold_no_connection(store_url: str) -> None:
    """Sixty requests in flight at once, each reading, waiting, and reading again, on a pool of
    fifteen connections: none waits for a connection another one holds while it waits (a reader
    that waited for the pool would stop the event loop and every request with it)."""
    store = Store(store_url)
    store.create(Game.create("toy-twenty", "busy", ["A", "B"], seed="busy"))

    async def request() -> int:
        with store.snapshot():
            before = _entry_count(store, "busy")
            store.pause_snapshot()  # as the web app does before it waits for a body or sends
            await asyncio.sleep(0.01)
            return before + _entry_count(store, "busy")

    async def many() -> list[int]:
        return list(await asyncio.gather(*(request() for _ in range(60))))

    assert asyncio.run(many()) == [0] * 60


def test_a_failed_read_in_a_snapshot_leaves_the_next_a_fresh_connection(store_url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    store = Store(store_url)

    async def request() -> None:
        with store.snapshot():
            with pytest.raises(DBAPIError), store.read_connection() as broken:
                broken.execute(text("SELECT * FROM no_such_table"))
            with store.read_connection() as fresh:
                assert fresh is not broken
                assert fresh.execute(text("SELECT 1")).scalar() == 1

    asyncio.run(request())
