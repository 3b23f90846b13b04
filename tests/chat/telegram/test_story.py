"""Issue 27, «Tests»: «a game master links a game and a group, two players link their seats, post
(one with a mistake, then corrected), the deadline passes, each gets only their own report, the
group gets the chronicle» — the real python-telegram-bot against the Bot API's stand-in, by long
polling, a game of Ring of Power (examples/ring-of-power/: Анна's post with three unreadable
lines, then her corrected post; Борис's English post)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.chat.telegram.botapi import TOKEN, BotApi, Call
from tests.chat.telegram.conftest import running
from voevoda.chat.telegram.push import deliver, resolved_notice
from voevoda.clock.worker import run_pass
from voevoda.core import outputs
from voevoda.core.chat import ChatMessage
from voevoda.core.engine import Game
from voevoda.core.ruleset import GM, PUBLIC
from voevoda.notify.deliver import deliver_due
from voevoda.notify.transport import NotifySettings
from voevoda.service import Service

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ring-of-power"
GAME = "Кольцо <b>&</b> Ко"
"""A game name a game master might type, with characters Telegram's HTML would read."""
GM_CHAT, ANNA, BORIS, GROUP = 500, 111, 222, -1001234567890


async def exchange(api: BotApi, chat: int, text: str, at_least: int = 1) -> list[Call]:
    mark = api.mark()
    api.send(chat, text)
    return await api.answers(chat, mark, at_least=at_least)


def expected(messages: list[ChatMessage]) -> list[tuple[str, str]]:
    """What the stand-in must have seen for these messages: the method and its HTML."""
    return [("sendPhoto", m.caption) if m.is_picture else ("sendMessage", m.text) for m in messages]


def seen(calls: list[Call]) -> list[tuple[str, str]]:
    return [(c.method, c.text) for c in calls]


def test_the_story_of_a_turn_played_in_telegram(service: Service, api: BotApi) -> None:
    asyncio.run(story(service, api))


