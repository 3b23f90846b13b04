"""Issue 25, «The service layer first»: every operation is checked against its actor — the game
master, a co-game-master, a player's seat, the public, a seat's API token, the deadline worker —
in one place (src/voevoda/service/access.py), and «Accounts and seats»: invitations of at least
128 random bits stored hashed, spent once, revocable; passwords hashed with Argon2id; sessions
that can be revoked."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from voevoda.core.errors import GameError, OrdersRejected
from voevoda.service import ANONYMOUS, CLOCK, OPERATOR, Service
from voevoda.service.access import Access, Op
from voevoda.service.actors import ChatGroup, Person, SeatToken
from voevoda.service.errors import Conflict, Forbidden, NotFound


class FrozenClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture()
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture()
def service(tmp_path: Path, clock: FrozenClock) -> Service:
    return Service(f"sqlite:///{tmp_path / 'service.db'}", clock=clock)


def seated(service: Service, game: str = "g", players: tuple[str, ...] = ("Анна", "Борис")) -> dict[str, Person]:
    """A game owned by the installation's game master, each seat taken through its invitation."""
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", game, list(players), seed=game)
    people = {"gm": gm}
    for player in players:
        token = service.invite(gm, game, player, list(players))
        people[player] = service.join(token, ANONYMOUS).person
    return people


ROLES = ("operator", "owner", "co_gm", "seat", "other_seat", "token", "anonymous", "clock", "group_chat")
"""Who asks, as the table in src/voevoda/service/access.py names them."""


def access_of(role: str, public: bool = False) -> Access:
    actor = {"operator": OPERATOR, "anonymous": ANONYMOUS, "clock": CLOCK}.get(role, Person(1, "x"))
    if role == "token":
        actor = SeatToken(1, 1, "Анна")
    if role == "group_chat":
        actor = ChatGroup(-100, 1)
    return Access(actor, "g", owner=role == "owner", co_gm=role == "co_gm",
                  seats=frozenset({"Анна"} if role in ("seat", "token") else {"Борис"} if role == "other_seat" else ()),
                  public=public, linked=role == "group_chat")


EXPECTED = {
    # op (for Анна's seat where it names one): roles allowed
    Op.READ: {"operator", "owner", "co_gm", "seat", "other_seat", "token", "group_chat"},
    Op.POST: {"operator", "owner", "co_gm", "seat", "token"},
    Op.TOKEN: {"operator", "owner", "co_gm", "seat", "token"},
    Op.RESOLVE: {"operator", "owner", "co_gm", "clock"},
    Op.ROLLBACK: {"operator", "owner", "co_gm"},
    Op.REOPEN: {"operator", "owner", "co_gm"},
    Op.EDIT: {"operator", "owner", "co_gm"},
    Op.REVEAL: {"operator", "owner", "co_gm"},
    Op.EXPORT_FULL: {"operator", "owner", "co_gm"},
    Op.MANAGE: {"operator", "owner", "co_gm"},
    Op.DELETE: {"operator", "owner"},
    Op.NAME_CO_GM: {"operator", "owner"},
    Op.THREAD: {"operator", "owner", "co_gm"},  # issue 26: a forum thread read into posts
    # the clock (issue 26, docs/clock.md): a player can't pause; a player readies only their own seat
    Op.SCHEDULE: {"operator", "owner", "co_gm"},
    Op.PAUSE: {"operator", "owner", "co_gm"},
    Op.READY: {"operator", "owner", "co_gm", "seat", "token"},
    Op.VACATION: {"operator", "owner", "co_gm", "seat", "token"},
    Op.TEND: {"operator", "clock"},
    Op.NOTIFY: {"operator", "owner", "co_gm"},
    Op.NOTIFY_SEAT: {"operator", "seat", "token"},  # a player's own address: not the game masters'
}


