"""Driving the campaign ruleset directly in tests: a game, state edits by dotted path, posts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.dice import Dice
from voevoda.core.errors import ParseError
from voevoda.core.registry import configure
from voevoda.core.ruleset import Event, Order

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]
"""Seated in the document's order: Империя, Княжество, Благословлённые небом, Культ, Огры."""


def set_path(state: dict[str, Any], path: str, value: Any) -> None:
    node: Any = state
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def get_path(state: Mapping[str, Any], path: str) -> Any:
    node: Any = state
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


class Campaign:
    """A campaign game driven step by step: posts are parsed and validated like the engine does."""

    def __init__(self, players: Sequence[str] = PLAYERS, config: Mapping[str, Any] | None = None,
                 house_rules: Mapping[str, Any] | None = None, seed: str = "test") -> None:
        self.rs = configure("steel-rose", dict(config or {}), dict(house_rules or {}))
        self.players = list(players)
        self.seed = seed
        self.state = self.rs.setup(self.players, Dice.from_text(f"{seed}/setup"))
        self.events: list[Event] = []
        self.steps = 0

    def edit(self, changes: Mapping[str, Any]) -> None:
        for path, value in changes.items():
            set_path(self.state, path, value)

    def orders(self, player: str, text: str) -> list[Order]:
        orders = self.rs.parse(text, player, self.state)
        problems = self.rs.validate(self.state, player, orders)
        if problems:
            raise ParseError(problems, [])
        return orders

    def problems(self, player: str, text: str) -> list[str]:
        """Every problem of a post (parse or validate), both languages, or [] when accepted."""
        try:
            self.orders(player, text)
        except ParseError as exc:
            return [p.message_ru + " | " + p.message_en for p in exc.problems]
        return []

    def step(self, posts: Mapping[str, str] | None = None) -> list[Event]:
        """Resolve the step: the given posts, the others silent (as with --force)."""
        awaited = self.rs.awaiting(self.state)
        orders = {p: self.orders(p, t) for p, t in (posts or {}).items() if p in awaited}
        for player in awaited:
            orders.setdefault(player, self.rs.default_orders(self.state, player))
        self.steps += 1
        result = self.rs.resolve(self.state, orders, Dice.from_text(f"{self.seed}/{self.steps}"))
        self.state = result.state
        self.events.extend(result.events)
        if hasattr(self, "turn_events"):
            self.turn_events.extend(result.events)
        return result.events

    def turn(self, posts: Mapping[str, str] | None = None, later: Sequence[Mapping[str, str]] = ()) -> list[Event]:
        """Resolve a whole turn: the orders, then every battle and capture step (``later`` gives
        the posts of those steps in order; silence otherwise)."""
        start = self.state["turn"]
        self.last_turn = start
        self.turn_events: list[Event] = []
        events = self.step(posts)
        i = 0
        while self.state["turn"] == start and self.state["phase"] != "over":
            events += self.step(later[i] if i < len(later) else None)
            i += 1
        return events

    def report(self, viewer: str, lang: str = "ru") -> str:
        """The viewer's report of the last turn played (text), built from its view and the events
        of that turn it may see, as the engine builds it."""
        from voevoda.core.markup import render

        events = [e for e in getattr(self, "turn_events", self.events) if e.visible_to(viewer)]
        doc = self.rs.document(self.rs.view(self.state, viewer), events, viewer, lang,
                               turn=getattr(self, "last_turn", None))
        return render(doc, "text")

    def faction(self, fid: str) -> dict[str, Any]:
        return dict(self.state["factions"][fid])

    def city(self, cid: str) -> dict[str, Any]:
        return dict(self.state["cities"][cid])

    def ledger(self, fid: str, events: Sequence[Event] | None = None) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for e in events if events is not None else self.events:
            if e.kind == "ledger" and e.data["faction"] == fid:
                lines.extend(e.data["lines"])
        return lines

    def refused(self, events: Sequence[Event] | None = None) -> list[str]:
        return [str(e.data["ru"]) for e in (events if events is not None else self.events) if e.kind == "refused"]
