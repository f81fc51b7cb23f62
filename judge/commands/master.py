"""The GM's commands (after SIGNON game MASTER password)."""

from __future__ import annotations

from judge.commands.base import Command, CommandError, MailContext, command, require
from judge.game.house_rules import press_heading
from judge.game.service import Processed
from judge.mail.announce import game_over_mails, results_mails
from judge.mail.compose import notice
from judge.render import render_results
from judge.schedule.when import DeadlineError, describe, read_deadline


def _game(ctx: MailContext) -> str:
    assert ctx.game is not None
    return ctx.game


def announce(ctx: MailContext, subject: str, text: str) -> None:
    """Tell everyone in the game (its players, the GM, its observers) what the GM changed."""
    game = _game(ctx)
    addresses = {*ctx.service.addresses(game).values(), *ctx.service.observers(game)}
    for address in sorted(addresses):
        ctx.mails.append((notice(ctx.config, address, f"{game}: {subject}", text), "notice"))


def deliver_held_press(ctx: MailContext, game: str) -> None:
    """A game that ends without results still delivers the press held for them."""
    for sent in ctx.service.release_held_press(game):
        for address, for_gm in [*((a, False) for a in sent.to), (sent.gm, True)]:
            heading = press_heading(sent.press, for_gm)
            text = f"{heading}\n(held for the results, released as {game} ends)\n\n{sent.press['body']}"
            ctx.mails.append((notice(ctx.config, address, f"{game}: press released", text), "press"))


def send_results(ctx: MailContext, processed: Processed) -> int:
    """The results of a processed phase to every player and the GM."""
    game = processed.game
    mails = results_mails(ctx.config, ctx.service.addresses(game), processed, ctx.service.observers(game))
    ctx.mails.extend((mail, "result") for mail in mails)
    return len(mails)


@command
class Start(Command):
    name = "START"
    usage = "START [CD]"
    example = "SIGNON alpha MASTER gmpass / START CD"
    summary = "start a forming game now (CD: short of players, the powers nobody plays in civil disorder)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        words = [a.upper() for a in args]
        require(words in ([], ["CD"]), f"usage: {self.usage}")
        from judge.commands.player import announce_start

        unplayed = ctx.service.start(_game(ctx), short=bool(words))
        announce_start(ctx, _game(ctx))
        lines = [f"{_game(ctx)} has started; everyone in it is told."]
        if unplayed:
            lines.append(
                f"In civil disorder (units hold, removals by the civil-disorder rules): {', '.join(unplayed)}. "
                "REPLACE power address gives one to a player."
            )
        return lines


@command
class Process(Command):
    name = "PROCESS"
    usage = "PROCESS"
    example = "SIGNON alpha MASTER gmpass / PROCESS"
    summary = "adjudicate the current phase now and send the results"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        done = ctx.service.process(_game(ctx), asked_at=None if ctx.processed_here else ctx.received_at)
        assert done is not None
        ctx.processed_here = True
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
    example = "SIGNON alpha MASTER gmpass / PREDICT"
    summary = "what the orders now on file would give (nothing is changed)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        outcome = ctx.service.predict(_game(ctx))
        style = ctx.service.view(_game(ctx))["style"]
        return render_results(
            _game(ctx), outcome, None, judge=ctx.config.judge_code, title="predicted results", style=style
        ).splitlines()


@command
class Pause(Command):
    name = "PAUSE"
    usage = "PAUSE"
    example = "SIGNON alpha MASTER gmpass / PAUSE"
    summary = "stop the clock; no phase is processed until RESUME"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.pause(_game(ctx))
        announce(ctx, "paused", f"The GM has paused {_game(ctx)}: no phase is processed until it is resumed.")
        return [f"{_game(ctx)} is paused; everyone in it is told."]


@command
class Resume(Command):
    name = "RESUME"
    usage = "RESUME"
    example = "SIGNON alpha MASTER gmpass / RESUME"
    summary = "start the clock again"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        ctx.service.resume(_game(ctx))
        _, deadline = ctx.service.brief(_game(ctx))
        when = f" The deadline is {deadline:%Y-%m-%d %H:%M} UTC." if deadline else ""
        announce(ctx, "resumed", f"The GM has resumed {_game(ctx)}.{when}")
        return [f"{_game(ctx)} is running again; everyone in it is told."]


@command
class SetDeadline(Command):
    name = "SET DEADLINE"
    usage = "SET DEADLINE 2026-12-01 18:00 | +3h | +2d | tomorrow 18:00 | friday 18:00 | none"
    example = "SET DEADLINE tomorrow 18:00"
    summary = "set the current phase's deadline"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        text = " ".join(args)
        zone = ctx.service.zone(_game(ctx))
        try:
            when = read_deadline(text, ctx.now, zone)
        except DeadlineError as exc:
            raise CommandError(str(exc)) from None
        ctx.service.set_deadline(_game(ctx), when)
        if when is None:
            announce(ctx, "no deadline", "The GM has removed the deadline: the phase waits for the GM's PROCESS.")
            return [f"Read {text!r} as: no deadline (the phase waits for PROCESS); everyone in the game is told."]
        announce(ctx, "new deadline", f"The GM has set the deadline to {describe(when, zone)}.")
        return [f"Read {text!r} as {describe(when, zone)}.", f"Deadline: {when.isoformat()}; everyone is told."]


