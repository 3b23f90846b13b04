"""What the bot, the command line and the web app share without loading the Telegram library:
where the bot's token comes from, the Bot API's address, the webhook's secret, deep links."""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from voevoda.core.errors import GameError

if TYPE_CHECKING:
    from voevoda.service import Service

TOKEN_ENV = "VOEVODA_TELEGRAM_TOKEN"
API_ENV = "VOEVODA_TELEGRAM_API"
"""The Bot API's address (``https://api.telegram.org/bot`` unless set: a local Bot API server)."""
FILE_API_ENV = "VOEVODA_TELEGRAM_FILE_API"
WEBHOOK_PATH = "/telegram/webhook"


def bot_token(service: Service) -> str:
    """The bot's token: ``VOEVODA_TELEGRAM_TOKEN``, else the one the installation's game master
    stored (never a file of the repository)."""
    token = os.environ.get(TOKEN_ENV, "").strip() or service.telegram_token()
    if not token:
        raise GameError(f"нет токена бота: задайте {TOKEN_ENV} или сохраните токен (voevoda telegram token)",
                        f"no bot token: set {TOKEN_ENV} or store one (voevoda telegram token)")
    return token


def api_url() -> str:
    return os.environ.get(API_ENV, "").strip() or "https://api.telegram.org/bot"


def file_api_url() -> str | None:
    return os.environ.get(FILE_API_ENV, "").strip() or None


def webhook_secret(token: str) -> str:
    """The secret Telegram sends with every webhook call (``X-Telegram-Bot-Api-Secret-Token``),
    derived from the bot's token: ``voevoda telegram webhook`` and the web server agree on it
    without storing it."""
    return hashlib.sha256(b"voevoda telegram webhook\0" + token.encode("utf-8")).hexdigest()


def deep_link(username: str | None, payload: str, group: bool = False) -> str | None:
    """``https://t.me/<bot>?start=<payload>`` (``startgroup``: add the bot to a group), when the
    bot's name is known (the bot learns it when it starts)."""
    if not username:
        return None
    return f"https://t.me/{username}?{'startgroup' if group else 'start'}={payload}"


__all__ = ["API_ENV", "FILE_API_ENV", "TOKEN_ENV", "WEBHOOK_PATH", "api_url", "bot_token", "deep_link",
           "file_api_url", "webhook_secret"]
