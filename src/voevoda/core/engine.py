"""The turn loop, the same for every game.

``Game`` replays a :class:`~voevoda.core.journal.GameRecord` into its current state and
offers the actions a game needs: submit a post, resolve the step, roll back, reopen a
frozen post, edit the state with a reason, reveal the secret when the game is over. Every
action first appends to the journal and then applies the same code that replay uses, so a
stored game and its replay cannot diverge.

A step is one call of the ruleset's ``resolve``. Step ``k`` (from 1) draws its dice from
link ``k`` of the hash chain and, in a game of procedure 2 (every new game), from the step's
inputs: a salted commitment to each seat's post, the seats defaulted, the game master's edits
in effect (:mod:`voevoda.core.procedure`), so that nobody knows a roll before the last post is
in. Re-resolving a step after a rollback with the same posts therefore rolls the very same
dice, so a game master cannot re-roll a turn he did not like. Since the seed of a rolled-back
step has been published, the posts of that step stand frozen after the rollback: only the game
master can reopen a named player's post, with a reason that the public chronicle shows
(docs/dice.md «Rollbacks»).
"""

from __future__ import annotations

import copy
import hashlib
import secrets as secrets_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voevoda import __version__
from voevoda.core import posts, procedure, registry
from voevoda.core.bounds import plain_problem
from voevoda.core.dice import Dice, HashChain
from voevoda.core.errors import (
    AlreadyDone,
    DataError,
    GameError,
    OrdersRejected,
    ParseError,
    Problem,
    warning,
)
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
from voevoda.core.words import Names, join_and, read_genders

EXPORT_FORMAT = "voevoda-export/2"


@dataclass
class Submission:
    """An accepted post waiting for the step to resolve: for a post and its follow-ups
    (docs/posts.md «Follow-ups»), their texts one after another and all their orders."""

    player: str
    text: str
    orders: list[Order]
    source: str = "player"
    at: str | None = None
    attempt: int = 0
    """How many times the step had been rolled back when the post came (procedure 2: its salt)."""


@dataclass
class PendingEdit:
    """A game master's edit in effect for the coming step: its patch (hidden), its public reason,
    and how many times the step had been rolled back when it was made (procedure 2: its salt)."""

    patch: list[dict[str, Any]]
    reason: str
    attempt: int = 0


@dataclass
class Receipt:
    """What an accepted (or checked) post amounts to, for its echo to its author: the orders
    that stand (for a follow-up, the standing post's and its own), the lines refused with their
    reasons, the lines not read as orders, the lines set aside (quotes, spoilers), notes on the
    markup and on the reading (a heading, a repeated declaration), the ruleset's warnings (what
    the rules expect and the post leaves out), and the earlier post of this step that it
    replaces or adds to."""

    player: str
    orders: list[Order]
    prose: list[posts.PostLine] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    replaced: Submission | None = None
    unbold: list[int] = field(default_factory=list)
    """The prose lines not read because nothing on them is bold (a bold-only game)."""
    refused: list[Problem] = field(default_factory=list)
    """Why each refused line is refused (reading and rules alike), in the post's order: those
    lines are void, the others stand (docs/posts.md «A post keeps its good lines»)."""
    follow_up: bool = False
    """The post opens as a follow-up («ещё», «P.S.», ...): it adds to the standing post, if any."""
    adds_to: Submission | None = None
    """The standing post of this step that the follow-up adds its orders to."""
    added: list[Order] = field(default_factory=list)
    """The post's own orders that stand (for a post that is not a follow-up, ``orders``)."""

    @property
    def refused_lines(self) -> list[int]:
        """The refused lines, each once, in order."""
        return sorted({p.line for p in self.refused if p.line is not None})


POST_ACCEPTANCE = ("by_line", "whole")
"""The values of the config key ``post_acceptance``: ``by_line`` (the default) voids a refused
line and keeps the rest of the post; ``whole`` refuses a post with any refused line, as a whole
(docs/posts.md «A post keeps its good lines»)."""


