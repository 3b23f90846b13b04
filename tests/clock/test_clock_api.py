"""Issue 26 through issue 25's JSON API: «the API offers the same operations as the web» — the
game's deadline as the caller may see it, the schedule, pause, resume and extension (game masters
only), «ready» and vacations (a seat or its API token, for its own seat only); refusals are the
API's JSON errors, and bad input names its field."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import time_machine

from tests.web.conftest import Browser, Site, site  # noqa: F401 - the fixture


def api_token(where: Site, game: str, player: str) -> dict[str, str]:
    """The header of an API token made on the seat's account page."""
    browser = where.player(game, player)
    made = browser.post("/account/tokens", {"seat": f"{game}\n{player}", "label": "бот"})
    token = re.search(r'<pre class="secret" id="new-token">([^<]+)</pre>', made.text)  # type: ignore[attr-defined]
    assert token, made.text  # type: ignore[attr-defined]
    return {"Authorization": f"Bearer {token.group(1)}"}


def call(browser: Browser, method: str, path: str, body: dict[str, Any] | None = None,
         headers: dict[str, str] | None = None) -> Any:
    """A request of a signed-in browser (its session and CSRF header) or of a token (``headers``)."""
    sent = headers if headers is not None else {"X-CSRF-Token": browser.csrf}
    return browser.client.request(method, "/api/v1" + path, json=body, headers=sent)


def error(response: Any) -> dict[str, Any]:
    found: dict[str, Any] = response.json()["error"]
    assert found["message_ru"] and found["message_en"]
    return found


def game_with_schedule(where: Site) -> Browser:
    where.new_game("toy-guess", "g", "Анна,Борис")
    gm = where.game_master()
    response = call(gm, "PUT", "/games/g/schedule", {"every": "вс 18:00", "vacation_days": 7})
    assert response.status_code == 200, response.text
    return gm


