"""docs/web.md «Reading fast»: the app's routes are looked up by their literal segments
(:class:`voevoda.web.routing.RouteIndex`); for every path and method the route chosen is the one
Starlette's scan of the routes in their order chooses (the first that matches fully, else the first
whose path matches with another method), and a path no route takes is taken by none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import BaseRoute, Match

from voevoda.web.app import WebSettings, create_app
from voevoda.web.routing import RouteIndex


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> RouteIndex:
    app = create_app(WebSettings(db=f"sqlite:///{Path(tmp_path_factory.mktemp('routing')) / 'r.db'}"))
    [found] = app.router.routes
    assert isinstance(found, RouteIndex) and len(found.routes) > 60
    return found


def scan(routes: list[BaseRoute], scope: dict[str, object]) -> tuple[Match, BaseRoute | None]:
    partial = None
    for route in routes:
        match, _ = route.matches(dict(scope))
        if match is Match.FULL:
            return match, route
        if match is Match.PARTIAL and partial is None:
            partial = route
    return (Match.PARTIAL, partial) if partial is not None else (Match.NONE, None)


def indexed(index: RouteIndex, scope: dict[str, object]) -> tuple[Match, BaseRoute | None]:
    match, child = index.matches(dict(scope))
    return match, child.get("voevoda.route")  # type: ignore[return-value]


def scope_of(path: str, method: str) -> dict[str, object]:
    return {"type": "http", "path": path, "root_path": "", "method": method, "headers": []}


def samples(index: RouteIndex) -> list[str]:
    paths = ["/", "//", "/g", "/g/", "/static", "/static/app.css", "/api/v1", "/api/v1/games", "/api/v2/games",
             "/nowhere", "/G/x", "/g/x/VIEW", "/g/x/view/", "/g/x/view/more", "/g/x/reports/3.txt",
             "/g/x/reports/3", "/g/x/reports/x.y.z", "/g/Игра с пробелом/chronicle", "/login/abc/def"]
    for route in index.routes:
        path = getattr(route, "path", "")
        for value in ("x", "12", "a.b", "Игра"):
            filled = re.sub(r"\{[^}]+\}", value, path)
            paths += [filled or "/", filled + "/", filled + "/extra", "/prefix" + filled]
    return paths


def test_every_route_is_found_where_the_scan_finds_it(index: RouteIndex) -> None:
    for path in samples(index):
        for method in ("GET", "POST", "PUT", "DELETE"):
            scope = scope_of(path, method)
            assert indexed(index, scope) == scan(index.routes, scope), (path, method)


def test_the_hot_pages_try_one_route(index: RouteIndex) -> None:
    assert len(index.candidates("/g/x")) == 1
    assert [getattr(r, "path", "") for r in index.candidates("/g/x/view")] == ["/g/{game}/view"]
    assert len(index.candidates("/g/x/orders")) == 2  # the page and the post: one path, two methods
    assert [getattr(r, "path", "") for r in index.candidates("/api/v1/games/x")] == ["/api/v1"]


SEGMENTS = st.sampled_from(["g", "x", "view", "orders", "check", "api", "v1", "static", "login", "join",
                            "manage", "reports", "1.txt", "", "Игра", "map.svg", "games", "new", "account"])


@settings(max_examples=400, deadline=None)
@given(st.lists(SEGMENTS | st.text(min_size=0, max_size=5), min_size=1, max_size=7),
       st.sampled_from(["GET", "POST", "PATCH"]))
def test_any_path_is_routed_as_the_scan_routes_it(index: RouteIndex, segments: list[str], method: str) -> None:
    path = "/" + "/".join(s.replace("/", "") for s in segments)
    scope = scope_of(path, method)
    assert indexed(index, scope) == scan(index.routes, scope)
