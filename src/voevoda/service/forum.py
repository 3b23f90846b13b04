"""The forum thread in one paste (issue 26; docs/forum.md): the game master gives a saved thread
page (or its RSS/Atom feed); the service reads it into a dry run — for each seat its latest post
of the open step and the echo it would get — and stores the posts the game master confirms, each
through :meth:`Service.post` as if the player had posted it.

Forum names are tied to seats once per game (:meth:`ForumThreads.set_forum_names`, the table
``forum_names``). A forum name that is a seat's name (in any letter case) is that seat; any other
name is listed as unknown, never guessed, until the game master ties it to a seat or marks it as
not a seat's («-»: the game master's own posts, a spectator's).

Which post counts, for each seat:

- only posts of the open step count: those whose time is after the resolution that opened it
  (the first step: every post, unless the game master names ``since``);
- with a deadline, only posts up to it; a post edited after the deadline is late by its edit's
  time where the page shows one (the text on the page is the edited one, which came too late);
- of those, the latest; when it opens as a follow-up («Забыла:», «P.S.», docs/posts.md
  «Follow-ups»), the posts it adds to come with it, back to the last one that is not a follow-up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from voevoda.core.errors import GameError, OrdersRejected
from voevoda.service.access import Op
from voevoda.service.actors import Actor

if TYPE_CHECKING:
    from voevoda.core.engine import Game
    from voevoda.forum import ForumPost
    from voevoda.service import PostOutcome, Service

IGNORED = "-"
"""The seat a name is tied to when its posts are nobody's orders (the game master's own)."""

MAX_NAME = 200


@dataclass(frozen=True)
class ForumName:
    """A forum name tied to a seat (``player``), or known not to be one (``player`` is ``None``)."""

    name: str
    player: str | None


@dataclass
class SeatReading:
    """One seat in a dry run."""

    player: str
    awaited: bool
    names: list[str] = field(default_factory=list)
    """The forum names whose posts are this seat's."""
    posts: list[ForumPost] = field(default_factory=list)
    """The posts taken, oldest first: the latest of the step and the posts it adds to."""
    echoes: list[str] = field(default_factory=list)
    """For each post taken, the echo of its check, or why it is refused."""
    accepted: list[bool] = field(default_factory=list)
    replaced: list[ForumPost] = field(default_factory=list)
    """Earlier posts of the step that the latest replaces."""
    late: list[ForumPost] = field(default_factory=list)
    """Posts after the deadline (by their edit's time where the page shows one)."""

    @property
    def posted(self) -> bool:
        return bool(self.posts)


