"""Hidden information, proved by non-interference over every output (issue 15).

«Generate pairs of games that differ only in what a viewer may not see (another player's orders,
money, units in fog, sealed bids, an offer under negotiation, the other side's deployment before
it is revealed) and assert that every output for that viewer is byte-identical between the two
games at every step, including the moments when one player has posted and another has not.»

Each ruleset states what it hides (``Ruleset.hidden_parts``, :mod:`voevoda.core.hidden`); every
output channel is walked through :mod:`voevoda.core.outputs`; the visibility table of each game in
``docs/engine.md`` says which parts each role may not see, and every such part must be varied.
The machinery is in ``tests/core/noninterference.py``.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core import noninterference as ni
from tests.core.toy import GUESS_TABLE, TwentyHidden
from voevoda.core import outputs, procedure, registry, words
from voevoda.core.engine import Game
from voevoda.core.hidden import POSTS
from voevoda.core.markup import Block, Paragraph, Spoiler
from voevoda.core.ruleset import PUBLIC

ALL = sorted(registry.available())
RULESETS = [r for r in ALL if registry.configure(r, {}, {}).hidden_parts() is not None]
"""The rulesets that state what they hide: the others fail the first test below."""
GAMES = [r for r in ALL if not r.startswith("toy-")]
NOT_YET: dict[str, str] = {}
"""Rulesets landed before their ``hidden_parts``: xfail(strict=True) until they state them."""
TOY_TABLES = {"toy-twenty": TwentyHidden.TABLE, "toy-guess": GUESS_TABLE}

KNOWN_LEAKS: dict[tuple[str, str], int] = {}
"""Named pairs that fail until the leak they show is fixed (ruleset, pair name) -> issue 15 item;
each is marked xfail(strict=True), so its entry must go when the fix lands. Leaks 4 and 5 (Ring of
Power battle audiences, a rival's desertion and unpaid tax) were fixed by engineer rop."""


def table_of(ruleset_id: str) -> dict[str, dict[str, str]]:
    return TOY_TABLES[ruleset_id] if ruleset_id in TOY_TABLES else ni.visibility_tables()[ruleset_id]


# -- the hook and the table ------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", [
    pytest.param(r, marks=[pytest.mark.xfail(strict=True, reason=NOT_YET[r])] if r in NOT_YET else []) for r in ALL])
def test_every_ruleset_states_what_it_hides(ruleset_id: str) -> None:
    """«A new ruleset gets the test by stating how to vary its hidden parts»: one that states
    nothing fails here, and so does one without a visibility table in docs/engine.md."""
    ni.spec_of(ruleset_id)
    table = table_of(ruleset_id)
    assert POSTS in table, f"{ruleset_id}: its table has no row `{POSTS}` (posts before they are resolved)"
    for key, cells in table.items():
        assert ni.sees(cells["gm"]), f"{ruleset_id}: the game master sees everything, row `{key}` says otherwise"


def test_the_tables_are_read_from_the_document() -> None:
    """The tables the tests use are the ones docs/engine.md shows, one per installed game."""
    tables = ni.visibility_tables()
    missing = set(GAMES) - set(tables) - set(NOT_YET)
    assert not missing, f"docs/engine.md has no visibility table for {missing}"
    assert tables["ring-of-power"]["money"]["player"].startswith("own")
    sample = "## Hidden information\n### `x`\n| key | what | player | public | gm |\n|---|---|---|---|---|\n" \
             "| `a` | A | own | no | yes |\n## Next\n| `b` | B | no | no | yes |\n"
    assert ni.visibility_tables(sample) == {"x": {"a": {"player": "own", "public": "no", "gm": "yes"}}}


# -- the sweep: every moment, every viewer -----------------------------------------------------

