"""Issue 17 «Errors belong to their author»: «one side's refused line never shows up as the other
side's error («у противника нет отряда…»)». In a battle file both sides' posts are read
together; a line of one side's deployment that cannot be read must not make the other side's
plan wrong for aiming at the squad that line would have placed."""

from __future__ import annotations

from voevoda.rulesets.steel_rose.battle.sides import SideSpec, build_sides
from voevoda.rulesets.steel_rose.rules import load_rules

ATTACKER = SideSpec(
    "Анна", army={"spearman": 20, "horseman": 6},
    deployment="Центральный фланг:\nАвангард - 20 копейщиков\nЛевый фланг:\nАвангард - 6 всадников",
    plan="Левый авангард: натиск на центральный арьергард")


def test_the_defenders_refused_line_is_the_defenders_alone() -> None:
    rules = load_rules()
    defender = SideSpec("Борис", army={"shieldbearer": 8, "musketeer": 8},
                        deployment="Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 драконов")
    _, problems = build_sides((ATTACKER, defender), rules)
    assert problems[0] == [], [p.both() for p in problems[0]]  # Анна's charge is not her error
    assert problems[1] and all(p.line == 3 for p in problems[1])
    assert any("драконов" in p.message_ru for p in problems[1])


def test_a_charge_at_an_empty_place_is_still_its_authors_error() -> None:
    """The same plan against a deployment read whole, with nobody in the centre rearguard:
    then it is Анна's own mistake, and hers alone."""
    rules = load_rules()
    defender = SideSpec("Борис", army={"shieldbearer": 8}, deployment="Центральный фланг:\nАвангард - 8 щитовиков")
    _, problems = build_sides((ATTACKER, defender), rules)
    assert problems[1] == []
    assert any("у противника нет отряда" in p.message_ru for p in problems[0])


def test_a_refused_line_of_a_post_that_stands_is_told_to_its_author_alone() -> None:
    """Issue 30: a post stands with its refused lines void; the reason of a refused line goes to
    its author only. Nothing of it reaches another player or the public in any output, before the
    step is resolved or after (the journal keeps the text, which only the game master exports)."""
    from voevoda.core import outputs
    from voevoda.core.engine import Game
    from voevoda.core.ruleset import PUBLIC

    game = Game.create("ring-of-power", "own", ["Анна", "Борис"], seed="own")
    receipt = game.post("Анна", "ход 0303 0304\nпрыгать-через-реку 0404\nналог 1")
    assert receipt.refused_lines == [2]
    echo = outputs.order_echo(game, "Анна", receipt, check=False)
    assert "прыгать-через-реку" in echo and "не понимаю" in echo

    def seen_by_others() -> list[str]:
        texts = []
        for viewer in ("Борис", PUBLIC):
            for name, out in outputs.walk(game, viewer):
                if isinstance(out, str) and ("прыгать-через-реку" in out or "не понимаю" in out):
                    texts.append(f"{viewer}: {name}")
        return texts

    assert seen_by_others() == []
    game.post("Борис", "ход 1818 1718")
    game.resolve()
    assert seen_by_others() == []
