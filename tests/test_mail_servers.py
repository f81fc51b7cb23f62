"""The mail servers the tests use are real and behave as the judge will find them in production.

Dovecot over IMAP and LMTP, and an aiosmtpd relay over SMTP: if these fixtures lied, every mail test built on
them would prove nothing.
"""

from __future__ import annotations

import os
import smtplib
import socket
import time
import uuid
from pathlib import Path

import pytest
from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay

# bare LF line endings on purpose: Dovecot serves them back as CRLF
RAW = (
    b"From: Austria <austria@example.org>\n"
    b"To: judge@example.org\n"
    b"Subject: orders for Spring 1901\n"
    b"Message-ID: <s1901.austria@example.org>\n"
    b"\n"
    b"A vie - gal\n"
    b"A bud - ser\n"
    b"F tri H\n"
)


def _crlf(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def _fetch_all(imap: IMAPClient, folder: str) -> dict[int, bytes]:
    imap.select_folder(folder, readonly=True)
    uids = imap.search()
    if not uids:
        return {}
    return {uid: data[b"BODY[]"] for uid, data in imap.fetch(uids, ["BODY.PEEK[]"]).items()}


def test_append_and_fetch_back_unchanged(mailbox: DovecotServer) -> None:
    uid = mailbox.append("judge", RAW)
    with mailbox.client() as imap:
        imap.select_folder("INBOX")
        assert imap.search() == [uid]
        fetched = imap.fetch([uid], ["BODY.PEEK[]", "FLAGS"])[uid]
        assert fetched[b"BODY[]"] == _crlf(RAW)
        assert b"\\Seen" not in fetched[b"FLAGS"]  # PEEK leaves unread mail unread


def test_folders_exist_and_are_subscribed(mailbox: DovecotServer) -> None:
    with mailbox.client() as imap:
        names = {name for _, _, name in imap.list_folders()}
        subscribed = {name for _, _, name in imap.list_sub_folders()}
    assert {"INBOX", "Processed", "Shunted"} <= names
    assert {"Processed", "Shunted"} <= subscribed


def test_move_to_processed(mailbox: DovecotServer) -> None:
    uid = mailbox.append("judge", RAW)
    with mailbox.client() as imap:
        imap.select_folder("INBOX")
        imap.move([uid], "Processed")
        assert _fetch_all(imap, "INBOX") == {}
        assert list(_fetch_all(imap, "Processed").values()) == [_crlf(RAW)]


def test_mailbox_fixture_starts_empty(mailbox: DovecotServer) -> None:
    with mailbox.client() as imap:
        for folder in ("INBOX", "Processed", "Shunted"):
            assert _fetch_all(imap, folder) == {}
    # leave mail everywhere: the next test's fixture must clear it
    for folder in ("INBOX", "Processed", "Shunted"):
        mailbox.append("judge", RAW, folder)


def test_mailbox_fixture_empties_what_the_last_test_left(mailbox: DovecotServer) -> None:
    test_mailbox_fixture_starts_empty(mailbox)


def test_idle_notices_new_mail(mailbox: DovecotServer) -> None:
    with mailbox.client() as imap:
        imap.select_folder("INBOX")
        imap.idle()
        try:
            mailbox.append("judge", RAW)
            # Dovecot wakes an idling client ~0.5 s after new mail: allow several seconds
            deadline = time.monotonic() + 5
            responses: list[tuple[int, bytes]] = []
            while time.monotonic() < deadline and not any(r[1] == b"EXISTS" for r in responses):
                responses += imap.idle_check(timeout=1)
        finally:
            imap.idle_done()
    assert (1, b"EXISTS") in responses


def test_lmtp_delivery_lands_in_inbox(mailbox: DovecotServer) -> None:
    with smtplib.LMTP(mailbox.host, mailbox.lmtp_port) as lmtp:
        refused = lmtp.sendmail("austria@example.org", ["judge@localhost"], _crlf(RAW))
    assert refused == {}
    with mailbox.client() as imap:
        (body,) = _fetch_all(imap, "INBOX").values()
    assert body.endswith(_crlf(RAW))  # LMTP adds Return-Path and Delivered-To on top


def test_lmtp_refuses_an_unknown_user(mailbox: DovecotServer) -> None:
    with (
        smtplib.LMTP(mailbox.host, mailbox.lmtp_port) as lmtp,
        pytest.raises(smtplib.SMTPRecipientsRefused),
    ):
        lmtp.sendmail("austria@example.org", ["nobody-here@localhost"], _crlf(RAW))


def test_wrong_password_is_refused(mailbox: DovecotServer) -> None:
    with pytest.raises(LoginError):
        mailbox.client("judge", "not-the-password")


def test_added_user_has_own_mail_at_once(mailbox: DovecotServer) -> None:
    with mailbox.client():
        pass  # a login just before: a shared passwd-file would not be re-read within this second
    name = f"gm{uuid.uuid4().hex[:8]}"
    mailbox.add_user(name, "pw")
    mailbox.append(name, RAW)
    with mailbox.client(name, "pw") as imap:
        assert list(_fetch_all(imap, "INBOX").values()) == [_crlf(RAW)]
    with mailbox.client() as imap:
        assert _fetch_all(imap, "INBOX") == {}


def test_relay_receives_what_smtplib_sends(smtp_relay: SmtpRelay) -> None:
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port) as smtp:
        smtp.sendmail("judge@example.org", ["austria@example.org", "gm@example.org"], _crlf(RAW))
    (message,) = smtp_relay.wait_for(1)
    assert message.mail_from == "judge@example.org"
    assert message.rcpt_tos == ("austria@example.org", "gm@example.org")
    assert message.data == _crlf(RAW)
    smtp_relay.clear()
    assert smtp_relay.messages == []


