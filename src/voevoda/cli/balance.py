"""``voevoda balance``: faction-against-faction win rates of Steel Rose template armies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from voevoda.cli.common import plain_console, print_table, red
from voevoda.core.errors import DataError
from voevoda.core.words import number, percent

console = plain_console()
errors = plain_console(stderr=True)


def _fail(message: str) -> None:
    errors.print(red("ошибка / error:", f" {message}"))
    raise typer.Exit(1)


def balance_command(
    budget: Annotated[float, typer.Option("--budget", help="Gold per army / золота на армию")] = 2000,
    n: Annotated[int, typer.Option("-n", help="Battles per matchup / битв на пару")] = 2000,
    seed: Annotated[str, typer.Option("--seed", help="Seed text / зерно")] = "balance",
    factions: Annotated[str | None, typer.Option("--factions", help="Comma-separated faction ids")] = None,
    templates: Annotated[Path | None, typer.Option("--templates", help="Army templates (TOML)")] = None,
    house_rules: Annotated[Path | None, typer.Option("--house-rules", help="Overrides of the rules data")] = None,
    csv: Annotated[Path | None, typer.Option("--csv", help="Write the matrix as CSV here")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Write an SVG heatmap here")] = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en (heatmap labels)")] = "ru",
    prices: Annotated[str, typer.Option(
        "--prices", help="real: gold plus the faction's resource at its exchange value, after the unlocking "
                         "buildings (docs/steel_rose/balance.md); gold: gold only")] = "real",
    backend: Annotated[str, typer.Option("--backend", help="local or ray")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address (--backend ray)")] = None,
) -> None:
    """Win-rate matrix of the factions' template armies for a gold budget / матрица баланса фракций."""
    from voevoda.core.rulesdata import read_house_rules
    from voevoda.rulesets.steel_rose.rules import load_rules
    from voevoda.sim import balance as bal

    if backend not in ("local", "ray"):
        _fail(f"--backend: expected local or ray, got {backend!r}")
    if address is not None and backend != "ray":
        _fail("--address: only with --backend ray / только вместе с --backend ray")
    if lang not in ("ru", "en"):
        _fail(f"--lang: expected ru or en, got {lang!r}")
    if n < 1:
        _fail("-n: expected at least 1 / ожидается не меньше 1")
    if budget <= 0:
        _fail("--budget: expected a positive amount of gold / ожидается положительное число")
    if prices not in ("real", "gold"):
        _fail(f"--prices: expected real or gold, got {prices!r}")
    try:
        house = read_house_rules(house_rules) if house_rules else {}
        from voevoda.rulesets.steel_rose.campaign.data import split_house_rules

        battle_part, _campaign_part = split_house_rules(house)
        rules = load_rules(battle_part or None)
        tpl = bal.load_templates(rules, templates)
        chosen = [f.strip() for f in factions.split(",") if f.strip()] if factions else None
        for f in chosen or []:
            if f not in rules.factions:
                raise DataError(f"--factions: unknown faction '{f}' (known: {', '.join(rules.factions)})")
        sweep = bal.prepare(rules, budget, n, seed, chosen, tpl, prices, house)
    except DataError as exc:
        _fail(str(exc))
        return
    from voevoda.cli.battle import SimulatorCompile, progress_bar

    total = n * len(sweep.cells())
    with progress_bar() as progress:
        task = progress.add_task("битвы / battles", total=total)
        compiling = SimulatorCompile(progress) if backend == "local" else None

        def advance(k: int) -> None:
            if compiling is not None:
                compiling.advanced()
            progress.advance(task, k)

        try:
            cells = (bal.run_ray(sweep, address, progress=advance) if backend == "ray"
                     else bal.run_local(sweep, progress=advance))
        except DataError as exc:
            _fail(str(exc))
            return
    try:
        if csv is not None:
            csv.write_text(bal.to_csv(sweep, cells), encoding="utf-8")
        if svg is not None:
            svg.write_text(bal.to_svg(sweep, cells, lang), encoding="utf-8")
    except OSError as exc:
        _fail(f"{exc.filename}: {exc.strerror}")
    by = {(c.row, c.col): c for c in cells}
    rows = []
    for r in sweep.factions:
        row = [r]
        for c in sweep.factions:
            cell = by[(r, c)]
            lo, hi = cell.interval
            row.append(f"{percent(100 * cell.win_rate)} ({percent(100 * lo)}–{percent(100 * hi)})")
        rows.append(row)
    print_table(f"Бюджет / budget {number(budget)}: {n} битв на пару / battles per matchup",
                ["атакующий \\ защитник / attacker \\ defender", *sweep.factions], rows,
                "l" + "r" * len(sweep.factions))
    for f, army in sweep.armies.items():
        squads = "; ".join(f"{sq.position}: " + ", ".join(f"{u} {k}" for u, k in sq.units.items())
                           for sq in army.squads)
        unlocks = sweep.overheads.get(f)
        paid = (" [" + ", ".join(f"{b} {number(v)}" for b, v in unlocks.items()) + "]") if unlocks else ""
        console.print(f"{f}: {squads}{paid}", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``balance`` to the ``voevoda`` command."""
    app.command("balance")(balance_command)
