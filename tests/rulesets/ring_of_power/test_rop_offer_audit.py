"""The band of condottieri on offer (003 «Кондотьеры»: size and upkeep drawn, ruling on the labels
in docs/dice.md, ring-of-power table) is checked by `verify`: its event quotes the two faces of
``condottieri/<n>/offer`` and cites them (§5), and `verify` draws the band again for its size
and upkeep («rerun» citations), so a forged band fails naming the step and the event."""

from __future__ import annotations

import json
from typing import Any

import pytest

from voevoda.core.dice import CITED
from voevoda.core.engine import Game, record_digest
from voevoda.core.verify import _public_record, verify_export


@pytest.fixture(scope="module")
def offered() -> dict[str, Any]:
    players = ["Алиса", "Борис"]
    game = Game.create("ring-of-power", "audit", players, bots=players, seed="audit-offer")
    while not any(e.kind == "condottieri_offered" for s in game.steps for e in s.events):
        assert len(game.steps) < 10, "a band is offered by the schedule of rules.toml"
        game.resolve(force=True)
    result: dict[str, Any] = json.loads(json.dumps(game.export(public=True), ensure_ascii=False))
    return result


def offer_of(export: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return next((s["number"], e) for s in export["steps"] for e in s["events"] if e["kind"] == "condottieri_offered")


def forged(export: dict[str, Any], field: str) -> tuple[int, list[str]]:
    export = json.loads(json.dumps(export))
    number, event = offer_of(export)
    event["data"][field] = event["data"][field] + 1 if field != "faces" else [event["data"]["faces"][0] % 6 + 1,
                                                                              event["data"]["faces"][1]]
    previous = export["setup"]["digest"]
    for step in export["steps"]:
        step["digest"] = record_digest(_public_record(step), previous, export["game"].get("procedure", 1))
        previous = step["digest"]
    return number, verify_export(export).problems


def test_the_offer_cites_its_faces_and_is_drawn_again(offered: dict[str, Any]) -> None:
    _, event = offer_of(offered)
    label = f"condottieri/{event['data']['id']}/offer"
    assert event["data"][CITED] == [
        {"field": "/faces", "label": label, "from": 0, "count": 2},
        {"field": "/size", "rerun": "condottieri/size", "label": label},
        {"field": "/upkeep", "rerun": "condottieri/upkeep", "label": label}]
    report = verify_export(offered)
    assert report.ok and report.reruns >= 2, report.problems


@pytest.mark.parametrize("field", ["size", "upkeep"])
def test_a_forged_band_fails_verify(offered: dict[str, Any], field: str) -> None:
    number, problems = forged(offered, field)
    assert len(problems) == 1 and problems[0].startswith(
        f"step {number}: event 'condottieri_offered': re-running its condottieri/{field} from its data"), problems


def test_a_forged_face_fails_verify(offered: dict[str, Any]) -> None:
    number, problems = forged(offered, "faces")
    assert len(problems) == 1 and problems[0].startswith(f"step {number}: event 'condottieri_offered' quotes"), problems
