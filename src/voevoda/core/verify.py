"""Checking an exported game: the chain of seeds, every roll, every record, the replay.

A player holding a public export checks, each reported separately (docs/dice.md §6–§7):

1. the export is well formed and within bounds (a malformed file is refused with the field
   named, before anything is computed);
2. the setup record uses the commitment as its seed, steps run 1, 2, …, n without a gap, and
   each step's chain link (its seed in procedure 1) hashes with SHA-256 to the link of the step
   before (step 1's to the commitment), so every link is link ``k`` of the committed chain; in
   procedure 2 each step's seed is the one its link and its inputs (the commitments to its
   posts and edits) give, and the setup record covers the game's header;
3. every recorded roll re-derives from its seed and label; rolls on sealed streams need the
   game secret, published when the game ends (``voevoda reveal``);
4. every event that quotes dice cites them (``dice_refs``) and quotes exactly the faces the
   dice give;
5. every record's digest covers its content and the digest of the record before, so a step
   or a record taken out, added or changed breaks the chain from there on — and the digests
   printed at the foot of each report let a player hold an export to what was published;
6. with the secret (procedure 2), every post and edit the export opens gives its commitment,
   and the whole config gives the setup's commitment to it;
7. with the secret and the journal (the game master's export, or a public export after the
   reveal), replaying the journal gives the same setup, the same steps (seeds, rolls — sealed
   ones included —, events, actions, digests), the same final state, and every computer opponent's post is
   what that opponent writes from its view and sealed stream;
8. with a digest the player saw (``last_digest``), the export reaches it: the step it names is
   the last one the export proves to that player.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from voevoda.core import procedure
from voevoda.core.bounds import EXPORT_INT, plain_problem
from voevoda.core.dice import (
    CITED,
    COMPACT_AFTER,
    MAX_CHAIN_LENGTH,
    MAX_SIDES,
    Dice,
    HashChain,
    record_problems,
    record_size,
    rederive,
)
from voevoda.core.journal import HEX64, canonical_json

MAX_RECORD_DRAWS = 5_000_000
"""The most draws one record may claim (a big battle draws a few hundred thousand)."""
MAX_TOTAL_DRAWS = 20_000_000
"""The most draws ``verify`` re-derives for one export."""
MAX_LISTED_FACES = 100 * COMPACT_AFTER
MAX_EVENTS = 200_000
MAX_RECORDS = 100_000
MAX_LABEL = 500


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class DiceRecordModel(_Strict):
    """One stream's record: every face with its die, or runs of dice and a digest."""

    label: str = Field(max_length=MAX_LABEL)
    sealed: bool = False
    sides: int | list[int] | None = None
    faces: list[int] | None = Field(default=None, max_length=MAX_LISTED_FACES)
    runs: list[Annotated[list[int], Field(min_length=2, max_length=2)]] | None = Field(
        default=None, max_length=MAX_LISTED_FACES)
    count: int | None = Field(default=None, ge=0, le=MAX_RECORD_DRAWS)
    digest: str | None = Field(default=None, pattern=HEX64)

    @model_validator(mode="after")
    def _one_form(self) -> DiceRecordModel:
        if self.digest is not None or self.runs is not None or self.count is not None:
            if self.digest is None or self.runs is None or self.count is None:
                raise ValueError("a compact record needs runs, count and digest together")
            total = 0
            for index, (die, run) in enumerate(self.runs):
                if not 1 <= die <= MAX_SIDES:
                    raise ValueError(f"runs[{index}]: a die of {die} sides (1 to {MAX_SIDES})")
                if not 1 <= run <= MAX_RECORD_DRAWS:
                    raise ValueError(f"runs[{index}]: a run of {run} draws (1 to {MAX_RECORD_DRAWS:,})")
                total += run
                if total > MAX_RECORD_DRAWS:
                    raise ValueError(f"runs: more than {MAX_RECORD_DRAWS:,} draws")
            if total != self.count:
                raise ValueError(f"runs add up to {total} draws, count says {self.count}")
            return self
        if self.faces is None or self.sides is None:
            raise ValueError("a record needs sides and faces (or runs, count and digest)")
        dice = self.sides if isinstance(self.sides, list) else [self.sides]
        if isinstance(self.sides, list) and len(self.sides) != len(self.faces):
            raise ValueError(f"sides lists {len(self.sides)} dice for {len(self.faces)} faces")
        for index, die in enumerate(dice):
            if not 1 <= die <= MAX_SIDES:
                raise ValueError(f"sides[{index}]: a die of {die} sides (1 to {MAX_SIDES})")
        return self

    def draws(self) -> int:
        return self.count if self.count is not None else len(self.faces or [])


