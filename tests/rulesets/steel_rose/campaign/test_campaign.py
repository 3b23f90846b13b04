"""The campaign ruleset beyond the rule cases: data and house rules, posts read in Russian and
English, hidden information cut in the views, rolls, the engine's replay (002_c01e70bb146ed8cc.txt)."""

from __future__ import annotations

import json

import pytest
from tests.rulesets.steel_rose.campaign.helpers import PLAYERS, Campaign

from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.errors import DataError, GameError
from voevoda.core.registry import configure
from voevoda.core.ruleset import Order
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign.actions import ritual
from voevoda.rulesets.steel_rose.campaign.context import Ctx
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, load_campaign
from voevoda.rulesets.steel_rose.campaign.state import City, load_state
from voevoda.rulesets.steel_rose.campaign.turn import detection_step

# ----------------------------------------------------------------------------- data

def test_every_building_of_the_document_is_there() -> None:
    """Each faction's «ПОСТРОЙКИ» list, with its price and level; the ogres «Отсутствуют»."""
    c = load_campaign()
    expected = {
        "empire": {"barracks": (1, 150), "chapel": (1, 100), "farmland": (1, 100), "watchpost": (1, 150),
                   "barracks2": (2, 300), "silver_mine": (2, 250), "knights_hall": (2, 200),
                   "imperial_patrol": (3, 300), "paladins_hall": (3, 500), "griffin_fields": (3, 400),
                   "gold_mine": (3, 400)},
        "steel_rose": {"barracks": (1, 100), "armoury": (1, 150), "manufactory": (1, 170), "recruiting_post": (1, 100),
                       "watchpost": (1, 150), "barracks2": (2, 200), "loophole_walls": (2, 200),
                       "powder_mill": (2, 250), "factory": (2, 370), "military_academy": (3, 300),
                       "bastion": (3, 400), "arms_factory": (3, 600)},
        "heaven": {"nature_shrine": (1, 100), "ranger_outpost": (1, 100), "magic_workshop": (1, 100),
                   "gardens_of_peace": (1, 200), "sorcerers_tower": (2, 200), "enchanted_woods": (2, 400),
                   "keepers_camp": (2, 200), "floating_spire": (2, 150), "floating_monolith": (3, 600),
                   "floating_isles": (3, 600)},
        "void_cult": {"dark_altar": (1, 50), "cultist_refuge": (1, 50), "demonic_portal": (1, 150),
                      "catacombs": (1, 100), "torture_dungeon": (1, 100), "citadel_of_pain": (2, 150),
                      "slave_market": (2, 150), "summoners_cult": (3, 200), "void_rift": (3, 400)},
        "ogres": {},
    }
    for fid, table in expected.items():
        got = {bid: (b.level, b.gold) for bid, b in c.buildings.of(fid).items()}
        assert got == table, fid
    assert c.building("heaven", "magic_workshop").resource == 60  # «(100з+60м)»


def test_garrison_additions_of_buildings() -> None:
    """«Барак ... +4 копейщика к гарнизону», «Зал рыцарей ... +2 рыцаря», «Стены с бойницами ... +2
    мушкетёра», «Бастион - +2 'Огненных града'»; a large city's garrison doubles, the additions do
    not (ruling C9)."""
    c = load_campaign()
    city = City(id="x", kind="small", level=2, owner="empire", buildings=["knights_hall"])
    assert eco.garrison(c, city) == {"heavy_infantry": 8, "archer": 6, "knight": 5}
    city = City(id="x", kind="large", level=1, owner="empire", buildings=["barracks"])
    assert eco.garrison(c, city) == {"spearman": 24, "archer": 12, "horseman": 6}
    city = City(id="x", kind="small", level=3, owner="steel_rose", buildings=["bastion", "loophole_walls"])
    assert eco.garrison(c, city) == {"mounted_gunner": 8, "cannon": 2, "musketeer": 10, "fire_hail": 2}
    assert eco.garrison_shots_percent(c, city) == pytest.approx((1.25 * 1.35 - 1) * 100)
    city = City(id="x", kind="small", level=2, owner="void_cult", buildings=["citadel_of_pain"])
    assert eco.garrison(c, city)["void_knight"] == 4
    c2 = load_campaign({"campaign": {"economy": {"double_building_garrison": True}}})
    city = City(id="x", kind="large", level=1, owner="empire", buildings=["barracks"])
    assert eco.garrison(c2, city)["spearman"] == 28


