"""Every HTTP response as an output channel (issue 25, «Security»: «the non-interference test runs
over HTTP too, as every role, through the same list of channels in core/outputs.py»).

:func:`register` adds to :data:`voevoda.core.outputs.CHANNELS` one channel per kind of response a
viewer can get from the web app — the pages, the htmx fragments of the order form, the JSON API,
the files (maps, reports as text, the public export the dice page reads). Each renders a real HTTP
request through the whole app (routing, the service's access checks, templates, headers) against
a service that holds just the one game, signed in as the viewer; the answer is its status line,
its headers that could carry information and its body. So a test that walks the channels for a
viewer (tests/core/noninterference.py) compares what that viewer's browser would receive.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote

from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.service import Access, Actor, GameListing, Person, Service
from voevoda.service.errors import not_found_game
from voevoda.service.people import GameContext, SignedIn

CSRF = "0" * 64
KEY = "voevoda-channels"


class OneGame(Service):
    """A service over one game in memory, for one viewer: the viewer's seat (or the public),
    the game public so that the public may read it."""

    def __init__(self) -> None:
        super().__init__(None, cache_size=0)
        self.game: Game | None = None
        self.viewer: Viewer = PUBLIC

    def bind(self, game: Game, viewer: Viewer) -> None:
        self.game, self.viewer = game, viewer

    def _game(self, name: str, version: tuple[int, str, int] | None = None) -> Game:
        if self.game is None or name != self.game.record.name:
            raise not_found_game(name)
        return self.game

    def context(self, actor: Actor, game: str) -> GameContext:
        self._game(game)
        seats = frozenset({self.viewer}) if isinstance(actor, Person) and self.viewer not in (GM, PUBLIC) else frozenset()
        access = Access(actor, game, co_gm=isinstance(actor, Person) and self.viewer == GM, seats=seats, public=True)
        return GameContext(access, True, "UTC", None)

    def signed_in(self, token: str) -> SignedIn | None:
        if self.viewer == PUBLIC:
            return None
        return SignedIn(Person(1, str(self.viewer)), 1, CSRF)

    def language(self, actor: Actor) -> str | None:
        return None

    def throttle(self, what: str, *keys: str) -> None:
        """No rate limit: the test walks thousands of requests from one «browser»."""

    def games(self, actor: Actor) -> list[GameListing]:
        assert self.game is not None
        roles = (f"seat:{self.viewer}",) if self.viewer not in (GM, PUBLIC) else ()
        return [GameListing(self.game.record.name, self.game.record.ruleset, self.game.step_number, roles, True)]


class _Client:
    """The app over a :class:`OneGame`, made once."""

    def __init__(self) -> None:
        from voevoda.web.app import WebSettings, create_app

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from fastapi.testclient import TestClient
        self.service = OneGame()
        self.app = create_app(WebSettings(base_url="http://voevoda"), service=self.service, signing_key=KEY)
        self.client = TestClient(self.app, base_url="http://voevoda", raise_server_exceptions=False)
        signer = self.app.state.signer
        self.session = signer.sessions.dumps("session")
        self.csrf_cookie = signer.csrf.dumps(CSRF)

    def request(self, game: Game, viewer: Viewer, method: str, url: str, data: dict[str, Any] | None = None,
                json: Any = None) -> str:
        self.service.bind(game, viewer)
        self.client.cookies.clear()
        self.client.cookies.set("voevoda_csrf", self.csrf_cookie)
        if viewer != PUBLIC:
            self.client.cookies.set("voevoda_session", self.session)
        headers = {"X-CSRF-Token": CSRF, "Accept-Language": "ru"}
        response = self.client.request(method, url, data=data, json=json, headers=headers)
        shown = [f"{k}: {v}" for k, v in sorted(response.headers.items())
                 if k.lower() not in ("date", "server", "content-length")]
        body: str = response.text
        return f"{response.status_code}\n" + "\n".join(shown) + "\n\n" + body


_client: _Client | None = None


def client() -> _Client:
    global _client
    if _client is None:
        _client = _Client()
    return _client


def _as(viewer: Viewer) -> str:
    return "" if viewer == PUBLIC else f"as={quote(str(viewer))}&"


def _pages(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[dict[str, Any]]:
    """The responses the web app adds to the engine's channels: the game's page (seats, prompts),
    the order form (the standing post), the overview, the report page, the chronicle and the API's
    dashboard. Those that only wrap another channel's output (the map as SVG or PNG, the report
    as text to paste, the export the dice page reads, past turns) are walked with ``all_pages``."""
    g = quote(game.record.name)
    who = _as(viewer)
    urls = [f"/g/{g}?{who}", f"/g/{g}/orders?{who}", f"/g/{g}/view?{who}", f"/g/{g}/reports?{who}",
            f"/api/v1/games/{g}?{who}", f"/api/v1/games/{g}/posts/{quote(str(viewer))}"]
    return [{"url": url} for url in urls]


def all_pages(game: Game, viewer: Viewer) -> list[str]:
    """Every page, file and API resource a viewer can ask for, past turns included (the thorough
    list, for a test at one moment)."""
    g = quote(game.record.name)
    who = _as(viewer)
    urls = [f"/?{who}", f"/g/{g}?{who}", f"/g/{g}/orders?{who}", f"/g/{g}/view?{who}", f"/g/{g}/map.svg?{who}lang=ru",
            f"/g/{g}/reports?{who}", f"/g/{g}/chronicle", f"/g/{g}/dice", f"/g/{g}/export.json",
            f"/api/v1/games/{g}?{who}", f"/api/v1/games/{g}/status?{who}", f"/api/v1/games/{g}/view?{who}",
            f"/api/v1/games/{g}/outline?{who}", f"/api/v1/games/{g}/reports?{who}", f"/api/v1/games/{g}/map?{who}",
            f"/api/v1/games/{g}/export", f"/api/v1/games/{g}/posts/{quote(str(viewer))}", f"/g/{g}/manage"]
    for turn in sorted({step.turn for step in game.steps}):
        urls += [f"/g/{g}/reports?{who}turn={turn}", f"/g/{g}/reports/{turn}.bbcode?{who}",
                 f"/g/{g}/chronicle?turn={turn}", f"/g/{g}/map.svg?{who}turn={turn}",
                 f"/api/v1/games/{g}/reports/{turn}?{who}format=telegram"]
    return urls


def page(game: Game, viewer: Viewer, url: str, turn: int | None = None) -> str:
    """What the viewer's browser gets for ``GET url``."""
    return client().request(game, viewer, "GET", url)


