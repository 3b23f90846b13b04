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


def test_a_city_after_a_preposition_reads_back_as_that_city() -> None:
    """«Построить Барак в Авентале», «атака на Чёрную Топь»: every city of the map after «в» and
    after «на»/«за», as the computer's posts and the reports write it (report.city_locative,
    report.city_accusative), is read as that city and no other."""
    from voevoda.rulesets.steel_rose.campaign.report import city_accusative, city_locative

    vocab = vocabulary()
    campaign = vocab.campaign
    for cid, city in campaign.map.cities.items():
        for form in (city_locative(city.name_ru), city_accusative(city.name_ru)):
            assert vocab.cities.match(form) == [cid], (city.name_ru, form)
    assert city_locative("Авенталь") == "Авентале" and city_locative("Парящая крепость") == "Парящей крепости"
    assert city_locative("Лунный Лес") == "Лунном Лесу" and city_locative("Пик кошмаров") == "Пике кошмаров"
    assert city_locative("Сильвания") == "Сильвании" and city_locative("Чёрная Топь") == "Чёрной Топи"


def test_a_computer_post_is_written_as_a_player_writes_it() -> None:
    """docs/steel_rose/campaign.md «Orders»: «Построить Барак в Авентале», «Нанять 10 копейщиков, 6
    лучников и 3 всадника»: the computer factions decline what they name (never «Построить Часовня
    в Авенталь», «Нанять 4 Копейщик», «атака Хольмгард»), and every line of their posts is read as
    one order, none refused."""
    from voevoda.rulesets.steel_rose.campaign.report import city_locative

    game = Game.create("steel-rose", "bot-words", PLAYERS, bots=PLAYERS, seed="messages",
                       config={"bot_odds_battles": 0})
    campaign = game.ruleset.campaign  # type: ignore[attr-defined]
    seen: set[str] = set()
    for _ in range(6):
        if game.outcome() is not None:
            break
        for player in game.awaiting():
            text = game.bot_post(player)
            receipt = game.check_post(player, text)
            assert not receipt.refused, (player, text, receipt.refused)
            if game.state["phase"] != "orders":
                continue
            for order in receipt.orders:
                line = text.split("\n")[order.line - 1]
                echo = game.ruleset.describe(order, "ru")
                if order.kind == "build":
                    seen.add("build")
                    assert line.endswith(f" в {city_locative(campaign.map.cities[order.args['city']].name_ru)}"), line
                elif order.kind == "hire":
                    seen.add("hire")
                    assert line.lower() == echo.lower(), (line, echo)
                elif order.kind == "army" and order.args.get("action") == "attack" and \
                        order.args.get("target") in campaign.map.cities:
                    seen.add("attack")
                    assert line.lower().split(" (")[0] == echo.lower().split(" (")[0], (line, echo)
        game.resolve(force=True)
    assert {"build", "hire", "attack"} <= seen, seen