@pytest.mark.parametrize("op", list(Op))
@pytest.mark.parametrize("role", ROLES)
def test_the_table_of_who_may_do_what(op: Op, role: str) -> None:
    """The table of src/voevoda/service/access.py, cell by cell (a private game)."""
    assert access_of(role).can(op, "Анна") == (role in EXPECTED[op])


def test_a_public_game_is_read_by_anybody_but_changed_by_nobody_outside() -> None:
    public = access_of("anonymous", public=True)
    assert public.can(Op.READ)
    assert [op for op in Op if public.can(op, "Анна")] == [Op.READ]


def test_a_private_game_does_not_exist_for_outsiders(service: Service) -> None:
    seated(service)
    stranger, _ = service.init_gm("Чужой")
    for actor in (ANONYMOUS, stranger):
        with pytest.raises(NotFound, match="no game named 'g'"):
            service.sight(actor, "g")
        with pytest.raises(NotFound):
            service.post(actor, "g", "Анна", "guess 3")
    service.change_settings(OPERATOR, "g", public=True)
    assert service.sight(ANONYMOUS, "g").viewer == "public"
    with pytest.raises(Forbidden, match="cannot act for the player 'Анна'"):
        service.post(ANONYMOUS, "g", "Анна", "guess 3")


def test_a_seat_posts_for_itself_only_and_sees_only_its_own_eyes(service: Service) -> None:
    people = seated(service)
    anna = people["Анна"]
    assert service.post(anna, "g", "Анна", "guess 3").stored
    with pytest.raises(Forbidden, match="cannot act for the player 'Борис'"):
        service.post(anna, "g", "Борис", "guess 3")
    with pytest.raises(Forbidden, match="cannot act for the player 'Борис'"):
        service.check_post(anna, "g", "борис", "guess 3")  # any letter case is the same seat
    assert service.sight(anna, "g").viewer == "Анна"
    with pytest.raises(Forbidden):
        service.sight(anna, "g", "Борис")
    with pytest.raises(Forbidden, match="only the game's game master"):
        service.sight(anna, "g", "gm")
    assert service.sight(anna, "g", "public").viewer == "public"
    for act in (lambda: service.resolve(anna, "g", step=1, force=True),
                lambda: service.export(anna, "g", full=True),
                lambda: service.invite(anna, "g", "Борис", ["Анна", "Борис"]),
                lambda: service.delete(anna, "g", confirm="g")):
        with pytest.raises(Forbidden):
            act()
    assert service.standing_post(anna, "g", "Анна") is not None
    with pytest.raises(Forbidden):
        service.standing_post(people["Борис"], "g", "Анна")


def test_co_game_masters_run_the_game_but_only_the_owner_deletes_it(service: Service) -> None:
    people = seated(service)
    helper, _ = service.init_gm("Помощник")
    service.name_co_gm(people["gm"], "g", "помощник")
    with pytest.raises(Conflict):
        service.name_co_gm(people["gm"], "g", "Помощник")
    assert ("Помощник", "co_gm") in service.game_masters(helper, "g")
    assert service.resolve(helper, "g", step=1, force=True).step.number == 1
    with pytest.raises(Forbidden, match="only the game's owner"):
        service.delete(helper, "g", confirm="g")
    with pytest.raises(Forbidden, match="only the game's owner"):
        service.name_co_gm(helper, "g", "Анна")
    service.remove_co_gm(people["gm"], "g", "Помощник")
    with pytest.raises(NotFound):
        service.sight(helper, "g")


def test_an_api_token_acts_for_its_seat_of_its_game_only(service: Service) -> None:
    people = seated(service)
    seated(service, "h")
    token = service.create_api_token(people["Анна"], "g", "Анна", "мой бот")
    bot = service.token_actor(token)
    assert isinstance(bot, SeatToken) and bot.player == "Анна"
    assert service.post(bot, "g", "Анна", "guess 2").stored
    with pytest.raises(Forbidden):
        service.post(bot, "g", "Борис", "guess 2")
    with pytest.raises(NotFound):
        service.sight(bot, "h")  # the token's seat is in «g» only
    with pytest.raises(Forbidden):
        service.create_api_token(people["Анна"], "g", "Борис")
    [listed] = service.api_tokens(people["Анна"])
    service.revoke_api_token(people["Анна"], listed.id)
    assert service.token_actor(token) is None
    assert service.token_actor("not a token") is None


