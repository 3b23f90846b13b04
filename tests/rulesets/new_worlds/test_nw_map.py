"""The map a forum reader reads (issue 29 item 5): every country's name on its land, no label
over another (measured with the boxes of the fonts the map is rendered with), and resource
labels that cannot be taken for a column of the map (cotton's «Хл», never «Х» beside column
«X»)."""

from __future__ import annotations

import itertools
import re
from html import unescape

import pytest

from tests.rulesets.new_worlds.nw_helpers import make_game, play
from voevoda.core.errors import DataError
from voevoda.core.ruleset import PUBLIC, Event
from voevoda.rulesets.new_worlds import NewWorlds, labels
from voevoda.rulesets.new_worlds.mapdata import column_name
from voevoda.rulesets.new_worlds.rules import load_rules

TEXT = re.compile(r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)"( font-weight="bold")? '
                  r'text-anchor="(\w+)"[^>]*>([^<]*)</text>')
CIRCLE = re.compile(r'<circle[^>]* cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.]+)"')
POLYGON = re.compile(r'<polygon class="(?:building|battle)" points="([^"]+)"')


def body_of(svg: str) -> str:
    """The drawn board: the map's group, without the frame's title and legend."""
    start = svg.index('<g transform="translate(')
    legend = svg.find('<g class="legend"')
    return svg[start:legend if legend >= 0 else len(svg)]


def label_boxes(svg: str) -> list[tuple[str, labels.Box]]:
    """Every label of the board with its box: texts (the axes, resource labels, counts, country
    names), circles (cities, slaves) and the building and battle symbols. A city's number,
    inside its circle, is the circle's."""
    body = body_of(svg)
    shapes: list[tuple[str, labels.Box]] = []
    for m in CIRCLE.finditer(body):
        cx, cy, r = (float(v) for v in m.groups())
        shapes.append((f"circle@{cx:g},{cy:g}", labels.Box(cx - r, cy - r, cx + r, cy + r)))
    for m in POLYGON.finditer(body):
        xs, ys = zip(*((float(a) for a in p.split(",")) for p in m.group(1).split()), strict=True)
        shapes.append((f"symbol@{xs[0]:g},{ys[0]:g}", labels.Box(min(xs), min(ys), max(xs), max(ys))))
    texts = []
    for m in TEXT.finditer(body):
        x, y, size = float(m.group(1)), float(m.group(2)), float(m.group(3))
        content = unescape(m.group(6))
        box = labels.text_box(x, y, content, size, bold=bool(m.group(4)), anchor=m.group(5))
        if any(box.inside(b) for name, b in shapes if name.startswith("circle")):
            continue
        texts.append((content, box))
    return shapes + texts


def collisions(svg: str) -> list[tuple[str, str]]:
    found = label_boxes(svg)
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(found, 2) if box_a.overlaps(box_b)]


def crowded() -> tuple[NewWorlds, dict, list[Event]]:
    """Every mark a tile can carry, side by side: cities with ports, universities, factories,
    deposits, slaves, tiles taken in battle, two-word names, one-tile countries."""
    ruleset, state = make_game(
        players=("Анна", "Борис", "Вера", "Глеб"), epoch="industrial",
        land={"Анна": "B2 C2 D2 B3 C3 D3 B4 C4 D4", "Борис": "E2 F2 E3 F3 E4 F4", "Вера": "M2", "Глеб": "O2"},
        cities={"B2": 2, "C3": 1, "E3": 0, "M2": 0}, buildings={"B2": "port", "C3": "university", "E3": "factory:military"},
        deposits={"B2": "iron", "C3": "cotton", "D4": "ivory", "E3": "jewels", "F4": "coffee", "M2": "wine"},
        slaves={"C3": 2, "D2": 1}, country_fields={"Анна": {"name": "Ромейская держава"}, "Вера": {"name": "Новая Вера"}},
        wars=[{"attacker": "Анна", "defender": "Борис", "type": "total"}])
    state, events = play(ruleset, state, {"Анна": "[b]атака Борис 20: E2 E4[/b]"}, seed="crowded")
    return ruleset, state, events


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_label_over_another_on_a_crowded_board(lang: str) -> None:
    """A tile with a city, a building, a resource, slaves and a battle keeps each mark in its
    own corner, and every country's name stands where it meets none of them."""
    ruleset, state, events = crowded()
    svg = ruleset.map_svg(ruleset.view(state, PUBLIC), PUBLIC, lang, events)  # type: ignore[attr-defined]
    assert svg is not None
    assert collisions(svg) == []
    drawn = set(re.findall(r'class="country-name" data-country="([^"]+)"', svg))
    assert drawn == {"Анна", "Борис", "Вера", "Глеб"}
    if lang == "ru":
        assert ">Ромейская держава</text>" in svg and ">Новая Вера</text>" in svg
    assert 'data-building="port"' in svg and 'data-building="factory"' in svg and 'class="battle"' in svg


