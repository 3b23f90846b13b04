"""The clock's operations: schedules, pause and resume, ready marks, vacations, and the deadline
worker's own work (docs/clock.md); mixed into :class:`voevoda.service.Service`.

The game master sets a schedule once (:meth:`Clockwork.set_schedule`); players mark themselves
ready and plan absences; the worker (:mod:`voevoda.clock.worker`) claims the games that are due
(:meth:`Clockwork.claim_due`) and tends each (:meth:`Clockwork.tend`): it resolves a step at its
deadline, or early once everyone awaited has posted (and, where the game asks, is ready), writes
the reminders before a deadline, and applies the game's missed-orders policy. Every resolution
goes through :meth:`Service.resolve` with the worker's actor and the step it means, so a step
resolves once whoever else runs (the engine's «already resolved» guard). The clock's own
announcements (a deadline near, paused, resumed, extended, a seat in civil disorder) are written
into the outbox in the transaction of the change they announce, with keys that stay the same
when a pass is repeated.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from voevoda.clock.schedule import (
    Schedule,
    aware,
    left_text,
    local_text,
    parse_deadline,
    parse_duration,
    parse_period,
    parse_phases,
    parse_weekly,
    zone_of,
)
from voevoda.core import outputs
from voevoda.core.errors import AlreadyDone, GameError, OrdersRejected
from voevoda.core.ruleset import Viewer
from voevoda.notify import GAME_MASTER, Announcement, announce, seat_audience
from voevoda.notify import PUBLIC as EVERYONE
from voevoda.service.access import Op
from voevoda.service.actors import Actor, Clock, Operator
from voevoda.service.errors import Forbidden, NotFound
from voevoda.service.people import People

log = logging.getLogger("voevoda.worker")

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from voevoda.core.engine import Game
    from voevoda.service import GameCache, Resolution, Sight
    from voevoda.store.db import Announcer
    from voevoda.store.models import ScheduleRow

MISSED_POLICIES = ("default", "civil-disorder", "computer")
"""What a seat that missed its deadline gets (docs/clock.md «Missed orders»): the ruleset's default
orders; the same, counted, and after ``disorder_after`` turns in a row the seat is in civil
disorder (its units hold, the game master is told and may invite a replacement); or a computer
opponent posting for it until its player posts again."""
VACATION_POLICIES = ("extend", "skip")
"""What a seat's vacation does at a deadline it is away for: ``extend`` moves the deadline to the
vacation's end; ``skip`` resolves without the seat (default orders), not counted as missed."""
DEFAULT_REMINDERS = (86400, 3600)
"""Seconds before a deadline at which each seat still awaited is reminded: 24 h and 1 h."""
LEASE = timedelta(seconds=120)
"""How long a worker holds a game it claimed: a worker killed mid-pass lets it go when its lease
runs out, and the next pass takes the game up again."""
RETRY = timedelta(minutes=5)
"""How long a worker waits before trying again a step that could not be resolved."""
MAX_VACATION_DAYS = 365


@dataclass(frozen=True)
class SeatClock:
    """One seat as the schedule shows it to a viewer."""

    player: str
    awaited: bool
    posted: bool
    ready: bool
    away: bool
    missed: int
    disorder: bool
    computer: bool
    bot: bool


@dataclass(frozen=True)
class VacationLine:
    id: int
    player: str
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class DeadlineView:
    """A game's schedule and the open step's deadline, for anyone who may see the game. Who is
    awaited and has posted follows the viewer's view, as the game's page shows it."""

    game: str
    step: int
    scheduled: bool
    rule_ru: str
    rule_en: str
    timezone: str
    due_at: datetime | None
    paused: bool
    pause_reason: str
    remaining: timedelta | None
    early: bool
    ready_required: bool
    reminders: tuple[int, ...]
    missed_policy: str
    disorder_after: int
    vacation_days: int
    vacation_policy: str
    seats: list[SeatClock]
    vacations: list[VacationLine]
    now: datetime
    over: bool = False
    period: str = ""
    weekly: str = ""
    phases: dict[str, str] = field(default_factory=dict)

    def local(self, moment: datetime | None = None) -> str:
        chosen = moment or self.due_at
        return local_text(chosen, self.timezone) if chosen is not None else ""

    def left(self, lang: str = "ru") -> str:
        return left_text(self.due_at, self.now, lang) if self.due_at is not None else ""

    def line(self, lang: str = "ru") -> str:
        """One line for the status: the deadline on the game's wall clock and how long is left."""
        ru = lang == "ru"
        if self.over:
            return ""
        if self.paused:
            reason = f": {self.pause_reason}" if self.pause_reason else ""
            return (f"срок: на паузе{reason}" if ru else f"deadline: paused{reason}")
        if self.due_at is None:
            if not self.scheduled:
                return ""
            return "срок: не назначен" if ru else "deadline: none set"
        left = left_text(self.due_at, self.now, lang)
        return (f"срок: {self.local()} — {left}" if ru else f"deadline: {self.local()} — {left}")

    @property
    def ready_players(self) -> list[str]:
        """The seats awaited that have posted and said they are ready."""
        return [s.player for s in self.seats if s.awaited and s.ready and s.posted]

    @property
    def marked_seats(self) -> list[SeatClock]:
        """The seats awaited that are away, in disorder or held by the computer."""
        return [s for s in self.seats if s.awaited and (s.away or s.disorder or s.computer)]

    def vacation_left(self, player: str) -> timedelta:
        """How much of the game's vacation limit ``player``'s seat has not planned yet."""
        taken = sum((v.ends_at - v.starts_at for v in self.vacations if v.player == player), timedelta())
        return max(timedelta(), timedelta(days=self.vacation_days) - taken)

    def vacation_left_days(self, player: str) -> str:
        """:meth:`vacation_left` in days, as the pages and the command line say it (``6``, ``2.5``)."""
        return _days(self.vacation_left(player))

    def status_line(self) -> str:
        """The status's line, in both languages as the command line prints them."""
        ru, en = self.line("ru"), self.line("en")
        return f"{ru} / {en}" if ru else ""