def test_an_invitation_is_spent_once_and_a_new_one_revokes_the_old(service: Service) -> None:
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", "g", ["Анна", "Борис"], seed="g")
    first = service.invite(gm, "g", "Анна", ["Анна", "Борис"])
    second = service.invite(gm, "g", "Анна", ["Анна", "Борис"])
    with pytest.raises(NotFound, match="invitation is not valid"):
        service.invitation(first)
    assert service.invitation(second).player == "Анна"
    joined = service.join(second, ANONYMOUS)
    assert joined.player == "Анна" and joined.grant is not None
    with pytest.raises(NotFound, match="invitation is not valid"):
        service.join(second, ANONYMOUS)
    third = service.invite(gm, "g", "Борис", ["Анна", "Борис"])
    assert service.revoke_invitation(gm, "g", "Борис")
    with pytest.raises(NotFound):
        service.join(third, ANONYMOUS)
    with pytest.raises(NotFound, match="no player 'Вера'"):
        service.invite(gm, "g", "Вера", ["Анна", "Борис"])


def test_a_replacement_player_takes_the_seat_and_the_old_holders_tokens_stop(service: Service) -> None:
    people = seated(service)
    token = service.create_api_token(people["Анна"], "g", "Анна")
    replacement = service.join(service.invite(people["gm"], "g", "Анна", ["Анна", "Борис"]), ANONYMOUS).person
    assert service.sight(replacement, "g").viewer == "Анна"
    with pytest.raises(NotFound):
        service.sight(people["Анна"], "g")
    assert service.token_actor(token) is None


def test_secrets_are_long_random_and_stored_only_hashed(service: Service, tmp_path: Path) -> None:
    """«secret links (≥ 128 random bits, stored hashed)»: no token handed out is in the database."""
    gm, login = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", "g", ["Анна"], seed="g")
    invitation = service.invite(gm, "g", "Анна", ["Анна"])
    grant = service.join(invitation, ANONYMOUS).grant
    assert grant is not None
    api = service.create_api_token(grant.person, "g", "Анна")
    handed = [login, invitation, grant.token, api]
    import base64

    for token in handed:
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
    dump = "\n".join(sqlite3.connect(tmp_path / "service.db").iterdump())
    for token in handed:
        assert token not in dump


def test_login_links_are_one_time_and_expire(service: Service, clock: FrozenClock) -> None:
    _, token = service.init_gm("Ведущий")
    assert service.sign_in_with_link(token).person.name == "Ведущий"
    with pytest.raises(NotFound):
        service.sign_in_with_link(token)
    _, late = service.init_gm("Ведущий")
    clock.now += timedelta(hours=25)
    with pytest.raises(NotFound):
        service.sign_in_with_link(late)


def test_passwords_are_argon2id_and_sessions_revocable(service: Service, tmp_path: Path) -> None:
    gm, _ = service.init_gm("Ведущий")
    service.set_password(gm, "длинный пароль")
    stored = sqlite3.connect(tmp_path / "service.db").execute("SELECT password_hash FROM accounts").fetchone()[0]
    assert stored.startswith("$argon2id$")
    with pytest.raises(GameError, match="wrong name or password"):
        service.sign_in_with_password("Ведущий", "не тот")
    with pytest.raises(GameError, match="wrong name or password"):
        service.sign_in_with_password("Никто", "длинный пароль")
    with pytest.raises(GameError, match="8 to 1024"):
        service.set_password(gm, "short")
    grant = service.sign_in_with_password("ведущий", "длинный пароль")
    signed = service.signed_in(grant.token)
    assert signed is not None and signed.person.account_id == gm.account_id
    [session] = service.sessions(gm)
    service.revoke_session(gm, session.id)
    assert service.signed_in(grant.token) is None
    other = service.sign_in_with_password("Ведущий", "длинный пароль")
    stranger, _ = service.init_gm("Чужой")
    with pytest.raises(NotFound):
        service.revoke_session(stranger, service.sessions(gm)[0].id)
    service.sign_out(other.token)
    assert service.signed_in(other.token) is None


