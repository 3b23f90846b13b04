"""The Chupacabra of document 003 «Чупакабра»; her odds are ruleset data, so these tests set
them to certainties through house rules."""

from __future__ import annotations

from tests.rulesets.ring_of_power.rop_helpers import make_game, of_kind, play

FOG = ["0909", "0910", "0911", "1010"]
ALWAYS_EATS = {"chupacabra": {"fog": {"move": 0.0, "eat": 1.0, "kill": 0.0, "kill_per_strength": 0.0},
                              "open": {"move": 0.0, "eat": 1.0, "kill": 0.0, "kill_per_strength": 0.0}}}
ALWAYS_DIES = {"chupacabra": {"fog": {"move": 0.0, "eat": 0.0, "kill": 1.0},
                              "open": {"move": 0.0, "eat": 0.0, "kill": 1.0}}}
BASE = {"holdings": {"0101": "A", "2020": "B"}, "fog": FOG}


def test_she_eats_one_unit_of_a_stack_that_runs_into_her() -> None:
    """003 «Чупакабра»: «В Тумане водится злая Чупакабра, которая может сожрать любой
    отряд»; «на неё можно случайно нарваться» — a stack stepping into her hex stops there,
    and she eats one «отряд»: one unit, as the document calls a single piece throughout
    («Пешка – самый слабый отряд», «сожрала три любых отряда»; docs/rulings 31)."""
    ruleset, state = make_game(house_rules=ALWAYS_EATS, chupacabras=["0910"],
                               units=[["A", "officer", "0909"], ["A", "pawn", "0909"]], **BASE)
    state, events = play(ruleset, state, {"A": "ход 0909 0910 0911"})
    left = [u for u in state["units"] if u["owner"] == "A"]
    assert len(left) == 1 and left[0]["hex"] == "0910"
    (meeting,) = of_kind(events, "chupacabra")
    assert meeting["outcome"] == "ate" and meeting["hex"] == "0910" and sum(meeting["units"].values()) == 1
    assert state["chupacabras"][0]["eaten"] == 1


def test_eating_the_whole_stack_option() -> None:
    """The other reading of «сожрать любой отряд» (chupacabra_eats = stack, docs/rulings 31):
    she eats every unit of the stack that meets her."""
    ruleset, state = make_game(house_rules=ALWAYS_EATS, config={"chupacabra_eats": "stack"},
                               chupacabras=["0910"],
                               units=[["A", "officer", "0909"], ["A", "pawn", "0909"]], **BASE)
    state, _ = play(ruleset, state, {"A": "ход 0909 0910"})
    assert not [u for u in state["units"] if u["owner"] == "A"]
    assert state["chupacabras"][0]["eaten"] == 2


def test_she_multiplies_after_three() -> None:
    """003 «Чупакабра»: «Если Чупакабра сожрала три любых отряда, их станет на одну больше» —
    a stack of three stays beside her and is eaten a unit a turn; at the third there are two."""
    ruleset, state = make_game(house_rules=ALWAYS_EATS, chupacabras=["0910"],
                               units=[["A", "officer", "0909"], ["A", "pawn", "0909"], ["A", "pawn", "0909"]],
                               config={"tax_mode": "withheld"}, **BASE)
    state, _ = play(ruleset, state, {"A": "ход 0909 0910"})
    state, _ = play(ruleset, state, {})
    assert len(state["chupacabras"]) == 1 and state["chupacabras"][0]["eaten"] == 2
    state, events = play(ruleset, state, {})
    assert len(state["chupacabras"]) == 2
    assert state["chupacabras"][1]["hex"] in FOG
    assert state["chupacabras"][0]["eaten"] == 0
    assert of_kind(events, "chupacabra_multiplied") == [{"turn": 3, "count": 2}]


def test_counting_stacks_instead_of_units() -> None:
    """The option chupacabra_breeds_on = stacks counts each meal once (docs/rulings)."""
    ruleset, state = make_game(house_rules=ALWAYS_EATS,
                               config={"chupacabra_breeds_on": "stacks", "chupacabra_eats": "stack"},
                               chupacabras=["0910"],
                               units=[["A", "officer", "0909"], ["A", "pawn", "0909"], ["A", "pawn", "0909"]],
                               **BASE)
    state, _ = play(ruleset, state, {"A": "ход 0909 0910"})
    assert len(state["chupacabras"]) == 1 and state["chupacabras"][0]["eaten"] == 1