@dataclass
class Verdict:
    """What the rules make of one post (:meth:`Game._judge`): a pure function of its text, the
    state, the player's standing post and the game's config, so that replay gives it again."""

    text: str
    """The text the reader read: the post, its follow-up marker blanked out."""
    orders: list[Order]
    """What stands after the post: for a follow-up, the standing orders and its own."""
    added: list[Order]
    """The post's own orders that stand."""
    understood: list[Order]
    """Every order read from the post, refused or not."""
    described: list[str]
    """``understood`` as the echo of a refusal shows it."""
    refused: list[Problem]
    whole: list[Problem]
    """Problems that refuse the post as a whole (they name no line of it)."""
    notes: list[Problem]
    headings: list[int]
    """Lines that began like an order but read as a heading: echoed as not read as orders."""
    follow_up: bool
    adds_to: Submission | None


@dataclass
class Step:
    """One resolved step, as replay rebuilds it.

    ``actions`` are the game master's public actions (rollbacks, reopenings, edits) since
    the step before; ``digest`` chains the step's public record to the one before
    (docs/dice.md §6). Sealed records are in ``dice`` but not in the public record: even a
    keyed digest of them would differ between two games that differ only in hidden things.

    In a game of procedure 2, ``link`` is the chain's link ``s_k``, ``inputs`` the step's public
    inputs (a commitment to each seat's post or the fact it was defaulted, a commitment to each
    edit in effect), ``inputs_digest`` their SHA-256, and ``seed`` is derived from the link and
    that digest; in procedure 1 the seed is the link and there are no inputs. What a
    notification of the step must carry is :meth:`notice`.
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
    link: str = ""
    inputs: dict[str, Any] | None = None
    inputs_digest: str = ""
    edits: list[PendingEdit] = field(default_factory=list)

    def notice(self) -> dict[str, Any]:
        """What goes out with the step's notification (docs/dice.md «A public record that proves its
        end»): the step, its turn and phase, the link, the inputs' digest (procedure 2), the seed
        and the record's digest. Everything in it is public."""
        notice: dict[str, Any] = {"step": self.number, "turn": self.turn, "phase": self.phase}
        if self.inputs is not None:
            notice["link"] = self.link
            notice["inputs"] = self.inputs_digest
        notice["seed"] = self.seed
        notice["digest"] = self.digest
        return notice


