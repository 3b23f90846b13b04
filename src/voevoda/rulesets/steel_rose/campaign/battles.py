"""Battles for cities and what follows them: the garrison and the armies that defend it, the two
posts of each side, the battle engine, losses, honour, meat, void hunger, gunpowder, captures.

«При попытке захвата города противник будет вынужден сначала победить гарнизон»; a defending
army «временно прибавится к гарнизону», so the attacker fights one battle against the garrison
and every army defending the city. The battle itself is :func:`voevoda.rulesets.steel_rose.
battle.engine.fight`, fed through its public input model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from voevoda.core.dice import CITED, rerun_ref
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, PowderShare, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.posts import default_garrison_deployment
from voevoda.rulesets.steel_rose.battle.sides import check_army
from voevoda.rulesets.steel_rose.campaign import actions as act
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign.context import Ctx, SealedDice
from voevoda.rulesets.steel_rose.campaign.state import Army, Battle, Capture, City, Side

WHOLE_ARMY = "*"
"""A side whose armies are «абсолютно вся ваша армия» (the ogres defending their mobile city)."""


# ----------------------------------------------------------------------------- setting up

def plan_battles(ctx: Ctx) -> None:
    """One battle per attacking faction and city. Attacks on a floating city are called off
    («Пока город парит в воздухе, его невозможно захватить»). The mobile city's defence is
    fought first (its defenders are every ogre), the rest in a sealed random order."""
    state = ctx.state
    # «в состоянии войны» (ruling C26) is the turn before: the hiring of this turn is done
    state.wars = []
    attacks = [a for a in state.armies if a.action == "attack" and a.target]
    battles: list[Battle] = []
    for army in attacks:
        city = state.cities[army.target or ""]
        if city.floating:
            ctx.tell(army.faction, "called_off", {"city": city.id, "army": army.name, "why": "floating"})
            army.action, army.target = "disperse", None
            continue
        problem = act.attack_problem(ctx, army.faction, city, army.teleport)
        if problem:
            # what the post's checks could not know (another faction's orders of the turn)
            ctx.tell(army.faction, "called_off", {"city": city.id, "army": army.name, "why": "problem",
                                                  "ru": problem[0], "en": problem[1]})
            army.action, army.target = "disperse", None
            continue
        defender = city.owner
        if city.kind == "mobile":
            armies = [WHOLE_ARMY]
        else:
            armies = [a.id for a in state.armies if a.faction == defender and a.action == "defend"
                      and a.target == city.id]
        garrison = eco.garrison(ctx.campaign, city)
        battles.append(Battle(id=f"{city.id}/{army.faction}", city=city.id, order=0,
                              attacker=Side(faction=army.faction, armies=[army.id]),
                              defender=Side(faction=defender, armies=armies, garrison=garrison)))
    mobile_first = [b for b in battles if state.cities[b.city].kind == "mobile"]
    rest = [b for b in battles if state.cities[b.city].kind != "mobile"]
    if len(rest) > 1 and ctx.dice is not None:
        shuffled = ctx.stream("battle-order").shuffle(list(rest))
        rest = [b for b in shuffled if isinstance(b, Battle)]
    for i, battle in enumerate(mobile_first + rest):
        battle.order = i
    state.battles = mobile_first + rest
    for battle in state.battles:
        # ruins have no garrison and cannot be defended (ruling C13): anyone can see there is no
        # battle; an ogre city without ogres shows it only when it is fought
        if state.cities[battle.city].ruins:
            battle.status = "walkover"
        ctx.emit("battle_announced", {"battle": battle.id, "city": battle.city,
                                      "attacker": battle.attacker.faction, "defender": battle.defender.faction,
                                      "order": battle.order})


def army_units(ctx: Ctx, side: Side) -> dict[str, int]:
    """The units of a side's armies as they stand now (after earlier battles of the turn)."""
    units: dict[str, int] = {}
    for army_id in side.armies:
        if army_id == WHOLE_ARMY:
            assert side.faction is not None
            eco.add_units(units, ctx.state.factions[side.faction].units)
            continue
        try:
            eco.add_units(units, ctx.state.army(army_id).units)
        except KeyError:
            continue
    return units


