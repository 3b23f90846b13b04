"""Война Стальной Розы, the campaign (``steel-rose``): five asymmetric factions on the core engine.

Config (every key optional)::

    {"factions": {"Алиса": "empire", "Борис": "void_cult"},   # seats; default: the document's order
     "map": "default",                                        # a shipped map, or a whole map table
     "victory_cities": "held", "midnight_tie": "all", ...}    # the named options of the rulings

House rules: ``campaign``, ``buildings`` and ``map`` tables (campaign/data/*.toml), and the
battle's ``units``, ``factions``, ``battle``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import DataError, GameError, ParseError, Problem, illegal, warning
from voevoda.core.hidden import HiddenParts
from voevoda.core.markup import Document
from voevoda.core.ruleset import Event, Order, Outcome, Prompt, Resolution, Ruleset, State, StateProblem
from voevoda.core.words import join_and
from voevoda.rulesets.steel_rose.battle.model import SquadInput
from voevoda.rulesets.steel_rose.battle.posts import parse_deployment, parse_plan
from voevoda.rulesets.steel_rose.battle.sides import check_army
from voevoda.rulesets.steel_rose.campaign import battles as bat
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign import turn as trn
from voevoda.rulesets.steel_rose.campaign import views
from voevoda.rulesets.steel_rose.campaign.context import Ctx, Options
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, Campaign, load_campaign
from voevoda.rulesets.steel_rose.campaign.orders import (
    CHOICE_EN,
    CHOICE_RU,
    MOBILE_ID,
    PostReader,
    Vocabulary,
    begins_battle_line,
    begins_capture,
    begins_turn_order,
)
from voevoda.rulesets.steel_rose.campaign.state import CampaignState, City, Faction, dump_state, load_state


class SteelRoseCampaign(Ruleset):
    id: ClassVar[str] = "steel-rose"
    version: ClassVar[str] = "1.1"
    """1.1 (issue 29): the Principality's starting powder (C2), the cult's camps (C53)."""
    title_ru: ClassVar[str] = "Война Стальной Розы (кампания)"
    title_en: ClassVar[str] = "War of the Steel Rose (campaign)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    state_model: ClassVar[type[BaseModel] | None] = CampaignState
    """The state as Pydantic models; their validators hold the invariants (campaign/state.py)."""

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(config, house_rules)
        try:
            self.campaign: Campaign = load_campaign(self.house_rules, self.config.get("map"))
        except DataError as exc:
            raise GameError(f"правила кампании не загружаются: {exc}", f"the campaign's rules do not load: {exc}") from exc
        self.options = Options.from_config({k: v for k, v in self.config.items() if k not in ("factions", "map")})
        self.vocab = Vocabulary(self.campaign)
        self.reader = PostReader(self.vocab)

    # -- helpers ----------------------------------------------------------------------------

    def ctx(self, state: CampaignState, dice: Dice | None = None, checking: bool = False) -> Ctx:
        return Ctx(self.campaign, self.options, state, dice, checking)

    def _fid(self, state: CampaignState, player: str) -> str:
        fid = state.seats.get(player)
        if fid is None:
            raise GameError(f"{player} не играет ни за одну фракцию", f"{player} plays no faction")
        return fid

    # -- the contract -------------------------------------------------------------------------

    def config_keys(self) -> frozenset[str]:
        return frozenset({"factions", "map", *Options.keys()})

    def recorded_config(self) -> dict[str, Any]:
        """The config with ``bot_odds_battles``, ``start_powder`` and ``plunder_income`` as in
        effect: a game keeps the number of battles its bots weigh an attack on (ruling C52) and the
        readings of C2 and C16 it was created with when the installed defaults change."""
        return {**super().recorded_config(), "bot_odds_battles": self.options.bot_odds_battles,
                "start_powder": self.options.start_powder, "plunder_income": self.options.plunder_income}

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        seats = self._seats(players)
        factions: dict[str, Faction] = {}
        start = self.campaign.model.start
        void = self.campaign.model.void
        for fid in FACTIONS:
            player = next((p for p, f in seats.items() if f == fid), None)
            factions[fid] = Faction(id=fid, player=player, status="playing" if player else "idle",
                                    gold=start.gold.get(fid, 0), resource=start.resource.get(fid, 0),
                                    hunger_max=void.max, rituals_per_turn=void.rituals_per_turn)
        cities: dict[str, City] = {}
        for cid, c in self.campaign.map.cities.items():
            cities[cid] = City(id=cid, kind=c.kind, level=c.level, owner=c.owner or None, ruins=c.ruins)
        mobile = self.campaign.map.mobile
        if mobile is not None:
            a, b = mobile.road
            cities[MOBILE_ID] = City(id=MOBILE_ID, kind="mobile", owner=mobile.faction,
                                     level=min(self.campaign.epoch(1).max_level, self.campaign.economy.max_level),
                                     road=sorted([a, b]))
        state = CampaignState(turn=1, phase="orders", players=list(players), seats=seats,
                              factions=factions, cities=cities)
        for fid, f in state.factions.items():
            if f.status != "playing":
                continue
            if eco.count_cities(state, fid) == 0 and fid != "void_cult":
                raise GameError(f"на карте у фракции «{self.campaign.faction(fid).name_ru}» нет городов",
                                f"the map gives faction '{fid}' no city")
            # ruling C2: the first turn's income is paid before the first turn
            f.gold += sum(eco.city_income(self.campaign, c, defended=False, turn=-1).total for c in state.cities_of(fid))
            f.resource += sum(a for _s, a in eco.resource_per_turn(self.campaign, state, fid))
            if fid == "steel_rose" and self.options.start_powder:
                # ruling C2: «Обладает превосходной обороной» from the first turn: the powder its
                # garrisons spend in one battle each with a volley
                f.resource += eco.garrison_powder(self.campaign, state.cities_of(fid))
            f.snapshot = {"turn": 0, "gold": f.gold, "resource": f.resource, "units": {}}
        return dump_state(state)

    def _seats(self, players: Sequence[str]) -> dict[str, str]:
        wanted = self.config.get("factions")
        if wanted is None:
            return {p: FACTIONS[i] for i, p in enumerate(players)}
        if not isinstance(wanted, Mapping):
            raise GameError("настройка factions: таблица «игрок = фракция»", "option factions: a table 'player = faction'")
        seats: dict[str, str] = {}
        for player in players:
            fid = wanted.get(player)
            if fid not in FACTIONS:
                raise GameError(f"factions: у игрока {player} нет фракции (одна из {', '.join(FACTIONS)})",
                                f"factions: player {player} needs a faction (one of {', '.join(FACTIONS)})")
            if fid in seats.values():
                raise GameError(f"factions: «{fid}» дана двум игрокам", f"factions: '{fid}' is given to two players")
            seats[player] = str(fid)
        extra = set(wanted) - set(players)
        if extra:
            raise GameError(f"factions: нет игроков {', '.join(sorted(extra))}", f"factions: no players {', '.join(sorted(extra))}")
        return seats

    def begins_order(self, line: str, player: str, state: State) -> bool:
        """Order lines by the step: the turn's orders (keywords, the city list, a garrison's
        deployment), a battle's deployment or plan lines under «Битва за <город>:», or capture
        choices; the rest of a post is prose, echoed as not read (docs/posts.md)."""
        phase = state.get("phase")
        if phase == "orders":
            return begins_turn_order(line, self.vocab.cities, self.vocab.units)
        if phase in ("deployment", "planning"):
            return begins_battle_line(line, phase == "planning")
        if phase == "capture":
            return begins_capture(line)
        return False

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        st = load_state(state)
        fid = self._fid(st, player)
        if st.phase == "orders":
            reading = self.reader.orders(text, fid)
            self._implied(st, fid, reading.orders)
            if reading.problems:
                raise ParseError(reading.problems, [self.describe(o) for o in reading.orders], orders=reading.orders)
            return reading.orders
        if st.phase in ("deployment", "planning"):
            return self._parse_battle_post(st, fid, text)
        if st.phase == "capture":
            cities = [c.city for c in st.captures if c.faction == fid and not c.done]
            reading = self.reader.captures(text, cities)
            for order in reading.orders:
                city = str(order.args["city"])
                if city not in cities:
                    reading.problems.append(illegal("у вас нет захвата этого города", "you have no capture of this city",
                                                    order.line, None, order.text))
                elif order.args["choice"] not in bat.choices_for(fid):
                    allowed = ", ".join(CHOICE_RU[c] for c in bat.choices_for(fid))
                    allowed_en = ", ".join(CHOICE_EN[c] for c in bat.choices_for(fid))
                    reading.problems.append(illegal(f"вашей фракции доступно: {allowed}", f"your faction may: {allowed_en}",
                                                    order.line, None, order.text))
            if reading.problems:
                raise ParseError(reading.problems, [self.describe(o) for o in reading.orders], orders=reading.orders)
            return reading.orders
        raise GameError("игра окончена", "the game is over")

    def _implied(self, st: CampaignState, fid: str, orders: list[Order]) -> None:
        """What each city of the document's list will change, written into its order for the echo
        (ruling C18: «The echo says exactly what will be done»): the level raise and its price, the
        buildings built, and those present and not listed, sold at half price. Resolution works
        the changes out again from the state (:func:`~.actions.expand_template`)."""
        for i, order in enumerate(orders):
            city = st.cities.get(str(order.args.get("city", "")))
            if city is None or city.owner != fid or city.ruins:
                continue
            implied: dict[str, Any] = {}
            if order.kind == "template":
                level = int(order.args["level"])
                if level > city.level:
                    probe = city.model_copy()
                    cost = 0
                    while probe.level < level:
                        cost += eco.raise_cost(self.campaign, probe)
                        probe.level += 1
                    implied = {"raise_from": city.level, "raise_cost": cost}
            elif order.kind == "template_buildings":
                listed = [str(b) for b in order.args["buildings"]]
                table = self.campaign.buildings.of(fid)
                implied = {"sell": [{"building": b, "gold": eco.sale_price(self.campaign, table[b]).gold}
                                    for b in city.buildings if b not in listed and b in table],
                           "build": [{"building": b, "gold": table[b].gold} for b in listed
                                     if b not in city.buildings and b in table]}
            if implied:
                orders[i] = Order(order.kind, {**order.args, **implied}, order.line, order.text)

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """A building the city list leaves out is sold (ruling C18): said before the step, so that
        a player who only forgot to write it can post again."""
        out: list[Problem] = []
        if state.get("phase") != "orders":
            return out
        for order in orders:
            if order.kind != "template_buildings" or not order.args.get("sell"):
                continue
            cid = str(order.args["city"])
            fid = state["seats"].get(player)
            ru, en = self._city_names([cid])
            sold_ru = ", ".join(f"{self.campaign.building(str(fid), s['building']).name_ru} (+{s['gold']}з)"
                                for s in order.args["sell"])
            sold_en = ", ".join(f"{self.campaign.building(str(fid), s['building']).name_en} (+{s['gold']} gold)"
                                for s in order.args["sell"])
            out.append(warning(f"{ru[0]}: постройки, которых нет в списке, продаются за полцены: {sold_ru}; "
                               "если это не так, впишите их в список",
                               f"{en[0]}: the buildings left out of the list are sold at half price: {sold_en}; "
                               "if that is not meant, add them to the list",
                               order.line, None, order.text, "Экономика"))
        return out

    def _parse_battle_post(self, st: CampaignState, fid: str, text: str) -> list[Order]:
        ctx = self.ctx(st)
        mine = trn.pending_battles_of(ctx, fid)
        if not mine:
            raise GameError("у вас нет битв в этом ходу", "you have no battle this turn")
        fought: list[tuple[str, str, str, str]] = []  # (battle, role, city, enemy)
        for bid, role in mine:
            battle = next(b for b in st.battles if b.id == bid)
            enemy = battle.defender.faction if role == "attacker" else battle.attacker.faction
            fought.append((bid, role, battle.city, str(enemy)))
        blocks, problems = self.reader.battle_blocks(text, [(c, e) for _b, _r, c, e in fought],
                                                     planning=st.phase == "planning")
        orders: list[Order] = []
        for bid, role, city, enemy in fought:
            # «Битва за Морвен (Империя):» for this battle, else «Битва за Морвен:» for every battle there
            block = blocks.get((city, enemy), blocks.get((city, None)))
            if block is None:
                continue
            battle = next(b for b in st.battles if b.id == bid)
            line = next((i for i, text in enumerate(block.split("\n"), 1) if text.strip()), 0)
            if st.phase == "deployment":
                dep = parse_deployment(block, self.campaign.rules, self.vocab.units)
                units = bat.available(ctx, battle, role)
                problems.extend(dep.problems)
                problems.extend(check_army(dep.squads, units, self.campaign.rules))
                if not dep.squads and not dep.problems:
                    continue
                orders.append(Order("deploy", {"battle": bid, "squads": [s.to_json() for s in dep.squads],
                                               "gunpowder": dep.gunpowder,
                                               "powder": [p.to_json() for p in dep.powder]}, line))
            else:
                own_side = getattr(battle, role)
                enemy_side = getattr(battle, "defender" if role == "attacker" else "attacker")
                own = [SquadInput.from_json(s) for s in own_side.deployment or []]
                theirs = [SquadInput.from_json(s) for s in enemy_side.deployment or []]
                plan = parse_plan(block, self.campaign.rules, own, theirs)
                problems.extend(plan.problems)
                orders.append(Order("plan", {"battle": bid, "manoeuvres": [m.to_json() for m in plan.manoeuvres],
                                             "skip": plan.skip}, line))
        if problems:
            unique = list(dict.fromkeys(problems))  # a block for several battles is read for each
            raise ParseError(unique, [self.describe(o) for o in orders], orders=orders)
        return sorted(orders, key=lambda o: o.line)  # echoed in the post's order

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        st = load_state(state)
        if st.phase != "orders":
            return []
        fid = self._fid(st, player)
        probe = st.model_copy(deep=True)
        ctx = self.ctx(probe, checking=True)
        trn.start_of_turn(ctx)
        trn.check_post(ctx, fid, orders)
        return ctx.problems

    def default_orders(self, state: State, player: str) -> list[Order]:
        """A silent faction does nothing in its economy and disperses its armies; in a battle it
        stands as the document says and makes no manoeuvre; a capture takes the default choice."""
        return []

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        st = load_state(state)
        ctx = self.ctx(st, dice)
        if st.phase == "orders":
            trn.resolve_orders(ctx, orders)
        elif st.phase == "deployment":
            trn.resolve_deployments(ctx, orders)
        elif st.phase == "planning":
            trn.resolve_plans(ctx, orders)
        elif st.phase == "capture":
            trn.resolve_captures(ctx, orders)
        else:
            raise GameError("игра окончена", "the game is over")
        return Resolution(dump_state(ctx.state), ctx.events)

    def _public(self, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """The public part of a state or of a view: ``awaiting``, ``outcome`` and the status line
        are asked of views too (core/outputs.py), and answer from what everyone may see."""
        if "viewer" in data:
            return data
        return views.public_view(self.campaign, load_state(data))

    def _city_names(self, cids: Sequence[str]) -> tuple[list[str], list[str]]:
        mobile = self.campaign.map.mobile
        ru = [self.campaign.map.cities[c].name_ru if c in self.campaign.map.cities
              else (mobile.name_ru if mobile else c) for c in cids]
        en = [self.campaign.map.cities[c].name_en if c in self.campaign.map.cities
              else (mobile.name_en if mobile else c) for c in cids]
        return ru, en

    def awaiting(self, state: State) -> dict[str, Prompt]:
        """Every faction at play gives the turn's orders; then only the two sides of each battle
        post its deployment and its plan; then only a faction that took a city without saying what
        to do with it chooses (all of it public: who fights where is on the map)."""
        pub = self._public(state)
        out: dict[str, Prompt] = {}
        turn = int(pub["turn"])
        epoch = self.campaign.epoch(turn)
        phase = pub["phase"]
        factions = pub["factions"]
        if phase == "orders":
            for f in factions.values():
                if f["status"] == "playing" and f["player"]:
                    out[f["player"]] = Prompt(
                        "orders", f"Ход {turn} ({epoch.name_ru}): приказы фракции — экономика, армии, "
                        "заклинания и ритуалы", f"Turn {turn} ({epoch.name_en}): your faction's orders — "
                        "economy, armies, spells and rituals")
        elif phase in ("deployment", "planning"):
            for fid, f in factions.items():
                if not f["player"]:
                    continue
                cids = [b["city"] for b in pub["battles"] if b["status"] == "pending"
                        and fid in (b["attacker"], b["defender"])]
                if not cids:
                    continue
                ru, en = self._city_names(list(dict.fromkeys(cids)))
                several = len(ru) > 1
                from voevoda.rulesets.steel_rose.campaign.report import city_accusative

                for_ru = ("битв за " if several else "битвы за ") + join_and([city_accusative(c) for c in ru])
                for_en = ("the battles for " if several else "the battle for ") + join_and(en, "en")
                if phase == "deployment":
                    out[f["player"]] = Prompt("deployment", "Расстановка для " + for_ru, "Deployment for " + for_en,
                                              tuple(en))
                else:
                    out[f["player"]] = Prompt("planning", "Планирование " + for_ru, "Plans for " + for_en, tuple(en))
        elif phase == "capture":
            taken: dict[str, list[str]] = {}
            for cap in pub["captures"]:
                if not cap["done"] and factions[cap["faction"]]["player"]:
                    taken.setdefault(cap["faction"], []).append(cap["city"])
            for fid, cids in taken.items():
                ru, en = self._city_names(cids)
                choices = bat.choices_for(fid)
                what_ru = join_and([CHOICE_RU[c] for c in choices], "ru", "или")
                what_en = join_and([CHOICE_EN[c] for c in choices], "en", "or")
                head_ru = f"Захвачен город {ru[0]}" if len(ru) == 1 else "Захвачены города " + join_and(ru)
                head_en = f"{en[0]} is taken" if len(en) == 1 else join_and(en, "en") + " are taken; for each"
                out[factions[fid]["player"]] = Prompt("capture", f"{head_ru}: {what_ru}?", f"{head_en}: {what_en}?",
                                                      tuple(CHOICE_EN[c] for c in choices))
        return out

    def state_invariants(self, state: State) -> list[StateProblem]:
        """What the schema cannot know without the rules: the cities are the map's, every one of
        them; a city's buildings are its owner's
        («Для каждой фракции свои постройки»; they go when the city changes hands) and no ruin
        or ownerless city has any; armies and factions count only units the rules know; every city
        of the map stays in the state (a ruin is a city with no owner, not a missing one)."""
        problems: list[StateProblem] = []
        units = self.campaign.rules.units
        known = set(self.campaign.map.cities) | ({MOBILE_ID} if self.campaign.map.mobile is not None else set())
        for cid in sorted(known - set(state["cities"])):
            problems.append(StateProblem(f"/cities/{cid}", f"нет города карты «{cid}»", f"the map's city '{cid}' is missing"))
        for cid in sorted(set(state["cities"]) - known):
            problems.append(StateProblem(f"/cities/{cid}", f"на карте нет города «{cid}»", f"no city '{cid}' on the map"))
        for cid, city in state["cities"].items():
            owned = self.campaign.buildings.of(city["owner"]) if city.get("owner") else {}
            for index, bid in enumerate(city["buildings"]):
                if bid not in owned:
                    problems.append(StateProblem(f"/cities/{cid}/buildings/{index}",
                                                 f"у владельца города нет постройки «{bid}»",
                                                 f"the city's owner has no building '{bid}'"))
        counted = [(f"/armies/{i}/units", army["units"]) for i, army in enumerate(state["armies"])]
        counted += [(f"/factions/{fid}/units", f["units"]) for fid, f in state["factions"].items()]
        for where, counts in counted:
            for uid in counts:
                if uid not in units:
                    problems.append(StateProblem(f"{where}/{uid}", f"нет юнита «{uid}»", f"no unit '{uid}'"))
        return problems

    def rerun(self, computation: str, label: str, data: Mapping[str, Any], dice: Dice) -> Any:
        """«battle»: a battle of the turn fought again from the sides its event records, on the
        step's sealed streams under its label, with what the report tells of the defender's
        survivors (the garrison the event records): the event's ``result`` (docs/dice.md §5)."""
        if computation != "battle":
            raise KeyError(computation)
        from voevoda.rulesets.steel_rose.battle.engine import fight
        from voevoda.rulesets.steel_rose.battle.sides import battle_inputs
        from voevoda.rulesets.steel_rose.campaign.context import SealedDice

        sides = battle_inputs(data.get("sides"), self.campaign.rules)
        garrison = data.get("garrison")
        if not isinstance(garrison, Mapping) or not all(isinstance(n, int) for n in garrison.values()):
            raise ValueError("garrison: expected the defending garrison's units")
        result = fight(self.campaign.rules, sides, SealedDice(dice), label, self.options.battle).to_json()
        bat.defenders_back(result["summary"], bat.placed_units(sides[1]), garrison, self.options.garrison_dies_first)
        return result

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        return views.view(self.campaign, load_state(state), viewer, self.options)

    def hidden_parts(self) -> HiddenParts:
        """What each viewer may not see, for the non-interference test (campaign/hidden.py)."""
        from voevoda.rulesets.steel_rose.campaign.hidden import SteelRoseCampaignHidden

        return SteelRoseCampaignHidden(self.campaign)

    def hidden_markers(self, state: State, viewer: str) -> list[str]:
        return views.hidden_markers(self.campaign, load_state(state), viewer)

    def outcome(self, state: State) -> Outcome | None:
        if state.get("phase") != "over":
            return None
        pub = self._public(state)
        factions = pub["factions"]
        winners = tuple(factions[f]["player"] for f in pub["winners"] if factions[f]["player"])
        names_ru = ", ".join(self.campaign.faction(f).name_ru for f in pub["winners"]) or "никто"
        names_en = ", ".join(self.campaign.faction(f).name_en for f in pub["winners"]) or "nobody"
        scores = {f["player"]: float(f["cities"]) for f in factions.values() if f["player"]}
        return Outcome(winners, f"Победители: {names_ru}", f"Winners: {names_en}", scores)

    def progress(self, state: State) -> tuple[int, str]:
        return int(state.get("turn", 1)), str(state.get("phase", ""))

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """«приказы», «расстановка», «выбор после захвата» (the summary's names)."""
        from voevoda.rulesets.steel_rose.campaign.summary import PHASES

        ru, _, en = PHASES.get(phase, f"{phase} / {phase}").partition(" / ")
        return ru if lang == "ru" else en

    def declaration(self, order: Order) -> tuple[str, str, str] | None:
        """A building built or sold twice in one city is one order («в одном городе не может быть
        две одинаковые постройки»): written twice, or again in a follow-up, it is counted once
        (issue 30)."""
        if order.kind in ("build", "sell"):
            return order.kind, str(order.args.get("city")), str(order.args.get("building"))
        return None

    def describe(self, order: Order, lang: str = "ru") -> str:
        from voevoda.rulesets.steel_rose.campaign.report import describe_order

        return describe_order(self.campaign, order, lang)

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: str,
                 lang: str = "ru", turn: int | None = None) -> Document:
        from voevoda.rulesets.steel_rose.campaign.report import document

        return document(self.campaign, view, events, viewer, lang, turn, self.player_names(lang))

    def map_svg(self, view: Mapping[str, Any], viewer: str, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        from voevoda.rulesets.steel_rose.campaign.svgmap import map_svg

        return map_svg(self.campaign, view, lang, events, turn)

    def summary(self, view: Mapping[str, Any], viewer: str) -> str:
        """``voevoda show``: the viewer's faction, then the factions, alliances, battles and the
        map (campaign/summary.py)."""
        from voevoda.rulesets.steel_rose.campaign.summary import summary

        return summary(self.campaign, view, viewer)

    def demo_config(self) -> dict[str, Any]:
        """The demo's bots weigh their attacks on the strength estimate: the demo is seconds, the
        simulator's first compile minutes (ruling C52)."""
        return {"bot_odds_battles": 0}

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        from voevoda.rulesets.steel_rose.campaign.bots import bot_post

        return bot_post(self.campaign, self.options, view, player, stream)


