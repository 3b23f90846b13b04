"""Issue 27, «In the private chat» and «The game master»: every command of the bot against the Bot
API's stand-in — ``/games`` with inline buttons, ``/check``, ``/status``, ``/report [turn]``,
``/map`` (a photo, or a file), ``/odds`` for a Steel Rose battle file, ``/lang``, ``/unlink``, a
post cut by Telegram read as one, and the game master's ``/resolve`` and ``/rollback``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.chat.telegram.botapi import BotApi
from tests.chat.telegram.conftest import exchange, ring, running
from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.service import ANONYMOUS, CLOCK, Service

ROOT = Path(__file__).resolve().parents[3]
ANNA, BORIS, GM_CHAT = 111, 222, 500


def game_of(service: Service, name: str) -> Game:
    return Game(service.store.load(name).record)


def test_a_player_in_two_games_chooses_one_with_the_buttons(service: Service, api: BotApi) -> None:
    """«a player in several games chooses the game (/games, inline buttons)»: a post asks which
    game first; a button chooses it (answerCallbackQuery, the list edited with a ✓); a button of
    a game the player has no part in chooses nothing."""
    gm, _ = service.init_gm("Ведущий")
    anna = None
    for game, players in (("первая", ["Анна", "Борис"]), ("вторая", ["Анна", "Вера"])):
        service.create_game(gm, "ring-of-power", game, players, seed="examples")
        anna = service.join(service.invite(gm, game, "Анна", players), anna or ANONYMOUS).person  # on the web
    service.create_game(gm, "ring-of-power", "чужая", ["Глеб", "Вера"], seed="examples")
    api.chat(ANNA, first_name="Анна")
    assert anna is not None
    service.link_chat(service.chat_link(anna, "account"), ANNA, "private")  # her chat, linked afterwards

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "ход 0303 0403")
            assert answer[0].visible == "Выберите игру:"
            labels = [label for label, _ in answer[0].buttons]
            assert labels == ["вторая — Кольцо Власти · игрок Анна", "первая — Кольцо Власти · игрок Анна"]
            assert service.standing_post(gm, "первая", "Анна") is None, "nothing posted before a game is chosen"
            mark = api.mark()
            api.press(ANNA, api.message_of(answer[0]), answer[0].buttons[0][1])
            edited = await api.answers(ANNA, mark)
            assert [c.method for c in edited] == ["editMessageText"]
            assert edited[0].visible.startswith("Игра: «вторая»")
            assert [label for label, _ in edited[0].buttons][0].startswith("✓ вторая")
            assert any(c.method == "answerCallbackQuery" for c in api.calls[mark:])
            answer = await exchange(api, ANNA, "ход 0303 0403")
            assert answer[0].visible.startswith("✅ Принят 1 приказ, шаг 1")
            assert service.standing_post(gm, "вторая", "Анна") is not None
            assert service.standing_post(gm, "первая", "Анна") is None
            # a forged button: the key of a game that is not hers
            from voevoda.chat.telegram.bot import _game_key

            mark = api.mark()
            api.press(ANNA, api.message_of(answer[0]), _game_key("чужая"))
            await asyncio.sleep(1.0)
            assert [c.method for c in api.calls[mark:] if c.method != "getUpdates"] == ["answerCallbackQuery"]
            assert service.chat(ANNA).game == "вторая"
            answer = await exchange(api, ANNA, "/games")
            assert [label for label, _ in answer[0].buttons] == ["✓ вторая — Кольцо Власти · игрок Анна",
                                                                 "первая — Кольцо Власти · игрок Анна"]
    asyncio.run(play())


def test_check_reads_without_storing(service: Service, api: BotApi) -> None:
    """«/check reads without storing»: the echo of a check, and nothing stored; a reply to a post
    checks that post; /check alone says how to use it."""
    gm = ring(service, api)

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/check Всем привет!\nход 0303 0403\nвражда Боррис")
            text = answer[0].visible
            assert text.startswith("⚠️ Проверено: будет принят 1 приказ, не принято 1, шаг 1"), text
            assert "строка 3" in text and "Боррис" in text and "• 1 Всем привет!" in text
            assert service.standing_post(gm, "кольцо", "Анна") is None
            mark = api.mark()
            post = api.send(ANNA, "ход 0303 0403")["message"]
            await api.answers(ANNA, mark)
            mark = api.mark()
            api.send(ANNA, "/check", reply_to=post)
            answer = await api.answers(ANNA, mark)
            assert answer[0].visible.startswith("✅ Проверено: будет принят 1 приказ, шаг 1")
            assert "заменит ваш пост" in answer[0].visible
            answer = await exchange(api, ANNA, "/check")
            assert answer[0].visible.startswith("Напишите пост после команды")
    asyncio.run(play())


def test_status_report_and_map_of_a_turn(service: Service, api: BotApi) -> None:
    """/status, /report [turn] (cut into messages as the «telegram report» channel cuts it), /map
    as a photo, and /map file as a PNG document; a turn that is not resolved is refused."""
    gm = ring(service, api)

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/report")
            assert answer[0].visible == "Отчётов ещё нет: ни один шаг не рассчитан."
            service.post(gm, "кольцо", "Анна", (ROOT / "examples/ring-of-power/turn1_anna.txt").read_text())
            service.resolve(CLOCK, "кольцо", step=1, force=True)
            game = game_of(service, "кольцо")
            answer = await exchange(api, ANNA, "/status")
            assert [c.text for c in answer] == [m.text for m in outputs.chat_status(game, "Анна", "ru")]
            answer = await exchange(api, BORIS, "/report 1")
            assert [c.text for c in answer] == [m.text for m in outputs.chat_report(game, "Борис", 1, "en")]
            assert "report for Борис" in answer[0].visible
            answer = await exchange(api, ANNA, "/report 9")
            assert answer[0].visible.startswith("⛔ хода 9 нет среди рассчитанных")
            answer = await exchange(api, ANNA, "/map")
            assert answer[0].method == "sendPhoto" and answer[0].visible == "«кольцо»: карта после хода 1 — Анна"
            png = next(iter(answer[0].files.values()))
            assert png.startswith(b"\x89PNG") and png == outputs.chat_map(game, "Анна", "ru")[0].png()
            answer = await exchange(api, ANNA, "/map 1 file")
            assert answer[0].method == "sendDocument" and answer[0].files
            answer = await exchange(api, ANNA, "/map abc")
            assert answer[0].visible == "⛔ Номер хода — число: например, /map 2."
    asyncio.run(play())


def test_the_chat_chooses_its_language(service: Service, api: BotApi) -> None:
    """«the player's language (language_code or a choice)»: /lang with buttons, /lang en."""
    ring(service, api)

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/status")
            assert answer[0].visible.startswith("Игра «кольцо» — Кольцо Власти")
            answer = await exchange(api, ANNA, "/lang")
            assert [data for _, data in answer[0].buttons] == ["l:ru", "l:en"]
            mark = api.mark()
            api.press(ANNA, api.message_of(answer[0]), "l:en")
            edited = await api.answers(ANNA, mark)
            assert edited[0].visible == "Language: English."
            answer = await exchange(api, ANNA, "/status")
            assert answer[0].visible.startswith("Game «кольцо» — Ring of Power")
            answer = await exchange(api, ANNA, "/lang de")
            assert answer[0].visible == "/lang ru or /lang en."
            answer = await exchange(api, ANNA, "/lang ru")
            assert answer[0].visible == "Язык: русский."
    asyncio.run(play())


