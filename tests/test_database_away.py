"""The database away is a failure of the database, not of the work in hand (issue 32): what counts as away, and
what the processor and the sender do with the mail they had when it went. SQLite locked by another program
beyond the busy timeout stands for every outage here (the same path as a PostgreSQL restart, which
tests/test_database_outages.py drives end to end)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from judge.clock import FakeClock
from judge.commands import answer_mail
from judge.config import Config, OutboundConfig, SmtpIntakeConfig, WebConfig
from judge.game import Games
from judge.mail.claims import this_process
from judge.mail.inbox import store_inbound
from judge.mail.outbox import queue_mail
from judge.mail.processor import Processor
from judge.mail.sender import Sender
from judge.serve import Daemon
from judge.store import (
    Database,
    Game,
    InboundMail,
    MailStatus,
    OutboundMail,
    OutboundStatus,
    PhaseRecord,
    open_database,
)
from judge.store.outage import Outage, is_unavailable
from judge.testing.dovecot import free_port
from judge.testing.smtp_relay import SmtpRelay
from judge.testing.tables import POWERS

CONFIG = Config(address="judge@example.org", name="testjudge", pictures=False)
HELP = (
    b"From: player <player@example.org>\r\nTo: judge@example.org\r\nSubject: help\r\nMessage-ID: <h1@x>\r\n\r\nHELP\r\n"
)


@pytest.fixture
def db(sqlite_url: str) -> Iterator[Database]:
    database = open_database(sqlite_url, busy_seconds=0.1)  # another program's lock fails a write at once
    yield database
    database.dispose()


@contextmanager
def _locked_by_another_program(db: Database) -> Iterator[None]:
    """Another program holds the SQLite file's write lock (every judge transaction begins IMMEDIATE)."""
    other = sqlite3.connect(str(db.engine.url.database), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def _error(action: Any) -> BaseException:
    try:
        action()
    except Exception as error:
        return error
    raise AssertionError("no error")


def test_a_database_locked_beyond_the_busy_timeout_is_the_database_away(db: Database) -> None:
    with _locked_by_another_program(db):
        assert is_unavailable(_error(lambda: store_inbound(db, HELP, source="smtp")))


def test_a_postgresql_server_that_refuses_connections_is_the_database_away() -> None:
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/postgres")
    try:
        assert is_unavailable(_error(lambda: engine.connect().close()))
    finally:
        engine.dispose()


def test_a_fault_of_the_work_itself_is_not_the_database_away(db: Database) -> None:
    def no_such_table() -> None:
        with db.transaction() as s:
            s.execute(text("SELECT * FROM no_such_table"))

    missing = _error(no_such_table)
    assert isinstance(missing, OperationalError) and not is_unavailable(missing)

    def duplicate() -> None:
        insert = text("INSERT INTO players (id, name, address, password_hash, created_at) VALUES (1, :a, :a, 'h', :t)")
        with db.transaction() as s:
            s.execute(insert, {"a": "a@x", "t": "2026-01-01"})
            s.execute(insert, {"a": "b@x", "t": "2026-01-01"})

    clash = _error(duplicate)
    assert isinstance(clash, IntegrityError) and not is_unavailable(clash)


def test_mail_in_hand_when_the_database_goes_is_answered_when_it_returns_with_no_attempt_lost(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """The processor counts the attempt, the work's transaction fails on the lock: no failure recorded, the attempt
    given back, the mail answered the moment the lock is gone, with one line when the database went and one when
    it came back."""
    mail_id = store_inbound(db, HELP, source="smtp")
    processor = Processor(db, CONFIG, FakeClock(), handler=answer_mail)
    stop = threading.Event()
    caplog.set_level(logging.INFO)
    with _locked_by_another_program(db):
        runner = threading.Thread(target=processor.run, args=(stop,), kwargs={"idle_seconds": 0.05})
        runner.start()
        time.sleep(1.0)  # several rounds of trying, all on the lock
    freed = time.monotonic()
    try:
        while _status(db, mail_id) == MailStatus.RECEIVED and time.monotonic() - freed < 5:
            time.sleep(0.02)
        answered_after = time.monotonic() - freed
    finally:
        stop.set()
        processor.wakeup.set()
        runner.join(timeout=10)
    with db.transaction() as s:
        mail = s.get(InboundMail, mail_id)
        assert mail is not None
        assert (mail.status, mail.attempts, mail.error) == (MailStatus.PROCESSED, 1, None)
    assert answered_after < 1.0
    messages = [record.getMessage() for record in caplog.records]
    assert sum("the database is unavailable" in m for m in messages) == 1
    assert sum("the database answers again after" in m for m in messages) == 1
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]


def _status(db: Database, mail_id: int) -> str:
    with db.transaction() as s:
        mail = s.get(InboundMail, mail_id)
        assert mail is not None
        return mail.status


def _queued(db: Database, clock: FakeClock) -> int:
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = "judge@example.org"
    message["To"] = "austria@example.org"
    message["Subject"] = "Re: orders"
    message["Message-ID"] = "<r1@judge>"
    message.set_content("accepted\n")
    with db.transaction() as s:
        row = queue_mail(s, message, kind="reply", now=clock.now())
        s.flush()
        return row.id


def _outbound(db: Database, row_id: int) -> OutboundMail:
    with db.transaction() as s:
        row = s.get(OutboundMail, row_id)
        assert row is not None
        return row


def _claimed(db: Database, relay: SmtpRelay) -> tuple[Sender, OutboundMail]:
    """A reply queued, and claimed by a sender through the relay."""
    clock = FakeClock()
    row_id = _queued(db, clock)
    sender = Sender(db, OutboundConfig(relay_host=relay.host, relay_port=relay.port, relay_security="plain"), clock)
    [row] = sender._claim_due(limit=10)
    assert row.id == row_id and _outbound(db, row.id).claimed_by == this_process()
    return sender, row


def test_a_reply_the_relay_took_as_the_database_went_is_recorded_sent_when_it_returns_and_never_sent_again(
    db: Database, smtp_relay: SmtpRelay
) -> None:
    sender, row = _claimed(db, smtp_relay)
    sender._relay(row)  # the relay has it
    with _locked_by_another_program(db):
        assert is_unavailable(_error(lambda: sender._sent([row])))
        assert is_unavailable(_error(sender.settle))  # still away: still owed
    sender.settle()
    stored = _outbound(db, row.id)
    assert (stored.status, stored.claimed_by, stored.sending_since) == (OutboundStatus.SENT, None, None)
    assert sender.send_due() == 0 and len(smtp_relay.messages) == 1


def test_a_reply_claimed_but_not_sent_as_the_database_went_is_handed_back_at_once_not_left_to_its_lease(
    db: Database, smtp_relay: SmtpRelay
) -> None:
    """The issue's case: the database drops just after the sender claimed a reply (`_mark_sending` fails)."""
    sender, row = _claimed(db, smtp_relay)
    with _locked_by_another_program(db):
        assert is_unavailable(_error(lambda: sender._relay(row)))
    assert smtp_relay.messages == []  # it never reached the relay
    sender.settle()
    stored = _outbound(db, row.id)
    assert (stored.status, stored.claimed_by) == (OutboundStatus.QUEUED, None)
    assert sender.send_due() == 1  # due now, in the same round, not ten minutes on
    assert len(smtp_relay.messages) == 1 and _outbound(db, row.id).status == OutboundStatus.SENT


def test_the_loops_share_one_wait_and_the_admin_is_told_once_of_an_outage_that_lasts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Four loops find the database away at once: one probe at a time for all of them, one line when it goes, one
    error once it has lasted, one line when it is back; every loop resumes the moment a probe passes."""
    down_until = time.monotonic() + 1.0
    probing: list[int] = []
    overlapping = []

    def probe() -> None:
        probing.append(1)
        if len(probing) > 1:
            overlapping.append(len(probing))
        time.sleep(0.02)
        probing.pop()
        if time.monotonic() < down_until:
            raise OperationalError("SELECT 1", None, sqlite3.OperationalError("database is locked"))

    outage = Outage(probe, tell_after=0.5)
    stop = threading.Event()
    resumed: list[float] = []
    caplog.set_level(logging.INFO)

    def loop(name: str) -> None:
        outage.lost(OperationalError("BEGIN", None, sqlite3.OperationalError("database is locked")), name)
        assert outage.wait(stop)
        began = time.monotonic()  # the round done again
        resumed.append(began)
        outage.answered(began)

    loops = [threading.Thread(target=loop, args=(name,)) for name in ("poller", "processor", "sender", "keeper")]
    for thread in loops:
        thread.start()
    for thread in loops:
        thread.join(timeout=10)
    assert len(resumed) == 4 and max(resumed) - down_until < 0.7
    assert not overlapping, "two loops probed at once"
    messages = [(record.levelno, record.getMessage()) for record in caplog.records]
    assert sum("the database is unavailable" in m for _, m in messages) == 1
    assert sum(level == logging.ERROR and "unavailable for" in m for level, m in messages) == 1
    assert sum("the database answers again after" in m for _, m in messages) == 1


def test_a_deadline_due_while_the_database_is_away_is_processed_the_moment_it_returns(
    db: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The keeper's round meets the database away: it is not counted as the game's failure (which would put the
    game off for a minute) but done again as soon as the database answers."""
    games = Games(db)
    games.accounts.register("gm@example.org", "GM", "pw")
    games.seating.create_game("race", "standard", "gm@example.org", "pw", seed=5)
    for power in POWERS:
        games.accounts.register(f"{power.lower()}@example.org", power, "pw")
        games.seating.join("race", f"{power.lower()}@example.org", "pw", [power])
    with db.transaction() as s:
        s.scalars(select(Game).where(Game.name == "race")).one().deadline = datetime.now(UTC) - timedelta(hours=1)
    config = Config(
        database_url=str(db.engine.url),
        smtp_intake=SmtpIntakeConfig(enabled=False),
        web=WebConfig(enabled=False),
        outbound=OutboundConfig(outbox_dir=str(tmp_path / "outbox")),
        pictures=False,
    )
    daemon = Daemon(config, db=db)
    caplog.set_level(logging.INFO)
    with _locked_by_another_program(db):
        keeper = threading.Thread(target=daemon.tick)
        keeper.start()
        time.sleep(1.0)
    freed = time.monotonic()
    keeper.join(timeout=30)
    took = time.monotonic() - freed
    with db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(PhaseRecord)) == 1
    assert took < 5.0 and not keeper.is_alive()
    messages = [record.getMessage() for record in caplog.records]
    assert sum("the database is unavailable" in m for m in messages) == 1
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]
