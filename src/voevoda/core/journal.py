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

from pydantic import BaseModel, Field, field_validator

from voevoda.core.dice import DEFAULT_CHAIN_LENGTH

FORMAT = "voevoda-game/1"

EntryKind = Literal["submit", "resolve", "rollback", "edit"]
Source = Literal["player", "bot", "gm"]


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing and comparing state."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def state_hash(state: Any) -> str:
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


class Entry(BaseModel):
    """One line of the journal."""

    kind: EntryKind
    player: str | None = None
    text: str | None = None
    source: Source = "player"
    force: bool = False
    patch: list[dict[str, Any]] | None = None
    reason: str | None = None
    at: str | None = Field(default=None, description="wall-clock time, informational; replay ignores it")


class GameRecord(BaseModel):
    """A whole game as it is stored, exported and replayed."""

    format: str = FORMAT
    name: str
    ruleset: str
    ruleset_version: str
    config: dict[str, Any] = Field(default_factory=dict)
    house_rules: dict[str, Any] = Field(default_factory=dict)
    players: list[str]
    bots: list[str] = Field(default_factory=list)
    auto_resolve: bool = False
    secret: str = Field(description="hex; known to the game master only")
    chain_length: int = DEFAULT_CHAIN_LENGTH
    commitment: str
    entries: list[Entry] = Field(default_factory=list)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != FORMAT:
            raise ValueError(f"unknown game format '{value}' (expected '{FORMAT}')")
        return value

    @field_validator("players")
    @classmethod
    def _distinct_players(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("player names must be distinct")
        for name in value:
            if not name or name in ("gm", "public") or name != name.strip():
                raise ValueError(f"'{name}' cannot be a player name")
        return value
