"""Issue 26: «… or the web form»: the game master's manage page reads an uploaded or pasted
thread page into a dry run, and stores the posts ticked; a player cannot."""

from __future__ import annotations

import re
from html import unescape

from tests.forum.conftest import PAGES
from tests.web.conftest import Site, site
from voevoda.service import OPERATOR

__all__ = ["site"]  # the web tests' fixture: a fresh site on SQLite


def test_upload_dry_run_confirm(site: Site) -> None:
    site.new_game("ring-of-power", "forum", "Анна,Борис,Вера,Глеб")
    gm = site.game_master()
    page = gm.get("/g/forum/manage")
    assert page.status_code == 200 and "Тема форума" in page.text  # type: ignore[attr-defined]
    response = gm.post("/g/forum/manage/thread", {"names": "Anna_K=Анна\nВедущий=-", "deadline": "2026-12-06T18:00"},
                       files={"page_file": ("thread.html", (PAGES / "phpbb.html").read_bytes(), "text/html")})
    text = response.text  # type: ignore[attr-defined]
    assert response.status_code == 200, text  # type: ignore[attr-defined]
    assert "Проверка" in text and "Zloy_Тролль" in text and "Вера Сергеевна" in text
    assert "после срока, не берётся" in text  # Борис's post, edited at 21:10
    assert site.service.standing_post(OPERATOR, "forum", "Анна") is None
    seats = re.findall(r'name="seat" value="([^"]+)"', text)
    texts = [unescape(t) for t in re.findall(r'name="text" value="([^"]*)"', text)]
    takes = re.findall(r'name="take" value="(\d+)"', text)
    # step 1 is open: Анна's post of the 3rd counts too, then her 5th's replaces it and the 6th adds
    assert seats == ["Анна", "Анна"] and takes == ["0", "1"]
    response = gm.post("/g/forum/manage/thread/store", {"step": "1", "seat": seats, "text": texts, "take": takes,
                                                        "names": "Anna_K=Анна\nВедущий=-"})
    assert response.status_code == 200 and "Сохранено из темы" in response.text  # type: ignore[attr-defined]
    standing = site.service.standing_post(OPERATOR, "forum", "Анна")
    assert standing is not None and "вражда Вера" in standing.text
    assert "Anna_K → Анна" in gm.get("/g/forum/manage").text  # type: ignore[attr-defined]


def test_pasted_page_in_english(site: Site) -> None:
    site.new_game("ring-of-power", "forum", "Анна,Борис")
    gm = site.game_master()
    response = gm.post("/g/forum/manage/thread?lang=en", {"page_text": (PAGES / "invision.html").read_text(encoding="utf-8")})
    text = response.text  # type: ignore[attr-defined]
    assert response.status_code == 200 and "Dry run" in text and "Unknown names" in text


def test_bad_page_is_said_on_the_page(site: Site) -> None:
    site.new_game("ring-of-power", "forum", "Анна,Борис")
    response = site.game_master().post("/g/forum/manage/thread", {"page_text": "<p>привет</p>"})
    assert response.status_code == 422 and "не узнан движок форума" in response.text  # type: ignore[attr-defined]


def test_a_player_cannot_import_the_thread(site: Site) -> None:
    site.new_game("ring-of-power", "forum", "Анна,Борис")
    anna = site.player("forum", "Анна")
    response = anna.post("/g/forum/manage/thread", {"page_text": (PAGES / "smf.html").read_text(encoding="utf-8")})
    assert response.status_code == 403  # type: ignore[attr-defined]
    response = anna.post("/g/forum/manage/thread/store", {"step": "1", "seat": ["Борис"], "text": ["налог 2"],
                                                          "take": ["0"]})
    assert response.status_code == 403  # type: ignore[attr-defined]
    response = anna.post("/g/forum/manage/thread/names", {"names": "x=Анна"})
    assert response.status_code == 403  # type: ignore[attr-defined]
    assert site.service.standing_post(OPERATOR, "forum", "Борис") is None
