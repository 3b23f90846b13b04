"""``voevoda battle`` and ``voevoda odds`` on the example battle files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from voevoda.cli.battle import register
from voevoda.core.dice import check_records

EXAMPLES = Path(__file__).parents[3] / "examples" / "steel-rose"

app = typer.Typer()
register(app)


@app.callback()
def _root() -> None:
    """Test entry point."""


runner = CliRunner()


def test_battle_json_rolls_rederive(tmp_path):
    """Every roll is recorded, so the report can be re-derived (issue 3, «Output»)."""
    chart = tmp_path / "c.svg"
    res = runner.invoke(app, ["battle", str(EXAMPLES / "empire-vs-cult.toml"), "--seed", "t", "--json",
                              "--chart", str(chart)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["result"]["summary"]["winner"] in (0, 1, None)
    assert check_records(bytes.fromhex(data["seed_sha256"]), None, data["dice"]) == []
    assert chart.read_text().startswith("<svg")


def test_battle_text_and_bbcode():
    for fmt, marker in (("text", "\nИтог\n----\n"), ("bbcode", "[b]Итог[/b]")):
        res = runner.invoke(app, ["battle", str(EXAMPLES / "steel-rose-garrison.toml"), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert marker in res.stdout


R1_AND_POWDER = """
[attacker]
name = "Алиса"
faction = "steel_rose"
deployment = \"\"\"
Правый фланг:
Авангард - паровой танк
Центральный фланг:
Авангард - 10 щитовиков
Арьергард - 10 стрелков, пушка
Центральный фланг:
Авангард - 5 щитовиков
Порох: 40
Порох на центральный арьергард: 15
\"\"\"
[defender]
name = "Борис"
deployment = "Центральный авангард - 20 копейщиков"
"""


@pytest.mark.parametrize("lang,note,share", [
    ("ru", "Примечание: строка 6: второй «Центральный фланг» прочитан как левый фланг",
     "выделено: центральный арьергард — 15, выдано 15"),
    ("en", "Note: line 6: the second 'Centre flank' is read as the left flank",
     "share: centre rearguard — 15, supplied 15")])
def test_report_tells_the_second_centre_and_the_powder_shares(tmp_path, lang, note, share):
    """R1 «(the report notes it)»: a second «Центральный фланг» read as the left flank is said in
    the battle report; the powder each share gave (R24) too."""
    path = tmp_path / "r1.toml"
    path.write_text(R1_AND_POWDER, encoding="utf-8")
    res = runner.invoke(app, ["battle", str(path), "--lang", lang])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert note in text and share in text


def test_battle_errors_name_lines():
    """«Every mistake ... gets an error naming the line, in Russian and English.»"""
    res = runner.invoke(app, ["battle", str(EXAMPLES / "errors.toml")])
    assert res.exit_code == 1
    text = res.output
    assert "errors.toml:8" in text and "драконов" in text and "unknown unit" in text


def test_bad_file_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[attacker]\ndeployment = "Центральный авангард - 5 копейщиков"\n[defender]\ngarrison = {level = 7, faction = "empire"}\n',
                   encoding="utf-8")
    res = runner.invoke(app, ["battle", str(bad)])
    assert res.exit_code == 1 and "garrison.level" in res.output


@pytest.mark.parametrize(("engine", "n"), [("batched", 2000), ("exact", 20)])
def test_odds_json(engine, n):
    """«win probability with a 95% interval and expected losses per unit type over N simulated
    battles»; the batched simulator by default (issue «Battle odds at scale»), the per-battle
    engine with --engine exact."""
    args = ["odds", str(EXAMPLES / "steel-rose-garrison.toml"), "-n", str(n), "--json"]
    res = runner.invoke(app, args if engine == "batched" else [*args, "--engine", "exact"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["engine"] == engine
    a, b = data["sides"]
    assert a["wins"] + b["wins"] + data["draws"] == n
    lo, hi = a["interval95"]
    assert lo <= a["win_rate"] <= hi
    assert b["mean_losses"]


def test_odds_engines_agree_on_the_example():
    """Both engines give win rates whose 95% intervals overlap on the example battle."""
    path = str(EXAMPLES / "empire-vs-cult.toml")
    batched = json.loads(runner.invoke(app, ["odds", path, "-n", "4000", "--json"]).stdout)
    exact = json.loads(runner.invoke(app, ["odds", path, "-n", "60", "--json", "--engine", "exact"]).stdout)
    for b, e in zip(batched["sides"], exact["sides"], strict=True):
        assert b["interval95"][0] <= e["interval95"][1] and e["interval95"][0] <= b["interval95"][1]


@pytest.mark.parametrize(("lang", "said", "unsaid"), [
    ("ru", ["Сторона", "Победы", "Средние потери", "битв (точный движок)", "Огр-бык"], ["Wins", "side", "battles"]),
    ("en", ["Side", "Wins", "Mean losses", "battles (exact engine)", "Ogre bull"], ["Победы", "Сторона", "битв"]),
])
def test_odds_speaks_one_language(lang, said, unsaid):
    """`voevoda odds --lang` (issue 30 item 7): the table in the language asked, Russian by default,
    numbers as that language writes them; it printed both languages at once and had no --lang."""
    args = ["odds", str(EXAMPLES / "steel-rose-garrison.toml"), "-n", "5", "--engine", "exact"]
    res = runner.invoke(app, args if lang == "ru" else [*args, "--lang", "en"])
    assert res.exit_code == 0, res.output
    for word in said:
        assert word in res.stdout, (word, res.stdout)
    for word in unsaid:
        assert word not in res.stdout, (word, res.stdout)
    assert runner.invoke(app, [*args, "--lang", "de"]).exit_code == 1


def test_odds_refuses_an_unknown_engine():
    res = runner.invoke(app, ["odds", str(EXAMPLES / "steel-rose-garrison.toml"), "--engine", "gpu"])
    assert res.exit_code == 1 and "gpu" in res.output


def test_error_lines_point_into_the_right_post(tmp_path):
    """Both sides' posts may start alike; a mistake is placed in its own side's post."""
    f = tmp_path / "same.toml"
    f.write_text('[attacker]\ndeployment = """\nЦентральный фланг:\nАвангард - 5 копейщиков\n"""\n'
                 '[defender]\ndeployment = """\nЦентральный фланг:\nАвангард - 5 драконов\n"""\n', encoding="utf-8")
    res = runner.invoke(app, ["battle", str(f)])
    assert res.exit_code == 1 and "same.toml:9" in res.output


def test_report_counts_agree_with_their_numbers():
    """Report lines speak Russian: «4 раунда», «5 раундов», «21 раунд» — never «4 раундов»."""
    import re

    res = runner.invoke(app, ["battle", str(EXAMPLES / "empire-vs-cult.toml"), "--seed", "x"])
    assert res.exit_code == 0, res.output
    counted = re.findall(r"(после )?(\d+) (раунд|выстрел)(ов|а|)(?!\w)", res.stdout)
    assert len(counted) > 3, res.stdout
    for after, number, _stem, ending in counted:
        n = int(number)
        one = n % 10 == 1 and n % 100 != 11
        few = 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
        nominative = "" if one else ("а" if few else "ов")
        genitive = "а" if one else "ов"  # «после 1 раунда», «после 5 раундов»
        expected = genitive if after else nominative
        assert ending == expected, f"{after}{number} {_stem}{ending}"
