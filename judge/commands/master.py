"""The GM's commands (after SIGNON game MASTER password)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from judge.commands.base import Command, CommandError, MailContext, command, require
from judge.commands.player import parse_value
from judge.game.service import Processed
from judge.mail.announce import game_over_mails, results_mails
from judge.mail.compose import notice
from judge.render import render_results


def _game(ctx: MailContext) -> str:
    assert ctx.game is not None
    return ctx.game


def send_results(ctx: MailContext, processed: Processed) -> int:
    """The results of a processed phase to every player and the GM."""
    game = processed.game
    mails = results_mails(ctx.config, ctx.service.addresses(game), processed, ctx.service.observers(game))
    ctx.mails.extend((mail, "result") for mail in mails)
    return len(mails)


@command
class Start(Command):
    name = "START"
    usage = "START"
    summary = "start a forming game now (assigning the powers)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.start(_game(ctx))
        return [f"{_game(ctx)} has started."]


@command
class Process(Command):
    name = "PROCESS"
    usage = "PROCESS"
    summary = "adjudicate the current phase now and send the results"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        done = ctx.service.process(_game(ctx))
        assert done is not None
        sent = send_results(ctx, done)
        lines = [f"Phase processed; results sent to {sent} address(es)."]
        if done.late:
            lines.append(f"No orders from: {', '.join(done.late)}.")
        if done.finished:
            lines.append(f"The game has ended ({done.finished}).")
        return lines


@command
class Predict(Command):
    name = "PREDICT"
    usage = "PREDICT"
    summary = "what the orders now on file would give (nothing is changed)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        outcome = ctx.service.predict(_game(ctx))
        return render_results(
            _game(ctx), outcome, None, judge=ctx.config.address, title="predicted results"
        ).splitlines()


@command
class Pause(Command):
    name = "PAUSE"
    usage = "PAUSE"
    summary = "stop the clock; no phase is processed until RESUME"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.pause(_game(ctx))
        return [f"{_game(ctx)} is paused."]


@command
class Resume(Command):
    name = "RESUME"
    usage = "RESUME"
    summary = "start the clock again"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.resume(_game(ctx))
        return [f"{_game(ctx)} is running again."]


_RELATIVE = re.compile(r"^\+(\d+)([hd])$", re.IGNORECASE)


@command
class SetDeadline(Command):
    name = "SET DEADLINE"
    usage = "SET DEADLINE 2026-12-01T18:00Z | +48h | +2d | none"
    summary = "set the current phase's deadline"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        text = args[0]
        when: datetime | None
        relative = _RELATIVE.match(text)
        if text.lower() == "none":
            when = None
        elif relative:
            amount = int(relative.group(1))
            when = ctx.now + (timedelta(hours=amount) if relative.group(2).lower() == "h" else timedelta(days=amount))
        else:
            try:
                when = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                raise CommandError(f"{text!r} is not a time; usage: {self.usage}") from None
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
        ctx.service.set_deadline(_game(ctx), when)
        return [f"Deadline: {when.isoformat() if when else 'none'}."]


@command
class SetGrace(Command):
    name = "SET GRACE"
    usage = "SET GRACE hours"
    summary = "how long after the deadline late orders are still taken"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1 and args[0].isdigit(), f"usage: {self.usage}")
        ctx.service.change_settings(_game(ctx), grace_hours=int(args[0]))
        return [f"Grace: {int(args[0])} hour(s)."]


@command
class SetOption(Command):
    name = "SET OPTION"
    usage = "SET option=value"
    summary = "change a setting (timing, press) or, before the start, a rule option"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        changes = {}
        for pair in args:
            key, sep, value = pair.partition("=")
            require(bool(sep), f"usage: {self.usage}")
            changes[key.lower()] = parse_value(value)
        ctx.service.change_settings(_game(ctx), **changes)
        return [f"{k} = {v}" for k, v in changes.items()]


@command
class Rollback(Command):
    name = "ROLLBACK"
    usage = "ROLLBACK [phase number]"
    summary = "return to the start of a processed phase (the last one by default)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        view = ctx.service.view(_game(ctx))
        index = int(args[0]) if args and args[0].isdigit() else view["phase_index"] - 1
        require(index >= 0, "nothing has been processed yet")
        ctx.service.rollback(_game(ctx), index)
        phase = ctx.service.view(_game(ctx))["position"]["phase"]
        return [f"Rolled back to {phase['season']} {phase['year']} {phase['type']} (phase {index})."]


@command
class Eject(Command):
    name = "EJECT"
    usage = "EJECT power"
    summary = "remove a player; the power waits for a replacement"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        ctx.service.eject(_game(ctx), args[0].capitalize())
        return [f"{args[0].capitalize()} has no player now."]


@command
class Replace(Command):
    name = "REPLACE"
    usage = "REPLACE power address"
    summary = "give a power to another (registered) player"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2, f"usage: {self.usage}")
        ctx.service.replace(_game(ctx), args[0].capitalize(), args[1])
        text = f"You now play {args[0].capitalize()} in {_game(ctx)}. SIGNON {_game(ctx)} {args[0]} <your password>."
        ctx.mails.append(
            (notice(ctx.config, args[1].lower(), f"{_game(ctx)}: you play {args[0].capitalize()}", text), "notice")
        )
        return [f"{args[1].lower()} now plays {args[0].capitalize()}."]


@command
class Become(Command):
    name = "BECOME"
    usage = "BECOME power"
    summary = "the lines that follow are orders for that power (a GM standing in)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        from judge.commands.interpreter import flush_orders

        flush_orders(ctx)
        ctx.power = args[0].capitalize()
        return [f"The following lines are orders for {ctx.power}."]


@command
class Note(Command):
    name = "NOTE"
    usage = "NOTE text (NOTE alone clears it)"
    summary = "a note from the GM, printed with every results mail until changed"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        text = " ".join(args).strip()
        ctx.service.change_settings(_game(ctx), note=text or None)
        return [f"Note for the results: {text}." if text else "The note is cleared."]


@command
class Terminate(Command):
    name = "TERMINATE"
    usage = "TERMINATE"
    summary = "end the game now"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.terminate(_game(ctx))
        view = ctx.service.view(_game(ctx))
        addresses = [*ctx.service.addresses(_game(ctx)).values(), *ctx.service.observers(_game(ctx))]
        mails = game_over_mails(ctx.config, addresses, _game(ctx), view["position"], "terminated", [])
        ctx.mails.extend((mail, "result") for mail in mails)
        return [f"{_game(ctx)} is terminated; everyone in it is told."]
