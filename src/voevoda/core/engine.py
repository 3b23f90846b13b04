"""The turn loop, the same for every game.

``Game`` replays a :class:`~voevoda.core.journal.GameRecord` into its current state and
offers the actions a game needs: submit a post, resolve the step, roll back, reopen a
frozen post, edit the state with a reason, reveal the secret when the game is over. Every
action first appends to the journal and then applies the same code that replay uses, so a
stored game and its replay cannot diverge.

A step is one call of the ruleset's ``resolve``. Step ``k`` (from 1) draws its dice
from link ``k`` of the hash chain; re-resolving a step after a rollback therefore rolls
the very same dice, so a game master cannot re-roll a turn he did not like. Since the
seed of a rolled-back step has been published, the posts of that step stand frozen after
the rollback: only the game master can reopen a named player's post, with a reason that
the public chronicle shows (docs/dice.md «Rollbacks»).
"""

from __future__ import annotations

import copy
import hashlib
import secrets as secrets_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda import __version__
from voevoda.core import posts, registry
from voevoda.core.bounds import plain_problem
from voevoda.core.dice import Dice, HashChain
from voevoda.core.errors import DataError, GameError, OrdersRejected, Problem, warning
from voevoda.core.journal import Entry, GameRecord, canonical_json
from voevoda.core.markup import Block, BulletList, Document, Paragraph, Spoiler, render
from voevoda.core.ruleset import (
    CORE_CONFIG_KEYS,
    GM,
    PUBLIC,
    Event,
    Order,
    Outcome,
    Prompt,
    ReportFormat,
    Ruleset,
    State,
    Viewer,
)
from voevoda.core.words import join_and, read_genders

EXPORT_FORMAT = "voevoda-export/2"


@dataclass
class Submission:
    """An accepted post waiting for the step to resolve."""

    player: str
    text: str
    orders: list[Order]
    source: str = "player"
    at: str | None = None


@dataclass
class Receipt:
    """What an accepted (or checked) post amounts to, for its echo to its author: the orders
    understood, the lines not read as orders, the lines set aside (quotes, spoilers), notes on
    the markup, the ruleset's warnings (what the rules expect and the post leaves out), and the
    earlier post of this step that it replaces."""

    player: str
    orders: list[Order]
    prose: list[posts.PostLine] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    replaced: Submission | None = None
    unbold: list[int] = field(default_factory=list)
    """The prose lines not read because nothing on them is bold (a bold-only game)."""


@dataclass
class Step:
    """One resolved step, as replay rebuilds it.

    ``actions`` are the game master's public actions (rollbacks, reopenings, edits) since
    the step before; ``digest`` chains the step's public record to the one before
    (docs/dice.md §6). Sealed records are in ``dice`` but not in the public record: even a
    keyed digest of them would differ between two games that differ only in hidden things.
    """

    number: int
    turn: int
    phase: str
    seed: str
    submissions: dict[str, Submission]
    defaulted: list[str]
    events: list[Event]
    dice: list[dict[str, Any]]
    state_before: State = field(repr=False)
    actions: list[Event] = field(default_factory=list)
    digest: str = ""


@dataclass
class SetupRecord:
    """The rolls of ``setup`` (seating, starting positions, cultures): drawn from the
    commitment ``s_0`` itself and recorded as "step 0" of the game."""

    seed: str
    dice: list[dict[str, Any]]
    digest: str


@dataclass
class RollbackReport:
    """Exactly what a rollback undid."""

    step: Step
    returned: list[str]
    """Players whose posts of the step stand again, frozen."""
    defaulted: list[str]
    """Players who had sent nothing: frozen too, they get default orders again."""
    discarded_posts: list[str]
    """Players whose posts for the next step were dropped."""
    discarded_edits: list[str]
    """Reasons of the state edits made after the step, undone with it."""


ENGINE_EVENTS = frozenset({"default_orders", "gm_post", "gm_edit", "gm_patch", "rollback", "reopen", "reveal"})
ACTIONS = frozenset({"gm_edit", "rollback", "reopen", "reveal"})


def _names(names: Sequence[str], lang: str) -> str:
    return ", ".join(names) if names else ("никого" if lang == "ru" else "nobody")


def _engine_notes(events: Sequence[Event], lang: str, ruleset: Ruleset) -> list[str]:
    """The engine's notes of a report; the silent players of one step share one line («Не
    прислали приказов: Борис, Вера и Глеб — ...»), not a line each."""
    notes: list[str] = []
    i = 0
    while i < len(events):
        event = events[i]
        group = [event]
        if event.kind == "default_orders":
            key = (event.data.get("turn"), event.data.get("phase"))
            while (i + len(group) < len(events) and events[i + len(group)].kind == "default_orders"
                   and (events[i + len(group)].data.get("turn"), events[i + len(group)].data.get("phase")) == key):
                group.append(events[i + len(group)])
        if len(group) > 1:
            players = [str(e.data["player"]) for e in group]
            notes.append(f"Не прислали приказов: {join_and(players)} — применены приказы по умолчанию."
                         if lang == "ru" else f"{join_and(players, 'en')} sent no orders: default orders were applied.")
        else:
            notes.append(_engine_note(event, lang, ruleset))
        i += len(group)
    return notes


