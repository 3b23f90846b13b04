"""Every output goes through `voevoda.core.outputs` (issue 15, «One place decides what leaves the
engine for a viewer»), and what the commands print is cut per viewer (issue 15, leaks 1–3)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import voevoda.cli
from voevoda.cli import app
from voevoda.core import outputs
from voevoda.core.dice import Dice
from voevoda.core.engine import Game

runner = CliRunner()

OUTPUT_METHODS = {"view", "report", "map_svg", "export", "awaiting", "events_for", "chronicle"}
"""What produces viewer output in the engine and the rulesets; only `voevoda.core.outputs` may
call these on behalf of a command."""


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "outputs.db")


def _through_outputs(node: ast.Call) -> bool:
    """A call on `outputs`, or on a service sight (`sight.…`, `service.sight(…).…`), whose
    methods are the channels of `voevoda.core.outputs` bound to one viewer."""
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    if isinstance(receiver, ast.Name):
        return receiver.id in ("outputs", "sight", "service")
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
        return receiver.func.id == "_service"  # the service's own checked operation (export)
    return (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute)
            and receiver.func.attr == "sight")


def test_no_command_produces_output_around_the_outputs_module() -> None:
    """A command that printed a view, report, map, export or prompt by itself would escape the
    non-interference test, which walks `outputs.CHANNELS`: no module of the command line may
    call those methods except through `voevoda.core.outputs` (or a service sight, which is
    those channels bound to its viewer: test_sight_methods_are_channels)."""
    found = []
    for path in sorted(Path(voevoda.cli.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in OUTPUT_METHODS and not _through_outputs(node)):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "commands producing output around voevoda.core.outputs:\n" + "\n".join(found)


def test_the_service_produces_output_only_through_the_outputs_module() -> None:
    """The service is the door every front-end goes through: it too calls no view, report, map,
    export or prompt method but through `voevoda.core.outputs`."""
    import voevoda.service as service_package

    found = []
    for path in sorted(Path(service_package.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in OUTPUT_METHODS
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "outputs")):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "the service producing output around voevoda.core.outputs:\n" + "\n".join(found)


def test_sight_methods_are_channels() -> None:
    """A service sight hands out only what `voevoda.core.outputs` renders for its viewer: no
    method of `voevoda.service.sight` calls a view, report, map or export method itself."""
    import voevoda.service.sight as sight_module

    tree = ast.parse(Path(sight_module.__file__).read_text(encoding="utf-8"))
    found = [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr in OUTPUT_METHODS | {"export", "state_after"}
             and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "outputs")]
    assert not found, "sight methods producing output around voevoda.core.outputs:\n" + "\n".join(found)


def test_the_scan_catches_a_command_that_prints_a_view() -> None:
    """The scan above is not vacuous: the call it forbids is found in a planted module."""
    tree = ast.parse("def show(game):\n    print(game.view('Анна'))\n")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    assert [c.func.attr for c in calls if isinstance(c.func, ast.Attribute)] == ["view"]


def test_every_channel_names_its_command() -> None:
    """The one list: the channels the issue names are all declared, each with its command."""
    for name in ("status", "show", "show --json", "report", "map", "games", "export --public",
                 "order", "order --check"):
        assert name in outputs.CHANNELS, name
        assert outputs.CHANNELS[name].command.startswith("voevoda ")


# -- leak 1: Ring of Power status and prompts --------------------------------------------------

TREASURY = re.compile(r"Казна (\d+), налог к уплате (\d+)")


def test_ring_of_power_status_shows_a_player_only_his_own_treasury(db: str) -> None:
    """003 «Видимость» and ruling 34: «money, bids, orders, statements ... of others are not»
    public. A player's status shows his prompt (with his treasury) and, for the others, only
    whether they have posted; `public` sees no prompt; the game master sees every prompt; `new`,
    `resolve` and `rollback` are the game master's and print his status."""
    code, out = run("new", "ring-of-power", "--game", "r", "--players", "Анна,Борис,Вера", "--seed", "s",
                    "--db", db)
    assert code == 0, out
    assert len(TREASURY.findall(out)) == 3
    code, out = run("status", "r", "--as", "Анна", "--db", db)
    assert code == 0 and len(TREASURY.findall(out)) == 1
    assert re.search(r"… Анна: Ход 1: ваши приказы\. Казна", out)
    assert "… Борис (ждём / awaited)" in out and "… Вера (ждём / awaited)" in out
    code, out = run("status", "r", "--db", db)
    assert code == 0 and "Казна" not in out and "Treasury" not in out and "… Анна (ждём / awaited)" in out
    code, out = run("status", "r", "--as", "gm", "--db", db)
    assert code == 0 and len(TREASURY.findall(out)) == 3
    code, out = run("order", "r", "--player", "Борис", "-", "--db", db, input="вражда Анна\n")
    assert code == 0, out
    assert len(TREASURY.findall(out)) == 1 and re.search(r"✓ Борис: .*Казна", out)
    assert "… Анна (ждём / awaited)" in out
    code, out = run("status", "r", "--as", "Анна", "--db", db)
    assert "✓ Борис (приказы получены / posted)" in out and len(TREASURY.findall(out)) == 1
    code, out = run("resolve", "r", "--force", "--db", db)
    assert code == 0 and len(TREASURY.findall(out)) == 3
    code, out = run("rollback", "r", "--reason", "recount", "--db", db)
    assert code == 0 and len(TREASURY.findall(out)) == 3


