"""The Telegram bot's webhook (docs/telegram.md «Webhook»): the web server receives the bot's
updates instead of ``voevoda telegram`` polling for them, and hands each to the bot's handlers."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from voevoda.chat.telegram.links import WEBHOOK_PATH

router = APIRouter()


@router.post(WEBHOOK_PATH)
async def telegram_webhook(request: Request) -> Response:
    from voevoda.chat.telegram.webhook import Webhook

    hook = getattr(request.app.state, "telegram", None)
    if hook is None:
        hook = request.app.state.telegram = Webhook(request.app.state.service)
    status = await hook.receive(await request.body(), request.headers.get("x-telegram-bot-api-secret-token", ""))
    return JSONResponse({"ok": status == 200}, status_code=status)
