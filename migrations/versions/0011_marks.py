"""the judge's marks and the players' state out of the games' settings (issue 42): the JSON that holds the GM's
SET values also held what the keeper and the GM's controls did for a phase (`_reminded`, `_late`, `_gm_told`,
`_processed`, `_no_early`, `_failed`: a phase index each; `_paused_at`: an ISO instant), the players' own state
(`absences`, `observers`, `concessions`, `pictures.off`) and the GM's `note`; each is now a column of its own
(`judge.store.models.Marks`, `Game.absences` ...), and the settings hold only what SET takes

Revision ID: 0011_marks
Revises: 0010_order_values
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
down_revision: str | None = "0010_order_values"
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
PLAYERS_STATE = {"absences": dict, "observers": list, "concessions": dict, "pictures.off": list}
"""the settings' key of each part of the players' state, and what it is (its column: the key, `pictures_off`)"""
NOTE = "note"


def _column(key: str) -> str:
    return key.replace(".", "_")


_GAMES = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("settings", sa.JSON),
    *(sa.column(column, sa.Integer) for column in PHASE_MARKS.values()),
    sa.column(PAUSED_AT[1], sa.DateTime(timezone=True)),
    sa.column(NOTE, sa.Text),
    *(sa.column(_column(key), sa.JSON) for key in PLAYERS_STATE),
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
        batch.add_column(sa.Column(NOTE, sa.Text(), nullable=True))
        for key in PLAYERS_STATE:
            batch.add_column(sa.Column(_column(key), sa.JSON(), nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.select(_GAMES.c.id, _GAMES.c.settings)).all():
        settings = dict(row.settings or {})
        values: dict[str, Any] = {column: _index(settings.pop(key, None)) for key, column in PHASE_MARKS.items()}
        values[PAUSED_AT[1]] = _instant(settings.pop(PAUSED_AT[0], None))
        note = settings.pop(NOTE, None)
        values[NOTE] = str(note) if note else None
        for key, kind in PLAYERS_STATE.items():
            kept = settings.pop(key, None)
            values[_column(key)] = kept if isinstance(kept, kind) else kind()
        # the settings left: only what SET takes, and whatever else a GM's hand put there (kept: the judge never
        # reads it, and nothing is lost)
        conn.execute(_GAMES.update().where(_GAMES.c.id == row.id).values(settings=settings, **values))
    with op.batch_alter_table("games") as batch:
        for key in PLAYERS_STATE:
            batch.alter_column(_column(key), existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    conn = op.get_bind()
    columns = [*PHASE_MARKS.values(), PAUSED_AT[1], NOTE, *map(_column, PLAYERS_STATE)]
    for row in conn.execute(sa.select(_GAMES.c.id, _GAMES.c.settings, *(_GAMES.c[c] for c in columns))).all():
        settings = dict(row.settings or {})
        for key in PLAYERS_STATE:
            if row._mapping[_column(key)]:
                settings[key] = row._mapping[_column(key)]
        if row._mapping[NOTE]:
            settings[NOTE] = row._mapping[NOTE]
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
