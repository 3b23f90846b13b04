"""What the bot says of itself, in Russian and English (everything about a game comes from the
``telegram …`` channels of :mod:`voevoda.core.outputs`). Placeholders are filled with text
escaped for Telegram's HTML (:func:`say`)."""

from __future__ import annotations

from voevoda.core.chat import esc
from voevoda.core.errors import GameError

TEXTS: dict[str, tuple[str, str]] = {
    "help_private": (
        "<b>Бот ведущего voevoda</b>\n"
        "Любое текстовое сообщение — пост с приказами: я читаю его так же, как пост на форуме, и отвечаю, "
        "что понял, с ценами и ошибками (строка и знак).\n\n"
        "/check ТЕКСТ — проверить пост, не сохраняя\n"
        "/status — ход, фаза, кого ждём\n"
        "/report [ход] — ваш отчёт (последнего хода или названного)\n"
        "/map [ход] — ваша карта\n"
        "/games — ваши игры, выбрать игру\n"
        "/ready — готов: можно рассчитывать ход, не дожидаясь срока (/ready no — не готов)\n"
        "/odds [число] — шансы в битве «Стальной Розы»: файл битвы (TOML) следующими строками\n"
        "/lang — язык (ru, en)\n"
        "/unlink — отвязать этот чат\n\n"
        "Ведущему: /resolve [force] — рассчитать шаг, /rollback ПРИЧИНА — откатить последний шаг, "
        "/pause ПРИЧИНА — остановить срок, /resume — продолжить.\n"
        "Связать чат с местом в игре: откройте ссылку-приглашение ведущего.",
        "<b>The voevoda referee bot</b>\n"
        "Any text message is a post of orders: I read it as a forum post and answer what I understood, with "
        "prices and errors (line and column).\n\n"
        "/check TEXT — check a post without storing it\n"
        "/status — turn, phase, who is awaited\n"
        "/report [turn] — your report (of the last turn or the one named)\n"
        "/map [turn] — your map\n"
        "/games — your games, choose one\n"
        "/ready — ready: the turn may resolve without waiting for the deadline (/ready no — not ready)\n"
        "/odds [number] — Steel Rose battle odds: the battle file (TOML) on the next lines\n"
        "/lang — language (ru, en)\n"
        "/unlink — unlink this chat\n\n"
        "Game masters: /resolve [force] — resolve the step, /rollback REASON — roll back the last step, "
        "/pause REASON — stop the clock, /resume — start it again.\n"
        "To link this chat to a seat, open your game master's invitation link."),
    "help_group": (
        "<b>Бот ведущего voevoda</b>\nСюда приходят общая хроника и общая карта после каждого шага.\n"
        "/status — общее положение игры. Приказы, отчёты и карты — в личном чате со мной.",
        "<b>The voevoda referee bot</b>\nThe public chronicle and the public map come here after each step.\n"
        "/status — the game's public status. Orders, reports and maps: in a private chat with me."),
    "not_linked": (
        "Этот чат ещё не связан с игрой. Откройте ссылку-приглашение, которую дал ведущий "
        "(t.me/…?start=…), или нажмите /start с кодом из неё.",
        "This chat is not linked to a game yet. Open the invitation link your game master gave you "
        "(t.me/…?start=…), or send /start with its code."),
    "group_not_linked": (
        "Эта группа не связана с игрой: ведущий связывает её ссылкой со страницы управления игрой.",
        "This group is not linked to a game: the game master links it with the link on the game's page."),
    "group_only_status": (
        "Здесь я отвечаю только на /status. Приказы, отчёты и карты — в личном чате со мной.",
        "Here I answer /status only. Orders, reports and maps: in a private chat with me."),
    "seat_linked": (
        "Готово: вы — <b>{player}</b> в игре «{game}». Присылайте приказы сюда обычным сообщением. /help",
        "Done: you are <b>{player}</b> in the game '{game}'. Send your orders here as a plain message. /help"),
    "account_linked": (
        "Готово: этот чат связан с учётной записью «{name}». /games",
        "Done: this chat is linked to the account '{name}'. /games"),
    "group_linked": (
        "Готово: сюда будут приходить общая хроника и карта игры «{game}».",
        "Done: the public chronicle and map of the game '{game}' will come here."),
    "welcome": (
        "Здравствуйте, {name}! Ваши игры: /games. Справка: /help",
        "Hello, {name}! Your games: /games. Help: /help"),
    "no_games": (
        "У вас пока нет игр. Откройте ссылку-приглашение ведущего.",
        "You have no games yet. Open your game master's invitation link."),
    "choose_game": ("Выберите игру:", "Choose a game:"),
    "game_chosen": ("Игра: «{game}». Приказы и команды теперь идут в неё.",
                    "Game: '{game}'. Posts and commands go to it now."),
    "no_seat": (
        "В игре «{game}» у вас нет места игрока: посты присылают игроки. Ведущему: /resolve, /rollback.",
        "You hold no player's seat in the game '{game}': players send posts. Game masters: /resolve, /rollback."),
    "role_gm": ("ведущий", "game master"),
    "role_seat": ("игрок", "player"),
    "check_usage": (
        "Напишите пост после команды: <code>/check</code> и приказы со следующей строки "
        "(или ответьте командой /check на сообщение с постом).",
        "Write the post after the command: <code>/check</code> and the orders from the next line "
        "(or reply /check to a message that holds the post)."),
    "turn_usage": ("Номер хода — число: например, <code>/{command} 2</code>.",
                   "A turn is a number: for example <code>/{command} 2</code>."),
    "no_map": ("В этой игре нет карты.", "This game has no map."),
    "no_report": ("Отчётов ещё нет: ни один шаг не рассчитан.", "No reports yet: no step is resolved."),
    "rollback_usage": ("Назовите причину: <code>/rollback опечатка в приказе Анны</code>.",
                       "Give the reason: <code>/rollback a typo in Anna's orders</code>."),
    "resolve_usage": ("<code>/resolve</code> или <code>/resolve force</code> (приказы по умолчанию тем, кто молчит).",
                      "<code>/resolve</code> or <code>/resolve force</code> (default orders for the silent)."),
    "lang_choose": ("Язык этого чата:", "This chat's language:"),
    "lang_set": ("Язык: русский.", "Language: English."),
    "lang_usage": ("<code>/lang ru</code> или <code>/lang en</code>.", "<code>/lang ru</code> or <code>/lang en</code>."),
    "unlinked": ("Чат отвязан: сюда больше ничего не придёт. Учётная запись и места остались.",
                 "This chat is unlinked: nothing more comes here. The account and its seats stay."),
    "only_text": ("Я читаю только текст: пришлите приказы обычным сообщением.",
                  "I read text only: send your orders as a plain message."),
    "edited": ("Правки сообщений я не читаю: пришлите исправленный пост новым сообщением (он заменит прежний).",
               "I do not read edited messages: send the corrected post as a new message (it replaces the last one)."),
    "unknown_command": ("Не знаю такой команды. /help", "I do not know that command. /help"),
    "too_many": ("Слишком много сообщений: подождите {seconds} с.", "Too many messages: wait {seconds} s."),
    "error": ("⛔ {message}", "⛔ {message}"),
    "internal": ("Что-то пошло не так на нашей стороне; ведущий найдёт это в журнале бота. Ничего не изменено "
                 "или изменено целиком — посмотрите /status.",
                 "Something went wrong on our side; the game master will find it in the bot's log. Nothing was "
                 "changed, or all of it was — see /status."),
    "odds_usage": (
        "Пришлите файл битвы (TOML, как для <code>voevoda odds</code>) следующими строками после "
        "<code>/odds</code>; число после команды — сколько битв.",
        "Send the battle file (TOML, as for <code>voevoda odds</code>) on the lines after <code>/odds</code>; "
        "a number after the command says how many battles."),
    "odds_wait": ("Считаю {battles} битв…", "Computing {battles} battles…"),
    "odds_compiling": (
        "Пакетный симулятор ещё компилируется (первый расчёт после установки, 1–2 минуты): пока — точный "
        "движок, {battles} битв.",
        "The batched simulator is still compiling (the first run after an install, one to two minutes): meanwhile the "
        "exact engine, {battles} battles."),
    "odds_head": ("<b>{first} — {second}</b>: {battles} битв ({engine})",
                  "<b>{first} — {second}</b>: {battles} battles ({engine})"),
    "odds_side": ("<b>{name}</b>: победы {wins} (95%: {low}–{high})\n    потери в среднем: {losses}",
                  "<b>{name}</b>: wins {wins} (95%: {low}–{high})\n    mean losses: {losses}"),
    "odds_draws": ("Ничьи: {draws}", "Draws: {draws}"),
    "ready_usage": ("<code>/ready</code> — готов, <code>/ready no</code> — не готов.",
                    "<code>/ready</code> — ready, <code>/ready no</code> — not ready."),
    "ready_no_seat": ("У вас нет места в этой игре: отмечать готовность некому.",
                      "You hold no seat in this game: there is nobody to mark ready."),
    "ready_set": ("✓ «{game}», шаг {step}: вы готовы. Срок: {deadline}.",
                  "✓ '{game}', step {step}: you are ready. Deadline: {deadline}."),
    "ready_unset": ("«{game}», шаг {step}: вы больше не готовы. Срок: {deadline}.",
                    "'{game}', step {step}: you are no longer ready. Deadline: {deadline}."),
    "no_deadline": ("не назначен", "none set"),
    "pause_usage": ("Назовите причину: <code>/pause праздники до 10 января</code> (её прочтут все игроки).",
                    "Give a reason: <code>/pause holidays until 10 January</code> (every player reads it)."),
    "paused": ("⏸ «{game}» на паузе: {reason}", "⏸ '{game}' is paused: {reason}"),
    "resumed": ("▶ «{game}» продолжается. Срок: {deadline}.", "▶ '{game}' goes on. Deadline: {deadline}."),
}