def test_killed_she_is_reborn_next_turn_elsewhere_in_the_fog() -> None:
    """003 «Чупакабра»: «Если отряды игрока загнали и убили Чупакабру, она появляется на
    следующий ход в другом, случайном гексе где есть туман»."""
    ruleset, state = make_game(house_rules=ALWAYS_DIES, chupacabras=["0910"],
                               units=[["A", "queen", "0909"]], config={"tax_mode": "withheld"}, **BASE)
    state, events = play(ruleset, state, {"A": "ход 0909 0910"})
    assert state["chupacabras"][0]["hex"] is None
    assert of_kind(events, "chupacabra")[0]["outcome"] == "killed"
    assert [u["hex"] for u in state["units"]] == ["0910"]
    state, _ = play(ruleset, state, {})
    reborn = state["chupacabras"][0]["hex"]
    assert reborn in FOG and reborn != "0910"


def test_she_seldom_leaves_the_fog() -> None:
    """003 «Чупакабра»: «она выходит из Тумана крайне редко» — with leave = 0 she never does,
    however often she moves."""
    rules = {"chupacabra": {"fog": {"move": 1.0, "leave": 0.0}}}
    ruleset, state = make_game(house_rules=rules, chupacabras=["0910"], units=[["B", "pawn", "2020"]],
                               config={"tax_mode": "withheld"}, **BASE)
    seen = set()
    for _ in range(15):
        state, _ = play(ruleset, state, {})
        seen.add(state["chupacabras"][0]["hex"])
    assert seen <= set(FOG) and len(seen) > 1


def test_her_rolls_are_sealed() -> None:
    """DESIGN «Dice»: rolls that move hidden things use sealed streams — her moves in the fog
    are not derivable from the turn's public seed."""
    from voevoda.core.dice import Dice

    rules = {"chupacabra": {"fog": {"move": 1.0, "leave": 0.0}}}
    ruleset, state = make_game(house_rules=rules, chupacabras=["0910"], units=[["B", "pawn", "2020"]], **BASE)
    dice = Dice.from_text("sealed")
    ruleset.resolve(state, {"A": [], "B": []}, dice)
    streams = [s for s in dice if s.count]
    assert streams and all(s.sealed for s in streams if s.label.startswith("chupacabra"))


def test_gm_report_tells_where_she_went_and_players_do_not_learn_it() -> None:
    """003 «Видимость»: «Туман полностью скрывает видимость» — her wanderings in the fog are in
    the game master's report only."""
    rules = {"chupacabra": {"fog": {"move": 1.0, "leave": 0.0}}}
    ruleset, state = make_game(house_rules=rules, chupacabras=["0910"], units=[["B", "pawn", "2020"]], **BASE)
    state, events = play(ruleset, state, {})
    gm = ruleset.report(ruleset.view(state, "gm"), events, "gm")
    assert "Чупакабра №1: 0910 →" in gm
    for p in ("A", "B"):
        mine = [e for e in events if e.visible_to(p)]
        assert "Чупакабра №1" not in ruleset.report(ruleset.view(state, p), mine, p)


def test_her_encounter_roll_is_cited_for_verify() -> None:
    """docs/dice.md §5: the encounter event quotes her sealed d1000000 and cites it
    (``chupacabra/<id>/encounter``, draw 0), so that `verify` with the secret holds the quote to
    the dice; whoever only watched the hex gets neither the roll nor the citation."""
    from voevoda.core.dice import CITED, Dice, Stream

    ruleset, state = make_game(house_rules=ALWAYS_EATS, chupacabras=["0910"],
                               units=[["A", "officer", "0909"], ["A", "pawn", "0909"]], **BASE)
    _, events = play(ruleset, state, {"A": "ход 0909 0910 0911"})
    (meeting,) = [e for e in events if e.kind == "chupacabra" and "roll" in e.data]
    assert meeting.audience == ("A",)
    assert meeting.data[CITED] == [{"field": "/roll", "label": "chupacabra/1/encounter", "from": 0, "count": 1,
                                    "sealed": True}]
    dice = Dice.from_text(f"turn/{state['turn']}")
    assert meeting.data["roll"] == Stream(dice.sealed_seed, "chupacabra/1/encounter", True).roll(1_000_000)
    assert all(CITED not in e.data for e in events if e.kind == "chupacabra" and "roll" not in e.data)
