"""Whole computer games, fast: the phase functions of :mod:`.phases` driven directly by
the bots' structured choices (no posts written or read, no state copied, no journal).

The rules run exactly as in :meth:`CultureConquest.resolve`: :func:`.phases.answer`
checks each choice and applies it, then advances to the next choice.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from voevoda.core.dice import Dice

from .bots import STRATEGIES, decide
from .data import Tables, load_tables
from .game import Options, cut_view, score
from .phases import answer
from .setup import new_game


@dataclass
class Seat:
    player: str
    strategy: str
    culture: str
    vp: int
    rank: int
    won: bool
    parts: dict[str, int]


@dataclass
class GameResult:
    seed: str
    seats: list[Seat]
    choices: int


def play(seed: str, players: Sequence[str], strategies: Mapping[str, str], tables: Tables | None = None,
         options: Options | None = None, record: bool = False) -> tuple[GameResult, dict[str, Any], list[Any]]:
    """One game between computer players; returns its result, final state and journal."""
    tables = tables or load_tables()
    options = options or Options()
    dice = Dice.from_text(seed)
    g = new_game(players, dice, tables, options, record)
    state = g.state
    streams = {p: dice.stream(f"bot/{p}") for p in players}
    asked = 0
    while not state["finished"]:
        pending = state["pending"]
        choices = {}
        for player in pending["players"]:
            view = cut_view(state, player)
            choices[player] = decide(view, player, streams[player], tables, options,
                                     strategies.get(player, "builder"))
            asked += 1
        answer(g, choices)
    points = score(state, tables, options)
    best = max(points[p]["total"] for p in players)
    ranking = sorted(players, key=lambda p: -points[p]["total"])
    seats = [Seat(p, strategies.get(p, "builder"), state["players"][p]["culture"] or "",
                  points[p]["total"], ranking.index(p) + 1, points[p]["total"] == best,
                  {k: v for k, v in points[p].items() if k != "total"}) for p in players]
    return GameResult(seed, seats, asked), state, g.events


def run(games: int, players: int, seed: str = "voevoda", strategies: Sequence[str] = STRATEGIES,
        config: Mapping[str, Any] | None = None, house_rules: Mapping[str, Any] | None = None,
        tick: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """``games`` games of ``players`` computer players; seat ``i`` plays
    ``strategies[i % len(strategies)]``. Game ``n`` uses the seed ``"{seed}/{n}"``."""
    tables = load_tables(house_rules)
    options = Options.from_config(config or {})
    names = [f"P{i + 1}" for i in range(players)]
    seats = {name: strategies[i % len(strategies)] for i, name in enumerate(names)}
    results = []
    for n in range(games):
        result, _, _ = play(f"{seed}/{n}", names, seats, tables, options)
        results.append(result)
        if tick:
            tick(result)
    return results


# -- statistics ------------------------------------------------------------------------

@dataclass
class Group:
    key: str
    vps: list[int] = field(default_factory=list)
    wins: float = 0.0

    @property
    def seats(self) -> int:
        return len(self.vps)

    def row(self) -> dict[str, Any]:
        v = sorted(self.vps)
        q = statistics.quantiles(v, n=10, method="inclusive") if len(v) >= 2 else [v[0]] * 9
        return {"group": self.key, "seats": self.seats, "wins": round(self.wins, 3),
                "win_rate": round(self.wins / self.seats, 4), "mean_vp": round(statistics.fmean(v), 2),
                "median_vp": statistics.median(v), "p10_vp": round(q[0], 1), "p90_vp": round(q[-1], 1),
                "min_vp": v[0], "max_vp": v[-1]}


def summarize(results: Sequence[GameResult], by: str) -> list[Group]:
    """Victory points and wins grouped ``by`` ``"strategy"`` or ``"culture"``; a shared
    win counts as a fraction."""
    groups: dict[str, Group] = {}
    for result in results:
        winners = sum(1 for s in result.seats if s.won)
        for seat in result.seats:
            key = getattr(seat, by)
            group = groups.setdefault(key, Group(key))
            group.vps.append(seat.vp)
            if seat.won:
                group.wins += 1 / winners
    return sorted(groups.values(), key=lambda g: (-g.wins / g.seats, g.key))


def seats_csv(results: Sequence[GameResult]) -> str:
    """One row per seat of every game."""
    out = io.StringIO()
    parts = list(results[0].seats[0].parts) if results else []
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "seed", "player", "strategy", "culture", "vp", "rank", "won", *parts])
    for n, result in enumerate(results):
        for s in result.seats:
            writer.writerow([n, result.seed, s.player, s.strategy, s.culture, s.vp, s.rank, int(s.won),
                             *(s.parts[p] for p in parts)])
    return out.getvalue()


def summary_csv(results: Sequence[GameResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["by", "group", "seats", "wins", "win_rate", "mean_vp", "median_vp", "p10_vp", "p90_vp",
              "min_vp", "max_vp"]
    writer.writerow(header)
    for by in ("strategy", "culture"):
        for group in summarize(results, by):
            row = group.row()
            writer.writerow([by, *(row[h] for h in header[1:])])
    return out.getvalue()


def chart_svg(results: Sequence[GameResult], title: str = "Culture & Conquest") -> str:
    """Two panels: the VP distribution of each strategy (box: p10-p90, bar: median) and
    the win rate of each culture."""
    strat = summarize(results, "strategy")
    cult = sorted(summarize(results, "culture"), key=lambda g: g.key)
    width, row_h = 760, 22
    top = 50
    h1 = top + row_h * len(strat) + 40
    height = h1 + 40 + row_h * len(cult) + 40
    vmax = max((max(g.vps) for g in strat), default=1) or 1
    x0, span = 160, width - 200
    colours = ["#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="22" font-size="16" font-weight="bold">{escape(title)}: '
           f'{len(results)} games</text>',
           f'<text x="10" y="{top - 8}" font-weight="bold">Victory points by strategy '
           f'(p10–p90, median, mean ◆)</text>']
    for i, g in enumerate(strat):
        row = g.row()
        y = top + i * row_h
        colour = colours[i % len(colours)]

        def x(v: float) -> float:
            return x0 + span * v / vmax

        out.append(f'<text x="10" y="{y + 15}">{escape(g.key)} ({row["win_rate"]:.0%} wins)</text>')
        out.append(f'<line x1="{x(row["min_vp"]):.1f}" y1="{y + 11}" x2="{x(row["max_vp"]):.1f}" y2="{y + 11}" '
                   f'stroke="#999"/>')
        out.append(f'<rect x="{x(row["p10_vp"]):.1f}" y="{y + 3}" width="{max(1.0, x(row["p90_vp"]) - x(row["p10_vp"])):.1f}" '
                   f'height="16" fill="{colour}" opacity="0.6"/>')
        out.append(f'<line x1="{x(row["median_vp"]):.1f}" y1="{y + 2}" x2="{x(row["median_vp"]):.1f}" y2="{y + 20}" '
                   f'stroke="black" stroke-width="2"/>')
        out.append(f'<text x="{x(row["mean_vp"]) - 4:.1f}" y="{y + 15}">◆</text>')
    axis_y = top + row_h * len(strat) + 8
    for k in range(6):
        v = vmax * k / 5
        out.append(f'<text x="{x0 + span * k / 5:.1f}" y="{axis_y + 12}" text-anchor="middle" fill="#555">{v:.0f}</text>')
    y2 = h1 + 30
    out.append(f'<text x="10" y="{y2 - 8}" font-weight="bold">Win rate by culture</text>')
    for i, g in enumerate(cult):
        y = y2 + i * row_h
        rate = g.wins / g.seats
        out.append(f'<text x="10" y="{y + 15}">{escape(g.key)} ({g.seats})</text>')
        out.append(f'<rect x="{x0}" y="{y + 3}" width="{span * rate:.1f}" height="16" fill="#4e79a7"/>')
        out.append(f'<text x="{x0 + span * rate + 4:.1f}" y="{y + 15}">{rate:.0%}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def summary_text(results: Sequence[GameResult]) -> str:
    lines = []
    for by in ("strategy", "culture"):
        lines.append(f"By {by}:")
        lines.append(f"  {'group':<14}{'seats':>6}{'win%':>7}{'mean':>8}{'median':>8}{'p10':>7}{'p90':>7}"
                     f"{'min':>6}{'max':>6}")
        for group in summarize(results, by):
            r = group.row()
            lines.append(f"  {r['group']:<14}{r['seats']:>6}{r['win_rate']:>7.1%}{r['mean_vp']:>8.1f}"
                         f"{r['median_vp']:>8}{r['p10_vp']:>7}{r['p90_vp']:>7}{r['min_vp']:>6}{r['max_vp']:>6}")
    return "\n".join(lines) + "\n"
