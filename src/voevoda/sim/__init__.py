"""Batched Monte Carlo Steel Rose battles: odds and balance sweeps (locally or on Ray).

:func:`odds` answers what ``voevoda odds`` answers, from the batched simulator; see
docs/sim.md for the kernel, its dice and the balance sweep.
"""

from voevoda.sim.odds import Odds, odds

__all__ = ["Odds", "odds"]
