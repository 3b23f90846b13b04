"""What ``voevoda show`` prints for a New Worlds game: the viewer's view as a person reads it
(``--json`` gives the view itself).

A player first reads his own country: faith, points and the roll they came from, war points,
land, cities and buildings, resources with what each gives, research, wars, treaties, deals and
the proposals he made or received; then, for everyone, the countries' table of the turn's post,
the wars, treaties and deals, the events under way and the map. Labels are in both languages,
names as the game's post gives them. Built from the view alone, like every output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.markup import Document, render
from voevoda.core.ruleset import GM, Viewer
from voevoda.core.words import counted
from voevoda.rulesets.new_worlds.report import Words, pattern_text, roll_modifiers, standings
from voevoda.rulesets.new_worlds.rules import Rules

EVENT_STATUS = {"waiting": "ещё не началось / not yet", "active": "идёт / under way", "over": "позади / over"}
LIST_CUT = 40


def _tiles(tiles: list[str]) -> str:
    if not tiles:
        return "—"
    shown = " ".join(tiles[:LIST_CUT])
    return shown + (f" … (всего / in all {len(tiles)})" if len(tiles) > LIST_CUT else "")


def summary(view: Mapping[str, Any], viewer: Viewer, rules: Rules) -> str:
    w = Words(rules, view, "ru")
    lines: list[str] = []
    epoch = w.epoch(str(view["epoch"]))
    lines.append(f"{epoch} (с хода / since turn {view['epoch_since']}), ход / turn {view['turn']}")
    if view.get("outcome"):
        out = view["outcome"]
        winners = ", ".join(w.country(c) for c in out.get("winners", [])) or "—"
        lines.append(f"игра окончена / the game is over: {out.get('reason')}; победа / winners: {winners}")
    me = view.get("you")
    if me and me in view["countries"]:
        lines.append("")
        lines.extend(_own(view, me, w))
    doc = Document("")
    standings(doc, view, w)
    table = render(doc, "text").strip().split("\n", 2)[-1]
    lines += ["", "Страны / countries:", *("  " + x for x in table.splitlines())]
    wars = [f"  {w.country(x['attacker'])} → {w.country(x['defender'])}: {w.war_type(x['attacker_type'])} против / against "
            f"{w.war_type(x['defender_type'])}" + (f", до хода / until turn {x['last_turn']}" if x.get("last_turn") else
                                                   ", до победы / until one side wins")
            for x in view["wars"]]
    # «Эвентовые захватчики» are at war with every country outside their event (ruling R25)
    sides: dict[str, list[str]] = {}
    for cid, c in view["countries"].items():
        if c.get("alive") and c.get("kind") in ("invader", "tributary"):
            sides.setdefault(str(c.get("event") or cid), []).append(w.country(cid))
    wars += [f"  {', '.join(names)}: со всеми прочими странами / with every other country" for names in sides.values()]
    lines += ["", "Войны / wars:" + ("" if wars else " —"), *wars]
    names = {"pact": "пакт / pact", "alliance": "союз / alliance", "truce": "перемирие / truce"}
    treaties = [f"  {names.get(t['kind'], t['kind'])}: {w.country(t['parties'][0])} и {w.country(t['parties'][1])}"
                + (f", до хода / until turn {t['until']}" if t.get("until") else "") for t in view["treaties"]]
    lines += ["Договоры / treaties:" + ("" if treaties else " —"), *treaties]
    deals = [f"  {w.country(d['a'])} — {w.resource(d['a_gives'])}, {w.country(d['b'])} — {w.resource(d['b_gives'])}"
             f" (с хода / since turn {d['since']})" for d in view["deals"]]
    lines += ["Сделки / deals:" + ("" if deals else " —"), *deals]
    evs = view.get("events", {})
    shown_events = []
    for key in ("sea_peoples", "khaganate", "agrarian_revolution"):
        spec = getattr(rules.events, key)
        status = str(evs.get(key, {}).get("status", "waiting"))
        shown_events.append(f"  событие «{spec.name_ru}» / {spec.name_en}: {EVENT_STATUS.get(status, status)}")
    if evs.get("fired"):
        shown_events.append(f"  события ведущего / the game master's events: {', '.join(evs['fired'])}")
    lines += ["События / events:", *shown_events]
    m = view["map"]
    closed = sum(row.count("?") for row in m["terrain"])
    free = "есть / yes" if view.get("free_land") else "нет / none"
    lines.append(f"Карта / map: «{m.get('title_ru') or m['name']}», {m['width']}×{m['height']}; свободная суша / "
                 f"free land: {free}" + (f"; закрыто клеток / closed tiles: {closed}" if closed else ""))
    if viewer == GM:
        lines.append("Ведущий видит всё: voevoda show ИГРА --as gm --json / the game master sees it all in --json")
    return "\n".join(lines)


def _own(view: Mapping[str, Any], me: str, w: Words) -> list[str]:
    c = view["countries"][me]
    kinds = _kinds(view)
    land = sorted((t for t, v in view["tiles"].items() if v.get("owner") == me and kinds.get(t) == "land"),
                  key=_order)
    dejure = sorted((t for t, v in view["tiles"].items() if v.get("owner") == me and kinds.get(t) != "land"),
                    key=_order)
    # «Города дают игрокам +1 к итогу ролла», an upgrade +1 more: the sum in the heading, a city's
    # own figure only where it was upgraded
    levels = {t: int(view["tiles"][t]["city"]) for t in land if view["tiles"][t].get("city") is not None}
    cities = [f"{t} (+{n + 1})" if n else t for t, n in levels.items()]
    city_bonus = sum(n + 1 for n in levels.values())
    buildings = [f"{w.order(str(view['tiles'][t]['building']))} {t}" for t in land if view["tiles"][t].get("building")]
    out = [f"Ваша страна / your country: {w.country(me)}" + (f" ({c['player']})" if c.get("player") != w.country(me)
                                                             else "")]
    if not c.get("alive"):
        out.append("  страны нет на карте / the country is gone" + (
            ": можно пересоздаться / it may be re-created" if not c.get("recreated") or c.get("may_restart") else ""))
    out.append(f"  вера / faith: {w.religion(c.get('religion'), bool(c.get('upgraded')))}")
    roll = c.get("roll")
    points = f"  очки / points: {c.get('points', 0)}; ВО / war points: {c.get('war_points', 0)}"
    out.append(points)
    if roll:
        detail = pattern_text(str(roll["pattern"]), str(roll["digits"]), "ru")
        mods = "; ".join(roll_modifiers(roll, w))
        out.append(f"  ролл хода {roll['turn']} / the roll of turn {roll['turn']}: 5d{roll['die']} → "
                   f"{' '.join(str(f) for f in roll['faces'])} ({roll['digits']}), {detail} +{roll['base']}"
                   + (f"; {mods}" if mods else "") + f" = {roll['total']}")
    out.append(f"  земли / land ({len(land)}): {_tiles(land)}")
    if dejure:
        out.append(f"  владения де-юре / de jure ({len(dejure)}): {_tiles(dejure)}")
    out.append(f"  города / cities ({len(cities)}" + (f", +{city_bonus} к роллу / to the roll" if cities else "")
               + f"): {', '.join(cities) or '—'}")
    out.append(f"  постройки / buildings: {', '.join(buildings) or '—'}")
    deposits = [f"{w.resource(r)} {t}" for t, r in sorted(view["deposits"].items(), key=lambda tr: _order(tr[0]))
                if view["tiles"].get(t, {}).get("owner") == me]
    out.append(f"  ресурсы на земле / deposits: {', '.join(deposits) or '—'}")
    done = [w.project(p.id) for bid, branch in w.rules.research.branches.items()
            for p in branch.projects[:int(c.get("research", {}).get(bid, 0))]]
    if done or c.get("research_branch"):
        branch = c.get("research_branch")
        going = (f"; идёт / under way: {w.rules.research.branches[branch].name_ru}, "
                 f"{counted(int(c.get('research_points', 0)), 'очко')}" if branch else "")
        out.append(f"  исследования / research: {', '.join(done) or '—'}{going}")
    if c.get("suzerain"):
        out.append(f"  сюзерен / suzerain: {w.country(c['suzerain'])}, дань / tribute {c.get('tribute_percent', 0)}%")
    vassals = [w.country(cid) for cid, x in view["countries"].items() if x.get("suzerain") == me and x.get("alive")]
    if vassals:
        out.append(f"  вассалы / vassals: {', '.join(vassals)}")
    if c.get("choice") == "khagan":
        out.append("  Каган ждёт ответа / the Khagan awaits: «данник» или «гибель»")
    reform = c.get("reform")
    if reform and reform.get("status") == "civil_war":
        out.append("  идёт Реформация / the Reformation is on: «реформа улучшить» или «реформа РЕЛИГИЯ»")
    kinds_ru = {"pact": "пакт", "alliance": "союз", "trade": "сделка", "peace": "мир"}
    for o in view.get("offers", []):
        what = kinds_ru.get(str(o["kind"]), str(o["kind"]))
        if o["kind"] == "trade":
            what += f": {w.resource(str(o['give']))} за {w.resource(str(o['get']))}"
        out.append(f"  предложение / proposal (ход / turn {o['turn']}): {w.country(o['by'])} → {w.country(o['to'])}, "
                   f"{what}")
    return out


def _order(tile: str) -> tuple[int, int]:
    from voevoda.rulesets.new_worlds.mapdata import split_tile

    x, y = split_tile(tile)
    return y, x


def _kinds(view: Mapping[str, Any]) -> Mapping[str, str]:
    from voevoda.rulesets.new_worlds.views import kinds_of

    return kinds_of(view)
