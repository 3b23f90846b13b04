"""The board of document 003: «доска, разделенная на шестиугольники, общим числом 400»."""

from __future__ import annotations

from voevoda.rulesets.ring_of_power.board import Board, distance
from voevoda.rulesets.ring_of_power.rules import load_map


def test_default_board_has_400_hexes() -> None:
    """003 «Кольцо Власти»: «шестиугольники, общим числом 400» — the default map is 20 x 20."""
    data = load_map()
    board = Board(data.width, data.height)
    assert len(board.hexes) == 400
    assert board.contains("0201") and board.contains("2020") and not board.contains("2021")


def test_neighbours_are_symmetric_and_at_distance_one() -> None:
    """003 «Приказ на перемещение»: a step goes «в любой соседний гекс» — every hex has at
    most six neighbours, adjacency is mutual and matches the cube distance."""
    board = Board(20, 20)
    for h in board.hexes:
        ns = board.neighbours(h)
        assert 2 <= len(ns) <= 6
        for n in ns:
            assert h in board.neighbours(n)
            assert distance(h, n) == 1


def test_document_example_hexes_touch() -> None:
    """003 «Приказ на поддержку»: the example supports from 0201 into a neighbouring hex; in
    the CCRR numbering 0201 and 0202 touch (docs/rulings: coordinates)."""
    board = Board(20, 20)
    assert board.adjacent("0201", "0202")
    assert set(board.neighbours("0303")) == {"0302", "0304", "0202", "0203", "0402", "0403"}
    assert set(board.neighbours("0404")) == {"0403", "0405", "0304", "0305", "0504", "0505"}


def test_rosette_needs_six_neighbours() -> None:
    """003: «захватит 7 соседних шестиугольников» — a ring is a hex and its six neighbours, so
    none is centred on the board's edge."""
    board = Board(20, 20)
    assert board.rosette("0101") is None
    flower = board.rosette("0606")
    assert flower is not None and len(set(flower)) == 7


def test_path_search_avoids_hexes() -> None:
    """The computer opponent's paths keep to adjacent hexes and go round what it avoids."""
    board = Board(20, 20)
    path = board.step_towards("0505", "0508", {"0506", "0507"})
    assert path[-1] == "0508" and "0506" not in path and "0507" not in path
    here = "0505"
    for h in path:
        assert board.adjacent(here, h)
        here = h
