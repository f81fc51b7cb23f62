"""Taking stored mail in order and acting on it: each message in one transaction, answered exactly once.

The attempt is counted in a transaction of its own before the work starts; the work -- the commands, the game
changes, the reply and any result mail queued -- is one transaction that either commits whole or leaves no
trace. So a crash at any point leaves the message `received` (it is done again on restart, and was not answered)
or `processed` (done and answered once). After three failed attempts a message is shunted with its error and
the judge's admin is told; `judge shunt retry` puts it back.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from judge.clock import SYSTEM_CLOCK, Clock
from judge.commands import MailContext, interpret
from judge.config import Config
from judge.game import GameService
from judge.mail.compose import notice, reply
from judge.mail.outbox import outbound_row, queue_rows
from judge.mail.reading import IncomingMail, MailKind, read_mail
from judge.render import render_reply
from judge.store import Database, InboundMail, MailStatus

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3


class Processor:
    def __init__(
        self,
        db: Database,
        config: Config,
        clock: Clock = SYSTEM_CLOCK,
        *,
        rate_limit: int = 30,
        rate_window: timedelta = timedelta(minutes=10),
    ) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self.rate_limit = rate_limit
        """replies to one address within `rate_window`, beyond which its further mail waits (it is not lost)"""
        self.rate_window = rate_window
        self._answered: dict[str, deque[datetime]] = {}
        self.wakeup = threading.Event()

    # --- the loop --------------------------------------------------------------------------------------

    def pending(self, limit: int = 500) -> list[int]:
        return [message_id for message_id, _ in self._pending(limit)]

    def _pending(self, limit: int) -> list[tuple[int, int]]:
        with self.db.transaction() as s:
            rows = s.execute(
                select(InboundMail.id, InboundMail.attempts)
                .where(InboundMail.status == MailStatus.RECEIVED)
                .order_by(InboundMail.id)
                .limit(limit)
            )
            return [(row.id, row.attempts) for row in rows]

    def process_pending(self, limit: int = 500, batch: int = 100) -> int:
        """Work through the stored mail, oldest first; returns how many were finished (processed, ignored or
        shunted). Messages deferred by the rate limit stay for a later round.

        Fresh messages go in batches: one transaction for a batch, a savepoint for each message, so the commit is
        shared while each message still succeeds or fails alone. A message that has failed before goes alone, so
        that one which brings the process down cannot take its batch-mates' attempts with it."""
        done = 0
        fresh: list[int] = []
        for message_id, attempts in self._pending(limit):
            if attempts == 0:
                fresh.append(message_id)
                if len(fresh) >= batch:
                    done += self.process_batch(fresh)
                    fresh = []
                continue
            if fresh:
                done += self.process_batch(fresh)
                fresh = []
            if self.process_one(message_id) != MailStatus.RECEIVED:
                done += 1
        if fresh:
            done += self.process_batch(fresh)
        return done

    def process_batch(self, message_ids: list[int]) -> int:
        with self.db.transaction() as s:
            s.execute(
                update(InboundMail)
                .where(InboundMail.id.in_(message_ids), InboundMail.status == MailStatus.RECEIVED)
                .values(attempts=InboundMail.attempts + 1)
            )
        done = 0
        with self.db.transaction() as s:
            rows = s.execute(
                select(InboundMail.id, InboundMail.message_id, InboundMail.raw, InboundMail.attempts)
                .where(InboundMail.id.in_(message_ids), InboundMail.status == MailStatus.RECEIVED)
                .order_by(InboundMail.id)
                .with_for_update()
            ).all()
            results: list[_Result] = []
            for row in rows:
                mail = read_mail(row.raw, own_address=self.config.address)
                if self._deferred(mail):
                    results.append(_Result(row.id, MailStatus.RECEIVED, attempts=row.attempts - 1))  # not a failure
                    continue
                try:
                    with s.begin_nested():
                        result = self._handle(s, row.id, mail)
                except Exception as exc:  # only this message's savepoint is undone
                    result = self._failed(row.id, row.message_id, row.attempts, exc)
                results.append(result)
                done += result.status != MailStatus.RECEIVED
            _record(s, results)
        return done

    def run(
        self, stop: threading.Event, idle_seconds: float = 2.0, after: Callable[[int], None] | None = None
    ) -> None:
        """Work through stored mail until `stop` is set, calling `after(finished)` after each pass that finished
        any. It sleeps only after a pass that found nothing to do, and `wakeup` (set by the intakes when they
        store mail) cuts the sleep short; it is cleared before each pass, so mail stored during a pass is never
        left waiting for the timeout. Never raises: a failed pass is logged and tried again."""
        while not stop.is_set():
            self.wakeup.clear()
            try:
                done = self.process_pending()
                if done and after is not None:
                    after(done)
            except Exception:
                log.exception("processing stored mail failed; trying again shortly")
                done = 0
            if not done:
                self.wakeup.wait(idle_seconds)

    # --- one message -----------------------------------------------------------------------------------

    def process_one(self, message_id: int) -> str:
        with self.db.transaction() as s:
            row = s.execute(
                select(InboundMail.message_id, InboundMail.raw, InboundMail.status)
                .where(InboundMail.id == message_id)
                .with_for_update()
            ).first()
            if row is None or row.status != MailStatus.RECEIVED:
                return row.status if row is not None else MailStatus.PROCESSED
            mail = read_mail(row.raw, own_address=self.config.address)
            if self._deferred(mail):
                return MailStatus.RECEIVED  # answered in a later round
            s.execute(update(InboundMail).where(InboundMail.id == message_id).values(attempts=InboundMail.attempts + 1))
        try:
            with self.db.transaction() as s:
                status = self._status(s, message_id)
                if status != MailStatus.RECEIVED:
                    return status or MailStatus.PROCESSED
                result = self._handle(s, message_id, mail)
                _record(s, [result])
                return result.status
        except Exception as exc:  # anything unexpected: keep the message, count it, shunt it in the end
            with self.db.transaction() as s:
                attempts = s.scalar(select(InboundMail.attempts).where(InboundMail.id == message_id)) or 0
                result = self._failed(message_id, row.message_id, attempts, exc)
                _record(s, [result])
                return result.status

    @staticmethod
    def _status(s: Session, message_id: int) -> str | None:
        return s.scalar(select(InboundMail.status).where(InboundMail.id == message_id).with_for_update())

    def _failed(self, message_id: int, header_id: str | None, attempts: int, exc: Exception) -> _Result:
        error = f"{type(exc).__name__}: {exc}"[:4000]
        if attempts < MAX_ATTEMPTS:
            return _Result(message_id, MailStatus.RECEIVED, error=error)
        text = (
            f"Message {message_id} (Message-ID {header_id}) could not be processed after "
            f"{attempts} attempts and was shunted:\n\n{error}\n\n"
            f"judge shunt show {message_id}   /   judge shunt retry {message_id}"
        )
        admin = notice(self.config, self.config.admin, f"shunted message {message_id}", text)
        outgoing = [outbound_row(admin, kind="notice", now=self.clock.now())]
        return _Result(message_id, MailStatus.SHUNTED, error=error, outgoing=outgoing)

    def _deferred(self, mail: IncomingMail) -> bool:
        """Over the rate limit: the message waits for a later round."""
        return mail.kind is MailKind.ORDINARY and mail.sender is not None and self._over_limit(mail.sender)

    def _over_limit(self, address: str) -> bool:
        """Replies to this address in the window (kept in memory: a limit on a flood, not an account)."""
        now = self.clock.now()
        recent = self._answered.setdefault(address, deque())
        while recent and recent[0] <= now - self.rate_window:
            recent.popleft()
        return len(recent) >= self.rate_limit

    def _handle(self, s: Session, message_id: int, mail: IncomingMail) -> _Result:
        now = self.clock.now()
        if mail.kind is not MailKind.ORDINARY or mail.sender is None:
            # bounces, auto-replies, our own mail, no sender: never answered
            error = None if mail.sender else "no usable sender address"
            return _Result(message_id, MailStatus.IGNORED, error=error, processed_at=now)
        service = GameService(self.db, self.clock).bound(s)
        ctx = MailContext(service, self.config, sender=mail.sender, now=now, message_id=mail.message_id)
        interpret(ctx, mail.lines)
        footer = self._footer(ctx, mail)
        subject = mail.subject if mail.subject.lower().startswith("re:") else f"Re: {mail.subject}".strip()
        if ctx.game_of_reply and ctx.game_of_reply not in subject:
            subject += f" [{ctx.game_of_reply}{' ' + ctx.phase_of_reply if ctx.phase_of_reply else ''}]"
        body = render_reply(self.config.name, ctx.sections, footer)
        answer = reply(self.config, mail.reply_to or mail.sender, subject, body, mail.message_id, mail.references)
        outgoing = [outbound_row(answer, kind="reply", now=now, inbound_id=message_id)]
        outgoing += [outbound_row(message, kind=kind, now=now) for message, kind in ctx.mails]
        self._answered.setdefault(mail.sender, deque()).append(now)
        return _Result(message_id, MailStatus.PROCESSED, processed_at=now, outgoing=outgoing)

    def _footer(self, ctx: MailContext, mail: IncomingMail) -> list[str]:
        lines = []
        if not ctx.sections:
            lines.append("Your mail held no commands. Send HELP for the list of commands.")
        if mail.truncated:
            lines.append("Your mail was too long: only its beginning was read.")
        if ctx.game_of_reply:
            phase, deadline = ctx.service.brief(ctx.game_of_reply)
            if phase:
                lines.append(f"{ctx.game_of_reply} is in {phase}.")
            if deadline:
                left = deadline.replace(tzinfo=deadline.tzinfo or UTC) - self.clock.now()
                hours = max(0, int(left.total_seconds() // 3600))
                lines.append(f"Deadline: {deadline:%Y-%m-%d %H:%M} UTC ({hours} hours from now).")
        return lines


@dataclass
class _Result:
    """What became of one stored message: the new values of its row, and the mail it sends. Written by
    `_record` once the message's work has committed (or for a whole batch at once)."""

    message_id: int
    status: str
    error: str | None = None
    processed_at: datetime | None = None
    attempts: int | None = None
    """set only when the attempt is taken back (a message deferred by the rate limit)"""
    outgoing: list[dict[str, Any]] = field(default_factory=list)

    def changes(self) -> dict[str, Any]:
        values: dict[str, Any] = {"id": self.message_id, "status": self.status, "error": self.error}
        if self.processed_at is not None:
            values["processed_at"] = self.processed_at
        if self.attempts is not None:
            values["attempts"] = self.attempts
        return values


def _record(s: Session, results: list[_Result]) -> None:
    """Each message's row brought up to date, and its mail queued: one statement each for the lot."""
    by_keys: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for result in results:
        values = result.changes()
        by_keys.setdefault(tuple(values), []).append(values)
    for rows in by_keys.values():
        s.execute(update(InboundMail), rows)
    queue_rows(s, [row for result in results for row in result.outgoing])
