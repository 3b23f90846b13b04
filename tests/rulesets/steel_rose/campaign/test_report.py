"""The campaign's reports: sentences a native reader checked (tests/corpus/steel_rose_campaign.txt),
each viewer's report holding only what it may see, every format, the money statement line by line
(002_c01e70bb146ed8cc.txt; issue 17 «Posts out»)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from voevoda.core.engine import Game

CORPUS = Path(__file__).parents[3] / "corpus" / "steel_rose_campaign.txt"
PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]
CORPUS_POSTS = {
    "Анна": "Построить Барак в Авентале\nНанять 30 копейщиков\nАрмия 1: все — атака Хольмгард (колонизировать)",
    "Глеб": "Ритуал: Заражение — Вельмар",
    "Вера": "Построить Святилище природы в Эльдаране\nЗаклинание: Прорицание — Империя\nСоюз с Ограми",
    "Дарья": "Нанять 14 огров-быков\nАрмия 1: все — атака Тарнбург (разграбить)\nСоюз с Благословлёнными небом",
    "Борис": "Построить Оружейную мастерскую в Ормисе\nСоюз с Империей",
}


@functools.cache
def corpus_game() -> Game:
    # The corpus was read from this game, and reviewed, under dice procedure 1: the same game again.
    game = Game.create("steel-rose", "corpus", PLAYERS, seed="corpus", dice_procedure=1)
    for player, text in CORPUS_POSTS.items():
        game.submit(player, text)
    game.resolve(force=True)
    while game.state["turn"] == 1:
        game.resolve(force=True)
    return game


def corpus() -> list[tuple[str, str, str]]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            viewer, lang, sentence = (part.strip() for part in line.split("|", 2))
            out.append((viewer, lang, sentence))
    return out


@pytest.mark.parametrize(("viewer", "lang", "sentence"), corpus(), ids=lambda x: str(x)[:40])
def test_the_report_says_it_as_written_down(viewer: str, lang: str, sentence: str) -> None:
    lines = {line.strip().removeprefix("- ").strip() for line in corpus_game().report(viewer, 1, "text", lang).splitlines()}
    assert sentence in lines, sentence


def test_each_report_keeps_the_others_secrets() -> None:
    """«Игрокам НЕдоступна ... Баланс противников»: the Empire's ledger is in Анна's report only,
    the cult's corruption in Глеб's only, the divination in Вера's only."""
    game = corpus_game()
    texts = {v: game.report(v, 1, "text", "ru") for v in [*PLAYERS, "public"]}
    for viewer, text in texts.items():
        assert ("найм: 30 копейщиков" in text) == (viewer == "Анна"), viewer
        assert ("порча +15" in text) == (viewer == "Глеб"), viewer
        assert ("Прорицание о фракции" in text) == (viewer == "Вера"), viewer
        assert ("предложило союз" in text) == (viewer in ("Анна", "Борис")), viewer


@pytest.mark.parametrize("fmt", ["text", "bbcode", "markdown", "telegram"])
def test_every_format(fmt: str) -> None:
    game = corpus_game()
    for viewer in ("Анна", "public"):
        text = game.report(viewer, 1, fmt, "ru")
        assert "Хольмгард" in text
        if fmt == "bbcode":
            assert "[b]" in text or "[u]" in text
        if fmt == "telegram":
            assert "<b>" in text


def test_each_faction_sees_its_victory_conditions_and_how_far_it_has_come() -> None:
    """«УСЛОВИЯ ПОБЕДЫ»: every item of the faction's own list with its progress (ruling C36), in its
    report only; under ``victory_conditions = any`` the heading says one item is enough."""
    game = corpus_game()
    anna = game.report("Анна", 1, "text", "ru")
    assert "Условия победы (нужно выполнить все)" in anna
    assert "честь: 32,4 из 60" in anna and "мана: " not in anna
    assert "Условия победы" not in game.report("public", 1, "text", "ru")
    other = Game.create("steel-rose", "any", PLAYERS, seed="corpus", config={"victory_conditions": "any"})
    assert "Условия победы (достаточно одного)" in other.report("Анна", None, "text", "ru")


ECHOED_ARMY_ORDERS = [
    ("Армия 1: 20 копейщиков и 4 рыцаря — атака Пик кошмаров",
     "армия 1: 20 копейщиков и 4 рыцаря — атака на Пик кошмаров",
     "army 1: 20 spearmen and 4 knights — attack Nightmare Peak"),
    ("Армия 2: все — атака Чёрная Топь (разграбить)", "армия 2: все — атака на Чёрную Топь (разграбить)",
     "army 2: all — attack Black Mire (plunder)"),
    ("Армия 3: остальные — оборона Вельмар", "армия 3: остальные — оборона города Вельмар",
     "army 3: the rest — defend Velmar"),
    ("Армия 4: 5 копейщиков — телепортация на Чёрную Топь", "армия 4: 5 копейщиков — телепортация на Чёрную Топь",
     "army 4: 5 spearmen — teleport to Black Mire"),
    ("Армия 5: все — атака Передвижной город", "армия 5: все — атака на передвижной город огров",
     "army 5: all — attack the ogres' mobile city"),
    ("Заклинание: Прорицание — Империя", "заклинание: Прорицание — Империя", "spell: Divination — the Empire"),
    ("Очистить Вельмар за честь", "очистить Вельмар за ресурс фракции",
     "cleanse Velmar for the faction's resource"),
]


@pytest.mark.parametrize(("post", "ru", "en"), ECHOED_ARMY_ORDERS)
def test_the_echo_says_an_order_as_the_language_does(post: str, ru: str, en: str) -> None:
    """002 «Армии»: an army «атакует город», «обороняет город»; the echo says it as Russian does —
    «атака на Пик кошмаров», «на Чёрную Топь» (New Worlds: «атака на Бориса»), «оборона города
    Вельмар» — and English puts the article before a faction ("the Empire"); cleansing «за честь»
    is echoed with its payment («Очистить Вельмар за честь»: «честью/маной»)."""
    game = Game.create("steel-rose", "echo", PLAYERS, seed="echo")
    (order,) = game.ruleset.parse(post, "Анна", game.state)
    assert game.ruleset.describe(order, "ru") == ru
    assert game.ruleset.describe(order, "en") == en


def test_a_faction_without_troops_is_told_so() -> None:
    """A faction with no units reads «войск нет» under «Армия» in its report and «нет» in `show`,
    never «никого» (issue 30, item 8)."""
    game = Game.create("steel-rose", "no-army", PLAYERS, seed="no-army")
    game.submit("Анна", "Построить Барак в Авентале")
    game.resolve(force=True)
    text = game.report("Анна", 1, "text", "ru")
    army = text.split("== Армия ==")[1].split("==")[0]
    assert army.strip() == "войск нет", army
    assert "никого" not in text
    assert "войска / units: нет / none" in game.ruleset.summary(game.view("Анна"), "Анна")
