"""``voevoda balance``: template armies for a gold budget, the faction matrix, CSV and SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from voevoda.cli.balance import register
from voevoda.core.errors import DataError
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim import balance as bal


@pytest.fixture(scope="module")
def templates(rules: Rules) -> dict[str, bal.ArmyTemplate]:
    return bal.load_templates(rules)


def test_every_faction_has_a_template_of_its_own_units(rules: Rules, templates: dict) -> None:
    """Templates name only units the faction can hire for gold (demons are summoned, not hired)."""
    assert set(templates) == set(rules.factions)


@pytest.mark.parametrize("budget", [500, 2000, 7000])
def test_armies_spend_the_budget(rules: Rules, templates: dict, budget: int) -> None:
    """An army costs at most the budget, and what is left would not buy another unit of it."""
    for fid, tpl in templates.items():
        army = bal.build_army(rules, fid, tpl, budget)
        cost = sum(rules.units[u].gold * n for sq in army.squads for u, n in sq.units.items())
        assert cost <= budget
        cheapest = min(rules.units[u].gold for sq in tpl.squads for u in sq.units)
        assert budget - cost < cheapest
        for sq in army.squads:
            assert all(rules.units[u].faction == fid for u in sq.units)


def test_fixed_units_are_bought_first(rules: Rules, templates: dict) -> None:
    army = bal.build_army(rules, "void_cult", templates["void_cult"], 1000)
    assert any(sq.units.get("demonologist") == 1 for sq in army.squads)
    with pytest.raises(DataError, match="fixed units"):
        bal.build_army(rules, "void_cult", templates["void_cult"], 100)


def test_bad_templates_name_the_field(rules: Rules, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[empire]\nsquads = [{ position = "centre.vanguard", gold = 1, units = { cultist = 1 } }]\n',
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"\[empire\]\.squads\[0\]\.units\.cultist"):
        bal.load_templates(rules, path)
    path.write_text('[empire]\nsquads = [{ position = "middle", gold = 1, units = { spearman = 1 } }]\n',
                    encoding="utf-8")
    with pytest.raises(DataError, match="position"):
        bal.load_templates(rules, path)
    path.write_text('[empire]\nsquads = [{ position = "centre.vanguard", gold = 1, units = { lesser_demon = 1 } }]\n',
                    encoding="utf-8")
    with pytest.raises(DataError):
        bal.load_templates(rules, path)


def test_matrix_is_independent_of_the_split(rules: Rules, templates: dict) -> None:
    """Cells come out the same whatever the work items (the Ray backend relies on it)."""
    sweep = bal.prepare(rules, 800, 120, "m", ["empire", "ogres"], templates)
    a = bal.run_local(sweep, block=120)
    b = bal.run_local(sweep, block=7)
    assert a == b
    assert len(a) == 4
    for cell in a:
        assert cell.wins + cell.losses + cell.draws == 120


def test_csv_and_svg(rules: Rules, templates: dict) -> None:
    sweep = bal.prepare(rules, 800, 50, "m", ["empire", "heaven", "ogres"], templates)
    cells = bal.run_local(sweep)
    csv = bal.to_csv(sweep, cells).splitlines()
    assert csv[0].startswith("attacker,defender,budget,battles,")
    assert len(csv) == 1 + 9
    svg = bal.to_svg(sweep, cells, "ru")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert len([e for e in root.iter() if e.tag.endswith("rect")]) == 9
    assert "Империя" in svg


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps ``balance`` a named subcommand
        pass

    return app


def test_cli_writes_csv_and_svg(tmp_path: Path) -> None:
    csv, svg = tmp_path / "m.csv", tmp_path / "m.svg"
    result = CliRunner().invoke(_app(), ["balance", "--budget", "600", "-n", "40", "--factions", "empire,ogres",
                                         "--csv", str(csv), "--svg", str(svg), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert len(csv.read_text(encoding="utf-8").splitlines()) == 5
    assert "Ogres" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["--backend", "spark"], "--backend"),
    (["--factions", "dwarves"], "dwarves"),
    (["-n", "0"], "-n"),
    (["--address", "ray://x:1"], "--address"),
    (["--budget", "-5"], "--budget"),
])
def test_cli_refuses_bad_arguments(args: list[str], message: str) -> None:
    result = CliRunner().invoke(_app(), ["balance", *args])
    assert result.exit_code == 1
    assert message in result.output
