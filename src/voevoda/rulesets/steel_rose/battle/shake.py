# mypy: disable-error-code="no-untyped-def"
# (Numba infers every type of this module when it compiles it.)
"""SHAKE-256 inside compiled code: the dice streams of :mod:`voevoda.core.dice` drawn by the
compiled battle (:mod:`.compiled`) without leaving it.

A stream's bytes are SHAKE-256 over ``seed || label`` (docs/dice.md); draw ``i`` reads the eight
bytes at offset ``8 * i`` as a big-endian integer. SHAKE-256 absorbs and squeezes 136 bytes
(17 lanes of the Keccak-f[1600] state) at a time, so draw ``i`` is lane ``i % 17`` of squeezed
block ``i // 17``, byte-swapped (lanes are little-endian). :func:`absorb` pads and absorbs
``seed || label``; :func:`squeeze_block` gives the next 17 words. ``tests/rulesets/steel_rose/
test_compiled.py`` checks the words against :mod:`hashlib`.
"""

from __future__ import annotations

import numpy as np
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
_S = np.arange(65, dtype=np.uint64)
"""Shift counts as 64-bit unsigned integers."""


@njit(cache=True)
def keccak_f(state):
    """Keccak-f[1600] on ``state`` (its first 25 lanes) in place, written out lane by lane."""
    a0 = state[0]
    a1 = state[1]
    a2 = state[2]
    a3 = state[3]
    a4 = state[4]
    a5 = state[5]
    a6 = state[6]
    a7 = state[7]
    a8 = state[8]
    a9 = state[9]
    a10 = state[10]
    a11 = state[11]
    a12 = state[12]
    a13 = state[13]
    a14 = state[14]
    a15 = state[15]
    a16 = state[16]
    a17 = state[17]
    a18 = state[18]
    a19 = state[19]
    a20 = state[20]
    a21 = state[21]
    a22 = state[22]
    a23 = state[23]
    a24 = state[24]
    for rnd in range(24):
        c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20
        c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21
        c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22
        c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23
        c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24
        d0 = c4 ^ ((c1 << _S[1]) | (c1 >> _S[63]))
        d1 = c0 ^ ((c2 << _S[1]) | (c2 >> _S[63]))
        d2 = c1 ^ ((c3 << _S[1]) | (c3 >> _S[63]))
        d3 = c2 ^ ((c4 << _S[1]) | (c4 >> _S[63]))
        d4 = c3 ^ ((c0 << _S[1]) | (c0 >> _S[63]))
        a0 ^= d0
        a1 ^= d1
        a2 ^= d2
        a3 ^= d3
        a4 ^= d4
        a5 ^= d0
        a6 ^= d1
        a7 ^= d2
        a8 ^= d3
        a9 ^= d4
        a10 ^= d0
        a11 ^= d1
        a12 ^= d2
        a13 ^= d3
        a14 ^= d4
        a15 ^= d0
        a16 ^= d1
        a17 ^= d2
        a18 ^= d3
        a19 ^= d4
        a20 ^= d0
        a21 ^= d1
        a22 ^= d2
        a23 ^= d3
        a24 ^= d4
        b0 = a0
        b10 = (a1 << _S[1]) | (a1 >> _S[63])
        b20 = (a2 << _S[62]) | (a2 >> _S[2])
        b5 = (a3 << _S[28]) | (a3 >> _S[36])
        b15 = (a4 << _S[27]) | (a4 >> _S[37])
        b16 = (a5 << _S[36]) | (a5 >> _S[28])
        b1 = (a6 << _S[44]) | (a6 >> _S[20])
        b11 = (a7 << _S[6]) | (a7 >> _S[58])
        b21 = (a8 << _S[55]) | (a8 >> _S[9])
        b6 = (a9 << _S[20]) | (a9 >> _S[44])
        b7 = (a10 << _S[3]) | (a10 >> _S[61])
        b17 = (a11 << _S[10]) | (a11 >> _S[54])
        b2 = (a12 << _S[43]) | (a12 >> _S[21])
        b12 = (a13 << _S[25]) | (a13 >> _S[39])
        b22 = (a14 << _S[39]) | (a14 >> _S[25])
        b23 = (a15 << _S[41]) | (a15 >> _S[23])
        b8 = (a16 << _S[45]) | (a16 >> _S[19])
        b18 = (a17 << _S[15]) | (a17 >> _S[49])
        b3 = (a18 << _S[21]) | (a18 >> _S[43])
        b13 = (a19 << _S[8]) | (a19 >> _S[56])
        b14 = (a20 << _S[18]) | (a20 >> _S[46])
        b24 = (a21 << _S[2]) | (a21 >> _S[62])
        b9 = (a22 << _S[61]) | (a22 >> _S[3])
        b19 = (a23 << _S[56]) | (a23 >> _S[8])
        b4 = (a24 << _S[14]) | (a24 >> _S[50])
        a0 = b0 ^ (~b1 & b2)
        a1 = b1 ^ (~b2 & b3)
        a2 = b2 ^ (~b3 & b4)
        a3 = b3 ^ (~b4 & b0)
        a4 = b4 ^ (~b0 & b1)
        a5 = b5 ^ (~b6 & b7)
        a6 = b6 ^ (~b7 & b8)
        a7 = b7 ^ (~b8 & b9)
        a8 = b8 ^ (~b9 & b5)
        a9 = b9 ^ (~b5 & b6)
        a10 = b10 ^ (~b11 & b12)
        a11 = b11 ^ (~b12 & b13)
        a12 = b12 ^ (~b13 & b14)
        a13 = b13 ^ (~b14 & b10)
        a14 = b14 ^ (~b10 & b11)
        a15 = b15 ^ (~b16 & b17)
        a16 = b16 ^ (~b17 & b18)
        a17 = b17 ^ (~b18 & b19)
        a18 = b18 ^ (~b19 & b15)
        a19 = b19 ^ (~b15 & b16)
        a20 = b20 ^ (~b21 & b22)
        a21 = b21 ^ (~b22 & b23)
        a22 = b22 ^ (~b23 & b24)
        a23 = b23 ^ (~b24 & b20)
        a24 = b24 ^ (~b20 & b21)
        a0 ^= _RC[rnd]
    state[0] = a0
    state[1] = a1
    state[2] = a2
    state[3] = a3
    state[4] = a4
    state[5] = a5
    state[6] = a6
    state[7] = a7
    state[8] = a8
    state[9] = a9
    state[10] = a10
    state[11] = a11
    state[12] = a12
    state[13] = a13
    state[14] = a14
    state[15] = a15
    state[16] = a16
    state[17] = a17
    state[18] = a18
    state[19] = a19
    state[20] = a20
    state[21] = a21
    state[22] = a22
    state[23] = a23
    state[24] = a24