def test_only_the_installations_game_master_creates_games(service: Service) -> None:
    people = seated(service)
    with pytest.raises(Forbidden, match="only this installation's game master"):
        service.create_game(people["Анна"], "toy-guess", "mine", ["Анна"])
    with pytest.raises(Forbidden):
        service.create_game(ANONYMOUS, "toy-guess", "mine", ["Анна"])
    service.create_game(people["gm"], "toy-guess", "mine", ["Анна"], timezone="Europe/Moscow")
    assert service.settings("mine") == (False, "Europe/Moscow")
    with pytest.raises(GameError, match="unknown time zone"):
        service.create_game(people["gm"], "toy-guess", "bad", ["Анна"], timezone="Mars/Olympus")


def test_game_master_actions_name_their_step(service: Service) -> None:
    """«Every game-master action names the step it acts on and is refused as «already done» for
    any other (resolve, rollback, reopen, edit, reveal)»."""
    people = seated(service)
    gm = people["gm"]
    service.resolve(gm, "g", step=1, force=True)
    with pytest.raises(GameError, match="step 1 is already resolved"):
        service.resolve(gm, "g", step=1, force=True)
    service.rollback(gm, "g", step=1, reason="не та кость")
    with pytest.raises(GameError, match="step 1 has already been rolled back"):
        service.rollback(gm, "g", step=1, reason="ещё раз")
    with pytest.raises(GameError, match="step 1 is open, not 2"):
        service.reopen(gm, "g", step=2, player="Анна", reason="r")
    with pytest.raises(GameError, match="step 1 is open, not 3"):
        service.edit(gm, "g", step=3, patch=[{"op": "replace", "path": "/turn", "value": 1}], reason="r")
    service.reopen(gm, "g", step=1, player="Анна", reason="просила")
    assert service.post(people["Анна"], "g", "Анна", "guess 4", step=1).stored
    service.resolve(gm, "g", step=1, force=True)
    with pytest.raises(GameError, match="step 1 has already been resolved: the post was not stored"):
        service.post(people["Анна"], "g", "Анна", "guess 4", step=1)
    with pytest.raises(GameError, match="the secret is revealed only after the game is over"):
        service.reveal(gm, "g", step=2)
    with pytest.raises(GameError, match="step 2 is open, not 1"):
        service.reveal(gm, "g", step=1)


def test_an_edit_previewed_is_refused_when_the_state_changed_since(service: Service) -> None:
    people = seated(service)
    gm = people["gm"]
    patch = [{"op": "replace", "path": "/scores/Анна", "value": 2}]
    preview = service.preview_edit(gm, "g", patch)
    assert preview.changes == [{"op": "replace", "path": "/scores/Анна", "value": 2}]
    assert "Анна" in preview.outline
    service.resolve(gm, "g", step=1, force=True)
    with pytest.raises(Conflict, match="changed after the preview"):
        service.edit(gm, "g", step=2, patch=patch, reason="награда", base_hash=preview.state_hash)
    fresh = service.preview_edit(gm, "g", patch)
    service.edit(gm, "g", step=2, patch=patch, reason="награда", base_hash=fresh.state_hash)
    with pytest.raises(GameError, match="does not apply"):
        service.preview_edit(gm, "g", [{"op": "replace", "path": "/nowhere/deep", "value": 1}])


