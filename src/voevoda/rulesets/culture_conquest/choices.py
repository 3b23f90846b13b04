"""What each prompt asks, which answers are legal, and the default answer.

A choice is a small dict, the same whether it came from a post (``orders.py``), from a
computer opponent (``bots.py``) or from the game master's default:

==========  =====================================================================
prompt      choice
==========  =====================================================================
culture     ``{"culture": id}``
industrial  ``{"resource": id}``
assign      ``{"pop": {category: n}}`` (categories left out keep their number)
attack      ``{"target": player | None}``
ally        ``{"side": "attacker" | "defender" | None, "army": n, "fleet": n, "generals": n}``
tribute     ``{"kind": "coins" | "city" | "population" | "resource", "target": key | None}``
offer       ``{"to": player | None, "give": [item], "take": [item]}``
reply       ``{"accept": bool}``
build       ``{"alloc": [{"project": kind, "target": key | None, "name": str | None, "labour": n,
            "city": name (a wonder's, optional)}]}``
research    ``{"picks": [tech], "buy": [tech]}``
==========  =====================================================================

Any choice may also carry ``"prefs"``: the standing loss orders the post sets (ruling 48),
``{"losses" | "battle" | "unpaid": [category, ...] | None}``.

A trade item is ``{"kind": coins|food|labour|population|city|tech|leader|resource|promise,
"amount": n, "key": str}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core.words import Names, count_ru, counted

from .data import Tables
from .game import (
    CATEGORIES,
    CATEGORY_NAMES,
    MILITARY,
    PREFS,
    Options,
    amount,
    assignment_cost,
    generals,
    industrial_options,
    known_elsewhere,
    plan_build,
    population,
    project_labour,
    project_title,
    rivals,
    scholar_cap,
    wonder_available,
)

Choice = dict[str, Any]
Why = tuple[str, str]
ITEM_KINDS = ("coins", "food", "labour", "population", "city", "tech", "leader", "resource", "promise")
PROJECTS = ("city", "wonder", "resource", "industrial")

COINS = ("монета", "монеты", "монет")
PEOPLE = ("человек", "человека", "человек")
FORCES = {"army": ("армия", "army"), "fleet": ("флот", "fleet"), "generals": ("генерал", "general")}
AMOUNT_GENITIVE = {"coins": "монет", "food": "пищи", "labour": "труда", "population": "людей"}
"""«у Анны нет монет», «нет пищи»: what nothing of each trade good is called."""


def prompt_of(state: Mapping[str, Any], player: str) -> Mapping[str, Any] | None:
    pending = state.get("pending")
    if pending and player in pending["players"]:
        found: Mapping[str, Any] = pending
        return found
    return None


def check(state: Mapping[str, Any], tables: Tables, options: Options, player: str,
          choice: Mapping[str, Any], names: Names | None = None) -> list[Why]:
    """Every rule ``choice`` breaks for what ``player`` is asked now (empty: legal), each once;
    ``names`` declines the players the reasons name (with the genders of the game's config)."""
    pending = prompt_of(state, player)
    if pending is None:
        return [("от вас сейчас ничего не ждут", "nothing is asked of you now")]
    problems: list[Why] = []
    if isinstance(choice, Mapping) and "prefs" in choice:
        problems = prefs_problems(choice["prefs"])
        choice = {k: v for k, v in choice.items() if k != "prefs"}
    try:
        found = problems + CHECKS[pending["kind"]](state, tables, options, player, pending, choice,
                                                   names or Names(lang="ru"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return [("ответ не подходит к вопросу", "the answer does not fit the question")]
    return list(dict.fromkeys(found))


def prefs_problems(prefs: Any) -> list[Why]:
    """Standing choices (ruling 48): ``{"losses" | "battle" | "unpaid": [category, ...] | None}``,
    each category once; battle losses and deserters are armies and fleets."""
    if not isinstance(prefs, Mapping):
        return [("правила потерь не прочитаны", "the loss orders cannot be read")]
    problems: list[Why] = []
    for key, value in prefs.items():
        if key not in PREFS:
            problems.append((f"нет правила «{key}»", f"no standing order '{key}'"))
            continue
        if value is None:
            continue
        if not isinstance(value, list) or not value or len(set(map(str, value))) != len(value):
            problems.append(("категории перечисляются по одной, каждая один раз",
                             "name each category once"))
        elif any(c not in PREFS[key] for c in value):
            problems.append(("в бою гибнут и без жалованья уходят только армии и флоты",
                             "only armies and fleets die in battle or desert unpaid"))
    return problems


def _culture(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
             choice: Mapping[str, Any], names: Names) -> list[Why]:
    if choice["culture"] not in t.cultures.cultures:
        return [("нет такой культуры", "no such culture")]
    return []


def _industrial(state: Mapping[str, Any], t: Tables, o: Options, player: str,
                pending: Mapping[str, Any], choice: Mapping[str, Any], names: Names) -> list[Why]:
    if choice["resource"] not in pending["options"]:
        shown = ", ".join(t.name(x) for x in pending["options"])
        shown_en = ", ".join(t.name(x, "en") for x in pending["options"])
        return [(f"этот ресурс недоступен; можно: {shown}", f"that resource is not available; choose: {shown_en}")]
    return []


def _assign(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
            choice: Mapping[str, Any], names: Names) -> list[Why]:
    """ФАЗА РАСПРЕДЕЛЕНИЯ НАСЕЛЕНИЯ."""
    p = state["players"][player]
    new = {c: int(choice["pop"].get(c, p["pop"][c])) for c in CATEGORIES}
    unknown = set(choice["pop"]) - set(CATEGORIES)
    problems: list[Why] = []
    if unknown:
        problems.append(("нет такой категории населения", "no such population category"))
    if any(v < 0 for v in new.values()):
        problems.append(("число не может быть меньше нуля", "a number cannot be negative"))
    total, have = sum(new.values()), population(p)
    if total != have:
        problems.append((f"всего назначено {count_ru(total, PEOPLE)}, а население — {have}",
                         f"{total} assigned but the population is {have}"))
    limit = t.rules.assignment.max_change
    for c in CATEGORIES:
        if abs(new[c] - p["pop"][c]) > limit:
            problems.append((f"{CATEGORY_NAMES[c][0]}: {p['pop'][c]} → {new[c]}, а категория меняется не больше "
                             f"чем на {limit} за ход",
                             f"{CATEGORY_NAMES[c][1]}: {p['pop'][c]} → {new[c]}, but a category moves by at most "
                             f"{limit} a turn"))
    cap = scholar_cap(p, t)
    if new["scholars"] > cap and new["scholars"] > p["pop"]["scholars"]:
        problems.append((f"учёных не больше, чем городов: {cap} («доступен только 1 Ученый на каждый город»)",
                         f"at most {cap} scholars, one per city"))
    cost = assignment_cost(p, new, t, o)
    if cost > p["coins"]:
        problems.append((f"рост армии и флота стоит {count_ru(cost, COINS)}, а в казне {count_ru(p['coins'], COINS)}",
                         f"raising army and fleet costs {cost} coins, you have {p['coins']}"))
    return problems


def _attack(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
            choice: Mapping[str, Any], names: Names) -> list[Why]:
    target = choice.get("target")
    if target is None:
        return []
    if target not in rivals(state, player):
        return [("нет такого противника", "no such opponent")]
    if target in pending.get("tried", []):
        return [(f"нападение на {names.case(target, 'accs')} в этот ход уже не удалось",
                 f"the attack on {target} already failed this turn")]
    return []


def _ally(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
          choice: Mapping[str, Any], names: Names) -> list[Why]:
    side = choice.get("side")
    if side is None:
        return []
    if side not in ("attacker", "defender"):
        return [("сторона: нападающий или обороняющийся", "side: attacker or defender")]
    p = state["players"][player]
    problems: list[Why] = []
    for key, have in (("army", p["pop"]["army"]), ("fleet", p["pop"]["fleet"]), ("generals", generals(p))):
        n = int(choice.get(key, 0))
        if n < 0 or n > have:
            ru_noun, en_noun = FORCES[key]
            problems.append((f"{counted(n, ru_noun)} не послать: у вас {counted(have, ru_noun, case='gent')}"
                             if have else f"{counted(n, ru_noun)} не послать: у вас их нет",
                             f"cannot send {counted(n, en_noun, 'en')}: you have {have}"))
    return problems


def _tribute(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
             choice: Mapping[str, Any], names: Names) -> list[Why]:
    kind = choice["kind"]
    if kind not in pending["options"]:
        return [("такую дань взять нельзя", "that tribute cannot be taken")]
    loser = pending["defender"]
    d = state["players"][loser]
    if kind == "city" and choice.get("target") not in [c["name"] for c in d["cities"]]:
        return [(f"у {names.case(loser, 'gent')} нет города «{choice.get('target')}»",
                 f"{loser} has no city '{choice.get('target')}'")]
    if kind == "resource" and d["resources"].get(choice.get("target"), 0) <= 0:
        return [(f"у {names.case(loser, 'gent')} нет ресурса «{t.name(str(choice.get('target')))}»",
                 f"{loser} has no {t.name(str(choice.get('target')), 'en')}")]
    return []


def item_problems(state: Mapping[str, Any], t: Tables, o: Options, owner: str,
                  items: Sequence[Mapping[str, Any]], names: Names | None = None, me: str | None = None,
                  ) -> list[Why]:
    """Whether ``owner`` holds everything in ``items`` (amounts add up); the reasons name him
    declined («у Любови только 2 монеты»), or «вы» when he is ``me``, who wrote the offer."""
    names = names or Names(lang="ru")
    whose = "вас" if owner == me else names.case(owner, "gent")
    knows_not = "вы не знаете" if owner == me else f"{names.subject(owner, capital=True)} не знает"
    p = state["players"][owner]
    problems: list[Why] = []
    totals: dict[str, int] = {}
    for item in items:
        kind = item["kind"]
        if kind not in ITEM_KINDS:
            problems.append((f"нельзя торговать «{kind}»", f"cannot trade '{kind}'"))
            continue
        key = item.get("key")
        if kind in ("coins", "food", "labour", "population"):
            count = int(item.get("amount", 0))
            if count <= 0:
                problems.append(("количество должно быть больше нуля", "the amount must be above zero"))
            totals[kind] = totals.get(kind, 0) + count
        elif kind == "city" and key not in [c["name"] for c in p["cities"]]:
            problems.append((f"у {whose} нет города «{key}»", f"{owner} has no city '{key}'"))
        elif kind == "tech" and key not in p["techs"]:
            problems.append((f"{knows_not} технологии «{t.name(str(key))}»",
                             f"{owner} does not know '{t.name(str(key), 'en')}'"))
        elif kind == "leader":
            totals["leader:" + str(key)] = totals.get("leader:" + str(key), 0) + 1
        elif kind == "resource":
            totals["res:" + str(key)] = totals.get("res:" + str(key), 0) + 1
        elif kind == "promise" and not str(key or "").strip():
            problems.append(("обещание без текста", "a promise without text"))
    per_worker = 1 + sum(t.techs.technologies[x].labour_per_worker for x in p["techs"])
    have = {"coins": p["coins"], "food": p["food"], "population": population(p),
            "labour": max(0, per_worker * p["pop"]["workers"] + p["labour_credit"])}
    for key, wanted in totals.items():
        if key.startswith("leader:"):
            available = p["leaders"].count(key[7:])
            if wanted > available:
                leader = t.name(key[7:])
                problems.append((f"у {whose} нет лидера «{leader}»" if not available else
                                 f"у {whose} только {counted(available, 'лидер')} «{leader}»",
                                 f"{owner} has {available} {t.name(key[7:], 'en')} leaders"))
        elif key.startswith("res:"):
            available = int(p["resources"].get(key[4:], 0))
            if wanted > available:
                resource = t.name(key[4:])
                problems.append((f"у {whose} нет ресурса «{resource}»" if not available else
                                 f"у {whose} только {counted(available, 'уровень')} ресурса «{resource}»",
                                 f"{owner} has {available} of {t.name(key[4:], 'en')}"))
        elif wanted > have[key]:
            available = have[key]
            problems.append((f"у {whose} только {amount(key, available)}" if available else
                             f"у {whose} нет {AMOUNT_GENITIVE[key]}",
                             f"{'you have' if owner == me else owner + ' has'} only {amount(key, available, 'en')}"))
    return problems


def _offer(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
           choice: Mapping[str, Any], names: Names) -> list[Why]:
    to = choice.get("to")
    if to is None:
        return []
    if to == player:
        return [("торговать с самим собой нельзя: назовите другого игрока", "you cannot trade with yourself")]
    if to not in rivals(state, player):
        return [("нет такого игрока", "no such player")]
    give, take = list(choice.get("give", [])), list(choice.get("take", []))
    if not give and not take:
        return [("пустое предложение: что вы даёте и что просите?", "an empty offer: what do you give and take?")]
    for item in take:
        if item["kind"] == "tech" and item.get("key") in state["players"][player]["techs"]:
            return [(f"технологию «{t.name(str(item['key']))}» вы уже знаете",
                     f"you already know {t.name(str(item['key']), 'en')}")]
    return (item_problems(state, t, o, player, give, names, me=player)
            + item_problems(state, t, o, to, take, names, me=player))


def _reply(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
           choice: Mapping[str, Any], names: Names) -> list[Why]:
    if not isinstance(choice["accept"], bool):
        return [("ответ: принять или отклонить", "answer: accept or decline")]
    return []


def _build(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
           choice: Mapping[str, Any], names: Names) -> list[Why]:
    """ФАЗА СТРОИТЕЛЬСТВА: labour goes to a city, a wonder, a resource roll or an
    industrial resource; no more than the labour of this turn."""
    p = state["players"][player]
    problems: list[Why] = []
    total = 0
    for part in choice["alloc"]:
        kind, target, labour = part["project"], part.get("target"), int(part["labour"])
        total += labour
        if labour < 0:
            problems.append(("труд не может быть отрицательным", "labour cannot be negative"))
        if kind not in PROJECTS:
            problems.append((f"нет такой постройки «{kind}»", f"no such project '{kind}'"))
        elif kind == "wonder":
            city = part.get("city")
            if city is not None:
                mine = {c["name"]: c for c in p["cities"]}
                planned = {x.get("name") for x in p["projects"] if x["project"] == "city"}
                if city in mine and mine[city].get("wonder"):
                    problems.append((f"в городе {city} уже есть чудо («Разрешается строить только 1 Чудо в 1 Городе»)",
                                     f"{city} already has a wonder (one wonder per city)"))
                elif city not in mine and city not in planned:
                    problems.append((f"у вас нет города «{city}»", f"you have no city '{city}'"))
            if target not in t.wonders.wonders:
                problems.append(("нет такого чуда", "no such wonder"))
            elif not wonder_available(state, p, target, t) and not any(
                    x["project"] == "wonder" and x.get("target") == target for x in p["projects"]):
                problems.append((f"чудо «{t.name(target)}» сейчас строить нельзя (уже построено, нет "
                                 "требования или свободного города)",
                                 f"the {t.name(target, 'en')} cannot be built now (already built, "
                                 "requirement missing, or no city without a wonder)"))
        elif kind == "industrial":
            if target not in t.resources.industrial:
                problems.append(("нет такого промышленного ресурса", "no such industrial resource"))
            elif target not in industrial_options(p, t, o):
                problems.append((f"для ресурса «{t.name(target)}» не выполнены требования",
                                 f"the requirements of {t.name(target, 'en')} are not met"))
        elif kind == "city" and part.get("name"):
            taken = {c["name"].lower() for q in state["players"].values() for c in q["cities"]}
            if str(part["name"]).lower() in taken:
                problems.append(("город с таким названием уже есть", "a city of that name exists"))
    if total > pending["labour"]:
        problems.append((f"назначено {amount('labour', total)}, а в этот ход есть только {pending['labour']}",
                         f"{total} labour assigned but only {pending['labour']} available"))
    return problems


def _research(state: Mapping[str, Any], t: Tables, o: Options, player: str, pending: Mapping[str, Any],
              choice: Mapping[str, Any], names: Names) -> list[Why]:
    p = state["players"][player]
    picks, buys = list(choice.get("picks", [])), list(choice.get("buy", []))
    problems: list[Why] = []
    # "он может выбрать другую": a free choice may be left unused, never exceeded.
    if len(picks) > pending["picks"]:
        problems.append((f"выбрано {counted(len(picks), 'технология')}, а свободных выборов — {pending['picks']}",
                         f"choose at most {pending['picks']} technologies"))
    if len(set(picks + buys)) != len(picks + buys):
        problems.append(("технология названа дважды", "a technology is named twice"))
    for tech in picks:
        if tech not in t.techs.technologies or tech in p["techs"]:
            problems.append((f"«{t.name(tech)}» нельзя выбрать", f"'{t.name(tech, 'en')}' cannot be chosen"))
    elsewhere = known_elsewhere(state, player)
    for tech in buys:
        if tech not in elsewhere:
            problems.append((f"«{t.name(tech)}» не знает никто другой (или вы её знаете)",
                             f"no other player knows '{t.name(tech, 'en')}' (or you know it)"))
    price = t.rules.research.purchase_coins
    if price * len(buys) > p["coins"]:
        problems.append((f"покупка стоит {count_ru(price * len(buys), COINS)}, а в казне {count_ru(p['coins'], COINS)}",
                         f"buying costs {price * len(buys)} coins, you have {p['coins']}"))
    if o.purchases_per_turn and len(buys) > o.purchases_per_turn:
        problems.append((f"не больше {o.purchases_per_turn} покупок за ход",
                         f"at most {o.purchases_per_turn} purchases a turn"))
    return problems


CHECKS = {
    "culture": _culture,
    "industrial": _industrial,
    "assign": _assign,
    "attack": _attack,
    "ally": _ally,
    "tribute": _tribute,
    "offer": _offer,
    "reply": _reply,
    "build": _build,
    "research": _research,
}


def default_choice(state: Mapping[str, Any], tables: Tables, options: Options, player: str) -> Choice:
    """A sensible legal answer for a player who sent none: keep things as they are,
    attack nobody, trade nothing, keep building what is under way."""
    pending = prompt_of(state, player)
    if pending is None:
        return {}
    kind = pending["kind"]
    p = state["players"][player]
    if kind == "culture":
        return {"culture": sorted(tables.cultures.cultures, key=lambda c: tables.cultures.cultures[c].d20)[0]}
    if kind == "industrial":
        return {"resource": pending["options"][0]}
    if kind == "assign":
        return {"pop": dict(p["pop"])}
    if kind == "attack":
        return {"target": None}
    if kind == "ally":
        return {"side": None}
    if kind == "tribute":
        d = state["players"][pending["defender"]]
        pick = pending["options"][0]
        target = None
        if pick == "city":
            target = d["cities"][0]["name"]
        elif pick == "resource":
            target = sorted(r for r, n in d["resources"].items() if n > 0)[0]
        return {"kind": pick, "target": target}
    if kind == "offer":
        return {"to": None}
    if kind == "reply":
        return {"accept": False}
    if kind == "build":
        return {"alloc": default_alloc(state, tables, options, player, pending["labour"])}
    if kind == "research":
        unknown = [x for x in tables.techs.technologies if x not in p["techs"]]
        return {"picks": unknown[: pending["picks"]], "buy": []}
    return {}


def default_alloc(state: Mapping[str, Any], tables: Tables, options: Options, player: str,
                  labour: int) -> list[dict[str, Any]]:
    """Labour to the projects under way, oldest first, each up to what it still needs, and the
    rest toward resource rolls: nothing is lost."""
    p = state["players"][player]
    alloc: list[dict[str, Any]] = []
    for project in p["projects"]:
        if labour <= 0:
            break
        kind, target = project["project"], project.get("target")
        if kind == "wonder" and not wonder_available(state, p, target, tables):
            continue
        if kind == "industrial" and target not in industrial_options(p, tables, options):
            continue
        need = project_labour(p, kind, target, tables, options) - int(project["labour"])
        if need <= 0:
            continue
        put = min(need, labour)
        alloc.append({"project": kind, "target": target, "name": project.get("name"), "labour": put})
        labour -= put
    if labour > 0:
        alloc.append({"project": "resource", "target": None, "name": None, "labour": labour})
    return alloc


def build_losses(state: Mapping[str, Any], tables: Tables, options: Options, player: str,
                 choice: Mapping[str, Any]) -> list[tuple[int | None, str, str]]:
    """The labour a legal building answer loses, as the building phase will lose it: per line
    (its index in ``choice["alloc"]``), what a wonder or a named city cannot take, and (index
    ``None``) the labour no line assigns ("Неназначенные единицы Труда теряются")."""
    pending = prompt_of(state, player)
    if pending is None or pending["kind"] != "build":
        return []
    p = state["players"][player]
    alloc = list(choice.get("alloc", []))
    plan = plan_build(p, alloc, int(pending["labour"]), tables, options)
    found: list[tuple[int | None, str, str]] = []
    for index, (part, over) in enumerate(zip(alloc, plan.over, strict=True)):
        if not over:
            continue
        title_ru, title_en = project_title(part, tables, "ru"), project_title(part, tables, "en")
        need = int(part["labour"]) - over
        lost = amount("labour", over)
        if need:
            found.append((index, f"проекту «{title_ru}» нужно ещё только {amount('labour', need)}: лишний труд "
                                 f"пропадёт ({lost})",
                          f"'{title_en}' needs only {need} more labour: the other {over} will be lost"))
        else:
            found.append((index, f"у проекта «{title_ru}» труда уже хватает (он ждёт монет): лишний труд пропадёт "
                                 f"({lost})",
                          f"'{title_en}' has all its labour (it waits for coins): {over} labour will be lost"))
    if plan.unassigned:
        found.append((None, f"пропадёт труд, не назначенный ни одному проекту: {plan.unassigned} из "
                            f"{amount('labour', int(pending['labour']), case='gent')} («Неназначенные единицы Труда "
                            "теряются»)",
                      f"{plan.unassigned} of {pending['labour']} labour assigned to nothing will be lost "
                      "(unassigned labour is lost)"))
    return found


__all__ = ["CHECKS", "ITEM_KINDS", "MILITARY", "PROJECTS", "build_losses", "check", "prefs_problems", "default_choice", "item_problems",
           "prompt_of"]