@dataclass
class Tended:
    """What one worker pass did to one game."""

    game: str
    resolved: list[int] = field(default_factory=list)
    reminded: int = 0
    stood_in: list[str] = field(default_factory=list)
    error: str = ""


@dataclass(frozen=True)
class _Plan:
    step: int
    force: bool
    stand_in: tuple[str, ...]


@dataclass
class _Looked:
    """What the look inside a resolution's transaction found: the next plan, whether it let the
    claim go, the reminders it wrote."""

    plan: _Plan | None = None
    released: bool = False
    reminded: int = 0
    seen: int = -1
    """The journal's length the look saw (-1: no look)."""


class Clockwork(People):
    """Schedules and the deadline worker's operations; mixed into :class:`voevoda.service.Service`."""

    cache: GameCache  # provided by the service

    def _game(self, name: str, version: tuple[int, str, int] | None = None) -> Game:  # provided by the service
        raise NotImplementedError

    def writing(self) -> AbstractContextManager[None]:  # provided by the service
        raise NotImplementedError

    def resolve(self, actor: Actor, name: str, *, step: int | None, force: bool = False,
                started: datetime | None = None, then: Announcer | None = None) -> Resolution:  # provided by the service
        raise NotImplementedError

    def _change(self, name: str) -> Any:  # provided by the service
        raise NotImplementedError

    # -- the game master's ------------------------------------------------------------------------

    def set_schedule(self, actor: Actor, game: str, *, deadline: str | None = None, every: str | None = None,
                     timezone: str | None = None, period: str | None = None, phases: Sequence[str] = (),
                     early: bool | None = None, ready_required: bool | None = None,
                     reminders: Sequence[str] | None = None, missed: str | None = None,
                     disorder_after: int | None = None, vacation_days: int | None = None,
                     vacation_policy: str | None = None, clear: bool = False) -> DeadlineView:
        """Set the game's schedule (the rules given replace the rules before: a deadline for the open
        step, a weekly time or a period, periods per phase) and its policies (those given; the rest
        stay). ``timezone`` is the game's time zone, the one its dates are shown in. The open
        step's deadline is counted from now."""
        self.access(actor, game).require(Op.SCHEDULE)
        from voevoda.store.models import GameSettingsRow, ScheduleRow

        if every is not None and period is not None:
            raise GameError("--every и --period вместе не бывают: выберите одно",
                            "--every and --period do not go together: choose one")
        if timezone is not None:
            zone_of(timezone)
        weekly = parse_weekly(every) if every is not None else None
        cycle = parse_period(period) if period is not None else None
        by_phase = parse_phases(list(phases))
        if missed is not None and missed not in MISSED_POLICIES:
            raise GameError(f"--missed: {', '.join(MISSED_POLICIES)}, а не «{missed}»",
                            f"--missed: {', '.join(MISSED_POLICIES)}, not '{missed}'")
        if vacation_policy is not None and vacation_policy not in VACATION_POLICIES:
            raise GameError(f"--vacation-policy: {' или '.join(VACATION_POLICIES)}, а не «{vacation_policy}»",
                            f"--vacation-policy: {' or '.join(VACATION_POLICIES)}, not '{vacation_policy}'")
        if disorder_after is not None and not 1 <= disorder_after <= 100:
            raise GameError("--disorder-after: от 1 до 100 ходов", "--disorder-after: 1 to 100 turns")
        if vacation_days is not None and not 0 <= vacation_days <= MAX_VACATION_DAYS:
            raise GameError("--vacation-days: от 0 до 365", "--vacation-days: 0 to 365")
        before = [int(parse_duration(r, "--remind").total_seconds()) for r in reminders] if reminders is not None \
            else None
        played = self._game(game)
        if missed == "computer" and not _has_computer(played):
            raise GameError(f"у правил «{played.record.ruleset}» нет компьютерного игрока: --missed computer нельзя",
                            f"ruleset '{played.record.ruleset}' has no computer opponent: --missed computer "
                            f"cannot be used")
        now = self.clock().astimezone(UTC)
        rules_given = clear or any(v is not None for v in (deadline, every, period)) or bool(by_phase)
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            settings = session.get(GameSettingsRow, game_id)
            if settings is None:
                settings = GameSettingsRow(game_id=game_id, is_public=False, timezone="UTC")
                session.add(settings)
            if timezone is not None:
                settings.timezone = timezone
            zone = settings.timezone or "UTC"
            row = session.get(ScheduleRow, game_id, with_for_update=True)
            if row is None:
                row = _new_schedule(game_id, played, now)
                session.add(row)
            if rules_given:
                rules = (weekly.text() if weekly else None, cycle.text() if cycle else None,
                         {name: p.text() for name, p in by_phase.items()},
                         parse_deadline(deadline, zone) if deadline is not None else None)
                if rules[3] is not None and rules[3] <= now:
                    raise GameError(f"--deadline: {local_text(rules[3], zone)} уже прошло",
                                    f"--deadline: {local_text(rules[3], zone)} has already passed")
                before_rules = (row.weekly, row.period, dict(row.phases or {}),
                                aware(row.deadline_at) if row.deadline_at is not None else None)
                rules_given = rules != before_rules or timezone is not None
                row.weekly, row.period, row.phases, row.deadline_at = rules
                row.deadline_step = played.step_number + 1 if deadline is not None else None
            for name, value in (("early", early), ("ready_required", ready_required), ("missed_policy", missed),
                                ("disorder_after", disorder_after), ("vacation_days", vacation_days),
                                ("vacation_policy", vacation_policy)):
                if value is not None:
                    setattr(row, name, value)
            if before is not None:
                row.reminders = sorted(set(before), reverse=True)
            if rules_given or row.step != played.step_number + 1:
                row.step = played.step_number + 1
                row.opened_at = now
                row.extended_seconds = 0
            if row.paused_at is None:
                row.due_at = _due(row, played, zone)
            row.wake_at = now
            row.updated_at = now
        return self.deadline(actor, game)

    def clear_schedule(self, actor: Actor, game: str) -> None:
        """No schedule: the worker leaves the game alone (its ready marks and vacations stay)."""
        self.access(actor, game).require(Op.SCHEDULE)
        from voevoda.store.models import ScheduleRow

        with self.store.sessions.begin() as session:
            row = session.get(ScheduleRow, self._game_id(session, game))
            if row is not None:
                session.delete(row)

    def pause(self, actor: Actor, game: str, *, reason: str) -> DeadlineView:
        """Stop the clock of the open step, with a public reason: nothing resolves by the clock
        until :meth:`resume`, which gives the step the time it had left."""
        self.access(actor, game).require(Op.PAUSE)
        reason = _reason(reason, "паузы", "a pause")
        now = self.clock().astimezone(UTC)
        played = self._game(game)
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = self._schedule_row(session, game_id, played, now)
            if row.paused_at is not None:
                raise AlreadyDone("игра уже на паузе", "the game is already paused")
            row.paused_at = now
            row.pause_reason = reason
            row.remaining_seconds = max(0, int((aware(row.due_at) - now).total_seconds())) \
                if row.due_at is not None else None
            row.due_at = None
            row.wake_at = None
            row.updated_at = now
            announce(session, Announcement(f"game{game_id}:paused:{_key_time(now)}", "paused", EVERYONE, game_id,
                                           played.step_number + 1, {"reason": reason, "at": now.isoformat()}), at=now)
        return self.deadline(actor, game)

    def resume(self, actor: Actor, game: str) -> DeadlineView:
        """Start the clock again: the open step gets the time it had left when paused (a step
        resolved meanwhile gets its own full time from now)."""
        self.access(actor, game).require(Op.PAUSE)
        now = self.clock().astimezone(UTC)
        played = self._game(game)
        from voevoda.store.models import GameSettingsRow, ScheduleRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = session.get(ScheduleRow, game_id, with_for_update=True)
            if row is None or row.paused_at is None:
                raise AlreadyDone("игра не на паузе", "the game is not paused")
            settings = session.get(GameSettingsRow, game_id)
            zone = settings.timezone if settings is not None else "UTC"
            if row.step != played.step_number + 1:
                self._roll(session, row, played, now, zone)
            elif row.remaining_seconds is not None:
                row.due_at = now + timedelta(seconds=row.remaining_seconds)
            else:
                row.due_at = _due(row, played, zone)
            row.paused_at = None
            row.remaining_seconds = None
            row.wake_at = now
            row.updated_at = now
            due = aware(row.due_at) if row.due_at is not None else None
            announce(session, Announcement(
                f"game{game_id}:resumed:{_key_time(now)}", "resumed", EVERYONE, game_id, played.step_number + 1,
                {"at": now.isoformat(), "deadline": due.isoformat() if due else None,
                 "deadline_local": local_text(due, zone) if due else None, "timezone": zone}), at=now)
        return self.deadline(actor, game)

    def extend(self, actor: Actor, game: str, *, by: str | timedelta, reason: str) -> DeadlineView:
        """Move the open step's deadline later by ``by`` (``24h``), with a public reason."""
        self.access(actor, game).require(Op.PAUSE)
        reason = _reason(reason, "продления", "an extension")
        more = by if isinstance(by, timedelta) else parse_duration(by, "--by")
        now = self.clock().astimezone(UTC)
        played = self._game(game)
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = self._schedule_row(session, game_id, played, now)
            zone = self._zone(session, game_id)
            if row.paused_at is not None:
                row.remaining_seconds = (row.remaining_seconds or 0) + int(more.total_seconds())
                due = None
            else:
                if row.due_at is None:
                    raise GameError("у шага нет срока: продлевать нечего (назначьте его: voevoda schedule)",
                                    "the step has no deadline: nothing to extend (set one: voevoda schedule)")
                due = aware(row.due_at) + more
                row.due_at = due
            row.extended_seconds += int(more.total_seconds())
            row.wake_at = now
            row.updated_at = now
            announce(session, Announcement(
                f"game{game_id}:extended:{_key_time(now)}", "extended", EVERYONE, game_id, played.step_number + 1,
                {"reason": reason, "by_seconds": int(more.total_seconds()), "at": now.isoformat(),
                 "deadline": due.isoformat() if due else None, "deadline_local": local_text(due, zone) if due else None,
                 "timezone": zone}), at=now)
        return self.deadline(actor, game)

    # -- a seat's ------------------------------------------------------------------------------

    def ready(self, actor: Actor, game: str, player: str, *, ready: bool = True) -> DeadlineView:
        """Mark ``player``'s seat ready for the open step (or not ready again): with «resolve
        early», the step resolves once every seat awaited has posted and, where the game asks,
        is ready."""
        access = self.access(actor, game)
        played = self._game(game)
        seat = played.find_player(player)
        access.require(Op.READY, seat)
        if played.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        if seat not in outputs.awaited_seats(played):
            raise GameError(f"от игрока «{seat}» сейчас ничего не ждут: отмечать готовность не к чему",
                            f"nothing is awaited from '{seat}' now: there is nothing to be ready for")
        from sqlalchemy import delete, select

        from voevoda.store.models import ReadyRow, ScheduleRow

        now = self.clock().astimezone(UTC)
        step = played.step_number + 1
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            held = session.scalar(select(ReadyRow).where(ReadyRow.game_id == game_id, ReadyRow.step == step,
                                                         ReadyRow.player == seat))
            if ready and held is None:
                session.add(ReadyRow(game_id=game_id, step=step, player=seat, at=now))
            elif not ready:
                session.execute(delete(ReadyRow).where(ReadyRow.game_id == game_id, ReadyRow.step == step,
                                                       ReadyRow.player == seat))
            schedule = session.get(ScheduleRow, game_id)
            if schedule is not None:
                schedule.wake_at = now
        return self.deadline(actor, game)

    def vacation(self, actor: Actor, game: str, player: str, *, starts: str | datetime,
                 ends: str | datetime) -> VacationLine:
        """Plan ``player``'s absence from ``starts`` to ``ends`` (dates or moments; a date alone is
        on the game's wall clock, the whole day), within the game's limit of days per seat."""
        access = self.access(actor, game)
        played = self._game(game)
        seat = played.find_player(player)
        access.require(Op.VACATION, seat)
        from sqlalchemy import select

        from voevoda.store.models import ScheduleRow, VacationRow

        now = self.clock().astimezone(UTC)
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            zone = self._zone(session, game_id)
            begin = _moment(starts, zone, "--from", end=False)
            end = _moment(ends, zone, "--to", end=True)
            if end <= begin:
                raise GameError("--to: отпуск кончается после того, как начался", "--to: a vacation ends after it starts")
            if end <= now:
                raise GameError("--to: этот отпуск уже прошёл", "--to: this vacation is already over")
            schedule = session.get(ScheduleRow, game_id)
            limit = schedule.vacation_days if schedule is not None else 14
            taken = sum(((aware(v.ends_at) - aware(v.starts_at)) for v in session.scalars(
                select(VacationRow).where(VacationRow.game_id == game_id, VacationRow.player == seat))), timedelta())
            asked = end - begin
            if taken + asked > timedelta(days=limit):
                left = max(timedelta(), timedelta(days=limit) - taken)
                raise GameError(f"отпуск длиннее, чем осталось: в этой игре {limit} дн. на игрока, у «{seat}» "
                                f"осталось {_days(left)} дн., а просят {_days(asked)}",
                                f"the vacation is longer than what is left: this game allows {limit} days a "
                                f"seat, '{seat}' has {_days(left)} left and asks for {_days(asked)}")
            row = VacationRow(game_id=game_id, player=seat, starts_at=begin, ends_at=end, created_at=now)
            session.add(row)
            if schedule is not None:
                schedule.wake_at = now
            session.flush()
            return VacationLine(row.id, seat, begin, end)

    def cancel_vacation(self, actor: Actor, game: str, vacation_id: int) -> None:
        access = self.access(actor, game)
        from voevoda.store.models import VacationRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = session.get(VacationRow, vacation_id)
            if row is None or row.game_id != game_id:
                raise NotFound(f"нет такого отпуска: {vacation_id}", f"no such vacation: {vacation_id}")
            access.require(Op.VACATION, row.player)
            session.delete(row)

    # -- reading ---------------------------------------------------------------------------------

    def deadline(self, actor: Actor, game: str, viewer: Viewer | str | None = None, *,
                 sight: Sight | None = None) -> DeadlineView:
        """The schedule and the open step's deadline, as ``viewer`` (default: the actor's own
        eyes) may see who is awaited and who has posted. ``sight``, the page's own view of the
        game for the same actor (:meth:`Service.sight`), spares the access read and the game's."""
        from voevoda.core.engine import Game

        memo: dict[Any, Any] | None
        game_id: int | None
        if (sight is not None and sight.access.actor == actor and sight.name == game and sight.game_id is not None
                and isinstance(sight._game, Game)):
            access, played, game_id, zone, memo = sight.access, sight._game, sight.game_id, sight.timezone, sight._memo
        else:
            context = self.context(actor, game)
            access = context.access
            access.require(Op.READ)
            played = self._game(game, context.version)  # the version the access read saw: no further read
            game_id, zone, memo = (context.version[0], context.timezone, None) if context.version else (None, "", None)
        access.require(Op.READ)
        chosen = access.default_viewer(list(played.record.players)) if viewer is None \
            else played.find_player(viewer, viewers=True)
        access.require_viewer(chosen)
        now = self.clock().astimezone(UTC)
        step = played.step_number + 1
        if game_id is None:  # the command line's operator reads no access
            with self.store.reads() as session:
                game_id = self._game_id(session, game)
                zone = self._zone(session, game_id)
        queries = _clock_queries()
        with self.store.read_connection() as connection:  # four plain reads, no ORM objects
            row = connection.execute(queries.schedule, {"game": game_id}).first()
            ready = {player for (player,) in connection.execute(queries.ready, {"game": game_id, "step": step})}
            missed = {m.player: m for m in connection.execute(queries.missed, {"game": game_id})}
            vacations = [VacationLine(v.id, v.player, aware(v.starts_at), aware(v.ends_at))
                         for v in connection.execute(queries.vacations, {"game": game_id})]
        schedule = _schedule(row, zone) if row is not None else Schedule(zone)
        due = None
        if row is not None and row.paused_at is None and played.outcome() is None:
            if row.step == step:
                due = aware(row.due_at) if row.due_at is not None else None
            else:  # resolved since the worker last looked: the deadline it will give the step
                due = schedule.due(step, _opened(played, now), phase_of(played))
        if memo is None:
            memo = self.cache.memo(game, played)  # the page's own dashboard, rendered once a version
        board = memo.get((chosen, "dashboard"))
        if board is None:
            board = memo[(chosen, "dashboard")] = outputs.dashboard(played, chosen)
        away = {v.player for v in vacations if v.starts_at <= now < v.ends_at}
        seats = []
        for line in board.seats:
            mark = missed.get(line.player)
            seats.append(SeatClock(line.player, line.awaited, line.posted, line.player in ready, line.player in away,
                                   mark.missed if mark else 0, bool(mark and mark.disorder),
                                   bool(mark and mark.computer), line.bot))
        return DeadlineView(
            game, step, row is not None, schedule.text("ru"), schedule.text("en"), zone, due,
            bool(row is not None and row.paused_at is not None), row.pause_reason if row is not None else "",
            timedelta(seconds=row.remaining_seconds) if row is not None and row.remaining_seconds is not None else None,
            row.early if row is not None else True, row.ready_required if row is not None else False,
            tuple(row.reminders) if row is not None else DEFAULT_REMINDERS,
            row.missed_policy if row is not None else "default", row.disorder_after if row is not None else 3,
            row.vacation_days if row is not None else 14, row.vacation_policy if row is not None else "extend",
            seats, vacations, now, over=board.over, period=row.period or "" if row is not None else "",
            weekly=row.weekly or "" if row is not None else "", phases=dict(row.phases) if row is not None else {})

    # -- the worker's ----------------------------------------------------------------------------

    def claim_due(self, actor: Actor, now: datetime, worker: str, *, limit: int = 200,
                  lease: timedelta = LEASE) -> list[str]:
        """Claim the games the worker must look at now — a deadline or a reminder has come, or the
        journal grew since the worker last looked (a post, a resolution by the game master) — that
        no other worker holds, and give their names. PostgreSQL: ``SELECT … FOR UPDATE SKIP
        LOCKED`` on the due rows, so two workers never claim the same game; SQLite: the write lock
        of the claiming transaction does the same."""
        if not isinstance(actor, (Clock, Operator)):
            raise Forbidden("это делает только обработчик сроков", "only the deadline worker does this")
        from sqlalchemy import or_, select, update

        from voevoda.store.models import GameRow, ScheduleRow

        now = now.astimezone(UTC)
        query = (select(ScheduleRow.game_id, GameRow.name).join(GameRow, GameRow.id == ScheduleRow.game_id)
                 .where(ScheduleRow.paused_at.is_(None),
                        or_(ScheduleRow.wake_at <= now, ScheduleRow.seen_entries != GameRow.entry_count),
                        or_(ScheduleRow.claimed_until.is_(None), ScheduleRow.claimed_until < now))
                 .order_by(ScheduleRow.wake_at).limit(limit))
        if not self.store.is_sqlite:
            query = query.with_for_update(of=ScheduleRow, skip_locked=True)
        with self.writing(), self.store.sessions.begin() as session:
            rows = session.execute(query).all()
            if rows:
                session.execute(update(ScheduleRow).where(ScheduleRow.game_id.in_([r[0] for r in rows]))
                                .values(claimed_until=now + lease, claimed_by=worker[:64]))
        return [name for _, name in rows]

    def posted_within_schedule(self, session: Session, game_id: int, game: Game, first: int) -> None:
        """Called in a post's own transaction (the store's announcer, after the post's entries):
        when the worker has looked at everything before it, nothing of it is due, and a person the
        step waits for has still not posted, the post cannot let the step resolve early (what a
        journal that grew wakes the worker for, docs/clock.md): the schedule is marked as seen up
        to it, and the worker's next pass does not look at the game for it. Anything else — a
        seat left that the computer or civil disorder holds, a deadline or a reminder come, a
        resolution the worker has not seen — leaves the mark alone and the worker looks."""
        from sqlalchemy import select, update

        from voevoda.store.models import MissedRow, ScheduleRow

        entries = game.record.entries
        if not all(entry.kind == "submit" for entry in entries[first:]):
            return
        row = session.execute(select(ScheduleRow.seen_entries, ScheduleRow.step, ScheduleRow.wake_at,
                                     ScheduleRow.due_at).where(ScheduleRow.game_id == game_id)).first()
        now = self.clock().astimezone(UTC)
        if row is None or row.seen_entries != first or row.step != game.step_number + 1:
            return
        if any(moment is not None and aware(moment) <= now for moment in (row.wake_at, row.due_at)):
            return
        missed = {m.player: m for m in session.scalars(select(MissedRow).where(MissedRow.game_id == game_id))}
        _, _, people = _awaited(game.waiting_for(), missed)
        if people:
            session.execute(update(ScheduleRow).where(ScheduleRow.game_id == game_id,
                                                      ScheduleRow.seen_entries == first)
                            .values(seen_entries=len(entries)))

    def tend(self, actor: Actor, game: str, now: datetime, worker: str = "") -> Tended:
        """Everything the clock owes the game ``game`` at ``now``: bring the schedule to the open
        step, resolve it when due (or early), remind the seats still awaited, then let the claim
        go. A step whose resolution fails is tried again after :data:`RETRY`."""
        self.access(actor, game).require(Op.TEND)
        now = now.astimezone(UTC)
        done = Tended(game)
        seen = -1
        released = False
        try:
            plan: _Plan | None = None
            for _ in range(16):  # a resolution may open a step that is due at once
                if plan is None:
                    played = self._game(game)
                    seen = len(played.record.entries)
                    plan = self._look(played, game, now, done, release=True)
                    if plan is None:
                        released = True  # the look let the claim go in its own transaction
                        break
                looked = self._carry_out(actor, game, plan, now, done)
                if looked is None:
                    break
                if looked.plan is None and looked.released:
                    released = True  # the resolution's transaction looked at the next step and let go
                    break
                plan = looked.plan
                seen = looked.seen if looked.seen >= 0 else seen
        finally:
            if not released:
                self._let_go(game, now, seen)
        return done

    # -- internals ----------------------------------------------------------------------------------

    def _zone(self, session: Session, game_id: int) -> str:
        from voevoda.store.models import GameSettingsRow

        settings = session.get(GameSettingsRow, game_id)
        return settings.timezone if settings is not None and settings.timezone else "UTC"

    def _schedule_row(self, session: Session, game_id: int, played: Game, now: datetime) -> ScheduleRow:
        """The game's schedule, locked; a bare one (no deadline) when it has none yet."""
        from voevoda.store.models import ScheduleRow

        row = session.get(ScheduleRow, game_id, with_for_update=True)
        if row is None:
            row = _new_schedule(game_id, played, now)
            session.add(row)
            session.flush()
        return row

    def _look(self, played: Game, game: str, now: datetime, done: Tended, *, release: bool = False) -> _Plan | None:
        """One look at the game, in one transaction: the plan when the open step must resolve now,
        else ``None`` (the reminders due written, the next wake set, and with ``release`` the
        worker's claim let go, all in that transaction)."""
        from voevoda.store.models import ScheduleRow

        with self.writing(), self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = session.get(ScheduleRow, game_id, with_for_update=True)
            if row is None:
                return None
            plan = self._plan(session, row, game_id, played, now, done)
            if plan is None and release:
                row.claimed_until = None
                row.claimed_by = ""
                row.seen_entries = len(played.record.entries)
            return plan

    def _plan(self, session: Session, row: ScheduleRow, game_id: int, played: Game, now: datetime,
              done: Tended) -> _Plan | None:
        from sqlalchemy import select

        from voevoda.store.models import MissedRow, ReadyRow, VacationRow

        zone = self._zone(session, game_id)
        if row.step != played.step_number + 1:
            self._roll(session, row, played, now, zone)
        if row.paused_at is not None:
            return None
        if played.outcome() is not None or not outputs.awaited_seats(played):
            row.due_at = None
            row.wake_at = None
            return None
        step = row.step
        missed = {m.player: m for m in session.scalars(select(MissedRow).where(MissedRow.game_id == game_id))}
        waiting = played.waiting_for()
        stand_in, holding, people = _awaited(waiting, missed)
        due = aware(row.due_at) if row.due_at is not None else None
        if due is not None and due <= now and people:
            vacations = list(session.scalars(select(VacationRow).where(VacationRow.game_id == game_id,
                                                                       VacationRow.player.in_(people))))
            away = [v for v in vacations if aware(v.starts_at) <= due < aware(v.ends_at)]
            if away and row.vacation_policy == "extend":
                later = max(aware(v.ends_at) for v in away)
                row.due_at = later
                row.extended_seconds += int((later - due).total_seconds())
                row.wake_at = later
                names = ", ".join(sorted({v.player for v in away}))
                announce(session, Announcement(
                    f"game{game_id}:step{step}:vacation:{_key_time(later)}", "extended", EVERYONE, game_id, step,
                    {"reason": f"отпуск: {names} / vacation: {names}", "by_seconds": int((later - due).total_seconds()),
                     "at": now.isoformat(), "deadline": later.isoformat(), "deadline_local": local_text(later, zone),
                     "timezone": zone}), at=now)
                return None
            if away:
                row.excused = sorted({v.player for v in away})
        if due is not None and due <= now:
            if row.missed_policy == "computer":
                stand_in += [p for p in people if p not in row.excused]
            return _Plan(step, bool(waiting), tuple(stand_in))
        awaited_people = [p for p in outputs.awaited_seats(played) if p not in played.record.bots
                          and not (p in missed and (missed[p].computer or missed[p].disorder))]
        ready = set(session.scalars(select(ReadyRow.player).where(ReadyRow.game_id == game_id,
                                                                  ReadyRow.step == step)))
        if row.early and not people and (not row.ready_required or all(p in ready for p in awaited_people)):
            return _Plan(step, bool(holding or stand_in), tuple(stand_in))
        done.reminded += self._remind(session, row, game_id, people, now, zone)
        row.wake_at = _wake(row, now)
        return None

    def _carry_out(self, actor: Actor, game: str, plan: _Plan, now: datetime, done: Tended) -> _Looked | None:
        """Resolve the planned step (the computer's posts first, where it stands in), and in the
        resolution's own transaction look at the step it opens (its schedule rolled on, the
        next plan, the claim let go when nothing more is due): what that look found, or an
        empty look when another resolved the step first; ``None`` when it did not resolve."""
        from voevoda.store.models import ScheduleRow

        looked = _Looked()

        def look(session: Session, game_id: int, played: Game, _first: int) -> None:
            reminded = done.reminded
            try:
                with session.begin_nested():  # the look's fault must never undo the resolution
                    row = session.get(ScheduleRow, game_id, with_for_update=True)
                    if row is None:
                        return
                    looked.plan = self._plan(session, row, game_id, played, now, done)
                    looked.seen = len(played.record.entries)
                    if looked.plan is None:
                        row.claimed_until = None
                        row.claimed_by = ""
                        row.seen_entries = len(played.record.entries)
                        looked.released = True
            except Exception:  # noqa: BLE001 - looked at again on its own after the commit
                log.exception("the look at the game %s after its resolution failed", game)
                looked.plan, looked.released, looked.seen = None, False, -1
                done.reminded = reminded
            looked.reminded = done.reminded - reminded
            done.reminded = reminded  # counted once the transaction is committed

        try:
            if plan.stand_in:
                done.stood_in += self._stand_in(game, plan.stand_in, plan.step)
            self.resolve(actor, game, step=plan.step, force=plan.force, then=look)
            done.resolved.append(plan.step)
            done.reminded += looked.reminded
            return looked
        except AlreadyDone:
            return _Looked()  # another worker or the game master got there first: the step is resolved once
        except (GameError, OrdersRejected) as exc:
            done.error = str(exc)
            with self.writing(), self.store.sessions.begin() as session:
                row = session.get(ScheduleRow, self._game_id(session, game))
                if row is not None:
                    row.last_error = str(exc)[:2000]
                    row.wake_at = now + RETRY
            return None

    def _stand_in(self, game: str, players: Sequence[str], step: int) -> list[str]:
        """The computer opponent's posts for ``players``' seats in step ``step`` (source ``bot``:
        from each seat's own view and sealed stream, checkable by ``voevoda verify``); a seat
        whose post the computer cannot write gets the ruleset's default orders at resolution."""
        from voevoda.service import stamp

        at = stamp(self.clock())
        posted = []
        with self._change(game) as played:
            played.check_step_for_post(step)
            for player in players:
                if player not in played.waiting_for():
                    continue
                try:
                    played.post(player, played.bot_post(player), source="bot", at=at, step=step)
                except (GameError, OrdersRejected):
                    continue
                posted.append(player)
                if played.step_number + 1 != step:
                    break  # an auto-resolving game resolved on the last post
        return posted

    def _roll(self, session: Session, row: ScheduleRow, played: Game, now: datetime, zone: str) -> None:
        """Bring the schedule to the step open now: count the turns each seat missed in the steps
        resolved since (civil disorder told to the game master, the computer taking a seat), and
        give the new step its deadline, counted from its resolution."""
        from sqlalchemy import delete, select

        from voevoda.store.models import MissedRow, ReadyRow

        game_id = row.game_id
        new = played.step_number + 1
        excused = set(row.excused or [])
        missed = {m.player: m for m in session.scalars(select(MissedRow).where(MissedRow.game_id == game_id))}
        for number in range(max(row.step, 1), new):
            resolved = played.steps[number - 1]
            for player, submission in resolved.submissions.items():
                if player in played.record.bots:
                    continue
                mark = missed.get(player)
                if mark is None:
                    mark = missed[player] = MissedRow(game_id=game_id, player=player, missed=0, disorder=False,
                                                      computer=False, counted_step=0)
                    session.add(mark)
                if mark.counted_step >= number:
                    continue
                mark.counted_step = number
                if submission.source in ("player", "gm"):
                    mark.missed, mark.disorder, mark.computer = 0, False, False
                    continue
                if player in excused:
                    continue
                mark.missed += 1
                if row.missed_policy == "computer":
                    mark.computer = True
                if row.missed_policy == "civil-disorder" and mark.missed >= row.disorder_after and not mark.disorder:
                    mark.disorder = True
                    announce(session, Announcement(
                        f"game{game_id}:disorder:{player}:step{number}", "civil-disorder", GAME_MASTER, game_id, number,
                        {"player": player, "missed": mark.missed, "step": number,
                         "hint_ru": f"место можно отдать замене: приглашение на место «{player}» на странице "
                                    f"управления игрой",
                         "hint_en": f"the seat can go to a replacement: an invitation to the seat '{player}' on "
                                    f"the game's manage page"}),
                        at=now)
        session.execute(delete(ReadyRow).where(ReadyRow.game_id == game_id, ReadyRow.step != new))
        row.step = new
        row.opened_at = _opened(played, now) if new > 1 else now
        row.extended_seconds = 0
        row.excused = []
        row.last_error = ""
        row.due_at = _due(row, played, zone)
        row.wake_at = now
        row.updated_at = now

    def _remind(self, session: Session, row: ScheduleRow, game_id: int, waiting: Sequence[str], now: datetime,
                zone: str) -> int:
        """The latest reminder whose time has come for this deadline, to each seat still awaited
        (once: its key names the step, the deadline and how long before it)."""
        if row.due_at is None:
            return 0
        due, opened = aware(row.due_at), aware(row.opened_at)
        come = [r for r in row.reminders if opened < due - timedelta(seconds=r) <= now < due]
        if not come:
            return 0
        before = min(come)
        for player in waiting:
            announce(session, Announcement(
                f"game{game_id}:step{row.step}:due{_key_time(due)}:before{before}:{player}", "deadline",
                seat_audience(player), game_id, row.step,
                {"player": player, "step": row.step, "deadline": due.isoformat(),
                 "deadline_local": local_text(due, zone), "timezone": zone, "before_seconds": before}), at=now)
        return len(waiting)

    def _let_go(self, game: str, now: datetime, seen: int) -> None:
        from voevoda.store.models import ScheduleRow

        with self.writing(), self.store.sessions.begin() as session:
            try:
                game_id = self._game_id(session, game)
            except GameError:
                return
            row = session.get(ScheduleRow, game_id)
            if row is None:
                return
            row.claimed_until = None
            row.claimed_by = ""
            if seen >= 0:
                row.seen_entries = seen
            if row.wake_at is not None and aware(row.wake_at) <= now and not row.last_error:
                row.wake_at = _wake(row, now)


