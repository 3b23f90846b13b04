"""The web application: ``voevoda serve``.

FastAPI on uvicorn; pages rendered on the server from Jinja2 templates, readable without
JavaScript, with htmx (vendored, ``static/vendor``) for the live echo of the order form and the
odds calculator's progress; a JSON API under ``/api/v1`` with its OpenAPI description at
``/api/v1/openapi.json``. Every handler reads its input, calls one operation of
:class:`voevoda.service.Service` with the visitor's actor, and renders what comes back: no
permission is checked and no SQL is written here.

Every response carries a Content-Security-Policy that allows scripts, styles and images from
this server only (no inline script), denies framing and sniffing, and sends no referrer (links
carry secrets: invitations, login links). Request bodies are capped (:data:`BODY_LIMITS`).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from voevoda.core.errors import AlreadyDone, DataError, GameError, OrdersRejected
from voevoda.service import Service
from voevoda.service.errors import Conflict, Forbidden, NotFound, RateLimited
from voevoda.web.auth import CsrfRefused, Signer, installation_key

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"

KB = 1024
BODY_LIMITS: tuple[tuple[str, int], ...] = (
    ("/games/import", 64 * KB * KB),
    ("/api/v1/import", 64 * KB * KB),
    ("/games/new", 2 * KB * KB),
    ("/api/v1/games", 2 * KB * KB),
    ("/", 256 * KB),
)
"""The largest request body per path prefix (first match): an import carries a whole game, a
new game its config and house rules; everything else — a post is at most 64 KB — fits in 256 KB."""

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")


@dataclass
class WebSettings:
    """How the server runs: the database, the address printed in links, cookies over HTTPS."""

    db: str | None = None
    base_url: str = "http://127.0.0.1:8000"
    secure_cookies: bool = False
    throttles: dict[str, tuple[int, float]] = field(default_factory=dict)
    rate_limits: bool = True
    """Off only for a load test on loopback (``voevoda serve --no-rate-limits``)."""
    worker_poll: float | None = None
    """Run the deadline worker in this process, on the app's own service, every so many seconds
    (``voevoda serve`` with one server process): the worker then reads the games the pages hold
    in memory, and its writes queue in line with the posts' (:meth:`Service.writing`)."""


def create_app(settings: WebSettings | None = None, service: Service | None = None,
               signing_key: str | None = None) -> FastAPI:
    """The app over ``service`` (by default one on ``settings.db``); cookies are signed with the
    installation's key kept in the database, or ``signing_key``."""
    settings = settings or WebSettings()
    if service is None:
        from voevoda.clock.worker import CACHE_SIZE
        from voevoda.service import DEFAULT_CACHE_SIZE

        service = Service(settings.db, throttles=settings.throttles, rate_limits=settings.rate_limits,
                          cache_size=CACHE_SIZE if settings.worker_poll else DEFAULT_CACHE_SIZE)
    app = FastAPI(title="voevoda", version=_version(), docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=_with_worker(service, settings.worker_poll) if settings.worker_poll else None)
    app.state.service = service
    app.state.settings = settings
    app.state.signer = Signer(signing_key or installation_key(service))

    from voevoda.web import api, clock_pages, notify_pages, pages, telegram

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in (pages.router, clock_pages.router, telegram.router, notify_pages.router):
        add_routes(app, router)
    app.mount("/api/v1", api.create_api(app))
    index_routes(app)
    app.add_middleware(_OneSnapshot, service=service)
    app.add_middleware(_BodyLimit)
    app.add_middleware(_Security)  # added last, so outermost: on every response, a 413 included
    install_error_handlers(app)
    return app


def _with_worker(service: Service, poll: float) -> Callable[[FastAPI], Any]:
    """The app's lifespan: the deadline worker on ``service`` in a thread while the app serves."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> Any:
        from voevoda.clock.worker import deliver_outbox, start_in_thread

        thread, stop = start_in_thread(service, poll=poll, deliver=deliver_outbox)
        try:
            yield
        finally:
            stop.set()
            thread.join(timeout=30)

    return lifespan


def add_routes(app: FastAPI, router: APIRouter) -> None:
    """The routes of ``router`` as the app's own. ``include_router`` keeps a router as one route
    that is matched twice on every request (once to choose it, again to choose within it), a
    tenth of a page's CPU; these routers have no prefix, dependencies or settings of their own to
    be combined, so their routes are the app's unchanged."""
    app.router.routes.extend(router.routes)


def index_routes(app: FastAPI) -> None:
    """The app's routes behind one :class:`~voevoda.web.routing.RouteIndex`: a request tries only
    the routes whose literal segments fit its path, in their order (the same route is chosen)."""
    from voevoda.web.routing import RouteIndex

    routes = list(app.router.routes)
    app.router.routes.clear()
    app.router.routes.append(RouteIndex(routes))


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal as a page or as JSON, with the command line's words; never a traceback."""
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(DataError, _game_error)
    app.add_exception_handler(OrdersRejected, _game_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected)


def from_environment() -> FastAPI:
    """The app for ``uvicorn --factory`` with several workers: settings from the environment that
    ``voevoda serve`` sets."""
    poll = os.environ.get("VOEVODA_WORKER_POLL")
    app = create_app(WebSettings(db=os.environ.get("VOEVODA_DATABASE_URL"),
                                 base_url=os.environ.get("VOEVODA_BASE_URL", "http://127.0.0.1:8000"),
                                 secure_cookies=os.environ.get("VOEVODA_SECURE_COOKIES") == "1",
                                 rate_limits=os.environ.get("VOEVODA_RATE_LIMITS") != "off",
                                 worker_poll=float(poll) if poll else None))
    settle_garbage_collector()
    return app


