"""The house rules a GM sets for press and draws, as njudge and DPjudge GMs know them.

Press (`press.type`): `white` (every message names its sender), `grey` (none does; the GM still sees who sent
it), `both` (white unless the sender writes GREY), `none` (players write only to the GM). `press.partial`: press
to some powers, not only to everybody. The GM's own press is always allowed and always signed.

Draws (`draw.dias`, `draw.eliminated`): with DIAS (Draws Include All Survivors, the default) a draw is among every
surviving power and passes when all of them vote for it; without it a player may vote for a draw among named
powers, which passes when every surviving power has voted for the same powers. Eliminated powers are left out
of every draw (`draw.eliminated=exclude`, the default) or may be named in one and are part of a DIAS draw
(`include`, as in tournaments that share a draw with every power that started). Only surviving powers vote.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from judge.game.settings import section

PRESS_TYPES = ("white", "grey", "both", "none")
GM_NAMES = frozenset({"gm", "master", "m"})
"""how a player addresses press to the GM alone (always allowed)"""


class HouseRuleError(ValueError):
    """Something the game's house rules do not allow; the message says which rule and how to change it."""


@dataclass(frozen=True)
class PressRules:
    type: str = "white"
    partial: bool = True

    @classmethod
    def of(cls, settings: dict[str, Any]) -> PressRules:
        press = section(settings, "press")
        return cls(str(press.get("type", "white")), bool(press.get("partial", True)))

    def grey(self, asked: bool | None) -> bool:
        """Whether a player's message goes grey: as the game's type says, or (`both`) as the sender asked."""
        if self.type == "grey":
            if asked is False:
                raise HouseRuleError("this game's press is grey only (press.type=grey): no WHITE press")
            return True
        if self.type == "white" and asked:
            raise HouseRuleError("this game's press is white only (press.type=white): no GREY press")
        return bool(asked) and self.type == "both"

    def check(self, to_everybody: bool, only_gm: bool) -> None:
        """Refuse a player's press the game does not allow (press to the GM alone always goes)."""
        if only_gm:
            return
        if self.type == "none":
            raise HouseRuleError("this game has no press between players (press.type=none); PRESS TO GM still goes")
        if not to_everybody and not self.partial:
            raise HouseRuleError("this game has no partial press (press.partial=false): BROADCAST to everybody")


@dataclass(frozen=True)
class DrawRules:
    dias: bool = True
    eliminated: str = "exclude"

    @classmethod
    def of(cls, settings: dict[str, Any]) -> DrawRules:
        draw = section(settings, "draw")
        return cls(bool(draw.get("dias", True)), str(draw.get("eliminated", "exclude")))

    def among(self, named: Collection[str] | None, survivors: set[str], everyone: set[str]) -> frozenset[str]:
        """The powers a draw vote is for: every survivor (and, with `include`, every power) when none are named;
        the named powers when the game allows it."""
        share = everyone if self.eliminated == "include" else survivors
        if not named:
            return frozenset(share)
        wanted = frozenset(named)
        if self.dias and wanted != share:
            raise HouseRuleError(
                "this game's draws include every surviving power (draw.dias=true): SET DRAW without names"
            )
        outside = wanted - share
        if outside:
            why = "eliminated (draw.eliminated=exclude)" if outside <= everyone else "not in the game"
            raise HouseRuleError(f"{', '.join(sorted(outside))}: {why}")
        return wanted

    @staticmethod
    def agreed(votes: Mapping[str, frozenset[str] | None], survivors: Iterable[str]) -> frozenset[str] | None:
        """The draw every survivor voted for, if they all voted for the same one (None: no draw yet). Only the powers
        that can vote are asked (`survivors`: the surviving powers with a player)."""
        chosen = {votes.get(power) for power in survivors}
        if len(chosen) != 1:
            return None
        (draw,) = chosen
        return draw
