"""The ``voevoda`` command.

Every command that touches games takes ``--db URL`` (default ``./voevoda.db``, or
``VOEVODA_DATABASE_URL``). Errors are printed in Russian and English and exit with
status 1; nothing is stored when a command fails.
"""

import time

IMPORTED = time.time()
"""When this module was imported: for ``voevoda`` run from the shell, the moment the command
started, before anything heavy was loaded (see :func:`_started`)."""

import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pkgutil  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, Annotated, Any  # noqa: E402

import typer  # noqa: E402

from voevoda.cli.common import (  # noqa: E402
    DbOption,
    console,
    errors,
    print_text,
    read_text_argument,
    run_guarded,
    working,
)
from voevoda.core.errors import DataError, GameError  # noqa: E402

if TYPE_CHECKING:
    from datetime import datetime

    from voevoda.core.engine import Game
    from voevoda.core.journal import GameRecord
    from voevoda.service import PostOutcome, Resolution, Service, Undone

# `voevoda --help` and `voevoda status` must answer at once (benchmarks/cli_startup.py): this
# module and every command module import only typer and the light parts of the core at load
# time; each command imports what it uses (the engine, the store, rulesets, Rich tables, Numba
# through the simulator) in its own body.
# Pydantic looks for plugins among every installed package's entry points the first time a model
# is built (10–15 ms in an environment of a hundred packages); voevoda's models use none. A value
# the user has set is kept.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

GM = "gm"
PUBLIC = "public"

app = typer.Typer(
    name="voevoda",
    help="Referee engine for turn-based strategy games played by post. / Движок ведущего пошаговых стратегий.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and usage errors: no Rich import for --help, and no text read as markup
)


def _version(value: bool) -> None:
    if value:
        from voevoda import __version__

        print(f"voevoda {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="print the version and exit / версия")] = False,
) -> None:
    """Referee engine for turn-based strategy games played by post. / Движок ведущего пошаговых стратегий."""
    global _command_started, _from_shell
    _command_started = IMPORTED if _from_shell else time.time()
    _from_shell = False


def _service(db: str | None) -> "Service":
    """The service every command acts through, as the command line: the game master of every
    game of the database (:mod:`voevoda.service.access`). The store behind it is opened on first
    use; reading commands on a SQLite file never open it (:mod:`voevoda.store.quick`)."""
    from voevoda.service import Service

    return Service(db)


_command_started = IMPORTED
_from_shell = False


def _started() -> "datetime":
    """When this command started: a game master's action that names no step acts on the step as
    it stood then, and is refused when another resolution or rollback was stored since
    (docs/engine.md «Races»). Run from the shell, the moment the process imported the command line;
    called again in one process (tests), the moment the call began."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(_command_started, UTC)


def _open_step(db: str | None, name: str) -> int:
    """The step open in ``name`` (one more than the steps resolved), read when the command starts:
    a game master's action names the step it means, so that of two racing actions the second is
    refused («already done») instead of acting on the step after."""
    from voevoda.store.quick import read_step

    step = read_step(db, name)
    return (step if step is not None else _service(db).current_step(name)) + 1


def _split_names(value: str | None) -> list[str]:
    return [name.strip() for name in value.split(",") if name.strip()] if value else []


@app.command()
def rulesets() -> None:
    """List the installed games. / Установленные игры."""
    from rich.table import Table

    from voevoda.core import registry

    table = Table("id", "название", "title", "version", "players")
    for ruleset_id, cls in registry.available().items():
        table.add_row(ruleset_id, cls.title_ru, cls.title_en, cls.version, f"{cls.min_players}–{cls.max_players}")
    console.print(table)


def _quiet_options(config: Path) -> dict[str, Any]:
    """A config file's options, or nothing when it cannot be read (the command says why later)."""
    from voevoda.core.rulesdata import read_house_rules

    try:
        return dict(read_house_rules(config))
    except Exception:  # noqa: BLE001 - the command itself reports an unreadable config
        return {}