def test_relay_keeps_dots_and_eight_bit_bytes(smtp_relay: SmtpRelay) -> None:
    raw = b"Subject: r\xc3\xa9sultats\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n.\r\n..x\r\nM\xc3\xbcnchen\r\n"
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port) as smtp:
        smtp.sendmail("judge@example.org", ["gm@example.org"], raw)
    assert smtp_relay.wait_for(1)[0].data == raw


@pytest.mark.parametrize("at", ["DATA", "RCPT"])
def test_fail_next_refuses_exactly_once(smtp_relay: SmtpRelay, at: str) -> None:
    smtp_relay.fail_next(451, "4.3.0 Try again later", at="DATA" if at == "DATA" else "RCPT")
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port) as smtp:
        if at == "DATA":
            with pytest.raises(smtplib.SMTPDataError) as data_error:
                smtp.sendmail("judge@example.org", ["gm@example.org"], _crlf(RAW))
            assert data_error.value.smtp_code == 451
            assert data_error.value.smtp_error == b"4.3.0 Try again later"
        else:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as rcpt_error:
                smtp.sendmail("judge@example.org", ["gm@example.org"], _crlf(RAW))
            assert rcpt_error.value.recipients == {"gm@example.org": (451, b"4.3.0 Try again later")}
        smtp.rset()
        smtp.sendmail("judge@example.org", ["gm@example.org"], _crlf(RAW))
    (message,) = smtp_relay.wait_for(1)
    assert message.rcpt_tos == ("gm@example.org",)
    time.sleep(0.05)
    assert len(smtp_relay.messages) == 1


def test_wait_for_times_out(smtp_relay: SmtpRelay) -> None:
    with pytest.raises(TimeoutError):
        smtp_relay.wait_for(1, timeout=0.1)


def _alive(pid: int) -> bool:
    """True if the pid runs (a zombie, or a pid now free, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def _port_free(port: int) -> bool:
    """True if nothing listens on the port (connections left in TIME_WAIT do not count, as for any server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _instance_processes(directory: Path) -> list[int]:
    """Pids whose command line names the instance's directory (the master names its config)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                cmdline = Path(entry.path, "cmdline").read_bytes()
            except OSError:
                continue
            if str(directory).encode() in cmdline:
                found.append(int(entry.name))
    return found


def test_start_stop_twice_leaves_no_process(dovecot: DovecotServer) -> None:
    # `dovecot` (the session server) only gates this on Dovecot being installed; a second instance runs beside it
    server = DovecotServer()
    for _ in range(2):
        server.start()
        directory, pgid = server.directory, server.pgid
        assert directory is not None
        pids = server.processes()
        assert pgid in pids and len(pids) > 2  # master, log, config, auth, anvil, login, lmtp...
        ports = (server.imap_port, server.lmtp_port)
        with server.client() as imap:
            imap.noop()
        server.stop()
        assert [pid for pid in pids if _alive(pid)] == []
        assert _instance_processes(directory) == []
        assert all(_port_free(port) for port in ports)
        assert not directory.exists()
    with dovecot.client() as imap:  # the other instance is untouched
        imap.noop()
