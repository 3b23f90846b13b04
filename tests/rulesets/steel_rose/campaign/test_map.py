"""The campaign's road map as its players read it (issue 29, item 13): a city's name is never
crossed by a road, a battle's burst stands only where a battle was fought, every sign drawn has
its legend entry (the faded cities of a winner gone from the map, the cult's camp)."""

from __future__ import annotations

import re

from tests.rulesets.steel_rose.campaign.helpers import Campaign

from voevoda.rulesets.steel_rose.campaign.svgmap import CHAR_WIDTH, LABEL_SIZE, MARGIN, _crosses

LABEL = re.compile(r'<text x="(?P<x>[\d.]+)" y="(?P<y>[\d.]+)" font-size="13" text-anchor="(?P<anchor>\w+)"[^>]*>'
                   r"(?P<text>[^<]+)</text>")


def _map(game: Campaign, viewer: str, events: list | None = None) -> str:
    svg = game.rs.map_svg(game.rs.view(game.state, viewer), viewer, "ru", events or [])
    assert svg
    return svg


def _roads(game: Campaign) -> list[tuple[float, float, float, float]]:
    cities = game.rs.campaign.map.cities
    return [(MARGIN + cities[a].x, MARGIN + cities[a].y, MARGIN + cities[b].x, MARGIN + cities[b].y)
            for a, b in game.rs.campaign.map.roads]


def test_no_road_crosses_a_citys_name() -> None:
    """Every name on the default map stands where no road passes (below, above, beside the city
    or on two lines); they all stood below their city, and the roads going south crossed them."""
    game = Campaign()
    svg = _map(game, "public")
    names = {c.name_ru for c in game.rs.campaign.map.cities.values()}
    words = {w for n in names for w in n.split(" ")}
    labels = [m for m in LABEL.finditer(svg) if m["text"] in names or m["text"] in words]
    assert len(labels) >= len(names)
    for m in labels:
        x, y, width = float(m["x"]), float(m["y"]), CHAR_WIDTH * len(m["text"])
        left = x - width / 2 if m["anchor"] == "middle" else x if m["anchor"] == "start" else x - width
        box = (left, y - LABEL_SIZE + 2, left + width, y + 2)
        crossing = [road for road in _roads(game) if _crosses(road, box)]
        assert not crossing, (m["text"], crossing)


def test_a_burst_only_where_a_battle_was_fought() -> None:
    """«битва» in the legend: an attack called off (the city taken first by another faction) has
    no burst of its own (it had one, from the turn's list of battles)."""
    game = Campaign(seed="two-on-black-mire")
    game.edit({"factions.empire.units": {"knight": 40}, "factions.heaven.units": {"wolf": 60}})
    game.turn({"Анна": "Армия 1: все — атака Чёрная Топь (колонизировать)",
               "Вера": "Армия 1: все — атака Чёрная Топь (колонизировать)"})
    battles = game.state["battles"]
    assert sorted(b["status"] for b in battles) == ["called_off", "fought"]
    svg = _map(game, "public", [e for e in game.turn_events if e.visible_to("public")])
    assert svg.count('class="battle"') == 2  # the burst at Чёрная Топь and the legend's


def test_the_faded_cities_of_a_winner_have_a_legend_entry() -> None:
    """«все ваши города поднимаются в небо» / «прямиком в ад»: a winner's cities gone from the map
    are drawn faded, and the legend says what the faded ones are."""
    game = Campaign()
    assert "ушедшие с карты" not in _map(game, "public")
    game.edit({"cities.eldaran.gone": True, "factions.heaven.status": "won"})
    assert "ушедшие с карты с победителем" in _map(game, "public")


def test_the_camp_is_on_the_cults_map_only() -> None:
    """Ruling C53: the cult's camp is drawn on its road on the cult's own map, with its legend
    entry, and on no other viewer's."""
    game = Campaign()
    game.edit({"factions.void_cult.camp": ["morven", "velmar"]})
    cult, empire, public = _map(game, "Глеб"), _map(game, "Анна"), _map(game, "public")
    assert "data-camp" in cult and "ваш лагерь на дороге" in cult
    assert "data-camp" not in empire and "data-camp" not in public and "лагерь" not in public
