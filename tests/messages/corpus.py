"""The messages corpus (issue 30, item 8): every kind of message each game writes — the prompt, the
echo of a post, a refusal, a warning, a report line, a chronicle line and the outline of `show` —
rendered in Russian from scripted games whose players decline unusually (Любовь, Никита, Илья,
Саша, a two-word name, a Latin nickname), and written as one text per game.

A scenario (``scenarios/<ruleset-id>.yaml``) is a game and its steps::

    game: {players: [Любовь, Никита], config: {genders: {Саша: f}}, seed: messages, bots: []}
    steps:
      - checks:                          # posts only checked (nothing stored): each echo or refusal
          - {player: Любовь, post: "ход 0303 0304"}
        posts: {Любовь: "...", Никита: "..."}   # stored (each echo written), then the step resolved;
                                         # a list of posts: posted one after another (a follow-up,
                                         # a post that replaces the first); «{bot}» in a post is
                                         # what the computer opponent would write in that seat
        resolve: force                   # «force» (default: the silent get default orders), «no», «yes»
        show: [Любовь]                   # optional: the outline `voevoda show` prints for them
    reports: [Любовь, public]            # whose report of every resolved turn (default: all, public)

The text is what tests/messages/test_messages.py compares with ``golden/<ruleset-id>.txt``. The
dice trail at the foot of a report (seeds, digests) is left out: it changes whenever the dice
procedure does and says nothing a reader checks for wording. Rolls that a report quotes stay in;
when the dice change, the games change, and the golden texts are written anew
(``VOEVODA_REGOLD=1``, see README.md) and read through again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from voevoda.core.engine import Game, Receipt
from voevoda.core.errors import GameError, OrdersRejected, Problem
from voevoda.core.markup import Document, Spoiler, render
from voevoda.core.outputs import added_text, counts_text, replaced_text
from voevoda.core.ruleset import PUBLIC

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
GOLDEN = HERE / "golden"


@dataclass
class Written:
    """The corpus of one game as it is being written: its lines and the event kinds it told."""

    lines: list[str] = field(default_factory=list)
    event_kinds: set[str] = field(default_factory=set)

    def head(self, text: str) -> None:
        self.lines.extend(["", f"=== {text} ==="])

    def sub(self, text: str) -> None:
        self.lines.extend(["", f"--- {text}"])

    def block(self, lines: Iterable[str], indent: str = "  ") -> None:
        self.lines.extend(indent + line if line else "" for line in lines)


def scenario(ruleset_id: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((SCENARIOS / f"{ruleset_id}.yaml").read_text(encoding="utf-8"))
    return loaded


def rulesets() -> list[str]:
    return sorted(path.stem for path in SCENARIOS.glob("*.yaml"))


def problem_ru(problem: Problem) -> str:
    where = f"строка {problem.where()}" if problem.line is not None else ""
    order = f"«{problem.order}»" if problem.order else ""
    head = ", ".join(x for x in (where, order) if x)
    return f"{head}: {problem.message_ru}" if head else problem.message_ru


def echo_lines(game: Game, receipt: Receipt, check: bool) -> list[str]:
    """The echo of an accepted or checked post, in Russian, as docs/posts.md «The echo» has it:
    the head («принято 2 приказа, не принято 1»), each refused line with its reason, each order
    as the game repeats it, the lines not read as orders, those set aside, the notes on the
    markup and the warnings."""
    added = receipt.added if receipt.adds_to is not None else receipt.orders
    head = counts_text(len(added), len(receipt.refused_lines), check).partition(" / ")[0]
    out = [head + ":"]
    if receipt.refused:
        out.append("не принято:")
        out.extend("  " + problem_ru(p) for p in receipt.refused)
        if receipt.orders:
            out.append("будет принято:" if check else "принято:")
    if receipt.adds_to is not None:
        out.append("  " + added_text(receipt.adds_to, check).partition(" / ")[0])
    elif receipt.replaced is not None:
        out.append("  " + replaced_text(receipt.replaced, check).partition(" / ")[0])
    following = receipt.adds_to is not None
    out.extend(f"  {'+ ' if following and any(order is a for a in added) else ''}{order.line}: "
               f"{game.ruleset.describe(order, 'ru')}" for order in receipt.orders)
    if receipt.prose:
        out.append("не прочитано как приказы:")
        out.extend(f"  {line.number}: {line.text}" for line in receipt.prose)
    if receipt.hidden:
        out.append("цитаты и спойлеры: " + ", ".join(str(n) for n in receipt.hidden))
    for title, problems in (("заметки", receipt.notes), ("предупреждения", receipt.warnings)):
        if problems:
            out.append(f"{title}:")
            out.extend("  " + problem_ru(p) for p in problems)
    return out


def refusal_lines(refused: OrdersRejected) -> list[str]:
    out = ["не принято:"]
    out.extend("  " + problem_ru(p) for p in refused.problems)
    if refused.understood:
        out.append("понято:")
        out.extend("  " + line for line in refused.understood)
    if refused.prose:
        out.append("не прочитано как приказы:")
        out.extend("  " + line for line in refused.prose)
    return out


def post_lines(text: str) -> list[str]:
    return ["> " + line if line else ">" for line in text.rstrip("\n").split("\n")]


def report_text(game: Game, viewer: str, turn: int) -> str:
    """A viewer's report of ``turn`` in Russian plain text, without the dice trail at its foot."""
    doc = game.report_document(viewer, turn, "ru")
    blocks = [b for b in doc.blocks if not (isinstance(b, Spoiler) and b is doc.blocks[-1])]
    return render(Document(doc.title, blocks), "text")


