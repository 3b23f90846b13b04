"""Local receivers for the notifications: an HTTP server on loopback that records every request
(Discord's, Slack's, Telegram's and the generic webhook's shapes all arrive here), can be told to
fail its first answers, and checks the generic webhook's signature as docs/notify.md tells a
receiver to; an SMTP server (aiosmtpd) that keeps every mail. Nothing leaves the machine."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


def verify(secret: str, body: bytes, header: str) -> bool:
    """The check docs/notify.md gives a receiver: HMAC-SHA256 of the raw body, compared in
    constant time."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)


class HttpReceiver:
    """``url(path)`` addresses; ``requests`` what arrived (failed answers included);
    ``fail(n, status)`` makes the next ``n`` answers fail; ``telegram`` answers as the Bot API
    does (``{"ok": true, …}``)."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.failures = 0
        self.passes = 0
        """Answers that still succeed before the failures begin."""
        self.status = 500
        self.retry_after: str | None = None
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver.lock:
                    receiver.requests.append(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    if receiver.passes > 0:
                        receiver.passes -= 1
                        failing = False
                    else:
                        failing = receiver.failures > 0
                        if failing:
                            receiver.failures -= 1
                if failing:
                    self.send_response(receiver.status)
                    if receiver.retry_after:
                        self.send_header("Retry-After", receiver.retry_after)
                    self.send_header("Content-Length", "4")
                    self.end_headers()
                    self.wfile.write(b"down")
                    return
                answer = json.dumps({"ok": True, "result": {"message_id": len(receiver.requests)}}).encode()
                self.send_response(200 if "telegram" in self.path else 204 if "discord" in self.path else 200)
                if "discord" in self.path:
                    self.end_headers()
                    return
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def fail(self, count: int, status: int = 500, retry_after: str | None = None, after: int = 0) -> None:
        """Fail the ``count`` answers that come after the next ``after`` ones."""
        self.failures, self.status, self.retry_after, self.passes = count, status, retry_after, after

    def at(self, path: str) -> list[Request]:
        """What arrived at ``path`` (failed answers included)."""
        return [r for r in self.requests if r.path == path]

    def __enter__(self) -> HttpReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


class SmtpReceiver:
    """aiosmtpd on loopback; ``mails`` every message taken."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.mails: list[EmailMessage] = []
        receiver = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                parsed = message_from_bytes(envelope.content, policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                receiver.mails.append(parsed)
                return "250 OK"

        import socket

        with socket.socket() as probe:  # a free port (aiosmtpd checks the one it is given by connecting)
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]

    def __enter__(self) -> SmtpReceiver:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()
