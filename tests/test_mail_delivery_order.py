"""Issue 31: replies before announcements before results, no kind starved; a mail several people read (a results
sheet, the game-over mail) goes through one SMTP transaction of several recipients, and a recipient the relay
refuses is retried or failed alone -- against a real aiosmtpd relay, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from email.headerregistry import Group
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from judge.clock import FakeClock
from judge.config import OutboundConfig
from judge.mail.outbox import outbound_row, queue_rows
from judge.mail.sender import SHARE_TURNS, Sender
from judge.store import Database, OutboundMail, OutboundStatus, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.testing.smtp_relay import ReceivedMessage, SmtpRelay
from judge.testing.tables import POWERS


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


PLAYERS = ("austria@example.org", "england@example.org", "france@example.org")


def _message(subject: str, to: str | Group = "austria@example.org") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Judge <judge@example.org>"
    message["To"] = to
    message["Subject"] = subject
    message.set_content(f"{subject}\n")
    return message


def _queue(db: Database, clock: FakeClock, subject: str, kind: str, recipients: tuple[str, ...] = ()) -> int:
    """One row; with `recipients`, a mail for all of them whose To names none (as a results mail to a game)."""
    to = Group("alpha results") if recipients else "austria@example.org"
    row = outbound_row(_message(subject, to), kind=kind, now=clock.now(), recipients=list(recipients) or None)
    with db.transaction() as session:
        queue_rows(session, [row])
        return int(session.scalars(select(OutboundMail.id).order_by(OutboundMail.id.desc()).limit(1)).one())


def _rows(db: Database) -> list[OutboundMail]:
    with db.transaction() as session:
        return list(session.scalars(select(OutboundMail).order_by(OutboundMail.id)))


def _subjects(messages: list[ReceivedMessage]) -> list[str]:
    return [m.data.split(b"Subject: ")[1].split(b"\r\n")[0].decode() for m in messages]


def _config(relay: SmtpRelay, **settings: object) -> OutboundConfig:
    return OutboundConfig(relay_host=relay.host, relay_port=relay.port, relay_security="plain", **settings)  # type: ignore[arg-type]


def test_replies_go_before_announcements_and_announcements_before_results(smtp_relay: SmtpRelay, db: Database) -> None:
    clock = FakeClock()
    for subject, kind in [("result 1", "result"), ("notice 1", "notice"), ("result 2", "result"),
                          ("reply 1", "reply"), ("press 1", "press"), ("reply 2", "reply")]:  # fmt: skip
        _queue(db, clock, subject, kind)
    assert Sender(db, _config(smtp_relay), clock).send_due() == 6
    assert _subjects(smtp_relay.messages) == ["reply 1", "reply 2", "notice 1", "press 1", "result 1", "result 2"]


def test_no_kind_waits_for_the_more_urgent_to_run_dry(smtp_relay: SmtpRelay, db: Database) -> None:
    """Of every `SHARE_TURNS` claims, one takes announcements first and one results first."""
    clock = FakeClock()
    _queue(db, clock, "result", "result")
    _queue(db, clock, "notice", "notice")
    for n in range(3 * SHARE_TURNS):
        _queue(db, clock, f"reply {n}", "reply")
    assert Sender(db, _config(smtp_relay), clock).send_due(SHARE_TURNS) == SHARE_TURNS
    sent = _subjects(smtp_relay.messages)
    assert "result" in sent and "notice" in sent
    assert sent[: SHARE_TURNS - 2] == [f"reply {n}" for n in range(SHARE_TURNS - 2)]


def test_a_reply_queued_while_results_go_out_is_the_next_mail_sent(smtp_relay: SmtpRelay, db: Database) -> None:
    """The issue's rush: a player's mail answered while hundreds of results wait; the reply waits for the one
    results mail under way, not for those queued before it."""
    clock = FakeClock()
    for n in range(20):
        _queue(db, clock, f"result {n}", "result", PLAYERS)

    class Rushed(Sender):
        def _relay(self, row: OutboundMail) -> dict[str, int]:
            if len(smtp_relay.messages) == 3:
                _queue(db, clock, "reply", "reply")
            return super()._relay(row)

    assert Rushed(db, _config(smtp_relay), clock).send_due() == 21
    assert _subjects(smtp_relay.messages)[3:5] == ["result 3", "reply"]


def test_a_mail_for_several_players_goes_in_one_transaction_with_its_bytes_once(
    smtp_relay: SmtpRelay, db: Database
) -> None:
    clock = FakeClock()
    row_id = _queue(db, clock, "alpha S1901M: results", "result", PLAYERS)
    assert Sender(db, _config(smtp_relay), clock).send_due() == 1
    [received] = smtp_relay.messages
    assert received.rcpt_tos == PLAYERS
    assert b"To: alpha results:;\r\n" in received.data
    assert not any(address.encode() in received.data for address in PLAYERS)  # only the envelope names them
    [row] = _rows(db)
    assert (row.id, row.status, row.recipients) == (row_id, OutboundStatus.SENT, list(PLAYERS))


def test_a_recipient_refused_for_now_is_retried_alone_and_one_refused_for_good_fails_alone(
    smtp_relay: SmtpRelay, db: Database
) -> None:
    clock = FakeClock()
    row_id = _queue(db, clock, "results", "result", PLAYERS)
    smtp_relay.refuse("england@example.org", 452, "4.2.2 mailbox full")
    smtp_relay.refuse("france@example.org", 550, "5.1.1 no such user")
    told: list[tuple[list[str], str]] = []
    sender = Sender(db, _config(smtp_relay), clock, lambda row, why: told.append((list(row.recipients), why)))
    assert sender.send_due() == 1
    first, later, never = _rows(db)
    assert (first.id, first.status, first.recipients) == (row_id, OutboundStatus.SENT, ["austria@example.org"])
    assert (later.status, later.recipients, later.attempts) == (OutboundStatus.QUEUED, ["england@example.org"], 1)
    assert later.next_try_at.replace(tzinfo=None) == (clock.now() + timedelta(minutes=2)).replace(tzinfo=None)
    assert (never.status, never.recipients) == (OutboundStatus.FAILED, ["france@example.org"])
    assert [to for to, _ in told] == [["france@example.org"]] and "550" in told[0][1]
    assert later.message == first.message == never.message  # the same mail, Message-ID and all
    smtp_relay.accept("england@example.org")
    clock.advance(timedelta(minutes=2))
    assert sender.send_due() == 1
    assert [m.rcpt_tos for m in smtp_relay.messages] == [("austria@example.org",), ("england@example.org",)]
    assert sender.send_due() == 0


def test_every_recipient_refused_some_for_now_some_for_good_fails_only_those_for_good(
    smtp_relay: SmtpRelay, db: Database
) -> None:
    clock = FakeClock()
    row_id = _queue(db, clock, "results", "result", PLAYERS[:2])
    smtp_relay.refuse("austria@example.org", 451, "4.3.0 try later")
    smtp_relay.refuse("england@example.org", 550, "5.1.1 no such user")
    assert Sender(db, _config(smtp_relay), clock).send_due() == 0
    row, never = _rows(db)
    assert (row.id, row.status, row.recipients, row.attempts) == (
        row_id, OutboundStatus.QUEUED, ["austria@example.org"], 1)  # fmt: skip
    assert (never.status, never.recipients) == (OutboundStatus.FAILED, ["england@example.org"])
    assert smtp_relay.messages == []


def test_two_running_senders_send_every_mail_to_every_recipient_once(smtp_relay: SmtpRelay, database_url: str) -> None:
    clock = FakeClock()
    setup = open_database(database_url)
    for n in range(30):
        _queue(setup, clock, f"result {n}", "result", PLAYERS)
        _queue(setup, clock, f"reply {n}", "reply")
    setup.dispose()
    databases = [open_database(database_url) for _ in range(2)]
    stop = threading.Event()
    senders = [Sender(database, _config(smtp_relay), clock) for database in databases]
    threads = [threading.Thread(target=sender.run, args=(stop,), daemon=True) for sender in senders]
    try:
        for thread in threads:
            thread.start()
        received = smtp_relay.wait_for(60, timeout=60)
        time.sleep(0.5)  # anything sent twice would arrive now
    finally:
        stop.set()
        for sender in senders:
            sender.wake()
        for thread in threads:
            thread.join(10)
        for database in databases:
            database.dispose()
    copies = Counter((to, subject) for m, subject in zip(received, _subjects(received), strict=True)
                     for to in m.rcpt_tos)  # fmt: skip
    expected = {(to, f"result {n}") for n in range(30) for to in PLAYERS} | {
        ("austria@example.org", f"reply {n}") for n in range(30)}  # fmt: skip
    assert set(copies) == expected and set(copies.values()) == {1}
    assert len(smtp_relay.messages) == 60


EVERYONE = sorted([*(f"{power.lower()}@example.org" for power in POWERS), "gm@example.org", "looker@example.org"])


def test_the_game_over_mail_goes_to_everyone_in_one_transaction_that_names_none_of_them(
    smtp_relay: SmtpRelay, db: Database
) -> None:
    """Its readers all read the same text: one message, one transaction with a RCPT TO each, `To:` the game's
    empty group as a results mail for several people; no reader's address in the bytes."""
    judge = Judge(db)
    start_game(judge)
    judge.mail("looker@example.org", "REGISTER A Looker lookpw\nOBSERVE alpha joinpw")
    assert "alpha is terminated" in judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nTERMINATE")
    Sender(db, _config(smtp_relay), judge.clock).send_due()
    [over] = [m for m in smtp_relay.messages if b"Subject: alpha: the game is over (terminated)" in m.data]
    assert over.rcpt_tos == tuple(EVERYONE)
    assert b"To: alpha results:;\r\n" in over.data
    assert not any(address.encode() in over.data for address in EVERYONE)


def test_a_game_over_mail_only_one_person_reads_is_addressed_to_that_person(
    smtp_relay: SmtpRelay, db: Database
) -> None:
    judge = Judge(db)
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    assert "created" in judge.mail("gm@example.org", "CREATE early standard joinpw")
    assert "early is terminated" in judge.mail("gm@example.org", "SIGNON early MASTER gmpass\nTERMINATE")
    Sender(db, _config(smtp_relay), judge.clock).send_due()
    [over] = [m for m in smtp_relay.messages if b"Subject: early: terminated" in m.data]
    assert over.rcpt_tos == ("gm@example.org",)
    assert b"To: gm@example.org\r\n" in over.data
