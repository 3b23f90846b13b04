"""Report formats (issue «Core engine»: reports as text and BBCode; `--format text|bbcode|markdown`)."""

from __future__ import annotations

import pytest

from voevoda.core.markup import Markup


def test_each_format_marks_headings_bold_and_lists() -> None:
    text, bb, md = Markup("text"), Markup("bbcode"), Markup("markdown")
    assert text.heading("Ход 3") == "Ход 3\n====="
    assert text.heading("Казна", 2) == "Казна\n-----"
    assert bb.heading("Ход 3") == "[size=150][b]Ход 3[/b][/size]"
    assert bb.heading("Казна", 2) == "[u][b]Казна[/b][/u]"
    assert md.heading("Ход 3") == "## Ход 3" and md.heading("Казна", 2) == "### Казна"
    assert (text.bold("x"), bb.bold("x"), md.bold("x")) == ("x", "[b]x[/b]", "**x**")
    assert bb.items([bb.item("a"), bb.item("b")]) == ["[list]", "[*]a", "[*]b", "[/list]"]
    assert text.items([text.item("a")]) == ["- a"] and md.item("a", nested=True) == "  - a"
    assert bb.items([]) == []


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="pdf"):
        Markup("pdf")
