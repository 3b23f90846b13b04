"""A whole game of computer players crosses the epochs by the document's own conditions
(document 000, «Эвенты и смена Веков»): the bots settle, build, trade, sign pacts and an
alliance, and fight the Sea Peoples together until they are expelled.

Checked turn by turn on the engine path (every post written by a bot, read, checked and
resolved): the Iron Age opens on the first turn a player has «5 городов», «40 подконтрольных
территорий» and «минимум 1 точку Бронзы», and not before; Antiquity opens on the turn the Sea
Peoples hold no land on the continent they landed on («При полном захвате территорий Морских
Народов на континенте, начинается век Античности»), and not before. A second game, set up in
the Middle Ages (a game master may start in any epoch), crosses into the Renaissance: a bot
saves its points, breaks its pact, wages a war of vassalisation and holds more than half of
its neighbour's land when the war ends, and the Renaissance opens on the first turn somebody
has «10 городов», «60 подконтрольных территорий» and «минимум 1 игрока-вассала».
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
    tiles = {t: v for t, v in state["tiles"].items() if v.get("owner") == player}
    land = [t for t in tiles if _is_land(state, t)]
    cities = [t for t, v in tiles.items() if v.get("city") is not None]
    bronze = [t for t, r in state["deposits"].items() if r == "bronze" and t in tiles]
    return len(cities) >= 5 and len(land) >= 40 and bool(bronze)


def _is_land(state: dict[str, Any], tile: str) -> bool:
    letters = "".join(ch for ch in tile if ch.isalpha())
    x = ord(letters[0]) - 65 if len(letters) == 1 else (ord(letters[0]) - 64) * 26 + ord(letters[1]) - 65
    return state["map"]["terrain"][int(tile[len(letters):]) - 1][x] == "."


def _meets_renaissance(state: dict[str, Any], player: str) -> bool:
    """«Иметь 10 городов», «Иметь 60 подконтрольных территорий», «Иметь минимум 1 игрока-вассала»."""
    tiles = {t: v for t, v in state["tiles"].items() if v.get("owner") == player}
    land = [t for t in tiles if _is_land(state, t)]
    cities = [t for t, v in tiles.items() if v.get("city") is not None]
    vassals = [c for c, v in state["countries"].items() if v.get("suzerain") == player]
    return len(cities) >= 10 and len(land) >= 60 and bool(vassals)


def _sea_peoples_on_their_continent(game: Game) -> int:
    ruleset = game.ruleset
    world = ruleset.world(game.state)  # type: ignore[attr-defined]
    sp = game.state["events"]["sea_peoples"]
    if sp["country"] is None or sp["country"] not in game.state["countries"]:
        return 0
    return sum(1 for t in world.land_set(sp["country"]) if world.grid.continent(t) == sp["continent"])


def _turn(game: Game) -> dict[str, Any]:
    """What a turn just resolved shows: its number, the epoch after it, the epochs it opened,
    the kinds of its events, the treaties signed, the wars declared, who posted."""
    events = game.steps[-1].events
    return {
        "turn": game.state["turn"] - 1,
        "epoch": game.state["epoch"],
        "opened": [dict(e.data) for e in events if e.kind == "epoch"],
        "kinds": {e.kind for e in events},
        "treaties": [dict(e.data) for e in events if e.kind == "treaty_signed"],
        "wars": [dict(e.data) for e in events if e.kind == "war_declared"],
        "submissions": {s.source for s in game.steps[-1].submissions.values()},
    }


@pytest.fixture(scope="module")
def history() -> list[dict[str, Any]]:
    """Per turn: the epoch after it, the epoch events, who met the Iron Age's conditions, the
    Sea Peoples' land on their continent, and the kinds of events."""
    game = Game.create("new-worlds", "epochs", PLAYERS, bots=PLAYERS, seed="a")
    out = []
    for _ in range(TURNS):
        game.resolve(force=True)
        out.append({
            **_turn(game),
            "iron_ready": [p for p in PLAYERS if _meets_iron_age(game.state, p)],
            "sea_peoples": game.state["events"]["sea_peoples"]["status"],
            "sea_peoples_land": _sea_peoples_on_their_continent(game),
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


MEDIEVAL = ["Анна", "Борис", "Вера", "Глеб"]


@pytest.fixture(scope="module")
def medieval() -> list[dict[str, Any]]:
    """Four bots from the Middle Ages, turn by turn until the Renaissance (at most 40 turns)."""
    game = Game.create("new-worlds", "renaissance", MEDIEVAL, bots=MEDIEVAL, seed="m7",
                       config={"start_epoch": "middle_ages"})
    out = []
    for _ in range(40):
        game.resolve(force=True)
        out.append({**_turn(game), "ready": [p for p in MEDIEVAL if _meets_renaissance(game.state, p)]})
        if game.state["epoch"] == "renaissance":
            break
    return out


def test_the_renaissance_opens_by_its_conditions(medieval: list[dict[str, Any]]) -> None:
    """000 «Эвенты, 4»: «Для начала Ренессанса, как минимум одному игроку необходимо выполнить все
    условия: Иметь 10 городов; Иметь 60 подконтрольных территорий; Иметь минимум 1
    игрока-вассала» — reached by a war of vassalisation («Если вы удерживаете более 50%
    территорий противника, он становится вашим вассалом»); the epoch opens on the first turn
    somebody meets all three, by that player, and not while nobody does."""
    opened = [h for h in medieval if any(o["epoch"] == "renaissance" for o in h["opened"])]
    assert len(opened) == 1, [h["epoch"] for h in medieval][-3:]
    turn = opened[0]
    by = next(o["by"] for o in turn["opened"] if o["epoch"] == "renaissance")
    assert by in turn["ready"]
    assert "vassalised" in turn["kinds"]
    assert any(w["type"] == "vassalisation" and w["attacker"] == by for h in medieval for w in h["wars"])
    for earlier in medieval[: medieval.index(turn)]:
        assert earlier["ready"] == [], earlier["turn"]
        assert earlier["epoch"] == "middle_ages"
