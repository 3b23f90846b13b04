"""The deliverer: each new announcement of the outbox fanned out to the destinations its
audience reaches, each delivery sent, retried with exponential backoff, and the game master told
when one keeps failing for a day (docs/notify.md).

:func:`deliver_due` is one pass; the deadline worker calls it at the end of each of its passes
and ``voevoda notify deliver`` runs one. Two deliverers may run at once: an announcement is
fanned out by one of them (its rows claimed: PostgreSQL ``SELECT … FOR UPDATE SKIP LOCKED``,
SQLite's write lock), and a delivery is claimed for a few minutes by the one that sends it
(``claimed_until``); the unique idempotency key of every delivery keeps an announcement from
being fanned out twice. A deliverer killed while sending leaves its claim to lapse: the delivery
goes out again with the same idempotency key, for the receiver to recognise.

Who gets what (the audience of the announcement; what each reads is built from its own view,
:mod:`voevoda.notify.content`):

| audience | reaches |
|---|---|
| ``public`` | the game's public channels, its game master's channels, every seat's own channels, its linked Telegram chats |
| ``seat:<player>`` | that seat's channels and the game master's |
| ``gm`` | the game master's channels |
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select, update

from voevoda.notify import GAME_MASTER, PUBLIC, Announcement, announce
from voevoda.notify.channels import DeliveryFailed, Target, channel
from voevoda.notify.channels import telegram_chat as chats
from voevoda.notify.content import Content, Receiver, build
from voevoda.notify.transport import NotifySettings, Transport
from voevoda.store.models import (
    GameRow,
    MemberRow,
    NotifyDeliveryRow,
    NotifyDestinationRow,
    OutboxRow,
    TelegramChatRow,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from voevoda.service import Service

log = logging.getLogger("voevoda.notify")

FIRST_RETRY = timedelta(seconds=30)
"""The wait after the first failure; each further failure doubles it …"""
LONGEST_WAIT = timedelta(hours=1)
"""… up to this."""
REPORT_AFTER = timedelta(days=1)
"""A delivery failing this long is reported to the game master (a ``delivery-failing``
announcement)."""
GIVE_UP_AFTER = timedelta(days=7)
"""A delivery failing this long is given up (``gave-up``, on the game master's status page)."""
CLAIM = timedelta(minutes=5)
"""How long a deliverer holds the deliveries it took."""


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: 30 s, 1 min, 2 min, 4 min, … at most 1 h."""
    wait: timedelta = FIRST_RETRY * (2 ** max(0, min(attempts - 1, 20)))
    return wait if wait < LONGEST_WAIT else LONGEST_WAIT


def next_digest(moment: datetime, hour: int) -> datetime:
    """When a digest of what waits at ``moment`` goes out: the next ``hour``:00 UTC."""
    moment = _aware(moment)
    due = moment.replace(hour=hour % 24, minute=0, second=0, microsecond=0)
    return due if due > moment else due + timedelta(days=1)


@dataclass
class DeliveryReport:
    """What one pass did."""

    fanned_out: int = 0
    """Announcements fanned out."""
    created: int = 0
    """Deliveries made (announcement × destination)."""
    sent: int = 0
    skipped: int = 0
    """Nothing for that receiver (a seat no longer its player's, a step rolled back before)."""
    failed: int = 0
    """Failed this time; tried again later."""
    gave_up: int = 0
    reported: int = 0
    """``delivery-failing`` announcements written for the game master."""
    errors: list[str] = field(default_factory=list)

    def text(self) -> str:
        line = (f"оповещений разослано / announcements fanned out: {self.fanned_out}, доставок / deliveries: "
                f"{self.created}; отправлено / sent: {self.sent}, нечего / nothing: {self.skipped}, "
                f"не удалось / failed: {self.failed}, брошено / given up: {self.gave_up}, "
                f"ведущему сообщено / game master told: {self.reported}")
        return "\n".join([line, *self.errors])


@dataclass
class _Claimed:
    delivery_id: int
    key: str
    parts_sent: int
    attempts: int
    first_failed_at: datetime | None
    reported: bool
    chat_id: int | None
    game: str
    game_id: int | None
    outbox_key: str
    kind: str
    step: int | None
    payload: dict[str, Any]
    destination: dict[str, Any] | None


def deliver_due(service: Service, now: datetime, *, limit: int = 200,
                settings: NotifySettings | None = None) -> DeliveryReport:
    """One pass: fan out up to ``limit`` new announcements, then send up to ``limit`` deliveries
    that are due at ``now``."""
    report = DeliveryReport()
    now = _aware(now)
    worker = uuid.uuid4().hex
    _fan_out(service, now, limit, report)
    claimed = _claim(service, now, limit, worker)
    with Transport(settings or NotifySettings(), now) as transport:
        digests: dict[int, list[_Claimed]] = {}
        for item in claimed:
            if item.destination is not None and item.destination["mode"] == "digest":
                digests.setdefault(item.destination["id"], []).append(item)
                continue
            _deliver_one(service, transport, item, now, worker, report)
        for items in digests.values():
            _deliver_digest(service, transport, items, now, worker, report)
    return report


# -- fanning out ----------------------------------------------------------------------------------


def _fan_out(service: Service, now: datetime, limit: int, report: DeliveryReport) -> None:
    store = service.store
    with service.writing(), store.sessions.begin() as session:
        query = select(OutboxRow).where(OutboxRow.fanned_out_at.is_(None)).order_by(OutboxRow.id).limit(limit)
        if not store.is_sqlite:
            query = query.with_for_update(skip_locked=True)
        rows = list(session.scalars(query))
        reach = _Reach(session)
        for row in rows:
            for destination_id, chat_id, due in reach.of(row, now):
                where = f"d{destination_id}" if destination_id is not None else f"tg{chat_id}"
                if _insert_delivery(session, {
                        "key": delivery_key(row.key, where), "outbox_id": row.id, "game_id": row.game_id,
                        "destination_id": destination_id, "chat_id": chat_id, "status": "pending", "attempts": 0,
                        "parts_sent": 0, "next_attempt_at": due, "last_error": "", "created_at": now}):
                    report.created += 1
            report.fanned_out += 1
        if rows:  # one update for the pass's announcements, not one flush after each
            session.execute(update(OutboxRow).where(OutboxRow.id.in_([row.id for row in rows]))
                            .values(fanned_out_at=now).execution_options(synchronize_session=False))


def delivery_key(announcement: str, where: str) -> str:
    """The idempotency key of one delivery: the announcement's key (ASCII, as an HTTP header
    needs it: anything else percent-encoded; a long one shortened by its SHA-256), ``>`` and the
    destination (``d<id>``, ``tg<chat>``)."""
    import hashlib
    from urllib.parse import quote

    ascii_key = quote(announcement, safe=":._-~@+=,")
    if len(ascii_key) > 180:
        ascii_key = ascii_key[:100] + "~" + hashlib.sha256(announcement.encode("utf-8")).hexdigest()[:40]
    return f"{ascii_key}>{where}"


class _Reach:
    """Who the announcements of one fan-out reach: each game's destinations and members, and the
    chats, read once for all of them (a pass near a deadline fans out a post of every seat)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._destinations: dict[int, list[NotifyDestinationRow]] = {}
        self._members: dict[int, list[Any]] = {}
        self._groups: dict[int, list[int]] = {}
        self._private: list[tuple[int, int | None]] | None = None

    def of(self, row: OutboxRow, now: datetime) -> list[tuple[int | None, int | None, datetime]]:
        """The destinations (and linked chats) the announcement's audience reaches."""
        if row.game_id is None:
            return []
        audience = row.audience
        found: list[tuple[int | None, int | None, datetime]] = []
        for dest in self.destinations(row.game_id):
            if audience == PUBLIC:
                reaches = True
            elif audience == GAME_MASTER:
                reaches = dest.scope == "gm"
            elif audience.startswith("seat:"):
                reaches = dest.scope == "gm" or (dest.scope == "seat" and dest.player == audience[len("seat:"):])
            else:
                reaches = False
            if not reaches:
                continue
            due = next_digest(now, dest.digest_hour) if dest.mode == "digest" else now
            found.append((dest.id, None, due))
        if row.kind in chats.KINDS:
            found.extend((None, chat_id, now) for chat_id in self.chats(row.game_id, audience))
        return found

    def destinations(self, game_id: int) -> list[NotifyDestinationRow]:
        if game_id not in self._destinations:
            self._destinations[game_id] = list(self.session.scalars(select(NotifyDestinationRow).where(
                NotifyDestinationRow.game_id == game_id).order_by(NotifyDestinationRow.id)))
        return self._destinations[game_id]

    def chats(self, game_id: int, audience: str) -> list[int]:
        if game_id not in self._members:
            self._members[game_id] = list(self.session.execute(select(
                MemberRow.account_id, MemberRow.role, MemberRow.player).where(MemberRow.game_id == game_id)).all())
        members = self._members[game_id]
        gms = {account for account, role, _ in members if role in ("owner", "co_gm")}
        if audience == PUBLIC:
            accounts = {account for account, _, _ in members}
        elif audience == GAME_MASTER:
            accounts = gms
        elif audience.startswith("seat:"):
            player = audience[len("seat:"):]
            accounts = gms | {account for account, role, p in members if role == "player" and p == player}
        else:
            accounts = set()
        if self._private is None:
            self._private = [(chat_id, account) for chat_id, account in self.session.execute(
                select(TelegramChatRow.chat_id, TelegramChatRow.account_id).where(TelegramChatRow.kind == "private")
                .order_by(TelegramChatRow.id)).all()]
        found = [chat_id for chat_id, account in self._private if account in accounts]
        if audience == PUBLIC:
            if game_id not in self._groups:
                self._groups[game_id] = list(self.session.scalars(select(TelegramChatRow.chat_id).where(
                    TelegramChatRow.kind == "group", TelegramChatRow.game_id == game_id)))
            found.extend(self._groups[game_id])
        return found


def _insert_delivery(session: Session, values: dict[str, Any]) -> bool:
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        done = session.execute(pg_insert(NotifyDeliveryRow).values(values).on_conflict_do_nothing(
            index_elements=["key"]))
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        done = session.execute(sqlite_insert(NotifyDeliveryRow).values(values).on_conflict_do_nothing(
            index_elements=["key"]))
    return bool(getattr(done, "rowcount", 1))


# -- claiming and sending --------------------------------------------------------------------------


def _claim(service: Service, now: datetime, limit: int, worker: str) -> list[_Claimed]:
    store = service.store
    claimed: list[_Claimed] = []
    with service.writing(), store.sessions.begin() as session:
        query = (select(NotifyDeliveryRow).where(
            NotifyDeliveryRow.status == "pending", NotifyDeliveryRow.next_attempt_at <= now,
            or_(NotifyDeliveryRow.claimed_until.is_(None), NotifyDeliveryRow.claimed_until <= now))
            .order_by(NotifyDeliveryRow.next_attempt_at, NotifyDeliveryRow.id).limit(limit))
        if not store.is_sqlite:
            query = query.with_for_update(skip_locked=True)
        rows = list(session.scalars(query))
        for row in rows:
            row.claimed_until = now + CLAIM
            row.claimed_by = worker
        session.flush()
        for row in rows:
            outbox = session.get(OutboxRow, row.outbox_id)
            if outbox is None:  # pragma: no cover - the foreign keys cascade
                row.status, row.claimed_until, row.claimed_by = "skipped", None, None
                continue
            game = session.scalar(select(GameRow.name).where(GameRow.id == row.game_id)) if row.game_id else None
            destination = None
            if row.destination_id is not None:
                dest = session.get(NotifyDestinationRow, row.destination_id)
                if dest is None:  # pragma: no cover - removed destinations take their deliveries along
                    row.status, row.claimed_until, row.claimed_by = "skipped", None, None
                    continue
                destination = {"id": dest.id, "scope": dest.scope, "player": dest.player,
                               "account_id": dest.account_id, "kind": dest.kind, "target": dest.target,
                               "chat_id": dest.chat_id, "secret": dest.secret, "mode": dest.mode,
                               "lang": dest.lang, "label": dest.label or dest.kind}
            claimed.append(_Claimed(row.id, row.key, row.parts_sent, row.attempts, row.first_failed_at,
                                    row.reported_at is not None, row.chat_id, game or "", row.game_id, outbox.key,
                                    outbox.kind, outbox.step, dict(outbox.payload), destination))
    return claimed


def _content(service: Service, item: _Claimed) -> Content | None:
    assert item.destination is not None
    dest = item.destination
    receiver = Receiver(dest["scope"], dest["player"], dest["account_id"], dest["lang"])
    return build(service, item.game, item.kind, item.step, item.payload, receiver)


def _target(dest: dict[str, Any]) -> Target:
    return Target(dest["kind"], dest["target"], dest["chat_id"], dest["secret"])


def _deliver_one(service: Service, transport: Transport, item: _Claimed, now: datetime, worker: str,
                 report: DeliveryReport) -> None:
    try:
        if item.chat_id is not None:
            notice = chats.notice_of(item.game, item.kind, item.step, item.outbox_key, item.payload)
            reached = chats.send(service, transport, notice, item.chat_id)
            _finish(service, [item], worker, now, "delivered" if reached else "skipped", report)
            return
        content = _content(service, item)
        if content is None:
            _finish(service, [item], worker, now, "skipped", report)
            return
        assert item.destination is not None
        kind = channel(item.destination["kind"])
        parts = kind.parts(content)
        for number in range(item.parts_sent + 1, len(parts) + 1):
            key = item.key if len(parts) == 1 else f"{item.key}#{number}/{len(parts)}"
            kind.send(transport, _target(item.destination), parts[number - 1], number, len(parts), key, content)
            if number < len(parts):
                _part_sent(service, item, worker, number)
        _finish(service, [item], worker, now, "delivered", report)
    except DeliveryFailed as exc:
        _failed(service, [item], worker, now, exc, report)
    except Exception as exc:  # a bug in a message's making must not lose the delivery
        log.exception("delivery %s", item.key)
        _failed(service, [item], worker, now, DeliveryFailed(f"{type(exc).__name__}: {exc}"[:500]), report)


def _deliver_digest(service: Service, transport: Transport, items: list[_Claimed], now: datetime, worker: str,
                    report: DeliveryReport) -> None:
    from voevoda.notify.channels.smtp import send_digest

    contents: list[Content] = []
    empty: list[_Claimed] = []
    for item in items:
        try:
            content = _content(service, item)
        except Exception as exc:
            log.exception("delivery %s", item.key)
            _failed(service, [item], worker, now, DeliveryFailed(f"{type(exc).__name__}: {exc}"[:500]), report)
            continue
        if content is None:
            empty.append(item)
        else:
            contents.append(content)
    if empty:
        _finish(service, empty, worker, now, "skipped", report)
    full = [item for item in items if item not in empty]
    if not contents:
        return
    assert full[0].destination is not None
    try:
        send_digest(transport, _target(full[0].destination), contents, f"digest:{full[0].key}")
    except DeliveryFailed as exc:
        _failed(service, full, worker, now, exc, report)
        return
    _finish(service, full, worker, now, "delivered", report)


def _mine(session: Session, item: _Claimed, worker: str) -> NotifyDeliveryRow | None:
    row = session.get(NotifyDeliveryRow, item.delivery_id)
    if row is None or row.claimed_by != worker:
        return None  # another deliverer took it over after our claim lapsed
    return row


def _part_sent(service: Service, item: _Claimed, worker: str, number: int) -> None:
    with service.writing(), service.store.sessions.begin() as session:
        row = _mine(session, item, worker)
        if row is not None:
            row.parts_sent = number


def _finish(service: Service, items: list[_Claimed], worker: str, now: datetime, status: str,
            report: DeliveryReport) -> None:
    with service.writing(), service.store.sessions.begin() as session:
        for item in items:
            row = _mine(session, item, worker)
            if row is None:
                continue
            row.status = status
            row.delivered_at = now if status == "delivered" else None
            row.claimed_until = None
            row.claimed_by = None
            row.last_error = "" if status == "delivered" else row.last_error
            if status == "delivered":
                report.sent += 1
            else:
                report.skipped += 1


def _failed(service: Service, items: list[_Claimed], worker: str, now: datetime, exc: DeliveryFailed,
            report: DeliveryReport) -> None:
    with service.writing(), service.store.sessions.begin() as session:
        for item in items:
            row = _mine(session, item, worker)
            if row is None:
                continue
            row.attempts += 1
            first = _aware(row.first_failed_at) if row.first_failed_at is not None else now
            row.first_failed_at = first
            wait = backoff(row.attempts)
            if exc.retry_after is not None:
                wait = max(wait, timedelta(seconds=min(exc.retry_after, LONGEST_WAIT.total_seconds())))
            row.next_attempt_at = now + wait
            row.last_error = exc.message[:2000]
            row.claimed_until = None
            row.claimed_by = None
            report.failed += 1
            report.errors.append(f"{item.key}: {exc.message}")
            if now - first >= GIVE_UP_AFTER:
                row.status = "gave-up"
                report.gave_up += 1
            if now - first >= REPORT_AFTER and row.reported_at is None and item.kind != "delivery-failing":
                row.reported_at = now
                label = (item.destination or {}).get("label") or (f"Telegram {item.chat_id}" if item.chat_id else "?")
                announce(session, Announcement(
                    f"{row.key}:failing"[:200], "delivery-failing", GAME_MASTER, item.game_id, item.step,
                    {"destination": label, "channel": (item.destination or {}).get("kind", "telegram-chat"),
                     "since": first.isoformat(timespec="minutes"), "attempts": row.attempts,
                     "error": exc.message[:300], "announcement": item.kind}), at=now)
                report.reported += 1


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = ["delivery_key", "CLAIM", "FIRST_RETRY", "GIVE_UP_AFTER", "LONGEST_WAIT", "REPORT_AFTER", "DeliveryReport",
           "backoff", "deliver_due", "next_digest"]