def test_a_refused_post_stores_nothing_and_its_echo_names_the_line(service: Service) -> None:
    people = seated(service)
    with pytest.raises(OrdersRejected) as refused:
        service.post(people["Анна"], "g", "Анна", "guess 9")
    echo = service.echo_of(people["Анна"], "g", "Анна", refused.value, check=False)
    assert not echo.accepted and echo.problems[0].line == 1 and "1 to 6" in echo.problems[0].message_en
    assert service.standing_post(people["Анна"], "g", "Анна") is None
    outcome = service.post(people["Анна"], "g", "Анна", "guess 3")
    again = service.post(people["Анна"], "g", "Анна", "guess 5")
    assert "replaces your post" in again.echo and outcome.step == again.step == 1


def test_the_cached_game_follows_changes_made_by_another_process(service: Service, tmp_path: Path) -> None:
    """A service keeps the games it read and applies only the entries stored since: a change made
    through another service (another server process) is seen at the next read."""
    people = seated(service)
    before = service.sight(people["gm"], "g").dashboard()
    other = Service(service.url)
    other.post(OPERATOR, "g", "Анна", "guess 3")
    other.resolve(OPERATOR, "g", step=1, force=True)
    after = service.sight(people["gm"], "g").dashboard()
    assert (before.steps_resolved, after.steps_resolved) == (0, 1)
    replayed = Service(service.url, cache_size=0).sight(OPERATOR, "g").report()
    assert service.sight(OPERATOR, "g").report() == replayed


def test_a_session_read_is_trusted_for_two_seconds_then_read_again(service: Service, tmp_path: Path,
                                                                   clock: FrozenClock,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/web.md «Sessions»: a process does not read a session it read within
    SESSION_MEMORY_SECONDS again; a revocation made by another process (here: another service
    on the same database) is seen once they have passed, one made by this process at once; an
    expired session is refused even while remembered."""
    from voevoda.service import people

    tick = [1000.0]
    monkeypatch.setattr(people.time, "monotonic", lambda: tick[0])
    gm, _ = service.init_gm("Ведущий")
    service.set_password(gm, "длинный пароль")
    grant = service.sign_in_with_password("Ведущий", "длинный пароль")
    assert service.signed_in(grant.token) is not None
    elsewhere = Service(f"sqlite:///{tmp_path / 'service.db'}", clock=clock)
    [session] = elsewhere.sessions(gm)
    elsewhere.revoke_session(gm, session.id)
    assert elsewhere.signed_in(grant.token) is None  # the process that revoked it: at once
    tick[0] += people.SESSION_MEMORY_SECONDS - 0.1
    assert service.signed_in(grant.token) is not None  # remembered: not read again
    tick[0] += 0.2
    assert service.signed_in(grant.token) is None  # read again: revoked
    # an expired session, remembered a moment ago, is refused by the clock alone
    other = service.sign_in_with_password("Ведущий", "длинный пароль")
    assert service.signed_in(other.token) is not None
    clock.now += timedelta(days=people.SESSION_DAYS, seconds=1)
    assert service.signed_in(other.token) is None


def test_a_session_remembered_is_not_read_from_the_database(service: Service,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from voevoda.service import people

    gm, _ = service.init_gm("Ведущий")
    service.set_password(gm, "длинный пароль")
    grant = service.sign_in_with_password("Ведущий", "длинный пароль")
    reads = []
    real = service.store.read_connection
    monkeypatch.setattr(service.store, "read_connection", lambda: (reads.append(1), real())[1])
    first = service.signed_in(grant.token)
    second = service.signed_in(grant.token)
    assert first == second and len(reads) == 1
    service.set_language(gm, "en")  # this process changed the account: the memory is forgotten
    assert service.signed_in(grant.token).lang == "en" and len(reads) == 2
    monkeypatch.setattr(people.time, "monotonic", lambda: 10.0 ** 9)  # long after
    service.signed_in(grant.token)
    assert len(reads) == 3
