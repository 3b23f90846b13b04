"""Balance of the first turns: each faction's Twilight army against each faction's small city of
level 1, on the batched simulator.

The attacker is the faction's Twilight template (``src/voevoda/sim/data/templates_twilight.toml``:
level-1 units and the building that unlocks them, bought at real prices for ``--budget`` gold,
about what a first turn leaves after the buildings a faction wants); the defender is the garrison
the document lists for a small city of level 1 («ГАРНИЗОН 1 уровень»), placed as the document's
default (shooters in the centre rearguard, the rest in the centre vanguard), with the powder it
needs — and, for the Principality, also with none, as on turn 1 under the option ``start_powder =
false`` (ruling C2's first reading: «Если вы не выделите порох юниту, который его тратит, то он не
сможет сражаться»). The attacker pays for the buildings of the units it buys, no others (ruling C50).

Run: ``PYTHONPATH=src python benchmarks/steel_rose_twilight.py [--budget 600] [-n 2000]``.
"""

from __future__ import annotations

import argparse

from voevoda.rulesets.steel_rose.battle.model import SideInput
from voevoda.rulesets.steel_rose.battle.posts import default_garrison_deployment
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, load_campaign
from voevoda.rulesets.steel_rose.campaign.pricing import Pricing
from voevoda.sim.balance import TEMPLATES, load_templates, real_army
from voevoda.sim.odds import odds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=600)
    parser.add_argument("-n", type=int, default=2000)
    args = parser.parse_args(argv)
    campaign = load_campaign()
    rules = campaign.rules
    templates = load_templates(rules, TEMPLATES.with_name("templates_twilight.toml"))
    pricing = Pricing(campaign)
    defenders: list[tuple[str, str, int | None]] = [(f, f, None) for f in FACTIONS if f != "ogres"]
    defenders.append(("steel_rose, 0 powder", "steel_rose", 0))
    print(f"| attacker ({args.budget:g} gold) \\ small city of level 1 | "
          + " | ".join(label for label, _f, _p in defenders) + " |")
    print("|---|" + "---:|" * len(defenders))
    for attacker in FACTIONS:
        # the buildings of the units it buys paid first (ruling C50; issue 29, item 14)
        army, _paid = real_army(rules, attacker, templates[attacker], args.budget, pricing)
        cells = []
        for _label, defender, powder in defenders:
            if defender == attacker:
                cells.append("—")
                continue
            garrison = rules.garrison(defender, 1, False)
            side = SideInput("D", defender, tuple(default_garrison_deployment(garrison, rules)), (), powder, True)
            result = odds((army, side), n=args.n, seed=f"twilight/{attacker}/{defender}/{powder}", rules=rules)
            cells.append(f"{100 * result.wins[0] / result.n:.1f}%".replace(".", ","))
        size = sum(n for sq in army.squads for n in sq.units.values())
        print(f"| {attacker} ({size} units) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
