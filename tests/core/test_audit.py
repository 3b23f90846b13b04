"""Dice a sceptical player can audit end to end (issue 16, «What the dice must prove»), played on
the toy games of tests/core/toy.py and checked against docs/dice.md §5–§7."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from voevoda.core import registry
from voevoda.core.dice import CITED, HashChain
from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.core.journal import GameRecord, canonical_json
from voevoda.core.verify import replay_problems, verify_export

PLAYERS = ["Анна", "Бо", "Ция"]


def new_game(**kwargs: Any) -> Game:
    return Game.create("toy-twenty", "audit", PLAYERS, seed="audit", **kwargs)


def play(game: Game, steps: int) -> Game:
    for _ in range(steps):
        if game.outcome() is not None:
            break
        for player in game.waiting_for():
            game.submit(player, "roll 2")
        game.resolve()
    return game


def finished() -> Game:
    return play(new_game(), 200)


def exported(game: Game, public: bool = True) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(game.export(public=public), ensure_ascii=False))
    return result


def problems_of(export: dict[str, Any], commitment: str | None = None) -> list[str]:
    return verify_export(export, commitment).problems


# -- setup rolls ------------------------------------------------------------------------------


def test_setup_rolls_are_recorded_under_the_commitment_and_verified() -> None:
    """Issue 16: «Setup rolls are recorded and verifiable (turn order …)»: the toy's seating
    shuffle is drawn from s_0 (docs/dice.md §1: «Setup rolls use s_0 itself») and recorded as step
    0; the sealed pile names stay out of the public export."""
    game = new_game()
    export = exported(game)
    setup = export["setup"]
    assert setup["seed"] == game.record.commitment
    assert [r["label"] for r in setup["dice"]] == ["seating"]
    assert len(setup["dice"][0]["faces"]) == len(PLAYERS) - 1
    assert "names" not in json.dumps(setup)
    full = exported(game, public=False)
    assert {r["label"] for r in full["setup"]["dice"]} == {"seating", "names"}
    report = verify_export(export)
    assert report.ok and report.rolls == len(PLAYERS) - 1


def test_a_forged_setup_roll_is_caught() -> None:
    """A changed setup face, or a setup seed that is not the commitment, fails `verify`."""
    export = exported(play(new_game(), 2))
    forged = copy.deepcopy(export)
    faces = forged["setup"]["dice"][0]["faces"]
    faces[0] = faces[0] % 3 + 1
    assert any("seating[0]" in p for p in problems_of(forged))
    other = copy.deepcopy(export)
    other["setup"]["seed"] = "ab" * 32
    assert any("setup: its seed is not the commitment" in p for p in problems_of(other))
    full = exported(play(new_game(), 2), public=False)
    full["setup"]["dice"] = [r for r in full["setup"]["dice"] if r["label"] != "names"]
    assert "setup: replay gives other setup rolls than recorded" in problems_of(full)


# -- the public export proves the whole game ---------------------------------------------------


def test_a_public_export_of_an_honest_game_verifies() -> None:
    game = finished()
    report = verify_export(exported(game))
    assert report.ok, report.problems
    assert report.steps == game.step_number and report.citations == game.step_number
    assert report.last_digest == game.steps[-1].digest


def test_a_dropped_step_is_caught() -> None:
    """«verify on a public export must fail when a step is dropped»."""
    export = exported(play(new_game(), 5))
    del export["steps"][2]
    problems = problems_of(export)
    assert any("steps must run 1, 2" in p for p in problems)
    assert any("link does not hash" in p for p in problems)


def test_the_last_step_dropped_is_caught_by_the_published_digest() -> None:
    """Dropping the last step leaves a consistent shorter export; the digest printed in the last
    report (docs/dice.md §6) is what `verify` prints as «last record», and they differ."""
    game = play(new_game(), 5)
    printed = game.steps[-1].digest
    assert printed in game.report("public")
    export = exported(game)
    del export["steps"][-1]
    report = verify_export(export)
    assert report.ok and report.last_digest != printed


def test_two_swapped_steps_are_caught() -> None:
    export = exported(play(new_game(), 5))
    steps = export["steps"]
    steps[1], steps[2] = steps[2], steps[1]
    assert any("steps must run" in p for p in problems_of(export))
    renumbered = exported(play(new_game(), 5))
    steps = renumbered["steps"]
    steps[1], steps[2] = steps[2], steps[1]
    steps[1]["number"], steps[2]["number"] = 2, 3
    assert any("link does not hash" in p for p in problems_of(renumbered))


def test_deleted_records_are_caught() -> None:
    """«when records are deleted (rolls checked: 0, everything matches today)»: every record is
    covered by the step's digest, and events cite the records they quote."""
    export = exported(play(new_game(), 4))
    for step in export["steps"]:
        step["dice"] = []
    export["setup"]["dice"] = []
    problems = problems_of(export)
    assert any("setup: the record digest" in p for p in problems)
    assert any("which has no record" in p for p in problems)
    assert verify_export(export).rolls == 0


