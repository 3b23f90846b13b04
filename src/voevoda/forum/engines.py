"""Where each forum engine puts a post's author, time, body and «edited» notice on a thread page.

| engine | a post | author | time | edited |
|---|---|---|---|---|
| phpBB 3 (prosilver) | ``div.post#pN`` | ``a.username`` in ``p.author`` (or the profile) | ``<time datetime>`` | the «Последний раз редактировалось …» notice (shown text) |
| XenForo 2 | ``article.message--post`` | ``data-author`` | ``<time data-timestamp>`` | ``div.message-lastEdit <time>`` |
| vBulletin 4 (and 3) | ``#post_message_N`` and its ``li.postcontainer`` | ``a.username`` | ``span.date`` (shown text) | ``blockquote.lastedited`` (shown text) |
| SMF 2.0, 2.1 | ``div.inner#msg_N`` and its ``div.post_wrapper`` | ``div.poster h4 a`` | ``div.postinfo`` / ``div.keyinfo`` (shown text) | ``#modified_N`` (shown text) |
| Invision 4 | ``article#elComment_N`` | ``.cAuthorPane_author a`` | ``<time datetime>`` | the «Изменено» notice in the body (``<time datetime>``) |

The engine is told from the page itself: its ``generator`` meta tag where it has one, else the
markup above.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from lxml.html import HtmlElement as Element

from voevoda.forum.markup import post_text
from voevoda.forum.times import TimeUnreadable, from_attribute, from_shown, from_timestamp


def has_class(name: str) -> str:
    """An XPath test: the element's ``class`` holds the word ``name``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


@dataclass
class RawPost:
    """A post as found on the page, its times not yet checked."""

    author: str
    text: str
    ref: str
    posted: Callable[[], datetime]
    edited: Callable[[], datetime | None]
    shown: str
    """The time as the page shows it (for messages)."""


class Page:
    """A thread page being read: its tree, the zone its shown times are in, today's date there."""

    def __init__(self, root: Element, zone: tzinfo, today: date) -> None:
        self.root = root
        self.zone = zone
        self.today = today

    def shown(self, text: str) -> datetime:
        return from_shown(text, self.zone, self.today)

    def shown_or_none(self, text: str) -> datetime | None:
        try:
            return self.shown(text)
        except TimeUnreadable:
            return None


def _text(element: Element | None) -> str:
    return " ".join(element.text_content().split()) if element is not None else ""


def _first(element: Element, *paths: str) -> Element | None:
    """The first element the first of ``paths`` that finds any finds."""
    for path in paths:
        found = element.xpath(path)
        if found:
            return found[0]
    return None


def _time_of(element: Element | None) -> datetime:
    """A ``<time>`` element's moment: its Unix ``data-time``/``data-timestamp`` or ``datetime``."""
    if element is None:
        raise TimeUnreadable("")
    for attribute in ("data-timestamp", "data-time"):
        value = element.get(attribute)
        if value and value.strip().isdigit():
            return from_timestamp(value)
    value = element.get("datetime")
    if not value:
        raise TimeUnreadable(_text(element))
    try:
        return from_attribute(value)
    except ValueError as exc:
        raise TimeUnreadable(value) from exc


# -- phpBB ------------------------------------------------------------------------------------

def phpbb(page: Page) -> list[RawPost]:
    posts: list[RawPost] = []
    for post in page.root.xpath(f"//div[{has_class('post')} and starts-with(@id, 'p')]"):
        body = _first(post, f".//div[{has_class('content')}]")
        if body is None:
            continue
        byline = _first(post, f".//p[{has_class('author')}]")
        author_link = _first(post, f".//p[{has_class('author')}]//*[{has_class('username')} or "
                                   f"{has_class('username-coloured')}]", f".//dl[{has_class('postprofile')}]//*[{has_class('username')} or "
                            f"{has_class('username-coloured')}]")
        author = _text(author_link) or _text(_first(post, f".//p[{has_class('author')}]//strong"))
        stamp = _first(post, f".//p[{has_class('author')}]//time")
        shown = _text(stamp) if stamp is not None else _text(byline).split("»")[-1]
        notice = _first(post, f".//div[{has_class('notice')}]")

        def posted(stamp: Element | None = stamp, shown: str = shown) -> datetime:
            return _time_of(stamp) if stamp is not None else page.shown(shown)

        def edited(notice: Element | None = notice) -> datetime | None:
            text = _text(notice)
            if not re.search(r"редактировал|edited", text, re.IGNORECASE):
                return None
            return page.shown_or_none(text)

        posts.append(RawPost(author, post_text(body), post.get("id") or "", posted, edited, shown))
    return posts


# -- XenForo ----------------------------------------------------------------------------------

def xenforo(page: Page) -> list[RawPost]:
    posts: list[RawPost] = []
    for post in page.root.xpath(f"//article[{has_class('message--post')}]"):
        body = _first(post, f".//article[{has_class('message-body')}]//div[{has_class('bbWrapper')}]", f".//div[{has_class('bbWrapper')}]")
        if body is None:
            continue
        author = post.get("data-author") or _text(_first(post, f".//*[{has_class('message-name')}]"))
        stamp = _first(post, f".//*[{has_class('message-attribution')}]//time", ".//time")
        last_edit = _first(post, f".//*[{has_class('message-lastEdit')}]//time")

        def posted(stamp: Element | None = stamp) -> datetime:
            return _time_of(stamp)

        def edited(last_edit: Element | None = last_edit) -> datetime | None:
            return _time_of(last_edit) if last_edit is not None else None

        ref = post.get("data-content") or post.get("id") or ""
        posts.append(RawPost(author, post_text(body), ref, posted, edited, _text(stamp)))
    return posts


