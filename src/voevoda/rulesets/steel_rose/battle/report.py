"""Battle reports a player can follow: text, BBCode (forums) and an SVG strength chart.

Built from a battle's result (summary, events, timeline) alone, which is what a view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.posts import MANOEUVRE_EN, MANOEUVRE_RU
from voevoda.rulesets.steel_rose.rules import Rules


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
        return ", ".join(f"{n} {self.unit(u)}" for u, n in counts.items())

    def pos(self, position: str | None) -> str:
        if not position:
            return "—"
        return fld.label_ru(position) if self.ru else fld.label_en(position)


def _losses_line(w: _Words, names: list[str], losses: list[Mapping[str, Mapping[str, int]]]) -> str:
    parts = []
    for side, per in enumerate(losses):
        for squad, counts in per.items():
            parts.append(f"{squad} ({names[side]}): −{w.units(counts)}")
    return "; ".join(parts) if parts else w.t("без потерь", "no losses")


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
        elif kind == "gunpowder":
            out.append(w.t(f"Порох ({names[ev['side']]}): запас {ev['stock']}, нужно {ev['needed']}, выдано "
                           f"{ev['supplied']}; без пороха выведены из строя: {w.units(ev['withdrawn'])}",
                           f"Gunpowder ({names[ev['side']]}): stock {ev['stock']}, needed {ev['needed']}, "
                           f"supplied {ev['supplied']}; withdrawn for lack of powder: {w.units(ev['withdrawn'])}"))
        elif kind == "cover":
            out.append(f"{ev['squad']}: " + w.t("в укрытие", "takes cover"))
        elif kind == "volley":
            if ev.get("target") is None:
                out.append(f"{ev['squad']}: " + w.t("обстрел — цели нет", "volley — no target"))
            else:
                out.append(f"{ev['squad']}: " + w.t(
                    f"{'дальнобойный ' if ev.get('long') else ''}обстрел по {ev['target']} "
                    f"({w.pos(ev['position'])}), {ev['shots']} выстрелов, урон {ev['damage']}",
                    f"{'long-range ' if ev.get('long') else ''}volley at {ev['target']} "
                    f"({w.pos(ev['position'])}), {ev['shots']} shots, {ev['damage']} damage"))
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
                           f"{f['rounds']} {w.t('раундов', 'rounds')}: " + _losses_line(w, names, f["losses"]))
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
            out.append(f"{phase}, {w.t('раунд', 'round')} {ev['round']}{where}: " + _losses_line(w, names, ev["losses"]))
        elif kind == "sacrifice":
            out.append("  " + w.t(f"{ev['units']} культист(ов) {names[ev['side']]} приносят себя в жертву",
                                  f"{ev['units']} cultist(s) of {names[ev['side']]} sacrifice themselves"))
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
        out.append(w.t(f"Ничья после {summary['rounds']} раундов", f"A draw after {summary['rounds']} rounds"))
    else:
        out.append(w.t(f"Победа: {names[winner]} за {summary['rounds']} раундов",
                       f"Winner: {names[winner]} in {summary['rounds']} rounds"))
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
    for i, p in enumerate(timeline):
        if p["phase"] in ("deployment", "volleys", "charges", "moves") or i == len(timeline) - 1:
            x = pad + (width - 2 * pad) * i / n
            label = p["phase"] if p["phase"] not in ("clash", "final") else str(p["step"])
            parts.append(f'<text x="{x:.1f}" y="{height - pad + 14}" text-anchor="middle" font-size="9">'
                         f"{escape(label)}</text>")
    parts.append("</svg>")
    return "\n".join(parts)
