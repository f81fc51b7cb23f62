"""what each player's and each game's name looks like (issue 41): REGISTER and CREATE refuse a name that looks like
one taken (judge.game.names.look_alike_key), found by an index, not by reading every name

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

The names already stored get their keys here. None is changed or refused: two old names that look alike keep
working (the index is not unique); only a new name is checked.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from judge.game.names import look_alike_key

    conn = op.get_bind()
    for table in ("players", "games"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("name_key", sa.String(length=480), nullable=True))
        op.create_index(f"ix_{table}_name_key", table, ["name_key"])
        named = sa.table(table, sa.column("id", sa.Integer), sa.column("name", sa.String),
                         sa.column("name_key", sa.String))  # fmt: skip
        keys = [{"row_id": row.id, "key": look_alike_key(row.name)} for row in conn.execute(sa.select(named))]
        if keys:
            conn.execute(
                named.update().where(named.c.id == sa.bindparam("row_id")).values(name_key=sa.bindparam("key")), keys
            )


def downgrade() -> None:
    for table in ("games", "players"):
        op.drop_index(f"ix_{table}_name_key", table_name=table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("name_key")
