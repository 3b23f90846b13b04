"""A stand-in for the Telegram Bot API on loopback: an HTTP server that answers the methods the
bot uses as https://core.telegram.org/bots/api documents them, and records every call.

- ``getMe``, ``getUpdates`` (long polling: held until an update is queued or a moment passes),
  ``deleteWebhook``, ``setWebhook``, ``setMyCommands``, ``getFile`` (and the file itself under
  ``/file/bot<token>/``);
- ``sendMessage``, ``sendPhoto``, ``sendDocument``, ``editMessageText``, ``answerCallbackQuery``:
  checked as Telegram checks them — the chat exists, the text is not empty and at most 4,096
  characters once its entities are parsed (UTF-16 units), a caption at most 1,024, the HTML is
  Telegram's subset with every ``<``, ``>`` and ``&`` of the text escaped and every tag closed —
  and refused with Telegram's own 400 answers otherwise; a photo must be a PNG or JPEG.

The real library is pointed at it with its ``base_url`` and ``base_file_url`` settings.
"""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import html
import itertools
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlparse

TOKEN = "123456789:AAEtestTokenForTheLoopbackStandIn_0123"
BOT = {"id": 123456789, "is_bot": True, "first_name": "Воевода", "username": "voevoda_test_bot",
       "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False}

ALLOWED = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre", "blockquote",
           "tg-spoiler", "span", "tg-emoji"}