@dataclass
class SetupRecord:
    """The rolls of ``setup`` (seating, starting positions, cultures): drawn from the
    commitment ``s_0`` itself and recorded as "step 0" of the game; in procedure 2 its ``game``
    is the setup it covers (players, computer opponents, public config, the commitment to the
    whole config, house rules, the chain's length, the procedure)."""

    seed: str
    dice: list[dict[str, Any]]
    digest: str
    game: dict[str, Any] | None = None


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
    прислали приказов: Борис, Вера и Глеб — ...»), not a line each. Several steps of one phase
    (Thrones' three sealed bids) share it too, each player named once: the same player silent in
    two of them is one player, not «Дина и Дина»."""
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
        players = list(dict.fromkeys(str(e.data["player"]) for e in group)) if event.kind == "default_orders" else []
        if len(players) > 1:
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


def record_digest(public_record: Mapping[str, Any], previous: str, version: int = procedure.PROCEDURE_1) -> str:
    """SHA-256 of the canonical JSON of a step's public record (without ``digest``), with
    ``previous`` set to the digest of the record before, in the canonical JSON of procedure
    ``version`` (docs/dice.md §6)."""
    return procedure.record_digest(public_record, previous, version)


def public_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible_to(PUBLIC)]


def public_dice(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(r) for r in records if not r.get("sealed")]


class Game:
    """A game rebuilt from its journal, with the actions that extend the journal.

    With ``check_bots`` replay also re-runs every computer opponent's post from the seat's
    view and bot stream and lists each post that differs in ``bot_problems`` (the list given as
    ``problems``, so that a caller keeps what was found before a journal that stops replaying).
    """

    def __init__(self, record: GameRecord, *, check_bots: bool = False, problems: list[str] | None = None) -> None:
        self.record = record
        self.ruleset: Ruleset = registry.configure(record.ruleset, record.config, record.house_rules)
        self.chain = HashChain(bytes.fromhex(record.secret), record.chain_length)
        if self.chain.commitment != record.commitment:
            raise GameError("обязательство игры не совпадает с её секретом",
                            "the game's commitment does not match its secret")
        self.procedure: int = record.procedure or procedure.PROCEDURE_1
        """The dice procedure of the game (docs/dice.md): 1 for a game created before procedure 2."""
        self.check_bots = check_bots
        self.bot_problems: list[str] = problems if problems is not None else []
        self.steps: list[Step] = []
        self.pending: dict[str, Submission] = {}
        self.frozen: dict[str, int] = {}
        """Players whose post for a rolled-back step stands frozen: player → step."""
        self.actions: list[Event] = []
        """Public GM actions since the last step."""
        self.edits: list[PendingEdit] = []
        """The game master's edits in effect for the coming step (made since the last step)."""
        self.rollbacks: dict[int, int] = {}
        """How many times each step has been rolled back, over the whole game."""
        self.gm_log: list[Event] = []
        self.rolled_back: list[int] = []
        """The steps rolled back, in order (a second rollback of one step is told «already
        rolled back»)."""
        self.revealed = False
        self.store_key: tuple[str, int, str] | None = None
        """Which stored game this was read from (set by the store): a later read of the same
        game applies only the entries stored since (``Store.load(name, base=game)``)."""
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
               auto_resolve: bool = False, dice_procedure: int = procedure.CURRENT) -> Game:
        """A new game; ``dice_procedure`` is the dice procedure it follows (the current one; an
        older one only to test how games created before it still replay and verify)."""
        if dice_procedure not in procedure.PROCEDURES:
            raise GameError(f"нет процедуры костей {dice_procedure}", f"no dice procedure {dice_procedure}")
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
        acceptance = (config or {}).get("post_acceptance", POST_ACCEPTANCE[0])
        if acceptance not in POST_ACCEPTANCE:
            raise GameError(f"post_acceptance: {' или '.join(POST_ACCEPTANCE)}, а не «{acceptance}»",
                            f"post_acceptance: {' or '.join(POST_ACCEPTANCE)}, not '{acceptance}'")
        secret = _new_secret(seed)
        chain = HashChain(secret)
        record = GameRecord(
            name=name, ruleset=ruleset_id, ruleset_version=ruleset_cls.version,
            config=ruleset.recorded_config(), house_rules=dict(house_rules or {}), players=players,
            bots=list(bots), auto_resolve=auto_resolve, secret=secret.hex(),
            chain_length=chain.length, commitment=chain.commitment,
            procedure=None if dice_procedure == procedure.PROCEDURE_1 else dice_procedure,
        )
        game = cls(record)
        game.play_bots()
        return game

    def _setup(self) -> State:
        dice = Dice(self.chain.seed(0), self.chain.sealed_seed(0))
        state = self.ruleset.setup(self.record.players, dice)
        records = dice.records()
        game = self.setup_game() if self.procedure >= procedure.PROCEDURE_2 else None
        self.setup = SetupRecord(dice.seed.hex(), records, "", game)
        self.setup.digest = record_digest(self.setup_json(public=True), "", self.procedure)
        return state

    def setup_game(self) -> dict[str, Any]:
        """What a procedure 2 setup record covers: the header's players, computer opponents, public
        config, house rules, chain length and procedure, with a commitment to the whole config
        (its hidden parts included; docs/dice.md «The setup covers the game»)."""
        header = self.record.model_dump(mode="json", include=set(procedure.SETUP_KEYS))
        game = {key: header[key] for key in procedure.SETUP_KEYS}
        game["config"] = self.ruleset.public_config()
        game["config_commitment"] = procedure.config_commitment(self.chain.secret, self.record.config)
        return game

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
        doc.blocks.append(self.dice_trail(turn, lang, viewer))
        return doc

    def dice_trail(self, turn: int | None, lang: str = "ru", viewer: Viewer = PUBLIC) -> Block:
        """The foot of a report: the commitment, the setup record (in the first report) and
        each covered step's seed (with its chain link, procedure 2) and record digest, which a
        player keeps to check a later export against (docs/dice.md §6); for a player, the salt
        and the commitment of his own post in each step, which only he is told."""
        ru = lang == "ru"
        dice: list[Block] = [Paragraph(("обязательство: " if ru else "commitment: ") + self.record.commitment)]
        lines: list[str] = []
        first_turn = self.steps[0].turn if self.steps else None
        if turn is None or turn == first_turn:
            lines.append(("настройка (шаг 0), запись " if ru else "setup (step 0), record ") + self.setup.digest)
        for step in self.steps:
            if turn is None or step.turn == turn or any(_turn_of(e, step) == turn for e in step.events):
                if step.inputs is None:
                    lines.append(f"шаг {step.number}: зерно {step.seed}, запись {step.digest}" if ru
                                 else f"step {step.number}: seed {step.seed}, record {step.digest}")
                else:
                    lines.append(f"шаг {step.number}: зерно {step.seed}, звено {step.link}, запись {step.digest}"
                                 if ru else f"step {step.number}: seed {step.seed}, link {step.link}, "
                                            f"record {step.digest}")
                salt = self.post_salt(step, viewer) if viewer not in (GM, PUBLIC) else None
                if salt is not None and step.inputs is not None:
                    commitment = step.inputs["posts"][viewer]["commitment"]
                    lines.append(f"ваш приказ шага {step.number}: соль {salt}, отпечаток {commitment}" if ru
                                 else f"your post of step {step.number}: salt {salt}, commitment {commitment}")
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
        """Parse and validate a post without storing it: the orders that would stand (for a
        follow-up, with the standing post's); raises OrdersRejected when it cannot stand."""
        return self._verdict(player, text).orders

    def _verdict(self, player: str, text: str, follow_up: bool | None = None) -> Verdict:
        """:meth:`_judge` for a player who may post now; raises OrdersRejected when the post
        cannot stand (see :meth:`_judge`)."""
        if player not in self.record.players:
            raise GameError(*_no_player(player, self.record.players))
        if self.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        if player not in self.awaiting():
            names = Names((self.record.config or {}).get("genders"))
            raise GameError(f"от {names.case(player, 'gent')} сейчас ничего не ждут",
                            f"nothing is awaited from '{player}' now")
        if player in self.frozen:
            step = self.frozen[player]
            raise GameError(
                f"приказ игрока «{player}» на шаг {step} заморожен после отката: зерно этого шага уже "
                f"опубликовано; изменить приказ можно, только если ведущий его откроет (voevoda reopen)",
                f"{player}'s post for step {step} stands frozen after the rollback: the step's seed has "
                f"been published; it can change only if the GM reopens it (voevoda reopen)")
        verdict = self._judge(player, text, follow_up)
        whole_post = self.record.config.get("post_acceptance") == "whole"
        if verdict.whole or (verdict.refused and (whole_post or not verdict.added)):
            problems = sorted([*verdict.refused, *verdict.whole], key=lambda p: (p.line is not None, p.line or 0))
            raise OrdersRejected(problems, list(verdict.described), orders=list(verdict.understood))
        return verdict

    def _judge(self, player: str, text: str, follow_up: bool | None = None) -> Verdict:
        """Read and check a post line by line (docs/posts.md «A post keeps its good lines»).

        A line the reader cannot read is refused; the orders of the others are checked against
        the rules, and a line whose order breaks one is refused too, then the rest is checked
        again (an order may have leant on a refused one) until what is left passes. Problems
        that name no line of the post (a phase that needs one answer and got none) refuse it as
        a whole, so does a refusal in a game that wants whole posts (``post_acceptance =
        "whole"``, checked once, with every problem). A line that only looks like an order
        (:func:`posts.is_heading`) is read as prose, a declaration given twice once.

        ``follow_up``: ``None`` for a new post (it is a follow-up when it opens like one),
        else what the journal recorded. A follow-up's orders are checked with the standing
        post's and only its own lines can be refused."""
        options = self.ruleset.post_options()
        if follow_up is None:
            blanked = posts.follow_up(text) if options.follow_ups else None
            follow_up = blanked is not None
        else:
            blanked = posts.follow_up(text) if follow_up else None
        read = blanked if blanked is not None else text
        adds_to = self.pending.get(player) if follow_up else None
        base = list(adds_to.orders) if adds_to is not None else []
        whole: list[Problem] = []
        reading: list[Problem] = []
        opaque = False
        described: list[str] = []
        try:
            new = list(self.ruleset.parse(read, player, self.state))
        except ParseError as exc:
            new, reading = list(exc.orders), list(exc.problems)
            # a reader that names what it understood without handing the orders over: the post
            # cannot keep them, so it is refused whole, as before
            opaque = bool(exc.understood) and not exc.orders
            described = list(exc.understood)
        understood = list(new)
        if not opaque:
            described = [self.ruleset.describe(o) for o in understood]
        lines = {line.number: line.text for line in self._lines(player, read)} if reading else {}
        refused: list[Problem] = []
        notes: list[Problem] = []
        headings: list[int] = []
        for problem in reading:
            if opaque or problem.line is None:
                whole.append(problem)
            elif (not any(o.line == problem.line for o in new) and problem.line in lines
                  and posts.is_heading(lines[problem.line])):
                if problem.line not in headings:
                    headings.append(problem.line)
                notes.append(warning(
                    f"прочитано как заголовок, а не как приказ. Как приказ строка не читается: {problem.message_ru}",
                    f"read as a heading, not as an order. As an order it does not read: {problem.message_en}",
                    problem.line, None, problem.order))
            else:
                refused.append(problem)
        void = {p.line for p in refused}
        new = [o for o in new if o.line not in void]
        new, repeats = self._merge_repeats(base, new, adds_to is not None)
        notes.extend(repeats)
        whole_post = self.record.config.get("post_acceptance") == "whole"
        for _ in range(len(new) + 1):
            if not new or whole:
                break
            problems = self.ruleset.validate(self.state, player, [*base, *new])
            if not problems:
                break
            dropped: list[Order] = []
            for problem in problems:
                hit = self._refused_by(problem, base, new)
                if hit is None:
                    whole.append(problem)
                else:
                    refused.append(problem)
                    dropped.extend(o for o in hit if not any(o is d for d in dropped))
            if whole_post:
                break
            new = [o for o in new if not any(o is d for d in dropped)]
        if headings and not new:
            # a post (or a follow-up) of headings alone says nothing: its lines are refused, with
            # the reader's reasons
            refused.extend(p for p in reading if p.line in headings)
            notes = [n for n in notes if n.line not in headings]
            headings = []
        refused.sort(key=lambda p: p.line or 0)
        standing = [*base, *new]
        if standing and not whole:
            standing = self.ruleset.settle(self.state, player, standing)
            new = standing[len(base):]
        return Verdict(read, standing, new, understood, described, refused, whole, notes, sorted(headings),
                       follow_up, adds_to)

    @staticmethod
    def _refused_by(problem: Problem, base: Sequence[Order], new: Sequence[Order]) -> list[Order] | None:
        """The orders of the post that ``problem`` refuses: those of the line it names (only the
        order it names, when it names one of several on the line); ``None`` when it names no line
        of the post, or an order of the standing post a follow-up adds to."""
        if problem.line is None:
            return None
        mine = [o for o in new if o.line == problem.line]
        if problem.order:
            named = [o for o in mine if o.text == problem.order]
            if named:
                return named
            if any(o.line == problem.line and o.text == problem.order for o in base):
                return None
        return mine or None

    def _merge_repeats(self, base: Sequence[Order], new: Sequence[Order],
                       following: bool) -> tuple[list[Order], list[Problem]]:
        """``new`` without the declarations already given (``Ruleset.declaration``), and a note
        for each line dropped so."""
        seen: dict[Any, int] = {}
        for order in base:
            key = self.ruleset.declaration(order)
            if key is not None:
                seen.setdefault(key, order.line)
        kept: list[Order] = []
        notes: list[Problem] = []
        for order in new:
            key = self.ruleset.declaration(order)
            if key is None:
                kept.append(order)
                continue
            if key in seen:
                earlier = seen[key]
                in_base = any(self.ruleset.declaration(o) == key for o in base)
                where_ru = f"строку {earlier} вашего поста" if following and in_base else f"строку {earlier}"
                where_en = f"line {earlier} of your post" if following and in_base else f"line {earlier}"
                notes.append(warning(f"повторяет {where_ru}: учтено один раз",
                                     f"repeats {where_en}: counted once", order.line or None, None, order.text or None))
                continue
            seen[key] = order.line
            kept.append(order)
        return kept, notes

    def _lines(self, player: str, text: str) -> tuple[posts.PostLine, ...]:
        read = self._read(player, text)
        return read.lines if read is not None else ()

    def check_step_open(self, step: int) -> None:
        """A game master's action names the step that is open (the one posts go to): refuse it
        when another action has resolved or rolled back a step meanwhile, so that an action meant
        for one step never lands on another."""
        current = self.step_number + 1
        if step != current:
            raise AlreadyDone(
                f"сейчас открыт шаг {current}, а не {step}: игра изменилась, ничего не сделано; посмотрите "
                f"её снова", f"step {current} is open, not {step}: the game has changed, nothing was done; "
                f"look at it again")

    def fork(self) -> Game:
        """An independent copy to act on, cheap enough for every request of a server: the
        containers an action changes are copied; states, steps and submissions are shared,
        since the engine never changes one in place (``resolve`` works on a deep copy, an edit
        builds a new state, a rollback pops a step off the list)."""
        clone = copy.copy(self)
        clone.record = self.record.model_copy()
        clone.record.entries = list(self.record.entries)
        clone.steps = list(self.steps)
        clone.pending = dict(self.pending)
        clone.frozen = dict(self.frozen)
        clone.actions = list(self.actions)
        clone.gm_log = list(self.gm_log)
        clone.bot_problems = list(self.bot_problems)
        return clone

    def apply_entries(self, entries: Sequence[Entry]) -> None:
        """Bring a game up to date with journal entries stored after the ones it was replayed
        from (another process acted meanwhile): the same code as replay."""
        for entry in entries:
            index = len(self.record.entries)
            try:
                self._apply(entry)
            except (OrdersRejected, GameError) as exc:
                raise GameError(f"журнал повреждён: запись {index + 1} не применяется ({exc})",
                                f"the journal is corrupt: entry {index + 1} does not apply ({exc})") from exc
            self.record.entries.append(entry)

    def check_step_for_post(self, step: int) -> None:
        """A post is written for a step; refuse it once that step has been resolved."""
        current = self.step_number + 1
        if step < current:
            raise AlreadyDone(
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
            verdict = self._verdict(player, text)
        except OrdersRejected as rejected:
            if not rejected.prose:
                blanked = posts.follow_up(text) if self.ruleset.post_options().follow_ups else None
                read = self._read(player, text if blanked is None else blanked)
                if read is not None:
                    rejected.prose = [f"{line.number}: {line.text}" for line in read.prose]
                    rejected.unbold = list(read.unbold)
            raise
        return self._receipt(player, verdict)

    def _receipt(self, player: str, verdict: Verdict) -> Receipt:
        post = self.ruleset.read_post(verdict.text, player, self.state)
        warnings = self.ruleset.warnings(self.state, player, verdict.orders)
        if not verdict.orders and post.prose:
            warnings.insert(0, warning(
                "в посте нет ни одного приказа: ни одна строка не начинается как приказ",
                "the post holds no order: no line begins like an order"))
        prose = list(post.prose)
        if verdict.headings:
            prose.extend(line for line in post.orders if line.number in verdict.headings)
            prose.sort(key=lambda line: line.number)
        return Receipt(player, verdict.orders, prose, list(post.hidden), [*post.notes, *verdict.notes], warnings,
                       None if verdict.follow_up and verdict.adds_to is not None else self.pending.get(player),
                       list(post.unbold), list(verdict.refused), verdict.follow_up, verdict.adds_to,
                       list(verdict.added))

    def _read(self, player: str, text: str) -> posts.Post | None:
        try:
            return self.ruleset.read_post(text, player, self.state)
        except OrdersRejected:
            return None

    def post(self, player: str, text: str, source: str = "player", at: str | None = None,
             step: int | None = None) -> Receipt:
        """Accept a post for step ``step`` (default: the current one), replacing the player's
        earlier post of this step, or adding to it when the post opens as a follow-up (docs/
        posts.md «Follow-ups»); its refused lines are void, the rest stands. The receipt says
        what was understood, what was refused and what it replaced or added to. A post for a
        computer opponent's seat that does not come from the opponent itself is the game
        master's, and is marked so."""
        if step is not None:
            self.check_step_for_post(step)
        if source == "player" and player in self.record.bots:
            source = "gm"
        receipt = self.check_post(player, text)
        entry = Entry(kind="submit", player=player, text=text, source=source,  # type: ignore[arg-type]
                      at=at, step=self.step_number + 1, follow_up=True if receipt.follow_up else None)
        self.record.entries.append(entry)
        self.pending[player] = self._submission(player, text, receipt.orders, source, at, receipt.adds_to,
                                                self._attempt())
        if self.record.auto_resolve and not self.waiting_for():
            self.resolve(at=at)
        return receipt

    @staticmethod
    def _submission(player: str, text: str, orders: list[Order], source: str, at: str | None,
                    adds_to: Submission | None, attempt: int) -> Submission:
        if adds_to is not None:
            text = adds_to.text + "\n\n" + text
        return Submission(player, text, orders, source, at, attempt)

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
                raise AlreadyDone(f"шаг {step} уже рассчитан", f"step {step} is already resolved")
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

    def rollback(self, reason: str, at: str | None = None, step: int | None = None) -> RollbackReport:
        """Undo the last resolved step. Its posts stand again, frozen (their step's seed is
        public now); posts already sent for the next step and edits made since are
        dropped; the report lists each. ``step`` names the step the caller means to undo:
        of two rollbacks of one step racing each other, the second is refused («already
        rolled back») instead of undoing the step before."""
        self._check_open()
        if not reason.strip():
            raise GameError("откат требует причины", "a rollback needs a reason")
        if step is not None and step != self.step_number:
            if step > self.step_number and step in self.rolled_back:
                raise AlreadyDone(f"шаг {step} уже откатан (последний рассчитанный — шаг {self.step_number})",
                                f"step {step} has already been rolled back (the last resolved is step "
                                f"{self.step_number})")
            if step > self.step_number:
                raise GameError(f"шаг {step} ещё не рассчитан: откатывать нечего (рассчитано шагов: "
                                f"{self.step_number})", f"step {step} has not been resolved: nothing to roll back "
                                f"(steps resolved: {self.step_number})")
            raise GameError(f"откатить можно только последний рассчитанный шаг, {self.step_number}, а не {step}",
                            f"only the last resolved step, {self.step_number}, can be rolled back, not {step}")
        if not self.steps:
            raise GameError("нечего откатывать: ни один ход ещё не решён",
                            "nothing to roll back: no step has been resolved")
        self.record.entries.append(Entry(kind="rollback", reason=reason, source="gm", at=at))
        return self._rollback(reason)

    def reopen(self, player: str, reason: str, at: str | None = None, step: int | None = None) -> int:
        """Let ``player`` post again for the rolled-back step; returns that step. ``step`` names
        the open step the caller means (:meth:`check_step_open`)."""
        self._check_open()
        if step is not None:
            self.check_step_open(step)
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

    def edit(self, patch: list[dict[str, Any]], reason: str, at: str | None = None, step: int | None = None) -> None:
        """Change the state by an RFC 6902 JSON Patch. The result must pass the ruleset's
        state schema and invariants (``Ruleset.check_state``), else nothing changes; the
        reason goes to the public chronicle, the patch to the GM log. ``step`` names the open
        step the patch was written for (:meth:`check_step_open`)."""
        self._check_open()
        if step is not None:
            self.check_step_open(step)
        if not reason.strip():
            raise GameError("правка состояния требует причины", "a state edit needs a reason")
        self._edit(patch, reason)  # validate before journaling
        self.record.entries.append(Entry(kind="edit", patch=patch, reason=reason, source="gm", at=at))

    def reveal(self, at: str | None = None, step: int | None = None) -> str:
        """Publish the game's secret once the game is over: every sealed roll and every
        computer opponent's post become checkable (``voevoda verify``). ``step`` names the open
        step the caller saw (:meth:`check_step_open`)."""
        if step is not None and not self.revealed:
            self.check_step_open(step)
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
        and the sealed stream ``bot/<player>`` of the coming step, nothing else (procedure 2: of
        the step's bot seed, which the step's inputs, still to come, cannot enter)."""
        number = self.step_number + 1
        seed = (procedure.bot_seed(self.chain.secret, number) if self.procedure >= procedure.PROCEDURE_2
                else self.chain.sealed_seed(number))
        stream = Dice(seed).stream(f"bot/{player}")
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
        verdict = self._verdict(entry.player, entry.text, follow_up=bool(entry.follow_up))
        self.pending[entry.player] = self._submission(entry.player, entry.text, verdict.orders, entry.source,
                                                      entry.at, verdict.adds_to, self._attempt())

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
        inputs = self._inputs(number, submissions) if self.procedure >= procedure.PROCEDURE_2 else None
        digest = procedure.inputs_digest(inputs) if inputs is not None else None
        seed, sealed = self._step_seeds(number, digest)
        dice = Dice(seed, sealed)
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
                    actions=self.actions, link=self.chain.seed(number).hex(), inputs=inputs,
                    inputs_digest=digest.hex() if digest is not None else "", edits=self.edits)
        step.digest = record_digest(self.step_json(step, public=True), self.last_digest, self.procedure)
        self.steps.append(step)
        self.state = resolution.state
        self.pending = {}
        self.frozen = {}
        self.actions = []
        self.edits = []
        return step

    def _attempt(self) -> int:
        """How many times the coming step has been rolled back so far."""
        return self.rollbacks.get(self.step_number + 1, 0)

    def _step_seeds(self, number: int, digest: bytes | None) -> tuple[bytes, bytes]:
        """The public and the sealed seed of step ``number``: the chain's link and the sealed seed
        of procedure 1, or in procedure 2 both derived from the link (the secret) and the digest
        of the step's inputs (docs/dice.md §3)."""
        link = self.chain.seed(number)
        if digest is None:
            return link, self.chain.sealed_seed(number)
        return procedure.step_seed(link, digest), procedure.sealed_seed(self.chain.secret, number, digest)

    def _inputs(self, number: int, submissions: Mapping[str, Submission]) -> dict[str, Any]:
        """A procedure 2 step's public inputs: each resolved seat's post as a salted commitment (or
        the fact that it was defaulted), and a commitment to each of the game master's edits in
        effect (docs/dice.md «The step's inputs»)."""
        secret = self.chain.secret
        seats: dict[str, Any] = {}
        for player, submission in submissions.items():
            if submission.source == "default":
                seats[player] = {"source": procedure.DEFAULT_SOURCE}
                continue
            salt = procedure.post_salt(secret, number, submission.attempt, player)
            seats[player] = {"source": submission.source, "commitment": procedure.commit_post(salt, submission.text)}
            if submission.attempt:
                seats[player]["attempt"] = submission.attempt
        edits: list[dict[str, Any]] = []
        for index, edit in enumerate(self.edits):
            salt = procedure.edit_salt(secret, number, edit.attempt, index)
            edits.append({"commitment": procedure.commit_patch(salt, edit.patch)})
            if edit.attempt:
                edits[-1]["attempt"] = edit.attempt
        return {"posts": seats, "edits": edits}

    def post_salt(self, step: Step, player: str) -> str | None:
        """The salt of ``player``'s post in ``step`` (procedure 2), which only that player is told:
        with it and the text he sent he checks his post's commitment in the public record."""
        submission = step.submissions.get(player)
        if step.inputs is None or submission is None or submission.source == "default":
            return None
        return procedure.post_salt(self.chain.secret, step.number, submission.attempt, player).hex()

    def _rollback(self, reason: str) -> RollbackReport:
        step = self.steps.pop()
        self.rolled_back = [*self.rolled_back, step.number]
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
        self.edits = list(step.edits)
        self.rollbacks[step.number] = self.rollbacks.get(step.number, 0) + 1
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
        self.edits.append(PendingEdit(copy.deepcopy(patch), reason, self._attempt()))
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
        if step.inputs is not None:
            body["link"] = step.link
            body["inputs"] = copy.deepcopy(step.inputs)
            if not public:
                body["opened"] = {"posts": {p: s.text for p, s in step.submissions.items() if s.source != "default"},
                                  "edits": [copy.deepcopy(edit.patch) for edit in step.edits]}
        if step.digest:
            body["digest"] = step.digest
        return body

    def setup_json(self, public: bool) -> dict[str, Any]:
        dice = public_dice(self.setup.dice) if public else [dict(d) for d in self.setup.dice]
        body: dict[str, Any] = {"number": 0, "seed": self.setup.seed, "dice": dice}
        if self.setup.game is not None:
            body["game"] = copy.deepcopy(self.setup.game)
        if self.setup.digest:
            body["digest"] = self.setup.digest
        return body

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
