"""The dice procedures: how a step's seeds are derived and what its public record binds.

**Procedure 1** (every game created before procedure 2, whose record names no procedure): step
``k`` draws its public rolls from link ``s_k`` of the hash chain and its sealed rolls from
``HMAC(K, "voevoda/sealed/v1" || k)``; the digests cover each step's public record.

**Procedure 2** (every new game): the seeds of step ``k`` also depend on the step's *inputs* —
a salted commitment to each seat's post (or the fact that it was defaulted) and to each edit of
the game master in effect — so that nobody can know a roll of the step before its last post is
in: the players do not know ``s_k``, the game master does not know the posts still to come.
The salts are derived from the game's secret, so the commitments hide short posts (a sealed bid
«ставка 3») from everyone but the game master and the post's author, who is given his own salt;
once the secret is revealed anyone opens every commitment. The setup's digest covers the game's
setup (players, computer opponents, public config, a commitment to the whole config, house
rules), and the digests are SHA-256 of a canonical JSON a browser's ``JSON.stringify`` writes
too. ``docs/dice.md`` (§3, §6, «Test vectors») specifies every byte; this module is that text in
code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Mapping
from typing import Any

PROCEDURE_1 = 1
PROCEDURE_2 = 2
CURRENT = PROCEDURE_2
"""The procedure a new game gets."""
PROCEDURES = (PROCEDURE_1, PROCEDURE_2)

SEED_DOMAIN = b"voevoda/seed/v2"
SEALED_DOMAIN = b"voevoda/sealed/v2"
BOT_DOMAIN = b"voevoda/bot/v2"
POST_DOMAIN = b"voevoda/post/v2"
EDIT_DOMAIN = b"voevoda/edit/v2"
CONFIG_DOMAIN = b"voevoda/config/v2"

DEFAULT_SOURCE = "default"
"""The source of a seat in a step's inputs when its player sent nothing and got default orders."""


def _u64(number: int) -> bytes:
    return number.to_bytes(8, "big")


