"""The game layer: every use case on one database, sharing one transaction when bound to the caller's.

games = Games(db)                      # each use case in a transaction of its own
games = Games(db, clock).bound(session)  # inside the caller's (each use case in a savepoint of it)
games.orders.submit("alpha", "France", ["A Par - Bur"])
games.events                            # what the use cases caused, for the notifier
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from judge.clock import SYSTEM_CLOCK, Clock
from judge.game.accounts import Accounts
from judge.game.adjudication import Adjudication
from judge.game.archive import Archives
from judge.game.controls import Controls
from judge.game.deadlines import Deadlines
from judge.game.entry_limits import EntryLimits
from judge.game.events import GameEvent
from judge.game.later_orders import LaterOrders
from judge.game.listing import Listing
from judge.game.masters import Masters
from judge.game.on_file import OnFileOrders
from judge.game.openings import Openings
from judge.game.orders import Orders
from judge.game.reads import Reads
from judge.game.seating import Seating
from judge.game.setup import Setup
from judge.game.statements import Statements
from judge.game.store import GameStore
from judge.game.table_talk import TableTalk
from judge.game.undoing import Undoing
from judge.game.web_access import WebAccess
from judge.game.whois import Whois
from judge.store import Database


class Games:
    """The use cases, each an attribute named for its job."""

    def __init__(self, db: Database, clock: Clock = SYSTEM_CLOCK, session: Session | None = None) -> None:
        self.db = db
        self.clock = clock
        self.store = GameStore(db, session)
        self.events: list[GameEvent] = []
        """the events every use case of this unit of work raised, in order"""
        parts = (self.store, clock, self.events)
        self.accounts = Accounts(*parts)
        self.seating = Seating(*parts)
        self.orders = Orders(*parts)
        self.adjudication = Adjudication(*parts)
        self.controls = Controls(*parts)
        self.deadlines = Deadlines(*parts)
        self.later = LaterOrders(*parts)
        self.talk = TableTalk(*parts)
        self.setup = Setup(*parts)
        self.reads = Reads(*parts)
        self.listing = Listing(*parts)
        self.web = WebAccess(*parts)
        self.openings = Openings(*parts)
        self.masters = Masters(*parts)
        self.entry = EntryLimits(*parts)
        self.whois = Whois(*parts)
        self.on_file = OnFileOrders(*parts)
        self.archives = Archives(*parts)
        self.undoing = Undoing(*parts)
        self.statements = Statements(*parts)

    def bound(self, session: Session) -> Games:
        """The same use cases working inside the caller's transaction (the mail processor handles a whole mail in
        one transaction, each command in a savepoint of it; the deadline keeper a game in one)."""
        return Games(self.db, self.clock, session)

    def take_events(self) -> list[GameEvent]:
        """The events raised so far, handed over once (to the notifier)."""
        taken = list(self.events)
        self.events.clear()
        return taken