async def story(service: Service, api: BotApi) -> None:
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, "ring-of-power", GAME, ["Анна", "Борис"], seed="examples")
    service.set_schedule(gm, GAME, deadline="2026-12-06T18:00+00:00", early=False)
    api.chat(GM_CHAT, first_name="Ведущий")
    api.chat(ANNA, first_name="Анна", language_code="ru")
    api.chat(BORIS, first_name="Boris", language_code="en-GB")
    api.chat(GROUP, "supergroup", title="Кольцо: игра <по переписке>")
    async with running(service, api) as app:
        # the game master links his own chat, then the game's group (the manage page's links)
        answer = await exchange(api, GM_CHAT, f"/start {service.chat_link(gm, 'account')}")
        assert answer[0].visible == "Готово: этот чат связан с учётной записью «Ведущий». /games"
        answer = await exchange(api, GROUP, f"/start@voevoda_test_bot {service.chat_link(gm, 'group', GAME)}")
        assert answer[0].visible == f"Готово: сюда будут приходить общая хроника и карта игры «{GAME}»."

        # two players open their invitations as deep links: the seat is theirs, the status follows
        for chat, player in ((ANNA, "Анна"), (BORIS, "Борис")):
            token = service.invite(gm, GAME, player, ["Анна", "Борис"])
            answer = await exchange(api, chat, f"/start {token}", at_least=2)
            assert player in answer[0].visible and GAME in answer[0].visible
            assert answer[0].reply_to is not None
        assert "Казна 60, налог к уплате 0" in answer[1].visible or "Treasury 60, tax due 0" in answer[1].visible
        assert answer[0].visible.startswith("Done: you are Борис"), "Telegram's en-GB gets English"
        again = await exchange(api, ANNA, f"/start {token}")
        assert "not valid" in again[0].visible or "недействительно" in again[0].visible, "an invitation is spent once"

        # Анна's first post has three unreadable lines: each named with its line and column
        answer = await exchange(api, ANNA, (EXAMPLES / "bad_post.txt").read_text(encoding="utf-8"))
        text = answer[0].visible
        assert text.startswith("⚠️ Принят 1 приказ, не принято 3, шаг 1")
        assert "строка 2:10 «ход 0303 04x3» — «04x3» — не гекс (четыре цифры)" in text
        assert "строка 3:1 «атаковать 0404» — не понимаю приказ «атаковать»" in text
        assert "строка 4:12 «перевод 10 Кощей» — нет получателя «Кощей»" in text
        assert "• 1 вражда: Борис" in text

        # she corrects it: the echo says it replaces her post, with the orders' prices
        answer = await exchange(api, ANNA, (EXAMPLES / "turn1_anna.txt").read_text(encoding="utf-8"))
        text = answer[0].visible
        assert text.startswith("✅ Принято 2 приказа, шаг 1"), text
        assert "заменяет ваш пост от 06.12 15:00 UTC (1 приказ); ниже — все ваши приказы этого шага" in text
        assert "Не принято" not in text and "строка" not in text.split("\n", 1)[0]

        # Борис writes in English and reads English
        answer = await exchange(api, BORIS, (EXAMPLES / "turn1_boris_en.txt").read_text(encoding="utf-8"))
        assert answer[0].visible.startswith("✅ 2 orders accepted, step 1"), answer[0].visible

        # nothing a player can reach resolves the step
        answer = await exchange(api, BORIS, "/resolve")
        assert answer[0].visible == "⛔ only the game's game master can do this"
        # the group answers /status with the public status only, and nothing else of the game
        answer = await exchange(api, GROUP, "/status")
        game = Game(service.store.load(GAME).record)
        assert seen(answer) == expected(outputs.chat_status(game, PUBLIC, "ru"))
        assert "Казна" not in answer[0].visible and "✓ Анна — приказы получены" in answer[0].visible
        mark = api.mark()
        api.send(GROUP, "Всем привет, ходы сделали?")
        assert await api.quiet(mark, 1.0) == [], "a group's own conversation is not answered"
        answer = await exchange(api, GROUP, "/report")
        assert answer[0].visible == "Здесь я отвечаю только на /status. Приказы, отчёты и карты — в личном чате со мной."

        # the deadline passes: the deadline worker resolves the step and its pass delivers the
        # outbox, the linked chats among its destinations (docs/clock.md, docs/notify.md)
        settings = NotifySettings(telegram_token=TOKEN, telegram_api=api.base_url)
        mark = api.mark()
        service.clock.now = service.clock.now.replace(hour=17, minute=59)  # type: ignore[attr-defined]
        assert (await asyncio.to_thread(run_pass, service)).resolved == 0, "not before its deadline"
        service.clock.now = service.clock.now.replace(hour=18, minute=0)  # type: ignore[attr-defined]
        report = await asyncio.to_thread(
            run_pass, service, deliver=lambda s, now: deliver_due(s, now, settings=settings))
        assert report.resolved == 1 and report.delivered is not None
        assert report.delivered.sent == 4 and report.delivered.failed == 0  # type: ignore[attr-defined]
        digest = service.store.load(GAME).steps[0].digest

        # each chat got exactly its own viewer's push: report of turn 1 and map
        game = Game(service.store.load(GAME).record)
        pushes = {chat: api.sent(chat, mark) for chat in (GM_CHAT, ANNA, BORIS, GROUP)}
        wanted = {GM_CHAT: outputs.chat_push(game, GM, "ru"), ANNA: outputs.chat_push(game, "Анна", "ru"),
                  BORIS: outputs.chat_push(game, "Борис", "en"), GROUP: outputs.chat_push(game, PUBLIC, "ru")}
        for chat, calls in pushes.items():
            assert seen(calls) == expected(wanted[chat]), chat
            photo = next(c for c in calls if c.method == "sendPhoto")
            picture = next(m for m in wanted[chat] if m.is_picture)
            assert photo.files and next(iter(photo.files.values())) == picture.png(), "the viewer's own map"
        assert "отчёт для Анны" in pushes[ANNA][1].visible
        assert "report for Борис" in pushes[BORIS][1].visible
        # a private report reaches no other chat: its heading, the treasury, the fogged map
        heading = {ANNA: "отчёт для Анны", BORIS: "report for Борис"}
        for chat, words in heading.items():
            others = [c for other in (ANNA, BORIS, GROUP) if other != chat for c in pushes[other]]
            assert not any(words in c.visible for c in others), (chat, words)
        treasury = outputs.chat_status(game, "Анна", "ru")[0].text.split("Казна ", 1)[1].split(",", 1)[0]
        for chat in (BORIS, GROUP):
            assert not any(f"Казна {treasury}," in c.visible for c in pushes[chat])
        maps = {chat: next(iter(next(c for c in pushes[chat] if c.method == "sendPhoto").files.values()))
                for chat in (ANNA, BORIS, GROUP)}
        assert len(set(maps.values())) == 3, "each chat sees its own fog"
        assert "летопись" in pushes[GROUP][1].visible, "the group gets the public chronicle"

        # delivered again (a retry of the outbox), the notice reaches nobody twice
        mark = api.mark()
        again_delivered = await deliver(service, app.bot, resolved_notice(GAME, 1, digest))
        assert again_delivered.sent == [] and sorted(again_delivered.already) == sorted(pushes)
        assert await api.quiet(mark, 0.3) == []
