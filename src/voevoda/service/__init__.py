"""The service: every operation a person performs on a game, checked against its actor.

This is the only door to the games. The command line, the web pages, the JSON API, the
deadline worker and the chat front-ends each turn their input into one call here, with the
actor who asks (:mod:`voevoda.service.actors`), and render what comes back. Who may do what is
decided once, in :mod:`voevoda.service.access`; a front-end never checks a permission, never
reads a view for a viewer it chose itself (it gets a :class:`~voevoda.service.sight.Sight`),
and never writes SQL.

Every change is one transaction of the store holding the game's lock (:meth:`Store.change`):
the game master's actions name the step they act on and are refused with «already done» when
another action got there first; writers wait in line for the lock, and a post that still
cannot be stored says «not stored, send it again».

A service keeps the games it has read (:class:`GameCache`): a later read asks the database
only whether entries were stored since, and applies just those (the journal is append-only),
so a page of a long game does not replay its whole journal.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from voevoda.core import outputs
from voevoda.core.errors import DataError, GameError, OrdersRejected
from voevoda.core.outputs import Dashboard
from voevoda.core.ruleset import GM, PUBLIC, Viewer
from voevoda.notify import record_changes
from voevoda.service.access import Access, Op
from voevoda.service.actors import (
    ANONYMOUS,
    CLOCK,
    OPERATOR,
    Actor,
    Anonymous,
    Clock,
    Operator,
    Person,
    SeatToken,
)
from voevoda.service.clock import Clockwork
from voevoda.service.errors import Conflict, Forbidden, NotFound, RateLimited
from voevoda.service.forum import ForumThreads
from voevoda.service.notify import Notifications
from voevoda.service.people import SessionMemory
from voevoda.service.sight import Sight

if TYPE_CHECKING:
    from voevoda.core.engine import Game, Receipt, RollbackReport, Step
    from voevoda.core.journal import GameRecord
    from voevoda.store.db import Announcer, Store


def utc_now() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A journal entry's ``at``: UTC, to the millisecond (a command that names no step is held to
    the moment it started by it, :func:`_check_unmoved`)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _moved_since(game: Game, started: datetime) -> bool:
    """Whether a resolution or a rollback was stored after ``started``."""
    try:
        _check_unmoved(game, started)
    except Conflict:
        return True
    return False


def _check_unmoved(game: Game, started: datetime | None) -> None:
    """A game master's action that named no step means the step as it stood when the action was
    asked for (``started``): refuse it when a resolution or a rollback has been stored since, so
    that of two commands started at once the second never acts on the step after («already
    done»)."""
    if started is None:
        return
    for entry in reversed(game.record.entries):
        if entry.kind not in ("resolve", "rollback"):
            continue
        if entry.at is None:
            return
        try:
            moment = datetime.fromisoformat(entry.at)
        except ValueError:
            return
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        if moment > started:
            if entry.kind == "resolve":
                number = entry.step or game.step_number
                ru, en = f"шаг {number} уже рассчитан", f"step {number} is already resolved"
            else:
                number = game.step_number + 1
                ru, en = f"шаг {number} уже откатан", f"step {number} has already been rolled back"
            raise Conflict(
                f"{ru}: другая команда успела раньше (в {moment:%H:%M:%S} UTC), пока эта запускалась; ничего не "
                f"сделано — посмотрите игру и повторите, если нужно (или укажите --step)",
                f"{en}: another command got there first (at {moment:%H:%M:%S} UTC) while this one was starting; "
                f"nothing was done — look at the game and run it again if you mean it (or give --step)")
        return


MEMO_SIZE = 512
"""The most outputs kept rendered for one version of one game."""
KEPT_OVER_POSTS = frozenset({"report", "rendered-over-posts"})
"""The outputs a post cannot change (a :class:`Sight` keys them ``(viewer, kind, …)``): a turn's
report, as every viewer reads it, is written when the turn is resolved; what a front-end rendered
of the reports and the turn's facts alone (:meth:`Sight.rendered` with ``over_posts``). The
dashboard, the status, the outline and the map may show posts (who has posted, a deployment
drawn) and are rendered again."""


def _only_posts_since(before: Game, after: Game) -> bool:
    """Whether ``after`` is ``before`` with only posts added to its journal (the journal is
    append-only, so one game of the same stored row with more entries, all of them posts)."""
    if before.store_key is None or before.store_key != after.store_key:
        return False
    old, new = before.record.entries, after.record.entries
    return len(new) >= len(old) and all(entry.kind == "submit" for entry in new[len(old):])


class GameCache:
    """The games a service has read, most recent last, up to ``size`` of them. A cached game is
    never changed: a change works on a fork (:meth:`Game.fork`) and the fork replaces it once
    committed. Safe to share between the threads of one process."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._memos: dict[str, tuple[Game, dict[Any, Any]]] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> Game | None:
        with self._lock:
            game = self._games.get(name)
            if game is not None:
                self._games.move_to_end(name)
            return game

    def put(self, name: str, game: Game) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._games[name] = game
            self._games.move_to_end(name)
            while len(self._games) > self.size:
                gone, _ = self._games.popitem(last=False)
                self._memos.pop(gone, None)

    def drop(self, name: str) -> None:
        with self._lock:
            self._games.pop(name, None)
            self._memos.pop(name, None)

    def memo(self, name: str, game: Game) -> dict[Any, Any]:
        """The outputs already rendered from ``game`` (the cached version of ``name``): a game
        never changes once cached, so what a viewer saw of it stays true until a new version
        replaces it (and its memo with it). A new version that only adds posts keeps the reports
        of the turns resolved (:data:`KEPT_OVER_POSTS`): near a deadline the posts come every
        second, and a report does not change with them. At most :data:`MEMO_SIZE` outputs a game."""
        with self._lock:
            held = self._memos.get(name)
            if held is None or held[0] is not game:
                kept = {key: value for key, value in held[1].items() if key[1] in KEPT_OVER_POSTS} \
                    if held is not None and _only_posts_since(held[0], game) else {}
                held = (game, kept)
                self._memos[name] = held
            if len(held[1]) > MEMO_SIZE:
                held[1].clear()
            return held[1]


