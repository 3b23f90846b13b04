"""The Steel Rose battle report (002; issue 17): why each unit died — damage per round per squad
by source, health left, rearguard shots, poison, regeneration, burning, fatigue, outnumbering and
flanking — readable, with every round in full in a spoiler; in every report format. Sentences
are a corpus checked by a native reader (tests/corpus/steel_rose_battle.txt)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from voevoda.core.dice import Dice
from voevoda.core.markup import render
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.report import battle_document
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import load_rules

ROOT = Path(__file__).parents[3]
CORPUS = ROOT / "tests" / "corpus" / "steel_rose_battle.txt"
FILES = {"empire-vs-cult": ROOT / "examples" / "steel-rose" / "empire-vs-cult.toml",
         "final-melee": ROOT / "tests" / "corpus" / "battles" / "final-melee.toml"}


@cache
def result(name: str) -> dict[str, Any]:
    path = FILES[name]
    battle = load_battle_file(path)
    rules = load_rules()
    sides, problems = build_sides(battle.specs, rules)
    assert not any(problems)
    seed = battle.seed if battle.seed is not None else path.name   # as `voevoda battle FILE` does
    return fight(rules, sides, Dice.from_text(seed), options=battle.options).to_json()


@cache
def lines(name: str, lang: str) -> frozenset[str]:
    text = render(battle_document(result(name), load_rules(), lang), "text")
    return frozenset(line.strip().removeprefix("- ").strip() for line in text.splitlines())


def corpus() -> list[tuple[str, str, str]]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, lang, sentence = (x.strip() for x in line.split(" | ", 2))
            out.append((name, lang, sentence))
    return out


@pytest.mark.parametrize(("name", "lang", "sentence"), corpus())
def test_the_report_says_it_as_the_corpus_does(name: str, lang: str, sentence: str) -> None:
    assert sentence in lines(name, lang)


def test_the_corpus_covers_every_cause_of_death() -> None:
    text = "\n".join(row[2] for row in corpus())
    for needle in ("в ближнем бою", "от выстрелов", "от яда", "от огня", "от жертв культистов", "регенерацией",
                   "целителями", "своими ударами", "вдвое многочисленнее", "фланкирование", "усталость 1",
                   "осталось бойцов", "здоровья", "отряд уничтожен", "без потерь", "уходит в укрытие",
                   "натиск", "обстрел", "Примечание"):
        assert needle in text, needle


@pytest.mark.parametrize("name", list(FILES))
def test_the_ledger_adds_up(name: str) -> None:
    """Every round's ledger agrees with itself: what a side dealt by blows and shots is what the
    other side took from them, and the units a squad lost are the units it no longer has."""
    res = result(name)
    side_of = {sq["squad"]: i for i, s in enumerate(res["summary"]["sides"]) for sq in s["squads"]}
    running = {sq["squad"]: sum(sq["units"].values()) for s in res["summary"]["sides"] for sq in s["squads"]}
    checked = 0
    for ev in res["events"]:
        losses = (ev.get("losses") if ev["kind"] in ("volley_losses", "round") else
                  [x for f in ev.get("fights", []) for x in f["losses"]] if ev["kind"] == "charge" else [])
        lost: dict[str, int] = {}
        for per in losses or []:
            for n, c in per.items():
                lost[n] = lost.get(n, 0) + sum(c.values())
        if ev["kind"] == "round":
            squads = ev["detail"]["squads"]
            for a in (0, 1):
                dealt = sum(d["dealt"] for n, d in squads.items() if side_of[n] == a)
                taken = sum(d["taken"].get("melee", 0) + d["taken"].get("shots", 0)
                            for n, d in squads.items() if side_of[n] == 1 - a)
                assert dealt == pytest.approx(taken, abs=0.5)
            summoned = ev.get("summoned", [0, 0])
            for n, d in squads.items():
                if not summoned[side_of[n]]:
                    assert d["units"] == running[n] - lost.get(n, 0), (ev["round"], n)
                    checked += 1
                running[n] = d["units"]
        else:
            for n, k in lost.items():
                running[n] -= k
    assert checked


@pytest.mark.parametrize("fmt", ["text", "bbcode", "markdown", "telegram"])
def test_the_full_detail_is_in_a_spoiler_in_every_format(fmt: str) -> None:
    out = render(battle_document(result("final-melee"), load_rules(), "ru"), fmt)
    marker = {"text": "== Все раунды подробно", "bbcode": "[b]Все раунды подробно: урон по отрядам[/b]\n[quote]",
              "markdown": "<summary>Все раунды подробно", "telegram": "<blockquote expandable><b>Все раунды"}[fmt]
    assert marker in out
    assert "Анна победила за 8 раундов." in re.sub(r"<[^>]+>|\*\*|\[/?b\]", "", out)


def test_burning_deaths_at_a_rounds_start_are_counted_in_that_round() -> None:
    """Burning and poison hurt «at the start of a round»: a unit they kill is a loss of that round."""
    res = result("empire-vs-cult")
    dead: dict[str, int] = {}
    for ev in res["events"]:
        if ev["kind"] in ("round", "volley_losses"):
            for per in ev["losses"]:
                for n, c in per.items():
                    dead[n] = dead.get(n, 0) + sum(c.values())
    total = {sq["squad"]: sum(sq["dead"].values()) for s in res["summary"]["sides"] for sq in s["squads"]}
    charged = {n for ev in res["events"] if ev["kind"] == "charge" for f in ev.get("fights", [])
               for per in f["losses"] for n in per}
    for name, n in total.items():
        if name not in charged:
            assert dead.get(name, 0) == n, name


def test_the_ledger_only_records() -> None:
    """The ledger records and never decides: without it the battle is the same, roll for roll."""
    path = FILES["final-melee"]
    battle = load_battle_file(path)
    rules = load_rules()
    sides, _ = build_sides(battle.specs, rules)
    with_ledger = fight(rules, sides, Dice.from_text("same"), options=battle.options).to_json()
    without = fight(rules, sides, Dice.from_text("same"), options=battle.options, ledger=False).to_json()
    assert with_ledger["summary"] == without["summary"] and with_ledger["timeline"] == without["timeline"]
    assert all("squads" in e["detail"] for e in with_ledger["events"] if e["kind"] == "round")
    assert all(e["detail"] == {} for e in without["events"] if e["kind"] == "round")