def test_a_post_telegram_cut_in_two_is_read_as_one(service: Service, api: BotApi) -> None:
    """Telegram cuts a message longer than 4,096 characters into several: the parts that follow
    a long one at once are read as one post (the echo counts the orders of both, and does not
    say that the second replaced the first)."""
    gm = ring(service, api)
    first = "ход 0303 0403\n" + "\n".join(f"Комментарий к плану, строка {i}: идём на север." for i in range(90))
    assert len(first) > 3500

    async def play() -> None:
        async with running(service, api):
            mark = api.mark()
            api.send(ANNA, first)
            api.send(ANNA, "вражда Борис")
            answer = await api.answers(ANNA, mark, settle=1.0)
            assert answer[0].visible.startswith("✅ Принято 2 приказа, шаг 1")
            assert "• 92 вражда: Борис" in answer[0].visible
            assert not any("заменяет" in c.visible for c in answer)
            assert service.standing_post(gm, "кольцо", "Анна").orders == 2  # type: ignore[union-attr]
            # a short message after a short one is a post of its own: it replaces
            await exchange(api, ANNA, "ход 0303 0403")
            answer = await exchange(api, ANNA, "вражда Борис")
            assert "заменяет ваш пост" in answer[0].visible
    asyncio.run(play())


def test_a_long_echo_is_cut_within_telegrams_limit(service: Service, api: BotApi) -> None:
    """«long texts cut within 4,096»: the echo of a post of 400 lines goes in several messages,
    each taken by the stand-in (which refuses one over 4,096), every line in one of them."""
    ring(service, api)
    post = "ход 0303 0403\n" + "\n".join(f"строчка {i} <b>&</b>" for i in range(400))

    async def play() -> None:
        async with running(service, api):
            mark = api.mark()
            api.send(ANNA, post[:4000])
            api.send(ANNA, post[4000:])
            answer = await api.answers(ANNA, mark, at_least=2, settle=1.0)
            assert all(c.ok for c in answer) and len(answer) >= 3
            text = "\n".join(c.visible for c in answer)
            assert "строчка 0 <b>&</b>" in text and "строчка 399 <b>&</b>" in text
    asyncio.run(play())


