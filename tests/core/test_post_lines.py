"""A post is a player's turn: keep what is good in it (issue 30, items 1–4; docs/posts.md «A post
keeps its good lines», «Follow-ups», «Steps»).

On a forum the player posts and goes offline; a post with one bad line must not cost him the
turn. As the Diplomacy adjudicators do with an illegal order, a refused line is void and the others
stand; reading and rule errors come in one answer; a follow-up that says so adds to the standing
post; and the step a post goes to is the step `status` names. The journal keeps the text and
whether it opened as a follow-up, so replay gives the same orders byte for byte.

Ring of Power is the game here (document 003): Анна starts in 0303 with her units and 60 coins,
Борис in 1818; «ход», «вражда», «налог», «перевод» are its orders.
"""

from __future__ import annotations

import pytest

from voevoda.core import outputs
from voevoda.core.engine import Game
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.core.journal import Entry, GameRecord, canonical_json
from voevoda.core.ruleset import GM


def new_game(**config: object) -> Game:
    return Game.create("ring-of-power", "lines", ["Анна", "Борис"], seed="lines", config=dict(config) or None)


def replayed(game: Game) -> Game:
    """The game rebuilt from its journal alone, as the store loads it."""
    return Game(GameRecord.model_validate(game.record.model_dump(mode="json")))


def kinds(game: Game, player: str) -> list[tuple[str, int]]:
    return [(o.kind, o.line) for o in game.pending[player].orders]


BAD_SECOND_LINE = "Всем привет!\nход 0303 0304\nпрыгать 0404\nвражда Борис\n"


def test_a_refused_line_is_void_and_the_others_stand() -> None:
    """Issue 30 item 1: «a refused line is void and the others stand: the echo says plainly, at
    the top, «принято N приказов, не принято M» and lists each refused line with its reason»."""
    game = new_game()
    receipt = game.post("Анна", BAD_SECOND_LINE)
    assert [o.kind for o in receipt.orders] == ["move", "hostile"]
    assert receipt.refused_lines == [3] and "прыгать" in receipt.refused[0].message_ru
    assert kinds(game, "Анна") == [("move", 2), ("hostile", 4)]
    echo = outputs.order_echo(game, "Анна", receipt, check=False, step=1)
    first = echo.split("\n")[0]
    assert first.startswith("принято 2 приказа, не принято 1 / 2 orders accepted, 1 refused"), echo
    assert echo.index("не принято / refused:") < echo.index("2: ход 0303 → 0304")
    assert "строка 3:1, «прыгать 0404»" in echo


def test_a_post_with_refused_lines_replays_byte_for_byte() -> None:
    """«The journal must replay byte for byte»: the stored text is read again by the same code,
    so the same lines are void after replay; resolving gives the same state."""
    game = new_game()
    game.post("Анна", BAD_SECOND_LINE)
    game.post("Борис", "ход 1818 1718\nналог ²\n")
    again = replayed(game)
    assert kinds(again, "Анна") == kinds(game, "Анна") and kinds(again, "Борис") == kinds(game, "Борис")
    game.resolve()
    again = replayed(game)
    assert canonical_json(again.state) == canonical_json(game.state)
    assert canonical_json(again.export()) == canonical_json(game.export())


def test_nothing_that_stands_refuses_the_post_and_keeps_the_earlier_one() -> None:
    """A post of which no line stands is refused as before: nothing is stored, the player's
    earlier post of the step stays."""
    game = new_game()
    game.post("Анна", "вражда Борис")
    entries = len(game.record.entries)
    with pytest.raises(OrdersRejected) as info:
        game.post("Анна", "прыгать 0404\nход 0303 9999")
    assert [p.line for p in info.value.problems] == [1, 2]
    assert len(game.record.entries) == entries and kinds(game, "Анна") == [("hostile", 1)]


def test_reading_and_rule_errors_come_in_one_answer() -> None:
    """Issue 30 item 2: «reading errors and rule errors in one echo (today a typo is reported,
    and the … shortage of the next line only after the typo is fixed)»."""
    game = new_game()
    post = "прыгать 0404\nход 0303 0305\nвражда Борис"  # a typo, then a move of two hexes at once
    receipt = game.check_post("Анна", post)
    assert receipt.refused_lines == [1, 2]
    assert receipt.refused[0].kind == "invalid" and receipt.refused[1].kind == "illegal"
    whole = new_game(post_acceptance="whole")
    with pytest.raises(OrdersRejected) as info:
        whole.check_post("Анна", post)
    assert [(p.line, p.kind) for p in info.value.problems] == [(1, "invalid"), (2, "illegal")]
    assert info.value.understood == ["ход 0303 → 0305", "вражда: Борис"]


def test_a_game_master_may_want_all_or_nothing() -> None:
    """«A game master who wants all or nothing sets a per-game option»: ``post_acceptance =
    "whole"`` refuses a post with any refused line, and stores nothing; any other value is
    refused when the game is made."""
    game = new_game(post_acceptance="whole")
    with pytest.raises(OrdersRejected):
        game.post("Анна", BAD_SECOND_LINE)
    assert "Анна" not in game.pending and not game.record.entries
    assert game.post("Анна", "ход 0303 0304\nвражда Борис").orders
    with pytest.raises(GameError, match="post_acceptance"):
        new_game(post_acceptance="some")


