"""The mail benchmark: N order mails from the players of several games, appended to a real Dovecot, then timed
until every one is stored, checked against its game and answered (its reply queued) -- next to the raw IMAP
fetch-and-parse rate measured in the same run, the ceiling any judge reading that mailbox has."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import func, select

from judge.config import Config, ImapConfig, OutboundConfig, SmtpIntakeConfig, WebConfig
from judge.game import Games
from judge.passwords import verify_password
from judge.serve import Daemon
from judge.store import OutboundMail, OutboundStatus, Player, open_database
from judge.testing.dovecot import DovecotServer, dovecot_available
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.tables import OPENING_ORDERS, full_games

STALL_SECONDS = 600
"""the benchmark gives up (and says so) if the replies are not all sent by then"""


def _order_mail(address: str, game: str, power: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"] = address
    message["To"] = "judge@example.org"
    message["Subject"] = f"orders {n}"
    message["Message-ID"] = f"<bench{n}@example.org>"
    message.set_content(f"SIGNON {game} {power} pw\n{OPENING_ORDERS[power]}\n")
    return bytes(message)


@contextmanager
def _database_url(kind: str, folder: str) -> Iterator[str]:
    if kind == "SQLite":
        yield f"sqlite:///{Path(folder) / 'judge.sqlite'}"
        return
    with scratch_database() as url:
        yield url


def mail_benchmark(
    mails: int,
    games: int = 10,
    database: str = "SQLite",
    web: bool = False,
    reader: list[str] | None = None,
    reader_rate: float = 0.0,
) -> float | None:
    """The figures printed; the time every mail took to be answered, over the reference's measured in the same
    run, returned (None when skipped). With `web`, the
    judge serves its site too, and `reader` (a command given the site's address and `reader_rate`) reads it in
    another process all along (bench/web.py compares the two)."""
    problem = dovecot_available() or (postgres_problem() if database == "PostgreSQL" else None)
    if problem:
        print(f"mail ({database}): skipped ({problem})")
        return None
    with tempfile.TemporaryDirectory() as folder, DovecotServer() as dovecot, _database_url(database, folder) as url:
        db = open_database(url)
        players = full_games(Games(db), games)
        with db.transaction() as s:  # a judge that has been running has checked its players' passwords before
            for player in s.query(Player):
                verify_password("pw", player.password_hash)
        for n in range(mails):
            seat = players[n % len(players)]
            dovecot.append("judge", _order_mail(seat.address, seat.game, seat.power, n))

        # the reference: fetch every message and parse it, nothing else
        start = time.perf_counter()
        with dovecot.client() as imap:
            imap.select_folder("INBOX", readonly=True)
            uids = imap.search("ALL")
            for i in range(0, len(uids), 500):
                for data in imap.fetch(uids[i : i + 500], ["BODY.PEEK[]"]).values():
                    parsed = message_from_bytes(data[b"BODY[]"], policy=policy.default)
                    _ = parsed["From"], parsed["Subject"], parsed.get_body(("plain",))
        reference = time.perf_counter() - start

        config = Config(
            address="judge@example.org",
            rate_limit=10**9,  # the benchmark's players write more often than the limit lets anyone
            smtp_intake=SmtpIntakeConfig(enabled=False),
            web=WebConfig(enabled=web, port=0, secret_file=str(Path(folder) / "web-secret")),
            imap=ImapConfig(
                enabled=True, host=dovecot.host, port=dovecot.imap_port, security="plain", password="secret"
            ),
            outbound=OutboundConfig(outbox_dir=str(Path(folder) / "outbox")),
        )
        daemon = Daemon(config, db=db)  # the judge as `judge serve` runs it: intake, processor, sender, deadlines
        start = time.perf_counter()
        daemon.start()
        reading = None
        if reader is not None and daemon.web is not None:
            command = [*reader, daemon.web.url, str(reader_rate)]
            reading = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        answered = sent = 0
        took = 0.0
        give_up = start + STALL_SECONDS
        while sent < mails:
            if time.perf_counter() > give_up:  # a mail the judge could not answer: say so rather than hang
                daemon.shutdown()
                print(f"mail ({database}): stopped after {STALL_SECONDS} s with {sent} of {mails} replies sent")
                return None
            time.sleep(0.01)
            with db.transaction() as s:
                counts = dict(
                    s.execute(
                        select(OutboundMail.status, func.count())
                        .where(OutboundMail.kind == "reply")
                        .group_by(OutboundMail.status)
                    ).all()
                )
            sent = counts.get(OutboundStatus.SENT, 0)
            if not took and sum(counts.values()) >= mails:
                answered, took = sum(counts.values()), time.perf_counter() - start
        delivered = time.perf_counter() - start
        pages = 0
        if reading is not None:
            reading.terminate()
            out, _ = reading.communicate(timeout=30)
            pages = int(out.split()[-1]) if out.split() else 0
        daemon.shutdown()
    if reading is not None:
        print(f"  (the site was read {pages} times meanwhile: {pages / delivered:.1f} pages/s)")
    print(f"mail: {mails} order mails from {len(players)} players of {games} games, through Dovecot into {database}")
    print(f"  reference (IMAP fetch + parse only): {mails / reference:8,.0f} mails/s")
    print(f"  stored, checked and answered:        {answered / took:8,.0f} mails/s  "
          f"({took / reference:.1f} x the reference's time)")  # fmt: skip
    print(f"  ... and every reply sent (.eml):     {mails / delivered:8,.0f} mails/s  "
          f"({delivered / reference:.1f} x the reference's time)")  # fmt: skip
    return took / reference