@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_viewer_cannot_tell_apart_games_that_differ_only_in_what_it_may_not_see(ruleset_id: str) -> None:
    """At every step of a game (before anyone posts, when some have posted, when all have), for
    every player and the public: a second game with a hidden part varied, or another player's
    post replaced, gives byte-identical outputs on every channel; a replaced post, resolved,
    gives identical outputs wherever the viewer's view and events stay the same. Every row of the
    game's visibility table that a role may not see is varied for that role."""
    result = ni.sweep(ruleset_id, ni.SEEDS[0])
    assert result.compared > 0
    hidden = ni.hidden_rows(table_of(ruleset_id))
    missing = hidden - result.exercised
    assert not missing, f"{ruleset_id}: hidden parts never varied: {sorted(missing)}"
    extra = {what for what, _ in result.exercised} - set(table_of(ruleset_id))
    assert not extra, f"{ruleset_id}: variations outside its table in docs/engine.md: {sorted(extra)}"
    unreached = set(ni.spec_of(ruleset_id).sealed_phases()) - result.phases
    assert not unreached, f"{ruleset_id}: sealed phases where no other player's post was varied: {sorted(unreached)}"


# -- named pairs through resolutions -----------------------------------------------------------

def pair_cases() -> list[object]:
    cases = []
    for ruleset_id in RULESETS:
        for pair in ni.spec_of(ruleset_id).pairs():
            leak = KNOWN_LEAKS.get((ruleset_id, pair.name))
            marks = [pytest.mark.xfail(strict=True, reason=f"issue 15 leak {leak}: fixed by engineer rop in the "
                                                            "Ring of Power ruleset")] if leak else []
            cases.append(pytest.param(ruleset_id, pair.name, marks=marks, id=f"{ruleset_id}: {pair.name}"))
    return cases


@pytest.mark.parametrize(("ruleset_id", "name"), pair_cases())
def test_named_pairs_look_the_same_to_their_viewer(ruleset_id: str, name: str) -> None:
    """Pairs the rules say look the same to a viewer through a resolution (a battle seen only
    from a supporter's hex, a rival's desertion or unpaid tax next door, losing sealed bids, a
    declined offer, armies before the battle): each pair quotes its rule."""
    pair = next(p for p in ni.spec_of(ruleset_id).pairs() if p.name == name)
    assert pair.rule
    ni.play_pair(ruleset_id, pair)


@pytest.mark.parametrize("viewer", ["Анна", PUBLIC])
def test_the_void_order_pair_leaves_an_order_void_in_one_game(viewer: str) -> None:
    """New Worlds, docs/engine.md row `orders`: «which of a player's orders the turn refused» is
    the player's own. The pair that hides it must make one: the game master's fine leaves
    Борис's settling void in game a (his report says so), and in game b he gave no order; and
    the viewer cannot tell the games apart (:func:`ni.play_pair`)."""
    pair = next(p for p in ni.spec_of("new-worlds").pairs() if p.name == f"an order the turn leaves void, seen by {viewer}")
    a, b = ni.play_pair("new-worlds", pair)
    void = [[e.data["order"]["text"] for e in g.events_for("Борис") if e.kind == "order_void"] for g in (a, b)]
    assert void == [["занять X8"], []]
    assert "не исполнено «занять X8»" in a.report("Борис")
    assert not [e for e in a.events_for(viewer) if e.kind == "order_void"]


def test_every_known_leak_names_a_pair() -> None:
    names = {(r, p.name) for r in RULESETS for p in ni.spec_of(r).pairs()}
    assert set(KNOWN_LEAKS) <= names


# -- hidden config -----------------------------------------------------------------------------

def config_cases() -> list[tuple[str, str]]:
    cases = []
    for ruleset_id in RULESETS:
        spec = ni.spec_of(ruleset_id)
        cls = registry.get(ruleset_id)
        setting = spec.setting(cls.min_players, cls.max_players)
        for viewer in [*setting.players, PUBLIC]:
            if spec.config_variations(setting.config, setting.players, viewer, random.Random(0)):
                cases.append((ruleset_id, viewer))
    return cases


