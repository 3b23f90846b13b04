"""Rules as data: every number of document 000 in data/rules.toml, validated at load time and
overridable by house rules; the map format and the shipped map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.new_worlds.nw_helpers import MAP
from voevoda.core.errors import DataError
from voevoda.rulesets.new_worlds import NewWorlds
from voevoda.rulesets.new_worlds.mapdata import (
    DATA,
    Grid,
    check_map,
    load_map,
    normalise_tile,
    split_tile,
    tile_name,
)
from voevoda.rulesets.new_worlds.rules import load_rules

RULES = load_rules()

# «Века» and «VIII. Война, 1, 3»: (die, war points, war duration, start territories, start cities)
EPOCHS = {
    "bronze": (6, 20, 3, 1, 0), "iron": (9, 30, 3, 5, 0), "antiquity": (10, 40, 4, 10, 1),
    "middle_ages": (10, 50, 4, 10, 2), "renaissance": (10, 60, 5, 15, 3), "industrial": (10, 80, 6, 15, 3),
}

# «VIII. Война, 2», transcribed: (type, epoch) -> (price, territories, resources/cities, distance, keep)
WARS = {
    ("resource_grab", "bronze"): (10, 15, 2, 5, None), ("resource_grab", "iron"): (10, 15, 2, 5, None),
    ("large_resource_grab", "iron"): (20, 30, 4, 7, None),
    ("small_conquest", "antiquity"): (10, 20, None, None, None), ("teach_infidels", "antiquity"): (10, 28, None, None, None),
    ("conquest", "antiquity"): (20, 40, None, None, None), ("vassalisation", "antiquity"): (20, None, None, None, 12),
    ("small_conquest", "middle_ages"): (10, 20, None, None, None), ("teach_infidels", "middle_ages"): (10, 28, None, None, None),
    ("conquest", "middle_ages"): (20, 40, None, None, None), ("crusade", "middle_ages"): (20, 52, None, None, None),
    ("large_conquest", "middle_ages"): (30, 60, None, None, None), ("vassalisation", "middle_ages"): (30, None, None, None, 12),
    ("small_conquest", "renaissance"): (10, 20, None, None, None), ("conquest", "renaissance"): (20, 40, None, None, None),
    ("large_conquest", "renaissance"): (40, 60, None, None, None), ("vassalisation", "renaissance"): (40, None, None, None, 16),
    ("small_conquest", "industrial"): (10, 20, None, None, None), ("conquest", "industrial"): (20, 40, None, None, None),
    ("large_conquest", "industrial"): (40, 60, None, None, None), ("vassalisation", "industrial"): (40, None, None, None, 20),
}


@pytest.mark.parametrize("epoch", list(EPOCHS))
def test_epochs_as_the_document_gives_them(epoch: str) -> None:
    """«Века»: «Дайс 5d6, 20 ВО», «Длительность войны: 3 хода», «1 стартовая территория», …"""
    e = RULES.epoch(epoch)
    assert (e.die, e.war_points, e.war_duration, e.start_territories, e.start_cities) == EPOCHS[epoch]


def test_city_and_university_caps_and_upgrades() -> None:
    """«Максимальное количество городов: 5 в Бронзовом веке, 10 в Железном веке, 15 в Античности
    и далее неограниченно»; «Максимальное количество университетов: 3 в Ренессансе, 5 в
    Индустриализации»; upgrades to +2 from the Middle Ages, to +3 in the Industrial Age."""
    caps = [(e.id, e.city_cap, e.university_cap, e.city_upgrades) for e in RULES.epochs]
    assert caps == [("bronze", 5, 0, 0), ("iron", 10, 0, 0), ("antiquity", 15, 0, 0), ("middle_ages", -1, 0, 1),
                    ("renaissance", -1, 3, 1), ("industrial", -1, 5, 2)]


@pytest.mark.parametrize(("key", "values"), sorted(WARS.items()))
def test_war_types_as_the_document_gives_them(key: tuple[str, str], values: tuple[Any, ...]) -> None:
    """«VIII. Война, 2»: every type of every epoch, its price and limits, transcribed."""
    wtype, epoch = key
    entry = RULES.war_types[wtype].epochs[epoch]
    assert (entry.price, entry.territories, entry.targets, entry.distance, entry.keep) == values


def test_war_types_exist_only_in_their_epochs() -> None:
    """«Устаревают: "Захват ресурсов", "Крупный захват ресурсов"» (Античность); «Устаревают:
    "Проучить неверных", "Крестовый поход"» (Ренессанс); universal types in every epoch."""
    declared = {(w, e) for w, spec in RULES.war_types.items() for e in spec.epochs
                if spec.kind not in ("defensive", "total", "independence", "pacify", "punish")}
    assert declared == set(WARS)
    for universal in ("defensive", "total"):
        assert set(RULES.war_types[universal].epochs) == set(EPOCHS)
    for vassal_war in ("independence", "pacify", "punish"):
        assert set(RULES.war_types[vassal_war].epochs) == {"antiquity", "middle_ages", "renaissance", "industrial"}
    assert [RULES.war_types[w].epochs["antiquity"].price for w in ("independence", "pacify", "punish")] == [20, 0, 10]


def test_upgrade_chains() -> None:
    """«Цепочки улучшений»: "Захват ресурсов" → "Крупный захват ресурсов"; "Малое завоевание" →
    "Завоевание" → "Крупное завоевание"; "Проучить неверных" → "Крестовый поход"; "Усмирить вассала"
    → "Наказать вассала" → "Тотальная война"; «"Оборонительную войну" можно улучшить до чего угодно»."""
    chains = {w: spec.upgrades_to for w, spec in RULES.war_types.items() if spec.upgrades_to}
    assert chains == {"defensive": ["*"], "resource_grab": ["large_resource_grab"], "small_conquest": ["conquest"],
                      "conquest": ["large_conquest"], "teach_infidels": ["crusade"], "pacify": ["punish"],
                      "punish": ["total"]}


def test_resources_by_epoch() -> None:
    """«Новые ресурсы - Бронза, Мех, Хлопок» … «Пряности, Сахар»."""
    assert {e.id: e.new_resources for e in RULES.epochs} == {
        "bronze": ["bronze", "fur", "cotton"], "iron": ["wine", "gold", "textiles", "iron"],
        "antiquity": ["salt", "tea", "coffee"], "middle_ages": ["ivory", "jewels"], "renaissance": ["spices", "sugar"],
        "industrial": []}


def test_house_rules_override_and_are_checked() -> None:
    """Rules as data: a house rule changes a number; a wrong one is refused naming its field."""
    assert load_rules({"prices": {"territory": 2}}).prices.territory == 2
    with pytest.raises(DataError, match="prices.territory"):
        load_rules({"prices": {"territory": -1}})
    with pytest.raises(DataError, match="epochs.bronze.new_resources: unknown resource"):
        load_rules({"epochs": [{**RULES.epochs[0].model_dump(), "new_resources": ["mithril"]}]})
    with pytest.raises(DataError, match="war_types.resource_grab.epochs: unknown epoch"):
        load_rules({"war_types": {"resource_grab": {"epochs": {"stone_age": {"price": 1}}}}})
    with pytest.raises(DataError, match="give exactly one of turn, after_epoch or manual"):
        load_rules({"events": {"custom": [{"id": "x", "name_ru": "x", "name_en": "x"}]}})


def test_options_are_checked() -> None:
    """A misspelt option value or epoch is refused by name."""
    with pytest.raises(DataError, match="pattern_bonus"):
        NewWorlds({"pattern_bonus": "both"})
    with pytest.raises(DataError, match="start_epoch"):
        NewWorlds({"start_epoch": "stone"})


# -- the map ----------------------------------------------------------------------------------------

def test_tile_names() -> None:
    """Tiles are named like spreadsheet cells; a post may write Cyrillic lookalikes («С5»)."""
    assert tile_name(0, 0) == "A1" and tile_name(26, 4) == "AA5" and tile_name(39, 27) == "AN28"
    assert split_tile("AN28") == (39, 27)
    assert normalise_tile("с5") == "C5" and normalise_tile("АА12") == "AA12" and normalise_tile("5C") is None


def test_the_cases_map_geometry() -> None:
    """Terrain kinds: a water tile touching land is a coastal sea, others ocean; `=` is ocean;
    «^» is a large mountain; eight neighbours; distance in king's steps."""
    grid = Grid(len(MAP["terrain"][0]), len(MAP["terrain"]), tuple(MAP["terrain"]), tuple(MAP["continents"]))
    assert grid.kind("K2") == "sea" and grid.kind("S9") == "ocean" and grid.kind("M10") == "ocean"
    assert grid.kind("F4") == "mountain" and grid.is_dejure("F4") and not grid.is_land("F4")
    assert grid.is_coast("B2") and not grid.is_coast("D4")
    assert grid.distance("B2", "E4") == 3 and len(grid.neighbours("C3")) == 8
    assert grid.continent("B2") == "A" and grid.continent("S11") == "C" and grid.continent("K2") is None


