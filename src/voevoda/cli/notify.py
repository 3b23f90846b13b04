"""``voevoda notify``: where a game's announcements go, and one pass of their delivery
(docs/notify.md).

- ``voevoda notify deliver [--db URL]`` one pass of the deliverer over every game (cron, tests; the
  deadline worker runs one at the end of each of its passes);
- ``voevoda notify GAME add (--public | --gm | --seat PLAYER) --kind KIND --url URL …`` a
  destination (``--kind email --to ADDRESS`` for a mail, ``--digest`` for a daily digest);
- ``voevoda notify GAME list [--seat PLAYER]``, ``remove ID``, ``test ID``;
- ``voevoda notify GAME status`` the deliveries: counts, and those failing.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from voevoda.cli.common import DbOption, print_table, print_text, run_guarded


class _NotifyGroup(TyperGroup):
    """``voevoda notify deliver …`` is the command ``deliver`` (over every game), not a game named
    «deliver» with no command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args[:1] == ["deliver"]:
            args = ["", *args]
        return super().parse_args(ctx, args)


notify_app = typer.Typer(name="notify", help="Notifications: channels of a game and their delivery. / "
                         "Уведомления: каналы игры и их доставка.", no_args_is_help=True, rich_markup_mode=None,
                         cls=_NotifyGroup)


def _db(ctx: typer.Context, db: str | None) -> str | None:
    return db if db is not None else (ctx.obj or {}).get("db")


def _game(ctx: typer.Context) -> str:
    game = (ctx.obj or {}).get("game")
    if not game:
        raise typer.BadParameter("name the game: voevoda notify GAME …")
    return str(game)


@notify_app.callback(invoke_without_command=True)
def notify(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="game name (`voevoda notify deliver`: every game)")] = None,
    db: DbOption = None,
) -> None:
    """Notification channels of a game; `voevoda notify deliver` sends what is due. / Каналы уведомлений."""
    ctx.obj = {"game": game, "db": db}
    if ctx.invoked_subcommand is None:
        print_text(ctx.get_help())


def _deliver(db: str | None, limit: int) -> None:
    from datetime import UTC, datetime

    from voevoda.notify.deliver import deliver_due
    from voevoda.service import Service

    service = Service(db)
    run_guarded(lambda: deliver_due(service, datetime.now(UTC), limit=limit), lambda done: print_text(done.text()))


@notify_app.command("deliver")
def deliver_command(ctx: typer.Context, db: DbOption = None,
                    limit: Annotated[int, typer.Option("--limit", help="the most announcements and deliveries a "
                                                       "pass takes")] = 200) -> None:
    """One pass of the deliverer (every game). / Один проход доставки."""
    _deliver(_db(ctx, db), limit)


@notify_app.command("add")
def add_command(
    ctx: typer.Context,
    kind: Annotated[str, typer.Option("--kind", help="discord, slack, telegram-webhook, webhook, email")],
    public: Annotated[bool, typer.Option("--public", help="the game's public channel")] = False,
    gm: Annotated[bool, typer.Option("--gm", help="the game master's channel")] = False,
    seat: Annotated[str | None, typer.Option("--seat", help="a seat's own channel (its player's)")] = None,
    url: Annotated[str | None, typer.Option("--url", help="the webhook's address")] = None,
    to: Annotated[str | None, typer.Option("--to", help="the e-mail address")] = None,
    chat_id: Annotated[str | None, typer.Option("--chat-id", help="telegram-webhook: the chat")] = None,
    secret: Annotated[str | None, typer.Option("--secret", help="webhook: the signing key (default: a new one)")]
    = None,
    digest: Annotated[bool, typer.Option("--digest", help="email: one digest a day instead of a mail per event")]
    = False,
    hour: Annotated[int, typer.Option("--hour", help="the digest's hour, UTC")] = 7,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    label: Annotated[str, typer.Option("--label", help="a name to know it by")] = "",
    db: DbOption = None,
) -> None:
    """Add a destination. / Добавить канал."""
    from voevoda.core.errors import GameError
    from voevoda.service import OPERATOR, Service

    game = _game(ctx)
    service = Service(_db(ctx, db))

    def add() -> str:
        chosen = [name for name, on in (("public", public), ("gm", gm), ("seat", seat is not None)) if on]
        if len(chosen) != 1:
            raise GameError("укажите одно: --public, --gm или --seat ИГРОК", "give one of --public, --gm, --seat PLAYER")
        address = to if kind == "email" else url
        if not address:
            raise GameError("нужен --to АДРЕС" if kind == "email" else "нужен --url АДРЕС",
                            "give --to ADDRESS" if kind == "email" else "give --url ADDRESS")
        added = service.add_destination(OPERATOR, game, scope=chosen[0], kind=kind, address=address, player=seat,
                                        chat_id=chat_id, secret=secret, mode="digest" if digest else "each",
                                        digest_hour=hour, lang=lang, label=label)
        lines = [f"канал {added.destination.id} добавлен / channel {added.destination.id} added: "
                 f"{added.destination.kind} {added.destination.address}"]
        if added.secret:
            lines.append(f"ключ подписи (показан один раз) / signing secret (shown once): {added.secret}")
        return "\n".join(lines)

    run_guarded(add, print_text)