@pytest.mark.parametrize(("ruleset_id", "viewer"), config_cases())
def test_a_hidden_config_stays_hidden(ruleset_id: str, viewer: str) -> None:
    """Steel Rose: «Игрокам НЕдоступна ... Составы и расположение армий противника». Two games
    whose configs differ only in what the viewer may not see (the other side's army, powder)
    give the viewer identical outputs from creation, and after each post and resolution for as
    long as the viewer's view and events stay the same (leak 2: the config in the public
    export)."""
    spec = ni.spec_of(ruleset_id)
    cls = registry.get(ruleset_id)
    setting = spec.setting(cls.min_players, cls.max_players)
    for attempt in range(3):
        rnd = random.Random(f"config/{viewer}/{attempt}")
        varied = spec.config_variations(setting.config, setting.players, viewer, rnd)[0].apply(setting.config)
        a = Game.create(ruleset_id, "cfg", list(setting.players), config=dict(setting.config), seed="cfg")
        b = Game.create(ruleset_id, "cfg", list(setting.players), config=dict(varied), seed="cfg")
        ni.lockstep(a, b, viewer, rnd, f"{ruleset_id}: config varied for {viewer}")


# -- secrets by value ----------------------------------------------------------------------------

def forms(value: int) -> list[str]:
    """The ways reports write a number: plain, grouped by the words module in either language,
    with no-break and narrow spaces, with a decimal part."""
    found = {str(value), words.number(value, "ru"), words.number(value, "en"), f"{value:,}",
             f"{value:,}".replace(",", " "), f"{value:,}".replace(",", "\u202f"), f"{value},0", f"{value}.0"}
    return sorted(found)


def found_in(value: int, texts: dict[str, str | bytes | None]) -> list[str]:
    patterns = [re.compile(r"(?<![0-9A-Fa-f])" + re.escape(f) + r"(?![0-9A-Fa-f])") for f in forms(value)]
    hits = []
    for label, text in texts.items():
        if isinstance(text, str) and any(p.search(text) for p in patterns):
            hits.append(label)
    return hits


@pytest.mark.parametrize("ruleset_id", RULESETS)
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_output_shows_a_secret_by_value(ruleset_id: str, data: st.DataObject) -> None:
    """Secrets by value: a distinctive number put where a viewer may not see it (another
    player's treasury, tax due, income or statement, a unit's contracted upkeep, a sealed bid or
    transfer in a pending post, an offer's coins, the other side's powder) appears in no output
    for that viewer, in any form reports write numbers («12 345», "12,345", «12345,0»); nor does
    any of the ruleset's hidden markers (``Ruleset.hidden_markers``) for that viewer."""
    moments = ni.moments(ruleset_id, ni.SEEDS[0])
    moment = data.draw(st.sampled_from(moments), label="moment")
    viewer = data.draw(st.sampled_from(ni.viewers(moment.game)), label="viewer")
    value = data.draw(st.integers(min_value=10_000, max_value=9_999_999), label="value")
    spec = ni.spec_of(ruleset_id)
    game = moment.game
    planted = spec.plant(game.state, viewer, value)
    posts = [(p, t) for p in game.waiting_for() if p != viewer
             for t in spec.plant_posts(game.view(p), p, value)]
    choices = [("state", i) for i in range(len(planted))] + [("post", i) for i in range(len(posts))]
    if not choices:
        return
    kind, index = data.draw(st.sampled_from(choices), label="where")
    before = found_in(value, _outputs_now(ruleset_id, moment.label, viewer))
    game = ni.fork(game)
    if kind == "state":
        game.state = planted[index].apply(game.state)
        where = planted[index].what
    else:
        player, text = posts[index]
        accepted, reply = outputs.order_reply(game, player, text)
        if not accepted:
            return
        where = f"{player}'s post «{text}»"
    texts = ni.everything(game, viewer, [], past=False)
    hits = [label for label in found_in(value, texts) if label not in before]
    assert not hits, f"{ruleset_id}: {value} ({where}) reaches {viewer} through {hits[:4]}"
    # the marker search of tests/core/test_leaks.py, on the same outputs
    markers = game.ruleset.hidden_markers(game.state, viewer)
    leaked = sorted({m for m in markers for text in texts.values() if isinstance(text, str) and m in text})
    assert not leaked, f"{ruleset_id}: {viewer} can see {leaked[:3]} ({where})"


