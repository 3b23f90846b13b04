"""Bad input never gets a traceback or a hang (issue 16): bounds on everything `verify` and `import`
read, on `roll`, on battle files, house rules and game config — each refused with a clear error
naming the field, quickly (the timeout marks catch a hang)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from voevoda.cli import app
from voevoda.core import notation
from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.errors import DataError, GameError, ParseError
from voevoda.core.rulesdata import read_house_rules
from voevoda.core.verify import verify_export

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def honest() -> tuple[dict[str, Any], dict[str, Any]]:
    game = Game.create("toy-twenty", "bounds", ["Анна", "Бо"], seed="bounds")
    for _ in range(3):
        (player,) = game.waiting_for()
        game.submit(player, "roll 2")
        game.resolve()
    public = json.loads(json.dumps(game.export(public=True)))
    full = json.loads(json.dumps(game.export()))
    return public, full


def omen(export: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = next(r for r in export["steps"][0]["dice"] if r["label"] == "omen")
    return record


MALFORMED = [
    ("a non-hex seed", lambda e: e["steps"][0].__setitem__("seed", "zz" * 32), "steps.0.seed"),
    ("sides that do not match faces", lambda e: omen(e).__setitem__("sides", [6, 6, 6]), "sides lists 3 dice for 1 faces"),
    ("sides 0", lambda e: omen(e).__setitem__("sides", 0), "a die of 0 sides"),
    ("a bad run entry", lambda e: omen(e).update(runs=[["six", 1]], count=1, digest="0" * 64), "runs"),
    ("a run of 10^12", lambda e: omen(e).update(runs=[[6, 10**12]], count=10**12, digest="0" * 64), "count"),
    ("a step number of 10^9", lambda e: e["steps"][0].__setitem__("number", 10**9), "steps.0.number"),
    ("a chain_length of 10^9", lambda e: e["game"].__setitem__("chain_length", 10**9), "game.chain_length"),
    ("a string where a face belongs", lambda e: omen(e).__setitem__("faces", ["6"]), "faces"),
    ("a number of 5000 digits", lambda e: omen(e).__setitem__("faces", [10**5000]), "faces.0: a number of about"),
    ("nesting 2000 deep", lambda e: e["steps"][0]["events"][0]["data"].__setitem__("x", _nested(2000)),
     "nested deeper than 32 levels"),
    ("no steps key", lambda e: e.pop("steps"), "steps: Field required"),
    ("no setup", lambda e: e.pop("setup"), "setup: Field required"),
    ("a list at the top", None, "(root): an export is a JSON object"),
]


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("what", "damage", "named"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_verify_refuses_a_malformed_export_naming_the_field(what: str, damage: Any, named: str) -> None:
    public, _ = honest()
    export: Any = copy.deepcopy(public)
    if damage is None:
        export = [export]
    else:
        damage(export)
    report = verify_export(export)
    assert report.malformed and not report.ok
    assert any(named in p for p in report.problems), report.problems


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("what", "damage", "named"), MALFORMED[:8], ids=[m[0] for m in MALFORMED[:8]])
def test_verify_and_import_commands_name_the_field(tmp_path: Path, what: str, damage: Any, named: str) -> None:
    _, full = honest()
    damage(full)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(full), encoding="utf-8")
    for command in (["verify", str(path)], ["import", str(path), "--db", str(tmp_path / "x.db")],
                    ["replay", str(path), "--check"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
        assert named in result.output, (command, result.output)


def test_a_file_that_is_not_json_or_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and "nested too deeply" in result.output
    path.write_bytes(b"\xff\xfe{")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and "not UTF-8" in result.output


# -- roll --------------------------------------------------------------------------------------

ROLLS = [
    ("+".join(["1d6"] * 500), "longer than 500 characters"),
    ("9" * 4400, "longer than 500 characters"),
    ("9" * 10, "more than 9 digits"),
    ("+".join(["1d6"] * 51), "more than 50 terms"),
    ("(" * 25 + "1" + ")" * 25, "nested deeper than 20 levels"),
    ("-" * 80 + "1", "nested deeper than 20 levels"),
    ("+".join(["450d10000"] * 23), "more than 10000 dice at once"),
    ("10001d6", "more than 10000 dice at once"),
    ("2d1000001", "1 to 1000000 sides"),
]


@pytest.mark.timeout(10)
@pytest.mark.parametrize(("expression", "said"), ROLLS)
def test_roll_limits(expression: str, said: str) -> None:
    """«roll: limits on the number of dice, terms, expression depth, and digits»."""
    with pytest.raises(ParseError) as refused:
        notation.roll(expression, Dice.from_text("x").stream("roll"))
    assert said in refused.value.problems[0].message_en
    result = runner.invoke(app, ["roll", expression, "--seed", "x"])
    assert result.exit_code == 1 and said in result.output


def test_roll_within_the_limits_and_a_leading_minus_needs_no_dashes() -> None:
    assert notation.roll("+".join(["1d6"] * 49) + "+1", Dice.from_text("x").stream("r")).total > 49
    assert notation.roll("10000d6", Dice.from_text("x").stream("r")).total > 10_000
    result = runner.invoke(app, ["roll", "-1d6", "--seed", "x"])
    assert result.exit_code == 0 and result.output.startswith("-1d6: 1d6 → ")


# -- house rules, config and battle files -----------------------------------------------------------

@pytest.mark.parametrize(("ruleset_id", "overrides", "named"), [
    ("ring-of-power", {"movement": {"max_steps": 1_000_000_000}}, "movement.max_steps"),
    ("ring-of-power", {"chupacabra": {"initial": 10**9}}, "chupacabra.initial"),
    ("ring-of-power", {"units": {"pawn": {"strength": 2**63}}}, "units.pawn.strength: 9223372036854775808 is out of bounds"),
    ("culture-conquest", {"leaders": {"die": 10**9}}, "die"),
    ("culture-conquest", {"cultures": {"die": 0}}, "die"),
    ("culture-conquest", {"rules": {"harvest": {"food_per_farmer": 0}}}, "food_per_farmer"),
    ("culture-conquest", {"rules": {"setup": {"cities": 10**9}}}, "cities"),
    ("culture-conquest", {"cultures": {"cultures": {"minoan": {"d20": 0}}}}, "no culture on d20 face 5"),
    ("culture-conquest", {"rules": {"war": {"vp_dice": "1000000000d6"}}}, "1 to 100 dice"),
    ("steel-rose-battle", {"units": {"knight": {"attack": 2**63}}}, "units.knight.attack"),
    ("steel-rose-battle", {"units": {"knight": _nested(2000)}}, "nested deeper than 32 levels"),
])
@pytest.mark.timeout(30)
def test_house_rules_out_of_bounds_are_refused_naming_the_field(ruleset_id: str, overrides: dict[str, Any],
                                                                named: str) -> None:
    """«Battle files and house rules: … an attack of 2^63 accepted by `new` and crashing every later
    resolve, `max_steps = 1000000000` hanging `new`: every value validated with bounds at load time,
    with the field named»."""
    players = ["Анна", "Борис"]
    with pytest.raises((DataError, GameError, ValueError)) as refused:
        Game.create(ruleset_id, "x", players, house_rules=overrides, seed="bounds")
    assert named in str(refused.value)


def test_a_house_rules_file_too_deep_or_too_big_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 3000 + "1" + "}" * 3000, encoding="utf-8")
    with pytest.raises(DataError, match="nested"):
        read_house_rules(deep)
    big = tmp_path / "big.toml"
    big.write_text("[units.knight]\nattack = 9223372036854775808\n", encoding="utf-8")
    with pytest.raises(DataError, match="units.knight.attack: 9223372036854775808 is out of bounds"):
        read_house_rules(big)
    yaml_keys = tmp_path / "keys.yaml"
    yaml_keys.write_text("1: 2\n", encoding="utf-8")
    with pytest.raises(DataError, match="a key that is not text"):
        read_house_rules(yaml_keys)


@pytest.mark.parametrize(("side", "named"), [
    ('army = { nope = 3 }', "[attacker].army.nope: unknown unit"),
    ('army = { knight = 9223372036854775807 }', "attacker.army.knight: 9223372036854775807 is out of bounds"),
    ('army = { knight = 1000000000 }', "[attacker].army.knight: expected a whole number of units from 0 to 10,000"),
    ("modifiers = 5", "[attacker].modifiers: expected a table"),
    ('army = { knight = "many" }', "[attacker].army.knight"),
    ("garrison = 3", "[attacker].garrison: expected"),
])
@pytest.mark.timeout(30)
def test_battle_files_are_validated_with_bounds(tmp_path: Path, side: str, named: str) -> None:
    """«wrong types (`army = { nope = 3 }` for a garrison, `modifiers = 5`), counts of 2^63 or 10^9
    units»: refused, the field named, exit 1."""
    text = (EXAMPLES / "steel-rose" / "empire-vs-cult.toml").read_text(encoding="utf-8")
    text = text.replace('[attacker]\nname = "Алиса"', f'[attacker]\nname = "Алиса"\n{side}', 1)
    path = tmp_path / "battle.toml"
    path.write_text(text, encoding="utf-8")
    for command in ("battle", "odds"):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 1, result.output
        assert named in result.output


def test_a_battle_file_nested_2000_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    result = runner.invoke(app, ["battle", str(path)])
    assert result.exit_code == 1 and "nested" in result.output


@pytest.mark.parametrize(("config", "named"), [
    ({"sides": [{"army": {"knight": 10**9}}, {"army": {"knight": 1}}]}, "army.knight"),
    ({"sides": [{"army": {"knight": 2**63}}, {"army": {"knight": 1}}]}, "9223372036854775808 is out of bounds"),
    ({"sides": [{"army": {"knight": 5}, "modifiers": 5}, {"army": {"knight": 1}}]}, "modifiers"),
])
def test_a_battle_game_config_is_validated_with_bounds(config: dict[str, Any], named: str) -> None:
    with pytest.raises((DataError, GameError, ValueError)) as refused:
        Game.create("steel-rose-battle", "x", ["Анна", "Борис"], config=config, seed="bounds")
    assert named in str(refused.value)