def test_closed_land_makes_no_coast() -> None:
    """Ruling R40: a sea's kind and a continent come from the open map only."""
    terrain = ("~~~~~", "~.~.~", "~~~~~")
    regions = (".....", "...N.", ".....")
    closed = Grid(5, 3, terrain, None, regions, frozenset({"D2"}))
    opened = Grid(5, 3, terrain, None, regions)
    assert closed.kind("E2") == "ocean" and opened.kind("E2") == "sea"
    assert closed.kind("C2") == "sea"


def _map(**changes: Any) -> dict[str, Any]:
    data = {"name": "t", "terrain": ["~~~~", "~..~", "~..~", "~~~~"], "starts": [{"tile": "B2"}, {"tile": "C3"}]}
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"terrain": ["~~~~", "~.x~", "~..~", "~~~~"]}, "terrain row 2, column 3 (C2): unknown character 'x'"),
    ({"terrain": ["~~~~", "~..~", "~.~", "~~~~"]}, "terrain row 3: 3 tiles, row 1 has 4"),
    ({"continents": ["....", ".A"]}, "continents: 2 rows, the terrain has 4"),
    ({"regions": ["....", ".N..", "....", "...."]}, "regions_info: no entry for region N"),
])
def test_map_shape_errors_name_row_and_column(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_map(inline=_map(**changes))


@pytest.mark.parametrize(("changes", "message"), [
    ({"resources": {"B2": "salt"}}, "salt spawns only in water"),
    ({"resources": {"A1": "gold"}}, "gold must be on land"),
    ({"resources": {"B2": "mithril"}}, "unknown resource 'mithril'"),
    ({"resources": {"Z9": "gold"}}, "Z9 is not a tile of the 4x4 map"),
    ({"starts": [{"tile": "A1"}]}, "starts.1.tile: A1 is not land"),
    ({"starts": [{"tile": "B2"}, {"tile": "B2"}]}, "B2 is already start 1"),
    ({"regions": ["....", ".N..", "....", "...."], "regions_info": {"N": {"name_ru": "С", "name_en": "N"}}},
     "starts.1.tile: B2 lies in a closed region"),
])
def test_map_content_errors(changes: dict[str, Any], message: str) -> None:
    data = load_map(inline=_map(**changes))
    with pytest.raises(DataError, match=message):
        check_map(data, RULES.resources, RULES.epoch_ids)


def test_the_default_map() -> None:
    """The shipped map: 40 × 28, ten starts on open land, a New World closed until the
    Renaissance, every resource of every epoch placed, salt in the water, event places on land."""
    data = load_map("default")
    grid = check_map(data, RULES.resources, RULES.epoch_ids)
    assert (grid.width, grid.height) == (40, 28)
    assert len(data.starts) == 10
    assert data.regions_info["N"].opens_at == "renaissance"
    placed = set(data.resources.values())
    assert placed >= {r for e in RULES.epochs for r in e.new_resources}
    assert all(grid.is_water(t) for t, r in data.resources.items() if r == "salt")
    assert len(data.events.khaganate_tributaries) == 3
    assert (DATA / "maps" / "default.toml").exists()


def test_a_map_from_a_file(tmp_path: Path) -> None:
    """A map in JSON works like TOML (read_map_file), and a config can carry it inline."""
    import json

    from voevoda.rulesets.new_worlds.mapdata import read_map_file

    path = tmp_path / "m.json"
    path.write_text(json.dumps(MAP, ensure_ascii=False), encoding="utf-8")
    data = read_map_file(path)
    assert data.name == "cases"
    ruleset = NewWorlds({"map": data.model_dump()})
    assert ruleset.map_file.starts[0].tile == "B2"
