"""Who is asking: the session cookie, API tokens, CSRF and the rate-limit keys.

- **Session cookie** ``voevoda_session``: the session's random token, signed with the
  installation's key (itsdangerous), ``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the server
  is told it is behind HTTPS. The token itself is checked against the database
  (:meth:`Service.signed_in`), again at least every two seconds (:class:`SessionMemory`): revoking
  a session ends it at once in the server process that revoked it, within two seconds in the
  others.
- **API token**: ``Authorization: Bearer <token>`` acts for one seat (:class:`SeatToken`).
- **CSRF**: every state-changing request from a browser carries a token — the hidden field
  ``csrf`` of a form, or the ``X-CSRF-Token`` header that htmx sends (``hx-headers`` on the
  page's body) — equal to the session's (a visitor who is not signed in gets a signed random
  one in the cookie ``voevoda_csrf``). Requests authorised by an API token need none: no
  browser sends that header by itself.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from fastapi import Request
from itsdangerous import BadSignature, URLSafeSerializer

from voevoda.core.errors import GameError
from voevoda.service import ANONYMOUS, Actor, Person, SeatToken, Service
from voevoda.service.errors import Forbidden

SESSION_COOKIE = "voevoda_session"
CSRF_COOKIE = "voevoda_csrf"
LANG_COOKIE = "voevoda_lang"
COOKIE_KEY_SETTING = "cookie_key"


@dataclass
class Visitor:
    """The actor behind a request, and what the pages need to know of it."""

    actor: Actor
    csrf: str
    session_id: int | None = None
    session_token: str | None = None
    lang: str | None = None
    """The language the signed-in person chose on his account page."""
    via_token: bool = False
    new_csrf_cookie: str | None = None
    """A signed CSRF token to set as a cookie (a visitor who was not signed in and had none)."""

    @property
    def person(self) -> Person | None:
        return self.actor if isinstance(self.actor, Person) else None

    @property
    def signed_in(self) -> bool:
        return isinstance(self.actor, Person)

    def limit_keys(self, request: Request) -> tuple[str, str]:
        """The keys a rate limit counts on: the session (or token), and the address."""
        who = f"session:{self.session_id}" if self.session_id is not None else (
            f"token:{self.actor.token_id}" if isinstance(self.actor, SeatToken) else "")
        return who, f"address:{client_address(request)}"


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class Signer:
    """Signs and reads the cookies with the installation's key (kept in the database, so every
    server process of one installation reads the same)."""

    READ_MEMORY = 4096
    """Cookies whose signature was checked, kept with what they say: a browser sends the same
    cookie with every request, and a signed value always reads the same under one key."""

    def __init__(self, key: str) -> None:
        self.sessions = URLSafeSerializer(key, salt="voevoda-session")
        self.csrf = URLSafeSerializer(key, salt="voevoda-csrf")
        self._read: dict[tuple[int, str], str | None] = {}

    def read(self, serializer: URLSafeSerializer, value: str | None) -> str | None:
        if not value:
            return None
        key = (id(serializer), value)
        if key in self._read:
            return self._read[key]
        try:
            loaded = serializer.loads(value)
        except BadSignature:
            return None  # not remembered: a forged cookie costs its sender a check each time
        result = loaded if isinstance(loaded, str) else None
        if len(self._read) >= self.READ_MEMORY:
            self._read.clear()
        self._read[key] = result
        return result


def installation_key(service: Service) -> str:
    """The cookie-signing key of this database, made on first use."""
    from voevoda.store.models import SiteSettingRow

    with service.store.sessions.begin() as session:
        row = session.get(SiteSettingRow, COOKIE_KEY_SETTING)
        if row is None:
            row = SiteSettingRow(key=COOKIE_KEY_SETTING, value=secrets.token_urlsafe(48))
            session.add(row)
        return row.value


def visitor(request: Request, service: Service, signer: Signer) -> Visitor:
    """Who asks: an API token, a signed-in session, or nobody."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        seat = service.token_actor(header[7:].strip())
        if seat is None:
            raise Forbidden("ключ API недействителен или отозван", "the API token is not valid or was revoked")
        return Visitor(seat, csrf="", via_token=True)
    token = signer.read(signer.sessions, request.cookies.get(SESSION_COOKIE))
    if token:
        signed = service.signed_in(token)
        if signed is not None:
            return Visitor(signed.person, signed.csrf, signed.session_id, token, signed.lang)
    csrf = signer.read(signer.csrf, request.cookies.get(CSRF_COOKIE))
    if csrf:
        return Visitor(ANONYMOUS, csrf)
    fresh = secrets.token_hex(32)
    return Visitor(ANONYMOUS, fresh, new_csrf_cookie=signer.csrf.dumps(fresh))


def check_csrf(request: Request, who: Visitor, form_token: str | None) -> None:
    """Refuse a state-changing request whose CSRF token is missing or wrong."""
    if who.via_token:
        return
    given = request.headers.get("x-csrf-token") or form_token or ""
    if not who.csrf or not hmac.compare_digest(given, who.csrf):
        raise CsrfRefused()


class CsrfRefused(GameError):
    def __init__(self) -> None:
        super().__init__("форма устарела или пришла не с этого сайта: обновите страницу и попробуйте снова",
                         "the form is stale or did not come from this site: reload the page and try again")


__all__ = ["CSRF_COOKIE", "LANG_COOKIE", "SESSION_COOKIE", "CsrfRefused", "Signer", "Visitor", "check_csrf",
           "client_address", "installation_key", "visitor"]
