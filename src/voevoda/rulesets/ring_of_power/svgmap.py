"""The map a viewer receives, drawn from that viewer's view and the events of the last turn
that viewer may see, nothing else («карта, на которой нарисовано расположение отрядов
игрока (будет рассылаться каждому игроку каждый ход)»).

Holdings are filled and bordered in their owner's colour, units are letters in their owner's
colour, fog is hatched, hexes out of the viewer's sight are dotted, last turn's moves the
viewer saw are arrows and its battles bursts; a legend explains every symbol (docs/maps.md).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from voevoda.core import maps
from voevoda.core.ruleset import Event
from voevoda.core.words import Names
from voevoda.rulesets.ring_of_power.board import board as shared_board
from voevoda.rulesets.ring_of_power.board import split
from voevoda.rulesets.ring_of_power.rules import Rules

SIZE = 30.0
MONSTER = "#6b2a7a"
NUMBER_SIZE = 12.0
"""The hex numbers: readable when a forum shows the 20 × 20 map about 800 pixels wide."""
NUMBER_Y = -0.56
"""Where a hex's number stands (its baseline, in hex sizes from the centre): at the top, inside."""
STACK_SIZE = 12.0
STACK_MIN = 8.0
STACK_Y = 8.0
STACK_LINE = 13.0
STACK_WIDTH = 2 * (1.5 * SIZE - 15.5 - 4)
"""The widest a stack's label may be: it must not reach the numbers of the hexes beside it
(1.5 sizes away, their numbers about 31 pixels wide)."""
MONSTER_AT = (0.6, -0.25)
MONSTER_R = 6.0


def _centre(hex_: str) -> tuple[float, float]:
    col, row = split(hex_)
    x = SIZE + 1.5 * SIZE * (col - 1)
    y = math.sqrt(3) * SIZE * (row - 0.5 + (0.5 if col % 2 == 0 else 0.0))
    return x, y


def _corners(x: float, y: float, size: float = SIZE) -> str:
    return maps.hex_points(x, y, size)


def holding_mark(hex_: str, color: str) -> str:
    """The attributes that colour ``hex_`` as a holding of the player of ``color``."""
    return f'fill="{escape(color)}" fill-opacity="0.42" stroke="none" data-hex="{hex_}"'


def units_mark(hex_: str, index: int, color: str) -> str:
    """The opening of the label of the ``index``-th player's units drawn in ``hex_`` (its font size
    follows: :func:`stack_size`)."""
    x, y = _centre(hex_)
    return (f'<text class="stack" x="{x:.1f}" y="{y + STACK_Y + STACK_LINE * index:.1f}" '
            f'font-weight="bold" text-anchor="middle" fill="{escape(color)}"')


def stack_size(label: str) -> float:
    """The font size a stack's label is drawn at: the usual one, smaller for a long label, so that
    it never runs into the hex numbers beside it."""
    width = maps.text_width(label, STACK_SIZE, bold=True)
    return STACK_SIZE if width <= STACK_WIDTH else max(STACK_MIN, math.floor(STACK_SIZE * STACK_WIDTH / width * 2) / 2)