@app.command()
def new(
    ruleset: Annotated[str, typer.Argument(help="ruleset id, see `voevoda rulesets`")],
    game: Annotated[str, typer.Option("--game", help="name of the new game")],
    players: Annotated[str, typer.Option("--players", help="comma-separated player names")],
    bots: Annotated[str | None, typer.Option("--bots", help="players played by the computer")] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="derive the secret from this text (tests, demos)")] = None,
    config: Annotated[Path | None, typer.Option("--config", help="game options (TOML, JSON or YAML)")] = None,
    house_rules: Annotated[Path | None, typer.Option("--house-rules", help="overrides of the rules data")] = None,
    auto_resolve: Annotated[bool, typer.Option("--auto-resolve/--no-auto-resolve",
                                               help="resolve as soon as everyone awaited has posted")] = False,
    db: DbOption = None,
) -> None:
    """Create a game. / Создать игру."""
    from voevoda.core import outputs
    from voevoda.core.rulesdata import read_house_rules

    def action() -> "Game":
        from voevoda.service import OPERATOR

        names = _split_names(players)
        if not names:
            raise GameError("нужен хотя бы один игрок (--players A,B)", "at least one player is needed (--players A,B)")
        options = read_house_rules(config) if config else {}
        overrides = read_house_rules(house_rules) if house_rules else {}
        return _service(db).create_game(OPERATOR, ruleset, game, names, bots=_split_names(bots), config=options,
                                        house_rules=overrides, seed=seed, auto_resolve=auto_resolve)

    busy = "создание игры / creating the game"
    # the campaign's bots weigh attacks on the batched simulator unless the config says 0 (ruling C52)
    if ruleset == "steel-rose" and bots and (config is None or _quiet_options(config).get("bot_odds_battles") != 0):
        from voevoda.cli.battle import SimulatorCompile

        compiling = SimulatorCompile(None)  # says so on stderr when the first compile is due
        if compiling.started is not None:
            busy = SimulatorCompile.LABEL
    run_guarded(action, lambda created: print_text(outputs.created_text(created)), busy=busy)


@app.command()
def order(
    name: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str, typer.Option("--player", help="who posts")],
    file: Annotated[str, typer.Argument(help="file with the post, or - for standard input")] = "-",
    check: Annotated[bool, typer.Option("--check", help="only check, store nothing")] = False,
    step: Annotated[int | None, typer.Option("--step", min=1,
                                             help="the step the post is for (default: the current one)")] = None,
    db: DbOption = None,
) -> None:
    """Post orders; echoes how many were accepted, each refused line with its reason, and the
    poster's status, or every error when nothing can stand (exit 1). / Отдать приказы.

    A post is for one step, the one `status` shows (--step takes that number): if that step is
    resolved before the post is stored, the post is refused (nothing stored) and must be sent
    again for the new step. A post that opens with «ещё», «P.S.», «also»… adds to the standing
    post of the step instead of replacing it."""
    def action() -> "PostOutcome":
        from voevoda.service import OPERATOR

        meant = step if step is not None or check else _open_step(db, name)
        text = read_text_argument(file)
        service = _service(db)
        if check:
            return service.check_post(OPERATOR, name, player, text, light=True, step=step)
        return service.post(OPERATOR, name, player, text, step=meant, started=_started() if step is None else None)

    run_guarded(action, lambda outcome: print_text(outcome.echo), busy="приказ / the post")


@app.command()
def status(
    name: Annotated[str, typer.Argument(help="game name")],
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = PUBLIC,
    db: DbOption = None,
) -> None:
    """Turn, phase, the open step (the one a post goes to: the number `order --step` takes) and
    who is awaited; a player sees his own prompt, the game master every prompt. / Ход, фаза, шаг
    и чьих приказов ждут."""
    def action() -> None:
        from voevoda.service import OPERATOR

        print_text(_service(db).sight(OPERATOR, name, viewer, light=True).status())
        from voevoda.store.quick import has_schedule

        if has_schedule(db, name) is not False:  # the deadline on the game's wall clock (docs/clock.md)
            line = _service(db).deadline(OPERATOR, name).status_line()
            if line:
                print_text(line)
    run_guarded(action)


