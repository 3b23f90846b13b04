"""New Worlds through the engine: whole games with computer opponents, rollback and replay, the
game master's audited edits (voevoda nw gm), views that cut what a player may not see, the
report in every format, and the map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.rulesets.new_worlds.nw_helpers import make_game, play
from voevoda.cli import app
from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.core.errors import GameError
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import GM, PUBLIC
from voevoda.rulesets.new_worlds.gm import gm_patch

PLAYERS = ["Анна", "Борис", "Вера"]


@pytest.fixture(scope="module")
def played() -> Game:
    """Three computer players, twelve turns on the default map."""
    game = Game.create("new-worlds", "nw", PLAYERS, bots=PLAYERS, seed="nw-game")
    for _ in range(12):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    return game


def test_computer_players_play_a_game(played: Game) -> None:
    """The computer opponent's posts are always accepted; the game moves: land is settled,
    cities built, points spent and rolled every turn."""
    state = played.state
    assert state["turn"] == 13
    sources = {s.source for step in played.steps for s in step.submissions.values()}
    assert sources == {"bot"}
    for p in PLAYERS:
        owned = [t for t, v in state["tiles"].items() if v.get("owner") == p]
        assert len(owned) > 5, p
        assert state["countries"][p]["religion"] is not None
    kinds = {e.kind for step in played.steps for e in step.events}
    assert {"roll", "ledger", "colonized", "built"} <= kinds


def test_replay_gives_the_same_state(played: Game) -> None:
    """A game is its journal: rebuilding it from the record gives byte-identical state."""
    again = Game(played.record)
    assert canonical_json(again.state) == canonical_json(played.state)


def test_rollback_and_resolve_again_rolls_the_same_dice() -> None:
    """Step k always draws from seed k: rolling back and resolving again changes nothing."""
    game = Game.create("new-worlds", "rb", PLAYERS, bots=PLAYERS, seed="rb")
    game.resolve(force=True)
    game.resolve(force=True)
    before = canonical_json(game.state)
    game.rollback(reason="проверка")
    game.resolve(force=True)
    assert canonical_json(game.state) == before


def test_public_export_verifies(played: Game, tmp_path: Path) -> None:
    """docs/dice.md: the public export re-derives every roll (`voevoda verify`)."""
    from voevoda.core.verify import verify_export

    data = played.export(public=True)
    path = tmp_path / "nw.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    report = verify_export(json.loads(path.read_text(encoding="utf-8")))
    assert report.problems == [], report.problems[:5]
    assert report.rolls >= 12 * 3 * 5 and report.citations >= 12 * 3


def test_views_cut_the_game_masters_secrets() -> None:
    """docs/engine.md, new-worlds: players and the public do not see deposits of epochs to come,
    the closed New World, scheduled events, notes, or others' proposals; the game master does."""
    game = Game.create("new-worlds", "v", PLAYERS, seed="views")
    anna = game.view("Анна")
    gm = game.view(GM)
    assert "AL8" in gm["deposits"] and gm["deposits"]["AL8"] == "spices"
    assert "AL8" not in anna["deposits"]
    assert all(r in ("bronze", "fur", "cotton") for r in anna["deposits"].values())
    assert all(row[33:].strip("?") == "" for row in anna["map"]["terrain"])
    assert "scheduled" not in json.dumps(anna["events"])
    for c in anna["countries"].values():
        assert "gm_note" not in c
    markers = game.ruleset.hidden_markers(game.state, "Анна")
    assert markers and not any(m in json.dumps(anna, ensure_ascii=False) for m in markers)


def test_every_format_and_language(played: Game) -> None:
    """The game master's post in text, BBCode (every flavour), Markdown and Telegram, Russian
    and English, with counted nouns that agree."""
    for fmt in ("text", "bbcode", "markdown", "telegram"):
        for lang in ("ru", "en"):
            text = played.report(PUBLIC, fmt=fmt, lang=lang)  # type: ignore[arg-type]
            assert ("Роллы на ход 13" if lang == "ru" else "Rolls for turn 13") in text
    ru = played.report(PUBLIC, fmt="bbcode")
    assert "[b]" in ru and "[list]" in ru
    for bad in (" 1 очков", " 2 очков", " 5 очка", " 21 очков", "1 очка,"):
        assert bad not in ru, bad


def test_the_map_has_a_legend_and_a_png(played: Game) -> None:
    """docs/maps.md: the title and turn, a legend of what is drawn, PNG through the core."""
    svg = played.map_svg("Анна")
    assert svg is not None
    assert "Условные обозначения" in svg and "Новые Миры" in svg and "ход 13" in svg
    assert 'data-terrain="closed"' in svg
    png = outputs.map_png(played, "Анна")
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    gm_svg = played.map_svg(GM)
    assert gm_svg is not None and 'data-terrain="closed"' not in gm_svg


