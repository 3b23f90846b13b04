"""The audit commands of issue 16 from the command line: export (public by default, --full with a
notice), verify --commitment, replay --check, rollback/reopen with reasons, reveal, delete, steps
named by number, and output after a commit that can never fail the command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli.test_cli import db, run
from voevoda.cli import app
from voevoda.store import Store

__all__ = ["db"]  # the fixture, shared with test_cli


def new_guess(db: str, players: str = "Анна,Бо") -> str:
    code, out = run("new", "toy-guess", "--game", "g", "--players", players, "--seed", "audit", "--db", db)
    assert code == 0, out
    return out.split("commitment: ")[1].split()[0]


def test_export_is_public_unless_full(db: str, tmp_path: Path) -> None:
    """«voevoda export writes the public export by default; the full game-master backup, which
    holds the secret and every hidden post, needs --full and says on stderr what it contains»."""
    new_guess(db)
    run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 3\n")
    run("resolve", "g", "--force", "--db", db)
    public = tmp_path / "public.json"
    code, out = run("export", "g", "-o", str(public), "--db", db)
    assert code == 0 and "secret" not in out
    data = json.loads(public.read_text(encoding="utf-8"))
    assert data["public"] and "secret" not in data["game"] and "entries" not in data["game"]
    assert "guess 3" not in public.read_text(encoding="utf-8")
    full = tmp_path / "full.json"
    result = CliRunner().invoke(app, ["export", "g", "--full", "-o", str(full), "--db", db])
    assert result.exit_code == 0
    assert "secret" in result.stderr and "every post" in result.stderr
    assert "guess 3" in full.read_text(encoding="utf-8")


def test_verify_with_the_saved_commitment(db: str, tmp_path: Path) -> None:
    commitment = new_guess(db)
    run("resolve", "g", "--force", "--db", db)
    export = tmp_path / "g.json"
    run("export", "g", "-o", str(export), "--db", db)
    code, out = run("verify", str(export), "--commitment", commitment)
    assert code == 0 and "commitment compared" in out and "everything matches" in out
    code, out = run("verify", str(export), "--commitment", "ab" * 32)
    assert code == 1 and "is not the one you saved" in out
    code, out = run("verify", str(export), "--commitment", "xyz")
    assert code == 1 and "64 hexadecimal digits" in out


def test_verify_fights_a_battle_again(db: str, tmp_path: Path) -> None:
    """docs/dice.md §5, rerun citations: `voevoda verify` on a battle game's public export says it
    re-ran the battle, and names the step and the event when its casualties were forged."""
    code, out = run("new", "steel-rose-battle", "--game", "b", "--players", "Алиса,Борис", "--bots", "Алиса,Борис",
                    "--seed", "audit", "--db", db)
    assert code == 0, out
    for _ in range(2):
        run("resolve", "b", "--force", "--db", db)
    export = tmp_path / "b.json"
    run("export", "b", "-o", str(export), "--db", db)
    code, out = run("verify", str(export))
    assert code == 0 and "outcomes re-run from the dice (battles…): 1" in out, out
    data = json.loads(export.read_text(encoding="utf-8"))
    battle = next(e for s in data["steps"] for e in s["events"] if e["kind"] == "battle")
    battle["data"]["result"]["winner"] = 1 - battle["data"]["result"]["winner"]
    export.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = run("verify", str(export))
    assert code == 1 and "step 2: event 'battle': re-running its battle" in out, out


def test_replay_check_names_the_forged_step(db: str, tmp_path: Path) -> None:
    new_guess(db)
    for _ in range(3):
        run("resolve", "g", "--force", "--db", db)
    export = tmp_path / "g.json"
    run("export", "g", "--full", "-o", str(export), "--db", db)
    data = json.loads(export.read_text(encoding="utf-8"))
    data["steps"][1]["events"][-1]["data"]["face"] = data["steps"][1]["events"][-1]["data"]["face"] % 6 + 1
    export.write_text(json.dumps(data), encoding="utf-8")
    code, out = run("replay", str(export), "--check")
    assert code == 1 and "step 2: replay gives other events than recorded" in out


def test_rollback_lists_what_it_undid_and_reopen_needs_the_gm(db: str, tmp_path: Path) -> None:
    new_guess(db, "Анна,Бо,Ция")
    run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 3\n")
    run("order", "g", "--player", "Бо", "-", "--db", db, input="guess 4\n")
    run("resolve", "g", "--force", "--db", db)
    run("order", "g", "--player", "Бо", "-", "--db", db, input="guess 5\n")
    code, out = run("rollback", "g", "--db", db)
    assert code == 2 and "--reason" in out
    code, out = run("rollback", "g", "--reason", "the GM misread a post", "--db", db)
    assert code == 0
    assert "posts standing, frozen: Анна, Бо" in out
    assert "without posts, frozen (default orders): Ция" in out
    assert "dropped posts for step 2: Бо" in out
    code, out = run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 6\n")
    assert code == 1 and "frozen" in out
    code, out = run("reopen", "g", "--player", "Анна", "--reason", "typo in her post", "--db", db)
    assert code == 0 and "reopened" in out
    assert run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 6\n")[0] == 0
    assert run("resolve", "g", "--db", db)[0] == 0
    code, out = run("report", "g", "--as", "public", "--lang", "en", "--db", db)
    assert "rolled back step 1 (turn 1): the GM misread a post" in out
    assert "reopened Анна's post for step 1: typo in her post" in out


def test_a_second_resolution_of_the_same_step_is_refused(db: str) -> None:
    new_guess(db)
    assert run("resolve", "g", "--force", "--step", "1", "--db", db)[0] == 0
    code, out = run("resolve", "g", "--force", "--step", "1", "--db", db)
    assert code == 1 and "already resolved" in out
    code, out = run("order", "g", "--player", "Анна", "--step", "1", "-", "--db", db, input="guess 2\n")
    assert code == 1 and "step 1 has already been resolved" in out and "step 2" in out
    code, out = run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 2\n")
    assert code == 0 and "step 2" in out


def test_reveal_after_the_end_makes_the_export_whole(db: str, tmp_path: Path) -> None:
    new_guess(db)
    code, out = run("reveal", "g", "--db", db)
    assert code == 1 and "after the game is over" in out
    store = Store(db)
    while store.load("g").outcome() is None:
        for player in ("Анна", "Бо"):
            run("order", "g", "--player", player, "-", "--db", db, input="guess 1\n")
        run("resolve", "g", "--db", db)
    code, out = run("reveal", "g", "--db", db)
    assert code == 0 and "secret:" in out
    export = tmp_path / "g.json"
    code, out = run("export", "g", "-o", str(export), "--db", db)
    assert code == 0 and "the whole game: the secret is revealed" in out and "public record" not in out
    assert "secret" in json.loads(export.read_text(encoding="utf-8"))["game"]
    code, out = run("verify", str(export))
    assert code == 0 and "journal replayed" in out
    code, out = run("rollback", "g", "--reason", "again", "--db", db)
    assert code == 1 and "closed" in out


def test_delete_asks_for_the_name(db: str) -> None:
    """«there is no way to delete a game: add voevoda delete GAME, with confirmation»."""
    new_guess(db)
    code, out = run("delete", "g", "--db", db, input="h\n")
    assert code == 1 and "nothing deleted" in out
    assert [n for n, _, _ in Store(db).names()] == ["g"]
    code, out = run("delete", "g", "--db", db, input="g\n")
    assert code == 0 and Store(db).names() == []
    code, out = run("delete", "g", "--yes", "--db", db)
    assert code == 1 and "no game named 'g'" in out
    new_guess(db)
    assert run("delete", "g", "--yes", "--db", db)[0] == 0


def test_output_after_a_commit_never_fails_the_command(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """«Output after a commit must never fail the command: today an accepted post … is stored,
    then the echo crashes with exit 1, so the player believes it was refused»."""
    from voevoda.core import outputs

    new_guess(db)

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("the terminal went away")

    monkeypatch.setattr(outputs, "order_echo", broken)
    result = CliRunner().invoke(app, ["order", "g", "--player", "Анна", "-", "--db", db],
                                                input="guess 3\n")
    assert result.exit_code == 0
    assert "stored, but the output failed" in result.stderr
    assert "Анна" in Store(db).load("g").pending


def test_a_player_whose_name_holds_markup_can_post(db: str) -> None:
    code, out = run("new", "toy-guess", "--game", "g", "--players", "[/b]Аня,Бо", "--seed", "x", "--db", db)
    assert code == 0
    code, out = run("order", "g", "--player", "[/b]Аня", "-", "--db", db, input="guess 3\n")
    assert code == 0
    assert "[/b]Аня" in Store(db).load("g").pending


def test_verify_a_stored_game_by_name(db: str, tmp_path: Path) -> None:
    """Issue 30 item 11: `verify` takes `--db` like every command — `voevoda verify GAME --db URL`
    checks the stored game's full export (every commitment opened, the journal replayed); without
    --db an argument that is no file names a game of the default database."""
    new_guess(db)
    run("order", "g", "--player", "Анна", "-", "--db", db, input="guess 3\n")
    run("resolve", "g", "--force", "--db", db)
    code, out = run("verify", "g", "--db", db)
    assert code == 0, out
    assert "game g: полная выгрузка из базы / the full export from the database" in out and "journal replayed" in out
    assert "commitments opened with the secret: 2" in out and "everything matches" in out
    code, out = run("verify", "nothing-here", "--db", db)
    assert code == 1 and "nothing-here" in out
    export = tmp_path / "g.json"
    run("export", "g", "-o", str(export), "--db", db)
    code, out = run("verify", str(export))
    assert code == 0 and "the full export from the database" not in out and "everything matches" in out


def test_verify_says_how_far_the_export_proves_the_game(db: str, tmp_path: Path) -> None:
    """Issue 28 «A public record that proves its own end»: with the digest at the foot of the last
    report a player saw, `verify --last-digest` says how many steps the export proves; an export cut
    short before it fails."""
    new_guess(db)
    for _ in range(3):
        run("resolve", "g", "--force", "--db", db)
    code, report = run("report", "g", "--as", "public", "--turn", "2", "--db", db)
    seen = re.findall(r"шаг 2: зерно [0-9a-f]{64}, звено [0-9a-f]{64}, запись ([0-9a-f]{64})", report)
    assert code == 0 and len(seen) == 1, report
    export = tmp_path / "g.json"
    run("export", "g", "-o", str(export), "--db", db)
    code, out = run("verify", str(export), "--last-digest", seen[0])
    assert code == 0, out
    assert "вы видели запись шага 2: выгрузка доказывает настройку и 2 шага до неё, после неё ещё 1 шаг" in out
    assert "the export proves the setup and 2 steps up to it, and 1 step more after it" in out
    data = json.loads(export.read_text(encoding="utf-8"))
    del data["steps"][1:]
    export.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = run("verify", str(export), "--last-digest", seen[0])
    assert code == 1 and "the export is cut short before it, or its records were rewritten" in out
    code, out = run("verify", str(export), "--last-digest", "12")
    assert code == 1 and "--last-digest: 64 hexadecimal digits" in out
