"""Balance sweeps: every faction's template army against every other's, for a gold budget.

Armies are bought from the templates of ``data/templates.toml`` (documented there and in
docs/sim.md). Each cell of the matrix (row faction attacks, column faction defends) is ``n``
battles under the seed ``"<seed>/<row>/<column>"``; a cell's battles can be split into any
number of work items (threads, progress blocks, Ray tasks) and its totals stay bit-identical.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from voevoda.core.errors import DataError
from voevoda.core.rulesdata import read_toml
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.model import MANOEUVRES, Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim.batch import run
from voevoda.sim.compile import Scenario, compile_battle
from voevoda.sim.odds import wilson

TEMPLATES = Path(__file__).parent / "data" / "templates.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SquadTemplate(_Strict):
    position: str
    gold: float = Field(gt=0)
    units: dict[str, float] = Field(default_factory=dict)
    fixed: dict[str, int] = Field(default_factory=dict)


class PlanEntry(_Strict):
    squad: str
    kind: str
    targets: list[str] = Field(default_factory=list)


class ArmyTemplate(_Strict):
    squads: list[SquadTemplate] = Field(min_length=1)
    plan: list[PlanEntry] = Field(default_factory=list)


def load_templates(rules: Rules, path: Path | None = None) -> dict[str, ArmyTemplate]:
    """Read and check the templates: known factions, positions, manoeuvres and units that the
    faction can hire for gold."""
    path = path or TEMPLATES
    raw = read_toml(path)
    out: dict[str, ArmyTemplate] = {}
    for fid, body in raw.items():
        where = f"{path}: [{fid}]"
        if fid not in rules.factions:
            raise DataError(f"{where}: unknown faction (known: {', '.join(rules.factions)})")
        try:
            tpl = ArmyTemplate.model_validate(body)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise DataError(f"{where}.{loc}: {err['msg']}") from exc
        seen: set[str] = set()
        for i, sq in enumerate(tpl.squads):
            at = f"{where}.squads[{i}]"
            if sq.position not in fld.POSITIONS:
                raise DataError(f"{at}.position: unknown position '{sq.position}' (known: {', '.join(fld.POSITIONS)})")
            if sq.position in seen:
                raise DataError(f"{at}.position: two squads at '{sq.position}'")
            seen.add(sq.position)
            for group in ("units", "fixed"):
                for uid in getattr(sq, group):
                    unit = rules.units.get(uid)
                    if unit is None:
                        raise DataError(f"{at}.{group}.{uid}: unknown unit")
                    if unit.faction != fid:
                        raise DataError(f"{at}.{group}.{uid}: a unit of '{unit.faction}', not of '{fid}'")
                    if not unit.purchasable or unit.gold <= 0:
                        raise DataError(f"{at}.{group}.{uid}: cannot be hired for gold")
            if not sq.units and not sq.fixed:
                raise DataError(f"{at}: no units")
        for rank in fld.FLANKS:
            if f"{rank}.rearguard" in seen and f"{rank}.vanguard" not in seen:
                raise DataError(f"{where}: a rearguard on the {rank} flank without a vanguard")
        for i, m in enumerate(tpl.plan):
            at = f"{where}.plan[{i}]"
            if m.squad not in seen:
                raise DataError(f"{at}.squad: no squad at '{m.squad}'")
            if m.kind not in MANOEUVRES:
                raise DataError(f"{at}.kind: unknown manoeuvre '{m.kind}' (known: {', '.join(MANOEUVRES)})")
            for p in m.targets:
                if p not in fld.POSITIONS:
                    raise DataError(f"{at}.targets: unknown position '{p}'")
        out[fid] = tpl
    return out


PriceOf = Callable[[str], float]
"""The price of one unit of a type (``voevoda balance --prices``)."""


def build_army(rules: Rules, faction: str, template: ArmyTemplate, budget: float,
               name: str | None = None, price: PriceOf | None = None, overhead: float = 0.0) -> SideInput:
    """The army ``template`` buys for ``budget`` gold (see data/templates.toml): each unit at
    ``price`` (default: its gold price), after ``overhead`` (what its unlocks cost) is paid."""
    if budget <= 0:
        raise DataError("budget: expected a positive amount of gold")
    cost: PriceOf = price or (lambda uid: float(rules.units[uid].gold))
    total_weight = sum(sq.gold for sq in template.squads)
    counts: list[dict[str, int]] = []
    left = float(budget) - overhead
    shares: list[float] = []
    for sq in template.squads:
        fixed = {uid: n for uid, n in sq.fixed.items() if n > 0}
        counts.append(dict(fixed))
        left -= sum(cost(uid) * n for uid, n in fixed.items())
        shares.append(sq.gold / total_weight)
    if left < 0:
        raise DataError(f"budget: {budget} gold does not pay for the fixed units and unlocks of '{faction}'")
    pool = left
    for sq, share, bought in zip(template.squads, shares, counts, strict=True):
        weight = sum(sq.units.values())
        for uid, w in sq.units.items():
            gold = pool * share * (w / weight) if weight else 0.0
            n = int(math.floor(gold / cost(uid) + 1e-9))
            if n:
                bought[uid] = bought.get(uid, 0) + n
                left -= n * cost(uid)
    progress = True
    while progress:
        progress = False
        for sq, bought in zip(template.squads, counts, strict=True):
            for uid in sq.units:
                one = cost(uid)
                if one <= left + 1e-9:
                    bought[uid] = bought.get(uid, 0) + 1
                    left -= one
                    progress = True
    squads = tuple(SquadInput(sq.position, {u: n for u, n in bought.items() if n})
                   for sq, bought in zip(template.squads, counts, strict=True) if any(bought.values()))
    present = {s.position for s in squads}
    plan = tuple(Manoeuvre(m.squad, m.kind, tuple(m.targets)) for m in template.plan if m.squad in present)
    return SideInput(name or rules.factions[faction].name_en, faction, squads, plan)  # type: ignore[index]


@dataclass(frozen=True)
class Cell:
    """One matchup: ``row`` attacks ``col``."""

    row: str
    col: str
    n: int
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)


@dataclass(frozen=True)
class WorkItem:
    """Battles ``first .. first + count - 1`` of one cell."""

    row: str
    col: str
    first: int
    count: int


@dataclass
class Sweep:
    """A prepared balance sweep: the armies and the matchups."""

    rules: Rules
    factions: list[str]
    budget: float
    n: int
    seed: str
    armies: dict[str, SideInput]
    scenarios: dict[tuple[str, str], Scenario] = field(default_factory=dict)
    prices: str = "gold"
    overheads: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per faction, the buildings its army's units need and what they cost (``prices="real"``)."""

    def cell_seed(self, row: str, col: str) -> str:
        return f"{self.seed}/{row}/{col}"

    def scenario(self, row: str, col: str) -> Scenario:
        key = (row, col)
        if key not in self.scenarios:
            attacker = self.armies[row]
            defender = self.armies[col]
            self.scenarios[key] = compile_battle(self.rules, (attacker, defender))
        return self.scenarios[key]

    def cells(self) -> list[tuple[str, str]]:
        return [(r, c) for r in self.factions for c in self.factions]