@app.command()
def resolve(
    name: Annotated[str, typer.Argument(help="game name")],
    force: Annotated[bool, typer.Option("--force", help="resolve without the missing posts (default orders)")] = False,
    step: Annotated[int | None, typer.Option("--step", min=1,
                                             help="the step to resolve (default: the current one)")] = None,
    db: DbOption = None,
) -> None:
    """Resolve the current step. / Рассчитать ход.

    The step is named before the game is locked: of two resolutions of one step racing each
    other, the second is refused with «already resolved»."""
    def action() -> "Resolution":
        meant = step if step is not None else _open_step(db, name)
        from voevoda.service import OPERATOR

        return _service(db).resolve(OPERATOR, name, step=meant, force=force,
                                    started=_started() if step is None else None)

    run_guarded(action, lambda result: print_text(result.text), busy="расчёт хода / resolving")


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="game name")],
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = GM,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    db: DbOption = None,
) -> None:
    """Print the state as a viewer sees it. / Показать состояние глазами игрока."""
    def action() -> None:
        from voevoda.service import OPERATOR

        sight = _service(db).sight(OPERATOR, name, viewer, light=True)
        if as_json:
            sys.stdout.write(sight.view_json())
        else:
            print_text(sight.show())
    run_guarded(action)


@app.command()
def report(
    name: Annotated[str, typer.Argument(help="game name")],
    turn: Annotated[int | None, typer.Option("--turn", help="turn number (default: the last resolved)")] = None,
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = PUBLIC,
    fmt: Annotated[str, typer.Option("--format", help="text, bbcode, markdown, telegram or html")] = "text",
    flavour: Annotated[str | None, typer.Option(
        "--flavour", help="bbcode: generic, phpbb, vbulletin, xenforo, smf, ipb; markdown: github, discord")] = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    every: Annotated[bool, typer.Option("--all", help="every player's report and the public one, "
                                                      "one file each, into the folder -o")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="file (or, with --all, folder) to write")] = None,
    db: DbOption = None,
) -> None:
    """A turn report for one viewer, or for all of them. / Отчёт о ходе."""
    from voevoda.core import outputs

    def action() -> None:
        from voevoda.service import OPERATOR

        outputs.check_options(fmt=fmt, lang=lang, flavour=flavour)
        service = _service(db)
        if every:
            if output is None:
                raise GameError("--all пишет файлы: укажите папку -o", "--all writes files: name a folder with -o")
            written = _write_all_reports(service, name, output, turn, fmt, flavour, lang)
            for path in written:
                console.print(f"→ {path}", markup=False)
            return
        text = service.sight(OPERATOR, name, viewer).report(turn, fmt, lang, flavour)
        if output is not None:
            _write_file(output, text)
            console.print(f"→ {output}", markup=False)
        else:
            sys.stdout.write(text)
    run_guarded(action)


REPORT_SUFFIX = {"text": ".txt", "bbcode": ".bbcode.txt", "markdown": ".md", "telegram": ".telegram.html",
                 "html": ".html"}


def _file_stem(viewer: str, taken: set[str]) -> str:
    """A file name for a player's report: the name itself where the file system allows it."""
    import re

    stem = re.sub(r"[^\w\-. ]", "_", viewer).strip(" .") or "player"
    candidate, k = stem, 2
    while candidate.casefold() in taken:
        candidate, k = f"{stem}-{k}", k + 1
    taken.add(candidate.casefold())
    return candidate


def _write_all_reports(service: "Service", name: str, folder: Path, turn: int | None, fmt: str,
                       flavour: str | None, lang: str) -> list[Path]:
    """One report per player and a public one, each built from that viewer's view alone."""
    from voevoda.service import OPERATOR

    players = service.sight(OPERATOR, name, PUBLIC).players
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{folder}: {exc.strerror}") from exc
    taken: set[str] = {PUBLIC}
    written = []
    for viewer in [*players, PUBLIC]:
        stem = PUBLIC if viewer == PUBLIC else _file_stem(viewer, taken)
        path = folder / (stem + REPORT_SUFFIX[fmt])
        _write_file(path, service.sight(OPERATOR, name, viewer).report(turn, fmt, lang, flavour))
        written.append(path)
    return written


