"""The house rules a GM sets for press and draws, as njudge and DPjudge GMs know them.

Press (`press.type`): `white` (every message names its sender), `grey` (none does; the GM still sees who sent
it), `both` (white unless the sender writes GREY), `none` (players write only to the GM). `press.partial`: press
to some powers, not only to everybody. The GM's own press is always allowed and always signed.

The rest are njudge's and DPjudge's press rules, each with their default (njudge's `data/press` and `data/index`,
DPjudge's Rules page); press to the GM alone always goes, whatever they say:
- `press.fake` (off: njudge's "No Fake", DPjudge without FAKE_PRESS): a player may send press shown as from another
  power (`AS Germany`) or as to other readers (`FAKE TO ...`, `FAKE BROADCAST`); the GM is told the truth.
- `press.minor` (on: njudge's MINOR PRESS): press in retreat and adjustment phases.
- `press.late` (on: njudge's LATE PRESS): after the deadline, press from a player whose orders are not in.
- `press.grace` (on: njudge's GRACE PRESS): after the deadline, while anyone's orders are not in, press at all.
- `press.must_order` (off: njudge's and DPjudge's MUST ORDER): press only once the sender's orders are in.
- `press.observers` (any: njudge's "Observer any"): observers press as players do; `white` never grey (njudge's
  "Observer white"); `broadcast` to everybody only (DPjudge's BACKSEAT_PRESS for those who hold no power); `none`
  to the GM only (njudge's "Observer none", DPjudge's MUTE_OBSERVERS).
- `press.gm_reads` (off: njudge's SET ALL PRESS, DPjudge's EAVESDROP): the GM is sent every private message; the
  players are told which (in the start mail and LIST), as DPjudge's EAVESDROP! tells them.

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
class PressMoment:
    """Where the game stands when a message is sent, as the press rules ask it: a retreat or adjustment phase, the
    deadline passed, the sender's orders (all his side owes, without errors) in, anyone's orders still missing."""

    minor_phase: bool = False
    past_deadline: bool = False
    sender_ordered: bool = True
    anyone_late: bool = False


@dataclass(frozen=True)
class PressRules:
    type: str = "white"
    partial: bool = True
    fake: bool = False
    minor: bool = True
    late: bool = True
    grace: bool = True
    must_order: bool = False
    observers: str = "any"
    gm_reads: bool = False

    @classmethod
    def of(cls, settings: dict[str, Any]) -> PressRules:
        press = section(settings, "press")
        return cls(
            str(press.get("type", "white")),
            bool(press.get("partial", True)),
            fake=bool(press.get("fake", False)),
            minor=bool(press.get("minor", True)),
            late=bool(press.get("late", True)),
            grace=bool(press.get("grace", True)),
            must_order=bool(press.get("must_order", False)),
            observers=str(press.get("observers", "any")),
            gm_reads=bool(press.get("gm_reads", False)),
        )

    def check_fake(self, only_gm: bool) -> None:
        """Refuse fake press where the game has none, and always to the GM alone (njudge scolds it too)."""
        if only_gm:
            raise HouseRuleError("press to the GM alone is never faked: send it without AS or FAKE")
        if not self.fake:
            raise HouseRuleError("this game has no fake press (press.fake=off): send it without AS or FAKE")

    def check_moment(self, moment: PressMoment, only_gm: bool, *, observer: bool = False) -> None:
        """Refuse press the game's rules forbid at this moment of the phase (press to the GM alone always goes)."""
        if only_gm:
            return
        if moment.minor_phase and not self.minor:
            raise HouseRuleError(
                "this game has no press in retreat and adjustment phases (press.minor=off); it opens again with "
                "the next movement phase, and PRESS TO GM still goes"
            )
        if moment.past_deadline and moment.anyone_late and not self.grace:
            raise HouseRuleError(
                "the deadline has passed and some orders are not in: this game has no press until the phase is "
                "processed (press.grace=off); PRESS TO GM still goes"
            )
        if observer:
            return
        if moment.past_deadline and not moment.sender_ordered and not self.late:
            raise HouseRuleError(
                "the deadline has passed and your orders are not in: this game takes no press from late players "
                "(press.late=off); send your orders first, and PRESS TO GM still goes"
            )
        if not moment.sender_ordered and self.must_order:
            raise HouseRuleError(
                "this game takes press only from players whose orders are in (press.must_order=on): send your "
                "orders first (PRESS TO GM still goes)"
            )

    def observer_grey(self, to_everybody: bool, only_gm: bool, asked: bool | None) -> bool:
        """Whether an observer may send this message, and whether it goes grey (`press.observers`)."""
        if only_gm:
            return False
        if self.observers == "none":
            raise HouseRuleError("this game's observers send press to the GM only (press.observers=none): PRESS TO GM")
        if self.observers == "broadcast" and not to_everybody:
            raise HouseRuleError(
                "this game's observers send press to everybody only (press.observers=broadcast): BROADCAST"
            )
        self.check(to_everybody, only_gm)
        if self.observers == "white":
            if asked:
                raise HouseRuleError("this game's observers send white press only (press.observers=white): no GREY")
            return False
        return self.grey(asked)

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
