"""Issue 25, «Performance»: what a service renders from a game is kept per version of the game
(src/voevoda/service/__init__.py, GameCache.memo). Near a deadline posts arrive every second;
a turn's report does not change with them, so a version that only adds posts keeps the reports,
while the dashboard (who has posted) is rendered again, and a resolution or a rollback renders
everything again."""

from __future__ import annotations

from pathlib import Path

import pytest

from voevoda.core.engine import Game
from voevoda.service import OPERATOR, Service


@pytest.fixture()
def service(tmp_path: Path) -> Service:
    service = Service(f"sqlite:///{tmp_path / 'cache.db'}")
    game = Game.create("ring-of-power", "g", ["Анна", "Борис", "Вера"], seed="cache")
    for name in game.record.players:
        game.post(name, game.bot_post(name))
    game.resolve()
    service.add_game(OPERATOR, game)
    return service


def post(service: Service, name: str) -> None:
    game = service.sight(OPERATOR, "g", "gm")._replayed()
    service.post(OPERATOR, "g", name, game.bot_post(name))


def test_a_post_keeps_the_reports_and_renders_the_dashboard_again(service: Service) -> None:
    sight = service.sight(OPERATOR, "g", "Анна")
    report, board = sight.report(1, "html", "ru"), sight.dashboard()
    post(service, "Борис")
    after = service.sight(OPERATOR, "g", "Анна")
    assert after.report(1, "html", "ru") is report  # the same text, not rendered again
    assert after.dashboard() is not board
    assert [line.posted for line in after.dashboard().seats] != [line.posted for line in board.seats]


def test_a_resolution_renders_the_reports_again(service: Service) -> None:
    report = service.sight(OPERATOR, "g", "Анна").report(None, "html", "ru")
    for name in ("Анна", "Борис", "Вера"):
        post(service, name)
    service.resolve(OPERATOR, "g", step=2)
    assert service.sight(OPERATOR, "g", "Анна").report(None, "html", "ru") is not report


def test_a_rollback_drops_the_reports(service: Service) -> None:
    key = ("Анна", "report", 1, "html", "ru", None)  # as Sight.report keys it
    sight = service.sight(OPERATOR, "g", "Анна")
    sight.report(1, "html", "ru")
    assert key in sight._memo  # type: ignore[operator]
    service.rollback(OPERATOR, "g", step=1, reason="проверка")
    assert key not in service.sight(OPERATOR, "g", "Анна")._memo  # type: ignore[operator]
