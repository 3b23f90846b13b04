"""Issue 26, «Deadlines and the worker»: «a step resolves at most once whoever else runs
(PostgreSQL: SELECT … FOR UPDATE SKIP LOCKED on due rows; SQLite: the write lock), survives
restarts … and uses the engine's «already resolved» guard. Test … two workers racing, a worker
killed mid-resolution.»"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import time_machine

from tests.clock.conftest import START, resolutions, seated
from voevoda.clock.worker import run_pass
from voevoda.core.journal import state_hash
from voevoda.service import CLOCK, OPERATOR, Service
from voevoda.service.clock import LEASE

ROOT = Path(__file__).resolve().parents[2]


def _race(*actions: object) -> list[object]:
    barrier = threading.Barrier(len(actions))
    results: list[object] = [None] * len(actions)

    def run(i: int, action: object) -> None:
        barrier.wait()
        try:
            results[i] = action()  # type: ignore[operator]
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def test_two_workers_racing_resolve_a_step_once(store_url: str, frozen: time_machine.Traveller) -> None:
    setup = Service(store_url)
    people = seated(setup)
    setup.set_schedule(people["gm"], "g", period="24h")
    for game in ("h", "i"):
        setup.create_game(OPERATOR, "toy-guess", game, ["Анна", "Борис"], seed=game)
        setup.set_schedule(OPERATOR, game, period="24h")
    frozen.shift(timedelta(hours=24))
    workers = [Service(store_url), Service(store_url)]
    reports = _race(*(lambda w=w, i=i: run_pass(w, worker=f"w{i}") for i, w in enumerate(workers)))
    assert not any(isinstance(r, BaseException) for r in reports), reports
    assert sum(r.resolved for r in reports) == 3  # type: ignore[attr-defined]
    for game in ("g", "h", "i"):
        assert resolutions(setup, game) == [1]


def test_two_workers_tending_one_game_at_once_resolve_it_once(store_url: str,
                                                              frozen: time_machine.Traveller) -> None:
    """Past the claim (a lease run out while the first still works): the engine's guard."""
    setup = Service(store_url)
    seated(setup)
    setup.set_schedule(OPERATOR, "g", period="24h")
    frozen.shift(timedelta(hours=24))
    workers = [Service(store_url), Service(store_url)]
    results = _race(*(lambda w=w: w.tend(CLOCK, "g", START + timedelta(hours=24)) for w in workers))
    assert not any(isinstance(r, BaseException) for r in results), results
    assert resolutions(setup) == [1]
    assert sorted(len(r.resolved) for r in results) in ([0, 1], [1, 1])  # type: ignore[attr-defined]


CHILD = """
import pathlib, sys, time
from datetime import datetime
import time_machine
from tests.core.toy import Guess, Twenty
from voevoda.core import registry
registry.register(Twenty)
registry.register(Guess)
original = Guess.resolve
def slow(self, state, orders, dice):
    pathlib.Path(sys.argv[2]).write_text("resolving")
    time.sleep(120)
    return original(self, state, orders, dice)
Guess.resolve = slow
from voevoda.clock.worker import run_pass
from voevoda.service import Service
with time_machine.travel(datetime.fromisoformat(sys.argv[3]), tick=False):
    run_pass(Service(sys.argv[1]))
"""


def test_a_worker_killed_mid_resolution_leaves_the_step_to_the_next_pass(
        store_url: str, tmp_path: Path, frozen: time_machine.Traveller) -> None:
    service = Service(store_url)
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="24h")
    service.post(people["Анна"], "g", "Анна", "guess 3")
    before = service.store.stored_state("g")
    marker = tmp_path / "resolving"
    due = START + timedelta(hours=24)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, store_url, str(marker), due.isoformat()], cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    limit = time.time() + 90
    while not marker.exists():
        assert child.poll() is None, child.communicate()
        assert time.time() < limit, "the worker never started resolving"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert service.store.stored_state("g") == before and resolutions(service) == []
    frozen.move_to(due)
    assert run_pass(service).resolved == 0  # its claim stands until the lease runs out
    frozen.move_to(due + LEASE + timedelta(seconds=1))
    assert run_pass(service).resolved == 1
    assert run_pass(service).resolved == 0
    assert resolutions(service) == [1]
    fresh = Service(store_url)  # the journal replays to the state stored
    replayed = fresh.store.load("g")
    assert state_hash(replayed.state) == fresh.store.stored_state("g")[1]
    assert replayed.steps[0].defaulted == ["Борис"]
