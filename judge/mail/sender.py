"""Delivering the outbound queue: through an SMTP relay, or as .eml files in a folder when there is none.

A row is marked sent only after the relay accepted it (or the file is on disk), so a crash never marks
undelivered mail sent. Through a relay each row's outcome is recorded in a transaction of its own the moment the
relay answers: the only message a crash can send twice is the one the relay accepted in the instant before the
crash, before its record (docs/mail.md, "Delivery": at least once, that window measured). Such a row is marked
`sending_since` before it goes to the relay, so a judge that finds it after a crash knows its fate is unknown,
says so in the log, and sends it again under the same Message-ID (which lets mail programs drop a duplicate).
Files are marked sent a round at a time, once every file of the round and the folder are on disk; a file written
again after a crash is the same file, under the same name, so nobody receives anything twice.

Several judge processes may run a sender on one database: a sender claims a row (through a relay, each just
before sending it; as files, a round's rows together) with a conditional update that moves its `next_try_at` a
lease into the future and names the claiming process (`judge.mail.claims`). Only one sender's update matches a
row, so no row goes out twice while both run (on PostgreSQL the rows are chosen `FOR UPDATE SKIP LOCKED` first, so
two senders take different rows rather than wait for each other's); claims a sender does not use (it was stopped)
are handed back at once, and the claims of a process that died are taken back by the next sender round on its
host, at once.

Order (issue 31): replies first, then announcements and notices, then results (`judge.mail.outbox.urgency`), each
oldest first; of every `SHARE_TURNS` claims one takes announcements first and one results first, so no kind waits
for the others to run dry. A row is claimed only when its turn comes, so a reply queued during a results rush is
the next mail sent. A row may have several recipients (one results mail for everyone who reads the same sheet):
it is one SMTP transaction, and recipients the relay refuses while taking it for the others are split off into rows
of their own (the same bytes), retried (4xx) or failed (5xx) alone; those who have it never get it again. A sender
with mail due goes straight on from one row to the next on one relay connection; it waits (`IDLE_SECONDS`, or
until woken by a reply or a game's results queued in its process) only when nothing is due.

Failures: a temporary refusal of a message (4xx) counts an attempt and retries after 2, 4, 8... minutes, at most
6 hours apart, until `max_attempts`; a permanent refusal (5xx for the whole message: the sender, every
recipient, or the data) fails the row at once, as a retry would only be refused again. A relay that cannot be
reached (no connection, or no greeting, STARTTLS or login) is the transport's failure, not a message's: no attempt
is counted, the queue keeps its order, and the sender tries the relay again after 0.5, 1, 2, 4, then every 5
seconds, sending everything the moment it answers. A connection lost while a message is under way counts as that
message's temporary failure (the relay may have it): it is retried on the message's schedule, never at once.
A message still undelivered `give_up_hours` after it was queued fails for good. Whenever a message fails for good,
the judge's admin is told by mail (`on_failure`).

The database away (`judge.store.outage`) is no failure of a message: the sender keeps what it had in hand, waits
for the database with the other loops, and the moment it answers writes first what it owes: a message the relay
took is recorded sent (never sent again), a refusal is recorded, and the rows it had claimed but not sent (the
claim's own commit may have been lost with the connection) are handed back at once, to go out in the same round
rather than when their lease ends. Should the process stop before the database returns, its claims are those of a
dead process, taken back as after a kill (a message the relay had goes again, once, under its own Message-ID).
"""

from __future__ import annotations

import logging
import os
import re
import smtplib
import ssl
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from functools import partial
from pathlib import Path

from sqlalchemy import select, update

from judge.clock import Clock, as_utc
from judge.config import OutboundConfig
from judge.mail.claims import alive, this_process
from judge.mail.outbox import ANNOUNCEMENT, REPLY, RESULT, urgency_rank
from judge.private_files import private_folder
from judge.store import Database, OutboundMail, OutboundStatus
from judge.store.lists import one_of
from judge.store.outage import is_unavailable

