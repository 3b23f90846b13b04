"""A game's schedule and the deadline of a step: pure computation, no storage, no clock of its own.

A schedule says when each step is due (docs/clock.md):

- an absolute deadline for one step (``--deadline 2026-12-06T18:00+03:00``);
- a weekly time in the game's time zone (``--every "sun 18:00" --tz Europe/Moscow``): the first
  such moment after the step opens, on the wall clock of that zone, so «Sunday 18:00» stays 18:00
  across a change to or from summer time;
- a period after the step opens (``--period 48h``): hours and minutes are elapsed time, days are
  calendar days in the game's time zone (``2d`` after Friday 18:00 is Sunday 18:00 on the wall
  clock even when the clocks moved in between; ``48h`` is 48 hours of real time);
- different periods per phase of a game that has phases (``--phase deployment=24h``): the phase
  is the kind of what the step awaits (Steel Rose's ``deployment`` and ``planning``, Culture &
  Conquest's ``reply``, ``offer``, ``attack``; ``orders`` elsewhere), or the phase the status
  names.

Every moment here is an aware :class:`datetime`; the store keeps them in UTC and the pages show
them in the game's time zone (:func:`local_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from voevoda.core.errors import GameError

WEEKDAYS = {
    "mon": 0, "monday": 0, "пн": 0, "пон": 0, "понедельник": 0,
    "tue": 1, "tuesday": 1, "вт": 1, "вто": 1, "вторник": 1,
    "wed": 2, "wednesday": 2, "ср": 2, "сре": 2, "среда": 2,
    "thu": 3, "thursday": 3, "чт": 3, "чет": 3, "четверг": 3,
    "fri": 4, "friday": 4, "пт": 4, "пят": 4, "пятница": 4,
    "sat": 5, "saturday": 5, "сб": 5, "суб": 5, "суббота": 5,
    "sun": 6, "sunday": 6, "вс": 6, "вос": 6, "воскресенье": 6,
}
DAY_NAMES_RU = ["пн", "вт", "ср", "чт", "пт", "сб", "вс"]
DAY_NAMES_EN = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
EVERY_DAY_RU = ["каждый понедельник", "каждый вторник", "каждую среду", "каждый четверг", "каждую пятницу",
                "каждую субботу", "каждое воскресенье"]
"""«every Monday» … in Russian, each weekday with its own gender: the schedule said in words."""
EVERY_DAY_EN = ["every Monday", "every Tuesday", "every Wednesday", "every Thursday", "every Friday",
                "every Saturday", "every Sunday"]

_PERIOD = re.compile(r"^\s*(?:(\d+)\s*[dд])?\s*(?:(\d+)\s*[hч])?\s*(?:(\d+)\s*(?:m|мин|м))?\s*$", re.IGNORECASE)
_WEEKLY = re.compile(r"^\s*([^\W\d_]+)\.?\s+(\d{1,2}):(\d{2})\s*$")
MAX_PERIOD = timedelta(days=365)


@dataclass(frozen=True)
class Period:
    """A stretch of time after a step opens: ``days`` calendar days (in the game's zone) and
    ``seconds`` of elapsed time."""

    days: int = 0
    seconds: int = 0

    def text(self) -> str:
        hours, rest = divmod(self.seconds, 3600)
        minutes = rest // 60
        parts = [f"{self.days}d"] if self.days else []
        if hours:
            parts.append(f"{hours}h")
        if minutes:
            parts.append(f"{minutes}m")
        return "".join(parts) or "0h"

    def words(self, lang: str = "ru") -> str:
        """The period as a reader says it: «48 ч», «1 д 12 ч», «90 мин»; «48 h», «1 d 12 h»."""
        ru = lang == "ru"
        hours, rest = divmod(self.seconds, 3600)
        minutes = rest // 60
        parts = [f"{self.days} {'д' if ru else 'd'}"] if self.days else []
        if hours:
            parts.append(f"{hours} {'ч' if ru else 'h'}")
        if minutes:
            parts.append(f"{minutes} мин" if ru else f"{minutes} min")
        return " ".join(parts) or ("0 ч" if ru else "0 h")

    def after(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """``moment`` plus this period: the days on the zone's wall clock, then the hours."""
        moved = moment
        if self.days:
            local = moment.astimezone(zone)
            wall = datetime.combine(local.date() + timedelta(days=self.days), local.timetz().replace(tzinfo=None))
            moved = wall.replace(tzinfo=zone, fold=local.fold)
        return (moved + timedelta(seconds=self.seconds)).astimezone(UTC)


@dataclass(frozen=True)
class Weekly:
    """Every week on ``weekday`` (0 = Monday) at ``hour:minute`` on the game's wall clock."""

    weekday: int
    hour: int
    minute: int

    def text(self, lang: str = "en") -> str:
        names = DAY_NAMES_RU if lang == "ru" else DAY_NAMES_EN
        return f"{names[self.weekday]} {self.hour:02d}:{self.minute:02d}"

    def words(self, lang: str = "ru") -> str:
        """«каждое воскресенье в 18:00», «every Sunday at 18:00»."""
        if lang == "ru":
            return f"{EVERY_DAY_RU[self.weekday]} в {self.hour:02d}:{self.minute:02d}"
        return f"{EVERY_DAY_EN[self.weekday]} at {self.hour:02d}:{self.minute:02d}"

    def next_after(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """The first such wall-clock moment strictly after ``moment``. A time the clocks skip
        (spring forward) is read with the offset before the change, as :mod:`zoneinfo` does: 02:30
        on the night the clocks go from 02:00 to 03:00 is 03:30 of the new time."""
        local = moment.astimezone(zone)
        ahead = (self.weekday - local.weekday()) % 7
        day: date = local.date() + timedelta(days=ahead)
        for _ in range(3):
            candidate = datetime.combine(day, time(self.hour, self.minute), tzinfo=zone)
            if candidate.astimezone(UTC) > moment.astimezone(UTC):
                return candidate.astimezone(UTC)
            day += timedelta(days=7)
        raise AssertionError("unreachable: a week later is always after")  # pragma: no cover


@dataclass(frozen=True)
class Schedule:
    """When the steps of one game are due. ``deadline`` is for the step ``deadline_step`` only;
    the other steps follow ``phases`` (by phase), then ``weekly`` or ``period``; a step none of
    them names has no deadline (it resolves when the game master or «everyone has posted» says)."""

    timezone: str = "UTC"
    deadline: datetime | None = None
    deadline_step: int | None = None
    weekly: Weekly | None = None
    period: Period | None = None
    phases: dict[str, Period] = field(default_factory=dict)

    @property
    def zone(self) -> ZoneInfo:
        return zone_of(self.timezone)

    def due(self, step: int, opened: datetime, phase: str | None = None) -> datetime | None:
        """When step ``step``, opened at ``opened`` and awaiting ``phase``, is due (UTC)."""
        if self.deadline is not None and self.deadline_step == step:
            return self.deadline.astimezone(UTC)
        if phase is not None and phase in self.phases:
            return self.phases[phase].after(opened, self.zone)
        if self.weekly is not None:
            return self.weekly.next_after(opened, self.zone)
        if self.period is not None:
            return self.period.after(opened, self.zone)
        return None

    def text(self, lang: str = "ru") -> str:
        """The schedule in words, as the status and the pages say it."""
        ru = lang == "ru"
        parts = []
        if self.weekly is not None:
            parts.append(self.weekly.words(lang))
        if self.period is not None:
            parts.append(f"{self.period.words(lang)} после начала шага" if ru
                          else f"{self.period.words(lang)} after the step opens")
        for phase, period in sorted(self.phases.items()):
            parts.append(f"{phase}: {period.words(lang)} после начала шага" if ru
                         else f"{phase}: {period.words(lang)} after the step opens")
        if self.deadline is not None:
            local = local_text(self.deadline, self.timezone)
            parts.append(f"шаг {self.deadline_step}: до {local}" if ru else f"step {self.deadline_step}: by {local}")
        if not parts:
            return "без срока" if ru else "no deadline"
        return "; ".join(parts) + f" ({self.timezone})"


# -- reading what the game master types -------------------------------------------------------


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise GameError(f"неизвестный часовой пояс «{name}» (например, Europe/Moscow)",
                        f"unknown time zone '{name}' (for example Europe/Moscow)") from exc


def parse_period(text: str, what: str = "--period") -> Period:
    """``48h``, ``2d``, ``90m``, ``1d12h``, ``36ч``: a period of at least a minute, at most a year."""
    match = _PERIOD.match(text or "")
    if not text or not text.strip() or match is None or not any(match.groups()):
        raise GameError(f"{what}: «{text}» — не срок; пишите, например, 48h, 2d, 1d12h или 90m",
                        f"{what}: '{text}' is not a period; write e.g. 48h, 2d, 1d12h or 90m")
    days, hours, minutes = (int(g) if g else 0 for g in match.groups())
    period = Period(days, hours * 3600 + minutes * 60)
    if timedelta(days=period.days, seconds=period.seconds) < timedelta(minutes=1) or \
            timedelta(days=period.days, seconds=period.seconds) > MAX_PERIOD:
        raise GameError(f"{what}: срок от минуты до года, а не «{text}»",
                        f"{what}: a period from a minute to a year, not '{text}'")
    return period


def parse_duration(text: str, what: str = "--by") -> timedelta:
    """A period read as elapsed time (an extension: ``--by 24h``)."""
    period = parse_period(text, what)
    return timedelta(days=period.days, seconds=period.seconds)


def parse_weekly(text: str) -> Weekly:
    """``sun 18:00``, ``Sunday 18:00``, ``вс 18:00``."""
    match = _WEEKLY.match(text or "")
    if match is None or match.group(1).lower() not in WEEKDAYS:
        raise GameError(f"--every: «{text}» — не день недели и время; пишите, например, «sun 18:00» или «вс 18:00»",
                        f"--every: '{text}' is not a weekday and a time; write e.g. 'sun 18:00'")
    hour, minute = int(match.group(2)), int(match.group(3))
    if hour > 23 or minute > 59:
        raise GameError(f"--every: нет времени {hour:02d}:{minute:02d}", f"--every: no time {hour:02d}:{minute:02d}")
    return Weekly(WEEKDAYS[match.group(1).lower()], hour, minute)


def parse_deadline(text: str, timezone: str = "UTC", what: str = "--deadline") -> datetime:
    """An ISO 8601 moment (``2026-12-06T18:00+03:00``); one without an offset is on the game's
    wall clock. ``what`` names the field in an error."""
    try:
        moment = datetime.fromisoformat((text or "").strip().replace(" ", "T", 1))
    except ValueError as exc:
        raise GameError(f"{what}: «{text}» — не дата и время; пишите, например, 2026-12-06T18:00+03:00",
                        f"{what}: '{text}' is not a date and time; write e.g. 2026-12-06T18:00+03:00") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone_of(timezone))
    try:
        return moment.astimezone(UTC)
    except OverflowError as exc:  # the first or the last days of the calendar, moved by their offset
        raise GameError(f"{what}: «{text}» — за пределами календаря", f"{what}: '{text}' is off the calendar") \
            from exc


def parse_phases(items: list[str] | tuple[str, ...]) -> dict[str, Period]:
    """``deployment=24h`` items (``--phase``, repeated)."""
    phases: dict[str, Period] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise GameError(f"--phase: «{item}» — пишите ИМЯ=СРОК, например deployment=24h",
                            f"--phase: '{item}': write NAME=PERIOD, e.g. deployment=24h")
        phases[name.strip()] = parse_period(value.strip(), f"--phase {name.strip()}")
    return phases


def local_text(moment: datetime, timezone: str) -> str:
    """A moment on the game's wall clock: ``2026-12-06 18:00 MSK (+03:00)``."""
    local = moment.astimezone(zone_of(timezone))
    offset = local.strftime("%z")
    offset = f"{offset[:3]}:{offset[3:]}" if offset else ""
    abbreviation = local.tzname() or ""
    named = f" {abbreviation}" if abbreviation and not abbreviation.startswith(("+", "-")) else ""
    return f"{local:%Y-%m-%d %H:%M}{named} ({offset})"


def left_text(due: datetime, now: datetime, lang: str = "ru") -> str:
    """How long until ``due``: «через 1 д 3 ч», «in 1 d 3 h»; «срок прошёл» when it has passed."""
    seconds = int((due - now).total_seconds())
    if seconds <= 0:
        return "срок прошёл" if lang == "ru" else "the deadline has passed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if lang == "ru":
        parts = [f"{days} д"] if days else []
        parts += [f"{hours} ч"] if hours else []
        parts += [f"{minutes} мин"] if not days and minutes else []
        return "через " + (" ".join(parts) or "минуту")
    parts = [f"{days} d"] if days else []
    parts += [f"{hours} h"] if hours else []
    parts += [f"{minutes} min"] if not days and minutes else []
    return "in " + (" ".join(parts) or "a minute")


def aware(moment: datetime) -> datetime:
    """A moment read back from the store: SQLite gives it without its zone, and it is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


__all__ = ["Period", "Schedule", "Weekly", "aware", "left_text", "local_text", "parse_deadline", "parse_duration",
           "parse_period", "parse_phases", "parse_weekly", "zone_of"]