@dataclass(frozen=True)
class GameListing:
    """A row of «my games»."""

    name: str
    ruleset: str
    steps_resolved: int
    roles: tuple[str, ...]
    """``owner``, ``co_gm`` and the seats held, as ``seat:<player>``."""
    public: bool


class _Told:
    """A result whose text for the person is rendered only when asked for, after the change is
    committed: whatever goes wrong while rendering can no longer turn a stored change into a
    refusal (the command line says «stored, but the output failed»)."""

    def __init__(self, render: Callable[[], str]) -> None:
        self._render = render

    @property
    def text(self) -> str:
        return self._render()


class PostOutcome(_Told):
    """A post checked or stored: what its author reads (:attr:`echo`, the command line's text)
    and the receipt it came from, for front-ends that lay it out themselves."""

    def __init__(self, game: str, player: str, step: int, stored: bool, receipt: Receipt,
                 render: Callable[[], str], data: Callable[[], outputs.Echo]) -> None:
        super().__init__(render)
        self.game, self.player, self.step, self.stored, self.receipt = game, player, step, stored, receipt
        self._data = data

    def echo_data(self) -> outputs.Echo:
        """The echo as data (:func:`voevoda.core.outputs.echo_data`), from the game the post was
        checked or stored in: no further read."""
        return self._data()

    @property
    def echo(self) -> str:
        return self.text


class Resolution(_Told):
    """A resolved step; :attr:`text` is what ``voevoda resolve`` prints for the game master."""

    def __init__(self, step: Step, render: Callable[[], str]) -> None:
        super().__init__(render)
        self.step = step


class Undone(_Told):
    """A rollback: exactly what it undid; :attr:`text` as ``voevoda rollback`` prints it."""

    def __init__(self, report: RollbackReport, render: Callable[[], str]) -> None:
        super().__init__(render)
        self.report = report


@dataclass
class EditPreview:
    """A JSON Patch tried on a copy: the places it changes and the game master's outline
    after it; nothing stored."""

    changes: list[dict[str, Any]]
    outline: str
    state_hash: str
    """The hash of the state the patch was tried on: an edit may name it, and is refused when
    the state has changed since (another edit, a post resolved)."""


