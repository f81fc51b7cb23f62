"""Taking stored mail in order and acting on it: each message in one transaction, answered exactly once.

The attempt is counted in a transaction of its own before the work starts; the work -- the commands, the game
changes, the reply and any result mail queued -- is one transaction that either commits whole or leaves no
trace. So a crash at any point leaves the message `received` (it is done again on restart, and was not answered)
or `processed` (done and answered once). After three failed attempts a message is shunted with its error and
the judge's admin is told; `judge shunt retry` puts it back. Because the attempt is counted before the work, a
message that brings the whole process down each time is shunted too, after three, without a fourth try.

Several judge processes on one database (docs/operations.md, "How the work is shared"): a process claims a batch
of fresh mail in a transaction of its own (`_claim`) -- the oldest no other process is claiming (`SKIP LOCKED`),
passing over every mail of a sender who has a mail in another process's hands (its attempt counted and not yet
done), failed before, or held by the rate limit -- and counts their attempts there; it then does the work in a
second transaction, under the mails' row locks and only while each is still `received`, so each mail is done, and
answered, by one process, and a player's second mail never overtakes his first (the sender is stored with the mail
at intake: `judge.mail.inbox.sender_of`). Mail of different senders may be answered out of the order it came when
two processes share it; one process answers in the order it came. While nothing divides the senders between the
processes, a batch takes only its share of them (`_claim`), so the other finds senders it may take.

A mail tried before goes alone, first in a round, taken `SKIP LOCKED` (one another process holds is left to it).
An attempt is counted only at the count the process read (a compare-and-set): should two processes reach such a
mail together, they count it once, and the one that finds the count moved on goes on without counting (whichever
holds the row lock does the work, the other then finds it done). In the moment between a batch's claim and its
work, another process may take one of its mails alone: it is still done once, in order (the batch waits for that
mail's row), with one attempt more.

A deadlock or serialization failure PostgreSQL reports (`judge.store.outage.is_conflict`: two transactions met,
one was undone) is no failure of the mail: its transaction is undone, the attempts counted for it are given back,
and it is claimed again in the next round, which comes at once.

The database away (`judge.store.outage`: a lost connection, a restart, SQLite locked or its disk full) is no
failure of the mail: the work's transaction is undone as for a crash, no failure is recorded, and once the
database answers again the attempts this process counted for the mail in hand are given back (only where they are
still as it left them) and the mail is done again at once, by this process, as if it had just arrived.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, text, update
from sqlalchemy.orm import Session

from judge.clock import SYSTEM_CLOCK, Clock, as_utc
from judge.config import Config
from judge.game import Games
from judge.mail.admin_events import MessageShunted
from judge.mail.answer import MAX_SECTIONS, Answer, Handler, Request
from judge.mail.claims import alive, this_process
from judge.mail.compose import reply, words
from judge.mail.notifier import Notifier
from judge.mail.outbox import REPLY_PART, outbound_row, queue_rows
from judge.mail.pictures import attach_map
from judge.mail.reading import IncomingMail, MailKind, read_mail
from judge.render.dates import due_text
from judge.store import Database, InboundMail, MailStatus
from judge.store.lists import one_of
from judge.store.outage import first_line, is_conflict, is_unavailable

log = logging.getLogger(__name__)

_MARK = 0x4A4D5052  # "JMPR": the advisory locks by which processors know of each other (`Processor._named`)
_MARK_PROCESSOR = text("SELECT pg_try_advisory_lock(:key, :number)")
_MARKED = (
    "FROM pg_locks WHERE locktype = 'advisory' AND classid = :key AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
"""the processors' marks on this database (`Processor._named`)"""
_PROCESSORS = text(f"SELECT count(DISTINCT objid) {_MARKED}")
_MARKS = text(f"SELECT DISTINCT objid {_MARKED} ORDER BY objid")

