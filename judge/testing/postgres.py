"""A scratch PostgreSQL database for the tests and the benchmark: made empty, dropped afterwards."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

ADMIN_URL = os.environ.get("JUDGE_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
"""a role that may create databases; JUDGE_TEST_POSTGRES overrides it"""


def postgres_problem(admin_url: str = ADMIN_URL) -> str | None:
    """None when PostgreSQL answers, else the reason it does not."""
    try:
        engine = create_engine(admin_url)
        with engine.connect() as conn:
            conn.execute(text("select 1"))
        engine.dispose()
        return None
    except OperationalError as exc:
        return f"PostgreSQL is not reachable at {admin_url}: {str(exc).splitlines()[0]}"


@contextmanager
def scratch_database(admin_url: str = ADMIN_URL, template: str | None = None) -> Iterator[str]:
    """The URL of a new database, dropped (with any connection left to it) on leaving: empty, or a copy of the
    database `template` (a URL; nobody may be connected to it)."""
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    # no pool: the server may have been restarted between the create and the drop (tests/test_database_outages.py)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    copy = f' TEMPLATE "{template.rsplit("/", 1)[1]}"' if template else ""
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
