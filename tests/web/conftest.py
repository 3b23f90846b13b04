"""A site to test against: a service on a fresh SQLite database, the app, and browsers (HTTP
clients with their own cookies) for each role — the game master, players who joined through their
invitations, a spectator signed in as nobody."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from voevoda.service import Service
from voevoda.web.app import WebSettings, create_app

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


@dataclass
class Browser:
    """One person's browser: its own cookies and the CSRF token of the last page read."""

    client: TestClient
    csrf: str = ""
    name: str = ""

    def get(self, url: str, **kwargs: object) -> object:
        response = self.client.get(url, **kwargs)  # type: ignore[arg-type]
        found = CSRF.search(response.text)
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, url: str, data: dict[str, object] | None = None, **kwargs: object) -> object:
        if not self.csrf:
            self.get("/login")  # a page with a form: the visitor's CSRF token
        body = {"csrf": self.csrf, **(data or {})}
        response = self.client.post(url, data=body, **kwargs)  # type: ignore[arg-type]
        found = CSRF.search(response.text)
        if found:
            self.csrf = found.group(1)
        return response


@dataclass
class Site:
    service: Service
    url: str
    app: object
    browsers: dict[str, Browser] = field(default_factory=dict)

    def browser(self, name: str = "") -> Browser:
        client = TestClient(self.app, base_url="http://testserver")  # type: ignore[arg-type]
        return Browser(client, name=name)

    def game_master(self) -> Browser:
        if "gm" not in self.browsers:
            _, token = self.service.init_gm("Ведущий")
            gm = self.browser("Ведущий")
            gm.get(f"/login/{token}")
            response = gm.post(f"/login/{token}", follow_redirects=False)
            assert response.status_code == 303, response.text  # type: ignore[attr-defined]
            gm.get("/")
            self.browsers["gm"] = gm
        return self.browsers["gm"]

    def new_game(self, ruleset: str, name: str, players: str, **extra: str) -> None:
        gm = self.game_master()
        response = gm.post("/games/new", {"ruleset": ruleset, "name": name, "players": players, "seed": name,
                                          "timezone": "Europe/Moscow", **extra}, follow_redirects=False)
        assert response.status_code == 303, response.text  # type: ignore[attr-defined]

    def invite(self, game: str, player: str) -> str:
        response = self.game_master().post(f"/g/{game}/manage/invite", {"player": player})
        link = re.search(r'value="http://[^"]+(/join/[^"]+)"', response.text)  # type: ignore[attr-defined]
        assert link, response.text  # type: ignore[attr-defined]
        return link.group(1)

    def player(self, game: str, player: str) -> Browser:
        key = f"{game}/{player}"
        if key not in self.browsers:
            link = self.invite(game, player)
            browser = self.browser(player)
            browser.get(link)
            response = browser.post(link, follow_redirects=False)
            assert response.status_code == 303, response.text  # type: ignore[attr-defined]
            browser.get(f"/g/{game}/orders")
            self.browsers[key] = browser
        return self.browsers[key]


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[Site]:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    service = Service(url)
    app = create_app(WebSettings(db=url, base_url="http://testserver"), service=service)
    yield Site(service, url, app)
