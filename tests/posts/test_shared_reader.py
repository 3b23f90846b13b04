"""Every game reads a post's lines through the core (DESIGN.md «Posts in»: «Before a ruleset's
parser sees a post, the core turns forum text into order lines»): names are folded, greetings
and fillers set aside, line ends let through and typos suggested by ``voevoda.core.posts``, so
that a post reads the same in every game and a fix to the reader reaches every game."""

from __future__ import annotations

from types import ModuleType

import pytest

from voevoda.core import posts
from voevoda.rulesets.new_worlds import orders as new_worlds
from voevoda.rulesets.thrones import orders as thrones


@pytest.mark.parametrize("module", [thrones, new_worlds], ids=["thrones", "new-worlds"])
def test_the_game_folds_names_with_the_cores_fold(module: ModuleType) -> None:
    """One fold for every game: case, «ё»/«е», apostrophes and blanks aside."""
    assert module.fold is posts.fold
    assert posts.fold("  Королевская\u00a0Гавань ") == "королевская гавань"
    assert posts.fold("King’s Landing") == posts.fold("Kings landing") == "kings landing"
    assert posts.fold("Ёлки ЕЛКИ") == "елки елки"


@pytest.mark.parametrize("module", [thrones, new_worlds], ids=["thrones", "new-worlds"])
def test_the_game_reads_greetings_and_line_ends_with_the_core(module: ModuleType) -> None:
    """«я», «мы», «хочу», «также» before an order and «.», «!», «…» after it are the core's."""
    words = module.OPENERS if hasattr(module, "OPENERS") else module.FILLERS
    assert words >= posts.OPENERS
    assert set(posts.STOPS) <= set(module.STOPS)


def test_new_worlds_offers_typos_through_the_core() -> None:
    """«может быть, «…»?» is written by posts.did_you_mean in every game."""
    assert not hasattr(new_worlds, "_suggest")


def test_new_worlds_finds_names_in_another_case_with_the_cores_stems() -> None:
    """«с Ромейской державой», «Борису»: the stemmer is the core's (Ring of Power uses it too)."""
    assert new_worlds.stem is posts.stem


def test_an_example_after_a_suggestion_is_a_sentence_of_its_own() -> None:
    """Issue 30 item 8: «может быть, «снабжение»?; пример: …» read as a stray «?;» — after a question
    the example is a sentence of its own; after a statement it follows a semicolon."""
    from voevoda.core.posts import with_example

    assert with_example("«снобжение» — не карта; может быть, «снабжение»?", "'снобжение' is no card; did you mean "
                        "'supply'?", "вестерос: снабжение", "westeros: supply") == (
        "«снобжение» — не карта; может быть, «снабжение»? Пример: вестерос: снабжение",
        "'снобжение' is no card; did you mean 'supply'? Example: westeros: supply")
    assert with_example("не указан дом", "no house given", "пропуск Старк Ров Кейлин", "passage Stark Moat Cailin") == (
        "не указан дом; пример: пропуск Старк Ров Кейлин", "no house given; example: passage Stark Moat Cailin")
