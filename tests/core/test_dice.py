"""Dice: DESIGN.md «Dice» and «Verifiable dice»; the procedure of docs/dice.md."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter
from pathlib import Path

import pytest

from voevoda.core.dice import Dice, HashChain, Stream, check_records, face, verify_link

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def reference_face(seed: bytes, label: str, index: int, sides: int) -> int:
    """docs/dice.md §2, written again from the prose."""
    data = hashlib.shake_256(seed + label.encode("utf-8")).digest(8 * (index + 1))
    return 1 + int.from_bytes(data[8 * index : 8 * index + 8], "big") % sides


def test_stream_faces_follow_the_documented_procedure() -> None:
    """docs/dice.md §2: face(i) = 1 + word(i) mod sides, word(i) from SHAKE-256(seed||label)."""
    dice = Dice.from_text("procedure")
    stream = dice.stream("combat/0201")
    sides = [6, 10, 20, 100, 3, 1000000, 6]
    faces = [stream.roll(s) for s in sides]
    assert faces == [reference_face(dice.seed, "combat/0201", i, s) for i, s in enumerate(sides)]
    assert faces == [face(dice.seed, "combat/0201", i, s) for i, s in enumerate(sides)]


def test_a_roll_depends_only_on_seed_label_and_index() -> None:
    """DESIGN.md: «a roll is a pure function of (game secret, turn, label, index)»: drawing under
    other labels first, or in another order, changes nothing."""
    first = Dice.from_text("order")
    a1 = first.stream("a").rolls(5, 6)
    first.stream("b").rolls(7, 6)
    second = Dice.from_text("order")
    second.stream("b").rolls(3, 6)
    second.stream("z").rolls(100, 20)
    assert second.stream("a").rolls(5, 6) == a1


def test_long_streams_match_short_ones() -> None:
    """A stream buffers its bytes; draw 1000 must equal the same draw computed directly."""
    dice = Dice.from_text("long")
    stream = dice.stream("battle")
    faces = stream.rolls(1500, 12)
    for index in (0, 31, 32, 255, 256, 999, 1499):
        assert faces[index] == reference_face(dice.seed, "battle", index, 12)


def test_d6_is_fair_enough() -> None:
    """60 000 d6 from a fixed seed: chi-square below the 0.999 quantile (20.5, 5 degrees of freedom)."""
    counts = Counter(Dice.from_text("fair").stream("d6").rolls(60_000, 6))
    expected = 10_000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi2 < 20.5


def test_hash_chain_links_back_to_the_commitment() -> None:
    """docs/dice.md §1: sha256^k(s_k) == s_0, and s_L = HMAC(K, 'voevoda/chain/v1')."""
    chain = HashChain(b"\x01" * 32, length=50)
    top = hmac.new(b"\x01" * 32, b"voevoda/chain/v1", hashlib.sha256).digest()
    assert chain.seed(50) == top
    assert chain.seed(49) == hashlib.sha256(top).digest()
    for step in (1, 7, 50):
        assert verify_link(chain.seed(step).hex(), step, chain.commitment)
        assert not verify_link(chain.seed(step).hex(), step - 1, chain.commitment)
    assert HashChain(b"\x02" * 32, length=50).commitment != chain.commitment
    with pytest.raises(ValueError):
        chain.seed(51)


def test_sealed_seed_is_not_derivable_from_the_public_one() -> None:
    """docs/dice.md §3: sealed rolls come from HMAC(K, 'voevoda/sealed/v1' || k)."""
    chain = HashChain(b"\x03" * 32, length=10)
    expected = hmac.new(b"\x03" * 32, b"voevoda/sealed/v1" + (4).to_bytes(8, "big"), hashlib.sha256).digest()
    assert chain.sealed_seed(4) == expected
    assert chain.sealed_seed(4) != chain.seed(4)


def test_records_re_derive_and_tampering_is_found() -> None:
    """Every roll is recorded with its label and faces; a changed face is reported."""
    dice = Dice.from_text("records")
    dice.stream("mixed").roll(6)
    dice.stream("mixed").roll(20)
    dice.stream("hidden", sealed=True).rolls(3, 10)
    records = dice.records()
    assert check_records(dice.seed, dice.sealed_seed, records) == []
    tampered = [dict(r) for r in records]
    tampered[0]["faces"] = [1 + (tampered[0]["faces"][0] % 6), *tampered[0]["faces"][1:]]  # type: ignore[index]
    problems = check_records(dice.seed, dice.sealed_seed, tampered)
    assert len(problems) == 1 and "mixed[0]" in problems[0]


def test_derived_draws() -> None:
    """docs/dice.md §2 table: randint, chance, choice, shuffle are built from faces."""
    dice = Dice.from_text("derived")
    stream = Stream(dice.seed, "d")
    assert stream.randint(3, 5) == 3 - 1 + reference_face(dice.seed, "d", 0, 3)
    assert stream.chance(1.0) and not stream.chance(0.0)
    items = list(range(10))
    shuffled = Stream(dice.seed, "s").shuffle(items)  # type: ignore[arg-type]
    assert sorted(shuffled) == items  # type: ignore[type-var]
    with pytest.raises(ValueError):
        stream.roll(0)


def test_the_snippet_in_the_docs_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/dice.md «Checking a turn yourself»: the published snippet checks a real export."""
    from tests.core.test_engine import played_game

    game = played_game()
    import json

    (tmp_path / "game.json").write_text(json.dumps(game.export(public=True)), encoding="utf-8")
    snippet = re.search(r"## Checking a game yourself.*?```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert snippet is not None
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet.group(1), "docs/dice.md", "exec"), {})


