"""The judge as players meet it: mail in through a real IMAP server (Dovecot), mail out through a real SMTP relay
(aiosmtpd), a real database, the whole daemon running -- and a daemon killed mid-batch and restarted."""

from __future__ import annotations

import os
import signal
import smtplib
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.clock import SYSTEM_CLOCK
from judge.game import Games
from judge.mail.inbox import store_inbound
from judge.mail.processor import BATCH
from judge.serve import Daemon
from judge.store import OrderSet, OutboundMail, open_database
from judge.testing.configs import imap_judge_config
from judge.testing.dovecot import DovecotServer, free_port
from judge.testing.smtp_relay import ReceivedMessage, SmtpRelay
from judge.testing.tables import OPENING_ORDERS, POWERS, full_games

pytestmark = pytest.mark.slow  # end to end: real servers, whole games (make test-fast skips them)


def _mail(sender: str, body: str, subject: str = "orders", html: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = subject
    message.set_content(body)
    if html is not None:
        message.add_alternative(html, subtype="html")
    return bytes(message)


def _parsed(received: list[ReceivedMessage], to: str) -> list[EmailMessage]:
    found = []
    for item in received:
        if to in item.rcpt_tos:
            parsed = message_from_bytes(item.data, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            found.append(parsed)
    return found


def _texts(received: list[ReceivedMessage], to: str) -> list[str]:
    """Each mail's subject and text part (a results mail also carries the map as a PNG)."""
    texts = []
    for parsed in _parsed(received, to):
        body = parsed.get_body(("plain",))
        assert body is not None
        texts.append(f"{parsed['Subject']}\n{body.get_content()}")
    return texts


def test_a_game_created_joined_ordered_and_processed_entirely_by_mail(
    mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path
) -> None:
    config = imap_judge_config(mailbox, smtp_relay.port, f"sqlite:///{tmp_path / 'judge.sqlite'}")
    daemon = Daemon(config)
    daemon.start()
    try:
        deliver = lambda raw: mailbox.append("judge", raw)  # noqa: E731  (what the MTA does)
        deliver(_mail("gm@example.org", "REGISTER The GM gmpass\nCREATE alpha standard letmein"))
        for power in POWERS:
            address = f"{power.lower()}@example.org"
            deliver(_mail(address, f"REGISTER {power} Player {power.lower()}pw\nJOIN alpha letmein {power}"))
        smtp_relay.wait_for(8 + 8, timeout=60)  # 8 replies; the game-start mail to the 7 players and the GM
        for power in POWERS:
            address = f"{power.lower()}@example.org"
            body = f"SIGNON alpha {power} {power.lower()}pw\n{OPENING_ORDERS[power]}"
            if power == "France":  # an order with an error
                body += "\nA pic - xyz"
            if power == "Italy":  # an HTML mail
                deliver(_mail(address, "", html="<p>" + body.replace("\n", "<br>") + "</p>"))
                continue
            if power == "Turkey":  # a reply with the old mail quoted under it
                body += "\n\nOn Sunday, testjudge wrote:\n> SIGNON alpha Turkey turkeypw\n> A con - smy"
            deliver(_mail(address, body))
        smtp_relay.wait_for(8 + 8 + 7, timeout=60)
        received = smtp_relay.messages
        france = _texts(received, "france@example.org")[-1]
        assert "-> A par - bur" in france and "'xyz' is not a place" in france
        assert "-> A ven H" in _texts(received, "italy@example.org")[-1]
        turkey = _texts(received, "turkey@example.org")[-1]
        assert "-> A con - bul" in turkey and "smy -> " not in turkey.split("(orders)")[1].split("Orders filed")[0]
        before = len(smtp_relay.messages)
        deliver(_mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS"))
        received = smtp_relay.wait_for(before + 1 + 1, timeout=60)  # the reply; one results mail for all eight
        for power in POWERS:
            results = [t for t in _texts(received, f"{power.lower()}@example.org") if "results of Spring 1901" in t]
            assert len(results) == 1, power
            assert "France:   A Par - Bur" in results[0] and ":: Phase: S1901M" in results[0]
        sheet = next(m for m in _parsed(received, "england@example.org") if "results of Spring 1901" in m["Subject"])
        pictures = [part for part in sheet.iter_attachments() if part.get_content_type() == "image/png"]
        assert [p.get_filename() for p in pictures] == ["alpha-S1901M.png"]  # the map, through a real relay
        assert pictures[0].get_content().startswith(b"\x89PNG")
        _fall_is_processed_at_its_deadline_without_russia(deliver, smtp_relay)
    finally:
        daemon.shutdown()


FALL_ORDERS = {
    "Austria": "A ser H",
    "England": "F nth H",
    "France": "A bur - mun",
    "Germany": "A ruh H",
    "Italy": "A ven H",
    "Turkey": "A bul H",
}


def _fall_is_processed_at_its_deadline_without_russia(deliver: Callable[[bytes], None], relay: SmtpRelay) -> None:
    """The scheduler, not the GM, processes Fall 1901 when its deadline passes; Russia sent nothing."""
    deadline = (datetime.now(UTC) + timedelta(seconds=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    deliver(_mail("gm@example.org", f"SIGNON alpha MASTER gmpass\nSET DEADLINE {deadline}"))
    for power, orders in FALL_ORDERS.items():
        deliver(_mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\n{orders}"))
    give_up = time.monotonic() + 60
    while True:
        results = [t for t in _texts(relay.messages, "russia@example.org") if "results of Fall 1901" in t]
        if results or time.monotonic() > give_up:
            break
        time.sleep(0.2)
    assert results, "Fall 1901 was not processed at its deadline"
    sheet = results[0]
    assert ":: Phase: F1901M" in sheet and "No orders were received from Russia." in sheet
    assert "Russia:   A War H  (*unordered*)" in sheet
    assert "France:   A Bur - Mun" in sheet and "France:   Bre, Mar, Mun, Par, Spa" in sheet
    late = [t for t in _texts(relay.messages, "russia@example.org") if "late" in t.lower().split("\n")[0]]
    assert late, "Russia was not told its orders were late"


def _daemon(config_file: Path, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "judge", "--config", str(config_file), "serve"],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=open(cwd / "serve.log", "ab"),
        start_new_session=True,
    )


def test_a_judge_killed_mid_batch_loses_no_order_and_answers_each_mail_once(tmp_path: Path) -> None:
    """525 order mails, three of the processor's batches (BATCH, 250 in one transaction): the judge is killed
    (SIGKILL) once the first batch is committed and while it holds the second, claimed and half done; the judge
    started again takes the dead one's claim back and the third batch too. Every order is on file once, every
    mail answered once.

    What it costs is kept to that: the players share one stored digest of their password (`hashed_once`), so
    neither the table nor the judge checking each player's SIGNON spends scrypt's 60 ms a player; and the games are
    on manual timing, so the keeper has nothing to adjudicate once every order is in (no picture, no results)."""
    database = tmp_path / "judge.sqlite"
    config_file = tmp_path / "judge.toml"
    config_file.write_text(
        f'[judge]\naddress = "judge@example.org"\n[database]\nurl = "sqlite:///{database}"\n'
        f'[intake.smtp]\nenabled = false\n[outbound]\noutbox_dir = "{tmp_path / "outbox"}"\n',
        encoding="utf-8",
    )
    db = open_database(f"sqlite:///{database}")
    games = 75  # 525 players, one order mail each: three of the processor's batches of 250 (BATCH)
    players = full_games(Games(db), games, settings=[("timing.manual", "on")], hashed_once=True)
    for seat in players:
        body = f"SIGNON {seat.game} {seat.power} pw\n{OPENING_ORDERS[seat.power]}"
        store_inbound(db, _mail(seat.address, body), source="smtp", clock=SYSTEM_CLOCK)
    total = len(players)
    assert total > 2 * BATCH

    def count(status: str, tried: bool = False) -> int:
        # a plain reader: in WAL mode it never waits for the daemon's writes (an IMMEDIATE transaction would)
        with sqlite3.connect(database) as reader:
            (found,) = reader.execute(
                f"select count(*) from inbound_mail where status = ? and attempts {'>' if tried else '>='} 0",
                (status,),
            ).fetchone()
        return int(found)

    def processed() -> int:
        return count("processed")

    first = _daemon(config_file, tmp_path)
    deadline = time.monotonic() + 120
    # the first batch committed and the next claimed (its attempt counted, its work not): the middle of a batch
    while not (processed() and count("received", tried=True)) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    halfway, in_hand = processed(), count("received", tried=True)
    assert 0 < halfway < total and in_hand > 0, "the kill did not land in the middle of a batch"

    second = _daemon(config_file, tmp_path)
    try:
        deadline = time.monotonic() + 180
        while processed() < total and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)
    assert processed() == total
    with db.transaction() as s:
        sets = s.scalars(select(OrderSet)).all()
        assert Counter((o.game_id, o.power) for o in sets) == Counter(
            {k: 1 for k in {(o.game_id, o.power) for o in sets}}
        )
        assert len(sets) == total
        assert all(o.lines == OPENING_ORDERS[o.power].split("\n") for o in sets)
        replies = s.scalars(select(OutboundMail.recipients).where(OutboundMail.kind == "reply")).all()
    per_sender = Counter(r[0] for r in replies)
    assert set(per_sender.values()) == {1} and len(per_sender) == total
    db.dispose()


def test_a_judge_killed_while_the_relay_has_its_reply_sends_it_once_within_seconds_of_its_restart(
    smtp_relay: SmtpRelay, tmp_path: Path
) -> None:
    """Issue 18: a reply in flight when the judge is killed (SIGKILL, the relay holding its DATA) is not held for
    the claim's lease: the restarted judge takes the dead process's claim back at once and sends it, once."""
    intake = free_port()
    config_file = tmp_path / "judge.toml"
    config_file.write_text(
        f'[judge]\naddress = "judge@example.org"\n[database]\nurl = "sqlite:///{tmp_path / "judge.sqlite"}"\n'
        f"[intake.smtp]\nport = {intake}\n"
        f'[outbound]\nrelay_host = "127.0.0.1"\nrelay_port = {smtp_relay.port}\nrelay_security = "plain"\n',
        encoding="utf-8",
    )
    smtp_relay.hold()
    first = _daemon(config_file, tmp_path)
    try:
        _deliver_when_listening(intake, _mail("kill@example.org", "HELP"))
        smtp_relay.wait_held(timeout=60)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    smtp_relay.release()  # the held DATA is dropped: the relay never accepted it
    restarted = time.monotonic()
    second = _daemon(config_file, tmp_path)
    try:
        [reply] = smtp_relay.wait_for(1, timeout=30)
        took = time.monotonic() - restarted
        time.sleep(2)  # nothing more comes
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)
    assert reply.rcpt_tos == ("kill@example.org",)
    assert len(smtp_relay.messages) == 1
    assert took < 10, f"the reply came {took:.1f} s after the restart"


def _deliver_when_listening(port: int, raw: bytes, timeout: float = 30) -> None:
    give_up = time.monotonic() + timeout
    while True:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
                smtp.sendmail("kill@example.org", ["judge@example.org"], raw)
            return
        except OSError:
            if time.monotonic() > give_up:
                raise
            time.sleep(0.1)
