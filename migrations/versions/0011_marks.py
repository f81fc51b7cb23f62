"""the judge's marks out of the games' settings (issue 42): what the keeper and the GM's controls did for a phase
(`_reminded`, `_late`, `_gm_told`, `_processed`, `_no_early`, `_failed`: a phase index each; `_paused_at`: an ISO
instant) were keys of the JSON that holds the GM's SET values; each is now a column of its own
(`judge.store.models.Marks`)

Revision ID: 0011_marks
Revises: 0009
Create Date: 2026-12-04

The values stored are moved, not recomputed: a game reminded for its phase 7 before the upgrade is not reminded
again after it. A mark the judge cannot read (not a whole number, not an instant) is dropped: the worst it costs
is one notice sent twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0011_marks"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PHASE_MARKS = {
    "_reminded": "reminded_phase",
    "_late": "late_phase",
    "_gm_told": "gm_told_phase",
    "_processed": "processed_phase",
    "_no_early": "no_early_phase",
    "_failed": "failed_phase",
}
"""the settings' key of each phase mark, and its column"""
PAUSED_AT = ("_paused_at", "paused_at")

_GAMES = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("settings", sa.JSON),
    *(sa.column(column, sa.Integer) for column in PHASE_MARKS.values()),
    sa.column(PAUSED_AT[1], sa.DateTime(timezone=True)),
)


def _index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _instant(value: Any) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for column in PHASE_MARKS.values():
            batch.add_column(sa.Column(column, sa.Integer(), nullable=True))
        batch.add_column(sa.Column(PAUSED_AT[1], sa.DateTime(timezone=True), nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.select(_GAMES.c.id, _GAMES.c.settings)).all():
        settings = dict(row.settings or {})
        marked = [key for key in (*PHASE_MARKS, PAUSED_AT[0]) if key in settings]
        if not marked:
            continue
        values: dict[str, Any] = {column: _index(settings.pop(key, None)) for key, column in PHASE_MARKS.items()}
        values[PAUSED_AT[1]] = _instant(settings.pop(PAUSED_AT[0], None))
        conn.execute(_GAMES.update().where(_GAMES.c.id == row.id).values(settings=settings, **values))


def downgrade() -> None:
    conn = op.get_bind()
    columns = [*PHASE_MARKS.values(), PAUSED_AT[1]]
    for row in conn.execute(sa.select(_GAMES.c.id, _GAMES.c.settings, *(_GAMES.c[c] for c in columns))).all():
        settings = dict(row.settings or {})
        for key, column in PHASE_MARKS.items():
            if row._mapping[column] is not None:
                settings[key] = row._mapping[column]
        paused: datetime | None = row._mapping[PAUSED_AT[1]]
        if paused is not None:  # SQLite keeps no zone: the instant was stored in UTC
            settings[PAUSED_AT[0]] = (paused if paused.tzinfo else paused.replace(tzinfo=UTC)).isoformat()
        conn.execute(_GAMES.update().where(_GAMES.c.id == row.id).values(settings=settings))
    with op.batch_alter_table("games") as batch:
        for column in reversed(columns):
            batch.drop_column(column)
