"""Issue 17 «The command line»: «voevoda --help and voevoda status answer in under 0.3 s
(today 1.7–2.7 s, because every command imports Numba, NumPy and Alembic): import heavy parts
only where used». The time is benchmarked (benchmarks/cli_startup.py); what is checked here is
the cause, in a fresh process for each installed game: `status` imports neither NumPy, a battle
engine nor the morphology dictionary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from voevoda.cli import app

SRC = Path(__file__).resolve().parents[2] / "src"
HEAVY = ("numpy", "numba", "alembic", "pymorphy3", "voevoda.rulesets.steel_rose.battle.engine", "voevoda.sim")
GAMES = {"steel-rose": "Анна,Борис,Вера", "steel-rose-battle": "Анна,Борис", "thrones": "Анна,Борис,Вера",
         "new-worlds": "Анна,Борис", "ring-of-power": "Анна,Борис", "culture-conquest": "Анна,Борис"}
POSTS = {"thrones": "подмога в Винтерфелле\nусиление Белая Гавань", "steel-rose": "Построить Барак в Авентале",
         "new-worlds": "[b]религия дуализм[/b]\n[b]Война с Борисом: тотальная[/b]", "ring-of-power": "ход 0303 0403\nвражда Борис"}
"""A post standing in the step: `status` reads it again (Thrones' names in every case come from
data/forms.json, not from the morphology dictionary, a second a process)."""

PROBE = """
import sys
from voevoda.cli import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
print(",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_status_imports_nothing_heavy(tmp_path: Path, ruleset: str) -> None:
    db = str(tmp_path / "light.db")
    config = tmp_path / "config.toml"
    config.write_text("holy_lands = false\n" if ruleset == "thrones" else "", encoding="utf-8")
    result = CliRunner().invoke(app, ["new", ruleset, "--game", "g", "--players", GAMES[ruleset], "--seed", "light",
                                      "--config", str(config), "--db", db])
    assert result.exit_code == 0, result.output
    if ruleset in POSTS:
        posted = CliRunner().invoke(app, ["order", "g", "--player", "Анна", "-", "--db", db], input=POSTS[ruleset])
        assert posted.exit_code == 0, posted.output
    run = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), "status", "g", "--as", "Анна", "--db", db],
                         capture_output=True, text=True, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
                         check=False)
    assert "игра / game g" in run.stdout, run.stdout + run.stderr
    loaded = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    assert loaded == "", f"voevoda status on a {ruleset} game imports {loaded}"
