"""What the mail processor asks of whoever reads a mail's commands, and what it gets back.

The processor stores, orders and answers mail; the commands (`judge.commands`) read it. The daemon hands the
processor the commands' entry point (`Handler`), so the mail package knows the shape of a request and of an answer,
and nothing of the commands themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from judge.config import Config
from judge.game import Games

MAX_SECTIONS = 200
"""answers in one reply; a mail of more lines is answered for the first ones and the rest are counted"""


@dataclass
class Section:
    """One command line of the mail and what the judge did with it."""

    line: str
    output: list[str]
    failed: bool = False


@dataclass(frozen=True)
class Request:
    """A stored mail, read: who sent it, when, and its lines."""

    sender: str
    lines: list[str]
    now: datetime
    message_id: str | None = None
    received_at: datetime | None = None
    """when the mail was stored (a GM's PROCESS acts on the phase current then)"""


@dataclass(frozen=True)
class Part:
    """A later mail of a long answer (HISTORY over a range): the command line it answers and its lines. The reply
    is the first mail; each part is queued with it, in the same transaction, as one more reply to the same mail."""

    line: str
    lines: list[str]


@dataclass
class Answer:
    """The reply's content: one section a command line, files to attach, and the game the reply is about. What the
    commands changed is said by the events raised on the `Games` they were given."""

    sections: list[Section] = field(default_factory=list)
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    game: str | None = None
    phase: str | None = None
    unanswered: int = 0
    """lines past the reply's limit, answered only by their count"""
    on_file: list[list[str]] = field(default_factory=list)
    """what the reply ends with: for each side a player signed on to, its orders now on file (`judge.game.on_file`,
    worded by `templates/on_file.txt.j2`)"""
    parts: list[Part] = field(default_factory=list)
    """the later mails of the answer, in order (the reply says it is the first of them all)"""


class Handler(Protocol):
    def __call__(self, games: Games, config: Config, request: Request) -> Answer: ...