@notify_app.command("list")
def list_command(ctx: typer.Context,
                 seat: Annotated[str | None, typer.Option("--seat", help="a seat's own channels")] = None,
                 db: DbOption = None) -> None:
    """The game's destinations. / Каналы игры."""
    from voevoda.service import OPERATOR, Service

    game = _game(ctx)
    service = Service(_db(ctx, db))

    def show() -> None:
        rows = service.destinations(OPERATOR, game, player=seat)
        print_table(f"{game}", ["id", "кому / to", "вид / kind", "адрес / address", "режим / mode", "язык / lang",
                                "доставлено / sent", "ждёт / waiting", "сбои / failing", "ошибка / error"],
                    [[str(d.id), d.scope if d.scope != "seat" else f"seat:{d.player}", d.kind,
                      d.address + (f" {d.chat_id}" if d.chat_id else ""),
                      d.mode if d.mode == "each" else f"digest {d.digest_hour:02d}:00 UTC", d.lang, str(d.delivered),
                      str(d.waiting), str(d.failing + d.gave_up), d.last_error[:60]] for d in rows], "rllllrrrrl")
        if seat is None:
            chats = service.delivery_status(OPERATOR, game).chats
            print_text(f"чаты Telegram (telegram-chat), связанные с ботом / Telegram chats linked to the bot: "
                       f"{', '.join(str(c) for c in chats) or '—'}")

    run_guarded(show)


@notify_app.command("remove")
def remove_command(ctx: typer.Context, destination: Annotated[int, typer.Argument(help="the channel's id")],
                   db: DbOption = None) -> None:
    """Remove a destination. / Убрать канал."""
    from voevoda.service import OPERATOR, Service

    game = _game(ctx)
    service = Service(_db(ctx, db))
    run_guarded(lambda: service.remove_destination(OPERATOR, game, destination),
                lambda _: print_text(f"канал {destination} убран / channel {destination} removed"))


@notify_app.command("test")
def test_command(ctx: typer.Context, destination: Annotated[int, typer.Argument(help="the channel's id")],
                 db: DbOption = None) -> None:
    """Send a test message now. / Отправить проверочное сообщение."""
    from voevoda.service import OPERATOR, Service

    game = _game(ctx)
    service = Service(_db(ctx, db))
    run_guarded(lambda: service.test_destination(OPERATOR, game, destination),
                lambda key: print_text(f"отправлено / sent ({key})"))


@notify_app.command("status")
def status_command(ctx: typer.Context, db: DbOption = None) -> None:
    """The game's deliveries: counts and failures. / Состояние доставки."""
    from voevoda.service import OPERATOR, Service

    game = _game(ctx)
    service = Service(_db(ctx, db))

    def show() -> None:
        status = service.delivery_status(OPERATOR, game)
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(status.counts.items())) or "—"
        print_text(f"доставки / deliveries: {counts}; не разослано оповещений / announcements waiting: "
                   f"{status.waiting_announcements}; чатов Telegram / Telegram chats: {len(status.chats)}")
        if status.failing:
            print_table("сбои / failing", ["канал / channel", "событие / event", "шаг / step", "состояние / status",
                                           "попыток / attempts", "с / since", "снова / next", "ошибка / error"],
                        [[f.destination, f.announcement, str(f.step or ""), f.status, str(f.attempts),
                          f.first_failed_at, f.next_attempt_at if f.status == "pending" else "", f.last_error[:80]]
                         for f in status.failing], "lllrrlll")

    run_guarded(show)


def register(app: typer.Typer) -> None:
    app.add_typer(notify_app, name="notify")


__all__ = ["notify_app", "register"]