def test_a_missing_steps_key_is_malformed() -> None:
    export = exported(play(new_game(), 2))
    del export["steps"]
    report = verify_export(export)
    assert report.malformed and any("steps: Field required" in p for p in report.problems)


def test_an_event_contradicting_its_dice_is_caught() -> None:
    """«… and when an event contradicts its dice»: the public «played» event cites the omen die
    (docs/dice.md §5); changing the quoted face fails even if the digest is recomputed."""
    from voevoda.core.engine import record_digest
    from voevoda.core.verify import _public_record

    export = exported(play(new_game(), 3))
    event = next(e for e in export["steps"][1]["events"] if e["kind"] == "played")
    assert event["data"][CITED] == [{"field": "/omen", "label": "omen", "from": 0, "count": 1}]
    event["data"]["omen"] = event["data"]["omen"] % 6 + 1
    previous = export["steps"][0]["digest"]
    for step in export["steps"][1:]:  # a forger recomputes every digest from here on
        step["digest"] = record_digest(_public_record(step), previous, 2)
        previous = step["digest"]
    problems = problems_of(export)
    assert problems == [f"step 2: event 'played' quotes [{event['data']['omen']}] at /omen; "
                        f"the dice of 'omen' give [{(event['data']['omen'] - 2) % 6 + 1}]"]


def test_a_citation_of_missing_draws_is_caught() -> None:
    export = exported(play(new_game(), 2))
    event = next(e for e in export["steps"][0]["events"] if e["kind"] == "played")
    event["data"][CITED][0]["from"] = 5
    assert any("cites draws 5..5" in p for p in problems_of(export))


def test_every_link_hashes_back_to_the_commitment() -> None:
    """docs/dice.md §1: sha256(s_k) == s_(k-1) and s_0 is the commitment; §3: the seed is the one the
    link and the step's inputs give, so a seed from elsewhere fails even with a true link."""
    game = play(new_game(), 4)
    link = bytes.fromhex(game.steps[-1].link)
    for _ in range(game.step_number):
        link = hashlib.sha256(link).digest()
    assert link.hex() == game.record.commitment
    export = exported(game)
    export["steps"][3]["link"] = HashChain(b"\x09" * 32).seed(4).hex()
    assert any("step 4: link does not hash to the link of step 3" in p for p in problems_of(export))
    export = exported(game)
    export["steps"][3]["seed"] = export["steps"][3]["link"]  # the seed of procedure 1
    assert "step 4: its seed is not the one its link and its inputs give (the commitments to its posts and " \
           "edits)" in problems_of(export)


# -- the game master's export and replay --check -------------------------------------------------


@pytest.mark.parametrize("forge", ["face", "seed", "event", "sealed"])
def test_replay_check_compares_every_step(forge: str) -> None:
    """«replay --check compares every step — each step's events and dice records, not only the
    final state (today forged faces, seeds and events pass it)»."""
    export = exported(play(new_game(), 4), public=False)
    step = export["steps"][1]
    if forge == "face":
        record = next(r for r in step["dice"] if r["label"] == "omen")
        record["faces"][0] = record["faces"][0] % 6 + 1
    elif forge == "seed":
        step["seed"] = "00" * 32
    elif forge == "event":
        step["events"][-1]["data"]["forged"] = True
    else:
        record = next(r for r in step["dice"] if r["sealed"])
        record["faces"][0] = record["faces"][0] % 6 + 1
    problems = replay_problems(export)
    assert any(p.startswith("step 2: replay gives") for p in problems), problems