log = logging.getLogger(__name__)

CLAIM_LEASE = timedelta(minutes=10)
"""how long a claimed row is left alone by other senders: far more than one delivery takes"""
MAX_BACKOFF = timedelta(hours=6)
RELAY_BACKOFF_FIRST = 0.5
RELAY_BACKOFF_MAX = 5.0
"""seconds between tries of a relay that cannot be reached: the queue goes out within seconds of its return"""
SMTP_TIMEOUT = 60.0
IDLE_SECONDS = 1.0
"""how long a sender whose queue has nothing due waits before it looks again, unless woken sooner (a reply queued
by this process, a game's results committed by its keeper); a sender with mail due never waits"""
SHARE_TURNS = 10
"""the claims of a sender go in turns of ten: the first eight take the most urgent mail due (replies, then
announcements, then results), the ninth announcements first and the tenth results first, so that no kind waits for
another to run dry (docs/mail.md, "Delivery")"""
SECURITIES = ("tls", "starttls", "plain")
_LINE_END = re.compile(rb"\r\n|\r|\n")
_SAFE_KIND = re.compile(r"[^A-Za-z0-9_-]")


class _Refused(Exception):
    """The relay refused this message; `permanent` when the refusal was a 5xx for the whole message."""

    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


class _RecipientsRefused(Exception):
    """The relay refused every recipient, some for now (4xx) and some for good (5xx): each is dealt with apart."""

    def __init__(self, codes: dict[str, int], message: str) -> None:
        super().__init__(message)
        self.codes = codes


class _ConnectionFailed(Exception):
    """The relay could not be reached or talked to: the row counts a temporary failure, the batch stops."""


def wire_format(raw: bytes) -> bytes:
    """The message with CRLF line endings and a final CRLF, as SMTP carries it.

    `queue_mail` stores `bytes(EmailMessage)`, which ends lines with a bare LF; a relay reads lines up to CRLF,
    so the message is sent with every line ending made CRLF (what the relay receives is exactly this).
    """
    wire = _LINE_END.sub(b"\r\n", raw)
    return wire if wire.endswith(b"\r\n") else wire + b"\r\n"


def envelope_sender(raw: bytes) -> str:
    """The envelope sender: the Return-Path if the message has one ("<>" gives the null sender), else the
    From address, else the null sender."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw)
    for name in ("Return-Path", "From"):
        value = headers.get(name)
        if value is not None:
            return parseaddr(str(value))[1]
    return ""


def retry_delay(attempts: int) -> timedelta:
    """2**attempts minutes after the attempts so far, at most 6 hours."""
    if attempts >= 9:  # 2**9 minutes is already past the cap; avoids huge powers
        return MAX_BACKOFF
    return min(timedelta(minutes=2**attempts), MAX_BACKOFF)


OUTBOX_ID_DIGITS = 8
"""the width of an outbox file's id: names sort 1, 2, ... 10, not 1, 10, 100"""


