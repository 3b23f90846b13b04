"""Dice procedure 2 (issue 28, docs/dice.md §3, §6, §7): a step's seeds wait for its last post, the
posts are bound by salted commitments that hide them, the setup's record covers the game, an export
is held to the last digest a player saw, and the games created before keep procedure 1."""

from __future__ import annotations

import copy
import functools
import hashlib
import hmac
import json
import random
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.core import docs_verifier as docs
from voevoda.core import procedure, registry
from voevoda.core.dice import HashChain, Stream
from voevoda.core.engine import Game
from voevoda.core.journal import GameRecord, canonical_json
from voevoda.core.ruleset import Ruleset
from voevoda.core.verify import replay_problems, verify_export

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "dice.md"
FIXTURES = Path(__file__).parent / "data" / "procedure1"
ALL = sorted(registry.available())


def exported(game: Game, public: bool = True) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(game.export(public=public), ensure_ascii=False))
    return result


@functools.cache
def played(ruleset_id: str) -> Game:
    """A few steps of every game, its seats played by the computer where it has opponents (the
    toy «Угадайка» by posts)."""
    cls = registry.get(ruleset_id)
    players = ["Алиса", "Борис", "Вера"][: max(cls.min_players, min(3, cls.max_players))]
    bots = players if cls.bot is not Ruleset.bot else []
    game = Game.create(ruleset_id, "procedure", players, bots=bots, seed="procedure 2")
    for _ in range(3):
        if game.outcome() is not None:
            break
        game.resolve(force=True)
    return game


# -- the document's test vectors -------------------------------------------------------------------

