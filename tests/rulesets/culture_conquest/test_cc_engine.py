"""Culture & Conquest through the engine contract: setup, awaiting, parse, validate,
resolve, view, outcome, default orders, with computer opponents posting text."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from voevoda.core import registry
from voevoda.core.dice import Dice
from voevoda.core.ruleset import Event
from voevoda.rulesets.culture_conquest import CultureConquest
from voevoda.rulesets.culture_conquest.game import PHASES

PLAYERS = ["Анна", "Boris", "Clio", "Dmitri"]
STRATEGIES = {"Анна": "builder", "Boris": "warmonger", "Clio": "builder", "Dmitri": "warmonger"}


def play_through_engine(ruleset: CultureConquest, seed: str, *, defaults_for: tuple[str, ...] = (),
                        bot_lang: str = "ru") -> tuple[dict[str, Any], list[Event], list[tuple[str, str]]]:
    state = ruleset.setup(PLAYERS, Dice.from_text(seed))
    events: list[Event] = []
    asked: list[tuple[str, str]] = []
    step = 0
    while ruleset.outcome(state) is None:
        step += 1
        awaiting = ruleset.awaiting(state)
        assert awaiting, "an unfinished game always waits for someone"
        orders = {}
        for player, prompt in awaiting.items():
            asked.append((player, prompt.kind))
            if player in defaults_for:
                orders[player] = ruleset.default_orders(state, player)
            else:
                text = ruleset.bot(ruleset.view(state, player), player, Dice.from_text(f"bot{step}").stream(player))
                assert text is not None
                orders[player] = ruleset.parse(text, player, state)
            problems = ruleset.validate(state, player, orders[player])
            assert not problems, (prompt.kind, [p.both() for p in problems])
        before = copy.deepcopy(state)
        result = ruleset.resolve(state, orders, Dice.from_text(f"{seed}/{step}"))
        assert state == before, "resolve must not change its input"
        state = result.state
        events += result.events
    return state, events, asked


@pytest.fixture(scope="module")
def full_game() -> tuple[CultureConquest, dict[str, Any], list[Event], list[tuple[str, str]]]:
    ruleset = CultureConquest({"strategies": STRATEGIES})
    state, events, asked = play_through_engine(ruleset, "engine-game")
    return ruleset, state, events, asked


def test_registry_finds_the_ruleset() -> None:
    """DESIGN: "A ruleset is a package that the core finds through one registry"."""
    assert registry.get("culture-conquest") is CultureConquest


def test_full_four_player_fifty_turn_game_by_bots(full_game: Any) -> None:
    """УСЛОВИЯ ПОБЕДЫ: «Игра заканчивается после 50 ходов. Игрок с наибольшим количеством
    ПО выигрывает.» Four computer players, every answer a legal post."""
    ruleset, state, events, asked = full_game
    outcome = ruleset.outcome(state)
    assert outcome is not None and state["turn"] == 50
    assert max(outcome.scores.values()) == max(outcome.scores[w] for w in outcome.winners)
    rounds = [e for e in events if e.kind == "round_end"]
    assert len(rounds) == 50
    kinds = {k for _, k in asked}
    assert {"assign", "attack", "offer", "build"} <= kinds
    assert any(e.kind == "battle" for e in events), "the warmongers fought"
    assert json.dumps(state, sort_keys=True, ensure_ascii=False)


def test_computer_players_lose_no_labour(full_game: Any) -> None:
    """«Неназначенные единицы Труда теряются» (issue 18 item 14): the computer players put every
    unit of labour where a project takes it, so no building answer of theirs loses any."""
    _, _, events, _ = full_game
    builds = [e for e in events if e.kind == "build"]
    assert builds and all(e.data["lost"] == 0 for e in builds), [e.data for e in builds if e.data["lost"]][:3]
    assert any(max(e.data["placed"], default=0) > 1 or len(e.data["alloc"]) > 1 for e in builds)


def test_default_building_answer_loses_no_labour() -> None:
    """The default answer fills the projects under way up to what each needs and puts the rest
    into resource rolls (issue 18 item 14)."""
    from voevoda.rulesets.culture_conquest.choices import default_alloc
    from voevoda.rulesets.culture_conquest.game import Options, plan_build

    from .helpers import make_state

    ruleset = CultureConquest()
    state = make_state({"A": {"techs": ["engineering"], "projects": [
        {"project": "wonder", "target": "pyramids", "labour": 95}, {"project": "city", "target": None, "labour": 10}]},
        "B": {}})
    alloc = default_alloc(state, ruleset.tables, Options(), "A", 70)
    assert [(x["project"], x["labour"]) for x in alloc] == [("wonder", 5), ("city", 40), ("resource", 25)]
    assert plan_build(state["players"]["A"], alloc, 70, ruleset.tables, Options()).lost == 0


def test_each_player_runs_twelve_phases_in_order(full_game: Any) -> None:
    """ПОРЯДОК ХОДА: «В свой ход каждый игрок завершает все следующие фазы» 1..12 in order."""
    _, state, events, _ = full_game
    order = ["growth", "resources", "assign", "leaders", "harvest", ("disaster", "disaster_check"), "upkeep",
             None, None, None, "research", "income"]
    first_turn = [e for e in events if e.data.get("turn") == 2 and e.data.get("player") == state["order"][0]]
    seen = [e.kind for e in first_turn]
    positions = []
    for kind in order:
        if kind is None:
            continue
        kinds = kind if isinstance(kind, tuple) else (kind,)
        positions.append(min(i for i, k in enumerate(seen) if k in kinds))
    assert positions == sorted(positions)
    assert len(PHASES) == 12


def test_only_the_needed_player_is_awaited(full_game: Any) -> None:
    """Sequential phases: outside an alliance call, exactly one player is asked at a time."""
    _, _, _, asked = full_game
    singles = [k for _, k in asked if k != "ally"]
    assert singles


def test_default_orders_are_legal_and_finish_a_game() -> None:
    """default_orders gives a legal answer to every prompt (the game master resolves
    without a post): a game where two seats never post still reaches turn 50."""
    ruleset = CultureConquest({"strategies": STRATEGIES, "turns": 8})
    state, _, asked = play_through_engine(ruleset, "defaults", defaults_for=("Boris", "Dmitri"))
    assert state["finished"] and state["turn"] == 8
    assert ("Boris", "assign") in asked


def test_missing_post_uses_the_default() -> None:
    """A resolve without the awaited post applies the default answer."""
    ruleset = CultureConquest()
    state = ruleset.setup(["A", "B"], Dice.from_text("x"))
    while state["pending"]["kind"] != "assign":
        player = next(iter(ruleset.awaiting(state)))
        state = ruleset.resolve(state, {player: ruleset.default_orders(state, player)}, Dice.from_text("y")).state
    who = next(iter(ruleset.awaiting(state)))
    pop = dict(state["players"][who]["pop"])
    after = ruleset.resolve(state, {}, Dice.from_text("z")).state
    assert after["players"][who]["pop"]["army"] == pop["army"]


def test_bots_post_in_english_too() -> None:
    """Orders are read in Russian and English: an all-English bot game is legal throughout."""
    ruleset = CultureConquest({"strategies": STRATEGIES, "turns": 6, "bot_lang": "en"})
    state, _, _ = play_through_engine(ruleset, "english")
    assert state["finished"]


def test_view_hides_an_offer_from_third_players() -> None:
    """ФАЗА ТОРГОВЛИ: an offer under negotiation is between its two parties; the rest of
    the table (open in this game) is seen by all."""
    ruleset = CultureConquest()
    state = ruleset.setup(["A", "B", "C"], Dice.from_text("v"))
    state = copy.deepcopy(state)
    state["pending"] = {"kind": "reply", "players": ["B"],
                        "offer": {"from": "A", "to": "B", "give": [{"kind": "coins", "amount": 3}], "take": []},
                        "made": 1}
    assert "offer" in ruleset.view(state, "B")["pending"]
    assert "offer" in ruleset.view(state, "A")["pending"]
    assert "offer" not in ruleset.view(state, "C")["pending"]
    assert "offer" not in ruleset.view(state, "public")["pending"]
    assert "offer" in ruleset.view(state, "gm")["pending"]


def test_private_offers_stay_out_of_the_chronicle(full_game: Any) -> None:
    """The public chronicle comes from events whose audience is everyone only."""
    ruleset, state, events, _ = full_game
    offers = [e for e in events if e.kind == "offer"]
    assert offers and all("*" not in e.audience for e in offers)
    party = offers[0].data["from"]
    chronicle = ruleset.chronicle(ruleset.view(state, "public"), events, "text", "en")
    private = ruleset.report(ruleset.view(state, party), events, party, "text", "en")
    assert "- Offers " in private
    assert "Offers " not in chronicle
    assert "DEAL" in chronicle


def test_state_serialises_identically() -> None:
    """DESIGN: «Identical state serialises to identical bytes»; the same seed gives the same game."""
    ruleset = CultureConquest({"strategies": STRATEGIES, "turns": 3})
    a, _, _ = play_through_engine(ruleset, "same")
    b, _, _ = play_through_engine(ruleset, "same")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_progress_names_player_and_phase() -> None:
    """ПОРЯДОК ХОДА: the status line names the round, the player and the phase."""
    ruleset = CultureConquest()
    state = ruleset.setup(["A", "B"], Dice.from_text("p"))
    turn, text = ruleset.progress(state)
    assert turn == 1 and "/" in text


def test_hidden_markers_name_the_offer_and_catch_a_leak() -> None:
    """Secrets cut in one place: the markers of an open offer are absent from what a third
    player sees, present in what a party sees (so a leak would be caught)."""
    ruleset = CultureConquest()
    state = copy.deepcopy(ruleset.setup(["A", "B", "C"], Dice.from_text("m")))
    offer = {"from": "A", "to": "B", "give": [{"kind": "coins", "amount": 3}], "take": []}
    state["pending"] = {"kind": "reply", "players": ["B"], "offer": offer, "made": 1}
    markers = ruleset.hidden_markers(state, "C")
    assert markers and ruleset.hidden_markers(state, "A") == []
    assert not any(m in json.dumps(ruleset.view(state, "C"), ensure_ascii=False) for m in markers)
    assert any(m in json.dumps(ruleset.view(state, "B"), ensure_ascii=False) for m in markers)
    line = ruleset.report(ruleset.view(state, "A"), [Event("offer", {**offer, "turn": 1}, ("A", "B"))], "A")
    assert any(m in line for m in markers)
    assert not any(m in ruleset.report(ruleset.view(state, "C"), [Event("offer", {**offer, "turn": 1}, ("A", "B"))],
                                       "C") for m in markers)


def test_core_engine_plays_verifies_and_replays() -> None:
    """DESIGN «Verifiable dice» and «replay must reproduce the stored state exactly»: a game
    of computer players run by the core engine exports, verifies every roll and replays."""
    from voevoda.core.engine import Game
    from voevoda.core.verify import verify_export

    game = Game.create("culture-conquest", "cc", ["A", "B", "C"], bots=["A", "B", "C"], seed="verify",
                       config={"turns": 4, "strategies": {"B": "warmonger", "C": "warmonger"}}, auto_resolve=True)
    assert game.outcome() is not None
    report = verify_export(game.export())
    assert report.ok, report.problems
    assert report.replayed and report.rolls > 50


def test_standing_loss_orders_through_the_engine() -> None:
    """Ruling 48 (issue 18 item 16): Анна adds «потери: …» to her assignment; from then on her
    people are lost in her order. She alone sees her standing orders: in her view, her prompt and
    her report; Борис and the public chronicle see neither the orders nor the post."""
    from voevoda.core.engine import Game

    game = Game.create("culture-conquest", "prefs", ["Анна", "Борис"], bots=["Борис"], seed="prefs")
    for _ in range(40):
        if game.awaiting().get("Анна") and game.awaiting()["Анна"].kind == "assign":
            break
        for player in game.waiting_for():
            if player == "Анна":
                game.submit("Анна", game.ruleset.bot(game.view("Анна"), "Анна", Dice.from_text("a").stream("a")) or "")
        game.resolve(force=True)
    assert game.awaiting()["Анна"].kind == "assign"
    receipt = game.check_post("Анна", "без изменений\nпотери: учёные, рабочие\nпотери в бою: флот")
    assert [game.ruleset.describe(o) for o in receipt.orders] == ["без изменений", "потери: учёные, рабочие",
                                                                   "потери в бою: флот"]
    game.submit("Анна", "без изменений\nпотери: учёные, рабочие\nпотери в бою: флот")
    turn = game.state["turn"]
    game.resolve(force=True)
    assert game.state["players"]["Анна"]["prefs"] == {"losses": ["scholars", "workers"], "battle": ["fleet"]}
    assert game.view("Анна")["players"]["Анна"]["prefs"] == {"losses": ["scholars", "workers"], "battle": ["fleet"]}
    assert "prefs" not in game.view("Борис")["players"]["Анна"]
    assert "prefs" not in game.view("public")["players"]["Анна"]
    mine = game.report("Анна", turn)
    assert ("Ваши правила потерь (видны только вам): при потерях населения первыми — учёные, рабочие; "
            "в бою первыми гибнут — флот") in mine
    assert "правила потерь" not in game.report("Борис", turn) and "правила потерь" not in game.report("public", turn)
    assert "Правила потерь (видны только игроку): при потерях населения первыми — учёные, рабочие" in game.report(
        "gm", turn)
    assert "Lost first: scholars, workers, farmers" in CultureConquest().awaiting(
        {**game.state, "pending": {"kind": "assign", "players": ["Анна"]}})["Анна"].text_en


def test_state_schema_holds_standing_orders_and_wonder_cities() -> None:
    """A GM's edit of standing orders (ruling 48) or of a wonder's city (ruling 33) is validated:
    known categories only, armies and fleets only in battle, each once; a city only for a wonder."""
    ruleset = CultureConquest()
    state = ruleset.setup(["A", "B"], Dice.from_text("schema"))
    assert ruleset.check_state(state) == []
    good = copy.deepcopy(state)
    good["players"]["A"]["prefs"] = {"losses": ["workers"], "battle": ["fleet", "army"], "unpaid": ["army"]}
    good["players"]["A"]["projects"] = [{"project": "wonder", "target": "pyramids", "labour": 5, "city": "A-1"}]
    assert ruleset.check_state(good) == []
    for where, value, named in (("prefs", {"losses": ["priests"]}, "/players/A/prefs/losses"),
                                ("prefs", {"battle": ["farmers"]}, "/players/A/prefs/battle"),
                                ("prefs", {"losses": ["army", "army"]}, "/players/A/prefs/losses"),
                                ("prefs", {"losses": []}, "/players/A/prefs/losses"),
                                ("projects", [{"project": "city", "target": None, "labour": 5, "city": "A-1"}],
                                 "/players/A/projects/0/city")):
        bad = copy.deepcopy(state)
        bad["players"]["A"][where] = value
        problems = ruleset.check_state(bad)
        assert problems and any(p.field.startswith(named) for p in problems), (value, problems)
    old = copy.deepcopy(state)
    del old["players"]["A"]["prefs"]
    assert ruleset.check_state(old) == [], "a state stored before standing orders existed still loads"