def available(ctx: Ctx, battle: Battle, role: str) -> dict[str, int]:
    """What a side may place: the attacking army; the garrison plus the defending armies."""
    side: Side = getattr(battle, role)
    units = dict(side.garrison) if role == "defender" else {}
    eco.add_units(units, army_units(ctx, side))
    return eco.sorted_units(units, ctx.campaign)


def is_garrison_battle(ctx: Ctx, battle: Battle) -> bool:
    """A city with a garrison (the mobile city has none: «изначально он пуст»)."""
    return bool(battle.defender.garrison)


def default_deployment(ctx: Ctx, battle: Battle, role: str) -> list[dict[str, Any]]:
    """A side that sends no deployment: the owner's standing placement of the city if it still
    fits, units it leaves out added by the document's rule («стрелков в центральный арьергард, а
    всех остальных - в центральный авангард»)."""
    units = available(ctx, battle, role)
    rules = ctx.campaign.rules
    if role == "defender":
        city = ctx.state.cities[battle.city]
        standing = [SquadInput.from_json(s) for s in city.placement]
        if standing and not check_army(standing, units, rules):
            placed: dict[str, int] = {}
            for s in standing:
                eco.add_units(placed, s.units)
            left = {u: n - placed.get(u, 0) for u, n in units.items() if n - placed.get(u, 0) > 0}
            squads = {s.position: dict(s.units) for s in standing}
            for extra in default_garrison_deployment(left, rules):
                target = extra.position
                if target == "centre.rearguard" and "centre.vanguard" not in squads:
                    target = "centre.vanguard"
                eco.add_units(squads.setdefault(target, {}), extra.units)
            return [SquadInput(p, u).to_json() for p, u in squads.items()]
    return [s.to_json() for s in default_garrison_deployment(units, rules)]


# ----------------------------------------------------------------------------- fighting

def _clip(squads: list[dict[str, Any]], units: Mapping[str, int]) -> list[SquadInput]:
    """Squads cut to the units still there (losses in an earlier battle of the turn)."""
    left = dict(units)
    out: list[SquadInput] = []
    for raw in squads:
        s = SquadInput.from_json(raw)
        kept: dict[str, int] = {}
        for uid, n in s.units.items():
            take = min(n, left.get(uid, 0))
            if take > 0:
                kept[uid] = take
                left[uid] -= take
        if kept:
            out.append(SquadInput(s.position, kept, s.line))
    return out


def _side_name(ctx: Ctx, fid: str | None) -> str:
    """A side is its player (the battle report declines the name, «Анна победила»); a faction
    nobody plays by its name."""
    if fid is None:
        return "—"
    player = ctx.state.factions[fid].player
    return player or ctx.campaign.faction(fid).name_ru


def fight_all(ctx: Ctx) -> None:
    """Every battle of the turn, in order; a city changes hands at most once a turn (ruling C7):
    once taken, the later attacks on it are called off."""
    taken: dict[str, str] = {}  # city -> the faction that took it this turn
    for battle in sorted(ctx.state.battles, key=lambda b: b.order):
        city = ctx.state.cities[battle.city]
        attacker = str(battle.attacker.faction)
        reason = ""
        if battle.city in taken:
            reason = "taken"
        elif city.gone:
            reason = "gone"
        elif city.owner != battle.defender.faction:
            reason = "changed"
        elif ctx.state.factions[attacker].status != "playing":
            reason = "attacker_out"
        elif sum(army_units(ctx, battle.attacker).values()) == 0:
            reason = "no_units"
        if reason:
            call_off(ctx, battle, reason, taken.get(battle.city) or city.owner)
            continue
        if battle.status == "walkover" or sum(available(ctx, battle, "defender").values()) == 0:
            battle.status = "walkover"
            battle.winner = "attacker"
            ctx.emit("battle_result", {"battle": battle.id, "city": battle.city, "attacker": attacker,
                                       "defender": battle.defender.faction, "winner": "attacker", "walkover": True})
        else:
            _fight(ctx, battle)
        if battle.winner != "attacker":
            army = _army(ctx, battle.attacker.armies[0])
            if army is not None and army.from_camp:
                # the army beaten back from a city its camp alone brought it to: the camp falls (C53)
                act.strike_camp(ctx, str(attacker), "beaten", city=battle.city)
        if battle.winner == "attacker" and capture(ctx, battle):
            taken[battle.city] = attacker


