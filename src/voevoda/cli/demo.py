"""``voevoda demo``: a few scripted or computer-played steps of every installed game,
stored in the database like any other game, with the public report of each step."""

from __future__ import annotations

import contextlib

from voevoda.cli.common import console
from voevoda.core import registry
from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.store import Store


def demo_players(count: int) -> list[str]:
    names = ["Алиса", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]
    return names[:count] if count <= len(names) else [f"P{i + 1}" for i in range(count)]


def play_demo_game(ruleset_id: str, steps: int, seed: str = "demo") -> Game:
    """A game of ``ruleset_id`` played for ``steps`` resolutions: the ruleset's
    scripted posts where it has them, its computer opponent everywhere else."""
    cls = registry.get(ruleset_id)
    players = demo_players(max(2, cls.min_players))
    script = cls().demo_script(players)
    bots = [] if script else players
    game = Game.create(ruleset_id, f"demo-{ruleset_id}", players, bots=bots, seed=f"{seed}:{ruleset_id}")
    for index in range(steps):
        if game.outcome() is not None:
            break
        posts = script[index] if index < len(script) else {}
        for player in game.waiting_for():
            if player in posts:
                game.submit(player, posts[player])
        game.resolve(force=True)
    return game


def run_demo(store: Store, steps: int) -> None:
    for ruleset_id, cls in registry.available().items():
        if ruleset_id.startswith("toy-"):
            continue
        console.rule(f"{cls.title_ru} / {cls.title_en} ({ruleset_id})")
        game = play_demo_game(ruleset_id, steps)
        name = game.record.name
        with contextlib.suppress(GameError):
            store.delete(name)
        store.create(game)
        for step in game.steps:
            console.print(game.report("public", step.turn), markup=False)
        turn, phase = game.ruleset.progress(game.state)
        console.print(f"сохранено как / stored as «{name}»: ход / turn {turn}, фаза / phase {phase}; "
                      f"`voevoda report {name} --as <игрок>`", markup=False)
