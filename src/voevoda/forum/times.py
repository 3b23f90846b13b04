"""Times as forum pages show them.

A page shows local times: the reader takes the machine-readable value where the engine writes
one (phpBB's and Invision's ``<time datetime>``, XenForo's ``data-timestamp``, a feed's dates),
and otherwise reads the text shown («05.12.2026, 18:04», «Сб дек 05, 2026 6:04 pm», «05 Декабря
2026, 18:04:11», «Сегодня, 18:04», «Yesterday at 09:10 PM») in the time zone the game master
names, since the page itself does not say which zone its text is in.

Numbers separated by dots are day.month.year (the Russian and European habit); by slashes or
dashes, month/day/year as English forums show them, unless the first number cannot be a month.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from email.utils import parsedate_to_datetime

MONTHS: dict[str, int] = {}
for number, names in enumerate((
        ("янв", "jan"), ("фев", "feb"), ("мар", "mar"), ("апр", "apr"), ("мая", "май", "may"),
        ("июн", "jun"), ("июл", "jul"), ("авг", "aug"), ("сен", "sep"), ("окт", "oct"), ("ноя", "nov"),
        ("дек", "dec")), start=1):
    for name in names:
        MONTHS[name] = number

_TIME = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?\s*[Mm]\.?)?(?![\d:])")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?")
_NUMERIC = re.compile(r"(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?!\d)")
_DAY_MONTH = re.compile(r"(?<!\d)(\d{1,2})(?:-?го)?\s+([A-Za-zА-Яа-яЁё]{3,})\.?,?\s+(\d{4})(?!\d)")
_MONTH_DAY = re.compile(r"(?<![A-Za-zА-Яа-яЁё])([A-Za-zА-Яа-яЁё]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)")
_RELATIVE = {"сегодня": 0, "today": 0, "вчера": 1, "yesterday": 1, "позавчера": 2}
_RELATIVE_WORD = re.compile(r"(?<![A-Za-zА-Яа-яЁё])(" + "|".join(_RELATIVE) + r")(?![A-Za-zА-Яа-яЁё])", re.IGNORECASE)


class TimeUnreadable(ValueError):
    """The text holds no date and time this reader knows."""


def _month(word: str) -> int | None:
    return MONTHS.get(word.casefold().replace("ё", "е")[:3])


def from_attribute(value: str) -> datetime:
    """A machine-readable time (ISO 8601, with its offset; none means UTC)."""
    moment = datetime.fromisoformat(value.strip())
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).astimezone(UTC)


def from_timestamp(value: str) -> datetime:
    """A Unix time (XenForo's ``data-timestamp``, Invision's quote data)."""
    return datetime.fromtimestamp(int(value.strip()), UTC)


def from_feed(value: str) -> datetime:
    """A feed's date: RFC 822 (RSS ``pubDate``) or ISO 8601 (Atom)."""
    text = value.strip()
    try:
        return from_attribute(text)
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError) as exc:
        raise TimeUnreadable(text) from exc
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).astimezone(UTC)


def _clock(text: str) -> tuple[int, int, int]:
    found = _TIME.search(text)
    if found is None:
        raise TimeUnreadable(text)
    hour, minute, second = int(found.group(1)), int(found.group(2)), int(found.group(3) or 0)
    half = (found.group(4) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            raise TimeUnreadable(text)
        hour = hour % 12 + (12 if half == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        raise TimeUnreadable(text)
    return hour, minute, second


def _day(text: str, today: date) -> tuple[date, str]:
    """The date in ``text`` and the rest of the text after it (where the clock is)."""
    found = _NUMERIC.search(text)
    if found is not None:
        first, separator, second, third = found.group(1), found.group(2), found.group(3), found.group(4)
        if len(first) == 4:  # 2026-12-05 without a clock after a «T»
            year, month, day = int(first), int(second), int(third)
        else:
            year = int(third) + (2000 if len(third) == 2 else 0)
            a, b = int(first), int(second)
            day, month = (a, b) if separator == "." or a > 12 else (b, a)
        return _checked(year, month, day, text), text[found.end():]
    for pattern, order in ((_DAY_MONTH, "dmy"), (_MONTH_DAY, "mdy")):
        for found in pattern.finditer(text):
            word = found.group(2) if order == "dmy" else found.group(1)
            named = _month(word)
            if named is None:
                continue
            day = int(found.group(1) if order == "dmy" else found.group(2))
            return _checked(int(found.group(3)), named, day, text), text[found.end():]
    relative = _RELATIVE_WORD.search(text)
    if relative is not None:
        return today - timedelta(days=_RELATIVE[relative.group(1).casefold()]), text[relative.end():]
    raise TimeUnreadable(text)


def _checked(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise TimeUnreadable(text) from exc


def from_shown(text: str, zone: tzinfo, today: date | None = None) -> datetime:
    """A time as the page shows it, read in ``zone``; «today» and «yesterday» count from
    ``today`` (the day in ``zone`` when the page is read)."""
    cleaned = " ".join(text.replace("\xa0", " ").split())
    iso = _ISO.search(cleaned)
    if iso is not None:
        moment = datetime.fromisoformat(iso.group(0).replace(" ", "T"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=zone)
        return moment.astimezone(UTC)
    day, rest = _day(cleaned, today or datetime.now(zone).date())
    hour, minute, second = _clock(rest if _TIME.search(rest) else cleaned)
    local = datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=zone)
    return local.astimezone(UTC)


__all__ = ["MONTHS", "TimeUnreadable", "from_attribute", "from_feed", "from_shown", "from_timestamp"]
