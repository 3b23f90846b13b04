"""The journal: what a game *is*.

A game is its ruleset id and version, config, house rules, players, secret and the
ordered list of accepted submissions and game-master actions. Everything else (state,
events, rolls, reports) is rebuilt from it by replay, and replay must reproduce the
stored state byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from voevoda.core.bounds import plain_problem
from voevoda.core.dice import DEFAULT_CHAIN_LENGTH, MAX_CHAIN_LENGTH

FORMAT = "voevoda-game/1"

EntryKind = Literal["submit", "resolve", "rollback", "edit", "reopen", "reveal"]
Source = Literal["player", "bot", "gm"]

HEX64 = r"^[0-9a-f]{64}$"
MAX_ENTRIES = 200_000
"""The most journal entries a stored or imported game may hold."""
MAX_TEXT = 1_000_000
"""The longest text a journal entry may carry (a post; posts themselves have a tighter limit)."""
MAX_REASON = 2_000
MAX_PATCH_OPERATIONS = 1_000
MAX_NAME = 200
MAX_PLAYERS = 64


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing and comparing state."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def stored_json(state: Any) -> str:
    """A state as the store commits it: compact JSON like :func:`canonical_json`, but with every
    table's keys in the order the engine made them, which outputs follow (a summary lists a
    table's entries in that order), so that the state read back prints as the replayed one
    (src/voevoda/core/standing.py). Its hash is still :func:`state_hash`, of the canonical form."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def state_hash(state: Any) -> str:
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


class Entry(BaseModel):
    """One line of the journal.

    ``step`` is the step a ``submit`` is for and the step a ``resolve`` resolves; replay
    refuses a journal whose entries disagree with the steps they fall in (entries
    written before step numbers were recorded have none and are not checked).
    """

    model_config = ConfigDict(extra="forbid")

    kind: EntryKind
    player: str | None = Field(default=None, max_length=MAX_NAME)
    text: str | None = Field(default=None, max_length=MAX_TEXT)
    source: Source = "player"
    force: bool = False
    patch: list[dict[str, Any]] | None = Field(default=None, max_length=MAX_PATCH_OPERATIONS)
    reason: str | None = Field(default=None, max_length=MAX_REASON)
    step: int | None = Field(default=None, ge=1, le=MAX_CHAIN_LENGTH)
    at: str | None = Field(default=None, max_length=64,
                           description="wall-clock time, informational; replay ignores it")
    follow_up: Literal[True] | None = Field(
        default=None, description="a post that opened as a follow-up («ещё», «P.S.», …): replay adds its orders "
                                  "to the standing post instead of replacing it (docs/posts.md «Follow-ups»)")

    @model_validator(mode="after")
    def _fields_of_its_kind(self) -> Entry:
        needed = {"submit": ("player", "text"), "reopen": ("player",), "edit": ("patch",)}.get(self.kind, ())
        missing = [name for name in needed if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a '{self.kind}' entry needs {' and '.join(missing)}")
        return self


class GameRecord(BaseModel):
    """A whole game as it is stored, exported and replayed."""

    format: str = FORMAT
    name: str = Field(min_length=1, max_length=MAX_NAME)
    ruleset: str = Field(max_length=64)
    ruleset_version: str = Field(max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    house_rules: dict[str, Any] = Field(default_factory=dict)
    players: list[str] = Field(max_length=MAX_PLAYERS)
    bots: list[str] = Field(default_factory=list, max_length=MAX_PLAYERS)
    auto_resolve: bool = False
    secret: str = Field(pattern=HEX64, description="hex; known to the game master only")
    chain_length: int = Field(default=DEFAULT_CHAIN_LENGTH, ge=1, le=MAX_CHAIN_LENGTH)
    commitment: str = Field(pattern=HEX64)
    procedure: int | None = Field(default=None, ge=2, le=2,
                                  description="the dice procedure (docs/dice.md); left out: procedure 1, the "
                                              "procedure of every game created before procedure 2")
    entries: list[Entry] = Field(default_factory=list, max_length=MAX_ENTRIES)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != FORMAT:
            raise ValueError(f"unknown game format '{value}' (expected '{FORMAT}')")
        return value

    @field_validator("config", "house_rules")
    @classmethod
    def _bounded(cls, value: dict[str, Any]) -> dict[str, Any]:
        problem = plain_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("players")
    @classmethod
    def _distinct_players(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("player names must be distinct")
        for name in value:
            if not name or name in ("gm", "public") or name != name.strip() or len(name) > MAX_NAME:
                raise ValueError(f"'{name[:MAX_NAME]}' cannot be a player name")
        return value
