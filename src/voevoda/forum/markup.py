"""A post's rendered HTML turned back into the text the player typed.

Forums store BBCode and show HTML; the engine reads BBCode (docs/posts.md). So the reader writes
the post back as BBCode, which the core then reads like any pasted post:

- bold is ``[b]…[/b]`` (``<b>``, ``<strong>``, a ``font-weight: bold`` span), and so are italics,
  underline and strike-through: New Worlds' «only bold counts» holds on a post read from a page;
- a quote of another post is ``[quote="Анна"]…[/quote]`` (the name from the engine's own
  attributes or its «Анна писал(а):» line), a spoiler ``[spoiler]…[/spoiler]`` (with its title
  when it has one), an inline spoiler ``[ispoiler]``: the core sets all of them aside, so a quote
  of another player's orders never becomes this player's orders, and the echo lists them;
- line breaks are kept: ``<br>`` is a line break, a paragraph or a block is a line of its own;
- a smiley is its text (``alt``: «:)», «:D», the emoji itself); vBulletin, whose smileys carry no
  text, gets its usual codes from the picture's name;
- a link is ``[url=…]…[/url]`` unless its text is the address, a mention is the name, a picture
  is ``[img]…[/img]``, code is ``[code]…[/code]`` with its text as it stands, a list ``[list]``
  with ``[*]`` items;
- what the forum adds around the text is dropped: the quote's «писал(а):» header and «нажмите,
  чтобы раскрыть», a code block's «Код: выделить всё», an «edited by» notice inside the post
  (Invision's), scripts and buttons. A post's signature lies outside its body in every engine
  and is never read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import html as lxml_html

BLOCKS = frozenset({
    "p", "div", "section", "article", "aside", "header", "footer", "blockquote", "h1", "h2", "h3", "h4", "h5",
    "h6", "tr", "dl", "dt", "dd", "figure", "figcaption", "center", "address", "fieldset", "legend", "main",
    "nav", "form",
})
INLINE_TAGS = {"b": "b", "strong": "b", "i": "i", "em": "i", "u": "u", "ins": "u", "s": "s", "strike": "s",
               "del": "s"}
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "button", "input", "select", "textarea",
                          "svg", "object", "embed", "head", "title", "meta", "link"})
SKIPPED_CLASSES = frozenset({
    "signature", "message-signature", "signaturecontainer", "bbCodeBlock-expandLink", "js-expandLink",
    "bbCodeBlock-title", "bbcode_description", "codeheader", "quoteheader", "quotefooter", "lastedited",
    "message-lastEdit", "attachbox", "ipsQuote_citation", "bbcode_postedby", "sr-only", "u-srOnly",
    "ipsHide", "quote_expand", "js-selectToQuoteEnd", "reactionsBar", "likes", "ipsItemControls",
})
SPOILER_CLASSES = frozenset({"spoiler", "bbCodeSpoiler", "ipsSpoiler", "sp-wrap", "spoilwrapper", "spoilerbox",
                             "bbcode_spoiler", "spoiler-wrap"})
SPOILER_HEADS = frozenset({"sp-head", "spoiltitle", "spoiler-title", "spoiler_title", "ipsSpoiler_header",
                           "bbCodeSpoiler-button", "spoilertitle", "spoiler-head", "spoiler_head"})
SMILEY_CLASSES = frozenset({"smilies", "smilie", "smiley", "emoji", "inlineimg", "emoticon", "bbc_smiley",
                            "smilie--emoji", "twemoji"})
DEFAULT_SPOILER_TITLES = frozenset({"спойлер", "spoiler", "скрытый текст", "hidden content", "показать",
                                    "show", "скрыть", "hide", "скрытое содержимое", "reveal hidden contents"})
VBULLETIN_SMILEYS = {"smile": ":)", "biggrin": ":D", "wink": ";)", "frown": ":(", "tongue": ":p",
                     "redface": ":o", "mad": ":mad:", "eek": ":eek:", "confused": ":confused:",
                     "cool": ":cool:", "rolleyes": ":rolleyes:", "cry": ":cry:", "lol": ":lol:"}

_QUOTE_HEADER = re.compile(
    r"^\s*(?:(?:цитата|quote|quoting)(?:\s+from)?\s*:?\s*)?(?P<name>.+?)\s*"
    r"(?:(?:писал|написал|написала|сказал|сказала|пишет|wrote|said|says)(?:\(а\))?\s*:?.*"
    r"|\s+(?:от|on)\s+.*)?\s*:?\s*$", re.IGNORECASE | re.DOTALL)
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


def classes(element: lxml_html.HtmlElement) -> set[str]:
    return set((element.get("class") or "").split())


class _Writer:
    """Pieces of the post's text; a line break asked for at a block's edge is written once."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.openers: set[int] = set()

    def write(self, text: str) -> None:
        if text:
            self.pieces.append(text)

    def text(self, text: str | None) -> None:
        if text:
            collapsed = _SPACES.sub(" ", text)
            if self.pieces and len(self.pieces) - 1 in self.openers:
                collapsed = collapsed.lstrip(" ")  # the text right after a quote's or a spoiler's tag
            self.write(collapsed)

    def line(self) -> None:
        """End the current line unless it is already ended (a block's edge) or has just opened a
        quote or a spoiler (whose text then begins right after its tag, as typed)."""
        for index in range(len(self.pieces) - 1, -1, -1):
            piece = self.pieces[index]
            if piece.strip(" "):
                if not piece.endswith("\n") and index not in self.openers:
                    self.pieces.append("\n")
                return
            if "\n" in piece:
                return

    def opener(self, tag: str) -> None:
        self.pieces.append(tag)
        self.openers.add(len(self.pieces) - 1)

    def closer(self, tag: str) -> None:
        """A closing tag right after the text it closes (the line breaks of the blocks inside
        it are not the player's)."""
        while self.pieces and not self.pieces[-1].strip():
            self.pieces.pop()
        if self.pieces:
            self.pieces[-1] = self.pieces[-1].rstrip("\n ")
        self.pieces.append(tag)

    def br(self) -> None:
        self.pieces.append("\n")

    def result(self) -> str:
        lines = [line.strip(" ") for line in "".join(self.pieces).split("\n")]
        text = "\n".join(lines).strip("\n")
        return re.sub(r"\n{3,}", "\n\n", text)


