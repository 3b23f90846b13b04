"""Battle reports a player can follow: text, BBCode (forums) and an SVG strength chart.

Built from a battle's result (summary, events, timeline) alone, which is what a view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from voevoda.core.words import count_en, count_ru
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.posts import MANOEUVRE_EN, MANOEUVRE_RU
from voevoda.rulesets.steel_rose.rules import Rules

ROUNDS = ("раунд", "раунда", "раундов")
ROUNDS_GENITIVE = ("раунда", "раундов", "раундов")
SHOTS = ("выстрел", "выстрела", "выстрелов")


class _Words:
    def __init__(self, rules: Rules, lang: str) -> None:
        self.rules = rules
        self.ru = lang == "ru"

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def unit(self, uid: str) -> str:
        u = self.rules.units.get(uid)
        if u is None:
            return uid
        return u.name_ru if self.ru else u.name_en

    def units(self, counts: Mapping[str, int]) -> str:
        if not counts:
            return "—"
        return ", ".join(f"{self.unit(u)} ×{n}" for u, n in counts.items())

    def pos(self, position: str | None) -> str:
        if not position:
            return "—"
        return fld.label_ru(position) if self.ru else fld.label_en(position)


def _losses_line(w: _Words, names: list[str], losses: list[Mapping[str, Mapping[str, int]]],
                 event: Mapping[str, Any] | None = None) -> str:
    parts = []
    for side, per in enumerate(losses):
        for squad, counts in per.items():
            parts.append(f"{squad} ({names[side]}): −{w.units(counts)}")
    line = "; ".join(parts) if parts else w.t("без потерь", "no losses")
    extra = []
    for side, n in enumerate((event or {}).get("sacrifices", [0, 0])):
        if n:
            extra.append(w.t(f"жертвы культистов ({names[side]}): {n}",
                             f"cultists sacrificed ({names[side]}): {n}"))
    for side, n in enumerate((event or {}).get("summoned", [0, 0])):
        if n:
            extra.append(w.t(f"призвано низших демонов ({names[side]}): {n}",
                             f"lesser demons summoned ({names[side]}): {n}"))
    return line + (" (" + "; ".join(extra) + ")" if extra else "")


def battle_text(result: Mapping[str, Any], rules: Rules, lang: str = "ru", fmt: str = "text") -> str:
    """The report of one battle (``fmt``: ``text`` or ``bbcode``)."""
    w = _Words(rules, lang)
    bb = fmt == "bbcode"

    def head(text: str) -> str:
        return f"[b]{text}[/b]" if bb else f"== {text} =="

    summary = result["summary"]
    events = result["events"]
    names = [s["name"] for s in summary["sides"]]
    out: list[str] = []
    title = w.t("Битва", "Battle") + f": {names[0]} — {names[1]}"
    out.append(f"[size=150][b]{title}[/b][/size]" if bb else title)
    for ev in events:
        kind = ev["kind"]
        if kind == "deployment":
            out.append(head(w.t("Расстановка", "Deployment")))
            for side in ev["sides"]:
                out.append(f"{side['name']} ({side['faction']}):")
                for sq in side["squads"]:
                    out.append(f"  {sq['squad']} {w.pos(sq['position'])}: {w.units(sq['units'])}")
                for note in side.get("notes", []):
                    out.append("  " + w.t(f"Примечание: {note['ru']}", f"Note: {note['en']}"))
        elif kind == "gunpowder":
            stock = ev["stock"] if ev["stock"] is not None else w.t("сколько нужно", "as needed")
            out.append(w.t(f"Порох ({names[ev['side']]}): запас {stock}, нужно {ev['needed']}, выдано "
                           f"{ev['supplied']}; без пороха выведены из строя: {w.units(ev['withdrawn'])}",
                           f"Gunpowder ({names[ev['side']]}): stock {stock}, needed {ev['needed']}, "
                           f"supplied {ev['supplied']}; withdrawn for lack of powder: {w.units(ev['withdrawn'])}"))
            for share in ev.get("shares", []):
                whom = w.pos(share["position"]) if share.get("position") else w.unit(share["unit"])
                out.append("  " + w.t(f"выделено: {whom} — {share['amount']}, выдано {share['supplied']}",
                                      f"share: {whom} — {share['amount']}, supplied {share['supplied']}")
                           + (w.t(f"; без пороха: {w.units(share['withdrawn'])}",
                                  f"; without powder: {w.units(share['withdrawn'])}") if share["withdrawn"] else ""))
        elif kind == "cover":
            out.append(f"{ev['squad']}: " + w.t("в укрытие", "takes cover"))
        elif kind == "volley":
            if ev.get("target") is None:
                out.append(f"{ev['squad']}: " + w.t("обстрел — цели нет", "volley — no target"))
            else:
                out.append(f"{ev['squad']}: " + w.t(
                    f"{'дальнобойный ' if ev.get('long') else ''}обстрел по {ev['target']} "
                    f"({w.pos(ev['position'])}), {count_ru(ev['shots'], SHOTS)}, урон {ev['damage']}",
                    f"{'long-range ' if ev.get('long') else ''}volley at {ev['target']} "
                    f"({w.pos(ev['position'])}), {count_en(ev['shots'], 'shot')}, {ev['damage']} damage"))
        elif kind == "volley_losses":
            out.append(w.t("Потери от обстрелов: ", "Volley losses: ") + _losses_line(w, names, ev["losses"]))
        elif kind == "defend":
            out.append(f"{ev['squad']}: " + w.t(f"защищает {w.pos(ev['position'])}",
                                                f"defends the {w.pos(ev['position'])}"))
        elif kind == "charge":
            if ev.get("cancelled"):
                out.append(f"{ev['squad']}: " + w.t("натиск сорван — цель уже не в арьергарде",
                                                    "charge called off — the target is no longer a rearguard"))
                continue
            out.append(f"{ev['squad']}: " + w.t(f"натиск на {ev['target']} ({w.pos(ev['position'])})",
                                                f"charges {ev['target']} ({w.pos(ev['position'])})"))
            for f in ev["fights"]:
                role = w.t("защитник", "defender") if f["defender"] else w.t("арьергард", "rearguard")
                out.append(f"  {w.t('против', 'against')} {f['opponent']} ({role}), "
                           f"{w.t(count_ru(f['rounds'], ROUNDS), count_en(f['rounds'], 'round'))}: " + _losses_line(w, names, f["losses"], f))
        elif kind == "move":
            if ev.get("blocked"):
                out.append(f"{ev['squad']}: " + w.t(f"не смог перейти в {w.pos(ev['to'])}",
                                                    f"could not move to the {w.pos(ev['to'])}"))
            else:
                out.append(f"{ev['squad']}: {w.pos(ev['from'])} → {w.pos(ev['to'])}"
                           + (w.t(f" (обмен с {ev['swap']})", f" (swapped with {ev['swap']})") if ev.get("swap") else ""))
        elif kind == "step_up":
            out.append(f"{ev['squad']} " + w.t(f"выступает вперёд в авангард ({fld.FLANK_RU[ev['flank']]} фланг)",
                                               f"steps up into the {ev['flank']} vanguard"))
        elif kind == "round":
            phase = w.t("Столкновение", "Clash") if ev["phase"] == "clash" else w.t("Завершение", "Final melee")
            where = ""
            if ev.get("flanks"):
                where = " [" + ", ".join(fld.FLANK_RU[f] if w.ru else f for f in ev["flanks"]) + "]"
            out.append(f"{phase}, {w.t('раунд', 'round')} {ev['round']}{where}: "
                       + _losses_line(w, names, ev["losses"], ev))
        elif kind == "final":
            out.append(head(w.t("Завершение", "Final melee")))
            flanked = ev.get("flanked")
            note = w.t("фланкирования нет", "no flanking") if flanked is None else w.t(
                f"{names[flanked]} фланкирован (+25% к получаемому урону)", f"{names[flanked]} is flanked (+25% damage taken)")
            out.append(w.t(f"Выжившие отряды: {ev['squads'][0]} против {ev['squads'][1]}; ",
                           f"Surviving squads: {ev['squads'][0]} against {ev['squads'][1]}; ") + note)
    out.append(head(w.t("Итог", "Result")))
    winner = summary.get("winner")
    if winner is None:
        out.append(w.t(f"Ничья после {count_ru(summary['rounds'], ROUNDS_GENITIVE)}",
                       f"A draw after {count_en(summary['rounds'], 'round')}"))
    else:
        out.append(w.t(f"Победа: {names[winner]} за {count_ru(summary['rounds'], ROUNDS)}",
                       f"Winner: {names[winner]} in {count_en(summary['rounds'], 'round')}"))
    for side in summary["sides"]:
        out.append(f"{side['name']}:")
        for sq in side["squads"]:
            summoned = f" (+{w.units(sq['summoned'])} {w.t('призвано', 'summoned')})" if sq["summoned"] else ""
            out.append(f"  {sq['squad']}: {w.t('было', 'had')} {w.units(sq['units'])}{summoned}; "
                       f"{w.t('погибли', 'dead')} {w.units(sq['dead'])}; {w.t('выжили', 'survived')} {w.units(sq['survivors'])}")
        out.append("  " + w.t("Раненые вернулись в строй: ", "Wounded back in the ranks: ") + w.units(side["recovered"]))
        out.append("  " + w.t("Возвращаются в армию: ", "Return to the army: ") + w.units(side["returning"]))
        if side["gunpowder_needed"]:
            out.append("  " + w.t(f"Порох потрачен: {side['gunpowder_spent']}", f"Gunpowder spent: {side['gunpowder_spent']}"))
        if side["honour"]:
            out.append("  " + w.t(f"Честь: +{side['honour']:g}", f"Honour: +{side['honour']:g}"))
        if side["meat"]:
            out.append("  " + w.t(f"Мясо ограм: +{side['meat']:g}", f"Meat for the ogres: +{side['meat']:g}"))
        if side["void_hunger"]:
            out.append("  " + w.t(f"Голод пустоты: {side['void_hunger']}", f"Void hunger: {side['void_hunger']}"))
    return "\n".join(out)


def plan_lines(plan: list[Mapping[str, Any]], lang: str = "ru") -> list[str]:
    words = MANOEUVRE_RU if lang == "ru" else MANOEUVRE_EN
    label = fld.label_ru if lang == "ru" else fld.label_en
    return [f"{label(m['squad'])}: {words[m['kind']]} " + ", ".join(label(t) for t in m["targets"])
            for m in plan]


def strength_svg(result: Mapping[str, Any], lang: str = "ru") -> str:
    """Each side's total health through the battle, one point per phase or round."""
    timeline = result["timeline"]
    names = [s["name"] for s in result["summary"]["sides"]]
    width, height, pad = 640, 320, 48
    peak = max([max(p["health"]) for p in timeline] + [1.0])
    n = max(len(timeline) - 1, 1)

    def xy(i: int, v: float) -> str:
        x = pad + (width - 2 * pad) * i / n
        y = height - pad - (height - 2 * pad) * v / peak
        return f"{x:.1f},{y:.1f}"

    colours = ["#b22222", "#1f4e9c"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="#fbf8f0"/>',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">'
             + escape("Сила сторон (здоровье)" if lang == "ru" else "Strength of each side (health)") + "</text>",
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#333"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#333"/>',
             f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end">{peak:.0f}</text>',
             f'<text x="{pad - 4}" y="{height - pad}" text-anchor="end">0</text>']
    for side in (0, 1):
        points = " ".join(xy(i, p["health"][side]) for i, p in enumerate(timeline))
        parts.append(f'<polyline fill="none" stroke="{colours[side]}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{width - pad}" y="{pad + 16 * side}" text-anchor="end" fill="{colours[side]}">'
                     f"{escape(names[side])}</text>")
    def x_of(i: int) -> float:
        return pad + (width - 2 * pad) * i / n

    before = [i for i, p in enumerate(timeline) if p["phase"] not in ("clash", "final")]
    rounds = [i for i, p in enumerate(timeline) if p["phase"] in ("clash", "final")]
    if before:
        middle = (x_of(before[0]) + x_of(before[-1])) / 2
        parts.append(f'<text x="{middle:.1f}" y="{height - pad + 14}" text-anchor="middle" font-size="10">'
                     + escape("до боя" if lang == "ru" else "before") + "</text>")
    every = max(1, len(rounds) // 10)
    for k, i in enumerate(rounds):
        if k % every == 0 or k == len(rounds) - 1:
            parts.append(f'<text x="{x_of(i):.1f}" y="{height - pad + 14}" text-anchor="middle" font-size="10">'
                         f'{timeline[i]["step"]}</text>')
    finals = [i for i in rounds if timeline[i]["phase"] == "final"]
    if finals:
        x = x_of(finals[0])
        parts.append(f'<line x1="{x:.1f}" y1="{pad}" x2="{x:.1f}" y2="{height - pad}" stroke="#888" '
                     'stroke-dasharray="4 3"/>')
        parts.append(f'<text x="{x + 4:.1f}" y="{pad + 12}" font-size="10" fill="#555">'
                     + escape("завершение" if lang == "ru" else "final melee") + "</text>")
    parts.append(f'<text x="{width / 2}" y="{height - pad + 30}" text-anchor="middle" font-size="10" fill="#555">'
                 + escape("раунд" if lang == "ru" else "round") + "</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def field_svg(view: Mapping[str, Any], rules: Rules, lang: str = "ru") -> str:
    """The battlefield as ``view`` shows it: each side's six positions (the second side on top,
    vanguards facing each other) with the squads standing there. Only deployments present in the
    view are drawn, so a player sees the enemy's only once both have deployed."""
    players = list(view["players"])
    deployments = view.get("deployments", {})
    cell_w, cell_h, pad = 200, 70, 30
    width = pad * 2 + cell_w * 3
    height = pad * 2 + cell_h * 4 + 60
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="#f4efe1"/>']
    colours = ["#b22222", "#1f4e9c"]
    # rows from the top: side 1 rearguard, side 1 vanguard, side 0 vanguard, side 0 rearguard
    rows = [(1, "rearguard"), (1, "vanguard"), (0, "vanguard"), (0, "rearguard")]
    for r, (side, rank) in enumerate(rows):
        y = pad + r * cell_h + (40 if r >= 2 else 0)
        player = players[side] if side < len(players) else ""
        squads = {s["position"]: s for s in deployments.get(player, {}).get("squads", [])}
        for c, flank in enumerate(fld.FLANKS):
            x = pad + c * cell_w
            position = fld.at(flank, rank)
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell_w - 4}" height="{cell_h - 4}" rx="6" '
                         f'fill="#ffffff" stroke="{colours[side]}" stroke-width="1.5"/>')
            label = fld.label_ru(position) if lang == "ru" else fld.label_en(position)
            parts.append(f'<text x="{x + 8}" y="{y + 16}" fill="#777">{escape(label)}</text>')
            squad = squads.get(position)
            if squad:
                items = list(squad["units"].items())
                if len(items) > 3:
                    rest = sum(n for _, n in items[2:])
                    items = [*items[:2], ("", rest)]
                for i, (uid, n) in enumerate(items):
                    unit = rules.units.get(uid)
                    name = (unit.name_ru if lang == "ru" else unit.name_en) if unit else (
                        "ещё" if lang == "ru" else "more")
                    parts.append(f'<text x="{x + 8}" y="{y + 32 + 13 * i}" fill="{colours[side]}">'
                                 f"{escape(name)} ×{n}</text>")
        if r in (0, 3):
            name_y = y - 6 if r == 0 else y + cell_h + 14
            parts.append(f'<text x="{pad}" y="{name_y}" font-size="12" fill="{colours[side]}">{escape(player)}</text>')
    parts.append(f'<line x1="{pad}" y1="{pad + 2 * cell_h + 20}" x2="{width - pad}" y2="{pad + 2 * cell_h + 20}" '
                 'stroke="#999" stroke-dasharray="6 4"/>')
    parts.append("</svg>")
    return "\n".join(parts)
