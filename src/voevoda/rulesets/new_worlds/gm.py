"""The game master's commands: one line that says what to change («владелец C5 Анна»),
turned into the RFC 6902 JSON Patch the engine's audited ``edit`` applies, and checked against
the state's model before anything is stored.

«ОП имеет право менять и добавлять эвенты по своему желанию» — and every automatic result
(an owner, a city, a roll, a war's outcome) is the game master's to correct; each correction
is a journal entry with its reason.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import jsonpatch

from voevoda.core.errors import GameError
from voevoda.core.posts import fold
from voevoda.rulesets.new_worlds.mapdata import normalise_tile
from voevoda.rulesets.new_worlds.rules import FACTORY_NAMES
from voevoda.rulesets.new_worlds.state import load_state

if TYPE_CHECKING:
    from voevoda.rulesets.new_worlds.ruleset import NewWorlds

COMMANDS: dict[str, str] = {
    **dict.fromkeys(("владелец", "owner"), "owner"),
    **dict.fromkeys(("город", "city"), "city"),
    **dict.fromkeys(("постройка", "здание", "building"), "building"),
    **dict.fromkeys(("ресурс", "resource"), "resource"),
    **dict.fromkeys(("очки", "points"), "points"),
    **dict.fromkeys(("во", "war_points", "warpoints"), "war_points"),
    **dict.fromkeys(("ролл", "roll"), "roll"),
    **dict.fromkeys(("эпоха", "epoch"), "epoch"),
    **dict.fromkeys(("открыть", "open"), "open"),
    **dict.fromkeys(("событие", "event"), "event"),
    **dict.fromkeys(("заметка", "note"), "note"),
    **dict.fromkeys(("конец", "end"), "end"),
}
BUILDINGS = {"порт": "port", "port": "port", "университет": "university", "university": "university",
             "завод": "factory", "factory": "factory"}
NONE = {"-", "—", "нет", "none", "no"}
USAGE_RU = ("команды: владелец КЛЕТКА СТРАНА|-, город КЛЕТКА N|-, постройка КЛЕТКА порт|университет|завод ВИД|-, "
            "ресурс КЛЕТКА РЕСУРС|-, очки СТРАНА N, ВО СТРАНА N, ролл СТРАНА N, эпоха ЭПОХА, открыть РЕГИОН, "
            "событие ID, заметка СТРАНА ТЕКСТ, конец [СТРАНА,…]")
USAGE_EN = ("commands: owner TILE COUNTRY|-, city TILE N|-, building TILE port|university|factory KIND|-, "
            "resource TILE RESOURCE|-, points COUNTRY N, war_points COUNTRY N, roll COUNTRY N, epoch EPOCH, "
            "open REGION, event ID, note COUNTRY TEXT, end [COUNTRY,…]")


def _fail(ru: str, en: str) -> GameError:
    return GameError(f"{ru}; {USAGE_RU}", f"{en}; {USAGE_EN}")


class _Reader:
    def __init__(self, ruleset: NewWorlds, state: Mapping[str, Any], text: str) -> None:
        self.ruleset = ruleset
        self.state = state
        self.words = text.split()
        self.pos = 0

    def next(self, what_ru: str, what_en: str) -> str:
        if self.pos >= len(self.words):
            raise _fail(f"не указано: {what_ru}", f"missing: {what_en}")
        word = self.words[self.pos]
        self.pos += 1
        return word

    def rest(self) -> str:
        text = " ".join(self.words[self.pos:])
        self.pos = len(self.words)
        return text

    def tile(self) -> str:
        word = self.next("клетка", "tile")
        tile = normalise_tile(word)
        width, height = int(self.state["map"]["width"]), int(self.state["map"]["height"])
        from voevoda.rulesets.new_worlds.mapdata import split_tile

        if tile is None:
            raise _fail(f"«{word}» — не клетка", f"'{word}' is not a tile")
        x, y = split_tile(tile)
        if not (0 <= x < width and 0 <= y < height):
            raise _fail(f"клетки {tile} нет на карте", f"there is no tile {tile} on the map")
        return tile

    def country(self, text: str | None = None) -> str:
        word = text if text is not None else self.rest()
        key = fold(word)
        for cid, c in self.state["countries"].items():
            if key in (fold(cid), fold(c["name"]), fold(c.get("name_en") or "")):
                return str(cid)
        raise _fail(f"нет страны «{word}»", f"no country '{word}'")

    def number(self) -> int:
        word = self.next("число", "number").lstrip("+")
        negative = word.startswith("-")
        digits = word[1:] if negative else word
        if not digits or not all("0" <= ch <= "9" for ch in digits) or len(digits) > 9:
            raise _fail(f"«{word}» — не число", f"'{word}' is not a number")
        return -int(digits) if negative else int(digits)


def gm_patch(ruleset: NewWorlds, state: Mapping[str, Any], command: str) -> list[dict[str, Any]]:
    """The JSON Patch for one command, checked: applying it leaves a state the game accepts."""
    r = _Reader(ruleset, state, command.strip())
    head = fold(r.next("команда", "command"))
    kind = COMMANDS.get(head)
    if kind is None:
        raise _fail(f"неизвестная команда «{head}»", f"unknown command '{head}'")
    patch = _build(kind, r, ruleset, state)
    check(ruleset, state, patch)
    return patch


def _tile_obj(state: Mapping[str, Any], tile: str) -> dict[str, Any]:
    return copy.deepcopy(dict(state["tiles"].get(tile, {})))


def _build(kind: str, r: _Reader, ruleset: NewWorlds, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    if kind == "owner":
        tile = r.tile()
        who = r.rest()
        obj = _tile_obj(state, tile)
        obj["owner"] = None if who in NONE else r.country(who)
        if obj["owner"] is None:
            obj.update({"city": None, "building": None, "factory": None})
        return [{"op": "add", "path": f"/tiles/{tile}", "value": obj}]
    if kind == "city":
        tile = r.tile()
        word = r.next("уровень или -", "level or -")
        obj = _tile_obj(state, tile)
        obj["city"] = None if word in NONE else _level(word)
        return [{"op": "add", "path": f"/tiles/{tile}", "value": obj}]
    if kind == "building":
        tile = r.tile()
        word = fold(r.next("постройка", "building"))
        obj = _tile_obj(state, tile)
        if word in NONE:
            obj["building"], obj["factory"] = None, None
        elif word in BUILDINGS:
            obj["building"] = BUILDINGS[word]
            obj["factory"] = None
            if obj["building"] == "factory":
                sort = fold(r.next("вид завода", "kind of factory"))
                found = [k for k, (ru, en, aliases) in FACTORY_NAMES.items() if sort in {ru, en, k, *aliases}]
                if not found:
                    raise _fail(f"нет вида завода «{sort}»", f"no kind of factory '{sort}'")
                obj["factory"] = found[0]
        else:
            raise _fail(f"«{word}» — не постройка", f"'{word}' is not a building")
        return [{"op": "add", "path": f"/tiles/{tile}", "value": obj}]
    if kind == "resource":
        tile = r.tile()
        word = r.rest()
        if word in NONE:
            return [{"op": "remove", "path": f"/deposits/{tile}"}] if tile in state["deposits"] else []
        key = fold(word)
        for rid, res in ruleset.rules.resources.items():
            if key in {fold(rid), fold(res.name_ru), fold(res.name_en), *(fold(f) for f in res.forms_ru)}:
                return [{"op": "add", "path": f"/deposits/{tile}", "value": rid}]
        raise _fail(f"нет ресурса «{word}»", f"no resource '{word}'")
    if kind in ("points", "war_points"):
        words = r.words[r.pos:]
        if len(words) < 2:
            raise _fail("нужны страна и число", "a country and a number are needed")
        cid = r.country(" ".join(words[:-1]))
        r.pos = len(r.words) - 1
        value = r.number()
        if kind == "war_points" and value < 0:
            raise _fail("военные очки не бывают отрицательными", "war points cannot be negative")
        return [{"op": "replace", "path": f"/countries/{_esc(cid)}/{kind}", "value": value}]
    if kind == "roll":
        words = r.words[r.pos:]
        if len(words) < 2:
            raise _fail("нужны страна и итог ролла", "a country and the roll's total are needed")
        cid = r.country(" ".join(words[:-1]))
        r.pos = len(r.words) - 1
        total = r.number()
        c = state["countries"][cid]
        if c.get("roll") is None:
            raise _fail("у этой страны нет ролла", "this country has no roll")
        old = int(c["roll"]["total"])
        return [{"op": "replace", "path": f"/countries/{_esc(cid)}/roll/total", "value": total},
                {"op": "replace", "path": f"/countries/{_esc(cid)}/points", "value": int(c["points"]) + total - old}]
    if kind == "epoch":
        epoch = r.next("эпоха", "epoch")
        if epoch not in ruleset.rules.epoch_ids:
            raise _fail(f"нет эпохи «{epoch}» (есть: {', '.join(ruleset.rules.epoch_ids)})",
                        f"no epoch '{epoch}' (epochs: {', '.join(ruleset.rules.epoch_ids)})")
        return [{"op": "add", "path": "/events/queue/-", "value": f"epoch:{epoch}"}]
    if kind == "open":
        region = r.next("регион", "region")
        if region not in state["map"].get("regions_info", {}):
            raise _fail(f"нет региона «{region}»", f"no region '{region}'")
        if region in state["map"]["open_regions"]:
            return []
        return [{"op": "add", "path": "/map/open_regions/-", "value": region}]
    if kind == "event":
        event = r.next("событие", "event")
        known = [s["event"].get("id") for s in state["events"]["scheduled"]]
        if event not in known:
            raise _fail(f"нет ждущего события «{event}» (есть: {', '.join(map(str, known)) or '—'})",
                        f"no waiting event '{event}' (waiting: {', '.join(map(str, known)) or '—'})")
        return [{"op": "add", "path": "/events/queue/-", "value": event}]
    if kind == "note":
        if len(r.words) - r.pos < 2:
            raise _fail("нужны страна и текст", "a country and a text are needed")
        cid = r.country(r.next("страна", "country"))
        return [{"op": "replace", "path": f"/countries/{_esc(cid)}/gm_note", "value": r.rest()}]
    if kind == "end":
        names = [n.strip() for n in r.rest().split(",") if n.strip()]
        winners = sorted(r.country(n) for n in names)
        return [{"op": "replace", "path": "/outcome", "value": {"reason": "gm", "winners": winners, "scores": {}}}]
    raise _fail(f"неизвестная команда «{kind}»", f"unknown command '{kind}'")


def when_it_applies(ruleset: NewWorlds, state: Mapping[str, Any], patch: list[dict[str, Any]]) -> tuple[str, str] | None:
    """What a queued command waits for, to say when the edit is applied: a new epoch begins
    with the turn after the next resolution, as an epoch opened by its conditions does
    (ruling R39); a queued event fires at that resolution. ``None``: the edit holds at once."""
    turn = int(state["turn"])
    for op in patch:
        value = str(op.get("value", ""))
        if op.get("path") != "/events/queue/-":
            continue
        if value.startswith("epoch:"):
            epoch = ruleset.rules.epoch(value.split(":", 1)[1])
            now = ruleset.rules.epoch(str(state["epoch"]))
            return (f"эпоха «{epoch.name_ru}» начнётся при расчёте хода {turn}, с хода {turn + 1}; посты хода {turn} "
                    f"ещё считаются в эпохе «{now.name_ru}»",
                    f"the {epoch.name_en} begins when turn {turn} is resolved, with turn {turn + 1}; the posts of "
                    f"turn {turn} are still priced in the {now.name_en}")
        return (f"событие «{value}» сработает при расчёте хода {turn}",
                f"the event '{value}' fires when turn {turn} is resolved")
    return None


def schedule_patch(ruleset: NewWorlds, state: Mapping[str, Any], raw: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The patch that schedules a game master's event (docs/new_worlds.md «Events») kept from
    the players: unlike the house rules, an edit's patch stays in the game master's log."""
    from pydantic import ValidationError

    from voevoda.rulesets.new_worlds.rules import CustomEvent

    try:
        event = CustomEvent.model_validate(raw)
    except ValidationError as exc:
        details = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors())
        raise GameError(f"событие не проходит проверку: {details}", f"the event does not validate: {details}") from exc
    known = {str(s["event"].get("id")) for s in state["events"]["scheduled"]} | set(state["events"]["fired"])
    if event.id in known:
        raise GameError(f"событие «{event.id}» уже есть", f"the event '{event.id}' already exists")
    for eff in event.effects:
        if eff.resource is not None and eff.resource not in ruleset.rules.resources:
            raise GameError(f"нет ресурса «{eff.resource}»", f"no resource '{eff.resource}'")
        if eff.epoch is not None and eff.epoch not in ruleset.rules.epoch_ids:
            raise GameError(f"нет эпохи «{eff.epoch}»", f"no epoch '{eff.epoch}'")
    due: int | None = event.turn
    if event.after_epoch is not None:
        if event.after_epoch not in ruleset.rules.epoch_ids:
            raise GameError(f"нет эпохи «{event.after_epoch}»", f"no epoch '{event.after_epoch}'")
        reached = ruleset.rules.epoch_index(str(state["epoch"])) >= ruleset.rules.epoch_index(event.after_epoch)
        due = int(state["epoch_since"]) + event.delay if reached else None
    patch = [{"op": "add", "path": "/events/scheduled/-",
              "value": {"event": event.model_dump(mode="json"), "due": due}}]
    check(ruleset, state, patch)
    return patch


def _level(word: str) -> int:
    if not word.isdigit() or not 0 <= int(word) <= 10:
        raise _fail(f"уровень города — число 0–10, а не «{word}»", f"a city's level is 0–10, not '{word}'")
    return int(word)


def _esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def check(ruleset: NewWorlds, state: Mapping[str, Any], patch: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply ``patch`` to a copy of ``state`` and check the result with the state's model."""
    try:
        new_state: dict[str, Any] = jsonpatch.apply_patch(copy.deepcopy(dict(state)), patch)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
        raise GameError(f"правка не применяется: {exc}", f"the edit does not apply: {exc}") from exc
    load_state(new_state, ruleset.rules)
    return new_state
