"""The ``voevoda`` command.

Every command that touches games takes ``--db URL`` (default ``./voevoda.db``, or
``VOEVODA_DATABASE_URL``). Errors are printed in Russian and English and exit with
status 1; nothing is stored when a command fails.
"""

import importlib
import json
import os
import pkgutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from voevoda.cli.common import DbOption, console, errors, print_text, read_text_argument, run_guarded, working
from voevoda.core.errors import DataError, GameError

if TYPE_CHECKING:
    from voevoda.core.engine import Game, Receipt, RollbackReport, Step
    from voevoda.core.journal import GameRecord
    from voevoda.core.standing import Standing

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


def _store(db: str | None) -> Any:
    from voevoda.store import Store

    return Store(db)


def _load(db: str | None, name: str) -> "Game":
    """A stored game for a command that only reads it: straight from a SQLite file when it can
    be (:mod:`voevoda.store.quick`, no SQLAlchemy), else through the store."""
    from voevoda.core.engine import Game
    from voevoda.store.quick import load_record

    record = load_record(db, name)
    if record is not None:
        return Game(record)
    loaded: Game = _store(db).load(name)
    return loaded


def _standing(db: str | None, name: str) -> "Game | Standing":
    """A stored game as it stands, for `status` and `show`: its committed state read straight
    from a SQLite file without replaying the journal (:mod:`voevoda.core.standing`) when that is
    certainly what the replay gives, else the replayed game (:func:`_load`)."""
    from voevoda.store.quick import load_standing

    standing = load_standing(db, name)
    return standing if standing is not None else _load(db, name)


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
    from voevoda.core.engine import Game
    from voevoda.core.rulesdata import read_house_rules

    def action() -> "Game":
        names = _split_names(players)
        if not names:
            raise GameError("нужен хотя бы один игрок (--players A,B)", "at least one player is needed (--players A,B)")
        options = read_house_rules(config) if config else {}
        overrides = read_house_rules(house_rules) if house_rules else {}
        created = Game.create(ruleset, game, names, bots=_split_names(bots), config=options,
                              house_rules=overrides, seed=seed, auto_resolve=auto_resolve)
        _store(db).create(created)
        return created

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
    """Post orders; echoes what was understood and the poster's status, or every error (exit 1).
    / Отдать приказы.

    A post is for one step: if that step is resolved before the post is stored, the post is
    refused (nothing stored) and must be sent again for the new step."""
    from voevoda.core import outputs

    def action() -> "tuple[Game, Receipt, int]":
        text = read_text_argument(file)
        if check:
            game = _load(db, name)
            return game, game.check_post(game.find_player(player), text), game.step_number + 1
        store = _store(db)
        meant = step if step is not None else store.current_step(name) + 1
        with store.change(name) as game:
            receipt = game.post(game.find_player(player), text, at=_now(), step=meant)
        return game, receipt, meant

    def show(result: "tuple[Game, Receipt, int]") -> None:
        game, receipt, meant = result
        print_text(outputs.order_echo(game, receipt.player, receipt, check, step=meant))
    run_guarded(action, show, busy="приказ / the post")


@app.command()
def status(
    name: Annotated[str, typer.Argument(help="game name")],
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = PUBLIC,
    db: DbOption = None,
) -> None:
    """Turn, phase and who is awaited; a player sees his own prompt, the game master every
    prompt. / Ход, фаза и чьих приказов ждут."""
    from voevoda.core import outputs

    def action() -> None:
        game = _standing(db, name)
        print_text(outputs.status_text(game, game.find_player(viewer, viewers=True)))
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
    from voevoda.core import outputs

    def action() -> "tuple[Game, Step]":
        store = _store(db)
        meant = step if step is not None else store.current_step(name) + 1
        with store.change(name) as game:
            resolved = game.resolve(force=force, at=_now(), step=meant)
        return game, resolved

    run_guarded(action, lambda result: print_text(outputs.resolution_text(*result)), busy="расчёт хода / resolving")


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="game name")],
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = GM,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    db: DbOption = None,
) -> None:
    """Print the state as a viewer sees it. / Показать состояние глазами игрока."""
    from voevoda.core import outputs

    def action() -> None:
        game = _standing(db, name)
        who = game.find_player(viewer, viewers=True)
        if as_json:
            sys.stdout.write(outputs.show_json(game, who))
        else:
            print_text(outputs.show_text(game, who))
    run_guarded(action)


