"""Pages from templates: the Jinja2 environment and what every page is given.

Templates autoescape everything (a player's name or post is text, never markup); the only HTML
that goes in unescaped is what the project's own markup module wrote (a report rendered in the
``html`` format, every character of it escaped there), passed with ``|safe`` at one place each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from voevoda.web.auth import CSRF_COOKIE, LANG_COOKIE, Visitor
from voevoda.web.i18n import moment, word

ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("voevoda.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,  # templates are package data: never look at the disk again per request
)


@dataclass
class Here:
    """The request, its visitor and language: what every page is rendered with."""

    request: Request
    who: Visitor
    lang: str
    set_lang_cookie: bool = False

    def t(self, key: str) -> str:
        return word(key, self.lang)

    def both(self, ru: str | None, en: str | None) -> str:
        return (ru if self.lang == "ru" else en) or ""

    def url(self, path: str, **query: Any) -> str:
        clean = tuple((k, v) for k, v in query.items() if v is not None and v != "")
        if not clean:
            return _quoted(path)
        try:
            return _link(path, clean)
        except TypeError:  # a value that cannot be remembered (a list): as it is
            return _quoted(path) + "?" + urlencode(clean)


@lru_cache(maxsize=4096)
def _quoted(path: str) -> str:
    """A page's path in a link (a game's name may hold any letter); the same few are asked for on
    every page."""
    return quote(path, safe="/:")


@lru_cache(maxsize=4096)
def _link(path: str, query: tuple[tuple[str, Any], ...]) -> str:
    """A link with its query (a page's tabs carry the viewer's name: the same few on every page)."""
    return _quoted(path) + "?" + urlencode(query)


def page(here: Here, template: str, status: int = 200, headers: dict[str, str] | None = None,
         **context: Any) -> HTMLResponse:
    html = ENV.get_template(template).render(here=here, t=here.t, lang=here.lang, who=here.who,
                                             csrf=here.who.csrf, moment=moment, **context)
    response = HTMLResponse(html, status_code=status, headers=headers)
    remember(here, response)
    return response


def fragment(here: Here, template: str, **context: Any) -> HTMLResponse:
    """A block of a page's own template, for htmx to swap in (one template, two uses)."""
    html = ENV.get_template(template).render(here=here, t=here.t, lang=here.lang, who=here.who,
                                             csrf=here.who.csrf, moment=moment, **context)
    return HTMLResponse(html)


def remember(here: Here, response: Any) -> None:
    """Cookies a page sets: a new visitor's CSRF token, a language chosen by a link."""
    if here.who.new_csrf_cookie:
        response.set_cookie(CSRF_COOKIE, here.who.new_csrf_cookie, httponly=True, samesite="lax",
                            secure=getattr(here.request.app.state.settings, "secure_cookies", False))
    if here.set_lang_cookie:
        response.set_cookie(LANG_COOKIE, here.lang, max_age=365 * 24 * 3600, samesite="lax", httponly=True)


__all__ = ["ENV", "Here", "fragment", "page", "remember"]
