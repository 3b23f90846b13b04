"""Secrets cut in one place (DESIGN.md «Views»; issue «Core engine»: «A property test plays random
games and asserts that no player's view, report or map contains what that player may not see»).

For every installed ruleset with a computer opponent, Hypothesis picks a seed and a number of
steps; bots play; after each step every output made for each player (view JSON, report in every
format and language, SVG map, public export) is searched for the ruleset's hidden markers for
that player: the strings naming what that player may not see."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voevoda.core import registry
from voevoda.core.engine import Game
from voevoda.core.ruleset import PUBLIC, Ruleset


def leak_candidates() -> list[str]:
    """Every installed ruleset whose computer opponent can play all seats."""
    return [ruleset_id for ruleset_id, cls in registry.available().items() if cls.bot is not Ruleset.bot]


def outputs_for(game: Game, viewer: str) -> list[str]:
    texts = [json.dumps(game.view(viewer), ensure_ascii=False)]
    for fmt in ("text", "bbcode", "markdown"):
        for lang in ("ru", "en"):
            texts.append(game.report(viewer, None, fmt, lang))  # type: ignore[arg-type]
    for lang in ("ru", "en"):
        svg = game.map_svg(viewer, lang)
        if svg:
            texts.append(svg)
    if viewer == PUBLIC:
        texts.append(json.dumps(game.export(public=True), ensure_ascii=False))
    return texts


def assert_no_leak(game: Game) -> None:
    for viewer in [*game.record.players, PUBLIC]:
        markers = game.ruleset.hidden_markers(game.state, viewer)
        for text in outputs_for(game, viewer):
            leaked = [m for m in markers if m in text]
            assert not leaked, f"{game.record.ruleset}: {viewer} can see {leaked[:5]}"


@pytest.mark.parametrize("ruleset_id", leak_candidates())
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text(min_size=1, max_size=12), steps=st.integers(min_value=1, max_value=6))
def test_no_output_shows_a_player_what_they_may_not_see(ruleset_id: str, seed: str, steps: int) -> None:
    cls = registry.get(ruleset_id)
    players = [f"P{i}" for i in range(max(3, cls.min_players))][: cls.max_players]
    game = Game.create(ruleset_id, "leak", players, bots=players, seed=seed)
    assert_no_leak(game)
    for _ in range(steps):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
        assert_no_leak(game)


def test_the_leak_test_finds_a_planted_leak() -> None:
    """The search itself works: a view that shows another pile's secret name is caught."""
    game = Game.create("toy-twenty", "leak", ["A", "B"], seed="plant")
    original = game.ruleset.view

    def leaky(state, viewer):  # type: ignore[no-untyped-def]
        view = original(state, viewer)
        view["pile_names"] = dict(state["pile_names"])
        return view

    game.ruleset.view = leaky  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="can see"):
        assert_no_leak(game)
