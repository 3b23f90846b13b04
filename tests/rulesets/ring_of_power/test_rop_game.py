"""Whole games: setup, computer opponents, determinism, purity and the outputs."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.dice import Dice
from voevoda.core.errors import GameError
from voevoda.core.registry import configure
from voevoda.rulesets.ring_of_power import RingOfPower

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]


def run_bots(n: int, seed: str, max_turns: int = 40, **config: Any) -> tuple[RingOfPower, dict[str, Any], list[str]]:
    ruleset = RingOfPower({"max_turns": max_turns, **config})
    state = ruleset.setup(NAMES[:n], Dice.from_text(seed))
    journal = [json.dumps(state, sort_keys=True, ensure_ascii=False)]
    while ruleset.outcome(state) is None:
        dice = Dice.from_text(f"{seed}/{state['turn']}")
        orders = {}
        for p in ruleset.awaiting(state):
            view = ruleset.view(state, p)
            text = ruleset.bot(view, p, dice.stream(f"bot/{p}")) or ""
            orders[p] = ruleset.parse(text, p, state)
            assert ruleset.validate(state, p, orders[p]) == [], text
        before = copy.deepcopy(state)
        result = ruleset.resolve(state, orders, dice)
        assert state == before, "resolve must not change its input"
        state = result.state
        journal.append(json.dumps(state, sort_keys=True, ensure_ascii=False))
    return ruleset, state, journal


def test_registry_finds_the_ruleset() -> None:
    """The core finds the game by its id (core/registry.py)."""
    ruleset = configure("ring-of-power")
    assert isinstance(ruleset, RingOfPower) and ruleset.title_ru == "Кольцо Власти"


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_bots_play_a_whole_game(n: int) -> None:
    """003: «Побеждает в игре тот, кто первым собирает Кольцо Власти» — computer opponents
    give legal orders every turn and the game ends (by the ring, or at the turn limit)."""
    ruleset, state, journal = run_bots(n, f"game-{n}")
    outcome = ruleset.outcome(state)
    assert outcome is not None and outcome.winners
    assert len(journal) > 3
    assert any(len([h for h, v in state["holdings"].items() if v["owner"] == p]) > 1 for p in state["seats"])


def test_bots_reach_the_ring() -> None:
    """The computer opponent goes for the ring: some seed ends a game by the ring itself."""
    reasons = {run_bots(2, f"ring-{i}")[1]["outcome"]["reason"] for i in range(3)}
    assert "ring" in reasons


def test_replay_gives_identical_bytes() -> None:
    """DESIGN «Events»: «replay must reproduce the stored state exactly» — same seed, same
    journal, byte for byte."""
    _, _, first = run_bots(3, "replay", max_turns=12)
    _, _, second = run_bots(3, "replay", max_turns=12)
    assert first == second


def test_setup_places_every_player() -> None:
    """Start positions for 2 to 8 players: each gets a holding, his units and money."""
    ruleset = RingOfPower()
    state = ruleset.setup(NAMES, Dice.from_text("s"))
    homes = {p: [h for h, v in state["holdings"].items() if v["owner"] == p] for p in NAMES}
    assert all(len(v) == 1 for v in homes.values())
    assert len({h for v in homes.values() for h in v}) == 8
    assert all(state["players"][p]["money"] == ruleset.rules.start.money for p in NAMES)
    assert len(state["chupacabras"]) == 1 and state["chupacabras"][0]["hex"] in state["map"]["fog"]
    json.dumps(state)


def test_setup_refuses_bad_player_lists() -> None:
    """Too many or too few players, repeated or reserved names are refused in both languages."""
    ruleset = RingOfPower()
    for players in (["A"], NAMES + ["Ян"], ["A", "a"], ["A", "Казна"]):
        with pytest.raises(GameError) as caught:
            ruleset.setup(players, Dice.from_text("s"))
        assert caught.value.message_ru and caught.value.message_en


def test_awaiting_and_default_orders() -> None:
    """Every living player is asked for orders; a silent player pays the tax due
    (003 «Необходимо каждый ход перечислять 10% своего дохода»)."""
    ruleset, state = make_game(holdings={"0101": "A", "2020": "B"}, tax_due={"A": 4})
    assert set(ruleset.awaiting(state)) == {"A", "B"}
    (order,) = ruleset.default_orders(state, "A")
    assert order.kind == "transfer" and order.args["amount"] == 4
    result = ruleset.resolve(state, {}, Dice.from_text("d"))
    assert set(result.state["holdings"]) == {"0101", "2020"}


def test_finished_game_awaits_nobody() -> None:
    """After the ring is assembled nobody is asked for orders and resolving is refused."""
    ruleset, state = make_game(holdings={"0606": "A", "0605": "A", "0607": "A", "0506": "A", "0507": "A",
                                         "0706": "A", "2020": "B"},
                               units=[["A", "pawn", "0707"]], camps={"0707": {"A": 0}})
    state, _ = play(ruleset, state, {})
    assert ruleset.outcome(state) is not None and ruleset.awaiting(state) == {}
    with pytest.raises(GameError):
        ruleset.resolve(state, {}, Dice.from_text("x"))


def test_elimination_and_last_player() -> None:
    """A player with neither land nor units is out; the last one standing wins (docs/rulings)."""
    ruleset, state = make_game(holdings={"0101": "A"}, units=[["A", "officer", "0505"], ["B", "pawn", "0506"]])
    state, events = play(ruleset, state, {"A": "ход 0505 0506"})
    assert not state["players"]["B"]["alive"]
    assert ruleset.outcome(state).winners == ("A",)  # type: ignore[union-attr]


def test_condottieri_tie_is_a_sealed_roll() -> None:
    """003 «Владения»: the band goes to «тот игрок, который больше всех заплатит»; equal bids
    are ordered by a roll on the sealed stream (docs/dice.md «Sealed rolls»: a sealed bid's
    tie-break), the public event names only the winner and his price, and the loser is told
    privately that he lost the draw and gets his money back."""
    ruleset, state = make_game(holdings={"0101": "A", "2020": "B"}, offer={"id": 1, "turn": 1, "size": 3, "upkeep": 2})
    orders = {p: ruleset.parse(f"ставка 30 {h}", p, state) for p, h in (("A", "0101"), ("B", "2020"))}
    dice = Dice.from_text("tie")
    events = ruleset.resolve(state, orders, dice).events
    records = dice.records()
    assert "condottieri/1/tie" in [r["label"] for r in records if r["sealed"]]
    assert not [r for r in records if not r["sealed"] and "condottieri" in str(r["label"])]
    (hired,) = [e for e in events if e.kind == "condottieri_hired"]
    assert hired.audience == ("*",) and hired.data == {"turn": 1, "player": hired.data["player"], "amount": 30,
                                                       "size": 3, "upkeep": 2}
    loser = "B" if hired.data["player"] == "A" else "A"
    (lost,) = [e for e in events if e.kind == "bid_lost"]
    assert lost.audience == (loser,) and lost.data["reason"] == "draw" and lost.data["amount"] == 30
    new_state = ruleset.resolve(state, orders, Dice.from_text("tie")).state
    assert not [u for u in new_state["units"] if u["owner"] == loser]
    assert new_state["players"][loser]["money"] == 100 + 20


def test_offers_follow_the_schedule() -> None:
    """003 «Владения»: «Кондотьеры приходят группами по 3-5 отрядов» — a band is offered on the
    scheduled turns with a size of 3 to 5."""
    ruleset, state, _ = run_bots(2, "offers", max_turns=8)
    cfg = ruleset.rules.condottieri
    ruleset2 = RingOfPower()
    state = ruleset2.setup(["A", "B"], Dice.from_text("o"))
    sizes = []
    for _turn in range(1, 12):
        offer = state["offer"]
        if offer:
            assert (offer["turn"] - cfg.first_offer_turn) % cfg.interval == 0
            sizes.append(offer["size"])
        state = ruleset2.resolve(state, {"A": [], "B": []}, Dice.from_text(f"o{_turn}")).state
        if ruleset2.outcome(state):
            break
    assert sizes and all(cfg.size_min <= s <= cfg.size_max for s in sizes)


def test_report_and_map() -> None:
    """Each player's report holds the money statement, battles and captures; BBCode and text;
    the SVG map draws his view."""
    ruleset, state = make_game(holdings={"0101": "A", "0506": "B", "2020": "B"},
                               units=[["A", "queen", "0505"], ["B", "pawn", "0506"]])
    state, events = play(ruleset, state, {"A": "ход 0505 0506"})
    view = ruleset.view(state, "A")
    mine = [e for e in events if e.visible_to("A")]
    text = ruleset.report(view, mine, "A")
    assert "Бой в 0506" in text and "−3" in text and "Казна" in text   # a minus sign, not a hyphen
    bb = ruleset.report(view, mine, "A", fmt="bbcode", lang="en")
    assert "[b]" in bb and "Battle at 0506" in bb and "[list]" in bb
    md = ruleset.report(view, mine, "A", fmt="markdown")
    assert md.startswith("# ")
    svg = ruleset.map_svg(view, "A")
    assert svg is not None and svg.startswith("<svg") and svg.count("<polygon") >= 400 and "0506" in svg
    state, events = play(ruleset, state, {})
    text = ruleset.report(ruleset.view(state, "A"), [e for e in events if e.visible_to("A")], "A")
    assert "Вы захватили 0506" in text