class EventModel(_Strict):
    kind: str = Field(max_length=200)
    audience: list[str] = Field(default_factory=lambda: ["*"], max_length=200)
    data: dict[str, Any] = Field(default_factory=dict)


class CitationModel(_Strict):
    field: str = Field(max_length=1000)
    label: str = Field(max_length=MAX_LABEL)
    start: int = Field(alias="from", ge=0, le=MAX_RECORD_DRAWS)
    count: int = Field(ge=1, le=MAX_LISTED_FACES)
    sealed: bool = False
    step: int | None = Field(default=None, ge=0, le=MAX_CHAIN_LENGTH)


class RerunModel(_Strict):
    """A citation of an outcome computed from the dice (a battle): re-run by the game's engine."""

    field: str = Field(max_length=1000)
    rerun: str = Field(max_length=200)
    label: str = Field(min_length=1, max_length=MAX_LABEL)
    sealed: bool = False
    step: int | None = Field(default=None, ge=0, le=MAX_CHAIN_LENGTH)


_Cited = TypeVar("_Cited", CitationModel, RerunModel)


class SetupGameModel(_Strict):
    """What a procedure 2 setup record covers of the game (docs/dice.md «The setup covers the game»)."""

    model_config = ConfigDict(strict=True, extra="allow")

    players: list[str] = Field(max_length=200)
    config_commitment: str = Field(pattern=HEX64)
    procedure: Literal[2]


class SetupModel(_Strict):
    number: Literal[0]
    seed: str = Field(pattern=HEX64)
    dice: list[DiceRecordModel] = Field(max_length=MAX_RECORDS)
    digest: str = Field(pattern=HEX64)
    game: SetupGameModel | None = None


class SeatModel(_Strict):
    """One seat of a step's inputs: a commitment to its post, or the fact that it was defaulted."""

    source: Literal["player", "bot", "gm", "default"]
    commitment: str | None = Field(default=None, pattern=HEX64)
    attempt: int = Field(default=0, ge=0, le=MAX_CHAIN_LENGTH)

    @model_validator(mode="after")
    def _committed(self) -> SeatModel:
        if (self.source == procedure.DEFAULT_SOURCE) != (self.commitment is None):
            raise ValueError("a seat has a commitment unless its source is 'default'")
        return self


class EditInputModel(_Strict):
    commitment: str = Field(pattern=HEX64)
    attempt: int = Field(default=0, ge=0, le=MAX_CHAIN_LENGTH)


class InputsModel(_Strict):
    """A procedure 2 step's inputs (docs/dice.md «The step's inputs»)."""

    posts: dict[str, SeatModel] = Field(max_length=200)
    edits: list[EditInputModel] = Field(max_length=10_000)


class OpenedModel(_Strict):
    """The texts a full (or revealed) export opens its commitments with."""

    posts: dict[str, str] = Field(max_length=200)
    edits: list[list[dict[str, Any]]] = Field(max_length=10_000)


class StepModel(_Strict):
    number: int = Field(ge=1, le=MAX_CHAIN_LENGTH)
    turn: int = Field(ge=-EXPORT_INT, le=EXPORT_INT)
    phase: str = Field(max_length=200)
    seed: str = Field(pattern=HEX64)
    defaulted: list[str] = Field(default_factory=list, max_length=200)
    actions: list[EventModel] = Field(default_factory=list, max_length=MAX_EVENTS)
    events: list[EventModel] = Field(max_length=MAX_EVENTS)
    dice: list[DiceRecordModel] = Field(max_length=MAX_RECORDS)
    digest: str = Field(pattern=HEX64)
    link: str | None = Field(default=None, pattern=HEX64)
    inputs: InputsModel | None = None
    opened: OpenedModel | None = None


class HeaderModel(_Strict):
    model_config = ConfigDict(strict=True, extra="allow")

    commitment: str = Field(pattern=HEX64)
    chain_length: int = Field(ge=1, le=MAX_CHAIN_LENGTH)
    secret: str | None = Field(default=None, pattern=HEX64)
    procedure: Literal[2] | None = None


