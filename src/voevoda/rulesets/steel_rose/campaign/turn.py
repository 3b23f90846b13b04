"""One turn of the campaign, step by step, as the document runs it.

A turn is up to four posts long (docs/steel_rose/campaign.md §2):

1. **orders** (every faction at once): the economy, spells, rituals, diplomacy, the mobile city
   and the armies (:func:`resolve_orders`);
2. **deployment** and 3. **planning** of every battle (only the two sides of each battle post:
   «От каждого игрока требуется лишь 2 поста: 1 с расстановкой и 1 с планированием»);
4. **capture** choices of the winners that did not give one with their attack.

The end of the turn (:func:`end_turn`) follows the last of them: income, unique resources,
free units and the Dark Alliance's demons, upkeep, the void hunger's limit, the detection of
corruption, victory, and the next epoch with its gifts — or Midnight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import CITED
from voevoda.core.ruleset import Order
from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.campaign import actions as act
from voevoda.rulesets.steel_rose.campaign import battles as bat
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign import victory as vic
from voevoda.rulesets.steel_rose.campaign.context import Ctx
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS
from voevoda.rulesets.steel_rose.campaign.state import Intel

ECONOMY_ORDER = ("raise", "build", "restore", "cleanse", "hire", "garrison", "demons")


def faction_posts(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> dict[str, list[Order]]:
    """Orders by faction, in the document's faction order."""
    out: dict[str, list[Order]] = {}
    for fid in FACTIONS:
        f = ctx.state.factions.get(fid)
        if f is None or f.status != "playing":
            continue
        out[fid] = list(orders.get(f.player, ())) if f.player else []
    return out


# ----------------------------------------------------------------------------- step 1

def start_of_turn(ctx: Ctx) -> None:
    """What the new turn begins with: the floating cities land (a spell lasts its turn, ruling
    C22), the ledgers open, and the void hunger grows («ГП копится пассивно ... в ход», counted at
    the start so that the cult can «исправить это к концу хода», ruling C31)."""
    state = ctx.state
    for city in state.cities.values():
        city.floating = False
    state.armies = []
    state.battles = []
    state.captures = []
    for fid, f in state.factions.items():
        if f.status == "playing":
            ctx.ledger(fid)
    cult = state.factions.get("void_cult")
    if cult is not None and cult.status == "playing":
        growth = eco.hunger_passive(ctx.campaign, state)
        doubled = ctx.options.sunset_void_hunger and ctx.multiplier != 1
        if ctx.options.sunset_void_hunger:
            growth = int(growth * ctx.multiplier)
        altars = sum(1 for c in state.cities_of("void_cult") for _b, b in eco.buildings_of(ctx.campaign, c)
                     if b.hunger_passive)
        # why it grows as it does, for the statement: «+10 в ход и ещё +15 за каждый город», the altars
        ctx.book("void_cult", "hunger_passive", 0, float(growth), cities=len(state.cities_of("void_cult")),
                 altars=altars, doubled=doubled)


def economy(ctx: Ctx, fid: str, orders: Sequence[Order]) -> None:
    """One faction's economic orders: sales first, then by kind in a fixed order (whatever their
    order in the post), so that a building bought in the post lets the same post hire."""
    expanded = act.expand_template(ctx, fid, orders)
    posted = [o for o in orders if o.kind not in ("template", "template_buildings")]
    everything = expanded + posted
    for order in everything:
        if order.kind == "sell":
            act.sell(ctx, fid, order)
    for kind in ECONOMY_ORDER:
        for order in everything:
            if order.kind != kind:
                continue
            if kind == "raise":
                act.raise_level(ctx, fid, order)
            elif kind == "build":
                act.build(ctx, fid, order)
            elif kind == "restore":
                act.restore(ctx, fid, order)
            elif kind == "cleanse":
                act.cleanse(ctx, fid, order)
            elif kind == "hire":
                act.hire(ctx, fid, order)
            elif kind == "garrison":
                act.garrison_placement(ctx, fid, order)
            elif kind == "demons":
                choose_gift(ctx, fid, order)


def choose_gift(ctx: Ctx, fid: str, order: Order) -> None:
    """«она получает к своим войскам демонов на свой выбор каждый ход»"""
    if not ctx.state.allied(fid, "void_cult"):
        ctx.refuse(fid, order, "демонов получают союзники Культа пустоты", "demons are for the Void Cult's allies")
        return
    choices = ctx.campaign.demons(ctx.campaign.model.void.alliance, ctx.state.turn)
    chosen = act.demon_choice(ctx, fid, order, choices)
    if chosen is not None:
        ctx.state.factions[fid].demon_choice = choices.index(chosen)


