"""The pages' routes looked up by their literal segments instead of tried one after another.

Starlette tries a router's routes in order until one matches: a request for a game's page used to
try the twenty routes before it, and one for the JSON API (mounted last) sixty. :class:`RouteIndex`
holds routes in their order and tries, for a request, only those whose literal segments can
match its path: the same number of segments (any number for a route with a ``{name:path}``
parameter), the same first and the same last segment wherever the route's are literal. A route
left out could never have matched, so the first route that matches — fully, or by its path
alone (a method not allowed) — is the one the plain scan finds.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette._utils import get_route_path  # the path Starlette's own routes match (root path taken off)
from starlette.routing import BaseRoute, Match, Mount, NoMatchFound, Route
from starlette.types import Receive, Scope, Send

ANY = object()
"""A segment that is not literal (a parameter's), or a number of segments a path parameter makes any."""


@dataclass(frozen=True)
class _Shape:
    count: object  # int, or ANY
    first: object  # str, or ANY
    last: object  # str, or ANY

    def admits(self, count: int, first: str | None, last: str | None) -> bool:
        """``None``: a segment that no route names literally."""
        return ((self.count is ANY or self.count == count) and (self.first is ANY or self.first == first)
                and (self.last is ANY or self.last == last))


def shape_of(route: BaseRoute) -> _Shape:
    """What a path must look like for ``route`` to match it (:class:`Route` and :class:`Mount`;
    anything else may match any path)."""
    if isinstance(route, Mount):
        segments = route.path.split("/")[1:]
        first = segments[0] if segments and "{" not in segments[0] else ANY
        return _Shape(ANY, first if route.path else ANY, ANY)
    if not isinstance(route, Route):
        return _Shape(ANY, ANY, ANY)
    segments = route.path.split("/")[1:]
    any_length = any(":path}" in segment for segment in segments)
    first, last = segments[0], segments[-1]
    return _Shape(ANY if any_length else len(segments), first if "{" not in first else ANY,
                  last if "{" not in last and not any_length else ANY)


class RouteIndex(BaseRoute):
    """``routes``, in their order, as one route of the app's router (module docstring)."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.routes = list(routes)
        self._shapes = [shape_of(route) for route in self.routes]
        self._firsts = {s.first for s in self._shapes if s.first is not ANY}
        self._lasts = {s.last for s in self._shapes if s.last is not ANY}
        self._longest = max((s.count for s in self._shapes if isinstance(s.count, int)), default=0)
        self._candidates: dict[tuple[int, str | None, str | None], list[BaseRoute]] = {}
        self._lock = threading.Lock()

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that may match ``path``, in their order."""
        segments = path.split("/")[1:]
        # a segment no route names literally, or more segments than any route without a path
        # parameter has, admits the same routes as any other such: they share one list
        count = len(segments) if len(segments) <= self._longest else self._longest + 1
        first = segments[0] if segments and segments[0] in self._firsts else None
        last = segments[-1] if segments and segments[-1] in self._lasts else None
        key = (count, first, last)
        found = self._candidates.get(key)
        if found is None:
            found = [route for route, shape in zip(self.routes, self._shapes, strict=True)
                     if shape.admits(count, first, last)]
            with self._lock:
                self._candidates[key] = found
        return found

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] not in ("http", "websocket"):
            return Match.NONE, {}
        partial: tuple[BaseRoute, Scope] | None = None
        for route in self.candidates(get_route_path(scope)):
            match, child = route.matches(scope)
            if match is Match.FULL:
                return Match.FULL, {**child, "voevoda.route": route}
            if match is Match.PARTIAL and partial is None:
                partial = (route, child)
        if partial is not None:
            return Match.PARTIAL, {**partial[1], "voevoda.route": partial[0]}
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route: BaseRoute = scope["voevoda.route"]
        await route.handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                continue
        raise NoMatchFound(name, path_params)

    def __repr__(self) -> str:
        return f"RouteIndex({len(self.routes)} routes)"


__all__ = ["RouteIndex", "shape_of"]
