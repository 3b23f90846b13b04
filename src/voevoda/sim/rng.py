"""The counter-based dice of the batched simulator.

Draw ``c`` (counting from 1) of battle ``b`` under the 64-bit seed ``s`` is

    key(s, b) = mix(s XOR mix(b + G))
    draw(s, b, c) = mix(key(s, b) + c * G)            (all arithmetic modulo 2**64)

where ``G = 0x9E3779B97F4A7C15`` and ``mix`` is the SplitMix64 finaliser (Stafford's
"variant 13"). A draw depends on nothing but (seed, battle index, counter), so a battle's dice
are the same whichever thread, chunk, batch or machine runs it. A die with ``n`` faces reads
32 bits ``x`` of a draw (the high half, or the low half for the second die of the same draw)
and turns up ``1 + (x * n) >> 32`` (bias below ``n / 2**32``). docs/sim.md says more.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
GOLDEN_INT = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB

GOLDEN = np.uint64(GOLDEN_INT)
_M1 = np.uint64(M1)
_M2 = np.uint64(M2)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)


def seed_of(text: str) -> int:
    """The 64-bit seed of a seed text: the first eight bytes of its SHA-256, little-endian."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def mix_py(z: int) -> int:
    """SplitMix64's finaliser in plain Python (the reference the kernel is tested against)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * M1) & MASK64
    z = ((z ^ (z >> 27)) * M2) & MASK64
    return z ^ (z >> 31)


def key_py(seed: int, battle: int) -> int:
    return mix_py(seed ^ mix_py(battle + GOLDEN_INT))


def draw_py(seed: int, battle: int, counter: int) -> int:
    return mix_py(key_py(seed, battle) + counter * GOLDEN_INT)


def face_py(x32: int, sides: int) -> int:
    return 1 + ((x32 * sides) >> 32)


@njit(cache=True)
def mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def battle_key(seed: np.uint64, battle: np.int64) -> np.uint64:
    return mix(seed ^ mix(np.uint64(battle) + GOLDEN))


@njit(cache=True)
def draw(rs: np.ndarray) -> np.uint64:
    """The next draw of the battle whose key and counter ``rs`` holds (``rs[1]`` counts)."""
    rs[1] += np.uint64(1)
    return mix(rs[0] + rs[1] * GOLDEN)


@njit(cache=True)
def below(x32: np.uint64, n: int) -> int:
    """``0 <= result < n`` from 32 random bits (multiply-shift)."""
    return int((x32 * np.uint64(n)) >> _S32)


@njit(cache=True)
def hi(u: np.uint64) -> np.uint64:
    return u >> _S32


@njit(cache=True)
def lo(u: np.uint64) -> np.uint64:
    return u & LOW32


@njit(cache=True)
def draw_at(key: np.uint64, counter: np.uint64) -> np.uint64:
    """Draw ``counter`` of the battle whose key is ``key`` (scalars only, for hot loops)."""
    return mix(key + counter * GOLDEN)