def _engine_note(event: Event, lang: str, ruleset: Ruleset) -> str:
    data = event.data
    ru = lang == "ru"
    if event.kind == "default_orders":
        if ru:
            names = ruleset.player_names(lang)
            return (f"{names.act(data['player'], 'не прислал')} приказов: "
                    "применены приказы по умолчанию.")
        return f"{data['player']} sent no orders: default orders were applied."
    if event.kind == "gm_post":
        return (f"Приказы за компьютерного игрока {data['player']} отдал ведущий (шаг {data['step']})."
                if ru else f"The GM posted the orders of the computer player {data['player']} (step {data['step']}).")
    if event.kind == "gm_edit":
        return (f"Правка ведущего после шага {data['step']}: {data['reason']}"
                if ru else f"GM edit after step {data['step']}: {data['reason']}")
    if event.kind == "gm_patch":
        return (f"Правка (для ведущего): {canonical_json(data['patch'])}"
                if ru else f"Edit (GM only): {canonical_json(data['patch'])}")
    if event.kind == "reopen":
        return (f"Ведущий открыл приказ игрока {data['player']} на шаг {data['step']}: {data['reason']}"
                if ru else f"The GM reopened {data['player']}'s post for step {data['step']}: {data['reason']}")
    if event.kind == "reveal":
        return (f"Игра окончена; ведущий раскрыл секрет игры: {data['secret']}"
                if ru else f"The game is over; the GM revealed the game's secret: {data['secret']}")
    reason = data.get("reason") or "—"
    parts_ru = [f"Ведущий откатил шаг {data['step']} (ход {data['turn']}): {reason}.",
                f"Приказы снова стоят и заморожены: {_names(data['returned'], 'ru')}."]
    parts_en = [f"The GM rolled back step {data['step']} (turn {data['turn']}): {reason}.",
                f"Posts standing again, frozen: {_names(data['returned'], 'en')}."]
    if data["defaulted"]:
        parts_ru.append(f"Снова без приказов (приказы по умолчанию): {_names(data['defaulted'], 'ru')}.")
        parts_en.append(f"Again without posts (default orders): {_names(data['defaulted'], 'en')}.")
    if data["discarded_posts"]:
        parts_ru.append(f"Отменены приказы на следующий шаг: {_names(data['discarded_posts'], 'ru')}.")
        parts_en.append(f"Posts for the next step dropped: {_names(data['discarded_posts'], 'en')}.")
    for edit in data["discarded_edits"]:
        parts_ru.append(f"Отменена правка: {edit}.")
        parts_en.append(f"Edit undone: {edit}.")
    return " ".join(parts_ru if ru else parts_en)


def _turn_of(event: Event, step: Step) -> int:
    """The turn an event belongs to: the turn its data names (a step that ends one turn may go
    on into the next, as Culture & Conquest's do), else the turn of its step."""
    turn = event.data.get("turn")
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else step.turn


MAX_NAME = 100
"""The longest game or player name, in characters."""


def _no_player(name: str, players: Sequence[str], viewers: bool = False) -> tuple[str, str]:
    listed = ", ".join(players)
    extra_ru, extra_en = (", а также public и gm", ", or public and gm") if viewers else ("", "")
    return (f"нет игрока «{name}»; игроки: {listed}{extra_ru}",
            f"no player '{name}'; the players are {listed}{extra_en}")


def check_names(game: str, players: Sequence[str], bots: Sequence[str] = ()) -> None:
    """A new game's name and its players' names, before anything is stored: not empty, not too
    long, one line, no two players whose names differ only in letter case (``--player`` and
    ``--as`` accept a name in any case), and neither ``public`` nor ``gm``."""
    def bad(name: str) -> tuple[str, str] | None:
        if not name.strip():
            return "пустое имя", "an empty name"
        if len(name) > MAX_NAME:
            return f"длиннее {MAX_NAME} знаков", f"longer than {MAX_NAME} characters"
        if name != name.strip() or any(not c.isprintable() for c in name):
            return "пробелы по краям или непечатные знаки", "blanks around it or unprintable characters"
        return None

    problem = bad(game)
    if problem is not None:
        raise GameError(f"имя игры «{game}»: {problem[0]}", f"the game name '{game}': {problem[1]}")
    seen: dict[str, str] = {}
    for player in players:
        problem = bad(player)
        if problem is not None:
            raise GameError(f"имя игрока «{player}»: {problem[0]}", f"the player name '{player}': {problem[1]}")
        folded = player.casefold()
        if folded in (GM, PUBLIC):
            raise GameError(f"«{player}» не может быть именем игрока: так зовут зрителей (public, gm)",
                            f"'{player}' cannot be a player's name: it names a viewer (public, gm)")
        if folded in seen:
            raise GameError(f"имена игроков повторяются: «{seen[folded]}» и «{player}»",
                            f"player names repeat: '{seen[folded]}' and '{player}'")
        seen[folded] = player
    if len(set(bots)) != len(list(bots)):
        raise GameError("боты названы дважды", "a bot is named twice")


