"""Bad input anywhere gets a clear error (STYLE.md «Errors a person can act on»): for every
installed game, any text a player might post — fragments of real orders, numbers, hex codes,
Cyrillic, punctuation, blank lines — is either accepted or refused with problems that each
carry a Russian and an English message; it never raises anything else and never changes the
game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voevoda.core import registry
from voevoda.core.engine import Game
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.core.journal import canonical_json

WORDS = [
    "ход", "move", "поддержка", "support", "роспуск", "сбор", "raise", "перевод", "налог", "вражда",
    "мир", "ставка", "0303", "0403", "->", "→", "Анна", "Борис", "P0", "P1", "Казна", ":", ",", "-",
    "Правый фланг", "Авангард", "Арьергард", "копейщиков", "лучника", "рыцарь", "натиск", "залп",
    "в укрытие", "армия", "флот", "учёные", "атака", "нет", "да", "принять", "build", "city",
    "research", "строить", "город", "10", "3", "-5", "99999999999999999999", "", "#", "//", "\t",
    # the Steel Rose campaign, New Worlds and Thrones
    "Построить", "Нанять", "Армия 1", "Ритуал", "Заражение", "Авенталь", "(2 ур.)", "занять", "религия",
    "война", "пакт", "F8", "E7", "подмога", "поход", "святыня", "Винтерфелл", "союз с", "купить", "пеший",
]

post_text = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(max_size=12), st.integers(-10, 10**6).map(str)),
    max_size=24,
).map(lambda parts: "".join(p + (" " if i % 5 else "\n") for i, p in enumerate(parts)))


def installed() -> list[str]:
    return list(registry.available())


@pytest.mark.parametrize("ruleset_id", installed())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=post_text)
def test_any_post_is_accepted_or_refused_cleanly(ruleset_id: str, text: str) -> None:
    cls = registry.get(ruleset_id)
    players = [f"P{i}" for i in range(max(2, cls.min_players))][: cls.max_players]
    game = Game.create(ruleset_id, "fuzz", players, seed="fuzz")
    awaited = list(game.awaiting())
    if not awaited:
        return
    player = awaited[0]
    before = canonical_json(game.state)
    try:
        game.submit(player, text)
    except OrdersRejected as rejected:
        assert rejected.problems
        for problem in rejected.problems:
            assert problem.message_ru.strip() and problem.message_en.strip()
            assert problem.kind in ("invalid", "illegal", "ambiguous")
        assert canonical_json(game.state) == before and player not in game.pending
    except GameError:
        pass
