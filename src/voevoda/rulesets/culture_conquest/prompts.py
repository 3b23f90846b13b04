"""What each awaited player is asked, in Russian and English, with the legal options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from voevoda.core.ruleset import Prompt
from voevoda.core.words import Names

from .data import Tables
from .game import (
    CATEGORIES,
    CATEGORY_NAMES,
    Options,
    amount,
    city_cost,
    industrial_options,
    known_elsewhere,
    military_cost,
    population,
    preferred,
    project_labour,
    project_title,
    scholar_cap,
    wonder_available,
    wonder_cost,
)
from .phases import attack_targets


def prompt_for(state: Mapping[str, Any], player: str, t: Tables, o: Options, names: Names | None = None) -> Prompt:
    """The question ``player`` is asked now; ``names`` declines the players it names (with the
    genders of the game's config)."""
    names = names or Names(lang="ru")
    pending = state["pending"]
    kind = pending["kind"]
    p = state["players"][player]
    head_ru = f"Ход {state['turn']}. "
    head_en = f"Turn {state['turn']}. "

    def table_names(keys: list[str], lang: str) -> str:
        return ", ".join(t.name(k, lang) for k in keys)

    if kind == "culture":
        keys = sorted(t.cultures.cultures, key=lambda c: t.cultures.cultures[c].d20)
        return Prompt(kind, "На Таблице Культур выпало 16+: выберите культуру («культура Египетская»).",
                      "You rolled 16+ on the culture table: choose a culture ('culture Egyptian').",
                      [t.name(k) for k in keys])
    if kind == "industrial":
        keys = list(pending["options"])
        return Prompt(kind, head_ru + f"Выберите промышленный ресурс («ресурс …»): {table_names(keys, 'ru')}.",
                      head_en + f"Choose an industrial resource ('resource …'): {table_names(keys, 'en')}.",
                      [t.name(k) for k in keys])
    if kind == "assign":
        def losses(lang: str) -> str:
            ru = lang == "ru"
            order = ", ".join(CATEGORY_NAMES[c][0].lower() if ru else c
                              for c in preferred(p, "losses", t.rules.upkeep.loss_order))
            battle = ", ".join(CATEGORY_NAMES[c][0].lower() if ru else c
                               for c in preferred(p, "battle", t.rules.war.casualty_order))
            if ru:
                return (f"Кого терять первыми: {order}; в бою: {battle} (поменять: «потери: рабочие, торговцы», "
                        "«потери в бою: флот», «дезертиры: армия» — строкой в любом ответе).")
            return (f"Lost first: {order}; in battle: {battle} (to change: 'losses: workers, merchants', "
                    "'battle losses: fleet', 'deserters: army', a line in any answer).")

        now_ru = ", ".join(f"{CATEGORY_NAMES[c][0].lower()} {p['pop'][c]}" for c in CATEGORIES)
        now_en = ", ".join(f"{c} {p['pop'][c]}" for c in CATEGORIES)
        army, fleet = military_cost(p, "army", t, o), military_cost(p, "fleet", t, o)
        limit = t.rules.assignment.max_change
        return Prompt(
            kind,
            head_ru + f"Распределите население ({population(p)}): сейчас {now_ru}. Каждая категория "
            f"меняется не более чем на {limit}; +1 армия стоит {amount('coins', army, case='accs')}, +1 флот — "
            f"{amount('coins', fleet, case='accs')}; учёных не больше {scholar_cap(p, t)}. В казне "
            f"{amount('coins', p['coins'])}. Пример: «армия 2, земледельцы 6». {losses('ru')}",
            head_en + f"Assign your population ({population(p)}): now {now_en}. Each category moves by "
            f"at most {limit}; +1 army costs {army} coins, +1 fleet {fleet}; at most {scholar_cap(p, t)} "
            f"scholars. Coins: {p['coins']}. Example: 'army 2, farmers 6'. {losses('en')}",
            list(CATEGORIES))
    if kind == "attack":
        targets = attack_targets(state, player)
        return Prompt(kind, head_ru + f"Напасть? («напасть на <игрока>» или «мир»; цели: {', '.join(targets)}). "
                      "Нужно 5+ на 1d6 (+1 с Генералом).",
                      head_en + f"Attack? ('attack <player>' or 'peace'; targets: {', '.join(targets)}). "
                      "Needs 5+ on 1d6 (+1 with a General).", targets)
    if kind == "ally":
        a, d = pending["attacker"], pending["defender"]
        return Prompt(kind, head_ru + f"{names.subject(a, capital=True)} нападает на {names.case(d, 'accs')}. "
                      "Пошлёте войска? («за нападающего армия 2, флот 1» или «за обороняющегося …», или "
                      "«нейтралитет»).",
                      head_en + f"{a} attacks {d}. Send forces? ('join attacker army 2, fleet 1', "
                      "'join defender …' or 'neutral').", [a, d])
    if kind == "tribute":
        d = pending["defender"]
        return Prompt(kind, head_ru + f"{names.act(d, 'потерял')} все армии. Дань («дань монеты», «дань город "
                      "<название>», «дань население», «дань ресурс <название>»).",
                      head_en + f"{d} lost every army. Tribute ('tribute coins', 'tribute city <name>', "
                      "'tribute population', 'tribute resource <name>').", list(pending["options"]))
    if kind == "offer":
        return Prompt(kind, head_ru + "Торговля: «предложить <игроку>: даю 10 монет, технологию «Философия»; "
                      "прошу 5 единиц пищи» или «конец торговли».",
                      head_en + "Trade: 'offer <player>: give 10 coins, tech Philosophy; take 5 food' or "
                      "'no trade'.", [x for x in state["order"] if x != player])
    if kind == "reply":
        offer = pending.get("offer", {})
        from .report import Lines

        ru_lines, en_lines = Lines(t, "ru", names, state["order"]), Lines(t, "en", None, state["order"])
        ru_lines.viewer = en_lines.viewer = player
        text_ru = ru_lines.offer(offer).split(": ", 1)[1] if offer else ""
        text_en = en_lines.offer(offer).split(": ", 1)[1] if offer else ""
        return Prompt(kind, head_ru + f"{names.subject(str(offer.get('from', '')), capital=True)} {text_ru[:1].lower()}"
                      f"{text_ru[1:]}. Ответ: «принять» или «отклонить».",
                      head_en + f"{offer.get('from', '')} {text_en[:1].lower()}{text_en[1:]}. 'accept' or 'decline'.",
                      ["принять", "отклонить"])
    if kind == "build":
        labour = pending["labour"]
        c_l, c_c = city_cost(p, t, o)
        wonders = [w for w in t.wonders.wonders if wonder_available(state, p, w, t)]
        w_ru = "; ".join(f"{t.name(w)} — {amount('labour', wonder_cost(p, w, t, o)[0])} и "
                         f"{amount('coins', wonder_cost(p, w, t, o)[1])}" for w in wonders)
        w_en = "; ".join(f"{t.name(w, 'en')} {'/'.join(map(str, wonder_cost(p, w, t, o)))}" for w in wonders)
        def under_way(lang: str) -> str:
            def one(x: Mapping[str, Any]) -> str:
                need = project_labour(p, x["project"], x.get("target"), t, o)
                # a city or wonder with all its labour waits for its coins
                waits = (" (ждёт монет)" if lang == "ru" else " (waiting for coins)") if (
                    x["labour"] >= need and x["project"] in ("city", "wonder")) else ""
                return f"{project_title(x, t, lang)} {x['labour']}/{need}{waits}"

            # projects of one kind («ресурс» twice: two rolls) are named once: «ресурс 6/20 и 3/20»
            told: dict[str, list[str]] = {}
            for x in p["projects"]:
                title = project_title(x, t, lang)
                told.setdefault(title, []).append(one(x)[len(title) + 1:])
            joiner = " и " if lang == "ru" else " and "
            return ", ".join(f"{title} {joiner.join(parts)}" for title, parts in told.items()) or "—"

        return Prompt(
            kind,
            head_ru + f"Труд этого хода: {amount('labour', labour)}. В работе: {under_way('ru')}. Цена: город — "
            f"{amount('labour', c_l)} и {amount('coins', c_c)}; бросок на природный ресурс — "
            f"{amount('labour', t.rules.building.resource_labour)}; промышленный ресурс — "
            f"{amount('labour', t.rules.building.industrial_labour)}; чудеса: {w_ru or 'нет доступных'}. Пример: "
            f"«город 30», «чудо Пирамиды 20 город {p['cities'][0]['name'] if p['cities'] else 'Фивы'}», "
            "«ресурс 20», «промресурс Вино 25».",
            head_en + f"Labour this turn: {labour}. Under way: {under_way('en')}. City {c_l} labour/{c_c} coins; "
            f"resource {t.rules.building.resource_labour}; industry {t.rules.building.industrial_labour}; "
            f"wonders: {w_en or 'none'}. Example: 'city 30', 'wonder Pyramids 20 city "
            f"{p['cities'][0]['name'] if p['cities'] else 'Thebes'}', 'resource 20'.",
            ["city", "wonder", "resource", "industrial"] + [t.name(w) for w in wonders]
            + [t.name(x) for x in industrial_options(p, t, o)])
    # research
    picks = pending["picks"]
    buyable = known_elsewhere(state, player)
    price = t.rules.research.purchase_coins
    return Prompt(
        kind,
        head_ru + f"Исследования: свободных выборов технологии: {picks} («выбрать <технологию>»); купить за "
        f"{amount('coins', price, case='accs')} (в казне {amount('coins', p['coins'])}) можно: "
        f"{table_names(buyable, 'ru') or 'нечего'} («купить <технологию>»); или «пропустить».",
        head_en + f"Research: free technology choices: {picks} ('choose <technology>'); buyable for {price} coins "
        f"(you have {p['coins']}): {table_names(buyable, 'en') or 'nothing'} ('buy <technology>'); or 'pass'.",
        [t.name(x) for x in t.techs.technologies if x not in p["techs"]])
