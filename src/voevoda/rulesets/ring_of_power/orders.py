"""Reading a player's post: one order a line, Russian or English keywords.

The document has players draw on the map; in a post the same orders are written as
lines (docs/ring_of_power.md)::

    ход 0201 -> 0202 -> 0302        move 0201 0202 0302
    0201 -> 0202                    (an arrow alone is a move)
    поддержка 0201 -> 0202 Боб      support 0201 0202 Bob
    роспуск 0201                    disband 0201
    сбор 0202 2                     raise 0202 2
    улучшить 0202 2                 upgrade 0202 2
    перевод 15 Боб: за проход       transfer 15 to Bob: for passage
    налог 3                         tax 3   (a transfer to the Treasury)
    Плательщик: Анна, Получатель: Казна, Сумма: 10, Основание: Налоги.
    вражда Боб, Ева                 hostile Bob, Eve
    мир Боб                         neutral Bob
    ставка 40 0303                  bid 40 0303   (for the condottieri on offer)

The core reads the post first (docs/posts.md): BBCode and Markdown are read through, quotes
and spoilers set aside. A line that does not begin like an order (:func:`begins_order`: a
keyword, a hex, an arrow, the payment form) is prose — a greeting, a signature, a ``#``
comment — and is echoed as not read. Every order line that cannot be read is reported with
the line and column the player typed it at; the rest is understood.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voevoda.core.errors import Problem, invalid
from voevoda.core.posts import (
    NumberError,
    PostLine,
    did_you_mean,
    is_digits,
    read_int,
    stem_key,
    suggest,
    with_example,
)
from voevoda.core.ruleset import Order
from voevoda.core.words import join_and

TREASURY = "Казна"
TREASURY_ALIASES = ("казна", "казну", "казне", "treasury", "crown", "казначейство")

KEYWORDS: dict[str, str] = {
    **dict.fromkeys(("move", "ход", "идти", "перемещение", "переместить", "двигать", "марш"), "move"),
    **dict.fromkeys(("support", "поддержка", "поддержать", "поддержи", "поддерживать"), "support"),
    **dict.fromkeys(("disband", "роспуск", "распустить", "расформировать"), "disband"),
    **dict.fromkeys(("raise", "сбор", "собрать", "набор", "нанять"), "raise"),
    **dict.fromkeys(("upgrade", "улучшение", "улучшить", "повысить"), "upgrade"),
    **dict.fromkeys(("transfer", "pay", "перевод", "перевести", "платёж", "платеж", "заплатить"), "transfer"),
    **dict.fromkeys(("tax", "taxes", "налог", "налоги"), "tax"),
    **dict.fromkeys(("hostile", "hostility", "war", "вражда", "враждебно", "враждебность", "война"), "hostile"),
    **dict.fromkeys(("neutral", "peace", "нейтрально", "нейтралитет", "мир"), "neutral"),
    **dict.fromkeys(("bid", "ставка", "торг"), "bid"),
}

SYNTAX = {
    "move": ("ход 0201 -> 0202 -> 0302 (до 3 шагов)", "move 0201 0202 0302 (up to 3 steps)"),
    "support": ("поддержка 0201 -> 0202 Игрок", "support 0201 0202 Player"),
    "disband": ("роспуск 0201", "disband 0201"),
    "raise": ("сбор 0202 2", "raise 0202 2"),
    "upgrade": ("улучшить 0202 [число]", "upgrade 0202 [count]"),
    "transfer": ("перевод 15 Игрок: основание", "transfer 15 to Player: reason"),
    "tax": ("налог 3", "tax 3"),
    "hostile": ("вражда Игрок, Игрок", "hostile Player, Player"),
    "neutral": ("мир Игрок", "neutral Player"),
    "bid": ("ставка 40 0303", "bid 40 0303"),
}

_SEPARATORS = re.compile(r"[^\s,;\-–—>→=]+")
_WORD = re.compile(r"\S+")
_FILLER = {"в", "во", "на", "in", "at", "to", "into", "из", "from", "пешки", "пешек", "пешку", "пешка",
           "pawns", "pawn", "шт", "шт.", "x", "х"}
_DOC_KEYS = {
    "payer": ("плательщик", "payer"),
    "recipient": ("получатель", "recipient", "payee"),
    "amount": ("сумма", "amount", "sum"),
    "reason": ("основание", "reason", "basis"),
}


@dataclass
class _Line:
    """An order line: its text (markup read through) and where each character was typed."""

    source: PostLine

    @property
    def number(self) -> int:
        return self.source.number

    @property
    def text(self) -> str:
        return self.source.text

    def problem(self, column: int, ru: str, en: str) -> Problem:
        """A problem at ``column`` (1-based, in ``text``), reported where the player typed it."""
        return invalid(ru, en, line=self.number, column=self.source.column(column - 1), order=self.text.strip())


def _is_hex(token: str) -> bool:
    return len(token) == 4 and is_digits(token)


_LEADING_WORD = re.compile(r"[^\W\d_]+")
_NAME_WORD = re.compile(r"[^\s,;:.!]+")
_AFTER_WORD = re.compile(r"\s*[-–—](?=\s)\s*")


def begins_order(text: str) -> bool:
    """Whether a line of a post begins like an order: a keyword (or a word one typo away from
    one), a hex or any number, an arrow, the document's payment form («Плательщик: …»), or an
    unknown word followed by a hex («прыгать 0101»: an order misspelt, not prose)."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped[0].isdigit() or "->" in stripped or "→" in stripped:
        return True
    low = stripped.casefold()
    if any(low.startswith(k) for k in _DOC_KEYS["payer"]):
        return True
    first = _LEADING_WORD.match(low)
    if first is None or first.end() < len(low) and low[first.end()] not in " \t:.,;-–—":
        return False
    word = first.group(0)
    if word in KEYWORDS or suggest(word, KEYWORDS, limit=1, cutoff=0.8):
        return True
    words = stripped.split()
    return len(words) > 1 and _is_hex(words[1].strip(".,;:"))


