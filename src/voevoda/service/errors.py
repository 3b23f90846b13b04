"""The service's refusals, each a :class:`~voevoda.core.errors.GameError` (a message in
Russian and English) that a front-end maps to its own form: the command line prints it and
exits with 1, the web answers 403, 404, 409 or 429 with the same words."""

from __future__ import annotations

from voevoda.core.errors import AlreadyDone, GameError


class Forbidden(GameError):
    """The actor may not do this (a player acting for another seat, a player resolving)."""


class NotFound(GameError):
    """No such game, invitation or token — or one the actor may not know of: a private game is
    «not found» for those outside it, so that its name tells nothing."""


class Conflict(AlreadyDone):
    """Already done: the step named was resolved or rolled back meanwhile, an invitation
    already used, a name already taken."""


class RateLimited(GameError):
    """Too many submissions or sign-in attempts in a short time."""

    def __init__(self, retry_after: float) -> None:
        seconds = max(1, round(retry_after))
        super().__init__(f"слишком много попыток: подождите {seconds} с",
                         f"too many attempts: wait {seconds} s")
        self.retry_after = seconds


def not_found_game(name: str) -> NotFound:
    return NotFound(f"нет игры «{name}»", f"no game named '{name}'")


def gm_only() -> Forbidden:
    return Forbidden("это может только ведущий игры", "only the game's game master can do this")


__all__ = ["Conflict", "Forbidden", "NotFound", "RateLimited", "gm_only", "not_found_game"]
