"""The treasury curve of a bot game under the default rules, as docs/rulings/ring_of_power.md
records it (ruling 11). Print the table with::

    PYTHONPATH=src python -m tests.rulesets.ring_of_power.economy_curve

Four computer opponents play the default map for 20 turns. Under the defaults they complete
their rings long before turn 20 (the turn is printed too), so the curve is taken from the same
game with the ring switched off (``ring_shape = connected`` with a ring of 400 hexes): the
economy, orders and bots are the defaults' own.
"""

from __future__ import annotations

from typing import Any

from voevoda.core.dice import Dice
from voevoda.rulesets.ring_of_power import RingOfPower

NAMES = ["Анна", "Борис", "Вера", "Глеб"]
SEED = "economy"
TURNS = 20
NO_RING = ({"ring_shape": "connected"}, {"victory": {"ring_size": 400}})
ORDER_ITEMS = ("move", "support", "disband", "raise", "upgrade", "bid", "transfer", "fee")


def play(turns: int = TURNS, ring: bool = True) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One row per turn for the first seat, and the final state."""
    config, house_rules = ({}, {}) if ring else NO_RING
    ruleset = RingOfPower({"max_turns": turns, **config}, house_rules)
    state = ruleset.setup(NAMES, Dice.from_text(SEED))
    rows: list[dict[str, Any]] = []
    while ruleset.outcome(state) is None:
        dice = Dice.from_text(f"{SEED}/{state['turn']}")
        orders = {p: ruleset.parse(ruleset.bot(ruleset.view(state, p), p, dice.stream(f"bot/{p}")) or "", p, state)
                  for p in ruleset.awaiting(state)}
        state = ruleset.resolve(state, orders, dice).state
        me = state["players"][NAMES[0]]
        items: dict[str, int] = {}
        for entry in me["statement"]:
            items[entry["item"]] = items.get(entry["item"], 0) + int(entry["amount"])
        treasuries = [state["players"][p]["money"] for p in NAMES]
        rows.append({
            "turn": state["turn"] - 1,
            "treasury": me["money"],
            "income": me["last_income"],
            "upkeep": -items.get("upkeep", 0),
            "orders": -sum(v for k, v in items.items() if k in ORDER_ITEMS),
            "holdings": sum(1 for v in state["holdings"].values() if v["owner"] == NAMES[0]),
            "units": sum(1 for u in state["units"] if u["owner"] == NAMES[0]),
            "poorest": min(treasuries),
            "richest": max(treasuries),
        })
    return rows, state


def table() -> str:
    """The Markdown table the rulings quote."""
    rows, _ = play(ring=False)
    lines = ["| turn | treasury | income | upkeep | orders | holdings | units | poorest | richest |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['turn']} | {r['treasury']} | {r['income']} | {r['upkeep']} | {r['orders']} | {r['holdings']} "
              f"| {r['units']} | {r['poorest']} | {r['richest']} |" for r in rows]
    return "\n".join(lines)


def ring_turn() -> int:
    """The turn the same bots complete a ring under the defaults."""
    rows, state = play(ring=True)
    assert state["outcome"]["reason"] == "ring"
    return int(rows[-1]["turn"])


if __name__ == "__main__":
    print(table())
    print(f"\nUnder the defaults the game ends with a ring at turn {ring_turn()}.")
