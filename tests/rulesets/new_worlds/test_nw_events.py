"""Events and epochs on the default map (document 000, «Эвенты и смена Веков»), and the named
options of their rulings (R17, R21, R22)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.new_worlds.nw_helpers import make_game
from voevoda.core.dice import Dice
from voevoda.rulesets.new_worlds import NewWorlds
from voevoda.rulesets.new_worlds import events as ev
from voevoda.rulesets.new_worlds.state import Country, Reform, dump_state
from voevoda.rulesets.new_worlds.world import World

EIGHT = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]


def default_world(config: dict[str, Any] | None = None, players: list[str] | None = None,
                  epoch: str = "bronze") -> tuple[NewWorlds, World]:
    ruleset = NewWorlds({"start_epoch": epoch, **(config or {})})
    raw = ruleset.setup(players or EIGHT[:3], Dice.from_text("events"))
    world = ruleset.world(raw, fresh=True)
    return ruleset, world


def test_sea_peoples_land_where_the_map_says() -> None:
    """«Эвент: Нападение Морских Народов»: on the default map they land on the listed tiles of the
    west coast (ruling R20), as an invader country that destroys cities."""
    ruleset, world = default_world(epoch="iron")
    world.state.events.sea_peoples.starts = world.state.turn + 1
    events = ev.sea_peoples(world, Dice.from_text("sp"))
    sp = world.state.countries["sea_peoples"]
    assert sp.kind == "invader" and sp.destroys_cities
    assert sorted(world.state.all_of("sea_peoples")) == sorted(world.state.map.event_places["sea_peoples"])
    assert [e.kind for e in events] == ["event_country"]
    assert world.state.events.sea_peoples.continent == world.grid.continent("C14")


def test_the_khaganate_and_its_three_tributaries() -> None:
    """«Великий Каганат … его трем изначальным данникам»: the Khagan and three tributaries on
    the map's places; the players' land is counted for «захват»."""
    ruleset, world = default_world(epoch="antiquity")
    world.state.events.khaganate.starts = world.state.turn + 1
    ev.khaganate(world, Dice.from_text("kh"))
    kh = world.state.events.khaganate
    assert kh.status == "active" and kh.tributaries == ["khaganate_1", "khaganate_2", "khaganate_3"]
    for i, group in enumerate(world.state.map.event_places["khaganate_tributaries"], start=1):
        assert sorted(world.state.all_of(f"khaganate_{i}")) == sorted(group)
    assert set(kh.base) == {"Анна", "Борис", "Вера"}
    # «оттенок Каганата»: each tributary in a shade of its own, none the Khagan's, none alike
    colors = [world.state.countries[f"khaganate_{i}"].color for i in (1, 2, 3)]
    assert colors == ruleset.rules.events.khaganate.tributary_colors
    assert len({*colors, world.state.countries["khaganate"].color}) == 4


@pytest.mark.parametrize(("option", "expected"), [("cities_taken", 28), ("cities_lost", 32)])
def test_khaganate_bonus_loss_option(option: str, expected: int) -> None:
    """«За каждый захваченный город, они теряют 4 очка из этого бонуса» (R21): cities the
    Khaganate took (default), or cities taken from it."""
    from voevoda.rulesets.new_worlds.roll import event_bonus

    ruleset, world = default_world({"khaganate_bonus_loss": option}, epoch="antiquity")
    world.state.countries["khaganate"] = Country(id="khaganate", name="Каганат", kind="invader",
                                                 color="#8a6d3b", event="khaganate")
    world.state.events.khaganate.cities_taken = 2
    world.state.events.khaganate.cities_lost = 1
    (mod,) = event_bonus(world, world.state.countries["khaganate"], 2)
    assert mod.amount == expected


@pytest.mark.parametrize(("faces", "option", "share"), [
    ([1, 2, 3, 4, 4], "sum", 14), ([4, 4, 4, 4, 4], "sum", 20), ([1, 1, 1, 1, 1], "sum", 5),
    ([1, 2, 3, 4, 4], "last_two", 44), ([3, 3, 3, 1, 2], "last_two", 12),
])
def test_old_believers_share(faces: list[int], option: str, share: int) -> None:
    """«Староверы получают случайный процент территорий страны, выясняемый роллом ##5d4##»
    (R17): the sum of the dice, or the last two read as a number."""
    ruleset, world = default_world({"old_believers_share": option})
    assert ev.old_believers_share(world, faces) == share


@pytest.mark.parametrize(("option", "second_wave"), [("step", 5), ("triple", 8)])
def test_reformation_waves(option: str, second_wave: int) -> None:
    """«сначала один случайный игрок …, на следующем ходу … у трёх случайных игроков и т.д.» (R22):
    1, 3, 5 … or 1, 3, 9 … (never more than there are players left)."""
    ruleset, world = default_world({"reformation_waves": option}, players=EIGHT, epoch="renaissance")
    ag = world.state.events.agrarian_revolution
    ag.status, ag.wave = "active", 2
    events = ev.agrarian(world, Dice.from_text("waves"))
    wave = next(e for e in events if e.kind == "reformation_wave")
    assert len(wave.data["countries"]) == second_wave
    reforming = [c for c in world.state.players() if c.reform is not None]
    assert len(reforming) == second_wave
    for c in reforming:
        assert c.reform is not None and c.reform.status == "civil_war"
        old = world.state.countries[str(c.reform.old_believers)]
        assert old.kind == "old_believers" and old.origin == c.id
        capital = c.capital
        assert capital not in world.state.all_of(old.id)


def test_the_old_believers_win() -> None:
    """«Реформация завершается только победой одной из сторон» — when the old believers win, the
    country is theirs again under the old faith (R18)."""
    ruleset, raw = make_game(epoch="renaissance", land={"A": "B2", "B": "S2"}, religion={"A": "dualism"},
                             old_believers={"A": "C2 D2"})
    world = ruleset.world(raw, fresh=True)
    a = world.state.countries["A"]
    events = ev.finish_reformation(world, a, "failed")
    assert [e.kind for e in events] == ["reformation_done"]
    assert (a.religion, a.upgraded, a.reform.status if a.reform else None) == ("dualism", False, "done")
    assert world.state.owner("C2") == "A" and not world.state.countries["old-A"].alive
    assert not any(w.civil for w in world.state.wars)


def test_the_new_world_opens_with_the_renaissance() -> None:
    """«Открыта возможность перемещения по большим морским территориям» and the default map's
    New World, closed until the Renaissance (R40): players see it once the epoch comes."""
    ruleset, world = default_world(epoch="middle_ages")
    assert world.state.map.open_regions == []
    player_view = ruleset.view(dump_state(world.state), "Анна")
    assert player_view["map"]["terrain"][10][37] == "?"
    events = ev.advance(world, "renaissance")
    assert "N" in world.state.map.open_regions
    assert any(e.kind == "region_opened" for e in events)
    raw = dump_state(world.state)
    assert ruleset.view(raw, "Анна")["map"]["terrain"][10][37] != "?"
    assert "AL8" in ruleset.view(raw, "Анна")["deposits"]


def test_starting_in_a_later_epoch() -> None:
    """«Античность: 10 стартовых территорий + 1 город»: a game set up in Antiquity starts each
    country with ten territories and a city, the Sea Peoples over and the Khaganate to come."""
    ruleset, world = default_world(epoch="antiquity")
    for p in ("Анна", "Борис", "Вера"):
        assert world.territories(p) == 10 and world.cities(p) == 1
        assert world.state.countries[p].war_points == 40
    evs = world.state.events
    assert evs.sea_peoples.status == "over" and evs.khaganate.starts == 1 + 3


@pytest.mark.parametrize(("epoch", "land", "cities", "die", "war_points"), [
    ("bronze", 1, 0, 6, 20),      # «1 стартовая территория; Дайс 5d6, 20 ВО» (no city: R43)
    ("iron", 5, 0, 9, 30),        # «5 стартовых территорий; Дайс 5d9, 30 ВО»
    ("antiquity", 10, 1, 10, 40),  # «10 стартовых территорий + 1 город; Дайс 5d10, 40 ВО»
    ("middle_ages", 10, 2, 10, 50),  # «10 стартовых территорий + 2 города; Дайс 5d10, 50 ВО»
    ("renaissance", 15, 3, 10, 60),  # «15 стартовых территорий + 3 города; Дайс 5d10, 60 ВО»
    ("industrial", 15, 3, 10, 80),   # «15 стартовых территорий + 3 города; Дайс 5d10, 80 ВО»
])
def test_every_epoch_opens_with_its_land_die_and_war_points(epoch: str, land: int, cities: int, die: int,
                                                            war_points: int) -> None:
    """000 «Века», each epoch's opening lines: a game set up in the epoch starts every country with
    its territories and cities, rolls 5dX with the epoch's die and gives its war points."""
    ruleset, world = default_world(epoch=epoch)
    for p in ("Анна", "Борис", "Вера"):
        c = world.state.countries[p]
        assert (world.territories(p), world.cities(p)) == (land, cities), p
        assert c.roll is not None and c.roll.die == die and len(c.roll.faces) == 5
        assert all(1 <= f <= die for f in c.roll.faces)
        assert c.war_points == war_points


