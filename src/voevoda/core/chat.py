"""Messages for chats: what a bot sends, laid out in Telegram's HTML subset.

The channels of :mod:`voevoda.core.outputs` named ``telegram …`` build every answer and push of
the Telegram bot (docs/telegram.md) from one viewer's outputs — the dashboard, the report
document, the map, the echo of a post — and lay them out here, in one language:

- Telegram's HTML subset only (``<b> <i> <code> <pre> <blockquote>``), every character that
  comes from a player or a game (names, posts, reasons, order texts) escaped, so that «<b>» in
  a post is shown, never obeyed;
- text cut within 4,096 characters a message (:func:`voevoda.core.markup.split_telegram`, as
  Telegram counts them), a picture's caption within 1,024;
- a picture is the viewer's map, kept as the SVG it is drawn from (:attr:`ChatMessage.map_svg`)
  and rendered to PNG only when sent: the PNG is a function of the SVG alone, as the ``map png``
  channel is of ``map``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from voevoda.core.markup import TELEGRAM_LIMIT, split_telegram, visible_length

if TYPE_CHECKING:
    from voevoda.core.errors import Problem
    from voevoda.core.outputs import Dashboard, Echo

CAPTION_LIMIT = 1024
"""Telegram's limit for a picture's caption."""


@dataclass(frozen=True)
class ChatMessage:
    """One message of an answer or a push: text in Telegram's HTML, or the viewer's map as a
    picture with an HTML caption."""

    text: str = ""
    map_svg: str | None = None
    caption: str = ""

    @property
    def is_picture(self) -> bool:
        return self.map_svg is not None

    def png(self, zoom: float = 1.0) -> bytes:
        """The picture, drawn (:func:`voevoda.core.maps.to_png`, the fonts shipped in the package)."""
        from voevoda.core.maps import to_png

        if self.map_svg is None:
            raise ValueError("a text message has no picture")
        return to_png(self.map_svg, zoom)

    def to_json(self) -> dict[str, str]:
        if self.map_svg is not None:
            return {"map_svg": self.map_svg, "caption": self.caption}
        return {"text": self.text}


def messages_text(messages: Iterable[ChatMessage]) -> str:
    """Messages as one text (what a ``telegram …`` channel gives the non-interference test)."""
    return json.dumps([m.to_json() for m in messages], ensure_ascii=False)


def esc(text: object) -> str:
    """Any text from a player or a game, made safe for Telegram's HTML."""
    return escape(str(text), quote=False)


def texts(html_text: str, limit: int = TELEGRAM_LIMIT) -> list[ChatMessage]:
    """An HTML text as messages of at most ``limit`` characters."""
    return [ChatMessage(text=part) for part in split_telegram(html_text, limit) if part.strip()]


def caption(html_text: str, limit: int = CAPTION_LIMIT) -> str:
    """A picture's caption within ``limit``: cut at a line or a word, with «…» when cut."""
    if visible_length(html_text) <= limit:
        return html_text
    return split_telegram(html_text, limit - 1)[0] + "…"


def preformatted(text: str) -> list[ChatMessage]:
    """A plain text (the game master's outputs of the command line) as ``<pre>`` messages."""
    return texts(f"<pre>{esc(text)}</pre>")