def call_off(ctx: Ctx, battle: Battle, reason: str, holder: str | None) -> None:
    """A battle that cannot be fought when its turn comes (ruling C7: «A city changes hands at
    most once a turn»): the chronicle says it did not happen and why, where everyone may know why
    (the city taken or changed hands this turn, the attacker out of the game); the attacker's
    report has it among «Не исполнено» (docs/steel_rose/campaign.md §2)."""
    battle.status = "called_off"
    battle.reason = reason
    attacker = str(battle.attacker.faction)
    public = reason if reason in ("taken", "changed", "gone", "attacker_out") else ""
    ctx.emit("battle_called_off", {"battle": battle.id, "city": battle.city, "attacker": attacker,
                                   "defender": battle.defender.faction, "reason": public,
                                   **({"by": holder} if public in ("taken", "changed") else {})})
    if reason != "attacker_out":
        army = _army(ctx, battle.attacker.armies[0]) if battle.attacker.armies else None
        ctx.tell(attacker, "called_off", {"city": battle.city, "army": army.name if army else "", "why": reason,
                                          **({"by": holder} if reason in ("taken", "changed") else {})})


def _fight(ctx: Ctx, battle: Battle) -> None:
    state = ctx.state
    city = state.cities[battle.city]
    sides: list[SideInput] = []
    skip = False
    for role in ("attacker", "defender"):
        side: Side = getattr(battle, role)
        squads = _clip(side.deployment or default_deployment(ctx, battle, role), available(ctx, battle, role))
        gunpowder: int | None = None
        fid = side.faction
        if fid == "steel_rose":
            stock = int(state.factions["steel_rose"].resource)
            gunpowder = min(stock, side.gunpowder) if side.gunpowder is not None else stock
        modifiers: dict[str, float] = {}
        favoured = any(a != WHOLE_ARMY and _army(ctx, a) is not None and _army(ctx, a).favoured  # type: ignore[union-attr]
                       for a in side.armies)
        if favoured:
            spell = ctx.campaign.model.heaven.spells["heavenly_favour"]
            modifiers.update(damage=spell.damage_percent, taken=spell.taken_percent)
        if role == "defender":
            shots = eco.garrison_shots_percent(ctx.campaign, city)
            if shots:
                modifiers["shots"] = shots
        plan = tuple(Manoeuvre.from_json(m) for m in (side.plan or []))
        shares = tuple(PowderShare.from_json(p) for p in side.powder)
        sides.append(SideInput(_side_name(ctx, fid), fid or "empire", tuple(squads), plan, gunpowder,
                               role == "defender" and is_garrison_battle(ctx, battle), modifiers, shares))
        if role == "attacker" and side.skip and is_garrison_battle(ctx, battle):
            skip = True
    if skip or (not battle.attacker.plan and is_garrison_battle(ctx, battle)):
        # «атакующий имеет право пропустить фазу планирования. Ни одна из сторон в таком случае
        # просто не использует манёвры.» (battle ruling R29)
        sides = [replace(s, plan=()) for s in sides]
    placed = [placed_units(s) for s in sides]
    assert ctx.dice is not None
    label = f"steel-rose/{state.turn}/battle/{battle.city}/{battle.attacker.faction}"
    from voevoda.rulesets.steel_rose.battle.engine import fight  # NumPy: only when a battle is fought

    result = fight(ctx.campaign.rules, (sides[0], sides[1]), SealedDice(ctx.dice), label, ctx.options.battle)
    data = result.to_json()
    winner = {0: "attacker", 1: "defender", None: "none"}[result.winner]
    battle.status = "fought"
    battle.winner = winner  # type: ignore[assignment]
    battle.result = {"summary": data["summary"]}
    _aftermath(ctx, battle, data["summary"], placed)
    # the sides as fought: verify fights the battle again from them once the secret is known
    ctx.emit("battle", {"battle": battle.id, "city": battle.city, "result": data,
                        "sides": [s.to_record() for s in sides], "garrison": dict(battle.defender.garrison),
                        CITED: [rerun_ref("/result", "battle", label, sealed=True)]},
             ctx.audience(battle.attacker.faction, battle.defender.faction))
    ctx.emit("battle_result", {"battle": battle.id, "city": battle.city, "attacker": battle.attacker.faction,
                               "defender": battle.defender.faction, "winner": winner, "walkover": False})


