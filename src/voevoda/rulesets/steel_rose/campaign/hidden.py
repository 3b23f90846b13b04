"""What a viewer of a Steel Rose campaign may not see, stated for the non-interference test.

002: «Всем фракциям по умолчанию доступна только следующая информация: Союзы между фракциями ...
Состав и тип городов у всех фракций. Игрокам НЕдоступна следующая информация: Составы и
расположение армий противника, Постройки в городах противника, Баланс противников»; «Никакие
фракции не знают о том, что их города подверглись порче, если не построят специальные постройки».
The keys below are the rows of the `steel-rose` table in ``docs/engine.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation
from voevoda.core.ruleset import PUBLIC, State, Viewer
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.campaign.data import Campaign

PLAYERS = ("Анна", "Борис", "Вера")
"""The Empire, the Principality and the Sky-Blessed (the document's order)."""


def _faction_of(state: State, viewer: Viewer) -> str | None:
    return None if viewer == PUBLIC else state["seats"].get(viewer)


def _others(state: State, viewer: Viewer) -> list[str]:
    """The factions whose secrets ``viewer`` may not see."""
    mine = _faction_of(state, viewer)
    return [fid for fid in state["factions"] if fid != mine]


def _units(campaign: Campaign, fid: str, rnd: random.Random) -> dict[str, int]:
    kinds = sorted(u for u, unit in campaign.rules.units.items() if unit.faction == fid)
    chosen = sorted(rnd.sample(kinds, min(len(kinds), rnd.randint(1, 3))))
    return {u: rnd.randint(1, 30) for u in chosen}


def _squads(campaign: Campaign, units: Mapping[str, int], rnd: random.Random) -> list[dict[str, Any]]:
    """Every unit placed somewhere on the field: the others in vanguards, shooters behind them."""
    flanks = rnd.sample(fld.FLANKS, rnd.randint(1, 3))
    squads: dict[str, dict[str, int]] = {}
    for uid, n in units.items():
        if not n:
            continue
        rank = "rearguard" if campaign.rules.units[uid].volley and rnd.random() < 0.7 else "vanguard"
        squads.setdefault(fld.at(rnd.choice(flanks), rank), {})[uid] = n
    for position in list(squads):
        front = fld.at(fld.flank_of(position), "vanguard")
        if fld.rank_of(position) == "rearguard" and front not in squads:
            squads[front] = squads.pop(position)
    return [SquadInput(p, dict(sorted(u.items()))).to_json() for p, u in sorted(squads.items())]


class SteelRoseCampaignHidden(HiddenParts):
    def __init__(self, campaign: Campaign) -> None:
        self.c = campaign

    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS)

    # -- variations of the state ---------------------------------------------------------------

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        rivals = _others(state, viewer)
        mine = _faction_of(state, viewer)
        c = self.c

        def treasury(s: State) -> None:
            for fid in rivals:
                f = s["factions"][fid]
                f["gold"] = rnd.randint(0, 5000)
                f["resource"] = float(rnd.randint(0, 400))
                f["snapshot"] = {"turn": s["turn"] - 1, "gold": rnd.randint(0, 9000), "resource": 1.0, "units": {}}
                led = s["ledgers"].get(fid)
                if led is not None:
                    led["lines"] = [*led["lines"], {"what": "gift", "gold": rnd.randint(1, 999), "resource": 0}]

        def armies(s: State) -> None:
            for fid in rivals:
                f = s["factions"][fid]
                f["units"] = _units(c, fid, rnd)
                f["gifted"] = {}
                for army in s["armies"]:
                    if army["faction"] == fid:
                        army["units"] = _units(c, fid, rnd)
                        army["favoured"] = rnd.random() < 0.5

        def buildings(s: State) -> None:
            for city in s["cities"].values():
                fid = city["owner"]
                if fid is None or fid == mine or city["ruins"] or city["kind"] == "mobile":
                    continue
                table = c.buildings.of(fid)
                fit = sorted(b for b, data in table.items() if data.level <= city["level"])
                slots = c.economy.large_slots if city["kind"] == "large" else c.economy.small_slots
                city["buildings"] = sorted(rnd.sample(fit, min(len(fit), rnd.randint(0, slots))))

        def corruption(s: State) -> None:
            known = set()
            if mine is not None:
                known = {i["about"] for i in s["factions"][mine]["intel"] if i["kind"] == "corruption"}
            for cid, city in s["cities"].items():
                if cid not in known and not city["gone"] and city["kind"] != "mobile":
                    city["corruption"] = rnd.randint(0, 19)

        def deployment(s: State) -> None:
            for city in s["cities"].values():
                if city["owner"] in rivals and not city["ruins"] and city["kind"] != "mobile":
                    garrison = c.rules.garrison(city["owner"], city["level"], city["kind"] == "large")
                    city["placement"] = _squads(c, garrison, rnd)
            for battle in s["battles"]:
                for role, other in (("attacker", "defender"), ("defender", "attacker")):
                    side, their = battle[role], battle[other]
                    if side["faction"] == mine or side["deployment"] is None:
                        continue
                    # the enemy of the viewer's battle shows its deployment once both deployed
                    if their["faction"] == mine and their["deployment"] is not None:
                        continue
                    units: dict[str, int] = {}
                    for squad in side["deployment"]:
                        for u, n in squad["units"].items():
                            units[u] = units.get(u, 0) + n
                    side["deployment"] = _squads(c, units, rnd)
                    side["gunpowder"] = rnd.randint(0, 60)
                    if battle["status"] != "fought" and side["plan"] is not None:
                        side["plan"] = []

        def proposals(s: State) -> None:
            pool = [f for f in rivals if f != mine]
            if len(pool) >= 2:
                a, b = rnd.sample(pool, 2)
                s["proposals"] = [p for p in s["proposals"] if mine in (p["by"], p["to"])]
                if rnd.random() < 0.7:
                    s["proposals"].append({"by": a, "to": b, "turn": s["turn"]})

        def camp(s: State) -> None:
            # the cult's camp is where its army stands (ruling C53)
            if "void_cult" in rivals:
                a, b = rnd.choice(c.map.roads)
                s["factions"]["void_cult"]["camp"] = sorted([a, b])
                s["factions"]["void_cult"]["last_city"] = rnd.choice(sorted(c.map.cities))

        out = [Variation("treasury", treasury), Variation("armies", armies), Variation("buildings", buildings),
               Variation("deployment", deployment), Variation("proposals", proposals), Variation("camp", camp)]
        if mine != "void_cult":
            out.append(Variation("corruption", corruption))
        return out

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        out = []
        for fid in _others(state, viewer):
            def gold(s: State, fid: str = fid) -> None:
                s["factions"][fid]["gold"] = value

            def units(s: State, fid: str = fid) -> None:
                kinds = sorted(u for u, unit in self.c.rules.units.items() if unit.faction == fid)
                s["factions"][fid]["units"] = {kinds[0]: value}
                s["factions"][fid]["gifted"] = {}
            out.extend([Variation("treasury", gold), Variation("armies", units)])
        return out

    # -- other posts a player could send --------------------------------------------------------

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """An army dispersed; the cheapest building of the faction where it fits; an attack on a
        neighbour with what the faction has; battle posts: the document's placement, no
        manoeuvres; capture choices."""
        phase = view.get("phase")
        fid = view.get("me")
        if fid is None:
            return []
        c = self.c
        if phase == "orders":
            out = ["Армия 1: все — рассредоточиться"] if (view.get("own") or {}).get("units") else []
            gold = int((view.get("own") or {}).get("gold", 0))
            own = view.get("own_cities") or {}
            table = c.buildings.of(str(fid))
            for cid in sorted(own):
                public = view["cities"][cid]
                if public["ruins"] or public["kind"] == "mobile":
                    continue
                slots = c.economy.large_slots if public["kind"] == "large" else c.economy.small_slots
                if len(own[cid]["buildings"]) >= slots:
                    continue
                fit = sorted((b.gold, bid) for bid, b in table.items()
                             if b.level <= public["level"] and bid not in own[cid]["buildings"] and b.resource == 0
                             and b.gold <= gold)
                if fit:
                    out.append(f"Построить {table[fit[0][1]].name_ru} в {c.map.cities[cid].name_ru}")
                    break
            return out
        if phase == "deployment":
            return [_all_on_the_right(c, view)] if view.get("my_battles") else []
        if phase == "planning":
            return ["Без манёвров"]
        if phase == "capture":
            from voevoda.rulesets.steel_rose.campaign.battles import choices_for
            from voevoda.rulesets.steel_rose.campaign.orders import CHOICE_RU

            mine = [cap for cap in view.get("captures", []) if cap["faction"] == fid and not cap["done"]]
            return ["\n".join(f"{c.map.cities[cap['city']].name_ru}: {CHOICE_RU[choice]}" for cap in mine)
                    for choice in choices_for(str(fid))] if mine else []
        return []

    # -- named pairs -----------------------------------------------------------------------------

    def pairs(self) -> list[Pair]:
        return [_a_rivals_treasury(), _corruption_hidden_from_the_owner(), _the_enemys_deployment(),
                _the_enemys_plan()]

    def sealed_phases(self) -> tuple[str, ...]:
        """A battle's deployments until both sides have deployed, and its plans until it is fought."""
        return ("deployment", "planning")


