"""Issue 27: «the web server can receive the bot's webhook instead» — ``POST /telegram/webhook``
of ``voevoda serve``, with Telegram's secret header, the token from the installation's settings,
and the same handlers as the long polling; an update Telegram delivers twice is answered once."""

from __future__ import annotations

import json
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.chat.telegram.botapi import TOKEN, BotApi
from tests.chat.telegram.conftest import ring
from voevoda.chat.telegram.links import WEBHOOK_PATH, webhook_secret
from voevoda.service import OPERATOR, Service
from voevoda.web.app import WebSettings, create_app

ANNA = 111


def wait_for(api: BotApi, chat: int, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while len(api.sent(chat)) < count:
        assert time.monotonic() < deadline, [c.visible for c in api.sent(chat)]
        time.sleep(0.05)


def test_the_webhook_takes_telegrams_updates(service: Service, api: BotApi, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOEVODA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("VOEVODA_TELEGRAM_API", api.base_url)
    ring(service, api)
    app = create_app(WebSettings(), service=service)
    with TestClient(app) as client:
        update = api.send(ANNA, "/status")
        api.updates.clear()  # delivered by the webhook, not fetched
        body = json.dumps(update, ensure_ascii=False).encode()
        assert client.post(WEBHOOK_PATH, content=body).status_code == 404, "no bot without a token"
        service.set_telegram_token(OPERATOR, TOKEN)  # the installation's settings, not the environment
        assert client.post(WEBHOOK_PATH, content=body).status_code == 403
        assert client.post(WEBHOOK_PATH, content=body,
                           headers={"X-Telegram-Bot-Api-Secret-Token": "guess"}).status_code == 403
        assert api.sent(ANNA) == []
        secret = {"X-Telegram-Bot-Api-Secret-Token": webhook_secret(TOKEN)}
        response = client.post(WEBHOOK_PATH, content=body, headers=secret)
        assert response.status_code == 200 and response.json() == {"ok": True}
        wait_for(api, ANNA, 1)
        assert api.sent(ANNA)[0].visible.startswith("Игра «кольцо» — Кольцо Власти")
        # Telegram delivers the same update again (it did not hear our answer): answered once
        assert client.post(WEBHOOK_PATH, content=body, headers=secret).status_code == 200
        post = api.send(ANNA, "ход 0303 0403")
        api.updates.clear()
        assert client.post(WEBHOOK_PATH, content=json.dumps(post).encode(), headers=secret).status_code == 200
        wait_for(api, ANNA, 2)
        time.sleep(0.5)
        assert [c.visible.split("\n")[0] for c in api.sent(ANNA)] == ["Игра «кольцо» — Кольцо Власти",
                                                                     "✅ Принят 1 приказ, шаг 1"]
        # what is not an update is dropped (Telegram would retry an error for ever)
        assert client.post(WEBHOOK_PATH, content=b"{not json", headers=secret).status_code == 200
        assert client.post(WEBHOOK_PATH, content=b"[1, 2]", headers=secret).status_code == 200
    assert len(api.sent(ANNA)) == 2
    assert any(c.method == "getMe" for c in api.calls) and not any(c.method == "getUpdates" for c in api.calls)
