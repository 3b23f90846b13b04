"""The Bot API's stand-in refuses what Telegram refuses (https://core.telegram.org/bots/api
«Formatting options», «sendMessage», «sendPhoto»): the tests that pass against it would fail on a
message Telegram would not take."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot
from telegram.error import BadRequest, Forbidden

from tests.chat.telegram.botapi import TOKEN, BotApi, Refused, parse_html


@pytest.mark.parametrize("bad", ["a < b", "Том & Джерри", "<b>bold", "<b>x</i>", "<h1>title</h1>",
                                 "<pre><b>x</b></pre>", "<blockquote><blockquote>x</blockquote></blockquote>",
                                 "<b class=\"x\">y</b>"])
def test_html_that_telegram_refuses_is_refused(bad: str) -> None:
    with pytest.raises(Refused, match="can't parse entities"):
        parse_html(bad)


def test_the_html_subset_is_read_as_telegram_reads_it() -> None:
    assert parse_html("<b>Игра «x&lt;b&gt;»</b> &amp; <i>ко</i>\n<pre><code>1 2</code></pre>") == \
        "Игра «x<b>» & ко\n1 2"
    assert parse_html('<blockquote expandable>скрыто</blockquote> <a href="https://t.me/x">t</a>') == "скрыто t"


def test_sending_checks_lengths_chats_and_pictures(api: BotApi) -> None:
    async def calls() -> None:
        api.chat(7)
        async with Bot(TOKEN, base_url=api.base_url) as bot:
            await bot.send_message(7, "<b>" + "я" * 4096 + "</b>", parse_mode="HTML")  # 4,096 visible: fits
            with pytest.raises(BadRequest, match="(?i)message is too long"):
                await bot.send_message(7, "я" * 4097)
            with pytest.raises(BadRequest, match="(?i)message is too long"):
                await bot.send_message(7, "😀" * 2049)  # 4,098 UTF-16 units
            with pytest.raises(BadRequest, match="(?i)chat not found"):
                await bot.send_message(8, "hello")
            with pytest.raises(BadRequest, match="(?i)message text is empty"):
                await bot.send_message(7, "<b></b>", parse_mode="HTML")
            with pytest.raises(BadRequest, match="(?i)caption is too long"):
                await bot.send_photo(7, photo=b"\x89PNG\r\n\x1a\n" + bytes(100), caption="x" * 1025)
            with pytest.raises(BadRequest, match="(?i)image_process_failed"):
                await bot.send_photo(7, photo=b"not a picture")
            api.failing[7] = 1
            with pytest.raises(Forbidden, match="(?i)blocked"):
                await bot.send_message(7, "hello")
            await bot.send_message(7, "hello again")
    asyncio.run(calls())
    sends = [c for c in api.calls if c.method != "getMe"]
    assert [c.ok for c in sends] == [True, False, False, False, False, False, False, False, True]
    assert [c.method for c in api.calls if c.ok] == ["getMe", "sendMessage", "sendMessage"]
