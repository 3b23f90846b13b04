"""Issue 27, «Linking a seat» and «The group chat», in the service (src/voevoda/service/chats.py):
a chat links itself with a seat's invitation, checked and spent as on the web, or with a one-time
link; a linked group reads the public face of its game and nothing else; a notice reaches a chat
once; the bot's token is the installation's game master's to set."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.service.test_access import FrozenClock
from voevoda.core.errors import GameError
from voevoda.core.ruleset import PUBLIC
from voevoda.service import ANONYMOUS, CLOCK, OPERATOR, Service
from voevoda.service.actors import ChatGroup, Person
from voevoda.service.errors import Conflict, Forbidden, NotFound

ANNA, BORIS, GROUP = 111, 222, -100500


@pytest.fixture()
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture()
def service(tmp_path: Path, clock: FrozenClock) -> Service:
    return Service(f"sqlite:///{tmp_path / 'chats.db'}", clock=clock)


def game(service: Service) -> Person:  # the game of these tests
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", "g", ["Анна", "Борис"], seed="g")
    return gm


def test_an_invitation_opened_in_a_chat_is_spent_as_on_the_web(service: Service) -> None:
    gm = game(service)
    token = service.invite(gm, "g", "Анна", ["Анна", "Борис"])
    linked = service.link_chat(token, ANNA, "private", name="Анна Петрова")
    assert (linked.what, linked.game, linked.player) == ("seat", "g", "Анна")
    assert linked.person is not None and linked.person.name == "Анна Петрова"
    with pytest.raises(NotFound, match="приглашение недействительно"):
        service.link_chat(token, BORIS, "private")
    with pytest.raises(NotFound, match="приглашение недействительно"):
        service.join(token, ANONYMOUS)
    chat = service.chat(ANNA, "ru")
    assert chat.kind == "private" and chat.person == linked.person and chat.game == "g"
    assert service.access(chat.person, "g").seats == frozenset({"Анна"})
    assert service.sessions(linked.person) == [], "a chat gets no browser session"
    # the same chat opens a second seat of the same game: one seat a person
    other = service.invite(gm, "g", "Борис", ["Анна", "Борис"])
    with pytest.raises(Conflict, match="одно место на человека"):
        service.link_chat(other, ANNA, "private")
    assert service.invitation(other).player == "Борис", "the refused invitation is not spent"


def test_a_chat_linked_to_an_account_takes_that_accounts_seats(service: Service, clock: FrozenClock) -> None:
    gm = game(service)
    anna = service.join(service.invite(gm, "g", "Анна", ["Анна", "Борис"]), ANONYMOUS).person  # on the web
    code = service.chat_link(anna, "account")
    assert service.link_chat(code, ANNA, "private").person == anna
    assert service.chat(ANNA).person == anna and service.chat(ANNA).game is None
    with pytest.raises(NotFound, match="ссылка недействительна"):
        service.link_chat(code, BORIS, "private")
    late = service.chat_link(anna, "account")
    clock.now += timedelta(hours=25)
    with pytest.raises(NotFound, match="устарела"):
        service.link_chat(late, BORIS, "private")
    with pytest.raises(Forbidden):
        service.chat_link(ANONYMOUS, "account")
    group_code = service.chat_link(gm, "group", "g")
    with pytest.raises(NotFound):  # a group's link does not link a private chat
        service.link_chat(group_code, BORIS, "private")


def test_a_linked_group_reads_the_public_face_of_its_game_only(service: Service) -> None:
    gm = game(service)
    with pytest.raises(Forbidden):
        service.chat_link(service.join(service.invite(gm, "g", "Анна", ["Анна", "Борис"]), ANONYMOUS).person,
                          "group", "g")
    linked = service.link_chat(service.chat_link(gm, "group", "g"), GROUP, "group", title="Игра <g>")
    assert (linked.what, linked.game) == ("group", "g")
    group = service.chat(GROUP).group
    assert group is not None and service.chat(GROUP).game == "g"
    sight = service.sight(group, "g")
    assert sight.viewer == PUBLIC and sight.viewers() == [PUBLIC]
    with pytest.raises(Forbidden):
        service.sight(group, "g", "Анна")
    with pytest.raises(Forbidden):
        service.post(group, "g", "Анна", "число 1")
    with pytest.raises(Forbidden):
        service.resolve(group, "g", step=1, force=True)
    service.create_game(gm, "toy-guess", "h", ["Вера", "Глеб"], seed="h")
    with pytest.raises(NotFound):  # another private game does not exist for the group
        service.sight(group, "h")
    forged = ChatGroup(-999, group.game_id)
    with pytest.raises(NotFound):  # a group is linked by the store, not by whoever says so
        service.sight(forged, "g")
    # a game has one group: linking another moves the chronicle there
    service.link_chat(service.chat_link(gm, "group", "g"), GROUP - 1, "group", title="Новая")
    assert service.linked_group(gm, "g").chat_id == GROUP - 1  # type: ignore[union-attr]
    assert service.chat(GROUP).kind == "unknown"
    assert service.unlink_group(gm, "g") and service.linked_group(gm, "g") is None


def test_the_pushes_go_to_the_members_chats_and_the_group_once(service: Service) -> None:
    gm = game(service)
    service.link_chat(service.invite(gm, "g", "Анна", ["Анна", "Борис"]), ANNA, "private")
    service.chat(ANNA, "en-US")
    service.link_chat(service.invite(gm, "g", "Борис", ["Анна", "Борис"]), BORIS, "private")
    service.link_chat(service.chat_link(gm, "group", "g"), GROUP, "group")
    service.link_chat(service.chat_link(gm, "account"), 500, "private")
    service.set_chat_language(BORIS, "en")
    service.chat(BORIS, "ru")
    found = {r.chat_id: (type(r.actor).__name__, r.lang) for r in service.chat_recipients("g")}
    assert found == {ANNA: ("Person", "en"), BORIS: ("Person", "en"), 500: ("Person", "ru"), GROUP: ("ChatGroup", "ru")}
    assert not service.delivered("k", ANNA)
    service.record_delivery("k", ANNA)
    service.record_delivery("k", ANNA)
    assert service.delivered("k", ANNA) and not service.delivered("k", BORIS)
    service.release_seat(gm, "g", "Борис")
    assert BORIS not in {r.chat_id for r in service.chat_recipients("g")}, "a seat released: no more pushes"
    service.resolve(CLOCK, "g", step=1, force=True)
    service.delete(gm, "g", confirm="g")
    assert service.chat(GROUP).kind == "unknown", "a deleted game takes its group's link along"


def test_the_bots_token_is_the_installations_game_masters(service: Service) -> None:
    gm = game(service)
    player = service.join(service.invite(gm, "g", "Анна", ["Анна", "Борис"]), ANONYMOUS).person
    with pytest.raises(Forbidden):
        service.set_telegram_token(player, "123456789:AAEabcdefghijklmnopqrstuvwxyz0123456")
    with pytest.raises(GameError, match="не токен бота"):
        service.set_telegram_token(gm, "hello")
    service.set_telegram_token(gm, " 123456789:AAEabcdefghijklmnopqrstuvwxyz0123456 ")
    assert service.telegram_token() == "123456789:AAEabcdefghijklmnopqrstuvwxyz0123456"
    service.set_telegram_username("@voevoda_bot")
    service.set_telegram_username("<script>")
    assert service.telegram_username() == "voevoda_bot"
    service.set_telegram_token(OPERATOR, None)
    assert service.telegram_token() is None and service.telegram_username() is None
