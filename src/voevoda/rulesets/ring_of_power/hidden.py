"""What a Ring of Power viewer may not see, stated for the non-interference test.

«Каждый игрок получает карту, на которой отражены: его владения; его отряды; владения [и
отряды] других игроков, которые находятся от его отрядов или его владений на расстоянии не более
1 гекса.» «Туман ... полностью скрывает видимость в этом гексе.» Ruling 34: the fog, relations and
the condottieri on offer are public; money, bids, orders, statements, upgrades and capture
progress of others are not. The keys below are the rows of the Ring of Power table in
``docs/engine.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation, others
from voevoda.core.ruleset import State, Viewer
from voevoda.rulesets.ring_of_power.board import board as shared_board
from voevoda.rulesets.ring_of_power.state import alive_players, board_of, holdings_of, visible_hexes

PLAYERS = ("Анна", "Борис", "Вера")
UNIT_TYPES = ("pawn", "officer", "queen", "condottiere")


def _seen(state: Mapping[str, Any], viewer: Viewer) -> set[str]:
    return visible_hexes(state, viewer) if viewer in state["players"] else set()


def _out_of_sight(state: Mapping[str, Any], viewer: Viewer) -> list[str]:
    """Hexes ``viewer`` cannot see and does not hold, with nobody's units in them."""
    seen = _seen(state, viewer)
    own = set(holdings_of(state, viewer)) if viewer in state["players"] else set()
    occupied = {u["hex"] for u in state["units"]}
    return [h for h in board_of(state).hexes if h not in seen and h not in own and h not in occupied]


def _add_unit(state: State, owner: str, kind: str, hex_: str, upkeep: int | None = None) -> None:
    state["units"].append({"id": state["next_unit"], "owner": owner, "type": kind, "hex": hex_,
                           "upgrade_at": None, "upkeep": upkeep})
    state["next_unit"] += 1