def _write_file(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc


@app.command(name="map")
def map_command(
    name: Annotated[str, typer.Argument(help="game name")],
    output: Annotated[Path, typer.Option("-o", "--output", help="file to write: .svg, or .png for a picture")],
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = PUBLIC,
    turn: Annotated[int | None, typer.Option("--turn", help="the map as it was after this turn")] = None,
    png: Annotated[bool, typer.Option("--png", help="write a PNG whatever the file is called")] = False,
    zoom: Annotated[float, typer.Option("--zoom", help="PNG scale (1 = the SVG's own size)")] = 1.0,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    db: DbOption = None,
) -> None:
    """Draw the map as a viewer sees it, as SVG or PNG. / Карта глазами игрока."""
    from voevoda.core import outputs

    def action() -> None:
        outputs.check_options(lang=lang)
        if not 0.1 <= zoom <= 8:
            raise GameError("--zoom: от 0.1 до 8", "--zoom: from 0.1 to 8")
        from voevoda.service import OPERATOR

        as_png = png or output.suffix.lower() == ".png"
        sight = _service(db).sight(OPERATOR, name, viewer)
        picture = sight.map_png(lang, turn, zoom) if as_png else sight.map_svg(lang, turn)
        if picture is None:
            raise GameError("у этой игры нет карты", "this game has no map")
        try:
            output.write_bytes(picture if isinstance(picture, bytes) else picture.encode("utf-8"))
        except OSError as exc:
            raise DataError(f"{output}: {exc.strerror}") from exc
        console.print(f"карта / map: {output}", markup=False)
    run_guarded(action)


@app.command()
def rollback(
    name: Annotated[str, typer.Argument(help="game name")],
    reason: Annotated[str, typer.Option("--reason", help="why; shown in the public chronicle")],
    step: Annotated[int | None, typer.Option("--step", min=1, help="the step to undo (default: the last "
                                                                    "resolved when the command starts)")] = None,
    db: DbOption = None,
) -> None:
    """Undo the last resolved step; its posts stand again, frozen. / Откатить ход.

    Lists exactly what was undone. The step's seed is public, so its posts cannot be
    changed unless the GM reopens a named player's post (`voevoda reopen`)."""
    def action() -> "Undone":
        meant = step if step is not None else _open_step(db, name) - 1
        from voevoda.service import OPERATOR

        return _service(db).rollback(OPERATOR, name, step=meant, reason=reason,
                                     started=_started() if step is None else None)

    run_guarded(action, lambda result: print_text(result.text), busy="откат / rolling back")


@app.command()
def reopen(
    name: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str, typer.Option("--player", help="whose frozen post to reopen")],
    reason: Annotated[str, typer.Option("--reason", help="why; shown in the public chronicle")],
    step: Annotated[int | None, typer.Option("--step", min=1, help="the open step this is meant for (default: "
                                                                    "the one open when the command starts)")] = None,
    db: DbOption = None,
) -> None:
    """Let a player change a post frozen by a rollback. / Открыть замороженный приказ."""
    def action() -> Any:
        from voevoda.service import OPERATOR

        meant = step if step is not None else _open_step(db, name)
        return _service(db).reopen(OPERATOR, name, step=meant, player=player, reason=reason)

    run_guarded(action, lambda result: print_text(result.text), busy="открытие приказа / reopening")


@app.command()
def edit(
    name: Annotated[str, typer.Argument(help="game name")],
    patch: Annotated[Path, typer.Option("--patch", help="RFC 6902 JSON Patch file")],
    reason: Annotated[str, typer.Option("--reason", help="why; shown in the public chronicle")],
    step: Annotated[int | None, typer.Option("--step", min=1, help="the open step this is meant for (default: "
                                                                    "the one open when the command starts)")] = None,
    db: DbOption = None,
) -> None:
    """Edit the state with a reason (validated, audited). / Правка состояния ведущим.

    The result must pass the game's state schema and invariants, else nothing is stored."""
    def action() -> None:
        from voevoda.service import OPERATOR

        meant = step if step is not None else _open_step(db, name)
        operations = _read_json(patch)
        if not isinstance(operations, list) or not all(isinstance(op, dict) for op in operations):
            raise DataError(f"{patch}: a JSON Patch is a list of operations")
        _service(db).edit(OPERATOR, name, step=meant, patch=operations, reason=reason)

    run_guarded(action, lambda _: print_text("правка внесена / edit applied"), busy="правка / editing")


