"""The contract between the engine and a game.

A ruleset is pure: functions over plain data plus the dice it is handed. It never
touches storage, the web, the clock or a global random generator. The engine
(:mod:`voevoda.core.engine`) drives every ruleset the same way: ask ``awaiting`` who
must answer, collect their posts (``parse`` then ``validate``), call ``resolve``, and
repeat. Simultaneous orders, several posts per step and sequential per-player phases
are all expressed through what ``awaiting`` returns.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ValidationError

from voevoda.core import posts
from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import Problem
from voevoda.core.markup import Document, Paragraph, render
from voevoda.core.words import Names

if TYPE_CHECKING:
    from voevoda.core.hidden import HiddenParts

State = dict[str, Any]
"""Plain JSON-serialisable data; identical state serialises to identical bytes."""

Viewer = str
"""A player's name, ``"public"`` or ``"gm"``."""

PUBLIC: Viewer = "public"
GM: Viewer = "gm"

ReportFormat = Literal["text", "bbcode", "markdown", "telegram"]

CORE_CONFIG_KEYS = frozenset({"genders", "post_acceptance"})
"""Config keys every game accepts besides its own: ``genders`` ({player: "m" | "f"}), the
grammatical gender of players whose names do not show it (see :mod:`voevoda.core.words`), and
``post_acceptance`` (``"by_line"``, the default, or ``"whole"``): whether a refused line of a post
is void while the rest stands, or refuses the whole post (docs/posts.md «A post keeps its good
lines»)."""


@dataclass(frozen=True)
class Order:
    """One understood order: its kind, its arguments, and where it was written."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)
    line: int = 0
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": dict(self.args), "line": self.line, "text": self.text}


@dataclass(frozen=True)
class Prompt:
    """What a ruleset waits for from one player."""

    kind: str
    text_ru: str
    text_en: str
    options: Sequence[str] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text_ru": self.text_ru, "text_en": self.text_en,
                "options": list(self.options)}


@dataclass(frozen=True)
class Event:
    """One thing that happened, and who may know about it.

    ``audience`` is ``("*",)`` for everyone, ``()`` for the game master only, or the
    names of the players who may see it. The game master sees every event.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: tuple[str, ...] = ("*",)

    def visible_to(self, viewer: Viewer) -> bool:
        if viewer == GM:
            return True
        if "*" in self.audience:
            return True
        return viewer in self.audience

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": list(self.audience), "data": copy.deepcopy(dict(self.data))}

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Event:
        return Event(str(raw["kind"]), dict(raw.get("data", {})), tuple(raw.get("audience", ("*",))))


@dataclass(frozen=True)
class Outcome:
    """The end of a game."""

    winners: tuple[str, ...]
    reason_ru: str
    reason_en: str
    scores: Mapping[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason_ru": self.reason_ru,
                "reason_en": self.reason_en, "scores": dict(self.scores)}


@dataclass(frozen=True)
class StateProblem:
    """Why a state cannot be resolved: the field (a JSON pointer) and what is wrong."""

    field: str
    message_ru: str
    message_en: str

    def format(self, lang: str = "ru") -> str:
        return f"{self.field or '/'}: {self.message_ru if lang == 'ru' else self.message_en}"


def schema_problems(model: type[BaseModel], state: Any, every_field: bool = False) -> list[StateProblem]:
    """``state`` validated against ``model`` (strict: no string where a number belongs);
    one problem per failing field; with ``every_field``, also one per field left out."""
    try:
        typed = model.model_validate(state, strict=True)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            pointer = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in err["loc"])
            problems.append(StateProblem(pointer, f"недопустимое значение ({err['msg']})", str(err["msg"])))
        return problems
    if not every_field:
        return []
    return [StateProblem(pointer, "поле отсутствует: в состоянии есть все поля", "a field is missing: the state keeps every field")
            for pointer in _missing_fields(typed, "")]


def _missing_fields(value: Any, pointer: str) -> list[str]:
    """Fields a model filled with their default because the state left them out: the rules read
    the state as it is stored, so a patch that removes a field breaks them though the model would
    accept it."""
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(value, pointer)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, BaseModel):
            for name in type(item).model_fields:
                at = f"{where}/{name}"
                if name not in item.model_fields_set:
                    found.append(at)
                else:
                    stack.append((getattr(item, name), at))
        elif isinstance(item, dict):
            stack.extend((child, f"{where}/{str(key).replace('~', '~0').replace('/', '~1')}")
                         for key, child in item.items())
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{where}/{index}") for index, child in enumerate(item))
    return sorted(found)


@dataclass
class Resolution:
    """What ``resolve`` returns: the new state and what happened."""

    state: State
    events: list[Event]