def spells_and_rituals(ctx: Ctx, fid: str, orders: Sequence[Order], rituals_done: list[str]) -> None:
    """Spells, the cult's camp (before its rituals: an infection may reach from it), rituals, the
    mobile city's moves."""
    for order in orders:
        if order.kind == "spell" and order.args.get("spell") != "heavenly_favour":
            act.cast(ctx, fid, order)
    pitched: list[str] = []
    for order in orders:
        if order.kind == "camp":
            act.pitch_camp(ctx, fid, order, pitched)
    for order in orders:
        if order.kind == "ritual":
            act.ritual(ctx, fid, order, rituals_done)
    for order in orders:
        if order.kind == "mobile":
            act.move_mobile(ctx, fid, order)


def check_post(ctx: Ctx, fid: str, orders: Sequence[Order]) -> None:
    """Everything one faction's post asks, on a copy of the state (``ctx.checking``)."""
    act.diplomacy(ctx, {fid: list(orders)})
    economy(ctx, fid, orders)
    rituals: list[str] = []
    spells_and_rituals(ctx, fid, orders, rituals)
    act.form_armies(ctx, fid, orders, rituals)
    for order in orders:
        if order.kind == "spell" and order.args.get("spell") == "heavenly_favour":
            act.cast(ctx, fid, order)


