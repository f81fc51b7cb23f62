"""What the deadline's rules cause, as typed values (`judge.game.events` has the base and the rest): the
reminders, the late notices, the orders held for a later phase filed, a phase due at its deadline, a game waiting
for replacements."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from judge.game.events import PRIVATE, Audience, GameEvent

if TYPE_CHECKING:
    from judge.game.orders import Submission


@dataclass(frozen=True)
class PhaseDeadline:
    """The deadline a reminder or late notice is about, as moments: the notifier's templates word them in the
    game's zone (`judge.render.dates`, the one form of a moment), and njudge's header line names the phase by its
    code."""

    variant: str
    code: str
    """the phase's njudge code (`F1901M`), for the `:: Deadline:` and `:: Phase:` header lines"""
    deadline: datetime
    grace_end: datetime
    """when orders stop being awaited: the deadline itself where the phase has no grace"""
    zone: str
    """the game's time zone (`timing.zone`)"""


@dataclass(frozen=True, kw_only=True)
class Reminder(GameEvent):
    """A power's orders are missing or faulty as the deadline nears."""

    kind: ClassVar[str] = "reminder"
    stored: ClassVar[bool] = False
    phase: str = ""
    power: str = ""
    """the player reminded (the side, as lists name it)"""
    signon: str = ""
    """the name the reminder's SIGNON line gives (the side's own name: `Athens`, `Player 2`; issue 40: the label
    `Athens + Anactorium` signs nobody on)"""
    missing: bool = True
    owing: tuple[str, ...] = ()
    """the side's powers still without orders, when they are not all it has (a side's powers are owed apart)"""
    with_errors: tuple[str, ...] = ()
    """the side's powers whose orders have errors, when they are not all it has"""
    deadline: PhaseDeadline = field(metadata=PRIVATE, repr=False)
    """the moments the reminder names (its words are the notifier's templates')"""
    address: str = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class OrdersLate(GameEvent):
    """The deadline passed with orders missing or faulty: each late power is told, and the GM."""

    kind: ClassVar[str] = "orders late"
    stored: ClassVar[bool] = False
    phase: str = ""
    missing: tuple[str, ...] = ()
    """the players (their sides, as lists name them) owing orders, each with the powers it owes when they are not
    all it has (`England (3:England)`: `judge.game.attendance.owed_text`)"""
    faulty: tuple[str, ...] = ()
    deadline: PhaseDeadline = field(metadata=PRIVATE, repr=False)
    """the moments the late notices name"""
    audience: Audience = field(metadata=PRIVATE, repr=False)
    addresses: dict[str, str] = field(metadata=PRIVATE, repr=False)
    """each missing player's address, by side (its label)"""
    owing: dict[str, tuple[str, ...]] = field(default_factory=dict, metadata=PRIVATE, repr=False)
    """by side (its label): the powers it still owes, when they are not all it has"""
    to_all: bool = False
    """the list of late players goes to everyone in the game, not to the GM alone (`late.to=all`)"""


@dataclass(frozen=True, kw_only=True)
class LaterOrdersFiled(GameEvent):
    """A phase opened for which a player had sent orders in advance (`PHASE`): they are now his orders on file for
    it, each checked against the position now; or (`submission` None) the phase they were for passed without
    coming, and they were dropped. Told to the player alone (`judge.game.later_orders`)."""

    kind: ClassVar[str] = "later orders filed"
    stored: ClassVar[bool] = False
    phase: str = ""
    """the phase the orders were for"""
    power: str = ""
    """the side, as lists name it"""
    submission: Submission | None = field(default=None, metadata=PRIVATE, repr=False)
    """what became of the orders, as a reply to orders says it; None: dropped"""
    came: str = ""
    """where the orders were dropped: the phase that opened instead"""
    address: str = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class PhaseDue(GameEvent):
    """A game processed by hand (timing.manual) is past its deadline and grace: the GM is told to PROCESS."""

    kind: ClassVar[str] = "phase due"
    stored: ClassVar[bool] = False
    phase: str = ""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class WaitingForReplacements(GameEvent):
    kind: ClassVar[str] = "waiting for replacements"
    stored: ClassVar[bool] = False
    phase: str = ""
    powers: tuple[str, ...] = ()
    audience: Audience = field(metadata=PRIVATE, repr=False)


Event = GameEvent
