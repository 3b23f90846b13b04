"""A small sequential game for the core's own tests: «Двадцать» (Twenty).

Players take turns in seat order; on their turn a player chooses how many d6 to roll
(1 to 3, «брось N» / «roll N») and adds them to a secret pile only they can see; then
the next player is asked. Whoever first ends a turn at 20 or more wins. The engine must
ask one player at a time and resolve after each choice: the sequential decision point.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

from voevoda.core.bounds import Count, Name, StrictModel
from voevoda.core.dice import CITED, Dice, Stream
from voevoda.core.errors import ParseError, Problem, illegal, invalid
from voevoda.core.hidden import HiddenParts, Variation, others
from voevoda.core.ruleset import GM, Event, Order, Outcome, Prompt, Resolution, Ruleset, State, StateProblem

ORDER = re.compile(r"^\s*(?:брось|бросок|roll)\s+(\d+)\s*$", re.IGNORECASE)


class TwentyState(StrictModel):
    """The state of «Двадцать», for `edit` (Ruleset.state_model)."""

    turn: int = Field(ge=1, le=10_000)
    phase: Literal["choose", "over"]
    seats: list[Name] = Field(min_length=1, max_length=6)
    current: int = Field(ge=0, le=5)
    piles: dict[Name, Count]
    pile_names: dict[Name, str]
    winner: Name | None


class Twenty(Ruleset):
    id = "toy-twenty"
    version = "1"
    title_ru = "Двадцать"
    title_en = "Twenty"
    min_players = 1
    max_players = 6

    state_model = TwentyState

    def state_invariants(self, state: State) -> list[StateProblem]:
        seats = state["seats"]
        problems = []
        if set(state["piles"]) != set(seats) or len(set(seats)) != len(seats):
            problems.append(StateProblem("/piles", "кучи не совпадают с местами", "the piles do not match the seats"))
        if state["current"] >= len(seats):
            problems.append(StateProblem("/current", "нет такого места", "no such seat"))
        return problems

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        order = dice.stream("seating").shuffle(list(players))
        # Each pile has a secret name only its owner knows: the leak test looks for it.
        names = {p: f"pile-{dice.stream('names', sealed=True).roll(10**8):08d}" for p in players}
        return {"turn": 1, "phase": "choose", "seats": order, "current": 0,
                "piles": {p: 0 for p in players}, "pile_names": names, "winner": None}

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        orders: list[Order] = []
        problems: list[Problem] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            match = ORDER.match(line)
            if match is None:
                column = len(line) - len(line.lstrip()) + 1
                problems.append(invalid("ожидалось «брось N»", "expected 'roll N'", number, column, line.strip()))
                continue
            orders.append(Order("roll", {"dice": int(match.group(1))}, number, line.strip()))
        if problems:
            raise ParseError(problems, [o.text for o in orders])
        return orders

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        if len(orders) != 1:
            return [illegal("нужен ровно один приказ", "exactly one order is needed")]
        count = orders[0].args["dice"]
        if not 1 <= count <= 3:
            return [illegal("можно бросить от 1 до 3 костей", "roll 1 to 3 dice", orders[0].line,
                            order=orders[0].text, rule="Twenty §1")]
        return []

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        player = state["seats"][state["current"]]
        count = orders[player][0].args["dice"] if orders[player] else 1
        pile = dice.stream(f"pile/{player}", sealed=True)
        faces = pile.rolls(count, 6)
        state["piles"][player] += sum(faces)
        omens = dice.stream("omen")  # a public die, so public exports have rolls to check
        omen = omens.roll(6)
        # Each event cites the dice it quotes, so `verify` can hold the quote to the dice.
        events = [Event("rolled", {"player": player, "faces": faces, CITED: [pile.cite("/faces")]}, (player,)),
                  Event("played", {"player": player, "dice": count, "omen": omen, CITED: [omens.cite("/omen")]})]
        if state["piles"][player] >= 20:
            state["winner"] = player
            state["phase"] = "over"
            events.append(Event("won", {"player": player}))
        else:
            state["current"] = (state["current"] + 1) % len(state["seats"])
            if state["current"] == 0:
                state["turn"] += 1
        return Resolution(state, events)

    def awaiting(self, state: State) -> dict[str, Prompt]:
        if state["winner"] is not None:
            return {}
        player = state["seats"][state["current"]]
        return {player: Prompt("roll", "Сколько костей бросить (1-3)?", "How many dice to roll (1-3)?")}

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        if viewer == GM:
            return dict(state)
        piles = {p: v for p, v in state["piles"].items() if p == viewer}
        names = {p: v for p, v in state["pile_names"].items() if p == viewer}
        return {"turn": state["turn"], "seats": state["seats"], "current": state["current"],
                "piles": piles, "pile_names": names, "winner": state["winner"]}

    def hidden_markers(self, state: State, viewer: str) -> list[str]:
        if viewer == GM:
            return []
        return [name for player, name in state["pile_names"].items() if player != viewer]

    def hidden_parts(self) -> HiddenParts:
        return TwentyHidden()

    def map_svg(self, view: Mapping[str, Any], viewer: str, lang: str = "ru",
                events: Sequence[Event] = (), turn: int | None = None) -> str | None:
        rows = "".join(f'<text y="{20 * (i + 1)}">{p}: {view["piles"].get(p, "?")} '
                       f'{view["pile_names"].get(p, "")}</text>' for i, p in enumerate(view["seats"]))
        return '<svg xmlns="http://www.w3.org/2000/svg">' + rows + "</svg>"

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        return Outcome((state["winner"],), "набрал двадцать", "reached twenty")

    def default_orders(self, state: State, player: str) -> list[Order]:
        return [Order("roll", {"dice": 1}, 0, "roll 1")]

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        pile = view["piles"].get(player, 0)
        return f"roll {3 if pile < 14 else 1 + stream.roll(2)}"


class Guess(Ruleset):
    """«Угадайка»: every player names a number 1-6 at the same time (simultaneous orders);
    a d6 is rolled and those who guessed it score. First to 3 wins. With config
    ``{"slow_marker": PATH}`` resolve writes PATH and then sleeps (``slow_seconds``, default 60),
    so that tests can kill a process in the middle of a resolution or race another against it. A post
    may end with a tag, ``guess 3 #p2-17``, so that tests can tell posts apart in the journal."""

    id = "toy-guess"
    version = "1"
    title_ru = "Угадайка"
    title_en = "Guess"
    min_players = 1
    max_players = 24

    def setup(self, players: Sequence[str], dice: Dice) -> State:
        return {"turn": 1, "phase": "guess", "scores": {p: 0 for p in players}, "winner": None}

    def parse(self, text: str, player: str, state: State) -> list[Order]:
        match = re.fullmatch(r"\s*(?:число|guess)\s+(\d+)(?:\s+#[\w-]+)?\s*", text, re.IGNORECASE)
        if match is None:
            raise ParseError([invalid("ожидалось «число N»", "expected 'guess N'", 1, 1, text.strip())])
        return [Order("guess", {"number": int(match.group(1))}, 1, text.strip())]

    def validate(self, state: State, player: str, orders: Sequence[Order]) -> list[Problem]:
        if not 1 <= orders[0].args["number"] <= 6:
            return [illegal("число от 1 до 6", "a number from 1 to 6", 1, order=orders[0].text)]
        return []

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> Resolution:
        marker = self.config.get("slow_marker")
        if marker:
            import pathlib
            import time

            pathlib.Path(marker).write_text("resolving", encoding="utf-8")
            time.sleep(float(self.config.get("slow_seconds", 60)))
        face = dice.stream("die").roll(6)
        for player, posted in orders.items():
            if posted and posted[0].args["number"] == face:
                state["scores"][player] += 1
        leaders = sorted(p for p, s in state["scores"].items() if s >= 3)
        if leaders:
            state["winner"] = leaders[0]
        state["turn"] += 1
        return Resolution(state, [Event("die", {"face": face})])

    def awaiting(self, state: State) -> dict[str, Prompt]:
        if state["winner"]:
            return {}
        return {p: Prompt("guess", "Ваше число (1-6)?", "Your number (1-6)?") for p in state["scores"]}

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        return dict(state)

    def hidden_parts(self) -> HiddenParts:
        """Nothing is hidden but the guesses before they are resolved."""
        return GuessHidden()

    def outcome(self, state: State) -> Outcome | None:
        return Outcome((state["winner"],), "угадал трижды", "guessed three times") if state["winner"] else None

    def bot(self, view: Mapping[str, Any], player: str, stream: Stream) -> str | None:
        return f"guess {stream.roll(6)}"