@app.command()
def reveal(
    name: Annotated[str, typer.Argument(help="game name")],
    step: Annotated[int | None, typer.Option("--step", min=1, help="the open step this is meant for (default: "
                                                                    "the one open when the command starts)")] = None,
    db: DbOption = None,
) -> None:
    """Publish the secret of a finished game: sealed rolls and bots become checkable. / Раскрыть секрет."""
    def action() -> str:
        from voevoda.service import OPERATOR

        meant = step if step is not None else _open_step(db, name)
        return _service(db).reveal(OPERATOR, name, step=meant)

    run_guarded(action, lambda secret: print_text(
        f"секрет / secret: {secret}\n`voevoda export` теперь выгружает всю игру; `voevoda verify` проверит "
        f"закрытые броски и ботов / `voevoda export` now writes the whole game; `voevoda verify` checks the "
        f"sealed rolls and the bots"))


@app.command()
def delete(
    name: Annotated[str, typer.Argument(help="game name")],
    yes: Annotated[bool, typer.Option("--yes", help="do not ask for confirmation")] = False,
    db: DbOption = None,
) -> None:
    """Delete a game and its journal for good (asks for the game's name). / Удалить игру."""
    def action() -> None:
        from voevoda.service import OPERATOR

        service = _service(db)
        service.game_exists(OPERATOR, name)  # a missing game is an error before anything is asked
        typed = name
        if not yes:
            typed = typer.prompt(f"Удалить игру навсегда? Введите её имя / Delete the game for good? "
                                 f"Type its name ({name})", default="", show_default=False)
        service.delete(OPERATOR, name, confirm=typed)

    run_guarded(action, lambda _: print_text(f"удалена игра / deleted game {name}"))


@app.command()
def games(db: DbOption = None) -> None:
    """List stored games. / Список игр."""
    from rich.table import Table

    from voevoda.core import outputs

    def action() -> None:
        from voevoda.service import OPERATOR

        table = Table("game", "ruleset", "step")
        listed = _service(db).games(OPERATOR)
        for row in outputs.games_lines([(g.name, g.ruleset, g.steps_resolved) for g in listed]):
            table.add_row(*row)
        console.print(table)
    run_guarded(action)


@app.command()
def export(
    name: Annotated[str, typer.Argument(help="game name")],
    output: Annotated[Path, typer.Option("-o", "--output", help="JSON file to write")],
    full: Annotated[bool, typer.Option("--full", help="the game master's backup: secret, every post, hidden "
                                                      "events and sealed rolls")] = False,
    public: Annotated[bool, typer.Option("--public", hidden=True, help="the default")] = False,
    db: DbOption = None,
) -> None:
    """Export a game: the public record by default, the GM's backup with --full. / Выгрузить игру.

    The public export (setup record, step seeds, public rolls and events, GM actions) is what
    any player may hold and check with `voevoda verify`. After `voevoda reveal` the secret is
    public and the export is the whole game, which the command says."""
    def action() -> bool:
        from voevoda.service import OPERATOR

        if full and public:
            raise GameError("--full или --public, не оба", "--full or --public, not both")
        sight = _service(db).sight(OPERATOR, name, GM if full else PUBLIC)
        _write_file(output, sight.export_text())
        return sight.revealed

    def show(revealed: bool) -> None:
        if revealed:
            what = ("вся игра: секрет раскрыт, выгрузка содержит секрет, все приказы, скрытые события и закрытые "
                    "броски / the whole game: the secret is revealed, and the export holds it, every post, hidden "
                    "events and sealed rolls")
        elif full:
            errors.print("внимание / note: полная выгрузка содержит секрет игры, все приказы, скрытые события и "
                         "закрытые броски — только для ведущего / the full export holds the game's secret, every "
                         "post, hidden events and sealed rolls: for the game master only", markup=False)
            what = "полная / full"
        else:
            what = "открытая запись / the public record"
        print_text(f"выгружено / exported ({what}): {output}")
    run_guarded(action, show, busy="выгрузка / exporting")


