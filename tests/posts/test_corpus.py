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

from voevoda.core.engine import Game, Receipt
from voevoda.core.errors import OrdersRejected

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
    return game


@pytest.mark.parametrize(("ruleset", "case"), cases())
def test_post_is_understood_as_written_down(ruleset: str, case: dict[str, Any]) -> None:
    game = start(ruleset, case)
    player = case["player"]
    try:
        receipt: Receipt | None = game.check_post(player, case["post"])
        rejected = None
    except OrdersRejected as exc:
        receipt, rejected = None, exc
    if "problems" in case:
        assert rejected is not None, f"{case['rule']}: expected a refusal, got {receipt}"
        for want in case["problems"]:
            assert any(p.line == want["line"] and ("column" not in want or p.column == want["column"])
                       and want["contains"].casefold() in (p.message_ru + " " + p.message_en).casefold()
                       for p in rejected.problems), (case["rule"], [p.both() for p in rejected.problems])
        for p in rejected.problems:
            assert p.message_ru.strip() and p.message_en.strip()
        if "count" in case:
            assert len(rejected.problems) == case["count"], (case["rule"], [p.both() for p in rejected.problems])
        if "orders" in case:
            assert rejected.understood == case["orders"], case["rule"]
        if "prose" in case:
            assert [int(line.split(":", 1)[0]) for line in rejected.prose] == case["prose"], case["rule"]
        return
    assert rejected is None, (case["rule"], [p.both() for p in rejected.problems])
    assert receipt is not None
    assert [game.ruleset.describe(o, "ru") for o in receipt.orders] == case["orders"], case["rule"]
    assert [line.number for line in receipt.prose] == case.get("prose", []), (
        case["rule"], [(line.number, line.text) for line in receipt.prose])
    if "hidden" in case:
        assert set(case["hidden"]) <= set(receipt.hidden), case["rule"]
    got = [w.message_ru + " " + w.message_en for w in receipt.warnings]
    for want in case.get("warnings", []):
        assert any(want.casefold() in w.casefold() for w in got), (case["rule"], got)
    if "warnings" not in case:
        assert got == [], (case["rule"], got)
