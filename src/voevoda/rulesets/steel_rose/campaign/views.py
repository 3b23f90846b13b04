"""What each viewer may see: the one place the campaign's secrets are cut.

«Всем фракциям по умолчанию доступна только следующая информация: Союзы между фракциями ...
Состав и тип городов у всех фракций. Игрокам НЕдоступна следующая информация: Составы и
расположение армий противника, Постройки в городах противника, Баланс противников.»

* public: the map (every city's owner, type, size, level, ruins, floating, the mobile city's
  road), each faction's seat and standing, alliances, which city each battle of the turn is for,
  who fights it and who won, captures and their choices;
* a player: the public part, plus its own faction whole (treasury, resource, units, armies,
  buildings, standing garrison placements, its ledger, what it learnt: divinations and
  detections; the cult its camp, ruling C53), its proposals, and in its own battles its side, and the enemy's deployment once
  both have deployed. The Void Cult sees the corruption it spread; any other faction sees
  corruption only where its detection found it («Никакие фракции не знают о том, что их города
  подверглись порче, если не построят специальные постройки»);
* the game master: everything.
"""

from __future__ import annotations

import json
from typing import Any

from voevoda.core.ruleset import GM, PUBLIC
from voevoda.rulesets.steel_rose.campaign import economy as eco
from voevoda.rulesets.steel_rose.campaign import victory as vic
from voevoda.rulesets.steel_rose.campaign.context import Options
from voevoda.rulesets.steel_rose.campaign.data import Campaign
from voevoda.rulesets.steel_rose.campaign.state import Battle, CampaignState, Faction


def public_view(campaign: Campaign, state: CampaignState) -> dict[str, Any]:
    epoch = campaign.epoch(state.turn)
    return {
        "ruleset": "steel-rose",
        "turn": state.turn,
        "phase": state.phase,
        "epoch": epoch.id,
        "last_turn": campaign.last_turn,
        "max_armies": epoch.max_armies,
        "max_level": epoch.max_level,
        "players": list(state.players),
        "seats": dict(state.seats),
        "cities": {cid: {"kind": c.kind, "level": c.level, "owner": c.owner, "ruins": c.ruins, "gone": c.gone,
                         "floating": c.floating, "quest_void": c.quest_void,
                         **({"road": list(c.road)} if c.road else {})}
                   for cid, c in state.cities.items()},
        "factions": {fid: {"player": f.player, "status": f.status, "ended_turn": f.ended_turn,
                           "end_reason": f.end_reason, "destroyed_by": f.destroyed_by,
                           "cities": eco.count_cities(state, fid)}
                     for fid, f in state.factions.items()},
        "alliances": [list(p) for p in state.alliances],
        "wars": [list(p) for p in state.wars],
        "battles": [{"id": b.id, "city": b.city, "order": b.order, "attacker": b.attacker.faction,
                     "defender": b.defender.faction, "status": b.status, "winner": b.winner}
                    for b in state.battles],
        "captures": [{"city": c.city, "faction": c.faction, "done": c.done,
                      "choice": c.choice if c.done else None} for c in state.captures],
        "winners": list(state.winners),
        "result_reason": state.result_reason,
    }


def own_faction(f: Faction) -> dict[str, Any]:
    return {"gold": f.gold, "resource": f.resource, "units": dict(f.units), "gifted": dict(f.gifted),
            "hunger_max": f.hunger_max, "rituals_per_turn": f.rituals_per_turn,
            "cursed_gold_uses": f.cursed_gold_uses, "last_summoning": f.last_summoning,
            "float_streak": f.float_streak, "float_last_turn": f.float_last_turn, "raids": f.raids,
            "captured": f.captured, "demon_choice": f.demon_choice,
            "intel": [i.model_dump(mode="json") for i in f.intel],
            **({"camp": list(f.camp)} if f.camp else {}), **({"last_city": f.last_city} if f.last_city else {})}


