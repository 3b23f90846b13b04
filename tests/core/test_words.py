"""Counted nouns agree with their number (reports in both languages)."""

from __future__ import annotations

import pytest

from voevoda.core.words import count_en, count_ru, plural_ru

ROUND = ("раунд", "раунда", "раундов")


@pytest.mark.parametrize(("n", "expected"), [
    (0, "0 раундов"), (1, "1 раунд"), (2, "2 раунда"), (4, "4 раунда"), (5, "5 раундов"),
    (11, "11 раундов"), (12, "12 раундов"), (14, "14 раундов"), (21, "21 раунд"),
    (22, "22 раунда"), (25, "25 раундов"), (101, "101 раунд"), (111, "111 раундов"),
    (112, "112 раундов"), (1004, "1004 раунда"),
])
def test_russian_forms_follow_the_last_digits(n: int, expected: str) -> None:
    assert count_ru(n, ROUND) == expected


def test_russian_genitive_forms_after_a_preposition() -> None:
    # «после 1 раунда», «после 5 раундов»: the caller passes the genitive forms
    genitive = ("раунда", "раундов", "раундов")
    assert [plural_ru(n, genitive) for n in (1, 3, 5, 21)] == ["раунда", "раундов", "раундов", "раунда"]


@pytest.mark.parametrize(("n", "expected"), [(0, "0 rounds"), (1, "1 round"), (2, "2 rounds")])
def test_english_forms(n: int, expected: str) -> None:
    assert count_en(n, "round") == expected


def test_english_irregular_plural() -> None:
    assert count_en(3, "army", "armies") == "3 armies"
