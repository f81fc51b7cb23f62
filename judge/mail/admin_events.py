"""What the judge's admin is told of: mail the judge could not handle or could not deliver. Events like a game's,
turned into mail by the same notifier (`judge.mail.notifier`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class MessageShunted:
    """A stored mail failed every attempt and was set aside (`judge shunt`)."""

    message_id: int
    header_id: str | None
    attempts: int
    error: str


@dataclass(frozen=True, kw_only=True)
class MailUndeliverable:
    """An outgoing mail the judge gave up on (`judge outbox`)."""

    row_id: int
    kind: str
    recipients: tuple[str, ...]
    error: str


AdminEvent = MessageShunted | MailUndeliverable
