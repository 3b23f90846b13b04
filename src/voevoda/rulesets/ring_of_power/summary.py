"""What ``voevoda show`` prints for a Ring of Power game: the viewer's view as a person reads it
(``--json`` gives the view itself).

A player first reads his own position: his treasury, last turn's income and the tax due, his
holdings, his units stack by stack («0303 — ферзь, офицер и 2 пешки») with the pawns being made
officers and the condottieri's upkeep, and last turn's statement; then what he sees around him
(other players' holdings and units, the Chupacabra, exhausted land), then what everybody sees:
the players and whom each is hostile to, the band of condottieri on offer. The map's name and
fog open it. The game master reads every player's position. Built from the view alone (fog and
other players' money are already cut from it), worded with the report's :class:`~.report.Words`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.ruleset import GM, Outcome, Viewer
from voevoda.core.words import Names, counted, number
from voevoda.rulesets.ring_of_power.report import Words, _entry_text
from voevoda.rulesets.ring_of_power.rules import Options, Rules

LIST_CUT = 40


def _hexes(hexes: Sequence[str]) -> str:
    if not hexes:
        return "—"
    shown = ", ".join(hexes[:LIST_CUT])
    return shown + (f", … (всего / in all {len(hexes)})" if len(hexes) > LIST_CUT else "")


def summary(view: Mapping[str, Any], viewer: Viewer, rules: Rules, names: Names,
            options: Options | None = None, result: Outcome | None = None) -> str:
    w = Words(rules, "ru", names, str(viewer), options)
    m = view["map"]
    lines = [f"Карта / map: «{m.get('title_ru') or m['name']}», {m['width']}×{m['height']}; туман / fog: "
             f"{_hexes(list(m.get('fog', [])))}"]
    if result is not None:
        lines.append(f"игра окончена / the game is over: {', '.join(result.winners) or '—'} — {result.reason_ru} / "
                     f"{result.reason_en}")
    me = view.get("you")
    if me and view.get("me") is not None:
        lines.append("")
        lines.extend(_position(view, str(me), dict(view["me"]), view.get("camps", {}), w, own=True))
        lines.extend(_in_sight(view, str(me), w))
    elif viewer == GM:
        for player in view["seats"]:
            camps = {h: v[player] for h, v in view.get("camps", {}).items() if player in v}
            lines.append("")
            lines.extend(_position(view, player, view["players"][player], camps, w, own=False))
        chupacabras = [c for c in view.get("chupacabras", []) if c.get("hex")]
        if chupacabras:
            lines += ["", "Чупакабра / the Chupacabra: " + "; ".join(
                f"{c['hex']}" + (f" (съедено / eaten {c['eaten']})" if c.get("eaten") else "") for c in chupacabras)]
        lines.extend(_depletion(view.get("depletion", {}), w, ""))
    lines += ["", "Игроки / players:"]
    for player in view["seats"]:
        info = view["players"][player]
        mark = " (вы / you)" if player == me else ""
        hostile = ", ".join(names.case(p, "ablt") for p in info.get("hostile", []))
        if not info.get("alive"):
            state = f"{names.verb(player, 'выбыл')} / out of the game"
        elif hostile:
            state = f"враждует с {hostile} / hostile to {', '.join(info['hostile'])}"
        else:
            state = "ни с кем не враждует / hostile to nobody"
        lines.append(f"  {player}{mark}: {state}")
    offer = view.get("offer")
    if offer:
        band = counted(int(offer["size"]), "кондотьер")
        lines.append(f"Кондотьеры на торгах / condottieri for hire: {band}, содержание / upkeep "
                     f"{w.coins(int(offer['upkeep']))} за каждого в ход; ставки в ход / bids in turn {offer['turn']}")
    if viewer == GM:
        lines.append("Ведущий видит всё: voevoda show ИГРА --as gm --json / the game master sees it all in --json")
    return "\n".join(lines)


def _position(view: Mapping[str, Any], player: str, me: Mapping[str, Any], camps: Mapping[str, Any], w: Words,
              own: bool) -> list[str]:
    head = "Вы / you" if own else "Игрок / player"
    out = [f"{head}: {player}" + ("" if view["players"][player].get("alive", True) else
                                   f" — {w.names.verb(player, 'выбыл')} из игры / out of the game")]
    out.append(f"  казна / treasury: {w.coins(int(me['money']))}; доход прошлого хода / last income: "
               f"{w.coins(int(me.get('last_income', 0)))}; налог к уплате / tax due: {w.coins(int(me.get('tax_due', 0)))}")
    holdings = sorted(h for h, v in view.get("holdings", {}).items() if v["owner"] == player)
    out.append(f"  владения / holdings ({len(holdings)}): {_hexes(holdings)}")
    units = [u for u in view.get("units", []) if u["owner"] == player]
    by_hex: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for u in units:
        by_hex[u["hex"]][u["type"]] += 1
    out.append(f"  отряды / units ({len(units)}):" + ("" if units else " —"))
    for hex_, counts in sorted(by_hex.items()):
        since = camps.get(hex_)
        verb = "стоит" if sum(counts.values()) == 1 else "стоят"
        stands = f" ({verb} с хода {since} / since turn {since})" if since is not None else ""
        extra = []
        ready: dict[int, int] = defaultdict(int)
        upkeep: dict[int, int] = defaultdict(int)
        for u in units:
            if u["hex"] != hex_:
                continue
            if u.get("upgrade_at") is not None:
                ready[int(u["upgrade_at"])] += 1
            if u.get("upkeep") is not None:
                upkeep[int(u["upkeep"])] += 1
        for turn, n in sorted(ready.items()):
            # «Пешка в 0503 станет офицером», «2 пешки … станут офицерами» (the report's words)
            become = "станет офицером" if n == 1 else "станут офицерами"
            extra.append(f"{w.units({'pawn': n})} {become} к ходу {turn} / officers by turn {turn}")
        if len(upkeep) == 1:
            extra.append(f"содержание кондотьеров / condottieri's upkeep: {w.coins(next(iter(upkeep)))} за каждого в ход")
        elif upkeep:  # two bands in one hex, hired at different prices
            extra.append("содержание кондотьеров в ход / condottieri's upkeep a turn: "
                         + ", ".join(f"{n} × {w.coins(fee)}" for fee, n in sorted(upkeep.items())))
        out.append(f"    {hex_} — {w.units(counts)}{stands}" + (f"; {'; '.join(extra)}" if extra else ""))
    entries = list(me.get("statement", []))
    if entries:
        out.append("  выписка прошлого хода / last turn's statement: "
                   + "; ".join(f"{number(int(e['amount']), 'ru', signed=True)} {_entry_text(w, e)}" for e in entries))
    return out


def _in_sight(view: Mapping[str, Any], me: str, w: Words) -> list[str]:
    """Other players' holdings and units, the Chupacabra and exhausted land the player's eyes
    reach (the view holds nothing else)."""
    out = [f"Видно вокруг / in sight ({counted(len(view.get('visible', [])), 'гекс')}):"]
    theirs: dict[str, list[str]] = defaultdict(list)
    for h, v in sorted(view.get("holdings", {}).items()):
        if v["owner"] != me:
            theirs[str(v["owner"])].append(h)
    out.append("  чужие владения / other holdings: "
               + ("; ".join(f"{p} — {', '.join(hs)}" for p, hs in theirs.items()) or "—"))
    stacks: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for u in view.get("units", []):
        if u["owner"] != me:
            stacks[(u["hex"], u["owner"])][u["type"]] += 1
    out.append("  чужие отряды / other units: "
               + ("; ".join(f"{h} — {p}: {w.units(c)}" for (h, p), c in sorted(stacks.items())) or "—"))
    if view.get("chupacabra_hexes"):
        out.append(f"  Чупакабра / the Chupacabra: {', '.join(view['chupacabra_hexes'])}")
    out.extend(_depletion(view.get("depletion", {}), w, "  "))
    return out


def _depletion(depletion: Mapping[str, int], w: Words, pad: str) -> list[str]:
    """«Правда создание каждой пешки понизит максимальный доход с данного владения на 20%
    навсегда»: each hex's loss so far."""
    if not depletion:
        return []
    penalty = w.rules.income.raise_penalty
    return [f"{pad}истощённая земля (собраны пешки) / exhausted land (pawns raised): " + ", ".join(
        f"{h} −{min(100, int(n) * penalty)}%" for h, n in sorted(depletion.items()))]
