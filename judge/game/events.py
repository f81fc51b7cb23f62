"""What happened to a game, as typed values: each use case says what it caused, and one notifier
(`judge.mail.notifier`) turns them into mail.

An event names its game and carries what its readers need. Some of that is for delivery only -- who gets the
mail, the press as written, the addresses -- and is marked private: it is never stored, never shown on a page,
and never leaves the transaction that raised it. The rest (`data`) is what the game's history keeps
(`GameEventRecord`), for the history and the web pages to read: public by construction.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from judge.variants import Side

if TYPE_CHECKING:
    from judge.game.adjudication import Processed
    from judge.game.orders import Submission
    from judge.game.table_talk import PressSent

PRIVATE: dict[str, bool] = {"private": True}
"""field metadata: for delivery only, never stored or shown"""


@dataclass(frozen=True)
class Audience:
    """Who gets a game's mail: each power's player, the GM, the observers."""

    players: dict[str, str]
    """power -> the address of its player (a player of several powers is named once for each)"""
    gm: str
    observers: tuple[str, ...] = ()
    co_gms: tuple[str, ...] = ()
    """the GM's co-GMs (PROMOTE): each gets what the GM gets (issue 44 item 4), as njudge's masters all did"""

    def everyone(self) -> list[str]:
        """Every address of the game once: players, GMs, observers."""
        return sorted({*self.players.values(), self.gm, *self.co_gms, *self.observers})

    def masters(self) -> list[str]:
        """The GM and his co-GMs: who gets the GM's notices (who is late, a phase due, a resignation)."""
        return [self.gm, *(a for a in self.co_gms if a != self.gm)]

    def with_gm(self) -> dict[str, str]:
        """power -> address, with the GM as "MASTER" (as the results mails address them)."""
        return {**self.players, "MASTER": self.gm}


@dataclass(frozen=True, kw_only=True)
class GameEvent:
    game: str
    variant: str = field(default="", metadata=PRIVATE, repr=False)
    """the game's variant, whose own templates word its notices where it has them (set by `UseCase.raise_event`)"""
    kind: ClassVar[str] = "event"
    stored: ClassVar[bool] = True
    """kept with the game (its history and the web read it), or only delivered"""

    def data(self) -> dict[str, Any]:
        """The public fields as JSON values (what the game's history keeps)."""
        out: dict[str, Any] = {}
        for each in dataclasses.fields(self):
            if each.metadata.get("private") or each.name == "game":
                continue
            out[each.name] = _json(getattr(self, each.name))
        return out


