"""A judge on a real database for tests and the docs' example sessions: mail goes in as raw bytes through the real
processor and commands, replies and every other mail come out of the outbound queue."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy import select

from judge.clock import FakeClock
from judge.commands import answer_mail
from judge.config import Config
from judge.mail.inbox import store_inbound
from judge.mail.processor import Processor
from judge.store import Database, OutboundMail
from judge.testing.tables import POWERS

CONFIG = Config(address="judge@example.org", name="testjudge", admin="admin@example.org", pictures=False)
"""the map pictures are off here (tests/test_map_by_mail.py has them on): these tests read the results' text"""


class Judge:
    """A judge on a real SQLite file: mail goes in as raw bytes, replies come out of the outbound queue."""

    def __init__(self, db: Database, config: Config = CONFIG) -> None:
        self.db = db
        self.clock = FakeClock()
        self.processor = Processor(db, config, self.clock, handler=answer_mail)
        self.count = 0

    def mail(self, sender: str, body: str, subject: str = "orders", extra: dict[str, str] | None = None) -> str:
        """Send one mail; return the reply's text."""
        stored = self.store(sender, body, subject, extra)
        self.processor.process_pending()
        return self.reply_to(stored)

    def store(self, sender: str, body: str, subject: str = "orders", extra: dict[str, str] | None = None) -> int:
        """Store one mail without processing it; return its id."""
        self.count += 1
        message = EmailMessage()
        message["From"] = sender
        message["To"] = CONFIG.address
        message["Subject"] = subject
        message["Message-ID"] = f"<m{self.count}@example.org>"
        for key, value in (extra or {}).items():
            message[key] = value
        message.set_content(body)
        return store_inbound(self.db, bytes(message), source="smtp", envelope_from=sender, clock=self.clock)

    def raw(self, raw: bytes, sender: str) -> str:
        stored = store_inbound(self.db, raw, source="smtp", envelope_from=sender, clock=self.clock)
        self.processor.process_pending()
        return self.reply_to(stored)

    def reply_to(self, inbound_id: int) -> str:
        """The reply's text (its text part, where a picture is attached: MAP, PREVIEW)."""
        replies = self.outbound(kind="reply", inbound_id=inbound_id)
        if not replies:
            return ""
        body = replies[0].get_body(preferencelist=("plain",))
        return body.get_content() if body is not None else ""

    def outbound(
        self, kind: str | None = None, inbound_id: int | None = None, to: str | None = None
    ) -> list[EmailMessage]:
        with self.db.transaction() as s:
            query = select(OutboundMail).order_by(OutboundMail.id)
            if kind:
                query = query.where(OutboundMail.kind == kind)
            if inbound_id is not None:
                query = query.where(OutboundMail.inbound_id == inbound_id)
            rows = s.scalars(query).all()
            found = [
                message_from_bytes(r.message, policy=policy.default) for r in rows if to is None or to in r.recipients
            ]
        return [m for m in found if isinstance(m, EmailMessage)]


def start_game(judge: Judge, game: str = "alpha", variant: str = "standard", players: tuple[str, ...] = POWERS) -> None:
    """A game created by the GM (gm@example.org, password gmpass; the game's password joinpw) and joined by one
    player a power named, each registered as <power>@example.org with the password <power>pw."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    assert "created" in judge.mail("gm@example.org", f"CREATE {game} {variant} joinpw")
    for power in players:
        address = f"{power.lower()}@example.org"
        judge.mail(address, f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(address, f"JOIN {game} joinpw {power}")
