"""Новые Миры: Искусство Войны — the ruleset the engine drives.

Every turn each living player posts the orders of its country (bold text of a forum post);
``resolve`` runs the turn of :mod:`voevoda.rulesets.new_worlds.turn`, which ends with the
roll for the next turn, so that a player always sees his points before writing his post.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from voevoda.core import posts
from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import GameError, ParseError, Problem, illegal, invalid, warning
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
    Viewer,
)
from voevoda.core.words import counted
from voevoda.rulesets.new_worlds.mapdata import MapFile, check_map, grid_from_state, load_map
from voevoda.rulesets.new_worlds.plan import Plan, Planner, free_land
from voevoda.rulesets.new_worlds.roll import roll_country
from voevoda.rulesets.new_worlds.rules import CustomEvent, Options, Rules, load_options, load_rules
from voevoda.rulesets.new_worlds.state import (
    Country,
    EventsState,
    MapState,
    NWState,
    ScheduledEvent,
    check_state,
    dump_state,
    load_state,
    state_problems,
)
from voevoda.rulesets.new_worlds.world import World, place_country

if TYPE_CHECKING:
    from voevoda.rulesets.new_worlds.orders import Lexicon

# The modules of posts, turns, reports, maps and the computer player are imported where they are
# used: `voevoda status` needs none of them, and importing them cost it a twentieth of its time.

RESERVED = {"public", "gm"}
# «очко» agreed without the morphology dictionary: the prompts are what `voevoda status`
# prints, and loading the dictionary costs that command a tenth of a second.
POINT_FORMS = ("очко", "очка", "очков")
REASONS = {
    "invaders": ("победили эвентовые страны", "the event countries won"),
    "turns": ("больше всех земель к последнему ходу", "held the most land at the last turn"),
    "gm": ("решение ведущего", "the game master's decision"),
    "no_countries": ("не осталось ни одной страны", "no country is left"),
}


class NewWorlds(Ruleset):
    id = "new-worlds"
    version = "1.0"
    title_ru = "Новые Миры: Искусство Войны"
    title_en = "New Worlds: The Art of War"
    min_players = 1
    max_players = 12

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        self.rules: Rules = load_rules(self.house_rules)
        self.options: Options = load_options(self.config, self.rules)
        self._worlds: list[tuple[Mapping[str, Any], World]] = []
        self._plans: list[tuple[World, object, Plan]] = []

    @cached_property
    def map_file(self) -> MapFile:
        data = load_map(self.options.map_name, self.options.map)
        check_map(data, self.rules.resources, self.rules.epoch_ids, self._open_at_start(data))
        return data

    def _open_at_start(self, data: MapFile) -> list[str]:
        """The regions open in the starting epoch («ожидайте открытия новых частей карты»)."""
        start_index = self.rules.epoch_index(self.rules.epoch(self.options.start_epoch).id)
        return sorted(rid for rid, info in data.regions_info.items()
                      if info.opens_at is not None and self.rules.epoch_index(info.opens_at) <= start_index)

    # -- the typed state -------------------------------------------------------------------------------

    def world(self, state: Mapping[str, Any], *, fresh: bool = False) -> World:
        """The typed state with its geometry, checked. The engine hands the same state object to
        parse, validate, awaiting and view many times between two changes, and never changes a
        state in place (a resolution or an edit makes a new one): the last few worlds are kept by
        the identity of their state (``fresh`` for one of one's own to change)."""
        if not fresh:
            for known, world in self._worlds:
                if known is state:
                    return world
        typed = load_state(state, self.rules)
        world = World(self.rules, self.options, typed, grid_from_state(typed.map.model_dump()), frozen=not fresh)
        if not fresh:
            self._worlds = [*self._worlds[-3:], (state, world)]
        return world

    # -- setup -------------------------------------------------------------------------------------------

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        names = list(players)
        data = self.map_file
        if len(names) > len(data.starts):
            raise GameError(f"на карте «{data.name}» {len(data.starts)} стартовых мест, игроков {len(names)}",
                            f"the map '{data.name}' has {len(data.starts)} starts for {len(names)} players")
        if len({n.casefold() for n in names}) != len(names):
            raise GameError("имена игроков повторяются", "player names repeat")
        for n in names:
            # a name is written in orders («война Борис …»): the separators of the grammar are not allowed in it
            if (not n.strip() or n.casefold() in RESERVED or any(ch in n for ch in "/,;:") or n != n.strip()
                    or len(n) > 60):
                raise GameError(f"имя «{n}» занято или недопустимо (нельзя / , ; :)",
                                f"the name '{n}' is reserved or not allowed (no / , ; :)")
        unknown = sorted(set(self.options.countries) - set(names))
        if unknown:
            raise GameError(f"в настройках стран есть не игроки: {', '.join(unknown)}",
                            f"the config's countries name non-players: {', '.join(unknown)}")
        epoch = self.rules.epoch(self.options.start_epoch)
        start_index = self.rules.epoch_index(epoch.id)
        open_regions = self._open_at_start(data)
        map_state = MapState(
            name=data.name, title_ru=data.title_ru, title_en=data.title_en, width=len(data.terrain[0]),
            height=len(data.terrain), terrain=list(data.terrain),
            continents=list(data.continents) if data.continents else None,
            continent_names={k: v.model_dump() for k, v in data.continent_names.items()},
            regions=list(data.regions) if data.regions else None,
            regions_info={k: v.model_dump() for k, v in data.regions_info.items()}, open_regions=open_regions,
            starts=[s.tile for s in data.starts], event_places=data.events.model_dump())
        # built in parts, checked whole at the end (load_state below)
        state = NWState.model_construct(turn=1, epoch=epoch.id, epoch_since=1, seats=names, map=map_state,
                                        countries={}, deposits=dict(sorted(data.resources.items())), tiles={},
                                        wars=[], treaties=[], deals=[], offers=[], events=EventsState(), next_id=1,
                                        outcome=None, ruleset="new-worlds", phase="orders")
        for tile, name in data.names.items():
            state.tile(tile).name = name
        world = World(self.rules, self.options, state, grid_from_state(map_state.model_dump()))
        colors = self.rules.colors.players
        used_starts: set[str] = set()
        for seat, player in enumerate(names):
            setup = self.options.countries.get(player)
            start = (setup.start if setup and setup.start else None) or next(
                s.tile for s in data.starts if s.tile not in used_starts)
            if not world.grid.contains(start) or not world.grid.is_land(start):
                raise GameError(f"старт «{start}» игрока {player} — не суша на карте",
                                f"the start '{start}' of {player} is not land on the map")
            used_starts.add(start)
            country = Country(id=player, name=(setup.name if setup and setup.name else player), kind="player",
                              player=player, color=(setup.color if setup and setup.color else colors[seat % len(colors)]),
                              religion=setup.religion if setup else None, created=1, war_points=epoch.war_points)
            state.countries[player] = country
            tiles = world.grid.grow(start, epoch.start_territories, free_land(world) | {start})
            place_country(world, country, tiles)
        evs = state.events
        for key in ("sea_peoples", "khaganate", "agrarian_revolution"):
            spec = getattr(self.rules.events, key)
            after = self.rules.epoch_index(spec.after_epoch)
            sub = getattr(evs, key)
            if after < start_index:
                sub.status = "over"
            elif after == start_index:
                sub.starts = 1 + spec.delay
        for custom in self.rules.events.custom:
            due = custom.turn
            if custom.after_epoch is not None and self.rules.epoch_index(custom.after_epoch) <= start_index:
                due = 1 + custom.delay
            evs.scheduled.append(ScheduledEvent(event=custom.model_dump(mode="json"), due=due))
        for c in state.countries.values():
            c.war_points = epoch.war_points + (self.rules.religions[c.religion].base.war_points_per_epoch
                                               if c.religion else 0)
            c.roll = roll_country(world, c, dice, 1)
            c.points = c.roll.total
        raw = dump_state(state)
        load_state(raw, self.rules)
        return raw

    # -- posts ---------------------------------------------------------------------------------------------

    def lexicon(self, world: World) -> Lexicon:
        from voevoda.rulesets.new_worlds.orders import Lexicon

        state = world.state
        countries = {cid: c.name for cid, c in state.countries.items()}
        for cid, c in state.countries.items():
            if c.name_en:
                countries.setdefault(c.name_en, cid)
        tile_names = {t: v.name for t, v in state.tiles.items() if v.name and world.tile_open(t)}
        return Lexicon.build(self.rules, countries, world.grid.tiles, tile_names)

    def post_options(self) -> posts.PostOptions:
        """«Указывайте бонус и действия жирным, иначе они не учитываются.»"""
        return posts.PostOptions(bold_only=True)

    def begins_order(self, line: str, player: str, state: State) -> bool:
        from voevoda.rulesets.new_worlds.orders import begins_order

        return begins_order(line)

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        from voevoda.rulesets.new_worlds.orders import read_lines

        post = self.read_post(text, player, state)
        world = self.world(state)
        orders, problems = read_lines(post.orders, self.lexicon(world))
        if player in world.state.countries:
            orders = self.annotate(world, player, orders)
        if problems:
            raise ParseError(problems, [self.describe(o) for o in orders], orders=orders)
        return orders

    def settle(self, state: State, player: str, orders: Sequence[Order]) -> list[Order]:
        """Each order's price and the points left, again over the orders that stand: without a
        refused line, and with the standing post's orders before a follow-up's (issue 30)."""
        world = self.world(state)
        return self.annotate(world, player, orders) if player in world.state.countries else list(orders)

    def _plan(self, world: World, player: str, orders: Sequence[Order]) -> Plan:
        """The planner's walk of a post, kept for the few worlds in hand: the engine reads a
        post (the echo) and then checks it against the same state, and that is one walk."""
        key = (player, tuple((o.kind, json.dumps({k: v for k, v in o.args.items() if k != "echo"}, sort_keys=True,
                                                 ensure_ascii=False), o.line, o.text) for o in orders))
        for known_world, known, plan in self._plans:
            if known_world is world and known == key:
                return plan
        plan = Planner(world, player).plan([Order(o.kind, {k: v for k, v in o.args.items() if k != "echo"},
                                                  o.line, o.text) for o in orders])
        if world.frozen:
            self._plans = [*self._plans[-7:], (world, key, plan)]
        return plan

    def annotate(self, world: World, player: str, orders: Sequence[Order]) -> list[Order]:
        """Each order with its echo: price, war price, points left, or the rule it breaks."""
        plan = self._plan(world, player, orders)
        out = []
        for item in plan.items:
            echo: dict[str, Any] = {"price": item.price, "war_price": item.war_price, "left": item.left,
                                    "war_left": item.war_left}
            if item.problems:
                echo = {"problem": item.problems[0][0]}
            if "ledger" in item.info:
                echo["ledger"] = item.info["ledger"]
            if not item.problems:
                for key in ("unless_war", "standing", "voyages"):
                    if key in item.info:
                        echo[key] = item.info[key]
            args = {k: v for k, v in item.order.args.items() if k != "echo"}
            args["echo"] = echo
            out.append(Order(item.order.kind, args, item.order.line, item.order.text))
        return out

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """What an accepted post leaves out that the rules expect: a religion still unchosen,
        the Khagan's question unanswered, a bonus that does not match the ledger (R41)."""
        world = self.world(state)
        me = world.state.countries.get(player)
        if me is None:
            return []
        kinds = {o.kind for o in orders}
        out: list[Problem] = []
        if me.alive and me.religion is None and "religion" not in kinds:
            out.append(warning("религия не выбрана: «религия политеизм|дуализм|монотеизм»",
                               "no religion chosen: 'religion polytheism|dualism|monotheism'",
                               rule="000 «V. Религия, 1»"))
        if me.choice == "khagan" and not kinds & {"tributary", "refuse"}:
            out.append(warning("Каган ждёт ответа («данник» или «гибель»); без ответа вы станете данником",
                               "the Khagan awaits an answer ('tributary' or 'refuse'); without one you become a tributary",
                               rule="000 «Эвенты, 3»"))
        for o in orders:
            echo = o.args.get("echo") or {}
            if o.kind == "bonus" and echo.get("ledger") is not None and echo["ledger"] != o.args.get("amount"):
                out.append(warning(f"заявлен бонус {int(o.args['amount']):+d}, по расчёту +{echo['ledger']}",
                                   f"a bonus of {int(o.args['amount']):+d} is claimed; the ledger says +{echo['ledger']}",
                                   line=o.line or None, order=o.text, rule="000 «II. Механика, 3»"))
        return out

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        if state.get("outcome") is not None:
            return [illegal("игра окончена", "the game is over")]
        world = self.world(state)
        if player not in world.state.countries:
            return [invalid(f"«{player}» не играет в этой партии", f"'{player}' does not play in this game")]
        plan = self._plan(world, player, orders)
        problems: list[Problem] = []
        for item in plan.items:
            for ru, en, rule in item.problems:
                problems.append(illegal(ru, en, line=item.order.line or None, column=1 if item.order.line else None,
                                        order=item.order.text or item.order.kind, rule=rule))
        return problems

    # -- the turn ------------------------------------------------------------------------------------------

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        if state.get("outcome") is not None:
            raise GameError("игра уже окончена", "the game is already over")
        world = self.world(state, fresh=True)
        clean = {p: [Order(o.kind, {k: v for k, v in o.args.items() if k != "echo"}, o.line, o.text)
                     for o in given] for p, given in orders.items()}
        from voevoda.rulesets.new_worlds.turn import Turn

        events = Turn(world, clean, dice).run()
        return Resolution(dump_state(world.state), events)

    def awaiting(self, state: State) -> dict[str, Prompt]:
        """Every living player; a player whose country is gone while he may still re-create it.
        Works on the state and on any viewer's view alike (the core asks it of views)."""
        if state.get("outcome") is not None:
            return {}
        has_free = bool(state["free_land"]) if "free_land" in state else bool(free_land(self.world(state)))
        turn = int(state["turn"])
        epoch = self.rules.epoch(str(state["epoch"]))
        prompts: dict[str, Prompt] = {}
        for player in state["seats"]:
            c = state["countries"][player]
            if not c["alive"]:
                if (not c["recreated"] or c["may_restart"]) and has_free:
                    prompts[player] = Prompt("recreate", f"Ход {turn}: у вашей страны нет земель — пересоздайтесь: "
                                             "«пересоздание КЛЕТКА [имя]».",
                                             f"Turn {turn}: your country has no land — re-create it: "
                                             "'recreate TILE [name]'.")
                continue
            points, war_points = int(c["points"]), int(c["war_points"])
            ru = f"Ход {turn} ({epoch.name_ru}): {counted(points, 'очко', forms=POINT_FORMS)}, {war_points} ВО."
            en = f"Turn {turn} ({epoch.name_en}): {counted(points, 'point', 'en')}, {war_points} WP."
            if c.get("religion") is None:
                ru += " Выберите религию: «религия политеизм|дуализм|монотеизм»."
                en += " Choose a religion: 'religion polytheism|dualism|monotheism'."
            if c.get("choice") == "khagan":
                ru += " Каган ждёт ответа: «данник» или «гибель»."
                en += " The Khagan awaits your answer: 'tributary' or 'refuse'."
            reform = c.get("reform")
            if reform is not None and reform.get("status") == "civil_war":
                ru += " Идёт Реформация: «реформа улучшить» или «реформа РЕЛИГИЯ»."
                en += " Your Reformation is on: 'reform upgrade' or 'reform RELIGION'."
            prompts[player] = Prompt("orders", ru, en)
        return prompts

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        world = self.world(state)
        if viewer not in (GM, PUBLIC) and viewer not in world.state.countries:
            viewer = PUBLIC
        from voevoda.rulesets.new_worlds import views

        return views.view(world, viewer)

    def summary(self, view: Mapping[str, Any], viewer: Viewer) -> str:
        """``voevoda show``: the viewer's own country first, then the countries, wars, treaties,
        deals, events and the map (:mod:`voevoda.rulesets.new_worlds.summary`)."""
        from voevoda.rulesets.new_worlds.summary import summary

        return summary(view, viewer, self.rules)

    def outcome(self, state: State) -> Outcome | None:
        raw = state.get("outcome")
        if raw is None:
            return None
        ru, en = REASONS.get(str(raw.get("reason")), REASONS["gm"])
        return Outcome(tuple(raw.get("winners", [])), ru, en, dict(raw.get("scores", {})))

    def progress(self, state: State) -> tuple[int, str]:
        return int(state.get("turn", 0)), f"orders/{state.get('epoch', '')}"

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """``orders/EPOCH`` as «приказы, Древний мир»: every turn is one post of orders, in an epoch."""
        kind, _, epoch = phase.partition("/")
        try:
            era = self.rules.epoch(epoch).name(lang)
        except KeyError:
            era = epoch
        head = ("приказы" if lang == "ru" else "orders") if kind == "orders" else kind
        return f"{head}, {era}" if era else head

    # -- extras --------------------------------------------------------------------------------------------

    def describe(self, order: Order, lang: str = "ru") -> str:
        from voevoda.rulesets.new_worlds import report

        return report.describe(order, self.rules, lang)

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        from voevoda.rulesets.new_worlds.bot import write_post

        return write_post(view, player, stream, self)

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        from voevoda.rulesets.new_worlds import report

        return report.document(view, events, viewer, self.rules, lang, turn)

    def map_svg(self, view: Mapping[str, Any], viewer: Viewer, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        from voevoda.rulesets.new_worlds import svgmap

        return svgmap.render(view, self.rules, lang, events)

    def config_keys(self) -> frozenset[str]:
        return frozenset(Options.model_fields)

    def public_config(self) -> dict[str, Any]:
        """A map given in the config may hold closed regions and deposits of epochs to come:
        the public export names the map, never carries it."""
        public = copy.deepcopy(self.config)
        if "map" in public:
            public["map"] = {"name": str((public.get("map") or {}).get("name", "custom"))}
        return public

    state_model = NWState

    def state_invariants(self, state: State) -> list[StateProblem]:
        typed = NWState.model_validate(state)
        out = []
        for text in state_problems(typed) + check_state(typed, self.rules):
            pointer, _, message = text.partition(": ")
            out.append(StateProblem(pointer, f"нарушено правило состояния: {message}", message))
        return out

    def hidden_parts(self) -> HiddenParts:
        """What each viewer may not see (docs/engine.md), for the non-interference test."""
        from voevoda.rulesets.new_worlds.hidden import NewWorldsHidden

        return NewWorldsHidden()

    def hidden_markers(self, state: State, viewer: Viewer) -> list[str]:
        from voevoda.rulesets.new_worlds import views

        return views.hidden_markers(self.world(state), viewer, self.rules)

    def demo_script(self, players: Sequence[str]) -> list[dict[str, str]]:
        return []

    def custom_event(self, raw: Mapping[str, Any]) -> CustomEvent:
        """A game master's event checked as data (for tools that add one by an edit)."""
        return CustomEvent.model_validate(raw)
