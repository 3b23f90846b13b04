"""Pushes: what the bot sends without being asked — each chat's own report and map when a step
is resolved, reminders before a deadline.

:func:`deliver` is the one door: a :class:`Notice` names a game, what happened and its
idempotency key; every chat linked to the game (:meth:`Service.chat_recipients`: the private
chats of its members, its group chat) gets what its actor may see, built by the ``telegram push``
and ``telegram reminder`` channels through :meth:`Service.sight` — a player's private report
reaches that player's chat only, the group gets the public chronicle. A notice reaches each chat
once: a chat it reached is recorded (:meth:`Service.record_delivery`), and delivering the same
notice again sends only to the chats it has not reached. The outbox of the notifications calls
:func:`deliver` (or :class:`TelegramChannel` from synchronous code) for each of its entries and
retries the ones that come back with failures.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from telegram.error import TelegramError

from voevoda.chat.telegram.send import send_messages
from voevoda.core.errors import GameError

if TYPE_CHECKING:
    from telegram import Bot

    from voevoda.core.chat import ChatMessage
    from voevoda.service import Service
    from voevoda.service.chats import Recipient

log = logging.getLogger("voevoda.telegram")


@dataclass(frozen=True)
class Notice:
    """Something to announce in a game's chats: ``resolved`` (step ``step`` was resolved) or
    ``deadline`` (step ``step`` is due at ``deadline``, written as the game's time zone shows
    it). ``key`` identifies the notice: delivered again, it reaches no chat twice."""

    game: str
    kind: Literal["resolved", "deadline"]
    step: int
    key: str
    deadline: str = ""


@dataclass
class Delivered:
    """What a delivery did, chat by chat."""

    sent: list[int] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    """Reached before (a repeated delivery)."""
    nothing: list[int] = field(default_factory=list)
    """Nothing for that chat (a reminder to a seat that has posted)."""
    failed: list[tuple[int, str]] = field(default_factory=list)
    """Telegram refused or did not answer: deliver the notice again later."""

    @property
    def complete(self) -> bool:
        return not self.failed


def resolved_notice(game: str, step: int, digest: str) -> Notice:
    """The notice of a resolution; ``digest`` (the step's record digest) keeps a step resolved
    again after a rollback from being taken for the first resolution."""
    return Notice(game, "resolved", step, f"telegram:{game}:resolved:{step}:{digest[:16]}")


def messages_for(service: Service, recipient: Recipient, notice: Notice) -> list[ChatMessage]:
    """What ``recipient`` gets for ``notice``: built through the sight of its own actor."""
    sight = service.sight(recipient.actor, notice.game)
    if notice.kind == "resolved":
        return sight.chat_push(recipient.lang, notice.step)
    if notice.kind == "deadline":
        if sight.step_number + 1 != notice.step:
            return []  # the step was resolved before its reminder went out
        return sight.chat_reminder(recipient.lang, notice.deadline)
    raise ValueError(f"unknown notice kind {notice.kind!r}")


async def deliver(service: Service, bot: Bot, notice: Notice, only: int | None = None) -> Delivered:
    """Send ``notice`` to every chat of its game that it has not reached yet (``only``: to that
    one chat, when it is one of them — an outbox that keeps a row per chat)."""
    done = Delivered()
    for recipient in await asyncio.to_thread(service.chat_recipients, notice.game):
        chat_id = recipient.chat_id
        if only is not None and chat_id != only:
            continue
        if await asyncio.to_thread(service.delivered, notice.key, chat_id):
            done.already.append(chat_id)
            continue
        try:
            messages = await asyncio.to_thread(messages_for, service, recipient, notice)
        except GameError as exc:  # the account lost its seat meanwhile: it gets nothing
            log.info("push %s to chat %s: %s", notice.key, chat_id, exc.message_en)
            messages = []
        if not messages:
            done.nothing.append(chat_id)
            await asyncio.to_thread(service.record_delivery, notice.key, chat_id)
            continue
        try:
            await send_messages(bot, chat_id, messages)
        except TelegramError as exc:
            log.warning("push %s to chat %s failed: %s", notice.key, chat_id, exc)
            done.failed.append((chat_id, str(exc)))
            continue
        await asyncio.to_thread(service.record_delivery, notice.key, chat_id)
        done.sent.append(chat_id)
    return done


class TelegramChannel:
    """:func:`deliver` for synchronous callers (the outbox worker): the bot's token from the
    environment or the installation's settings (:func:`voevoda.chat.telegram.bot.bot_token`)."""

    def __init__(self, service: Service, token: str | None = None, base_url: str | None = None) -> None:
        self.service = service
        self.token = token
        self.base_url = base_url

    def send(self, notice: Notice, only: int | None = None) -> Delivered:
        return asyncio.run(self._send(notice, only))

    async def _send(self, notice: Notice, only: int | None) -> Delivered:
        from telegram import Bot

        from voevoda.chat.telegram.links import api_url, bot_token

        token = self.token or bot_token(self.service)
        async with Bot(token, base_url=self.base_url or api_url()) as bot:
            return await deliver(self.service, bot, notice, only)


__all__ = ["Delivered", "Notice", "TelegramChannel", "deliver", "messages_for", "resolved_notice"]
