"""The battle-mode ruleset: two posts per side, secrets cut in view (002_c01e70bb146ed8cc.txt,
«От каждого игрока требуется лишь 2 поста: 1 с расстановкой и 1 с планированием»)."""

from __future__ import annotations

import json

import pytest

from voevoda.core.dice import Dice
from voevoda.core.errors import ParseError
from voevoda.core.registry import configure

CONFIG = {"sides": [
    {"player": "Алиса", "army": {"spearman": 10, "knight": 3, "archer": 6, "horseman": 4}},
    {"player": "Борис", "garrison": {"faction": "steel_rose", "level": 1}},
]}
ALICE_DEPLOY = "Центральный фланг:\nАвангард - 10 копейщиков, 3 рыцаря\nАрьергард - 6 лучников\nЛевый авангард - 4 всадника"
BORIS_DEPLOY = "Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 6 стрелков\nПорох: 40"


@pytest.fixture
def game():
    rs = configure("steel-rose-battle", CONFIG)
    return rs, rs.setup(["Алиса", "Борис"], Dice.from_text("g"))


def deploy(rs, state):
    orders = {"Алиса": rs.parse(ALICE_DEPLOY, "Алиса", state), "Борис": rs.parse(BORIS_DEPLOY, "Борис", state)}
    return rs.resolve(state, orders, Dice.from_text("d")).state


def test_one_battle_keeps_its_own_id_and_steel_rose_is_the_campaigns():
    """The single battle played as a game is ``steel-rose-battle``; the package may offer
    several games (``RULESETS``), and the registry finds each by its id."""
    from voevoda.core.registry import available
    from voevoda.rulesets.steel_rose import SteelRoseBattle

    assert available()["steel-rose-battle"] is SteelRoseBattle
    assert available().get("steel-rose") is not SteelRoseBattle


def test_registered_and_awaits_both_deployments(game):
    """Battle mode asks both sides for a deployment post first."""
    rs, state = game
    assert rs.id == "steel-rose-battle"
    assert set(rs.awaiting(state)) == {"Алиса", "Борис"}
    assert rs.awaiting(state)["Алиса"].kind == "deployment"


def test_enemy_deployment_hidden_until_both_deployed(game):
    """«Планирование: Вы узнаёте расстановку войск противника, а он узнаёт вашу» — and not before:
    «Игрокам НЕдоступна ... Составы и расположение армий противника»."""
    rs, state = game
    view = rs.view(state, "Борис")
    assert "army" not in view["sides"]["Алиса"] and view["deployments"] == {}
    assert "копейщик" not in json.dumps(view, ensure_ascii=False)
    state = deploy(rs, state)
    assert set(rs.awaiting(state)) == {"Алиса", "Борис"} and rs.awaiting(state)["Борис"].kind == "planning"
    view = rs.view(state, "Борис")
    assert view["deployments"]["Алиса"]["squads"][0]["units"] == {"spearman": 10, "knight": 3}
    assert "army" not in view["sides"]["Алиса"]      # units held back stay secret
    assert "gunpowder" not in view["deployments"]["Алиса"]


def test_enemy_plan_hidden(game):
    """«Вы никак не сможете повлиять на ход битвы после фазы планирования»: plans are secret until the
    battle is computed."""
    rs, state = game
    state = deploy(rs, state)
    plan = rs.parse("Центральный арьергард: обстрел центрального авангарда", "Алиса", state)
    state_planned = dict(state, plans={"Алиса": {"manoeuvres": [dict(o.args) for o in plan], "skip": False}})
    assert "Алиса" not in rs.view(state_planned, "Борис")["plans"]
    assert "Алиса" in rs.view(state_planned, "Алиса")["plans"]


