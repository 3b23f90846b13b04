"""What ``voevoda show`` prints for a Steel Rose battle: the viewer's view as a person reads it
(``--json`` gives the view itself).

The phase and what it asks, then each side as the viewer may see it — its role, faction, army and
powder (a side's own; the enemy's once the battle is fought) —, the deployments (the enemy's once
both have deployed), the plans once the battle is fought, and the result: who won, in how many
rounds, what each side lost and kept. Labels in both languages, the game's words in Russian, as
the campaign's summary writes them; built from the view alone, like every output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.core.words import Names
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre
from voevoda.rulesets.steel_rose.battle.words import manoeuvre_text, squad_line, units_text
from voevoda.rulesets.steel_rose.rules import Rules

PHASES = {"deployment": "расстановка / deployment", "planning": "планирование / planning",
          "done": "битва окончена / the battle is over"}
ROLES = {"attacker": "нападающая сторона / attacker", "defender": "обороняющаяся сторона / defender"}


def summary(view: Mapping[str, Any], viewer: Viewer, rules: Rules, names: Names) -> str:
    phase = str(view.get("phase"))
    players = [str(p) for p in view.get("players", [])]
    lines = [f"Война Стальной Розы, битва / War of the Steel Rose, a battle — фаза / phase: {PHASES.get(phase, phase)}"]
    if viewer not in (GM, PUBLIC) and viewer in players and phase != "done":
        lines.append("Ждём от вас / asked of you: " + ("расстановку / your deployment" if phase == "deployment"
                                                       else "план манёвров / your plan of manoeuvres"))
    lines.append("")
    lines.append("Стороны / sides:")
    for player in players:
        lines.extend(_side(view, player, rules))
    lines.append("")
    lines.append("Расстановка / deployment:")
    deployments: Mapping[str, Any] = view.get("deployments") or {}
    for player in players:
        dep = deployments.get(player)
        if dep is None:
            hidden = ("ещё не рассчитана / not yet resolved" if player == viewer or viewer == GM
                      else "скрыта, пока обе стороны не расставят войска / hidden until both sides have deployed")
            lines.append(f"  {player}: {hidden}")
            continue
        lines.append(f"  {player}:")
        lines.extend(f"    {squad_line(rules, str(s['position']), dict(s['units']))}" for s in dep.get("squads", []))
        if dep.get("gunpowder") is not None:
            lines.append(f"    порох / gunpowder: {dep['gunpowder']}")
    plans: Mapping[str, Any] = view.get("plans") or {}
    if plans:
        lines.append("")
        lines.append("Планы / plans:")
        for player in players:
            plan = plans.get(player)
            if plan is None:
                continue
            told = [manoeuvre_text(Manoeuvre.from_json(dict(m))) for m in plan.get("manoeuvres", [])]
            if plan.get("skip") or not told:
                lines.append(f"  {player}: без манёвров / no manoeuvres")
                continue
            lines.append(f"  {player}:")
            lines.extend(f"    {line}" for line in told)
    result = view.get("result")
    if result:
        lines.append("")
        lines.extend(_result(result, rules, names))
    return "\n".join(lines)


def _side(view: Mapping[str, Any], player: str, rules: Rules) -> list[str]:
    side: Mapping[str, Any] = (view.get("sides") or {}).get(player) or {}
    head = f"  {player} — {ROLES.get(str(side.get('role')), str(side.get('role')))}"
    faction = side.get("faction")
    if faction:
        head += f", {rules.factions[faction].name_ru}" if faction in rules.factions else f", {faction}"
    out = [head]
    garrison = side.get("garrison")
    if garrison:
        size = "большой / large" if garrison.get("large") else "малый / small"
        out.append(f"    гарнизон / garrison: город {garrison.get('level', 1)} ур. / level, {size}")
    if "army" not in side:
        out.append("    армия / army: скрыта до конца битвы / hidden until the battle is over")
        return out
    army = side.get("army")
    if army:
        out.append(f"    армия / army: {units_text(rules, dict(army))}")
    if side.get("gunpowder") is not None:
        out.append(f"    порох / gunpowder: {side['gunpowder']}")
    return out


def _result(result: Mapping[str, Any], rules: Rules, names: Names) -> list[str]:
    info: Mapping[str, Any] = result.get("summary") or {}
    winner = info.get("winner_name")
    rounds = int(info.get("rounds", 0))
    from voevoda.core.words import counted

    if winner:
        head = f"Итог / result: {names.act(str(winner), 'победил')} за {counted(rounds, 'раунд')}"
    else:
        head = f"Итог / result: ничья за {counted(rounds, 'раунд')} / a draw"
    out = [head]
    for side in info.get("sides", []):
        dead = dict(side.get("dead") or {})
        kept = dict(side.get("returning") or side.get("survivors") or {})
        out.append(f"  {side.get('name')}: погибли / lost — {units_text(rules, dead) if dead else 'никто / none'}; "
                   f"возвращаются в армию / back to the army — {units_text(rules, kept) if kept else 'никто / none'}")
    out.append("  (весь ход битвы / the whole battle: voevoda report)")
    return out
