"""What every step of a turn works with: the rules, the options, the state, the dice, the events.

The same step code checks a post (``checking``: on a copy of the state, no dice, problems
collected with the order's line) and carries it out (events emitted, refusals reported to the
faction), so a post accepted at validation is carried out by the very same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from voevoda.core.dice import Dice, Stream
from voevoda.core.errors import Problem, illegal
from voevoda.core.ruleset import Event, Order
from voevoda.rulesets.steel_rose.battle.model import BattleOptions
from voevoda.rulesets.steel_rose.campaign.data import Campaign
from voevoda.rulesets.steel_rose.campaign.state import CampaignState, Ledger

RULE = "Война Стальной Розы"
BOT_ODDS_BATTLES = 200
"""Battles a computer opponent fights on the batched simulator for each attack it weighs (the
option ``bot_odds_battles``; ruling C52): about 15 ms a target once the simulator is compiled."""


@dataclass(frozen=True)
class Options:
    """The campaign's named options (docs/rulings/steel_rose.md, campaign section)."""

    battle: BattleOptions = field(default_factory=BattleOptions)
    victory_conditions: str = "all"
    victory_cities: str = "held"
    destroy_victory: str = "last_city"
    midnight_tie: str = "all"
    gift_tie: str = "each"
    sunset_void_hunger: bool = True
    gift_demons_upkeep: bool = True
    unassigned_units_form_army: bool = True
    garrison_dies_first: bool = True
    alliances_forbid_attacks: bool = True
    start_powder: bool = True
    plunder_income: str = "this_turn"
    bot_odds_battles: int = BOT_ODDS_BATTLES

    CHOICES = {"victory_conditions": ("all", "any"), "victory_cities": ("held", "captured"), "destroy_victory": ("last_city", "any"),
               "midnight_tie": ("all", "none"), "gift_tie": ("each", "split", "none"),
               "plunder_income": ("this_turn", "next_turn")}
    FLAGS = ("sunset_void_hunger", "gift_demons_upkeep", "unassigned_units_form_army", "garrison_dies_first",
             "alliances_forbid_attacks", "start_powder")

    @staticmethod
    def keys() -> frozenset[str]:
        return frozenset({*Options.CHOICES, *Options.FLAGS, "bot_odds_battles", *BattleOptions.__dataclass_fields__})

    @staticmethod
    def from_config(config: Mapping[str, Any]) -> Options:
        from voevoda.core.errors import GameError

        values: dict[str, Any] = {}
        for key, allowed in Options.CHOICES.items():
            if key in config:
                if config[key] not in allowed:
                    raise GameError(f"настройка {key}: одно из {', '.join(allowed)}",
                                    f"option {key}: one of {', '.join(allowed)}")
                values[key] = config[key]
        for key in Options.FLAGS:
            if key in config:
                if not isinstance(config[key], bool):
                    raise GameError(f"настройка {key}: true или false", f"option {key}: true or false")
                values[key] = config[key]
        if "bot_odds_battles" in config:
            n = config["bot_odds_battles"]
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 100_000:
                raise GameError("настройка bot_odds_battles: число от 0 до 100000",
                                "option bot_odds_battles: a whole number from 0 to 100000")
            values["bot_odds_battles"] = n
        battle = {k: v for k, v in config.items() if k in BattleOptions.__dataclass_fields__}
        for key, value in battle.items():
            if not isinstance(value, bool):
                raise GameError(f"настройка {key}: true или false", f"option {key}: true or false")
        values.setdefault("bot_odds_battles", BOT_ODDS_BATTLES)
        return Options(battle=BattleOptions(**battle), **values)


@dataclass
class Ctx:
    campaign: Campaign
    options: Options
    state: CampaignState
    dice: Dice | None = None
    checking: bool = False
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    # -- who hears what -------------------------------------------------------------

    def audience(self, *fids: str | None) -> tuple[str, ...]:
        """The players of these factions (a faction nobody plays hears nothing: the GM sees all)."""
        out: list[str] = []
        for fid in fids:
            if fid is None or fid not in self.state.factions:
                continue
            player = self.state.factions[fid].player
            if player is not None and player not in out:
                out.append(player)
        return tuple(out)

    def emit(self, kind: str, data: dict[str, Any], audience: tuple[str, ...] = ("*",)) -> None:
        if not self.checking:
            self.events.append(Event(kind, {"turn": self.state.turn, **data}, audience))

    def tell(self, fid: str, kind: str, data: dict[str, Any]) -> None:
        """A private event for one faction."""
        self.emit(kind, {"faction": fid, **data}, self.audience(fid))

    def refuse(self, fid: str, order: Order | None, ru: str, en: str) -> None:
        """An order that breaks a rule: refused at validation, skipped (and told) at resolution."""
        if self.checking:
            self.problems.append(illegal(ru, en, order.line if order else None, None,
                                         order.text if order else None, RULE))
        else:
            self.tell(fid, "refused", {"order": order.text if order else "", "ru": ru, "en": en})

    # -- money ------------------------------------------------------------------------

    def ledger(self, fid: str) -> Ledger:
        led = self.state.ledgers.get(fid)
        if led is None:
            led = Ledger(opening=self.state.factions[fid].gold)
            self.state.ledgers[fid] = led
        return led

    def book(self, fid: str, what: str, gold: int = 0, resource: float = 0, *, always: bool = False,
             **detail: Any) -> None:
        """Move gold and the unique resource of ``fid`` and write the line in its ledger."""
        f = self.state.factions[fid]
        # the statement opens before its first line moves the money (a gift between turns opens
        # the next turn's statement, and is one of its lines, not part of its opening)
        led = self.ledger(fid) if not self.checking else None
        f.gold = max(0, f.gold + gold)
        f.resource = max(0.0, round(f.resource + resource, 4))
        if led is not None and (gold or resource or always):
            led.lines.append({"what": what, "gold": gold, "resource": round(resource, 4), **detail})

    @property
    def multiplier(self) -> float:
        """«Закат: Получаемое золото и получаемый уникальный ресурс удваивается»"""
        return self.campaign.epoch(self.state.turn).multiplier

    def stream(self, label: str) -> Stream:
        """A sealed stream (every campaign roll touches hidden information, docs/dice.md)."""
        assert self.dice is not None
        return self.dice.stream(f"steel-rose/{self.state.turn}/{label}", sealed=True)


class SealedDice(Dice):
    """The step's dice seen by the battle engine: every stream it asks for is the step's sealed
    stream of that label, recorded with the step's other rolls."""

    def __init__(self, parent: Dice) -> None:
        super().__init__(parent.sealed_seed, parent.sealed_seed)
        self.parent = parent

    def stream(self, label: str, *, sealed: bool = False) -> Stream:
        return self.parent.stream(label, sealed=True)

    def existing(self, label: str, *, sealed: bool = False) -> Stream | None:
        return self.parent.existing(label, sealed=True)
