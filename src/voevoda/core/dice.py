"""Counter-based, labelled, verifiable dice.

A roll is a pure function of (step seed, label, index): the step seed comes from a
hash chain the game committed to at creation, the label names what the roll is for
("combat/0201", "growth/Alice") and the index counts the draws made from that label.
The byte stream of a label is SHAKE-256 over ``seed || label``; draw ``i`` reads the
eight bytes at offset ``8 * i`` as a big-endian integer ``u`` and turns up the face
``1 + u mod sides``. Nothing but :mod:`hashlib` and :mod:`hmac` is needed to re-check
a roll; the procedure is written out in ``docs/dice.md``.

The modulo bias is below ``sides / 2**64`` (for a d1000000, under 10**-13) and is
accepted on purpose: it keeps the procedure short enough to re-implement from prose.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CHAIN_DOMAIN = b"voevoda/chain/v1"
SEALED_DOMAIN = b"voevoda/sealed/v1"
DEFAULT_CHAIN_LENGTH = 10_000
_DRAW_BYTES = 8
COMPACT_AFTER = 1000
"""A stream with more draws than this is recorded as runs of dice plus a digest of its faces."""
MAX_CHAIN_LENGTH = 100_000
"""The longest hash chain a game may have (and so the most steps): a file claiming more is refused."""
MAX_SIDES = 2**32
"""The most sides a recorded die may have."""
CITED = "dice_refs"
"""The key of an event's data that cites the dice its other fields quote (docs/dice.md §5)."""


def commitment_of(seed: bytes) -> str:
    """The public link above ``seed`` in the chain: ``sha256(seed)`` in hex."""
    return hashlib.sha256(seed).hexdigest()


_KEEP_EVERY = 64
"""Links of a chain kept in memory: one in this many (seed(k) hashes at most this many times)."""


