"""The campaign's rule cases (tests/cases/steel-rose/campaign/*.yaml), one per rule situation.

Each case quotes the rule of 002_c01e70bb146ed8cc.txt it checks (or the ruling of
docs/rulings/steel_rose.md that decides it), sets up a state, plays posts for one or more turns
and checks the result:

``state``    dotted paths set before the first post (``factions.empire.gold: 1000``)
``turns``    a list of ``{posts: {player: text}, later: [{player: text}, ...]}``: the orders of a
             turn, then the posts of its battle and capture steps (silence when missing); a
             case with ``posts`` at the top plays one turn
``problems`` {player: [text]}: the first turn's post of that player is refused, each text in
             some problem (Russian or English)
``expect``   dotted paths and their values after the last turn
``ledger``   {faction: [{what, gold?, resource?, ...}]}: lines of that faction's money statements
             (and in every case, every statement's opening and lines add up to its closing)
``events``   [{kind, ...data}] that happened; ``no_events`` kinds that did not
``refused``  texts in orders refused at resolution
``views``    {player: {dotted path: value}} in that player's view after the last turn; ``absent: text``
             (or a list of texts): the view's JSON does not hold it
``report``   {player: [text]}: texts in that player's report of the last turn (Russian); ``absent:`` in
             it: texts that must not be there
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.rulesets.steel_rose.campaign.helpers import PLAYERS, Campaign, get_path

CASES = Path(__file__).parents[3] / "cases" / "steel-rose" / "campaign"


def load_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            case["file"] = path.stem
            out.append(case)
    return out


def _matches(line: dict[str, Any], want: dict[str, Any]) -> bool:
    for key, value in want.items():
        got = line.get(key)
        if isinstance(value, float) or isinstance(got, float):
            if got is None or abs(float(got) - float(value)) > 1e-6:
                return False
        elif got != value:
            return False
    return True


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: f"{c['file']}:{c['name']}")
def test_case(case: dict[str, Any]) -> None:
    assert case.get("rule"), "every case quotes its rule"
    game = Campaign(case.get("players", PLAYERS), case.get("config"), case.get("house_rules"),
                    seed=case.get("seed", case["name"]))
    game.edit(case.get("state", {}))
    turns = case.get("turns") or [{"posts": case.get("posts", {}), "later": case.get("later", [])}]
    for player, wanted in case.get("problems", {}).items():
        found = game.problems(player, turns[0]["posts"][player])
        assert found, f"{player}'s post should be refused"
        for text in wanted:
            assert any(text.lower() in p.lower() for p in found), (text, found)
        return
    for turn in turns:
        before = len(game.events)
        for edit in [turn.get("state", {})]:
            game.edit(edit)
        game.turn(turn.get("posts", {}), turn.get("later", []))
        del before
    for path, value in case.get("expect", {}).items():
        got = get_path(game.state, path)
        if isinstance(value, float):
            assert got == pytest.approx(value), path
        else:
            assert got == value, f"{path}: {got!r} != {value!r}"
    for fid, lines in case.get("ledger", {}).items():
        have = game.ledger(fid)
        for want in lines:
            assert any(_matches(line, want) for line in have), (fid, want, have)
    for e in game.events:
        # every statement adds up: its opening and its lines give its closing (issue 29, item 11)
        if e.kind == "ledger":
            assert e.data["opening"] + sum(int(line["gold"]) for line in e.data["lines"]) == e.data["closing"], \
                (e.data["faction"], e.data["turn"], e.data)
    for want in case.get("events", []):
        kind = want["kind"]
        data = {k: v for k, v in want.items() if k != "kind"}
        assert any(e.kind == kind and _matches(dict(e.data), data) for e in game.events), \
            (want, [(e.kind, dict(e.data)) for e in game.events if e.kind == kind])
    for kind in case.get("no_events", []):
        assert not any(e.kind == kind for e in game.events), kind
    for player, wanted in case.get("views", {}).items():
        view = game.rs.view(game.state, player)
        shown = json.dumps(view, ensure_ascii=False)
        for path, value in wanted.items():
            if path == "absent":
                for text in value if isinstance(value, list) else [value]:
                    assert str(text) not in shown, (player, text)
            else:
                assert get_path(view, path) == value, (player, path, get_path(view, path))
    for player, wanted in case.get("report", {}).items():
        text = game.report(player)
        for item in wanted:
            if isinstance(item, dict):
                for unwanted in item.get("absent", []):
                    assert unwanted not in text, (player, unwanted, text)
            else:
                assert item in text, (player, item, text)
    refused = game.refused()
    for text in case.get("refused", []):
        assert any(text.lower() in r.lower() for r in refused), (text, refused)
    if "refused" not in case:
        assert not refused or case.get("allow_refused"), refused
