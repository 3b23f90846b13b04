"""Counted nouns in the two languages reports speak.

Russian chooses among three forms by the number: «1 раунд», «3 раунда», «5 раундов», and
again «21 раунд», «22 раунда», «11 раундов». English has two: "1 round", "2 rounds".
Reports write ``count_ru(n, ("раунд", "раунда", "раундов"))`` instead of a fixed plural.
"""

from __future__ import annotations

RussianForms = tuple[str, str, str]
"""(one, few, many): the form after 1, after 2–4, after 5–20 and 0 («раунд», «раунда», «раундов»)."""


def plural_ru(n: int, forms: RussianForms) -> str:
    """The form of a Russian noun that agrees with the whole number ``n``."""
    one, few, many = forms
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def count_ru(n: int, forms: RussianForms) -> str:
    """``n`` followed by the agreeing form: ``count_ru(22, ("раунд", "раунда", "раундов"))``
    is «22 раунда»."""
    return f"{n} {plural_ru(n, forms)}"


def count_en(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the English noun: "1 round", "0 rounds", "2 rounds"."""
    return f"{n} {singular if abs(int(n)) == 1 else (plural or singular + 's')}"
