"""Issue 26, «The forum thread in one paste»: «maps forum names to seats (set once per game),
takes each seat's latest post since the step opened, and shows the game master a dry run (who
posted, each echo) before storing them … with a post edited after the deadline (its time
decides)». The service's operations, on the thread of pages/phpbb.html (see conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.forum.conftest import DEADLINE, NAMES, PAGES
from voevoda.core.errors import GameError
from voevoda.service import OPERATOR, Service
from voevoda.service.errors import Forbidden, NotFound
from voevoda.service.forum import ForumName, parse_mapping

PAGE = (PAGES / "phpbb.html").read_bytes()


def test_the_dry_run_takes_each_seats_latest_post_of_the_step(thread_game: Service) -> None:
    """Анна's orders and her «Забыла:» follow-up (both, in order, the second adding to the first);
    Борис edited his post after the deadline, so it is late and not taken; Вера by her forum
    name; Глеб silent; a stranger listed, not guessed; the game master's own post and Анна's
    post of step 1 not taken. Nothing is stored."""
    thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    reading = thread_game.read_thread_page(OPERATOR, "forum", PAGE, deadline=DEADLINE)
    seats = {seat.player: seat for seat in reading.seats}
    assert reading.step == 2 and reading.engine == "phpbb" and reading.timezone == "Europe/Moscow"
    assert [p.ref for p in seats["Анна"].posts] == ["p2002", "p2006"] and seats["Анна"].accepted == [True, True]
    assert "дополнит ваш пост" in seats["Анна"].echoes[1]
    assert seats["Борис"].posts == [] and [p.ref for p in seats["Борис"].late] == ["p2003"]
    assert [p.ref for p in seats["Вера"].posts] == ["p2005"] and seats["Вера"].names == ["Вера Сергеевна"]
    assert "налог: 2 монеты в казну" in seats["Вера"].echoes[0]
    assert reading.silent == ["Борис", "Глеб"]
    assert list(reading.unknown) == ["Zloy_Тролль"]
    assert [p.ref for p in reading.ignored] == ["p2001"] and [p.ref for p in reading.older] == ["p1990"]
    assert [seat for seat, _ in reading.to_store()] == ["Анна", "Анна", "Вера"]
    assert thread_game.standing_post(OPERATOR, "forum", "Анна") is None, "a dry run stored a post"
    text = reading.text()
    assert "Zloy_Тролль" in text and "после срока" in text and "не прислали / no post from: Борис, Глеб" in text


def test_without_a_deadline_the_edited_post_counts(thread_game: Service) -> None:
    thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    reading = thread_game.read_thread_page(OPERATOR, "forum", PAGE)
    boris = next(seat for seat in reading.seats if seat.player == "Борис")
    assert [p.ref for p in boris.posts] == ["p2003"] and boris.accepted == [True]
    assert "ход 1818 → 1718" in boris.echoes[0] and "строка / line 1" in boris.echoes[0]  # the quote set aside


def test_a_post_replaced_by_a_later_one(thread_game: Service) -> None:
    """A later post that is not a follow-up replaces the earlier: only the latest is taken."""
    page = PAGE.replace("Забыла: <strong".encode(), "Передумала: <strong".encode())
    thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    reading = thread_game.read_thread_page(OPERATOR, "forum", page, deadline=DEADLINE)
    anna = next(seat for seat in reading.seats if seat.player == "Анна")
    assert [p.ref for p in anna.posts] == ["p2006"] and [p.ref for p in anna.replaced] == ["p2002"]


def test_storing_what_the_dry_run_showed(thread_game: Service) -> None:
    """The posts go in through Service.post as the players' own: Анна's follow-up adds to her
    post, Вера's tax stands; the echo of each is given back."""
    thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    reading = thread_game.read_thread_page(OPERATOR, "forum", PAGE, deadline=DEADLINE)
    stored = thread_game.store_thread(OPERATOR, "forum", reading.to_store(), step=reading.step)
    assert [(s.player, s.error) for s in stored] == [("Анна", None), ("Анна", None), ("Вера", None)]
    anna = thread_game.standing_post(OPERATOR, "forum", "Анна")
    assert anna is not None and "вражда Вера" in anna.text and "ход 0303 -> 0403" in anna.text
    assert thread_game.standing_post(OPERATOR, "forum", "Вера") is not None
    assert thread_game.standing_post(OPERATOR, "forum", "Борис") is None


def test_a_refused_post_is_reported_and_the_others_stored(thread_game: Service) -> None:
    stored = thread_game.store_thread(OPERATOR, "forum", [("Анна", "ход 9999 -> 0000"), ("Вера", "налог 2")], step=2)
    assert stored[0].outcome is None and "приказы не приняты" in (stored[0].error or "")
    assert stored[1].outcome is not None


def test_a_step_resolved_meanwhile_stops_the_store(thread_game: Service) -> None:
    from voevoda.core.errors import AlreadyDone

    thread_game.resolve(OPERATOR, "forum", step=2, force=True)
    with pytest.raises(AlreadyDone):
        thread_game.store_thread(OPERATOR, "forum", [("Вера", "налог 2")], step=2)