def post_text(body: lxml_html.HtmlElement, skip: Iterable[lxml_html.HtmlElement] = ()) -> str:
    """The BBCode the player typed, from the element that holds a post's body; ``skip``: elements
    inside it that are not the player's text (an engine's notices)."""
    writer = _Writer()
    _Converter(writer, {id(e) for e in skip}).children(body)
    return writer.result()


def fragment_text(markup: str) -> str:
    """:func:`post_text` of an HTML fragment (a feed's post body)."""
    if not markup.strip():
        return ""
    root = lxml_html.fragment_fromstring(markup, create_parent="div")
    return post_text(root)


class _Converter:
    def __init__(self, writer: _Writer, skip: set[int]) -> None:
        self.out = writer
        self.skip = skip

    def children(self, element: lxml_html.HtmlElement, without: set[int] | None = None) -> None:
        self.out.text(element.text)
        for child in element:
            if without is None or id(child) not in without:
                self.element(child)
            self.out.text(child.tail)

    def element(self, element: lxml_html.HtmlElement) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        if not tag:  # a comment or a processing instruction
            return
        tag = tag.lower()
        found = classes(element)
        if (tag in SKIPPED_TAGS or id(element) in self.skip or found & SKIPPED_CLASSES
                or element.get("data-excludequote") is not None):
            return
        if tag == "br":
            self.out.br()
        elif tag == "img":
            self.image(element, found)
        elif self.is_spoiler(tag, found) or _button_spoiler(element):
            self.spoiler(element, inline=False)
        elif "bbCodeInlineSpoiler" in found:
            self.spoiler(element, inline=True)
        elif self.is_quote(tag, found):
            self.quote(element, found)
        elif tag == "pre" or tag == "code" and not self.inline_code(element) or "codebox" in found:
            self.code(element)
        elif tag in INLINE_TAGS:
            self.wrapped(element, INLINE_TAGS[tag])
        elif tag == "span" and self.styled(element):
            self.wrapped(element, self.styled(element))
        elif tag == "a":
            self.link(element, found)
        elif tag in ("ul", "ol"):
            self.out.line()
            self.out.opener("[list]")
            self.children(element)
            self.out.closer("[/list]")
            self.out.line()
        elif tag == "li":
            self.out.line()
            self.out.write("[*]")
            self.children(element)
            self.out.line()
        elif tag in ("td", "th"):
            self.children(element)
            self.out.write(" ")
        elif tag == "hr":
            self.out.line()
            self.out.write("[hr]")
            self.out.line()
        elif tag in ("iframe", "video", "audio"):
            source = element.get("src") or element.get("data-src") or ""
            if source:
                self.out.write(f"[media]{source}[/media]")
        elif tag in BLOCKS or tag == "table" or tag == "tbody":
            self.out.line()
            self.children(element)
            self.out.line()
        else:
            self.children(element)

    # -- kinds of elements --------------------------------------------------------------------

    @staticmethod
    def styled(element: lxml_html.HtmlElement) -> str:
        style = (element.get("style") or "").replace(" ", "").lower()
        found = classes(element)
        if "font-weight:bold" in style or "font-weight:700" in style or "bbc_b" in found:
            return "b"
        if "text-decoration:underline" in style or "bbc_u" in found:
            return "u"
        if "text-decoration:line-through" in style:
            return "s"
        if "font-style:italic" in style or "bbc_i" in found:
            return "i"
        return ""

    def wrapped(self, element: lxml_html.HtmlElement, tag: str) -> None:
        inner = _Writer()
        _Converter(inner, self.skip).children(element)
        text = "".join(inner.pieces)
        if not text.strip():
            self.out.write(text)
            return
        self.out.write(f"[{tag}]{text}[/{tag}]")

    def image(self, element: lxml_html.HtmlElement, found: set[str]) -> None:
        alt = (element.get("alt") or "").strip()
        source = element.get("src") or element.get("data-src") or ""
        smiley = bool(found & SMILEY_CLASSES) or element.get("data-emoticon") is not None or "/smil" in source.lower()
        if smiley or (alt and len(alt) <= 12 and not alt.lower().startswith(("http", "image", "изображение"))):
            if alt:
                self.out.write(alt)
                return
            name = source.rsplit("/", 1)[-1].split(".", 1)[0].lower()
            title = (element.get("title") or "").strip()
            self.out.write(VBULLETIN_SMILEYS.get(name) or VBULLETIN_SMILEYS.get(title.lower()) or
                           (f":{name}:" if name else title))
            return
        if source:
            self.out.write(f"[img]{source}[/img]")

    @staticmethod
    def inline_code(element: lxml_html.HtmlElement) -> bool:
        parent = element.getparent()
        return parent is None or parent.tag != "pre" and "\n" not in (element.text_content() or "")

    def code(self, element: lxml_html.HtmlElement) -> None:
        inner = element.find(".//pre")
        if inner is None and element.tag != "pre":
            inner = element.find(".//code")
        source = inner if inner is not None else element
        text = source.text_content().strip("\n")
        self.out.line()
        self.out.write(f"[code]{text}[/code]")
        self.out.line()

    def link(self, element: lxml_html.HtmlElement, found: set[str]) -> None:
        href = element.get("href") or ""
        inner = _Writer()
        _Converter(inner, self.skip).children(element)
        text = "".join(inner.pieces)
        mention = bool(found & {"username", "mention", "ipsMention"}) or element.get("data-user-id") is not None \
            or element.get("data-mentionid") is not None or text.strip().startswith("@")
        if mention or not href or href.startswith(("#", "javascript:")) or text.strip() in (href, "") \
                or "[img]" in text:
            self.out.write(text if text.strip() else href)
            return
        self.out.write(f"[url={href}]{text}[/url]")

    # -- quotes and spoilers --------------------------------------------------------------------

    @staticmethod
    def is_spoiler(tag: str, found: set[str]) -> bool:
        return tag == "details" or bool(found & SPOILER_CLASSES)

    def spoiler(self, element: lxml_html.HtmlElement, inline: bool) -> None:
        head = None
        for candidate in element.iter():
            if candidate is element or not isinstance(candidate.tag, str):
                continue
            if candidate.tag == "summary" or classes(candidate) & SPOILER_HEADS:
                head = candidate
                break
        if head is None:  # vBulletin's «Спойлер: … [Показать]»: a heading with a button, then the text
            head = next((child for child in element if isinstance(child.tag, str) and child.tag != "input"
                         and child.xpath(".//input[@type='button']")), None)
        content = element
        rest = [child for child in element if isinstance(child.tag, str) and child is not head]
        if len(rest) == 1 and classes(rest[0]) & SPOILER_CLASSES and not (element.text or "").strip():
            content = rest[0]
        title = ""
        if head is not None:
            title = " ".join(head.text_content().split())
            title = re.sub(r"^(?:спойлер|spoiler|скрытый текст)\s*:?\s*", "", title, flags=re.IGNORECASE)
            if title.casefold().rstrip(".…") in DEFAULT_SPOILER_TITLES:
                title = ""
        tag = "ispoiler" if inline else "spoiler"
        if not inline:
            self.out.line()
        self.out.opener(f"[{tag}={title}]" if title else f"[{tag}]")
        if head is not None:
            self.skip.add(id(head))
        self.children(content)
        if head is not None:
            self.skip.discard(id(head))
        self.out.closer(f"[/{tag}]")
        if not inline:
            self.out.line()

    @staticmethod
    def is_quote(tag: str, found: set[str]) -> bool:
        if tag == "blockquote":
            return not found & {"postcontent", "signature", "restore"} or bool(found & {"bbc_standard_quote"})
        return bool(found & {"bbcode_quote", "ipsQuote", "bbCodeBlock--quote", "quotebox"})

    def quote(self, element: lxml_html.HtmlElement, found: set[str]) -> None:
        name = self.quoted_name(element)
        content: lxml_html.HtmlElement = element
        without: set[int] = set()
        wanted = {"bbCodeBlock-expandContent", "ipsQuote_contents"} | ({"message"} if "bbcode_quote" in found else set())
        for child in element.iter():
            if child is not element and isinstance(child.tag, str) and classes(child) & wanted:
                content = child
                break
        for cite in content.iter("cite"):
            without.add(id(cite))
        self.out.line()
        self.out.opener(f'[quote="{name}"]' if name else "[quote]")
        for cite_id in without:
            self.skip.add(cite_id)
        self.children(content)
        for cite_id in without:
            self.skip.discard(cite_id)
        self.out.closer("[/quote]")
        self.out.line()

    @staticmethod
    def quoted_name(element: lxml_html.HtmlElement) -> str:
        for attribute in ("data-quote", "data-ipsquote-username", "data-author", "data-username"):
            value = element.get(attribute)
            if value:
                return _clean_name(value)
        postedby = element.find_class("bbcode_postedby")
        if postedby:
            strong = postedby[0].find(".//strong")
            return _clean_name(strong.text_content() if strong is not None else postedby[0].text_content())
        cite = element.find(".//cite")
        if cite is None:
            previous = element.getprevious()
            if previous is not None and "quoteheader" in classes(previous):
                cite = previous
        if cite is not None:
            link = cite.find(".//a")
            if link is not None and "memberlist" in (link.get("href") or "") or \
                    link is not None and "profile" in (link.get("href") or ""):
                return _clean_name(link.text_content())
            found = _QUOTE_HEADER.match(" ".join(cite.text_content().split()))
            if found:
                return _clean_name(found.group("name"))
        title = element.find_class("bbCodeBlock-title")
        if title:
            found = _QUOTE_HEADER.match(" ".join(title[0].text_content().split()))
            if found:
                return _clean_name(found.group("name"))
        return ""


def _button_spoiler(element: lxml_html.HtmlElement) -> bool:
    """vBulletin's usual spoiler: a block holding a heading with a «Показать» button and a
    ``spoiler`` block."""
    return element.tag == "div" and any(
        isinstance(child.tag, str) and classes(child) & SPOILER_CLASSES for child in element) and bool(
        element.xpath("./*[.//input[@type='button']]"))


def _clean_name(name: str) -> str:
    return " ".join(name.replace('"', "").replace("[", "").replace("]", "").split()).rstrip(":")


__all__ = ["fragment_text", "post_text"]
