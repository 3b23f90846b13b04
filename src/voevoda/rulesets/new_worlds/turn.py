"""One turn of Новые Миры, read like the rules: every country's orders are priced and paid,
then carried out phase by phase (docs/new_worlds.md «The turn»):

 1. choices and names: religion, names, re-creation, the Khagan's choice, the reform's choice;
 2. breaks: pacts, alliances, truces broken; vassals released, taxed, converted, permitted;
    deals cancelled;
 3. peace made by both sides;
 4. militia, wars declared and upgraded;
 5. pacts, alliances and trade deals signed (both sides, or an offer answered);
 6. free land settled (a tile two countries want stays free);
 7. cities, upgrades, ports, universities, factories;
 8. research;
 9. help to allies: points and land;
10. the fighting of every front;
11. wars that reach their end; reformations decided; countries without land gone;
12. events and epochs;
13. universities' research; offers expire;
14. the roll for the next turn, tributes and help received.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from voevoda.core.dice import CITED, Dice
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.new_worlds import events as ev
from voevoda.rulesets.new_worlds import war as war_module
from voevoda.rulesets.new_worlds.npc import npc_orders
from voevoda.rulesets.new_worlds.plan import Item, Plan, Planner, free_land
from voevoda.rulesets.new_worlds.roll import roll_country
from voevoda.rulesets.new_worlds.state import Country, Deal, Offer, Treaty
from voevoda.rulesets.new_worlds.world import World, place_country

TREATY_KINDS = ("pact", "alliance", "trade", "peace")


class Turn:
    def __init__(self, world: World, orders: Mapping[str, Sequence[Order]], dice: Dice) -> None:
        self.w = world
        self.state = world.state
        self.orders = orders
        self.dice = dice
        self.events: list[Event] = []
        self.plans: dict[str, Plan] = {}
        self.refunds: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self.aid: dict[str, int] = defaultdict(int)
        self.opening: dict[str, tuple[int, int]] = {}
        self.answered: set[str] = set()
        self.offered: set[int] = set()   # the items that became proposals (ids), cut from the public ledger

    # -- the whole turn -------------------------------------------------------------------------------

    def run(self) -> list[Event]:
        self.plan_all()
        self.charge()
        self.choices()
        self.breaks()
        self.peace()
        self.wars()
        self.treaties()
        self.colonize()
        self.build()
        self.research()
        self.help_allies()
        self.fight()
        self.ends()
        self.world_events()
        self.upkeep()
        self.ledgers()
        self.roll()
        self.w.frozen = False
        self.w.cache.clear()
        self.state.turn += 1
        self.events.extend(ev.outcome(self.w))
        return self.events

    def items(self, *kinds: str) -> list[tuple[str, Item]]:
        """The accepted orders of these kinds, country by country (ids in order), each
        country's in the planner's order (phase, then as written)."""
        out = []
        for cid in sorted(self.plans):
            for item in self.plans[cid].by_phase():
                if item.ok and item.order.kind in kinds:
                    out.append((cid, item))
        return out

    def refund(self, cid: str, amount: int, reason: str, war_points: int = 0) -> None:
        c = self.state.countries[cid]
        c.points += amount
        c.war_points += war_points
        if amount or war_points:
            self.refunds[cid].append((amount, reason))
            self.events.append(Event("refund", {"country": cid, "amount": amount, "war_points": war_points,
                                                "reason": reason}))

    # -- 0. plans and payment ---------------------------------------------------------------------------

    def plan_all(self) -> None:
        state = self.state
        for player in state.seats:
            c = state.countries[player]
            given = list(self.orders.get(player, []))
            plan = Planner(self.w, c.id).plan(given)
            for item in plan.items:
                if not item.ok:
                    ru, en, rule = item.problems[0]
                    self.events.append(Event("order_void", {"country": c.id, "order": item.order.to_json(),
                                                            "reason_ru": ru, "reason_en": en, "rule": rule},
                                             (player,)))
                elif item.order.kind == "bonus":
                    self.events.append(Event("bonus_claim", {"country": c.id, "claimed": item.order.args["amount"],
                                                             "ledger": item.info.get("ledger")}))
            self.plans[c.id] = plan
        for c in sorted(state.living(), key=lambda c: c.id):
            if c.kind == "player":
                continue
            plan = Planner(self.w, c.id).plan(npc_orders(self.w, c.id))
            self.plans[c.id] = plan

    def charge(self) -> None:
        for cid, plan in self.plans.items():
            c = self.state.countries[cid]
            self.opening[cid] = (c.points, c.war_points)
            c.points -= plan.spent
            c.war_points -= plan.war_spent

    # -- 1. choices and names -----------------------------------------------------------------------------

    def choices(self) -> None:
        state = self.state
        for cid, item in self.items("recreate"):
            self.recreate(state.countries[cid], item)
        for cid, item in self.items("religion"):
            c = state.countries[cid]
            c.religion = item.order.args["religion"]
            self.events.append(Event("religion_chosen", {"country": cid, "religion": c.religion}))
        for cid, item in self.items("rename"):
            c = state.countries[cid]
            old, c.name = c.name, str(item.order.args["name"])
            self.events.append(Event("renamed", {"country": cid, "old": old, "new": c.name}))
        for cid, item in self.items("name_tile"):
            tile = item.order.args["tile"]
            if state.owner(tile) == cid:
                state.tile(tile).name = str(item.order.args["name"])
                self.events.append(Event("named", {"country": cid, "tile": tile, "name": item.order.args["name"]}))
        for cid, item in self.items("tributary", "refuse"):
            c = state.countries[cid]
            if c.choice == "khagan":
                self.answered.add(cid)
                self.events.extend(ev.khagan_choice(self.w, c, item.order.kind))
        for c in sorted(state.players(), key=lambda c: c.id):
            if c.choice == "khagan" and c.id not in self.answered:
                # a player who does not answer becomes a tributary (ruling R21)
                self.events.extend(ev.khagan_choice(self.w, c, "tributary"))
        for cid, item in self.items("reform"):
            c = state.countries[cid]
            if c.reform is not None:
                c.reform.choice = item.order.args["choice"]
                self.events.append(Event("reform_choice", {"country": cid, "choice": c.reform.choice}))
        for cid, _item in self.items("restore_faith"):
            c = state.countries[cid]
            if c.original_religion is not None:
                c.religion, c.original_religion = c.original_religion, None
                c.upgraded = False
                self.events.append(Event("faith_restored", {"country": cid, "religion": c.religion}))

    def recreate(self, c: Country, item: Item) -> None:
        """«Пересоздаваться возможно прямо по ходу игры не больше одного раза, если на открытой
        части карты есть свободное место.»"""
        state = self.state
        tiles = [t for t in item.info.get("tiles", []) if t in free_land(self.w)]  # type: ignore[attr-defined]
        if len(tiles) < self.w.epoch.start_territories:
            self.events.append(Event("recreate_failed", {"country": c.id, "tile": item.order.args["tile"]}))
            return
        old_tiles = state.all_of(c.id)
        events: list[Event] = []
        if c.alive:
            ev.eliminate(self.w, c, events)
        for t in old_tiles:
            tile = state.tiles[t]
            tile.city = None
            tile.building = None
            tile.factory = None
        if c.may_restart:
            c.may_restart = False
        else:
            c.recreated = True
        c.alive = True
        c.suzerain = None
        c.khagan_tributary = False
        if c.own_color:
            c.color, c.own_color = c.own_color, None
        c.research = {}
        c.research_branch = None
        c.research_points = 0
        c.reform = None
        c.choice = None
        c.war_points = self.w.epoch.war_points + ev.war_points_bonus(self.w, c)
        if item.order.args.get("name"):
            c.name = str(item.order.args["name"])
        place_country(self.w, c, tiles)
        self.events.append(Event("recreated", {"country": c.id, "tile": tiles[0], "tiles": tiles,
                                               "old_tiles": sorted(old_tiles), "name": c.name}))

    # -- 2. breaks ------------------------------------------------------------------------------------------

    def breaks(self) -> None:
        state = self.state
        for cid, item in self.items("break_pact", "break_alliance", "break_truce"):
            kind = item.order.kind.removeprefix("break_")
            treaty = state.treaty(kind, cid, item.order.args["target"])
            if treaty is not None:
                state.treaties.remove(treaty)
                self.events.append(Event("treaty_broken", {"kind": kind, "by": cid, "other": item.order.args["target"],
                                                           "price": item.price}))
            else:
                self.refund(cid, item.price, "treaty_gone")
        for cid, item in self.items("release"):
            v = state.countries[item.order.args["target"]]
            if v.suzerain == cid:
                war_module.free_vassal(self.w, v.id, self.events, reason="released")
        for cid, item in self.items("tribute"):
            v = state.countries[item.order.args["target"]]
            if v.suzerain == cid:
                v.tribute_percent = int(item.order.args["percent"])
                self.events.append(Event("tribute_set", {"suzerain": cid, "vassal": v.id, "percent": v.tribute_percent}))
        for cid, item in self.items("impose"):
            v = state.countries[item.order.args["target"]]
            me = state.countries[cid]
            if v.suzerain == cid and me.religion is not None:
                # «Сюзерен может навязать вассалу свою религию.» (its base form: ruling R13)
                v.original_religion = v.original_religion or v.religion
                v.religion = me.religion
                v.upgraded = False
                self.events.append(Event("religion_imposed", {"suzerain": cid, "vassal": v.id, "religion": v.religion}))
        for cid, item in self.items("permit"):
            v = state.countries[item.order.args["target"]]
            if v.suzerain == cid and item.order.args["enemy"] not in v.war_permits:
                v.war_permits.append(item.order.args["enemy"])
                self.events.append(Event("war_permitted", {"suzerain": cid, "vassal": v.id,
                                                           "enemy": item.order.args["enemy"]}))
        for cid, item in self.items("cancel_trade"):
            deal = next((d for d in state.deals if d.id == item.info.get("deal")), None)
            if deal is not None:
                state.deals.remove(deal)
                self.events.append(Event("deal_ended", {"deal": deal.model_dump(), "reason": "cancelled", "by": cid}))

    # -- 3. peace -----------------------------------------------------------------------------------------------

    def _matches(self, kind: str) -> dict[tuple[str, str], Item]:
        return {(cid, str(item.order.args["target"])): item for cid, item in self.items(kind)}

    def peace(self) -> None:
        state = self.state
        wanted = self._matches("peace")
        done: set[frozenset[str]] = set()
        for (a, b), item in sorted(wanted.items()):
            pair = frozenset((a, b))
            if pair in done:
                continue
            war = state.war_between(a, b)
            if war is None:
                continue
            other = wanted.get((b, a))
            offer = self._offer("peace", b, a)
            if other is None and offer is None:
                self._make_offer("peace", a, b, item, cede=list(item.order.args.get("cede", [])))
                continue
            done.add(pair)
            cedes = {a: list(item.order.args.get("cede", [])),
                     b: list(other.order.args.get("cede", [])) if other else list(offer.cede if offer else [])}
            if offer is not None:
                state.offers.remove(offer)
            given: dict[str, list[str]] = {}
            for giver, tiles in cedes.items():
                taker = b if giver == a else a
                for t in tiles:
                    if state.owner(t) == giver:
                        state.tile(t).owner = taker
                        given.setdefault(giver, []).append(t)
            # the tiles that changed hands, for every report that tells the peace
            self.events.append(Event("peace", {"parties": sorted((a, b)), "cede": given}))
            self.events.extend(war_module.end_war(self.w, war, "peace"))

    # -- 4. war ------------------------------------------------------------------------------------------------

    def wars(self) -> None:
        state = self.state
        for cid, item in self.items("militia"):
            c = state.countries[cid]
            cap = self.w.epoch.war_points + ev.war_points_bonus(self.w, c)
            restored = min(int(item.info.get("restored", 0)), max(0, cap - c.war_points))  # type: ignore[call-overload]
            c.war_points += restored
            self.events.append(Event("militia", {"country": cid, "restored": restored, "price": item.price}))
        for cid, item in self.items("war"):
            target, wtype = item.order.args["target"], item.order.args["type"]
            war = state.war_between(cid, target)
            if war is not None and war.started == state.turn and war.defender == cid:
                # both declared at once: the second declaration sets its own side's type
                war.defender_type = wtype
                war.defender_paid = item.war_price
                self.events.append(Event("war_declared", {"attacker": cid, "defender": target, "type": wtype,
                                                          "price": item.war_price, "war": war.id,
                                                          "until": war.last_turn}))
                continue
            if war is not None:
                self.refund(cid, 0, "already_at_war", war_points=item.war_price)
                continue
            me = state.countries[cid]
            if me.suzerain is not None and target in me.war_permits:
                me.war_permits.remove(target)   # a permission is for one war
            self.events.extend(war_module.declare(self.w, cid, target, wtype, item.war_price))
        for cid, item in self.items("war_upgrade"):
            if state.war_between(cid, item.order.args["target"]) is None:
                self.refund(cid, 0, "war_over", war_points=item.war_price)
                continue
            self.events.append(war_module.upgrade(self.w, cid, item.order.args["target"], item.order.args["type"],
                                                  item.war_price))

    # -- 5. treaties --------------------------------------------------------------------------------------------

    def _offer(self, kind: str, by: str, to: str) -> Offer | None:
        for o in self.state.offers:
            if o.kind == kind and o.by == by and o.to == to and o.turn < self.state.turn:
                return o
        return None

    def _make_offer(self, kind: str, by: str, to: str, item: Item, **extra: object) -> None:
        state = self.state
        same = [o for o in state.offers if o.kind == kind and o.by == by and o.to == to
                and o.give == extra.get("give") and o.get == extra.get("get")]
        # a proposal written again stands one more turn with what was paid for it (ruling R15)
        held = item.price + sum(o.held for o in same)
        state.offers = [o for o in state.offers if o not in same]
        state.offers.append(Offer(kind=kind, by=by, to=to, turn=state.turn, held=held, **extra))  # type: ignore[arg-type]
        self.offered.add(id(item))
        self.events.append(Event("offer", {"kind": kind, "by": by, "to": to, **extra}, (self._player(by), self._player(to))))

    def _player(self, cid: str) -> str:
        c = self.state.countries[cid]
        return c.player or cid

    def treaties(self) -> None:
        state = self.state
        for kind in ("pact", "alliance"):
            wanted = self._matches(kind)
            signed: set[frozenset[str]] = set()
            for (a, b), item in sorted(wanted.items()):
                pair = frozenset((a, b))
                if pair in signed:
                    continue
                offer = self._offer(kind, b, a)
                if (b, a) not in wanted and offer is None:
                    self._make_offer(kind, a, b, item)
                    continue
                # an answer closes the proposals between the two whatever comes of it (one's own
                # written again included: what it holds is the treaty's price, ruling R15):
                # signed, or not signed and paid back as such, never as «без ответа»
                closed = [o for o in state.offers if o.kind == kind and {o.by, o.to} == {a, b}
                          and o.turn < state.turn]
                for o in closed:
                    state.offers.remove(o)
                if self.w.at_war(a, b) or state.treaty(kind, a, b) is not None or not self._may_sign(kind, a, b):
                    self.refund(a, item.price, f"{kind}_failed")
                    if (b, a) in wanted:
                        self.refund(b, wanted[(b, a)].price, f"{kind}_failed")
                    for o in closed:
                        self.refund(o.by, o.held, f"{kind}_failed")
                    signed.add(pair)
                    continue
                signed.add(pair)
                state.treaties.append(Treaty(kind=kind, parties=sorted((a, b)), since=state.turn))
                self.events.append(Event("treaty_signed", {"kind": kind, "parties": sorted((a, b))}))
        self.trade()

    def _may_sign(self, kind: str, a: str, b: str) -> bool:
        state = self.state
        if any(state.countries[x].suzerain is not None for x in (a, b)):
            return False
        if kind == "alliance":
            limit = self.w.rules.diplomacy.alliances_per_country
            return all(len(state.allies_of(x)) < limit for x in (a, b))
        return True

    def trade(self) -> None:
        state = self.state
        wanted: dict[tuple[str, str, str, str], Item] = {}
        for cid, item in self.items("trade"):
            args = item.order.args
            wanted[(cid, str(args["target"]), str(args["give"]), str(args["get"]))] = item
        done: set[tuple[str, str, str, str]] = set()
        for key, item in sorted(wanted.items()):
            a, b, give, get = key
            if key in done:
                continue
            mirror = (b, a, get, give)
            offer = next((o for o in state.offers if o.kind == "trade" and o.by == b and o.to == a and o.give == get
                          and o.get == give and o.turn < state.turn), None)
            imposed = state.countries[a].impositions.get(b, 0) > 0
            if mirror not in wanted and offer is None and not imposed:
                self._make_offer("trade", a, b, item, give=give, get=get)
                continue
            done.update({key, mirror})
            if offer is not None:   # answered: the proposal is closed whatever comes of it
                state.offers.remove(offer)
            if self.w.at_war(a, b) or self.w.free_units(a, give) < 1 or self.w.free_units(b, get) < 1 \
                    or not self._ports_allow(a, b):
                self.events.append(Event("deal_failed", {"a": a, "b": b, "a_gives": give, "b_gives": get}))
                continue
            if imposed and mirror not in wanted and offer is None:
                state.countries[a].impositions[b] -= 1
            if offer is not None:   # the proposer first
                a, b, give, get = b, a, get, give
            deal = Deal(id=state.new_id(), a=a, b=b, a_gives=give, b_gives=get, since=state.turn,
                        imposed=imposed and mirror not in wanted and offer is None)
            state.deals.append(deal)
            self.events.append(Event("deal_signed", deal.model_dump()))

    def _ports_allow(self, a: str, b: str) -> bool:
        """«Для заключения договора с двумя странами - два порта… Для торговли между двумя
        странами достаточного одного порта.» Partners may not outnumber ports on one side at
        least (ruling R14; on both sides with the option trade_ports = "both")."""
        state = self.state

        def ok(x: str, y: str) -> bool:
            partners = {d.b if d.a == x else d.a for d in state.deals if x in (d.a, d.b)} | {y}
            return len(partners) <= len(state.buildings_of(x, "port"))

        if self.w.options.trade_ports == "either":
            return ok(a, b) or ok(b, a)
        return ok(a, b) and ok(b, a)

    # -- 6. land ------------------------------------------------------------------------------------------------

    def colonize(self) -> None:
        state = self.state
        claims: dict[str, list[str]] = defaultdict(list)
        wanted = self.items("colonize")
        for cid, item in wanted:
            for t in item.info.get("tiles", []):  # type: ignore[attr-defined]
                claims[t].append(cid)
        contested = {t for t, who in claims.items() if len(set(who)) > 1}
        winners: dict[str, str] = {}
        for t in self.w.grid.sort(contested):
            who = sorted(set(claims[t]))
            winner: str | None = None
            if self.w.options.contested_tiles == "neighbours":
                # the country with most land around the tile; a tie is rolled off (ruling R10)
                near = {c: sum(1 for n in self.w.grid.neighbours(t) if state.owner(n) == c) for c in who}
                best = max(near.values())
                tied = [c for c in who if near[c] == best]
                data: dict[str, object] = {"tiles": [t], "countries": who}
                if len(tied) == 1:
                    winner = tied[0]
                else:
                    stream = self.dice.stream(f"contest/{t}")
                    face = stream.roll(len(tied))
                    winner = tied[face - 1]
                    data.update({"tied": tied, "roll": face, CITED: [stream.cite("/roll", 0, 1)]})
                winners[t] = winner
                data["winner"] = winner
                self.events.append(Event("contested", data))
            else:
                self.events.append(Event("contested", {"tiles": [t], "countries": who, "winner": None}))
        for cid, item in wanted:
            land = self.w.land_set(cid)
            got: list[str] = []
            tiles = list(item.info.get("tiles", []))  # type: ignore[call-overload]
            prices = list(item.info.get("prices", []))  # type: ignore[call-overload]
            for t, price in zip(tiles, prices, strict=True):
                if (t in contested and winners.get(t) != cid) or state.owner(t) is not None:
                    self.refund(cid, price, "contested")
                    continue
                if self.w.reach(cid, t, land) is None:
                    self.refund(cid, price, "unreachable")
                    continue
                state.tile(t).owner = cid
                got.append(t)
                if self.w.grid.is_land(t):
                    land.add(t)
            if got:
                self.events.append(Event("colonized", {"country": cid, "tiles": got,
                                                       "price": sum(p for t, p in zip(tiles, prices, strict=True)
                                                                    if t in got)}))

    # -- 7. buildings -------------------------------------------------------------------------------------------

    def build(self) -> None:
        state = self.state
        for cid, item in self.items("city", "upgrade", "port", "university", "factory", "refocus"):
            kind = item.order.kind
            tile = item.order.args["tile"]
            t = state.tiles.get(tile)
            if t is None or t.owner != cid:
                self.refund(cid, item.price, "not_yours")
                continue
            if kind == "city":
                t.city = 0
                c = state.countries[cid]
                if c.capital is None or state.owner(c.capital) != cid:
                    c.capital = tile
            elif kind == "upgrade":
                t.city = (t.city or 0) + 1
            elif kind == "refocus":
                t.factory = item.order.args["type"]
            else:
                if t.building is not None or not self.w.near_city(cid, tile):
                    self.refund(cid, item.price, "no_site")
                    continue
                t.building = kind  # type: ignore[assignment]
                if kind == "factory":
                    t.factory = item.order.args["type"]
            self.events.append(Event("built", {"country": cid, "kind": kind, "tile": tile, "price": item.price,
                                               "level": t.city if kind == "upgrade" else None,
                                               "factory": item.order.args.get("type")}))

    # -- 8. research --------------------------------------------------------------------------------------------

    def research(self) -> None:
        for cid, item in self.items("research"):
            c = self.state.countries[cid]
            if not self.state.buildings_of(cid, "university"):
                # the post's university was not built after all («Университет дает возможность
                # исследовать проекты»)
                self.refund(cid, item.price, "no_university")
                continue
            c.research_branch = item.order.args["branch"]
            c.research_points += item.price
            self.events.append(Event("research", {"country": cid, "branch": c.research_branch, "points": item.price}))

    # -- 9. help to allies ----------------------------------------------------------------------------------------

    def help_allies(self) -> None:
        state = self.state
        for cid, item in self.items("aid"):
            target = item.order.args["target"]
            if state.treaty("alliance", cid, target) is None:
                self.refund(cid, item.price, "not_ally")
                continue
            self.aid[target] += item.price
            self.events.append(Event("aid", {"from": cid, "to": target, "points": item.price}))
        for cid, item in self.items("cede"):
            target = item.order.args["target"]
            given = [t for t in item.order.args["tiles"] if state.owner(t) == cid]
            if state.treaty("alliance", cid, target) is None or not given:
                continue
            for t in given:
                state.tile(t).owner = target
            self.events.append(Event("ceded", {"from": cid, "to": target, "tiles": given}))

    # -- 10. fighting ---------------------------------------------------------------------------------------------

    def fight(self) -> None:
        fronts: list[war_module.Front] = []
        defences: dict[str, list[tuple[str | None, int]]] = defaultdict(list)
        for cid, item in self.items("attack"):
            target = item.order.args["target"]
            if not self.w.at_war(cid, target):
                self.refund(cid, item.price, "no_war")
                continue
            fronts.append(war_module.Front(cid, target, item.price, list(item.order.args["tiles"]), item.order.line))
        for cid, item in self.items("defend"):
            target = item.order.args.get("target")
            # a defence is spent on a war: with none (not declared this turn, or ended by peace)
            # its points come back (ruling R45)
            if (not self.w.at_war(cid, target)) if target is not None else not self.w.enemies(cid):
                self.refund(cid, item.price, "defence_no_war")
                continue
            defences[cid].append((target, item.price))
        if fronts:
            self.events.extend(war_module.fight(self.w, fronts, defences))
        for cid, spent in sorted(defences.items()):
            self.events.append(Event("defence", {"country": cid, "points": sum(p for _, p in spent)}))

    # -- 11. ends --------------------------------------------------------------------------------------------------

    def ends(self) -> None:
        self.events.extend(ev.war_end_checks(self.w))
        self.events.extend(ev.check_reformations(self.w))
        self.events.extend(ev.eliminations(self.w))

    # -- 12. events and epochs --------------------------------------------------------------------------------------

    def world_events(self) -> None:
        self.events.extend(ev.sea_peoples(self.w, self.dice))
        self.events.extend(ev.khaganate(self.w, self.dice))
        self.events.extend(ev.agrarian(self.w, self.dice))
        self.events.extend(ev.gm_queue(self.w))
        self.events.extend(ev.custom_events(self.w))
        self.events.extend(ev.check_conditions(self.w))

    # -- 13. research progress, offers ---------------------------------------------------------------------------------

    def upkeep(self) -> None:
        state = self.state
        rules = self.w.rules
        for c in sorted(state.living(), key=lambda c: c.id):
            unis = len(state.buildings_of(c.id, "university"))
            if c.research_branch is not None and unis:
                # «Каждый университет дает бонус к скорости исследования проектов, равный +5.»
                c.research_points += unis * rules.research.points_per_university
            while c.research_branch is not None:
                branch = rules.research.branches[c.research_branch]
                done = c.research.get(c.research_branch, 0)
                if done >= len(branch.projects):
                    c.research_branch = None
                    break
                project = branch.projects[done]
                if not self.w.epoch_reached(project.epoch) or c.research_points < project.price:
                    break
                c.research_points -= project.price
                c.research[c.research_branch] = done + 1
                self.events.append(Event("project_done", {"country": c.id, "project": project.id,
                                                          "branch": c.research_branch}))
        for treaty in list(state.treaties):
            if treaty.until is not None and treaty.until <= state.turn:
                state.treaties.remove(treaty)
                self.events.append(Event("truce_over", {"parties": treaty.parties}))
        limit = rules.diplomacy.offer_turns
        for o in list(state.offers):
            if o.turn + limit <= state.turn:
                state.offers.remove(o)
                if o.held and o.by in state.countries:
                    self.refund(o.by, o.held, f"{o.kind}_unanswered")

    def ledgers(self) -> None:
        """The turn's spending of every country, for the published ledger."""
        names = {e.data["id"]: {"name_ru": e.data["name_ru"], "name_en": e.data["name_en"]}
                 for e in self.events if e.kind == "custom_event"}
        # a new epoch this turn gives every country its war points anew
        epoch = next((e.data["epoch"] for e in reversed(self.events) if e.kind == "epoch"), None)
        for cid in sorted(self.plans):
            plan = self.plans[cid]
            c = self.state.countries[cid]
            opening, war_opening = self.opening[cid]
            items = []
            for i in plan.items:
                if not i.ok or i.order.kind in ("roll", "bonus"):
                    continue
                if id(i) in self.offered:
                    # a proposal not answered this turn is the two parties' alone (docs/engine.md,
                    # row `offers`); its price is paid in public, so the ledger shows that much
                    if i.price:
                        items.append({"kind": "proposal", "text": "", "price": i.price, "war_price": 0, "args": {}})
                    continue
                entry = {"kind": i.order.kind, "text": i.order.text, "price": i.price, "war_price": i.war_price,
                         "args": dict(i.order.args)}
                if "voyages" in i.info:
                    entry["voyages"] = i.info["voyages"]   # the sea itemised (ruling R3)
                items.append(entry)
            if not items and not self.refunds.get(cid) and c.kind != "player":
                continue
            # the game master's events that gave or took points this turn, so the ledger adds up
            effects = [{"kind": e.data["kind"], "amount": e.data["amount"], **names[e.data["id"]]}
                       for e in self.events if e.kind == "event_effect" and e.data.get("kind") in ("points", "war_points")
                       and cid in e.data.get("countries", []) and e.data["id"] in names]
            self.events.append(Event("ledger", {
                "country": cid, "turn": self.state.turn, "opening": opening, "war_opening": war_opening,
                "items": items, "refunds": [{"amount": a, "reason": r} for a, r in self.refunds.get(cid, [])],
                "effects": effects, "epoch": epoch, "closing": c.points, "war_points": c.war_points}))

    # -- 14. the roll --------------------------------------------------------------------------------------------------

    def roll(self) -> None:
        """Every living country rolls for the next turn; then the tributes: «отдает Кагану итог
        своего ролла», «Вассал может передавать до половины своего ролла сюзерену»."""
        state = self.state
        turn = state.turn + 1
        self.w.cache.clear()
        self.w.frozen = True   # nothing below changes what the modifiers depend on
        rolls = {}
        for c in sorted(state.living(), key=lambda c: c.id):
            rolls[c.id] = roll_country(self.w, c, self.dice, turn)
        khagan = state.events.khaganate.khagan
        for cid, r in rolls.items():
            c = state.countries[cid]
            to: str | None = None
            amount = 0
            if (c.khagan_tributary or (c.kind == "tributary" and c.origin)) and khagan in rolls:
                to, amount = khagan, r.total
            elif c.suzerain is not None and c.suzerain in rolls and c.tribute_percent:
                in_independence = any(w for w in state.wars_of(cid) if w.defender == c.suzerain
                                      and self.w.rules.war_types[w.attacker_type].kind == "independence")
                if not in_independence:
                    to, amount = c.suzerain, r.total * c.tribute_percent // 100
            if to is not None and amount:
                r.tribute_out = amount
                rolls[to].tribute_in += amount
        for cid, r in rolls.items():
            c = state.countries[cid]
            r.aid_in = self.aid.get(cid, 0)
            r.kept = c.points if self.w.options.carry_over or c.kind != "player" else 0
            if c.kind != "player":
                r.kept = 0
            c.points = r.kept + r.total - r.tribute_out + r.tribute_in + r.aid_in
            c.roll = r
            data = {"country": cid, "for_turn": r.turn, **r.model_dump(exclude={"turn"}), "points": c.points}
            stream = self.dice.existing(f"roll/{cid}")
            if stream is not None:
                data[CITED] = [stream.cite("/faces", 0, len(r.faces))]
            self.events.append(Event("roll", data))
