"""Fixtures of the notification tests: local receivers, a service whose webhooks may point at
loopback, settings that send e-mail to the local SMTP server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.notify.receivers import HttpReceiver, SmtpReceiver
from voevoda.notify.channels.smtp import SmtpSettings
from voevoda.notify.transport import NotifySettings
from voevoda.service.notify import ALLOW_PRIVATE_ENV


@pytest.fixture(autouse=True)
def _loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "1")


@pytest.fixture()
def http() -> Iterator[HttpReceiver]:
    with HttpReceiver() as receiver:
        yield receiver


@pytest.fixture()
def smtp() -> Iterator[SmtpReceiver]:
    with SmtpReceiver() as receiver:
        yield receiver


@pytest.fixture()
def settings(smtp: SmtpReceiver) -> NotifySettings:
    return NotifySettings(smtp=SmtpSettings(host="127.0.0.1", port=smtp.port, sender="voevoda@example.org"))
