"""The SMTP / LMTP intake: an MTA hands mail to the judge, and the judge says 250 only once it is stored.

The reply to DATA is the hand-over of responsibility: after `250` the MTA forgets the message. So the handler
stores the exact bytes received (`envelope.original_content`: dot-unstuffed, nothing decoded) and answers
`250` only after `store_inbound` has committed; if storing fails for any reason it answers `451`, which every
MTA treats as "keep it and try again later". Nothing is lost either way, at the price of a possible duplicate
when the connection breaks between the commit and the 250 (the MTA retries a message we already have).

LMTP (RFC 2033) differs from SMTP in one way that matters here: after DATA the server gives one reply per
accepted recipient. The judge stores the message once (it is one mail to the judge, whichever of its
addresses it was sent to) and repeats the outcome for every recipient.

The database insert is blocking, so it runs in a small thread pool of our own: the event loop keeps serving
other connections meanwhile, and `stop()` waits for an insert in progress to finish.

The database away (`judge.store.outage`: a restart, SQLite locked by another program) is waited for, up to
`STORE_PATIENCE` seconds, before the `451`: an MTA waits minutes for the answer to DATA, and a message stored the
moment the database is back is answered within seconds, where a `451` would leave it to the MTA's own retry
(minutes). A stop cuts the wait short.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.clock import Clock
from judge.config import SmtpIntakeConfig
from judge.mail.inbox import store_inbound
from judge.running import StartStop
from judge.store import Database
from judge.store.outage import is_unavailable

log = logging.getLogger(__name__)

ACCEPTED = "250 Message accepted"
TRY_LATER = "451 Requested action aborted: local error, try again later"
_STORE_THREADS = 4
STORE_PATIENCE = 30.0
"""seconds a message waits for the database before the MTA is told to try again later"""
_READY_TIMEOUT = 10.0


class _Handler:
    """aiosmtpd handler: every envelope is accepted up to DATA, where the message is stored or refused."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        lmtp: bool,
        executor: ThreadPoolExecutor,
        on_stored: Callable[[int], None] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.on_stored = on_stored
        self.lmtp = lmtp
        self.source = "lmtp" if lmtp else "smtp"
        self.executor = executor
        self.stopping = threading.Event()

    def _store(self, raw: bytes, envelope_from: str | None) -> int:
        """Store the message, waiting up to `STORE_PATIENCE` for a database that is away."""
        give_up = time.monotonic() + STORE_PATIENCE
        while True:
            began = time.monotonic()
            try:
                inbound_id = store_inbound(
                    self.db, raw, source=self.source, envelope_from=envelope_from, clock=self.clock
                )
            except Exception as error:
                if not is_unavailable(error) or time.monotonic() >= give_up:
                    raise
                self.db.outage.lost(error, f"{self.source.upper()} intake")
                if self.stopping.wait(0.5):
                    raise
                continue
            self.db.outage.answered(began)
            return inbound_id

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = bytes(envelope.original_content or b"")
        store = functools.partial(self._store, raw, envelope.mail_from)
        try:
            inbound_id = await asyncio.get_running_loop().run_in_executor(self.executor, store)
        except Exception as error:
            if is_unavailable(error):
                log.warning("could not store a %d-byte message from %r: the database is away; asked the MTA to "
                            "retry", len(raw), session.peer)  # fmt: skip
            else:
                log.exception("could not store a %d-byte message from %r: asked the MTA to retry", len(raw),
                              session.peer)  # fmt: skip
            status = TRY_LATER
        else:
            log.info(
                "stored message %d (%d bytes) from %s by %s", inbound_id, len(raw), envelope.mail_from, self.source
            )
            status = ACCEPTED
            if self.on_stored is not None:
                self.on_stored(inbound_id)
        if self.lmtp:
            # RFC 2033 4.2: one reply per successful RCPT TO, in order; push() ends the last line
            return "\r\n".join([status] * max(1, len(envelope.rcpt_tos)))
        return status


class _Controller(Controller):
    """aiosmtpd's threaded controller, serving LMTP when asked, and able to listen on port 0."""

    def __init__(self, handler: _Handler, *, lmtp: bool, hostname: str, port: int, data_size_limit: int) -> None:
        super().__init__(
            handler, hostname=hostname, port=port, ready_timeout=_READY_TIMEOUT, data_size_limit=data_size_limit
        )
        self._lmtp = lmtp

    def factory(self) -> SMTP:
        if self._lmtp:
            return LMTP(self.handler, **self.SMTP_kwargs)
        return SMTP(self.handler, **self.SMTP_kwargs)

    def _trigger_server(self) -> None:
        # start() connects once to hostname:port to check the server answers: with port 0 that must be the
        # port the kernel picked, which is known only now that the server is bound
        if isinstance(self.server, asyncio.Server) and self.port == 0:
            self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()  # type: ignore[no-untyped-call]  # aiosmtpd leaves it unannotated


class SmtpIntake(StartStop):
    """The listener: `start()` / `stop()`, or use it as a context manager; `port` is the port it listens on."""

    def __init__(
        self, db: Database, config: SmtpIntakeConfig, clock: Clock, on_stored: Callable[[int], None] | None = None
    ) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self.on_stored = on_stored
        """called with the new message's id once it is stored (the daemon wakes its processor)"""
        self._controller: _Controller | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._handler: _Handler | None = None

    @property
    def port(self) -> int:
        if self._controller is None:
            raise RuntimeError("the SMTP intake is not running")
        return int(self._controller.port)

    def start(self) -> None:
        if self._controller is not None:
            raise RuntimeError("the SMTP intake is already running")
        executor = ThreadPoolExecutor(max_workers=_STORE_THREADS, thread_name_prefix="smtp-intake-store")
        handler = _Handler(self.db, self.clock, lmtp=self.config.lmtp, executor=executor, on_stored=self.on_stored)
        controller = _Controller(
            handler,
            lmtp=self.config.lmtp,
            # aiosmtpd's own default is ::1; the configured host is always passed
            hostname=self.config.host,
            port=self.config.port,
            data_size_limit=self.config.max_bytes,
        )
        try:
            controller.start()
        except BaseException:
            controller.stop(no_assert=True)
            if not controller.loop.is_closed():  # a failed bind returns before the loop would close itself
                controller.loop.close()
            executor.shutdown(wait=False)
            raise
        self._controller, self._executor, self._handler = controller, executor, handler
        log.info("%s intake listening on %s:%d", "LMTP" if self.config.lmtp else "SMTP", self.config.host, self.port)

    def stop(self) -> None:
        """Stop listening; an insert already running finishes (its connection gets no reply, so the MTA
        retries: a duplicate at worst, never a loss)."""
        controller, self._controller = self._controller, None
        executor, self._executor = self._executor, None
        if self._handler is not None:
            self._handler.stopping.set()  # a store waiting for the database gives up: the MTA keeps the message
        if controller is not None:
            controller.stop()
        if executor is not None:
            executor.shutdown(wait=True)
