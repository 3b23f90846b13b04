"""The machinery of the non-interference tests (issue 15, «The proof that replaces spot checks»).

A *moment* is a game at some point of its life: before anyone has posted in a step, after some
have, after all have. Moments come from games every ruleset plays against itself, with posts
chosen among its computer opponent's and the other posts its ``HiddenParts`` offers. At a moment,
for a viewer, a *variation* is a second game that differs only in what that viewer may not see
(a state from ``state_variations``, another player's pending post replaced); every output the
viewer can reach (``voevoda.core.outputs.walk``) must then be byte-identical in the two games.
Through a resolution the two games may legitimately come apart (a hidden army marches into
view); they are compared again wherever the viewer's view and visible events are still the
same, since every output must be built from those alone.

Dice procedure 2 derives a step's seeds from salted commitments to its posts (docs/dice.md §3),
so two games that differ in a hidden post draw other dice, by design: the second game of every
comparison through a resolution draws each step's dice from the first game's seeds
(:func:`pin_dice`), so that what the hidden difference itself does is compared exactly as before.
What is then allowed to differ, and nothing else, are the opaque values that commit to what the
viewer may not see — another seat's post commitment, the setup's commitment to the config — and
the record digests that cover them (:func:`opaque`); each is replaced by the name of its role in
both games' outputs before they are compared (:func:`masks`).
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from voevoda.core import outputs, registry
from voevoda.core.dice import Dice
from voevoda.core.engine import Game
from voevoda.core.errors import VoevodaError
from voevoda.core.hidden import POSTS, HiddenParts, Pair
from voevoda.core.ruleset import PUBLIC, Viewer

ENGINE_DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def fork(game: Game) -> Game:
    """An independent copy of ``game``: everything but the (pure) ruleset and the hash chain."""
    clone = copy.copy(game)
    for key, value in vars(game).items():
        if key not in ("ruleset", "chain"):
            setattr(clone, key, copy.deepcopy(value))
    return clone


def spec_of(ruleset_id: str) -> HiddenParts:
    spec = registry.configure(ruleset_id, {}, {}).hidden_parts()
    assert spec is not None, (f"{ruleset_id} states no hidden parts: give it Ruleset.hidden_parts() "
                              "(voevoda.core.hidden, docs/engine.md «Hidden information»)")
    return spec


def viewers(game: Game) -> list[Viewer]:
    return [*game.record.players, PUBLIC]


def now_only(name: str, params: dict[str, object]) -> bool:
    """The outputs of the present moment: past turns' reports and maps left out."""
    return params.get("turn") is None


def everything(game: Game, viewer: Viewer, posts: list[str], past: bool = True) -> dict[str, str | bytes | None]:
    """Every output for ``viewer`` (an error is an output too: its text). Channels that only
    transform another's output (the PNG map) are left out; ``past=False`` leaves out past
    turns' reports and maps, which a change of the present state or posts cannot reach."""
    found: dict[str, str | bytes | None] = {}
    iterator = outputs.walk(game, viewer, posts, select=None if past else now_only, derived=False)
    while True:
        try:
            label, out = next(iterator)
        except StopIteration:
            return found
        except VoevodaError as exc:
            found[f"error {len(found)}"] = outputs.error_text(exc)
            continue
        found[label] = out


HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def pin_dice(b: Game, a: Game) -> None:
    """Let ``b`` draw the dice of each step it resolves from ``a``'s seeds of that step (``a``
    resolves it first): the games differ in hidden posts, whose commitments enter the seeds."""
    def seeds(number: int, digest: bytes | None) -> tuple[bytes, bytes]:
        step = a.steps[number - 1]
        return a._step_seeds(number, bytes.fromhex(step.inputs_digest) if step.inputs_digest else None)

    b._step_seeds = seeds  # type: ignore[method-assign]