MAX_ATTEMPTS = 3
CLAIM_LEASE = timedelta(minutes=1)
"""how long a mail claimed by a process on another host (whose life cannot be told) is left to it"""
BATCH = 250
"""fresh messages handled in one transaction: each batch reads the snapshot of every game its mails order in (two
statements a game), so on PostgreSQL a batch of 100 spent a sixth of its time on them; 250 took 13 % off the
processor's CPU for a rush of order mail, and holds a game's lock from the keeper for about 0.15 s"""
SOON = 0.02
"""seconds before the next round when the last left mail waiting on another process's (or undid a deadlock)"""
SHARED_IDLE = 0.1
"""seconds between rounds that find nothing, where other processes share the database: mail another process's
intake stores wakes only that process, so the others look this often"""
HOLD = timedelta(minutes=1)
"""how long a message deferred by the rate limit is left out of the rounds before it is looked at again"""


class Processor:
    def __init__(
        self,
        db: Database,
        config: Config,
        clock: Clock = SYSTEM_CLOCK,
        *,
        handler: Handler,
    ) -> None:
        """`handler`: what reads a mail's commands (the daemon gives `judge.commands.answer_mail`)."""
        self.db = db
        self.config = config
        self.clock = clock
        self.handler = handler
        self.notifier = Notifier(config)
        self.rate_limit = config.rate_limit
        """replies to one address within `rate_window`, beyond which its further mail waits (it is not lost)"""
        self.rate_window = timedelta(minutes=config.rate_window_minutes)
        self._answered: dict[str, deque[datetime]] = {}
        self._held: dict[int, datetime] = {}
        """messages deferred by the rate limit, and until when they are left out of the rounds"""
        self._counted: dict[int, int] = {}
        """the messages whose attempt this process counted and whose work has not ended: the attempts they have
        now. What the database's going away leaves here is given back (`_give_back`) when it returns."""
        self.wakeup = threading.Event()
        self._soon = False
        """the last round left mail that another process holds up, or undid a deadlock: the next comes soon"""
        self._shared = False
        """other processors answer mail from this database too (`_sharing`, looked at after a round with nothing)"""
        self._undone = 0
        """how many batches a deadlock or serialization failure undid"""
        self._number = random.SystemRandom().randrange(1, 2**31)
        """this processor's mark on PostgreSQL (an advisory lock of this number), for `_sharing`"""

    # --- the loop --------------------------------------------------------------------------------------

    def _retries(self, limit: int) -> list[tuple[int, int]]:
        """The oldest stored mail tried before and still to do (each goes alone), leaving out what the rate limit
        holds back for now and what another process has in hand (its rows locked: `SKIP LOCKED`)."""
        self._forget_holds()
        now = self.clock.now()
        with self.db.transaction() as s:
            rows = s.execute(
                select(InboundMail.id, InboundMail.attempts, InboundMail.claimed_by, InboundMail.claimed_at)
                .where(InboundMail.status == MailStatus.RECEIVED, InboundMail.attempts > 0)
                .order_by(InboundMail.id)
                .limit(limit + len(self._held))
                .with_for_update(skip_locked=True)
            )
            return [
                (row.id, row.attempts)
                for row in rows
                if row.id not in self._held and not _in_other_hands(row.claimed_by, row.claimed_at, now)
            ][:limit]

    def _sharing(self, s: Session) -> int:
        """How many processors answer mail from this database now: on PostgreSQL, the processors holding their mark
        (`_named`; a process that dies takes its connections, and so its mark, with it); 1 on SQLite."""
        if self.db.is_sqlite:
            return 1
        return max(1, int(s.execute(_PROCESSORS, {"key": _MARK}).scalar() or 0))

    def place(self) -> tuple[int, int]:
        """This process's place among the processes answering mail from this database (by their marks, `_named`),
        and how many they are: (0, 1) on SQLite, or while this processor holds no mark. The keepers divide the
        pictures they draw ahead of a deadline by it (`DeadlineKeeper.draw_ahead`)."""
        if self.db.is_sqlite:
            return 0, 1
        with self.db.transaction() as s:
            self._named(s)
            marks = [int(mark) for mark in s.scalars(_MARKS, {"key": _MARK})]
        if self._number not in marks:
            return 0, 1
        return marks.index(self._number), len(marks)

    def _named(self, s: Session) -> None:
        """This processor's mark, where `_sharing` counts it: a session-level advisory lock of its own number, taken
        on the claim's connection if no connection of this processor holds it yet."""
        conn = s.connection()
        if self.db.is_sqlite or conn.info.get("judge_processor") == self._number:
            return
        if s.execute(_MARK_PROCESSOR, {"key": _MARK, "number": self._number}).scalar():
            conn.info["judge_processor"] = self._number

    def _forget_holds(self) -> None:
        now = self.clock.now()
        self._held = {message_id: until for message_id, until in self._held.items() if until > now}

    def process_pending(self, limit: int = 500, batch: int = BATCH) -> int:
        """Work through the stored mail, oldest first; returns how many were finished (processed, ignored or
        shunted). Messages deferred by the rate limit stay for a later round.

        A message that has failed before goes alone, first, so that one which brings the process down cannot take
        others' attempts with it. Fresh messages are then claimed a batch at a time (`_claim`), each batch
        sharing one transaction (see `process_batch`), until `limit` are taken or none is left to claim."""
        done = 0
        self._soon = False
        for message_id, attempts in self._retries(limit):
            if self.process_one(message_id, seen=attempts) != MailStatus.RECEIVED:
                done += 1
        taken = 0
        while taken < limit:
            claimed = self._claim(min(batch, limit - taken), window=min(limit, 2 * batch))
            if not claimed:
                break
            taken += len(claimed)
            undone = self._undone
            done += self.process_batch(claimed)
            if self._undone != undone:
                break  # a deadlock: claimed again in the next round, which comes at once
        if not done and not self.db.is_sqlite:
            with self.db.transaction() as s:
                self._named(s)
                self._shared = self._sharing(s) > 1
        return done

    def _claim(self, size: int, window: int) -> list[int]:
        """Claim up to `size` of the oldest fresh messages and count their attempt, in a transaction of its own.

        The `window` oldest fresh messages no other process is claiming are locked (`SKIP LOCKED`) and taken in
        the order they came, except a message whose sender has an older one still to do outside them (in another
        process's hands, failed before, or held by the rate limit): it waits for that one, and so does the rest
        of that sender's mail. Where several processes share the database and more than a batch is waiting, a
        batch stops before the sender that would make it hold more than its share of the senders in the window
        (half, for two processes): the rest is left to the others, whose claims then find senders this batch
        does not hold. (A batch of the next hundred mails would hold every sender of a rush of a few dozen
        players writing again and again, and leave the other process nothing it may take.) One process, and
        every process on SQLite, takes its batches whole, in the order the mail came."""
        self._forget_holds()
        with self.db.transaction() as s:
            self._named(s)
            # the senders another process has a mail of in hand (or with a mail that failed before): few, read
            # once through their own small index, and their later mail passed over
            in_hand = (
                select(InboundMail.sender)
                .where(
                    InboundMail.status == MailStatus.RECEIVED,
                    InboundMail.attempts > 0,
                    InboundMail.sender.is_not(None),
                )
                .scalar_subquery()
            )
            fresh = select(InboundMail.id, InboundMail.sender).where(
                InboundMail.status == MailStatus.RECEIVED,
                InboundMail.attempts == 0,
                or_(InboundMail.sender.is_(None), InboundMail.sender.not_in(in_hand)),
            )
            if self._held:
                fresh = fresh.where(InboundMail.id.not_in(list(self._held)))
            rows = s.execute(fresh.order_by(InboundMail.id).limit(window).with_for_update(skip_locked=True)).all()
            if not rows:
                # mail passed over for another process's in hand is done in a moment: look again soon
                passed_over = select(InboundMail.id).where(
                    InboundMail.status == MailStatus.RECEIVED,
                    InboundMail.attempts == 0,
                    InboundMail.sender.in_(in_hand),
                )
                self._soon = self._soon or s.scalar(passed_over.limit(1)) is not None
                return []
            senders = {row.sender for row in rows if row.sender is not None}
            window_ids = {row.id for row in rows}
            waits_for: dict[str, int] = {}  # each sender's oldest mail still to do outside the window
            divided = False  # another process has mail in hand
            for older, sender, attempts in s.execute(
                select(InboundMail.id, InboundMail.sender, InboundMail.attempts)
                .where(
                    InboundMail.status == MailStatus.RECEIVED,
                    InboundMail.id < rows[-1].id,
                    or_(one_of(s, InboundMail.sender, senders), InboundMail.attempts > 0),
                )
                .order_by(InboundMail.id)
            ):
                if older in window_ids:
                    continue
                divided = divided or (attempts > 0 and older not in self._held)
                if sender is not None and sender in senders:
                    waits_for.setdefault(sender, older)
            # nothing divides the senders yet: this batch takes its share of them and leaves the rest to the
            # others (once divided, each takes the senders the others do not hold)
            processes = 1 if divided or len(rows) <= size else self._sharing(s)
            most = max(1, len(senders) // processes) if processes > 1 else None
            chosen: list[int] = []
            holding: set[str] = set()
            for row in rows:
                if len(chosen) >= size:
                    break
                if row.sender is not None:
                    first = waits_for.get(row.sender)
                    if first is not None and first < row.id:
                        if first not in self._held:
                            self._soon = True  # another process's mail, done in a moment: look again soon
                        continue
                    if row.sender not in holding:
                        if most is not None and len(holding) >= most:
                            break
                        holding.add(row.sender)
                chosen.append(row.id)
            if chosen:
                s.execute(
                    update(InboundMail)
                    .where(one_of(s, InboundMail.id, chosen))
                    .values(attempts=1, claimed_by=this_process(), claimed_at=self.clock.now())
                )
        self._counted.update(dict.fromkeys(chosen, 1))
        return chosen

    def process_batch(self, message_ids: list[int]) -> int:
        """Handle claimed messages (`_claim`: their attempt counted) in one transaction, with one commit. Should
        any of them fail, the whole transaction is undone and each message is handled again in a transaction of
        its own, so that it succeeds or fails alone. (A savepoint per message would give the same isolation at a
        cost paid on every message; this pays only when one fails, which is rare.) A deadlock or serialization
        failure PostgreSQL reports is no failure of the mail: the batch is undone, its attempts given back, and
        it is claimed again at once."""
        try:
            with self.db.transaction() as s:
                rows = s.execute(
                    select(InboundMail.id, InboundMail.raw, InboundMail.attempts, InboundMail.received_at)
                    .where(one_of(s, InboundMail.id, message_ids), InboundMail.status == MailStatus.RECEIVED)
                    .order_by(InboundMail.id)
                    .with_for_update()
                ).all()
                results: list[_Result] = []
                answering: Counter[str] = Counter()
                for row in rows:
                    mail = read_mail(row.raw, own_address=self.config.address)
                    if self._deferred(row.id, mail, answering):
                        results.append(_Result(row.id, MailStatus.RECEIVED, attempts=row.attempts - 1))  # no failure
                        continue
                    result = self._handle(s, row.id, mail, row.received_at)
                    answering.update([result.answered] if result.answered else [])
                    results.append(result)
                _record(s, results)
        except Exception as error:
            if is_conflict(error):
                self._conflicted(error, message_ids)
                return 0
            if is_unavailable(error):
                raise  # the database's failure, not the batch's: done again when it answers
            log.info("a message of a batch failed; handling the batch's messages one at a time", exc_info=True)
            return sum(self._handle_alone(message_id) != MailStatus.RECEIVED for message_id in message_ids)
        self._forget(message_ids)
        self._remember(results)
        return sum(result.status != MailStatus.RECEIVED for result in results)

    def _conflicted(self, error: BaseException, message_ids: list[int]) -> None:
        """A deadlock or serialization failure undid the work: the attempts counted for it are given back, and the
        mail is done again in the next round, at once."""
        log.info("mail %s undone by %s; done again", ", ".join(map(str, message_ids)), first_line(error))
        self._give_back([message_id for message_id in message_ids if message_id in self._counted])
        self._undone += 1
        self._soon = True

    def run(self, stop: threading.Event, idle_seconds: float = 2.0, after: Callable[[int], None] | None = None) -> None:
        """Work through stored mail until `stop` is set, calling `after(finished)` after each pass that finished
        any. It sleeps only after a pass that found nothing to do, and `wakeup` (set by the intakes when they
        store mail) cuts the sleep short; it is cleared before each pass, so mail stored during a pass is never
        left waiting for the timeout. Never raises: a failed pass is logged and tried again; the database away is
        waited for (`Database.outage`), and the pass done again the moment it answers."""
        outage = self.db.outage
        while not stop.is_set():
            self.wakeup.clear()
            began = time.monotonic()
            try:
                if self._counted:
                    log.info("the database is back: mail %s done again", ", ".join(map(str, sorted(self._counted))))
                    self._give_back(list(self._counted))
                done = self.process_pending()
                outage.answered(began)
                if done and after is not None:
                    after(done)
            except Exception as error:
                if is_unavailable(error):
                    outage.lost(error, "processor")
                    outage.wait(stop)
                    continue
                log.exception("processing stored mail failed; trying again shortly")
                done = 0
            if not done:
                self.wakeup.wait(SOON if self._soon else SHARED_IDLE if self._shared else idle_seconds)

    def _give_back(self, message_ids: list[int]) -> None:
        """The attempts this process counted for mail whose work was undone (the database went away, or a deadlock):
        given back where the message is still as this process left it (not done since, nor counted again by
        another process), so that neither ever brings a message nearer to being shunted."""
        if not message_ids:
            return
        with self.db.transaction() as s:
            for message_id in message_ids:
                attempts = self._counted[message_id]
                s.execute(
                    update(InboundMail)
                    .where(
                        InboundMail.id == message_id,
                        InboundMail.status == MailStatus.RECEIVED,
                        InboundMail.attempts == attempts,
                    )
                    .values(attempts=attempts - 1)
                )
        self._forget(message_ids)

    def _forget(self, message_ids: list[int]) -> None:
        for message_id in message_ids:
            self._counted.pop(message_id, None)

    # --- one message -----------------------------------------------------------------------------------

    def process_one(self, message_id: int, seen: int | None = None) -> str:
        """Handle one message in a transaction of its own, its attempt counted first. `seen`: the attempts it had
        when it was picked; if another process has counted one since, that attempt is the other's and is not
        counted again (the one that takes the row lock first does the work)."""
        with self.db.transaction() as s:
            row = s.execute(
                select(InboundMail.message_id, InboundMail.raw, InboundMail.status, InboundMail.attempts)
                .where(InboundMail.id == message_id)
                .with_for_update(skip_locked=True)
            ).first()
            if row is None:  # another process has it in hand (or it never was)
                return MailStatus.RECEIVED
            if row.status != MailStatus.RECEIVED:
                return str(row.status)
            counted_elsewhere = seen is not None and row.attempts != seen  # another process is at work on it
            if row.attempts >= MAX_ATTEMPTS and not counted_elsewhere:
                # every attempt so far ended with the judge itself (a crash, a kill): one more would too
                unfinished = "the judge stopped while handling it, every time"
                result = self._failed(message_id, row.message_id, row.attempts, unfinished)
                _record(s, [result])
                return result.status
            if self._deferred(message_id, read_mail(row.raw, own_address=self.config.address)):
                return MailStatus.RECEIVED  # answered in a later round
            if not counted_elsewhere:
                s.execute(
                    update(InboundMail)
                    .where(InboundMail.id == message_id)
                    .values(attempts=InboundMail.attempts + 1, claimed_by=this_process(), claimed_at=self.clock.now())
                )
        if not counted_elsewhere:
            self._counted[message_id] = row.attempts + 1
        return self._handle_alone(message_id)

    def _handle_alone(self, message_id: int) -> str:
        """Handle one message whose attempt is already counted, in a transaction of its own."""
        try:
            with self.db.transaction() as s:
                row = s.execute(
                    select(InboundMail.raw, InboundMail.status, InboundMail.attempts, InboundMail.received_at)
                    .where(InboundMail.id == message_id)
                    .with_for_update()
                ).first()
                if row is None or row.status != MailStatus.RECEIVED:
                    self._forget([message_id])
                    return row.status if row is not None else MailStatus.PROCESSED
                mail = read_mail(row.raw, own_address=self.config.address)
                if self._deferred(message_id, mail):
                    result = _Result(message_id, MailStatus.RECEIVED, attempts=row.attempts - 1)
                else:
                    result = self._handle(s, message_id, mail, row.received_at)
                _record(s, [result])
        except Exception as exc:  # anything unexpected: keep the message, count it, shunt it in the end
            if is_conflict(exc):
                self._conflicted(exc, [message_id])
                return MailStatus.RECEIVED
            if is_unavailable(exc):
                raise  # the database's failure, not the message's: done again when it answers
            with self.db.transaction() as s:
                found = s.execute(
                    select(InboundMail.message_id, InboundMail.attempts).where(InboundMail.id == message_id)
                ).one()
                result = self._failed(message_id, found.message_id, found.attempts, f"{type(exc).__name__}: {exc}")
                _record(s, [result])
        self._forget([message_id])
        self._remember([result])
        return result.status

    def _failed(self, message_id: int, header_id: str | None, attempts: int, why: str) -> _Result:
        error = why[:4000]
        if attempts < MAX_ATTEMPTS:
            return _Result(message_id, MailStatus.RECEIVED, error=error)
        shunted = MessageShunted(message_id=message_id, header_id=header_id, attempts=attempts, error=error)
        outgoing = self.notifier.rows([shunted], now=self.clock.now())
        return _Result(message_id, MailStatus.SHUNTED, error=error, outgoing=outgoing, header_id=header_id)

    def _deferred(self, message_id: int, mail: IncomingMail, answering: Counter[str] | None = None) -> bool:
        """Over the rate limit: the message waits for a later round, and is left out of the rounds of the next
        minute, so that a flood from one address never fills a round and keeps everyone else's mail waiting.
        `answering` counts the replies of the transaction under way, not yet remembered."""
        if mail.kind is not MailKind.ORDINARY or mail.sender is None:
            return False
        if self._replies_to(mail.sender) + (answering or Counter())[mail.sender] < self.rate_limit:
            return False
        self._held[message_id] = self.clock.now() + HOLD
        return True

    def _replies_to(self, address: str) -> int:
        """Replies to this address in the window (kept in memory: a limit on a flood, not an account)."""
        now = self.clock.now()
        recent = self._answered.setdefault(address, deque())
        while recent and recent[0] <= now - self.rate_window:
            recent.popleft()
        return len(recent)

    def _remember(self, results: list[_Result]) -> None:
        """The replies of a committed transaction, for the rate limit; and one log line a mail handled."""
        for result in results:
            if result.attempts is None and result.status != MailStatus.RECEIVED:
                why = result.why or result.error or ""
                log.info("mail %d %s: %s%s", result.message_id, result.header_id or "(no Message-ID)",
                         result.status, f" ({why})" if why else "")  # fmt: skip
            if result.answered is not None and result.processed_at is not None:
                self._answered.setdefault(result.answered, deque()).append(result.processed_at)

    def _handle(self, s: Session, message_id: int, mail: IncomingMail, received: datetime | None) -> _Result:
        """Answer one mail. `received`: when it was stored, read with the message itself (asked for again here,
        it was a round trip to the database for every mail)."""
        now = self.clock.now()
        if mail.kind is not MailKind.ORDINARY or mail.sender is None:
            # bounces, auto-replies, our own mail, no sender: never answered
            error = None if mail.sender else "no usable sender address"
            why = f"never answered: {mail.kind.value.replace('_', '-')}" if mail.sender else "no usable sender"
            return _Result(
                message_id, MailStatus.IGNORED, error=error, processed_at=now, header_id=mail.message_id, why=why
            )
        games = Games(self.db, self.clock).bound(s)
        request = Request(mail.sender, mail.lines, now, mail.message_id, received)
        said = self.handler(games, self.config, request)
        # what the sender's subject already says, read here with the rest of what came in (the template words the
        # reply's subject from these values, and reads no words itself)
        a_reply = mail.subject.lower().startswith("re:")
        names_game = bool(said.game) and str(said.game) in mail.subject
        mails = 1 + len(said.parts)
        subject = {"judge": self.config.name, "subject": mail.subject, "a_reply": a_reply, "names_game": names_game,
                   "game": said.game, "phase": said.phase, "mails": mails}  # fmt: skip
        answered = words("reply", None, sections=said.sections, unanswered=said.unanswered, on_file=said.on_file,
                         answered_at_most=MAX_SECTIONS, truncated=mail.truncated,
                         **subject, **self._foot(games, said))  # fmt: skip
        to = mail.reply_to or mail.sender
        answer = reply(self.config, to, answered.subject, answered.text, mail.message_id, mail.references)
        for filename, png in said.attachments:  # the MAP command's pictures
            attach_map(answer, png, filename)
        outgoing = [outbound_row(answer, kind="reply", now=now, inbound_id=message_id, recipients=[to])]
        # a long answer's later mails (HISTORY over a range): queued here with the reply, in the mail's transaction,
        # so that they go once with it or not at all, as every reply does; of their own kind, so that a mail still has
        # one reply (its parts are not replies again), sent with the replies' urgency
        for number, part in enumerate(said.parts, start=2):
            told = words("reply_part", None, number=number, line=part.line, lines=part.lines, **subject)
            more = reply(self.config, to, told.subject, told.text, mail.message_id, mail.references)
            outgoing.append(outbound_row(more, kind=REPLY_PART, now=now, inbound_id=message_id, recipients=[to]))
        outgoing += self.notifier.rows(games.take_events(), now=now)
        return _Result(
            message_id,
            MailStatus.PROCESSED,
            processed_at=now,
            outgoing=outgoing,
            answered=mail.sender,
            header_id=mail.message_id,
            why=f"answered {mail.sender}",
        )

    def _foot(self, games: Games, said: Answer) -> dict[str, str | None]:
        """What the foot of a reply about a game says of it (its template words it): the phase it is in now and
        its deadline, from the sender's point of view in time."""
        if not said.game:
            return {"now_in": None, "deadline": None}
        phase, deadline, zone = games.reads.brief(said.game)
        return {"now_in": phase or None, "deadline": due_text(deadline, self.clock.now(), zone) if deadline else None}


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
    answered: str | None = None
    """the address the reply went to (for the rate limit)"""
    header_id: str | None = None
    """the mail's Message-ID, for the log"""
    why: str = ""
    """what became of it, for the log ("answered a@b", "ignored: bounce")"""

    def changes(self) -> dict[str, Any]:
        if self.attempts is not None:  # deferred: only the attempt is given back; an earlier error stays
            return {"id": self.message_id, "attempts": self.attempts}
        values: dict[str, Any] = {"id": self.message_id, "status": self.status, "error": self.error}
        if self.processed_at is not None:
            values["processed_at"] = self.processed_at
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


def _in_other_hands(owner: str | None, since: datetime | None, now: datetime) -> bool:
    """Whether a mail tried before is another live process's: its own to retry, and possibly at work on it now
    (between its claim, which counted the attempt, and its work). A process that died leaves its mail to the
    others; one on another host holds it for `CLAIM_LEASE`."""
    if owner is None or owner == this_process():
        return False
    living = alive(owner)
    if living is None:
        return since is not None and as_utc(since) > now - CLAIM_LEASE
    return living
