"""Posts in: the text a player posts on a forum, in Discord or in Telegram, turned into the
lines a ruleset's parser reads.

What the core does before any parser sees a post (docs/posts.md):

* **Markup is read through.** BBCode tags (``[b]``, ``[B]``, ``[i]``, ``[u]``, ``[s]``,
  ``[color=…]``, ``[size=…]``, ``[font=…]``, ``[url=…]``, ``[center]``, ``[list]``/``[*]``,
  ``[code]``, … in any case, nested) and Markdown (``**``, ``__``, ``*``, ``~~``, inline code,
  list bullets and numbers) are removed; what is left is the text the forum shows.
* **Quotes and spoilers are set aside**: ``[quote…]``, ``[spoiler…]``, ``[hide]``, ``[offtop]``,
  ``[img]`` and the like with everything inside them (nested too), Markdown ``>`` lines and
  Discord/Telegram ``||spoilers||``. None of it is ever read as orders.
* **Every character keeps its place.** Each :class:`PostLine` holds the text a parser reads and,
  for every character of it, the column it had in the original post (``PostLine.column``); its
  ``number`` is the line of the original post. An error found at index ``i`` of a line's text is
  reported at ``line.number``, ``line.column(i)``: the place the player typed it, markup and all.
* **Lines that do not begin like an order are prose**, not errors. A ruleset says what begins
  like one of its orders (:meth:`voevoda.core.ruleset.Ruleset.begins_order`); greetings,
  signatures, the template's headings and comments are echoed to the player under «не прочитано
  как приказы / not read as orders». A line that begins like an order and is malformed is an
  error, as before.
* **Bold-only posts** (:attr:`PostOptions.bold_only`): games such as New Worlds count only what
  the player wrote in bold («Указывайте бонус и действия жирным, иначе они не учитываются»);
  then a line's text is its bold runs, and a line with nothing bold is prose (echoed under
  «не прочитано как приказы», whatever it begins with: an order not in bold does not count).

Two helpers every parser shares live here too: :func:`read_int`, the one bounded reader of
numbers (ASCII digits only: ``'²'.isdigit()`` is true and ``int('²')`` fails; at most
:data:`MAX_DIGITS` digits), and :func:`suggest`, the nearest known names for a typo.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from voevoda.core.errors import ParseError, Problem, invalid
from voevoda.core.words import plural_ru

MAX_POST_BYTES = 64 * 1024
"""The largest post accepted, in bytes of UTF-8 (a long forum post is a few kilobytes)."""

MAX_DIGITS = 9
"""The most digits a number in a post may have: no quantity in any game comes near 10⁹."""

# -- BBCode --------------------------------------------------------------------------------

READ_THROUGH = frozenset({
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "color", "colour", "size", "font",
    "face", "center", "centre", "left", "right", "justify", "align", "indent", "url", "email", "highlight",
    "mark", "sup", "sub", "tt", "code", "pre", "plain", "noparse", "shadow", "glow", "list", "ul", "ol",
    "li", "*", "table", "tr", "td", "th", "br", "hr", "abbr", "acronym", "anchor", "h1", "h2", "h3",
    "heading", "bold", "italic", "underline", "user", "mention", "member", "icode", "move",
})
"""Tags whose content is read: the tag itself is markup, the text inside is the post's."""

SET_ASIDE = frozenset({
    "quote", "q", "spoiler", "spoil", "ispoiler", "hide", "hidden", "offtop", "offtopic", "ot", "ooc",
    "img", "image", "media", "video", "youtube", "attach", "attachment", "audio", "flash",
})
"""Tags whose content is never orders: quotes of other posts, spoilers (the place for non-game
text), and embedded pictures and media (their content is an address)."""

BOLD = frozenset({"b", "strong", "bold"})
BREAKS = frozenset({"*", "li", "br", "hr", "list", "ul", "ol", "tr", "table", "center", "centre",
                    "left", "right", "justify", "h1", "h2", "h3", "heading", "code", "pre"})
"""Tags that a forum shows as a line break: text on both sides of one becomes two lines."""