def _army(ctx: Ctx, army_id: str) -> Army | None:
    try:
        return ctx.state.army(army_id)
    except KeyError:
        return None


def defenders_back(summary: dict[str, Any], placed: Mapping[str, int], garrison: Mapping[str, int],
                   garrison_dies_first: bool) -> tuple[dict[str, int], dict[str, int]]:
    """The defending armies' units placed in the battle and those of them that go back to their
    armies; writes what the report tells of the defender's survivors into ``summary``: the
    army's go back to the army, the garrison's stay in the city it held (ruling C7: the garrison
    is whole in each battle). A pure function of the fought battle, so `verify` repeats it."""
    out = summary["sides"][1]
    returning = {str(u): int(n) for u, n in out["returning"].items()}
    army_placed = {u: max(0, n - garrison.get(u, 0)) for u, n in placed.items()}
    army_placed = {u: n for u, n in army_placed.items() if n}
    if garrison_dies_first:
        back = {u: min(n, returning.get(u, 0)) for u, n in army_placed.items()}
    else:
        back = {}
        for u, n in army_placed.items():
            share = n / placed[u] if placed.get(u) else 0
            back[u] = min(n, int(returning.get(u, 0) * share + 0.5))
    out["returning_army"] = dict(sorted((u, n) for u, n in back.items() if n))
    held = summary.get("winner") == 1
    out["garrison_stays"] = dict(sorted((u, n - back.get(u, 0)) for u, n in returning.items()
                                        if held and n - back.get(u, 0) > 0))
    return army_placed, back


def placed_units(side: SideInput) -> dict[str, int]:
    counts: dict[str, int] = {}
    for squad in side.squads:
        eco.add_units(counts, squad.units)
    return counts


def _aftermath(ctx: Ctx, battle: Battle, summary: dict[str, Any], placed: list[dict[str, int]]) -> None:
    """Losses, and what the deaths produce («Каждый умерший юнит даёт честь», «4 мяса за каждого
    мёртвого вражеского юнита», «ГП уменьшается на 1 за каждые 2 мёртвых вражеских юнита»),
    gunpowder spent, and «Если ваш город успешно обороняется, ГП уменьшается на 20»."""
    state = ctx.state
    mult = ctx.multiplier
    for index, role in enumerate(("attacker", "defender")):
        side: Side = getattr(battle, role)
        fid = side.faction
        out = summary["sides"][index]
        returning = {str(u): int(n) for u, n in out["returning"].items()}
        if fid is None:
            continue
        if role == "attacker":
            army_placed = placed[index]
            back = returning
        else:
            army_placed, back = defenders_back(summary, placed[index], side.garrison,
                                               ctx.options.garrison_dies_first)
        lost = {u: n - back.get(u, 0) for u, n in army_placed.items() if n - back.get(u, 0) > 0}
        gained = {u: n - army_placed.get(u, 0) for u, n in back.items() if n - army_placed.get(u, 0) > 0}
        _take_losses(ctx, side, lost)
        if gained and side.armies and side.armies[0] != WHOLE_ARMY:
            army = _army(ctx, side.armies[0])
            if army is not None:
                pool = dict(army.units)
                eco.add_units(pool, gained)
                army.units = eco.sorted_units(pool, ctx.campaign)
        if gained:
            act.add_to_pool(ctx, fid, gained)
        if fid == "empire" and out["honour"]:
            ctx.book(fid, "battle_honour", 0, float(out["honour"]) * mult, battle=battle.id)
        if out["meat"] and "ogres" in state.factions and state.factions["ogres"].status == "playing":
            ctx.book("ogres", "battle_meat", 0, float(out["meat"]) * mult, battle=battle.id)
        if fid == "void_cult" and out["void_hunger"]:
            ctx.book(fid, "battle_hunger", 0, float(out["void_hunger"]), battle=battle.id)
        if fid == "steel_rose" and out["gunpowder_spent"]:
            ctx.book(fid, "gunpowder", 0, -float(out["gunpowder_spent"]), battle=battle.id)
    a, d = battle.attacker.faction, battle.defender.faction
    if a is not None and d is not None:
        pair = sorted([a, d])
        if pair not in state.wars:
            state.wars.append(pair)
            state.wars.sort()
    if battle.winner == "defender" and d == "void_cult":
        ctx.book(d, "defended", 0, float(ctx.campaign.model.void.defended), city=battle.city)