def _battle_for(campaign: Campaign, state: CampaignState, battle: Battle, fid: str) -> dict[str, Any] | None:
    roles = [r for r in ("attacker", "defender") if getattr(battle, r).faction == fid]
    if not roles:
        return None
    role = roles[0]
    mine = getattr(battle, role)
    other = getattr(battle, "defender" if role == "attacker" else "attacker")
    out: dict[str, Any] = {"id": battle.id, "role": role, "own": mine.model_dump(mode="json")}
    both_deployed = mine.deployment is not None and other.deployment is not None
    if both_deployed:
        # «Планирование: Вы узнаёте расстановку войск противника» (not its gunpowder)
        out["enemy_deployment"] = other.deployment
    if battle.status == "fought":
        out["enemy_plan"] = other.plan
    return out


def player_view(campaign: Campaign, state: CampaignState, player: str,
                options: Options | None = None) -> dict[str, Any]:
    out = public_view(campaign, state)
    fid = state.seats.get(player)
    out["viewer"] = player
    if fid is None:
        return out
    f = state.factions[fid]
    out["me"] = fid
    out["own"] = own_faction(f)
    # the faction's own «УСЛОВИЯ ПОБЕДЫ», item by item (from its own treasury and the public map)
    opts = options or Options()
    out["victory"] = [g.to_json() for g in vic.goals(campaign, opts, state, fid)]
    out["victory_needs"] = opts.victory_conditions
    out["own_cities"] = {c.id: {"buildings": list(c.buildings), "placement": list(c.placement),
                                "idle_turn": c.idle_turn, "idle_next": c.idle_next}
                         for c in state.cities.values() if c.owner == fid}
    out["armies"] = [a.model_dump(mode="json") for a in state.armies if a.faction == fid]
    out["proposals"] = [[p.by, p.to] for p in state.proposals if fid in (p.by, p.to)]
    ledger = state.ledgers.get(fid)
    out["ledger"] = ledger.model_dump(mode="json") if ledger else None
    out["my_battles"] = [b for b in (_battle_for(campaign, state, battle, fid) for battle in state.battles) if b]
    if fid == "void_cult":
        out["corruption"] = {cid: c.corruption for cid, c in state.cities.items() if c.corruption}
    return out


def view(campaign: Campaign, state: CampaignState, viewer: str, options: Options | None = None) -> dict[str, Any]:
    if viewer == GM:
        from voevoda.rulesets.steel_rose.campaign.state import dump_state

        return {"viewer": GM, **public_view(campaign, state), "state": dump_state(state)}
    if viewer == PUBLIC:
        return {"viewer": PUBLIC, **public_view(campaign, state)}
    return player_view(campaign, state, viewer, options)


def hidden_markers(campaign: Campaign, state: CampaignState, viewer: str) -> list[str]:
    """Strings naming what ``viewer`` may not see, as they would appear in its view's JSON: other
    factions' private blocks, their cities' buildings and placements, corruption it did not
    detect, and other factions' armies."""
    if viewer == GM:
        return []
    fid = state.seats.get(viewer) if viewer != PUBLIC else None
    markers: list[str] = []
    for other, f in state.factions.items():
        if other == fid:
            continue
        if f.units:
            markers.append('"own": ' + json.dumps(own_faction(f), ensure_ascii=False))
            markers.append('"units": ' + json.dumps(dict(f.units), ensure_ascii=False))
    for city in state.cities.values():
        if city.owner != fid and city.buildings:
            markers.append(f'"{city.id}": ' + json.dumps({"buildings": list(city.buildings)}, ensure_ascii=False)[:-1])
    for army in state.armies:
        if army.faction != fid:
            markers.append('"id": ' + json.dumps(army.id, ensure_ascii=False))
    for other, f in state.factions.items():
        if other != fid and f.camp:
            # where the cult's army camps is the army's place («расположение армий противника»)
            markers.append('"camp": ' + json.dumps(list(f.camp), ensure_ascii=False))
    if fid != "void_cult":
        known = {i.about for i in state.factions[fid].intel if i.kind == "corruption"} if fid else set()
        for city in state.cities.values():
            if city.corruption and city.id not in known:
                markers.append(json.dumps({city.id: city.corruption}, ensure_ascii=False)[1:-1])
    return markers
