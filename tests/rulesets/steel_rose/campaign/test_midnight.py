"""Nine turns of five computer opponents under the document's own rules, to Midnight
(002_c01e70bb146ed8cc.txt, «Великая война - развлечение для богов»), checking on the way, step by
step against the state before and after it, that the gods' gifts, the Dark Alliance's demons, the
cult's betrayal and Sunset's doubling happened with the document's amounts."""

from __future__ import annotations

import copy
import functools
from typing import Any

from tests.rulesets.steel_rose.campaign.test_game import PLAYERS, check_ending

from voevoda.core.engine import Game
from voevoda.core.ruleset import Event

SEED = "midnight"
GIFTS = {"dawn": 600, "day": 1000}
"""«Рассвет (3-4 ход): ... боги посылают подарок (600з) фракции с наименьшим числом городов, кроме
огров и культа пустоты»; «День (5-6 ход): ... подарок (1000з)»."""
DEMONS = {1: [{"lesser_demon": 7}], 3: [{"lesser_demon": 10}, {"infector": 5}],
          5: [{"lesser_demon": 15}, {"infector": 8}, {"demonologist": 1}]}
"""«СОЮЗ С ТЬМОЙ ... 1-2 ход: 7 низших демонов; 3-4 ход: 10 низших демонов или 5 заразителей;
5+ ход: 15 низших демонов или 8 заразителей или 1 демонолог»."""
PER_LEVEL = {"small": 150, "large": 300}
"""«Малые: +(150*уровень)з в ход», «Большие: +(300*уровень)з в ход»."""
MANA = {"": 100, "nature_shrine": 30, "sorcerers_tower": 60, "floating_monolith": 90}
"""«Эльфы копят ману со скоростью +100/ход» and «Святилище природы (100з): +30м в ход», «Башня
чародеев ... +60м», «Парящий монолит ... 90м»."""


Step = tuple[dict[str, Any], dict[str, Any], list[Event], int]
"""The state before a step, the state after it, its events, the turn it belongs to."""


@functools.cache
def campaign() -> tuple[Game, list[Step]]:
    # A game found, under dice procedure 1, to bring every gift, demon, betrayal and Sunset's
    # doubling; the procedure changes which dice fall, not the rules checked here.
    game = Game.create("steel-rose", "midnight", PLAYERS, bots=PLAYERS, seed=SEED, dice_procedure=1)
    steps: list[Step] = []
    while game.outcome() is None:
        before = copy.deepcopy(game.state)
        step = game.resolve()
        steps.append((before, copy.deepcopy(game.state), step.events, step.turn))
    return game, steps


def held(state: dict[str, Any], fid: str, kind: str | None = None) -> list[str]:
    return [cid for cid, c in state["cities"].items() if c["owner"] == fid and not c["ruins"] and not c["gone"]
            and (kind is None or c["kind"] == kind)]


def test_nine_turns_end_at_midnight() -> None:
    """«Полночь (9 ход): богам наскучило наблюдать за битвой. Они уничтожают все фракции, кроме уже
    победивших и той, у которой больше всего городов.»"""
    game, _steps = campaign()
    check_ending(game)
    assert game.state["turn"] == 9 and game.state["result_reason"] == "midnight"
    epochs = [e.data["epoch"] for step in game.steps for e in step.events if e.kind == "epoch"]
    assert epochs == ["dawn", "day", "sunset", "midnight"]


def test_the_gods_gifts_go_to_the_faction_with_fewest_cities() -> None:
    _game, steps = campaign()
    given = []
    for _before, after, events, _turn in steps:
        for e in events:
            if e.kind != "gift":
                continue
            given.append(e.data["epoch"])
            assert e.data["gold"] == GIFTS[e.data["epoch"]]
            playing = [fid for fid, f in after["factions"].items()
                       if f["status"] == "playing" and fid not in ("ogres", "void_cult")]
            fewest = min(len(held(after, fid)) for fid in playing)
            assert sorted(e.data["factions"]) == sorted(fid for fid in playing if len(held(after, fid)) == fewest)
            for fid in e.data["factions"]:  # booked into the receiver's next ledger
                ledger = next(x for _b, _a, evs, _t in steps for x in evs
                              if x.kind == "ledger" and x.data["faction"] == fid and x.data["turn"] == e.data["turn"])
                assert {"what": "gift", "gold": GIFTS[e.data["epoch"]], "resource": 0} in ledger.data["lines"]
    assert given == ["dawn", "day"]