def prepare(rules: Rules, budget: float, n: int, seed: str, factions: list[str] | None = None,
            templates: Mapping[str, ArmyTemplate] | None = None, prices: str = "gold",
            house_rules: Mapping[str, Any] | None = None) -> Sweep:
    """The armies of a sweep. ``prices="gold"``: units at their gold price; ``"real"``: as the
    campaign prices them (gold plus the faction's own resource at its exchange value, the hunger
    and powder they cost, after the buildings that unlock them: campaign/pricing.py)."""
    if prices not in ("gold", "real"):
        raise DataError(f"prices: expected gold or real, got {prices!r}")
    templates = templates if templates is not None else load_templates(rules)
    chosen = factions or [f for f in rules.factions if f in templates]
    for f in chosen:
        if f not in templates:
            raise DataError(f"factions: no army template for '{f}' (templates: {', '.join(templates)})")
    if n < 1:
        raise DataError("n: expected at least 1 battle per matchup")
    overheads: dict[str, dict[str, float]] = {}
    if prices == "gold":
        armies = {f: build_army(rules, f, templates[f], budget) for f in chosen}
    else:
        from voevoda.rulesets.steel_rose.campaign.data import load_campaign
        from voevoda.rulesets.steel_rose.campaign.pricing import Pricing

        pricing = Pricing(load_campaign(house_rules))
        armies = {}
        for f in chosen:
            armies[f], overheads[f] = real_army(rules, f, templates[f], budget, pricing)
    return Sweep(rules, chosen, budget, n, seed, armies, prices=prices, overheads=overheads)


def _restricted(template: ArmyTemplate, allowed: Callable[[str], bool]) -> ArmyTemplate:
    """The template without the units ``allowed`` refuses; a squad left with none goes, and its
    share of the budget with it (the shares are weights)."""
    squads = []
    for sq in template.squads:
        units = {u: w for u, w in sq.units.items() if allowed(u)}
        if units or sq.fixed:
            squads.append(sq.model_copy(update={"units": units}))
    kept = {sq.position for sq in squads}
    return template.model_copy(update={"squads": squads, "plan": [m for m in template.plan if m.squad in kept]})


