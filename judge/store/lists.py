"""`column IN (a list)` as each database reads it cheapest, for the mail path's lists of ids and addresses.

SQLAlchemy writes `IN` with one bound parameter per value, expanded into the statement's text at each execution.
On PostgreSQL through psycopg that text is then parsed again by psycopg (a statement that long or with that many
parameters is never in psycopg's cache) and planned anew by the server: a list of 500 message ids cost the judge
about 5.7 ms of its own CPU a query on the judge's two-core machines, against 1.5 ms for the same query with one
array parameter (`column = ANY(:ids)`), whose text is the same whatever the list's length. SQLite has no arrays,
and its driver binds a long `IN` cheaply: it keeps `IN`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, any_, literal
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import InstrumentedAttribute, Session


def binds_arrays(session: Session) -> bool:
    """Whether the session's database takes a list as one array parameter (PostgreSQL)."""
    return session.get_bind().dialect.name == "postgresql"


def one_of(session: Session, column: InstrumentedAttribute[Any], values: Iterable[Any]) -> ColumnElement[bool]:
    """`column` is one of `values`: `= ANY` of one array on PostgreSQL, `IN` elsewhere (a NULL matches neither)."""
    listed = list(values)
    if binds_arrays(session):
        return column == any_(literal(listed, ARRAY(column.type)))
    return column.in_(listed)
