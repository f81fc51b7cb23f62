"""outbound claims: which process delivers a message, and since when the relay has it

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbound_mail") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("sending_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbound_mail") as batch:
        batch.drop_column("sending_since")
        batch.drop_column("claimed_by")
