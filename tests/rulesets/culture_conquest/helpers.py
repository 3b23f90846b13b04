"""Shared helpers for the Culture & Conquest tests: a small state builder and dice
whose faces a test writes down (every roll a rule makes must be scripted, so a test
notices when a rule rolls more or less than the document says)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.rulesets.culture_conquest.data import load_tables
from voevoda.rulesets.culture_conquest.game import Game, Options, new_player


class ScriptedStream:
    def __init__(self, label: str, faces: list[int]) -> None:
        self.label = label
        self.faces = list(faces)
        self.drawn: list[int] = []

    @property
    def count(self) -> int:
        return len(self.drawn)

    def roll(self, sides: int) -> int:
        if not self.faces:
            raise AssertionError(f"unscripted roll d{sides} on {self.label!r}")
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"scripted face {face} does not fit d{sides} on {self.label!r}")
        self.drawn.append(face)
        return face

    def cite(self, field: str, start: int = 0, count: int | None = None, step: int | None = None) -> dict[str, object]:
        stop = len(self.drawn) if count is None else start + count
        return {"field": field, "label": self.label, "from": start, "count": stop - start, "step": step}


class ScriptedDice:
    """``script`` maps a label without its turn prefix (``"A/growth"``) to faces."""

    def __init__(self, script: Mapping[str, Sequence[int]]) -> None:
        self.script = {k: list(v) for k, v in script.items()}
        self.streams: dict[str, ScriptedStream] = {}

    def stream(self, label: str, *, sealed: bool = False) -> ScriptedStream:
        key = label.split("/", 1)[1] if label[:1].isdigit() else label
        if key not in self.streams:
            self.streams[key] = ScriptedStream(key, self.script.get(key, []))
        return self.streams[key]

    def unused(self) -> dict[str, list[int]]:
        return {k: s.faces for k, s in self.streams.items() if s.faces} | {
            k: v for k, v in self.script.items() if k not in self.streams and v}


def deep_update(target: dict[str, Any], patch: Mapping[str, Any]) -> None:
    for key, value in patch.items():
        if isinstance(value, Mapping) and isinstance(target.get(key), dict) and key not in ("resources",):
            deep_update(target[key], value)
        else:
            target[key] = copy.deepcopy(value)


def make_state(players: Mapping[str, Mapping[str, Any]] | Sequence[str] = ("A", "B"),
               **top: Any) -> dict[str, Any]:
    """Two (or more) civilisations of 10 farmers and one city each, turn 1, A to play."""
    names = list(players)
    state: dict[str, Any] = {"ruleset": "culture-conquest", "turn": 1, "turns": 50, "order": names, "seat": 0,
                             "phase": 0, "pending": None, "finished": False,
                             "players": {}, "wonders": {}}
    for name in names:
        p = new_player(10, [{"name": f"{name}-1", "wonder": None}])
        p["culture"] = "egyptian"
        if isinstance(players, Mapping):
            deep_update(p, players[name])
        state["players"][name] = p
    deep_update(state, top)
    return state


def make_game(state: dict[str, Any], script: Mapping[str, Sequence[int]] | None = None,
              config: Mapping[str, Any] | None = None) -> Game:
    return Game(state, load_tables(), Options.from_config(config or {}), ScriptedDice(script or {}))  # type: ignore[arg-type]

