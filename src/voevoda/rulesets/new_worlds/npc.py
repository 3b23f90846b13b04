"""The event countries' play: the Sea Peoples, the Khaganate, old believers and a game
master's invaders act by themselves (docs/rulings/new_worlds.md R23), with orders written
the way a player writes them, so that they are priced and fought by the same code.

Each turn such a country keeps a third of its points for defence and throws the rest at the
enemy it borders most, taking the cheapest tiles next to its land first; with no enemy next
to it, an invader settles the free land toward the nearest country. The game master corrects
anything with an audited edit.
"""

from __future__ import annotations

from collections import Counter

from voevoda.core.ruleset import Order
from voevoda.rulesets.new_worlds.plan import free_land
from voevoda.rulesets.new_worlds.world import World

MAX_TARGETS = 30


def npc_orders(world: World, cid: str) -> list[Order]:
    state = world.state
    grid = world.grid
    me = state.countries[cid]
    points = me.points
    if not me.alive or points <= 0:
        return []
    land = world.land_set(cid)
    if not land:
        return []
    enemies = world.enemies(cid)
    border: Counter[str] = Counter()
    for t in land:
        for n in grid.neighbours(t):
            owner = state.owner(n)
            if owner is not None and owner in enemies and grid.is_land(n):
                border[owner] += 1
    orders: list[Order] = []
    if not border:
        if me.kind != "invader":
            return []
        free = free_land(world)
        players = [t for t, v in state.tiles.items() if v.owner and state.countries[v.owner].kind == "player"]
        options = sorted({n for t in land for n in grid.neighbours(t) if n in free},
                         key=lambda t: ((grid.distance_to_set(t, players) or 0), grid.index(t)))
        take = options[:points // max(1, world.rules.prices.territory)]
        if take:
            orders.append(Order("colonize", {"tiles": take}, 0, "занять " + " ".join(take)))
        return orders
    target = min(border, key=lambda o: (-border[o], o))
    defence = points // 3
    attack = points - defence
    budget = attack + world.holdings(cid).attack()
    chosen: list[str] = []
    spent = 0
    options = sorted({n for t in land for n in grid.neighbours(t) if state.owner(n) == target and grid.is_land(n)},
                     key=lambda t: (world.capture_price(t), grid.index(t)))
    for pick in options[:MAX_TARGETS]:
        price = world.capture_price(pick)
        if spent + price > budget:
            break
        chosen.append(pick)
        spent += price
    if chosen:
        orders.append(Order("attack", {"target": target, "points": attack, "tiles": chosen}, 0,
                            f"атака {target} {attack}: " + " ".join(chosen)))
    else:
        defence = points
    if defence:
        orders.append(Order("defend", {"target": None, "points": defence}, 0, f"оборона {defence}"))
    return orders
