"""Issue 26, «Notifications» — «delivered by the worker with retries and backoff, each with an
idempotency key; a delivery failing for a day is reported to the game master, never lost
silently»; «e-mail over SMTP (per player, with a digest option instead of one mail per event)»;
the deliverer safe when two run at once (PostgreSQL ``FOR UPDATE SKIP LOCKED``, SQLite's write
lock). Clocks frozen with time-machine; receivers on loopback."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from sqlalchemy import select

from tests.notify.receivers import HttpReceiver, SmtpReceiver
from tests.notify.test_channels import PLAYERS, play_turn, seated
from voevoda.notify.deliver import backoff, deliver_due
from voevoda.notify.transport import NotifySettings
from voevoda.service import Service
from voevoda.store.models import NotifyDeliveryRow

START = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)


def deliveries(service: Service) -> list[NotifyDeliveryRow]:
    with service.store.reads() as session:
        return list(session.scalars(select(NotifyDeliveryRow).order_by(NotifyDeliveryRow.id)))


def test_backoff_doubles_from_thirty_seconds_up_to_an_hour() -> None:
    assert [backoff(n).total_seconds() for n in (1, 2, 3, 4, 8, 20)] == [30, 60, 120, 240, 3600, 3600]


def test_a_failing_receiver_is_tried_again_with_exponential_backoff(
        tmp_path, http: HttpReceiver, settings: NotifySettings) -> None:  # type: ignore[no-untyped-def]
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        service.add_destination(people["gm"], "g", scope="public", kind="discord", address=http.url("/discord"))
        play_turn(service, people)
        http.fail(3)
        tried_at: list[datetime] = []
        for _ in range(20):
            before = len(http.requests)
            deliver_due(service, datetime.now(UTC), settings=settings)
            if len(http.requests) > before:
                tried_at.append(datetime.now(UTC))
            clock.shift(timedelta(seconds=15))
        waits = [(b - a).total_seconds() for a, b in zip(tried_at, tried_at[1:], strict=False)]
        assert waits == [30, 60, 120], "30 s, then 1 min, then 2 min (on a pass every 15 s)"
        row = deliveries(service)[0]
        assert row.status == "delivered" and row.attempts == 3 and row.last_error == ""
        keys = {r.headers["idempotency-key"] for r in http.requests}
        assert len(keys) == 1, "every attempt carries the same idempotency key"


def test_retry_after_of_a_busy_receiver_is_honoured(tmp_path, http: HttpReceiver,  # type: ignore[no-untyped-def]
                                                    settings: NotifySettings) -> None:
    with time_machine.travel(START, tick=False):
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        service.add_destination(people["gm"], "g", scope="public", kind="slack", address=http.url("/slack"))
        play_turn(service, people)
        http.fail(1, 429, retry_after="600")
        deliver_due(service, datetime.now(UTC), settings=settings)
        row = deliveries(service)[0]
        assert row.status == "pending" and "HTTP 429" in row.last_error
        assert row.next_attempt_at.replace(tzinfo=UTC) == START + timedelta(seconds=600)


def test_a_day_of_failures_tells_the_game_master_once_and_nothing_is_lost(
        tmp_path, http: HttpReceiver, settings: NotifySettings) -> None:  # type: ignore[no-untyped-def]
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        gm = people["gm"]
        service.add_destination(gm, "g", scope="public", kind="discord", address="http://127.0.0.1:9/down",
                                label="форум")
        service.add_destination(gm, "g", scope="gm", kind="webhook", address=http.url("/gm"))
        play_turn(service, people)
        deliver_due(service, datetime.now(UTC), settings=settings)
        status = service.delivery_status(gm, "g")
        assert [(f.destination, f.announcement, f.attempts) for f in status.failing] == [("public форум", "resolved", 1)]
        assert "ConnectError" in status.failing[0].last_error
        told: list[datetime] = []
        for _ in range(30):
            clock.shift(timedelta(hours=1))
            before = len(http.requests)
            deliver_due(service, datetime.now(UTC), settings=settings)
            told.extend(datetime.now(UTC) for r in http.requests[before:] if r.json["event"] == "delivery-failing")
        assert len(told) == 1 and timedelta(days=1) <= told[0] - START <= timedelta(days=1, hours=1)
        warning = [r.json for r in http.requests if r.json["event"] == "delivery-failing"][0]
        assert warning["details"]["destination"] == "форум" and "ConnectError" in warning["details"]["error"]
        assert warning["subject"] == "«g»: уведомления не доходят до форум"
        row = [d for d in deliveries(service) if d.destination_id == 1][0]
        assert row.status == "pending" and row.reported_at is not None, "still tried, not dropped"
        clock.shift(timedelta(days=7))
        deliver_due(service, datetime.now(UTC), settings=settings)
        assert service.delivery_status(gm, "g").failing[0].status == "gave-up", "given up after a week, shown"


def test_delivering_twice_sends_once(tmp_path, http: HttpReceiver,  # type: ignore[no-untyped-def]
                                     settings: NotifySettings) -> None:
    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    service.add_destination(people["gm"], "g", scope="public", kind="webhook", address=http.url("/hook"))
    play_turn(service, people)
    first = deliver_due(service, datetime.now(UTC), settings=settings)
    second = deliver_due(service, datetime.now(UTC), settings=settings)
    assert (first.sent, second.fanned_out, second.sent) == (1, 0, 0) and len(http.requests) == 1


@pytest.mark.parametrize("workers", [2])
def test_two_deliverers_at_once_send_each_delivery_once(store_url: str, http: HttpReceiver,
                                                        settings: NotifySettings, workers: int) -> None:
    service = Service(store_url)
    people = seated(service, "toy-guess")
    for player in PLAYERS:
        service.add_destination(people[player], "g", scope="seat", player=player, kind="webhook",
                                address=http.url("/seat"))
    service.add_destination(people["gm"], "g", scope="gm", kind="webhook", address=http.url("/gm"))
    for turn in range(6):
        for player in PLAYERS:
            service.post(people[player], "g", player, f"guess {turn % 6 + 1}")
        service.resolve(people["gm"], "g", step=turn + 1)
    barrier = threading.Barrier(workers)
    problems: list[BaseException] = []

    def run() -> None:
        own = Service(store_url)  # each its own connections, as two processes would have
        try:
            barrier.wait()
            for _ in range(3):
                deliver_due(own, datetime.now(UTC), limit=7, settings=settings)
        except BaseException as exc:  # pragma: no cover - reported below
            problems.append(exc)

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not problems, problems
    deliver_due(service, datetime.now(UTC), settings=settings)
    keys = [r.headers["idempotency-key"] for r in http.requests]
    rows = deliveries(service)
    # 12 posts (each to its seat and the game master) and 6 resolutions (to both seats and the game master)
    assert len(rows) == 12 * 2 + 6 * 3 and all(row.status == "delivered" for row in rows)
    assert sorted(keys) == sorted(row.key for row in rows), "each delivery arrived exactly once"


def test_email_one_mail_per_event_or_a_daily_digest(tmp_path, smtp: SmtpReceiver,  # type: ignore[no-untyped-def]
                                                    settings: NotifySettings) -> None:
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        service.add_destination(people["Анна"], "g", scope="seat", player="Анна", kind="email",
                                address="anna@example.org")
        service.add_destination(people["Борис"], "g", scope="seat", player="Борис", kind="email",
                                address="boris@example.org", mode="digest", digest_hour=7, lang="en")
        play_turn(service, people)
        clock.shift(timedelta(minutes=30))
        play_turn(service, people)
        deliver_due(service, datetime.now(UTC), settings=settings)
        assert len(smtp.to("anna@example.org")) == 4, "her two posts and two resolutions, a mail each"
        assert smtp.to("boris@example.org") == [], "the digest waits for 07:00 UTC"
        clock.shift(timedelta(minutes=80))  # 06:50
        deliver_due(service, datetime.now(UTC), settings=settings)
        assert smtp.to("boris@example.org") == []
        clock.shift(timedelta(minutes=10))  # 07:00
        deliver_due(service, datetime.now(UTC), settings=settings)
        deliver_due(service, datetime.now(UTC), settings=settings)
        digest = smtp.to("boris@example.org")
        assert len(digest) == 1 and digest[0]["Subject"] == "«g»: digest, 4 events"
        body = digest[0].get_content()
        assert body.index("step 1 resolved") < body.index("step 2 resolved")
        own = service.sight(people["Борис"], "g").report(1, "text", "en")
        assert own.splitlines()[0] in body and "report for Анна" not in body and "Анны" not in body
        # the next event waits for the next day's digest
        play_turn(service, people)
        deliver_due(service, datetime.now(UTC), settings=settings)
        assert len(smtp.to("boris@example.org")) == 1
        clock.shift(timedelta(days=1))
        deliver_due(service, datetime.now(UTC), settings=settings)
        assert len(smtp.to("boris@example.org")) == 2


def test_no_smtp_server_is_a_failure_to_retry_not_a_loss(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from voevoda.notify.channels.smtp import SmtpSettings

    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    service.add_destination(people["Анна"], "g", scope="seat", player="Анна", kind="email", address="a@example.org")
    play_turn(service, people)
    report = deliver_due(service, datetime.now(UTC), settings=NotifySettings(smtp=SmtpSettings(host=None)))
    assert report.failed == 2 and "VOEVODA_SMTP_HOST" in report.errors[0]
    assert all(row.status == "pending" for row in deliveries(service))


def test_a_long_message_cut_short_by_a_failure_goes_on_from_the_part_that_failed(
        tmp_path, http: HttpReceiver, settings: NotifySettings) -> None:  # type: ignore[no-untyped-def]
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service, "steel-rose-battle")
        service.add_destination(people["gm"], "g", scope="public", kind="discord", address=http.url("/discord"))
        for _ in range(2):
            play_turn(service, people)
        deliver_due(service, datetime.now(UTC), settings=settings)  # step 1's short chronicle
        http.requests.clear()
        service.rollback(people["gm"], "g", step=2, reason="снова")
        service.resolve(people["gm"], "g", step=2)  # step 2 again, its posts frozen: its chronicle is long
        http.fail(1, after=2)  # the rollback's message, the long chronicle's part 1, then a failure
        deliver_due(service, datetime.now(UTC), settings=settings)
        first = [r.headers["idempotency-key"] for r in http.requests]
        assert len(first) == 3 and first[1].endswith("#1/" + first[1].rsplit("/", 1)[1]) and "#2/" in first[2]
        clock.shift(timedelta(seconds=30))
        deliver_due(service, datetime.now(UTC), settings=settings)
        again = [r.headers["idempotency-key"] for r in http.requests[3:]]
        count = int(first[1].rsplit("/", 1)[1])
        assert again == [f"{first[1].split('#')[0]}#{i}/{count}" for i in range(2, count + 1)], \
            "part 1 is not sent again; part 2 goes again with its own key"


def test_a_deliverer_killed_while_sending_leaves_its_claim_to_lapse(
        tmp_path, http: HttpReceiver, settings: NotifySettings) -> None:  # type: ignore[no-untyped-def]
    from voevoda.notify.deliver import CLAIM, _claim, _fan_out
    from voevoda.notify.deliver import DeliveryReport as Report

    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        service.add_destination(people["gm"], "g", scope="public", kind="webhook", address=http.url("/hook"))
        play_turn(service, people)
        _fan_out(service, START, 10, Report())
        assert len(_claim(service, START, 10, "a deliverer that died")) == 1  # claimed, never sent
        assert deliver_due(service, datetime.now(UTC), settings=settings).sent == 0, "another does not take it"
        clock.shift(CLAIM + timedelta(seconds=1))
        assert deliver_due(service, datetime.now(UTC), settings=settings).sent == 1
        assert len(http.at("/hook")) == 1


def test_the_clocks_announcements_reach_whom_their_audience_names(
        tmp_path, http: HttpReceiver, settings: NotifySettings) -> None:  # type: ignore[no-untyped-def]
    from voevoda.notify import Announcement, announce

    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    paths = {"Анна": "/anna", "Борис": "/boris"}
    for player in PLAYERS:
        service.add_destination(people[player], "g", scope="seat", player=player, kind="webhook",
                                address=http.url(paths[player]))
    service.add_destination(people["gm"], "g", scope="public", kind="webhook", address=http.url("/public"))
    with service.store.sessions.begin() as session:
        game_id = service._game_id(session, "g")
        announce(session, Announcement("clock:g:deadline:1:1h:Анна", "deadline", "seat:Анна", game_id, 1,
                                       {"due": "2026-12-06T15:00+00:00", "due_local": "06.12.2026 18:00 MSK"}))
        announce(session, Announcement("clock:g:paused:1", "paused", "public", game_id, 1,
                                       {"reason": "праздники", "at": "2026-12-06T12:00+00:00"}))
    deliver_due(service, datetime.now(UTC), settings=settings)
    anna = [r.json for r in http.at("/anna")]
    assert [a["event"] for a in anna] == ["deadline", "paused"]
    assert anna[0]["subject"] == "«g»: срок шага 1 — 06.12.2026 18:00 MSK" and "Анна" in anna[0]["text"]
    assert [r.json["event"] for r in http.at("/boris")] == ["paused"], "another seat's reminder is not his"
    assert "праздники" in http.at("/public")[0].json["text"]


def test_a_removed_destination_takes_its_waiting_deliveries_along(store_url: str,
                                                                 settings: NotifySettings) -> None:
    service = Service(store_url)
    people = seated(service)
    made = service.add_destination(people["gm"], "g", scope="public", kind="discord", address="http://127.0.0.1:9/x")
    play_turn(service, people)
    assert deliver_due(service, datetime.now(UTC), settings=settings).failed == 1
    service.remove_destination(people["gm"], "g", made.destination.id)
    assert deliveries(service) == [] and service.delivery_status(people["gm"], "g").failing == []
    assert deliver_due(service, datetime.now(UTC) + timedelta(hours=1), settings=settings).failed == 0
