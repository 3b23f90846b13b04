"""The worked examples in examples/ring-of-power/ stay true (docs/ring_of_power.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from voevoda.core.dice import Dice
from voevoda.core.errors import ParseError
from voevoda.rulesets.ring_of_power import RingOfPower

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ring-of-power"
AUTHORS = {"turn1_anna.txt": "Анна", "turn1_boris_en.txt": "Борис", "turn1_payment.txt": "Анна"}


@pytest.mark.parametrize("name", sorted(AUTHORS))
def test_good_examples_are_accepted(name: str) -> None:
    """003 «Приказы»: each example post is read and is legal on turn 1 of a fresh game."""
    ruleset = RingOfPower()
    state = ruleset.setup(["Анна", "Борис"], Dice.from_text("examples"))
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    orders = ruleset.parse(text, AUTHORS[name], state)
    assert orders and ruleset.validate(state, AUTHORS[name], orders) == []


def test_bad_example_is_answered_as_documented() -> None:
    """The answer to bad_post.txt is exactly the one shown in examples/ring-of-power/README.md."""
    ruleset = RingOfPower()
    state = ruleset.setup(["Анна", "Борис"], Dice.from_text("examples"))
    with pytest.raises(ParseError) as caught:
        ruleset.parse((EXAMPLES / "bad_post.txt").read_text(encoding="utf-8"), "Анна", state)
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for problem in caught.value.problems:
        assert problem.both() in readme
    assert caught.value.understood == ["вражда: Борис"]
