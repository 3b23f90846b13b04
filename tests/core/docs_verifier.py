"""An export verifier written from docs/dice.md alone, as a sceptical player would write it.

It imports nothing but Python's standard library (hashlib, hmac, json): no line of voevoda's own
dice or verify code, so that the procedure the document states is checked against what the
engine writes. Section numbers are docs/dice.md's; it follows both procedures («Procedure 1»). It
skips what the document says needs the game's engine (§5 «rerun» citations: a battle fought again;
§7 item 8, the journal replayed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

CHAIN_DOMAIN = b"voevoda/chain/v1"  # §1
SEALED_V1 = b"voevoda/sealed/v1"  # §3 (the setup's sealed rolls), «Procedure 1»
SEED_V2, SEALED_V2, BOT_V2 = b"voevoda/seed/v2", b"voevoda/sealed/v2", b"voevoda/bot/v2"  # §3
POST_V2, EDIT_V2, CONFIG_V2 = b"voevoda/post/v2", b"voevoda/edit/v2", b"voevoda/config/v2"  # §3, §6
SETUP_GAME = ("ruleset", "ruleset_version", "players", "bots", "config", "house_rules", "chain_length",
              "procedure")  # §6 «The setup covers the game»


def u64(number: int) -> bytes:
    """§3: «written as 8 bytes each, big-endian»."""
    return number.to_bytes(8, "big")


def mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def js_number(value: float) -> str:
    """§6 «Canonical JSON»: «every float with the fewest significant digits that read back to the
    same double ... in plain notation from 10^-6 up to 10^21, without a fraction when it has none,
    and as 1.5e-7, 1e+21 outside». Python's repr gives those fewest digits."""
    if value == 0:
        return "0"
    digits_text, _, exponent_text = repr(abs(value)).partition("e")
    whole, _, fraction = digits_text.partition(".")
    exponent = int(exponent_text or 0) + len(whole)  # the point after `exponent` digits of whole+fraction
    digits = whole + fraction
    stripped = digits.lstrip("0")
    exponent -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    sign = "-" if value < 0 else ""
    if 1e-6 <= abs(value) < 1e21:
        if exponent <= 0:
            return sign + "0." + "0" * -exponent + digits
        if exponent >= len(digits):
            return sign + digits + "0" * (exponent - len(digits))
        return sign + digits[:exponent] + "." + digits[exponent:]
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    power = exponent - 1
    return f"{sign}{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"


def write(value: Any, procedure: int) -> str:
    """§6: procedure 1 is Python's json.dumps(sort_keys=True, ensure_ascii=False, separators=(",", ":"));
    procedure 2 writes the same but every number as JavaScript does (keys by code point, which is
    what Python's sorted() does on str)."""
    if procedure == 1:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(key, ensure_ascii=False) + ":" + write(value[key], 2)
                              for key in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(write(item, 2) for item in value) + "]"
    if isinstance(value, float):
        return js_number(value)
    return json.dumps(value, ensure_ascii=False)


def canonical(value: Any, procedure: int = 2) -> bytes:
    """§6 «Canonical JSON», encoded as UTF-8."""
    return write(value, procedure).encode("utf-8")


def faces(seed: bytes, label: str, sides: list[int]) -> list[int]:
    """§2: SHAKE-256(seed || UTF-8(label)); draw i reads the 8 bytes at 8·i, big-endian; face = 1 + word mod sides."""
    data = hashlib.shake_256(seed + label.encode("utf-8")).digest(8 * len(sides))
    return [1 + int.from_bytes(data[8 * i : 8 * i + 8], "big") % die for i, die in enumerate(sides)]


def chain_links(secret: bytes, length: int, upto: int = 0) -> list[bytes]:
    """§1: s_L = HMAC-SHA-256(K, "voevoda/chain/v1"), s_(k-1) = SHA-256(s_k); returns s_0 … s_upto."""
    link = mac(secret, CHAIN_DOMAIN)
    links: dict[int, bytes] = {}
    for k in range(length, -1, -1):
        if k <= upto:
            links[k] = link
        if k:
            link = hashlib.sha256(link).digest()
    return [links[k] for k in range(upto + 1)]


