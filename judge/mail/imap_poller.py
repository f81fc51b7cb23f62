"""The IMAP intake: fetch new mail from a mailbox, store it, then file it away in the processed folder.

Order of events for each batch of up to 500 messages, so that a crash at any point loses nothing:
  1. FETCH BODY.PEEK[] (PEEK: a message we fail to store stays unread);
  2. one transaction stores the batch's messages and moves `ImapState.last_uid` past it: stored and recorded
     as read together, or neither;
  3. flag the batch \\Seen and MOVE it to the processed folder (COPY + \\Deleted + EXPUNGE where the server
     has no MOVE).
A crash before 2 commits makes the next poll fetch the batch again. A crash after it leaves stored messages in
the mailbox: they are at or below `last_uid`, so they are never stored again, and the next poll moves them.
Should the recorded position ever be lost while the mail is still there (a database restored from a backup, a
rebuilt mailbox with a new UIDVALIDITY), step 2 skips a message already stored: same Message-ID, same bytes,
source "imap", received within the last day (`DUPLICATE_WINDOW`). Message-IDs are indexed, so the check costs
one indexed query per batch, and comparing the bytes too means two different mails that share a Message-ID
are both kept; a message without a Message-ID is never skipped. A move the server refuses (the folder deleted
under us, a quota) is logged and retried on later polls; it never stops the intake.

Several judge processes polling one mailbox (PostgreSQL): one fetches at a time. The mailbox's state row is taken
`FOR UPDATE SKIP LOCKED` before each batch's fetch and held until the batch is stored (steps 1 and 2 under it); a
process that finds it held skips this poll (the holder goes on until the mailbox is empty) instead of fetching the
same batch for nothing and throwing it away. So a message is fetched by one process and stored once; the move
(step 3) is done after the commit, and a message a process stored but had not moved yet is moved by whichever
polls next. On SQLite (one process) the fetch comes before the transaction, which would hold SQLite's one write
lock for it.

UIDs mean something only together with the mailbox's UIDVALIDITY: when it changes (the mailbox was
recreated or rebuilt) the poller starts over from UID 0 and says so in the log.

`run()` waits for new mail with IDLE when the server offers it (in 1-second `idle_check` slices, so a stop is
noticed within a second), otherwise it sleeps `poll_seconds`. Any error ends the connection; the loop
reconnects after 0.5, 1, 2, 4, then every 5 seconds (so mail flows within seconds of the server's return, IDLE
again), and never stops by itself. The database away is no IMAP failure: the connection is kept, the poller waits
for the database with the other loops (`judge.store.outage`) and polls again the moment it answers.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from typing import Any

from imapclient import DELETED, SEEN, IMAPClient  # type: ignore[import-untyped]  # ships no py.typed
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError  # type: ignore[import-untyped]
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.clock import Clock
from judge.config import ImapConfig
from judge.mail.inbox import add_inbound, message_id_of
from judge.store import Database, ImapState, InboundMail
from judge.store.lists import one_of
from judge.store.outage import is_unavailable

log = logging.getLogger(__name__)

BATCH = 500
DUPLICATE_WINDOW = timedelta(days=1)
IMAP_TIMEOUT = 60.0
IDLE_SLICE = 1.0
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 5.0
SECURITIES = ("tls", "starttls", "plain")


class ImapPoller:
    """Polls one mailbox of one account; `poll_once()` for one pass, `run(stop_event)` for the daemon."""

    def __init__(
        self, db: Database, config: ImapConfig, clock: Clock, on_stored: Callable[[int], None] | None = None
    ) -> None:
        if config.security not in SECURITIES:
            raise ValueError(f"imap security must be one of {', '.join(SECURITIES)}, not {config.security!r}")
        self.db = db
        self.config = config
        self.clock = clock
        self.on_stored = on_stored
        self.account = f"{config.user}@{config.host}:{config.port}"
        self._imap: Any = None  # IMAPClient, untyped

    # -- connection -------------------------------------------------------------------------------------------

    def _connect(self) -> Any:
        config = self.config
        imap = IMAPClient(config.host, port=config.port, ssl=config.security == "tls", timeout=IMAP_TIMEOUT)
        try:
            if config.security == "starttls":
                imap.starttls()
            imap.login(config.user, config.password)
            self._ensure_folder(imap, config.processed_folder)
        except BaseException:
            imap.shutdown()
            raise
        log.info("connected to IMAP %s (%s)", self.account, config.security)
        return imap

    def _ensure_folder(self, imap: Any, folder: str) -> None:
        if imap.folder_exists(folder):
            return
        try:
            imap.create_folder(folder)
        except IMAPClientError:
            if not imap.folder_exists(folder):  # else another client created it just now
                raise
        imap.subscribe_folder(folder)
        log.info("created IMAP folder %s for %s", folder, self.account)

    def close(self) -> None:
        """Log out (or just drop a broken connection); the next poll connects again."""
        imap, self._imap = self._imap, None
        if imap is None:
            return
        try:
            imap.logout()
        except Exception:
            imap.shutdown()

    def _drop(self) -> None:
        """Forget a connection that failed, without the LOGOUT a dead or hung server would not answer."""
        imap, self._imap = self._imap, None
        if imap is not None:
            with contextlib.suppress(OSError):
                imap.shutdown()

    # -- one pass ---------------------------------------------------------------------------------------------

    def poll_once(self) -> int:
        """Store every new message of the mailbox and move it to the processed folder; return how many were
        stored (messages skipped as duplicates are moved but not counted)."""
        selected = self._select()
        uidvalidity = int(selected[b"UIDVALIDITY"])
        last_uid = self._load_state(uidvalidity)
        uids = sorted(int(uid) for uid in self._imap.search("ALL"))
        leftovers = [uid for uid in uids if uid <= last_uid]
        if leftovers:  # stored earlier, not moved yet (a crash or an error after the state update)
            self._file_away(leftovers)
        stored = 0
        while (taken := self._take(uids, last_uid, uidvalidity)) is not None:
            last_uid, count = taken
            stored += count
        return stored

    def _select(self) -> Any:
        """SELECT the mailbox, connecting first if needed, and once more if the old connection had died."""
        if self._imap is not None:
            try:
                return self._imap.select_folder(self.config.mailbox)
            except (IMAPClientAbortError, OSError) as error:
                log.info("IMAP connection to %s lost (%s); reconnecting", self.account, error)
                self._drop()
        self._imap = self._connect()
        return self._imap.select_folder(self.config.mailbox)

    def _load_state(self, uidvalidity: int) -> int:
        try:
            return self._read_state(uidvalidity)
        except IntegrityError:  # another judge process made the state row at the same moment: read theirs
            return self._read_state(uidvalidity)

    def _read_state(self, uidvalidity: int) -> int:
        now = self.clock.now()
        with self.db.transaction() as session:
            state = session.scalars(
                select(ImapState).where(ImapState.account == self.account, ImapState.mailbox == self.config.mailbox)
            ).one_or_none()
            if state is None:
                session.add(
                    ImapState(
                        account=self.account,
                        mailbox=self.config.mailbox,
                        uidvalidity=uidvalidity,
                        last_uid=0,
                        updated_at=now,
                    )
                )
                return 0
            if state.uidvalidity != uidvalidity:
                log.warning(
                    "UIDVALIDITY of %s on %s changed from %d to %d: reading the mailbox from the start",
                    self.config.mailbox,
                    self.account,
                    state.uidvalidity,
                    uidvalidity,
                )
                state.uidvalidity = uidvalidity
                state.last_uid = 0
                state.updated_at = now
            return int(state.last_uid)

    def _take(self, uids: list[int], last_uid: int, uidvalidity: int) -> tuple[int, int] | None:
        """Store the next batch of `uids` not yet stored, move it, and return the last UID taken and how many were
        stored; None when there is nothing left, or another judge process is fetching from this mailbox now.

        On PostgreSQL the mailbox's state row is held (`FOR UPDATE SKIP LOCKED`) from before the fetch until the
        batch is stored: one process fetches at a time, and another that finds the row held skips this poll
        rather than fetch the same batch for nothing. On SQLite (one process) the batch is fetched before the
        transaction, which would otherwise hold SQLite's one write lock for the fetch."""
        fetched = None
        if self.db.is_sqlite:
            batch = [uid for uid in uids if uid > last_uid][:BATCH]
            if not batch:
                return None
            fetched = self._fetch(batch)
        with self.db.transaction() as session:
            done = self._stored_up_to(session, uidvalidity)
            if done is None:
                log.debug("another judge process is fetching from %s: skipping this poll", self.config.mailbox)
                return None
            if fetched is None:
                batch = [uid for uid in uids if uid > done][:BATCH]
                if not batch:
                    return None
                fetched = self._fetch(batch)
            taken_by_other = [uid for uid, _ in fetched if uid <= done]
            if taken_by_other:
                log.info("skipped %d message(s) of %s: stored by another judge process", len(taken_by_other),
                         self.config.mailbox)  # fmt: skip
            messages = [(uid, raw) for uid, raw in fetched if uid > done]
            known = self._stored_already(session, [raw for _, raw in messages])
            fresh = []
            for uid, raw in messages:
                if (message_id_of(raw), raw) in known:
                    log.info("skipped UID %d of %s: already stored", uid, self.config.mailbox)
                    continue
                fresh.append(raw)
            stored = add_inbound(session, fresh, source="imap", now=self.clock.now())
            self._advance(session, batch[-1], uidvalidity)
        if self.on_stored is not None:
            for inbound_id in stored:
                self.on_stored(inbound_id)
        self._file_away(batch)
        return batch[-1], len(stored)

    def _fetch(self, batch: list[int]) -> list[tuple[int, bytes]]:
        fetched = self._imap.fetch(batch, ["BODY.PEEK[]"])
        # (a UID missing from the answer was expunged by another client since the SEARCH)
        return [(uid, bytes(fetched[uid][b"BODY[]"])) for uid in batch if b"BODY[]" in fetched.get(uid, {})]

    def _stored_up_to(self, session: Session, uidvalidity: int) -> int | None:
        """The mailbox's `last_uid`, read under its row's lock, held until the batch is stored; None when another
        judge process holds it (it is fetching from this mailbox now)."""
        state = session.scalars(
            select(ImapState)
            .where(ImapState.account == self.account, ImapState.mailbox == self.config.mailbox)
            .with_for_update(skip_locked=True)
        ).one_or_none()
        if state is None:
            return None
        if state.uidvalidity != uidvalidity:
            return 0
        return int(state.last_uid)

    def _stored_already(self, session: Session, raws: list[bytes]) -> set[tuple[str | None, bytes]]:
        """(Message-ID, bytes) of the batch's messages stored from IMAP within DUPLICATE_WINDOW: one query for
        the batch, so the check costs next to nothing when there is nothing to skip."""
        message_ids = {mid for mid in map(message_id_of, raws) if mid is not None}
        if not message_ids:
            return set()
        since = self.clock.now() - DUPLICATE_WINDOW
        rows = session.execute(
            select(InboundMail.message_id, InboundMail.raw).where(
                one_of(session, InboundMail.message_id, message_ids),
                InboundMail.source == "imap",
                InboundMail.received_at >= since,
            )
        ).all()
        return {(message_id, bytes(raw)) for message_id, raw in rows}

    def _advance(self, session: Session, uid: int, uidvalidity: int) -> None:
        state = session.scalars(
            select(ImapState).where(ImapState.account == self.account, ImapState.mailbox == self.config.mailbox)
        ).one()
        if state.uidvalidity == uidvalidity and uid > state.last_uid:
            state.last_uid = uid
            state.updated_at = self.clock.now()

    def _file_away(self, uids: list[int]) -> None:
        """Mark read and move to the processed folder: the mailbox holds only what is still to be read.

        A refusal (the folder was deleted under us, a quota) does not stop the intake: the folder is made
        again and the move retried once, then the messages stay where they are, stored and below `last_uid`,
        and the next poll tries again. A broken connection still raises.
        """
        folder = self.config.processed_folder
        try:
            self._move(uids, folder)
            return
        except IMAPClientAbortError:
            raise
        except IMAPClientError as error:
            log.info("moving %d message(s) to %s failed (%s); retrying once", len(uids), folder, error)
        try:
            self._ensure_folder(self._imap, folder)
            self._move(uids, folder)
        except IMAPClientAbortError:
            raise
        except IMAPClientError as error:
            log.warning(
                "could not move %d stored message(s) from %s to %s (%s): moving them on a later poll",
                len(uids),
                self.config.mailbox,
                folder,
                error,
            )

    def _move(self, uids: list[int], folder: str) -> None:
        imap = self._imap
        imap.add_flags(uids, [SEEN], silent=True)
        if imap.has_capability("MOVE"):
            imap.move(uids, folder)
            return
        imap.copy(uids, folder)
        imap.add_flags(uids, [DELETED], silent=True)
        if imap.has_capability("UIDPLUS"):
            imap.uid_expunge(uids)
        else:
            imap.expunge()  # also expunges other \Deleted mail: the mailbox is the judge's own

    # -- the daemon loop --------------------------------------------------------------------------------------

    def run(self, stop_event: threading.Event) -> None:
        """Poll until `stop_event` is set; never raises for mail server or database trouble."""
        backoff = BACKOFF_FIRST
        outage = self.db.outage
        while not stop_event.is_set():
            began = time.monotonic()
            try:
                stored = self.poll_once()
                outage.answered(began)
                backoff = BACKOFF_FIRST
                if stored:
                    # mail that came while we stored may have been announced in a reply we do not read:
                    # poll again until a pass finds nothing, so the last command before IDLE is that SEARCH
                    continue
                self._wait_for_mail(stop_event)
                continue
            except (IMAPClientAbortError, OSError) as error:  # the server went away, or was never there
                log.warning("IMAP connection to %s failed (%s); retrying in %.1f s", self.account, error, backoff)
            except Exception as error:
                if is_unavailable(error):  # the database's failure: the mail stays in the mailbox, read again
                    outage.lost(error, "IMAP poller")
                    outage.wait(stop_event)
                    continue
                log.exception("IMAP polling of %s failed; retrying in %.1f s", self.account, backoff)
            self._drop()
            stop_event.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)
        self.close()

    def _wait_for_mail(self, stop_event: threading.Event) -> None:
        """IDLE (when offered and wanted) until new mail, `poll_seconds` or a stop; else just sleep."""
        imap = self._imap
        if not (self.config.idle and imap is not None and imap.has_capability("IDLE")):
            stop_event.wait(self.config.poll_seconds)
            return
        deadline = time.monotonic() + self.config.poll_seconds
        imap.idle()
        try:
            while not stop_event.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                slice_ = min(IDLE_SLICE, left)
                started = time.monotonic()
                responses = imap.idle_check(timeout=slice_)
                if any(_is_exists(response) for response in responses):
                    break
                if not responses and time.monotonic() - started < slice_ / 2:
                    # the socket was readable but gave nothing: the server closed it (imapclient swallows the
                    # EOF); leave IDLE so that the error surfaces instead of spinning here
                    break
        finally:
            imap.idle_done()


def _is_exists(response: Any) -> bool:
    return isinstance(response, tuple) and len(response) >= 2 and response[1] == b"EXISTS"


def _batches(uids: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(uids), size):
        yield list(uids[start : start + size])
