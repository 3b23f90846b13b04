"""Issue 26: «`voevoda thread GAME page.html` … shows the game master a dry run (who posted, each
echo) before storing them»: the command line's dry run, store, names and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.forum.conftest import PAGES
from voevoda.cli import app
from voevoda.service import OPERATOR, Service

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"a traceback: {result.exception!r}"
    return result.exit_code, result.output


@pytest.fixture()
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "cli.db")
    code, out = run("new", "ring-of-power", "--game", "forum", "--players", "Анна,Борис,Вера,Глеб", "--seed", "forum",
                    "--db", path)
    assert code == 0, out
    return path


def test_dry_run_stores_nothing_and_its_names_are_tried_only(db: str) -> None:
    code, out = run("thread", "forum", str(PAGES / "xenforo.html"), "--db", db, "--dry-run", "--tz", "Europe/Moscow",
                    "--map", "Anna_K=Анна", "--map", "Ведущий=-", "--deadline", "2026-12-06T18:00+03:00")
    assert code == 0, out
    assert "== Анна [Anna_K]:" in out and "дополнит ваш пост" in out
    assert "после срока, не берётся" in out and "Zloy_Тролль" in out and "Вера Сергеевна" in out
    assert "ничего не сохранено" in out
    service = Service(db)
    assert service.standing_post(OPERATOR, "forum", "Анна") is None
    assert service.forum_names(OPERATOR, "forum") == []


def test_store_with_names_kept_for_the_next_turn(db: str) -> None:
    code, out = run("thread", "forum", str(PAGES / "smf.html"), "--db", db, "--tz", "Europe/Moscow",
                    "--map", "Anna_K=Анна", "--map", "Вера Сергеевна=Вера", "--map", "Ведущий=-")
    assert code == 0, out
    assert "== Анна: сохранено / stored" in out and "== Вера: сохранено / stored" in out
    service = Service(db)
    assert service.standing_post(OPERATOR, "forum", "Борис") is not None  # no deadline: his edited post counts
    assert {n.name for n in service.forum_names(OPERATOR, "forum")} == {"Anna_K", "Вера Сергеевна", "Ведущий"}
    code, out = run("thread", "forum", str(PAGES / "smf.html"), "--db", db, "--dry-run")
    assert code == 0 and "== Вера [Вера Сергеевна]:" in out  # the names are remembered


@pytest.mark.parametrize(("args", "message"), [
    (("nothing.html",), "No such file"),
    (("invision.html", "--deadline", "завтра"), "--deadline"),
    (("invision.html", "--deadline", "2026-12-06T18:00"), "часовой пояс"),
    (("invision.html", "--map", "Anna_K"), "имя на форуме=Игрок"),
    (("invision.html", "--map", "Anna_K=Дмитрий"), "Дмитрий"),
    (("invision.html", "--tz", "Mars/Olympus"), "часовой пояс"),
])
def test_bad_input_is_a_clear_error(db: str, args: tuple[str, ...], message: str) -> None:
    code, out = run("thread", "forum", str(PAGES / args[0]), *args[1:], "--db", db)
    assert code == 1 and message in out, out


def test_a_page_of_no_forum(db: str, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body>Привет</body></html>", encoding="utf-8")
    code, out = run("thread", "forum", str(page), "--db", db)
    assert code == 1 and "не узнан движок форума" in out
