"""The three report formats every game writes: plain text, BBCode (forums) and Markdown
(Discord, Telegram, GitHub). Reports call these instead of spelling out each format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Format = Literal["text", "bbcode", "markdown"]
FORMATS: tuple[Format, ...] = ("text", "bbcode", "markdown")


class Markup:
    """Headings, bold text and lists in one report format."""

    def __init__(self, fmt: str = "text") -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown report format '{fmt}' (text, bbcode, markdown)")
        self.fmt = fmt

    def bold(self, text: str) -> str:
        if self.fmt == "bbcode":
            return f"[b]{text}[/b]"
        if self.fmt == "markdown":
            return f"**{text}**"
        return text

    def heading(self, text: str, level: int = 1) -> str:
        """Level 1 is the report's title, level 2 a section, level 3 a subsection."""
        if self.fmt == "bbcode":
            return f"[size=150][b]{text}[/b][/size]" if level == 1 else f"[u][b]{text}[/b][/u]"
        if self.fmt == "markdown":
            return f"{'#' * (level + 1)} {text}"
        if level == 1:
            return f"{text}\n{'=' * len(text)}"
        if level == 2:
            return f"{text}\n{'-' * len(text)}"
        return f"== {text} =="

    def item(self, text: str, nested: bool = False) -> str:
        if self.fmt == "bbcode":
            return f"[*]{text}"
        if self.fmt == "markdown":
            return ("  " if nested else "") + f"- {text}"
        return ("    " if nested else "") + f"- {text}"

    def items(self, lines: Sequence[str]) -> list[str]:
        """Lines already made with :meth:`item`, wrapped as one list (BBCode needs the wrapper)."""
        if self.fmt == "bbcode" and lines:
            return ["[list]", *lines, "[/list]"]
        return list(lines)
