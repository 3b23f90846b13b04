"""Computer opponents: a player's view in, that player's choice out.

Two strategies, chosen per seat by ``config["strategies"]``:

* ``builder`` grows, researches, builds cities and wonders, swaps technologies with
  whoever will, and never attacks;
* ``warmonger`` keeps a large army, attacks the weakest neighbour every turn it can,
  takes cities as tribute, and builds cities with what labour is left.

Every choice is legal by construction (and the tests check it with :func:`check`);
only what ``view`` shows is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.dice import Stream

from .choices import default_alloc, default_choice
from .data import Tables
from .game import (
    CATEGORIES,
    Options,
    city_cost,
    generals,
    industrial_options,
    known_elsewhere,
    military_cost,
    population,
    rivals,
    scholar_cap,
    score,
    wonder_available,
    wonder_cost,
)

STRATEGIES = ("builder", "warmonger")

CULTURE_TASTE = {
    "builder": ["egyptian", "babylonian", "mesopotamian", "persian", "athenian"],
    "warmonger": ["spartan", "scythian", "assyrian", "roman", "egyptian"],
}
TECH_TASTE = {
    "builder": ["engineering", "masonry", "architecture", "coinage", "seafaring", "pottery", "breeding",
                "writing", "mathematics", "astronomy", "literature", "ancestor_cult", "democracy",
                "art", "drama", "cartography"],
    "warmonger": ["military_doctrine", "siege_engines", "fortifications", "horse_riding", "metallurgy",
                  "shipbuilding", "coinage", "engineering", "pottery", "breeding", "ancestor_cult",
                  "democracy", "seafaring"],
}
WONDER_TASTE = ["stonehenge", "sphinx", "great_library", "pyramids", "colossus", "great_wall", "parthenon",
                "hanging_gardens", "oracle", "lighthouse"]


def decide(view: Mapping[str, Any], player: str, stream: Stream, tables: Tables, options: Options,
           strategy: str = "builder") -> dict[str, Any]:
    """The choice ``player`` makes now, from ``view`` alone."""
    pending = view.get("pending")
    if not pending or player not in pending["players"]:
        return {}
    kind = pending["kind"]
    bot = Bot(view, player, stream, tables, options, strategy)
    method = getattr(bot, kind, None)
    if method is None:
        return default_choice(view, tables, options, player)
    result: dict[str, Any] = method(pending)
    return result


class Bot:
    def __init__(self, view: Mapping[str, Any], player: str, stream: Stream, tables: Tables,
                 options: Options, strategy: str) -> None:
        self.v, self.name, self.stream, self.t, self.o = view, player, stream, tables, options
        self.strategy = strategy if strategy in STRATEGIES else "builder"
        self.me: Mapping[str, Any] = view["players"][player]

    @property
    def war(self) -> bool:
        return self.strategy == "warmonger"

    def _tech_rank(self, tech: str) -> tuple[int, str]:
        taste = TECH_TASTE[self.strategy]
        return (taste.index(tech) if tech in taste else len(taste), tech)

    # -- prompts -------------------------------------------------------------------

    def culture(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        for key in CULTURE_TASTE[self.strategy]:
            if key in self.t.cultures.cultures:
                return {"culture": key}
        return {"culture": next(iter(self.t.cultures.cultures))}

    def industrial(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        options = list(pending["options"])
        prefer = ["weapons", "sculpture"] if self.war else ["sculpture", "cloth"]
        for key in prefer:
            if key in options:
                return {"resource": key}
        lux = [k for k in options if self.t.kind_of[k] == "luxury"]
        return {"resource": (lux or options)[0]}

    def assign(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        me = self.me
        cur = dict(me["pop"])
        total = population(me)
        techs = self.t.techs.technologies
        per_farmer = self.t.rules.harvest.food_per_farmer + sum(techs[x].food_per_farmer for x in me["techs"])
        food_levels = sum(n for r, n in me["resources"].items() if self.t.kind_of.get(r) == "food")
        stored = me["food"]
        need = total - stored - self.t.rules.harvest.food_per_resource * food_levels
        farmers = max(0, -(-need // per_farmer)) + (1 if total > 6 else 0)
        farmers = min(total, farmers)
        rest = total - farmers
        scholars = min(scholar_cap(me, self.t), rest)
        rest -= scholars
        income = me["coins"]
        if self.war:
            army = rest * 5 // 10
            fleet = rest // 10
        else:
            threat = max((self.v["players"][x]["pop"]["army"] for x in rivals(self.v, self.name)), default=0)
            army = min(rest // 4, max(1, threat // 2))
            fleet = 0
        rest -= army + fleet
        merchants = rest * 4 // 10 if not self.war else rest // 2
        workers = rest - merchants
        target = {"army": army, "fleet": fleet, "farmers": farmers, "merchants": merchants,
                  "workers": workers, "scholars": scholars}
        # Pay for new soldiers with what is in the treasury, keeping a wage for every unit.
        for category in ("army", "fleet"):
            grow = max(0, target[category] - cur[category])
            price = military_cost(me, category, self.t, self.o)
            wages = cur["army"] + cur["fleet"]
            wage = self.t.rules.upkeep.coins_per_military
            afford = max(0, (income - wages * wage) // (price + wage))
            if grow > afford:
                target[category] = cur[category] + afford
            income -= (target[category] - cur[category]) * price if target[category] > cur[category] else 0
        return {"pop": reachable(cur, target, self.t.rules.assignment.max_change,
                                 ("farmers", "army", "scholars", "workers", "merchants", "fleet"))}

    def attack(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        if not self.war:
            return {"target": None}
        mine = self.me["pop"]["army"] + self.me["pop"]["fleet"] + generals(self.me)
        tried = pending.get("tried", [])
        candidates = []
        for other in rivals(self.v, self.name):
            if other in tried:
                continue
            o = self.v["players"][other]
            strength = o["pop"]["army"] + o["pop"]["fleet"] + generals(o)
            if mine >= 3 and mine > strength:
                candidates.append((strength - len(o["cities"]), other))
        if not candidates:
            return {"target": None}
        weakest = min(c[0] for c in candidates)
        equal = sorted(name for value, name in candidates if value == weakest)
        # Equally tempting victims: the bot's own stream decides, so it is not predictable.
        return {"target": equal[self.stream.roll(len(equal)) - 1] if len(equal) > 1 else equal[0]}

    def ally(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        """Help whoever is not leading on points, with half the army, if at peace with both."""
        if self.war:
            return {"side": None}
        points = score(self.v, self.t, self.o)
        attacker = pending["attacker"]
        if points[attacker]["total"] <= points[self.name]["total"] or self.me["pop"]["army"] < 2:
            return {"side": None}
        return {"side": "defender", "army": self.me["pop"]["army"] // 2, "fleet": 0, "generals": 0}

    def tribute(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        d = self.v["players"][pending["defender"]]
        options = pending["options"]
        if "city" in options:
            with_wonder = [c["name"] for c in d["cities"] if c.get("wonder")]
            if with_wonder or len(d["cities"]) > 1 or d["coins"] < 15:
                return {"kind": "city", "target": (with_wonder or [d["cities"][-1]["name"]])[0]}
        if "coins" in options and d["coins"] >= 8:
            return {"kind": "coins", "target": None}
        if "population" in options:
            return {"kind": "population", "target": None}
        return default_choice(self.v, self.t, self.o, self.name)

    def offer(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        """Builders swap technologies ("продавец и покупатель оба получают её")."""
        if self.war or pending.get("made", 0) >= 1:
            return {"to": None}
        mine = set(self.me["techs"])
        for other in rivals(self.v, self.name):
            theirs = set(self.v["players"][other]["techs"])
            want = sorted(theirs - mine, key=self._tech_rank)
            give = sorted(mine - theirs, key=self._tech_rank)
            if want and give:
                return {"to": other, "give": [{"kind": "tech", "key": give[-1]}],
                        "take": [{"kind": "tech", "key": want[0]}]}
        return {"to": None}

    def reply(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        offer = pending["offer"]
        gain = sum(self._value(i, receiving=True) for i in offer["give"])
        loss = sum(self._value(i, receiving=False) for i in offer["take"])
        return {"accept": gain >= loss and gain > 0}

    def _value(self, item: Mapping[str, Any], receiving: bool) -> float:
        kind = item["kind"]
        amount = float(item.get("amount", 0))
        if kind == "tech":
            if receiving:
                return 0.0 if item["key"] in self.me["techs"] else 10.0
            return 3.0
        return {"coins": amount, "food": amount * 0.3, "labour": amount * 0.5, "population": amount * 2,
                "city": 30.0, "leader": 5.0, "resource": 4.0, "promise": 0.0}.get(kind, 0.0)

    def build(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        labour = int(pending["labour"])
        me, v = self.me, self.v
        plans: list[tuple[str, str | None, int]] = []
        for project in me["projects"]:
            kind, target = project["project"], project.get("target")
            if kind == "wonder" and not wonder_available(v, me, target, self.t):
                continue
            if kind == "industrial" and target not in industrial_options(me, self.t, self.o):
                continue
            need = self._cost(kind, target) - project["labour"]
            plans.append((kind, target, max(0, need)))
        kinds = {(k, x) for k, x, _ in plans}
        if not self.war:
            wonders = [w for w in WONDER_TASTE if w in self.t.wonders.wonders
                       and wonder_available(v, me, w, self.t) and ("wonder", w) not in kinds]
            if wonders and not any(k == "wonder" for k, _, _ in plans):
                plans.append(("wonder", wonders[0], self._cost("wonder", wonders[0])))
        if ("city", None) not in kinds:
            plans.append(("city", None, self._cost("city", None)))
        alloc: list[dict[str, Any]] = []
        for kind, target, need in plans:
            if labour <= 0:
                break
            put = min(labour, need) if need > 0 else 0
            if kind in ("city", "wonder") and put == 0:
                continue
            if put:
                alloc.append({"project": kind, "target": target, "name": None, "labour": put})
                labour -= put
        if labour > 0:
            alloc.append({"project": "resource", "target": None, "name": None, "labour": labour})
        return {"alloc": alloc or default_alloc(v, self.t, self.o, self.name, int(pending["labour"]))}

    def _cost(self, kind: str, target: str | None) -> int:
        b = self.t.rules.building
        if kind == "city":
            return city_cost(self.me, self.t, self.o)[0]
        if kind == "wonder" and target:
            return wonder_cost(self.me, target, self.t, self.o)[0]
        if kind == "industrial":
            return b.industrial_labour
        return b.resource_labour

    def research(self, pending: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted((x for x in self.t.techs.technologies if x not in self.me["techs"]), key=self._tech_rank)
        picks = unknown[: pending["picks"]]
        price = self.t.rules.research.purchase_coins
        reserve = 10 if self.war else 30
        coins = self.me["coins"] - reserve
        buy: list[str] = []
        for tech in sorted(known_elsewhere(self.v, self.name), key=self._tech_rank):
            if tech in picks or coins < price:
                continue
            if self.o.purchases_per_turn and len(buy) >= self.o.purchases_per_turn:
                break
            buy.append(tech)
            coins -= price
        return {"picks": picks, "buy": buy}


def reachable(current: Mapping[str, int], target: Mapping[str, int], limit: int,
              priority: tuple[str, ...]) -> dict[str, int]:
    """The assignment nearest ``target`` that moves each category by at most ``limit``
    and keeps the total; categories earlier in ``priority`` get their way first."""
    delta = {c: max(-limit, min(limit, target[c] - current[c])) for c in CATEGORIES}
    surplus = sum(delta.values())
    order = list(reversed(priority))
    while surplus > 0:
        for c in order:
            if delta[c] > 0 and surplus > 0:
                cut = min(delta[c], surplus)
                delta[c] -= cut
                surplus -= cut
    while surplus < 0:
        for c in order:
            if delta[c] < 0 and surplus < 0:
                cut = min(-delta[c], -surplus)
                delta[c] += cut
                surplus += cut
    return {c: current[c] + delta[c] for c in CATEGORIES}
