"""Issue 26, «Measured» (the worker handling 1,000 games, p99 under 5 s): a step due at its
deadline is tended in two write transactions, the look that plans it and the resolution, which
also rolls the schedule on to the next step and lets the worker's claim go (the schedule's next
deadline is in the database the moment the resolution is); a fault of that last look never
undoes the resolution."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from sqlalchemy import event

from tests.clock.conftest import START, resolutions, seated
from voevoda.clock.worker import run_pass
from voevoda.service import CLOCK, Service
from voevoda.service.clock import Clockwork


def _commits(service: Service) -> list[int]:
    counted: list[int] = []
    event.listen(service.store.engine, "commit", lambda _connection: counted.append(1))
    return counted


def test_a_due_step_is_tended_in_two_commits_with_the_next_deadline_and_the_claim_let_go(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    frozen.shift(timedelta(hours=48))
    worker = Service(service.store.url)
    assert worker.claim_due(CLOCK, START + timedelta(hours=48), "w") == ["g"]
    commits = _commits(worker)
    tended = worker.tend(CLOCK, "g", START + timedelta(hours=48), "w")
    assert tended.resolved == [1]
    assert len(commits) == 2
    view = worker.deadline(people["gm"], "g")
    assert view.step == 2 and view.due_at == START + timedelta(hours=96)
    assert worker.claim_due(CLOCK, START + timedelta(hours=48), "w2") == []  # let go, nothing new to see


def test_a_fault_in_the_look_after_the_resolution_keeps_the_resolution(
        service: Service, frozen: time_machine.Traveller, monkeypatch: pytest.MonkeyPatch) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="48h")
    frozen.shift(timedelta(hours=48))
    planned = Clockwork._plan
    calls: list[int] = []

    def plan_once(self: Clockwork, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the look inside the resolution's transaction
            raise RuntimeError("a fault in the schedule's code")
        return planned(self, *args, **kwargs)

    monkeypatch.setattr(Clockwork, "_plan", plan_once)
    assert run_pass(service).resolved == 1
    assert resolutions(service) == [1]
    assert len(calls) == 3  # the look done again on its own, after the commit
    assert service.deadline(people["gm"], "g").due_at == START + timedelta(hours=96)
