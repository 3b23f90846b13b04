"""The Ring of Power map (003 «Видимость»; issue 17 «Maps»): holdings in their owner's colour
and border, units, fog and what is out of sight told apart and explained in a legend, last
turn's moves seen as arrows and battles as bursts, the title and the turn — checked on the
rendered PNG, pixel by pixel."""

from __future__ import annotations

import numpy as np

from tests.pngread import read_png
from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core import maps
from voevoda.rulesets.ring_of_power import svgmap


def rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def at(image: np.ndarray, hex_: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    x, y = svgmap._centre(hex_)
    px, py = int(round(maps.PAD + x + dx)), int(round(maps.HEADER + y + dy))
    r, g, b, _ = image[py, px]
    return int(r), int(g), int(b)


def scenario():
    ruleset, state = make_game(
        ("Анна", "Борис"), holdings={"0505": "Анна", "0506": "Анна", "0808": "Борис"},
        units=[["Анна", "queen", "0505"], ["Анна", "pawn", "0506"], ["Борис", "officer", "0808"],
               ["Борис", "pawn", "0707"]],
        fog=["0303", "0304"])
    state, events = play(ruleset, state, {"Анна": "ход 0505 0605 0606", "Борис": "ход 0707 0606"})
    return ruleset, state, events


def test_the_players_map_shows_what_he_sees_and_explains_it() -> None:
    ruleset, state, events = scenario()
    mine = [e for e in events if e.visible_to("Анна")]
    assert any(e.kind == "marched" and e.data["player"] == "Борис" for e in mine)   # seen entering 0606
    assert any(e.kind == "battle" for e in mine)
    svg = ruleset.map_svg(ruleset.view(state, "Анна"), "Анна", "ru", mine) or ""
    for words in ("Священная Империя", "после хода 1, приказы на ход 2", "карта Анны", "владения Анны",
                  "владения Бориса", "туман", "вне видимости", "шаг отряда в прошлом ходу", "бой в прошлом ходу",
                  "ферзь (сила 4)", "номер гекса"):
        assert words in svg, words
    image = read_png(maps.to_png(svg))
    own = at(image, "0506", dx=-14, dy=6)        # Анна's holding: her red, half transparent
    assert own[0] > own[2] + 60 and own[0] > 180
    border = at(image, "0506", dx=svgmap.SIZE - 3.5)   # and a strong red border
    assert border[0] > 170 and border[1] < 110
    fog = at(image, "0303", dy=8)                 # hatched grey
    assert abs(fog[0] - fog[2]) < 30 and fog[0] < 200
    far = image[int(maps.HEADER + svgmap._centre("1818")[1]) - 6: int(maps.HEADER + svgmap._centre("1818")[1]) + 6,
                int(maps.PAD + svgmap._centre("1818")[0]) - 6: int(maps.PAD + svgmap._centre("1818")[0]) + 6, :3]
    near = at(image, "0405")
    assert near == (0xEF, 0xE7, 0xD2)             # seen and empty: plain
    assert far.std() > 3                          # out of sight: dotted, not plain
    color = state["players"]["Борис"]["color"]
    x1, y1 = svgmap._centre("0707")
    x2, y2 = svgmap._centre("0606")
    seen = image[int(maps.HEADER + (y1 + y2) / 2), int(maps.PAD + (x1 + x2) / 2), :3]
    assert tuple(int(v) for v in seen) == rgb(color)   # Борис's stack seen coming in, in his colour


def test_the_public_map_shows_only_what_is_public() -> None:
    ruleset, state, events = scenario()
    public = [e for e in events if e.visible_to("public")]
    svg = ruleset.map_svg(ruleset.view(state, "public"), "public", "ru", public) or ""
    assert "общая карта" in svg and "не показываются" in svg
    image = read_png(maps.to_png(svg))
    assert at(image, "0505") == (0xEF, 0xE7, 0xD2)   # no holding drawn
    assert 'class="arrow"' not in svg and 'class="battle"' not in svg


def test_the_gm_map_shows_every_move_and_battle() -> None:
    ruleset, state, events = scenario()
    svg = ruleset.map_svg(ruleset.view(state, "gm"), "gm", "en", events) or ""
    assert "game master" in svg and "a step of a move last turn" in svg
    assert svg.count('class="arrow"') >= 3 and 'class="battle"' in svg
    image = read_png(maps.to_png(svg))
    x1, y1 = svgmap._centre("0505")
    x2, y2 = svgmap._centre("0605")
    mid = image[int(maps.HEADER + (y1 + y2) / 2), int(maps.PAD + (x1 + x2) / 2), :3]
    assert tuple(int(v) for v in mid) == rgb(state["players"]["Анна"]["color"])   # her arrow, her colour


def label_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every hex number, stack label and Chupacabra of the map's body, with the box it covers
    (the text measured in the shipped font)."""
    import re

    boxes = []
    for m in re.finditer(r'<text ([^>]*class="(hexno|stack)"[^>]*)>([^<]*)</text>', svg):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
        boxes.append((f"{m.group(2)} {m.group(3)}", maps.text_box(
            float(attrs["x"]), float(attrs["y"]), m.group(3), float(attrs["font-size"]),
            bold=attrs.get("font-weight") == "bold", anchor=attrs.get("text-anchor", "start"))))
    for m in re.finditer(r'<circle class="chupacabra" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg):
        x, y, r = (float(v) for v in m.groups())
        boxes.append(("chupacabra", (x - r, y - r, x + r, y + r)))
    return boxes


def test_hex_numbers_are_readable_and_no_label_runs_into_another() -> None:
    """Issue 30 item 9: the hex numbers were 9 pixels high at the top of a 26-pixel hex, stack labels
    and arrows ran over them and the fog's hatching hid them. On a crowded board — long stacks
    («Ф О К2 П3»), two owners in one hex, a Chupacabra among units, stacks in fog beside each other
    — no hex number, stack label or Chupacabra overlaps another, every number stands on a halo, and
    the numbers are at least 10 pixels high when a forum shows the whole map 800 pixels wide."""
    crowd = ["0505", "0506", "0605", "0606", "0507", "0404", "0303"]
    units = []
    for i, hex_ in enumerate(crowd):
        owner = "Анна" if i % 2 == 0 else "Борис"
        units += [[owner, "queen", hex_], [owner, "officer", hex_], [owner, "condottiere", hex_],
                  [owner, "condottiere", hex_], [owner, "pawn", hex_], [owner, "pawn", hex_], [owner, "pawn", hex_]]
    units += [["Борис", "pawn", "0505"], ["Анна", "officer", "0506"]]   # two owners in one hex
    ruleset, state = make_game(("Анна", "Борис"), holdings={h: "Анна" for h in crowd[::2]}, units=units,
                               fog=["0303", "0404", "0505"], chupacabras=["0606", "0303"])
    for viewer in ("Анна", "gm"):
        svg = ruleset.map_svg(ruleset.view(state, viewer), viewer, "ru", []) or ""
        boxes = label_boxes(svg)
        assert sum(1 for name, _ in boxes if name.startswith("hexno")) == 400
        assert any(name == "stack Ф О К2 П3" for name, _ in boxes) or any("К2 П3" in n for n, _ in boxes)
        assert any(name == "chupacabra" for name, _ in boxes)
        clashes = [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:] if maps.overlap(box_a, box_b)]
        assert not clashes, clashes[:5]
        assert 'class="hexno"' in svg and svg.count('paint-order="stroke"') >= 400   # a halo under every number
        width = float(svg.split('width="', 1)[1].split('"', 1)[0])
        assert svgmap.NUMBER_SIZE * 800 / width >= 10
        image = read_png(maps.to_png(svg))   # it renders, and a number in the fog is dark on a pale halo
        x, y = svgmap._centre("0404")
        patch = image[int(maps.HEADER + y + svgmap.SIZE * svgmap.NUMBER_Y) - 8: int(maps.HEADER + y + svgmap.SIZE
                      * svgmap.NUMBER_Y) + 2, int(maps.PAD + x) - 14: int(maps.PAD + x) + 14, :3].astype(int)
        assert patch.min() < 110 and patch.max() > 230
