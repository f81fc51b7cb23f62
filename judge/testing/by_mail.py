"""A judge run as `judge serve` runs it (IMAP intake from a real Dovecot mailbox, processor, sender, deadline keeper)
with its mail caught by a real SMTP relay: the rig for tests that play a game by mail as GMs and players would.

Each test module starts its own judge on a mailbox user of its own (`running_judge(dovecot, tmp, "gunboat")`), so
the modules' judges never read each other's mail and a module's fake clock moves only its own games' deadlines."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from judge.clock import SYSTEM_CLOCK, Clock
from judge.serve import Daemon
from judge.testing.configs import imap_judge_config
from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay
from judge.testing.tables import POWERS

_ids = itertools.count(1)
WAIT = 120.0
"""seconds a test waits for a mail: generous, for a machine busy with other work (a reply takes well under one)"""
POLL = 0.1
"""seconds between the judge's looks at its mailbox (`ImapConfig.poll_seconds`), IDLE or not"""


class MailJudge:
    """The judge behind a real mailbox and relay: `send` delivers a mail as the MTA would and returns the reply."""

    def __init__(self, dovecot: DovecotServer, relay: SmtpRelay, user: str = "judge", daemon: Daemon | None = None):
        self.dovecot = dovecot
        self.relay = relay
        self.user = user
        self.daemon = daemon
        """the running judge (its `clock`, its `db`), for a test that moves time or looks at what was kept"""

    def deliver(self, sender: str, body: str, subject: str = "orders") -> str:
        """Put one mail in the judge's mailbox; return its Message-ID."""
        message = EmailMessage()
        message["From"] = sender
        message["To"] = "judge@example.org"
        message["Subject"] = subject
        message_id = f"<t{next(_ids)}.{time.monotonic_ns()}@example.org>"
        message["Message-ID"] = message_id
        message.set_content(body)
        self.dovecot.append(self.user, bytes(message))
        return message_id

    def send(self, sender: str, body: str, subject: str = "orders") -> str:
        """Deliver a mail and wait for the judge's reply to it (its In-Reply-To names the mail)."""
        message_id = self.deliver(sender, body, subject)
        until = time.monotonic() + WAIT
        while time.monotonic() < until:
            for mail in self.mails(to=sender):
                if mail["In-Reply-To"] == message_id:
                    return str(mail.get_content())
            time.sleep(0.05)
        raise AssertionError(f"no reply to {body[:60]!r}")

    def mails(self, to: str | None = None, subject: str = "") -> list[EmailMessage]:
        """Every mail the judge sent (to `to`, with `subject` in its subject), oldest first."""
        found = []
        for item in self.relay.messages:
            if to is not None and to not in item.rcpt_tos:
                continue
            parsed = message_from_bytes(item.data, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            if subject in str(parsed["Subject"]):
                found.append(parsed)
        return found

    def wait_mails(self, to: str, subject: str, count: int = 1) -> list[EmailMessage]:
        """Wait until at least `count` such mails were sent; return them all."""
        until = time.monotonic() + WAIT
        while time.monotonic() < until:
            found = self.mails(to=to, subject=subject)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no mail {subject!r} to {to}")

    def game(self, name: str, variant: str = "standard", options: str = "") -> None:
        """A game with seven registered players who have joined; it has started."""
        self.send("gm@example.org", "REGISTER The GM gmpass")
        assert "created" in self.send("gm@example.org", f"CREATE {name} {variant} joinpw {options}".strip())
        for power in POWERS:
            address = self.player(name, power)
            self.send(address, f"REGISTER {power} Player of {name} {power.lower()}pw\nJOIN {name} joinpw {power}")

    @staticmethod
    def player(name: str, power: str) -> str:
        """The address `game` gives the player of `power` in game `name`."""
        return f"{power.lower()}.{name}@example.org"


@contextmanager
def running_judge(
    dovecot: DovecotServer, directory: Path, user: str, clock: Clock = SYSTEM_CLOCK, pictures: bool = False
) -> Iterator[MailJudge]:
    """A judge on its own SQLite file in `directory`, reading mailbox `user` (added to Dovecot if new), its mail
    caught by a relay of its own; stopped on leaving."""
    if user not in dovecot.users:
        dovecot.add_user(user, f"{user}-secret")
    dovecot.expunge_all(user)
    with SmtpRelay() as relay:
        database = f"sqlite:///{directory / 'judge.sqlite'}"
        # polled every 0.1 s besides IDLE: Dovecot tells an idling client of new mail only about half a second after
        # it came (it gathers changes first), and a game played by mail waits for that once a mail -- most of such a
        # module's time (test_gm_by_mail: 181 s with 0.5 s polls, 73 s with these; its CPU 53 s then, 42 s now)
        config = imap_judge_config(
            dovecot, relay.port, database, poll_seconds=POLL, rate_limit=1000, pictures=pictures, user=user
        )
        daemon = Daemon(config, clock)
        daemon.start()
        try:
            yield MailJudge(dovecot, relay, user, daemon)
        finally:
            daemon.shutdown()
