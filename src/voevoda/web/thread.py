"""The game master's forum thread on the manage page (docs/forum.md): upload or paste the saved
thread page, read the dry run, confirm. Each handler reads the form, calls one operation of the
service and renders the manage page with what came back."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from voevoda.core.errors import DataError, GameError
from voevoda.forum import MAX_PAGE_BYTES
from voevoda.service.errors import Forbidden, NotFound
from voevoda.service.forum import parse_mapping
from voevoda.web.auth import check_csrf
from voevoda.web.pages import Ctx, _form_text, _manage, _redirect, here, router, service_of


def _deadline(value: str, zone: str) -> datetime | None:
    """The form's deadline (``datetime-local``: no zone) in the zone the page's times are in."""
    if not value.strip():
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise GameError(f"срок: «{value}» — не время", f"deadline: '{value}' is not a time") from exc
    if moment.tzinfo is None:
        try:
            moment = moment.replace(tzinfo=ZoneInfo(zone))
        except (KeyError, ValueError) as exc:
            raise GameError(f"неизвестный часовой пояс «{zone}»", f"unknown time zone '{zone}'") from exc
    return moment


async def _page_bytes(upload: UploadFile | None, pasted: str) -> bytes:
    if upload is not None and upload.filename:
        data = await upload.read(MAX_PAGE_BYTES + 1)
        if len(data) > MAX_PAGE_BYTES:
            raise DataError(f"страница больше {MAX_PAGE_BYTES // (1024 * 1024)} МБ / the page is over "
                            f"{MAX_PAGE_BYTES // (1024 * 1024)} MB")
        return bytes(data)
    if len(pasted) > MAX_PAGE_BYTES:
        raise DataError("страница слишком велика / the page is too large")
    return pasted.encode("utf-8")


@router.post("/g/{game}/manage/thread", response_class=HTMLResponse)
async def manage_thread(request: Request, game: str, page_text: Annotated[str, Form()] = "",
                        timezone: Annotated[str, Form(max_length=64)] = "",
                        deadline: Annotated[str, Form(max_length=40)] = "",
                        names: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "",
                        page_file: Annotated[UploadFile | None, File()] = None) -> Response:
    """The dry run: nothing is stored, the ties typed are tried."""
    h = await here(request)
    check_csrf(h.request, h.who, csrf)
    service = service_of(h)
    form = {"timezone": timezone, "deadline": deadline, "names": names}
    try:
        data = await _page_bytes(page_file, page_text)
        if not data.strip():
            raise GameError("вставьте страницу темы или выберите файл", "paste the thread page or choose a file")
        zone = timezone.strip() or service.settings(game)[1]
        reading = service.read_thread_page(h.who.actor, game, data, timezone=zone,
                                           deadline=_deadline(deadline, zone),
                                           mapping=parse_mapping(_form_text(names, "names").splitlines()))
    except (Forbidden, NotFound):
        raise
    except (GameError, DataError) as exc:
        message = h.both(exc.message_ru, exc.message_en) if isinstance(exc, GameError) else str(exc)
        return _manage(h, game, status=422, thread_form=form, message=message)
    return _manage(h, game, thread=reading, thread_form=form)


@router.post("/g/{game}/manage/thread/store", response_class=HTMLResponse)
def manage_thread_store(h: Ctx, game: str, step: Annotated[int, Form()],
                        seat: Annotated[list[str] | None, Form()] = None,
                        text: Annotated[list[str] | None, Form()] = None,
                        take: Annotated[list[str] | None, Form()] = None,
                        names: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "") -> Response:
    """Store the posts the game master kept ticked (``take`` holds their numbers) and the ties."""
    check_csrf(h.request, h.who, csrf)
    seats, texts, kept = seat or [], text or [], set(take or [])
    if len(seats) != len(texts):
        raise GameError("форма повреждена: обновите страницу", "the form is damaged: reload the page")
    chosen = [(s, _form_text(t, "post")) for number, (s, t) in enumerate(zip(seats, texts, strict=True))
              if str(number) in kept]
    stored = service_of(h).store_thread(h.who.actor, game, chosen, step=step,
                                        mapping=parse_mapping(_form_text(names, "names").splitlines()))
    return _manage(h, game, thread_stored=stored)


@router.post("/g/{game}/manage/thread/names")
def manage_thread_names(h: Ctx, game: str, names: Annotated[str, Form()] = "",
                        csrf: Annotated[str, Form()] = "") -> Response:
    """Tie forum names to seats without reading a page."""
    check_csrf(h.request, h.who, csrf)
    service_of(h).set_forum_names(h.who.actor, game, parse_mapping(_form_text(names, "names").splitlines()))
    return _redirect(h, h.url(f"/g/{game}/manage") + "#thread")
