"""A Ring of Power game whose step 2 is played in the forum thread of pages/: Анна posts as
«Anna_K», Борис under his own name, Вера as «Вера Сергеевна», Глеб never; the game master posts
as «Ведущий». Step 1 was resolved on 4 December at 19:00 Moscow time."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from voevoda.service import OPERATOR, Service

PAGES = Path(__file__).parent / "pages"
PLAYERS = ("Анна", "Борис", "Вера", "Глеб")
DEADLINE = datetime.fromisoformat("2026-12-06T18:00+03:00")
NAMES = {"Anna_K": "Анна", "Вера Сергеевна": "вера", "Ведущий": "-"}


class FrozenClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture()
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture()
def thread_game(tmp_path: Path, clock: FrozenClock) -> Service:
    service = Service(f"sqlite:///{tmp_path / 'forum.db'}", clock=clock)
    service.create_game(OPERATOR, "ring-of-power", "forum", list(PLAYERS), seed="forum", timezone="Europe/Moscow")
    service.resolve(OPERATOR, "forum", step=1, force=True)
    clock.now = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
    return service
