"""Reports as documents, rendered for each place a game master posts them.

A report is built once as a :class:`Document`: headings, paragraphs, lists, tables and
collapsible spoilers whose text is made of plain strings and styled spans (:func:`bold`,
:func:`italic`, ...). :func:`render` writes it in one format:

``text``
    plain text for a terminal, a file or an e-mail; never wrapped.
``bbcode``
    forum BBCode. The default flavour, ``generic``, uses only the tags every common forum
    engine understands (phpBB, vBulletin, XenForo, SMF, Invision): ``[b] [i] [u] [s] [list]
    [*] [quote] [code]``; a table becomes an aligned ``[code]`` block and a spoiler a bold
    title over a ``[quote]``. A flavour (``phpbb``, ``vbulletin``, ``xenforo``, ``smf``,
    ``ipb``) adds what that engine has on a stock install: sizes for headings, XenForo's and
    Invision's ``[spoiler]``, XenForo's and SMF's ``[table]``.
``markdown``
    GitHub-style Markdown (``#`` headings, pipe tables, ``<details>`` spoilers); the
    ``discord`` flavour writes tables as code blocks and spoilers as ``||…||``.
``telegram``
    Telegram's HTML subset (``<b> <i> <u> <s> <code> <pre> <blockquote expandable>``), cut
    into messages of at most 4096 characters (Telegram's limit, counted as Telegram counts:
    UTF-16 units of the text after its tags are read) at block boundaries where possible,
    every message closing the tags it opened and the next one reopening them.

``html``
    an HTML fragment for the web app's pages (``<h2>``–``<h4>``, ``<p>``, ``<ul>``, ``<table>``,
    ``<details>`` for spoilers); every character of the text is escaped, so a report needs no
    further cleaning before it goes into a page.

Text written by players (names, reasons of a transfer, city names) is escaped for each
format, so that «[/b]» or «<b>» in a name is shown, never obeyed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape as html_escape
from typing import Literal, TypeAlias

Format = Literal["text", "bbcode", "markdown", "telegram", "html"]
FORMATS: tuple[Format, ...] = ("text", "bbcode", "markdown", "telegram", "html")
FLAVOURS: dict[str, tuple[str, ...]] = {
    "text": ("plain",),
    "bbcode": ("generic", "phpbb", "vbulletin", "xenforo", "smf", "ipb"),
    "markdown": ("github", "discord"),
    "telegram": ("telegram",),
    "html": ("page",),
}
TELEGRAM_LIMIT = 4096
MESSAGE_BREAK = "\n\n✂ ✂ ✂\n\n"
"""What :func:`render` puts between two Telegram messages when it returns them as one text."""

Style = Literal["b", "i", "u", "s", "code"]


@dataclass(frozen=True)
class Span:
    """Styled text: bold, italic, underlined, struck out or code."""

    style: Style
    content: Inline


Inline: TypeAlias = "str | Span | Sequence[Inline]"


def bold(*parts: Inline) -> Span:
    return Span("b", parts if len(parts) != 1 else parts[0])


def italic(*parts: Inline) -> Span:
    return Span("i", parts if len(parts) != 1 else parts[0])


def underline(*parts: Inline) -> Span:
    return Span("u", parts if len(parts) != 1 else parts[0])


def strike(*parts: Inline) -> Span:
    return Span("s", parts if len(parts) != 1 else parts[0])


def code(text: str) -> Span:
    return Span("code", text)


def plain(inline: Inline) -> str:
    """The text of ``inline`` without any style."""
    if isinstance(inline, str):
        return inline
    if isinstance(inline, Span):
        return plain(inline.content)
    return "".join(plain(x) for x in inline)


# -- blocks ------------------------------------------------------------------------------------

@dataclass
class Heading:
    """A title: level 1 is the report's own, 2 a section, 3 a subsection."""

    text: Inline
    level: int = 2


@dataclass
class Paragraph:
    text: Inline


@dataclass
class Item:
    """A list item with, optionally, a nested list under it."""

    text: Inline
    children: list[Inline | Item] = field(default_factory=list)


@dataclass
class BulletList:
    items: list[Inline | Item]


@dataclass
class Table:
    """Rows of cells under a header; ``align`` holds ``"l"`` or ``"r"`` per column."""

    header: list[Inline]
    rows: list[list[Inline]]
    align: str = ""

    def alignment(self, column: int) -> str:
        return self.align[column] if column < len(self.align) else "l"