def opaque(game: Game, viewer: Viewer) -> dict[str, str]:
    """The values that may differ between two games that differ only in what ``viewer`` may not
    see, by role: the commitments to other seats' posts (docs/dice.md §3), the setup's commitment
    to the whole config (§6) and the digests of the records that cover them. The viewer's own
    post's commitment is not among them: it is the same in both games."""
    values = {"setup digest": game.setup.digest}
    if game.setup.game is not None:
        values["config commitment"] = game.setup.game["config_commitment"]
    for step in game.steps:
        values[f"step {step.number} digest"] = step.digest
        if step.inputs_digest:  # the digest of the step's salted post commitments (its notice, issue 28)
            values[f"step {step.number} inputs digest"] = step.inputs_digest
        for player, seat in (step.inputs or {}).get("posts", {}).items():
            if player != viewer and "commitment" in seat:
                values[f"step {step.number} commitment of {player}"] = seat["commitment"]
    return values


def masks(a: Game, b: Game, viewer: Viewer) -> tuple[dict[str, str], dict[str, str]]:
    """For each opaque role whose values differ between ``a`` and ``b``: each game's value mapped
    to the same token (the role's name)."""
    ours, theirs = opaque(a, viewer), opaque(b, viewer)
    mask_a: dict[str, str] = {}
    mask_b: dict[str, str] = {}
    for role in sorted(ours.keys() & theirs.keys()):
        if ours[role] != theirs[role]:
            mask_a[ours[role]] = mask_b[theirs[role]] = f"<{role}>"
    return mask_a, mask_b


def masked(outputs: dict[str, str | bytes | None], mask: dict[str, str]) -> dict[str, str | bytes | None]:
    """``outputs`` with every value of ``mask`` replaced by its token."""
    if not mask:
        return outputs
    return {label: HEX64.sub(lambda m: mask.get(m.group(), m.group()), out) if isinstance(out, str) else out
            for label, out in outputs.items()}


def apart(a: Game, b: Game, viewer: Viewer, ours: dict[str, str | bytes | None],
          theirs: dict[str, str | bytes | None]) -> str | None:
    """:func:`difference` of the two games' outputs once their opaque values are masked."""
    mask_a, mask_b = masks(a, b, viewer)
    return difference(masked(ours, mask_a), masked(theirs, mask_b))


def difference(a: dict[str, str | bytes | None], b: dict[str, str | bytes | None]) -> str | None:
    """The first output that differs, with the lines around the change; ``None`` when all agree."""
    for label in sorted(set(a) | set(b)):
        x, y = a.get(label), b.get(label)
        if x == y:
            continue
        xs = x.decode("latin-1") if isinstance(x, bytes) else str(x)
        ys = y.decode("latin-1") if isinstance(y, bytes) else str(y)
        diff = list(difflib.unified_diff(xs.splitlines(), ys.splitlines(), "a", "b", n=1, lineterm=""))
        return f"{label}:\n" + "\n".join(line[:300] for line in diff[:30])
    return None


def seen_by(game: Game, viewer: Viewer) -> str:
    """What the rules let ``viewer`` know: the view and the events it may see. Keys keep their
    order, since outputs may show things in the order the view holds them (a squad's units in the
    order its player wrote them)."""
    return json.dumps({"view": game.view(viewer), "events": [e.to_json() for e in game.events_for(viewer)]},
                      ensure_ascii=False)


def probes(game: Game, viewer: Viewer, rnd: random.Random) -> list[str]:
    """Posts ``viewer`` might try with ``order --check``: written from the viewer's view."""
    if viewer == PUBLIC or viewer not in game.awaiting():
        return []
    texts = candidate_posts(game, viewer, rnd)
    return texts[:2]


def candidate_posts(game: Game, player: str, rnd: random.Random) -> list[str]:
    """Posts ``player`` could send now, from his own view alone: the ruleset's first posts, then
    the computer opponent's and the ruleset's other posts in a random order."""
    view = game.view(player)
    spec = spec_of(game.record.ruleset)
    texts = []
    bot = game.ruleset.bot(view, player, Dice.from_text(f"ni/{rnd.random()}").stream(f"bot/{player}"))
    if bot is not None:
        texts.append(bot)
    texts.extend(spec.posts(view, player, rnd))
    rnd.shuffle(texts)
    return [*spec.first_posts(view, player, rnd), *texts]


