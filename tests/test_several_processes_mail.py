"""Several judge processes answering mail from one PostgreSQL database at once: each takes a batch no other holds,
each sender's mail keeps its order, two processes file orders for one game at once (and for one power, leaving
the later), a deadlock costs no attempt, and one IMAP fetcher works at a time (docs/operations.md, "How the work
is shared"). Each "process" here is a database of its own (its own connections), working in a thread where two
must overlap."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text, update

from judge.clock import FakeClock
from judge.commands import answer_mail
from judge.config import Config, ImapConfig, SmtpIntakeConfig
from judge.game import Games
from judge.mail.answer import Answer, Request
from judge.mail.claims import process_name
from judge.mail.imap_poller import ImapPoller
from judge.mail.inbox import store_inbound
from judge.mail.processor import Processor
from judge.store import Database, InboundMail, MailStatus, OrderSet, OutboundMail, open_database
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import full_games

CONFIG = Config(address="judge@example.org", rate_limit=10**9, smtp_intake=SmtpIntakeConfig(enabled=False))


@pytest.fixture
def db(postgres_url: str) -> Iterator[Database]:
    database = open_database(postgres_url)
    yield database
    database.dispose()


@pytest.fixture
def other(postgres_url: str, db: Database) -> Iterator[Database]:
    """The same database as another judge process sees it: connections of its own."""
    database = open_database(postgres_url, migrate=False)
    yield database
    database.dispose()


def _store(db: Database, sender: str, body: str, n: int) -> int:
    raw = f"From: {sender}\r\nSubject: m{n}\r\nMessage-ID: <m{n}@example.org>\r\n\r\n{body}\r\n"
    return store_inbound(db, raw.encode(), source="test")


def _processor(db: Database) -> Processor:
    return Processor(db, CONFIG, handler=answer_mail)


def _status(db: Database) -> dict[int, tuple[str, int]]:
    with db.transaction() as s:
        rows = s.execute(select(InboundMail.id, InboundMail.status, InboundMail.attempts))
        return {row.id: (row.status, row.attempts) for row in rows}


def test_two_processes_claim_disjoint_batches(db: Database, other: Database) -> None:
    stored = [_store(db, f"p{n}@example.org", "HELP", n) for n in range(40)]
    first = _processor(db)._claim(10, window=40)
    second = _processor(other)._claim(10, window=40)
    assert first == stored[:10]
    assert second == stored[10:20]
    assert {attempts for _, attempts in _status(db).values()} == {0, 1}  # each claimed once, counted once


def test_a_senders_later_mail_waits_while_another_process_holds_the_older(db: Database, other: Database) -> None:
    alice1 = _store(db, "alice@example.org", "HELP", 1)
    bob = _store(db, "bob@example.org", "HELP", 2)
    alice2 = _store(db, "Alice <ALICE@example.org>", "HELP", 3)  # the same sender, written otherwise
    carol = _store(db, "carol@example.org", "HELP", 4)
    assert _processor(db)._claim(1, window=10) == [alice1]
    assert _processor(other)._claim(10, window=10) == [bob, carol]  # alice's second waits for her first
    assert _status(db)[alice2] == (MailStatus.RECEIVED, 0)


def test_a_batch_leaves_half_the_senders_to_another_process_when_more_than_a_batch_waits(
    db: Database, other: Database
) -> None:
    # four players writing in turn, three mails each: a batch of the first five would hold them all
    stored = [_store(db, f"p{n % 4}@example.org", "HELP", n) for n in range(12)]
    first, second = _processor(db), _processor(other)
    assert first._claim(5, window=12) == stored[:5]  # one process takes its batches whole
    _give_back(db, stored[:5])
    assert second._claim(5, window=0) == []  # the second processor makes itself known
    assert first._claim(5, window=12) == stored[:2]  # two of the four senders, in the order the mail came
    # the other two senders' mail, each in order: the first's senders are divided from the second's now
    assert second._claim(5, window=12) == [stored[n] for n in (2, 3, 6, 7, 10)]


def _give_back(db: Database, message_ids: list[int]) -> None:
    with db.transaction() as s:
        s.execute(update(InboundMail).where(InboundMail.id.in_(message_ids)).values(attempts=0))


def test_one_senders_mail_is_answered_in_order_by_two_processes(db: Database, other: Database) -> None:
    seats = full_games(Games(db), 2)
    moves = ["A Par - Bur", "A Par - Pic", "A Par - Gas", "A Par H"]
    ids: dict[str, list[int]] = {}
    n = 0
    for line in moves:  # every player sends four order mails in turn, each replacing the one before
        for seat in seats:
            order = line if seat.power == "France" else "A Par H"
            ids.setdefault(seat.address, []).append(
                _store(db, seat.address, f"SIGNON {seat.game} {seat.power} pw\n{order}", n)
            )
            n += 1

    def work(database: Database) -> None:
        processor = _processor(database)
        while processor.process_pending(batch=10) or any(
            status == MailStatus.RECEIVED for status, _ in _status(database).values()
        ):
            pass

    threads = [threading.Thread(target=work, args=(each,)) for each in (db, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with db.transaction() as s:
        rows = {row.id: row for row in s.execute(select(InboundMail.id, InboundMail.status, InboundMail.processed_at))}
        on_file = {(game_id, power): list(lines) for game_id, power, lines in
                   s.execute(select(OrderSet.game_id, OrderSet.power, OrderSet.lines))}  # fmt: skip
        replies = s.scalars(select(OutboundMail.inbound_id).where(OutboundMail.kind == "reply")).all()
    assert all(row.status == MailStatus.PROCESSED for row in rows.values())
    assert len(replies) == len(rows) and set(replies) == set(rows)  # each answered once
    for mails in ids.values():
        answered: list[datetime] = [rows[mail].processed_at for mail in mails]
        assert answered == sorted(answered)
    assert [lines for (_, power), lines in sorted(on_file.items()) if power == "France"] == [["A Par H"]] * 2


def _submit(db: Database, power: str, line: str) -> Iterator[None]:
    """File `line` for `power` of g0 in a transaction of its own, held open (the order sets written) until resumed."""
    with db.transaction() as s:
        Games(db).bound(s).orders.submit("g0", power, [line])
        s.execute(text("SELECT 1"))  # the filed sets are written before any statement
        yield


def test_orders_for_two_powers_of_one_game_filed_at_once_both_land(db: Database, other: Database) -> None:
    full_games(Games(db), 1)
    france = _submit(db, "France", "A Par - Bur")
    next(france)  # France's transaction holds g0 and has written its set, not committed
    with other.transaction() as s:
        s.execute(text("SET LOCAL lock_timeout = '10s'"))  # were g0 held FOR UPDATE, this would fail, not wait
        Games(other).bound(s).orders.submit("g0", "England", ["F Lon - Nth"])
    next(france, None)
    with db.transaction() as s:
        on_file = {power: list(lines) for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}
    assert on_file == {"France": ["A Par - Bur"], "England": ["F Lon - Nth"]}


def _waiting_for_a_lock(db: Database) -> bool:
    with db.transaction() as s:
        return bool(s.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                  "AND datname = current_database()")))  # fmt: skip


def test_one_power_filed_twice_at_once_keeps_exactly_one_set_the_later(db: Database, other: Database) -> None:
    full_games(Games(db), 1)
    first = _submit(db, "France", "A Par - Bur")
    next(first)  # the first set written, not committed: the second waits for its row
    second = threading.Thread(target=lambda: list(_submit(other, "France", "A Par - Pic")))
    second.start()
    while not _waiting_for_a_lock(db):
        second.join(0.05)
    next(first, None)
    second.join()
    with db.transaction() as s:
        rows = s.execute(select(OrderSet.power, OrderSet.lines)).all()
    assert [(power, list(lines)) for power, lines in rows] == [("France", ["A Par - Pic"])]


@pytest.mark.parametrize("sqlstate", ["40P01", "40001"])  # deadlock detected, serialization failure
def test_a_deadlock_undoes_the_batch_and_it_is_done_again_with_no_attempt_counted(db: Database, sqlstate: str) -> None:
    stored = [_store(db, f"p{n}@example.org", "HELP", n) for n in range(3)]
    met: list[str] = []

    def handler(games: Games, config: Config, request: Request) -> Answer:
        if not met:  # PostgreSQL reports the failure, as it would after undoing one of two transactions
            met.append(request.sender)
            session = games.store.session
            assert session is not None
            session.execute(text(f"DO $$ BEGIN RAISE EXCEPTION 'met another' USING ERRCODE = '{sqlstate}'; END $$"))
        return answer_mail(games, config, request)

    processor = Processor(db, CONFIG, handler=handler)
    assert processor.process_pending() == 0  # undone: nothing finished, nothing failed
    assert _status(db) == {each: (MailStatus.RECEIVED, 0) for each in stored}  # the attempts given back
    assert processor.process_pending() == 3
    assert _status(db) == {each: (MailStatus.PROCESSED, 1) for each in stored}
    with db.transaction() as s:
        assert s.scalar(select(InboundMail.id).where(InboundMail.error.is_not(None))) is None


def _imap(server: DovecotServer) -> ImapConfig:
    return ImapConfig(enabled=True, host=server.host, port=server.imap_port, security="plain", user="judge",
                      password="secret", poll_seconds=30.0)  # fmt: skip


def test_a_second_processs_imap_poller_skips_while_the_first_holds_the_mailbox(
    mailbox: DovecotServer, db: Database, other: Database
) -> None:
    first = ImapPoller(db, _imap(mailbox), FakeClock())
    second = ImapPoller(other, _imap(mailbox), FakeClock())
    try:
        assert first.poll_once() == 0  # the mailbox's state row made
        mailbox.append("judge", b"From: a@example.org\r\nMessage-ID: <x1@example.org>\r\n\r\nHELP\r\n")
        with db.transaction() as s:  # the first process in the middle of a fetch: it holds the state row
            s.execute(text("SELECT 1 FROM imap_state FOR UPDATE"))
            assert second.poll_once() == 0  # skipped: no waiting, nothing fetched or stored
            with other.transaction() as o:
                assert o.scalar(select(InboundMail.id)) is None
        assert second.poll_once() == 1
        assert first.poll_once() == 0
    finally:
        first.close()
        second.close()
    with db.transaction() as s:
        assert len(s.scalars(select(InboundMail.id)).all()) == 1


def test_a_mail_claimed_by_a_live_process_is_not_retried_by_another_until_that_process_dies(db: Database) -> None:
    """Between a process's claim (which counts the attempt and commits) and its work, the mail looks like one tried
    before; another process taking it then would count a second attempt for one try. It is the claimer's while the
    claimer lives; a process that died (kill -9) leaves it to the others at once."""
    claimer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        stored = _store(db, "p@example.org", "HELP", 1)
        with db.transaction() as s:
            s.execute(
                update(InboundMail)
                .where(InboundMail.id == stored)
                .values(attempts=1, claimed_by=process_name(claimer.pid), claimed_at=datetime.now(UTC))
            )
        assert _processor(db)._retries(10) == []
    finally:
        claimer.kill()
        claimer.wait()
    assert _processor(db)._retries(10) == [(stored, 1)]
