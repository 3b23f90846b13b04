"""The clock's tests (issue 26, «Deadlines and the worker»): frozen clocks by time-machine, every
database by ``store_url``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import time_machine
from sqlalchemy import select

from voevoda.service import ANONYMOUS, Service
from voevoda.service.actors import Person
from voevoda.store.models import OutboxRow

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
"""A Tuesday, 15:00 in Moscow."""


@pytest.fixture()
def frozen() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture()
def service(store_url: str, frozen: time_machine.Traveller) -> Service:
    return Service(store_url)


def seated(service: Service, game: str = "g", players: tuple[str, ...] = ("Анна", "Борис"),
           ruleset: str = "toy-guess", **options: object) -> dict[str, Person]:
    """A game owned by the installation's game master, each seat taken through its invitation."""
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, ruleset, game, list(players), seed=game, **options)  # type: ignore[arg-type]
    people = {"gm": gm}
    for player in players:
        people[player] = service.join(service.invite(gm, game, player, list(players)), ANONYMOUS).person
    return people


def outbox(service: Service, kind: str | None = None) -> list[OutboxRow]:
    with service.store.reads() as session:
        query = select(OutboxRow).order_by(OutboxRow.id)
        if kind is not None:
            query = query.where(OutboxRow.kind == kind)
        return list(session.scalars(query))


def resolutions(service: Service, game: str = "g") -> list[int]:
    """The steps the journal resolved, in order (a step resolved twice shows twice)."""
    return [e.step or 0 for e in service.store.load(game).record.entries if e.kind == "resolve"]
