"""A corpus of malformed and hostile mail through the real processor: every one is answered or logged as
ignored, none is shunted, none stops the processor, and no header comes from a player."""

from __future__ import annotations

import os
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.clock import FakeClock
from judge.commands import answer_mail
from judge.config import Config
from judge.mail.inbox import sender_of, store_inbound
from judge.mail.processor import Processor
from judge.mail.reading import read_mail
from judge.store import InboundMail, MailStatus, OutboundMail, open_database

CONFIG = Config(address="judge@example.org", name="testjudge", pictures=False)


def _big_attachment() -> bytes:
    message = EmailMessage()
    message["From"] = "big@example.org"
    message["Subject"] = "with a map"
    message.set_content("HELP")
    message.add_attachment(os.urandom(5_000_000), maintype="image", subtype="png", filename="map.png")
    return bytes(message)


CORPUS: dict[str, bytes] = {
    "truncated MIME": b'From: a@example.org\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
    b"Content-Type: text/plain\r\n\r\nHELP\r\n--b\r\nContent-Type: text/plain\r\n\r\nLIST",
    "a charset that does not exist": b"From: b@example.org\r\nContent-Type: text/plain; charset=x-klingon\r\n"
    b"\r\nHELP\r\n",
    "latin-1 bytes declared as utf-8": b"From: c@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"\r\nHELP \xe9\xe8\r\n",
    "an empty body": b"From: d@example.org\r\nSubject: nothing\r\n\r\n",
    "no headers at all": b"HELP\r\n",
    "binary noise": os.urandom(4096),
    "NUL bytes": b"From: e@example.org\r\n\r\nHE\x00LP\r\nSIGNON x y \x00z\r\n",
    "a 5 MB attachment": _big_attachment(),
    "header injection in the subject": b"From: f@example.org\r\n"
    b"Subject: =?utf-8?q?hi=0D=0ABcc:_victim@example.org?=\r\n\r\nHELP\r\n",
    "header injection in the address": b'From: "x\\r\\nBcc: victim@example.org" <g@example.org>\r\n\r\nHELP\r\n',
    "an endless line": b"From: h@example.org\r\n\r\n" + b"A" * 2_000_000 + b"\r\n",
    "ten thousand lines": b"From: i@example.org\r\n\r\n" + b"A par H\r\n" * 10_000,
    "a bounce": b"From: MAILER-DAEMON@example.org\r\nContent-Type: multipart/report; report-type=delivery-status;"
    b' boundary="r"\r\n\r\n--r\r\n\r\nfailed\r\n--r--\r\n',
    "our own mail coming back": b"From: judge@example.org\r\nX-Judge-Loop: testjudge\r\n\r\nHELP\r\n",
}


@pytest.fixture(scope="module")
def handled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[EmailMessage]]]:
    path: Path = tmp_path_factory.mktemp("corpus") / "judge.sqlite"
    db = open_database(f"sqlite:///{path}")
    clock = FakeClock()
    ids = {name: store_inbound(db, raw, source="smtp", clock=clock) for name, raw in CORPUS.items()}
    Processor(db, CONFIG, clock, handler=answer_mail).process_pending()
    outcome = {}
    with db.transaction() as s:
        for name, inbound in ids.items():
            row = s.get(InboundMail, inbound)
            assert row is not None
            replies = s.scalars(select(OutboundMail.message).where(OutboundMail.inbound_id == inbound)).all()
            parsed = [message_from_bytes(r, policy=policy.default) for r in replies]
            outcome[name] = (row.status, [p for p in parsed if isinstance(p, EmailMessage)])
    db.dispose()
    return outcome


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_mail_is_answered_or_logged_and_none_is_shunted(
    name: str, handled: dict[str, tuple[str, list[EmailMessage]]]
) -> None:
    status, replies = handled[name]
    assert status in (MailStatus.PROCESSED, MailStatus.IGNORED)
    assert len(replies) == (1 if status == MailStatus.PROCESSED else 0)
    for reply in replies:
        assert reply["Bcc"] is None and "victim" not in str(reply["To"])


def test_bounces_and_our_own_mail_are_logged_not_answered(
    handled: dict[str, tuple[str, list[EmailMessage]]],
) -> None:
    assert handled["a bounce"][0] == MailStatus.IGNORED
    assert handled["our own mail coming back"][0] == MailStatus.IGNORED


def test_a_long_mail_is_answered_with_a_note_that_only_its_start_was_read(
    handled: dict[str, tuple[str, list[EmailMessage]]],
) -> None:
    status, replies = handled["ten thousand lines"]
    assert status == MailStatus.PROCESSED
    assert "only its beginning was read" in replies[0].get_content()


_REST = b"\r\nSubject: x\r\n\r\nHELP\r\n"
FROM_HEADERS = [
    b"From: Bob <Bob@Example.org>",
    b"From: bob@example.org",
    b'From: "Smith, Bob" <bob@example.org>',
    b"From: =?utf-8?q?J=C3=BCrgen?= <j@example.de>",
    b"From: Bob\r\n <bob@example.org>",
    b"From: a@example.org, b@example.org",
    b"From: a@example.org\r\nFrom: b@example.org",
    b"From: not an address",
    b"FROM: <bob@EXAMPLE.org>",
    b"From: bob@example.org (Bob)",
    b"Subject: no sender at all",
]


@pytest.mark.parametrize("raw", [*CORPUS.values(), *(head + _REST for head in FROM_HEADERS)])
def test_the_sender_stored_with_a_mail_is_the_sender_the_processor_reads(raw: bytes) -> None:
    """Each sender's mail keeps its order across processes by the sender stored at intake: it must be the one the
    processor answers."""
    assert sender_of(raw) == read_mail(raw, own_address=CONFIG.address).sender
