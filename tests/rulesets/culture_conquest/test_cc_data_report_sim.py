"""Tables as data (house rules), reports that show every roll, and the fast runner
with the ``simulate`` command."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
import typer
from typer.testing import CliRunner

from voevoda.cli.simulate import register
from voevoda.core.dice import Dice
from voevoda.core.errors import DataError
from voevoda.rulesets.culture_conquest import CultureConquest, phases
from voevoda.rulesets.culture_conquest import simulate as sim
from voevoda.rulesets.culture_conquest.choices import check
from voevoda.rulesets.culture_conquest.data import load_tables
from voevoda.rulesets.culture_conquest.game import Options, cut_view
from voevoda.rulesets.culture_conquest.setup import new_game

from .helpers import make_game, make_state


def test_every_table_is_complete() -> None:
    """Every table of the document as data: 15 cultures, 20 natural and 11 industrial
    resources, 37 technologies on d100 1-74, 19 disasters on d20, 10 wonders, 6 leaders."""
    t = load_tables()
    assert len(t.cultures.cultures) == 15 and t.cultures.choose_from == 16
    assert len(t.resources.natural) == 20 and len(t.resources.industrial) == 11
    assert len(t.techs.technologies) == 37 and max(t.tech_by_roll) == 74 and t.techs.choose_from == 75
    assert len(t.disasters.disasters) == 19 and sorted(t.disaster_by_roll) == list(range(1, 21))
    assert len(t.wonders.wonders) == 10 and len(t.leaders.leaders) == 6


def test_house_rules_override_a_number() -> None:
    """A house rule changes a number without code: a city for 40 labour."""
    rs = CultureConquest(house_rules={"rules": {"building": {"city_labour": 40}}})
    assert rs.tables.rules.building.city_labour == 40


def test_bad_house_rule_names_the_field() -> None:
    """Rules as data: a wrong house rule is refused naming its field (a number that is not one, a culture whose starting technology is not in the table)."""
    with pytest.raises(DataError, match="building.city_labour"):
        CultureConquest(house_rules={"rules": {"building": {"city_labour": "many"}}})
    with pytest.raises(DataError, match="unknown technology"):
        CultureConquest(house_rules={"cultures": {"cultures": {"roman": {"tech": "gunpowder"}}}})


def test_bad_option_is_refused() -> None:
    """docs/rulings: «теряет все его Армии (не Флот??)» has two readings, `armies` and `military`; nothing else."""
    with pytest.raises(DataError, match="tribute_when"):
        CultureConquest({"tribute_when": "always"})


def test_turn_order_by_dice_and_culture_choice_on_sixteen() -> None:
    """ПОДГОТОВКА К ИГРЕ: «Порядок хода определяется броском кубика»; «16+ -Игрок выбирает сам-»."""
    state = make_state(["A", "B", "C"])
    g = make_game(state, {"setup/A/order": [3, 2], "setup/B/order": [3, 5], "setup/C/order": [6]})
    from voevoda.rulesets.culture_conquest.setup import turn_order

    assert turn_order(g, ["A", "B", "C"]) == ["C", "B", "A"]
    game = new_game(["A", "B", "C", "D", "E", "F"], Dice.from_text("cultures-7"), load_tables(), Options())
    rolls = {e.data["player"]: e.data["faces"][0] for e in game.events if e.kind == "culture_roll"}
    choosers = sorted(p for p, f in rolls.items() if f >= 16)
    if choosers:
        assert game.state["pending"]["kind"] == "culture"
        assert sorted(game.state["pending"]["players"]) == choosers
    for p, f in rolls.items():
        if f < 16:
            culture = game.state["players"][p]["culture"]
            assert load_tables().cultures.cultures[culture].d20 == f


def test_report_shows_every_roll_in_three_formats() -> None:
    """Reports «show every roll»: a battle lists each die of each side."""
    state = make_state({"A": {"pop": {"army": 2, "farmers": 8}}, "B": {"pop": {"army": 1, "farmers": 9}}})
    g = make_game(state, {"A/war/attempt/B": [5], "A/war/attacker": [6, 3, 1], "A/war/defender": [2],
                          "A/war/vp": [4]})
    phases.on_attack(g, {"kind": "attack", "players": ["A"], "tried": []}, {"A": {"target": "B"}})
    rs = CultureConquest()
    text = rs.report(cut_view(state, "A"), g.events, "A", "text", "ru")
    assert "1d6 → 5" in text and "3d6 → 6 3 1" in text and "1d6 → 2" in text and "1d6 → 4" in text
    bb = rs.report(cut_view(state, "A"), g.events, "A", "bbcode", "en")
    assert "[b]" in bb and "BATTLE" in bb
    md = rs.report(cut_view(state, "A"), g.events, "A", "markdown", "en")
    assert md.startswith("# ") and "\n- " in md


def test_fast_runner_plays_legal_games() -> None:
    """The fast runner uses the same phase functions: every bot choice passes ``check``."""
    tables, options = load_tables(), Options(turns=10)
    seen = 0
    g = new_game(["A", "B", "C"], Dice.from_text("legal"), tables, options)
    strategies = {"A": "builder", "B": "warmonger", "C": "warmonger"}
    from voevoda.rulesets.culture_conquest.bots import decide

    while not g.state["finished"]:
        choices = {}
        for p in g.state["pending"]["players"]:
            choice = decide(cut_view(g.state, p), p, Dice.from_text("b").stream(p), tables, options, strategies[p])
            assert not check(g.state, tables, options, p, choice), (g.state["pending"]["kind"], choice)
            choices[p] = choice
            seen += 1
        phases.answer(g, choices)
    assert seen > 100


def test_simulation_statistics_csv_and_svg() -> None:
    """VP distributions and win rates by culture and strategy."""
    results = sim.run(3, 4, "stats", config={"turns": 12})
    assert len(results) == 3 and all(len(r.seats) == 4 for r in results)
    assert sum(s.won for r in results for s in r.seats) >= 3
    by_strategy = {g.key for g in sim.summarize(results, "strategy")}
    assert by_strategy == {"builder", "warmonger"}
    summary = sim.summary_csv(results)
    assert summary.splitlines()[0].startswith("by,group,seats,wins,win_rate")
    assert "strategy,builder" in summary and "culture," in summary
    seats = sim.seats_csv(results)
    assert len(seats.splitlines()) == 1 + 12
    svg = sim.chart_svg(results)
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    bars = [e for e in root.iter() if e.tag.endswith("rect") and e.find("{http://www.w3.org/2000/svg}title") is not None]
    assert sum(int(b.find("{http://www.w3.org/2000/svg}title").text.split(": ")[1].split()[0]) for b in bars) == 12
    again = sim.run(3, 4, "stats", config={"turns": 12})
    assert [s.vp for r in again for s in r.seats] == [s.vp for r in results for s in r.seats]


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def version() -> None:
        """A second command keeps Typer in multi-command mode."""

    return app


def test_cli_simulate(tmp_path: Path) -> None:
    """`voevoda simulate culture-conquest --games N --players K`: tables by strategy and culture, CSV and SVG files."""
    runner = CliRunner()
    out_csv, out_svg = tmp_path / "s.csv", tmp_path / "s.svg"
    result = runner.invoke(_app(), ["simulate", "culture-conquest", "--games", "2", "--players", "3", "--seed",
                                    "cli", "--turns", "5", "--csv", str(out_csv), "--chart", str(out_svg)])
    assert result.exit_code == 0, result.output
    assert "по стратегиям" in result.output and "стратегия    мест" in result.output
    assert out_csv.read_text().startswith("by,") and out_svg.exists()
    assert "Разброс очков по стратегиям" in out_svg.read_text(encoding="utf-8")
    result = runner.invoke(_app(), ["simulate", "culture-conquest", "--games", "2", "--players", "3", "--seed",
                                    "cli", "--turns", "5", "--lang", "en", "--chart", str(out_svg)])
    assert result.exit_code == 0 and "by strategy" in result.output and "mean VP" in result.output
    assert "Spread by strategy" in out_svg.read_text(encoding="utf-8")


def test_simulate_speaks_russian_with_decimal_commas() -> None:
    """issue 17: «simulate's output and chart in Russian and English like everything else»."""
    results = sim.run(4, 3, "words", config={"turns": 5})
    svg = sim.chart_svg(results, "ru")
    assert "Культура и Завоевание: 4 партии, 12 мест" in svg and "строитель" in svg and "builder" not in svg
    assert sim.group_name("egyptian", "culture", "ru") == "Египетская"
    assert sim.group_name("warmonger", "strategy", "en") == "warmonger"
    english = sim.chart_svg(results, "en")
    assert "Culture &amp; Conquest: 4 games, 12 seats" in english and "строитель" not in english


