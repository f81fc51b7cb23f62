"""A locked snapshot of a game as the order path reads it: the game's row and its seats in two plain queries, kept
for the rest of the transaction.

A deadline brings a rush of order mails, each a SIGNON and a few orders for one of a handful of games. Loading
the game's ORM graph (game, seats, players) for the SIGNON and again for the orders cost more than everything
else the judge does with such a mail. A view is read once per game per transaction -- the mail processor's
batch -- and forgotten the moment it could be wrong:

- any flush that writes a game, a seat or a player (every change to a game goes through the ORM), and
- any rollback, savepoints included (a view read after a change that is then undone would keep the change).

So a view is never staler than what the transaction itself would read.

The game's row is held `FOR SHARE` (on PostgreSQL; SQLite has one writer at a time anyway), not `FOR UPDATE`: the
order path (SIGNON and orders) never writes the game's or its seats' rows -- it writes order sets, and stored
events, rows of their own -- so two processes' batches file orders for one game at once, while every use case that
changes the game (`GameStore.lock`, the keeper's adjudication) takes `FOR UPDATE`, which waits for the order path's
transactions and keeps them out until it commits: an order lands in the phase before the adjudication or in the
one after it, never nowhere. A transaction that takes a game `FOR SHARE` here and `FOR UPDATE` later (a batch
holding an order mail and then a GM's command for the same game) may meet another doing the same: PostgreSQL
then undoes one of them as a deadlock, and the mail processor does that batch again (`judge.mail.processor`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event, exists, select
from sqlalchemy.orm import Session, SessionTransaction

from judge.contract import position_from_json
from judge.engine import Position, Rules
from judge.game.anonymity import hides_names
from judge.game.timing import timing_from_settings
from judge.store import Game, OrderSet, Player, Seat
from judge.variants import get_variant

_KEY = "judge.game_views"
"""where a session keeps its views (`Session.info`, which lives as long as the session)"""


@dataclass(frozen=True)
class SeatView:
    power: str | None
    status: str
    address: str | None
    """the player's address; None for a vacant seat"""
    password_hash: str | None


@dataclass
class Snapshot:
    id: int
    name: str
    variant: str
    options: dict[str, Any]
    status: str
    phase_index: int
    position: dict[str, Any] | None
    deadline: datetime | None
    gm_address: str
    gm_password_hash: str
    seats: tuple[SeatView, ...]
    zone: str = "UTC"
    """the game's time zone (`timing.zone`), in which the foot of a reply writes its deadline"""
    names_hidden: bool = False
    """the game keeps who plays whom from everyone but the GM (`judge.game.anonymity.names_hidden`)"""
    on_file: set[str] = field(default_factory=set)
    """the powers with orders on file for the current phase (as the order path files more, it adds them)"""
    _rules: Rules | None = field(default=None, repr=False)
    _current: Position | None = field(default=None, repr=False)

    @property
    def rules(self) -> Rules:
        if self._rules is None:
            self._rules = get_variant(self.variant).rules(self.options)
        return self._rules

    @property
    def current(self) -> Position:
        """The position parsed once for all the mails of the transaction that order in this game."""
        if self._current is None:
            self._current = position_from_json(self.rules, self.position or {})
        return self._current

    def seat(self, power: str) -> SeatView | None:
        return next((seat for seat in self.seats if seat.power == power), None)


_GAME = (
    select(
        Game.id,
        Game.variant,
        Game.options,
        Game.status,
        Game.phase_index,
        Game.position,
        Game.deadline,
        Game.settings,
        Player.address,
        Player.password_hash,
    )
    .join(Player, Player.id == Game.gm_id)
    .where(Game.name == bindparam("name"))
    .with_for_update(read=True, of=Game)
)
_SEATS = (
    select(
        Seat.power,
        Seat.status,
        Player.address,
        Player.password_hash,
        exists()
        .where(
            OrderSet.game_id == Seat.game_id,
            OrderSet.phase_index == bindparam("phase"),
            OrderSet.power == Seat.power,
        )
        .label("on_file"),
    )
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Seat.game_id == bindparam("game"))
    .order_by(Seat.id)
)


def snapshot(session: Session, name: str) -> Snapshot | None:
    """The game called `name`, held `FOR SHARE` for this transaction, or None."""
    views: dict[str, Snapshot] = session.info.setdefault(_KEY, {})
    found = views.get(name)
    if found is not None:
        return found
    row = session.execute(_GAME, {"name": name}).first()
    if row is None:
        return None
    seats = session.execute(_SEATS, {"game": row.id, "phase": row.phase_index}).all()
    view = Snapshot(
        id=row.id,
        name=name,
        variant=row.variant,
        options=dict(row.options or {}),
        status=row.status,
        phase_index=row.phase_index,
        position=row.position,
        deadline=row.deadline,
        gm_address=row.address,
        gm_password_hash=row.password_hash,
        seats=tuple(SeatView(s.power, s.status, s.address, s.password_hash) for s in seats),
        zone=timing_from_settings(row.settings or {}).zone,
        names_hidden=hides_names(row.settings or {}, row.status),
        on_file={s.power for s in seats if s.on_file},
    )
    views[name] = view
    return view


def _forget(session: Session) -> None:
    session.info.pop(_KEY, None)


@event.listens_for(Session, "after_flush")
def _forget_after_writes(session: Session, _context: Any) -> None:
    if _KEY not in session.info:
        return
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, (Game, Seat, Player)):
            _forget(session)
            return


@event.listens_for(Session, "after_soft_rollback")
def _forget_after_rollback(session: Session, _previous: SessionTransaction) -> None:
    _forget(session)
