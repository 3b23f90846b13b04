"""Война Стальной Розы, one battle played as a game (``steel-rose-battle``): two sides, two
posts each.

«От каждого игрока требуется лишь 2 поста: 1 с расстановкой и 1 с планированием.» The game
waits for both deployments, shows each side the other's deployment, waits for both plans,
then computes the battle. The campaign (``steel-rose``, :mod:`.campaign`) fights its battles
through the same engine; the battle itself lives in :mod:`.battle` and takes plain data.

Config::

    {"sides": [{"player": "Алиса", "army": {"knight": 5, "archer": 10}, "gunpowder": 0},
               {"player": "Борис", "garrison": {"faction": "steel_rose", "level": 2, "large": false}}],
     "paladin_defending_whole_battle": false, ...}

The first side attacks; a side with ``garrison`` defends a city with its garrison.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from voevoda.core.dice import CITED, Dice, Stream, rerun_ref
from voevoda.core.errors import DataError, GameError, ParseError, Problem, illegal, warning
from voevoda.core.hidden import HiddenParts
from voevoda.core.markup import Document
from voevoda.core.ruleset import (
    GM,
    PUBLIC,
    Event,
    Order,
    Outcome,
    Prompt,
    Resolution,
    Ruleset,
    State,
    StateProblem,
)
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import (
    BattleOptions,
    Manoeuvre,
    Note,
    PowderShare,
    SideInput,
    SquadInput,
)
from voevoda.rulesets.steel_rose.battle.posts import (
    UnitNames,
    begins_deployment,
    begins_plan,
    check_powder_stock,
    default_garrison_deployment,
    parse_deployment,
    parse_plan,
    write_deployment,
)
from voevoda.rulesets.steel_rose.battle.sides import SideSpec, army_faction, check_army, side_problem
from voevoda.rulesets.steel_rose.battle.words import manoeuvre_text, powder_text, squad_line, units_text
from voevoda.rulesets.steel_rose.rules import Rules, load_rules
from voevoda.rulesets.steel_rose.schema import SteelRoseBattleState, invariants

DEMO_SIDES: list[dict[str, Any]] = [
    {"army": {"spearman": 20, "knight": 6, "hero": 1, "archer": 12, "horseman": 6, "healer": 2}},
    {"garrison": {"faction": "steel_rose", "level": 2, "large": False}},
]


class SteelRoseBattle(Ruleset):
    id: ClassVar[str] = "steel-rose-battle"
    version: ClassVar[str] = "0.1"
    title_ru: ClassVar[str] = "Война Стальной Розы (одна битва)"
    title_en: ClassVar[str] = "War of the Steel Rose (one battle)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        self.rules: Rules = load_rules(self.house_rules)
        self.names = UnitNames(self.rules)
        self.options = BattleOptions.from_config(self.config)

    # -- helpers ----------------------------------------------------------------------

    def _spec(self, state: State, player: str) -> SideSpec:
        side = state["sides"][player]
        return SideSpec(player, side.get("faction"), side.get("army"), side.get("garrison"),
                        gunpowder=side.get("gunpowder"), modifiers=dict(side.get("modifiers", {})))

    def _enemy(self, state: State, player: str) -> str:
        a, b = state["players"]
        return str(b if player == a else a)

    def _squads(self, state: State, player: str) -> list[SquadInput]:
        dep = state["deployments"].get(player)
        return [SquadInput.from_json(s) for s in dep["squads"]] if dep else []

    # -- the contract -------------------------------------------------------------------

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        if len(players) != 2:
            raise GameError("в битве ровно две стороны", "a battle has exactly two sides")
        configured = self.config.get("sides") or [{**s, "player": p} for s, p in zip(DEMO_SIDES, players, strict=True)]
        if len(configured) != 2:
            raise GameError("в конфигурации нужны две стороны (sides)", "the config needs two sides ('sides')")
        sides: dict[str, Any] = {}
        for role, (player, entry) in zip(("attacker", "defender"), zip(players, configured, strict=True), strict=True):
            if not isinstance(entry, Mapping):
                raise DataError(f"config sides: expected a table for {player}")
            problem = side_problem(f"config sides ({player})", entry, self.rules)
            if problem:
                raise DataError(problem)
            entry = dict(entry)
            garrison = entry.get("garrison")
            army = entry.get("army")
            if garrison is None and army is None:
                raise GameError(f"у стороны {player} нет ни армии, ни гарнизона",
                                f"side {player} has neither an army nor a garrison")
            for uid in (army or {}):
                if uid not in self.rules.units:
                    raise GameError(f"неизвестный юнит «{uid}» в армии {player}", f"unknown unit '{uid}' in {player}'s army")
            faction = entry.get("faction") or (garrison or {}).get("faction")
            if garrison is not None:
                self.rules.garrison(str(garrison.get("faction", faction)), int(garrison.get("level", 1)),
                                    bool(garrison.get("large", False)))
            sides[player] = {"role": role, "faction": faction, "army": army, "garrison": garrison,
                             "gunpowder": entry.get("gunpowder"), "modifiers": entry.get("modifiers", {})}
        return {"ruleset": self.id, "mode": "battle", "turn": 1, "phase": "deployment",
                "players": list(players), "sides": sides, "deployments": {}, "plans": {}, "result": None}

    def begins_order(self, line: str, player: str, state: State) -> bool:
        """Deployment lines («Правый фланг:», «Авангард - …», «Порох: N») or plan lines
        («Правый авангард: натиск …», «Без манёвров»), by the phase."""
        return begins_plan(line) if state.get("phase") == "planning" else begins_deployment(line)

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """Units of the army the deployment leaves out stay in reserve (docs/rulings R33): said,
        not refused."""
        if state.get("phase") != "deployment" or player not in state.get("sides", {}):
            return []
        army = self._spec(state, player).units(self.rules) or {}
        placed: dict[str, int] = {}
        for o in orders:
            if o.kind == "deploy":
                for uid, n in dict(o.args["units"]).items():
                    placed[uid] = placed.get(uid, 0) + int(n)
        left = {uid: n - placed.get(uid, 0) for uid, n in army.items() if n > placed.get(uid, 0)}
        if not left:
            return []
        ru, en = units_text(self.rules, left, "ru"), units_text(self.rules, left, "en")
        return [warning(f"не расставлены (останутся в резерве и в бою не участвуют): {ru}",
                        f"not placed (they stay in reserve and do not fight): {en}", rule="R33")]

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        if player not in state["sides"]:
            raise GameError(f"{player} не участвует в битве", f"{player} is not in this battle")
        if state["phase"] == "deployment":
            dep = parse_deployment(text, self.rules, self.names)
            problems = list(dep.problems)
            problems.extend(check_army(dep.squads, self._spec(state, player).units(self.rules), self.rules))
            orders = [Order("deploy", s.to_json(), s.line, text.splitlines()[s.line - 1].strip())
                      for s in dep.squads]
            if dep.gunpowder is not None:
                orders.append(Order("gunpowder", {"amount": dep.gunpowder}, dep.gunpowder_line,
                                    text.splitlines()[dep.gunpowder_line - 1].strip() if dep.gunpowder_line else ""))
            else:
                problems.extend(check_powder_stock(dep.powder, state["sides"][player].get("gunpowder")))
            orders.extend(Order("powder", share.to_json(), share.line, text.splitlines()[share.line - 1].strip())
                          for share in dep.powder)
            # what the reading decided (R1) is echoed with the post and printed in the report
            orders.extend(Order("note", note.to_json(), note.line) for note in dep.notes)
            if problems:
                raise ParseError(problems, [self.describe(o) for o in orders], orders=orders)
            if not orders:
                raise ParseError([illegal("в расстановке нет ни одного отряда", "the deployment places no squad",
                                          None, None, None, "Расстановка")], [])
            return orders
        if state["phase"] == "planning":
            plan = parse_plan(text, self.rules, self._squads(state, player),
                              self._squads(state, self._enemy(state, player)))
            orders = [Order("manoeuvre", m.to_json(), m.line, text.splitlines()[m.line - 1].strip())
                      for m in plan.manoeuvres]
            if plan.skip:
                orders.append(Order("skip_planning"))
            if plan.problems:
                raise ParseError(plan.problems, [self.describe(o) for o in orders], orders=orders)
            return orders
        raise GameError("битва уже окончена", "the battle is over")

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        problems: list[Problem] = []
        if state["phase"] == "deployment":
            squads = [SquadInput.from_json(dict(o.args)) for o in orders if o.kind == "deploy"]
            problems.extend(check_army(squads, self._spec(state, player).units(self.rules), self.rules))
        return problems

    def default_orders(self, state: State, player: str) -> list[Order]:
        """A garrison without a placement stands as the document says; a silent side in
        planning uses no manoeuvres."""
        if state["phase"] == "deployment":
            units = self._spec(state, player).units(self.rules) or {}
            return [Order("deploy", s.to_json()) for s in default_garrison_deployment(units, self.rules)]
        return []

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        state = copy.deepcopy(state)
        events: list[Event] = []
        if state["phase"] == "deployment":
            for player in state["players"]:
                given = list(orders.get(player, ())) or self.default_orders(state, player)
                state["deployments"][player] = {
                    "squads": [dict(o.args) for o in given if o.kind == "deploy"],
                    "gunpowder": next((int(o.args["amount"]) for o in given if o.kind == "gunpowder"), None),
                    "powder": [dict(o.args) for o in given if o.kind == "powder"],
                    "notes": [dict(o.args) for o in given if o.kind == "note"],
                }
            state["phase"] = "planning"
            for player in state["players"]:
                # both sides see the placement, never the other's powder (its stock and shares)
                events.append(Event("deployed", {"player": player, "squads": state["deployments"][player]["squads"]},
                                    audience=tuple(state["players"])))
            return Resolution(state, events)
        if state["phase"] == "planning":
            for player in state["players"]:
                given = list(orders.get(player, ()))
                state["plans"][player] = {
                    "manoeuvres": [dict(o.args) for o in given if o.kind == "manoeuvre"],
                    "skip": any(o.kind == "skip_planning" for o in given),
                }
            sides = []
            for player in state["players"]:
                side = state["sides"][player]
                squads = tuple(self._squads(state, player))
                units: dict[str, int] = {}
                for sq in squads:
                    for uid, n in sq.units.items():
                        units[uid] = units.get(uid, 0) + n
                dep = state["deployments"][player]
                gp = dep.get("gunpowder")
                sides.append(SideInput(player, side.get("faction") or army_faction(units, self.rules), squads,
                                       tuple(Manoeuvre.from_json(m) for m in state["plans"][player]["manoeuvres"]),
                                       gp if gp is not None else side.get("gunpowder"),
                                       side.get("garrison") is not None,
                                       {str(k): float(v) for k, v in side.get("modifiers", {}).items()},
                                       tuple(PowderShare.from_json(x) for x in dep.get("powder", ())),
                                       tuple(Note.from_json(x) for x in dep.get("notes", ()))))
            # «атакующий имеет право пропустить фазу планирования» against a garrison: then
            # «Ни одна из сторон ... не использует манёвры»
            skipped = any(state["sides"][state["players"][1 - i]].get("garrison") is not None
                          and (state["plans"][state["players"][i]]["skip"] or not sides[i].plan) for i in range(2))
            if skipped:
                sides = [replace(s, plan=()) for s in sides]
            a, b = sides
            from voevoda.rulesets.steel_rose.battle.engine import fight  # NumPy: only to fight

            label = f"steel-rose/battle/{state['turn']}"
            result = fight(self.rules, (a, b), dice, label, self.options)
            state["result"] = result.to_json()
            state["phase"] = "done"
            # the sides as fought, so that verify fights the battle again (docs/dice.md §5)
            events.append(Event("battle", {"result": state["result"], "plans": state["plans"],
                                           "sides": [a.to_record(), b.to_record()],
                                           CITED: [rerun_ref("/result", "battle", label)]}))
            return Resolution(state, events)
        raise GameError("битва уже окончена", "the battle is over")

    def awaiting(self, state: State) -> dict[str, Prompt]:
        if state["phase"] == "deployment":
            return {p: Prompt("deployment", "Пришлите расстановку: «Правый фланг: Авангард - ...»",
                              "Send your deployment: 'Right flank: Vanguard - ...'") for p in state["players"]}
        if state["phase"] == "planning":
            return {p: Prompt("planning", "Пришлите план: по одному манёвру на отряд",
                              "Send your plan: one manoeuvre per squad") for p in state["players"]}
        return {}

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """A side sees its own army; the enemy's deployment only once both have deployed, the
        enemy's plan only once the battle is computed («Игрокам НЕдоступна ... Составы и
        расположение армий противника»)."""
        if viewer == GM:
            return copy.deepcopy(state)
        done = state["phase"] == "done"
        out: dict[str, Any] = {"ruleset": state["ruleset"], "mode": state["mode"], "turn": state["turn"],
                               "phase": state["phase"], "players": list(state["players"]), "sides": {},
                               "deployments": {}, "plans": {}, "result": copy.deepcopy(state["result"]) if done else None}
        for player, side in state["sides"].items():
            own = viewer == player
            public = {"role": side["role"], "garrison": copy.deepcopy(side["garrison"])}
            if own or done:
                public.update({"faction": side["faction"], "army": copy.deepcopy(side["army"]),
                               "gunpowder": side["gunpowder"]})
            out["sides"][player] = public
            dep = state["deployments"].get(player)
            # the enemy's deployment once both have deployed; spectators only after the battle
            if dep is not None and (own or done or (viewer in state["sides"] and state["phase"] != "deployment")):
                shown = copy.deepcopy(dep)
                if not own and not done:
                    shown.pop("gunpowder", None)
                    shown.pop("powder", None)
                out["deployments"][player] = shown
            plan = state["plans"].get(player)
            if plan is not None and (own or done):
                out["plans"][player] = copy.deepcopy(plan)
        return out

    def with_own_post(self, view: dict[str, Any], viewer: str, orders: Sequence[Order]) -> dict[str, Any]:
        """During the deployment, the viewer's accepted deployment laid into his view (marked
        ``posted``), so that his map draws it while the enemy's is still unknown."""
        if view.get("phase") != "deployment" or viewer not in view.get("players", []):
            return view
        squads = [dict(o.args) for o in orders if o.kind == "deploy"]
        if not squads:
            return view
        out = copy.deepcopy(view)
        out["deployments"][viewer] = {"squads": squads, "posted": True}
        return out

    def rerun(self, computation: str, label: str, data: Mapping[str, Any], dice: Dice) -> Any:
        """«battle»: the battle fought again from the sides its event records, under its label
        (docs/dice.md §5, docs/steel_rose/battle.md §6): the event's ``result``."""
        if computation != "battle":
            raise KeyError(computation)
        from voevoda.rulesets.steel_rose.battle.engine import fight  # NumPy: only to fight
        from voevoda.rulesets.steel_rose.battle.sides import battle_inputs

        return fight(self.rules, battle_inputs(data.get("sides"), self.rules), dice, label, self.options).to_json()

    state_model = SteelRoseBattleState

    def state_invariants(self, state: State) -> list[StateProblem]:
        return invariants(state, self.rules)

    def config_keys(self) -> frozenset[str]:
        """The battle options of docs/rulings/steel_rose.md and the two sides (``sides``)."""
        return frozenset(set(BattleOptions.__dataclass_fields__) | {"sides"})

    def hidden_parts(self) -> HiddenParts:
        """Armies, deployments and plans before they are revealed, for the non-interference test."""
        from voevoda.rulesets.steel_rose.hidden import SteelRoseBattleHidden

        return SteelRoseBattleHidden(self.rules)

    def public_config(self) -> dict[str, Any]:
        """The options, and of each side only its player and, for a city's garrison, the city
        (faction, level, size: «Состав и тип городов у всех фракций» is public). An army, its
        faction, powder and modifiers stay secret («Игрокам НЕдоступна ... Составы ... армий
        противника»): the public export carries this, not the config."""
        public = {k: copy.deepcopy(v) for k, v in self.config.items() if k != "sides"}
        if "sides" in self.config:
            public["sides"] = [{"player": side.get("player"),
                                **({"garrison": copy.deepcopy(side["garrison"])} if side.get("garrison") else {})}
                               for side in self.config["sides"]]
        return public

    def hidden_markers(self, state: State, viewer: str) -> list[str]:
        """What ``viewer`` may not see, as it would appear in a view's JSON: before the battle
        is computed, another side's army (and, for spectators, every army), its deployment
        with its powder stock, and its plan."""
        if viewer == GM or state["phase"] == "done":
            return []
        markers: list[str] = []
        for player, side in state["sides"].items():
            if player == viewer:
                continue
            garrison = json.dumps(side["garrison"], ensure_ascii=False)
            markers.append(f'"{player}": {{"role": "{side["role"]}", "garrison": {garrison}, "faction"')
            dep = state["deployments"].get(player)
            if dep is not None:
                markers.append(f'"{player}": ' + json.dumps(dep, ensure_ascii=False))
            plan = state["plans"].get(player)
            if plan is not None:
                markers.append(f'"{player}": ' + json.dumps(plan, ensure_ascii=False))
        return markers

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "done" or not state["result"]:
            return None
        winner = state["result"]["winner"]
        if winner is None:
            return Outcome((), "ничья: обе стороны уничтожены или бой не решился",
                           "a draw: both sides destroyed or the fight did not resolve")
        name = state["players"][winner]
        return Outcome((name,), f"{self.player_names('ru').act(name, 'выиграл')} битву", f"{name} won the battle")

    def progress(self, state: State) -> tuple[int, str]:
        return int(state.get("turn", 1)), str(state.get("phase", ""))

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """«расстановка», «планирование» (the summary's names)."""
        from voevoda.rulesets.steel_rose.battle.summary import PHASES

        ru, _, en = PHASES.get(phase, f"{phase} / {phase}").partition(" / ")
        return ru if lang == "ru" else en

    def summary(self, view: Mapping[str, Any], viewer: str) -> str:
        """What ``voevoda show`` prints: the battle as the viewer may see it, in words
        (battle/summary.py); ``--json`` gives the view itself."""
        from voevoda.rulesets.steel_rose.battle.summary import summary

        return summary(view, viewer, self.rules, self.player_names("ru"))

    def describe(self, order: Order, lang: str = "ru") -> str:
        """An order as its author reads it back (battle/words.py): «правый авангард: 10
        копейщиков и герой», «правый арьергард: обстрел правого авангарда», «порох: 30»."""
        if order.kind == "deploy":
            return squad_line(self.rules, str(order.args["position"]), dict(order.args["units"]), lang)
        if order.kind == "manoeuvre":
            return manoeuvre_text(Manoeuvre.from_json(dict(order.args)), lang)
        if order.kind == "gunpowder":
            return f"{'порох' if lang == 'ru' else 'gunpowder'}: {order.args['amount']}"
        if order.kind == "powder":
            return powder_text(PowderShare.from_json(dict(order.args)), self.rules, lang)
        if order.kind == "note":
            note = Note.from_json(dict(order.args))
            # the echo numbers the line already: «7: Примечание: второй «Центральный фланг» …»
            text = re.sub(r"^(строка|line) \d+: ", "", note.ru if lang == "ru" else note.en)
            return ("Примечание: " + text) if lang == "ru" else ("Note: " + text)
        if order.kind == "skip_planning":
            return "без манёвров" if lang == "ru" else "no manoeuvres"
        return order.text or order.kind

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        """A plain opponent: everything in the centre (shooters behind), shooters fire at the
        enemy centre vanguard when there is one."""
        if view["phase"] == "deployment":
            side = view["sides"][player]
            spec = SideSpec(player, side.get("faction"), side.get("army"), side.get("garrison"))
            units = spec.units(self.rules) or {}
            return write_deployment(default_garrison_deployment(units, self.rules), self.rules)
        if view["phase"] == "planning":
            enemy = next(p for p in view["players"] if p != player)
            enemy_positions = {s["position"] for s in view["deployments"].get(enemy, {}).get("squads", [])}
            lines = []
            for s in view["deployments"].get(player, {}).get("squads", []):
                pos = s["position"]
                if (fld.rank_of(pos) == "rearguard" and "centre.vanguard" in enemy_positions
                        and all(self.rules.units[u].volley for u in s["units"])):
                    lines.append(f"{fld.label_ru(pos).capitalize()}: обстрел центрального авангарда")
            return "\n".join(lines) or "Без манёвров"
        return None

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: str,
                 lang: str = "ru", turn: int | None = None) -> Document:
        """Each side's deployment once both are in, and the battle (docs/steel_rose/battle.md):
        the result, why every unit died, every round in full in a spoiler. Once the battle is
        told, its own account of the deployments stands in for the step's."""
        names = self.player_names(lang)
        doc = Document(f"{self.title_ru if lang == 'ru' else self.title_en}: {self._report_for(viewer, lang)}")
        fought = any(event.kind == "battle" for event in events)
        for event in events:
            if event.kind == "battle":
                from voevoda.rulesets.steel_rose.battle.report import battle_document

                battle = battle_document(event.data["result"], self.rules, lang, names)
                doc.heading(battle.title or "", 2)
                doc.blocks.extend(battle.blocks)
            elif event.kind == "deployed" and not fought:
                who = str(event.data["player"])
                squads = [SquadInput.from_json(s) for s in event.data["squads"]]
                doc.heading(f"Расстановка {names.case(who, 'gent')}" if lang == "ru" else f"{who}'s deployment", 2)
                doc.bullets([squad_line(self.rules, s.position, s.units, lang) for s in squads])
        return doc

    def _report_for(self, viewer: str, lang: str) -> str:
        """«отчёт для Бориса», «общий отчёт», «отчёт ведущего»."""
        if viewer == PUBLIC:
            return "общий отчёт" if lang == "ru" else "public report"
        if viewer == GM:
            return "отчёт ведущего" if lang == "ru" else "the game master's report"
        return f"отчёт для {self.player_names(lang).case(viewer, 'gent')}" if lang == "ru" else f"report for {viewer}"

    def map_svg(self, view: Mapping[str, Any], viewer: str, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        """The battlefield with the deployments ``view`` shows; after the battle, each side's
        strength through it. Framed with the game's title, the moment and whose map it is, and
        a legend (docs/maps.md)."""
        from voevoda.core import maps
        from voevoda.rulesets.steel_rose.battle.report import EMPTY_FILL, field_body, strength_svg

        ru = lang == "ru"
        players = list(view["players"])
        colours = ["#b22222", "#1f4e9c"]
        whose = (f"карта {self.player_names(lang).case(viewer, 'gent')}" if ru else f"{viewer}'s map") if (
            viewer not in (GM, PUBLIC)) else ({GM: "карта ведущего", PUBLIC: "общая карта"} if ru
                                              else {GM: "the game master's map", PUBLIC: "public map"})[viewer]
        title = self.title_ru if ru else self.title_en
        if view.get("result"):
            chart = strength_svg(view["result"], lang)
            legend = [maps.LegendEntry(f'<line x1="2" y1="10" x2="22" y2="10" stroke="{colours[i]}" stroke-width="2"/>',
                                       f"здоровье войска {self.player_names(lang).case(p, 'gent')}" if ru
                                       else f"the health of {p}'s army")
                      for i, p in enumerate(players[:2])]
            return maps.framed(chart, 640, 320, title=title,
                               subtitle=f"{'после битвы' if ru else 'after the battle'} · {whose}", legend=legend)
        body, width, height = field_body(view, self.rules, lang, viewer)
        phase = {"deployment": ("расстановка", "deployment"), "planning": ("планирование", "planning")}.get(
            str(view.get("phase")), ("битва", "battle"))
        names = self.player_names(lang)
        deployments = view.get("deployments") or {}
        legend = [maps.LegendEntry(f'<rect x="3" y="3" width="18" height="14" rx="3" fill="#ffffff" '
                                   f'stroke="{colours[i]}" stroke-width="1.5"/>', f"отряды {names.case(p, 'gent')}"
                                   if ru else f"{p}'s squads") for i, p in enumerate(players[:2])]
        if any(p in deployments or p == viewer for p in players[:2]):
            legend.append(maps.LegendEntry(
                f'<rect x="3" y="3" width="18" height="14" rx="3" fill="{EMPTY_FILL}" stroke="#999" '
                'stroke-width="1" stroke-dasharray="3 2"/>',
                "пусто: на позиции никто не стоит" if ru else "empty: nobody stands there"))
        if any(p not in deployments and p != viewer for p in players[:2]):
            legend.append(maps.LegendEntry(
                f'<rect x="3" y="3" width="18" height="14" rx="3" fill="url(#{maps.UNSEEN_PATTERN})" stroke="#999" '
                'stroke-width="1"/>' + maps.text(12, 14, "?", size=11, weight="bold", anchor="middle", fill="#6b6355"),
                "неизвестно: расстановка скрыта, пока обе стороны не расставят войска" if ru
                else "unknown: hidden until both sides have deployed"))
        legend.append(maps.LegendEntry(
            '<line x1="2" y1="10" x2="22" y2="10" stroke="#999" stroke-width="1.5" stroke-dasharray="6 4"/>',
            "линия соприкосновения: авангарды лицом к лицу" if ru else "where the vanguards face each other"))
        posted = viewer in deployments and deployments[viewer].get("posted")
        awaited = view.get("phase") == "deployment" and viewer in players and viewer not in deployments
        state_of = ((" · ваша расстановка принята, ждём противника" if ru else " · your deployment is in, the enemy's "
                     "is awaited") if posted else (" · ждём вашу расстановку" if ru else " · your deployment is awaited")
                    if awaited else "")
        return maps.framed(body, width, height, title=title,
                           subtitle=f"{phase[0] if ru else phase[1]} · {whose}{state_of}", legend=legend)

    def demo_script(self, players: Sequence[str]) -> list[dict[str, str]]:
        if len(players) != 2 or self.config.get("sides"):
            return []
        a, b = players
        return [
            {a: "Центральный фланг:\nАвангард - 20 копейщиков, 6 рыцарей, герой и 2 целителя\nАрьергард - 12 лучников\n"
                "Левый фланг:\nАвангард - 6 всадников",
             b: "Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 мушкетёров и пушка"},
            {a: "Центральный арьергард: обстрел центрального авангарда\nЛевый авангард: натиск на центральный арьергард",
             b: "Центральный арьергард: обстрел центрального авангарда\nЦентральный авангард: защита центрального арьергарда"},
        ]
