"""A Thrones game through the engine: computer houses play it to its end, it replays byte for byte,
its public record verifies, each viewer sees only what it may, reports speak every format and both
languages with words that agree, the map draws with its legend and as a PNG, and the command line
runs a game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.core.journal import canonical_json
from voevoda.core.ruleset import GM, PUBLIC

PLAYERS = ["Анна", "Борис", "Вера", "Глеб"]


def test_computer_houses_play_a_whole_game(whole_game: Game) -> None:
    """Ten rounds: every phase is reached, every post of the computer is accepted, the game ends with
    a winner by castles (001 and the base rules' end)."""
    game = whole_game
    assert game.outcome() is not None and game.state["phase"] == "over"
    sources = {s.source for step in game.steps for s in step.submissions.values()}
    assert sources == {"bot"}
    kinds = {e.kind for step in game.steps for e in step.events}
    assert {"holy_draw", "holy_placed", "declared", "alliances", "westeros", "orders", "march", "income",
            "statement", "dues", "game_over"} <= kinds
    phases = {step.phase for step in game.steps}
    assert {"holy", "diplomacy", "trade", "westeros", "planning", "action"} <= phases
    assert game.state["turn"] == 10


def test_replay_gives_the_same_state(whole_game: Game) -> None:
    """A game is its journal: rebuilding it from the record (bots re-run from their views) gives
    byte-identical state and no bot post that differs."""
    again = Game(whole_game.record, check_bots=True)
    assert canonical_json(again.state) == canonical_json(whole_game.state)
    assert again.bot_problems == []


def test_public_export_verifies(whole_game: Game, tmp_path: Path) -> None:
    """docs/dice.md: the public export re-derives every roll (the dice-offs, the fourth deck, the
    bribes) and every event's citation."""
    from voevoda.core.verify import verify_export

    path = tmp_path / "got.json"
    path.write_text(json.dumps(whole_game.export(public=True), ensure_ascii=False), encoding="utf-8")
    report = verify_export(json.loads(path.read_text(encoding="utf-8")))
    assert report.problems == [], report.problems[:5]
    assert report.citations >= 9


def test_rollback_and_resolve_again_rolls_the_same_dice() -> None:
    game = Game.create("thrones", "rb", PLAYERS, bots=PLAYERS, seed="rb")
    for _ in range(3):
        game.resolve(force=True)
    before = canonical_json(game.state)
    game.rollback(reason="проверка")
    game.resolve(force=True)
    assert canonical_json(game.state) == before


def test_views_hide_the_sums_in_hand() -> None:
    """«имеющиеся на руках суммы не озвучиваются»: a house sees its own hand, reserve and statement,
    nobody else's; the public sees none; the game master sees all."""
    game = Game.create("thrones", "v", PLAYERS, config={"holy_lands": False}, seed="v")
    game.state["treasury"]["Борис"]["power"] = 13
    anna = game.view("Анна")
    assert anna["me"] == {"player": "Анна", "power": 5, "reserve": 15, "opening": 5, "statement": []}
    assert "treasury" not in anna and "treasury" not in game.view(PUBLIC)
    assert '"power": 13' not in json.dumps(anna, ensure_ascii=False)
    assert game.view(GM)["treasury"]["Борис"]["power"] == 13
    markers = game.ruleset.hidden_markers(game.state, "Анна")
    assert markers and not any(m in json.dumps(anna, ensure_ascii=False) for m in markers)


def test_deals_are_seen_by_their_parties_only() -> None:
    game = Game.create("thrones", "d", PLAYERS, config={"holy_lands": False}, seed="d")
    assert outputs.order_reply(game, "Анна", "сделка Ланнистер 2 за «пропуск через Ров Кейлин»")[0]
    game.resolve(force=True)
    for viewer, sees in (("Анна", True), ("Борис", True), ("Вера", False), (PUBLIC, False), (GM, True)):
        text = outputs.report_text(game, viewer)
        assert ("пропуск через Ров Кейлин" in text) == sees, viewer
        assert ("пропуск через Ров Кейлин" in json.dumps(game.view(viewer), ensure_ascii=False)) == sees, viewer


def test_every_format_and_language(whole_game: Game) -> None:
    """A round's chronicle in text, BBCode (every flavour), Markdown and Telegram, Russian and
    English, with counted nouns that agree."""
    turns = whole_game.turns_resolved()
    for turn in (turns[0], turns[1], turns[-1]):
        for fmt in ("text", "bbcode", "markdown", "telegram"):
            for lang in ("ru", "en"):
                text = whole_game.report(PUBLIC, turn, fmt=fmt, lang=lang)  # type: ignore[arg-type]
                assert ("Положение" if lang == "ru" else "Standing") in text
    everything = "\n".join(whole_game.report(v, t) for v in [PUBLIC, *PLAYERS] for t in turns)
    for bad in (r"\b1 монет\b", r"\b[2-4] монет\b", r"\b5 монеты\b", r"\b1 пеших\b", r"\b[2-4] пеший\b",
                r"\b5 пешего\b", r"\b1 рыцаря\b", r"\b5 рыцаря\b", r"\b21 рыцарей\b"):
        assert not re.search(bad, everything), bad
    bbcode = whole_game.report(PUBLIC, turns[1], fmt="bbcode")
    assert "[b]" in bbcode and "[list]" in bbcode


def test_a_houses_report_holds_its_statement(whole_game: Game) -> None:
    """Issue 21: «each house gets a statement every turn» — opening, lines, closing."""
    text = whole_game.report("Анна", whole_game.turns_resolved()[2])
    assert "Казна: " in text and "на начало хода" in text and "на конец хода" in text
    assert "Казна: " not in whole_game.report(PUBLIC, whole_game.turns_resolved()[2])


def test_the_map_has_a_legend_and_a_png(whole_game: Game) -> None:
    """docs/maps.md: the title and round, a legend of what is drawn, PNG through the core."""
    svg = whole_game.map_svg("Анна", turn=3)
    assert svg is not None
    for needle in ("Условные обозначения", "Игра престолов", "после хода 3", "замок (большой)", "корона: доход каждый ход",
                   "Винтерфелл", "Королевская Гавань", 'data-units="'):
        assert needle in svg, needle
    english = whole_game.map_svg("Анна", lang="en", turn=3)
    assert english is not None and "Legend" in english and "Winterfell" in english
    png = outputs.map_png(whole_game, PUBLIC)
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_map_shows_holders_and_holy_places() -> None:
    game = Game.create("thrones", "m", PLAYERS, seed="map")
    for _ in range(3):
        game.resolve(force=True)
    svg = game.map_svg(PUBLIC)
    assert svg is not None
    assert "владения: Старк" in svg and "владения: Ланнистер" in svg
    assert "Старая богороща" in svg and "Чертог утонувшего бога" in svg
    assert svg.count('data-area="') == 58


def test_the_png_paints_a_holders_colour() -> None:
    """A stronghold held by Lannister is painted in Lannister's red on the picture."""
    from tests.pngread import read_png
    from voevoda.core.maps import HEADER, PAD

    game = Game.create("thrones", "m", PLAYERS, config={"holy_lands": False}, seed="map")
    image = read_png(outputs.map_png(game, PUBLIC) or b"")
    area = game.ruleset.board["lannisport"]
    from voevoda.rulesets.thrones.svgmap import PAD as MAP_PAD

    x = int(PAD + area.x + MAP_PAD - 15)
    y = int(HEADER + area.y + MAP_PAD + 12)
    r, g, b, _ = (int(v) for v in image[y, x])
    assert r > g + 40 and r > b + 40, (r, g, b)


def test_the_command_line_runs_a_game(tmp_path: Path) -> None:
    from voevoda.cli import app

    runner = CliRunner()
    db = str(tmp_path / "got.db")
    result = runner.invoke(app, ["new", "thrones", "--game", "got", "--players", "Анна,Борис,Вера", "--seed", "s",
                                 "--db", db])
    assert result.exit_code == 0, result.output
    status = runner.invoke(app, ["status", "got", "--db", db])
    assert "holy" in status.output
    winner = next(line for line in status.output.splitlines() if "…" in line).split()[1].rstrip(":")
    post = tmp_path / "post.txt"
    post.write_text("Привет!\n[b]святыня Харренхолл[/b]\n", encoding="utf-8")
    result = runner.invoke(app, ["order", "got", "--player", winner, str(post), "--db", db])
    assert result.exit_code == 0, result.output
    assert "святыня → Харренхолл" in result.output and "не прочитано как приказы" in result.output
    assert runner.invoke(app, ["resolve", "got", "--db", db]).exit_code == 0
    report = runner.invoke(app, ["report", "got", "--as", "public", "--format", "bbcode", "--db", db])
    assert report.exit_code == 0 and "Харренхолл" in report.output
    png = tmp_path / "got.png"
    assert runner.invoke(app, ["map", "got", "--as", "public", "-o", str(png), "--db", db]).exit_code == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_the_demo_plays_thrones() -> None:
    """`voevoda demo` plays every installed game: Thrones by its computer houses."""
    from voevoda.cli.demo import play_demo_game

    game = play_demo_game("thrones", 2)
    assert game.ruleset.progress(game.state)[0] >= 2
    assert outputs.report_text(game, PUBLIC)


def test_a_table_that_sends_nothing_still_ends_the_game() -> None:
    """Every phase has default orders (docs/rulings/thrones.md: a loner, no bid, a pass, the holy
    place at home, the dues by sale): a game resolved at every deadline with no post reaches its end."""
    game = Game.create("thrones", "silent", PLAYERS, seed="silent")
    for _ in range(200):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    assert game.outcome() is not None
    assert all(step.defaulted for step in game.steps)
    assert game.ruleset.check_state(game.state) == []


def test_warnings_in_the_echo() -> None:
    """What an accepted post leaves to chance is said with the echo: a consent to pass with no
    support order there gives nothing (001 «проброска, 1»: «обязательно приказ подмоги»)."""
    game = Game.create("thrones", "w", PLAYERS, config={"holy_lands": False}, seed="w")
    game.state.update({"turn": 2, "alliances": [["Анна", "Борис"]]})
    accepted, reply = outputs.order_reply(game, "Анна", "оборона Белая Гавань\nпропуск Ланнистер Белая Гавань",
                                          check=True)
    assert accepted and "пропуск без приказа подмоги в этой области ничего не даст" in reply
    accepted, reply = outputs.order_reply(game, "Анна", "подмога Белая Гавань\nпропуск Ланнистер Белая Гавань",
                                          check=True)
    assert accepted and "предупреждения" not in reply


def _bidding(bid: str) -> Game:
    game = Game.create("thrones", "bids", PLAYERS, config={"holy_lands": False}, seed="bids")
    game.state.update({"turn": 2, "phase": "bids", "declared": {p: [] for p in PLAYERS},
                       "bidding": {"track": "iron_throne", "bids": {}, "ties": []}})
    ok, text = outputs.order_reply(game, "Анна", bid)
    assert ok, text
    return game


def test_a_bid_is_sealed_until_every_bid_is_in() -> None:
    """001 «Модификации фазы Вестероса, 2»: «Битва королей ... играется молча ... ставки втемную,
    имеющиеся на руках суммы не озвучиваются»: two games that differ only in the bid one house has
    posted give every other house and the public the same outputs, byte for byte, until the bids
    are revealed together."""
    from voevoda.core.outputs import walk

    high, low = _bidding("ставка 3"), _bidding("ставка 1")
    for viewer in ("Борис", "Вера", "Глеб", PUBLIC):
        a = dict(walk(high, viewer, derived=False))
        b = dict(walk(low, viewer, derived=False))
        assert a.keys() == b.keys()
        for name in a:
            assert a[name] == b[name], (viewer, name)
    for game in (high, low):
        for p in ("Борис", "Вера", "Глеб"):
            assert outputs.order_reply(game, p, "ставка 0")[0]
        game.resolve()
    assert "«Железный трон»: ставки Старк 3, Баратеон 0" in outputs.report_text(high, "Борис")
    assert "«Железный трон»: ставки Старк 1, Баратеон 0" in outputs.report_text(low, "Борис")


def test_a_march_arrow_leaves_the_units_letters_readable() -> None:
    """The map's march arrows start at the rim of the area left, not on the letters of the units
    still standing there (a table reads «П» at Winterfell after a knight rode out)."""
    from voevoda.rulesets.thrones.svgmap import R_LAND

    game = Game.create("thrones", "arrow", PLAYERS, config={"holy_lands": False}, seed="arrow")
    game.resolve(force=True)
    assert outputs.order_reply(game, "Анна", "поход Винтерфелл → Ров Кейлин: рыцарь")[0]
    game.resolve(force=True)
    svg = outputs.map_svg(game, PUBLIC)
    assert svg is not None
    board = game.ruleset.board
    # the map is drawn with a margin: a border from the Bay of Ice starts at that area's centre
    bay = next((float(x), float(y)) for x, y in re.findall(r'<line x1="([\d.]+)" y1="([\d.]+)"[^>]*stroke-dasharray', svg))
    dx, dy = bay[0] - board["bay-of-ice"].x, bay[1] - board["bay-of-ice"].y
    wx, wy = board["winterfell"].x + dx, board["winterfell"].y + dy
    stark = game.ruleset.rules.houses["stark"].color
    x1, y1 = (float(v) for v in re.findall(rf'<line x1="([\d.]+)" y1="([\d.]+)"[^>]*stroke="{stark}"', svg)[0])
    assert ((x1 - wx) ** 2 + (y1 - wy) ** 2) ** 0.5 >= R_LAND


def test_computer_houses_name_the_fourth_card_when_the_table_draws_it() -> None:
    """docs/rulings/thrones.md T12 (option deck_draw = "table"): the Iron Throne holder names the
    fourth card with the base cards («вестерос: ничего» and «четвёртая карта: …» in one post); a
    computer holder's post is accepted every round, so the game runs to its end (it stopped with
    «в этой фазе нужно указать какие карты Вестероса сыграли» when only the fourth card was kept)."""
    game = Game.create("thrones", "table-deck", PLAYERS, bots=PLAYERS, seed="messages",
                       config={"deck_draw": "table", "turns": 4})
    for _ in range(300):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    assert game.outcome() is not None
    westeros = [s for step in game.steps if step.phase == "westeros" for s in step.submissions.values()]
    assert westeros and all(s.source == "bot" for s in westeros)
    assert all(any(o.kind == "fourth" for o in s.orders) and any(o.kind == "westeros" for o in s.orders)
               for s in westeros)
