"""Names in posts: cities, factions, buildings, spells and rituals, matched in any case and
grammatical form («в Авентале», «Чёрной Топи», «Империю», «Часовню»), Russian or English, with
the nearest known names suggested for a typo and never read as them («Авенталб», «Часовнм»)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from voevoda.core.posts import word_forms
from voevoda.core.words import lexeme, plural_en

_WORD = re.compile(r"[a-zа-яё0-9]+", re.IGNORECASE)


def norm(text: str) -> str:
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    return _WORD.findall(norm(text))


_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
_HARD = ("а", "у", "ом", "е", "ы", "ов", "ам", "ами", "ах")
_SOFT = ("я", "ю", "ем", "е", "и", "ей", "ям", "ями", "ях")


def name_forms(name: str) -> list[frozenset[str]]:
    """The forms a post may write each word of ``name`` in: every case and number of a Russian
    name (the morphology dictionary, :func:`voevoda.core.posts.word_forms`), and a single word
    ending in a consonant or «ь» also declined as a masculine noun («в Авентале», «из
    Розенталя»: the dictionary takes a city in «-ль» for feminine); an English name as written
    and in the plural; each word of a Russian phrase also in any form of its own. Nothing else: a
    word that only begins like a name is a typo."""
    base = words(name)
    if _CYRILLIC.search(name):
        forms = [words(form) for form in word_forms(name.lower())]
        if len(base) == 1 and base[0][-1:] not in "аеиоуыэюяй":
            stem, endings = (base[0][:-1], _SOFT) if base[0].endswith("ь") else (base[0], _HARD)
            forms += [[stem + ending] for ending in endings]
    else:
        forms = [base, words(plural_en(name))]
    slots: list[set[str]] = [{w} for w in base]
    if len(base) > 1 and _CYRILLIC.search(name):
        # a phrase the dictionary cannot decline as a whole («Благословлённые небом»): each of
        # its words in any of its own forms
        for slot, w in zip(slots, base, strict=True):
            slot.update(norm(f) for f in lexeme(w))
    for ws in forms:
        if len(ws) == len(base):
            for slot, w in zip(slots, ws, strict=True):
                slot.add(w)
    return [frozenset(slot) for slot in slots]


class Lexicon:
    """Names of one kind of thing: (id, display name, every accepted name)."""

    def __init__(self, entries: Iterable[tuple[str, Iterable[str]]]) -> None:
        self.names: list[tuple[list[str], str]] = []
        self.display: dict[str, tuple[str, str]] = {}
        self._forms: list[tuple[list[frozenset[str]], str]] | None = None
        """Each name's accepted forms (:func:`name_forms`), built on first use."""
        for ident, names in entries:
            listed = list(names)
            for name in [*listed, ident.replace("_", " ")]:
                ws = words(name)
                if ws and (ws, ident) not in self.names:
                    self.names.append((ws, ident))
            if listed:
                self.display[ident] = (listed[0], listed[1] if len(listed) > 1 else listed[0])

    def match(self, phrase: str) -> list[str]:
        """The ids whose name matches ``phrase`` word for word, each word a form of the name's
        word in its place (several when ambiguous)."""
        ws = words(phrase)
        exact = []
        for name, ident in self.names:
            if name == ws and ident not in exact:
                exact.append(ident)
        if exact:
            return exact
        if self._forms is None:
            self._forms = [(name_forms(" ".join(name)), ident) for name, ident in self.names]
        found: list[str] = []
        for slots, ident in self._forms:
            if len(slots) == len(ws) and ident not in found and all(
                    w in slot for w, slot in zip(ws, slots, strict=True)):
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
