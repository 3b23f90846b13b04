"""Benchmark: how each faction fares in whole Steel Rose campaigns of five computer opponents.

Plays ``--games`` campaigns (game ``i`` under the seed ``"<seed>/<i>"``, the same games as
``voevoda simulate steel-rose --seed SEED``), every seat a bot, each game an ordinary game of the
engine, and prints per faction, as a Markdown table for docs/steel_rose/campaign.md: the games it
played, its wins and how, its losses and how, in how many games it lost a city and on which turn
the first (mean), and the turn its game ended (mean); then how the games ended, the seconds a game
and the load average.

``--set KEY=VALUE`` gives a game option (``--set start_powder=false`` plays the document's first
reading of ruling C2; ``--set bot_odds_battles=50`` weighs attacks on fewer simulated battles,
for a loaded machine; the default is the game's own, 200).

Run: ``PYTHONPATH=src python benchmarks/steel_rose_bot_games.py [--games 20] [--seed bots]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

try:
    import voevoda  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def _value(text: str) -> Any:
    """A ``--set`` value: JSON where it reads as JSON (true, 50, "x"), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _warm(config: dict[str, Any]) -> None:
    """Compile or load the batched simulator before the clock starts (the bots need it)."""
    if config.get("bot_odds_battles", 200) == 0:
        return
    from voevoda.rulesets.steel_rose.battle.model import SideInput, SquadInput
    from voevoda.rulesets.steel_rose.rules import load_rules
    from voevoda.sim.odds import odds

    side = SideInput("a", "empire", (SquadInput("centre.vanguard", {"spearman": 3}),))
    odds((side, side), n=8, rules=load_rules())


def markdown(results: list[Any]) -> str:
    """The faction table and the endings table, in Russian as the campaign's docs print them."""
    from voevoda.core.words import number
    from voevoda.rulesets.steel_rose.campaign.data import load_campaign
    from voevoda.rulesets.steel_rose.campaign.simulate import REASONS, ending_rows, faction_rows

    campaign = load_campaign()

    def ways(d: dict[str, int]) -> str:
        return ", ".join(f"{REASONS.get(k, (k, k))[1]} {v}" for k, v in d.items()) or "—"

    lines = ["| faction | games | wins | won by | lost by | first city lost (games; turn, mean) "
             "| the game ended for it (turn, mean) |",
             "|---|---:|---:|---|---|---:|---:|"]
    for row in faction_rows(results, "en"):
        fid = row["faction"]
        seated = [r for r in results if r.factions[fid]["player"]]
        lost = [r.factions[fid]["first_city_lost"] for r in seated if r.factions[fid]["first_city_lost"]]
        first = f"{len(lost)}; {number(round(sum(lost) / len(lost), 1), 'ru')}" if lost else "0"
        lines.append(f"| {campaign.faction(fid).name_ru} | {row['games']} | {row['wins']} | {ways(row['won_by'])} | "
                     f"{ways(row['lost_by'])} | {first} | {number(round(row['mean_end_turn'], 1), 'ru')} |")
    lines.append("")
    lines.append("| ending | games | mean turns |")
    lines.append("|---|---:|---:|")
    for row in ending_rows(results):
        lines.append(f"| {row['ending']} | {row['games']} | {number(round(row['mean_turns'], 1), 'ru')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    args = parser.parse_args(argv)
    config: dict[str, Any] = {}
    for item in args.set:
        key, _, value = item.partition("=")
        config[key.strip()] = _value(value.strip())
    from voevoda.rulesets.steel_rose.campaign.simulate import run

    _warm(config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    start = time.perf_counter()
    cpu = time.process_time()
    results = run(args.games, 5, args.seed, config=config)
    elapsed = time.perf_counter() - start
    used = time.process_time() - cpu
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; {args.games} games, "
          f"seed {args.seed!r}, options {json.dumps(config, ensure_ascii=False) or '{}'}; "
          f"{elapsed / args.games:.1f} s a game ({used / args.games:.1f} s CPU), load average {load:.1f} → {after:.1f}")
    print()
    print(markdown(results))


if __name__ == "__main__":
    main()