class RingOfPowerHidden(HiddenParts):
    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS)

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        if state.get("outcome") is not None:
            return []
        rivals = others(alive_players(state), viewer)
        if not rivals:
            return []
        seen = _seen(state, viewer)
        free = _out_of_sight(state, viewer)
        q = rnd.choice(rivals)
        out: list[Variation] = []

        def money(s: State) -> None:
            me = s["players"][q]
            me["money"] = rnd.randint(0, 999)
            me["tax_due"] = rnd.randint(0, 40)
            me["last_income"] = rnd.randint(0, 200)
            me["statement"] = [{"item": "income", "amount": rnd.randint(1, 300)},
                               {"item": "upkeep", "amount": -rnd.randint(1, 60)}]
        out.append(Variation("money", money))

        if free:
            def units(s: State) -> None:
                hidden = [u for u in s["units"] if u["owner"] != viewer and u["hex"] not in seen]
                choice = rnd.randrange(4) if hidden else 0
                if choice == 0:
                    _add_unit(s, q, rnd.choice(UNIT_TYPES), rnd.choice(free))
                elif choice == 1:
                    s["units"].remove(rnd.choice(hidden))
                elif choice == 2:
                    rnd.choice(hidden)["type"] = rnd.choice(UNIT_TYPES)
                else:
                    rnd.choice(hidden)["hex"] = rnd.choice(free)
            out.append(Variation("units", units))

        def details(s: State) -> None:
            theirs = [u for u in s["units"] if u["owner"] != viewer]
            for u in rnd.sample(theirs, min(3, len(theirs))):
                u["upgrade_at"] = rnd.choice([None, int(s["turn"]) + rnd.randint(0, 3)])
                u["upkeep"] = rnd.choice([None, rnd.randint(2, 4)])
        out.append(Variation("unit-details", details))

        def holdings(s: State) -> None:
            unseen = [h for h, v in s["holdings"].items() if v["owner"] != viewer and h not in seen]
            if unseen and rnd.random() < 0.5:
                h = rnd.choice(unseen)
                if rnd.random() < 0.5:
                    del s["holdings"][h]
                else:
                    s["holdings"][h]["owner"] = rnd.choice(rivals)
            elif free:
                s["holdings"][rnd.choice(free)] = {"owner": q, "since": int(s["turn"])}
                s["holdings"] = dict(sorted(s["holdings"].items()))
            for v in s["holdings"].values():
                if v["owner"] != viewer:
                    v["since"] = rnd.randint(0, int(s["turn"]))
        out.append(Variation("holdings", holdings))

        def capture(s: State) -> None:
            for camp in s["camps"].values():
                for p in camp:
                    if p != viewer:
                        camp[p] = rnd.randint(0, int(s["turn"]))
            if free:
                s["camps"].setdefault(rnd.choice(free), {})[q] = int(s["turn"])
        out.append(Variation("capture", capture))

        fog_unseen = [h for h in state["map"]["fog"] if h not in seen]

        def chupacabra(s: State) -> None:
            for c in s["chupacabras"]:
                if c["hex"] is not None and c["hex"] not in seen and fog_unseen:
                    c["hex"] = rnd.choice(fog_unseen)
                c["eaten"] = rnd.randint(0, 2)
        out.append(Variation("chupacabra", chupacabra))

        def depletion(s: State) -> None:
            mine = set(holdings_of(s, viewer)) if viewer in s["players"] else set()
            spots = [h for h in board_of(s).hexes if h not in seen and h not in mine]
            s["depletion"][rnd.choice(spots)] = rnd.randint(1, 3)
            s["depletion"] = dict(sorted(s["depletion"].items()))
        out.append(Variation("depletion", depletion))
        return out

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        rivals = others(list(state["seats"]), viewer)
        if not rivals:
            return []
        seen = _seen(state, viewer)
        out: list[Variation] = []
        for q in rivals:
            for key in ("money", "tax_due", "last_income"):
                def number(s: State, q: str = q, key: str = key) -> None:
                    s["players"][q][key] = value
                out.append(Variation("money", number))

            def statement(s: State, q: str = q) -> None:
                s["players"][q]["statement"] = [{"item": "income", "amount": value},
                                                {"item": "transfer", "amount": -value, "to": rivals[0]}]
            out.append(Variation("money", statement))
        theirs = [u for u in state["units"] if u["owner"] != viewer]
        if theirs:
            unit_id = theirs[0]["id"]

            def upkeep(s: State) -> None:
                for u in s["units"]:
                    if u["id"] == unit_id:
                        u["upkeep"] = value
            out.append(Variation("unit-details", upkeep))
        spots = [h for h in board_of(state).hexes if h not in seen]
        if spots:
            def depletion(s: State) -> None:
                s["depletion"][spots[0]] = value
            out.append(Variation("depletion", depletion))
        return out

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """Free orders, payments, a bid when a band is on offer, and a move of one stack."""
        if view.get("outcome") is not None or view.get("you") != player:
            return []
        rivals = [p for p, v in view["players"].items() if p != player and v["alive"]]
        mine = sorted(h for h, v in view["holdings"].items() if v["owner"] == player)
        money = int(view["me"]["money"])
        lines: list[str] = []
        if rivals:
            lines.append(f"{rnd.choice(['вражда', 'мир'])} {rnd.choice(rivals)}")
            if money > 12:
                lines.append(f"перевод {rnd.randint(1, money // 2)} {rnd.choice(rivals)}: за проход")
        if view["me"]["tax_due"] and money > int(view["me"]["tax_due"]) * 2:
            lines.append(f"налог {view['me']['tax_due']}")
        offer = view.get("offer")
        if offer and offer["turn"] == view["turn"] and mine and money >= 10:
            lines.append(f"ставка {rnd.randint(10, max(10, money))} {rnd.choice(mine)}")
        stacks = sorted({u["hex"] for u in view["units"] if u["owner"] == player})
        if stacks:
            here = rnd.choice(stacks)
            board = shared_board(int(view["map"]["width"]), int(view["map"]["height"]))
            there = rnd.choice(sorted(board.neighbours(here)))
            lines.append(f"ход {here} -> {there}")
        rnd.shuffle(lines)
        texts = ["\n".join(lines[: rnd.randint(1, len(lines))])] if lines else []
        if stacks and rivals:
            # a probe into what the player cannot see: support into a neighbouring hex out of
            # sight (the fog), naming a rival; the answer may not depend on what stands there
            unseen = sorted(h for h in board.neighbours(here) if h not in set(view["visible"]))
            if unseen:
                texts.append(f"поддержка {here} -> {rnd.choice(unseen)} {rnd.choice(rivals)}")
        return texts

    def plant_posts(self, view: Mapping[str, Any], player: str, value: int) -> list[str]:
        """A sealed bid, a transfer and a tax payment of ``value``."""
        if view.get("outcome") is not None or view.get("you") != player:
            return []
        rivals = [p for p, v in view["players"].items() if p != player and v["alive"]]
        texts = [f"налог {value}"] + [f"перевод {value} {p}: долг" for p in rivals[:1]]
        mine = sorted(h for h, v in view["holdings"].items() if v["owner"] == player)
        offer = view.get("offer")
        if offer and offer["turn"] == view["turn"] and mine:
            texts.append(f"ставка {value} {mine[0]}")
        return texts

    def pairs(self) -> list[Pair]:
        return [_battle_seen_from_a_supporters_hex(), _desertion_next_door(), _unpaid_tax_next_door(),
                _losing_bids(), _money_far_away(), _pawns_raised_far_away()]


