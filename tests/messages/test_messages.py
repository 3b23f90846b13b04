"""The messages corpus (issue 30, item 8): every kind of message of every game — prompt, echo,
refusal, warning, report line, chronicle line, the outline of `show` — written in Russian from
scripted games whose players decline unusually, compared with the reviewed text in
``golden/<ruleset-id>.txt``. A message that changes, or a new one a scenario reaches, fails here
until the golden text is written anew (``VOEVODA_REGOLD=1``) and the difference read through; an
event kind a game's code creates that no scenario reaches must be named in its scenario's
``unreached`` list, so that a new kind of report line cannot enter unread either
(tests/messages/README.md)."""

from __future__ import annotations

import difflib
import os
from functools import cache
from pathlib import Path

import pytest

from tests.messages.corpus import GOLDEN, Written, kinds_in_source, rulesets, scenario, text_of, write
from voevoda.core.words import Names

SOURCES = {"ring-of-power": ["ring_of_power"], "culture-conquest": ["culture_conquest"],
           "steel-rose-battle": ["steel_rose/ruleset.py", "steel_rose/battle"], "steel-rose": ["steel_rose/campaign"],
           "new-worlds": ["new_worlds"], "thrones": ["thrones"]}
"""Where each game's code creates its events."""
RULESETS = Path(__file__).resolve().parents[2] / "src" / "voevoda" / "rulesets"


@cache
def written(ruleset_id: str) -> Written:
    return write(ruleset_id)


@pytest.mark.parametrize("ruleset_id", rulesets())
def test_every_message_reads_as_the_reviewed_text(ruleset_id: str) -> None:
    text = text_of(written(ruleset_id))
    path = GOLDEN / f"{ruleset_id}.txt"
    if os.environ.get("VOEVODA_REGOLD") == "1":
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "\n".join(list(difflib.unified_diff(expected.splitlines(), text.splitlines(), "golden", "now",
                                                   lineterm="", n=1))[:60])
        pytest.fail(f"{ruleset_id}: the messages changed; read the difference, then VOEVODA_REGOLD=1:\n{diff}")


@pytest.mark.parametrize("ruleset_id", rulesets())
def test_every_event_kind_is_in_the_corpus_or_named_as_unreached(ruleset_id: str) -> None:
    """A new kind of event (a new report line) must enter the corpus, or be named in the
    scenario's ``unreached`` list with the reason no scenario reaches it yet."""
    kinds: set[str] = set()
    for part in SOURCES[ruleset_id]:
        path = RULESETS / part
        kinds |= kinds_in_source(path, ["Event", "emit", "event", "news"]) if path.is_dir() else kinds_in_source(
            path.parent, ["Event", "emit", "event", "news"], [path.name])
    assert kinds, ruleset_id
    unreached = set(scenario(ruleset_id).get("unreached") or {})
    missing = kinds - written(ruleset_id).event_kinds
    assert missing == unreached, (f"reach these in the scenario or name them under «unreached»: "
                                  f"{sorted(missing - unreached)}; reached now, drop from «unreached»: "
                                  f"{sorted(unreached - missing)}")


def test_the_corpus_names_players_who_decline_unusually() -> None:
    """«players of both genders and names that decline unusually (Любовь, Никита, Илья, Саша, a
    two-word country, a Latin nickname)»: every scenario has players of both genders, and together
    they hold every one of those names."""
    seen: set[str] = set()
    for ruleset_id in rulesets():
        game = scenario(ruleset_id)["game"]
        names = Names(game.get("config", {}).get("genders"))
        genders = {names.gender(p) for p in game["players"]}
        assert {"m", "f"} <= genders, (ruleset_id, game["players"])
        seen |= set(game["players"])
    assert {"Любовь", "Никита", "Илья", "Саша", "Dragon77", "Северная Марка"} <= seen
