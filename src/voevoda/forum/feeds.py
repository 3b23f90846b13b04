"""A thread's RSS 2.0 or Atom feed: each entry a post (phpBB's ``feed.php?t=…`` is Atom; XenForo,
vBulletin, SMF and Invision give RSS). The post's HTML is in ``content:encoded``, Atom's
``content`` or ``description``; its author in ``dc:creator``, ``author`` or Atom's ``author/name``;
its time in ``pubDate``/``published``, and Atom's ``updated``, when later, is its edit.

The XML is read with entities left unexpanded and nothing fetched (no DTD, no network).
"""

from __future__ import annotations

import re
from datetime import datetime

from lxml import etree

from voevoda.forum import ForumPost, Thread, ThreadError
from voevoda.forum.markup import fragment_text
from voevoda.forum.times import TimeUnreadable, from_feed

_PHPBB_STATISTICS = re.compile(r"<p>\s*(?:Статистика|Statistics)\s*:.*?</p>\s*(?:<hr\s*/?>\s*)?$",
                               re.IGNORECASE | re.DOTALL)
"""phpBB's feed adds «Статистика: Добавлено Борис — …» under every post: not the player's text."""


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _child(element: etree._Element, *names: str) -> etree._Element | None:
    for name in names:
        for child in element:
            if _local(child.tag) == name:
                return child
    return None


def _text(element: etree._Element | None) -> str:
    return "".join(element.itertext()).strip() if element is not None else ""


def _author(item: etree._Element) -> str:
    creator = _child(item, "creator")
    if creator is not None and _text(creator):
        return _text(creator)
    author = _child(item, "author")
    if author is None:
        return ""
    name = _child(author, "name")
    if name is not None:
        return _text(name)
    text = _text(author)
    bracketed = re.search(r"\((.+)\)\s*$", text)  # RSS: «boris@example.org (Борис)»
    return bracketed.group(1).strip() if bracketed else text


def _body(item: etree._Element) -> str:
    for name in ("encoded", "content", "description", "summary"):
        found = _child(item, name)
        if found is None:
            continue
        if found.get("type") == "xhtml":
            markup = "".join(etree.tostring(child, encoding="unicode") for child in found)
        else:
            markup = found.text or ""
        return _PHPBB_STATISTICS.sub("", markup.strip())
    return ""


def read_feed(text: str) -> Thread:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, recover=True,
                             huge_tree=False)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        raise ThreadError(f"лента не читается как XML: {exc}", f"the feed cannot be read as XML: {exc}") from exc
    if root is None:
        raise ThreadError("лента пуста", "the feed is empty")
    engine = "atom" if _local(root.tag) == "feed" else "rss"
    items = [e for e in root.iter() if _local(e.tag) in ("item", "entry")]
    channel = _child(root, "channel")
    title_element = _child(root if channel is None else channel, "title")
    posts: list[ForumPost] = []
    problems: list[tuple[str, str]] = []
    for number, item in enumerate(items, start=1):
        author = _author(item)
        link = _child(item, "link")
        ref = (link.get("href") if link is not None and link.get("href") else _text(link)) or _text(_child(item, "guid", "id"))
        ref = ref.rsplit("#", 1)[-1] if "#" in ref else ref
        shown = _text(_child(item, "published", "pubdate", "date", "issued", "updated", "modified"))
        try:
            posted = from_feed(shown)
        except TimeUnreadable:
            problems.append((f"запись {number} ({author or 'автор не указан'}): время «{shown}» не прочитано — пропущена",
                             f"entry {number} ({author or 'no author'}): the time '{shown}' cannot be read — skipped"))
            continue
        if not author:
            problems.append((f"запись {number}: не найден автор — пропущена", f"entry {number}: no author found — skipped"))
            continue
        edited: datetime | None = None
        updated = _child(item, "updated")
        if updated is not None and _child(item, "published") is not None:
            try:
                edited = from_feed(_text(updated))
            except TimeUnreadable:
                edited = None
            if edited is not None and edited <= posted:
                edited = None
        posts.append(ForumPost(author, posted, fragment_text(_body(item)), ref, edited, number))
    if not posts and not problems:
        raise ThreadError("в ленте нет ни одной записи", "the feed has no entry")
    posts.sort(key=lambda post: (post.posted_at, post.index))
    return Thread(engine, posts, _text(title_element), problems)


__all__ = ["read_feed"]
