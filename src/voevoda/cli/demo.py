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
    from voevoda.service import Service

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


def run_demo(service: Service, turns: int) -> None:
    from voevoda.core import registry
    from voevoda.core.ruleset import GM, PUBLIC
    from voevoda.service import OPERATOR

    for ruleset_id, cls in registry.available().items():
        if ruleset_id.startswith("toy-"):
            continue
        console.rule(f"{cls.title_ru} / {cls.title_en} ({ruleset_id})")
        # (the campaign's demo config puts its computer opponents on a strength estimate: the demo
        # compiles no simulator, ruling C52)
        game = play_demo_game(ruleset_id, turns)
        name = game.record.name
        with contextlib.suppress(GameError):
            service.delete(OPERATOR, name, confirm=name)
        service.add_game(OPERATOR, game)
        sight = service.sight(OPERATOR, name, PUBLIC)
        played = sight.turns()
        for turn in played:
            sys.stdout.write(sight.report(turn) + "\n\n")
        first = game.record.players[0]
        if played:
            console.rule(f"{first}: отчёт / report", style="dim")
            sys.stdout.write(service.sight(OPERATOR, name, first).report(played[-1]) + "\n")
        print_text(service.sight(OPERATOR, name, GM).status())
        print_text(f"сохранено как / stored as «{name}»: `voevoda report {name} --as {first}`")