def _checks(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[dict[str, Any]]:
    return [{"text": text} for text in posts[:2]] if viewer not in (GM, PUBLIC) else []


def check(game: Game, viewer: Viewer, text: str, api: bool = False) -> str:
    """What the order form's live echo (an htmx fragment) or the API's check gives the viewer."""
    g = quote(game.record.name)
    if api:
        return client().request(game, viewer, "POST", f"/api/v1/games/{g}/posts/check",
                                json={"player": viewer, "text": text})
    return client().request(game, viewer, "POST", f"/g/{g}/orders/check",
                            data={"player": viewer, "text": text, "csrf": CSRF})


NAMES = ("web page", "web check")


def register() -> None:
    """Add the web app's channels to :data:`voevoda.core.outputs.CHANNELS` (once)."""
    if "web page" in outputs.CHANNELS:
        return
    outputs.channel("web page", "GET any page, fragment, file or API resource of the web app", variants=_pages)(page)
    outputs.channel("web check", "POST /g/GAME/orders/check and /api/v1/games/GAME/posts/check",
                    variants=_checks)(check)


def unregister() -> None:
    for name in NAMES:
        outputs.CHANNELS.pop(name, None)


__all__ = ["NAMES", "OneGame", "all_pages", "check", "page", "register", "unregister"]
