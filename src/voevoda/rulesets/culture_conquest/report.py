"""Reports and the chronicle: every event as a line, every roll shown as ``1d6 → 4``.

The caller cuts the events to what the viewer may see (:meth:`Event.visible_to`, or
only ``"*"`` events for the public chronicle); this module only writes them out, as
plain text, BBCode or Markdown, in Russian or English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from voevoda.core.ruleset import Event
from voevoda.core.words import count_en, count_ru

from .data import Tables
from .game import CATEGORY_NAMES

ENEMY_ARMIES = ("армия врага", "армии врага", "армий врага")


def dice(count: int, sides: int, faces: Sequence[int]) -> str:
    shown = " ".join(str(f) for f in faces) if faces else "—"
    return f"{count}d{sides} → {shown}"


class Lines:
    def __init__(self, t: Tables, lang: str) -> None:
        self.t, self.lang = t, lang
        self.ru = lang == "ru"

    def n(self, key: str | None) -> str:
        return self.t.name(key, self.lang) if key else "—"

    def say(self, ru: str, en: str) -> str:
        return ru if self.ru else en

    def pop(self, lost: Mapping[str, Any]) -> str:
        if not lost:
            return self.say("никого", "nobody")
        return ", ".join(f"{CATEGORY_NAMES[c][0 if self.ru else 1].lower()} {n}" for c, n in lost.items())

    # -- one method per event kind -------------------------------------------------

    def culture_roll(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: Таблица Культур {dice(1, d['die'], d['faces'])}",
                        f"{d['player']}: culture table {dice(1, d['die'], d['faces'])}")

    def culture(self, d: Mapping[str, Any]) -> str:
        how = self.say("выбрана", "chosen") if d["chosen"] else self.say("по броску", "by the roll")
        return self.say(f"{d['player']}: культура {self.n(d['culture'])} ({how})",
                        f"{d['player']}: culture {self.n(d['culture'])} ({how})")

    def turn_order(self, d: Mapping[str, Any]) -> str:
        rolls = "; ".join(f"{p} {dice(len(f), d['die'], f)}" for p, f in d["faces"].items())
        return self.say(f"Порядок хода: {', '.join(d['order'])} ({rolls})",
                        f"Turn order: {', '.join(d['order'])} ({rolls})")

    def tech(self, d: Mapping[str, Any]) -> str:
        how = {"culture": ("стартовая", "starting"), "research": ("исследование", "research"),
               "choice": ("выбор", "choice"), "purchase": ("покупка", "purchase"),
               "trade": ("торговля", "trade")}.get(d["how"], (d["how"], d["how"]))
        repl = ""
        if d.get("replaced"):
            names = ", ".join(self.n(x) for x in d["replaced"])
            repl = self.say(f", заменяет {names}", f", replaces {names}")
        return self.say(f"{d['player']}: технология {self.n(d['tech'])} ({how[0]}{repl})",
                        f"{d['player']}: technology {self.n(d['tech'])} ({how[1]}{repl})")

    def growth(self, d: Mapping[str, Any]) -> str:
        extra = f" {d['bonus']:+d}" if d["bonus"] else ""
        lead = f"; +{dice(len(d['leader_faces']), 6, d['leader_faces'])}" if d["leader_faces"] else ""
        return self.say(f"{d['player']}: рост населения {dice(1, 6, d['faces'])}{extra} {d['modifier']:+d}{lead} "
                        f"= +{d['gained']} земледельцев",
                        f"{d['player']}: growth {dice(1, 6, d['faces'])}{extra} {d['modifier']:+d}{lead} "
                        f"= +{d['gained']} farmers")

    def resources(self, d: Mapping[str, Any]) -> str:
        head = ""
        if "faces" in d:
            bonus = f" {d['bonus']:+d}" if d.get("bonus") else ""
            head = f"{dice(1, d['die'], d['faces'])}{bonus}: "
        result = d.get("result")
        if result == "natural":
            body = self.say(f"природный ресурс {dice(1, d['natural_die'], d['natural_faces'])} — {self.n(d['resource'])}",
                            f"natural resource {dice(1, d['natural_die'], d['natural_faces'])} — {self.n(d['resource'])}")
        elif result == "industrial":
            body = self.say(f"промышленный ресурс {self.n(d['resource'])}", f"industrial resource {self.n(d['resource'])}")
        elif result == "industrial_choice":
            body = self.say("выбор промышленного ресурса", "choosing an industrial resource")
        elif result == "no_industry":
            body = self.say("ни один промышленный ресурс недоступен — ничего",
                            "no industrial resource is within reach — nothing")
        else:
            body = self.say("ничего", "nothing")
        return self.say(f"{d['player']}: ресурсы {head}{body}", f"{d['player']}: resources {head}{body}")

    def assign(self, d: Mapping[str, Any]) -> str:
        after = ", ".join(f"{CATEGORY_NAMES[c][0 if self.ru else 1].lower()} {n}" for c, n in d["after"].items())
        cost = self.say(f" (стоило {d['cost']} мон.)", f" (cost {d['cost']} coins)") if d["cost"] else ""
        return self.say(f"{d['player']}: население — {after}{cost}", f"{d['player']}: population — {after}{cost}")

    def leaders(self, d: Mapping[str, Any]) -> str:
        if "leader" in d:
            return self.say(f"{d['player']}: лидер {dice(1, d['die'], d['faces'])}, таблица "
                            f"{dice(1, d['die'], d['table_faces'])} — {self.n(d['leader'])}",
                            f"{d['player']}: leader {dice(1, d['die'], d['faces'])}, table "
                            f"{dice(1, d['die'], d['table_faces'])} — {self.n(d['leader'])}")
        return self.say(f"{d['player']}: лидер {dice(1, d['die'], d['faces'])} — нет",
                        f"{d['player']}: leader {dice(1, d['die'], d['faces'])} — none")

    def harvest(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: урожай {d['farmers']}×{d['per_farmer']} + {d['food_levels']}×2 = {d['food']} "
                        f"пищи (запас {d['stock']})",
                        f"{d['player']}: harvest {d['farmers']}×{d['per_farmer']} + {d['food_levels']}×2 = {d['food']} "
                        f"food (stock {d['stock']})")

    def disaster_check(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: бедствие {dice(1, d['die'], d['faces'])} — нет",
                        f"{d['player']}: disaster {dice(1, d['die'], d['faces'])} — none")

    def disaster(self, d: Mapping[str, Any]) -> str:
        parts = [dice(1, d["die"], d["faces"]), dice(1, d["table_die"], d["table_faces"]), self.n(d["disaster"])]
        if d.get("reduced_by"):
            parts.append(self.say("ослаблено: ", "reduced by: ") + ", ".join(self.n(x) for x in d["reduced_by"]))
        if "loss_faces" in d:
            count = int(d["dice"].split("d")[0])
            parts.append(self.say(f"потери {dice(count, 6, d['loss_faces'])}: {self.pop(d['lost'])}",
                                  f"losses {dice(count, 6, d['loss_faces'])}: {self.pop(d['lost'])}"))
        if "pick_faces" in d:
            parts.append(self.say("жребий ", "pick ") + dice(1, d["pick_die"], d["pick_faces"]))
        if "resource" in d:
            parts.append(self.say(f"потерян ресурс {self.n(d['resource'])}", f"lost resource {self.n(d['resource'])}"))
        if "city" in d:
            parts.append(self.say(f"потерян город {d['city']}", f"lost city {d['city']}"))
        if d.get("wonder"):
            parts.append(self.say(f"потеряно чудо {self.n(d['wonder'])}", f"lost wonder {self.n(d['wonder'])}"))
        if "coins" in d:
            parts.append(self.say(f"потеряно {d['coins']} мон.", f"lost {d['coins']} coins"))
        if "food" in d:
            parts.append(self.say(f"потеряно {d['food']} пищи", f"lost {d['food']} food"))
        if d.get("result") == "war_pending":
            parts.append(self.say("война — в фазе войны", "war — in the war phase"))
        return f"{d['player']}: " + self.say("БЕДСТВИЕ ", "DISASTER ") + "; ".join(parts)

    def upkeep(self, d: Mapping[str, Any]) -> str:
        bits = [self.say(f"съедено {d['food_eaten']} пищи", f"{d['food_eaten']} food eaten"),
                self.say(f"жалование {d['wage']} мон.", f"wages {d['wage']} coins")]
        if d["starved"]:
            bits.append(self.say(f"умерли от голода: {self.pop(d['starved'])}", f"starved: {self.pop(d['starved'])}"))
        if d["unpaid"]:
            bits.append(self.say(f"разбежались без жалования: {self.pop(d['unpaid'])}",
                                 f"deserted unpaid: {self.pop(d['unpaid'])}"))
        if d["spoiled"]:
            bits.append(self.say(f"испортилось {d['spoiled']} пищи", f"{d['spoiled']} food spoiled"))
        if d["leader_faces"]:
            died = ", ".join(self.n(x) for x in d["died"]) or self.say("никто", "none")
            bits.append(self.say(f"лидеры {dice(len(d['leader_faces']), d['leader_die'], d['leader_faces'])}, умерли: {died}",
                                 f"leaders {dice(len(d['leader_faces']), d['leader_die'], d['leader_faces'])}, died: {died}"))
        return f"{d['player']}: " + self.say("содержание: ", "upkeep: ") + "; ".join(bits)

    def skip(self, d: Mapping[str, Any]) -> str:
        phase = {"war": ("военную фазу", "the war phase"), "building": ("строительство", "building")}[d["phase"]]
        return self.say(f"{d['player']}: после бедствия пропускает {phase[0]}",
                        f"{d['player']}: skips {phase[1]} after the disaster")

    def peace(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: не нападает", f"{d['player']}: does not attack")

    def attack_roll(self, d: Mapping[str, Any]) -> str:
        bonus = f" +{d['bonus']}" if d["bonus"] else ""
        ok = self.say("нападение!", "attack!") if d["success"] else self.say("неудача", "fails")
        return self.say(f"{d['player']} пытается напасть на {d['target']}: {dice(1, d['die'], d['faces'])}{bonus} — {ok}",
                        f"{d['player']} tries to attack {d['target']}: {dice(1, d['die'], d['faces'])}{bonus} — {ok}")

    def diplomat(self, d: Mapping[str, Any]) -> str:
        ok = self.say("атака отменена", "attack cancelled") if d["cancelled"] else self.say("не помог", "no effect")
        return self.say(f"{d['player']}: Дипломат {dice(1, d['die'], d['faces'])} — {ok}",
                        f"{d['player']}: Diplomat {dice(1, d['die'], d['faces'])} — {ok}")

    def ally(self, d: Mapping[str, Any]) -> str:
        side = d["attacker"] if d["side"] == "attacker" else d["defender"]
        return self.say(f"{d['player']} поддерживает {side}: армий {d['army']}, флотов {d['fleet']}, генералов {d['generals']}",
                        f"{d['player']} joins {side}: armies {d['army']}, fleets {d['fleet']}, generals {d['generals']}")

    def _battle(self, d: Mapping[str, Any], a: str, b: str) -> list[str]:
        def bonus(keys: Sequence[str]) -> str:
            words = {"more_army": ("больше армий", "more armies"), "more_fleet": ("больше флота", "more fleet"),
                     "general": ("генерал", "general")}
            return ", ".join(words[k][0 if self.ru else 1] if k in words else self.n(k) for k in keys) or "—"

        out = [
            self.say(f"  {a}: {dice(len(d['attacker_faces']), d['die'], d['attacker_faces'])} = {d['attacker_sum']} "
                     f"(доп. броски: {bonus(d['attacker_bonus'])})",
                     f"  {a}: {dice(len(d['attacker_faces']), d['die'], d['attacker_faces'])} = {d['attacker_sum']} "
                     f"(extra dice: {bonus(d['attacker_bonus'])})"),
            self.say(f"  {b}: {dice(len(d['defender_faces']), d['die'], d['defender_faces'])} = {d['defender_sum']} "
                     f"(доп. броски: {bonus(d['defender_bonus'])})",
                     f"  {b}: {dice(len(d['defender_faces']), d['die'], d['defender_faces'])} = {d['defender_sum']} "
                     f"(extra dice: {bonus(d['defender_bonus'])})"),
        ]
        for key in ("attacker_losses", "defender_losses"):
            for who, lost in d[key].items():
                out.append(self.say(f"  потери {who}: {self.pop(lost)}", f"  {who} lost: {self.pop(lost)}"))
        return out

    def battle(self, d: Mapping[str, Any]) -> str:
        head = self.say(f"БИТВА: {d['attacker']} против {d['defender']} — победил {d['winner_name']}, "
                        f"{dice(1, 6, d['vp_faces'])} = {d['vp']} ПО",
                        f"BATTLE: {d['attacker']} against {d['defender']} — {d['winner_name']} wins, "
                        f"{dice(1, 6, d['vp_faces'])} = {d['vp']} VP")
        return "\n".join([head, *self._battle(d, d["attacker"], d["defender"])])

    def disaster_battle(self, d: Mapping[str, Any]) -> str:
        enemy = self.say("враги", "enemies")
        won = d["winner"] == "defender"
        result = self.say("отбились", "repelled") if won else self.say("поражение", "defeat")
        extra = []
        if "city" in d:
            extra.append(self.say(f"жребий {dice(1, d['city_die'], d['city_faces'])}, потерян город {d['city']}",
                                  f"pick {dice(1, d['city_die'], d['city_faces'])}, lost city {d['city']}"))
        if "lost" in d:
            extra.append(self.say(f"потери {dice(len(d['loss_faces']), 6, d['loss_faces'])}: {self.pop(d['lost'])}",
                                  f"losses {dice(len(d['loss_faces']), 6, d['loss_faces'])}: {self.pop(d['lost'])}"))
        if "coins" in d:
            extra.append(self.say(f"потеряно {d['coins']} мон.", f"lost {d['coins']} coins"))
        if "vp" in d:
            extra.append(f"{dice(1, 6, d['vp_faces'])} = {d['vp']} " + self.say("ПО", "VP"))
        head = self.say(f"{d['player']}: {self.n(d['disaster'])} — {dice(len(d['army_faces']), 6, d['army_faces'])} "
                        f"= {count_ru(d['armies'], ENEMY_ARMIES)}; {result}",
                        f"{d['player']}: {self.n(d['disaster'])} — {dice(len(d['army_faces']), 6, d['army_faces'])} "
                        f"= {count_en(d['armies'], 'enemy army', 'enemy armies')}; {result}")
        return "\n".join([head + ("; " + "; ".join(extra) if extra else ""), *self._battle(d, enemy, d["player"])])

    def tribute(self, d: Mapping[str, Any]) -> str:
        kind = d["kind"]
        if kind == "coins":
            what = self.say(f"{d['coins']} мон.", f"{d['coins']} coins")
        elif kind == "city":
            what = self.say(f"город {d['city']}", f"city {d['city']}") + (
                f" + {self.n(d['wonder'])}" if d.get("wonder") else "")
        elif kind == "population":
            what = f"{dice(len(d['faces']), 6, d['faces'])}: " + self.pop(d["lost"])
        else:
            what = self.n(d["resource"])
        return self.say(f"{d['player']} берёт дань с {d['defender']}: {what}",
                        f"{d['player']} takes tribute from {d['defender']}: {what}")

    def offer(self, d: Mapping[str, Any]) -> str:
        from .orders import format_choice

        return f"{d['from']}: " + format_choice("offer", {"to": d["to"], "give": d["give"], "take": d["take"]},
                                                self.t, self.lang)

    def trade(self, d: Mapping[str, Any]) -> str:
        from .orders import _item_text

        give = ", ".join(_item_text(i, self.t, self.lang) for i in d["give"]) or "—"
        take = ", ".join(_item_text(i, self.t, self.lang) for i in d["take"]) or "—"
        return self.say(f"СДЕЛКА {d['player']} ↔ {d['partner']}: {d['player']} даёт {give}; получает {take}",
                        f"DEAL {d['player']} ↔ {d['partner']}: {d['player']} gives {give}; gets {take}")

    def trade_declined(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['partner']} отклоняет предложение {d['player']}",
                        f"{d['partner']} declines the offer of {d['player']}")

    def labour(self, d: Mapping[str, Any]) -> str:
        lead = f" ({self.say('Строитель', 'Builder')} {dice(len(d['leader_faces']), 6, d['leader_faces'])})" \
            if d["leader_faces"] else ""
        return self.say(f"{d['player']}: труд {d['labour']}{lead}", f"{d['player']}: labour {d['labour']}{lead}")

    def build(self, d: Mapping[str, Any]) -> str:
        from .orders import format_choice

        alloc = format_choice("build", {"alloc": d["alloc"]}, self.t, self.lang).replace("\n", "; ")
        lost = self.say(f", пропало {d['lost']}", f", {d['lost']} wasted") if d["lost"] else ""
        return self.say(f"{d['player']}: стройка — {alloc}{lost}", f"{d['player']}: building — {alloc}{lost}")

    def built(self, d: Mapping[str, Any]) -> str:
        project = d["project"]
        if project == "city":
            what = self.say(f"город {d['city']} ({d['labour']} труда, {d['coins']} мон.)",
                            f"city {d['city']} ({d['labour']} labour, {d['coins']} coins)")
        elif project == "wonder":
            what = self.say(f"ЧУДО {self.n(d['wonder'])} в городе {d['city']}", f"WONDER {self.n(d['wonder'])} in {d['city']}")
        elif project == "resource":
            what = self.say(f"ресурс {dice(1, d['die'], d['faces'])} — {self.n(d['resource'])}",
                            f"resource {dice(1, d['die'], d['faces'])} — {self.n(d['resource'])}")
        else:
            what = self.say(f"промышленный ресурс {self.n(d['resource'])}", f"industrial resource {self.n(d['resource'])}")
        return self.say(f"{d['player']}: построено — {what}", f"{d['player']}: built — {what}")

    def wonder_gone(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: чудо {self.n(d['wonder'])} построено другим, {d['labour']} труда пропало",
                        f"{d['player']}: the {self.n(d['wonder'])} was built elsewhere, {d['labour']} labour lost")

    def research(self, d: Mapping[str, Any]) -> str:
        table = f"; {self.say('таблица', 'table')} {dice(len(d['table_faces']), d['table_die'], d['table_faces'])}" \
            if d["table_faces"] else ""
        picks = self.say(f"; на выбор: {d['picks']}", f"; to choose: {d['picks']}") if d["picks"] else ""
        return self.say(f"{d['player']}: исследования {dice(len(d['faces']), d['die'], d['faces'])}{table}{picks}",
                        f"{d['player']}: research {dice(len(d['faces']), d['die'], d['faces'])}{table}{picks}")

    def income(self, d: Mapping[str, Any]) -> str:
        faces = f" + {dice(len(d['faces']), 6, d['faces'])}" if d["faces"] else ""
        return self.say(f"{d['player']}: доход {d['merchants']} + {d['cities']}×{d['per_city']} + {d['luxury']}{faces} "
                        f"= {d['coins']} мон. (казна {d['stock']})",
                        f"{d['player']}: income {d['merchants']} + {d['cities']}×{d['per_city']} + {d['luxury']}{faces} "
                        f"= {d['coins']} coins (treasury {d['stock']})")

    def defaulted(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: ответ не подошёл, применён ответ по умолчанию",
                        f"{d['player']}: the answer did not fit, the default was used")

    def round_end(self, d: Mapping[str, Any]) -> str:
        return self.say(f"— конец раунда {d['round']} —", f"— end of round {d['round']} —")

    def game_end(self, d: Mapping[str, Any]) -> str:
        ranking = sorted(d["scores"].items(), key=lambda kv: -kv[1]["total"])
        body = "; ".join(f"{n} {s['total']}" for n, s in ranking)
        return self.say(f"КОНЕЦ ИГРЫ. Победные очки: {body}", f"GAME OVER. Victory points: {body}")


def render(view: Mapping[str, Any], events: Sequence[Event], viewer: str, tables: Tables,
           fmt: str = "text", lang: str = "ru") -> str:
    lines = Lines(tables, lang)
    out: list[str] = []
    turn = None
    title = "Культура и Завоевание" if lang == "ru" else "Culture & Conquest"
    out.append(_heading(f"{title} — {viewer}", fmt, 1))
    for event in events:
        t = event.data.get("turn")
        if t != turn:
            turn = t
            out.append(_heading(("Ход " if lang == "ru" else "Turn ") + str(t), fmt, 2))
        writer: Callable[[Mapping[str, Any]], str] | None = getattr(lines, event.kind, None)
        text = writer(event.data) if writer else f"{event.kind}: {dict(event.data)}"
        first, *rest = text.split("\n")
        out.append(_item(first, fmt))
        out += [_item(x.strip(), fmt, nested=True) for x in rest]
    return "\n".join(out) + "\n"


def _heading(text: str, fmt: str, level: int) -> str:
    if fmt == "bbcode":
        return f"[size={'150' if level == 1 else '120'}][b]{text}[/b][/size]"
    if fmt == "markdown":
        return f"{'#' * level} {text}"
    return text if level == 1 else f"== {text} =="


def _item(text: str, fmt: str, nested: bool = False) -> str:
    if fmt == "bbcode":
        return ("    ◦ " if nested else "• ") + text
    if fmt == "markdown":
        return ("  " if nested else "") + f"- {text}"
    return ("    " if nested else "") + text