@dataclass
class Throttle:
    """A sliding-window rate limit per key (a session, an address, a chat): at most ``limit``
    hits in ``window`` seconds. In memory, per process: several server processes each keep
    their own count (docs/web.md says so)."""

    limit: int
    window: float
    _hits: dict[str, list[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def hit(self, key: str, now: float) -> None:
        with self._lock:
            recent = [t for t in self._hits.get(key, []) if now - t < self.window]
            if len(recent) >= self.limit:
                self._hits[key] = recent
                raise RateLimited(self.window - (now - recent[0]))
            recent.append(now)
            self._hits[key] = recent
            if len(self._hits) > 10_000:  # forget the quiet keys
                for stale in [k for k, v in self._hits.items() if not v or now - v[-1] >= self.window]:
                    del self._hits[stale]


THROTTLES = {"post": (30, 60.0), "check": (240, 60.0), "login": (10, 300.0), "join": (20, 300.0),
             "odds": (10, 60.0), "create": (20, 600.0), "chat": (30, 60.0)}
"""Default limits per session (or token or chat): what, how many, per how many seconds (``chat``:
the messages one chat may send the bot, whatever they are). An
address gets :data:`PER_ADDRESS` times as many (several players behind one router), but sign-ins
no more than a session (a password is guessed from one address)."""
PER_ADDRESS = 10
STRICT_PER_ADDRESS = frozenset({"login"})


DEFAULT_CACHE_SIZE = 32
"""Games a service keeps loaded (a deadline worker's keeps more: ``voevoda.clock.worker.CACHE_SIZE``)."""


class Service(Clockwork, ForumThreads, Notifications):
    """Every operation on the games of one database (``url``: a SQLite path or a PostgreSQL
    URL, as ``--db`` takes it). ``clock`` gives the time (tests freeze it)."""

    def __init__(self, url: str | None = None, *, store: Store | None = None,
                 clock: Callable[[], datetime] = utc_now, cache_size: int = DEFAULT_CACHE_SIZE,
                 throttles: Mapping[str, tuple[int, float]] | None = None, rate_limits: bool = True) -> None:
        self.url = url
        self._store = store
        self.clock = clock
        self.cache = GameCache(cache_size)
        self.sessions_seen = SessionMemory()
        limits = {**THROTTLES, **(throttles or {})}
        self.rate_limits = rate_limits
        self.throttles = {k: Throttle(n, w) for k, (n, w) in limits.items()}
        self._lines: dict[str, threading.RLock] = {}
        self._lines_lock = threading.Lock()
        self.address_throttles = {k: Throttle(n if k in STRICT_PER_ADDRESS else n * PER_ADDRESS, w)
                                  for k, (n, w) in limits.items()}

    @property
    def store(self) -> Store:
        if self._store is None:
            from voevoda.store.db import Store

            self._store = Store(self.url)
        return self._store

    def throttle(self, what: str, *keys: str) -> None:
        """Count one ``what`` for each key (a session id, an address); refuse it, counting
        nothing more, when any key is over its limit."""
        import time

        if not self.rate_limits:
            return
        now = time.monotonic()
        for key in keys:
            if key:
                limiter = self.address_throttles[what] if key.startswith("address:") else self.throttles[what]
                limiter.hit(key, now)

    # -- reading --------------------------------------------------------------------------------

    def _game(self, name: str, version: tuple[int, str, int] | None = None) -> Game:
        """The game ``name`` from the cache, brought up to date; with ``version`` (just read), the
        cached game itself when it is that version, with no further read."""
        base = self.cache.get(name)
        if base is not None and version is not None:
            game = self.store.load_version(name, base, version)
        else:
            game = self.store.load(name, base=base)
        if game is not base:
            self.cache.put(name, game)
        return game

    def rulesets(self) -> list[tuple[str, str, str, int, int]]:
        """``(id, Russian title, English title, fewest players, most players)`` of every game
        installed."""
        from voevoda.core import registry

        return [(rid, cls.title_ru, cls.title_en, cls.min_players, cls.max_players)
                for rid, cls in registry.available().items()]

    def games(self, actor: Actor) -> list[GameListing]:
        """The games ``actor`` may see: all of them for the command line; a person's own games
        (owned, co-run, seats held) and the public ones; the public ones for anybody else."""
        from sqlalchemy import select

        from voevoda.store.models import GameRow, GameSettingsRow, MemberRow

        with self.store.reads() as session:
            rows = session.execute(select(GameRow.id, GameRow.name, GameRow.ruleset, GameRow.step,
                                          GameSettingsRow.is_public).outerjoin(
                GameSettingsRow, GameSettingsRow.game_id == GameRow.id).order_by(GameRow.name)).all()
            roles: dict[int, list[str]] = {}
            if isinstance(actor, Person):
                for game_id, role, player in session.execute(select(
                        MemberRow.game_id, MemberRow.role, MemberRow.player).where(
                        MemberRow.account_id == actor.account_id)).all():
                    roles.setdefault(game_id, []).append(f"seat:{player}" if role == "player" else role)
            elif isinstance(actor, SeatToken):
                roles[actor.game_id] = [f"seat:{actor.player}"]
        listed = []
        for game_id, name, ruleset, step, public in rows:
            mine = tuple(roles.get(game_id, ()))
            if isinstance(actor, Operator) or mine or public:
                listed.append(GameListing(name, ruleset, step, mine, bool(public)))
        return listed

    def sight(self, actor: Actor, name: str, viewer: Viewer | str | None = None, *, light: bool = False) -> Sight:
        """The game ``name`` through ``viewer``'s eyes (default: the actor's own), refused when
        the actor may not look through them. ``viewer`` may be a player's name in any letter
        case. ``light`` (the command line's ``status`` and ``show``) reads the stored state of a
        SQLite game without replaying its journal when that is certainly the same."""
        game: Game | Any
        memo: dict[Any, Any] | None = None
        if light and isinstance(actor, Operator):
            from voevoda.store.quick import load_standing

            context = self.context(actor, name)
            standing = load_standing(self.url, name)
            game = standing if standing is not None else self._light_game(name)
        else:
            context = self.context(actor, name)
            context.access.require(Op.READ)
            game = self._game(name, context.version)
            memo = self.cache.memo(name, game)
        access = context.access
        access.require(Op.READ)
        chosen = access.default_viewer(list(game.record.players)) if viewer is None \
            else game.find_player(viewer, viewers=True)
        access.require_viewer(chosen)
        return Sight(game, chosen, access, public=context.public, timezone=context.timezone, memo=memo,
                     game_id=context.version[0] if context.version is not None else None)

    def _light_game(self, name: str) -> Game:
        """A game for a command that only reads it: from a SQLite file straight (no SQLAlchemy)
        when it can be, else through the store."""
        from voevoda.core.engine import Game
        from voevoda.store.quick import load_record

        record = load_record(self.url, name)
        return Game(record) if record is not None else self._game(name)

    def dashboard(self, actor: Actor, name: str, viewer: Viewer | str | None = None) -> Dashboard:
        return self.sight(actor, name, viewer).dashboard()

    # -- posts ------------------------------------------------------------------------------------

    def check_post(self, actor: Actor, name: str, player: str, text: str, *, light: bool = False,
                   step: int | None = None) -> PostOutcome:
        """Read and check a post for ``player``'s seat without storing it: the echo, or the
        post's every problem (raised as :class:`OrdersRejected`); ``step``, when given, must be
        the open step."""
        game, seat = self._poster(actor, name, player, light=light)
        if step is not None:
            game.check_step_for_post(step)
        receipt = game.check_post(seat, text)
        step = game.step_number + 1
        return PostOutcome(name, seat, step, False, receipt,
                           lambda: outputs.order_echo(game, seat, receipt, True, step=step),
                           lambda: outputs.echo_data(game, seat, receipt, True, step))

    def _poster(self, actor: Actor, name: str, player: str, *, light: bool = False) -> tuple[Game, str]:
        """The game as the access read just saw it, and ``player``'s seat, which ``actor`` must
        be allowed to post for."""
        if light and isinstance(actor, Operator):
            access, game = self.access(actor, name), self._light_game(name)
        else:
            context = self.context(actor, name)
            access, game = context.access, self._game(name, context.version)
        seat = game.find_player(player)
        access.require(Op.POST, seat)
        return game, seat

    def echo(self, actor: Actor, name: str, player: str, text: str, *, store: bool,
             step: int | None = None) -> outputs.Echo:
        """A post checked (``store=False``) or stored, as its author's echo: the orders
        understood, or every problem the post has (a refusal of the post itself — its orders, a
        step resolved meanwhile — is told in the echo). A refusal that is not the post's (no such
        game or seat, no right to post for it, a rate limit) is raised."""
        if store:
            try:
                return self.post(actor, name, player, text, step=step).echo_data()
            except (OrdersRejected, GameError) as refused:
                if _not_the_posts(refused):
                    raise
                return self.echo_of(actor, name, player, refused, check=False, step=step)
        game, seat = self._poster(actor, name, player)
        try:
            if step is not None:
                game.check_step_for_post(step)
            receipt = game.check_post(seat, text)
        except (OrdersRejected, GameError) as refused:
            if _not_the_posts(refused):
                raise
            return outputs.echo_data(game, seat, refused, True, step)
        return outputs.echo_data(game, seat, receipt, True, game.step_number + 1)

    def post(self, actor: Actor, name: str, player: str, text: str, *, step: int | None = None,
             started: datetime | None = None) -> PostOutcome:
        """Store a post for ``player``'s seat for step ``step`` (default: the step open when it
        is read). A post for a step resolved meanwhile is refused, nothing stored: it must be
        sent again for the new step. ``started``, the moment the post was sent, refuses it too
        when a resolution or rollback was stored since (the step it named was read too late)."""
        access = self.access(actor, name)
        at = stamp(self.clock())
        with self._change(name, then=self.posted_within_schedule) as game:
            seat = game.find_player(player)
            access.require(Op.POST, seat)
            if started is not None and _moved_since(game, started):
                game.check_step_for_post(game.step_number)  # «step N is resolved: send it again»
            meant = step if step is not None else game.step_number + 1
            receipt = game.post(seat, text, at=at, step=meant)
        return PostOutcome(name, seat, meant, True, receipt,
                           lambda: outputs.order_echo(game, seat, receipt, False, step=meant),
                           lambda: outputs.echo_data(game, seat, receipt, False, meant))

    def standing_post(self, actor: Actor, name: str, player: str) -> outputs.StandingPost | None:
        """``player``'s post standing in the open step: for that seat's holder and the game
        masters only."""
        access = self.access(actor, name)
        game = self._game(name)
        seat = game.find_player(player)
        access.require_viewer(seat)
        return outputs.standing_post(game, GM if access.is_gm else seat, seat)

    def echo_of(self, actor: Actor, name: str, player: str, outcome: Receipt | OrdersRejected | GameError,
                *, check: bool, step: int | None = None) -> outputs.Echo:
        """The echo of a post as data (:func:`voevoda.core.outputs.echo_data`), for its author."""
        access = self.access(actor, name)
        game = self._game(name)
        seat = game.find_player(player)
        access.require(Op.POST, seat)
        return outputs.echo_data(game, seat, outcome, check, step)

    def frozen_seats(self, actor: Actor, name: str) -> dict[str, int]:
        """The seats whose post stands frozen after a rollback, and the step of each (the game
        master reopens them)."""
        self.access(actor, name).require(Op.REOPEN)
        return dict(self._game(name).frozen)

    # -- the game master's actions --------------------------------------------------------------

    def create_game(self, actor: Actor, ruleset: str, name: str, players: Sequence[str], *,
                    bots: Sequence[str] = (), config: Mapping[str, Any] | None = None,
                    house_rules: Mapping[str, Any] | None = None, seed: str | None = None,
                    auto_resolve: bool = False, public: bool = False, timezone: str = "UTC") -> Game:
        """A new game, owned by its creator: the command line, or an account allowed to create
        games (the installation's game master, ``voevoda serve --init-gm``)."""
        _require_creator(actor)
        from voevoda.core.engine import Game

        if timezone != "UTC":
            from voevoda.service.people import check_timezone

            check_timezone(timezone)
        created = Game.create(ruleset, name, list(players), bots=list(bots), config=dict(config or {}),
                              house_rules=dict(house_rules or {}), seed=seed, auto_resolve=auto_resolve)
        self._store_new(actor, created, public=public, timezone=timezone)
        return created

    def _store_new(self, actor: Actor, game: Game, *, public: bool = False, timezone: str = "UTC") -> None:
        self.store.create(game)
        if isinstance(actor, Person) or public or timezone != "UTC":
            from voevoda.store.models import GameSettingsRow

            with self.store.sessions.begin() as session:
                game_id = self._game_id(session, game.record.name)
                self.add_owner(session, game_id, actor)
                session.add(GameSettingsRow(game_id=game_id, is_public=public, timezone=timezone))

    def resolve(self, actor: Actor, name: str, *, step: int | None, force: bool = False,
                started: datetime | None = None, then: Announcer | None = None) -> Resolution:
        """Resolve step ``step`` (refused as «already resolved» when another resolution got
        there first); ``force`` gives the seats still silent their default orders. ``started``
        (the moment the action was asked for, when the person named no step) refuses it too
        when a resolution or rollback was stored since; with neither, the step open inside the
        game's lock. ``then`` writes more into the resolution's transaction (the worker's
        schedule of the next step), called like the store's announcer."""
        self.access(actor, name).require(Op.RESOLVE)
        at = stamp(self.clock())
        with self._change(name, then=then) as game:
            _check_unmoved(game, started)
            first = len(game.record.entries)
            resolved = game.resolve(force=force, at=at, step=step)
            self._stamp_stored(game, first)
        return Resolution(resolved, lambda: outputs.resolution_text(game, resolved))

    def rollback(self, actor: Actor, name: str, *, step: int | None, reason: str,
                 started: datetime | None = None) -> Undone:
        """Undo step ``step``, the last resolved; a second rollback of the same step is refused
        («already rolled back»). ``started`` as for :meth:`resolve`."""
        self.access(actor, name).require(Op.ROLLBACK)
        at = stamp(self.clock())
        with self._change(name) as game:
            _check_unmoved(game, started)
            first = len(game.record.entries)
            undone = game.rollback(reason, at=at, step=step)
            self._stamp_stored(game, first)
        return Undone(undone, lambda: outputs.rollback_text(game, undone))

    def reopen(self, actor: Actor, name: str, *, step: int, player: str, reason: str) -> _Told:
        """Let a player change a post frozen by a rollback; ``step`` is the open step."""
        self.access(actor, name).require(Op.REOPEN)
        at = stamp(self.clock())
        with self._change(name) as game:
            seat = game.find_player(player)
            frozen_step = game.reopen(seat, reason, at=at, step=step)
        return _Told(lambda: outputs.reopen_text(game, seat, frozen_step))

    def preview_edit(self, actor: Actor, name: str, patch: list[dict[str, Any]]) -> EditPreview:
        """Try a JSON Patch on a copy of the game: what it changes, or why it cannot be made."""
        self.access(actor, name).require(Op.EDIT)
        import jsonpatch

        from voevoda.core.journal import state_hash

        game = self._game(name)
        trial = game.fork()
        trial.edit(_patch(patch), "preview")
        changes = jsonpatch.make_patch(game.state, trial.state).patch
        return EditPreview(list(changes), outputs.show_text(trial, GM), state_hash(game.state))

    def edit(self, actor: Actor, name: str, *, step: int | None,
             patch: list[dict[str, Any]] | Callable[[Game], list[dict[str, Any]]], reason: str,
             base_hash: str | None = None) -> list[dict[str, Any]]:
        """Edit the state by a JSON Patch with a public reason, and give the patch applied.
        ``patch`` may be a function that writes the patch from the game inside the lock (a
        game's own correction commands: New Worlds' ``nw gm``). ``base_hash`` (from a preview)
        refuses the edit when the state has changed since the patch was written."""
        self.access(actor, name).require(Op.EDIT)
        from voevoda.core.journal import state_hash

        at = stamp(self.clock())
        with self._change(name) as game:
            if base_hash is not None and state_hash(game.state) != base_hash:
                raise Conflict("состояние игры изменилось после предпросмотра: ничего не изменено; посмотрите снова",
                               "the game's state changed after the preview: nothing changed; look again")
            operations = _patch(patch(game) if callable(patch) else patch)
            game.edit(operations, reason, at=at, step=step)
        return operations

    def draft_patch(self, actor: Actor, name: str, write: Callable[[Game], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """The patch ``write`` makes from the game as it stands, for the game master to read
        before making the edit (``nw gm --dry-run``); nothing stored."""
        self.access(actor, name).require(Op.EDIT)
        return _patch(write(self._game(name)))

    def add_game(self, actor: Actor, game: Game) -> None:
        """Store a game made elsewhere (``voevoda demo`` plays its games before storing them),
        owned by ``actor``."""
        _require_creator(actor)
        self._store_new(actor, game)

    def reveal(self, actor: Actor, name: str, *, step: int | None = None) -> str:
        """Publish the secret of a finished game; gives the secret."""
        self.access(actor, name).require(Op.REVEAL)
        at = stamp(self.clock())
        with self._change(name) as game:
            secret: str = game.reveal(at=at, step=step)
        return secret

    def export(self, actor: Actor, name: str, *, full: bool = False) -> dict[str, Any]:
        """The public record, or with ``full`` the game master's backup (secret and every post)."""
        access = self.access(actor, name)
        access.require(Op.EXPORT_FULL if full else Op.READ)
        return outputs.export_data(self._game(name), GM if full else PUBLIC)

    def import_game(self, actor: Actor, data: Any, *, source: str = "export", name: str | None = None) -> Game:
        """Store a game from a full export (``voevoda export --full``), after replaying its
        journal and comparing every step with the export; ``source`` names the file in errors."""
        _require_creator(actor)
        from voevoda.core.engine import Game
        from voevoda.core.verify import replay_problems

        record = record_from_export(data, source)
        problems = replay_problems(data)
        if problems:
            raise DataError(f"{source}: " + "; ".join(problems[:5]))
        if name:
            record.name = name
        game = Game(record)
        self._store_new(actor, game)
        return game

    def delete(self, actor: Actor, name: str, *, confirm: str) -> None:
        """Delete a game and its journal for good; ``confirm`` must be the game's name."""
        self.access(actor, name).require(Op.DELETE)
        if confirm.strip() != name:
            raise GameError("имя не совпало: ничего не удалено", "the name did not match: nothing deleted")
        self.store.delete(name)
        self.cache.drop(name)

    def odds(self, actor: Actor, battle_text: str, *, n: int = 10_000, seed: str | None = None,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """A Steel Rose battle's odds (a battle file's text, as for ``voevoda odds``): ``n``
        battles on the batched simulator; ``progress(done)`` is told as battles finish (the first
        call comes once the simulator has compiled). Anybody may ask: it reads no game. A bad
        file is refused naming the field or the line of the post."""
        from pathlib import Path

        from voevoda.rulesets.steel_rose.battle.sides import battle_from_text, build_sides
        from voevoda.rulesets.steel_rose.rules import load_rules

        if not 1 <= n <= 100_000:
            raise GameError("число битв: от 1 до 100 000", "number of battles: 1 to 100,000")
        battle = battle_from_text(battle_text, Path("battle.toml"))
        rules = load_rules()
        _, problems = build_sides(battle.specs, rules)
        found = []
        for i, side_problems in enumerate(problems):
            role_ru, role_en = ("атакующий", "attacker") if i == 0 else ("защитник", "defender")
            for problem in side_problems:
                key = "deployment" if problem.rule == "Расстановка" else "plan"
                at = battle.line_of(i, key, problem.line)
                where = f"строка {at}: " if at else ""
                where_en = f"line {at}: " if at else ""
                found.append((f"{where}{role_ru} ({battle.specs[i].name}): {problem.format('ru')}",
                              f"{where_en}{role_en} ({battle.specs[i].name}): {problem.format('en')}"))
        if found:
            raise GameError("; ".join(ru for ru, _ in found), "; ".join(en for _, en in found))
        from voevoda.sim import odds as batched_odds

        seed_text = seed if seed is not None else battle.seed if battle.seed is not None else "odds"
        result: dict[str, Any] = batched_odds(battle, n, seed_text, rules=rules, progress=progress).to_json()
        result["unit_names"] = {uid: [unit.name_ru, unit.name_en] for uid, unit in rules.units.items()}
        return result

    def game_exists(self, actor: Actor, name: str) -> None:
        """Refuse a game that is not there (or that the actor may not know of)."""
        self.access(actor, name).require(Op.READ)

    def current_step(self, name: str) -> int:
        """Steps resolved, as last committed (the command line names its step by it)."""
        return self.store.current_step(name)

    # -- internals -------------------------------------------------------------------------------

    def _stamp_stored(self, game: Game, first: int) -> None:
        """A resolution's or a rollback's ``at`` is when it was done, just before it is committed
        (a resolution may take long): :func:`_check_unmoved` compares a command's start with it.
        ``at`` is informational: replay ignores it."""
        done = stamp(self.clock())
        for entry in game.record.entries[first:]:
            if entry.kind in ("resolve", "rollback"):
                entry.at = done

    def _change(self, name: str, *, then: Announcer | None = None):  # type: ignore[no-untyped-def]
        return _Change(self, name, then)

    def _write_line(self, name: str) -> threading.RLock:
        """The process's queue for writing the game ``name`` (see :class:`_Change`)."""
        key = "*" if self.store.is_sqlite else name
        with self._lines_lock:
            line = self._lines.get(key)
            if line is None:
                line = self._lines[key] = threading.RLock()
            return line

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write of this service that is not a game's change — the deadline worker's schedule
        rows, the outbox's deliveries — in the process's line of writers on SQLite (the one
        database lock: the write then waits its turn behind a post without polling SQLite's lock,
        and a post behind it the same way); on PostgreSQL, whose row locks queue by themselves,
        as it is."""
        if not self.store.is_sqlite:
            yield
            return
        with self._write_line("*"):
            yield


class _Change:
    """``with service._change(name) as game:`` — the store's locked change on the cached game,
    the cache updated on commit and dropped on failure.

    The writers of one process first queue on a lock of the process (one for the whole database
    on SQLite, which has one writer anyway; one per game on PostgreSQL): a writer then waits in
    line without polling the database, and takes the game's lock in the database the moment the
    one before lets it go (writers of other processes still queue there)."""

    def __init__(self, service: Service, name: str, then: Announcer | None = None) -> None:
        self.service = service
        self.name = name
        self.then = then

    def _announce(self, session: Any, game_id: int, game: Game, first: int) -> None:
        record_changes(session, game_id, game, first)
        if self.then is not None:
            self.then(session, game_id, game, first)

    def __enter__(self) -> Game:
        self._line = self.service._write_line(self.name)
        self._line.acquire()
        try:
            self._context = self.service.store.change(self.name, base=self.service.cache.get(self.name),
                                                     announce=self._announce)
            self.game: Game = self._context.__enter__()
        except BaseException:
            self._line.release()
            raise
        return self.game

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> bool:
        try:
            try:
                handled = bool(self._context.__exit__(kind, value, traceback))
            except BaseException:
                self.service.cache.drop(self.name)
                raise
            if kind is None:
                self.service.cache.put(self.name, self.game)
            return handled
        finally:
            self._line.release()


def _not_the_posts(refused: Exception) -> bool:
    """A refusal of the request rather than of the post: no such game or seat, no right, a limit."""
    return isinstance(refused, (NotFound, Forbidden, RateLimited))


def _require_creator(actor: Actor) -> None:
    if isinstance(actor, Operator):
        return
    if isinstance(actor, Person) and actor.can_create_games:
        return
    raise Forbidden("создавать игры может только ведущий этой установки",
                    "only this installation's game master can create games")


def _patch(patch: Any) -> list[dict[str, Any]]:
    if not isinstance(patch, list) or not all(isinstance(op, dict) for op in patch):
        raise DataError("a JSON Patch is a list of operations")
    return patch


def record_from_export(data: Any, source: str) -> GameRecord:
    """A full export's journal as a validated record; a clear error naming ``source`` otherwise."""
    from voevoda.core.journal import GameRecord
    from voevoda.core.rulesdata import validate
    from voevoda.core.verify import shape_problems

    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise DataError(f"{source}: not a voevoda export (no 'game' field)")
    if "secret" not in data["game"] or "entries" not in data["game"]:
        raise DataError(f"{source}: a public export has no journal; only `voevoda verify` reads it "
                        f"(`voevoda export --full` writes the game master's backup)")
    shape = shape_problems(data)
    if shape:
        raise DataError(f"{source}: " + "; ".join(shape))
    return validate(GameRecord, data["game"], f"{source}: game")


__all__ = ["ANONYMOUS", "CLOCK", "DEFAULT_CACHE_SIZE", "OPERATOR", "Access", "Actor", "Anonymous", "Clock", "Conflict", "Dashboard",
           "EditPreview", "Forbidden", "GameCache", "GameListing", "NotFound", "Op", "Operator", "OrdersRejected",
           "Person", "PostOutcome", "RateLimited", "Resolution", "SeatToken", "Service", "Sight", "Undone",
           "record_from_export", "stamp", "utc_now", "PUBLIC"]
