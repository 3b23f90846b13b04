"""Posts in Russian or English, read line by line into orders and back into choices.

What a post may say depends on what the player is asked (``state["pending"]``); the
syntax of each answer is in ``docs/culture_conquest.md``. Names of cultures,
technologies, resources, wonders and leaders are accepted in Russian, in English or as
their identifiers, in any letter case, with ё written as е; an unknown one gets the nearest
names as a suggestion.

The core reads the post first (docs/posts.md): markup read through, quotes and spoilers set
aside. A line that does not begin like an answer to the question asked (:meth:`Reader.begins`)
is prose: echoed as not read, never refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from voevoda.core import posts
from voevoda.core.errors import ParseError, Problem, ambiguous, invalid
from voevoda.core.posts import NumberError, did_you_mean, is_digits, read_int, suggest, word_forms
from voevoda.core.ruleset import Order
from voevoda.core.words import thing_accusative

from .data import Tables
from .game import CATEGORIES, CATEGORY_NAMES, PREFS, amount

WORD = re.compile(r"[^\s,;:]+")

CATEGORY_WORDS = {
    "army": ("армия", "армии", "армий", "army", "armies"),
    "fleet": ("флот", "флоты", "флотов", "флота", "fleet", "fleets"),
    "farmers": ("земледельцы", "земледельцев", "земледелие", "farmers", "farmer", "farming"),
    "merchants": ("торговцы", "торговцев", "торговля", "merchants", "merchant", "trade"),
    "workers": ("рабочие", "рабочих", "ремесло", "workers", "worker", "craft"),
    "scholars": ("ученые", "ученых", "ученый", "scholars", "scholar"),
}
GENERAL_WORDS = ("генерал", "генералы", "генералов", "general", "generals")
AMOUNT_WORDS = {
    "coins": ("монет", "монеты", "монета", "монету", "coins", "coin"),
    "food": ("пищи", "пища", "еды", "еда", "food"),
    "labour": ("труда", "труд", "labour", "labor"),
    "population": ("населения", "население", "людей", "человек", "человека", "population", "people"),
}
KEY_WORDS = {
    "city": ("город", "city"),
    "tech": ("технология", "технологию", "технологии", "tech", "technology"),
    "leader": ("лидер", "лидера", "лидеров", "leader"),
    "resource": ("ресурс", "resource"),
    "promise": ("обещание", "promise"),
}


PREF_HEADS = (("потери в бою", "battle"), ("потери в битве", "battle"), ("battle losses", "battle"),
              ("losses in battle", "battle"), ("потери", "losses"), ("losses", "losses"),
              ("дезертиры", "unpaid"), ("deserters", "unpaid"))
"""How a standing choice begins (ruling 48), the colon included: «потери: рабочие, торговцы»."""
PREF_WORDS = {"losses": ("потери", "losses"), "battle": ("потери в бою", "battle losses"),
              "unpaid": ("дезертиры", "deserters")}
DEFAULT_WORDS = ("по умолчанию", "как обычно", "default", "as usual")
JOINING_WORDS = ("и", "затем", "потом", "and", "then")


def pref_head(line: str) -> tuple[str, int] | None:
    """The standing choice a line sets and where its list begins (after the colon), if it is
    one: «потери в бою: флот» -> ("battle", 14)."""
    low = line.lower().replace("ё", "е")
    for words, key in PREF_HEADS:
        pattern = r"\s*" + r"\s+".join(words.split()) + r"\s*:"
        match = re.match(pattern, low)
        if match:
            return key, match.end()
    return None


def norm(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").split())


QUOTES = "«»\"“”„'"


def unquote(text: str) -> str:
    """A name as a player may quote it: «Чеканка монеты», "Pyramids"."""
    return text.strip().strip(QUOTES).strip()


class Names:
    """Normalised names -> keys, for one table: Russian (in any case: «выбрать Философию»), English,
    identifiers and aliases, quoted or not."""

    def __init__(self, table: Mapping[str, Any]) -> None:
        self.index: dict[str, str] = {}
        self.shown: dict[str, tuple[str, str]] = {}
        self._declined: dict[str, str] | None = None
        for key, item in table.items():
            self.shown[key] = (item.ru, item.en)
            for name in (key, key.replace("_", " "), item.ru, item.en, *item.aliases):
                self.index[norm(name)] = key

    def declined(self) -> dict[str, str]:
        """Every case and number of the Russian names, made when a name is first not found as
        written (the dictionary is not consulted for the names posts write in the nominative)."""
        if self._declined is None:
            self._declined = {norm(form): key for key, (ru, _) in self.shown.items() for form in word_forms(ru)}
        return self._declined

    def find(self, text: str) -> str | None:
        low = norm(unquote(text))
        return self.index.get(low) or self.declined().get(low)

    def near(self, text: str) -> tuple[str, str]:
        """The Russian and English tails that suggest the names nearest to ``text``, as the
        tables write them («Философия», «Pyramids»)."""
        keys = [self.index[norm(x)] for x in suggest(unquote(text), self.index, limit=2)]
        ru, _ = did_you_mean([self.shown[k][0] for k in keys])
        _, en = did_you_mean([self.shown[k][1] for k in keys])
        return ru, en


HEADS: dict[str, tuple[str, ...]] = {
    "culture": ("культура", "culture"),
    "industrial": ("ресурс", "resource"),
    "assign": tuple(w for words in CATEGORY_WORDS.values() for w in words) + ("без", "no", "keep"),
    "attack": ("мир", "не", "peace", "no", "напасть", "атаковать", "attack"),
    "ally": ("нейтралитет", "никого", "neutral", "none", "за", "join", "support", "поддержать",
             "нападающего", "нападающих", "attacker", "attackers", "обороняющегося", "защитника",
             "defender", "defenders"),
    "tribute": ("дань", "tribute"),
    "offer": ("конец", "не", "без", "no", "done", "pass", "предложить", "offer"),
    "reply": ("принять", "принимаю", "да", "accept", "yes", "отклонить", "отказ", "нет", "decline", "reject"),
    "build": ("ничего", "nothing", "none", "город", "city", "ресурс", "resource", "чудо", "wonder",
              "промресурс", "промышленность", "industry", "industrial"),
    "research": ("пропустить", "ничего", "pass", "nothing", "выбрать", "выбираю", "choose", "купить",
                 "покупаю", "buy"),
}
"""The words an answer to each question begins with (docs/culture_conquest.md)."""


class Reader:
    """Parses posts for one configured ruleset (the tables fix the names)."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables
        self.cultures = Names(tables.cultures.cultures)
        self.techs = Names(tables.techs.technologies)
        self.industrial = Names(tables.resources.industrial)
        self.resources = Names({**tables.resources.natural, **tables.resources.industrial})
        self.wonders = Names(tables.wonders.wonders)
        self.leaders = Names(tables.leaders.leaders)

    # -- entry ---------------------------------------------------------------------

    def begins(self, line: str, state: Mapping[str, Any]) -> bool:
        """Whether a line begins like an answer to the question asked: its first word is one
        an answer begins with (or a typo of one), a number, a word followed by a number, or a
        name the answer may give bare (a culture, an industrial resource, a player)."""
        pending = state.get("pending")
        if not pending:
            return True
        low = norm(line.split("#", 1)[0].split("//", 1)[0])
        if not low:
            return False
        if low[0].isdigit():
            return True
        if pref_head(low) is not None:
            return True
        kind = str(pending["kind"])
        words = [w.strip(",;:.!?") for w in low.split()]
        first = words[0]
        heads = HEADS.get(kind, ())
        if first in heads or suggest(first, heads, limit=1, cutoff=0.8):
            return True
        if len(words) > 1 and is_digits(words[1]):
            return True  # «колесницы 3»: an answer with a wrong word, not prose
        bare: list[str] = []
        if kind == "culture":
            bare = list(self.cultures.index)
        elif kind == "industrial":
            bare = list(self.industrial.index)
        elif kind in ("attack", "ally"):
            bare = [norm(p) for p in state.get("order", ())]
        return any(low == name or low.startswith(name + " ") or low.startswith(name + ",") for name in bare)

    def parse(self, text: str, player: str, state: Mapping[str, Any]) -> list[Order]:
        pending = state.get("pending")
        if not pending or player not in pending["players"]:
            raise ParseError([invalid("от вас сейчас ничего не ждут", "nothing is asked of you now")])
        kind = pending["kind"]
        reader = getattr(self, "_" + kind)
        orders: list[Order] = []
        problems: list[Problem] = []
        post = posts.read(text, begins_order=lambda line: self.begins(line, state))
        for source in post.orders:
            number = source.number
            line = source.text.split("#", 1)[0].split("//", 1)[0].rstrip()
            if not line.strip():
                continue
            lead = len(line) - len(line.lstrip())
            try:
                order = self._prefs(line.strip()) if pref_head(line) else reader(line.strip(), player, state, pending)
            except LineProblem as exc:
                problems.append(Problem(exc.kind, exc.ru, exc.en, number, source.column(lead + exc.offset),
                                        line.strip()))
                continue
            orders.append(Order(order[0], order[1], number, line.strip()))
        if not orders and not problems:
            if post.prose:
                problems.append(invalid(
                    "в посте нет ответа: ни одна строка не начинается как ответ на вопрос (см. подсказку)",
                    "the post holds no answer: no line begins like an answer to the question (see the prompt)",
                    post.prose[0].number, post.prose[0].column(0)))
            else:
                problems.append(invalid("пустой ответ", "an empty answer", 1, 1))
        if problems:
            raise ParseError(problems, [o.text for o in orders], orders=orders)
        return orders

    # -- standing choices, in any answer (ruling 48) ----------------------------------

    def _prefs(self, line: str) -> tuple[str, dict[str, Any]]:
        """«потери: рабочие, торговцы», «потери в бою: флот», «дезертиры: армия»; «...: по умолчанию»."""
        head = pref_head(line)
        assert head is not None
        key, start = head
        body = line[start:]
        if norm(body) in DEFAULT_WORDS:
            return "prefs", {key: None}
        allowed = PREFS[key]
        named: list[str] = []
        for match in WORD.finditer(body):
            word, at = match.group(0), start + match.start()
            if norm(word) in JOINING_WORDS:
                continue
            category = _category(word)
            if category is None:
                ru, en = _category_near(word, allowed)
                raise LineProblem("invalid", f"«{word}» — не категория населения{ru}",
                                  f"'{word}' is not a population category{en}", at)
            if category not in allowed:
                raise LineProblem("illegal", f"в бою гибнут и без жалованья уходят только армии и флоты, "
                                  f"а не «{word}»", f"only armies and fleets die in battle or desert unpaid, "
                                  f"not '{word}'", at)
            if category in named:
                raise LineProblem("ambiguous", f"«{word}» названа дважды", f"'{word}' is named twice", at)
            named.append(category)
        if not named:
            raise LineProblem("invalid", "перечислите категории через запятую («потери: рабочие, торговцы») "
                              "или напишите «по умолчанию»", "list the categories ('losses: workers, merchants') "
                              "or write 'default'", start)
        return "prefs", {key: named}

    # -- one reader per prompt ------------------------------------------------------

    def _culture(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                 ) -> tuple[str, dict[str, Any]]:
        rest = _after(line, ("культура", "culture"))
        key = self.cultures.find(rest)
        if key is None:
            ru, en = self.cultures.near(rest)
            raise LineProblem("invalid", f"нет культуры «{rest}»{ru}", f"no culture '{rest}'{en}", len(line) - len(rest))
        return "culture", {"culture": key}

    def _industrial(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                    ) -> tuple[str, dict[str, Any]]:
        rest = _after(line, ("ресурс", "resource"))
        key = self.industrial.find(rest)
        if key is None:
            ru, en = self.industrial.near(rest)
            raise LineProblem("invalid", f"нет промышленного ресурса «{rest}»{ru}",
                              f"no industrial resource '{rest}'{en}", len(line) - len(rest))
        return "industrial", {"resource": key}

    def _assign(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                ) -> tuple[str, dict[str, Any]]:
        if norm(line) in ("без изменений", "no change", "keep"):
            return "assign", {"pop": {}}
        pop: dict[str, int] = {}
        tokens = [(m.group(0), m.start()) for m in WORD.finditer(line)]
        i = 0
        while i < len(tokens):
            word, at = tokens[i]
            category = _category(word)
            if category is None and not is_digits(word):
                ru, en = _category_near(word, CATEGORIES)
                ru = ru or ": армия, флот, земледельцы, торговцы, рабочие или учёные («армия 3»)"
                en = en or ": army, fleet, farmers, merchants, workers or scholars ('army 3')"
                raise LineProblem("invalid", f"«{word}» — не категория населения{ru}",
                                  f"'{word}' is not a population category{en}", at)
            if category is None or i + 1 >= len(tokens) or not is_digits(tokens[i + 1][0]):
                raise LineProblem("invalid", f"ожидалось «категория число», например «армия 3», а не «{word}»",
                                  f"expected 'category number', e.g. 'army 3', not '{word}'", at)
            if category in pop:
                raise LineProblem("ambiguous", f"категория «{CATEGORY_NAMES[category][0].lower()}» названа дважды",
                                  f"category '{category}' is named twice", at)
            pop[category] = _int(*tokens[i + 1])
            i += 2
        return "assign", {"pop": pop}

    def _attack(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                ) -> tuple[str, dict[str, Any]]:
        if norm(line) in ("мир", "не нападать", "peace", "no attack"):
            return "attack", {"target": None}
        rest = _after(line, ("напасть на", "напасть", "атаковать", "attack"))
        return "attack", {"target": _player(state, rest, len(line) - len(rest))}

    def _ally(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
              ) -> tuple[str, dict[str, Any]]:
        if norm(line) in ("нейтралитет", "никого", "neutral", "none"):
            return "ally", {"side": None}
        rest = _after(line, ("за", "join", "support", "поддержать"))
        tokens = [(m.group(0), m.start() + len(line) - len(rest)) for m in WORD.finditer(rest)]
        if not tokens:
            raise LineProblem("invalid", "за кого?", "which side?", 0)
        head = norm(tokens[0][0])
        if head in ("нападающего", "нападающих", "attacker", "attackers"):
            side = "attacker"
        elif head in ("обороняющегося", "защитника", "defender", "defenders"):
            side = "defender"
        else:
            name = _player(state, tokens[0][0], tokens[0][1])
            if name == pending["attacker"]:
                side = "attacker"
            elif name == pending["defender"]:
                side = "defender"
            else:
                raise LineProblem("illegal", f"{name} не участвует в этой битве",
                                  f"{name} is not in this battle", tokens[0][1])
        args: dict[str, Any] = {"side": side, "army": 0, "fleet": 0, "generals": 0}
        i = 1
        while i < len(tokens):
            word, at = tokens[i]
            key = _category(word)
            if norm(word) in GENERAL_WORDS:
                key = "generals"
            if key not in ("army", "fleet", "generals") or i + 1 >= len(tokens) or not is_digits(tokens[i + 1][0]):
                raise LineProblem("invalid", "ожидалось «армия N», «флот N» или «генерал N»",
                                  "expected 'army N', 'fleet N' or 'general N'", at)
            args[key] = _int(*tokens[i + 1])
            i += 2
        return "ally", args

    def _tribute(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                 ) -> tuple[str, dict[str, Any]]:
        rest = _after(line, ("дань", "tribute"))
        low = norm(rest)
        if low in ("монеты", "монет", "coins"):
            return "tribute", {"kind": "coins", "target": None}
        if low in ("население", "рабы", "population", "slaves"):
            return "tribute", {"kind": "population", "target": None}
        for word, kind in (("город", "city"), ("city", "city"), ("ресурс", "resource"), ("resource", "resource")):
            if low.startswith(word + " "):
                name = rest.split(None, 1)[1].strip()
                if kind == "city":
                    return "tribute", {"kind": "city", "target": _city(state, pending["defender"], name)}
                key = self.resources.find(name)
                if key is None:
                    ru, en = self.resources.near(name)
                    raise LineProblem("invalid", f"нет ресурса «{name}»{ru}", f"no resource '{name}'{en}", 0)
                return "tribute", {"kind": "resource", "target": key}
        raise LineProblem("invalid", "дань: монеты, город <название>, население или ресурс <название>",
                          "tribute: coins, city <name>, population or resource <name>", 0)

    def _offer(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
               ) -> tuple[str, dict[str, Any]]:
        if norm(line) in ("конец торговли", "не торговать", "без торговли", "no trade", "done", "pass"):
            return "offer", {"to": None}
        rest = _after(line, ("предложить", "offer"))
        if ":" not in rest:
            raise LineProblem("invalid", "ожидалось «предложить Игрок: даю ...; прошу ...»",
                              "expected 'offer Player: give ...; take ...'", 0)
        who, terms = rest.split(":", 1)
        to = _player(state, who.strip(), 0)
        give: list[dict[str, Any]] = []
        take: list[dict[str, Any]] = []
        for part in terms.split(";"):
            part = part.strip()
            if not part:
                continue
            low = norm(part)
            if low.startswith(("даю ", "отдаю ", "give ")):
                target = give
            elif low.startswith(("прошу ", "беру ", "получаю ", "take ", "want ")):
                target = take
            else:
                raise LineProblem("invalid", f"часть «{part}» должна начинаться с «даю» или «прошу»",
                                  f"'{part}' must begin with 'give' or 'take'", line.find(part))
            body = part.split(None, 1)[1] if " " in part else ""
            for chunk in body.split(","):
                if chunk.strip():
                    target.append(self._item(chunk.strip(), line.find(chunk.strip())))
        return "offer", {"to": to, "give": give, "take": take}

    def _item(self, text: str, at: int) -> dict[str, Any]:
        words = text.split(None, 1)
        first = norm(words[0])
        if is_digits(first) and len(words) == 2:
            # «10 монет», «5 пищи», «5 единиц пищи», «3 ед. труда»
            what = re.sub(r"^(?:единиц[аыу]?|ед\.?)\s+", "", norm(words[1]))
            for kind, names in AMOUNT_WORDS.items():
                if what in names:
                    return {"kind": kind, "amount": _int(first, at)}
        for kind, names in KEY_WORDS.items():
            if first in names and len(words) == 2:
                name = unquote(words[1])
                if kind in ("city", "promise"):
                    return {"kind": kind, "key": name}
                table = {"tech": self.techs, "leader": self.leaders, "resource": self.resources}[kind]
                key = table.find(name)
                if key is None:
                    ru, en = table.near(name)
                    raise LineProblem("invalid", f"неизвестное название «{name}»{ru}", f"unknown name '{name}'{en}", at)
                return {"kind": kind, "key": key}
        raise LineProblem("invalid", f"не понял «{text}» (например: 10 монет, технология Философия)",
                          f"cannot read '{text}' (e.g. 10 coins, tech Philosophy)", at)

    def _reply(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
               ) -> tuple[str, dict[str, Any]]:
        low = norm(line)
        if low in ("принять", "принимаю", "да", "accept", "yes"):
            return "reply", {"accept": True}
        if low in ("отклонить", "отказ", "нет", "decline", "reject", "no"):
            return "reply", {"accept": False}
        raise LineProblem("invalid", "ответ: принять или отклонить", "answer: accept or decline", 0)

    def _build(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
               ) -> tuple[str, dict[str, Any]]:
        low = norm(line)
        if low in ("ничего", "nothing", "none"):
            return "build", {"project": None}
        head, _, rest = line.strip().partition(" ")
        head = norm(head)
        numbers = [w for w in rest.split() if is_digits(w)]
        if len(numbers) != 1:
            raise LineProblem("invalid", "укажите одно число — сколько труда вложить",
                              "give one number: how much labour to put in", len(head) + 1)
        amount = _int(numbers[0], len(head) + 1 + rest.find(numbers[0]))
        name = " ".join(w for w in rest.split() if w != numbers[0]).strip()
        if head in ("город", "city"):
            return "build", {"project": "city", "target": None, "name": name or None, "labour": amount}
        if head in ("ресурс", "resource"):
            return "build", {"project": "resource", "target": None, "name": None, "labour": amount}
        if head in ("чудо", "wonder"):
            words = rest.split()
            split = next((i for i, w in enumerate(words) if norm(w) in ("город", "city")), len(words))
            name = " ".join(w for w in words[:split] if w != numbers[0]).strip()
            key = self.wonders.find(name)
            if key is None:
                ru, en = self.wonders.near(name)
                raise LineProblem("invalid", f"нет чуда «{name}»{ru}", f"no wonder '{name}'{en}", len(head) + 1)
            if numbers[0] not in words[:split]:
                raise LineProblem("invalid", "число труда — до слова «город»: «чудо Пирамиды 20 город Фивы»",
                                  "the labour comes before 'city': 'wonder Pyramids 20 city Thebes'", len(head) + 1)
            args: dict[str, Any] = {"project": "wonder", "target": key, "name": None, "labour": amount}
            if split < len(words):
                args["city"] = _own_city(state, player, " ".join(words[split + 1:]),
                                         len(head) + 1 + rest.find(words[split]))
            return "build", args
        if head in ("промресурс", "промышленность", "industry", "industrial"):
            key = self.industrial.find(name)
            if key is None:
                ru, en = self.industrial.near(name)
                raise LineProblem("invalid", f"нет промышленного ресурса «{name}»{ru}",
                                  f"no industrial resource '{name}'{en}", len(head) + 1)
            return "build", {"project": "industrial", "target": key, "name": None, "labour": amount}
        raise LineProblem("invalid", "стройка: город, чудо, ресурс или промресурс",
                          "build: city, wonder, resource or industry", 0)

    def _research(self, line: str, player: str, state: Mapping[str, Any], pending: Mapping[str, Any]
                  ) -> tuple[str, dict[str, Any]]:
        low = norm(line)
        if low in ("пропустить", "ничего", "pass", "nothing"):
            return "research", {}
        head, _, rest = line.strip().partition(" ")
        head = norm(head)
        key = self.techs.find(rest)
        if head not in ("выбрать", "выбираю", "choose", "купить", "покупаю", "buy"):
            raise LineProblem("invalid", "исследования: выбрать <технология> или купить <технология>",
                              "research: choose <technology> or buy <technology>", 0)
        if key is None:
            ru, en = self.techs.near(rest)
            raise LineProblem("invalid", f"нет технологии «{rest}»{ru}", f"no technology '{rest}'{en}", len(head) + 1)
        return "research", {"pick" if head in ("выбрать", "выбираю", "choose") else "buy": key}


