"""Issue 26, «Missed orders», per game as an option (docs/clock.md): the ruleset's default orders;
a civil-disorder count (a seat missing N turns in a row is marked, its units hold, the game master
is told, a replacement can be invited to the seat); or a computer opponent taking the seat until
its player returns."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from tests.clock.conftest import outbox, seated
from voevoda.clock.worker import run_pass
from voevoda.core.errors import GameError
from voevoda.service import ANONYMOUS, OPERATOR, Service


def _deadline(service: Service, frozen: time_machine.Traveller, hours: int = 24) -> int:
    frozen.shift(timedelta(hours=hours))
    return run_pass(service).resolved


def test_default_orders_count_missed_turns_but_mark_nothing(service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="24h")
    for _ in range(3):
        service.post(people["Анна"], "g", "Анна", "guess 1")
        assert _deadline(service, frozen) == 1
    view = service.deadline(people["gm"], "g")
    assert [(s.missed, s.disorder, s.computer) for s in view.seats] == [(0, False, False), (3, False, False)]
    assert outbox(service, "civil-disorder") == []


def test_civil_disorder_after_n_missed_in_a_row_tells_the_game_master(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="24h", missed="civil-disorder", disorder_after=2)
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert _deadline(service, frozen) == 1
    assert not service.deadline(people["gm"], "g").seats[1].disorder
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert _deadline(service, frozen) == 1
    seat = service.deadline(people["Анна"], "g").seats[1]
    assert seat.missed == 2 and seat.disorder
    (told,) = outbox(service, "civil-disorder")
    assert told.audience == "gm" and told.payload["player"] == "Борис" and told.payload["missed"] == 2
    # its units hold: the step no longer waits for the seat, which gets the default orders
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert run_pass(service).resolved == 1
    game = service.store.load("g")
    assert game.steps[-1].defaulted == ["Борис"]
    # a replacement is invited to the seat and takes it; their first post ends the disorder
    token = service.invite(people["gm"], "g", "Борис", ["Анна", "Борис"])
    service.release_seat(people["gm"], "g", "Борис")
    newcomer = service.join(token, ANONYMOUS, name="Вера").person
    service.post(newcomer, "g", "Борис", "guess 2")
    service.post(people["Анна"], "g", "Анна", "guess 2")
    assert run_pass(service).resolved == 1
    assert service.deadline(people["gm"], "g").seats[1].disorder is False


def test_a_computer_opponent_takes_the_seat_until_its_player_returns(
        service: Service, frozen: time_machine.Traveller) -> None:
    people = seated(service)
    service.set_schedule(people["gm"], "g", period="24h", missed="computer")
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert _deadline(service, frozen) == 1
    game = service.store.load("g")
    assert game.steps[0].submissions["Борис"].source == "bot" and game.steps[0].defaulted == []
    assert service.deadline(people["gm"], "g").seats[1].computer
    # the computer holds the seat: once Анна posts, the step resolves at once
    service.post(people["Анна"], "g", "Анна", "guess 1")
    report = run_pass(service)
    assert report.resolved == 1 and report.games[0].stood_in == ["Борис"]
    # the player returns: their own post, and the seat is theirs again
    service.post(people["Борис"], "g", "Борис", "guess 5")
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert run_pass(service).resolved == 1
    assert not service.deadline(people["gm"], "g").seats[1].computer
    service.post(people["Анна"], "g", "Анна", "guess 1")
    assert run_pass(service).resolved == 0  # Борис is awaited again
    # the computer's posts replay and verify as the computer's (from the seat's view and stream)
    from voevoda.core.engine import Game

    replayed = Game(service.store.load("g").record.model_copy(deep=True), check_bots=True)
    assert replayed.bot_problems == []


def test_the_policies_are_checked(service: Service) -> None:
    seated(service)
    with pytest.raises(GameError, match="--missed: default, civil-disorder, computer, not 'kick'"):
        service.set_schedule(OPERATOR, "g", missed="kick")
    with pytest.raises(GameError, match="--disorder-after: 1 to 100"):
        service.set_schedule(OPERATOR, "g", disorder_after=0)
    with pytest.raises(GameError, match="--vacation-policy: extend or skip"):
        service.set_schedule(OPERATOR, "g", vacation_policy="ignore")
    from tests.core.toy import Guess

    original = Guess.bot
    try:
        del Guess.bot  # a ruleset with no computer opponent
        with pytest.raises(GameError, match="ruleset 'toy-guess' has no computer opponent"):
            service.set_schedule(OPERATOR, "g", missed="computer")
    finally:
        Guess.bot = original  # type: ignore[method-assign]
