"""Hunting for leaks along bot games (DESIGN «Secrets cut in one place»): whatever the seed,
a player's view, events and map hold nothing outside «Видимость» of document 003."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.state import visible_hexes

NAMES = ["Анна", "Борис", "Вера", "Глеб"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000), players=st.integers(min_value=2, max_value=4))
def test_views_hold_only_what_may_be_seen(seed: int, players: int) -> None:
    """003 «Видимость»: own holdings and units, others' within one hex, nothing in fog; no
    other player's money, statement, unit ids or capture progress; events only to their
    audience."""
    ruleset = RingOfPower({"max_turns": 8, "map_name": "default"})
    names = NAMES[:players]
    state = ruleset.setup(names, Dice.from_text(f"leak/{seed}"))
    fog = set(state["map"]["fog"])
    while ruleset.outcome(state) is None:
        dice = Dice.from_text(f"leak/{seed}/{state['turn']}")
        orders = {}
        for p in ruleset.awaiting(state):
            view = ruleset.view(state, p)
            seen = visible_hexes(state, p)
            own_unit_hexes = {u["hex"] for u in state["units"] if u["owner"] == p}
            assert set(view["visible"]) == seen
            assert not (seen & fog) - own_unit_hexes
            for u in view["units"]:
                if u["owner"] != p:
                    assert u["hex"] in seen and "id" not in u
            for h, v in view["holdings"].items():
                assert v["owner"] == p or h in seen
                assert v["owner"] == p or "since" not in v
            assert set(view["chupacabra_hexes"]) <= seen
            text = json.dumps(view, ensure_ascii=False)
            for other in names:
                if other != p:
                    assert f'"{other}": {{"money"' not in text
            assert "money" not in json.dumps(view["players"])
            svg = ruleset.map_svg(view, p) or ""
            assert "<svg" in svg
            orders[p] = ruleset.parse(ruleset.bot(view, p, dice.stream(f"bot/{p}")) or "", p, state)
        result = ruleset.resolve(state, orders, dice)
        for e in result.events:
            if e.kind in ("statement", "income", "unpaid", "order_rejected", "raised", "upgrade_started"):
                assert e.audience == (e.data["player"],)
            if e.kind.startswith("chupacabra_") and e.kind != "chupacabra_multiplied":
                assert e.audience == ()
        state = result.state


def _public_bid_game(anna_bid: int, boris_bid: int) -> dict[str, object]:
    """A game whose first turn is an auction of condottieri: both players move their stacks
    out of their start holdings and bid for the band there."""
    game = Game.create("ring-of-power", "auction", ["Анна", "Борис"], seed="auction",
                       house_rules={"condottieri": {"first_offer_turn": 1}})
    game.submit("Анна", f"ход 0303 0403\nставка {anna_bid} 0303")
    game.submit("Борис", f"ход 1818 1817\nставка {boris_bid} 1818")
    game.resolve()
    return game.export(public=True)


def test_public_export_holds_no_losing_bid_and_no_tie_break() -> None:
    """Leak 6 (issue 15): 003 «Найм Кондотьеров» with sealed bids (docs/rulings 28) — the
    public export of a turn where two equal bids were drawn is byte-identical to the one
    where the loser bid less: no losing amount, no tie-break label, no roll of the draw
    (it is on the sealed stream, docs/dice.md «Sealed rolls»)."""
    tied = _public_bid_game(30, 30)
    (hired,) = [e for s in tied["steps"] for e in s["events"] if e["kind"] == "condottieri_hired"]  # type: ignore[index]
    winner = hired["data"]["player"]
    clear = _public_bid_game(*{"Анна": (30, 12), "Борис": (12, 30)}[winner])
    dumped = json.dumps(tied, ensure_ascii=False, sort_keys=True)
    assert "/tie" not in dumped and '"ties"' not in dumped
    assert dumped == json.dumps(clear, ensure_ascii=False, sort_keys=True)