def real_army(rules: Rules, faction: str, template: ArmyTemplate, budget: float,
              pricing: Any) -> tuple[SideInput, dict[str, float]]:
    """The army ``template`` buys for ``budget`` on the campaign's prices, with the buildings that
    unlock the units it *buys* paid first (campaign/pricing.py, ruling C50) — never a building for
    a unit it does not field. From every building the template's units need: buy, then keep only
    the buildings of the units bought and buy again without the units left unlocked (their share
    goes to the others), until the two agree; a budget that cannot pay for the buildings drops the
    dearest one not needed by a fixed unit (a hero, a cannon) and its units."""
    price = functools.partial(pricing.unit, faction)
    fixed = [u for sq in template.squads for u in sq.fixed]
    locked = set(pricing.unlocks(faction, fixed))
    needed = pricing.unlocks(faction, [u for sq in template.squads for u in (*sq.units, *sq.fixed)])
    while True:
        def allowed(uid: str, paid: frozenset[str] = frozenset(needed)) -> bool:
            options = pricing.campaign.unlocked_by.get(faction, {}).get(uid)
            return not options or bool(paid.intersection(options))

        try:
            army = build_army(rules, faction, _restricted(template, allowed), budget, price=price,
                              overhead=sum(needed.values()))
        except DataError:
            droppable = [b for b in needed if b not in locked]
            if not droppable:
                raise
            dearest = max(droppable, key=lambda b: (needed[b], b))
            needed = {b: v for b, v in needed.items() if b != dearest}
            continue
        bought = [u for sq in army.squads for u, n in sq.units.items() if n]
        paid = pricing.unlocks(faction, bought)
        if set(paid) == set(needed):
            return army, needed
        needed = paid


def run_item(sweep: Sweep, item: WorkItem) -> tuple[int, int, int]:
    """Wins of the row side, of the column side, and draws, over one work item."""
    batch = run(sweep.scenario(item.row, item.col), item.count, sweep.cell_seed(item.row, item.col),
                first=item.first)
    w = batch.winner
    return int(np.count_nonzero(w == 0)), int(np.count_nonzero(w == 1)), int(np.count_nonzero(w == -1))


def split(sweep: Sweep, per_item: dict[tuple[str, str], int]) -> list[WorkItem]:
    """Each cell's battles cut into work items of ``per_item[cell]`` battles."""
    items = []
    for row, col in sweep.cells():
        size = max(1, per_item.get((row, col), sweep.n))
        first = 0
        while first < sweep.n:
            count = min(size, sweep.n - first)
            items.append(WorkItem(row, col, first, count))
            first += count
    return items


def collect(sweep: Sweep, results: list[tuple[WorkItem, tuple[int, int, int]]]) -> list[Cell]:
    totals: dict[tuple[str, str], list[int]] = {c: [0, 0, 0] for c in sweep.cells()}
    for item, (won, lost, drawn) in results:
        t = totals[(item.row, item.col)]
        t[0] += won
        t[1] += lost
        t[2] += drawn
    return [Cell(r, c, sweep.n, *totals[(r, c)]) for r, c in sweep.cells()]


def run_local(sweep: Sweep, progress: Callable[[int], None] | None = None, block: int = 500) -> list[Cell]:
    """The sweep in this process (the kernel's threads share each block)."""
    items = split(sweep, {c: block for c in sweep.cells()})
    results = []
    for item in items:
        results.append((item, run_item(sweep, item)))
        if progress is not None:
            progress(item.count)
    return collect(sweep, results)


def battles_per_second(sweep: Sweep, row: str, col: str, pilot: int = 64) -> float:
    """A quick timing of one cell (the first ``pilot`` battles; the result is thrown away)."""
    scenario = sweep.scenario(row, col)
    run(scenario, 1, "pilot")  # compile / load the kernel first
    start = time.perf_counter()
    run(scenario, pilot, "pilot")
    elapsed = max(time.perf_counter() - start, 1e-6)
    return pilot / elapsed


def run_ray(sweep: Sweep, address: str | None = None, min_task_seconds: float = 1.0,
            progress: Callable[[int], None] | None = None) -> list[Cell]:
    """The sweep as Ray tasks of at least ``min_task_seconds`` of work each (estimated from a
    pilot run of each cell here); totals are identical to :func:`run_local`."""
    try:
        import ray
    except ImportError as exc:
        raise DataError("the ray backend needs Ray: pip install 'voevoda[ray]' "
                        "/ для --backend ray нужен Ray: pip install 'voevoda[ray]'") from exc
    per_item = {}
    for row, col in sweep.cells():
        rate = battles_per_second(sweep, row, col)
        per_item[(row, col)] = max(1, int(math.ceil(rate * min_task_seconds)))
    items = split(sweep, per_item)
    started = False
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(_ray_task)
        payload = ray.put(_payload(sweep))
        pending = {remote.remote(payload, item.row, item.col, item.first, item.count): item for item in items}
        results = []
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                item = pending.pop(ref)
                results.append((item, tuple(ray.get(ref))))
                if progress is not None:
                    progress(item.count)
    finally:
        if started:
            ray.shutdown()
    return collect(sweep, results)