def inputs_digest(inputs: dict[str, Any]) -> bytes:
    """§3: D_k = SHA-256(canonical JSON of the inputs)."""
    return hashlib.sha256(canonical(inputs)).digest()


def step_seed(link: bytes, digest: bytes) -> bytes:
    """§3: seed_k = HMAC-SHA-256(key = s_k, "voevoda/seed/v2" || D_k)."""
    return mac(link, SEED_V2, digest)


def sealed_seed(secret: bytes, step: int, digest: bytes | None) -> bytes:
    """§3: sealed_k = HMAC-SHA-256(K, "voevoda/sealed/v2" || k || D_k); the setup's, and every step's
    in procedure 1, HMAC-SHA-256(K, "voevoda/sealed/v1" || k)."""
    if digest is None:
        return mac(secret, SEALED_V1, u64(step))
    return mac(secret, SEALED_V2, u64(step), digest)


def bot_seed(secret: bytes, step: int) -> bytes:
    """§3: bot_k = HMAC-SHA-256(K, "voevoda/bot/v2" || k)."""
    return mac(secret, BOT_V2, u64(step))


def post_salt(secret: bytes, step: int, attempt: int, player: str) -> bytes:
    """§3: HMAC-SHA-256(K, "voevoda/post/v2" || k || a || UTF-8(player))."""
    return mac(secret, POST_V2, u64(step), u64(attempt), player.encode("utf-8"))


def post_commitment(salt: bytes, text: str) -> str:
    """§3: HMAC-SHA-256(key = salt, UTF-8(text))."""
    return mac(salt, text.encode("utf-8")).hex()


def edit_salt(secret: bytes, step: int, attempt: int, index: int) -> bytes:
    """§3: HMAC-SHA-256(K, "voevoda/edit/v2" || k || a || i)."""
    return mac(secret, EDIT_V2, u64(step), u64(attempt), u64(index))


def edit_commitment(salt: bytes, patch: Any) -> str:
    return mac(salt, canonical(patch)).hex()


def config_commitment(secret: bytes, config: Any) -> str:
    """§6: HMAC-SHA-256(key = HMAC-SHA-256(K, "voevoda/config/v2"), canonical JSON of the whole config)."""
    return mac(mac(secret, CONFIG_V2), canonical(config)).hex()


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
    """§6: the record without its digest, its opened texts, its sealed dice and its hidden events and
    actions, with the digest of the record before under "previous"."""
    body = {key: value for key, value in record.items() if key not in ("digest", "opened")}
    body["dice"] = [r for r in body["dice"] if not r.get("sealed")]
    for key in ("events", "actions"):
        if key in body:
            body[key] = [e for e in body[key] if "*" in e["audience"]]
    body["previous"] = previous
    return body


def digest_of(record: dict[str, Any], previous: str, procedure: int) -> str:
    """§6: SHA-256 of the canonical public form, in hex."""
    return hashlib.sha256(canonical(public_form(record, previous), procedure)).hexdigest()


def quoted_at(data: Any, pointer: str) -> list[Any]:
    """§5: the value at an RFC 6901 pointer, as a list of faces."""
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data if isinstance(data, list) else [data]