def test_a_played_default_map_has_every_name_and_no_collision() -> None:
    """Twelve turns of four computer players on the default map (40 × 28): every country is
    named on the map, and no label meets another."""
    from voevoda.core.engine import Game

    game = Game.create("new-worlds", "labels", ["Анна", "Борис", "Вера", "Глеб"],
                       bots=["Анна", "Борис", "Вера", "Глеб"], seed="labels")
    for _ in range(12):
        game.resolve(force=True)
    svg = game.map_svg(PUBLIC)
    assert svg is not None
    assert collisions(svg) == []
    owners = {str(t["owner"]) for t in game.view(PUBLIC)["tiles"].values() if t.get("owner")}
    drawn = set(re.findall(r'class="country-name" data-country="([^"]+)"', svg))
    assert drawn == owners


def test_a_long_name_on_one_tile_finds_room_or_stays_in_the_legend() -> None:
    """A name longer than its country is wide goes beside it over free land or sea, never over
    a neighbour's marks; the legend names every country whatever happens."""
    ruleset, state = make_game(players=("Анна", "Борис"), land={"Анна": "C3", "Борис": "D3 E3 D4 E4"},
                               cities={"D3": 0, "E3": 0, "D4": 0, "E4": 0}, deposits={"C2": "fur", "C4": "cotton"},
                               country_fields={"Анна": {"name": "Священная Римская империя"}})
    svg = ruleset.map_svg(ruleset.view(state, PUBLIC), PUBLIC)  # type: ignore[attr-defined]
    assert collisions(svg) == []
    assert svg.count(">Священная Римская империя<") == 2   # on the map and in the legend
    assert 'data-country="Анна"' in svg


def test_resource_labels_cannot_be_read_as_a_column() -> None:
    """Every resource's label, Russian and English, has two letters with a small one among
    them, so that none reads as a column name (columns are capitals: A … Z, AA …), and no two
    resources share one."""
    rules = load_rules()
    columns = {column_name(i) for i in range(60)}
    # Cyrillic capitals a reader takes for Latin ones
    homoglyphs = str.maketrans("АВСЕНКМОРТХУ", "ABCEHKMOPTXY")
    for lang in ("ru", "en"):
        shown = [rules.resources[r].label(lang) for r in rules.resources]
        assert len(set(shown)) == len(shown), shown
        for label in shown:
            assert len(label) >= 2 and any(ch.islower() for ch in label), label
            assert label.translate(homoglyphs) not in columns, label
    assert rules.resources["cotton"].label("ru") == "Хл"


def test_a_house_rule_cannot_bring_back_a_one_letter_label() -> None:
    """The labels are data a house rule may change, checked at load: «Х» is refused with its
    field named."""
    with pytest.raises(DataError, match="resources.cotton.letter"):
        load_rules({"resources": {"cotton": {"letter": "Х"}}})