def test_house_rules_override_any_value_and_bad_ones_name_the_field() -> None:
    c = load_campaign({"campaign": {"economy": {"raise_multiplier": 2}}, "buildings": {"empire": {"farmland": {"income": 60}}},
                       "units": {"spearman": {"attack": 7}}})
    assert c.economy.raise_multiplier == 2
    assert c.building("empire", "farmland").income == 60
    assert c.rules.units["spearman"].attack == 7
    with pytest.raises(DataError, match=r"buildings.*empire.farmland.level"):
        load_campaign({"buildings": {"empire": {"farmland": {"level": 4}}}})
    with pytest.raises(DataError, match="unknown unit 'dragon'"):
        load_campaign({"buildings": {"empire": {"farmland": {"unlocks": ["dragon"]}}}})
    with pytest.raises(DataError, match="unknown key 'campagne'"):
        load_campaign({"campagne": {}})
    with pytest.raises(DataError, match="roads.0: no city 'atlantis'"):
        load_campaign({"map": {"roads": [["atlantis", "ormis"]]}})
    with pytest.raises(GameError, match="no shipped map"):
        configure("steel-rose", {"map": "../../etc/passwd"})


def test_the_default_map() -> None:
    """The cities the document names; the cult «окружены врагами со всех сторон и имеют на 1 малый
    город меньше»; the ogres' mobile city «на дороге между двумя другими городами»."""
    c = load_campaign()
    names = {city.name_ru for city in c.map.cities.values()}
    assert {"Ормис", "Хольмгард", "Пик кошмаров", "Морвен", "Парящая крепость"} <= names
    count = {fid: [city.kind for city in c.map.cities.values() if city.owner == fid] for fid in FACTIONS}
    for fid in ("empire", "steel_rose", "heaven"):
        assert sorted(count[fid]) == ["large", "small", "small", "small"]
    assert sorted(count["void_cult"]) == ["large", "small", "small"]
    assert count["ogres"] == [] and c.map.mobile is not None
    for cid, city in c.map.cities.items():
        if city.owner == "void_cult":
            foes = {c.map.cities[n].owner for n in c.neighbours[cid]} - {"void_cult"}
            assert foes, cid
    assert {c.map.cities[n].owner for cid in c.map.cities if c.map.cities[cid].owner == "void_cult"
            for n in c.neighbours[cid]} >= {"empire", "steel_rose", "heaven"}


def test_start_with_one_turns_income() -> None:
    """Ruling C2: the first income is paid before turn 1; the ogres, who have none, get 600."""
    game = Campaign()
    gold = {fid: game.faction(fid)["gold"] for fid in FACTIONS}
    assert gold == {"empire": 750, "steel_rose": 750, "heaven": 750, "void_cult": 600, "ogres": 600}
    assert game.faction("heaven")["resource"] == 100


def test_fewer_players_leave_factions_idle() -> None:
    """Two players: the other factions' cities keep their garrisons and can be taken; they take
    no turn and cannot win."""
    game = Campaign(["Анна", "Борис"], {"factions": {"Анна": "ogres", "Борис": "heaven"}})
    assert game.faction("empire")["status"] == "idle" and game.faction("ogres")["player"] == "Анна"
    assert set(game.rs.awaiting(game.state)) == {"Анна", "Борис"}
    with pytest.raises(GameError, match="дана двум"):
        Campaign(["Анна", "Борис"], {"factions": {"Анна": "ogres", "Борис": "ogres"}})


# ----------------------------------------------------------------------------- posts

