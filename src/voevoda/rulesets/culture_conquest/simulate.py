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


STRATEGY_NAMES = {"builder": ("строитель", "builder"), "warmonger": ("завоеватель", "warmonger")}


def group_name(key: str, by: str, lang: str = "ru", tables: Tables | None = None) -> str:
    """A strategy's or a culture's name in ``lang`` («строитель», «Египетская»)."""
    if by == "strategy":
        names = STRATEGY_NAMES.get(key)
        return names[0 if lang == "ru" else 1] if names else key
    return (tables or load_tables()).name(key, lang)


def chart_svg(results: Sequence[GameResult], lang: str = "ru", title: str | None = None) -> str:
    """Three panels: a histogram of victory points per strategy, each strategy's spread
    (p10-p90 box, median bar, mean diamond, min-max whisker) and each culture's win rate, with
    every word in ``lang`` and numbers written as that language writes them."""
    from voevoda.core.words import counted, number, percent

    ru = lang == "ru"
    tables = load_tables()
    title = title or ("Культура и Завоевание" if ru else "Culture & Conquest")
    strat = sorted(summarize(results, "strategy"), key=lambda g: g.key)
    cult = sorted(summarize(results, "culture"), key=lambda g: g.key)
    colours = ["#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2"]
    width, row_h, x0 = 760, 22, 190
    span = width - x0 - 40
    vmax = max((max(g.vps) for g in strat), default=1) or 1
    vmin = min(0, min((min(g.vps) for g in strat), default=0))
    bins = 20
    step = max(1.0, (vmax - vmin) / bins)
    counts = {g.key: [0] * bins for g in strat}
    for g in strat:
        for v in g.vps:
            counts[g.key][min(bins - 1, int((v - vmin) / step))] += 1
    tallest = max((max(c) for c in counts.values()), default=1) or 1
    hist_top, hist_h = 60, 160
    box_top = hist_top + hist_h + 60
    cult_top = box_top + row_h * len(strat) + 60
    height = cult_top + row_h * len(cult) + 20

    def x(v: float) -> float:
        return x0 + span * (v - vmin) / (vmax - vmin or 1)

    def pct(rate: float) -> str:
        return percent(100 * rate, lang, digits=0)

    games = counted(len(results), "партия") if ru else counted(len(results), "game", "en")
    seats = (counted(sum(len(r.seats) for r in results), "место") if ru
             else counted(sum(len(r.seats) for r in results), "seat", "en"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="22" font-size="16" font-weight="bold">{escape(title)}: {games}, {seats}</text>',
           f'<text x="10" y="{hist_top - 14}" font-weight="bold">'
           + escape("Победные очки по стратегиям: сколько мест набрали столько очков" if ru
                    else "Victory points: how many seats scored each range") + "</text>"]
    bar_w = span / bins / max(1, len(strat))
    for k, g in enumerate(strat):
        colour = colours[k % len(colours)]
        name = group_name(g.key, "strategy", lang, tables)
        for b, n in enumerate(counts[g.key]):
            if not n:
                continue
            h = hist_h * n / tallest
            bx = x0 + span * b / bins + k * bar_w
            low, high = number(vmin + b * step, lang, digits=0), number(vmin + (b + 1) * step, lang, digits=0)
            tip = (f"{name}: {counted(n, 'место')} с {low}–{high} ПО" if ru
                   else f"{name}: {counted(n, 'seat', 'en')} with {low}-{high} VP")
            out.append(f'<rect x="{bx:.1f}" y="{hist_top + hist_h - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
                       f'fill="{colour}"><title>{escape(tip)}</title></rect>')
        out.append(f'<rect x="10" y="{hist_top + 4 + k * 18}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="28" y="{hist_top + 14 + k * 18}">{escape(name)}</text>')
    out.append(f'<line x1="{x0}" y1="{hist_top + hist_h}" x2="{x0 + span}" y2="{hist_top + hist_h}" stroke="#333"/>')
    out.append(f'<text x="{x0 - 6}" y="{hist_top + 10}" text-anchor="end" fill="#555">{tallest}</text>')
    for k in range(6):
        tick = vmin + (vmax - vmin) * k / 5
        out.append(f'<text x="{x(tick):.1f}" y="{hist_top + hist_h + 14}" text-anchor="middle" '
                   f'fill="#555">{number(tick, lang, digits=0)}</text>')
    out.append(f'<text x="10" y="{box_top - 28}" font-weight="bold">'
               + escape("Разброс очков по стратегиям" if ru else "Spread by strategy") + "</text>")
    out.append(f'<text x="10" y="{box_top - 12}" font-size="11" fill="#555">'
               + escape("прямоугольник — от p10 до p90, черта — медиана, ◆ — среднее, линия — от минимума "
                        "до максимума" if ru else
                        "box p10 to p90, bar the median, ◆ the mean, line min to max") + "</text>")
    for k, g in enumerate(strat):
        row = g.row()
        y = box_top + k * row_h
        colour = colours[k % len(colours)]
        label = (f"{group_name(g.key, 'strategy', lang, tables)} ({pct(row['win_rate'])} "
                 f"{'побед' if ru else 'wins'})")
        out.append(f'<text x="10" y="{y + 15}">{escape(label)}</text>')
        out.append(f'<line x1="{x(row["min_vp"]):.1f}" y1="{y + 11}" x2="{x(row["max_vp"]):.1f}" y2="{y + 11}" '
                   f'stroke="#999"/>')
        out.append(f'<rect x="{x(row["p10_vp"]):.1f}" y="{y + 3}" '
                   f'width="{max(1.0, x(row["p90_vp"]) - x(row["p10_vp"])):.1f}" height="16" fill="{colour}" '
                   f'opacity="0.6"/>')
        out.append(f'<line x1="{x(row["median_vp"]):.1f}" y1="{y + 2}" x2="{x(row["median_vp"]):.1f}" '
                   f'y2="{y + 20}" stroke="black" stroke-width="2"/>')
        out.append(f'<text x="{x(row["mean_vp"]) - 4:.1f}" y="{y + 15}">◆</text>')
    out.append(f'<text x="10" y="{cult_top - 14}" font-weight="bold">'
               + escape("Доля побед по культурам (в скобках — мест)" if ru else "Win rate by culture (seats)")
               + "</text>")
    for k, g in enumerate(cult):
        y = cult_top + k * row_h
        rate = g.wins / g.seats
        out.append(f'<text x="10" y="{y + 15}">{escape(group_name(g.key, "culture", lang, tables))} ({g.seats})</text>')
        out.append(f'<rect x="{x0}" y="{y + 3}" width="{span * rate:.1f}" height="16" fill="#4e79a7"/>')
        out.append(f'<text x="{x0 + span * rate + 4:.1f}" y="{y + 15}">{pct(rate)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