def test_the_game_master_sets_the_schedule_and_everyone_reads_the_deadline(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    gm = game_with_schedule(site)
    anna = site.player("g", "Анна")
    view = call(anna, "GET", "/games/g/deadline").json()
    assert view["rule_ru"] == "каждое воскресенье в 18:00 (Europe/Moscow)"
    assert view["rule_en"] == "every Sunday at 18:00 (Europe/Moscow)"
    assert view["due_at"] == "2026-12-06T15:00:00Z" and view["due_local"] == "2026-12-06 18:00 MSK (+03:00)"
    assert view["left_ru"] == "через 5 д 3 ч" and view["vacation_days"] == 7
    assert view["vacation_days_left"] == {"Анна": 7.0, "Борис": 7.0}
    assert [s["player"] for s in view["seats"]] == ["Анна", "Борис"]
    # the period and the phases replace the weekly time: the whole schedule each PUT
    again = call(gm, "PUT", "/games/g/schedule", {"period": "48h", "phases": {"guess": "12h"}}).json()
    assert again["rule_ru"] == "48 ч после начала шага; guess: 12 ч после начала шага (Europe/Moscow)"
    assert again["weekly"] == "" and again["vacation_days"] == 14
    # a stranger of a private game: «not found», as elsewhere in the API
    assert site.browser().client.get("/api/v1/games/g/deadline").status_code == 404
    assert call(gm, "DELETE", "/games/g/schedule").json() == {"scheduled": False}
    assert call(gm, "GET", "/games/g/deadline").json()["scheduled"] is False


def test_pause_resume_and_extend_are_the_game_masters_with_a_reason(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    gm = game_with_schedule(site)
    anna = site.player("g", "Анна")
    token = api_token(site, "g", "Анна")
    for method, path, body in (("POST", "/games/g/pause", {"reason": "праздники"}), ("POST", "/games/g/resume", None),
                               ("POST", "/games/g/extend", {"by": "24h", "reason": "x"}),
                               ("PUT", "/games/g/schedule", {"period": "1h"}), ("DELETE", "/games/g/schedule", None)):
        assert call(anna, method, path, body).status_code == 403, path
        assert call(anna, method, path, body, headers=token).status_code == 403, path
    paused = call(gm, "POST", "/games/g/pause", {"reason": "праздники"})
    assert paused.status_code == 200 and paused.json()["paused"] and paused.json()["pause_reason"] == "праздники"
    assert paused.json()["line_ru"] == "срок: на паузе: праздники"
    again = call(gm, "POST", "/games/g/pause", {"reason": "ещё"})
    assert again.status_code == 409 and error(again)["message_en"] == "the game is already paused"
    frozen.shift(timedelta(days=1))
    resumed = call(gm, "POST", "/games/g/resume").json()
    assert resumed["due_local"] == "2026-12-07 18:00 MSK (+03:00)"  # the 5 d 3 h it had left
    extended = call(gm, "POST", "/games/g/extend", {"by": "2h", "reason": "сбой форума"}).json()
    assert extended["due_local"] == "2026-12-07 20:00 MSK (+03:00)"


def test_a_seat_readies_only_its_own_seat_by_session_or_by_token(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    game_with_schedule(site)
    anna, boris = site.player("g", "Анна"), site.player("g", "Борис")
    token = api_token(site, "g", "Анна")
    marked = call(anna, "POST", "/games/g/ready", {"player": "Анна"}, headers=token)
    assert marked.status_code == 200
    assert [s["player"] for s in marked.json()["seats"] if s["ready"]] == ["Анна"]
    # Анна's token cannot mark Борис, nor can Борис mark Анна
    refused = call(anna, "POST", "/games/g/ready", {"player": "Борис"}, headers=token)
    assert refused.status_code == 403 and error(refused)["kind"] == "Forbidden"
    assert call(boris, "POST", "/games/g/ready", {"player": "Анна", "ready": False}).status_code == 403
    unmarked = call(anna, "POST", "/games/g/ready", {"player": "Анна", "ready": False})
    assert unmarked.status_code == 200 and not any(s["ready"] for s in unmarked.json()["seats"])
    # a browser's change without its CSRF header is refused
    assert call(anna, "POST", "/games/g/ready", {"player": "Анна"}, headers={}).status_code == 403


def test_a_seat_plans_and_cancels_its_own_vacation_within_the_limit(
        site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    gm = game_with_schedule(site)
    boris = site.player("g", "Борис")
    token = api_token(site, "g", "Анна")
    made = call(boris, "POST", "/games/g/vacations", {"player": "Анна", "starts": "2026-12-10", "ends": "2026-12-12"},
                headers=token)
    assert made.status_code == 201, made.text
    vacation = made.json()
    assert vacation["player"] == "Анна" and vacation["starts_local"] == "2026-12-10 00:00 MSK (+03:00)"
    assert vacation["ends_at"] == "2026-12-12T21:00:00Z"  # the last day whole, on Moscow's clock
    assert call(gm, "GET", "/games/g/deadline").json()["vacation_days_left"]["Анна"] == 4.0
    too_long = call(boris, "POST", "/games/g/vacations",
                    {"player": "Анна", "starts": "2026-12-20", "ends": "2026-12-31"}, headers=token)
    assert too_long.status_code == 400 and "'Анна' has 4 left" in error(too_long)["message_en"]
    # Борис may neither plan Анна's vacation nor cancel it
    assert call(boris, "POST", "/games/g/vacations",
                {"player": "Анна", "starts": "2026-12-20", "ends": "2026-12-21"}).status_code == 403
    assert call(boris, "DELETE", f"/games/g/vacations/{vacation['id']}").status_code == 403
    assert call(boris, "DELETE", "/games/g/vacations/999").status_code == 404
    cancelled = call(boris, "DELETE", f"/games/g/vacations/{vacation['id']}", headers=token)
    assert cancelled.status_code == 204
    assert call(gm, "GET", "/games/g/deadline").json()["vacations"] == []


def test_bad_input_is_named_in_the_json_error(site: Site, frozen: time_machine.Traveller) -> None:  # noqa: F811
    gm = game_with_schedule(site)
    token = api_token(site, "g", "Анна")
    cases: list[tuple[str, str, dict[str, Any], dict[str, str] | None, int, str]] = [
        ("PUT", "/games/g/schedule", {"every": "someday"}, None, 400, "--every: 'someday' is not a weekday"),
        ("PUT", "/games/g/schedule", {"every": "sun 18:00", "period": "2h"}, None, 400, "do not go together"),
        ("PUT", "/games/g/schedule", {"timezone": "Mars/Base"}, None, 400, "unknown time zone 'Mars/Base'"),
        ("PUT", "/games/g/schedule", {"deadline": "0001-01-01T00:00+05:00"}, None, 400, "off the calendar"),
        ("PUT", "/games/g/schedule", {"missed": "never"}, None, 422, "missed:"),
        ("PUT", "/games/g/schedule", {"disorder_after": 0}, None, 422, "disorder_after:"),
        ("PUT", "/games/g/schedule", {"surprise": 1}, None, 422, "surprise:"),
        ("POST", "/games/g/pause", {"reason": ""}, None, 422, "reason:"),
        ("POST", "/games/g/extend", {"by": "soon", "reason": "x"}, None, 400, "--by: 'soon' is not a period"),
        ("POST", "/games/g/ready", {"player": "Никто"}, token, 400, "Никто"),
        ("POST", "/games/g/vacations", {"player": "Анна", "starts": "завтра", "ends": "2026-12-12"}, token, 400,
         "--from: 'завтра' is not a date"),
        ("POST", "/games/g/vacations", {"player": "Анна", "starts": "2026-12-12", "ends": "2026-12-10"}, token, 400,
         "--to: a vacation ends after it starts"),
        ("POST", "/games/g/vacations", {"player": "Анна", "starts": "9999-12-30", "ends": "9999-12-31"}, token, 400,
         "--to: a date is needed"),
    ]
    for method, path, body, headers, status, said in cases:
        response = call(gm, method, path, body, headers=headers)
        assert response.status_code == status, (body, response.text)
        assert said in error(response)["message_en"], (body, response.text)
