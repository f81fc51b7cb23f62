"""The GM's commands (after SIGNON game MASTER password). Each calls a use case and says what it did; the game is
told by the notifier, from the use case's events."""

from __future__ import annotations

from dataclasses import replace

from judge.commands.base import Command, CommandError, MailContext, Role, command, require
from judge.commands.base import signed_game as _game
from judge.commands.interpreter import flush_orders
from judge.commands.shown import options_lines
from judge.game.events import PhaseProcessed
from judge.game.when import DeadlineError, read_deadline
from judge.render import reply_results
from judge.render.bounds import ANSWER_LINES, asks_full, fit
from judge.render.dates import due_text, resumed_text, when_text
from judge.render.results import Brief


@command
class Start(Command):
    name = "START"
    usage = "START [CD]"
    example = "SIGNON alpha MASTER gmpass / START CD"
    summary = "start a forming game now (CD: short of players, the powers nobody plays in civil disorder)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        words = [a.upper() for a in args]
        require(words in ([], ["CD"]), f"usage: {self.usage}")
        unplayed = ctx.games.seating.start(_game(ctx), short=bool(words))
        lines = [f"{_game(ctx)} has started; everyone in it is told."]
        if unplayed:
            lines.append(
                f"In civil disorder (units hold, removals by the civil-disorder rules): {', '.join(unplayed)}. "
                "REPLACE player address gives one to a player."
            )
        return lines


@command
class Process(Command):
    name = "PROCESS"
    usage = "PROCESS"
    example = "SIGNON alpha MASTER gmpass / PROCESS"
    summary = "adjudicate the current phase now and send the results"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        done = ctx.games.adjudication.process(_game(ctx), asked_at=None if ctx.processed_here else ctx.received_at)
        assert done is not None
        ctx.processed_here = True
        event = next(e for e in reversed(ctx.games.events) if isinstance(e, PhaseProcessed) and e.game == done.game)
        sent = len(event.audience.everyone())
        lines = [f"Phase processed; results sent to {sent} address(es)."]
        if done.late:
            lines.append(f"No orders from: {', '.join(done.late)}.")
        if done.finished:
            lines.append(f"The game has ended ({done.finished}).")
        return lines


@command
class Predict(Command):
    name = "PREDICT"
    usage = "PREDICT [FULL]"
    example = "SIGNON alpha MASTER gmpass / PREDICT"
    summary = "what the orders now on file would give (nothing is changed; FULL: every order, every power's row)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        args, whole = asks_full(args)
        require(not args, f"usage: {self.usage}")
        outcome = ctx.games.adjudication.predict(_game(ctx))
        view = ctx.games.reads.game(_game(ctx))
        brief = None if whole else Brief("PREDICT FULL")
        lines = reply_results(_game(ctx), outcome, None, brief, ANSWER_LINES, judge=ctx.config.judge_code,
                              title="predicted results", style=view.style, options=view.options)  # fmt: skip
        return fit(lines, "PREDICT FULL", whole)


@command
class Pause(Command):
    name = "PAUSE"
    usage = "PAUSE"
    example = "SIGNON alpha MASTER gmpass / PAUSE"
    summary = "stop the clock; no phase is processed until RESUME, which moves the deadline on by the time paused"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, f"usage: {self.usage}")
        paused = ctx.games.controls.pause(_game(ctx))
        lines = [f"{_game(ctx)} is paused; everyone in it is told."]
        if paused.deadline is not None:
            lines.append(
                f"The deadline ({when_text(paused.deadline, paused.zone)}) stops with the clock: RESUME moves it on by "
                "the time paused, or RESUME with a deadline (as SET DEADLINE reads it) sets another."
            )
        return lines


@command
class Resume(Command):
    name = "RESUME"
    usage = "RESUME [deadline, as SET DEADLINE reads it]"
    example = "SIGNON alpha MASTER gmpass / RESUME   (or: RESUME friday 18:00)"
    summary = "start the clock again; the deadline is moved on by the time paused, unless you give another"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        game = _game(ctx)
        if args:
            text = " ".join(args)
            try:
                when = read_deadline(text, ctx.now, ctx.games.setup.zone(game))
            except DeadlineError as exc:
                raise CommandError(str(exc)) from None
            resumed = ctx.games.controls.resume(game, deadline=when, set_deadline=True)
        else:
            resumed = ctx.games.controls.resume(game)
        told = resumed_text(resumed.deadline, resumed.extended_by, resumed.zone)
        return [f"{game} is running again; everyone in it is told.", told]


