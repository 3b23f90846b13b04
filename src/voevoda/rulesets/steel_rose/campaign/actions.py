"""The orders of a turn, one function each, in the order a turn carries them out.

«Постройки можно устанавливать мгновенно», so the economy acts before the armies march; the
order of a post does not matter: sales, then levels and buildings, restorations, cleansing,
hiring, spells, rituals, the mobile city, and last the armies (docs/steel_rose/campaign.md §3).
Every function both checks and acts (see :class:`~.context.Ctx`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voevoda.core.dice import CITED
from voevoda.core.ruleset import Order
from voevoda.core.words import inflect_phrase, join_and
from voevoda.rulesets.steel_rose.battle.words import unit_counted
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign.context import Ctx
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS
from voevoda.rulesets.steel_rose.campaign.state import Army, City, Proposal


def name_ru(ctx: Ctx, cid: str) -> str:
    city = ctx.campaign.map.cities.get(cid)
    if city is not None:
        return city.name_ru
    return ctx.campaign.map.mobile.name_ru if ctx.campaign.map.mobile else cid


def name_en(ctx: Ctx, cid: str) -> str:
    city = ctx.campaign.map.cities.get(cid)
    if city is not None:
        return city.name_en
    return ctx.campaign.map.mobile.name_en if ctx.campaign.map.mobile else cid


def faction_ru(ctx: Ctx, fid: str) -> str:
    return ctx.campaign.faction(fid).name_ru


def resource_ru(ctx: Ctx, fid: str) -> str:
    return ctx.campaign.faction(fid).resource_ru


def playing(ctx: Ctx, fid: str) -> bool:
    return ctx.state.factions[fid].status in ("playing", "idle")


def protected(ctx: Ctx, city: City) -> bool:
    """A winner's city («ваши города становятся недоступны для атаки») or one off the map."""
    return city.gone or (city.owner is not None and ctx.state.factions[city.owner].status == "won")


# ----------------------------------------------------------------------------- city changes

def change_owner(ctx: Ctx, city: City, new_owner: str | None, how: str) -> None:
    """A city passes to ``new_owner``: the buildings of the old owner go («Для каждой фракции
    постройки уникальны», ruling C12), its corruption is cleared («Если город захватывают или
    разрушают, уровень порчи там обнуляется»), except the cult's catacombs (8). The Empire's
    quest reward is lost when anyone else takes the city first."""
    old = city.owner
    catacombs = None
    if old == "void_cult" and new_owner != "void_cult":
        for _bid, b in eco.buildings_of(ctx.campaign, city):
            if b.catacombs_corruption is not None:
                catacombs = b.catacombs_corruption
    city.owner = new_owner
    city.buildings = []
    city.placement = []
    city.corruption = catacombs or 0
    if old == "void_cult" and new_owner != "void_cult":
        ctx.state.factions["void_cult"].last_city = city.id
    if new_owner != "empire" and city.id in ctx.campaign.model.quests:
        city.quest_void = True
    if new_owner is not None and old != new_owner and not city.ruins:
        ctx.state.factions[new_owner].captured += 1
    # the map shows who holds a city; how the cult came by it (corruption, the deal) is its secret
    shown = "cult" if how in ("corruption", "deal") else how
    ctx.emit("owner", {"city": city.id, "from": old, "to": new_owner, "how": shown})
    if shown != how:
        ctx.tell("void_cult", "taken", {"city": city.id, "how": how})
    if old is not None and old != new_owner:
        check_elimination(ctx, old, by=new_owner)


def make_ruins(ctx: Ctx, city: City, owner: str | None, how: str) -> None:
    """The city becomes ruins: level 1, no buildings, no garrison, no income."""
    old = city.owner
    city.ruins = True
    city.level = 1
    city.buildings = []
    city.placement = []
    city.corruption = 0
    city.owner = owner
    if old == "void_cult" and owner != "void_cult":
        ctx.state.factions["void_cult"].last_city = city.id
    if owner != "empire" and city.id in ctx.campaign.model.quests:
        city.quest_void = True
    # a city falling to ruins is on the map; the cult's reason (its hunger, a sacrifice) is not
    shown = "cult" if how in ("hunger", "sacrifice") else how
    ctx.emit("ruins", {"city": city.id, "from": old, "to": owner, "how": shown})
    if old is not None:
        check_elimination(ctx, old, by=owner if owner != old else None)


def check_elimination(ctx: Ctx, fid: str, by: str | None) -> None:
    """«Если фракция теряет последний город, она выбывает из игры» — not the Void Cult, which
    «может выживать без городов вовсе»."""
    faction = ctx.state.factions[fid]
    if faction.status not in ("playing", "idle") or fid == "void_cult":
        return
    if eco.count_cities(ctx.state, fid) > 0:
        return
    eliminate(ctx, fid, "lost_cities", by)


def eliminate(ctx: Ctx, fid: str, reason: str, by: str | None = None) -> None:
    faction = ctx.state.factions[fid]
    faction.status = "out"
    faction.ended_turn = ctx.state.turn
    faction.end_reason = reason
    faction.destroyed_by = by
    faction.units = {}
    faction.gifted = {}
    faction.camp = None
    ctx.state.armies = [a for a in ctx.state.armies if a.faction != fid]
    ctx.state.alliances = [p for p in ctx.state.alliances if fid not in p]
    for city in ctx.state.cities.values():
        if city.owner == fid:
            # nobody's now: the faction's own buildings go with it («Для каждой фракции постройки
            # уникальны», ruling C12), as when a city changes hands
            city.owner = None
            city.buildings = []
            city.placement = []
            if city.kind == "mobile":
                city.gone = True
    ctx.emit("eliminated", {"faction": fid, "reason": reason, "by": by})


def add_to_pool(ctx: Ctx, fid: str, units: dict[str, int], gifted: bool = False) -> None:
    f = ctx.state.factions[fid]
    pool = dict(f.units)
    eco.add_units(pool, units)
    f.units = eco.sorted_units(pool, ctx.campaign)
    if gifted:
        gifts = dict(f.gifted)
        eco.add_units(gifts, units)
        f.gifted = eco.sorted_units(gifts, ctx.campaign)