def _payload(sweep: Sweep) -> dict[str, Any]:
    return {"house": sweep.rules.model.model_dump(), "factions": sweep.factions, "budget": sweep.budget,
            "n": sweep.n, "seed": sweep.seed,
            "armies": {f: a.to_json() for f, a in sweep.armies.items()}}


def _ray_task(payload: dict[str, Any], row: str, col: str, first: int, count: int) -> tuple[int, int, int]:
    from voevoda.rulesets.steel_rose.rules import Rules, RulesModel

    rules = Rules(RulesModel.model_validate(payload["house"]))
    armies = {f: SideInput.from_json(a) for f, a in payload["armies"].items()}
    sweep = Sweep(rules, payload["factions"], payload["budget"], payload["n"], payload["seed"], armies)
    return run_item(sweep, WorkItem(row, col, first, count))


# --------------------------------------------------------------------------- outputs

def to_csv(sweep: Sweep, cells: list[Cell]) -> str:
    lines = ["attacker,defender,budget,battles,attacker_wins,defender_wins,draws,win_rate,low95,high95"]
    for c in cells:
        lo, hi = c.interval
        lines.append(f"{c.row},{c.col},{sweep.budget:g},{c.n},{c.wins},{c.losses},{c.draws},"
                     f"{c.win_rate:.6f},{lo:.6f},{hi:.6f}")
    return "\n".join(lines) + "\n"


def _colour(p: float) -> str:
    """Red (the row loses) through white to blue (the row wins)."""
    p = min(1.0, max(0.0, p))
    if p < 0.5:
        t = p / 0.5
        r, g, b = 214, int(96 + (255 - 96) * t), int(77 + (255 - 77) * t)
    else:
        t = (p - 0.5) / 0.5
        r, g, b = int(255 - (255 - 69) * t), int(255 - (255 - 117) * t), int(255 - (255 - 180) * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def to_svg(sweep: Sweep, cells: list[Cell], lang: str = "en") -> str:
    """A heatmap: the row faction's win rate against the column faction, with the 95% interval."""
    names = {f: (sweep.rules.factions[f].name_ru if lang == "ru" else sweep.rules.factions[f].name_en)  # type: ignore[index]
             for f in sweep.factions}
    size, left, top = 110, 200, 90
    k = len(sweep.factions)
    width, height = left + k * size + 20, top + k * size + 60
    title = (f"Доля побед атакующего (строка) — бюджет {sweep.budget:g} золота, {sweep.n} битв на клетку"
             if lang == "ru" else
             f"Attacker (row) win rate — budget {sweep.budget:g} gold, {sweep.n} battles per cell")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<text x="10" y="22" font-size="14">{_esc(title)}</text>']
    for j, f in enumerate(sweep.factions):
        # one word a line, the last line just above the column, so that long names never overlap
        words = names[f].split()
        for line, word in enumerate(words):
            y = top - 10 - 14 * (len(words) - 1 - line)
            out.append(f'<text x="{left + j * size + size / 2}" y="{y}" text-anchor="middle">{_esc(word)}</text>')
    for i, f in enumerate(sweep.factions):
        out.append(f'<text x="{left - 8}" y="{top + i * size + size / 2}" text-anchor="end">{_esc(names[f])}</text>')
    by = {(c.row, c.col): c for c in cells}
    for i, r in enumerate(sweep.factions):
        for j, c in enumerate(sweep.factions):
            cell = by[(r, c)]
            lo, hi = cell.interval
            x, y = left + j * size, top + i * size
            out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{_colour(cell.win_rate)}" '
                       f'stroke="#555"><title>{_esc(names[r])} — {_esc(names[c])}: {cell.wins}/{cell.n}</title></rect>')
            out.append(f'<text x="{x + size / 2}" y="{y + size / 2 - 4}" text-anchor="middle" '
                       f'font-size="16">{cell.win_rate:.0%}</text>')
            out.append(f'<text x="{x + size / 2}" y="{y + size / 2 + 16}" text-anchor="middle" '
                       f'font-size="10">{lo:.0%}–{hi:.0%}</text>')
    note = "в скобках: 95% интервал Уилсона" if lang == "ru" else "below: Wilson 95% interval"
    out.append(f'<text x="10" y="{height - 20}">{_esc(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