_NEXT_ORDER = re.compile(r"\s*[,;]\s*(?=([^\W\d_]+))")


def _one_order_each(line: PostLine) -> list[PostLine]:
    """A line holding several orders, each begun by its word after a comma or «;» («ход 0303
    0403, вражда Борис»), as one line per order, columns kept; a list of players («вражда Анна,
    Борис») and a transfer's reason («за мир, налог и дружбу») keep their commas."""
    parts: list[PostLine] = []
    start = 0
    for match in _NEXT_ORDER.finditer(line.text):
        first = _LEADING_WORD.search(line.text, start)
        current = KEYWORDS.get(first.group(0).casefold()) if first else None
        if KEYWORDS.get(match.group(1).casefold()) is None or current is None:
            continue
        if current == "transfer" and "," in match.group(0):
            continue
        parts.append(line.slice(start, match.start()).strip())
        start = match.end()
    parts.append(line.slice(start).strip())
    return parts


def _match_names(text: str, names: Sequence[str]) -> tuple[str | None, str]:
    """The longest known name at the start of ``text`` (case-insensitive) and the rest."""
    stripped = text.lstrip()
    low = stripped.casefold()
    for alias in sorted(TREASURY_ALIASES, key=len, reverse=True):
        if low.startswith(alias) and (len(low) == len(alias) or not low[len(alias)].isalnum()):
            return TREASURY, stripped[len(alias):]
    for name in sorted(names, key=len, reverse=True):
        if low.startswith(name.casefold()) and (len(low) == len(name) or not low[len(name)].isalnum()):
            return name, stripped[len(name):]
    # a name in another case («вражда Борису», «перевод 5 Анне»): by the stems of its words,
    # when no other player's name shares them
    words = list(_NAME_WORD.finditer(stripped))
    keys: dict[str, list[str]] = {}
    for name in names:
        keys.setdefault(stem_key(name), []).append(name)
    for name in sorted(names, key=len, reverse=True):
        size = len(name.split())
        key = stem_key(name)
        if len(words) >= size and len(keys[key]) == 1 and stem_key(stripped[:words[size - 1].end()]) == key:
            return name, stripped[words[size - 1].end():]
    return None, stripped