def lose_units(ctx: Ctx, fid: str, units: dict[str, int]) -> None:
    """Units gone from the faction (killed, dismissed): gifted demons go first from the gift
    count only so far as the faction has more of them than were given."""
    f = ctx.state.factions[fid]
    pool = dict(f.units)
    eco.remove_units(pool, units)
    f.units = eco.sorted_units(pool, ctx.campaign)
    gifts = {u: min(n, pool.get(u, 0)) for u, n in f.gifted.items()}
    f.gifted = eco.sorted_units(gifts, ctx.campaign)


def city_taken_by_cult(ctx: Ctx, city: City, how: str) -> None:
    """The cult takes a city without a battle (corruption, the deal, betrayal): «При захвате
    чужого города любым способом ГП обнуляется» (ruling C28)."""
    change_owner(ctx, city, "void_cult", how)
    cult = ctx.state.factions["void_cult"]
    ctx.book("void_cult", "hunger_reset", resource=-cult.resource, city=city.id)
    if cult.oath_turn == ctx.state.turn:
        oath_fulfilled(ctx)


def oath_fulfilled(ctx: Ctx) -> None:
    """«Клятва богам: ... если вы успешно захватите город, ваш максимальный запас ГП навсегда
    поднимется на 10» (once per oath)."""
    cult = ctx.state.factions["void_cult"]
    if cult.oath_turn != ctx.state.turn:
        return
    cult.oath_turn = 0
    change = ctx.campaign.model.void.rituals["oath"].max_change
    cult.hunger_max += change
    ctx.tell("void_cult", "oath_fulfilled", {"max": cult.hunger_max, "change": change})


def add_corruption(ctx: Ctx, city: City, amount: int, how: str) -> None:
    """«Когда порча достигнет уровня 20, город мгновенно перейдёт под ваш контроль.»"""
    top = ctx.campaign.model.void.corruption_max
    city.corruption = min(top, city.corruption + amount)
    ctx.tell("void_cult", "corruption", {"city": city.id, "added": amount, "level": city.corruption, "how": how})
    if city.corruption >= top and city.owner != "void_cult" and not city.floating and not protected(ctx, city):
        city_taken_by_cult(ctx, city, "corruption")


# ----------------------------------------------------------------------------- diplomacy

def may_ally(a: str, b: str) -> bool:
    """«Любая фракция, кроме огров, может заключить с вами союз» (the cult); the ogres ally with
    any faction but the cult."""
    return {a, b} != {"void_cult", "ogres"} and a != b


def diplomacy(ctx: Ctx, posts: dict[str, list[Order]]) -> None:
    """Alliances: a faction proposes («Союз с X»); the alliance stands when the other answers in
    kind this turn or the next (ruling C19). Breaks and the cult's betrayal act at once."""
    state = ctx.state
    wanted = {(fid, str(o.args["faction"])) for fid, orders in posts.items() for o in orders if o.kind == "alliance"}
    for fid, orders in posts.items():
        for order in orders:
            if order.kind == "break":
                other = str(order.args["faction"])
                if state.allied(fid, other):
                    end_alliance(ctx, fid, other, "break")
                else:
                    ctx.refuse(fid, order, "у вас нет союза с этой фракцией", "you have no alliance with that faction")
            elif order.kind == "betray":
                betray(ctx, fid, order)
    formed: set[frozenset[str]] = set()
    for fid, orders in posts.items():
        for order in orders:
            if order.kind != "alliance":
                continue
            other = str(order.args["faction"])
            if frozenset((fid, other)) in formed:
                continue
            problem = alliance_problem(ctx, fid, other)
            if problem:
                ctx.refuse(fid, order, *problem)
                continue
            standing = any(p.by == other and p.to == fid for p in state.proposals)
            if (other, fid) in wanted or standing:
                if not state.allied(fid, other):
                    state.alliances.append(sorted([fid, other]))
                    state.alliances.sort()
                    formed.add(frozenset((fid, other)))
                    ctx.emit("alliance", {"factions": sorted([fid, other]), "formed": True})
                state.proposals = [p for p in state.proposals if {p.by, p.to} != {fid, other}]
            elif not any(p.by == fid and p.to == other for p in state.proposals):
                state.proposals.append(Proposal(by=fid, to=other, turn=state.turn))
                ctx.emit("proposal", {"from": fid, "to": other}, ctx.audience(fid, other))
    state.proposals = [p for p in state.proposals if p.turn >= state.turn - 1]


def alliance_problem(ctx: Ctx, fid: str, other: str) -> tuple[str, str] | None:
    if not may_ally(fid, other):
        return ("союз культа с ограми невозможен («Любая фракция, кроме огров, может заключить с вами союз»)",
                "the cult and the ogres cannot ally")
    if ctx.state.factions[other].status not in ("playing", "idle"):
        return "этой фракции нет в игре", "that faction is not in the game"
    if ctx.state.allied(fid, other):
        return "союз уже заключён", "already allied"
    return None


def end_alliance(ctx: Ctx, a: str, b: str, how: str) -> None:
    ctx.state.alliances = [p for p in ctx.state.alliances if set(p) != {a, b}]
    ctx.emit("alliance", {"factions": sorted([a, b]), "formed": False, "how": how, "by": a})
    if "void_cult" in (a, b):
        other = b if a == "void_cult" else a
        f = ctx.state.factions[other]
        if f.gifted:
            gone = dict(f.gifted)
            lose_units(ctx, other, gone)
            f.gifted = {}
            for army in ctx.state.armies:
                if army.faction == other:
                    army.units = {u: n for u, n in army.units.items() if n > 0}
            ctx.tell(other, "gifts_vanished", {"units": gone})


