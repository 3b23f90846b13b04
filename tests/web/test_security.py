"""Issue 25, «Security (each point tested)»: CSRF on every change, size limits, rate limits,
the Content-Security-Policy and the other headers on every kind of response, cookies, and
everything a player wrote escaped."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import Site
from voevoda.service import OPERATOR
from voevoda.web.app import CSP

HEADERS = {"content-security-policy": CSP, "x-frame-options": "DENY", "x-content-type-options": "nosniff",
           "referrer-policy": "no-referrer"}


def assert_headers(response: object, what: str) -> None:
    for name, value in HEADERS.items():
        got = response.headers.get(name)  # type: ignore[attr-defined]
        if name == "content-security-policy" and what.endswith(".svg"):
            assert got and "default-src 'none'" in got, (what, got)  # an SVG opened alone runs nothing
            continue
        assert got == value, (what, name, got)
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP.split("style-src")[0]


def test_every_kind_of_response_carries_the_security_headers(site: Site) -> None:
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    anna = site.player("r1", "Анна")
    for url in ("/", "/login", "/g/r1", "/g/r1/orders", "/static/app.css", "/static/vendor/htmx-2.0.11.min.js",
                "/g/nowhere", "/api/v1/games/r1", "/api/v1/openapi.json", "/api/v1/games/nowhere", "/g/r1/map.svg"):
        assert_headers(anna.get(url), url)
    assert_headers(anna.post("/g/r1/orders/check", {"player": "Анна", "text": "ход 0303 0403"}), "fragment")
    too_big = anna.client.post("/g/r1/orders", content=b"x" * (300 * 1024),
                               headers={"content-type": "application/x-www-form-urlencoded"})
    assert too_big.status_code == 413
    assert_headers(too_big, "413")


def test_no_inline_script_anywhere(site: Site) -> None:
    """The policy forbids inline script: no page may need one (each would be blocked)."""
    site.new_game("ring-of-power", "r1", "Анна,Борис")
    gm = site.game_master()
    for url in ("/", "/g/r1", "/g/r1/manage", "/g/r1/dice", "/g/r1/chronicle", "/games/new", "/account"):
        html = gm.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\son[a-z]+=", html), url  # no event-handler attributes
        assert "style=" not in html, url


def test_a_change_without_the_csrf_token_is_refused(site: Site) -> None:
    site.new_game("toy-guess", "g", "Анна,Борис")
    anna = site.player("g", "Анна")
    bare = anna.client.post("/g/g/orders", data={"player": "Анна", "text": "guess 3", "step": "1"})
    assert bare.status_code == 403 and "форма устарела" in bare.text
    wrong = anna.client.post("/g/g/orders", data={"player": "Анна", "text": "guess 3", "csrf": "0" * 64})
    assert wrong.status_code == 403
    htmx = anna.client.post("/g/g/orders/check", data={"player": "Анна", "text": "guess 3"},
                            headers={"X-CSRF-Token": anna.csrf})
    assert htmx.status_code == 200
    api_cookie = anna.client.post("/api/v1/games/g/posts", json={"player": "Анна", "text": "guess 3"})
    assert api_cookie.status_code == 403
    api_cookie = anna.client.post("/api/v1/games/g/posts", json={"player": "Анна", "text": "guess 3"},
                                  headers={"X-CSRF-Token": anna.csrf})
    assert api_cookie.status_code == 201
    # a visitor who is nobody must bring the token of its own cookie too (sign-in forms)
    nobody = site.browser()
    assert nobody.client.post("/login", data={"name": "x", "password": "y"}).status_code == 403
    # the refused posts stored nothing: the one post in the journal is the API's accepted one
    assert site.service.store.count_entries("g") == 1


def test_cookies_are_http_only_same_site_and_secure_when_told(site: Site) -> None:
    _, token = site.service.init_gm("Ведущий")
    browser = site.browser()
    page = browser.get(f"/login/{token}")
    assert "httponly" in page.headers["set-cookie"].lower()
    signed = browser.post(f"/login/{token}", follow_redirects=False)
    cookie = signed.headers["set-cookie"].lower()
    assert "voevoda_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "secure" not in cookie
    from voevoda.web.app import WebSettings, create_app

    secure = create_app(WebSettings(db=site.url, secure_cookies=True), service=site.service)
    from fastapi.testclient import TestClient

    client = TestClient(secure)
    _, token = site.service.init_gm("Ведущий")
    page = client.get(f"/login/{token}")
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)  # type: ignore[union-attr]
    signed = client.post(f"/login/{token}", data={"csrf": csrf}, follow_redirects=False)
    assert "secure" in signed.headers["set-cookie"].lower()


def test_a_forged_or_stale_cookie_signs_nobody_in(site: Site) -> None:
    site.new_game("toy-guess", "g", "Анна,Борис")
    anna = site.player("g", "Анна")
    token = anna.client.cookies.get("voevoda_session")
    assert token
    forged = site.browser()
    forged.client.cookies.set("voevoda_session", token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    assert forged.get("/g/g").status_code == 404
    raw = site.browser()
    raw.client.cookies.set("voevoda_session", "not-a-signed-value")
    assert raw.get("/g/g").status_code == 404


def test_posts_are_limited_to_64_kb_and_nothing_is_stored(site: Site) -> None:
    site.new_game("toy-guess", "g", "Анна,Борис")
    anna = site.player("g", "Анна")
    response = anna.post("/g/g/orders", {"player": "Анна", "text": "guess 3\n" + "я" * 40_000, "step": 1})
    assert response.status_code == 422 and "64" in response.text
    assert site.service.store.count_entries("g") == 0


def test_sign_in_attempts_are_rate_limited(site: Site) -> None:
    site.service.init_gm("Ведущий")
    browser = site.browser()
    browser.get("/login")
    codes = [browser.post("/login", {"name": "Ведущий", "password": "неверный пароль"}).status_code
             for _ in range(12)]
    assert codes[:10] == [401] * 10 and codes[10] == 429
    limited = browser.post("/login", {"name": "Ведущий", "password": "неверный пароль"})
    assert int(limited.headers["retry-after"]) > 0 and "подождите" in limited.text


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "[b]Жирный[/b]", "Анна & <i>Ко</i>"])
def test_what_players_write_is_shown_never_obeyed(site: Site, name: str) -> None:
    site.new_game("ring-of-power", "r1", f"{name},Борис")
    player = site.player("r1", name)
    post = "<script>document.title='x'</script>\nход 0303 0403\n[url=javascript:alert(1)]ссылка[/url]"
    echo = player.post("/g/r1/orders", {"player": name, "text": post, "step": 1})
    assert "&lt;script&gt;document.title=" in echo.text  # shown, as a line not read as an order
    for page in (echo, player.get("/g/r1"), site.game_master().get("/g/r1/manage"), player.get("/g/r1/view")):
        assert "<script>document" not in page.text and "<script>alert" not in page.text
        assert "<i>Ко</i>" not in page.text and 'href="javascript' not in page.text
    site.game_master().post("/g/r1/manage/resolve", {"step": 1, "force": "1"})
    chronicle = site.browser()
    site.service.change_settings(OPERATOR, "r1", public=True)
    page = chronicle.get("/g/r1/chronicle").text
    article = page.split('<article class="card report">')[1].split("</article>")[0]
    assert "<script" not in article and "<i>" not in article