OLDEST_GENERATION_PATIENCE = 100
"""Collections of the middle generation between two of the oldest (Python's default: 10)."""


def settle_garbage_collector() -> None:
    """A server process, once started: what it loaded to serve (modules, rules, templates, about
    175,000 objects) is set aside from the garbage collector's scans (``gc.freeze``), and the
    oldest generation — a scan of every object the process holds, the games its cache keeps
    included, 60 to 160 ms during which no request is answered — runs ten times less often.
    Short-lived objects are collected as before (docs/web.md, «Reading fast»)."""
    import gc

    gc.collect()  # nothing that is garbage already is set aside with the rest
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, OLDEST_GENERATION_PATIENCE)


def _version() -> str:
    from voevoda import __version__

    return __version__


# -- errors: the same words as the command line, as a page or as JSON ------------------------------

STATUS = ((RateLimited, 429), (NotFound, 404), (Forbidden, 403), (CsrfRefused, 403), (Conflict, 409),
          (AlreadyDone, 409))


def status_of(exc: BaseException) -> int:
    for kind, code in STATUS:
        if isinstance(exc, kind):
            return code
    if isinstance(exc, OrdersRejected):
        return 422
    from voevoda.store.db import NotStored

    if isinstance(exc, NotStored):
        return 503
    return 400


def error_json(exc: BaseException) -> dict[str, Any]:
    code = status_of(exc)
    body: dict[str, Any] = {"status": code}
    if isinstance(exc, OrdersRejected):
        body.update(kind="rejected", message_ru="приказы не приняты", message_en="orders rejected",
                    problems=[p.to_json() for p in exc.problems], understood=list(exc.understood))
    elif isinstance(exc, GameError):
        body.update(kind=type(exc).__name__, message_ru=exc.message_ru, message_en=exc.message_en)
    else:
        body.update(kind="invalid", message_ru=str(exc), message_en=str(exc))
    return {"error": body}


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


async def _game_error(request: Request, exc: Exception) -> Response:
    code = status_of(exc)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    if _wants_json(request):
        return JSONResponse(error_json(exc), status_code=code, headers=headers)
    from voevoda.web.pages import error_page

    return await error_page(request, exc, code, headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if _wants_json(request):
        return JSONResponse({"error": {"status": exc.status_code, "kind": "http", "message_ru": str(exc.detail),
                                       "message_en": str(exc.detail)}}, status_code=exc.status_code)
    from voevoda.web.pages import error_page

    return await error_page(request, GameError(str(exc.detail), str(exc.detail)), exc.status_code)


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body", "query", "form"))
        problems.append(f"{where}: {error.get('msg', 'invalid')}")
    message = "; ".join(problems) or "invalid request"
    if _wants_json(request):
        return JSONResponse({"error": {"status": 422, "kind": "invalid", "message_ru": "неверный запрос: " + message,
                                       "message_en": "invalid request: " + message}}, status_code=422)
    from voevoda.web.pages import error_page

    return await error_page(request, GameError("неверный запрос: " + message, "invalid request: " + message), 422)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """A fault of ours: said plainly, never a traceback (it goes to the server's log)."""
    import logging

    logging.getLogger("voevoda.web").exception("unexpected error on %s %s", request.method, request.url.path)
    error = GameError("внутренняя ошибка сервера; ведущий может найти её в журнале сервера",
                      "internal server error; the game master can find it in the server's log")
    if _wants_json(request):
        return JSONResponse({"error": {"status": 500, "kind": "internal", "message_ru": error.message_ru,
                                       "message_en": error.message_en}}, status_code=500)
    from voevoda.web.pages import error_page

    return await error_page(request, error, 500)


# -- middleware ---------------------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class _Security:
    """Security headers on every response."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                named = {k.lower() for k, _ in headers}
                # a response with a stricter policy of its own keeps it (an SVG map: nothing runs)
                if b"content-security-policy" not in named:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin")]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


class _OneSnapshot:
    """A request's plain reads (who the visitor is, what he holds in the game, the deadline card)
    share one database connection and one snapshot (:meth:`voevoda.store.db.Store.snapshot`)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").startswith("/static/"):
            await self.app(scope, receive, send)
            return
        store = self.service.store

        async def receiving() -> Message:
            store.pause_snapshot()
            return await receive()

        async def sending(message: Message) -> None:
            store.pause_snapshot()
            await send(message)

        with store.snapshot():
            await self.app(scope, receiving, sending)


class _BodyLimit:
    """Refuse a request whose body is larger than its path allows (:data:`BODY_LIMITS`), before
    it is read into memory: by its Content-Length, or as its chunks arrive."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "/")
        limit = next(size for prefix, size in BODY_LIMITS if path.startswith(prefix))
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(send, limit)
            return
        seen = 0
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            if refused:
                await _too_large(send, limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    import json

    kb = limit // KB
    body = json.dumps({"error": {"status": 413, "kind": "too_large",
                                 "message_ru": f"запрос больше {kb} КБ", "message_en": f"the request is over {kb} KB"}},
                      ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BODY_LIMITS", "CSP", "WebSettings", "create_app", "error_json", "from_environment",
           "install_error_handlers", "status_of"]