@pytest.mark.parametrize(("text", "kind", "args"), [
    ("Построить Барак в Авентале", "build", {"city": "aventhal", "building": "barracks"}),
    ("Build barracks in Aventhal", "build", {"city": "aventhal", "building": "barracks"}),
    ("построить в Гордриме: Фермерские угодья", "build", {"city": "gordrim", "building": "farmland"}),
    ("Продать часовню в Вельмаре", "sell", {"city": "velmar", "building": "chapel"}),
    ("Повысить Авенталь до 2", "raise", {"city": "aventhal", "to": 2}),
    ("Raise Aventhal", "raise", {"city": "aventhal", "to": None}),
    ("Восстановить Тарнбург", "restore", {"city": "tarnburg"}),
    ("Нанять 10 копейщиков, 6 лучников и 3 всадника", "hire",
     {"units": {"spearman": 10, "archer": 6, "horseman": 3}}),
    ("Hire 4 knights", "hire", {"units": {"knight": 4}}),
    ("Очистить Вельмар за честь", "cleanse", {"city": "velmar", "pay": "resource"}),
    ("Армия 1: 10 копейщиков — атака Хольмгард (разграбить)", "army",
     {"name": "1", "units": {"spearman": 10}, "action": "attack", "target": "holmgard", "choice": "plunder"}),
    ("Army 2: rest - defend Velmar", "army",
     {"name": "2", "units": "rest", "action": "defend", "target": "velmar", "choice": None}),
    ("Армия: все — рассредоточиться", "army",
     {"name": "1", "units": "all", "action": "disperse", "target": None, "choice": None}),
    ("Союз с Культом", "alliance", {"faction": "void_cult"}),
    ("Alliance with the ogres", "alliance", {"faction": "ogres"}),
    ("Разорвать союз с Ограми", "break", {"faction": "ogres"}),
])
def test_orders_in_russian_and_english(text: str, kind: str, args: dict) -> None:
    game = Campaign()
    orders = game.rs.parse(text, "Анна", game.state)
    assert len(orders) == 1 and orders[0].kind == kind and dict(orders[0].args) == args
    assert orders[0].line == 1


@pytest.mark.parametrize(("player", "text", "kind", "args"), [
    ("Вера", "Заклинание: Парящий город — Эльдаран", "spell", {"spell": "floating_city", "city": "eldaran"}),
    ("Вера", "Spell: divination - the Empire", "spell", {"spell": "divination", "faction": "empire"}),
    ("Вера", "Заклинание: Небесное благоволение — армия 2", "spell", {"spell": "heavenly_favour", "army": "2"}),
    ("Глеб", "Ритуал: Заражение — Вельмар", "ritual", {"ritual": "infection", "city": "velmar"}),
    ("Глеб", "Ritual: cursed gold", "ritual", {"ritual": "cursed_gold"}),
    ("Глеб", "Ритуал: Призыв — 10 заразителей", "ritual", {"ritual": "summoning", "units": {"infector": 10}}),
    ("Глеб", "Предать Империю: Вельмар, Тарнбург", "betray", {"faction": "empire", "cities": ["velmar", "tarnburg"]}),
    ("Дарья", "Передвижной город: Тарнбург — Вельмар", "mobile", {"road": ["tarnburg", "velmar"]}),
    ("Дарья", "Mobile city: Tarnburg - Velmar", "mobile", {"road": ["tarnburg", "velmar"]}),
    ("Анна", "Демоны: 5 заразителей", "demons", {"units": {"infector": 5}}),
])
def test_faction_orders(player: str, text: str, kind: str, args: dict) -> None:
    game = Campaign()
    orders = game.rs.parse(text, player, game.state)
    assert [(o.kind, dict(o.args)) for o in orders] == [(kind, args)]


def test_a_bad_post_names_every_line_with_suggestions() -> None:
    """A post is read whole: each problem with its line and column, Russian and English; an
    unknown name gets the nearest known ones."""
    game = Campaign()
    from voevoda.core.errors import ParseError

    with pytest.raises(ParseError) as exc:
        game.rs.parse("Привет всем!\nПостроить Барак в Ованталь\nНанять 10 копейшиков\nПострить Часовню",
                      "Анна", game.state)
    problems = exc.value.problems
    assert [p.line for p in problems] == [2, 3, 4]   # the greeting is prose, not an error
    assert "Авенталь" in problems[0].message_ru and "Aventhal" in problems[0].message_en
    assert problems[0].column == 19
    assert "копейшиков" in problems[1].message_ru
    assert "«построить»" in problems[2].message_ru
    assert all(p.message_en for p in problems)


def test_the_garrison_block() -> None:
    """«Расстановка гарнизона определяется владельцем поселения заранее» — written in the
    battle's template under «Гарнизон <город>:»."""
    game = Campaign()
    orders = game.rs.parse("Гарнизон Авенталя:\nЦентральный фланг:\nАвангард - 10 копейщиков, 3 всадника\n"
                           "Арьергард - 6 лучников\nПостроить Барак в Авентале", "Анна", game.state)
    assert [o.kind for o in orders] == ["garrison", "build"]
    assert orders[0].args["squads"][0]["units"] == {"spearman": 10, "horseman": 3}


