"""The computer opponents choose their attacks on the batched simulator's odds by default
(issue 19 «Computer opponents: a purposeful bot for each faction (it uses the batched simulator's
odds to choose its attacks)»; ruling C52), and the odds change what they choose."""

from __future__ import annotations

import math

import pytest
from tests.rulesets.steel_rose.campaign.helpers import Campaign

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.registry import configure
from voevoda.core.verify import verify_export
from voevoda.rulesets.steel_rose.campaign import bots, context
from voevoda.rulesets.steel_rose.campaign.context import BOT_ODDS_BATTLES, Options

SPEARMEN = {"spearman": 60}


def imperial_post(config: dict[str, int]) -> str:
    """Turn 3 (Dawn): the Empire holds Хольмгард besides its own four cities and has 60
    spearmen; Пик кошмаров, a small cult city of level 2, and Ормис, the Principality's large
    city of level 1, are both within reach, and both are quest cities («Захватить Пик кошмаров:
    ... +15 чести», «Захватить Ормис: ... +30 чести»)."""
    game = Campaign(config=config)
    game.edit({"turn": 3, "factions.empire.units": SPEARMEN, "factions.empire.gold": 0,
               "cities.pik_koshmarov.level": 2, "cities.holmgard.owner": "empire"})
    view = game.rs.view(game.state, "Анна")
    return str(game.rs.bot(view, "Анна", Dice.from_text("odds-choice").stream("bot/Анна")))


def test_the_simulators_odds_are_the_default() -> None:
    assert Options().bot_odds_battles == BOT_ODDS_BATTLES == 200
    assert configure("steel-rose", {}, {}).options.bot_odds_battles == 200  # type: ignore[attr-defined]


def test_the_strength_estimate_and_the_odds_disagree_on_a_cult_garrison() -> None:
    """The garrison of a small cult city of level 2 is «2 рыцаря пустоты, 6 культистов, 2
    просветлённых»: ten units against sixty spearmen look weak by health times damage, but a void
    knight has 4 defence («Защита. Вычитается из любого получаемого урона») against the spearmen's
    1–6 and heals half of what it deals; the battles say the spearmen lose."""
    rs = configure("steel-rose", {}, {})
    campaign = rs.campaign  # type: ignore[attr-defined]
    garrison = bots.garrison_of(campaign, "void_cult", "small", 2)
    assert garrison == {"void_knight": 2, "cultist": 6, "enlightened": 2}
    seen = {u: math.ceil(n * bots.MARGIN) for u, n in garrison.items()}
    estimate = bots.win_chance(campaign, Options(bot_odds_battles=0), SPEARMEN, "empire", seen, "void_cult", "t")
    odds = bots.win_chance(campaign, Options(), SPEARMEN, "empire", seen, "void_cult", "t")
    assert estimate > bots.THRESHOLD["empire"] > odds
    assert odds < 0.1 < 0.9 < estimate


def test_the_bots_target_changes_with_the_odds() -> None:
    """On the strength estimate the Empire marches on Пик кошмаров (a quest city it thinks it
    takes); on the simulator's odds, by default, it leaves the cult's garrison alone and goes
    for Ормис, the other quest city, where the odds are on its side."""
    assert imperial_post({"bot_odds_battles": 0}) == "Армия 1: все — атака на Пик кошмаров"
    assert imperial_post({}) == "Армия 1: все — атака на Ормис"


def test_a_game_keeps_the_odds_it_was_created_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruling C52: «A game keeps the option it was created with». The new game's config holds the
    number of battles in effect, so when the installed default changes, `verify` with the secret
    re-runs its bots with the game's own number and every bot post matches its journal."""
    monkeypatch.setattr(context, "BOT_ODDS_BATTLES", 0)
    players = ["Анна", "Борис", "Вера"]
    game = Game.create("steel-rose", "kept", players, bots=players, seed="kept-odds", auto_resolve=True)
    assert game.record.config["bot_odds_battles"] == 0
    assert game.step_number >= 2
    monkeypatch.setattr(context, "BOT_ODDS_BATTLES", BOT_ODDS_BATTLES)
    assert Game.create("steel-rose", "new", players, seed="new").record.config["bot_odds_battles"] == 200
    # so do the readings of rulings C2 and C16 (issue 29, items 8 and 15)
    config = Game.create("steel-rose", "new", players, seed="new", config={"start_powder": False}).record.config
    assert config["start_powder"] is False and config["plunder_income"] == "this_turn"
    report = verify_export(game.export())
    assert report.bots_checked > 0
    assert report.replayed and not report.problems