class LineProblem(Exception):
    def __init__(self, kind: str, ru: str, en: str, offset: int) -> None:
        super().__init__(en)
        self.kind: Any = kind
        self.ru, self.en, self.offset = ru, en, max(0, offset)


def _int(token: str, at: int) -> int:
    """A number of a post, through the core's bounded reader."""
    try:
        return read_int(token)
    except NumberError as exc:
        raise LineProblem("invalid", exc.ru, exc.en, at) from exc


def _after(line: str, heads: Sequence[str]) -> str:
    """The line after its answer's word and the colon or dash a player may put after it
    («культура Египетская», «Культура: Египетская», «культура — египетская»)."""
    text = line.strip()
    for head in heads:
        match = re.match(re.escape(head) + r"(?:\s*[:\-–—=]\s*|\s+)", text, re.IGNORECASE)
        if match:
            return text[match.end():].strip()
    return text


def _category_near(word: str, allowed: Sequence[str]) -> tuple[str, str]:
    """The Russian and English tails that suggest the categories nearest to a misspelt one
    («учоные» → «учёные»), as the rules name them."""
    forms = {w: c for c in allowed for w in CATEGORY_WORDS[c]}
    found = list(dict.fromkeys(forms[norm(x)] for x in suggest(word, forms, limit=2)))
    ru, _ = did_you_mean([CATEGORY_NAMES[c][0].lower() for c in found])
    _, en = did_you_mean([c for c in found])
    return ru, en


