"""The game store: models, database set-up and migrations (SQLite by default, PostgreSQL at scale)."""

from judge.store.db import Database, open_database
from judge.store.models import (
    Base,
    DrawVote,
    Game,
    GameEventRecord,
    GameStatus,
    ImapState,
    InboundMail,
    MailStatus,
    OrderSet,
    OutboundMail,
    OutboundStatus,
    PhaseRecord,
    Player,
    Press,
    Seat,
    SeatStatus,
)

__all__ = [
    "Base",
    "Database",
    "DrawVote",
    "Game",
    "GameEventRecord",
    "GameStatus",
    "ImapState",
    "InboundMail",
    "MailStatus",
    "OrderSet",
    "OutboundMail",
    "OutboundStatus",
    "PhaseRecord",
    "Player",
    "Press",
    "Seat",
    "SeatStatus",
    "open_database",
]