def test_png_pixels_show_the_closed_region(played: Game) -> None:
    """The closed New World is drawn dark for a player and not for the game master (pixels)."""
    from tests.pngread import read_png

    png_player = outputs.map_png(played, "Анна")
    png_gm = outputs.map_png(played, GM)
    assert png_player is not None and png_gm is not None
    player_img = read_png(png_player)
    gm_img = read_png(png_gm)
    # AN14 sits in the closed region: the tile's middle pixel
    from voevoda.core.maps import HEADER, PAD
    from voevoda.rulesets.new_worlds.svgmap import AXIS, CELL

    x = int(PAD + AXIS + 39 * CELL + CELL / 2 - 6)
    y = int(HEADER + AXIS + 13 * CELL + 5)
    dark = [int(v) for v in player_img[y, x][:3]]
    light = [int(v) for v in gm_img[y, x][:3]]
    assert sum(dark) < 200, dark
    assert sum(light) > 200, light


# -- the game master's commands --------------------------------------------------------------

def _gm_game() -> tuple[Any, dict[str, Any]]:
    return make_game(land={"A": "B2 C2", "B": "S2"}, cities={"B2": 0})


@pytest.mark.parametrize(("command", "check"), [
    ("владелец D2 A", lambda s: s["tiles"]["D2"]["owner"] == "A"),
    ("owner C2 -", lambda s: "C2" not in s["tiles"] or s["tiles"]["C2"].get("owner") is None),
    ("город C2 1", lambda s: s["tiles"]["C2"]["city"] == 1),
    ("город B2 -", lambda s: s["tiles"]["B2"]["city"] is None),
    ("постройка B2 завод военный", lambda s: (s["tiles"]["B2"]["building"], s["tiles"]["B2"]["factory"]) == ("factory", "military")),
    ("ресурс C2 золото", lambda s: s["deposits"]["C2"] == "gold"),
    ("очки A 42", lambda s: s["countries"]["A"]["points"] == 42),
    ("ВО B 7", lambda s: s["countries"]["B"]["war_points"] == 7),
    ("эпоха iron", lambda s: s["events"]["queue"] == ["epoch:iron"]),
    ("заметка A подозрительно богат", lambda s: s["countries"]["A"]["gm_note"] == "подозрительно богат"),
    ("конец A", lambda s: s["outcome"] == {"reason": "gm", "winners": ["A"], "scores": {}}),
    ("roll A 30", lambda s: s["countries"]["A"]["roll"]["total"] == 30 and s["countries"]["A"]["points"] == 110),
])
def test_gm_commands_make_checked_patches(command: str, check: Any) -> None:
    """Every automatic result can be corrected by the game master: each command gives a JSON
    Patch whose result passes the state's checks."""
    import jsonpatch

    ruleset, state = _gm_game()
    patch = gm_patch(ruleset, state, command)
    assert check(jsonpatch.apply_patch(state, patch))


@pytest.mark.parametrize(("command", "message"), [
    ("владелец Z99 A", "клетки Z99 нет на карте"),
    ("владелец C2 Никто", "нет страны «Никто»"),
    ("город C2 много", "уровень города"),
    ("постройка C2 замок", "не постройка"),
    ("ресурс C2 мифрил", "нет ресурса"),
    ("эпоха stone", "нет эпохи"),
    ("событие plague", "нет ждущего события"),
    ("прыжок C2", "неизвестная команда"),
    ("постройка D5 порт", "a building without an owner"),
])
def test_gm_commands_refuse_what_would_break_the_game(command: str, message: str) -> None:
    ruleset, state = _gm_game()
    with pytest.raises(GameError) as info:
        gm_patch(ruleset, state, command)
    assert message in info.value.message_ru + " " + info.value.message_en


def test_engine_edit_is_checked_against_the_state_schema() -> None:
    """Issue 16: a GM edit that leaves a state the game cannot resolve is refused, field named."""
    game = Game.create("new-worlds", "e", PLAYERS, seed="edit")
    with pytest.raises(GameError, match="/tiles/F8/owner"):
        game.edit([{"op": "replace", "path": "/tiles/F8/owner", "value": "Никто"}], "опечатка")
    with pytest.raises(GameError):
        game.edit([{"op": "replace", "path": "/countries/Анна/points", "value": "много"}], "опечатка")
    game.edit([{"op": "replace", "path": "/countries/Анна/points", "value": 99}], "подарок ведущего")
    assert game.state["countries"]["Анна"]["points"] == 99


