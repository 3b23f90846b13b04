"""Issue 26, «Deadlines and the worker»: the worker resolves a step at its deadline or early when
everyone awaited has posted (and is ready where the game asks), writes the reminders before a
deadline once each, stops for a pause and goes on with the time left, moves a deadline for an
extension and for a vacation, and keeps the schedule in the database (an overdue step resolves
when the worker comes back). The game master's and the players' operations are checked by the
access table: a player can't pause; a player readies only their own seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from tests.clock.conftest import START, outbox, resolutions, seated
from voevoda.clock.worker import run_pass
from voevoda.core.errors import GameError
from voevoda.service import OPERATOR, Service
from voevoda.service.errors import Forbidden


def test_a_step_resolves_at_its_deadline_with_default_orders_for_the_silent(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    frozen.shift(timedelta(hours=47, minutes=59))
    assert run_pass(service).resolved == 0
    frozen.shift(timedelta(minutes=1))
    assert run_pass(service).resolved == 1
    game = service.store.load("g")
    assert game.step_number == 1 and game.steps[0].defaulted == ["Борис"]
    view = service.deadline(people["Анна"], "g")
    assert view.step == 2 and view.due_at == START + timedelta(hours=96)
    assert [s.missed for s in view.seats] == [0, 1]
    assert [r.kind for r in outbox(service, "resolved")] == ["resolved"]


def test_resolve_early_once_everyone_awaited_has_posted(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", every="sun 18:00", timezone="Europe/Moscow")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    assert run_pass(service).resolved == 0
    service.post(people["Борис"], "g", "Борис", "guess 4")
    assert run_pass(service).resolved == 1  # the journal grew: the worker looks without a deadline
    assert service.store.load("g").steps[0].defaulted == []


def test_no_early_waits_for_the_deadline(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="1h", early=False)
    service.post(people["Анна"], "g", "Анна", "guess 3")
    service.post(people["Борис"], "g", "Борис", "guess 4")
    assert run_pass(service).resolved == 0
    frozen.shift(timedelta(hours=1))
    assert run_pass(service).resolved == 1


def test_with_ready_required_early_waits_for_every_ready_mark(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h", ready_required=True)
    service.post(people["Анна"], "g", "Анна", "guess 3")
    service.post(people["Борис"], "g", "Борис", "guess 4")
    service.ready(people["Анна"], "g", "Анна")
    assert run_pass(service).resolved == 0
    view = service.ready(people["Борис"], "g", "Борис")
    assert [s.ready for s in view.seats] == [True, True]
    service.ready(people["Борис"], "g", "Борис", ready=False)
    assert run_pass(service).resolved == 0
    service.ready(people["Борис"], "g", "Борис")
    assert run_pass(service).resolved == 1
    assert [s.ready for s in service.deadline(people["Анна"], "g").seats] == [False, False]  # a new step


def test_a_player_readies_only_their_own_seat_and_cannot_pause(service: Service) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    with pytest.raises(Forbidden, match="cannot act for the player 'Борис'"):
        service.ready(people["Анна"], "g", "Борис")
    for attempt in (lambda: service.pause(people["Анна"], "g", reason="хочу"),
                    lambda: service.extend(people["Анна"], "g", by="24h", reason="хочу"),
                    lambda: service.resume(people["Анна"], "g"),
                    lambda: service.set_schedule(people["Анна"], "g", period="1h")):
        with pytest.raises(Forbidden, match="only the game's game master"):
            attempt()
    with pytest.raises(Forbidden):
        service.vacation(people["Анна"], "g", "Борис", starts="2026-12-10", ends="2026-12-12")
    assert service.deadline(people["Анна"], "g").due_at == START + timedelta(hours=48)


def test_pause_stops_the_clock_and_resume_gives_the_time_left(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    frozen.shift(timedelta(hours=40))
    view = service.pause(people["gm"], "g", reason="праздники")
    assert view.paused and view.due_at is None and view.line("en") == "deadline: paused: праздники"
    frozen.shift(timedelta(days=10))
    assert run_pass(service).resolved == 0
    service.resume(people["gm"], "g")
    with pytest.raises(GameError, match="the game is not paused"):
        service.resume(people["gm"], "g")
    assert service.deadline(people["gm"], "g").due_at is not None
    frozen.shift(timedelta(hours=7, minutes=59))
    assert run_pass(service).resolved == 0
    frozen.shift(timedelta(minutes=1))
    assert run_pass(service).resolved == 1
    paused, resumed = outbox(service, "paused"), outbox(service, "resumed")
    assert paused[0].audience == "public" and paused[0].payload["reason"] == "праздники"
    assert len(resumed) == 1


def test_extend_moves_the_deadline_with_a_public_reason(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    with pytest.raises(GameError, match="needs a reason"):
        service.extend(people["gm"], "g", by="24h", reason=" ")
    view = service.extend(people["gm"], "g", by="24h", reason="сбой форума")
    assert view.due_at == START + timedelta(hours=72)
    frozen.shift(timedelta(hours=48))
    assert run_pass(service).resolved == 0
    frozen.shift(timedelta(hours=24))
    assert run_pass(service).resolved == 1
    (extended,) = outbox(service, "extended")
    assert extended.payload["reason"] == "сбой форума" and extended.payload["by_seconds"] == 86400


def test_reminders_24h_and_1h_before_each_written_once(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    run_pass(service)
    assert outbox(service, "deadline") == []
    frozen.shift(timedelta(hours=24))
    run_pass(service)
    run_pass(service)
    frozen.shift(timedelta(hours=23))
    run_pass(service)
    run_pass(service)
    reminders = outbox(service, "deadline")
    assert [(r.audience, r.payload["before_seconds"]) for r in reminders] == [("seat:Борис", 86400),
                                                                              ("seat:Борис", 3600)]
    assert reminders[0].payload["deadline"] == (START + timedelta(hours=48)).isoformat()


def test_a_vacation_extends_the_deadline_to_its_end(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h", timezone="Europe/Moscow", vacation_days=7)
    with pytest.raises(GameError, match="this game allows 7 days a seat"):
        service.vacation(people["Борис"], "g", "Борис", starts="2026-12-02", ends="2026-12-20")
    service.vacation(people["Борис"], "g", "Борис", starts="2026-12-02", ends="2026-12-04")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    frozen.shift(timedelta(hours=48))
    assert run_pass(service).resolved == 0
    view = service.deadline(people["Анна"], "g")
    assert view.local() == "2026-12-05 00:00 MSK (+03:00)" and [s.away for s in view.seats] == [False, True]
    frozen.shift(timedelta(hours=33))
    assert run_pass(service).resolved == 1


def test_a_vacation_skipped_is_not_a_missed_turn(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h", vacation_policy="skip", missed="civil-disorder",
                         disorder_after=1)
    service.vacation(people["Борис"], "g", "Борис", starts="2026-12-02", ends="2026-12-04")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    frozen.shift(timedelta(hours=48))
    assert run_pass(service).resolved == 1
    view = service.deadline(people["gm"], "g")
    assert [(s.missed, s.disorder) for s in view.seats] == [(0, False), (0, False)]
    assert outbox(service, "civil-disorder") == []


def test_the_schedule_survives_a_restart_and_an_overdue_step_resolves_once(
        store_url: str, frozen: time_machine.Traveller) -> None:
    first = Service(store_url)
    people = seated(first)
    first.set_schedule(people["gm"], "g", period="48h")
    run_pass(first)
    del first  # the worker stops
    frozen.shift(timedelta(days=5))
    again = Service(store_url)
    assert run_pass(again).resolved == 1
    assert run_pass(again).resolved == 0
    assert resolutions(again) == [1]
    assert again.deadline(OPERATOR, "g").due_at == START + timedelta(days=5, hours=48)


def test_a_step_the_game_master_resolved_gets_its_own_deadline(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    frozen.shift(timedelta(hours=2))
    service.resolve(people["gm"], "g", step=1, force=True)
    run_pass(service)
    assert service.deadline(people["gm"], "g").due_at == START + timedelta(hours=50)
    frozen.shift(timedelta(hours=48))
    assert run_pass(service).resolved == 1 and resolutions(service) == [1, 2]


def test_per_phase_periods_in_a_steel_rose_battle(service: Service, frozen: time_machine.Traveller) -> None:
    """The battle awaits a deployment, then a plan: each step gets its phase's period."""
    service.create_game(OPERATOR, "steel-rose-battle", "b", ["Анна", "Борис"], seed="b")
    service.set_schedule(OPERATOR, "b", every="sun 18:00", phases=["deployment=24h", "planning=6h"])
    assert service.deadline(OPERATOR, "b").due_at == START + timedelta(hours=24)
    frozen.shift(timedelta(hours=24))
    assert run_pass(service).resolved == 1
    view = service.deadline(OPERATOR, "b")
    assert view.due_at == START + timedelta(hours=30)


