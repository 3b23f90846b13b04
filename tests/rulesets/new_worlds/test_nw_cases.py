"""The corpus of rule cases in tests/cases/new-worlds/, run by one test (DATC style).

Each YAML file holds cases; each case quotes the rule of document 000 (or the ruling of
docs/rulings/new_worlds.md) it checks, gives a position on the cases' map, the posts of one
or more turns, and what must hold afterwards. A case with ``refuse`` checks that a post is
refused with the named problems instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.rulesets.new_worlds.nw_helpers import kinds, make_game, owners, play, problems_of
from voevoda.core.ruleset import Event

CASES_DIR = Path(__file__).resolve().parents[2] / "cases" / "new-worlds"
GIVEN_KEYS = ("players", "config", "house_rules", "epoch", "turn", "land", "cities", "buildings", "deposits",
              "slaves", "points", "war_points", "religion", "upgraded", "research", "rolls", "wars", "treaties",
              "deals", "vassals", "open_regions", "taken_from", "invaders", "old_believers", "events", "country_fields", "extra")


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return params


CASES = _load()


def test_corpus_is_not_empty() -> None:
    """The corpus exists and every case quotes the rule it checks (document 000 or a ruling)."""
    assert len(CASES) >= 150
    names = [p.values[0]["name"] for p in CASES]
    assert len(names) == len(set(names)), "case names repeat"
    for param in CASES:
        case = param.values[0]
        assert ("000" in case["rule"] and "«" in case["rule"]) or "R" in case["rule"], case["name"]


def _events_of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict[str, Any]) -> None:
    """Runs one case of the corpus: the rule it checks is quoted in the case's 'rule'."""
    given = {k: v for k, v in case.get("given", {}).items() if k in GIVEN_KEYS}
    unknown = set(case.get("given", {})) - set(GIVEN_KEYS)
    assert not unknown, f"unknown keys in given: {unknown}"
    ruleset, state = make_game(**given)
    if "refuse" in case:
        # a refusal after the turns of the case (a limit that counts what earlier turns did)
        for posts in case.get("turns", []):
            state, _ = play(ruleset, state, posts or {}, seed=case["name"])
        refuse = case["refuse"]
        found = problems_of(ruleset, state, refuse["player"], refuse["post"])
        assert found, f"the post was accepted: {refuse['post']!r}"
        for needle in refuse["problems"]:
            assert any(needle in p for p in found), (needle, found)
        return
    expect = case["expect"]
    if "echo" in expect:
        for player, lines in expect["echo"].items():
            orders = ruleset.parse(case["turns"][0][player] if "turns" in case else case["orders"][player],
                                   player, state)
            got = [ruleset.describe(o) for o in orders]
            assert got == lines, got
    turns = case.get("turns") or [case.get("orders", {})]
    events: list[Event] = []
    all_events: list[Event] = []
    for posts in turns:
        state, events = play(ruleset, state, posts or {}, seed=case["name"])
        all_events.extend(events)
    if "owners" in expect:
        got = owners(state)
        for tile, who in expect["owners"].items():
            assert got.get(tile) == who, (tile, got.get(tile), who)
    if "cities" in expect:
        for tile, level in expect["cities"].items():
            assert state["tiles"].get(tile, {}).get("city") == level, (tile, state["tiles"].get(tile))
    if "buildings" in expect:
        for tile, kind in expect["buildings"].items():
            tile_state = state["tiles"].get(tile, {})
            got = tile_state.get("building")
            if got == "factory":
                got = f"factory:{tile_state.get('factory')}"
            assert got == kind, (tile, tile_state)
    if "closing" in expect:
        ledgers = {d["country"]: d for d in _events_of(events, "ledger")}
        for player, n in expect["closing"].items():
            assert ledgers[player]["closing"] == n, (player, ledgers[player])
    if "refunds" in expect:
        ledgers = {d["country"]: d for d in _events_of(events, "ledger")}
        for player, reasons in expect["refunds"].items():
            got_reasons = [r["reason"] for r in ledgers[player]["refunds"]] if player in ledgers else []
            assert got_reasons == reasons, (player, got_reasons)
    if "war_points" in expect:
        for player, n in expect["war_points"].items():
            assert state["countries"][player]["war_points"] == n, (player, state["countries"][player]["war_points"])
    if "spent" in expect:
        ledgers = {d["country"]: d for d in _events_of(events, "ledger")}
        for player, prices in expect["spent"].items():
            assert [i["price"] for i in ledgers[player]["items"]] == prices, ledgers[player]["items"]
    if "events" in expect:
        seen = kinds(all_events)
        for kind in expect["events"]:
            assert kind in seen, (kind, seen)
    if "no_events" in expect:
        seen = kinds(all_events)
        for kind in expect["no_events"]:
            assert kind not in seen, (kind, seen)
    if "wars" in expect:
        got_wars = sorted([w["attacker"], w["defender"], w["attacker_type"], w["defender_type"]] for w in state["wars"])
        assert got_wars == sorted(expect["wars"]), got_wars
    if "treaties" in expect:
        got_treaties = sorted([t["kind"], *t["parties"]] for t in state["treaties"])
        assert got_treaties == sorted(expect["treaties"]), got_treaties
    if "deals" in expect:
        got_deals = sorted([d["a"], d["b"], d["a_gives"], d["b_gives"]] for d in state["deals"])
        assert got_deals == sorted(expect["deals"]), got_deals
    if "epoch" in expect:
        assert state["epoch"] == expect["epoch"]
    if "religion" in expect:
        for player, (rel, up) in expect["religion"].items():
            c = state["countries"][player]
            assert (c["religion"], c["upgraded"]) == (rel, up), (player, c["religion"], c["upgraded"])
    if "suzerain" in expect:
        for player, who in expect["suzerain"].items():
            assert state["countries"][player]["suzerain"] == who
    if "research" in expect:
        for player, done in expect["research"].items():
            assert state["countries"][player]["research"] == done, state["countries"][player]["research"]
    if "alive" in expect:
        for player, alive in expect["alive"].items():
            assert state["countries"][player]["alive"] == alive
    if "battle" in expect:
        battle = _events_of(all_events, "battle")[0]
        for key, value in expect["battle"].items():
            assert battle[key] == value, (key, battle)
    if "modifiers" in expect:
        for player, mods in expect["modifiers"].items():
            got_mods: dict[str, int] = {}
            for m in state["countries"][player]["roll"]["modifiers"]:   # a resource's lines added up
                got_mods[m["key"]] = got_mods.get(m["key"], 0) + m["amount"]
            assert got_mods == mods, got_mods
    if "tribute" in expect:
        for player, (out, inn) in expect["tribute"].items():
            roll = state["countries"][player]["roll"]
            assert (roll["tribute_out"], roll["tribute_in"]) == (out, inn), roll
    if "tribute_share" in expect:
        for player, pct in expect["tribute_share"].items():
            roll = state["countries"][player]["roll"]
            assert roll["tribute_out"] == roll["total"] * pct // 100, roll
    if "countries" in expect:
        for cid, fields in expect["countries"].items():
            assert cid in state["countries"], (cid, sorted(state["countries"]))
            for key, value in fields.items():
                assert state["countries"][cid][key] == value, (cid, key, state["countries"][cid][key])
    if "outcome" in expect:
        got = state["outcome"]
        assert (got["reason"], got["winners"]) == tuple(expect["outcome"]) if got else expect["outcome"] is None, got
    if "offers" in expect:
        got_offers = sorted([o["kind"], o["by"], o["to"]] for o in state["offers"])
        assert got_offers == sorted(expect["offers"]), got_offers
    if "report" in expect:
        # the game master's post of the last turn as a viewer reads it (plain Russian text)
        for viewer, needles in expect["report"].items():
            view = ruleset.view(state, viewer)
            text = ruleset.report(view, [e for e in events if e.visible_to(viewer)], viewer,  # type: ignore[attr-defined]
                                  "text", "ru", turn=state["turn"] - 1)
            for needle in needles:
                assert needle in text, (needle, text)
    if "map" in expect:
        # the map a viewer receives: every country named, no label over another (test_nw_map.py)
        import re

        from tests.rulesets.new_worlds.test_nw_map import collisions

        for viewer, wanted in expect["map"].items():
            svg = ruleset.map_svg(ruleset.view(state, viewer), viewer, "ru", [e for e in events if e.visible_to(viewer)])  # type: ignore[attr-defined]
            assert collisions(svg) == []
            named = set(re.findall(r'class="country-name" data-country="([^"]+)"', svg))
            assert named == set(wanted["named"]), named
            for needle in wanted.get("shows", []):
                assert needle in svg, needle
    if "state" in expect:
        for path, value in expect["state"].items():
            node: Any = state
            for part in path.split("/"):
                node = node[int(part)] if isinstance(node, list) else node[part]
            assert node == value, (path, node)
