"""An export verifier written from docs/dice.md alone, as a sceptical player would write it.

It imports nothing but Python's standard library (hashlib, hmac, json): no line of voevoda's own
dice or verify code, so that the procedure the document states is checked against what the
engine writes. Section numbers are docs/dice.md's. It skips what the document says needs the
game's engine (§5 «rerun» citations: a battle fought again).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

CHAIN_DOMAIN = b"voevoda/chain/v1"  # §1
SEALED_DOMAIN = b"voevoda/sealed/v1"  # §3


def canonical(value: Any) -> bytes:
    """§6: «Python's json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")),
    encoded as UTF-8»."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def faces(seed: bytes, label: str, sides: list[int]) -> list[int]:
    """§2: SHAKE-256(seed || UTF-8(label)); draw i reads the 8 bytes at 8·i, big-endian; face = 1 + word mod sides."""
    data = hashlib.shake_256(seed + label.encode("utf-8")).digest(8 * len(sides))
    return [1 + int.from_bytes(data[8 * i : 8 * i + 8], "big") % die for i, die in enumerate(sides)]


def chain_bottom(secret: bytes, length: int) -> bytes:
    """§1: s_L = HMAC-SHA-256(K, "voevoda/chain/v1"), s_(k-1) = SHA-256(s_k); returns s_0."""
    link = hmac.new(secret, CHAIN_DOMAIN, hashlib.sha256).digest()
    for _ in range(length):
        link = hashlib.sha256(link).digest()
    return link


def sealed_seed(secret: bytes, step: int) -> bytes:
    """§3: HMAC-SHA-256(K, "voevoda/sealed/v1" || k as 8 bytes big-endian)."""
    return hmac.new(secret, SEALED_DOMAIN + step.to_bytes(8, "big"), hashlib.sha256).digest()


def record_faces(record: dict[str, Any], seed: bytes) -> tuple[list[int], bool]:
    """§4: the faces a record's dice give, and whether the record agrees with them."""
    if "digest" in record:
        sides = [die for die, run in record["runs"] for _ in range(run)]
        derived = faces(seed, record["label"], sides)
        digest = hashlib.sha256(",".join(map(str, derived)).encode("ascii")).hexdigest()
        return derived, digest == record["digest"] and len(derived) == record["count"]
    listed = record["faces"]
    sides = record["sides"] if isinstance(record["sides"], list) else [record["sides"]] * len(listed)
    derived = faces(seed, record["label"], sides)
    return derived, derived == listed


def public_form(record: dict[str, Any], previous: str) -> dict[str, Any]:
    """§6: the record without its digest, its sealed dice and its hidden events and actions, with
    the digest of the record before under "previous"."""
    body = {key: value for key, value in record.items() if key != "digest"}
    body["dice"] = [r for r in body["dice"] if not r.get("sealed")]
    for key in ("events", "actions"):
        if key in body:
            body[key] = [e for e in body[key] if "*" in e["audience"]]
    body["previous"] = previous
    return body


def quoted_at(data: Any, pointer: str) -> list[Any]:
    """§5: the value at an RFC 6901 pointer, as a list of faces."""
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data if isinstance(data, list) else [data]


def verify(export: dict[str, Any], commitment: str | None = None) -> list[str]:
    """Every problem found in ``export`` (empty: everything checks out), §7 items 2–6."""
    problems: list[str] = []
    if export.get("format") != "voevoda-export/2":
        return ["not an export of the format docs/dice.md §6 describes"]
    game = export["game"]
    published = game["commitment"]
    if commitment is not None and commitment != published:
        problems.append("the commitment is not the one saved at creation")
    secret = bytes.fromhex(game["secret"]) if game.get("secret") else None
    if secret is not None and chain_bottom(secret, game["chain_length"]).hex() != published:
        problems.append("the secret does not give the commitment")
        secret = None
    if export["setup"]["seed"] != published:
        problems.append("setup: its seed is not the commitment")
    derived: dict[tuple[int, str, bool], list[int]] = {}
    previous_digest, previous_seed = "", bytes.fromhex(published)
    for index, record in enumerate([export["setup"], *export["steps"]]):
        number = record["number"]
        where = f"step {number}"
        if number != index:
            problems.append(f"{where}: found where step {index} belongs")
        seed = bytes.fromhex(record["seed"])
        if index and hashlib.sha256(seed).digest() != previous_seed:
            problems.append(f"{where}: its seed does not hash to the seed before")
        previous_seed = seed
        digest = hashlib.sha256(canonical(public_form(record, previous_digest))).hexdigest()
        if digest != record["digest"]:
            problems.append(f"{where}: the digest does not match")
        previous_digest = record["digest"]
        for dice in record["dice"]:
            if dice.get("sealed") and secret is None:
                continue
            key = sealed_seed(secret, number) if dice.get("sealed") and secret is not None else seed
            got, agrees = record_faces(dice, key)
            if not agrees:
                problems.append(f"{where}: {dice['label']} does not re-derive")
            derived[number, dice["label"], bool(dice.get("sealed"))] = got
        for event in record.get("events", []):
            cited: dict[str, list[int] | None] = {}
            for ref in event["data"].get("dice_refs", []):
                if "rerun" in ref:
                    continue  # §5: the game's engine re-runs it; this verifier cannot
                source = ref.get("step", number)
                sealed = bool(ref.get("sealed"))
                if cited.get(ref["field"], []) is None or (sealed and secret is None):
                    cited[ref["field"]] = None
                    continue
                got = derived.get((source, ref["label"], sealed))
                if got is None or source > number or len(got) < ref["from"] + ref["count"]:
                    problems.append(f"{where}: event {event['kind']} cites dice that were not drawn")
                    cited[ref["field"]] = None
                    continue
                cited.setdefault(ref["field"], []).extend(got[ref["from"] : ref["from"] + ref["count"]])
            for field, expected in cited.items():
                if expected is not None and quoted_at(event["data"], field) != expected:
                    problems.append(f"{where}: event {event['kind']} quotes other faces at {field}")
    return problems