@dataclass
class Spoiler:
    """Detail a reader opens on demand: collapsed where the format can collapse."""

    title: Inline
    blocks: list[Block]


Block: TypeAlias = "Heading | Paragraph | BulletList | Table | Spoiler"


@dataclass
class Document:
    """A report: a title and blocks, in the order they are read."""

    title: Inline | None = None
    blocks: list[Block] = field(default_factory=list)

    def heading(self, text: Inline, level: int = 2) -> Document:
        self.blocks.append(Heading(text, level))
        return self

    def paragraph(self, *parts: Inline) -> Document:
        self.blocks.append(Paragraph(parts if len(parts) != 1 else parts[0]))
        return self

    def bullets(self, items: Iterable[Inline | Item]) -> Document:
        listed = list(items)
        if listed:
            self.blocks.append(BulletList(listed))
        return self

    def table(self, header: Sequence[Inline], rows: Iterable[Sequence[Inline]], align: str = "") -> Document:
        self.blocks.append(Table(list(header), [list(r) for r in rows], align))
        return self

    def spoiler(self, title: Inline, blocks: Sequence[Block]) -> Document:
        if blocks:
            self.blocks.append(Spoiler(title, list(blocks)))
        return self

    def extend(self, other: Document) -> Document:
        """Append ``other``'s blocks, its title becoming a section heading."""
        if other.title is not None:
            self.blocks.append(Heading(other.title, 2))
        self.blocks.extend(other.blocks)
        return self


# -- rendering -----------------------------------------------------------------------------------

