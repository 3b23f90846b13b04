"""``voevoda nw ...``: New Worlds tools for a game master.

- ``voevoda nw map-check FILE`` checks a map file (TOML, JSON or YAML) and sums it up;
- ``voevoda nw map-svg FILE -o map.svg`` draws it as the game master sees it at the start;
- ``voevoda nw map-config FILE -o config.json`` writes a game config that carries the map;
- ``voevoda nw gm GAME "владелец C5 Анна" --reason TEXT`` corrects the game by an audited edit
  (docs/new_worlds.md «The game master's tools»); ``--dry-run`` prints the patch only;
- ``voevoda nw event GAME FILE --reason TEXT`` schedules an event of the game master's, kept from
  the players (the patch goes to the GM log only).

Errors name the file and the field, in Russian and English, and exit with status 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from voevoda.cli.common import DbOption, console, run_guarded
from voevoda.core.errors import DataError, GameError

if TYPE_CHECKING:
    from voevoda.core.engine import Game
    from voevoda.rulesets.new_worlds.ruleset import NewWorlds

nw = typer.Typer(name="nw", help="Новые Миры: карты и правки ведущего. / New Worlds: maps and GM edits.",
                 no_args_is_help=True, rich_markup_mode=None)

MapFileArg = Annotated[Path, typer.Argument(help="map file: TOML, JSON or YAML (see data/maps/default.toml)")]


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc


def _checked(file: Path):  # type: ignore[no-untyped-def]
    from voevoda.rulesets.new_worlds.mapdata import check_map, read_map_file
    from voevoda.rulesets.new_worlds.rules import load_rules

    rules = load_rules()
    data = read_map_file(file)
    grid = check_map(data, rules.resources, rules.epoch_ids)
    return rules, data, grid


@nw.command("map-check")
def map_check(file: MapFileArg) -> None:
    """Check a map file. / Проверить файл карты."""
    def action() -> None:
        _, data, grid = _checked(file)
        land = sum(1 for t in grid.tiles if grid.is_land(t))
        continents = sorted({c for t in grid.tiles if (c := grid.continent(t)) is not None})
        regions = sorted(data.regions_info)
        console.print(f"карта / map «{data.name}»: {grid.width}×{grid.height}, суша / land {land}, "
                      f"материков / continents {len(continents)}, ресурсов / deposits {len(data.resources)}, "
                      f"стартов / starts {len(data.starts)}, закрытых частей / closed regions "
                      f"{', '.join(regions) or '—'}", markup=False)
    run_guarded(action)


@nw.command("map-svg")
def map_svg(file: MapFileArg,
            out: Annotated[Path, typer.Option("--out", "-o", help="where to write the SVG")] = Path("map.svg"),
            lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru") -> None:
    """Draw a map file as the game master sees it. / Нарисовать карту."""
    def action() -> None:
        from voevoda.core import outputs
        from voevoda.core.engine import Game
        from voevoda.rulesets.new_worlds.mapdata import read_map_file

        if lang not in ("ru", "en"):
            raise DataError(f"--lang: '{lang}' is not ru or en")
        _checked(file)
        data = read_map_file(file)
        players = [f"{i + 1}" for i in range(len(data.starts))]
        game = Game.create("new-worlds", "map", players, config={"map": data.model_dump()}, seed="map")
        svg = outputs.map_svg(game, "gm", lang)
        assert svg is not None
        _write(out, svg)
        console.print(f"записано / written: {out}", markup=False)
    run_guarded(action)


@nw.command("map-config")
def map_config(file: MapFileArg,
               out: Annotated[Path, typer.Option("--out", "-o", help="where to write the config (JSON)")]
               = Path("config.json")) -> None:
    """Make a game config carrying a map. / Настройки игры с этой картой."""
    def action() -> None:
        _, data, _ = _checked(file)
        _write(out, json.dumps({"map": data.model_dump()}, ensure_ascii=False, indent=2) + "\n")
        console.print(f"записано / written: {out}; voevoda new new-worlds --config {out} ...", markup=False)
    run_guarded(action)


@nw.command("gm")
def gm(name: Annotated[str, typer.Argument(help="game name")],
       command: Annotated[str, typer.Argument(help="«владелец C5 Анна», «очки Анна 25», … (docs/new_worlds.md)")],
       reason: Annotated[str, typer.Option("--reason", help="why (shown in the GM log)")] = "",
       dry_run: Annotated[bool, typer.Option("--dry-run", help="print the patch, change nothing")] = False,
       db: DbOption = None) -> None:
    """Correct the game: an audited edit written for you. / Правка ведущего."""
    def action() -> None:
        from voevoda.rulesets.new_worlds.gm import gm_patch, when_it_applies
        from voevoda.service import OPERATOR, Service

        later: list[tuple[str, str] | None] = [None]

        def write(game: Game) -> list[dict[str, Any]]:
            ruleset = _new_worlds(game, name)
            patch = gm_patch(ruleset, game.state, command)
            later[0] = when_it_applies(ruleset, game.state, patch)
            return patch

        service = Service(db)
        if dry_run:
            patch = service.draft_patch(OPERATOR, name, write)
            console.print(json.dumps(patch, ensure_ascii=False, indent=2), markup=False)
            return
        if not reason.strip():
            raise GameError("правка требует причины (--reason)", "an edit needs a reason (--reason)")
        patch = service.edit(OPERATOR, name, step=None, patch=write, reason=reason)
        if later[0] is None:
            console.print(f"правка принята / edit applied ({len(patch)}): {command}", markup=False)
        else:
            # a queued command changes nothing until the turn is resolved: say so
            console.print(f"правка записана, {later[0][0]} / edit stored, {later[0][1]}: {command}", markup=False)
    run_guarded(action)


@nw.command("event")
def event(name: Annotated[str, typer.Argument(help="game name")],
          file: Annotated[Path, typer.Argument(help="one event: TOML, JSON or YAML (docs/new_worlds.md «Events»)")],
          reason: Annotated[str, typer.Option("--reason", help="why (shown in the chronicle; the event stays secret)")] = "",
          db: DbOption = None) -> None:
    """Schedule a secret event of the game master. / Запланировать тайное событие ведущего."""
    def action() -> None:
        from voevoda.core.rulesdata import read_house_rules
        from voevoda.rulesets.new_worlds.gm import schedule_patch
        from voevoda.service import OPERATOR, Service

        raw = read_house_rules(file)
        if not reason.strip():
            raise GameError("правка требует причины (--reason)", "an edit needs a reason (--reason)")
        Service(db).edit(OPERATOR, name, step=None, reason=reason,
                         patch=lambda game: schedule_patch(_new_worlds(game, name), game.state, raw))
        console.print(f"событие запланировано / event scheduled: {raw.get('id')}", markup=False)
    run_guarded(action)


def _new_worlds(game: Game, name: str) -> NewWorlds:
    from voevoda.rulesets.new_worlds.ruleset import NewWorlds

    if not isinstance(game.ruleset, NewWorlds):
        raise GameError(f"«{name}» — не игра «Новые Миры»", f"'{name}' is not a New Worlds game")
    return game.ruleset


def register(app: typer.Typer) -> None:
    app.add_typer(nw, name="nw")