# ----------------------------------------------------------------------------- secrets

def test_views_cut_armies_buildings_treasury_and_corruption() -> None:
    """«Игрокам НЕдоступна следующая информация: Составы и расположение армий противника, Постройки
    в городах противника, Баланс противников»; «Никакие фракции не знают о том, что их города
    подверглись порче»; alliances and every city's type and size are public."""
    game = Campaign()
    game.edit({"cities.aventhal.buildings": ["barracks"], "factions.empire.units": {"knight": 7},
               "factions.empire.gold": 4321,
               "cities.velmar.corruption": 9, "alliances": [["heaven", "steel_rose"]]})
    anna = game.rs.view(game.state, "Анна")
    boris = game.rs.view(game.state, "Борис")
    gleb = game.rs.view(game.state, "Глеб")
    public = game.rs.view(game.state, "public")
    assert anna["own"]["units"] == {"knight": 7} and anna["own_cities"]["aventhal"]["buildings"] == ["barracks"]
    for view in (boris, public):
        text = json.dumps(view, ensure_ascii=False)
        assert "barracks" not in text and "knight" not in text and "4321" not in text
        assert "corruption" not in text
        assert view["cities"]["aventhal"] == anna["cities"]["aventhal"]
        assert view["alliances"] == [["heaven", "steel_rose"]]
    assert "corruption" not in json.dumps(anna, ensure_ascii=False)   # the owner does not know
    assert gleb["corruption"] == {"velmar": 9}                        # the cult does
    for viewer in ("Борис", "public", "Анна"):
        markers = game.rs.hidden_markers(game.state, viewer)
        text = json.dumps(game.rs.view(game.state, viewer), ensure_ascii=False)
        assert markers and not [m for m in markers if m in text]


def test_detection_tells_its_owner_only() -> None:
    """«Имперский патруль (300з): с шансом 100% обнаруживает заражение культа пустоты в этом и
    связанных городах»: its owner learns the corruption, nobody else."""
    game = Campaign()
    game.edit({"cities.gordrim.level": 3, "cities.gordrim.buildings": ["imperial_patrol"], "cities.velmar.corruption": 9,
               "cities.holmgard.corruption": 4})
    events = game.turn()
    found = [e for e in events if e.kind == "corruption_found"]
    assert {(e.data["city"], e.data["level"]) for e in found} == {("velmar", 9), ("holmgard", 4)}
    assert all(e.audience == ("Анна",) for e in found)
    anna = game.rs.view(game.state, "Анна")
    assert {i["about"] for i in anna["own"]["intel"]} == {"velmar", "holmgard"}
    assert "intel" not in json.dumps(game.rs.view(game.state, "Борис"), ensure_ascii=False).replace('"intel": []', "")


def _ctx(game: Campaign, seed: str) -> Ctx:
    return Ctx(game.rs.campaign, game.rs.options, load_state(game.state), Dice.from_text(seed))


def test_watch_post_finds_half_the_time() -> None:
    """«Дозорный пункт ... с шансом 50% обнаруживает заражение»: over many sealed rolls, about half."""
    game = Campaign()
    game.edit({"cities.gordrim.buildings": ["watchpost"], "cities.gordrim.corruption": 3})
    found = 0
    for i in range(400):
        ctx = _ctx(game, f"watch{i}")
        detection_step(ctx)
        found += any(e.kind == "corruption_found" for e in ctx.events)
    assert 160 < found < 240


def test_infection_rolls_its_dice() -> None:
    """«1к12+12 (для малого города) или 1к6+6 (для большого)», sealed."""
    game = Campaign()
    game.edit({"cities.aventhal.owner": "void_cult", "factions.void_cult.gold": 10_000})
    small, large = set(), set()
    for i in range(150):
        for city, seen in (("velmar", small), ("gordrim", large)):
            ctx = _ctx(game, f"inf{i}")
            if city == "gordrim":
                ctx.state.cities["gordrim"].kind = "large"
            ritual(ctx, "void_cult", Order("ritual", {"ritual": "infection", "city": city}), [])
            seen.add(next(e.data["amount"] for e in ctx.events if e.kind == "ritual"))
            assert all(r["sealed"] for r in ctx.dice.records()) if ctx.dice else False
    assert small == set(range(13, 25)) and large == set(range(7, 13))


