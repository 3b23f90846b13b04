"""«Видимость» (document 003): each player sees his own holdings and units and what lies
within one hex of them; fog hides a hex even from a neighbour; nothing else leaks."""

from __future__ import annotations

import json

from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.ruleset import GM, PUBLIC


def _game():  # type: ignore[no-untyped-def]
    return make_game(
        ("A", "B", "C"),
        holdings={"0505": "A", "0507": "B", "1515": "C", "0909": "B"},
        units=[["A", "officer", "0505"], ["B", "pawn", "0506"], ["B", "queen", "0909"], ["C", "pawn", "1515"],
               ["B", "pawn", "0405"]],
        money={"A": 11, "B": 987654, "C": 55},
        fog=["0405"],
        chupacabras=["0405"],
    )


def test_player_sees_within_one_hex() -> None:
    """003 «Видимость»: «владения [и отряды] других игроков, которые находятся от его отрядов
    или его владений на расстоянии не более 1 гекса»."""
    ruleset, state = _game()
    view = ruleset.view(state, "A")
    assert {(u["owner"], u["hex"]) for u in view["units"]} == {("A", "0505"), ("B", "0506")}
    assert "0506" in view["visible"] and "0507" not in view["visible"]
    assert set(view["holdings"]) == {"0505"}


def test_fog_hides_even_from_a_neighbour() -> None:
    """003 «Видимость»: «Даже если рядом с ним находится владение или отряд игрока, он не
    увидит, что чьи-то войска подходят к нему через Туман»."""
    ruleset, state = _game()
    view = ruleset.view(state, "A")
    assert "0405" not in view["visible"]
    assert view["chupacabra_hexes"] == []
    assert all(u["hex"] != "0405" for u in view["units"])


def test_nothing_of_others_leaks() -> None:
    """DESIGN «Views»: «A player's view must not contain anything that player may not see» —
    not another's money, unit ids, statement or far units, in any format."""
    ruleset, state = _game()
    state, events = play(ruleset, state, {"B": "перевод 5 C: тайна"})
    view = ruleset.view(state, "A")
    text = json.dumps(view, ensure_ascii=False)
    assert "987654" not in text and "тайна" not in text
    for u in view["units"]:
        if u["owner"] != "A":
            assert set(u) == {"owner", "type", "hex"}
    assert view["me"]["money"] == state["players"]["A"]["money"]
    assert all("money" not in p for p in view["players"].values())
    assert "0909" not in text and "1515" not in text
    assert str(state["players"]["B"]["money"]) not in json.dumps(view["me"])
    report = ruleset.report(view, [e for e in events if e.visible_to("A")], "A")
    svg = ruleset.map_svg(view, "A") or ""
    for out in (report, svg):
        assert "тайна" not in out and str(state["players"]["B"]["money"]) not in out
    assert not [e for e in events if e.visible_to("A") and e.kind == "transfer"]


def test_public_view_shows_no_board_secrets() -> None:
    """A spectator («public») sees the map, the relations and the offer, but no holdings, units,
    money or monsters."""
    ruleset, state = _game()
    view = ruleset.view(state, PUBLIC)
    assert view["units"] == [] and view["holdings"] == {} and view["chupacabra_hexes"] == []
    assert "me" not in view


def test_gm_sees_everything() -> None:
    """The game master's view is the whole state."""
    ruleset, state = _game()
    view = ruleset.view(state, GM)
    assert view["chupacabra_hexes"] == ["0405"] and len(view["units"]) == len(state["units"])


def test_battle_events_reach_only_those_who_may_see() -> None:
    """003 «Видимость»: a battle far from a player's land and units is not reported to him."""
    ruleset, state = make_game(("A", "B", "C"), holdings={"0101": "A", "1818": "B", "0303": "C"},
                               units=[["A", "officer", "1516"], ["B", "pawn", "1517"], ["C", "pawn", "0303"]])
    state, events = play(ruleset, state, {"A": "ход 1516 1517"})
    (battle,) = [e for e in events if e.kind == "battle"]
    assert battle.visible_to("A") and battle.visible_to("B") and not battle.visible_to("C")


def test_own_fog_units_are_seen() -> None:
    """A player's own units are always on his map, in fog as well."""
    ruleset, state = _game()
    view = ruleset.view(state, "B")
    assert ("B", "0405") in {(u["owner"], u["hex"]) for u in view["units"]}
    assert view["chupacabra_hexes"] == ["0405"]
