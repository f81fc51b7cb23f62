"""Building the judge's outgoing mail with `email.message.EmailMessage`, so that nothing a player wrote can
add a header: header values are single lines, and the library refuses anything else; and the words of a notice,
subject and text, from its template (`words`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.headerregistry import Group
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from typing import Any

from judge.config import Config
from judge.mail.policies import WRITING, set_text
from judge.render import notice_template, render

LOOP_HEADER = "X-Judge-Loop"


class TemplateError(ValueError):
    """A notice's template that sets no subject (a mistake in the template, never the mail's)."""


@dataclass(frozen=True)
class Words:
    """A notice as its template wrote it: the subject and the text."""

    subject: str
    text: str


def words(name: str, variant: str | None, /, **values: Any) -> Words:
    """The words of one notice, from `templates/notices/<name>.txt.j2` -- or the variant's own
    `templates/<variant>/notices/<name>.txt.j2`, where it has one. Every notice the judge sends of its own accord is
    written this way, so that a variant (or a judge's keeper editing the templates) changes any notice in one
    file, subject and all: the template sets its subject (`{% set subject %}...{% endset %}`, first) and its
    output is the text. Both are taken as values of the rendered template, never cut out of its words."""
    written = notice_template(f"notices/{name}.txt.j2", variant or None).make_module(values)
    subject = getattr(written, "subject", None)
    if not isinstance(subject, str) or not subject.strip():
        raise TemplateError(f"notices/{name}.txt.j2 must set its subject: {{% set subject %}}...{{% endset %}}")
    return Words(subject, str(written))


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


def press_heading(press: dict[str, Any], for_gm: bool, variant: str | None = None) -> str:
    """The line above a press message, in its own mail and in the results (`templates/press_heading.txt.j2`): who
    sent it (unless grey, but for the GM) and to whom; fake press as its readers are to see it, the truth to the GM."""
    values = {
        "sender": press["sender"],
        "recipients": press["recipients"],
        "grey": bool(press.get("grey")),
        "shown_sender": press.get("shown_sender"),
        "shown_recipients": press.get("shown_recipients"),
        "observer": press.get("observer"),
    }
    return render("press_heading.txt.j2", variant or None, for_gm=for_gm, **values)
