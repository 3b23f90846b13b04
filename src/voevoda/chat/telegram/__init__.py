"""The Telegram bot (docs/telegram.md): a thin adapter on python-telegram-bot over the service.

- :mod:`.bot` — the handlers: linking, posts and their echo, the commands;
- :mod:`.push` — what the bot sends unasked (reports at a resolution, reminders): the delivery
  channel of the notifications' outbox;
- :mod:`.send` — messages of :mod:`voevoda.core.chat` sent through the Bot API;
- :mod:`.texts` — what the bot says of itself, in Russian and English.
"""
