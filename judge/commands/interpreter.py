"""Reading a mail's lines as commands and orders, in the njudge and DPjudge manner.

Each line is a command (`HELP`, `SIGNON game power password`, ...). After a player's SIGNON, lines that are not
commands are that power's orders, until SIGNOFF, the next SIGNON or the end of the mail; they are filed as one set,
which replaces the power's earlier set for the phase. Every command runs in a savepoint of the mail's
transaction: one that fails leaves no trace (its events are dropped with it), and the others still stand.

`answer_mail` is what the mail processor calls (`judge.mail.answer.Handler`): the daemon hands it over, so the
mail package never imports the commands.
"""

from __future__ import annotations

from judge.commands.base import REGISTRY, CommandError, MailContext, Role, lookup, misspelt_secret
from judge.config import Config
from judge.game import GameError, Games
from judge.mail.answer import Answer, Part, Request
from judge.render.bounds import REPLY_FOOT, REPLY_LINES
from judge.render.orders import held_lines, on_file_lines, on_file_summary, orders_report

END_BODY = "ENDPRESS"


def answer_mail(games: Games, config: Config, request: Request) -> Answer:
    """Run a mail's commands and orders; the reply's content, and the events on `games`."""
    ctx = MailContext(
        games,
        config,
        sender=request.sender,
        now=request.now,
        message_id=request.message_id,
        received_at=request.received_at,
    )
    interpret(ctx, request.lines)
    parts = [Part(line, lines) for line, lines in zip(ctx.part_of, ctx.parts, strict=True)]
    return Answer(ctx.sections, ctx.attachments, ctx.game_of_reply, ctx.phase_of_reply, ctx.unanswered,
                  on_file(ctx), parts)  # fmt: skip


def on_file(ctx: MailContext) -> list[list[str]]:
    """Each side a player signed on to in the mail, its orders now on file (issue 43: every reply to a signed-on
    player ends with them, as njudge's end with "Pending orders"), once a side; each in one line where the blocks
    would take the reply past its bound (a CW Heptadiplomacy side of many units after a PREVIEW: docs/mail.md, "Long
    replies"), ORDERS alone then showing them."""
    views = []
    shown: set[tuple[str, str]] = set()
    for game, power in ctx.signed_sides:
        try:
            view = ctx.games.on_file.view(game, power)
        except GameError:  # a game not running (forming, over): nothing is on file
            continue
        if (game, view.side) not in shown:
            shown.add((game, view.side))
            views.append(view)
    blocks = [on_file_lines(view) for view in views]
    answered = sum(len(section.output) + 2 for section in ctx.sections)
    if answered + sum(len(block) + 1 for block in blocks) + REPLY_FOOT > REPLY_LINES:
        return [on_file_summary(view) for view in views]
    return blocks


def interpret(ctx: MailContext, lines: list[str]) -> None:
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        found = lookup(line)
        if found is None:
            meant = misspelt_secret(line)
            if meant is not None:  # "SINGON game power pw": never quoted whole, never filed as an order
                ctx.say(f"{line.split()[0]} ****", [f"not a command; did you mean {meant}?"], failed=True)
                continue
            if ctx.power is not None:
                ctx.orders.append(line)  # after SIGNON (or the GM's BECOME), other lines are orders
                continue
            hint = (
                "orders need a player: BECOME player first (any name the judge prints)"
                if ctx.master
                else "send HELP for the list of commands"
            )
            ctx.say(line, [f"not a command; {hint}"], failed=True)
            continue
        cls, args = found
        body: list[str] = []
        if cls.takes_body:
            ends = (END_BODY, *cls.body_ends)
            while i < len(lines) and lines[i].strip().upper() not in ends:
                body.append(lines[i].rstrip())
                i += 1
            if i >= len(lines) or lines[i].strip().upper() == END_BODY:
                i += 1  # the ENDPRESS line; a SIGNOFF that ends a body (`body_ends`) is read as itself
        run_command(ctx, line, cls.name, args, body)
    flush_orders(ctx)


def run_command(ctx: MailContext, line: str, name: str, args: list[str], body: list[str]) -> None:
    cls = REGISTRY[name]
    shown = cls.masked(line)
    raised = len(ctx.games.events)
    parted = len(ctx.parts)
    try:
        if cls.role is Role.PLAYER and ctx.power is None:
            raise CommandError("sign on to your power first (SIGNON game power password)")
        if cls.role is Role.MASTER and not ctx.is_master:
            raise CommandError("this is a GM command: sign on as MASTER first (SIGNON game MASTER password)")
        if cls.role is Role.SIGNED and not ctx.signed_on:
            raise CommandError("sign on first (SIGNON game power password)")
        if cls.role is Role.SPEAKER and not (ctx.signed_on or ctx.observing):
            raise CommandError("sign on first (SIGNON game power password; an observer: SIGNON game OBSERVER password)")
        output = cls().run(ctx, args, body)
    except (CommandError, GameError) as exc:
        del ctx.games.events[raised:]  # undone with the command's savepoint
        del ctx.parts[parted:]
        ctx.say(shown, [str(exc)], failed=True)
        return
    answered = len(ctx.sections)
    ctx.say(shown, output)
    if len(ctx.sections) == answered:  # past the reply's limit: only counted, and no later mails either
        del ctx.parts[parted:]
    ctx.part_of.extend(shown for _ in ctx.parts[parted:])


def flush_orders(ctx: MailContext) -> None:
    """File the orders collected since the SIGNON as the power's set for the current phase."""
    if not ctx.orders or ctx.game is None or ctx.power is None:
        ctx.orders = []
        return
    lines, ctx.orders = ctx.orders, []
    if ctx.later_phase is not None:  # after PHASE: held for a later phase (`judge.game.later_orders`)
        _hold_orders(ctx, ctx.game, ctx.power, ctx.later_phase, lines)
        return
    # orders for a power sent from another address than its player's: the player hears of it (not for the GM)
    sender = None if ctx.master else ctx.sender
    try:
        done = ctx.games.orders.submit(ctx.game, ctx.power, lines, source_message_id=ctx.message_id, sender=sender)
    except GameError as exc:
        ctx.say("(orders)", [str(exc)], failed=True)
        return
    ctx.say("(orders)", orders_report(done, heading=True), failed=bool(done.errors))
    ctx.game_of_reply, ctx.phase_of_reply = done.game, done.phase


def _hold_orders(ctx: MailContext, game: str, power: str, phase: tuple[str, ...], lines: list[str]) -> None:
    """File the orders that followed a PHASE line for the phase it names."""
    try:
        held = ctx.games.later.hold(game, power, phase, lines, source_message_id=ctx.message_id)
    except GameError as exc:
        ctx.say("(orders)", [str(exc)], failed=True)
        return
    said = held_lines(held)
    ctx.say("(orders)", said, failed=bool(held.unreadable))
    ctx.game_of_reply = held.game
