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
from markupsafe import Markup

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


class Words:
    """A language's words and links: what a template may use that depends on nothing but the
    language (no visitor, no request)."""

    lang: str

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


@dataclass(frozen=True)
class Wording(Words):
    """:class:`Words` alone, for what is rendered once and shown to many (:func:`kept_blocks`)."""

    lang: str


@dataclass
class Here(Words):
    """The request, its visitor and language: what every page is rendered with."""

    request: Request
    who: Visitor
    lang: str
    set_lang_cookie: bool = False


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
         *, kept: Blocks | None = None, **context: Any) -> HTMLResponse:
    """``template`` rendered for this request; with ``kept``, the blocks :func:`kept_blocks`
    rendered of it once for many visitors, in the page around them (base.html.j2: the visitor's
    name, CSRF token and language links), which alone is rendered again."""
    if kept is None:
        html = ENV.get_template(template).render(here=here, t=here.t, lang=here.lang, who=here.who,
                                                 csrf=here.who.csrf, moment=moment, **context)
    else:
        html = ENV.get_template(SHELL).render(here=here, t=here.t, lang=here.lang, who=here.who,
                                              csrf=here.who.csrf, moment=moment, kept=kept)
    response = HTMLResponse(html, status_code=status, headers=headers)
    remember(here, response)
    return response


SHELL = "_shell.html.j2"
"""base.html.j2 around blocks rendered before (:class:`Blocks`)."""


@dataclass(frozen=True)
class Blocks:
    """A page's own blocks (``title``, ``head``, ``main``), rendered."""

    title: Markup
    head: Markup
    main: Markup


def kept_blocks(lang: str, template: str, **context: Any) -> Blocks:
    """The blocks of ``template`` rendered with ``context`` and the language's words alone: no
    visitor, no CSRF token, no request is given, so what is rendered here cannot show them (a
    template that reaches for one fails), and it may be kept for every visitor who may see the
    context (pages.py keys it by the sight, its viewer and what the visitor holds)."""
    found = blocks_of(lang, template, ("title", "head", "main"), **context)
    return Blocks(found["title"], found["head"], found["main"])


def blocks_of(lang: str, template: str, names: tuple[str, ...], **context: Any) -> dict[str, Markup]:
    """The blocks ``names`` of ``template``, each rendered as :func:`kept_blocks` renders them
    (a block the template lacks is empty)."""
    words = Wording(lang)
    compiled = ENV.get_template(template)
    scope = compiled.new_context({"here": words, "t": words.t, "lang": lang, "moment": moment, **context})
    found = {}
    for name in names:
        render = compiled.blocks.get(name)
        found[name] = Markup("".join(render(scope))) if render is not None else Markup("")
    return found


def fragment_of(lang: str, template: str, **context: Any) -> Markup:
    """A partial template rendered with the language's words alone (as :func:`kept_blocks`)."""
    words = Wording(lang)
    return Markup(ENV.get_template(template).render(here=words, t=words.t, lang=lang, moment=moment, **context))


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


__all__ = ["ENV", "SHELL", "Blocks", "Here", "Wording", "Words", "blocks_of", "fragment", "fragment_of", "kept_blocks", "page",
           "remember"]
