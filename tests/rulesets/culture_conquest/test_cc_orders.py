"""Posts in Russian and English for every prompt (docs/culture_conquest.md), and the
problems a bad post gets: line, column, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from voevoda.core.errors import ParseError
from voevoda.rulesets.culture_conquest import CultureConquest
from voevoda.rulesets.culture_conquest.orders import choice_from_orders, format_choice

from .helpers import make_state


@pytest.fixture(scope="module")
def rs() -> CultureConquest:
    return CultureConquest()


def asked(kind: str, player: str = "A", **extra: Any) -> dict[str, Any]:
    state = make_state({"A": {"coins": 30, "techs": ["engineering", "art"], "resources": {"stone": 1}},
                        "B": {"techs": ["writing"]}, "C": {}})
    state["pending"] = {"kind": kind, "players": [player], **extra}
    return state


def choice(rs: CultureConquest, state: dict[str, Any], text: str, player: str = "A") -> dict[str, Any]:
    orders = rs.parse(text, player, state)
    result, problems = choice_from_orders(state["pending"]["kind"], orders)
    assert not problems
    assert not rs.validate(state, player, orders), [p.both() for p in rs.validate(state, player, orders)]
    return result


def test_assignment_russian_and_english(rs: CultureConquest) -> None:
    """ФАЗА РАСПРЕДЕЛЕНИЯ НАСЕЛЕНИЯ: «Армия, Флот, Земледелие, Торговля, Ремесло, Ученые»."""
    state = asked("assign")
    ru = choice(rs, state, "Армия 2, земледельцы 5\nрабочие 2; учёные 1")
    en = choice(rs, state, "army 2, farmers 5, workers 2, scholars 1")
    assert ru == en == {"pop": {"army": 2, "farmers": 5, "workers": 2, "scholars": 1}}


def test_assignment_error_names_line_and_column(rs: CultureConquest) -> None:
    """A post is read whole and each problem names its line and column in both languages."""
    state = asked("assign")
    with pytest.raises(ParseError) as caught:
        rs.parse("армия 2\n  колесницы 3\nфлот x", "A", state)
    problems = caught.value.problems
    assert [(p.line, p.column) for p in problems] == [(2, 3), (3, 1)]
    assert "категория" in problems[0].message_ru and "category" in problems[0].message_en
    assert caught.value.understood == ["армия 2"]


def test_assignment_over_the_limit_is_illegal(rs: CultureConquest) -> None:
    """«Каждая категория не может быть увеличена или уменьшена более чем на 5»."""
    state = asked("assign")
    orders = rs.parse("земледельцы 3, рабочие 7", "A", state)
    problems = rs.validate(state, "A", orders)
    assert problems and all(p.kind == "illegal" for p in problems)


def test_attack_and_peace(rs: CultureConquest) -> None:
    """ФАЗА ВОЕННЫХ ДЕЙСТВИЙ: «Игрок может напасть на 1 противника» — or not attack at all."""
    state = asked("attack", tried=[])
    assert choice(rs, state, "напасть на B") == {"target": "B"}
    assert choice(rs, state, "attack c") == {"target": "C"}
    assert choice(rs, state, "мир") == {"target": None}


def test_ally_by_side_or_by_name(rs: CultureConquest) -> None:
    """«Другие игроки могут посылать Армии, Флота и Генералов участвовать за одну из сторон»."""
    state = asked("ally", player="C", attacker="A", defender="B")
    state["players"]["C"]["pop"].update(army=3, farmers=7)
    assert choice(rs, state, "за обороняющегося армия 2", "C") == {"side": "defender", "army": 2, "fleet": 0,
                                                                    "generals": 0}
    assert choice(rs, state, "join A army 1", "C")["side"] == "attacker"
    assert choice(rs, state, "нейтралитет", "C") == {"side": None}
    orders = rs.parse("за B армия 5", "C", state)
    assert rs.validate(state, "C", orders), "only 3 armies to send"


def test_trade_offer_all_item_kinds(rs: CultureConquest) -> None:
    """ФАЗА ТОРГОВЛИ: «Монетами, пищей, трудом, населением, городами, технологиями, Лидерами,
    ресурсами и обещаниями»."""
    state = asked("offer", made=0)
    state["players"]["A"]["food"] = 5
    state["players"]["A"]["leaders"] = ["thinker"]
    got = choice(rs, state, "предложить B: даю 10 монет, 5 пищи, технология Искусство, лидер Мыслитель, "
                            "ресурс Камень, обещание не нападать 5 ходов; прошу технология Письменность")
    assert got["to"] == "B"
    assert [i["kind"] for i in got["give"]] == ["coins", "food", "tech", "leader", "resource", "promise"]
    assert got["take"] == [{"kind": "tech", "key": "writing"}]
    en = choice(rs, state, "offer B: give 2 population; take city B-1")
    assert en["give"] == [{"kind": "population", "amount": 2}] and en["take"] == [{"kind": "city", "key": "B-1"}]
    assert choice(rs, state, "конец торговли") == {"to": None}


def test_reply(rs: CultureConquest) -> None:
    """ФАЗА ТОРГОВЛИ: the partner accepts or declines, in Russian or English."""
    state = asked("reply", player="B", offer={"from": "A", "to": "B", "give": [], "take": []}, made=1)
    assert choice(rs, state, "Принять", "B") == {"accept": True}
    assert choice(rs, state, "decline", "B") == {"accept": False}


def test_building_lines(rs: CultureConquest) -> None:
    """ФАЗА СТРОИТЕЛЬСТВА: город, чудо, ресурс, промышленный ресурс."""
    state = asked("build", labour=60)
    got = choice(rs, state, "город 20 Новые Фивы\nчудо Пирамиды 15\nресурс 20\nпромресурс Скульптура 5")
    assert got["alloc"] == [
        {"project": "city", "target": None, "name": "Новые Фивы", "labour": 20},
        {"project": "wonder", "target": "pyramids", "name": None, "labour": 15},
        {"project": "resource", "target": None, "name": None, "labour": 20},
        {"project": "industrial", "target": "sculpture", "name": None, "labour": 5},
    ]
    orders = rs.parse("city 70", "A", state)
    assert rs.validate(state, "A", orders), "more labour than this turn's"


def test_research_lines(rs: CultureConquest) -> None:
    """ФАЗА ИССЛЕДОВАНИЙ: a free choice and a purchase «за 20 Монет»."""
    state = asked("research", picks=1)
    got = choice(rs, state, "выбрать Драма\nкупить Письменность")
    assert got == {"picks": ["drama"], "buy": ["writing"]}
    with pytest.raises(ParseError):
        rs.parse("выбрать Алхимия", "A", state)


def test_tribute_and_culture_and_industrial(rs: CultureConquest) -> None:
    """Дань «1 Город ... или 2D6 населения»; ТАБЛИЦА КУЛЬТУР «16+ -Игрок выбирает сам-»; «Промышленный Ресурс по вашему выбору»."""
    state = asked("tribute", defender="B", options=["city", "population"])
    assert choice(rs, state, "дань город B-1") == {"kind": "city", "target": "B-1"}
    assert choice(rs, state, "tribute population") == {"kind": "population", "target": None}
    state = asked("culture")
    assert choice(rs, state, "культура Римская") == {"culture": "roman"}
    assert choice(rs, state, "culture spartan") == {"culture": "spartan"}
    state = asked("industrial", options=["jewelry", "sculpture"])
    assert choice(rs, state, "ресурс Украшения") == {"resource": "jewelry"}


def test_posting_when_not_asked(rs: CultureConquest) -> None:
    """Phases run in turn: a player who is not asked anything cannot post."""
    state = asked("assign")
    with pytest.raises(ParseError):
        rs.parse("армия 1", "B", state)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_format_then_parse_round_trip(rs: CultureConquest, lang: str) -> None:
    """What a computer opponent writes is read back to the same choice."""
    samples = [
        ("assign", {"pop": {"army": 1, "farmers": 9}}, {}),
        ("build", {"alloc": [{"project": "wonder", "target": "pyramids", "name": None, "labour": 4}]}, {"labour": 5}),
        ("offer", {"to": "B", "give": [{"kind": "coins", "amount": 3}], "take": [{"kind": "tech", "key": "writing"}]},
         {"made": 0}),
        ("research", {"picks": ["drama"], "buy": ["writing"]}, {"picks": 1}),
    ]
    for kind, expected, extra in samples:
        state = asked(kind, **extra)
        text = format_choice(kind, expected, rs.tables, lang)
        assert choice(rs, state, text) == expected, text


def test_describe_echoes_each_understood_order(rs: CultureConquest) -> None:
    """Errors a person can act on: the understood orders are echoed back, one line each."""
    state = asked("build", labour=60)
    orders = rs.parse("город 20 Новые Фивы\nwonder pyramids 15", "A", state)
    assert [rs.describe(o, "ru") for o in orders] == ["город 20 Новые Фивы", "чудо Пирамиды 15"]
    assert [rs.describe(o, "en") for o in orders] == ["city 20 Новые Фивы", "wonder Pyramids 15"]
    state = asked("assign")
    (order,) = rs.parse("army 1, farmers 9", "A", state)
    assert rs.describe(order, "ru") == "армия 1, земледельцы 9"
    state = asked("research", picks=1)
    assert [rs.describe(o, "en") for o in rs.parse("выбрать драма\nкупить письменность", "A", state)] == [
        "choose Drama", "buy Writing"]


def test_building_echo_warns_of_every_lost_unit_of_labour(rs: CultureConquest) -> None:
    """ФАЗА СТРОИТЕЛЬСТВА, «Неназначенные единицы Труда теряются» and «Чудо ... за 100 единиц
    Труда» (issue 18 item 14): the echo names each line whose labour a project cannot take and the
    labour no line assigns, with the amounts the building phase will lose."""
    state = asked("build", labour=60)
    state["players"]["A"]["projects"] = [{"project": "wonder", "target": "pyramids", "labour": 70}]
    orders = rs.parse("ресурс 20\nчудо Пирамиды 35", "A", state)
    assert not rs.validate(state, "A", orders)
    warned = rs.warnings(state, "A", orders)
    # Stone takes 2 off the Pyramids' 100 (ruling 35): 28 more are needed, 7 are lost; 5 unassigned
    assert [(w.kind, w.line) for w in warned] == [("warning", 2), ("warning", None)]
    assert (warned[0].message_ru
            == "проекту «чудо Пирамиды» нужно ещё только 28 единиц труда: лишний труд пропадёт (7 единиц труда)")
    assert "'wonder Pyramids' needs only 28 more labour: the other 7 will be lost" in warned[0].message_en
    assert "пропадёт труд, не назначенный ни одному проекту: 5 из 60 единиц труда" in warned[1].message_ru
    assert rs.warnings(state, "A", rs.parse("ресурс 20\nресурс 20\nресурс 20", "A", state)) == []


def test_building_report_says_where_the_labour_went(rs: CultureConquest) -> None:
    """The report agrees with the echo: two rolls from one line, and the labour lost with why."""
    from voevoda.core.markup import render
    from voevoda.core.ruleset import Event

    event = Event("build", {"player": "A", "turn": 1, "alloc": [
        {"project": "resource", "target": None, "name": None, "labour": 40},
        {"project": "wonder", "target": "pyramids", "name": None, "labour": 35}],
        "placed": [2, 1], "over": [0, 7], "unassigned": 5, "lost": 12}, ("*",))
    state = asked("build", labour=60)
    ru = render(rs.document(rs.view(state, "A"), [event], "A", "ru", 1))
    en = render(rs.document(rs.view(state, "A"), [event], "A", "en", 1))
    assert ("Труд на стройку: на природный ресурс — 40 (2 проекта); на чудо «Пирамиды» — 35; пропало 12 "
            "(не назначено 5; 7 сверх нужного чуду «Пирамиды»)") in ru
    assert ("Labour to building: to a natural resource — 40 (2 projects); to the wonder Pyramids — 35; 12 wasted "
            "(5 not assigned; 7 beyond what the wonder Pyramids needed)") in en


def test_standing_loss_orders_in_any_answer(rs: CultureConquest) -> None:
    """Ruling 48 (issue 18 item 16): «потери: …», «потери в бою: …», «дезертиры: …» in Russian or
    English ride along with any answer; «по умолчанию» brings back the default."""
    state = asked("attack", tried=[])
    got = choice(rs, state, "мир\nПотери: рабочие, торговцы и учёные\nпотери в бою: флот\nдезертиры: армия")
    assert got == {"target": None, "prefs": {"losses": ["workers", "merchants", "scholars"], "battle": ["fleet"],
                                             "unpaid": ["army"]}}
    en = choice(rs, state, "peace\nlosses: workers, merchants, scholars\nbattle losses: fleet\ndeserters: army")
    assert en == got
    assert choice(rs, state, "мир\nпотери: по умолчанию")["prefs"] == {"losses": None}
    state = asked("assign")
    assert choice(rs, state, "армия 1, земледельцы 9\nlosses: farmers")["prefs"] == {"losses": ["farmers"]}
    orders = rs.parse("без изменений\nпотери в бою: флот, армия", "A", state)
    assert [rs.describe(o, "ru") for o in orders] == ["без изменений", "потери в бою: флот, армия"]
    assert [rs.describe(o, "en") for o in orders] == ["no change", "battle losses: fleet, army"]


def test_standing_loss_orders_errors(rs: CultureConquest) -> None:
    """A wrong standing order is refused with its line, column and the nearest words; a post of
    nothing but standing orders answers nothing and is refused (ruling 48)."""
    state = asked("attack", tried=[])
    cases = [("мир\nпотери: рабочие, жрецы", (2, 18), "не категория"),
             ("мир\nпотери в бою: армия, земледельцы", (2, 22), "только армии и флоты"),
             ("мир\nпотери: армия, армия", (2, 16), "дважды"),
             ("мир\nпотери:", (2, 8), "перечислите"),
             ("мир\nпотери: рабочие\nпотери: армия", (3, None), "дважды"),
             ("потери: рабочие", (1, None), "только правила потерь")]
    for text, (line, column), words in cases:
        try:  # how the lines make one answer is validate's (a follow-up's lines join the standing post's)
            problems = rs.validate(state, "A", rs.parse(text, "A", state))
        except ParseError as caught:
            problems = caught.problems
        problem = problems[0]
        assert (problem.line, problem.column if column else None) == (line, column), text
        assert words in problem.message_ru and problem.message_en, text
    with pytest.raises(ParseError) as caught:
        rs.parse("мир\nпотери: рабочии", "A", state)
    assert "«рабочие»?" in caught.value.problems[0].message_ru
    assert rs.reader.begins("Потери: рабочие", state) and not rs.reader.begins("Потери были тяжёлые", state)


def test_wonder_in_a_named_city(rs: CultureConquest) -> None:
    """«Разрешается строить только 1 Чудо в 1 Городе» — the builder names the city:
    «чудо Пирамиды 20 город Фивы» / "wonder Pyramids 20 city Thebes" (ruling 33)."""
    state = asked("build", labour=60)
    state["players"]["A"]["cities"].append({"name": "Фивы", "wonder": None})
    ru = choice(rs, state, "чудо Пирамиды 20 город фивы")
    en = choice(rs, state, "wonder Pyramids 20 city Фивы")
    assert ru == en == {"alloc": [{"project": "wonder", "target": "pyramids", "name": None, "labour": 20,
                                   "city": "Фивы"}]}
    assert format_choice("build", ru, rs.tables, "ru") == "чудо Пирамиды 20 город Фивы"
    with pytest.raises(ParseError) as caught:
        rs.parse("чудо Пирамиды 20 город Фиви", "A", state)
    assert "у вас нет города «Фиви»" in caught.value.problems[0].message_ru
    assert "«Фивы»?" in caught.value.problems[0].message_ru
    state["players"]["A"]["cities"][1]["wonder"] = "sphinx"
    orders = rs.parse("чудо Пирамиды 20 город Фивы", "A", state)
    assert any("уже есть чудо" in p.message_ru for p in rs.validate(state, "A", orders))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_standing_orders_round_trip(rs: CultureConquest, lang: str) -> None:
    """What a computer opponent would write with standing orders is read back to the same choice."""
    state = asked("assign")
    expected = {"pop": {"army": 1, "farmers": 9}, "prefs": {"losses": ["scholars", "workers"], "battle": ["fleet"],
                                                           "unpaid": None}}
    assert choice(rs, state, format_choice("assign", expected, rs.tables, lang)) == expected