# -- the schedule row and the pure clock ------------------------------------------------------------

def _awaited(waiting: Sequence[str], missed: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The seats a step waits for, split: those the computer stands in for, those in civil
    disorder (held, not waited for), and the people the step waits for."""
    stand_in = [p for p in waiting if p in missed and missed[p].computer]
    holding = [p for p in waiting if p in missed and missed[p].disorder and p not in stand_in]
    people = [p for p in waiting if p not in stand_in and p not in holding]
    return stand_in, holding, people



def _new_schedule(game_id: int, played: Game, now: datetime) -> ScheduleRow:
    from voevoda.store.models import ScheduleRow

    return ScheduleRow(game_id=game_id, weekly=None, period=None, phases={}, deadline_at=None, deadline_step=None,
                       early=True, ready_required=False, reminders=list(DEFAULT_REMINDERS), missed_policy="default",
                       disorder_after=3, vacation_days=14, vacation_policy="extend", step=played.step_number + 1,
                       opened_at=now, due_at=None, extended_seconds=0, excused=[], paused_at=None, pause_reason="",
                       remaining_seconds=None, seen_entries=-1, wake_at=now, claimed_until=None, claimed_by="",
                       last_error="", updated_at=now)


@dataclass(frozen=True)
class _ClockQueries:
    schedule: Any
    ready: Any
    missed: Any
    vacations: Any


_built: _ClockQueries | None = None


def _clock_queries() -> _ClockQueries:
    """The deadline card's reads, built once (SQLAlchemy then reuses their compiled form)."""
    global _built
    if _built is None:
        from sqlalchemy import bindparam, select

        from voevoda.store.models import MissedRow, ReadyRow, ScheduleRow, VacationRow

        _built = _ClockQueries(
            schedule=select(*ScheduleRow.__table__.c).where(ScheduleRow.game_id == bindparam("game")),
            ready=select(ReadyRow.player).where(ReadyRow.game_id == bindparam("game"),
                                                ReadyRow.step == bindparam("step")),
            missed=select(MissedRow.player, MissedRow.missed, MissedRow.disorder, MissedRow.computer)
            .where(MissedRow.game_id == bindparam("game")),
            vacations=select(VacationRow.id, VacationRow.player, VacationRow.starts_at, VacationRow.ends_at)
            .where(VacationRow.game_id == bindparam("game")).order_by(VacationRow.starts_at, VacationRow.id))
    return _built


def _schedule(row: ScheduleRow, zone: str) -> Schedule:
    return Schedule(zone, aware(row.deadline_at) if row.deadline_at is not None else None, row.deadline_step,
                    parse_weekly(row.weekly) if row.weekly else None, parse_period(row.period) if row.period else None,
                    {name: parse_period(value) for name, value in (row.phases or {}).items()})


def phase_of(played: Game) -> str | None:
    """The phase a per-phase period is chosen by (:func:`voevoda.core.outputs.awaited_phase`)."""
    return outputs.awaited_phase(played)


def _due(row: ScheduleRow, played: Game, zone: str) -> datetime | None:
    due = _schedule(row, zone).due(row.step, aware(row.opened_at), phase_of(played))
    return due + timedelta(seconds=row.extended_seconds) if due is not None else None


def _wake(row: ScheduleRow, now: datetime) -> datetime | None:
    """The next moment the worker must look at the game: its deadline, or an earlier reminder."""
    if row.paused_at is not None or row.due_at is None:
        return None
    due, opened = aware(row.due_at), aware(row.opened_at)
    if due <= now:
        return now
    times = [due] + [due - timedelta(seconds=r) for r in row.reminders
                     if now < due - timedelta(seconds=r) and opened < due - timedelta(seconds=r)]
    return min(times)


def _opened(played: Game, now: datetime) -> datetime:
    """When the open step opened: the moment its step before was resolved (the journal's ``at``)."""
    for entry in reversed(played.record.entries):
        if entry.kind in ("resolve", "rollback"):
            if entry.at:
                try:
                    return aware(datetime.fromisoformat(entry.at))
                except ValueError:
                    return now
            return now
    return now


def _has_computer(played: Game) -> bool:
    from voevoda.core.ruleset import Ruleset

    return type(played.ruleset).bot is not Ruleset.bot


def _reason(reason: str, what_ru: str, what_en: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError(f"для {what_ru} нужна причина (--reason): её прочтут все игроки",
                        f"{what_en} needs a reason (--reason): every player reads it")
    if len(reason) > 500:
        raise GameError("причина: не длиннее 500 знаков", "the reason: 500 characters at most")
    return reason


def _moment(value: str | datetime, zone: str, what: str, *, end: bool) -> datetime:
    """A vacation's bound: a moment, or a date (its start, or the end of that day for ``--to``)."""
    if isinstance(value, datetime):
        return aware(value) if value.tzinfo is None else value.astimezone(UTC)
    text = (value or "").strip()
    from datetime import date

    try:
        day = date.fromisoformat(text)
    except ValueError:
        return parse_deadline(text, zone, what).astimezone(UTC) if text else _bad_moment(what, text)
    try:
        start = datetime.combine(day + timedelta(days=1) if end else day, datetime.min.time(), tzinfo=zone_of(zone))
        return start.astimezone(UTC)
    except OverflowError:
        return _bad_moment(what, text)


def _bad_moment(what: str, text: str) -> datetime:
    raise GameError(f"{what}: нужна дата, например 2026-12-20", f"{what}: a date is needed, e.g. 2026-12-20")


def _days(span: timedelta) -> str:
    days = span.total_seconds() / 86400
    return f"{days:.0f}" if abs(days - round(days)) < 0.05 else f"{days:.1f}"


def _key_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%S")


__all__ = ["DEFAULT_REMINDERS", "LEASE", "MISSED_POLICIES", "VACATION_POLICIES", "Clockwork", "DeadlineView",
           "SeatClock", "Tended", "VacationLine", "phase_of"]
