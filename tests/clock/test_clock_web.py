"""Issue 26, «Deadlines and the worker», on the web: the game page and the orders page show the
deadline in the game's time zone and who is ready or awaited (as each viewer may see); a seat's
«Готов» / «Ready» button; the manage page sets the schedule, pauses, resumes and extends with a
reason. Server-rendered forms, no JavaScript needed; Russian by default, English on ?lang=en."""

from __future__ import annotations

from datetime import timedelta

import time_machine

from tests.clock.conftest import outbox
from tests.web.conftest import Site, site  # noqa: F401 - the fixture
from voevoda.clock.worker import run_pass


def test_the_game_master_sets_a_schedule_and_players_see_the_deadline_and_press_ready(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    site.new_game("toy-guess", "g", "Анна,Борис")
    gm = site.game_master()
    page = gm.post("/g/g/manage/schedule", {"every": "вс 18:00", "period": "", "phases": "", "early": "1",
                                            "missed": "civil-disorder", "disorder_after": "2",
                                            "vacation_days": "7", "vacation_policy": "extend"})
    assert page.status_code == 200, page.text  # type: ignore[attr-defined]
    assert "каждое воскресенье в 18:00 (Europe/Moscow)" in page.text  # type: ignore[attr-defined]
    anna = site.player("g", "Анна")
    game = anna.get("/g/g")
    assert "06.12.2026 18:00 MSK" in game.text and "через 5 д 3 ч" in game.text  # type: ignore[attr-defined]
    assert ">Готов</button>" in game.text  # type: ignore[attr-defined]
    english = anna.get("/g/g/orders?lang=en")
    assert "2026-12-06 18:00 MSK" in english.text and ">Ready</button>" in english.text  # type: ignore[attr-defined]
    anna.get("/g/g?lang=ru")
    anna.post("/g/g/orders", {"player": "Анна", "text": "guess 3", "step": "1", "action": "send"})
    done = anna.post("/g/g/ready", {"player": "Анна", "ready": "1", "back": "orders"}, follow_redirects=True)
    assert "Готовы: Анна</p>" in done.text and ">Не готов</button>" in done.text  # type: ignore[attr-defined]
    spectator_view = site.player("g", "Борис").get("/g/g")
    assert "Готовы: Анна</p>" in spectator_view.text  # type: ignore[attr-defined]
    # Борис cannot press Анна's button
    refused = site.player("g", "Борис").post("/g/g/ready", {"player": "Анна", "ready": "0"})
    assert refused.status_code == 403  # type: ignore[attr-defined]


def test_pause_resume_and_extend_from_the_manage_page(site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    site.new_game("toy-guess", "g", "Анна,Борис")
    gm = site.game_master()
    gm.post("/g/g/manage/schedule", {"period": "48h", "early": "1", "missed": "default"})
    page = gm.post("/g/g/manage/extend", {"by": "24h", "reason": "сбой форума"})
    assert "04.12.2026 15:00 MSK" in page.text  # type: ignore[attr-defined]
    page = gm.post("/g/g/manage/pause", {"reason": "праздники"})
    assert "срок: на паузе: праздники" in page.text and ">Продолжить</button>" in page.text  # type: ignore[attr-defined]
    anna = site.player("g", "Анна")
    assert "Пауза</strong>: праздники" in anna.get("/g/g").text  # type: ignore[attr-defined]
    assert anna.post("/g/g/manage/resume", {}).status_code == 403  # type: ignore[attr-defined]
    frozen.shift(timedelta(days=3))
    assert run_pass(site.service).resolved == 0
    page = gm.post("/g/g/manage/resume", {})
    assert "07.12.2026 15:00 MSK" in page.text  # type: ignore[attr-defined]
    assert [r.payload["reason"] for r in outbox(site.service, "paused")] == ["праздники"]
    bad = gm.post("/g/g/manage/extend", {"by": "soon", "reason": "x"})
    assert bad.status_code == 400 and "--by: «soon» — не срок" in bad.text  # type: ignore[attr-defined]


def test_a_seat_plans_and_cancels_its_own_vacation_and_the_game_master_sees_them(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    """Issue 26, «per-player planned absence (vacation), limited per game», on the web: the seat's
    own form next to «Готов» (days on the game's clock, the days left), cancelled by its seat;
    the game master sees every seat's on the manage page and may cancel any; another seat may not."""
    import re

    site.new_game("toy-guess", "g", "Анна,Борис")
    gm = site.game_master()
    gm.post("/g/g/manage/schedule", {"every": "вс 18:00", "early": "1", "missed": "default", "vacation_days": "7",
                                     "vacation_policy": "extend"})
    anna, boris = site.player("g", "Анна"), site.player("g", "Борис")
    page = anna.get("/g/g")
    assert 'id="vacation"' in page.text and "Осталось дней отпуска: 7 дн. из 7" in page.text  # type: ignore[attr-defined]
    assert "срок ждёт вашего возвращения" in page.text and "(Europe/Moscow)" in page.text  # type: ignore[attr-defined]
    planned = anna.post("/g/g/vacation", {"player": "Анна", "starts": "2026-12-10", "ends": "2026-12-12",
                                          "back": "orders"}, follow_redirects=True)
    assert planned.status_code == 200 and "/g/g/orders" in str(planned.url)  # type: ignore[attr-defined]
    assert "10.12.2026 — 12.12.2026" in planned.text  # type: ignore[attr-defined]
    assert "Осталось дней отпуска: 4 дн. из 7" in planned.text  # type: ignore[attr-defined]
    english = anna.get("/g/g?lang=en")
    assert "2026-12-10 — 2026-12-12" in english.text and "Vacation days left: 4 days of 7" in english.text  # type: ignore[attr-defined]
    anna.get("/g/g?lang=ru")
    found = re.search(r"/g/g/vacation/(\d+)/cancel", planned.text)  # type: ignore[attr-defined]
    assert found
    cancel = f"/g/g/vacation/{found.group(1)}/cancel"
    # more than is left, another seat's, and no CSRF token: refused, each with its reason
    too_long = anna.post("/g/g/vacation", {"player": "Анна", "starts": "2026-12-20", "ends": "2026-12-31"})
    assert too_long.status_code == 400 and "осталось 4 дн." in too_long.text  # type: ignore[attr-defined]
    backwards = anna.post("/g/g/vacation", {"player": "Анна", "starts": "2026-12-12", "ends": "2026-12-10"})
    assert backwards.status_code == 400 and "отпуск кончается после того" in backwards.text  # type: ignore[attr-defined]
    assert boris.post("/g/g/vacation", {"player": "Анна", "starts": "2026-12-20",
                                        "ends": "2026-12-21"}).status_code == 403  # type: ignore[attr-defined]
    assert boris.post(cancel, {"player": "Анна"}).status_code == 403  # type: ignore[attr-defined]
    assert anna.client.post(cancel, data={"player": "Анна"}).status_code == 403
    manage = gm.get("/g/g/manage")
    assert "Анна: 10.12.2026 — 12.12.2026" in manage.text  # type: ignore[attr-defined]
    assert "Осталось дней отпуска: Анна 4, Борис 7 (дн. из 7)" in manage.text  # type: ignore[attr-defined]
    done = anna.post(cancel, {"player": "Анна", "back": "game"}, follow_redirects=True)
    assert "10.12.2026" not in done.text and "Осталось дней отпуска: 7 дн. из 7" in done.text  # type: ignore[attr-defined]
    # the game master cancels a seat's vacation from the manage page
    boris.post("/g/g/vacation", {"player": "Борис", "starts": "2026-12-15", "ends": "2026-12-15"})
    manage = gm.get("/g/g/manage")
    assert "Борис: 15.12.2026" in manage.text  # type: ignore[attr-defined]
    found = re.search(r"/g/g/vacation/(\d+)/cancel", manage.text)  # type: ignore[attr-defined]
    assert found
    after = gm.post(f"/g/g/vacation/{found.group(1)}/cancel", {"player": "Борис", "back": "manage"},
                    follow_redirects=True)
    assert "отпусков не запланировано" in after.text  # type: ignore[attr-defined]
