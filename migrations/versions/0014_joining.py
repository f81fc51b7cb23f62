"""who may take a place (issue 43 items 5 and 9, issue 44 item 3): the players waiting for the GM's answer to a
join or a takeover (`join_requests`), and the addresses the GM refuses in a game (`refused_addresses`)

Revision ID: 0013_joining
Revises: 0012
Create Date: 2026-12-04

Two new tables, nothing else changed: downgrade drops them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_joining"
down_revision: str | None = "0013_deadlines"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_join_requests_game_id_games"),
            nullable=False,
        ),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", name="fk_join_requests_player_id_players"),
            nullable=False,
        ),
        sa.Column("side", sa.String(120), nullable=True),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_join_requests"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_join_requests_game_id_player_id"),
    )
    op.create_table(
        "refused_addresses",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_refused_addresses_game_id_games"),
            nullable=False,
        ),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_refused_addresses"),
        sa.UniqueConstraint("game_id", "address", name="uq_refused_addresses_game_id_address"),
    )


def downgrade() -> None:
    op.drop_table("refused_addresses")
    op.drop_table("join_requests")
