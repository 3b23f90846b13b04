"""The hash chain gives every link exactly as the procedure of docs/dice.md walks it
(``s_L = HMAC(secret, domain)``, ``s_(k-1) = SHA-256(s_k)``), whatever links it keeps in memory
to answer quickly (a game's replay asks for every step's seed)."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given, settings
from hypothesis import strategies as st

from voevoda.core.dice import CHAIN_DOMAIN, HashChain


def walked(secret: bytes, length: int, step: int) -> bytes:
    link = hmac.new(secret, CHAIN_DOMAIN, hashlib.sha256).digest()
    for _ in range(length - step):
        link = hashlib.sha256(link).digest()
    return link


@settings(max_examples=200, deadline=None)
@given(secret=st.binary(min_size=1, max_size=32), length=st.integers(1, 300), data=st.data())
def test_every_link_is_the_walked_one(secret: bytes, length: int, data: st.DataObject) -> None:
    chain = HashChain(secret, length)
    for step in data.draw(st.lists(st.integers(0, length), min_size=1, max_size=8)):
        assert chain.seed(step) == walked(secret, length, step)
    assert chain.commitment == walked(secret, length, 0).hex()
