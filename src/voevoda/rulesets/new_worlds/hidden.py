"""What a New Worlds viewer may not see, stated for the non-interference test.

The game is played in an open forum thread: rolls, points, land, buildings, wars, treaties and
deals are public. Hidden are the game master's: the closed parts of the map, deposits of
resources whose epoch has not come, his scheduled events and his notes; and, between two
countries, a proposal not yet answered. The keys below are the rows of the New Worlds table in
``docs/engine.md`` (docs/new_worlds.md «Who sees what»).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Pair, Setting, Variation, others
from voevoda.core.ruleset import PUBLIC, State, Viewer
from voevoda.rulesets.new_worlds.mapdata import closed_tiles, grid_from_state, split_tile, tile_name
from voevoda.rulesets.new_worlds.rules import load_rules
from voevoda.rulesets.new_worlds.views import kinds_of

PLAYERS = ("Анна", "Борис", "Вера")
WORDS = ("засуха", "комета", "чума", "пророк", "нашествие", "золотая жила", "затмение", "мор")


def _future_resources(state: State) -> list[str]:
    rules = load_rules()
    index = rules.epoch_index(str(state["epoch"]))
    return [r for e in rules.epochs[index + 1:] for r in e.new_resources]


def _closed(state: State) -> list[str]:
    m = state["map"]
    return sorted(closed_tiles(m.get("regions"), m.get("open_regions", [])))


def _land(state: State) -> list[str]:
    m = state["map"]
    return [tile_name(x, y) for y, row in enumerate(m["terrain"]) for x, ch in enumerate(row) if ch == "."]


class NewWorldsHidden(HiddenParts):
    def setting(self, min_players: int, max_players: int) -> Setting:
        return Setting(PLAYERS)

    def state_variations(self, state: State, viewer: Viewer, rnd: random.Random) -> list[Variation]:
        out: list[Variation] = []
        future = _future_resources(state)
        land = [t for t in _land(state) if t not in state["deposits"]]
        if future and land:
            def deposit(s: State) -> None:
                s["deposits"][rnd.choice(land)] = rnd.choice(future)
            out.append(Variation("deposits", deposit))
        closed = _closed(state)
        if closed:
            def closed_part(s: State) -> None:
                tile = rnd.choice(closed)
                x, y = split_tile(tile)
                row = s["map"]["terrain"][y]
                s["map"]["terrain"][y] = row[:x] + rnd.choice(".^~=".replace(row[x], "")) + row[x + 1:]
                if tile not in state["deposits"] or tile in closed:
                    s["deposits"][tile] = rnd.choice(["gold", "spices", "salt", "fur"])
            out.append(Variation("closed", closed_part))

        def scheduled(s: State) -> None:
            words = " ".join(rnd.sample(WORDS, 2))
            s["events"]["scheduled"].append({"event": {
                "id": f"secret{rnd.randint(1, 999)}", "name_ru": words, "name_en": words, "manual": True,
                "message_ru": f"Ведущий готовит: {words}", "message_en": f"The GM prepares: {words}",
                "effects": []}, "due": None})
        out.append(Variation("scheduled", scheduled))

        def note(s: State) -> None:
            cid = rnd.choice(sorted(s["countries"]))
            s["countries"][cid]["gm_note"] = "заметка ведущего: " + " ".join(rnd.sample(WORDS, 3))
        out.append(Variation("notes", note))
        parties = others(list(state["seats"]), viewer)
        if len(parties) >= 2:
            def offer(s: State) -> None:
                by, to = rnd.sample(parties, 2)
                s["offers"].append({"kind": rnd.choice(["pact", "alliance", "peace"]), "by": by, "to": to,
                                    "turn": int(s["turn"]), "give": None, "get": None, "cede": [],
                                    "held": rnd.choice([0, 5, 10])})
            out.append(Variation("offers", offer))
        return out

    def plant(self, state: State, viewer: Viewer, value: int) -> list[Variation]:
        def note(s: State) -> None:
            for c in s["countries"].values():
                c["gm_note"] = f"заметка ведущего {value}"
        out = [Variation("notes", note)]
        parties = others(list(state["seats"]), viewer)
        if len(parties) >= 2:
            def offer(s: State) -> None:
                s["offers"].append({"kind": "pact", "by": parties[0], "to": parties[1], "turn": int(s["turn"]),
                                    "give": None, "get": None, "cede": [], "held": value})
            out.append(Variation("offers", offer))
        return out

    def posts(self, view: Mapping[str, Any], player: str, rnd: random.Random) -> list[str]:
        """A few posts this player could send now, from his view: settle a free tile next to
        his land, found a city, claim a bonus."""
        if player == PUBLIC or player not in view.get("countries", {}):
            return []
        me = view["countries"][player]
        texts = [f"Ход.\n[b]бонус +{rnd.randint(0, 30)}[/b]"]
        if not me.get("alive"):
            return texts
        own = sorted(t for t, v in view["tiles"].items() if v.get("owner") == player)
        kinds = kinds_of(view)
        free = []
        for t in own:
            x, y = split_tile(t)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = tile_name(x + dx, y + dy) if x + dx >= 0 and y + dy >= 0 else None
                    if n and kinds.get(n) == "land" and not view["tiles"].get(n, {}).get("owner"):
                        free.append(n)
        if free and me.get("points", 0) >= 1:
            texts.append(f"[b]занять {rnd.choice(sorted(set(free)))}[/b]")
        bare = [t for t in own if view["tiles"][t].get("city") is None and kinds.get(t) == "land"]
        if bare and me.get("points", 0) >= 15:
            texts.append(f"Строю.\n[b]город {rnd.choice(bare)}[/b]")
        return texts

    def plant_posts(self, view: Mapping[str, Any], player: str, value: int) -> list[str]:
        return [f"[b]бонус +{value}[/b]"]

    def pairs(self) -> list[Pair]:
        return [_pact_to_whom(), _trade_offered(), _event_in_store(), _deposit_of_an_epoch_to_come(),
                _inside_the_closed_land(), _an_order_void(PUBLIC), _an_order_void("Анна")]


# -- named pairs ------------------------------------------------------------------------------
# Four players on the default map in the Iron Age (pacts and trade are open): Анна at F8, Борис
# at X7, Вера at H16, Глеб at W15. Nobody answers in the second step, so proposals lapse.

FOUR = ("Анна", "Борис", "Вера", "Глеб")
IRON = Setting(FOUR, {"start_epoch": "iron"})


def _fresh(state: State) -> State:
    """A copy to change: the ruleset keeps the worlds it built by the identity of their state."""
    return copy.deepcopy(dict(state))


def _pact_to_whom() -> Pair:
    """Борис proposes a pact to Вера (game a) or to Глеб (game b); nobody answers, and the
    proposal lapses with its 5 points given back. The price is paid in public, the partner is
    the two parties' alone."""
    def prepare(state: State, which: str) -> State:
        state = _fresh(state)
        state["countries"]["Борис"]["points"] = 30
        return state

    return Pair(
        "a pact proposed to one of two countries",
        "000 «VI. Дипломатия, 1»: «Их подписание стоит 5 для обеих сторон»; ruling R15: an unanswered "
        "proposal is seen by its two parties only (docs/engine.md, row offers)", "Анна", IRON, prepare,
        ({"Борис": "[b]пакт Вера[/b]"}, {}), ({"Борис": "[b]пакт Глеб[/b]"}, {}))


