"""People: accounts, sign-in, sessions, seats, invitations and API tokens.

Every secret handed to a person — a one-time login link, a seat's invitation, a session, an
API token — is :data:`TOKEN_BYTES` random bytes (192 bits) from :mod:`secrets`, written in
URL-safe base64; the database keeps only its SHA-256, so a copy of the database signs nobody
in. Passwords are optional (an invitation link signs a player in) and hashed with Argon2id.

A session is a database row: the browser holds its token (signed, in an HttpOnly cookie, see
:mod:`voevoda.web.auth`), and revoking the row signs that browser out wherever it is.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from voevoda.core.errors import GameError
from voevoda.service.access import Access, Op
from voevoda.service.actors import Actor, Anonymous, ChatGroup, Clock, Operator, Person, SeatToken
from voevoda.service.errors import Conflict, Forbidden, NotFound, not_found_game

if TYPE_CHECKING:
    from argon2 import PasswordHasher
    from sqlalchemy.orm import Session

    from voevoda.store.db import Store
    from voevoda.store.models import AccountRow

TOKEN_BYTES = 24
SESSION_DAYS = 30
LOGIN_LINK_HOURS = 24
MAX_ACCOUNT_NAME = 100
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _password_hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()  # Argon2id, the library's default parameters (RFC 9106's second choice)


@dataclass(frozen=True)
class SessionGrant:
    """A new session: the token for the cookie (shown once) and its CSRF token."""

    token: str
    csrf: str
    person: Person


@dataclass(frozen=True)
class SessionInfo:
    """A signed-in browser as its owner sees it on the account page."""

    id: int
    created_at: datetime
    last_seen_at: datetime
    user_agent: str
    address: str
    current: bool


@dataclass(frozen=True)
class SignedIn:
    """The person behind a session token, with the session's CSRF token and the language the
    person chose (``None``: none)."""

    person: Person
    session_id: int
    csrf: str
    lang: str | None = None


@dataclass(frozen=True)
class GameContext:
    """What one actor holds in one game, the game's settings, and its journal's version ``(row
    id, created, entries)`` as last committed (``None`` when not read)."""

    access: Access
    public: bool
    timezone: str
    version: tuple[int, str, int] | None


@dataclass(frozen=True)
class Seat:
    """A player's seat as the game master's page lists it."""

    player: str
    bot: bool
    holder: str | None
    invited_at: datetime | None
    """When the open invitation was made (``None``: no invitation waits to be opened)."""


@dataclass(frozen=True)
class Invitation:
    """What an invitation link opens, told before it is spent."""

    game: str
    ruleset: str
    player: str


@dataclass(frozen=True)
class Joined:
    """A spent invitation: the seat taken and, for a visitor who was nobody, a new session."""

    game: str
    player: str
    person: Person
    grant: SessionGrant | None


@dataclass(frozen=True)
class ApiToken:
    id: int
    game: str
    player: str
    label: str
    created_at: datetime


SESSION_MEMORY_SECONDS = 2.0
"""How long a process trusts a session it has read without reading it again (docs/web.md,
«Sessions»)."""


class SessionMemory:
    """The sessions a process has read lately, by token hash: a page need not read its visitor's
    session again within :data:`SESSION_MEMORY_SECONDS`. Whatever this process changes of a
    session or an account (sign-out, revocation, language, the game master's rights) forgets
    them all at once; a change made by another process is seen within those seconds. A session's
    end (``expires_at``) is checked on every use."""

    SIZE = 20_000

    def __init__(self) -> None:
        self._kept: dict[str, tuple[float, SignedIn, datetime]] = {}
        self._lock = threading.Lock()

    def get(self, hashed: str, now: datetime) -> SignedIn | None:
        kept = self._kept.get(hashed)
        if kept is None or time.monotonic() - kept[0] >= SESSION_MEMORY_SECONDS or kept[2] < now:
            return None
        return kept[1]

    def put(self, hashed: str, signed: SignedIn, expires: datetime, read_at: float) -> None:
        with self._lock:
            if len(self._kept) >= self.SIZE:
                self._kept.clear()
            self._kept[hashed] = (read_at, signed, expires)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()


class People:
    """Accounts, sessions, seats and tokens; mixed into :class:`voevoda.service.Service`."""

    clock: Callable[[], datetime]
    sessions_seen: SessionMemory

    _store: Store | None

    @property
    def store(self) -> Store:  # provided by the service
        raise NotImplementedError

    # -- access -----------------------------------------------------------------------------

    def access(self, actor: Actor, game: str) -> Access:
        """What ``actor`` holds in ``game`` (:mod:`voevoda.service.access`)."""
        return self.context(actor, game).access

    def context(self, actor: Actor, game: str) -> GameContext:
        """What ``actor`` holds in ``game``, the game's settings and the version of its journal, in
        one read of the database (for a signed-in person, his memberships with it)."""
        if isinstance(actor, Operator) and self._store is None:
            return GameContext(Access(actor, game, owner=True), False, "UTC", None)
        rows: list[Any] = []
        with self.store.read_connection() as connection:
            if isinstance(actor, Person):  # one row per membership of his in the game, or one with none
                rows = connection.execute(_queries().person_context, {"name": game, "account": actor.account_id}).all()
                row = rows[0] if rows else None
            else:
                row = connection.execute(_queries().context, {"name": game}).first()
            if row is None:
                raise not_found_game(game)
            game_id, created, entries, public, timezone = row[:5]
            version = (int(game_id), created.isoformat() if created else "", int(entries))  # as Store keys it
            public, timezone = bool(public), timezone or "UTC"
            if isinstance(actor, Operator):
                return GameContext(Access(actor, game, owner=True), public, timezone, version)
            if isinstance(actor, (Anonymous, Clock)):
                return GameContext(Access(actor, game, public=public), public, timezone, version)
            if isinstance(actor, SeatToken):
                seats = frozenset({actor.player}) if actor.game_id == game_id else frozenset()
                return GameContext(Access(actor, game, seats=seats, public=public), public, timezone, version)
            if isinstance(actor, ChatGroup):
                from sqlalchemy import select

                from voevoda.store.models import TelegramChatRow

                linked = actor.game_id == game_id and connection.execute(select(TelegramChatRow.id).where(
                    TelegramChatRow.chat_id == actor.chat_id, TelegramChatRow.kind == "group",
                    TelegramChatRow.game_id == game_id)).first() is not None
                return GameContext(Access(actor, game, public=public, linked=linked), public, timezone, version)
        members = [(r[5], r[6]) for r in rows if r[5] is not None]
        roles = {role for role, _ in members}
        access = Access(actor, game, owner="owner" in roles, co_gm="co_gm" in roles,
                        seats=frozenset(p for role, p in members if role == "player" and p), public=public)
        return GameContext(access, public, timezone, version)

    def _game_id(self, session: Session, game: str) -> int:
        from sqlalchemy import select

        from voevoda.store.models import GameRow

        game_id = session.scalar(select(GameRow.id).where(GameRow.name == game))
        if game_id is None:
            raise not_found_game(game)
        return int(game_id)

    # -- accounts and signing in -------------------------------------------------------------

    def init_gm(self, name: str) -> tuple[Person, str]:
        """The installation's game master: an account that may create games (made if it is not
        there yet), and a one-time login link's token for it."""
        name = _account_name(name)
        from sqlalchemy import select

        from voevoda.store.models import AccountRow

        with self.store.sessions.begin() as session:
            account = session.scalar(select(AccountRow).where(AccountRow.name_key == name.casefold()))
            if account is None:
                account = AccountRow(name=name, name_key=name.casefold(), can_create_games=True,
                                     created_at=self.clock())
                session.add(account)
                session.flush()
            account.can_create_games = True
            token = self._login_link(session, account.id)
            person = _person(account)
        self.sessions_seen.forget()
        return person, token

    def login_link(self, actor: Actor, account_name: str) -> str:
        """A new one-time login link for an account (the command line only: a game master who
        lost their browser)."""
        if not isinstance(actor, Operator):
            raise Forbidden("ссылку для входа выдаёт только командная строка",
                            "only the command line issues login links")
        from sqlalchemy import select

        from voevoda.store.models import AccountRow

        with self.store.sessions.begin() as session:
            account = session.scalar(select(AccountRow).where(AccountRow.name_key == account_name.casefold()))
            if account is None:
                raise NotFound(f"нет учётной записи «{account_name}»", f"no account named '{account_name}'")
            return self._login_link(session, account.id)

    def _login_link(self, session: Session, account_id: int) -> str:
        from voevoda.store.models import LoginLinkRow

        token = new_token()
        now = self.clock()
        session.add(LoginLinkRow(token_hash=token_hash(token), account_id=account_id, created_at=now,
                                 expires_at=now + timedelta(hours=LOGIN_LINK_HOURS)))
        return token

    def sign_in_with_link(self, token: str, user_agent: str = "", address: str = "") -> SessionGrant:
        """Spend a one-time login link: a new session for its account."""
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, LoginLinkRow

        with self.store.sessions.begin() as session:
            link = session.scalar(select(LoginLinkRow).where(LoginLinkRow.token_hash == token_hash(token)))
            now = self.clock()
            if link is None or link.spent_at is not None or _aware(link.expires_at) < now:
                raise NotFound("ссылка для входа недействительна: она уже использована, устарела или неверна",
                               "the login link is not valid: it was used, has expired or is wrong")
            link.spent_at = now
            account = session.get(AccountRow, link.account_id)
            assert account is not None
            return self._new_session(session, account, user_agent, address)

    def sign_in_with_password(self, name: str, password: str, user_agent: str = "", address: str = "") -> SessionGrant:
        from sqlalchemy import select

        from voevoda.store.models import AccountRow

        wrong = GameError("неверное имя или пароль", "wrong name or password")
        if len(password) > MAX_PASSWORD:
            raise wrong
        with self.store.sessions.begin() as session:
            account = session.scalar(select(AccountRow).where(AccountRow.name_key == name.strip().casefold()))
            hasher = _password_hasher()
            if account is None or account.password_hash is None:
                # the same work as a real check, so that the time tells nobody which names exist
                _verify_quietly(hasher, _DUMMY_HASH, password)
                raise wrong
            if not _verify_quietly(hasher, account.password_hash, password):
                raise wrong
            if hasher.check_needs_rehash(account.password_hash):
                account.password_hash = hasher.hash(password)
            return self._new_session(session, account, user_agent, address)

    def set_password(self, actor: Actor, password: str) -> None:
        person = _person_of(actor)
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise GameError(f"пароль: от {MIN_PASSWORD} до {MAX_PASSWORD} знаков",
                            f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters")
        from voevoda.store.models import AccountRow

        with self.store.sessions.begin() as session:
            account = session.get(AccountRow, person.account_id)
            if account is None:
                raise NotFound("учётной записи больше нет", "the account no longer exists")
            account.password_hash = _password_hasher().hash(password)

    def set_language(self, actor: Actor, lang: str | None) -> None:
        person = _person_of(actor)
        if lang not in (None, "ru", "en"):
            raise GameError("язык: ru или en", "language: ru or en")
        from voevoda.store.models import AccountRow

        with self.store.sessions.begin() as session:
            account = session.get(AccountRow, person.account_id)
            if account is not None:
                account.lang = lang
        self.sessions_seen.forget()

    def language(self, actor: Actor) -> str | None:
        if not isinstance(actor, Person):
            return None
        from voevoda.store.models import AccountRow

        with self.store.reads() as session:
            account = session.get(AccountRow, actor.account_id)
            return account.lang if account is not None else None

    def _new_session(self, session: Session, account: AccountRow, user_agent: str, address: str) -> SessionGrant:
        from voevoda.store.models import WebSessionRow

        token, csrf = new_token(), secrets.token_hex(32)
        now = self.clock()
        session.add(WebSessionRow(token_hash=token_hash(token), account_id=account.id, csrf_token=csrf,
                                  created_at=now, last_seen_at=now, expires_at=now + timedelta(days=SESSION_DAYS),
                                  user_agent=user_agent[:300], address=address[:64]))
        return SessionGrant(token, csrf, _person(account))

    def signed_in(self, token: str) -> SignedIn | None:
        """The person behind a session token, or ``None`` for a token unknown, expired or
        revoked. Marks the session seen (at most once a minute, to spare the database). A
        session read within the last seconds is not read again (:class:`SessionMemory`)."""
        hashed = token_hash(token)
        now = self.clock()
        known = self.sessions_seen.get(hashed, now)
        if known is not None:
            return known
        read_at = time.monotonic()
        with self.store.read_connection() as connection:
            found = connection.execute(_queries().session, {"hash": hashed}).first()
        if found is None:
            return None
        session_id, csrf, revoked, expires, seen, account_id, name, creates, lang = found
        if revoked is not None or _aware(expires) < now:
            return None
        if (now - _aware(seen)).total_seconds() > 60:
            self._touch(session_id, now)
        signed = SignedIn(Person(account_id, name, bool(creates)), session_id, csrf, lang)
        self.sessions_seen.put(hashed, signed, _aware(expires), read_at)
        return signed

    def _touch(self, session_id: int, now: datetime) -> None:
        """Mark a session seen, in a thread of its own: a reader never waits for the write lock
        (a long resolution may hold it), and a mark that cannot be written now is simply lost."""
        import threading

        def write() -> None:
            from voevoda.store.models import WebSessionRow

            try:
                with self.store.sessions.begin() as session:
                    fresh = session.get(WebSessionRow, session_id)
                    if fresh is not None:
                        fresh.last_seen_at = now
            except Exception:  # noqa: BLE001 - «last seen» is a courtesy, never a failure
                return

        threading.Thread(target=write, daemon=True).start()

    def sessions(self, actor: Actor, current: int | None = None) -> list[SessionInfo]:
        person = _person_of(actor)
        from sqlalchemy import select

        from voevoda.store.models import WebSessionRow

        now = self.clock()
        with self.store.reads() as session:
            rows = session.scalars(select(WebSessionRow).where(
                WebSessionRow.account_id == person.account_id, WebSessionRow.revoked_at.is_(None))
                .order_by(WebSessionRow.last_seen_at.desc())).all()
        return [SessionInfo(r.id, _aware(r.created_at), _aware(r.last_seen_at), r.user_agent, r.address, r.id == current)
                for r in rows if _aware(r.expires_at) >= now]

    def revoke_session(self, actor: Actor, session_id: int) -> None:
        person = _person_of(actor)
        from voevoda.store.models import WebSessionRow

        with self.store.sessions.begin() as session:
            row = session.get(WebSessionRow, session_id)
            if row is None or row.account_id != person.account_id:
                raise NotFound("нет такого входа", "no such session")
            row.revoked_at = self.clock()
        self.sessions_seen.forget()

    def sign_out(self, token: str) -> None:
        from sqlalchemy import select

        from voevoda.store.models import WebSessionRow

        with self.store.sessions.begin() as session:
            row = session.scalar(select(WebSessionRow).where(WebSessionRow.token_hash == token_hash(token)))
            if row is not None and row.revoked_at is None:
                row.revoked_at = self.clock()
        self.sessions_seen.forget()

    # -- seats and invitations ---------------------------------------------------------------

    def seats(self, actor: Actor, game: str, players: Sequence[str], bots: Sequence[str]) -> list[Seat]:
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, InvitationRow, MemberRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            holders = dict(session.execute(select(MemberRow.player, AccountRow.name).join(
                AccountRow, AccountRow.id == MemberRow.account_id).where(
                MemberRow.game_id == game_id, MemberRow.role == "player")).all())
            open_invitations = dict(session.execute(select(InvitationRow.player, InvitationRow.created_at).where(
                InvitationRow.game_id == game_id, InvitationRow.spent_at.is_(None),
                InvitationRow.revoked_at.is_(None))).all())
        return [Seat(p, p in bots, holders.get(p), _aware(open_invitations[p]) if p in open_invitations else None)
                for p in players]

    def invite(self, actor: Actor, game: str, player: str, players: Sequence[str]) -> str:
        """A new secret link to ``player``'s seat (its token, shown once). An earlier invitation
        of the seat not yet opened stops working; whoever opens the new one takes the seat, from
        its present holder too (a replacement player)."""
        self.access(actor, game).require(Op.MANAGE)
        if player not in players:
            raise NotFound(f"в игре нет игрока «{player}»", f"the game has no player '{player}'")
        from sqlalchemy import update

        from voevoda.store.models import InvitationRow

        token = new_token()
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            now = self.clock()
            session.execute(update(InvitationRow).where(
                InvitationRow.game_id == game_id, InvitationRow.player == player, InvitationRow.spent_at.is_(None),
                InvitationRow.revoked_at.is_(None)).values(revoked_at=now))
            session.add(InvitationRow(token_hash=token_hash(token), game_id=game_id, player=player, created_at=now))
        return token

    def revoke_invitation(self, actor: Actor, game: str, player: str) -> bool:
        """Stop the seat's open invitation; ``False`` when none was open."""
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import update

        from voevoda.store.models import InvitationRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            done = session.execute(update(InvitationRow).where(
                InvitationRow.game_id == game_id, InvitationRow.player == player, InvitationRow.spent_at.is_(None),
                InvitationRow.revoked_at.is_(None)).values(revoked_at=self.clock()))
            return bool(getattr(done, "rowcount", 0))

    def release_seat(self, actor: Actor, game: str, player: str) -> None:
        """Take the seat from its holder (the seat stays in the game, waiting for an invitation)."""
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import delete

        from voevoda.store.models import ApiTokenRow, MemberRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            session.execute(delete(MemberRow).where(MemberRow.game_id == game_id, MemberRow.player == player,
                                                    MemberRow.role == "player"))
            session.execute(_revoke_tokens(ApiTokenRow, game_id, player, self.clock()))

    def invitation(self, token: str) -> Invitation:
        """What an invitation opens, without spending it (a link preview must not take a seat)."""
        from sqlalchemy import select

        from voevoda.store.models import GameRow, InvitationRow

        with self.store.reads() as session:
            found = session.execute(select(InvitationRow, GameRow.name, GameRow.ruleset).join(
                GameRow, GameRow.id == InvitationRow.game_id).where(
                InvitationRow.token_hash == token_hash(token))).first()
        if found is None or found[0].spent_at is not None or found[0].revoked_at is not None:
            raise _invalid_invitation()
        return Invitation(found[1], found[2], found[0].player)

    def join(self, token: str, actor: Actor, name: str | None = None, user_agent: str = "",
             address: str = "") -> Joined:
        """Spend an invitation: its seat goes to the signed-in ``actor``, or to a new account
        (named ``name``, by default after the seat) with a new session."""
        with self.store.sessions.begin() as session:
            return self._spend_invitation(session, token, actor, name, sign_in=(user_agent, address))

    def _spend_invitation(self, session: Session, token: str, actor: Actor, name: str | None,
                          sign_in: tuple[str, str] | None) -> Joined:
        """:meth:`join` inside ``session``; ``sign_in`` (user agent, address) gives a newcomer a
        browser session too, ``None`` gives none (a chat links itself instead)."""
        from sqlalchemy import delete, select

        from voevoda.store.models import AccountRow, ApiTokenRow, GameRow, InvitationRow, MemberRow

        invitation = session.scalar(select(InvitationRow).where(InvitationRow.token_hash == token_hash(token)))
        if invitation is None or invitation.spent_at is not None or invitation.revoked_at is not None:
            raise _invalid_invitation()
        game_name = session.scalar(select(GameRow.name).where(GameRow.id == invitation.game_id))
        assert game_name is not None
        grant: SessionGrant | None = None
        if isinstance(actor, Person):
            account = session.get(AccountRow, actor.account_id)
            if account is None:
                raise NotFound("учётной записи больше нет", "the account no longer exists")
        else:
            account = self._new_account(session, name or invitation.player)
            if sign_in is not None:
                grant = self._new_session(session, account, *sign_in)
        held = session.scalar(select(MemberRow.player).where(
            MemberRow.game_id == invitation.game_id, MemberRow.account_id == account.id, MemberRow.role == "player",
            MemberRow.player != invitation.player))
        if held is not None:
            raise Conflict(f"вы уже занимаете место «{held}» в игре «{game_name}»: одно место на человека",
                           f"you already hold the seat '{held}' in the game '{game_name}': one seat a person")
        now = self.clock()
        invitation.spent_at = now
        invitation.spent_by = account.id
        previous = session.scalar(select(MemberRow.account_id).where(
            MemberRow.game_id == invitation.game_id, MemberRow.player == invitation.player))
        session.execute(delete(MemberRow).where(MemberRow.game_id == invitation.game_id,
                                                MemberRow.player == invitation.player))
        if previous is not None and previous != account.id:
            # the seat changes hands: the tokens its last holder made stop working
            session.execute(_revoke_tokens(ApiTokenRow, invitation.game_id, invitation.player, now))
        session.add(MemberRow(game_id=invitation.game_id, account_id=account.id, role="player",
                              player=invitation.player, created_at=now))
        return Joined(game_name, invitation.player, _person(account), grant)

    def _new_account(self, session: Session, wanted: str) -> AccountRow:
        from sqlalchemy import select

        from voevoda.store.models import AccountRow

        base = _account_name(wanted)
        candidate, k = base, 2
        while session.scalar(select(AccountRow.id).where(AccountRow.name_key == candidate.casefold())) is not None:
            candidate, k = f"{base[:MAX_ACCOUNT_NAME - 4]} ({k})", k + 1
        account = AccountRow(name=candidate, name_key=candidate.casefold(), created_at=self.clock())
        session.add(account)
        session.flush()
        return account

    # -- game masters --------------------------------------------------------------------------

    def add_owner(self, session: Session, game_id: int, actor: Actor) -> None:
        """The creator of a game owns it."""
        if isinstance(actor, Person):
            from voevoda.store.models import MemberRow

            session.add(MemberRow(game_id=game_id, account_id=actor.account_id, role="owner", created_at=self.clock()))

    def game_masters(self, actor: Actor, game: str) -> list[tuple[str, str]]:
        """``(account name, role)`` of the game's owner and co-game-masters."""
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, MemberRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            return [(n, r) for n, r in session.execute(select(AccountRow.name, MemberRow.role).join(
                AccountRow, AccountRow.id == MemberRow.account_id).where(
                MemberRow.game_id == game_id, MemberRow.role.in_(("owner", "co_gm"))).order_by(MemberRow.id)).all()]

    def name_co_gm(self, actor: Actor, game: str, account_name: str) -> None:
        self.access(actor, game).require(Op.NAME_CO_GM)
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, MemberRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            account = session.scalar(select(AccountRow).where(AccountRow.name_key == account_name.strip().casefold()))
            if account is None:
                raise NotFound(f"нет учётной записи «{account_name}»", f"no account named '{account_name}'")
            roles = set(session.scalars(select(MemberRow.role).where(MemberRow.game_id == game_id,
                                                                     MemberRow.account_id == account.id)))
            if roles & {"owner", "co_gm"}:
                raise Conflict(f"«{account.name}» уже ведёт эту игру", f"'{account.name}' already runs this game")
            session.add(MemberRow(game_id=game_id, account_id=account.id, role="co_gm", created_at=self.clock()))

    def remove_co_gm(self, actor: Actor, game: str, account_name: str) -> None:
        self.access(actor, game).require(Op.NAME_CO_GM)
        from sqlalchemy import delete, select

        from voevoda.store.models import AccountRow, MemberRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            account_id = session.scalar(select(AccountRow.id).where(AccountRow.name_key == account_name.strip().casefold()))
            session.execute(delete(MemberRow).where(MemberRow.game_id == game_id, MemberRow.account_id == account_id,
                                                    MemberRow.role == "co_gm"))

    # -- API tokens ------------------------------------------------------------------------------

    def create_api_token(self, actor: Actor, game: str, player: str, label: str = "") -> str:
        """A token for ``player``'s own program (shown once)."""
        self.access(actor, game).require(Op.TOKEN, player)
        from voevoda.store.models import ApiTokenRow

        token = new_token()
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            session.add(ApiTokenRow(token_hash=token_hash(token), game_id=game_id, player=player,
                                    account_id=actor.account_id if isinstance(actor, Person) else None,
                                    label=label.strip()[:100], created_at=self.clock()))
        return token

    def api_tokens(self, actor: Actor) -> list[ApiToken]:
        person = _person_of(actor)
        from sqlalchemy import select

        from voevoda.store.models import ApiTokenRow, GameRow

        with self.store.reads() as session:
            rows = session.execute(select(ApiTokenRow, GameRow.name).join(GameRow, GameRow.id == ApiTokenRow.game_id)
                                   .where(ApiTokenRow.account_id == person.account_id,
                                          ApiTokenRow.revoked_at.is_(None)).order_by(ApiTokenRow.id)).all()
        return [ApiToken(r.id, name, r.player, r.label, _aware(r.created_at)) for r, name in rows]

    def revoke_api_token(self, actor: Actor, token_id: int) -> None:
        person = _person_of(actor)
        from voevoda.store.models import ApiTokenRow

        with self.store.sessions.begin() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.account_id != person.account_id:
                raise NotFound("нет такого ключа", "no such token")
            row.revoked_at = self.clock()

    def token_actor(self, token: str) -> SeatToken | None:
        """The seat behind an API token, or ``None``."""
        from sqlalchemy import select

        from voevoda.store.models import ApiTokenRow, MemberRow

        with self.store.reads() as session:
            row = session.scalar(select(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash(token)))
            if row is None or row.revoked_at is not None:
                return None
            if row.account_id is not None:
                # a token made by a seat's holder works while that account holds the seat
                holder = session.scalar(select(MemberRow.account_id).where(
                    MemberRow.game_id == row.game_id, MemberRow.player == row.player, MemberRow.role == "player"))
                if holder is not None and holder != row.account_id:
                    return None
            return SeatToken(row.id, row.game_id, row.player)

    # -- settings ----------------------------------------------------------------------------

    def settings(self, game: str) -> tuple[bool, str]:
        """``(public, time zone)`` of a game (not a secret: the dashboard shows both)."""
        from voevoda.service.actors import ANONYMOUS

        found = self.context(ANONYMOUS, game)
        return found.public, found.timezone

    def change_settings(self, actor: Actor, game: str, *, public: bool | None = None,
                        timezone: str | None = None) -> None:
        self.access(actor, game).require(Op.MANAGE)
        if timezone is not None:
            check_timezone(timezone)
        from voevoda.store.models import GameSettingsRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            row = session.get(GameSettingsRow, game_id)
            if row is None:
                row = GameSettingsRow(game_id=game_id, is_public=False, timezone="UTC")
                session.add(row)
            if public is not None:
                row.is_public = public
            if timezone is not None:
                row.timezone = timezone


@dataclass(frozen=True)
class _Queries:
    """The reads every request makes, built once (SQLAlchemy then reuses their compiled form)."""

    context: Any
    person_context: Any
    session: Any


_built: _Queries | None = None


def _queries() -> _Queries:
    global _built
    if _built is None:
        from sqlalchemy import bindparam, select

        from voevoda.store.models import AccountRow, GameRow, GameSettingsRow, MemberRow, WebSessionRow

        _built = _Queries(
            context=select(GameRow.id, GameRow.created_at, GameRow.entry_count, GameSettingsRow.is_public,
                           GameSettingsRow.timezone)
            .outerjoin(GameSettingsRow, GameSettingsRow.game_id == GameRow.id)
            .where(GameRow.name == bindparam("name")),
            person_context=select(GameRow.id, GameRow.created_at, GameRow.entry_count, GameSettingsRow.is_public,
                                  GameSettingsRow.timezone, MemberRow.role, MemberRow.player)
            .outerjoin(GameSettingsRow, GameSettingsRow.game_id == GameRow.id)
            .outerjoin(MemberRow, (MemberRow.game_id == GameRow.id) & (MemberRow.account_id == bindparam("account")))
            .where(GameRow.name == bindparam("name")),
            session=select(WebSessionRow.id, WebSessionRow.csrf_token, WebSessionRow.revoked_at,
                           WebSessionRow.expires_at, WebSessionRow.last_seen_at, AccountRow.id, AccountRow.name,
                           AccountRow.can_create_games, AccountRow.lang)
            .join(AccountRow, AccountRow.id == WebSessionRow.account_id)
            .where(WebSessionRow.token_hash == bindparam("hash")))
    return _built


def check_timezone(name: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise GameError(f"неизвестный часовой пояс «{name}» (например, Europe/Moscow)",
                        f"unknown time zone '{name}' (for example Europe/Moscow)") from exc


def _revoke_tokens(table: type, game_id: int, player: str, now: datetime):  # type: ignore[no-untyped-def]
    from sqlalchemy import update

    return update(table).where(table.game_id == game_id, table.player == player,  # type: ignore[attr-defined]
                               table.revoked_at.is_(None)).values(revoked_at=now)  # type: ignore[attr-defined]


def _invalid_invitation() -> NotFound:
    return NotFound("приглашение недействительно: оно уже использовано, отозвано или неверно",
                    "the invitation is not valid: it was used, revoked or is wrong")


def _account_name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > MAX_ACCOUNT_NAME or any(not c.isprintable() for c in name):
        raise GameError(f"имя: от 1 до {MAX_ACCOUNT_NAME} печатных знаков",
                        f"name: 1 to {MAX_ACCOUNT_NAME} printable characters")
    return name


def _person(account: AccountRow) -> Person:
    return Person(account.id, account.name, account.can_create_games)


def _person_of(actor: Actor) -> Person:
    if not isinstance(actor, Person):
        raise Forbidden("нужно войти", "you need to sign in")
    return actor


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes for the UTC ones stored."""
    from datetime import UTC

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


_DUMMY_HASH = ("$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$"
               "0mF3Cml8ZrgZ2NJ0eS6/4l1D4U2TXbN6WbY8o0Wh4aE")


def _verify_quietly(hasher: PasswordHasher, stored: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(hasher.verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


__all__ = ["ApiToken", "GameContext", "Invitation", "Joined", "People", "Seat", "SessionGrant", "SessionInfo", "SignedIn",
           "check_timezone", "new_token", "token_hash"]
