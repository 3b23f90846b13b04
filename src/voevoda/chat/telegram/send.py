"""Sending messages of :mod:`voevoda.core.chat` through the Bot API: text with ``sendMessage``
in HTML, the map with ``sendPhoto`` (or ``sendDocument`` when it is asked for as a file or is
beyond what Telegram takes as a photo)."""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Sequence
from typing import Any

from telegram import Bot, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, RetryAfter

from voevoda.core.chat import ChatMessage

log = logging.getLogger("voevoda.telegram")

PHOTO_BYTES = 10 * 1024 * 1024
"""Telegram takes a photo of at most 10 MB, whose width and height add up to at most 10,000 and
whose sides are at most 20 to 1."""
PHOTO_SIDES = 10_000
MAX_WAIT = 30.0
"""The longest a send waits when Telegram says «retry after» (longer: the send fails)."""


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def fits_a_photo(png: bytes) -> bool:
    width, height = png_size(png)
    if not width or not height or len(png) > PHOTO_BYTES or width + height > PHOTO_SIDES:
        return False
    return max(width, height) / min(width, height) <= 20


def plain(html_text: str) -> str:
    """An HTML message without its tags (sent as plain text if Telegram ever refused the HTML)."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


async def _call(make: Any) -> Any:
    try:
        return await make()
    except RetryAfter as exc:
        wait = exc.retry_after if isinstance(exc.retry_after, int | float) else exc.retry_after.total_seconds()
        if wait > MAX_WAIT:
            raise
        await asyncio.sleep(wait)
        return await make()


async def send_messages(bot: Bot, chat_id: int, messages: Sequence[ChatMessage], *, reply_to: int | None = None,
                        markup: Any = None, as_file: bool = False, filename: str = "map.png") -> None:
    """Send ``messages`` to the chat in order; the first answers ``reply_to``, the last carries
    ``markup`` (inline buttons); a picture goes as a document with ``as_file``."""
    for index, message in enumerate(messages):
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to and index == 0 else None
        buttons = markup if index == len(messages) - 1 else None
        if message.is_picture:
            png = await asyncio.to_thread(message.png)
            caption = message.caption
            if as_file or not fits_a_photo(png):
                await _call(lambda png=png, caption=caption, reply=reply, buttons=buttons: bot.send_document(
                    chat_id, document=png, filename=filename, caption=caption, parse_mode=ParseMode.HTML,
                    reply_parameters=reply, reply_markup=buttons))
            else:
                await _call(lambda png=png, caption=caption, reply=reply, buttons=buttons: bot.send_photo(
                    chat_id, photo=png, caption=caption, parse_mode=ParseMode.HTML,
                    reply_parameters=reply, reply_markup=buttons))
            continue
        text = message.text
        try:
            await _call(lambda text=text, reply=reply, buttons=buttons: bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True),
                reply_parameters=reply, reply_markup=buttons))
        except BadRequest as exc:
            if "parse" not in str(exc).lower():
                raise
            log.error("Telegram refused the HTML of a message (%s); sent as plain text", exc)
            await _call(lambda text=text, reply=reply, buttons=buttons: bot.send_message(
                chat_id, plain(text), link_preview_options=LinkPreviewOptions(is_disabled=True),
                reply_parameters=reply, reply_markup=buttons))


__all__ = ["fits_a_photo", "png_size", "send_messages"]
