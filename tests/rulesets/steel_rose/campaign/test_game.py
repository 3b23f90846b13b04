"""Whole campaigns played by the five computer opponents, to their end by the document's rules
(002_c01e70bb146ed8cc.txt, «УСЛОВИЯ ПОБЕДЫ» of each faction and «Полночь (9 ход)»)."""

from __future__ import annotations

from typing import Any

from voevoda.core.engine import Game
from voevoda.rulesets.steel_rose.campaign.state import load_state

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]


def play(seed: str, config: dict[str, Any], house_rules: dict[str, Any] | None = None) -> Game:
    return Game.create("steel-rose", "whole", PLAYERS, bots=PLAYERS, seed=seed, config=config,
                       house_rules=house_rules or {}, auto_resolve=True)


def check_ending(game: Game) -> None:
    """The game is over by the rules: every faction won or is out; a winner by a condition met it
    the turn it won (its victory event names it), Midnight only at the end of turn 9 and only for
    the factions with the most cities; the replay gives the same state; the outcome names the
    winners' players."""
    state = game.state
    assert state["phase"] == "over" and 1 <= state["turn"] <= 9
    events = [e for step in game.steps for e in step.events]
    won = {e.data["faction"]: e for e in events if e.kind == "victory"}
    assert set(won) == set(state["winners"])
    for fid, f in state["factions"].items():
        assert f["status"] in ("won", "out"), (fid, f["status"])
        if f["status"] == "won":
            assert won[fid].data["reason"] == f["end_reason"] and won[fid].data["turn"] == f["ended_turn"]
    for e in events:
        if e.kind == "midnight":
            assert e.data["turn"] == 9 and state["result_reason"] == "midnight"
            best = max(e.data["cities"].values())
            assert sorted(e.data["winners"]) == sorted(f for f, n in e.data["cities"].items() if n == best)
    if state["result_reason"] == "last_standing":
        assert sum(1 for e in events if e.kind == "victory" and e.data["reason"] == "last_standing") <= 1
    outcome = game.outcome()
    assert outcome is not None
    assert sorted(outcome.winners) == sorted(state["factions"][f]["player"] for f in state["winners"])
    assert Game(game.record).state == state
    assert not game.ruleset.check_state(state)


def test_five_bots_play_a_whole_campaign_on_the_simulators_odds() -> None:
    """Every faction's bot, weighing its attacks on the batched simulator, plays until the game
    ends by the document's rules; along the way, each victory was a condition met."""
    game = play("whole-game", {"bot_odds_battles": 48})
    check_ending(game)
    for step in game.steps:
        for e in step.events:
            if e.kind == "victory" and e.data["reason"] not in ("midnight", "last_standing"):
                assert e.data["reason"] == "conditions"
    fought = [e for step in game.steps for e in step.events if e.kind == "battle"]
    assert fought, "the bots fought"


def test_a_long_war_reaches_midnight() -> None:
    """With the quick victories raised out of reach (house rules), the war runs nine turns and
    Midnight ends it: «Они уничтожают все фракции, кроме уже победивших и той, у которой больше
    всего городов. Эта фракция выигрывает.»"""
    far = {"campaign": {"victory": {"empire": {"resource": 100000, "cities": 100},
                                    "steel_rose": {"cities": 100}, "heaven": {"resource": 100000, "cities": 100},
                                    "void_cult": {"gold": 100000, "cities": 100},
                                    "ogres": {"resource": 100000, "raids": 100}}}}
    game = play("long-war", {"bot_odds_battles": 0, "destroy_victory": "any"}, far)
    check_ending(game)
    state = game.state
    assert state["turn"] == 9 and state["result_reason"] in ("midnight", "last_standing")
    if state["result_reason"] == "midnight":
        st = load_state(state)
        assert all(st.factions[f].end_reason in ("midnight", "destroy") for f in state["winners"])
        midnight = next(e for step in game.steps for e in step.events if e.kind == "midnight")
        assert midnight.data["winners"] == [f for f in state["winners"] if state["factions"][f]["end_reason"] == "midnight"]
    epochs = [e.data["epoch"] for step in game.steps for e in step.events if e.kind == "epoch"]
    assert epochs == ["dawn", "day", "sunset", "midnight"]


def test_simulate_reports_each_factions_win_rate_and_how_games_ended(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``voevoda simulate steel-rose --games N``: each faction's win rate and how its games ended."""
    from typer.testing import CliRunner

    from voevoda.cli import app
    from voevoda.rulesets.steel_rose.campaign import simulate as sim

    monkeypatch.setattr(sim, "ODDS_BATTLES", 0)   # the strength estimate: no simulator to compile here
    results = sim.run(2, 5, "sim-test")
    rows = sim.faction_rows(results)
    assert [r["faction"] for r in rows] == ["empire", "steel_rose", "heaven", "void_cult", "ogres"]
    assert all(r["games"] == 2 for r in rows)
    assert sum(r["wins"] for r in rows) >= 2 - sum(1 for g in results if not g.winners)
    endings = sim.ending_rows(results)
    assert sum(e["games"] for e in endings) == 2
    assert {e["ending"] for e in endings} <= {"midnight", "last_standing"}
    csv_path = tmp_path / "s.csv"
    res = CliRunner().invoke(app, ["simulate", "steel-rose", "--games", "1", "--seed", "cli", "--csv", str(csv_path),
                                   "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "win %" in res.output and "how the games ended" in res.output
    assert csv_path.read_text(encoding="utf-8").startswith("faction,games,wins")
    res = CliRunner().invoke(app, ["simulate", "steel-rose", "--games", "1", "--turns", "5"])
    assert res.exit_code == 1 and "--turns" in res.output