def check_format(fmt: str, flavour: str | None = None) -> tuple[Format, str]:
    """``fmt`` and its flavour (the format's default when ``None``); a ValueError naming the
    known ones otherwise."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format '{fmt}' ({', '.join(FORMATS)})")
    known = FLAVOURS[fmt]
    chosen = flavour or known[0]
    if chosen not in known:
        raise ValueError(f"unknown {fmt} flavour '{chosen}' ({', '.join(known)})")
    return fmt, chosen


def render(doc: Document, fmt: str = "text", flavour: str | None = None) -> str:
    """``doc`` in ``fmt``; Telegram messages joined by :data:`MESSAGE_BREAK`."""
    return MESSAGE_BREAK.join(render_messages(doc, fmt, flavour))


def render_messages(doc: Document, fmt: str = "text", flavour: str | None = None,
                    limit: int = TELEGRAM_LIMIT) -> list[str]:
    """``doc`` as the posts to send: one for every format but ``telegram``, which is cut at
    ``limit`` characters."""
    fmt, flavour = check_format(fmt, flavour)
    renderer = _RENDERERS[fmt](flavour)
    text = renderer.document(doc)
    if fmt == "telegram":
        return split_telegram(text, limit)
    return [text]


class _Renderer:
    gap = "\n\n"

    def __init__(self, flavour: str) -> None:
        self.flavour = flavour

    # inline ---------------------------------------------------------------------------------
    def escape(self, text: str) -> str:
        return text

    def span(self, style: Style, inner: str) -> str:
        return inner

    def inline(self, x: Inline) -> str:
        if isinstance(x, str):
            return self.escape(x)
        if isinstance(x, Span):
            inner = self.inline(x.content) if x.style != "code" else self.code_text(plain(x.content))
            return self.span(x.style, inner) if inner else ""
        return "".join(self.inline(p) for p in x)

    def code_text(self, text: str) -> str:
        return self.escape(text)

    # blocks ---------------------------------------------------------------------------------
    def document(self, doc: Document) -> str:
        blocks: list[Block] = list(doc.blocks)
        if doc.title is not None:
            blocks.insert(0, Heading(doc.title, 1))
        return self.blocks(blocks).strip("\n") + "\n"

    def blocks(self, blocks: Sequence[Block]) -> str:
        out: list[str] = []
        for i, b in enumerate(blocks):
            text = self.block(b)
            if not text:
                continue
            if out:
                out.append("\n" if isinstance(blocks[i - 1], Heading) and self.tight_heading() else self.gap)
            out.append(text)
        return "".join(out)

    def tight_heading(self) -> bool:
        return True

    def block(self, b: Block) -> str:
        if isinstance(b, Heading):
            return self.heading(self.inline(b.text), b.level)
        if isinstance(b, Paragraph):
            return self.inline(b.text)
        if isinstance(b, BulletList):
            return self.bullet_list(b.items, 0)
        if isinstance(b, Table):
            return self.table(b)
        return self.spoiler(self.inline(b.title), b.blocks)

    def heading(self, text: str, level: int) -> str:
        raise NotImplementedError

    def bullet_list(self, items: Sequence[Inline | Item], depth: int) -> str:
        lines = []
        for it in items:
            text, children = (it.text, it.children) if isinstance(it, Item) else (it, [])
            lines.append(self.item(self.inline(text), depth))
            if children:
                lines.append(self.bullet_list(children, depth + 1))
        return "\n".join(lines)

    def item(self, text: str, depth: int) -> str:
        return "    " * depth + "- " + text

    def table(self, t: Table) -> str:
        raise NotImplementedError

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        raise NotImplementedError

    def aligned(self, t: Table) -> list[str]:
        """The table as lines of plain text, columns padded to their widest cell."""
        cells = [[plain(c) for c in t.header]] + [[plain(c) for c in row] for row in t.rows]
        width = max(len(r) for r in cells)
        cells = [r + [""] * (width - len(r)) for r in cells]
        widths = [max(len(r[i]) for r in cells) for i in range(width)]

        def line(row: list[str]) -> str:
            parts = [c.rjust(widths[i]) if t.alignment(i) == "r" else c.ljust(widths[i]) for i, c in enumerate(row)]
            return "  ".join(parts).rstrip()

        out = [line(cells[0]), "  ".join("-" * w for w in widths)]
        out += [line(r) for r in cells[1:]]
        return out


class _Text(_Renderer):
    def heading(self, text: str, level: int) -> str:
        if level == 1:
            return f"{text}\n{'=' * len(text)}"
        if level == 2:
            return f"{text}\n{'-' * len(text)}"
        return f"== {text} =="

    def table(self, t: Table) -> str:
        return "\n".join(self.aligned(t))

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        body = self.blocks(blocks)
        return f"== {title} ==\n" + body


_BB_TAG = re.compile(r"\[(/?[A-Za-z*][^\[\]]*)\]")


class _BBCode(_Renderer):
    SIZES = {"phpbb": ("150", "120"), "vbulletin": ("4", "3"), "xenforo": ("5", "4"),
             "smf": ("14pt", "12pt"), "ipb": ("5", "4")}

    def tight_heading(self) -> bool:
        return True

    def escape(self, text: str) -> str:
        # a zero-width space after «[» keeps a tag a player wrote from being read as one
        return _BB_TAG.sub(lambda m: "[\u200b" + m.group(1) + "]", text)

    def span(self, style: Style, inner: str) -> str:
        if style == "code":
            # inline [code] is a block on most engines: short code stays plain
            return inner
        return f"[{style}]{inner}[/{style}]"

    def code_text(self, text: str) -> str:
        return self.escape(text)

    def heading(self, text: str, level: int) -> str:
        sizes = self.SIZES.get(self.flavour)
        if sizes and level <= 2:
            return f"[size={sizes[level - 1]}][b]{text}[/b][/size]"
        if level == 1:
            return f"[u][b]{text}[/b][/u]"
        if level == 2:
            return f"[b]{text}[/b]"
        return f"[i][b]{text}[/b][/i]"

    def bullet_list(self, items: Sequence[Inline | Item], depth: int) -> str:
        lines = ["[list]"]
        for it in items:
            text, children = (it.text, it.children) if isinstance(it, Item) else (it, [])
            lines.append("[*]" + self.inline(text))
            if children:
                lines.append(self.bullet_list(children, depth + 1))
        lines.append("[/list]")
        return "\n".join(lines)

    def table(self, t: Table) -> str:
        if self.flavour in ("xenforo", "smf"):
            head_cell = "th" if self.flavour == "xenforo" else "td"
            if head_cell == "th":
                rows = ["[tr]" + "".join(f"[th]{self.inline(c)}[/th]" for c in t.header) + "[/tr]"]
            else:
                rows = ["[tr]" + "".join(f"[td][b]{self.inline(c)}[/b][/td]" for c in t.header) + "[/tr]"]
            rows += ["[tr]" + "".join(f"[td]{self.inline(c)}[/td]" for c in r) + "[/tr]" for r in t.rows]
            return "[table]\n" + "\n".join(rows) + "\n[/table]"
        return "[code]" + "\n".join(self.escape(x) for x in self.aligned(t)) + "[/code]"

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        body = self.blocks(blocks)
        if self.flavour == "xenforo":
            return f'[spoiler="{title}"]\n{body}\n[/spoiler]'
        if self.flavour == "ipb":
            return f"[b]{title}[/b]\n[spoiler]\n{body}\n[/spoiler]"
        return f"[b]{title}[/b]\n[quote]\n{body}\n[/quote]"


_MD_SPECIAL = re.compile(r"([\\`*_~|\[\]<>])")
_MD_LINE_START = re.compile(r"^(\s*)([#>+\-]|\d+\.)(?=\s|$)", re.MULTILINE)


class _Markdown(_Renderer):
    def tight_heading(self) -> bool:
        return False

    def escape(self, text: str) -> str:
        text = _MD_SPECIAL.sub(r"\\\1", text)
        return _MD_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)

    def span(self, style: Style, inner: str) -> str:
        marks = {"b": "**", "i": "*", "u": "__" if self.flavour == "discord" else "", "s": "~~", "code": "`"}
        mark = marks[style]
        if style == "u" and not mark:
            return f"<ins>{inner}</ins>"
        return f"{mark}{inner}{mark}"

    def code_text(self, text: str) -> str:
        return text.replace("`", "'")

    def heading(self, text: str, level: int) -> str:
        return "#" * min(level, 4) + " " + text

    def item(self, text: str, depth: int) -> str:
        return "  " * depth + "- " + text

    def table(self, t: Table) -> str:
        if self.flavour == "discord":
            return "```\n" + "\n".join(self.aligned(t)) + "\n```"
        header = "| " + " | ".join(self.inline(c) for c in t.header) + " |"
        rule = "|" + "|".join(("---:" if t.alignment(i) == "r" else "---") for i in range(len(t.header))) + "|"
        rows = ["| " + " | ".join(self.inline(c) for c in r) + " |" for r in t.rows]
        return "\n".join([header, rule, *rows])

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        body = self.blocks(blocks)
        if self.flavour == "discord":
            return f"**{title}**\n||{body}||"
        return f"<details>\n<summary>{title}</summary>\n\n{body}\n\n</details>"


class _Telegram(_Renderer):
    def escape(self, text: str) -> str:
        return html_escape(text, quote=False)

    def span(self, style: Style, inner: str) -> str:
        return f"<{style}>{inner}</{style}>"

    def heading(self, text: str, level: int) -> str:
        return f"<b>{text}</b>"

    def item(self, text: str, depth: int) -> str:
        return "    " * depth + ("• " if depth == 0 else "◦ ") + text

    def table(self, t: Table) -> str:
        return "<pre>" + "\n".join(self.escape(x) for x in self.aligned(t)) + "</pre>"

    depth = 0

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        # Telegram does not nest quotes: a spoiler inside one is a bold title over its text
        self.depth += 1
        try:
            body = self.blocks(blocks)
        finally:
            self.depth -= 1
        if self.depth:
            return f"<b>{title}</b>\n{body}"
        return f"<blockquote expandable><b>{title}</b>\n{body}</blockquote>"


class _Html(_Renderer):
    gap = "\n"
    TAGS = {"b": "strong", "i": "em", "u": "u", "s": "s", "code": "code"}

    def tight_heading(self) -> bool:
        return False

    def escape(self, text: str) -> str:
        return html_escape(text, quote=True)

    def span(self, style: Style, inner: str) -> str:
        tag = self.TAGS[style]
        return f"<{tag}>{inner}</{tag}>"

    def heading(self, text: str, level: int) -> str:
        tag = f"h{min(level + 1, 4)}"
        return f"<{tag}>{text}</{tag}>"

    def block(self, b: Block) -> str:
        if isinstance(b, Paragraph):
            return "<p>" + self.inline(b.text).replace("\n", "<br>\n") + "</p>"
        return super().block(b)

    def bullet_list(self, items: Sequence[Inline | Item], depth: int) -> str:
        lines = ["<ul>"]
        for it in items:
            text, children = (it.text, it.children) if isinstance(it, Item) else (it, [])
            inner = self.inline(text)
            if children:
                inner += "\n" + self.bullet_list(children, depth + 1)
            lines.append(f"<li>{inner}</li>")
        lines.append("</ul>")
        return "\n".join(lines)

    def table(self, t: Table) -> str:
        def cell(tag: str, i: int, content: Inline) -> str:
            align = ' class="num"' if t.alignment(i) == "r" else ""
            return f"<{tag}{align}>{self.inline(content)}</{tag}>"

        head = "<tr>" + "".join(cell("th", i, c) for i, c in enumerate(t.header)) + "</tr>"
        rows = ["<tr>" + "".join(cell("td", i, c) for i, c in enumerate(r)) + "</tr>" for r in t.rows]
        return '<table class="report">\n<thead>' + head + "</thead>\n<tbody>\n" + "\n".join(rows) + \
            "\n</tbody>\n</table>"

    def spoiler(self, title: str, blocks: Sequence[Block]) -> str:
        return f"<details>\n<summary>{title}</summary>\n{self.blocks(blocks)}\n</details>"


_RENDERERS: dict[str, type[_Renderer]] = {"text": _Text, "bbcode": _BBCode, "markdown": _Markdown,
                                          "telegram": _Telegram, "html": _Html}


# -- Telegram messages ----------------------------------------------------------------------------

_TOKEN = re.compile(r"<(/?)([a-z]+)([^>]*)>|(&[a-z#0-9]+;)|(\n)|([^\S\n]+)|([^<&\s]+)", re.IGNORECASE)


def _units(text: str) -> int:
    """Telegram counts UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def visible_length(message: str) -> int:
    """The length Telegram counts for an HTML message: its text without tags, entities read."""
    import html

    return _units(html.unescape(re.sub(r"<[^>]+>", "", message)))


