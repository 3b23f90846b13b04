"""E-mail over SMTP (:mod:`smtplib`): one plain-text mail per event, or for a destination in
``digest`` mode one mail a day holding everything that waited (:func:`send_digest`). The server
comes from the environment (:class:`SmtpSettings`). The idempotency key goes in the
``Idempotency-Key`` header and makes the ``Message-ID``: a mail sent again after a lost answer
is the same message to the receiving client."""

from __future__ import annotations

import hashlib
import os
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from typing import TYPE_CHECKING

from voevoda.notify.channels import DeliveryFailed, Target

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport


@dataclass(frozen=True)
class SmtpSettings:
    """``VOEVODA_SMTP_HOST`` (no e-mail without it), ``VOEVODA_SMTP_PORT`` (25),
    ``VOEVODA_SMTP_SECURITY`` (``none``, ``starttls`` or ``ssl``), ``VOEVODA_SMTP_USER`` and
    ``VOEVODA_SMTP_PASSWORD`` (when the server asks), ``VOEVODA_SMTP_FROM`` (the sender)."""

    host: str | None = None
    port: int = 25
    security: str = "none"
    user: str | None = None
    password: str | None = None
    sender: str = "voevoda@localhost"
    timeout: float = 20.0

    @classmethod
    def from_env(cls) -> SmtpSettings:
        port = os.environ.get("VOEVODA_SMTP_PORT", "").strip()
        return cls(host=os.environ.get("VOEVODA_SMTP_HOST", "").strip() or None,
                   port=int(port) if port.isdigit() else 25,
                   security=os.environ.get("VOEVODA_SMTP_SECURITY", "none").strip().lower() or "none",
                   user=os.environ.get("VOEVODA_SMTP_USER") or None,
                   password=os.environ.get("VOEVODA_SMTP_PASSWORD") or None,
                   sender=os.environ.get("VOEVODA_SMTP_FROM", "").strip() or "voevoda@localhost")


def message_id(key: str) -> str:
    return f"<{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}@voevoda>"


def mail(settings: SmtpSettings, to: str, subject: str, text: str, key: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = message_id(key)
    message["Idempotency-Key"] = key
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    return message


def send_mail(settings: SmtpSettings, message: EmailMessage) -> None:
    """Hand ``message`` to the SMTP server; :class:`DeliveryFailed` when it does not take it."""
    if not settings.host:
        raise DeliveryFailed("no SMTP server: set VOEVODA_SMTP_HOST (docs/notify.md)")
    try:
        server: smtplib.SMTP
        if settings.security == "ssl":
            server = smtplib.SMTP_SSL(settings.host, settings.port, timeout=settings.timeout)
        else:
            server = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        with server:
            if settings.security == "starttls":
                server.starttls()
            if settings.user and settings.password:
                server.login(settings.user, settings.password)
            server.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryFailed(f"SMTP: {type(exc).__name__}: {exc}"[:500]) from exc


class Email:
    kind = "email"
    limit: int | None = None

    def parts(self, content: Content) -> list[str]:
        return [content.render("text", None)]

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        send_mail(transport.smtp, mail(transport.smtp, target.address, content.subject, part, key))


def digest_subject(contents: list[Content]) -> str:
    games = sorted({c.game for c in contents})
    lang = contents[0].lang if contents else "ru"
    named = ", ".join(f"«{g}»" for g in games)
    if lang == "en":
        return f"{named}: digest, {len(contents)} event{'s' if len(contents) != 1 else ''}"
    return f"{named}: сводка, событий: {len(contents)}"


def send_digest(transport: Transport, target: Target, contents: list[Content], key: str) -> None:
    """One mail holding every content, oldest first, each under its own subject line."""
    rule = "\n\n" + "—" * 40 + "\n\n"
    text = rule.join(f"{c.subject}\n\n{c.render('text', None)}" for c in contents)
    send_mail(transport.smtp, mail(transport.smtp, target.address, digest_subject(contents), text, key))


CHANNEL = Email()
