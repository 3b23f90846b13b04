"""Reading a New Worlds post: only bold text counts, text in spoilers and quotes is ignored.

«3. Указывайте бонус и действия жирным, иначе они не учитываются. 4. Оставляйте неигровой
текст под спойлером.» A post is BBCode (``[b]…[/b]``, ``[B]``, ``[strong]``, nested tags of any
case) or Markdown (``**…**``, ``__…__``); ``[spoiler]``, ``[quote]``, ``[hide]``, ``[offtop]``,
Markdown ``>`` lines and ``||…||`` are set aside with everything inside. What is left of each
line in bold is that line's order text; every character keeps the column it had in the post,
so an error points where the player typed it. Lines with nothing bold are prose: echoed as
"not read as orders", never refused.

This module is the one place the game reads markup; it follows the interface of the core's
post reader (``PostLine``: ``number``, ``text``, ``column(i)``) so that switching to it is a
change of import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voevoda.core.errors import ParseError, Problem, invalid

MAX_POST_BYTES = 64 * 1024
BOLD_TAGS = frozenset({"b", "strong", "bold"})
SET_ASIDE = frozenset({"quote", "q", "spoiler", "spoil", "hide", "hidden", "offtop", "offtopic", "ot", "ooc",
                       "img", "image", "media", "video", "youtube", "attach", "attachment"})
READ_THROUGH = frozenset({"i", "em", "u", "ins", "s", "strike", "del", "color", "colour", "size", "font",
                          "face", "center", "centre", "left", "right", "justify", "align", "indent", "url",
                          "highlight", "mark", "sup", "sub", "tt", "code", "pre", "list", "ul", "ol", "li", "*",
                          "h1", "h2", "h3", "heading", "italic", "underline"})
BREAKS = frozenset({"*", "li", "list", "ul", "ol", "center", "centre", "left", "right", "justify", "h1", "h2",
                    "h3", "heading"})
_TAG = re.compile(r"\[(/?)([A-Za-z][A-Za-z0-9_]*|\*)((?:=|\s)[^\[\]\n]*)?\]")


@dataclass(frozen=True)
class PostLine:
    number: int
    text: str
    columns: tuple[int, ...]
    original: str = ""

    def column(self, index: int) -> int:
        if not self.columns:
            return 1
        if index < 0:
            index = 0
        if index < len(self.columns):
            return self.columns[index]
        return self.columns[-1] + 1


@dataclass(frozen=True)
class Post:
    orders: tuple[PostLine, ...]
    prose: tuple[PostLine, ...]
    notes: tuple[Problem, ...] = field(default=())


@dataclass
class _Char:
    ch: str
    line: int
    col: int
    bold: bool


def read(text: str) -> Post:
    """Split a post into bold order lines and prose, spoilers and quotes set aside."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_POST_BYTES:
        raise ParseError([invalid(f"пост слишком длинный: {size // 1024} КБ при пределе {MAX_POST_BYTES // 1024} КБ",
                                  f"the post is too long: {size // 1024} KB, the limit is {MAX_POST_BYTES // 1024} KB")])
    chars, notes = _bbcode(text)
    originals = text.split("\n")
    orders: list[PostLine] = []
    prose: list[PostLine] = []
    for logical in _lines(chars):
        kept = _markdown(logical)
        if not kept or not "".join(c.ch for c in kept).strip():
            continue
        number = kept[0].line
        original = originals[number - 1].rstrip("\r") if number - 1 < len(originals) else ""
        bold = _bold_runs(kept)
        whole = _strip(PostLine(number, "".join(c.ch for c in kept), tuple(c.col for c in kept), original))
        if bold and "".join(c.ch for c in bold).strip():
            orders.append(_strip(PostLine(number, "".join(c.ch for c in bold), tuple(c.col for c in bold), original)))
        elif whole.text:
            prose.append(whole)
    return Post(tuple(orders), tuple(prose), tuple(notes))


