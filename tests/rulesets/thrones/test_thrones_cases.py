"""The corpus of rule cases in tests/cases/thrones/, run by one test (DATC style).

Each YAML file holds cases; each case quotes the rule of document 001 (or the ruling of
docs/rulings/thrones.md) it checks, gives a position (``given``, see helpers.make_game), the posts
of one or more steps (``steps``: each {player: text}; a house awaited and not named sends its
default orders), and what must hold afterwards (``expect``). A case with ``refuse`` checks that a
post is refused with the named problems instead. ``expect.warnings`` names what the echo of the
first step's post warns of ({player: [text, ...]}); ``expect.report`` what the round's report for
a viewer says in Russian Markdown ({viewer, contains: [...], absent: [...]}).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.rulesets.thrones.helpers import area_id, make_game, play, power, problems_of, read, units_at
from voevoda.core.markup import render
from voevoda.rulesets.thrones.turn import awaited

CASES_DIR = Path(__file__).resolve().parents[2] / "cases" / "thrones"
EXPECT_KEYS = {"power", "units", "token", "garrison", "phase", "turn", "alliances", "tracks", "supply", "events",
               "no_events", "event", "deals", "awaited", "card", "holy", "echo", "statement", "ledger", "outcome",
               "warnings", "report"}


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return params


CASES = _load()


def test_corpus_is_not_empty() -> None:
    """The corpus exists, names repeat nowhere, and every case quotes the rule it checks (document
    001, the base rules it keeps in force, or a ruling)."""
    assert len(CASES) >= 80
    names = [p.values[0]["name"] for p in CASES]
    assert len(names) == len(set(names)), "case names repeat"
    for param in CASES:
        case = param.values[0]
        assert ("001 «" in case["rule"]) or ("T" in case["rule"] and "rulings" in case["rule"]), case["name"]
        assert set(case.get("expect", {})) <= EXPECT_KEYS, (case["name"], set(case["expect"]) - EXPECT_KEYS)


def _matches(data: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(data.get(k) == v for k, v in want.items())


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict[str, Any]) -> None:
    """Runs one case of the corpus: the rule it checks is quoted in the case's 'rule'."""
    ruleset, state = make_game(case.get("given"))
    if "refuse" in case:
        refuse = case["refuse"]
        found = problems_of(ruleset, state, refuse["player"], refuse["post"])
        assert found, f"the post was accepted: {refuse['post']!r}"
        for needle in refuse["problems"]:
            assert any(needle.casefold() in p.casefold() for p in found), (needle, found)
        return
    expect = case["expect"]
    steps = case.get("steps", [])
    if "echo" in expect:
        for player, lines in expect["echo"].items():
            orders = read(ruleset, state, player, steps[0][player])
            assert [ruleset.describe(o) for o in orders] == lines
    for player, needles in expect.get("warnings", {}).items():
        said = [w.message_ru for w in ruleset.warnings(state, player, read(ruleset, state, player, steps[0][player]))]
        for needle in needles:
            assert any(needle in w for w in said), (needle, said)
    state, events = play(ruleset, state, steps, seed=case.get("seed", case["name"]))
    if "report" in expect:
        viewer = expect["report"]["viewer"]
        shown = [e for e in events if e.visible_to(viewer)]
        text = render(ruleset.document(ruleset.view(state, viewer), shown, viewer, "ru", state["turn"]), "markdown")
        for needle in expect["report"].get("contains", []):
            assert needle in text, (needle, text)
        for needle in expect["report"].get("absent", []):
            assert needle not in text, (needle, text)
    for player, n in expect.get("power", {}).items():
        assert power(state, player) == n, (player, power(state, player), state["treasury"][player]["statement"])
    for name, spec in expect.get("units", {}).items():
        area = area_id(ruleset, name)
        want = {k: v for k, v in spec.items() if k != "house"}
        assert units_at(state, area) == want, (name, state["board"][area])
        if "house" in spec:
            assert state["board"][area]["house"] == spec["house"], (name, state["board"][area])
    for name, who in expect.get("token", {}).items():
        assert state["board"][area_id(ruleset, name)]["token"] == who, name
    for name, n in expect.get("garrison", {}).items():
        assert state["board"][area_id(ruleset, name)]["garrison"] == n, name
    for key in ("phase", "turn"):
        if key in expect:
            assert state[key] == expect[key], (key, state[key])
    if "alliances" in expect:
        assert state["alliances"] == [sorted(a) for a in expect["alliances"]], state["alliances"]
    for track, order in expect.get("tracks", {}).items():
        assert state["tracks"][track] == order, (track, state["tracks"][track])
    for player, n in expect.get("supply", {}).items():
        assert state["supply"][player] == n, (player, state["supply"][player])
    kinds = [e.kind for e in events]
    for kind in expect.get("events", []):
        assert kind in kinds, (kind, kinds)
    for kind in expect.get("no_events", []):
        assert kind not in kinds, (kind, kinds)
    for want in expect.get("event", []):
        want = dict(want)
        kind = want.pop("kind")
        found = [dict(e.data) for e in events if e.kind == kind]
        assert any(_matches(d, want) for d in found), (kind, want, found)
    if "deals" in expect:
        assert [[d["id"], d["status"]] for d in state["deals"]] == expect["deals"], state["deals"]
    if "awaited" in expect:
        assert awaited(state, ruleset.ctx) == expect["awaited"]
    if "card" in expect:
        assert (state["card"] or {}).get("id") == expect["card"], state["card"]
    for token, name in expect.get("holy", {}).items():
        assert state["holy"][token]["area"] == area_id(ruleset, name), state["holy"][token]
    for player, lines in expect.get("statement", {}).items():
        got = [[line["item"], line["amount"]] for line in
               next(e.data for e in events if e.kind == "statement" and e.data["player"] == player)["lines"]]
        assert got == lines, got
    for player, lines in expect.get("ledger", {}).items():
        got = [[line["item"], line["amount"], line["note"]] for line in state["treasury"][player]["statement"]]
        assert got == lines, got
    if "outcome" in expect:
        assert state["outcome"] is not None and state["outcome"]["winners"] == expect["outcome"], state["outcome"]
