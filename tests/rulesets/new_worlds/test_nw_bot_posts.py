"""A computer opponent's post reads as a player's post reads (docs/new_worlds.md «Orders»:
«countries are a player's name or the country's name, as written or in the case a Russian
sentence puts it in — «союз с Борисом», «помощь Анне 10»»): it names the other countries in
the case the sentence wants («союз с Любовью», «торговля с Северной Маркой: мех за бронзу»,
«атака на Улус Ветра 12: …», «оборона от Никиты 6»), never by a bare name or an id
(«союз Любовь», «атака khaganate_1 12»), and the game reads back from that text exactly the
orders the computer chose (issue 30, item 8: the messages corpus reads every post).
"""

from __future__ import annotations

import re

import pytest

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.words import with_name
from voevoda.rulesets.new_worlds.bot import _post, plan_post

PLAYERS = ["Любовь", "Никита", "Северная Марка"]


@pytest.mark.parametrize("seed", ["a", "c"])
def test_a_bot_post_reads_back_as_the_orders_it_chose(seed: str) -> None:
    """Antiquity (alliances, pacts, trade, wars and the Khaganate's tributaries in reach):
    every order of every bot post of twelve turns, read back from its text, is the order the
    computer planned, and names a country declined (a bare name after «союз», «пакт», «мир»,
    «торговля» or «война» fails, as does an event country's id)."""
    game = Game.create("new-worlds", "posts", PLAYERS, bots=PLAYERS, seed=seed,
                       config={"start_epoch": "antiquity", "genders": {"Северная Марка": "f"}})
    kinds: set[str] = set()
    ids = [cid for cid in game.state["countries"] if re.fullmatch(r"[a-z_0-9]+", cid)]
    for _ in range(12):
        for player in PLAYERS:
            stream = Dice.from_text(f"bot-posts {game.step_number}").stream(f"bot/{player}")
            writer = plan_post(game.view(player), player, stream, game.ruleset)  # type: ignore[arg-type]
            text = _post(writer, stream)
            receipt = game.check_post(player, text)
            read = [(o.kind, {k: v for k, v in o.args.items() if k != "echo"}) for o in receipt.orders]
            planned = [(o.kind, o.args) for o in writer.orders]
            assert read == planned, (player, text)
            for order in writer.orders:
                kinds.add(order.kind)
                target = order.args.get("target")
                if order.kind in ("pact", "alliance", "peace", "trade", "war", "break_pact", "break_alliance"):
                    assert with_name(game.state["countries"][target]["name"]) in order.text, order.text
                assert not any(re.search(rf"\b{cid}\b", order.text) for cid in ids), order.text
        game.resolve(force=True)
        ids = [cid for cid in game.state["countries"] if re.fullmatch(r"[a-z_0-9]+", cid)]
    # the game reached the orders that name another country
    assert {"alliance", "attack", "defend"} <= kinds, kinds
