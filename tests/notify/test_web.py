"""Issue 26 «Notifications» on the web (docs/web.md, docs/notify.md): the game master sets the
game's public channel and the game master's own on the game's notifications page and reads the
delivery status with its failures; a player sets the private channels of their own seat (e-mail
per event or a daily digest, a signed webhook) and sees nobody else's; in Russian by default and
in English."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.notify.receivers import HttpReceiver
from tests.web.conftest import Site, site  # noqa: F401  (the fixture)
from voevoda.notify.deliver import deliver_due


def test_the_notifications_page_for_the_game_master_and_for_a_player(site: Site, http: HttpReceiver) -> None:  # noqa: F811
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    gm = site.game_master()
    anna, boris = site.player("r1", "Анна"), site.player("r1", "Борис")
    assert "/g/r1/notify" in gm.get("/g/r1/manage").text
    page = gm.get("/g/r1/notify")
    assert page.status_code == 200 and "Каналы игры" in page.text and "Сбоев нет" in page.text
    added = gm.post("/g/r1/notify/add", {"scope": "public", "kind": "discord", "address": http.url("/discord"),
                                         "label": "форум", "lang": "ru"})
    assert added.status_code == 200 and "Канал добавлен" in added.text and "форум" in added.text
    assert http.url("/discord") not in added.text, "a webhook's address is a secret: shown cut"
    hook = gm.post("/g/r1/notify/add", {"scope": "gm", "kind": "webhook", "address": "http://127.0.0.1:9/down"})
    assert "показан один раз" in hook.text and 'id="nf-secret"' in hook.text
    bad = gm.post("/g/r1/notify/add", {"scope": "public", "kind": "email", "address": "nobody"})
    assert bad.status_code == 422 and "адрес почты" in bad.text

    mine = anna.get("/g/r1/notify")
    assert mine.status_code == 200 and "Мои уведомления: Анна" in mine.text and "Каналы игры" not in mine.text
    assert "форум" not in mine.text
    made = anna.post("/g/r1/notify/add", {"scope": "seat", "player": "Анна", "kind": "email",
                                          "address": "anna@example.org", "mode": "digest", "hour": "9"})
    assert made.status_code == 200 and "anna@example.org" in made.text and "сводка 09:00 UTC" in made.text
    assert "anna@example.org" not in gm.get("/g/r1/notify").text, "the game master does not see her address"
    assert "anna@example.org" not in boris.get("/g/r1/notify").text
    refused = boris.post("/g/r1/notify/add", {"scope": "seat", "player": "Анна", "kind": "email",
                                              "address": "boris@example.org"})
    assert refused.status_code == 403
    assert boris.post("/g/r1/notify/add", {"scope": "public", "kind": "discord",
                                           "address": http.url("/x")}).status_code == 403
    assert site.browser().get("/g/r1/notify").status_code == 404

    gm.post("/g/r1/manage/resolve", {"step": 1, "force": "1"})
    deliver_due(site.service, datetime.now(UTC))
    status = gm.get("/g/r1/notify")
    assert "доставлено: 1" in status.text and "ConnectError" in status.text and "Не доходит с" in status.text
    assert [r.json["content"].split("\n")[0] for r in http.at("/discord")] == ["**«r1»: шаг 1 рассчитан (ход 1)**"]
    tested = gm.post("/g/r1/notify/test", {"destination": 1})
    assert tested.status_code == 200 and "Проверочное сообщение отправлено" in tested.text
    failed = gm.post("/g/r1/notify/test", {"destination": 2})
    assert failed.status_code == 422 and "не доставлено" in failed.text
    english = gm.get("/g/r1/notify?lang=en")
    assert "The game&#39;s channels" in english.text or "The game's channels" in english.text
    assert gm.post("/g/r1/notify/remove", {"destination": 1}, follow_redirects=False).status_code == 303
    assert "форум" not in gm.get("/g/r1/notify").text
