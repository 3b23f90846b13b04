"""voevoda.core.chat: messages in Telegram's HTML subset — every character a player or a game
wrote escaped, texts cut within 4,096 characters and captions within 1,024 as Telegram counts them
(UTF-16 units of the text once its tags are read)."""

from __future__ import annotations

from tests.chat.telegram.botapi import parse_html, units
from voevoda.core import outputs
from voevoda.core.chat import CAPTION_LIMIT, caption, esc, texts
from voevoda.core.engine import Game
from voevoda.core.markup import TELEGRAM_LIMIT


def test_a_caption_is_cut_within_telegrams_limit_with_an_ellipsis() -> None:
    long = "<b>Карта</b> " + " ".join(["слово😀"] * 400)
    cut = caption(long)
    visible = parse_html(cut)
    assert units(visible) <= CAPTION_LIMIT and visible.endswith("…") and visible.startswith("Карта слово😀")
    assert caption("<b>коротко</b>") == "<b>коротко</b>"


def test_long_text_is_cut_into_messages_that_each_fit() -> None:
    text = "\n".join(f"<b>строка {i}</b> — {esc('<i>&</i>')} 😀" for i in range(600))
    parts = texts(text)
    assert len(parts) > 1
    assert all(units(parse_html(p.text)) <= TELEGRAM_LIMIT for p in parts)
    assert "\n".join(parse_html(p.text) for p in parts).count("<i>&</i>") == 600


def test_names_and_posts_are_escaped_everywhere() -> None:
    """A game, its players and a post full of Telegram's HTML: shown as typed, never obeyed."""
    game = Game.create("ring-of-power", "<b>x</b> & <i>", ["Анна</b>", "Борис<pre>"], seed="esc")
    status = outputs.chat_status(game, "Анна</b>", "ru")[0].text
    assert parse_html(status).startswith("Игра «<b>x</b> & <i>» — Кольцо Власти")
    assert "Борис<pre>" in parse_html(status)
    echo = outputs.telegram_check(game, "Анна</b>", "<b>ход 0303 0403</b>\n</code>&amp;<tg-spoiler>", "ru")
    import json

    shown = parse_html(json.loads(echo)[0]["text"])
    assert "</code>&amp;<tg-spoiler>" in shown