@app.command()
def report(
    name: Annotated[str, typer.Argument(help="game name")],
    turn: Annotated[int | None, typer.Option("--turn", help="turn number (default: the last resolved)")] = None,
    viewer: Annotated[str, typer.Option("--as", help="player name, public or gm")] = PUBLIC,
    fmt: Annotated[str, typer.Option("--format", help="text, bbcode, markdown or telegram")] = "text",
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
        outputs.check_options(fmt=fmt, lang=lang, flavour=flavour)
        game = _load(db, name)
        if every:
            if output is None:
                raise GameError("--all пишет файлы: укажите папку -o", "--all writes files: name a folder with -o")
            written = _write_all_reports(game, output, turn, fmt, flavour, lang)
            for path in written:
                console.print(f"→ {path}", markup=False)
            return
        text = outputs.report_text(game, game.find_player(viewer, viewers=True), turn, fmt, lang, flavour)
        if output is not None:
            _write_file(output, text)
            console.print(f"→ {output}", markup=False)
        else:
            sys.stdout.write(text)
    run_guarded(action)


REPORT_SUFFIX = {"text": ".txt", "bbcode": ".bbcode.txt", "markdown": ".md", "telegram": ".telegram.html"}


def _file_stem(viewer: str, taken: set[str]) -> str:
    """A file name for a player's report: the name itself where the file system allows it."""
    import re

    stem = re.sub(r"[^\w\-. ]", "_", viewer).strip(" .") or "player"
    candidate, k = stem, 2
    while candidate.casefold() in taken:
        candidate, k = f"{stem}-{k}", k + 1
    taken.add(candidate.casefold())
    return candidate


def _write_all_reports(game: "Game", folder: Path, turn: int | None, fmt: str, flavour: str | None,
                       lang: str) -> list[Path]:
    """One report per player and a public one, each built from that viewer's view alone."""
    from voevoda.core import outputs

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{folder}: {exc.strerror}") from exc
    taken: set[str] = {PUBLIC}
    written = []
    for viewer in [*game.record.players, PUBLIC]:
        stem = PUBLIC if viewer == PUBLIC else _file_stem(viewer, taken)
        path = folder / (stem + REPORT_SUFFIX[fmt])
        _write_file(path, outputs.report_text(game, viewer, turn, fmt, lang, flavour))
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
        as_png = png or output.suffix.lower() == ".png"
        game = _load(db, name)
        who = game.find_player(viewer, viewers=True)
        picture = (outputs.map_png(game, who, lang, turn, zoom) if as_png
                   else outputs.map_svg(game, who, lang, turn))
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
    db: DbOption = None,
) -> None:
    """Undo the last resolved step; its posts stand again, frozen. / Откатить ход.

    Lists exactly what was undone. The step's seed is public, so its posts cannot be
    changed unless the GM reopens a named player's post (`voevoda reopen`)."""
    from voevoda.core import outputs

    def action() -> "tuple[Game, RollbackReport]":
        with _store(db).change(name) as game:
            undone = game.rollback(reason, at=_now())
        return game, undone

    run_guarded(action, lambda result: print_text(outputs.rollback_text(*result)), busy="откат / rolling back")


@app.command()
def reopen(
    name: Annotated[str, typer.Argument(help="game name")],
    player: Annotated[str, typer.Option("--player", help="whose frozen post to reopen")],
    reason: Annotated[str, typer.Option("--reason", help="why; shown in the public chronicle")],
    db: DbOption = None,
) -> None:
    """Let a player change a post frozen by a rollback. / Открыть замороженный приказ."""
    from voevoda.core import outputs

    def action() -> "tuple[Game, int]":
        with _store(db).change(name) as game:
            step = game.reopen(game.find_player(player), reason, at=_now())
        return game, step

    run_guarded(action, lambda result: print_text(outputs.reopen_text(result[0], player, result[1])), busy="открытие приказа / reopening")


