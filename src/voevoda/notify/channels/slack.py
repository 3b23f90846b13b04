"""Slack's incoming webhook (``https://hooks.slack.com/services/…``): ``{"text": …}``, plain text
with Slack's three characters escaped (``&``, ``<``, ``>``) and formatting off (``mrkdwn``:
false), at most 4,000 characters a message (Slack shows longer texts cut; its guidelines ask for
under 4,000)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voevoda.notify.channels import Target, split_text
from voevoda.notify.channels.http import post_json

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport

LIMIT = 4000


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Slack:
    kind = "slack"
    limit: int | None = LIMIT

    def parts(self, content: Content) -> list[str]:
        return split_text(escape(content.render("text", None)), LIMIT)

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        post_json(transport.http, target.address, {"text": part, "mrkdwn": False}, key)


CHANNEL = Slack()
