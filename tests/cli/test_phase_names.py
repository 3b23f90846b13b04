"""The headings of `status` and `show` and the game's page name the phase as players call it, in
Russian and English, never by its id (the outline issue, item 3: «фаза / phase orders» was the
raw id)."""

from __future__ import annotations

import pytest

from voevoda.core import outputs
from voevoda.core.engine import Game

FIRST_PHASE = {
    "thrones": (["Анна", "Борис", "Вера"], "святые земли / holy lands", "holy"),
    "new-worlds": (["Анна", "Борис"], "приказы, Бронзовый век / orders, Bronze Age", "orders/"),
    "steel-rose": (["Анна", "Борис"], "приказы / orders", "phase orders"),
    "steel-rose-battle": (["Анна", "Борис"], "расстановка / deployment", "phase deployment"),
    "ring-of-power": (["Анна", "Борис"], "приказы / orders", "phase orders"),
    # named by the ruleset's own progress: whose turn, the phase's number and name
    "culture-conquest": (["Анна", "Борис"], "Анна: 3. Распределение населения / Population assignment", "phase 3,"),
}


@pytest.mark.parametrize("ruleset_id", sorted(FIRST_PHASE))
def test_the_headings_name_the_phase(ruleset_id: str) -> None:
    players, name, raw = FIRST_PHASE[ruleset_id]
    game = Game.create(ruleset_id, "g", players, seed="phase")
    for text in (outputs.status_text(game, "gm"), outputs.show_text(game, players[0])):
        head = text.split("\n", 1)[0]
        assert f"фаза / phase {name}, шаг / step 1" in head, head
        assert raw not in head.replace(name, ""), head
    board = outputs.dashboard(game, players[0])
    assert name in (f"{board.phase_ru} / {board.phase_en}", board.phase_ru)