def test_a_wave_takes_only_players_not_yet_reformed() -> None:
    """«сначала один случайный игрок проходит реформацию, на следующем ходу … у трёх» — a country
    already through its Reformation is not drawn again."""
    ruleset, world = default_world(players=EIGHT[:4], epoch="renaissance")
    for p in ("Анна", "Борис", "Вера"):
        world.state.countries[p].reform = Reform(status="done", result="reformed")
    ag = world.state.events.agrarian_revolution
    ag.status, ag.wave = "active", 1
    events = ev.agrarian(world, Dice.from_text("only"))
    wave = next(e for e in events if e.kind == "reformation_wave")
    assert wave.data["countries"] == ["Глеб"]


def quotes_its_dice(event: Any, dice: Dice) -> bool:
    """docs/dice.md §5: every field the event cites holds the faces its streams drew."""
    from voevoda.core.dice import CITED
    from voevoda.core.verify import _pointer

    refs = event.data[CITED]
    for ref in refs:
        stream = dice.existing(ref["label"])
        assert stream is not None
        value = _pointer(event.data, ref["field"])
        if (value if isinstance(value, list) else [value]) != stream.faces[ref["from"]:ref["from"] + ref["count"]]:
            return False
    return bool(refs)


def test_the_dice_of_a_landing_a_wave_and_the_old_believers_land_are_cited() -> None:
    """docs/dice.md, new-worlds labels: where the Sea Peoples land when the map names no tiles
    (``event/sea_peoples``), which players a Reformation wave takes (``event/agrarian/<t>``, a
    shuffle anyone redoes from the eligible players and the quoted faces) and the tile the old
    believers' land grows from (``reformation/<c>/seed``) are quoted and cited, so `verify` holds
    each event to its dice."""
    _, world = default_world(epoch="iron")
    world.state.map.event_places.pop("sea_peoples", None)
    world.state.events.sea_peoples.starts = world.state.turn + 1
    dice = Dice.from_text("landing")
    (landing,) = [e for e in ev.sea_peoples(world, dice) if e.kind == "event_country"]
    assert quotes_its_dice(landing, dice)

    _, world = default_world(players=EIGHT[:4], epoch="renaissance")
    world.state.events.agrarian_revolution.status = "active"
    dice = Dice.from_text("wave")
    events = ev.agrarian(world, dice)
    wave = next(e for e in events if e.kind == "reformation_wave")
    assert quotes_its_dice(wave, dice)
    order = list(wave.data["eligible"])
    for i, face in zip(range(len(order) - 1, 0, -1), wave.data["faces"], strict=True):
        order[i], order[face - 1] = order[face - 1], order[i]
    assert sorted(order[: len(wave.data["countries"])]) == wave.data["countries"]
    split = [e for e in events if e.kind == "reformation" and e.data["old_believers"]]
    assert split and all(quotes_its_dice(e, dice) for e in split)