def write(ruleset_id: str) -> Written:
    """Play the scenario of ``ruleset_id`` and write every message it gives, in Russian."""
    spec = scenario(ruleset_id)
    setup = spec["game"]
    out = Written()
    game = Game.create(ruleset_id, "messages", setup["players"], bots=setup.get("bots", []),
                       config=setup.get("config"), house_rules=setup.get("house_rules"),
                       seed=str(setup.get("seed", "messages")))
    out.lines.append(f"# {game.ruleset.title_ru}: {', '.join(setup['players'])}")
    number = 0
    for step in spec.get("steps", []):
        if "play" in step:
            number = play(out, game, step["play"], number)
            continue
        number += 1
        turn, phase = game.ruleset.progress(game.state)
        out.head(f"шаг {number}: ход {turn}, {phase}")
        prompts(out, game)
        for check in step.get("checks", []):
            checked(out, game, check["player"], check["post"], check.get("note"))
        for player, texts in (step.get("posts") or {}).items():
            for text in [texts] if isinstance(texts, str) else texts:
                posted(out, game, player, text.replace("{bot}", game.bot_post(player)) if "{bot}" in text else text)
        for player in game.awaiting():
            if player in game.record.bots and player not in (step.get("posts") or {}):
                posted(out, game, player, game.bot_post(player))
        resolve = step.get("resolve", "force")
        if resolve != "no" and game.outcome() is None:
            game.resolve(force=resolve == "force")
        for viewer in step.get("show", []):
            show(out, game, viewer)
    if game.outcome() is None:
        out.head("после последнего шага")
        prompts(out, game)
    viewers = spec.get("reports") or [*game.record.players, PUBLIC]
    for turn in game.turns_resolved():
        for viewer in viewers:
            out.head(f"отчёт за ход {turn}: " + ("летопись" if viewer == PUBLIC else viewer))
            out.block(report_text(game, viewer, turn).rstrip("\n").split("\n"), indent="")
    for step_ in game.steps:
        out.event_kinds.update(e.kind for e in step_.events)
    return out


def checked(out: Written, game: Game, player: str, text: str, note: str | None = None) -> None:
    out.sub(f"{player} проверяет пост" + (f" ({note})" if note else ""))
    out.block(post_lines(text))
    out.block(answer(game, player, text, store=False))


def posted(out: Written, game: Game, player: str, text: str) -> None:
    out.sub(f"{player} отправляет пост")
    out.block(post_lines(text))
    out.block(answer(game, player, text, store=True))


