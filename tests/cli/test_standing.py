"""`voevoda status` and `voevoda show` print a stored game from its committed state, without
replaying its journal (issue 17 «The command line»: «`voevoda status` answers in under 0.3 s»;
src/voevoda/core/standing.py). What they print must be exactly what the replayed game gives, for
every viewer (the per-viewer cut of docs/engine.md, core/outputs.py), and a stored state that is
damaged, or that the replay alone can explain, must never be printed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from voevoda.cli import app
from voevoda.core import outputs, registry
from voevoda.core.engine import Game
from voevoda.core.journal import canonical_json, stored_json
from voevoda.core.ruleset import GM, PUBLIC
from voevoda.core.standing import Standing
from voevoda.store import Store
from voevoda.store.quick import load_standing

CONFIG: dict[str, dict[str, Any]] = {"thrones": {"holy_lands": False}, "steel-rose": {"bot_odds_battles": 0}}
"""Thrones without the holy lands and the campaign's bots without the batched simulator: both
are beside the point here and slow."""

CHANNELS = (outputs.status_text, outputs.show_text, outputs.show_json)
"""What `status`, `show` and `show --json` print; each is bilingual (ru / en) in one text."""


def _players(ruleset_id: str) -> list[str]:
    """Seats not in alphabetical order: an output that follows the order of the players' table
    would differ if the state read back had its keys sorted."""
    cls = registry.get(ruleset_id)
    return ["Вера", "Анна", "Борис"][: max(cls.min_players, min(3, cls.max_players))]


def _new(db: str, ruleset_id: str) -> tuple[Store, list[str]]:
    """A game ``g`` of ``ruleset_id``: Анна plays by hand, the others are computer opponents."""
    store = Store(db)
    players = _players(ruleset_id)
    store.create(Game.create(ruleset_id, "g", players, bots=[p for p in players if p != "Анна"], seed="standing",
                             config=CONFIG.get(ruleset_id, {})))
    return store, players


def _post_for_anna(game: Game) -> bool:
    """Анна posts what a computer opponent in her seat would write, if she is awaited."""
    if game.outcome() is not None or "Анна" not in game.waiting_for():
        return False
    game.submit("Анна", game.bot_post("Анна"))
    return True


def _assert_same(db: str, store: Store, players: list[str], *, light: bool = True) -> None:
    standing = load_standing(db, "g")
    replayed = store.load("g")
    if not light:
        assert standing is None, "the committed state is used where only the replay can say what stands"
        return
    assert isinstance(standing, Standing)
    assert standing.step_number == replayed.step_number
    assert standing.pending == frozenset(replayed.pending)
    for viewer in [GM, PUBLIC, *players]:
        for render in CHANNELS:
            assert render(standing, viewer) == render(replayed, viewer), (render.__name__, viewer)


@pytest.mark.parametrize("ruleset_id", sorted(registry.available()))
def test_status_and_show_from_the_stored_state_equal_the_replay(tmp_path: Path, ruleset_id: str) -> None:
    """Every installed game, after each of several resolved steps and with a post standing in the
    step: status, show and show --json built from the committed state are byte for byte the
    replayed game's, for the game master, the public and each player."""
    db = str(tmp_path / "standing.db")
    store, players = _new(db, ruleset_id)
    _assert_same(db, store, players)  # the computer opponents' posts stand in the first step
    for _ in range(4):
        with store.change("g") as game:
            if game.outcome() is not None:
                break
            _post_for_anna(game)
            game.resolve(force=True)
        _assert_same(db, store, players)
        with store.change("g") as game:
            posted = _post_for_anna(game)
        if posted:
            _assert_same(db, store, players)
    assert store.load("g").step_number >= 1


