"""A Hypothesis fuzz of everything voevoda reads from a file or a person outside posts (issue 16,
«Bad input never gets a traceback or a hang»): `verify` and `import` on malformed shapes and
random mutations of real exports, `edit` on patches of any shape, `roll` on any text, battle files
and house rules with any value at any place. Each input must either work or be refused with an
error a person can act on (DataError, GameError, a refused post) — never another exception — and
within a few seconds (an alarm turns a hang into a failure). The order parsers are fuzzed with
posts in tests/core/test_fuzz_posts.py."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import signal
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from voevoda.core import notation
from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.errors import DataError, GameError, OrdersRejected
from voevoda.core.journal import GameRecord
from voevoda.core.rulesdata import read_toml
from voevoda.core.verify import replay_problems, shape_problems, verify_export

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = (DataError, GameError, OrdersRejected, ValidationError)
FAST = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class Hang(Exception):
    pass


@contextlib.contextmanager
def at_most(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the body runs longer than ``seconds``."""
    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats()
    | st.text(max_size=8) | st.sampled_from(["", "0" * 64, "zz", "-1", "1e400", "faces", "steps"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


GAMES = ("toy-twenty", "ring-of-power", "culture-conquest", "steel-rose-battle", "steel-rose", "new-worlds",
         "thrones")
"""Every installed game and the core's toy (issue 30, item 12a: the fuzz covers every game's exports and
house rules, not only some)."""


def played(ruleset_id: str, name: str = "fuzz") -> Game:
    """A short game of ``ruleset_id`` as it is really played: the computer opponents' posts (the
    battle's demo posts, it has no computer opponent) for two steps, a rollback and the step
    resolved again."""
    players = ["Анна", "Борис"] if ruleset_id == "steel-rose-battle" else ["Анна", "Борис", "Вера"]
    bots = () if ruleset_id == "steel-rose-battle" else players
    # the campaign's bots weigh attacks on the batched simulator's estimate: its first compile
    # takes minutes, which these tests leave to the simulator's own
    config = {"bot_odds_battles": 0} if ruleset_id == "steel-rose" else None
    game = Game.create(ruleset_id, name, players, bots=bots, config=config, seed=name)
    script = game.ruleset.demo_script(players) if not bots else []
    for turn in range(2):
        for player, text in (script[turn] if turn < len(script) else {}).items():
            game.submit(player, text)
        game.resolve(force=True)
        if turn == 0:
            game.rollback("fuzz")
            game.resolve(force=True)
    return game


@functools.cache
def real_exports(ruleset_id: str = "toy-twenty") -> tuple[dict[str, Any], dict[str, Any]]:
    """A public and a full export of a short game. The toy's has every kind of record: setup and
    sealed rolls, citations, a rollback, a reopening and an edit; each game's is played by
    :func:`played`."""
    if ruleset_id != "toy-twenty":
        game = played(ruleset_id)
        return (json.loads(json.dumps(game.export(public=True))), json.loads(json.dumps(game.export())))
    game = Game.create("toy-twenty", "fuzz", ["Анна", "Бо", "Ция"], seed="fuzz")
    for turn in range(4):
        (player,) = game.waiting_for()
        game.submit(player, "roll 2")
        game.resolve()
        if turn == 1:
            game.rollback("fuzz")
            game.reopen(player, "fuzz")
            game.submit(player, "roll 3")
            game.resolve()
            game.edit([{"op": "replace", "path": "/turn", "value": game.state["turn"]}], "fuzz")
    return (json.loads(json.dumps(game.export(public=True))), json.loads(json.dumps(game.export())))


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value[:3]):
            found += paths(child, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, original: dict[str, Any]) -> Any:
    """``original`` with one to three places replaced, removed or duplicated."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            return draw(json_values)
        parent = data
        for part in where[:-1]:
            parent = parent[part]
        last = where[-1]
        action = draw(st.sampled_from(["replace", "replace", "remove", "duplicate"]))
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "remove":
            del parent[last]
        elif isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[last] = [parent[last], parent[last]]
        if not isinstance(data, dict):
            break
    return data


EACH_GAME = settings(FAST, max_examples=40)


@pytest.mark.parametrize("ruleset_id", GAMES)
@EACH_GAME
@given(data=st.data(), public=st.booleans())
def test_verify_answers_every_mutation_of_a_real_export(ruleset_id: str, data: st.DataObject, public: bool) -> None:
    export = data.draw(mutated(real_exports(ruleset_id)[0 if public else 1]))
    with at_most(10):
        report = verify_export(export)
    assert report.malformed or isinstance(report.problems, list)


@FAST
@given(export=json_values)
def test_verify_answers_any_json(export: Any) -> None:
    with at_most(5):
        report = verify_export(export)
    assert not report.ok or isinstance(export, dict)


def import_like_the_cli(data: Any) -> None:
    """What `voevoda import` and `replay --check` do with a parsed file, short of storing it."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise DataError("not a voevoda export")
    if "secret" not in data["game"] or "entries" not in data["game"]:
        raise DataError("a public export has no journal")
    shape = shape_problems(data)
    if shape:
        raise DataError("; ".join(shape))
    record = GameRecord.model_validate(data["game"])
    replay_problems(data)
    Game(record)


@pytest.mark.parametrize("ruleset_id", GAMES)
@EACH_GAME
@given(data=st.data())
def test_import_refuses_or_replays_every_mutation_of_a_real_export(ruleset_id: str, data: st.DataObject) -> None:
    export = data.draw(mutated(real_exports(ruleset_id)[1]))
    with at_most(10), contextlib.suppress(*REFUSALS):
        import_like_the_cli(export)


@pytest.mark.parametrize("ruleset_id", GAMES)
@pytest.mark.parametrize("players", [[], ["Анна", "Анна", "Борис"], ["Анна"]], ids=["none", "twice", "one"])
def test_a_full_export_with_wrong_players_is_refused_clearly(ruleset_id: str, players: list[str]) -> None:
    """Issue 30, item 12a: a full Culture & Conquest export whose `game.players` is `[]` made
    `verify`, `replay --check` and `import` print a ValueError traceback, where the other games
    refused it; every game refuses it (and players named twice, and too few) with a clear error."""
    export = copy.deepcopy(real_exports(ruleset_id)[1])
    export["game"]["players"] = players
    report = verify_export(export)
    assert report.malformed or not report.ok or len(players) == 1
    with contextlib.suppress(*REFUSALS):
        import_like_the_cli(export)


patch_ops = st.lists(st.one_of(
    json_values,
    st.fixed_dictionaries({"op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test", "nope"]),
                           "path": st.sampled_from(["", "/", "/turn", "/piles", "/piles/Анна", "/seats/0", "/x/y",
                                                    "/seats/-", "turn", "/~2", "/piles/Бо"]),
                           "value": json_values,
                           "from": st.sampled_from(["/turn", "/seats", "/nowhere"])}),
), max_size=4)


