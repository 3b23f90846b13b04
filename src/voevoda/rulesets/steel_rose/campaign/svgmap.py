"""The road map a viewer receives, as SVG, drawn from that viewer's view alone: cities in their
owners' colours (a circle for a small city, a square for a large one, a hexagon for the ogres'
mobile city on its road), the level inside, ruins crossed out, floating cities ringed, the
battles of the turn marked, and for a player what only it knows (its buildings, the corruption
it sees). A legend explains every sign."""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any

from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, Campaign
from voevoda.rulesets.steel_rose.campaign.orders import MOBILE_ID

COLOURS = {"empire": "#c0392b", "steel_rose": "#7f8c8d", "heaven": "#27ae60", "void_cult": "#6c3483",
           "ogres": "#d35400"}
NOBODY = "#bdb6a6"
MARGIN = 40.0
LEGEND_H = 118.0


def _t(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def map_svg(campaign: Campaign, view: Mapping[str, Any], lang: str = "ru") -> str:
    gmap = campaign.map
    width = gmap.width + 2 * MARGIN
    height = gmap.height + 2 * MARGIN + LEGEND_H
    cities: Mapping[str, Mapping[str, Any]] = view.get("cities", {})
    own = view.get("own_cities") or {}
    me = view.get("me")
    corruption: dict[str, int] = dict(view.get("corruption") or {})
    for intel in (view.get("own") or {}).get("intel", []):
        if intel.get("kind") == "corruption":
            corruption[str(intel["about"])] = int(intel["data"]["level"])
    battles = {b["city"]: b for b in view.get("battles", [])}
    title = escape(f"{gmap.name_ru if lang == 'ru' else gmap.name_en} — "
                   f"{_t(lang, 'ход', 'turn')} {view.get('turn', 1)}")

    def pos(cid: str) -> tuple[float, float]:
        c = gmap.cities[cid]
        return MARGIN + c.x, MARGIN + c.y

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
           f"<title>{title}</title>",
           '<rect width="100%" height="100%" fill="#f7f1e1"/>',
           f'<text x="{MARGIN:.0f}" y="24" font-size="18" font-weight="bold" fill="#3d3425">{title}</text>']
    for a, b in gmap.roads:
        gone = cities.get(a, {}).get("gone") or cities.get(b, {}).get("gone")
        (x1, y1), (x2, y2) = pos(a), pos(b)
        out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#8a7f66" '
                   f'stroke-width="3" stroke-dasharray="{"4 6" if gone else "none"}" opacity="{0.35 if gone else 1}"/>')
    for cid in gmap.cities:
        c = cities.get(cid)
        if c is None:
            continue
        x, y = pos(cid)
        colour = COLOURS.get(str(c.get("owner")), NOBODY)
        opacity = 0.3 if c.get("gone") else 1.0
        r = 20 if c["kind"] == "large" else 14
        if c.get("floating"):
            out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r + 8}" fill="none" stroke="#3498db" '
                       f'stroke-width="3" stroke-dasharray="3 3" data-floating="{cid}"/>')
        if c["kind"] == "large":
            out.append(f'<rect x="{x - r:.0f}" y="{y - r:.0f}" width="{2 * r}" height="{2 * r}" rx="3" '
                       f'fill="{colour}" stroke="#2b2418" stroke-width="{3 if cid in own else 1.5}" '
                       f'opacity="{opacity}" data-city="{cid}"/>')
        else:
            out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r}" fill="{colour}" stroke="#2b2418" '
                       f'stroke-width="{3 if cid in own else 1.5}" opacity="{opacity}" data-city="{cid}"/>')
        label = "✕" if c.get("ruins") else str(c["level"])
        out.append(f'<text x="{x:.0f}" y="{y + 5:.0f}" font-size="14" font-weight="bold" text-anchor="middle" '
                   f'fill="#ffffff">{label}</text>')
        name = gmap.cities[cid].name_ru if lang == "ru" else gmap.cities[cid].name_en
        out.append(f'<text x="{x:.0f}" y="{y + r + 16:.0f}" font-size="13" text-anchor="middle" '
                   f'fill="#2b2418" stroke="#f7f1e1" stroke-width="3" paint-order="stroke">{escape(name)}</text>')
        if cid in own and own[cid].get("buildings"):
            out.append(f'<text x="{x + r + 4:.0f}" y="{y - r + 4:.0f}" font-size="11" fill="#2b2418">'
                       f'⌂{len(own[cid]["buildings"])}</text>')
        if cid in corruption and corruption[cid]:
            out.append(f'<text x="{x - r - 4:.0f}" y="{y - r + 4:.0f}" font-size="11" text-anchor="end" '
                       f'fill="#6c3483" font-weight="bold">☠{corruption[cid]}</text>')
        if cid in battles:
            out.append(f'<text x="{x:.0f}" y="{y - r - 6:.0f}" font-size="16" text-anchor="middle" '
                       f'fill="#b03a2e">⚔</text>')
    mobile = cities.get(MOBILE_ID)
    if mobile is not None and mobile.get("road") and not mobile.get("gone"):
        a, b = mobile["road"]
        (x1, y1), (x2, y2) = pos(a), pos(b)
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        pts = " ".join(f"{x + 15 * math.cos(math.radians(60 * i + 30)):.1f},"
                       f"{y + 15 * math.sin(math.radians(60 * i + 30)):.1f}" for i in range(6))
        out.append(f'<polygon points="{pts}" fill="{COLOURS["ogres"]}" stroke="#2b2418" '
                   f'stroke-width="{3 if me == "ogres" else 1.5}" data-city="{MOBILE_ID}"/>')
        out.append(f'<text x="{x:.0f}" y="{y + 5:.0f}" font-size="13" font-weight="bold" text-anchor="middle" '
                   f'fill="#ffffff">{mobile["level"]}</text>')
        if MOBILE_ID in battles:
            out.append(f'<text x="{x:.0f}" y="{y - 20:.0f}" font-size="16" text-anchor="middle" fill="#b03a2e">⚔</text>')
    out.extend(_legend(campaign, view, lang, MARGIN, gmap.height + 2 * MARGIN + 6, me))
    out.append("</svg>")
    return "\n".join(out)


