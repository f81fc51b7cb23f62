"""every stored phase's refusals, orders and die rolls as values (issue 42): the results print them from values,
places named as each medium names them, and never read the words again

Revision ID: 0012
Revises: 0011_marks
Create Date: 2026-12-04

A phase stored before (refusals as `{"kind": "note", ...}`, orders without `read`, die rolls in words only) is
adjudicated again from what it keeps (the position before, the order lines, the seed; the engine is pure), and
the values are taken into its outcome where the two outcomes tell the same (judge/contract/stored.py). One that
does not, or whose variant is gone, is left as it is: it still reads, its words as they were stored. Nothing else
is changed, and nothing is removed, so there is nothing to undo.

It reads `phases.orders` as the order lines by power, which no revision before it changed.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011_marks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from judge.contract.adjudicate import CaseError, outcome_json, position_from_json
    from judge.contract.stored import needs_values, with_values
    from judge.game.adjudication import outcome_of
    from judge.game.checking import read_orders
    from judge.variants import UnknownVariant, get_variant

    conn = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("variant", sa.String),
                     sa.column("options", sa.JSON))  # fmt: skip
    phases = sa.table("phases", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                      sa.column("position_before", sa.JSON), sa.column("orders", sa.JSON),
                      sa.column("outcome", sa.JSON), sa.column("seed", sa.Integer))  # fmt: skip
    variants = {row.id: (row.variant, row.options or {}) for row in conn.execute(sa.select(games))}
    for row in conn.execute(sa.select(phases).order_by(phases.c.id)).all():
        if not needs_values(row.outcome or {}) or row.game_id not in variants:
            continue
        variant, options = variants[row.game_id]
        try:
            rules = get_variant(variant).rules(options)
            position = position_from_json(rules, row.position_before or {})
            orders = {power: read_orders(rules, lines) for power, lines in (row.orders or {}).items()}
            fresh = outcome_json(variant, outcome_of(rules, position, orders, int(row.seed)))
        except (UnknownVariant, CaseError, ValueError, KeyError, TypeError):
            continue  # left as stored: it reads as it always did
        upgraded = with_values(row.outcome, fresh)
        if upgraded is not row.outcome:
            conn.execute(phases.update().where(phases.c.id == row.id).values(outcome=upgraded))


def downgrade() -> None:
    """The values added are extra keys and kinds an older judge reads as it read any it did not know."""
