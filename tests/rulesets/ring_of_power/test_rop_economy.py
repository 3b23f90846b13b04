"""The economy at the start and over a game (docs/rulings 3, 9, 10, 11; issue 18 item 5):
every number the document gives is in the data, the numbers it leaves open make the start pay
for itself, and the treasury curve the rulings record is the one the bots really play."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rulesets.ring_of_power import economy_curve
from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.dice import Dice
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.rules import load_rules
from voevoda.rulesets.ring_of_power.turn import percent_of, transfer_fee

RULINGS = Path(__file__).parents[3] / "docs" / "rulings" / "ring_of_power.md"


def test_every_number_of_the_document_is_in_the_data() -> None:
    """003: «Каждый ход перечислять 10% своего дохода» (tax); «на 10% ... на 20 % ... по 10 %»
    (hostility); «до 3 пешек», «понижен на 20% за каждую пешку» (raising); «Через 4 хода»
    (upgrade); «не более трех раз» (movement); «Потом стоит там ещё 1 ход» (capture);
    «группами по 3-5 отрядов» (condottieri); «захватит 7 соседних шестиугольников» (ring).
    The unit table and the prices are checked in test_rop_data."""
    r = load_rules()
    assert r.tax.percent == 10
    assert (r.income.hostile_gain, r.income.victim_loss, r.income.mutual_loss) == (10, 20, 10)
    assert (r.income.max_raise, r.income.raise_penalty) == (3, 20)
    assert r.upgrade.turns == 4 and r.movement.max_steps == 3 and r.capture.stand_turns == 1
    assert (r.condottieri.size_min, r.condottieri.size_max) == (3, 5)
    assert r.victory.ring_size == 7


def test_the_start_pays_for_itself() -> None:
    """docs/rulings 3 and 11: the document gives no income, so the base income is the least
    round sum at which a starting holding pays its starting army's upkeep even with the army
    standing in it (20 × 70% = 14 against 5 + 3 + 2 + 2 = 12); the treasury grows from turn 1."""
    ruleset = RingOfPower()
    state = ruleset.setup(["A", "B"], Dice.from_text("start"))
    upkeep = sum(ruleset.rules.units[u["type"]].upkeep for u in state["units"] if u["owner"] == "A")
    state, _ = play(ruleset, state, {})
    me = state["players"]["A"]
    assert me["last_income"] == 14 and upkeep == 12
    assert me["money"] == ruleset.rules.start.money + 14 - 12


def test_an_upgrade_is_affordable_early() -> None:
    """«Пешку можно сделать Офицером ... затрат денег» (30 a pawn): a player who marches his
    army out and does nothing else can pay an upgrade and a move on turn 2 and still his upkeep."""
    ruleset = RingOfPower()
    state = ruleset.setup(["A", "B"], Dice.from_text("upgrade"))
    state, _ = play(ruleset, state, {"A": "ход 0303 0304"})
    state, events = play(ruleset, state, {"A": "налог 2\nулучшить 0304 1"})
    assert "upgrade_started" in [e.kind for e in events] and "unpaid" not in [e.kind for e in events]
    assert state["players"]["A"]["money"] > 0


@pytest.mark.parametrize(("amount", "fee"), [(1, 0), (4, 0), (5, 1), (14, 1), (15, 2), (20, 2), (25, 3)])
def test_a_transfer_fee_is_ten_percent_to_the_nearest_coin(amount: int, fee: int) -> None:
    """003 «Цены приказов»: «Приказ на перевод денег — 10 % от суммы перевода», in whole coins
    to the nearest, a half coin up (docs/rulings 10): a tax of 1 no longer costs 2."""
    assert transfer_fee(0, amount, 10) == fee
    assert transfer_fee(0, amount, 10, "up") == (amount + 9) // 10


def test_splitting_a_transfer_saves_no_fee() -> None:
    """docs/rulings 9: the fee is 10% of the turn's transfers together, so four transfers of
    4 cost what one of 16 costs."""
    ruleset, state = make_game(holdings={"0101": "A", "2020": "B"})
    state, _ = play(ruleset, state, {"A": "перевод 4 B\nперевод 4 B\nперевод 4 B\nперевод 4 B"})
    fees = [e["amount"] for e in state["players"]["A"]["statement"] if e["item"] == "fee"]
    assert sum(fees) == -2 == -percent_of(16, 10)


def test_rounding_up_option() -> None:
    """rounding = up (the earlier reading, docs/rulings 10): a tax of 1 costs a coin of fee, and
    the tax due on an income of 14 is 2."""
    ruleset, state = make_game(config={"rounding": "up"}, holdings={"0101": "A", "2020": "B"},
                               units=[["A", "officer", "0101"], ["A", "pawn", "0101"], ["A", "pawn", "0101"]],
                               tax_due={"A": 1})
    state, _ = play(ruleset, state, {"A": "налог 1"})
    assert [e["amount"] for e in state["players"]["A"]["statement"] if e["item"] == "fee"] == [-1]
    assert state["players"]["A"]["last_income"] == 14 and state["players"]["A"]["tax_due"] == 2


def test_the_rulings_record_the_curve_the_bots_play() -> None:
    """docs/rulings 11 quotes the treasury curve of a 20-turn bot game under the defaults and
    the turn the same game ends with a ring; both are what the code plays today."""
    text = RULINGS.read_text(encoding="utf-8")
    assert economy_curve.table() in text
    match = re.search(r"complete their rings at turn (\d+)", text)
    assert match and int(match.group(1)) == economy_curve.ring_turn()
