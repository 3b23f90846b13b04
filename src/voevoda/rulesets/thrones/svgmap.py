"""The companion's map of the board, drawn from a viewer's view and the events of the turn it may
see, nothing else: a schematic of the second-edition board (each area a node where it lies on
Westeros, each border a line), who holds each area, the units there, power tokens, garrisons,
castles and strongholds, crowns and supply barrels, the holy places (with the bonus in force), the
last turn's marches and battles; framed by :mod:`voevoda.core.maps` with a legend (docs/maps.md).
The board is public at the table, so every viewer's map shows the same board; only the title
says whose it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from voevoda.core import maps
from voevoda.core.ruleset import Event
from voevoda.rulesets.thrones.context import Ctx
from voevoda.rulesets.thrones.rules import UNIT_KINDS

LAND = "#eadfc2"
SEA = "#a8cde6"
PORT = "#cfe3f1"
BORDER_LAND = "#b7a98a"
BORDER_SEA = "#8fb4cf"
HOLY = "#7b3fa0"
GOLD = "#c9a227"
BARREL = "#8b5a2b"
R_LAND = 27.0
R_SEA = 30.0
PAD = 30.0


def _node_shape(kind: str, x: float, y: float, fill: str, stroke: str, width: float, opacity: float = 1.0) -> str:
    if kind == "sea":
        return (f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{R_SEA + 8:.1f}" ry="{R_SEA - 6:.1f}" fill="{fill}" '
                f'fill-opacity="{opacity:g}" stroke="{stroke}" stroke-width="{width:g}"/>')
    if kind == "port":
        return (f'<rect x="{x - 13:.1f}" y="{y - 11:.1f}" width="26" height="22" rx="5" fill="{fill}" '
                f'fill-opacity="{opacity:g}" stroke="{stroke}" stroke-width="{width:g}"/>')
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_LAND:.1f}" fill="{fill}" fill-opacity="{opacity:g}" '
            f'stroke="{stroke}" stroke-width="{width:g}"/>')


def _castle(x: float, y: float, level: int) -> str:
    """A castle is one small keep, a stronghold two."""
    out = []
    for i in range(level):
        dx = x - 4 - 5 * (level - 1) + 10 * i
        out.append(f'<rect x="{dx:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="#6b5b45" stroke="#fff" '
                   'stroke-width="0.8"/>')
    return "".join(out)


def _crown(x: float, y: float) -> str:
    return (f'<polygon points="{x - 4:.1f},{y + 3:.1f} {x - 4:.1f},{y - 3:.1f} {x - 2:.1f},{y:.1f} {x:.1f},{y - 4:.1f} '
            f'{x + 2:.1f},{y:.1f} {x + 4:.1f},{y - 3:.1f} {x + 4:.1f},{y + 3:.1f}" fill="{GOLD}" stroke="#6b5200" '
            'stroke-width="0.6"/>')


def _barrel(x: float, y: float) -> str:
    return (f'<rect x="{x - 3:.1f}" y="{y - 4:.1f}" width="6" height="8" rx="2" fill="{BARREL}" stroke="#fff" '
            'stroke-width="0.6"/>')


def _star(x: float, y: float, r: float = 7.0, color: str = HOLY) -> str:
    import math

    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = math.radians(36 * i - 90)
        points.append(f"{x + radius * math.cos(a):.1f},{y + radius * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(points)}" fill="{color}" stroke="#fff" stroke-width="0.8"/>'


def _token(x: float, y: float, color: str) -> str:
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5.5" fill="{color}" stroke="#fff" stroke-width="1.5"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="#fff"/>')


def _garrison(x: float, y: float, n: int, color: str) -> str:
    return (f'<path d="M{x - 6:.1f},{y - 6:.1f} h12 v6 q0,6 -6,8 q-6,-2 -6,-8 z" fill="{color}" stroke="#fff" '
            f'stroke-width="0.8"/>' + maps.text(x, y + 3, str(n), size=8, weight="bold", anchor="middle", fill="#fff"))


def render(view: Mapping[str, Any], ctx: Ctx, lang: str = "ru", events: Sequence[Event] = (),
           turn: int | None = None) -> str:
    ru = lang == "ru"
    b = ctx.board
    houses = view.get("houses", {})
    colors = {p: str(seat["color"]) for p, seat in houses.items()}
    names = {p: (ctx.rules.houses[seat["house"]].name(lang) if seat["house"] in ctx.rules.houses else p)
             for p, seat in houses.items()}
    board = view.get("board", {})
    xs = [a.x for a in b.areas.values()]
    ys = [a.y for a in b.areas.values()]
    width = max(xs) + 2 * PAD + 40
    height = max(ys) + 2 * PAD

    def at(area: str) -> tuple[float, float]:
        return b[area].x + PAD, b[area].y + PAD

    body: list[str] = []
    drawn: set[str] = set()
    for a in sorted(b.areas):
        for n in sorted(b.near[a]):
            if n <= a:
                continue
            (x1, y1), (x2, y2) = at(a), at(n)
            both_land = b[a].is_land and b[n].is_land
            color = BORDER_LAND if both_land else BORDER_SEA
            dash = "" if both_land else ' stroke-dasharray="4 3"'
            body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{color}" '
                        f'stroke-width="1.4"{dash}/>')
    marched: list[tuple[str, list[str], bool]] = []
    battles: set[str] = set()
    for e in events:
        if e.kind == "march" and e.data.get("applied"):
            marched.append((str(e.data["player"]), [str(x) for x in e.data["path"]], e.data.get("outcome") == "lost"))
            if e.data.get("outcome"):
                battles.add(str(e.data["path"][-1]))
    for area_id in sorted(b.areas, key=lambda a: (not b[a].is_sea, a)):
        area = b[area_id]
        x, y = at(area_id)
        info = board.get(area_id, {})
        holder = info.get("house")
        base = SEA if area.is_sea else PORT if area.is_port else LAND
        drawn.add(area.type)
        body.append(_node_shape(area.type, x, y, base, "#8a7f66", 1.0))
        if holder is not None and holder in colors:
            color = escape(colors[holder])
            body.append(_node_shape(area.type, x, y, color, color, 2.2, 0.45))
            drawn.add("holder:" + holder)
        label = area.name(lang)
        body.append(maps.text(x, y + (R_SEA - 2 if area.is_sea else R_LAND + 11 if area.is_land else 20), label,
                              size=8.5, anchor="middle", halo=True, extra=f' data-area="{area_id}"'))
        if area.castle_level:
            drawn.add(f"castle{area.castle_level}")
            body.append(_castle(x, y - R_LAND + 6, area.castle_level))
        for i in range(area.crowns):
            drawn.add("crown")
            body.append(_crown(x - R_LAND + 7 + 9 * i, y - 12))
        for i in range(area.supply):
            drawn.add("barrel")
            body.append(_barrel(x + R_LAND - 7 - 8 * i, y - 12))
        units = info.get("units", {})
        letters = []
        for kind in UNIT_KINDS:
            count = int(units.get(kind, 0))
            if count:
                letter = ctx.rules.units[kind].letter(lang)
                letters.append(letter + (str(count) if count > 1 else ""))
                drawn.add("units")
        if letters and holder is not None:
            body.append(maps.text(x, y + 4, " ".join(letters), size=11, weight="bold", anchor="middle",
                                  fill=escape(colors.get(holder, "#222")), halo=True,
                                  extra=f' data-units="{area_id}"'))
        token = info.get("token")
        if token is not None and token in colors:
            drawn.add("token")
            body.append(_token(x + R_LAND - 6, y + 10, escape(colors[token])))
        garrison = int(info.get("garrison", 0) or 0)
        if garrison:
            owner = info.get("house") if not letters else None
            drawn.add("garrison")
            body.append(_garrison(x - R_LAND + 6, y + 10, garrison, escape(colors.get(owner, "#6f6f6f"))))
    card = view.get("card")
    active_holy = None
    if card and card.get("turn") == view.get("turn"):
        try:
            spec = ctx.rules.card(str(card["id"]))
            active_holy = spec.holy if spec.effect == "holy" else None
        except KeyError:
            active_holy = None
    holy_drawn = []
    for hid, h in view.get("holy", {}).items():
        if h.get("area") is None:
            continue
        x, y = at(str(h["area"]))
        on = hid == active_holy
        body.append(_star(x, y - 20, 8 if on else 6.5, "#d4145a" if on else HOLY))
        letter = ctx.rules.holy_place(hid).letter(lang)
        body.append(maps.text(x + 10, y - 16, letter, size=8, weight="bold", fill=HOLY, halo=True))
        holy_drawn.append((hid, on))
    for player, path, lost in marched:
        color = escape(colors.get(player, "#333"))
        points = [at(a) for a in path]
        if lost:
            points = points[:2]
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            # from the rim of the area left, not its centre, so that the units' letters there stay readable
            span = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
            lead = min(0.35, (R_LAND + 2) / span)
            body.append(maps.arrow(x1 + (x2 - x1) * lead, y1 + (y2 - y1) * lead, x2 - (x2 - x1) * 0.25,
                                   y2 - (y2 - y1) * 0.25, color, width=2.2, head=8, dashed=lost))
    for area_id in sorted(battles):
        x, y = at(area_id)
        body.append(maps.battle_mark(x + 14, y - 18, 7))
    legend = _legend(ru, drawn, holy_drawn, colors, names, marched, battles, ctx, lang)
    shown, now = turn, view.get("turn")
    viewer = str(view.get("viewer", "public"))
    whose = {"gm": ("ведущий", "game master"), "public": ("все", "public")}.get(viewer, (names.get(viewer, viewer),) * 2)
    phase = str(view.get("phase", ""))
    title = "Игра престолов: «Дипломатия и торговля»" if ru else "A Game of Thrones: Diplomacy and Trade"
    if shown is not None:
        subtitle = (f"после хода {shown}; карта: {whose[0]}" if ru else f"after round {shown}; map for: {whose[1]}")
    else:
        subtitle = (f"ход {now}, фаза «{_phase(phase, ru)}»; карта: {whose[0]}" if ru
                    else f"round {now}, phase '{_phase(phase, ru)}'; map for: {whose[1]}")
    return maps.framed("\n".join(body), width, height, title=title, subtitle=subtitle, legend=legend,
                       legend_title="Условные обозначения" if ru else "Legend")


def _phase(phase: str, ru: bool) -> str:
    from voevoda.rulesets.thrones.plan import PHASE_NAMES

    pair = PHASE_NAMES.get(phase, (phase, phase))
    return pair[0] if ru else pair[1]


def _legend(ru: bool, drawn: set[str], holy: list[tuple[str, bool]], colors: Mapping[str, str],
            names: Mapping[str, str], marched: list[tuple[str, list[str], bool]], battles: set[str], ctx: Ctx,
            lang: str) -> list[maps.LegendEntry]:
    def t(r: str, e: str) -> str:
        return r if ru else e

    out: list[maps.LegendEntry] = []
    if "land" in drawn:
        out.append(maps.LegendEntry(f'<circle cx="12" cy="10" r="8" fill="{LAND}" stroke="#8a7f66"/>', t("земля", "land")))
    if "sea" in drawn:
        out.append(maps.LegendEntry(f'<ellipse cx="12" cy="10" rx="11" ry="7" fill="{SEA}" stroke="#8a7f66"/>',
                                    t("море", "sea")))
    if "port" in drawn:
        out.append(maps.LegendEntry(f'<rect x="4" y="3" width="16" height="14" rx="4" fill="{PORT}" stroke="#8a7f66"/>',
                                    t("порт", "port")))
    out.append(maps.LegendEntry(f'<line x1="2" y1="10" x2="22" y2="10" stroke="{BORDER_LAND}" stroke-width="1.6"/>',
                                t("граница земель", "border between lands")))
    out.append(maps.LegendEntry(f'<line x1="2" y1="10" x2="22" y2="10" stroke="{BORDER_SEA}" stroke-width="1.6" '
                                'stroke-dasharray="4 3"/>', t("граница с морем или портом", "border with a sea or port")))
    if "castle1" in drawn:
        out.append(maps.LegendEntry(_castle(12, 10, 1), t("крепость (замок малый)", "castle")))
    if "castle2" in drawn:
        out.append(maps.LegendEntry(_castle(12, 10, 2), t("замок (большой)", "stronghold")))
    if "crown" in drawn:
        out.append(maps.LegendEntry(_crown(12, 10), t("корона: доход каждый ход", "crown: income every round")))
    if "barrel" in drawn:
        out.append(maps.LegendEntry(_barrel(12, 10), t("бочка снабжения", "supply barrel")))
    if "units" in drawn:
        for kind in UNIT_KINDS:
            stats = ctx.rules.units[kind]
            example = stats.letter(lang) + ("2" if kind == "footman" else "")
            label = stats.name(lang) + (t(" (с числом — сколько их)", " (with a number: how many)")
                                        if kind == "footman" else "")
            out.append(maps.LegendEntry(maps.legend_symbol_text(example), label))
    if "token" in drawn:
        out.append(maps.LegendEntry(_token(12, 10, "#555"), t("жетон власти на земле", "power token on a land")))
    if "garrison" in drawn:
        out.append(maps.LegendEntry(_garrison(12, 9, 2, "#6f6f6f"), t("гарнизон (серый — нейтральный)",
                                                                     "garrison (grey: neutral)")))
    for hid, on in holy:
        spec = ctx.rules.holy_place(hid)
        label = spec.name(lang) + (t(" — бонус в силе", " — bonus in force") if on else "")
        mark = _star(8, 10, 6.5, "#d4145a" if on else HOLY) + maps.text(
            16, 14, spec.letter(lang), size=8, weight="bold", fill=HOLY, halo=True)
        out.append(maps.LegendEntry(mark, label))
    if marched:
        out.append(maps.LegendEntry(maps.legend_symbol_arrow("#5a5040"), t("поход прошлого шага", "a march of the last step")))
        if any(lost for _, _, lost in marched):
            out.append(maps.LegendEntry(maps.arrow(1, 10, 23, 10, "#5a5040", width=2.2, head=7, dashed=True),
                                        t("неудачная атака", "a failed attack")))
    if battles:
        out.append(maps.LegendEntry(maps.legend_symbol_battle(), t("битва", "battle")))
    for p in sorted(colors):
        if "holder:" + p in drawn:
            color = escape(colors[p])
            out.append(maps.LegendEntry(f'<circle cx="12" cy="10" r="8" fill="{color}" fill-opacity="0.5" '
                                        f'stroke="{color}" stroke-width="2"/>',
                                        t(f"владения: {names.get(p, p)}", f"held by {names.get(p, p)}")))
    return out