def _json(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return int(value.total_seconds())
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {each.name: _json(getattr(value, each.name)) for each in dataclasses.fields(value)}
    return value


@dataclass(frozen=True)
class SeatLine:
    """A player's side and who plays it, as the game-start mail names them (never an address)."""

    power: str
    """the side, as lists name it (a power, `Sparta + Elatea`, `England`, `Player 2`)"""
    player: str | None
    """the player's name as shown; None where nobody plays the side"""
    disorder: bool = False
    """nobody plays it and it is in civil disorder (START CD); the template words it (`game_started.txt.j2`)"""


@dataclass(frozen=True, kw_only=True)
class GameStarted(GameEvent):
    kind: ClassVar[str] = "game started"
    variant: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[SeatLine, ...] = ()
    deadline: datetime | None = None
    unplayed: tuple[str, ...] = ()
    """the sides left in civil disorder (START CD), as lists name them"""
    gm_reads_press: bool = False
    """`press.gm_reads`: the GM is sent all private press, which the start mail tells the players"""
    layout: str = "zine"
    """the game's results layout (`results.layout`): njudge's has a start mail of its own (issue 45)"""
    units: tuple[tuple[str, str, str], ...] = ()
    """the starting units (power, unit, location), which njudge's start mail lists"""
    opening: tuple[str, int, str] | None = None
    """the first phase (season, year, type): the variant's, or an imported game's (`judge import`)"""
    sides: tuple[Side, ...] = field(default=(), metadata=PRIVATE, repr=False)
    """what each player holds, for his own "you play" line (under CW Heptadiplomacy option B, his board-nations)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)

    def side_of(self, address: str) -> Side | None:
        """The side the player at `address` plays (None: the GM, an observer)."""
        powers = {power for power, to in self.audience.players.items() if to == address}
        return next((side for side in self.sides if powers & set(side.powers)), None)


@dataclass(frozen=True, kw_only=True)
class PhaseProcessed(GameEvent):
    kind: ClassVar[str] = "phase processed"
    index: int = 0
    phase: str = ""
    """the phase's code (S1901M)"""
    late: tuple[str, ...] = ()
    finished: str | None = None
    deadline: datetime | None = None
    """the deadline the phase ran to (None: it had none): orders on file from after it came in late (the players'
    records, `judge.game.records`)"""
    due: tuple[str, ...] = ()
    """the powers the phase awaited orders from (those in civil disorder or held away not among them), as values"""
    processed: Processed = field(metadata=PRIVATE, repr=False)
    """the whole result: the outcome, and the press released with it (private to its recipients)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class DeadlineMoved(GameEvent):
    kind: ClassVar[str] = "deadline moved"
    deadline: datetime | None = None
    """None: no deadline, the phase waits for the GM's PROCESS"""
    zone: str = "UTC"
    why: Literal["set by the GM", "absence"] = "set by the GM"
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class GamePaused(GameEvent):
    kind: ClassVar[str] = "game paused"
    deadline: datetime | None = None
    """the deadline the clock stopped at (RESUME extends it by the time paused, unless the GM sets another)"""
    zone: str = "UTC"
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class GameResumed(GameEvent):
    kind: ClassVar[str] = "game resumed"
    deadline: datetime | None = None
    """the deadline the game runs to now"""
    extended_by: timedelta | None = None
    """how long the game was paused, added to the old deadline; None when the GM set the deadline (or none ran)"""
    zone: str = "UTC"
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class GameRolledBack(GameEvent):
    kind: ClassVar[str] = "game rolled back"
    index: int = 0
    phase: str = ""
    """the phase returned to, as players read it (Spring 1901 movement)"""
    orders_kept: bool = True
    deadline: datetime | None = None
    zone: str = "UTC"
    votes_kept: tuple[str, ...] = field(default=(), metadata=PRIVATE)
    """the powers whose draw votes still stand (cast before the phase returned to was processed); private, as
    draw votes are: only the GM's reply names them"""
    votes_dropped: tuple[str, ...] = field(default=(), metadata=PRIVATE)
    """the powers whose draw votes were withdrawn (cast on a position the rollback undid)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class PressRulesChanged(GameEvent):
    """The GM changed the press rules of a running game (`SET press.gm_reads=on` ...): everyone in it is told, so
    that no rule on who reads their press changes behind the players' backs."""

    kind: ClassVar[str] = "press rules changed"
    changed: tuple[tuple[str, str], ...] = ()
    """each press setting SET named, and its value as the GM writes it"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class EndingRulesChanged(GameEvent):
    """The GM changed how a running game may end (the victory count, draws or concessions allowed, the end year:
    judge.game.end_rules): everyone in it is told, with the draw votes and concessions that no longer stand."""

    kind: ClassVar[str] = "ending rules changed"
    changed: tuple[tuple[str, str], ...] = ()
    """each rule SET named, and its value as the GM writes it"""
    victory: int | None = None
    """the victory count now in force, where it changed (the map's where the GM's was cleared)"""
    draws_dropped: bool = False
    """draws were turned off: whatever draw votes stood are dropped (everyone is told the rule, never whose: a vote is
    secret until the game ends, as with a rollback's)"""
    concessions_dropped: bool = False
    """concessions were turned off: whatever concessions stood are dropped"""
    dropped_draws: tuple[str, ...] = field(default=(), metadata=PRIVATE, repr=False)
    """the sides whose draw votes were dropped: the GM's reply names them, no one else learns them"""
    dropped_concessions: tuple[str, ...] = field(default=(), metadata=PRIVATE, repr=False)
    """the sides whose concessions were dropped: the GM's reply names them"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class PressPosted(GameEvent):
    kind: ClassVar[str] = "press posted"
    stored: ClassVar[bool] = False  # the press table keeps press, with who may read it
    sent: PressSent = field(metadata=PRIVATE, repr=False)
    by_gm: bool = False


@dataclass(frozen=True, kw_only=True)
class HeldPressReleased(GameEvent):
    """Press held for the results, released because the game ended without them."""

    kind: ClassVar[str] = "held press released"
    stored: ClassVar[bool] = False
    messages: tuple[PressSent, ...] = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class DrawVoted(GameEvent):
    kind: ClassVar[str] = "draw voted"
    stored: ClassVar[bool] = False  # votes are secret until the game is drawn
    power: str = ""
    accept: bool = True
    among: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ConcessionMade(GameEvent):
    kind: ClassVar[str] = "concession made"
    stored: ClassVar[bool] = False
    power: str = ""
    to: str | None = None


@dataclass(frozen=True, kw_only=True)
class GameEnded(GameEvent):
    """The end of a game that no phase's results announce (a draw, a concession, TERMINATE); a victory ends with
    its phase's results (`PhaseProcessed.finished`)."""

    kind: ClassVar[str] = "game ended"
    how: str = ""
    """draw, conceded, terminated"""
    winners: tuple[str, ...] = ()
    started: bool = True
    position: dict[str, Any] | None = field(metadata=PRIVATE, repr=False)
    audience: Audience = field(metadata=PRIVATE, repr=False)
    options: dict[str, Any] = field(default_factory=dict, metadata=PRIVATE, repr=False)
    """the game's rule options: its sides, by which the last centres are counted"""
    statements: tuple[SignedStatement, ...] = field(default=(), metadata=PRIVATE, repr=False)
    """the end-of-game statements filed before the end, kept private until now: the game-over mail carries them
    (set by `UseCase.raise_event`, `judge.game.statements.at_the_end`); the statements table keeps them"""


@dataclass(frozen=True, kw_only=True)
class OrdersFromAnotherAddress(GameEvent):
    """Orders for a power sent with its password from an address not its player's: the player hears of it."""

    kind: ClassVar[str] = "orders from another address"
    stored: ClassVar[bool] = False
    power: str = ""
    phase: str = ""
    owner: str = field(metadata=PRIVATE, repr=False)
    sender: str = field(metadata=PRIVATE, repr=False)
    sender_named: bool = True
    """whether the owner is told the address they came from: not in a game that hides its players, where an address
    active in the game could tell him who plays another power (issue 44 item 1)"""
    submission: Submission = field(metadata=PRIVATE, repr=False)
    """what became of the orders, which the player is told as the sender was"""


# --- the game's own end taken back, and what its players say of it (issue 44 item 5) ---------------------------


@dataclass(frozen=True)
class SignedStatement:
    """An end-of-game statement as everyone may read it: by whom (the side, the player's name where the game names
    its players; the GM's where `side` is None) and its lines as written."""

    side: str | None
    """the side the player held, as lists name it; None: the GM's statement"""
    player: str | None
    """the player's name as others may read it; None while the game hides who played whom (gunboat)"""
    lines: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class GameUnstarted(GameEvent):
    """The GM's UNSTART: a game started by mistake forms again, before any phase was processed. Its joined players
    stay joined with their preferences; the powers are given out anew at the next start."""

    kind: ClassVar[str] = "game unstarted"
    players: int = 0
    """how many players stay joined"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class GameUnterminated(GameEvent):
    """The GM took his TERMINATE back within `end.undo_hours`: the game is as it was before (forming, active or
    paused), its deadline moved on by the time it lay terminated."""

    kind: ClassVar[str] = "game unterminated"
    status: str = "active"
    deadline: datetime | None = None
    extended_by: timedelta | None = None
    """how long it lay terminated, added to its deadline; None where the deadline was not moved (none ran, or the
    game was paused: RESUME moves it on by the time since the pause)"""
    zone: str = "UTC"
    revealed: bool = False
    """a gunboat game whose end named its players: they stay named (its `gunboat` setting turned off)"""
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class StatementFiled(GameEvent):
    """An end-of-game statement filed (or changed) after the end: posted to everyone in the game, as DPjudge posted
    the broadcasts sent after the end. One filed before the end is nobody's news until the game-over mail."""

    kind: ClassVar[str] = "statement filed"
    stored: ClassVar[bool] = False  # the statements table keeps it
    statement: SignedStatement = field(metadata=PRIVATE, repr=False)
    changed: bool = False
    audience: Audience = field(metadata=PRIVATE, repr=False)


@dataclass(frozen=True, kw_only=True)
class StatementsPublished(GameEvent):
    """The statements filed before a game that ended with its phase's results (a victory): sent to everyone right
    after the results, as the game-over mail carries them for the other ends."""

    kind: ClassVar[str] = "statements published"
    stored: ClassVar[bool] = False
    statements: tuple[SignedStatement, ...] = field(metadata=PRIVATE, repr=False)
    audience: Audience = field(metadata=PRIVATE, repr=False)