def test_full_battle_and_outcome(game):
    """resolve() runs the battle once both plans are in; outcome() names the winner."""
    rs, state = game
    state = deploy(rs, state)
    orders = {"Алиса": rs.parse("Центральный арьергард: обстрел центрального авангарда\n"
                                "Левый авангард: натиск на центральный арьергард", "Алиса", state),
              "Борис": rs.parse("Центральный авангард: защита центрального арьергарда", "Борис", state)}
    before = json.dumps(state, sort_keys=True)
    res = rs.resolve(state, orders, Dice.from_text("b"))
    assert json.dumps(state, sort_keys=True) == before          # input not mutated
    assert rs.awaiting(res.state) == {}
    outcome = rs.outcome(res.state)
    assert outcome is not None
    winner = res.state["result"]["winner"]
    assert outcome.winners == ((res.state["players"][winner],) if winner is not None else ())
    report = rs.report(rs.view(res.state, "Алиса"), res.events, "Алиса")
    assert "Итог" in report and "натиск" in report
    json.dumps(res.state)


def test_deployment_over_army_refused(game):
    """A side deploys only the units its army has."""
    rs, state = game
    with pytest.raises(ParseError) as err:
        rs.parse("Центральный авангард - 11 копейщиков", "Алиса", state)
    assert "11" in err.value.problems[0].message_ru


def test_garrison_default_placement(game):
    """«мастер просто поставит стрелков в центральный арьергард, а всех остальных - в центральный
    авангард»."""
    rs, state = game
    orders = rs.default_orders(state, "Борис")
    placed = {o.args["position"]: o.args["units"] for o in orders}
    assert placed == {"centre.vanguard": {"shieldbearer": 8}, "centre.rearguard": {"gunner": 6}}


def test_attacker_skips_planning_against_garrison(game):
    """«атакующий имеет право пропустить фазу планирования. Ни одна из сторон в таком случае просто не
    использует манёвры.»"""
    rs, state = game
    state = deploy(rs, state)
    orders = {"Алиса": rs.parse("Без манёвров", "Алиса", state),
              "Борис": rs.parse("Центральный арьергард: обстрел центрального авангарда", "Борис", state)}
    res = rs.resolve(state, orders, Dice.from_text("s"))
    kinds = {e["kind"] for e in res.state["result"]["events"]}
    assert "volley" not in kinds


def test_bot_posts_are_valid(game):
    """Computer opponents write posts the parser accepts."""
    rs, state = game
    for player in ("Алиса", "Борис"):
        text = rs.bot(rs.view(state, player), player, Dice.from_text("b").stream("bot"))
        assert text and rs.parse(text, player, state)


def test_spectators_see_no_army_before_the_battle(game):
    """Secrets cut in view: «Игрокам НЕдоступна ... Составы и расположение армий противника» —
    a spectator sees neither side's deployment until the battle is computed."""
    rs, state = game
    state = deploy(rs, state)
    public = rs.view(state, "public")
    assert public["deployments"] == {} and "army" not in public["sides"]["Алиса"]


def test_defending_army_joins_the_garrison(rules):
    """«оборонять город (в таком случае ваша армия временно прибавится к гарнизону)»; «В больших
    поселениях гарнизон такой же, как и в малых, но вдвое выше численностью.»"""
    from voevoda.rulesets.steel_rose.battle.sides import SideSpec

    spec = SideSpec("Борис", garrison={"faction": "empire", "level": 1, "large": True}, army={"knight": 2})
    assert spec.units(rules) == {"spearman": 20, "archer": 12, "horseman": 6, "knight": 2}


def test_hidden_markers_catch_a_leak(game):
    """The markers name the enemy's army, deployment and plan as a view would show them: Boris's
    view contains none, Alice's own view (which shows all three) contains every one."""
    rs, state = game
    state = deploy(rs, state)
    plan = rs.parse("Центральный арьергард: обстрел центрального авангарда", "Алиса", state)
    state["plans"] = {"Алиса": {"manoeuvres": [dict(o.args) for o in plan], "skip": False}}
    markers = rs.hidden_markers(state, "Борис")
    honest = json.dumps(rs.view(state, "Борис"), ensure_ascii=False)
    leaky = json.dumps(rs.view(state, "Алиса"), ensure_ascii=False)
    assert markers and not [m for m in markers if m in honest]
    assert all(m in leaky for m in markers)


