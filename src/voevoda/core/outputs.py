"""Every output a viewer can reach, in one list.

A *channel* is one way text or a picture leaves the engine for a viewer (a player, ``public``
or ``gm``): the status and prompts, ``show`` and ``show --json``, the report of every turn in
every format and language, the map, the list of games, the public export, the echo and the
errors of a post. Each channel is a function ``render(game, viewer, **params)`` built only from

- the viewer's view (:meth:`Game.view`, which is the ruleset's ``view``),
- the events that viewer may see (:meth:`Game.report` cuts them by audience),
- and the public shape of the journal: the step numbers and their revealed seeds, who is
  awaited and whether each has posted.

The command line prints only what these functions return (``tests/cli`` checks that no command
reads a view, a report, a map or an export around them), and the non-interference test
(``tests/core/test_noninterference.py``) walks :data:`CHANNELS` for every viewer: two games that
differ only in what a viewer may not see must give that viewer byte-identical outputs.

Adding a channel is one decorator line on the function that renders it::

    @channel("report --all", "voevoda report GAME --all -o DIR", variants=report_variants)
    def report_all_text(game: Game, viewer: Viewer, fmt: str = "text", lang: str = "ru") -> str:
        ...

``variants`` lists the parameter sets the test walks (formats, languages, turns); a channel
with none is walked once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from voevoda.core import chat
from voevoda.core.engine import Game, Receipt, RollbackReport, Step, Submission
from voevoda.core.errors import DataError, GameError, OrdersRejected, Problem
from voevoda.core.markup import FLAVOURS, FORMATS, Document, check_format, render, render_messages
from voevoda.core.posts import PostLine, prose_notes
from voevoda.core.ruleset import GM, PUBLIC, Order, Ruleset, Viewer
from voevoda.core.words import count_en, count_ru, plural_ru

if TYPE_CHECKING:
    from voevoda.core.standing import Standing

LANGS: tuple[str, ...] = ("ru", "en")
"""The languages every text output speaks."""

Rendered = str | bytes | None
"""What a channel gives: text, bytes (a picture), or ``None`` where the game has no such output
(a game without a map)."""

Params = dict[str, Any]
Variants = Callable[[Game, Viewer, Sequence[str]], Iterable[Params]]


@dataclass(frozen=True)
class Channel:
    """One way output reaches a viewer."""

    name: str
    """Short name, as the tests print it."""
    command: str
    """The command line that reaches it."""
    render: Callable[..., Rendered]
    """``render(game, viewer, **params)``."""
    variants: Variants
    """The parameter sets to walk, given the game, the viewer and posts to try."""
    acts: bool = False
    """True when rendering changes the game (an accepted post): walked only on a copy."""
    batch: Callable[[Game, Viewer, Sequence[Params]], list[Rendered]] | None = None
    """Optionally, every variant at once, the same outputs as ``render`` gives one by one
    (a report's document is built once for all its formats)."""
    follows: str | None = None
    """The channel whose output this one only transforms, by a function of that output alone
    (the PNG map is the SVG map drawn): it cannot tell apart what that channel cannot, and a walk
    may leave it out (``derived=False``)."""


CHANNELS: dict[str, Channel] = {}
"""Every channel, by name, in the order they were declared."""

F = TypeVar("F", bound=Callable[..., Rendered])


def _once(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return ({},)


def channel(name: str, command: str, variants: Variants = _once, acts: bool = False,
            batch: Callable[[Game, Viewer, Sequence[Params]], list[Rendered]] | None = None,
            follows: str | None = None) -> Callable[[F], F]:
    """Declare ``render`` as the channel ``name``; see the module's docstring."""
    def register(render: F) -> F:
        if name in CHANNELS:
            raise ValueError(f"output channel '{name}' is declared twice")
        if follows is not None and follows not in CHANNELS:
            raise ValueError(f"output channel '{name}' follows an undeclared channel '{follows}'")
        CHANNELS[name] = Channel(name, command, render, variants, acts, batch, follows)
        return render
    return register


def walk(game: Game, viewer: Viewer, posts: Sequence[str] = (), channels: Iterable[str] | None = None,
         select: Callable[[str, Params], bool] | None = None, derived: bool = True,
         ) -> Iterator[tuple[str, Rendered]]:
    """Every output ``viewer`` can get from ``game`` now, each labelled with its channel and
    parameters; ``posts`` are texts the viewer might post (for ``order --check``). Channels
    that change the game are left out: call them on a copy. ``channels`` and ``select(name,
    params)`` narrow the walk; ``derived=False`` leaves out the channels that only transform
    another channel's output (``Channel.follows``)."""
    wanted = None if channels is None else set(channels)
    for ch in CHANNELS.values():
        if ch.acts or (wanted is not None and ch.name not in wanted) or (ch.follows and not derived):
            continue
        variants = [p for p in ch.variants(game, viewer, posts) if select is None or select(ch.name, p)]
        rendered = (ch.batch(game, viewer, variants) if ch.batch is not None
                    else (ch.render(game, viewer, **params) for params in variants))
        for params, out in zip(variants, rendered, strict=True):
            yield ch.name + "".join(f" {k}={v}" for k, v in sorted(params.items())), out


# -- status and prompts ---------------------------------------------------------------------

@channel("status", "voevoda status GAME --as VIEWER")
def status_text(game: Game | Standing, viewer: Viewer) -> str:
    """Turn, phase and the open step (:func:`step_text`); the result once the game is over; else
    who is awaited.

    Everything here comes from the viewer's view: ``progress``, ``outcome`` and ``awaiting``
    are asked of ``view(state, viewer)``, never of the state. A player sees his own prompt and,
    for the others, only whether they have posted; ``public`` sees only that; the game master
    sees every prompt. The command line gives it the game as it stands in the store
    (:class:`~voevoda.core.standing.Standing`) when it may, the replayed game otherwise."""
    view = game.view(viewer)
    ruleset = game.ruleset
    turn, phase = ruleset.progress(view)
    result = ruleset.outcome(view)
    lines = [f"игра / game {game.record.name} ({game.record.ruleset}), ход / turn {turn}, "
             f"фаза / phase {phase_text(ruleset, phase)}, {step_text(game.step_number, result is None)}"]
    if result is not None:
        lines.append(f"игра окончена / game over: {', '.join(result.winners) or '—'} "
                     f"({result.reason_ru} / {result.reason_en})")
        return "\n".join(lines)
    for player, prompt in ruleset.awaiting(view).items():
        posted = player in game.pending
        mark = "✓" if posted else "…"
        if viewer == GM or player == viewer:
            lines.append(f"  {mark} {player}: {prompt.text_ru} / {prompt.text_en}")
        else:
            lines.append(f"  {mark} {player} ({'приказы получены / posted' if posted else 'ждём / awaited'})")
    return "\n".join(lines)


@dataclass(frozen=True)
class SeatLine:
    """One seat on a game's page, cut by the viewer: the prompt is shown only to the seat itself
    and to the game master; for the others only whether it is awaited and has posted."""

    player: str
    awaited: bool
    posted: bool
    prompt_ru: str | None
    prompt_en: str | None
    bot: bool


@dataclass(frozen=True)
class Dashboard:
    """What a game's page shows at its top, for one viewer (the web's dashboard, the API's
    game resource): the same facts as :func:`status_text`, as data."""

    name: str
    ruleset: str
    title_ru: str
    title_en: str
    turn: int
    phase: str
    phase_ru: str
    """The phase as players call it (:meth:`~voevoda.core.ruleset.Ruleset.phase_name`)."""
    phase_en: str
    step_open: int
    """The step posts go to now (one more than the steps resolved)."""
    steps_resolved: int
    over: bool
    winners: list[str]
    result_ru: str | None
    result_en: str | None
    seats: list[SeatLine]
    commitment: str
    last_digest: str | None
    """The last record's digest, to hold an export to (``None`` when read without replay)."""


def dashboard(game: Game | Standing, viewer: Viewer) -> Dashboard:
    """The dashboard of ``game`` for ``viewer``, from the viewer's view and the public shape of
    the journal (who has posted), as :func:`status_text`."""
    view = game.view(viewer)
    ruleset = game.ruleset
    turn, phase = ruleset.progress(view)
    result = ruleset.outcome(view)
    awaited = {} if result is not None else ruleset.awaiting(view)
    seats = []
    for player in game.record.players:
        prompt = awaited.get(player)
        see = prompt is not None and viewer in (GM, player)
        seats.append(SeatLine(player, prompt is not None, player in game.pending,
                              prompt.text_ru if see and prompt else None, prompt.text_en if see and prompt else None,
                              player in game.record.bots))
    return Dashboard(game.record.name, game.record.ruleset, ruleset.title_ru, ruleset.title_en, turn, phase,
                     ruleset.phase_name(phase, "ru"), ruleset.phase_name(phase, "en"), game.step_number + 1, game.step_number, result is not None,
                     list(result.winners) if result else [], result.reason_ru if result else None,
                     result.reason_en if result else None, seats, game.record.commitment,
                     getattr(game, "last_digest", None))


@channel("dashboard", "the web app's game page and GET /api/v1/games/GAME")
def dashboard_json(game: Game | Standing, viewer: Viewer) -> str:
    """:func:`dashboard` as JSON (what the API answers; the page lays out the same data)."""
    from dataclasses import asdict

    return json.dumps(asdict(dashboard(game, viewer)), ensure_ascii=False, sort_keys=True)


def phase_text(ruleset: Ruleset, phase: str) -> str:
    """The phase as the headings name it, in both languages («приказы / orders»; once when the
    ruleset names it the same in both): :meth:`~voevoda.core.ruleset.Ruleset.phase_name`."""
    ru, en = ruleset.phase_name(phase, "ru"), ruleset.phase_name(phase, "en")
    return ru if ru == en else f"{ru} / {en}"


def step_text(resolved: int, open_: bool = True) -> str:
    """The step as every output names it: the step that is open, the one a post goes to and
    ``order --step`` and ``resolve --step`` take («шаг / step 3» when two are resolved); once
    the game is over, how many were resolved."""
    if open_:
        return f"шаг / step {resolved + 1}"
    return f"рассчитано шагов / steps resolved: {resolved}"


# -- the state as the viewer sees it ----------------------------------------------------------

@channel("show", "voevoda show GAME --as VIEWER")
def show_text(game: Game | Standing, viewer: Viewer) -> str:
    """What ``show`` prints for a person: a heading (game, ruleset, turn, phase, step, whose
    eyes), then the ruleset's summary of the viewer's view (a readable outline unless the
    ruleset writes its own; ``--json`` gives the view itself)."""
    view = game.view(viewer)
    ruleset = game.ruleset
    turn, phase = ruleset.progress(view)
    who = {GM: "ведущий / game master", PUBLIC: "все / public"}.get(viewer, viewer)
    head = (f"{ruleset.title_ru} / {ruleset.title_en}: игра / game {game.record.name}, ход / turn {turn}, "
            f"фаза / phase {phase_text(ruleset, phase)}, {step_text(game.step_number, ruleset.outcome(view) is None)}"
            f" — глазами / as seen by {who}")
    return head + "\n\n" + ruleset.summary(view, viewer) + "\n"


@channel("show --json", "voevoda show GAME --as VIEWER --json")
def show_json(game: Game | Standing, viewer: Viewer) -> str:
    """The viewer's view as JSON, for programs."""
    return json.dumps(game.view(viewer), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


# -- reports ---------------------------------------------------------------------------------

def report_variants(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    """Every turn that has a resolved step (and the default, the last), every format with each
    of its flavours, every language."""
    turns: list[int | None] = [None, *sorted({step.turn for step in game.steps})]
    return [{"turn": turn, "fmt": fmt, "flavour": flavour, "lang": lang}
            for turn in turns for fmt in FORMATS for flavour in FLAVOURS[fmt] for lang in LANGS]


def _reports(game: Game, viewer: Viewer, variants: Sequence[Params]) -> list[Rendered]:
    documents: dict[tuple[int | None, str], Document] = {}
    out: list[Rendered] = []
    for params in variants:
        key = (params["turn"], params["lang"])
        if key not in documents:
            documents[key] = game.report_document(viewer, params["turn"], params["lang"])
        out.append(render(documents[key], params["fmt"], params["flavour"]))
    return out


@channel("report", "voevoda report GAME --as VIEWER --turn N --format F --flavour V --lang L "
         "(and, one file per viewer, --all -o DIR)", variants=report_variants, batch=_reports)
def report_text(game: Game, viewer: Viewer, turn: int | None = None, fmt: str = "text", lang: str = "ru",
                flavour: str | None = None) -> str:
    """A viewer's report of one turn (docs/reports.md), built from that viewer's view after the
    turn and the events of the turn it may see; for ``public`` it is the public chronicle.
    ``report --all`` writes this for every player and ``public``."""
    check_options(fmt=fmt, lang=lang, flavour=flavour)
    return render(game.report_document(viewer, turn, lang), fmt, flavour)


# -- maps -----------------------------------------------------------------------------------

def _map_variants(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    turns: list[int | None] = [None, *sorted({step.turn for step in game.steps})]
    return [{"lang": lang, "turn": turn} for lang in LANGS for turn in turns]


def _png_variants(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{"lang": "ru"}]


@channel("map", "voevoda map GAME --as VIEWER -o FILE.svg --lang L --turn N", variants=_map_variants)
def map_svg(game: Game, viewer: Viewer, lang: str = "ru", turn: int | None = None) -> str | None:
    """The viewer's map as SVG (after ``turn``, default now), or ``None`` when the game has no
    map (docs/maps.md)."""
    check_options(lang=lang)
    return game.map_svg(viewer, lang, turn)


@channel("map png", "voevoda map GAME --as VIEWER -o FILE.png (or --png) --zoom Z", variants=_png_variants,
         follows="map")
def map_png(game: Game, viewer: Viewer, lang: str = "ru", turn: int | None = None, zoom: float = 1.0) -> bytes | None:
    """The same map as a PNG picture, rendered with the fonts shipped in the package."""
    from voevoda.core.maps import to_png

    svg = map_svg(game, viewer, lang, turn)
    return None if svg is None else to_png(svg, zoom)


# -- the list of games ------------------------------------------------------------------------

def games_lines(rows: Iterable[tuple[str, str, int]]) -> list[tuple[str, str, str]]:
    """The rows ``voevoda games`` prints: name, ruleset, step. Only public facts."""
    return [(name, ruleset, str(step)) for name, ruleset, step in rows]


@channel("games", "voevoda games")
def games_text(game: Game, viewer: Viewer) -> str:
    """This game's row of ``voevoda games``."""
    return "\t".join(games_lines([(game.record.name, game.record.ruleset, game.step_number)])[0])


# -- exports --------------------------------------------------------------------------------

def export_data(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The export ``viewer`` may hold: the full game (secret, posts, state) for the game master,
    the public export for everyone else."""
    return game.export(public=viewer != GM)


@channel("export --public", "voevoda export GAME -o FILE")
def export_text(game: Game, viewer: Viewer) -> str:
    """:func:`export_data` as the file ``voevoda export`` writes."""
    return json.dumps(export_data(game, viewer), ensure_ascii=False, indent=1, sort_keys=True)


# -- posts: echo and errors ---------------------------------------------------------------------

def order_echo(game: Game, player: str, receipt: Receipt | Sequence[Order], check: bool,
               step: int | None = None) -> str:
    """What the author of a post reads (docs/posts.md «The echo»): at the top, how many orders
    were accepted and how many lines refused (and the step the post is for, when given); each
    refused line with its reason; when it replaces an earlier post of this step, or adds to it
    as a follow-up, that it does (its time and number of orders) — the orders listed are then
    the whole standing set; the lines not read as orders; the lines set aside as quotes and
    spoilers; notes on the markup and the reading, and the ruleset's warnings; then, when it was
    stored, the author's status. Nothing here is shown to anyone but the author."""
    if not isinstance(receipt, Receipt):
        receipt = Receipt(player, list(receipt), added=list(receipt))
    orders = receipt.orders
    added = receipt.added if receipt.adds_to is not None else orders
    refused = len(receipt.refused_lines)
    where = f", шаг / step {step}" if step is not None else ""
    lines = [counts_text(len(added), refused, check) + where + ("" if refused else ":")]
    if refused:
        lines.append("не принято / refused:")
        lines.extend("  " + problem.both() for problem in receipt.refused)
        lines.append("принято / accepted:" if not check else "будет принято / would be accepted:")
    if receipt.adds_to is not None:
        lines.append("  " + added_text(receipt.adds_to, check))
    elif receipt.replaced is not None:
        lines.append("  " + replaced_text(receipt.replaced, check))
    following = receipt.adds_to is not None
    lines.extend(f"  {'+ ' if following and any(item is a for a in added) else ''}{item.line}: "
                 f"{game.ruleset.describe(item, 'ru')}" for item in orders)
    lines.extend(post_notes(receipt.prose, receipt.hidden, [*receipt.notes, *receipt.warnings], receipt.unbold))
    if not check:
        lines.append(status_text(game, player))
    return "\n".join(lines)


@dataclass(frozen=True)
class EchoOrder:
    """An order understood, as the echo lists it; ``added``: the follow-up's own (shown «+»)."""

    line: int | None
    text_ru: str
    text_en: str
    added: bool = False


@dataclass(frozen=True)
class Echo:
    """The echo of a post as data, for front-ends that lay it out themselves (the web's order
    form, the API): the same facts as :func:`order_echo` and :func:`error_text` print."""

    player: str
    step: int | None
    check: bool
    accepted: bool
    """Stored (or, for a check, would be): some orders stand; refused lines may be listed too."""
    head_ru: str
    head_en: str
    """«принято 2 приказа, не принято 1» / «2 orders accepted, 1 refused» (for a refusal, the
    refusal's own words)."""
    orders: list[EchoOrder]
    """The orders that stand — for a follow-up, the standing post's and its own — (of a post
    refused whole: what was understood)."""
    problems: list[Problem]
    """Why each refused line is refused; for a post refused whole, why it is."""
    warnings: list[Problem]
    prose: list[tuple[int, str]]
    """The lines not read as orders, ``(line, text)``."""
    unbold: list[int]
    hidden: list[int]
    replaced: str | None
    """«replaces your post of …» or «adds to your post of …», when it does."""
    replaced_ru: str | None = None
    replaced_en: str | None = None
    """:attr:`replaced` in one language (the chat lays out the echo in the chat's language)."""


def echo_data(game: Game, player: str, outcome: Receipt | OrdersRejected | GameError, check: bool,
              step: int | None = None) -> Echo:
    """:class:`Echo` of a receipt (an accepted or checked post) or of a refusal, for its author."""
    if isinstance(outcome, Receipt):
        added = outcome.added if outcome.adds_to is not None else outcome.orders
        following = outcome.adds_to is not None
        orders = [EchoOrder(o.line or None, game.ruleset.describe(o, "ru"), game.ruleset.describe(o, "en"),
                            following and any(o is a for a in added)) for o in outcome.orders]
        head = counts_text(len(added), len(outcome.refused_lines), check)
        ru, _, en = head.partition(" / ")
        earlier = (added_text(outcome.adds_to, check) if outcome.adds_to is not None
                   else replaced_text(outcome.replaced, check) if outcome.replaced is not None else None)
        words = (earlier_words(outcome.adds_to, check, True) if outcome.adds_to is not None
                 else earlier_words(outcome.replaced, check, False) if outcome.replaced is not None else (None, None))
        return Echo(player, step, check, True, ru, en, orders, list(outcome.refused),
                    [*outcome.notes, *outcome.warnings], [(line.number, line.text) for line in outcome.prose],
                    list(outcome.unbold), list(outcome.hidden), earlier, *words)
    if isinstance(outcome, OrdersRejected):
        prose = [(int(number), text) for number, text in (line.split(": ", 1) for line in outcome.prose)]
        return Echo(player, step, check, False, "приказы не приняты", "orders rejected",
                    [EchoOrder(None, u, u) for u in outcome.understood], list(outcome.problems), [], prose,
                    list(outcome.unbold), [], None)
    problem = Problem("illegal", outcome.message_ru, outcome.message_en)
    return Echo(player, step, check, False, "не принято", "not accepted", [], [problem], [], [], [], [], None)


@dataclass(frozen=True)
class StandingPost:
    """A seat's post standing in the open step, as its author (and the game master) sees it."""

    player: str
    text: str
    at: str | None
    orders: int
    frozen: bool
    """Frozen by a rollback: only the game master can reopen it."""


def standing_post(game: Game, viewer: Viewer, player: str) -> StandingPost | None:
    """``player``'s post standing now, for ``viewer`` when that is the player or the game
    master (anybody else learns only whether it stands, from the status)."""
    if viewer not in (GM, player):
        return None
    submission = game.pending.get(player)
    if submission is None:
        return None
    return StandingPost(player, submission.text, submission.at, len(submission.orders), player in game.frozen)


def _own_post(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{}] if viewer not in (GM, PUBLIC) else []


@channel("standing post", "the web app's order form: your post standing in the open step", variants=_own_post)
def standing_post_text(game: Game, viewer: Viewer) -> str:
    """The viewer's own post standing now, as the order form shows it."""
    post = standing_post(game, viewer, viewer)
    if post is None:
        return ""
    return f"{post.at or ''}\n{post.orders}\n{post.frozen}\n{post.text}"


ACCEPTED_RU = ("принят", "принято", "принято")


def counts_text(accepted: int, refused: int, check: bool) -> str:
    """The top of the echo: «принято 3 приказа, не принято 1 / 3 orders accepted, 1 refused»;
    when checking, «проверено: будет принято …»; without a refused line, only what was accepted."""
    verb = plural_ru(accepted, ACCEPTED_RU)
    ru = f"{verb} {count_ru(accepted, ORDERS_RU)}"
    en = f"{count_en(accepted, 'order')} {'would be accepted' if check else 'accepted'}"
    if refused:
        ru += f", не принято {refused}"
        en += f", {refused} refused"
    if check:
        ru = f"проверено: будет {ru}"
        en = f"checked: {en}"
    return f"{ru} / {en}"


def added_text(earlier: Submission, check: bool) -> str:
    """«дополняет ваш пост от 14:05 UTC (3 приказа) / adds to your post of 14:05 UTC (3 orders)»."""
    n = len(earlier.orders)
    when_ru, when_en = _when(earlier.at)
    verb_ru, verb_en = ("дополнит", "would add to") if check else ("дополняет", "adds to")
    return (f"{verb_ru} ваш пост{when_ru} ({count_ru(n, ORDERS_RU)}) / "
            f"{verb_en} your post{when_en} ({count_en(n, 'order')}); ниже — все ваши приказы этого шага, "
            "«+» — из этого поста / below: all your orders for this step, «+» from this post")


def _when(at: str | None) -> tuple[str, str]:
    if at:
        try:
            moment = datetime.fromisoformat(at)
        except ValueError:
            moment = None
        if moment is not None:
            stamp = moment.strftime("%d.%m %H:%M") + (" UTC" if moment.utcoffset() is not None else "")
            return f" от {stamp}", f" of {stamp}"
    return "", ""


def replaced_text(earlier: Submission, check: bool) -> str:
    """«заменяет ваш пост от 14:05 UTC, 3 приказа / replaces your post of 14:05 UTC, 3 orders»."""
    n = len(earlier.orders)
    when_ru, when_en = _when(earlier.at)
    verb_ru, verb_en = ("заменит", "would replace") if check else ("заменяет", "replaces")
    return (f"{verb_ru} ваш пост{when_ru} ({count_ru(n, ORDERS_RU)}) / "
            f"{verb_en} your post{when_en} ({count_en(n, 'order')}); ниже — все ваши приказы этого шага / "
            "below: all your orders for this step")


def earlier_words(earlier: Submission, check: bool, adds: bool) -> tuple[str, str]:
    """:func:`added_text` (``adds``) or :func:`replaced_text`, one text per language."""
    n = len(earlier.orders)
    when_ru, when_en = _when(earlier.at)
    if adds:
        verb_ru, verb_en = ("дополнит", "would add to") if check else ("дополняет", "adds to")
        tail_ru, tail_en = ", «+» — из этого поста", ", «+» from this post"
    else:
        verb_ru, verb_en = ("заменит", "would replace") if check else ("заменяет", "replaces")
        tail_ru = tail_en = ""
    return (f"{verb_ru} ваш пост{when_ru} ({count_ru(n, ORDERS_RU)}); ниже — все ваши приказы этого шага{tail_ru}",
            f"{verb_en} your post{when_en} ({count_en(n, 'order')}); below: all your orders for this step{tail_en}")


ORDERS_RU = ("приказ", "приказа", "приказов")


def post_notes(prose: Sequence[PostLine], hidden: Sequence[int], warnings: Sequence[Problem],
               unbold: Sequence[int] = ()) -> list[str]:
    """The lines of a post not read as orders (each under its reason), the lines set aside, and
    warnings, as the echo and the errors of a post show them."""
    lines = prose_notes([(line.number, line.text) for line in prose], unbold)
    if hidden:
        shown = ", ".join(str(n) for n in hidden)
        which = "строка / line" if len(hidden) == 1 else "строки / lines"
        lines.append(f"цитаты и спойлеры не читаются / quotes and spoilers set aside: {which} {shown}")
    if warnings:
        lines.append("предупреждения / warnings:")
        lines.extend("  " + w.both() for w in warnings)
    return lines


def error_text(exc: BaseException) -> str:
    """An error as the command line prints it (standard error, exit status 1)."""
    if isinstance(exc, OrdersRejected):
        lines = ["приказы не приняты / orders rejected:"]
        lines.extend("  " + problem.both() for problem in exc.problems)
        if exc.understood:
            lines.append("понято / understood:")
            lines.extend("  " + line for line in exc.understood)
        lines.extend(prose_notes([(int(number), text) for number, text in
                                  (line.split(": ", 1) for line in exc.prose)], exc.unbold))
        return "\n".join(lines)
    if isinstance(exc, GameError):
        return f"ошибка / error: {exc.message_ru}\n  {exc.message_en}"
    if isinstance(exc, DataError):
        return f"ошибка / error: {exc}"
    raise TypeError(f"not an error a person can act on: {exc!r}")


def order_reply(game: Game, player: str, text: str, check: bool = False, at: str | None = None) -> tuple[bool, str]:
    """Post ``text`` for ``player`` (or only check it) for the current step and give what its
    author reads, as ``voevoda order`` prints it: the echo and status, or every error.
    ``(accepted, text)``."""
    meant = game.step_number + 1
    try:
        receipt = game.check_post(player, text) if check else game.post(player, text, at=at, step=meant)
    except (OrdersRejected, GameError) as exc:
        return False, error_text(exc)
    return True, order_echo(game, player, receipt, check, step=meant)


def _posts(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{"text": text} for text in posts] if viewer not in (GM, PUBLIC) else []


@channel("order --check", "voevoda order GAME --player VIEWER FILE --check", variants=_posts)
def order_check_text(game: Game, viewer: Viewer, text: str) -> str:
    """What ``order --check`` answers ``viewer`` about ``text``: the echo or every error."""
    return order_reply(game, viewer, text, check=True)[1]


@channel("order", "voevoda order GAME --player VIEWER FILE", variants=_posts, acts=True)
def order_text(game: Game, viewer: Viewer, text: str) -> str:
    """What ``order`` answers ``viewer``: the echo and the status, or every error. Stores the
    post when it is accepted."""
    return order_reply(game, viewer, text)[1]


# -- the game master's commands ----------------------------------------------------------------

def resolution_text(game: Game, step: Step) -> str:
    """What ``resolve`` prints for the game master: the step, its seed (with its chain link and the
    digest of its inputs, procedure 2: what the step's notification carries, ``Step.notice``), its
    record's digest, who got default orders, then the game master's status."""
    lines = [f"шаг / step {step.number} (ход / turn {step.turn}) seed {step.seed}"]
    if step.inputs is not None:
        lines.append(f"звено / link {step.link}, приказы / inputs {step.inputs_digest}")
    lines.append(f"запись / record {step.digest}")
    if step.defaulted:
        lines.append(f"приказы по умолчанию / default orders: {', '.join(step.defaulted)}")
    lines.append(status_text(game, GM))
    return "\n".join(lines)


def rollback_text(game: Game, undone: RollbackReport) -> str:
    """What ``rollback`` prints for the game master: exactly what it undid, then his status."""
    step = undone.step
    lines = [f"откат шага / rolled back step {step.number} (ход / turn {step.turn})",
             f"  приказы стоят, заморожены / posts standing, frozen: {', '.join(undone.returned) or '—'}"]
    if undone.defaulted:
        lines.append(f"  без приказов, заморожены (приказы по умолчанию) / without posts, frozen (default orders): "
                     f"{', '.join(undone.defaulted)}")
    if undone.discarded_posts:
        lines.append(f"  отменены приказы на шаг {step.number + 1} / dropped posts for step {step.number + 1}: "
                     f"{', '.join(undone.discarded_posts)}")
    lines.extend(f"  отменена правка / edit undone: {reason}" for reason in undone.discarded_edits)
    lines.append(status_text(game, GM))
    return "\n".join(lines)


def reopen_text(game: Game, player: str, step: int) -> str:
    """What ``reopen`` prints for the game master."""
    return f"открыт приказ / reopened the post of {player}, шаг / step {step}\n" + status_text(game, GM)


def created_text(game: Game) -> str:
    """What ``new`` prints for the game master: the name, the commitment and the setup record's
    digest (docs/dice.md §6), the status."""
    return (f"создана игра / created game {game.record.name} ({game.record.ruleset})\n"
            f"обязательство / commitment: {game.record.commitment}\n"
            f"запись настройки / setup record: {game.setup.digest}\n" + status_text(game, GM))


# -- chat messages: the Telegram bot's answers and pushes (docs/telegram.md) ----------------------------
#
# Every message the bot sends about a game is one of these, for the viewer the chat reads as (a
# player's private chat: the player; a group chat: ``public``), laid out by voevoda.core.chat.

def _chat_langs(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{"lang": lang} for lang in LANGS]


def _chat_turns(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    turns: list[int | None] = [None, *sorted({step.turn for step in game.steps})]
    return [{"turn": turn, "lang": lang} for turn in turns for lang in LANGS]


def _chat_posts(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{"text": text, "lang": lang} for text in posts for lang in LANGS] if viewer not in (GM, PUBLIC) else []


def _chat_deadlines(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    return [{"lang": lang, "deadline": "06.12.2026 18:00 MSK"} for lang in LANGS]


def chat_status(game: Game | Standing, viewer: Viewer, lang: str = "ru") -> list[chat.ChatMessage]:
    """``/status``: the dashboard of :func:`dashboard`, in one language."""
    check_options(lang=lang)
    return chat.texts(chat.status_html(dashboard(game, viewer), viewer, lang))


@channel("telegram status", "the Telegram bot's /status (in a group chat: the public status)", variants=_chat_langs)
def telegram_status(game: Game | Standing, viewer: Viewer, lang: str = "ru") -> str:
    return chat.messages_text(chat_status(game, viewer, lang))


def chat_report(game: Game, viewer: Viewer, turn: int | None = None, lang: str = "ru") -> list[chat.ChatMessage]:
    """``/report [turn]``: the viewer's report (the public chronicle for ``public``) in Telegram's
    HTML, cut into messages within 4,096 characters."""
    check_options(lang=lang)
    document = game.report_document(viewer, turn, lang)
    return [chat.ChatMessage(text=text) for text in render_messages(document, "telegram") if text.strip()]


@channel("telegram report", "the Telegram bot's /report [turn]", variants=_chat_turns)
def telegram_report(game: Game, viewer: Viewer, turn: int | None = None, lang: str = "ru") -> str:
    return chat.messages_text(chat_report(game, viewer, turn, lang))


def chat_map(game: Game, viewer: Viewer, lang: str = "ru", turn: int | None = None) -> list[chat.ChatMessage]:
    """``/map``: the viewer's own fogged map (the public map for ``public``) as a picture with
    its caption; nothing for a game without a map."""
    svg = map_svg(game, viewer, lang, turn)
    if svg is None:
        return []
    shown = turn if turn is not None else (game.steps[-1].turn if game.steps else None)
    board = dashboard(game, viewer)
    return [chat.ChatMessage(map_svg=svg, caption=chat.map_caption(board, viewer, lang, shown, viewer == PUBLIC))]


@channel("telegram map", "the Telegram bot's /map (the picture's SVG and its caption)", variants=_chat_langs)
def telegram_map(game: Game, viewer: Viewer, lang: str = "ru") -> str:
    return chat.messages_text(chat_map(game, viewer, lang))


def chat_echo(echo: Echo, lang: str = "ru") -> list[chat.ChatMessage]:
    """The answer to a post or to ``/check`` (:func:`echo_data`), in one language."""
    check_options(lang=lang)
    return chat.texts(chat.echo_html(echo, lang))


def _chat_post(game: Game, viewer: Viewer, text: str, lang: str, check: bool) -> str:
    meant = game.step_number + 1
    outcome: Receipt | OrdersRejected | GameError
    try:
        outcome = game.check_post(viewer, text) if check else game.post(viewer, text, step=meant)
    except (OrdersRejected, GameError) as exc:
        outcome = exc
    return chat.messages_text(chat_echo(echo_data(game, viewer, outcome, check, meant), lang))


@channel("telegram check", "the Telegram bot's /check TEXT", variants=_chat_posts)
def telegram_check(game: Game, viewer: Viewer, text: str, lang: str = "ru") -> str:
    return _chat_post(game, viewer, text, lang, check=True)


@channel("telegram post", "a text message to the Telegram bot: the post and its echo", variants=_chat_posts, acts=True)
def telegram_post(game: Game, viewer: Viewer, text: str, lang: str = "ru") -> str:
    return _chat_post(game, viewer, text, lang, check=False)


def chat_push(game: Game, viewer: Viewer, lang: str = "ru", step: int | None = None) -> list[chat.ChatMessage]:
    """What a chat gets when step ``step`` (default: the last) is resolved: a line naming the
    step, the viewer's report of its turn (the public chronicle for the group) and the viewer's
    map after it. Nothing before the first resolution."""
    check_options(lang=lang)
    if not game.steps:
        return []
    number = step if step is not None else game.steps[-1].number
    if not 1 <= number <= len(game.steps):
        raise GameError(f"шаг {number} не рассчитан", f"step {number} is not resolved")
    turn = game.steps[number - 1].turn
    head = chat.texts(chat.push_head(dashboard(game, viewer), number, turn, lang))
    latest = game.steps[-1].turn == turn
    return chat.joined([head, chat_report(game, viewer, turn, lang), chat_map(game, viewer, lang,
                                                                              None if latest else turn)])


@channel("telegram push", "the Telegram bot's push after a resolution: a player's private report and map; "
         "the group's chronicle and public map", variants=_chat_langs)
def telegram_push(game: Game, viewer: Viewer, lang: str = "ru") -> str:
    return chat.messages_text(chat_push(game, viewer, lang))


def chat_reminder(game: Game | Standing, viewer: Viewer, lang: str = "ru", deadline: str = "") -> list[chat.ChatMessage]:
    """A reminder before the deadline (``deadline``: the time as the game's time zone shows it):
    to a seat still awaited, that its orders are awaited; to the group, who still is. Nothing to
    a seat that has posted."""
    check_options(lang=lang)
    text = chat.reminder_html(dashboard(game, viewer), viewer, lang, deadline)
    return [] if text is None else chat.texts(text)


@channel("telegram reminder", "the Telegram bot's reminder before a deadline", variants=_chat_deadlines)
def telegram_reminder(game: Game | Standing, viewer: Viewer, lang: str = "ru", deadline: str = "") -> str:
    return chat.messages_text(chat_reminder(game, viewer, lang, deadline))


# -- notifications: what the outbox's deliveries carry (docs/notify.md) --------------------------------


class _GameView:
    """A game seen by one viewer, as :func:`voevoda.core.notices.compose` reads it (the service
    gives it a :class:`~voevoda.service.Sight`; this channel, the game itself)."""

    def __init__(self, game: Game, viewer: Viewer) -> None:
        self.game, self.viewer = game, viewer

    @property
    def step_number(self) -> int:
        return self.game.step_number

    def turns(self) -> list[int]:
        return self.game.turns_resolved()

    def step_digest(self, number: int) -> str:
        return self.game.steps[number - 1].digest

    def report(self, turn: int | None = None, fmt: str = "text", lang: str = "ru", flavour: str | None = None) -> str:
        return report_text(self.game, self.viewer, turn, fmt, lang, flavour)

    def status(self) -> str:
        return status_text(self.game, self.viewer)


def _notification_variants(game: Game, viewer: Viewer, posts: Sequence[str]) -> Iterable[Params]:
    found: list[Params] = [{"kind": "resolved", "fmt": fmt, "lang": lang} for fmt in ("text", "telegram")
                           for lang in LANGS]
    found.append({"kind": "deadline", "fmt": "text", "lang": "ru"})
    if viewer not in (GM, PUBLIC):
        found.append({"kind": "post", "fmt": "text", "lang": "ru"})
    return found


@channel("notification", "a delivery of the outbox to a destination of the viewer (docs/notify.md): Discord, Slack, "
         "Telegram, webhooks, e-mail", variants=_notification_variants)
def notification_text(game: Game, viewer: Viewer, kind: str = "resolved", fmt: str = "text", lang: str = "ru") -> str:
    """The message a destination reading as ``viewer`` gets for the last resolution (with the
    step's notice), a deadline of the open step, or the viewer's own post stored."""
    from voevoda.core.notices import Receiver, compose

    check_options(fmt=fmt, lang=lang)
    scope = "public" if viewer == PUBLIC else "gm" if viewer == GM else "seat"
    receiver = Receiver(scope, viewer if scope == "seat" else None, None, lang)
    if kind == "resolved":
        if not game.steps:
            return ""
        step = game.steps[-1].number
        payload = game.steps[-1].notice()
    elif kind == "deadline":
        step, payload = game.step_number + 1, {"due_local": "06.12.2026 18:00 MSK"}
    else:
        step, payload = game.step_number + 1, {"player": viewer}
    content = compose(_GameView(game, viewer), game.record.name, kind, step, payload, receiver)
    return "" if content is None else content.render(fmt, "discord" if fmt == "markdown" else None)


def check_options(fmt: str = "text", lang: str = "ru", flavour: str | None = None) -> None:
    """Refuse a report format, flavour or language no channel speaks (before a game is loaded)."""
    try:
        check_format(fmt, flavour)
    except ValueError as exc:
        raise GameError(f"--format/--flavour: {exc}", f"--format/--flavour: {exc}") from exc
    if lang not in LANGS:
        raise GameError(f"язык: {' или '.join(LANGS)}", f"language: {' or '.join(LANGS)}")


__all__ = ["CHANNELS", "FORMATS", "LANGS", "Channel", "channel", "check_options", "counts_text", "created_text",
           "error_text", "export_text", "games_lines", "games_text", "map_svg", "order_check_text", "order_echo",
           "order_reply", "order_text", "reopen_text", "report_text", "resolution_text", "rollback_text", "show_json",
           "show_text", "status_text", "step_text", "walk"]


# -- what the clock goes by (docs/clock.md) ------------------------------------------------------


def awaited_seats(game: Game) -> list[str]:
    """The seats the open step awaits, as the public status names them: what the schedule's
    early resolution, the ready marks and the missed-turn count go by."""
    return list(game.awaiting())


def awaited_phase(game: Game) -> str | None:
    """The phase a per-phase deadline is chosen by: the kind of what the open step awaits, read
    from the public view (a deadline is public), else the phase the status names."""
    if game.outcome() is not None:
        return None
    view = game.view(PUBLIC)
    kinds = sorted({prompt.kind for prompt in game.ruleset.awaiting(view).values()})
    if kinds:
        return kinds[0]
    return game.ruleset.progress(view)[1] or None