@dataclass(frozen=True)
class HashChain:
    """The chain s_L = HMAC(secret, domain), s_(k-1) = SHA-256(s_k).

    ``s_0`` is published when the game is created (the commitment); resolution step
    ``k`` (counting from 1) uses ``s_k`` and reveals it afterwards, and anyone checks
    ``sha256^k(s_k) == s_0``. Knowing ``s_k`` tells nothing about ``s_(k+1)``.
    """

    secret: bytes
    length: int = DEFAULT_CHAIN_LENGTH

    def seed(self, step: int) -> bytes:
        if not 0 <= step <= self.length:
            raise ValueError(f"step {step} is outside the chain (0..{self.length})")
        # From the nearest kept link above: a game replayed asks for every step's seed, and
        # walking the whole chain down for each one cost a command line seconds per game.
        top = min(self.length, -(-step // _KEEP_EVERY) * _KEEP_EVERY)
        link = self._kept[top // _KEEP_EVERY] if top < self.length else self._top
        for _ in range(top - step):
            link = hashlib.sha256(link).digest()
        return link

    @cached_property
    def _top(self) -> bytes:
        return hmac.new(self.secret, CHAIN_DOMAIN, hashlib.sha256).digest()

    @cached_property
    def _kept(self) -> list[bytes]:
        """Every ``_KEEP_EVERY``-th link, ``s_0, s_K, s_2K, …`` (one walk down the chain, in
        runs of ``_KEEP_EVERY`` hashes: the walk is most of what loading a game costs)."""
        sha256 = hashlib.sha256
        link = self._top
        for _ in range(self.length % _KEEP_EVERY):
            link = sha256(link).digest()
        index = self.length // _KEEP_EVERY
        kept = [link] * (index + 1)
        while index:
            for _ in range(_KEEP_EVERY):
                link = sha256(link).digest()
            index -= 1
            kept[index] = link
        return kept

    @property
    def commitment(self) -> str:
        return self.seed(0).hex()

    def sealed_seed(self, step: int) -> bytes:
        """Seed for rolls that touch hidden information (published with the secret
        when the game ends, so that a revealed step seed cannot uncover a secret)."""
        return hmac.new(self.secret, SEALED_DOMAIN + step.to_bytes(8, "big"), hashlib.sha256).digest()


def verify_link(seed_hex: str, step: int, commitment_hex: str) -> bool:
    """True when hashing a revealed step seed ``step`` times gives the commitment."""
    link = bytes.fromhex(seed_hex)
    for _ in range(step):
        link = hashlib.sha256(link).digest()
    return hmac.compare_digest(link.hex(), commitment_hex)


def face(seed: bytes, label: str, index: int, sides: int) -> int:
    """The face of draw ``index`` of ``label`` under ``seed``: the whole procedure."""
    data = hashlib.shake_256(seed + label.encode("utf-8")).digest(_DRAW_BYTES * (index + 1))
    return 1 + int.from_bytes(data[_DRAW_BYTES * index :], "big") % sides


@dataclass
class Stream:
    """The draws of one label, recorded as they are made."""

    seed: bytes
    label: str
    sealed: bool = False
    sides: list[int] = field(default_factory=list)
    faces: list[int] = field(default_factory=list)
    _buffer: bytes = b""

    def _word(self, index: int) -> int:
        end = _DRAW_BYTES * (index + 1)
        if end > len(self._buffer):
            size = max(end, 2 * len(self._buffer), 256)
            self._buffer = hashlib.shake_256(self.seed + self.label.encode("utf-8")).digest(size)
        return int.from_bytes(self._buffer[end - _DRAW_BYTES : end], "big")

    @property
    def count(self) -> int:
        return len(self.faces)

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces: 1..sides."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        value = 1 + self._word(len(self.faces)) % sides
        self.sides.append(sides)
        self.faces.append(value)
        return value

    def rolls(self, count: int, sides: int) -> list[int]:
        return [self.roll(sides) for _ in range(count)]

    def roll_many(self, count: int, sides: int | npt.ArrayLike) -> npt.NDArray[np.int64]:
        """``count`` dice at once, exactly the faces ``count`` calls of :meth:`roll`
        would give (``sides`` is one die for all, or one die per draw), recorded the same
        way. A fast path for code that needs thousands of draws."""
        import numpy as np

        if count <= 0:
            return np.zeros(0, dtype=np.int64)
        start = len(self.faces)
        end = _DRAW_BYTES * (start + count)
        if end > len(self._buffer):
            size = max(end, 2 * len(self._buffer), 256)
            self._buffer = hashlib.shake_256(self.seed + self.label.encode("utf-8")).digest(size)
        words = np.frombuffer(self._buffer, dtype=">u8", count=count, offset=_DRAW_BYTES * start)
        if isinstance(sides, int):
            if sides < 1:
                raise ValueError(f"a die needs at least one side, got {sides}")
            faces = (words % np.uint64(sides)).astype(np.int64) + 1
            self.sides.extend([sides] * count)
        else:
            die = np.asarray(sides, dtype=np.int64)
            if die.shape != (count,):
                die = np.broadcast_to(die, (count,))
            if int(die.min()) < 1:
                raise ValueError(f"a die needs at least one side, got {int(die.min())}")
            faces = (words % die.astype(np.uint64)).astype(np.int64) + 1
            self.sides.extend(die.tolist())
        self.faces.extend(faces.tolist())
        return faces

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in ``low..high`` inclusive (one draw of ``high-low+1`` sides)."""
        return low - 1 + self.roll(high - low + 1)

    def chance(self, probability: float) -> bool:
        """True with ``probability`` (one d1000000 draw, resolution one in a million)."""
        threshold = round(probability * 1_000_000)
        return self.roll(1_000_000) <= threshold

    def choice(self, items: list[object]) -> object:
        if not items:
            raise ValueError("cannot choose from an empty list")
        return items[self.roll(len(items)) - 1]

    def shuffle(self, items: list[object]) -> list[object]:
        """Fisher-Yates from the last position down, one draw per position."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            result[i], result[j] = result[j], result[i]
        return result

    def cite(self, field: str, start: int = 0, count: int | None = None, step: int | None = None) -> dict[str, object]:
        """A citation for an event: the value at JSON pointer ``field`` of the event's data
        quotes the faces of draws ``start .. start + count - 1`` of this stream (all draws
        from ``start`` when ``count`` is None). ``step`` names another step's stream (0 for
        setup rolls quoted by a later event). Put the citations, a list, under
        ``data[CITED]``; ``voevoda verify`` checks every one (docs/dice.md §5)."""
        stop = len(self.faces) if count is None else start + count
        if not 0 <= start <= stop <= len(self.faces):
            raise ValueError(f"{self.label}: draws {start}..{stop - 1} were not drawn")
        ref: dict[str, object] = {"field": field, "label": self.label, "from": start, "count": stop - start}
        if self.sealed:
            ref["sealed"] = True
        if step is not None:
            ref["step"] = step
        return ref

    def record(self) -> dict[str, object]:
        """The journal form of this stream: every face with its die, or, past
        ``COMPACT_AFTER`` draws, the dice as runs and a SHA-256 digest of the faces
        (docs/dice.md §4), which re-derives just as surely in a fraction of the space."""
        if len(self.faces) > COMPACT_AFTER:
            return {
                "label": self.label,
                "sealed": self.sealed,
                "runs": sides_runs(self.sides),
                "count": len(self.faces),
                "digest": faces_digest(self.faces),
            }
        uniform = len(set(self.sides)) == 1
        return {
            "label": self.label,
            "sealed": self.sealed,
            "sides": self.sides[0] if uniform else list(self.sides),
            "faces": list(self.faces),
        }


def pointer(*parts: str | int) -> str:
    """An RFC 6901 JSON pointer to a field of an event's data, for :meth:`Stream.cite`:
    ``pointer("faces", "Анна")`` is ``/faces/Анна`` (``~`` and ``/`` in a part escaped)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def rerun_ref(field: str, computation: str, label: str, *, sealed: bool = False,
              step: int | None = None) -> dict[str, object]:
    """A citation of an outcome computed from many dice (a battle: docs/dice.md §5): the value at
    JSON pointer ``field`` of the event's data is what the ruleset's ``computation`` gives from
    that data and the streams of step ``step`` (the event's own when None) whose labels begin
    with ``label + "/"``; the streams it draws must be exactly the step's records under that
    prefix. ``voevoda verify`` re-runs it with :meth:`Ruleset.rerun`."""
    ref: dict[str, object] = {"field": field, "rerun": computation, "label": label}
    if sealed:
        ref["sealed"] = True
    if step is not None:
        ref["step"] = step
    return ref


def faces_digest(faces: list[int]) -> str:
    """SHA-256 of the faces written in decimal and joined by commas."""
    return hashlib.sha256(",".join(map(str, faces)).encode("ascii")).hexdigest()


def sides_runs(sides: list[int]) -> list[list[int]]:
    """[[die, how many draws in a row], ...]."""
    runs: list[list[int]] = []
    for die in sides:
        if runs and runs[-1][0] == die:
            runs[-1][1] += 1
        else:
            runs.append([die, 1])
    return runs


def record_size(record: dict[str, object]) -> int:
    """How many rolls a journal record stands for."""
    count = record.get("count")
    if isinstance(count, int):
        return count
    faces = record.get("faces", [])
    return len(faces) if isinstance(faces, list) else 0


class Dice:
    """All the streams of one resolution step.

    Asking twice for one label returns the same stream, so draws continue where they
    stopped; the streams are independent of the order in which code asks for them.
    """

    def __init__(self, seed: bytes, sealed_seed: bytes | None = None) -> None:
        self.seed = seed
        self.sealed_seed = sealed_seed if sealed_seed is not None else seed
        self._streams: dict[tuple[str, bool], Stream] = {}

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Dice for tools and tests: the seed is SHA-256 of ``text``."""
        seed = hashlib.sha256(text.encode("utf-8")).digest()
        return cls(seed, hashlib.sha256(b"sealed:" + seed).digest())

    def stream(self, label: str, *, sealed: bool = False) -> Stream:
        key = (label, sealed)
        if key not in self._streams:
            self._streams[key] = Stream(self.sealed_seed if sealed else self.seed, label, sealed)
        return self._streams[key]

    def existing(self, label: str, *, sealed: bool = False) -> Stream | None:
        """The stream of ``label`` if code has asked for it, without creating it."""
        return self._streams.get((label, sealed))

    def roll(self, label: str, sides: int) -> int:
        return self.stream(label).roll(sides)

    def __iter__(self) -> Iterator[Stream]:
        return iter(self._streams.values())

    def records(self) -> list[dict[str, object]]:
        """Every stream that was drawn from, sorted by label, in journal form."""
        return [s.record() for s in sorted(self, key=lambda s: (s.sealed, s.label)) if s.count]


def rederive(seed: bytes, label: str, record: Mapping[str, Any]) -> list[int]:
    """The faces a record's dice give under ``seed``: from its ``sides`` (one die or one
    per face) or its ``runs``. The record's shape must have been validated."""
    stream = Stream(seed, label)
    if "runs" in record:
        for die, count in record["runs"]:
            stream.roll_many(int(count), int(die))
        return stream.faces
    faces = record["faces"]
    sides_field = record["sides"]
    if isinstance(sides_field, list):
        for die in sides_field:
            stream.roll(int(die))
    else:
        stream.roll_many(len(faces), int(sides_field))
    return stream.faces


def record_problems(label: str, record: Mapping[str, Any], derived: list[int]) -> list[str]:
    """Where a record disagrees with the faces its dice re-derive to."""
    if "digest" in record:
        if len(derived) != record_size(dict(record)) or faces_digest(derived) != record["digest"]:
            return [f"{label}: {record_size(dict(record))} rolls do not re-derive to the recorded digest"]
        return []
    sides_field = record["sides"]
    problems = []
    for index, (seen, expected) in enumerate(zip(record["faces"], derived, strict=True)):
        if expected != seen:
            die = sides_field[index] if isinstance(sides_field, list) else sides_field
            problems.append(f"{label}[{index}]: d{die} recorded {seen}, re-derived {expected}")
    return problems


def check_records(seed: bytes, sealed_seed: bytes | None, records: list[dict[str, object]]) -> list[str]:
    """Re-derive every recorded face; return a line per mismatch (empty when all agree)."""
    problems: list[str] = []
    for record in records:
        label = str(record["label"])
        sealed = bool(record.get("sealed"))
        key = sealed_seed if sealed else seed
        if key is None:
            problems.append(f"{label}: sealed stream, but the sealed seed is not known")
            continue
        problems.extend(record_problems(label, record, rederive(key, label, record)))
    return problems
