"""What one pass of the deliverer sends through: an HTTP client (no redirects followed, a
timeout), the SMTP server's settings, the Telegram bot's token and Bot API address, and the
moment of the pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from voevoda.notify.channels.smtp import SmtpSettings

if TYPE_CHECKING:
    import httpx


@dataclass
class NotifySettings:
    """How deliveries go out: ``smtp`` (:meth:`SmtpSettings.from_env` by default),
    ``telegram_token`` and ``telegram_api`` (the bot's, by default its own settings),
    ``timeout`` of one HTTP request in seconds."""

    smtp: SmtpSettings = field(default_factory=SmtpSettings.from_env)
    telegram_token: str | None = None
    telegram_api: str | None = None
    timeout: float = 10.0


class Transport:
    def __init__(self, settings: NotifySettings, now: datetime | None = None) -> None:
        self.settings = settings
        self.now = now or datetime.now(UTC)
        self._http: httpx.Client | None = None

    @property
    def smtp(self) -> SmtpSettings:
        return self.settings.smtp

    @property
    def http(self) -> httpx.Client:
        if self._http is None:
            import httpx

            self._http = httpx.Client(timeout=self.settings.timeout, follow_redirects=False, trust_env=False)
        return self._http

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["NotifySettings", "Transport"]
