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
"""The most dice one expression rolls, all its terms together."""
MAX_SIDES = 1_000_000
MAX_LENGTH = 500
"""The longest expression read, in characters."""
MAX_DIGITS = 9
"""The longest number in an expression."""
MAX_TERMS = 50
"""The most dice groups and numbers in one expression."""
MAX_DEPTH = 20
"""The deepest nesting of parentheses and signs."""


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


def _limit(expression: str, ru: str, en: str, column: int | None = None) -> ParseError:
    return ParseError([invalid(ru, en, 1, column, expression[:40] + ("…" if len(expression) > 40 else ""))])


def _check_size(expression: str) -> None:
    """Bounds checked on the text itself, before the grammar reads it: length and digits."""
    if len(expression) > MAX_LENGTH:
        raise _limit(expression, f"запись костей длиннее {MAX_LENGTH} знаков",
                     f"a dice expression longer than {MAX_LENGTH} characters")
    run = 0
    for column, char in enumerate(expression, start=1):
        run = run + 1 if char.isascii() and char.isdigit() else 0
        if run > MAX_DIGITS:
            raise _limit(expression, f"число длиннее {MAX_DIGITS} цифр", f"a number of more than {MAX_DIGITS} digits",
                         column - MAX_DIGITS)
    depth = 0
    for column, char in enumerate(expression, start=1):
        depth = depth + 1 if char == "(" else depth - 1 if char == ")" else depth
        if depth > MAX_DEPTH:
            raise _limit(expression, f"скобки вложены глубже {MAX_DEPTH} уровней",
                         f"parentheses nested deeper than {MAX_DEPTH} levels", column)


def _check_tree(node: object, expression: str) -> None:
    """Bounds on what the expression asks for: terms, nesting, dice in all."""
    terms = dice = 0
    stack: list[tuple[object, int]] = [(node, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH + MAX_TERMS:  # a chain of N terms is N deep; signs and parentheses add
            raise _limit(expression, f"выражение вложено глубже {MAX_DEPTH} уровней",
                         f"an expression nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, _Roll):
            terms += 1
            dice += item.count
        elif isinstance(item, int):
            terms += 1
        elif isinstance(item, Tree):
            stack.extend((child, depth + 1) for child in item.children)
    if terms > MAX_TERMS:
        raise _limit(expression, f"больше {MAX_TERMS} слагаемых", f"more than {MAX_TERMS} terms")
    if dice > MAX_DICE:
        raise _limit(expression, f"больше {MAX_DICE} костей за раз", f"more than {MAX_DICE} dice at once")


def parse(expression: str) -> object:
    """The expression tree; raises ParseError naming the column. An expression is at most
    ``MAX_LENGTH`` characters, numbers at most ``MAX_DIGITS`` digits, at most ``MAX_TERMS``
    terms nested at most ``MAX_DEPTH`` deep, ``MAX_DICE`` dice in all."""
    _check_size(expression)
    try:
        tree = _PARSER.parse(expression)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", None)
        problem = invalid(f"непонятная запись костей «{expression}»",
                          f"cannot read the dice expression '{expression}'", 1,
                          column if isinstance(column, int) else None, expression)
        raise ParseError([problem]) from exc
    try:
        built = _Build().transform(tree)
    except RecursionError as exc:
        raise _limit(expression, f"выражение вложено глубже {MAX_DEPTH} уровней",
                     f"an expression nested deeper than {MAX_DEPTH} levels") from exc
    _check_tree(built, expression)
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