def _reason(rest: str) -> str:
    rest = rest.strip().lstrip(":—–-,").strip()
    for lead in ("for ", "основание:", "основание", "reason:", "reason"):
        if rest.casefold().startswith(lead):
            rest = rest[len(lead):].strip(" :")
            break
    return rest.strip().rstrip(".")


class PostReader:
    """Reads a post against the names of the game's players."""

    def __init__(self, players: Sequence[str], author: str) -> None:
        self.players = list(players)
        self.author = author

    def read(self, lines: Sequence[PostLine]) -> tuple[list[Order], list[Problem]]:
        """Read the order lines of a post (``Post.orders``, see :func:`begins_order`)."""
        orders: list[Order] = []
        problems: list[Problem] = []
        for part in (p for line in lines for p in _one_order_each(line)):
            if not part.text.strip():
                continue
            result = self._line(_Line(part))
            if isinstance(result, Problem):
                problems.append(result)
            else:
                orders.append(result)
        return orders, problems

    def _nobody(self, text: str) -> tuple[str, str]:
        """«нет игрока «Борс»; может быть, «Борис»?» (the nearest names, never taken for them)."""
        ru, en = did_you_mean(suggest(text, self.players, limit=2))
        return f"нет игрока «{text}»{ru}", f"no player '{text}'{en}"

    # -- one line ---------------------------------------------------------------------

    def _line(self, line: _Line) -> Order | Problem:
        text = line.text
        low = text.casefold()
        if any(low.lstrip().startswith(k) for k in _DOC_KEYS["payer"]):
            return self._document_transfer(line)
        first = _WORD.search(text)
        assert first is not None
        word = first.group(0).casefold().rstrip(":.")
        if re.match(r"\d{4}(?!\d)", first.group(0)):
            return self._move(line, first.start())
        kind = KEYWORDS.get(word)
        if kind is None:
            ru, en = did_you_mean(suggest(word, KEYWORDS, limit=2))
            return line.problem(
                first.start() + 1,
                f"не понимаю приказ «{first.group(0)}»{ru or ';'} {'П' if ru else 'п'}риказы: ход, поддержка, "
                "роспуск, сбор, улучшить, перевод, налог, вражда, мир, ставка",
                f"unknown order '{first.group(0)}'{en or ';'} {'O' if en else 'o'}rders: move, support, disband, "
                "raise, upgrade, transfer, tax, hostile, neutral, bid",
            )
        # «вражда - Борис», «Ход — 0303 -> 0403»: a dash a player puts after the order's word
        dash = _AFTER_WORD.match(text, first.end())
        rest_at = dash.end() if dash else first.end()
        handler = getattr(self, f"_{kind}")
        result: Order | Problem = handler(line, rest_at)
        return result

    def _syntax(self, line: _Line, kind: str, column: int, what_ru: str, what_en: str) -> Problem:
        ru, en = SYNTAX[kind]
        return line.problem(column, *with_example(what_ru, what_en, ru, en))

    def _hexes(self, line: _Line, start: int) -> list[tuple[str, int]]:
        return [(m.group(0), start + m.start() + 1) for m in _SEPARATORS.finditer(line.text[start:])]

    def _move(self, line: _Line, rest_at: int) -> Order | Problem:
        tokens = self._hexes(line, rest_at)
        for token, column in tokens:
            if not _is_hex(token):
                return self._syntax(line, "move", column, f"«{token}» — не гекс (четыре цифры)",
                                    f"'{token}' is not a hex (four digits)")
        if len(tokens) < 2:
            return self._syntax(line, "move", len(line.text) + 1, "нужны исходный гекс и хотя бы один шаг",
                                "a start hex and at least one step are needed")
        hexes = [t for t, _ in tokens]
        return Order("move", {"from": hexes[0], "path": hexes[1:]}, line.number, line.text.strip())

    def _support(self, line: _Line, rest_at: int) -> Order | Problem:
        m = re.match(r"\s*(\S{1,8}?)\s*(?:->|→|=>|—|–|-|,|\s)\s*(\S{1,8}?)(?=\s|$)(.*)$", line.text[rest_at:])
        if not m:
            return self._syntax(line, "support", rest_at + 2, "нужны гекс поддерживающих и соседний гекс",
                                "the supporters' hex and a neighbouring hex are needed")
        for g in (1, 2):
            if not _is_hex(m.group(g)):
                return self._syntax(line, "support", rest_at + m.start(g) + 1,
                                    f"«{m.group(g)}» — не гекс (четыре цифры)", f"'{m.group(g)}' is not a hex (four digits)")
        tail = m.group(3).strip()
        player: str | None = None
        if tail:
            name, rest = _match_names(tail, self.players)
            if name is None or name == TREASURY or rest.strip(" .:"):
                return line.problem(rest_at + m.start(3) + 1 + (len(m.group(3)) - len(m.group(3).lstrip())),
                                    *self._nobody(tail))
            player = name
        return Order("support", {"from": m.group(1), "to": m.group(2), "player": player},
                     line.number, line.text.strip())

    def _one_hex(self, line: _Line, rest_at: int, kind: str, count: str) -> Order | Problem:
        hexes: list[str] = []
        numbers: list[int] = []
        for m in _WORD.finditer(line.text, rest_at):
            token = m.group(0).strip(".,;:")
            if not token or token.casefold() in _FILLER:
                continue
            if _is_hex(token):
                hexes.append(token)
            elif is_digits(token) and count != "none":
                try:
                    numbers.append(read_int(token))
                except NumberError as exc:
                    return self._syntax(line, kind, m.start() + 1, exc.ru, exc.en)
            else:
                return self._syntax(line, kind, m.start() + 1, f"не понимаю «{token}»", f"cannot read '{token}'")
        if len(hexes) != 1:
            return self._syntax(line, kind, rest_at + 1, "нужен ровно один гекс", "exactly one hex is needed")
        if len(numbers) > 1:
            return self._syntax(line, kind, rest_at + 1, "лишнее число", "one number too many")
        if count == "required" and not numbers:
            return self._syntax(line, kind, len(line.text) + 1, "нужно число пешек", "the number of pawns is needed")
        args: dict[str, object] = {"hex": hexes[0]}
        if count != "none":
            args["count"] = numbers[0] if numbers else None
        return Order(kind, args, line.number, line.text.strip())

    def _disband(self, line: _Line, rest_at: int) -> Order | Problem:
        return self._one_hex(line, rest_at, "disband", "none")

    def _raise(self, line: _Line, rest_at: int) -> Order | Problem:
        return self._one_hex(line, rest_at, "raise", "required")

    def _upgrade(self, line: _Line, rest_at: int) -> Order | Problem:
        return self._one_hex(line, rest_at, "upgrade", "optional")

    def _amount(self, line: _Line, rest_at: int, kind: str) -> tuple[int, int] | Problem:
        m = re.match(r"\s*(\S+)", line.text[rest_at:])
        if not m:
            return self._syntax(line, kind, len(line.text) + 1, "нужна сумма", "an amount is needed")
        token = m.group(1)
        if not is_digits(token):
            return self._syntax(line, kind, rest_at + m.start(1) + 1, f"«{token}» — не сумма", f"'{token}' is not an amount")
        try:
            return read_int(token), rest_at + m.end(1)
        except NumberError as exc:
            return self._syntax(line, kind, rest_at + m.start(1) + 1, exc.ru, exc.en)

    def _transfer(self, line: _Line, rest_at: int) -> Order | Problem:
        got = self._amount(line, rest_at, "transfer")
        if isinstance(got, Problem):
            return got
        amount, at = got
        tail = line.text[at:]
        tail_stripped = tail.lstrip()
        for lead in ("to ", "кому ", "->", "→", "=>"):
            if tail_stripped.casefold().startswith(lead):
                tail_stripped = tail_stripped[len(lead):]
                break
        name, rest = _match_names(tail_stripped, self.players)
        if name is None:
            column = len(line.text) - len(tail_stripped) + 1
            shown = tail_stripped.split(":")[0].strip() or "?"
            ru, en = did_you_mean(suggest(shown, [*self.players, TREASURY], limit=2))
            return self._syntax(line, "transfer", column, f"нет получателя «{shown}» (игрок или Казна){ru}",
                                f"no recipient '{shown}' (a player or the Treasury){en}")
        return Order("transfer", {"amount": amount, "to": name, "reason": _reason(rest)},
                     line.number, line.text.strip())

    def _tax(self, line: _Line, rest_at: int) -> Order | Problem:
        got = self._amount(line, rest_at, "tax")
        if isinstance(got, Problem):
            return got
        amount, at = got
        if line.text[at:].strip(" .,"):
            return self._syntax(line, "tax", at + 2, "лишний текст после суммы", "unexpected text after the amount")
        return Order("transfer", {"amount": amount, "to": TREASURY, "reason": "Налоги"},
                     line.number, line.text.strip())

    def _document_transfer(self, line: _Line) -> Order | Problem:
        """«Плательщик: Игрок 1, Получатель: Казна, Сумма: 10, Основание: Налоги.»"""
        text = line.text
        low = text.casefold()
        spots: list[tuple[int, int, str]] = []
        for field, aliases in _DOC_KEYS.items():
            for alias in aliases:
                m = re.search(rf"(?<!\w){alias}\s*:", low)
                if m:
                    spots.append((m.start(), m.end(), field))
                    break
        spots.sort()
        values: dict[str, tuple[str, int]] = {}
        for i, (_, end, field) in enumerate(spots):
            stop = spots[i + 1][0] if i + 1 < len(spots) else len(text)
            raw = text[end:stop]
            values[field] = (raw.strip().strip(",;").strip().rstrip("."), end + len(raw) - len(raw.lstrip()) + 1)
        for field in ("payer", "recipient", "amount"):
            if field not in values:
                ru = {"payer": "Плательщик", "recipient": "Получатель", "amount": "Сумма"}[field]
                return line.problem(1, f"в платёжном поручении нет поля «{ru}:»",
                                    f"the payment order has no '{field}:' field")
        payer_text, payer_col = values["payer"]
        payer, rest = _match_names(payer_text, self.players)
        if payer is None or rest.strip():
            return line.problem(payer_col, *self._nobody(payer_text))
        recipient_text, recipient_col = values["recipient"]
        recipient, rest = _match_names(recipient_text, self.players)
        if recipient is None or rest.strip():
            ru, en = did_you_mean(suggest(recipient_text, [*self.players, TREASURY], limit=2))
            return line.problem(recipient_col, f"нет получателя «{recipient_text}» (игрок или Казна){ru}",
                                f"no recipient '{recipient_text}' (a player or the Treasury){en}")
        amount_text, amount_col = values["amount"]
        if not is_digits(amount_text):
            return line.problem(amount_col, f"«{amount_text}» — не сумма", f"'{amount_text}' is not an amount")
        try:
            amount = read_int(amount_text)
        except NumberError as exc:
            return line.problem(amount_col, exc.ru, exc.en)
        reason = values.get("reason", ("", 0))[0]
        return Order("transfer", {"amount": amount, "to": recipient, "reason": reason, "payer": payer},
                     line.number, line.text.strip())

    def _names(self, line: _Line, rest_at: int, kind: str) -> Order | Problem:
        found: list[str] = []
        offset = rest_at
        for part in line.text[rest_at:].split(","):
            column = offset + (len(part) - len(part.lstrip())) + 1
            offset += len(part) + 1
            piece = part.strip().rstrip(".")
            if not piece:
                continue
            name, rest = _match_names(piece, self.players)
            if name is None or name == TREASURY or rest.strip():
                return line.problem(column, *self._nobody(piece))
            if name not in found:
                found.append(name)
        if not found:
            return self._syntax(line, kind, len(line.text) + 1, "нужно имя игрока", "a player's name is needed")
        return Order(kind, {"players": found}, line.number, line.text.strip())

    def _hostile(self, line: _Line, rest_at: int) -> Order | Problem:
        return self._names(line, rest_at, "hostile")

    def _neutral(self, line: _Line, rest_at: int) -> Order | Problem:
        return self._names(line, rest_at, "neutral")

    def _bid(self, line: _Line, rest_at: int) -> Order | Problem:
        got = self._amount(line, rest_at, "bid")
        if isinstance(got, Problem):
            return got
        amount, at = got
        tokens = [(m.group(0).strip(".,"), m.start()) for m in _WORD.finditer(line.text, at)]
        tokens = [(t, c) for t, c in tokens if t.casefold() not in _FILLER]
        if len(tokens) != 1 or not _is_hex(tokens[0][0]):
            column = tokens[0][1] + 1 if tokens else len(line.text) + 1
            return self._syntax(line, "bid", column, "нужен гекс, куда придут кондотьеры",
                                "the hex where the condottieri are to come is needed")
        return Order("bid", {"amount": amount, "hex": tokens[0][0]}, line.number, line.text.strip())