def vectors() -> dict[str, Any]:
    block = re.search(r"### Test vectors.*?```json\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "docs/dice.md has its test vectors"
    result: dict[str, Any] = json.loads(block.group(1))
    return result


def test_the_test_vectors_are_what_the_engine_computes() -> None:
    """docs/dice.md «Test vectors»: every value, from the secret of `--seed vectors`, is what the
    engine's own code gives."""
    v = vectors()
    secret = bytes.fromhex(v["secret"])
    assert secret == hashlib.sha256(b"voevoda-secret:vectors").digest()
    chain = HashChain(secret, v["chain_length"])
    assert {k: chain.seed(int(k)).hex() for k in v["links"]} == v["links"]
    stream = Stream(bytes.fromhex(v["roll"]["seed"]), v["roll"]["label"])
    assert [stream.roll(die) for die in v["roll"]["sides"]] == v["roll"]["faces"]
    assert stream._buffer[:8].hex() == v["roll"]["word_0"]
    assert procedure.canonical(v["canonical"]["value"]) == v["canonical"]["text"]
    for post in v["posts"]:
        salt = procedure.post_salt(secret, post["step"], post["attempt"], post["player"])
        assert salt.hex() == post["salt"] and procedure.commit_post(salt, post["text"]) == post["commitment"]
    edit = v["edit"]
    salt = procedure.edit_salt(secret, edit["step"], edit["attempt"], edit["index"])
    assert salt.hex() == edit["salt"] and procedure.commit_patch(salt, edit["patch"]) == edit["commitment"]
    digest = procedure.inputs_digest(v["inputs"])
    assert digest.hex() == v["inputs_digest"]
    assert procedure.step_seed(chain.seed(1), digest).hex() == v["seed"]
    assert procedure.sealed_seed(secret, 1, digest).hex() == v["sealed"]
    assert procedure.bot_seed(secret, 1).hex() == v["bot"]
    assert procedure.config_commitment(secret, v["config"]) == v["config_commitment"]
    assert procedure.record_digest(v["setup"], "", 2) == v["setup_digest"]
    assert procedure.record_digest(v["step"], v["setup_digest"], 2) == v["step_digest"]
    assert v["step"]["inputs"] == v["inputs"] and v["step"]["seed"] == v["seed"]


def test_the_test_vectors_are_what_the_document_says() -> None:
    """The same values from the verifier written from docs/dice.md alone (tests/core/docs_verifier.py)."""
    v = vectors()
    secret = bytes.fromhex(v["secret"])
    assert [link.hex() for link in docs.chain_links(secret, v["chain_length"], 2)] == list(v["links"].values())
    assert docs.faces(bytes.fromhex(v["roll"]["seed"]), v["roll"]["label"], v["roll"]["sides"]) == v["roll"]["faces"]
    assert docs.canonical(v["canonical"]["value"]).decode() == v["canonical"]["text"]
    for post in v["posts"]:
        assert docs.post_commitment(docs.post_salt(secret, 1, post["attempt"], post["player"]), post["text"]) == \
            post["commitment"]
    assert docs.edit_commitment(docs.edit_salt(secret, 1, 0, 0), v["edit"]["patch"]) == v["edit"]["commitment"]
    digest = docs.inputs_digest(v["inputs"])
    assert docs.step_seed(bytes.fromhex(v["links"]["1"]), digest).hex() == v["seed"]
    assert docs.sealed_seed(secret, 1, digest).hex() == v["sealed"]
    assert docs.bot_seed(secret, 1).hex() == v["bot"]
    assert docs.config_commitment(secret, v["config"]) == v["config_commitment"]
    assert docs.digest_of(v["setup"], "", 2) == v["setup_digest"]
    assert docs.digest_of(v["step"], v["setup_digest"], 2) == v["step_digest"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_javascript_verifier_gets_the_test_vectors(tmp_path: Path) -> None:
    """docs/dice.md is exact enough for a browser: tests/core/js/check_vectors.mjs, nothing but Node's
    crypto and JSON.stringify with keys sorted by code point, re-derives every vector; and fails
    when one is changed."""
    script = Path(__file__).parent / "js" / "check_vectors.mjs"
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(vectors(), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(["node", str(script), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "all vectors check out" in done.stdout, done.stdout + done.stderr
    forged = vectors()
    forged["step"]["events"][0]["data"]["damage"] = 240.5
    path.write_text(json.dumps(forged, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(["node", str(script), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "step digest" in done.stdout


def test_numbers_are_written_as_javascript_writes_them() -> None:
    """«Canonical JSON»: every float as JavaScript writes it — two implementations of the rule
    (the engine's, and the one written from the document) agree on 20,000 doubles of every size."""
    rnd = random.Random(28)
    numbers = [240.0, -0.0, 0.1 + 0.2, 1e-4, 1e-5, 1.5e-7, 1e21, 1e16, 2.0**53, 5e-324, 123456789012345.6]
    while len(numbers) < 20_000:
        x = struct.unpack("d", rnd.randbytes(8))[0] if rnd.random() < 0.5 else rnd.uniform(-1, 1) * 10 ** rnd.randint(-9, 22)
        if x == x and abs(x) != float("inf"):
            numbers.append(x)
    for x in numbers:
        assert procedure.es_number(x) == docs.js_number(x), x
    assert procedure.es_number(240.0) == "240" and procedure.es_number(1e-5) == "0.00001"
    assert procedure.canonical({"a": [240.0, 25.2, 1e-5]}) == '{"a":[240,25.2,0.00001]}'
    assert procedure.canonical({"b": 1, "a": "Ж"}) == canonical_json({"b": 1, "a": "Ж"})


# -- nobody knows a roll before the last post --------------------------------------------------------

def guess(posts: dict[str, str], seed: str = "last post") -> Game:
    game = Game.create("toy-guess", "g", ["Анна", "Борис", "Вера"], seed=seed)
    for player, text in posts.items():
        game.submit(player, text)
    game.resolve(force=True)
    return game


def test_every_input_of_a_step_changes_its_seeds() -> None:
    """docs/dice.md §3: the seed of step k derives from its link and the digest of its inputs — each
    player's post, the fact that a seat was defaulted, the game master's edits in effect. The same
    posts give the same seed; any one post changed, left out, or an edit made, gives another; the
    link is the chain's link k all the same."""
    posts = {"Анна": "guess 1", "Борис": "guess 2", "Вера": "guess 3"}
    base = guess(posts).steps[0]
    assert guess(posts).steps[0].seed == base.seed
    assert base.link == HashChain(hashlib.sha256(b"voevoda-secret:last post").digest()).seed(1).hex()
    for player in posts:
        changed = guess({**posts, player: "guess 6"}).steps[0]
        assert changed.link == base.link and changed.seed != base.seed, player
        silent = guess({p: t for p, t in posts.items() if p != player}).steps[0]
        assert silent.inputs is not None and silent.inputs["posts"][player] == {"source": "default"}
        assert silent.seed != base.seed, player
    edited = Game.create("toy-guess", "g", ["Анна", "Борис", "Вера"], seed="last post")
    for player, text in posts.items():
        edited.submit(player, text)
    edited.edit([{"op": "replace", "path": "/scores/Анна", "value": 1}], "a point for the map")
    step = edited.resolve()
    assert step.inputs is not None and len(step.inputs["edits"]) == 1 and step.seed != base.seed


def test_the_sealed_seed_depends_on_the_posts_and_a_bot_posts_before_them() -> None:
    """§3: sealed_k = HMAC(K, "voevoda/sealed/v2" || k || D_k) — the hidden rolls (Twenty's secret
    piles) wait for the last post too. A computer opponent's post for step k comes from bot_k before
    the other posts are in: whatever they are, its post is the same, is in the step's inputs as its
    own, and replays with the bots checked."""
    def twenty(text: str) -> Game:
        game = Game.create("toy-twenty", "t", ["Анна", "Бо"], bots=["Бо"], seed="sealed")
        while game.waiting_for() != ["Анна"]:
            game.resolve(force=True)
        game.submit("Анна", text)
        game.resolve()
        return game

    one, two = twenty("roll 1"), twenty("roll 3")
    step_one, step_two = (next(s for s in g.steps if "Анна" in s.submissions) for g in (one, two))
    assert step_one.number == step_two.number and step_one.inputs_digest != step_two.inputs_digest
    sealed = [g._step_seeds(s.number, bytes.fromhex(s.inputs_digest))[1] for g, s in ((one, step_one), (two, step_two))]
    assert sealed[0] != sealed[1]
    piles = [next(r for r in s.dice if r["label"] == "pile/Анна") for s in (step_one, step_two)]
    assert all(r["sealed"] for r in piles)

    def guessing(text: str) -> Game:
        game = Game.create("toy-guess", "g", ["Анна", "Борис", "Вера"], bots=["Вера"], seed="bot first")
        assert "Вера" in game.pending  # the computer posted as the step opened
        game.submit("Анна", text)
        game.submit("Борис", "guess 2")
        game.resolve()
        return game

    first, second = guessing("guess 1"), guessing("guess 6")
    bots = [g.steps[0].inputs["posts"]["Вера"] for g in (first, second)]  # type: ignore[index]
    assert bots[0] == bots[1] and bots[0]["source"] == "bot"
    assert first.steps[0].seed != second.steps[0].seed
    export = exported(first, public=False)
    assert replay_problems(export) == [] and verify_export(export).bots_checked > 0


def test_a_commitment_hides_its_post() -> None:
    """§3 «Salted commitments, not hashes»: Анна's guess is one of six texts; no plain hash, nor any
    HMAC keyed by what the public record holds, finds it among them — but her salt, which only her
    report gives, opens it; the same post under another secret has another commitment."""
    game = guess({"Анна": "guess 4", "Борис": "guess 2", "Вера": "guess 5"})
    step = game.steps[0]
    assert step.inputs is not None
    commitment = step.inputs["posts"]["Анна"]["commitment"]
    public = exported(game)
    published = [bytes.fromhex(v) for v in (public["game"]["commitment"], public["steps"][0]["link"],
                                            public["steps"][0]["seed"], public["setup"]["digest"])]
    for number in range(1, 7):
        text = f"guess {number}"
        assert hashlib.sha256(text.encode()).hexdigest() != commitment
        assert all(hmac.new(key, text.encode(), "sha256").hexdigest() != commitment for key in published)
    salt = game.post_salt(step, "Анна")
    assert salt is not None and salt in game.report("Анна") and commitment in game.report("Анна")
    assert salt not in game.report("Борис") and salt not in game.report("public")
    assert hmac.new(bytes.fromhex(salt), b"guess 4", "sha256").hexdigest() == commitment
    other = guess({"Анна": "guess 4", "Борис": "guess 2", "Вера": "guess 5"}, seed="another secret")
    assert other.steps[0].inputs is not None and other.steps[0].inputs["posts"]["Анна"]["commitment"] != commitment


def test_a_rolled_back_step_keeps_its_dice_and_a_reopened_post_gets_a_new_salt() -> None:
    """docs/dice.md «Rollbacks»: the frozen posts give the same inputs and the same dice; a post
    sent again after a reopening has attempt 1 and a salt its author did not know, so even the same
    text gives new dice that he could not compute from the published link and his old salt."""
    game = guess({"Анна": "guess 1", "Борис": "guess 2"})
    first = game.steps[0]
    old_salt = game.post_salt(first, "Анна")
    game.rollback("the die rolled off the table")
    again = game.resolve()
    assert (again.seed, again.inputs) == (first.seed, first.inputs)
    game.rollback("a typo")
    game.reopen("Анна", "she mistyped")
    game.submit("Анна", "guess 1")
    third = game.resolve()
    assert third.inputs is not None and third.inputs["posts"]["Анна"]["attempt"] == 2
    assert third.inputs["posts"]["Борис"] == first.inputs["posts"]["Борис"]
    assert third.seed != first.seed and third.link == first.link
    assert old_salt is not None
    guessed = dict(third.inputs, posts={**third.inputs["posts"], "Анна": {
        "source": "player", "commitment": hmac.new(bytes.fromhex(old_salt), b"guess 1", "sha256").hexdigest(),
        "attempt": 2}})
    assert procedure.step_seed(bytes.fromhex(third.link), procedure.inputs_digest(guessed)).hex() != third.seed
    for public in (True, False):
        assert verify_export(exported(game, public)).ok


def test_an_attempt_beyond_the_recorded_rollbacks_is_caught() -> None:
    """§7 item 3: an input may not name an attempt after more rollbacks of its step than the export
    records (the game master choosing a salt to move the seed)."""
    export = exported(guess({"Анна": "guess 1"}))
    export["steps"][0]["inputs"]["posts"]["Анна"]["attempt"] = 1
    problems = verify_export(export).problems
    assert "step 1: its inputs name an attempt after more rollbacks of the step than the export records (0)" in \
        problems
    assert any("attempt after more rollbacks" in p for p in docs.verify(export))


# -- a step of every game, with the new procedure; a post tampered with ---------------------------------

@pytest.mark.parametrize("ruleset_id", ALL)
def test_every_game_verifies_with_procedure_2_and_a_changed_post_is_caught(ruleset_id: str) -> None:
    """Issue 28 «Measured»: a few steps of every game verify, public and full (every commitment
    opened with the secret), by `verify` and by the document's verifier; a post changed in the full
    export fails both, and so does one changed in the journal (replayed: other inputs)."""
    game = played(ruleset_id)
    assert game.procedure == 2 and game.steps
    for public in (True, False):
        export = exported(game, public)
        report = verify_export(export)
        assert report.ok and report.procedure == 2, report.problems
        assert docs.verify(export, game.record.commitment) == []
    full = exported(game, public=False)
    report = verify_export(full)
    posted = [(s["number"], p) for s in full["steps"] for p in s["opened"]["posts"]]
    assert posted and report.commitments >= len(posted) + 1 and report.replayed
    number, player = posted[-1]
    forged = copy.deepcopy(full)
    forged["steps"][number - 1]["opened"]["posts"][player] += " "
    assert f"step {number}: {player}'s post does not give its commitment" in verify_export(forged).problems
    assert f"step {number}: {player}'s post does not open its commitment" in docs.verify(forged)
    journal = copy.deepcopy(full)
    entry = next(e for e in reversed(journal["game"]["entries"]) if e["kind"] == "submit" and e["player"] == player
                 and e.get("step") == number)
    entry["text"] += "\n"
    problems = verify_export(journal).problems
    assert any(p.startswith(f"step {number}: replay gives other inputs") or "does not replay" in p
               or "computer opponent writes" in p for p in problems), problems


@pytest.mark.parametrize("ruleset_id", ALL)
def test_the_setup_record_covers_the_whole_setup(ruleset_id: str) -> None:
    """Issue 28: «a public Culture & Conquest export with its player list emptied still verifies: the
    digests must cover the whole setup (players, seats, config, house rules) of every game». The
    header changed alone contradicts the setup record; changed in the setup record too, it breaks
    the setup's digest and every digest after it."""
    honest = exported(played(ruleset_id))
    changes = {"players": [], "bots": ["Вера"] if honest["game"]["bots"] != ["Вера"] else [],
               "config": {**honest["game"]["config"], "house": 1}, "house_rules": {"x": 1},
               "ruleset_version": "0"}
    for key, value in changes.items():
        export = copy.deepcopy(honest)
        export["game"][key] = value
        assert f"game.{key}: the header is not what the setup record covers (its digest binds the game's {key})" \
            in verify_export(export).problems
        assert f"game.{key} is not what the setup covers" in docs.verify(export)
        export["setup"]["game"][key] = value
        problems = verify_export(export).problems
        assert "setup: the record digest does not match its content" in problems, (key, problems)
        assert "step 0: the digest does not match" in docs.verify(export)


def test_a_hidden_config_is_committed_to() -> None:
    """§6: a Steel Rose battle's armies are hidden config; the setup commits to the whole config. The
    public export shows no army, and a full export whose army or powder was changed fails the
    commitment."""
    from voevoda.rulesets.steel_rose.hidden import PLAYERS, SIDES

    game = Game.create("steel-rose-battle", "armies", list(PLAYERS), config={"sides": copy.deepcopy(SIDES)},
                       seed="armies")
    public = exported(game)
    assert game.setup.game is not None and game.setup.game["config"] == game.ruleset.public_config() == \
        public["game"]["config"]
    assert "army" not in json.dumps(public, ensure_ascii=False) and "gunpowder" not in json.dumps(public)
    full = exported(game, public=False)
    assert verify_export(full).ok and docs.verify(full) == []
    for side, key, value in ((0, "army", {"spearman": 13, "knight": 4, "archer": 8, "healer": 1}), (1, "gunpowder", 41)):
        forged = copy.deepcopy(full)
        forged["game"]["config"]["sides"][side][key] = value
        assert "game.config: the whole config does not give the setup's commitment to it" in \
            verify_export(forged).problems
        assert "the config does not open the setup's config commitment" in docs.verify(forged)


# -- a public record that proves its own end ----------------------------------------------------------

def test_verify_holds_an_export_to_the_digest_a_player_saw() -> None:
    """Issue 28: «Dropping the last step of a public export passes verify today»: with the digest at
    the foot of the last report, `verify` says how many steps the export proves, and fails an export
    cut short before it."""
    game = played("toy-twenty")
    seen = game.steps[-1].digest
    assert seen in game.report("public")
    export = exported(game)
    report = verify_export(export, last_digest=seen)
    assert report.ok and report.reached == game.step_number
    earlier = verify_export(export, last_digest=game.steps[0].digest.upper())
    assert earlier.ok and earlier.reached == 1
    assert verify_export(export, last_digest=game.setup.digest).reached == 0
    del export["steps"][-1]
    cut = verify_export(export, last_digest=seen)
    assert not cut.ok and cut.reached is None
    assert cut.problems == [f"the digest you saw ({seen}) is in no record of this export: the export is cut short "
                            f"before it, or its records were rewritten"]
    assert docs.verify(export, last_digest=seen) == ["the export does not reach the digest seen"]
    assert docs.proves(exported(game), seen) == game.step_number


def test_a_step_tells_its_notification_what_to_send() -> None:
    """docs/engine.md «What a step's notification carries»: Step.notice() holds the public values a
    notification sends, each the one the public record holds."""
    game = played("toy-guess")
    step = game.steps[-1]
    record = exported(game)["steps"][-1]
    assert step.notice() == {"step": step.number, "turn": step.turn, "phase": step.phase, "link": record["link"],
                             "inputs": procedure.inputs_digest(record["inputs"]).hex(), "seed": record["seed"],
                             "digest": record["digest"]}


# -- the games created before keep procedure 1 ----------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_a_game_of_procedure_1_replays_byte_for_byte(name: str) -> None:
    """«Games created before keep the old procedure»: full exports written before procedure 2 (every
    game, a few steps; a toy game with an edit, a rollback and a reopening) replay to the same setup,
    steps, digests and state, and verify, by `verify` and by the document's verifier; their records
    name no procedure and carry no links or inputs."""
    export = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    assert "procedure" not in export["game"] and all("inputs" not in s for s in export["steps"])
    assert replay_problems(export) == []
    report = verify_export(export)
    assert report.ok and report.replayed and report.procedure == 1, report.problems
    assert docs.verify(export) == []
    game = Game(GameRecord.model_validate(export["game"]))
    assert game.procedure == 1 and game.record.model_dump(mode="json", exclude_none=True) == export["game"]


def test_a_game_of_procedure_1_is_the_same_game_today() -> None:
    """The toy games of the fixtures, created again with procedure 1, give the same full export byte
    for byte: procedure 1 is unchanged."""
    players = ["Алиса", "Борис", "Вера"]
    for name in ("toy-twenty", "toy-guess"):
        game = Game.create(name, "p1", players, bots=players, seed="procedure 1", dice_procedure=1)
        for _ in range(3):
            if game.outcome() is not None:
                break
            game.resolve(force=True)
        stored = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        assert canonical_json(exported(game, public=False)) == canonical_json(stored)


def test_a_public_export_of_procedure_1_cannot_claim_procedure_2_or_lose_it() -> None:
    """A procedure 1 export relabelled as procedure 2 is malformed (no setup game, no inputs); a
    procedure 2 export relabelled as procedure 1 fails its chain (its seeds are not links)."""
    old = json.loads((FIXTURES / "toy-guess.json").read_text(encoding="utf-8"))
    old["game"]["procedure"] = 2
    report = verify_export(old)
    assert report.malformed and "setup.game: a record of procedure 2 covers the game's setup (missing)" in \
        report.problems[0]
    new = exported(played("toy-guess"))
    del new["game"]["procedure"]
    assert any("seed does not hash to the commitment" in p for p in verify_export(new).problems)
