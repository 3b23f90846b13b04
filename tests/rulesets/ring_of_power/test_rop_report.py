"""The Ring of Power turn report and public chronicle (003; issue 17, «Reports say what a player
needs to act»): opening and closing balance, income per holding with the reason for each
reduction, other players' units seen entering or standing in one's holdings, why a bid lost and
how ties were broken, and a chronicle that tells the turn. The sentences are a corpus checked by
a native reader (tests/corpus/ring_of_power.txt)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.rulesets.ring_of_power.report_scenarios import SCENARIOS
from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.engine import Game
from voevoda.core.markup import render
from voevoda.core.words import counted

CORPUS = Path(__file__).parents[2] / "corpus" / "ring_of_power.txt"


def corpus() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            scenario, viewer, lang, sentence = (x.strip() for x in line.split(" | ", 3))
            rows.append((scenario, viewer, lang, sentence))
    return rows


@cache
def report_lines(scenario: str, viewer: str, lang: str) -> frozenset[str]:
    ruleset, state, events = SCENARIOS[scenario]()
    doc = ruleset.document(ruleset.view(state, viewer), [e for e in events if e.visible_to(viewer)], viewer, lang, 1)
    text = render(doc, "text")
    return frozenset(re.sub(r"\s+", " ", line.strip().removeprefix("- ")) for line in text.splitlines())


@pytest.mark.parametrize(("scenario", "viewer", "lang", "sentence"), corpus())
def test_the_report_says_it_as_the_corpus_does(scenario: str, viewer: str, lang: str, sentence: str) -> None:
    lines = report_lines(scenario, viewer, lang)
    assert re.sub(r"\s+", " ", sentence) in lines, "\n".join(sorted(lines))


def test_the_corpus_covers_every_part_of_the_report() -> None:
    text = "\n".join(row[3] for row in corpus())
    for needle in ("На начало хода", "На конец хода", "из 10 —", "вражда", "навсегда", "в гексе чужой отряд",
                   "вошли отряды", "стоят отряды", "проиграла", "жребий", "не прошла", "Бой в", "Ваши потери",
                   "без потерь", "сошлись в бою", "захватила", "объявила вражду", "не выполнен", "станут офицерами"):
        assert needle in text, needle


def test_the_treasury_runs_from_the_opening_to_the_closing_balance() -> None:
    ruleset, state, events = SCENARIOS["battle"]()
    statement = next(e for e in events if e.kind == "statement" and e.data["player"] == "Анна").data
    closing = statement["money"]
    opening = closing - sum(x["amount"] for x in statement["entries"])
    lines = report_lines("battle", "Анна", "ru")
    assert f"На начало хода: {counted(opening, 'монета')}." in lines
    assert f"На конец хода: {counted(closing, 'монета')}." in lines


def test_each_holdings_income_is_the_base_with_its_reasons() -> None:
    """«владение игрока 1 начинает приносить больше дохода на 10% ... доходы падают на 20%» and
    the units' «Влияние на доходность»: the reasons listed add up to the amount paid."""
    ruleset, state = make_game(("Анна", "Борис"), house_rules={"income": {"base": 10}},
                               holdings={"0505": "Анна", "0506": "Борис", "0604": "Борис"},
                               units=[["Анна", "officer", "0505"], ["Анна", "pawn", "0505"]],
                               hostile={"Анна": ["Борис"]}, depletion={"0505": 1})
    state, events = play(ruleset, state, {})
    income = next(e for e in events if e.kind == "income" and e.data["player"] == "Анна").data
    detail = income["detail"]["0505"]
    assert detail["percent"] == 100 + 2 * 10 - 10 - 10 and detail["ceiling"] == 80
    assert income["holdings"]["0505"] == 10 * detail["percent"] * 80 // 10000
    doc = ruleset.document(ruleset.view(state, "Анна"), [e for e in events if e.visible_to("Анна")], "Анна")
    assert ("0505: 8 монет из 10 — ваша вражда к Борису, 2 соседних владения (+20%); в гексе офицер (−10%); "
            "в гексе пешка (−10%); пешек, собранных здесь: 1 (−20% навсегда)") in render(doc)


