"""The game master's post of a turn, golden: a scripted turn on the cases' map rendered as BBCode
and Markdown, Russian and English, compared with the files in tests/cases/new-worlds/golden/,
which a native reader checked and which change only on purpose (set VOEVODA_REGOLD=1 to write
them anew, then read the difference)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.rulesets.new_worlds.nw_helpers import make_game, play
from voevoda.core.ruleset import PUBLIC

GOLDEN = Path(__file__).resolve().parents[2] / "cases" / "new-worlds" / "golden"


def scripted_turn() -> tuple[object, dict, list]:
    ruleset, state = make_game(
        players=("Анна", "Борис"), epoch="iron",
        land={"Анна": "B2 C2 B3 C3 B4 C4", "Борис": "D2 E2 D3 E3 D4 E4 S2 S3"},
        cities={"B3": 0, "E3": 0, "S2": 0}, deposits={"B2": "bronze", "E2": "fur", "D4": "gold"},
        buildings={"C2": "port"}, points={"Анна": 41, "Борис": 22},
        wars=[{"attacker": "Анна", "defender": "Борис", "type": "resource_grab", "paid": 10}],
        religion={"Анна": "monotheism", "Борис": "polytheism"})
    state, events = play(ruleset, state, {
        "Анна": "Приветствую!\n[b]атака Борис 12: D2 D3 D4[/b]\n[b]город C4[/b]\n[b]занять B5 C5 D5[/b]\n"
                "[b]назвать B3 Царьград[/b]",
        "Борис": "[b]оборона Анна 5[/b]\n[b]порт S3[/b]\n[b]занять R2 R3[/b]\n[b]бонус +4[/b]",
    }, seed="golden")
    return ruleset, state, events


@pytest.mark.parametrize(("fmt", "lang"), [("bbcode", "ru"), ("bbcode", "en"), ("markdown", "ru"), ("text", "ru")])
def test_the_turns_post(fmt: str, lang: str) -> None:
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), [e for e in events if e.visible_to(PUBLIC)], PUBLIC,
                          fmt, lang, turn=1)  # type: ignore[arg-type, attr-defined]
    path = GOLDEN / f"turn.{lang}.{fmt}"
    if os.environ.get("VOEVODA_REGOLD") == "1":
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")


def test_the_report_says_what_happened() -> None:
    """The post of the scripted turn: the battle with both sides' strength, the capture, the city
    founded, the ledger with each price and what is left, the rolls for the next turn."""
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "Анна → Борис: атака 12 + 3 (военные ресурсы) против обороны 5, перевес 10; взято: D2, D3, D4" in text
    assert "город C4 — 7 очков" in text.split("Расходы")[1]
    # what a country paid for is told once, in its ledger, not again among the events
    assert "Анна: город C4" not in text and "Анна: занято" not in text
    assert "Анна: было 41 очко, 30 ВО" in text and "осталось 19 очков, 30 ВО" in text
    assert "Борис: заявлен бонус +4, по расчёту +0" in text
    assert "Роллы на ход 2" in text


def test_the_ledger_names_orders_in_the_reports_language() -> None:
    """The ledger is the game master's to publish as it is: each paid order named by what it
    does in the report's language (not the player's words), with its price and the points left;
    free orders (a name, a religion) are told among the events, not as «0 → 19»."""
    ruleset, state, events = scripted_turn()
    public = [e for e in events if e.visible_to(PUBLIC)]
    ru = ruleset.report(ruleset.view(state, PUBLIC), public, PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    en = ruleset.report(ruleset.view(state, PUBLIC), public, PUBLIC, "text", "en", turn=1)  # type: ignore[attr-defined]
    assert "атака на Бориса: D2, D3, D4 — 12 очков, осталось 29" in ru
    assert "занятие земель: B5, C5, D5 — 3 очка, осталось 19" in ru
    assert "назвать B3" not in ru.split("Расходы")[1]
    ledger_en = en.split("The ledger")[1].split("Rolls for turn")[0]
    assert "attack on Борис: D2, D3, D4 — 12 points, 29 left" in ledger_en
    assert "settling: B5, C5, D5 — 3 points, 19 left" in ledger_en
    assert not any("а" <= ch <= "я" for ch in ledger_en.replace("Анна", "").replace("Борис", ""))


def test_the_countries_table() -> None:
    """Every turn's post ends with where the countries stand: faith, land, cities, buildings,
    the points and war points for the next turn (the roll's «к ходу»)."""
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    table = text.split("Страны")[1]
    anna = next(line for line in table.splitlines() if line.startswith("Анна"))
    assert anna.split() == ["Анна", "Монотеизм", "(Крестовый", "поход)", "12", "2", "1", "порт", "38", "30", "—"]


def test_the_first_post_gives_the_rolls_of_turn_one() -> None:
    """The game master's first post: the rolls for turn 1, made at the setup (ruling R42), and
    the countries as they start."""
    from voevoda.core.engine import Game

    game = Game.create("new-worlds", "start", ["Анна", "Борис"], seed="start")
    view = game.view(PUBLIC)
    text = game.ruleset.report(view, [], PUBLIC, "bbcode", "ru")  # type: ignore[attr-defined]
    assert text.startswith("[u][b]Новые Миры — начало игры[/b][/u]")
    assert "Игра начинается с хода 1" in text
    for player in ("Анна", "Борис"):
        roll = view["countries"][player]["roll"]
        assert f"[*][b]{player}[/b]: 5d6 → {' '.join(str(f) for f in roll['faces'])}" in text
    assert "Ход ещё не рассчитан" not in text


def test_an_unanswered_proposal_stays_with_its_two_parties() -> None:
    """Ruling R15 and docs/engine.md (row offers): the public ledger shows the 5 points paid for
    «предложение договора», never to whom; the two parties read the proposal in their own
    reports."""
    ruleset, state = make_game(players=("Анна", "Борис", "Вера"), epoch="iron",
                               land={"Анна": "B2 C2", "Борис": "E2 E3", "Вера": "S2 S3"}, points={"Анна": 20})
    state, events = play(ruleset, state, {"Анна": "[b]пакт Вера[/b]"}, seed="offer")
    def post(viewer: str) -> str:
        return ruleset.report(ruleset.view(state, viewer), [e for e in events if e.visible_to(viewer)],  # type: ignore[attr-defined]
                              viewer, "text", "ru", turn=1)
    public, boris, vera = post(PUBLIC), post("Борис"), post("Вера")
    assert "предложение договора (видно только сторонам) — 5 очков, осталось 15" in public
    assert "пакт" not in public.lower().split("расходы")[1]
    assert "Вера: предложение" not in boris and "Анна → Вера" not in boris
    assert "Анна → Вера: предложение — пакт о ненападении" in vera


def test_a_battle_says_why_each_tile_was_not_taken() -> None:
    """A game master answers «why not?»: each tile a battle did not take with its reason — its
    price beyond what the attack had left, out of reach, already taken by another this turn, or
    the war type's limit (000 «VIII. Война, 2»)."""
    from voevoda.core.ruleset import Event
    from voevoda.rulesets.new_worlds.report import Words, battle_line
    from voevoda.rulesets.new_worlds.rules import load_rules

    event = Event("battle", {"attacker": "A", "defender": "B", "committed": 10, "attack_bonus": 0, "defence": 4,
                             "defence_bonus": 0, "net": 6, "model": "contest", "taken": ["D2"], "missed": [
                                 {"tile": "E2", "why": "strength", "price": 7, "left": 5},
                                 {"tile": "S11", "why": "unreachable"}, {"tile": "D3", "why": "not_theirs"},
                                 {"tile": "E3", "why": "limit", "ru": "не более 15 территорий", "en": "at most 15"}]})
    ru = str(battle_line(event, Words(load_rules(), None, "ru")))
    assert ru.endswith("взято: D2; не взято: E2 (стоит 7, осталось 5); S11 (не добраться); D3 (уже взята); "
                       "E3 (не более 15 территорий)")
    en = str(battle_line(event, Words(load_rules(), None, "en")))
    assert "E2 (costs 7, 5 left); S11 (out of reach); D3 (already taken); E3 (at most 15)" in en
    # many tiles over the margin are told once, not tile by tile
    many = Event("battle", {**event.data, "net": 0, "taken": [], "missed": [
        {"tile": t, "why": "strength", "price": p, "left": 0} for t, p in (("M8", 1), ("N8", 1), ("O8", 2))]})
    assert str(battle_line(many, Words(load_rules(), None, "ru"))).endswith(
        "не взято: M8, N8, O8 (перевеса не хватило: стоят 1–2, осталось 0)")


def test_a_port_by_a_city_is_drawn_beside_its_circle() -> None:
    """A tile with a city and a port («R11: one city and one other building»): the port's
    symbol stands in the tile's top right corner, clear of the city's circle, with or without a
    city (test_nw_map.py measures every label of a crowded board)."""
    import re

    ruleset, state = make_game(epoch="iron", land={"A": "B2 C2", "B": "S2"}, cities={"B2": 0},
                               buildings={"B2": "port", "C2": "port"}, deposits={"C2": "fur"})
    svg = ruleset.map_svg(ruleset.view(state, PUBLIC), PUBLIC)  # type: ignore[attr-defined]
    ports = [m.group(1) for m in re.finditer(r'<polygon class="building" points="([^"]+)"[^>]*data-building="port"', svg)]
    assert len(ports) == 3             # B2, C2 and the legend's entry
    tops = [float(p.split()[0].split(",")[1]) for p in ports[:2]]
    assert tops[0] == tops[1]          # the same corner, city or not
    circle = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="(5.5)"', svg)
    assert circle is not None
    port_bottom = max(float(xy.split(",")[1]) for xy in ports[0].split())
    assert port_bottom < float(circle.group(2)) - float(circle.group(3))   # above the circle
    assert svg.count('r="5.5"') == 1   # B2's circle


def test_the_end_of_a_war_counts_what_goes_back() -> None:
    """000 «VIII. Война, 3»: «Вы не можете получить больше, чем положено типом войны» — the
    vassalisation keeps 12 tiles of 13; the post says how many go back and which."""
    ruleset, state = make_game(
        epoch="antiquity", land={"A": "B2 C2 B3 C3 B4 C4 B5 C5 B6 C6 B7 C7 B8 C8 B9", "B": "D2"},
        wars=[{"attacker": "A", "defender": "B", "type": "vassalisation", "last_turn": 1,
               "defender_land": "B3 C3 B4 C4 B5 C5 B6 C6 B7 C7 B8 C8 B9 D2",
               "captured": "B3 C3 B4 C4 B5 C5 B6 C6 B7 C7 B8 C8 B9"}])
    state, events = play(ruleset, state, {}, seed="war-end")
    text = ruleset.report(ruleset.view(state, PUBLIC), [e for e in events if e.visible_to(PUBLIC)], PUBLIC,
                          "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "Конец войны: A — B (срок вышел); A возвращает 1 клетку: B9" in text


def test_names_of_two_words_and_players_decline_in_the_ledger() -> None:
    """Issue 29 item 4: «война с Новой Верой», «атака на Новую Веру», «помощь Любови» — a
    country's name of two words and players' names declined by the morphology module, never
    «с Новаей Верой»."""
    ruleset, state = make_game(
        players=("Любовь", "Вера", "Илья"), epoch="antiquity",
        land={"Любовь": "B2 C2 B3 C3", "Вера": "D2 E2 D3 E3", "Илья": "S2 S3"},
        country_fields={"Вера": {"name": "Новая Вера"}},
        treaties=[{"kind": "alliance", "parties": ["Любовь", "Илья"]}],
        wars=[{"attacker": "Любовь", "defender": "Вера", "type": "total"}])
    state, events = play(ruleset, state, {
        "Любовь": "[b]атака на Новую Веру 5: D2[/b]",
        "Илья": "[b]война с Новой Верой тотальная война[/b]\n[b]помощь Любови 5[/b]",
    }, seed="names")
    text = ruleset.report(ruleset.view(state, PUBLIC), [e for e in events if e.visible_to(PUBLIC)], PUBLIC,
                          "text", "ru", turn=1)  # type: ignore[attr-defined]
    ledger = text.split("Расходы")[1]
    assert "война с Новой Верой, «Тотальная война»" in ledger
    assert "атака на Новую Веру: D2" in ledger
    assert "помощь Любови — 5 очков" in ledger
    assert "Новаей" not in text and "Новаю" not in text


def _line(kind: str, data: dict, players: tuple[str, ...] = ("Любовь", "Никита", "Северная Марка")) -> str:
    """One event as the turn's post words it, in Russian."""
    from voevoda.core.ruleset import Event
    from voevoda.rulesets.new_worlds.report import Words, diplomacy_line, world_line

    ruleset, state = make_game(players=players, epoch="antiquity")
    w = Words(ruleset.rules, ruleset.view(state, PUBLIC), "ru")  # type: ignore[attr-defined]
    e = Event(kind, data)
    line = world_line(e, w) or diplomacy_line(e, w)
    assert isinstance(line, str), (kind, line)
    return line


def test_the_post_names_the_next_turn_in_a_sentence() -> None:
    """Issue 30 item 8: under the title, «Ход 2 — следующий.» read as a fragment; the post says
    «Следующий ход — 2-й.»"""
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "Эпоха: Железный век. Следующий ход — 2-й." in text
    assert "— следующий" not in text
    # the last turn of a game names no next one
    ruleset, state = make_game(players=("Анна", "Борис"), config={"max_turns": 1}, epoch="iron",
                               land={"Анна": "B2 C2", "Борис": "D2 E2"})
    state, events = play(ruleset, state, {}, seed="last")
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "Эпоха: Железный век. Игра окончена." in text and "Следующий ход" not in text


def test_a_rolls_pattern_shows_the_digits_that_make_it() -> None:
    """000 «II. Механика, 1»: «Дабл/3д Пали = +25, Трипл/4д пали = +40, Квадра/5д Пали = +50»:
    the report names the pattern with the digits that make it («палиндром 232», «дабл 22»), not
    the forum's shorthand «3д пали» a reader of the post cannot decode."""
    from voevoda.rulesets.new_worlds.report import pattern_text

    assert pattern_text("palindrome3", "43232", "ru") == "палиндром 232"
    assert pattern_text("palindrome4", "12332", "ru") == "палиндром 2332"
    assert pattern_text("palindrome5", "12321", "ru") == "палиндром 12321"
    assert pattern_text("double", "51922", "ru") == "дабл 22"
    assert pattern_text("triple", "51222", "ru") == "трипл 222"
    assert pattern_text("digit", "51227", "ru") == "последняя цифра 7"
    assert pattern_text("palindrome3", "43232", "en") == "palindrome 232"
    ruleset, state, events = scripted_turn()
    text = ruleset.report(ruleset.view(state, PUBLIC), list(events), PUBLIC, "text", "ru", turn=1)  # type: ignore[attr-defined]
    assert "пали " not in text
    rolls = text.split("Роллы на ход 2")[1]
    assert re.search(r"\((\d{5})\), (последняя цифра|дабл|палиндром|трипл|квадра|пента) \d+ \+\d+", rolls), rolls


def test_event_sentences_decline_the_countries() -> None:
    """Issue 29 item 4, issue 30 item 8: the lines of the post name countries in the case the
    sentence wants, never «достаётся стране «Северная Марка»», «дань вассала «Никита»»,
    «Перемирие Любовь и Никита истекло» or «переданы I9» for one tile."""
    assert _line("contested", {"tiles": ["O10"], "countries": ["Никита", "Северная Марка"],
                               "winner": "Северная Марка"}) == \
        "O10: спорная клетка (Никита и Северная Марка) достаётся Северной Марке"
    assert _line("city_destroyed", {"tile": "I5", "by": "Любовь", "from": "Никита", "slaves": True,
                                    "reason": "capture"}) == \
        "I5: город Никиты взят Любовью и разрушен; на его месте рабы"
    assert _line("dejure_moved", {"tile": "H4", "from": "Любовь", "to": "Никита"}) == \
        "H4: владение де-юре переходит к Никите"
    assert _line("liberated", {"tile": "C5", "by": "Любовь", "to": "Северная Марка", "from": "Никита"}) == \
        "C5: освобождена и возвращена Северной Марке"
    assert _line("truce_over", {"parties": ["Любовь", "Никита"]}) == "Перемирие между Любовью и Никитой истекло"
    assert _line("tribute_set", {"suzerain": "Любовь", "vassal": "Никита", "percent": 50}) == \
        "Никита платит дань Любови: 50% ролла"
    assert _line("religion_imposed", {"suzerain": "Любовь", "vassal": "Никита"}) == \
        "Любовь навязывает свою веру вассалу Никите"
    assert _line("war_permitted", {"suzerain": "Любовь", "vassal": "Никита", "enemy": "Северная Марка"}) == \
        "Любовь: вассалу Никите разрешена война с Северной Маркой"
    assert _line("war_linked", {"attacker": "Никита", "defender": "Любовь", "vassal": "Северная Марка"}) == \
        "Никита → Любовь: оборонительная война сюзерена за вассала Северную Марку"
    assert _line("ceded", {"from": "Любовь", "to": "Северная Марка", "tiles": ["I9"]}) == \
        "Любовь → Северная Марка: передана клетка I9"
    assert _line("ceded", {"from": "Любовь", "to": "Северная Марка", "tiles": ["I9", "I10"]}) == \
        "Любовь → Северная Марка: переданы клетки I9, I10"


def test_a_battle_names_its_bonus_and_leaves_out_a_zero() -> None:
    """000 «Ресурсы»: «Бронза: +3 к атаке и защите»: a side's bonus is its military resources',
    said so; a side without one shows its points alone («атака 16», not «атака 16 + 0»)."""
    from voevoda.core.ruleset import Event
    from voevoda.rulesets.new_worlds.report import Words, battle_line

    ruleset, state = make_game(players=("Любовь", "Никита"), epoch="antiquity")
    w = Words(ruleset.rules, ruleset.view(state, PUBLIC), "ru")  # type: ignore[attr-defined]
    line = battle_line(Event("battle", {"attacker": "Любовь", "defender": "Никита", "committed": 16, "attack_bonus": 0,
                                        "defence": 7, "defence_bonus": 5, "net": 4, "taken": ["H6"], "missed": [],
                                        "model": "contest"}), w)
    assert line == "Любовь → Никита: атака 16 против обороны 7 + 5 (военные ресурсы), перевес 4; взято: H6"


def test_the_ledger_counts_the_game_masters_event() -> None:
    """The game master's event (docs/new_worlds.md «Events», kinds "points" and "epoch"): what it
    gave each country is a line of that country's ledger, and so are the war points a new epoch
    gives anew («Века»), so the lines add up to what is left."""
    house = {"events": {"custom": [{"id": "gift", "name_ru": "Дары", "name_en": "Gifts", "turn": 1,
                                    "message_ru": "Дары всем.", "message_en": "Gifts for all.",
                                    "effects": [{"kind": "points", "amount": 5, "countries": ["*"]},
                                                {"kind": "epoch", "epoch": "antiquity"}]}]}}
    ruleset, state = make_game(players=("Анна", "Борис"), house_rules=house, epoch="iron",
                               land={"Анна": "B2 C2 B3", "Борис": "D2 E2"}, points={"Анна": 10, "Борис": 10})
    state, events = play(ruleset, state, {"Анна": "[b]занять B4[/b]"}, seed="gift")
    text = ruleset.report(ruleset.view(state, PUBLIC), [e for e in events if e.visible_to(PUBLIC)], PUBLIC,
                          "text", "ru", turn=1)  # type: ignore[attr-defined]
    ledger = text.split("Расходы")[1].split("Роллы")[0]
    anna = ledger.split("Борис")[0]
    assert "занятие земель: B4 — 1 очко, осталось 9" in anna
    assert "событие «Дары»: +5 очков" in anna
    assert "новая эпоха, «Античность»: 40 ВО" in anna
    assert "осталось 14 очков, 40 ВО" in anna


def test_a_proposal_for_its_two_parties_reads_whole() -> None:
    """000 «IV. Торговля»: a deal proposed is told to its two parties as «предложение — сделка:
    бронза за ткани» (never «предложение — сделку»)."""
    from voevoda.core.ruleset import Event
    from voevoda.rulesets.new_worlds.report import Words, private_line

    ruleset, state = make_game(players=("Любовь", "Северная Марка"), epoch="antiquity")
    w = Words(ruleset.rules, ruleset.view(state, PUBLIC), "ru")  # type: ignore[attr-defined]
    line = private_line(Event("offer", {"kind": "trade", "by": "Северная Марка", "to": "Любовь", "give": "bronze",
                                        "get": "textiles"}), w)
    assert line == ("Северная Марка → Любовь: предложение — сделка: бронза за ткани; ответ до конца "
                    "следующего хода")
