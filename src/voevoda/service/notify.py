"""Notifications: where a game's announcements go (docs/notify.md).

A *destination* is one channel of one receiver: the game's public channel and the game
master's channel (set by a game master: a Discord or Slack incoming webhook, Telegram's
``sendMessage`` by URL with a chat id, a generic JSON webhook signed with HMAC-SHA256, an e-mail
address), or a seat's private channel (set by that seat's player, nobody else: an e-mail —
one mail per event, or a daily digest — or a webhook). The Telegram chats linked through the
game's bot are destinations too (``telegram-chat``), listed here, set in the chat. What each
destination receives is built from its own view when it is delivered
(:mod:`voevoda.notify.deliver`).

Webhook addresses are secrets (whoever holds one posts to the channel): a listing shows them
cut; a generic webhook's signing key is shown once, when it is made.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from voevoda.core.errors import GameError
from voevoda.service.access import Op
from voevoda.service.actors import Actor, Person
from voevoda.service.chats import Chats
from voevoda.service.errors import NotFound

if TYPE_CHECKING:
    from voevoda.core.engine import Game
    from voevoda.notify.transport import NotifySettings

Scope = Literal["public", "gm", "seat"]
SCOPES = ("public", "gm", "seat")
MODES = ("each", "digest")
MOST_DESTINATIONS = 10
"""The most destinations one receiver (the public channel, the game master, a seat) may have."""
ALLOW_PRIVATE_ENV = "VOEVODA_NOTIFY_ALLOW_PRIVATE"
"""Set to 1 to let webhooks point at loopback and private addresses (a receiver on the same
machine or network); refused otherwise, so that a player's webhook cannot probe the server's
own network."""
EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;.]+$")


@dataclass(frozen=True)
class Destination:
    """A destination as its setter sees it (the address cut when it is a secret)."""

    id: int
    scope: str
    player: str | None
    kind: str
    address: str
    chat_id: str | None
    mode: str
    digest_hour: int
    lang: str
    label: str
    created_at: str
    delivered: int = 0
    waiting: int = 0
    failing: int = 0
    gave_up: int = 0
    last_error: str = ""


@dataclass(frozen=True)
class AddedDestination:
    destination: Destination
    secret: str | None
    """The generic webhook's signing key, shown this once."""


@dataclass(frozen=True)
class FailingDelivery:
    key: str
    destination: str
    kind: str
    announcement: str
    step: int | None
    status: str
    attempts: int
    first_failed_at: str
    next_attempt_at: str
    last_error: str


@dataclass
class DeliveryStatus:
    """What the game master sees of the game's deliveries."""

    counts: dict[str, int] = field(default_factory=dict)
    """Deliveries per status (``delivered``, ``pending``, ``skipped``, ``gave-up``)."""
    failing: list[FailingDelivery] = field(default_factory=list)
    """Deliveries that failed at least once and have not gone out yet, longest failing first."""
    chats: list[int] = field(default_factory=list)
    """The Telegram chats linked through the bot (``telegram-chat`` destinations)."""
    waiting_announcements: int = 0
    """Announcements not fanned out yet (the deliverer has not run since)."""


def mask(kind: str, address: str) -> str:
    """A webhook's address cut to its host and the last four characters; an e-mail as it is."""
    if kind == "email":
        return address
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2] or '?'}/…{parts.path[-4:]}"


def check_url(field_name: str, url: str) -> str:
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise GameError(f"{field_name}: нужен адрес https://…", f"{field_name}: give an https://… address")
    if len(url) > 2000:
        raise GameError(f"{field_name}: адрес длиннее 2000 знаков", f"{field_name}: the address is over 2,000 characters")
    if os.environ.get(ALLOW_PRIVATE_ENV) != "1":
        host = parts.hostname.strip("[]").lower()
        private = host == "localhost" or host.endswith(".localhost") or host.endswith(".local")
        try:
            ip = ipaddress.ip_address(host)
            private = private or not ip.is_global
        except ValueError:
            pass
        if private:
            raise GameError(f"{field_name}: адрес внутренней сети ({host}) не принимается",
                            f"{field_name}: an address of a private network ({host}) is not accepted "
                            f"(set {ALLOW_PRIVATE_ENV}=1 to allow it)")
    return url