class ExportModel(_Strict):
    format: Literal["voevoda-export/2"]
    game: HeaderModel
    public: bool
    revealed: bool = False
    setup: SetupModel
    steps: list[StepModel] = Field(max_length=MAX_CHAIN_LENGTH)
    actions: list[EventModel] = Field(default_factory=list, max_length=MAX_EVENTS)

    @model_validator(mode="after")
    def _records_of_the_procedure(self) -> ExportModel:
        """A game of procedure 2 has the setup's game and every step's link and inputs."""
        if self.game.procedure is None:
            return self
        if self.setup.game is None:
            raise ValueError("setup.game: a record of procedure 2 covers the game's setup (missing)")
        for index, step in enumerate(self.steps):
            if step.link is None or step.inputs is None:
                missing = " and ".join(k for k in ("link", "inputs") if getattr(step, k) is None)
                raise ValueError(f"steps.{index}: a step of procedure 2 has its {missing} (missing)")
        return self


@dataclass
class VerifyReport:
    steps: int = 0
    rolls: int = 0
    sealed_unchecked: int = 0
    citations: int = 0
    reruns: int = 0
    replayed: bool = False
    bots_checked: int = 0
    malformed: bool = False
    last_digest: str = ""
    procedure: int = procedure.PROCEDURE_1
    commitments: int = 0
    """Commitments to posts, edits and the config opened with the secret (procedure 2)."""
    reached: int | None = None
    """The step whose digest is the one the player saw (``last_digest`` of :func:`verify_export`)."""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def shape_problems(export: Any) -> list[str]:
    """What makes ``export`` malformed (bounds first, then the schema), each naming the
    field; empty when it can be checked."""
    if not isinstance(export, dict):
        return ["(root): an export is a JSON object"]
    problem = plain_problem(export, max_int=EXPORT_INT)
    if problem:
        return [problem]
    try:
        model = ExportModel.model_validate(export)
    except ValidationError as exc:
        return [f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
                for err in exc.errors(include_url=False)[:20]]
    total = sum(r.draws() for r in model.setup.dice) + sum(r.draws() for s in model.steps for r in s.dice)
    if total > MAX_TOTAL_DRAWS:
        return [f"dice: the export claims {total:,} rolls; verify re-derives at most {MAX_TOTAL_DRAWS:,}"]
    if len(model.steps) > model.game.chain_length:
        return [f"steps: {len(model.steps)} steps in a chain of {model.game.chain_length}"]
    return []


