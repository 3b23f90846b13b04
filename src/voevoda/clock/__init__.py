"""The clock (issue 26; docs/clock.md): when each step of a game is due.

:mod:`voevoda.clock.schedule` computes deadlines from a schedule, purely; the worker
(:mod:`voevoda.clock.worker`) is a front-end of the service like the others: each pass asks the
service for the games that are due and tends each one through it (resolve, remind, stand in for
a missing seat), as the deadline worker's actor (:data:`voevoda.service.actors.CLOCK`).
"""

from voevoda.clock.schedule import (
    Period,
    Schedule,
    Weekly,
    local_text,
    parse_deadline,
    parse_duration,
    parse_period,
    parse_phases,
    parse_weekly,
)

__all__ = ["Period", "Schedule", "Weekly", "local_text", "parse_deadline", "parse_duration", "parse_period",
           "parse_phases", "parse_weekly"]
