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
                                         "--prices", "gold", "--csv", str(csv), "--svg", str(svg), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert len(csv.read_text(encoding="utf-8").splitlines()) == 5
    assert "Ogres" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["--backend", "spark"], "--backend"),
    (["--factions", "dwarves"], "dwarves"),
    (["-n", "0"], "-n"),
    (["--address", "ray://x:1"], "--address"),
    (["--budget", "-5"], "--budget"),
    (["--prices", "silver"], "--prices"),
    (["--budget", "500", "--factions", "empire"], "unlocks of 'empire'"),  # its hero costs 600
])
def test_cli_refuses_bad_arguments(args: list[str], message: str) -> None:
    result = CliRunner().invoke(_app(), ["balance", *args])
    assert result.exit_code == 1
    assert message in result.output


def test_real_prices_count_the_resource_and_the_unlocks() -> None:
    """Issue 19: «price each faction's units as the document does (gold plus the faction's own
    resource at its exchange value, with the building unlocks they need)»: a hero costs «100з+50ч»
    at 10 gold an honour, and the Empire's template pays for its barracks, garrison house, chapel
    and knights' hall first (docs/rulings/steel_rose.md C50)."""
    from voevoda.rulesets.steel_rose.campaign.data import load_campaign
    from voevoda.rulesets.steel_rose.campaign.pricing import Pricing
    from voevoda.rulesets.steel_rose.rules import load_rules

    rules = load_rules()
    pricing = Pricing(load_campaign())
    assert pricing.unit("empire", "hero") == 100 + 50 * 10
    assert pricing.unit("heaven", "golem") == 10 + 30 * 2
    assert pricing.unit("void_cult", "void_knight") == 80 + 5 * 10       # «+5 ГП при найме»
    assert pricing.unit("steel_rose", "musketeer") == 35 + 2 * 2 * 1     # 2 powder, doubled by a volley
    assert pricing.unit("ogres", "bull") == 40
    gold = bal.prepare(rules, 4000, 10, "p", ["empire", "ogres"], prices="gold")
    real = bal.prepare(rules, 4000, 10, "p", ["empire", "ogres"], prices="real")
    assert real.overheads["empire"] == {"barracks2": 300.0, "barracks": 150.0, "chapel": 100.0, "knights_hall": 200.0}
    assert real.overheads["ogres"] == {}
    def size(sweep: bal.Sweep, faction: str) -> int:
        return sum(n for sq in sweep.armies[faction].squads for n in sq.units.values())

    assert size(gold, "empire") > size(real, "empire")
    assert size(gold, "ogres") == size(real, "ogres")


@pytest.mark.parametrize("budget", [500, 2000, 4000, 8000])
def test_real_prices_pay_only_for_the_buildings_of_units_bought(budget: int) -> None:
    """Issue 29, item 14: «Price only what is bought» — the Sky-Blessed paid 800 gold for a
    sorcerer's and a spectral beast's buildings at 2,000 gold and fielded neither. Every building
    paid unlocks a unit the army holds, and every unit the army holds that a building unlocks has
    one paid (ruling C50: «the cheapest for each unit»)."""
    from voevoda.rulesets.steel_rose.campaign.data import load_campaign
    from voevoda.rulesets.steel_rose.rules import load_rules

    rules = load_rules()
    campaign = load_campaign()
    # at 500 gold the Empire's hero (600) and the cult's demonologist with his cult (550) are out of reach
    factions = None if budget >= 2000 else ["steel_rose", "heaven", "ogres"]
    sweep = bal.prepare(rules, budget, 10, "p", factions, prices="real")
    for faction, army in sweep.armies.items():
        bought = {u for sq in army.squads for u, n in sq.units.items() if n}
        paid = set(sweep.overheads[faction])
        unlocked = campaign.unlocked_by[faction]
        for building in paid:
            assert bought & {u for u, options in unlocked.items() if building in options}, (faction, building)
        for uid in bought:
            assert not unlocked.get(uid) or paid & set(unlocked[uid]), (faction, uid)
    if budget == 2000:
        assert not {"sorcerers_tower", "floating_monolith"} & set(sweep.overheads["heaven"])
        assert sum(sweep.overheads["heaven"].values()) == 920


def test_the_twilight_templates_hire_only_what_twilight_allows(rules: Rules) -> None:
    """«Сумерки (1-2 ход): максимальный уровень поселений - первый»: the first turns' armies
    (benchmarks/steel_rose_twilight.py) hold level-1 units that can be bought, each faction its own."""
    twilight = bal.load_templates(rules, bal.TEMPLATES.with_name("templates_twilight.toml"))
    assert set(twilight) == {"empire", "steel_rose", "heaven", "void_cult", "ogres"}
    for faction, template in twilight.items():
        for squad in template.squads:
            for uid in (*squad.units, *squad.fixed):
                unit = rules.units[uid]
                assert unit.faction == faction and unit.level == 1 and unit.purchasable, (faction, uid)
