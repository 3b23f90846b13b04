"""Issue 27, «Bad input»: «stickers, photos, edited messages, commands with junk arguments, a flood
of messages: a short answer or silence, never a traceback; a rate limit per chat»; and «Hidden
information»: «a private report never reaches the group or another player's chat, whatever is
typed, forwarded or replayed»."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.chat.telegram.botapi import BotApi
from tests.chat.telegram.conftest import FrozenClock, exchange, ring, running
from voevoda.chat.telegram.bot import _game_key
from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.service import CLOCK, Service

ANNA, BORIS, GROUP = 111, 222, -100777


def linked_group(service: Service, api: BotApi, gm: object, game: str = "кольцо") -> None:
    api.chat(GROUP, "supergroup", title="Игра")
    service.link_chat(service.chat_link(gm, "group", game), GROUP, "group", title="Игра")  # type: ignore[arg-type]


def test_what_is_not_text_gets_a_short_answer_in_private_and_silence_in_a_group(service: Service,
                                                                                 api: BotApi) -> None:
    gm = ring(service, api)
    linked_group(service, api, gm)

    async def play() -> None:
        async with running(service, api):
            for send in (lambda: api.sticker(ANNA), lambda: api.photo(ANNA, "мой приказ на фото")):
                mark = api.mark()
                send()
                answer = await api.answers(ANNA, mark)
                assert [c.visible for c in answer] == ["Я читаю только текст: пришлите приказы обычным сообщением."]
            mark = api.mark()
            api.edit(ANNA, "ход 0303 0403")
            answer = await api.answers(ANNA, mark)
            assert answer[0].visible.startswith("Правки сообщений я не читаю")
            assert service.standing_post(gm, "кольцо", "Анна") is None, "an edit is not a post"
            mark = api.mark()
            api.sticker(GROUP)
            api.photo(GROUP)
            api.edit(GROUP, "/status")
            api.send(GROUP, "/status@another_bot")
            api.send(GROUP, "/unknowncommand")
            assert await api.quiet(mark, 1.5) == [], "a group hears nothing of what is not addressed to the bot"
    asyncio.run(play())


@pytest.mark.parametrize(("command", "answer"), [
    ("/report 1 2", "⛔ Номер хода — число: например, /report 2."),
    ("/report -1", "⛔ Номер хода — число: например, /report 2."),
    ("/report 99999999999999", "⛔ Номер хода — число: например, /report 2."),
    ("/map file file file x", "⛔ Номер хода — число: например, /map 2."),
    ("/resolve please", "/resolve или /resolve force (приказы по умолчанию тем, кто молчит)."),
    ("/lang klingon", "/lang ru или /lang en."),
    ("/start ../../etc/passwd", "⛔ ссылка недействительна: она уже использована, устарела или неверна"),
    ("/start a b", "⛔ ссылка недействительна: она уже использована, устарела или неверна"),
    ("/start " + "x" * 64, "⛔ ссылка недействительна: она уже использована, устарела или неверна"),
    ("/odds lots\n[attacker]", "Пришлите файл битвы (TOML, как для voevoda odds) следующими строками после /odds; "
                               "число после команды — сколько битв."),
    ("/frobnicate", "Не знаю такой команды. /help"),
])
def test_junk_arguments_get_a_short_answer(service: Service, api: BotApi, command: str, answer: str) -> None:
    ring(service, api)

    async def play() -> list[str]:
        async with running(service, api):
            return [c.visible for c in await exchange(api, ANNA, command)]
    assert asyncio.run(play()) == [answer]


def test_a_flood_is_cut_by_the_chats_rate_limit(tmp_path: Path, api: BotApi) -> None:
    """Over the limit a chat hears «wait» once, then nothing until the window frees it; other
    chats are not slowed."""
    service = Service(f"sqlite:///{tmp_path / 'flood.db'}", clock=FrozenClock(), throttles={"chat": (5, 60.0)})
    ring(service, api)

    async def play() -> None:
        async with running(service, api):
            mark = api.mark()
            for _ in range(12):
                api.send(ANNA, "/help")
            answer = await api.answers(ANNA, mark, at_least=6, settle=1.5)
            assert len(answer) == 6
            assert answer[-1].visible.startswith("Слишком много сообщений: подождите ") and answer[-1].visible.endswith(" с.")
            assert all(c.visible.startswith("Бот ведущего voevoda") for c in answer[:5])
            answer = await exchange(api, BORIS, "/help")
            assert answer[0].visible.startswith("The voevoda referee bot")
    asyncio.run(play())


def test_a_fault_of_ours_is_an_apology_never_a_traceback(service: Service, api: BotApi,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    ring(service, api)

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the disk is on fire")

    async def play() -> list[str]:
        async with running(service, api):
            monkeypatch.setattr(service, "games", broken)
            return [c.visible for c in await exchange(api, ANNA, "/status")]
    with caplog.at_level(logging.ERROR, logger="voevoda.telegram"):
        answer = asyncio.run(play())
    assert answer == ["Что-то пошло не так на нашей стороне; ведущий найдёт это в журнале бота. Ничего не изменено "
                      "или изменено целиком — посмотрите /status."]
    assert "the disk is on fire" in caplog.text, "the traceback goes to the log"


def test_nothing_typed_forwarded_or_pressed_brings_a_private_report_to_the_group_or_another_chat(
        service: Service, api: BotApi) -> None:
    """In the group every command but /status (and /help) is answered with «private chat only»,
    and /status is the public status; Борис pasting Анна's report into his chat posts it as his
    own text (its lines are «not read as orders», nothing of hers is added); a button of Анна's
    game pressed in the group, or by Борис, chooses nothing for anybody."""
    gm = ring(service, api)
    linked_group(service, api, gm)
    service.post(gm, "кольцо", "Анна", "ход 0303 0403\nвражда Борис")
    service.resolve(CLOCK, "кольцо", step=1, force=True)
    game = Game(service.store.load("кольцо").record)
    anna_report = outputs.chat_report(game, "Анна", 1, "ru")[0].text

    async def play() -> None:
        async with running(service, api):
            for command in ("/report", "/report 1", "/map", "/check ход 0303 0403", "/games", "/odds 10\nx=1",
                            "/resolve force", "/rollback потому что"):
                answer = await exchange(api, GROUP, command)
                assert [c.visible for c in answer] == [
                    "Здесь я отвечаю только на /status. Приказы, отчёты и карты — в личном чате со мной."], command
            answer = await exchange(api, GROUP, "/status")
            assert [c.text for c in answer] == [m.text for m in outputs.chat_status(game, "public", "ru")]
            assert service.current_step("кольцо") == 1
            # Борис pastes Анна's report (as a forwarded text arrives: plain text in his chat)
            from tests.chat.telegram.botapi import parse_html

            mark = api.mark()
            api.send(BORIS, parse_html(anna_report))
            answer = await api.answers(BORIS, mark)
            assert answer[0].visible.startswith("❌ Orders rejected"), "read as his own post, refused as one"
            assert service.standing_post(gm, "кольцо", "Борис") is None
            assert {c.chat_id for c in api.sent(None, mark)} == {BORIS}
            # a button pressed in the group, or in Борис's chat with a key of Анна's game
            mark = api.mark()
            sent = api.sent(GROUP)[-1]
            api.press(GROUP, api.message_of(sent), _game_key("кольцо"), sender=api.chat(ANNA)["user"])
            api.press(GROUP, api.message_of(sent), "l:en")
            answer = await exchange(api, BORIS, "/lang")  # a message with buttons, pressed with other data
            api.press(BORIS, api.message_of(answer[0]), _game_key("кольцо"))
            await asyncio.sleep(1.0)
            assert api.sent(None, mark) == [answer[0]], "a button a message does not carry does nothing"
            assert [c.method for c in api.calls[mark:] if c.method not in ("getUpdates", "sendMessage")] == [
                "answerCallbackQuery"] * 3
            assert service.chat(GROUP).lang == "ru" and service.chat(ANNA).game == "кольцо"
    asyncio.run(play())


def test_a_group_the_bot_leaves_is_forgotten(service: Service, api: BotApi) -> None:
    gm = ring(service, api)
    linked_group(service, api, gm)
    assert service.linked_group(gm, "кольцо") is not None

    async def play() -> None:
        async with running(service, api):
            api.left(GROUP)
            await api.consumed()
            await asyncio.sleep(0.5)
    asyncio.run(play())
    assert service.linked_group(gm, "кольцо") is None
    assert GROUP not in [r.chat_id for r in service.chat_recipients("кольцо")]


def test_a_chat_that_blocked_the_bot_is_retried_and_the_others_are_not_sent_twice(service: Service,
                                                                                  api: BotApi) -> None:
    """A push Telegram refuses for one chat (403: the user blocked the bot) comes back as failed,
    to deliver again; delivered again, it reaches only that chat."""
    from voevoda.chat.telegram.push import TelegramChannel, resolved_notice

    ring(service, api)
    done = service.resolve(CLOCK, "кольцо", step=1, force=True)
    notice = resolved_notice("кольцо", 1, done.step.digest)
    api.failing[BORIS] = 1
    channel = TelegramChannel(service, token="123456789:AAEtestTokenForTheLoopbackStandIn_0123", base_url=api.base_url)
    first = channel.send(notice)
    assert first.sent == [ANNA] and [chat for chat, _ in first.failed] == [BORIS]
    assert "blocked" in first.failed[0][1].lower()
    mark = api.mark()
    second = channel.send(notice)
    assert second.sent == [BORIS] and second.already == [ANNA] and second.complete
    assert {c.chat_id for c in api.sent(None, mark)} == {BORIS}
