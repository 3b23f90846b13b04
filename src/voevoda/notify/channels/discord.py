"""Discord's incoming webhook (``https://discord.com/api/webhooks/…``): ``{"content": …}`` in
Discord's Markdown, at most 2,000 characters a message, mentions switched off
(``allowed_mentions``: a player's ``@everyone`` pings nobody)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voevoda.notify.channels import Target, split_text
from voevoda.notify.channels.http import post_json

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport

LIMIT = 2000


class Discord:
    kind = "discord"
    limit: int | None = LIMIT

    def parts(self, content: Content) -> list[str]:
        return split_text(content.render("markdown", "discord"), LIMIT)

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        payload = {"content": part, "username": "Воевода", "allowed_mentions": {"parse": []}}
        post_json(transport.http, target.address, payload, key)


CHANNEL = Discord()