@command
class SetDeadline(Command):
    name = "SET DEADLINE"
    usage = "SET DEADLINE 2026-12-01 18:00 | +3h | +2d | tomorrow 18:00 | friday 18:00 | none"
    example = "SET DEADLINE tomorrow 18:00"
    summary = "set the current phase's deadline"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        text = " ".join(args)
        zone = ctx.games.setup.zone(_game(ctx))
        try:
            when = read_deadline(text, ctx.now, zone)
        except DeadlineError as exc:
            raise CommandError(str(exc)) from None
        ctx.games.controls.set_deadline(_game(ctx), when)
        if when is None:
            return [f"Read {text!r} as: no deadline (the phase waits for PROCESS); everyone in the game is told."]
        return [f"Read {text!r} as {due_text(when, ctx.now, zone)}; everyone in the game is told."]


@command
class SetGrace(Command):
    name = "SET GRACE"
    usage = "SET GRACE time"
    example = "SET GRACE 6h   (or 6, 90m, 1d)"
    summary = "how long after the deadline late orders are still taken"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        (told,) = ctx.games.setup.set_by_mail(_game(ctx), [("grace_hours", args[0])]).changed
        return [f"Set {told.name}={told.value}: late orders are taken that long after every deadline."]


@command
class SetDelay(Command):
    name = "SET DELAY"
    usage = "SET DELAY time"
    example = "SET DELAY 30m   (njudge's; 0 to process at once)"
    summary = "how long a phase whose orders are all in early waits after the last came in, for a typo to be fixed"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        (told,) = ctx.games.setup.set_by_mail(_game(ctx), [("timing.delay", args[0])]).changed
        return [
            f"Set {told.name}={told.value}: when every order is in before the deadline, the phase is processed that "
            "long after the last came in (new orders within it start it again)."
        ]


@command
class SetOption(Command):
    name = "SET OPTION"
    usage = "SET option=value"
    example = "SET timing.manual=true   (or: SET edition=1982 before the start; HELP SET lists every setting)"
    summary = "change a setting (timing, press) or, before the start, a rule option"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        pairs = []
        for pair in args:
            key, sep, value = pair.partition("=")
            require(bool(sep and key and value), f"usage: {self.usage} (HELP SET lists the settings)")
            pairs.append((key, value))
        require(bool(pairs), f"usage: {self.usage} (HELP SET lists the settings)")
        settled = ctx.games.setup.set_by_mail(_game(ctx), pairs)
        told = [f"Set {c.name}={c.value}{' (rule option)' if c.rule_option else ''}." for c in settled.changed]
        if settled.no_page_password:
            told.append("No page password yet: the pages open to nobody until you set one (SET WEB PASSWORD).")
        if settled.dropped_draws:  # the GM's to know; the players are told the rule, never whose votes there were
            told.append(f"Draw votes dropped: {', '.join(settled.dropped_draws)}.")
        if settled.dropped_concessions:
            told.append(f"Concessions dropped: {', '.join(settled.dropped_concessions)}.")
        return told


@command
class SetCenters(Command):
    name = "SET CENTERS"
    usage = "SET CENTERS number"
    example = "SET CENTERS 17   (njudge's; the same as SET victory_centres=17; 0: the map's count again)"
    summary = "the supply centres a player needs to win, before the start or while the game runs (njudge's)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        (told,) = ctx.games.setup.set_by_mail(_game(ctx), [("victory_centres", args[0])]).changed
        whose = "the map's count" if told.value == "0" else "a player needs that many supply centres to win"
        return [f"Set {told.name}={told.value}: {whose}; everyone in a running game is told."]


@command
class SetWebPassword(Command):
    name = "SET WEB PASSWORD"
    usage = "SET WEB PASSWORD password | NONE"
    example = "SET WEB PASSWORD r3aders-only"
    summary = "the password that opens the game's web pages while it is private; every pass given before ends"
    role = Role.MASTER
    secrets_from = 0

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage} (one word, no spaces)")
        word = None if args[0].upper() == "NONE" else args[0]
        ctx.games.web.set_page_password(_game(ctx), word)
        said = ["Page password set." if word else "Page password removed: the pages open to nobody while private.",
                "Every pass given before no longer opens the game's pages."]  # fmt: skip
        if not ctx.games.reads.public_game(_game(ctx)).private:
            said.append("The pages are public now; the password is asked for once you SET web.private=on.")
        return said


