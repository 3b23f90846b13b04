"""``voevoda battle`` and ``voevoda odds``: the Steel Rose battle calculator.

Both read a battle file (docs/steel_rose/battle.md): both sides' deployment and planning
posts in TOML.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from voevoda.cli.common import plain_console, print_table, real, red

if TYPE_CHECKING:  # the battle engine is imported by the commands that run it, not by `voevoda --help`
    from voevoda.rulesets.steel_rose.battle.model import SideInput
    from voevoda.rulesets.steel_rose.battle.sides import BattleFile
    from voevoda.rulesets.steel_rose.rules import Rules

console = plain_console()
errors = plain_console(stderr=True)


class SimulatorCompile:
    """The first odds or balance run after an install compiles the batched simulator (one to two
    minutes, once; ``voevoda compile-simulator`` does it ahead of time). While it does, a live
    line with a spinner and the time spent stands above the battles' bar (a pulsing bar, since nobody knows how far along a compile is); on a
    pipe or a file, a line says when it starts and another when it is done. ``advanced`` is
    called with the battles' progress: the first battles done mean the compile is over."""

    LABEL = "компилируется пакетный симулятор (1–2 минуты, один раз) / compiling the batched simulator (one to two minutes, once)"

    def __init__(self, progress: Any = None) -> None:
        from voevoda.sim.batch import needs_compiling  # loads Numba: only here

        self.progress = progress
        self.task: Any = None
        self.started: float | None = None
        if needs_compiling():
            self.started = time.monotonic()
            errors.print("Первый расчёт после установки: компилируется пакетный симулятор (1–2 минуты, один "
                         "раз)… / First run after an install: compiling the batched simulator (one to two minutes, "
                         "once)…")
            if progress is not None:
                self.task = progress.add_task(self.LABEL, total=None)

    def advanced(self) -> None:
        if self.started is None:
            return
        spent = int(time.monotonic() - self.started)
        self.started = None
        if self.task is not None:
            self.progress.remove_task(self.task)
        errors.print(f"пакетный симулятор скомпилирован за {spent // 60}:{spent % 60:02d} / the batched simulator "
                     f"compiled in {spent // 60}:{spent % 60:02d}")


def announce_compiling_simulator() -> None:
    """Say so on stderr before a run that will compile the batched simulator (no live line)."""
    SimulatorCompile(None)


