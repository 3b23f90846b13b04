"""Issue 26, «A normal turn needs nobody»: the deadline worker resolves the step at its deadline and
its pass delivers what the outbox holds — the deadline reminder to the seat that has not posted,
the resolution to the game's public channel and to each seat's own channel with that seat's own
report — with nobody at a terminal. DESIGN.md «The clock» and «The outbox» together."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import time_machine

from tests.notify.receivers import HttpReceiver
from tests.notify.test_channels import PLAYERS, lines_of, seated
from voevoda.clock.worker import deliver_outbox, run_pass
from voevoda.service import Service

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_worker_resolves_at_the_deadline_and_delivers_each_receiver_its_own(
        tmp_path: Path, http: HttpReceiver) -> None:
    first, second = PLAYERS[0], PLAYERS[1]
    with time_machine.travel(START, tick=False) as clock:
        service = Service(f"sqlite:///{tmp_path / 'g.db'}")
        people = seated(service)
        gm = people["gm"]
        service.add_destination(gm, "g", scope="public", kind="discord", address=http.url("/public"))
        for player in (first, second):
            service.add_destination(people[player], "g", scope="seat", player=player, kind="webhook",
                                    address=http.url(f"/seat/{PLAYERS.index(player)}"), secret="s" * 32)
        service.set_schedule(gm, "g", period="48h", timezone="Europe/Moscow")
        played = service.store.load("g")
        service.post(people[first], "g", first, played.bot_post(first))
        run_pass(service, deliver=deliver_outbox)
        assert http.at("/seat/0"), "the post stored is confirmed to its own seat"
        assert not http.at("/seat/1") and not http.at("/public")

        clock.shift(timedelta(hours=47))  # one hour before the deadline
        run_pass(service, deliver=deliver_outbox)
        reminders = [r.json for r in http.at("/seat/1")]
        assert reminders and all(r["event"] == "deadline" for r in reminders)
        assert "15:00" in reminders[-1]["text"], "the deadline as Moscow shows it (12:00 UTC + 48 h)"

        clock.shift(timedelta(hours=1))
        report = run_pass(service, deliver=deliver_outbox)
        assert report.resolved == 1 and getattr(report.delivered, "sent", 0) >= 1
        game = service.store.load("g")
        notice = game.steps[0].notice()
        public = "\n".join(r.json["content"] for r in http.at("/public"))
        assert notice["digest"] in public, "the step's digest goes out with its notification (issue 28)"
        resolved = {player: [r.json for r in http.at(f"/seat/{PLAYERS.index(player)}") if r.json["event"] == "resolved"]
                    for player in (first, second)}
        reports = {player: lines_of(service.sight(people[player], "g").report(1)) for player in (first, second)}
        for player, other in ((first, second), (second, first)):
            assert len(resolved[player]) == 1, "each seat's channel gets the resolution once"
            mine = lines_of(resolved[player][0]["text"])
            own_only = reports[player] - reports[other]
            assert own_only and own_only & mine, f"{player}'s channel carries {player}'s own report"
            assert not (reports[other] - reports[player]) & mine, f"nothing of {other}'s own report reaches {player}"
        # delivered once: another pass sends nothing again
        before = len(http.requests)
        run_pass(service, deliver=deliver_outbox)
        assert len(http.requests) == before