def test_cli_map_tools_and_gm(tmp_path: Path) -> None:
    """voevoda nw map-check / map-svg / map-config, and nw gm (dry run and applied)."""
    runner = CliRunner()
    default = Path(__file__).resolve().parents[3] / "src/voevoda/rulesets/new_worlds/data/maps/default.toml"
    result = runner.invoke(app, ["nw", "map-check", str(default)])
    assert result.exit_code == 0 and "40×28" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\nterrain = ["~~~", "~x~", "~~~"]\n[[starts]]\ntile = "B2"\n', encoding="utf-8")
    result = runner.invoke(app, ["nw", "map-check", str(bad)])
    assert result.exit_code == 1 and "row 2, column 2" in result.output
    svg = tmp_path / "m.svg"
    assert runner.invoke(app, ["nw", "map-svg", str(default), "-o", str(svg)]).exit_code == 0
    assert "<svg" in svg.read_text(encoding="utf-8")
    cfg = tmp_path / "cfg.json"
    assert runner.invoke(app, ["nw", "map-config", str(default), "-o", str(cfg)]).exit_code == 0
    assert json.loads(cfg.read_text(encoding="utf-8"))["map"]["name"] == "default"
    db = str(tmp_path / "nw.db")
    assert runner.invoke(app, ["new", "new-worlds", "--game", "g", "--players", "Анна,Борис", "--seed", "s",
                               "--db", db]).exit_code == 0
    result = runner.invoke(app, ["nw", "gm", "g", "очки Анна 40", "--dry-run", "--db", db])
    assert result.exit_code == 0 and '"value": 40' in result.output
    result = runner.invoke(app, ["nw", "gm", "g", "очки Анна 40", "--db", db])
    assert result.exit_code == 1 and "причины" in result.output
    result = runner.invoke(app, ["nw", "gm", "g", "очки Анна 40", "--reason", "компенсация", "--db", db])
    assert result.exit_code == 0
    from voevoda.store import Store

    assert Store(db).load("g").state["countries"]["Анна"]["points"] == 40


def test_cli_gm_epoch_says_when_it_begins(tmp_path: Path) -> None:
    """Issue 29 item 4: the game master's «эпоха iron» is queued for the next resolution
    (events.gm_queue; a new epoch begins with the turn after it, ruling R39): the command says
    so instead of «правка принята», and the epoch has not changed yet."""
    runner = CliRunner()
    db = str(tmp_path / "nw.db")
    assert runner.invoke(app, ["new", "new-worlds", "--game", "g", "--players", "Анна,Борис", "--seed", "s",
                               "--db", db]).exit_code == 0
    result = runner.invoke(app, ["nw", "gm", "g", "эпоха iron", "--reason", "ускорим игру", "--db", db])
    assert result.exit_code == 0, result.output
    assert "правка принята" not in result.output
    assert "эпоха «Железный век» начнётся при расчёте хода 1, с хода 2" in result.output
    assert "the Iron Age begins when turn 1 is resolved, with turn 2" in result.output
    from voevoda.store import Store

    assert Store(db).load("g").state["epoch"] == "bronze"


def test_an_invader_plays_by_itself() -> None:
    """Ruling R23: the Sea Peoples attack their neighbours with their points and roll next turn."""
    ruleset, state = make_game(epoch="iron", land={"A": "B2 C2 B3 C3 B4 C4", "B": "S2"},
                               invaders={"sea_peoples": "D2 D3 D4"}, points={"A": 0},
                               events={"sea_peoples": {"status": "active", "country": "sea_peoples", "continent": "A",
                                                       "first_turn": 1}})
    state["countries"]["sea_peoples"]["points"] = 30
    state, events = play(ruleset, state, {})
    battles = [e for e in events if e.kind == "battle" and e.data["attacker"] == "sea_peoples"]
    assert battles and battles[0].data["taken"]
    assert state["countries"]["sea_peoples"]["roll"]["modifiers"][0]["key"] == "invaders"


def test_a_secret_event_scheduled_by_the_game_master(tmp_path: Path) -> None:
    """000 «Эвенты»: «ОП имеет право менять и добавлять эвенты по своему желанию»: an event
    scheduled during the game fires on its turn; until then no player sees it."""
    event = tmp_path / "storm.toml"
    event.write_text('id = "storm"\nname_ru = "Буря"\nname_en = "Storm"\nturn = 2\n'
                     'message_ru = "Буря разметала флоты у берегов"\nmessage_en = "A storm scatters the fleets"\n'
                     '[[effects]]\nkind = "points"\namount = -3\n', encoding="utf-8")
    runner = CliRunner()
    db = str(tmp_path / "ev.db")
    assert runner.invoke(app, ["new", "new-worlds", "--game", "g", "--players", "Анна,Борис", "--seed", "s",
                               "--db", db]).exit_code == 0
    result = runner.invoke(app, ["nw", "event", "g", str(event), "--reason", "заготовка", "--db", db])
    assert result.exit_code == 0, result.output
    from voevoda.store import Store

    game = Store(db).load("g")
    assert "Буря разметала" not in outputs.report_text(game, "Анна")
    assert "Буря разметала" not in json.dumps(game.view("Анна"), ensure_ascii=False)
    game.resolve(force=True)
    assert "Буря разметала" not in outputs.report_text(game, "Анна")
    game.resolve(force=True)
    assert "Буря разметала флоты у берегов" in outputs.report_text(game, "Анна")
    result = runner.invoke(app, ["nw", "event", "g", str(event), "--reason", "ещё раз", "--db", db])
    assert result.exit_code == 1 and "уже есть" in result.output


