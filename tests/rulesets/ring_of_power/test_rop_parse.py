"""Reading posts: every order of document 003 «Приказы» in Russian and English, and
problems named with line and column."""

from __future__ import annotations

import pytest

from tests.rulesets.ring_of_power.rop_helpers import make_game
from voevoda.core.errors import ParseError
from voevoda.rulesets.ring_of_power.orders import TREASURY


def _parse(text: str, players: tuple[str, ...] = ("Анна", "Борис", "Игрок 1")) -> list:
    ruleset, state = make_game(players)
    return ruleset.parse(text, players[0], state)


def test_every_order_in_russian() -> None:
    """003 «Цены приказов»: перемещение, поддержка, роспуск, сбор пешек, улучшение пешек,
    перевод денег — each readable in Russian."""
    orders = _parse(
        "ход 0201 -> 0202 -> 0302\n"
        "поддержка 0303 -> 0304 Борис\n"
        "роспуск 0405\n"
        "сбор 0202 2\n"
        "улучшить 0506\n"
        "перевод 15 Борис: за проход\n"
        "налог 3\n"
        "вражда Борис, Игрок 1\n"
        "мир Игрок 1\n"
        "ставка 40 0303\n"
    )
    kinds = [o.kind for o in orders]
    assert kinds == ["move", "support", "disband", "raise", "upgrade", "transfer", "transfer",
                     "hostile", "neutral", "bid"]
    assert orders[0].args == {"from": "0201", "path": ["0202", "0302"]}
    assert orders[1].args == {"from": "0303", "to": "0304", "player": "Борис"}
    assert orders[3].args == {"hex": "0202", "count": 2}
    assert orders[4].args == {"hex": "0506", "count": None}
    assert orders[5].args == {"amount": 15, "to": "Борис", "reason": "за проход"}
    assert orders[6].args["to"] == TREASURY
    assert orders[7].args == {"players": ["Борис", "Игрок 1"]}
    assert orders[9].args == {"amount": 40, "hex": "0303"}


def test_every_order_in_english() -> None:
    """The same orders with English keywords (DESIGN: Russian and English keywords)."""
    orders = _parse(
        "move 0201 0202 0302\nsupport 0303 0304 Борис\ndisband 0405\nraise 0202 3\n"
        "upgrade 0506 1\ntransfer 15 to Борис: for passage\ntax 3\nhostile Борис\nneutral Борис\nbid 40 0303"
    )
    assert [o.kind for o in orders] == ["move", "support", "disband", "raise", "upgrade", "transfer",
                                        "transfer", "hostile", "neutral", "bid"]
    assert orders[5].args == {"amount": 15, "to": "Борис", "reason": "passage"}


def test_bare_arrow_is_a_move() -> None:
    """003 «Приказ на перемещение»: «необходимо нарисовать стрелочку» — an arrow alone moves."""
    (order,) = _parse("0201→0202→0203")
    assert order.kind == "move" and order.args == {"from": "0201", "path": ["0202", "0203"]}


def test_document_payment_form() -> None:
    """003 «Приказ на перевод денег»: «Плательщик: Игрок 1, Получатель: Казна, Сумма: 10,
    Основание: Налоги.» is read as written in the document."""
    (order,) = _parse("Плательщик: Игрок 1, Получатель: Казна, Сумма: 10, Основание: Налоги.",
                      ("Игрок 1", "Борис"))
    assert order.kind == "transfer"
    assert order.args == {"amount": 10, "to": TREASURY, "reason": "Налоги", "payer": "Игрок 1"}


def test_problems_name_line_and_column_and_keep_the_rest() -> None:
    """A post is read whole: each bad line is reported with its line and column in Russian and
    English, and the understood orders are echoed back."""
    with pytest.raises(ParseError) as caught:
        _parse("# план\nход 0201 02x2\nпрыгать 0101\nроспуск 0405\nперевод 10 Кощей")
    problems = caught.value.problems
    assert [(p.line, p.column) for p in problems] == [(2, 10), (3, 1), (5, 12)]
    assert all(p.kind == "invalid" and p.message_ru and p.message_en for p in problems)
    assert "02x2" in problems[0].message_ru and "02x2" in problems[0].message_en
    assert caught.value.understood == ["роспуск отрядов в 0405"]


def test_move_needs_a_step() -> None:
    """003 «Приказ на перемещение»: a move goes from a hex into a neighbouring one."""
    with pytest.raises(ParseError) as caught:
        _parse("ход 0201")
    assert caught.value.problems[0].line == 1


def test_raise_needs_a_count() -> None:
    """003 «Приказ на сбор пешек»: «написать внутри гекса количество пешек»."""
    with pytest.raises(ParseError):
        _parse("сбор 0202")
    (order,) = _parse("собрать 3 пешки в 0202")
    assert order.args == {"hex": "0202", "count": 3}
