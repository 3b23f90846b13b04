"""The turn loop: DESIGN.md «Core contracts» and issue «Core engine» (decision points, journal,
GM actions, views, errors), exercised with the sequential toy game of tests/core/toy.py."""

from __future__ import annotations

import pytest

from voevoda.core.engine import Game
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.core.journal import GameRecord, canonical_json
from voevoda.core.verify import verify_export


def new_game(bots: tuple[str, ...] = (), auto: bool = False) -> Game:
    return Game.create("toy-twenty", "t", ["Анна", "Бо", "Ция"], bots=bots, seed="engine", auto_resolve=auto)


def played_game() -> Game:
    """A finished game with every kind of journal entry."""
    game = new_game()
    turns = 0
    while game.outcome() is None:
        (player,) = game.waiting_for()
        game.submit(player, "roll 3" if turns % 2 else "брось 2")
        game.resolve()
        turns += 1
        if turns == 2:
            game.rollback("a scoring mistake")
            game.resolve()
    return game


def test_sequential_phases_ask_one_player_at_a_time() -> None:
    """Decision points: a sequential game awaits exactly one player, then the next in seat order."""
    game = new_game()
    seats = game.state["seats"]
    for expected in seats + seats[:1]:
        assert list(game.awaiting()) == [expected]
        game.submit(expected, "roll 1")
        game.resolve()


def test_resolve_waits_for_everyone_awaited() -> None:
    game = new_game()
    with pytest.raises(GameError):
        game.resolve()


def test_a_player_not_awaited_cannot_post() -> None:
    """The refusal names the player as a sentence does (issue 30, item 8): «от Любови сейчас
    ничего не ждут», «от игрока Dragon77 …» for a name the morphology cannot decline."""
    game = new_game()
    other = game.state["seats"][1]
    with pytest.raises(GameError):
        game.submit(other, "roll 1")
    assert game.record.entries == []
    game = Game.create("toy-twenty", "t", ["Любовь", "Dragon77", "Никита"], seed="engine")
    first = game.state["seats"][0]
    waiting = [p for p in game.state["seats"] if p != first]
    texts = {}
    for player in waiting:
        with pytest.raises(GameError) as refused:
            game.submit(player, "roll 1")
        texts[player] = refused.value.message_ru
    expected = {"Любовь": "от Любови сейчас ничего не ждут", "Dragon77": "от игрока Dragon77 сейчас ничего не ждут",
                "Никита": "от Никиты сейчас ничего не ждут"}
    assert texts == {p: expected[p] for p in waiting}


def test_a_rejected_submission_changes_nothing() -> None:
    """Errors: «a rejected submission changes nothing», and every problem has line and column."""
    game = new_game()
    player = game.state["seats"][0]
    before = canonical_json(game.state)
    with pytest.raises(OrdersRejected) as info:
        game.submit(player, "roll 2\nбросай кубики\n  fly 3")
    problems = info.value.problems
    assert [(p.line, p.column) for p in problems] == [(2, 1), (3, 3)]
    assert all(p.message_ru and p.message_en for p in problems)
    assert info.value.understood == ["roll 2"]
    with pytest.raises(OrdersRejected) as illegal:
        game.submit(player, "roll 9")
    assert illegal.value.problems[0].rule == "Twenty §1"
    assert canonical_json(game.state) == before
    assert game.record.entries == [] and game.pending == {}


def test_a_later_post_replaces_the_earlier_one() -> None:
    game = new_game()
    player = game.state["seats"][0]
    game.submit(player, "roll 1")
    game.submit(player, "roll 3")
    game.resolve()
    rolled = [e for e in game.steps[0].events if e.kind == "rolled"][0]
    assert len(rolled.data["faces"]) == 3


def test_replay_reproduces_state_byte_for_byte() -> None:
    """Journal: «replaying an export reproduces the stored state byte for byte»."""
    game = played_game()
    again = Game(GameRecord.model_validate(game.export()["game"]))
    assert canonical_json(again.state) == canonical_json(game.state)
    assert [s.seed for s in again.steps] == [s.seed for s in game.steps]


def test_rollback_then_resolve_rolls_the_same_dice() -> None:
    """GM actions: roll back the last resolved turn; step k always uses seed k, so the GM cannot
    re-roll a result he dislikes (docs/dice.md «Why a rollback cannot re-roll»)."""
    game = new_game()
    player = game.state["seats"][0]
    game.submit(player, "roll 3")
    first = game.resolve()
    state_after = canonical_json(game.state)
    game.rollback("a scoring mistake")
    assert game.step_number == 0 and player in game.pending
    second = game.resolve()
    assert second.seed == first.seed and second.dice == first.dice
    assert canonical_json(game.state) == state_after
    assert [e.kind for e in game.events_for("gm") if e.kind == "rollback"] == ["rollback"]


def test_rollback_needs_a_resolved_step() -> None:
    with pytest.raises(GameError):
        new_game().rollback("nothing")


def test_force_uses_default_orders_and_the_chronicle_says_so() -> None:
    """GM actions: «resolve early or after a deadline, where a player who sent nothing gets the
    ruleset's default orders and the chronicle says so»."""
    game = new_game()
    player = game.state["seats"][0]
    step = game.resolve(force=True)
    assert step.defaulted == [player]
    notes = [e for e in game.events_for("public") if e.kind == "default_orders"]
    assert notes and notes[0].data["player"] == player


