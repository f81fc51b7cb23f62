"""outbound message storage: lz4 (or no compression) for outgoing mail on PostgreSQL

A results mail carries the map picture, some 200 KB of base64 that does not compress; PostgreSQL's default pglz
spent about 3.5 ms of the server's time on each copy to find that out. lz4 gives up at once and still compresses
text; a server without lz4 stores the bytes uncompressed. Rows already stored keep their form. SQLite: nothing.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STORAGE = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
        ALTER TABLE outbound_mail ALTER COLUMN message SET COMPRESSION lz4;
    ELSE
        ALTER TABLE outbound_mail ALTER COLUMN message SET STORAGE EXTERNAL;
    END IF;
END
$$
"""

DEFAULT = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression') THEN
        ALTER TABLE outbound_mail ALTER COLUMN message SET COMPRESSION DEFAULT;
    END IF;
    ALTER TABLE outbound_mail ALTER COLUMN message SET STORAGE EXTENDED;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(STORAGE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DEFAULT)