class Notifications(Chats):
    """Notification destinations; mixed into :class:`voevoda.service.Service`."""

    def _game(self, name: str, version: tuple[int, str, int] | None = None) -> Game:  # provided by the service
        raise NotImplementedError

    def _require_destination(self, actor: Actor, game: str, scope: str, player: str | None) -> str | None:
        """Who may set ``scope``'s destinations; the seat's name as the game spells it."""
        if scope not in SCOPES:
            raise GameError("куда: public, gm или seat", "scope: public, gm or seat")
        access = self.access(actor, game)
        access.require(Op.READ)  # a game the actor may not know of is «not found», whatever is asked
        if scope == "seat":
            if not player:
                raise GameError("чьё место? укажите игрока", "whose seat? name the player")
            seat = self._game(game).find_player(player)
            access.require(Op.NOTIFY_SEAT, seat)
            return seat
        access.require(Op.NOTIFY)
        return None

    def add_destination(self, actor: Actor, game: str, *, scope: str, kind: str, address: str,
                        player: str | None = None, chat_id: str | None = None, secret: str | None = None,
                        mode: str = "each", digest_hour: int = 7, lang: str = "ru",
                        label: str = "") -> AddedDestination:
        """Add a destination (``kind``: discord, slack, telegram-webhook, webhook, email);
        refused naming the field that is wrong."""
        from sqlalchemy import func, select

        from voevoda.notify.channels import KINDS
        from voevoda.store.models import NotifyDestinationRow

        seat = self._require_destination(actor, game, scope, player)
        if kind not in KINDS:
            raise GameError(f"вид: {', '.join(KINDS)}", f"kind: {', '.join(KINDS)}")
        address = address.strip()
        if kind == "email":
            if not EMAIL.match(address) or len(address) > 254:
                raise GameError(f"адрес почты: «{address}» — не адрес", f"e-mail: '{address}' is not an address")
        else:
            address = check_url("адрес / url", address)
        if kind == "telegram-webhook":
            chat_id = (chat_id or "").strip()
            if not re.fullmatch(r"-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32}", chat_id):
                raise GameError("чат: число или @имя_канала", "chat id: a number or @channel_name")
        else:
            chat_id = None
        if mode not in MODES:
            raise GameError("режим: each или digest", "mode: each or digest")
        if mode == "digest" and kind != "email":
            raise GameError("сводка бывает только у почты", "a digest is for e-mail only")
        if not 0 <= digest_hour <= 23:
            raise GameError("час сводки: от 0 до 23 (UTC)", "digest hour: 0 to 23 (UTC)")
        if lang not in ("ru", "en"):
            raise GameError("язык: ru или en", "language: ru or en")
        label = " ".join(label.split())[:100]
        shown: str | None = None
        if kind == "webhook":
            secret = (secret or "").strip() or secrets.token_urlsafe(32)
            if len(secret) < 16:
                raise GameError("ключ подписи: не короче 16 знаков", "signing secret: at least 16 characters")
            shown = secret
        else:
            secret = None
        account_id = actor.account_id if isinstance(actor, Person) else None
        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            count = session.scalar(select(func.count(NotifyDestinationRow.id)).where(
                NotifyDestinationRow.game_id == game_id, NotifyDestinationRow.scope == scope,
                NotifyDestinationRow.player == seat if seat is not None else NotifyDestinationRow.player.is_(None)))
            if (count or 0) >= MOST_DESTINATIONS:
                raise GameError(f"не больше {MOST_DESTINATIONS} каналов", f"at most {MOST_DESTINATIONS} channels")
            row = NotifyDestinationRow(game_id=game_id, scope=scope, player=seat, account_id=account_id, kind=kind,
                                       target=address, chat_id=chat_id, secret=secret, mode=mode,
                                       digest_hour=digest_hour, lang=lang, label=label, created_at=self.clock())
            session.add(row)
            session.flush()
            made = _listed(row)
        return AddedDestination(made, shown)

    def destinations(self, actor: Actor, game: str, *, scope: str | None = None,
                     player: str | None = None) -> list[Destination]:
        """The game's public and game master's destinations (its game masters), or with
        ``player`` that seat's own (its player), each with its deliveries counted."""
        from sqlalchemy import func, select

        from voevoda.store.models import NotifyDeliveryRow, NotifyDestinationRow

        seat = self._require_destination(actor, game, "seat" if player else (scope or "public"), player)
        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            query = select(NotifyDestinationRow).where(NotifyDestinationRow.game_id == game_id)
            if seat is not None:
                query = query.where(NotifyDestinationRow.scope == "seat", NotifyDestinationRow.player == seat)
            else:
                query = query.where(NotifyDestinationRow.scope.in_(("public", "gm") if scope is None else (scope,)))
            rows = list(session.scalars(query.order_by(NotifyDestinationRow.id)))
            listed = []
            for row in rows:
                counts = dict(session.execute(select(NotifyDeliveryRow.status, func.count(NotifyDeliveryRow.id))
                                              .where(NotifyDeliveryRow.destination_id == row.id)
                                              .group_by(NotifyDeliveryRow.status)).all())
                failing = session.scalar(select(func.count(NotifyDeliveryRow.id)).where(
                    NotifyDeliveryRow.destination_id == row.id, NotifyDeliveryRow.status == "pending",
                    NotifyDeliveryRow.attempts > 0)) or 0
                error = session.scalar(select(NotifyDeliveryRow.last_error).where(
                    NotifyDeliveryRow.destination_id == row.id, NotifyDeliveryRow.last_error != "")
                    .order_by(NotifyDeliveryRow.id.desc()).limit(1)) or ""
                base = _listed(row)
                listed.append(Destination(**{**base.__dict__, "delivered": counts.get("delivered", 0),
                                             "waiting": counts.get("pending", 0), "failing": failing,
                                             "gave_up": counts.get("gave-up", 0), "last_error": error}))
            return listed

    def _destination_row(self, actor: Actor, game: str, destination_id: int):  # type: ignore[no-untyped-def]
        from voevoda.store.models import NotifyDestinationRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            row = session.get(NotifyDestinationRow, destination_id)
            if row is None or row.game_id != game_id:
                raise NotFound(f"нет канала {destination_id}", f"no channel {destination_id}")
            scope, player = row.scope, row.player
            session.expunge(row)
        self._require_destination(actor, game, scope, player)
        return row

    def remove_destination(self, actor: Actor, game: str, destination_id: int) -> None:
        """Remove a destination (what waited for it is dropped with it)."""
        from voevoda.store.models import NotifyDestinationRow

        self._destination_row(actor, game, destination_id)
        with self.store.sessions.begin() as session:
            row = session.get(NotifyDestinationRow, destination_id)
            if row is not None:
                session.delete(row)

    def test_destination(self, actor: Actor, game: str, destination_id: int,
                         settings: NotifySettings | None = None) -> str:
        """Send a test message to a destination now; its failure as a :class:`GameError`."""
        from voevoda.notify.channels import DeliveryFailed, Target, channel
        from voevoda.notify.content import Receiver, build
        from voevoda.notify.transport import NotifySettings, Transport

        row = self._destination_row(actor, game, destination_id)
        content = build(self, game, "test", None, {}, Receiver(row.scope, row.player, row.account_id, row.lang))  # type: ignore[arg-type]
        if content is None:
            raise GameError("этот канал больше ничего не получит: место не ваше", "this channel gets nothing now: "
                            "the seat is not yours")
        sender = channel(row.kind)
        key = f"test:{row.id}:{self.clock().isoformat()}"
        with Transport(settings or NotifySettings(), self.clock()) as transport:
            parts = sender.parts(content)
            try:
                for number, part in enumerate(parts, 1):
                    sender.send(transport, Target(row.kind, row.target, row.chat_id, row.secret), part, number,
                                len(parts), key, content)
            except DeliveryFailed as exc:
                raise GameError(f"не доставлено: {exc.message}", f"not delivered: {exc.message}") from exc
        return key

    def delivery_status(self, actor: Actor, game: str, *, limit: int = 50) -> DeliveryStatus:
        """The game's deliveries for its game masters: counts, and those failing."""
        from sqlalchemy import func, or_, select

        from voevoda.store.models import NotifyDeliveryRow, NotifyDestinationRow, OutboxRow

        self.access(actor, game).require(Op.NOTIFY)
        status = DeliveryStatus()
        status.chats = [r.chat_id for r in self.chat_recipients(game)]
        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            status.counts = dict(session.execute(select(NotifyDeliveryRow.status, func.count(NotifyDeliveryRow.id))
                                                 .where(NotifyDeliveryRow.game_id == game_id)
                                                 .group_by(NotifyDeliveryRow.status)).all())
            status.waiting_announcements = session.scalar(select(func.count(OutboxRow.id)).where(
                OutboxRow.game_id == game_id, OutboxRow.fanned_out_at.is_(None))) or 0
            rows = session.execute(select(NotifyDeliveryRow, NotifyDestinationRow, OutboxRow).outerjoin(
                NotifyDestinationRow, NotifyDestinationRow.id == NotifyDeliveryRow.destination_id).join(
                OutboxRow, OutboxRow.id == NotifyDeliveryRow.outbox_id).where(
                NotifyDeliveryRow.game_id == game_id,
                or_(NotifyDeliveryRow.status == "gave-up",
                    (NotifyDeliveryRow.status == "pending") & (NotifyDeliveryRow.attempts > 0)))
                .order_by(NotifyDeliveryRow.first_failed_at, NotifyDeliveryRow.id).limit(limit)).all()
            for delivery, dest, outbox in rows:
                if dest is None:
                    name, kind = f"Telegram {delivery.chat_id}", "telegram-chat"
                else:
                    owner = f"{dest.scope}:{dest.player}" if dest.scope == "seat" else dest.scope
                    name, kind = f"{owner} {dest.label or mask(dest.kind, dest.target) if dest.scope != 'seat' else dest.kind}", dest.kind
                status.failing.append(FailingDelivery(
                    delivery.key, name, kind, outbox.kind, outbox.step, delivery.status, delivery.attempts,
                    _stamp(delivery.first_failed_at), _stamp(delivery.next_attempt_at), delivery.last_error))
        return status


def _stamp(moment: object) -> str:
    from datetime import UTC, datetime

    if not isinstance(moment, datetime):
        return ""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="minutes")


def _listed(row: object) -> Destination:
    from voevoda.store.models import NotifyDestinationRow

    assert isinstance(row, NotifyDestinationRow)
    return Destination(row.id, row.scope, row.player, row.kind, mask(row.kind, row.target), row.chat_id, row.mode,
                       row.digest_hour, row.lang, row.label, _stamp(row.created_at))


__all__ = ["ALLOW_PRIVATE_ENV", "AddedDestination", "Destination", "DeliveryStatus", "FailingDelivery",
           "Notifications", "check_url", "mask"]