def test_long_streams_are_recorded_compactly_and_still_checked() -> None:
    """docs/dice.md §4: past 1000 draws a stream is stored as runs of dice and a digest of the
    faces; re-deriving checks every face, and a changed digest or count is reported."""
    dice = Dice.from_text("compact")
    stream = dice.stream("battle/clash")
    stream.roll_many(1500, 6)
    stream.roll(100)
    stream.rolls(3, 6)
    dice.stream("short").rolls(5, 20)
    records = {r["label"]: r for r in dice.records()}
    long = records["battle/clash"]
    assert "faces" not in long and long["count"] == 1504
    assert long["runs"] == [[6, 1500], [100, 1], [6, 3]]
    faces = ",".join(map(str, stream.faces)).encode()
    assert long["digest"] == hashlib.sha256(faces).hexdigest()
    assert "faces" in records["short"]
    assert check_records(dice.seed, dice.sealed_seed, list(records.values())) == []
    forged = dict(long, digest="0" * 64)
    assert check_records(dice.seed, None, [forged]) == ["battle/clash: 1504 rolls do not re-derive to the recorded digest"]
    shorter = dict(long, runs=[[6, 1500], [100, 1], [6, 2]])
    assert check_records(dice.seed, None, [shorter])


def test_the_docs_snippet_checks_compact_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The published snippet handles compact records too, and fails on a forged digest."""
    import json

    from voevoda.core.engine import record_digest

    chain = HashChain(b"\x05" * 32, 10)
    dice = Dice(chain.seed(1))
    dice.stream("big").roll_many(1200, 10)
    setup = {"number": 0, "seed": chain.commitment, "dice": []}
    setup["digest"] = record_digest(setup, "")
    step = {"number": 1, "turn": 1, "phase": "battle", "seed": chain.seed(1).hex(), "defaulted": [],
            "actions": [], "events": [], "dice": dice.records()}
    step["digest"] = record_digest(step, str(setup["digest"]))
    export = {"game": {"commitment": chain.commitment}, "setup": setup, "steps": [step]}
    snippet = re.search(r"## Checking a game yourself.*?```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert snippet is not None
    code = compile(snippet.group(1), "docs/dice.md", "exec")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_text(json.dumps(export), encoding="utf-8")
    exec(code, {})
    step["dice"][0]["digest"] = "1" * 64  # type: ignore[index]
    (tmp_path / "game.json").write_text(json.dumps(export), encoding="utf-8")
    with pytest.raises(AssertionError):
        exec(code, {})


def test_the_docs_snippet_catches_a_forged_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The snippet is a whole verifier (docs/dice.md §5–§6): a dropped step, a changed event or a
    quote that contradicts its dice all fail it."""
    import json

    from tests.core.test_engine import played_game

    game = played_game()
    snippet = re.search(r"## Checking a game yourself.*?```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert snippet is not None
    code = compile(snippet.group(1), "docs/dice.md", "exec")
    monkeypatch.chdir(tmp_path)
    honest = json.loads(json.dumps(game.export(public=True)))

    def run(export: dict[str, object]) -> None:
        (tmp_path / "game.json").write_text(json.dumps(export), encoding="utf-8")
        exec(code, {})

    run(honest)
    dropped = json.loads(json.dumps(honest))
    del dropped["steps"][1]
    with pytest.raises(AssertionError, match="steps must run"):
        run(dropped)
    quoted = json.loads(json.dumps(honest))
    played = next(e for e in quoted["steps"][0]["events"] if e["kind"] == "played")
    played["data"]["omen"] = played["data"]["omen"] % 6 + 1
    with pytest.raises(AssertionError, match="digest"):
        run(quoted)
