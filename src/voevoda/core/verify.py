"""Checking an exported game: the chain of seeds, every roll, and the replay.

A player holding an export checks three things, each reported separately:

1. every revealed step seed hashes, ``step`` times with SHA-256, to the commitment
   published when the game was created;
2. every recorded roll re-derives from its step seed and label (the procedure of
   :func:`voevoda.core.dice.face`); rolls on sealed streams need the game secret,
   which the game master publishes when the game ends;
3. when the secret is in the export, replaying the journal reproduces the same
   rolls, the same events and the same final state, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from voevoda.core.dice import HashChain, check_records, verify_link
from voevoda.core.journal import GameRecord, canonical_json


@dataclass
class VerifyReport:
    steps: int = 0
    rolls: int = 0
    sealed_unchecked: int = 0
    replayed: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_export(export: dict[str, Any]) -> VerifyReport:
    report = VerifyReport()
    game = export.get("game", {})
    commitment = str(game.get("commitment", ""))
    secret_hex = game.get("secret")
    chain = HashChain(bytes.fromhex(secret_hex), int(game.get("chain_length", 0))) if secret_hex else None
    if chain is not None and chain.commitment != commitment:
        report.problems.append("the secret does not produce the published commitment")
    for step in export.get("steps", []):
        report.steps += 1
        number = int(step["number"])
        seed_hex = str(step["seed"])
        if not verify_link(seed_hex, number, commitment):
            report.problems.append(f"step {number}: seed does not hash to the commitment")
            continue
        sealed_seed = chain.sealed_seed(number) if chain is not None else None
        records = list(step.get("dice", []))
        for record in records:
            faces = record.get("faces", [])
            if record.get("sealed") and sealed_seed is None:
                report.sealed_unchecked += len(faces)
            else:
                report.rolls += len(faces)
        checkable = records if sealed_seed is not None else [r for r in records if not r.get("sealed")]
        report.problems.extend(f"step {number}: {p}" for p in check_records(bytes.fromhex(seed_hex), sealed_seed,
                                                                             checkable))
    if secret_hex and "entries" in game:
        report.problems.extend(_replay_problems(export))
        report.replayed = True
    return report


def _replay_problems(export: dict[str, Any]) -> list[str]:
    from voevoda.core.engine import Game

    problems: list[str] = []
    game = Game(GameRecord.model_validate(export["game"]))
    stored_steps = export.get("steps", [])
    if len(stored_steps) != len(game.steps):
        problems.append(f"replay gives {len(game.steps)} steps, the export has {len(stored_steps)}")
    for step, stored in zip(game.steps, stored_steps, strict=False):
        if step.seed != stored["seed"]:
            problems.append(f"step {step.number}: replay uses another seed")
        if canonical_json(step.dice) != canonical_json(stored.get("dice", [])):
            problems.append(f"step {step.number}: replay rolls other dice than recorded")
        if canonical_json([e.to_json() for e in step.events]) != canonical_json(stored.get("events", [])):
            problems.append(f"step {step.number}: replay gives other events than recorded")
    if "state" in export and canonical_json(game.state) != canonical_json(export["state"]):
        problems.append("replay does not reproduce the exported state")
    return problems
