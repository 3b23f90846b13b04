"""A whole game of four computer houses, played once for every test that reads a real game."""

from __future__ import annotations

import pytest

from voevoda.core.engine import Game

PLAYERS = ["Анна", "Борис", "Вера", "Глеб"]


@pytest.fixture(scope="session")
def whole_game() -> Game:
    """Ten rounds (holy lands, every phase), every seat the computer's."""
    return Game.create("thrones", "whole", PLAYERS, bots=PLAYERS, seed="whole", auto_resolve=True)
