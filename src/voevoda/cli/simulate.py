"""``voevoda simulate RULESET --games N --players K``: many computer games, statistics.

The command is generic in shape (the first argument names the ruleset); a ruleset takes
part by appearing in :data:`SIMULATORS`. Today only ``culture-conquest`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from voevoda.core.errors import DataError


@dataclass(frozen=True)
class Simulator:
    """What ``simulate`` needs from a ruleset."""

    strategies: tuple[str, ...]
    run: Callable[..., Sequence[Any]]
    summary_rows: Callable[[Sequence[Any], str], list[dict[str, Any]]]
    groupings: tuple[str, ...]
    summary_csv: Callable[[Sequence[Any]], str]
    seats_csv: Callable[[Sequence[Any]], str]
    chart_svg: Callable[[Sequence[Any]], str]


def _culture_conquest() -> Simulator:
    from voevoda.rulesets.culture_conquest import simulate as cc
    from voevoda.rulesets.culture_conquest.bots import STRATEGIES

    return Simulator(STRATEGIES, cc.run, lambda results, by: [g.row() for g in cc.summarize(results, by)],
                     ("strategy", "culture"), cc.summary_csv, cc.seats_csv, cc.chart_svg)


SIMULATORS: Mapping[str, Callable[[], Simulator]] = {"culture-conquest": _culture_conquest}

console = Console()
errors = Console(stderr=True)


def fail(ru: str, en: str) -> None:
    errors.print(f"[red]Ошибка:[/red] {ru}\n[red]Error:[/red] {en}")
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate(
        ruleset: Annotated[str, typer.Argument(help="Ruleset id, e.g. culture-conquest")],
        games: Annotated[int, typer.Option("--games", "-n", help="How many games to play")] = 100,
        players: Annotated[int, typer.Option("--players", "-k", help="Computer players per game")] = 4,
        seed: Annotated[str, typer.Option("--seed", help="Seed text; game i uses SEED/i")] = "voevoda",
        strategies: Annotated[str, typer.Option(
            "--strategies", help="Comma-separated strategies, dealt to seats in turn")] = "",
        turns: Annotated[int, typer.Option("--turns", help="Game length in rounds (0: the document's)")] = 0,
        house_rules: Annotated[Path | None, typer.Option(
            "--house-rules", help="House-rules file (TOML/JSON/YAML)")] = None,
        csv_file: Annotated[Path | None, typer.Option("--csv", help="Write the summary as CSV")] = None,
        seats_file: Annotated[Path | None, typer.Option("--seats-csv", help="Write one CSV row per seat")] = None,
        chart: Annotated[Path | None, typer.Option("--chart", help="Write an SVG chart")] = None,
    ) -> None:
        """Play computer games and report victory points and win rates."""
        run_simulation(ruleset, games, players, seed, strategies, turns, house_rules, csv_file,
                       seats_file, chart)


def run_simulation(ruleset: str, games: int, players: int, seed: str, strategies: str, turns: int,
                   house_rules: Path | None, csv_file: Path | None, seats_file: Path | None,
                   chart: Path | None) -> None:
    from voevoda.core import registry
    from voevoda.core.errors import GameError
    from voevoda.core.rulesdata import read_house_rules

    try:
        cls = registry.get(ruleset)
    except GameError as exc:
        fail(exc.message_ru, exc.message_en)
    if ruleset not in SIMULATORS:
        known = ", ".join(SIMULATORS)
        fail(f"правила «{ruleset}» пока не умеют играть сами с собой (умеют: {known})",
             f"ruleset '{ruleset}' has no simulator yet (supported: {known})")
    if games < 1:
        fail("--games: нужно хотя бы 1", "--games: must be at least 1")
    if not cls.min_players <= players <= cls.max_players:
        fail(f"--players: от {cls.min_players} до {cls.max_players}",
             f"--players: between {cls.min_players} and {cls.max_players}")
    if turns < 0:
        fail("--turns: не меньше 0", "--turns: must be 0 or more")
    sim = SIMULATORS[ruleset]()
    chosen = tuple(s.strip() for s in strategies.split(",") if s.strip()) or sim.strategies
    bad = [s for s in chosen if s not in sim.strategies]
    if bad:
        fail(f"--strategies: нет стратегии «{bad[0]}» (есть: {', '.join(sim.strategies)})",
             f"--strategies: no strategy '{bad[0]}' (known: {', '.join(sim.strategies)})")
    house: dict[str, Any] = {}
    if house_rules is not None:
        try:
            house = read_house_rules(house_rules)
        except DataError as exc:
            fail(str(exc), str(exc))
    config = {"turns": turns} if turns else {}
    results: list[Any] = []
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=errors, transient=False) as progress:
        task = progress.add_task(f"{ruleset}: {players} players", total=games)
        try:
            results = list(sim.run(games, players, seed, chosen, config=config, house_rules=house,
                                   tick=lambda _: progress.advance(task)))
        except DataError as exc:
            fail(str(exc), str(exc))
    for by in sim.groupings:
        table = Table(title=f"{ruleset}: {games} games × {players} players — by {by}")
        rows = sim.summary_rows(results, by)
        for column in (by, "seats", "win %", "mean VP", "median", "p10", "p90", "min", "max"):
            table.add_column(column, justify="left" if column == by else "right", no_wrap=True)
        for row in rows:
            table.add_row(str(row["group"]), str(row["seats"]), f"{row['win_rate']:.1%}",
                          f"{row['mean_vp']:.1f}", str(row["median_vp"]), str(row["p10_vp"]),
                          str(row["p90_vp"]), str(row["min_vp"]), str(row["max_vp"]))
        console.print(table)
    for path, text in ((csv_file, sim.summary_csv), (seats_file, sim.seats_csv), (chart, sim.chart_svg)):
        if path is None:
            continue
        try:
            path.write_text(text(results), encoding="utf-8")
        except OSError as exc:
            fail(f"{path}: не записать ({exc.strerror})", f"{path}: cannot write ({exc.strerror})")
        console.print(f"→ {path}")
