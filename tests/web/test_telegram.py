"""Issue 27: the game master's page links the game to the bot and to a group chat (docs/telegram.md
«Linking a game»): one-time links for the group and for the game master's own chat, the group
shown and unlinked, the bot's token stored by the installation's game master only (never shown
back), an invitation given as a Telegram deep link too."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.conftest import Site
from voevoda.service import ANONYMOUS, OPERATOR

TOKEN = "123456789:AAEabcdefghijklmnopqrstuvwxyz0123456"


def test_the_game_masters_page_links_the_game_to_telegram(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOEVODA_TELEGRAM_TOKEN", raising=False)
    site.new_game("ring-of-power", "tg", "Анна,Борис")
    gm = site.game_master()
    page = gm.get("/g/tg/manage")
    assert 'id="telegram"' in page.text and "Бот не запущен" in page.text and "токена нет" in page.text
    # the token: stored, never shown back
    assert gm.post("/g/tg/manage/telegram/token", {"token": TOKEN}, follow_redirects=False).status_code == 303
    page = gm.get("/g/tg/manage")
    assert "токен задан" in page.text and TOKEN not in page.text and site.service.telegram_token() == TOKEN
    assert gm.post("/g/tg/manage/telegram/token", {"token": "nonsense"}).status_code == 400
    site.service.set_telegram_username("voevoda_test_bot")  # the bot, once started, says its name
    # a group: a startgroup link and the /link code
    page = gm.post("/g/tg/manage/telegram/group")
    link = re.search(r'value="(https://t\.me/voevoda_test_bot\?startgroup=[A-Za-z0-9_-]+)"', page.text)
    code = re.search(r'value="/link ([A-Za-z0-9_-]+)"', page.text)
    assert link and code and link.group(1).endswith(code.group(1))
    site.service.link_chat(code.group(1), -1001, "group", title="<b>Наша</b> группа")
    page = gm.get("/g/tg/manage")
    assert html.escape("<b>Наша</b> группа") in page.text and "<b>Наша</b>" not in page.text
    # the game master's own chat
    page = gm.post("/g/tg/manage/telegram/me")
    mine = re.search(r'value="/start ([A-Za-z0-9_-]+)"', page.text)
    assert mine and f"https://t.me/voevoda_test_bot?start={mine.group(1)}" in page.text
    assert site.service.link_chat(mine.group(1), 500, "private").person.name == "Ведущий"  # type: ignore[union-attr]
    # an invitation, as a deep link too
    page = gm.post("/g/tg/manage/invite", {"player": "Анна"})
    deep = re.search(r'value="https://t\.me/voevoda_test_bot\?start=([A-Za-z0-9_-]+)"', page.text)
    assert deep and site.service.invitation(deep.group(1)).player == "Анна"
    # unlinking the group
    assert gm.post("/g/tg/manage/telegram/unlink", follow_redirects=False).status_code == 303
    assert "группа не связана" in gm.get("/g/tg/manage").text
    # a co-game-master runs the game's Telegram, but not the installation's token
    owner = site.service.init_gm("Ведущий")[0]
    site.service.join(site.service.invite(owner, "tg", "Борис", ["Анна", "Борис"]), ANONYMOUS, "Соведущий")
    site.service.name_co_gm(owner, "tg", "Соведущий")
    co = site.browser("Соведущий")
    token = site.service.login_link(OPERATOR, "Соведущий")
    co.get(f"/login/{token}")
    assert co.post(f"/login/{token}", follow_redirects=False).status_code == 303
    page = co.get("/g/tg/manage")
    assert 'id="telegram"' in page.text and 'name="token"' not in page.text
    assert co.post("/g/tg/manage/telegram/token", {"forget": "1"}).status_code == 403
    assert site.service.telegram_token() == TOKEN
    # a player reaches none of it
    anna = site.player("tg", "Анна")
    assert anna.post("/g/tg/manage/telegram/group").status_code == 403
