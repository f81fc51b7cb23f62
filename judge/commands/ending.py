"""The game's own end by mail (issue 44 item 5): the GM's UNSTART and UNTERMINATE (TERMINATE OFF), and anyone's
end-of-game STATEMENT. Each calls a use case (`judge.game.undoing`, `judge.game.statements`) and says what it did;
the game is told by the notifier."""

from __future__ import annotations

from judge.commands.base import Command, CommandError, MailContext, Role, command, require
from judge.commands.base import signed_game as _game
from judge.game.undoing import TooLate
from judge.render.dates import span_text, when_text


@command
class Unstart(Command):
    name = "UNSTART"
    usage = "UNSTART"
    example = "SIGNON alpha MASTER gmpass / UNSTART"
    summary = (
        "a game started by mistake forms again, before its first phase is processed: the players stay joined with "
        "their preferences, the powers are given out anew at the next START"
    )
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, f"usage: {self.usage}")
        done = ctx.games.undoing.unstart(_game(ctx))
        return [
            f"{_game(ctx)} is forming again; its {done.players} player(s) stay joined, and everyone in it is told. "
            "START starts it again (the powers given out anew)."
        ]


@command
class Unterminate(Command):
    name = "UNTERMINATE"
    usage = "UNTERMINATE   (or TERMINATE OFF)"
    example = "SIGNON alpha MASTER gmpass / UNTERMINATE"
    summary = (
        "take back a TERMINATE within end.undo_hours (48h unless set): the game is as before it, its deadline moved "
        "on by the time it lay terminated"
    )
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, f"usage: {self.usage}")
        try:
            done = ctx.games.undoing.unterminate(_game(ctx))
        except TooLate as late:
            when = when_text(late.ended, late.zone)
            raise CommandError(f"{late} (it was terminated {when}; SET end.undo_hours=... gives more time)") from None
        lines = [f"{_game(ctx)} is {done.status} again, as before its TERMINATE; everyone in it is told."]
        if done.extended_by is not None and done.deadline is not None:
            moved = span_text(done.extended_by)
            lines.append(f"The deadline is {when_text(done.deadline, done.zone)} (moved on by {moved}).")
        if done.revealed:
            lines.append("Its players were named to everyone at the termination, and stay named (gunboat is off).")
        return lines


@command
class TerminateOff(Unterminate):
    name = "TERMINATE OFF"
    usage = "TERMINATE OFF   (or UNTERMINATE)"
    example = "SIGNON alpha MASTER gmpass / TERMINATE OFF"


@command
class Statement(Command):
    name = "STATEMENT"
    usage = "STATEMENT, then its lines up to ENDPRESS, SIGNOFF or the end of the mail   (STATEMENT WITHDRAW)"
    example = "SIGNON alpha France pw / STATEMENT / Well played, England. / ENDPRESS"
    summary = (
        "your end-of-game statement (a player's or the GM's; filing it again changes it): kept private until the "
        "game ends, then in the game-over mail and on its page; after the end, sent to everyone in the game"
    )
    role = Role.SIGNED
    takes_body = True
    body_ends = ("SIGNOFF",)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        words = [a.upper() for a in args]
        require(words in ([], ["WITHDRAW"]), f"usage: {self.usage}")
        address = ctx.as_address or ctx.sender
        if words:
            require(not any(line.strip() for line in body), "STATEMENT WITHDRAW takes no text")
            if ctx.games.statements.withdraw(_game(ctx), address, master=ctx.is_master):
                return [f"Your statement on {_game(ctx)} is withdrawn."]
            return [f"You have filed no statement on {_game(ctx)}."]
        filed = ctx.games.statements.file(_game(ctx), address, body, master=ctx.is_master)
        signed = "the GM" if filed.side is None else filed.side
        done = "changed" if filed.changed else "filed"
        if filed.published:
            return [f"Your statement ({signed}) is {done} and sent to everyone in {_game(ctx)}; its page shows it."]
        return [
            f"Your statement ({signed}) is {done}; nobody else reads it until {_game(ctx)} ends, when the game-over "
            "mail carries it. Send STATEMENT again to change it, STATEMENT WITHDRAW to take it back."
        ]
