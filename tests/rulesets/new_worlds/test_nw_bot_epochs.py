"""A whole game of computer players crosses the epochs by the document's own conditions
(document 000, «Эвенты и смена Веков»): the bots settle, build, trade, sign pacts and an
alliance, and fight the Sea Peoples together until they are expelled.

Checked turn by turn on the engine path (every post written by a bot, read, checked and
resolved): the Iron Age opens on the first turn a player has «5 городов», «40 подконтрольных
территорий» and «минимум 1 точку Бронзы», and not before; Antiquity opens on the turn the Sea
Peoples hold no land on the continent they landed on («При полном захвате территорий Морских
Народов на континенте, начинается век Античности»), and not before.
"""

from __future__ import annotations

from typing import Any

import pytest

from voevoda.core.engine import Game

PLAYERS = ["Анна", "Борис", "Вера"]
TURNS = 20


def _meets_iron_age(state: dict[str, Any], player: str) -> bool:
    """«Иметь 5 городов», «Иметь 40 подконтрольных территорий», «Контролировать минимум 1 точку
    Бронзы» — counted from the raw state: land tiles (not sea, not mountains) and cities."""
    terrain = state["map"]["terrain"]

    def is_land(tile: str) -> bool:
        letters = "".join(ch for ch in tile if ch.isalpha())
        x = ord(letters[0]) - 65 if len(letters) == 1 else (ord(letters[0]) - 64) * 26 + ord(letters[1]) - 65
        y = int(tile[len(letters):]) - 1
        return terrain[y][x] == "."

    tiles = {t: v for t, v in state["tiles"].items() if v.get("owner") == player}
    land = [t for t in tiles if is_land(t)]
    cities = [t for t, v in tiles.items() if v.get("city") is not None]
    bronze = [t for t, r in state["deposits"].items() if r == "bronze" and t in tiles]
    return len(cities) >= 5 and len(land) >= 40 and bool(bronze)


def _sea_peoples_on_their_continent(game: Game) -> int:
    ruleset = game.ruleset
    world = ruleset.world(game.state)  # type: ignore[attr-defined]
    sp = game.state["events"]["sea_peoples"]
    if sp["country"] is None or sp["country"] not in game.state["countries"]:
        return 0
    return sum(1 for t in world.land_set(sp["country"]) if world.grid.continent(t) == sp["continent"])


@pytest.fixture(scope="module")
def history() -> list[dict[str, Any]]:
    """Per turn: the epoch after it, the epoch events, who met the Iron Age's conditions, the
    Sea Peoples' land on their continent, and the kinds of events."""
    game = Game.create("new-worlds", "epochs", PLAYERS, bots=PLAYERS, seed="a")
    out = []
    for _ in range(TURNS):
        game.resolve(force=True)
        events = game.steps[-1].events
        out.append({
            "turn": game.state["turn"] - 1,
            "epoch": game.state["epoch"],
            "opened": [dict(e.data) for e in events if e.kind == "epoch"],
            "iron_ready": [p for p in PLAYERS if _meets_iron_age(game.state, p)],
            "sea_peoples": game.state["events"]["sea_peoples"]["status"],
            "sea_peoples_land": _sea_peoples_on_their_continent(game),
            "kinds": {e.kind for e in events},
            "treaties": [dict(e.data) for e in events if e.kind == "treaty_signed"],
            "submissions": {s.source for s in game.steps[-1].submissions.values()},
        })
    return out


def test_the_iron_age_opens_by_its_conditions(history: list[dict[str, Any]]) -> None:
    """000 «Эвенты, 1»: «Для начала Железного века, как минимум одному игроку необходимо
    выполнить все условия: Иметь 5 городов; Иметь 40 подконтрольных территорий; Контролировать
    минимум 1 точку Бронзы» — the epoch opens on the first turn somebody meets all three, by
    that player, and never while nobody does."""
    opened = [h for h in history if any(o["epoch"] == "iron" for o in h["opened"])]
    assert len(opened) == 1
    turn = opened[0]
    by = next(o["by"] for o in turn["opened"] if o["epoch"] == "iron")
    assert by in turn["iron_ready"]
    for earlier in history[: history.index(turn)]:
        assert earlier["iron_ready"] == [], earlier["turn"]
        assert earlier["epoch"] == "bronze"


def test_antiquity_opens_when_the_sea_peoples_are_expelled(history: list[dict[str, Any]]) -> None:
    """000 «Эвенты, 2»: «При полном захвате территорий Морских Народов на континенте,
    начинается век Античности» — the bots fight them together; the epoch opens on the turn
    they hold nothing on their continent, and while they hold land there it does not."""
    landed = next(i for i, h in enumerate(history) if h["sea_peoples"] == "active")
    opened = next(i for i, h in enumerate(history) if any(o["epoch"] == "antiquity" for o in h["opened"]))
    assert landed < opened
    assert history[opened]["sea_peoples_land"] == 0
    assert history[opened]["sea_peoples"] == "over"
    for h in history[landed:opened]:
        assert h["sea_peoples_land"] > 0, h["turn"]
        assert h["epoch"] == "iron"


def test_the_bots_use_trade_diplomacy_and_war(history: list[dict[str, Any]]) -> None:
    """The computer players play the whole game purposefully: every post is theirs, and over
    the game they trade («IV. Торговля»), sign pacts and an alliance («VI. Дипломатия») and
    make war («VIII. Война»)."""
    assert all(h["submissions"] == {"bot"} for h in history)
    kinds = set().union(*(h["kinds"] for h in history))
    assert {"deal_signed", "treaty_signed", "war_declared", "battle", "built", "colonized"} <= kinds
    signed = {t["kind"] for h in history for t in h["treaties"]}
    assert {"pact", "alliance"} <= signed
