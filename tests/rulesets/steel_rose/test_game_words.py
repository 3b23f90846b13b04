"""What the players of a ``steel-rose-battle`` game read, word for word (issue 17, «Russian that
a native speaker would post»: counted nouns, agreement with the player's gender, no «Копейщик
×10»; maps with «the game's title and turn» and «a legend for every symbol»). The sentences are a
corpus checked by a native reader: tests/corpus/steel_rose_battle_game.txt."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest

from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.core.posts import read

ROOT = Path(__file__).parents[3]
CORPUS = ROOT / "tests" / "corpus" / "steel_rose_battle_game.txt"

CONFIG = {"sides": [
    {"player": "Алиса", "faction": "empire", "gunpowder": 30,
     "army": {"spearman": 20, "knight": 6, "healer": 2, "archer": 10, "hero": 1, "griffin_rider": 3,
              "cannon": 2, "horseman": 4}},
    {"player": "Борис", "faction": "void_cult",
     "army": {"cultist": 25, "void_knight": 5, "lesser_demon": 12, "enlightened": 6, "archdemon": 1}},
], "genders": {"Алиса": "f"}}

ALICE_DEPLOYMENT = """Приветствую, господа!

[B]РАЗМЕЩЕНИЕ АРМИИ[/B]
[b]Правый фланг:[/b]
[i]Авангард[/i] - 10 копейщиков, 3 рыцаря и герой
Арьергард - 10 лучников
[b]Центральный фланг:[/b]
Авангард — 10 копейщиков, 2 целителя
Арьергард - 2 пушки
[color=#FF0000]Левый фланг:[/color]
Авангард: 3 всадника на грифонах, 3 Рыцаря
Порох: 30
Порох для пушек: 10

[spoiler]Боря, ты ничего не увидишь[/spoiler]
Алиса, командующая Имперской армией"""

BORIS_DEPLOYMENT = """**Расстановка Культа**
Правый фланг:
Авангард - 25 культистов
Центральный фланг:
Авангард - 5 рыцарей пустоты, архидемон
Арьергард - 6 просветлённых
Левый фланг:
Авангард - 12 низших демонов"""

ALICE_PLAN = """[b]Планирование[/b]
Правый арьергард: обстрел правого авангарда
Правый авангард: защита правого арьергарда
Центральный арьергард: дальнобойный обстрел центрального арьергарда
Левый авангард: натиск на центральный арьергард
Центральный авангард: в укрытие"""

ALICE_MOVES = """Левый авангард: смена позиции на левый арьергард
Центральный авангард: марш-бросок на левый авангард, левый арьергард"""

BORIS_PLAN = "Центральный авангард: в укрытие"


def corpus() -> list[tuple[str, str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            channel, lang, sentence = (x.strip() for x in line.split(" | ", 2))
            rows.append((channel, lang, sentence))
    return rows


def _lines(text: str) -> frozenset[str]:
    out = set()
    for line in text.splitlines():
        line = line.strip().removeprefix("- ").strip()
        out.add(line)
        out.add(re.sub(r"^\d+: ", "", line))
    return frozenset(out)


def _svg_texts(svg: str) -> frozenset[str]:
    return frozenset(html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
                     for t in re.findall(r"<text[^>]*>.*?</text>", svg))


@cache
def channels() -> dict[tuple[str, str], frozenset[str]]:
    """Every channel of the corpus, played once: Алиса and Борис deploy, plan, and fight."""
    game = Game.create("steel-rose-battle", "words", ["Алиса", "Борис"], config=CONFIG, seed="words")
    out: dict[tuple[str, str], set[str]] = {}
    echo: set[str] = set()
    for player, post in (("Алиса", ALICE_DEPLOYMENT), ("Борис", BORIS_DEPLOYMENT)):
        accepted, text = outputs.order_reply(game, player, post)
        assert accepted, text
        echo |= _lines(text)
    described_en = {game.ruleset.describe(o, "en") for o in game.pending["Алиса"].orders}
    game.resolve()
    out[("report", "ru")] = set(_lines(outputs.report_text(game, "Борис")))
    out[("report", "en")] = set(_lines(outputs.report_text(game, "Борис", lang="en")))
    out[("map", "ru")] = set(_svg_texts(outputs.map_svg(game, "Борис") or ""))
    out[("map", "en")] = set(_svg_texts(outputs.map_svg(game, "Борис", "en") or ""))
    for player, post, check in (("Алиса", ALICE_MOVES, True), ("Алиса", ALICE_PLAN, False),
                                ("Борис", BORIS_PLAN, False)):
        accepted, text = outputs.order_reply(game, player, post, check=check)
        assert accepted, text
        echo |= _lines(text)
    described_en |= {game.ruleset.describe(o, "en") for o in game.pending["Алиса"].orders}
    described_en |= {game.ruleset.describe(o, "en") for o in game.ruleset.parse(ALICE_MOVES, "Алиса", game.state)}
    game.resolve()
    out[("echo", "ru")] = echo
    out[("echo", "en")] = described_en
    out[("battle-report", "ru")] = set(_lines(outputs.report_text(game, "Борис")))
    out[("status", "ru")] = set(_lines(outputs.status_text(game, "Борис")))
    out[("map-after", "ru")] = set(_svg_texts(outputs.map_svg(game, "Борис") or ""))
    return {key: frozenset(value) for key, value in out.items()}


@pytest.mark.parametrize(("channel", "lang", "sentence"), corpus())
def test_the_game_says_it_as_the_corpus_does(channel: str, lang: str, sentence: str) -> None:
    said = channels()[(channel, lang)]
    if channel == "status":
        assert any(sentence in line for line in said), sorted(said)
    else:
        assert sentence in said, sorted(said)


def test_no_unit_is_written_as_a_name_times_a_count() -> None:
    """«Копейщик ×10» is a spreadsheet, not a post: no channel of the corpus writes it."""
    for (channel, lang), said in channels().items():
        assert not [line for line in said if "×" in line], (channel, lang)


def test_the_echo_numbers_the_powder_line_as_the_post_does() -> None:
    """The echo names each order by the line the player typed it on; «Порох: 30» is line 12 of
    the post (it was 0)."""
    numbers = [line.number for line in read(ALICE_DEPLOYMENT).lines if line.text.startswith("Порох: 30")]
    assert numbers == [12]
    assert "12: порох: 30" in channels()[("echo", "ru")]
