"""The one way the use cases load or lock a game, and the transaction they work in.

Every use case is one transaction, or a savepoint of the caller's (the mail processor handles a whole mail in one
transaction; each command in a savepoint of it). A use case that changes a game takes the game's row lock first
(SELECT ... FOR UPDATE on PostgreSQL; SQLite serialises writers with BEGIN IMMEDIATE), so two judge processes never
process the same phase twice, and an order submitted while a phase is being processed lands either in that phase
or, after it, in the next one -- never nowhere.

A game is had three ways, all here, and all say `NoSuchGame` alike:
- `lock`: the game's row with its seats, players and GM, locked, for a use case that changes it;
- `snapshot`: the row held `FOR SHARE` (other orders may be filed at once; no change to the game may), read as
  plain columns once per transaction (`judge.game.snapshot`), for the order path, which reads far more than it
  writes and never writes the game's row;
- `peek`: the row unlocked, for reads that change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload, selectinload

from judge.contract import position_from_json
from judge.engine import Position, Rules
from judge.game.errors import GameError, NoSuchGame
from judge.game.names import look_alike_key
from judge.game.snapshot import Snapshot, snapshot
from judge.store import Database, Game, Player, PlayerAddress, Seat
from judge.variants import get_variant


class GameStore:
    """The database as the use cases see it: transactions, and games loaded by name."""

    def __init__(self, db: Database, session: Session | None = None) -> None:
        self.db = db
        self.session = session
        """the caller's transaction, when the use cases work inside one (`Games.bound`)"""

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction of its own, or a savepoint of the caller's: a use case that fails leaves no trace."""
        if self.session is not None:
            with self.session.begin_nested():
                yield self.session
            return
        with self.db.transaction() as session:
            yield session

    @contextmanager
    def plain(self) -> Iterator[Session]:
        """The caller's transaction as it stands, or one of its own, without a savepoint: for use cases that only
        read, or whose one write is their last statement, so that a failure leaves nothing to undo."""
        if self.session is not None:
            yield self.session
            return
        with self.db.transaction() as session:
            yield session

    @staticmethod
    def lock(s: Session, name: str) -> Game:
        """The game, locked for this transaction, with its seats and players loaded in one more query."""
        game = s.scalar(
            select(Game)
            .where(Game.name == name)
            .options(selectinload(Game.seats).joinedload(Seat.player), joinedload(Game.gm))
            .with_for_update(of=Game)
        )
        if game is None:
            raise NoSuchGame(name)
        return game

    @staticmethod
    def snapshot(s: Session, name: str) -> Snapshot:
        """The game as plain columns, held `FOR SHARE`, read once per transaction (the order path)."""
        found = snapshot(s, name)
        if found is None:
            raise NoSuchGame(name)
        return found

    @staticmethod
    def find_snapshot(s: Session, name: str) -> Snapshot | None:
        """As `snapshot`, None for no such game (SIGNON says the same for every failure)."""
        return snapshot(s, name)

    @staticmethod
    def peek(s: Session, name: str) -> Game:
        """The game's row, unlocked: for reads."""
        game = s.scalar(select(Game).where(Game.name == name))
        if game is None:
            raise NoSuchGame(name)
        return game

    @staticmethod
    def peek_ids(s: Session, ids: Iterable[int]) -> dict[int, Game]:
        """Games' rows by id, unlocked: for reads of several games (a page of the list, the site's feed)."""
        wanted = set(ids)
        return {game.id: game for game in s.scalars(select(Game).where(Game.id.in_(wanted)))} if wanted else {}

    @staticmethod
    def games_in(s: Session, statuses: Iterable[str]) -> list[Game]:
        """Games' rows in these states, unlocked, by number: for reads of every game (the players' records)."""
        return list(s.scalars(select(Game).where(Game.status.in_(list(statuses))).order_by(Game.id)))

    @staticmethod
    def player(s: Session, address: str) -> Player:
        """A registered player by an address of his (his own, or one he joined to it: `I AM ALSO`)."""
        player = account_of(s, address)
        if player is None:
            raise GameError(f"{address} is not registered")
        return player


def account_of(s: Session, address: str) -> Player | None:
    """The player an address is his: his own, or one he joined to it (`I AM ALSO`)."""
    address = address.strip().lower()
    player = s.scalar(select(Player).where(Player.address == address))
    if player is not None:
        return player
    return s.scalar(select(Player).join(PlayerAddress, PlayerAddress.player_id == Player.id).where(
        PlayerAddress.address == address))  # fmt: skip


def find_player(s: Session, who: str) -> Player:
    """A registered player as a GM or player names him: by an address of his, or by his name (as REGISTER's
    look-alike key reads it, so case and look-alike letters do not matter); a GameError when nobody is."""
    if "@" in who:
        found = account_of(s, who)
    else:
        found = s.scalar(select(Player).where(Player.name_key == look_alike_key(" ".join(who.split()))).limit(1))
    if found is None:
        raise GameError(f"no registered player is called {who!r}")
    return found


def rules_of(game: Game) -> Rules:
    return get_variant(game.variant).rules(game.options)


def position_of(game: Game) -> Position:
    """The game's position now, parsed; a game not yet started has none."""
    if game.position is None:
        raise GameError(f"{game.name} has not started")
    return position_from_json(rules_of(game), game.position)
