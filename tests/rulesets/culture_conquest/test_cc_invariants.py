"""Whatever the dice and the strategies, the state stays a possible one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from voevoda.core.dice import Dice
from voevoda.rulesets.culture_conquest import phases
from voevoda.rulesets.culture_conquest.bots import decide
from voevoda.rulesets.culture_conquest.choices import default_choice
from voevoda.rulesets.culture_conquest.data import load_tables
from voevoda.rulesets.culture_conquest.game import CATEGORIES, Options, cut_view, scholar_cap
from voevoda.rulesets.culture_conquest.setup import new_game

TABLES = load_tables()


def assert_possible(state: dict[str, Any]) -> None:
    holders: dict[str, str] = {}
    for name, p in state["players"].items():
        assert all(p["pop"][c] >= 0 for c in CATEGORIES), (name, p["pop"])
        assert p["coins"] >= 0 and p["food"] >= 0, (name, p["coins"], p["food"])
        assert p["pop"]["scholars"] <= max(scholar_cap(p, TABLES), 0) or p["pop"]["scholars"] == 0
        assert all(n > 0 for n in p["resources"].values())
        for group in TABLES.techs.exclusive_groups:
            assert sum(TABLES.techs.technologies[t].group == group for t in p["techs"]) <= 1
        assert len(set(p["techs"])) == len(p["techs"])
        for city in p["cities"]:
            if city["wonder"]:
                assert city["wonder"] not in holders, "a wonder stands in one city only"
                holders[city["wonder"]] = name
    for wonder, record in state["wonders"].items():
        if record["lost"]:
            assert wonder not in holders
        else:
            assert holders[wonder] == record["owner"]
    names = [c["name"] for p in state["players"].values() for c in p["cities"]]
    assert len(names) == len(set(names)), "city names are unique"


@settings(max_examples=12, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), seats=st.lists(st.sampled_from(["builder", "warmonger", "default"]),
                                                            min_size=1, max_size=5))
def test_state_stays_possible(seed: str, seats: list[str]) -> None:
    """After every resolution: no negative people, coins or food; scholars within «1 на
    каждый город»; one religion and one government; «Чудеса уникальны»; unique cities."""
    players = [f"P{i}" for i in range(len(seats))]
    options = Options(turns=12)
    dice = Dice.from_text(seed)
    g = new_game(players, dice, TABLES, options)
    while not g.state["finished"]:
        choices = {}
        for p in g.state["pending"]["players"]:
            kind = seats[players.index(p)]
            if kind == "default":
                choices[p] = default_choice(g.state, TABLES, options, p)
            else:
                choices[p] = decide(cut_view(g.state, p), p, dice.stream(f"bot/{p}"), TABLES, options, kind)
        phases.answer(g, choices)
        assert_possible(g.state)


PROJECT = st.fixed_dictionaries({
    "project": st.sampled_from(["city", "wonder", "resource", "industrial"]),
    "target": st.none(), "name": st.sampled_from([None, "Фивы", "Мемфис"]), "labour": st.integers(0, 120)})


def _target(part: dict[str, Any]) -> dict[str, Any]:
    part = dict(part)
    if part["project"] == "wonder":
        part.update(target="pyramids", name=None)
    elif part["project"] == "industrial":
        part.update(target="wine", name=None)
    elif part["project"] == "resource":
        part["name"] = None
    return part


@settings(max_examples=300, deadline=None)
@given(under_way=st.lists(PROJECT, max_size=4), alloc=st.lists(PROJECT, max_size=6), spare=st.integers(0, 30))
def test_every_unit_of_labour_is_accounted_for(under_way: list[dict[str, Any]], alloc: list[dict[str, Any]],
                                               spare: int) -> None:
    """ФАЗА СТРОИТЕЛЬСТВА (issue 18 item 14): whatever the lines, the labour of the turn is what
    the projects gained plus what the plan says is lost, no project holds more than it costs
    unless it did before, and nothing is lost but beyond a wonder's or a named city's need."""
    from voevoda.rulesets.culture_conquest.game import new_player, plan_build, project_labour

    p = new_player(10, [{"name": "A-1", "wonder": None}])
    p["techs"] = ["engineering", "fermentation"]
    p["resources"] = {"fruit": 1, "stone": 2}
    seen: set[tuple[str, str | None, str | None]] = set()
    for project in map(_target, under_way):
        key = (project["project"], project["target"], project["name"])
        if project["project"] in ("wonder", "city") and key in seen:
            continue
        seen.add(key)
        record = {"project": project["project"], "target": project["target"], "labour": project["labour"]}
        if project["name"] and project["project"] == "city":
            record["name"] = project["name"]
        p["projects"].append(record)
    lines = [_target(part) for part in alloc]
    labour = sum(part["labour"] for part in lines) + spare
    options = Options()
    plan = plan_build(p, lines, labour, TABLES, options)
    gained = sum(x["labour"] for x in plan.projects) - sum(x["labour"] for x in p["projects"])
    assert gained + plan.lost == labour
    assert plan.unassigned == spare
    for index, part in enumerate(lines):
        if plan.over[index]:
            assert part["project"] == "wonder" or (part["project"] == "city" and part["name"])
    for old, new in zip(p["projects"], plan.projects, strict=False):
        assert new["labour"] >= old["labour"]
    for new in plan.projects[len(p["projects"]):]:
        cost = project_labour(p, new["project"], new.get("target"), TABLES, options)
        assert 0 < new["labour"] <= max(cost, 1)
