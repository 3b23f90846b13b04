"""Issue 26, «The CLI»: `voevoda schedule GAME --deadline … | --every "sun 18:00" --tz … | --period
48h [--phase NAME=PERIOD …] [--no-early]`, `pause --reason`, `resume`, `extend --by --reason`,
`ready --player`, `vacation --player --from --to`, `worker --once`; `status` shows the deadline
in the game's time zone. Bad input is a clear error, never a traceback."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from typer.testing import CliRunner

from voevoda.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"a traceback: {result.exception!r}"
    return result.exit_code, result.output


@pytest.fixture()
def db(tmp_path: Path, frozen: time_machine.Traveller) -> str:
    path = str(tmp_path / "clock.db")
    code, out = run("new", "toy-guess", "--game", "g", "--players", "Анна,Борис", "--seed", "g", "--db", path)
    assert code == 0, out
    return path


def test_schedule_weekly_in_moscow_and_status_shows_the_deadline_there(db: str) -> None:
    code, out = run("schedule", "g", "--every", "sun 18:00", "--tz", "Europe/Moscow", "--db", db)
    assert code == 0, out
    assert "каждое воскресенье в 18:00 (Europe/Moscow)" in out
    code, out = run("status", "g", "--db", db)
    assert code == 0 and "срок: 2026-12-06 18:00 MSK (+03:00) — через 5 д 3 ч" in out
    assert "deadline: 2026-12-06 18:00 MSK (+03:00) — in 5 d 3 h" in out


def test_status_of_a_game_without_a_schedule_says_no_deadline(db: str) -> None:
    code, out = run("status", "g", "--db", db)
    assert code == 0 and "срок" not in out


def test_deadline_period_phases_and_no_early(db: str) -> None:
    code, out = run("schedule", "g", "--deadline", "2026-12-06T18:00+03:00", "--db", db)
    assert code == 0 and "срок: 2026-12-06 15:00 UTC" in out
    code, out = run("schedule", "g", "--period", "48h", "--phase", "guess=12h", "--no-early", "--db", db)
    assert code == 0 and "guess: 12 ч после начала шага" in out and "досрочно / early: нет / no" in out
    # issue 26, the rule in words of the reader's language: «48 ч после начала шага» / «48 h after …»
    assert "48 ч после начала шага" in out and "48 h after the step opens" in out
    assert "2026-12-02 00:00 UTC" in out


def test_pause_resume_extend_ready_vacation_and_a_worker_pass(db: str, frozen: time_machine.Traveller) -> None:
    assert run("schedule", "g", "--period", "24h", "--db", db)[0] == 0
    code, out = run("pause", "g", "--reason", "праздники", "--db", db)
    assert code == 0 and "на паузе: праздники" in out
    code, out = run("resume", "g", "--db", db)
    assert code == 0 and "2026-12-02 12:00 UTC" in out
    code, out = run("extend", "g", "--by", "12h", "--reason", "просили", "--db", db)
    assert code == 0 and "2026-12-03 00:00 UTC" in out
    code, out = run("ready", "g", "--player", "анна", "--db", db)
    assert code == 0 and "Анна: готов, но приказов ещё нет / ready, nothing posted yet" in out
    code, out = run("vacation", "g", "--player", "Борис", "--from", "2026-12-10", "--to", "2026-12-12", "--db", db)
    assert code == 0 and "2026-12-10 00:00 UTC" in out
    frozen.shift(timedelta(hours=36))
    code, out = run("worker", "--once", "--db", db)
    assert code == 0 and "g: шаг / step 1 рассчитан / resolved" in out


@pytest.mark.parametrize(("args", "said"), [
    (("schedule", "g", "--every", "someday"), "--every: 'someday' is not a weekday"),
    (("schedule", "g", "--every", "sun 18:00", "--period", "2h"), "do not go together"),
    (("schedule", "g", "--tz", "Mars/Base"), "unknown time zone 'Mars/Base'"),
    (("schedule", "g", "--deadline", "2020-01-01T00:00Z"), "has already passed"),
    (("extend", "g", "--by", "1h", "--reason", "x"), "the step has no deadline"),
    (("pause", "g", "--reason", ""), "needs a reason"),
    (("ready", "g", "--player", "Вера"), "Вера"),
    (("resume", "g"), "the game is not paused"),
    (("schedule", "nope", "--period", "1h"), "no game named 'nope'"),
    (("vacation", "g", "--player", "Анна", "--cancel"), "'Анна' has no vacation planned"),
    (("vacation", "g", "--cancel"), "--cancel: whose vacation?"),
    (("vacation", "g", "--player", "Анна", "--from", "2026-12-10"), "a vacation needs --player, --from and --to"),
])
def test_bad_input_is_a_clear_error(db: str, args: tuple[str, ...], said: str) -> None:
    code, out = run(*args, "--db", db)
    assert code == 1 and said in out, out


def test_a_vacation_is_planned_listed_and_cancelled(db: str) -> None:
    """Issue 26, vacations from the CLI: `vacation GAME --player P --from --to`, `vacation GAME`
    (the list, with ids and the days left), `vacation GAME --player P --cancel [--id N]`."""
    code, out = run("vacation", "g", "--player", "Борис", "--from", "2026-12-10", "--to", "2026-12-12", "--db", db)
    assert code == 0 and "осталось / left: 11 дн. / days" in out, out
    code, out = run("vacation", "g", "--player", "борис", "--from", "2026-12-20", "--to", "2026-12-20", "--db", db)
    assert code == 0 and "left: 10 дн." in out, out
    code, out = run("vacation", "g", "--db", db)
    assert code == 0 and "1. Борис: 2026-12-10 00:00 UTC" in out and "2. Борис: 2026-12-20 00:00 UTC" in out, out
    assert "Анна: осталось / left 14 дн. / days" in out
    code, out = run("schedule", "g", "--db", db)
    assert code == 0 and "    1. Борис: 2026-12-10 00:00 UTC" in out, out  # the id that --cancel --id takes
    code, out = run("vacation", "g", "--player", "Борис", "--cancel", "--db", db)
    assert code == 1 and "has several vacations, choose one: --id 1" in out, out
    code, out = run("vacation", "g", "--player", "Борис", "--cancel", "--id", "1", "--db", db)
    assert code == 0 and "отпуск отменён / vacation cancelled 1 Борис" in out and "left: 13 дн." in out, out
    code, out = run("vacation", "g", "--player", "Борис", "--cancel", "--db", db)
    assert code == 0 and "vacation cancelled 2 Борис" in out, out
    code, out = run("vacation", "g", "--player", "Борис", "--db", db)
    assert code == 0 and "нет / none" in out and "Борис: осталось / left 14 дн. / days" in out, out
