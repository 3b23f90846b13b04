"""What ``voevoda show`` prints for a Steel Rose campaign: the viewer's view as a person reads it
(``--json`` gives the view itself).

A faction's player first reads his own faction: treasury and unique resource, units, the armies
of the turn, cities with their buildings and standing garrison placements, the victory conditions
with their progress, alliance offers, corruption known, and his battles with the enemy's
deployment once it is known; then, for everyone, the factions, alliances, the turn's battles and
the map. Labels are in both languages, names in Russian as the posts write them. Built from the
view alone, like every output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.rulesets.steel_rose.battle.words import squad_line
from voevoda.rulesets.steel_rose.campaign.data import FACTIONS, Campaign
from voevoda.rulesets.steel_rose.campaign.report import Words, city_accusative

PHASES = {"orders": "приказы / orders", "deployment": "расстановка / deployment", "planning": "планирование / planning",
          "capture": "выбор после захвата / capture choices", "over": "игра окончена / game over"}
STATUS = {"playing": "играет / playing", "won": "победила / won", "out": "выбыла / out", "idle": "без игрока / idle"}
ACTIONS = {"attack": "атака / attack", "defend": "оборона / defend", "disperse": "рассредоточиться / disperse",
           "teleport": "телепортация / teleport"}
KINDS = {"small": "малый / small", "large": "большой / large", "mobile": "передвижной / mobile"}


def summary(campaign: Campaign, view: Mapping[str, Any], viewer: Viewer) -> str:
    w = Words(campaign, "ru")
    turn = int(view["turn"])
    epoch = campaign.epoch(turn)
    lines = [f"Война Стальной Розы / War of the Steel Rose — ход / turn {turn}, {epoch.name_ru} / {epoch.name_en}; "
             f"фаза / phase: {PHASES.get(str(view.get('phase')), str(view.get('phase')))}",
             f"армий в ход / armies a turn: {view.get('max_armies') or '∞'}; уровень городов до / city levels up to: "
             f"{view.get('max_level')}"]
    if view.get("winners"):
        lines.append("победители / winners: " + ", ".join(w.faction(f) for f in view["winners"]))
    fid = view.get("me")
    if fid and viewer not in (PUBLIC, GM):
        lines.append("")
        lines.extend(_own(campaign, w, view, str(fid)))
    lines.append("")
    lines.append("Фракции / factions:")
    for f in FACTIONS:
        data = (view.get("factions") or {}).get(f)
        if data is None:
            continue
        lines.append(f"  {w.faction(f)} — {data.get('player') or '—'}, {STATUS.get(data['status'], data['status'])}, "
                     f"городов / cities: {data.get('cities', 0)}")
    alliances = view.get("alliances") or []
    lines.append("Союзы / alliances: " + ("; ".join(f"{w.faction(a)} — {w.faction(b)}" for a, b in alliances)
                                          if alliances else "нет / none"))
    battles = view.get("battles") or []
    if battles:
        lines.append("Битвы прошлого хода / last turn's battles:" if _past(view) else "Битвы хода / battles of the turn:")
        for b in battles:
            outcome = {"attacker": "город взят / taken", "defender": "город отбился / held",
                       "none": "ничья / a draw"}.get(str(b.get("winner")), "")
            state = outcome if b.get("status") == "fought" else {"pending": "впереди / to come",
                                                                  "walkover": "без боя / no fight",
                                                                  "called_off": "не состоялась / called off"}.get(
                str(b.get("status")), str(b.get("status")))
            defender = w.faction_in(b.get("defender"), "gent") if b.get("defender") else "—"
            lines.append(f"  битва за {city_accusative(w.city(b['city']))}: {w.faction(b['attacker'])} против "
                         f"{defender} — {state}")
    lines.append("Карта / map:")
    for cid, c in (view.get("cities") or {}).items():
        if c.get("gone"):
            continue
        marks = [KINDS.get(str(c["kind"]), str(c["kind"])),
                 "руины / ruins" if c.get("ruins") else f"{c['level']} ур. / lvl"]
        if c.get("floating"):
            marks.append("парит в небе / floating")
        if c["kind"] == "mobile" and c.get("road"):
            marks.append("на дороге / on the road " + " — ".join(w.city(x) for x in c["road"]))
        lines.append(f"  {w.city(cid)}: {w.faction(c.get('owner')) if c.get('owner') else '—'}; " + ", ".join(marks))
    return "\n".join(lines)


def _past(view: Mapping[str, Any]) -> bool:
    """In a turn's orders step the armies and battles in the view are the previous turn's."""
    return view.get("phase") == "orders" and int(view.get("turn", 1)) > 1


def _own(campaign: Campaign, w: Words, view: Mapping[str, Any], fid: str) -> list[str]:
    own = view.get("own") or {}
    f = campaign.faction(fid)
    player = (view.get("factions") or {}).get(fid, {}).get("player")
    lines = [f"{w.faction(fid)} ({player})" if player else w.faction(fid)]
    resource = f"{f.resource_ru} / {f.resource_en}: {w.amount(float(own.get('resource', 0)))}"
    if fid == "void_cult":
        resource += f" (предел / limit {own.get('hunger_max')})"
    lines.append(f"  золото / gold: {w.gold(float(own.get('gold', 0)))}; {resource}")
    units = {u: n for u, n in (own.get("units") or {}).items() if n}
    lines.append("  войска / units: " + (w.units(units) if units else "нет / none"))
    if own.get("gifted"):
        lines.append("  из них подарены Культом / of them gifts of the cult: " + w.units(own["gifted"]))
    for army in view.get("armies") or []:
        doing = ACTIONS.get(str(army.get("action")), str(army.get("action")))
        target = f" {w.city(army['target'])}" if army.get("target") else ""
        when = " (прошлый ход / last turn)" if _past(view) else ""
        lines.append(f"  армия / army {army['name']}{when}: {w.units(army.get('units') or {})} — {doing}{target}")
    if own.get("camp"):
        lines.append("  лагерь на дороге / camp on the road: " + " — ".join(w.city(c) for c in own["camp"]))
    cities = view.get("own_cities") or {}
    if cities:
        lines.append("  города / cities:")
        for cid, c in cities.items():
            pub = (view.get("cities") or {}).get(cid, {})
            level = "руины / ruins" if pub.get("ruins") else f"{pub.get('level')} ур. / lvl"
            buildings = ", ".join(w.building(fid, b) for b in c.get("buildings") or []) or "—"
            placed = "; гарнизон расставлен / garrison placed" if c.get("placement") else ""
            lines.append(f"    {w.city(cid)} ({KINDS.get(str(pub.get('kind')), '')}, {level}): постройки / "
                         f"buildings: {buildings}{placed}")
    goals = view.get("victory") or []
    if goals:
        every = view.get("victory_needs", "all") != "any"
        lines.append("  условия победы / victory (" + ("все сразу / all at once" if every else "любое / any one") + "):")
        for g in goals:
            have, need = w.amount(float(g["have"])), w.amount(float(g["need"]))
            what = {"destroy": f"уничтожить / destroy {w.faction(g.get('about'))}", "cities": "города / cities",
                    "resource": f"{f.resource_ru} / {f.resource_en}", "gold": "золото / gold",
                    "hoard": "мясо / meat", "raids": "набеги / raids"}.get(str(g["item"]), str(g["item"]))
            extra = f", золото / gold {g['gold_have']} / {g['gold_need']}" if g["item"] == "hoard" else ""
            lines.append(f"    {what}: {have} / {need}{extra}" + (" ✓" if g.get("met") else ""))
    for by, to in view.get("proposals") or []:
        if to == fid:
            lines.append(f"  {w.faction(by)} предлагает союз / offers an alliance")
        else:
            lines.append(f"  вы предложили союз / you offered an alliance: {w.faction(to)}")
    corruption = view.get("corruption") or {}
    if corruption:
        lines.append("  порча / corruption: " + ", ".join(f"{w.city(c)} {n}" for c, n in corruption.items()))
    for battle in view.get("my_battles") or []:
        city = battle["id"].split("/")[0]
        role = "нападение / attack" if battle.get("role") == "attacker" else "оборона / defence"
        if _past(view):
            role += ", прошлый ход / last turn"
        lines.append(f"  битва за {city_accusative(w.city(city))} ({role}):")
        for label, squads in (("ваша расстановка / yours", battle["own"].get("deployment")),
                              ("противник / the enemy", battle.get("enemy_deployment"))):
            if squads:
                lines.append(f"    {label}: " + "; ".join(squad_line(campaign.rules, s["position"], s["units"])
                                                         for s in squads))
    return lines