def post_something(game: Game, player: str, rnd: random.Random, avoid: str | None = None) -> str | None:
    """Post the first candidate the game accepts (other than ``avoid``); its text, or ``None``."""
    for text in candidate_posts(game, player, rnd):
        if text == avoid:
            continue
        accepted, _ = outputs.order_reply(game, player, text)
        if accepted:
            return text
    return None


@dataclass
class Moment:
    game: Game
    label: str
    fresh: bool = False
    """Nobody has posted yet in this step."""


@dataclass
class Sweep:
    """What a sweep compared, for the coverage check against the visibility table."""

    compared: int = 0
    later: int = 0
    declassified: int = 0
    exercised: set[tuple[str, str]] = field(default_factory=set)
    phases: set[str] = field(default_factory=set)
    """The phases in which another player's post was varied."""


STEPS = {"culture-conquest": 20, "steel-rose-battle": 2, "new-worlds": 3, "thrones": 7}
SEEDS = ("ni-a", "ni-b")


@functools.cache
def moments(ruleset_id: str, seed: str, steps: int | None = None) -> tuple[Moment, ...]:
    """A game of ``ruleset_id`` played for some steps; the moment before anyone posts in each
    step, after about half the awaited players have posted, and after all have."""
    spec = spec_of(ruleset_id)
    cls = registry.get(ruleset_id)
    setting = spec.setting(cls.min_players, cls.max_players)
    game = Game.create(ruleset_id, "ni", list(setting.players), config=dict(setting.config), seed=seed)
    rnd = random.Random(seed)
    found: list[Moment] = []
    for step in range(steps if steps is not None else STEPS.get(ruleset_id, 4)):
        if game.outcome() is not None:
            break
        waiting = game.waiting_for()
        rnd.shuffle(waiting)
        found.append(Moment(fork(game), f"{seed} step {step + 1}, nobody posted", fresh=True))
        half = max(1, len(waiting) // 2)
        for index, player in enumerate(waiting):
            post_something(game, player, rnd)
            if index + 1 == half and len(waiting) > 1:
                found.append(Moment(fork(game), f"{seed} step {step + 1}, {index + 1} of {len(waiting)} posted"))
        found.append(Moment(fork(game), f"{seed} step {step + 1}, all posted"))
        game.resolve(force=True)
    found.append(Moment(fork(game), f"{seed} after {game.step_number} steps", fresh=True))
    return tuple(found)


def compare_now(a: Game, b: Game, viewer: Viewer, why: str, tries: list[str] | None = None,
                base: dict[str, str | bytes | None] | None = None, past: bool = True) -> None:
    """``a`` and ``b`` differ only in what ``viewer`` may not see: every output must agree.
    ``tries`` are posts for ``order --check`` (by default from the viewer's view); ``base`` the
    outputs of ``a`` when they are already known (walked with the same ``past``)."""
    view_a, view_b = seen_by(a, viewer), seen_by(b, viewer)
    assert view_a == view_b, f"{why}: {viewer}'s view or events differ:\n" + "\n".join(
        list(difflib.unified_diff(view_a.split(","), view_b.split(","), lineterm="", n=0))[:12])
    if tries is None:
        tries = probes(a, viewer, random.Random(why))
    mine = base if base is not None else everything(a, viewer, tries, past)
    problem = apart(a, b, viewer, mine, everything(b, viewer, tries, past))
    assert problem is None, f"{why}: {viewer} can tell the games apart:\n{problem}"
    if viewer != PUBLIC and viewer in a.waiting_for() and tries:
        replies = [outputs.order_reply(fork(g), viewer, tries[0])[1] for g in (a, b)]
        assert replies[0] == replies[1], f"{why}: the echo of {viewer}'s post differs"


def resolved(game: Game, like: Game | None = None) -> Game:
    """A copy of ``game`` with its step resolved (missing posts defaulted); with ``like``, on the
    dice ``like`` drew for that step (:func:`pin_dice`)."""
    copy_ = fork(game)
    if like is not None:
        pin_dice(copy_, like)
    if copy_.outcome() is None:
        copy_.resolve(force=True)
    return copy_


def compare_later(a: Game, b: Game, viewer: Viewer, result: Sweep, why: str) -> None:
    """``a`` already resolved, ``b`` not yet: resolve it on ``a``'s dice; where ``viewer`` still
    sees the same view and events, every output must still agree."""
    b = resolved(b, like=a)
    if seen_by(a, viewer) != seen_by(b, viewer):
        result.declassified += 1
        return
    problem = apart(a, b, viewer, everything(a, viewer, []), everything(b, viewer, []))
    assert problem is None, f"{why}, after the step is resolved: {viewer} can tell the games apart:\n{problem}"
    result.later += 1


def variations_at(game: Game, viewer: Viewer, rnd: random.Random, states: int) -> Iterator[tuple[str, Game]]:
    """Second games that differ from ``game`` only in what ``viewer`` may not see: ``states`` of
    the ruleset's state variations (all when fewer), and every other pending post replaced."""
    spec = spec_of(game.record.ruleset)
    found = spec.state_variations(game.state, viewer, rnd)
    for variation in rnd.sample(found, min(states, len(found))):
        other = fork(game)
        other.state = variation.apply(game.state)
        yield variation.what, other
    for player in list(game.pending):
        if player == viewer:
            continue
        other = fork(game)
        if post_something(other, player, rnd, avoid=game.pending[player].text) is not None:
            yield POSTS, other


@functools.cache
def sweep(ruleset_id: str, seed: str, states: int = 2) -> Sweep:
    """Every moment of a game, every viewer: ``states`` state variations and every other pending
    post replaced, compared now; a replaced post, once everyone has posted, also through the
    resolution. Past turns' reports and maps are compared once per step and viewer (on the
    first variation of the step's first moment): nothing later in the step can change them."""
    result = Sweep()
    for moment in moments(ruleset_id, seed):
        after: Game | None = None
        for viewer in viewers(moment.game):
            rnd = random.Random(f"{moment.label}/{viewer}")
            tries = probes(moment.game, viewer, rnd)
            base = everything(moment.game, viewer, tries, past=False)
            for index, (what, other) in enumerate(variations_at(moment.game, viewer, rnd, states)):
                why = f"{ruleset_id}, {moment.label}, {what!r} varied"
                past = moment.fresh and index == 0
                compare_now(moment.game, other, viewer, why, tries, None if past else base, past=past)
                result.exercised.add((what, "public" if viewer == PUBLIC else "player"))
                if what == POSTS:
                    result.phases.add(moment.game.ruleset.progress(moment.game.state)[1])
                result.compared += 1
                if what == POSTS and not moment.game.waiting_for():
                    after = after or resolved(moment.game)
                    compare_later(after, other, viewer, result, why)
    return result


def lockstep(a: Game, b: Game, viewer: Viewer, rnd: random.Random, why: str, steps: int = 4) -> None:
    """Two games that differ only in what ``viewer`` may not see, played side by side: the viewer
    posts the same in both (from the same view), the others post from their own views; ``b``
    draws ``a``'s dice (:func:`pin_dice`). Compared at creation and after every post; after every
    resolution for as long as the viewer's view and events stay the same."""
    pin_dice(b, a)
    compare_now(a, b, viewer, f"{why}, at creation")
    for step in range(1, steps + 1):
        if a.outcome() is not None or b.outcome() is not None:
            return
        assert a.waiting_for() == b.waiting_for(), f"{why}: who is awaited differs"
        for player in a.waiting_for():
            seed = rnd.random()
            text = post_something(a, player, random.Random(seed))
            if player == viewer and text is not None:
                accepted, reply = outputs.order_reply(b, player, text)
                assert accepted, f"{why}: {viewer}'s post is accepted in one game only: {reply}"
            elif player != viewer:
                other = post_something(b, player, random.Random(seed))
                assert (text is None) == (other is None), f"{why}: {player} could post in one game only"
            compare_now(a, b, viewer, f"{why}, step {step}, after {player} posted")
        for game in (a, b):
            game.resolve(force=True)
        if seen_by(a, viewer) != seen_by(b, viewer):
            return
        problem = apart(a, b, viewer, everything(a, viewer, []), everything(b, viewer, []))
        assert problem is None, f"{why}, step {step} resolved: {viewer} can tell the games apart:\n{problem}"


def play_pair(ruleset_id: str, pair: Pair) -> tuple[Game, Game]:
    """Both games of a named pair, compared for the viewer before and after every post, every
    edit and every resolution (but the last of a pair whose last step reveals what it
    varies); the two games, played."""
    games = {}
    for which in ("a", "b"):
        game = Game.create(ruleset_id, "pair", list(pair.setting.players), config=dict(pair.setting.config),
                           seed=f"pair/{pair.name}")
        game.state = pair.prepare(game.state, which)
        games[which] = game
    a, b = games["a"], games["b"]
    pin_dice(b, a)
    viewer = pair.viewer
    compare_now(a, b, viewer, f"{pair.name}, at the start")
    for step, (posts_a, posts_b) in enumerate(zip(pair.posts_a, pair.posts_b, strict=True), start=1):
        assert posts_a.get(viewer) == posts_b.get(viewer), "the viewer's own posts must be the same in both games"
        for player in sorted(set(posts_a) | set(posts_b)):
            for game, posts in ((a, posts_a), (b, posts_b)):
                if player in posts:
                    accepted, reply = outputs.order_reply(game, player, posts[player])
                    assert accepted, f"{pair.name}: {player}'s post is refused: {reply}"
            compare_now(a, b, viewer, f"{pair.name}, step {step}, after {player}'s post")
        edit = pair.edits[step - 1] if step <= len(pair.edits) else None
        if edit is not None:
            for game in (a, b):
                game.edit(*edit)
            compare_now(a, b, viewer, f"{pair.name}, step {step}, after the game master's edit")
        if pair.revealed and step == len(pair.posts_a):
            continue
        for game in (a, b):
            game.resolve(force=True)
        problem = apart(a, b, viewer, everything(a, viewer, []), everything(b, viewer, []))
        assert problem is None, f"{pair.name}, step {step} resolved: {viewer} can tell the games apart:\n{problem}"
    return a, b


# -- the visibility tables of docs/engine.md ---------------------------------------------------

ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|([^|]*)\|([^|]*)\|([^|]*)\|\s*$")


def visibility_tables(text: str | None = None) -> dict[str, dict[str, dict[str, str]]]:
    """``{ruleset id: {row key: {"player": cell, "public": cell, "gm": cell}}}`` from the
    «Hidden information» section of docs/engine.md: one table per game under ``### `id```."""
    text = text if text is not None else ENGINE_DOC.read_text(encoding="utf-8")
    section = text.split("## Hidden information", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, dict[str, dict[str, str]]] = {}
    current: str | None = None
    for line in section.splitlines():
        heading = re.match(r"^### `([^`]+)`", line)
        if heading:
            current = heading.group(1)
            tables[current] = {}
            continue
        row = ROW.match(line)
        if row and current is not None:
            key, _what, player, public, gm = (cell.strip() for cell in row.groups())
            tables[current][key] = {"player": player, "public": public, "gm": gm}
    return tables


def sees(cell: str) -> bool:
    """A cell that begins with «yes»: the role sees that part."""
    words = cell.split()
    return bool(words) and words[0].strip(".,;") == "yes"


def hidden_rows(table: dict[str, dict[str, str]]) -> set[tuple[str, str]]:
    """(row, role) for every row a role does not fully see (a cell that does not begin with «yes»)."""
    return {(key, role) for key, cells in table.items() for role in ("player", "public") if not sees(cells[role])}


def json_of(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
