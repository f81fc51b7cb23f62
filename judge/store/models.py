"""The judge's long-lived record: SQLAlchemy 2 typed models.

Positions, orders and outcomes are stored as the JSON of the `judge adjudicate` contract, so a stored phase can
be replayed through `judge adjudicate` by hand, and the schema does not change when a variant adds unit kinds.
Every table that two judge processes may write at once has a guard: unique keys where a row must exist once
(one phase record per game and index, one order set per power and phase) and a version counter on games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    event,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, composite, mapped_column, relationship

Json = dict[str, Any]


class Base(DeclarativeBase):
    # named constraints, so that later migrations can alter them on SQLite (batch mode needs the names)
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )
    type_annotation_map = {  # noqa: RUF012 - SQLAlchemy's documented class attribute
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: DateTime(timezone=True),
    }


class GameStatus(StrEnum):
    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class SeatStatus(StrEnum):
    WAITING = "waiting"  # joined, no power yet
    PLAYING = "playing"
    LATE = "late"  # missed the last deadline
    ABANDONED = "abandoned"  # missed too many; waiting for a replacement
    VACANT = "vacant"  # ejected or resigned, no player
    ELIMINATED = "eliminated"
    CIVIL_DISORDER = "disorder"  # nobody plays it (the game started short); never waited for, REPLACE fills it


class MailStatus(StrEnum):
    RECEIVED = "received"
    PROCESSED = "processed"
    IGNORED = "ignored"  # bounces, auto-replies, our own mail: logged, never answered
    SHUNTED = "shunted"


class OutboundStatus(StrEnum):
    QUEUED = "queued"
    SENT = "sent"
    FAILED = "failed"
    DROPPED = "dropped"  # taken out of the queue by the admin (`judge outbox drop`)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    """lower-cased mail address: how the judge recognises a player"""
    name: Mapped[str] = mapped_column(String(120))
    name_key: Mapped[str | None] = mapped_column(String(480), index=True)
    """what the name looks like (judge.game.names.look_alike_key): REGISTER refuses a name whose key is taken"""
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime]
    country: Mapped[str | None] = mapped_column(String(80), default=None)
    """where he plays from, as REGISTER's form gave it (njudge's `Country:`), for GMs who balance a game"""
    zone: Mapped[str | None] = mapped_column(String(64), default=None)
    """his time zone (an IANA name: `Europe/Oslo`), as REGISTER's form gave it"""
    level: Mapped[str | None] = mapped_column(String(16), default=None)
    """his experience, one of njudge's levels (`judge.game.profiles.LEVELS`)"""
    show_address: Mapped[bool] = mapped_column(default=False, server_default=false())
    """WHOIS and his page show his address: only when he says so (REGISTER's `Show address: yes`)"""