def _take_losses(ctx: Ctx, side: Side, lost: Mapping[str, int]) -> None:
    """Units lost come off the side's armies (in order) and off the faction's pool."""
    if not lost or side.faction is None:
        return
    left = dict(lost)
    army_ids = side.armies
    if WHOLE_ARMY in army_ids:
        army_ids = [a.id for a in ctx.state.armies if a.faction == side.faction]
    for army_id in army_ids:
        army = _army(ctx, army_id)
        if army is None:
            continue
        units = dict(army.units)
        for uid in list(left):
            take = min(left[uid], units.get(uid, 0))
            if take:
                units[uid] -= take
                left[uid] -= take
        army.units = {u: n for u, n in units.items() if n > 0}
    act.lose_units(ctx, side.faction, dict(lost))


# ----------------------------------------------------------------------------- captures

def choices_for(fid: str) -> tuple[str, ...]:
    """«При захвате города у вас есть несколько опций»; the cult «не может колонизировать», the
    ogres «не могут захватывать чужие города (только разрушать)» (their razed city is nobody's)."""
    if fid == "void_cult":
        return ("plunder", "raze", "raze_abandon")
    if fid == "ogres":
        return ("plunder", "raze_abandon")
    return ("colonise", "plunder", "raze", "raze_abandon")


def default_choice(fid: str) -> str:
    return "colonise" if fid not in ("void_cult", "ogres") else "plunder"


def capture(ctx: Ctx, battle: Battle) -> bool:
    """The attacker won. Ruins and the mobile city are simply taken; a city waits for its
    capture choice (given in the attack order, or asked for)."""
    city = ctx.state.cities[battle.city]
    fid = battle.attacker.faction
    assert fid is not None
    if city.kind == "mobile":
        ctx.emit("captured", {"city": city.id, "by": fid, "from": city.owner, "choice": "destroyed"})
        owner = city.owner
        city.gone = True
        city.owner = None
        if owner is not None:
            act.check_elimination(ctx, owner, by=fid)
        return True
    if city.ruins:
        if fid == "ogres":
            return False
        old = city.owner
        city.owner = fid
        if fid != "empire" and city.id in ctx.campaign.model.quests:
            city.quest_void = True
        ctx.emit("captured", {"city": city.id, "by": fid, "from": old, "choice": "ruins"})
        return True
    army = _army(ctx, battle.attacker.armies[0])
    choice = army.choice if army is not None else None
    if choice == "raze" and fid == "ogres":
        choice = "raze_abandon"
    if choice is not None and choice not in choices_for(fid):
        ctx.tell(fid, "choice_refused", {"city": city.id, "choice": choice})
        choice = None
    if choice is None and ctx.state.factions[fid].player is None:
        choice = default_choice(fid)
    ctx.state.captures.append(Capture(city=city.id, faction=fid, battle=battle.id, choice=choice))
    if choice is not None:
        apply_capture(ctx, ctx.state.captures[-1])
    return True


