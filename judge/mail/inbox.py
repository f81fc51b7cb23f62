"""Storing what arrives, before anything else happens to it: the one thing both intakes (IMAP, SMTP/LMTP) do.

A message is acknowledged to its source (250 to the MTA, the IMAP move to the processed folder) only after this
commit returns, so a crash at any moment loses nothing: either the message is stored, or the source still has it.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from sqlalchemy import insert
from sqlalchemy.orm import Session

from judge.clock import SYSTEM_CLOCK, Clock
from judge.store import Database, InboundMail, MailStatus

_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(.+?)\r?$", re.IGNORECASE | re.MULTILINE)
_HEADERS_END = re.compile(rb"\r?\n\r?\n")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")

log = logging.getLogger(__name__)


def message_id_of(raw: bytes) -> str | None:
    """The Message-ID as written, read cheaply from the header block (parsing waits for the processor)."""
    end = _HEADERS_END.search(raw)
    head = raw[: end.start()] if end else raw[:65536]
    found = _MESSAGE_ID.search(head)
    if found is None:
        return None
    text = _CONTROLS.sub("", found.group(1).decode("ascii", errors="replace"))  # a NUL no database would take
    return text.strip()[:998] or None


def store_inbound(
    db: Database, raw: bytes, *, source: str, envelope_from: str | None = None, clock: Clock = SYSTEM_CLOCK
) -> int:
    """Store one raw message durably and return its id."""
    with db.transaction() as session:
        return add_inbound(session, [raw], source=source, now=clock.now(), envelope_from=envelope_from)[0]


def add_inbound(
    session: Session, raws: list[bytes], *, source: str, now: datetime, envelope_from: str | None = None
) -> list[int]:
    """Add raw messages in the caller's transaction (the IMAP intake stores a fetched batch in one commit,
    together with how far it has read); returns their ids, in order."""
    if not raws:
        return []
    rows = [
        {
            "message_id": message_id_of(raw),
            "raw": raw,
            "source": source,
            "envelope_from": envelope_from,
            "status": MailStatus.RECEIVED,
            "received_at": now,
        }
        for raw in raws
    ]
    statement = insert(InboundMail).returning(InboundMail.id, sort_by_parameter_order=True)
    ids = list(session.scalars(statement, rows))
    for stored, row in zip(ids, rows, strict=True):
        log.info("mail %d %s: stored from %s", stored, row["message_id"] or "(no Message-ID)", source)
    return ids
