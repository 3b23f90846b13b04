"""Races between real processes (issue 16, «Races and crashes»), on SQLite always and on PostgreSQL
when VOEVODA_TEST_POSTGRES_URL names a server (CI requires it):

- «Two `resolve --force` at once both succeed, so two turns resolve»: a resolution names the step it
  resolves — the command reads it before taking the game's lock, or `--step N` states it — and the
  second resolution of the same step is refused with «already resolved»;
- «A post racing a resolution lands silently on the next turn»: a post is for a step; one that
  arrives after its step resolved is refused, nothing stored, and the player is told to post again
  for the new step.

The first command resolves a toy game whose resolution holds the lock for a few seconds (it writes a
marker file, then sleeps); the second, started beside it, runs only once the marker exists, so it
always runs into the held lock."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.store.test_store import ROOT
from voevoda.core.engine import Game
from voevoda.store import Store

CLI_CHILD = """
import sys
sys.path[:0] = [{root!r}, {src!r}]
from voevoda.core import registry
from tests.core.toy import Guess, Twenty
registry.register(Guess)
registry.register(Twenty)
from voevoda.cli import app
import pathlib, time
while {after!r} and not pathlib.Path({after!r}).exists():
    time.sleep(0.02)
app({args!r}, prog_name="voevoda")
"""

HOLD_SECONDS = 3


def cli(url: str, *args: str, after: Path | None = None) -> subprocess.Popen[str]:
    """``voevoda ARGS --db URL`` in a process of its own; with ``after``, the process starts
    (imports and all) at once but runs the command only once the file ``after`` exists."""
    code = CLI_CHILD.format(root=str(ROOT), src=str(ROOT / "src"), args=[*args, "--db", url],
                            after=str(after) if after else "")
    return subprocess.Popen([sys.executable, "-c", code], text=True, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def slow_game(store: Store, name: str, marker: Path) -> None:
    config = {"slow_marker": str(marker), "slow_seconds": HOLD_SECONDS}
    store.create(Game.create("toy-guess", name, ["A", "B"], seed=name, config=config))


def wait_for(marker: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.time() + 60
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, "the first command never started resolving"
        time.sleep(0.05)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out + err


@pytest.mark.parametrize("stated", [False, True], ids=["step-read-before-the-lock", "step-stated"])
def test_two_resolutions_of_one_step_resolve_it_once(store_url: str, tmp_path: Path, stated: bool) -> None:
    store = Store(store_url)
    marker = tmp_path / "resolving"
    slow_game(store, "race", marker)
    step = ["--step", "1"] if stated else []
    first = cli(store_url, "resolve", "race", "--force", *step)
    second = cli(store_url, "resolve", "race", "--force", *step, after=marker)
    wait_for(marker, first)
    (code1, out1), (code2, out2) = finish(first), finish(second)
    assert code1 == 0, out1
    assert code2 == 1 and "step 1 is already resolved" in out2, out2
    game = store.load("race")
    assert game.step_number == 1 and game.steps[0].defaulted == ["A", "B"]
    assert [e.kind for e in game.record.entries] == ["resolve"]


def test_a_post_racing_a_resolution_is_refused_not_moved_to_the_next_step(store_url: str, tmp_path: Path) -> None:
    store = Store(store_url)
    marker = tmp_path / "resolving"
    slow_game(store, "race", marker)
    post = tmp_path / "post.txt"
    post.write_text("guess 3\n", encoding="utf-8")
    resolving = cli(store_url, "resolve", "race", "--force")
    posting = cli(store_url, "order", "race", "--player", "A", str(post), after=marker)
    wait_for(marker, resolving)
    (code1, out1), (code2, out2) = finish(resolving), finish(posting)
    assert code1 == 0, out1
    assert code2 == 1, out2
    assert "step 1 has already been resolved: the post was not stored; post again for step 2" in out2
    game = store.load("race")
    assert game.step_number == 1 and game.pending == {}
    assert store.count_entries("race") == 1
