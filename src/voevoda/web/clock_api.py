"""The clock's routes of the JSON API (docs/clock.md, docs/web.md): the game's deadline as the
caller may see it; the schedule, pause, resume and extension (game masters); «ready» and
vacations (a seat, or its API token, for its own seat only). Each route calls one operation of
the service; refusals are the API's JSON errors (a game the caller may not know of is «not
found», another seat's button «forbidden», bad input names its field)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import FastAPI, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from voevoda.service.clock import MAX_VACATION_DAYS, DeadlineView, VacationLine
from voevoda.web.api import Svc, ViewerQuery, Who
from voevoda.web.auth import Visitor, check_csrf

Reason = Annotated[str, Field(min_length=1, max_length=500, description="public: every player reads it")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScheduleIn(_In):
    """The whole schedule: what is not given gets its default (as the manage page's form)."""

    deadline: str | None = Field(default=None, max_length=40,
                                 description="the open step's deadline, ISO 8601 (2026-12-06T18:00+03:00); "
                                             "without an offset, on the game's wall clock")
    every: str | None = Field(default=None, max_length=32, description="every week at: «sun 18:00», «вс 18:00»")
    period: str | None = Field(default=None, max_length=32, description="after the step opens: 48h, 2d, 1d12h, 90m")
    phases: dict[str, str] = Field(default_factory=dict, max_length=20,
                                   description="a period per phase: {\"deployment\": \"24h\"}")
    timezone: str | None = Field(default=None, max_length=64, description="the game's time zone, e.g. Europe/Moscow")
    early: bool = Field(default=True, description="resolve as soon as everyone awaited has posted")
    ready_required: bool = Field(default=False, description="early only once everyone is also marked ready")
    reminders: list[str] | None = Field(default=None, max_length=10,
                                        description="remind this long before the deadline (default 24h and 1h)")
    missed: Literal["default", "civil-disorder", "computer"] = "default"
    disorder_after: int = Field(default=3, ge=1, le=100, description="missed turns in a row before civil disorder")
    vacation_days: int = Field(default=14, ge=0, le=MAX_VACATION_DAYS, description="vacation days a seat may take")
    vacation_policy: Literal["extend", "skip"] = "extend"


class PauseIn(_In):
    reason: Reason


class ExtendIn(_In):
    by: str = Field(min_length=1, max_length=32, description="how much later: 24h, 2d")
    reason: Reason


class ReadyIn(_In):
    player: str = Field(min_length=1, max_length=200, description="the seat: the caller's own")
    ready: bool = Field(default=True, description="false: not ready after all")


class VacationIn(_In):
    player: str = Field(min_length=1, max_length=200, description="the seat: the caller's own")
    starts: str = Field(min_length=1, max_length=40,
                        description="the first day (2026-12-20, on the game's wall clock) or a moment")
    ends: str = Field(min_length=1, max_length=40, description="the last day (2026-12-27, the whole day) or a moment")


class SeatOut(BaseModel):
    player: str
    awaited: bool
    posted: bool
    ready: bool
    away: bool
    missed: int = Field(description="turns missed in a row")
    disorder: bool
    computer: bool
    bot: bool


class VacationOut(BaseModel):
    id: int
    player: str
    starts_at: datetime
    ends_at: datetime
    starts_local: str = Field(description="on the game's wall clock")
    ends_local: str


class DeadlineOut(BaseModel):
    game: str
    step: int = Field(description="the open step")
    scheduled: bool
    rule_ru: str = Field(description="the schedule in words: «каждое воскресенье в 18:00 (Europe/Moscow)»")
    rule_en: str
    timezone: str
    due_at: datetime | None
    due_local: str = Field(description="the deadline on the game's wall clock, or empty")
    left_ru: str
    left_en: str
    line_ru: str = Field(description="the status's line: «срок: … — через 2 д»")
    line_en: str
    paused: bool
    pause_reason: str
    remaining_seconds: int | None = Field(description="while paused: the time the step had left")
    early: bool
    ready_required: bool
    reminders: list[int] = Field(description="seconds before the deadline")
    missed_policy: str
    disorder_after: int
    vacation_days: int
    vacation_policy: str
    weekly: str
    period: str
    phases: dict[str, str]
    over: bool
    now: datetime
    seats: list[SeatOut]
    vacations: list[VacationOut]
    vacation_days_left: dict[str, float] = Field(description="per seat: days of vacation not yet planned")


def deadline_out(view: DeadlineView) -> DeadlineOut:
    players = [s.player for s in view.seats if not s.bot]
    return DeadlineOut(
        game=view.game, step=view.step, scheduled=view.scheduled, rule_ru=view.rule_ru, rule_en=view.rule_en,
        timezone=view.timezone, due_at=view.due_at, due_local=view.local(), left_ru=view.left("ru"),
        left_en=view.left("en"), line_ru=view.line("ru"), line_en=view.line("en"), paused=view.paused,
        pause_reason=view.pause_reason,
        remaining_seconds=int(view.remaining.total_seconds()) if view.remaining is not None else None,
        early=view.early, ready_required=view.ready_required, reminders=list(view.reminders),
        missed_policy=view.missed_policy, disorder_after=view.disorder_after, vacation_days=view.vacation_days,
        vacation_policy=view.vacation_policy, weekly=view.weekly, period=view.period, phases=dict(view.phases),
        over=view.over, now=view.now,
        seats=[SeatOut(player=s.player, awaited=s.awaited, posted=s.posted, ready=s.ready, away=s.away,
                       missed=s.missed, disorder=s.disorder, computer=s.computer, bot=s.bot) for s in view.seats],
        vacations=[vacation_out(v, view.timezone) for v in view.vacations],
        vacation_days_left={p: round(view.vacation_left(p).total_seconds() / 86400, 2) for p in players})


def vacation_out(line: VacationLine, zone: str) -> VacationOut:
    from voevoda.clock.schedule import local_text

    return VacationOut(id=line.id, player=line.player, starts_at=line.starts_at, ends_at=line.ends_at,
                       starts_local=local_text(line.starts_at, zone), ends_local=local_text(line.ends_at, zone))


def install(api: FastAPI) -> None:
    """Add the clock's routes to ``api``."""

    def changing(request: Request, visitor_: Visitor) -> None:
        check_csrf(request, visitor_, None)

    @api.get("/games/{game}/deadline", summary="the schedule and the open step's deadline, as the viewer sees it")
    def deadline(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> DeadlineOut:
        return deadline_out(service.deadline(visitor_.actor, game, viewer))

    @api.put("/games/{game}/schedule", summary="set the whole schedule and its policies (game masters)")
    def set_schedule(request: Request, game: str, body: ScheduleIn, service: Svc,
                     visitor_: Who) -> DeadlineOut:
        changing(request, visitor_)
        view = service.set_schedule(
            visitor_.actor, game, deadline=body.deadline, every=body.every, timezone=body.timezone,
            period=body.period, phases=[f"{name}={value}" for name, value in body.phases.items()], early=body.early,
            ready_required=body.ready_required, reminders=body.reminders, missed=body.missed,
            disorder_after=body.disorder_after, vacation_days=body.vacation_days,
            vacation_policy=body.vacation_policy, clear=True)
        return deadline_out(view)

    @api.delete("/games/{game}/schedule", summary="remove the schedule: the worker leaves the game alone (game masters)")
    def clear_schedule(request: Request, game: str, service: Svc, visitor_: Who) -> dict[str, bool]:
        changing(request, visitor_)
        service.clear_schedule(visitor_.actor, game)
        return {"scheduled": False}

    @api.post("/games/{game}/pause", summary="stop the clock of the open step, with a public reason (game masters)")
    def pause(request: Request, game: str, body: PauseIn, service: Svc, visitor_: Who) -> DeadlineOut:
        changing(request, visitor_)
        return deadline_out(service.pause(visitor_.actor, game, reason=body.reason))

    @api.post("/games/{game}/resume", summary="start the clock again with the time left (game masters)")
    def resume(request: Request, game: str, service: Svc, visitor_: Who) -> DeadlineOut:
        changing(request, visitor_)
        return deadline_out(service.resume(visitor_.actor, game))

    @api.post("/games/{game}/extend", summary="move the open step's deadline later, with a public reason "
                                              "(game masters)")
    def extend(request: Request, game: str, body: ExtendIn, service: Svc, visitor_: Who) -> DeadlineOut:
        changing(request, visitor_)
        return deadline_out(service.extend(visitor_.actor, game, by=body.by, reason=body.reason))

    @api.post("/games/{game}/ready", summary="mark the caller's own seat ready for the open step (or not)")
    def ready(request: Request, game: str, body: ReadyIn, service: Svc, visitor_: Who) -> DeadlineOut:
        changing(request, visitor_)
        return deadline_out(service.ready(visitor_.actor, game, body.player, ready=body.ready))

    @api.post("/games/{game}/vacations", status_code=201, summary="plan the caller's own seat's absence, "
                                                                  "within the game's limit")
    def vacation(request: Request, game: str, body: VacationIn, service: Svc, visitor_: Who) -> VacationOut:
        changing(request, visitor_)
        line = service.vacation(visitor_.actor, game, body.player, starts=body.starts, ends=body.ends)
        return vacation_out(line, service.settings(game)[1])

    @api.delete("/games/{game}/vacations/{vacation_id}", status_code=204,
                summary="cancel a planned vacation (its own seat, or the game master)")
    def cancel_vacation(request: Request, game: str, vacation_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)],
                        service: Svc, visitor_: Who) -> Response:
        changing(request, visitor_)
        service.cancel_vacation(visitor_.actor, game, vacation_id)
        return Response(status_code=204)


__all__ = ["DeadlineOut", "ScheduleIn", "VacationOut", "deadline_out", "install"]
