"""docs/dice.md is enough to check a game: the verifier of tests/core/docs_verifier.py, written
from the document alone with nothing but hashlib, hmac and json, passes the public and full
exports of every installed game and fails forged ones; the document's own «Checking a game
yourself» script passes a real export of either procedure and fails a forged one (issue 16, «A
verifier written from docs/dice.md alone»; issue 28)."""

from __future__ import annotations

import ast
import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core.docs_verifier import digest_of, verify
from voevoda.core import registry
from voevoda.core.engine import Game
from voevoda.core.ruleset import Ruleset

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
GAMES = sorted(r for r in registry.available() if not r.startswith("toy-")) + ["toy-twenty"]
_played: dict[str, Game] = {}


def played(ruleset_id: str) -> Game:
    """A few steps of a game with computer opponents where it has them (a battle game to its end)."""
    if ruleset_id not in _played:
        cls = registry.get(ruleset_id)
        players = ["Алиса", "Борис", "Вера"][: max(cls.min_players, min(3, cls.max_players))]
        bots = players if cls.bot is not Ruleset.bot else []
        game = Game.create(ruleset_id, "docs", players, bots=bots, seed="docs only")
        for _ in range(3):
            if game.outcome() is not None:
                break
            if not bots:
                for player in game.waiting_for():
                    game.submit(player, "roll 3")
            game.resolve(force=True)
        _played[ruleset_id] = game
    return _played[ruleset_id]


def exported(ruleset_id: str, public: bool = True) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(played(ruleset_id).export(public=public), ensure_ascii=False))
    return result


def redigest(export: dict[str, Any]) -> None:
    """A forger's last move: every digest recomputed (§6), so only the dice can give him away."""
    previous = ""
    for record in [export["setup"], *export["steps"]]:
        record["digest"] = digest_of(record, previous, export["game"].get("procedure", 1))
        previous = record["digest"]


def test_the_docs_verifier_uses_only_the_standard_library() -> None:
    tree = ast.parse((Path(__file__).parent / "docs_verifier.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {str(node.module).split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "hashlib", "hmac", "json", "typing"}


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_real_exports_of_every_game_pass(ruleset_id: str) -> None:
    """§1–§6 on the public export (seeds, public rolls, citations, digests) and on the full one
    (the secret re-derives every sealed roll and gives the commitment)."""
    game = played(ruleset_id)
    for public in (True, False):
        export = exported(ruleset_id, public)
        assert export["steps"], "the game resolved some steps"
        assert verify(export, game.record.commitment) == [], (public, verify(export))


def forge_face(export: dict[str, Any], sealed: bool) -> str:
    for record in [export["setup"], *export["steps"]]:
        for dice in record["dice"]:
            if bool(dice.get("sealed")) == sealed:
                if "digest" in dice:
                    dice["digest"] = "0" * 64
                else:
                    dice["faces"][0] = dice["faces"][0] % (dice["sides"] if isinstance(dice["sides"], int)
                                                           else dice["sides"][0]) + 1
                return f"step {record['number']}: {dice['label']} does not re-derive"
    pytest.skip("no such record in this game")


@pytest.mark.parametrize("ruleset_id", ["toy-twenty", "steel-rose-battle", "culture-conquest"])
def test_forged_exports_fail(ruleset_id: str) -> None:
    """Each forgery the document says it catches: a face (or a compact record's digest), a sealed
    face with the secret known, a seed, a dropped or swapped step, a quoted face with every
    digest recomputed, another commitment."""
    honest = exported(ruleset_id)

    export = copy.deepcopy(honest)
    expected = forge_face(export, sealed=False)
    redigest(export)
    assert expected in verify(export)

    full = exported(ruleset_id, public=False)
    if any(d.get("sealed") for r in [full["setup"], *full["steps"]] for d in r["dice"]):
        expected = forge_face(full, sealed=True)
        assert expected in verify(full)

    export = copy.deepcopy(honest)
    export["steps"][0]["link"] = "ab" * 32
    assert "step 1: its link does not hash to the link before" in verify(export)
    export = copy.deepcopy(honest)
    export["steps"][0]["seed"] = "ab" * 32
    assert "step 1: its seed is not what its link and inputs give" in verify(export)

    if len(honest["steps"]) > 1:
        export = copy.deepcopy(honest)
        del export["steps"][0]
        assert any("found where step 1 belongs" in p for p in verify(export))
        export = copy.deepcopy(honest)
        export["steps"][0], export["steps"][1] = export["steps"][1], export["steps"][0]
        assert any("found where step 1 belongs" in p for p in verify(export))

    assert verify(honest, "00" * 32) == ["the commitment is not the one saved at creation"]


def test_a_forged_citation_fails_even_with_every_digest_recomputed() -> None:
    """§5 on Culture & Conquest, whose events quote their dice: a quoted face changed."""
    export = exported("culture-conquest")
    number, event = next((s["number"], e) for s in export["steps"] for e in s["events"]
                         if e["kind"] == "resources" and e["data"].get("dice_refs"))
    event["data"]["faces"] = [event["data"]["faces"][0] % event["data"]["die"] + 1]
    redigest(export)
    assert verify(export) == [f"step {number}: event resources quotes other faces at /faces"]


def test_the_documents_own_script_checks_an_export(tmp_path: Path) -> None:
    """The «Checking a game yourself» script, run as printed on a battle's public export (compact
    records, a rerun citation it skips) and on Culture & Conquest's (citations of step 0); then
    on a forged one."""
    script = re.search(r"## Checking a game yourself.*?```python\n(.*?)```", DOCS.read_text(encoding="utf-8"),
                       re.DOTALL)
    assert script is not None
    (tmp_path / "check.py").write_text(script.group(1), encoding="utf-8")
    old = Path(__file__).parent / "data" / "procedure1" / "steel-rose-battle.json"  # a game of procedure 1
    for export in (exported("steel-rose-battle"), exported("culture-conquest"),
                   json.loads(old.read_text(encoding="utf-8"))):
        (tmp_path / "game.json").write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
        done = subprocess.run([sys.executable, "check.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "all public rolls check out" in done.stdout, done.stderr
    forged = exported("culture-conquest")
    forge_face(forged, sealed=False)
    (tmp_path / "game.json").write_text(json.dumps(forged, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "check.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "AssertionError" in done.stderr