def _trade_offered() -> Pair:
    """Борис, with a port and fur, offers Вера fur for cotton (game a) or offers nothing (game
    b); she does not answer. A deal costs nothing, so Анна may not learn of the offer at all."""
    def prepare(state: State, which: str) -> State:
        state = _fresh(state)
        grid = grid_from_state(state["map"])
        own = sorted((t for t, v in state["tiles"].items() if v.get("owner") == "Борис" and grid.is_coast(t)),
                     key=grid.index)
        port = own[0]
        state["tiles"][port].update({"city": 0, "building": "port"})
        inland = next(t for t, v in sorted(state["tiles"].items()) if v.get("owner") == "Борис" and t != port)
        state["deposits"] = dict(sorted({**state["deposits"], inland: "fur"}.items()))
        return state

    return Pair(
        "a trade offered and not answered",
        "000 «IV. Торговля, 1»; ruling R15: a proposal is seen by its two parties only until it is signed",
        "Анна", IRON, prepare, ({"Борис": "[b]торговля Вера: мех за хлопок[/b]"}, {}), ({"Борис": "Жду."}, {}))


def _event_in_store() -> Pair:
    """The game master keeps an event of his own ready (game a) or none (game b): a manual one
    stays his until he fires it."""
    def prepare(state: State, which: str) -> State:
        state = _fresh(state)
        if which == "a":
            state["events"]["scheduled"].append({"event": {
                "id": "plague", "name_ru": "Чума", "name_en": "The Plague", "manual": True,
                "message_ru": "Чума опустошает земли на востоке", "message_en": "The plague ravages the east",
                "effects": [{"kind": "points", "amount": -5, "countries": ["*"]}]}, "due": None})
        return state

    return Pair(
        "an event the game master keeps ready",
        "000 «ОП имеет право менять и добавлять эвенты по своему желанию»; docs/engine.md, row scheduled",
        "Анна", IRON, prepare, ({"Анна": "[b]занять F9[/b]"}, {}), ({"Анна": "[b]занять F9[/b]"}, {}))


