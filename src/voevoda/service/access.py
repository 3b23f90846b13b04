"""Who may do what: the one place that decides.

An :class:`Access` is what one actor holds in one game — owner, co-game-master, the seats it
holds, whether the game is public — and :meth:`Access.require` answers for each operation.
Every operation of :class:`~voevoda.service.Service` asks here before it reads or changes a
game; the front-ends (command line, web pages, JSON API, chat, the deadline worker) never decide
themselves.

| operation | who may |
|---|---|
| read (status, the public chronicle and map, the public export) | the game's members; anybody when the game is public; a group chat linked to the game |
| see as a player | that seat's holder (account or API token); the game masters |
| see as the game master | the game masters |
| post, check a post for a seat | that seat's holder; the game masters |
| resolve | the game masters; the deadline worker |
| roll back, reopen, edit, reveal, full export, seats and invitations, settings | the game masters |
| read a forum thread into posts, tie forum names to seats | the game masters |
| delete, name co-game-masters | the owner (and the command line) |
| a seat's API token | that seat's holder; the game masters |
| schedule, pause, resume, extend (docs/clock.md) | the game masters |
| ready (or not), a vacation for a seat | that seat's holder; the game masters |
| the worker's own work: claim due games, a computer's post for a missing seat, missed turns | the deadline worker (and the command line) |
| the game's notification channels (public, game master's), the delivery status | the game masters |
| a seat's own notification channels | that seat's holder (and the command line) |

The command line (:class:`~voevoda.service.actors.Operator`) is the game master of every game
and the owner of every game. A game that is not public does not exist for those outside it:
they get «not found», never «forbidden», so a private game's name tells nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.service.actors import Actor, Anonymous, Clock, Operator
from voevoda.service.errors import Forbidden, gm_only, not_found_game


class Op(StrEnum):
    READ = "read"
    POST = "post"
    RESOLVE = "resolve"
    ROLLBACK = "rollback"
    REOPEN = "reopen"
    EDIT = "edit"
    REVEAL = "reveal"
    EXPORT_FULL = "export-full"
    MANAGE = "manage"
    """Seats, invitations, settings: the game masters' housekeeping."""
    DELETE = "delete"
    NAME_CO_GM = "name-co-gm"
    TOKEN = "token"
    THREAD = "thread"
    """A forum thread read into posts, forum names tied to seats (docs/forum.md)."""
    SCHEDULE = "schedule"
    """Set a game's schedule and its policies (docs/clock.md)."""
    PAUSE = "pause"
    """Pause, resume or extend the open step's deadline, with a public reason."""
    READY = "ready"
    """Mark a seat ready (or not) for the open step."""
    VACATION = "vacation"
    """Plan a seat's absence."""
    TEND = "tend"
    """The deadline worker's own work: claim due games, post a computer's orders for a seat that
    missed its deadline, count missed turns."""
    NOTIFY = "notify"
    """The game's notification channels and their delivery status (docs/notify.md)."""
    NOTIFY_SEAT = "notify-seat"
    """A seat's own notification channels: its player's private e-mail or webhook."""


GM_OPERATIONS = frozenset({Op.ROLLBACK, Op.REOPEN, Op.EDIT, Op.REVEAL, Op.EXPORT_FULL, Op.MANAGE, Op.THREAD,
                           Op.SCHEDULE, Op.PAUSE, Op.NOTIFY})
SEAT_OPERATIONS = frozenset({Op.POST, Op.TOKEN, Op.READY, Op.VACATION, Op.NOTIFY_SEAT})
OWNER_OPERATIONS = frozenset({Op.DELETE, Op.NAME_CO_GM})


@dataclass(frozen=True)
class Access:
    """What ``actor`` holds in the game ``game``."""

    actor: Actor
    game: str
    owner: bool = False
    co_gm: bool = False
    seats: frozenset[str] = frozenset()
    public: bool = False
    linked: bool = False
    """A group chat the game master linked to this game (:class:`~voevoda.service.actors.ChatGroup`):
    it reads the public face of the game, like anybody reads a public game."""

    @property
    def is_gm(self) -> bool:
        return isinstance(self.actor, Operator) or self.owner or self.co_gm

    @property
    def is_owner(self) -> bool:
        return isinstance(self.actor, Operator) or self.owner

    @property
    def is_member(self) -> bool:
        return self.is_gm or bool(self.seats)

    def can(self, op: Op, player: str | None = None) -> bool:
        """Whether the actor may do ``op`` (for the seat ``player`` where it names one)."""
        if op is Op.READ:
            return self.is_member or self.public or self.linked
        if op is Op.NOTIFY_SEAT:  # a player's own address: not even the game masters set it for him
            return isinstance(self.actor, Operator) or (player is not None and player in self.seats)
        if op in SEAT_OPERATIONS:
            return self.is_gm or (player is not None and player in self.seats)
        if op is Op.TEND:
            return isinstance(self.actor, (Clock, Operator))
        if op is Op.RESOLVE:
            return self.is_gm or isinstance(self.actor, Clock)
        if op in GM_OPERATIONS:
            return self.is_gm
        if op in OWNER_OPERATIONS:
            return self.is_owner
        raise ValueError(f"unknown operation {op!r}")

    def require(self, op: Op, player: str | None = None) -> None:
        """Refuse ``op`` unless the actor may do it: «not found» for a game the actor may not
        even read, «forbidden» otherwise."""
        if self.can(op, player):
            return
        if not self.can(Op.READ):
            raise not_found_game(self.game)
        if op in SEAT_OPERATIONS:
            raise Forbidden(f"вы не можете действовать за игрока «{player}»",
                            f"you cannot act for the player '{player}'")
        if op in OWNER_OPERATIONS:
            raise Forbidden("это может только создатель игры", "only the game's owner can do this")
        raise gm_only()

    def viewers(self, players: list[str]) -> list[Viewer]:
        """Whose eyes the actor may look through, the actor's own first."""
        if self.is_gm:
            return [GM, *players, PUBLIC]
        own = [p for p in players if p in self.seats]
        return [*own, PUBLIC] if self.can(Op.READ) else []

    def default_viewer(self, players: list[str]) -> Viewer:
        """The actor's own eyes: its seat, or the game master's, or the public's."""
        if self.is_gm and not isinstance(self.actor, Operator):
            return GM
        own = [p for p in players if p in self.seats]
        if own:
            return own[0]
        return GM if self.is_gm else PUBLIC

    def require_viewer(self, viewer: Viewer) -> None:
        """Refuse to show ``viewer``'s eyes to an actor who may not look through them."""
        self.require(Op.READ)
        if viewer == PUBLIC or self.is_gm:
            return
        if viewer == GM:
            raise gm_only()
        if viewer not in self.seats:
            raise Forbidden(f"вы не можете смотреть глазами игрока «{viewer}»",
                            f"you cannot look through the eyes of the player '{viewer}'")


def anonymous_access(game: str, public: bool) -> Access:
    return Access(Anonymous(), game, public=public)


__all__ = ["GM_OPERATIONS", "OWNER_OPERATIONS", "SEAT_OPERATIONS", "Access", "Op", "anonymous_access"]
