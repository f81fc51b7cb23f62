"""A real SMTP server (aiosmtpd) on a loopback port that keeps what it receives: the judge's outgoing relay in
tests.

It speaks real SMTP over TCP, so the judge's own sending code (smtplib, retries, envelopes) is what gets tested;
`fail_next` makes it refuse once, the way a real relay under load or greylisting does. Given a `Delivery`
(`judge.testing.lmtp_delivery.LmtpDelivery`), it hands every message it accepts on to it, as a relay with a queue
does after its 250: into the recipients' mailboxes in a real Dovecot.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Literal, Protocol

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.running import StartStop
from judge.testing.dovecot import free_port

Stage = Literal["RCPT", "DATA"]
_PORT_ATTEMPTS = 5


@dataclass(frozen=True)
class ReceivedMessage:
    """One accepted message: the envelope as given in MAIL FROM / RCPT TO and the data as received."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    data: bytes
    at: float = 0.0
    """when it was accepted (`time.monotonic()`): the bench times mail by its arrival"""


class Delivery(Protocol):
    """Where an accepted message goes next (a queue's delivery); `put` must not block the relay's loop."""

    def put(self, message: ReceivedMessage) -> None: ...


@dataclass(frozen=True)
class _Failure:
    stage: Stage
    reply: str


class _Handler:
    """aiosmtpd handler: stores accepted messages, refuses once at the armed stage."""

    def __init__(self, delivery: Delivery | None = None) -> None:
        self.delivery = delivery
        self.condition = threading.Condition()
        self.received: list[ReceivedMessage] = []
        self.failure: _Failure | None = None
        self.refusing: dict[str, str] = {}
        """recipients refused at RCPT TO, with the reply, until `accept` (one mailbox full, another gone)"""
        self.holding = threading.Event()
        """while set, a message's DATA is held unanswered (the sender waits for the relay's answer)"""
        self.held = threading.Event()
        """set once a DATA is being held"""

    def _take_failure(self, stage: Stage) -> str | None:
        with self.condition:
            if self.failure is not None and self.failure.stage == stage:
                reply, self.failure = self.failure.reply, None
                return reply
        return None

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        refusal = self._take_failure("RCPT")
        if refusal is not None:
            return refusal
        with self.condition:
            refused = self.refusing.get(address)
        if refused is not None:
            return refused
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.holding.is_set():
            self.held.set()
            while self.holding.is_set():
                await asyncio.sleep(0.05)
            return "451 4.3.0 Held and dropped: the sender went away before the answer"
        refusal = self._take_failure("DATA")
        if refusal is not None:
            return refusal
        # original_content is the data before any decoding (dot-unstuffed, CRLF line endings as sent)
        raw = envelope.original_content or b""
        message = ReceivedMessage(envelope.mail_from or "", tuple(envelope.rcpt_tos), bytes(raw), time.monotonic())
        with self.condition:
            self.received.append(message)
            self.condition.notify_all()
        if self.delivery is not None:
            self.delivery.put(message)  # store and forward: accepted now, delivered right after
        return "250 Message accepted for delivery"


class SmtpRelay(StartStop):
    """An SMTP server on 127.0.0.1 that records every message (and hands it to `delivery`, where given);
    `start()`/`stop()` or use it as a context manager."""

    host = "127.0.0.1"

    def __init__(self, delivery: Delivery | None = None) -> None:
        self._handler = _Handler(delivery)
        self._controller: Controller | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the SMTP relay is not running")
        return self._port

    def start(self) -> None:
        """Listen on a free port; retried on a new one if another process takes it first."""
        if self._controller is not None:
            raise RuntimeError("the SMTP relay is already running")
        for attempt in range(_PORT_ATTEMPTS):
            port = free_port()
            # aiosmtpd's default host is ::1; the judge and the tests talk IPv4
            controller = Controller(self._handler, hostname=self.host, port=port, ready_timeout=10.0)
            try:
                controller.start()
            except OSError:
                controller.stop(no_assert=True)
                if not controller.loop.is_closed():
                    controller.loop.close()
                if attempt == _PORT_ATTEMPTS - 1:
                    raise
                continue
            self._controller, self._port = controller, port
            return

    def stop(self) -> None:
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()
        self._port = None

    @property
    def messages(self) -> list[ReceivedMessage]:
        """A snapshot of the messages received so far, in order of arrival."""
        with self._handler.condition:
            return list(self._handler.received)

    def wait_for(self, count: int, timeout: float = 10) -> list[ReceivedMessage]:
        """Block until at least `count` messages have arrived; all of them, or TimeoutError."""
        deadline = time.monotonic() + timeout
        with self._handler.condition:
            while len(self._handler.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(
                        f"expected {count} message(s) within {timeout} s, got {len(self._handler.received)}"
                    )
                self._handler.condition.wait(left)
            return list(self._handler.received)

    def clear(self) -> None:
        """Forget the messages received so far, and any armed failure."""
        with self._handler.condition:
            self._handler.received.clear()
            self._handler.failure = None
            self._handler.refusing.clear()

    def hold(self) -> None:
        """Hold the next DATA unanswered (until `release`): the moment a sender may be killed mid-send. The held
        message is then dropped, never recorded."""
        self._handler.held.clear()
        self._handler.holding.set()

    def wait_held(self, timeout: float = 10) -> None:
        if not self._handler.held.wait(timeout):
            raise TimeoutError(f"no DATA was held within {timeout} s")

    def release(self) -> None:
        self._handler.holding.clear()

    def refuse(self, address: str, code: int, text: str = "mailbox unavailable") -> None:
        """Refuse this recipient at RCPT TO with this reply, every time, until `accept`: the other recipients of
        a message are taken."""
        with self._handler.condition:
            self._handler.refusing[address] = f"{code} {text}"

    def accept(self, address: str) -> None:
        with self._handler.condition:
            self._handler.refusing.pop(address, None)

    def fail_next(self, code: int = 451, text: str = "4.3.0 Try again later", *, at: Stage = "DATA") -> None:
        """Refuse the next DATA (or RCPT TO, with at="RCPT") once with this reply; later ones are accepted."""
        if not 400 <= code <= 599:
            raise ValueError(f"a refusal needs a 4xx or 5xx code, not {code}")
        with self._handler.condition:
            self._handler.failure = _Failure(at, f"{code} {text}")
