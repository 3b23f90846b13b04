"""Telegram's ``sendMessage`` called by URL (``https://api.telegram.org/bot<token>/sendMessage``
and a chat id): for a channel or group the game master's own bot posts in. Telegram's HTML, cut
within 4,096 characters (:func:`voevoda.core.markup.split_telegram`); an answer whose ``ok`` is
not true is a failure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voevoda.core.markup import MESSAGE_BREAK, split_telegram
from voevoda.notify.channels import DeliveryFailed, Target
from voevoda.notify.channels.http import post_json

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport

LIMIT = 4096


class TelegramWebhook:
    kind = "telegram-webhook"
    limit: int | None = LIMIT

    def parts(self, content: Content) -> list[str]:
        html = content.render("telegram", None).replace(MESSAGE_BREAK, "\n\n")
        return [part for part in split_telegram(html, LIMIT) if part.strip()]

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        payload = {"chat_id": target.chat_id, "text": part, "parse_mode": "HTML",
                   "link_preview_options": {"is_disabled": True}}
        response = post_json(transport.http, target.address, payload, key)
        try:
            answer = response.json()
        except ValueError as exc:
            raise DeliveryFailed("Telegram: the answer is not JSON") from exc
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            raise DeliveryFailed(f"Telegram: {str(answer)[:300]}")


CHANNEL = TelegramWebhook()