def resolve_orders(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    start_of_turn(ctx)
    posts = faction_posts(ctx, orders)
    act.diplomacy(ctx, posts)
    for fid, post in posts.items():
        if ctx.state.factions[fid].status == "playing":
            economy(ctx, fid, post)
    rituals: dict[str, list[str]] = {fid: [] for fid in posts}
    for fid, post in posts.items():
        if ctx.state.factions[fid].status == "playing":
            spells_and_rituals(ctx, fid, post, rituals[fid])
    for fid, post in posts.items():
        if ctx.state.factions[fid].status == "playing":
            act.form_armies(ctx, fid, post, rituals[fid])
    for fid, post in posts.items():
        for order in post:
            if order.kind == "spell" and order.args.get("spell") == "heavenly_favour":
                act.cast(ctx, fid, order)
    bat.plan_battles(ctx)
    after_battles_planned(ctx)


def after_battles_planned(ctx: Ctx) -> None:
    state = ctx.state
    if any(b.status == "pending" for b in state.battles):
        state.phase = "deployment"
        return
    bat.fight_all(ctx)
    after_battles(ctx)


# ----------------------------------------------------------------------------- steps 2 and 3

def pending_battles_of(ctx: Ctx, fid: str) -> list[tuple[str, str]]:
    """(battle id, role) of the faction's battles still to be fought."""
    out = []
    for battle in ctx.state.battles:
        if battle.status != "pending":
            continue
        if battle.attacker.faction == fid:
            out.append((battle.id, "attacker"))
        if battle.defender.faction == fid:
            out.append((battle.id, "defender"))
    return out


def resolve_deployments(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    """«Расстановка»: each side's squads for each of its battles; a side that sent nothing stands
    as :func:`~.battles.default_deployment` says."""
    for battle in ctx.state.battles:
        if battle.status != "pending":
            continue
        for role in ("attacker", "defender"):
            side = getattr(battle, role)
            player = ctx.state.factions[side.faction].player if side.faction else None
            given = [o for o in orders.get(player, ()) if o.kind == "deploy" and o.args["battle"] == battle.id] \
                if player else []
            if given:
                side.deployment = [dict(s) for s in given[0].args["squads"]]
                side.gunpowder = given[0].args.get("gunpowder")
                side.powder = [dict(p) for p in given[0].args.get("powder", [])]
            else:
                side.deployment = bat.default_deployment(ctx, battle, role)
    ctx.state.phase = "planning"
    for battle in ctx.state.battles:
        if battle.status != "pending":
            continue
        ctx.emit("deployed", {"battle": battle.id, "city": battle.city,
                              "attacker": battle.attacker.deployment, "defender": battle.defender.deployment},
                 ctx.audience(battle.attacker.faction, battle.defender.faction))


def resolve_plans(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    """«Планирование»: one manoeuvre per squad; then every battle is fought."""
    for battle in ctx.state.battles:
        if battle.status != "pending":
            continue
        for role in ("attacker", "defender"):
            side = getattr(battle, role)
            player = ctx.state.factions[side.faction].player if side.faction else None
            given = [o for o in orders.get(player, ()) if o.kind == "plan" and o.args["battle"] == battle.id] \
                if player else []
            side.plan = [dict(m) for m in given[0].args["manoeuvres"]] if given else []
            side.skip = bool(given and given[0].args.get("skip"))
    bat.fight_all(ctx)
    after_battles(ctx)


def after_battles(ctx: Ctx) -> None:
    if any(not c.done for c in ctx.state.captures):
        ctx.state.phase = "capture"
        return
    end_turn(ctx)


# ----------------------------------------------------------------------------- step 4

def resolve_captures(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    for cap in ctx.state.captures:
        if cap.done:
            continue
        player = ctx.state.factions[cap.faction].player
        given = [o for o in orders.get(player, ()) if o.kind == "capture" and o.args["city"] == cap.city] \
            if player else []
        cap.choice = given[0].args["choice"] if given else bat.default_choice(cap.faction)
        bat.apply_capture(ctx, cap)
    end_turn(ctx)


# ----------------------------------------------------------------------------- the end of the turn

def end_turn(ctx: Ctx) -> None:
    state = ctx.state
    income_step(ctx)
    units_step(ctx)
    upkeep_step(ctx)
    camp_step(ctx)
    hunger_step(ctx)
    detection_step(ctx)
    snapshots(ctx)
    victory_step(ctx)
    for fid, led in state.ledgers.items():
        f = state.factions[fid]
        ctx.emit("ledger", {"faction": fid, "opening": led.opening, "lines": list(led.lines), "closing": f.gold,
                            "resource": f.resource}, ctx.audience(fid))
    state.ledgers = {}
    if state.phase == "over":
        return
    if ctx.campaign.last_turn and state.turn >= ctx.campaign.last_turn:
        midnight(ctx)
        return
    if len([f for f in state.factions.values() if f.status == "playing"]) <= 1:
        last_standing(ctx)
        return
    state.turn += 1
    state.phase = "orders"
    new_epoch(ctx)


def defended_cities(ctx: Ctx) -> set[tuple[str, str]]:
    """(faction, city) for each city an army of that faction was ordered to defend: the penalty
    is the defender's («при обороне армией города его доход снизится»), not a captor's that took
    the city from it (ruling C4)."""
    return {(a.faction, a.target) for a in ctx.state.armies if a.action == "defend" and a.target}


def income_step(ctx: Ctx) -> None:
    """«Малые: +(150*уровень)з в ход», buildings, «при обороне армией города его доход снизится»,
    Sunset's doubling; the ogres' allies pay them «10% дохода этой фракции»."""
    state = ctx.state
    defended = defended_cities(ctx)
    mult = ctx.multiplier
    incomes: dict[str, int] = {}
    for fid, f in state.factions.items():
        if f.status != "playing":
            continue
        total = 0
        for city in state.cities_of(fid):
            income = eco.city_income(ctx.campaign, city, defended=(fid, city.id) in defended, turn=state.turn)
            gold = int(income.total * mult)
            total += gold
            if gold or income.idle or income.defended:
                ctx.book(fid, "income", gold, 0, always=True, city=city.id, base=income.base,
                         buildings=income.buildings, halved=income.halved, defended=income.defended, idle=income.idle)
        incomes[fid] = total
        # a line per source («основной прирост», «Святилище природы (Эльдаран)»): a statement's
        # cell never holds a list of them
        for source, amount in eco.resource_per_turn(ctx.campaign, state, fid):
            if amount:
                ctx.book(fid, "production", 0, amount * mult, source=source)
    ogres = state.factions.get("ogres")
    if ogres is not None and ogres.status == "playing":
        share = ctx.campaign.model.ogres.alliance_income_percent / 100
        for fid, total in incomes.items():
            if fid != "ogres" and state.allied(fid, "ogres") and total:
                fee = int(total * share)
                if fee:
                    ctx.book(fid, "ogre_contract", -fee, 0)
                    ctx.book("ogres", "ogre_contract", fee, 0, payer=fid)


def units_step(ctx: Ctx) -> None:
    """Free units of buildings, the Dark Alliance's demons («получает к своим войскам демонов на
    свой выбор каждый ход»), demonologists' summons when they do not summon in battle."""
    state = ctx.state
    for fid, f in state.factions.items():
        if f.status != "playing":
            continue
        free = eco.units_per_turn(ctx.campaign, state, fid)
        if not ctx.options.battle.demonologist_summons_in_battle and f.units.get("demonologist"):
            eco.add_units(free, {"lesser_demon": f.units["demonologist"]})
        if free:
            act.add_to_pool(ctx, fid, free)
            ctx.tell(fid, "free_units", {"units": free})
        if fid != "void_cult" and state.allied(fid, "void_cult") and state.factions["void_cult"].status == "playing":
            choices = ctx.campaign.demons(ctx.campaign.model.void.alliance, state.turn)
            gift = choices[min(f.demon_choice, len(choices) - 1)]
            act.add_to_pool(ctx, fid, gift, gifted=True)
            ctx.tell(fid, "demons_gift", {"units": gift})


def upkeep_step(ctx: Ctx) -> None:
    """«5з/ход»; the ogres' «-2 Мяса в ход». Units whose upkeep cannot be paid leave (ruling C14)."""
    state = ctx.state
    for fid, f in state.factions.items():
        if f.status != "playing" or not f.units:
            continue
        units = dict(f.units)
        if not ctx.options.gift_demons_upkeep:
            eco.remove_units(units, f.gifted)
        meat_applies = fid == "ogres"
        probe = f.model_copy(update={"units": units})
        left, gold, meat = eco.dismiss_for_upkeep(ctx.campaign, probe, f.gold, f.resource, meat_applies)
        if left:
            act.lose_units(ctx, fid, left)
            for army in state.armies:
                if army.faction == fid:
                    army.units = {u: n for u, n in army.units.items() if n > 0}
            ctx.tell(fid, "deserted", {"units": left})
        ctx.book(fid, "upkeep", -gold, -meat if meat_applies else 0)


def camp_step(ctx: Ctx) -> None:
    """«временные лагеря»: a camp stands from turn to turn while the cult has an army to hold it
    and its road is on the map (ruling C53)."""
    cult = ctx.state.factions.get("void_cult")
    if cult is None or cult.camp is None:
        return
    if cult.status != "playing" or not cult.units:
        act.strike_camp(ctx, "void_cult", "no_army")
    elif any(ctx.state.cities[c].gone for c in cult.camp):
        act.strike_camp(ctx, "void_cult", "road_gone")


def hunger_step(ctx: Ctx) -> None:
    """«Если ГП превысит 100, и вы не исправите это к концу хода, то он сбросится до 0, а вы
    теряете 1 случайный город (он становится руинами). Если у вас не было городов, вместо этого
    вы просто проигрываете и выбываете из игры.»"""
    cult = ctx.state.factions.get("void_cult")
    if cult is None or cult.status != "playing" or cult.resource <= cult.hunger_max:
        return
    ctx.book("void_cult", "hunger_overflow", 0, -cult.resource)
    cities = ctx.state.cities_of("void_cult")
    if not cities:
        act.eliminate(ctx, "void_cult", "hunger")
        return
    stream = ctx.stream("hunger/city")
    lost = cities[stream.roll(len(cities)) - 1]
    ctx.tell("void_cult", "hunger_overflow", {"city": lost.id, "of": [c.id for c in cities], "roll": stream.faces[0],
                                              CITED: [stream.cite("/roll")]})
    act.make_ruins(ctx, lost, "void_cult", "hunger")


def detection_step(ctx: Ctx) -> None:
    """«с шансом 50% обнаруживает заражение культа пустоты в этом и связанных городах»: each
    detection building rolls for each corrupted city it covers (a sealed roll); what it finds is
    told to its owner only."""
    state = ctx.state
    for fid, f in state.factions.items():
        if f.status != "playing" or fid == "void_cult":
            continue
        found: dict[str, int] = {}
        rolls: dict[str, dict[str, Any]] = {}
        for city, bid, chance in eco.detectors(ctx.campaign, state, fid):
            for cid in (city.id, *ctx.campaign.neighbours.get(city.id, ())):
                target = state.cities[cid]
                if cid in found or target.corruption <= 0 or target.gone:
                    continue
                if chance >= 1:
                    found[cid] = target.corruption
                    continue
                stream = ctx.stream(f"detect/{fid}/{city.id}/{bid}/{cid}")
                if stream.chance(chance):
                    found[cid] = target.corruption
                    # the d1000000 that found it, against the chance in a million, cited
                    rolls[cid] = {"roll": stream.faces[-1], "chance": round(chance * 1_000_000),
                                  CITED: [stream.cite("/roll", stream.count - 1, 1)]}
        for cid, level in found.items():
            f.intel.append(Intel(turn=state.turn, kind="corruption", about=cid, data={"level": level}))
            ctx.tell(fid, "corruption_found", {"city": cid, "level": level, **rolls.get(cid, {})})


def snapshots(ctx: Ctx) -> None:
    """What «Прорицание» shows: «запас золота, уникального ресурса и ... количестве и типе юнитов
    ... на момент конца её предыдущего хода»."""
    for f in ctx.state.factions.values():
        f.snapshot = {"turn": ctx.state.turn, "gold": f.gold, "resource": f.resource, "units": dict(f.units)}


# ----------------------------------------------------------------------------- victory

def victory_step(ctx: Ctx) -> None:
    """A faction whose «УСЛОВИЯ ПОБЕДЫ» are met at the end of the turn — every item of its list,
    ruling C36 (option ``victory_conditions = any``: one item) — wins and leaves: «Вы выходите из
    игры, ваши города становятся недоступны для атаки»; the cult's captured cities go «прямиком в
    ад», the elves' «поднимаются в небо», the ogres leave for the mountains."""
    state = ctx.state
    for fid in FACTIONS:
        f = state.factions.get(fid)
        if f is None or f.status != "playing" or f.player is None:
            continue
        items = vic.goals(ctx.campaign, ctx.options, state, fid)
        reason = vic.won_by(ctx.options, items)
        if reason is not None:
            win(ctx, fid, reason, [g.item for g in items if g.met])


def win(ctx: Ctx, fid: str, reason: str, met: Sequence[str] = ()) -> None:
    state = ctx.state
    f = state.factions[fid]
    f.status = "won"
    f.ended_turn = state.turn
    f.end_reason = reason
    if fid not in state.winners:
        state.winners.append(fid)
    state.armies = [a for a in state.armies if a.faction != fid]
    state.alliances = [p for p in state.alliances if fid not in p]
    gone = []
    for city in state.cities.values():
        if city.owner == fid and (fid in ("void_cult", "heaven", "ogres") or city.kind == "mobile"):
            city.gone = True
            gone.append(city.id)
    ctx.emit("victory", {"faction": fid, "reason": reason, "met": list(met), "gone": gone})


def midnight(ctx: Ctx) -> None:
    """«Полночь (9 ход): ... Они уничтожают все фракции, кроме уже победивших и той, у которой
    больше всего городов. Эта фракция выигрывает.» Ties: option ``midnight_tie``."""
    state = ctx.state
    alive = [fid for fid, f in state.factions.items() if f.status == "playing" and f.player is not None]
    counts = {fid: eco.count_cities(state, fid) for fid in alive}
    best = max(counts.values(), default=0)
    top = [fid for fid, n in counts.items() if n == best and n > 0]
    if len(top) > 1 and ctx.options.midnight_tie == "none":
        top = []
    for fid in alive:
        if fid in top:
            win(ctx, fid, "midnight")
        else:
            act.eliminate(ctx, fid, "midnight")
    for f in state.factions.values():
        if f.status == "idle":
            f.status = "out"
    ctx.emit("midnight", {"winners": top, "cities": counts})
    state.phase = "over"
    state.result_reason = "midnight"


def last_standing(ctx: Ctx) -> None:
    """Nobody left to fight: the one faction still playing has the most cities, and Midnight would
    make it the winner; the game ends now (ruling C35)."""
    state = ctx.state
    alive = [fid for fid, f in state.factions.items() if f.status == "playing" and f.player is not None]
    for fid in alive:
        win(ctx, fid, "last_standing")
    state.phase = "over"
    state.result_reason = "last_standing"


def new_epoch(ctx: Ctx) -> None:
    """«При наступлении эпохи боги посылают подарок (600з) фракции с наименьшим числом городов,
    кроме огров и культа пустоты.» Ties: option ``gift_tie``."""
    state = ctx.state
    epoch = ctx.campaign.epoch(state.turn)
    if epoch.first_turn != state.turn:
        return
    ctx.emit("epoch", {"epoch": epoch.id})
    mobile = eco.mobile_city(state)
    if mobile is not None and mobile.owner is not None and not mobile.gone:
        mobile.level = min(epoch.max_level, ctx.campaign.economy.max_level)
    if not epoch.gift:
        return
    candidates = [fid for fid, f in state.factions.items()
                  if f.status == "playing" and f.player is not None and fid not in ("ogres", "void_cult")]
    if not candidates:
        return
    counts = {fid: eco.count_cities(state, fid) for fid in candidates}
    low = min(counts.values())
    chosen = [fid for fid, n in counts.items() if n == low]
    if len(chosen) > 1 and ctx.options.gift_tie == "none":
        return
    amount = epoch.gift // len(chosen) if ctx.options.gift_tie == "split" else epoch.gift
    for fid in chosen:
        ctx.book(fid, "gift", amount, 0)
    ctx.emit("gift", {"factions": chosen, "gold": amount, "epoch": epoch.id})


def squads_of(raw: list[dict[str, object]]) -> list[SquadInput]:
    return [SquadInput.from_json(dict(s)) for s in raw]
