"""What the webhook channels share: one JSON POST with the idempotency key in its
``Idempotency-Key`` header (and, for the generic webhook, signed), an answer other than 2xx
taken as a failure to retry (``Retry-After`` of a 429 or 503 honoured)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import TYPE_CHECKING, Any

from voevoda.notify.channels import DeliveryFailed

if TYPE_CHECKING:
    import httpx

SIGNATURE_HEADER = "X-Voevoda-Signature"
USER_AGENT = "voevoda-notify/1"


def body_of(payload: dict[str, Any]) -> bytes:
    """The request body: the payload as compact UTF-8 JSON (what the signature covers)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: the HMAC-SHA256 of the body under the destination's secret."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def post_json(client: httpx.Client, url: str, payload: dict[str, Any], key: str, *,
              secret: str | None = None) -> httpx.Response:
    """POST ``payload`` to ``url``; :class:`DeliveryFailed` unless the answer is 2xx."""
    import httpx

    body = body_of(payload)
    headers = {"Content-Type": "application/json; charset=utf-8", "Idempotency-Key": key, "User-Agent": USER_AGENT}
    if secret:
        headers[SIGNATURE_HEADER] = signature(secret, body)
    try:
        response = client.post(url, content=body, headers=headers)
    except httpx.HTTPError as exc:
        raise DeliveryFailed(f"{type(exc).__name__}: {exc}"[:500]) from exc
    if not 200 <= response.status_code < 300:
        wait: float | None = None
        if response.status_code in (429, 503):
            try:
                wait = float(response.headers.get("Retry-After", ""))
            except ValueError:
                wait = None
        raise DeliveryFailed(f"HTTP {response.status_code}: {response.text[:300]}", wait)
    return response


__all__ = ["SIGNATURE_HEADER", "body_of", "post_json", "signature"]
