"""ПОДГОТОВКА К ИГРЕ.

"Каждый игрок начинает с 10 единицами населения и 1 городом. Игрок случайно определяет
свою цивилизацию на Таблице Культур. Порядок хода определяется броском кубика."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voevoda.core.dice import CITED, Dice, pointer
from voevoda.core.errors import GameError

from .data import Tables
from .game import Game, Options, new_player
from .phases import advance, give_culture


def new_game(players: Sequence[str], dice: Dice, tables: Tables, options: Options,
             record: bool = True) -> Game:
    """The first state, already advanced to the first choice; its events are in the
    returned game's journal."""
    if not players:
        raise GameError("players: нужен хотя бы один игрок", "players: at least one player is needed")
    if len(set(players)) != len(players):
        raise GameError("players: имена игроков повторяются", "players: player names repeat")
    rules = tables.rules
    state: dict[str, Any] = {
        "ruleset": "culture-conquest",
        "turn": 1,
        "turns": options.turns or rules.victory.turns,
        "order": [],
        "seat": 0,
        "phase": 0,
        "pending": None,
        "finished": False,
        "players": {},
        "wonders": {},
    }
    g = Game(state, tables, options, dice, record, dice_step=0)
    for name in players:
        state["players"][name] = new_player(rules.setup.population, [])
        for _ in range(rules.setup.cities):
            state["players"][name]["cities"].append({"name": g.city_name(name), "wonder": None})
    state["order"] = turn_order(g, list(players))
    choosers = []
    for name in state["order"]:
        stream = g.dice.stream(f"setup/{name}/culture")
        face = stream.roll(tables.cultures.die)
        # The setup's events are told in step 1; they cite the setup dice (step 0) they quote.
        g.emit("culture_roll", {"player": name, "die": tables.cultures.die, "faces": [face],
                                CITED: [stream.cite("/faces", step=0)]})
        if face >= tables.cultures.choose_from:
            choosers.append(name)
        else:
            give_culture(g, name, tables.culture_by_roll[face], chosen=False)
    if choosers:
        g.ask("culture", choosers)
    else:
        advance(g)
    return g


def turn_order(g: Game, players: list[str]) -> list[str]:
    """"Порядок хода определяется броском кубика": highest first; tied players roll
    again among themselves until they differ."""
    die = g.t.rules.setup.order_die
    rolls: dict[str, list[int]] = {name: [] for name in players}

    def settle(group: list[str], depth: int) -> list[str]:
        if len(group) == 1:
            return group
        for name in group:
            rolls[name].append(g.dice.stream(f"setup/{name}/order").roll(die))
        faces = sorted({rolls[n][depth] for n in group}, reverse=True)
        result: list[str] = []
        for face in faces:
            tied = [n for n in group if rolls[n][depth] == face]
            result += settle(tied, depth + 1)
        return result

    order = settle(list(players), 0)
    cited = [g.dice.stream(f"setup/{n}/order").cite(pointer("faces", n), step=0) for n in players]
    g.emit("turn_order", {"order": order, "die": die, "faces": {n: rolls[n] for n in players}, CITED: cited})
    return order