def test_the_cults_rolls_and_a_detection_cite_their_sealed_dice() -> None:
    """docs/dice.md §5 and the steel-rose labels: «Заражение» quotes its d12 (``infection/<city>``),
    a watch post that finds corruption its d1000000 against the chance, the void hunger the die
    that picked the lost city (``hunger/city``); each cites its sealed stream, so `verify` holds
    the event to the dice once the secret is known."""
    from voevoda.core.dice import CITED
    from voevoda.rulesets.steel_rose.campaign.turn import hunger_step

    def cites_its_dice(ctx: Ctx, kind: str) -> bool:
        (event,) = [e for e in ctx.events if e.kind == kind]
        assert ctx.dice is not None
        for ref in event.data[CITED]:
            stream = ctx.dice.existing(ref["label"], sealed=True)
            assert ref["sealed"] and stream is not None
            quoted = event.data[ref["field"][1:]]
            if (quoted if isinstance(quoted, list) else [quoted]) != stream.faces[ref["from"]:ref["from"] + ref["count"]]:
                return False
        return bool(event.data[CITED])

    game = Campaign()
    game.edit({"cities.aventhal.owner": "void_cult", "factions.void_cult.gold": 10_000})
    ctx = _ctx(game, "infection")
    ritual(ctx, "void_cult", Order("ritual", {"ritual": "infection", "city": "velmar"}), [])
    assert cites_its_dice(ctx, "ritual")
    (event,) = [e for e in ctx.events if e.kind == "ritual"]
    assert event.data["amount"] == 12 + sum(event.data["faces"])

    game = Campaign()
    game.edit({"cities.gordrim.buildings": ["watchpost"], "cities.gordrim.corruption": 3})
    ctx = next(c for c in (_ctx(game, f"watch{i}") for i in range(40)) if detection_step(c) or c.events)
    assert cites_its_dice(ctx, "corruption_found")

    game = Campaign()
    ctx = _ctx(game, "hunger")
    ctx.state.factions["void_cult"].resource = ctx.state.factions["void_cult"].hunger_max + 1
    hunger_step(ctx)
    assert cites_its_dice(ctx, "hunger_overflow")


def test_campaign_rolls_are_sealed() -> None:
    """Every roll that touches hidden information uses the sealed stream (docs/dice.md)."""
    game = Campaign()
    dice = Dice.from_text("x")
    game.edit({"factions.empire.units": {"knight": 30}})
    orders = {"Анна": game.orders("Анна", "Армия 1: все — атака Хольмгард (колонизировать)"),
              "Глеб": game.orders("Глеб", "Ритуал: Заражение — Вельмар")}
    state = game.rs.resolve(game.state, orders, dice).state
    while state["phase"] in ("deployment", "planning"):
        state = game.rs.resolve(state, {}, dice).state
    records = dice.records()
    assert records and all(r["sealed"] for r in records)


# ----------------------------------------------------------------------------- the engine

def test_a_game_replays_and_exports() -> None:
    """A game is its journal: replayed, it is the same state byte for byte."""
    players = PLAYERS
    game = Game.create("steel-rose", "g", players, seed="replay", config={"bot_odds_battles": 0})
    game.submit("Анна", "Построить Барак в Авентале\nНанять 20 копейщиков\nАрмия 1: все — атака Хольмгард")
    game.submit("Глеб", "Ритуал: Заражение — Вельмар")
    game.resolve(force=True)
    while game.ruleset.progress(game.state)[0] == 1:
        game.resolve(force=True)
    again = Game(game.record)
    assert again.state == game.state
    load_state(game.state)
    public = json.dumps(game.export(public=True), ensure_ascii=False)
    assert "corruption\": 1" not in public
    report = game.report("Анна", 1)
    assert "Барак" in report and "Хольмгард" in report
    assert game.report("Анна", 1, "bbcode")
    assert game.map_svg("Анна")


