"""The battlefield: three flanks, each with a vanguard and a rearguard.

«Всего есть 3 фланга: левый, центральный и правый. На каждом фланге есть 2 позиции:
авангард (находится лицом к врагу) и арьергард (прячется за авангардом)... Позиция
считается соседней, если она находится на 1 ячейку ниже, выше, левее или правее.»

A position is written ``"<flank>.<rank>"``: ``"left.vanguard"``, ``"centre.rearguard"``.
Flank names are the same for both sides: the two left flanks face each other.
"""

from __future__ import annotations

FLANKS = ("left", "centre", "right")
RANKS = ("vanguard", "rearguard")
POSITIONS = tuple(f"{f}.{r}" for r in RANKS for f in FLANKS)

FLANK_RU = {"left": "левый", "centre": "центральный", "right": "правый"}
FLANK_EN = {"left": "left", "centre": "centre", "right": "right"}
RANK_RU = {"vanguard": "авангард", "rearguard": "арьергард"}


def flank_of(position: str) -> str:
    return position.split(".")[0]


def rank_of(position: str) -> str:
    return position.split(".")[1]


def column(position: str) -> int:
    return FLANKS.index(flank_of(position))


def row(position: str) -> int:
    return RANKS.index(rank_of(position))


def at(flank: str, rank: str) -> str:
    return f"{flank}.{rank}"


def distance(a: str, b: str) -> int:
    return abs(column(a) - column(b)) + abs(row(a) - row(b))


def adjacent(a: str, b: str) -> bool:
    """«на 1 ячейку ниже, выше, левее или правее»"""
    return distance(a, b) == 1


def neighbours(position: str) -> list[str]:
    return [p for p in POSITIONS if adjacent(position, p)]


def flanks_in_reach(a: str, b: str) -> bool:
    """Same or adjacent flank (volley and charge reach)."""
    return abs(column(a) - column(b)) <= 1


def flank_ru(flank: str, case: str = "nomn") -> str:
    """«левый фланг» in ``case``: «на левом фланге», «с правого фланга»."""
    from voevoda.core.words import inflect_phrase

    return inflect_phrase(f"{FLANK_RU[flank]} фланг", case)


def label_ru(position: str) -> str:
    return f"{FLANK_RU[flank_of(position)]} {RANK_RU[rank_of(position)]}"


def label_en(position: str) -> str:
    return f"{FLANK_EN[flank_of(position)]} {rank_of(position)}"
