"""Connecting to the database, and bringing its schema up to date under a lock.

SQLite is the embedded default: WAL journal, foreign keys on, and every transaction begins IMMEDIATE so that two
writers queue instead of failing half-way. PostgreSQL is used through the same code; the schema upgrade there
runs under an advisory lock so that several judge processes can start at once.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.orm import Session, sessionmaker

from judge.data import data_path
from judge.private_files import private_file, private_folder
from judge.store.models import Base
from judge.store.outage import Outage

MIGRATIONS = data_path("migrations")
SQLITE_BUSY_SECONDS = 60.0
"""how long a SQLite write waits for a lock held by another program before it fails (the judge then waits for the
database as for any outage: `judge.store.outage`)"""
_UPGRADE_LOCK_KEY = 0x4A554447  # "JUDG": the advisory lock id for schema upgrades on PostgreSQL


@dataclass
class Database:
    engine: Engine
    sessions: sessionmaker[Session]
    outage: Outage = field(init=False, repr=False)
    """its outages, and the one wait for its return that every loop of the process shares"""

    def __post_init__(self) -> None:
        self.outage = Outage(self.probe)

    def probe(self) -> None:
        """Raise unless the database answers and would take a write now (SQLite: the write lock is free)."""
        with self.engine.begin() as conn:
            conn.exec_driver_sql("SELECT 1")

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any error."""
        with self.sessions.begin() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_engine(url: str, busy_seconds: float) -> Engine:
    engine = create_engine(url, connect_args={"timeout": busy_seconds})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver must not BEGIN by itself; we do
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def make_engine(url: str, busy_seconds: float = SQLITE_BUSY_SECONDS) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url, busy_seconds)
    return create_engine(url, pool_pre_ping=True)


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@contextmanager
def _upgrade_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_advisory_lock({_UPGRADE_LOCK_KEY})")
            conn.commit()
            try:
                yield
            finally:
                conn.exec_driver_sql(f"SELECT pg_advisory_unlock({_UPGRADE_LOCK_KEY})")
                conn.commit()
        return
    database = engine.url.database
    if not database or database == ":memory:":
        yield
        return
    lock_path = Path(database).with_suffix(Path(database).suffix + ".lock")
    private_file(lock_path)
    with lock_path.open("w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        revision: str | None = MigrationContext.configure(conn).get_current_revision()
        return revision


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """The one connection migrations run on, in one transaction. SQLite's batch migrations rebuild a table (copy,
    drop, rename): with its foreign keys enforced, dropping `games` deletes every phase, seat, press and order of
    every game through their ON DELETE CASCADE (seen with 0011_marks). So on SQLite the keys are off while the
    migrations run (SQLite takes the pragma only outside a transaction, hence on the driver's connection before
    the first statement), checked whole before the commit, and on again after."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        driver = conn.connection.dbapi_connection
        if sqlite and driver is not None:
            driver.execute("PRAGMA foreign_keys=OFF")
        try:
            with conn.begin():
                yield conn
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"a migration left rows whose keys name nothing: {broken[:5]}")
        finally:
            if sqlite and driver is not None:
                driver.execute("PRAGMA foreign_keys=ON")


def upgrade(engine: Engine) -> None:
    """Create a fresh database and stamp it, or upgrade an existing one to the newest revision."""
    with _upgrade_lock(engine), migrating(engine) as conn:
        fresh = not inspect(conn).has_table("alembic_version") and not inspect(conn).has_table("games")
        if fresh:
            Base.metadata.create_all(conn)
            command.stamp(alembic_config(conn), "head")
        else:
            command.upgrade(alembic_config(conn), "head")


def _private_sqlite(path: Path) -> None:
    """The database file for the judge's user alone (it holds password hashes and addresses): made empty with mode
    0600 before SQLite opens it -- SQLite gives its -wal and -shm files the database file's mode -- in a folder
    made 0700 where there is none; an existing file, and its companions, tightened."""
    if not path.parent.exists():
        private_folder(path.parent)
    for companion in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if companion.exists():
            private_file(companion)
    private_file(path)


def open_database(url: str, *, migrate: bool = True, busy_seconds: float = SQLITE_BUSY_SECONDS) -> Database:
    """Connect (creating the SQLite file's folder if needed) and, by default, bring the schema up to date.
    `busy_seconds`: SQLite's wait for another program's lock."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            _private_sqlite(Path(path))
    engine = make_engine(url, busy_seconds)
    if migrate:
        upgrade(engine)
    return Database(engine, sessionmaker(engine, expire_on_commit=False))
