"""`voevoda rop ...`: checking, drawing and using a map file (other maps load from files)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from voevoda.cli.ring_of_power import register
from voevoda.rulesets.ring_of_power import RingOfPower

SMALL = 'name = "small"\nwidth = 8\nheight = 8\nfog = ["0404"]\n[[starts]]\nholdings = ["0202"]\n' \
        '[[starts]]\nholdings = ["0707"]\n'


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """test root"""

    register(app)
    return app


def test_map_tools(tmp_path: Path) -> None:
    """A map file is checked, drawn, and turned into a config a game accepts."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    runner = CliRunner()
    app = _app()
    result = runner.invoke(app, ["rop", "map-check", str(path)])
    assert result.exit_code == 0 and "8×8 = 64" in result.output
    svg = tmp_path / "m.svg"
    result = runner.invoke(app, ["rop", "map-svg", str(path), "--out", str(svg)])
    assert result.exit_code == 0 and svg.read_text(encoding="utf-8").count("<polygon") >= 64
    cfg = tmp_path / "c.json"
    result = runner.invoke(app, ["rop", "map-config", str(path), "--out", str(cfg)])
    assert result.exit_code == 0
    ruleset = RingOfPower(json.loads(cfg.read_text(encoding="utf-8")))
    assert ruleset.map.width == 8


def test_bad_map_file_exits_1_naming_the_field(tmp_path: Path) -> None:
    """Bad input names the file and the field and exits with status 1."""
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nwidth = 2\nheight = 8\n[[starts]]\nholdings = ["0101"]\n', encoding="utf-8")
    result = CliRunner().invoke(_app(), ["rop", "map-check", str(path)])
    assert result.exit_code == 1 and "width" in result.output
    result = CliRunner().invoke(_app(), ["rop", "map-check", str(tmp_path / "missing.toml")])
    assert result.exit_code == 1


def test_a_whole_game_with_bots_from_the_command_line(tmp_path: Path) -> None:
    """`voevoda new ring-of-power --bots ... --auto-resolve` plays a whole game; its report,
    map and export come out, and `voevoda verify` re-derives every roll."""
    from voevoda.cli import app

    db = str(tmp_path / "rop.db")
    config = tmp_path / "game.toml"
    config.write_text("max_turns = 20\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["new", "ring-of-power", "--game", "g", "--players", "Анна,Борис,Вера",
                                 "--bots", "Анна,Борис,Вера", "--auto-resolve", "--seed", "cli",
                                 "--config", str(config), "--db", db])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", "g", "--as", "Анна", "--format", "bbcode", "--db", db])
    assert result.exit_code == 0 and "[b]" in result.output and "Кольцо Власти" in result.output
    svg = tmp_path / "m.svg"
    assert runner.invoke(app, ["map", "g", "-o", str(svg), "--as", "Борис", "--db", db]).exit_code == 0
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    export = tmp_path / "g.json"
    assert runner.invoke(app, ["export", "g", "-o", str(export), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["verify", str(export)])
    assert result.exit_code == 0, result.output
    assert '"ring-of-power"' in json.dumps(json.loads(export.read_text(encoding="utf-8")))
