"""Culture & Conquest reports (004; issue 17, «Reports say what a player needs to act»): upkeep
paid and owed, one post per turn with a section per player, the dice seeds at the foot once."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.rulesets.culture_conquest.helpers import make_game, make_state
from voevoda.core.engine import Game
from voevoda.core.markup import render
from voevoda.rulesets.culture_conquest import phases
from voevoda.rulesets.culture_conquest.game import cut_view
from voevoda.rulesets.culture_conquest.ruleset import CultureConquest


def upkeep_line(player: dict, lang: str = "ru") -> str:
    state = make_state({"A": player, "B": {}})
    g = make_game(state, {"A/upkeep/leaders": []})
    phases.phase_upkeep(g, "A")
    doc = CultureConquest().document(cut_view(state, "A"), g.events, "A", lang, 1)
    return next(line for line in render(doc).splitlines() if "одержание" in line or "pkeep" in line)


def test_upkeep_paid_in_full() -> None:
    """«Каждая единица населения потребляет 1 единицу Пищи. Армиям ... выплачивается 1 Монета каждой.»"""
    line = upkeep_line({"pop": {"army": 3, "farmers": 7}, "food": 12, "coins": 5})
    assert line == ("- Содержание — пища: нужно 10, съедено 10; жалованье войску: 3 монеты, выплачено сполна; "
                    "испортились 2 единицы пищи (без Гончарного дела пища не хранится)")


def test_upkeep_owed_and_not_paid() -> None:
    """«Единицы населения, оставленные без снабжения теряются»: what was owed, what was at hand,
    who was lost."""
    line = upkeep_line({"pop": {"army": 3, "farmers": 7}, "food": 8, "coins": 1})
    assert line.startswith("- Содержание — пища: нужно 10, было только 8; жалованье войску: нужно 3 монеты, "
                           "выплачено 1 (в казне было 1); умерли от голода: ")
    assert "разбежались без жалованья: армия 2" in line
    english = upkeep_line({"pop": {"army": 3, "farmers": 7}, "food": 8, "coins": 1}, "en")
    assert "food: 10 owed, only 8 at hand; the troops' pay: 3 coins owed, 1 paid (1 in the treasury)" in english


def test_one_post_per_turn_with_the_seeds_at_its_foot_once() -> None:
    game = Game.create("culture-conquest", "c", ["Анна", "Борис"], bots=["Анна", "Борис"], seed="post",
                       config={"turns": 3}, auto_resolve=True)
    assert game.outcome() is not None
    text = game.report("Анна", 2)
    assert text.startswith("Культура и Завоевание, ход 2: отчёт для Анны\n")
    assert text.count("Анна (вы)\n") == 1 and text.count("\nБорис\n") == 1
    assert text.index("Анна (вы)") < text.index("\nБорис\n")        # in the order of play
    assert text.count("Кости (проверяемые)") == 1 and game.steps[-1].seed not in text
    seeds = re.findall(r"шаг (\d+): зерно ([0-9a-f]{64}), звено [0-9a-f]{64}", text)
    assert seeds and all(game.steps[int(n) - 1].seed == s for n, s in seeds)
    foot = text.split("Кости (проверяемые)")[1]
    assert all(f"шаг {n}" in foot for n, _ in seeds)
    assert "Ход 3" not in text and "конец раунда" not in text      # only turn 2, told once
    assert " мон." not in text and "жалование" not in text
    bb = game.report("public", 3, "bbcode")
    assert "[b]Конец игры: победные очки[/b]" in bb and "[code]Место  Игрок" in bb


def test_a_war_is_told_with_the_players_names_in_their_cases() -> None:
    """«Игрок может напасть на 1 противника»: «напасть на Бориса», «против Бориса», «победа за
    Анной», «потери Бориса» — names declined, never «на Борис»."""
    state = make_state({"Анна": {"pop": {"army": 2, "farmers": 8}}, "Борис": {"pop": {"army": 1, "farmers": 9}}})
    g = make_game(state, {"Анна/war/attempt/Борис": [5], "Анна/war/attacker": [6, 3, 1], "Анна/war/defender": [2],
                          "Анна/war/vp": [4]})
    phases.on_attack(g, {"kind": "attack", "players": ["Анна"], "tried": []}, {"Анна": {"target": "Борис"}})
    text = render(CultureConquest().document(cut_view(state, "Анна"), g.events, "Анна", "ru", 1))
    assert "- Анна пытается напасть на Бориса: 1d6 → 5 — нападение!" in text
    assert "- БИТВА: Анна против Бориса — победа за Анной, 1d6 → 4 = 4 ПО" in text
    assert "    - потери Бориса: армия 1" in text


CORPUS = Path(__file__).parents[2] / "corpus" / "culture_conquest.txt"


@cache
def corpus_game() -> Game:
    """The game the corpus was read from and reviewed. Its dice are those of procedure 1 (the game
    was played before procedure 2): the same game again, so that each reviewed sentence is still
    in its report (the procedure changes which dice fall, not how a report says them)."""
    return Game.create("culture-conquest", "c", ["Анна", "Борис", "Вера"], bots=["Анна", "Борис", "Вера"],
                       seed="corpus", config={"turns": 8, "strategies": {"Борис": "warmonger", "Вера": "warmonger"}},
                       auto_resolve=True, dice_procedure=1)


@cache
def corpus_lines(turn: int, lang: str) -> frozenset[str]:
    text = corpus_game().report("Анна", turn, "text", lang)
    return frozenset(line.strip().removeprefix("- ").strip() for line in text.splitlines())


def test_every_corpus_sentence_is_in_its_report() -> None:
    rows = [line.split(" | ", 2) for line in CORPUS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) > 300
    missing = [row for row in rows if row[2] not in corpus_lines(int(row[0]), row[1])]
    assert not missing, missing[:5]
    text = "\n".join(row[2] for row in rows)
    for needle in ("Предлагает Борису: отдать технологию", "победа за Борисом", "напасть на Анну", "дань с Анны",
                   "+1 земледелец", "земледельца", "Труд на стройку", "жалованье войску", "разбежались без жалованья"):
        assert needle in text, needle


def report_lines(events: list, viewer: str = "A", lang: str = "ru") -> list[str]:
    from voevoda.core.ruleset import Event

    state = make_state({"A": {}, "B": {}})
    doc = CultureConquest().document(cut_view(state, viewer), [Event(k, d, ("*",)) for k, d in events], viewer,
                                     lang, 1)
    return render(doc).splitlines()


def test_the_income_line_names_its_terms() -> None:
    """ФАЗА ДОХОДА, «1 Монету за каждого Торговца, 1 Монету за каждый Город и 1 Монету за каждый уровень
    Ресурсов Роскоши» (issue 30 item 5: it read «Доход 2 + 1×2 + 1 + 1d6 → 3 = 10 монет», terms unnamed)."""
    income = {"player": "A", "turn": 1, "merchants": 2, "cities": 1, "per_city": 2, "luxury": 1, "faces": [3],
              "coins": 8, "stock": 11}
    assert "- Доход: торговцы 2 + города 1×2 + роскошь 1 + лидеры и чудеса 1d6 → 3 = 8 монет (в казне 11)" in (
        report_lines([("income", income)]))
    assert "- Income: merchants 2 + cities 1×2 + luxury 1 + leaders and wonders 1d6 → 3 = 8 coins (treasury 11)" in (
        report_lines([("income", income)], lang="en"))
    harvest = {"player": "A", "turn": 1, "farmers": 6, "per_farmer": 3, "food_levels": 1, "food": 20, "stock": 20}
    assert "- Урожай: земледельцы 6×3 + пищевые ресурсы 1×2 = 20 единиц пищи (запас 20)" in report_lines(
        [("harvest", harvest)])


def test_two_projects_of_one_kind_are_told_once() -> None:
    """«Сделайте 1 бросок ... за 20 единиц Труда»: two lines «ресурс 20» are two rolls, and the building
    line names the kind once with both amounts (issue 30 item 5: «на природный ресурс — 20; на природный
    ресурс — 20»); two different cities stay two."""
    alloc = [{"project": "resource", "target": None, "name": None, "labour": 20},
             {"project": "resource", "target": None, "name": None, "labour": 20},
             {"project": "city", "target": None, "name": "Фивы", "labour": 3},
             {"project": "city", "target": None, "name": "Мемфис", "labour": 2}]
    build = {"player": "A", "turn": 1, "alloc": alloc, "placed": [1, 1, 1, 1], "over": [0, 0, 0, 0],
             "unassigned": 0, "lost": 0}
    assert ("- Труд на стройку: на природный ресурс — 20 и 20; на город Фивы — 3; на город Мемфис — 2"
            in report_lines([("build", build)]))


def test_the_victory_table_is_one_aligned_table_with_shared_places() -> None:
    """УСЛОВИЯ ПОБЕДЫ (issue 30 item 5, «the victory table aligned»): one table, the place (tied players
    share it), the points and a column per source, in every format; every winner in bold."""
    scores = {"A": {"techs": 25, "cities": 10, "war": 0, "total": 35},
              "B": {"techs": 20, "cities": 10, "war": 5, "total": 35},
              "C": {"techs": 5, "cities": 10, "war": 0, "total": 15}}
    from voevoda.core.ruleset import Event

    state = make_state({"A": {}, "B": {}, "C": {}})
    doc = CultureConquest().document(cut_view(state, "public"), [Event("game_end", {"scores": scores})], "public",
                                     "ru", None)
    text = render(doc)
    table = text[text.index("Место"):].splitlines()[:5]
    assert table == ["Место  Игрок  ПО  технологии  города  войны",
                     "-----  -----  --  ----------  ------  -----",
                     "    1  A      35          25      10      —",
                     "    1  B      35          20      10      5",
                     "    3  C      15           5      10      —"]
    markdown = render(doc, "markdown")
    assert "| 1 | **A** | 35 |" in markdown and "| 1 | **B** | 35 |" in markdown and "| 3 | C | 15 |" in markdown
    assert "[code]Место  Игрок  ПО" in render(doc, "bbcode")


def test_the_building_prompt_names_a_kind_of_project_once() -> None:
    """ФАЗА СТРОИТЕЛЬСТВА (issue 30 item 5, «a project kind listed twice once»): two resource rolls
    under way are «ресурс 6/20 и 3/20», not «ресурс 6/20, ресурс 3/20»; a city with all its labour
    says it waits for its coins."""
    from voevoda.rulesets.culture_conquest.data import load_tables
    from voevoda.rulesets.culture_conquest.game import Options
    from voevoda.rulesets.culture_conquest.prompts import prompt_for

    state = make_state({"A": {"projects": [{"project": "resource", "target": None, "name": None, "labour": 6},
                                           {"project": "resource", "target": None, "name": None, "labour": 3},
                                           {"project": "city", "target": None, "name": "Фивы", "labour": 50}]},
                        "B": {}}, pending={"kind": "build", "players": ["A"], "labour": 4})
    prompt = prompt_for(state, "A", load_tables(), Options())
    assert "В работе: ресурс 6/20 и 3/20, город Фивы 50/50 (ждёт монет)." in prompt.text_ru, prompt.text_ru
    assert "Under way: resource 6/20 and 3/20, city Фивы 50/50 (waiting for coins)." in prompt.text_en
