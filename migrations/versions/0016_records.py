"""a player's registration as njudge's form asked it (issue 43 item 7): country, time zone, experience level and
whether WHOIS may show his address; the other addresses he mails from (`I AM ALSO`); and the players a game's GM let
JOIN whatever their record (`WAIVE LIMITS`, issue 46)

Revision ID: 0013_records
Revises: 0012
Create Date: 2026-12-04

Nothing stored is changed: every field is empty for the players already registered (their address stays private),
and nobody has another address until he joins one.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_records"
down_revision: str | None = "0015_press"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("country", sa.String(length=80), nullable=True))
        batch.add_column(sa.Column("zone", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("level", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("show_address", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("waived", sa.JSON(), server_default="[]", nullable=False))
    op.create_table(
        "player_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_player_addresses_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_player_addresses"),
        sa.UniqueConstraint("address", name="uq_player_addresses_address"),
    )
    op.create_index("ix_player_addresses_player_id", "player_addresses", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_player_addresses_player_id", table_name="player_addresses")
    op.drop_table("player_addresses")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("waived")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("show_address")
        batch.drop_column("level")
        batch.drop_column("zone")
        batch.drop_column("country")
