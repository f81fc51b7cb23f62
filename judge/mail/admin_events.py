"""What the judge's admin is told of: mail the judge could not handle or could not deliver, and a game whose
deadline work failed. Events like a game's, turned into mail by the same notifier (`judge.mail.notifier`)."""

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


@dataclass(frozen=True, kw_only=True)
class GameWorkFailed:
    """The work due for a game at its deadline (or early, its orders all in) failed: its transaction was undone,
    the game waits, and the keeper tries it again each minute. Told once a phase, to the admin (with the error)
    and the GM (without it: an error may quote what the players ordered)."""

    game: str
    phase: str
    gm: str
    error: str


AdminEvent = MessageShunted | MailUndeliverable | GameWorkFailed
