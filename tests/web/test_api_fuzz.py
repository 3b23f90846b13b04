"""Issue 25, «Security»: «Fuzz the API from its OpenAPI description (schemathesis): no 500, no
traceback in a response». Every operation of /api/v1/openapi.json is called with generated
requests — as a seat's API token, as the game master's browser session (with its CSRF header), and
as nobody — against a site with a game being played; the path parameters name that game and its
seats half of the time, so that requests reach the operations and not only «not found»."""

from __future__ import annotations

import re
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from voevoda.service import ANONYMOUS, Service
from voevoda.web.app import WebSettings, create_app

_folder = Path(tempfile.mkdtemp(prefix="voevoda-fuzz-"))
URL = f"sqlite:///{_folder / 'fuzz.db'}"
SERVICE = Service(URL)
GM, _login = SERVICE.init_gm("Ведущий")
SERVICE.create_game(GM, "ring-of-power", "g", ["Анна", "Борис"], seed="fuzz")
SERVICE.post(GM, "g", "Борис", "ход 1818 1718")
_seat = SERVICE.join(SERVICE.invite(GM, "g", "Анна", ["Анна", "Борис"]), ANONYMOUS)
TOKEN = SERVICE.create_api_token(_seat.person, "g", "Анна")
APP = create_app(WebSettings(db=URL, base_url="http://testserver"), service=SERVICE)
_grant = SERVICE.sign_in_with_link(_login)
SESSION = APP.state.signer.sessions.dumps(_grant.token)

schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", APP)

ROLES = {
    "token": ({"Authorization": f"Bearer {TOKEN}"}, {}),
    "game master": ({"X-CSRF-Token": _grant.csrf}, {"voevoda_session": SESSION}),
    "nobody": ({}, {}),
}


def aim(case: Any, index: int) -> None:
    """Half of the requests name the real game and seats."""
    if index % 2:
        return
    for key in list(case.path_parameters or {}):
        if key == "game":
            case.path_parameters[key] = "g"
        elif key == "player":
            case.path_parameters[key] = "Анна"
    body = case.body
    if isinstance(body, dict) and "player" in body:
        body["player"] = "Анна" if index % 4 == 0 else "Борис"


_calls = {"n": 0}


@pytest.mark.parametrize("role", list(ROLES))
@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_no_request_makes_the_api_fail(case: Any, role: str) -> None:
    headers, cookies = ROLES[role]
    _calls["n"] += 1
    aim(case, _calls["n"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        response = case.call(headers=dict(headers), cookies=dict(cookies))
    text = response.content.decode("utf-8", "replace")  # a map may come back as PNG
    assert response.status_code < 500, (case.method, case.formatted_path, response.status_code, text[:500])
    assert "Traceback" not in text and 'File "' not in text, text[:500]
    if response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
        error = response.json()["error"]
        assert error["message_ru"] and error["message_en"]
        assert not re.search(r"\bat 0x[0-9a-f]+", error["message_en"])  # no object reprs
