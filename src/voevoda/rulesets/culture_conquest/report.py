"""Reports and the chronicle: every event as a line, every roll shown as ``1d6 → 4``.

The caller cuts the events to what the viewer may see (:meth:`Event.visible_to`, or
only ``"*"`` events for the public chronicle); this module only writes them out, as
plain text, BBCode or Markdown, in Russian or English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from voevoda.core.markup import Document, Inline, Item, bold
from voevoda.core.ruleset import Event
from voevoda.core.words import Names, count_en, count_ru, counted, counted_list, join_and, number, plural_ru

from .data import Tables
from .game import CATEGORY_NAMES, amount

ENEMY_ARMIES = ("армия врага", "армии врага", "армий врага")


def dice(count: int, sides: int, faces: Sequence[int]) -> str:
    shown = " ".join(str(f) for f in faces) if faces else "—"
    return f"{count}d{sides} → {shown}"


class Lines:
    def __init__(self, t: Tables, lang: str, names: Names | None = None, players: Sequence[str] = ()) -> None:
        self.t, self.lang = t, lang
        self.ru = lang == "ru"
        self.names = names or Names(lang=lang)
        self.players = set(players)
        self.viewer: str | None = None

    def nm(self, player: str, case: str) -> str:
        """A player's name in a Russian case («на Анну», «с Бориса»); anything that is not a
        player's name («враги») as it is."""
        return self.names.case(player, case) if self.ru and player in self.players else player

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
        """«Получите 1D6-2 населения. Минимум = 0»: the die, the document's −2, the technologies'
        bonus and the Religious leader's dice, each named."""
        terms = [f"{dice(len(d['faces']), 6, d['faces'])} {number(int(d['modifier']), self.lang, signed=True)}"]
        if d["bonus"]:
            terms.append(self.say(f"технологии {number(int(d['bonus']), 'ru', signed=True)}",
                                  f"technologies {int(d['bonus']):+d}"))
        if d["leader_faces"]:
            terms.append(self.say("религиозный деятель ", "religious leader ")
                         + f"+{dice(len(d['leader_faces']), 6, d['leader_faces'])}")
        gained = int(d["gained"])
        return self.say(f"{d['player']}: рост населения: {', '.join(terms)} = +{counted(gained, 'земледелец')}",
                        f"{d['player']}: growth: {', '.join(terms)} = +{count_en(gained, 'farmer')}")

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
        cost = self.say(f" (стоило {self.coins(int(d['cost']))})", f" (cost {self.coins(int(d['cost']))})") \
            if d["cost"] else ""
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
        """«3 единицы пищи за каждого Земледельца и 2 за каждый уровень Пищевых Ресурсов»: each
        term named."""
        per_level = self.t.rules.harvest.food_per_resource
        terms = [self.say(f"земледельцы {d['farmers']}×{d['per_farmer']}", f"farmers {d['farmers']}×{d['per_farmer']}")]
        if d["food_levels"]:
            terms.append(self.say(f"пищевые ресурсы {d['food_levels']}×{per_level}",
                                  f"food resources {d['food_levels']}×{per_level}"))
        return self.say(f"{d['player']}: урожай: {' + '.join(terms)} = {amount('food', int(d['food']))} "
                        f"(запас {d['stock']})",
                        f"{d['player']}: harvest: {' + '.join(terms)} = {d['food']} food (stock {d['stock']})")

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
            parts.append(self.say(f"потеряно: {self.coins(int(d['coins']))}", f"lost {self.coins(int(d['coins']))}"))
        if "food" in d:
            parts.append(self.say(f"потеряно: {amount('food', int(d['food']))}", f"lost {d['food']} food"))
        if d.get("result") == "war_pending":
            parts.append(self.say("война — в фазе войны", "war — in the war phase"))
        return f"{d['player']}: " + self.say("БЕДСТВИЕ ", "DISASTER ") + "; ".join(parts)

    def coins(self, n: int) -> str:
        return counted(n, "монета") if self.ru else counted(n, "coin", "en")

    def upkeep(self, d: Mapping[str, Any]) -> str:
        """«Каждая единица населения потребляет 1 единицу Пищи. Армиям выплачивается 1 Монета
        каждой. Единицы населения, оставленные без снабжения теряются»: what was owed, what was
        paid, and who was lost for what was not."""
        need, had = int(d["food_eaten"]), d.get("food_had")
        if had is None or int(had) >= need:
            food = self.say(f"пища: нужно {need}, съедено {need}", f"food: {need} owed, {need} eaten")
        else:
            food = self.say(f"пища: нужно {need}, было только {had}", f"food: {need} owed, only {had} at hand")
        bits = [food]
        wage, coins_had = int(d["wage"]), d.get("coins_had")
        if wage:
            paid = int(d.get("coins_paid", wage))
            if paid >= wage:
                bits.append(self.say(f"жалованье войску: {self.coins(wage)}, выплачено сполна",
                                     f"the troops' pay: {self.coins(wage)}, paid in full"))
            else:
                bits.append(self.say(f"жалованье войску: нужно {self.coins(wage)}, выплачено {paid} "
                                     f"(в казне было {coins_had})",
                                     f"the troops' pay: {self.coins(wage)} owed, {paid} paid "
                                     f"({coins_had} in the treasury)"))
        if d["starved"]:
            bits.append(self.say(f"умерли от голода: {self.pop(d['starved'])}", f"starved: {self.pop(d['starved'])}"))
        if d["unpaid"]:
            bits.append(self.say(f"разбежались без жалованья: {self.pop(d['unpaid'])}",
                                 f"deserted unpaid: {self.pop(d['unpaid'])}"))
        if d["spoiled"]:
            spoiled = int(d["spoiled"])
            verb = plural_ru(spoiled, ("испортилась", "испортились", "испортилось"))
            bits.append(self.say(f"{verb} {amount('food', spoiled)} (без Гончарного дела пища не хранится)",
                                 f"{d['spoiled']} food spoiled (food does not keep without Pottery)"))
        if d["leader_faces"]:
            died = ", ".join(self.n(x) for x in d["died"]) or self.say("никто", "none")
            bits.append(self.say(f"лидеры {dice(len(d['leader_faces']), d['leader_die'], d['leader_faces'])}, "
                                 f"умерли от старости: {died}",
                                 f"leaders {dice(len(d['leader_faces']), d['leader_die'], d['leader_faces'])}, "
                                 f"died of old age: {died}"))
        return f"{d['player']}: " + self.say("содержание — ", "upkeep — ") + "; ".join(bits)

    def skip(self, d: Mapping[str, Any]) -> str:
        phase = {"war": ("военную фазу", "the war phase"), "building": ("строительство", "building")}[d["phase"]]
        return self.say(f"{d['player']}: после бедствия пропускает {phase[0]}",
                        f"{d['player']}: skips {phase[1]} after the disaster")

    def peace(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: не нападает", f"{d['player']}: does not attack")

    def attack_roll(self, d: Mapping[str, Any]) -> str:
        bonus = f" +{d['bonus']}" if d["bonus"] else ""
        ok = self.say("нападение!", "attack!") if d["success"] else self.say("неудача", "fails")
        return self.say(f"{d['player']} пытается напасть на {self.nm(d['target'], 'accs')}: "
                        f"{dice(1, d['die'], d['faces'])}{bonus} — {ok}",
                        f"{d['player']} tries to attack {d['target']}: {dice(1, d['die'], d['faces'])}{bonus} — {ok}")

    def diplomat(self, d: Mapping[str, Any]) -> str:
        ok = self.say("атака отменена", "attack cancelled") if d["cancelled"] else self.say("не помог", "no effect")
        return self.say(f"{d['player']}: Дипломат {dice(1, d['die'], d['faces'])} — {ok}",
                        f"{d['player']}: Diplomat {dice(1, d['die'], d['faces'])} — {ok}")

    def ally(self, d: Mapping[str, Any]) -> str:
        """«Любовь поддерживает Илью: 1 армия и генерал», counted as Russian counts them."""
        side = d["attacker"] if d["side"] == "attacker" else d["defender"]
        forces = [("армия", "army", int(d["army"])), ("флот", "fleet", int(d["fleet"])),
                  ("генерал", "general", int(d["generals"]))]
        ru = counted_list([(noun, n) for noun, _, n in forces], nothing="без войск")
        en = counted_list([(noun, n) for _, noun, n in forces], "en", nothing="no forces")
        return self.say(f"{d['player']} поддерживает {self.nm(side, 'accs')}: {ru}", f"{d['player']} joins {side}: {en}")

    def _battle(self, d: Mapping[str, Any], a: str, b: str) -> list[str]:
        def bonus(keys: Sequence[str]) -> str:
            words = {"more_army": ("больше армий", "more armies"), "more_fleet": ("больше флота", "more fleet"),
                     "general": ("генерал", "general")}
            return ", ".join(words[k][0 if self.ru else 1] if k in words else self.n(k) for k in keys) or "—"

        def side(name: str, faces: Sequence[int], total: int, extra: Sequence[str]) -> str:
            if not faces:  # «0d6 → —» said nothing: a side with no dice had no forces in the battle
                return self.say(f"  {name}: нет войск в бою — 0", f"  {name}: no forces in the battle — 0")
            return self.say(f"  {name}: {dice(len(faces), d['die'], faces)} = {total} (доп. броски: {bonus(extra)})",
                            f"  {name}: {dice(len(faces), d['die'], faces)} = {total} (extra dice: {bonus(extra)})")

        out = [side(a, d["attacker_faces"], d["attacker_sum"], d["attacker_bonus"]),
               side(b, d["defender_faces"], d["defender_sum"], d["defender_bonus"])]
        for key in ("attacker_losses", "defender_losses"):
            for who, lost in d[key].items():
                out.append(self.say(f"  потери {self.nm(who, 'gent')}: {self.pop(lost)}",
                                    f"  {who} lost: {self.pop(lost)}"))
        return out

    def battle(self, d: Mapping[str, Any]) -> str:
        head = self.say(f"БИТВА: {d['attacker']} против {self.nm(d['defender'], 'gent')} — победа за "
                        f"{self.nm(d['winner_name'], 'ablt')}, "
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
            extra.append(self.say(f"потеряно: {self.coins(int(d['coins']))}", f"lost {self.coins(int(d['coins']))}"))
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
            what = self.coins(int(d["coins"]))
        elif kind == "city":
            what = self.say(f"город {d['city']}", f"city {d['city']}") + (
                f" + {self.n(d['wonder'])}" if d.get("wonder") else "")
        elif kind == "population":
            what = f"{dice(len(d['faces']), 6, d['faces'])}: " + self.pop(d["lost"])
        else:
            what = self.n(d["resource"])
        return self.say(f"{d['player']} берёт дань с {self.nm(d['defender'], 'gent')}: {what}",
                        f"{d['player']} takes tribute from {d['defender']}: {what}")

    def item(self, item: Mapping[str, Any]) -> str:
        """What changes hands in a trade, as the object of «отдать»/«получить»: «технологию
        «Ирригация»», «10 монет», «город Анна-2»."""
        kind = item["kind"]
        if kind in ("coins", "food", "labour", "population"):
            n = int(item["amount"])
            if not self.ru:
                return {"coins": counted(n, "coin", "en"), "food": f"{n} food", "labour": f"{n} labour",
                        "population": f"{n} population"}[kind]
            return amount(kind, n, case="accs")
        key = str(item["key"])
        shown = key if kind in ("city", "promise") else self.n(key)
        if not self.ru:
            return f"{kind if kind != 'tech' else 'technology'} {shown}"
        word = {"city": "город", "tech": "технологию", "leader": "лидера", "resource": "ресурс",
                "promise": "обещание"}[kind]
        return f"{word} «{shown}»"

    def items(self, items: Sequence[Mapping[str, Any]]) -> str:
        return join_and([self.item(i) for i in items], self.lang) or self.say("ничего", "nothing")

    def offer(self, d: Mapping[str, Any]) -> str:
        to = self.say("вам", "you") if d["to"] == self.viewer else self.nm(d["to"], "datv")
        return self.say(f"{d['from']}: Предлагает {to}: отдать {self.items(d['give'])} "
                        f"в обмен на {self.items(d['take'])}",
                        f"{d['from']}: Offers {d['to']}: {self.items(d['give'])} for {self.items(d['take'])}")

    def trade(self, d: Mapping[str, Any]) -> str:
        return self.say(f"СДЕЛКА {d['player']} ↔ {d['partner']}: {d['player']} отдаёт {self.items(d['give'])} "
                        f"и получает {self.items(d['take'])}",
                        f"DEAL {d['player']} ↔ {d['partner']}: {d['player']} gives {self.items(d['give'])} "
                        f"and gets {self.items(d['take'])}")

    def trade_declined(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{self.names.subject(d['partner'], capital=True)} отклоняет предложение "
                        f"{self.nm(d['player'], 'gent')}",
                        f"{d['partner']} declines the offer of {d['player']}")

    def labour(self, d: Mapping[str, Any]) -> str:
        lead = f" ({self.say('Строитель', 'Builder')} {dice(len(d['leader_faces']), 6, d['leader_faces'])})" \
            if d["leader_faces"] else ""
        return self.say(f"{d['player']}: труд этого хода: {amount('labour', int(d['labour']))}{lead}",
                        f"{d['player']}: labour this turn: {d['labour']}{lead}")

    def build(self, d: Mapping[str, Any]) -> str:
        """Every line of the answer (with how many projects took its labour when more than one)
        and every unit of labour lost, with why (ruling 32)."""
        parts: list[str] = []
        shown: dict[str, int] = {}
        placed = d.get("placed") or [1] * len(d["alloc"])
        for part, count in zip(d["alloc"], placed, strict=False):
            p, n = part["project"], int(part["labour"])
            if p == "city":
                what = self.say("на город", "to a city") + (f" {part['name']}" if part.get("name") else "")
            elif p == "resource":
                what = self.say("на природный ресурс", "to a natural resource")
            elif p == "wonder":
                what = self.say(f"на чудо «{self.n(part['target'])}»", f"to the wonder {self.n(part['target'])}")
            else:
                what = self.say(f"на промышленный ресурс «{self.n(part['target'])}»",
                                f"to the industrial resource {self.n(part['target'])}")
            many = self.say(f" ({counted(count, 'проект')})", f" ({counted(count, 'project', 'en')})") \
                if count > 1 else ""
            # two lines of one kind («ресурс 20» twice: two rolls) are told once, with both amounts
            if what in shown and not many and not parts[shown[what]].endswith(")"):
                parts[shown[what]] += f" и {n}" if self.ru else f" and {n}"
                continue
            shown[what] = len(parts)
            parts.append(f"{what} — {n}{many}")
        alloc = "; ".join(parts) or self.say("никуда", "nowhere")
        why = []
        if d.get("unassigned"):
            why.append(self.say(f"не назначено {d['unassigned']}", f"{d['unassigned']} not assigned"))
        for part, over in zip(d["alloc"], d.get("over") or [], strict=False):
            if not over:
                continue
            if part["project"] == "wonder":
                why.append(self.say(f"{over} сверх нужного чуду «{self.n(part['target'])}»",
                                    f"{over} beyond what the wonder {self.n(part['target'])} needed"))
            else:
                # only a named city is one project that labour can overfill (ruling 32)
                why.append(self.say(f"{over} сверх нужного городу {part.get('name')}",
                                    f"{over} beyond what the city {part.get('name')} needed"))
        lost = ""
        if d["lost"]:
            detail = f" ({'; '.join(why)})" if why else ""
            lost = self.say(f"; пропало {d['lost']}{detail}", f"; {d['lost']} wasted{detail}")
        return self.say(f"{d['player']}: труд на стройку: {alloc}{lost}",
                        f"{d['player']}: labour to building: {alloc}{lost}")

    def built(self, d: Mapping[str, Any]) -> str:
        project = d["project"]
        if project == "city":
            what = self.say(f"город {d['city']} ({amount('labour', int(d['labour']))} и {self.coins(int(d['coins']))})",
                            f"city {d['city']} ({d['labour']} labour, {d['coins']} coins)")
            if d.get("wanted"):
                what += self.say(f"; название «{d['wanted']}» уже занято другим городом",
                                 f"; the name '{d['wanted']}' was taken by another city")
        elif project == "wonder":
            what = self.say(f"ЧУДО {self.n(d['wonder'])} в городе {d['city']}", f"WONDER {self.n(d['wonder'])} in {d['city']}")
            if d.get("wanted"):
                what += self.say(f" (в городе {d['wanted']} чудо уже стоит или города больше нет)",
                                 f" ({d['wanted']} has a wonder already or is no longer yours)")
        elif project == "resource":
            what = self.say(f"ресурс {dice(1, d['die'], d['faces'])} — {self.n(d['resource'])}",
                            f"resource {dice(1, d['die'], d['faces'])} — {self.n(d['resource'])}")
        else:
            what = self.say(f"промышленный ресурс {self.n(d['resource'])}", f"industrial resource {self.n(d['resource'])}")
        return self.say(f"{d['player']}: построено — {what}", f"{d['player']}: built — {what}")

    def wonder_gone(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: чудо {self.n(d['wonder'])} построил другой игрок; вложенный труд пропал "
                        f"({amount('labour', int(d['labour']))})",
                        f"{d['player']}: the {self.n(d['wonder'])} was built elsewhere, {d['labour']} labour lost")

    def research(self, d: Mapping[str, Any]) -> str:
        table = f"; {self.say('таблица', 'table')} {dice(len(d['table_faces']), d['table_die'], d['table_faces'])}" \
            if d["table_faces"] else ""
        picks = self.say(f"; на выбор: {d['picks']}", f"; to choose: {d['picks']}") if d["picks"] else ""
        return self.say(f"{d['player']}: исследования {dice(len(d['faces']), d['die'], d['faces'])}{table}{picks}",
                        f"{d['player']}: research {dice(len(d['faces']), d['die'], d['faces'])}{table}{picks}")

    def income(self, d: Mapping[str, Any]) -> str:
        """«1 Монету за каждого Торговца, 1 Монету за каждый Город и 1 Монету за каждый уровень
        Ресурсов Роскоши», and the Ruler's and the Colossus's dice: each term named."""
        rules = self.t.rules.income

        def term(ru: str, en: str, n: int, each: int) -> str:
            return f"{self.say(ru, en)} {n}" + (f"×{each}" if each != 1 else "")

        terms = [term("торговцы", "merchants", int(d["merchants"]), rules.per_merchant),
                 term("города", "cities", int(d["cities"]), int(d["per_city"]))]
        if d["luxury"]:
            terms.append(term("роскошь", "luxury", int(d["luxury"]), rules.per_luxury))
        if d["faces"]:
            terms.append(self.say("лидеры и чудеса ", "leaders and wonders ") + dice(len(d["faces"]), 6, d["faces"]))
        return self.say(f"{d['player']}: доход: {' + '.join(terms)} = {self.coins(int(d['coins']))} "
                        f"(в казне {d['stock']})",
                        f"{d['player']}: income: {' + '.join(terms)} = {d['coins']} coins (treasury {d['stock']})")

    def defaulted(self, d: Mapping[str, Any]) -> str:
        return self.say(f"{d['player']}: ответ не подошёл, применён ответ по умолчанию",
                        f"{d['player']}: the answer did not fit, the default was used")

    def round_end(self, d: Mapping[str, Any]) -> str:
        return self.say(f"— конец раунда {d['round']} —", f"— end of round {d['round']} —")

    SOURCES = {"techs": ("технологии", "technologies"), "cities": ("города", "cities"),
               "wonders_built": ("построенные чудеса", "wonders built"),
               "wonders_held": ("чудеса под контролем", "wonders held"),
               "natural_majority": ("больше всех природных ресурсов", "natural resource majorities"),
               "industrial_majority": ("больше всех промышленных ресурсов", "industrial resource majorities"),
               "tech_bonus": ("очки технологий", "technology points"), "war": ("войны", "war")}

    def source_name(self, key: str) -> str:
        if key in self.SOURCES:
            return self.SOURCES[key][0 if self.ru else 1]
        award = self.t.rules.victory.most.get(key.removeprefix("most_"))
        return (award.ru if self.ru else award.en) if award else key

    def victory_table(self, doc: Document, scores: Mapping[str, Mapping[str, int]]) -> None:
        """The victory points as one aligned table: the place (tied players share it), the
        player, the points and a column for every source that gave anyone points (УСЛОВИЯ
        ПОБЕДЫ and ``victory.most``); the winners in bold."""
        ranking = sorted(scores.items(), key=lambda kv: -kv[1]["total"])
        best = ranking[0][1]["total"] if ranking else 0
        keys = list(dict.fromkeys(k for _, sc in ranking for k, v in sc.items() if k != "total" and v))
        rows: list[list[Inline]] = []
        place, previous = 0, None
        for i, (name, sc) in enumerate(ranking):
            if sc["total"] != previous:
                place, previous = i + 1, sc["total"]
            shown: Inline = bold(name) if sc["total"] == best else name
            rows.append([str(place), shown, str(sc["total"]), *[str(sc.get(k) or "—") for k in keys]])
        doc.table([self.say("Место", "Place"), self.say("Игрок", "Player"), self.say("ПО", "VP"),
                   *[self.source_name(k) for k in keys]], rows, align="rlr" + "r" * len(keys))

    def sources(self, parts: Mapping[str, int]) -> str:
        """Where a player's victory points came from (УСЛОВИЯ ПОБЕДЫ and ``victory.most``): every
        source that gave him any."""
        told = []
        for key, value in parts.items():
            if key == "total" or not value:
                continue
            if key in self.SOURCES:
                name = self.SOURCES[key][0 if self.ru else 1]
            else:
                award = self.t.rules.victory.most.get(key.removeprefix("most_"))
                name = (award.ru if self.ru else award.en) if award else key
            told.append(f"{name} {value}")
        return ", ".join(told) or self.say("нет очков", "no points")

    def prefs(self, d: Mapping[str, Any]) -> str:
        """A player's standing choices as he set them (ruling 48); told to him alone."""
        heads = {"losses": ("при потерях населения первыми", "people lost first"),
                 "battle": ("в бою первыми гибнут", "first to die in battle"),
                 "unpaid": ("без жалованья первыми уходят", "first to desert unpaid")}
        told = []
        for key in ("losses", "battle", "unpaid"):
            if key not in d["set"]:
                continue
            value = d["set"][key]
            shown = (", ".join(CATEGORY_NAMES[c][0 if self.ru else 1].lower() for c in value) if value
                     else self.say("как по умолчанию", "as by default"))
            told.append(f"{heads[key][0 if self.ru else 1]} — {shown}")
        if self.viewer == d["player"]:
            head = self.say("ваши правила потерь (видны только вам): ",
                            "your standing loss orders (seen only by you): ")
        else:
            head = self.say("правила потерь (видны только игроку): ", "standing loss orders (seen only by the player): ")
        return f"{d['player']}: " + head + "; ".join(told)

    def game_end(self, d: Mapping[str, Any]) -> str:
        ranking = sorted(d["scores"].items(), key=lambda kv: -kv[1]["total"])
        body = "; ".join(f"{n} {s['total']}" for n, s in ranking)
        return self.say(f"КОНЕЦ ИГРЫ. Победные очки: {body}", f"GAME OVER. Victory points: {body}")


def render(view: Mapping[str, Any], events: Sequence[Event], viewer: str, tables: Tables,
           lang: str = "ru", turn: int | None = None, names: Names | None = None) -> Document:
    """One post for the turn: a section per player in the order of play, each phase of his turn
    a line (a battle with its dice nested under it), the game's end with its scores."""
    lines = Lines(tables, lang, names, [str(p) for p in view.get("order", [])])
    lines.viewer = viewer
    names = names or Names(lang=lang)
    ru = lang == "ru"
    game = "Культура и Завоевание" if ru else "Culture & Conquest"
    turns = sorted({int(e.data["turn"]) for e in events if isinstance(e.data.get("turn"), int)})
    when = (f"ход {turn}" if ru else f"turn {turn}") if turn is not None else (
        f"ходы {turns[0]}–{turns[-1]}" if ru else f"turns {turns[0]}–{turns[-1]}") if len(turns) > 1 else (
        f"ход {turns[0]}" if ru else f"turn {turns[0]}") if turns else ("начало" if ru else "the start")
    if viewer == "public":
        whom = "летопись" if ru else "the chronicle"
    elif viewer == "gm":
        whom = "отчёт ведущему" if ru else "the game master's report"
    else:
        whom = f"отчёт для {names.case(viewer, 'gent')}" if ru else f"report for {viewer}"
    doc = Document(f"{game}, {when}: {whom}")
    order = [str(p) for p in view.get("order", [])]
    sections: dict[tuple[int, str], list[Inline | Item]] = {}
    general: dict[int, list[Inline | Item]] = {}
    ending: list[Mapping[str, Any]] = []
    for event in events:
        if event.kind == "round_end":
            continue
        if event.kind == "game_end":
            ending.append(event.data)
            continue
        t = int(event.data.get("turn", 0)) if isinstance(event.data.get("turn"), int) else 0
        writer: Callable[[Mapping[str, Any]], str] | None = getattr(lines, event.kind, None)
        text = writer(event.data) if writer else f"{event.kind}: {dict(event.data)}"
        first, *rest = text.split("\n")
        who = _actor(event)
        if who is not None and first.startswith(f"{who}: "):
            first = first[len(who) + 2:]
            first = first[:1].upper() + first[1:]
        item: Inline | Item = Item(first, [x.strip() for x in rest]) if rest else first
        if who is None:
            general.setdefault(t, []).append(item)
        else:
            sections.setdefault((t, who), []).append(item)
    for t in sorted({k[0] for k in sections} | set(general)):
        if len(turns) > 1:
            doc.heading(("Ход " if ru else "Turn ") + str(t), 2)
        for item in general.get(t, []):
            doc.bullets([item])
        players = [p for p in order if (t, p) in sections] + sorted(
            p for (tt, p) in sections if tt == t and p not in order)
        for p in players:
            mark = (" (вы)" if ru else " (you)") if p == viewer else ""
            doc.heading(p + mark, 3 if len(turns) > 1 else 2)
            doc.bullets(sections[(t, p)])
    for d in ending:
        doc.heading("Конец игры: победные очки" if ru else "The end: victory points", 2)
        lines.victory_table(doc, d["scores"])
    if not doc.blocks:
        doc.paragraph("Ничего не произошло." if ru else "Nothing happened.")
    return doc


def _actor(event: Event) -> str | None:
    """The player whose turn an event belongs to."""
    d = event.data
    for key in ("player", "attacker", "from"):
        value = d.get(key)
        if isinstance(value, str):
            return value
    return None
