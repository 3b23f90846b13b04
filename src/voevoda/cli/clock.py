"""The clock's commands (docs/clock.md): ``schedule``, ``pause``, ``resume``, ``extend``, ``ready``,
``vacation`` and ``worker``. Each is one call of the service as the command line (the game master
of every game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from voevoda.cli.common import DbOption, print_text, run_guarded

if TYPE_CHECKING:
    from voevoda.service import Service
    from voevoda.service.clock import DeadlineView, VacationLine


def _service(db: str | None) -> Service:
    from voevoda.service import Service

    return Service(db)


def schedule_text(view: DeadlineView) -> str:
    """What ``voevoda schedule`` (and ``pause``, ``resume``, ``extend``) print: the rules, the open
    step's deadline on the game's wall clock, the policies."""
    missed = {"default": ("приказы по умолчанию", "the ruleset's default orders"),
              "civil-disorder": (f"беспорядки после {view.disorder_after} пропусков подряд",
                                 f"civil disorder after {view.disorder_after} missed in a row"),
              "computer": ("за пропустившего пишет компьютер", "the computer posts for a seat that missed")}
    ru, en = missed.get(view.missed_policy, (view.missed_policy, view.missed_policy))
    hours = ", ".join(f"{r // 3600} ч" if r % 3600 == 0 else f"{r // 60} мин" for r in view.reminders) or "—"
    lines = [f"{view.game}: расписание / schedule: {view.rule_ru} / {view.rule_en}"]
    step_line = view.status_line()
    lines.append(f"  шаг / step {view.step}: {step_line}" if step_line else f"  шаг / step {view.step}")
    early = ("да, когда все прислали приказы" + (" и отметили «готов»" if view.ready_required else "")
             if view.early else "нет")
    early_en = ("yes, once everyone awaited has posted" + (" and is ready" if view.ready_required else "")
                if view.early else "no")
    lines.append(f"  досрочно / early: {early} / {early_en}")
    lines.append(f"  напоминания / reminders: {hours}")
    lines.append(f"  пропуск / missed orders: {ru} / {en}")
    lines.append(f"  отпуск / vacations: {view.vacation_days} дн. / days, "
                 f"{'срок ждёт' if view.vacation_policy == 'extend' else 'ход без игрока'} / "
                 f"{'the deadline waits' if view.vacation_policy == 'extend' else 'resolved without the seat'}")
    for vacation in view.vacations:
        lines.append(f"    {vacation.id}. {vacation.player}: {view.local(vacation.starts_at)} — {view.local(vacation.ends_at)}")
    return "\n".join(lines)


def seats_text(view: DeadlineView) -> str:
    marks = []
    for seat in view.seats:
        if not seat.awaited:
            continue
        state = ("готов / ready" if seat.posted else "готов, но приказов ещё нет / ready, nothing posted yet") \
            if seat.ready else "приказы получены / posted" if seat.posted else "ждём / awaited"
        extra = "; без игрока (беспорядки) / civil disorder" if seat.disorder else "; компьютер / computer" if seat.computer else ""
        marks.append(f"  {seat.player}: {state}{extra}")
    return "\n".join(marks)


def schedule(
    name: Annotated[str, typer.Argument(help="game name")],
    deadline: Annotated[str | None, typer.Option("--deadline", help="the open step's deadline, "
                                                                     "e.g. 2026-12-06T18:00+03:00")] = None,
    every: Annotated[str | None, typer.Option("--every", help='every week at, e.g. "sun 18:00"')] = None,
    tz: Annotated[str | None, typer.Option("--tz", help="the game's time zone, e.g. Europe/Moscow")] = None,
    period: Annotated[str | None, typer.Option("--period", help="after the step opens, e.g. 48h or 2d")] = None,
    phase: Annotated[list[str] | None, typer.Option("--phase", help="NAME=PERIOD for steps of one phase, "
                                                                     "e.g. deployment=24h (repeat)")] = None,
    early: Annotated[bool | None, typer.Option("--early/--no-early", help="resolve as soon as everyone awaited "
                                                                          "has posted (default on)")] = None,
    ready_required: Annotated[bool | None, typer.Option("--ready-required/--no-ready-required",
                                                        help="early only once everyone is also marked ready")] = None,
    remind: Annotated[list[str] | None, typer.Option("--remind", help="remind this long before (repeat; "
                                                                      "default 24h and 1h)")] = None,
    missed: Annotated[str | None, typer.Option("--missed", help="default, civil-disorder or computer")] = None,
    disorder_after: Annotated[int | None, typer.Option("--disorder-after", help="missed turns in a row before "
                                                                                "civil disorder (default 3)")] = None,
    vacation_days: Annotated[int | None, typer.Option("--vacation-days", help="days of vacation a seat may take "
                                                                              "(default 14)")] = None,
    vacation_policy: Annotated[str | None, typer.Option("--vacation-policy", help="extend (the deadline waits) "
                                                                                  "or skip")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="no deadline (the policies stay)")] = False,
    off: Annotated[bool, typer.Option("--off", help="remove the schedule: the worker leaves the game alone")] = False,
    db: DbOption = None,
) -> None:
    """Set when the game's steps are due, and what a missed deadline does. / Расписание ходов.

    With no option, prints the schedule."""
    def action() -> DeadlineView | None:
        from voevoda.service import OPERATOR

        service = _service(db)
        if off:
            service.clear_schedule(OPERATOR, name)
            return None
        return service.set_schedule(OPERATOR, name, deadline=deadline, every=every, timezone=tz, period=period,
                                    phases=phase or (), early=early, ready_required=ready_required,
                                    reminders=remind, missed=missed, disorder_after=disorder_after,
                                    vacation_days=vacation_days, vacation_policy=vacation_policy, clear=clear)

    def told(view: DeadlineView | None) -> None:
        print_text(schedule_text(view) if view is not None else f"{name}: расписания нет / no schedule")

    run_guarded(action, told)


def pause(
    name: Annotated[str, typer.Argument(help="game name")],
    reason: Annotated[str, typer.Option("--reason", help="why; every player reads it")],
    db: DbOption = None,
) -> None:
    """Stop the clock of the open step. / Пауза."""
    from voevoda.service import OPERATOR

    run_guarded(lambda: _service(db).pause(OPERATOR, name, reason=reason), lambda v: print_text(schedule_text(v)))


def resume(
    name: Annotated[str, typer.Argument(help="game name")],
    db: DbOption = None,
) -> None:
    """Start the clock again, with the time the step had left. / Снять с паузы."""
    from voevoda.service import OPERATOR

    run_guarded(lambda: _service(db).resume(OPERATOR, name), lambda v: print_text(schedule_text(v)))


def extend(
    name: Annotated[str, typer.Argument(help="game name")],
    by: Annotated[str, typer.Option("--by", help="how much later, e.g. 24h")],
    reason: Annotated[str, typer.Option("--reason", help="why; every player reads it")],
    db: DbOption = None,
) -> None:
    """Move the open step's deadline later. / Продлить срок."""
    from voevoda.service import OPERATOR

    run_guarded(lambda: _service(db).extend(OPERATOR, name, by=by, reason=reason),
                lambda v: print_text(schedule_text(v)))


