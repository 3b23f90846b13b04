"""The Telegram bot: the Bot API (python-telegram-bot) on one side, the service on the other.

Each handler reads an update, asks the service with the chat's actor — a private chat acts as
the account it is linked to, a linked group as that group (:mod:`voevoda.service.chats`) — and
sends what the ``telegram …`` channels of :mod:`voevoda.core.outputs` built for that actor's
viewer. The bot decides nothing about a game: no rules, no permissions (a player's
``/resolve`` is refused by the service, as on the web), no deadlines (the notifications deliver
through :mod:`voevoda.chat.telegram.push`).

Before any handler, every update passes :meth:`TelegramBot.gate`: an update seen before (a
webhook delivered twice) is dropped, an edited message gets a short answer, a group's chatter
that is not a command is ignored, and a chat over its rate limit gets one «wait» and then
silence until the limit frees it. Nothing a person sends ends in a traceback: a refusal is
answered with its reason, a fault of ours with a short apology (its traceback goes to the log).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from voevoda.chat.telegram.links import api_url, file_api_url
from voevoda.chat.telegram.push import Delivered, deliver, resolved_notice
from voevoda.chat.telegram.send import send_messages
from voevoda.chat.telegram.texts import menu_of, refusal, say
from voevoda.core import outputs
from voevoda.core.chat import ChatMessage, preformatted, texts
from voevoda.core.errors import DataError, GameError
from voevoda.service.errors import NotFound, RateLimited

if TYPE_CHECKING:
    from voevoda.service import GameListing, Person, Service
    from voevoda.service.chats import Chat

log = logging.getLogger("voevoda.telegram")

PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a deep link's ``start`` parameter may be (Telegram's own rule)."""
MAX_BATTLE_FILE = 256 * 1024
Context = ContextTypes.DEFAULT_TYPE
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


@dataclass
class BotSettings:
    """How the bot behaves beyond what the service decides."""

    join_window: float = 2.0
    """Seconds a long message waits for its continuation: Telegram cuts a text longer than 4,096
    characters into several messages, which the bot reads as one post."""
    split_hint: int = 3500
    """A message at least this long (as Telegram counts) may be the first part of a cut one."""
    odds_battles: int = 10_000
    odds_most: int = 100_000
    exact_battles: int = 300
    """Battles of the exact engine while the batched simulator compiles."""
    compile_in_background: bool = True
    """Start compiling the batched simulator when it is first asked for (tests: off)."""
    remembered_updates: int = 4096


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _language_code(update: Update) -> str | None:
    user = update.effective_user
    return user.language_code if user is not None else None


def _rest(message: Message) -> str:
    """A command's text after the command itself, its line breaks kept."""
    text = message.text or message.caption or ""
    entities = message.entities or message.caption_entities or ()
    first = next((e for e in entities if e.type == "bot_command" and e.offset == 0), None)
    rest = text[first.length:] if first is not None else text.partition(" ")[2]
    return rest.lstrip(" \t").removeprefix("\n") if rest.lstrip(" \t").startswith("\n") else rest.strip(" \t")


def _joined(parts: list[Update]) -> str:
    """The text of a post Telegram cut into messages (it cuts at a line break where it can)."""
    return "\n".join(u.effective_message.text or "" for u in parts if u.effective_message is not None)


def _game_key(name: str) -> str:
    return "g:" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]


