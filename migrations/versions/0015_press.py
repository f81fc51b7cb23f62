"""press rules and the GM handed on (issues 43 and 44): a press message's shown sender and readers where the game
allows fake press, the observer who sent one, and a game's co-GMs

Revision ID: 0013_press
Revises: 0012
Create Date: 2026-12-04

`press.shown_sender` and `press.shown_recipients` are what the readers are told (fake press: `PRESS ... AS
Germany`, `FAKE TO ...`); `sender` and `recipients` stay the truth, which only the GM is told. `press.observer` is
the address of the observer who sent a message (None for a power's or the GM's). `games.co_gms` holds the
addresses of the players the GM named co-GMs (PROMOTE), sorted. Every column is new and empty for what was stored
before, which therefore reads as it always did.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_press"
down_revision: str | None = "0014_joining"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("press") as batch:
        batch.add_column(sa.Column("shown_sender", sa.String(32), nullable=True))
        batch.add_column(sa.Column("shown_recipients", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("observer", sa.String(320), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("co_gms", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("co_gms")
    with op.batch_alter_table("press") as batch:
        batch.drop_column("observer")
        batch.drop_column("shown_recipients")
        batch.drop_column("shown_sender")
