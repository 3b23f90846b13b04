"""Issue 27, «In the private chat»: ``/ready``; «The game master»: ``/pause``, ``/resume`` — each a
call of the service's clock operations (issue 26, docs/clock.md), refused by the service where the
chat's account may not: a player can't pause, a player readies only their own seat."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from tests.chat.telegram.botapi import BotApi
from tests.chat.telegram.conftest import exchange, ring, running
from voevoda.service import Service
from voevoda.store.models import OutboxRow

ANNA, BORIS, GM_CHAT = 111, 222, 500


def test_ready_pause_and_resume_from_private_chats(service: Service, api: BotApi) -> None:
    gm = ring(service, api)
    api.chat(GM_CHAT, first_name="Ведущий")
    service.link_chat(service.chat_link(gm, "account"), GM_CHAT, "private")
    service.set_schedule(gm, "кольцо", period="48h", timezone="Europe/Moscow", ready_required=True)

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/ready")
            assert answer[0].visible == "✓ «кольцо», шаг 1: вы готовы. Срок: 2026-12-08 18:00 MSK (+03:00) (через 2 д)."
            answer = await exchange(api, ANNA, "/ready no")
            assert answer[0].visible.startswith("«кольцо», шаг 1: вы больше не готовы.")
            answer = await exchange(api, ANNA, "/ready now please")
            assert answer[0].visible.startswith("/ready — готов")
            answer = await exchange(api, BORIS, "/ready")
            assert answer[0].visible.startswith("✓ 'кольцо', step 1: you are ready.")
            answer = await exchange(api, ANNA, "/pause хочу отдохнуть")
            assert answer[0].visible == "⛔ это может только ведущий игры"
            answer = await exchange(api, GM_CHAT, "/pause")
            assert answer[0].visible.startswith("Назовите причину")
            answer = await exchange(api, GM_CHAT, "/pause праздники <до> 10 января")
            assert answer[0].visible == "⏸ «кольцо» на паузе: праздники <до> 10 января"
            assert "&lt;до&gt;" in answer[0].text  # the reason is escaped for Telegram's HTML
            answer = await exchange(api, GM_CHAT, "/pause ещё раз")
            assert answer[0].visible == "⛔ игра уже на паузе"
            answer = await exchange(api, ANNA, "/resume")
            assert answer[0].visible == "⛔ это может только ведущий игры"
            answer = await exchange(api, GM_CHAT, "/resume")
            assert answer[0].visible == "▶ «кольцо» продолжается. Срок: 2026-12-08 18:00 MSK (+03:00)."
    asyncio.run(play())
    with service.store.reads() as session:
        kinds = [row.kind for row in session.scalars(select(OutboxRow).where(OutboxRow.kind.in_(("paused", "resumed"))))]
    assert kinds == ["paused", "resumed"]
    assert [s.ready for s in service.deadline(gm, "кольцо").seats] == [False, True]