def find_player(name: str, players: Sequence[str], *, viewers: bool = False) -> str:
    """The player called ``name``; a name that differs only in letter case is accepted when
    it fits exactly one player («анна» is Анна). With ``viewers``, ``public`` and ``gm``
    too. Anything else is an error that lists the real names."""
    if name in players or (viewers and name in (GM, PUBLIC)):
        return name
    folded = name.strip().casefold()
    if viewers and folded in (GM, PUBLIC):
        return folded
    matches = [p for p in players if p.casefold() == folded]
    if len(matches) == 1:
        return matches[0]
    raise GameError(*_no_player(name, players, viewers))


def check_viewer(viewer: Viewer, players: Sequence[str]) -> None:
    """Refuse a viewer that is neither a player, ``public`` nor ``gm``."""
    if viewer not in (GM, PUBLIC) and viewer not in players:
        raise GameError(*_no_player(viewer, players, viewers=True))


def _new_secret(seed_text: str | None) -> bytes:
    if seed_text is None:
        return secrets_module.token_bytes(32)
    return hashlib.sha256(("voevoda-secret:" + seed_text).encode("utf-8")).digest()


def record_digest(public_record: Mapping[str, Any], previous: str) -> str:
    """SHA-256 of the canonical JSON of a step's public record (without ``digest``), with
    ``previous`` set to the digest of the record before (docs/dice.md §6)."""
    body = {k: v for k, v in public_record.items() if k != "digest"}
    body["previous"] = previous
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def public_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible_to(PUBLIC)]


def public_dice(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(r) for r in records if not r.get("sealed")]