def test_verify_commitment_catches_a_rekeyed_game() -> None:
    """«re-keying a game by changing secret and commitment together passes today»: the same
    journal under another secret is self-consistent, but not under the commitment a player saved."""
    game = Game.create("toy-guess", "g", ["A", "B"], seed="rekey")
    for _ in range(3):
        game.resolve(force=True)
    saved = game.record.commitment
    record = game.record.model_copy(deep=True)
    other = HashChain(b"\x07" * 32)
    record.secret, record.commitment = (b"\x07" * 32).hex(), other.commitment
    rekeyed = Game(record).export()
    assert verify_export(rekeyed).ok
    problems = problems_of(json.loads(json.dumps(rekeyed)), saved)
    assert problems == [f"the export's commitment {other.commitment} is not the one you saved ({saved})"]
    assert problems_of(exported(game), saved.upper()) == []


@pytest.mark.parametrize("ruleset_id", sorted(registry.available()))
def test_the_commitment_is_in_the_first_public_report(ruleset_id: str) -> None:
    """«The commitment appears in the first public report of every game», with the setup record."""
    cls = registry.get(ruleset_id)
    players = ["Алиса", "Борис", "Вера"][: max(cls.min_players, min(3, cls.max_players))]
    game = Game.create(ruleset_id, "first", players, seed="first")
    before = game.report("public")
    assert game.record.commitment in before and game.setup.digest in before
    game.resolve(force=True)
    first = game.report("public", game.steps[0].turn)
    assert game.record.commitment in first and game.setup.digest in first and game.steps[0].seed in first


# -- rollbacks: not a free re-roll -----------------------------------------------------------------


def guess_game() -> Game:
    game = Game.create("toy-guess", "g", ["A", "B", "C"], seed="rollback")
    game.submit("A", "guess 1")
    game.submit("B", "guess 2")
    game.resolve(force=True)  # C is defaulted
    return game


def test_after_a_rollback_the_posts_stand_frozen() -> None:
    """«After a rollback the rolled-back posts stand frozen unless the game master reopens a named
    player's post, with a reason»: the seed of the step is public, so nobody may re-post knowing
    the dice — not even a player who had sent nothing."""
    game = guess_game()
    first = game.steps[0]
    undone = game.rollback("the die rolled off the table")
    assert (undone.returned, undone.defaulted) == (["A", "B"], ["C"])
    for player in ("A", "C"):
        with pytest.raises(GameError, match="frozen"):
            game.submit(player, "guess 6")
    assert game.waiting_for() == []
    again = game.resolve()  # C gets default orders again, without --force
    assert again.dice == first.dice and again.defaulted == ["C"]
    assert [e.to_json() for e in again.events] == [e.to_json() for e in first.events]


def test_a_reopened_post_can_change_and_the_chronicle_says_why() -> None:
    game = guess_game()
    game.rollback("wrong phase")
    with pytest.raises(GameError, match="needs a reason"):
        game.reopen("A", " ")
    with pytest.raises(GameError, match="no player"):
        game.reopen("Z", "x")
    assert game.reopen("A", "A's post was mistyped by the GM") == 1
    with pytest.raises(GameError, match="not frozen"):
        game.reopen("A", "twice")
    game.submit("A", "guess 6")
    with pytest.raises(GameError, match="frozen"):
        game.submit("B", "guess 6")
    game.resolve()
    public = game.report("public", lang="en")
    assert "The GM rolled back step 1 (turn 1): wrong phase." in public
    assert "The GM reopened A's post for step 1: A's post was mistyped by the GM" in public
    actions = exported(game)["steps"][0]["actions"]
    assert [a["kind"] for a in actions] == ["rollback", "reopen"]
    assert canonical_json(Game(GameRecord.model_validate(game.export()["game"])).state) == canonical_json(game.state)


