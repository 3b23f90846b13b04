"""Battle reports a player can follow, in every report format, and an SVG strength chart.

Built from a battle's result (summary, events, timeline) alone, which is what a view shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from voevoda.core.markup import Document, Inline, Item, Table, bold, render
from voevoda.core.words import Names, counted, inflect_phrase, join_and, number
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.posts import MANOEUVRE_EN, MANOEUVRE_RU
from voevoda.rulesets.steel_rose.battle.words import unit_counted
from voevoda.rulesets.steel_rose.rules import Rules

SOURCES = {
    "melee": ("в ближнем бою", "in melee"),
    "shots": ("от выстрелов", "from shots"),
    "poison": ("от яда", "from poison"),
    "burn": ("от огня", "from burning"),
    "sacrifice": ("от жертв культистов", "from cultists' sacrifices"),
}
RESTORED = {
    "regen": ("регенерацией", "by regeneration"),
    "heal": ("целителями", "by healers"),
    "lifesteal": ("своими ударами", "by its own blows"),
}


class Words:
    """The words of a battle report in one language: units counted, squads and sides named."""

    def __init__(self, rules: Rules, lang: str, result: Mapping[str, Any], names: Names | None = None) -> None:
        self.rules = rules
        self.lang = lang
        self.ru = lang == "ru"
        self.names = names or Names(lang=lang)
        summary = result["summary"]
        self.sides = [str(s["name"]) for s in summary["sides"]]
        self.home: dict[str, tuple[int, str]] = {}
        for i, side in enumerate(summary["sides"]):
            for sq in side["squads"]:
                self.home[str(sq["squad"])] = (i, str(sq.get("home") or sq.get("position") or ""))

    def t(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def unit(self, uid: str) -> str:
        u = self.rules.units.get(uid)
        if u is None:
            return uid
        name = u.name_ru if self.ru else u.name_en
        return name[:1].lower() + name[1:]

    def units(self, counts: Mapping[str, int], nothing: str | None = None) -> str:
        """«12 копейщиков, 4 рыцаря и герой»; "12 spearmen, 4 knights and 1 hero"."""
        parts = []
        for uid, n in counts.items():
            if not n:
                continue
            if n == 1 and self.ru:
                parts.append(self.unit(uid))
            elif uid in self.rules.units:
                parts.append(unit_counted(self.rules, uid, n, self.lang))
            else:
                parts.append(counted(n, self.unit(uid), self.lang))
        return join_and(parts, self.lang) or (nothing if nothing is not None else self.t("никого", "nobody"))

    def pos(self, position: str | None) -> str:
        if not position:
            return "—"
        return fld.label_ru(position) if self.ru else fld.label_en(position)

    def side(self, index: int, case: str = "nomn") -> str:
        return self.names.case(self.sides[index], case)

    def faction(self, fid: str | None) -> str:
        if not fid:
            return ""
        faction = next((f for key, f in self.rules.factions.items() if key == fid), None)
        if faction is None:
            return fid
        return str(faction.name_ru if self.ru else faction.name_en)

    def squad(self, name: str | None, with_side: bool = True) -> str:
        """«A1 Алисы (правый авангард)»: the squad, whose it is and where it stood at the start."""
        if not name:
            return "—"
        side, home = self.home.get(name, (-1, ""))
        if self.ru:
            owner = f" {self.side(side, 'gent')}" if with_side and side >= 0 else ""
            return f"{name}{owner}" + (f" ({self.pos(home)})" if home else "")
        bits = [b for b in (self.sides[side] if with_side and side >= 0 else "", self.pos(home) if home else "") if b]
        return f"{name} ({', '.join(bits)})" if bits else name

    def num(self, value: float) -> str:
        return number(value, self.lang)

    def rounds(self, n: int, case: str = "nomn") -> str:
        return counted(n, "раунд", case=case) if self.ru else counted(n, "round", "en")


def _losses_text(w: Words, losses: Sequence[Mapping[str, Mapping[str, int]]]) -> str:
    parts = [f"{w.squad(squad)} — {w.units(counts)}" for per in losses for squad, counts in per.items()]
    return "; ".join(parts) if parts else w.t("потерь нет", "no losses")


def _specials(w: Words, event: Mapping[str, Any]) -> list[str]:
    out = []
    for side, n in enumerate(event.get("sacrifices", [0, 0])):
        if n:
            # «3 культиста Бориса принесли себя в жертву», «культист Бориса принёс себя в жертву»
            k = int(n)
            one = k % 10 == 1 and k % 100 != 11
            who = w.unit("cultist") if k == 1 else unit_counted(w.rules, "cultist", k)
            out.append(w.t(f"{who} {w.side(side, 'gent')} {'принёс' if one else 'принесли'} себя в жертву",
                           f"one of {w.sides[side]}'s cultists sacrificed himself" if k == 1
                           else f"{k} of {w.sides[side]}'s cultists sacrificed themselves"))
    for side, n in enumerate(event.get("summoned", [0, 0])):
        if n:
            # «демонологи Бориса призвали низшего демона», «… призвали 3 низших демонов»
            k = int(n)
            what = inflect_phrase(w.unit("lesser_demon"), "accs") if k == 1 else \
                unit_counted(w.rules, "lesser_demon", k, case="accs")
            out.append(w.t(f"демонологи {w.side(side, 'gent')} призвали {what}",
                           f"{w.sides[side]}'s demonologists summoned {w.units({'lesser_demon': k})}"))
    return out


def _why(w: Words, name: str, detail: Mapping[str, Any], outnumbered: bool, flanked: bool = False) -> str:
    """Why a squad lost what it lost: the damage it took by source, what restored it, the
    penalties it was under, and what is left of it."""
    taken = detail.get("taken", {})
    total = sum(taken.values())
    parts = []
    if total:
        sources = ", ".join(f"{SOURCES[k][0]} {w.num(v)}" if w.ru else f"{w.num(v)} {SOURCES[k][1]}"
                            for k, v in taken.items())
        parts.append(w.t(f"получено урона {w.num(total)} ({sources})", f"took {w.num(total)} damage ({sources})"))
    healed = detail.get("healed", {})
    if healed:
        parts.append(w.t("восстановлено ", "restored ")
                     + ", ".join(f"{RESTORED[k][0]} {w.num(v)}" if w.ru else f"{w.num(v)} {RESTORED[k][1]}"
                                 for k, v in healed.items()))
    if outnumbered:
        parts.append(w.t("+25% к получаемому урону: противник вдвое многочисленнее",
                         "+25% damage taken: the enemy was twice as many"))
    if flanked:
        parts.append(w.t("+25% к получаемому урону за фланкирование", "+25% damage taken for being flanked"))
    if detail.get("fatigue"):
        fatigue = int(detail["fatigue"])
        parts.append(w.t(f"усталость {fatigue} (−{10 * fatigue}% к наносимому урону)",
                         f"fatigue {fatigue} (−{10 * fatigue}% damage dealt)"))
    left = w.t(f"осталось бойцов: {detail['units']}, здоровья: {w.num(detail['health'])}",
               f"{detail['units']} left with {w.num(detail['health'])} health") if detail.get("units") else w.t(
        "отряд уничтожен", "the squad is destroyed")
    parts.append(left)
    return "; ".join(parts)


def _round_items(w: Words, ev: Mapping[str, Any], flanked: int | None = None) -> list[Inline | Item]:
    """The squads that lost units this round, each with why."""
    detail = ev.get("detail", {})
    squads = detail.get("squads", {})
    outnumbered = set(detail.get("outnumbered", []))
    items: list[Inline | Item] = []
    for per in ev.get("losses", []):
        for name, counts in per.items():
            info = squads.get(name)
            head = w.t(f"{w.squad(name)}: потери — {w.units(counts)}", f"{w.squad(name)} lost {w.units(counts)}")
            side = w.home.get(name, (-1, ""))[0]
            items.append(head + (f"; {_why(w, name, info, name in outnumbered, side == flanked)}" if info else ""))
    return items


def _detail_rows(w: Words, label: str, ev: Mapping[str, Any]) -> list[list[Inline]]:
    detail = ev.get("detail", {})
    outnumbered = set(detail.get("outnumbered", []))
    lost = {name: sum(c.values()) for per in ev.get("losses", []) for name, c in per.items()}
    rows: list[list[Inline]] = []
    for name, d in sorted(detail.get("squads", {}).items()):
        taken, healed = d.get("taken", {}), d.get("healed", {})

        def cell(v: float | None) -> str:
            return w.num(v) if v else ""

        rows.append([label, name, str(lost.get(name, "")) or "", str(d["units"]), w.num(d["health"]),
                     cell(taken.get("melee")), cell(taken.get("shots")), cell(taken.get("poison")),
                     cell(taken.get("burn")), cell(taken.get("sacrifice")),
                     cell(sum(healed.values()) if healed else None), cell(d.get("dealt")),
                     str(d["fatigue"]) if d.get("fatigue") else "", "+25%" if name in outnumbered else ""])
    return rows


DETAIL_HEADER = {
    "ru": ["Когда", "Отряд", "Погибло", "Осталось", "Здоровье", "Ближний бой", "Выстрелы", "Яд", "Огонь",
           "Жертвы", "Лечение", "Нанёс", "Усталость", "Численность"],
    "en": ["When", "Squad", "Died", "Left", "Health", "Melee", "Shots", "Poison", "Fire", "Sacrifices",
           "Healed", "Dealt", "Fatigue", "Outnumbered"],
}


def battle_document(result: Mapping[str, Any], rules: Rules, lang: str = "ru", names: Names | None = None,
                    title: str | None = None) -> Document:
    """The report of one battle: the result first, then the deployment, what happened before
    the clash, each round with why every unit died (damage per round per squad by source, health
    left, rearguard shots, poison, regeneration, burning, fatigue, outnumbering, flanking), the
    aftermath, and every round in full detail in a spoiler (docs/steel_rose/battle.md)."""
    w = Words(rules, lang, result, names)
    summary = result["summary"]
    events = result["events"]
    doc = Document(title or w.t(f"Битва: {w.side(0)} против {w.side(1, 'gent')}",
                                f"Battle: {w.sides[0]} against {w.sides[1]}"))
    winner = summary.get("winner")
    if winner is None:
        doc.paragraph(bold(w.t(f"Ничья после {w.rounds(summary['rounds'], 'gent')}: не устоял никто или бой "
                               "не решился.", f"A draw after {w.rounds(summary['rounds'])}.")))
    else:
        doc.paragraph(bold(w.t(f"{w.names.act(w.sides[winner], 'победил')} за {w.rounds(summary['rounds'], 'accs')}.",
                               f"{w.sides[winner]} won in {w.rounds(summary['rounds'])}.")))
    full: list[list[Inline]] = []
    before: list[Inline | Item] = []
    clash: list[Inline | Item] = []
    final: list[Inline | Item] = []
    quiet: list[int] = []
    flanked_side: int | None = None

    def flush_quiet(target: list[Inline | Item]) -> None:
        if not quiet:
            return
        span = f"{quiet[0]}" if len(quiet) == 1 else f"{quiet[0]}–{quiet[-1]}"
        word = w.t("Раунд" if len(quiet) == 1 else "Раунды", "Round" if len(quiet) == 1 else "Rounds")
        target.append(w.t(f"{word} {span}: без потерь.", f"{word} {span}: no losses."))
        quiet.clear()

    for ev in events:
        kind = ev["kind"]
        if kind == "deployment":
            doc.heading(w.t("Расстановка", "Deployment"))
            items: list[Inline | Item] = []
            for i, side in enumerate(ev["sides"]):
                squads: list[Inline | Item] = [f"{sq['squad']}, {w.pos(sq['position'])}: {w.units(sq['units'])}"
                                               for sq in side["squads"]]
                for note in side.get("notes", []):
                    squads.append(w.t(f"Примечание: {note['ru']}", f"Note: {note['en']}"))
                faction = w.faction(side.get("faction"))
                items.append(Item(f"{w.sides[i]}" + (f" — {faction}" if faction else ""), squads))
            doc.bullets(items)
        elif kind == "gunpowder":
            stock = ev["stock"] if ev.get("stock") is not None else w.t("сколько нужно", "as needed")
            shares: list[Inline | Item] = []
            for share in ev.get("shares", []):
                whom = w.pos(share["position"]) if share.get("position") else w.unit(share["unit"])
                shares.append(w.t(f"выделено: {whom} — {share['amount']}, выдано {share['supplied']}",
                                  f"share: {whom} — {share['amount']}, supplied {share['supplied']}")
                              + (w.t(f"; без пороха: {w.units(share['withdrawn'])}",
                                     f"; without powder: {w.units(share['withdrawn'])}") if share["withdrawn"] else ""))
            line = w.t(f"Порох {w.side(ev['side'], 'gent')}: запас {stock}, нужно {ev['needed']}, выдано "
                       f"{ev['supplied']}", f"{w.sides[ev['side']]}'s gunpowder: stock {stock}, needed {ev['needed']}, "
                       f"supplied {ev['supplied']}")
            if ev.get("withdrawn"):
                line += w.t(f"; без пороха не сражаются: {w.units(ev['withdrawn'])}",
                            f"; without powder, out of the fight: {w.units(ev['withdrawn'])}")
            doc.bullets([Item(line, shares) if shares else line])
        elif kind == "cover":
            before.append(w.t(f"{w.squad(ev['squad'])} уходит в укрытие: урон от обстрела вдвое меньше.",
                              f"{w.squad(ev['squad'])} takes cover: volleys do half damage."))
        elif kind == "volley":
            if ev.get("target") is None:
                before.append(w.t(f"{w.squad(ev['squad'])}: обстрел — цели нет.",
                                  f"{w.squad(ev['squad'])}: volley — no target."))
            else:
                shots = counted(ev["shots"], "выстрел") if w.ru else counted(ev["shots"], "shot", "en")
                long = w.t("дальнобойный обстрел", "long-range volley") if ev.get("long") else w.t("обстрел", "volley")
                before.append(w.t(f"{w.squad(ev['squad'])}: {long} по {w.squad(ev['target'])} — {shots}, "
                                  f"урон {w.num(ev['damage'])}.",
                                  f"{w.squad(ev['squad'])}: {long} at {w.squad(ev['target'])} — {shots}, "
                                  f"{w.num(ev['damage'])} damage."))
        elif kind == "volley_losses":
            if any(ev["losses"]):
                before.append(w.t("Потери от обстрелов: ", "Volley losses: ") + _losses_text(w, ev["losses"]) + ".")
            else:
                before.append(w.t("Обстрелы никого не убили.", "The volleys killed nobody."))
            full.extend(_detail_rows(w, w.t("обстрелы", "volleys"), ev))
        elif kind == "defend":
            before.append(w.t(f"{w.squad(ev['squad'])} защищает {w.pos(ev.get('position'))} от натиска "
                              "(усталость +1).",
                              f"{w.squad(ev['squad'])} guards the {w.pos(ev.get('position'))} against charges "
                              "(fatigue +1)."))
        elif kind == "charge":
            if ev.get("cancelled"):
                before.append(w.t(f"{w.squad(ev['squad'])}: натиск сорван — цель уже не в арьергарде.",
                                  f"{w.squad(ev['squad'])}: charge called off — the target is no longer a rearguard."))
                continue
            fights: list[Inline | Item] = []
            for f in ev["fights"]:
                role = w.t("защитника", "the defender") if f["defender"] else w.t("арьергарда", "the rearguard")
                parts = [w.t(f"бой против {role} {w.squad(f['opponent'])}, {w.rounds(f['rounds'])}; потери: ",
                             f"against {role} {w.squad(f['opponent'])}, {w.rounds(f['rounds'])}; losses: ")
                         + _losses_text(w, f["losses"])]
                parts += _specials(w, f)
                why = _round_items(w, f)
                fights.append(Item("; ".join(parts) + ".", why) if why else "; ".join(parts) + ".")
                full.extend(_detail_rows(w, w.t(f"натиск {ev['squad']}", f"charge {ev['squad']}"), f))
            before.append(Item(w.t(f"{w.squad(ev['squad'])}: натиск на {w.squad(ev['target'])}.",
                                   f"{w.squad(ev['squad'])} charges {w.squad(ev['target'])}."), fights))
        elif kind == "move":
            if ev.get("blocked"):
                before.append(w.t(f"{w.squad(ev['squad'])} не смог перейти на {w.pos(ev['to'])}.",
                                  f"{w.squad(ev['squad'])} could not move to the {w.pos(ev['to'])}."))
            else:
                swap = w.t(f" (обмен местами с {ev['swap']})", f" (swapped with {ev['swap']})") if ev.get("swap") else ""
                before.append(w.t(f"{w.squad(ev['squad'])}: {w.pos(ev['from'])} → {w.pos(ev['to'])}{swap}.",
                                  f"{w.squad(ev['squad'])}: {w.pos(ev['from'])} → {w.pos(ev['to'])}{swap}."))
        elif kind == "step_up":
            target = final if final else clash
            flush_quiet(target)
            target.append(w.t(f"{w.squad(ev['squad'])} выступает вперёд, в авангард {fld.flank_ru(ev['flank'], 'gent')}.",
                              f"{w.squad(ev['squad'])} steps up into the {ev['flank']} vanguard."))
        elif kind == "round":
            label = w.t(f"раунд {ev['round']}", f"round {ev['round']}")
            full.extend(_detail_rows(w, label, ev))
            target = clash if ev["phase"] == "clash" else final
            items = _round_items(w, ev, flanked_side if ev["phase"] == "final" else None)
            notes = _specials(w, ev)
            if not items and not notes:
                quiet.append(int(ev["round"]))
                continue
            flush_quiet(target)
            where = ""
            if ev.get("flanks"):
                flanks = [fld.FLANK_RU[f] if w.ru else f for f in ev["flanks"]]
                where = w.t(f" ({join_and(flanks)} {'фланг' if len(flanks) == 1 else 'фланги'})",
                            f" ({join_and(flanks, 'en')} {'flank' if len(flanks) == 1 else 'flanks'})")
            target.append(Item(w.t(f"Раунд {ev['round']}{where}", f"Round {ev['round']}{where}")
                               + (": " + "; ".join(notes) if notes else ""), items))
        elif kind == "final":
            flush_quiet(clash)
            flanked = ev.get("flanked")
            flanked_side = flanked
            counts = ev["squads"]
            note = w.t(f"Выжило отрядов: у {w.side(0, 'gent')} {counts[0]}, у {w.side(1, 'gent')} {counts[1]}; ",
                       f"Surviving squads: {w.sides[0]} {counts[0]}, {w.sides[1]} {counts[1]}; ")
            note += (w.t("фланкирования нет.", "no flanking.") if flanked is None else
                     w.t(f"у {w.side(flanked, 'gent')} меньше — фланкирование: +25% к получаемому урону.",
                         f"{w.sides[flanked]} has fewer: flanked, +25% damage taken."))
            final.append(note)
    flush_quiet(final if final else clash)
    if before:
        doc.heading(w.t("До столкновения", "Before the clash"))
        doc.bullets(before)
    if clash:
        doc.heading(w.t("Столкновение", "The clash"))
        doc.bullets(clash)
    if final:
        doc.heading(w.t("Завершение", "The final melee"))
        doc.bullets(final)
    doc.heading(w.t("Итог", "Result"))
    rows = []
    for i, side in enumerate(summary["sides"]):
        for sq in side["squads"]:
            had = w.units(sq["units"], "—")
            if sq.get("summoned"):
                had += w.t(f" (+ призвано: {w.units(sq['summoned'])})", f" (+ summoned: {w.units(sq['summoned'])})")
            rows.append([f"{sq['squad']} ({w.pos(sq.get('home') or sq.get('position'))})", w.sides[i], had,
                         w.units(sq["dead"], "—"), w.units(sq["survivors"], "—")])
    doc.table([w.t("Отряд", "Squad"), w.t("Сторона", "Side"), w.t("Было", "Had"), w.t("Погибли", "Dead"),
               w.t("Выжили", "Survived")], rows)
    after: list[Inline | Item] = []
    for i, side in enumerate(summary["sides"]):
        bits = [w.t("раненые вернулись в строй: ", "wounded back in the ranks: ") + w.units(side["recovered"])
                ] if any(side["recovered"].values()) else []
        fell = False  # a city's defenders who fell with it: nobody comes back
        if "returning_army" in side:  # a city's defence in the campaign: the army and the garrison part
            if not side["returning_army"] and not side.get("garrison_stays"):
                bits, fell = [], summary.get("winner") not in (None, i)
            if side["returning_army"]:
                bits.append(w.t("возвращаются в армию: ", "return to the army: ") + w.units(side["returning_army"]))
            if side.get("garrison_stays"):
                bits.append(w.t("гарнизон остаётся в городе: ", "the garrison stays in the city: ")
                            + w.units(side["garrison_stays"]))
        elif side.get("garrison"):  # a city's garrison: it stays in the city it held, or falls with it
            if summary.get("winner") == i:
                bits.append(w.t("гарнизон остаётся в городе: ", "the garrison stays in the city: ")
                            + w.units(side["returning"], "—"))
            else:
                bits, fell = [], summary.get("winner") not in (None, i)
        else:
            bits.append(w.t("возвращаются в армию: ", "return to the army: ") + w.units(side["returning"], "—"))
        if fell:
            bits.append(w.t("защитники пали вместе с городом", "the defenders fell with the city"))
        if side.get("gunpowder_needed"):
            bits.append(w.t(f"порох потрачен: {side['gunpowder_spent']}", f"gunpowder spent: {side['gunpowder_spent']}"))
        if side.get("honour"):
            bits.append(w.t(f"честь: +{w.num(side['honour'])}", f"honour: +{w.num(side['honour'])}"))
        if side.get("meat"):
            bits.append(w.t(f"мясо ограм: +{w.num(side['meat'])}", f"meat for the ogres: +{w.num(side['meat'])}"))
        if side.get("void_hunger"):
            bits.append(w.t(f"голод пустоты: {w.num(side['void_hunger'])}", f"void hunger: {w.num(side['void_hunger'])}"))
        if not bits:  # every side is told what became of it, never a bare name
            bits.append(w.t("никто не вернулся", "nobody came back"))
        after.append(Item(w.sides[i], list(bits)))
    doc.bullets(after)
    if full:
        doc.spoiler(w.t("Все раунды подробно: урон по отрядам", "Every round in full: damage per squad"),
                    [Table(list[Inline](DETAIL_HEADER["ru" if w.ru else "en"]), full, "llrrrrrrrrrrrl")])
    return doc


def battle_text(result: Mapping[str, Any], rules: Rules, lang: str = "ru", fmt: str = "text",
                names: Names | None = None, flavour: str | None = None) -> str:
    """:func:`battle_document` in ``fmt`` (text, bbcode, markdown or telegram)."""
    return render(battle_document(result, rules, lang, names), fmt, flavour)


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


EMPTY_FILL = "#f1ede4"
"""An empty position of a known deployment on the battle map (an unknown one is dotted, with a
question mark)."""


def field_body(view: Mapping[str, Any], rules: Rules, lang: str = "ru",
               viewer: str | None = None) -> tuple[str, float, float]:
    """The battlefield as ``view`` shows it, as SVG to frame (:func:`voevoda.core.maps.framed`),
    with its width and height: each side's six positions (the second side on top, vanguards
    facing each other) with the squads standing there, units counted («10 копейщиков»). Only
    deployments present in the view are drawn, so a player sees the enemy's only once both have
    deployed: a side whose deployment is not known has its positions dotted with a question mark
    («неизвестно»), a known one's free positions are plain and say «пусто» — and so are the
    ``viewer``'s own before he has sent his."""
    from voevoda.core import maps
    from voevoda.rulesets.steel_rose.battle.words import units_text

    players = list(view["players"])
    deployments = view.get("deployments", {})
    cell_w, cell_h, gap = 220.0, 74.0, 40.0
    width = cell_w * 3
    height = cell_h * 4 + gap + 36
    parts: list[str] = []
    colours = ["#b22222", "#1f4e9c"]
    # rows from the top: side 1 rearguard, side 1 vanguard, side 0 vanguard, side 0 rearguard
    rows = [(1, "rearguard"), (1, "vanguard"), (0, "vanguard"), (0, "rearguard")]
    for r, (side, rank) in enumerate(rows):
        y = 18 + r * cell_h + (gap if r >= 2 else 0)
        player = players[side] if side < len(players) else ""
        known = player in deployments or player == viewer
        squads = {s["position"]: s for s in deployments.get(player, {}).get("squads", [])}
        for c, flank in enumerate(fld.FLANKS):
            x = c * cell_w
            position = fld.at(flank, rank)
            squad = squads.get(position)
            fill = "#ffffff" if squad else EMPTY_FILL if known else f"url(#{maps.UNSEEN_PATTERN})"
            dash = ' stroke-dasharray="5 3"' if known and not squad else ""
            parts.append(f'<rect class="{"squad" if squad else "empty" if known else "unknown"}" x="{x + 2:g}" '
                         f'y="{y + 2:g}" width="{cell_w - 4:g}" height="{cell_h - 4:g}" rx="6" '
                         f'fill="{fill}" stroke="{colours[side]}" stroke-width="1.5"{dash}/>')
            label = fld.label_ru(position) if lang == "ru" else fld.label_en(position)
            parts.append(maps.text(x + 8, y + 17, label, size=11, fill="#777777", halo=not known))
            if not squad:
                mark = ("пусто" if lang == "ru" else "empty") if known else "?"
                parts.append(maps.text(x + cell_w / 2, y + cell_h / 2 + 8, mark, size=14 if known else 22,
                                       weight="normal" if known else "bold", anchor="middle",
                                       fill="#9a9284" if known else "#6b6355", halo=not known))
            if squad:
                items = [(uid, n) for uid, n in squad["units"].items() if n]
                if len(items) > 3:
                    rest = sum(n for _, n in items[2:])
                    shown = [units_text(rules, {uid: n}, lang) for uid, n in items[:2]]
                    shown.append(f"и ещё {rest}" if lang == "ru" else f"and {rest} more")
                else:
                    shown = [units_text(rules, {uid: n}, lang) for uid, n in items]
                for i, line in enumerate(shown):
                    parts.append(maps.text(x + 8, y + 34 + 14 * i, line, size=12, fill=colours[side], halo=False))
        if r in (0, 3):
            name_y = y - 4 if r == 0 else y + cell_h + 14
            parts.append(maps.text(0, name_y, player, size=13, weight="bold", fill=colours[side], halo=False))
    middle = 18 + 2 * cell_h + gap / 2
    parts.append(f'<line x1="0" y1="{middle:g}" x2="{width:g}" y2="{middle:g}" stroke="#999" stroke-width="1.5" '
                 'stroke-dasharray="6 4"/>')
    return "\n".join(parts), width, height


def field_svg(view: Mapping[str, Any], rules: Rules, lang: str = "ru") -> str:
    """The battlefield of :func:`field_body` as a picture of its own (no frame)."""
    body, width, height = field_body(view, rules, lang)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="DejaVu Sans, sans-serif">\n'
            f'<rect width="100%" height="100%" fill="#f4efe1"/>\n{body}\n</svg>')
