"""The ruleset-agnostic engine: dice, orders, events, views, the turn loop."""
