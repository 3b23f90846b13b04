"""Hunting for leaks along bot games (DESIGN «Secrets cut in one place»): whatever the seed,
a player's view, events and map hold nothing outside «Видимость» of document 003."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core import noninterference as ni
from tests.rulesets.ring_of_power.rop_helpers import CROWDED_MAP, HOUSE_RULES, make_game, play, random_post
from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.ruleset import GM, PUBLIC
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


def _public_bid_game(anna_bid: int, boris_bid: int, like: Game | None = None) -> Game:
    """A game whose first turn is an auction of condottieri: both players move their stacks
    out of their start holdings and bid for the band there; with ``like``, on the dice ``like``
    drew (a step's seeds depend on its posts: tests/core/noninterference.py, ``pin_dice``)."""
    game = Game.create("ring-of-power", "auction", ["Анна", "Борис"], seed="auction",
                       house_rules={"condottieri": {"first_offer_turn": 1}})
    if like is not None:
        ni.pin_dice(game, like)
    game.submit("Анна", f"ход 0303 0403\nставка {anna_bid} 0303")
    game.submit("Борис", f"ход 1818 1817\nставка {boris_bid} 1818")
    game.resolve()
    return game


def test_public_export_holds_no_losing_bid_and_no_tie_break() -> None:
    """Leak 6 (issue 15): 003 «Найм Кондотьеров» with sealed bids (docs/rulings 28) — the
    public export of a turn where two equal bids were drawn is byte-identical to the one
    where the loser bid less: no losing amount, no tie-break label, no roll of the draw
    (it is on the sealed stream, docs/dice.md «Sealed rolls»), but for the loser's post
    commitment and the digests over it (the step's and its inputs'), which differ by design (docs/engine.md «Seeds that
    depend on posts»)."""
    tied_game = _public_bid_game(30, 30)
    tied = tied_game.export(public=True)
    (hired,) = [e for s in tied["steps"] for e in s["events"] if e["kind"] == "condottieri_hired"]
    winner = hired["data"]["player"]
    clear_game = _public_bid_game(*{"Анна": (30, 12), "Борис": (12, 30)}[winner], like=tied_game)
    dumped = json.dumps(tied, ensure_ascii=False, sort_keys=True)
    assert "/tie" not in dumped and '"ties"' not in dumped
    loser = next(p for p in ("Анна", "Борис") if p != winner)
    mask_tied, mask_clear = ni.masks(tied_game, clear_game, PUBLIC)
    assert sorted(mask_tied.values()) == [f"<step 1 commitment of {loser}>", "<step 1 digest>",
                                          "<step 1 inputs digest>"]
    export = {"export": dumped}
    other = {"export": json.dumps(clear_game.export(public=True), ensure_ascii=False, sort_keys=True)}
    assert ni.masked(export, mask_tied) == ni.masked(other, mask_clear)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=1_000_000), players=st.integers(min_value=2, max_value=4))
def test_events_tell_each_player_only_what_he_watched(seed: int, players: int) -> None:
    """003 «Видимость» and docs/rulings 34, over crowded random games (battles, supports from
    the fog, desertion, seized holdings, the Chupacabra): a player is told of a battle only
    if he fought or supported in it or watched one of its hexes (seen at the start or the end
    of the turn), and of a supporting group (who, where, what it lost) only if it is his own
    or he watched its hex; tax, desertion, income and statements go to their owner alone;
    the sealed roll of an encounter only to the player who met her."""
    ruleset = RingOfPower({"map": CROWDED_MAP, "max_turns": 8}, HOUSE_RULES)
    names = NAMES[:players]
    state = ruleset.setup(names, Dice.from_text(f"told/{seed}"))
    while ruleset.outcome(state) is None:
        dice_text = f"told/{seed}/{state['turn']}"
        orders = {}
        for p in ruleset.awaiting(state):
            stream = Dice.from_text(dice_text).stream(f"bot/{p}")
            view = ruleset.view(state, p)
            post = (ruleset.bot(view, p, stream) or "") if stream.chance(0.5) else random_post(view, p, stream)
            orders[p] = ruleset.parse(post, p, state)
        result = ruleset.resolve(state, orders, Dice.from_text(dice_text))
        watched = {p: visible_hexes(state, p) | visible_hexes(result.state, p) for p in names}
        for e in result.events:
            d = e.data
            if e.kind in ("tax_unpaid", "deserted", "income", "statement", "disbanded", "promoted", "bid_lost"):
                assert e.audience == (d["player"],), (e.kind, e.audience)
            if e.kind == "chupacabra" and "roll" in d:
                assert e.audience == (d["player"],)
            if e.kind == "battle":
                fought = {s["player"] for s in d["sides"]}
                for p in e.audience:
                    groups = [g for s in d["sides"] for g in s["supporters"]]
                    assert p in fought or any(g["player"] == p for g in groups) or set(d["hexes"]) & watched[p]
                    for g in groups:
                        assert g["player"] == p or g["hex"] in watched[p], (p, g, sorted(watched[p]))
        state = result.state


def test_each_player_reads_the_battle_he_was_told_and_the_gm_reads_it_once() -> None:
    """docs/rulings 34: Dora supports B from the fog of 0604; A's report names the support
    only as strength out of sight, Dora's names her officer, and the game master's report has
    the battle once, whole."""
    from voevoda.core.markup import render

    ruleset, state = make_game(("A", "B", "C", "Dora"), fog=["0604"],
                               holdings={"0101": "A", "2020": "B", "0704": "C", "2001": "Dora"},
                               units=[["A", "queen", "0506"], ["A", "pawn", "0506"], ["B", "pawn", "0505"],
                                      ["Dora", "officer", "0604"]])
    state, events = play(ruleset, state, {"A": "ход 0506 0505", "Dora": "поддержка 0604 0505 B"})

    def text(viewer: str) -> str:
        shown = [e for e in events if e.visible_to(viewer)]
        return render(ruleset.document(ruleset.view(state, viewer), shown, viewer, "ru", 1), "text")

    anna, dora, gm = text("A"), text("Dora"), text(GM)
    assert "поддержка невидимых отрядов: сила 3" in anna and "Dora" not in anna and "0604" not in anna
    assert "ваша поддержка из 0604: офицер" in dora
    assert gm.count("Бой в 0505") == 1 and "поддержка игрока Dora из 0604: офицер" in gm
    assert "Бо" not in text("C") and "Бо" not in text("public")