def betray(ctx: Ctx, fid: str, order: Order) -> None:
    """«вы мгновенно расторгаете союз и можете мгновенно забрать каждый третий малый и каждый
    второй крупный город бывшего союзника. 'Подаренные' демонические юниты у этой фракции
    исчезнут.» The cult names the cities; the rest of its due is taken in map order (ruling C21)."""
    target = str(order.args["faction"])
    if fid != "void_cult":
        ctx.refuse(fid, order, "предавать союзников может только Культ пустоты", "only the Void Cult can betray")
        return
    if not ctx.state.allied(fid, target):
        ctx.refuse(fid, order, "предать можно только союзника", "only an ally can be betrayed")
        return
    rules = ctx.campaign.model.void.betrayal
    small = [c for c in ctx.state.cities_of(target) if c.kind == "small"]
    large = [c for c in ctx.state.cities_of(target) if c.kind == "large"]
    due = {"small": len(small) // rules.every_small, "large": len(large) // rules.every_large}
    chosen: list[City] = []
    for cid in order.args.get("cities", []):
        city = ctx.state.cities.get(str(cid))
        if city is None or city.owner != target or city.ruins or city.kind not in due:
            ctx.refuse(fid, order, f"«{name_ru(ctx, str(cid))}» — не город бывшего союзника",
                       f"'{name_en(ctx, str(cid))}' is not a city of the former ally")
            return
        if due[city.kind] <= 0:
            ctx.refuse(fid, order, "названо больше городов, чем положено («каждый третий малый и каждый второй "
                       "крупный»)", "more cities named than due (every third small and every second large)")
            return
        due[city.kind] -= 1
        chosen.append(city)
    for kind, pool in (("small", small), ("large", large)):
        step = rules.every_small if kind == "small" else rules.every_large
        for city in pool[step - 1::step]:
            if due[kind] <= 0:
                break
            if city not in chosen:
                chosen.append(city)
                due[kind] -= 1
        for city in pool:
            if due[kind] <= 0:
                break
            if city not in chosen:
                chosen.append(city)
                due[kind] -= 1
    if ctx.checking:
        return
    end_alliance(ctx, fid, target, "betrayal")
    ctx.emit("betrayal", {"by": fid, "victim": target, "cities": [c.id for c in chosen]})
    for city in chosen:
        if city.owner == target:
            city_taken_by_cult(ctx, city, "betrayal")


# ----------------------------------------------------------------------------- economy

def expand_template(ctx: Ctx, fid: str, orders: Sequence[Order]) -> list[Order]:
    """The document's city list as orders: «Название города (2 ур.)» with «Постройки: ...» -> a
    raise to that level, the buildings listed and missing built, those present and not listed
    sold (ruling C18)."""
    out: list[Order] = []
    levels: dict[str, Order] = {o.args["city"]: o for o in orders if o.kind == "template"}
    lists: dict[str, Order] = {o.args["city"]: o for o in orders if o.kind == "template_buildings"}
    for cid, order in levels.items():
        city = ctx.state.cities.get(cid)
        if city is None:
            continue
        if city.owner != fid:
            ctx.refuse(fid, order, f"«{name_ru(ctx, cid)}» — не ваш город", f"{name_en(ctx, cid)} is not your city")
            continue
        want = int(order.args["level"])
        if want > city.level:
            out.append(Order("raise", {"city": cid, "to": want}, order.line, order.text))
        elif want < city.level:
            ctx.refuse(fid, order, f"уровень города не понижают: «{name_ru(ctx, cid)}» {city.level}-го уровня",
                       f"a city's level is never lowered: {cid} is level {city.level}")
    for cid, order in lists.items():
        city = ctx.state.cities.get(cid)
        if city is None or city.owner != fid:
            continue
        listed = [str(b) for b in order.args["buildings"]]
        for bid in city.buildings:
            if bid not in listed:
                out.append(Order("sell", {"city": cid, "building": bid}, order.line, order.text))
        for bid in listed:
            if bid not in city.buildings:
                out.append(Order("build", {"city": cid, "building": bid}, order.line, order.text))
    return out


def own_city(ctx: Ctx, fid: str, order: Order, *, ruins: bool = False) -> City | None:
    cid = str(order.args["city"])
    city = ctx.state.cities.get(cid)
    if city is None or city.gone:
        ctx.refuse(fid, order, "такого города нет на карте", "no such city on the map")
        return None
    if city.owner != fid:
        ctx.refuse(fid, order, f"«{name_ru(ctx, cid)}» — не ваш город", f"{name_en(ctx, cid)} is not your city")
        return None
    if city.ruins and not ruins:
        ctx.refuse(fid, order, f"«{name_ru(ctx, cid)}» лежит в руинах: сначала восстановите",
                   f"{name_en(ctx, cid)} is in ruins: restore it first")
        return None
    return city


def pay(ctx: Ctx, fid: str, order: Order, what: str, gold: int, resource: float = 0, *,
        for_what: tuple[str, str] | None = None, **detail: Any) -> bool:
    """Take the price, or refuse the order saying what is short (and for what: ``for_what``, «нанять
    2 целителей», when one line asks for several things)."""
    f = ctx.state.factions[fid]
    if gold > f.gold or resource > f.resource + 1e-9:
        short_ru, short_en = [], []
        if gold > f.gold:
            short_ru.append(f"золота: нужно {gold}з, в казне {f.gold}з")
            short_en.append(f"gold: {gold} needed, {f.gold} held")
        if resource > f.resource + 1e-9:
            faction = ctx.campaign.faction(fid)
            short_ru.append(f"{inflect_phrase(faction.resource_ru, 'gent')}: нужно {resource:g}, есть {f.resource:g}")
            short_en.append(f"{faction.resource_en}: {resource:g} needed, {f.resource:g} held")
        ru, en = "не хватает " + "; ".join(short_ru), "not enough " + "; ".join(short_en)
        if for_what is not None:
            ru, en = f"{for_what[0]}: {ru}", f"{for_what[1]}: {en}"
        ctx.refuse(fid, order, ru, en)
        return False
    ctx.book(fid, what, -gold, -resource, **detail)
    return True


def sell(ctx: Ctx, fid: str, order: Order) -> None:
    city = own_city(ctx, fid, order)
    if city is None:
        return
    bid = str(order.args["building"])
    if bid not in city.buildings:
        b = ctx.campaign.buildings.of(fid).get(bid)
        ctx.refuse(fid, order, f"в городе {name_ru(ctx, city.id)} нет постройки «{b.name_ru if b else bid}»",
                   f"{name_en(ctx, city.id)} has no {b.name_en if b else bid}")
        return
    price = eco.sale_price(ctx.campaign, ctx.campaign.building(fid, bid))
    city.buildings = [b for b in city.buildings if b != bid]
    ctx.book(fid, "sell", price.gold, price.resource, city=city.id, building=bid)


def raise_level(ctx: Ctx, fid: str, order: Order) -> None:
    city = own_city(ctx, fid, order)
    if city is None:
        return
    if city.kind == "mobile":
        ctx.refuse(fid, order, "передвижной город сам растёт до уровня эпохи", "the mobile city grows by itself")
        return
    to = order.args.get("to") or city.level + 1
    limit = min(ctx.campaign.epoch(ctx.state.turn).max_level, ctx.campaign.economy.max_level)
    if to > limit:
        epoch = ctx.campaign.epoch(ctx.state.turn)
        ctx.refuse(fid, order, f"в эпоху «{epoch.name_ru}» максимальный уровень поселений — {limit}",
                   f"in {epoch.name_en} the highest city level is {limit}")
        return
    if to <= city.level:
        ctx.refuse(fid, order, f"город уже {city.level}-го уровня", f"the city is already level {city.level}")
        return
    while city.level < to:
        cost = eco.raise_cost(ctx.campaign, city)
        if not pay(ctx, fid, order, "raise", cost, city=city.id, level=city.level + 1):
            return
        city.level += 1


def build(ctx: Ctx, fid: str, order: Order) -> None:
    """«Постройки должны быть уровнем ниже или равным уровню города ... В малых городах можно
    поставить 1 постройку, в больших - 3 ... В одном городе не может быть две одинаковые постройки.»"""
    city = own_city(ctx, fid, order)
    if city is None:
        return
    bid = str(order.args["building"])
    b = ctx.campaign.buildings.of(fid).get(bid)
    if b is None:
        ctx.refuse(fid, order, "у вашей фракции нет такой постройки", "your faction has no such building")
        return
    if b.level > city.level:
        ctx.refuse(fid, order, f"постройка {b.level}-го уровня не встанет в город {city.level}-го уровня",
                   f"a level {b.level} building needs a city of level {b.level} (this one is {city.level})")
        return
    if bid in city.buildings:
        ctx.refuse(fid, order, "в одном городе не может быть две одинаковые постройки",
                   "a city cannot hold the same building twice")
        return
    if len(city.buildings) >= eco.slots(ctx.campaign, city):
        ctx.refuse(fid, order, f"в городе нет места: {eco.slots(ctx.campaign, city)} слот(а), все заняты",
                   f"no free slot: the city has {eco.slots(ctx.campaign, city)}, all taken")
        return
    if pay(ctx, fid, order, "build", b.gold, b.resource, city=city.id, building=bid):
        city.buildings = [*city.buildings, bid]
        if b.hunger_passive and fid == "void_cult":
            altar_built(ctx, city, bid, b.hunger_passive)


def altar_built(ctx: Ctx, city: City, bid: str, change: int) -> None:
    """«Тёмный алтарь (50з) - снижает пассивный прирост ГП на 5 в ход»: built in the turn's post
    («Постройки можно устанавливать мгновенно»), it slows the growth of this very turn, which was
    counted at the start of the resolution (ruling C31): a line of its own in the statement, never
    taking the turn's growth below 0 (C33). An altar sold in the post slowed the growth already."""
    if ctx.checking:
        return
    counted = sum(float(line.get("resource", 0)) for line in ctx.ledger("void_cult").lines
                  if line.get("what") in ("hunger_passive", "hunger_altar"))
    factor = ctx.multiplier if ctx.options.sunset_void_hunger else 1
    amount = max(change * factor, -counted)
    if amount < 0:
        ctx.book("void_cult", "hunger_altar", 0, float(amount), city=city.id, building=bid)


def restore(ctx: Ctx, fid: str, order: Order, free: bool = False) -> None:
    """«Чтобы восстановить город до первого уровня без построек, нужно потратить 300 золота для
    малого или 900 для большого ... в тот же ход дохода он не принесёт.»"""
    city = own_city(ctx, fid, order, ruins=True)
    if city is None:
        return
    if not city.ruins:
        ctx.refuse(fid, order, "город не в руинах", "the city is not in ruins")
        return
    if not free and not pay(ctx, fid, order, "restore", eco.restore_cost(ctx.campaign, city), city=city.id):
        return
    city.ruins = False
    city.level = 1
    city.idle_turn = ctx.state.turn
    ctx.emit("restored", {"city": city.id, "faction": fid})


def cleanse(ctx: Ctx, fid: str, order: Order) -> None:
    """«Позволяет обнулить заражение за (100*уровень города)з либо (10*уровень города)ч»"""
    city = own_city(ctx, fid, order)
    if city is None:
        return
    pay_with = str(order.args.get("pay", "gold"))
    price = eco.cleanse_price(ctx.campaign, ctx.state, fid, city, pay_with)
    if price is None:
        ctx.refuse(fid, order, "очистить можно только город, который видит ваша постройка-дозор (в нём или в "
                   "соседнем городе)" + ("" if pay_with == "gold" else ", и не за этот ресурс"),
                   "only a city your detection building covers (in it or next to it) can be cleansed"
                   + ("" if pay_with == "gold" else ", and not for that resource"))
        return
    if pay(ctx, fid, order, "cleanse", price.gold, price.resource, city=city.id):
        had = city.corruption
        city.corruption = 0
        ctx.tell(fid, "cleansed", {"city": city.id, "gold": price.gold, "resource": price.resource})
        if had and not ctx.checking:
            ctx.tell("void_cult", "corruption_cleansed", {"city": city.id, "was": had})


def hire(ctx: Ctx, fid: str, order: Order) -> None:
    units = {str(u): int(n) for u, n in dict(order.args["units"]).items()}
    f = ctx.state.factions[fid]
    for uid, n in units.items():
        ok, ru, en = eco.can_hire(ctx.campaign, ctx.state, fid, uid)
        if not ok:
            ctx.refuse(fid, order, ru, en)
            continue
        unit = ctx.campaign.rules.units[uid]
        price = eco.hire_price(ctx.campaign, fid, uid, n)
        mercenary = unit.faction == "ogres" and fid != "ogres"
        if mercenary:
            problem = eco.mercenary_problem(ctx.state, fid)
            if problem:
                ctx.refuse(fid, order, *problem)
                continue
            discount = 0
            if ctx.state.allied(fid, "ogres"):
                # «Союзники огров получают скидку на покупку юнитов огров каждый ход»: a sum per turn
                used = f.discount_used if f.discount_turn == ctx.state.turn else 0
                discount = max(0, min(price.gold, ctx.campaign.epoch(ctx.state.turn).ogre_discount - used))
            named = (f"нанять {unit_counted(ctx.campaign.rules, uid, n, case='accs')}",
                     f"hire {unit_counted(ctx.campaign.rules, uid, n, lang='en')}")
            if not pay(ctx, fid, order, "mercenaries", price.gold - discount, 0, for_what=named, units={uid: n},
                       discount=discount):
                continue
            if discount:
                f.discount_used = (f.discount_used if f.discount_turn == ctx.state.turn else 0) + discount
                f.discount_turn = ctx.state.turn
            share = int((price.gold - discount) * ctx.campaign.model.ogres.mercenary_share)
            if share and ctx.state.factions["ogres"].status in ("playing", "idle"):
                ctx.book("ogres", "mercenary_fee", share, 0, payer=fid)
        else:
            # the unit named: two hires short of honour are two different lines of the refusal
            named = (f"нанять {unit_counted(ctx.campaign.rules, uid, n, case='accs')}",
                     f"hire {unit_counted(ctx.campaign.rules, uid, n, lang='en')}")
            if not pay(ctx, fid, order, "hire", price.gold, price.resource, for_what=named, units={uid: n}):
                continue
            if unit.void_hunger_on_hire and fid == "void_cult":
                ctx.book(fid, "hire_hunger", 0, unit.void_hunger_on_hire * n, units={uid: n})
        add_to_pool(ctx, fid, {uid: n})


def garrison_placement(ctx: Ctx, fid: str, order: Order) -> None:
    """«Расстановка гарнизона определяется владельцем поселения заранее»: kept for the city's
    next battles until changed."""
    city = own_city(ctx, fid, order)
    if city is None:
        return
    if city.kind == "mobile":
        ctx.refuse(fid, order, "передвижной город защищает вся армия: расстановку дают в битве",
                   "the whole army defends the mobile city: place it in the battle")
        return
    city.placement = [dict(s) for s in order.args["squads"]]


# ----------------------------------------------------------------------------- spells

def cast(ctx: Ctx, fid: str, order: Order) -> None:
    """«За ману можно использовать следующие заклинания (количество заклинаний в ход не
    ограничено)»."""
    if fid != "heaven":
        ctx.refuse(fid, order, "заклинания доступны только Благословлённым небом", "only the Sky-Blessed cast spells")
        return
    sid = str(order.args["spell"])
    spell = ctx.campaign.model.heaven.spells[sid]  # type: ignore[index]
    f = ctx.state.factions[fid]
    if sid == "floating_city":
        city = own_city(ctx, fid, order)
        if city is None:
            return
        if city.floating:
            ctx.refuse(fid, order, "город уже парит", "the city already floats")
            return
        in_a_row = f.float_streak if f.float_last_turn >= ctx.state.turn - 1 else 0
        price = eco.floating_price(ctx.campaign, ctx.state, city, in_a_row)
        if pay(ctx, fid, order, "spell", 0, price, spell=sid, city=city.id):
            city.floating = True
            f.float_streak = in_a_row + 1
            f.float_last_turn = ctx.state.turn
            ctx.emit("floating", {"city": city.id})
    elif sid == "call_of_the_forest":
        city = own_city(ctx, fid, order, ruins=True)
        if city is None:
            return
        if not city.ruins:
            ctx.refuse(fid, order, "город не в руинах", "the city is not in ruins")
            return
        if pay(ctx, fid, order, "spell", 0, spell.mana, spell=sid, city=city.id):
            restore(ctx, fid, order, free=True)
    elif sid == "heavenly_favour":
        army = _army_named(ctx, fid, str(order.args.get("army", "1")))
        if army is None:
            ctx.refuse(fid, order, "нет армии с таким именем в приказах этого хода", "no army of that name this turn")
            return
        if pay(ctx, fid, order, "spell", 0, spell.mana, spell=sid, army=str(order.args.get("army", "1"))) \
                and army is not None:
            army.favoured = True
    elif sid == "divination":
        target = str(order.args["faction"])
        if target == fid or target not in ctx.state.factions:
            ctx.refuse(fid, order, "прорицание — о другой фракции", "divination is about another faction")
            return
        if pay(ctx, fid, order, "spell", 0, spell.mana, spell=sid, target=target):
            snapshot = dict(ctx.state.factions[target].snapshot)
            if not ctx.checking:
                from voevoda.rulesets.steel_rose.campaign.state import Intel

                f.intel.append(Intel(turn=ctx.state.turn, kind="divination", about=target, data=snapshot))
                ctx.tell(fid, "divination", {"target": target, "snapshot": snapshot})


def _army_named(ctx: Ctx, fid: str, name: str) -> Army | None:
    for army in ctx.state.armies:
        if army.faction == fid and army.name == name:
            return army
    return None


# ----------------------------------------------------------------------------- rituals

def ritual(ctx: Ctx, fid: str, order: Order, done: list[str]) -> None:
    """«РИТУАЛЫ (не более 1 за ход)» — 2 or 3 after «Жертва пустоте», never two of a kind."""
    if fid != "void_cult":
        ctx.refuse(fid, order, "ритуалы доступны только Культу пустоты", "only the Void Cult performs rituals")
        return
    rid = str(order.args["ritual"])
    f = ctx.state.factions[fid]
    rules = ctx.campaign.model.void
    r = rules.rituals[rid]  # type: ignore[index]
    if rid in done:
        ctx.refuse(fid, order, "два одинаковых ритуала за ход нельзя", "not the same ritual twice in a turn")
        return
    if len(done) >= f.rituals_per_turn:
        ctx.refuse(fid, order, f"ритуалов за ход не больше {f.rituals_per_turn}", f"at most {f.rituals_per_turn} ritual(s) a turn")
        return
    turn = ctx.state.turn
    if rid == "summoning" and turn - f.last_summoning < r.every:
        ctx.refuse(fid, order, "призыв — не чаще чем раз в 2 хода", "summoning at most once in two turns")
        return
    target: City | None = None
    if rid == "infection":
        target = ctx.state.cities.get(str(order.args["city"]))
        problem = infection_problem(ctx, target)
        if problem:
            ctx.refuse(fid, order, *problem)
            return
    if rid == "deal":
        target = ctx.state.cities.get(str(order.args["city"]))
        if target is None or target.kind != "small" or target.ruins or target.owner == fid or protected(ctx, target):
            ctx.refuse(fid, order, "сделка с дьяволом берёт малый город (не руины, не ваш)",
                       "the deal takes a small city (not ruins, not yours)")
            return
        if target.floating:
            ctx.refuse(fid, order, "город парит в небе: его невозможно захватить", "the city floats: it cannot be taken")
            return
    if rid == "sacrifice":
        target = own_city(ctx, fid, order)
        if target is None:
            return
    choice: dict[str, int] | None = None
    if rid in ("summoning", "feeding"):
        choice = demon_choice(ctx, fid, order, ctx.campaign.demons(rules.summoning, turn))
        if choice is None:
            return
    if not pay(ctx, fid, order, "ritual", r.gold, 0, ritual=rid):
        return
    done.append(rid)
    ctx.book(fid, "ritual_hunger", 0, r.hunger, ritual=rid)
    data: dict[str, Any] = {"ritual": rid}
    if rid == "infection":
        assert target is not None
        roll = r.small if target.kind == "small" else r.large
        assert roll is not None
        amount = roll.plus
        if not ctx.checking:
            stream = ctx.stream(f"infection/{target.id}")
            faces = stream.rolls(roll.dice, roll.sides)
            amount += sum(faces)
            data.update(city=target.id, amount=amount, faces=faces, **{CITED: [stream.cite("/faces")]})
            ctx.tell(fid, "ritual", data)
            add_corruption(ctx, target, amount, "infection")
        return
    if rid == "deal":
        assert target is not None
        f.hunger_max += r.max_change
        data.update(city=target.id)
        if not ctx.checking:
            ctx.tell(fid, "ritual", data)
            target.level = 1
            city_taken_by_cult(ctx, target, "deal")
        add_to_pool(ctx, fid, dict(r.demons))
        return
    if rid == "summoning":
        assert choice is not None
        f.last_summoning = turn
        add_to_pool(ctx, fid, choice)
        data.update(units=choice)
    elif rid == "cursed_gold":
        reward = max(0, r.reward - r.reward_decrease * f.cursed_gold_uses)
        f.cursed_gold_uses += 1
        ctx.book(fid, "cursed_gold", int(reward * ctx.multiplier), 0)
        data.update(gold=int(reward * ctx.multiplier))
    elif rid == "oath":
        f.oath_turn = turn
    elif rid == "sacrifice":
        assert target is not None
        f.rituals_per_turn = min(rules.rituals_per_turn_max, f.rituals_per_turn + 1)
        data.update(city=target.id, rituals=f.rituals_per_turn)
        if not ctx.checking:
            make_ruins(ctx, target, fid, "sacrifice")
    elif rid == "feeding":
        assert choice is not None
        f.feeding_turn = turn
        f.demon_choice = ctx.campaign.demons(rules.summoning, turn).index(choice)
        data.update(units=choice)
    ctx.tell(fid, "ritual", data)


def demon_choice(ctx: Ctx, fid: str, order: Order, choices: list[dict[str, int]]) -> dict[str, int] | None:
    """The demons a player picked from the turn's row («15 низших демонов или 8 заразителей или 1
    демонолог»); the first when none is named."""
    wanted = order.args.get("units")
    if not wanted:
        return choices[0]
    wanted = {str(u): int(n) for u, n in dict(wanted).items()}
    if wanted in choices:
        return wanted
    shown_ru = " или ".join(", ".join(f"{n} {ctx.campaign.rules.units[u].name_ru}" for u, n in c.items())
                            for c in choices)
    shown_en = " or ".join(", ".join(f"{n} {ctx.campaign.rules.units[u].name_en}" for u, n in c.items())
                           for c in choices)
    ctx.refuse(fid, order, f"в этот ход на выбор: {shown_ru}", f"this turn's choice: {shown_en}")
    return None


def infection_problem(ctx: Ctx, city: City | None) -> tuple[str, str] | None:
    """«Выберите любой город на карте, соседний с вашим городом, который не является руинами ...
    Против городов Благословлённых Небом заражение использовать нельзя, если они парят в небе.»"""
    if city is None or city.gone or city.kind == "mobile":
        return "такого города нет на карте", "no such city on the map"
    if city.ruins:
        return "руины заразить нельзя", "ruins cannot be infected"
    if city.owner == "void_cult":
        return "это ваш город", "that is your city"
    if protected(ctx, city):
        return "город победившей фракции недоступен", "a winner's city is out of reach"
    if city.floating:
        return "город парит в небе: заражение не действует", "the city floats in the sky: infection cannot reach it"
    ours = {c.id for c in ctx.state.cities_of("void_cult")}
    if not ours.intersection(ctx.campaign.neighbours.get(city.id, ())) and city.id not in camp_ends(ctx, "void_cult"):
        return ("заразить можно только город, соседний с вашим (или на конце дороги вашего лагеря)",
                "only a city next to one of yours (or at an end of your camp's road) can be infected")
    return None


# ----------------------------------------------------------------------------- the cult's camp

def camp_ends(ctx: Ctx, fid: str) -> set[str]:
    """The two cities of the road the faction's camp stands on (the cult's; ruling C53)."""
    camp = ctx.state.factions[fid].camp
    return set(camp) if camp else set()


def camp_anchors(ctx: Ctx, fid: str) -> set[str]:
    """The cities a camp's road must start from: the cult's cities and ruins and its camp's two
    cities (a camp moves one road a turn); with none of them, the city it lost last; with no such
    city either (a map that gives the cult none), nothing: any road."""
    held = {c.id for c in ctx.state.cities_of(fid, ruins=True) if c.kind != "mobile"} | camp_ends(ctx, fid)
    last = ctx.state.factions[fid].last_city
    if not held and last is not None and not ctx.state.cities[last].gone:
        return {last}
    return held


def pitch_camp(ctx: Ctx, fid: str, order: Order, pitched: list[str]) -> None:
    """«Ваша фракция может существовать без городов, а ваша армия может создавать временные
    лагеря на дороге между городами» (ruling C53): the camp stands on a road from one of the
    cult's cities or ruins, or on a road sharing a city with its camp's (one road a turn); the
    cities at the two ends of its road are within reach of the cult's attacks and infection."""
    if fid != "void_cult":
        ctx.refuse(fid, order, "лагеря на дорогах разбивает армия Культа пустоты («Ваша фракция может существовать "
                   "без городов»)", "only the Void Cult's army camps on roads")
        return
    if pitched:
        ctx.refuse(fid, order, "лагерь за ход разбивают один", "one camp a turn")
        return
    a, b = (str(x) for x in order.args["road"])
    if frozenset((a, b)) not in {frozenset(r) for r in ctx.campaign.map.roads}:
        ctx.refuse(fid, order, "между этими городами нет дороги", "no road joins these cities")
        return
    if ctx.state.cities[a].gone or ctx.state.cities[b].gone:
        ctx.refuse(fid, order, "дорога ведёт к городу, которого больше нет на карте", "the road leads to a city no longer on the map")
        return
    f = ctx.state.factions[fid]
    road = sorted([a, b])
    pitched.append(order.text or "camp")
    if f.camp == road:
        return
    anchors = camp_anchors(ctx, fid)
    if anchors and not anchors.intersection(road):
        names = join_and(sorted(name_ru(ctx, c) for c in anchors))
        ctx.refuse(fid, order, f"лагерь разбивают на дороге от вашего города, руин или прежнего лагеря (на одну дорогу "
                   f"за ход): от городов {names}", "a camp stands on a road from a city or ruins of yours, or next to "
                   "your last camp (one road a turn)")
        return
    old = f.camp
    f.camp = road
    ctx.tell(fid, "camp", {"road": road, "from": old})


def reached_from_camp(ctx: Ctx, fid: str, city: City) -> bool:
    """Whether the cult reaches ``city`` only through its camp (no city of its own next to it)."""
    if city.id not in camp_ends(ctx, fid) and not (city.kind == "mobile" and city.road == ctx.state.factions[fid].camp):
        return False
    if city.kind == "mobile":
        return True
    ours = {c.id for c in ctx.state.cities_of(fid)}
    return not ours.intersection(ctx.campaign.neighbours.get(city.id, ()))


def strike_camp(ctx: Ctx, fid: str, reason: str, **detail: Any) -> None:
    """The camp falls: its army beaten back from the city it marched on, no unit left to hold
    it, or its road gone from the map (ruling C53)."""
    f = ctx.state.factions[fid]
    if f.camp is None:
        return
    road = f.camp
    f.camp = None
    ctx.tell(fid, "camp_fell", {"road": road, "why": reason, **detail})


# ----------------------------------------------------------------------------- the mobile city

def road_distance(ctx: Ctx, start: tuple[str, str], goal: tuple[str, str]) -> int | None:
    """Moves between two roads: one move goes to a road sharing a city with the current one."""
    from collections import deque

    key = frozenset(goal)
    seen = {frozenset(start)}
    queue: deque[tuple[frozenset[str], int]] = deque([(frozenset(start), 0)])
    roads = [frozenset(r) for r in ctx.campaign.map.roads]
    while queue:
        road, dist = queue.popleft()
        if road == key:
            return dist
        for other in roads:
            if other not in seen and road & other:
                if any(ctx.state.cities[c].gone for c in other):
                    continue
                seen.add(other)
                queue.append((other, dist + 1))
    return None


def move_mobile(ctx: Ctx, fid: str, order: Order) -> None:
    """«Передвижной город располагается на дороге между двумя другими городами и каждый ход может
    дважды переместиться» (a move: to a road sharing a city with the current one, ruling C24)."""
    mobile = eco.mobile_city(ctx.state)
    if fid != "ogres" or mobile is None or mobile.owner != "ogres" or mobile.gone:
        ctx.refuse(fid, order, "передвижной город есть только у огров", "only the ogres have a mobile city")
        return
    a, b = (str(x) for x in order.args["road"])
    if frozenset((a, b)) not in {frozenset(r) for r in ctx.campaign.map.roads}:
        ctx.refuse(fid, order, "между этими городами нет дороги", "no road joins these cities")
        return
    assert mobile.road is not None
    dist = road_distance(ctx, (mobile.road[0], mobile.road[1]), (a, b))
    moves = ctx.campaign.model.ogres.moves_per_turn
    if dist is None or dist > moves:
        ctx.refuse(fid, order, f"за ход передвижной город перемещается не больше {moves} раз",
                   f"the mobile city moves at most {moves} times a turn")
        return
    ordered = sorted([a, b])
    if ordered != mobile.road:
        mobile.road = ordered
        ctx.emit("mobile_moved", {"road": list(ordered)})


# ----------------------------------------------------------------------------- armies

def attack_problem(ctx: Ctx, fid: str, city: City | None, teleport: bool) -> tuple[str, str] | None:
    """«Атаковать город другой фракции можно только в том случае, если он является соседним к
    любому из ваших городов.»"""
    if city is None or city.gone:
        return "такого города нет на карте", "no such city on the map"
    if city.owner == fid:
        return "это ваш город", "that is your own city"
    if protected(ctx, city):
        return ("город победившей фракции недоступен для атаки («ваши города становятся недоступны для атаки»)",
                "a winner's cities cannot be attacked")
    if city.owner is not None and ctx.options.alliances_forbid_attacks and ctx.state.allied(fid, city.owner):
        return "союзника атаковать нельзя (сначала разорвите союз)", "you cannot attack an ally (break the alliance first)"
    if fid == "ogres" and city.ruins:
        return "огры не захватывают чужих городов, а в руинах нечего разрушать", "the ogres take no city, and ruins hold nothing to raze"
    if teleport:
        return None
    if city.kind == "mobile":
        assert city.road is not None
        if not any(ctx.state.cities[c].owner == fid and not ctx.state.cities[c].ruins for c in city.road) \
                and city.road != ctx.state.factions[fid].camp:
            return ("передвижной город огров стоит не рядом с вашим городом",
                    "the ogres' mobile city does not stand next to a city of yours")
        return None
    if fid == "ogres":
        mobile = eco.mobile_city(ctx.state)
        if mobile is None or mobile.road is None or city.id not in mobile.road:
            return ("огры атакуют только города на концах дороги, где стоит передвижной город",
                    "the ogres attack only the cities at the ends of their mobile city's road")
        return None
    ours = {c.id for c in ctx.state.cities_of(fid)}
    if not ours.intersection(ctx.campaign.neighbours.get(city.id, ())) and city.id not in camp_ends(ctx, fid):
        return ("атаковать можно только город, соединённый дорогой с вашим" +
                (" (или на конце дороги вашего лагеря)" if fid == "void_cult" else ""),
                "you can only attack a city joined by road to one of yours" +
                (" (or at an end of your camp's road)" if fid == "void_cult" else ""))
    return None


def form_armies(ctx: Ctx, fid: str, orders: Sequence[Order], done_rituals: list[str]) -> None:
    """«Каждый ход вы распределяете всех ваших юнитов на одну или несколько (в зависимости от
    эпохи) армий ... либо рассредоточиться, либо оборонять город, либо атаковать город
    противника.» Units named in no army form one more, dispersed (ruling C5)."""
    f = ctx.state.factions[fid]
    pool = dict(f.units)
    army_orders = [o for o in orders if o.kind == "army"]
    limit = ctx.campaign.epoch(ctx.state.turn).max_armies
    epoch = ctx.campaign.epoch(ctx.state.turn)
    names: set[str] = set()
    made: list[Army] = []
    rest_order: Order | None = None
    for order in army_orders:
        name = str(order.args["name"])
        if name in names:
            ctx.refuse(fid, order, f"армия «{name}» названа дважды", f"army '{name}' is named twice")
            continue
        names.add(name)
        units = order.args["units"]
        if units == "rest":
            if rest_order is not None:
                ctx.refuse(fid, order, "«остальные» — только в одной армии", "'rest' in one army only")
                continue
            rest_order = order
            continue
        if units == "all":
            if len(army_orders) > 1:
                ctx.refuse(fid, order, "«все» — когда армия одна", "'all' only when there is one army")
                continue
            units = dict(pool)
        units = {str(u): int(n) for u, n in dict(units).items()}
        short = {u: n for u, n in units.items() if n > pool.get(u, 0)}
        if short:
            uid, n = next(iter(short.items()))
            left = pool.get(uid, 0)
            ctx.refuse(fid, order, f"в армии {unit_counted(ctx.campaign.rules, uid, n)}, а свободных у "
                       f"вас {left}", f"{unit_counted(ctx.campaign.rules, uid, n, 'en')} in the army, but only {left} free")
            continue
        if not units:
            ctx.refuse(fid, order, "в армии нет юнитов", "the army has no units")
            continue
        eco.remove_units(pool, units)
        made.append(_army(ctx, fid, order, units))
    if rest_order is not None:
        made.append(_army(ctx, fid, rest_order, dict(pool)))
        pool = {}
    extra = 1 if limit and ctx.options.unassigned_units_form_army and sum(pool.values()) > 0 and made else 0
    if limit and len(made) + extra > limit:
        last = army_orders[-1] if army_orders else None
        left = sum(pool.values())
        ctx.refuse(fid, last,
                   f"в эпоху «{epoch.name_ru}» армий не больше {limit}" + (
                       f"; юниты вне армий ({left}) — тоже армия (впишите их: «Армия: все — ...»; не поставленные в "
                       "расстановку в бою не участвуют)" if extra else ""),
                   f"in {epoch.name_en} at most {limit} army(ies)" + (
                       f"; the units in no army ({left}) are an army too (write 'Army: all - ...'; units not placed "
                       "in a battle stay out of it)" if extra else ""))
        made = made[:max(0, limit - extra)] if not ctx.checking else made
    for army in made:
        act_problem = _action_problem(ctx, fid, army, made)
        if act_problem:
            ctx.refuse(fid, _order_of(army_orders, army), *act_problem)
            army.action = "disperse"
            army.target = None
            army.teleport = False
            continue
        if army.action == "attack" and not army.teleport and army.target:
            army.from_camp = reached_from_camp(ctx, fid, ctx.state.cities[army.target])
        if army.teleport:
            rid = "teleport"
            r = ctx.campaign.model.void.rituals["teleport"]
            if rid in done_rituals or len(done_rituals) >= f.rituals_per_turn:
                ctx.refuse(fid, _order_of(army_orders, army), "телепортация — это ритуал: лимит ритуалов за ход исчерпан "
                           "(или второй такой же)", "a teleport is a ritual: no ritual left this turn")
                army.action, army.target, army.teleport = "disperse", None, False
                continue
            if not pay(ctx, fid, _order_of(army_orders, army) or Order("army"), "ritual", r.gold, 0, ritual=rid):
                army.action, army.target, army.teleport = "disperse", None, False
                continue
            done_rituals.append(rid)
            ctx.book(fid, "ritual_hunger", 0, r.hunger, ritual=rid)
            ctx.tell(fid, "ritual", {"ritual": rid, "city": army.target, "army": army.name})
    ctx.state.armies.extend(made)


def _order_of(orders: Sequence[Order], army: Army) -> Order | None:
    for order in orders:
        if order.line == army.line:
            return order
    return orders[-1] if orders else None


def _army(ctx: Ctx, fid: str, order: Order, units: dict[str, int]) -> Army:
    action = str(order.args["action"])
    teleport = action == "teleport"
    return Army(id=f"{fid}/{order.args['name']}", faction=fid, name=str(order.args["name"]),
                units=eco.sorted_units(units, ctx.campaign), action="attack" if teleport else action,  # type: ignore[arg-type]
                target=order.args.get("target"), teleport=teleport, choice=order.args.get("choice"), line=order.line)


def _action_problem(ctx: Ctx, fid: str, army: Army, made: Sequence[Army]) -> tuple[str, str] | None:
    if army.action == "disperse":
        return None
    city = ctx.state.cities.get(army.target or "")
    if army.action == "defend":
        if city is None or city.owner != fid or city.ruins or city.gone:
            return "оборонять можно только свой город (не руины)", "an army defends only a city of yours (not ruins)"
        if city.kind == "mobile":
            return ("передвижной город и так защищает вся армия", "the whole army defends the mobile city anyway")
        return None
    if army.choice is not None:
        from voevoda.rulesets.steel_rose.campaign.battles import choices_for
        from voevoda.rulesets.steel_rose.campaign.orders import CHOICE_EN, CHOICE_RU

        allowed = choices_for(fid)
        if army.choice not in allowed and not (fid == "ogres" and army.choice == "raze"):
            return ("вашей фракции при захвате доступно: " + ", ".join(CHOICE_RU[c] for c in allowed),
                    "your faction may: " + ", ".join(CHOICE_EN[c] for c in allowed))
    if army.teleport and fid != "void_cult":
        return "телепортация — ритуал Культа пустоты", "teleport is a Void Cult ritual"
    if sum(1 for a in made if a.action == "attack" and a.target == army.target) > 1:
        return ("две армии одной фракции на один город: соберите их в одну",
                "two armies of one faction attack one city: make them one army")
    return attack_problem(ctx, fid, city, army.teleport)


FACTION_ORDER = FACTIONS