def apply_capture(ctx: Ctx, cap: Capture) -> None:
    """Колонизировать / Разграбить / Разрушить, with every consequence the document gives."""
    state = ctx.state
    city = state.cities[cap.city]
    fid = cap.faction
    choice = cap.choice or default_choice(fid)
    old = city.owner
    income = eco.city_income(ctx.campaign, city, defended=False, turn=-1).total
    cap.done = True
    cap.choice = choice
    mult = ctx.multiplier
    ctx.emit("captured", {"city": city.id, "by": fid, "from": old, "choice": choice})
    if choice == "colonise":
        act.change_owner(ctx, city, fid, "colonise")
    else:
        gold, meat = eco.plunder_reward(ctx.campaign, city, income, fid, state, raze=choice != "plunder")
        ctx.book(fid, choice, int(gold * mult), meat * mult if fid == "ogres" else 0, city=city.id)
        if choice == "plunder":
            # «Вы разрушаете постройки и опускаете уровень города на 1. Город не переходит под ваш
            # контроль ... В следующем ходу город дохода не принесёт.» (level 1 stays 1)
            city.buildings = []
            city.level = max(1, city.level - 1)
            if ctx.options.plunder_income == "next_turn":
                # the literal reading: this turn's income is paid, the next turn's is not
                if city.idle_next == state.turn:
                    city.idle_turn = state.turn  # plundered the turn after a plunder: both idle
                city.idle_next = state.turn + 1
            else:
                # ruling C16: the income paid at this turn's end is the next one the city brings
                city.idle_turn = state.turn
            city.corruption = 0
            if fid != "empire" and city.id in ctx.campaign.model.quests:
                city.quest_void = True
        else:
            act.make_ruins(ctx, city, fid if choice == "raze" else None, choice)
        if fid == "ogres":
            state.factions["ogres"].raids += 1
        if fid == "void_cult":
            ctx.book(fid, "raid_hunger", 0, float(ctx.campaign.model.void.plunder_or_raze), city=city.id)
            cult = state.factions["void_cult"]
            if cult.feeding_turn == state.turn:
                _feeding(ctx)
    if old == "void_cult" and fid != "void_cult" and state.factions["void_cult"].status == "playing":
        ctx.book("void_cult", "city_lost", 0, float(ctx.campaign.model.void.captured_city), city=city.id)
    if fid == "void_cult":
        act.oath_fulfilled(ctx)
    if fid == "empire" and choice in ("colonise", "raze"):
        _quest(ctx, city)


def _feeding(ctx: Ctx) -> None:
    """«Скормить демонам: ... вы дополнительно получите 100з и сможете обратить часть жителей в
    демонов (эффект аналогичен ритуалу 'Призыв')» (once per turn)."""
    cult = ctx.state.factions["void_cult"]
    cult.feeding_turn = 0
    ritual = ctx.campaign.model.void.rituals["feeding"]
    choices = ctx.campaign.demons(ctx.campaign.model.void.summoning, ctx.state.turn)
    demons = choices[min(cult.demon_choice, len(choices) - 1)]
    ctx.book("void_cult", "feeding", int(ritual.reward * ctx.multiplier), 0)
    act.add_to_pool(ctx, "void_cult", demons)
    ctx.tell("void_cult", "feeding", {"gold": int(ritual.reward * ctx.multiplier), "units": demons})


def _quest(ctx: Ctx, city: City) -> None:
    """«ОСОБЫЕ ЗАДАНИЯ ... Если кто-то до этого захватил этот город, то награду вы не получите.»"""
    quest = ctx.campaign.model.quests.get(city.id)
    if quest is None or not quest.enabled or city.quest_void:
        return
    city.quest_void = True
    ctx.book("empire", "quest", 0, quest.resource, city=city.id)
    if quest.units:
        act.add_to_pool(ctx, "empire", dict(quest.units))
    ctx.emit("quest", {"city": city.id, "honour": quest.resource, "units": dict(quest.units)})
