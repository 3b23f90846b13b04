"""Ring of Power positions whose reports the corpus (tests/corpus/ring_of_power.txt) quotes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.ruleset import Event
from voevoda.rulesets.ring_of_power import RingOfPower

Scenario = tuple[RingOfPower, dict[str, Any], list[Event]]

# The public chronicle is off by default (docs/rulings 34); these scenarios publish the news.
NEWS = {"chronicle": "names"}
# The corpus was written for holdings of a base income of 10 (the default is 20: docs/rulings 11).
TENS = {"income": {"base": 10}}


def battle() -> Scenario:
    """A battle with a supporter, a transfer, hostility in the income."""
    # Вера's support follows Анна's queen out of 0505 into the battle at 0605: the other
    # reading of ruling 26 (support_reach = units).
    ruleset, state = make_game(
        ("Анна", "Борис", "Вера"), house_rules=TENS, config={**NEWS, "support_reach": "units"},
        holdings={"0505": "Анна", "0506": "Анна", "0606": "Борис", "0607": "Борис", "0405": "Вера", "0808": "Вера"},
        units=[["Анна", "queen", "0505"], ["Анна", "pawn", "0506"], ["Борис", "officer", "0707"],
               ["Борис", "pawn", "0707"], ["Вера", "officer", "0405"], ["Борис", "pawn", "0406"]],
        hostile={"Анна": ["Борис"], "Борис": ["Анна"], "Вера": ["Анна"]}, depletion={"0505": 1})
    state, events = play(ruleset, state, {"Анна": "ход 0505 0605\nвражда Вера",
                                          "Борис": "ход 0707 0606 0605\nперевод 10 Анна: за мир",
                                          "Вера": "поддержка 0405 0505 Анна"})
    return ruleset, state, events


def intruders() -> Scenario:
    """Other players' units come into and stand in a player's holdings."""
    ruleset, state = make_game(
        ("Анна", "Борис", "Саша"), house_rules=TENS, config={**NEWS, "genders": {"Саша": "f"}},
        holdings={"0505": "Анна", "0506": "Анна", "0507": "Анна", "0909": "Борис", "1212": "Саша"},
        units=[["Анна", "queen", "0507"], ["Борис", "officer", "0605"], ["Борис", "pawn", "0605"],
               ["Саша", "condottiere", "0506"], ["Борис", "queen", "0909"], ["Саша", "queen", "1212"]],
        camps={"0506": {"Саша": 0}})
    state, events = play(ruleset, state, {"Борис": "ход 0605 0505"})
    return ruleset, state, events


def bids() -> Scenario:
    """Three sealed bids: one outbid, one equal to the winner's and drawn, one into a hex it cannot use."""
    offer = {"id": 1, "turn": 1, "size": 4, "upkeep": 3}
    ruleset, state = make_game(
        ("Анна", "Борис", "Вера", "Глеб"), house_rules=TENS,
        holdings={"0303": "Анна", "0304": "Анна", "0808": "Борис", "0809": "Борис", "1212": "Вера", "1213": "Вера",
                  "1515": "Глеб"},
        units=[["Анна", "queen", "0303"], ["Борис", "queen", "0808"], ["Вера", "queen", "1212"],
               ["Глеб", "pawn", "1515"], ["Глеб", "pawn", "1515"], ["Глеб", "pawn", "1515"]],
        offer=offer, money={"Анна": 100, "Борис": 100, "Вера": 100, "Глеб": 100})
    state, events = play(ruleset, state, {"Анна": "ставка 40 0304", "Борис": "ставка 40 0809",
                                          "Вера": "ставка 20 1213", "Глеб": "ставка 60 1515"})
    return ruleset, state, events


def troubles() -> Scenario:
    """An order that could not be paid, a raise that failed, an upgrade, a disbanding, upkeep
    that could not be paid."""
    ruleset, state = make_game(
        ("Анна", "Борис"), house_rules=TENS, config=NEWS,
        holdings={"0505": "Анна", "0506": "Анна", "0707": "Борис"},
        units=[["Анна", "pawn", "0505"], ["Анна", "pawn", "0505"], ["Анна", "officer", "0606"],
               ["Анна", "condottiere", "0909", {"upkeep": 4}], ["Анна", "condottiere", "0909", {"upkeep": 4}],
               ["Борис", "queen", "0707"]],
        money={"Анна": 64, "Борис": 50})
    state, events = play(ruleset, state, {"Анна": "улучшение 0505\nроспуск 0606\nход 0909 0910\nсбор 0506 2",
                                          "Борис": "ход 0707 0606 0506"})
    return ruleset, state, events


SCENARIOS: dict[str, Callable[[], Scenario]] = {"battle": battle, "intruders": intruders, "bids": bids,
                                                "troubles": troubles}