def test_after_a_rollback_the_journal_is_replayed(tmp_path: Path) -> None:
    """After a rollback the posts of the rolled-back step stand again, frozen (docs/dice.md
    «Rollbacks»): only the replay knows them, so `status` replays until the step is resolved
    again; then the committed state serves once more."""
    db = str(tmp_path / "rollback.db")
    store, players = _new(db, "ring-of-power")
    for _ in range(2):
        with store.change("g") as game:
            _post_for_anna(game)
            game.resolve()
    with store.change("g") as game:
        game.rollback("a wrong post")
    _assert_same(db, store, players, light=False)
    result = CliRunner().invoke(app, ["status", "g", "--as", GM, "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output == outputs.status_text(store.load("g"), GM) + "\n"
    with store.change("g") as game:
        game.resolve()
    _assert_same(db, store, players)


def test_an_edit_and_an_auto_resolved_step_read_from_the_stored_state(tmp_path: Path) -> None:
    """A game master's edit (docs/engine.md «GM edits») changes the committed state and leaves
    the posts standing; a post that completes the step of an auto-resolving game resolves it and
    the computer opponents post for the next one, all in the journal: status and show built from
    the stored state stay the replay's."""
    db = str(tmp_path / "edit.db")
    store = Store(db)
    players = ["Вера", "Анна", "Борис"]
    store.create(Game.create("ring-of-power", "g", players, bots=["Вера", "Борис"], seed="edit", auto_resolve=True))
    with store.change("g") as game:
        assert _post_for_anna(game) and game.step_number == 1  # Анна's post resolved the step
    _assert_same(db, store, players)
    with store.change("g") as game:
        game.edit([{"op": "replace", "path": "/players/Анна/money", "value": 77}], "a lost coin found")
    _assert_same(db, store, players)
    standing = load_standing(db, "g")
    assert standing is not None and standing.state["players"]["Анна"]["money"] == 77


def _damage(db: str, sql: str, *args: object) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(sql, args)


def _state_with_more_money(db: str) -> str:
    """The committed state with one number changed: a state the game never had."""
    with sqlite3.connect(db) as connection:
        (text,) = connection.execute("SELECT state FROM games WHERE name = 'g'").fetchone()
    state = json.loads(text)
    state["players"]["Анна"]["money"] += 1000
    return stored_json(state)


def _sorted_state(db: str) -> str:
    """The committed state as the store wrote it before it kept the engine's order of keys."""
    with sqlite3.connect(db) as connection:
        (text,) = connection.execute("SELECT state FROM games WHERE name = 'g'").fetchone()
    return canonical_json(json.loads(text))


@pytest.mark.parametrize("damage", ["state", "hash", "step", "entries", "version", "sorted"])
def test_a_stored_state_that_cannot_be_trusted_is_not_printed(tmp_path: Path, damage: str) -> None:
    """A committed state whose hash does not match it (damaged in the database), one that is not
    the state after the journal as read (another step, another number of entries) or one written
    by another version of the rules is never printed, nor one whose keys were sorted (the order
    outputs follow is lost): `status` and `show` replay the journal."""
    db = str(tmp_path / "damaged.db")
    store, players = _new(db, "ring-of-power")
    with store.change("g") as game:
        _post_for_anna(game)
        game.resolve()
    replayed = store.load("g")
    if damage == "state":
        _damage(db, "UPDATE games SET state = ? WHERE name = 'g'", _state_with_more_money(db))
    elif damage == "hash":
        _damage(db, "UPDATE games SET state_hash = ? WHERE name = 'g'", "0" * 64)
    elif damage == "step":
        _damage(db, "UPDATE games SET step = step + 1 WHERE name = 'g'")
    elif damage == "sorted":
        _damage(db, "UPDATE games SET state = ? WHERE name = 'g'", _sorted_state(db))
    elif damage == "entries":
        _damage(db, "UPDATE games SET entry_count = entry_count - 1 WHERE name = 'g'")
    else:
        _damage(db, "UPDATE games SET header = json_set(header, '$.ruleset_version', '0.0') WHERE name = 'g'")
    assert load_standing(db, "g") is None
    for viewer in [GM, PUBLIC, *players]:
        status = CliRunner().invoke(app, ["status", "g", "--as", viewer, "--db", db])
        assert status.exit_code == 0, status.output
        assert status.output == outputs.status_text(replayed, viewer) + "\n"
        shown = CliRunner().invoke(app, ["show", "g", "--as", viewer, "--json", "--db", db])
        assert shown.exit_code == 0, shown.output
        assert shown.output == outputs.show_json(replayed, viewer)