_M8 = np.uint64(0x00FF00FF00FF00FF)
_M16 = np.uint64(0x0000FFFF0000FFFF)


@njit(cache=True)
def _bswap(v):
    """The eight bytes of ``v`` in reverse order."""
    v = ((v >> _S[8]) & _M8) | ((v & _M8) << _S[8])
    v = ((v >> _S[16]) & _M16) | ((v & _M16) << _S[16])
    return (v >> _S[32]) | (v << _S[32])


@njit(cache=True)
def absorb(seed, label, lo, hi, state, block):
    """Absorb ``seed || label[lo:hi]`` (bytes) into ``state``, padded for SHAKE-256 (domain bits
    1111, then pad10*1); ``block`` is 136 bytes of work space, read as 17 little-endian lanes."""
    lanes = block.view(np.uint64)
    for k in range(25):
        state[k] = np.uint64(0)
    ns = len(seed)
    n = ns + hi - lo
    rate = 8 * RATE_LANES
    pos = 0
    done = False
    while not done:
        take = min(rate, n - pos)
        for w in range(RATE_LANES):
            lanes[w] = np.uint64(0)
        j = 0
        while j < take and pos + j < ns:
            block[j] = seed[pos + j]
            j += 1
        while j < take:
            block[j] = label[lo + pos + j - ns]
            j += 1
        pos += take
        if take < rate:
            block[take] ^= np.uint8(0x1F)
            block[rate - 1] ^= np.uint8(0x80)
            done = True
        for w in range(RATE_LANES):
            state[w] ^= lanes[w]
        keccak_f(state)


@njit(cache=True)
def squeeze_block(state, block_index, words):
    """The 17 words of squeezed block ``block_index + 1`` into ``words`` (block 0 is the state right
    after absorbing; each further block permutes it once more)."""
    if block_index >= 0:
        keccak_f(state)
    for k in range(RATE_LANES):
        words[k] = _bswap(state[k])


@njit(cache=True)
def stream_words(seed, label, count):
    """The first ``count`` words of the stream of ``label`` under ``seed`` (both as bytes)."""
    state = np.zeros(25, np.uint64)
    block = np.zeros(8 * RATE_LANES, np.uint8)
    words = np.zeros(RATE_LANES, np.uint64)
    absorb(seed, label, 0, len(label), state, block)
    out = np.empty(count, np.uint64)
    for i in range(count):
        if i % RATE_LANES == 0:
            squeeze_block(state, i // RATE_LANES - 1, words)
        out[i] = words[i % RATE_LANES]
    return out