@functools.cache
def _outputs_now(ruleset_id: str, label: str, viewer: str) -> dict[str, str | bytes | None]:
    """The outputs of a moment before anything is planted (a number found there already is no
    leak: a step seed may hold the same digits)."""
    moment = next(m for m in ni.moments(ruleset_id, ni.SEEDS[0]) if m.label == label)
    return ni.everything(moment.game, viewer, [], past=False)


def test_the_value_search_finds_every_form() -> None:
    """The search is not vacuous: each form a report may write is found, and a seed's hex digits
    around the same digits are not a hit."""
    value = 1234567
    for text in ("казна 1 234 567 монет", "treasury 1,234,567", "1234567", "1\u202f234\u202f567", "(1234567,0)"):
        assert found_in(value, {"x": text}), text
    assert not found_in(value, {"x": "seed a1234567f"}) and not found_in(value, {"x": "11234567"})


# -- the test finds the leaks it was written for ---------------------------------------------------

def test_the_sweep_catches_a_status_that_shows_every_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leak 1 as it was: a status that printed every awaited player's prompt (Ring of Power's
    carrying each treasury) is caught, here on a short game."""
    def every_prompt(game: Game, viewer: str) -> str:
        return "\n".join(f"{p}: {prompt.text_ru}" for p, prompt in game.awaiting().items())

    monkeypatch.setitem(outputs.CHANNELS, "status", outputs.CHANNELS["status"].__class__(
        "status", "voevoda status", every_prompt, outputs.CHANNELS["status"].variants))
    game = ni.moments("ring-of-power", ni.SEEDS[1], 1)[0].game
    other = ni.fork(game)
    other.state["players"]["Борис"]["money"] += 17
    with pytest.raises(AssertionError, match="status"):
        ni.compare_now(game, other, "Анна", "planted")


def test_the_sweep_catches_an_offer_in_the_status() -> None:
    """Leak 3 as it was: the reply prompt, which carries the offer, seen by an outsider."""
    moment = next(m for m in ni.moments("culture-conquest", ni.SEEDS[0])
                  if m.game.state.get("pending") and m.game.state["pending"]["kind"] == "reply")
    game = moment.game
    offer = game.state["pending"]["offer"]
    outsider = next(p for p in game.record.players if p not in (offer["from"], offer["to"]))
    spec = ni.spec_of("culture-conquest")
    other = ni.fork(game)
    other.state = spec.state_variations(game.state, outsider, random.Random(1))[0].apply(game.state)
    ni.compare_now(game, other, outsider, "the real status")
    original = outputs.CHANNELS["status"]

    def every_prompt(g: Game, viewer: str) -> str:
        return "\n".join(f"{p}: {prompt.text_ru}" for p, prompt in g.awaiting().items())

    outputs.CHANNELS["status"] = original.__class__("status", "voevoda status", every_prompt, original.variants)
    try:
        with pytest.raises(AssertionError, match="status"):
            ni.compare_now(game, other, outsider, "planted")
    finally:
        outputs.CHANNELS["status"] = original


def test_the_config_check_catches_a_public_export_with_the_armies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leak 2 as it was: the public export carrying the whole config."""
    cls = registry.get("steel-rose-battle")
    monkeypatch.setattr(cls, "public_config", lambda self: dict(self.config))
    with pytest.raises(AssertionError, match="export"):
        test_a_hidden_config_stays_hidden("steel-rose-battle", "Борис")


# -- leak 7: a rolled-back step is no second look at its dice -------------------------------------

def test_a_rolled_back_step_gives_no_second_look_at_its_dice() -> None:
    """Leak 7, as a leak of future information: once a step is resolved its seed is in every
    report, so every player knows that step's dice. After a rollback the step must happen as
    everyone saw it: a post may not change on that knowledge (issue 16: «the rolled-back posts
    stand frozen unless the game master reopens a named player's post, with a reason»), and a
    reopening is a public act, in the public chronicle with its reason."""
    game = Game.create("toy-guess", "rollback", ["Анна", "Борис"], seed="rollback")
    for player, number in (("Анна", 1), ("Борис", 2)):
        assert outputs.order_reply(game, player, f"число {number}")[0]
    first = game.resolve()
    assert first.seed in outputs.report_text(game, "Анна")
    face = next(int(e.data["face"]) for e in first.events if e.kind == "die")
    game.rollback(reason="проверка отката")
    accepted, reply = outputs.order_reply(game, "Анна", f"число {face}")
    assert not accepted, f"Анна changed her post knowing the die: {reply}"
    again = game.resolve()
    assert again.seed == first.seed
    assert [e.to_json() for e in again.events if e.kind == "die"] == [e.to_json() for e in first.events
                                                                       if e.kind == "die"]
    assert again.submissions["Анна"].text == "число 1"
    game.rollback(reason="ещё раз")
    game.reopen("Анна", reason="опечатка в приказе")
    assert outputs.order_reply(game, "Анна", f"число {face}")[0]
    assert "опечатка в приказе" in outputs.report_text(game, PUBLIC)


