"""ПОРЯДОК ХОДА: the twelve phases of a player's turn, in the document's order.

"В свой ход каждый игрок завершает все следующие фазы ... Один раунд заканчивается
когда все цивилизации сделают ход."

Each phase is one function ``phase_<name>(g, player)``. A phase that needs a choice
calls ``g.ask(kind, players, ...)`` and returns; the answer comes back through the
handler ``on_<kind>`` registered in :data:`HANDLERS`, which may ask again or let the
turn run on. :func:`advance` runs phases until a choice is needed or the game ends;
:func:`answer` applies the awaited choices and advances. Both the engine
(:mod:`.ruleset`) and the fast runner (:mod:`.simulate`) go through these two.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .choices import check, default_choice, prefs_problems
from .game import (
    CATEGORIES,
    PHASES,
    PREFS,
    Game,
    city_cost,
    generals,
    holds,
    industrial_options,
    kind_levels,
    known_elsewhere,
    level,
    plan_build,
    population,
    preferred,
    research_dice,
    rivals,
    score,
    wonder_available,
    wonder_cost,
)

Choice = dict[str, Any]


# == the turn loop ====================================================================

def advance(g: Game) -> None:
    """Run phases until some player must choose or the 50th round is over."""
    s = g.state
    while s["pending"] is None and not s["finished"]:
        if s["phase"] >= len(PHASES):
            s["phase"] = 0
            s["seat"] += 1
            if s["seat"] >= len(s["order"]):
                s["seat"] = 0
                end_of_round(g)
            continue
        name = PHASES[s["phase"]]
        s["phase"] += 1
        PHASE_FUNCTIONS[name](g, g.active)


def answer(g: Game, choices: Mapping[str, Choice]) -> None:
    """Apply the answers of the awaited players (a missing or illegal answer is
    replaced by the default one), then advance."""
    s = g.state
    pending = s["pending"]
    if pending is None:
        advance(g)
        return
    accepted: dict[str, Choice] = {}
    for player in pending["players"]:
        choice = choices.get(player)
        if choice is not None and "prefs" in choice:
            choice = dict(choice)
            prefs = choice.pop("prefs")
            if not prefs_problems(prefs):
                set_prefs(g, player, prefs)
        if choice is None or check(s, g.t, g.o, player, choice):
            if choice is not None:
                g.emit("defaulted", {"player": player, "prompt": pending["kind"]}, (player,))
            choice = default_choice(s, g.t, g.o, player)
        accepted[player] = choice
    s["pending"] = None
    HANDLERS[pending["kind"]](g, pending, accepted)
    advance(g)


def set_prefs(g: Game, player: str, prefs: Mapping[str, Any]) -> None:
    """A player's standing choices, stated in any answer, hold from now until he changes them
    (ruling 48); ``None`` brings back the default. Told to him alone."""
    p = g.p(player)
    mine = dict(p.get("prefs") or {})
    for key, value in prefs.items():
        if value is None:
            mine.pop(key, None)
        else:
            mine[key] = list(value)
    p["prefs"] = {key: mine[key] for key in PREFS if key in mine}
    g.emit("prefs", {"player": player, "set": {k: (list(v) if v is not None else None) for k, v in prefs.items()}},
           (player,))


def end_of_round(g: Game) -> None:
    """"Игра заканчивается после 50 ходов. Игрок с наибольшим количеством ПО выигрывает.\""""
    s = g.state
    g.emit("round_end", {"round": s["turn"]})
    s["turn"] += 1
    if s["turn"] > s["turns"]:
        s["finished"] = True
        s["turn"] = s["turns"]
        g.emit("game_end", {"scores": score(s, g.t, g.o)})


# == setup ===========================================================================

