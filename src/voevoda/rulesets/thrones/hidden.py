"""What a Thrones viewer may not see, stated for the non-interference test.

The board is on the table and public; hidden are the sums in hand («Битва королей ... ставки
втемную, имеющиеся на руках суммы не озвучиваются») with the reserve and the statement that follow
from them, the deals and payments between two houses (seen by those two), and every post until it
is resolved (a sealed bid, a bribe's guesses, a payment). The keys are the rows of the `thrones`
table in docs/engine.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation, others
from voevoda.core.ruleset import State, Viewer

PLAYERS = ("Анна", "Борис", "Вера")
CONFIG: dict[str, Any] = {"holy_lands": False, "diplomacy": "together", "bribes": "together", "deck_draw": "table"}
"""The table draws the Westeros cards, so that a test game can reach the sealed steps soon: the
Clash of Kings' bids and Littlefinger's Hand's bribes (their posts are the `orders` row)."""
SERVICES = ("подмога в Харренхолле", "пропуск через Ров Кейлин", "не трогать Риверран", "молчать в битве королей")


def _to_trade(state: State) -> State:
    """The second round's trade phase, nobody allied (everybody owes the Night's Watch 5), every
    house with 9 in hand (enough to pay in coins)."""
    for t in state["treasury"].values():
        t["power"] = t["opening"] = 9
    state["turn"] = 2
    state["phase"] = "trade"
    state["declared"] = {p: [] for p in state["seats"]}
    state["alliances"] = []
    return state


