"""The bot behind the web server: Telegram posts each update to ``/telegram/webhook`` (set with
``voevoda telegram webhook URL``), and the web app hands it here, to the same handlers the long
polling of ``voevoda telegram`` runs."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from voevoda.chat.telegram.links import bot_token, webhook_secret
from voevoda.core.errors import GameError

if TYPE_CHECKING:
    from voevoda.chat.telegram.bot import BotSettings
    from voevoda.service import Service

log = logging.getLogger("voevoda.telegram")


class Webhook:
    """The bot's application for one web server process, started on the first update."""

    def __init__(self, service: Service, settings: BotSettings | None = None, *, base_url: str | None = None,
                 base_file_url: str | None = None) -> None:
        self.service = service
        self.settings = settings
        self.base_url = base_url
        self.base_file_url = base_file_url
        self._app: Any = None
        self._token: str | None = None
        self._lock = asyncio.Lock()

    async def _application(self) -> tuple[Any, str] | None:
        try:
            token = await asyncio.to_thread(bot_token, self.service)
        except GameError:
            return None
        async with self._lock:
            if self._app is None or token != self._token:
                from voevoda.chat.telegram.bot import TelegramBot

                if self._app is not None:
                    await self.close()
                bot = TelegramBot(self.service, self.settings)
                app = bot.application(token, base_url=self.base_url, base_file_url=self.base_file_url, polling=False)
                await app.initialize()
                await bot.ready(app)
                await app.start()
                self._app, self._token = app, token
            return self._app, webhook_secret(token)

    async def receive(self, body: bytes, secret: str) -> int:
        """One webhook call: 404 without a bot, 403 without the right secret, else 200 (an update
        that cannot be read is dropped, not answered with an error Telegram would retry forever)."""
        found = await self._application()
        if found is None:
            return 404
        app, expected = found
        if not secrets.compare_digest(secret.encode(), expected.encode()):
            return 403
        from telegram import Update

        try:
            data = json.loads(body)
            update = Update.de_json(data, app.bot) if isinstance(data, dict) else None
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning("a webhook update could not be read: %s", exc)
            return 200
        if update is not None:
            await app.process_update(update)
        return 200

    async def close(self) -> None:
        if self._app is not None:
            app, self._app = self._app, None
            await app.stop()
            await app.shutdown()


__all__ = ["Webhook"]