def _category(word: str) -> str | None:
    w = norm(word)
    for category, names in CATEGORY_WORDS.items():
        if w in names:
            return category
    return None


def _player(state: Mapping[str, Any], text: str, at: int) -> str:
    """A player named as a post names him, in any case: «напасть на Никиту», «предложить Илье: …»,
    «за Любовь»."""
    from voevoda.core.words import CASES
    from voevoda.core.words import Names as PlayerNames

    wanted = norm(unquote(text))
    found = [p for p in state["order"] if norm(p) == wanted]
    if not found:
        names = PlayerNames(state.get("genders"))
        found = [p for p in state["order"] if any(norm(names.case(str(p), case)) == wanted for case in CASES)]
    if not found:
        ru, en = did_you_mean(suggest(text, [str(p) for p in state["order"]], limit=2))
        raise LineProblem("invalid", f"нет игрока «{text}»{ru}", f"no player '{text}'{en}", at)
    return str(found[0])


def _city(state: Mapping[str, Any], owner: str, text: str) -> str:
    for city in state["players"][owner]["cities"]:
        if norm(city["name"]) == norm(text):
            return str(city["name"])
    raise LineProblem("illegal", f"у {owner} нет города «{text}»", f"{owner} has no city '{text}'", 0)


def _own_city(state: Mapping[str, Any], player: str, text: str, at: int) -> str:
    """One of ``player``'s cities, or a city he is building, by its name in any letter case."""
    p = state["players"][player]
    names = [c["name"] for c in p["cities"]] + [x["name"] for x in p["projects"]
                                                  if x["project"] == "city" and x.get("name")]
    for name in names:
        if norm(name) == norm(text):
            return str(name)
    if not text.strip():
        raise LineProblem("invalid", "после «город» — название города", "'city' needs a city's name", at)
    ru, en = did_you_mean(suggest(text, [str(n) for n in names], limit=2))
    raise LineProblem("illegal", f"у вас нет города «{text}»{ru}", f"you have no city '{text}'{en}", at)


