"""Issue 25, «Pages» and «The game master's pages», over HTTP: every page tried as every role
(the game master, each player, a spectator of a public game, a stranger), and a Ring of Power
turn played through the pages from the invitation to the reports."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import Site
from voevoda.service import OPERATOR

PAGES = ["/g/r1", "/g/r1/orders", "/g/r1/view", "/g/r1/map.svg", "/g/r1/map.png", "/g/r1/reports",
         "/g/r1/reports/1.txt", "/g/r1/reports/1.bbcode", "/g/r1/chronicle", "/g/r1/dice", "/g/r1/export.json",
         "/g/r1/export.json?full=1", "/g/r1/manage", "/g/r1/view?as=Борис", "/g/r1/reports?as=Борис",
         "/g/r1/map.svg?as=Борис", "/g/r1/orders?as=Борис", "/g/r1/view?as=gm"]

GM_ONLY = {"/g/r1/export.json?full=1", "/g/r1/manage", "/g/r1/view?as=gm"}
BORIS = {p for p in PAGES if "as=Борис" in p}


def expected(role: str, page: str, public: bool) -> int:
    """The status each role gets: the game master everything; a player everything but the game
    master's pages and another seat's eyes; outsiders «not found» unless the game is public, and
    then only the public pages."""
    if role == "gm":
        return 200
    if role in ("anna", "boris"):
        if page in GM_ONLY:
            return 403
        if page in BORIS and role == "anna":
            return 403
        return 200
    if not public:
        return 404
    if page in GM_ONLY or page in BORIS:
        return 403
    return 200


def played(site: Site, public: bool = False) -> dict[str, object]:
    site.new_game("ring-of-power", "r1", "Анна,Борис", **({"public": "1"} if public else {}))
    anna, boris = site.player("r1", "Анна"), site.player("r1", "Борис")
    for browser, post in ((anna, "ход 0303 0403"), (boris, "ход 1818 1718")):
        response = browser.post("/g/r1/orders", {"player": browser.name, "text": post, "step": 1})
        assert response.status_code == 200 and "Принято" in response.text, response.text
    site.game_master().post("/g/r1/manage/resolve", {"step": 1})
    stranger = site.browser()
    _, token = site.service.init_gm("Чужой")
    stranger.get(f"/login/{token}")
    stranger.post(f"/login/{token}")
    return {"gm": site.game_master(), "anna": anna, "boris": boris, "anonymous": site.browser(), "stranger": stranger}


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
def test_every_page_as_every_role(site: Site, public: bool) -> None:
    browsers = played(site, public)
    for role, browser in browsers.items():
        for page in PAGES:
            want = expected("anonymous" if role == "stranger" else role, page, public)
            got = browser.get(page)
            assert got.status_code == want, f"{role} {page}: {got.status_code}, expected {want}\n{got.text[:500]}"
            assert "Traceback" not in got.text


def test_a_turn_through_the_pages(site: Site) -> None:
    """«The story»: the game master creates a game and invites two players; a player types a post
    with a mistake, sees the error at its line, corrects it and sends; the game master resolves;
    each player sees their own report and fogged map and not the other's; the chronicle's copy
    gives the BBCode."""
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    anna, boris = site.player("r1", "Анна"), site.player("r1", "Борис")
    mistake = "Привет всем!\n[b]ход 0303 0403[/b]\nвражда Боррис"
    echo = anna.post("/g/r1/orders/check", {"player": "Анна", "text": mistake})
    assert echo.status_code == 200
    assert 'data-line="3"' in echo.text and "Борис" in echo.text and "Не принято" in echo.text
    assert "Привет всем!" in echo.text  # «not read as orders», not refused
    page = anna.get("/g/r1/orders")
    assert "Вы ещё не прислали" in page.text  # the check stored nothing
    sent = anna.post("/g/r1/orders", {"player": "Анна", "text": mistake.replace("Боррис", "Борис"), "step": 1})
    assert sent.status_code == 200 and "Принято 2 приказа" in sent.text, sent.text
    again = anna.post("/g/r1/orders", {"player": "Анна", "text": "ход 0303 0403", "step": 1})
    assert "заменяет ваш пост" in again.text
    boris.post("/g/r1/orders", {"player": "Борис", "text": "ход 1818 1718", "step": 1})
    board = site.game_master().get("/g/r1")
    assert board.text.count("приказы получены") == 2
    assert "Фаза приказы" in board.text and "Phase orders" in site.game_master().get("/g/r1?lang=en").text
    resolved = site.game_master().post("/g/r1/manage/resolve", {"step": 1})
    assert "шаг / step 1" in resolved.text
    late = anna.post("/g/r1/orders", {"player": "Анна", "text": "ход 0403 0503", "step": 1})
    assert late.status_code == 422 and "пришлите его снова для шага 2" in late.text
    anna_report = anna.get("/g/r1/reports").text
    boris_report = boris.get("/g/r1/reports").text
    assert anna_report != boris_report
    assert anna.get("/g/r1/map.svg").text != boris.get("/g/r1/map.svg").text
    assert anna.get("/g/r1/map.svg?as=Борис").status_code == 403
    chronicle = anna.get("/g/r1/chronicle").text
    assert "copy-bbcode-generic" in chronicle and "[b]" in chronicle
    bbcode = anna.get("/g/r1/reports/1.bbcode?as=public").text
    assert bbcode == site.service.sight(OPERATOR, "r1", "public").report(1, "bbcode")


def test_the_game_masters_pages(site: Site) -> None:
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    gm = site.game_master()
    manage = gm.get("/g/r1/manage")
    assert manage.status_code == 200 and "Пригласить" in manage.text
    link = site.invite("r1", "Анна")
    revoked = gm.post("/g/r1/manage/revoke", {"player": "Анна"}, follow_redirects=False)
    assert revoked.status_code == 303
    assert site.browser().get(link).status_code == 404
    preview = gm.post("/g/r1/manage/edit", {"patch": '[{"op": "replace", "path": "/turn", "value": 2}]', "step": 1})
    assert preview.status_code == 200 and "replace /turn" in preview.text
    bad = gm.post("/g/r1/manage/edit", {"patch": '[{"op": "replace", "path": "/turn",', "step": 1})
    assert bad.status_code == 400 and "строка 1" in bad.text
    gm.post("/g/r1/manage/resolve", {"step": 1, "force": "1"})
    twice = gm.post("/g/r1/manage/resolve", {"step": 1, "force": "1"})
    assert twice.status_code == 409 and "шаг 1 уже рассчитан" in twice.text
    undone = gm.post("/g/r1/manage/rollback", {"step": 1, "reason": "не та кость"})
    assert "откат шага / rolled back step 1" in undone.text
    settings = gm.post("/g/r1/manage/settings", {"public": "1", "timezone": "Asia/Novosibirsk"},
                       follow_redirects=False)
    assert settings.status_code == 303
    assert site.browser().get("/g/r1/chronicle").status_code == 200
    wrong = gm.post("/g/r1/manage/delete", {"confirm": "r2"})
    assert wrong.status_code == 400 and "имя не совпало" in wrong.text
    gone = gm.post("/g/r1/manage/delete", {"confirm": "r1"}, follow_redirects=False)
    assert gone.status_code == 303 and gm.get("/g/r1").status_code == 404


def test_creating_a_game_names_the_bad_field(site: Site) -> None:
    gm = site.game_master()
    bad_toml = gm.post("/games/new", {"ruleset": "ring-of-power", "name": "x", "players": "Анна,Борис",
                                      "config": "tax = 1\nэто не строка настроек\n"})
    assert bad_toml.status_code == 422 and "line 2" in bad_toml.text
    unknown = gm.post("/games/new", {"ruleset": "ring-of-power", "name": "x", "players": "Анна,Борис",
                                     "config": "no_such_option = 1"})
    assert unknown.status_code == 422 and "no_such_option" in unknown.text
    rules = gm.post("/games/new", {"ruleset": "culture-conquest", "name": "x", "players": "Анна,Борис",
                                   "house_rules": '{"leaders": "NaN"}'})
    assert rules.status_code == 422 and "Traceback" not in rules.text
    few = gm.post("/games/new", {"ruleset": "thrones", "name": "x", "players": "Анна"})
    assert few.status_code == 422 and "игроков" in few.text


def test_a_player_cannot_create_games_or_reach_the_game_masters_pages(site: Site) -> None:
    site.new_game("toy-guess", "g", "Анна,Борис")
    anna = site.player("g", "Анна")
    assert anna.post("/games/new", {"ruleset": "toy-guess", "name": "mine", "players": "Анна"}).status_code == 422
    for action in ("resolve", "rollback", "reopen", "invite", "revoke", "release", "settings", "delete", "co-gm"):
        response = anna.post(f"/g/g/manage/{action}", {"step": 1, "player": "Борис", "reason": "r", "name": "Анна",
                                                       "confirm": "g", "patch": "[]"})
        assert response.status_code == 403, (action, response.status_code, response.text[:300])


def test_joining_signs_in_and_the_account_page_manages_sessions_and_tokens(site: Site) -> None:
    site.new_game("toy-guess", "g", "Анна,Борис")
    anna = site.player("g", "Анна")
    account = anna.get("/account")
    assert account.status_code == 200 and "Анна" in account.text
    made = anna.post("/account/tokens", {"seat": "g\nАнна", "label": "мой бот"})
    token = re.search(r'<pre class="secret" id="new-token">([^<]+)</pre>', made.text)
    assert token, made.text
    api = site.browser()
    status = api.client.get("/api/v1/games/g", headers={"Authorization": f"Bearer {token.group(1)}"})
    assert status.status_code == 200 and status.json()["name"] == "g"
    anna.post("/account/password", {"password": "пароль-анны"})
    other = site.browser()
    other.get("/login")
    signed = other.post("/login", {"name": "Анна", "password": "пароль-анны"}, follow_redirects=False)
    assert signed.status_code == 303
    wrong = site.browser()
    wrong.get("/login")
    assert wrong.post("/login", {"name": "Анна", "password": "не тот"}).status_code == 401
    session_ids = re.findall(r'/account/sessions/(\d+)/revoke', anna.get("/account").text)
    assert len(session_ids) == 2
    for session_id in session_ids:
        anna.post(f"/account/sessions/{session_id}/revoke")
    assert other.get("/g/g").status_code == 404  # signed out everywhere


def test_a_page_reads_the_database_through_one_connection(site: Site) -> None:
    """docs/web.md, «Reading fast»: the visitor's session, what he holds in the game and the
    deadline card are read through one connection (one snapshot) a page, not one each."""
    from sqlalchemy import event

    anna = played(site)["anna"]
    store = site.service.store
    opened: list[object] = []

    def count(connection: object) -> None:
        opened.append(connection)

    event.listen(store.read_engine, "engine_connect", count)
    try:
        for page in ("/g/r1", "/g/r1/view", "/g/r1/reports", "/g/r1/orders", "/g/r1/chronicle"):
            opened.clear()
            response = anna.get(page)
            assert response.status_code == 200, page  # type: ignore[attr-defined]
            assert "Анна" in response.text  # type: ignore[attr-defined]
            assert len(opened) == 1, f"{page}: {len(opened)} read connections"
    finally:
        event.remove(store.read_engine, "engine_connect", count)


def test_many_pages_in_flight_at_once_hold_no_connection_while_they_wait(site: Site) -> None:
    """Eighty pages and twenty posts asked for at once on one event loop (a post is stored in a
    thread of its own; the pool has fifteen connections): each request gives its connection back
    before it waits, so none waits for the pool while another holds one idle."""
    import asyncio

    import httpx

    anna = played(site)["anna"]
    cookies = dict(anna.client.cookies)
    anna.get("/g/r1/orders")
    post = {"csrf": anna.csrf, "player": "Анна", "text": "ход 0403 0503", "step": "2"}

    async def many() -> list[int]:
        transport = httpx.ASGITransport(app=site.app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver", cookies=cookies) as client:
            pages = [client.get(page) for page in ["/g/r1", "/g/r1/view", "/g/r1/reports", "/g/r1/orders"] * 20]
            posts = [client.post("/g/r1/orders", data=post) for _ in range(20)]
            answers = await asyncio.gather(*pages, *posts)
        return [answer.status_code for answer in answers]

    assert asyncio.run(many()) == [200] * 100


def test_kept_pages_follow_the_viewer_the_holder_and_the_version(site: Site) -> None:
    """docs/web.md «Reading fast»: the pages' HTML kept with a game's version is kept for one
    viewer, language and what the visitor holds: a player never gets the page rendered for the
    other seat or for the game master looking through his eyes, the game master's tabs are not a
    player's, a post keeps the reports page but shows on the game page, and a resolution renders
    the reports again."""
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    anna, boris, gm = site.player("r1", "Анна"), site.player("r1", "Борис"), site.game_master()
    for browser, post in ((anna, "ход 0303 0403"), (boris, "ход 1818 1718")):
        browser.post("/g/r1/orders", {"player": browser.name, "text": post, "step": 1})
    gm.post("/g/r1/manage/resolve", {"step": 1})
    as_anna = gm.get("/g/r1/reports?as=Анна").text  # rendered first, by the game master's eyes on her seat
    own = anna.get("/g/r1/reports").text
    other = boris.get("/g/r1/reports").text
    assert "отчёт для Анны" in own and "отчёт для Бориса" in other
    assert "отчёт для Бориса" not in own and "отчёт для Анны" not in other
    assert "/manage" in as_anna and "/manage" not in own  # the tabs of what each holds
    assert anna.csrf in own and anna.csrf not in other and gm.csrf not in own  # the page around is each visitor's
    page = anna.get("/g/r1").text
    assert page.count('<tr class="posted">') == 0  # nobody has posted in step 2 yet
    anna.post("/g/r1/orders", {"player": "Анна", "text": "ход 0403 0503", "step": 2})
    assert anna.get("/g/r1").text.count('<tr class="posted">') == 1  # the game page's seats follow the post
    assert anna.get("/g/r1/reports").text == own  # the reports, kept over it
    boris.post("/g/r1/orders", {"player": "Борис", "text": "ход 1718 1618", "step": 2})
    gm.post("/g/r1/manage/resolve", {"step": 2})
    again = anna.get("/g/r1/reports").text
    assert "ход 2: отчёт для Анны" in again and again != own  # rendered again for the new turn


def test_kept_blocks_cannot_reach_the_visitor() -> None:
    """What is rendered once for many visitors is rendered without the visitor: a template that
    reaches for his name or CSRF token fails instead of keeping them."""
    import jinja2

    from voevoda.web.render import ENV, kept_blocks

    ENV.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"_probe.html.j2": (
        "{% block main %}{{ who.person.name }}{% endblock %}"), "_probe2.html.j2": (
        "{% block main %}{{ csrf }}{% endblock %}")}), ENV.loader])  # type: ignore[list-item]
    try:
        for probe in ("_probe.html.j2", "_probe2.html.j2"):
            with pytest.raises(jinja2.UndefinedError):
                kept_blocks("ru", probe)
    finally:
        ENV.loader = ENV.loader.loaders[1]  # type: ignore[union-attr]