def _deposit_of_an_epoch_to_come() -> Pair:
    """Spices (a resource of the Renaissance) lie in Анна's own capital (game a) or not (game
    b): they neither show nor count before their epoch, not even for her."""
    def prepare(state: State, which: str) -> State:
        state = _fresh(state)
        if which == "a":
            state["deposits"] = dict(sorted({**state["deposits"], "F8": "spices"}.items()))
        return state

    return Pair(
        "a deposit of an epoch to come on one's own land",
        "000 «II. Механика, 2»: «Новые типы ресурсов появляются на карте по мере смены эпох»",
        "Анна", IRON, prepare, ({"Анна": "[b]город F8[/b]"}, {}), ({"Анна": "[b]город F8[/b]"}, {}))


def _inside_the_closed_land() -> Pair:
    """The New World, closed until the Renaissance, holds gold and a coast at its edge (game a)
    or is all ocean (game b): nothing a player sees, not even which sea is coastal, may tell."""
    def prepare(state: State, which: str) -> State:
        state = _fresh(state)
        if which == "a":
            closed = sorted(closed_tiles(state["map"].get("regions"), state["map"].get("open_regions", [])))
            edge = min(closed, key=lambda t: (split_tile(t)[0], split_tile(t)[1]))
            x, y = split_tile(edge)
            rows = state["map"]["terrain"]
            for yy in range(max(0, y + 8), min(len(rows), y + 12)):
                rows[yy] = rows[yy][:x] + "." + rows[yy][x + 1:]
            state["deposits"] = dict(sorted({**state["deposits"], tile_name(x, y + 9): "gold"}.items()))
        return state

    return Pair(
        "what the closed part of the map holds",
        "000 «I. Создание и пересоздание, 2»: «ожидайте открытия новых частей карты»; ruling R40",
        "Анна", IRON, prepare, ({"Анна": "[b]занять F9[/b]"}, {}), ({"Анна": "[b]занять F9[/b]"}, {}))


VOID_EDIT: tuple[list[dict[str, Any]], str] = (
    [{"op": "replace", "path": "/countries/Борис/points", "value": 0}], "штраф Борису / a fine for Борис")
"""The game master fines Борис all his points after Борис has posted (docs/engine.md «edit»)."""


def _an_order_void(viewer: Viewer) -> Pair:
    """Борис settles X8 (game a) or only writes that he waits (game b); the game master then
    takes all his points, so the settling is refused at resolution for want of a point (an
    ``order_void`` event, his alone). The edit is public and the same in both games; that an
    order of his was left void is not: to everyone else, a void order is no order."""
    return Pair(
        f"an order the turn leaves void, seen by {viewer}",
        "000 «II. Механика»: an order is paid from the points the country has; docs/engine.md, row orders: "
        "«which of a player's orders the turn refused» is his own", viewer, IRON, lambda state, which: _fresh(state),
        ({"Борис": "[b]занять X8[/b]"},), ({"Борис": "Жду."},), edits=(VOID_EDIT,))
