"""Issue 25, «Storage and scale»: «A test races 20 posters, two resolvers and two rollbacks through
the service and through the CLI, on both databases» — real processes, all started at once:

- every post is either stored or refused with words a person can act on (the step it was for is
  resolved: «send it again»), never «the database is locked» or «unavailable»: writers queue;
- of two resolutions of one step, one resolves it and the other is refused «already resolved»;
- of two rollbacks of one step, one undoes it and the other is refused «already rolled back»;
- the journal replays to the stored state.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from voevoda.service import OPERATOR, Service

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [f"P{i:02d}" for i in range(20)]

CHILD = """
import sys, time, pathlib
sys.path[:0] = [{root!r}, {src!r}]
from voevoda.core import registry
from tests.core.toy import Guess, Twenty
registry.register(Guess)
registry.register(Twenty)
go = pathlib.Path({go!r})
while not go.exists():
    time.sleep(0.01)
{body}
"""

CLI_BODY = """
from voevoda.cli import app
app({args!r}, prog_name="voevoda")
"""

SERVICE_BODY = """
from voevoda.core import outputs
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.service import OPERATOR, Service
service = Service({url!r})
try:
    result = {call}
except (GameError, OrdersRejected) as exc:
    print(outputs.error_text(exc))
    sys.exit(1)
print(getattr(result, "text", result))
"""


def child(url: str, go: Path, mode: str, what: str, *args: str) -> subprocess.Popen[str]:
    """One racer: a CLI command, or the same operation through the service."""
    if mode == "cli":
        body = CLI_BODY.format(args=[what, *args, "--db", url])
    else:
        calls = {
            "order": "service.post(OPERATOR, 'race', {player!r}, {text!r}, step={step})",
            "resolve": "service.resolve(OPERATOR, 'race', step={step}, force=True)",
            "rollback": "service.rollback(OPERATOR, 'race', step={step}, reason='race')",
        }
        fields = dict(zip(args[::2], args[1::2], strict=True))
        call = calls[what].format(player=fields.get("--player"), text=fields.get("--text"), step=fields["--step"])
        body = SERVICE_BODY.format(url=url, call=call)
    code = CHILD.format(root=str(ROOT), src=str(ROOT / "src"), go=str(go), body=body)
    return subprocess.Popen([sys.executable, "-c", code], text=True, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def race(processes: list[subprocess.Popen[str]], go: Path) -> list[tuple[int, str]]:
    go.write_text("go", encoding="utf-8")
    done = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        done.append((process.returncode, out + err))
    go.unlink()
    return done


CLEAR_REFUSALS = ("is already resolved", "has already been resolved", "has already been rolled back",
                  "has not come yet", "has not been resolved")


def assert_clear(outcomes: list[tuple[int, str]]) -> None:
    for code, out in outcomes:
        assert "Traceback" not in out, out
        assert "locked" not in out and "unavailable" not in out, out
        if code != 0:
            assert code == 1 and any(words in out for words in CLEAR_REFUSALS), out


@pytest.mark.parametrize("mode", ["cli", "service"])
def test_twenty_posters_two_resolvers_two_rollbacks(store_url: str, tmp_path: Path, mode: str) -> None:
    service = Service(store_url)
    service.create_game(OPERATOR, "toy-guess", "race", PLAYERS, seed="race")
    go = tmp_path / "go"
    posts = tmp_path / "posts"
    posts.mkdir()

    def poster(player: str, step: int) -> subprocess.Popen[str]:
        text = f"guess {1 + int(player[1:]) % 6} #{player}-{step}"
        if mode == "cli":
            path = posts / f"{player}-{step}.txt"
            path.write_text(text, encoding="utf-8")
            return child(store_url, go, mode, "order", "race", "--player", player, "--step", str(step), str(path))
        return child(store_url, go, mode, "order", "--player", player, "--text", text, "--step", str(step))

    def gm(what: str, step: int) -> subprocess.Popen[str]:
        if mode == "cli":
            extra = ["--force"] if what == "resolve" else ["--reason", "race"]
            return child(store_url, go, mode, what, "race", *extra, "--step", str(step))
        return child(store_url, go, mode, what, "--step", str(step))

    # round 1: twenty posts for step 1 and two resolutions of step 1, all at once
    racers = [poster(p, 1) for p in PLAYERS] + [gm("resolve", 1), gm("resolve", 1)]
    outcomes = race(racers, go)
    assert_clear(outcomes)
    resolutions = outcomes[-2:]
    assert sorted(code for code, _ in resolutions) == [0, 1], resolutions
    assert any("step 1 is already resolved" in out for code, out in resolutions if code == 1)
    game = service.store.load("race")
    assert game.step_number == 1
    stored = {p for p, (code, _) in zip(PLAYERS, outcomes, strict=False) if code == 0}
    submitted = {p for p, s in game.steps[0].submissions.items() if s.source != "default"}
    assert stored == submitted, "a post said stored is not in the step, or one in the step was said refused"
    refused = [out for code, out in outcomes[:20] if code == 1]
    assert all("post again for step 2" in out for out in refused), refused

    # round 2: twenty posts for step 2 and two rollbacks of step 1, all at once
    racers = [poster(p, 2) for p in PLAYERS] + [gm("rollback", 1), gm("rollback", 1)]
    outcomes = race(racers, go)
    assert_clear(outcomes)
    rollbacks = outcomes[-2:]
    assert sorted(code for code, _ in rollbacks) == [0, 1], rollbacks
    assert any("step 1 has already been rolled back" in out for code, out in rollbacks if code == 1)
    game = service.store.load("race")
    assert game.step_number == 0
    entries = [e.kind for e in game.record.entries]
    assert entries.count("resolve") == 1 and entries.count("rollback") == 1
    # every post for step 2 stored before the rollback was dropped by it and said so; every one
    # after it was refused (step 2 is no longer open)
    [undo] = [e for e in game.actions if e.kind == "rollback"]
    stored_2 = {p for p, (code, _) in zip(PLAYERS, outcomes, strict=False) if code == 0}
    assert stored_2 == set(undo.data["discarded_posts"])
    # the journal replays to exactly the stored state
    from voevoda.core.engine import Game
    from voevoda.core.journal import state_hash

    assert state_hash(Game(game.record).state) == service.store.stored_state("race")[1]
