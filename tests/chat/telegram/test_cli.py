"""``voevoda telegram`` (docs/telegram.md «The command line»): the token stored from standard input
and never printed, invitations and chat links as deep links, the pushes of a step resolved on the
command line sent to the linked chats once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.chat.telegram.botapi import TOKEN, BotApi
from voevoda.cli import app
from voevoda.service import OPERATOR, Service

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def test_the_command_line_links_and_pushes(tmp_path: Path, api: BotApi, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "cli.db")
    monkeypatch.delenv("VOEVODA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("VOEVODA_TELEGRAM_API", api.base_url)
    assert run("new", "ring-of-power", "--game", "кольцо", "--players", "Анна,Борис", "--seed", "x", "--db", db)[0] == 0
    code, out = run("telegram", "push", "кольцо", "--db", db)
    assert code == 1 and "шаг 0 не рассчитан" in out
    assert run("resolve", "кольцо", "--force", "--db", db)[0] == 0
    code, out = run("telegram", "push", "кольцо", "--db", db)
    assert code == 1 and "нет токена бота" in out
    code, out = run("telegram", "token", "--db", db, input="not a token\n")
    assert code == 1 and "это не токен бота" in out
    code, out = run("telegram", "token", "--db", db, input=TOKEN + "\n")
    assert code == 0 and TOKEN not in out and "токен сохранён" in out
    service = Service(db)
    assert service.telegram_token() == TOKEN

    code, out = run("telegram", "invite", "кольцо", "--player", "анна", "--db", db)
    assert code == 0 and "имя бота ещё неизвестно" in out
    token = re.search(r"/start (\S+)", out).group(1)  # type: ignore[union-attr]
    assert service.invitation(token).player == "Анна"
    service.set_telegram_username("voevoda_test_bot")  # what the bot learns when it starts
    code, out = run("telegram", "invite", "кольцо", "--player", "Борис", "--db", db)
    assert out.startswith("https://t.me/voevoda_test_bot?start=")
    code, out = run("telegram", "link-group", "кольцо", "--db", db)
    assert out.startswith("https://t.me/voevoda_test_bot?startgroup=") and "/link " in out
    group_code = re.search(r"/link (\S+)", out).group(1)  # type: ignore[union-attr]
    code, out = run("telegram", "link-account", "Никто", "--db", db)
    assert code == 1 and "нет учётной записи «Никто»" in out

    api.chat(111, first_name="Анна")
    api.chat(-100, "supergroup", title="Группа")
    service.link_chat(token, 111, "private", name="Анна")
    service.link_chat(group_code, -100, "group", title="Группа")
    code, out = run("telegram", "push", "кольцо", "--db", db)
    assert code == 0 and out.startswith("отправлено / sent: 2, уже было / already: 0"), out
    assert {c.chat_id for c in api.sent()} == {111, -100}
    code, out = run("telegram", "push", "кольцо", "--step", "1", "--db", db)
    assert out.startswith("отправлено / sent: 0, уже было / already: 2"), "a step's pushes go once"
    code, out = run("telegram", "token", "--forget", "--db", db)
    assert code == 0 and Service(db).telegram_token() is None
    service.set_telegram_token(OPERATOR, TOKEN)
