"""issue 43's deadlines: the count of a phase's reminders sent (several before one deadline: `timing.reminders`), and
the orders players send for a later phase (`PHASE season year phase`)

Revision ID: 0013_deadlines
Revises: 0012
Create Date: 2026-12-04

A game reminded for its phase before the upgrade has `reminders_sent` empty, which the judge reads as one reminder
sent: it is not reminded again for the reminder it already had.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_deadlines"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("reminders_sent", sa.Integer(), nullable=True))
    op.create_table(
        "later_order_sets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source_message_id", sa.String(998), nullable=True),
        sa.UniqueConstraint("game_id", "phase", "power"),
    )


def downgrade() -> None:
    op.drop_table("later_order_sets")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reminders_sent")
