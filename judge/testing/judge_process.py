"""Real `judge serve` processes for the end-to-end tests: each started as an operator would, from its own settings
file naming the database, the IMAP mailbox (a private Dovecot) and the SMTP relay; killed or stopped by the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay


def order_mail(sender: str, body: str, message_id: str, subject: str = "judge") -> bytes:
    """A player's mail to the judge, as a mail program writes it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message.set_content(body)
    return bytes(message)


@dataclass
class Judge:
    """One `judge serve`, started as an operator would: its own config file naming the shared database (with an
    `application_name`, so `pg_stat_activity` tells the processes apart), mailbox and relay."""

    name: str
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.folder / f"{self.name}.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "judge", "--config", str(self.folder / f"{self.name}.toml"), "serve"],
            cwd=self.folder,
            env={**os.environ, "JUDGE_IMAP_PASSWORD": "secret"},
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
        log.close()

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)
            self.process = None

    def log(self) -> str:
        return (self.folder / f"{self.name}.log").read_text(errors="replace")


def judge_processes(
    folder: Path, url: str, dovecot: DovecotServer, relay: SmtpRelay, names: tuple[str, ...] = ("judge-a", "judge-b")
) -> list[Judge]:
    """A `Judge` for each name, each with its config file in `folder`: the one database, mailbox and relay."""
    judges = []
    for name in names:
        (folder / f"{name}.toml").write_text(
            f"""[judge]
address = "judge@example.org"
name = "testjudge"
admin = "admin@example.org"
[database]
url = "{url}?application_name={name}"
[intake.smtp]
enabled = false
[intake.imap]
enabled = true
host = "{dovecot.host}"
port = {dovecot.imap_port}
security = "plain"
user = "judge"
password_env = "JUDGE_IMAP_PASSWORD"
poll_seconds = 1
[outbound]
relay_host = "127.0.0.1"
relay_port = {relay.port}
relay_security = "plain"
""",
            encoding="utf-8",
        )
        judges.append(Judge(name, folder))
    return judges