def test_a_pass_calls_the_delivery_with_its_moment(service: Service, frozen: time_machine.Traveller) -> None:
    """The worker's pass ends with the notifications' delivery (wired by whoever runs it)."""
    seated(service)
    calls: list[object] = []
    run_pass(service, deliver=lambda svc, now: calls.append((svc, now)))
    assert calls == [(service, START)]


def test_the_worker_in_a_thread_resolves_a_due_step_and_stops(service: Service,
                                                              frozen: time_machine.Traveller) -> None:
    """What `voevoda serve` runs in its process (unless --no-worker)."""
    import time

    from voevoda.clock.worker import start_in_thread

    people = seated(service)
    service.set_schedule(people["gm"], "g", period="1h")
    frozen.shift(timedelta(hours=1))
    thread, stop = start_in_thread(Service(service.url), poll=0.2)
    try:
        limit = time.monotonic() + 60
        while not resolutions(service) and time.monotonic() < limit:
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(30)
    assert resolutions(service) == [1] and not thread.is_alive()


def test_serve_and_worker_take_their_options() -> None:
    from typer.testing import CliRunner

    from voevoda.cli import app

    runner = CliRunner()
    assert "--no-worker" in runner.invoke(app, ["serve", "--help"]).output
    assert "--once" in runner.invoke(app, ["worker", "--help"]).output


