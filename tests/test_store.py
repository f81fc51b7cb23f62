"""The database: migrations agree with the models, start-up creates or upgrades, secrets are hashed."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, select, text

from judge.clock import SYSTEM_CLOCK
from judge.passwords import hash_password, verify_password
from judge.store import Base, Player, open_database
from judge.store.db import alembic_config, current_revision, make_engine, migrating


def test_migrations_build_exactly_the_schema_the_models_describe(database_url: str) -> None:
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert differences == []


def test_a_fresh_database_is_created_and_stamped_and_a_second_start_changes_nothing(database_url: str) -> None:
    db = open_database(database_url)
    assert current_revision(db.engine) is not None
    tables = set(inspect(db.engine).get_table_names())
    assert {"games", "players", "phases", "order_sets", "inbound_mail", "outbound_mail"} <= tables
    db.dispose()
    again = open_database(database_url)
    assert current_revision(again.engine) == current_revision(db.engine)
    again.dispose()


def test_an_older_database_is_upgraded_on_start(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "head")
        command.downgrade(alembic_config(conn), "base")
    engine.dispose()
    db = open_database(sqlite_url)
    assert current_revision(db.engine) is not None
    db.dispose()


def test_passwords_are_stored_hashed(database_url: str) -> None:
    db = open_database(database_url)
    with db.transaction() as s:
        s.add(
            Player(
                address="a@example.org", name="A", password_hash=hash_password("s3cret"), created_at=SYSTEM_CLOCK.now()
            )
        )
    with db.transaction() as s:
        stored = s.scalars(select(Player.password_hash)).one()
    db.dispose()
    assert "s3cret" not in stored
    assert verify_password("s3cret", stored)
    assert not verify_password("S3cret", stored)


def test_a_password_check_is_remembered_whichever_way_it_went(monkeypatch: pytest.MonkeyPatch) -> None:
    """scrypt is paid once per password and stored hash, for a refusal as for a match."""
    import judge.passwords

    stored = hash_password("right")
    checks: list[str] = []
    real = judge.passwords._verify

    def counted(password: str, stored_hash: str) -> bool:
        checks.append(password)
        return real(password, stored_hash)

    monkeypatch.setattr(judge.passwords, "_verify", counted)
    assert [verify_password(p, stored) for p in ("wrong", "wrong", "right", "right", "wrong")] == [
        False,
        False,
        True,
        True,
        False,
    ]
    assert checks == ["wrong", "right"]


def test_the_upgrade_reads_the_sender_of_the_mail_still_to_do(database_url: str) -> None:
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0006")
        for n, status in enumerate(("received", "processed", "received")):
            raw = f"From: Player {n} <P{n}@Example.org>\r\n\r\nHELP\r\n".encode()
            conn.execute(
                text("INSERT INTO inbound_mail (raw, source, status, attempts, received_at) "
                     "VALUES (:raw, 'imap', :status, 0, CURRENT_TIMESTAMP)"),
                {"raw": raw, "status": status},
            )  # fmt: skip
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        senders = conn.execute(text("SELECT sender FROM inbound_mail ORDER BY id")).scalars().all()
    engine.dispose()
    assert senders == ["p0@example.org", None, "p2@example.org"]  # mail already handled keeps none