@dataclass
class ThreadReading:
    """A thread page read for a game, nothing stored: what :meth:`ForumThreads.store_thread`
    would store, and everything the game master should know about the rest."""

    game: str
    step: int
    engine: str
    title: str
    timezone: str
    opened_at: datetime | None
    deadline: datetime | None
    seats: list[SeatReading]
    unknown: dict[str, list[ForumPost]]
    """Posts of the step by names tied to no seat, by name."""
    ignored: list[ForumPost]
    """Posts by names marked «-» (the game master's own)."""
    older: list[ForumPost]
    """Posts from before the step opened."""
    problems: list[tuple[str, str]]
    """Posts the reader could not read (Russian, English)."""
    posts_read: int

    def to_store(self) -> list[tuple[str, str]]:
        """``(seat, text)`` of every post whose check passed, in the order to store them."""
        return [(seat.player, post.text) for seat in self.seats
                for post, accepted in zip(seat.posts, seat.accepted, strict=True) if accepted]

    @property
    def silent(self) -> list[str]:
        return [seat.player for seat in self.seats if seat.awaited and not seat.posted]

    def text(self) -> str:
        """The dry run as the command line prints it."""
        zone = _zone(self.timezone)

        def when(moment: datetime | None) -> str:
            return moment.astimezone(zone).strftime("%d.%m.%Y %H:%M") if moment else "—"

        def post_line(post: ForumPost) -> str:
            edited = f", правка / edited {when(post.edited_at)}" if post.edited_at else ""
            return f"{post.author} — {when(post.posted_at)}{edited}" + (f" ({post.ref})" if post.ref else "")

        lines = [f"тема / thread: {self.title or '—'} ({_engine_title(self.engine)}), постов / posts: {self.posts_read}",
                 f"игра / game: {self.game}, шаг / step {self.step}; время / times: {self.timezone}",
                 f"шаг открыт / step opened: {when(self.opened_at)}; срок / deadline: {when(self.deadline)}"]
        for ru, en in self.problems:
            lines.append(f"  ! {ru} / {en}")
        for seat in self.seats:
            names = f" [{', '.join(seat.names)}]" if seat.names else ""
            lines.append("")
            if not seat.posted:
                state = "нет поста / no post" if seat.awaited else "ход не за ним / not awaited"
                lines.append(f"== {seat.player}{names}: {state}")
            else:
                lines.append(f"== {seat.player}{names}:")
            for post, echo, accepted in zip(seat.posts, seat.echoes, seat.accepted, strict=True):
                mark = "будет сохранён / to be stored" if accepted else "не будет сохранён / will not be stored"
                lines.append(f"-- {post_line(post)}: {mark}")
                lines.extend("   " + line for line in post.text.splitlines())
                lines.append("   ~~ эхо / echo:")
                lines.extend("   " + line for line in echo.splitlines())
            for post in seat.replaced:
                lines.append(f"   заменён следующим / replaced by a later one: {post_line(post)}")
            for post in seat.late:
                lines.append(f"   после срока, не берётся / after the deadline, not taken: {post_line(post)}")
        lines.append("")
        if self.silent:
            lines.append("не прислали / no post from: " + ", ".join(self.silent))
        if self.unknown:
            lines.append("неизвестные имена (свяжите их с местами: --map \"имя=Игрок\", или «имя=-») / unknown names "
                         "(tie them to seats: --map \"name=Player\", or «name=-»):")
            for name, posts in self.unknown.items():
                lines.append(f"  {name}: {len(posts)} — последний / latest {when(posts[-1].at)}")
        if self.ignored:
            lines.append(f"не места (помечены «-») / not seats (marked «-»): {len(self.ignored)} — "
                         + ", ".join(sorted({p.author for p in self.ignored})))
        if self.older:
            lines.append(f"раньше начала шага / older than the step: {len(self.older)}")
        return "\n".join(lines)


@dataclass(frozen=True)
class StoredThreadPost:
    """A post of the thread stored (``outcome``) or refused (``error``)."""

    player: str
    outcome: PostOutcome | None
    error: str | None


def parse_mapping(lines: Iterable[str]) -> dict[str, str]:
    """«forum name=Seat» lines (the last «=» splits them; «name=-» marks a name as not a seat's,
    «name=» forgets it), with a clear error naming the line."""
    mapping: dict[str, str] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, seat = line.rpartition("=")
        if not equals or not name.strip():
            raise GameError(f"строка {number} «{line}»: нужно «имя на форуме=Игрок» (или «имя=-»)",
                            f"line {number} '{line}': write 'forum name=Player' (or 'name=-')")
        if len(name.strip()) > MAX_NAME:
            raise GameError(f"строка {number}: имя длиннее {MAX_NAME} знаков", f"line {number}: a name over {MAX_NAME} characters")
        mapping[name.strip()] = seat.strip()
    return mapping


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError) as exc:
        raise GameError(f"неизвестный часовой пояс «{name}» (пример: Europe/Moscow)",
                        f"unknown time zone '{name}' (for example Europe/Moscow)") from exc


def _engine_title(engine: str) -> str:
    from voevoda.forum.engines import TITLES

    return TITLES.get(engine, engine)


def step_opened(game: Game) -> datetime | None:
    """When the open step opened: the time of the resolution that opened it (a rollback takes its
    resolution back); ``None`` for the first step."""
    opened: list[str | None] = []
    for entry in game.record.entries:
        if entry.kind == "resolve":
            opened.append(entry.at)
        elif entry.kind == "rollback" and opened:
            opened.pop()
    if not opened or opened[-1] is None:
        return None
    moment = datetime.fromisoformat(opened[-1])
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _taken(posts: list[ForumPost]) -> tuple[list[ForumPost], list[ForumPost]]:
    """The latest post and the posts it adds to as follow-ups (oldest first), and the rest."""
    from voevoda.core.posts import follow_up

    if not posts:
        return [], []
    start = len(posts) - 1
    while start > 0 and follow_up(posts[start].text) is not None:
        start -= 1
    return posts[start:], posts[:start]


