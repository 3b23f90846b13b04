"""``voevoda battle`` and ``voevoda odds`` on the example battle files."""

from __future__ import annotations

import json
from pathlib import Path

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
    for fmt, marker in (("text", "== Итог =="), ("bbcode", "[b]Итог[/b]")):
        res = runner.invoke(app, ["battle", str(EXAMPLES / "steel-rose-garrison.toml"), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert marker in res.stdout


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


def test_odds_json():
    """«win probability with a 95% interval and expected losses per unit type over N simulated battles»"""
    res = runner.invoke(app, ["odds", str(EXAMPLES / "steel-rose-garrison.toml"), "-n", "20", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    a, b = data["sides"]
    assert a["wins"] + b["wins"] + data["draws"] == 20
    lo, hi = a["interval95"]
    assert lo <= a["win_rate"] <= hi
    assert b["mean_losses"]


def test_error_lines_point_into_the_right_post(tmp_path):
    """Both sides' posts may start alike; a mistake is placed in its own side's post."""
    f = tmp_path / "same.toml"
    f.write_text('[attacker]\ndeployment = """\nЦентральный фланг:\nАвангард - 5 копейщиков\n"""\n'
                 '[defender]\ndeployment = """\nЦентральный фланг:\nАвангард - 5 драконов\n"""\n', encoding="utf-8")
    res = runner.invoke(app, ["battle", str(f)])
    assert res.exit_code == 1 and "same.toml:9" in res.output
