"""Ring of Power under the core engine: bots play whole games, replay matches, dice verify,
and the markers the generic leak test searches for really name hidden things."""

from __future__ import annotations

import json

from tests.rulesets.ring_of_power.rop_helpers import make_game
from voevoda.core.engine import Game
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import GM, PUBLIC

PLAYERS = ["Анна", "Борис", "Вера"]


def test_engine_plays_a_whole_bot_game_and_replays_it() -> None:
    """DESIGN «Events»: «A game is its setup, its secret and the ordered orders; ... replay must
    reproduce the stored state exactly» — with computer opponents in every seat
    (003: «Побеждает ... кто первым собирает Кольцо Власти», or the turn limit)."""
    game = Game.create("ring-of-power", "rop", PLAYERS, bots=PLAYERS, config={"max_turns": 30},
                       seed="engine", auto_resolve=True)
    assert game.outcome() is not None
    again = Game(game.record)
    assert canonical_json(again.state) == canonical_json(game.state)
    for viewer in [*PLAYERS, PUBLIC, GM]:
        for fmt in ("text", "bbcode", "markdown"):
            assert game.report(viewer, None, fmt, "ru")  # type: ignore[arg-type]
        assert (game.map_svg(viewer) or "").startswith("<svg")


def test_markers_name_what_is_hidden() -> None:
    """003 «Видимость»: the markers for a player are found in the game master's outputs (so
    a leak would be caught) and never in that player's own."""
    ruleset, state = make_game(("A", "B"), holdings={"0505": "A", "1515": "B"},
                               units=[["A", "officer", "0505"], ["B", "queen", "1516"]],
                               fog=["0909"], chupacabras=["0909"])
    markers = ruleset.hidden_markers(state, "A")
    assert markers and ruleset.hidden_markers(state, GM) == []
    gm_out = json.dumps(ruleset.view(state, GM), ensure_ascii=False) + (ruleset.map_svg(ruleset.view(state, GM), GM) or "")
    own_view = ruleset.view(state, "A")
    own_out = json.dumps(own_view, ensure_ascii=False) + (ruleset.map_svg(own_view, "A") or "")
    found = [m for m in markers if m in gm_out]
    assert any("1516" in m for m in found) and any("1515" in m for m in found) and any("chupacabra" in m for m in found)
    assert not [m for m in markers if m in own_out]


def test_a_report_is_headed_with_the_turn_it_covers() -> None:
    """A report for turn N says «ход N» even when the viewer saw nothing happen in it."""
    from voevoda.core.engine import Game

    game = Game.create("ring-of-power", "heads", ["Анна", "Борис"], bots=["Анна", "Борис"], seed="heads")
    for _ in range(3):
        game.resolve()
    for turn in (1, 2, 3):
        assert f"Кольцо Власти, ход {turn}: летопись" in game.report("public", turn)
        assert f"Ring of Power, turn {turn}: report for Анна" in game.report("Анна", turn, lang="en")
