"""The deadline worker: ``voevoda worker`` and the web server's own (docs/clock.md).

Each pass asks the service for the games due now (:meth:`Service.claim_due`: a deadline or a
reminder has come, or a journal grew since the last look) and tends each one
(:meth:`Service.tend`) as the worker's actor :data:`~voevoda.service.actors.CLOCK`; at its end it
calls ``deliver`` (the notifications' delivery) with the service and the pass's moment. The
schedule lives in the database, so a worker started again after a stop (or a crash) finds a step
that fell due meanwhile and resolves it; a worker killed mid-pass lets its games go when its
lease (:data:`voevoda.service.clock.LEASE`) runs out. However many workers run, a step resolves
once: each claims games no other holds, and each resolution names its step («already resolved»
for the second).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from voevoda.service.actors import CLOCK

if TYPE_CHECKING:
    from voevoda.service import Service
    from voevoda.service.clock import Tended

log = logging.getLogger("voevoda.worker")

DEFAULT_POLL = 5.0
"""Seconds between passes: a step is resolved within this of its deadline (benchmarks/RESULTS.md)."""
CACHE_SIZE = 256
"""Games a worker's service keeps loaded: a game the worker looked at before (a post, the reminder
an hour before) is not replayed from its journal again at its deadline."""

Deliver = Callable[["Service", datetime], object]


def deliver_outbox(service: Service, now: datetime) -> object:
    """The notifications' delivery (:func:`voevoda.notify.deliver.deliver_due`): what ``voevoda
    worker`` and the server's own worker call at the end of each pass."""
    from voevoda.notify.deliver import deliver_due

    return deliver_due(service, now)


def worker_name() -> str:
    """This worker's name in a claim: host, process, and a random part (two workers of one process
    are two names)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass
class PassReport:
    """What one pass did."""

    at: datetime
    claimed: int = 0
    games: list[Tended] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    delivered: object | None = None
    """What the pass's delivery did (a :class:`voevoda.notify.deliver.DeliveryReport`)."""

    @property
    def resolved(self) -> int:
        return sum(len(t.resolved) for t in self.games)

    def text(self) -> str:
        lines = [f"{self.at:%Y-%m-%d %H:%M:%S} UTC: игр к сроку / games due: {self.claimed}, "
                 f"рассчитано шагов / steps resolved: {self.resolved}"]
        for tended in self.games:
            for step in tended.resolved:
                lines.append(f"  {tended.game}: шаг / step {step} рассчитан / resolved")
            if tended.stood_in:
                lines.append(f"  {tended.game}: за игроков пишет компьютер / the computer posts for: "
                             f"{', '.join(tended.stood_in)}")
            if tended.reminded:
                lines.append(f"  {tended.game}: напоминаний / reminders: {tended.reminded}")
            if tended.error:
                lines.append(f"  {tended.game}: не рассчитан / not resolved: {tended.error}")
        sent, failed = getattr(self.delivered, "sent", 0), getattr(self.delivered, "failed", 0)
        if sent or failed:
            lines.append(f"  уведомлений отправлено / notifications sent: {sent}"
                         + (f", не дошло (повтор позже) / failed (retried later): {failed}" if failed else ""))
        lines.extend(f"  {name}: сбой / fault" for name in self.failed)
        return "\n".join(lines)


def run_pass(service: Service, now: datetime | None = None, *, worker: str | None = None,
             deliver: Deliver | None = None, limit: int = 200) -> PassReport:
    """One pass at ``now`` (default: the service's clock): every game due is tended, then
    ``deliver(service, now)`` is called (the outbox's delivery, where one is wired)."""
    moment = now or service.clock()
    name = worker or worker_name()
    report = PassReport(moment)
    claimed = service.claim_due(CLOCK, moment, name, limit=limit)
    report.claimed = len(claimed)
    for game in claimed:
        try:
            report.games.append(service.tend(CLOCK, game, moment, name))
        except Exception:  # noqa: BLE001 - one game's fault must not stop the others
            log.exception("the worker failed on the game %s", game)
            report.failed.append(game)
    if deliver is not None:
        try:
            report.delivered = deliver(service, moment)
        except Exception:  # noqa: BLE001 - a delivery's fault is retried next pass
            log.exception("the delivery failed")
    return report


def run(service: Service, *, poll: float = DEFAULT_POLL, once: bool = False, deliver: Deliver | None = None,
        stop: threading.Event | None = None, echo: Callable[[PassReport], None] | None = None) -> None:
    """Passes every ``poll`` seconds until ``stop`` is set (or one with ``once``)."""
    name = worker_name()
    stop = stop or threading.Event()
    while True:
        started = time.monotonic()
        try:
            report = run_pass(service, worker=name, deliver=deliver)
            if echo is not None and (once or report.claimed):
                echo(report)
        except Exception:  # noqa: BLE001 - a database gone for a moment: the next pass tries again
            log.exception("the worker's pass failed")
            if once:
                raise
        if once or stop.wait(max(0.0, poll - (time.monotonic() - started))):
            return


def start_in_thread(service: Service, *, poll: float = DEFAULT_POLL,
                    deliver: Deliver | None = None) -> tuple[threading.Thread, threading.Event]:
    """A worker in a thread of this process (``voevoda serve``); set the event to stop it."""
    stop = threading.Event()
    thread = threading.Thread(target=run, kwargs={"service": service, "poll": poll, "deliver": deliver,
                                                  "stop": stop}, name="voevoda-worker", daemon=True)
    thread.start()
    return thread, stop


def worker_service(url: str | None) -> Service:
    """The service a worker runs on: the command line's database, more games kept loaded."""
    from voevoda.service import Service

    return Service(url, cache_size=CACHE_SIZE)


__all__ = ["CACHE_SIZE", "DEFAULT_POLL", "worker_service", "Deliver", "PassReport", "run", "run_pass", "start_in_thread", "worker_name"]