def test_a_state_edit_is_checked_by_the_schema() -> None:
    """The state is Pydantic models with invariants (``state_model``): a bad edit is named."""
    game = Campaign()
    bad = json.loads(json.dumps(game.state))
    bad["cities"]["aventhal"]["buildings"] = ["barracks", "barracks"]
    with pytest.raises(DataError, match="a building twice"):
        load_state(bad)
    bad = json.loads(json.dumps(game.state))
    bad["factions"]["empire"]["units"] = {"knight": -3}
    with pytest.raises(DataError, match="factions.empire.units.knight"):
        load_state(bad)
    assert game.rs.check_state(bad) and not game.rs.check_state(game.state)


def test_the_map_per_viewer_with_a_legend_and_as_png() -> None:
    """«Состав и тип городов у всех фракций (см. карту)»: every viewer's map shows every city in
    its owner's colour; a player's own buildings are marked on its map only; PNG renders."""
    import numpy as np
    from tests.pngread import read_png

    from voevoda.core import maps
    from voevoda.rulesets.steel_rose.campaign.svgmap import COLOURS, MARGIN

    game = Campaign()
    game.edit({"cities.aventhal.buildings": ["barracks", "chapel"], "cities.velmar.ruins": True})
    anna = game.rs.map_svg(game.rs.view(game.state, "Анна"), "Анна", "ru")
    public = game.rs.map_svg(game.rs.view(game.state, "public"), "public", "en")
    assert anna and public
    for cid in game.state["cities"]:
        assert f'data-city="{cid}"' in anna and f'data-city="{cid}"' in public
    assert "◆2" in anna and "◆2" not in public
    assert "Условные обозначения" in anna and "Legend" in public and "ruins" in public
    pixels = read_png(maps.to_png(anna))
    city = game.rs.campaign.map.cities["aventhal"]
    x, y = int(maps.PAD + MARGIN + city.x + 14), int(maps.HEADER + MARGIN + city.y - 14)
    red = tuple(int(COLOURS["empire"][i:i + 2], 16) for i in (1, 3, 5))
    assert np.abs(pixels[y, x, :3].astype(int) - np.array(red)).max() < 12


def test_the_example_posts_are_accepted() -> None:
    """The posts of examples/steel-rose-campaign/ (docs/steel_rose/campaign.md) are read and
    accepted as written, through the engine as `voevoda order` reads them."""
    from pathlib import Path

    folder = Path(__file__).parents[4] / "examples" / "steel-rose-campaign"
    game = Game.create("steel-rose", "ex", PLAYERS, seed="examples")
    for player, name in (("Анна", "turn1_empire.txt"), ("Глеб", "turn1_cult.txt"), ("Вера", "turn1_heaven_en.txt"),
                         ("Дарья", "turn1_ogres.txt"), ("Борис", "turn1_principality.txt")):
        orders = game.submit(player, (folder / name).read_text(encoding="utf-8"))
        assert orders, name
    game.resolve(force=True)
    assert game.state["phase"] == "deployment"
    assert game.submit("Анна", (folder / "battle_deployment.txt").read_text(encoding="utf-8"))


def test_the_default_placement_keeps_one_hero_to_a_squad() -> None:
    """«мастер просто поставит стрелков в центральный арьергард, а всех остальных - в центральный
    авангард» and «В 1 отряде может быть только 1 герой» / «только 1 архижрец»: a second hero or
    archpriest (the Empire's quests give heroes) stands in the next free position (ruling C51), so
    the default placement of a silent side, and a bot's deployment, stay legal."""
    from voevoda.rulesets.steel_rose.battle.posts import default_garrison_deployment
    from voevoda.rulesets.steel_rose.battle.sides import check_army

    rules = load_campaign().rules
    units = {"spearman": 10, "archer": 4, "hero": 3, "archpriest": 2}
    squads = default_garrison_deployment(units, rules)
    assert {s.position: s.units for s in squads} == {
        "centre.vanguard": {"spearman": 10, "hero": 1, "archpriest": 1}, "centre.rearguard": {"archer": 4},
        "left.vanguard": {"hero": 1, "archpriest": 1}, "right.vanguard": {"hero": 1}}
    assert not check_army(squads, units, rules)
    alone = default_garrison_deployment({"hero": 2}, rules)
    assert [(s.position, s.units) for s in alone] == [("centre.vanguard", {"hero": 1}), ("left.vanguard", {"hero": 1})]