def on_culture(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """ТАБЛИЦА КУЛЬТУР: "16+ -Игрок выбирает сам-"."""
    for player, choice in choices.items():
        give_culture(g, player, choice["culture"], chosen=True)


def give_culture(g: Game, player: str, culture: str, chosen: bool) -> None:
    g.p(player)["culture"] = culture
    g.emit("culture", {"player": player, "culture": culture, "chosen": chosen})
    g.gain_tech(player, g.t.cultures.cultures[culture].tech, "culture")


# == 1. ФАЗА РОСТА НАСЕЛЕНИЯ ==========================================================

def phase_growth(g: Game, player: str) -> None:
    """"Получите 1D6-2 населения. Минимум = 0. Это население начинает как Земледельцы."
    Монотеизм: "добавьте 1 к броску"; Религиозный деятель: "Население: +1d6 каждый ход"."""
    p = g.p(player)
    rules = g.t.rules.growth
    faces = g.roll_expr(player, "growth", rules.dice)
    bonus = sum(g.t.techs.technologies[t].growth for t in p["techs"])
    gained = max(rules.minimum, sum(faces) + bonus + rules.modifier)
    prophets = []
    for leader in p["leaders"]:
        expr = g.t.leaders.leaders[leader].growth_dice
        if expr:
            prophets += g.roll_expr(player, "growth/leader", expr)
    gained += sum(prophets)
    p["pop"]["farmers"] += gained
    g.emit("growth", {"player": player, "dice": rules.dice, "faces": faces, "bonus": bonus,
                      "modifier": rules.modifier, "leader_faces": prophets, "gained": gained},
           cites={"faces": (player, "growth"), "leader_faces": (player, "growth/leader")})


# == 2. ФАЗА СБОРА РЕСУРСОВ ===========================================================

def phase_resources(g: Game, player: str) -> None:
    """"Кидайте 1D10 кубик используя Таблицу Ресурсов: 1-3 Ничего, 4-5 Промышленный
    Ресурс по вашему выбору, 6-10+ случайный Природный Ресурс." Картография: +1."""
    p = g.p(player)
    table = g.t.resources.roll
    face = g.roll(player, "resources", 1, table.die)[0]
    bonus = sum(g.t.techs.technologies[t].resource_roll for t in p["techs"])
    total = face + bonus
    data: dict[str, Any] = {"player": player, "die": table.die, "faces": [face], "bonus": bonus,
                            "total": total}
    if total >= table.natural_from:
        roll = g.roll(player, "resources/natural", 1, table.natural_die)[0]
        resource = g.t.natural_by_roll[roll]
        p["resources"][resource] = p["resources"].get(resource, 0) + 1
        g.emit("resources", {**data, "result": "natural", "natural_die": table.natural_die,
                             "natural_faces": [roll], "resource": resource},
               cites={"faces": (player, "resources"), "natural_faces": (player, "resources/natural")})
    elif total >= table.industrial_from:
        options = industrial_options(p, g.t, g.o)
        if not options:
            g.emit("resources", {**data, "result": "no_industry"}, cites={"faces": (player, "resources")})
        elif len(options) == 1:
            gain_resource(g, player, options[0], "resources", data)
        else:
            g.emit("resources", {**data, "result": "industrial_choice", "options": options},
                   cites={"faces": (player, "resources")})
            g.ask("industrial", [player], options=options)
    else:
        g.emit("resources", {**data, "result": "nothing"}, cites={"faces": (player, "resources")})


def on_industrial(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    for player, choice in choices.items():
        gain_resource(g, player, choice["resource"], "choice", {"player": player})


def gain_resource(g: Game, player: str, resource: str, how: str, data: dict[str, Any]) -> None:
    p = g.p(player)
    p["resources"][resource] = p["resources"].get(resource, 0) + 1
    g.emit("resources", {**data, "result": "industrial", "resource": resource, "how": how},
           cites={"faces": (player, "resources")})


# == 3. ФАЗА РАСПРЕДЕЛЕНИЯ НАСЕЛЕНИЯ ==================================================

def phase_assignment(g: Game, player: str) -> None:
    """"Назначьте единицы населения на одну из ... категорий: Армия, Флот, Земледелие,
    Торговля, Ремесло, Ученые." Always the player's choice."""
    g.ask("assign", [player])


def on_assign(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """"Увеличение Армии или Флота стоит 2 Монеты" (1 with the paired resources)."""
    from .game import assignment_cost

    for player, choice in choices.items():
        p = g.p(player)
        new = {c: int(choice["pop"].get(c, p["pop"][c])) for c in CATEGORIES}
        cost = assignment_cost(p, new, g.t, g.o)
        before = dict(p["pop"])
        p["coins"] -= cost
        p["pop"] = new
        g.emit("assign", {"player": player, "before": before, "after": dict(new), "cost": cost})


# == 4. ФАЗА НАЙМА ЛИДЕРА =============================================================

def phase_leaders(g: Game, player: str) -> None:
    """"Киньте 1d6: если выпало 1-2 получите 1 случайного лидера.\""""
    table = g.t.leaders
    face = g.roll(player, "leaders", 1, table.die)[0]
    data: dict[str, Any] = {"player": player, "die": table.die, "faces": [face]}
    if face <= table.hire_faces:
        kind = g.roll(player, "leaders/table", 1, table.die)[0]
        leader = g.t.leader_by_roll[kind]
        g.p(player)["leaders"].append(leader)
        data.update(table_faces=[kind], leader=leader)
    g.emit("leaders", data, cites={"faces": (player, "leaders"), "table_faces": (player, "leaders/table")})


# == 5. ФАЗА СБОРА УРОЖАЯ ============================================================

def phase_harvest(g: Game, player: str) -> None:
    """"Получите 3 единицы пищи за каждого Земледельца и 2 за каждый уровень Пищевых
    Ресурсов под вашим контролем." Селекция: +1 за каждого Земледельца."""
    p = g.p(player)
    rules = g.t.rules.harvest
    per_farmer = rules.food_per_farmer + sum(g.t.techs.technologies[t].food_per_farmer for t in p["techs"])
    farmers = p["pop"]["farmers"]
    levels = kind_levels(p, "food", g.t, g.o)
    food = per_farmer * farmers + rules.food_per_resource * levels
    p["food"] += food
    g.emit("harvest", {"player": player, "farmers": farmers, "per_farmer": per_farmer,
                       "food_levels": levels, "food": food, "stock": p["food"]})


# == 6. ФАЗА БЕДСТВИЙ ================================================================

def phase_disasters(g: Game, player: str) -> None:
    """"При выпадении единицы на кубике 1d6 цивилизация страдает от случайного бедствия.
    Бедствие «Война» происходит первой в Фазе Войны." A struck civilisation "пропускает
    фазу строительства и военную фазу"; reducing technologies or wonders halve the loss."""
    table = g.t.disasters
    face = g.roll(player, "disasters", 1, table.die)[0]
    if face > table.chance_faces:
        g.emit("disaster_check", {"player": player, "die": table.die, "faces": [face]},
               cites={"faces": (player, "disasters")})
        return
    roll = g.roll(player, "disasters/table", 1, table.table_die)[0]
    key = g.t.disaster_by_roll[roll]
    disaster = table.disasters[key]
    p = g.p(player)
    p["disaster"] = {"turn": g.state["turn"], "id": key, "war": disaster.effect == "war"}
    reduced = [r for r in disaster.reduced_by if holds(p, r)]
    data: dict[str, Any] = {"player": player, "die": table.die, "faces": [face],
                            "table_die": table.table_die, "table_faces": [roll], "disaster": key,
                            "reduced_by": reduced}
    effect = disaster.effect
    if effect == "war":
        data["result"] = "war_pending"
    elif effect == "lose_population":
        expr = disaster.dice or "1d6"
        if disaster.worse_with and disaster.worse_with in p["techs"] and disaster.worse_dice:
            expr = disaster.worse_dice
        faces = g.roll_expr(player, "disasters/loss", expr)
        loss = _halved(sum(faces), reduced)
        data.update(dice=expr, loss_faces=faces, lost=g.lose_population(player, loss, disaster.first))
    elif effect == "lose_resource":
        # "Потеря 1 случайного ресурса": one level, every level held equally likely.
        held = [r for r in sorted(p["resources"]) for _ in range(p["resources"][r])]
        if held:
            face = g.roll(player, "disasters/pick", 1, len(held))[0]
            pick = held[face - 1]
            _drop_resource(p, pick)
            data.update(pick_die=len(held), pick_faces=[face], resource=pick)
    elif effect == "lose_city":
        if p["cities"]:
            count = len(p["cities"])
            face = g.roll(player, "disasters/pick", 1, count)[0]
            city = g.lose_city(player, p["cities"][face - 1]["name"])
            if city.get("wonder"):
                g.state["wonders"][city["wonder"]].update(owner=None, city=None, lost=True)
            data.update(pick_die=count, pick_faces=[face], city=city["name"], wonder=city.get("wonder"))
    elif effect == "lose_wonder":
        held_cities = [c for c in p["cities"] if c.get("wonder")]
        if held_cities:
            face = g.roll(player, "disasters/pick", 1, len(held_cities))[0]
            city = held_cities[face - 1]
            wonder = city["wonder"]
            city["wonder"] = None
            g.state["wonders"][wonder].update(owner=None, city=None, lost=True)
            data.update(pick_die=len(held_cities), pick_faces=[face], wonder=wonder)
    elif effect in ("lose_coins_half", "lose_coins_all"):
        loss = p["coins"] // 2 if effect == "lose_coins_half" else p["coins"]
        loss = _halved(loss, reduced)
        p["coins"] -= loss
        data["coins"] = loss
    elif effect == "lose_food_half":
        loss = _halved(p["food"] // 2, reduced)
        p["food"] -= loss
        data["food"] = loss
    g.emit("disaster", data, cites={"faces": (player, "disasters"), "table_faces": (player, "disasters/table"),
                                    "loss_faces": (player, "disasters/loss"), "pick_faces": (player, "disasters/pick")})


def _halved(loss: int, reduced: list[str]) -> int:
    """"потери ... уменьшаются вдвое. Округление в меньшую сторону.\""""
    return loss // 2 if reduced else loss


def _drop_resource(p: dict[str, Any], resource: str) -> None:
    p["resources"][resource] -= 1
    if p["resources"][resource] <= 0:
        del p["resources"][resource]


def struck(g: Game, player: str) -> bool:
    d = g.p(player)["disaster"]
    return bool(d) and d["turn"] == g.state["turn"]


# == 7. ФАЗА СОДЕРЖАНИЯ ==============================================================

def phase_upkeep(g: Game, player: str) -> None:
    """"Каждая единица населения потребляет 1 единицу Пищи. Армиям (+флот) выплачивается
    1 Монета каждой. Единицы населения, оставленные без снабжения теряются. Киньте 1D6 за
    каждого лидера, если выпало 5+, лидер умирает от старости." Food keeps only with
    Гончарное дело."""
    p = g.p(player)
    rules = g.t.rules.upkeep
    need = population(p) * rules.food_per_person
    food_had, coins_had = int(p["food"]), int(p["coins"])
    starved: dict[str, int] = {}
    if p["food"] >= need:
        p["food"] -= need
    else:
        short = (need - p["food"] + rules.food_per_person - 1) // rules.food_per_person
        p["food"] = 0
        starved = g.lose_population(player, short)
    paid_units = ["army", "fleet"] if g.o.fleet_upkeep else ["army"]
    units = sum(p["pop"][c] for c in paid_units)
    wage = units * rules.coins_per_military
    unpaid: dict[str, int] = {}
    if p["coins"] >= wage:
        p["coins"] -= wage
    else:
        short = (wage - p["coins"] + rules.coins_per_military - 1) // rules.coins_per_military
        p["coins"] -= (units - short) * rules.coins_per_military
        for category in preferred(p, "unpaid", rules.unpaid_order):
            if category not in paid_units:
                continue
            take = min(short, p["pop"][category])
            if take:
                p["pop"][category] -= take
                unpaid[category] = take
                short -= take
    spoiled = 0
    if not any(g.t.techs.technologies[t].keep_food for t in p["techs"]):
        spoiled, p["food"] = p["food"], 0
    faces = g.roll(player, "upkeep/leaders", len(p["leaders"]), g.t.leaders.die) if p["leaders"] else []
    died = [lead for lead, f in zip(p["leaders"], faces, strict=True) if f >= g.t.leaders.death_from]
    p["leaders"] = [lead for lead, f in zip(p["leaders"], faces, strict=True) if f < g.t.leaders.death_from]
    g.emit("upkeep", {"player": player, "food_eaten": need, "starved": starved, "wage": wage,
                      "food_had": food_had, "coins_had": coins_had, "coins_paid": coins_had - int(p["coins"]),
                      "unpaid": unpaid, "spoiled": spoiled, "leader_die": g.t.leaders.die,
                      "leader_faces": faces, "died": died}, cites={"leader_faces": (player, "upkeep/leaders")})


# == 8. ФАЗА ВОЕННЫХ ДЕЙСТВИЙ =========================================================

def phase_war(g: Game, player: str) -> None:
    """A war disaster comes first ("Бедствие «Война» происходит первой в Фазе Войны");
    a struck civilisation then skips its attack. Otherwise the player may attack."""
    p = g.p(player)
    if struck(g, player):
        if p["disaster"].get("war"):
            disaster_war(g, player)
        g.emit("skip", {"player": player, "phase": "war"})
        return
    if rivals(g.state, player):
        g.ask("attack", [player], tried=[])


def attack_targets(state: Mapping[str, Any], player: str) -> list[str]:
    pending = state.get("pending") or {}
    tried = pending.get("tried", []) if pending.get("kind") == "attack" else []
    return [x for x in rivals(state, player) if x not in tried]


def on_attack(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """"Игрок может напасть на 1 противника если выбросит 5+ при броске 1D6 (добавьте к
    броску +1 если у вас есть Генерал). Если бросок неудачен, игрок может попробовать
    напасть на другого игрока.\""""
    (player, choice), = choices.items()
    target = choice.get("target")
    if not target:
        g.emit("peace", {"player": player})
        return
    rules = g.t.rules.war
    face = g.roll(player, f"war/attempt/{target}", 1, rules.attack_die)[0]
    bonus = rules.general_bonus if generals(g.p(player)) else 0
    success = face + bonus >= rules.attack_from
    g.emit("attack_roll", {"player": player, "target": target, "die": rules.attack_die,
                           "faces": [face], "bonus": bonus, "success": success},
           cites={"faces": (player, f"war/attempt/{target}")})
    if not success:
        tried = [*pending["tried"], target]
        if [x for x in rivals(g.state, player) if x not in tried]:
            g.ask("attack", [player], tried=tried)
        return
    # Дипломат: "Если вас атакуют, бросьте 1d6. Если выпало 5+, отменяет атаку."
    defender = g.p(target)
    for leader in defender["leaders"]:
        cancel = g.t.leaders.leaders[leader].cancel_from
        if cancel:
            roll = g.roll(target, f"war/diplomat/{player}", 1, 6)[0]
            g.emit("diplomat", {"player": target, "attacker": player, "die": 6, "faces": [roll],
                                "cancelled": roll >= cancel}, cites={"faces": (target, f"war/diplomat/{player}")})
            if roll >= cancel:
                return
    helpers = [x for x in g.state["order"] if x not in (player, target)
               and (g.p(x)["pop"]["army"] or g.p(x)["pop"]["fleet"] or generals(g.p(x)))]
    if helpers:
        g.ask("ally", helpers, attacker=player, defender=target)
    else:
        fight(g, player, target, {})


def on_ally(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """"Другие игроки могут посылать Армии, Флота и Генералов участвовать за одну из сторон.\""""
    fight(g, pending["attacker"], pending["defender"], dict(choices))


def fight(g: Game, attacker: str, defender: str, allies: Mapping[str, Choice]) -> None:
    a_units = [_unit(g, attacker, None)]
    d_units = [_unit(g, defender, None)]
    for name in g.state["order"]:
        choice = allies.get(name)
        if not choice or not choice.get("side"):
            continue
        unit = _unit(g, name, choice)
        if unit["army"] or unit["fleet"] or unit["generals"]:
            (a_units if choice["side"] == "attacker" else d_units).append(unit)
            g.emit("ally", {"player": name, "side": choice["side"], "army": unit["army"],
                            "fleet": unit["fleet"], "generals": unit["generals"],
                            "attacker": attacker, "defender": defender})
    result = battle(g, attacker, attacker, a_units, defender, d_units, "war")
    rules = g.t.rules.war
    winner = attacker if result["winner"] == "attacker" else defender
    vp = g.roll_expr(winner, "war/vp", rules.vp_dice)
    g.p(winner)["war_vp"] += sum(vp)
    result.update(attacker=attacker, defender=defender, winner_name=winner, vp_faces=vp, vp=sum(vp))
    g.emit("battle", result, cites={"attacker_faces": (attacker, "war/attacker"),
                                    "defender_faces": (attacker, "war/defender"), "vp_faces": (winner, "war/vp")})
    # "Если Обороняющийся игрок теряет все его Армии Нападающий получает ... дань"
    d = g.p(defender)
    beaten = d["pop"]["army"] == 0 and (g.o.tribute_when == "armies" or d["pop"]["fleet"] == 0)
    if beaten and (winner == attacker or not g.o.tribute_needs_victory):
        options = tribute_options(g.state, defender)
        if options:
            g.ask("tribute", [attacker], defender=defender, options=options)


def tribute_options(state: Mapping[str, Any], defender: str) -> list[str]:
    d = state["players"][defender]
    options = []
    if d["coins"] > 0:
        options.append("coins")
    if d["cities"]:
        options.append("city")
    if population(d) > 0:
        options.append("population")
    if any(n > 0 for n in d["resources"].values()):
        options.append("resource")
    return options


def on_tribute(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """"-все Монеты проигравшего, -или 1 Город (возможно, вместе с Чудом), -или 2D6
    населения (обращены в рабство), -или 1 выбранный Ресурс.\""""
    (attacker, choice), = choices.items()
    defender = pending["defender"]
    d, a = g.p(defender), g.p(attacker)
    kind = choice["kind"]
    data: dict[str, Any] = {"player": attacker, "defender": defender, "kind": kind}
    if kind == "coins":
        data["coins"] = d["coins"]
        a["coins"] += d["coins"]
        d["coins"] = 0
    elif kind == "city":
        city = g.lose_city(defender, choice["target"])
        g.take_city(attacker, city)
        data.update(city=city["name"], wonder=city.get("wonder"))
    elif kind == "population":
        faces = g.roll_expr(attacker, "war/slaves", g.t.rules.war.slaves_dice)
        lost = g.lose_population(defender, sum(faces))
        a["pop"]["farmers"] += sum(lost.values())
        data.update(dice=g.t.rules.war.slaves_dice, faces=faces, lost=lost)
    else:
        resource = choice["target"]
        _drop_resource(d, resource)
        a["resources"][resource] = a["resources"].get(resource, 0) + 1
        data["resource"] = resource
    g.emit("tribute", data, cites={"faces": (attacker, "war/slaves")})


def _unit(g: Game, player: str, choice: Choice | None) -> dict[str, Any]:
    p = g.p(player)
    if choice is None:
        return {"player": player, "army": p["pop"]["army"], "fleet": p["pop"]["fleet"],
                "generals": generals(p)}
    return {"player": player, "army": min(int(choice.get("army", 0)), p["pop"]["army"]),
            "fleet": min(int(choice.get("fleet", 0)), p["pop"]["fleet"]),
            "generals": min(int(choice.get("generals", 0)), generals(p))}


def battle(g: Game, owner: str, attacker: str | None, a_units: list[dict[str, Any]],
           defender: str | None, d_units: list[dict[str, Any]], what: str) -> dict[str, Any]:
    """"Каждый игрок делает 1 бросок за каждую Армию, Флот и Генерала на его стороне"
    plus every extra die; "Игрок выбросивший максимальную сумму побеждает. В случае ничьей
    побеждает Обороняющийся игрок. За каждую выброшенную вами 1 ваш противник теряет 1
    армию или флот.\""""
    rules = g.t.rules.war
    a_bonus = battle_bonuses(g, attacker, a_units, defender, d_units, "attacking")
    d_bonus = battle_bonuses(g, defender, d_units, attacker, a_units, "defending")
    a_count = sum(u["army"] + u["fleet"] + u["generals"] for u in a_units) + len(a_bonus)
    d_count = sum(u["army"] + u["fleet"] + u["generals"] for u in d_units) + len(d_bonus)
    a_faces = g.roll(owner, f"{what}/attacker", a_count, rules.battle_die)
    d_faces = g.roll(owner, f"{what}/defender", d_count, rules.battle_die)
    a_sum, d_sum = sum(a_faces), sum(d_faces)
    winner = "attacker" if a_sum > d_sum else "defender"
    a_lost = _casualties(g, d_units, a_faces.count(rules.casualty_face))
    d_lost = _casualties(g, a_units, d_faces.count(rules.casualty_face))
    return {"die": rules.battle_die,
            "attacker_units": a_units, "defender_units": d_units,
            "attacker_bonus": a_bonus, "defender_bonus": d_bonus,
            "attacker_faces": a_faces, "defender_faces": d_faces,
            "attacker_sum": a_sum, "defender_sum": d_sum, "winner": winner,
            "defender_losses": a_lost, "attacker_losses": d_lost}


def battle_bonuses(g: Game, side: str | None, units: list[dict[str, Any]], other: str | None,
                   other_units: list[dict[str, Any]], role: str) -> list[str]:
    """Every "1 дополнительный бросок" of ФАЗА ВОЕННЫХ ДЕЙСТВИЙ and of the tables."""
    bonus = []
    if sum(u["army"] for u in units) > sum(u["army"] for u in other_units):
        bonus.append("more_army")
    if sum(u["fleet"] for u in units) > sum(u["fleet"] for u in other_units):
        bonus.append("more_fleet")
    if sum(u["generals"] for u in units) and not sum(u["generals"] for u in other_units):
        bonus.append("general")
    if side is None:
        return bonus
    p = g.p(side)
    them = g.p(other) if other else None
    sources: list[tuple[str, Any]] = [(t, g.t.techs.technologies[t].battle) for t in p["techs"]]
    sources += [(r, g.t.resources.natural[r].battle) for r in p["resources"]
                if r in g.t.resources.natural and level(p, r, g.o)]
    sources += [(w, g.t.wonders.wonders[w].battle) for w in _wonders(p)]
    for key, spec in sources:
        if spec is None:
            continue
        if spec.needs_any and not any(level(p, r, g.o) for r in spec.needs_any):
            continue
        if spec.when == "opponent_lacks" and them is not None and holds(them, key, g.o):
            continue
        if spec.when in ("attacking", "defending") and spec.when != role:
            continue
        bonus.append(key)
    return bonus


def _wonders(p: Mapping[str, Any]) -> list[str]:
    return [c["wonder"] for c in p["cities"] if c.get("wonder")]


def _casualties(g: Game, units: list[dict[str, Any]], count: int) -> dict[str, dict[str, int]]:
    """Units die from the main combatant first, then from allies; armies before fleets."""
    lost: dict[str, dict[str, int]] = {}
    for unit in units:
        order: list[str] = list(g.t.rules.war.casualty_order)
        if unit["player"]:
            # each player's own units die in the order he chose (ruling 48)
            order = [c for c in preferred(g.p(unit["player"]), "battle", order) if c in ("army", "fleet")]
        for category in order:
            if count <= 0:
                return lost
            take = min(count, unit[category])
            if take:
                unit[category] -= take
                count -= take
                name = unit["player"] or "rebels"
                lost.setdefault(name, {})[category] = take
                if unit["player"]:
                    g.p(unit["player"])["pop"][category] -= take
    return lost


def disaster_war(g: Game, player: str) -> None:
    """Гражданская война, Восстание, Варвары: "цивилизация атакована 1d6 армиями
    противника. Если эти армии побеждают, ..." (a reducing technology halves the armies)."""
    p = g.p(player)
    key = p["disaster"]["id"]
    p["disaster"]["war"] = False
    disaster = g.t.disasters.disasters[key]
    faces = g.roll_expr(player, "war/rebels/armies", disaster.dice or "1d6")
    reduced = [r for r in disaster.reduced_by if holds(p, r)]
    armies = _halved(sum(faces), reduced)
    enemy = [{"player": None, "army": armies, "fleet": 0, "generals": 0}]
    result = battle(g, player, None, enemy, player, [_unit(g, player, None)], "war/rebels")
    result.update(player=player, disaster=key, army_faces=faces, armies=armies, reduced_by=reduced)
    if result["winner"] == "attacker":
        effect = disaster.on_defeat
        if effect == "lose_city" and p["cities"]:
            count = len(p["cities"])
            face = g.roll(player, "war/rebels/city", 1, count)[0]
            city = g.lose_city(player, p["cities"][face - 1]["name"])
            if city.get("wonder"):
                g.state["wonders"][city["wonder"]].update(owner=None, city=None, lost=True)
            result.update(city=city["name"], wonder=city.get("wonder"), city_die=count, city_faces=[face])
        elif effect == "lose_population":
            loss = g.roll_expr(player, "war/rebels/loss", disaster.defeat_dice or "2d6")
            result.update(loss_faces=loss, lost=g.lose_population(player, sum(loss)))
        elif effect == "lose_coins_all":
            result["coins"] = p["coins"]
            p["coins"] = 0
    elif g.o.disaster_battle_vp:
        vp = g.roll_expr(player, "war/vp", g.t.rules.war.vp_dice)
        p["war_vp"] += sum(vp)
        result.update(vp_faces=vp, vp=sum(vp))
    g.emit("disaster_battle", result, cites={
        "army_faces": (player, "war/rebels/armies"), "attacker_faces": (player, "war/rebels/attacker"),
        "defender_faces": (player, "war/rebels/defender"), "city_faces": (player, "war/rebels/city"),
        "loss_faces": (player, "war/rebels/loss"), "vp_faces": (player, "war/vp")})


# == 9. ФАЗА ТОРГОВЛИ ================================================================

def phase_trade(g: Game, player: str) -> None:
    """"Активный игрок может торговать Монетами, пищей, трудом, населением, городами,
    технологиями, Лидерами, ресурсами и обещаниями другим игрокам.\""""
    if rivals(g.state, player) and g.o.max_trade_offers > 0:
        g.ask("offer", [player], made=0)


def on_offer(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    (player, choice), = choices.items()
    if not choice.get("to"):
        return
    offer = {"from": player, "to": choice["to"], "give": choice.get("give", []),
             "take": choice.get("take", [])}
    g.emit("offer", dict(offer), (player, choice["to"]))
    g.ask("reply", [choice["to"]], offer=offer, made=pending["made"] + 1)


def on_reply(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """Both sides agree; "Если торгуется Технология, продавец и покупатель оба получают её"."""
    from .choices import item_problems

    offer = pending["offer"]
    (partner, choice), = choices.items()
    accepted = bool(choice.get("accept"))
    if accepted and (item_problems(g.state, g.t, g.o, offer["from"], offer["give"])
                     or item_problems(g.state, g.t, g.o, offer["to"], offer["take"])):
        accepted = False
    if accepted:
        g.emit("trade", {"player": offer["from"], "partner": partner, "give": offer["give"],
                         "take": offer["take"]})
        for item in offer["give"]:
            transfer(g, offer["from"], offer["to"], item)
        for item in offer["take"]:
            transfer(g, offer["to"], offer["from"], item)
    else:
        g.emit("trade_declined", {"player": offer["from"], "partner": partner},
               (offer["from"], partner))
    if pending["made"] < g.o.max_trade_offers:
        g.ask("offer", [offer["from"]], made=pending["made"])


def transfer(g: Game, giver: str, receiver: str, item: Mapping[str, Any]) -> None:
    a, b = g.p(giver), g.p(receiver)
    kind = item["kind"]
    amount = int(item.get("amount", 0))
    key = item.get("key")
    if kind in ("coins", "food"):
        a[kind] -= amount
        b[kind] += amount
    elif kind == "labour":
        a["labour_credit"] -= amount
        b["labour_credit"] += amount
    elif kind == "population":
        moved = g.lose_population(giver, amount)
        b["pop"]["farmers"] += sum(moved.values())
    elif kind == "city":
        g.take_city(receiver, g.lose_city(giver, str(key)))
    elif kind == "tech":
        g.gain_tech(receiver, str(key), "trade")
    elif kind == "leader":
        a["leaders"].remove(key)
        b["leaders"].append(key)
    elif kind == "resource":
        _drop_resource(a, str(key))
        b["resources"][str(key)] = b["resources"].get(str(key), 0) + 1
    elif kind == "promise":
        b["promises"].append({"from": giver, "text": str(key), "turn": g.state["turn"]})


# == 10. ФАЗА СТРОИТЕЛЬСТВА ==========================================================

def labour_of(g: Game, player: str) -> tuple[int, list[int]]:
    """"Каждый Рабочий производит 1 единицу Труда" (+1 with Инженерное дело), each
    Строитель "+1d6", and labour received in trade."""
    p = g.p(player)
    per_worker = 1 + sum(g.t.techs.technologies[t].labour_per_worker for t in p["techs"])
    faces: list[int] = []
    for leader in p["leaders"]:
        expr = g.t.leaders.leaders[leader].labour_dice
        if expr:
            faces += g.roll_expr(player, "building/leader", expr)
    total = max(0, per_worker * p["pop"]["workers"] + sum(faces) + p["labour_credit"])
    p["labour_credit"] = 0
    return total, faces


def phase_building(g: Game, player: str) -> None:
    """"Назначьте единицы Труда строящемуся Городу или Чуду. Эти единицы Труда сохраняются
    от хода к ходу до тех пор пока проект не будет завершен. Неназначенные единицы Труда
    теряются.\""""
    if struck(g, player):
        g.emit("skip", {"player": player, "phase": "building"})
        return
    labour, faces = labour_of(g, player)
    g.emit("labour", {"player": player, "labour": labour, "leader_faces": faces},
           cites={"leader_faces": (player, "building/leader")})
    if labour > 0:
        g.ask("build", [player], labour=labour)
    else:
        complete_projects(g, player)


def on_build(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """Each line's labour into its projects (:func:`.game.plan_build`); what no project takes
    is lost and the event says how much and why."""
    (player, choice), = choices.items()
    p = g.p(player)
    alloc = list(choice.get("alloc", []))
    plan = plan_build(p, alloc, int(pending["labour"]), g.t, g.o)
    p["projects"] = plan.projects
    g.emit("build", {"player": player, "alloc": alloc, "placed": plan.placed, "over": plan.over,
                     "unassigned": plan.unassigned, "lost": plan.lost})
    complete_projects(g, player)


def complete_projects(g: Game, player: str) -> None:
    """"Постройте 1 Город за 50 единиц Труда и 25 Монет. Сделайте 1 бросок используя
    Таблицу Природных Ресурсов за 20 единиц Труда. Получите 1 Промышленный Ресурс за 25
    единиц Труда. Постройте 1 Чудо по вашему выбору за 100 единиц Труда и 50 Монет.
    Разрешается строить только 1 Чудо в 1 Городе.\""""
    p = g.p(player)
    b = g.t.rules.building
    keep = []
    for project in p["projects"]:
        kind, target = project["project"], project.get("target")
        done = False
        if kind == "city":
            labour, coins = city_cost(p, g.t, g.o)
            if project["labour"] >= labour and p["coins"] >= coins:
                p["coins"] -= coins
                name = project.get("name") or g.city_name(player)
                taken = {c["name"].casefold() for q in g.state["players"].values() for c in q["cities"]}
                data: dict[str, Any] = {"player": player, "project": "city", "city": name,
                                        "labour": labour, "coins": coins}
                if name.casefold() in taken:
                    # another civilisation founded a city of this name while the project stood
                    name = g.city_name(player)
                    data.update(city=name, wanted=project["name"])
                p["cities"].append({"name": name, "wonder": None})
                g.emit("built", data)
                done = True
        elif kind == "wonder":
            if target in g.state["wonders"]:
                g.emit("wonder_gone", {"player": player, "wonder": target, "labour": project["labour"]})
                done = True
            else:
                labour, coins = wonder_cost(p, target, g.t, g.o)
                if (project["labour"] >= labour and p["coins"] >= coins
                        and wonder_available(g.state, p, target, g.t)):
                    p["coins"] -= coins
                    # «Разрешается строить только 1 Чудо в 1 Городе»: the city the player named
                    # (ruling 33), else the first city without a wonder
                    wanted = project.get("city")
                    free = [c for c in p["cities"] if not c.get("wonder")]
                    city = next((c for c in free if c["name"] == wanted), free[0])
                    city["wonder"] = target
                    p["wonders_built"].append(target)
                    g.state["wonders"][target] = {"builder": player, "owner": player,
                                                  "city": city["name"], "lost": False}
                    built: dict[str, Any] = {"player": player, "project": "wonder", "wonder": target,
                                             "city": city["name"], "labour": labour, "coins": coins}
                    if wanted and wanted != city["name"]:
                        built["wanted"] = wanted
                    g.emit("built", built)
                    done = True
        elif kind == "resource":
            if project["labour"] >= b.resource_labour:
                roll = g.roll(player, "building/resource", 1, g.t.resources.roll.natural_die)[0]
                resource = g.t.natural_by_roll[roll]
                p["resources"][resource] = p["resources"].get(resource, 0) + 1
                g.emit("built", {"player": player, "project": "resource", "die":
                                 g.t.resources.roll.natural_die, "faces": [roll], "resource": resource},
                       cites={"faces": (player, "building/resource")})
                done = True
        elif (kind == "industrial" and project["labour"] >= b.industrial_labour
              and target in industrial_options(p, g.t, g.o)):
            p["resources"][target] = p["resources"].get(target, 0) + 1
            g.emit("built", {"player": player, "project": "industrial", "resource": target})
            done = True
        if not done:
            keep.append(project)
    p["projects"] = keep


# == 11. ФАЗА ИССЛЕДОВАНИЙ ===========================================================

def phase_research(g: Game, player: str) -> None:
    """"Игрок бросает 1D12 за каждого Ученого, Мыслителя или генератор исследований ...
    При выпадении 1 игрок получает случайную Технологию ... Если у игрока уже есть
    выпавшая технология, он может выбрать другую.\""""
    p = g.p(player)
    rules = g.t.rules.research
    count = research_dice(p, g.t)
    faces = g.roll(player, "research", count, rules.die) if count else []
    picks = 0
    table_faces = []
    found: list[str] = []
    for face in faces:
        if face != rules.success_face:
            continue
        roll = g.roll(player, "research/table", 1, g.t.techs.die)[0]
        tech = g.t.tech_by_roll.get(roll)
        table_faces.append(roll)
        if tech is None or tech in p["techs"] or tech in found:
            picks += 1
        else:
            found.append(tech)
    g.emit("research", {"player": player, "die": rules.die, "faces": faces,
                        "table_die": g.t.techs.die, "table_faces": table_faces, "picks": picks},
           cites={"faces": (player, "research"), "table_faces": (player, "research/table")})
    for tech in found:
        g.gain_tech(player, tech, "research")
    unknown = [t for t in g.t.techs.technologies if t not in p["techs"]]
    picks = min(picks, len(unknown))
    buyable = p["coins"] >= rules.purchase_coins and known_elsewhere(g.state, player)
    if picks or buyable:
        g.ask("research", [player], picks=picks)


def on_research(g: Game, pending: Choice, choices: Mapping[str, Choice]) -> None:
    """"Игрок платит 20 Монет чтобы получить Технологию известную другому игроку.\""""
    (player, choice), = choices.items()
    for tech in choice.get("picks", []):
        g.gain_tech(player, tech, "choice")
    for tech in choice.get("buy", []):
        g.p(player)["coins"] -= g.t.rules.research.purchase_coins
        g.gain_tech(player, tech, "purchase")


# == 12. ФАЗА ДОХОДА ================================================================

def phase_income(g: Game, player: str) -> None:
    """"Игрок получает: 1 Монету за каждого Торговца, 1 Монету за каждый Город и 1 Монету
    за каждый уровень Ресурсов Роскоши." Чеканка монеты, Мореплавание: +1 за Город;
    Правитель, Колосс: +1d6."""
    p = g.p(player)
    rules = g.t.rules.income
    cities = len(p["cities"])
    per_city = rules.per_city + sum(g.t.techs.technologies[t].coins_per_city for t in p["techs"])
    luxury = kind_levels(p, "luxury", g.t, g.o)
    faces: list[int] = []
    for leader in p["leaders"]:
        expr = g.t.leaders.leaders[leader].income_dice
        if expr:
            faces += g.roll_expr(player, "income/leader", expr)
    for wonder in _wonders(p):
        expr = g.t.wonders.wonders[wonder].income_dice
        if expr:
            faces += g.roll_expr(player, "income/wonder", expr)
    coins = (rules.per_merchant * p["pop"]["merchants"] + per_city * cities
             + rules.per_luxury * luxury + sum(faces))
    p["coins"] += coins
    g.emit("income", {"player": player, "merchants": p["pop"]["merchants"], "cities": cities,
                      "per_city": per_city, "luxury": luxury, "faces": faces, "coins": coins,
                      "stock": p["coins"]},
           cites={"faces": [(player, "income/leader"), (player, "income/wonder")]})


PHASE_FUNCTIONS: dict[str, Callable[[Game, str], None]] = {
    "growth": phase_growth,
    "resources": phase_resources,
    "assignment": phase_assignment,
    "leaders": phase_leaders,
    "harvest": phase_harvest,
    "disasters": phase_disasters,
    "upkeep": phase_upkeep,
    "war": phase_war,
    "trade": phase_trade,
    "building": phase_building,
    "research": phase_research,
    "income": phase_income,
}

HANDLERS: dict[str, Callable[[Game, Choice, Mapping[str, Choice]], None]] = {
    "culture": on_culture,
    "industrial": on_industrial,
    "assign": on_assign,
    "attack": on_attack,
    "ally": on_ally,
    "tribute": on_tribute,
    "offer": on_offer,
    "reply": on_reply,
    "build": on_build,
    "research": on_research,
}
