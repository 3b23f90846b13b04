"""A stored game as it stands, read without replaying its journal.

``voevoda status`` and ``voevoda show`` print the current state as a viewer sees it, who is
awaited and who has posted. The store commits the state with every change of the journal, in the
same transaction, with its hash (``games.state``, ``games.state_hash``): replaying the whole
journal to print it again cost a long game more than the whole answer may (issue 17 «The command
line»: «`voevoda status` answers in under 0.3 s»). A :class:`Standing` is built from that
committed state instead, and the posts standing in the current step from the journal's tail.

It is only built when it is certainly what the replay would give; otherwise :func:`standing`
answers ``None`` and the caller replays the journal (:class:`~voevoda.core.engine.Game`):

- the state's hash must match (a state damaged in the database is never printed);
- the state must keep the engine's order of keys (:func:`~voevoda.core.journal.stored_json`),
  which outputs follow: a state committed in the canonical form (keys sorted, as the store wrote
  it before) has lost it, and is replayed — so is, at no harm but the time, one whose keys the
  engine happened to make in sorted order everywhere;
- the state must be the one written after the journal as read (its step and its number of
  entries agree with the journal);
- the ruleset must be the version the game was created with (another version may resolve the
  journal into another state);
- no rollback may stand after the last resolution: the posts it brings back are those of the
  rolled-back step, which only the replay knows.

The viewer's cut is the engine's own: :meth:`Standing.view` is the ruleset's ``view`` of the
state, exactly as :meth:`Game.view` is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from voevoda.core import registry
from voevoda.core.dice import HashChain
from voevoda.core.engine import check_viewer, find_player
from voevoda.core.errors import GameError
from voevoda.core.journal import GameRecord, canonical_json, state_hash
from voevoda.core.ruleset import Ruleset, State, Viewer


@dataclass
class Standing:
    """The committed state of a game with what ``status`` and ``show`` read of its journal."""

    record: GameRecord
    ruleset: Ruleset
    state: State
    step_number: int
    """How many steps have been resolved (as :attr:`Game.step_number`)."""
    pending: frozenset[str]
    """The players whose post stands in the current step (the keys of :attr:`Game.pending`)."""

    def view(self, viewer: Viewer) -> dict[str, object]:
        check_viewer(viewer, self.record.players)
        return self.ruleset.view(self.state, viewer)

    def find_player(self, name: str, *, viewers: bool = False) -> str:
        return find_player(name, self.record.players, viewers=viewers)


def _tail(record: GameRecord) -> tuple[int, frozenset[str]] | None:
    """The number of resolved steps and the players whose post stands now, read from the
    journal's entries as replay applies them; ``None`` when a rollback stands after the last
    resolution."""
    steps = 0
    pending: set[str] = set()
    rolled_back = False
    for entry in record.entries:
        if entry.kind == "submit" and entry.player is not None:
            pending.add(entry.player)  # a second post of a step replaces the first
        elif entry.kind == "resolve":
            steps += 1
            pending = set()
            rolled_back = False
        elif entry.kind == "rollback":
            steps -= 1
            rolled_back = True
        # an edit, a reopening or the reveal changes no post that stands
    return None if rolled_back else (steps, frozenset(pending))


def standing(record: GameRecord, state_text: str, stored_hash: str, step: int, entry_count: int) -> Standing | None:
    """The game of ``record`` as it stands after its committed state ``state_text`` (with its
    hash, step and number of journal entries as the store keeps them), or ``None`` when it must
    be replayed (see the module's docstring)."""
    if entry_count != len(record.entries):
        return None
    try:
        state = json.loads(state_text)
    except ValueError:
        return None
    if not isinstance(state, dict) or state_hash(state) != stored_hash or state_text == canonical_json(state):
        return None
    tail = _tail(record)
    if tail is None or tail[0] != step:
        return None
    ruleset = registry.configure(record.ruleset, record.config, record.house_rules)
    if ruleset.version != record.ruleset_version:
        return None
    if HashChain(bytes.fromhex(record.secret), record.chain_length).commitment != record.commitment:
        raise GameError("обязательство игры не совпадает с её секретом",
                        "the game's commitment does not match its secret")
    return Standing(record, ruleset, state, step, tail[1])


__all__ = ["Standing", "standing"]
