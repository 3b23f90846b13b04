"""Кольцо Власти (Ring of Power): a 400-hex map game of priced simultaneous orders,
income and hostility, taxes, battles by strength, two-turn capture, fog, condottieri,
the Chupacabra and the seven-hex Ring of Power (rules document 003)."""

from voevoda.rulesets.ring_of_power.ruleset import RingOfPower

RULESET = RingOfPower

__all__ = ["RULESET", "RingOfPower"]
