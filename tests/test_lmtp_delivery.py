"""The delivering relay the rush bench times mail with (`judge.testing.lmtp_delivery`): a real aiosmtpd relay that
accepts a message and delivers it over LMTP into a real Dovecot, one copy in each recipient's mailbox."""

from __future__ import annotations

import smtplib
import uuid
from collections.abc import Iterator

import pytest

from judge.testing.dovecot import DovecotServer
from judge.testing.lmtp_delivery import LmtpDelivery
from judge.testing.smtp_relay import SmtpRelay

RAW = (
    b"From: Judge <judge@example.org>\r\n"
    b"To: alpha results:;\r\n"
    b"Subject: alpha S1901M: results of Spring 1901 movement\r\n"
    b"\r\n"
    b"Austria: A Vienna -> Galicia.\r\n"
    b". a line that begins with a dot\r\n"
)


@pytest.fixture
def readers(dovecot: DovecotServer) -> list[str]:
    """Three new users of the session's Dovecot, as addresses (LMTP delivers an address to its local part)."""
    names = [f"reader{n}-{uuid.uuid4().hex[:8]}" for n in range(3)]
    dovecot.add_users(dict.fromkeys(names, "pw"))
    return [f"{name}@example.org" for name in names]


@pytest.fixture
def relay(dovecot: DovecotServer) -> Iterator[tuple[SmtpRelay, LmtpDelivery]]:
    with LmtpDelivery(dovecot.host, dovecot.lmtp_port, connections=2) as delivery, SmtpRelay(delivery) as relay:
        yield relay, delivery


def test_a_message_for_three_recipients_lands_in_three_mailboxes(
    dovecot: DovecotServer, readers: list[str], relay: tuple[SmtpRelay, LmtpDelivery]
) -> None:
    smtp_relay, delivery = relay
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port) as smtp:
        assert smtp.sendmail("judge@example.org", readers, RAW) == {}
    [delivered] = delivery.wait_delivered(1)
    assert [copy.recipient for copy in delivered.copies] == readers
    assert all(copy.saved for copy in delivered.copies)
    assert delivered.at >= smtp_relay.messages[0].at  # accepted first, then delivered
    assert dovecot.message_counts(readers) == dict.fromkeys(readers, 1)
    for reader in readers:
        with dovecot.client(reader.split("@")[0], "pw") as imap:
            imap.select_folder("INBOX")
            [(_, data)] = imap.fetch(imap.search("ALL"), ["BODY[]"]).items()
        assert data[b"BODY[]"].endswith(RAW)  # LMTP adds Return-Path and Delivered-To on top


def test_a_recipient_the_mail_server_does_not_know_is_refused_and_the_others_get_their_copy(
    dovecot: DovecotServer, readers: list[str], relay: tuple[SmtpRelay, LmtpDelivery]
) -> None:
    smtp_relay, delivery = relay
    stranger = f"nobody-{uuid.uuid4().hex[:8]}@example.org"
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port) as smtp:
        smtp.sendmail("judge@example.org", [readers[0], stranger, readers[1]], RAW)
    [delivered] = delivery.wait_delivered(1)
    assert [(copy.recipient, copy.saved) for copy in delivered.copies] == [
        (readers[0], True),
        (stranger, False),
        (readers[1], True),
    ]
    assert dovecot.message_counts(readers) == {readers[0]: 1, readers[1]: 1, readers[2]: 0}
