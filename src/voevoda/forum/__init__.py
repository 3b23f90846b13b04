"""Posts from a forum thread: a saved thread page (phpBB, XenForo, vBulletin, SMF, Invision) or
the thread's RSS/Atom feed, read into each post's author, time and the text the player typed
(docs/forum.md).

:func:`read_thread` is pure: the page's bytes (or text), the time zone its shown times are in,
today's date there. It never reaches the network, whatever the page links to, and an XML feed's
entities are never expanded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from zoneinfo import ZoneInfo

from voevoda.core.errors import GameError
from voevoda.forum.engines import READERS, TITLES, Page, RawPost, detect
from voevoda.forum.times import TimeUnreadable

MAX_PAGE_BYTES = 32 * 1024 * 1024
"""The largest page read (a saved page of 200 posts with its scripts is a few megabytes)."""

ENGINES = tuple(TITLES)


@dataclass(frozen=True)
class ForumPost:
    """One post of the thread: who wrote it (the forum name), when, and what, as typed."""

    author: str
    posted_at: datetime
    """UTC."""
    text: str
    """The post's body written back as BBCode (:mod:`voevoda.forum.markup`)."""
    ref: str = ""
    """Its anchor on the page (``p123``, ``post-456``), for the game master to find it."""
    edited_at: datetime | None = None
    """UTC, where the page shows that the post was edited."""
    index: int = 0
    """Its place in the thread, from 1."""

    @property
    def at(self) -> datetime:
        """The time that decides whether the post is in time: the edit's, where there is one."""
        if self.edited_at is not None and self.edited_at > self.posted_at:
            return self.edited_at
        return self.posted_at


@dataclass(frozen=True)
class Thread:
    engine: str
    """``phpbb``, ``xenforo``, ``vbulletin``, ``smf``, ``invision``, ``rss`` or ``atom``."""
    posts: list[ForumPost]
    title: str = ""
    problems: list[tuple[str, str]] = field(default_factory=list)
    """Posts that could not be read (Russian, English): listed, never guessed."""

    @property
    def engine_title(self) -> str:
        return TITLES.get(self.engine, self.engine)


class ThreadError(GameError):
    """A page that cannot be read as a thread."""


def _zone(timezone: str | tzinfo) -> tzinfo:
    if isinstance(timezone, tzinfo):
        return timezone
    try:
        return ZoneInfo(timezone)
    except (KeyError, ValueError) as exc:
        raise ThreadError(f"неизвестный часовой пояс «{timezone}» (пример: Europe/Moscow)",
                          f"unknown time zone '{timezone}' (for example Europe/Moscow)") from exc


def decode(page: bytes | str) -> str:
    """A saved page's text: UTF-8, or the charset its ``<meta>`` or XML declaration names (old
    Russian forums are windows-1251)."""
    if isinstance(page, str):
        return page
    try:
        return page.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    named = re.search(rb"""(?:charset|encoding)\s*=\s*["']?([A-Za-z0-9_.:-]+)""", page[:4096])
    charset = named.group(1).decode("ascii") if named else "windows-1251"
    try:
        return page.decode(charset)
    except (LookupError, UnicodeDecodeError):
        return page.decode("windows-1251", errors="replace")


_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def read_thread(page: bytes | str, *, timezone: str | tzinfo = "UTC", today: date | None = None) -> Thread:
    """The posts of a saved thread page or feed, oldest first. ``timezone``: the zone the page's
    shown times are in (the forum's, as its visitor sees them), used where the engine writes no
    machine-readable time; ``today``: the date there, for «Сегодня, 18:04»."""
    size = len(page.encode("utf-8") if isinstance(page, str) else page)
    if size > MAX_PAGE_BYTES:
        raise ThreadError(f"страница больше {MAX_PAGE_BYTES // (1024 * 1024)} МБ",
                          f"the page is over {MAX_PAGE_BYTES // (1024 * 1024)} MB")
    text = _XML_DECLARATION.sub("", decode(page), count=1).lstrip("\ufeff")
    if not text.strip():
        raise ThreadError("страница пуста", "the page is empty")
    zone = _zone(timezone)
    first = re.search(r"<(rss|feed|rdf:rdf|html|body|div)\b", text[:4000], re.IGNORECASE)
    if first is not None and first.group(1).lower() in ("rss", "feed", "rdf:rdf"):
        from voevoda.forum.feeds import read_feed

        return read_feed(text)
    from lxml import etree
    from lxml import html as lxml_html

    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise ThreadError(f"страница не читается как HTML: {exc}", f"the page cannot be read as HTML: {exc}") from exc
    engine = detect(root)
    if engine is None:
        raise ThreadError("не узнан движок форума: нужна сохранённая страница темы phpBB, XenForo, vBulletin, SMF "
                          "или Invision, или RSS/Atom темы",
                          "the forum engine is not recognised: give a saved thread page of phpBB, XenForo, vBulletin, "
                          "SMF or Invision, or the thread's RSS/Atom feed")
    current = today or datetime.now(zone).date()
    raw = READERS[engine](Page(root, zone, current))
    title = " ".join((root.findtext(".//title") or "").split())
    thread = _checked(engine, raw, title)
    if not thread.posts and not thread.problems:
        raise ThreadError(f"на странице ({TITLES[engine]}) не найдено ни одного поста",
                          f"no post found on the page ({TITLES[engine]})")
    return thread


def _checked(engine: str, raw: list[RawPost], title: str) -> Thread:
    posts: list[ForumPost] = []
    problems: list[tuple[str, str]] = []
    for number, found in enumerate(raw, start=1):
        where_ru = f"пост {number} ({found.ref or 'без номера'}, {found.author or 'автор не указан'})"
        where_en = f"post {number} ({found.ref or 'no anchor'}, {found.author or 'no author'})"
        if not found.author:
            problems.append((f"{where_ru}: не найден автор — пропущен", f"{where_en}: no author found — skipped"))
            continue
        try:
            posted = found.posted()
        except TimeUnreadable:
            problems.append((f"{where_ru}: время «{found.shown}» не прочитано — пропущен",
                             f"{where_en}: the time '{found.shown}' cannot be read — skipped"))
            continue
        try:
            edited = found.edited()
        except TimeUnreadable:
            edited = None
            problems.append((f"{where_ru}: время правки не прочитано — взято время поста",
                             f"{where_en}: the edit's time cannot be read — the post's time is taken"))
        posts.append(ForumPost(found.author, posted, found.text, found.ref, edited, number))
    posts.sort(key=lambda post: (post.posted_at, post.index))
    return Thread(engine, posts, title, problems)


def utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


__all__ = ["ENGINES", "MAX_PAGE_BYTES", "ForumPost", "Thread", "ThreadError", "decode", "read_thread"]
