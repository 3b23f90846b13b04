"""Chats: Telegram chats linked to accounts and games (docs/telegram.md).

A private chat acts as the account it is linked to — a :class:`~voevoda.service.actors.Person`,
with exactly what that account may do on the web — and is linked the way a browser signs in: by
a seat's invitation (``/start <token>``, spent as on the web; a newcomer gets an account named
after them) or by a one-time link the account asked for. A group chat is linked by a game
master to one game and acts as a :class:`~voevoda.service.actors.ChatGroup`: the public face of
that game and nothing else (:mod:`voevoda.service.access`).

The bot itself keeps nothing: which chat is whose, the game a player in several games chose,
the language chosen, and the pushes already delivered (a notice reaches a chat once) are rows
of the store. The bot's token is a setting of the installation when it is not in the
environment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Literal

from voevoda.core.errors import GameError
from voevoda.service.access import Op
from voevoda.service.actors import ANONYMOUS, Actor, ChatGroup, Operator, Person
from voevoda.service.errors import Conflict, Forbidden, NotFound, gm_only
from voevoda.service.people import People, _aware, _person, new_token, token_hash

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from voevoda.store.models import TelegramChatRow, TelegramLinkRow

LINK_HOURS = 24
"""How long a chat link (an account's, a group's) stays good."""
TOKEN_SETTING = "telegram_token"
USERNAME_SETTING = "telegram_username"
BOT_TOKEN = re.compile(r"^[0-9]{3,15}:[A-Za-z0-9_-]{30,64}$")
"""The shape of a token BotFather gives."""
MAX_TITLE = 200

ChatKind = Literal["private", "group"]
RUSSIAN_SPEAKING = ("ru", "uk", "be", "kk", "ky", "uz", "tg", "hy", "az", "ka")
"""Telegram ``language_code`` values (their first part) that get Russian when the chat has not
chosen: the languages of players who mostly read Russian better than English."""


def chat_language(chosen: str | None, account: str | None, seen: str | None) -> str:
    """The language of a chat: chosen in the chat (``/lang``), else the account's, else from the
    ``language_code`` Telegram reports for its user (Russian for the languages of
    :data:`RUSSIAN_SPEAKING`, English for the others), else Russian."""
    for choice in (chosen, account):
        if choice in ("ru", "en"):
            return choice
    if seen:
        return "ru" if seen.split("-")[0].lower() in RUSSIAN_SPEAKING else "en"
    return "ru"


@dataclass(frozen=True)
class Chat:
    """A chat as the engine knows it; ``kind`` ``unknown`` for a chat nobody linked."""

    chat_id: int
    kind: Literal["private", "group", "unknown"]
    person: Person | None
    """The account a private chat acts as."""
    group: ChatGroup | None
    """What a linked group acts as."""
    game: str | None
    """A group's game; the game a private chat chose (``/games``)."""
    lang: str
    """The chat's language (:func:`chat_language`)."""
    chosen_lang: str | None


@dataclass(frozen=True)
class ChatLinked:
    """What a link did: a seat taken (``seat``), the chat tied to an account (``account``), a
    group tied to a game (``group``)."""

    what: Literal["seat", "account", "group"]
    game: str | None
    player: str | None
    person: Person | None


@dataclass(frozen=True)
class Recipient:
    """A chat that gets a game's pushes, with the actor it reads as and its language."""

    chat_id: int
    actor: Person | ChatGroup
    lang: str


@dataclass(frozen=True)
class LinkedGroup:
    """The group chat of a game, as the game master's page shows it."""

    chat_id: int
    title: str
    linked_at: str


