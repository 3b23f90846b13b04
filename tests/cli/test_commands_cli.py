"""The command line's own manners (issue 17 «The command line»): --version, clear errors for
bad names and dice, players named in any letter case, and a readable `show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import voevoda
from voevoda import cli
from voevoda.cli import app
from voevoda.core import ruleset

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"a traceback: {result.exception!r}"
    return result.exit_code, result.output


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cmd.db")


def test_version() -> None:
    """«--version»."""
    code, out = run("--version")
    assert code == 0 and out.strip() == f"voevoda {voevoda.__version__}"


def test_viewer_names_are_the_cores() -> None:
    assert (cli.GM, cli.PUBLIC) == (ruleset.GM, ruleset.PUBLIC)


@pytest.mark.parametrize(("players", "said"), [
    ("Анна,Анна", "player names repeat: 'Анна' and 'Анна'"),
    ("Анна,анна", "player names repeat: 'Анна' and 'анна'"),
    ("Анна,GM", "'GM' cannot be a player's name"),
    ("Анна,Public", "'Public' cannot be a player's name"),
    ("Анна," + "я" * 101, "longer than 100 characters"),
])
def test_bad_player_names_are_refused_clearly(db: str, players: str, said: str) -> None:
    """«duplicate player names … get clear errors, never a traceback»: a pydantic traceback
    today."""
    code, out = run("new", "culture-conquest", "--game", "g", "--players", players, "--db", db)
    assert code == 1 and said in out and "Traceback" not in out
    assert run("games", "--db", db)[1].count("culture-conquest") == 0


def test_unknown_player_lists_the_real_ones_and_case_is_forgiven(db: str) -> None:
    """«an unknown player (list the real ones; accept a name that differs only in case when
    unique)»."""
    assert run("new", "ring-of-power", "--game", "r", "--players", "Анна,Борис", "--seed", "c", "--db", db)[0] == 0
    code, out = run("status", "r", "--as", "Кощей", "--db", db)
    assert code == 1 and "нет игрока «Кощей»; игроки: Анна, Борис" in out and "the players are Анна, Борис" in out
    code, out = run("order", "r", "--player", "Кощей", "-", "--db", db, input="ход 0303 0304\n")
    assert code == 1 and "игроки: Анна, Борис" in out and "приказы не приняты" not in out
    code, out = run("order", "r", "--player", "анна", "-", "--db", db, input="ход 0303 0304\n")
    assert code == 0 and "принят 1 приказ / 1 order accepted" in out and "✓ Анна" in out
    code, out = run("status", "r", "--as", "БОРИС", "--db", db)
    assert code == 0 and "Борис: Ход 1" in out
    code, out = run("status", "r", "--as", "GM", "--db", db)
    assert code == 0 and "Анна: Ход 1" in out and "Борис: Ход 1" in out


def test_roll_with_a_bad_expression_says_what_is_wrong(db: str) -> None:
    """«`roll 2d` get[s] clear errors, never … a misleading one («приказы не приняты»)»."""
    code, out = run("roll", "2d")
    assert code == 1
    assert "приказы не приняты" not in out and "orders rejected" not in out
    assert "«2d»" in out and "examples: 2d6" in out


def test_show_is_readable_and_json_is_json(db: str) -> None:
    """«`show` prints a readable summary; `--json` gives JSON»."""
    assert run("new", "ring-of-power", "--game", "r", "--players", "Анна,Борис", "--seed", "c", "--db", db)[0] == 0
    code, out = run("show", "r", "--as", "анна", "--db", db)
    assert code == 0
    assert out.startswith("Кольцо Власти / Ring of Power: игра / game r, ход / turn 1")
    assert "глазами / as seen by Анна" in out and "казна / treasury: 60 монет" in out and not out.lstrip().startswith("{")
    code, out = run("show", "r", "--as", "Анна", "--json", "--db", db)
    assert code == 0 and json.loads(out)["me"]["money"] == 60
