"""``voevoda demo``: a few turns of every installed game, scripted or played by the
computer, stored in the database like any other game, with the reports of each turn."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

from voevoda.cli.common import console, print_text
from voevoda.core.errors import GameError

if TYPE_CHECKING:  # every module of voevoda.cli is imported by `voevoda --help`: keep it light
    from voevoda.core.engine import Game
    from voevoda.store import Store

STEP_LIMIT = 2_000


def demo_players(count: int) -> list[str]:
    names = ["Алиса", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]
    return names[:count] if count <= len(names) else [f"P{i + 1}" for i in range(count)]


def play_demo_game(ruleset_id: str, turns: int, seed: str = "demo") -> Game:
    """A game of ``ruleset_id`` played for ``turns`` turns (or to its end): the ruleset's
    scripted posts where it has them, its computer opponent everywhere else."""
    from voevoda.core import registry
    from voevoda.core.engine import Game

    cls = registry.get(ruleset_id)
    players = demo_players(min(max(3, cls.min_players), cls.max_players))
    script = cls().demo_script(players)
    bots = [] if script else players
    game = Game.create(ruleset_id, f"demo-{ruleset_id}", players, bots=bots, seed=f"{seed}:{ruleset_id}",
                       config=cls().demo_config())
    first_turn = game.ruleset.progress(game.state)[0]
    for index in range(STEP_LIMIT):
        if game.outcome() is not None or game.ruleset.progress(game.state)[0] >= first_turn + turns:
            break
        posts = script[index] if index < len(script) else {}
        for player in game.waiting_for():
            if player in posts:
                game.submit(player, posts[player])
        game.resolve(force=True)
    return game


def run_demo(store: Store, turns: int) -> None:
    from voevoda.core import outputs, registry
    from voevoda.core.ruleset import GM, PUBLIC

    for ruleset_id, cls in registry.available().items():
        if ruleset_id.startswith("toy-"):
            continue
        console.rule(f"{cls.title_ru} / {cls.title_en} ({ruleset_id})")
        # (the campaign's demo config puts its computer opponents on a strength estimate: the demo
        # compiles no simulator, ruling C52)
        game = play_demo_game(ruleset_id, turns)
        name = game.record.name
        with contextlib.suppress(GameError):
            store.delete(name)
        store.create(game)
        played = sorted({step.turn for step in game.steps})
        for turn in played:
            sys.stdout.write(outputs.report_text(game, PUBLIC, turn) + "\n\n")
        first = game.record.players[0]
        if played:
            console.rule(f"{first}: отчёт / report", style="dim")
            sys.stdout.write(outputs.report_text(game, first, played[-1]) + "\n")
        print_text(outputs.status_text(game, GM))
        print_text(f"сохранено как / stored as «{name}»: `voevoda report {name} --as {first}`")
