"""the game's own end (issue 44 item 5): the players' end-of-game statements (`statements`: one a player and game,
DPjudge's "End Of Game Statements") and the status a terminated game had (`games.ended_from`), which UNTERMINATE
returns it to

Revision ID: 0018_endings
Revises: 0017_njudge
Create Date: 2026-12-04

Nothing stored is changed: no game was terminated with its status kept, so none can be taken back (UNTERMINATE
returns a game whose status was not kept to forming or active by whether it had started), and nobody has filed a
statement.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_endings"
down_revision: str | None = "0017_njudge"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ended_from", sa.String(length=16), nullable=True))
    op.create_table(
        "statements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=120), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_statements_game_id_games", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_statements_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_statements"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_statements_game_id_player_id"),
    )
    op.create_index("ix_statements_game_id", "statements", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_statements_game_id", table_name="statements")
    op.drop_table("statements")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ended_from")