@pytest.mark.parametrize(("chronicle", "expected", "absent"), [
    ("names", "Анна и Борис сошлись в бою: победа за Борисом; потери: Анна — 1 отряд.", "0606"),
    ("full", "Анна и Борис сошлись в бою в 0606: победа за Борисом; потери: Анна — 1 отряд.", "никто"),
    ("none", "За этот ход не случилось ничего, о чём знают все.", "сошлись"),
])
def test_the_public_chronicle_tells_what_the_option_allows(chronicle: str, expected: str, absent: str) -> None:
    ruleset, state = make_game(("Анна", "Борис"), config={"chronicle": chronicle},
                               holdings={"0505": "Анна", "0707": "Борис"},
                               units=[["Анна", "officer", "0606"], ["Борис", "queen", "0707"]])
    state, events = play(ruleset, state, {"Борис": "ход 0707 0606"})
    text = render(ruleset.document(ruleset.view(state, "public"), [e for e in events if e.visible_to("public")],
                                   "public", "ru", 1))
    assert expected in text and absent not in text.split("Кости")[0]


def test_a_past_turns_report_shows_that_turns_treasury() -> None:
    """`report --turn N`: the money of turn N, not today's."""
    game = Game.create("ring-of-power", "g", ["Анна", "Борис"], bots=["Анна", "Борис"], seed="past")
    for _ in range(3):
        game.resolve()
    money_after_1 = game.state_after(1)["players"]["Анна"]["money"]
    assert money_after_1 != game.state["players"]["Анна"]["money"]
    assert f"На конец хода: {money_after_1} " in game.report("Анна", 1)
    assert f"На конец хода: {game.state['players']['Анна']['money']} " in game.report("Анна", 3)


@pytest.mark.parametrize("fmt", ["text", "bbcode", "markdown", "telegram"])
def test_every_format_carries_the_same_report(fmt: str) -> None:
    ruleset, state, events = SCENARIOS["battle"]()
    doc = ruleset.document(ruleset.view(state, "Анна"), [e for e in events if e.visible_to("Анна")], "Анна")
    out = render(doc, fmt)
    assert "Бой в 0605" in out and "Борис перевёл вам 10 монет" in out
    assert {"bbcode": "[list]", "markdown": "| Сумма |", "telegram": "<pre>", "text": "Сумма  Статья"}[fmt] in out


@pytest.mark.parametrize(("due", "rounding", "said"), [
    (3, "nearest", "Налог к уплате в следующий ход: 3 монеты — переводом в казну («налог 3»), комиссии с такой суммы "
                   "нет."),
    (15, "nearest", "Налог к уплате в следующий ход: 15 монет — переводом в казну («налог 15»), с комиссией за "
                    "перевод (2 монеты) — всего 17 монет."),
    (3, "up", "Налог к уплате в следующий ход: 3 монеты — переводом в казну («налог 3»), с комиссией за перевод "
              "(1 монета) — всего 4 монеты."),
])
def test_the_tax_due_says_what_its_transfer_really_costs(due: int, rounding: str, said: str) -> None:
    """Rulings 9 and 10 (issue 30 item 6): the fee is 10% of the transfer to the nearest coin, a half
    up, so a tax of 1–4 pays none; every report said «перевод стоит ещё 10%». With ``rounding = up``
    a tax of 3 pays 1."""
    from voevoda.rulesets.ring_of_power.ruleset import RingOfPower

    ruleset = RingOfPower({"rounding": rounding})
    view = {"turn": 2, "me": {"money": 40, "tax_due": due, "statement": [], "last_income": 0}, "players": {},
            "holdings": {}, "units": []}
    text = render(ruleset.document(view, [], "Анна", "ru", 1))
    assert said in text, text


@pytest.mark.parametrize(("winners", "reason", "said"), [
    (["Анна"], "ring", "собрала Кольцо Власти"), (["Борис"], "ring", "собрал Кольцо Власти"),
    (["Анна", "Борис"], "ring", "собрали Кольцо Власти"), (["Саша"], "ring", "собрала Кольцо Власти"),
    (["Анна"], "last", "осталась последней"), (["Борис"], "last", "остался последним"),
])
def test_the_status_line_of_a_won_game_agrees_with_its_winners(winners: list[str], reason: str, said: str) -> None:
    """003 «Условие победы» told in the status line («игра окончена: Анна (собрала Кольцо Власти)»):
    the verb agrees with the winners, the game's genders included (issue 30 item 7: «собрал(и)»)."""
    from voevoda.rulesets.ring_of_power.ruleset import RingOfPower

    outcome = RingOfPower({"genders": {"Саша": "f"}}).outcome({"outcome": {"winners": winners, "reason": reason}})
    assert outcome is not None and outcome.reason_ru == said
