"""``voevoda.sim.odds``: the battle description ``voevoda odds`` reads, the JSON it prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compile_notice import check_compile_notice
from voevoda.core.errors import DataError
from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim.odds import mean_interval, odds, wilson

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "steel-rose" / "empire-vs-cult.toml"


def test_file_loaded_file_and_sides_give_the_same_odds(rules: Rules) -> None:
    """A path, a loaded battle file and both sides' inputs are the same description."""
    battle = load_battle_file(EXAMPLE)
    sides, _ = build_sides(battle.specs, rules)
    a = odds(EXAMPLE, 500, "s").to_json()
    b = odds(battle, 500, "s").to_json()
    c = odds(sides, 500, "s", options=battle.options).to_json()
    assert a == b == c
    assert a["battles"] == 500 and a["engine"] == "batched"
    assert sum(s["wins"] for s in a["sides"]) + a["draws"] == 500
    for side in a["sides"]:
        lo, hi = side["interval95"]
        assert lo <= side["win_rate"] <= hi
        for uid, mean in side["mean_losses"].items():
            low, high = side["losses_interval95"][uid]
            assert low <= mean <= high


def test_progress_is_told_every_battle() -> None:
    seen: list[int] = []
    odds(EXAMPLE, 2500, "p", progress=seen.append, block=1000)
    assert seen == [1000, 1000, 500]


def test_a_bad_battle_file_names_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[attacker]\ndeployment = "Центральный фланг:\\nАвангард - 3 дракона"\n'
                   '[defender]\ndeployment = "Центральный фланг:\\nАвангард - 3 копейщика"\n', encoding="utf-8")
    with pytest.raises(DataError, match="драко|dragon|unknown"):
        odds(bad, 10)


def test_intervals() -> None:
    """Wilson interval of 50/100 is about 0.404..0.596; a constant sample has a zero-width mean interval."""
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert mean_interval(20.0, 40.0, 10) == (2.0, 2.0)


def test_recovered_wounded(rules: Rules) -> None:
    """«после боя часть раненых юнитов (если не указано иного, то эта часть равна 20%) удаётся
    спасти» (demons 60%, rounded half up per battle); with ``recovery_for_loser`` off a side
    recovers only from battles it won or drew."""
    import math
    from dataclasses import replace

    battle = load_battle_file(EXAMPLE)
    sides, _ = build_sides(battle.specs, rules)
    on = odds(sides, 300, "r", options=battle.options)
    off = odds(sides, 300, "r", options=replace(battle.options, recovery_for_loser=False))
    assert rules.recovery("lesser_demon") == 0.6 and rules.recovery("spearman") == 0.2
    for result, loser_too in ((on, True), (off, False)):
        out = result.to_json()
        for s in (0, 1):
            expected: dict[str, float] = {}
            for b in range(300):
                if not loser_too and result.batch.winner[b] not in (s, -1):
                    continue
                for j, uid in enumerate(result.scenario.types):
                    k = math.floor(result.batch.dead[b, s, j] * rules.recovery(uid) + 0.5)
                    if k:
                        expected[uid] = expected.get(uid, 0) + k / 300
            assert out["sides"][s]["mean_recovered"] == pytest.approx(expected)
    assert on.to_json()["sides"][1]["mean_recovered"] != off.to_json()["sides"][1]["mean_recovered"]


def test_tools_know_when_the_first_run_will_compile_the_simulator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first odds or balance run after an install compiles the simulator's kernel (minutes):
    `needs_compiling` tells from Numba's cache index, and `voevoda odds` and `voevoda balance`
    announce the pause on stderr in both languages."""
    from voevoda.cli import battle as battle_cli
    from voevoda.sim import batch

    check_compile_notice(monkeypatch, tmp_path, batch, "kernel", "kernel.simulate_chunks", batch.needs_compiling,
                         battle_cli.announce_compiling_simulator, "compiling the batched simulator")