class ThronesHidden(HiddenParts):
    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS, dict(CONFIG))

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        out: list[Variation] = []
        rivals = others(list(state["seats"]), viewer)

        def treasury(s: State) -> None:
            p = rnd.choice(rivals)
            on_board = sum(1 for info in s["board"].values() if info["token"] == p)
            t = s["treasury"][p]
            t["power"] = rnd.randint(0, 20 - on_board)
            t["opening"] = rnd.randint(0, 20 - on_board)
            t["statement"] = [{"item": rnd.choice(["transfer_in", "sale", "bid", "board"]),
                               "amount": rnd.randint(-3, 3), "note": ""}]
        out.append(Variation("treasury", treasury))
        if len(rivals) >= 2:
            def deal(s: State) -> None:
                by, to = rnd.sample(rivals, 2)
                s["deals"].append({"id": int(s["next_deal"]), "by": by, "to": to, "amount": rnd.randint(1, 4),
                                   "service": rnd.choice(SERVICES), "turn": int(s["turn"]),
                                   "status": rnd.choice(["offered", "accepted", "declined"])})
                s["next_deal"] += 1
            out.append(Variation("deals", deal))
        return out

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        rivals = others(list(state["seats"]), viewer)

        def money(s: State) -> None:
            for p in rivals:
                t = s["treasury"][p]
                t["power"] = value
                t["opening"] = value
                t["statement"].append({"item": "transfer_in", "amount": value, "note": ""})
        out = [Variation("treasury", money)]
        if len(rivals) >= 2:
            def deal(s: State) -> None:
                s["deals"].append({"id": int(s["next_deal"]), "by": rivals[0], "to": rivals[1], "amount": value,
                                   "service": "услуга", "turn": int(s["turn"]), "status": "offered"})
                s["next_deal"] += 1
            out.append(Variation("deals", deal))
        return out

    def first_posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """In the Westeros step, before the computer's post (whose cards are its dice's): the
        cards that lead to the sealed steps, «Битва королей» (bids) and «Рука Мизинца» (bribes)."""
        return ["вестерос: битва королей\nчетвёртая карта: Рука Мизинца"] if view.get("phase") == "westeros" else []

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """Other posts a house could send now: a payment or a deal to another house (where money
        may change hands), a bid, a pass."""
        phase = view.get("phase")
        me = view.get("me") or {}
        money = int(me.get("power", 0))
        rivals = [p for p in view.get("seats", []) if p != player]
        texts: list[str] = []
        if phase == "bids":
            texts.append(f"ставка {rnd.randint(0, money)}")
        elif phase == "tiebreak":
            ties = [list(group) for group in (view.get("bidding") or {}).get("ties", [])]
            for group in ties:
                rnd.shuffle(group)
            if ties:
                texts.append("порядок " + ", ".join(p for group in ties for p in group))
        elif phase == "bribe":
            texts.append("пас")
        elif phase not in ("tiebreak", "holy", "diplomacy", "westeros") and rivals and money:
            to = rnd.choice(rivals)
            texts.append(f"перевод {to} {rnd.randint(1, money)} за «{rnd.choice(SERVICES)}»")
            texts.append(f"сделка {to} {rnd.randint(1, 5)} за «{rnd.choice(SERVICES)}»")
        elif phase == "diplomacy":
            texts.append("одиночка")
            if rivals:
                texts.append(f"союз {rnd.choice(rivals)}")
        return texts

    def sealed_phases(self) -> tuple[str, ...]:
        """«Битва королей ... ставки втемную»: the bids, and the Iron Throne's order of equal bids."""
        return ("bids", "tiebreak")

    def plant_posts(self, view: Mapping[str, Any], player: str, value: int) -> list[str]:
        """No post may carry ten thousand tokens: a house holds at most its reserve."""
        return []

    def pairs(self) -> list[Pair]:
        setting = Setting(PLAYERS, dict(CONFIG))

        def richer(state: State, which: str) -> State:
            state = _to_trade(state)
            state["treasury"]["Борис"]["power"] = 9 if which == "a" else 14
            state["treasury"]["Борис"]["opening"] = state["treasury"]["Борис"]["power"]
            return state

        sale = {"Анна": "продать пешего Белая Гавань", "Борис": "продать пешего Каменная Септа", "Вера": ""}

        def littlefinger(state: State, which: str) -> State:
            """The second round's «Рука Мизинца» in force, bribes posted together: Борис's two
            footmen in Moat Cailin stand next to Stark's White Harbor (one footman, no knight)."""
            state = _to_trade(state)
            state["phase"] = "bribe"
            state["card"] = {"id": "littlefinger", "turn": 2}
            state["bribed"] = []
            state["board"]["moat-cailin"].update({"house": "Борис"})
            state["board"]["moat-cailin"]["units"].update({"footman": 2, "knight": 0, "ship": 0, "siege": 0})
            return state

        return [
            Pair("a rival's bribe before it is rolled",
                 "001 «Рука Мизинца»: a house «делает денежную ставку» and guesses the faces; until the bribes are "
                 "rolled the other houses know nothing of it (the `orders` row: «a bribe's guessed faces»)",
                 "Вера", setting, littlefinger,
                 ({"Анна": "пас", "Борис": "подкуп Белая Гавань 2: 2, 5"},), ({"Анна": "пас", "Борис": "пас"},),
                 revealed=True),
            Pair("a rival's sums in hand through trade and the dues",
                 "001 «Модификации фазы Вестероса»: «имеющиеся на руках суммы не озвучиваются»; both pay the "
                 "Night's Watch in coins", "Анна", setting, richer, (sale,), (sale,)),
            Pair("a payment between two other houses",
                 "001 «Основные положения»: «Денежные операции происходят мгновенно, по достижении договоренности "
                 "между лордами» — between those lords (docs/rulings/thrones.md T10)", "Анна", setting,
                 lambda s, which: _to_trade(s),
                 ({"Анна": "", "Борис": "перевод Вера 2 за «подмогу»", "Вера": ""},),
                 ({"Анна": "", "Борис": "", "Вера": ""},)),
            Pair("a deal offered between two other houses",
                 "001 «Основные положения»: «сделок с другими Домами вида «окажи мне некую услугу ... за столько-то "
                 "монет»» (docs/rulings/thrones.md T11)", "Анна", setting, lambda s, which: _to_trade(s),
                 ({"Анна": "", "Борис": "сделка Вера 3 за «пропуск через Ров Кейлин»", "Вера": ""},),
                 ({"Анна": "", "Борис": "", "Вера": ""},)),
        ]