WORDS: dict[str, tuple[str, str]] = {
    "game": ("Игра", "Game"),
    "turn": ("ход", "turn"),
    "phase": ("фаза", "phase"),
    "step_open": ("открыт шаг", "open step"),
    "over": ("игра окончена", "game over"),
    "posted": ("приказы получены", "orders in"),
    "awaited": ("ждём приказов", "orders awaited"),
    "not_awaited": ("не ходит", "not to move"),
    "you": ("вы", "you"),
    "bot": ("компьютер", "computer"),
    "refused": ("Не принято", "Refused"),
    "accepted": ("Принято", "Accepted"),
    "would": ("Будет принято", "Would be accepted"),
    "understood": ("Понято", "Understood"),
    "not_read": ("Не прочитано как приказ", "Not read as orders"),
    "not_bold": ("Не выделено жирным — не читается", "Not in bold — not read"),
    "warnings": ("Предупреждения", "Warnings"),
    "set_aside": ("Цитаты и спойлеры не читаются: строки", "Quotes and spoilers set aside: lines"),
    "line": ("строка", "line"),
    "step": ("шаг", "step"),
    "resolved": ("рассчитан шаг {step} (ход {turn})", "step {step} resolved (turn {turn})"),
    "map_after": ("карта после хода", "map after turn"),
    "map_now": ("карта", "map"),
    "public_map": ("общая карта", "public map"),
    "deadline": ("срок шага", "deadline of step"),
    "you_posted": ("ваши приказы получены; их можно заменить до срока",
                   "your orders are in; you may replace them until the deadline"),
    "you_awaited": ("ждём ваших приказов", "we are waiting for your orders"),
    "still_awaited": ("ещё ждём", "still awaited"),
    "nobody_awaited": ("все приказы получены", "all orders are in"),
}


def word(key: str, lang: str) -> str:
    ru, en = WORDS[key]
    return ru if lang == "ru" else en


def _pick(lang: str, ru: str | None, en: str | None) -> str:
    return (ru if lang == "ru" else en) or ru or en or ""


def game_title(name: str, title_ru: str, title_en: str, lang: str) -> str:
    return f"<b>{esc(word('game', lang))} «{esc(name)}»</b> — {esc(_pick(lang, title_ru, title_en))}"


def status_html(board: Dashboard, viewer: str, lang: str) -> str:
    """The status of a game as the dashboard gives it for ``viewer``: turn, phase and the open
    step; each seat awaited and whether it has posted; the viewer's own prompt (the dashboard
    holds a prompt only for the seat itself and the game master)."""
    lines = [game_title(board.name, board.title_ru, board.title_en, lang),
             f"{word('turn', lang)} {board.turn}, {word('phase', lang)} {esc(board.phase)}"
             + ("" if board.over else f", {word('step_open', lang)} {board.step_open}")]
    if board.over:
        reason = _pick(lang, board.result_ru, board.result_en)
        lines.append(f"<b>{word('over', lang)}</b>: {esc(', '.join(board.winners) or '—')}"
                     + (f" ({esc(reason)})" if reason else ""))
        return "\n".join(lines)
    for seat in board.seats:
        if not seat.awaited:
            continue
        mark = "✓" if seat.posted else "…"
        who = f"<b>{esc(seat.player)}</b>" if seat.player == viewer else esc(seat.player)
        state = word("posted" if seat.posted else "awaited", lang)
        line = f"{mark} {who} — {state}"
        prompt = _pick(lang, seat.prompt_ru, seat.prompt_en)
        if prompt:
            line += f"\n    <i>{esc(prompt)}</i>"
        lines.append(line)
    return "\n".join(lines)


def reminder_html(board: Dashboard, viewer: str, lang: str, deadline: str) -> str | None:
    """A reminder before the deadline, for ``viewer``: a seat awaited hears whether its orders
    are in (a seat that has posted or is not awaited hears nothing: ``None``); anybody else (the
    group, the game master) hears who is still awaited."""
    head = (f"{game_title(board.name, board.title_ru, board.title_en, lang)}\n"
            f"⏰ {word('deadline', lang)} {board.step_open}: <b>{esc(deadline)}</b>")
    if board.over:
        return None
    own = next((s for s in board.seats if s.player == viewer), None)
    if own is not None:
        if not own.awaited or own.posted:
            return None
        prompt = _pick(lang, own.prompt_ru, own.prompt_en)
        return head + f"\n{word('you_awaited', lang)}" + (f": <i>{esc(prompt)}</i>" if prompt else "")
    waiting = [s.player for s in board.seats if s.awaited and not s.posted]
    if not waiting:
        return head + f"\n{word('nobody_awaited', lang)}"
    return head + f"\n{word('still_awaited', lang)}: " + ", ".join(esc(p) for p in waiting)


