"""``voevoda simulate RULESET --games N --players K``: many computer games, statistics.

The command is generic in shape (the first argument names the ruleset); a ruleset takes
part by appearing in :data:`SIMULATORS`: ``culture-conquest`` and ``steel-rose``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from voevoda.cli.common import plain_console, print_table, real, red
from voevoda.core.errors import DataError
from voevoda.core.words import counted, number, percent


@dataclass(frozen=True)
class Simulator:
    """What ``simulate`` needs from a ruleset."""

    strategies: tuple[str, ...]
    run: Callable[..., Sequence[Any]]
    summary_rows: Callable[[Sequence[Any], str], list[dict[str, Any]]]
    groupings: tuple[str, ...]
    summary_csv: Callable[[Sequence[Any]], str]
    seats_csv: Callable[[Sequence[Any]], str]
    chart_svg: Callable[[Sequence[Any], str], str]
    group_name: Callable[[str, str, str], str]
    """A group's name (a strategy, a culture) in a language: (key, grouping, lang)."""
    tables: Callable[[Sequence[Any], str], list[tuple[str, list[str], list[list[str]]]]] | None = None
    """The printed report as (title, columns, rows) in a language, when the game's summary is not
    by victory points (``summary_rows`` and ``groupings`` are then unused)."""
    default_players: int = 4
    turns_option: bool = True


def _culture_conquest() -> Simulator:
    from voevoda.rulesets.culture_conquest import simulate as cc
    from voevoda.rulesets.culture_conquest.bots import STRATEGIES

    return Simulator(STRATEGIES, cc.run, lambda results, by: [g.row() for g in cc.summarize(results, by)],
                     ("strategy", "culture"), cc.summary_csv, cc.seats_csv, cc.chart_svg,
                     lambda key, by, lang: cc.group_name(key, by, lang))


def _steel_rose() -> Simulator:
    from voevoda.rulesets.steel_rose.campaign import simulate as sr

    return Simulator(sr.STRATEGIES, sr.run, lambda results, by: [], (), sr.summary_csv, sr.seats_csv, sr.chart_svg,
                     lambda key, by, lang: key, tables=sr.tables, default_players=5, turns_option=False)


SIMULATORS: Mapping[str, Callable[[], Simulator]] = {"culture-conquest": _culture_conquest,
                                                     "steel-rose": _steel_rose}

console = plain_console()
errors = plain_console(stderr=True)


def fail(ru: str, en: str) -> None:
    errors.print(red("Ошибка:", f" {ru}\n"), red("Error:", f" {en}"), sep="")
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate(
        ruleset: Annotated[str, typer.Argument(help="Ruleset id, e.g. culture-conquest")],
        games: Annotated[int, typer.Option("--games", "-n", help="How many games to play")] = 100,
        players: Annotated[int, typer.Option(
            "--players", "-k", help="Computer players per game (0: the game's usual number)")] = 0,
        seed: Annotated[str, typer.Option("--seed", help="Seed text; game i uses SEED/i")] = "voevoda",
        strategies: Annotated[str, typer.Option(
            "--strategies", help="Comma-separated strategies, dealt to seats in turn")] = "",
        turns: Annotated[int, typer.Option("--turns", help="Game length in rounds (0: the document's)")] = 0,
        house_rules: Annotated[Path | None, typer.Option(
            "--house-rules", help="House-rules file (TOML/JSON/YAML)")] = None,
        csv_file: Annotated[Path | None, typer.Option("--csv", help="Write the summary as CSV")] = None,
        seats_file: Annotated[Path | None, typer.Option("--seats-csv", help="Write one CSV row per seat")] = None,
        chart: Annotated[Path | None, typer.Option("--chart", help="Write an SVG chart")] = None,
        lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    ) -> None:
        """Play computer games and report victory points and win rates. / Партии компьютерных игроков."""
        run_simulation(ruleset, games, players, seed, strategies, turns, house_rules, csv_file,
                       seats_file, chart, lang)


def run_simulation(ruleset: str, games: int, players: int, seed: str, strategies: str, turns: int,
                   house_rules: Path | None, csv_file: Path | None, seats_file: Path | None,
                   chart: Path | None, lang: str = "ru") -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

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
    sim = SIMULATORS[ruleset]()
    players = players or sim.default_players
    if not cls.min_players <= players <= cls.max_players:
        fail(f"--players: от {cls.min_players} до {cls.max_players}",
             f"--players: between {cls.min_players} and {cls.max_players}")
    if turns < 0:
        fail("--turns: не меньше 0", "--turns: must be 0 or more")
    if lang not in ("ru", "en"):
        fail("--lang: ru или en", "--lang: ru or en")
    if turns and not sim.turns_option:
        fail(f"--turns: длину игры «{ruleset}» задают её эпохи", f"--turns: the epochs of '{ruleset}' set its length")
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
    with Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=real(errors), transient=False) as progress:
        task = progress.add_task(f"{ruleset}: {counted(players, 'игрок')} / {counted(players, 'player', 'en')}", total=games)
        try:
            results = list(sim.run(games, players, seed, chosen, config=config, house_rules=house,
                                   tick=lambda _: progress.advance(task)))
        except DataError as exc:
            fail(str(exc), str(exc))
    ru = lang == "ru"
    for title, columns, cells in (sim.tables(results, lang) if sim.tables else []):
        print_table(title, columns, cells, "l" + "r" * (len(columns) - 1), console)
    for by in sim.groupings:
        rows = sim.summary_rows(results, by)
        games_text = counted(games, "партия") if ru else counted(games, "game", "en")
        players_text = counted(players, "игрок") if ru else counted(players, "player", "en")
        by_text = {"strategy": ("по стратегиям", "by strategy"), "culture": ("по культурам", "by culture")}.get(
            by, (by, by))[0 if ru else 1]
        header = ([{"strategy": "стратегия", "culture": "культура"}.get(by, by), "мест", "побед", "ПО в среднем",
                   "медиана", "p10", "p90", "мин.", "макс."] if ru else
                  [by, "seats", "wins", "mean VP", "median", "p10", "p90", "min", "max"])
        print_table(f"{ruleset}: {games_text} × {players_text} — {by_text}", header,
                    [[sim.group_name(str(row["group"]), by, lang), str(row["seats"]),
                      percent(100 * row["win_rate"], lang), number(row["mean_vp"], lang),
                      number(row["median_vp"], lang), number(row["p10_vp"], lang), number(row["p90_vp"], lang),
                      number(row["min_vp"], lang), number(row["max_vp"], lang)] for row in rows],
                    "lrrrrrrrr", console)
    outputs: tuple[tuple[Path | None, Callable[[Sequence[Any]], str]], ...] = (
        (csv_file, sim.summary_csv), (seats_file, sim.seats_csv), (chart, lambda r: sim.chart_svg(r, lang)))
    for path, text in outputs:
        if path is None:
            continue
        try:
            path.write_text(text(results), encoding="utf-8")
        except OSError as exc:
            fail(f"{path}: не записать ({exc.strerror})", f"{path}: cannot write ({exc.strerror})")
        console.print(f"→ {path}", markup=False)