@pytest.mark.parametrize("name", ["А:Б", "Анна; Борис", "x/y"])
def test_names_the_orders_could_not_read_are_refused(name: str) -> None:
    """A player's name is written in orders («война Борис …»): names the grammar cannot read back
    are refused when the game is made, with a reason (the core refuses «gm», «public» and names
    with blanks around them before the ruleset sees them)."""
    with pytest.raises(GameError, match="недопустимо"):
        Game.create("new-worlds", "n", [name, "Вера"], seed="names")


def test_too_many_players_for_the_map() -> None:
    with pytest.raises(GameError, match="10 стартовых мест"):
        Game.create("new-worlds", "n", [f"P{i}" for i in range(11)], seed="many")


def test_show_is_a_readable_summary(played: Game) -> None:
    """`voevoda show GAME --as PLAYER`: his own country first (faith, points and the roll they
    came from, war points, land, cities, deposits), then the countries' table, the wars,
    treaties, deals, events and the map; nothing of the view's JSON («"tiles"», braces)."""
    text = outputs.show_text(played, "Анна")
    view = played.view("Анна")
    me = view["countries"]["Анна"]
    assert "Ваша страна / your country: Анна" in text
    assert f"очки / points: {me['points']}; ВО / war points: {me['war_points']}" in text
    faces = " ".join(str(f) for f in me["roll"]["faces"])
    assert f"5d{me['roll']['die']} → {faces}" in text and f"= {me['roll']['total']}" in text
    land = [t for t, v in view["tiles"].items() if v.get("owner") == "Анна" and t in view["deposits"]]
    assert f"земли / land ({sum(1 for t, v in view['tiles'].items() if v.get('owner') == 'Анна' and _is_land(view, t))})" in text
    for tile in land:
        assert tile in text.split("ресурсы на земле / deposits:")[1].splitlines()[0]
    assert "Страны / countries:" in text and "Войны / wars" in text and "Карта / map:" in text
    assert "{" not in text and '"tiles"' not in text
    public = outputs.show_text(played, PUBLIC)
    assert "Ваша страна" not in public and "Страны / countries:" in public


def _is_land(view: dict[str, Any], tile: str) -> bool:
    from voevoda.rulesets.new_worlds.views import kinds_of

    return kinds_of(view)[tile] == "land"


def test_show_lists_the_event_countries_war() -> None:
    """Ruling R25: «эвентовые захватчики» are at war with every country outside their event,
    with no declared war to show: `voevoda show` says so, one line per event (the Khagan with
    his tributaries), instead of «Войны / wars: —»."""
    ruleset, state = make_game(epoch="antiquity", land={"A": "B2 C2", "B": "S2"},
                               invaders={"khaganate": {"tiles": "F2 G2", "event": "khaganate"},
                                         "khaganate_1": {"tiles": "F3", "event": "khaganate", "kind": "tributary"}})
    text = ruleset.summary(ruleset.view(state, "A"), "A")
    wars = text.split("Войны / wars:")[1].split("Договоры")[0]
    assert "khaganate, khaganate_1: со всеми прочими странами / with every other country" in wars
    quiet = make_game(land={"A": "B2 C2", "B": "S2"})
    assert "Войны / wars: —" in quiet[0].summary(quiet[0].view(quiet[1], "A"), "A")


def test_show_gives_the_cities_roll_bonus() -> None:
    """000 «III. Постройки, 1»: «Города дают игрокам +1 к итогу ролла … Каждое улучшение города
    дает ещё +1»: `voevoda show` sums it in the heading and marks an upgraded city with its own."""
    ruleset, state = make_game(epoch="middle_ages", land={"A": "B2 C2 D2", "B": "S2"}, cities={"B2": 1, "D2": 0})
    text = ruleset.summary(ruleset.view(state, "A"), "A")
    assert "города / cities (2, +3 к роллу / to the roll): B2 (+2), D2" in text
