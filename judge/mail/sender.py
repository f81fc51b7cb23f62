"""Delivering the outbound queue: through an SMTP relay, or as .eml files in a folder when there is none.

A row is marked sent only after the relay accepted it (or the file is on disk), so a crash never marks
undelivered mail sent. Through a relay each row's outcome has a transaction of its own: the price of a crash is
that the one message the relay took just before it is sent again (at least once, never zero times). Files are
marked sent a round at a time, once every file of the round and the folder are on disk; a file written again
after a crash is the same file, under the same name, so nobody receives anything twice.

Several judge processes may run a sender on one database: a sender claims a row (through a relay, each just
before sending it; as files, a round's rows together) with a conditional update that moves its `next_try_at` a
lease into the future. Only one sender's update matches a row, so no row goes out twice while both run; claims
a sender does not use (it was stopped) are handed back at once, and a sender that dies holding claims leaves the
rows to be retried when the lease runs out. Marking a row sent or failed applies only while it is queued.

Failures: a temporary one (4xx, a connection that fails) counts an attempt and retries after 2, 4, 8...
minutes, at most 6 hours apart, until `max_attempts`; a permanent refusal (5xx for the whole message: the
sender, every recipient, or the data) fails the row at once, as a retry would only be refused again. When the
connection to the relay fails, the rest of the batch waits for the next round instead of each row paying a
connection timeout.
"""

from __future__ import annotations

import logging
import os
import re
import smtplib
import ssl
import tempfile
import threading
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from pathlib import Path

from sqlalchemy import select, update

from judge.clock import Clock
from judge.config import OutboundConfig
from judge.store import Database, OutboundMail, OutboundStatus

log = logging.getLogger(__name__)

CLAIM_LEASE = timedelta(minutes=10)
"""how long a claimed row is left alone by other senders: far more than one delivery takes"""
MAX_BACKOFF = timedelta(hours=6)
SMTP_TIMEOUT = 60.0
IDLE_SECONDS = 1.0
SECURITIES = ("tls", "starttls", "plain")
_LINE_END = re.compile(rb"\r\n|\r|\n")
_SAFE_KIND = re.compile(r"[^A-Za-z0-9_-]")


class _Refused(Exception):
    """The relay refused this message; `permanent` when the refusal was a 5xx for the whole message."""

    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


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


