"""Issue 26 «Notifications» through issue 27's bot: «At each resolution the player gets their
private report … (the notifications of the deadline issue, through this channel)». The chats
linked through the bot are destinations of kind ``telegram-chat``: the deliverer sends each of
them the bot's own push (``TelegramChannel.send(…, only=chat)``) under the key the bot uses, so a
push the bot already sent is not sent twice. Against the Bot API's stand-in on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from tests.chat.telegram.botapi import TOKEN, BotApi
from tests.chat.telegram.conftest import ring
from voevoda.chat.telegram.push import TelegramChannel, resolved_notice
from voevoda.notify.deliver import deliver_due
from voevoda.notify.transport import NotifySettings
from voevoda.service import OPERATOR, Service

ANNA, BORIS, GROUP = 111, 222, -100900
START = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)


@pytest.fixture()
def api() -> Iterator[BotApi]:
    with BotApi() as stand_in:
        yield stand_in


def play(service: Service, gm: object) -> int:
    game = service.store.load("кольцо")
    for player in game.record.players:
        service.post(OPERATOR, "кольцо", player, game.bot_post(player))
    service.resolve(OPERATOR, "кольцо", step=game.step_number + 1)
    return game.step_number + 1


def test_each_linked_chat_gets_its_own_push_once(tmp_path: Path, api: BotApi) -> None:
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'bot.db'}")
        gm = ring(service, api)
        api.chat(GROUP, "supergroup", title="Игра")
        service.link_chat(service.chat_link(gm, "group", "кольцо"), GROUP, "group")
        settings = NotifySettings(telegram_token=TOKEN, telegram_api=api.base_url)
        play(service, gm)
        api.failing[BORIS] = 1  # Борис's first push is refused (403), then goes
        first = deliver_due(service, datetime.now(UTC), settings=settings)
        assert first.failed == 1 and first.sent == 2, first.errors
        anna = " ".join(c.visible for c in api.sent(ANNA))
        group = " ".join(c.visible for c in api.sent(GROUP))
        assert "отчёт для Анны" in anna and "Казна" in anna, "her private report, in Russian"
        assert "летопись" in group and "отчёт для" not in group, "the group gets the chronicle only"
        assert api.sent(BORIS) == []
        clock.shift(timedelta(seconds=31))
        again = deliver_due(service, datetime.now(UTC), settings=settings)
        assert again.sent == 1 and "отчёт для Бориса" in " ".join(c.visible for c in api.sent(BORIS))
        # the posts are not announced to chats: only resolutions and reminders are pushed
        assert deliver_due(service, datetime.now(UTC), settings=settings).sent == 0

        # a push the bot already sent (voevoda telegram push, a /resolve in the chat) is not sent again
        step = play(service, gm)
        digest = service.sight(OPERATOR, "кольцо").step_digest(step)
        before = {chat: len(api.sent(chat)) for chat in (ANNA, BORIS, GROUP)}
        done = TelegramChannel(service, token=TOKEN, base_url=api.base_url).send(
            resolved_notice("кольцо", step, digest), only=GROUP)
        assert done.sent == [GROUP]
        pushed = len(api.sent(GROUP))
        report = deliver_due(service, datetime.now(UTC), settings=settings)
        assert report.sent == 3 and len(api.sent(GROUP)) == pushed, "reached before: recorded, not resent"
        assert len(api.sent(ANNA)) > before[ANNA] and len(api.sent(BORIS)) > before[BORIS]
        status = service.delivery_status(gm, "кольцо")
        assert sorted(status.chats) == sorted([ANNA, BORIS, GROUP]) and status.failing == []
        assert status.counts == {"delivered": 6}


def test_without_a_bot_token_the_chats_wait_and_nothing_is_lost(tmp_path: Path, api: BotApi,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOEVODA_TELEGRAM_TOKEN", raising=False)
    service = Service(f"sqlite:///{tmp_path / 'bot.db'}")
    gm = ring(service, api)
    play(service, gm)
    report = deliver_due(service, datetime.now(UTC), settings=NotifySettings(telegram_api=api.base_url))
    assert report.failed == 2 and "no bot token" in report.errors[0]
    assert [f.status for f in service.delivery_status(gm, "кольцо").failing] == ["pending", "pending"]
