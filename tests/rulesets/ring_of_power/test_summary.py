"""`voevoda show` of a Ring of Power game (the outline issue): a player reads his own treasury,
holdings and units by hex in Russian first, then what his eyes reach; nothing the view hides
(units and holdings out of sight or in the fog, other players' money) is in his outline; the
game master reads every player; the heading names the phase («приказы / orders»)."""

from __future__ import annotations

import re

import pytest

from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.rulesets.ring_of_power.state import holdings_of, visible_hexes

SMALL = {"name": "small", "title_ru": "Малое княжество", "title_en": "The Small Princedom", "width": 8, "height": 8,
         "fog": ["0404", "0405", "0504"], "income": {},
         "starts": [{"holdings": ["0202"]}, {"holdings": ["0707"]}, {"holdings": ["0702"]}]}


@pytest.fixture()
def game() -> Game:
    game = Game.create("ring-of-power", "rop", ["Анна", "Борис", "Вера"], bots=["Вера"], seed="outline",
                       config={"map": SMALL})
    game.submit("Анна", "ход 0202 -> 0302 -> 0303\nвражда Борис\nперевод 5 Борис: за мир")
    game.submit("Борис", "ход 0707 0607\nсбор 0707 1")
    game.resolve(force=True)
    return game


def _body(text: str) -> str:
    return text.split("\n\n", 1)[1]


def test_a_player_reads_his_money_and_units_in_russian_first(game: Game) -> None:
    """Anna's outline opens with her treasury (in coins), last income and tax due, her holdings
    and her stack in 0303 named as the reports name units; not the generic outline's keys."""
    me = game.state["players"]["Анна"]
    body = _body(outputs.show_text(game, "Анна"))
    assert body.index("Вы / you: Анна") < body.index("Видно вокруг") < body.index("Игроки / players:")
    assert re.search(rf"казна / treasury: {me['money']} монет[аы]?;", body)
    assert f"налог к уплате / tax due: {me['tax_due']} монет" in body
    assert "владения / holdings (1): 0202" in body
    assert re.search(r"    0303 — ферзь, офицер и 2 пешки \(стоят с хода \d+ / since turn \d+\)", body), body
    assert "перевод Борису «за мир»" in body
    assert "Анна (вы / you): враждует с Борисом / hostile to Борис" in body
    for key in ("money:", "last_income", "upgrade_at", "type queen", "owner "):
        assert key not in body, key


def test_nothing_the_view_hides_is_in_a_players_outline(game: Game) -> None:
    """«Владения и отряды других игроков, которые находятся от его отрядов или его владений на
    расстоянии не более 1 гекса»: every hex Anna's outline names is in her sight, one of her
    holdings or on the fog's list; Борис's and Вера's money and far stacks are not there."""
    text = outputs.show_text(game, "Анна")
    seen = visible_hexes(game.state, "Анна") | set(holdings_of(game.state, "Анна")) | set(SMALL["fog"])
    named = set(re.findall(r"\b\d{4}\b", text))
    assert named and named <= seen, named - seen
    assert "Игрок / player: Борис" not in text and "Игрок / player: Вера" not in text
    assert text.count("казна / treasury") == 1
    assert "Борис — " not in text.split("Игроки / players:")[0]  # no stack of his is in sight


def test_the_game_master_reads_every_player(game: Game) -> None:
    """The game master's outline has every player's treasury, holdings and units."""
    text = outputs.show_text(game, "gm")
    for player in ("Анна", "Борис", "Вера"):
        money = game.state["players"][player]["money"]
        assert re.search(rf"Игрок / player: {player}\n  казна / treasury: {money} монет", text), player
    assert "0707 — " in text and "0303 — ферзь, офицер и 2 пешки" in text
    public = outputs.show_text(game, "public")
    assert "казна / treasury" not in public and "0303" not in public


def test_the_heading_names_the_phase(game: Game) -> None:
    """`show` and `status` name the phase as players do, not by its id."""
    assert "фаза / phase приказы / orders, шаг / step 2" in outputs.show_text(game, "Анна").split("\n", 1)[0]
    assert "фаза / phase приказы / orders," in outputs.status_text(game, "Анна")
    assert "phase orders" not in outputs.show_text(game, "gm")


def test_upgrades_condottieri_and_what_is_in_sight() -> None:
    """A position built by hand: the pawns being made officers and by when («станут офицерами к
    ходу 4»), the condottieri's contracted upkeep, another player's holding and stack next to
    Anna's, the Chupacabra and exhausted land in sight; Борис's stack and holding two hexes
    away are not named."""
    from tests.rulesets.ring_of_power.rop_helpers import make_game

    ruleset, state = make_game(
        ("Анна", "Борис"), holdings={"0505": "Анна", "0605": "Борис", "0907": "Борис"},
        units=[["Анна", "pawn", "0505", {"upgrade_at": 4}], ["Анна", "pawn", "0505", {"upgrade_at": 4}],
               ["Анна", "officer", "0505"], ["Анна", "condottiere", "0506", {"upkeep": 3}],
               ["Борис", "queen", "0605"], ["Борис", "pawn", "0909"]],
        chupacabras=["0504"], depletion={"0505": 1}, hostile={"Борис": ["Анна"]})
    text = ruleset.summary(ruleset.view(state, "Анна"), "Анна")
    assert "0505 — офицер и 2 пешки (стоят с хода 1 / since turn 1); 2 пешки станут офицерами к ходу 4" in text
    assert "0506 — кондотьер (стоит с хода 1 / since turn 1); содержание кондотьеров / condottieri's upkeep: " \
           "3 монеты за каждого в ход" in text
    assert "чужие владения / other holdings: Борис — 0605" in text
    assert "чужие отряды / other units: 0605 — Борис: ферзь" in text
    assert "Чупакабра / the Chupacabra: 0504" in text and "0505 −20%" in text
    assert "Борис: враждует с Анной / hostile to Анна" in text
    assert "0907" not in text and "0909" not in text