class TelegramBot:
    """The handlers of one bot over one service; :meth:`install` puts them on an application."""

    def __init__(self, service: Service, settings: BotSettings | None = None) -> None:
        self.service = service
        self.settings = settings or BotSettings()
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._quiet_until: dict[int, float] = {}
        self._parts: dict[int, list[Update]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._compiling = False

    # -- the application -----------------------------------------------------------------------

    def application(self, token: str, *, base_url: str | None = None, base_file_url: str | None = None,
                    polling: bool = True) -> Application[Any, Any, Any, Any, Any, Any]:
        """The library's application with this bot's handlers: for long polling, or (``polling``
        off) for updates that a webhook hands to :meth:`Application.process_update`."""
        builder = Application.builder().token(token).base_url(base_url or api_url())
        files = base_file_url or file_api_url()
        if files:
            builder = builder.base_file_url(files)
        if not polling:
            builder = builder.updater(None)
        app = builder.post_init(self.ready).build()
        self.install(app)
        return app

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        app.add_handler(TypeHandler(Update, self.gate), group=-1)
        app.add_handler(ChatMemberHandler(self._guarded(self.membership), ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._guarded(self.migrated)))
        commands: dict[str, Handler] = {
            "start": self.start, "link": self.start, "help": self.help, "games": self.games,
            "status": self.status, "report": self.report, "map": self.map, "check": self.check,
            "resolve": self.resolve, "rollback": self.rollback, "lang": self.lang, "unlink": self.unlink,
            "ready": self.mark_ready, "pause": self.pause, "resume": self.resume}
        for name, handler in commands.items():
            app.add_handler(CommandHandler(name, self._guarded(handler)))
        app.add_handler(CommandHandler("odds", self._guarded(self.odds), block=False))
        app.add_handler(MessageHandler(filters.Document.ALL & filters.CaptionRegex(r"^/odds(@\w+)?(\s|$)"),
                                       self._guarded(self.odds), block=False))
        app.add_handler(CallbackQueryHandler(self._guarded(self.button)))
        app.add_handler(MessageHandler(filters.COMMAND, self._guarded(self.unknown)))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self._guarded(self.text)))
        app.add_handler(MessageHandler(filters.ALL, self._guarded(self.other)))
        app.add_error_handler(self._fault)

    async def ready(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Once the bot knows its name: keep it for the deep links the web app shows, and tell
        Telegram the commands (the chat's menu, in both languages)."""
        await asyncio.to_thread(self.service.set_telegram_username, app.bot.username)
        for lang in ("ru", "en"):
            menu = [BotCommand(name, text) for name, text in menu_of(lang)]
            try:
                await app.bot.set_my_commands(menu, language_code=lang)
            except TelegramError as exc:
                log.warning("setMyCommands (%s): %s", lang, exc)

    # -- the gate --------------------------------------------------------------------------------

    async def gate(self, update: Update, context: Context) -> None:
        """Before every handler: drop repeats, edits, group chatter and floods."""
        if update.update_id in self._seen:
            raise ApplicationHandlerStop
        self._seen[update.update_id] = None
        while len(self._seen) > self.settings.remembered_updates:
            self._seen.popitem(last=False)
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.CHANNEL:
            raise ApplicationHandlerStop
        if update.my_chat_member is not None:
            return
        private = chat.type == ChatType.PRIVATE
        message = update.message
        if update.edited_message is not None:
            if private and await self._counted(update):
                await self._answer(update, say("edited", await self._lang(update)))
            raise ApplicationHandlerStop
        if not private and message is not None:
            if message.migrate_to_chat_id:
                return
            command = (message.text or "").startswith("/") or (message.caption or "").startswith("/odds")
            if not command:
                raise ApplicationHandlerStop  # a group's own conversation
        if not await self._counted(update):
            raise ApplicationHandlerStop

    async def _counted(self, update: Update) -> bool:
        """Count the update against its chat's limit; over it, say «wait» once and then nothing."""
        chat = update.effective_chat
        assert chat is not None
        try:
            self.service.throttle("chat", f"telegram:{chat.id}")
        except RateLimited as exc:
            now = time.monotonic()
            if self._quiet_until.get(chat.id, 0.0) <= now:
                self._quiet_until[chat.id] = now + exc.retry_after
                await self._answer(update, say("too_many", await self._lang(update), seconds=exc.retry_after))
            return False
        return True

    # -- answering ---------------------------------------------------------------------------------

    def _guarded(self, handler: Handler) -> Handler:
        """``handler`` whose refusals are answered with their reason and whose faults with a short
        apology, never a traceback."""
        async def guarded(update: Update, context: Context) -> None:
            try:
                await handler(update, context)
            except (ApplicationHandlerStop, asyncio.CancelledError):
                raise
            except Exception as exc:  # noqa: BLE001 - every failure gets an answer
                await self._refusal(update, exc)
        guarded.__name__ = handler.__name__
        return guarded

    async def _refusal(self, update: Update, exc: BaseException) -> None:
        lang = await self._lang(update)
        if isinstance(exc, GameError):
            text = say("error", lang, message=exc.message_ru if lang == "ru" else exc.message_en)
        elif isinstance(exc, DataError):
            text = say("error", lang, message=str(exc))
        else:
            log.exception("the bot failed on update %s", update.update_id, exc_info=exc)
            text = say("internal", lang)
        try:
            await self._answer(update, text)
        except TelegramError as error:
            log.warning("could not answer update %s: %s", update.update_id, error)

    async def _fault(self, update: object, context: Context) -> None:
        log.error("the bot failed: %s", context.error, exc_info=context.error)

    async def _answer(self, update: Update, text: str | list[ChatMessage], *, markup: Any = None,
                      as_file: bool = False, filename: str = "map.png") -> None:
        chat = update.effective_chat
        if chat is None:
            return
        messages = texts(text) if isinstance(text, str) else text
        reply_to = update.effective_message.message_id if update.effective_message is not None else None
        await send_messages(update.get_bot(), chat.id, messages, reply_to=reply_to, markup=markup,
                            as_file=as_file, filename=filename)

    async def _chat(self, update: Update) -> Chat:
        chat = update.effective_chat
        assert chat is not None
        return await asyncio.to_thread(self.service.chat, chat.id, _language_code(update))

    async def _lang(self, update: Update) -> str:
        try:
            return (await self._chat(update)).lang
        except Exception:  # noqa: BLE001 - the language of an apology must not fail it
            from voevoda.service.chats import chat_language

            return chat_language(None, None, _language_code(update))

    async def _game_of(self, update: Update, chat: Chat) -> tuple[Person, GameListing] | None:
        """The game a private chat's command goes to: the one chosen with ``/games``, else the only
        one its account has; otherwise the buttons to choose (and ``None``)."""
        if chat.person is None:
            await self._answer(update, say("not_linked", chat.lang))
            return None
        mine = [g for g in await asyncio.to_thread(self.service.games, chat.person) if g.roles]
        chosen = next((g for g in mine if g.name == chat.game), None)
        if chosen is not None:
            return chat.person, chosen
        if len(mine) == 1:
            return chat.person, mine[0]
        if not mine:
            await self._answer(update, say("no_games", chat.lang))
            return None
        await self._answer(update, say("choose_game", chat.lang), markup=self._games_keyboard(mine, chat))
        return None

    def _games_keyboard(self, games: list[GameListing], chat: Chat) -> InlineKeyboardMarkup:
        rulesets = {rid: (ru, en) for rid, ru, en, _, _ in self.service.rulesets()}
        rows = []
        for game in games:
            ru, en = rulesets.get(game.ruleset, (game.ruleset, game.ruleset))
            roles = [say("role_seat", chat.lang) + " " + role.split(":", 1)[1] if role.startswith("seat:")
                     else say("role_gm", chat.lang) for role in game.roles]
            mark = "✓ " if game.name == chat.game else ""
            label = f"{mark}{game.name} — {ru if chat.lang == 'ru' else en} · {', '.join(roles)}"
            rows.append([InlineKeyboardButton(label[:120], callback_data=_game_key(game.name))])
        return InlineKeyboardMarkup(rows)

    @staticmethod
    def _seat(game: GameListing) -> str | None:
        return next((role.split(":", 1)[1] for role in game.roles if role.startswith("seat:")), None)

    async def _group(self, update: Update, chat: Chat) -> bool:
        """In a group: whether it is linked (it says so when it is not)."""
        if chat.group is None or chat.game is None:
            await self._answer(update, say("group_not_linked", chat.lang))
            return False
        return True

    # -- linking ---------------------------------------------------------------------------------

    async def start(self, update: Update, context: Context) -> None:
        """``/start [code]`` (a deep link opened) and ``/link code``: link the chat; without a
        code, a greeting."""
        chat_data = update.effective_chat
        assert chat_data is not None and update.effective_message is not None
        private = chat_data.type == ChatType.PRIVATE
        payload = (context.args or [""])[0]
        if not payload:
            chat = await self._chat(update)
            if not private:
                await self._answer(update, say("help_group", chat.lang))
            elif chat.person is None:
                await self._answer(update, say("not_linked", chat.lang))
            else:
                await self._answer(update, say("welcome", chat.lang, name=chat.person.name))
            return
        self.service.throttle("join", f"telegram:{chat_data.id}")
        if len(context.args or []) != 1 or not PAYLOAD.match(payload):
            raise NotFound("ссылка недействительна: она уже использована, устарела или неверна",
                           "the link is not valid: it was used, has expired or is wrong")
        user = update.effective_user
        name = (user.full_name if user is not None else "") or None
        title = (chat_data.title if not private else user.username if user is not None else "") or ""
        linked = await asyncio.to_thread(self.service.link_chat, payload, chat_data.id,
                                         "private" if private else "group", name=name, title=title)
        chat = await self._chat(update)
        if linked.what == "seat":
            await self._answer(update, say("seat_linked", chat.lang, player=linked.player, game=linked.game))
            assert linked.person is not None and linked.game is not None
            sight = await asyncio.to_thread(self.service.sight, linked.person, linked.game)
            await self._answer(update, await asyncio.to_thread(sight.chat_status, chat.lang))
        elif linked.what == "account":
            assert linked.person is not None
            await self._answer(update, say("account_linked", chat.lang, name=linked.person.name))
        else:
            await self._answer(update, say("group_linked", chat.lang, game=linked.game))

    async def unlink(self, update: Update, context: Context) -> None:
        chat = await self._chat(update)
        if chat.kind == "unknown":
            await self._answer(update, say("not_linked", chat.lang))
            return
        if chat.kind == "group":
            await self._answer(update, say("group_only_status", chat.lang))
            return
        await asyncio.to_thread(self.service.unlink_chat, chat.chat_id)
        await self._answer(update, say("unlinked", chat.lang))

    async def membership(self, update: Update, context: Context) -> None:
        """The bot removed from a group: the group is forgotten (it gets nothing more)."""
        change = update.my_chat_member
        if change is None:
            return
        if change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            await asyncio.to_thread(self.service.unlink_chat, change.chat.id)

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its link follows it to the new chat."""
        message = update.effective_message
        if message is not None and message.migrate_to_chat_id:
            await asyncio.to_thread(self.service.move_chat, message.chat.id, message.migrate_to_chat_id)

    # -- reading ---------------------------------------------------------------------------------

    async def help(self, update: Update, context: Context) -> None:
        chat = await self._chat(update)
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        await self._answer(update, say("help_private" if private else "help_group", chat.lang))

    async def games(self, update: Update, context: Context) -> None:
        chat = await self._chat(update)
        if chat.kind == "group":
            await self._answer(update, say("group_only_status", chat.lang))
            return
        if chat.person is None:
            await self._answer(update, say("not_linked", chat.lang))
            return
        mine = [g for g in await asyncio.to_thread(self.service.games, chat.person) if g.roles]
        if not mine:
            await self._answer(update, say("no_games", chat.lang))
            return
        keyboard = await asyncio.to_thread(self._games_keyboard, mine, chat)
        await self._answer(update, say("choose_game", chat.lang), markup=keyboard)

    async def status(self, update: Update, context: Context) -> None:
        """``/status``: the chat's game through the chat's eyes (a group: the public status)."""
        chat = await self._chat(update)
        if chat.kind == "group":
            if await self._group(update, chat):
                assert chat.group is not None and chat.game is not None
                sight = await asyncio.to_thread(self.service.sight, chat.group, chat.game)
                await self._answer(update, await asyncio.to_thread(sight.chat_status, chat.lang))
            return
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        sight = await asyncio.to_thread(self.service.sight, person, game.name)
        await self._answer(update, await asyncio.to_thread(sight.chat_status, chat.lang))

    @staticmethod
    def _turn(context: Context, command: str, *, words: tuple[str, ...] = ()) -> tuple[int | None, set[str]]:
        """A command's arguments: a turn number and the ``words`` it takes; anything else refused."""
        turn: int | None = None
        flags: set[str] = set()
        for arg in context.args or []:
            if arg.lower() in words:
                flags.add(arg.lower())
            elif arg.isdigit() and turn is None and len(arg) < 7:
                turn = int(arg)
            else:
                raise refusal("turn_usage", command=command)
        return turn, flags

    async def _private_only(self, update: Update, chat: Chat) -> bool:
        if chat.kind == "group":
            await self._answer(update, say("group_only_status", chat.lang))
            return False
        return True

    async def report(self, update: Update, context: Context) -> None:
        """``/report [turn]``: the chat's own report, cut into messages."""
        chat = await self._chat(update)
        if not await self._private_only(update, chat):
            return
        turn, _ = self._turn(context, "report")
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        if game.steps_resolved == 0:
            await self._answer(update, say("no_report", chat.lang))
            return
        sight = await asyncio.to_thread(self.service.sight, person, game.name)
        await self._answer(update, await asyncio.to_thread(sight.chat_report, turn, chat.lang))

    async def map(self, update: Update, context: Context) -> None:
        """``/map [turn] [file]``: the chat's own map as a picture (``file``: as a PNG file)."""
        chat = await self._chat(update)
        if not await self._private_only(update, chat):
            return
        turn, flags = self._turn(context, "map", words=("file", "файл"))
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        sight = await asyncio.to_thread(self.service.sight, person, game.name)
        messages = await asyncio.to_thread(sight.chat_map, chat.lang, turn)
        if not messages:
            await self._answer(update, say("no_map", chat.lang))
            return
        await self._answer(update, messages, as_file=bool(flags), filename=f"{game.name}-map.png")

    # -- posts ---------------------------------------------------------------------------------

    async def text(self, update: Update, context: Context) -> None:
        """A text message in a private chat: a post. A long one waits a moment for the parts that
        Telegram cut off it (:attr:`BotSettings.join_window`)."""
        message = update.effective_message
        chat_data = update.effective_chat
        if message is None or chat_data is None or chat_data.type != ChatType.PRIVATE or not message.text:
            return
        key = chat_data.id
        long = _units(message.text) >= self.settings.split_hint
        parts = self._parts.get(key)
        if parts is not None:
            parts.append(update)
            timer = self._timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            if long:
                self._timers[key] = asyncio.get_running_loop().create_task(self._later(key))
                return
            del self._parts[key]
            await self._post(update, _joined(parts), store=True)
            return
        if long:
            self._parts[key] = [update]
            self._timers[key] = asyncio.get_running_loop().create_task(self._later(key))
            return
        await self._post(update, message.text, store=True)

    async def _later(self, key: int) -> None:
        """The parts of a long post once no more came within the window; answered under the last."""
        await asyncio.sleep(self.settings.join_window)
        parts = self._parts.pop(key, None)
        self._timers.pop(key, None)
        if parts:
            try:
                await self._post(parts[-1], _joined(parts), store=True)
            except Exception as exc:  # noqa: BLE001 - answered like any handler's failure
                await self._refusal(parts[-1], exc)

    async def check(self, update: Update, context: Context) -> None:
        """``/check TEXT`` (or ``/check`` in reply to a post): the echo, nothing stored."""
        message = update.effective_message
        chat = await self._chat(update)
        if message is None or not await self._private_only(update, chat):
            return
        text = _rest(message)
        if not text.strip() and message.reply_to_message is not None:
            text = message.reply_to_message.text or ""
        if not text.strip():
            await self._answer(update, say("check_usage", chat.lang))
            return
        await self._post(update, text, store=False)

    async def _post(self, update: Update, text: str, *, store: bool) -> None:
        chat_data = update.effective_chat
        assert chat_data is not None
        lock = self._locks.setdefault(chat_data.id, asyncio.Lock())
        async with lock:
            chat = await self._chat(update)
            found = await self._game_of(update, chat)
            if found is None:
                return
            person, game = found
            seat = self._seat(game)
            if seat is None:
                await self._answer(update, say("no_seat", chat.lang, game=game.name))
                return
            self.service.throttle("post" if store else "check", f"telegram:{chat_data.id}")
            echo = await asyncio.to_thread(self._echo, person, game.name, seat, text, store)
            await self._answer(update, outputs.chat_echo(echo, chat.lang))

    def _echo(self, actor: Person, game: str, seat: str, text: str, store: bool) -> outputs.Echo:
        """The post stored (or checked) through the service, and its echo as data, as the web's
        order form does it."""
        return self.service.echo(actor, game, seat, text, store=store)

    # -- the game master ---------------------------------------------------------------------------

    async def resolve(self, update: Update, context: Context) -> None:
        """``/resolve [force]``: the step open when the command is read; the service refuses a
        player (only the game's game masters resolve) and a step resolved meanwhile."""
        chat = await self._chat(update)
        if not await self._private_only(update, chat):
            return
        args = [a.lower() for a in context.args or []]
        if args not in ([], ["force"]):
            await self._answer(update, say("resolve_usage", chat.lang))
            return
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        step = game.steps_resolved + 1
        done = await asyncio.to_thread(self.service.resolve, person, game.name, step=step, force=bool(args))
        await self._answer(update, await asyncio.to_thread(lambda: preformatted(done.text)))
        await self.announce(update.get_bot(), game.name, step, done.step.digest)

    async def _with_reason(self, update: Update, usage: str) -> tuple[Any, str, Any] | None:
        """A game master's command that needs a reason (``/rollback``, ``/pause``) in a private
        chat: the chat, the reason and the chat's game, or ``None`` once the chat has been told
        what is missing (``usage``: the words that say how to write the command)."""
        message = update.effective_message
        chat = await self._chat(update)
        if message is None or not await self._private_only(update, chat):
            return None
        reason = " ".join(_rest(message).split())
        if not reason:
            await self._answer(update, say(usage, chat.lang))
            return None
        found = await self._game_of(update, chat)
        if found is None:
            return None
        return chat, reason, found

    async def rollback(self, update: Update, context: Context) -> None:
        """``/rollback REASON``: the last step resolved, with its public reason."""
        asked = await self._with_reason(update, "rollback_usage")
        if asked is None:
            return
        chat, reason, (person, game) = asked
        done = await asyncio.to_thread(self.service.rollback, person, game.name, step=game.steps_resolved,
                                       reason=reason[:2000])
        await self._answer(update, await asyncio.to_thread(lambda: preformatted(done.text)))

    # -- the clock (docs/clock.md): calls of the service's clock operations ----------------------------

    async def mark_ready(self, update: Update, context: Context) -> None:
        """``/ready`` (or ``/ready no``): the player's own seat ready for the open step, or not;
        the service refuses a seat that is not the chat's and a seat nothing is awaited from."""
        chat = await self._chat(update)
        if not await self._private_only(update, chat):
            return
        args = [a.lower() for a in context.args or []]
        if args not in ([], ["no"], ["нет"]):
            await self._answer(update, say("ready_usage", chat.lang))
            return
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        seat = self._seat(game)
        if seat is None:
            await self._answer(update, say("ready_no_seat", chat.lang))
            return
        view = await asyncio.to_thread(self.service.ready, person, game.name, seat, ready=not args)
        left = view.left(chat.lang)
        deadline = f"{view.local()} ({left})" if view.due_at is not None else say("no_deadline", chat.lang)
        await self._answer(update, say("ready_set" if not args else "ready_unset", chat.lang, game=game.name,
                                       step=view.step, deadline=deadline))

    async def pause(self, update: Update, context: Context) -> None:
        """``/pause REASON``: the game master stops the clock, with a public reason."""
        asked = await self._with_reason(update, "pause_usage")
        if asked is None:
            return
        chat, reason, (person, game) = asked
        await asyncio.to_thread(self.service.pause, person, game.name, reason=reason[:500])
        await self._answer(update, say("paused", chat.lang, game=game.name, reason=reason[:500]))

    async def resume(self, update: Update, context: Context) -> None:
        """``/resume``: the game master starts the clock again, with the time the step had left."""
        chat = await self._chat(update)
        if not await self._private_only(update, chat):
            return
        found = await self._game_of(update, chat)
        if found is None:
            return
        person, game = found
        view = await asyncio.to_thread(self.service.resume, person, game.name)
        deadline = view.local() if view.due_at is not None else say("no_deadline", chat.lang)
        await self._answer(update, say("resumed", chat.lang, game=game.name, deadline=deadline))

    async def announce(self, bot: Any, game: str, step: int, digest: str) -> Delivered:
        """The pushes of a resolution made from the chat (what the outbox of the notifications
        delivers for every other resolution)."""
        return await deliver(self.service, bot, resolved_notice(game, step, digest))

    # -- the chat's settings -------------------------------------------------------------------------

    async def lang(self, update: Update, context: Context) -> None:
        chat = await self._chat(update)
        args = [a.lower() for a in context.args or []]
        if not args:
            keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Русский", callback_data="l:ru"),
                                              InlineKeyboardButton("English", callback_data="l:en")]])
            await self._answer(update, say("lang_choose", chat.lang), markup=keyboard)
            return
        if args[0] not in ("ru", "en") or len(args) > 1:
            await self._answer(update, say("lang_usage", chat.lang))
            return
        if chat.kind == "unknown":
            await self._answer(update, say("not_linked", chat.lang))
            return
        await asyncio.to_thread(self.service.set_chat_language, chat.chat_id, args[0])
        await self._answer(update, say("lang_set", args[0]))

    async def button(self, update: Update, context: Context) -> None:
        """An inline button: a game chosen (``/games``) or a language (``/lang``). A button is
        read for the chat it was pressed in and nothing else."""
        query = update.callback_query
        chat_data = update.effective_chat
        if query is None:
            return
        if chat_data is None or query.message is None:
            await query.answer()
            return
        data = query.data or ""
        markup = getattr(query.message, "reply_markup", None)
        offered = {b.callback_data for row in (markup.inline_keyboard if markup else ()) for b in row}
        if data not in offered:  # a client may send any data: only a button the message carries counts
            await query.answer()
            return
        chat = await self._chat(update)
        if data in ("l:ru", "l:en") and chat.kind != "unknown":
            await asyncio.to_thread(self.service.set_chat_language, chat.chat_id, data[2:])
            await query.answer(say("lang_set", data[2:]))
            await query.edit_message_text(say("lang_set", data[2:]), parse_mode=ParseMode.HTML)
            return
        if data.startswith("g:") and chat.person is not None and chat_data.type == ChatType.PRIVATE:
            mine = [g for g in await asyncio.to_thread(self.service.games, chat.person) if g.roles]
            chosen = next((g for g in mine if _game_key(g.name) == data), None)
            if chosen is not None:
                await asyncio.to_thread(self.service.choose_chat_game, chat.chat_id, chosen.name)
                chat = await self._chat(update)
                await query.answer(say("game_chosen", chat.lang, game=chosen.name)[:190])
                keyboard = await asyncio.to_thread(self._games_keyboard, mine, chat)
                await query.edit_message_text(say("game_chosen", chat.lang, game=chosen.name),
                                              parse_mode=ParseMode.HTML, reply_markup=keyboard)
                return
        await query.answer()

    # -- the rest ---------------------------------------------------------------------------------

    async def unknown(self, update: Update, context: Context) -> None:
        chat_data = update.effective_chat
        if chat_data is not None and chat_data.type == ChatType.PRIVATE:
            await self._answer(update, say("unknown_command", await self._lang(update)))

    async def other(self, update: Update, context: Context) -> None:
        """Stickers, photos, voice, files: a private chat is told the bot reads text."""
        chat_data = update.effective_chat
        if chat_data is not None and chat_data.type == ChatType.PRIVATE and update.effective_message is not None:
            await self._answer(update, say("only_text", await self._lang(update)))

    # -- odds ------------------------------------------------------------------------------------

    async def odds(self, update: Update, context: Context) -> None:
        """``/odds [N]`` with a Steel Rose battle file on the next lines (or sent as a file with
        the caption ``/odds``): the batched simulator's odds, as ``voevoda odds``."""
        message = update.effective_message
        chat = await self._chat(update)
        if message is None or not await self._private_only(update, chat):
            return
        head, _, body = _rest(message).partition("\n")
        if message.document is not None:
            if (message.document.file_size or 0) > MAX_BATTLE_FILE:
                raise DataError(f"battle file: over {MAX_BATTLE_FILE // 1024} KB")
            file = await message.document.get_file()
            data = await file.download_as_bytearray()
            try:
                body = bytes(data).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError(f"battle file: not UTF-8 text (byte {exc.start})") from exc
            head = _rest(message)
        words = head.split()
        if len(words) > 1 or (words and not (words[0].isdigit() and len(words[0]) < 7)) or not body.strip():
            await self._answer(update, say("odds_usage", chat.lang))
            return
        self.service.throttle("odds", f"telegram:{chat.chat_id}")
        read = await asyncio.to_thread(read_battle, body)
        wanted = min(int(words[0]) if words else self.settings.odds_battles, self.settings.odds_most)
        exact = await asyncio.to_thread(self._simulator_busy, read)
        battles = min(wanted, self.settings.exact_battles) if exact else max(1, wanted)
        await self._answer(update, say("odds_compiling" if exact else "odds_wait", chat.lang, battles=battles))
        result = await asyncio.to_thread(battle_odds, read, battles, exact)
        await self._answer(update, odds_messages(result, chat.lang))

    def _simulator_busy(self, read: tuple[Any, Any, Any]) -> bool:
        """Whether the batched simulator still needs its first compile (then the exact engine
        answers, and the compile starts in the background, once, on this battle)."""
        from voevoda.sim.batch import needs_compiling

        if not needs_compiling():
            return False
        if self.settings.compile_in_background and not self._compiling:
            import threading

            self._compiling = True
            threading.Thread(target=_compile_simulator, args=(read,), name="voevoda-sim-compile", daemon=True).start()
        return True


