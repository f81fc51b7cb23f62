"""Typed views of a game, for everything that shows one: LIST, the results, SUMMARY, HISTORY, MAP and the web.

A view is a plain value read in one transaction; nothing in it is an ORM object, so it can be kept, passed to a
template or rendered after the transaction is over. A seat's player is named by the name they registered with;
the address is kept apart (`SeatView.address`) for delivery and the GM, never for a page or another player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.game.events import SignedStatement


@dataclass(frozen=True)
class GameListing:
    """One line of the judge's list of games."""

    name: str
    variant: str
    status: str
    phase: str
    """the phase as players read it, or "forming" """
    players: int
    places: int = 0
    """how many players the game takes"""
    gm: str = ""
    """the GM's registered name"""
    options: dict[str, Any] = field(default_factory=dict)
    """the rule options chosen"""
    settings: dict[str, Any] = field(default_factory=dict)
    """the settings given (`given_settings`) that a player choosing a game reads (`Reads.games`), flat"""


@dataclass(frozen=True)
class SeatView:
    power: str | None
    """None until the game starts and powers are assigned"""
    player: str | None
    """the player's registered name; None for a seat without a player"""
    address: str | None = field(repr=False)
    """for delivery and the GM only"""
    status: str
    missed: int


@dataclass(frozen=True)
class PlayerView:
    """A player's side in a game, as LIST shows it."""

    side: str
    """as lists name it (a power, `Sparta + Elatea`, `England`, `Player 2`)"""
    player: str | None
    status: str
    """the side's state (playing, late, ...: `judge.game.reads.side_status`), its seats' counted power by power"""
    powers: tuple[str, ...] = ()
    """the powers the side holds (its colour on the map is its first's; its counts are theirs added up)"""
    orders: str | None = None
    """on the web, where the GM shows it (`web.orders_in`): "in" when every power of the side that must order has
    orders on file, "not in" otherwise; None where the GM does not show it or the side has nothing to order.
    Never what the orders are."""


@dataclass(frozen=True)
class GameView:
    name: str
    variant: str
    options: dict[str, Any]
    status: str
    phase_index: int
    """the number of the phase the game is in (the phases before it are processed)"""
    position: dict[str, Any] | None
    """the position now, as the contract writes it; None before the start"""
    result: str | None
    winners: list[str] | None
    deadline: datetime | None
    style: dict[str, str]
    """how the results print orders and places (`results_style`)"""
    gm: str
    """the GM's registered name"""
    seats: tuple[SeatView, ...]
    players: tuple[PlayerView, ...] = ()
    """the seats by player: each side once (empty before the powers are assigned)"""
    settings: dict[str, Any] = field(default_factory=dict)
    """the settings the GM gave (those not the judge's defaults), flat: `timing.zone`"""
    open_sides: tuple[str, ...] = ()
    """in a forming game, the sides no joined player has asked for first"""
    places: int = 0
    """how many players the game takes"""
    co_gms: tuple[str, ...] = ()
    """the co-GMs' registered names (`PROMOTE`)"""
    observers: tuple[str, ...] = ()
    """the observers' registered names (never their addresses)"""
    gm_reads_press: bool = False
    """`press.gm_reads`: the GM is sent all private press (the players are told so)"""

    @property
    def started(self) -> bool:
        return self.position is not None

    @property
    def last_processed(self) -> int:
        """The number of the last processed phase, -1 when none is."""
        return self.phase_index - 1


@dataclass(frozen=True)
class YearCentres:
    """The centres held at the end of a year (or so far, while the year is under way): each power's by name, which
    SUMMARY and the web site's chart count by the variant's worth and by side, as every table counts them
    (`judge.render.tally`; issue 40: the chart counted provinces)."""

    year: int
    finished: bool
    owned: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class PhaseView:
    """A processed phase: its number and outcome (the contract's), as HISTORY and MAP read it."""

    index: int
    code: str
    outcome: dict[str, Any]


@dataclass(frozen=True)
class PowerStatus:
    """One power of a player, as the GM sees it in a running game."""

    power: str
    orders: str
    """"in", "with errors", "missing", or "not due" (nothing to order in this phase)"""
    status: str


@dataclass(frozen=True)
class PlayerStatus:
    """One player of a running game, as the GM sees it: the player's side and every power of it."""

    side: str
    """the side as lists name it (`Sparta + Elatea`, `England`, `Player 2`)"""
    player: str | None
    """the player's name; None for powers nobody plays"""
    address: str | None = field(repr=False)
    """for the GM only"""
    powers: tuple[PowerStatus, ...]
    draw: str | None
    """the player's draw vote ("for a draw", "for a draw among ..."), None without one"""
    conceded_to: str | None
    away: str | None
    """the player's absence ("Mon 01 Dec 2026 to Fri 05 Dec 2026"), None when not away"""
    wait: bool

    @property
    def orders(self) -> str:
        """The player's orders in one word: in, with errors, missing, or not due."""
        kinds = {p.orders for p in self.powers} - {"not due"}
        if not kinds:
            return "not due"
        if kinds == {"in"}:
            return "in"
        return "missing" if kinds == {"missing"} else "with errors" if "with errors" in kinds else "partly in"


