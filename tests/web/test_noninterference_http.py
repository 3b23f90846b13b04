"""Issue 25, «Security»: «Every HTTP response is an output channel: the non-interference test runs
over HTTP too, as every role, through the same list of channels in core/outputs.py (pages,
fragments, API, files, the dice page's data)». The sweep of tests/core/noninterference.py, walking
only the web app's channels (src/voevoda/web/channels.py): a player's browser, and a spectator's,
get byte-identical responses from two games that differ only in what that viewer may not see."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.core import noninterference as ni
from tests.core.test_noninterference import RULESETS
from voevoda.core import outputs
from voevoda.web import channels


@pytest.fixture()
def web_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    original = outputs.CHANNELS
    channels.register()
    monkeypatch.setattr(outputs, "CHANNELS", {name: original[name] for name in channels.NAMES})
    yield
    for name in channels.NAMES:
        original.pop(name, None)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_browser_cannot_tell_apart_games_that_differ_only_in_what_its_viewer_may_not_see(
        ruleset_id: str, web_only: None) -> None:
    result = ni.sweep(ruleset_id, ni.SEEDS[0], states=1)
    assert result.compared > 0


def test_the_http_sweep_catches_a_page_that_shows_every_prompt(web_only: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a game's page that told everyone every seat's prompt (Ring of Power's carries
    the treasury) is caught over HTTP — the pages, fragments and API answers are compared."""
    real = outputs.dashboard

    def everyones(game, viewer):  # type: ignore[no-untyped-def]
        return real(game, "gm")

    monkeypatch.setattr(outputs, "dashboard", everyones)
    game = ni.moments("ring-of-power", ni.SEEDS[1], 1)[0].game
    other = ni.fork(game)
    other.state["players"]["Борис"]["money"] += 17
    with pytest.raises(AssertionError, match="web page"):
        ni.compare_now(game, other, "Анна", "planted")
    monkeypatch.setattr(outputs, "dashboard", real)
    ni.compare_now(game, other, "Анна", "the real pages")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_page_of_a_played_game_hides_the_same(ruleset_id: str) -> None:
    """At a moment of a played game with a past turn, every page, file and API resource a viewer
    can ask for (the thorough list, past turns included: maps, reports as text, the export) is
    the same in two games that differ only in what the viewer may not see."""
    moments = [m for m in ni.moments(ruleset_id, ni.SEEDS[0]) if m.game.steps]
    moment = moments[len(moments) // 2] if moments else ni.moments(ruleset_id, ni.SEEDS[0])[0]
    rnd = random.Random(f"pages/{ruleset_id}")
    compared = 0
    for viewer in ni.viewers(moment.game):
        for why, other in ni.variations_at(moment.game, viewer, rnd, 1):
            mask_a, mask_b = ni.masks(moment.game, other, viewer)
            a = {url: channels.page(moment.game, viewer, url) for url in channels.all_pages(moment.game, viewer)}
            b = {url: channels.page(other, viewer, url) for url in channels.all_pages(other, viewer)}
            found = ni.difference(ni.masked(a, mask_a), ni.masked(b, mask_b))
            assert found is None, f"{ruleset_id}, {why}: {viewer} can tell the games apart:\n{found}"
            compared += 1
    assert compared > 0