def stack_lines(labels: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each player's units in a hex as lines that fit: a label too long even at the smallest size
    goes on two lines (the hex has room for two)."""
    if len(labels) != 1:
        return labels
    owner, label = labels[0]
    parts = label.split(" ")
    if maps.text_width(label, STACK_MIN, bold=True) <= STACK_WIDTH or len(parts) < 2:
        return labels
    half = (len(parts) + 1) // 2
    return [(owner, " ".join(parts[:half])), (owner, " ".join(parts[half:]))]


def monster_mark(hex_: str) -> str:
    """The opening of the Chupacabra's glyph in ``hex_``."""
    x, y = _centre(hex_)
    return (f'<circle class="chupacabra" cx="{x + SIZE * MONSTER_AT[0]:.1f}" cy="{y + SIZE * MONSTER_AT[1]:.1f}" '
            f'r="{MONSTER_R:g}"')


def _edge_point(where: str) -> tuple[float, float]:
    if "|" in where:
        a, b = where.split("|")
        (x1, y1), (x2, y2) = _centre(a), _centre(b)
        return (x1 + x2) / 2, (y1 + y2) / 2
    return _centre(where)


def render(view: Mapping[str, Any], rules: Rules, lang: str = "ru", events: Sequence[Event] = (),
           names: Names | None = None, turn: int | None = None) -> str:
    ru = lang == "ru"
    names = names or Names(lang=lang)
    width, height = int(view["map"]["width"]), int(view["map"]["height"])
    board = shared_board(width, height)
    fog = set(view["map"]["fog"])
    visible = set(view.get("visible", []))
    viewer = str(view.get("viewer", "public"))
    colors = {p: v["color"] for p, v in view["players"].items()}
    holdings = view.get("holdings", {})
    monsters = set(view.get("chupacabra_hexes", []))
    units: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for u in view.get("units", []):
        units[u["hex"]][u["owner"]][u["type"]] += 1
    player_view = viewer not in ("gm", "public")
    body_w = SIZE * (1.5 * width + 0.5)
    body_h = math.sqrt(3) * SIZE * (height + 0.5)
    grid, owned, borders, fogged, unseen, labels, marks = [], [], [], [], [], [], []
    for hex_ in board.hexes:
        x, y = _centre(hex_)
        grid.append(f'<polygon points="{_corners(x, y)}" fill="#efe7d2" stroke="#b3a98f" stroke-width="0.8" '
                    f'data-hex="{hex_}"/>')
        holding = holdings.get(hex_)
        if holding:
            color = colors.get(holding["owner"], "#999999")
            owned.append(f'<polygon points="{_corners(x, y)}" {holding_mark(hex_, color)}/>')
            borders.append(f'<polygon points="{_corners(x, y, SIZE - 2.2)}" fill="none" stroke="{escape(color)}" '
                           f'stroke-width="3.2" stroke-opacity="0.95"/>')
        if hex_ in fog:
            fogged.append(f'<polygon points="{_corners(x, y)}" fill="url(#{maps.FOG_PATTERN})" '
                          f'fill-opacity="{0.45 if hex_ in visible and viewer != "gm" else 1}" stroke="none" '
                          'class="fog"/>')
        elif player_view and hex_ not in visible and not holding:
            unseen.append(f'<polygon points="{_corners(x, y)}" fill="url(#{maps.UNSEEN_PATTERN})" stroke="none" '
                          'class="unseen"/>')
        # the number on a pale halo: readable over fog hatching, holdings and arrows alike
        labels.append(maps.text(x, y + SIZE * NUMBER_Y, hex_, size=NUMBER_SIZE, anchor="middle", fill="#4a4236",
                                halo=True, extra=' class="hexno"'))
        lines = []
        for owner_name, kinds in sorted(units.get(hex_, {}).items()):
            label = " ".join(f"{rules.units[k].letter(lang)}{n if n > 1 else ''}"
                            for k, n in sorted(kinds.items(), key=lambda kv: -rules.units[kv[0]].strength))
            lines.append((owner_name, label))
        for i, (owner_name, label) in enumerate(stack_lines(lines)):
            marks.append(f'{units_mark(hex_, i, colors.get(owner_name, "#000"))} font-size="{stack_size(label):g}" '
                         f'stroke="{maps.BACKGROUND}" stroke-width="3" paint-order="stroke" '
                         f'stroke-linejoin="round">{escape(label)}</text>')
        if hex_ in monsters:
            cx, cy = x + SIZE * MONSTER_AT[0], y + SIZE * MONSTER_AT[1]
            marks.append(f'{monster_mark(hex_)} fill="{MONSTER}" stroke="#ffffff" stroke-width="1"/>')
            marks.append(maps.text(cx, cy + 3.5, "Ч" if ru else "X", size=9, weight="bold", anchor="middle",
                                   fill="#ffffff"))
    arrows, battles = _last_turn(events, colors)
    body = "\n".join([*grid, *owned, *fogged, *unseen, *borders, *arrows, *labels, *marks, *battles])
    title = str(view["map"].get("title_ru" if ru else "title_en") or ("Кольцо Власти" if ru else "Ring of Power"))
    after = turn if turn is not None else int(view["turn"]) - 1
    whose = {"gm": "карта ведущего" if ru else "the game master's map",
             "public": "общая карта" if ru else "the public map"}.get(
        viewer, f"карта {names.case(viewer, 'gent')}" if ru else f"{names.case(viewer, 'gent')} map")
    if after >= 1:
        subtitle = (f"{'Кольцо Власти' if ru else 'Ring of Power'} · после хода {after}, приказы на ход {after + 1}"
                    f" · {whose}" if ru else
                    f"Ring of Power · after turn {after}, orders for turn {after + 1} · {whose}")
    else:
        subtitle = (f"Кольцо Власти · начало игры, приказы на ход 1 · {whose}" if ru
                    else f"Ring of Power · the start, orders for turn 1 · {whose}")
    legend = _legend(view, rules, lang, names, player_view, bool(arrows), bool(battles), bool(monsters))
    return maps.framed(body, body_w, body_h, title=title, subtitle=subtitle, legend=legend,
                       legend_title="Условные обозначения" if ru else "Legend")


def _last_turn(events: Sequence[Event], colors: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """Arrows for the steps of last turn's moves the viewer saw («marched» events, each step
    one arrow), bursts for the battles it saw."""
    arrows: list[str] = []
    battles: list[str] = []
    seen_steps: set[tuple[str, str, str]] = set()
    for e in events:
        d = e.data
        if e.kind == "marched":
            key = (str(d["player"]), str(d["from"]), str(d["to"]))
            if key in seen_steps:
                continue
            seen_steps.add(key)
            (x1, y1), (x2, y2) = _centre(key[1]), _centre(key[2])
            shrink = 0.16
            arrows.append(maps.arrow(x1 + (x2 - x1) * shrink, y1 + (y2 - y1) * shrink,
                                     x2 - (x2 - x1) * shrink, y2 - (y2 - y1) * shrink,
                                     colors.get(key[0], "#000000"), width=3, head=9))
        elif e.kind == "battle":
            x, y = _edge_point(str(d["where"]))
            battles.append(maps.battle_mark(x - SIZE * 0.45, y + SIZE * 0.1, 8))
    return arrows, battles


def _legend(view: Mapping[str, Any], rules: Rules, lang: str, names: Names, player_view: bool,
            arrows: bool, battles: bool, monsters: bool) -> list[maps.LegendEntry]:
    ru = lang == "ru"
    out: list[maps.LegendEntry] = []
    for p, v in view["players"].items():
        color = str(v["color"])
        symbol = (f'<polygon points="{maps.hex_points(12, 10, 9.5)}" fill="{escape(color)}" fill-opacity="0.42" '
                  f'stroke="{escape(color)}" stroke-width="2.5"/>')
        gone = "" if v.get("alive", True) else (" (выбыл)" if ru and names.gender(p) != "f" else
                                               " (выбыла)" if ru else " (out)")
        label = (f"владения {names.case(p, 'gent')}{gone}" if ru else f"{p}'s holdings{gone}")
        if not view.get("holdings") and not player_view:
            label = (f"цвет {names.case(p, 'gent')}{gone}" if ru else f"{p}'s colour{gone}")
        out.append(maps.LegendEntry(symbol, label))
    for kind, stats in sorted(rules.units.items(), key=lambda kv: -kv[1].strength):
        out.append(maps.LegendEntry(maps.legend_symbol_text(stats.letter(lang)),
                                    f"{stats.name(lang).lower() if ru else stats.name(lang)}"
                                    + (f" (сила {stats.strength}); «{stats.letter(lang)}2» — два таких отряда"
                                       if ru and kind == "pawn" else
                                       f" (strength {stats.strength}); '{stats.letter(lang)}2' — two of them"
                                       if kind == "pawn" else
                                       f" (сила {stats.strength})" if ru else f" (strength {stats.strength})")))
    out.append(maps.LegendEntry(f'<polygon points="{maps.hex_points(12, 10, 9.5)}" fill="url(#{maps.FOG_PATTERN})" '
                                'stroke="#8a7f66"/>',
                                "туман: что внутри, не видно даже соседям" if ru
                                else "fog: nobody sees into it, not even from next door"))
    if player_view:
        out.append(maps.LegendEntry(
            f'<polygon points="{maps.hex_points(12, 10, 9.5)}" fill="url(#{maps.UNSEEN_PATTERN})" stroke="#8a7f66"/>',
            "вне видимости: дальше 1 гекса от ваших владений и отрядов" if ru
            else "out of sight: more than 1 hex from your holdings and units"))
    if monsters or view.get("viewer") != "public":
        out.append(maps.LegendEntry(
            '<circle cx="12" cy="10" r="7" fill="#6b2a7a" stroke="#ffffff"/>'
            + maps.text(12, 14, "Ч" if ru else "X", size=10, weight="bold", anchor="middle", fill="#ffffff"),
            "Чупакабра (где она видна)" if ru else "the Chupacabra (where seen)"))
    if arrows:
        out.append(maps.LegendEntry(maps.legend_symbol_arrow("#5a5040"),
                                    "шаг отряда в прошлом ходу (цвет владельца)" if ru
                                    else "a step of a move last turn (owner's colour)"))
    if battles:
        out.append(maps.LegendEntry(maps.legend_symbol_battle(), "бой в прошлом ходу" if ru else "a battle last turn"))
    out.append(maps.LegendEntry(maps.text(12, 14, "0405", size=8, anchor="middle", fill="#4a4236"),
                                "номер гекса: столбец 04, строка 05" if ru else "hex number: column 04, row 05"))
    if not player_view and view.get("viewer") == "public":
        out.append(maps.LegendEntry("", "владения и отряды на общей карте не показываются" if ru
                                    else "holdings and units are not shown on the public map"))
    return out
