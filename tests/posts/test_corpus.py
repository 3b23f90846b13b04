"""The corpus of real-looking posts (issue 17 «Posts in»): for every game, posts as players
write them on a forum, in Discord or in Telegram — greetings, signatures, the template's
headings, BBCode and Markdown, quotes and spoilers, typos, mixed case, empty lines — each with
what the game must understand of it. One generic test runs every file of ``corpus/``; a new
game adds ``corpus/<ruleset-id>.yaml`` (the format is in ``corpus/README.md``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from voevoda.core import outputs
from voevoda.core.engine import Game, Receipt
from voevoda.core.errors import OrdersRejected, Problem

CORPUS = Path(__file__).parent / "corpus"


def cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            out.append(pytest.param(path.stem, case, id=f"{path.stem}:{case['name']}"))
    return out


def start(ruleset: str, case: dict[str, Any]) -> Game:
    setup = case.get("game", {})
    game = Game.create(ruleset, "corpus", setup["players"], bots=setup.get("bots", []),
                       config=setup.get("config"), seed=str(setup.get("seed", "corpus")))
    for step in case.get("before", []):
        for player, text in step.items():
            game.submit(player, text)
        game.resolve(force=True)
    for text in case.get("earlier", []):
        game.post(case["player"], text)  # the player's posts of this step before the one checked
    return game


def matches(problems: list[Problem], want: dict[str, Any]) -> bool:
    return any(p.line == want["line"] and ("column" not in want or p.column == want["column"])
               and want["contains"].casefold() in (p.message_ru + " " + p.message_en).casefold()
               for p in problems)


@pytest.mark.parametrize(("ruleset", "case"), cases())
def test_post_is_understood_as_written_down(ruleset: str, case: dict[str, Any]) -> None:
    game = start(ruleset, case)
    player = case["player"]
    try:
        receipt: Receipt | None = game.check_post(player, case["post"])
        rejected = None
    except OrdersRejected as exc:
        receipt, rejected = None, exc
    if "status" in case:
        status = outputs.status_text(game, player)
        assert case["status"] in status.split("\n")[0], (case["rule"], status)
    if "echo" in case:
        echo = outputs.order_reply(game, player, case["post"], check=True)[1]
        for want in case["echo"]:
            assert want in echo, (case["rule"], echo)
    if rejected is not None:
        assert "problems" in case and case.get("stored") is not True, (
            case["rule"], [p.both() for p in rejected.problems])
        for want in case["problems"]:
            assert matches(rejected.problems, want), (case["rule"], [p.both() for p in rejected.problems])
        for p in rejected.problems:
            assert p.message_ru.strip() and p.message_en.strip()
        if "count" in case:
            assert len(rejected.problems) == case["count"], (case["rule"], [p.both() for p in rejected.problems])
        if "orders" in case:
            assert rejected.understood == case["orders"], case["rule"]
        if "prose" in case:
            assert [int(line.split(":", 1)[0]) for line in rejected.prose] == case["prose"], case["rule"]
        return
    assert receipt is not None
    assert case.get("stored") is not False, f"{case['rule']}: expected the whole post refused, got {receipt}"
    # a post that stands keeps its good lines: the refused ones are listed with their reasons
    for want in case.get("problems", []):
        assert matches(receipt.refused, want), (case["rule"], [p.both() for p in receipt.refused])
    if "count" in case:
        assert len(receipt.refused) == case["count"], (case["rule"], [p.both() for p in receipt.refused])
    if "problems" not in case:
        assert receipt.refused == [], (case["rule"], [p.both() for p in receipt.refused])
    assert [game.ruleset.describe(o, "ru") for o in receipt.orders] == case["orders"], case["rule"]
    if "prose" in case or "problems" not in case:
        assert [line.number for line in receipt.prose] == case.get("prose", []), (
            case["rule"], [(line.number, line.text) for line in receipt.prose])
    if "hidden" in case:
        assert set(case["hidden"]) <= set(receipt.hidden), case["rule"]
    got = [w.message_ru + " " + w.message_en for w in receipt.warnings]
    for want in case.get("warnings", []):
        assert any(want.casefold() in w.casefold() for w in got), (case["rule"], got)
    if "warnings" not in case:
        assert got == [], (case["rule"], got)
    notes = [n.message_ru + " " + n.message_en for n in receipt.notes]
    for want in case.get("notes", []):
        assert any(want.casefold() in n.casefold() for n in notes), (case["rule"], notes)
    if "follow_up" in case:
        assert (receipt.adds_to is not None) == case["follow_up"], case["rule"]