class Game:
    """A game rebuilt from its journal, with the actions that extend the journal.

    With ``check_bots`` replay also re-runs every computer opponent's post from the seat's
    view and sealed stream and lists each post that differs in ``bot_problems``.
    """

    def __init__(self, record: GameRecord, *, check_bots: bool = False) -> None:
        self.record = record
        self.ruleset: Ruleset = registry.configure(record.ruleset, record.config, record.house_rules)
        self.chain = HashChain(bytes.fromhex(record.secret), record.chain_length)
        if self.chain.commitment != record.commitment:
            raise GameError("обязательство игры не совпадает с её секретом",
                            "the game's commitment does not match its secret")
        self.check_bots = check_bots
        self.bot_problems: list[str] = []
        self.steps: list[Step] = []
        self.pending: dict[str, Submission] = {}
        self.frozen: dict[str, int] = {}
        """Players whose post for a rolled-back step stands frozen: player → step."""
        self.actions: list[Event] = []
        """Public GM actions since the last step."""
        self.gm_log: list[Event] = []
        self.revealed = False
        self.state: State = self._setup()
        for index, entry in enumerate(record.entries):
            try:
                self._apply(entry)
            except OrdersRejected as exc:
                raise GameError(f"журнал повреждён: запись {index + 1} не принимается ({exc})",
                                f"the journal is corrupt: entry {index + 1} is refused ({exc})") from exc
            except GameError as exc:
                raise GameError(f"журнал повреждён: запись {index + 1} не применяется ({exc.message_ru})",
                                f"the journal is corrupt: entry {index + 1} does not apply ({exc.message_en})") from exc

    # -- creation ---------------------------------------------------------------

    @classmethod
    def create(cls, ruleset_id: str, name: str, players: Sequence[str], *,
               bots: Sequence[str] = (), config: Mapping[str, Any] | None = None,
               house_rules: Mapping[str, Any] | None = None, seed: str | None = None,
               auto_resolve: bool = False) -> Game:
        ruleset_cls = registry.get(ruleset_id)
        for what, given in (("config", config), ("house rules", house_rules)):
            problem = plain_problem(dict(given or {}))
            if problem:
                raise DataError(f"{what}: {problem}")
        players = list(players)
        check_names(name, players, bots)
        if not ruleset_cls.min_players <= len(players) <= ruleset_cls.max_players:
            raise GameError(
                f"{ruleset_cls.title_ru}: нужно от {ruleset_cls.min_players} до {ruleset_cls.max_players} игроков",
                f"{ruleset_cls.title_en}: needs {ruleset_cls.min_players} to {ruleset_cls.max_players} players")
        unknown = [b for b in bots if b not in players]
        if unknown:
            raise GameError(f"боты не из числа игроков: {', '.join(unknown)}",
                            f"bots that are not players: {', '.join(unknown)}")
        ruleset = ruleset_cls(config, house_rules)
        known = ruleset.config_keys()
        unknown_keys = sorted(set(config or {}) - known - CORE_CONFIG_KEYS) if known is not None else []
        if unknown_keys:
            listed = ", ".join(sorted(known or ())) or "—"
            raise GameError(f"неизвестные настройки: {', '.join(unknown_keys)} (есть: {listed})",
                            f"unknown config keys: {', '.join(unknown_keys)} (known: {listed})")
        read_genders((config or {}).get("genders"), players)
        secret = _new_secret(seed)
        chain = HashChain(secret)
        record = GameRecord(
            name=name, ruleset=ruleset_id, ruleset_version=ruleset_cls.version,
            config=ruleset.recorded_config(), house_rules=dict(house_rules or {}), players=players,
            bots=list(bots), auto_resolve=auto_resolve, secret=secret.hex(),
            chain_length=chain.length, commitment=chain.commitment,
        )
        game = cls(record)
        game.play_bots()
        return game

    def _setup(self) -> State:
        dice = Dice(self.chain.seed(0), self.chain.sealed_seed(0))
        state = self.ruleset.setup(self.record.players, dice)
        records = dice.records()
        body: dict[str, Any] = {"number": 0, "seed": dice.seed.hex(), "dice": public_dice(records)}
        self.setup = SetupRecord(dice.seed.hex(), records, record_digest(body, ""))
        return state

    # -- reading ------------------------------------------------------------------

    @property
    def step_number(self) -> int:
        """How many steps have been resolved; the next post is for step ``step_number + 1``."""
        return len(self.steps)

    @property
    def last_digest(self) -> str:
        return self.steps[-1].digest if self.steps else self.setup.digest

    def awaiting(self) -> dict[str, Prompt]:
        if self.outcome() is not None:
            return {}
        return self.ruleset.awaiting(self.state)

    def waiting_for(self) -> list[str]:
        """Awaited players who have not posted yet (a frozen post counts as posted)."""
        return [p for p in self.awaiting() if p not in self.pending and p not in self.frozen]

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        self._check_viewer(viewer)
        return self.ruleset.view(self.state, viewer)

    def events_for(self, viewer: Viewer, turn: int | None = None) -> list[Event]:
        """The events ``viewer`` may see (of ``turn``, or of the whole game): the game
        master's public actions before each step, the step's events, and the actions since
        the last step (shown with the last step's turn)."""
        self._check_viewer(viewer)
        events: list[Event] = []
        for step in self.steps:
            if turn is not None and step.turn != turn:
                events.extend(e for e in step.events if e.visible_to(viewer) and _turn_of(e, step) == turn)
                continue
            events.extend(e for e in step.actions if e.visible_to(viewer))
            events.extend(e for e in step.events if e.visible_to(viewer) and (turn is None or _turn_of(e, step) == turn))
        last_turn = self.steps[-1].turn if self.steps else None
        if turn is None or turn == last_turn:
            events.extend(e for e in self.actions if e.visible_to(viewer))
        if viewer == GM:
            events.extend(self.gm_log)
        return events

    def turns_resolved(self) -> list[int]:
        """The turns that have at least one resolved step, in order."""
        return sorted({step.turn for step in self.steps})

    def state_after(self, turn: int) -> State:
        """The state as it was when the last step of ``turn`` had been resolved (with any GM
        edit made before the next step): each step keeps the state it started from."""
        last = max((i for i, step in enumerate(self.steps) if step.turn == turn), default=None)
        if last is None:
            raise self._no_turn(turn)
        return self.steps[last + 1].state_before if last + 1 < len(self.steps) else self.state

    def _no_turn(self, turn: int) -> GameError:
        done = self.turns_resolved()
        if not done:
            return GameError(f"ход {turn} ещё не рассчитан: ни один ход не рассчитан",
                             f"turn {turn} has not been resolved: no turn has been resolved yet")
        span = f"{done[0]}–{done[-1]}" if len(done) > 1 else str(done[0])
        return GameError(f"хода {turn} нет среди рассчитанных (рассчитаны: {span})",
                         f"turn {turn} is not among the resolved ones (resolved: {span})")

    def report_document(self, viewer: Viewer, turn: int | None = None, lang: str = "ru") -> Document:
        """A viewer's report of ``turn`` (default: the last resolved) as a document, built from
        that viewer's view *as it was after that turn* and the events of the turn it may see:
        the engine's own notes (default orders, GM actions with their reasons), the ruleset's
        report, and at the foot, once, the dice trail (:meth:`dice_trail`)."""
        self._check_viewer(viewer)
        if turn is None and self.steps:
            turn = self.steps[-1].turn
        state = self.state if turn is None else self.state_after(turn)
        events = self.events_for(viewer, turn)
        notes = _engine_notes([e for e in events if e.kind in ENGINE_EVENTS], lang, self.ruleset)
        body = self.ruleset.document(self.ruleset.view(state, viewer),
                                     [e for e in events if e.kind not in ENGINE_EVENTS], viewer, lang, turn=turn)
        doc = Document(body.title, [])
        if notes:
            doc.blocks.append(BulletList(list(notes)))
        doc.blocks.extend(body.blocks)
        doc.blocks.append(self.dice_trail(turn, lang))
        return doc

    def dice_trail(self, turn: int | None, lang: str = "ru") -> Block:
        """The foot of a report: the commitment, the setup record (in the first report) and
        each covered step's seed and record digest, which a player keeps to check a later
        export against (docs/dice.md §6)."""
        ru = lang == "ru"
        dice: list[Block] = [Paragraph(("обязательство: " if ru else "commitment: ") + self.record.commitment)]
        lines: list[str] = []
        first_turn = self.steps[0].turn if self.steps else None
        if turn is None or turn == first_turn:
            lines.append(("настройка (шаг 0), запись " if ru else "setup (step 0), record ") + self.setup.digest)
        for step in self.steps:
            if turn is None or step.turn == turn or any(_turn_of(e, step) == turn for e in step.events):
                lines.append(f"шаг {step.number}: зерно {step.seed}, запись {step.digest}" if ru
                             else f"step {step.number}: seed {step.seed}, record {step.digest}")
        dice.append(BulletList(list(lines)))
        return Spoiler("Кости (проверяемые)" if ru else "Dice (verifiable)", dice)

    def report(self, viewer: Viewer, turn: int | None = None, fmt: ReportFormat = "text",
               lang: str = "ru", flavour: str | None = None) -> str:
        """:meth:`report_document` rendered in ``fmt`` (and ``flavour``, docs/reports.md)."""
        return render(self.report_document(viewer, turn, lang), fmt, flavour)

    def map_svg(self, viewer: Viewer, lang: str = "ru", turn: int | None = None) -> str | None:
        """The viewer's map after ``turn`` (default: now), from that viewer's view of the state
        then and the events of that turn it may see (last turn's moves and battles)."""
        self._check_viewer(viewer)
        if turn is None:
            state = self.state
            shown = self.steps[-1].turn if self.steps else None
        else:
            state = self.state_after(turn)
            shown = turn
        events = [e for e in self.events_for(viewer, shown) if e.kind not in ENGINE_EVENTS] if shown else []
        view = self.ruleset.view(state, viewer)
        if turn is None and viewer in self.pending:
            # the viewer's own post standing in the open step is his to see drawn (a battle's map
            # draws the deployment he sent before the enemy has sent his)
            view = self.ruleset.with_own_post(view, viewer, self.pending[viewer].orders)
        return self.ruleset.map_svg(view, viewer, lang, events, turn)

    def find_player(self, name: str, *, viewers: bool = False) -> str:
        """The player called ``name`` (see :func:`find_player`)."""
        return find_player(name, self.record.players, viewers=viewers)

    def _check_viewer(self, viewer: Viewer) -> None:
        check_viewer(viewer, self.record.players)

    # -- acting ---------------------------------------------------------------------

    def check(self, player: str, text: str) -> list[Order]:
        """Parse and validate a post without storing it; raises OrdersRejected."""
        if player not in self.record.players:
            raise GameError(*_no_player(player, self.record.players))
        if self.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        if player not in self.awaiting():
            raise GameError(f"от игрока «{player}» сейчас ничего не ждут",
                            f"nothing is awaited from '{player}' now")
        if player in self.frozen:
            step = self.frozen[player]
            raise GameError(
                f"приказ игрока «{player}» на шаг {step} заморожен после отката: зерно этого шага уже "
                f"опубликовано; изменить приказ можно, только если ведущий его откроет (voevoda reopen)",
                f"{player}'s post for step {step} stands frozen after the rollback: the step's seed has "
                f"been published; it can change only if the GM reopens it (voevoda reopen)")
        orders = self.ruleset.parse(text, player, self.state)
        problems = self.ruleset.validate(self.state, player, orders)
        if problems:
            raise OrdersRejected(problems, [self.ruleset.describe(o) for o in orders])
        return orders

    def check_step_for_post(self, step: int) -> None:
        """A post is written for a step; refuse it once that step has been resolved."""
        current = self.step_number + 1
        if step < current:
            raise GameError(
                f"шаг {step} уже рассчитан: приказ не сохранён; пришлите его снова для шага {current}",
                f"step {step} has already been resolved: the post was not stored; post again for step {current}")
        if step > current:
            raise GameError(f"шаг {step} ещё не наступил (сейчас шаг {current})",
                            f"step {step} has not come yet (the current step is {current})")

    def check_post(self, player: str, text: str) -> Receipt:
        """:meth:`check` with everything the echo needs; raises OrdersRejected carrying the
        lines not read as orders too. A new post over the size limit is refused here (a journal
        replayed is not: what was accepted once stays readable)."""
        posts.check_size(text)
        try:
            orders = self.check(player, text)
        except OrdersRejected as rejected:
            if not rejected.prose:
                read = self._read(player, text)
                if read is not None:
                    rejected.prose = [f"{line.number}: {line.text}" for line in read.prose]
                    rejected.unbold = list(read.unbold)
            raise
        post = self.ruleset.read_post(text, player, self.state)
        warnings = self.ruleset.warnings(self.state, player, orders)
        if not orders and post.prose:
            warnings.insert(0, warning(
                "в посте нет ни одного приказа: ни одна строка не начинается как приказ",
                "the post holds no order: no line begins like an order"))
        return Receipt(player, orders, list(post.prose), list(post.hidden), list(post.notes), warnings,
                       self.pending.get(player), list(post.unbold))

    def _read(self, player: str, text: str) -> posts.Post | None:
        try:
            return self.ruleset.read_post(text, player, self.state)
        except OrdersRejected:
            return None

    def post(self, player: str, text: str, source: str = "player", at: str | None = None,
             step: int | None = None) -> Receipt:
        """Accept a post for step ``step`` (default: the current one), replacing the player's
        earlier post of this step; the receipt says what was understood and what it replaced.
        A post for a computer opponent's seat that does not come from the opponent itself is
        the game master's, and is marked so."""
        if step is not None:
            self.check_step_for_post(step)
        if source == "player" and player in self.record.bots:
            source = "gm"
        receipt = self.check_post(player, text)
        entry = Entry(kind="submit", player=player, text=text, source=source,  # type: ignore[arg-type]
                      at=at, step=self.step_number + 1)
        self.record.entries.append(entry)
        self.pending[player] = Submission(player, text, receipt.orders, source, at)
        if self.record.auto_resolve and not self.waiting_for():
            self.resolve(at=at)
        return receipt

    def submit(self, player: str, text: str, source: str = "player", at: str | None = None,
               step: int | None = None) -> list[Order]:
        """Accept a post (see :meth:`post`) and give the orders understood."""
        return self.post(player, text, source, at, step).orders

    def resolve(self, force: bool = False, at: str | None = None, step: int | None = None) -> Step:
        """Resolve the current step; ``step`` names the step the caller means to resolve,
        and a step already resolved is refused («already resolved»)."""
        number = self.step_number + 1
        if step is not None and step != number:
            if step < number:
                raise GameError(f"шаг {step} уже рассчитан", f"step {step} is already resolved")
            raise GameError(f"шаг {step} ещё не наступил (сейчас шаг {number})",
                            f"step {step} has not come yet (the current step is {number})")
        if self.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        missing = self.waiting_for()
        if missing and not force:
            raise GameError(f"ещё не прислали приказы: {', '.join(missing)} (--force, чтобы решить без них)",
                            f"still waiting for: {', '.join(missing)} (use --force to resolve without them)")
        if not self.awaiting() and not force:
            raise GameError("нечего решать", "nothing to resolve")
        self.record.entries.append(Entry(kind="resolve", force=force, at=at, source="gm", step=number))
        resolved = self._resolve(force)
        self.play_bots(at=at)
        return resolved

    def rollback(self, reason: str, at: str | None = None) -> RollbackReport:
        """Undo the last resolved step. Its posts stand again, frozen (their step's seed is
        public now); posts already sent for the next step and edits made since are
        dropped; the report lists each."""
        self._check_open()
        if not reason.strip():
            raise GameError("откат требует причины", "a rollback needs a reason")
        if not self.steps:
            raise GameError("нечего откатывать: ни один ход ещё не решён",
                            "nothing to roll back: no step has been resolved")
        self.record.entries.append(Entry(kind="rollback", reason=reason, source="gm", at=at))
        return self._rollback(reason)

    def reopen(self, player: str, reason: str, at: str | None = None) -> int:
        """Let ``player`` post again for the rolled-back step; returns that step."""
        self._check_open()
        if not reason.strip():
            raise GameError("открытие приказа требует причины", "reopening a post needs a reason")
        if player not in self.record.players:
            raise GameError(*_no_player(player, self.record.players))
        if player not in self.frozen:
            raise GameError(f"приказ игрока «{player}» не заморожен", f"{player}'s post is not frozen")
        step = self.frozen[player]
        self.record.entries.append(Entry(kind="reopen", player=player, reason=reason, source="gm", at=at))
        self._reopen(player, reason)
        return step

    def edit(self, patch: list[dict[str, Any]], reason: str, at: str | None = None) -> None:
        """Change the state by an RFC 6902 JSON Patch. The result must pass the ruleset's
        state schema and invariants (``Ruleset.check_state``), else nothing changes; the
        reason goes to the public chronicle, the patch to the GM log."""
        self._check_open()
        if not reason.strip():
            raise GameError("правка состояния требует причины", "a state edit needs a reason")
        self._edit(patch, reason)  # validate before journaling
        self.record.entries.append(Entry(kind="edit", patch=patch, reason=reason, source="gm", at=at))

    def reveal(self, at: str | None = None) -> str:
        """Publish the game's secret once the game is over: every sealed roll and every
        computer opponent's post become checkable (``voevoda verify``)."""
        if self.outcome() is None:
            raise GameError("секрет раскрывают только после окончания игры",
                            "the secret is revealed only after the game is over")
        if self.revealed:
            raise GameError("секрет уже раскрыт", "the secret is already revealed")
        self.record.entries.append(Entry(kind="reveal", source="gm", at=at))
        self._reveal()
        return self.record.secret

    def bot_post(self, player: str) -> str:
        """What the computer opponent in ``player``'s seat writes now: from that seat's view
        and the sealed stream ``bot/<player>`` of the coming step, nothing else."""
        stream = Dice(self.chain.sealed_seed(self.step_number + 1)).stream(f"bot/{player}")
        text = self.ruleset.bot(self.view(player), player, stream)
        if text is None:
            raise GameError(f"у правил «{self.record.ruleset}» нет компьютерного игрока",
                            f"ruleset '{self.record.ruleset}' has no computer opponent")
        return text

    def play_bots(self, at: str | None = None, limit: int = 100_000) -> None:
        """Let every awaited computer opponent post; with auto-resolve, keep resolving
        until a person is awaited or the game ends."""
        for _ in range(limit):
            for player in self.waiting_for():
                if player not in self.record.bots:
                    continue
                entry = Entry(kind="submit", player=player, text=self.bot_post(player), source="bot", at=at,
                              step=self.step_number + 1)
                self._apply_submit(entry)
                self.record.entries.append(entry)
            if not (self.record.auto_resolve and self.awaiting() and not self.waiting_for()):
                return
            self.record.entries.append(Entry(kind="resolve", source="gm", at=at, step=self.step_number + 1))
            self._resolve(False)
        raise GameError("компьютерные игроки не закончили игру за отведённое число шагов",
                        "computer opponents did not finish within the step limit")

    def _check_open(self) -> None:
        if self.revealed:
            raise GameError("секрет игры раскрыт: игра закрыта для изменений",
                            "the game's secret is revealed: the game is closed to changes")

    # -- the code replay shares with live play ---------------------------------------

    def _apply(self, entry: Entry) -> None:
        if entry.kind == "submit":
            if entry.step is not None and entry.step != self.step_number + 1:
                raise GameError(f"приказ на шаг {entry.step} стоит в журнале при шаге {self.step_number + 1}",
                                f"a post for step {entry.step} stands where step {self.step_number + 1} is current")
            self._apply_submit(entry)
        elif entry.kind == "resolve":
            if entry.step is not None and entry.step != self.step_number + 1:
                raise GameError(f"расчёт шага {entry.step} стоит в журнале при шаге {self.step_number + 1}",
                                f"the resolution of step {entry.step} stands where step {self.step_number + 1} "
                                f"is current")
            if self.outcome() is not None:
                raise GameError("игра окончена", "the game is over")
            self._resolve(entry.force)
        elif entry.kind == "rollback":
            if not self.steps:
                raise GameError("нечего откатывать", "nothing to roll back")
            self._rollback(entry.reason or "")
        elif entry.kind == "edit":
            self._edit(entry.patch or [], entry.reason or "")
        elif entry.kind == "reopen":
            if entry.player not in self.frozen:
                raise GameError("открывается не замороженный приказ", "a post that is not frozen is reopened")
            assert entry.player is not None
            self._reopen(entry.player, entry.reason or "")
        elif entry.kind == "reveal":
            if self.outcome() is None:
                raise GameError("секрет раскрыт до конца игры", "the secret is revealed before the game is over")
            self._reveal()

    def _apply_submit(self, entry: Entry) -> None:
        assert entry.player is not None and entry.text is not None
        if self.check_bots and entry.source == "bot":
            expected = self.bot_post(entry.player)
            if expected != entry.text:
                self.bot_problems.append(
                    f"step {self.step_number + 1}: {entry.player}'s post is not what the computer opponent "
                    f"writes from its view and sealed stream")
        orders = self.check(entry.player, entry.text)
        self.pending[entry.player] = Submission(entry.player, entry.text, orders, entry.source, entry.at)

    def _resolve(self, force: bool) -> Step:
        awaited = self.awaiting()
        submissions: dict[str, Submission] = {}
        defaulted: list[str] = []
        for player in awaited:
            if player in self.pending:
                submissions[player] = self.pending[player]
            elif force or player in self.frozen:
                orders = self.ruleset.default_orders(self.state, player)
                submissions[player] = Submission(player, "", orders, "default")
                defaulted.append(player)
            else:
                raise GameError(f"нет приказов игрока «{player}»", f"no orders from '{player}'")
        number = self.step_number + 1
        dice = Dice(self.chain.seed(number), self.chain.sealed_seed(number))
        turn, phase = self.ruleset.progress(self.state)
        before = self.state
        resolution = self.ruleset.resolve(copy.deepcopy(before), {p: s.orders for p, s in submissions.items()}, dice)
        events: list[Event] = []
        for player in defaulted:
            events.append(Event("default_orders", {"player": player, "turn": turn, "phase": phase}))
        for player, submission in submissions.items():
            if submission.source == "gm":
                events.append(Event("gm_post", {"player": player, "turn": turn, "step": number}))
        events.extend(resolution.events)
        # A state must stay plain data: fail loudly here, not at save time.
        canonical_json(resolution.state)
        records = dice.records()
        step = Step(number, turn, phase, dice.seed.hex(), submissions, defaulted, events, records, before,
                    actions=self.actions)
        step.digest = record_digest(self.step_json(step, public=True), self.last_digest)
        self.steps.append(step)
        self.state = resolution.state
        self.pending = {}
        self.frozen = {}
        self.actions = []
        return step

    def _rollback(self, reason: str) -> RollbackReport:
        step = self.steps.pop()
        report = RollbackReport(
            step=step,
            returned=sorted(p for p, s in step.submissions.items() if s.source != "default"),
            defaulted=sorted(step.defaulted),
            discarded_posts=sorted(self.pending),
            discarded_edits=[str(e.data["reason"]) for e in self.actions if e.kind == "gm_edit"],
        )
        self.state = step.state_before
        self.pending = {p: s for p, s in step.submissions.items() if s.source != "default"}
        self.frozen = {p: step.number for p in step.submissions}
        event = Event("rollback", {"step": step.number, "turn": step.turn, "reason": reason,
                                   "returned": report.returned, "defaulted": report.defaulted,
                                   "discarded_posts": report.discarded_posts,
                                   "discarded_edits": report.discarded_edits})
        self.actions = [*step.actions, *self.actions, event]
        return report

    def _reopen(self, player: str, reason: str) -> None:
        step = self.frozen.pop(player)
        self.actions.append(Event("reopen", {"player": player, "step": step, "reason": reason}))

    def _edit(self, patch: list[dict[str, Any]], reason: str) -> None:
        import jsonpatch  # only a GM edit needs it

        try:
            new_state = jsonpatch.apply_patch(self.state, patch, in_place=False)
            canonical_json(new_state)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, ValueError,
                KeyError, IndexError, AttributeError) as exc:
            raise GameError(f"правка не применяется: {exc}", f"the edit does not apply: {exc}") from exc
        if not isinstance(new_state, dict):
            raise GameError("правка не применяется: состояние игры — это таблица (JSON-объект)",
                            "the edit does not apply: a game's state is a table (a JSON object)")
        problems = self.ruleset.check_state(new_state)
        if problems:
            shown = problems[:5]
            more = f" (+{len(problems) - 5})" if len(problems) > 5 else ""
            raise GameError(
                "правка оставляет недопустимое состояние, ничего не изменено: "
                + "; ".join(p.format("ru") for p in shown) + more,
                "the edit leaves a state the rules cannot resolve, nothing changed: "
                + "; ".join(p.format("en") for p in shown) + more)
        self.state = new_state
        turn = self.ruleset.progress(new_state)[0]
        self.actions.append(Event("gm_edit", {"step": self.step_number, "turn": turn, "reason": reason}))
        self.gm_log.append(Event("gm_patch", {"patch": patch, "reason": reason, "step": self.step_number}, ()))

    def _reveal(self) -> None:
        self.revealed = True
        self.actions.append(Event("reveal", {"secret": self.record.secret, "step": self.step_number}))

    # -- export ------------------------------------------------------------------------

    def step_json(self, step: Step, public: bool) -> dict[str, Any]:
        """A step as exports carry it; the public form is what the step's digest covers."""
        events = public_events(step.events) if public else [e.to_json() for e in step.events]
        actions = public_events(step.actions) if public else [e.to_json() for e in step.actions]
        dice = public_dice(step.dice) if public else [dict(d) for d in step.dice]
        body: dict[str, Any] = {"number": step.number, "turn": step.turn, "phase": step.phase, "seed": step.seed,
                                "defaulted": list(step.defaulted), "actions": actions, "events": events,
                                "dice": dice}
        if step.digest:
            body["digest"] = step.digest
        return body

    def setup_json(self, public: bool) -> dict[str, Any]:
        dice = public_dice(self.setup.dice) if public else [dict(d) for d in self.setup.dice]
        return {"number": 0, "seed": self.setup.seed, "dice": dice, "digest": self.setup.digest}

    def export(self, public: bool = False) -> dict[str, Any]:
        """The journal plus what replay derives from it, for ``verify`` and ``replay --check``.

        The public export leaves out the secret, the posts, the secret parts of the config
        (``Ruleset.public_config``) and every hidden event or sealed roll: it carries what any
        player may check — the setup record, every
        step's seed, public rolls, public events and the game master's actions, each step
        chained to the one before by its digest. Once the game is over and its secret
        revealed (``reveal``), nothing stays hidden: the public export is the whole game,
        secret and journal included.
        """
        public = public and not self.revealed
        game = self.record.model_dump(mode="json", exclude_none=True)
        if public:
            game = {k: v for k, v in game.items() if k not in ("secret", "entries")}
            game["config"] = self.ruleset.public_config()
        return {
            "format": EXPORT_FORMAT,
            "game": game,
            "engine_version": __version__,
            "public": public,
            "revealed": self.revealed,
            "setup": self.setup_json(public),
            "steps": [self.step_json(s, public) for s in self.steps],
            "actions": public_events(self.actions) if public else [e.to_json() for e in self.actions],
            "state": self.view(PUBLIC) if public else self.state,
        }