def _compile_simulator(read: tuple[Any, Any, Any]) -> None:
    try:
        battle_odds(read, 100, exact=False)
    except Exception:  # noqa: BLE001 - a background compile that fails only leaves the exact engine
        log.exception("compiling the batched simulator failed")


def read_battle(text: str) -> tuple[Any, Any, Any]:
    """A battle file's text read and checked (every problem of both posts, with its line), as
    ``voevoda odds`` reads the file: ``(battle, rules, sides)``."""
    from pathlib import Path

    from voevoda.rulesets.steel_rose.battle.sides import battle_from_text, build_sides
    from voevoda.rulesets.steel_rose.rules import load_rules

    battle = battle_from_text(text, Path("battle.toml"))
    rules = load_rules()
    sides, problems = build_sides(battle.specs, rules)
    found = []
    for index in (0, 1):
        for problem in problems[index]:
            key = "deployment" if problem.rule == "Расстановка" else "plan"
            at = battle.line_of(index, key, problem.line)
            where = f"[{('attacker', 'defender')[index]}].{key}" + (f", line {at}" if at else "")
            found.append(f"{where} ({battle.specs[index].name}): {problem.format('ru')} / {problem.format('en')}")
    if found:
        raise DataError("battle.toml: " + "; ".join(found[:8]))
    return battle, rules, sides