def _hmac(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


# -- canonical JSON, procedure 2 -------------------------------------------------------------------

def es_number(value: float) -> str:
    """A float as ECMAScript's ``Number.prototype.toString`` writes it (and so ``JSON.stringify``):
    an integral value without a fraction (``240``), others with the fewest digits that read back
    to the same double, in fixed notation from 1e-6 to below 1e21 and as ``1.5e-7`` / ``1e+21``
    outside."""
    if not math.isfinite(value):
        raise ValueError(f"{value!r} has no JSON form")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # Python's repr gives the same shortest round-trip digits; only their layout differs.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # the position of the decimal point relative to the first significant digit
    point = len(whole) + (int(exponent) if exponent else 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + text


def _integral_floats(value: Any) -> tuple[Any, bool]:
    """``value`` with every integral float below 2**53 written as an int (``240.0`` -> ``240``, as
    ECMAScript writes it: such an int is its shortest round-trip form), and whether a float is left
    whose repr is not its ECMAScript form: below 1e-4 (Python writes ``1e-05``, ECMAScript
    ``0.00001``) or from 2**53 (``8.351232063689739e+18``, ECMAScript ``8351232063689739000``).
    Python's repr of any other float is the shortest round-trip form in fixed notation, which is
    ECMAScript's."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return int(value), False
        return value, abs(value) < 1e-4 or abs(value) >= 2**53
    if isinstance(value, dict):
        pairs = [(key, _integral_floats(item)) for key, item in value.items()]
        return {key: item for key, (item, _) in pairs}, any(odd for _, (_, odd) in pairs)
    if isinstance(value, list | tuple):
        items = [_integral_floats(item) for item in value]
        return [item for item, _ in items], any(odd for _, odd in items)
    return value, False


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_has_float(item) for item in value)
    return False


def _write(value: Any) -> str:
    """The canonical JSON written item by item (only for the rare value holding a tiny float)."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(str(key), ensure_ascii=False) + ":" + _write(value[key])
                              for key in sorted(value)) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_write(item) for item in value) + "]"
    if isinstance(value, float):
        return es_number(value)
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def canonical(value: Any) -> str:
    """The canonical JSON of procedure 2 (docs/dice.md «Canonical JSON»): Python's ``json.dumps``
    with sorted keys, no spaces and no ASCII escaping, every number as ``JSON.stringify`` writes it.
    In a browser it is ``JSON.stringify`` of the parsed value with every object's keys sorted by
    code point."""
    if _has_float(value):
        value, odd = _integral_floats(value)
        if odd:
            return _write(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the step's inputs and its seeds ----------------------------------------------------------------

def inputs_digest(inputs: Mapping[str, Any]) -> bytes:
    """SHA-256 of the canonical JSON of a step's inputs (``{"posts": {...}, "edits": [...]}``)."""
    return hashlib.sha256(canonical(inputs).encode("utf-8")).digest()


def step_seed(link: bytes, digest: bytes) -> bytes:
    """The public seed of a step: ``HMAC-SHA-256(key = s_k, "voevoda/seed/v2" || inputs digest)``."""
    return _hmac(link, SEED_DOMAIN + digest)


def sealed_seed(secret: bytes, step: int, digest: bytes) -> bytes:
    """The sealed seed of a step: ``HMAC-SHA-256(K, "voevoda/sealed/v2" || k || inputs digest)``."""
    return _hmac(secret, SEALED_DOMAIN + _u64(step) + digest)


def bot_seed(secret: bytes, step: int) -> bytes:
    """The seed computer opponents write their posts for step ``k`` from, before the step's inputs
    are known: ``HMAC-SHA-256(K, "voevoda/bot/v2" || k)``."""
    return _hmac(secret, BOT_DOMAIN + _u64(step))


def post_salt(secret: bytes, step: int, attempt: int, player: str) -> bytes:
    """``HMAC-SHA-256(K, "voevoda/post/v2" || k || attempt || UTF-8(player))``: the salt of a
    player's post for step ``k`` sent after ``attempt`` rollbacks of that step."""
    return _hmac(secret, POST_DOMAIN + _u64(step) + _u64(attempt) + player.encode("utf-8"))


def commit_post(salt: bytes, text: str) -> str:
    """A post's commitment, ``HMAC-SHA-256(key = salt, UTF-8(text))``, in hex."""
    return _hmac(salt, text.encode("utf-8")).hex()


def edit_salt(secret: bytes, step: int, attempt: int, index: int) -> bytes:
    """``HMAC-SHA-256(K, "voevoda/edit/v2" || k || attempt || index)``: the salt of the game
    master's edit number ``index`` (from 0) in effect for step ``k``."""
    return _hmac(secret, EDIT_DOMAIN + _u64(step) + _u64(attempt) + _u64(index))


def commit_patch(salt: bytes, patch: Any) -> str:
    """An edit's commitment, ``HMAC-SHA-256(key = salt, canonical JSON of its patch)``, in hex."""
    return _hmac(salt, canonical(patch).encode("utf-8")).hex()


def config_commitment(secret: bytes, config: Mapping[str, Any]) -> str:
    """The commitment to a game's whole config (its hidden parts included), in hex:
    ``HMAC-SHA-256(key = HMAC-SHA-256(K, "voevoda/config/v2"), canonical JSON of the config)``."""
    return _hmac(_hmac(secret, CONFIG_DOMAIN), canonical(dict(config)).encode("utf-8")).hex()


def record_digest(public_record: Mapping[str, Any], previous: str, procedure: int) -> str:
    """SHA-256 of a record's public form (without ``digest``) with ``previous`` set to the digest
    of the record before, in the canonical JSON of the game's procedure (docs/dice.md §6)."""
    from voevoda.core.journal import canonical_json

    body = {k: v for k, v in public_record.items() if k != "digest"}
    body["previous"] = previous
    text = canonical(body) if procedure >= PROCEDURE_2 else canonical_json(body)
    return sha256_hex(text)


SETUP_KEYS = ("ruleset", "ruleset_version", "players", "bots", "config", "house_rules", "chain_length",
              "procedure")
"""The keys of the game's header that a procedure 2 setup record covers (under ``game``), with
``config`` the public config and ``config_commitment`` added."""


__all__ = ["CURRENT", "DEFAULT_SOURCE", "PROCEDURES", "PROCEDURE_1", "PROCEDURE_2", "SETUP_KEYS", "bot_seed",
           "canonical", "commit_patch", "commit_post", "config_commitment", "edit_salt", "es_number",
           "inputs_digest", "post_salt", "record_digest", "sealed_seed", "sha256_hex", "step_seed"]