def _all_on_the_right(campaign: Campaign, view: Mapping[str, Any]) -> str:
    """Another deployment a player could post: every unit of each of his battles in one squad in
    the right flank's vanguard (the computer opponent spreads them otherwise)."""
    from voevoda.rulesets.steel_rose.battle.posts import write_deployment
    from voevoda.rulesets.steel_rose.campaign.bots import _available, _city_name, _city_of

    blocks = []
    done: set[str] = set()
    for battle in view.get("my_battles", []):
        city = _city_of(view, battle["id"])
        units = _available(view, battle)
        if city in done or not units:
            continue
        done.add(city)
        blocks.append(f"Битва за {_city_name(campaign, city)}:\n"
                      + write_deployment([SquadInput("right.vanguard", units)], campaign.rules))
    return "\n".join(blocks)


def _silent(steps: int) -> tuple[Mapping[str, str], ...]:
    return tuple({} for _ in range(steps))


def _a_rivals_treasury() -> Pair:
    """The Empire holds 750 gold (game a) or 4750 (game b): the Principality cannot tell."""
    def prepare(state: State, which: str) -> State:
        if which == "b":
            state["factions"]["empire"]["gold"] += 4000
        return state

    return Pair("a rival's treasury", "002 «Игрокам НЕдоступна следующая информация: ... Баланс противников»",
                "Борис", Setting(PLAYERS), prepare, _silent(2), _silent(2))


