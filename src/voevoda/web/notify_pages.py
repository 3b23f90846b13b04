"""The notifications page of a game (docs/notify.md, docs/web.md): ``/g/GAME/notify``.

Its game masters set the game's public channel and their own (a Discord or Slack webhook,
Telegram's ``sendMessage``, a signed webhook, an e-mail) and see the delivery status with what
keeps failing; a player sets the private channels of the seat they hold (an e-mail — one mail per
event or a daily digest — or a signed webhook). Every form calls one operation of the service
(:mod:`voevoda.service.notify`), which decides who may do what.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response

from voevoda.core.errors import GameError
from voevoda.service.errors import Forbidden, NotFound
from voevoda.web.auth import check_csrf
from voevoda.web.pages import Ctx, _game_page, _redirect, service_of
from voevoda.web.render import Here

router = APIRouter()


def _notify_page(h: Here, game: str, status: int = 200, **extra: Any) -> Response:
    service = service_of(h)
    sight = service.sight(h.who.actor, game)
    access = sight.access
    context: dict[str, Any] = {"game_channels": None, "delivery": None, "seat_channels": {}, "message": None,
                               "secret": None, "timezone": sight.timezone}
    if access.is_gm:
        context["game_channels"] = service.destinations(h.who.actor, game)
        context["delivery"] = service.delivery_status(h.who.actor, game)
    for seat in sorted(access.seats):
        context["seat_channels"][seat] = service.destinations(h.who.actor, game, player=seat)
    if not access.is_gm and not access.seats:
        raise Forbidden("уведомления настраивают ведущий и игроки этой игры",
                        "notifications are set by this game's game master and players")
    context.update(extra)
    return _game_page(h, "notify.html.j2", sight, status=status, **context)


@router.get("/g/{game}/notify", response_class=HTMLResponse)
def notify_page(h: Ctx, game: str) -> Response:
    return _notify_page(h, game)


@router.post("/g/{game}/notify/add", response_class=HTMLResponse)
def notify_add(h: Ctx, game: str, scope: Annotated[str, Form(max_length=16)],
               kind: Annotated[str, Form(max_length=32)], address: Annotated[str, Form(max_length=2000)] = "",
               player: Annotated[str, Form(max_length=200)] = "", chat_id: Annotated[str, Form(max_length=64)] = "",
               mode: Annotated[str, Form(max_length=16)] = "each", hour: Annotated[int, Form(ge=0, le=23)] = 7,
               lang: Annotated[str, Form(max_length=8)] = "ru", label: Annotated[str, Form(max_length=100)] = "",
               csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    try:
        added = service_of(h).add_destination(h.who.actor, game, scope=scope, kind=kind, address=address,
                                              player=player or None, chat_id=chat_id or None, mode=mode,
                                              digest_hour=hour, lang=lang, label=label)
    except (Forbidden, NotFound):
        raise
    except GameError as exc:
        return _notify_page(h, game, status=422, message=h.both(exc.message_ru, exc.message_en))
    return _notify_page(h, game, message=h.t("nf_added"), secret=added.secret)


@router.post("/g/{game}/notify/remove")
def notify_remove(h: Ctx, game: str, destination: Annotated[int, Form()],
                  csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    service_of(h).remove_destination(h.who.actor, game, destination)
    return _redirect(h, h.url(f"/g/{game}/notify"))


@router.post("/g/{game}/notify/test", response_class=HTMLResponse)
def notify_test(h: Ctx, game: str, destination: Annotated[int, Form()],
                csrf: Annotated[str, Form()] = "") -> Response:
    check_csrf(h.request, h.who, csrf)
    try:
        service_of(h).test_destination(h.who.actor, game, destination)
    except (Forbidden, NotFound):
        raise
    except GameError as exc:
        return _notify_page(h, game, status=422, message=h.both(exc.message_ru, exc.message_en))
    return _notify_page(h, game, message=h.t("nf_test_sent"))


__all__ = ["router"]