def inputs_problems(where: str, number: int, record: dict[str, Any], rollbacks: int,
                    secret: bytes | None) -> list[str]:
    """§7 item 3 (defaulted seats, attempts) and item 7 (the opened texts give their commitments)."""
    problems = []
    inputs = record["inputs"]
    defaulted = {p for p, seat in inputs["posts"].items() if seat["source"] == "default"}
    if defaulted != set(record["defaulted"]):
        problems.append(f"{where}: the inputs mark other seats defaulted")
    if any(entry.get("attempt", 0) > rollbacks for entry in [*inputs["posts"].values(), *inputs["edits"]]):
        problems.append(f"{where}: an attempt after more rollbacks than recorded")
    opened = record.get("opened")
    if secret is None or opened is None:
        return problems
    for player, seat in inputs["posts"].items():
        if seat["source"] == "default":
            continue
        text = opened["posts"].get(player)
        salt = post_salt(secret, number, seat.get("attempt", 0), player)
        if text is None or post_commitment(salt, text) != seat["commitment"]:
            problems.append(f"{where}: {player}'s post does not open its commitment")
    for index, edit in enumerate(inputs["edits"]):
        salt = edit_salt(secret, number, edit.get("attempt", 0), index)
        patches = opened["edits"]
        if index >= len(patches) or edit_commitment(salt, patches[index]) != edit["commitment"]:
            problems.append(f"{where}: edit {index} does not open its commitment")
    return problems


def verify(export: dict[str, Any], commitment: str | None = None, last_digest: str | None = None) -> list[str]:
    """Every problem found in ``export`` (empty: everything checks out), §7 items 2–7 and 9."""
    problems: list[str] = []
    if export.get("format") != "voevoda-export/2":
        return ["not an export of the format docs/dice.md §6 describes"]
    game = export["game"]
    procedure = game.get("procedure", 1)
    published = game["commitment"]
    if commitment is not None and commitment != published:
        problems.append("the commitment is not the one saved at creation")
    secret = bytes.fromhex(game["secret"]) if game.get("secret") else None
    if secret is not None and chain_links(secret, game["chain_length"])[0].hex() != published:
        problems.append("the secret does not give the commitment")
        secret = None
    setup = export["setup"]
    if setup["seed"] != published:
        problems.append("setup: its seed is not the commitment")
    if procedure == 2:
        covered = setup["game"]
        for key in SETUP_GAME:
            if key == "config" and secret is not None:
                continue  # a full header holds the whole config: its commitment is checked instead
            if game.get(key) != covered.get(key):
                problems.append(f"game.{key} is not what the setup covers")
        if secret is not None and config_commitment(secret, game["config"]) != covered["config_commitment"]:
            problems.append("the config does not open the setup's config commitment")
    derived: dict[tuple[int, str, bool], list[int]] = {}
    digests: dict[str, int] = {}
    previous_digest, previous_link = "", bytes.fromhex(published)
    rollbacks: dict[int, int] = {}
    for index, record in enumerate([setup, *export["steps"]]):
        number = record["number"]
        where = f"step {number}"
        if number != index:
            problems.append(f"{where}: found where step {index} belongs")
        seed = bytes.fromhex(record["seed"])
        digest = None
        if index:
            link = bytes.fromhex(record["link"]) if procedure == 2 else seed
            if hashlib.sha256(link).digest() != previous_link:
                problems.append(f"{where}: its link does not hash to the link before")
            previous_link = link
            if procedure == 2:
                for action in record["actions"]:
                    if action["kind"] == "rollback":
                        rollbacks[action["data"]["step"]] = rollbacks.get(action["data"]["step"], 0) + 1
                digest = inputs_digest(record["inputs"])
                if step_seed(link, digest) != seed:
                    problems.append(f"{where}: its seed is not what its link and inputs give")
                problems += inputs_problems(where, number, record, rollbacks.get(number, 0), secret)
        if digest_of(record, previous_digest, procedure) != record["digest"]:
            problems.append(f"{where}: the digest does not match")
        previous_digest = record["digest"]
        digests.setdefault(previous_digest, number)
        for dice in record["dice"]:
            if dice.get("sealed") and secret is None:
                continue
            key = sealed_seed(secret, number, digest) if dice.get("sealed") and secret is not None else seed
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
    if last_digest is not None and last_digest not in digests:
        problems.append("the export does not reach the digest seen")
    return problems


def proves(export: dict[str, Any], last_digest: str) -> int | None:
    """§6 «A public record that proves its own end»: the step whose digest is the one seen."""
    for record in [export["setup"], *export["steps"]]:
        if record["digest"] == last_digest:
            return int(record["number"])
    return None