def show(out: Written, game: Game, viewer: str) -> None:
    out.sub(f"show для {viewer}")
    out.block(game.ruleset.summary(game.view(viewer), viewer).split("\n"))


def play(out: Written, game: Game, spec: Mapping[str, Any], number: int) -> int:
    """Steps played by what each is asked (a game whose order of play the dice decide): until
    the game reaches turn ``until_turn`` (or is over), each awaited player who is not a
    computer opponent answers by the kind of his prompt from ``answers`` (``{kind: {checks:
    [post, ...], post: text}}``; ``{other}`` in a post stands for the next player, ``{bot}`` for
    what the computer opponent would post in that seat), the checks of a kind only the first time
    it is asked; the post is ``{bot}`` unless it is given (``default``: none, the default orders);
    ``show: {turn, viewers}`` writes those viewers' outlines when the game reaches that turn.
    The computer opponents post their own. Every step's prompts and echoes are written."""
    answers: Mapping[str, Any] = spec.get("answers", {})
    checked_kinds: set[str] = set()
    players = list(game.record.players)
    while game.outcome() is None and game.ruleset.progress(game.state)[0] < int(spec["until_turn"]):
        number += 1
        turn, phase = game.ruleset.progress(game.state)
        out.head(f"шаг {number}: ход {turn}, {phase}")
        prompts(out, game)
        for player, prompt in game.awaiting().items():
            if player in game.record.bots:
                posted(out, game, player, game.bot_post(player))
                continue
            given = answers.get(prompt.kind, {})
            other = players[(players.index(player) + 1) % len(players)]
            if prompt.kind not in checked_kinds:
                checked_kinds.add(prompt.kind)
                for text in given.get("checks", []):
                    checked(out, game, player, text.replace("{other}", other))
            text = given.get("post", "{bot}")
            if "{bot}" in text:
                text = text.replace("{bot}", game.bot_post(player))
            if text != "default":
                posted(out, game, player, text.replace("{other}", other))
        game.resolve(force=True)
        at = spec.get("show")  # {turn: N, viewers: [...]}: their outlines once the game reaches turn N
        if at and turn < int(at["turn"]) <= game.ruleset.progress(game.state)[0]:
            for viewer in at["viewers"]:
                show(out, game, viewer)
        if number > int(spec.get("max_steps", 400)):
            raise AssertionError(f"{game.record.ruleset}: more than {spec.get('max_steps', 400)} steps")
    return number


def prompts(out: Written, game: Game) -> None:
    for player, prompt in game.awaiting().items():
        out.lines.append(f"вопрос ({player}): {prompt.text_ru}")


def answer(game: Game, player: str, text: str, store: bool) -> list[str]:
    source = "bot" if player in game.record.bots else "player"
    standing = game.pending.get(player)
    if store and source == "bot" and standing is not None and standing.text == text:
        # the computer opponent's post stands already (it posts when the step opens): its echo
        receipt = replace(game.check_post(player, text), replaced=None)
        return echo_lines(game, receipt, check=False)
    try:
        receipt = game.post(player, text, source=source) if store else game.check_post(player, text)
    except OrdersRejected as refused:
        return refusal_lines(refused)
    except GameError as exc:
        return [f"ошибка: {exc.message_ru}"]
    return echo_lines(game, receipt, check=not store)


def text_of(written: Written) -> str:
    return "\n".join(written.lines).rstrip("\n") + "\n"


def kinds_in_source(package: Path, patterns: Sequence[str], files: Sequence[str] | None = None) -> set[str]:
    """The event kinds a ruleset's source creates, by the calls that create them
    (``Event("battle", …)``, ``g.emit("harvest", …)``): every file of ``package``, or only
    ``files`` of it."""
    import re

    found: set[str] = set()
    regex = re.compile(r"\b(?:" + "|".join(patterns) + r")\(\s*[\"']([a-z_]+)[\"']")
    paths = [package / name for name in files] if files is not None else sorted(package.rglob("*.py"))
    for path in paths:
        found.update(regex.findall(path.read_text(encoding="utf-8")))
    return found
