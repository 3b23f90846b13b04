"""Issue 26, «Deadlines and the worker»: a deadline per step — an absolute time, «every Sunday
18:00» in the game's zone, «48 hours after the step opens», different periods per phase —
computed purely (src/voevoda/clock/schedule.py), correct across a change of summer time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from voevoda.clock.schedule import (
    Schedule,
    left_text,
    local_text,
    parse_deadline,
    parse_period,
    parse_phases,
    parse_weekly,
)
from voevoda.core.errors import GameError

BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def test_weekly_sunday_18_stays_18_on_the_wall_clock_across_the_autumn_change() -> None:
    """Berlin leaves summer time on 2026-10-25: Sunday 18:00 is 16:00 UTC before, 17:00 UTC after."""
    schedule = Schedule(BERLIN, weekly=parse_weekly("sun 18:00"))
    first = schedule.due(1, utc(2026, 10, 14, 9, 0))
    assert first == utc(2026, 10, 18, 16, 0)
    second = schedule.due(2, first)
    assert second == utc(2026, 10, 25, 17, 0)
    assert local_text(second, BERLIN) == "2026-10-25 18:00 CET (+01:00)"
    assert second - first == timedelta(days=7, hours=1)


def test_weekly_time_the_clocks_skip_is_read_with_the_offset_before() -> None:
    """New York springs forward on 2026-03-08 at 02:00: «sun 02:30» that night is 03:30 EDT."""
    schedule = Schedule(NEW_YORK, weekly=parse_weekly("Sunday 02:30"))
    due = schedule.due(1, utc(2026, 3, 5, 12, 0))
    assert due is not None and due.astimezone(ZoneInfo(NEW_YORK)).strftime("%H:%M %Z") == "03:30 EDT"


def test_weekly_is_the_first_such_moment_after_the_step_opens() -> None:
    schedule = Schedule("Europe/Moscow", weekly=parse_weekly("вс 18:00"))
    sunday_six = utc(2026, 12, 6, 15, 0)
    assert schedule.due(1, sunday_six - timedelta(minutes=1)) == sunday_six
    assert schedule.due(1, sunday_six) == sunday_six + timedelta(days=7)


def test_hours_are_elapsed_time_and_days_are_calendar_days_across_the_spring_change() -> None:
    """Berlin springs forward on 2026-03-29: 48h after Friday 18:00 CET is Sunday 19:00 CEST; 2d is
    Sunday 18:00 CEST on the wall clock, an hour less of real time."""
    opened = utc(2026, 3, 27, 17, 0)
    hours = Schedule(BERLIN, period=parse_period("48h")).due(1, opened)
    days = Schedule(BERLIN, period=parse_period("2d")).due(1, opened)
    assert hours == opened + timedelta(hours=48)
    assert local_text(hours, BERLIN) == "2026-03-29 19:00 CEST (+02:00)"
    assert local_text(days, BERLIN) == "2026-03-29 18:00 CEST (+02:00)"
    assert days == opened + timedelta(hours=47)


def test_periods_per_phase_choose_by_what_the_step_awaits() -> None:
    """A Steel Rose battle's deployment and planning steps get their own periods; other steps the
    weekly time."""
    schedule = Schedule(BERLIN, weekly=parse_weekly("sun 18:00"),
                        phases=parse_phases(["deployment=24h", "planning=12h"]))
    opened = utc(2026, 12, 1, 12, 0)
    assert schedule.due(1, opened, "deployment") == opened + timedelta(hours=24)
    assert schedule.due(2, opened, "planning") == opened + timedelta(hours=12)
    assert schedule.due(3, opened, "orders") == utc(2026, 12, 6, 17, 0)


def test_an_absolute_deadline_is_for_its_step_only() -> None:
    deadline = parse_deadline("2026-12-06T18:00+03:00")
    schedule = Schedule("Europe/Moscow", deadline=deadline, deadline_step=3, period=parse_period("48h"))
    assert deadline == utc(2026, 12, 6, 15, 0)
    assert schedule.due(3, utc(2026, 12, 1)) == deadline
    assert schedule.due(4, utc(2026, 12, 6, 15)) == utc(2026, 12, 8, 15)
    assert Schedule().due(1, utc(2026, 12, 1)) is None


def test_a_deadline_without_an_offset_is_on_the_games_wall_clock() -> None:
    assert parse_deadline("2026-07-01 18:00", BERLIN) == utc(2026, 7, 1, 16, 0)
    assert parse_deadline("2026-12-01 18:00", BERLIN) == utc(2026, 12, 1, 17, 0)


@pytest.mark.parametrize(("text", "message"), [
    ("4x", "--period: '4x' is not a period"), ("", "is not a period"), ("0h", "a period from a minute"),
    ("400d", "a period from a minute to a year"),
])
def test_a_bad_period_is_refused_naming_the_option(text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        parse_period(text)


@pytest.mark.parametrize(("text", "message"), [("someday 18:00", "not a weekday"), ("sun 25:00", "no time 25:00"),
                                               ("sun", "not a weekday")])
def test_a_bad_weekly_time_is_refused(text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        parse_weekly(text)


def test_bad_deadline_and_phase_are_refused() -> None:
    with pytest.raises(GameError, match="--deadline: 'tomorrow' is not a date"):
        parse_deadline("tomorrow")
    with pytest.raises(GameError, match="write NAME=PERIOD"):
        parse_phases(["deployment"])
    with pytest.raises(GameError, match="unknown time zone 'Mars/Base'"):
        Schedule("Mars/Base", period=parse_period("1h")).due(1, utc(2026, 1, 1))


def test_time_left_in_words() -> None:
    now = utc(2026, 12, 1, 12, 0)
    assert left_text(now + timedelta(days=1, hours=3, minutes=5), now) == "через 1 д 3 ч"
    assert left_text(now + timedelta(minutes=42), now, "en") == "in 42 min"
    assert left_text(now - timedelta(seconds=1), now) == "срок прошёл"


@pytest.mark.parametrize(("schedule", "ru", "en"), [
    (Schedule("Europe/Moscow", weekly=parse_weekly("sun 18:00")),
     "каждое воскресенье в 18:00 (Europe/Moscow)", "every Sunday at 18:00 (Europe/Moscow)"),
    (Schedule("UTC", weekly=parse_weekly("ср 09:30")), "каждую среду в 09:30 (UTC)", "every Wednesday at 09:30 (UTC)"),
    (Schedule("UTC", weekly=parse_weekly("mon 07:05")), "каждый понедельник в 07:05 (UTC)",
     "every Monday at 07:05 (UTC)"),
    (Schedule("UTC", period=parse_period("48h")), "48 ч после начала шага (UTC)", "48 h after the step opens (UTC)"),
    (Schedule("UTC", period=parse_period("1d12h30m")), "1 д 12 ч 30 мин после начала шага (UTC)",
     "1 d 12 h 30 min after the step opens (UTC)"),
    (Schedule("UTC", phases=parse_phases(["deployment=24h"])), "deployment: 24 ч после начала шага (UTC)",
     "deployment: 24 h after the step opens (UTC)"),
])
def test_the_rule_is_said_in_words_of_the_readers_language(schedule: Schedule, ru: str, en: str) -> None:
    """Issue 26: the rule on the deadline card and in `voevoda schedule` reads as words, not as
    the option typed («48h», «sun 18:00»)."""
    assert schedule.text("ru") == ru
    assert schedule.text("en") == en
