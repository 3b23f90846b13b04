"""What one receiver reads of one announcement, built from its own view.

A receiver is a destination's eyes: the game's public channel reads as ``public``, the game
master's channel as the game master, a seat's channel as that seat's player — through
:meth:`voevoda.service.Service.sight` with the account that set it, so a player who has lost the
seat gets nothing. The message itself is made by :func:`voevoda.core.notices.compose`, the same
function the ``notification`` output channel calls (walked by the non-interference test).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from voevoda.core.errors import GameError
from voevoda.core.notices import Content, Receiver, compose
from voevoda.core.ruleset import GM, PUBLIC

if TYPE_CHECKING:
    from voevoda.service import Service
    from voevoda.service.actors import Actor
    from voevoda.service.sight import Sight

def _sight(service: Service, game: str, receiver: Receiver) -> Sight:
    """The receiver's view; :class:`GameError` (forbidden, not found) when it may no longer look."""
    from voevoda.service.actors import OPERATOR

    actor: Actor = OPERATOR
    if receiver.account_id is not None and receiver.scope != "public":
        actor = _account(service, receiver.account_id)
    viewer = PUBLIC if receiver.scope == "public" else GM if receiver.scope == "gm" else receiver.player
    return service.sight(actor, game, viewer)


def _account(service: Service, account_id: int) -> Actor:
    from voevoda.service.errors import NotFound
    from voevoda.service.people import _person
    from voevoda.store.models import AccountRow

    with service.store.reads() as session:
        row = session.get(AccountRow, account_id)
        if row is None:
            raise NotFound("учётной записи больше нет", "the account no longer exists")
        return _person(row)


def build(service: Service, game: str, kind: str, step: int | None, payload: dict[str, Any],
          receiver: Receiver) -> Content | None:
    """What ``receiver`` reads of an announcement; ``None`` when it has nothing for it (a seat's
    channel whose player lost the seat; a reminder of a step resolved meanwhile)."""
    try:
        sight = _sight(service, game, receiver)
    except GameError:
        return None
    return compose(sight, game, kind, step, payload, receiver)


__all__ = ["Content", "Receiver", "build"]
