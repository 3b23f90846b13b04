"""The Steel Rose battle map during the deployment (issue 30 item 9): a side sees its own accepted
deployment drawn before the enemy has sent his, and what is unknown (the enemy's positions until
both have deployed) is drawn and explained apart from what is empty (a known side's free
positions) — checked on the SVG and on the rendered PNG."""

from __future__ import annotations

import re

import numpy as np
from tests.pngread import read_png

from voevoda.core import maps, outputs
from voevoda.core.engine import Game

DEPLOYMENT = ("Центральный фланг:\nАвангард - 20 копейщиков, 6 рыцарей, герой и 2 целителя\nАрьергард - 12 лучников\n"
              "Левый фланг:\nАвангард - 6 всадников")


def cells(svg: str) -> list[str]:
    return re.findall(r'<rect class="(squad|empty|unknown)"', svg)


def test_a_side_sees_its_accepted_deployment_and_the_enemy_as_unknown() -> None:
    game = Game.create("steel-rose-battle", "map", ["Анна", "Борис"], seed="map")
    before = outputs.map_svg(game, "Анна") or ""
    assert cells(before) == ["unknown"] * 6 + ["empty"] * 6   # the enemy on top, hers below, nothing sent yet
    assert "ждём вашу расстановку" in before
    game.post("Анна", DEPLOYMENT)
    mine = outputs.map_svg(game, "Анна") or ""
    assert cells(mine).count("squad") == 3 and cells(mine).count("unknown") == 6 and cells(mine).count("empty") == 3
    assert "20 копейщиков" in mine and "12 лучников" in mine and "6 всадников" in mine
    assert "ваша расстановка принята, ждём противника" in mine
    assert "неизвестно: расстановка скрыта, пока обе стороны не расставят войска" in mine
    assert "пусто: на позиции никто не стоит" in mine
    theirs = outputs.map_svg(game, "Борис") or ""
    assert "копейщиков" not in theirs and cells(theirs).count("squad") == 0   # her deployment is hers alone
    assert cells(theirs)[:6] == ["empty"] * 6 and cells(theirs)[6:] == ["unknown"] * 6
    public = outputs.map_svg(game, "public") or ""
    assert cells(public) == ["unknown"] * 12 and "пусто:" not in public

    image = read_png(maps.to_png(mine))
    def cell(row: int, col: int) -> np.ndarray:   # rows from the top: the enemy's rearguard, vanguard, hers
        x = maps.PAD + col * 220 + 110
        y = maps.HEADER + 18 + row * 74 + (40 if row >= 2 else 0) + 52
        return image[int(y) - 4:int(y) + 4, int(x) + 40:int(x) + 90, :3].astype(int)
    unknown, empty = cell(1, 2), cell(2, 2)   # the enemy's right vanguard, her own right vanguard
    assert unknown.std(axis=(0, 1)).max() > 3, "unknown is dotted"
    assert empty.std(axis=(0, 1)).max() < 1 and tuple(empty[0, 0]) == (0xF1, 0xED, 0xE4), "empty is plain"


def test_once_both_have_deployed_nothing_is_unknown() -> None:
    game = Game.create("steel-rose-battle", "map", ["Анна", "Борис"], seed="map")
    game.post("Анна", DEPLOYMENT)
    game.post("Борис", "Центральный фланг:\nАвангард - 8 щитовиков\nАрьергард - 8 мушкетёров и пушка")
    game.resolve()
    svg = outputs.map_svg(game, "Борис") or ""
    assert "unknown" not in cells(svg) and cells(svg).count("squad") == 5 and "неизвестно" not in svg
