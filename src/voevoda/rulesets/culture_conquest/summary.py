"""What ``voevoda show`` prints for a Culture & Conquest game: the viewer's view as a person reads
it (``--json`` gives the view itself).

The round and the order of play, who is asked now (his own question to the player himself and to
the game master); then the viewer's own people: culture, population by category, food and coins,
cities and wonders, resources, technologies, leaders, what is being built, promises received, his
standing loss orders and an offer made to him; then every other player the same way (the table is
open to all in this game, ruling 46: only an offer under negotiation and a player's standing loss
orders are cut from the view), the wonders of the world and the victory points. Names come from
the game's tables, words from the report's :class:`~.report.Lines`. Built from the view alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.ruleset import GM, Outcome, Prompt, Viewer
from voevoda.core.words import Names
from voevoda.rulesets.culture_conquest.data import Tables
from voevoda.rulesets.culture_conquest.game import CATEGORIES, CATEGORY_NAMES, MILITARY, amount
from voevoda.rulesets.culture_conquest.report import Lines


def summary(view: Mapping[str, Any], viewer: Viewer, tables: Tables, names: Names,
            awaiting: Mapping[str, Prompt], result: Outcome | None = None) -> str:
    order = [str(p) for p in view.get("order", [])]
    lines = Lines(tables, "ru", names, order)
    lines.viewer = str(viewer)
    out = [f"Ход / turn {view['turn']} из / of {view['turns']}; порядок хода / order of play: "
           f"{', '.join(order)}"]
    if result is not None:
        out.append(f"игра окончена / the game is over: {', '.join(result.winners) or '—'} — {result.reason_ru} / "
                   f"{result.reason_en}")
    for player, prompt in awaiting.items():
        if viewer in (GM, player):
            out.append(f"Ждём / awaited: {player} — {prompt.text_ru}")
        else:
            out.append(f"Ждём / awaited: {player}")
    offer = (view.get("pending") or {}).get("offer")
    if offer:  # in the view of its two parties and the game master only (ruling 31)
        out.append(f"Предложение (видно только сторонам) / offer (seen by its parties only): {offer['from']} → "
                   f"{offer['to']}: отдать {lines.items(offer.get('give', []))} в обмен на "
                   f"{lines.items(offer.get('take', []))}")
    players = view["players"]
    me = str(viewer) if viewer in players else None
    if me is not None:
        out += ["", *_player(view, me, lines, own=True)]
    for player in order:
        if player != me:
            out += ["", *_player(view, player, lines, own=False)]
    wonders = view.get("wonders", {})
    if wonders:
        shown = []
        for wid, held in wonders.items():
            if held.get("lost"):
                where = "разрушено / lost"
            else:
                where = f"{held.get('owner') or '—'}, город / city {held.get('city') or '—'}"
            shown.append(f"«{lines.n(wid)}» ({where})")
        out += ["", "Чудеса света / wonders: " + "; ".join(shown)]
    scores = view.get("scores", {})
    if scores:
        ranking = sorted(scores.items(), key=lambda kv: -int(kv[1]["total"]))
        out.append("Победные очки / victory points: " + ", ".join(f"{p} {s['total']}" for p, s in ranking))
    if viewer == GM:
        out.append("Ведущий видит всё: voevoda show ИГРА --as gm --json / the game master sees it all in --json")
    return "\n".join(out)


def _named(keys: Sequence[str], lines: Lines) -> str:
    """«Мыслитель ×2, Строитель»: names in their order, a repeated one counted."""
    counts = Counter(keys)
    return ", ".join(lines.n(k) + (f" ×{n}" if n > 1 else "") for k, n in counts.items()) or "—"


def _player(view: Mapping[str, Any], player: str, lines: Lines, own: bool) -> list[str]:
    p = view["players"][player]
    culture = lines.n(p.get("culture")) if p.get("culture") else "ещё не выбрана / not chosen yet"
    head = "Вы / you" if own else "Игрок / player"
    out = [f"{head}: {player} — культура / culture: {culture}"]
    pop = p["pop"]
    people = ", ".join(f"{CATEGORY_NAMES[c][0].lower()} {pop[c]}" for c in CATEGORIES if c not in MILITARY)
    forces = ", ".join(f"{CATEGORY_NAMES[c][0].lower()} {pop[c]}" for c in MILITARY)
    out.append(f"  население / population: {people}; {forces} (всего / in all {sum(int(pop[c]) for c in CATEGORIES)})")
    out.append(f"  пища / food: {p['food']}; казна / treasury: {amount('coins', int(p['coins']))}")
    cities = [c["name"] + (f" (чудо / wonder «{lines.n(c['wonder'])}»)" if c.get("wonder") else "")
              for c in p.get("cities", [])]
    out.append(f"  города / cities ({len(cities)}): {', '.join(cities) or '—'}")
    resources = [f"{lines.n(k)} {n}" for k, n in p.get("resources", {}).items() if n]
    out.append(f"  ресурсы / resources: {', '.join(resources) or '—'}")
    out.append(f"  технологии / technologies ({len(p.get('techs', []))}): {_named(p.get('techs', []), lines)}")
    out.append(f"  лидеры / leaders: {_named(p.get('leaders', []), lines)}")
    if p.get("wonders_built"):
        out.append(f"  построенные чудеса / wonders built: {_named(p['wonders_built'], lines)}")
    projects = [_project(x, lines) for x in p.get("projects", [])]
    if projects:
        out.append(f"  стройка / building: {'; '.join(projects)}")
    if p.get("labour_credit"):
        out.append(f"  труд в запасе / labour kept: {amount('labour', int(p['labour_credit']))}")
    if p.get("war_vp"):
        out.append(f"  очки войны / war points: {p['war_vp']}")
    disaster = p.get("disaster")
    if disaster:
        out.append(f"  бедствие / disaster: {lines.n(disaster['id'])} (ход / turn {disaster['turn']})")
    promises = [f"от {lines.nm(str(x['from']), 'gent')}: «{x['text']}» (ход / turn {x['turn']})" for x in p.get("promises", [])]
    if promises:
        out.append(f"  обещания / promises: {'; '.join(promises)}")
    prefs = p.get("prefs")
    if prefs:
        told = lines.prefs({"player": player, "set": prefs}).split(": ", 1)[1]
        out.append(f"  {told}")
    return out


def _project(x: Mapping[str, Any], lines: Lines) -> str:
    kind = x["project"]
    if kind == "city":
        what = "город" + (f" {x['name']}" if x.get("name") else "")
    elif kind == "wonder":
        what = f"чудо «{lines.n(x.get('target'))}»" + (f" в городе {x['city']}" if x.get("city") else "")
    elif kind == "resource":
        what = "природный ресурс"
    else:
        what = f"промышленный ресурс «{lines.n(x.get('target'))}»"
    return f"{what} — {amount('labour', int(x['labour']))}"
