"""Names in posts: cities, factions, buildings, spells and rituals, matched in any case and
grammatical form («в Авентале», «Чёрной Топи», «Империю», «Часовню»), Russian or English, with
the nearest known names suggested for a typo."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-zа-яё0-9]+", re.IGNORECASE)


def norm(text: str) -> str:
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    return _WORD.findall(norm(text))


def same_word(word: str, name: str) -> bool:
    """One word of a post against one word of a name, whatever its case and number: a common
    prefix of at least ``max(3, len(name) - 3)`` letters, and at most four letters more."""
    if word == name:
        return True
    if len(name) <= 3 or len(word) <= 3:
        return len(name) == 3 and word.startswith(name) and len(word) - len(name) <= 3
    common = 0
    for x, y in zip(word, name, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(3, len(name) - 3) and common >= len(word) - 4


class Lexicon:
    """Names of one kind of thing: (id, display name, every accepted name)."""

    def __init__(self, entries: Iterable[tuple[str, Iterable[str]]]) -> None:
        self.names: list[tuple[list[str], str]] = []
        self.display: dict[str, tuple[str, str]] = {}
        for ident, names in entries:
            listed = list(names)
            for name in [*listed, ident.replace("_", " ")]:
                ws = words(name)
                if ws and (ws, ident) not in self.names:
                    self.names.append((ws, ident))
            if listed:
                self.display[ident] = (listed[0], listed[1] if len(listed) > 1 else listed[0])

    def match(self, phrase: str) -> list[str]:
        """The ids whose name matches ``phrase`` word for word (several when ambiguous)."""
        ws = words(phrase)
        exact = []
        for name, ident in self.names:
            if name == ws and ident not in exact:
                exact.append(ident)
        if exact:
            return exact
        found: list[str] = []
        for name, ident in self.names:
            if len(name) == len(ws) and ident not in found and all(
                    same_word(w, n) for w, n in zip(ws, name, strict=True)):
                found.append(ident)
        return found

    def one(self, phrase: str) -> str | None:
        found = self.match(phrase)
        return found[0] if len(found) == 1 else None

    def suggest(self, phrase: str, lang: str = "ru", limit: int = 3) -> list[str]:
        """The nearest known names to a phrase nothing matched, as the language names them (the
        first name given is the Russian one, the second the English one)."""
        wanted = " ".join(words(phrase))
        pool = {" ".join(ws): ident for ws, ident in self.names}
        close = difflib.get_close_matches(wanted, list(pool), n=limit * 3, cutoff=0.6)
        out: list[str] = []
        for name in close:
            ru, en = self.display.get(pool[name], (name, name))
            shown = ru if lang == "ru" else en
            if shown not in out:
                out.append(shown)
        return out[:limit]


def suggestion(lex: Lexicon, phrase: str, lang: str) -> str:
    """« (может быть, «Авенталь»?)» / " (did you mean 'Aventhal'?)", or nothing."""
    near = lex.suggest(phrase, lang)
    if not near:
        return ""
    if lang == "ru":
        return " (может быть, " + " или ".join(f"«{n}»" for n in near) + "?)"
    return " (did you mean " + " or ".join(f"'{n}'" for n in near) + "?)"
