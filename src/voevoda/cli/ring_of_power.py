"""``voevoda rop ...``: Ring of Power tools for a game master.

- ``voevoda rop map-check FILE`` checks a map file (TOML, JSON or YAML) and sums it up;
- ``voevoda rop map-svg FILE --out map.svg`` draws the bare map (fog and start positions);
- ``voevoda rop map-config FILE --out config.json`` writes a game config that carries the
  map, for ``voevoda new ring-of-power --config config.json``.

Errors name the file and the field, in Russian and English, and exit with status 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from voevoda.cli.common import console, run_guarded
from voevoda.core.errors import DataError

rop = typer.Typer(name="rop", help="Кольцо Власти: карты и настройки. / Ring of Power: maps and options.",
                  no_args_is_help=True, rich_markup_mode=None)

MapFile = Annotated[Path, typer.Argument(help="map file: TOML, JSON or YAML (see data/maps/default.toml)")]


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc


@rop.command("map-check")
def map_check(file: MapFile) -> None:
    """Check a map file. / Проверить файл карты."""
    def action() -> None:
        from voevoda.rulesets.ring_of_power.rules import read_map_file

        data = read_map_file(file)
        console.print(f"карта / map «{data.name}»: {data.width}×{data.height} = {data.width * data.height} "
                      f"гексов / hexes, туман / fog {len(data.fog)}, стартов / starts {len(data.starts)} "
                      f"(игроков / players 2–{len(data.starts)})", markup=False)
    run_guarded(action)


@rop.command("map-svg")
def map_svg(file: MapFile,
            out: Annotated[Path, typer.Option("--out", help="where to write the SVG")] = Path("map.svg"),
            lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru") -> None:
    """Draw a map file's bare board. / Нарисовать пустую карту."""
    def action() -> None:
        if lang not in ("ru", "en"):
            raise DataError(f"--lang: '{lang}' is not ru or en")
        from voevoda.rulesets.ring_of_power.rules import load_rules, read_map_file
        from voevoda.rulesets.ring_of_power.svgmap import render

        data = read_map_file(file)
        rules = load_rules()
        view = {
            "viewer": "gm", "turn": 0,
            "map": {"name": data.name, "title_ru": data.title_ru, "title_en": data.title_en,
                    "width": data.width, "height": data.height, "fog": data.fog},
            "players": {f"{i + 1}": {"color": rules.colors.players[i % len(rules.colors.players)]}
                        for i in range(len(data.starts))},
            "holdings": {h: {"owner": f"{i + 1}"} for i, s in enumerate(data.starts) for h in s.holdings},
            "units": [],
        }
        _write(out, render(view, rules, lang))
        console.print(f"записано / written: {out}", markup=False)
    run_guarded(action)


@rop.command("map-config")
def map_config(file: MapFile,
               out: Annotated[Path, typer.Option("--out", help="where to write the config (JSON)")] = Path("config.json"),
               ) -> None:
    """Make a game config carrying a map. / Настройки игры с этой картой."""
    def action() -> None:
        from voevoda.rulesets.ring_of_power.rules import read_map_file

        data = read_map_file(file)
        _write(out, json.dumps({"map": data.model_dump()}, ensure_ascii=False, indent=2) + "\n")
        console.print(f"записано / written: {out}; voevoda new ring-of-power --config {out} ...", markup=False)
    run_guarded(action)


def register(app: typer.Typer) -> None:
    app.add_typer(rop, name="rop")