@FAST
@given(patch=patch_ops)
def test_edit_refuses_or_applies_a_patch_of_any_shape(patch: Any) -> None:
    game = Game.create("toy-twenty", "fuzz", ["Анна", "Бо"], seed="edit")
    with at_most(5), contextlib.suppress(*REFUSALS):
        game.edit(patch, "fuzz")
        assert Game(game.record).state == game.state


@FAST
@given(text=st.text(alphabet="0123456789dDкFf%+-*/() khl²\n", max_size=60) | st.text(max_size=30))
def test_roll_reads_or_refuses_any_text(text: str) -> None:
    with at_most(5), contextlib.suppress(OrdersRejected):
        notation.roll(text, Dice.from_text("fuzz").stream("roll"))


BATTLE = ROOT / "examples" / "steel-rose" / "empire-vs-cult.toml"


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value) if isinstance(value, float) else str(value)


toml_values = st.recursive(
    st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(max_size=6)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=5), children,
                                                                      max_size=3),
    max_leaves=6,
)


@FAST
@given(role=st.sampled_from(["attacker", "defender"]),
       key=st.sampled_from(["army", "garrison", "modifiers", "gunpowder", "faction", "name", "deployment", "plan",
                            "nope"]),
       value=toml_values | st.sampled_from([{"knight": 2**40}, {"nope": 3}, {"faction": "steel_rose", "level": 9}])
       | st.just(5))
def test_a_battle_file_with_any_value_anywhere_is_read_or_refused(tmp_path_factory: pytest.TempPathFactory,
                                                                   role: str, key: str, value: Any) -> None:
    from voevoda.rulesets.steel_rose.battle.sides import build_sides, load_battle_file
    from voevoda.rulesets.steel_rose.rules import load_rules

    text = BATTLE.read_text(encoding="utf-8")
    header = f"[{role}]\n"
    text = text.replace(header, header + f"{key} = {toml_value(value)}\n", 1)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # a duplicate key: the file is not TOML
    path = tmp_path_factory.mktemp("battle") / "battle.toml"
    path.write_text(text, encoding="utf-8")
    with at_most(10), contextlib.suppress(*REFUSALS):
        battle = load_battle_file(path)
        build_sides(battle.specs, load_rules())