def ready(
    name: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str, typer.Option("--player", help="whose seat")],
    undo: Annotated[bool, typer.Option("--undo", help="not ready after all")] = False,
    db: DbOption = None,
) -> None:
    """Mark a seat ready for the open step. / Отметить «готов»."""
    from voevoda.service import OPERATOR

    def told(view: DeadlineView) -> None:
        print_text(f"{name}: шаг / step {view.step}\n{seats_text(view)}")

    run_guarded(lambda: _service(db).ready(OPERATOR, name, player, ready=not undo), told)


def vacation(
    name: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str | None, typer.Option("--player", help="whose seat")] = None,
    starts: Annotated[str | None, typer.Option("--from", help="first day (2026-12-20) or a moment")] = None,
    ends: Annotated[str | None, typer.Option("--to", help="last day (2026-12-27) or a moment")] = None,
    cancel: Annotated[bool, typer.Option("--cancel", help="cancel the seat's planned vacation")] = False,
    vacation_id: Annotated[int | None, typer.Option("--id", min=1, help="which vacation to cancel, when the "
                                                                        "seat has several")] = None,
    db: DbOption = None,
) -> None:
    """Plan a seat's absence, within the game's limit; cancel it; with no --from, list them.
    / Отпуск игрока: запланировать, отменить (--cancel), показать."""
    from voevoda.core.errors import GameError
    from voevoda.service import OPERATOR

    opened: list[Service] = []

    def service() -> Service:  # opened inside the guarded action: a bad --db is a message
        if not opened:
            opened.append(_service(db))
        return opened[0]

    def plan() -> VacationLine:
        if starts is None or ends is None or player is None:
            raise GameError("для отпуска нужны --player, --from и --to (или --cancel, чтобы отменить)",
                            "a vacation needs --player, --from and --to (or --cancel to cancel one)")
        return service().vacation(OPERATOR, name, player, starts=starts, ends=ends)

    def planned(line: VacationLine) -> None:
        view = service().deadline(OPERATOR, name, "gm")
        print_text(f"{name}: отпуск / vacation {line.id} {line.player}: {view.local(line.starts_at)} — "
                   f"{view.local(line.ends_at)}\n  осталось / left: {view.vacation_left_days(line.player)} "
                   f"дн. / days")

    def cancelled() -> VacationLine:
        if player is None and vacation_id is None:
            raise GameError("--cancel: чей отпуск? укажите --player (или --id)",
                            "--cancel: whose vacation? give --player (or --id)")
        view = service().deadline(OPERATOR, name, "gm")
        chosen = [v for v in view.vacations if (vacation_id is None or v.id == vacation_id)
                  and (player is None or v.player.casefold() == player.casefold())]
        if not chosen:
            raise GameError(f"--cancel: у «{player or vacation_id}» нет запланированного отпуска",
                            f"--cancel: '{player or vacation_id}' has no vacation planned")
        if len(chosen) > 1:
            ids = ", ".join(f"--id {v.id} ({view.local(v.starts_at)})" for v in chosen)
            raise GameError(f"--cancel: у «{chosen[0].player}» несколько отпусков, выберите один: {ids}",
                            f"--cancel: '{chosen[0].player}' has several vacations, choose one: {ids}")
        service().cancel_vacation(OPERATOR, name, chosen[0].id)
        return chosen[0]

    def told_cancelled(line: VacationLine) -> None:
        view = service().deadline(OPERATOR, name, "gm")
        print_text(f"{name}: отпуск отменён / vacation cancelled {line.id} {line.player}: "
                   f"{view.local(line.starts_at)} — {view.local(line.ends_at)}\n"
                   f"  осталось / left: {view.vacation_left_days(line.player)} дн. / days")

    def listed() -> DeadlineView:
        return service().deadline(OPERATOR, name, "gm")

    def told_list(view: DeadlineView) -> None:
        print_text(vacations_text(view, player))

    if cancel:
        run_guarded(cancelled, told_cancelled)
    elif starts is None and ends is None:
        run_guarded(listed, told_list)
    else:
        run_guarded(plan, planned)