def test_core_game_plays_and_verifies():
    """DESIGN «Verifiable dice»: a battle played through the core engine (bots in both seats)
    ends with a winner or a draw, and every roll of its export is re-derived by verify."""
    from voevoda.core.engine import Game
    from voevoda.core.verify import verify_export

    game = Game.create("steel-rose-battle", "v", ["Алиса", "Борис"], bots=["Алиса", "Борис"], seed="verify")
    for _ in range(3):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    assert game.outcome() is not None
    report = verify_export(game.export(public=True))
    assert report.ok, report.problems


def test_map_shows_only_what_the_view_shows(game):
    """The field map is drawn from the view alone: before both deploy, Boris's map shows no
    imperial unit; after, it shows Alice's squads; after the battle, the strength chart."""
    rs, state = game
    assert "копейщик" not in rs.map_svg(rs.view(state, "Борис"), "Борис").lower()
    state = deploy(rs, state)
    svg = rs.map_svg(rs.view(state, "Борис"), "Борис")
    assert svg.startswith("<svg") and ">10 копейщиков<" in svg and ">8 щитовиков<" in svg


def test_map_in_english(game):
    """map_svg takes the viewer's language."""
    rs, state = game
    state = deploy(rs, state)
    assert ">10 spearmen<" in rs.map_svg(rs.view(state, "Борис"), "Борис", "en")


def test_powder_shares_and_notes_in_the_game():
    """«Если вы не выделите порох юниту, который его тратит, то он не сможет сражаться» (R24): a
    side's post gives its powder; the enemy never sees the stock or the shares, not in the view
    nor in the deployment events; the battle follows the shares. A second «Центральный фланг»
    read as the left flank (R1) is echoed with the post."""
    config = {"sides": [
        {"player": "Алиса", "army": {"steam_tank": 1, "shieldbearer": 10, "gunner": 10, "cannon": 1},
         "faction": "steel_rose", "gunpowder": 40},
        {"player": "Борис", "army": {"spearman": 25}}]}
    rs = configure("steel-rose-battle", config)
    state = rs.setup(["Алиса", "Борис"], Dice.from_text("p"))
    post = ("Правый фланг:\nАвангард - паровой танк\nЦентральный фланг:\nАвангард - 5 щитовиков\n"
            "Арьергард - 10 стрелков, пушка\nЦентральный фланг:\nАвангард - 5 щитовиков\n"
            "Порох на центральный арьергард: 15")
    orders = rs.parse(post, "Алиса", state)
    echoed = [rs.describe(o) for o in orders]
    assert "порох на центральный арьергард: 15" in echoed
    assert any(line.startswith("Примечание: второй «Центральный фланг» прочитан как левый") for line in echoed)
    too_much = post.replace(": 15", ": 45")
    with pytest.raises(ParseError, match="выделено 45, а в запасе 40"):
        rs.parse(too_much, "Алиса", state)
    deployed = rs.resolve(state, {"Алиса": orders,
                                  "Борис": rs.parse("Центральный авангард - 25 копейщиков", "Борис", state)},
                          Dice.from_text("d"))
    state = deployed.state
    for event in deployed.events:
        assert set(event.data) == {"player", "squads"}  # both sides see these: no powder
    seen = rs.view(state, "Борис")
    assert "powder" not in seen["deployments"]["Алиса"] and "gunpowder" not in seen["deployments"]["Алиса"]
    assert "powder" in rs.view(state, "Алиса")["deployments"]["Алиса"]
    resolution = rs.resolve(state, {"Алиса": [], "Борис": []}, Dice.from_text("b"))
    result = resolution.state["result"]
    powder = next(e for e in result["events"] if e["kind"] == "gunpowder")
    assert powder["withdrawn"] == {"steam_tank": 1} and powder["supplied"] == 15
    deployed = next(e for e in result["events"] if e["kind"] == "deployment")
    assert deployed["sides"][0]["notes"][0]["line"] == 6
