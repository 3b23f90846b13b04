"""Tables. The journal (``entries``) is the truth; ``games.state`` is a cache that
replay can always rebuild and that ``voevoda replay --check`` compares against."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True, nullable=False)
    ruleset: Mapped[str] = mapped_column(String(64), nullable=False)
    header: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    state: Mapped[str] = mapped_column(Text, nullable=False)
    state_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    step: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    entry_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class EntryRow(Base):
    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_entries_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    seq: Mapped[int] = mapped_column(Integer, nullable=False)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)


# -- people: accounts, sessions, seats (issue 25; service/ decides who may do what) -------------
#
# Every secret handed to a person (a login link, an invitation, a session, an API token) is a
# random token of at least 128 bits; only its SHA-256 is stored, so a copy of the database
# lets nobody act as anyone.


class AccountRow(Base):
    """A person: the game master who ran ``voevoda serve --init-gm``, a player who opened an
    invitation. ``name_key`` is the name case-folded: two accounts never differ only in case."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    name_key: Mapped[str] = mapped_column(String(100), unique=True, nullable=False)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    can_create_games: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class WebSessionRow(Base):
    """A signed-in browser: the cookie carries the token, signed; the row can be revoked."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                                            index=True)
    csrf_token: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    user_agent: Mapped[str] = mapped_column(String(300), nullable=False, default="")
    address: Mapped[str] = mapped_column(String(64), nullable=False, default="")


class LoginLinkRow(Base):
    """A one-time login link (``voevoda serve --init-gm NAME`` prints one)."""

    __tablename__ = "login_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    spent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MemberRow(Base):
    """Who holds what in a game: its owner (the game master who created it), a co-game-master,
    or a player's seat (``player`` is the seat's name in the game). A seat has one holder."""

    __tablename__ = "game_members"
    __table_args__ = (UniqueConstraint("game_id", "player", name="uq_members_game_seat"),
                      UniqueConstraint("game_id", "account_id", "role", name="uq_members_game_account_role"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                                            index=True)
    role: Mapped[str] = mapped_column(String(16), nullable=False)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class InvitationRow(Base):
    """A secret link to one seat: spent when opened, revocable before."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    player: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    spent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    spent_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ApiTokenRow(Base):
    """A seat's token for a player's own program (``Authorization: Bearer …``)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    player: Mapped[str] = mapped_column(String(200), nullable=False)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    label: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameSettingsRow(Base):
    """What the game master sets about a game beyond its rules: whether spectators may watch,
    the time zone its dates are shown in."""

    __tablename__ = "game_settings"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    is_public: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    timezone: Mapped[str] = mapped_column(String(64), nullable=False, default="UTC")


class SiteSettingRow(Base):
    """Settings of the installation shared by every server process (the cookie signing key)."""

    __tablename__ = "site_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text, nullable=False)


# -- Telegram (issue 27; docs/telegram.md) --------------------------------------------------------


class TelegramChatRow(Base):
    """A Telegram chat that reaches the engine: a private chat linked to an account (through a
    seat's invitation or the account's own link), or a group chat the game master linked to one
    game, which gets that game's public chronicle. ``lang`` is the language chosen in the chat,
    ``seen_lang`` the one Telegram last reported for its user."""

    __tablename__ = "telegram_chats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, unique=True, nullable=False)
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True,
                                                   index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True, index=True)
    current_game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    seen_lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    title: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    linked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    linked_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)


class TelegramLinkRow(Base):
    """A one-time link that ties a chat to the engine: ``account`` links a private chat to the
    account that asked for it, ``group`` links a group chat to the game ``game_id``."""

    __tablename__ = "telegram_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    purpose: Mapped[str] = mapped_column(String(16), nullable=False)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    spent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TelegramDeliveryRow(Base):
    """A push delivered to a chat: a notice (its idempotency key) reaches each chat once, however
    often it is delivered again."""

    __tablename__ = "telegram_deliveries"
    __table_args__ = (UniqueConstraint("key", "chat_id", name="uq_telegram_deliveries_key_chat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), nullable=False)
    chat_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


# -- the outbox: what must be announced, written with the change it announces (issue 26) --------


class OutboxRow(Base):
    """One announcement (a post stored, a step resolved or rolled back, a deadline near, a game
    paused, a seat in civil disorder), written in the same transaction as what it announces and
    delivered later by the worker (src/voevoda/notify/). ``key`` is its idempotency key: the
    same announcement written twice is one row. ``audience`` says who may read it: ``public``,
    ``gm`` or ``seat:<player>``; what each receiver gets is built from its own view at delivery.
    ``payload`` holds only what the audience may see."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True, nullable=False)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(32), nullable=False)
    step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    audience: Mapped[str] = mapped_column(String(250), nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    fanned_out_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    """When the deliverer made this announcement's deliveries (one per destination it reaches)."""


# -- forum threads (issue 26; docs/forum.md) ------------------------------------------------------


class ForumNameRow(Base):
    """A forum name the game master has tied to a seat of the game, once per game (``player``
    ``None``: the name is known and its posts are not a seat's, such as the game master's own).
    ``name_key`` is the name case-folded: a forum does not let two members differ only in case."""

    __tablename__ = "forum_names"
    __table_args__ = (UniqueConstraint("game_id", "name_key", name="uq_forum_names_game_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    name_key: Mapped[str] = mapped_column(String(200), nullable=False)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
# -- the clock: schedules, ready marks, vacations, missed turns (issue 26; docs/clock.md) -------


class ScheduleRow(Base):
    """A game's schedule (src/voevoda/clock/schedule.py) and where its open step stands: ``step``
    is the step ``due_at`` is for, opened at ``opened_at``. Moments are UTC. The worker looks at a
    game when ``wake_at`` has come (a deadline, a reminder) or its journal grew since it last
    looked (``seen_entries``: a post, a resolution by the game master); ``claimed_until`` is the
    lease of the worker looking at it now."""

    __tablename__ = "clock_schedules"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    weekly: Mapped[str | None] = mapped_column(String(32), nullable=True)
    period: Mapped[str | None] = mapped_column(String(32), nullable=True)
    phases: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    early: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    ready_required: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    reminders: Mapped[list[Any]] = mapped_column(JSON, nullable=False, default=list)
    missed_policy: Mapped[str] = mapped_column(String(32), nullable=False, default="default")
    disorder_after: Mapped[int] = mapped_column(Integer, nullable=False, default=3)
    vacation_days: Mapped[int] = mapped_column(Integer, nullable=False, default=14)
    vacation_policy: Mapped[str] = mapped_column(String(16), nullable=False, default="extend")
    step: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    extended_seconds: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    excused: Mapped[list[Any]] = mapped_column(JSON, nullable=False, default=list)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    pause_reason: Mapped[str] = mapped_column(Text, nullable=False, default="")
    remaining_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seen_entries: Mapped[int] = mapped_column(Integer, nullable=False, default=-1)
    wake_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_by: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    last_error: Mapped[str] = mapped_column(Text, nullable=False, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class ReadyRow(Base):
    """A seat's «ready» for one step: with «resolve early», the step need not wait for its
    deadline once every awaited seat has posted (and, where the game asks, is ready)."""

    __tablename__ = "clock_ready"
    __table_args__ = (UniqueConstraint("game_id", "step", "player", name="uq_clock_ready_game_step_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    step: Mapped[int] = mapped_column(Integer, nullable=False)
    player: Mapped[str] = mapped_column(String(200), nullable=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class VacationRow(Base):
    """A seat's planned absence, within the game's limit of days per seat."""

    __tablename__ = "clock_vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    player: Mapped[str] = mapped_column(String(200), nullable=False)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class MissedRow(Base):
    """Turns a seat missed in a row, and what stands in for it: ``disorder`` (civil disorder: its
    units hold), ``computer`` (a computer opponent posts for it until its player posts again).
    ``counted_step`` is the last step counted, so a step is counted once."""

    __tablename__ = "clock_missed"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    missed: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    disorder: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    computer: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    counted_step: Mapped[int] = mapped_column(Integer, nullable=False, default=0)


class NotifyDestinationRow(Base):
    """Where a game's announcements go (docs/notify.md): the game's public channel, its game
    master's channel (``scope`` ``public``, ``gm``: set by a game master), or a seat's private
    channel (``seat``, ``player``: set by that seat's player, ``account_id``). ``kind`` names the
    channel (``discord``, ``slack``, ``telegram-webhook``, ``webhook``, ``email``); ``target`` is
    its address (a webhook URL, an e-mail address), ``chat_id`` Telegram's chat, ``secret`` the
    generic webhook's signing key. ``mode`` ``each`` (one message per event) or ``digest`` (one
    e-mail a day, at ``digest_hour`` UTC)."""

    __tablename__ = "notify_destinations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True)
    scope: Mapped[str] = mapped_column(String(16), nullable=False)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    kind: Mapped[str] = mapped_column(String(32), nullable=False)
    target: Mapped[str] = mapped_column(Text, nullable=False)
    chat_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    secret: Mapped[str | None] = mapped_column(String(200), nullable=True)
    mode: Mapped[str] = mapped_column(String(16), nullable=False, default="each")
    digest_hour: Mapped[int] = mapped_column(Integer, nullable=False, default=7)
    lang: Mapped[str] = mapped_column(String(8), nullable=False, default="ru")
    label: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class NotifyDeliveryRow(Base):
    """One announcement × one destination (a row of ``notify_destinations``, or a Telegram chat
    linked through the bot: ``chat_id``). ``key`` is the idempotency key sent with it; ``status``
    ``pending``, ``delivered``, ``skipped`` (nothing for that receiver) or ``gave-up``; a
    failed attempt sets ``next_attempt_at`` by exponential backoff; ``claimed_until`` and
    ``claimed_by`` keep two deliverers from sending it at once; ``parts_sent`` how many parts of
    a long message went out; ``reported_at`` when the game master was told it keeps failing."""

    __tablename__ = "notify_deliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(250), unique=True, nullable=False)
    outbox_id: Mapped[int] = mapped_column(ForeignKey("outbox.id", ondelete="CASCADE"), nullable=False, index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True, index=True)
    destination_id: Mapped[int | None] = mapped_column(ForeignKey("notify_destinations.id", ondelete="CASCADE"),
                                                       nullable=True, index=True)
    chat_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="pending")
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    parts_sent: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, index=True)
    first_failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, nullable=False, default="")
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reported_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
