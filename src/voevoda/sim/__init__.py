"""Batched Monte Carlo Steel Rose battles: odds, balance sweeps (local and on Ray).

See docs/sim.md.
"""
