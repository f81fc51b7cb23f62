"""The judge's settings for a test that runs it as `judge serve` does, between a real Dovecot mailbox (mail in,
by IMAP) and a real SMTP relay (mail out)."""

from __future__ import annotations

from judge.config import Config, ImapConfig, OutboundConfig, SmtpIntakeConfig, WebConfig
from judge.testing.dovecot import DovecotServer


def imap_judge_config(
    dovecot: DovecotServer,
    relay_port: int,
    database_url: str,
    poll_seconds: float = 1.0,
    rate_limit: int = 30,
    pictures: bool = True,
    user: str = "judge",
) -> Config:
    return Config(
        address="judge@example.org",
        name="testjudge",
        pictures=pictures,
        database_url=database_url,
        rate_limit=rate_limit,
        smtp_intake=SmtpIntakeConfig(enabled=False),
        web=WebConfig(enabled=False),
        imap=ImapConfig(
            enabled=True,
            host=dovecot.host,
            port=dovecot.imap_port,
            security="plain",
            user=user,
            password=dovecot.users[user],
            poll_seconds=poll_seconds,
        ),
        outbound=OutboundConfig(relay_host="127.0.0.1", relay_port=relay_port, relay_security="plain"),
    )