def test_a_follow_up_adds_its_orders_and_replay_adds_them_again() -> None:
    """Issue 30 item 3: «a post that opens with «ещё», «дополнение», «забыл(а)», «P.S.», «also»,
    «addendum» adds its orders to the standing post (the echo lists the whole set)»; the journal
    records that it opened so, and replay adds it again."""
    game = new_game()
    game.post("Анна", "ход 0303 0304", at="2024-05-01T14:05:00+00:00")
    receipt = game.post("Анна", "P.S. забыла: вражда Борис")
    assert receipt.adds_to is not None and receipt.replaced is None
    assert [o.kind for o in receipt.added] == ["hostile"]
    assert kinds(game, "Анна") == [("move", 1), ("hostile", 1)]
    assert game.record.entries[-1].follow_up is True
    echo = outputs.order_echo(game, "Анна", receipt, check=False, step=1)
    assert echo.startswith("принят 1 приказ / 1 order accepted, шаг / step 1:"), echo
    assert "дополняет ваш пост от 01.05 14:05 UTC (1 приказ)" in echo
    assert "  1: ход 0303 → 0304" in echo and "  + 1: вражда: Борис" in echo
    assert kinds(replayed(game), "Анна") == kinds(game, "Анна")


@pytest.mark.parametrize("opening", ["Ещё:", "еще", "Дополнение к приказам:", "Забыл добавить —", "Забыла!",
                                     "P.S.", "PS", "п.с.", "Also,", "addendum:", "А ещё", "[b]P.S.[/b]"])
def test_every_follow_up_opening_adds(opening: str) -> None:
    game = new_game()
    game.post("Анна", "ход 0303 0304")
    game.post("Анна", f"{opening} вражда Борис")
    assert [k for k, _ in kinds(game, "Анна")] == ["move", "hostile"], opening


def test_any_other_second_post_replaces_the_first() -> None:
    """«Any other second post replaces, as today»; «Ещё раз» («once again») is not a follow-up,
    nor is a greeting before the marker."""
    for second in ("вражда Борис", "Ещё раз всем привет!\nвражда Борис", "Привет! Забыла:\nвражда Борис"):
        game = new_game()
        game.post("Анна", "ход 0303 0304")
        receipt = game.post("Анна", second)
        assert receipt.replaced is not None and receipt.adds_to is None, second
        assert [k for k, _ in kinds(game, "Анна")] == ["hostile"], second


def test_a_follow_up_is_checked_with_the_standing_post() -> None:
    """The follow-up's orders are checked together with the standing ones: a second order for
    the units in 0303 is its line's fault, so the follow-up (of which nothing else stands) is
    refused and the standing post stays as it was."""
    game = new_game()
    game.post("Анна", "вражда Борис\nход 0303 0304")
    with pytest.raises(OrdersRejected) as info:
        game.post("Анна", "Ещё: ход 0303 0403")
    assert info.value.problems[0].line == 1 and "уже получили приказ" in info.value.problems[0].message_ru
    assert kinds(game, "Анна") == [("hostile", 1), ("move", 2)]
    receipt = game.post("Анна", "Ещё:\nход 0303 0403\nналог 1")
    assert receipt.refused_lines == [2] and [o.kind for o in receipt.added] == ["transfer"]
    assert kinds(game, "Анна") == [("hostile", 1), ("move", 2), ("transfer", 3)]


def test_a_first_post_that_opens_as_a_follow_up_is_a_post() -> None:
    game = new_game()
    receipt = game.post("Анна", "P.S. ход 0303 0304")
    assert receipt.adds_to is None and receipt.replaced is None and receipt.follow_up
    assert kinds(game, "Анна") == [("move", 1)]


def test_journals_written_before_follow_ups_replay_as_they_were() -> None:
    """An entry without the follow-up mark (every entry stored before issue 30) replaces, as it did
    when it was stored, even when its text opens with «Ещё»."""
    game = new_game()
    record = game.record.model_copy(deep=True)
    record.entries = [Entry(kind="submit", player="Анна", text="ход 0303 0304", step=1),
                      Entry(kind="submit", player="Анна", text="Ещё вражда Борис", step=1)]
    assert kinds(Game(record), "Анна") == [("hostile", 1)]


def test_a_rolled_back_step_brings_back_the_post_with_its_follow_up() -> None:
    """docs/dice.md «Rollbacks»: the posts of the rolled-back step stand again, frozen — a post
    and its follow-up as one; replay agrees; a frozen post takes no follow-up until reopened."""
    game = new_game()
    game.post("Анна", "ход 0303 0304")
    game.post("Анна", "also: вражда Борис")
    game.post("Борис", "ход 1818 1718")
    game.resolve()
    game.rollback("the GM misread a post")
    assert kinds(game, "Анна") == [("move", 1), ("hostile", 1)]
    with pytest.raises(GameError, match="frozen"):
        game.post("Анна", "Ещё: налог 1")
    game.reopen("Анна", "she asked to add her tax")
    game.post("Анна", "Ещё: налог 1")
    assert kinds(game, "Анна") == [("move", 1), ("hostile", 1), ("transfer", 1)]
    again = replayed(game)
    assert kinds(again, "Анна") == kinds(game, "Анна")
    game.resolve()
    assert canonical_json(replayed(game).state) == canonical_json(game.state)


def test_status_names_the_step_a_post_goes_to() -> None:
    """Issue 30 item 4: «`status` prints «шаг N» meaning steps already resolved, while `order`
    posts for step N+1 … Print the step that is open (the one a post goes to)»."""
    game = new_game()
    assert "шаг / step 1" in outputs.status_text(game, GM).split("\n")[0]
    assert "шаг / step 1" in outputs.show_text(game, GM).split("\n")[0]
    game.post("Анна", "ход 0303 0304", step=1)
    game.resolve(force=True, step=1)
    assert "шаг / step 2" in outputs.status_text(game, "Анна").split("\n")[0]
    accepted, echo = outputs.order_reply(game, "Анна", "вражда Борис")
    assert accepted and "шаг / step 2" in echo.split("\n")[0]