class Ruleset(ABC):
    """Base class of every game. Subclasses set ``id``, ``version`` and ``title``.

    ``configure`` binds the game's config and house rules; every other method is a
    pure function of its arguments and of that configuration.
    """

    id: ClassVar[str]
    version: ClassVar[str]
    title_ru: ClassVar[str]
    title_en: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 64

    def __init__(self, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None) -> None:
        self.config: dict[str, Any] = dict(config or {})
        self.house_rules: dict[str, Any] = dict(house_rules or {})

    # -- the contract -------------------------------------------------------------

    @abstractmethod
    def setup(self, players: Sequence[str], dice: Dice) -> State:
        """The initial state for these players."""

    @abstractmethod
    def parse(self, text: str, player: str, state: State) -> list[Order]:
        """Read a post. Raises :class:`voevoda.core.errors.ParseError` carrying every
        problem (line, column, Russian and English) and the understood rest, as descriptions
        (``understood``) and as the orders themselves (``orders=``): the engine checks those
        against the rules too and keeps them when the refused lines are void (docs/posts.md)."""

    @abstractmethod
    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """The rules each order breaks; empty when the post can be accepted. A problem with an
        order's line refuses that line (the others stand, and are checked again without it); a
        problem that names no line refuses the post as a whole. Where orders share a budget,
        take them in the post's order and refuse, by its line, each one the budget cannot pay."""

    @abstractmethod
    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        """Advance the game with the posts of the awaited players."""

    @abstractmethod
    def awaiting(self, state: State) -> dict[str, Prompt]:
        """Who must post before the next resolution, and what is asked of them."""

    @abstractmethod
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may see, and nothing more: the only way state leaves
        the engine."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    # -- defaults a ruleset may refine -----------------------------------------------

    def default_orders(self, state: State, player: str) -> list[Order]:
        """What a player who sent nothing does when the game master resolves anyway."""
        return []

    def progress(self, state: State) -> tuple[int, str]:
        """Turn number and phase name, for status lines."""
        return int(state.get("turn", 0)), str(state.get("phase", ""))

    def phase_name(self, phase: str, lang: str = "ru") -> str:
        """The phase :meth:`progress` gives, as players call it in ``lang`` («приказы» for
        ``orders``): what the heading of ``status`` and ``show`` and the game's page print. By
        default the phase as it is."""
        return phase

    # -- posts in (docs/posts.md) -------------------------------------------------------------

    def post_options(self) -> posts.PostOptions:
        """How this game reads posts: ``PostOptions(bold_only=True)`` for a game that counts
        only bold text (New Worlds), ``follow_ups=False`` for a game whose posts a follow-up
        cannot add to."""
        return posts.PostOptions()

    def begins_order(self, line: str, player: str, state: State) -> bool:
        """Whether ``line`` (one line of a post, markup read through and stripped) begins like
        an order this player could give now. Lines that do not are prose (a greeting, a
        signature, the template's headings): echoed as "not read as orders", never refused.
        Say yes for anything that starts with an order's keyword or shape, so that a malformed
        order is still an error. The default takes every line as an order."""
        return True

    def read_post(self, text: str, player: str, state: State) -> posts.Post:
        """A post read through the core (markup, quotes, spoilers, positions, prose): what
        ``parse`` should read its order lines from (``post.orders``)."""
        return posts.read(text, self.post_options(), lambda line: self.begins_order(line, player, state))

    def settle(self, state: State, player: str, orders: Sequence[Order]) -> list[Order]:
        """The orders that stand after a post (its own and, for a follow-up, the standing post's,
        its refused lines left out), as the game keeps them: by default as they are. A game whose
        orders carry what the whole set decides (New Worlds' price and points left, for the echo)
        works it out again here, over the set that stands."""
        return list(orders)

    def declaration(self, order: Order) -> Hashable | None:
        """The key of a declaration (an alliance, a bid, a religion): two orders with the same
        key declare the same thing, and a post that gives it twice, or a follow-up that gives it
        again, gives it once (the repeat is noted, not refused). ``None`` (the default) for an
        order that is not one: two such orders are two orders."""
        return None

    def warnings(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        """Things the rules expect that an accepted post leaves out (a tax still owed, a squad
        without a manoeuvre): shown with the echo, never a reason to refuse the post."""
        return []

    def summary(self, view: Mapping[str, Any], viewer: Viewer) -> str:
        """``view`` as a person reads it (``voevoda show``): by default an indented outline of
        the view (:func:`voevoda.core.summary.outline`); a game may write its own."""
        from voevoda.core.summary import outline

        return "\n".join(outline(view))

    def describe(self, order: Order, lang: str = "ru") -> str:
        """One line echoing an understood order back to its author."""
        return order.text or order.kind

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        """A computer opponent's post, written from ``view`` alone; ``None`` when this
        ruleset has no computer opponent."""
        return None

    def rerun(self, computation: str, label: str, data: Mapping[str, Any], dice: Dice) -> Any:
        """The value an event's ``rerun`` citation covers (docs/dice.md §5), computed again from
        the event's ``data`` and ``dice`` (the cited step's seeds) under ``label``: what
        ``voevoda verify`` compares with the event. Raises KeyError for a computation this
        game does not have, ValueError for data it cannot be computed from."""
        raise KeyError(computation)

    def player_names(self, lang: str = "ru") -> Names:
        """How reports name this game's players: declined, with the genders of the config."""
        return Names(self.config.get("genders"), lang)

    def document(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
                 lang: str = "ru", turn: int | None = None) -> Document:
        """A readable report of ``events`` for ``viewer`` (already cut to what it may see) as
        a :class:`~voevoda.core.markup.Document`; ``turn`` is the turn the events belong to
        (``None``: the whole game) and ``view`` the viewer's view as it was after it. A ruleset
        builds its reports here; the engine adds its own notes and the dice, and renders the
        document in the format asked for (docs/reports.md)."""
        if type(self).report is not Ruleset.report:
            text = self.report(view, events, viewer, "text", lang, turn)
            return Document(None, [Paragraph(line) for line in text.split("\n") if line.strip()])
        return Document(None, [Paragraph(f"{e.kind}: {dict(e.data)}") for e in events])

    def report(self, view: Mapping[str, Any], events: Sequence[Event], viewer: Viewer,
               fmt: ReportFormat = "text", lang: str = "ru", turn: int | None = None) -> str:
        """:meth:`document` rendered in ``fmt``."""
        return render(self.document(view, events, viewer, lang, turn), fmt)

    def with_own_post(self, view: dict[str, Any], viewer: Viewer, orders: Sequence[Order]) -> dict[str, Any]:
        """``view`` with ``viewer``'s own post of the open step (its accepted ``orders``) laid in,
        for the map, which draws what he has sent before the step is resolved (a battle's map
        draws his accepted deployment while the enemy's is still unknown). Only his own post:
        nothing here may depend on another player's. By default the view is unchanged."""
        return view

    def map_svg(self, view: Mapping[str, Any], viewer: Viewer, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        """An SVG map drawn from ``view`` and ``events`` (the events of the last resolved turn,
        or of ``turn``, that the viewer may see) alone, or ``None`` when the game has no map.
        :mod:`voevoda.core.maps` frames it with a title, the turn and a legend (docs/maps.md)."""
        return None

    def config_keys(self) -> frozenset[str] | None:
        """The keys a game's config may hold (its named options and settings); the engine
        refuses a new game whose config has any other key, so a misspelt option is an
        error rather than silently ignored. ``None`` accepts any key."""
        return None

    def recorded_config(self) -> dict[str, Any]:
        """The config a new game stores: the given config plus the value in effect of every
        option whose installed default may change, so that replay and ``verify`` run the game
        with the options it was created with whatever the default later becomes."""
        return copy.deepcopy(self.config)

    def hidden_parts(self) -> HiddenParts | None:
        """How to vary what each viewer may not see (:mod:`voevoda.core.hidden`), for the
        non-interference test every ruleset must pass; ``None`` (the default) fails it."""
        return None

    def public_config(self) -> dict[str, Any]:
        """The part of the game's config that anyone may read: the public export carries this
        instead of the config. Named options are rules and public; a ruleset whose config holds
        a secret (Steel Rose: each side's army) cuts it here."""
        return copy.deepcopy(self.config)

    def hidden_markers(self, state: State, viewer: Viewer) -> list[str]:
        """Strings that name things ``viewer`` may not see (an enemy stack's id in fog, a
        rival's treasury as ``"treasury:Boris=120"``...), each unique enough that finding
        it in an output means a leak. The generic leak test plays random games and asserts
        that no output made for ``viewer`` (view JSON, reports, map) contains any of them."""
        return []

    state_model: ClassVar[type[BaseModel] | None] = None
    """The shape of this game's state as Pydantic models (strict types and bounds); a GM
    ``edit`` whose result does not validate is refused with the field named."""
    state_keeps_every_field: ClassVar[bool] = True
    """The rules read every field of the state as stored, so a patch that removes one is refused
    though the model would fill in its default; a game whose states leave optional fields out
    (players' choices not yet made) says False."""

    def check_state(self, state: State) -> list[StateProblem]:
        """Everything that makes ``state`` one this ruleset cannot resolve: the schema of
        ``state_model`` first, then :meth:`state_invariants` (cross-field rules: a unit in
        a hex that exists, a player who is seated, ...). Empty when the state is sound."""
        if self.state_model is not None:
            problems = schema_problems(self.state_model, state, every_field=self.state_keeps_every_field)
            if problems:
                return problems
        return list(self.state_invariants(state))

    def state_invariants(self, state: State) -> list[StateProblem]:
        """Rules between fields that a schema cannot state; called on a state that
        passed ``state_model``."""
        return []

    def demo_config(self) -> dict[str, Any]:
        """Game options for ``voevoda demo`` (the demo shows the game, quickly)."""
        return {}

    def demo_script(self, players: Sequence[str]) -> list[dict[str, str]]:
        """Scripted posts for ``voevoda demo``: a list of rounds, each {player: text}.
        An empty list lets the demo use the computer opponent for every seat."""
        return []
