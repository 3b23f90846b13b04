"""Issue 26, «The forum thread in one paste»: «voevoda reads the posts of phpBB, XenForo,
vBulletin, SMF and Invision pages (author, time, post body with its BBCode-rendered HTML turned
back into the text the player typed: bold, spoilers and quotes kept as markup …)». Each engine's
page under pages/ is written in that engine's own markup and holds the same thread: the game
master's post, Анна's orders with a spoiler and a smiley, Борис quoting her and editing his post
after the deadline, a stranger, Вера with a signature, Анна's follow-up."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from voevoda.core.engine import Game
from voevoda.forum import ThreadError, read_thread
from voevoda.forum.markup import fragment_text
from voevoda.forum.times import TimeUnreadable, from_shown

PAGES = Path(__file__).parent / "pages"
TODAY = date(2026, 12, 7)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


THREAD = [
    ("Ведущий", "2026-12-04T20:00+03:00", None, "[b]Ход 2 открыт![/b]\nПриказы до воскресенья 18:00 по Москве."),
    ("Anna_K", "2026-12-05T10:15+03:00", None,
     "Всем привет!\n[b]ход 0303 -> 0403[/b]\nвражда Борис\n[spoiler=ООС]Борис, без обид :)[/spoiler]"),
    ("Борис", "2026-12-05T18:04+03:00", "2026-12-06T21:10+03:00",
     '[quote="Anna_K"]вражда Борис[/quote]\nНу ок :D\nход 1818 -> 1718\nналог 2'),
    ("Zloy_Тролль", "2026-12-05T19:00+03:00", None, "а можно мне тоже поиграть?"),
    ("Вера Сергеевна", "2026-12-06T12:30+03:00", None, "Добрый день\nналог 2"),
    ("Anna_K", "2026-12-06T17:50+03:00", None, "Забыла: [b]вражда Вера[/b]"),
]


def read(name: str) -> list[tuple[str, datetime, datetime | None, str]]:
    thread = read_thread((PAGES / name).read_bytes(), timezone="Europe/Moscow", today=TODAY)
    assert thread.problems == []
    return [(p.author, p.posted_at, p.edited_at, p.text) for p in thread.posts]


def expected(spoiler_title: bool = True) -> list[tuple[str, datetime, datetime | None, str]]:
    rows = [(a, at(t), at(e) if e else None, text) for a, t, e, text in THREAD]
    if not spoiler_title:  # Invision's spoiler has no title of its own
        a, t, e, text = rows[1]
        rows[1] = (a, t, e, text.replace("[spoiler=ООС]", "[spoiler]"))
    return rows


@pytest.mark.parametrize(("page", "engine"), [("phpbb.html", "phpbb"), ("xenforo.html", "xenforo"),
                                              ("vbulletin.html", "vbulletin"), ("smf.html", "smf"),
                                              ("invision.html", "invision")])
def test_each_engine_reads_author_time_and_the_text_typed(page: str, engine: str) -> None:
    """Author, time (the edit's too) and body as BBCode: bold, the spoiler and the quote kept as
    markup, line breaks kept, smileys as their text, the signature and the «edited» notice left
    out; the engine told from the page."""
    thread = read_thread((PAGES / page).read_bytes(), timezone="Europe/Moscow", today=TODAY)
    assert thread.engine == engine
    posts = read(page)
    if engine == "phpbb":  # its page 3 still shows Анна's post of the step before
        assert posts[0][:2] == ("Anna_K", at("2026-12-03T09:00+03:00"))
        posts = posts[1:]
    assert posts == expected(spoiler_title=engine != "invision")
    assert not any("с ув. Вера" in text or "Правила" in text for *_, text in posts), "a signature was read"


def test_shown_times_are_read_in_the_zone_given() -> None:
    """vBulletin and SMF show local times only («Вчера, 12:30»): the zone named decides, and
    «вчера» counts from the day the page is read."""
    moscow = read("vbulletin.html")
    utc = read_thread((PAGES / "vbulletin.html").read_bytes(), timezone="UTC", today=TODAY).posts
    assert moscow[4][1] == at("2026-12-06T12:30+03:00")
    assert utc[4].posted_at == at("2026-12-06T12:30+00:00")


def test_feeds_atom_and_rss() -> None:
    """phpBB's Atom feed (its «Статистика» line dropped, ``updated`` later than ``published`` is
    the edit) and an RSS 2.0 feed (``dc:creator`` or ``author``'s name), oldest first."""
    atom = read_thread((PAGES / "phpbb_feed.atom").read_bytes())
    assert atom.engine == "atom"
    assert [(p.author, p.posted_at, p.edited_at, p.text) for p in atom.posts] == [expected()[1], expected()[2],
                                                                                  expected()[5]]
    rss = read_thread((PAGES / "smf_feed.rss").read_bytes())
    assert rss.engine == "rss"
    assert [(p.author, p.posted_at, p.text) for p in rss.posts] == [r[:2] + r[3:] for r in (expected()[3], expected()[4])]


def test_a_feed_entity_is_never_expanded() -> None:
    """An XML feed is read without its DTD: a «billion laughs» or an external entity stays text."""
    feed = ('<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<rss version="2.0"><channel><item><author>Борис</author><pubDate>Sat, 05 Dec 2026 15:04:00 GMT'
            '</pubDate><description>налог 2 &amp;x;</description></item></channel></rss>')
    posts = read_thread(feed).posts
    assert "root:" not in posts[0].text


def test_new_worlds_only_bold_counts_on_a_post_read_from_a_page() -> None:
    """000 II.3 «Указывайте бонус и действия жирным, иначе они не учитываются»: the page's
    <strong> is [b], so the bold lines are the orders and the rest is echoed as not bold; the
    quote of another player's bold city is set aside."""
    html = ('<div>Всем привет, мой ход.<br><strong>религия дуализм</strong><br><b>город X7</b><br>'
            '<span style="font-weight: bold">занять W7 W8</span><br>город W9 — это потом<br>'
            '<blockquote class="ipsQuote" data-ipsquote-username="Анна"><div class="ipsQuote_citation">Анна сказал:'
            '</div><div class="ipsQuote_contents"><p><strong>город F8</strong></p></div></blockquote></div>')
    text = fragment_text(html)
    assert text == ("Всем привет, мой ход.\n[b]религия дуализм[/b]\n[b]город X7[/b]\n[b]занять W7 W8[/b]\n"
                    'город W9 — это потом\n[quote="Анна"][b]город F8[/b][/quote]')
    game = Game.create("new-worlds", "nw", ["Анна", "Борис"], seed="corpus")
    receipt = game.check_post("Борис", text)
    assert [o.text for o in receipt.orders] == ["религия дуализм", "город X7", "занять W7 W8"]
    assert 5 in receipt.unbold and receipt.hidden == [6]


def test_markup_turned_back() -> None:
    """Lists, links, code, underline and strike-through, an inline spoiler, a mention, emoji
    pictures, and line breaks against blocks."""
    html = ('<div class="bbWrapper"><u>лево</u> <s>право</s> <i>наискось</i><br>'
            '<a href="https://example.org/map" class="link">карта</a> https://example.org '
            '<a href="/members/boris.61/" class="username" data-user-id="61">@Борис</a><br>'
            '<ul><li>ход 0303 0304</li><li>налог 1</li></ul>'
            '<div class="bbCodeBlock bbCodeBlock--code"><div class="bbCodeBlock-title">Код:</div>'
            '<pre class="bbCodeCode"><code>ход 1 2\nход 3 4</code></pre></div>'
            '<span class="bbCodeInlineSpoiler">секрет</span> <img class="smilie smilie--emoji" alt="😀" src="x.png">'
            '<p>абзац</p><p>ещё абзац</p></div>')
    assert fragment_text(html) == (
        "[u]лево[/u] [s]право[/s] [i]наискось[/i]\n[url=https://example.org/map]карта[/url] https://example.org "
        "@Борис\n[list][*]ход 0303 0304\n[*]налог 1[/list]\n[code]ход 1 2\nход 3 4[/code]\n"
        "[ispoiler]секрет[/ispoiler] 😀\nабзац\nещё абзац")


def test_bad_pages_are_refused_clearly() -> None:
    """A page of no known engine, an empty one, a bad time zone: a clear error, no traceback."""
    with pytest.raises(ThreadError, match="не узнан движок форума"):
        read_thread("<html><body><p>Привет</p></body></html>")
    with pytest.raises(ThreadError, match="пуста"):
        read_thread(b"  ")
    with pytest.raises(ThreadError, match="часовой пояс"):
        read_thread((PAGES / "smf.html").read_bytes(), timezone="Europe/Moskva")


def test_a_post_whose_time_cannot_be_read_is_listed_not_guessed() -> None:
    page = (PAGES / "vbulletin.html").read_text(encoding="utf-8").replace(
        '<span class="date">05.12.2026,&nbsp;<span class="time">19:00</span></span>',
        '<span class="date">когда-то</span>')
    thread = read_thread(page, timezone="Europe/Moscow", today=TODAY)
    assert [p.author for p in thread.posts].count("Zloy_Тролль") == 0
    assert any("когда-то" in ru and "Zloy_Тролль" in ru for ru, _ in thread.problems)


def test_windows_1251_page() -> None:
    """Old Russian forums are windows-1251: the page's charset decides."""
    page = (PAGES / "vbulletin.html").read_text(encoding="utf-8").replace("charset=UTF-8", "charset=windows-1251")
    posts = read_thread(page.encode("windows-1251"), timezone="Europe/Moscow", today=TODAY).posts
    assert posts[1].author == "Anna_K" and "вражда Борис" in posts[1].text


@pytest.mark.parametrize(("shown", "moment"), [
    ("05.12.2026, 18:04", "2026-12-05T18:04+03:00"),
    ("Сб дек 05, 2026 6:04 pm", "2026-12-05T18:04+03:00"),
    ("05 Декабря 2026, 18:04:11", "2026-12-05T18:04:11+03:00"),
    ("Сегодня, 18:04", "2026-12-07T18:04+03:00"),
    ("Yesterday at 09:10 PM", "2026-12-06T21:10+03:00"),
    ("12-05-2026, 09:10 PM", "2026-12-05T21:10+03:00"),
    ("Last edited by Boris77 on Sat Dec 05, 2026 9:10 pm, edited 1 time in total.", "2026-12-05T21:10+03:00"),
    ("5 мая 2026 в 12:00", "2026-05-05T12:00+03:00"),
])
def test_shown_times(shown: str, moment: str) -> None:
    from zoneinfo import ZoneInfo

    assert from_shown(shown, ZoneInfo("Europe/Moscow"), TODAY) == at(moment)


def test_a_shown_time_that_is_no_time() -> None:
    from zoneinfo import ZoneInfo

    for text in ("давно", "31.02.2026 10:00", "05.12.2026 25:00"):
        with pytest.raises(TimeUnreadable):
            from_shown(text, ZoneInfo("UTC"), TODAY)


def test_any_input_is_a_thread_or_a_clear_refusal() -> None:
    """«Bad input gets a clear error, never a traceback»: cut pages, junk bytes, feeds broken
    off, markup nested wrong."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    whole = (PAGES / "xenforo.html").read_bytes()
    feed = (PAGES / "phpbb_feed.atom").read_bytes()

    @settings(max_examples=60, deadline=None)
    @given(st.one_of(st.binary(max_size=300), st.integers(0, len(whole)).map(lambda n: whole[:n]),
                     st.integers(0, len(feed)).map(lambda n: feed[:n]),
                     st.text(alphabet="<>/[]\"= abdivpclass-_бж\n", max_size=300)))
    def reads(page: bytes | str) -> None:
        try:
            thread = read_thread(page, timezone="Europe/Moscow", today=TODAY)
        except ThreadError:
            return
        assert all(post.author for post in thread.posts)

    reads()