def test_edit_needs_a_reason_and_is_audited_in_the_gm_log() -> None:
    """GM actions: «edit state with a reason (an audited event shown in the GM log)»; issue 16:
    «every rollback, reopening and edit appears (with its reason) in the public chronicle» — the
    patch itself (which may name hidden things) stays in the GM log."""
    game = new_game()
    player = game.state["seats"][0]
    with pytest.raises(GameError):
        game.edit([{"op": "replace", "path": f"/piles/{player}", "value": 5}], " ")
    with pytest.raises(GameError):
        game.edit([{"op": "replace", "path": "/nowhere/deep", "value": 5}], "typo")
    assert game.record.entries == []
    game.edit([{"op": "replace", "path": f"/piles/{player}", "value": 5}], "lost die found under the table")
    assert game.state["piles"][player] == 5
    log = [e for e in game.events_for("gm") if e.kind == "gm_patch"]
    assert log[0].data["reason"] == "lost die found under the table" and log[0].data["patch"]
    public = [e for e in game.events_for("public") if e.kind == "gm_edit"]
    assert [e.data["reason"] for e in public] == ["lost die found under the table"]
    assert not [e for e in game.events_for(player) if e.kind == "gm_patch"]
    assert "lost die found under the table" in game.report("public")
    replayed = Game(game.record)
    assert replayed.state["piles"][player] == 5


def test_views_cut_hidden_state() -> None:
    """Views: a player sees only their own pile; public sees none; the GM sees all."""
    game = played_game()
    for player in game.record.players:
        view = game.view(player)
        assert set(view["piles"]) == {player}
        report = game.report(player)
        for event in game.events_for("gm"):
            if event.kind == "rolled" and event.data["player"] != player:
                assert event not in game.events_for(player)
        assert "rolled" not in report or player in report
    assert game.view("public")["piles"] == {}
    assert set(game.view("gm")["piles"]) == set(game.record.players)
    with pytest.raises(GameError):
        game.view("stranger")


def test_report_reveals_the_step_seeds_and_commitment() -> None:
    """Verifiable dice: «each resolved turn reveals its seed in the public report»."""
    game = played_game()
    last = game.steps[-1]
    report = game.report("public", last.turn)
    assert game.record.commitment in report and last.seed in report


def test_bots_post_by_themselves_and_auto_resolve_runs_the_game() -> None:
    """`--bots` names players whose orders the computer writes; with auto-resolve a game of bots
    plays to the end."""
    game = new_game(bots=("Анна", "Бо", "Ция"), auto=True)
    assert game.outcome() is not None
    assert all(e.source in ("bot", "gm") for e in game.record.entries)
    assert canonical_json(Game(game.record).state) == canonical_json(game.state)


def test_export_verifies_and_tampering_is_caught() -> None:
    """`voevoda verify` re-derives every roll of an exported game and reports any mismatch."""
    game = played_game()
    export = game.export()
    result = verify_export(export)
    assert result.ok and result.replayed and result.rolls > 0
    public = verify_export(game.export(public=True))
    seating = len(game.record.players) - 1  # the setup's Fisher-Yates draws, public
    assert public.ok and not public.replayed and public.rolls == len(game.steps) + seating
    assert all(not record["sealed"] for step in game.export(public=True)["steps"] for record in step["dice"])
    without_secret = game.export()
    del without_secret["game"]["secret"]
    partial = verify_export(without_secret)
    assert partial.ok and partial.sealed_unchecked > 0 and not partial.replayed
    export["steps"][0]["dice"][0]["faces"][0] = 7
    assert any("step 1" in p for p in verify_export(export).problems)
    export = game.export()
    export["steps"][1]["seed"] = "00" * 32
    assert any("its seed is not the one its link and its inputs give" in p for p in verify_export(export).problems)
    export = game.export()
    export["steps"][1]["link"] = "00" * 32
    assert any("does not hash" in p for p in verify_export(export).problems)
    export = game.export()
    export["state"]["piles"][game.record.players[0]] += 1
    assert "replay does not reproduce the exported state" in verify_export(export).problems


def test_a_corrupt_journal_is_refused() -> None:
    game = played_game()
    record = game.record.model_copy(deep=True)
    assert record.entries[0].text is not None
    record.entries[0].text = "roll 99"
    with pytest.raises(GameError):
        Game(record)


def test_game_record_validation() -> None:
    with pytest.raises(GameError):
        Game.create("no-such-game", "x", ["A"])
    with pytest.raises(GameError):
        Game.create("toy-twenty", "x", ["A", "B"], bots=["C"])
    # issue 17: duplicate and reserved names are a clear GameError, never a validation traceback
    with pytest.raises(GameError, match="repeat"):
        Game.create("toy-twenty", "x", ["A", "A"])
    with pytest.raises(GameError, match="repeat"):
        Game.create("toy-twenty", "x", ["A", "a"])
    with pytest.raises(GameError, match="viewer"):
        Game.create("toy-twenty", "x", ["gm"])


def test_reports_tell_of_default_orders_in_both_languages() -> None:
    """The chronicle says when a player's orders were defaulted (engine note, not ruleset text)."""
    game = new_game()
    player = game.state["seats"][0]
    game.resolve(force=True)
    assert f"Игрок {player} не прислал приказов" in game.report("public", lang="ru")
    assert f"{player} sent no orders" in game.report("public", lang="en")
