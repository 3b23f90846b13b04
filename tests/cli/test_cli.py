"""The `voevoda` command (issue «Core engine», section CLI), run in-process on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from voevoda.cli import app

runner = CliRunner()


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def new_guess(db: str) -> None:
    code, out = run("new", "toy-guess", "--game", "g", "--players", "Анна,Бо", "--seed", "cli", "--db", db)
    assert code == 0, out
    assert "commitment" in out


def test_rulesets_lists_installed_games() -> None:
    code, out = run("rulesets")
    assert code == 0 and "toy-twenty" in out


def test_a_whole_cycle(db: str, tmp_path: Path) -> None:
    """new → order → status → resolve → show → report → export → verify → replay --check → import."""
    new_guess(db)
    code, out = run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 3\n")
    assert code == 0 and "accepted" in out and "guess 3" in out
    code, out = run("status", "g", "--db", db)
    assert code == 0 and "✓ Анна" in out and "… Бо" in out
    code, out = run("resolve", "g", "--db", db)
    assert code == 1 and "Бо" in out and "--force" in out
    post = tmp_path / "bo.txt"
    post.write_text("число 5", encoding="utf-8")
    assert run("order", "g", "--player", "Бо", str(post), "--db", db)[0] == 0
    code, out = run("resolve", "g", "--db", db)
    assert code == 0 and "step 1" in out
    code, out = run("show", "g", "--as", "Бо", "--json", "--db", db)
    assert code == 0 and json.loads(out)["turn"] == 2
    code, out = run("report", "g", "--as", "public", "--format", "bbcode", "--db", db)
    assert code == 0 and "[b]" in out
    public = tmp_path / "public.json"
    code, out = run("export", "g", "-o", str(public), "--db", db)
    assert code == 0 and "public" in out
    code, out = run("verify", str(public))
    assert code == 0 and "everything matches" in out
    export = tmp_path / "g.json"
    code, out = run("export", "g", "--full", "-o", str(export), "--db", db)
    assert code == 0 and "secret" in out  # the stderr notice says what the file holds
    code, out = run("verify", str(export))
    assert code == 0 and "everything matches" in out and "journal replayed" in out
    code, out = run("replay", str(export), "--check")
    assert code == 0 and "byte for byte" in out
    code, out = run("import", str(export), "--name", "g2", "--db", db)
    assert code == 0
    code, out = run("games", "--db", db)
    assert "g2" in out


def test_rejected_orders_exit_1_and_name_the_line(db: str) -> None:
    new_guess(db)
    code, out = run("order", "g", "--player", "Анна", "-", "--db", db, input="guess seven\n")
    assert code == 1
    assert "line 1:1" in out and "строка 1:1" in out
    code, out = run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 9\n")
    assert code == 1 and "1 to 6" in out


def test_verify_reports_a_tampered_roll(db: str, tmp_path: Path) -> None:
    new_guess(db)
    run("resolve", "g", "--force", "--db", db)
    export = tmp_path / "g.json"
    run("export", "g", "-o", str(export), "--db", db)
    data = json.loads(export.read_text(encoding="utf-8"))
    data["steps"][0]["dice"][0]["faces"][0] = data["steps"][0]["dice"][0]["faces"][0] % 6 + 1
    export.write_text(json.dumps(data), encoding="utf-8")
    code, out = run("verify", str(export))
    assert code == 1 and "die[0]" in out


def test_rollback_and_edit(db: str, tmp_path: Path) -> None:
    new_guess(db)
    assert run("rollback", "g", "--reason", "test", "--db", db)[0] == 1
    run("resolve", "g", "--force", "--db", db)
    code, out = run("rollback", "g", "--reason", "wrong die", "--db", db)
    assert code == 0 and "step 1" in out
    patch = tmp_path / "patch.json"
    patch.write_text(json.dumps([{"op": "replace", "path": "/scores/Бо", "value": 2}]), encoding="utf-8")
    code, out = run("edit", "g", "--patch", str(patch), "--reason", "award from last game", "--db", db)
    assert code == 0
    code, out = run("show", "g", "--as", "gm", "--json", "--db", db)
    assert json.loads(out)["scores"]["Бо"] == 2
    code, out = run("report", "g", "--as", "gm", "--db", db)
    assert "award from last game" in out
    code, out = run("report", "g", "--as", "public", "--db", db)
    assert "award from last game" in out and "wrong die" in out


def test_bad_arguments_get_clear_errors(db: str, tmp_path: Path) -> None:
    code, out = run("new", "nope", "--game", "x", "--players", "A", "--db", db)
    assert code == 1 and "no ruleset 'nope'" in out
    code, out = run("status", "missing", "--db", db)
    assert code == 1 and "no game named 'missing'" in out
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out = run("verify", str(bad))
    assert code == 1 and "line 1" in out
    code, out = run("new", "toy-guess", "--game", "x", "--players", "A", "--config", str(tmp_path / "none.toml"),
                    "--db", db)
    assert code == 1 and "none.toml" in out
    new_guess(db)
    code, out = run("report", "g", "--format", "pdf", "--db", db)
    assert code == 1 and "pdf" in out
    code, out = run("show", "g", "--as", "stranger", "--db", db)
    assert code == 1 and "stranger" in out


def test_roll_is_reproducible_with_a_seed() -> None:
    """`voevoda roll EXPR [--seed TEXT]`."""
    first = run("roll", "4d6kh3", "--seed", "x")
    second = run("roll", "4d6kh3", "--seed", "x")
    assert first == second and first[0] == 0 and "4d6kh3 →" in first[1]
    code, out = run("roll", "2x6")
    assert code == 1 and "2x6" in out


def test_a_damaged_save_file_is_refused_naming_the_field(db: str, tmp_path: Path) -> None:
    """Bad save files get a clear error that names the field, and nothing is stored."""
    new_guess(db)
    export = tmp_path / "g.json"
    run("export", "g", "--full", "-o", str(export), "--db", db)
    data = json.loads(export.read_text(encoding="utf-8"))
    data["game"]["players"] = "Анна"
    data["game"]["entries"] = [{"kind": "teleport"}]
    export.write_text(json.dumps(data), encoding="utf-8")
    code, out = run("import", str(export), "--name", "broken", "--db", db)
    assert code == 1 and "players" in out and "entries.0.kind" in out
    assert "broken" not in run("games", "--db", db)[1]
    public = tmp_path / "public.json"
    run("export", "g", "-o", str(public), "--db", db)
    code, out = run("import", str(public), "--db", db)
    assert code == 1 and "public export" in out


@pytest.mark.parametrize("ruleset_id", ["ring-of-power", "culture-conquest", "steel-rose-battle"])
def test_a_misspelt_option_is_refused_not_ignored(db: str, tmp_path: Path, ruleset_id: str) -> None:
    """Bad config files get a clear error naming the field: an unknown key is refused with the
    list of known ones, and no game is created."""
    config = tmp_path / "config.toml"
    config.write_text("uprade_turns = 2\n", encoding="utf-8")
    code, out = run("new", ruleset_id, "--game", "x", "--players", "A,B", "--config", str(config), "--db", db)
    assert code == 1 and "uprade_turns" in out and "known:" in out
    from voevoda.store import Store

    assert Store(db).names() == []