def _where(problem: Problem, lang: str) -> str:
    if problem.line is None:
        return ""
    return f"<code>{word('line', lang)} {esc(problem.where())}</code> "


def _problem(problem: Problem, lang: str) -> str:
    order = f"«{esc(problem.order)}» — " if problem.order else ""
    rule = f" <i>[{esc(problem.rule)}]</i>" if problem.rule else ""
    return f"• {_where(problem, lang)}{order}{esc(_pick(lang, problem.message_ru, problem.message_en))}{rule}"


def echo_html(echo: Echo, lang: str) -> str:
    """The echo of a post (docs/posts.md «The echo»), as the web's order form lays it out: how
    many orders were accepted and how many lines refused, each refused line with its line and
    column, its reason and the suggestion the reader makes; «replaces your post of …»; the
    orders that stand (a follow-up's own marked «+»), with their prices; the lines not read as
    orders, the lines set aside, the warnings."""
    clean = echo.orders and not echo.problems and not echo.warnings
    mark = ("✅" if clean else "⚠️") if echo.accepted else "❌"
    head = _pick(lang, echo.head_ru, echo.head_en)
    head = head[:1].upper() + head[1:]
    step = f", {word('step', lang)} {echo.step}" if echo.step else ""
    lines = [f"{mark} <b>{esc(head)}</b>{step}"]
    if echo.problems:
        if echo.accepted:
            lines.append(f"<b>{word('refused', lang)}:</b>")
        lines.extend(_problem(p, lang) for p in echo.problems)
    replaced = _pick(lang, echo.replaced_ru, echo.replaced_en) if echo.replaced_ru or echo.replaced_en \
        else echo.replaced
    if replaced:
        lines.append(f"<i>{esc(replaced)}</i>")
    if echo.orders:
        label = "understood" if not echo.accepted else "would" if echo.check else "accepted"
        lines.append(f"<b>{word(label, lang)}:</b>")
        for order in echo.orders:
            plus = "<b>+</b> " if order.added else ""
            number = f"<code>{order.line}</code> " if order.line else ""
            lines.append(f"• {plus}{number}{esc(_pick(lang, order.text_ru, order.text_en))}")
    if echo.warnings:
        lines.append(f"<b>{word('warnings', lang)}:</b>")
        lines.extend(_problem(w, lang) for w in echo.warnings)
    faint = set(echo.unbold)
    for key, group in (("not_read", [p for p in echo.prose if p[0] not in faint]),
                       ("not_bold", [p for p in echo.prose if p[0] in faint])):
        if group:
            lines.append(f"<b>{word(key, lang)}:</b>")
            lines.extend(f"• <code>{number}</code> {esc(text)}" for number, text in group)
    if echo.hidden:
        lines.append(f"<i>{word('set_aside', lang)} {', '.join(str(n) for n in echo.hidden)}</i>")
    return "\n".join(lines)


def push_head(board: Dashboard, step: int, turn: int, lang: str) -> str:
    """The first message of a push after a resolution: the game, the step and its turn."""
    return (f"{game_title(board.name, board.title_ru, board.title_en, lang)}\n"
            f"🎲 {word('resolved', lang).format(step=step, turn=turn)}")


def map_caption(board: Dashboard, viewer: str, lang: str, turn: int | None, public: bool) -> str:
    who = word("public_map", lang) if public else esc(viewer)
    when = f"{word('map_after', lang)} {turn}" if turn is not None else word("map_now", lang)
    return caption(f"<b>«{esc(board.name)}»</b>: {when} — {who}")


def joined(parts: Sequence[list[ChatMessage]]) -> list[ChatMessage]:
    return [m for part in parts for m in part]


__all__ = ["CAPTION_LIMIT", "ChatMessage", "caption", "echo_html", "esc", "game_title", "joined", "map_caption",
           "messages_text", "preformatted", "push_head", "reminder_html", "status_html", "texts", "word"]
