"""The turn loop, the same for every game.

``Game`` replays a :class:`~voevoda.core.journal.GameRecord` into its current state and
offers the actions a game needs: submit a post, resolve the step, roll back, edit the
state with a reason. Every action first appends to the journal and then applies the
same code that replay uses, so a stored game and its replay cannot diverge.

A step is one call of the ruleset's ``resolve``. Step ``k`` (from 1) draws its dice
from link ``k`` of the hash chain; re-resolving a step after a rollback therefore rolls
the very same dice, so a game master cannot re-roll a turn he did not like.
"""

from __future__ import annotations

import copy
import secrets as secrets_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonpatch

from voevoda import __version__
from voevoda.core import registry
from voevoda.core.dice import Dice, HashChain
from voevoda.core.errors import GameError, OrdersRejected
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
from voevoda.core.words import read_genders


@dataclass
class Submission:
    """An accepted post waiting for the step to resolve."""

    player: str
    text: str
    orders: list[Order]
    source: str = "player"


@dataclass
class Step:
    """One resolved step, as replay rebuilds it."""

    number: int
    turn: int
    phase: str
    seed: str
    submissions: dict[str, Submission]
    defaulted: list[str]
    events: list[Event]
    dice: list[dict[str, Any]]
    state_before: State = field(repr=False)


ENGINE_EVENTS = frozenset({"default_orders", "gm_edit", "rollback"})


def _engine_note(event: Event, lang: str, ruleset: Ruleset) -> str:
    data = event.data
    if event.kind == "default_orders":
        if lang == "ru":
            names = ruleset.player_names(lang)
            return (f"{names.act(data['player'], 'не прислал')} приказов: "
                    "применены приказы по умолчанию.")
        return f"{data['player']} sent no orders: default orders were applied."
    if event.kind == "gm_edit":
        return (f"Правка ведущего (шаг {data['step']}): {data['reason']}"
                if lang == "ru" else f"GM edit (step {data['step']}): {data['reason']}")
    return (f"Ведущий откатил шаг {data['step']} (ход {data['turn']})."
            if lang == "ru" else f"The GM rolled back step {data['step']} (turn {data['turn']}).")


def _new_secret(seed_text: str | None) -> bytes:
    if seed_text is None:
        return secrets_module.token_bytes(32)
    import hashlib

    return hashlib.sha256(("voevoda-secret:" + seed_text).encode("utf-8")).digest()


