"""What a Culture & Conquest viewer may not see, stated for the non-interference test.

Ruling 46: «The document hides nothing: treasuries, populations, technologies, leaders and
projects are open to all. Only an offer under negotiation is private.» Ruling 31: «An offer is
seen only by its two parties; a concluded deal is public.» Ruling 48: a player's standing loss
orders are his alone. The keys below are the rows of the
Culture & Conquest table in ``docs/engine.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation, others
from voevoda.core.ruleset import State, Viewer

PLAYERS = ("Анна", "Борис", "Вера")
WORDS = ("мир", "союз", "дружба", "помощь", "зерно", "тайна", "верность", "поход")


def _parties(pending: Mapping[str, Any]) -> set[str]:
    parties = set(pending["players"])
    if pending["kind"] == "reply":
        parties.add(pending["offer"]["from"])
    return parties


def _items(rnd: random.Random) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [{"kind": "promise", "key": " ".join(rnd.sample(WORDS, 2))}]
    if rnd.random() < 0.5:
        items.append({"kind": rnd.choice(["coins", "food"]), "amount": rnd.randint(1, 30)})
    return items


class CultureConquestHidden(HiddenParts):
    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS)

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        found = [Variation("prefs", _other_prefs(state, viewer, rnd))] if others(list(state["players"]), viewer) else []
        pending = state.get("pending")
        if not pending or pending["kind"] not in ("offer", "reply") or viewer in _parties(pending):
            return found

        def offer(s: State) -> None:
            p = s["pending"]
            if p["kind"] == "reply":
                p["offer"]["give"] = _items(rnd)
                p["offer"]["take"] = _items(rnd)
                p["made"] = rnd.randint(1, 3)
            else:
                p["made"] = rnd.randint(0, 2)
        return [Variation("offer", offer), *found]

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        pending = state.get("pending")
        if not pending or pending["kind"] != "reply" or viewer in _parties(pending):
            return []

        def offer(s: State) -> None:
            s["pending"]["offer"]["give"] = [{"kind": "coins", "amount": value}]
            s["pending"]["offer"]["take"] = [{"kind": "food", "amount": value}]
        return [Variation("offer", offer)]

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """Offers to every other player and the end of trading; a reply either way; and to any
        question, a plain answer carrying standing loss orders (private to the player)."""
        pending = view.get("pending")
        if not pending or player not in pending["players"]:
            return []
        texts = []
        plain = _plain_answer(pending)
        if plain is not None:
            texts.append(plain + "\n" + _prefs_lines(rnd))
        if pending["kind"] == "reply":
            return [*texts, "принять", "отклонить"]
        if pending["kind"] != "offer":
            return texts
        texts.append("конец торговли")
        for other in view["order"]:
            if other != player:
                give, take = rnd.sample(WORDS, 2)
                texts.append(f"предложить {other}: даю обещание {give}; прошу обещание {take}")
        return texts

    def plant_posts(self, view: Mapping[str, Any], player: str, value: int) -> list[str]:
        """An offer whose promise names ``value``."""
        pending = view.get("pending")
        if not pending or pending["kind"] != "offer" or player not in pending["players"]:
            return []
        return [f"предложить {other}: даю обещание {value} мер зерна; прошу обещание мир"
                for other in view["order"] if other != player]

    def pairs(self) -> list[Pair]:
        return [_declined_offer(), _standing_orders()]


CATEGORIES = ("army", "fleet", "farmers", "merchants", "workers", "scholars")
RU = {"army": "армия", "fleet": "флот", "farmers": "земледельцы", "merchants": "торговцы", "workers": "рабочие",
      "scholars": "учёные"}


def _random_prefs(rnd: random.Random) -> dict[str, list[str]]:
    prefs: dict[str, list[str]] = {}
    if rnd.random() < 0.8:
        prefs["losses"] = rnd.sample(CATEGORIES, rnd.randint(1, 6))
    if rnd.random() < 0.6:
        prefs["battle"] = rnd.sample(["army", "fleet"], rnd.randint(1, 2))
    if rnd.random() < 0.5:
        prefs["unpaid"] = rnd.sample(["army", "fleet"], rnd.randint(1, 2))
    return prefs


def _other_prefs(state: State, viewer: Viewer, rnd: random.Random) -> Callable[[dict[str, Any]], object]:
    """Ruling 48: a player's standing loss orders are his alone."""
    def change(s: dict[str, Any]) -> None:
        for name in others(list(s["players"]), viewer):
            s["players"][name]["prefs"] = _random_prefs(rnd)
    return change


def _prefs_lines(rnd: random.Random) -> str:
    prefs = _random_prefs(rnd) or {"losses": ["workers"]}
    heads = {"losses": "потери", "battle": "потери в бою", "unpaid": "дезертиры"}
    return "\n".join(f"{heads[k]}: " + ", ".join(RU[c] for c in v) for k, v in prefs.items())


def _plain_answer(pending: Mapping[str, Any]) -> str | None:
    """An answer to the question asked that is always legal, written as a player would."""
    kind = pending["kind"]
    if kind == "industrial":
        return "ресурс " + str(pending["options"][0])
    if kind == "tribute":
        options = pending["options"]
        return "дань монеты" if "coins" in options else "дань население" if "population" in options else None
    return {"assign": "без изменений", "attack": "мир", "ally": "нейтралитет", "offer": "конец торговли",
            "reply": "отклонить", "build": "ничего", "research": "пропустить",
            "culture": "культура Римская"}.get(kind)


def _standing_orders() -> Pair:
    """Анна, assigning her people, adds standing loss orders: one set (game a) or another (game
    b). Борис sees no difference, before her post is resolved or after."""
    def prepare(state: State, which: str) -> State:
        state["phase"] = 3
        state["seat"] = state["order"].index("Анна")
        for name in state["players"]:
            state["players"][name]["culture"] = state["players"][name]["culture"] or "roman"
        state["pending"] = {"kind": "assign", "players": ["Анна"]}
        return state

    return Pair(
        "standing loss orders", "ruling 48: «a player's standing choices are his alone; what they do "
        "(who was lost) is told like every other loss»", "Борис", Setting(PLAYERS), prepare,
        ({"Анна": "без изменений\nпотери: рабочие, торговцы\nпотери в бою: флот"},),
        ({"Анна": "без изменений\nпотери: учёные\nдезертиры: армия, флот"},))


def _declined_offer() -> Pair:
    """Анна, trading, offers Вера one promise (game a) or another (game b); Вера declines; Анна
    ends her trading. Борис sees neither the offer nor its refusal."""
    def prepare(state: State, which: str) -> State:
        state["phase"] = 9
        state["seat"] = state["order"].index("Анна")
        state["pending"] = {"kind": "offer", "players": ["Анна"], "made": 0}
        return state

    return Pair(
        "a declined offer", "004 «9. ФАЗА ТОРГОВЛИ»; ruling 31: «An offer is seen only by its two parties; "
        "a concluded deal is public»", "Борис", Setting(PLAYERS), prepare,
        ({"Анна": "предложить Вера: даю обещание вечный мир; прошу обещание зерно"}, {"Вера": "отклонить"},
         {"Анна": "конец торговли"}),
        ({"Анна": "предложить Вера: даю обещание тайный союз; прошу обещание поход"}, {"Вера": "отклонить"},
         {"Анна": "конец торговли"}))