# -- vBulletin --------------------------------------------------------------------------------

def vbulletin(page: Page) -> list[RawPost]:
    posts: list[RawPost] = []
    for body in page.root.xpath("//*[starts-with(@id, 'post_message_')]"):
        container = _first(body, "ancestor::li[starts-with(@id, 'post_')][1]", "ancestor::table[starts-with(@id, 'post')][1]", "ancestor::div[starts-with(@id, 'edit')][1]")
        container = body if container is None else container
        author = _text(_first(container, f".//*[{has_class('username')}]")) \
            or _text(_first(container, f".//*[{has_class('bigusername')}]"))
        date_element = _first(container, f".//*[{has_class('postdate')}]", f".//*[{has_class('date')}]", f".//td[{has_class('thead')}]")
        shown = _text(date_element)
        notice = _first(container, f".//*[{has_class('lastedited')}]")

        def posted(shown: str = shown) -> datetime:
            return page.shown(shown)

        def edited(notice: Element | None = notice) -> datetime | None:
            return page.shown_or_none(_text(notice)) if notice is not None else None

        ref = (body.get("id") or "").replace("post_message_", "post")
        posts.append(RawPost(author, post_text(body), ref, posted, edited, shown))
    return posts


# -- SMF --------------------------------------------------------------------------------------

def smf(page: Page) -> list[RawPost]:
    posts: list[RawPost] = []
    for body in page.root.xpath(f"//div[{has_class('inner')} and starts-with(@id, 'msg_')]"):
        number = (body.get("id") or "").removeprefix("msg_")
        container = _first(body, f"ancestor::div[{has_class('post_wrapper')}][1]")
        container = body if container is None else container
        author = _text(_first(container, f".//div[{has_class('poster')}]//h4//a")) \
            or _text(_first(container, f".//div[{has_class('poster')}]//h4"))
        info = _first(container, f".//div[{has_class('postinfo')}]/a", f".//div[{has_class('keyinfo')}]//div[{has_class('smalltext')}]", f".//div[{has_class('keyinfo')}]")
        shown = _text(info)
        notice = _first(container, f".//*[@id='modified_{number}']")

        def posted(shown: str = shown) -> datetime:
            return page.shown(shown)

        def edited(notice: Element | None = notice) -> datetime | None:
            text = _text(notice)
            return page.shown_or_none(text) if text else None

        posts.append(RawPost(author, post_text(body), f"msg{number}", posted, edited, shown))
    return posts


# -- Invision ---------------------------------------------------------------------------------

def invision(page: Page) -> list[RawPost]:
    posts: list[RawPost] = []
    for post in page.root.xpath("//article[starts-with(@id, 'elComment_')]"):
        body = _first(post, ".//div[@data-role='commentContent']")
        if body is None:
            continue
        author = _text(_first(post, f".//*[{has_class('cAuthorPane_author')}]//a")) \
            or _text(_first(post, f".//*[{has_class('cAuthorPane_author')}]"))
        if not author:
            wrap = _first(post, ".//*[@data-quotedata]")
            if wrap is not None:
                try:
                    author = str(json.loads(wrap.get("data-quotedata") or "{}").get("username") or "")
                except ValueError:
                    author = ""
        stamp = _first(post, f".//div[{has_class('ipsComment_meta')}]//time", ".//time")
        notices = body.xpath(".//*[@data-excludequote]")
        edit_stamp = _first(notices[0], ".//time") if notices else None

        def posted(stamp: Element | None = stamp) -> datetime:
            return _time_of(stamp)

        def edited(edit_stamp: Element | None = edit_stamp) -> datetime | None:
            return _time_of(edit_stamp) if edit_stamp is not None else None

        posts.append(RawPost(author, post_text(body, notices), (post.get("id") or "").replace("elComment_", "comment-"),
                             posted, edited, _text(stamp)))
    return posts


READERS: dict[str, Callable[[Page], list[RawPost]]] = {
    "phpbb": phpbb, "xenforo": xenforo, "vbulletin": vbulletin, "smf": smf, "invision": invision}
TITLES = {"phpbb": "phpBB", "xenforo": "XenForo", "vbulletin": "vBulletin", "smf": "SMF", "invision": "Invision",
          "rss": "RSS", "atom": "Atom"}

_GENERATORS = (("phpbb", "phpbb"), ("xenforo", "xenforo"), ("vbulletin", "vbulletin"),
               ("simple machines", "smf"), ("smf", "smf"), ("invision", "invision"), ("ips", "invision"))


def detect(root: Element) -> str | None:
    """The engine of a thread page, or ``None`` when it is none of those known."""
    for content in root.xpath("//meta[translate(@name, 'GENRATO', 'genrato')='generator']/@content"):
        folded = str(content).casefold()
        for mark, engine in _GENERATORS:
            if mark in folded:
                return engine
    checks = (  # each a list of paths, the cheapest first; one element found tells the engine
        ("xenforo", ("//html[@id='XF']", f"(//article[{has_class('message--post')}])[1]")),
        ("invision", ("(//article[starts-with(@id, 'elComment_')])[1]", "(//*[@data-role='commentContent'])[1]")),
        ("phpbb", ("//body[@id='phpbb']",
                   f"(//div[{has_class('post')} and starts-with(@id, 'p')])[1]//div[{has_class('content')}]")),
        ("vbulletin", ("(//*[starts-with(@id, 'post_message_')])[1]",)),
        ("smf", (f"(//div[{has_class('inner')} and starts-with(@id, 'msg_')])[1]", "//*[@id='forumposts']")),
    )
    for engine, paths in checks:
        if any(root.xpath(path) for path in paths):
            return engine
    return None


__all__ = ["READERS", "TITLES", "Page", "RawPost", "detect", "has_class"]
