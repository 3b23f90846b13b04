"""A generic webhook: one JSON payload per event (never cut), signed with HMAC-SHA256 under the
destination's secret in ``X-Voevoda-Signature: sha256=<hex>`` (docs/notify.md shows how to
check it), the idempotency key in the ``Idempotency-Key`` header and in the payload."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from voevoda.notify.channels import Target
from voevoda.notify.channels.http import post_json

if TYPE_CHECKING:
    from voevoda.notify.content import Content
    from voevoda.notify.transport import Transport


def payload(content: Content, key: str, sent_at: str) -> dict[str, Any]:
    """The payload's shape (docs/notify.md «Generic webhook»)."""
    return {"idempotency_key": key, "event": content.kind, "game": content.game, "step": content.step,
            "audience": content.scope, "player": content.player, "lang": content.lang, "subject": content.subject,
            "text": content.render("text", None), "notice": content.notice, "details": content.details,
            "sent_at": sent_at}


class Webhook:
    kind = "webhook"
    limit: int | None = None

    def parts(self, content: Content) -> list[str]:
        return [""]  # one payload, built when it is sent

    def send(self, transport: Transport, target: Target, part: str, number: int, count: int, key: str,
             content: Content) -> None:
        post_json(transport.http, target.address, payload(content, key, transport.now.isoformat()), key,
                  secret=target.secret)


CHANNEL = Webhook()
