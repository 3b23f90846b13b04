"""Names in a Steel Rose campaign post (issue 17 «Typos»: «Suggest, never guess silently»;
docs/steel_rose/campaign.md): every case and number of every city, faction, building, spell and
ritual name is that thing, and a word that only begins like one is not."""

from __future__ import annotations

import re

from voevoda.core.engine import Game
from voevoda.core.posts import word_forms
from voevoda.rulesets.steel_rose.campaign.names import Lexicon
from voevoda.rulesets.steel_rose.campaign.orders import Vocabulary

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]


def vocabulary() -> Vocabulary:
    ruleset = Game.create("steel-rose", "names", PLAYERS, seed="names").ruleset
    vocab = ruleset.vocab
    assert isinstance(vocab, Vocabulary)
    return vocab


def lexicons(vocab: Vocabulary) -> list[Lexicon]:
    return [vocab.cities, vocab.factions, vocab.spells, vocab.rituals, *vocab.buildings.values()]


def test_every_form_of_every_name_is_its_thing() -> None:
    vocab = vocabulary()
    missed = [(ident, form) for lex in lexicons(vocab) for name, ident in lex.names
              if re.search("[а-яё]", " ".join(name)) for form in word_forms(" ".join(name))
              if ident not in lex.match(form)]
    assert not missed, missed[:10]


def test_a_city_in_ль_is_declined_as_masculine_too() -> None:
    """«в Авентале», «из Розенталя»: the dictionary takes a city in «-ль» for feminine
    («Авентали»); players decline it as masculine, as the document does («в Авентале»)."""
    cities = vocabulary().cities
    for form in ("Авенталь", "Авентале", "Авенталя", "Авенталем", "Авентали", "Розенталя"):
        assert len(cities.match(form)) == 1, form


def test_a_misspelt_name_is_nothing() -> None:
    """«Авенталб», «Гордримм», «Баракк», «Часовнм», «вербовочный пунк», «Империйя»: refused with
    a suggestion, never read as the name they resemble."""
    vocab = vocabulary()
    assert vocab.cities.match("Авенталб") == []
    assert vocab.cities.match("Гордримм") == []
    assert vocab.factions.match("Империйя") == []
    for typo in ("Баракк", "Часовнм", "вербовочный пунк", "зал рыцорей"):
        assert all(lex.match(typo) == [] for lex in vocab.buildings.values()), typo
