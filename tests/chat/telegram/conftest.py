"""The bot against the Bot API's stand-in (:mod:`tests.chat.telegram.botapi`): a service on a
fresh SQLite database, the real python-telegram-bot application pointed at the stand-in with its
``base_url`` setting, long polling as ``voevoda telegram`` runs it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.chat.telegram.botapi import TOKEN, BotApi
from voevoda.chat.telegram.bot import BotSettings, TelegramBot
from voevoda.service import Service


class FrozenClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture()
def service(tmp_path: Path) -> Service:
    return Service(f"sqlite:///{tmp_path / 'bot.db'}", clock=FrozenClock())


@pytest.fixture()
def api() -> Iterator[BotApi]:
    with BotApi() as stand_in:
        yield stand_in


SETTINGS = BotSettings(join_window=0.5, compile_in_background=False)


@contextlib.asynccontextmanager
async def running(service: Service, api: BotApi, settings: BotSettings = SETTINGS) -> AsyncIterator[Any]:
    """The bot polling the stand-in; yields the application (``app.bot`` sends pushes)."""
    bot = TelegramBot(service, settings)
    app = bot.application(TOKEN, base_url=api.base_url, base_file_url=api.base_file_url)
    await app.initialize()
    await bot.ready(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=1)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


async def exchange(api: BotApi, chat: int, text: str, at_least: int = 1, settle: float = 0.4) -> list[Any]:
    """``text`` written in ``chat``; the bot's answers there."""
    mark = api.mark()
    api.send(chat, text)
    return await api.answers(chat, mark, at_least=at_least, settle=settle)


def seat(service: Service, gm: Any, game: str, player: str, chat: int, players: list[str]) -> None:
    """``chat`` opens the invitation of ``player``'s seat (what ``/start <token>`` does, straight
    through the service: the story test goes through the bot)."""
    service.link_chat(service.invite(gm, game, player, players), chat, "private", name=player)


def ring(service: Service, api: BotApi, game: str = "кольцо", chats: dict[str, int] | None = None) -> Any:
    """A Ring of Power game of Анна and Борис owned by the installation's game master, each seat
    held by a private chat (Анна 111 in Russian, Борис 222 in English); the game master."""
    gm, _ = service.init_gm("Ведущий")
    players = ["Анна", "Борис"]
    service.create_game(gm, "ring-of-power", game, players, seed="examples")
    for player, chat in (chats or {"Анна": 111, "Борис": 222}).items():
        api.chat(chat, first_name=player, language_code="ru" if player == "Анна" else "en")
        seat(service, gm, game, player, chat, players)
    return gm