def test_rollback_lists_exactly_what_it_undid() -> None:
    """«Rollback says exactly what it undid: every journal entry it removes or reopens (posts, GM
    edits), listed»: posts of the step (frozen), defaulted players, posts already sent for the next
    step (dropped) and edits made since (undone)."""
    game = guess_game()
    game.edit([{"op": "replace", "path": "/scores/A", "value": 2}], "bonus for the map")
    game.submit("B", "guess 4")
    undone = game.rollback("recount")
    assert undone.step.number == 1
    assert undone.returned == ["A", "B"] and undone.defaulted == ["C"]
    assert undone.discarded_posts == ["B"] and undone.discarded_edits == ["bonus for the map"]
    assert game.state["scores"]["A"] == 0 and game.pending["B"].text == "guess 2"
    text = game.report("public", lang="en")
    assert "Posts for the next step dropped: B." in text and "Edit undone: bonus for the map." in text
    public = exported(game)
    assert [a["kind"] for a in public["actions"]] == ["gm_edit", "rollback"]
    assert public["actions"][1]["data"]["reason"] == "recount"


def test_gm_actions_are_in_the_public_export_and_verified() -> None:
    game = guess_game()
    game.rollback("recount")
    game.resolve()
    game.edit([{"op": "replace", "path": "/scores/B", "value": 1}], "late post accepted")
    export = exported(game)
    assert [a["kind"] for a in export["steps"][0]["actions"]] == ["rollback"]
    assert export["actions"][0]["data"]["reason"] == "late post accepted"
    assert verify_export(export).ok
    export["steps"][0]["actions"] = []
    assert any("record digest" in p for p in problems_of(export))
    full = exported(game, public=False)
    full["actions"] = []
    assert "replay gives other game-master actions after the last step than recorded" in replay_problems(full)


# -- steps named by their number ---------------------------------------------------------------------


def test_a_second_resolution_of_a_step_is_refused() -> None:
    """Races: «a resolution names the step it resolves; a second resolution of the same step is
    refused with "already resolved"»."""
    game = Game.create("toy-guess", "g", ["A", "B"], seed="race")
    game.resolve(force=True, step=1)
    with pytest.raises(GameError, match="step 1 is already resolved"):
        game.resolve(force=True, step=1)
    with pytest.raises(GameError, match="has not come yet"):
        game.resolve(force=True, step=5)
    assert game.step_number == 1


def test_a_post_for_a_resolved_step_is_refused() -> None:
    """«A post is for a step; one that arrives after its step resolved is refused»."""
    game = Game.create("toy-guess", "g", ["A", "B"], seed="race")
    game.resolve(force=True)
    entries = len(game.record.entries)
    with pytest.raises(GameError, match="step 1 has already been resolved"):
        game.submit("A", "guess 3", step=1)
    assert len(game.record.entries) == entries and game.pending == {}
    game.submit("A", "guess 3", step=2)
    assert game.record.entries[-1].step == 2


def test_a_journal_whose_steps_disagree_is_refused() -> None:
    game = Game.create("toy-guess", "g", ["A", "B"], seed="race")
    game.submit("A", "guess 3")
    record = game.record.model_copy(deep=True)
    record.entries[0].step = 2
    with pytest.raises(GameError, match="entry 1"):
        Game(record)


# -- the secret revealed; computer opponents checkable ---------------------------------------------


def bot_game() -> Game:
    game = Game.create("toy-twenty", "bots", PLAYERS, bots=["Бо"], seed="bots")
    return play(game, 300)


def test_reveal_only_after_the_game_is_over() -> None:
    game = new_game()
    with pytest.raises(GameError, match="after the game is over"):
        game.reveal()
    over = bot_game()
    assert over.outcome() is not None
    assert over.reveal() == over.record.secret
    with pytest.raises(GameError):
        over.reveal()
    with pytest.raises(GameError, match="closed"):
        over.rollback("after the end")