def describe(order: Order, lang: str = "ru") -> str:
    """An understood order as the echo repeats it: «сбор 2 пешек в 0303», «перевод 5 монет Никите (за
    мир на границе)», «налог 2 монеты в казну», «поддержка из 0303 в 0403, на стороне Любови»."""
    from voevoda.core.words import Names, counted

    a = order.args
    ru = lang == "ru"
    names = Names(lang=lang)

    def pawns(n: int, case: str = "gent") -> str:
        return counted(n, "пешка", case=case) if ru else counted(n, "pawn", "en")

    if order.kind == "move":
        path = " → ".join([a["from"], *a["path"]])
        return f"ход {path}" if ru else f"move {path}"
    if order.kind == "support":
        if ru:
            side = f"на стороне {names.case(a['player'], 'gent')}" if a.get("player") else "на стороне тех, кто там стоит"
            return f"поддержка из {a['from']} в {a['to']}, {side}"
        return f"support from {a['from']} into {a['to']}: {a.get('player') or 'whoever stands there'}"
    if order.kind == "disband":
        return f"роспуск отрядов в {a['hex']}" if ru else f"disband the units in {a['hex']}"
    if order.kind == "raise":
        return f"сбор {pawns(int(a['count']))} в {a['hex']}" if ru else f"raise {pawns(int(a['count']))} in {a['hex']}"
    if order.kind == "upgrade":
        n = a.get("count")
        if ru:
            return f"улучшение {'всех пешек' if n is None else pawns(int(n))} в {a['hex']}"
        return f"upgrade {'all pawns' if n is None else pawns(int(n))} in {a['hex']}"
    if order.kind == "transfer":
        coins = counted(int(a["amount"]), "монета", case="accs") if ru else counted(int(a["amount"]), "coin", "en")
        reason = f" ({a['reason']})" if a.get("reason") else ""
        if a["to"] == TREASURY:
            if str(a.get("reason", "")).casefold() in ("налоги", "налог", "taxes", "tax"):
                return f"налог: {coins} в казну" if ru else f"tax: {coins} to the Treasury"
            return f"перевод {coins} в казну{reason}" if ru else f"transfer {coins} to the Treasury{reason}"
        return (f"перевод {coins} {names.case(a['to'], 'datv')}{reason}" if ru
                else f"transfer {coins} to {a['to']}{reason}")
    if order.kind in ("hostile", "neutral"):
        shown = join_and(list(a["players"]), lang)
        if order.kind == "hostile":
            return f"вражда: {shown}" if ru else f"hostile to {shown}"
        return f"мир: {shown}" if ru else f"at peace with {shown}"
    if order.kind == "bid":
        coins = counted(int(a["amount"]), "монета") if ru else counted(int(a["amount"]), "coin", "en")
        return (f"ставка за кондотьеров: {coins}, прийти им в {a['hex']}" if ru
                else f"bid for the condottieri: {coins}, to come to {a['hex']}")
    return order.text or order.kind