@command
class SetGrace(Command):
    name = "SET GRACE"
    usage = "SET GRACE hours"
    example = "SET GRACE 6"
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
    example = "SET timing.manual=true   (or: SET edition=1982 before the start; HELP SET lists every setting)"
    summary = "change a setting (timing, press) or, before the start, a rule option"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        pairs = []
        for pair in args:
            key, sep, value = pair.partition("=")
            require(bool(sep and key and value), f"usage: {self.usage} (HELP SET lists the settings)")
            pairs.append((key, value))
        require(bool(pairs), f"usage: {self.usage} (HELP SET lists the settings)")
        return ctx.service.set_by_mail(_game(ctx), pairs)


@command
class Rollback(Command):
    name = "ROLLBACK"
    usage = "ROLLBACK [phase number] [KEEP | CLEAR]"
    example = "ROLLBACK 3"
    summary = "return to the start of a processed phase (the last one by default)"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        view = ctx.service.view(_game(ctx))
        words = [a.upper() for a in args]
        numbers = [a for a in args if a.isdigit()]
        require(set(words) - {*numbers} <= {"KEEP", "CLEAR"} and len(numbers) <= 1, f"usage: {self.usage}")
        index = int(numbers[0]) if numbers else view["phase_index"] - 1
        require(index >= 0, "nothing has been processed yet")
        keep = "CLEAR" not in words
        ctx.service.rollback(_game(ctx), index, keep_orders=keep)
        phase = ctx.service.view(_game(ctx))["position"]["phase"]
        name = f"{phase['season']} {phase['year']} {phase['type']}"
        _, deadline = ctx.service.brief(_game(ctx))
        when = f"{deadline:%Y-%m-%d %H:%M} UTC" if deadline else "the GM's PROCESS"
        orders = "the orders sent for it are kept" if keep else "the orders sent for it are cleared: send them again"
        announce(ctx, f"rolled back to {name}", f"The GM has rolled {_game(ctx)} back to {name}; {orders}. "
                 f"It will be processed at its deadline, {when}, or when the GM processes it.")  # fmt: skip
        return [f"Rolled back to {name} (phase {index}); {orders}; everyone in the game is told."]


@command
class Eject(Command):
    name = "EJECT"
    usage = "EJECT power"
    example = "EJECT France"
    summary = "remove a player; the power waits for a replacement"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        ctx.service.eject(_game(ctx), args[0].capitalize())
        announce(ctx, f"{args[0].capitalize()} ejected", f"The GM has removed the player of {args[0].capitalize()}; "
                 "the power waits for a replacement.")  # fmt: skip
        return [f"{args[0].capitalize()} has no player now; everyone in the game is told."]


@command
class Replace(Command):
    name = "REPLACE"
    usage = "REPLACE power address"
    example = "REPLACE France bob@example.org"
    summary = "give a power to another (registered) player"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2, f"usage: {self.usage}")
        ctx.service.replace(_game(ctx), args[0].capitalize(), args[1])
        text = f"You now play {args[0].capitalize()} in {_game(ctx)}. SIGNON {_game(ctx)} {args[0]} <your password>."
        ctx.mails.append(
            (notice(ctx.config, args[1].lower(), f"{_game(ctx)}: you play {args[0].capitalize()}", text), "notice")
        )
        announce(ctx, f"{args[0].capitalize()} replaced", f"{args[0].capitalize()} has a new player.")
        return [f"{args[1].lower()} now plays {args[0].capitalize()}; everyone in the game is told."]


@command
class Become(Command):
    name = "BECOME"
    usage = "BECOME power"
    example = "BECOME France"
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
    example = "NOTE Press is grey from now on."
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
    example = "SIGNON alpha MASTER gmpass / TERMINATE"
    summary = "end the game now"
    role = "master"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        game = _game(ctx)
        ctx.service.terminate(game)
        deliver_held_press(ctx, game)
        view = ctx.service.view(game)
        joined = [seat["player"] for seat in view["seats"] if seat["player"]]
        addresses = [*joined, view["gm"], *ctx.service.observers(game)]
        if view["position"] is None:  # it never started: the players who joined are told it is cancelled
            text = f"{game} was terminated by its GM before it started."
            ctx.mails.extend(
                (notice(ctx.config, a, f"{game}: terminated", text), "notice") for a in sorted(set(addresses))
            )
        else:
            mails = game_over_mails(ctx.config, addresses, game, view["position"], "terminated", [])
            ctx.mails.extend((mail, "result") for mail in mails)
        return [f"{game} is terminated; everyone in it is told."]