def test_after_the_reveal_verify_re_runs_every_bot_post() -> None:
    """«verify with the secret re-runs each bot's post from its view and sealed stream and compares
    it with the journal»; a bot post the GM changed is caught."""
    game = bot_game()
    game.reveal()
    export = exported(game)
    assert export["game"]["secret"] == game.record.secret and export["game"]["entries"]
    report = verify_export(export)
    assert report.ok and report.replayed and report.sealed_unchecked == 0
    assert report.bots_checked == sum(1 for e in game.record.entries if e.source == "bot") > 0
    index = next(i for i, e in enumerate(export["game"]["entries"]) if e["source"] == "bot")
    text = export["game"]["entries"][index]["text"]
    export["game"]["entries"][index]["text"] = "roll 1" if text != "roll 1" else "roll 2"
    assert any("Бо's post is not what the computer opponent writes" in p for p in problems_of(export))


def test_a_gm_post_for_a_bots_seat_is_marked_in_the_public_chronicle() -> None:
    game = Game.create("toy-guess", "g", ["A", "Bot"], bots=["Bot"], seed="gm-post")
    assert game.pending["Bot"].source == "bot"
    game.submit("Bot", "guess 6")
    game.submit("A", "guess 1")
    assert game.record.entries[-2].source == "gm"
    game.resolve()
    assert "The GM posted the orders of the computer player Bot (step 1)." in game.report("public", lang="en")
    assert [e["kind"] for e in exported(game)["steps"][0]["events"]][:1] == ["gm_post"]


def test_every_quoted_die_of_culture_and_conquest_is_cited_and_a_forged_one_caught() -> None:
    """docs/dice.md §5 and the Culture & Conquest label table: every event field that quotes dice
    (`faces`, `table_faces`, `leader_faces`, …) cites them, setup events citing step 0; a public
    export whose event quotes another face fails `verify` even with every digest recomputed."""
    from voevoda.core.engine import record_digest
    from voevoda.core.verify import _public_record

    players = ["Анна", "Борис", "Вера"]
    game = Game.create("culture-conquest", "cc", players, bots=players, seed="citations")
    for _ in range(60):
        game.resolve(force=True)
    export = exported(game)
    report = verify_export(export)
    assert report.ok and report.citations > 40
    quoted = 0
    for step in export["steps"]:
        for event in step["events"]:
            fields = {ref["field"][1:].split("/")[0] for ref in event["data"].get(CITED, [])}
            for key, value in event["data"].items():
                if key.endswith("faces") and value:
                    assert key in fields, (event["kind"], key)
                    quoted += 1
    assert quoted > 40
    setup_cited = [ref for e in export["steps"][0]["events"] if e["kind"] in ("culture_roll", "turn_order")
                   for ref in e["data"].get(CITED, [])]
    assert len(setup_cited) == 2 * len(players) and all(ref.get("step") == 0 for ref in setup_cited)
    number, event = next((s["number"], e) for s in export["steps"] for e in s["events"]
                         if e["kind"] == "resources" and e["data"].get(CITED))
    event["data"]["faces"] = [event["data"]["faces"][0] % event["data"]["die"] + 1]
    previous = export["setup"]["digest"]
    for step in export["steps"]:
        step["digest"] = record_digest(_public_record(step), previous, 2)
        previous = step["digest"]
    problems = problems_of(export)
    assert len(problems) == 1 and problems[0].startswith(f"step {number}: event 'resources' quotes")


@pytest.mark.parametrize("ruleset_id", sorted(r for r in registry.available() if not r.startswith("toy-")))
def test_every_installed_game_verifies_public_and_full(ruleset_id: str) -> None:
    """Every installed game, a few steps in, verifies from its public export and its full one
    (compact records of battles included: docs/dice.md §4)."""
    from voevoda.core.ruleset import Ruleset

    cls = registry.get(ruleset_id)
    players = ["Алиса", "Борис", "Вера"][: max(cls.min_players, min(3, cls.max_players))]
    bots = players if cls.bot is not Ruleset.bot else []
    game = Game.create(ruleset_id, "all", players, bots=bots, seed="every game")
    for _ in range(3):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    for public in (True, False):
        report = verify_export(exported(game, public))
        assert report.ok, report.problems
    assert verify_export(exported(game, False)).replayed
