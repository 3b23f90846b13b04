"""Dice notation, read by a real grammar.

``NdX`` rolls N dice of X sides (``d%`` is d100, ``dF`` a Fudge die -1/0/+1); a
Russian ``к`` or ``д`` may stand for ``d`` (``2к6``). ``kh N`` / ``k N`` keeps the N
highest, ``kl N`` the N lowest, ``dl N`` / ``d N`` drops the N lowest, ``dh N`` the N
highest. Terms combine with ``+ - * /`` (``/`` rounds down) and parentheses:
``4d6kh3``, ``2d20kl1 + 5``, ``(1d6 - 2) * 10``, ``3к6+2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Lark, Token, Transformer, Tree, UnexpectedInput

from voevoda.core.dice import Stream
from voevoda.core.errors import ParseError, invalid

GRAMMAR = r"""
?start: sum
?sum: product
    | sum "+" product   -> add
    | sum "-" product   -> sub
?product: unary
    | product "*" unary -> mul
    | product "/" unary -> div
?unary: atom
    | "-" unary         -> neg
?atom: roll
    | INT               -> number
    | "(" sum ")"
roll: INT? DIE sides selector?
sides: INT | PERCENT | FUDGE
selector: SELECT INT
DIE: /[dDкКдД]/
PERCENT: "%"
FUDGE: "F" | "f"
SELECT: /kh|kl|dh|dl|k|d/i
%import common.INT
%import common.WS
%ignore WS
"""

_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)
MAX_DICE = 10_000
MAX_SIDES = 1_000_000


@dataclass
class DiceTerm:
    """One ``NdX`` group as rolled: every face, and which of them count."""

    text: str
    faces: list[int]
    kept: list[bool]

    @property
    def total(self) -> int:
        return sum(f for f, k in zip(self.faces, self.kept, strict=True) if k)

    def describe(self) -> str:
        shown = " ".join(str(f) if k else f"({f})" for f, k in zip(self.faces, self.kept, strict=True))
        return f"{self.text} → {shown}"


@dataclass
class RollResult:
    expression: str
    total: int
    terms: list[DiceTerm] = field(default_factory=list)

    def describe(self) -> str:
        parts = "; ".join(t.describe() for t in self.terms)
        return f"{self.expression}: {parts} = {self.total}" if parts else f"{self.expression} = {self.total}"


@dataclass
class _Roll:
    count: int
    sides: int | str
    select: str | None
    amount: int
    text: str


class _Build(Transformer[Token, object]):
    def number(self, items: list[Token]) -> int:
        return int(items[0])

    def sides(self, items: list[Token]) -> int | str:
        token = items[0]
        if token.type == "PERCENT":
            return 100
        if token.type == "FUDGE":
            return "F"
        return int(token)

    def selector(self, items: list[Token]) -> tuple[str, int]:
        return str(items[0]).lower(), int(items[1])

    def roll(self, items: list[object]) -> _Roll:
        count = 1
        rest = list(items)
        first = rest[0]
        if isinstance(first, Token) and first.type == "INT":
            count = int(first)
            rest.pop(0)
        rest.pop(0)  # the d
        sides = rest.pop(0)
        assert isinstance(sides, int | str)
        select: str | None = None
        amount = 0
        if rest:
            chosen = rest[0]
            assert isinstance(chosen, tuple)
            select, amount = str(chosen[0]), int(chosen[1])
        shown_sides = "%" if sides == 100 else str(sides)
        text = f"{count}d{shown_sides}" + (f"{select}{amount}" if select else "")
        return _Roll(count, sides, select, amount, text)


def parse(expression: str) -> object:
    """The expression tree; raises ParseError naming the column."""
    try:
        tree = _PARSER.parse(expression)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", None)
        problem = invalid(f"непонятная запись костей «{expression}»",
                          f"cannot read the dice expression '{expression}'", 1,
                          column if isinstance(column, int) else None, expression)
        raise ParseError([problem]) from exc
    built = _Build().transform(tree)
    _check(built, expression)
    return built


def _check(node: object, expression: str) -> None:
    if isinstance(node, _Roll):
        sides_ok = node.sides == "F" or (isinstance(node.sides, int) and 1 <= node.sides <= MAX_SIDES)
        if not 1 <= node.count <= MAX_DICE or not sides_ok:
            raise ParseError([invalid(f"{node.text}: от 1 до {MAX_DICE} костей, от 1 до {MAX_SIDES} граней",
                                      f"{node.text}: 1 to {MAX_DICE} dice of 1 to {MAX_SIDES} sides",
                                      1, None, expression)])
        if node.select and node.amount > node.count:
            raise ParseError([invalid(f"{node.text}: нельзя оставить или отбросить больше, чем брошено",
                                      f"{node.text}: cannot keep or drop more dice than are rolled",
                                      1, None, expression)])
    elif isinstance(node, Tree):
        for child in node.children:
            _check(child, expression)


def roll(expression: str, stream: Stream) -> RollResult:
    """Evaluate ``expression`` drawing from ``stream``; every face is recorded there."""
    tree = parse(expression)
    terms: list[DiceTerm] = []
    total = _evaluate(tree, stream, terms)
    return RollResult(expression.strip(), total, terms)


def _evaluate(node: object, stream: Stream, terms: list[DiceTerm]) -> int:
    if isinstance(node, int):
        return node
    if isinstance(node, _Roll):
        if node.sides == "F":
            faces = [stream.roll(3) - 2 for _ in range(node.count)]
        else:
            assert isinstance(node.sides, int)
            faces = stream.rolls(node.count, node.sides)
        kept = _select(faces, node.select, node.amount)
        term = DiceTerm(node.text, faces, kept)
        terms.append(term)
        return term.total
    assert isinstance(node, Tree)
    values = [_evaluate(child, stream, terms) for child in node.children]
    if node.data == "add":
        return values[0] + values[1]
    if node.data == "sub":
        return values[0] - values[1]
    if node.data == "mul":
        return values[0] * values[1]
    if node.data == "div":
        if values[1] == 0:
            raise ParseError([invalid("деление на ноль", "division by zero")])
        return values[0] // values[1]
    if node.data == "neg":
        return -values[0]
    raise AssertionError(f"unknown node {node.data}")


def _select(faces: list[int], select: str | None, amount: int) -> list[bool]:
    if select is None:
        return [True] * len(faces)
    order = sorted(range(len(faces)), key=lambda i: (faces[i], i))
    if select in ("kh", "k"):
        chosen = set(order[len(faces) - amount :])
    elif select == "kl":
        chosen = set(order[:amount])
    elif select in ("dl", "d"):
        chosen = set(order[amount:])
    else:  # dh
        chosen = set(order[: len(faces) - amount])
    return [i in chosen for i in range(len(faces))]
