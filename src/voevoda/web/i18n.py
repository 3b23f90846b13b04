"""The web app's own words, in Russian (the default) and English.

Game texts (reports, echoes, prompts) come from the engine in both languages already; these are
the words of the pages around them. A language is chosen, in order, by the ``?lang=`` of a link
(remembered in a cookie), the signed-in account's choice, and the browser's ``Accept-Language``;
Russian when none says otherwise.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

LANGS = ("ru", "en")

WORDS: dict[str, tuple[str, str]] = {
    "site": ("voevoda — движок ведущего", "voevoda — the game master's engine"),
    "my_games": ("Мои игры", "My games"),
    "public_games": ("Открытые игры", "Public games"),
    "no_games": ("Пока ни одной игры.", "No games yet."),
    "sign_in": ("Войти", "Sign in"),
    "sign_out": ("Выйти", "Sign out"),
    "name": ("Имя", "Name"),
    "password": ("Пароль", "Password"),
    "account": ("Учётная запись", "Account"),
    "new_game": ("Новая игра", "New game"),
    "import_game": ("Загрузить игру", "Import a game"),
    "game": ("Игра", "Game"),
    "ruleset": ("Правила", "Rules"),
    "turn": ("Ход", "Turn"),
    "phase": ("Фаза", "Phase"),
    "step_open": ("Открыт шаг", "Open step"),
    "steps_resolved": ("Рассчитано шагов", "Steps resolved"),
    "game_over": ("Игра окончена", "The game is over"),
    "winners": ("Победители", "Winners"),
    "awaited": ("ждём", "awaited"),
    "posted": ("приказы получены", "posted"),
    "not_awaited": ("ход не за ним", "not awaited"),
    "bot": ("компьютер", "computer"),
    "seats": ("Места", "Seats"),
    "orders": ("Приказы", "Orders"),
    "view": ("Обзор", "Overview"),
    "reports": ("Отчёты", "Reports"),
    "chronicle": ("Хроника", "Chronicle"),
    "dice": ("Кости", "Dice"),
    "manage": ("Ведущему", "Game master"),
    "map": ("Карта", "Map"),
    "download_png": ("Скачать PNG", "Download PNG"),
    "download_svg": ("Скачать SVG", "Download SVG"),
    "as_seen_by": ("Глазами", "As seen by"),
    "public": ("все (открыто)", "everyone (public)"),
    "gm": ("ведущий", "game master"),
    "your_post": ("Ваш пост", "Your post"),
    "post_hint": ("Вставьте пост так же, как написали бы его на форуме: разметка, приветствия и подписи не мешают. "
                  "Проверка идёт по мере набора.",
                  "Paste the post as you would write it on the forum: markup, greetings and signatures do no harm. "
                  "It is checked as you type."),
    "check": ("Проверить", "Check"),
    "send": ("Отправить", "Send"),
    "standing_post": ("Ваш пост этого шага", "Your post for this step"),
    "standing_post_of": ("от", "of"),
    "frozen": ("заморожен после отката: изменить его может только ведущий",
               "frozen after a rollback: only the game master can reopen it"),
    "no_standing_post": ("Вы ещё не прислали приказов на этот шаг.", "You have not posted for this step yet."),
    "not_awaited_now": ("Сейчас от вас ничего не ждут.", "Nothing is awaited from you now."),
    "echo_checked": ("Проверено: будет понято так", "Checked: it will be read as"),
    "echo_accepted": ("Принято", "Accepted"),
    "echo_refused": ("Не принято", "Refused"),
    "understood": ("Понято", "Understood"),
    "problems": ("Ошибки", "Problems"),
    "warnings": ("Предупреждения", "Warnings"),
    "not_read": ("Не прочитано как приказы", "Not read as orders"),
    "not_bold": ("Не прочитано: ничего не выделено жирным", "Not read: nothing on the line is bold"),
    "set_aside": ("Цитаты и спойлеры не читаются: строки", "Quotes and spoilers set aside: lines"),
    "line": ("строка", "line"),
    "status": ("Состояние", "Status"),
    "report_of_turn": ("Отчёт за ход", "Report of turn"),
    "no_reports": ("Ещё ни один ход не рассчитан.", "No turn has been resolved yet."),
    "copy_as": ("Скопировать как", "Copy as"),
    "copy": ("Копировать", "Copy"),
    "copied": ("Скопировано", "Copied"),
    "formats": ("Форматы", "Formats"),
    "dice_intro": ("Каждый бросок этой игры — чистая функция опубликованного зерна шага. Эта страница пересчитывает "
                   "броски у вас в браузере, по процедуре docs/dice.md, независимо от кода сервера.",
                   "Every roll of this game is a pure function of the step's published seed. This page re-derives "
                   "the rolls in your own browser, by the procedure of docs/dice.md, independently of the server's "
                   "code."),
    "verify": ("Проверить броски", "Verify the rolls"),
    "verify_file": ("или проверьте выгрузку, сохранённую раньше", "or check an export you saved earlier"),
    "last_digest": ("Последняя запись, которую вы видели в отчёте (необязательно)",
                    "The last record you saw in a report (optional)"),
    "commitment": ("Обязательство", "Commitment"),
    "export_public": ("Открытая выгрузка (JSON)", "Public export (JSON)"),
    "export_full": ("Полная выгрузка ведущего (секрет и все приказы)", "The game master's full export (secret and every post)"),
    "needs_js": ("Для проверки в браузере нужен JavaScript; без него скачайте выгрузку и проверьте её командой "
                 "voevoda verify.", "Checking in the browser needs JavaScript; without it, download the export and "
                 "check it with voevoda verify."),
    "resolve": ("Рассчитать шаг", "Resolve the step"),
    "resolve_force": ("Рассчитать без недостающих (приказы по умолчанию)", "Resolve without the missing posts (default orders)"),
    "rollback": ("Откатить последний шаг", "Roll back the last step"),
    "reopen": ("Открыть замороженный приказ", "Reopen a frozen post"),
    "edit": ("Правка состояния (JSON Patch)", "State edit (JSON Patch)"),
    "preview": ("Предпросмотр", "Preview"),
    "apply": ("Применить", "Apply"),
    "reveal": ("Раскрыть секрет (после конца игры)", "Reveal the secret (after the game is over)"),
    "delete": ("Удалить игру", "Delete the game"),
    "delete_hint": ("Введите имя игры, чтобы удалить её навсегда", "Type the game's name to delete it for good"),
    "reason": ("Причина (видна всем)", "Reason (shown to everyone)"),
    "player": ("Игрок", "Player"),
    "holder": ("Кто играет", "Played by"),
    "invite": ("Пригласить", "Invite"),
    "new_link": ("Новая ссылка", "New link"),
    "revoke": ("Отозвать", "Revoke"),
    "release": ("Освободить место", "Free the seat"),
    "invitation_waits": ("ссылка ждёт с", "link waiting since"),
    "nobody": ("никто", "nobody"),
    "invite_link": ("Ссылка-приглашение (показана один раз, передайте её игроку)",
                    "Invitation link (shown once: pass it to the player)"),
    "co_gms": ("Ведущие", "Game masters"),
    "add_co_gm": ("Назначить соведущего (имя учётной записи)", "Name a co-game-master (account name)"),
    "remove": ("Убрать", "Remove"),
    "settings": ("Настройки", "Settings"),
    "is_public": ("Открытая игра: зрители видят общую хронику и карту", "Public game: spectators see the public chronicle and map"),
    "timezone": ("Часовой пояс", "Time zone"),
    "save": ("Сохранить", "Save"),
    "players": ("Игроки (через запятую)", "Players (comma-separated)"),
    "bots": ("Играет компьютер (через запятую)", "Played by the computer (comma-separated)"),
    "config": ("Настройки игры (TOML, JSON или YAML)", "Game options (TOML, JSON or YAML)"),
    "house_rules": ("Домашние правила (TOML, JSON или YAML)", "House rules (TOML, JSON or YAML)"),
    "or_file": ("или файл", "or a file"),
    "auto_resolve": ("Рассчитывать сразу, как все прислали приказы", "Resolve as soon as everyone awaited has posted"),
    "create": ("Создать", "Create"),
    "join_title": ("Приглашение в игру", "An invitation to a game"),
    "join_text": ("Вас приглашают играть за", "You are invited to play"),
    "join_in": ("в игре", "in the game"),
    "join_as_name": ("Ваше имя на сайте (можно оставить)", "Your name on the site (you may keep it)"),
    "join_button": ("Занять место", "Take the seat"),
    "login_link_title": ("Вход по ссылке", "Sign in by link"),
    "login_link_text": ("Нажмите, чтобы войти. Ссылка одноразовая.", "Press to sign in. The link works once."),
    "set_password": ("Задать пароль (необязательно: можно и дальше входить по ссылке)",
                     "Set a password (optional: you may keep signing in by link)"),
    "language": ("Язык", "Language"),
    "sessions": ("Где вы вошли", "Where you are signed in"),
    "this_browser": ("этот браузер", "this browser"),
    "api_tokens": ("Ключи API для своих программ", "API tokens for your own programs"),
    "new_token": ("Новый ключ", "New token"),
    "token_once": ("Ключ (показан один раз): передавайте его в заголовке Authorization: Bearer …",
                   "Token (shown once): send it in the header Authorization: Bearer …"),
    "label": ("Подпись", "Label"),
    "odds": ("Шансы в битве", "Battle odds"),
    "odds_intro": ("Вставьте файл битвы «Войны Стальной Розы» (TOML, как для voevoda odds): тысячи битв на "
                   "пакетном симуляторе покажут шансы сторон.",
                   "Paste a Steel Rose battle file (TOML, as for voevoda odds): thousands of battles on the batched "
                   "simulator give each side's chances."),
    "battles": ("Число битв", "Number of battles"),
    "run": ("Посчитать", "Run"),
    "working": ("Считаем…", "Working…"),
    "compiling": ("Первый запуск после установки: симулятор компилируется", "The first run after an install: the simulator is compiling"),
    "elapsed": ("прошло", "elapsed"),
    "error": ("Ошибка", "Error"),
    "back": ("Назад", "Back"),
    "not_found": ("Не найдено", "Not found"),
    "forbidden": ("Нет доступа", "Forbidden"),
    "deadline": ("Срок", "Deadline"),
    "no_deadline": ("срок не назначен", "no deadline set"),
    # the clock (docs/clock.md)
    "paused": ("Пауза", "Paused"),
    "early_on": ("рассчитаем раньше, как только все пришлют приказы", "resolved early once everyone has posted"),
    "early_ready_on": ("рассчитаем раньше, как только все пришлют приказы и отметят «Готов»",
                       "resolved early once everyone has posted and is ready"),
    "ready_mark": ("готов", "ready"),
    "ready_list": ("Готовы", "Ready"),
    "nobody_ready": ("пока никто", "nobody yet"),
    "ready_button": ("Готов", "Ready"),
    "unready_button": ("Не готов", "Not ready"),
    "ready_hint": ("«Готов» — можно рассчитывать ход, не дожидаясь срока.",
                   "«Ready» — the turn may be resolved without waiting for the deadline."),
    "away": ("в отпуске", "on vacation"),
    "disorder": ("беспорядки (войска стоят)", "civil disorder (units hold)"),
    "computer_holds": ("за него пишет компьютер", "the computer posts for this seat"),
    "schedule": ("Расписание", "Schedule"),
    "schedule_deadline": ("Срок этого шага (время игры)", "This step's deadline (the game's time)"),
    "schedule_every": ("Каждую неделю (например, «вс 18:00»)", "Every week (e.g. 'sun 18:00')"),
    "schedule_period": ("Срок после начала шага (например, 48h, 2d)", "After the step opens (e.g. 48h, 2d)"),
    "schedule_phases": ("По фазам (например, deployment=24h, planning=12h)",
                        "Per phase (e.g. deployment=24h, planning=12h)"),
    "schedule_early": ("Рассчитывать раньше, когда все прислали приказы", "Resolve early once everyone has posted"),
    "schedule_ready": ("…и только когда все отметили «Готов»", "…and only once everyone is ready"),
    "schedule_missed": ("Кто не прислал приказы", "A seat that missed its deadline"),
    "missed_default": ("приказы по умолчанию", "the ruleset's default orders"),
    "missed_disorder": ("место «без игрока» после N пропусков подряд", "civil disorder after N missed in a row"),
    "missed_computer": ("за него пишет компьютер, пока игрок не вернётся", "the computer posts until the player returns"),
    "schedule_disorder_after": ("Пропусков подряд до беспорядков (N)", "Missed turns in a row before civil disorder (N)"),
    "schedule_vacation_days": ("Дней отпуска на игрока за игру", "Vacation days a seat may take in the game"),
    "schedule_vacation_policy": ("Пока игрок в отпуске", "While a player is on vacation"),
    "vacation_extend": ("срок ждёт", "the deadline waits"),
    "vacation_skip": ("ход без игрока", "resolved without the seat"),
    "vacation": ("Отпуск", "Vacation"),
    "vacation_from": ("С (первый день)", "From (the first day)"),
    "vacation_to": ("По (последний день, включительно)", "To (the last day, included)"),
    "vacation_plan": ("Запланировать отпуск", "Plan the vacation"),
    "vacation_cancel": ("Отменить", "Cancel"),
    "vacation_left": ("Осталось дней отпуска", "Vacation days left"),
    "vacation_none_left": ("Дни отпуска в этой игре кончились.", "No vacation days are left in this game."),
    "days_of": ("дн. из", "days of"),
    "vacation_hint_extend": ("Пока вы в отпуске, срок ждёт вашего возвращения. Даты — по времени игры",
                             "While you are away, the deadline waits for your return. The dates are on the "
                             "game's clock"),
    "vacation_hint_skip": ("Пока вы в отпуске, ход считают без вас (приказы по умолчанию, пропуском не считается). "
                           "Даты — по времени игры",
                           "While you are away, the turn is resolved without you (default orders, not counted as "
                           "missed). The dates are on the game's clock"),
    "vacations": ("Отпуска игроков", "Players' vacations"),
    "no_vacations": ("отпусков не запланировано", "no vacation planned"),
    "schedule_save": ("Сохранить расписание", "Save the schedule"),
    "pause": ("Пауза", "Pause"),
    "resume": ("Продолжить", "Resume"),
    "extend": ("Продлить", "Extend"),
    "extend_by": ("На сколько (например, 24h)", "By how much (e.g. 24h)"),
    "public_reason": ("Причина (её прочтут все)", "Reason (everyone reads it)"),
    "all_games": ("Все игры", "All games"),
    "role_owner": ("создатель", "owner"),
    "role_co_gm": ("соведущий", "co-game-master"),
    "role_seat": ("игрок", "player"),
    "step": ("шаг", "step"),
    "turns": ("Ходы", "Turns"),
    "open": ("Открыть", "Open"),
    "file": ("Файл", "File"),
    "full_export_file": ("Полная выгрузка (voevoda export --full)", "A full export (voevoda export --full)"),
    "store_as": ("Сохранить под именем (необязательно)", "Store under the name (optional)"),
    "created": ("Создана игра", "Game created"),
    "commitment_note": ("Сохраните обязательство: по нему любой игрок проверит, что кости не подменили.",
                        "Keep the commitment: with it any player checks that the dice were not changed."),
    "seed": ("Зерно (для проверки и демонстраций; пусто — случайный секрет)", "Seed (for tests and demos; empty: a random secret)"),
    "strength_chart": ("Сила сторон по ходу битвы", "Strength of the sides through the battle"),
    "battle_reports": ("Битвы", "Battles"),
    "done": ("Готово", "Done"),
    "mean_losses": ("Средние потери", "Mean losses"),
    "draws": ("Ничьи", "Draws"),
    "compiled_in": ("симулятор скомпилирован за", "the simulator compiled in"),
    "no_change": ("Правка ничего не меняет.", "The patch changes nothing."),
    "telegram": ("Telegram", "Telegram"),
    "tg_bot": ("Бот игры", "The game's bot"),
    "tg_no_bot": ("Бот не запущен: задайте токен ниже (или VOEVODA_TELEGRAM_TOKEN) и запустите voevoda telegram "
                  "или вебхук — тогда здесь появятся ссылки.",
                  "The bot is not running: set its token below (or VOEVODA_TELEGRAM_TOKEN) and run voevoda telegram or "
                  "the webhook; the links appear here then."),
    "tg_group": ("Группа игры (общая хроника и карта после каждого шага)",
                 "The game's group (the public chronicle and map after each step)"),
    "tg_no_group": ("группа не связана", "no group linked"),
    "tg_link_group": ("Связать группу", "Link a group"),
    "tg_unlink_group": ("Отвязать группу", "Unlink the group"),
    "tg_link_me": ("Связать мой чат с ботом (/resolve, /rollback из Telegram)",
                   "Link my chat with the bot (/resolve, /rollback from Telegram)"),
    "tg_link_once": ("Ссылка одноразовая, действует сутки:", "The link works once, for a day:"),
    "tg_or_send": ("или отправьте боту (в группе — после того как добавите его туда):",
                   "or send the bot (in the group, once you have added it there):"),
    "tg_token": ("Токен бота от BotFather (для всей установки; хранится в базе, не показывается)",
                 "The bot's token from BotFather (for the whole installation; kept in the database, never shown)"),
    "tg_token_set": ("токен задан", "a token is set"),
    "tg_token_env": ("токен задан в VOEVODA_TELEGRAM_TOKEN", "the token is set in VOEVODA_TELEGRAM_TOKEN"),
    "tg_token_none": ("токена нет", "no token"),
    "tg_forget_token": ("Забыть токен", "Forget the token"),
    "tg_invite": ("Та же ссылка для Telegram:", "The same link for Telegram:"),
    "thread": ("Тема форума", "Forum thread"),
    "thread_hint": ("Сохраните страницу темы (Ctrl+S) или её RSS/Atom и загрузите сюда: посты игроков будут прочитаны "
                    "(phpBB, XenForo, vBulletin, SMF, Invision). Сначала — проверка, ничего не сохраняется.",
                    "Save the thread page (Ctrl+S) or its RSS/Atom feed and upload it here: the players' posts are read "
                    "(phpBB, XenForo, vBulletin, SMF, Invision). First a dry run: nothing is stored."),
    "thread_file": ("Файл страницы", "The page's file"),
    "thread_paste": ("или вставьте её HTML", "or paste its HTML"),
    "thread_tz": ("Часовой пояс времени на странице", "The time zone of the page's times"),
    "thread_deadline": ("Срок (посты позже не берутся; необязательно)", "Deadline (later posts are not taken; optional)"),
    "thread_names": ("Имена на форуме → места, по одному на строку («Anna_K=Анна»; «Ведущий=-» — не место)",
                     "Forum names → seats, one a line ('Anna_K=Анна'; 'GM=-': not a seat)"),
    "thread_names_only": ("Только связать имена с местами", "Only tie names to seats"),
    "thread_read": ("Прочитать (проверка)", "Read (dry run)"),
    "thread_known_names": ("Имена, связанные с местами", "Names tied to seats"),
    "thread_not_a_seat": ("не место", "not a seat"),
    "thread_dry_run": ("Проверка", "Dry run"),
    "thread_posts_read": ("постов на странице", "posts on the page"),
    "thread_opened": ("шаг открыт", "step opened"),
    "thread_post": ("Пост", "Post"),
    "thread_echo": ("Эхо", "Echo"),
    "thread_edited": ("правка", "edited"),
    "thread_take": ("сохранить", "store"),
    "thread_refused": ("не будет принят", "would be refused"),
    "thread_no_post": ("нет поста", "no post"),
    "thread_late": ("после срока, не берётся", "after the deadline, not taken"),
    "thread_replaced": ("заменён более поздним", "replaced by a later one"),
    "thread_unknown": ("Неизвестные имена: свяжите их с местами выше и прочитайте снова",
                       "Unknown names: tie them to seats above and read again"),
    "thread_ignored": ("постов не мест (помечены «-»)", "posts not of seats (marked '-')"),
    "thread_older": ("постов раньше начала шага", "posts older than the step"),
    "thread_store": ("Сохранить отмеченные посты", "Store the posts ticked"),
    "thread_stored": ("Сохранено из темы", "Stored from the thread"),
    "thread_saved": ("сохранено", "stored"),
    "thread_not_saved": ("не сохранено", "not stored"),
    "thread_nothing": ("Нечего сохранять.", "Nothing to store."),
    # notifications (docs/notify.md)
    "notifications": ("Уведомления", "Notifications"),
    "nf_game_channels": ("Каналы игры", "The game's channels"),
    "nf_game_hint": ("Общий канал получает общую хронику каждого шага с его цифровым следом (зерно, звено, запись); "
                     "канал ведущего — всё, что видит ведущий, и сообщения о сбоях доставки. Чаты, связанные с ботом "
                     "Telegram, получают итоги сами.",
                     "The public channel gets the public chronicle of each step with its digest (seed, link, record); "
                     "the game master's channel everything the game master sees, and word of failing deliveries. "
                     "Chats linked to the Telegram bot get their pushes by themselves."),
    "nf_seat_hint": ("Сюда приходит только ваше: ваш отчёт после каждого шага, приём ваших приказов, напоминания о "
                     "сроке. Сводка — одно письмо в день в выбранный час (UTC) со всем, что накопилось.",
                     "Only what is yours comes here: your report after each step, your posts stored, deadline "
                     "reminders. A digest is one mail a day at the hour chosen (UTC) with all that waited."),
    "nf_my_channels": ("Мои уведомления", "My notifications"),
    "nf_for": ("Для", "For"),
    "nf_public_channel": ("общего канала игры", "the game's public channel"),
    "nf_gm_channel": ("канала ведущего", "the game master's channel"),
    "nf_kind": ("Вид", "Kind"),
    "nf_generic": ("вебхук (JSON с подписью)", "webhook (signed JSON)"),
    "nf_email": ("электронная почта", "e-mail"),
    "nf_address": ("Адрес", "Address"),
    "nf_chat_id": ("Чат (для Telegram)", "Chat (for Telegram)"),
    "nf_lang": ("Язык", "Language"),
    "nf_label": ("Подпись", "Label"),
    "nf_mode": ("Как", "How"),
    "nf_each": ("письмо на каждое событие", "a message per event"),
    "nf_digest": ("сводка", "digest"),
    "nf_digest_daily": ("сводка раз в день", "a daily digest"),
    "nf_hour": ("Час сводки (UTC)", "Digest hour (UTC)"),
    "nf_add": ("Добавить канал", "Add the channel"),
    "nf_added": ("Канал добавлен.", "The channel is added."),
    "nf_secret_once": ("Ключ подписи вебхука — показан один раз, сохраните его у получателя:",
                       "The webhook's signing secret — shown once, keep it at the receiver:"),
    "nf_test": ("Проверить", "Test"),
    "nf_test_sent": ("Проверочное сообщение отправлено.", "A test message is sent."),
    "nf_none": ("Каналов пока нет.", "No channels yet."),
    "nf_delivered": ("доставлено", "delivered"),
    "nf_waiting": ("ждёт", "waiting"),
    "nf_failing": ("сбои", "failing"),
    "nf_delivery": ("Доставка", "Delivery"),
    "nf_status_delivered": ("доставлено", "delivered"),
    "nf_status_pending": ("ждёт отправки", "waiting"),
    "nf_status_skipped": ("нечего отправлять", "nothing to send"),
    "nf_status_gave-up": ("брошено после недели сбоев", "given up after a week of failures"),
    "nf_nothing_yet": ("пока ничего не отправлялось", "nothing sent yet"),
    "nf_not_fanned": ("новых событий", "new events"),
    "nf_chats": ("чатов Telegram", "Telegram chats"),
    "nf_channel": ("Канал", "Channel"),
    "nf_event": ("Событие", "Event"),
    "nf_step": ("шаг", "step"),
    "nf_attempts": ("Попыток", "Attempts"),
    "nf_since": ("Не доходит с", "Failing since"),
    "nf_next": ("Следующая попытка", "Next attempt"),
    "nf_error": ("Ошибка", "Error"),
    "nf_no_failures": ("Сбоев нет.", "No failures."),
}


def word(key: str, lang: str) -> str:
    ru, en = WORDS[key]
    return ru if lang == "ru" else en


def pick_language(asked: str | None, cookie: str | None, account: str | None, accept: str | None) -> str:
    """The page's language: the link's ``?lang=``, the cookie, the account's choice, the
    browser's ``Accept-Language`` (the first of ru and en it names), else Russian."""
    for choice in (asked, cookie, account):
        if choice in LANGS:
            return choice
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        primary = tag.split("-")[0]
        if primary in LANGS:
            return primary
    return "ru"


def moment(value: str | datetime | None, timezone: str, lang: str) -> str:
    """A time as the game's time zone shows it («06.12.2026 18:00 MSK»)."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return str(value)
    try:
        zone = ZoneInfo(timezone)
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZoneInfo("UTC"))
    local = value.astimezone(zone)
    name = local.tzname() or timezone
    return local.strftime("%d.%m.%Y %H:%M ") + name if lang == "ru" else local.strftime("%Y-%m-%d %H:%M ") + name


__all__ = ["LANGS", "WORDS", "moment", "pick_language", "word"]
