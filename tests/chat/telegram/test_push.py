"""Issue 27: «reminders before the deadline (the notifications of the deadline issue, through this
channel)» — :func:`voevoda.chat.telegram.push.deliver`, the function the outbox calls, tested
directly: a seat still awaited is reminded, one that has posted hears nothing, the group hears who
is awaited; a reminder of a step resolved meanwhile is not sent; an outbox that keeps a row per
chat delivers to that chat alone."""

from __future__ import annotations

from tests.chat.telegram.botapi import TOKEN, BotApi
from tests.chat.telegram.conftest import ring
from voevoda.chat.telegram.push import Notice, TelegramChannel
from voevoda.service import CLOCK, Service

ANNA, BORIS, GROUP = 111, 222, -100900


def test_a_reminder_goes_to_the_seats_still_awaited_and_to_the_group(service: Service, api: BotApi) -> None:
    gm = ring(service, api)
    api.chat(GROUP, "supergroup", title="Игра")
    service.link_chat(service.chat_link(gm, "group", "кольцо"), GROUP, "group")
    service.set_chat_language(BORIS, "en")
    service.post(gm, "кольцо", "Анна", "ход 0303 0403")
    channel = TelegramChannel(service, token=TOKEN, base_url=api.base_url)
    notice = Notice("кольцо", "deadline", 1, "deadline:кольцо:1:1h", deadline="06.12.2026 18:00 MSK")
    done = channel.send(notice, only=GROUP)
    assert done.sent == [GROUP] and [c.visible for c in api.sent(GROUP)] == [
        "Игра «кольцо» — Кольцо Власти\n⏰ срок шага 1: 06.12.2026 18:00 MSK\nещё ждём: Борис"]
    assert api.sent(ANNA) == [] and api.sent(BORIS) == [], "only the chat named"
    done = channel.send(notice)
    assert done.sent == [BORIS] and done.nothing == [ANNA] and done.already == [GROUP]
    text = api.sent(BORIS)[0].visible
    assert text.startswith("Game «кольцо» — Ring of Power\n⏰ deadline of step 1: 06.12.2026 18:00 MSK\n"
                           "we are waiting for your orders: Turn 1: your orders. Treasury 60"), text
    assert "Казна" not in text and "Анна" not in text.split("\n", 2)[2]
    service.resolve(CLOCK, "кольцо", step=1, force=True)
    late = channel.send(Notice("кольцо", "deadline", 1, "deadline:кольцо:1:late", deadline="18:00"))
    assert late.sent == [] and sorted(late.nothing) == sorted([ANNA, BORIS, GROUP])
