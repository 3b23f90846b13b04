"""Orders that break document 003 are refused with the rule they break."""

from __future__ import annotations

from tests.rulesets.ring_of_power.rop_helpers import make_game


def _problems(text: str, **given):  # type: ignore[no-untyped-def]
    ruleset, state = make_game(**given)
    orders = ruleset.parse(text, "A", state)
    return ruleset.validate(state, "A", orders)


BASE = {"holdings": {"0505": "A", "2020": "B"}, "units": [["A", "officer", "0505"], ["B", "pawn", "2020"]]}


def test_at_most_three_steps() -> None:
    """003 «Приказ на перемещение»: «и так не более трех раз в общей сложности»."""
    assert not _problems("ход 0505 0506 0507 0508", **BASE)
    (p,) = _problems("ход 0505 0506 0507 0508 0509", **BASE)
    assert p.kind == "illegal" and p.line == 1 and "3" in p.message_ru and p.rule and p.rule.startswith("003")


def test_steps_go_to_neighbours() -> None:
    """003 «Приказ на перемещение»: «из того гекса ... в любой соседний гекс. Из соседнего в
    другой соседний»."""
    (p,) = _problems("ход 0505 0507", **BASE)
    assert "0507" in p.message_en


def test_units_must_be_there() -> None:
    """003 «Приказ на перемещение»: the arrow starts «из того гекса, где расположен отряд»."""
    (p,) = _problems("ход 0303 0304", **BASE)
    assert "0303" in p.message_ru


def test_one_order_per_unit() -> None:
    """003 «Приказы»: «В ход один отряд может выполнить только один приказ»."""
    problems = _problems("ход 0505 0506\nподдержка 0505 0504 A\nроспуск 0505", **BASE)
    assert [p.line for p in problems if "один приказ" in p.message_ru] == [2, 3]


def test_support_goes_to_a_neighbour_with_units() -> None:
    """003 «Приказ на поддержку»: «в любой соседний гекс, в котором находятся отряды свои или
    другого игрока»."""
    assert _problems("поддержка 0505 0707 B", **BASE)
    assert _problems("поддержка 0505 0506 B", **BASE)
    given = {"holdings": BASE["holdings"], "units": [*BASE["units"], ["B", "pawn", "0506"]]}
    assert not _problems("поддержка 0505 0506 B", **given)
    assert not _problems("поддержка 0505 0506", **given)


def test_support_into_fog_is_not_checked() -> None:
    """003 «Видимость»: «Туман ... полностью скрывает видимость в этом гексе» — refusing an
    order because of what stands in the fog would tell what is there."""
    assert not _problems("поддержка 0505 0506 B", fog=["0506"], **BASE)


def test_raise_limits() -> None:
    """003 «Приказ на сбор пешек»: «Собрать пешек в гексе может только игрок, который
    контролирует этот гекс»; «Можно поднять не более 3 пешек за 1 ход»."""
    given = {"holdings": {"0505": "A", "0606": "A", "2020": "B"}, "units": [["B", "pawn", "2020"]]}
    assert not _problems("сбор 0606 3", **given)
    assert _problems("сбор 0606 4", **given)
    assert _problems("сбор 0707 1", **given)
    assert _problems("сбор 0606 1\nсбор 0606 1", **given)


def test_raise_limit_per_player_option() -> None:
    """003 «Приказ на сбор пешек»: «Можно поднять не более 3 пешек за 1 ход» — read per hex by
    default («в любом подконтрольном ему владении ... до 3 пешек»), per player under
    raise_limit = player."""
    given = {"holdings": {"0505": "A", "0606": "A", "2020": "B"}, "units": [["B", "pawn", "2020"]]}
    assert not _problems("сбор 0505 2\nсбор 0606 2", **given)
    (p,) = _problems("сбор 0505 2\nсбор 0606 2", config={"raise_limit": "player"}, **given)
    assert p.line == 2


def test_raise_must_stay_commandable() -> None:
    """003 «Фишки»: «Пешка ... Может командовать только двумя другими такими же пешками» — two
    pawns standing alone cannot take two more."""
    given = {"holdings": {"0505": "A", "2020": "B"},
             "units": [["A", "pawn", "0505"], ["A", "pawn", "0505"], ["B", "pawn", "2020"]]}
    assert not _problems("сбор 0505 1", **given)
    assert _problems("сбор 0505 2", **given)


def test_upgrade_needs_pawns() -> None:
    """003 «Приказ на улучшение пешек»: «гекс, в котором есть отряды, контролируемые игроком»
    — and pawns among them."""
    assert _problems("улучшить 0505", **BASE)
    given = {"holdings": BASE["holdings"], "units": [*BASE["units"], ["A", "pawn", "0505"]]}
    assert not _problems("улучшить 0505 1", **given)
    assert _problems("улучшить 0505 2", **given)


def test_transfers() -> None:
    """003 «Приказ на перевод денег»: «указать плательщика, получателя, сумму» — only from
    oneself, to a player or the Treasury."""
    assert not _problems("перевод 10 B", **BASE)
    assert _problems("перевод 10 A", **BASE)
    assert _problems("Плательщик: B, Получатель: Казна, Сумма: 10", **BASE)


def test_bids_only_when_condottieri_are_on_offer() -> None:
    """003 «Владения»: «Найм Кондотьеров имеет свою цену» — a bid needs a band on offer and a
    holding of the bidder to come to."""
    assert _problems("ставка 30 0505", **BASE)
    offer = {"id": 1, "turn": 1, "size": 3, "upkeep": 2}
    assert not _problems("ставка 30 0505", offer=offer, **BASE)
    assert _problems("ставка 5 0505", offer=offer, **BASE)
    assert _problems("ставка 30 2020", offer=offer, **BASE)


def test_resolve_drops_an_illegal_order_and_keeps_the_rest() -> None:
    """An order that breaks a rule is not executed; the player's other orders are."""
    from voevoda.core.dice import Dice

    ruleset, state = make_game(**BASE)
    orders = ruleset.parse("ход 0303 0304\nход 0505 0506", "A", state)
    result = ruleset.resolve(state, {"A": orders, "B": []}, Dice.from_text("x"))
    assert [u["hex"] for u in result.state["units"] if u["owner"] == "A"] == ["0506"]
    assert [e.kind for e in result.events].count("order_rejected") == 1
