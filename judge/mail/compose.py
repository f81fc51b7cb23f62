"""Building the judge's outgoing mail with `email.message.EmailMessage`, so that nothing a player wrote can
add a header: header values are single lines, and the library refuses anything else."""

from __future__ import annotations

from datetime import UTC, datetime
from email.headerregistry import Group
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid

from judge.config import Config
from judge.mail.policies import WRITING, set_text

LOOP_HEADER = "X-Judge-Loop"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _base(config: Config, to: str | Group, subject: str, body: str) -> EmailMessage:
    message = EmailMessage(policy=WRITING)
    message["From"] = formataddr((config.name, config.address))
    message["To"] = to
    message["Subject"] = _one_line(subject)[:200]
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(domain=config.address.partition("@")[2] or "localhost")
    message[LOOP_HEADER] = config.name
    set_text(message, body)
    return message


def reply(
    config: Config, to: str, subject: str, body: str, in_reply_to: str | None, references: list[str]
) -> EmailMessage:
    """The answer to a player's mail: marked as an automatic reply, threaded under the mail it answers."""
    message = _base(config, to, subject, body)
    message["Auto-Submitted"] = "auto-replied"
    if in_reply_to:
        message["In-Reply-To"] = _one_line(in_reply_to)
        message["References"] = _one_line(" ".join([*references, in_reply_to])[-900:])
    return message


def notice(config: Config, to: str | Group, subject: str, body: str, kind: str = "auto-generated") -> EmailMessage:
    """Mail the judge sends of its own accord (results, press, notices); `to` a `Group` for mail to several people
    whose addresses none of them is shown (the envelope names them: `judge.mail.announce`)."""
    message = _base(config, to, subject, body)
    message["Auto-Submitted"] = kind
    return message
