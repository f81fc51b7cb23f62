"""inbound mail's sender, known at the claim: several processes keep each sender's mail in order; and who claimed
it last, so that no other process retries a mail between a live process's claim and its work

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28

The mail still to do (`received`) gets its sender filled here, read as the intakes now read it at storing
(`judge.mail.inbox.sender_of`); mail already handled keeps NULL (nothing reads it).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 500


def upgrade() -> None:
    from judge.mail.inbox import sender_of

    with op.batch_alter_table("inbound_mail") as batch:
        batch.add_column(sa.Column("sender", sa.String(length=320), nullable=True))
        batch.add_column(sa.Column("claimed_by", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        "ix_inbound_in_hand",
        "inbound_mail",
        ["sender", "id"],
        postgresql_where=sa.text("status = 'received' AND attempts > 0"),
        sqlite_where=sa.text("status = 'received' AND attempts > 0"),
    )
    mail = sa.table("inbound_mail", sa.column("id", sa.Integer), sa.column("raw", sa.LargeBinary),
                    sa.column("status", sa.String), sa.column("sender", sa.String))  # fmt: skip
    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(
            sa.select(mail.c.id, mail.c.raw)
            .where(mail.c.status == "received", mail.c.id > last)
            .order_by(mail.c.id)
            .limit(_BATCH)
        ).all()
        if not rows:
            return
        senders = [{"row_id": row.id, "value": sender_of(bytes(row.raw))} for row in rows]
        filled = [each for each in senders if each["value"] is not None]
        if filled:
            conn.execute(
                mail.update().where(mail.c.id == sa.bindparam("row_id")).values(sender=sa.bindparam("value")), filled
            )
        last = rows[-1].id


def downgrade() -> None:
    op.drop_index("ix_inbound_in_hand", table_name="inbound_mail")
    with op.batch_alter_table("inbound_mail") as batch:
        batch.drop_column("claimed_at")
        batch.drop_column("claimed_by")
        batch.drop_column("sender")
