"""Reading a mail's lines as commands and orders, in the njudge and DPjudge manner.

Each line is a command (`HELP`, `SIGNON game power password`, ...). After a player's SIGNON, lines that are not
commands are that power's orders, until SIGNOFF, the next SIGNON or the end of the mail; they are filed as one set,
which replaces the power's earlier set for the phase. Every command runs in a savepoint of the mail's
transaction: one that fails leaves no trace, and the others still stand.
"""

from __future__ import annotations

from judge.commands.base import REGISTRY, CommandError, MailContext, lookup, misspelt_secret
from judge.game import ServiceError
from judge.mail.compose import notice

END_BODY = "ENDPRESS"


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
            hint = "orders need a power: BECOME power first" if ctx.master else "send HELP for the list of commands"
            ctx.say(line, [f"not a command; {hint}"], failed=True)
            continue
        cls, args = found
        body: list[str] = []
        if cls.takes_body:
            while i < len(lines) and lines[i].strip().upper() != END_BODY:
                body.append(lines[i].rstrip())
                i += 1
            i += 1  # the ENDPRESS line
        run_command(ctx, line, cls.name, args, body)
    flush_orders(ctx)


def run_command(ctx: MailContext, line: str, name: str, args: list[str], body: list[str]) -> None:
    cls = REGISTRY[name]
    shown = _masked(line, cls.name)
    try:
        if cls.role == "player" and ctx.power is None:
            raise CommandError("sign on to your power first (SIGNON game power password)")
        if cls.role == "master" and not ctx.is_master:
            raise CommandError("this is a GM command: sign on as MASTER first (SIGNON game MASTER password)")
        if cls.role == "signed" and not ctx.signed_on:
            raise CommandError("sign on first (SIGNON game power password)")
        output = cls().run(ctx, args, body)
    except (CommandError, ServiceError) as exc:
        ctx.say(shown, [str(exc)], failed=True)
        return
    ctx.say(shown, output)


def flush_orders(ctx: MailContext) -> None:
    """File the orders collected since the SIGNON as the power's set for the current phase."""
    if not ctx.orders or ctx.game is None or ctx.power is None:
        ctx.orders = []
        return
    lines, ctx.orders = ctx.orders, []
    try:
        done = ctx.service.submit_orders(ctx.game, ctx.power, lines, source_message_id=ctx.message_id)
    except ServiceError as exc:
        ctx.say("(orders)", [str(exc)], failed=True)
        return
    output = [f"Orders for {done.power} in {done.game}, {done.phase}:"]
    for check in done.checks:
        if check.error:
            output.append(f"  {check.input}   ** {check.error}")
        else:
            output.append(f"  {check.input}   -> {check.order}")
    output.append("These orders replace the ones you sent before." if done.replaced else "Orders filed.")
    if done.errors:
        output.append(f"{len(done.errors)} order(s) could not be accepted; {done.fate_of_errors}.")
    ctx.say("(orders)", output, failed=bool(done.errors))
    ctx.game_of_reply, ctx.phase_of_reply = done.game, done.phase
    owner = ctx.as_address
    if owner and owner != ctx.sender.lower() and not ctx.master:
        # orders for a power sent from another address replace the player's: the player hears of it at once
        copy = [
            f"Orders for {done.power} in {done.game}, {done.phase}, were sent from {ctx.sender}",
            "with your password, and now replace any you sent before:",
            "",
            *output[1:],
            "",
            "If you did not send them, change your password (SET PASSWORD) and tell the GM.",
        ]
        subject = f"{done.game}: orders for {done.power} sent from another address"
        ctx.mails.append((notice(ctx.config, owner, subject, "\n".join(copy)), "notice"))


def _masked(line: str, name: str) -> str:
    """The line as quoted in the reply, with any password in it blanked."""
    secret_last = {"REGISTER", "JOIN", "SIGNON", "CREATE", "SET PASSWORD", "SET ADDRESS"}
    words = line.split()
    if name in {"SET PASSWORD"} and len(words) >= 3:
        return " ".join(words[:2] + ["****"] * (len(words) - 2))
    if name == "CREATE" and len(words) >= 4:
        return " ".join([*words[:3], "****", *words[4:]])
    if name == "JOIN" and len(words) >= 3:
        return " ".join([*words[:2], "****", *words[3:]])
    if name == "SET ADDRESS" and len(words) >= 4:
        return " ".join([*words[:2], "****", *words[3:]])
    if name in secret_last and len(words) >= 2:
        return " ".join([*words[:-1], "****"])
    return line
