"""The processes of tests/store/test_crashes.py: commands run as the command line runs them.

They are forked from a multiprocessing forkserver that imported this module — and with it the
command line, the store, the engine, SQLAlchemy and the toy games — once, so that a child
starts in milliseconds and a kill lands in a command, not in Python's start-up.
"""

from __future__ import annotations

import os
import sys
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path

import rich.table  # noqa: F401  (imported by commands in their bodies: loaded once here)

import voevoda.core.outputs
import voevoda.core.rulesdata
import voevoda.core.verify
import voevoda.store  # noqa: F401
from tests.core.toy import Guess, Twenty
from voevoda.cli import app
from voevoda.core import registry
from voevoda.store import Store

registry.register(Guess)
registry.register(Twenty)

OPERATIONS = ("order", "resolve", "rollback", "import")


def run(*args: str) -> int:
    """``voevoda ARGS`` in this process; its exit status."""
    try:
        app(list(args), prog_name="voevoda")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def quiet() -> None:
    """Commands print their echo; the tests read the store, not the terminal."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    if not os.environ.get("VOEVODA_TEST_CHILD_STDERR"):
        os.dup2(devnull, 2)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115


def post_text(tag: str, index: int) -> str:
    """The ``index``-th post of a process tagged ``tag``: a valid guess, told apart by its tag."""
    return f"guess {index % 6 + 1} #{tag}-{index}"


def imported_name(name: str, tag: str, index: int) -> str:
    return f"{name}-{tag}-{index}"


def loop(operation: str, url: str, name: str, folder: str, tag: str, report: Connection) -> None:
    """Run ``operation`` on game ``name`` over and over, as ``voevoda`` commands, and send the
    number of each one as soon as it has returned (committed); the test kills this process at a
    random moment. ``rollback`` alternates a rollback with the resolution of the step it undid,
    starting with whichever the journal's last entry calls for."""
    quiet()
    next_is_rollback = True
    if operation == "rollback":
        next_is_rollback = Store(url).load(name).record.entries[-1].kind != "rollback"
    index = 0
    while True:
        if operation == "order":
            path = Path(folder) / f"{tag}-{index}.txt"
            path.write_text(post_text(tag, index), encoding="utf-8")
            code = run("order", name, "--player", "A", str(path), "--db", url)
        elif operation == "resolve":
            code = run("resolve", name, "--force", "--db", url)
        elif operation == "rollback":
            if next_is_rollback:
                code = run("rollback", name, "--reason", f"{tag}-{index}", "--db", url)
            else:
                code = run("resolve", name, "--db", url)
            next_is_rollback = not next_is_rollback
        elif operation == "import":
            code = run("import", str(Path(folder) / "backup.json"), "--name", imported_name(name, tag, index),
                       "--db", url)
        else:
            raise ValueError(operation)
        if code:
            report.send(("failed", index, code))
            return
        report.send(index)
        index += 1


def poster(url: str, name: str, player: str, posts: int, folder: str, start: EventType,
           report: Connection) -> None:
    """Post ``posts`` times as ``player`` with ``voevoda order``, beginning when ``start`` is
    set (every poster at once); send the exit status of each post."""
    quiet()
    start.wait(60)
    for index in range(posts):
        path = Path(folder) / f"{player}-{index}.txt"
        path.write_text(post_text(player, index), encoding="utf-8")
        report.send(run("order", name, "--player", player, str(path), "--db", url))
    report.close()
