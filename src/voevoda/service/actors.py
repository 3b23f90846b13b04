"""Who acts: every operation of the service is asked by an actor, and :mod:`.access` decides
from the actor alone what it may do.

- :class:`Operator` is the command line on the machine that holds the database: whoever can
  open the database file can rewrite it, so it acts as the game master of every game, as
  ``voevoda`` always has.
- :class:`Person` is a signed-in account (a browser session, a linked chat): what it may do in
  a game follows from its membership there — owner, co-game-master, a player's seat — and from
  whether the game is public.
- :class:`SeatToken` is a seat's API token, for a player's own program: it acts for that seat
  of that game and nothing else.
- :class:`Anonymous` is anybody: the public view of public games.
- :class:`Clock` is the deadline worker: it resolves steps that are due, nothing else.
- :class:`ChatGroup` is a group chat the game master linked to a game (docs/telegram.md): it
  reads that game's public face — status, chronicle, map — and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Operator:
    """The command line with the database in hand: the game master of every game."""

    label: str = "command line"


@dataclass(frozen=True)
class Person:
    """A signed-in account."""

    account_id: int
    name: str
    can_create_games: bool = False


@dataclass(frozen=True)
class SeatToken:
    """A seat's API token: acts for ``player`` in the game ``game_id`` only."""

    token_id: int
    game_id: int
    player: str


@dataclass(frozen=True)
class Anonymous:
    """Anybody, signed in as nobody."""


@dataclass(frozen=True)
class Clock:
    """The deadline worker."""


@dataclass(frozen=True)
class ChatGroup:
    """A group chat linked to the game ``game_id`` by its game master: the public view of that
    game only, whoever writes in the group."""

    chat_id: int
    game_id: int


Actor = Operator | Person | SeatToken | Anonymous | Clock | ChatGroup

OPERATOR = Operator()
ANONYMOUS = Anonymous()
CLOCK = Clock()

__all__ = ["ANONYMOUS", "CLOCK", "OPERATOR", "Actor", "Anonymous", "ChatGroup", "Clock", "Operator", "Person",
           "SeatToken"]
