"""The clock's forms (docs/clock.md): a seat's «Готов» / «Ready» and its own vacations (planned
from and to a day in the game's time zone, cancelled, the days left shown), and the game master's
schedule, pause, resume and extension, and every seat's vacations, on the manage page. Each handler calls one operation of the service
with the visitor's actor; the deadline shown on the game, orders and manage pages comes from
:meth:`Service.deadline` as the viewer may see it."""

from __future__ import annotations

from datetime import time, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Form
from fastapi import Path as PathParam
from fastapi.responses import Response

from voevoda.core.ruleset import GM, PUBLIC
from voevoda.service import Sight
from voevoda.service.clock import DeadlineView, VacationLine
from voevoda.web.auth import check_csrf
from voevoda.web.i18n import moment
from voevoda.web.pages import Ctx, _manage, _redirect, service_of
from voevoda.web.render import Here

router = APIRouter()


def clock_context(h: Here, sight: Sight, template: str) -> dict[str, Any]:
    """The deadline card's context: the schedule as the page's viewer sees it, and the seat whose
    «Ready» button the page shows (the viewer's own seat, while it is awaited)."""
    service = service_of(h)
    viewer = GM if template == "manage.html.j2" else sight.viewer
    clock = service.deadline(h.who.actor, sight.name, viewer, sight=sight)
    seat = sight.viewer if sight.viewer not in (GM, PUBLIC) else None
    mine = [s for s in clock.seats if s.player == seat and s.awaited]
    return {"clock": clock, "ready_seat": seat if mine and not clock.over else None,
            "vacation_seat": seat if seat is not None and not clock.over else None,
            "vacations": [vacation_row(line, clock, h.lang) for line in clock.vacations],
            "back": "orders" if template == "orders.html.j2" else "game"}


def vacation_row(line: VacationLine, clock: DeadlineView, lang: str) -> dict[str, Any]:
    """A vacation as the pages say it: whole days on the game's wall clock («10.12.2026 —
    12.12.2026», the last day included) where it was planned by days, else its two moments."""
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(clock.timezone)
    starts, ends = line.starts_at.astimezone(zone), line.ends_at.astimezone(zone)
    if starts.time() == time() and ends.time() == time():
        last = (ends - timedelta(days=1)).date()
        shown = "%d.%m.%Y" if lang == "ru" else "%Y-%m-%d"
        span = f"{starts:{shown}} — {last:{shown}}" if last != starts.date() else f"{starts:{shown}}"
    else:
        span = f"{moment(line.starts_at, clock.timezone, lang)} — {moment(line.ends_at, clock.timezone, lang)}"
    return {"id": line.id, "player": line.player, "span": span, "now": line.starts_at <= clock.now < line.ends_at,
            "past": line.ends_at <= clock.now}


def _back(h: Ctx, game: str, player: str, back: str, anchor: str) -> Response:
    path = {"orders": f"/g/{game}/orders", "manage": f"/g/{game}/manage"}.get(back, f"/g/{game}")
    query = {} if back == "manage" else {"as": player}
    return _redirect(h, h.url(path, **query) + anchor)


@router.post("/g/{game}/ready")
def ready(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)], ready: Annotated[str, Form()] = "1",
          back: Annotated[str, Form(max_length=10)] = "game", csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).ready(h.who.actor, game, player, ready=ready != "0")
    path = f"/g/{game}/orders" if back == "orders" else f"/g/{game}"
    return _redirect(h, h.url(path, **{"as": player}) + "#deadline")


@router.post("/g/{game}/vacation")
def vacation(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
             starts: Annotated[str, Form(max_length=40)] = "", ends: Annotated[str, Form(max_length=40)] = "",
             back: Annotated[str, Form(max_length=10)] = "game", csrf: Annotated[str, Form()] = "") -> Response:
    """A seat plans its own absence: from and to a day, the game's wall clock, the last day whole."""
    check_csrf(h.request, h.who, csrf)
    service_of(h).vacation(h.who.actor, game, player, starts=starts, ends=ends)
    return _back(h, game, player, back, "#vacation")


@router.post("/g/{game}/vacation/{vacation_id}/cancel")
def cancel_vacation(h: Ctx, game: str, vacation_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)], player: Annotated[str, Form(max_length=200)] = "",
                    back: Annotated[str, Form(max_length=10)] = "game",
                    csrf: Annotated[str, Form()] = "") -> Response:
    """A seat cancels its own planned vacation (the game master, any seat's, from the manage page)."""
    check_csrf(h.request, h.who, csrf)
    service_of(h).cancel_vacation(h.who.actor, game, vacation_id)
    return _back(h, game, player, back, "#vacation" if back != "manage" else "#vacations")


@router.post("/g/{game}/manage/schedule", response_class=Response)
def manage_schedule(h: Ctx, game: str, deadline: Annotated[str, Form(max_length=40)] = "",
                    every: Annotated[str, Form(max_length=32)] = "", period: Annotated[str, Form(max_length=32)] = "",
                    phases: Annotated[str, Form(max_length=500)] = "", early: Annotated[str, Form()] = "",
                    ready_required: Annotated[str, Form()] = "", missed: Annotated[str, Form(max_length=20)] = "default",
                    disorder_after: Annotated[int, Form(ge=1, le=100)] = 3,
                    vacation_days: Annotated[int, Form(ge=0, le=365)] = 14,
                    vacation_policy: Annotated[str, Form(max_length=10)] = "extend",
                    csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    view = service_of(h).set_schedule(
        h.who.actor, game, deadline=deadline.strip() or None, every=every.strip() or None,
        period=period.strip() or None, phases=[p.strip() for p in phases.split(",") if p.strip()],
        early=bool(early), ready_required=bool(ready_required), missed=missed, disorder_after=disorder_after,
        vacation_days=vacation_days, vacation_policy=vacation_policy, clear=True)
    return _manage(h, game, message=f"{h.t('schedule')}: {h.both(view.rule_ru, view.rule_en)}")


@router.post("/g/{game}/manage/pause", response_class=Response)
def manage_pause(h: Ctx, game: str, reason: Annotated[str, Form(max_length=500)] = "",
                 csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    view = service_of(h).pause(h.who.actor, game, reason=reason)
    return _manage(h, game, message=view.line(h.lang))


@router.post("/g/{game}/manage/resume", response_class=Response)
def manage_resume(h: Ctx, game: str, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    view = service_of(h).resume(h.who.actor, game)
    return _manage(h, game, message=view.line(h.lang))


@router.post("/g/{game}/manage/extend", response_class=Response)
def manage_extend(h: Ctx, game: str, by: Annotated[str, Form(max_length=32)] = "",
                  reason: Annotated[str, Form(max_length=500)] = "", csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    view = service_of(h).extend(h.who.actor, game, by=by, reason=reason)
    return _manage(h, game, message=view.line(h.lang))


__all__ = ["clock_context", "router"]
