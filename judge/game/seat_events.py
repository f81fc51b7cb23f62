"""What happened to a game's places, as typed values (`judge.game.events` has the base and the rest): players
who leave, are replaced or ask to join, the GM's co-GMs and successor, and a gunboat game's players made known."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from judge.game.events import PRIVATE, Audience, GameEvent, SeatLine


@dataclass(frozen=True, kw_only=True)
class PlayerEjected(GameEvent):
    kind: ClassVar[str] = "player ejected"
    side: str = ""
    """the side, as lists name it (`France`, `Sparta + Elatea`, `Player 2`): every power of it is vacant"""
    sign_on: str = ""
    """the name a replacement signs on with (the side's name)"""
    address: str | None = field(default=None, metadata=PRIVATE, repr=False)
    """the ejected player's address (he is told)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class PlayerResigned(GameEvent):
    kind: ClassVar[str] = "player resigned"
    side: str = ""
    sign_on: str = ""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class PlayerReplaced(GameEvent):
    kind: ClassVar[str] = "player replaced"
    side: str = ""
    """the side, as lists name it: the new player holds every power of it"""
    sign_on: str = ""
    """the name he signs on with (the side's name)"""
    plays: str = field(default="", metadata=PRIVATE, repr=False)
    """what he plays, as he is told it (`Side.described`: his board-nations under CW Heptadiplomacy option B)"""
    player: str = ""
    """the new player's name (never his address), kept with the game: the pages show it as `name_for_others`
    does (`judge.game.anonymity`: not while a gunboat game hides its players)"""
    told_as: str = field(default="", metadata=PRIVATE, repr=False)
    """his name as the others in the game read it now (`judge.game.anonymity.name_for_others`)"""
    address: str = field(metadata=PRIVATE, repr=False)
    """the new player's address"""
    replaced: str | None = field(default=None, metadata=PRIVATE, repr=False)
    """the address of the player he replaces, if any (he is told, and gets no more of the game's mail)"""
    variant: str = ""
    position: dict[str, Any] | None = field(default=None, metadata=PRIVATE, repr=False)
    """the position now, for the new player's first mail (the phase, its units and centres)"""
    deadline: datetime | None = field(default=None, metadata=PRIVATE, repr=False)
    volunteered: bool = False
    """a volunteer took the open place (TAKEOVER: judge.game.openings); else the GM chose him (REPLACE)"""
    owes: tuple[str, ...] = field(default=(), metadata=PRIVATE, repr=False)
    """the powers of the side with orders due in the phase now, for the new player's first mail"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class JoinAsked(GameEvent):
    """A player asks to join the game, or to take an open place in it, and the game waits for its GM's answer
    (`join.approval`): the GM is told who asks (his address too: the GM sees the players' addresses) and for what.
    Only delivered: the game's history and pages never hold who asked."""

    kind: ClassVar[str] = "join asked"
    stored: ClassVar[bool] = False
    player: str = field(default="", metadata=PRIVATE, repr=False)
    address: str = field(default="", metadata=PRIVATE, repr=False)
    side: str | None = field(default=None, metadata=PRIVATE, repr=False)
    """the open place asked for, as lists name it; None: a place in the forming game"""
    preferences: str = field(default="", metadata=PRIVATE, repr=False)
    """the powers he would like, as he wrote them (`judge.game.preferences.shown_preferences`)"""
    gm: str = field(default="", metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class JoinAnswered(GameEvent):
    """The GM's answer to a player who asked to join (an approved TAKEOVER is told by `PlayerReplaced` instead),
    or a refusal of a request when the GM REFUSEs the address: the player is told no more than the answer."""

    kind: ClassVar[str] = "join answered"
    stored: ClassVar[bool] = False
    address: str = field(default="", metadata=PRIVATE, repr=False)
    approved: bool = False
    side: str | None = field(default=None, metadata=PRIVATE, repr=False)
    """the open place he asked for; None: a place in the forming game"""


@dataclass(frozen=True, kw_only=True)
class CoGmNamed(GameEvent):
    """The GM (or the judge's admin) named a co-GM, who may do all the GM does (`PROMOTE`), or took that back
    (`DEMOTE`): the co-GM and the GM are told."""

    kind: ClassVar[str] = "co-GM named"
    stored: ClassVar[bool] = False
    co_gm: str = ""
    """the co-GM's registered name"""
    address: str = field(metadata=PRIVATE, repr=False)
    """the co-GM's address"""
    gm: str = ""
    """the GM's registered name"""
    gm_address: str = field(metadata=PRIVATE, repr=False)
    named: bool = True
    """named (True) or no longer a co-GM (False)"""


@dataclass(frozen=True, kw_only=True)
class GmHandedOver(GameEvent):
    """The game has another GM (`HANDOVER`, by its GM, a co-GM or the judge's admin for a GM who vanished): the new
    GM and the old are told, and everyone else in the game who the GM is now (by name, never an address)."""

    kind: ClassVar[str] = "GM handed over"
    stored: ClassVar[bool] = False
    new: str = ""
    """the new GM's registered name"""
    new_address: str = field(metadata=PRIVATE, repr=False)
    old: str = ""
    """the old GM's registered name"""
    old_address: str = field(metadata=PRIVATE, repr=False)
    audience: Audience = field(metadata=PRIVATE, repr=False)
    """everyone in the game, the new GM as its GM"""


@dataclass(frozen=True, kw_only=True)
class PlayersRevealed(GameEvent):
    """A gunboat game names its players: the GM's REVEAL, or its end (`reveal_at_end`). Everyone in it is told who
    played whom; from now on every list and page names them."""

    kind: ClassVar[str] = "players revealed"
    seats: tuple[SeatLine, ...] = ()
    """each side and its player, by name (never an address)"""
    by_gm: bool = False
    """the GM's REVEAL (else the game's end)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)
