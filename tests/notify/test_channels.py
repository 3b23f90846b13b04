"""Issue 26, «Notifications» — «Channels: webhooks (Discord's and Slack's incoming-webhook JSON,
Telegram's sendMessage shape, and a generic JSON payload signed with HMAC-SHA256), e-mail over
SMTP»; «what a message holds follows the receiver's view (a player's private report only to that
player's channel; the public chronicle to the game's public channel, cut within each service's
message limits — Discord 2,000, Telegram 4,096)»; issue 28: «Each step's digest goes out with its
notification». Tested against a real HTTP server on loopback and aiosmtpd."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.chat.telegram.botapi import parse_html, units
from tests.notify.receivers import HttpReceiver, SmtpReceiver, verify
from voevoda.core.ruleset import PUBLIC
from voevoda.notify.channels import split_text
from voevoda.notify.deliver import deliver_due
from voevoda.notify.transport import NotifySettings
from voevoda.service import ANONYMOUS, OPERATOR, Service
from voevoda.service.actors import Person

PLAYERS = ["Анна", "Борис"]
PATHS = {"Анна": "/anna", "Борис": "/boris", "public": "/public"}


def seated(service: Service, ruleset: str = "ring-of-power", game: str = "g") -> dict[str, Person]:
    gm, _ = service.init_gm("Ведущий")
    service.create_game(gm, ruleset, game, PLAYERS, seed="notify")
    people = {"gm": gm}
    for player in PLAYERS:
        people[player] = service.join(service.invite(gm, game, player, PLAYERS), ANONYMOUS).person
    return people


def play_turn(service: Service, people: dict[str, Person], game: str = "g") -> None:
    played = service.store.load(game)
    for player in PLAYERS:
        service.post(people[player], game, player, played.bot_post(player))
    service.resolve(people["gm"], game, step=played.step_number + 1)


def lines_of(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if len(line.strip()) > 3}


@pytest.fixture()
def service(tmp_path: Path) -> Service:
    return Service(f"sqlite:///{tmp_path / 'games.db'}")


def test_every_channel_gets_its_own_shape_and_its_receivers_own_view(
        service: Service, http: HttpReceiver, smtp: SmtpReceiver, settings: NotifySettings) -> None:
    people = seated(service)
    gm = people["gm"]
    service.add_destination(gm, "g", scope="public", kind="discord", address=http.url("/discord"))
    service.add_destination(gm, "g", scope="public", kind="slack", address=http.url("/slack"))
    service.add_destination(gm, "g", scope="public", kind="telegram-webhook",
                            address=http.url("/telegram/botTOKEN/sendMessage"), chat_id="-100123")
    anna = service.add_destination(people["Анна"], "g", scope="seat", player="Анна", kind="webhook",
                                   address=http.url("/anna"))
    service.add_destination(people["Борис"], "g", scope="seat", player="Борис", kind="email",
                            address="boris@example.org", lang="en")
    gm_hook = service.add_destination(gm, "g", scope="gm", kind="webhook", address=http.url("/gm"))
    play_turn(service, people)
    report = deliver_due(service, datetime.now(UTC), settings=settings)
    assert report.failed == 0, report.errors

    notice = service.store.load("g").steps[0].notice()
    public = service.sight(OPERATOR, "g", PUBLIC)

    # Discord: {"content"} in Discord's Markdown, mentions off, the public chronicle and the notice
    discord = http.at("/discord")
    assert len(discord) == 1 and discord[0].json["allowed_mentions"] == {"parse": []}
    content = discord[0].json["content"]
    assert len(content) <= 2000
    assert lines_of(public.report(1, "markdown", "ru", "discord")) <= lines_of(content)
    assert notice["digest"] in content and notice["seed"] in content and notice["inputs"] in content

    # Slack: {"text"} plain, formatting off
    slack = http.at("/slack")[0].json
    assert slack["mrkdwn"] is False and "летопись" in slack["text"] and len(slack["text"]) <= 4000

    # Telegram's sendMessage: chat id, HTML that Telegram's parser takes, within 4,096
    telegram = http.at("/telegram/botTOKEN/sendMessage")
    assert telegram and all(r.json["chat_id"] == "-100123" and r.json["parse_mode"] == "HTML" for r in telegram)
    visible = "".join(parse_html(r.json["text"]) for r in telegram)
    assert all(units(parse_html(r.json["text"])) <= 4096 for r in telegram) and notice["digest"] in visible

    # the generic webhook: signed, the key in the header and the payload, Анна's own report
    arrived = http.at("/anna")
    assert [r.json["event"] for r in arrived] == ["post", "resolved"], "Анна's own post and the resolution"
    for request in arrived:
        assert anna.secret is not None and verify(anna.secret, request.body, request.headers["x-voevoda-signature"])
        assert request.headers["idempotency-key"] == request.json["idempotency_key"]
    resolved = arrived[1].json
    assert resolved["notice"] == notice and resolved["audience"] == "seat" and resolved["player"] == "Анна"
    own = service.sight(OPERATOR, "g", "Анна").report(1, "text", "ru")
    assert lines_of(own) <= lines_of(resolved["text"])

    # e-mail to Борис, in English, his own report
    mails = smtp.to("boris@example.org")
    assert [m["Subject"] for m in mails] == ["«g»: your post for step 1 is stored", "«g»: step 1 resolved (turn 1)"]
    body = mails[1].get_content()
    assert lines_of(service.sight(OPERATOR, "g", "Борис").report(1, "text", "en")) <= lines_of(body)
    assert mails[1]["Idempotency-Key"].endswith(">d5")

    # a signature made with another secret, or over another body, does not verify
    assert not verify("another secret of enough length", arrived[0].body, arrived[0].headers["x-voevoda-signature"])
    assert not verify(anna.secret, arrived[0].body + b" ", arrived[0].headers["x-voevoda-signature"])

    # the game master's channel hears both posts and the resolution, as the game master sees it
    assert gm_hook.secret is not None
    assert [r.json["event"] for r in http.at("/gm")] == ["post", "post", "resolved"]


@pytest.mark.parametrize("ruleset", ["ring-of-power", "toy-guess"])
def test_a_seats_channel_never_gets_another_seats_private_text(
        service: Service, http: HttpReceiver, smtp: SmtpReceiver, settings: NotifySettings, ruleset: str) -> None:
    people = seated(service, ruleset)
    for player in PLAYERS:
        service.add_destination(people[player], "g", scope="seat", player=player, kind="webhook",
                                address=http.url(PATHS[player]))
    service.add_destination(people["gm"], "g", scope="public", kind="webhook", address=http.url("/public"))
    for _ in range(2):
        play_turn(service, people)
    deliver_due(service, datetime.now(UTC), settings=settings)
    texts = {where: "\n".join(r.json["text"] for r in http.at(PATHS[where])) for where in [*PLAYERS, "public"]}
    assert all(texts.values())
    reports = {player: "\n".join(service.sight(OPERATOR, "g", player).report(turn) for turn in (1, 2))
               for player in PLAYERS}
    chronicle = "\n".join(service.sight(OPERATOR, "g", PUBLIC).report(turn) for turn in (1, 2))
    for player, other in (("Анна", "Борис"), ("Борис", "Анна")):
        secret_lines = lines_of(reports[other]) - lines_of(reports[player]) - lines_of(chronicle)
        assert secret_lines, "the other seat's report holds lines of its own (else the test proves nothing)"
        assert not secret_lines & lines_of(texts[player]), f"{player}'s channel got {other}'s private lines"
        assert not secret_lines & lines_of(texts["public"]), "the public channel got a private line"
        assert lines_of(reports[player]) <= lines_of(texts[player]) | lines_of(chronicle)
    assert {r.json["player"] for r in http.at("/anna")} == {"Анна"}
    assert all(r.json["event"] != "post" for r in http.at("/public")), "a post is announced to its seat only"


def test_long_messages_are_cut_within_each_services_limit(
        service: Service, http: HttpReceiver, smtp: SmtpReceiver, settings: NotifySettings) -> None:
    people = seated(service, "steel-rose-battle")  # a battle's public chronicle runs to ~7,500 characters
    gm = people["gm"]
    service.add_destination(gm, "g", scope="public", kind="discord", address=http.url("/discord"))
    service.add_destination(gm, "g", scope="public", kind="slack", address=http.url("/slack"))
    service.add_destination(gm, "g", scope="public", kind="telegram-webhook",
                            address=http.url("/telegram/botT/sendMessage"), chat_id="42")
    service.add_destination(gm, "g", scope="public", kind="webhook", address=http.url("/whole"))
    for _ in range(2):
        play_turn(service, people)
    deliver_due(service, datetime.now(UTC), settings=settings)
    chronicle = service.sight(OPERATOR, "g", PUBLIC).report(1, "markdown", "ru", "discord")
    assert len(chronicle) > 4000
    discord = http.at("/discord")
    slack = http.at("/slack")
    telegram = http.at("/telegram/botT/sendMessage")
    assert len(discord) >= 1 + 3 and all(len(r.json["content"]) <= 2000 for r in discord)
    assert len(slack) >= 1 + 2 and all(len(r.json["text"]) <= 4000 for r in slack)
    assert len(telegram) >= 1 + 2 and all(units(parse_html(r.json["text"])) <= 4096 for r in telegram)
    whole = http.at("/whole")
    assert [r.json["event"] for r in whole] == ["resolved", "resolved"], "one payload each, whole"
    assert lines_of(service.sight(OPERATOR, "g", PUBLIC).report(1)) <= lines_of(whole[1].json["text"])
    # each part has its own key; nothing is lost between the parts
    last = discord[-1].headers["idempotency-key"]
    count = int(last.rsplit("/", 1)[1])
    parts = discord[-count:]
    keys = [r.headers["idempotency-key"] for r in parts]
    assert keys == [f"{last.split('#')[0]}#{i}/{count}" for i in range(1, count + 1)]
    assert lines_of(chronicle) <= lines_of("\n".join(r.json["content"] for r in parts))

    # the game master's reason, with markup in it, is escaped in every format, never obeyed
    mark = len(http.requests)
    reason = " ".join(f"w{i} <b>&amp;" for i in range(135))
    service.rollback(gm, "g", step=2, reason=reason)
    deliver_due(service, datetime.now(UTC), settings=settings)
    new = http.requests[mark:]
    shown = " ".join(parse_html(r.json["text"]) for r in new if r.path.startswith("/telegram"))
    assert all(f"w{i} <b>&amp;" in shown for i in (0, 90, 134))
    assert all(len(r.json["content"]) <= 2000 for r in new if r.path == "/discord")
    assert "w134 &lt;b&gt;&amp;amp;" in " ".join(r.json["text"] for r in new if r.path == "/slack")
    assert reason in [r for r in new if r.path == "/whole"][0].json["text"]


def test_split_text_keeps_code_blocks_closed_and_every_word() -> None:
    text = "intro\n\n```\n" + "\n".join(f"line {i:04d} " + "x" * 40 for i in range(200)) + "\n```\n\nend"
    pieces = split_text(text, 2000)
    assert all(len(p) <= 2000 for p in pieces) and len(pieces) > 4
    assert all(p.count("```") % 2 == 0 for p in pieces)
    words: Any = " ".join(pieces)
    assert all(f"line {i:04d}" in words for i in range(200)) and pieces[-1].endswith("end")


def test_the_notification_is_a_walked_output_channel_and_a_leak_in_it_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN.md «Every response is an output channel»: the message a destination gets is the
    ``notification`` channel of core/outputs.py, walked by the non-interference sweep for every
    viewer; a notification that carried every seat's report to each seat is caught."""
    import random

    from tests.core import noninterference as ni
    from voevoda.core import outputs

    assert "notification" in outputs.CHANNELS
    game = ni.moments("ring-of-power", ni.SEEDS[1], 2)[-1].game
    assert game.steps
    walked = [label for label, _ in outputs.walk(game, "Анна", channels=["notification"])]
    assert "notification fmt=text kind=resolved lang=ru" in walked and "notification fmt=text kind=post lang=ru" in walked
    other = None
    for variation in ni.spec_of("ring-of-power").state_variations(game.state, "Анна", random.Random(3)):
        candidate = ni.fork(game)
        candidate.state = variation.apply(game.state)
        if outputs.notification_text(candidate, "Борис") != outputs.notification_text(game, "Борис"):
            other = candidate  # hidden from Анна, and in Борис's notification
            break
    assert other is not None
    ni.compare_now(game, other, "Анна", "the real notification", tries=[])
    original = outputs.CHANNELS["notification"]

    def every_seat(game: Any, viewer: str, **params: Any) -> str:
        return "\n".join(original.render(game, p, **params) for p in game.record.players)

    monkeypatch.setitem(outputs.CHANNELS, "notification", original.__class__(
        "notification", original.command, every_seat, original.variants))
    with pytest.raises(AssertionError, match="notification"):
        ni.compare_now(game, other, "Анна", "planted", tries=[])
