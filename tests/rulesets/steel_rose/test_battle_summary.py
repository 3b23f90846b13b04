"""`voevoda show` for a Steel Rose battle (issue 30 item 7): the battle in Russian words, as the
viewer may see it, never the view's English field names («position: right.vanguard», «units:
spearman 12»), which the outline of the view printed."""

from __future__ import annotations

import re

from voevoda.core import outputs
from voevoda.core.engine import Game

ENGLISH = re.compile(r"\b(position|units|squads|manoeuvres|gunpowder|spearman|knight|vanguard|rearguard|role|"
                     r"garrison|faction|army|deployments|plans|result)\b:?")


def played(steps: int) -> Game:
    game = Game.create("steel-rose-battle", "show", ["Анна", "Борис"], seed="show")
    for posts in game.ruleset.demo_script(["Анна", "Борис"])[:steps]:
        for player, text in posts.items():
            game.submit(player, text)
        game.resolve()
    return game


def english_outside_labels(text: str) -> list[str]:
    """English words that are not the second half of a «русский / English» label."""
    return [m.group(0) for line in text.splitlines() for m in ENGLISH.finditer(line.split(" / ")[0])
            if "/" not in line[:m.start()]]


def test_show_during_deployment_hides_the_enemy() -> None:
    """«Игрокам НЕдоступна ... Составы и расположение армий противника»: a side sees its own army,
    the enemy's only as hidden, and what it is asked."""
    text = outputs.show_text(played(0), "Анна")
    assert "фаза / phase: расстановка / deployment" in text
    assert "Ждём от вас / asked of you: расстановку / your deployment" in text
    assert "армия / army: 20 копейщиков, 6 рыцарей, герой, 12 лучников, 6 всадников и 2 целителя" in text
    assert "гарнизон / garrison: город 2 ур. / level, малый / small" in text
    assert "Борис: скрыта, пока обе стороны не расставят войска" in text
    assert not english_outside_labels(text), text


def test_show_after_the_battle_tells_who_won_and_what_each_side_kept() -> None:
    game = played(2)
    text = outputs.show_text(game, "Борис")
    assert "фаза / phase: битва окончена" in text
    assert "    центральный авангард: 20 копейщиков, 6 рыцарей, герой и 2 целителя" in text
    assert "    центральный арьергард: обстрел центрального авангарда" in text
    assert re.search(r"Итог / result: (Анна победила|Борис победил|ничья) за \d+ раунд", text), text
    assert "погибли / lost — " in text and "возвращаются в армию / back to the army — " in text
    assert not english_outside_labels(text), text
    public = outputs.show_text(game, "public")
    assert "Итог / result" in public and not english_outside_labels(public)