def defaults(ruleset_id: str) -> dict[str, Any]:
    data = ROOT / "src" / "voevoda" / "rulesets"
    if ruleset_id == "ring-of-power":
        return read_toml(data / "ring_of_power" / "data" / "rules.toml")
    if ruleset_id == "culture-conquest":
        return {p.stem: read_toml(p) for p in sorted((data / "culture_conquest" / "data").glob("*.toml"))}
    if ruleset_id in ("new-worlds", "thrones"):
        return read_toml(data / ruleset_id.replace("-", "_") / "data" / "rules.toml")
    if ruleset_id == "steel-rose":
        campaign = data / "steel_rose" / "campaign" / "data"
        return {"campaign": read_toml(campaign / "campaign.toml"), "buildings": read_toml(campaign / "buildings.toml")}
    raw = {"units": read_toml(data / "steel_rose" / "data" / "units.toml")["units"],
           "battle": read_toml(data / "steel_rose" / "data" / "battle.toml")}
    raw["factions"] = read_toml(data / "steel_rose" / "data" / "factions.toml")["factions"]
    return raw


@functools.cache
def house_paths(ruleset_id: str) -> list[tuple[Any, ...]]:
    return [p for p in paths(defaults(ruleset_id)) if p and not any(isinstance(k, int) for k in p)]


@pytest.mark.parametrize("ruleset_id", GAMES[1:])
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_house_rules_with_any_value_anywhere_are_refused_or_played(data: st.DataObject, ruleset_id: str) -> None:
    """Every game's house rules, each with 120 examples (it was 120 among the six games together,
    and missed Culture & Conquest's tracebacks: issue 30, item 12a)."""
    where = data.draw(st.sampled_from(house_paths(ruleset_id)))
    value = data.draw(toml_values | st.sampled_from([0, -1, 10**6, 10**9, 2**63, "NaN", [], {}]))
    override: Any = value
    for key in reversed(where):
        override = {key: override}
    play_house_rules(ruleset_id, override)


@pytest.mark.parametrize(("ruleset_id", "override"), [
    ("culture-conquest", {"leaders": "NaN"}),
    ("culture-conquest", {"rules": 1000000}),
    ("culture-conquest", {"cultures": ["egyptian"]}),
    ("culture-conquest", {"technologies": {"technologies": {"polytheism": {"d100": []}}}}),
])
def test_the_house_rules_the_fuzz_broke_are_refused_naming_the_field(ruleset_id: str, override: Any) -> None:
    """Issue 30, item 12a: malformed Culture & Conquest house rules made `voevoda new` print a
    traceback (in `deep_merge`, an IndexError in data.py); each is refused naming the table."""
    with pytest.raises(DataError) as refused:
        Game.create(ruleset_id, "fuzz", ["Анна", "Борис"], house_rules=override, seed="house")
    assert next(iter(override)) in str(refused.value)


def play_house_rules(ruleset_id: str, override: Any) -> None:
    players = ["Анна", "Борис"] if ruleset_id != "thrones" else ["Анна", "Борис", "Вера"]
    with at_most(20), contextlib.suppress(*REFUSALS):
        # the campaign's bots weigh attacks on the estimate here: the simulator's first compile
        # takes minutes, and the time limit would cut it short (the odds have tests of their own)
        config = {"bot_odds_battles": 0} if ruleset_id == "steel-rose" else None
        game = Game.create(ruleset_id, "fuzz", players, config=config, house_rules=override, seed="house",
                           bots=players if ruleset_id != "steel-rose-battle" else ())
        for _ in range(2):
            if game.outcome() is not None:
                break
            game.resolve(force=True)


# -- posts: random mutations of real posts, for every order parser --------------------------------