@command
class Rollback(Command):
    name = "ROLLBACK"
    usage = "ROLLBACK [phase code or number, e.g. F1902M] [KEEP | CLEAR]"
    example = "ROLLBACK F1902M"
    summary = "return to the start of a processed phase (the last one by default)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        game = _game(ctx)
        words = [a.upper() for a in args]
        phases = [w for w in words if w not in ("KEEP", "CLEAR")]
        require(len(phases) <= 1 and not {"KEEP", "CLEAR"} <= set(words), f"usage: {self.usage}")
        if phases:
            index = int(phases[0]) if phases[0].isdigit() else ctx.games.reads.phase_index_of(game, phases[0])
        else:
            index = ctx.games.reads.game(game).last_processed
        require(index >= 0, "nothing has been processed yet")
        keep = "CLEAR" not in words
        done = ctx.games.controls.rollback(game, index, keep_orders=keep)
        orders = "the orders sent for it are kept" if keep else "the orders sent for it are cleared: send them again"
        lines = [f"Rolled back to {done.phase} (phase {index}); {orders}; everyone in the game is told."]
        if done.votes_kept:
            lines.append(f"Draw votes that stand (cast before that phase was processed): {', '.join(done.votes_kept)}.")
        if done.votes_dropped:
            lines.append(f"Draw votes withdrawn (cast on the position undone): {', '.join(done.votes_dropped)}.")
        return lines


@command
class Eject(Command):
    name = "EJECT"
    usage = "EJECT player   (any name the judge prints: France, Sparta + Elatea, Elatea, England, 1:England, Player 2)"
    example = "EJECT France"
    summary = "remove a player from his whole side; it waits for a replacement"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        side = ctx.games.controls.eject(_game(ctx), " ".join(args))
        return [f"{side.label} has no player now; the player is told, and everyone in the game."]


@command
class Replace(Command):
    name = "REPLACE"
    usage = "REPLACE player address   (the player by any name the judge prints, as EJECT)"
    example = "REPLACE France bob@example.org   (or: REPLACE Player 2 bob@example.org)"
    summary = "give a player's whole side to another (registered) player"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 2 and "@" in args[-1], f"usage: {self.usage}")
        side = ctx.games.controls.replace(_game(ctx), " ".join(args[:-1]), args[-1])
        return [f"{args[-1].lower()} now plays {side.label}; he is told, and everyone in the game."]


@command
class Become(Command):
    name = "BECOME"
    usage = "BECOME player or power   (any name the judge prints)"
    example = "BECOME France   (or: BECOME Player 2; BECOME 3:England)"
    summary = "the lines that follow are orders for that player (a GM standing in)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        flush_orders(ctx)
        ctx.later_phase = None
        text = " ".join(args)
        ctx.power = ctx.games.seating.power_named(_game(ctx), text)
        side = ctx.games.seating.side_named(_game(ctx), text)
        if len(side.powers) > 1:
            filed = "each is filed with the power whose unit it names"
            return [f"The following lines are orders for {side.label}; {filed}."]
        return [f"The following lines are orders for {ctx.power}."]


@command
class Note(Command):
    name = "NOTE"
    usage = "NOTE text (NOTE alone clears it)"
    example = "NOTE Press is grey from now on."
    summary = "a note from the GM, printed with every results mail until changed"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        text = " ".join(args).strip()
        ctx.games.setup.set_note(_game(ctx), text or None)
        # the GM's own words, as written: the judge adds no stop of its own ("grey.." was the old reply)
        return [f"Note for the results: {text}" if text else "The note is cleared."]


@command
class Reveal(Command):
    name = "REVEAL"
    usage = "REVEAL"
    example = "SIGNON alpha MASTER gmpass / REVEAL"
    summary = "in a gunboat game, name its players to everyone from now on (everyone in it is told who plays whom)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, f"usage: {self.usage}")
        if ctx.games.controls.reveal(_game(ctx)):
            return [f"{_game(ctx)} names its players from now on; everyone in it is told who plays whom."]
        return [f"{_game(ctx)} names its players from now on (LIST and its page name those who joined)."]


@command
class SetComment(Command):
    name = "SET COMMENT"
    usage = "SET COMMENT text (SET COMMENT alone clears it)"
    example = "SET COMMENT Gunboat, no press, 24h deadlines: newcomers welcome."
    summary = "the GM's words about the game, shown by LIST FULL and LIST game to players choosing a game"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        text = " ".join(args).strip()
        ctx.games.setup.set_comment(_game(ctx), text or None)
        return [f"Comment: {text}" if text else "The comment is cleared."]