class PlayerAddress(Base):
    """Another address of a player's (njudge's `I AM ALSO`): mail from it is his, as from his own address."""

    __tablename__ = "player_addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    """lower-cased, as `Player.address`"""
    created_at: Mapped[datetime]


@dataclass(frozen=True)
class Marks:
    """What the judge itself has done in a game, kept apart from the GM's settings (issue 42: they shared one JSON
    with `SET`'s values, where a GM's name could meet them): each mark is the index of the phase it was done for,
    so a new phase needs nothing cleared, and a judge that restarts, or another process on the database, does
    nothing twice. Read and written by the deadline's rules (`judge.game.deadlines`) and the GM's controls."""

    reminded: int | None = None
    """the phase whose reminders went out"""
    late: int | None = None
    """the phase whose late notices went out"""
    gm_told: int | None = None
    """the phase the GM was told is due (a manual game) or waits for replacements"""
    processed: int | None = None
    """the phase processed at its deadline or early"""
    no_early: int | None = None
    """the phase that waits for its deadline whatever orders are in (rolled back to: ROLLBACK)"""
    failed: int | None = None
    """the phase whose deadline work failed, the admin and the GM told (once)"""
    paused_at: datetime | None = None
    """when a paused game was paused (RESUME moves the deadline on by the time since)"""
    reminders: int | None = None
    """how many of the phase `reminded`'s reminders went out (`timing.reminders`: several before one deadline;
    None with `reminded` set: one, as before issue 43)"""


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    name_key: Mapped[str | None] = mapped_column(String(480), index=True)
    """what the name looks like (judge.game.names.look_alike_key): CREATE refuses a name whose key is taken"""
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """rule options passed to the variant (`judge variants --options NAME`)"""
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """press, timing and house rules (deadlines, NMR handling) as set by the GM: only what SET takes
    (`judge.game.settings.SETTINGS`)"""
    note: Mapped[str | None] = mapped_column(Text, default=None)
    """the GM's note, printed with every results mail until changed (`NOTE`)"""
    absences: Mapped[dict[str, list[str]]] = mapped_column(JSON, default=dict)
    """the players' absences (`SET ABSENCE`): power -> [start, end], ISO instants (`judge.game.attendance`)"""
    observers: Mapped[list[str]] = mapped_column(JSON, default=list)
    """the addresses that observe the game (`OBSERVE`), sorted"""
    concessions: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    """power -> the power its player concedes to (`CONCEDE`)"""
    co_gms: Mapped[list[str] | None] = mapped_column(JSON, nullable=True, default=list)
    """the addresses of the co-GMs the GM named (`PROMOTE`), sorted: each signs on as MASTER with his own password"""
    pictures_off: Mapped[list[str]] = mapped_column(JSON, default=list)
    """the powers whose players turned the map pictures off (`SET PICTURES OFF`), sorted"""
    waived: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    """the players (ids) the GM let JOIN whatever their record (`WAIVE LIMITS`): no entry limit is asked of them"""
    njudge_layout: Mapped[list[str]] = mapped_column(JSON, default=list)
    """the powers whose players read the game's mails in njudge's layout (`SET LAYOUT NJUDGE`), sorted"""
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.FORMING)
    gm_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    password_hash: Mapped[str] = mapped_column(String(256))
    """the game password players give to JOIN"""
    page_password_hash: Mapped[str | None] = mapped_column(String(256), default=None)
    """the password that opens a private game's web pages (`SET WEB PASSWORD`); None: they open to nobody"""
    seed: Mapped[int] = mapped_column(Integer)
    phase_index: Mapped[int] = mapped_column(default=0)
    """index of the current (unprocessed) phase; phase records 0..phase_index-1 exist"""
    position: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    """the current position in contract form (None while forming)"""
    deadline: Mapped[datetime | None] = mapped_column(default=None)
    result: Mapped[str | None] = mapped_column(String(32), default=None)
    """how it ended: victory, draw, concession, terminated"""
    winners: Mapped[list[Any] | None] = mapped_column(default=None)
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    version: Mapped[int] = mapped_column(default=1)
    ended_from: Mapped[str | None] = mapped_column(String(16), default=None)
    """the status a terminated game had when TERMINATE ended it (forming, active, paused): UNTERMINATE returns it
    there (issue 44 item 5); None in every other game"""
    marks: Mapped[Marks] = composite(
        mapped_column("reminded_phase", Integer, nullable=True, default=None),
        mapped_column("late_phase", Integer, nullable=True, default=None),
        mapped_column("gm_told_phase", Integer, nullable=True, default=None),
        mapped_column("processed_phase", Integer, nullable=True, default=None),
        mapped_column("no_early_phase", Integer, nullable=True, default=None),
        mapped_column("failed_phase", Integer, nullable=True, default=None),
        mapped_column("paused_at", DateTime(timezone=True), nullable=True, default=None),
        mapped_column("reminders_sent", Integer, nullable=True, default=None),
    )
    """the judge's own marks (`Marks`), one column each"""

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.id")
    gm: Mapped[Player] = relationship()

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - optimistic locking across processes