class Sender:
    """`send_due()` delivers what is due now; `run(stop_event)` keeps doing so, `wake()` to hurry it."""

    def __init__(self, db: Database, config: OutboundConfig, clock: Clock) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self._wake = threading.Event()
        self._smtp: smtplib.SMTP | None = None
        if config.relay_host and config.relay_security not in SECURITIES:
            raise ValueError(f"relay_security must be one of {', '.join(SECURITIES)}, not {config.relay_security!r}")

    # -- the loop ---------------------------------------------------------------------------------------------

    def wake(self) -> None:
        """Ask a running `run()` to look at the queue now (e.g. right after a reply was queued)."""
        self._wake.set()

    def run(self, stop_event: threading.Event) -> None:
        """Deliver until `stop_event` is set; waits up to a second between rounds, less when woken."""
        limit = 100
        while not stop_event.is_set():
            sent = 0
            try:
                sent = self.send_due(limit, stop_event=stop_event)
            except Exception:  # the database or the disk: keep the loop alive, the rows stay due
                log.exception("delivering the outbound queue failed; trying again shortly")
            if sent >= limit:
                continue  # more may be due: no pause
            self._pause(stop_event)

    def _pause(self, stop_event: threading.Event) -> None:
        waited = 0.0
        while waited < IDLE_SECONDS and not stop_event.is_set():
            if self._wake.wait(0.1):
                break
            waited += 0.1
        self._wake.clear()

    # -- one round --------------------------------------------------------------------------------------------

    def send_due(self, limit: int = 100, *, stop_event: threading.Event | None = None) -> int:
        """Deliver up to `limit` due rows, oldest first; return how many were delivered.

        Through a relay each row is claimed just before it is sent and marked sent as soon as the relay has it:
        a slow relay may take minutes a message, longer than a whole round's claim could last, and a crash
        repeats at most the one message under way. Files are quick: a round's rows are claimed together and
        marked sent together once the files and their folder are on disk (a file written again after a crash is
        the same file). Claims left unused (a stop) are handed back at once rather than left to their lease."""
        due = self._due(limit)
        if self.config.relay_host:
            return self._relay_all(due, stop_event)
        rows = self._claim(due)
        handled: set[int] = set()
        try:
            self._write_all(rows, handled, stop_event)
        finally:
            self._release([row.id for row in rows if row.id not in handled])
        return sum(1 for row in rows if row.status == OutboundStatus.SENT)

    def _relay_all(self, due: list[int], stop_event: threading.Event | None) -> int:
        delivered = 0
        try:
            for row_id in due:
                if stop_event is not None and stop_event.is_set():
                    break
                claimed = self._claim([row_id])
                if not claimed:
                    continue  # another sender has it, or it is no longer due
                row = claimed[0]
                try:
                    self._relay(row)
                except _Refused as refusal:
                    self._failed(row, str(refusal), permanent=refusal.permanent)
                except _ConnectionFailed as failure:
                    self._failed(row, str(failure), permanent=False)
                    break  # the rest wait for the next round
                else:
                    self._sent([row])
                    delivered += 1
        finally:
            self._disconnect()
        return delivered

    def _write_all(self, rows: list[OutboundMail], handled: set[int], stop_event: threading.Event | None) -> None:
        written = []
        for row in rows:
            if stop_event is not None and stop_event.is_set():
                break
            handled.add(row.id)
            try:
                self._write_file(row)
            except OSError as error:
                self._failed(row, f"{type(error).__name__}: {error}", permanent=False)
            else:
                written.append(row)
        if written:
            self._sync_folder()  # the renames must reach the disk before the rows say "sent"
            self._sent(written)

    def _due(self, limit: int) -> list[int]:
        now = self.clock.now()
        with self.db.transaction() as session:
            return list(
                session.scalars(
                    select(OutboundMail.id)
                    .where(OutboundMail.status == OutboundStatus.QUEUED, OutboundMail.next_try_at <= now)
                    .order_by(OutboundMail.id)
                    .limit(limit)
                )
            )

    def _claim(self, row_ids: list[int]) -> list[OutboundMail]:
        """Take rows for this sender: a conditional update moves their `next_try_at` a lease ahead, and only the
        rows it moved are ours (another sender may have taken some a moment before)."""
        if not row_ids:
            return []
        now = self.clock.now()
        with self.db.transaction() as session:
            claimed = session.scalars(
                update(OutboundMail)
                .where(
                    OutboundMail.id.in_(row_ids),
                    OutboundMail.status == OutboundStatus.QUEUED,
                    OutboundMail.next_try_at <= now,
                )
                .values(next_try_at=now + CLAIM_LEASE)
                .returning(OutboundMail.id)
                .execution_options(synchronize_session=False)
            ).all()
            if not claimed:
                return []
            return list(
                session.scalars(select(OutboundMail).where(OutboundMail.id.in_(claimed)).order_by(OutboundMail.id))
            )

    def _release(self, row_ids: list[int]) -> None:
        if not row_ids:
            return
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.id.in_(row_ids), OutboundMail.status == OutboundStatus.QUEUED)
                .values(next_try_at=self.clock.now())
                .execution_options(synchronize_session=False)
            )

    def _sent(self, rows: list[OutboundMail]) -> None:
        now = self.clock.now()
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.id.in_([row.id for row in rows]), OutboundMail.status == OutboundStatus.QUEUED)
                .values(status=OutboundStatus.SENT, sent_at=now)
                .execution_options(synchronize_session=False)
            )
        for row in rows:
            row.status = OutboundStatus.SENT
            log.info("sent outbound mail %d (%s) to %s", row.id, row.kind, ", ".join(row.recipients))

    def _failed(self, row: OutboundMail, error: str, *, permanent: bool) -> None:
        now = self.clock.now()
        attempts = row.attempts + 1
        give_up = permanent or attempts >= self.config.max_attempts
        values: dict[str, object] = {"attempts": attempts, "last_error": error[:2000]}
        if give_up:
            values["status"] = OutboundStatus.FAILED
        else:
            values["next_try_at"] = now + retry_delay(attempts)
        with self.db.transaction() as session:
            session.execute(
                update(OutboundMail)
                .where(OutboundMail.id == row.id, OutboundMail.status == OutboundStatus.QUEUED)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
        if give_up:
            log.error("outbound mail %d failed for good after %d attempt(s): %s", row.id, attempts, error)
        else:
            log.warning("outbound mail %d not delivered (attempt %d), retrying later: %s", row.id, attempts, error)

    # -- delivery ---------------------------------------------------------------------------------------------

    def _write_file(self, row: OutboundMail) -> None:
        """Write `<id>-<kind>.eml` (the stored bytes as they are) by a rename, so a reader of the folder never
        sees half a file."""
        folder = Path(self.config.outbox_dir)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{row.id}-{_SAFE_KIND.sub('_', row.kind)}.eml"
        fd, scratch = tempfile.mkstemp(prefix=f".{row.id}-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(row.message)
                file.flush()
                os.fsync(file.fileno())
            os.chmod(scratch, 0o644)
            os.replace(scratch, target)
        except BaseException:
            Path(scratch).unlink(missing_ok=True)
            raise

    def _sync_folder(self) -> None:
        directory = os.open(self.config.outbox_dir, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def _relay(self, row: OutboundMail) -> None:
        if not row.recipients:
            raise _Refused("no recipients", permanent=True)
        smtp = self._connection()
        sender = envelope_sender(row.message)
        recipients = [str(r) for r in row.recipients]
        wire = wire_format(row.message)
        options: list[str] = []
        if smtp.has_extn("8bitmime") and any(b > 0x7F for b in wire):
            options.append("BODY=8BITMIME")
        if smtp.has_extn("smtputf8") and not all(a.isascii() for a in [sender, *recipients]):
            options.append("SMTPUTF8")
        try:
            refused = smtp.sendmail(sender, recipients, wire, mail_options=options)
        except smtplib.SMTPRecipientsRefused as error:
            self._forget_if_closed(smtp)
            codes = {rcpt: code for rcpt, (code, _) in error.recipients.items()}
            raise _Refused(f"every recipient refused: {error.recipients}", permanent=_all_permanent(codes)) from None
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
            self._forget_if_closed(smtp)
            text = error.smtp_error.decode("utf-8", "replace") if isinstance(error.smtp_error, bytes) else ""
            stage = "sender" if isinstance(error, smtplib.SMTPSenderRefused) else "message"
            raise _Refused(f"{stage} refused: {error.smtp_code} {text}", permanent=error.smtp_code >= 500) from None
        except (smtplib.SMTPException, OSError) as error:
            self._disconnect()
            raise _ConnectionFailed(f"{type(error).__name__}: {error}") from None
        if refused:
            # the others have it; a second send would duplicate their copy, so the row counts as sent
            log.warning("outbound mail %d: the relay refused some recipients: %s", row.id, refused)

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