_PIECE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^<>]*)?)>|&(#[0-9]+|#x[0-9A-Fa-f]+|lt|gt|amp|quot);|([<>&])")


class Refused(Exception):
    """Telegram's 400 answer."""


def parse_html(text: str) -> str:
    """The visible text of a message in Telegram's HTML, or :class:`Refused` as Telegram refuses it."""
    out: list[str] = []
    stack: list[str] = []
    at = 0
    for match in _PIECE.finditer(text):
        out.append(text[at:match.start()])
        at = match.end()
        closing, name, attrs, entity, stray = match.groups()
        if stray:
            raise Refused(f"Bad Request: can't parse entities: unexpected character {stray!r} at byte offset "
                          f"{len(text[:match.start()].encode())}")
        if entity:
            out.append(html.unescape(f"&{entity};"))
            continue
        name = name.lower()
        if name not in ALLOWED:
            raise Refused(f"Bad Request: can't parse entities: unsupported start tag \"{name}\"")
        if closing:
            if not stack or stack[-1] != name:
                raise Refused(f"Bad Request: can't parse entities: can't find start tag corresponding to end tag "
                              f"\"{name}\"")
            stack.pop()
            continue
        if stack and stack[-1] in ("pre", "code") and not (stack[-1] == "pre" and name == "code"):
            raise Refused(f"Bad Request: can't parse entities: tag \"{name}\" inside \"{stack[-1]}\"")
        if name == "blockquote" and "blockquote" in stack:
            raise Refused("Bad Request: can't parse entities: nested blockquote")
        if attrs.strip() and name not in ("a", "code", "span", "blockquote", "tg-emoji", "pre"):
            raise Refused(f"Bad Request: can't parse entities: unexpected attribute in tag \"{name}\"")
        stack.append(name)
    out.append(text[at:])
    if stack:
        raise Refused(f"Bad Request: can't parse entities: can't find end tag corresponding to start tag "
                      f"\"{stack[-1]}\"")
    return "".join(out)


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class Call:
    """One request the bot made."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    ok: bool
    answer: Any
    at: float = field(default_factory=time.monotonic)

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None and str(value).lstrip("-").isdigit() else None

    @property
    def text(self) -> str:
        """The HTML sent: a message's text or a picture's caption."""
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def visible(self) -> str:
        return parse_html(self.text) if self.params.get("parse_mode") == "HTML" else self.text

    def json(self, name: str) -> Any:
        value = self.params.get(name)
        return json.loads(value) if isinstance(value, str) else value

    @property
    def buttons(self) -> list[tuple[str, str]]:
        markup = self.json("reply_markup") or {}
        return [(b["text"], b.get("callback_data", "")) for row in markup.get("inline_keyboard", []) for b in row]

    @property
    def reply_to(self) -> int | None:
        reply = self.json("reply_parameters")
        return int(reply["message_id"]) if reply else None


SENDING = ("sendMessage", "sendPhoto", "sendDocument", "editMessageText")


class BotApi:
    """The stand-in server (``with BotApi() as api:``); its addresses for the library are
    :attr:`base_url` and :attr:`base_file_url`."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self.files: dict[str, bytes] = {}
        self.failing: dict[int, int] = {}
        """Chats whose sends fail with 403 (a user who blocked the bot), by chat id: how many more."""
        self._lock = threading.Condition()
        self._ids = itertools.count(1)
        self._messages = itertools.count(1000)
        self._chats: dict[int, dict[str, Any]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/file/bot"

    def __enter__(self) -> BotApi:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- updates ---------------------------------------------------------------------------------

    def chat(self, chat_id: int, kind: str = "private", *, first_name: str = "", title: str = "",
             language_code: str | None = "ru", username: str | None = None) -> dict[str, Any]:
        """A chat (and, for a private chat, its user) that updates come from."""
        if kind == "private":
            user: dict[str, Any] = {"id": chat_id, "is_bot": False, "first_name": first_name or f"user{chat_id}"}
            if language_code:
                user["language_code"] = language_code
            if username:
                user["username"] = username
            chat = {"id": chat_id, "type": "private", "first_name": user["first_name"], "user": user}
        else:
            chat = {"id": chat_id, "type": kind, "title": title or f"group {chat_id}"}
        self._chats[chat_id] = chat
        return chat

    def _message(self, chat_id: int, sender: dict[str, Any] | None, **content: Any) -> dict[str, Any]:
        chat = self._chats[chat_id]
        user = sender or chat.get("user")
        body = {"message_id": next(self._messages), "date": int(time.time()),
                "chat": {k: v for k, v in chat.items() if k != "user"}, **content}
        if user is not None:
            body["from"] = user
        return body

    def push(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """Queue an update of ``kind`` (``message``, ``edited_message``, ``callback_query``, …)."""
        with self._lock:
            update = {"update_id": next(self._ids), kind: body}
            self.updates.append(update)
            self._lock.notify_all()
            return update

    def send(self, chat_id: int, text: str, *, sender: dict[str, Any] | None = None,
             reply_to: dict[str, Any] | None = None) -> dict[str, Any]:
        """A person writes ``text`` in the chat (a command is marked as Telegram marks it)."""
        content: dict[str, Any] = {"text": text}
        command = re.match(r"/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?", text)
        if command:
            content["entities"] = [{"type": "bot_command", "offset": 0, "length": units(command.group(0))}]
        if reply_to is not None:
            content["reply_to_message"] = reply_to
        return self.push("message", self._message(chat_id, sender, **content))

    def edit(self, chat_id: int, text: str) -> dict[str, Any]:
        return self.push("edited_message", {**self._message(chat_id, None, text=text), "edit_date": int(time.time())})

    def sticker(self, chat_id: int) -> dict[str, Any]:
        return self.push("message", self._message(chat_id, None, sticker={
            "file_id": "sticker1", "file_unique_id": "s1", "type": "regular", "width": 512, "height": 512,
            "is_animated": False, "is_video": False}))

    def photo(self, chat_id: int, caption: str = "") -> dict[str, Any]:
        return self.push("message", self._message(chat_id, None, caption=caption, photo=[
            {"file_id": "photo1", "file_unique_id": "p1", "width": 90, "height": 60, "file_size": 1000}]))

    def document(self, chat_id: int, data: bytes, name: str, caption: str = "") -> dict[str, Any]:
        file_id = f"doc{len(self.files) + 1}"
        self.files[file_id] = data
        content: dict[str, Any] = {"document": {"file_id": file_id, "file_unique_id": file_id, "file_name": name,
                                                "mime_type": "application/toml", "file_size": len(data)},
                                   "caption": caption}
        command = re.match(r"/[A-Za-z0-9_]+", caption)
        if command:
            content["caption_entities"] = [{"type": "bot_command", "offset": 0, "length": len(command.group(0))}]
        return self.push("message", self._message(chat_id, None, **content))

    def press(self, chat_id: int, message: dict[str, Any], data: str, *,
              sender: dict[str, Any] | None = None) -> dict[str, Any]:
        """A person presses an inline button of ``message`` (one the bot sent)."""
        user = sender or self._chats[chat_id].get("user")
        return self.push("callback_query", {"id": f"cq{next(self._ids)}", "from": user, "message": message,
                                            "chat_instance": f"ci{chat_id}", "data": data})

    def left(self, chat_id: int) -> dict[str, Any]:
        """The bot is removed from a group."""
        member = {"user": BOT, "status": "member"}
        return self.push("my_chat_member", {
            "chat": {k: v for k, v in self._chats[chat_id].items() if k != "user"},
            "from": {"id": 5, "is_bot": False, "first_name": "admin"}, "date": int(time.time()),
            "old_chat_member": member, "new_chat_member": {"user": BOT, "status": "left"}})

    # -- what the bot did ------------------------------------------------------------------------

    def sent(self, chat_id: int | None = None, since: int = 0) -> list[Call]:
        """The messages the bot sent (or edited), to ``chat_id`` or anywhere, from call ``since`` on."""
        with self._lock:
            return [c for c in self.calls[since:] if c.method in SENDING and c.ok
                    and (chat_id is None or c.chat_id == chat_id)]

    def mark(self) -> int:
        with self._lock:
            return len(self.calls)

    async def answers(self, chat_id: int, since: int, *, at_least: int = 1, settle: float = 0.4,
                      timeout: float = 60.0) -> list[Call]:
        """Wait for the bot's answers in ``chat_id`` after call ``since``: at least ``at_least``,
        then none more for ``settle`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.sent(chat_id, since)
            if len(found) >= at_least and time.monotonic() - max(c.at for c in found) >= settle:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot answered chat {chat_id} {len(found)} times, waited for {at_least}: "
                                     f"{[c.visible[:80] for c in found]}")
            await asyncio.sleep(0.05)

    async def quiet(self, since: int, seconds: float = 1.0) -> list[Call]:
        """Everything the bot sent in ``seconds`` after call ``since`` (to prove a silence)."""
        await asyncio.sleep(seconds)
        return self.sent(None, since)

    async def consumed(self, timeout: float = 20.0) -> None:
        """Wait until the bot has fetched every update queued."""
        deadline = time.monotonic() + timeout
        while self.updates:
            if time.monotonic() > deadline:
                raise AssertionError("the bot did not fetch its updates")
            await asyncio.sleep(0.05)

    # -- the server ------------------------------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                return

            def do_GET(self) -> None:
                path = unquote(urlparse(self.path).path)
                prefix = f"/file/bot{TOKEN}/"
                if path.startswith(prefix) and path[len(prefix):] in api.files:
                    self._reply(200, api.files[path[len(prefix):]], "application/octet-stream")
                    return
                self._reply(404, b"Not Found", "text/plain")

            def do_POST(self) -> None:
                path = unquote(urlparse(self.path).path)
                prefix = f"/bot{TOKEN}/"
                if not path.startswith(prefix):
                    self._json(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                    return
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                params, files = _form(self.headers.get("content-type", ""), body)
                method = path[len(prefix):]
                ok, answer, code = api._answer(method, params, files)
                with api._lock:
                    api.calls.append(Call(method, params, files, ok, answer))
                if ok:
                    self._json(200, {"ok": True, "result": answer})
                else:
                    self._json(code, {"ok": False, "error_code": code, "description": answer})

            def _json(self, code: int, data: object) -> None:
                self._reply(code, json.dumps(data, ensure_ascii=False).encode(), "application/json")

            def _reply(self, code: int, data: bytes, kind: str) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # a long poll the bot gave up on
                    return

        return Handler

    def _answer(self, method: str, params: dict[str, Any], files: dict[str, bytes]) -> tuple[bool, Any, int]:
        try:
            return True, self._result(method, params, files), 200
        except Refused as exc:
            code = 403 if str(exc).startswith("Forbidden") else 404 if str(exc) == "Not Found" else 400
            return False, str(exc), code

    def _result(self, method: str, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        if method == "getMe":
            return BOT
        if method in ("deleteWebhook", "setWebhook", "setMyCommands", "close", "logOut"):
            return True
        if method == "getUpdates":
            return self._poll(params)
        if method == "getFile":
            file_id = str(params.get("file_id"))
            if file_id not in self.files:
                raise Refused("Bad Request: invalid file_id")
            return {"file_id": file_id, "file_unique_id": file_id, "file_size": len(self.files[file_id]),
                    "file_path": file_id}
        if method == "answerCallbackQuery":
            if not params.get("callback_query_id"):
                raise Refused("Bad Request: query is too old and response timeout expired or query ID is invalid")
            if units(str(params.get("text") or "")) > 200:
                raise Refused("Bad Request: MESSAGE_TOO_LONG")
            return True
        if method in SENDING:
            return self._send(method, params, files)
        raise Refused("Not Found")

    def _poll(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), 0.5)
        with self._lock:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
            if not self.updates and wait:
                self._lock.wait(wait)
            taken = [u for u in self.updates if u["update_id"] >= offset][: int(params.get("limit") or 100)]
            return taken

    def _send(self, method: str, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        chat_id = params.get("chat_id")
        if chat_id is None or not str(chat_id).lstrip("-").isdigit() or int(chat_id) not in self._chats:
            raise Refused("Bad Request: chat not found")
        chat_id = int(chat_id)
        if self.failing.get(chat_id):
            self.failing[chat_id] -= 1
            raise Refused("Forbidden: bot was blocked by the user")
        html_mode = params.get("parse_mode") == "HTML"
        content: dict[str, Any] = {}
        if method in ("sendMessage", "editMessageText"):
            text = str(params.get("text") or "")
            visible = parse_html(text) if html_mode else text
            if not visible.strip():
                raise Refused("Bad Request: message text is empty")
            if units(visible) > 4096:
                raise Refused("Bad Request: message is too long")
            content["text"] = visible
            if method == "editMessageText" and not params.get("message_id"):
                raise Refused("Bad Request: message identifier is not specified")
        else:
            caption = str(params.get("caption") or "")
            visible = parse_html(caption) if html_mode else caption
            if units(visible) > 1024:
                raise Refused("Bad Request: message caption is too long")
            name = "photo" if method == "sendPhoto" else "document"
            data = _attached(params.get(name), files)
            if data is None:
                raise Refused(f"Bad Request: there is no {name} in the request")
            if name == "photo" and not (data.startswith(b"\x89PNG") or data.startswith(b"\xff\xd8")):
                raise Refused("Bad Request: IMAGE_PROCESS_FAILED")
            if visible:
                content["caption"] = visible
            if name == "photo":
                content["photo"] = [{"file_id": f"sent{len(self.calls)}", "file_unique_id": f"u{len(self.calls)}",
                                     "width": 800, "height": 600, "file_size": len(data)}]
            else:
                content["document"] = {"file_id": f"sent{len(self.calls)}", "file_unique_id": f"u{len(self.calls)}",
                                       "file_name": "map.png", "file_size": len(data)}
        markup = params.get("reply_markup")
        if markup:
            content["reply_markup"] = json.loads(markup) if isinstance(markup, str) else markup
        message_id = int(params["message_id"]) if method == "editMessageText" else next(self._messages)
        chat = {k: v for k, v in self._chats[chat_id].items() if k != "user"}
        return {"message_id": message_id, "date": int(time.time()), "chat": chat, "from": BOT, **content}

    def message_of(self, call: Call) -> dict[str, Any]:
        """The message a call sent, as Telegram gave it back (for pressing its buttons)."""
        assert isinstance(call.answer, dict)
        return call.answer


def _attached(value: Any, files: dict[str, bytes]) -> bytes | None:
    if isinstance(value, str) and value.startswith("attach://"):
        return files.get(value[len("attach://"):])
    for data in files.values():
        return data
    return None


def _form(kind: str, body: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """A request's parameters (JSON-encoded ones left as text, as the Bot API reads them) and files."""
    if kind.startswith("application/json"):
        data = json.loads(body or b"{}")
        return {k: v if isinstance(v, str) else json.dumps(v) if isinstance(v, dict | list) else v
                for k, v in data.items()}, {}
    if kind.startswith("multipart/form-data"):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + kind.encode() + b"\r\n\r\n" + body)
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if part.get_filename() is not None:
                files[str(name)] = payload
            else:
                params[str(name)] = payload.decode("utf-8")
        return params, files
    return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True)), {}


Check = Callable[[Call], bool]

__all__ = ["BOT", "TOKEN", "BotApi", "Call", "Refused", "parse_html", "units"]