@pytest.mark.parametrize("args", [
    ["simulate", "no-such-game", "--games", "1"],
    ["simulate", "culture-conquest", "--games", "0"],
    ["simulate", "culture-conquest", "--strategies", "pacifist"],
])
def test_cli_simulate_refuses_bad_arguments(args: list[str]) -> None:
    """A clear error and exit code 1 for an unknown ruleset, zero games or an unknown strategy."""
    result = CliRunner().invoke(_app(), args)
    assert result.exit_code == 1


def test_cli_reads_house_rules_file(tmp_path: Path) -> None:
    """A house-rules file that breaks the data is refused with exit code 1."""
    bad = tmp_path / "house.json"
    bad.write_text(json.dumps({"rules": {"war": {"attack_from": "five"}}}))
    result = CliRunner().invoke(_app(), ["simulate", "culture-conquest", "--games", "1", "--turns", "2",
                                         "--house-rules", str(bad)])
    assert result.exit_code == 1


def _faces_in(value: object) -> int:
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict):
        return sum(_faces_in(v) for v in value.values())
    return 0


@pytest.mark.parametrize("seed", ["every-roll-1", "every-roll-2"])
def test_every_roll_reaches_the_journal(seed: str) -> None:
    """Reports «show every roll»: over whole games, each face drawn by the rules appears
    in some event (fields named ``*faces``), and each one is rendered."""
    players = ["A", "B", "C", "D"]
    strategies = {"A": "builder", "B": "warmonger", "C": "builder", "D": "warmonger"}
    tables, options = load_tables(), Options(turns=20)
    dice = Dice.from_text(seed)
    from voevoda.rulesets.culture_conquest.bots import decide

    g = new_game(players, dice, tables, options)
    while not g.state["finished"]:
        phases.answer(g, {p: decide(cut_view(g.state, p), p, dice.stream(f"bot/{p}"), tables, options, strategies[p])
                          for p in g.state["pending"]["players"]})
    drawn = sum(s.count for s in dice if not s.label.startswith("bot/"))
    journal = sum(_faces_in(v) for e in g.events for k, v in e.data.items() if k.endswith("faces"))
    assert drawn == journal > 500
    text = CultureConquest().report(cut_view(g.state, "gm"), g.events, "gm", "text", "en")
    assert text.count("→") >= len([e for e in g.events if any(k.endswith("faces") and v for k, v in e.data.items())])


