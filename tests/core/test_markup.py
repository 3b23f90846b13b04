"""The report model and its formats (issue 17, «Posts out»: BBCode that works on the common
forum engines with a flavour option, Markdown, and Telegram's HTML within its 4096-character
message limit, split cleanly)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voevoda.core.markup import (
    MESSAGE_BREAK,
    Document,
    Item,
    Paragraph,
    bold,
    italic,
    render,
    render_messages,
    split_telegram,
    visible_length,
)


def sample() -> Document:
    doc = Document("Ход 3 — Анна")
    doc.heading("Казна")
    doc.paragraph("Было ", bold("55"), ", стало ", bold("60"), ".")
    doc.bullets(["+7 доход", Item("−3 приказы", ["ход 0404 0405"])])
    doc.table(["Статья", "Сумма"], [["доход", "+7"], ["налог", "−1"]], align="lr")
    doc.spoiler("Подробности боя", [Paragraph("раунд 1: урон 261")])
    return doc


def test_plain_text_marks_nothing_and_is_never_wrapped() -> None:
    text = render(sample(), "text")
    assert text.startswith("Ход 3 — Анна\n============\nКазна\n-----\nБыло 55, стало 60.")
    assert "- +7 доход\n- −3 приказы\n    - ход 0404 0405" in text
    assert "Статья  Сумма\n------  -----\nдоход      +7\nналог      −1" in text
    assert "== Подробности боя ==\nраунд 1: урон 261" in text
    long = Document(None, [Paragraph("слово " * 100)])
    assert max(len(line) for line in render(long, "text").splitlines()) > 500


def test_generic_bbcode_uses_only_tags_every_forum_engine_knows() -> None:
    bb = render(sample(), "bbcode")
    tags = {t.lower() for t in re.findall(r"\[/?([a-z*]+)", bb)}
    assert tags <= {"b", "i", "u", "s", "list", "*", "quote", "code"}, tags
    assert "[u][b]Ход 3 — Анна[/b][/u]" in bb and "[b]Казна[/b]" in bb
    assert "[list]\n[*]+7 доход\n[*]−3 приказы\n[list]\n[*]ход 0404 0405\n[/list]\n[/list]" in bb
    assert "[code]Статья  Сумма" in bb
    assert "[b]Подробности боя[/b]\n[quote]\nраунд 1: урон 261\n[/quote]" in bb


@pytest.mark.parametrize(("flavour", "expected"), [
    ("phpbb", "[size=150][b]Ход 3 — Анна[/b][/size]"),
    ("xenforo", '[spoiler="Подробности боя"]'),
    ("xenforo", "[table]\n[tr][th]Статья[/th][th]Сумма[/th][/tr]"),
    ("smf", "[size=14pt]"),
    ("ipb", "[spoiler]\nраунд 1"),
    ("vbulletin", "[size=4]"),
])
def test_bbcode_flavours_add_what_their_engine_has(flavour: str, expected: str) -> None:
    assert expected in render(sample(), "bbcode", flavour)


def test_markdown_and_its_discord_flavour() -> None:
    md = render(sample(), "markdown")
    assert md.startswith("# Ход 3 — Анна\n\n## Казна\n\nБыло **55**")
    assert "| Статья | Сумма |\n|---|---:|\n| доход | +7 |" in md
    assert "<details>\n<summary>Подробности боя</summary>" in md
    discord = render(sample(), "markdown", "discord")
    assert "```\nСтатья  Сумма" in discord and "||раунд 1: урон 261||" in discord


def test_telegram_uses_its_html_subset() -> None:
    tg = render(sample(), "telegram")
    tags = {t for t in re.findall(r"</?([a-z]+)", tg)}
    assert tags <= {"b", "i", "u", "s", "code", "pre", "blockquote"}
    assert "<blockquote expandable><b>Подробности боя</b>" in tg
    assert "• +7 доход" in tg and "<pre>Статья  Сумма" in tg


def test_what_players_write_is_shown_never_obeyed() -> None:
    doc = Document(None, [Paragraph(["Игрок ", bold("[/B]<b>Вася*_"), " пишет [b]жирно[/b]"])])
    bb = render(doc, "bbcode")
    assert "[/B]" not in bb and "[b]жирно" not in bb and "[\u200b/B]" in bb
    assert "&lt;b&gt;Вася" in render(doc, "telegram")
    assert r"\*\_" in render(doc, "markdown")


def test_unknown_formats_and_flavours_are_refused() -> None:
    with pytest.raises(ValueError, match="pdf"):
        render(sample(), "pdf")
    with pytest.raises(ValueError, match="phpbb"):
        render(sample(), "bbcode", "nabble")


def _balanced(message: str) -> bool:
    stack: list[str] = []
    for closing, name in re.findall(r"<(/?)([a-z]+)", message):
        if closing:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
    return not stack


def test_a_long_telegram_report_is_cut_between_blocks_within_the_limit() -> None:
    doc = Document("Летопись")
    for i in range(60):
        doc.heading(f"Бой {i + 1}")
        doc.paragraph("Анна захватила владение 0405; ", bold("потери: 3 пешки"), ". " * 20)
    messages = render_messages(doc, "telegram")
    assert len(messages) > 1
    for m in messages:
        assert visible_length(m) <= 4096 and _balanced(m)
        assert m.startswith("<b>") and not m.endswith("\n")
    # nothing lost: the visible text of all messages is the whole report
    whole = "".join(re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", m)) for m in messages)
    assert whole == re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", render(doc, "telegram").replace(MESSAGE_BREAK, "")))


def test_a_spoiler_longer_than_a_message_is_reopened_in_the_next() -> None:
    doc = Document(None)
    doc.spoiler("Подробности", [Paragraph(f"раунд {i}: урон 261, осталось здоровья 40") for i in range(300)])
    messages = render_messages(doc, "telegram", limit=1000)
    assert len(messages) > 5
    for m in messages:
        assert visible_length(m) <= 1000 and _balanced(m)
        assert m.startswith("<blockquote expandable>") and m.endswith("</blockquote>")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=0, max_size=300), st.booleans()), min_size=1, max_size=40),
       st.integers(min_value=60, max_value=600))
def test_any_report_splits_into_balanced_messages_within_the_limit(parts: list[tuple[str, bool]], limit: int) -> None:
    doc = Document(None)
    for text, strong in parts:
        doc.paragraph(bold(text) if strong else italic(text))
    html = render(doc, "telegram")
    messages = split_telegram(html, limit)
    for m in messages:
        assert visible_length(m) <= limit and _balanced(m)
    assert re.sub(r"\s+", "", "".join(re.sub(r"<[^>]+>", "", m) for m in messages)) == re.sub(
        r"\s+", "", re.sub(r"<[^>]+>", "", html))


def test_telegram_does_not_nest_quotes() -> None:
    """A spoiler inside a spoiler (a battle's full detail inside a turn report) stays readable in
    Telegram, which does not nest quotes: the inner one is a bold title over its text."""
    inner = Document(None)
    inner.spoiler("Все раунды", [Paragraph("раунд 1")])
    doc = Document(None)
    doc.spoiler("Ход битвы", [Paragraph("итог"), *inner.blocks])
    tg = render(doc, "telegram")
    assert tg.count("<blockquote") == 1 and "<b>Все раунды</b>\nраунд 1" in tg
    assert render(doc, "bbcode").count("[quote]") == 2
