"""What a viewer of a Steel Rose battle may not see, stated for the non-interference test.

002: «Всем фракциям по умолчанию доступна ... Состав и тип городов у всех фракций»; «Игрокам
НЕдоступна следующая информация: Составы и расположение армий противника». A side sees the enemy's
deployment once both have deployed (without its powder), and its plan once the battle is computed;
the public sees the armies only after the battle. The keys below are the rows of the
`steel-rose-battle` table in ``docs/engine.md``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation, others
from voevoda.core.ruleset import State, Viewer
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.battle.posts import write_deployment
from voevoda.rulesets.steel_rose.battle.sides import SideSpec
from voevoda.rulesets.steel_rose.rules import Rules

PLAYERS = ("Алиса", "Борис")
SIDES: list[dict[str, Any]] = [
    {"player": "Алиса", "faction": "empire", "army": {"spearman": 12, "knight": 4, "archer": 8, "healer": 1}},
    {"player": "Борис", "garrison": {"faction": "steel_rose", "level": 2, "large": False}, "gunpowder": 40},
]


def random_army(rules: Rules, faction: str, rnd: random.Random) -> dict[str, int]:
    """Two to four unit types of ``faction``, some of each."""
    kinds = sorted(u for u, unit in rules.units.items() if unit.faction == faction)
    chosen = sorted(rnd.sample(kinds, min(len(kinds), rnd.randint(2, 4))))
    return {u: 1 if rules.units[u].one_per_squad else rnd.randint(1, 12) for u in chosen}


def random_deployment(units: Mapping[str, int], rules: Rules, rnd: random.Random) -> list[SquadInput]:
    """Every unit placed: those that do not fire volleys in the vanguards of one to three flanks,
    the shooters behind one of them (in a vanguard when there is nobody to stand behind)."""
    flanks = rnd.sample(fld.FLANKS, rnd.randint(1, 3))
    squads: dict[str, dict[str, int]] = {}
    melee = {u: n for u, n in units.items() if n and not rules.units[u].volley}
    volley = {u: n for u, n in units.items() if n and rules.units[u].volley}
    for uid, n in melee.items():
        squads.setdefault(fld.at(rnd.choice(flanks), "vanguard"), {})[uid] = n
    fronts = [fld.flank_of(p) for p in squads]
    for uid, n in volley.items():
        where = fld.at(rnd.choice(fronts), "rearguard") if fronts else fld.at(rnd.choice(flanks), "vanguard")
        squads.setdefault(where, {})[uid] = n
    return [SquadInput(position, dict(sorted(u.items()))) for position, u in sorted(squads.items())]


class SteelRoseBattleHidden(HiddenParts):
    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS, {"sides": copy.deepcopy(SIDES)})

    def _vary_side(self, side: dict[str, Any], rnd: random.Random) -> None:
        faction = str(side.get("faction") or (side.get("garrison") or {}).get("faction") or "empire")
        if side.get("garrison") is None or rnd.random() < 0.5:
            side["army"] = random_army(self.rules, faction, rnd)
        side["gunpowder"] = rnd.randint(0, 90)

    def config_variations(self, config: Mapping[str, Any], players: Sequence[str], viewer: Viewer,
                          rnd: random.Random) -> list[Variation]:
        def vary(c: dict[str, Any]) -> None:
            for side in c.get("sides", []):
                if side["player"] in others(players, viewer):
                    self._vary_side(side, rnd)
        return [Variation("army", vary)]

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        if state["phase"] == "done":
            return []
        rivals = others(state["players"], viewer)

        def army(s: State) -> None:
            for q in rivals:
                side = s["sides"][q]
                if s["phase"] == "deployment":
                    self._vary_side(side, rnd)
                    continue
                # once deployed, the army left in reserve and the powder stay hidden
                if side.get("army"):
                    side["army"] = {u: n + rnd.randint(0, 5) for u, n in side["army"].items()}
                side["gunpowder"] = rnd.randint(0, 90)
                if s["deployments"].get(q) is not None:
                    s["deployments"][q]["gunpowder"] = rnd.randint(0, 90)
        out = [Variation("army", army)]
        if state["phase"] == "planning" and viewer not in state["players"]:
            def deployment(s: State) -> None:
                for q in rivals:
                    dep = s["deployments"][q]
                    units: dict[str, int] = {}
                    for squad in dep["squads"]:
                        for u, n in squad["units"].items():
                            units[u] = units.get(u, 0) + n
                    dep["squads"] = [sq.to_json() for sq in random_deployment(units, self.rules, rnd)]
            out.append(Variation("deployment", deployment))
        return out

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        if state["phase"] == "done":
            return []
        out = []
        for q in others(state["players"], viewer):
            def powder(s: State, q: str = q) -> None:
                s["sides"][q]["gunpowder"] = value
            out.append(Variation("army", powder))
            if state["sides"][q].get("army"):
                def count(s: State, q: str = q) -> None:
                    army = s["sides"][q]["army"]
                    army[sorted(army)[0]] = value
                out.append(Variation("army", count))
        return out

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """A deployment of the whole army in some other order; a plan without manoeuvres."""
        if view["phase"] == "deployment":
            side = view["sides"][player]
            spec = SideSpec(player, side.get("faction"), side.get("army"), side.get("garrison"))
            units = spec.units(self.rules) or {}
            return [write_deployment(random_deployment(units, self.rules, rnd), self.rules)]
        if view["phase"] == "planning":
            return ["Без манёвров"]
        return []

    def pairs(self) -> list[Pair]:
        return [_armies_before_the_battle(self.rules)]


def _armies_before_the_battle(rules: Rules) -> Pair:
    """Алиса's army is the setting's (game a) or smaller, deployed otherwise (game b). Until the
    battle is computed the public sees neither army nor deployment."""
    smaller = {"spearman": 6, "knight": 2, "archer": 8}

    def prepare(state: State, which: str) -> State:
        if which == "b":
            state["sides"]["Алиса"]["army"] = dict(smaller)
        return state

    big = {"spearman": 12, "knight": 4, "archer": 8, "healer": 1}
    boris = "Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 мушкетёров и пушка"
    a = write_deployment([SquadInput("centre.vanguard", {"spearman": 12, "knight": 4, "healer": 1}),
                          SquadInput("centre.rearguard", {"archer": big["archer"]})], rules)
    b = write_deployment([SquadInput("left.vanguard", {"spearman": 6, "knight": 2}),
                          SquadInput("left.rearguard", {"archer": 8})], rules)
    return Pair(
        "the armies before the battle", "002 «Игрокам НЕдоступна следующая информация: Составы и расположение "
        "армий противника»", "public", Setting(PLAYERS, {"sides": copy.deepcopy(SIDES)}), prepare,
        ({"Алиса": a, "Борис": boris},), ({"Алиса": b, "Борис": boris},))
