"""The other half of a relay: delivery of what it accepted into the recipients' mailboxes, over LMTP into a real
Dovecot (`judge.testing.dovecot`), as an MTA's queue does -- so a benchmark can time mail to the moment a player
could read it, not to the relay's acceptance.

It models a store-and-forward relay (Postfix handing mail to Dovecot's LMTP): the relay answers 250 once the
message is queued, and delivery runs right after, on a few connections of its own; a message goes to all its
recipients in one LMTP transaction (one RCPT TO each), and LMTP answers each recipient once its copy is saved.
That answer's moment is the copy's arrival in the mailbox. A connection that breaks is opened again and the
message tried again, as a queue would; a recipient LMTP refuses is recorded refused, never retried.
"""

from __future__ import annotations

import queue
import smtplib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from judge.running import StartStop
from judge.testing.smtp_relay import ReceivedMessage

_ATTEMPTS = 5
"""tries of one message over a broken connection before it is recorded failed"""


@dataclass(frozen=True)
class Copy:
    """LMTP's answer for one recipient of a message: 250 when the copy is in that mailbox, at `at`
    (`time.monotonic()`)."""

    recipient: str
    code: int
    reply: str
    at: float

    @property
    def saved(self) -> bool:
        return 200 <= self.code < 300


@dataclass(frozen=True)
class Delivered:
    """One accepted message after its delivery: each recipient's answer."""

    message: ReceivedMessage
    copies: tuple[Copy, ...]

    @property
    def at(self) -> float:
        """When the last copy was saved (or refused): the message's delivery is over."""
        return max(copy.at for copy in self.copies)


class LmtpDelivery(StartStop):
    """A delivery queue: `put` an accepted message, `connections` threads deliver it over LMTP to `host:port`."""

    def __init__(self, host: str, port: int, connections: int = 4) -> None:
        if connections < 1:
            raise ValueError("delivery needs at least one connection")
        self.host, self.port, self.connections = host, port, connections
        self._queue: queue.Queue[ReceivedMessage] = queue.Queue()
        self._condition = threading.Condition()
        self._delivered: list[Delivered] = []
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        if self._threads:
            raise RuntimeError("delivery is already running")
        self._stopping.clear()
        self._threads = [
            threading.Thread(target=self._run, name=f"lmtp-delivery-{n}", daemon=True) for n in range(self.connections)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """Stop after the messages under way; what is still queued is dropped (a queue's bench is over)."""
        self._stopping.set()
        threads, self._threads = self._threads, []
        for thread in threads:
            thread.join()

    def put(self, message: ReceivedMessage) -> None:
        self._queue.put(message)

    @property
    def waiting(self) -> int:
        """Messages accepted and not yet taken by a connection."""
        return self._queue.qsize()

    @property
    def delivered(self) -> list[Delivered]:
        """A snapshot of the deliveries so far, in the order they ended."""
        with self._condition:
            return list(self._delivered)

    def wait_delivered(self, count: int, timeout: float = 10) -> list[Delivered]:
        """Block until at least `count` messages are delivered; all of them, or TimeoutError."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while len(self._delivered) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"expected {count} delivery(ies) within {timeout} s, got {len(self._delivered)}")
                self._condition.wait(left)
            return list(self._delivered)

    # -- the connections --------------------------------------------------------------------------------------

    def _messages(self) -> Iterator[ReceivedMessage]:
        while not self._stopping.is_set():
            try:
                yield self._queue.get(timeout=0.1)
            except queue.Empty:
                continue

    def _run(self) -> None:
        lmtp: smtplib.LMTP | None = None
        try:
            for message in self._messages():
                for attempt in range(_ATTEMPTS):
                    try:
                        if lmtp is None:
                            lmtp = smtplib.LMTP(self.host, self.port, timeout=60)
                        copies = _deliver(lmtp, message)
                        break
                    except (smtplib.SMTPException, OSError) as error:
                        if lmtp is not None:
                            lmtp.close()
                        lmtp = None
                        if attempt == _ATTEMPTS - 1:
                            now = time.monotonic()
                            copies = tuple(Copy(r, 0, f"not delivered: {error}", now) for r in message.rcpt_tos)
                with self._condition:
                    self._delivered.append(Delivered(message, copies))
                    self._condition.notify_all()
        finally:
            if lmtp is not None:
                lmtp.close()


def _deliver(lmtp: smtplib.LMTP, message: ReceivedMessage) -> tuple[Copy, ...]:
    """One LMTP transaction for all the message's recipients. smtplib reads one reply after the data; LMTP sends one
    for each recipient it took (RFC 2033, 4.2), read here in their order."""
    code, reply = lmtp.mail(message.mail_from)
    if code != 250:
        lmtp.rset()
        now = time.monotonic()
        return tuple(Copy(r, code, reply.decode(errors="replace"), now) for r in message.rcpt_tos)
    refused: dict[str, Copy] = {}
    taken: list[str] = []
    for recipient in message.rcpt_tos:
        code, reply = lmtp.rcpt(recipient)
        if code == 250:
            taken.append(recipient)
        else:
            refused[recipient] = Copy(recipient, code, reply.decode(errors="replace"), time.monotonic())
    saved: dict[str, Copy] = {}
    if taken:
        code, reply = lmtp.data(message.data)
        saved[taken[0]] = Copy(taken[0], code, reply.decode(errors="replace"), time.monotonic())
        for recipient in taken[1:]:
            code, reply = lmtp.getreply()
            saved[recipient] = Copy(recipient, code, reply.decode(errors="replace"), time.monotonic())
    else:
        lmtp.rset()
    return tuple(saved.get(r) or refused[r] for r in message.rcpt_tos)
