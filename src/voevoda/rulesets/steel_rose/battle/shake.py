# mypy: disable-error-code="no-untyped-def"
# (Numba infers every type of this module when it compiles it.)
"""SHAKE-256 inside compiled code: the dice streams of :mod:`voevoda.core.dice` drawn by the
compiled battle (:mod:`.compiled`) without leaving it.

A stream's bytes are SHAKE-256 over ``seed || label`` (docs/dice.md); draw ``i`` reads the eight
bytes at offset ``8 * i`` as a big-endian integer. SHAKE-256 absorbs and squeezes 136 bytes
(17 lanes of the Keccak-f[1600] state) at a time, so draw ``i`` is lane ``i % 17`` of squeezed
block ``i // 17``, byte-swapped (lanes are little-endian). :func:`absorb_lanes` pads the input in
Python; :func:`next_word` is all the compiled code calls. ``tests/rulesets/steel_rose/
test_compiled.py`` checks the words against :mod:`hashlib`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

RATE_LANES = 17
"""SHAKE-256 rate: 136 bytes, 17 lanes of 64 bits."""

_RC = np.array([
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
], dtype=np.uint64)
_ROT = np.array([0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14],
                dtype=np.uint64)
"""Rotation of lane ``x + 5 y``."""
_PI = np.array([(y + 5 * ((2 * x + 3 * y) % 5)) for y in range(5) for x in range(5)], dtype=np.int64)
"""Where lane ``x + 5 y`` goes in the rho-pi step."""


def absorb_lanes(message: bytes) -> npt.NDArray[np.uint64]:
    """``message`` padded for SHAKE-256 (domain bits 1111, then pad10*1) as little-endian lanes,
    17 per block."""
    rate = 8 * RATE_LANES
    padded = bytearray(message)
    padded.append(0x1F)
    padded.extend(b"\x00" * (-len(padded) % rate))
    padded[-1] |= 0x80
    return np.frombuffer(bytes(padded), dtype="<u8").astype(np.uint64)


@njit(cache=True)
def keccak_f(state, scratch):
    """Keccak-f[1600] on ``state`` (25 lanes) in place; ``scratch`` holds 30 lanes of work space."""
    one = np.uint64(1)
    sixty_four = np.uint64(64)
    for rnd in range(24):
        for x in range(5):
            scratch[25 + x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]
        for x in range(5):
            c1 = scratch[25 + (x + 1) % 5]
            d = scratch[25 + (x + 4) % 5] ^ ((c1 << one) | (c1 >> np.uint64(63)))
            for y in range(0, 25, 5):
                state[x + y] ^= d
        for i in range(25):
            r = _ROT[i]
            v = state[i]
            if r != 0:
                v = (v << r) | (v >> (sixty_four - r))
            scratch[_PI[i]] = v
        for y in range(0, 25, 5):
            for x in range(5):
                state[x + y] = scratch[x + y] ^ (~scratch[(x + 1) % 5 + y] & scratch[(x + 2) % 5 + y])
        state[0] ^= _RC[rnd]


@njit(cache=True)
def _bswap(v):
    out = np.uint64(0)
    eight = np.uint64(8)
    mask = np.uint64(0xFF)
    for _ in range(8):
        out = (out << eight) | (v & mask)
        v = v >> eight
    return out


@njit(cache=True)
def start_stream(lanes, nlanes, state, scratch):
    """Absorb the padded message ``lanes[:nlanes]`` into a zeroed ``state``."""
    for k in range(25):
        state[k] = np.uint64(0)
    for blk in range(0, nlanes, RATE_LANES):
        for k in range(RATE_LANES):
            state[k] ^= lanes[blk + k]
        keccak_f(state, scratch)


@njit(cache=True)
def squeeze_block(state, block_index, words, scratch):
    """The 17 words of squeezed block ``block_index + 1`` into ``words`` (block 0 is the state right
    after absorbing; each further block permutes it once more)."""
    if block_index >= 0:
        keccak_f(state, scratch)
    for k in range(RATE_LANES):
        words[k] = _bswap(state[k])
