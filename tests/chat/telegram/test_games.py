"""Issue 27: «Everything below is part of it, for all six games»: in each game a player links a
seat by its deep link, posts (the game's computer opponent's post, as a player would send it)
and reads the echo, /status, and after the resolution gets the push — the report of the turn
and, in every game that draws one, the fogged map — exactly as the game's ``telegram`` channels
give them for that player."""

from __future__ import annotations

import asyncio

import pytest

from tests.chat.telegram.botapi import BotApi
from tests.chat.telegram.conftest import exchange, running
from voevoda.chat.telegram.push import deliver, resolved_notice
from voevoda.core import outputs, registry
from voevoda.core.engine import Game
from voevoda.service import CLOCK, Service

FIRST_POSTS = {"culture-conquest": "Привет! Мой ход:\nземледельцы 10, торговцы 4"}
"""A first post for a game without a computer opponent (the example of its first prompt)."""
GAMES = [r for r in sorted(registry.available()) if not r.startswith("toy-")]
NAMES = ["Анна", "Борис", "Вера"]


def test_the_six_games_are_all_here() -> None:
    assert GAMES == ["culture-conquest", "new-worlds", "ring-of-power", "steel-rose", "steel-rose-battle", "thrones"]


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_turn_of_every_game_in_telegram(service: Service, api: BotApi, ruleset: str) -> None:
    cls = registry.get(ruleset)
    players = NAMES[:max(2, cls.min_players)]
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, ruleset, "игра", players, seed="telegram")
    player = Game(service.store.load("игра").record).waiting_for()[0]  # a seat the first step awaits
    chat = 111
    api.chat(chat, first_name=player)

    async def play() -> None:
        async with running(service, api) as app:
            answer = await exchange(api, chat, f"/start {service.invite(gm, 'игра', player, players)}", at_least=2)
            assert answer[0].visible.startswith(f"Готово: вы — {player} в игре «игра»")
            game = Game(service.store.load("игра").record)
            assert answer[1].text == outputs.chat_status(game, player, "ru")[0].text
            script = cls().demo_script(players)
            text = (script[0][player] if script and player in script[0] else FIRST_POSTS[ruleset]
                    if ruleset in FIRST_POSTS else game.bot_post(player))
            answer = await exchange(api, chat, text)
            assert answer[0].visible.startswith("✅"), answer[0].visible
            assert service.standing_post(gm, "игра", player) is not None
            done = service.resolve(CLOCK, "игра", step=1, force=True)
            mark = api.mark()
            delivered = await deliver(service, app.bot, resolved_notice("игра", 1, done.step.digest))
            assert delivered.sent == [chat]
            game = Game(service.store.load("игра").record)
            wanted = outputs.chat_push(game, player, "ru", 1)
            pushed = api.sent(chat, mark)
            assert [(c.method, c.text) for c in pushed] == [
                ("sendPhoto", m.caption) if m.is_picture else ("sendMessage", m.text) for m in wanted]
            assert any(m.is_picture for m in wanted) == (ruleset != "culture-conquest"), "every map is pushed"
    asyncio.run(play())