def _corruption_hidden_from_the_owner() -> Pair:
    """Велмар, the Empire's, carries the cult's corruption (game b) or none (game a): without a
    detection building the Empire cannot tell, turn after turn."""
    def prepare(state: State, which: str) -> State:
        if which == "b":
            state["cities"]["velmar"]["corruption"] = 15
        return state

    return Pair("corruption unknown to the owner", "002 «Никакие фракции не знают о том, что их города подверглись "
                "порче, если не построят специальные постройки»", "Анна", Setting(PLAYERS), prepare,
                _silent(2), _silent(2))


ATTACK = "Построить Барак в Авентале\nНанять 20 копейщиков\nАрмия 1: все — атака Хольмгард"
"""The Empire's first turn: an army of twenty spearmen against the Principality's Holmgard."""
DEPLOY_EMPIRE = "Битва за Хольмгард:\nЦентральный фланг:\nАвангард - 20 копейщиков"
DEPLOY_ROSE = ("Битва за Хольмгард:\nЦентральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 6 стрелков",
               "Битва за Хольмгард:\nЛевый фланг:\nАвангард - 8 щитовиков\nАрьергард - 6 стрелков")
PLAN_ROSE = "Битва за Хольмгард:\nЦентральный арьергард: обстрел центрального авангарда"


def _the_enemys_deployment() -> Pair:
    """The Empire attacks Holmgard; the Principality deploys its garrison one way or another:
    until both have deployed the Empire cannot tell how (the resolution then reveals it)."""
    return Pair("the enemy's deployment before both have deployed",
                "002 «Игрокам НЕдоступна следующая информация: Составы и расположение армий противника»; the "
                "battle's deployments are shown to each side once both have deployed (docs/engine.md `deployment`)",
                "Анна", Setting(PLAYERS), lambda state, which: state,
                ({"Анна": ATTACK}, {"Анна": DEPLOY_EMPIRE, "Борис": DEPLOY_ROSE[0]}),
                ({"Анна": ATTACK}, {"Анна": DEPLOY_EMPIRE, "Борис": DEPLOY_ROSE[1]}), revealed=True)


def _the_enemys_plan() -> Pair:
    """Both sides deployed and see each other; the Principality plans a manoeuvre or none: the
    Empire cannot tell before the battle is fought."""
    deployed = {"Анна": DEPLOY_EMPIRE, "Борис": DEPLOY_ROSE[0]}
    return Pair("the enemy's plan before the battle",
                "002, the battle: plans are posted after seeing the enemy's deployment and shown once the battle "
                "is computed (docs/engine.md `deployment`: «its plan after the battle»)",
                "Анна", Setting(PLAYERS), lambda state, which: state,
                ({"Анна": ATTACK}, deployed, {"Анна": "Битва за Хольмгард:\nБез манёвров",
                                               "Борис": "Битва за Хольмгард:\nБез манёвров"}),
                ({"Анна": ATTACK}, deployed, {"Анна": "Битва за Хольмгард:\nБез манёвров",
                                               "Борис": PLAN_ROSE}), revealed=True)

