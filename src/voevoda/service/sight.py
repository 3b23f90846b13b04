"""A game as one viewer may see it.

:meth:`voevoda.service.Service.sight` decides whose eyes an actor may look through
(:mod:`voevoda.service.access`) and hands back a :class:`Sight`: the game bound to that one
viewer. Every output a front-end gives — status, the readable outline, the view as JSON, the
report of any turn in any format, the map, the public export — is one of its methods, each a
channel of :mod:`voevoda.core.outputs` called with the bound viewer. A front-end holding a
Sight cannot ask for another viewer's output: the game itself is not handed out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from voevoda.core import outputs
from voevoda.core.ruleset import GM, PUBLIC, Viewer

if TYPE_CHECKING:
    from voevoda.core.chat import ChatMessage
    from voevoda.core.engine import Game
    from voevoda.core.standing import Standing
    from voevoda.service.access import Access


T = TypeVar("T")


class Sight:
    """The game ``game`` seen by ``viewer`` (chosen and checked by the service)."""

    def __init__(self, game: Game | Standing, viewer: Viewer, access: Access, *, public: bool = False,
                 timezone: str = "UTC", memo: dict[Any, Any] | None = None, game_id: int | None = None) -> None:
        self._game = game
        self.game_id = game_id
        """The game's row in the database, as the access read saw it (``None`` when not read)."""
        self.viewer = viewer
        self.access = access
        self.public = public
        self.timezone = timezone
        self._memo = memo
        """Outputs already rendered from this very game (the service's cache of its version):
        each is a pure function of the game, the viewer and the parameters."""

    def _kept(self, key: tuple[Any, ...], render: Callable[[], T]) -> T:
        if self._memo is None:
            return render()
        key = (self.viewer, *key)
        if key not in self._memo:
            self._memo[key] = render()
        found: T = self._memo[key]
        return found

    def rendered(self, key: tuple[Any, ...], render: Callable[[], T], *, over_posts: bool = False) -> T:
        """What a front-end renders of this sight's outputs (a page's blocks), kept with them for
        this version of the game and this viewer under ``key``, which must name everything else
        the rendering depends on (the language, what the visitor holds in the game). With
        ``over_posts`` it is kept over versions that only add posts: only for what is rendered of
        the reports and of the turn's facts (turn, phase, step), which no post changes."""
        return self._kept(("rendered-over-posts" if over_posts else "rendered", *key), render)

    # -- facts anybody who may look at the game may know ----------------------------------------

    @property
    def name(self) -> str:
        return self._game.record.name

    @property
    def ruleset_id(self) -> str:
        return self._game.record.ruleset

    @property
    def players(self) -> list[str]:
        return list(self._game.record.players)

    @property
    def bots(self) -> list[str]:
        return list(self._game.record.bots)

    @property
    def step_number(self) -> int:
        return self._game.step_number

    @property
    def revealed(self) -> bool:
        """Whether the game's secret is published (then every export is the whole game)."""
        return bool(getattr(self._game, "revealed", False))

    def step_digest(self, number: int) -> str:
        """The public record digest of resolved step ``number`` (what a notification of it is
        keyed by)."""
        steps = self._replayed().steps
        if not 1 <= number <= len(steps):
            from voevoda.core.errors import GameError

            raise GameError(f"шаг {number} не рассчитан", f"step {number} is not resolved")
        return steps[number - 1].digest

    @property
    def is_gm(self) -> bool:
        return self.viewer == GM

    def viewers(self) -> list[Viewer]:
        """Whose eyes this actor may switch to."""
        return self.access.viewers(self.players)

    def has_map(self) -> bool:
        """Whether the game draws maps at all."""
        from voevoda.core.ruleset import Ruleset

        return type(self._game.ruleset).map_svg is not Ruleset.map_svg

    def dashboard(self) -> outputs.Dashboard:
        return self._kept(("dashboard",), lambda: outputs.dashboard(self._game, self.viewer))

    # -- the channels of core/outputs.py, for this viewer -------------------------------------

    def status(self) -> str:
        return self._kept(("status",), lambda: outputs.status_text(self._game, self.viewer))

    def show(self) -> str:
        return self._kept(("show",), lambda: outputs.show_text(self._game, self.viewer))

    def view_json(self) -> str:
        return self._kept(("view",), lambda: outputs.show_json(self._game, self.viewer))

    def turns(self) -> list[int]:
        """The turns that have a report."""
        return self._replayed().turns_resolved()

    def report(self, turn: int | None = None, fmt: str = "text", lang: str = "ru", flavour: str | None = None) -> str:
        return self._kept(("report", turn, fmt, lang, flavour),
                          lambda: outputs.report_text(self._replayed(), self.viewer, turn, fmt, lang, flavour))

    def map_svg(self, lang: str = "ru", turn: int | None = None) -> str | None:
        return self._kept(("map", lang, turn), lambda: outputs.map_svg(self._replayed(), self.viewer, lang, turn))

    def map_png(self, lang: str = "ru", turn: int | None = None, zoom: float = 1.0) -> bytes | None:
        return outputs.map_png(self._replayed(), self.viewer, lang, turn, zoom)

    def public_export(self) -> dict[str, Any]:
        """The public record (what ``voevoda export`` writes without ``--full``): the same for
        every viewer."""
        return outputs.export_data(self._replayed(), PUBLIC)

    def export_text(self) -> str:
        """``voevoda export``'s file for this viewer: the full game for the game master, the
        public record for everyone else."""
        return outputs.export_text(self._replayed(), self.viewer)

    # -- the chat's messages (the ``telegram …`` channels, laid out by voevoda.core.chat) ----------

    def chat_status(self, lang: str = "ru") -> list[ChatMessage]:
        return outputs.chat_status(self._game, self.viewer, lang)

    def chat_report(self, turn: int | None = None, lang: str = "ru") -> list[ChatMessage]:
        return outputs.chat_report(self._replayed(), self.viewer, turn, lang)

    def chat_map(self, lang: str = "ru", turn: int | None = None) -> list[ChatMessage]:
        return outputs.chat_map(self._replayed(), self.viewer, lang, turn)

    def chat_push(self, lang: str = "ru", step: int | None = None) -> list[ChatMessage]:
        return outputs.chat_push(self._replayed(), self.viewer, lang, step)

    def standing_post(self) -> outputs.StandingPost | None:
        """The post standing in the open step for the seat this sight looks through, for that
        seat's holder and the game masters (who look through it with ``?as=``)."""
        if self.viewer in (GM, PUBLIC):
            return None
        return outputs.standing_post(self._replayed(), GM if self.access.is_gm else self.viewer, self.viewer)

    def chat_reminder(self, lang: str = "ru", deadline: str = "") -> list[ChatMessage]:
        return outputs.chat_reminder(self._game, self.viewer, lang, deadline)

    def _replayed(self) -> Game:
        from voevoda.core.engine import Game

        game = self._game
        if not isinstance(game, Game):
            raise TypeError("this sight was read without replaying the journal: only status and show")
        return game

    def __repr__(self) -> str:
        return f"Sight({self.name!r}, viewer={self.viewer!r})"


__all__ = ["Sight"]
