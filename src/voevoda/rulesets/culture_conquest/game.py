"""The state of a Culture & Conquest game and the helpers every phase shares.

State is plain data::

    {"turn": 1, "turns": 50, "order": [...], "seat": 0, "phase": 0,
     "pending": None | {"kind": ..., "players": [...], ...},
     "players": {name: {"culture", "pop": {category: n}, "food", "coins", "cities",
                        "resources", "techs", "leaders", "war_vp", "wonders_built",
                        "projects", "labour_credit", "disaster", "promises", "prefs"}},
     "wonders": {wonder: {"builder", "owner", "city", "lost"}}, "finished": False}

:class:`Game` wraps one state with the tables, the options and the dice of one
resolution step; the phase functions in :mod:`.phases` work on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from voevoda.core.dice import CITED, Dice, pointer
from voevoda.core.errors import DataError
from voevoda.core.ruleset import Event
from voevoda.core.words import count_ru, counted

from .data import Tables, dice_count

CATEGORIES = ("army", "fleet", "farmers", "merchants", "workers", "scholars")
MILITARY = ("army", "fleet")
CATEGORY_NAMES = {
    "army": ("Армия", "Army"),
    "fleet": ("Флот", "Fleet"),
    "farmers": ("Земледельцы", "Farmers"),
    "merchants": ("Торговцы", "Merchants"),
    "workers": ("Рабочие", "Workers"),
    "scholars": ("Учёные", "Scholars"),
}
AMOUNT_NOUNS = {"coins": ("монета", "coin"), "food": ("единица пищи", "food"), "labour": ("единица труда", "labour"),
                "population": ("единица населения", "person")}
"""What a counted amount of each trade good is called («10 монет», «5 единиц пищи», «2 единицы
населения» as the document counts them: «Получите 3 единицы пищи», «50 единиц Труда»)."""


_AMOUNT_FORMS = {
    # (one, few, many) in the nominative, the accusative and the genitive, written out: the prompts
    # of `voevoda status` say them, and status loads no morphology dictionary
    ("монета", "nomn"): ("монета", "монеты", "монет"), ("монета", "accs"): ("монету", "монеты", "монет"),
    ("монета", "gent"): ("монеты", "монет", "монет"),
}
for _noun, _of in (("единица", "пищи"), ("единица", "труда"), ("единица", "населения")):
    _AMOUNT_FORMS[(f"{_noun} {_of}", "nomn")] = (f"единица {_of}", f"единицы {_of}", f"единиц {_of}")
    _AMOUNT_FORMS[(f"{_noun} {_of}", "accs")] = (f"единицу {_of}", f"единицы {_of}", f"единиц {_of}")
    _AMOUNT_FORMS[(f"{_noun} {_of}", "gent")] = (f"единицы {_of}", f"единиц {_of}", f"единиц {_of}")


def amount(kind: str, n: int, lang: str = "ru", case: str = "nomn") -> str:
    """A counted amount of coins, food, labour or population agreeing with its number: «1 монета»,
    «2 монеты», «29 единиц труда», «у Анны только 3 единицы пищи»; "3 coins", "29 labour",
    "2 people"."""
    ru_noun, en_noun = AMOUNT_NOUNS[kind]
    if lang == "ru":
        forms = _AMOUNT_FORMS.get((ru_noun, case))
        return count_ru(n, forms) if forms is not None else counted(n, ru_noun, case=case)
    if kind in ("food", "labour"):
        return f"{n} {en_noun}"
    return counted(n, en_noun, "en")


PHASES = ("growth", "resources", "assignment", "leaders", "harvest", "disasters", "upkeep",
          "war", "trade", "building", "research", "income")
PHASE_NAMES = {
    "growth": ("Рост населения", "Population growth"),
    "resources": ("Получение ресурсов", "Resources"),
    "assignment": ("Распределение населения", "Population assignment"),
    "leaders": ("Найм лидера", "Leaders"),
    "harvest": ("Сбор урожая", "Harvest"),
    "disasters": ("Бедствия", "Disasters"),
    "upkeep": ("Содержание", "Upkeep"),
    "war": ("Военные действия", "War"),
    "trade": ("Торговля", "Trade"),
    "building": ("Строительство", "Building"),
    "research": ("Исследования", "Research"),
    "income": ("Доход", "Income"),
}


@dataclass(frozen=True)
class Options:
    """The game master's choices where the document is silent or contradicts itself
    (each is argued in ``docs/rulings/culture_conquest.md``)."""

    fleet_upkeep: bool = True
    """"Армиям (+флот???) выплачивается 1 Монета": fleets are military too, so they cost upkeep."""
    tribute_when: str = "armies"
    """"теряет все его Армии (не Флот??)": ``armies`` (as written) or ``military`` (armies and fleets)."""
    tribute_needs_victory: bool = True
    """Tribute only when the attacker also won the battle."""
    majority_ties: str = "none"
    """Tied majorities of a resource score for ``none`` of the tied players, or for ``all``."""
    disaster_battle_vp: bool = False
    """Whether beating the armies of a war disaster wins 1d6 VP as a battle does."""
    max_trade_offers: int = 3
    """Offers the active player may make in one trade phase."""
    purchases_per_turn: int = 0
    """Technologies one research phase may buy for coins; 0 means no limit."""
    iron_needs_bronze: bool = True
    """"Железо: Военный, требуется Бронза": iron works only beside bronze."""
    turns: int = 0
    """Game length in rounds; 0 takes the document's 50."""
    biggest_population: bool = False
    """The English original's «5 points if you have the biggest population» (``victory.most``)."""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Options:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in config.items():
            if key not in known:
                continue
            default = getattr(cls, key)
            if isinstance(default, bool) and not isinstance(value, bool):
                raise DataError(f"config.{key}: expected true or false, got {value!r}")
            if isinstance(default, int) and not isinstance(default, bool) and (
                    isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise DataError(f"config.{key}: expected a whole number >= 0, got {value!r}")
            values[key] = value
        if values.get("tribute_when", "armies") not in ("armies", "military"):
            raise DataError("config.tribute_when: expected 'armies' or 'military'")
        if values.get("majority_ties", "none") not in ("none", "all"):
            raise DataError("config.majority_ties: expected 'none' or 'all'")
        return cls(**values)


def new_player(population: int, cities: list[dict[str, Any]]) -> dict[str, Any]:
    pop = dict.fromkeys(CATEGORIES, 0)
    pop["farmers"] = population
    return {
        "culture": None,
        "pop": pop,
        "food": 0,
        "coins": 0,
        "cities": cities,
        "resources": {},
        "techs": [],
        "leaders": [],
        "war_vp": 0,
        "wonders_built": [],
        "projects": [],
        "labour_credit": 0,
        "disaster": None,
        "promises": [],
        "prefs": {},
    }


PREFS = {"losses": CATEGORIES, "battle": MILITARY, "unpaid": MILITARY}
"""A player's standing choices where the document leaves the choice to him (ruling 48): who is
lost first when people starve, flee or die in a disaster, are enslaved or given away
(``losses``); which military units die first in a battle (``battle``); which desert first when
unpaid (``unpaid``). Each is the categories he named, first first; the rest follow the data's
order. Private to him (``cut_view``)."""


def preferred(p: Mapping[str, Any], key: str, default: Iterable[str]) -> list[str]:
    """The order in which ``p`` loses people for ``key``: the categories he named, then the rest of
    ``default`` (the data's order, today's rule when he named none)."""
    named = [str(c) for c in (p.get("prefs") or {}).get(key) or []]
    return named + [c for c in default if c not in named]


# -- reading a player (pure helpers shared by rules, validation and bots) -------------

def population(p: Mapping[str, Any]) -> int:
    return sum(p["pop"].values())


def has_tech(p: Mapping[str, Any], tech: str) -> bool:
    return tech in p["techs"]


def wonders_of(p: Mapping[str, Any]) -> list[str]:
    return [c["wonder"] for c in p["cities"] if c.get("wonder")]


def holds(p: Mapping[str, Any], key: str, options: Options | None = None) -> bool:
    """A technology, a resource (that works) or a controlled wonder."""
    return key in p["techs"] or level(p, key, options) > 0 or key in wonders_of(p)


def level(p: Mapping[str, Any], resource: str, options: Options | None = None) -> int:
    """Levels of ``resource`` that work (iron needs bronze under the default ruling)."""
    count = int(p["resources"].get(resource, 0))
    if count and resource == "iron" and (options is None or options.iron_needs_bronze) \
            and not p["resources"].get("bronze"):
        return 0
    return count


def kind_levels(p: Mapping[str, Any], kind: str, tables: Tables, options: Options) -> int:
    kinds = tables.kind_of
    return sum(level(p, r, options) for r in p["resources"] if kinds.get(r) == kind)


def generals(p: Mapping[str, Any]) -> int:
    return int(p["leaders"].count("general"))


def military_cost(p: Mapping[str, Any], category: str, tables: Tables, options: Options) -> int:
    """"Увеличение Армии или Флота стоит 2 Монеты" (1 with Weapons+Horses / Wood+Cloth)."""
    rules = tables.rules.assignment
    needs = rules.army_cheap_with if category == "army" else rules.fleet_cheap_with
    if all(level(p, r, options) > 0 for r in needs):
        return rules.cheap_cost
    return rules.military_cost


def assignment_cost(p: Mapping[str, Any], new: Mapping[str, int], tables: Tables, options: Options) -> int:
    return sum(max(0, int(new.get(c, 0)) - p["pop"][c]) * military_cost(p, c, tables, options)
               for c in MILITARY)


def industrial_options(p: Mapping[str, Any], tables: Tables, options: Options) -> list[str]:
    """"если вы не удовлетворяете требованиям ни для одного из Промышленных Ресурсов,
    вы не получаете ничего": the technology and any one of the listed resources."""
    return [key for key, ind in tables.resources.industrial.items()
            if ind.tech in p["techs"] and any(level(p, r, options) for r in ind.resources)]


def building_levels(p: Mapping[str, Any], tables: Tables, options: Options) -> int:
    return kind_levels(p, "building", tables, options)


def city_cost(p: Mapping[str, Any], tables: Tables, options: Options) -> tuple[int, int]:
    """"Постройте 1 Город за 50 единиц Труда и 25 Монет", less the building-resource,
    Masonry and Architecture discounts."""
    b = tables.rules.building
    return _discounted(p, b.city_labour, b.city_coins, tables, options)


def wonder_cost(p: Mapping[str, Any], wonder: str, tables: Tables, options: Options) -> tuple[int, int]:
    b = tables.rules.building
    if tables.wonders.wonders[wonder].cost == "city":
        return city_cost(p, tables, options)
    return _discounted(p, b.wonder_labour, b.wonder_coins, tables, options)


def _discounted(p: Mapping[str, Any], labour: int, coins: int, tables: Tables,
                options: Options) -> tuple[int, int]:
    b = tables.rules.building
    cut = b.discount_per_building_level * building_levels(p, tables, options)
    techs = tables.techs.technologies
    labour_cut = cut + sum(techs[t].labour_discount for t in p["techs"])
    coin_cut = cut + sum(techs[t].coin_discount for t in p["techs"])
    return max(b.min_labour, labour - labour_cut), max(b.min_coins, coins - coin_cut)


def wonder_available(state: Mapping[str, Any], p: Mapping[str, Any], wonder: str,
                     tables: Tables) -> bool:
    """Not built anywhere yet, its requirement held, and a city without a wonder."""
    if wonder in state["wonders"]:
        return False
    if not all(holds(p, req) for req in tables.wonders.wonders[wonder].requires):
        return False
    return any(not c.get("wonder") for c in p["cities"])


def project_labour(p: Mapping[str, Any], kind: str, target: str | None, tables: Tables, options: Options) -> int:
    """The labour a project of ``kind`` needs in all, at ``p``'s prices today: "Город за 50
    единиц Труда", "бросок ... за 20", "Промышленный Ресурс за 25", "Чудо ... за 100"."""
    b = tables.rules.building
    if kind == "city":
        return city_cost(p, tables, options)[0]
    if kind == "wonder" and target in tables.wonders.wonders:
        return wonder_cost(p, str(target), tables, options)[0]
    if kind == "industrial":
        return b.industrial_labour
    return b.resource_labour


def project_title(project: Mapping[str, Any], tables: Tables, lang: str = "ru") -> str:
    """A project as a post names it: «город Фивы», «чудо Пирамиды», «ресурс», «промресурс Вино»."""
    ru = lang == "ru"
    kind, target = project["project"], project.get("target")
    if kind == "city":
        word = "город" if ru else "city"
        return f"{word} {project['name']}" if project.get("name") else word
    if kind == "wonder":
        return ("чудо " if ru else "wonder ") + tables.name(str(target), lang)
    if kind == "industrial":
        return ("промресурс " if ru else "industry ") + tables.name(str(target), lang)
    return "ресурс" if ru else "resource"


@dataclass
class BuildPlan:
    """Where every unit of one building answer's labour goes (:func:`plan_build`)."""

    projects: list[dict[str, Any]]
    """The projects under way once the labour is put in (completions come after)."""
    over: list[int]
    """Per line: labour beyond what its project still needs, lost."""
    placed: list[int]
    """Per line: how many projects its labour went into."""
    unassigned: int
    """Labour of the turn no line took: "Неназначенные единицы Труда теряются"."""

    @property
    def lost(self) -> int:
        return self.unassigned + sum(self.over)


def _same_name(a: object, b: object) -> bool:
    return " ".join(str(a).casefold().split()) == " ".join(str(b).casefold().split())


def plan_build(p: Mapping[str, Any], alloc: Iterable[Mapping[str, Any]], labour: int, tables: Tables,
               options: Options) -> BuildPlan:
    """Put each line's labour into projects, line after line (ruling 32): a wonder or a named
    city is one project, and labour beyond what it still needs is lost; a resource roll, an
    industrial resource or an unnamed city fills the projects of its kind under way, oldest
    first, then opens new ones, each taking what it costs, so that «ресурс 20» twice (or «ресурс
    40») is two rolls and nothing is lost. Pure: the order check, the echo's warnings and the
    building phase all read this one plan."""
    projects = [dict(x) for x in p["projects"]]
    over: list[int] = []
    placed: list[int] = []
    spent = 0
    for part in alloc:
        amount = max(0, int(part["labour"]))
        spent += amount
        kind, target, name = part["project"], part.get("target"), part.get("name")
        cost = project_labour(p, kind, target, tables, options)
        if kind == "wonder" or (kind == "city" and name):
            found = next((x for x in projects if x["project"] == kind and (
                x.get("target") == target if kind == "wonder" else _same_name(x.get("name") or "", name))), None)
            if found is None:
                if amount <= 0 and not part.get("city"):
                    over.append(0)
                    placed.append(0)
                    continue
                found = {"project": kind, "target": target, "labour": 0}
                if kind == "city":
                    found["name"] = name
                projects.append(found)
            if part.get("city"):
                found["city"] = part["city"]
            put = min(amount, max(0, cost - int(found["labour"])))
            found["labour"] = int(found["labour"]) + put
            over.append(amount - put)
            placed.append(1 if put else 0)
            continue
        count = 0
        while amount > 0:
            found = next((x for x in projects if x["project"] == kind and x.get("target") == target
                          and int(x["labour"]) < cost), None)
            if found is None:
                found = {"project": kind, "target": target, "labour": 0}
                projects.append(found)
            # A project that costs nothing (a house rule) still takes one unit, so the loop ends.
            put = min(amount, max(1, cost - int(found["labour"])))
            found["labour"] = int(found["labour"]) + put
            amount -= put
            count += 1
        over.append(0)
        placed.append(count)
    return BuildPlan(projects, over, placed, max(0, labour - spent))


def research_dice(p: Mapping[str, Any], tables: Tables) -> int:
    """"1D12 за каждого Ученого, Мыслителя или генератор исследований"."""
    techs = tables.techs.technologies
    leaders = tables.leaders.leaders
    wonders = tables.wonders.wonders
    return int(p["pop"]["scholars"]
                  + sum(leaders[x].research_dice for x in p["leaders"])
               + sum(techs[t].research_dice for t in p["techs"])
               + sum(wonders[w].research_dice for w in wonders_of(p)))


def known_elsewhere(state: Mapping[str, Any], player: str) -> list[str]:
    """Technologies another player knows and ``player`` does not (buyable for coins)."""
    mine = set(state["players"][player]["techs"])
    found: set[str] = set()
    for name, other in state["players"].items():
        if name != player:
            found.update(other["techs"])
    return sorted(found - mine)


def scholar_cap(p: Mapping[str, Any], tables: Tables) -> int:
    return tables.rules.assignment.scholars_per_city * len(p["cities"])


def rivals(state: Mapping[str, Any], player: str) -> list[str]:
    return [x for x in state["order"] if x != player]


def cut_view(state: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """What ``viewer`` may see, sharing (not copying) the unchanged parts of ``state``.

    Everything on the table is open in this game (treasuries, populations,
    technologies); only an offer under negotiation is seen by its two parties (and the
    game master, ``"gm"``)."""
    result = {k: v for k, v in state.items() if k != "carry_events"}
    if viewer != "gm":
        # a player's standing preferences are his alone (ruling 48)
        result["players"] = {name: p if name == viewer or "prefs" not in p
                             else {k: v for k, v in p.items() if k != "prefs"}
                             for name, p in state["players"].items()}
    pending = result.get("pending")
    if pending and pending["kind"] in ("offer", "reply") and viewer != "gm":
        parties = set(pending["players"])
        if pending["kind"] == "reply":
            parties.add(pending["offer"]["from"])
        if viewer not in parties:
            result["pending"] = {"kind": pending["kind"], "players": list(pending["players"])}
    result["viewer"] = viewer
    return result


# -- scoring -----------------------------------------------------------------------

def score(state: Mapping[str, Any], tables: Tables, options: Options) -> dict[str, dict[str, int]]:
    """УСЛОВИЯ ПОБЕДЫ: every source of victory points, per player."""
    v = tables.rules.victory
    techs = tables.techs.technologies
    players = state["players"]
    result: dict[str, dict[str, int]] = {}
    for name, p in players.items():
        held = wonders_of(p)
        bonus = 0
        for t in p["techs"]:
            tech = techs[t]
            if tech.vp and all(r in p["techs"] for r in tech.vp_requires):
                bonus += tech.vp
            bonus += tech.vp_per_city * len(p["cities"]) + tech.vp_per_wonder * len(held)
        result[name] = {
            "techs": v.tech * len(p["techs"]),
            "cities": v.city * len(p["cities"]),
            "wonders_built": v.wonder_built * len(p["wonders_built"]),
            "wonders_held": v.wonder_held * len(held),
            "natural_majority": 0,
            "industrial_majority": 0,
            "tech_bonus": bonus,
            "war": p["war_vp"],
        }
    for table, field_name, points in ((tables.resources.natural, "natural_majority", v.natural_majority),
                                      (tables.resources.industrial, "industrial_majority",
                                       v.industrial_majority)):
        for resource in table:
            counts = {n: int(p["resources"].get(resource, 0)) for n, p in players.items()}
            best = max(counts.values(), default=0)
            if best <= 0:
                continue
            leaders = [n for n, c in counts.items() if c == best]
            if len(leaders) == 1 or options.majority_ties == "all":
                for n in leaders:
                    result[n][field_name] += points
    for key, award in v.most.items():
        if award.option and not getattr(options, award.option):
            continue
        counts = {n: most_count(p, award.count) for n, p in players.items()}
        best = max(counts.values(), default=0)
        leaders = [n for n, c in counts.items() if c == best] if best > 0 else []
        for n in players:
            won = n in leaders and (len(leaders) == 1 or options.majority_ties == "all")
            result[n][f"most_{key}"] = award.points if won else 0
    for parts in result.values():
        parts["total"] = sum(parts.values())
    return result


def most_count(p: Mapping[str, Any], what: str) -> int:
    """What a «most of» award (``victory.most``) counts for one player."""
    if what == "population":
        return population(p)
    if what == "military":
        return int(p["pop"]["army"] + p["pop"]["fleet"])
    if what in ("army", "fleet"):
        return int(p["pop"][what])
    if what in ("coins", "food"):
        return int(p[what])
    if what == "wonders":
        return len(wonders_of(p))
    return len(p[{"cities": "cities", "techs": "techs", "leaders": "leaders"}[what]])


# -- the working object of one resolution step ---------------------------------------

class Game:
    """One state plus what resolving it needs: tables, options, dice and the journal."""

    __slots__ = ("state", "t", "o", "dice", "events", "record", "drawn", "dice_step")

    def __init__(self, state: dict[str, Any], tables: Tables, options: Options, dice: Dice,
                 record: bool = True, dice_step: int | None = None) -> None:
        self.state = state
        self.t = tables
        self.o = options
        self.dice = dice
        self.events: list[Event] = []
        self.record = record
        self.drawn: dict[tuple[str, str], list[Any]] = {}
        """(player, what) -> [label, first draw, end] of the draws not yet cited by an event."""
        self.dice_step = dice_step
        """The step whose dice these are when events are told in a later one (0: the setup)."""

    # -- journal and dice ---------------------------------------------------------

    def emit(self, kind: str, data: dict[str, Any], audience: tuple[str, ...] = ("*",),
             cites: Mapping[str, tuple[str, str] | list[tuple[str, str]]] | None = None) -> None:
        """Record an event. ``cites`` names, for each field of ``data`` that quotes dice, the
        ``(player, what)`` it was rolled under (a list when the faces of several are joined):
        the event then cites those draws (``dice_refs``, docs/dice.md §5) and `verify` holds the
        quote to the dice."""
        if self.record:
            data["turn"] = self.state["turn"]
            if cites:
                refs = list(data.get(CITED, []))
                for field, keys in cites.items():
                    if field not in data:
                        continue
                    for key in keys if isinstance(keys, list) else [keys]:
                        span = self.drawn.pop(key, None)
                        if span is not None and span[2] > span[1]:
                            ref = {"field": pointer(field), "label": span[0], "from": span[1], "count": span[2] - span[1]}
                            if self.dice_step is not None:
                                ref["step"] = self.dice_step
                            refs.append(ref)
                if refs:
                    data[CITED] = refs
            self.events.append(Event(kind, data, audience))

    def label(self, player: str, what: str) -> str:
        return f"{self.state['turn']}/{player}/{what}"

    def roll(self, player: str, what: str, count: int, sides: int) -> list[int]:
        label = self.label(player, what)
        stream = self.dice.stream(label)
        start = stream.count
        faces = [stream.roll(sides) for _ in range(count)]
        if self.record:
            span = self.drawn.get((player, what))
            if span is not None and span[0] == label and span[2] == start:
                span[2] = start + count
            else:
                self.drawn[(player, what)] = [label, start, start + count]
        return faces

    def roll_expr(self, player: str, what: str, expr: str) -> list[int]:
        count, sides = dice_count(expr)
        return self.roll(player, what, count, sides)

    # -- state access -------------------------------------------------------------

    def p(self, name: str) -> dict[str, Any]:
        player: dict[str, Any] = self.state["players"][name]
        return player

    @property
    def active(self) -> str:
        name: str = self.state["order"][self.state["seat"]]
        return name

    def ask(self, kind: str, players: Iterable[str], **context: Any) -> None:
        self.state["pending"] = {"kind": kind, "players": list(players), **context}

    # -- changes shared by many phases -------------------------------------------

    def gain_tech(self, name: str, tech: str, how: str) -> None:
        """A new technology; "Если игрок получает больше одной [Религии/Правительства],
        то последняя полученная заменяет более старую"."""
        p = self.p(name)
        if tech in p["techs"]:
            return
        group = self.t.techs.technologies[tech].group
        replaced = []
        if group and group in self.t.techs.exclusive_groups:
            replaced = [t for t in p["techs"] if self.t.techs.technologies[t].group == group]
            for old in replaced:
                p["techs"].remove(old)
        p["techs"].append(tech)
        self.emit("tech", {"player": name, "tech": tech, "how": how, "replaced": replaced})

    def lose_population(self, name: str, count: int, first: Iterable[str] = ()) -> dict[str, int]:
        """Take ``count`` people: the categories a disaster names ``first``, then in the order the
        player chose (``prefs.losses``, ruling 48), then the data's loss order."""
        p = self.p(name)
        lost: dict[str, int] = {}
        order = preferred(p, "losses", self.t.rules.upkeep.loss_order)
        if (p.get("prefs") or {}).get("losses"):
            # the disaster's own «первыми уничтожаются», in the order the player prefers
            first = sorted(first, key=lambda c: order.index(c) if c in order else len(order))
        order = list(first) + [c for c in order if c not in first]
        for category in order:
            if count <= 0:
                break
            take = min(count, p["pop"][category])
            if take:
                p["pop"][category] -= take
                lost[category] = lost.get(category, 0) + take
                count -= take
        return lost

    def lose_city(self, name: str, city: str) -> dict[str, Any]:
        """A city leaves ``name``; its wonder goes with it."""
        p = self.p(name)
        index = next(i for i, c in enumerate(p["cities"]) if c["name"] == city)
        removed: dict[str, Any] = p["cities"].pop(index)
        self.cap_scholars(name)
        return removed

    def cap_scholars(self, name: str) -> None:
        """"доступен только 1 Ученый на каждый город": scholars over the limit after a
        city is lost go back to the fields."""
        p = self.p(name)
        cap = scholar_cap(p, self.t)
        if p["pop"]["scholars"] > cap:
            p["pop"]["farmers"] += p["pop"]["scholars"] - cap
            p["pop"]["scholars"] = cap

    def take_city(self, name: str, city: dict[str, Any]) -> None:
        self.p(name)["cities"].append(city)
        wonder = city.get("wonder")
        if wonder:
            self.state["wonders"][wonder]["owner"] = name

    def city_name(self, name: str) -> str:
        """A default name for a new city of ``name``: "<player>-<n>", unused anywhere."""
        taken = {c["name"] for p in self.state["players"].values() for c in p["cities"]}
        n = 1
        while f"{name}-{n}" in taken:
            n += 1
        return f"{name}-{n}"
