"""`voevoda show` of a Culture & Conquest game (the outline issue): the viewer's own people first,
in Russian with the names of the game's tables, then every other player; an offer under
negotiation and a player's standing loss orders, the only secrets of this game (rulings 31, 46,
48), stay out of everyone else's outline; the heading names the phase."""

from __future__ import annotations

import re

import pytest

from voevoda.core import outputs
from voevoda.core.dice import Dice
from voevoda.core.engine import Game

PLAYERS = ["Анна", "Борис", "Вера"]


def _until(game: Game, done: object, limit: int = 80) -> None:
    """Anna answers as the computer would, the others are computer players, until ``done(game)``."""
    for i in range(limit):
        if done(game):  # type: ignore[operator]
            return
        if "Анна" in game.waiting_for():
            game.submit("Анна", game.ruleset.bot(game.view("Анна"), "Анна", Dice.from_text(f"a{i}").stream("a")) or "")
        game.resolve(force=True)
    pytest.fail("the position was never reached")


@pytest.fixture()
def game() -> Game:
    return Game.create("culture-conquest", "cc", PLAYERS, bots=["Борис", "Вера"], seed="s", config={"turns": 3})


def test_the_viewer_reads_his_own_people_first_in_russian(game: Game) -> None:
    """Anna's outline opens with her own culture, population, treasury, cities and technologies,
    named as the tables name them; then the other players, in the order of play."""
    _until(game, lambda g: g.state["players"]["Анна"]["culture"] is not None and g.state["turn"] >= 2)
    me = game.state["players"]["Анна"]
    text = outputs.show_text(game, "Анна")
    body = text.split("\n\n", 1)[1]
    assert body.index("Вы / you: Анна") < body.index("Игрок / player: Борис")
    assert "Вы / you: Борис" not in body and "Игрок / player: Анна" not in body
    culture = game.ruleset.tables.name(me["culture"], "ru")  # type: ignore[attr-defined]
    assert f"Вы / you: Анна — культура / culture: {culture}" in body
    assert re.search(rf"казна / treasury: {me['coins']} монет", body)
    assert f"земледельцы {me['pop']['farmers']}" in body
    for tech in me["techs"]:
        assert game.ruleset.tables.name(tech, "ru") in body  # type: ignore[attr-defined]
    assert "coins:" not in body and "pop:" not in body and "techs:" not in body  # not the generic outline


def test_an_offer_under_negotiation_is_shown_to_its_parties_only(game: Game) -> None:
    """Ruling 31: «An offer is seen only by its two parties»: Борис's offer to Вера is in their
    outlines and the game master's, not in Anna's nor the public's."""
    _until(game, lambda g: (g.state.get("pending") or {}).get("kind") == "reply")
    offer = game.state["pending"]["offer"]
    parties = {offer["from"], offer["to"]}
    third = next(p for p in PLAYERS if p not in parties)
    for viewer in [*parties, "gm"]:
        assert "Предложение (видно только сторонам)" in outputs.show_text(game, viewer), viewer
    for viewer in [third, "public"]:
        shown = outputs.show_text(game, viewer)
        assert "Предложение" not in shown and "в обмен на" not in shown, viewer


def test_standing_loss_orders_are_the_players_own(game: Game) -> None:
    """Ruling 48: Anna's standing loss orders are in her outline and the game master's, never in
    another player's."""
    _until(game, lambda g: g.awaiting().get("Анна") is not None and g.awaiting()["Анна"].kind == "assign")
    game.submit("Анна", "без изменений\nпотери: учёные, рабочие")
    game.resolve(force=True)
    assert "ваши правила потерь (видны только вам): при потерях населения первыми — учёные, рабочие" in \
        outputs.show_text(game, "Анна")
    assert "правила потерь (видны только игроку): при потерях населения первыми — учёные, рабочие" in \
        outputs.show_text(game, "gm")
    assert "правила потерь" not in outputs.show_text(game, "Борис")


def test_the_game_master_reads_every_player_and_the_heading_names_the_phase(game: Game) -> None:
    """The game master's outline has every player's people; the heading of `show` and `status`
    names the phase in both languages, not its number."""
    _until(game, lambda g: g.state["turn"] >= 2)
    text = outputs.show_text(game, "gm")
    for player in PLAYERS:
        assert f"Игрок / player: {player} — культура / culture:" in text
    assert "Победные очки / victory points:" in text
    head = text.split("\n", 1)[0]
    assert re.search(r"фаза / phase \S+: \d+\. [А-Я][а-я ]+ / [A-Z]", head), head
    assert re.search(r"фаза / phase \S+: \d+\. [А-Я]", outputs.status_text(game, "Анна"))
