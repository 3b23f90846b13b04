"""What a New Worlds viewer may not see, stated for the non-interference test.

The game is played in an open forum thread: rolls, points, land, buildings, wars, treaties and
deals are public. Hidden are the game master's: the closed parts of the map, deposits of
resources whose epoch has not come, his scheduled events and his notes; and, between two
countries, a proposal not yet answered. The keys below are the rows of the New Worlds table in
``docs/engine.md`` (docs/new_worlds.md «Who sees what»).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from voevoda.core.hidden import HiddenParts, Setting, Variation, others
from voevoda.core.ruleset import PUBLIC, State, Viewer
from voevoda.rulesets.new_worlds.mapdata import closed_tiles, split_tile, tile_name
from voevoda.rulesets.new_worlds.rules import load_rules

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
        kinds = view.get("kinds", {})
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
