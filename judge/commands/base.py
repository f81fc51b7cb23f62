"""What every command shares: the registry, the context a mail is handled in, and the reply it builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from difflib import get_close_matches
from enum import Enum
from functools import lru_cache
from typing import ClassVar

from judge.config import Config
from judge.game import Games
from judge.mail.answer import MAX_SECTIONS, Section
from judge.notation.quoting import shorten


class CommandError(Exception):
    """A command that cannot be done; the message is the reply's explanation."""


class Role(Enum):
    """Who may send a command."""

    ANYONE = "anyone"
    PLAYER = "a signed-on player"
    MASTER = "the game's GM"
    SIGNED = "anyone signed on"
    SPEAKER = "anyone signed on, an observer too (SIGNON game OBSERVER password)"


@dataclass
class MailContext:
    games: Games
    config: Config
    sender: str
    now: datetime
    message_id: str | None = None
    received_at: datetime | None = None
    """when the mail was stored (a GM's PROCESS acts on the phase current then)"""
    processed_here: bool = False
    """a PROCESS earlier in this mail processed a phase (a later one goes on from there)"""
    game: str | None = None
    power: str | None = None
    """the power whose orders the following lines are (the signed-on power, or the one the GM became)"""
    master: bool = False
    """signed on as the game's GM"""
    as_address: str | None = None
    """the address of the signed-on player (the sender may write from another address)"""
    observing: str | None = None
    """the game an observer signed on to (`SIGNON game OBSERVER password`): he may send press, nothing else"""
    orders: list[str] = field(default_factory=list)
    later_phase: tuple[str, ...] | None = None
    """the words of the PHASE line the orders that follow are held for (a later phase), until the next PHASE,
    SIGNON, SIGNOFF or BECOME"""
    sections: list[Section] = field(default_factory=list)
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    """files the reply carries (the MAP command's picture), by file name"""
    game_of_reply: str | None = None
    phase_of_reply: str | None = None
    unanswered: int = 0
    """lines past the reply's limit, answered only by their count"""
    parts: list[list[str]] = field(default_factory=list)
    """the later mails of a long answer (HISTORY over a range: `judge.commands.archive`), each its lines; the first
    is the command's own answer in the reply"""
    part_of: list[str] = field(default_factory=list)
    """the quoted command line each of `parts` answers (`judge.commands.interpreter.run_command` fills it)"""
    signed_sides: list[tuple[str, str]] = field(default_factory=list)
    """(game, power) of each player's SIGNON in the mail, in order: the reply ends with each side's orders on file
    (`judge.game.on_file`)"""

    @property
    def signed_on(self) -> bool:
        return self.game is not None

    @property
    def is_master(self) -> bool:
        return self.master

    def say(self, line: str, output: list[str], failed: bool = False) -> None:
        """Answer one line. A reply never grows without bound: the quoted line is shortened (the judge's own
        answer never is: a refusal cut short would not say what to do), and past `MAX_SECTIONS` the rest are
        only counted. Output that quotes input shortens it where it quotes it (`judge.notation.quoting.shorten`)."""
        if len(self.sections) >= MAX_SECTIONS:
            self.unanswered += 1
            return
        self.sections.append(Section(shorten(line), list(output), failed))


class Command:
    """A mail command. `name` may be several words ("SET PASSWORD"); `role` says who may use it; `secrets` which
    of its arguments are secrets, blanked wherever the line is quoted (the reply, the log)."""

    name: ClassVar[str]
    usage: ClassVar[str]
    summary: ClassVar[str]
    example: ClassVar[str] = ""
    """a line as a player or GM would send it ("/" separates lines)"""
    role: ClassVar[Role] = Role.ANYONE
    secrets: ClassVar[tuple[int, ...]] = ()
    """the positions of its secret arguments (-1: the last); a position from `secrets_from` on is secret too"""
    secrets_from: ClassVar[int | None] = None
    takes_body: ClassVar[bool] = False
    """the lines after it, up to ENDPRESS, belong to it"""
    body_ends: ClassVar[tuple[str, ...]] = ()
    """other lines that end its body, and are then read as commands themselves (STATEMENT's SIGNOFF)"""

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        raise NotImplementedError

    @classmethod
    def masked(cls, line: str) -> str:
        """The line as it may be quoted: every secret argument blanked."""
        if not cls.secrets and cls.secrets_from is None:
            return line
        words = line.split()
        width = len(cls.name.split())
        args = words[width:]
        hidden = {i % len(args) for i in cls.secrets if -len(args) <= i < len(args)} if args else set()
        if cls.secrets_from is not None:
            hidden |= set(range(cls.secrets_from, len(args)))
        return " ".join([*words[:width], *("****" if i in hidden else a for i, a in enumerate(args))])


REGISTRY: dict[str, type[Command]] = {}


def command(cls: type[Command]) -> type[Command]:
    REGISTRY[cls.name] = cls
    return cls


def misspelt_secret(line: str) -> str | None:
    """The password-bearing command a line's first word looks like a misspelling of ("SINGON" -> SIGNON): such a
    line is never quoted whole."""
    words = line.split()
    if len(words) < 2:
        return None
    return _misspelling_of(words[0].upper(), len(REGISTRY))


@lru_cache(maxsize=4096)
def _misspelling_of(first: str, _commands: int) -> str | None:
    """The password-bearing command `first` is a misspelling of. Remembered: every order line ("A VIE - TRI") asks
    it of its first word, and the fuzzy match cost more than reading the order (`_commands`, the registry's size,
    keeps an answer from outliving a command registered after it)."""
    bearing = sorted(
        name for name, cls in REGISTRY.items() if " " not in name and (cls.secrets or cls.secrets_from is not None)
    )
    if first in REGISTRY or first in bearing:
        return None
    close = get_close_matches(first, bearing, n=1, cutoff=0.6)
    return close[0] if close else None


def lookup(line: str) -> tuple[type[Command], list[str]] | None:
    """The command a line starts with (the longest name that fits) and its arguments."""
    words = line.split()
    if not words:
        return None
    for width in (3, 2, 1):
        name = " ".join(w.upper() for w in words[:width])
        found = REGISTRY.get(name)
        if found is not None:
            return found, words[width:]
    # njudge writes SET options as "SET NOWAIT", and "SET option=value" is a command of its own
    if words[0].upper() == "SET" and len(words) > 1 and "=" in words[1]:
        return REGISTRY["SET OPTION"], words[1:]
    return None


def signed_game(ctx: MailContext) -> str:
    """The game the mail signed on to, for a command only someone signed on may send (its role checked first)."""
    assert ctx.game is not None
    return ctx.game


def require(condition: bool, message: str) -> None:
    if not condition:
        raise CommandError(message)