def test_the_app_of_one_server_process_runs_the_worker_on_its_own_service(
        service: Service, frozen: time_machine.Traveller) -> None:
    """docs/clock.md «The worker»: `voevoda serve` with one server process runs the worker in the
    app's lifespan on the app's service (the games its pages hold); it stops with the app."""
    import threading
    import time

    from fastapi.testclient import TestClient

    from voevoda.web.app import WebSettings, create_app

    people = seated(service)
    service.set_schedule(people["gm"], "g", period="1h")
    frozen.shift(timedelta(hours=1))
    served = Service(service.url)
    app = create_app(WebSettings(db=service.url, worker_poll=0.2), service=served)
    with TestClient(app):
        assert any(t.name == "voevoda-worker" and t.is_alive() for t in threading.enumerate())
        limit = time.monotonic() + 60
        while not resolutions(service) and time.monotonic() < limit:
            time.sleep(0.1)
        assert served.cache.get("g") is not None  # the worker read the game into the app's own cache
    assert resolutions(service) == [1]
    limit = time.monotonic() + 30
    while any(t.name == "voevoda-worker" for t in threading.enumerate()) and time.monotonic() < limit:
        time.sleep(0.05)
    assert not any(t.name == "voevoda-worker" for t in threading.enumerate())


def test_serve_runs_the_worker_in_the_app_with_one_process_and_beside_it_with_several(
        monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import uvicorn

    from voevoda.cli import serve as serve_module

    started: list[object] = []
    ran: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: ran.append({"workers": k["workers"],
                                                                    "poll": serve_module.os.environ.get(
                                                                        "VOEVODA_WORKER_POLL")}))
    import voevoda.clock.worker as worker_module

    monkeypatch.setattr(worker_module, "start_in_thread", lambda *a, **k: started.append(a) or (None, None))
    db = f"sqlite:///{tmp_path / 'served.db'}"
    serve_module.serve(db=db, poll=2.0)
    assert ran[-1] == {"workers": 1, "poll": "2.0"} and not started
    serve_module.serve(db=db, poll=2.0, workers=3)
    assert ran[-1] == {"workers": 3, "poll": None} and len(started) == 1
    serve_module.serve(db=db, no_worker=True)
    assert ran[-1] == {"workers": 1, "poll": None} and len(started) == 1


