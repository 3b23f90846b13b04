"""Whole campaigns played by the computer, and what they tell: each faction's win rate and how
its games ended (``voevoda simulate steel-rose --games N``).

Game ``i`` is an ordinary game of the engine (``Game.create`` with every seat a bot, resolved as
soon as all have posted) under the seed ``"<seed>/<i>"``, so any one of them can be played again
and read in full with ``voevoda new steel-rose --seed ...``.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda.rulesets.steel_rose.campaign.context import BOT_ODDS_BATTLES
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS

PLAYERS = ("Анна", "Борис", "Вера", "Глеб", "Дарья")
ODDS_BATTLES = BOT_ODDS_BATTLES
"""Battles the computer opponents simulate per target here (the game's option ``bot_odds_battles``)."""
STRATEGIES = ("faction",)
"""One strategy: each bot plays its faction's own plan (campaign/bots.py)."""


@dataclass
class GameResult:
    index: int
    seed: str
    turns: int
    steps: int
    ending: str
    """``midnight``, ``last_standing`` or ``unfinished`` (the step limit was reached)."""
    winners: list[str]
    factions: dict[str, dict[str, Any]] = field(default_factory=dict)


def play(index: int, seed: str, players: int = 5, config: Mapping[str, Any] | None = None,
         house_rules: Mapping[str, Any] | None = None) -> GameResult:
    from voevoda.core.engine import Game

    seats = list(PLAYERS[:players])
    text = f"{seed}/{index}"
    settings = {"bot_odds_battles": ODDS_BATTLES, **dict(config or {})}
    game = Game.create("steel-rose", f"sim-{index}", seats, bots=seats, config=settings,
                       house_rules=dict(house_rules or {}), seed=text, auto_resolve=True)
    state = game.state
    ending = str(state.get("result_reason") or "") if state["phase"] == "over" else "unfinished"
    first_lost: dict[str, int] = {}
    for step in game.steps:
        for e in step.events:
            # a city of the faction passed to another or fell to ruins, or the mobile city was
            # destroyed (a plunder leaves the city its owner's)
            lost = e.data.get("from")
            passed = e.kind in ("owner", "ruins") or (e.kind == "captured" and e.data.get("choice") == "destroyed")
            if passed and lost and e.data.get("to") != lost:
                first_lost.setdefault(str(lost), int(e.data["turn"]))
    factions = {}
    for fid, f in state["factions"].items():
        cities = sum(1 for c in state["cities"].values() if c["owner"] == fid and not c["ruins"] and not c["gone"])
        factions[fid] = {"player": f["player"], "status": f["status"], "reason": f["end_reason"],
                         "turn": f["ended_turn"], "cities": cities, "gold": f["gold"], "resource": f["resource"],
                         "first_city_lost": first_lost.get(fid, 0)}
    return GameResult(index, text, int(state["turn"]), len(game.steps), ending, list(state["winners"]), factions)


def run(games: int, players: int, seed: str, strategies: Sequence[str] = STRATEGIES, *,
        config: Mapping[str, Any] | None = None, house_rules: Mapping[str, Any] | None = None,
        tick: Callable[[int], None] | None = None) -> list[GameResult]:
    out = []
    for i in range(games):
        out.append(play(i, seed, players, config, house_rules))
        if tick is not None:
            tick(1)
    return out


REASONS = {"conditions": ("все условия", "every condition"), "destroy": ("уничтожение врага", "enemy destroyed"),
           "cities": ("города", "cities"), "resource": ("ресурс", "resource"), "gold": ("золото", "gold"),
           "hoard": ("мясо и золото", "meat and gold"), "raids": ("набеги", "raids"), "midnight": ("Полночь", "Midnight"),
           "last_standing": ("осталась одна", "last one left"), "lost_cities": ("потеря городов", "cities lost"),
           "hunger": ("голод пустоты", "void hunger")}
"""How a faction's game ended (its ``end_reason``), in the table's two languages."""


def faction_rows(results: Sequence[GameResult], lang: str = "ru") -> list[dict[str, Any]]:
    """Per faction: games seated, wins (and by which condition), losses (and how), the mean
    turn a game ended for it."""
    rows = []
    for fid in FACTIONS:
        seated = [r for r in results if r.factions[fid]["player"]]
        if not seated:
            continue
        wins = [r for r in seated if r.factions[fid]["status"] == "won"]
        ways = Counter(str(r.factions[fid]["reason"]) for r in wins)
        lost = Counter(str(r.factions[fid]["reason"]) for r in seated if r.factions[fid]["status"] == "out")
        turns = [r.factions[fid]["turn"] or r.turns for r in seated]
        rows.append({"faction": fid, "games": len(seated), "wins": len(wins), "win_rate": len(wins) / len(seated),
                     "won_by": dict(ways.most_common()), "lost_by": dict(lost.most_common()),
                     "mean_end_turn": sum(turns) / len(turns)})
    return rows


def ending_rows(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """How the games ended: at Midnight, with one faction left, or not at all."""
    counts = Counter(r.ending for r in results)
    rows = []
    for ending, n in counts.most_common():
        games = [r for r in results if r.ending == ending]
        rows.append({"ending": ending, "games": n, "share": n / len(results),
                     "mean_turns": sum(r.turns for r in games) / n, "mean_steps": sum(r.steps for r in games) / n})
    return rows


def tables(results: Sequence[GameResult], lang: str = "ru") -> list[tuple[str, list[str], list[list[str]]]]:
    """The printed report: (title, columns, rows) per table."""
    from voevoda.core.words import number, percent

    def ways(d: Mapping[str, int]) -> str:
        return ", ".join(f"{REASONS.get(k, (k, k))[0 if lang == 'ru' else 1]} {v}" for k, v in d.items()) or "—"

    ru = lang == "ru"
    names = {fid: fid for fid in FACTIONS}
    try:
        from voevoda.rulesets.steel_rose.campaign.data import load_campaign

        campaign = load_campaign()
        names = {fid: campaign.faction(fid).name_ru if ru else campaign.faction(fid).name_en for fid in FACTIONS}
    except Exception:  # noqa: BLE001 - names only; the table stands without them
        pass
    first = [[names[r["faction"]], str(r["games"]), str(r["wins"]), percent(100 * r["win_rate"], lang),
              ways(r["won_by"]), ways(r["lost_by"]), number(r["mean_end_turn"], lang)] for r in faction_rows(results, lang)]
    endings = {"midnight": "Полночь (ход 9)" if ru else "Midnight (turn 9)",
               "last_standing": "осталась одна фракция" if ru else "one faction left",
               "unfinished": "не окончена" if ru else "unfinished"}
    second = [[endings.get(r["ending"], r["ending"]), str(r["games"]), percent(100 * r["share"], lang),
               number(r["mean_turns"], lang)] for r in ending_rows(results)]
    games = len(results)
    return [
        (f"steel-rose: {games} " + ("игр — фракции" if ru else "games — factions"),
         ["фракция", "игр", "побед", "доля побед", "победы: как", "поражения: как", "конец (ход)"] if ru else
         ["faction", "games", "wins", "win %", "won by", "lost by", "ended (turn)"], first),
        ("как кончились игры" if ru else "how the games ended",
         ["конец", "игр", "доля", "ходов в среднем"] if ru else ["ending", "games", "share", "mean turns"], second),
    ]


def summary_csv(results: Sequence[GameResult]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["faction", "games", "wins", "win_rate", "won_by", "lost_by", "mean_end_turn"])
    for r in faction_rows(results, "en"):
        writer.writerow([r["faction"], r["games"], r["wins"], f"{r['win_rate']:.4f}",
                         ";".join(f"{k}={v}" for k, v in r["won_by"].items()),
                         ";".join(f"{k}={v}" for k, v in r["lost_by"].items()), f"{r['mean_end_turn']:.2f}"])
    return buf.getvalue()


def seats_csv(results: Sequence[GameResult]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["game", "seed", "ending", "turns", "faction", "player", "status", "reason", "ended_turn",
                     "cities", "gold", "resource"])
    for r in results:
        for fid, f in r.factions.items():
            writer.writerow([r.index, r.seed, r.ending, r.turns, fid, f["player"] or "", f["status"], f["reason"],
                             f["turn"], f["cities"], f["gold"], f["resource"]])
    return buf.getvalue()


def chart_svg(results: Sequence[GameResult], lang: str = "ru") -> str:
    """Win rate per faction, a bar each."""
    from html import escape

    rows = faction_rows(results, "en")
    width, bar = 520, 28
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{40 + bar * len(rows) + 20}" '
           'font-family="DejaVu Sans, sans-serif">', '<rect width="100%" height="100%" fill="#fbf8f0"/>',
           f'<text x="10" y="22" font-size="14" font-weight="bold">steel-rose: win rate ({len(results)} games)</text>']
    for i, r in enumerate(rows):
        y = 36 + i * bar
        w = 300 * r["win_rate"]
        out.append(f'<text x="10" y="{y + 17}" font-size="12">{escape(r["faction"])}</text>')
        out.append(f'<rect x="110" y="{y + 4}" width="{w:.1f}" height="{bar - 8}" fill="#7d3c98"/>')
        out.append(f'<text x="{116 + w:.1f}" y="{y + 17}" font-size="12">{100 * r["win_rate"]:.1f}%</text>')
    out.append("</svg>")
    return "\n".join(out)