class TwentyHidden(HiddenParts):
    """Another player's pile and its secret name are hidden («a secret pile only they can see»)."""

    TABLE = {"orders": {"player": "no", "public": "no", "gm": "yes"},
             "pile": {"player": "own", "public": "no", "gm": "yes"}}

    def state_variations(self, state: State, viewer: str, rnd: Any) -> list[Variation]:
        rivals = others(list(state["piles"]), viewer)
        if not rivals:
            return []
        q = rnd.choice(rivals)

        def pile(s: State) -> None:
            s["piles"][q] = rnd.randint(0, 19)
            s["pile_names"][q] = f"pile-{rnd.randrange(10**8):08d}"
        return [Variation("pile", pile)]

    def posts(self, view: Mapping[str, Any], player: str, rnd: Any) -> list[str]:
        return [f"roll {n}" for n in (1, 2, 3)]

    def plant(self, state: State, viewer: str, value: int) -> list[Variation]:
        return [Variation("pile", lambda s, q=q: s["piles"].update({q: value}))
                for q in others(list(state["piles"]), viewer)]


class GuessHidden(HiddenParts):
    def posts(self, view: Mapping[str, Any], player: str, rnd: Any) -> list[str]:
        return [f"число {n}" for n in range(1, 7)]


GUESS_TABLE = {"orders": {"player": "no", "public": "no", "gm": "yes"}}