def test_the_game_master_resolves_and_rolls_back_from_a_private_chat(service: Service, api: BotApi) -> None:
    """«The game master linked to the game can /resolve, /rollback REASON from a private chat;
    nothing a player can reach does these»: the resolution's text for the game master, the
    players' pushes; a rollback needs its reason; a player's /rollback is refused."""
    gm = ring(service, api)
    api.chat(GM_CHAT, first_name="Ведущий")
    service.link_chat(service.chat_link(gm, "account"), GM_CHAT, "private")

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "ход 0303 0403")
            await exchange(api, BORIS, "/help")  # Telegram tells the bot his language
            answer = await exchange(api, GM_CHAT, "/resolve")
            assert answer[0].visible.startswith("⛔"), answer[0].visible
            mark = api.mark()
            api.send(GM_CHAT, "/resolve force")
            answer = await api.answers(GM_CHAT, mark, at_least=2, settle=1.0)
            assert answer[0].text.startswith("<pre>шаг / step 1 (ход / turn 1) seed ")
            assert "приказы по умолчанию / default orders: Борис" in answer[0].visible
            anna = await api.answers(ANNA, mark, at_least=2)
            assert "рассчитан шаг 1 (ход 1)" in anna[0].visible and any(c.method == "sendPhoto" for c in anna)
            boris = await api.answers(BORIS, mark, at_least=2)
            assert "step 1 resolved (turn 1)" in boris[0].visible
            mark = api.mark()
            answer = await exchange(api, GM_CHAT, "/resolve force")  # step 2: nobody posted, defaults for all
            assert answer[0].text.startswith("<pre>шаг / step 2")
            await api.answers(ANNA, mark, at_least=3)  # her push of step 2
            answer = await exchange(api, ANNA, "/rollback я передумала")
            assert answer[0].visible == "⛔ это может только ведущий игры"
            answer = await exchange(api, GM_CHAT, "/rollback")
            assert answer[0].visible.startswith("Назовите причину")
            answer = await exchange(api, GM_CHAT, "/rollback опечатка в приказе Анны")
            assert answer[0].visible.startswith("откат шага / rolled back step 2 (ход / turn 2)")
            assert service.current_step("кольцо") == 1
            answer = await exchange(api, GM_CHAT, "/resolve now")
            assert answer[0].visible.startswith("/resolve или /resolve force")
    asyncio.run(play())


def test_odds_of_a_steel_rose_battle_file(service: Service, api: BotApi) -> None:
    """/odds with the battle file on the next lines, or sent as a file with the caption /odds:
    the odds as ``voevoda odds`` gives them (the exact engine while the batched simulator has
    not compiled yet); a file with a mistake is answered with the field it names."""
    from voevoda.sim.batch import needs_compiling

    api.chat(ANNA, first_name="Анна")
    battle = (ROOT / "examples/steel-rose/empire-vs-cult.toml").read_text(encoding="utf-8")
    engine = "exact" if needs_compiling() else "batched"

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/odds 30\n" + battle, at_least=2, settle=1.0)
            assert answer[0].visible == ("Пакетный симулятор ещё компилируется (первый расчёт после установки, "
                                         "1–2 минуты): пока — точный движок, 30 битв." if engine == "exact"
                                         else "Считаю 30 битв…")
            assert answer[1].visible.startswith(f"Алиса — Борис: 30 битв ({engine})")
            assert "Алиса: победы" in answer[1].visible and "потери в среднем" in answer[1].visible
            mark = api.mark()
            api.document(ANNA, battle.encode(), "battle.toml", caption="/odds 20")
            answer = await api.answers(ANNA, mark, at_least=2, settle=1.0)
            assert answer[1].visible.startswith(f"Алиса — Борис: 20 битв ({engine})")
            answer = await exchange(api, ANNA, "/odds 10\n[attacker]\nname = 'A'\n")
            assert answer[0].visible == "⛔ battle.toml: [attacker].deployment: missing (only a garrison may omit it)"
            answer = await exchange(api, ANNA, "/odds")
            assert answer[0].visible.startswith("Пришлите файл битвы")
    asyncio.run(play())


def test_unlinking_a_chat(service: Service, api: BotApi) -> None:
    """/unlink forgets the chat (the account and its seat stay): it gets no more pushes."""
    gm = ring(service, api)

    async def play() -> None:
        async with running(service, api):
            answer = await exchange(api, ANNA, "/unlink")
            assert answer[0].visible.startswith("Чат отвязан")
            answer = await exchange(api, ANNA, "/status")
            assert answer[0].visible.startswith("Этот чат ещё не связан с игрой")
    asyncio.run(play())
    assert [r.chat_id for r in service.chat_recipients("кольцо")] == [BORIS]
    assert any(s.player == "Анна" and s.holder for s in service.seats(gm, "кольцо", ["Анна", "Борис"], []))