# -- named pairs ------------------------------------------------------------------------------
# The hexes are picked on the default 20 x 20 board, far from every start and from the fog.

FOUR = ("Анна", "Борис", "Вера", "Глеб")


def _clear(state: State, *players: str) -> None:
    """Leave ``players`` with nothing on the board but what a pair puts there."""
    state["units"] = [u for u in state["units"] if u["owner"] not in players]
    state["holdings"] = {h: v for h, v in state["holdings"].items() if v["owner"] not in players}
    state["camps"] = {h: {p: t for p, t in v.items() if p not in players} for h, v in state["camps"].items()}
    state["camps"] = {h: v for h, v in state["camps"].items() if v}


def _battle_seen_from_a_supporters_hex() -> Pair:
    """Вера's pawn attacks Борис's queen in 0315, which a queen of Борис in 0314 supports; in game
    b Вера does not attack. Анна's pawn in 0313 sees 0314 (the supporter) but neither 0315 nor Вера's
    pawn in 0415, and the supporter survives either way, so Анна may not learn of the battle."""
    anna, support, battle, attacker = "0313", "0314", "0315", "0415"

    def prepare(state: State, which: str) -> State:
        _add_unit(state, "Анна", "pawn", anna)
        _add_unit(state, "Борис", "queen", support)
        _add_unit(state, "Борис", "queen", battle)
        _add_unit(state, "Вера", "pawn", attacker)
        return state

    return Pair(
        "battle seen only from a supporter's hex",
        "003 «Видимость»; ruling 34: battles are reported to those who fought or supported and to "
        "whoever sees the battle hex before or after the turn", "Анна", Setting(PLAYERS), prepare,
        ({"Борис": f"поддержка {support} -> {battle} Борис", "Вера": f"ход {attacker} -> {battle}"},),
        ({"Борис": f"поддержка {support} -> {battle} Борис", "Вера": "мир Анна"},))


def _desertion_next_door() -> Pair:
    """Вера, penniless and landless, keeps a pawn in 1308 (Анна sees it from 1208) and two pawns,
    or one, in 1213, out of Анна's sight. All desert in both games: Анна sees the pawn she saw vanish,
    and may not learn how many others went."""
    def prepare(state: State, which: str) -> State:
        _clear(state, "Вера")
        state["players"]["Вера"]["money"] = 0
        _add_unit(state, "Анна", "pawn", "1208")
        _add_unit(state, "Вера", "pawn", "1308")
        for _ in range(2 if which == "a" else 1):
            _add_unit(state, "Вера", "pawn", "1213")
        return state

    return Pair(
        "a rival's desertion next door",
        "003 «Если денег на содержание отрядов не хватает, они убираются с доски»; ruling 34: "
        "others' money is not public; 003 «Видимость»: units out of sight are not shown",
        "Анна", Setting(PLAYERS), prepare, ({},), ({},))