def progress_bar(disable: bool = False) -> Any:
    """The battles' bar of odds and balance, on standard error: a spinner, the bar, done/total,
    time spent and time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(), console=real(errors),
                    transient=True, disable=disable)


def _load(path: Path) -> tuple[BattleFile, Rules, tuple[SideInput, SideInput]]:
    from voevoda.core.errors import DataError
    from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
    from voevoda.rulesets.steel_rose.rules import load_rules

    try:
        battle = load_battle_file(path)
        rules = load_rules()
        sides, problems = build_sides(battle.specs, rules)
    except DataError as exc:
        errors.print(str(exc), style="red")
        raise typer.Exit(1) from exc
    failed = False
    for i, side_problems in enumerate(problems):
        role = ("attacker", "defender")[i]
        for p in side_problems:
            key = "deployment" if p.rule == "Расстановка" else "plan"
            at = battle.line_of(i, key, p.line)
            where = f"{path}:{at}" if at else f"{path} [{role}].{key}"
            errors.print(red(where, f" ({battle.specs[i].name}): {p.format('ru')}"))
            errors.print(f"    {p.format('en')}")
            failed = True
    if failed:
        raise typer.Exit(1)
    return battle, rules, sides


def battle_command(
    file: Annotated[Path, typer.Argument(help="Battle file (TOML): both sides' posts / файл битвы")],
    seed: Annotated[str | None, typer.Option("--seed", help="Dice seed text / зерно костей")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
    fmt: Annotated[str, typer.Option("--format", help="text, bbcode, markdown or telegram")] = "text",
    flavour: Annotated[str | None, typer.Option(
        "--flavour", help="bbcode: generic, phpbb, vbulletin, xenforo, smf, ipb; markdown: github, discord")] = None,
    chart: Annotated[Path | None, typer.Option("--chart", help="Write an SVG strength chart here")] = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
) -> None:
    """Compute one Steel Rose battle and print its report. / Рассчитать битву."""
    from voevoda.core.markup import check_format

    try:
        check_format(fmt, flavour)
    except ValueError as exc:
        errors.print(f"--format/--flavour: {exc}", style="red")
        raise typer.Exit(1) from exc
    if lang not in ("ru", "en"):
        errors.print(f"--lang: expected ru or en, got {lang!r}", style="red")
        raise typer.Exit(1)
    from voevoda.core.dice import Dice
    from voevoda.rulesets.steel_rose.battle.engine import fight
    from voevoda.rulesets.steel_rose.battle.report import battle_text, strength_svg

    battle, rules, sides = _load(file)
    seed_text = seed if seed is not None else battle.seed if battle.seed is not None else file.name
    dice = Dice.from_text(seed_text)
    result = fight(rules, sides, dice, options=battle.options).to_json()
    if chart is not None:
        try:
            chart.write_text(strength_svg(result, lang), encoding="utf-8")
        except OSError as exc:
            errors.print(f"{chart}: {exc.strerror}", style="red")
            raise typer.Exit(1) from exc
    if as_json:
        out = {"seed": seed_text, "seed_sha256": dice.seed.hex(), "result": result, "dice": dice.records()}
        print(json.dumps(out, ensure_ascii=False))
        return
    sys.stdout.write(battle_text(result, rules, lang, fmt, flavour=flavour).rstrip("\n") + "\n")


def _interval(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval, 95%."""
    if n == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def odds_command(
    file: Annotated[Path, typer.Argument(help="Battle file (TOML) / файл битвы")],
    n: Annotated[int, typer.Option("-n", help="Battles to simulate / число битв")] = 10_000,
    seed: Annotated[str | None, typer.Option("--seed", help="Dice seed text / зерно костей")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON")] = False,
    engine: Annotated[str, typer.Option("--engine", help="batched (Numba simulator, default) or exact "
                                                         "(the exact engine with recorded dice)")] = "batched",
    lang: Annotated[str, typer.Option("--lang", help="ru or en: the language of the table")] = "ru",
) -> None:
    """Win odds (95% interval) and mean losses per unit type. / Шансы на победу и средние потери."""
    if n < 1:
        errors.print("-n: expected at least 1 / ожидалось не меньше 1", style="red")
        raise typer.Exit(1)
    if engine not in ("batched", "exact"):
        errors.print(f"--engine: '{engine}' — batched или exact / batched or exact", style="red")
        raise typer.Exit(1)
    if lang not in ("ru", "en"):
        errors.print(f"--lang: ожидалось ru или en / expected ru or en, got {lang!r}", style="red")
        raise typer.Exit(1)
    from voevoda.core.words import counted, number, percent

    battle, rules, sides = _load(file)
    seed_text = seed if seed is not None else battle.seed if battle.seed is not None else file.name
    with progress_bar(disable=as_json) as progress:
        task = progress.add_task("битвы" if lang == "ru" else "battles", total=n)
        if engine == "batched":
            from voevoda.sim import odds as batched_odds

            compiling = SimulatorCompile(None if as_json else progress)

            def advance(done: int) -> None:
                compiling.advanced()
                progress.advance(task, done)

            out = batched_odds(battle, n, seed_text, rules=rules, progress=advance).to_json()
        else:
            out = exact_odds(battle, rules, sides, n, seed_text, lambda: progress.advance(task))
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
        return
    # one language, as every report speaks it (issue 30 item 7: the table printed both at once)
    ru = lang == "ru"
    rows = []
    for side in out["sides"]:
        lo, hi = side["interval95"]
        mean = ", ".join(f"{rules.units[u].name_ru if ru else rules.units[u].name_en} {number(k, lang, digits=2)}"
                         for u, k in side["mean_losses"].items()) or "—"
        rows.append([side["name"], percent(100 * side["win_rate"], lang),
                     f"{percent(100 * lo, lang)}–{percent(100 * hi, lang)}", mean])
    kind = {"batched": ("пакетный симулятор", "batched simulator"), "exact": ("точный движок", "exact engine")}.get(
        str(out["engine"]), (str(out["engine"]), str(out["engine"])))
    battles = counted(n, "битва") if ru else counted(n, "battle", "en")
    print_table(f"{sides[0].name} — {sides[1].name}: {battles} ({kind[0 if ru else 1]})",
                ["Сторона", "Победы", "95%", "Средние потери"] if ru else ["Side", "Wins", "95%", "Mean losses"],
                rows, "lrrl")
    if out["draws"]:
        console.print(f"Ничьи: {out['draws']}" if ru else f"Draws: {out['draws']}", markup=False)


def exact_odds(battle: BattleFile, rules: Rules, sides: tuple[SideInput, SideInput], n: int, seed_text: str,
                advance: Any) -> dict[str, Any]:
    """The odds from ``n`` battles of the exact engine (battle ``i`` rolls the dice of
    ``Dice.from_text(f"{seed}/{i}")``, so any one of them can be replayed with ``voevoda battle``)."""
    from voevoda.core.dice import Dice
    from voevoda.rulesets.steel_rose.battle.engine import fight

    wins = [0, 0]
    draws = 0
    losses: list[dict[str, int]] = [{}, {}]
    for i in range(n):
        result = fight(rules, sides, Dice.from_text(f"{seed_text}/{i}"), options=battle.options, ledger=False)
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
        for s, side in enumerate(result.summary["sides"]):
            for uid, k in side["dead"].items():
                losses[s][uid] = losses[s].get(uid, 0) + k
        advance()
    rows: list[dict[str, Any]] = []
    for s in (0, 1):
        lo, hi = _interval(wins[s], n)
        rows.append({"name": sides[s].name, "wins": wins[s], "win_rate": wins[s] / n, "interval95": [lo, hi],
                     "mean_losses": {u: k / n for u, k in sorted(losses[s].items())}})
    return {"battles": n, "seed": seed_text, "draws": draws, "engine": "exact", "sides": rows}


def compile_simulator_command() -> None:
    """Compile the batched simulator now (once per install: odds, balance and computer opponents use
    it). / Скомпилировать пакетный симулятор заранее (один раз после установки)."""
    from voevoda.sim.batch import needs_compiling, warm_up

    if not needs_compiling():
        errors.print("Пакетный симулятор уже скомпилирован. / The batched simulator is compiled already.")
        return
    with progress_bar() as progress:
        compiling = SimulatorCompile(progress)
        warm_up()
        compiling.advanced()


def register(app: typer.Typer) -> None:
    """Add ``battle``, ``odds`` and ``compile-simulator`` to the ``voevoda`` command."""
    app.command("battle")(battle_command)
    app.command("odds")(odds_command)
    app.command("compile-simulator")(compile_simulator_command)