def split_telegram(html_text: str, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """Cut Telegram HTML into messages whose visible text is at most ``limit`` long. A cut is
    made at the last blank line before the limit (between two blocks) when there is one in
    the second half of the message, else at the last line break, else at the last space;
    each message closes the tags still open and the next reopens them."""
    tokens: list[tuple[str, str, str]] = []   # (kind, raw, tag name): kind in open close text nl space
    for m in _TOKEN.finditer(html_text):
        if m.group(2):
            tokens.append(("close" if m.group(1) else "open", m.group(0), m.group(2).lower()))
        elif m.group(4):
            tokens.append(("text", m.group(4), ""))
        elif m.group(5):
            tokens.append(("nl", "\n", ""))
        elif m.group(6):
            tokens.append(("space", m.group(6), ""))
        else:
            word = m.group(7)
            while _units(word) > limit // 2:  # a word longer than half a message is cut
                cut = limit // 2
                tokens.append(("text", word[:cut], ""))
                word = word[cut:]
            tokens.append(("text", word, ""))
    messages: list[str] = []
    cur: list[tuple[str, str, str]] = []
    stack: list[tuple[str, str]] = []        # (raw opening tag, name)
    start_stack: list[tuple[str, str]] = []
    length = 0

    def visible(tok: tuple[str, str, str]) -> int:
        kind, raw, _ = tok
        if kind in ("open", "close"):
            return 0
        if raw.startswith("&"):
            import html

            return _units(html.unescape(raw))
        return _units(raw)

    def flush(upto: int) -> None:
        nonlocal cur, start_stack, length
        head = cur[:upto]
        rest = cur[upto:]
        st = list(start_stack)
        for kind, raw, name in head:
            if kind == "open":
                st.append((raw, name))
            elif kind == "close" and st and st[-1][1] == name:
                st.pop()
        body = "".join(raw for _, raw, _ in head).rstrip()
        opening = "".join(raw for raw, _ in start_stack)
        closing = "".join(f"</{name}>" for _, name in reversed(st))
        text = opening + body + closing
        if re.sub(r"<[^>]+>", "", text).strip():
            messages.append(text)
        while rest and rest[0][0] in ("nl", "space"):
            rest = rest[1:]
        start_stack = st
        cur = rest
        length = sum(visible(t) for t in cur)

    for tok in tokens:
        size = visible(tok)
        if length + size > limit and cur:
            cut = _best_cut(cur, limit)
            flush(cut)
            while length + size > limit and cur:
                flush(_best_cut(cur, limit))
        cur.append(tok)
        length += size
        if tok[0] == "open":
            stack.append((tok[1], tok[2]))
        elif tok[0] == "close" and stack:
            stack.pop()
    if cur:
        flush(len(cur))
    return messages or [""]


def _best_cut(cur: Sequence[tuple[str, str, str]], limit: int) -> int:
    """Where to end the current message: after a blank line in its second half, else after
    its last line break, else after its last space, else before the token that overflows."""
    blank = line = space = -1
    for i in range(1, len(cur)):
        if cur[i][0] == "nl":
            line = i + 1
            if cur[i - 1][0] == "nl":
                blank = i + 1
        elif cur[i][0] == "space":
            space = i + 1
    total = len(cur)
    if blank > total // 2:
        return blank
    if line > 0:
        return line
    if space > 0:
        return space
    return total