class Chats(People):
    """Chats linked to accounts and games; mixed into :class:`voevoda.service.Service`."""

    # -- reading a chat -------------------------------------------------------------------------

    def chat(self, chat_id: int, seen_lang: str | None = None) -> Chat:
        """The chat ``chat_id``; ``seen_lang`` (the ``language_code`` of the message's sender)
        is remembered for the pushes, which come with no message to read it from."""
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, GameRow, TelegramChatRow

        seen = (seen_lang or "")[:8] or None
        with self.store.reads() as session:
            row = session.scalar(select(TelegramChatRow).where(TelegramChatRow.chat_id == chat_id))
            if row is None:
                return Chat(chat_id, "unknown", None, None, None, chat_language(None, None, seen), None)
            account = session.get(AccountRow, row.account_id) if row.account_id is not None else None
            game_id = row.game_id if row.kind == "group" else row.current_game_id
            game = session.scalar(select(GameRow.name).where(GameRow.id == game_id)) if game_id is not None else None
            stale = seen is not None and seen != row.seen_lang
            lang = chat_language(row.lang, account.lang if account is not None else None, seen or row.seen_lang)
            chat = Chat(chat_id, "group" if row.kind == "group" else "private",
                        _person(account) if account is not None and row.kind == "private" else None,
                        ChatGroup(chat_id, row.game_id) if row.kind == "group" and row.game_id is not None else None,
                        game, lang, row.lang)
        if stale:
            with self.store.sessions.begin() as session:
                fresh = session.scalar(select(TelegramChatRow).where(TelegramChatRow.chat_id == chat_id))
                if fresh is not None:
                    fresh.seen_lang = seen
        return chat

    # -- linking -----------------------------------------------------------------------------

    def chat_link(self, actor: Actor, purpose: Literal["account", "group"], game: str | None = None,
                  account_name: str | None = None) -> str:
        """A one-time link (its token, shown once) that ties a chat to the engine: ``account``
        ties a private chat to the asking person's account (the command line names the account),
        ``group`` ties a group chat to ``game`` (its game masters only)."""
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, TelegramLinkRow

        account_id: int | None = None
        game_id: int | None = None
        with self.store.sessions.begin() as session:
            if purpose == "account":
                if isinstance(actor, Person):
                    account_id = actor.account_id
                elif isinstance(actor, Operator) and account_name:
                    account_id = session.scalar(select(AccountRow.id).where(
                        AccountRow.name_key == account_name.strip().casefold()))
                    if account_id is None:
                        raise NotFound(f"нет учётной записи «{account_name}»", f"no account named '{account_name}'")
                else:
                    raise Forbidden("нужно войти", "you need to sign in")
            elif purpose == "group":
                if game is None:
                    raise GameError("какой игре?", "which game?")
                self.access(actor, game).require(Op.MANAGE)
                game_id = self._game_id(session, game)
                account_id = actor.account_id if isinstance(actor, Person) else None
            else:
                raise ValueError(f"unknown chat link purpose {purpose!r}")
            token = new_token()
            now = self.clock()
            session.add(TelegramLinkRow(token_hash=token_hash(token), purpose=purpose, account_id=account_id,
                                        game_id=game_id, created_at=now, expires_at=now + timedelta(hours=LINK_HOURS)))
        return token

    def link_chat(self, payload: str, chat_id: int, kind: ChatKind, *, name: str | None = None,
                  title: str = "") -> ChatLinked:
        """Spend ``payload`` (a bot deep link's parameter) for the chat ``chat_id``: in a private
        chat a seat's invitation (checked and spent as on the web: the seat goes to the chat's
        account, or to a new account named ``name``) or an account's link; in a group, a group
        link of a game. Refused as «not valid» when it is none of these, spent or expired."""
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, GameRow, InvitationRow, TelegramChatRow

        payload = payload.strip()
        with self.store.sessions.begin() as session:
            row = self._chat_row(session, chat_id)
            if row is not None and row.kind != kind:
                raise Conflict("этот чат уже связан иначе", "this chat is already linked another way")
            now = self.clock()
            if kind == "private":
                if session.scalar(select(InvitationRow.id).where(InvitationRow.token_hash == token_hash(payload))):
                    actor: Actor = ANONYMOUS
                    if row is not None and row.account_id is not None:
                        actor = Person(row.account_id, "")
                    joined = self._spend_invitation(session, payload, actor, name, sign_in=None)
                    game_id = self._game_id(session, joined.game)
                    row = self._tie(session, row, chat_id, "private", joined.person.account_id, None, title)
                    row.current_game_id = game_id
                    return ChatLinked("seat", joined.game, joined.player, joined.person)
                link = self._spend_link(session, payload, "account")
                assert link.account_id is not None
                row = self._tie(session, row, chat_id, "private", link.account_id, None, title)
                account = session.get(AccountRow, link.account_id)
                if account is None:
                    raise NotFound("учётной записи больше нет", "the account no longer exists")
                return ChatLinked("account", None, None, _person(account))
            link = self._spend_link(session, payload, "group")
            assert link.game_id is not None
            for other in session.scalars(select(TelegramChatRow).where(
                    TelegramChatRow.kind == "group", TelegramChatRow.game_id == link.game_id,
                    TelegramChatRow.chat_id != chat_id)):
                session.delete(other)  # a game has one group: a new one replaces it
            row = self._tie(session, row, chat_id, "group", None, link.game_id, title)
            row.linked_by = link.account_id
            row.linked_at = now
            game = session.scalar(select(GameRow.name).where(GameRow.id == link.game_id))
            return ChatLinked("group", game, None, None)

    def _chat_row(self, session: Session, chat_id: int) -> TelegramChatRow | None:
        from sqlalchemy import select

        from voevoda.store.models import TelegramChatRow

        return session.scalar(select(TelegramChatRow).where(TelegramChatRow.chat_id == chat_id))

    def _tie(self, session: Session, row: TelegramChatRow | None, chat_id: int, kind: ChatKind,
             account_id: int | None, game_id: int | None, title: str) -> TelegramChatRow:
        from voevoda.store.models import TelegramChatRow

        if row is None:
            row = TelegramChatRow(chat_id=chat_id, kind=kind, linked_at=self.clock())
            session.add(row)
        if row.account_id != account_id or row.game_id != game_id:
            row.linked_at = self.clock()
        row.account_id, row.game_id = account_id, game_id
        row.title = " ".join(title.split())[:MAX_TITLE]
        session.flush()
        return row

    def _spend_link(self, session: Session, token: str, purpose: str) -> TelegramLinkRow:
        from sqlalchemy import select

        from voevoda.store.models import TelegramLinkRow

        link = session.scalar(select(TelegramLinkRow).where(TelegramLinkRow.token_hash == token_hash(token),
                                                             TelegramLinkRow.purpose == purpose))
        now = self.clock()
        if link is None or link.spent_at is not None or _aware(link.expires_at) < now:
            raise NotFound("ссылка недействительна: она уже использована, устарела или неверна",
                           "the link is not valid: it was used, has expired or is wrong")
        link.spent_at = now
        return link

    def unlink_chat(self, chat_id: int) -> bool:
        """Forget a chat (``/unlink`` in it, or a group the bot was removed from): its account
        and seats stay, it gets nothing more. ``False`` when it was not linked."""
        with self.store.sessions.begin() as session:
            row = self._chat_row(session, chat_id)
            if row is None:
                return False
            session.delete(row)
            return True

    def move_chat(self, old: int, new: int) -> None:
        """A group that Telegram turned into a supergroup keeps its link under its new id."""
        with self.store.sessions.begin() as session:
            row = self._chat_row(session, old)
            if row is not None and self._chat_row(session, new) is None:
                row.chat_id = new

    def unlink_group(self, actor: Actor, game: str) -> bool:
        """Stop the pushes to the game's group chat (its game masters)."""
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import delete

        from voevoda.store.models import TelegramChatRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            done = session.execute(delete(TelegramChatRow).where(TelegramChatRow.kind == "group",
                                                                 TelegramChatRow.game_id == game_id))
            return bool(getattr(done, "rowcount", 0))

    def linked_group(self, actor: Actor, game: str) -> LinkedGroup | None:
        """The game's group chat, for its game masters."""
        self.access(actor, game).require(Op.MANAGE)
        from sqlalchemy import select

        from voevoda.store.models import TelegramChatRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            row = session.scalar(select(TelegramChatRow).where(TelegramChatRow.kind == "group",
                                                               TelegramChatRow.game_id == game_id))
            if row is None:
                return None
            return LinkedGroup(row.chat_id, row.title, _aware(row.linked_at).isoformat(timespec="minutes"))

    # -- what a private chat chose ---------------------------------------------------------------

    def choose_chat_game(self, chat_id: int, game: str | None) -> None:
        """The game a private chat's posts and commands go to (``/games``): one the chat's
        account holds a seat in or runs."""
        with self.store.sessions.begin() as session:
            row = self._chat_row(session, chat_id)
            if row is None or row.kind != "private" or row.account_id is None:
                raise Forbidden("этот чат не связан с учётной записью", "this chat is not linked to an account")
            if game is None:
                row.current_game_id = None
                return
            from sqlalchemy import select

            from voevoda.store.models import GameRow, MemberRow

            game_id = session.scalar(select(GameRow.id).where(GameRow.name == game))
            member = game_id is not None and session.scalar(select(MemberRow.id).where(
                MemberRow.game_id == game_id, MemberRow.account_id == row.account_id).limit(1)) is not None
            if not member:
                raise NotFound(f"у вас нет игры «{game}»", f"you have no game named '{game}'")
            row.current_game_id = game_id

    def set_chat_language(self, chat_id: int, lang: str | None) -> None:
        """The language a chat chose (``None``: Telegram's, again)."""
        if lang not in (None, "ru", "en"):
            raise GameError("язык: ru или en", "language: ru or en")
        with self.store.sessions.begin() as session:
            row = self._chat_row(session, chat_id)
            if row is None:
                raise NotFound("этот чат ещё не связан с игрой", "this chat is not linked to a game yet")
            row.lang = lang

    # -- pushes ---------------------------------------------------------------------------------

    def chat_recipients(self, game: str) -> list[Recipient]:
        """The chats that get ``game``'s pushes: the private chats of its members (seats, game
        masters), each reading as its account, and its group chat, reading as the group. What
        each one gets is what its actor may see (:meth:`~voevoda.service.Service.sight`)."""
        from sqlalchemy import select

        from voevoda.store.models import AccountRow, MemberRow, TelegramChatRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            found: list[Recipient] = []
            rows = session.execute(select(TelegramChatRow, AccountRow).join(
                AccountRow, AccountRow.id == TelegramChatRow.account_id).where(
                TelegramChatRow.kind == "private",
                TelegramChatRow.account_id.in_(select(MemberRow.account_id).where(MemberRow.game_id == game_id)))
                .order_by(TelegramChatRow.id)).all()
            for row, account in rows:
                found.append(Recipient(row.chat_id, _person(account), chat_language(row.lang, account.lang,
                                                                                     row.seen_lang)))
            for row in session.scalars(select(TelegramChatRow).where(TelegramChatRow.kind == "group",
                                                                     TelegramChatRow.game_id == game_id)):
                found.append(Recipient(row.chat_id, ChatGroup(row.chat_id, game_id),
                                       chat_language(row.lang, None, row.seen_lang)))
        return found

    def delivered(self, key: str, chat_id: int) -> bool:
        """Whether the notice ``key`` has reached the chat."""
        from sqlalchemy import select

        from voevoda.store.models import TelegramDeliveryRow

        with self.store.reads() as session:
            return session.scalar(select(TelegramDeliveryRow.id).where(
                TelegramDeliveryRow.key == key, TelegramDeliveryRow.chat_id == chat_id)) is not None

    def record_delivery(self, key: str, chat_id: int) -> None:
        """The notice ``key`` has reached the chat (a second record of it changes nothing)."""
        from sqlalchemy.exc import IntegrityError

        from voevoda.store.models import TelegramDeliveryRow

        try:
            with self.store.sessions.begin() as session:
                session.add(TelegramDeliveryRow(key=key[:200], chat_id=chat_id, sent_at=self.clock()))
        except IntegrityError:
            return

    # -- the bot's settings ----------------------------------------------------------------------

    def telegram_token(self) -> str | None:
        """The bot's token stored by the installation's game master (the environment's
        ``VOEVODA_TELEGRAM_TOKEN`` is read by the bot itself, first)."""
        return self._site_setting(TOKEN_SETTING)

    def telegram_username(self) -> str | None:
        """The bot's @name, as the running bot last learned it from Telegram (for deep links)."""
        return self._site_setting(USERNAME_SETTING)

    def set_telegram_token(self, actor: Actor, token: str | None) -> None:
        """Store (or with ``None`` forget) the bot's token: the installation's game master."""
        if not (isinstance(actor, Operator) or (isinstance(actor, Person) and actor.can_create_games)):
            raise gm_only()
        if token is not None:
            token = token.strip()
            if not BOT_TOKEN.match(token):
                raise GameError("это не токен бота: BotFather даёт его в виде 123456789:AAE…",
                                "this is not a bot token: BotFather gives one like 123456789:AAE…")
        self._set_site_setting(TOKEN_SETTING, token)
        if token is None:
            self._set_site_setting(USERNAME_SETTING, None)

    def set_telegram_username(self, username: str) -> None:
        """What the running bot learned from Telegram's ``getMe`` (no secret)."""
        clean = username.strip().lstrip("@")
        if re.fullmatch(r"[A-Za-z0-9_]{3,64}", clean):
            self._set_site_setting(USERNAME_SETTING, clean)

    def _site_setting(self, key: str) -> str | None:
        from voevoda.store.models import SiteSettingRow

        with self.store.reads() as session:
            row = session.get(SiteSettingRow, key)
            return row.value if row is not None else None

    def _set_site_setting(self, key: str, value: str | None) -> None:
        from voevoda.store.models import SiteSettingRow

        with self.store.sessions.begin() as session:
            row = session.get(SiteSettingRow, key)
            if value is None:
                if row is not None:
                    session.delete(row)
            elif row is None:
                session.add(SiteSettingRow(key=key, value=value))
            else:
                row.value = value


__all__ = ["Chat", "ChatLinked", "Chats", "LinkedGroup", "Recipient", "chat_language"]
