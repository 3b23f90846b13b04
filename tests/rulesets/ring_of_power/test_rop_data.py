"""Rules as data: the numbers of document 003 in data/rules.toml, house rules over them,
maps from files, and options checked with the field named."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.ring_of_power.rop_helpers import make_game, play
from voevoda.core.errors import DataError, GameError
from voevoda.rulesets.ring_of_power import RingOfPower
from voevoda.rulesets.ring_of_power.rules import load_rules, read_map_file


def test_table_of_units_matches_the_document() -> None:
    """003 «Основные характеристики отрядов»: refund, upkeep, income influence and strength."""
    units = load_rules().units
    table = {k: (u.refund, u.upkeep, u.income_influence, u.strength) for k, u in units.items()}
    assert table["pawn"] == (10, 2, -10, 1)
    assert table["officer"] == (25, 3, -10, 3)
    assert table["queen"] == (35, 5, 0, 4)
    assert table["condottiere"][0] == 0 and table["condottiere"][2:] == (-30, 2)


def test_prices_match_the_document() -> None:
    """003 «Цены приказов»: 3, 3, 5, 1+10 per pawn, 30 per pawn, 10% of a transfer."""
    p = load_rules().prices
    assert (p.move, p.support, p.disband, p.raise_base, p.raise_per_pawn, p.upgrade_per_pawn,
            p.transfer_fee_percent) == (3, 3, 5, 1, 10, 30, 10)


def test_house_rules_override_a_price() -> None:
    """A house rule changes a number without code: a move costing 5."""
    ruleset, state = make_game(house_rules={"prices": {"move": 5}}, holdings={"0101": "A", "2020": "B"},
                               units=[["A", "pawn", "0505"]])
    state, _ = play(ruleset, state, {"A": "ход 0505 0506"})
    assert state["players"]["A"]["statement"][0] == {"item": "move", "amount": -5, "hex": "0505"}


def test_bad_house_rule_names_the_field() -> None:
    """A wrong house rule is refused with the field named."""
    with pytest.raises(DataError) as caught:
        RingOfPower({}, {"prices": {"move": -1}})
    assert "prices.move" in str(caught.value)
    with pytest.raises(DataError) as caught:
        RingOfPower({}, {"units": {"pawn": {"commands": ["dragon"]}}})
    assert "dragon" in str(caught.value)


def test_bad_option_names_the_field() -> None:
    """Game options are checked: an unknown combat order or map is refused by name."""
    with pytest.raises(DataError) as caught:
        RingOfPower({"combat_order": "random"})
    assert "combat_order" in str(caught.value)
    with pytest.raises(DataError) as caught:
        RingOfPower({"map_name": "atlantis"})
    assert "atlantis" in str(caught.value)


def test_a_map_from_a_file(tmp_path: Path) -> None:
    """Other maps load from files: a small 8 x 8 board with two starts."""
    path = tmp_path / "small.toml"
    path.write_text('name = "small"\nwidth = 8\nheight = 8\nfog = ["0404"]\n'
                    '[[starts]]\nholdings = ["0202"]\n[[starts]]\nholdings = ["0707"]\n', encoding="utf-8")
    data = read_map_file(path)
    ruleset = RingOfPower({"map": data.model_dump()})
    from voevoda.core.dice import Dice

    state = ruleset.setup(["A", "B"], Dice.from_text("m"))
    assert state["map"]["width"] == 8 and state["map"]["fog"] == ["0404"]
    with pytest.raises(GameError):
        ruleset.setup(["A", "B", "C"], Dice.from_text("m"))


def test_a_broken_map_file_names_the_field(tmp_path: Path) -> None:
    """A map whose start lies off the board is refused naming the start."""
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nwidth = 8\nheight = 8\n[[starts]]\nholdings = ["0909"]\n', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_map_file(path)
    assert "0909" in str(caught.value) and "bad.toml" in str(caught.value)
