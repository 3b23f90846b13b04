"""Long work shows progress (issue 17 «The command line»): «including the first compile of the
batched simulator (a live indicator, not one line and silence)». The compile itself takes
minutes and is not run here: the simulator is replaced by a stand-in that reports its battles
as the real one does, and the cache is said to be empty."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from voevoda.cli import app
from voevoda.cli import battle as battle_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "steel-rose" / "empire-vs-cult.toml"


class Recorder:
    def __init__(self) -> None:
        self.tasks: dict[int, str] = {}
        self.removed: list[str] = []

    def add_task(self, description: str, total: Any = None) -> int:
        self.tasks[len(self.tasks)] = description
        return len(self.tasks) - 1

    def remove_task(self, task: int) -> None:
        self.removed.append(self.tasks[task])


def test_the_compile_has_a_live_line_until_the_first_battles_are_done(monkeypatch: pytest.MonkeyPatch) -> None:
    from voevoda.sim import batch

    said: list[str] = []
    monkeypatch.setattr(batch, "needs_compiling", lambda: True)
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(str(text)))
    progress = Recorder()
    compiling = battle_cli.SimulatorCompile(progress)
    assert list(progress.tasks.values()) == [battle_cli.SimulatorCompile.LABEL]  # a task of its own, pulsing
    assert "компилируется" in said[0] and "compiling the batched simulator" in said[0]
    compiling.advanced()
    compiling.advanced()
    assert progress.removed == [battle_cli.SimulatorCompile.LABEL]
    assert len(said) == 2 and "скомпилирован за 0:0" in said[1] and "compiled in 0:0" in said[1]


def test_nothing_is_said_when_the_cache_holds_the_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    from voevoda.sim import batch

    said: list[str] = []
    monkeypatch.setattr(batch, "needs_compiling", lambda: False)
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(str(text)))
    progress = Recorder()
    battle_cli.SimulatorCompile(progress).advanced()
    assert said == [] and progress.tasks == {}


def test_odds_shows_the_compile_then_the_battles(monkeypatch: pytest.MonkeyPatch) -> None:
    """`voevoda odds` on a terminal: the spinner line of the compile, then the battles' bar."""
    import voevoda.sim as sim
    from voevoda.sim import batch

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=200, markup=False, emoji=False, highlight=False)
    monkeypatch.setattr(battle_cli, "errors", terminal)
    monkeypatch.setattr(batch, "needs_compiling", lambda: True)
    frames: list[str] = []

    class Result:
        def to_json(self) -> dict[str, Any]:
            return {"battles": 10, "seed": "s", "draws": 0, "engine": "batched", "sides": [
                {"name": n, "wins": 5, "win_rate": 0.5, "interval95": [0.2, 0.8], "mean_losses": {}}
                for n in ("A", "B")]}

    def fake_odds(battle: Any, n: int, seed: str, *, rules: Any, progress: Any) -> Result:
        time.sleep(0.5)  # the compile: the live display refreshes meanwhile
        frames.append(screen.getvalue())
        progress(n)
        return Result()

    monkeypatch.setattr(sim, "odds", fake_odds)
    result = CliRunner().invoke(app, ["odds", str(EXAMPLE), "-n", "10"])
    assert result.exit_code == 0, result.output
    assert "A" in result.output and "50" in result.output
    (during,) = frames
    assert "First run after an install: compiling the batched simulator" in during  # the line, once
    assert during.count(battle_cli.SimulatorCompile.LABEL) >= 2  # and the live line, redrawn
    assert "битвы" in during  # the bar, in the language of the table (--lang, default ru)
    assert "compiled in 0:0" in screen.getvalue()


def test_long_commands_spin_on_a_terminal_and_stay_silent_on_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """«Long work shows progress»: a resolution, an import, an export… show a spinner with the
    time spent while they work, on a terminal's stderr; a pipe gets only the result."""
    from voevoda.cli import common

    screen = io.StringIO()
    monkeypatch.setattr(common, "errors", Console(file=screen, force_terminal=True, width=120, markup=False,
                                                 emoji=False, highlight=False))
    common.run_guarded(lambda: time.sleep(0.4), busy="расчёт хода / resolving")
    assert "расчёт хода / resolving" in screen.getvalue() and "0:00:00" in screen.getvalue()
    pipe = io.StringIO()
    monkeypatch.setattr(common, "errors", Console(file=pipe, force_terminal=False, markup=False))
    common.run_guarded(lambda: time.sleep(0.2), busy="расчёт хода / resolving")
    assert pipe.getvalue() == ""


def test_a_campaign_with_bots_says_the_simulator_will_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The campaign's computer players weigh their attacks on the batched simulator, and they post
    as the game is created: `new` says the first compile is coming (and spins under its name)."""
    from voevoda.core.engine import Game
    from voevoda.core.errors import GameError
    from voevoda.sim import batch

    said: list[str] = []
    monkeypatch.setattr(batch, "needs_compiling", lambda: True)
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(str(text)))

    def stop(*args: Any, **kwargs: Any) -> Game:
        raise GameError("стоп", "stop")

    monkeypatch.setattr(Game, "create", stop)
    result = CliRunner().invoke(app, ["new", "steel-rose", "--game", "c", "--players", "А,Б", "--bots", "Б",
                                      "--db", ":memory:"])
    assert result.exit_code == 1
    assert said and "compiling the batched simulator" in said[0]


@pytest.mark.parametrize(("config", "announced"), [(None, True), ("bot_odds_battles = 0\n", False),
                                                   ("bot_odds_battles = 50\n", True)])
def test_a_campaign_with_bots_announces_the_compile_unless_its_bots_estimate(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, config: str | None, announced: bool) -> None:
    """The campaign's computer opponents weigh their attacks on the batched simulator by default
    (docs/rulings/steel_rose.md C52): ``voevoda new steel-rose --bots ...`` says the first compile
    is coming, unless the game's config puts them on the strength estimate."""
    from voevoda.sim import batch

    said: list[str] = []
    monkeypatch.setattr(batch, "needs_compiling", lambda: True)
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(str(text)))
    args = ["new", "steel-rose", "--game", "g", "--players", "Анна,Борис", "--bots", "Борис", "--seed", "c",
            "--db", str(tmp_path / "g.db")]
    if config is not None:
        (tmp_path / "bots.toml").write_text(config, encoding="utf-8")
        args += ["--config", str(tmp_path / "bots.toml")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert any("compiling the batched simulator" in s for s in said) == announced
