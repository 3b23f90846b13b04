"""The deadline worker with 1,000 games on deadlines (issue 26, «Measured»: «a worker handling
1,000 games with deadlines (due-time poll cost, time from deadline to resolution p99 under 5 s)»).

A store holds ``--games`` Ring of Power games of two seats, nobody posting (each step resolves with
the ruleset's default orders at its deadline, the worker's whole path: claim, load, resolve
through the service, the outbox's rows, the next deadline). Measured:

1. **the poll**: one :meth:`Service.claim_due` when nothing is due, with every game scheduled
   (what each idle pass costs), median and 99th percentile of ``--polls`` passes;
2. **spread deadlines**: the games' deadlines spread evenly over ``--spread`` seconds from now, a
   real worker (``voevoda worker``'s loop, ``--poll`` seconds between passes) running on the real
   clock; for each game, the time from its deadline to its resolution's commit (the resolve entry's
   ``at``, stamped just before the commit);
3. **a burst**: ``--burst`` of them due at the same moment (a weekly «sun 18:00» many games share).

Run: ``PYTHONPATH=src python benchmarks/clock_worker.py [--db URL] [--games 1000] [--spread 120]
[--burst 100] [--poll 1]``; without ``--db`` a fresh SQLite file in a temporary folder. With a
PostgreSQL URL, the database must be empty (a fresh one: ``createdb``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

TARGET_P99 = 5.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _store_games(service, count: int) -> list[str]:  # type: ignore[no-untyped-def]
    """``count`` new games, each the same new game under its own name (one insert)."""
    from sqlalchemy import insert

    from voevoda.core.engine import Game
    from voevoda.core.journal import state_hash, stored_json
    from voevoda.store.models import GameRow

    first = Game.create("ring-of-power", "clock-0000", ["Анна", "Борис"], seed="clock")
    header = first.record.model_dump(mode="json", exclude={"entries"})
    state, digest = stored_json(first.state), state_hash(first.state)
    now = datetime.now(UTC)
    names = [f"clock-{i:04d}" for i in range(count)]
    with service.store.sessions.begin() as session:
        session.execute(insert(GameRow), [
            {"name": name, "ruleset": "ring-of-power", "header": {**header, "name": name}, "state": state,
             "state_hash": digest, "step": 0, "entry_count": 0, "created_at": now, "updated_at": now}
            for name in names])
    return names


def _schedule(service, names: list[str], due: list[datetime]) -> None:  # type: ignore[no-untyped-def]
    """Every game on a 48-hour period, its open step due at ``due[i]`` (written as the schedule
    operation would, in one transaction for speed)."""
    from sqlalchemy import select, update

    from voevoda.service import OPERATOR
    from voevoda.store.models import GameRow, ScheduleRow

    service.set_schedule(OPERATOR, names[0], period="48h")
    now = datetime.now(UTC)
    with service.store.sessions.begin() as session:
        ids = dict(session.execute(select(GameRow.name, GameRow.id).where(GameRow.name.in_(names))).all())
        counts = dict(session.execute(select(GameRow.id, GameRow.entry_count)).all())
        for name, moment in zip(names, due, strict=True):
            game_id = ids[name]
            values = {"due_at": moment, "wake_at": moment, "seen_entries": counts[game_id], "updated_at": now,
                      "opened_at": moment - timedelta(hours=48)}
            if name == names[0]:
                session.execute(update(ScheduleRow).where(ScheduleRow.game_id == game_id).values(**values))
                continue
            session.add(ScheduleRow(game_id=game_id, weekly=None, period="48h", phases={}, deadline_at=None,
                                    deadline_step=None, early=True, ready_required=False, reminders=[86400, 3600],
                                    missed_policy="default", disorder_after=3, vacation_days=14,
                                    vacation_policy="extend", step=1, extended_seconds=0, excused=[],
                                    paused_at=None, pause_reason="", remaining_seconds=None, claimed_until=None,
                                    claimed_by="", last_error="", **values))


def _reschedule(service, names: list[str], due: list[datetime]) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import select, update

    from voevoda.store.models import GameRow, ScheduleRow

    with service.store.sessions.begin() as session:
        ids = dict(session.execute(select(GameRow.name, GameRow.id).where(GameRow.name.in_(names))).all())
        for name, moment in zip(names, due, strict=True):
            session.execute(update(ScheduleRow).where(ScheduleRow.game_id == ids[name]).values(
                due_at=moment, wake_at=moment, opened_at=moment - timedelta(hours=48)))


def _lateness(service, names: list[str], due: list[datetime]) -> list[float]:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from voevoda.store.models import EntryRow, GameRow

    late = []
    with service.store.reads() as session:
        rows = session.execute(select(GameRow.name, EntryRow.entry).join(EntryRow, EntryRow.game_id == GameRow.id)
                               .where(GameRow.name.in_(names))).all()
    resolved = {name: entry["at"] for name, entry in rows if entry.get("kind") == "resolve"}
    for name, moment in zip(names, due, strict=True):
        at = resolved.get(name)
        if at is not None:
            late.append((datetime.fromisoformat(at) - moment).total_seconds())
    return late


def _resolved_count(service, names: list[str]) -> int:  # type: ignore[no-untyped-def]
    """How many of the games have resolved a step (one light query: the benchmark's own look
    must not take the worker's time, it runs in the worker's process)."""
    from sqlalchemy import func, select

    from voevoda.store.models import GameRow

    with service.store.reads() as session:
        return int(session.scalar(select(func.count()).select_from(GameRow)
                                  .where(GameRow.name.in_(names), GameRow.step >= 1)) or 0)


def _run_until_resolved(service, names: list[str], due: list[datetime], poll: float,  # type: ignore[no-untyped-def]
                        timeout: float) -> list[float]:
    from voevoda.clock.worker import run

    stop = threading.Event()
    thread = threading.Thread(target=run, kwargs={"service": service, "poll": poll, "stop": stop}, daemon=True)
    thread.start()
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        time.sleep(1.0)
        if datetime.now(UTC) > max(due) and _resolved_count(service, names) == len(names):
            break
    stop.set()
    thread.join(60)
    return _lateness(service, names, due)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=120.0)
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--poll", type=float, default=1.0)
    parser.add_argument("--polls", type=int, default=100)
    args = parser.parse_args()

    from voevoda.clock.worker import worker_name, worker_service
    from voevoda.service import CLOCK, Service

    url = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'clock.db'}"
    service = Service(url)
    started = time.perf_counter()
    names = _store_games(service, args.games)
    far = datetime.now(UTC) + timedelta(days=1)
    _schedule(service, names, [far] * len(names))
    print(f"{args.games} games stored and scheduled in {time.perf_counter() - started:.1f} s ({url.split(':')[0]})")

    name = worker_name()
    costs = []
    for _ in range(args.polls):
        t = time.perf_counter()
        assert service.claim_due(CLOCK, datetime.now(UTC), name) == []
        costs.append((time.perf_counter() - t) * 1000)
    print(f"poll, nothing due, {args.games} scheduled: median {statistics.median(costs):.2f} ms, "
          f"p99 {_percentile(costs, 0.99):.2f} ms")

    burst, spread = names[:args.burst], names[args.burst:]
    begin = datetime.now(UTC) + timedelta(seconds=5)
    step = args.spread / max(1, len(spread))
    due_spread = [begin + timedelta(seconds=i * step) for i in range(len(spread))]
    due_burst = [begin + timedelta(seconds=args.spread / 2)] * len(burst)
    _reschedule(service, spread + burst, due_spread + due_burst)
    worker = worker_service(url)  # `voevoda worker`'s own service
    t = time.perf_counter()
    cpu = time.process_time()
    _run_until_resolved(worker, names, due_spread + due_burst, args.poll, args.spread + 600)
    wall = time.perf_counter() - t
    cpu = time.process_time() - cpu
    for label, group, due in (("spread", spread, due_spread), ("burst", burst, due_burst)):
        late = _lateness(service, group, due)
        if not late:
            continue
        p99 = _percentile(late, 0.99)
        print(f"{label}: {len(late)}/{len(group)} resolved; deadline → resolution: median {statistics.median(late):.2f} s, "
              f"p99 {p99:.2f} s, max {max(late):.2f} s — target p99 < {TARGET_P99:.0f} s "
              f"{'met' if p99 < TARGET_P99 else 'NOT met'}")
    import os

    print(f"the worker ran {wall:.0f} s (poll {args.poll:g} s), {cpu:.1f} s of CPU in this process: "
          f"{cpu / max(1, len(names)) * 1000:.0f} ms a game resolved (the benchmark's light checks included); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