def test_the_dark_alliance_brings_demons_by_the_turns_number() -> None:
    _game, steps = campaign()
    gifts = 0
    for before, after, events, turn in steps:
        alliances = {tuple(p) for p in before["alliances"]} | {tuple(p) for p in after["alliances"]}
        for e in events:
            if e.kind != "demons_gift":
                continue
            gifts += 1
            (player,) = e.audience
            fid = next(f for f, x in after["factions"].items() if x["player"] == player)
            assert (fid, "void_cult") in alliances or ("void_cult", fid) in alliances
            row = DEMONS[max(first for first in DEMONS if first <= turn)]
            assert e.data["units"] in row, (turn, e.data["units"])
            left = [x.data["units"] for x in events if x.kind in ("deserted", "gifts_vanished") and x.audience == (player,)]
            for uid, n in e.data["units"].items():  # joined the army, unless upkeep or Midnight sent them off
                assert after["factions"][fid]["status"] != "playing" or (
                    after["factions"][fid]["gifted"].get(uid, 0) + sum(u.get(uid, 0) for u in left) >= n)
    assert gifts >= 3


def test_the_cult_betrays_taking_every_third_small_and_every_second_large_city() -> None:
    """«вы мгновенно расторгаете союз и можете мгновенно забрать каждый третий малый и каждый
    второй крупный город бывшего союзника. 'Подаренные' демонические юниты у этой фракции
    исчезнут.»"""
    _game, steps = campaign()
    betrayals = 0
    for before, after, events, _turn in steps:
        for e in events:
            if e.kind != "betrayal":
                continue
            betrayals += 1
            victim = e.data["victim"]
            assert [victim, "void_cult"] in [sorted(p) for p in before["alliances"]]
            assert sorted([victim, "void_cult"]) not in [sorted(p) for p in after["alliances"]]
            due = len(held(before, victim, "small")) // 3 + len(held(before, victim, "large")) // 2
            assert due >= 1 and len(e.data["cities"]) == due
            for cid in e.data["cities"]:
                assert before["cities"][cid]["owner"] == victim and after["cities"][cid]["owner"] == "void_cult"
            vanished = [x for x in events if x.kind == "gifts_vanished"
                        and x.audience == (before["factions"][victim]["player"],)]
            if before["factions"][victim]["gifted"]:
                assert vanished and vanished[0].data["units"] == before["factions"][victim]["gifted"]
                assert not after["factions"][victim]["gifted"]
    assert betrayals >= 1


def test_sunset_doubles_gold_and_the_unique_resource() -> None:
    """«Закат (7-8 ход): Боги требуют битв! Получаемое золото и получаемый уникальный ресурс
    удваивается для всех фракций»: every city's income and the elves' mana, once before Sunset
    and twice in it."""
    _game, steps = campaign()
    seen = {1: 0, 2: 0}
    mana_seen = {1: 0, 2: 0}
    for _before, after, events, turn in steps:
        times = 2 if turn in (7, 8) else 1
        for e in events:
            if e.kind != "ledger":
                continue
            for line in e.data["lines"]:
                if line["what"] == "income" and not line["idle"] and not line["halved"]:
                    city = after["cities"][line["city"]]
                    assert line["base"] == PER_LEVEL[city["kind"]] * city["level"], line
                    extra = sum(b[1] for b in line["buildings"]) - line["defended"]
                    assert line["gold"] == (line["base"] + extra) * times, line
                    seen[times] += 1
                if line["what"] == "production" and e.data["faction"] == "heaven":
                    mana = MANA[str(line["source"]).split("/")[-1]]
                    assert line["resource"] == mana * times, line
                    mana_seen[times] += 1
    assert seen[1] and seen[2] and mana_seen[1] and mana_seen[2]