def test_forum_names_are_set_once_per_game(thread_game: Service) -> None:
    """Stored, in any letter case of the seat; «-» for not a seat; an empty seat forgets; a seat
    that is no seat of the game is refused and nothing stored."""
    names = thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    assert names == [ForumName("Anna_K", "Анна"), ForumName("Ведущий", None), ForumName("Вера Сергеевна", "Вера")]
    with pytest.raises(GameError, match="Дмитрий"):
        thread_game.set_forum_names(OPERATOR, "forum", {"Zloy_Тролль": "Дмитрий", "anna_k": ""})
    assert len(thread_game.forum_names(OPERATOR, "forum")) == 3
    thread_game.set_forum_names(OPERATOR, "forum", {"ANNA_K": ""})
    assert [n.name for n in thread_game.forum_names(OPERATOR, "forum")] == ["Ведущий", "Вера Сергеевна"]


def test_a_mapping_given_for_one_reading_is_not_stored(thread_game: Service) -> None:
    reading = thread_game.read_thread_page(OPERATOR, "forum", PAGE, mapping={"Zloy_Тролль": "Глеб"})
    assert next(s for s in reading.seats if s.player == "Глеб").posts[0].author == "Zloy_Тролль"
    assert thread_game.forum_names(OPERATOR, "forum") == []
    assert "Anna_K" in reading.unknown


def test_since_and_timezone(thread_game: Service) -> None:
    """``since`` overrides the step's opening; the page's shown times follow the zone named (phpBB's
    edit notice is shown text: read as UTC, the edit lands three hours later, after the deadline
    still)."""
    from datetime import datetime

    thread_game.set_forum_names(OPERATOR, "forum", NAMES)
    reading = thread_game.read_thread_page(OPERATOR, "forum", PAGE,
                                           since=datetime.fromisoformat("2026-12-06T00:00+03:00"))
    assert sorted(p.ref for p in reading.older) == ["p1990", "p2001", "p2002", "p2004"]  # p2003: edited on the 6th
    utc = thread_game.read_thread_page(OPERATOR, "forum", PAGE, timezone="UTC", deadline=DEADLINE)
    boris = next(seat for seat in utc.seats if seat.player == "Борис")
    assert boris.late[0].edited_at is not None and boris.late[0].edited_at.hour == 21


def test_only_the_game_master_reads_a_thread(thread_game: Service) -> None:
    """A player may not import the thread nor tie names; outside the game it is «not found»."""
    token = thread_game.invite(OPERATOR, "forum", "Борис", ["Анна", "Борис", "Вера", "Глеб"])
    from voevoda.service import ANONYMOUS

    boris = thread_game.join(token, ANONYMOUS).person
    with pytest.raises(Forbidden):
        thread_game.read_thread_page(boris, "forum", PAGE)
    with pytest.raises(Forbidden):
        thread_game.set_forum_names(boris, "forum", {"Борис77": "Борис"})
    with pytest.raises(Forbidden):
        thread_game.store_thread(boris, "forum", [("Борис", "налог 2")], step=2)
    with pytest.raises(NotFound):
        thread_game.read_thread_page(ANONYMOUS, "forum", PAGE)


def test_parse_mapping_lines() -> None:
    assert parse_mapping(["Anna_K=Анна", " # comment", "", "Ведущий = -", "a=b=Борис", "Old="]) == {
        "Anna_K": "Анна", "Ведущий": "-", "a=b": "Борис", "Old": ""}
    with pytest.raises(GameError, match="строка 2"):
        parse_mapping(["Anna_K=Анна", "просто имя"])


def test_new_worlds_post_read_from_a_page_keeps_only_bold(tmp_path: Path) -> None:
    """A New Worlds thread (Invision markup): the bold is the order, the rest not read."""
    service = Service(f"sqlite:///{tmp_path / 'nw.db'}")
    service.create_game(OPERATOR, "new-worlds", "nw", ["Анна", "Борис"], seed="corpus")
    page = (PAGES / "invision.html").read_text(encoding="utf-8").replace(
        "<p>Добрый день</p>\n<p>налог 2</p>",
        "<p>Всем привет, мой ход.</p><p><strong>религия дуализм</strong></p><p><strong>город X7</strong></p>"
        "<p>занять W7 (это не жирным)</p>")
    reading = service.read_thread_page(OPERATOR, "nw", page, mapping={"Вера Сергеевна": "Борис", "Борис": "-", "Anna_K": "-",
                                                                      "Ведущий": "-", "Zloy_Тролль": "-"})
    boris = next(seat for seat in reading.seats if seat.player == "Борис")
    echo = boris.echoes[0]
    assert "религия дуализм" in echo and "город X7" in echo
    assert "не выделено жирным" in echo and "4: занять W7" in echo


def test_forum_names_are_stored_in_each_database(store_url: str) -> None:
    """The table of migration 0006 on SQLite and PostgreSQL: a name kept once per game, its case aside."""
    service = Service(store_url)
    service.create_game(OPERATOR, "ring-of-power", "names", ["Анна", "Борис"], seed="names")
    service.set_forum_names(OPERATOR, "names", {"Anna_K": "анна"})
    service.set_forum_names(OPERATOR, "names", {"ANNA_K": "Борис"})
    assert Service(store_url).forum_names(OPERATOR, "names") == [ForumName("ANNA_K", "Борис")]