class Seat(Base):
    """A player's place in a game; one player may hold several (Hoplite Wars, CW Heptadiplomacy option B)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    power: Mapped[str | None] = mapped_column(String(32), default=None)
    preferences: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default=SeatStatus.WAITING)
    missed: Mapped[int] = mapped_column(default=0)
    """consecutive phases with no orders"""
    wait: Mapped[bool] = mapped_column(default=False)
    """SET WAIT: do not process early on this power's account"""
    joined_at: Mapped[datetime]

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()


class JoinRequest(Base):
    """A player's wish to join a game, or to take an open place in it, waiting for the GM's answer (`join.approval`:
    the GM APPROVEs or DECLINEs it by mail). One a player and game: asking again replaces the wish."""

    __tablename__ = "join_requests"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    side: Mapped[str | None] = mapped_column(String(120), default=None)
    """the open place asked for, as lists name it (a side's label); None: a place in the forming game"""
    preferences: Mapped[list[Any]] = mapped_column(default=list)
    """the powers the player would like, best first, for a join (`judge.game.preferences`)"""
    asked_at: Mapped[datetime]

    player: Mapped[Player] = relationship()


class RefusedAddress(Base):
    """An address the GM refuses in a game (`REFUSE`): its joins, takeovers and observing are declined, and it is
    told no more than that. Kept apart from the settings, which LIST shows: an address is private."""

    __tablename__ = "refused_addresses"
    __table_args__ = (UniqueConstraint("game_id", "address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(320))
    """lower-cased, as `Player.address`"""
    refused_at: Mapped[datetime]


class PhaseRecord(Base):
    """Every processed phase, kept for ever: the position before, the orders, the outcome and the position after."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    index: Mapped[int]
    season: Mapped[str] = mapped_column(String(16))
    year: Mapped[int]
    type: Mapped[str] = mapped_column(String(16))
    position_before: Mapped[dict[str, Any]]
    orders: Mapped[dict[str, Any]]
    """the order lines as submitted, by power (the canonical forms and results are in `outcome`)"""
    outcome: Mapped[dict[str, Any]]
    """the contract outcome: canonical orders with results and reasons, units, dislodged, centres, events"""
    position_after: Mapped[dict[str, Any]]
    seed: Mapped[int]
    processed_at: Mapped[datetime]


class OrderSet(Base):
    """The orders on file for one power in one phase; a new set replaces the old one.

    The lines are read once, when they arrive, and kept as the values the reader made (`orders`) beside the lines
    themselves (the echo): the deadline, PREDICT and the pictures drawn ahead take the values, never the text
    again (issue 42; `judge.game.checking`). Read as columns, never loaded as objects: the order path writes it
    with a plain table statement (`judge.game.order_writes`), which an object held in a session would not see."""

    __tablename__ = "order_sets"
    __table_args__ = (UniqueConstraint("game_id", "phase_index", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_index: Mapped[int]
    power: Mapped[str] = mapped_column(String(32))
    lines: Mapped[list[Any]]
    """the lines as the player wrote them"""
    orders: Mapped[list[Any]]
    """per line (in step with `lines`), the orders read from it: each {"input", "read": the order's value
    (`judge.contract.orders.order_json`)}, or {"input", "error": why it could not be read}"""
    checked: Mapped[list[Any]]
    """per line: {"input", "order", "error"} as the judge read it at submission"""
    has_errors: Mapped[bool] = mapped_column(default=False)
    submitted_at: Mapped[datetime]
    source_message_id: Mapped[str | None] = mapped_column(String(998), default=None)


class LaterOrderSet(Base):
    """Orders a player sent for a later phase (njudge's `PHASE season year phase`: his retreats and builds before he
    goes away), kept as the values the reader made, until that phase opens: then they become the power's orders
    for it, each checked against the position then (`judge.game.later_orders`). A new set for the power and phase
    replaces the old one; the set is gone once used, or once its phase is past without coming (a retreat phase
    that never was)."""

    __tablename__ = "later_order_sets"
    __table_args__ = (UniqueConstraint("game_id", "phase", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(16))
    """the phase's njudge code (`F1901R`, `W1901A`)"""
    power: Mapped[str] = mapped_column(String(32))
    lines: Mapped[list[Any]]
    """the lines as the player wrote them"""
    orders: Mapped[list[Any]]
    """per line, the orders read from it (as `OrderSet.orders`)"""
    submitted_at: Mapped[datetime]
    source_message_id: Mapped[str | None] = mapped_column(String(998), default=None)


class Press(Base):
    __tablename__ = "press"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_index: Mapped[int]
    sender: Mapped[str | None] = mapped_column(String(32))
    """the sending power, or None for the GM"""
    recipients: Mapped[list[Any]]
    """powers, or ["*"] for a broadcast"""
    body: Mapped[str] = mapped_column(Text)
    with_results: Mapped[bool] = mapped_column(default=False)
    """released with the next results instead of at once"""
    grey: Mapped[bool] = mapped_column(default=False, server_default=false())
    """grey press: the recipients are not told who sent it (the GM is)"""
    released: Mapped[bool] = mapped_column(default=False)
    shown_sender: Mapped[str | None] = mapped_column(String(32), default=None)
    """fake press (`press.fake`): the power its readers are told sent it (`sender` stays the truth, for the GM)"""
    shown_recipients: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True, default=None)
    """fake press: whom its readers are told it went to (["*"]: everybody); None: the truth"""
    observer: Mapped[str | None] = mapped_column(String(320), default=None)
    """the address of the observer who sent it (`press.observers`); None for a power's or the GM's"""
    created_at: Mapped[datetime]


class Statement(Base):
    """A player's end-of-game statement (DPjudge's "End Of Game Statements", issue 44 item 5): one for each player
    (and the GM) and game, changed by filing it again. Kept private until the game ends; then in the game-over mail
    and on the game's page."""

    __tablename__ = "statements"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    side: Mapped[str | None] = mapped_column(String(120), default=None)
    """the side the player held when he filed it, as lists name it (`Sparta + Elatea`); None: the GM's"""
    text: Mapped[str] = mapped_column(Text)
    filed_at: Mapped[datetime]


class DrawVote(Base):
    __tablename__ = "draw_votes"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(32))
    accept: Mapped[bool]
    powers: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """the powers the vote would draw the game among; None: every power the draw includes by the game's rules"""
    updated_at: Mapped[datetime]