class ForumThreads:
    """The service's operations on forum threads (a part of :class:`~voevoda.service.Service`)."""

    def forum_names(self: Service, actor: Actor, game: str) -> list[ForumName]:  # type: ignore[misc]
        """The forum names tied to the game's seats, by name."""
        self.access(actor, game).require(Op.THREAD)
        from sqlalchemy import select

        from voevoda.store.models import ForumNameRow

        with self.store.reads() as session:
            game_id = self._game_id(session, game)
            rows = session.execute(select(ForumNameRow.name, ForumNameRow.player).where(
                ForumNameRow.game_id == game_id).order_by(ForumNameRow.name_key)).all()
        return [ForumName(name, player) for name, player in rows]

    def set_forum_names(self: Service, actor: Actor, game: str, mapping: Mapping[str, str]) -> list[ForumName]:  # type: ignore[misc]
        """Tie forum names to seats: ``{forum name: seat}``, a seat «-» for a name whose posts are
        nobody's orders, an empty seat to forget the name. Every seat is checked before anything
        is stored. Gives the names as they stand after."""
        self.access(actor, game).require(Op.THREAD)
        chosen = self._chosen_seats(game, mapping)
        from sqlalchemy import select

        from voevoda.store.models import ForumNameRow

        with self.store.sessions.begin() as session:
            game_id = self._game_id(session, game)
            rows = {row.name_key: row for row in session.scalars(select(ForumNameRow).where(
                ForumNameRow.game_id == game_id))}
            for name, player in chosen.items():
                key = _key(name)
                row = rows.get(key)
                if player == "":
                    if row is not None:
                        session.delete(row)
                    continue
                tied = None if player == IGNORED else player
                if row is None:
                    row = ForumNameRow(game_id=game_id, name=" ".join(name.split()), name_key=key, player=tied,
                                       created_at=self.clock())
                    session.add(row)
                    rows[key] = row
                else:
                    row.name, row.player = " ".join(name.split()), tied
        return self.forum_names(actor, game)

    def _chosen_seats(self: Service, game: str, mapping: Mapping[str, str]) -> dict[str, str]:  # type: ignore[misc]
        """``mapping`` with every seat written as the game writes it (any letter case given)."""
        players = self._game(game).record.players
        from voevoda.core.engine import find_player

        chosen: dict[str, str] = {}
        for name, seat in mapping.items():
            if not name.strip() or len(name) > MAX_NAME:
                raise GameError(f"имя на форуме «{name[:40]}»: от 1 до {MAX_NAME} знаков",
                                f"forum name '{name[:40]}': 1 to {MAX_NAME} characters")
            seat = seat.strip()
            chosen[name] = seat if seat in ("", IGNORED) else find_player(seat, players)
        return chosen

    def read_thread_page(self: Service, actor: Actor, game: str, page: bytes | str, *,  # type: ignore[misc]
                         timezone: str | None = None, deadline: datetime | None = None,
                         since: datetime | None = None, mapping: Mapping[str, str] | None = None) -> ThreadReading:
        """Read a thread page for the game's open step: nothing stored (the dry run). ``timezone``:
        the zone the page's shown times are in (default: the game's); ``deadline``: posts after it
        are late; ``since``: count posts from then (default: when the step opened); ``mapping``:
        forum names tied to seats for this reading only, over those stored."""
        access = self.access(actor, game)
        access.require(Op.THREAD)
        from voevoda.forum import read_thread

        zone_name = timezone or self.settings(game)[1]
        zone = _zone(zone_name)
        thread = read_thread(page, timezone=zone, today=self.clock().astimezone(zone).date())
        base = self._game(game)
        known = {_key(n.name): n.player for n in self.forum_names(actor, game)}
        for name, seat in self._chosen_seats(game, mapping or {}).items():
            if seat == "":
                known.pop(_key(name), None)
            else:
                known[_key(name)] = None if seat == IGNORED else seat
        by_seat_name = {_key(p): p for p in base.record.players}
        opened = since.astimezone(UTC) if since is not None else step_opened(base)
        cutoff = deadline.astimezone(UTC) if deadline is not None else None
        awaiting = set(base.waiting_for()) | set(base.pending) if base.outcome() is None else set()
        seats = {p: SeatReading(p, p in awaiting) for p in base.record.players}
        in_step: dict[str, list[ForumPost]] = {p: [] for p in base.record.players}
        unknown: dict[str, list[ForumPost]] = {}
        ignored: list[ForumPost] = []
        older: list[ForumPost] = []
        for post in sorted(thread.posts, key=lambda p: (p.at, p.index)):
            if opened is not None and post.at <= opened:
                older.append(post)
                continue
            key = _key(post.author)
            tied: str | None = known[key] if key in known else by_seat_name.get(key, "")
            if tied is None:
                ignored.append(post)
                continue
            if not tied:
                unknown.setdefault(post.author, []).append(post)
                continue
            seat = tied
            if post.author not in seats[seat].names:
                seats[seat].names.append(post.author)
            if cutoff is not None and post.at > cutoff:
                seats[seat].late.append(post)
                continue
            in_step[seat].append(post)
        trial = base.fork()
        trial.record.auto_resolve = False  # the dry run stages follow-ups on a copy; it never resolves
        step = base.step_number + 1
        for player, posts in in_step.items():
            reading = seats[player]
            reading.posts, reading.replaced = _taken(posts)
            for number, post in enumerate(reading.posts):
                echo, accepted = self._thread_check(actor, game, trial, player, post.text, step, number == 0)
                reading.echoes.append(echo)
                reading.accepted.append(accepted)
        return ThreadReading(game, step, thread.engine, thread.title, zone_name, opened, cutoff,
                             [seats[p] for p in base.record.players if p not in base.record.bots or seats[p].posts],
                             unknown, ignored, older, list(thread.problems), len(thread.posts))

    def _thread_check(self: Service, actor: Actor, game: str, trial: Game, player: str, text: str,  # type: ignore[misc]
                      step: int, first: bool) -> tuple[str, bool]:
        """The echo a post would get: the service's :meth:`check_post` for a seat's first post;
        a follow-up is checked on the copy that holds the posts before it."""
        from voevoda.core import outputs

        try:
            if first:
                echo = self.check_post(actor, game, player, text, step=step).echo
            else:
                receipt = trial.check_post(player, text)
                echo = outputs.order_echo(trial, player, receipt, True, step=step)
        except (OrdersRejected, GameError) as refused:
            return outputs.error_text(refused), False
        with contextlib.suppress(OrdersRejected, GameError):
            trial.post(player, text, source="gm")
        return echo, True

    def store_thread(self: Service, actor: Actor, game: str, posts: Sequence[tuple[str, str]], *,  # type: ignore[misc]
                     step: int, mapping: Mapping[str, str] | None = None) -> list[StoredThreadPost]:
        """Store the posts confirmed after a dry run (``(seat, text)``, in order), each through
        :meth:`post` for step ``step``; ``mapping``, when given, is stored first. A post the
        engine refuses is reported and the others are stored; a step resolved meanwhile stops
        it all («already resolved»)."""
        self.access(actor, game).require(Op.THREAD)
        if mapping:
            self.set_forum_names(actor, game, mapping)
        from voevoda.core import outputs
        from voevoda.core.errors import AlreadyDone

        stored: list[StoredThreadPost] = []
        for player, text in posts:
            try:
                outcome = self.post(actor, game, player, text, step=step)
            except AlreadyDone:
                raise
            except (OrdersRejected, GameError) as refused:
                stored.append(StoredThreadPost(player, None, outputs.error_text(refused)))
                continue
            stored.append(StoredThreadPost(player, outcome, None))
        return stored


def stored_text(stored: Sequence[StoredThreadPost]) -> str:
    """What ``voevoda thread`` prints once the posts are stored."""
    if not stored:
        return "нечего сохранять / nothing to store"
    lines = []
    for item in stored:
        if item.outcome is not None:
            lines.append(f"== {item.player}: сохранено / stored")
            lines.extend("   " + line for line in item.outcome.echo.splitlines())
        else:
            lines.append(f"== {item.player}: не сохранено / not stored")
            lines.extend("   " + line for line in (item.error or "").splitlines())
    return "\n".join(lines)


__all__ = ["IGNORED", "ForumName", "ForumThreads", "SeatReading", "StoredThreadPost", "ThreadReading",
           "parse_mapping", "step_opened", "stored_text"]
