"""The corpus of rule cases in tests/cases/ring-of-power/, run by one test (DATC style).

Each YAML file holds cases; each case quotes the rule of document 003 it checks, gives
a position, the posts of one or more turns, and what must hold afterwards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.rulesets.ring_of_power.rop_helpers import kinds, make_game, placement, play

CASES_DIR = Path(__file__).resolve().parents[2] / "cases" / "ring-of-power"


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return params


CASES = _load()


def test_corpus_is_not_empty() -> None:
    """The corpus exists and every case quotes the rule it checks ('rule' naming document 003)."""
    assert len(CASES) >= 30
    for param in CASES:
        case = param.values[0]
        assert "003" in case["rule"] and "«" in case["rule"], case["name"]


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict[str, Any]) -> None:
    """Runs one case of the corpus: the rule it checks is quoted in the case's 'rule'."""
    given = case.get("given", {})
    ruleset, state = make_game(
        given.get("players", ["A", "B"]),
        config=given.get("config"),
        house_rules=given.get("house_rules"),
        holdings=given.get("holdings"),
        units=given.get("units", []),
        money=given.get("money"),
        fog=given.get("fog"),
        chupacabras=given.get("chupacabras", []),
        hostile=given.get("hostile"),
        offer=given.get("offer"),
        depletion=given.get("depletion"),
        tax_due=given.get("tax_due"),
        turn=given.get("turn", 1),
        camps=given.get("camps"),
    )
    turns = case.get("turns") or [case.get("orders", {})]
    events = []
    expect = case["expect"]
    for posts in turns:
        state, events = play(ruleset, state, posts or {}, seed=case["name"], refused=expect.get("refused"))
    if "units" in expect:
        assert placement(state) == expect["units"]
    if "money" in expect:
        assert {p: state["players"][p]["money"] for p in expect["money"]} == expect["money"]
    if "holdings" in expect:
        assert {h: v["owner"] for h, v in state["holdings"].items()} == expect["holdings"]
    if "income" in expect:
        assert {p: state["players"][p]["last_income"] for p in expect["income"]} == expect["income"]
    if "tax_due" in expect:
        assert {p: state["players"][p]["tax_due"] for p in expect["tax_due"]} == expect["tax_due"]
    if "depletion" in expect:
        assert state["depletion"] == expect["depletion"]
    if "events" in expect:
        seen = kinds(events)
        for kind in expect["events"]:
            assert kind in seen, (kind, seen)
    if "no_events" in expect:
        seen = kinds(events)
        for kind in expect["no_events"]:
            assert kind not in seen, (kind, seen)
    if "winners" in expect:
        outcome = state["outcome"]
        assert (outcome["winners"] if outcome else []) == expect["winners"]
    if "battle_winner" in expect:
        battles = [e for e in events if e.kind == "battle" and not e.data.get("partial")]
        assert [b.data["winner"] for b in battles] == expect["battle_winner"]
    if "seen_by" in expect:
        # ruling 34: exactly these players are told of an event of this kind
        for kind, players in expect["seen_by"].items():
            told = sorted({p for e in events if e.kind == kind for p in e.audience})
            assert told == sorted(players), (kind, told)
    if "hidden_from" in expect:
        # nothing a player is told names what he could not see
        for player, words in expect["hidden_from"].items():
            text = json.dumps([[e.kind, dict(e.data)] for e in events if player in e.audience or "*" in e.audience],
                              ensure_ascii=False)
            for word in words:
                assert word not in text, (player, word)
    if "told" in expect:
        # what a player is told of an event: the data of the one event of that kind he gets
        for player, told_kinds in expect["told"].items():
            for kind, data in told_kinds.items():
                (event,) = [e for e in events if e.kind == kind and player in e.audience]
                assert {k: event.data[k] for k in data} == data, event.data
    if "statement" in expect:
        for p, items in expect["statement"].items():
            got = [(e["item"], e["amount"]) for e in state["players"][p]["statement"]]
            assert got == [tuple(x) for x in items], got