@app.command(name="import")
def import_command(
    file: Annotated[Path, typer.Argument(help="a full export made by `voevoda export --full`")],
    name: Annotated[str | None, typer.Option("--name", help="store under another name")] = None,
    db: DbOption = None,
) -> None:
    """Import an exported game (replayed and checked first). / Загрузить игру."""
    def action() -> "Game":
        from voevoda.service import OPERATOR

        return _service(db).import_game(OPERATOR, _read_json(file), source=str(file), name=name)

    run_guarded(action, lambda game: print_text(
        f"загружено / imported {game.record.name}, шагов / steps: {game.step_number}"),
        busy="переигровка и проверка журнала / replaying and checking the journal")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a full export (`voevoda export --full`)")],
    check: Annotated[bool, typer.Option("--check", help="compare every step and the final state with the export")]
    = False,
) -> None:
    """Rebuild a game from its journal. / Переиграть журнал.

    With --check every step is compared with the export: seed, rolls, events, sealed
    records, GM actions, digest, then the final state."""
    from voevoda.core.engine import Game
    from voevoda.core.verify import replay_problems

    def action() -> None:
        with working("переигровка журнала / replaying the journal"):
            data, record = _record_from_export(file)
            game = Game(record)
        print_text(f"шагов / steps: {game.step_number}, ход / turn: {game.ruleset.progress(game.state)[0]}")
        if check:
            with working("сверка каждого шага / comparing every step"):
                problems = replay_problems(data)
            if problems:
                for problem in problems:
                    errors.print("✗ " + problem, markup=False)
                raise GameError("переигровка расходится с выгрузкой", "the replay differs from the export")
            print_text(f"каждый шаг и состояние совпадают байт в байт / every step and the state identical "
                       f"byte for byte ({game.step_number})")
    run_guarded(action)


@app.command()
def verify(
    target: Annotated[str, typer.Argument(metavar="FILE|GAME",
                                          help="an export made by `voevoda export`, or with --db the name of a "
                                               "stored game")],
    commitment: Annotated[str | None, typer.Option("--commitment", help="the commitment you saved when the game "
                                                                        "was created (hex)")] = None,
    last_digest: Annotated[str | None, typer.Option("--last-digest", help="the record digest at the foot of the last "
                                                                          "report you saw (hex)")] = None,
    db: DbOption = None,
) -> None:
    """Check a game end to end: seeds, rolls, records, replay. / Проверить игру.

    `voevoda verify FILE` checks an export; `voevoda verify GAME --db URL` checks a stored game (its
    full export, made on the spot: every sealed roll and the journal replayed). Without --db an
    argument that is not an existing file names a game in the default database. With
    --last-digest it says how many steps the export proves up to the report you saw."""
    def action() -> None:
        from voevoda.core.verify import verify_export

        for option, value in (("--commitment", commitment), ("--last-digest", last_digest)):
            if value is not None and not _is_hex64(value.strip().lower()):
                raise DataError(f"{option}: 64 hexadecimal digits expected")
        path = Path(target)
        stored = db is not None or not path.is_file()
        with working("проверка игры / checking the game"):
            if stored:
                from voevoda.service import OPERATOR

                export = _service(db).export(OPERATOR, target, full=True)
            else:
                export = _read_json(path)
            result = verify_export(export, commitment, last_digest)
        if result.malformed:
            raise DataError(f"{target}: " + "; ".join(p.removeprefix("malformed export: ") for p in result.problems))
        lines = []
        if stored:
            lines.append(f"игра / game {target}: полная выгрузка из базы / the full export from the database")
        lines.append(f"шагов / steps: {result.steps}; бросков проверено / rolls checked: {result.rolls}; "
                     f"ссылок на кости / dice citations: {result.citations}")
        if result.reruns:
            lines.append(f"исходов пересчитано по костям (битвы…) / outcomes re-run from the dice (battles…): "
                         f"{result.reruns}")
        if result.procedure >= 2:
            lines.append("зёрна выведены из звеньев цепочки и приказов шагов; настройка игры покрыта записью / "
                         "seeds derived from the chain's links and the steps' posts; the game's setup covered by "
                         "its record (procedure 2)")
        else:
            lines.append("процедура 1 (игра создана до процедуры 2): зёрна — звенья цепочки, запись настройки не "
                         "покрывает игроков и настройки / procedure 1 (a game created before procedure 2): the "
                         "seeds are the chain's links, the setup record does not cover players and config")
        if result.commitments:
            lines.append(f"отпечатков открыто секретом / commitments opened with the secret: {result.commitments}")
        if result.sealed_unchecked:
            lines.append(f"скрытых бросков, ждущих секрета / sealed rolls awaiting the secret: "
                         f"{result.sealed_unchecked}")
        if commitment is not None:
            lines.append("обязательство сверено / commitment compared")
        if result.replayed:
            lines.append(f"журнал переигран, постов ботов проверено / journal replayed, bot posts checked: "
                         f"{result.bots_checked}")
        lines.append(f"последняя запись / last record: {result.last_digest}")
        if last_digest is None:
            lines.append("сравните её с последним отчётом или проверьте с --last-digest / compare it with the last "
                         "report, or check with --last-digest")
        elif result.reached is not None:
            lines.append(_reached_text(result.reached, result.steps))
        lines.extend("✗ " + problem for problem in result.problems)
        if result.ok:
            lines.append("всё сходится / everything matches")
        print_text("\n".join(lines))
        if not result.ok:
            raise typer.Exit(1)
    run_guarded(action)


