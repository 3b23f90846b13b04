"""Any valid pair of armies and plans fights to a consistent end (property test)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voevoda.core.dice import Dice
from voevoda.rulesets.steel_rose.battle import field as fld
from voevoda.rulesets.steel_rose.battle.engine import fight
from voevoda.rulesets.steel_rose.battle.model import Manoeuvre, SideInput, SquadInput
from voevoda.rulesets.steel_rose.battle.posts import parse_plan
from voevoda.rulesets.steel_rose.rules import load_rules

RULES = load_rules()
UNITS = sorted(RULES.units)
KINDS = ["move", "march", "defend", "cover", "charge", "volley", "long_volley"]
WORDS = {"move": "move", "march": "forced march", "defend": "defend", "cover": "take cover",
         "charge": "charge", "volley": "volley", "long_volley": "long-range volley"}
ACCEPTED = {k: 0 for k in KINDS}


@st.composite
def army(draw):
    vanguards = draw(st.lists(st.sampled_from(fld.FLANKS), min_size=1, max_size=3, unique=True))
    positions = [fld.at(f, "vanguard") for f in vanguards]
    positions += [fld.at(f, "rearguard") for f in vanguards if draw(st.booleans())]
    squads = []
    for p in positions:
        kinds = draw(st.lists(st.sampled_from(UNITS), min_size=1, max_size=draw(st.sampled_from([1, 1, 3])),
                              unique=True))
        units = {u: (1 if RULES.units[u].one_per_squad else draw(st.integers(1, 6))) for u in kinds}
        squads.append(SquadInput(p, units))
    return squads


@st.composite
def battle(draw):
    a, b = draw(army()), draw(army())
    plans = []
    for own, enemy in ((a, b), (b, a)):
        lines = []
        for sq in own:
            kind = draw(st.sampled_from(KINDS))
            rears = [e.position for e in enemy if fld.rank_of(e.position) == "rearguard"]
            if kind == "charge" and rears:
                target = draw(st.sampled_from(rears))
            elif kind in ("charge", "volley", "long_volley"):
                target = draw(st.sampled_from([e.position for e in enemy]))
            else:
                target = draw(st.sampled_from(fld.POSITIONS))
            lines.append(Manoeuvre(sq.position, kind, (target,)))
        # keep only what a planning post could say
        text = "\n".join(f"{fld.label_en(m.squad)}: {WORDS[m.kind]} {fld.label_en(m.targets[0])}" for m in lines)
        plan = parse_plan(text, RULES, own, enemy)
        accepted = []
        seen = set()
        for m in plan.manoeuvres:
            if m.squad not in seen:
                accepted.append(m)
                ACCEPTED[m.kind] += 1
                seen.add(m.squad)
        plans.append(tuple(accepted))
    gunpowder = draw(st.one_of(st.none(), st.integers(0, 60)))
    return (SideInput("A", "empire", tuple(a), plans[0], gunpowder),
            SideInput("B", "void_cult", tuple(b), plans[1], None, garrison=draw(st.booleans())))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(battle(), st.integers(0, 10**6))
def test_battles_end_consistently(sides, seed):
    """Whatever the armies and manoeuvres: the battle ends, every unit is counted once (dead,
    survivor or withdrawn), the winner is the side with survivors, and replaying gives the same
    result."""
    r1 = fight(RULES, sides, Dice.from_text(str(seed)))
    r2 = fight(RULES, sides, Dice.from_text(str(seed)))
    assert r1.to_json() == r2.to_json()
    summary = r1.summary
    for side, spec in zip(summary["sides"], sides, strict=True):
        for sq_out, sq_in in zip(side["squads"], spec.squads, strict=True):
            assert sq_out["units"] == {u: n for u, n in sq_in.units.items()} or \
                sorted(sq_out["units"].items()) == sorted(sq_in.units.items())
            total = {}
            for key in ("dead", "survivors", "withdrawn"):
                for u, n in sq_out[key].items():
                    total[u] = total.get(u, 0) + n
            fielded = dict(sq_out["units"])
            for u, n in sq_out["summoned"].items():
                fielded[u] = fielded.get(u, 0) + n
            assert total == fielded
    alive = [bool(s["survivors"]) for s in summary["sides"]]
    if summary["winner"] is not None:
        assert alive[summary["winner"]] and not alive[1 - summary["winner"]]


def test_property_battles_used_every_manoeuvre():
    """The generated plans exercised every manoeuvre (guards the property test itself)."""
    test_battles_end_consistently()
    assert all(ACCEPTED.values()), ACCEPTED