def _strip(line: PostLine) -> PostLine:
    text = line.text
    start = len(text) - len(text.lstrip())
    end = max(start, len(text.rstrip()))
    return PostLine(line.number, text[start:end], line.columns[start:end], line.original)


def _bbcode(text: str) -> tuple[list[_Char], list[Problem]]:
    out: list[_Char] = []
    aside: list[tuple[str, int, int]] = []
    bold = 0
    line_no, line_start, pos = 1, 0, 0
    for match in _TAG.finditer(text):
        start, end = match.span()
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name not in READ_THROUGH and name not in SET_ASIDE and name not in BOLD_TAGS:
            continue
        line_no, line_start = _emit(text, pos, start, line_no, line_start, out, bool(aside), bold > 0)
        pos = end
        column = start - line_start + 1
        if name in SET_ASIDE:
            if not closing:
                aside.append((name, line_no, column))
            elif any(a[0] == name for a in aside):
                while aside and aside.pop()[0] != name:
                    pass
            if out and out[-1].ch != "\n":
                out.append(_Char("\n", line_no, column, False))
            continue
        if aside:
            continue
        if name in BOLD_TAGS:
            bold = max(0, bold + (-1 if closing else 1))
        elif name in BREAKS and out and out[-1].ch != "\n":
            out.append(_Char("\n", line_no, column, False))
    _emit(text, pos, len(text), line_no, line_start, out, bool(aside), bold > 0)
    notes: list[Problem] = []
    if aside:
        name, line, column = aside[0]
        notes.append(invalid(f"тег [{name}] не закрыт: всё после него (со строки {line}) не читается",
                             f"the [{name}] tag is never closed: nothing after it (from line {line}) is read",
                             line, column))
    return out, notes


def _emit(text: str, start: int, end: int, line_no: int, line_start: int, out: list[_Char], inside: bool,
          bold: bool) -> tuple[int, int]:
    for index in range(start, end):
        ch = text[index]
        if ch == "\n":
            out.append(_Char("\n", line_no, index - line_start + 1, False))
            line_no += 1
            line_start = index + 1
            continue
        if inside or ch == "\r":
            continue
        out.append(_Char(ch, line_no, index - line_start + 1, bold))
    return line_no, line_start


def _lines(chars: list[_Char]) -> list[list[_Char]]:
    lines: list[list[_Char]] = [[]]
    for c in chars:
        if c.ch == "\n":
            lines.append([])
        else:
            lines[-1].append(c)
    return lines


def _markdown(chars: list[_Char]) -> list[_Char]:
    text = "".join(c.ch for c in chars)
    if text.lstrip().startswith(">"):
        return []
    for delimiter, kind in (("||", "spoiler"), ("**", "bold"), ("__", "bold")):
        chars = _pair(chars, delimiter, kind)
    return chars


def _pair(chars: list[_Char], delimiter: str, kind: str) -> list[_Char]:
    text = "".join(c.ch for c in chars)
    if delimiter not in text:
        return chars
    size = len(delimiter)
    spots: list[int] = []
    index = text.find(delimiter)
    while index >= 0:
        spots.append(index)
        index = text.find(delimiter, index + size)
    drop: set[int] = set()
    opener: int | None = None
    for at in spots:
        if opener is None:
            opener = at
            continue
        if at >= opener + size:
            drop.update(range(opener, opener + size))
            drop.update(range(at, at + size))
            if kind == "spoiler":
                drop.update(range(opener + size, at))
            else:
                for i in range(opener + size, at):
                    chars[i].bold = True
            opener = None
    return [c for i, c in enumerate(chars) if i not in drop]


def _bold_runs(chars: list[_Char]) -> list[_Char]:
    """The bold characters of a line, separate runs joined by one blank (as the core's reader
    does); the order grammar tells two orders on one line apart by their keywords."""
    out: list[_Char] = []
    previous = False
    for c in chars:
        if c.bold:
            if out and not previous:
                out.append(_Char(" ", c.line, c.col, True))
            out.append(c)
        previous = c.bold
    return out
