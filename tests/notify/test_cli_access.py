"""Issue 26 «Notifications» from the command line and through the service's one door: `voevoda
notify GAME add|list|remove|test|status` and `voevoda notify deliver`; who may set which channel
(service/access.py: the game masters the game's public and game master's channels, a seat's
player that seat's own, nobody another's); bad input refused naming the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.notify.receivers import HttpReceiver, SmtpReceiver, verify
from tests.notify.test_channels import play_turn, seated
from voevoda.cli import app
from voevoda.core.errors import GameError
from voevoda.service import Service
from voevoda.service.errors import Forbidden, NotFound
from voevoda.service.notify import ALLOW_PRIVATE_ENV

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_the_command_line_adds_lists_tests_delivers_and_removes(
        tmp_path: Path, http: HttpReceiver, smtp: SmtpReceiver, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "cli.db")
    monkeypatch.setenv("VOEVODA_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("VOEVODA_SMTP_PORT", str(smtp.port))
    assert run("new", "ring-of-power", "--game", "g", "--players", "Анна,Борис", "--seed", "x", "--db", db)[0] == 0
    code, out = run("notify", "g", "add", "--public", "--kind", "webhook", "--url", http.url("/hook"),
                    "--label", "форум", "--db", db)
    assert code == 0 and "канал 1 добавлен" in out
    secret = re.search(r"shown once\): (\S+)", out)
    assert secret is not None
    code, out = run("notify", "g", "add", "--seat", "анна", "--kind", "email", "--to", "anna@example.org",
                    "--digest", "--hour", "9", "--db", db)
    assert code == 0 and "shown once" not in out
    code, out = run("notify", "g", "list", "--db", db)
    assert code == 0 and "форум" not in out and "/…hook" in out and "anna@example.org" not in out
    code, out = run("notify", "g", "list", "--seat", "Анна", "--db", db)
    assert code == 0 and "anna@example.org" in out and "digest 09:00 UTC" in out
    code, out = run("notify", "g", "test", "1", "--db", db)
    assert code == 0 and http.at("/hook")[0].json["event"] == "test"
    assert verify(secret.group(1), http.at("/hook")[0].body, http.at("/hook")[0].headers["x-voevoda-signature"])
    assert run("resolve", "g", "--force", "--db", db)[0] == 0
    code, out = run("notify", "deliver", "--db", db)
    assert code == 0 and "отправлено / sent: 1" in out and "доставок / deliveries: 2" in out
    assert [r.json["event"] for r in http.at("/hook")] == ["test", "resolved"]
    code, out = run("notify", "g", "status", "--db", db)
    assert code == 0 and "delivered: 1" in out and "pending: 1" in out and "сбои" not in out
    code, out = run("notify", "g", "remove", "1", "--db", db)
    assert code == 0 and "канал 1 убран" in out
    code, out = run("notify", "g", "remove", "1", "--db", db)
    assert code == 1 and "нет канала 1" in out
    code, out = run("notify", "g", "add", "--gm", "--public", "--kind", "slack", "--url", http.url("/s"), "--db", db)
    assert code == 1 and "--public, --gm или --seat" in out
    code, out = run("notify", "g", "add", "--gm", "--kind", "pigeon", "--url", http.url("/s"), "--db", db)
    assert code == 1 and "вид: discord" in out
    code, out = run("notify", "g", "add", "--gm", "--kind", "slack", "--url", "ftp://x", "--db", db)
    assert code == 1 and "нужен адрес https://" in out and "Traceback" not in out


def test_who_may_set_which_channel(tmp_path: Path, http: HttpReceiver) -> None:
    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    gm, anna, boris = people["gm"], people["Анна"], people["Борис"]
    url = http.url("/x")
    service.add_destination(anna, "g", scope="seat", player="Анна", kind="webhook", address=url)
    with pytest.raises(Forbidden):
        service.add_destination(anna, "g", scope="seat", player="Борис", kind="webhook", address=url)
    with pytest.raises(Forbidden):
        service.add_destination(anna, "g", scope="public", kind="webhook", address=url)
    with pytest.raises(Forbidden):  # not even the game master sets a player's own address
        service.add_destination(gm, "g", scope="seat", player="Анна", kind="email", address="a@example.org")
    own = service.destinations(anna, "g", player="Анна")
    assert [d.player for d in own] == ["Анна"]
    with pytest.raises(Forbidden):
        service.destinations(boris, "g", player="Анна")
    with pytest.raises(Forbidden):
        service.remove_destination(boris, "g", own[0].id)
    with pytest.raises(Forbidden):
        service.delivery_status(anna, "g")
    public = service.add_destination(gm, "g", scope="public", kind="discord", address=url)
    with pytest.raises(Forbidden):
        service.remove_destination(anna, "g", public.destination.id)
    assert [d.scope for d in service.destinations(gm, "g")] == ["public"], "the game master sees no player's address"
    stranger, _ = service.init_gm("Чужой")
    with pytest.raises(NotFound):
        service.destinations(stranger, "g")
    with pytest.raises(NotFound):  # not «no such player»: the game's players stay unknown to him
        service.add_destination(stranger, "g", scope="seat", player="Нет-такого", kind="email", address="x@example.org")
    service.release_seat(gm, "g", "Анна")
    play_turn(service, {**people, "Анна": gm})
    from datetime import UTC, datetime

    from voevoda.notify.deliver import deliver_due

    report = deliver_due(service, datetime.now(UTC))
    assert report.skipped >= 1 and all(r.path != "/x" or r.json.get("player") != "Анна" for r in http.requests), \
        "a player who left the seat gets nothing more through it"


@pytest.mark.parametrize(("field", "kwargs", "message"), [
    ("kind", {"kind": "fax", "address": "https://example.org/x"}, "вид:"),
    ("url", {"kind": "discord", "address": "discord.com/api/webhooks/1"}, "нужен адрес https://"),
    ("email", {"kind": "email", "address": "not an address"}, "адрес почты"),
    ("chat", {"kind": "telegram-webhook", "address": "https://api.telegram.org/botX/sendMessage"}, "чат:"),
    ("mode", {"kind": "webhook", "address": "https://example.org/x", "mode": "digest"}, "сводка бывает только"),
    ("hour", {"kind": "email", "address": "a@example.org", "digest_hour": 24}, "час сводки"),
    ("lang", {"kind": "email", "address": "a@example.org", "lang": "de"}, "язык"),
    ("secret", {"kind": "webhook", "address": "https://example.org/x", "secret": "short"}, "ключ подписи"),
])
def test_bad_input_is_refused_naming_the_field(tmp_path: Path, field: str, kwargs: dict[str, object],
                                               message: str) -> None:
    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    with pytest.raises(GameError) as refused:
        service.add_destination(people["gm"], "g", scope="gm", **kwargs)  # type: ignore[arg-type]
    assert message in refused.value.message_ru, field
    assert service.destinations(people["gm"], "g", scope="gm") == []


def test_a_webhook_into_the_servers_own_network_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_PRIVATE_ENV)
    service = Service(f"sqlite:///{tmp_path / 'g.db'}")
    people = seated(service)
    for address in ("http://127.0.0.1:8080/x", "http://localhost/x", "http://10.0.0.5/x", "http://[::1]/x",
                    "http://169.254.169.254/latest/meta-data"):
        with pytest.raises(GameError) as refused:
            service.add_destination(people["Анна"], "g", scope="seat", player="Анна", kind="webhook", address=address)
        assert "внутренней сети" in refused.value.message_ru
    service.add_destination(people["Анна"], "g", scope="seat", player="Анна", kind="webhook",
                            address="https://hooks.example.org/x")
