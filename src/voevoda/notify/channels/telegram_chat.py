"""A Telegram chat linked through the game's bot (docs/telegram.md): a seat's private chat, a game
master's, the game's group. Delivered by the bot's own pushes
(:class:`voevoda.chat.telegram.push.TelegramChannel`, ``only=`` the chat), keyed as the bot keys
them (:func:`~voevoda.chat.telegram.push.resolved_notice`): a push the bot already sent — after a
``/resolve`` in the chat, ``voevoda telegram push`` — is not sent twice. Only resolutions and
deadline reminders go to chats (what the bot's pushes say)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from voevoda.core.errors import GameError
from voevoda.notify.channels import DeliveryFailed

if TYPE_CHECKING:
    from voevoda.chat.telegram.push import Notice
    from voevoda.notify.transport import Transport
    from voevoda.service import Service

KINDS = frozenset({"resolved", "deadline"})
"""The announcements a linked chat gets."""


def notice_of(game: str, kind: str, step: int | None, key: str, payload: dict[str, Any]) -> Notice:
    from voevoda.chat.telegram.push import Notice, resolved_notice

    if kind == "resolved":
        return resolved_notice(game, int(payload.get("step", step or 0)), str(payload.get("digest", "")))
    due = str(payload.get("deadline_local") or payload.get("due_local") or payload.get("due")
              or payload.get("deadline") or "")
    return Notice(game, "deadline", int(step or 0), f"telegram:{game}:deadline:{key}", deadline=due)


def send(service: Service, transport: Transport, notice: Notice, chat_id: int) -> bool:
    """Deliver ``notice`` to the chat; ``False`` when the chat is no longer one of the game's."""
    import asyncio

    from voevoda.chat.telegram.push import TelegramChannel

    bot = TelegramChannel(service, token=transport.settings.telegram_token, base_url=transport.settings.telegram_api)
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no event loop in this thread: the usual case (the worker, the command line)
            done = bot.send(notice, only=chat_id)
        else:  # called from an event loop's thread (a web server's worker): the bot's loop runs in another
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(1) as pool:
                done = pool.submit(bot.send, notice, chat_id).result()
    except GameError as exc:  # no bot token
        raise DeliveryFailed(exc.message_en) from exc
    except Exception as exc:  # the network, the library: try again later
        raise DeliveryFailed(f"Telegram: {type(exc).__name__}: {exc}"[:500]) from exc
    if done.failed:
        raise DeliveryFailed(f"Telegram: {done.failed[0][1]}"[:500])
    return chat_id in (*done.sent, *done.already, *done.nothing)