def battle_odds(read: tuple[Any, Any, Any], battles: int, exact: bool) -> dict[str, Any]:
    """The odds of a battle (:func:`read_battle`): the batched simulator, or the exact engine
    (``exact``); the shape of ``voevoda odds --json``, with the unit names of the rules."""
    battle, rules, sides = read
    seed = battle.seed if battle.seed is not None else "telegram"
    if exact:
        from voevoda.cli.battle import exact_odds

        out = exact_odds(battle, rules, sides, battles, seed, lambda: None)
    else:
        from voevoda.sim import odds

        out = odds(battle, battles, seed, rules=rules).to_json()
    out["unit_names"] = {uid: (unit.name_ru, unit.name_en) for uid, unit in rules.units.items()}
    return out


def odds_messages(out: dict[str, Any], lang: str) -> list[ChatMessage]:
    from voevoda.core.words import number, percent

    names = out.get("unit_names", {})
    sides = out["sides"]
    lines = [say("odds_head", lang, first=sides[0]["name"], second=sides[1]["name"], battles=out["battles"],
                 engine=out["engine"])]
    for side in sides:
        low, high = side["interval95"]
        losses = ", ".join(f"{names.get(u, (u, u))[0 if lang == 'ru' else 1]} {number(k, lang, digits=2)}"
                           for u, k in side["mean_losses"].items()) or "—"
        lines.append(say("odds_side", lang, name=side["name"], wins=percent(100 * side["win_rate"], lang),
                         low=percent(100 * low, lang), high=percent(100 * high, lang), losses=losses))
    if out.get("draws"):
        lines.append(say("odds_draws", lang, draws=out["draws"]))
    return texts("\n".join(lines))


__all__ = ["BotSettings", "TelegramBot", "battle_odds", "odds_messages", "read_battle"]