# -- orders -> choice ------------------------------------------------------------------

def choice_from_orders(kind: str, orders: Sequence[Order]) -> tuple[dict[str, Any], list[Problem]]:
    """Merge the orders of one post into the choice its prompt asks for; standing choices
    (ruling 48) ride along in ``choice["prefs"]``, but a post of nothing else answers nothing."""
    prefs: dict[str, Any] = {}
    answer: list[Order] = []
    problems: list[Problem] = []
    for order in orders:
        if order.kind != "prefs":
            answer.append(order)
            continue
        for key, value in order.args.items():
            if key in prefs:
                problems.append(ambiguous(f"правило «{PREF_WORDS[key][0]}» названо дважды",
                                          f"'{PREF_WORDS[key][1]}' is given twice", order.line))
            prefs[key] = value
    if prefs and not answer:
        problems.append(invalid("в посте только правила потерь: добавьте к ним ответ на вопрос этой фазы "
                                "(см. подсказку)", "the post holds only standing loss orders: add the answer to "
                                "this phase's question (see the prompt)", orders[0].line))
        return {"prefs": prefs}, problems
    choice, more = _answer(kind, answer)
    if prefs:
        choice["prefs"] = prefs
    return choice, problems + more


def _answer(kind: str, orders: Sequence[Order]) -> tuple[dict[str, Any], list[Problem]]:
    problems: list[Problem] = []
    if kind == "assign":
        pop: dict[str, int] = {}
        for order in orders:
            for category, value in order.args["pop"].items():
                if category in pop:
                    problems.append(ambiguous(f"категория «{CATEGORY_NAMES[category][0].lower()}» названа дважды: "
                                              "в каждой категории одно число",
                                              f"category '{category}' is named twice", order.line))
                pop[category] = value
        return {"pop": pop}, problems
    if kind == "build":
        alloc = [dict(o.args) for o in orders if o.args.get("project")]
        return {"alloc": alloc}, problems
    if kind == "research":
        picks = [o.args["pick"] for o in orders if "pick" in o.args]
        buys = [o.args["buy"] for o in orders if "buy" in o.args]
        return {"picks": picks, "buy": buys}, problems
    if len(orders) > 1:
        problems.append(ambiguous("здесь нужен один ответ, а их несколько",
                                  "one answer is expected here, several were given", orders[1].line))
    return dict(orders[0].args), problems


