"""How a ruleset states what each viewer may not see, so that it can be proved never to leak.

The non-interference test (``tests/core/test_noninterference.py``) plays games of every ruleset
and, at every step, builds pairs of games that differ only in what a viewer may not see; every
output that viewer can reach (:data:`voevoda.core.outputs.CHANNELS`) must be byte-identical in
the two. What may be varied is the ruleset's to say, through :meth:`Ruleset.hidden_parts`, which
returns a :class:`HiddenParts`:

- :meth:`HiddenParts.state_variations`: changes of the current state in what a viewer may not
  see now (another player's money, units in fog, an offer under negotiation,
  the other side's deployment before it is revealed);
- :meth:`HiddenParts.config_variations`: changes of the config in what a viewer may not see
  (Steel Rose: the other side's army);
- :meth:`HiddenParts.posts`: other posts a player could send now (another player's orders are
  always hidden until they are resolved; the test also tries the computer opponent's post);
- :meth:`HiddenParts.plant` and :meth:`HiddenParts.plant_posts`: a distinctive number put where a
  viewer may not see it (money, tax, a sealed bid); no output for that viewer may show it in any of
  the forms reports write numbers;
- :meth:`HiddenParts.pairs`: named pairs of games, played through resolutions, that the rules say
  look the same to a viewer (a battle in the fog, a rival's desertion, a losing sealed bid);
- :meth:`HiddenParts.sealed_phases`: the phases whose posts are sealed (a Clash of Kings bid):
  the test's games must reach each of them and vary another player's post there.

Every variation names the row of the game's visibility table in ``docs/engine.md`` that allows it
(``what``); the test checks that each row hidden from a role is varied for that role, and that no
variation is outside the table. A ruleset writes its ``HiddenParts`` next to itself (for example
``rulesets/ring_of_power/hidden.py``); the default, ``None``, fails the test, with a message
pointing here.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.ruleset import PUBLIC, State, Viewer

POSTS = "orders"
"""The row every game's table has: another player's posts before they are resolved."""


@dataclass(frozen=True)
class Variation:
    """A change of a state (or config) in what a viewer may not see."""

    what: str
    """The key of the row of the game's visibility table (docs/engine.md) that hides it."""
    change: Callable[[dict[str, Any]], object]
    """Changes a state (or config) in place; called on a deep copy (:meth:`apply`)."""

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A deep copy of ``data`` with the change made."""
        new = copy.deepcopy(dict(data))
        self.change(new)
        return new


@dataclass(frozen=True)
class Setting:
    """The players and config of the games the test plays."""

    players: tuple[str, ...]
    config: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pair:
    """Two games that must look the same to ``viewer`` at every step.

    Both start from the setting's initial state, changed by ``prepare(state, "a")`` and
    ``prepare(state, "b")``; then, step by step, the posts of ``posts_a`` and ``posts_b`` are
    sent (the viewer's own posts must be the same in both), the step's edit (``edits``) is made
    and the step is resolved. The test compares every output for ``viewer`` before and after
    each post, each edit and each resolution."""

    name: str
    rule: str
    """The rule (document and section, or ruling) that says the viewer may not tell them apart."""
    viewer: Viewer
    setting: Setting
    prepare: Callable[[State, str], State]
    posts_a: tuple[Mapping[str, str], ...]
    posts_b: tuple[Mapping[str, str], ...]
    revealed: bool = False
    """The last step's resolution reveals what the two games differ in (a bribe's stake and
    guesses are public once rolled, a battle's deployments once both are in): that step is
    compared after every post, and not after it is resolved."""
    edits: tuple[tuple[list[dict[str, Any]], str] | None, ...] = ()
    """Per step, a game master's edit of the state (a JSON Patch and its reason,
    ``Game.edit``) made in both games after the step's posts and before its resolution; an edit
    is public, so it is the same in both (what it does to a standing post may differ: an order
    that it leaves void at resolution)."""


class HiddenParts:
    """A ruleset's statement of what it hides; the defaults vary nothing beyond posts."""

    def setting(self, min_players: int, max_players: int) -> Setting:
        """The players and config of a test game (three players where the game allows)."""
        count = min(max(3, min_players), max_players)
        return Setting(tuple(f"P{i + 1}" for i in range(count)))

    def config_variations(self, config: Mapping[str, Any], players: Sequence[str], viewer: Viewer,
                          rnd: random.Random) -> list[Variation]:
        """Changes of ``config`` in what ``viewer`` may not see."""
        return []

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        """Changes of ``state`` in what ``viewer`` may not see now, one per table row it can vary
        (each may draw from ``rnd`` when it is applied)."""
        return []

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        """Changes of ``state`` that put ``value`` where ``viewer`` may not see it."""
        return []

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """Other posts ``player`` could send now, written from his view."""
        return []

    def first_posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """Posts tried before the computer opponent's and :meth:`posts` (which are tried in a
        random order): the one that leads the test's game to a sealed step it must reach."""
        return []

    def plant_posts(self, view: Mapping[str, Any], player: str, value: int) -> list[str]:
        """Posts ``player`` could send now that carry ``value`` (a sealed bid, a transfer): until
        they are resolved no other viewer may see it."""
        return []

    def pairs(self) -> list[Pair]:
        """Named pairs of games that must look the same to a viewer through resolutions."""
        return []

    def sealed_phases(self) -> tuple[str, ...]:
        """The phases (as ``Ruleset.progress`` names them) whose posts are sealed until they are
        resolved, which the test's games must reach: another player's post is varied there."""
        return ()


def others(state_players: Sequence[str], viewer: Viewer) -> list[str]:
    """The players whose secrets ``viewer`` may not see: everyone for ``public``."""
    return [p for p in state_players if viewer == PUBLIC or p != viewer]


__all__ = ["POSTS", "HiddenParts", "Pair", "Setting", "Variation", "others"]