@dataclass(frozen=True)
class GmView:
    """A running game as its GM sees it: every player, the settings and the rule options."""

    game: str
    phase: str
    deadline: datetime | None
    players: tuple[PlayerStatus, ...]
    options: dict[str, Any]
    settings: dict[str, Any]
    """the GM's settings (the judge's own bookkeeping, keys starting with _, left out)"""


@dataclass(frozen=True)
class PublicGame:
    """A game as anyone may see it on the web: no address, no password, no orders on file, no GM's note, nothing
    a player sent privately. Built only from what the game's mail tells every player."""

    name: str
    variant: str
    status: str
    phase: str
    """the phase as players read it, or "forming" """
    deadline: datetime | None
    gm: str
    """the GM's registered name"""
    players: tuple[PlayerView, ...]
    """each side and its player by name (empty before the powers are assigned)"""
    joined: tuple[str, ...]
    """in a forming game, the names of the players who joined"""
    places: int
    options: dict[str, Any]
    settings: dict[str, Any]
    """the GM's house rules, flat (`timing.zone`): only the registry's settings (never a note, never players' state)"""
    result: str | None
    winners: tuple[str, ...]
    private: bool
    """`web.private`: the pages show nothing without the join password"""
    position: dict[str, Any] | None = None
    """the board now, as every results mail shows it: the units and supply centres (and the variant's own state,
    which the counts read), nothing else of the position"""
    open_sides: tuple[str, ...] = ()
    """in a forming game, the sides no player who joined asked for first (as LIST names them)"""
    co_gms: tuple[str, ...] = ()
    """the co-GMs' registered names"""
    observers: tuple[str, ...] = ()
    """the observers' registered names (never their addresses)"""
    gm_reads_press: bool = False
    """`press.gm_reads`: the GM is sent all private press"""


@dataclass(frozen=True)
class PublicEvent:
    """Something that happened to a game that every player was told: a player replaced, ejected or resigned, the
    game paused, resumed, rolled back, started or ended, a power eliminated. From the stored events' public fields
    and the processed phases' outcomes alone: never an address, a vote or a note."""

    kind: str
    """`GameEvent.kind` (`player replaced`, `game paused`, ...), or `eliminated`"""
    phase_index: int
    """the phase the game was in (an elimination: the phase that eliminated)"""
    at: datetime
    side: str = ""
    """the side it concerns, as lists name it"""
    power: str = ""
    """an eliminated power (a board-nation under CW Heptadiplomacy option B, where `side` is its player's)"""
    player: str = ""
    """a replacement's name (as LIST names him)"""
    phase: str = ""
    """the phase a rollback returned to, as players read it"""
    how: str = ""
    """how a game ended without a phase's results (draw, conceded, terminated)"""
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class PublicPhase:
    """A processed phase as its results mail told everyone: the outcome (its orders, now public) and when."""

    index: int
    code: str
    name: str
    """as players read it (Spring 1901 Movement)"""
    outcome: dict[str, Any]
    processed_at: datetime


@dataclass(frozen=True)
class PublicPress:
    """Press everyone received: a broadcast, released. A grey message's sender is never named (`sender` None)."""

    phase_index: int
    sender: str | None
    """the sending power (as fake press showed it), "GM", "Observer", or None for grey press"""
    body: str
    at: datetime


@dataclass(frozen=True)
class PublicHistory:
    """Every processed phase of a game and the press everyone read, in order; the centre counts year by year."""

    phases: tuple[PublicPhase, ...]
    press: tuple[PublicPress, ...]
    centres: tuple[YearCentres, ...] = ()
    """as `Reads.centre_history` gives them, read with the phases"""
    events: tuple[PublicEvent, ...] = ()
    """what happened to the game beside its phases, in order (`Reads.public_events`)"""
    statements: tuple[SignedStatement, ...] = ()
    """the players' end-of-game statements, once the game is over (none before: they are private until then)"""


@dataclass(frozen=True)
class GamesPage:
    """One page of the list of games, as a visitor filtered it: the games on it and where it stands."""

    games: tuple[PublicGame, ...]
    page: int
    """from 1"""
    pages: int
    """how many pages the filtered list makes (1 for an empty list)"""
    total: int
    """the games the filter lets through"""


@dataclass(frozen=True)
class Opening:
    """A place a volunteer may take, as the openings list, LIST and the pages show it: never who played it."""

    game: str
    variant: str
    side: str
    """the side, as lists name it; in a forming game, how many places are left (`3 places`)"""
    sign_on: str
    """the name TAKEOVER takes (the side's name); empty in a forming game"""
    why: str
    """abandoned, no player (resigned or ejected), civil disorder (never filled), or forming"""
    phase: str
    deadline: datetime | None
    approval: bool
    """the GM approves who takes it (`join.approval`)"""
    zone: str = "UTC"
    """the game's time zone, for the deadline (`timing.zone`)"""