def test_ring_of_power_prompts_from_a_view_carry_only_the_viewers_money() -> None:
    """The prompts pass through the view: asked of Анна's view, only Анна's prompt names a
    treasury, and it is hers."""
    game = Game.create("ring-of-power", "r", ["Анна", "Борис"], seed="prompts")
    game.state["players"]["Борис"]["money"] = 4321
    prompts = game.ruleset.awaiting(game.view("Анна"))
    assert TREASURY.search(prompts["Анна"].text_ru)
    assert int(TREASURY.findall(prompts["Анна"].text_ru)[0][0]) == game.state["players"]["Анна"]["money"]
    assert "Казна" not in prompts["Борис"].text_ru and "4321" not in json.dumps([p.to_json() for p in prompts.values()])
    assert "4321" in game.ruleset.awaiting(game.view("gm"))["Борис"].text_ru


# -- leak 3: Culture & Conquest, the offer under negotiation -----------------------------------

def _cc_until_reply() -> Game:
    """A three-player game played by the computer's choices until Анна may trade; Анна offers
    Вера a deal, and Вера is asked to reply."""
    game = Game.create("culture-conquest", "cc", ["Анна", "Борис", "Вера"], seed="offer")
    for index in range(400):
        prompts = game.awaiting()
        if prompts.get("Анна") is not None and prompts["Анна"].kind == "offer":
            break
        for player in game.waiting_for():
            stream = Dice.from_text(f"offer/{index}").stream(player)
            text = game.ruleset.bot(game.view(player), player, stream)
            assert text is not None
            game.submit(player, text)
        game.resolve(force=True)
    accepted, echo = outputs.order_reply(game, "Анна", "предложить Вера: даю обещание мир навеки; прошу обещание дружба")
    assert accepted, echo
    game.resolve()
    assert game.awaiting()["Вера"].kind == "reply"
    return game


def test_culture_conquest_status_shows_the_offer_only_to_its_parties() -> None:
    """Ruling 31 of culture_conquest: «An offer is seen only by its two parties; a concluded
    deal is public.» The reply prompt carries the offer's text: Вера (asked) sees it in her
    status, Борис and the public see only that Вера is awaited, the game master sees all."""
    game = _cc_until_reply()
    assert "мир навеки" in outputs.status_text(game, "Вера")
    for outsider in ("Борис", "public"):
        text = outputs.status_text(game, outsider)
        assert "предлагает" not in text and "offers" not in text and "мир навеки" not in text, text
        assert "… Вера (ждём / awaited)" in text
    assert "мир навеки" in outputs.status_text(game, "gm")


# -- leak 2: Steel Rose, the config in the public export --------------------------------------

def test_steel_rose_public_export_holds_no_army(db: str, tmp_path: Path) -> None:
    """002: «Игрокам НЕдоступна следующая информация: Составы и расположение армий противника».
    The public export carries the options and each side's player and city garrison, never an
    army, its faction or its powder, from the moment the game is created."""
    config = tmp_path / "battle.json"
    config.write_text(json.dumps({"sides": [
        {"player": "Алиса", "army": {"knight": 5, "archer": 10}, "faction": "empire", "gunpowder": 7},
        {"player": "Борис", "garrison": {"faction": "steel_rose", "level": 2, "large": False}, "gunpowder": 33},
    ]}), encoding="utf-8")
    code, out = run("new", "steel-rose-battle", "--game", "b", "--players", "Алиса,Борис", "--seed", "s",
                    "--config", str(config), "--db", db)
    assert code == 0, out
    public = tmp_path / "public.json"
    assert run("export", "b", "--public", "-o", str(public), "--db", db)[0] == 0
    data = json.loads(public.read_text(encoding="utf-8"))
    assert data["game"]["config"] == {"sides": [
        {"player": "Алиса"}, {"player": "Борис", "garrison": {"faction": "steel_rose", "level": 2, "large": False}}]}
    text = public.read_text(encoding="utf-8")
    assert "knight" not in text and "archer" not in text and "gunpowder" not in text and "empire" not in text