INVISIBLE = frozenset("\ufeff\u200b\u200c\u200d\u2060\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                      "\u2066\u2067\u2068\u2069\u180e")
"""Characters a forum shows as nothing: the byte-order mark a Notepad file begins with, zero-width
spaces and joiners, direction marks and soft hyphens (Telegram and Discord copies carry them)."""

SPACES = frozenset("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t")
"""Characters a forum shows as a space (no-break, narrow, thin, ideographic spaces, a tab): read
as a plain space, so that every game's parser splits words on them."""

_TAG = re.compile(r"\[(/?)([A-Za-z][A-Za-z0-9_]*|\*)((?:=|\s)[^\[\]\n]*)?\]")

# -- Markdown ----------------------------------------------------------------------------------

ARROWS = {ord(a): "→" for a in "➡⇒⟶⮕➔➙➛➜➝➞➟➠➢➣➤➥➦➧➨➩➪➭➮➯➱➲➳➵➸➺➻➼➽➾🠒🠖🠚🡒🡢🡪🡲🡺"}
"""Arrows a player draws a move with, from emoji keyboards and symbol tables: read as «→», the
arrow every game's orders know (``ход 0303 ➡ 0403`` is ``ход 0303 → 0403``)."""

_CUSTOM_EMOJI = re.compile(r"<a?:\w{2,32}:\d{5,20}>")
"""A Discord custom emoji as its text is copied: ``<:name:id>``, ``<a:name:id>`` when animated."""
_KEYCAP_BASE = "0123456789#*"
_BLOCK_QUOTE = re.compile(r"^\s*>>>")
"""Discord's «>>> »: everything after it, to the end of the message, is quoted."""

_BULLET = re.compile(r"^(\s*)(?:[-+*•·▪►–—]|\d{1,3}[.)])(?=\s)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_DELIMITERS = (("||", "spoiler"), ("**", "bold"), ("__", "bold"), ("~~", "plain"), ("`", "plain"),
               ("*", "plain"))


@dataclass(frozen=True)
class PostOptions:
    """How a game reads posts. ``bold_only``: only bold text counts (New Worlds).
    ``follow_ups``: a post that opens with «ещё», «дополнение», «забыл», «P.S.», «also» or
    «addendum» adds its orders to the player's standing post of the step instead of replacing it
    (:func:`follow_up`); a game whose posts cannot be added to says False."""

    bold_only: bool = False
    follow_ups: bool = True


@dataclass(frozen=True)
class PostLine:
    """One line of a post as a parser reads it.

    ``text`` is the line with markup read through; ``columns[i]`` is the 1-based column of
    ``text[i]`` in line ``number`` of the original post, so that a problem found at index ``i``
    points where the player typed it. ``original`` is that line as posted.
    """

    number: int
    text: str
    columns: tuple[int, ...]
    original: str = ""

    def column(self, index: int) -> int:
        """The original column of ``text[index]``; an index at (or past) the end of the text
        points just after its last character."""
        if not self.columns:
            return 1
        if index < 0:
            index = 0
        if index < len(self.columns):
            return self.columns[index]
        return self.columns[-1] + 1

    def slice(self, start: int, end: int | None = None) -> PostLine:
        """Part of the line, keeping each character's original column."""
        stop = len(self.text) if end is None else end
        return PostLine(self.number, self.text[start:stop], self.columns[start:stop], self.original)

    def strip(self) -> PostLine:
        """The line without leading and trailing blanks, columns kept."""
        text = self.text
        start = len(text) - len(text.lstrip())
        end = len(text.rstrip())
        return self.slice(start, max(start, end))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Post:
    """A post read: its lines split into those that begin like an order and the rest.

    ``lines`` holds every line with text left after reading, in order; ``orders`` and ``prose``
    split them; ``hidden`` lists the original line numbers set aside as quotes or spoilers;
    ``notes`` holds warnings about the markup itself (a spoiler never closed); ``unbold`` the
    numbers of the prose lines that, bold or not, begin like an order (a bold-only game): the
    order the player forgot to put in bold, or put in bold only in part.
    """

    lines: tuple[PostLine, ...]
    orders: tuple[PostLine, ...]
    prose: tuple[PostLine, ...]
    hidden: tuple[int, ...] = ()
    notes: tuple[Problem, ...] = field(default=())
    unbold: tuple[int, ...] = ()


# -- reading -------------------------------------------------------------------------------------

@dataclass
class _Char:
    ch: str
    line: int
    col: int
    bold: bool
    run: int = 0
    """Which bold run the character is in: two runs side by side («[b]город X7[/b][b]занять W7[/b]»)
    are two runs, not one word."""


def check_size(text: str) -> None:
    """Refuse a post longer than :data:`MAX_POST_BYTES` with a clear error."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_POST_BYTES:
        too_long(size)


def too_long(size: int | None = None) -> NoReturn:
    """The error for a post over the limit (``size`` in bytes when it is known)."""
    limit = MAX_POST_BYTES // 1024
    known_ru = f" (в нём {-(-size // 1024)} КБ)" if size is not None else ""
    known_en = f" (it has {-(-size // 1024)} KB)" if size is not None else ""
    raise ParseError([invalid(
        f"пост длиннее {limit} КБ{known_ru}: пришлите только приказы",
        f"the post is longer than {limit} KB{known_en}: send only the orders")])


def read(text: str, options: PostOptions | None = None,
         begins_order: Callable[[str], bool] | None = None) -> Post:
    """Read a post: markup through, quotes and spoilers aside, lines split into orders and
    prose by ``begins_order`` (called with each line's stripped text; ``None`` takes every
    line as an order line). Raises :class:`ParseError` when the post is over the size limit."""
    options = options or PostOptions()
    check_size(text)
    chars, hidden, notes = _read_bbcode(text)
    originals = text.split("\n")
    lines: list[PostLine] = []
    shown: list[PostLine] = []
    not_bold: set[int] = set()
    hidden_lines = set(hidden)
    quoted_rest = False
    for logical in _split_lines(chars):
        if not logical:
            continue
        if quoted_rest or _BLOCK_QUOTE.match("".join(c.ch for c in logical[:8])):
            quoted_rest = True
            hidden_lines.add(logical[0].line)
            continue
        logical = _read_emoji(logical)
        if _FENCE.match("".join(c.ch for c in logical[:8])):
            continue  # a code fence is markup; the lines between are read like any other
        kept = _read_markdown(logical, hidden_lines)
        full = kept
        plain = False
        if options.bold_only:
            bold = _bold_runs(kept)
            # a line with nothing bold is never an order, but it is echoed like any prose
            plain = not "".join(c.ch for c in bold).strip()
            kept = kept if plain else bold
        if not kept or not "".join(c.ch for c in kept).strip():
            continue
        number = kept[0].line
        original = originals[number - 1].rstrip("\r") if number - 1 < len(originals) else ""
        line = PostLine(number, "".join(c.ch for c in kept), tuple(c.col for c in kept), original).strip()
        if line.text:
            lines.append(line)
            shown.append(PostLine(number, "".join(c.ch for c in full), tuple(c.col for c in full), original).strip())
            if plain:
                not_bold.add(len(lines) - 1)
    orders: list[PostLine] = []
    prose: list[PostLine] = []
    unbold: list[int] = []
    for index, line in enumerate(lines):
        candidate = _order_part(line)
        if index not in not_bold and candidate.text and (begins_order is None or begins_order(candidate.text)):
            orders.append(candidate)
            continue
        # prose is echoed as the forum shows the line, bold or not («Город [b]X7[/b]»); in a
        # bold-only game a line that would be an order but for its bold says so
        prose.append(shown[index])
        if options.bold_only and (begins_order is None or begins_order(shown[index].text)):
            unbold.append(line.number)
    return Post(tuple(lines), tuple(orders), tuple(prose), tuple(sorted(hidden_lines)), tuple(notes), tuple(unbold))


NOT_AN_ORDER = ("не прочитано как приказы (строка не начинается как приказ)",
                "not read as orders (the line does not begin like an order)")
NOT_BOLD = ("не прочитано как приказы (не выделено жирным, а учитывается только жирное)",
            "not read as orders (not in bold, and only bold text counts)")


def prose_notes(prose: Sequence[tuple[int, str]], unbold: Iterable[int] = ()) -> list[str]:
    """The lines of a post not read as orders, ``(number, text)``, under the reason each was not
    read, as the echo and the errors of a post show them: it does not begin like an order, or
    (a bold-only game) nothing on it is bold."""
    faint = set(unbold)
    out: list[str] = []
    for (ru, en), group in ((NOT_AN_ORDER, [p for p in prose if p[0] not in faint]),
                            (NOT_BOLD, [p for p in prose if p[0] in faint])):
        if group:
            out.append(f"{ru} / {en}:")
            out.extend(f"  {number}: {text}" for number, text in group)
    return out


def _read_bbcode(text: str) -> tuple[list[_Char], list[int], list[Problem]]:
    """The characters a forum would show, each with its original line and column; line
    breaks are kept as ``\\n`` characters. Set-aside blocks are dropped (their lines listed)."""
    out: list[_Char] = []
    hidden: list[int] = []
    stack: list[tuple[str, int, int]] = []  # open set-aside tags: (name, line, column)
    bold = 0
    runs = 0
    line_no = 1
    line_start = 0
    pos = 0
    n = len(text)
    for match in _TAG.finditer(text):
        start, end = match.span()
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name not in READ_THROUGH and name not in SET_ASIDE:
            continue  # «[Правый фланг]», «[1]»: not a tag, the player's text
        # the text before the tag
        line_no, line_start = _emit(text, pos, start, line_no, line_start, out, hidden, bool(stack),
                                    runs if bold > 0 else 0)
        pos = end
        column = start - line_start + 1
        if name in SET_ASIDE:
            was_open = bool(stack)
            if not closing:
                stack.append((name, line_no, column))
            elif any(s[0] == name for s in stack):
                while stack and stack.pop()[0] != name:
                    pass
            if was_open != bool(stack):
                _break(out, line_no, column)  # a block: the text on either side is a line of its own
            if not hidden or hidden[-1] != line_no:
                hidden.append(line_no)
            continue
        if stack:
            continue
        if name in BOLD:
            if not closing and bold == 0:
                runs += 1
            bold = max(0, bold + (-1 if closing else 1))
        if name in BREAKS:
            _break(out, line_no, column)
    _emit(text, pos, n, line_no, line_start, out, hidden, bool(stack), runs if bold > 0 else 0)
    notes: list[Problem] = []
    if stack:
        name, line, column = stack[0]
        notes.append(invalid(
            f"тег [{name}] не закрыт: всё после него (со строки {line}) не читается как приказы",
            f"the [{name}] tag is never closed: everything after it (from line {line}) is not read as orders",
            line, column))
    return out, hidden, notes


def _emit(text: str, start: int, end: int, line_no: int, line_start: int, out: list[_Char],
          hidden: list[int], inside: bool, run: int) -> tuple[int, int]:
    bold = run != 0
    for index in range(start, end):
        ch = text[index]
        if ch == "\n":
            out.append(_Char("\n", line_no, index - line_start + 1, bold, run))
            line_no += 1
            line_start = index + 1
            continue
        if inside:
            if not hidden or hidden[-1] != line_no:
                hidden.append(line_no)
            continue
        if ch == "\r" or ch in INVISIBLE:
            continue
        out.append(_Char(" " if ch in SPACES else ch, line_no, index - line_start + 1, bold, run))
    return line_no, line_start


def _break(out: list[_Char], line_no: int, column: int) -> None:
    """A line break where a block tag stood (only when text precedes it on the line)."""
    if out and out[-1].ch != "\n":
        out.append(_Char("\n", line_no, column, False))


def _split_lines(chars: list[_Char]) -> list[list[_Char]]:
    lines: list[list[_Char]] = [[]]
    for c in chars:
        if c.ch == "\n":
            lines.append([])
        else:
            lines[-1].append(c)
    return lines


def is_emoji(ch: str) -> bool:
    """Whether ``ch`` is a pictograph (an emoji, a flag's letter, a skin tone, a variation
    selector or the keycap mark): decoration, not text. Arrows a player may draw an order with
    (→, ➡, ⇒) are not."""
    o = ord(ch)
    return (0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x2793 or o in (0x2B50, 0x2B55, 0x2B1B, 0x2B1C)
            or o in (0x231A, 0x231B, 0x2328, 0x23CF) or 0x23E9 <= o <= 0x23FA or o in (0xFE0E, 0xFE0F, 0x20E3)
            or 0xE0020 <= o <= 0xE007F)


def _read_emoji(chars: list[_Char]) -> list[_Char]:
    """Emoji on one line read as a blank each run («✅ подмога», «… 😀», «1️⃣ …», a Discord
    ``<:name:id>``): they mark or end a line, they are not its words."""
    text = "".join(c.ch for c in chars)
    custom: set[int] = set()
    if "<" in text:
        for match in _CUSTOM_EMOJI.finditer(text):
            custom.update(range(match.start(), match.end()))
    out: list[_Char] = []
    index = 0
    while index < len(chars):
        ch = chars[index].ch
        keycap = (ch in _KEYCAP_BASE and index + 1 < len(chars)
                  and (chars[index + 1].ch == "\u20e3"
                       or (chars[index + 1].ch == "\ufe0f" and index + 2 < len(chars) and chars[index + 2].ch == "\u20e3")))
        if ord(ch) in ARROWS:
            out.append(_Char("→", chars[index].line, chars[index].col, chars[index].bold, chars[index].run))
            index += 1
            continue
        if not (keycap or is_emoji(ch) or index in custom):
            out.append(chars[index])
            index += 1
            continue
        first = chars[index]
        index += 1
        while index < len(chars) and (is_emoji(chars[index].ch) or index in custom):
            index += 1
        if not out or out[-1].ch != " ":
            out.append(_Char(" ", first.line, first.col, first.bold, first.run))
    return out


def _read_markdown(chars: list[_Char], hidden: set[int]) -> list[_Char]:
    """Markdown on one line: a ``>`` line is a quote (set aside), a leading bullet or number
    is list markup, and paired ``**``/``__`` (bold), ``*``, ``~~`` and backticks are emphasis;
    ``||…||`` is a spoiler (set aside)."""
    text = "".join(c.ch for c in chars)
    stripped = text.lstrip()
    if stripped.startswith(">"):
        if chars:
            hidden.add(chars[0].line)
        return []
    bullet = _BULLET.match(text)
    if bullet:
        chars = chars[bullet.end():]
        text = text[bullet.end():]
    for delimiter, kind in _DELIMITERS:
        if delimiter in text:
            chars = _pair(chars, delimiter, kind, hidden)
            text = "".join(c.ch for c in chars)
    return chars


def _pair(chars: list[_Char], delimiter: str, kind: str, hidden: set[int]) -> list[_Char]:
    """Remove paired ``delimiter`` runs (an opener not inside a word, followed by text, and a
    closer after text, not inside a word); spoilers drop what they enclose, bold marks it."""
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
        before = text[at - 1] if at > 0 else " "
        after = text[at + size] if at + size < len(text) else " "
        if delimiter[0] in "*_" and (before == delimiter[0] or after == delimiter[0]):
            continue  # part of a longer run (``***``): not this delimiter
        can_open = not after.isspace() and not before.isalnum()
        can_close = not before.isspace() and not after.isalnum()
        if delimiter in ("`", "||"):
            can_open = can_close = True
        if opener is not None and can_close and at > opener + size:
            drop.update(range(opener, opener + size))
            drop.update(range(at, at + size))
            if kind == "spoiler":
                drop.update(range(opener + size, at))
                hidden.add(chars[opener].line)
            elif kind == "bold":
                for i in range(opener + size, at):
                    if not chars[i].bold:
                        chars[i].bold, chars[i].run = True, -chars[opener].col  # a run of its own
            opener = None
        elif can_open:
            opener = at
    if not drop:
        return chars
    return [c for i, c in enumerate(chars) if i not in drop]


def _bold_runs(chars: list[_Char]) -> list[_Char]:
    """Only the bold characters of a line, runs separated by one blank."""
    out: list[_Char] = []
    previous: int | None = None
    for c in chars:
        if c.bold:
            if out and c.run != previous:
                out.append(_Char(" ", c.line, c.col, True, c.run))
            out.append(c)
        previous = c.run if c.bold else None
    return out


# -- follow-ups, headings --------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:\.[^\W\d_](?![^\W\d_]))*\.?")
"""A word of a line, for the follow-up marker: letters and digits, or an abbreviation with its
dots («P.S.», «п.с.»)."""

FOLLOW_UP_MARKERS = frozenset({
    "еще", "дополнение", "дополнения", "забыл", "забыла", "забыли", "p.s.", "p.s", "ps", "п.с.", "п.с", "пс",
    "also", "addendum"})
"""The words a follow-up opens with, folded (docs/posts.md «Follow-ups»)."""
_MARKER_LEADS = frozenset({"а", "и", "да", "ну", "кстати", "ой", "and", "oh", "oops"})
"""Words a player may put before the marker («А ещё…», «Ой, забыл:»)."""
_MARKER_VERBS = frozenset({"добавить", "дописать", "указать", "написать", "сказать", "отдать", "добавлю",
                           "допишу", "i", "forgot", "to", "add", "mention", "еще", "also"})
"""Words that may follow the marker and are never an order's («Забыл добавить: …», «P.S. I forgot
to add…»)."""
_MARKER_NOUNS = frozenset({"к", "в", "моим", "моему", "приказам", "приказу", "посту", "ходу", "сообщению",
                           "приказ", "приказы", "по", "my", "orders", "order", "post", "to", "the", "more",
                           "one", "thing", "one more"})
"""Words that may follow the marker only before a colon or a dash («Дополнение к приказам:»,
«Ещё приказы —»): elsewhere they could begin an order."""
_AFTER_MARKER = ":,.!—–-"
_MARKER_HINT = re.compile(r"ещ[её]|дополн|забыл|p\.?\s?s|п\.?\s?с|also|addendum", re.IGNORECASE)


def follow_up(text: str) -> str | None:
    """``text`` with its follow-up marker blanked out, when the post opens with one: its first
    line that a forum shows (markup read through, quotes and spoilers aside) begins with «ещё»,
    «дополнение», «забыл(а)», «P.S.», «also» or «addendum» (maybe after «а», «ну», «ой»; not
    «ещё раз»), with what goes with it («Забыл добавить:», «Дополнение к приказам:»). Every
    other character keeps its place, so errors point where the player typed. ``None`` for any
    other post (docs/posts.md «Follow-ups»)."""
    if _MARKER_HINT.search(text) is None:
        return None  # most posts: no marker anywhere, nothing to read twice
    first = next(iter(read(text).lines), None)
    if first is None:
        return None
    words = [(fold(m.group(0)), m.start(), m.end()) for m in _WORD.finditer(first.text)]

    def separated(index: int) -> bool:
        """Only blanks and commas between word ``index - 1`` and word ``index``."""
        gap = first.text[words[index - 1][2]:words[index][1]]
        return not gap.strip(" ,")

    at = 0
    if len(words) > 1 and words[0][0] in _MARKER_LEADS and words[1][0] in FOLLOW_UP_MARKERS and separated(1):
        at = 1
    if at == 0 and (not words or words[0][1] != 0):
        return None
    if not words or words[at][0] not in FOLLOW_UP_MARKERS:
        if not (len(words) > at + 1 and words[at][0] == "в" and words[at + 1][0] == "дополнение"):
            return None
        at += 1
    if words[at][0] == "еще" and at + 1 < len(words) and words[at + 1][0] == "раз":
        return None  # «Ещё раз всем привет»: once again, not a follow-up
    end = words[at][2]
    at += 1
    while at < len(words) and (words[at][0] in _MARKER_VERBS or words[at][0] in FOLLOW_UP_MARKERS) and separated(at):
        end = words[at][2]
        at += 1
    tentative = at
    while tentative < len(words) and words[tentative][0] in _MARKER_NOUNS and separated(tentative):
        tentative += 1
    if tentative > at:
        rest = first.text[words[tentative - 1][2]:].lstrip()
        if rest[:1] in (":", "—", "–", "-"):
            end = words[tentative - 1][2]
    while end < len(first.text) and (first.text[end] in _AFTER_MARKER or first.text[end] == " "):
        end += 1
    blank = {first.column(i) for i in range(end)}
    lines = text.split("\n")
    original = lines[first.number - 1]
    lines[first.number - 1] = "".join(" " if column in blank else ch for column, ch in enumerate(original, 1))
    return "\n".join(lines)


def is_heading(text: str) -> bool:
    """Whether a line (markup read through) reads as a heading rather than an order: it ends with
    a colon and nothing after it («Ставлю септу:», «Принимаем:»), or it is one word alone
    («Принимаем», «Поход»). A game's reader refuses such a line when it begins like an order and
    says nothing more; the engine echoes it as not read as orders (docs/posts.md)."""
    stripped = text.strip().rstrip(STOPS + " ")
    if stripped.endswith(":"):
        return True
    return re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)?", stripped) is not None


# -- numbers -----------------------------------------------------------------------------------

class NumberError(ValueError):
    """A token that is not a number a post may hold; ``ru`` and ``en`` say why."""

    def __init__(self, ru: str, en: str) -> None:
        super().__init__(en)
        self.ru = ru
        self.en = en


_ASCII_DIGITS = re.compile(r"[0-9]+")


def is_digits(token: str) -> bool:
    """Whether ``token`` is made of the digits 0–9 only (``'²'``, ``'٣'`` and ``'３'`` are not)."""
    return _ASCII_DIGITS.fullmatch(token) is not None


def read_int(token: str, *, maximum: int | None = None) -> int:
    """The whole number written in ``token`` (digits 0–9, at most :data:`MAX_DIGITS` of them,
    and no more than ``maximum`` when given). Raises :class:`NumberError` otherwise."""
    if not is_digits(token):
        shown = token if len(token) <= 20 else token[:20] + "…"
        raise NumberError(f"«{shown}» — не число (нужны цифры 0–9)", f"'{shown}' is not a number (digits 0–9)")
    if len(token) > MAX_DIGITS:
        digits = plural_ru(len(token), ("цифры", "цифр", "цифр"))
        raise NumberError(f"число из {len(token)} {digits} слишком велико (не больше {MAX_DIGITS} цифр)",
                          f"a number of {len(token)} digits is too large (at most {MAX_DIGITS} digits)")
    value = int(token)
    if maximum is not None and value > maximum:
        raise NumberError(f"{value} — слишком много (не больше {maximum})", f"{value} is too many (at most {maximum})")
    return value


# -- words around orders -----------------------------------------------------------------------

OPENERS = frozenset({"я", "мы", "i", "we", "хочу", "также", "еще", "also", "then", "а"})
"""Words a player puts before an order («я хочу …», «также …», «а …»), folded: a game's reader
skips them where an order begins."""

STOPS = ".!…"
"""How a player may end a line after an order («подмога Винтерфелл.», «город X7!»)."""

_OPENER = re.compile(r"^\s*([^\W\d_]+)[\s,]+")


def _order_part(line: PostLine) -> PostLine:
    """A line as a parser reads an order from it: without the :data:`OPENERS` before the order
    and the :data:`STOPS` after it («Также ход 0201 0202.» → «ход 0201 0202»), columns kept."""
    start = len(line.text) - len(without_openers(line.text))
    end = len(line.text.rstrip(STOPS + " \t"))
    return line.slice(start, max(start, end)).strip() if start or end < len(line.text) else line


def without_openers(text: str) -> str:
    """``text`` without the :data:`OPENERS` it begins with («Я хочу нанять…» → «нанять…»,
    «А ещё построить…» → «построить…»), for a game that reads an order from its first word."""
    while True:
        match = _OPENER.match(text)
        if match is None or fold(match.group(1)) not in OPENERS:
            return text
        text = text[match.end():]


# -- names in another case ------------------------------------------------------------------------

_ENDINGS = ("ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими", "ой", "ей", "ою", "ею", "ом", "ем", "ам", "ям",
            "ах", "ях", "ую", "юю", "ая", "яя", "ое", "ее", "ые", "ие", "ый", "ий", "ых", "их", "ым", "им", "ью",
            "а", "я", "о", "е", "у", "ю", "ы", "и", "й", "ь")
"""Russian case endings, longest first: what a word loses to leave the stem its cases share."""
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def stem(word: str) -> str:
    """A Russian word without its case ending («державой» → «держав», «Борису» → «борис» once
    folded), keeping at least three letters; other words as they are. Names written in another
    case («союз с Борисом», «вражда Анне») are found by their stems without the morphology
    dictionary, whose loading costs a command a tenth of a second."""
    if not _CYRILLIC.search(word):
        return word
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def stem_key(phrase: str) -> str:
    """A phrase as :func:`stem` sees it: folded, each word stemmed («Ромейской державой» →
    «ромейск держав»)."""
    return " ".join(stem(w) for w in fold(phrase).split(" "))


# -- typos ---------------------------------------------------------------------------------------

APOSTROPHES = str.maketrans("", "", "'’ʼ‘`")


def fold(text: str) -> str:
    """A name or keyword as every game compares it: case, «ё»/«е», apostrophes («King’s» is
    «Kings») and blanks (no-break ones too) aside."""
    return " ".join(text.casefold().replace("ё", "е").translate(APOSTROPHES).split())


def suggest(word: str, known: Iterable[str] | Mapping[str, Hashable], limit: int = 3,
            cutoff: float = 0.75) -> list[str]:
    """The known names nearest to ``word`` (case, ё/е and spacing aside), best first: the
    suggestion for a typo («копейшиков» → «копейщиков»). ``known`` may map each name (every
    form a player might write) to what it names; then only the best form of each thing is
    offered. Never more than ``limit``; an empty list when nothing is near enough, or when
    ``word`` is itself known. Suggest, never guess: callers show these, they do not use them."""
    keys: dict[str, Hashable] = {}
    folded: dict[str, str] = {}
    items = known.items() if isinstance(known, Mapping) else ((name, name) for name in known)
    for name, key in items:
        f = fold(name)
        if f not in folded:
            folded[f] = name
            keys[f] = key
    target = fold(word)
    if not target or target in folded:
        return []
    import difflib  # only an unknown name needs it

    found = difflib.get_close_matches(target, list(folded), n=len(folded), cutoff=cutoff)
    out: list[str] = []
    seen: set[Hashable] = set()
    for f in found:
        if keys[f] in seen:
            continue
        seen.add(keys[f])
        out.append(folded[f])
        if len(out) == limit:
            break
    return out


def did_you_mean(suggestions: Sequence[str]) -> tuple[str, str]:
    """The Russian and English tail of an error message that offers ``suggestions``
    (empty strings when there are none)."""
    if not suggestions:
        return "", ""
    ru = " или ".join(f"«{s}»" for s in suggestions)
    en = " or ".join(f"'{s}'" for s in suggestions)
    return f"; может быть, {ru}?", f"; did you mean {en}?"


def with_example(message_ru: str, message_en: str, example_ru: str, example_en: str) -> tuple[str, str]:
    """An error message followed by an example of the order: «…; пример: город C5», or after a
    question («может быть, «снабжение»?») a sentence of its own, «…? Пример: …»."""
    ru = f"{message_ru} Пример: {example_ru}" if message_ru.endswith("?") else f"{message_ru}; пример: {example_ru}"
    en = f"{message_en} Example: {example_en}" if message_en.endswith("?") else f"{message_en}; example: {example_en}"
    return ru, en


def word_forms(name: str) -> list[str]:
    """Every case and number of a Russian name (a noun, or a phrase with its adjectives:
    «тяжёлый пехотинец» → «тяжёлых пехотинцев», …), for suggesting a typo in the form the
    player wrote it (through :func:`voevoda.core.words.inflect_phrase`, pymorphy3)."""
    from voevoda.core.words import inflect_phrase

    forms: list[str] = [name]
    for plural in (False, True):
        for case in ("nomn", "gent", "datv", "accs", "ablt", "loct"):
            form = inflect_phrase(name, case, plural)
            if form not in forms:
                forms.append(form)
    return forms
