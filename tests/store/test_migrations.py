"""Issue 25, «Storage and scale»: «new tables through an Alembic migration that an existing
database takes without losing a game». A database made at revision 0001 (games and journals
only), holding a played game, is opened by today's store: it is migrated to the newest revision,
the game replays to the state it had, and the new tables work (a seat is invited and joined)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from voevoda.core.engine import Game
from voevoda.core.journal import state_hash, stored_json
from voevoda.service import ANONYMOUS, OPERATOR, Service
from voevoda.store.db import MIGRATIONS, Store, resolve_url
from voevoda.store.quick import SCHEMA_HEAD


def test_a_database_of_revision_0001_takes_the_new_tables_and_keeps_its_game(store_url: str) -> None:
    url = resolve_url(store_url)
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    game = Game.create("ring-of-power", "old", ["Анна", "Борис"], seed="old")
    for player in game.record.players:
        game.post(player, game.bot_post(player))
    game.resolve()
    header = game.record.model_dump(mode="json", exclude={"entries"})
    import json

    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (name, ruleset, header, state, state_hash, step, entry_count, created_at, updated_at) "
            "VALUES (:n, :r, :h, :s, :sh, :step, :count, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
            {"n": "old", "r": "ring-of-power", "h": json.dumps(header, ensure_ascii=False), "s": stored_json(game.state),
             "sh": state_hash(game.state), "step": game.step_number, "count": len(game.record.entries)})
        game_id = connection.execute(text("SELECT id FROM games WHERE name = 'old'")).scalar_one()
        for seq, entry in enumerate(game.record.entries):
            connection.execute(text("INSERT INTO entries (game_id, seq, entry) VALUES (:g, :q, :e)"),
                               {"g": game_id, "q": seq, "e": json.dumps(entry.model_dump(mode="json"), ensure_ascii=False)})
    engine.dispose()

    store = Store(store_url)  # migrates to the newest revision
    with store.read_connection() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == SCHEMA_HEAD
    loaded = store.load("old")
    assert state_hash(loaded.state) == state_hash(game.state) and loaded.step_number == 1
    service = Service(store_url, store=store)
    assert service.sight(OPERATOR, "old", "Анна").report() == Service(store_url).sight(OPERATOR, "old", "Анна").report()
    token = service.invite(OPERATOR, "old", "Анна", ["Анна", "Борис"])
    joined = service.join(token, ANONYMOUS)
    assert service.sight(joined.person, "old").viewer == "Анна"
