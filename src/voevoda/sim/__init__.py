"""Batched Monte Carlo Steel Rose battles: odds and balance sweeps (locally or on Ray).

:func:`odds` answers what ``voevoda odds`` answers, from the batched simulator; see
docs/sim.md for the kernel, its dice and the balance sweep.
"""

from voevoda.sim import numba_cache

numba_cache.configure()  # before Numba is imported: a read-only install still caches its compile

from voevoda.sim.odds import Odds, odds  # noqa: E402

__all__ = ["Odds", "odds"]