MENU: dict[str, tuple[str, str]] = {
    "status": ("ход, фаза, кого ждём", "turn, phase, who is awaited"),
    "report": ("ваш отчёт: /report [ход]", "your report: /report [turn]"),
    "map": ("ваша карта: /map [ход] [file]", "your map: /map [turn] [file]"),
    "check": ("проверить пост, не сохраняя", "check a post without storing it"),
    "games": ("ваши игры, выбрать игру", "your games, choose one"),
    "ready": ("готов: ход можно рассчитать раньше срока", "ready: the turn may resolve before the deadline"),
    "odds": ("шансы в битве «Стальной Розы»", "Steel Rose battle odds"),
    "lang": ("язык: ru или en", "language: ru or en"),
    "help": ("справка", "help"),
}
"""The chat's menu of commands (``setMyCommands``)."""


def menu_of(lang: str) -> list[tuple[str, str]]:
    return [(name, ru if lang == "ru" else en) for name, (ru, en) in MENU.items()]


def refusal(key: str, **values: object) -> GameError:
    """The bot's text ``key`` as a refusal in both languages (answered in the chat's)."""
    import html
    import re

    ru, en = (html.unescape(re.sub(r"<[^>]+>", "", say(key, lang, **values))) for lang in ("ru", "en"))
    return GameError(ru, en)


def say(key: str, lang: str, **values: object) -> str:
    """The bot's text ``key`` in ``lang``, its placeholders filled with escaped ``values``."""
    ru, en = TEXTS[key]
    template = ru if lang == "ru" else en
    return template.format(**{k: esc(v) for k, v in values.items()})


__all__ = ["MENU", "TEXTS", "menu_of", "refusal", "say"]