@app.command()
def edit(
    name: Annotated[str, typer.Argument(help="game name")],
    patch: Annotated[Path, typer.Option("--patch", help="RFC 6902 JSON Patch file")],
    reason: Annotated[str, typer.Option("--reason", help="why; shown in the public chronicle")],
    db: DbOption = None,
) -> None:
    """Edit the state with a reason (validated, audited). / Правка состояния ведущим.

    The result must pass the game's state schema and invariants, else nothing is stored."""
    def action() -> None:
        operations = _read_json(patch)
        if not isinstance(operations, list) or not all(isinstance(op, dict) for op in operations):
            raise DataError(f"{patch}: a JSON Patch is a list of operations")
        with _store(db).change(name) as game:
            game.edit(operations, reason, at=_now())

    run_guarded(action, lambda _: print_text("правка внесена / edit applied"), busy="правка / editing")


@app.command()
def reveal(name: Annotated[str, typer.Argument(help="game name")], db: DbOption = None) -> None:
    """Publish the secret of a finished game: sealed rolls and bots become checkable. / Раскрыть секрет."""
    def action() -> str:
        with _store(db).change(name) as game:
            secret: str = game.reveal(at=_now())
        return secret

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
        store = _store(db)
        store.current_step(name)  # a missing game is an error before anything is asked
        if not yes:
            typed = typer.prompt(f"Удалить игру навсегда? Введите её имя / Delete the game for good? "
                                 f"Type its name ({name})", default="", show_default=False)
            if typed.strip() != name:
                raise GameError("имя не совпало: ничего не удалено", "the name did not match: nothing deleted")
        store.delete(name)

    run_guarded(action, lambda _: print_text(f"удалена игра / deleted game {name}"))


@app.command()
def games(db: DbOption = None) -> None:
    """List stored games. / Список игр."""
    from rich.table import Table

    from voevoda.core import outputs

    def action() -> None:
        table = Table("game", "ruleset", "step")
        for row in outputs.games_lines(_store(db).names()):
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
    from voevoda.core import outputs

    def action() -> bool:
        if full and public:
            raise GameError("--full или --public, не оба", "--full or --public, not both")
        game = _load(db, name)
        _write_file(output, outputs.export_text(game, GM if full else PUBLIC))
        return game.revealed

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
    from voevoda.core.verify import replay_problems

    def action() -> "tuple[GameRecord, Game]":
        data, record = _record_from_export(file)
        problems = replay_problems(data)
        if problems:
            raise DataError(f"{file}: " + "; ".join(problems[:5]))
        if name:
            record.name = name
        return record, _store(db).import_record(record)

    run_guarded(action, lambda result: print_text(
        f"загружено / imported {result[0].name}, шагов / steps: {result[1].step_number}"),
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
                from voevoda.core import outputs

                export = json.loads(outputs.export_text(_load(db, target), GM))
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

    run_guarded(lambda: run_demo(_store(db), turns))


def _now() -> str:
    from voevoda.store.db import now

    return now()


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
    from voevoda.core.journal import GameRecord
    from voevoda.core.rulesdata import validate
    from voevoda.core.verify import shape_problems

    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise DataError(f"{path}: not a voevoda export (no 'game' field)")
    if "secret" not in data["game"] or "entries" not in data["game"]:
        raise DataError(f"{path}: a public export has no journal; only `voevoda verify` reads it "
                        f"(`voevoda export --full` writes the game master's backup)")
    shape = shape_problems(data)
    if shape:
        raise DataError(f"{path}: " + "; ".join(shape))
    return data, validate(GameRecord, data["game"], f"{path}: game")


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
    app()


__all__ = ["app", "main"]
