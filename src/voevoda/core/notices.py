"""Notifications as a receiver reads them (docs/notify.md): :func:`compose` makes the message of
one announcement from one viewer's :class:`View` — the service's :class:`~voevoda.service.Sight`
when the deliverer sends it, the game itself for the ``notification`` output channel that the
non-interference test walks (:mod:`voevoda.core.outputs`).

A resolution carries the receiver's own report of the turn (a player's private report; the
public chronicle) and the step's public notice (``Step.notice()``: seed, link, digest of the
inputs, record digest — docs/dice.md). Every text a player wrote (a reason, a name) goes through
:mod:`voevoda.core.markup`, escaped for each format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from voevoda.core.errors import GameError
from voevoda.core.markup import Document, Paragraph, bold, code, render


@dataclass(frozen=True)
class Receiver:
    """Whose eyes a destination reads with: ``scope`` ``public``, ``gm`` or ``seat`` (with
    ``player``); ``account_id``: the account that set it (``None``: the command line's)."""

    scope: str
    player: str | None = None
    account_id: int | None = None
    lang: str = "ru"


@dataclass
class Content:
    """One message before a channel shapes it: :meth:`render` gives its whole text in a format
    of :mod:`voevoda.core.markup`; :attr:`subject` is its first line as plain text."""

    kind: str
    game: str
    step: int | None
    scope: str
    player: str | None
    lang: str
    subject: str
    notice: dict[str, Any] | None
    details: dict[str, Any]
    head: Document
    body: Callable[[str, str | None], str] | None = None
    foot: Document | None = None
    _rendered: dict[tuple[str, str | None], str] = field(default_factory=dict)

    def render(self, fmt: str, flavour: str | None) -> str:
        key = (fmt, flavour)
        if key not in self._rendered:
            pieces = [render(self.head, fmt, flavour).strip("\n")]
            if self.body is not None:
                body = self.body(fmt, flavour).strip("\n")
                if body:
                    pieces.append(body)
            if self.foot is not None:
                pieces.append(render(self.foot, fmt, flavour).strip("\n"))
            self._rendered[key] = "\n\n".join(pieces) + "\n"
        return self._rendered[key]


def _t(lang: str, ru: str, en: str) -> str:
    return en if lang == "en" else ru


def notice_paragraph(notice: dict[str, Any], lang: str) -> Paragraph:
    """The step's public notice as one line: «шаг 3 (ход 2): зерно …, звено …, приказы …, запись …»."""
    ru = lang != "en"
    parts: list[Any] = [f"{'шаг' if ru else 'step'} {notice.get('step')}"
                        f" ({'ход' if ru else 'turn'} {notice.get('turn')}): "]
    names = (("seed", "зерно", "seed"), ("link", "звено", "link"), ("inputs", "приказы", "inputs"),
             ("digest", "запись", "record"))
    first = True
    for key, word_ru, word_en in names:
        if notice.get(key) is None:
            continue
        if not first:
            parts.append(", ")
        parts.extend([f"{word_ru if ru else word_en} ", code(str(notice[key]))])
        first = False
    return Paragraph(parts)


def _still_resolved(sight: View, number: Any, turn: Any, digest: Any) -> bool:
    """Whether the step announced stands as it was resolved (not rolled back, not resolved again)."""
    if not isinstance(number, int) or not isinstance(turn, int) or sight.step_number < number:
        return False
    try:
        return sight.step_digest(number) == digest and turn in sight.turns()
    except GameError:
        return False


class View(Protocol):
    """What a message is made from: one viewer's reports, status and the public facts of the
    steps (a :class:`~voevoda.service.Sight` is one)."""

    @property
    def step_number(self) -> int: ...

    def turns(self) -> list[int]: ...

    def step_digest(self, number: int) -> str: ...

    def report(self, turn: int | None = None, fmt: str = "text", lang: str = "ru",
               flavour: str | None = None) -> str: ...

    def status(self) -> str: ...


def compose(sight: View, game: str, kind: str, step: int | None, payload: dict[str, Any],
            receiver: Receiver) -> Content | None:
    """What ``receiver`` reads of an announcement through its own ``sight``; ``None`` when it has
    nothing for it (a reminder of a step resolved meanwhile)."""
    lang = receiver.lang
    head = Document()
    details = {k: v for k, v in payload.items() if k in ("reason", "at", "due", "deadline", "player", "turn",
                                                          "phase", "follow_up", "missed", "until", "error",
                                                          "since", "destination", "channel", "attempts")}
    notice: dict[str, Any] | None = None
    body: Callable[[str, str | None], str] | None = None
    foot: Document | None = None
    where = f"«{game}»"
    mine = receiver.scope == "seat"
    reason = str(payload.get("reason") or "")

    def line(*parts: Any) -> None:
        head.blocks.append(Paragraph(list(parts)))

    if kind == "resolved":
        notice = dict(payload)
        turn = payload.get("turn")
        number = payload.get("step", step)
        subject = _t(lang, f"{where}: шаг {number} рассчитан (ход {turn})",
                     f"{where}: step {number} resolved (turn {turn})")
        line(bold(subject))
        if _still_resolved(sight, number, turn, payload.get("digest")):

            def report(fmt: str, flavour: str | None) -> str:
                return sight.report(turn, fmt, lang, flavour)

            body = report
        else:  # undone before it went out: its notice still goes, it was public the moment it was made
            line(_t(lang, "Этот шаг после расчёта откатан; его отчёта больше нет.",
                    "This step was rolled back after it was resolved; its report is gone."))
        foot = Document(None, [notice_paragraph(notice, lang)])
    elif kind == "post":
        player = str(payload.get("player") or "")
        if mine:
            subject = _t(lang, f"{where}: ваш приказ на шаг {step} принят", f"{where}: your post for step {step} "
                         f"is stored")
        else:
            subject = _t(lang, f"{where}: принят приказ игрока {player} на шаг {step}",
                         f"{where}: {player}'s post for step {step} is stored")
        line(bold(subject))
        if payload.get("by_game_master"):
            line(_t(lang, "(записан ведущим)", "(entered by the game master)"))
    elif kind == "rolled-back":
        subject = _t(lang, f"{where}: шаг {step} откатан", f"{where}: step {step} rolled back")
        line(bold(subject))
        if reason:
            line(_t(lang, "Причина: ", "Reason: "), reason)
    elif kind == "reopened":
        player = str(payload.get("player") or "")
        subject = (_t(lang, f"{where}: ведущий открыл ваш приказ для правки", f"{where}: the game master reopened "
                      f"your post") if mine else
                   _t(lang, f"{where}: открыт приказ игрока {player}", f"{where}: {player}'s post is reopened"))
        line(bold(subject))
        if reason:
            line(_t(lang, "Причина: ", "Reason: "), reason)
    elif kind == "edited":
        subject = _t(lang, f"{where}: ведущий поправил игру", f"{where}: the game master corrected the game")
        line(bold(subject))
        if reason:
            line(_t(lang, "Причина: ", "Reason: "), reason)
    elif kind == "revealed":
        subject = _t(lang, f"{where}: секрет игры опубликован", f"{where}: the game's secret is published")
        line(bold(subject))
        line(_t(lang, "Каждую кость теперь можно проверить: voevoda verify (docs/dice.md).",
                "Every roll can be checked now: voevoda verify (docs/dice.md)."))
    elif kind == "deadline":
        due = str(payload.get("deadline_local") or payload.get("due_local") or payload.get("due")
                  or payload.get("deadline") or "")
        subject = _t(lang, f"{where}: срок шага {step} — {due}", f"{where}: step {step} is due {due}")
        line(bold(subject))
        if step is not None and sight.step_number + 1 != step:
            return None  # resolved before its reminder went out
        for text in sight.status().splitlines():
            if text.strip():
                line(text)
    elif kind in ("paused", "resumed", "extended"):
        words = {"paused": ("игра приостановлена", "the game is paused"),
                 "resumed": ("игра продолжается", "the game goes on"),
                 "extended": ("срок продлён", "the deadline is extended")}[kind]
        subject = f"{where}: {_t(lang, *words)}"
        line(bold(subject))
        due = str(payload.get("deadline_local") or payload.get("due_local") or payload.get("due") or "")
        if due:
            line(_t(lang, "Новый срок: ", "New deadline: "), due)
        if reason:
            line(_t(lang, "Причина: ", "Reason: "), reason)
    elif kind == "civil-disorder":
        player = str(payload.get("player") or "")
        subject = _t(lang, f"{where}: место {player} без игрока (пропущены ходы)",
                     f"{where}: the seat {player} is in civil disorder (missed turns)")
        line(bold(subject))
        hint = payload.get("hint_ru" if lang == "ru" else "hint_en")
        if hint:
            line(str(hint))
    elif kind == "delivery-failing":
        label = str(payload.get("destination") or "")
        subject = _t(lang, f"{where}: уведомления не доходят до {label}",
                     f"{where}: notifications do not reach {label}")
        line(bold(subject))
        line(_t(lang, f"С {payload.get('since')}, попыток: {payload.get('attempts')}. Последняя ошибка: ",
                f"Since {payload.get('since')}, attempts: {payload.get('attempts')}. Last error: "),
             str(payload.get("error") or ""))
        line(_t(lang, "Состояние доставки: voevoda notify ИГРА status или страница управления игрой.",
                "Delivery status: voevoda notify GAME status or the game's manage page."))
    elif kind == "test":
        subject = _t(lang, f"{where}: проверка канала уведомлений", f"{where}: a test of the notification channel")
        line(bold(subject))
        line(_t(lang, "Если вы это читаете, канал работает.", "If you can read this, the channel works."))
    else:
        subject = f"{where}: {kind}" + (f", {_t(lang, 'шаг', 'step')} {step}" if step is not None else "")
        line(bold(subject))
    return Content(kind, game, step, receiver.scope, receiver.player, lang, subject, notice, details, head, body,
                   foot)


__all__ = ["Content", "Receiver", "View", "compose", "notice_paragraph"]
