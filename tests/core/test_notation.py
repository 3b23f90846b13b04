"""Dice notation (issue: «dice notation (NdX, keep/drop, modifiers) through a real grammar»)."""

from __future__ import annotations

import pytest

from voevoda.core.dice import Dice
from voevoda.core.errors import ParseError
from voevoda.core.notation import roll


def fresh(label: str = "r"):  # type: ignore[no-untyped-def]
    return Dice.from_text("notation").stream(label)


@pytest.mark.parametrize(
    ("expression", "faces_needed"),
    [("2d6", 2), ("3к6+2", 3), ("1д20", 1), ("d%", 1), ("4d6kh3", 4), ("2d20kl1 + 5", 2)],
)
def test_counts_the_dice_it_rolls(expression: str, faces_needed: int) -> None:
    stream = fresh()
    roll(expression, stream)
    assert stream.count == faces_needed


def test_keep_highest_drops_the_lowest_face() -> None:
    """4d6kh3 keeps the three highest faces."""
    result = roll("4d6kh3", fresh())
    faces = result.terms[0].faces
    assert result.total == sum(sorted(faces)[1:])


def test_keep_lowest_and_drop_highest() -> None:
    low = roll("3d20kl1", fresh("a"))
    assert low.total == min(low.terms[0].faces)
    dropped = roll("3d20dh1", fresh("b"))
    assert dropped.total == sum(sorted(dropped.terms[0].faces)[:2])


def test_arithmetic_and_precedence() -> None:
    result = roll("(1d6 - 2) * 10 + 7 / 2", fresh())
    assert result.total == (result.terms[0].faces[0] - 2) * 10 + 3
    assert roll("2 + 3 * 4", fresh()).total == 14
    assert roll("-3 + 1", fresh()).total == -2


def test_fudge_and_percent() -> None:
    fudge = roll("4dF", fresh())
    assert all(f in (-1, 0, 1) for f in fudge.terms[0].faces)
    percent = roll("d%", fresh())
    assert 1 <= percent.total <= 100


def test_describe_shows_every_face() -> None:
    result = roll("5d10", fresh())
    text = result.describe()
    assert text.startswith("5d10: 5d10 → ")
    assert text.endswith(f"= {result.total}")
    assert " ".join(str(f) for f in result.terms[0].faces) in text


@pytest.mark.parametrize("bad", ["2d", "d", "2x6", "1d6 +", "3d6kh4", "0d6", "2d0", "(1d6"])
def test_bad_expressions_are_refused_with_a_message(bad: str) -> None:
    with pytest.raises(ParseError) as info:
        roll(bad, fresh())
    problem = info.value.problems[0]
    assert problem.kind == "invalid" and problem.message_ru and problem.message_en