def _unpaid_tax_next_door() -> Pair:
    """Вера owes a tax of 3 (game a) or 4 (game b) and pays nothing; the crown takes her only
    holding, 1308, which Анна sees from 1208. Анна sees the holding change hands, never the tax."""
    def prepare(state: State, which: str) -> State:
        _clear(state, "Вера")
        state["players"]["Вера"].update({"money": 0, "tax_due": 3 if which == "a" else 4})
        state["holdings"]["1308"] = {"owner": "Вера", "since": 0}
        state["holdings"] = dict(sorted(state["holdings"].items()))
        _add_unit(state, "Анна", "pawn", "1208")
        return state

    return Pair(
        "a rival's unpaid tax next door",
        "003 «Неуплата налога карается отъемом владения»; ruling 34: others' money is not public",
        "Анна", Setting(PLAYERS), prepare, ({},), ({},))


def _losing_bids() -> Pair:
    """A band of condottieri is on offer. Борис bids 50 and wins; Вера and Глеб bid 40 each
    (game a) or 40 and 35 (game b). The losing bids are sealed: the public chronicle and export,
    and Анна, learn who won and for how much, never the losing bids or their ties."""
    def prepare(state: State, which: str) -> State:
        state["offer"] = {"id": 1, "turn": int(state["turn"]), "size": 3, "upkeep": 2}
        for player, hex_ in (("Борис", "1612"), ("Вера", "1216"), ("Глеб", "1512")):
            state["players"][player]["money"] = 100
            state["holdings"][hex_] = {"owner": player, "since": 0}
        state["holdings"] = dict(sorted(state["holdings"].items()))
        return state

    return Pair(
        "losing sealed bids",
        "003 «Кондотьеры ... принимают сторону того игрока, который больше всех заплатит»; ruling 28: "
        "bids are sealed", "Анна", Setting(FOUR), prepare,
        ({"Борис": "ставка 50 1612", "Вера": "ставка 40 1216", "Глеб": "ставка 40 1512"},),
        ({"Борис": "ставка 50 1612", "Вера": "ставка 40 1216", "Глеб": "ставка 35 1512"},))


def _money_far_away() -> Pair:
    """Борис holds 60 coins (game a) or 300 (game b) and moves a stack at home; Анна, far away,
    sees nothing of it."""
    def prepare(state: State, which: str) -> State:
        state["players"]["Борис"]["money"] = 60 if which == "a" else 300
        return state

    return Pair(
        "a rival's treasury",
        "ruling 34: money, statements and orders of others are not public", "Анна", Setting(PLAYERS),
        prepare, ({"Борис": "ход 1818 -> 1817", "Анна": "вражда Вера"}, {"Борис": "налог 1"}),
        ({"Борис": "ход 1818 -> 1817", "Анна": "вражда Вера"}, {"Борис": "налог 1"}))


def _pawns_raised_far_away() -> Pair:
    """Борис raises three pawns at home (game a) or pays a tax instead (game b); then Анна raises a
    pawn. Анна's new pawn may not tell her how many units others have made: units carry no
    numbers in a player's view."""
    def prepare(state: State, which: str) -> State:
        return state

    return Pair(
        "pawns raised out of sight", "003 «Видимость»; ruling 34: orders of others are not public",
        "Анна", Setting(PLAYERS), prepare,
        ({"Борис": "сбор 1818 3"}, {"Анна": "сбор 0303 1"}),
        ({"Борис": "налог 1"}, {"Анна": "сбор 0303 1"}))
