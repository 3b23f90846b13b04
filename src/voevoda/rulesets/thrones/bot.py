"""The computer opponent: a house's post written from its own view alone (the board, the public
record and its own treasury), with its choices drawn from its sealed stream.

It plays plainly: places its holy token at home, answers an alliance offered to it and now and
then offers one, buys footmen where its castles and supply allow, keeps coins for the Night's
Watch, bids a little, bribes a weak neighbour when it can afford it, consolidates power on its
crowns, marches into empty neighbouring lands and sometimes attacks. Every line it writes is read
back through the parser and checked like a person's post; a line the rules refuse is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from voevoda.core.dice import Stream
from voevoda.core.errors import OrdersRejected
from voevoda.rulesets.thrones import economy
from voevoda.rulesets.thrones.plan import make_plan
from voevoda.rulesets.thrones.rules import LAND_UNITS
from voevoda.rulesets.thrones.state import alliance_of, unit_count
from voevoda.rulesets.thrones.turn import awaited, current_holy, default_holy_area
from voevoda.rulesets.thrones.views import money_of

if TYPE_CHECKING:
    from voevoda.rulesets.thrones.ruleset import Thrones


def write_post(view: Mapping[str, Any], player: str, stream: Stream, ruleset: Thrones) -> str:
    if view.get("outcome") is not None or player not in awaited(view, ruleset.ctx):
        return ""
    writer = _Writer(view, player, stream, ruleset)
    lines = getattr(writer, f"phase_{view['phase']}")()
    lines.extend(writer.money())
    return writer.keep(lines)


class _Writer:
    def __init__(self, view: Mapping[str, Any], player: str, stream: Stream, ruleset: Thrones) -> None:
        self.view = view
        self.player = player
        self.stream = stream
        self.ruleset = ruleset
        self.ctx = ruleset.ctx
        self.board = ruleset.board
        self.english = stream.roll(5) == 1
        self.money_now = money_of(view, player) or 0

    # -- words ---------------------------------------------------------------------------------------

    def area(self, area: str) -> str:
        return self.board[area].name_en if self.english else self.board[area].name_ru

    def house(self, player: str) -> str:
        hid = self.view["houses"][player]["house"]
        return self.ctx.rules.houses[hid].name("en" if self.english else "ru")

    def unit(self, kind: str, n: int) -> str:
        stats = self.ctx.rules.units[kind]
        if self.english:
            return f"{n} {stats.name_en if n == 1 else (stats.plural_en or stats.name_en + 's')}"
        from voevoda.core.words import counted

        return counted(n, stats.name_ru)

    def units(self, units: Mapping[str, int]) -> str:
        return ", ".join(self.unit(k, n) for k, n in units.items() if n)

    def say(self, ru: str, en: str) -> str:
        return en if self.english else ru

    def keep(self, lines: list[str]) -> str:
        """The lines the rules accept, each checked after those kept before it; then, while the post
        as a whole breaks a rule (an army beyond the supply), its last lines are dropped."""
        kept: list[str] = []
        for line in lines:
            orders = self.keep_all([*kept, line])
            if orders is None:
                continue
            plan = make_plan(self.ctx, self.view, self.player, orders)
            if not any(i.problems for i in plan.items):
                kept.append(line)
        while len(kept) > 1:
            orders = self.keep_all(kept)
            if orders is not None and not make_plan(self.ctx, self.view, self.player, orders).problems:
                break
            kept.pop()
        return "\n".join(kept)

    # -- what it holds ----------------------------------------------------------------------------------

    def mine(self) -> dict[str, dict[str, int]]:
        return {a: {k: int(v) for k, v in info["units"].items() if v}
                for a, info in self.view["board"].items() if info["house"] == self.player and unit_count(info)}

    def pick(self, items: list[Any]) -> Any:
        return items[self.stream.roll(len(items)) - 1]

    # -- phases -------------------------------------------------------------------------------------------

    def phase_holy(self) -> list[str]:
        token = current_holy(self.view)
        area = default_holy_area(self.view, self.ctx, str(token), self.player)
        return [self.say(f"святыня {self.area(area)}", f"holy {self.area(area)}")]

    def phase_diplomacy(self) -> list[str]:
        declared = self.view.get("declared", {})
        for p, members in declared.items():
            if self.player in members:
                others = sorted({p, *members} - {self.player})
                return [self.say("союз " + ", ".join(self.house(q) for q in others),
                                 "alliance " + ", ".join(self.house(q) for q in others))]
        free = [p for p in self.view["seats"] if p != self.player and p not in declared]
        if free and self.stream.roll(10) <= 4:
            q = self.pick(free)
            return [self.say(f"союз {self.house(q)}", f"alliance {self.house(q)}")]
        return [self.say("одиночка", "alone")]

    def phase_trade(self) -> list[str]:
        lines: list[str] = []
        due = economy.dues_each(self.view, self.ctx, self.player)
        spare = self.money_now - due
        price = economy.buy_price(self.view, self.ctx, self.player, "footman")
        castles = [a for a, info in self.view["board"].items()
                   if info["house"] == self.player and self.board[a].castle_level]
        if castles and price and spare >= price and self.stream.roll(3) > 1:
            where = self.pick(sorted(castles))
            n = min(2, spare // price)
            lines.append(self.say(f"купить {self.unit('footman', n)} {self.area(where)}",
                                  f"buy {self.unit('footman', n)} {self.area(where)}"))
        strongholds = [a for a in castles if self.board[a].castle_level == 2]
        kprice = economy.upgrade_price(self.view, self.ctx, self.player, "knight")
        if strongholds and spare >= 2 * price + kprice and self.stream.roll(4) == 1:
            where = self.pick(sorted(strongholds))
            lines.append(self.say(f"улучшить пешего до рыцаря {self.area(where)}",
                                  f"upgrade footman to knight {self.area(where)}"))
        mine = self.mine()
        if due > self.money_now and mine:
            # pay the dues in troops rather than have the cheapest sold
            area = self.pick(sorted(mine))
            kind = sorted(mine[area], key=lambda k: economy.sale_price(self.ctx, k))[0]
            lines.append(self.say(f"взнос войсками {self.area(area)}: {self.unit(kind, 1)}",
                                  f"dues in troops {self.area(area)}: {self.unit(kind, 1)}"))
        elif mine and self.stream.roll(8) == 1:
            area = self.pick(sorted(mine))
            kind = self.pick(sorted(mine[area]))
            lines.append(self.say(f"продать {self.unit(kind, 1)} {self.area(area)}",
                                  f"sell {self.unit(kind, 1)} {self.area(area)}"))
        return lines

    def phase_westeros(self) -> list[str]:
        cards = []
        if self.stream.roll(3) == 1:
            cards.append(self.say("снабжение", "supply"))
        if self.stream.roll(3) == 1:
            cards.append(self.say("битва королей", "clash of kings"))
        line = self.say("вестерос: ", "westeros: ") + (", ".join(cards) or self.say("ничего", "none"))
        if self.ctx.options.deck_draw == "table":
            # the base cards and the fourth card are one answer (T12): one line, so that :meth:`keep`
            # checks them together (either alone is refused)
            deck = [c for c in self.ctx.rules.deck.all() if c.count]
            card = self.pick(deck)
            line += self.say(f"; четвёртая карта: {card.name_ru}", f"; fourth card: {card.name_en}")
        return [line]

    def phase_bids(self) -> list[str]:
        amount = self.stream.roll(min(self.money_now, 4) + 1) - 1
        return [self.say(f"ставка {amount}", f"bid {amount}")]

    def phase_tiebreak(self) -> list[str]:
        ties = (self.view.get("bidding") or {}).get("ties", [])
        listed = [self.house(p) for group in ties for p in group]
        return [self.say("порядок " + ", ".join(listed), "tie order " + ", ".join(listed))]

    def phase_bribe(self) -> list[str]:
        mine = self.mine()
        targets = []
        for area in mine:
            for n in self.board.neighbours(area):
                info = self.view["board"][n]
                if info["house"] not in (None, self.player) and unit_count(info) and not info["units"]["knight"]:
                    targets.append(n)
        for target in sorted(set(targets)):
            info = self.view["board"][target]
            nominal = economy.units_value(self.ctx, {k: int(v) for k, v in info["units"].items() if v})
            times = self.stream.roll(3)
            if nominal * times <= self.money_now and self.stream.roll(2) == 1:
                pool = [1, 2, 3, 4, 5, 6]
                faces = sorted(pool.pop(self.stream.roll(len(pool)) - 1) for _ in range(times))
                guessed = ", ".join(str(f) for f in faces)
                return [self.say(f"подкуп {self.area(target)} {nominal * times}: {guessed}",
                                 f"bribe {self.area(target)} {nominal * times}: {guessed}")]
        return [self.say("пас", "pass")]

    def phase_planning(self) -> list[str]:
        mine = self.mine()
        lines = self.over_supply(mine)
        allies = [p for p in alliance_of(self.view, self.player) if p != self.player]
        for area in sorted(mine):
            kind = self.board[area]
            roll = self.stream.roll(6)
            if kind.is_land and kind.crowns and roll <= 3:
                order = ("усиление", "consolidate")
            elif roll <= 2:
                order = ("подмога", "support")
            elif roll <= 5:
                order = ("поход", "order march")
            else:
                order = ("оборона", "defense")
            if order[0] == "поход":
                lines.append(self.say(f"поход {self.area(area)}", f"order march {self.area(area)}"))
            else:
                lines.append(self.say(f"{order[0]} {self.area(area)}", f"{order[1]} {self.area(area)}"))
                if order[0] == "подмога" and allies:
                    q = self.pick(allies)
                    lines.append(self.say(f"пропуск {self.house(q)} {self.area(area)}",
                                          f"passage {self.house(q)} {self.area(area)}"))
        return lines

    def over_supply(self, mine: dict[str, dict[str, int]]) -> list[str]:
        """Disband lines that bring the house within its supply limit (after a «Снабжение» card)."""
        lines: list[str] = []
        left = {a: dict(u) for a, u in mine.items()}
        for _ in range(20):
            trial = self.keep_all(lines)
            if trial is None or not make_plan(self.ctx, {**self.view, "phase": "planning"}, self.player,
                                              trial).problems:
                return lines
            biggest = max(sorted(left), key=lambda a: sum(left[a].values()))
            kind = sorted(left[biggest], key=lambda k: economy.sale_price(self.ctx, k))[0]
            left[biggest][kind] -= 1
            if not left[biggest][kind]:
                del left[biggest][kind]
            if not left[biggest]:
                del left[biggest]
            lines.append(self.say(f"распустить {self.area(biggest)}: {self.unit(kind, 1)}",
                                  f"disband {self.area(biggest)}: {self.unit(kind, 1)}"))
        return lines

    def keep_all(self, lines: list[str]) -> list[Any] | None:
        try:
            return list(self.ruleset.parse("\n".join(lines), self.player, dict(self.view)))
        except OrdersRejected:
            return None

    def phase_action(self) -> list[str]:
        lines: list[str] = []
        board = self.view["board"]
        orders = self.view.get("orders", {})
        taken: set[str] = set()
        for area, units in sorted(self.mine().items()):
            placed = orders.get(area)
            if not placed or placed["house"] != self.player or placed["kind"] != "march":
                continue
            land = {k: n for k, n in units.items() if k in LAND_UNITS}
            moving = land or {k: n for k, n in units.items() if k == "ship"}
            if not moving:
                continue
            if "siege" in moving and "footman" not in moving:
                moving.pop("siege")
            if not moving:
                continue
            targets = [n for n in self.board.neighbours(area)
                       if (self.board[n].is_land if land else self.board[n].is_sea) and n not in taken]
            empty = [n for n in targets if not unit_count(board[n]) and not board[n]["garrison"]
                     and board[n]["house"] in (None, self.player)]
            enemy = [n for n in targets if board[n]["house"] not in (None, self.player) and unit_count(board[n])]
            if enemy and self.stream.roll(4) == 1:
                dest = self.pick(sorted(enemy))
                outcome = self.pick([("победа", "won"), ("поражение", "lost")])
                lines.append(self.say(f"поход {self.area(area)} → {self.area(dest)}: {self.units(moving)} {outcome[0]}",
                                      f"march {self.area(area)} -> {self.area(dest)}: {self.units(moving)} {outcome[1]}"))
            elif empty:
                dest = self.pick(sorted(empty))
                taken.add(dest)
                lines.append(self.say(f"поход {self.area(area)} → {self.area(dest)}: {self.units(moving)}",
                                      f"march {self.area(area)} -> {self.area(dest)}: {self.units(moving)}"))
                if (self.board[area].is_land and moving == units and board[area]["token"] is None
                        and self.view["houses"][self.player]["home"] != area and self.money_now > 2
                        and self.stream.roll(3) == 1):
                    lines.append(self.say(f"жетон {self.area(area)}", f"token {self.area(area)}"))
        return lines

    # -- money, in any phase --------------------------------------------------------------------------------

    def money(self) -> list[str]:
        phase = self.view["phase"]
        if phase in ("bids", "tiebreak"):
            return []
        lines: list[str] = []
        for deal in self.view.get("deals", []):
            if deal["to"] == self.player and deal["status"] == "offered":
                verb = self.pick([("принять сделку", "accept deal"), ("отклонить сделку", "decline deal")])
                lines.append(self.say(f"{verb[0]} {deal['id']}", f"{verb[1]} {deal['id']}"))
        others = [p for p in self.view["seats"] if p != self.player]
        if self.money_now >= 3 and self.stream.roll(12) == 1:
            q = self.pick(others)
            lines.append(self.say(f"сделка {self.house(q)} 1 за «подмогу на границе»",
                                  f"deal {self.house(q)} 1 for \"support at the border\""))
        elif self.money_now >= 4 and self.stream.roll(15) == 1:
            q = self.pick(others)
            lines.append(self.say(f"перевод {self.house(q)} 1 за дружбу", f"pay {self.house(q)} 1 for friendship"))
        return lines

