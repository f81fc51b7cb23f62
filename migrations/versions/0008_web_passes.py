"""private games' page passwords, the web passes' signing key and the count of wrong guesses, in the database

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

Every judge process on one database serves one site: the key a pass is signed with and the count of guesses at a
private game's page password are read from here, not from a file each machine keeps. A private game's pages were
opened by its join password (which also lets an outsider JOIN a forming game); they now open with a page password
of their own, which no game has yet: its GM sets one (`SET WEB PASSWORD`).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("page_password_hash", sa.String(length=256), nullable=True))
    op.create_table(
        "site_keys",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_site_keys")),
    )
    op.create_table(
        "page_guesses",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wait_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_page_guesses")),
    )
    op.create_index(op.f("ix_page_guesses_last_at"), "page_guesses", ["last_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_page_guesses_last_at"), table_name="page_guesses")
    op.drop_table("page_guesses")
    op.drop_table("site_keys")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("page_password_hash")
