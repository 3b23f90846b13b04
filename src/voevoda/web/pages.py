"""The pages: each handler reads the request, calls one operation of the service with the
visitor's actor, and renders what comes back (docs/web.md lists every page and who sees it)."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse

from voevoda.core import outputs
from voevoda.core.errors import DataError, GameError, OrdersRejected
from voevoda.core.markup import FLAVOURS
from voevoda.core.ruleset import GM, PUBLIC
from voevoda.service import Service, Sight
from voevoda.service.errors import NotFound
from voevoda.web.auth import LANG_COOKIE, SESSION_COOKIE, Visitor, check_csrf, client_address, visitor
from voevoda.web.i18n import LANGS, pick_language
from voevoda.web.render import (
    ENV,
    Blocks,
    Here,
    blocks_of,
    fragment,
    fragment_of,
    kept_blocks,
    page,
    remember,
)

router = APIRouter()

MAX_FORM_TEXT = 64 * 1024
CLOCK_PAGES = frozenset({"game.html.j2", "orders.html.j2", "manage.html.j2"})


async def here(request: Request) -> Here:
    """The visitor and language of a request (a dependency of every page). It runs on the event
    loop: a few reads of the database, which never wait for a writer (SQLite's WAL, PostgreSQL's
    snapshots)."""
    service: Service = request.app.state.service
    who = visitor(request, service, request.app.state.signer)
    asked = request.query_params.get("lang")
    lang = pick_language(asked, request.cookies.get(LANG_COOKIE), who.lang, request.headers.get("accept-language"))
    return Here(request, who, lang, set_lang_cookie=asked in LANGS)


Ctx = Annotated[Here, Depends(here)]


def service_of(h: Here) -> Service:
    svc: Service = h.request.app.state.service
    return svc


async def error_page(request: Request, exc: BaseException, status: int,
                     headers: dict[str, str] | None = None) -> Response:
    try:
        h = await here(request)
    except GameError:
        from voevoda.service import ANONYMOUS

        h = Here(request, Visitor(ANONYMOUS, ""), "ru")
    if isinstance(exc, OrdersRejected):
        message_ru, message_en = "приказы не приняты", "orders rejected"
    elif isinstance(exc, GameError):
        message_ru, message_en = exc.message_ru, exc.message_en
    else:
        message_ru = message_en = str(exc)
    return page(h, "error.html.j2", status=status, headers=headers, status_code=status,
                message=h.both(message_ru, message_en))


def _redirect(h: Here, url: str) -> Response:
    response = RedirectResponse(url, status_code=303)
    remember(h, response)
    return response


def _form_text(value: str, what: str) -> str:
    if len(value) > MAX_FORM_TEXT:
        raise GameError(f"{what}: больше 64 КБ", f"{what}: over 64 KB")
    return value


# -- home, signing in -------------------------------------------------------------------------------

@router.get("/", response_class=HTMLResponse)
async def home(h: Ctx) -> Response:
    games = service_of(h).games(h.who.actor)
    mine = [g for g in games if g.roles]
    public = [g for g in games if not g.roles]
    return page(h, "home.html.j2", mine=mine, public=public)


@router.get("/login", response_class=HTMLResponse)
async def login_form(h: Ctx) -> Response:
    return page(h, "login.html.j2", failed=None)


@router.post("/login")
def login(h: Ctx, name: Annotated[str, Form(max_length=200)], password: Annotated[str, Form(max_length=1024)],
          csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("login", *h.who.limit_keys(h.request))
    try:
        grant = service.sign_in_with_password(name, password, h.request.headers.get("user-agent", ""),
                                              client_address(h.request))
    except GameError as exc:
        return page(h, "login.html.j2", status=401, failed=h.both(exc.message_ru, exc.message_en))
    return _signed_in(h, grant.token, "/")


@router.get("/login/{token}", response_class=HTMLResponse)
def login_link_page(h: Ctx, token: str) -> Response:
    # a GET never spends the link: mail and chat previews open links by themselves
    return page(h, "login_link.html.j2", token=token)


@router.post("/login/{token}")
def login_link(h: Ctx, token: str, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("login", *h.who.limit_keys(h.request))
    grant = service.sign_in_with_link(token, h.request.headers.get("user-agent", ""), client_address(h.request))
    return _signed_in(h, grant.token, "/")


def _signed_in(h: Here, token: str, to: str) -> Response:
    response = _redirect(h, to)
    response.set_cookie(SESSION_COOKIE, h.request.app.state.signer.sessions.dumps(token), httponly=True,
                        samesite="lax", secure=h.request.app.state.settings.secure_cookies, max_age=30 * 24 * 3600)
    return response


@router.post("/logout")
def logout(h: Ctx, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    if h.who.session_token:
        service_of(h).sign_out(h.who.session_token)
    response = _redirect(h, "/")
    response.delete_cookie(SESSION_COOKIE)
    return response


# -- invitations ----------------------------------------------------------------------------------

@router.get("/join/{token}", response_class=HTMLResponse)
def join_page(h: Ctx, token: str) -> Response:
    invitation = service_of(h).invitation(token)
    return page(h, "join.html.j2", token=token, invitation=invitation)


@router.post("/join/{token}")
def join(h: Ctx, token: str, csrf: Annotated[str, Form()] = "",
         name: Annotated[str, Form(max_length=200)] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("join", *h.who.limit_keys(h.request))
    joined = service.join(token, h.who.actor, name.strip() or None, h.request.headers.get("user-agent", ""),
                          client_address(h.request))
    to = h.url(f"/g/{joined.game}/orders")
    if joined.grant is not None:
        return _signed_in(h, joined.grant.token, to)
    return _redirect(h, to)


# -- the account ----------------------------------------------------------------------------------

@router.get("/account", response_class=HTMLResponse)
def account(h: Ctx, token: str | None = None) -> Response:
    service = service_of(h)
    if not h.who.signed_in:
        return _redirect(h, "/login")
    seats = [(g.name, role.removeprefix("seat:")) for g in service.games(h.who.actor) for role in g.roles
             if role.startswith("seat:")]
    return page(h, "account.html.j2", sessions=service.sessions(h.who.actor, h.who.session_id),
                tokens=service.api_tokens(h.who.actor), seats=seats, new_token=None)


@router.post("/account/password")
def account_password(h: Ctx, password: Annotated[str, Form(max_length=1024)],
                     csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).set_password(h.who.actor, password)
    return _redirect(h, "/account")


@router.post("/account/language")
def account_language(h: Ctx, language: Annotated[str, Form(max_length=8)], csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).set_language(h.who.actor, language if language in LANGS else None)
    response = _redirect(h, "/account")
    if language in LANGS:
        response.set_cookie(LANG_COOKIE, language, max_age=365 * 24 * 3600, samesite="lax", httponly=True)
    return response


@router.post("/account/sessions/{session_id}/revoke")
def account_revoke_session(h: Ctx, session_id: int, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).revoke_session(h.who.actor, session_id)
    return _redirect(h, "/account")


@router.post("/account/tokens", response_class=HTMLResponse)
def account_new_token(h: Ctx, seat: Annotated[str, Form(max_length=500)], label: Annotated[str, Form(max_length=100)] = "",
                      csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    game, _, player = seat.partition("\n")
    token = service.create_api_token(h.who.actor, game, player, label)
    seats = [(g.name, role.removeprefix("seat:")) for g in service.games(h.who.actor) for role in g.roles
             if role.startswith("seat:")]
    return page(h, "account.html.j2", sessions=service.sessions(h.who.actor, h.who.session_id),
                tokens=service.api_tokens(h.who.actor), seats=seats, new_token=token)


@router.post("/account/tokens/{token_id}/revoke")
def account_revoke_token(h: Ctx, token_id: int, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).revoke_api_token(h.who.actor, token_id)
    return _redirect(h, "/account")


# -- a game -------------------------------------------------------------------------------------------

def _sight(h: Here, game: str, viewer: str | None) -> Sight:
    return service_of(h).sight(h.who.actor, game, viewer or None)


def _game_page(h: Here, template: str, sight: Sight, status: int = 200, *,
               keep: tuple[Any, ...] | None = None, over_posts: bool = False,
               make: Callable[[], dict[str, Any]] | None = None, **context: Any) -> Response:
    """A page of the game: its tabs, then the template. With ``keep``, the template's blocks are
    rendered once for every visitor who holds the same in the game and looks through the same
    eyes, in the same language, with the same ``keep`` (what else the page's context depends
    on), and kept with the game's version (:meth:`Sight.rendered`; ``over_posts``: no post can
    change them); ``make`` gives the context, called only when they are rendered."""
    board = sight.dashboard()
    holds = (sight.access.is_gm, tuple(sorted(sight.access.seats)))
    nav = sight.rendered(("nav", h.lang, holds), lambda: fragment_of(h.lang, "_game_nav.html.j2", sight=sight,
                                                                     board=board), over_posts=True)
    if keep is not None:
        def render() -> Blocks:
            return kept_blocks(h.lang, template, sight=sight, board=board, nav=nav, **(make() if make else {}),
                               **context)

        blocks = sight.rendered(("page", template, h.lang, holds, *keep), render, over_posts=over_posts)
        return page(h, template, status=status, kept=blocks)
    if make is not None:
        context.update(make())
    if template in CLOCK_PAGES and "clock" not in context:  # the deadline and who is ready (docs/clock.md)
        from voevoda.web.clock_pages import clock_context

        context.update(clock_context(h, sight, template))
    return page(h, template, status=status, sight=sight, board=board, nav=nav, **context)


@router.get("/g/{game}", response_class=HTMLResponse)
async def dashboard(h: Ctx, game: str) -> Response:
    sight = _sight(h, game, h.request.query_params.get("as"))
    from voevoda.web.clock_pages import clock_context

    clock = clock_context(h, sight, "game.html.j2")  # the deadline card: read again for every request
    scheduled = clock["clock"].scheduled
    # the seats and the status follow the game's version (who has posted) and the viewer alone
    cards = sight.rendered(("game-cards", h.lang, scheduled), lambda: blocks_of(
        h.lang, "_game_cards.html.j2", ("seats", "status"), board=sight.dashboard(), status_text=sight.status(),
        scheduled=scheduled))
    return _game_page(h, "game.html.j2", sight, cards=cards, **clock)


@router.get("/g/{game}/orders", response_class=HTMLResponse)
async def orders_page(h: Ctx, game: str) -> Response:
    sight = _sight(h, game, h.request.query_params.get("as"))
    return _orders(h, sight, text=None, echo=None)


def _orders(h: Here, sight: Sight, text: str | None, echo: outputs.Echo | None, status: int = 200) -> Response:
    """The order form for the viewer's seat (the game master picks the seat with ``?as=``)."""
    seat = sight.viewer if sight.viewer not in (GM, PUBLIC) else None
    standing = sight.standing_post()
    if text is None and standing is not None:
        text = standing.text
    return _game_page(h, "orders.html.j2", sight, status=status, seat=seat, standing=standing, text=text or "",
                      echo=echo)


