"""grey press and draws among named powers

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("press") as batch:
        batch.add_column(sa.Column("grey", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("draw_votes") as batch:
        batch.add_column(sa.Column("powers", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("draw_votes") as batch:
        batch.drop_column("powers")
    with op.batch_alter_table("press") as batch:
        batch.drop_column("grey")