class Game:
    """A game rebuilt from its journal, with the actions that extend the journal."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.ruleset: Ruleset = registry.configure(record.ruleset, record.config, record.house_rules)
        self.chain = HashChain(bytes.fromhex(record.secret), record.chain_length)
        if self.chain.commitment != record.commitment:
            raise GameError("обязательство игры не совпадает с её секретом",
                            "the game's commitment does not match its secret")
        self.steps: list[Step] = []
        self.pending: dict[str, Submission] = {}
        self.gm_log: list[Event] = []
        self.state: State = self._setup()
        for index, entry in enumerate(record.entries):
            try:
                self._apply(entry)
            except OrdersRejected as exc:
                raise GameError(f"журнал повреждён: запись {index + 1} не принимается ({exc})",
                                f"the journal is corrupt: entry {index + 1} is refused ({exc})") from exc

    # -- creation ---------------------------------------------------------------

    @classmethod
    def create(cls, ruleset_id: str, name: str, players: Sequence[str], *,
               bots: Sequence[str] = (), config: Mapping[str, Any] | None = None,
               house_rules: Mapping[str, Any] | None = None, seed: str | None = None,
               auto_resolve: bool = False) -> Game:
        ruleset_cls = registry.get(ruleset_id)
        players = list(players)
        if not ruleset_cls.min_players <= len(players) <= ruleset_cls.max_players:
            raise GameError(
                f"{ruleset_cls.title_ru}: нужно от {ruleset_cls.min_players} до {ruleset_cls.max_players} игроков",
                f"{ruleset_cls.title_en}: needs {ruleset_cls.min_players} to {ruleset_cls.max_players} players")
        unknown = [b for b in bots if b not in players]
        if unknown:
            raise GameError(f"боты не из числа игроков: {', '.join(unknown)}",
                            f"bots that are not players: {', '.join(unknown)}")
        known = ruleset_cls(config, house_rules).config_keys()
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
            config=dict(config or {}), house_rules=dict(house_rules or {}), players=players,
            bots=list(bots), auto_resolve=auto_resolve, secret=secret.hex(),
            chain_length=chain.length, commitment=chain.commitment,
        )
        game = cls(record)
        game.play_bots()
        return game

    def _setup(self) -> State:
        dice = Dice(self.chain.seed(0), self.chain.sealed_seed(0))
        return self.ruleset.setup(self.record.players, dice)

    # -- reading ------------------------------------------------------------------

    @property
    def step_number(self) -> int:
        return len(self.steps)

    def awaiting(self) -> dict[str, Prompt]:
        if self.outcome() is not None:
            return {}
        return self.ruleset.awaiting(self.state)

    def waiting_for(self) -> list[str]:
        """Awaited players who have not posted yet."""
        return [p for p in self.awaiting() if p not in self.pending]

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        self._check_viewer(viewer)
        return self.ruleset.view(self.state, viewer)

    def events_for(self, viewer: Viewer, turn: int | None = None) -> list[Event]:
        self._check_viewer(viewer)
        events: list[Event] = []
        for step in self.steps:
            if turn is not None and step.turn != turn:
                continue
            events.extend(e for e in step.events if e.visible_to(viewer))
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
        the engine's own notes (default orders, GM edits and rollbacks), the ruleset's report,
        and at the foot, once, the revealed dice seeds of the steps it covers."""
        self._check_viewer(viewer)
        if turn is None and self.steps:
            turn = self.steps[-1].turn
        state = self.state if turn is None else self.state_after(turn)
        events = self.events_for(viewer, turn)
        notes = [_engine_note(e, lang, self.ruleset) for e in events if e.kind in ENGINE_EVENTS]
        body = self.ruleset.document(self.ruleset.view(state, viewer),
                                     [e for e in events if e.kind not in ENGINE_EVENTS], viewer, lang, turn=turn)
        doc = Document(body.title, [])
        if notes:
            doc.blocks.append(BulletList(list(notes)))
        doc.blocks.extend(body.blocks)
        ru = lang == "ru"
        seeds = [("шаг" if ru else "step") + f" {step.number}: {step.seed}"
                 for step in self.steps if turn is None or step.turn == turn]
        dice: list[Block] = [Paragraph(("обязательство: " if ru else "commitment: ") + self.record.commitment)]
        if seeds:
            dice.append(BulletList(list(seeds)))
        doc.blocks.append(Spoiler("Кости (проверяемые)" if ru else "Dice (verifiable)", dice))
        return doc

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
        return self.ruleset.map_svg(self.ruleset.view(state, viewer), viewer, lang, events, turn)

    def _check_viewer(self, viewer: Viewer) -> None:
        if viewer not in (GM, PUBLIC) and viewer not in self.record.players:
            raise GameError(f"нет игрока «{viewer}»", f"no player '{viewer}'")

    # -- acting ---------------------------------------------------------------------

    def check(self, player: str, text: str) -> list[Order]:
        """Parse and validate a post without storing it; raises OrdersRejected."""
        if player not in self.record.players:
            raise GameError(f"нет игрока «{player}»", f"no player '{player}'")
        if self.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        if player not in self.awaiting():
            raise GameError(f"от игрока «{player}» сейчас ничего не ждут",
                            f"nothing is awaited from '{player}' now")
        orders = self.ruleset.parse(text, player, self.state)
        problems = self.ruleset.validate(self.state, player, orders)
        if problems:
            raise OrdersRejected(problems, [self.ruleset.describe(o) for o in orders])
        return orders

    def submit(self, player: str, text: str, source: str = "player", at: str | None = None) -> list[Order]:
        """Accept a post (replacing the player's earlier post of this step)."""
        orders = self.check(player, text)
        entry = Entry(kind="submit", player=player, text=text, source=source, at=at)  # type: ignore[arg-type]
        self.record.entries.append(entry)
        self.pending[player] = Submission(player, text, orders, source)
        if self.record.auto_resolve and not self.waiting_for():
            self.resolve(at=at)
        return orders

    def resolve(self, force: bool = False, at: str | None = None) -> Step:
        if self.outcome() is not None:
            raise GameError("игра окончена", "the game is over")
        missing = self.waiting_for()
        if missing and not force:
            raise GameError(f"ещё не прислали приказы: {', '.join(missing)} (--force, чтобы решить без них)",
                            f"still waiting for: {', '.join(missing)} (use --force to resolve without them)")
        if not self.awaiting() and not force:
            raise GameError("нечего решать", "nothing to resolve")
        self.record.entries.append(Entry(kind="resolve", force=force, at=at, source="gm"))
        step = self._resolve(force)
        self.play_bots(at=at)
        return step

    def rollback(self, at: str | None = None) -> Step:
        if not self.steps:
            raise GameError("нечего откатывать: ни один ход ещё не решён",
                            "nothing to roll back: no step has been resolved")
        self.record.entries.append(Entry(kind="rollback", source="gm", at=at))
        return self._rollback()

    def edit(self, patch: list[dict[str, Any]], reason: str, at: str | None = None) -> None:
        """Change the state by an RFC 6902 JSON Patch; the reason goes to the GM log."""
        if not reason.strip():
            raise GameError("правка состояния требует причины", "a state edit needs a reason")
        self._edit(patch, reason)  # validate before journaling
        self.record.entries.append(Entry(kind="edit", patch=patch, reason=reason, source="gm", at=at))

    def play_bots(self, at: str | None = None, limit: int = 100_000) -> None:
        """Let every awaited computer opponent post; with auto-resolve, keep resolving
        until a person is awaited or the game ends."""
        for _ in range(limit):
            for player in self.waiting_for():
                if player not in self.record.bots:
                    continue
                stream = Dice(self.chain.sealed_seed(self.step_number + 1)).stream(f"bot/{player}")
                text = self.ruleset.bot(self.view(player), player, stream)
                if text is None:
                    raise GameError(f"у правил «{self.record.ruleset}» нет компьютерного игрока",
                                    f"ruleset '{self.record.ruleset}' has no computer opponent")
                entry = Entry(kind="submit", player=player, text=text, source="bot", at=at)
                self._apply_submit(entry)
                self.record.entries.append(entry)
            if not (self.record.auto_resolve and self.awaiting() and not self.waiting_for()):
                return
            self.record.entries.append(Entry(kind="resolve", source="gm", at=at))
            self._resolve(False)
        raise GameError("компьютерные игроки не закончили игру за отведённое число шагов",
                        "computer opponents did not finish within the step limit")

    # -- the code replay shares with live play ---------------------------------------

    def _apply(self, entry: Entry) -> None:
        if entry.kind == "submit":
            self._apply_submit(entry)
        elif entry.kind == "resolve":
            self._resolve(entry.force)
        elif entry.kind == "rollback":
            self._rollback()
        elif entry.kind == "edit":
            self._edit(entry.patch or [], entry.reason or "")

    def _apply_submit(self, entry: Entry) -> None:
        assert entry.player is not None and entry.text is not None
        orders = self.check(entry.player, entry.text)
        self.pending[entry.player] = Submission(entry.player, entry.text, orders, entry.source)

    def _resolve(self, force: bool) -> Step:
        awaited = self.awaiting()
        submissions: dict[str, Submission] = {}
        defaulted: list[str] = []
        for player in awaited:
            if player in self.pending:
                submissions[player] = self.pending[player]
            elif force:
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
        events.extend(resolution.events)
        # A state must stay plain data: fail loudly here, not at save time.
        canonical_json(resolution.state)
        step = Step(number, turn, phase, dice.seed.hex(), submissions, defaulted, events, dice.records(), before)
        self.steps.append(step)
        self.state = resolution.state
        self.pending = {}
        return step

    def _rollback(self) -> Step:
        step = self.steps.pop()
        self.state = step.state_before
        self.pending = {p: s for p, s in step.submissions.items() if s.source != "default"}
        self.gm_log.append(Event("rollback", {"step": step.number, "turn": step.turn}, ()))
        return step

    def _edit(self, patch: list[dict[str, Any]], reason: str) -> None:
        try:
            new_state = jsonpatch.apply_patch(self.state, patch, in_place=False)
            canonical_json(new_state)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, ValueError) as exc:
            raise GameError(f"правка не применяется: {exc}", f"the edit does not apply: {exc}") from exc
        self.state = new_state
        self.gm_log.append(Event("gm_edit", {"patch": patch, "reason": reason, "step": self.step_number}, ()))

    # -- export ------------------------------------------------------------------------

    def export(self, public: bool = False) -> dict[str, Any]:
        """The journal plus what replay derives from it, for ``verify`` and ``replay --check``.

        The public export leaves out the secret, the posts, the secret parts of the config
        (``Ruleset.public_config``) and every hidden event or sealed roll: it carries what any
        player may check, the seeds and public rolls.
        """
        game = self.record.model_dump(mode="json")
        if public:
            game = {k: v for k, v in game.items() if k not in ("secret", "entries")}
            game["config"] = self.ruleset.public_config()
        steps = []
        for s in self.steps:
            events = [e.to_json() for e in s.events if not public or e.visible_to(PUBLIC)]
            dice = [d for d in s.dice if not public or not d.get("sealed")]
            steps.append({"number": s.number, "turn": s.turn, "phase": s.phase, "seed": s.seed,
                          "defaulted": s.defaulted, "events": events, "dice": dice})
        return {
            "game": game,
            "engine_version": __version__,
            "public": public,
            "steps": steps,
            "state": self.view(PUBLIC) if public else self.state,
        }
