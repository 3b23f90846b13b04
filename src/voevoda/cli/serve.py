"""``voevoda serve``: the web app (docs/web.md).

- ``voevoda serve [--host H] [--port P] [--db URL] [--workers N]`` runs it on uvicorn;
- ``--init-gm NAME`` first makes the installation's game master (an account that may create
  games) and prints a one-time login link for it;
- the server's process runs a deadline worker (docs/clock.md) unless ``--no-worker`` (another
  process runs ``voevoda worker``); ``--poll`` sets its seconds between passes. With one server
  process the worker runs on the app's own service (the games it holds in memory, its writers'
  line); with ``--workers N`` it runs in the parent process, on a service of its own;
- ``--demo`` first stores a demo game of every installed ruleset, owned by that game master, with
  a turn already played and an invitation link for each human seat (what ``make run`` does).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from voevoda.cli.common import DbOption, print_text, run_guarded

if TYPE_CHECKING:
    from voevoda.core.engine import Game
    from voevoda.service import Person, Service

DEMO_PLAYERS = ["Алиса", "Борис", "Вера", "Глеб", "Дарья"]


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="port to listen on")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="server processes")] = 1,
    init_gm: Annotated[str | None, typer.Option("--init-gm", help="make this account the installation's game "
                                                                   "master and print a login link")] = None,
    demo: Annotated[bool, typer.Option("--demo", help="store a demo game of every ruleset first")] = False,
    base_url: Annotated[str | None, typer.Option("--base-url", help="the address people open, for the links "
                                                                     "printed and shown (default http://HOST:PORT)")] = None,
    secure_cookies: Annotated[bool, typer.Option("--secure-cookies", help="cookies only over HTTPS (behind a "
                                                                           "proxy that terminates TLS)")] = False,
    no_rate_limits: Annotated[bool, typer.Option("--no-rate-limits", help="no limit on sign-ins and posts "
                                                                           "(a load test on loopback only)")] = False,
    no_worker: Annotated[bool, typer.Option("--no-worker", help="run no deadline worker in this process "
                                                               "(another runs `voevoda worker`)")] = False,
    poll: Annotated[float, typer.Option("--poll", min=0.2, max=3600, help="the worker's seconds between "
                                                                         "passes")] = 5.0,
    db: DbOption = None,
) -> None:
    """Run the web app for players and game masters. / Веб-приложение для игроков и ведущих."""
    address = base_url or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"

    def prepare() -> None:
        from voevoda.service import Service

        service = Service(db)
        person = None
        if init_gm or demo:
            person, token = service.init_gm(init_gm or "Ведущий")
            print_text(f"ведущий / game master: {person.name}\n"
                       f"  вход (одноразовая ссылка) / sign in (one-time link): {address}/login/{token}")
        if demo and person is not None:
            for line in store_demo_games(service, person, address):
                print_text(line)
        print_text(f"voevoda: {address}  (Ctrl+C — остановить / to stop)")

    run_guarded(prepare)
    import uvicorn

    if db:
        os.environ["VOEVODA_DATABASE_URL"] = db
    os.environ["VOEVODA_BASE_URL"] = address
    if secure_cookies:
        os.environ["VOEVODA_SECURE_COOKIES"] = "1"
    if no_rate_limits:
        os.environ["VOEVODA_RATE_LIMITS"] = "off"
    os.environ.pop("VOEVODA_WORKER_POLL", None)
    if not no_worker and workers == 1:  # the worker shares the app's service: its games, its writers' line
        os.environ["VOEVODA_WORKER_POLL"] = str(poll)
    elif not no_worker:  # the server's processes are others: the worker runs in this one
        from voevoda.clock.worker import deliver_outbox, start_in_thread, worker_service

        start_in_thread(worker_service(db), poll=poll, deliver=deliver_outbox)
    uvicorn.run("voevoda.web.app:from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", proxy_headers=True)


def demo_game(ruleset_id: str) -> Game:
    """A game of ``ruleset_id`` for the web demo: people in the first seats (two, or as many as
    the game needs at least), the computer in the others where the game has a computer opponent,
    and its first turn played (the ruleset's scripted posts, or its computer opponent's for every
    seat), so that there is a report to read."""
    from voevoda.core import registry
    from voevoda.core.engine import Game
    from voevoda.core.errors import GameError

    cls = registry.get(ruleset_id)
    count = min(max(3, cls.min_players), cls.max_players, len(DEMO_PLAYERS))
    players = DEMO_PLAYERS[:count]
    probe = cls()
    script = probe.demo_script(players)
    humans = players[:max(2, min(cls.min_players, count))]
    bots = [p for p in players if p not in humans]
    try:
        game = Game.create(ruleset_id, f"web-{ruleset_id}", players, bots=bots, seed=f"web-demo:{ruleset_id}",
                           config=probe.demo_config())
    except GameError:
        game = Game.create(ruleset_id, f"web-{ruleset_id}", players, seed=f"web-demo:{ruleset_id}",
                           config=probe.demo_config())
    posts = script[0] if script else {}
    for player in game.waiting_for():
        text = posts.get(player)
        if text is None:
            try:
                text = game.bot_post(player)
            except GameError:
                continue
        game.post(player, text)
    if game.outcome() is None:
        game.resolve(force=True)
    return game


def store_demo_games(service: Service, person: Person, address: str) -> list[str]:
    """Store :func:`demo_game` of every installed ruleset (replacing an earlier one), owned by
    ``person``, public, with an invitation for each seat; the lines to print."""
    import contextlib

    from voevoda.core import registry
    from voevoda.core.errors import GameError
    from voevoda.service import OPERATOR

    lines = []
    for ruleset_id in registry.available():
        if ruleset_id.startswith("toy-"):
            continue
        game = demo_game(ruleset_id)
        name = game.record.name
        with contextlib.suppress(GameError):
            service.delete(OPERATOR, name, confirm=name)
        service.add_game(person, game)
        service.change_settings(person, name, public=True, timezone="Europe/Moscow")
        lines.append(f"{name} ({ruleset_id}): {address}/g/{name}")
        for player in game.record.players:
            if player in game.record.bots:
                continue
            token = service.invite(person, name, player, game.record.players)
            lines.append(f"  {player}: {address}/join/{token}")
    return lines


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)


__all__ = ["demo_game", "register", "serve", "store_demo_games"]