class GameEventRecord(Base):
    """What happened to a game, in the order it happened (`judge.game.events`): the public part of each event,
    for the game's history and its web pages. Rolled back with the phases it follows."""

    __tablename__ = "game_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_index: Mapped[int]
    """the phase the game was in when it happened"""
    kind: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]]
    at: Mapped[datetime]


class SiteKey(Base):
    """A key the judge keeps for itself, one row a use (the web passes' signing key): in the database, so every judge
    process on it, on one machine or several, signs and checks alike."""

    __tablename__ = "site_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime]


class PageGuesses(Base):
    """The wrong guesses at private games' page passwords, counted per client and per game (`key`), with the time
    before which the next guess is not even checked: every judge process on the database keeps the same count."""

    __tablename__ = "page_guesses"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    """`client <address>` (an IPv6 client by its /64) or `game <name>`"""
    failures: Mapped[int] = mapped_column(default=0)
    last_at: Mapped[datetime] = mapped_column(index=True)
    """the latest guess counted: a count untouched for a day is forgotten"""
    wait_until: Mapped[datetime | None] = mapped_column(default=None)


class InboundMail(Base):
    """Every mail the judge received, stored raw before it is acknowledged: nothing is lost."""

    __tablename__ = "inbound_mail"
    __table_args__ = (
        Index("ix_inbound_status", "status", "id"),
        # the mail in some process's hands (or failed before), by sender: a claim passes over the later mail of
        # those senders (judge.mail.processor)
        Index(
            "ix_inbound_in_hand",
            "sender",
            "id",
            postgresql_where=text("status = 'received' AND attempts > 0"),
            sqlite_where=text("status = 'received' AND attempts > 0"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(998), index=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    source: Mapped[str] = mapped_column(String(16))
    """imap, smtp or lmtp"""
    envelope_from: Mapped[str | None] = mapped_column(String(320))
    sender: Mapped[str | None] = mapped_column(String(320), default=None)
    """the one From address as the processor reads it (`judge.mail.inbox.sender_of`), set when stored; None where
    there is none: each sender's mail is handled in the order it came, by whichever process"""
    status: Mapped[str] = mapped_column(String(16), default=MailStatus.RECEIVED)
    attempts: Mapped[int] = mapped_column(default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(200), default=None)
    """the process that counted the last attempt (`judge.mail.claims`): while it lives, the mail is its own to retry,
    and no other process takes it between that process's claim and its work"""
    claimed_at: Mapped[datetime | None] = mapped_column(default=None)
    """when (for a claim by a process on another host, whose life cannot be told: a lease)"""
    error: Mapped[str | None] = mapped_column(Text, default=None)
    received_at: Mapped[datetime]
    processed_at: Mapped[datetime | None] = mapped_column(default=None)


class OutboundMail(Base):
    """Every mail the judge sends is a row first; a sender delivers it with retries."""

    __tablename__ = "outbound_mail"
    __table_args__ = (Index("ix_outbound_due", "status", "next_try_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message: Mapped[bytes] = mapped_column(LargeBinary)
    recipients: Mapped[list[Any]]
    kind: Mapped[str] = mapped_column(String(16))
    """reply, result, reminder, late, notice"""
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), default=None)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"), default=None, index=True)
    status: Mapped[str] = mapped_column(String(16), default=OutboundStatus.QUEUED)
    attempts: Mapped[int] = mapped_column(default=0)
    next_try_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    claimed_by: Mapped[str | None] = mapped_column(String(200), default=None)
    """the process delivering it now (`judge.mail.claims`), taken back at once when that process dies"""
    sending_since: Mapped[datetime | None] = mapped_column(default=None)
    """set just before the relay is given the message, cleared when its answer is recorded: a row that still has
    it after a crash may have reached the relay (its fate is unknown)"""


OUTBOUND_MESSAGE_STORAGE = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
        ALTER TABLE outbound_mail ALTER COLUMN message SET COMPRESSION lz4;
    ELSE
        ALTER TABLE outbound_mail ALTER COLUMN message SET STORAGE EXTERNAL;
    END IF;
END
$$
"""
"""On PostgreSQL, an outgoing message's bytes are compressed with lz4, or not at all where the server has no lz4.
A results mail carries the map picture (some 200 KB of base64, which does not compress): the default, pglz, spent
about 3.5 ms of the server's time on each such copy to find that out, 8 copies a game, at the busiest moment of a
deadline; lz4 gives up at once, and still compresses the text-only mails. A fresh database gets this here; an older
one from migration 0005."""


@event.listens_for(OutboundMail.__table__, "after_create")
def _outbound_message_storage(_table: Any, connection: Connection, **_: Any) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(OUTBOUND_MESSAGE_STORAGE)


class ImapState(Base):
    """Where the IMAP poller got to in a mailbox: nothing is fetched twice, nothing skipped after a restart."""

    __tablename__ = "imap_state"
    __table_args__ = (UniqueConstraint("account", "mailbox"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account: Mapped[str] = mapped_column(String(320))
    mailbox: Mapped[str] = mapped_column(String(200))
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    last_uid: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime]