def test_victory_awards_are_data_a_house_rule_adds_one() -> None:
    """УСЛОВИЯ ПОБЕДЫ as data (issue 18 item 15): a house rule adds «3 points for the most cities»
    to ``rules.victory.most``; it counts in every game, is named in the final table, and a wrong
    award is refused naming its field."""
    house = {"rules": {"victory": {"most": {"cities": {"ru": "больше всех городов", "en": "the most cities",
                                                       "count": "cities", "points": 3}}}}}
    rs = CultureConquest(house_rules=house)
    state = make_state({"A": {"cities": [{"name": "A-1", "wonder": None}, {"name": "A-2", "wonder": None}]},
                        "B": {"pop": {"farmers": 30}}})
    scores = rs.view(state, "A")["scores"]
    assert scores["A"]["most_cities"] == 3 and scores["B"]["most_cities"] == 0
    assert "most_population" not in scores["A"], "the population award stays off without its option"
    assert scores["A"]["total"] == 23
    on = CultureConquest({"biggest_population": True}, house_rules=house).view(state, "A")["scores"]
    assert on["B"]["most_population"] == 5 and on["B"]["total"] == 15
    from voevoda.core.ruleset import Event

    end = Event("game_end", {"scores": scores}, ("*",))
    text = rs.report(rs.view(state, "public"), [end], "public")
    head = next(line for line in text.splitlines() if line.startswith("Место"))
    assert head.split() == ["Место", "Игрок", "ПО", "города", "больше", "всех", "городов"], head
    assert "    1  A      23      20                    3" in text and "    2  B      10      10                    —" in text
    english = rs.report(rs.view(state, "public"), [end], "public", lang="en")
    assert "Place  Player  VP  cities  the most cities" in english and "    1  A       23      20                3" in english
    with pytest.raises(DataError, match="victory.most.cities.count"):
        CultureConquest(house_rules={"rules": {"victory": {"most": {"cities": {"ru": "x", "en": "x",
                                                                             "count": "temples", "points": 3}}}}})
    with pytest.raises(DataError, match="biggest_population"):
        CultureConquest({"biggest_population": "yes"})