def vacations_text(view: DeadlineView, player: str | None = None) -> str:
    """The planned vacations with their ids, and the days each seat has left."""
    lines = [f"{view.game}: отпуска / vacations (до / up to {view.vacation_days} дн. / days)"]
    chosen = [v for v in view.vacations if player is None or v.player.casefold() == player.casefold()]
    for line in chosen:
        lines.append(f"  {line.id}. {line.player}: {view.local(line.starts_at)} — {view.local(line.ends_at)}")
    if not chosen:
        lines.append("  нет / none")
    for seat in view.seats:
        if not seat.bot and (player is None or seat.player.casefold() == player.casefold()):
            lines.append(f"  {seat.player}: осталось / left {view.vacation_left_days(seat.player)} дн. / days")
    return "\n".join(lines)


def worker(
    once: Annotated[bool, typer.Option("--once", help="one pass, then exit (cron, tests)")] = False,
    poll: Annotated[float, typer.Option("--poll", min=0.2, max=3600, help="seconds between passes")] = 5.0,
    db: DbOption = None,
) -> None:
    """Resolve the steps that are due, remind before deadlines. / Обработчик сроков."""
    def action() -> None:
        from voevoda.clock.worker import deliver_outbox, run, worker_service

        service = worker_service(db)
        service.store  # noqa: B018 - open (and migrate) the store before the first pass
        if not once:
            print_text(f"voevoda worker: каждые / every {poll:g} s (Ctrl+C — остановить / to stop)")
        try:
            run(service, poll=poll, once=once, deliver=deliver_outbox, echo=lambda report: print_text(report.text()))
        except KeyboardInterrupt:
            return

    run_guarded(action)


def register(app: typer.Typer) -> None:
    for command in (schedule, pause, resume, extend, ready, vacation, worker):
        app.command(name=command.__name__)(command)


__all__ = ["register", "schedule_text", "seats_text", "vacations_text"]
