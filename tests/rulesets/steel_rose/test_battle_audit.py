"""A battle's outcome is checked by `verify` (docs/dice.md §5, «rerun» citations): the battle event
records the sides as fought and cites its streams, and `verify` fights the battle again from them
on the step's seed, so a forged casualty or hit fails, naming the step and the event
(docs/steel_rose/battle.md §6: every die of a battle is drawn under its label)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from voevoda.core.dice import CITED
from voevoda.core.engine import Game, record_digest
from voevoda.core.journal import canonical_json
from voevoda.core.verify import _public_record, verify_export


def exported(game: Game, public: bool) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(game.export(public=public), ensure_ascii=False))
    return result


def redigest(export: dict[str, Any]) -> None:
    """What a forger does after changing a public event: every digest from there on recomputed."""
    previous = export["setup"]["digest"]
    for step in export["steps"]:
        step["digest"] = record_digest(_public_record(step), previous, export["game"].get("procedure", 1))
        previous = step["digest"]


def battle_of(export: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return next((s["number"], e) for s in export["steps"] for e in s["events"] if e["kind"] == "battle")


@pytest.fixture(scope="module")
def one_battle() -> Game:
    game = Game.create("steel-rose-battle", "audit", ["Алиса", "Борис"], bots=["Алиса", "Борис"], seed="audit")
    while game.outcome() is None:
        game.resolve(force=True)
    return game


def test_the_battle_event_cites_its_streams_and_verifies(one_battle: Game) -> None:
    export = exported(one_battle, public=True)
    _, event = battle_of(export)
    assert event["data"][CITED] == [{"field": "/result", "rerun": "battle", "label": "steel-rose/battle/1"}]
    assert [s["name"] for s in event["data"]["sides"]] == ["Алиса", "Борис"]
    report = verify_export(export)
    assert report.ok, report.problems
    assert report.reruns == 1
    # a squad's units keep the order they were written in, which decides the battle, even in
    # an export written as canonical JSON (sorted keys), as the command line writes it
    assert event["data"]["sides"][0]["squads"][0]["units"][0] == ["spearman", 20]
    assert verify_export(json.loads(canonical_json(export))).ok


@pytest.mark.parametrize("forge", ["casualties", "hit", "army"])
def test_a_forged_battle_fails_verify_naming_step_and_event(one_battle: Game, forge: str) -> None:
    """The public export of a battle game (its seed public once fought): changed casualties, a
    volley's changed damage or a side given more units than it fought with, every digest
    recomputed, fail `verify` at that step and event."""
    export = exported(one_battle, public=True)
    number, event = battle_of(export)
    result = event["data"]["result"]
    if forge == "casualties":
        dead = result["summary"]["sides"][0]["dead"]
        unit = next(iter(dead))
        dead[unit] -= 1
        what = f"/result/summary/sides/0/dead/{unit}"
    elif forge == "hit":
        volley = next(e for e in result["events"] if e["kind"] == "volley")
        volley["damage"] += 10
        what = f"/result/events/{result['events'].index(volley)}/damage"
    else:
        event["data"]["sides"][0]["squads"][0]["units"][0][1] += 5
        what = "/result/"
    redigest(export)
    problems = verify_export(export).problems
    assert problems and problems[0].startswith(
        f"step {number}: event 'battle': re-running its battle from its data and the dice of "
        f"'steel-rose/battle/1' gives another /result ({what}"), problems


def test_a_battle_that_draws_other_dice_than_recorded_fails(one_battle: Game) -> None:
    """docs/dice.md §5: the streams a re-run draws must be the step's records under its label."""
    export = exported(one_battle, public=True)
    number, event = battle_of(export)
    step = export["steps"][number - 1]
    step["dice"] = [r for r in step["dice"] if not r["label"].endswith("/volleys")]
    redigest(export)
    assert f"step {number}: event 'battle': its battle draws other dice under 'steel-rose/battle/1' than step " \
           f"{number} records" in " ".join(verify_export(export).problems)


def test_a_campaign_battle_is_fought_again_on_its_sealed_streams() -> None:
    """Steel Rose campaign (002_c01e70bb146ed8cc.txt, battles of «ХОД ИГРЫ»): its battles draw on sealed
    streams; with the secret (the game master's export, or any export after `voevoda reveal`)
    `verify` fights each again and a forged casualty fails naming the step and the event; the
    public export carries neither the battle event nor its dice."""
    players = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]
    game = Game.create("steel-rose", "audit", players, bots=players, seed="audit-battle",
                       config={"bot_odds_battles": 0})
    while not any(e.kind == "battle" for s in game.steps for e in s.events):
        assert len(game.steps) < 12, "the bots fight within a few turns"
        game.resolve(force=True)
    full = exported(game, public=False)
    report = verify_export(full)
    assert report.ok and report.reruns == 1, report.problems
    number, event = battle_of(full)
    ref = event["data"][CITED][0]
    assert ref["rerun"] == "battle" and ref["sealed"] is True and ref["label"].startswith("steel-rose/")
    assert "battle" not in [e["kind"] for s in exported(game, public=True)["steps"] for e in s["events"]]
    losses = next(e for e in event["data"]["result"]["events"] if e["kind"] == "round")["losses"]
    side = 0 if losses[0] else 1
    squad = next(iter(losses[side]))
    unit = next(iter(losses[side][squad]))
    losses[side][squad][unit] += 1
    problems = verify_export(full).problems
    assert any(p.startswith(f"step {number}: event 'battle': re-running its battle from its data and the dice "
                            f"of '{ref['label']}' gives another /result") for p in problems), problems