@functools.cache
def real_posts() -> list[tuple[Game, str, str]]:
    """(game, player, a real post for the prompt that player has now), for every landed game."""
    examples = ROOT / "examples"
    rop = Game.create("ring-of-power", "posts", ["Анна", "Борис", "Вера"], seed="posts")
    posts = [(rop, "Анна", (examples / "ring-of-power" / "turn1_anna.txt").read_text(encoding="utf-8")),
             (rop, "Борис", (examples / "ring-of-power" / "turn1_boris_en.txt").read_text(encoding="utf-8"))]
    cc = Game.create("culture-conquest", "posts", ["Анна", "Борис", "Вера"], seed="posts")
    for _ in range(12):
        (player, *_) = cc.waiting_for()
        posts.append((cc, player, cc.bot_post(player)))
        cc.resolve(force=True)
    battle = tomllib.loads(BATTLE.read_text(encoding="utf-8"))
    sr = Game.create("steel-rose-battle", "posts", ["Алиса", "Борис"], seed="posts")
    posts.append((sr, "Алиса", battle["attacker"]["deployment"]))
    return posts + newer_posts()


def newer_posts() -> list[tuple[Game, str, str]]:
    """The Steel Rose campaign, New Worlds and Thrones: every post of their corpus
    (tests/posts/corpus), the campaign's example posts, and their computer opponents' posts a
    few steps into a game."""
    import yaml

    from tests.posts.test_corpus import CORPUS, start

    posts: list[tuple[Game, str, str]] = []
    games: dict[str, Game] = {}
    for ruleset_id in ("steel-rose", "new-worlds", "thrones"):
        for case in yaml.safe_load((CORPUS / f"{ruleset_id}.yaml").read_text(encoding="utf-8")):
            key = json.dumps([ruleset_id, case.get("game"), case.get("before")], ensure_ascii=False, sort_keys=True)
            if key not in games:
                games[key] = start(ruleset_id, case)
            posts.append((games[key], case["player"], case["post"]))
        players = ["Анна", "Борис", "Вера"]
        game = Game.create(ruleset_id, "posts", players, bots=players, seed="posts")
        for _ in range(3):
            game.resolve(force=True)
        posts += [(game, player, game.bot_post(player)) for player in game.waiting_for()]
    campaign = Game.create("steel-rose", "posts", ["Анна", "Борис", "Вера", "Глеб", "Дарья"], seed="posts")
    seats = {"empire": "Анна", "heaven_en": "Вера", "cult": "Глеб", "ogres": "Дарья"}
    for name, player in seats.items():
        text = (ROOT / "examples" / "steel-rose-campaign" / f"turn1_{name}.txt").read_text(encoding="utf-8")
        posts.append((campaign, player, text))
    return posts


@st.composite
def mutated_post(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines() or [""]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        index = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        action = draw(st.sampled_from(["insert", "delete", "duplicate", "number", "markup", "cut"]))
        line = lines[index]
        if action == "insert":
            at = draw(st.integers(min_value=0, max_value=len(line)))
            lines[index] = line[:at] + draw(st.text(max_size=4) | st.sampled_from(["²", "٣", "[/b]", "->", "0", ","]))
            lines[index] += line[at:]
        elif action == "delete" and len(lines) > 1:
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, line)
        elif action == "number":
            lines[index] = "".join(draw(st.sampled_from(["9" * 4301, "-1", "0", "²", "10" * 12]))
                                   if c.isdigit() else c for c in line)
        elif action == "markup":
            lines[index] = draw(st.sampled_from(["[b]{}[/b]", "**{}**", "[quote]{}", "> {}", "[spoiler]{}[/spoiler]"]))
            lines[index] = lines[index].format(line)
        else:
            lines[index] = line[: len(line) // 2]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_real_post_is_accepted_or_refused_cleanly(data: st.DataObject) -> None:
    """Every order parser on random mutations of real posts (examples/, the computer opponents'
    posts): accepted, or refused with problems a person can act on; never an exception, a hang, or a
    change to the game."""
    game, player, text = data.draw(st.sampled_from(real_posts()))
    post = data.draw(mutated_post(text))
    with at_most(10), contextlib.suppress(OrdersRejected, GameError):
        game.check(player, post)


@pytest.mark.parametrize("post", [
    "Авенталь (" + "9" * 4301 + " ур.) (Большой)\nДоход: 300з",
    "Армия " + "9" * 61 + ": все — атака Хольмгард",
])
def test_the_campaign_posts_the_fuzz_broke_are_refused(post: str) -> None:
    """Found by the mutation fuzz above (issue 16 «Numbers in posts», «Bad input never gets a
    traceback»): a city level of 4,301 digits in the campaign's city list and an army name longer
    than the state allows were tracebacks; each is refused naming the line."""
    game = Game.create("steel-rose", "fuzz", ["Анна", "Борис"], seed="found")
    with pytest.raises(OrdersRejected) as refused:
        game.check("Анна", post)
    assert [p.line for p in refused.value.problems] == [1]