def _reached_text(reached: int, steps: int) -> str:
    """How far an export proves the game to a player who saw the digest of step ``reached``."""
    from voevoda.core.words import count_en, count_ru

    if reached == 0:
        ru, en = ("вы видели запись настройки (шаг 0): выгрузка доказывает настройку игры",
                  "the record you saw is the setup's (step 0): the export proves the game's setup")
    else:
        ru = (f"вы видели запись шага {reached}: выгрузка доказывает настройку и "
              f"{count_ru(reached, ('шаг', 'шага', 'шагов'))} до неё")
        en = f"the record you saw is step {reached}'s: the export proves the setup and {count_en(reached, 'step')} up to it"
    after = steps - reached
    if after:
        ru += f", после неё ещё {count_ru(after, ('шаг', 'шага', 'шагов'))}"
        en += f", and {count_en(after, 'step')} more after it"
    return f"{ru} / {en}"


@app.command(context_settings={"ignore_unknown_options": True})
def roll(
    expression: Annotated[str, typer.Argument(help="dice notation, e.g. 4d6kh3+2 or 3к6")],
    seed: Annotated[str | None, typer.Option("--seed", help="seed text (default: a fresh random seed)")] = None,
) -> None:
    """Roll dice. / Бросить кости.

    An expression that begins with a minus (`-1d6+3`) needs no `--` before it."""
    from voevoda.core.dice import Dice

    def action() -> None:
        import secrets

        from voevoda.core import notation
        from voevoda.core.errors import OrdersRejected

        seed_text = seed if seed is not None else secrets.token_hex(16)
        try:
            result = notation.roll(expression, Dice.from_text(seed_text).stream("roll"))
        except OrdersRejected as exc:  # a dice expression is not a post: say what is wrong with it
            raise GameError(
                "; ".join(p.message_ru + (f" ({p.column}-й знак)" if p.column else "") for p in exc.problems)
                + "; примеры: 2d6, 4d6kh3+2, 3к6, d%",
                "; ".join(p.message_en + (f" (character {p.column})" if p.column else "") for p in exc.problems)
                + "; examples: 2d6, 4d6kh3+2, 3d6, d%") from exc
        console.print(result.describe(), markup=False)
        console.print(f"seed: {seed_text}", markup=False)
    run_guarded(action)


@app.command()
def demo(
    turns: Annotated[int, typer.Option("--turns", help="turns to play per game")] = 3,
    db: DbOption = None,
) -> None:
    """Play a few turns of every installed game and print the reports. / Показательные игры."""
    from voevoda.cli.demo import run_demo

    run_guarded(lambda: run_demo(_service(db), turns))


MAX_FILE_BYTES = 512 * 1024 * 1024


def _read_json(path: Path) -> Any:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(f"{path}: larger than {MAX_FILE_BYTES // 2**20} MB")
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    except RecursionError as exc:
        raise DataError(f"{path}: nested too deeply") from exc
    except ValueError as exc:  # a number of more than 4300 digits
        raise DataError(f"{path}: {exc}") from exc


def _is_hex64(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def _record_from_export(path: Path) -> "tuple[dict[str, Any], GameRecord]":
    """A full export, read within bounds, and its journal as a validated record."""
    from voevoda.service import record_from_export

    data = _read_json(path)
    return data, record_from_export(data, str(path))


def _register_extensions() -> None:
    """Commands of other modules of this package (battle, odds, simulate, ...)."""
    import voevoda.cli as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        register = getattr(module, "register", None)
        if callable(register):
            register(app)


_register_extensions()


def main() -> None:
    global _from_shell
    _from_shell = True
    app()


__all__ = ["app", "main"]