@router.post("/g/{game}/orders/check", response_class=HTMLResponse)
async def orders_check(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
                 text: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "") -> Response:
    """The live echo (htmx, debounced as the player types): the echo fragment alone."""
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("check", *h.who.limit_keys(h.request))
    echo = _echo(service, h, game, player, _form_text(text, "text"), store=False)
    return fragment(h, "echo.html.j2", echo=echo)


@router.post("/g/{game}/orders", response_class=HTMLResponse)
def orders_post(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
                text: Annotated[str, Form()] = "", step: Annotated[int | None, Form()] = None,
                action: Annotated[str, Form(max_length=10)] = "send", csrf: Annotated[str, Form()] = "") -> Response:
    """Send (or, with ``action=check``, only check — the form without JavaScript) a post."""
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    text = _form_text(text, "text")
    store = action != "check"
    service.throttle("post" if store else "check", *h.who.limit_keys(h.request))
    echo = _echo(service, h, game, player, text, store=store, step=step)
    sight = _sight(h, game, player)
    return _orders(h, sight, text=text, echo=echo, status=200 if echo.accepted else 422)


def _echo(service: Service, h: Here, game: str, player: str, text: str, *, store: bool,
          step: int | None = None) -> outputs.Echo:
    return service.echo(h.who.actor, game, player, text, store=store, step=step)


