"""``voevoda telegram``: the Telegram bot (docs/telegram.md).

- ``voevoda telegram [--db URL]`` runs the bot by long polling (the token from
  ``VOEVODA_TELEGRAM_TOKEN`` or ``voevoda telegram token``);
- ``voevoda telegram token`` stores the bot's token for the installation (read from standard
  input, never an argument: it would stay in the shell's history), ``--forget`` removes it;
- ``voevoda telegram invite GAME --player P`` a seat's invitation as a deep link;
- ``voevoda telegram link-group GAME`` the link that ties a group chat to the game;
- ``voevoda telegram link-account NAME`` the link that ties a private chat to an account;
- ``voevoda telegram push GAME [--step N]`` sends the pushes of a resolved step to every chat
  that has not had them (a step resolved from the command line or the web);
- ``voevoda telegram webhook URL`` (``--delete``) tells Telegram to post the updates to the web
  server's ``/telegram/webhook`` instead.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from voevoda.cli.common import DbOption, print_text, run_guarded

if TYPE_CHECKING:
    from voevoda.service import Service

telegram_app = typer.Typer(name="telegram", help="Run the Telegram bot by long polling, or one of the commands below. / "
                           "Бот в Telegram: без команды — слушать Telegram (long polling).", no_args_is_help=False,
                           rich_markup_mode=None)


@telegram_app.callback(invoke_without_command=True)
def telegram(ctx: typer.Context, db: DbOption = None) -> None:
    """Run the Telegram bot by long polling. / Запустить бота (long polling)."""
    if ctx.invoked_subcommand is not None:
        return
    import logging

    from voevoda.service import Service

    service = Service(db)
    holder: list[str] = []
    run_guarded(lambda: holder.append(_token(service)))
    from voevoda.chat.telegram.bot import TelegramBot

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("voevoda.telegram").setLevel(logging.INFO)
    app = TelegramBot(service).application(holder[0])
    print_text("voevoda telegram: бот слушает Telegram (Ctrl+C — остановить) / the bot is polling Telegram "
               "(Ctrl+C to stop)")
    app.run_polling(allowed_updates=["message", "edited_message", "callback_query", "my_chat_member"])


def _token(service: Service) -> str:
    from voevoda.chat.telegram.links import bot_token

    return bot_token(service)


@telegram_app.command("token")
def token_command(
    forget: Annotated[bool, typer.Option("--forget", help="remove the stored token")] = False,
    db: DbOption = None,
) -> None:
    """Store the bot's token (read from standard input). / Сохранить токен бота."""
    from voevoda.service import OPERATOR, Service

    value: str | None = None
    if not forget:
        if sys.stdin.isatty():
            value = typer.prompt("токен от BotFather / the token from BotFather", hide_input=True)
        else:
            value = sys.stdin.readline()
    run_guarded(lambda: Service(db).set_telegram_token(OPERATOR, value.strip() if value is not None else None),
                lambda _: print_text("токен забыт / the token is removed" if forget
                                     else "токен сохранён / the token is stored"))


def _links(service: Service, code: str, group: bool, command: str) -> str:
    from voevoda.chat.telegram.links import deep_link

    link = deep_link(service.telegram_username(), code, group)
    lines = [link] if link else ["(имя бота ещё неизвестно: запустите voevoda telegram один раз / the bot's name "
                                 "is not known yet: run voevoda telegram once)"]
    lines.append(f"или отправьте боту / or send the bot: {command} {code}")
    return "\n".join(lines)


@telegram_app.command("invite")
def invite_command(
    game: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str, typer.Option("--player", help="the seat to invite to")],
    db: DbOption = None,
) -> None:
    """A seat's invitation as a bot deep link. / Приглашение на место ссылкой на бота."""
    from voevoda.service import OPERATOR, Service

    service = Service(db)

    def invite() -> str:
        players = service.sight(OPERATOR, game).players
        seat = next((p for p in players if p.casefold() == player.strip().casefold()), player)
        return _links(service, service.invite(OPERATOR, game, seat, players), False, "/start")

    run_guarded(invite, print_text)


@telegram_app.command("link-group")
def link_group_command(game: Annotated[str, typer.Argument(help="game name")], db: DbOption = None) -> None:
    """The link that ties a group chat to the game. / Ссылка, связывающая группу с игрой."""
    from voevoda.service import OPERATOR, Service

    service = Service(db)
    run_guarded(lambda: _links(service, service.chat_link(OPERATOR, "group", game), True, "/link"), print_text)


@telegram_app.command("link-account")
def link_account_command(name: Annotated[str, typer.Argument(help="account name")], db: DbOption = None) -> None:
    """The link that ties a private chat to an account. / Ссылка, связывающая личный чат с учётной записью."""
    from voevoda.service import OPERATOR, Service

    service = Service(db)
    run_guarded(lambda: _links(service, service.chat_link(OPERATOR, "account", account_name=name), False, "/start"),
                print_text)


@telegram_app.command("push")
def push_command(
    game: Annotated[str, typer.Argument(help="game name")],
    step: Annotated[int | None, typer.Option("--step", help="the resolved step (default: the last)")] = None,
    db: DbOption = None,
) -> None:
    """Send a resolved step's pushes to every linked chat that has not had them. / Разослать итоги шага."""
    from voevoda.service import OPERATOR, Service

    service = Service(db)

    def push() -> str:
        from voevoda.chat.telegram.push import TelegramChannel, resolved_notice

        sight = service.sight(OPERATOR, game)
        number = step if step is not None else sight.step_number
        done = TelegramChannel(service).send(resolved_notice(game, number, sight.step_digest(number)))
        lines = [f"отправлено / sent: {len(done.sent)}, уже было / already: {len(done.already)}, "
                 f"нечего / nothing: {len(done.nothing)}"]
        lines.extend(f"не доставлено / failed: {chat}: {why}" for chat, why in done.failed)
        return "\n".join(lines)

    run_guarded(push, print_text)


@telegram_app.command("webhook")
def webhook_command(
    url: Annotated[str | None, typer.Argument(help="the web server's address (https://…)")] = None,
    delete: Annotated[bool, typer.Option("--delete", help="back to long polling")] = False,
    db: DbOption = None,
) -> None:
    """Have Telegram post the updates to the web server. / Вебхук вместо long polling."""
    import asyncio

    from voevoda.service import Service

    service = Service(db)

    def configure() -> str:
        from telegram import Bot

        from voevoda.chat.telegram.links import WEBHOOK_PATH, api_url, bot_token, webhook_secret
        from voevoda.core.errors import GameError

        token = bot_token(service)
        if not delete and not (url and url.startswith("https://")):
            raise GameError("нужен адрес https://… веб-сервера", "give the web server's https://… address")

        async def call() -> str:
            async with Bot(token, base_url=api_url()) as bot:
                if delete:
                    await bot.delete_webhook()
                    return "вебхук снят / the webhook is removed"
                target = (url or "").rstrip("/") + WEBHOOK_PATH
                await bot.set_webhook(target, secret_token=webhook_secret(token),
                                      allowed_updates=["message", "edited_message", "callback_query", "my_chat_member"])
                return f"вебхук / webhook: {target}"

        return asyncio.run(call())

    run_guarded(configure, print_text)


def register(app: typer.Typer) -> None:
    app.add_typer(telegram_app, name="telegram")


__all__ = ["register", "telegram_app"]