@command
class Terminate(Command):
    name = "TERMINATE"
    usage = "TERMINATE"
    example = "SIGNON alpha MASTER gmpass / TERMINATE"
    summary = "end the game now"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        game = _game(ctx)
        ctx.games.controls.terminate(game)
        return [f"{game} is terminated; everyone in it is told."]


@command
class Status(Command):
    name = "STATUS"
    usage = "STATUS [player]"
    example = "SIGNON alpha MASTER gmpass / STATUS   (or: STATUS Player 2)"
    summary = "the GM's view: each player's orders in or missing (per power), draw votes, absences; the settings"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        view = ctx.games.reads.gm_view(_game(ctx))
        if args:  # one player, by any name the judge prints
            side = ctx.games.seating.side_named(_game(ctx), " ".join(args))
            view = replace(view, players=tuple(p for p in view.players if p.side == side.label))
        zone = ctx.games.setup.zone(view.game)
        when = f"; deadline {due_text(view.deadline, ctx.now, zone)}" if view.deadline else "; no deadline"
        lines = [f"{view.game}: {view.phase}{when}", ""]
        width = max((len(p.side) for p in view.players), default=8) + 2
        for player in view.players:
            who = f"{player.player} <{player.address}>" if player.player else "(nobody plays it)"
            lines.append(f"{player.side:{width}}{who}")
            if len(player.powers) > 1:
                detail = ", ".join(f"{p.power} {p.orders}" for p in player.powers if p.orders != "not due")
                lines.append(f"{'':{width}}orders {player.orders}" + (f" ({detail})" if detail else ""))
            else:
                lines.append(f"{'':{width}}orders {player.orders}")
            notes = [
                f"votes {player.draw}" if player.draw else "",
                f"concedes to {player.conceded_to}" if player.conceded_to else "",
                f"away {player.away}" if player.away else "",
                "SET WAIT" if player.wait else "",
                *(f"{p.power} {p.status}" for p in player.powers if p.status not in ("playing",)),
            ]
            if any(notes):
                lines.append(f"{'':{width}}" + "; ".join(n for n in notes if n))
        lines.append("")
        return lines + options_lines(view.options, view.settings)


@command
class Promote(Command):
    name = "PROMOTE"
    usage = "PROMOTE address"
    example = "SIGNON alpha MASTER gmpass / PROMOTE carol@example.org"
    summary = (
        "name a registered player a co-GM, who may do all you do (he signs on as MASTER with his own password); "
        "both of you are told"
    )
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1 and "@" in args[0], f"usage: {self.usage}")
        who = ctx.games.masters.promote(_game(ctx), args[0])
        return [
            f"{who} is a co-GM of {_game(ctx)}: he signs on with SIGNON {_game(ctx)} MASTER and his own password. "
            "He and the GM are told; DEMOTE takes it back."
        ]


@command
class Demote(Command):
    name = "DEMOTE"
    usage = "DEMOTE address"
    example = "SIGNON alpha MASTER gmpass / DEMOTE carol@example.org"
    summary = "a co-GM is no longer one; both of you are told"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1 and "@" in args[0], f"usage: {self.usage}")
        who = ctx.games.masters.demote(_game(ctx), args[0])
        return [f"{who} is no longer a co-GM of {_game(ctx)}; he and the GM are told."]


@command
class Handover(Command):
    name = "HANDOVER"
    usage = "HANDOVER address"
    example = "SIGNON alpha MASTER gmpass / HANDOVER dave@example.org"
    summary = (
        "hand the game to another registered player, its GM from now on (the judge's admin may, for a GM who "
        "vanished); the new GM and the old are told, and the game"
    )
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1 and "@" in args[0], f"usage: {self.usage}")
        game = _game(ctx)
        who = ctx.games.masters.hand_over(game, args[0])
        flush_orders(ctx)
        ctx.game = ctx.power = None  # the rest of this mail is no longer the GM's
        ctx.master = False
        return [
            f"{who} is the GM of {game} from now on (he signs on with SIGNON {game} MASTER and his own password); "
            "he, the old GM and everyone in the game are told. You are signed off."
        ]


# records (issue 46): the GM's waiver of the game's entry limits for one player
@command
class Waive(Command):
    name = "WAIVE LIMITS"  # never WAIVE alone: that is a Winter's order
    usage = "WAIVE LIMITS player   (his name, or his address)"
    example = "WAIVE LIMITS Anna Smith"
    summary = "let one player JOIN whatever his record (the game's entry.* limits are not asked of him)"
    role = Role.MASTER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        name = ctx.games.entry.waive(_game(ctx), " ".join(args))
        return [f"{name} may join {_game(ctx)} whatever his record."]