# -- choice -> text (computer opponents post what a person would) -------------------------

def format_choice(kind: str, choice: Mapping[str, Any], tables: Tables, lang: str = "ru") -> str:
    """The post that carries ``choice``: its answer, then a line per standing choice it sets."""
    text = _format_answer(kind, choice, tables, lang)
    if choice.get("prefs"):
        text += "\n" + "\n".join(format_prefs(choice["prefs"], lang))
    return text


def format_prefs(prefs: Mapping[str, Any], lang: str = "ru") -> list[str]:
    """«потери: рабочие, торговцы», «потери в бою: флот», «дезертиры: по умолчанию»."""
    ru = lang == "ru"
    lines = []
    for key in PREFS:
        if key not in prefs:
            continue
        value = prefs[key]
        head = PREF_WORDS[key][0 if ru else 1]
        if value is None:
            lines.append(f"{head}: " + ("по умолчанию" if ru else "default"))
        else:
            lines.append(f"{head}: " + ", ".join(CATEGORY_NAMES[c][0].lower() if ru else c for c in value))
    return lines


def _format_answer(kind: str, choice: Mapping[str, Any], tables: Tables, lang: str = "ru") -> str:
    ru = lang == "ru"

    def name(key: str) -> str:
        return tables.name(key, lang)

    if kind == "culture":
        return ("культура " if ru else "culture ") + name(choice["culture"])
    if kind == "industrial":
        return ("ресурс " if ru else "resource ") + name(choice["resource"])
    if kind == "assign":
        words = {c: (CATEGORY_NAMES[c][0].lower() if ru else c) for c in CATEGORIES}
        parts = [f"{words[c]} {choice['pop'][c]}" for c in CATEGORIES if c in choice["pop"]]
        return ", ".join(parts) if parts else ("без изменений" if ru else "no change")
    if kind == "attack":
        if not choice.get("target"):
            return "мир" if ru else "peace"
        return f"напасть на {_people().case(str(choice['target']), 'accs')}" if ru else f"attack {choice['target']}"
    if kind == "ally":
        if not choice.get("side"):
            return "нейтралитет" if ru else "neutral"
        side = {"attacker": ("нападающего", "attacker"), "defender": ("обороняющегося", "defender")}
        head = ("за " if ru else "join ") + side[choice["side"]][0 if ru else 1]
        units = [("армия" if ru else "army", choice.get("army", 0)), ("флот" if ru else "fleet", choice.get("fleet", 0)),
                 ("генерал" if ru else "general", choice.get("generals", 0))]
        return head + "".join(f", {w} {n}" for w, n in units if n)
    if kind == "tribute":
        head = "дань " if ru else "tribute "
        k = choice["kind"]
        if k == "coins":
            return head + ("монеты" if ru else "coins")
        if k == "population":
            return head + ("население" if ru else "population")
        if k == "city":
            return head + ("город " if ru else "city ") + str(choice["target"])
        return head + ("ресурс " if ru else "resource ") + name(choice["target"])
    if kind == "offer":
        if not choice.get("to"):
            return "конец торговли" if ru else "no trade"
        parts = []
        if choice.get("give"):
            parts.append(("даю " if ru else "give ") + ", ".join(_item_text(i, tables, lang) for i in choice["give"]))
        if choice.get("take"):
            parts.append(("прошу " if ru else "take ") + ", ".join(_item_text(i, tables, lang) for i in choice["take"]))
        to = str(choice["to"])
        return (f"предложить {_people().case(to, 'datv')}: " if ru else f"offer {to}: ") + "; ".join(parts)
    if kind == "reply":
        return ("принять" if ru else "accept") if choice["accept"] else ("отклонить" if ru else "decline")
    if kind == "build":
        lines = []
        for part in choice["alloc"]:
            p, n = part["project"], part["labour"]
            if p == "city":
                lines.append(f"{'город' if ru else 'city'} {n}" + (f" {part['name']}" if part.get("name") else ""))
            elif p == "resource":
                lines.append(f"{'ресурс' if ru else 'resource'} {n}")
            elif p == "wonder":
                lines.append(f"{'чудо' if ru else 'wonder'} {name(part['target'])} {n}"
                             + (f" {'город' if ru else 'city'} {part['city']}" if part.get("city") else ""))
            else:
                lines.append(f"{'промресурс' if ru else 'industry'} {name(part['target'])} {n}")
        return "\n".join(lines) if lines else ("ничего" if ru else "nothing")
    if kind == "research":
        def tech(key: str) -> str:
            return thing_accusative(name(key)) if ru else name(key)

        lines = [("выбрать " if ru else "choose ") + tech(x) for x in choice.get("picks", [])]
        lines += [("купить " if ru else "buy ") + tech(x) for x in choice.get("buy", [])]
        return "\n".join(lines) if lines else ("пропустить" if ru else "pass")
    raise ValueError(kind)


def _item_text(item: Mapping[str, Any], tables: Tables, lang: str) -> str:
    """One thing offered as the offer names it: «2 монеты», «5 единиц пищи», «технологию «Чеканка
    монеты»», «город «Фивы»»; "2 coins", "5 food", "tech Coinage"."""
    ru = lang == "ru"
    kind = item["kind"]
    if kind in AMOUNT_WORDS:
        if ru:
            return amount(kind, int(item["amount"]), case="accs")
        return f"{item['amount']} {kind}"
    word = {"city": ("город", "city"), "tech": ("технологию", "tech"), "leader": ("лидера", "leader"),
            "resource": ("ресурс", "resource"), "promise": ("обещание", "promise")}[kind]
    key = str(item["key"])
    shown = key if kind in ("city", "promise") else tables.name(key, lang)
    return f"{word[0]} «{shown}»" if ru else f"{word[1]} {shown}"


def _people() -> Any:
    """Players' names declined for the posts a computer opponent writes («напасть на Никиту»); the
    reader takes a name in any case."""
    from voevoda.core.words import Names as PlayerNames

    return PlayerNames()
