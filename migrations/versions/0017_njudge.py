"""the players who read their game's mails in njudge's layout (issue 45: `SET LAYOUT NJUDGE`, a choice per player
beside the game's `results.layout`): `games.njudge_layout`, the powers whose players chose it, empty in every
game stored before

Revision ID: 0013_njudge
Revises: 0012 (0012_typed_reasons.py)
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_njudge"
down_revision: str | None = "0016_records"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_GAMES = sa.table("games", sa.column("njudge_layout", sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("njudge_layout", sa.JSON(), nullable=True))
    op.get_bind().execute(_GAMES.update().values(njudge_layout=[]))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("njudge_layout", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("njudge_layout")
