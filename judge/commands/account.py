"""Commands about a player's own account."""

from __future__ import annotations

from judge.commands.base import Command, CommandError, MailContext, command, require


@command
class Register(Command):
    name = "REGISTER"
    usage = "REGISTER your name password"
    example = "REGISTER Anna Smith s3cret"
    summary = "register your address with the judge (needed before JOIN or CREATE)"
    secrets = (-1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 2, f"usage: {self.usage}")
        # the name is shown to the other players and on the game's web page: judge.game.names says what it may be
        name = ctx.games.accounts.register(ctx.sender, " ".join(args[:-1]), args[-1])
        return [f"{ctx.sender} is registered as {name}."]


@command
class SetPassword(Command):
    name = "SET PASSWORD"
    usage = "SET PASSWORD old new"
    example = "SET PASSWORD s3cret n3wer"
    summary = "change your password"
    secrets_from = 0

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2, f"usage: {self.usage}")
        ctx.games.accounts.change_password(ctx.as_address or ctx.sender, args[0], args[1])
        return ["Password changed."]


@command
class SetAddress(Command):
    name = "SET ADDRESS"
    usage = "SET ADDRESS password new-address"
    example = "SET ADDRESS s3cret anna@new.example.org"
    summary = "move your account to another mail address"
    secrets = (0,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2 and "@" in args[1], f"usage: {self.usage}")
        ctx.games.accounts.change_address(ctx.as_address or ctx.sender, args[0], args[1])
        if ctx.as_address:
            ctx.as_address = args[1].lower()
        return [f"Your mail now goes to {args[1].lower()}."]


_ = CommandError