class Sender:
    """`send_due()` delivers what is due now; `run(stop_event)` keeps doing so, `wake()` to hurry it."""

    def __init__(
        self,
        db: Database,
        config: OutboundConfig,
        clock: Clock,
        on_failure: Callable[[OutboundMail, str], None] | None = None,
    ) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self.on_failure = on_failure
        """told of every message that failed for good (the daemon mails the admin)"""
        self._wake = threading.Event()
        self._smtp: smtplib.SMTP | None = None
        self._relay_down_until = 0.0
        self._relay_backoff = RELAY_BACKOFF_FIRST
        self._outage_started: float | None = None
        self._idle = False
        """the last round found nothing due (or the relay in its back-off): `run` may wait"""
        self._turn = 0
        """where this sender is in its `SHARE_TURNS`"""
        self._in_hand: set[int] = set()
        """rows this sender may have claimed and whose outcome is not yet written"""
        self._owed: list[tuple[list[int], Callable[[], None]]] = []
        """outcomes the database's going away kept from being written: written first when it answers"""
        if config.relay_host and config.relay_security not in SECURITIES:
            raise ValueError(f"relay_security must be one of {', '.join(SECURITIES)}, not {config.relay_security!r}")
        if not config.relay_host and Path(config.outbox_dir).exists():
            private_folder(Path(config.outbox_dir))  # the mail an earlier judge wrote there, tightened at start

    # -- the loop ---------------------------------------------------------------------------------------------

    def wake(self) -> None:
        """Ask a running `run()` to look at the queue now (e.g. right after a reply was queued)."""
        self._wake.set()

    def run(self, stop_event: threading.Event) -> None:
        """Deliver until `stop_event` is set. A round goes on while mail is due (the relay connection kept open
        from one round to the next); only a sender with nothing due waits, up to `IDLE_SECONDS`, less when woken."""
        limit = 100
        outage = self.db.outage
        while not stop_event.is_set():
            began = time.monotonic()
            try:
                self.settle()
                self.send_due(limit, stop_event=stop_event, keep_open=True)
                outage.answered(began)
            except Exception as error:  # the database or the disk: keep the loop alive, the rows stay due
                self._disconnect()
                if is_unavailable(error):
                    outage.lost(error, "sender")
                    outage.wait(stop_event)
                    continue
                log.exception("delivering the outbound queue failed; trying again shortly")
                self._idle = True
            if not self._idle:
                continue  # more is due: no pause
            self._disconnect()
            self._pause(stop_event)

    def _pause(self, stop_event: threading.Event) -> None:
        if not stop_event.is_set():
            self._wake.wait(IDLE_SECONDS)  # shutdown() wakes it too
        self._wake.clear()

    def settle(self) -> None:
        """Write what the database's going away left owed (sent, failed), then hand back at once the other rows
        this sender had in hand (claimed, or perhaps claimed, and not sent): they are due again now."""
        while self._owed:
            row_ids, record = self._owed[0]
            record()
            self._owed.pop(0)
            self._in_hand.difference_update(row_ids)
        if self._in_hand:
            left = sorted(self._in_hand)
            self._release(left, only_mine=True)
            log.info("outbound mail %s handed back to the queue: its round was cut short", ", ".join(map(str, left)))

    def _record(self, row_ids: list[int], record: Callable[[], None]) -> None:
        """Write rows' outcome; should the database be away, the outcome is owed (see `settle`)."""
        try:
            record()
        except Exception as error:
            if is_unavailable(error):
                self._owed.append((row_ids, record))
            raise
        self._in_hand.difference_update(row_ids)

    # -- one round --------------------------------------------------------------------------------------------

    def send_due(self, limit: int = 100, *, stop_event: threading.Event | None = None, keep_open: bool = False) -> int:
        """Deliver up to `limit` due rows, most urgent first (replies, announcements, results, each oldest first,
        in the turns of `SHARE_TURNS`); return how many were delivered.

        Through a relay each row is claimed just before it is sent and marked sent as soon as the relay has it:
        a slow relay may take minutes a message, longer than a whole round's claim could last, a crash repeats at
        most the one message under way, and a reply queued meanwhile is the next row claimed. Files are quick: a
        round's rows are claimed together and marked sent together once the files and their folder are on disk (a
        file written again after a crash is the same file). Claims left unused (a stop) are handed back at once
        rather than left to their lease. `keep_open`: leave the relay connection open for the next round while
        mail is due (`run`)."""
        self.take_back_dead_claims()
        self._idle = False
        if self.config.relay_host and time.monotonic() < self._relay_down_until:
            self._idle = True
            return 0  # the relay did not answer a moment ago: the queue waits, in order
        if self.config.relay_host:
            return self._relay_all(limit, stop_event, keep_open=keep_open)
        rows = self._claim_due(limit)
        self._idle = len(rows) < limit
        handled: set[int] = set()
        try:
            self._write_all(rows, handled, stop_event)
        finally:
            self._release([row.id for row in rows if row.id not in handled])
        return sum(1 for row in rows if row.status == OutboundStatus.SENT)

    def _relay_all(self, limit: int, stop_event: threading.Event | None, *, keep_open: bool) -> int:
        delivered = 0
        done = False
        try:
            for _ in range(limit):
                if stop_event is not None and stop_event.is_set():
                    break
                row = self._claim_next()
                if row is None:
                    self._idle = True
                    break
                try:
                    refused = self._relay(row)
                except _Refused as refusal:
                    self._failed(row, str(refusal), permanent=refusal.permanent)
                except _RecipientsRefused as refusal:
                    self._partly(row, refusal.codes, str(refusal), delivered=False)
                except _ConnectionFailed as failure:
                    self._relay_unreachable(row, str(failure))
                    self._idle = True
                    break  # the rest wait for the relay, in order
                else:
                    if refused:
                        self._partly(row, refused, f"the relay refused some recipients: {refused}", delivered=True)
                    else:
                        self._sent([row])
                    delivered += 1
                    self._relay_answered()
            done = True
        finally:
            if not (done and keep_open and not self._idle):
                self._disconnect()
        return delivered

    def _claim_next(self) -> OutboundMail | None:
        """Claim the next row to send (`SHARE_TURNS`), or None when nothing is due. On PostgreSQL the row is
        chosen `FOR UPDATE SKIP LOCKED`, so two senders never reach for the same one; on SQLite, whose writers take
        turns, a sender that lost the row to another between its look and its claim looks again."""
        turn, self._turn = self._turn, (self._turn + 1) % SHARE_TURNS
        first = {SHARE_TURNS - 2: ANNOUNCEMENT, SHARE_TURNS - 1: RESULT}.get(turn, REPLY)
        while True:
            now = self.clock.now()
            due = (OutboundMail.status == OutboundStatus.QUEUED, OutboundMail.next_try_at <= now)
            with self.db.transaction() as session:
                row_id = session.scalar(
                    select(OutboundMail.id)
                    .where(*due)
                    .order_by(urgency_rank(first), OutboundMail.id)
                    .limit(1)
                    .with_for_update(skip_locked=True)
                )
                if row_id is None:
                    return None
                self._in_hand.add(row_id)  # until the claim's answer is in: its commit may be lost
                claimed = session.scalar(
                    update(OutboundMail)
                    .where(OutboundMail.id == row_id, *due)
                    # claimed to be sent this instant: marked with the relay in the same commit (`_mark_sending`)
                    .values(next_try_at=now + CLAIM_LEASE, claimed_by=this_process(), sending_since=now)
                    .returning(OutboundMail.id)
                    .execution_options(synchronize_session=False)
                )
                row = session.get(OutboundMail, row_id) if claimed is not None else None
            if row is not None:
                return row
            self._in_hand.discard(row_id)

    def _relay_unreachable(self, row: OutboundMail, error: str) -> None:
        """The relay cannot be reached: the row goes back to the queue as it was (no attempt counted), unless it
        has waited `give_up_hours`; the sender tries the relay again shortly."""
        if self._outage_started is None:
            self._outage_started = time.monotonic()
            log.warning("the relay cannot be reached (%s); mail waits in the queue and is sent when it answers", error)
        waited = self.clock.now() - (as_utc(row.created_at) or self.clock.now())
        if waited >= timedelta(hours=self.config.give_up_hours):
            self._failed(row, f"undelivered after {self.config.give_up_hours} hours: {error}", permanent=True)
        else:
            self._release([row.id], error)
        self._relay_down_until = time.monotonic() + self._relay_backoff
        self._relay_backoff = min(self._relay_backoff * 2, RELAY_BACKOFF_MAX)

    def _relay_answered(self) -> None:
        if self._outage_started is not None:
            log.info("the relay answers again after %.1f s", time.monotonic() - self._outage_started)
        self._outage_started = None
        self._relay_backoff = RELAY_BACKOFF_FIRST
        self._relay_down_until = 0.0

    def take_back_dead_claims(self) -> int:
        """Hand back at once the rows claimed by processes of this host that no longer run (a judge killed while
        it was sending); a row that was with the relay when its process died is sent again, and the log says
        that it may be a duplicate. Returns how many rows were taken back."""
        now = self.clock.now()
        with self.db.transaction() as session:
            owners = set(
                session.scalars(
                    select(OutboundMail.claimed_by)
                    .where(
                        OutboundMail.status == OutboundStatus.QUEUED,
                        OutboundMail.next_try_at > now,
                        OutboundMail.claimed_by.is_not(None),
                    )
                    .distinct()
                )
            )
            dead = [owner for owner in owners if owner and owner != this_process() and alive(owner) is False]
            if not dead:
                return 0
            rows = session.execute(
                select(OutboundMail.id, OutboundMail.sending_since).where(
                    OutboundMail.status == OutboundStatus.QUEUED, OutboundMail.claimed_by.in_(dead)
                )
            ).all()
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.status == OutboundStatus.QUEUED, OutboundMail.claimed_by.in_(dead))
                .values(next_try_at=now, claimed_by=None, sending_since=None)
                .execution_options(synchronize_session=False)
            )
        for row_id, since in rows:
            if since is not None:
                log.warning(
                    "outbound mail %d was with the relay when its sender died: sending it again (the relay may have "
                    "accepted it; the copy has the same Message-ID)",
                    row_id,
                )
        log.info("took back %d outbound mail(s) claimed by %s, which no longer run(s)", len(rows), ", ".join(dead))
        return len(rows)

    def _write_all(self, rows: list[OutboundMail], handled: set[int], stop_event: threading.Event | None) -> None:
        """Write the round's files, then flush them to disk one after the other and the folder last, before their
        rows say "sent"; should a flush fail, every file of the round counts a temporary failure and is written
        again. Flushing once all are written, rather than each as it is written, lets the system put them out
        together, for less of the machine's CPU (measured in a steady folder, the kernel's writeback included: 0.11-0.15
        ms a file, against 0.16-0.38 ms with a flush after each write)."""
        written: list[tuple[OutboundMail, int]] = []
        try:
            for row in rows:
                if stop_event is not None and stop_event.is_set():
                    break
                handled.add(row.id)
                try:
                    written.append((row, self._write_file(row)))
                except OSError as error:
                    self._failed(row, f"{type(error).__name__}: {error}", permanent=False)
            if not written:
                return
            try:
                for _, descriptor in written:
                    os.fsync(descriptor)
                self._sync_folder()  # the renames must reach the disk before the rows say "sent"
            except OSError as error:
                for row, _ in written:
                    self._failed(row, f"{type(error).__name__}: {error}", permanent=False)
                return
        finally:
            for _, descriptor in written:
                os.close(descriptor)
        self._sent([row for row, _ in written])

    def _claim_due(self, limit: int) -> list[OutboundMail]:
        """Take up to `limit` rows due now for this sender, most urgent first, in one transaction: a conditional
        update moves their `next_try_at` a lease ahead, and only the rows it moved are ours. On PostgreSQL the rows
        are chosen `FOR UPDATE SKIP LOCKED`, so two senders take different rows at once instead of the second
        waiting on the first's and coming away with none; on SQLite, whose writers take turns, the update alone
        keeps a row to one sender."""
        now = self.clock.now()
        due = (
            select(OutboundMail.id)
            .where(OutboundMail.status == OutboundStatus.QUEUED, OutboundMail.next_try_at <= now)
            .order_by(urgency_rank(REPLY), OutboundMail.id)
            .limit(limit)
        )
        if not self.db.is_sqlite:
            due = due.with_for_update(skip_locked=True)
        with self.db.transaction() as session:
            row_ids = list(session.scalars(due))
            if not row_ids:
                return []
            self._in_hand.update(row_ids)  # until the claim's answer is in: its commit may be lost with the connection
            claimed = session.scalars(
                update(OutboundMail)
                .where(
                    one_of(session, OutboundMail.id, row_ids),
                    OutboundMail.status == OutboundStatus.QUEUED,
                    OutboundMail.next_try_at <= now,
                )
                .values(next_try_at=now + CLAIM_LEASE, claimed_by=this_process())
                .returning(OutboundMail.id)
                .execution_options(synchronize_session=False)
            ).all()
            rows = list(
                session.scalars(
                    select(OutboundMail).where(one_of(session, OutboundMail.id, claimed)).order_by(OutboundMail.id)
                )
            )
        self._in_hand.difference_update(set(row_ids) - set(claimed))
        return rows

    def _release(self, row_ids: list[int], error: str | None = None, *, only_mine: bool = False) -> None:
        """Hand rows back to the queue, due now. `only_mine`: only those this process claims (after an outage, a row
        whose claim did not commit may be another sender's by now)."""
        if not row_ids:
            return
        values: dict[str, object] = {"next_try_at": self.clock.now(), "claimed_by": None, "sending_since": None}
        if error is not None:
            values["last_error"] = error[:2000]
        statement = update(OutboundMail).where(
            OutboundMail.id.in_(row_ids), OutboundMail.status == OutboundStatus.QUEUED
        )
        if only_mine:
            statement = statement.where(OutboundMail.claimed_by == this_process())
        with self.db.transaction() as session:
            session.execute(statement.values(**values).execution_options(synchronize_session=False))
        self._in_hand.difference_update(row_ids)

    def _sent(self, rows: list[OutboundMail]) -> None:
        self._record([row.id for row in rows], partial(self._write_sent, rows))

    def _write_sent(self, rows: list[OutboundMail]) -> None:
        now = self.clock.now()
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(
                    one_of(session, OutboundMail.id, [row.id for row in rows]),
                    OutboundMail.status == OutboundStatus.QUEUED,
                )
                .values(status=OutboundStatus.SENT, sent_at=now, claimed_by=None, sending_since=None)
                .execution_options(synchronize_session=False)
            )
        for row in rows:
            row.status = OutboundStatus.SENT
            log.info("sent outbound mail %d (%s) to %s", row.id, row.kind, ", ".join(row.recipients))

    def _partly(self, row: OutboundMail, codes: dict[str, int], error: str, *, delivered: bool) -> None:
        """Some recipients refused (`codes`: their reply codes): those refused for now (4xx) are tried again on the
        message's schedule, those refused for good (5xx) fail at once (the admin is told), and the others, who have
        the message when `delivered`, are never sent it again. Each part is a row of its own, the same bytes."""
        self._record([row.id], partial(self._write_partly, row, codes, error, delivered))

    def _write_partly(self, row: OutboundMail, codes: dict[str, int], error: str, delivered: bool) -> None:
        now = self.clock.now()
        recipients = [str(r) for r in row.recipients]
        later = [r for r in recipients if r in codes and codes[r] < 500]
        never = [r for r in recipients if r in codes and codes[r] >= 500]
        attempts = row.attempts + 1
        give_up = attempts >= self.config.max_attempts
        retry_at = now + retry_delay(attempts)
        failed: list[OutboundMail] = []
        with self.db.transaction() as session:

            def part(to: list[str], status: str) -> OutboundMail:
                copy = OutboundMail(
                    message=row.message,
                    recipients=to,
                    kind=row.kind,
                    game_id=row.game_id,
                    inbound_id=row.inbound_id,
                    status=status,
                    attempts=attempts,
                    next_try_at=retry_at,
                    last_error=error[:2000],
                    created_at=row.created_at,
                )
                session.add(copy)
                return copy

            values: dict[str, object] = {"last_error": error[:2000], "claimed_by": None, "sending_since": None}
            if delivered:
                values.update(
                    status=OutboundStatus.SENT, sent_at=now, recipients=[r for r in recipients if r not in codes]
                )
            else:  # this row goes on for those refused for now
                values.update(recipients=later, attempts=attempts)
                values.update({"status": OutboundStatus.FAILED} if give_up else {"next_try_at": retry_at})
            written = session.execute(
                update(OutboundMail)
                .where(OutboundMail.id == row.id, OutboundMail.status == OutboundStatus.QUEUED)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            if getattr(written, "rowcount", 1) == 0:
                return  # written before (a commit whose answer the connection lost): its parts with it
            if delivered and later:
                retry = part(later, OutboundStatus.FAILED if give_up else OutboundStatus.QUEUED)
                if give_up:
                    failed.append(retry)
            elif not delivered and give_up:
                row.recipients = later
                failed.append(row)
            if never:
                failed.append(part(never, OutboundStatus.FAILED))
            session.flush()
        log.warning("outbound mail %d: %s", row.id, error)
        for lost in failed:
            log.error("outbound mail %d to %s failed for good: %s", lost.id, ", ".join(lost.recipients), error)
            if self.on_failure is not None:
                try:
                    self.on_failure(lost, error)
                except Exception:  # telling the admin must never stop the queue
                    log.exception("could not tell the admin that outbound mail %d failed", lost.id)

    def _failed(self, row: OutboundMail, error: str, *, permanent: bool) -> None:
        attempts = row.attempts + 1
        give_up = permanent or attempts >= self.config.max_attempts
        self._record([row.id], partial(self._write_failure, row, error, attempts, give_up))

    def _write_failure(self, row: OutboundMail, error: str, attempts: int, give_up: bool) -> None:
        values: dict[str, object] = {
            "attempts": attempts,
            "last_error": error[:2000],
            "claimed_by": None,
            "sending_since": None,
        }
        if give_up:
            values["status"] = OutboundStatus.FAILED
        else:
            values["next_try_at"] = self.clock.now() + retry_delay(attempts)
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.id == row.id, OutboundMail.status == OutboundStatus.QUEUED)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
        if give_up:
            log.error("outbound mail %d failed for good after %d attempt(s): %s", row.id, attempts, error)
            if self.on_failure is not None:
                try:
                    self.on_failure(row, error)
                except Exception:  # telling the admin must never stop the queue
                    log.exception("could not tell the admin that outbound mail %d failed", row.id)
        else:
            log.warning("outbound mail %d not delivered (attempt %d), retrying later: %s", row.id, attempts, error)

    # -- delivery ---------------------------------------------------------------------------------------------

    def _write_file(self, row: OutboundMail) -> int:
        """Write `<id>-<kind>.eml` (the stored bytes as they are) by a rename, so a reader of the folder never
        sees half a file; return the file's descriptor, still open, for `_write_all` to flush and close. The id is
        zero-padded (`00000012-reply.eml`), so the files sort in the order sent. The folder and its files are the
        judge's user's alone (0700, 0600: `mkstemp`'s mode, kept by the rename): mail holds addresses and press."""
        folder = Path(self.config.outbox_dir)
        if not folder.is_dir():
            private_folder(folder)
        target = folder / f"{row.id:0{OUTBOX_ID_DIGITS}d}-{_SAFE_KIND.sub('_', row.kind)}.eml"
        fd, scratch = tempfile.mkstemp(prefix=f".{row.id}-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb", closefd=False) as file:
                file.write(row.message)
            os.replace(scratch, target)
        except BaseException:
            os.close(fd)
            Path(scratch).unlink(missing_ok=True)
            raise
        return fd

    def _sync_folder(self) -> None:
        directory = os.open(self.config.outbox_dir, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def _relay(self, row: OutboundMail) -> dict[str, int]:
        """Give the relay the message, in one transaction for all its recipients; returns the recipients it refused
        while taking it for the others (their reply codes)."""
        if not row.recipients:
            raise _Refused("no recipients", permanent=True)
        smtp = self._connection()
        sender = envelope_sender(row.message)
        recipients = [str(r) for r in row.recipients]
        wire = wire_format(row.message)
        options: list[str] = []
        if smtp.has_extn("8bitmime") and not wire.isascii():  # one pass in C: results mails run to 100 KB
            options.append("BODY=8BITMIME")
        if smtp.has_extn("smtputf8") and not all(a.isascii() for a in [sender, *recipients]):
            options.append("SMTPUTF8")
        if row.sending_since is None:  # `_claim_next` marks it as it claims it
            self._mark_sending(row)
        try:
            refused = smtp.sendmail(sender, recipients, wire, mail_options=options)
        except smtplib.SMTPRecipientsRefused as error:
            self._forget_if_closed(smtp)
            codes = {rcpt: code for rcpt, (code, _) in error.recipients.items()}
            text = f"every recipient refused: {error.recipients}"
            if len({code >= 500 for code in codes.values()}) > 1:
                raise _RecipientsRefused(codes, text) from None  # some for now, some for good: each apart
            raise _Refused(text, permanent=_all_permanent(codes)) from None
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
            self._forget_if_closed(smtp)
            text = error.smtp_error.decode("utf-8", "replace") if isinstance(error.smtp_error, bytes) else ""
            stage = "sender" if isinstance(error, smtplib.SMTPSenderRefused) else "message"
            raise _Refused(f"{stage} refused: {error.smtp_code} {text}", permanent=error.smtp_code >= 500) from None
        except (smtplib.SMTPException, OSError) as error:
            # the relay was reached and the message under way: it may have it (a timeout after the data), so this
            # is the message's failure, retried on its own schedule, never at once (which could repeat it fast)
            self._disconnect()
            raise _Refused(f"lost during delivery: {type(error).__name__}: {error}", permanent=False) from None
        # the others have it: only the refused are tried again (or failed), never those who have it
        return {rcpt: code for rcpt, (code, _) in refused.items()}

    def _mark_sending(self, row: OutboundMail) -> None:
        """From here until its answer is recorded, the message may be with the relay."""
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.id == row.id)
                .values(sending_since=self.clock.now())
                .execution_options(synchronize_session=False)
            )

    def _connection(self) -> smtplib.SMTP:
        """The open relay connection (one per round), opened and logged in on first use."""
        if self._smtp is not None:
            return self._smtp
        config = self.config
        try:
            smtp: smtplib.SMTP
            if config.relay_security == "tls":
                smtp = smtplib.SMTP_SSL(
                    config.relay_host,
                    config.relay_port,
                    timeout=SMTP_TIMEOUT,
                    context=ssl.create_default_context(),
                )
            else:
                smtp = smtplib.SMTP(config.relay_host, config.relay_port, timeout=SMTP_TIMEOUT)
            try:
                smtp.ehlo()
                if config.relay_security == "starttls":
                    smtp.starttls(context=ssl.create_default_context())
                    smtp.ehlo()
                if config.relay_user:
                    smtp.login(config.relay_user, config.relay_password)
            except BaseException:
                smtp.close()
                raise
        except (smtplib.SMTPException, OSError) as error:
            raise _ConnectionFailed(
                f"relay {config.relay_host}:{config.relay_port}: {type(error).__name__}: {error}"
            ) from None
        self._smtp = smtp
        return smtp

    def _forget_if_closed(self, smtp: smtplib.SMTP) -> None:
        """smtplib closes the connection itself on a 421 ("closing channel"): open a new one for the next row."""
        if smtp.sock is None:
            self._smtp = None

    def _disconnect(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        try:
            smtp.quit()
        except (smtplib.SMTPException, OSError):
            smtp.close()


def _all_permanent(codes: dict[str, int]) -> bool:
    return bool(codes) and all(code >= 500 for code in codes.values())