def test_the_workers_writes_wait_in_the_line_of_the_posts(service: Service) -> None:
    """docs/clock.md «The worker»: on SQLite a write of the worker (Service.writing) and a post of
    the same process queue on one lock of the process, not on SQLite's; a post waits for it. On
    PostgreSQL, whose row locks queue the writers of one game by themselves, it holds nothing."""
    import threading

    people = seated(service)
    holding, posted = threading.Event(), threading.Event()
    release = threading.Event()

    def worker_write() -> None:
        with service.writing():
            holding.set()
            release.wait(30)

    def post() -> None:
        service.post(people["Анна"], "g", "Анна", "guess 3")
        posted.set()

    writer = threading.Thread(target=worker_write)
    writer.start()
    assert holding.wait(30)
    poster = threading.Thread(target=post)
    poster.start()
    if service.store.is_sqlite:
        assert not posted.wait(0.5)  # in line behind the worker's write
        release.set()
        assert posted.wait(30)
    else:
        assert posted.wait(30)  # not held back
        release.set()
    writer.join(30)
    poster.join(30)
    with service.writing(), service.writing():  # the same thread may enter twice (a write inside a write)
        pass


def test_a_post_that_cannot_end_the_step_does_not_wake_the_worker(
        service: Service, frozen: time_machine.Traveller) -> None:
    """docs/clock.md «The worker»: a journal that grew wakes the worker so that a step resolves
    early once everyone awaited has posted; a post after which a person is still awaited marks the
    schedule seen in its own transaction, so the next pass claims nothing for it. The post that
    leaves only a seat in civil disorder (not waited for) wakes it, and the step resolves early."""
    from voevoda.store.models import MissedRow

    people = seated(service, players=("Анна", "Борис", "Вера"))
    service.set_schedule(people["gm"], "g", period="48h")
    assert run_pass(service).claimed == 1  # the schedule's first look
    with service.store.sessions.begin() as session:
        game_id = service._game_id(session, "g")
        session.add(MissedRow(game_id=game_id, player="Вера", missed=3, disorder=True, computer=False,
                              counted_step=0))
    frozen.shift(timedelta(minutes=5))
    service.post(people["Анна"], "g", "Анна", "guess 3")
    assert run_pass(service).claimed == 0  # Борис is still awaited: nothing for the worker to do
    service.post(people["Анна"], "g", "Анна", "guess 5")  # a post replaced: the same
    assert run_pass(service).claimed == 0
    service.post(people["Борис"], "g", "Борис", "guess 4")  # only Вера is left, and she is not waited for
    report = run_pass(service)
    assert report.claimed == 1 and report.resolved == 1
    assert resolutions(service) == [1]
    frozen.shift(timedelta(hours=1))
    service.post(people["Анна"], "g", "Анна", "guess 3")  # the next step, after the worker rolled it on
    assert run_pass(service).claimed == 0
