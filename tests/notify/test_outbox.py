"""Issue 26, «Notifications»: «An outbox written in the same transaction as the change it
announces»; DESIGN.md «The outbox»: nothing announced is lost, nothing is announced that did not
happen. The journal entries a service change appends become outbox rows, each once, with only
what their audience may see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from voevoda.core.errors import GameError
from voevoda.notify import Announcement, announce
from voevoda.service import ANONYMOUS, Service
from voevoda.service.actors import Person
from voevoda.store.models import OutboxRow


@pytest.fixture()
def service(store_url: str) -> Iterator[Service]:
    yield Service(store_url)


def seated(service: Service) -> dict[str, Person]:
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", "g", ["Анна", "Борис"], seed="g")
    people = {"gm": gm}
    for player in ("Анна", "Борис"):
        people[player] = service.join(service.invite(gm, "g", player, ["Анна", "Борис"]), ANONYMOUS).person
    return people


def rows(service: Service) -> list[OutboxRow]:
    with service.store.sessions() as session:
        return list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))


def test_each_stored_change_writes_its_announcement_once(service: Service) -> None:
    people = seated(service)
    service.post(people["Анна"], "g", "Анна", "guess 4", step=1)
    service.resolve(people["gm"], "g", step=1, force=True)
    notice = service.store.load("g").steps[0].notice()
    service.rollback(people["gm"], "g", step=1, reason="не та кость")
    found = [(row.kind, row.audience, row.step) for row in rows(service)]
    assert found == [("post", "seat:Анна", 1), ("resolved", "public", 1), ("rolled-back", "public", 1)]
    # the resolution carries the step's public notice (docs/dice.md, issue 28): seed and digest
    assert rows(service)[1].payload == notice
    assert rows(service)[0].payload["player"] == "Анна" and "text" not in rows(service)[0].payload


def test_a_refused_change_announces_nothing(service: Service) -> None:
    people = seated(service)
    service.resolve(people["gm"], "g", step=1, force=True)
    before = len(rows(service))
    with pytest.raises(GameError):
        service.resolve(people["gm"], "g", step=1, force=True)
    with pytest.raises(GameError):
        service.post(people["Анна"], "g", "Анна", "guess 4", step=1)
    assert len(rows(service)) == before


def test_the_same_key_is_written_once(service: Service) -> None:
    seated(service)
    made = Announcement("clock:g:deadline:1:24h", "deadline", "public", None, 1, {"due": "2026-12-06T18:00+03:00"})
    for _ in range(2):
        with service.store.sessions.begin() as session:
            announce(session, made)
    assert [row.key for row in rows(service)].count(made.key) == 1