def _pointer(data: Any, pointer: str) -> Any:
    """The value at an RFC 6901 JSON pointer, or KeyError."""
    if pointer == "":
        return data
    if not pointer.startswith("/"):
        raise KeyError(pointer)
    for raw in pointer[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(data, dict):
            data = data[part]
        elif isinstance(data, list) and part.isdecimal() and len(part) < 10:
            data = data[int(part)]
        else:
            raise KeyError(pointer)
    return data


class _Checker:
    def __init__(self, export: dict[str, Any], report: VerifyReport) -> None:
        self.export = export
        self.report = report
        self.chain: HashChain | None = None
        # (step, label, sealed) -> re-derived faces, for citations
        self.derived: dict[tuple[int, str, bool], list[int]] = {}
        # step -> its seed and its records, for the computations that citations re-run
        self.seeds: dict[int, bytes] = {}
        self.sealed: dict[int, bytes | None] = {}
        self.recorded: dict[int, list[dict[str, Any]]] = {}
        self._ruleset: Any = None
        self._ruleset_problem: str | None = None

    def problem(self, text: str) -> None:
        self.report.problems.append(text)

    def records(self, where: str, number: int, seed: bytes, sealed_seed: bytes | None,
                records: list[dict[str, Any]]) -> None:
        self.seeds[number] = seed
        self.sealed[number] = sealed_seed
        self.recorded[number] = records
        for record in records:
            label = str(record["label"])
            sealed = bool(record.get("sealed"))
            key = sealed_seed if sealed else seed
            if key is None:
                self.report.sealed_unchecked += record_size(record)
                continue
            faces = rederive(key, label, record)
            self.report.rolls += len(faces)
            self.report.problems.extend(f"{where}: {p}" for p in record_problems(label, record, faces))
            self.derived[(number, label, sealed)] = faces

    def citations(self, where: str, number: int, events: list[dict[str, Any]]) -> None:
        for event in events:
            data = event.get("data", {})
            refs = data.get(CITED)
            if refs is None:
                continue
            kind = str(event.get("kind"))
            if not isinstance(refs, list):
                self.problem(f"{where}: event '{kind}': {CITED} is not a list")
                continue
            by_field: dict[str, list[CitationModel]] = {}
            for index, raw in enumerate(refs):
                if isinstance(raw, dict) and "rerun" in raw:
                    self.rerun(where, number, kind, data, index, raw)
                    continue
                ref = self.cited(CitationModel, where, kind, index, raw)
                if ref is not None:
                    by_field.setdefault(ref.field, []).append(ref)
            for field_name, cited in by_field.items():
                self.citation(where, number, kind, data, field_name, cited)

    def cited(self, model: type[_Cited], where: str, kind: str, index: int, raw: Any) -> _Cited | None:
        """One citation read with its model, or None and a problem naming the field."""
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            self.problem(f"{where}: event '{kind}': {CITED}.{index}.{'.'.join(str(p) for p in err['loc'])}: "
                         f"{err['msg']}")
            return None

    def ruleset(self) -> Any:
        """The export's game with its (public) config and house rules, built once; None (and a
        problem, once) when it cannot be."""
        if self._ruleset is None and self._ruleset_problem is None:
            from voevoda.core import registry

            game = self.export["game"]
            try:
                self._ruleset = registry.configure(str(game.get("ruleset")), game.get("config") or {},
                                                   game.get("house_rules") or {})
            except Exception as exc:  # noqa: BLE001 - an unknown game or a forged config is a finding, not a crash
                self._ruleset_problem = (f"game '{game.get('ruleset')}' cannot be built to re-run its "
                                         f"events' computations: {exc}")
                self.problem(self._ruleset_problem)
        return self._ruleset

    def rerun(self, where: str, number: int, kind: str, data: dict[str, Any], index: int,
              raw: dict[str, Any]) -> None:
        """An outcome computed from the dice (docs/dice.md §5): the game's own computation, run
        again from the event's data and the cited step's seed, must give the quoted value and
        draw exactly the step's records under the cited label."""
        ref = self.cited(RerunModel, where, kind, index, raw)
        if ref is None:
            return
        source = number if ref.step is None else ref.step
        if source > number or source not in self.seeds:
            self.problem(f"{where}: event '{kind}' cites the dice of step {source}, which is not before it")
            return
        if ref.sealed and self.chain is None:
            self.report.sealed_unchecked += 1
            return
        try:
            quoted = _pointer(data, ref.field)
        except (KeyError, IndexError):
            self.problem(f"{where}: event '{kind}' cites dice for {ref.field}, which it does not have")
            return
        ruleset = self.ruleset()
        if ruleset is None:
            return
        dice = Dice(self.seeds[source], self.sealed.get(source))
        try:
            value = ruleset.rerun(ref.rerun, ref.label, data, dice)
        except KeyError as exc:
            self.problem(f"{where}: event '{kind}' cites a computation '{ref.rerun}' the game does not have "
                         f"({exc})")
            return
        except Exception as exc:  # noqa: BLE001 - a forged input the computation cannot take is a finding
            self.problem(f"{where}: event '{kind}': its {ref.rerun} cannot be re-run from its data: {exc}")
            return
        self.report.citations += 1
        self.report.reruns += 1
        if canonical_json(value) != canonical_json(quoted):
            self.problem(f"{where}: event '{kind}': re-running its {ref.rerun} from its data and the dice of "
                         f"'{ref.label}' gives another {ref.field or 'value'} "
                         f"({_first_difference(value, quoted, ref.field)})")
        prefix = ref.label + "/"

        def under(label: object) -> bool:
            return str(label) == ref.label or str(label).startswith(prefix)

        drawn = [r for r in dice.records() if under(r["label"])]
        recorded = [r for r in self.recorded[source] if under(r.get("label")) and bool(r.get("sealed")) == ref.sealed]
        if canonical_json(drawn) != canonical_json(recorded):
            self.problem(f"{where}: event '{kind}': its {ref.rerun} draws other dice under '{ref.label}' than "
                         f"step {source} records ({len(drawn)} streams re-drawn, {len(recorded)} recorded)")

    def citation(self, where: str, number: int, kind: str, data: dict[str, Any], field_name: str,
                 refs: list[CitationModel]) -> None:
        """The faces quoted at ``field_name`` must be those of its citations, one after another."""
        expected: list[int] = []
        for ref in refs:
            source = number if ref.step is None else ref.step
            if source > number:
                self.problem(f"{where}: event '{kind}' cites the dice of a later step ({source})")
                return
            faces = self.derived.get((source, ref.label, ref.sealed))
            if faces is None:
                if ref.sealed and self.chain is None:
                    self.report.sealed_unchecked += ref.count
                    return
                self.problem(f"{where}: event '{kind}' cites '{ref.label}' of step {source}, which has no record")
                return
            part = faces[ref.start : ref.start + ref.count]
            if len(part) != ref.count:
                self.problem(f"{where}: event '{kind}' cites draws {ref.start}..{ref.start + ref.count - 1} "
                             f"of '{ref.label}', which has {len(faces)}")
                return
            expected += part
        try:
            value = _pointer(data, field_name)
        except (KeyError, IndexError):
            self.problem(f"{where}: event '{kind}' cites dice for {field_name}, which it does not have")
            return
        quoted = value if isinstance(value, list) else [value]
        self.report.citations += 1
        if quoted != expected:
            labels = " + ".join(f"'{r.label}'" for r in refs)
            self.problem(f"{where}: event '{kind}' quotes {quoted} at {field_name}; the dice of {labels} give "
                         f"{expected}")


def _first_difference(computed: Any, quoted: Any, path: str) -> str:
    """Where two JSON values first differ, for a person: the pointer and both values."""
    if isinstance(computed, dict) and isinstance(quoted, dict):
        for key in sorted(set(computed) | set(quoted), key=str):
            if key not in quoted or key not in computed:
                return f"{path}/{key}: {'missing' if key not in quoted else 'not computed'}"
            if canonical_json(computed[key]) != canonical_json(quoted[key]):
                return _first_difference(computed[key], quoted[key], f"{path}/{key}")
    if isinstance(computed, list) and isinstance(quoted, list) and len(computed) == len(quoted):
        for i, (a, b) in enumerate(zip(computed, quoted, strict=True)):
            if canonical_json(a) != canonical_json(b):
                return _first_difference(a, b, f"{path}/{i}")
    shown = [canonical_json(v) for v in (quoted, computed)]
    shown = [v if len(v) <= 80 else v[:77] + "..." for v in shown]
    return f"{path}: quoted {shown[0]}, computed {shown[1]}"


def _public_record(body: dict[str, Any]) -> dict[str, Any]:
    """The part of an exported step (or setup) that its digest covers: public events,
    actions and dice only (a full export holds hidden ones too, and opens the commitments)."""
    from voevoda.core.engine import public_dice

    def public(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in events if "*" in e.get("audience", ["*"])]

    result = {k: v for k, v in body.items() if k != "opened"}
    result["dice"] = public_dice(body.get("dice", []))
    for key in ("events", "actions"):
        if key in body:
            result[key] = public(body[key])
    return result


def verify_export(export: Any, commitment: str | None = None, last_digest: str | None = None) -> VerifyReport:
    """Check an export (parsed JSON) as a sceptical player would; ``commitment`` is the
    commitment the player saved when the game was created, ``last_digest`` the digest of the
    last report the player saw (docs/dice.md §7)."""
    report = VerifyReport()
    shape = shape_problems(export)
    if shape:
        report.malformed = True
        report.problems.extend(f"malformed export: {p}" for p in shape)
        return report
    checker = _Checker(export, report)
    game = export["game"]
    version = int(game.get("procedure") or procedure.PROCEDURE_1)
    report.procedure = version
    published = str(game["commitment"])
    if commitment is not None and commitment.strip().lower() != published:
        report.problems.append(f"the export's commitment {published} is not the one you saved "
                               f"({commitment.strip()})")
    secret = game.get("secret")
    if secret is not None:
        chain = HashChain(bytes.fromhex(secret), int(game["chain_length"]))
        if chain.commitment != published:
            report.problems.append("the secret does not produce the published commitment")
        else:
            checker.chain = chain

    setup = export["setup"]
    if setup["seed"] != published:
        report.problems.append("setup: its seed is not the commitment (setup rolls use s_0 itself)")
    sealed_setup = checker.chain.sealed_seed(0) if checker.chain is not None else None
    checker.records("setup", 0, bytes.fromhex(setup["seed"]), sealed_setup, setup["dice"])
    if version >= procedure.PROCEDURE_2:
        _setup_game_problems(export, checker)
    if procedure.record_digest(_public_record(setup), "", version) != setup["digest"]:
        report.problems.append("setup: the record digest does not match its content")
    previous_digest = str(setup["digest"])
    digests = {previous_digest: 0}
    previous_link = bytes.fromhex(published)
    chain_broken = False
    rollbacks: dict[int, int] = {}
    for index, step in enumerate(export["steps"], start=1):
        report.steps += 1
        number = int(step["number"])
        where = f"step {number}"
        if number != index:
            report.problems.append(f"steps: entry {index} is step {number}; steps must run 1, 2, … "
                                   f"without a gap (a step is missing, added or out of order)")
        if number > int(game["chain_length"]):
            report.problems.append(f"{where}: beyond the chain of {game['chain_length']} links")
            chain_broken = True
            continue
        seed = bytes.fromhex(step["seed"])
        link = bytes.fromhex(step["link"]) if version >= procedure.PROCEDURE_2 else seed
        if not chain_broken and hashlib.sha256(link).digest() != previous_link:
            noun = "link" if version >= procedure.PROCEDURE_2 else "seed"
            before = "the commitment" if index == 1 else f"the {noun} of step {index - 1}"
            report.problems.append(f"{where}: {noun} does not hash to {before}, so it is not link {index} of the "
                                   f"committed chain")
            chain_broken = True
        previous_link = link
        sealed_seed = checker.chain.sealed_seed(number) if checker.chain is not None else None
        if version >= procedure.PROCEDURE_2:
            for action in step.get("actions", []):
                if action.get("kind") == "rollback" and isinstance(action.get("data", {}).get("step"), int):
                    rollbacks[action["data"]["step"]] = rollbacks.get(action["data"]["step"], 0) + 1
            digest = procedure.inputs_digest(step["inputs"])
            if procedure.step_seed(link, digest) != seed:
                report.problems.append(f"{where}: its seed is not the one its link and its inputs give (the "
                                       f"commitments to its posts and edits)")
            _inputs_problems(where, number, step, rollbacks.get(number, 0), checker)
            sealed_seed = (procedure.sealed_seed(checker.chain.secret, number, digest)
                           if checker.chain is not None else None)
        if procedure.record_digest(_public_record(step), previous_digest, version) != step["digest"]:
            report.problems.append(f"{where}: the record digest does not match its content and the "
                                   f"digest of the record before")
        previous_digest = str(step["digest"])
        digests.setdefault(previous_digest, number)
        checker.records(where, number, seed, sealed_seed, step["dice"])
        checker.citations(where, number, step["events"])
    report.last_digest = previous_digest
    if last_digest is not None:
        seen = last_digest.strip().lower()
        report.reached = digests.get(seen)
        if report.reached is None:
            report.problems.append(f"the digest you saw ({seen}) is in no record of this export: the export is "
                                   f"cut short before it, or its records were rewritten")
    if checker.chain is not None and "entries" in game:
        report.problems.extend(replay_problems(export, report))
        report.replayed = True
    return report


def _setup_game_problems(export: dict[str, Any], checker: _Checker) -> None:
    """Procedure 2: the setup record covers the game's header (players, computer opponents, public
    config, house rules, chain length, procedure), so the header must say what it says; with the
    secret, the whole config must give the setup's commitment to it."""
    game, covered = export["game"], export["setup"]["game"]
    for key in procedure.SETUP_KEYS:
        if key == "config" and checker.chain is not None:
            continue  # a full header holds the whole config: checked against the commitment below
        if canonical_json(game.get(key)) != canonical_json(covered.get(key)):
            checker.problem(f"game.{key}: the header is not what the setup record covers (its digest "
                            f"binds the game's {key})")
    if checker.chain is None:
        return
    config = game.get("config")
    if not isinstance(config, dict) or procedure.config_commitment(checker.chain.secret, config) != \
            covered["config_commitment"]:
        checker.problem("game.config: the whole config does not give the setup's commitment to it")
        return
    checker.report.commitments += 1
    ruleset = checker.ruleset()
    if ruleset is not None and canonical_json(ruleset.public_config()) != canonical_json(covered.get("config")):
        checker.problem("setup.game.config: not the public part of the game's config")


def _inputs_problems(where: str, number: int, step: dict[str, Any], rollbacks: int, checker: _Checker) -> None:
    """Procedure 2: a step's inputs agree with its default orders and the rollbacks the export
    records; with the secret, every post and edit the export opens gives its commitment."""
    inputs = step["inputs"]
    defaulted = {p for p, seat in inputs["posts"].items() if seat["source"] == procedure.DEFAULT_SOURCE}
    if defaulted != set(step.get("defaulted", [])):
        checker.problem(f"{where}: its inputs mark other seats defaulted than its default orders")
    entries = [*inputs["posts"].values(), *inputs["edits"]]
    if any(int(entry.get("attempt", 0)) > rollbacks for entry in entries):
        checker.problem(f"{where}: its inputs name an attempt after more rollbacks of the step than the export "
                        f"records ({rollbacks})")
    opened = step.get("opened")
    if checker.chain is None or opened is None:
        return
    secret = checker.chain.secret
    posted = {p for p in inputs["posts"] if p not in defaulted}
    if set(opened["posts"]) != posted:
        checker.problem(f"{where}: it opens the posts of other seats than its inputs commit to")
    for player in sorted(posted & set(opened["posts"])):
        seat = inputs["posts"][player]
        salt = procedure.post_salt(secret, number, int(seat.get("attempt", 0)), player)
        checker.report.commitments += 1
        if procedure.commit_post(salt, opened["posts"][player]) != seat["commitment"]:
            checker.problem(f"{where}: {player}'s post does not give its commitment")
    if len(opened["edits"]) != len(inputs["edits"]):
        checker.problem(f"{where}: it opens {len(opened['edits'])} edits for {len(inputs['edits'])} commitments")
    for index, (patch, edit) in enumerate(zip(opened["edits"], inputs["edits"], strict=False)):
        salt = procedure.edit_salt(secret, number, int(edit.get("attempt", 0)), index)
        checker.report.commitments += 1
        if procedure.commit_patch(salt, patch) != edit["commitment"]:
            checker.problem(f"{where}: the game master's edit {index + 1} does not give its commitment")


def replay_problems(export: dict[str, Any], report: VerifyReport | None = None) -> list[str]:
    """Replay the journal of an export that carries one and compare everything, step by
    step, with what the export records."""
    from voevoda.core.engine import Game
    from voevoda.core.errors import DataError, GameError
    from voevoda.core.journal import GameRecord

    public = bool(export.get("public"))
    bots: list[str] = []  # what the computer opponents' posts showed, kept when the journal stops replaying
    try:
        record = GameRecord.model_validate(export["game"])
        game = Game(record, check_bots=True, problems=bots)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        return [f"game.{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"]
    except GameError as exc:
        return [*bots, f"the journal does not replay: {exc.message_en}"]
    except DataError as exc:
        return [*bots, f"the journal does not replay: {exc}"]
    problems: list[str] = list(game.bot_problems)
    if report is not None:
        report.bots_checked = sum(1 for e in record.entries if e.source == "bot")
    if canonical_json(game.setup_json(public)) != canonical_json(export.get("setup")):
        problems.append("setup: replay gives other setup rolls than recorded")
    stored_steps = export.get("steps", [])
    if len(stored_steps) != len(game.steps):
        problems.append(f"replay gives {len(game.steps)} steps, the export has {len(stored_steps)}")
    for step, stored in zip(game.steps, stored_steps, strict=False):
        replayed = game.step_json(step, public)
        for key, what in (("seed", "another seed"), ("link", "another chain link"),
                          ("inputs", "other inputs (commitments to its posts and edits)"),
                          ("opened", "other posts or edits"), ("dice", "other dice"), ("events", "other events"),
                          ("actions", "other game-master actions"),
                          ("defaulted", "other default orders"), ("digest", "another record digest")):
            if canonical_json(replayed.get(key)) != canonical_json(stored.get(key)):
                problems.append(f"step {step.number}: replay gives {what} than recorded")
        if (replayed["turn"], replayed["phase"]) != (stored.get("turn"), stored.get("phase")):
            problems.append(f"step {step.number}: replay gives another turn or phase than recorded")
    actions = [e.to_json() for e in game.actions if not public or e.visible_to("public")]
    if canonical_json(actions) != canonical_json(export.get("actions", [])):
        problems.append("replay gives other game-master actions after the last step than recorded")
    state = game.view("public") if public else game.state
    if "state" in export and canonical_json(state) != canonical_json(export["state"]):
        problems.append("replay does not reproduce the exported state")
    return problems