def _legend(campaign: Campaign, view: Mapping[str, Any], lang: str, x0: float, y0: float, me: Any) -> list[str]:
    out = [f'<text x="{x0:.0f}" y="{y0 + 12:.0f}" font-size="13" font-weight="bold" fill="#3d3425">'
           f'{_t(lang, "Обозначения", "Legend")}</text>']
    x = x0
    y = y0 + 30
    factions = view.get("factions", {})
    for fid in FACTIONS:
        if fid not in factions:
            continue
        f = campaign.faction(fid)
        name = f.name_ru if lang == "ru" else f.name_en
        player = factions[fid].get("player")
        label = f"{name} ({player})" if player else name
        out.append(f'<rect x="{x:.0f}" y="{y - 11:.0f}" width="12" height="12" fill="{COLOURS[fid]}"/>')
        out.append(f'<text x="{x + 16:.0f}" y="{y:.0f}" font-size="12" fill="#2b2418">{escape(label)}</text>')
        x += 30 + 7 * len(label)
        if x > x0 + campaign.map.width - 150:
            x = x0
            y += 18
    y += 22
    signs = [
        ("○", _t(lang, "малый город (цифра — уровень)", "small city (the number is its level)")),
        ("□", _t(lang, "большой город", "large city")),
        ("⬡", _t(lang, "передвижной город огров", "the ogres' mobile city")),
        ("✕", _t(lang, "руины", "ruins")),
        ("◌", _t(lang, "парит в небе", "floating in the sky")),
        ("⚔", _t(lang, "битва этого хода", "a battle this turn")),
    ]
    if me:
        signs.append(("⌂", _t(lang, "ваши постройки (число)", "your buildings (count)")))
        signs.append(("☠", _t(lang, "известная вам порча", "corruption known to you")))
    x = x0
    for glyph, text in signs:
        out.append(f'<text x="{x:.0f}" y="{y:.0f}" font-size="13" fill="#2b2418">{glyph} {escape(text)}</text>')
        x += 40 + 6.5 * len(text)
        if x > x0 + campaign.map.width - 200:
            x = x0
            y += 18
    return out