@router.get("/g/{game}/view", response_class=HTMLResponse)
async def view_page(h: Ctx, game: str) -> Response:
    sight = _sight(h, game, h.request.query_params.get("as"))
    return _game_page(h, "view.html.j2", sight, keep=(), make=lambda: {"outline": sight.show()})


@router.get("/g/{game}/map.svg")
async def map_svg(h: Ctx, game: str, turn: int | None = None) -> Response:
    sight = _sight(h, game, h.request.query_params.get("as"))
    svg = sight.map_svg(h.lang, turn)
    if svg is None:
        raise NotFound("у этой игры нет карты", "this game has no map")
    return Response(svg, media_type="image/svg+xml",
                    headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:"})


@router.get("/g/{game}/map.png")
def map_png(h: Ctx, game: str, turn: int | None = None, zoom: float = 1.5) -> Response:
    if not 0.1 <= zoom <= 4:
        raise GameError("zoom: от 0.1 до 4", "zoom: from 0.1 to 4")
    sight = _sight(h, game, h.request.query_params.get("as"))
    png = sight.map_png(h.lang, turn, zoom)
    if png is None:
        raise NotFound("у этой игры нет карты", "this game has no map")
    name = f"{sight.name}-{sight.viewer}-{turn or 'now'}.png"
    from urllib.parse import quote

    return Response(png, media_type="image/png",
                    headers={"Content-Disposition": f"inline; filename*=UTF-8''{quote(name)}"})


@router.get("/g/{game}/reports", response_class=HTMLResponse)
async def reports_page(h: Ctx, game: str, turn: int | None = None) -> Response:
    sight = _sight(h, game, h.request.query_params.get("as"))

    def report() -> dict[str, Any]:
        turns = sight.turns()
        shown = turn if turn is not None else (turns[-1] if turns else None)
        body = sight.report(shown, "html", h.lang) if shown is not None else None
        return {"turns": turns, "shown": shown, "body": body}

    return _game_page(h, "reports.html.j2", sight, keep=(turn,), over_posts=True, make=report)


@router.get("/g/{game}/reports/{turn}.{fmt}")
def report_file(h: Ctx, game: str, turn: int, fmt: str, flavour: str | None = None) -> Response:
    """A report as text to paste: ``.txt``, ``.bbcode``, ``.md``, ``.telegram``."""
    formats = {"txt": "text", "bbcode": "bbcode", "md": "markdown", "telegram": "telegram"}
    if fmt not in formats:
        raise NotFound("нет такого формата (txt, bbcode, md, telegram)", "no such format (txt, bbcode, md, telegram)")
    sight = _sight(h, game, h.request.query_params.get("as"))
    text = sight.report(turn, formats[fmt], h.lang, flavour)
    return Response(text, media_type="text/plain; charset=utf-8")


@router.get("/g/{game}/chronicle", response_class=HTMLResponse)
async def chronicle_page(h: Ctx, game: str, turn: int | None = None) -> Response:
    sight = _sight(h, game, PUBLIC)

    def chronicle() -> dict[str, Any]:
        turns = sight.turns()
        shown = turn if turn is not None else (turns[-1] if turns else None)
        copies: list[tuple[str, str, str]] = []
        body = None
        if shown is not None:
            body = sight.report(shown, "html", h.lang)
            for fmt in ("bbcode", "markdown", "telegram"):
                for flavour in FLAVOURS[fmt]:
                    copies.append((fmt, flavour, sight.report(shown, fmt, h.lang, flavour)))
        return {"turns": turns, "shown": shown, "body": body, "copies": copies}

    return _game_page(h, "chronicle.html.j2", sight, keep=(turn,), over_posts=True, make=chronicle)


@router.get("/g/{game}/dice", response_class=HTMLResponse)
async def dice_page(h: Ctx, game: str) -> Response:
    sight = _sight(h, game, PUBLIC)
    return _game_page(h, "dice.html.j2", sight, keep=(), over_posts=True)


@router.get("/g/{game}/export.json")
def export_json(h: Ctx, game: str, full: bool = False) -> Response:
    data = service_of(h).export(h.who.actor, game, full=full)
    body = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
    from urllib.parse import quote

    name = f"{game}{'-full' if full else ''}.json"
    return Response(body, media_type="application/json; charset=utf-8",
                    headers={"Content-Disposition": f"inline; filename*=UTF-8''{quote(name)}"})


# -- the game master's pages ---------------------------------------------------------------------

@router.get("/g/{game}/manage", response_class=HTMLResponse)
def manage_page(h: Ctx, game: str) -> Response:
    return _manage(h, game)


def _manage(h: Here, game: str, status: int = 200, **extra: Any) -> Response:
    service = service_of(h)
    sight = service.sight(h.who.actor, game, GM)
    seats = service.seats(h.who.actor, game, sight.players, sight.bots)
    masters = service.game_masters(h.who.actor, game)
    public, timezone = service.settings(game)
    frozen = service.frozen_seats(h.who.actor, game)
    context: dict[str, Any] = {"seats": seats, "masters": masters, "public": public, "timezone": timezone,
                               "frozen": frozen, "invite_link": None, "invited": None, "preview": None,
                               "patch_text": "", "message": None, "base_url": h.request.app.state.settings.base_url,
                               "telegram": _telegram_card(h, game), "tg_link": None, "tg_code": None,
                               "invite_telegram": None, "thread": None, "thread_form": {}, "thread_stored": None,
                               "forum_names": service.forum_names(h.who.actor, game)}
    context.update(extra)
    return _game_page(h, "manage.html.j2", sight, status=status, **context)


@router.post("/g/{game}/manage/invite", response_class=HTMLResponse)
def manage_invite(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
                  csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    players = service.sight(h.who.actor, game, GM).players
    token = service.invite(h.who.actor, game, player, players)
    link = h.request.app.state.settings.base_url.rstrip("/") + "/join/" + token
    from voevoda.chat.telegram.links import deep_link

    return _manage(h, game, invite_link=link, invited=player,
                   invite_telegram=deep_link(service.telegram_username(), token))


def _telegram_card(h: Here, game: str) -> dict[str, Any]:
    """The game master's Telegram card: the bot (its name once it has run), the game's group,
    and for the installation's game master whether a token is set."""
    import os

    from voevoda.chat.telegram.links import TOKEN_ENV
    from voevoda.service import Person

    service = service_of(h)
    actor = h.who.actor
    installation = isinstance(actor, Person) and actor.can_create_games
    token = "env" if os.environ.get(TOKEN_ENV) else "set" if installation and service.telegram_token() else "none"
    return {"bot": service.telegram_username(), "group": service.linked_group(actor, game),
            "installation": installation, "token": token}


@router.post("/g/{game}/manage/telegram/group", response_class=HTMLResponse)
def manage_telegram_group(h: Ctx, game: str, csrf: Annotated[str, Form()] = "") -> Response:
    """A one-time link that ties a group chat to the game (``startgroup``), and its code for ``/link``."""
    check_csrf(h.request, h.who, csrf)
    from voevoda.chat.telegram.links import deep_link

    service = service_of(h)
    code = service.chat_link(h.who.actor, "group", game)
    return _manage(h, game, tg_link=deep_link(service.telegram_username(), code, group=True),
                   tg_code=f"/link {code}")


@router.post("/g/{game}/manage/telegram/me", response_class=HTMLResponse)
def manage_telegram_me(h: Ctx, game: str, csrf: Annotated[str, Form()] = "") -> Response:
    """A one-time link that ties the game master's own private chat to the account."""
    check_csrf(h.request, h.who, csrf)
    from voevoda.chat.telegram.links import deep_link

    service = service_of(h)
    code = service.chat_link(h.who.actor, "account")
    return _manage(h, game, tg_link=deep_link(service.telegram_username(), code), tg_code=f"/start {code}")


@router.post("/g/{game}/manage/telegram/unlink")
def manage_telegram_unlink(h: Ctx, game: str, csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).unlink_group(h.who.actor, game)
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/telegram/token")
def manage_telegram_token(h: Ctx, game: str, token: Annotated[str, Form(max_length=200)] = "",
                          forget: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "") -> Response:
    """The installation's game master stores (or forgets) the bot's token."""
    check_csrf(h.request, h.who, csrf)
    service_of(h).set_telegram_token(h.who.actor, None if forget else token)
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/revoke")
def manage_revoke(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
                  csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).revoke_invitation(h.who.actor, game, player)
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/release")
def manage_release(h: Ctx, game: str, player: Annotated[str, Form(max_length=200)],
                   csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).release_seat(h.who.actor, game, player)
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/co-gm")
def manage_co_gm(h: Ctx, game: str, name: Annotated[str, Form(max_length=200)], remove: Annotated[str, Form()] = "",
                 csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    if remove:
        service_of(h).remove_co_gm(h.who.actor, game, name)
    else:
        service_of(h).name_co_gm(h.who.actor, game, name)
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/settings")
def manage_settings(h: Ctx, game: str, timezone: Annotated[str, Form(max_length=64)] = "UTC",
                    public: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).change_settings(h.who.actor, game, public=bool(public), timezone=timezone.strip() or "UTC")
    return _redirect(h, h.url(f"/g/{game}/manage"))


@router.post("/g/{game}/manage/resolve", response_class=HTMLResponse)
def manage_resolve(h: Ctx, game: str, step: Annotated[int, Form()], force: Annotated[str, Form()] = "",
                   csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    done = service_of(h).resolve(h.who.actor, game, step=step, force=bool(force))
    return _manage(h, game, message=done.text)


@router.post("/g/{game}/manage/rollback", response_class=HTMLResponse)
def manage_rollback(h: Ctx, game: str, step: Annotated[int, Form()], reason: Annotated[str, Form(max_length=2000)],
                    csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    done = service_of(h).rollback(h.who.actor, game, step=step, reason=reason)
    return _manage(h, game, message=done.text)


@router.post("/g/{game}/manage/reopen", response_class=HTMLResponse)
def manage_reopen(h: Ctx, game: str, step: Annotated[int, Form()], player: Annotated[str, Form(max_length=200)],
                  reason: Annotated[str, Form(max_length=2000)], csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    done = service_of(h).reopen(h.who.actor, game, step=step, player=player, reason=reason)
    return _manage(h, game, message=done.text)


def _read_patch(text: str) -> list[dict[str, Any]]:
    try:
        patch = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        column = getattr(exc, "colno", None)
        where = f"строка {line}, знак {column}: " if line else ""
        where_en = f"line {line}, column {column}: " if line else ""
        raise GameError(f"JSON Patch: {where}{exc}", f"JSON Patch: {where_en}{exc}") from exc
    if not isinstance(patch, list) or not all(isinstance(op, dict) for op in patch):
        raise DataError("JSON Patch: a list of operations, such as [{\"op\": \"replace\", \"path\": \"/…\", \"value\": …}]")
    return patch


@router.post("/g/{game}/manage/edit", response_class=HTMLResponse)
def manage_edit(h: Ctx, game: str, patch: Annotated[str, Form()], step: Annotated[int, Form()],
                reason: Annotated[str, Form(max_length=2000)] = "", base_hash: Annotated[str, Form(max_length=64)] = "",
                action: Annotated[str, Form(max_length=10)] = "preview", csrf: Annotated[str, Form()] = "") -> Response:
    """Preview a JSON Patch (the places it changes and the outline after it), or apply it."""
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    operations = _read_patch(_form_text(patch, "patch"))
    if action == "apply":
        service.edit(h.who.actor, game, step=step, patch=operations, reason=reason, base_hash=base_hash or None)
        return _manage(h, game, message=h.t("done"))
    try:
        preview = service.preview_edit(h.who.actor, game, operations)
    except GameError as exc:
        return _manage(h, game, status=422, patch_text=patch, message=h.both(exc.message_ru, exc.message_en))
    return _manage(h, game, preview=preview, patch_text=patch)


@router.post("/g/{game}/manage/reveal", response_class=HTMLResponse)
def manage_reveal(h: Ctx, game: str, step: Annotated[int, Form()], csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    secret = service_of(h).reveal(h.who.actor, game, step=step)
    return _manage(h, game, message=f"секрет / secret: {secret}")


@router.post("/g/{game}/manage/delete")
def manage_delete(h: Ctx, game: str, confirm: Annotated[str, Form(max_length=200)] = "",
                  csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).delete(h.who.actor, game, confirm=confirm)
    return _redirect(h, "/")


# -- new games, imports -----------------------------------------------------------------------------

@router.get("/games/new", response_class=HTMLResponse)
def new_game_page(h: Ctx) -> Response:
    return page(h, "new.html.j2", rulesets=service_of(h).rulesets(), form={}, message=None)


async def _upload_text(upload: UploadFile | None, what: str, limit: int = 1024 * 1024) -> str:
    if upload is None or not upload.filename:
        return ""
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise DataError(f"{what}: larger than {limit // 1024} KB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{what}: not UTF-8 text (byte {exc.start})") from exc


def read_options(text: str, what: str, filename: str = "") -> dict[str, Any]:
    """A config or house-rules text (TOML, JSON or YAML, told by the file's name or tried in
    that order), with a clear error naming the line."""
    from voevoda.core.rulesdata import read_house_rules_text

    if not text.strip():
        return {}
    return read_house_rules_text(text, what, filename)


@router.post("/games/new", response_class=HTMLResponse)
async def new_game(request: Request, ruleset: Annotated[str, Form(max_length=64)],
                   name: Annotated[str, Form(max_length=200)], players: Annotated[str, Form(max_length=5000)],
                   bots: Annotated[str, Form(max_length=5000)] = "", config: Annotated[str, Form()] = "",
                   house_rules: Annotated[str, Form()] = "", seed: Annotated[str, Form(max_length=200)] = "",
                   auto_resolve: Annotated[str, Form()] = "", public: Annotated[str, Form()] = "",
                   timezone: Annotated[str, Form(max_length=64)] = "UTC", csrf: Annotated[str, Form()] = "",
                   config_file: Annotated[UploadFile | None, File()] = None,
                   house_rules_file: Annotated[UploadFile | None, File()] = None) -> Response:
    h = await here(request)
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("create", *h.who.limit_keys(h.request))
    form = {"ruleset": ruleset, "name": name, "players": players, "bots": bots, "config": config,
            "house_rules": house_rules, "seed": seed, "timezone": timezone, "auto_resolve": auto_resolve,
            "public": public}
    try:
        config_text = await _upload_text(config_file, "config") or config
        rules_text = await _upload_text(house_rules_file, "house rules") or house_rules
        options = read_options(config_text, "config", config_file.filename if config_file and config_file.filename else "")
        overrides = read_options(rules_text, "house rules",
                                 house_rules_file.filename if house_rules_file and house_rules_file.filename else "")
        names = [p.strip() for p in players.split(",") if p.strip()]
        if not names:
            raise GameError("нужен хотя бы один игрок", "at least one player is needed")
        created = service.create_game(h.who.actor, ruleset, name.strip(), names,
                                      bots=[b.strip() for b in bots.split(",") if b.strip()], config=options,
                                      house_rules=overrides, seed=seed.strip() or None, auto_resolve=bool(auto_resolve),
                                      public=bool(public), timezone=timezone.strip() or "UTC")
    except (GameError, DataError) as exc:
        message = h.both(exc.message_ru, exc.message_en) if isinstance(exc, GameError) else str(exc)
        return page(h, "new.html.j2", status=422, rulesets=service.rulesets(), form=form, message=message)
    return _redirect(h, h.url(f"/g/{created.record.name}/manage"))


@router.get("/games/import", response_class=HTMLResponse)
def import_page(h: Ctx) -> Response:
    return page(h, "import.html.j2", message=None)


@router.post("/games/import", response_class=HTMLResponse)
async def import_game(request: Request, file: Annotated[UploadFile, File()],
                      name: Annotated[str, Form(max_length=200)] = "", csrf: Annotated[str, Form()] = "") -> Response:
    h = await here(request)
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("create", *h.who.limit_keys(h.request))
    data = await file.read(64 * 1024 * 1024 + 1)
    try:
        if len(data) > 64 * 1024 * 1024:
            raise DataError(f"{file.filename}: larger than 64 MB")
        try:
            parsed = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise DataError(f"{file.filename}: not UTF-8 text (byte {exc.start})") from exc
        except ValueError as exc:
            raise DataError(f"{file.filename}: {exc}") from exc
        game = service.import_game(h.who.actor, parsed, source=file.filename or "export", name=name.strip() or None)
    except (GameError, DataError) as exc:
        message = h.both(exc.message_ru, exc.message_en) if isinstance(exc, GameError) else str(exc)
        return page(h, "import.html.j2", status=422, message=message)
    return _redirect(h, h.url(f"/g/{game.record.name}/manage"))


# -- the Steel Rose battle-odds calculator ------------------------------------------------------------

ODDS_EXAMPLE = Path(__file__).parent / "odds_example.toml"


@router.get("/odds", response_class=HTMLResponse)
def odds_page(h: Ctx) -> Response:
    return page(h, "odds.html.j2", battle=ODDS_EXAMPLE.read_text(encoding="utf-8"), n=10_000, message=None)


@router.post("/odds")
def odds_run(h: Ctx, battle: Annotated[str, Form()], n: Annotated[int, Form(ge=1, le=100_000)] = 10_000,
             csrf: Annotated[str, Form()] = "") -> Response:
    """Run the odds and stream the page as they go: the page, then a line each second (the
    simulator's first compile after an install, then the battles done), then the table — so a
    browser without JavaScript shows the progress too, and every server process can answer."""
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    service.throttle("odds", *h.who.limit_keys(h.request))
    battle = _form_text(battle, "battle")
    from voevoda.sim.batch import needs_compiling

    compiling = needs_compiling()
    whole = ENV.get_template("odds.html.j2").render(here=h, t=h.t, lang=h.lang, who=h.who, csrf=h.who.csrf,
                                                    moment=None, battle=battle, n=n, message=None)
    head, _, tail = whole.partition("<!--RESULT-->")
    done: queue.Queue[tuple[str, Any]] = queue.Queue()

    def work() -> None:
        try:
            result = service.odds(h.who.actor, battle, n=n,
                                  progress=lambda k: done.put(("progress", k)))
            done.put(("result", result))
        except (GameError, DataError) as exc:
            done.put(("error", h.both(exc.message_ru, exc.message_en) if isinstance(exc, GameError) else str(exc)))
        except Exception as exc:  # noqa: BLE001 - said on the page, logged for the game master
            import logging

            logging.getLogger("voevoda.web").exception("odds failed")
            done.put(("error", f"{h.t('error')}: {type(exc).__name__}"))

    def stream() -> Iterator[str]:
        yield head
        started = time.monotonic()
        threading.Thread(target=work, daemon=True).start()
        battles = 0
        announced = False
        while True:
            try:
                kind, value = done.get(timeout=1.0)
            except queue.Empty:
                spent = int(time.monotonic() - started)
                if compiling and battles == 0:
                    if not announced:
                        yield f'<p class="note" id="odds-compiling">{escape(h.t("compiling"))}…</p>\n'
                        announced = True
                    yield f'<p class="muted odds-tick">{escape(h.t("elapsed"))} {spent // 60}:{spent % 60:02d}</p>\n'
                else:
                    yield f'<p class="muted odds-tick">{battles} / {n}</p>\n'
                continue
            if kind == "progress":
                if battles == 0 and compiling:
                    spent = int(time.monotonic() - started)
                    yield f'<p class="note">{escape(h.t("compiled_in"))} {spent // 60}:{spent % 60:02d}</p>\n'
                battles += int(value)
                continue
            if kind == "error":
                yield f'<p class="bad" role="alert" id="odds-error">{escape(str(value))}</p>\n'
            else:
                yield ENV.get_template("odds_result.html.j2").render(here=h, t=h.t, lang=h.lang, result=value, n=n)
            break
        yield tail

    response = StreamingResponse(stream(), media_type="text/html; charset=utf-8")
    remember(h, response)
    return response


__all__ = ["error_page", "here", "read_options", "router"]


from voevoda.web import thread as _thread  # noqa: E402,F401  (the forum thread's routes, on this router)
