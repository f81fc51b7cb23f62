"""Every mail the judge sends is first a row of the outbound queue, written in the same transaction as the
change it reports; the sender delivers the rows. So a reply is queued exactly once with the work it answers."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from sqlalchemy import ColumnElement, case, insert
from sqlalchemy.orm import Session

from judge.mail.policies import message_bytes
from judge.store import OutboundMail, OutboundStatus

REPLY_PART = "reply part"
"""a later mail of a long answer (HISTORY over a range): of the one reply to its mail, never a second reply"""
REPLY_KINDS = ("reply", REPLY_PART)
"""answers to a mail to the judge: a player waits for them, so they go first"""
RESULT_KINDS = ("result",)
"""results and game-over mail: the bulk of a deadline rush, so they go last; every other kind (notices,
announcements, press, reminders, the admin's mail) goes between"""
REPLY, ANNOUNCEMENT, RESULT = 0, 1, 2
"""the three urgencies of outgoing mail, most urgent first (docs/mail.md, "Delivery")"""


def urgency(kind: str) -> int:
    """A kind's urgency: `REPLY`, `ANNOUNCEMENT` or `RESULT`."""
    if kind in REPLY_KINDS:
        return REPLY
    return RESULT if kind in RESULT_KINDS else ANNOUNCEMENT


def urgency_rank(first: int) -> ColumnElement[int]:
    """SQL ranking the queue's rows for a sender's next claim: the urgency `first` before the others, which keep
    their order (replies, announcements, results). With `first=REPLY` it is the urgency itself."""
    order = [first, *(u for u in (REPLY, ANNOUNCEMENT, RESULT) if u != first)]
    rank = {u: order.index(u) for u in order}
    return case(
        (OutboundMail.kind.in_(REPLY_KINDS), rank[REPLY]),
        (OutboundMail.kind.in_(RESULT_KINDS), rank[RESULT]),
        else_=rank[ANNOUNCEMENT],
    )


def outbound_row(
    message: EmailMessage,
    *,
    kind: str,
    now: datetime,
    game_id: int | None = None,
    inbound_id: int | None = None,
    raw: bytes | None = None,
    recipients: list[str] | None = None,
) -> dict[str, Any]:
    """The queue row for one mail, to be inserted with others (`queue_rows`) or alone (`queue_mail`). `raw`: the
    message's bytes, when the caller has made them (`judge.mail.announce.results_copies`). `recipients`: the
    envelope's, where they are not the message's To and Cc (one results mail to several players, whose To names
    none of them: `judge.mail.announce`)."""
    if recipients is None:
        # the values as stored, not parsed again into header objects: the judge wrote them itself
        written = [str(value) for name, value in message.raw_items() if name.lower() in ("to", "cc")]
        recipients = [address for _, address in getaddresses(written)]
    return {
        "message": raw if raw is not None else message_bytes(message),
        "recipients": [r for r in recipients if r],
        "kind": kind,
        "game_id": game_id,
        "inbound_id": inbound_id,
        "status": OutboundStatus.QUEUED,
        "next_try_at": now,
        "created_at": now,
    }


def queue_rows(session: Session, rows: list[dict[str, Any]]) -> None:
    """Queue many mails in one statement (the mail processor queues a batch's replies together)."""
    if rows:
        session.execute(insert(OutboundMail), rows)


def queue_mail(
    session: Session,
    message: EmailMessage,
    *,
    kind: str,
    now: datetime,
    game_id: int | None = None,
    inbound_id: int | None = None,
) -> OutboundMail:
    row = OutboundMail(**outbound_row(message, kind=kind, now=now, game_id=game_id, inbound_id=inbound_id))
    session.add(row)
    return row