@pytest.mark.parametrize(("ruleset_id", "name"), [
    ("thrones", "a rival's bribe before it is rolled"),
    ("steel-rose", "the enemy's deployment before both have deployed"),
    ("steel-rose", "the enemy's plan before the battle")])
def test_a_revealed_pair_catches_a_rivals_pending_post_in_the_status(
        monkeypatch: pytest.MonkeyPatch, ruleset_id: str, name: str) -> None:
    """A pair compared until its last step reveals it: a status that showed what the other side
    has posted (Борис's bribe and its guesses, the Principality's deployment or plan) is caught
    before anything is rolled."""
    def with_posts(game: Game, viewer: str) -> str:
        return "\n".join(f"{p}: {s.text}" for p, s in sorted(game.pending.items()))

    monkeypatch.setitem(outputs.CHANNELS, "status", outputs.CHANNELS["status"].__class__(
        "status", "voevoda status", with_posts, outputs.CHANNELS["status"].variants))
    pair = next(p for p in ni.spec_of(ruleset_id).pairs() if p.name == name)
    assert pair.revealed
    with pytest.raises(AssertionError, match="status"):
        ni.play_pair(ruleset_id, pair)


# -- seeds that depend on the posts (dice procedure 2) ---------------------------------------------

def payment_pair() -> ni.Pair:
    """Thrones: Борис pays Вера in one game and posts nothing in the other; Анна may not tell."""
    return next(p for p in ni.spec_of("thrones").pairs() if p.name == "a payment between two other houses")


def test_a_hidden_post_changes_only_its_commitment_and_the_digests() -> None:
    """docs/engine.md «Seeds that depend on posts» (docs/dice.md §3): Борис's post differs between
    the two games, so do his commitment and the step's honest seed; the second game draws the
    first's dice, and then the only values of Анна's outputs that differ are the ones the machinery
    masks (Борис's commitment and the digests covering it): the games still look the same to her."""
    a, b = ni.play_pair("thrones", payment_pair())
    first, second = a.steps[0], b.steps[0]
    assert first.inputs is not None and second.inputs is not None
    assert first.inputs["posts"]["Борис"]["commitment"] != second.inputs["posts"]["Борис"]["commitment"]
    assert first.inputs["posts"]["Анна"] == second.inputs["posts"]["Анна"]
    honest = procedure.step_seed(bytes.fromhex(second.link), bytes.fromhex(second.inputs_digest)).hex()
    assert honest != first.seed and second.seed == first.seed, "the second game draws the first game's dice"
    mask_a, mask_b = ni.masks(a, b, "Анна")
    assert sorted(mask_a.values()) == sorted(mask_b.values()) == [
        "<step 1 commitment of Борис>", "<step 1 digest>", "<step 1 inputs digest>"]  # the notice's inputs digest
    ours, theirs = ni.everything(a, "Анна", []), ni.everything(b, "Анна", [])
    assert ni.difference(ours, theirs) is not None, "unmasked, the export shows the differing commitment"
    assert ni.apart(a, b, "Анна", ours, theirs) is None


