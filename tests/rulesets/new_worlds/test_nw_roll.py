"""The roll (document 000, «II. Механика, 1»): 5dX by epoch, the pattern table, and the dice
labels it is drawn under (docs/dice.md, new-worlds)."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from tests.rulesets.new_worlds.nw_helpers import make_game, play
from voevoda.core.dice import CITED, Dice
from voevoda.rulesets.new_worlds.roll import digits_of, last_digit_bonus, pattern_of, roll_country
from voevoda.rulesets.new_worlds.rules import load_rules
from voevoda.rulesets.new_worlds.state import load_state

TABLE = load_rules().roll


@pytest.mark.parametrize(("digits", "detail", "bonus"), [
    # «1-3 = +5, 4-6 = +10, 7-9 = +15, 0 = +20»
    ("12341", "digit", 5), ("12143", "digit", 5), ("12354", "digit", 10), ("12356", "digit", 10),
    ("12347", "digit", 15), ("12349", "digit", 15), ("12340", "digit", 20),
    # «Дабл/3д Пали = +25»: the last two equal, or the last three a palindrome
    ("12344", "double", 25), ("12353", "palindrome3", 25), ("90100", "double", 25), ("12090", "palindrome3", 25),
    # «Трипл/4д пали = +40»
    ("12444", "triple", 40), ("13443", "palindrome4", 40), ("90000", "quad", 50),
    # «Квадра/5д Пали = +50»
    ("17777", "quad", 50), ("12321", "palindrome5", 50), ("98789", "palindrome5", 50),
    # «Пента = +80»
    ("55555", "penta", 80), ("00000", "penta", 80),
])
def test_the_pattern_table(digits: str, detail: str, bonus: int) -> None:
    """Document 000 «II. Механика, 1», the table of rolls; the best pattern counts (ruling R4)."""
    p = pattern_of(digits, TABLE)
    assert (p.detail, p.bonus) == (detail, bonus)


def test_the_best_pattern_wins() -> None:
    """«aaa» is both a triple and a 3-digit palindrome: the triple's +40 counts (R4)."""
    assert pattern_of("12888", TABLE).bonus == 40
    assert pattern_of("18888", TABLE).bonus == 50


def test_add_mode_adds_the_last_digit() -> None:
    """Option pattern_bonus = add (R4): a double ending in 7 gives 25 + 15."""
    p = pattern_of("12377", TABLE, "add")
    assert (p.bonus, p.digit_bonus) == (40, 15)
    assert pattern_of("12341", TABLE, "add").bonus == 5


def test_every_roll_gets_exactly_one_line_of_the_table() -> None:
    """All 100 000 five-digit rolls: the bonus is one of the table's values and never below the
    last digit's (R4: a pattern replaces only a smaller bonus)."""
    values = {5, 10, 15, 20, 25, 40, 50, 80}
    for combo in itertools.product("0123456789", repeat=5):
        digits = "".join(combo)
        p = pattern_of(digits, TABLE)
        assert p.bonus in values
        assert p.bonus >= last_digit_bonus(int(digits[-1]), TABLE)


def test_a_face_of_ten_reads_zero() -> None:
    """5d10: a face of 10 is the digit 0, so «0 = +20» can come up; 5d6 and 5d9 never show 0."""
    assert digits_of([10, 3, 10, 1, 10]) == "03010"
    assert pattern_of(digits_of([1, 2, 3, 4, 10]), TABLE).bonus == 20


@pytest.mark.parametrize(("epoch", "die"), [("bronze", 6), ("iron", 9), ("antiquity", 10), ("industrial", 10)])
def test_the_die_by_epoch(epoch: str, die: int) -> None:
    """«Дайс 5d6» (Бронзовый век), «5d9» (Железный), «5d10» later: five dice of the epoch's die
    under the label roll/<country>, drawn exactly as docs/dice.md says."""
    ruleset, raw = make_game(epoch=epoch, land={"A": "B2", "B": "S2"})
    world = ruleset.world(raw)
    world.frozen = False
    dice = Dice.from_text("roll-test")
    r = roll_country(world, world.state.countries["A"], dice, 2)
    assert r.die == die and len(r.faces) == 5 and all(1 <= f <= die for f in r.faces)
    seed = dice.seed
    expected = []
    for i in range(5):
        data = hashlib.shake_256(seed + b"roll/A").digest(8 * (i + 1))
        expected.append(1 + int.from_bytes(data[8 * i:], "big") % die)
    assert r.faces == expected


def test_roll_events_cite_their_dice() -> None:
    """The roll event quotes its five faces and cites roll/<country> (docs/dice.md §5)."""
    ruleset, raw = make_game(land={"A": "B2", "B": "S2"})
    state, events = play(ruleset, raw, {})
    rolls = [e for e in events if e.kind == "roll"]
    assert {e.data["country"] for e in rolls} == {"A", "B"}
    for e in rolls:
        assert e.data[CITED] == [{"field": "/faces", "label": f"roll/{e.data['country']}", "from": 0, "count": 5}]
        assert e.data["for_turn"] == 2
    typed = load_state(state, ruleset.rules)
    assert typed.countries["A"].roll is not None and typed.countries["A"].roll.turn == 2


def test_points_are_kept_or_lost() -> None:
    """Ruling R8: points left after a turn are kept (carry_over = true); with carry_over = false
    only the new roll remains."""
    for carry, kept in ((True, 37), (False, 0)):
        ruleset, raw = make_game(config={"carry_over": carry}, land={"A": "B2", "B": "S2"}, points={"A": 37})
        state, events = play(ruleset, raw, {})
        roll = state["countries"]["A"]["roll"]
        assert roll["kept"] == kept
        assert state["countries"]["A"]["points"] == kept + roll["total"]
