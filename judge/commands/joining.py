"""Commands for the places open to volunteers and the GM's say over who comes in (judge.game.openings):
TAKEOVER, LIST OPENINGS, and the GM's APPROVE, DECLINE and REFUSE."""

from __future__ import annotations

from judge.commands.base import Command, MailContext, Role, command, require
from judge.commands.base import signed_game as _game
from judge.game.views import Opening
from judge.render.dates import when_text


def opening_lines(found: list[Opening], *, with_game: bool = True) -> list[str]:
    """Openings as LIST OPENINGS and LIST game print them: the side, why it is open, the phase and deadline, and
    the command that takes it. Never who played it."""
    lines = []
    for o in found:
        where = f"  {o.game:16} {o.variant:14} " if with_game else "    "
        ask = " (the GM approves who takes it)" if o.approval else ""
        if o.why == "forming":
            lines += [f"{where}forming, {o.side} left", f"{where}  SIGNON ? yourpassword {o.variant}{ask}"]
            continue
        due = f", deadline {when_text(o.deadline, o.zone)}" if o.deadline else ""
        lines += [
            f"{where}{o.side} ({o.why}), {o.phase}{due}",
            f"{'':{len(where)}}  TAKEOVER {o.game} {o.sign_on} yourpassword{ask}",
        ]
    return lines


@command
class ListOpenings(Command):
    name = "LIST OPENINGS"
    usage = "LIST OPENINGS"
    example = "LIST OPENINGS"
    summary = (
        "the places open to volunteers in every game (abandoned, resigned, never filled; forming games open to all)"
    )

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, f"usage: {self.usage}")
        found = ctx.games.openings.all()
        if not found:
            return ["No game has a place open to volunteers now."]
        return ["Places open to volunteers:", *opening_lines(found)]


@command
class Takeover(Command):
    name = "TAKEOVER"
    usage = "TAKEOVER game player yourpassword   (the player by any name the judge prints; your own password)"
    example = "TAKEOVER alpha France s3cret   (or: TAKEOVER hop Sparta + Elatea s3cret)"
    summary = "take an open place in a running game (abandoned, resigned, never filled): its whole side"
    secrets = (-1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 3, f"usage: {self.usage}")
        taken = ctx.games.openings.take(args[0].lower(), " ".join(args[1:-1]), ctx.sender, args[-1])
        if taken.waiting:
            return [f"The GM of {taken.game} approves who takes a place: your wish to take {taken.side.label} is "
                    "sent to him, and you will be told his answer."]  # fmt: skip
        return [
            f"You have taken over {taken.side.label} in {taken.game}; the position and what is due follow by mail, "
            "and everyone in the game is told."
        ]


@command
class Approve(Command):
    name = "APPROVE"
    usage = "APPROVE address   (APPROVE alone: who waits for your answer)"
    example = "SIGNON alpha MASTER gmpass / APPROVE bob@example.org"
    summary = "let a player who asked in (join.approval): his join is done, or he takes the place he asked for"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) <= 1, f"usage: {self.usage}")
        if not args:
            waiting = ctx.games.openings.waiting(_game(ctx))
            if not waiting:
                return [f"Nobody waits for your answer in {_game(ctx)}."]
            lines = [f"Waiting for your answer in {_game(ctx)}:"]
            for w in waiting:
                what = f"to take {w.side}" if w.side else f"to join (powers wished for: {w.preferences})"
                lines.append(f"  {w.player} <{w.address}> {what}")
            return lines
        what = ctx.games.openings.approve(_game(ctx), args[0])
        return [f"{args[0].lower()} is let in ({what}); he is told."]


@command
class Decline(Command):
    name = "DECLINE"
    usage = "DECLINE address"
    example = "SIGNON alpha MASTER gmpass / DECLINE bob@example.org"
    summary = "turn away a player who asked to join or take a place; he is told you declined, no more"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        ctx.games.openings.decline(_game(ctx), args[0])
        return [f"{args[0].lower()}'s request is declined; he is told no more than that."]


@command
class Refuse(Command):
    name = "REFUSE"
    usage = "REFUSE address | REFUSE address OFF | REFUSE   (alone: the addresses you refuse)"
    example = "SIGNON alpha MASTER gmpass / REFUSE troll@example.org"
    summary = "refuse an address in your game: its joins, takeovers and observing are declined (OFF: take it back)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) <= 2 and (len(args) < 2 or args[1].upper() == "OFF"), f"usage: {self.usage}")
        if not args:
            refused = ctx.games.openings.refused(_game(ctx))
            if not refused:
                return [f"You refuse no address in {_game(ctx)}."]
            return [f"Addresses refused in {_game(ctx)}: {', '.join(refused)}."]
        require("@" in args[0], f"usage: {self.usage} (an address, such as bob@example.org)")
        address = args[0].lower()
        if len(args) == 2:
            if ctx.games.openings.refuse(_game(ctx), address, refused=False):
                return [f"{address} is no longer refused in {_game(ctx)}."]
            return [f"{address} was not refused in {_game(ctx)}."]
        if ctx.games.openings.refuse(_game(ctx), address):
            return [
                f"{address} is refused in {_game(ctx)}: a join, takeover or observe from it is declined, and it is "
                "told no more than that. A player it already is stays one (EJECT removes him)."
            ]
        return [f"{address} was already refused in {_game(ctx)}."]