def test_a_plain_hash_of_a_post_beside_the_commitments_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The masking lets nothing but the named opaque values through: a report that also printed a
    plain SHA-256 of every post (which gives a short post away to anyone who hashes the few texts
    it can be: docs/dice.md §3, «Salted commitments, not hashes») is a leak the test finds."""
    trail = Game.dice_trail

    def leaky(self: Game, turn: int | None, lang: str = "ru", viewer: str = PUBLIC) -> Block:
        block = trail(self, turn, lang, viewer)
        assert isinstance(block, Spoiler)
        block.blocks.append(Paragraph(" ".join(hashlib.sha256(s.text.encode()).hexdigest()
                                               for step in self.steps for s in step.submissions.values())))
        return block

    monkeypatch.setattr(Game, "dice_trail", leaky)
    with pytest.raises(AssertionError, match="step 1 resolved: Анна can tell the games apart:\n(report|notification)"):
        ni.play_pair("thrones", payment_pair())


def test_a_leak_through_the_dice_is_still_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the second game on the first game's dice, what the hidden difference does to the dice is
    compared as before: a ruleset that drew one more public die for each of Борис's transfers (its
    count a hidden post's) would show it in the public export's records."""
    from voevoda.rulesets.thrones.ruleset import Thrones

    resolve = Thrones.resolve

    def counting(self: Thrones, state: dict, orders: dict, dice: object) -> object:
        result = resolve(self, state, orders, dice)
        for _ in orders.get("Борис", []):
            dice.stream("tell").roll(6)  # type: ignore[attr-defined]
        return result

    monkeypatch.setattr(Thrones, "resolve", counting)
    with pytest.raises(AssertionError, match="step 1 resolved: Анна can tell the games apart:\nexport --public"):
        ni.play_pair("thrones", payment_pair())


# -- the Telegram bot's answers and pushes (issue 27, «Hidden information») --------------------------

def test_the_bots_answers_and_pushes_are_walked_channels() -> None:
    """«a message to a chat is an output channel of its viewer; the non-interference test covers
    the bot's answers and pushes»: every message the bot sends about a game is one of these
    channels, walked for every viewer (none merely follows another, the post alone acts)."""
    names = ["telegram status", "telegram report", "telegram map", "telegram check", "telegram post",
             "telegram push", "telegram reminder"]
    for name in names:
        assert name in outputs.CHANNELS, name
        assert outputs.CHANNELS[name].follows is None
        assert outputs.CHANNELS[name].acts == (name == "telegram post")
    game = ni.moments("ring-of-power", ni.SEEDS[1], 1)[-1].game
    walked = {label.split(" lang=")[0].split(" deadline=")[0] for label, _ in outputs.walk(game, "Анна", ["ход 0303 0403"])}
    assert {n for n in names if n != "telegram post"} <= {w.split(" text=")[0].split(" turn=")[0] for w in walked}


def test_the_sweep_catches_a_push_that_carries_another_players_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """A push that carried every player's report and map to each chat (a private report in
    another player's chat) is caught: Анна can tell apart games that differ only in what she may
    not see of Борис."""
    from voevoda.core import chat

    def every_report(game: Game, viewer: str, lang: str = "ru") -> str:
        return chat.messages_text([m for p in game.record.players for m in outputs.chat_push(game, p, lang)])

    original = outputs.CHANNELS["telegram push"]
    monkeypatch.setitem(outputs.CHANNELS, "telegram push", original.__class__(
        "telegram push", original.command, every_report, original.variants))
    game = ni.moments("ring-of-power", ni.SEEDS[1], 2)[-1].game
    assert game.steps, "a step is resolved: there is a report to push"
    other = None
    for variation in ni.spec_of("ring-of-power").state_variations(game.state, "Анна", random.Random(3)):
        candidate = ni.fork(game)
        candidate.state = variation.apply(game.state)
        if outputs.chat_push(candidate, "Борис") != outputs.chat_push(game, "Борис"):
            other = candidate  # hidden from Анна, and in Борис's push (his map)
            break
    assert other is not None
    monkeypatch.setitem(outputs.CHANNELS, "telegram push", original)
    ni.compare_now(game, other, "Анна", "the real push", tries=[])
    monkeypatch.setitem(outputs.CHANNELS, "telegram push", original.__class__(
        "telegram push", original.command, every_report, original.variants))
    with pytest.raises(AssertionError, match="telegram push"):
        ni.compare_now(game, other, "Анна", "planted", tries=[])
