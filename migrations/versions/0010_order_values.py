"""orders kept as the values the reader made (issue 42): every order set on file gets, beside its lines, the orders
read from them, so that the deadline, PREDICT and the pictures drawn ahead never read the lines again

Revision ID: 0010_order_values
Revises: 0009
Create Date: 2026-12-04

Each stored line is read here once, with its game's variant and options, as a mail's would be when it comes
(`judge.game.checking.read_orders`). A set of a game whose variant the judge no longer knows keeps its lines and
gets no orders for them (`[]` per line): it can neither be read nor adjudicated anyway.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_order_values"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from judge.engine import Rules
    from judge.game.checking import orders_json, read_orders
    from judge.variants import UnknownVariant, get_variant

    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("orders", sa.JSON(), nullable=True))
    conn = op.get_bind()
    order_sets = sa.table("order_sets", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                          sa.column("lines", sa.JSON), sa.column("orders", sa.JSON))  # fmt: skip
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("variant", sa.String),
                     sa.column("options", sa.JSON))  # fmt: skip
    rules: dict[int, Rules | None] = {}
    for game_id, variant, options in conn.execute(sa.select(games.c.id, games.c.variant, games.c.options)):
        try:
            rules[game_id] = get_variant(variant).rules(dict(options or {}))
        except UnknownVariant:
            rules[game_id] = None
    values = []
    for set_id, game_id, lines in conn.execute(sa.select(order_sets.c.id, order_sets.c.game_id, order_sets.c.lines)):
        game_rules = rules.get(game_id)
        text = [str(line) for line in lines or ()]
        read = orders_json(read_orders(game_rules, text)) if game_rules is not None else [[] for _ in text]
        values.append({"set_id": set_id, "read": read})
    if values:
        conn.execute(
            order_sets.update().where(order_sets.c.id == sa.bindparam("set_id")).values(orders=sa.bindparam("read")),
            values,
        )
    with op.batch_alter_table("order_sets") as batch:
        batch.alter_column("orders", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("orders")
