"""The channels a notification goes out by (docs/notify.md), one module per kind: each knows its
message shape, the format its text is rendered in and the most characters one message may hold.

| kind | module | text | one message at most |
|---|---|---|---|
| ``discord`` | :mod:`.discord` | Markdown (Discord's) | 2,000 characters |
| ``slack`` | :mod:`.slack` | plain text, Slack-escaped | 4,000 characters |
| ``telegram-webhook`` | :mod:`.telegram_webhook` | Telegram's HTML | 4,096 characters |
| ``webhook`` | :mod:`.webhook` | plain text in a signed JSON payload | not cut |
| ``email`` | :mod:`.smtp` | plain text | not cut |
| ``telegram-chat`` | :mod:`.telegram_chat` | the bot's pushes (chat/telegram/push.py) | 4,096 characters |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport


class DeliveryFailed(Exception):
    """A receiver refused or did not answer: try again later (``retry_after``: seconds the
    receiver asked to wait)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class Target:
    """Where one destination delivers: its address, Telegram's chat id, its signing key."""

    kind: str
    address: str
    chat_id: str | None = None
    secret: str | None = None


class Channel(Protocol):
    """One kind of destination."""

    kind: str
    limit: int | None
    """The most characters one message holds (``None``: one message, whatever its length)."""

    def parts(self, content: Content) -> list[str]:
        """The content as the messages to send, each within :attr:`limit`."""
        ...

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        """Send part ``number`` (from 1) of ``count``; :class:`DeliveryFailed` when it did not go."""
        ...


def channel(kind: str) -> Channel:
    """The channel of ``kind``; ValueError for one there is not."""
    from voevoda.notify.channels import discord, slack, smtp, telegram_webhook, webhook

    known: dict[str, Channel] = {"discord": discord.CHANNEL, "slack": slack.CHANNEL, "email": smtp.CHANNEL,
                                 "telegram-webhook": telegram_webhook.CHANNEL, "webhook": webhook.CHANNEL}
    if kind not in known:
        raise ValueError(f"unknown channel kind {kind!r}")
    return known[kind]


KINDS = ("discord", "slack", "telegram-webhook", "webhook", "email")
"""The kinds a destination may be added as (``telegram-chat`` comes from the bot's links)."""


def split_text(text: str, limit: int) -> list[str]:
    """Cut ``text`` (plain text or Markdown) into pieces of at most ``limit`` characters: at the
    last blank line in the second half of the piece, else at the last line break, else at the
    last space, else anywhere; a code block cut in two is closed and opened again; an HTML-like
    entity (``&amp;``) is never cut."""
    rest = text.strip("\n")
    pieces: list[str] = []
    room = limit - 8  # what a closed and reopened code fence may add
    while len(rest) > limit:
        window = rest[:room]
        cut = -1
        for mark in ("\n\n", "\n", " "):
            found = window.rfind(mark)
            if found >= room // 2:
                cut = found
                break
        if cut <= 0:
            cut = room
            amp = window.rfind("&", max(0, room - 10))
            if amp > 0 and ";" not in window[amp:]:
                cut = amp
        head, rest = rest[:cut].rstrip(), rest[cut:].lstrip("\n")
        if head.count("```") % 2:
            head += "\n```"
            rest = "```\n" + rest
        if head.strip():
            pieces.append(head)
    if rest.strip():
        pieces.append(rest)
    return pieces


__all__ = ["KINDS", "Channel", "DeliveryFailed", "Target", "channel", "split_text"]
