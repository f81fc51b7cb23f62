"""Commands for joining and playing a game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from judge.commands.base import Command, CommandError, MailContext, command, require
from judge.commands.interpreter import flush_orders
from judge.engine import PhaseType
from judge.mail.announce import game_over_mails
from judge.mail.compose import notice
from judge.render import render
from judge.render.results import deadline_text
from judge.variants import get_variant


def parse_value(text: str) -> Any:
    """An option's value as written: a number, true/false, or the text."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


@command
class Create(Command):
    name = "CREATE"
    usage = "CREATE game variant password [option=value ...]"
    example = "CREATE alpha standard joinpw edition=1982"
    summary = "create a game; you become its GM"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 3, f"usage: {self.usage}")
        creators = ctx.config.creators
        require(not creators or ctx.sender in creators, "this judge lets only its named GMs create games")
        name, variant, password = args[0], args[1], args[2]
        require(name.isalnum() and len(name) <= 32, "a game name is letters and digits, at most 32")
        options: dict[str, Any] = {}
        for pair in args[3:]:
            key, sep, value = pair.partition("=")
            require(bool(sep), f"options are written option=value, not {pair!r}")
            options[key.lower()] = value  # read against the option's choices by the game service
        ctx.service.create_game(name.lower(), variant, ctx.sender, password, options=options)
        return [f"Game {name.lower()} ({variant}) created; you are its GM. Players JOIN {name.lower()} <password>."]


@command
class Join(Command):
    name = "JOIN"
    usage = "JOIN game password [power ...]"
    example = "JOIN alpha joinpw France England"
    summary = "join a forming game, naming the powers you would like in order"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 2, f"usage: {self.usage}")
        started = ctx.service.join(args[0].lower(), ctx.sender, args[1], args[2:])
        lines = [f"You have joined {args[0].lower()}."]
        if started:
            game = args[0].lower()
            view = ctx.service.view(game)
            mine = [s["power"] for s in view["seats"] if s["player"] == ctx.sender]
            lines.append(f"The game is full and has started; you play {', '.join(p for p in mine if p)}.")
            text = start_text(ctx, view)
            addresses = {*ctx.service.addresses(game).values(), *ctx.service.observers(game)}
            for address in sorted(addresses):
                ctx.mails.append((notice(ctx.config, address, f"{game} has started", text), "notice"))
        return lines


def start_text(ctx: MailContext, view: dict[str, Any]) -> str:
    """The game-start mail: the players and their powers, the variant and its options, the first phase and its
    deadline, and how to place units where the game opens with a placement."""
    variant = get_variant(view["variant"])
    phase = variant.first_phase()
    options = ", ".join(f"{k}={v}" for k, v in sorted(view["options"].items()))
    placing = ""
    if phase.type is not PhaseType.MOVEMENT:
        placing = (
            f"The game opens with {variant.phase_name(phase)}: each power places its units on its home centres, "
            "one order a unit (Build A Par, Build F StP/nc), as the variant's rules allow."
        )
    deadline = datetime.fromisoformat(view["deadline"]) if view["deadline"] else None
    return render(
        "start.txt.j2",
        view["variant"],
        judge=ctx.config.address,
        game=view["name"],
        title=variant.title,
        options=options,
        players=[(s["power"], s["name"] or "") for s in sorted(view["seats"], key=lambda s: s["power"] or "")],
        first=variant.phase_name(phase),
        deadline=deadline_text(deadline) if deadline else None,
        placing=placing,
        code=phase.code,
        deadline_code=phase.code if deadline else None,
        variant=view["variant"],
    )


@command
class Observe(Command):
    name = "OBSERVE"
    usage = "OBSERVE game password | OBSERVE game OFF"
    example = "OBSERVE alpha joinpw"
    summary = "receive a game's results and broadcasts without playing (OFF: stop)"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2, f"usage: {self.usage}")
        game = args[0].lower()
        stopping = args[1].upper() == "OFF"
        if ctx.service.observe(game, ctx.sender, None if stopping else args[1]):
            return [f"You observe {game}: its results and broadcasts will reach you."]
        return [f"You no longer observe {game}."]


@command
class Signon(Command):
    name = "SIGNON"
    usage = "SIGNON game power password   (or njudge's SIGNON Fgame password)"
    example = "SIGNON alpha France s3cret"
    summary = "sign on to your power (or as MASTER); the lines after it are your orders"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        flush_orders(ctx)
        if len(args) == 2:  # njudge: the power's initial glued to the game name
            power = ctx.service.power_by_initial(args[0][1:].lower(), args[0][0])
            game = args[0][1:].lower()
            require(power is not None, "signon failed: wrong game, power or password")
            assert power is not None
            args = [game, power, args[1]]
        require(len(args) == 3, f"usage: {self.usage}")
        power, address = ctx.service.signon(args[0].lower(), args[1], args[2])
        ctx.game = args[0].lower()
        ctx.master = power == "MASTER"
        ctx.power = None if ctx.master else power
        ctx.as_address = address
        ctx.game_of_reply = ctx.game
        return [f"Signed on to {ctx.game} as {power}."]


@command
class Signoff(Command):
    name = "SIGNOFF"
    usage = "SIGNOFF"
    example = "SIGNOFF"
    summary = "end your orders (the rest of the mail is read as commands again)"
    role = "signed"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        flush_orders(ctx)
        ctx.game = ctx.power = ctx.as_address = None
        ctx.master = False
        return ["Signed off."]


class _Wait(Command):
    role = "player"
    wait: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        ctx.service.set_wait(ctx.game, ctx.power, self.wait)
        return ["The phase will wait for your deadline." if self.wait else "The phase may be processed early."]


@command
class SetWait(_Wait):
    name = "SET WAIT"
    usage = "SET WAIT"
    example = "SET WAIT"
    summary = "do not process early on your account"
    wait = True


@command
class SetNoWait(_Wait):
    name = "SET NO WAIT"
    usage = "SET NO WAIT"
    example = "SET NO WAIT"
    summary = "allow early processing once everybody's orders are in"
    wait = False


class _Draw(Command):
    role = "player"
    accept: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        drawn = ctx.service.vote_draw(ctx.game, ctx.power, self.accept)
        if drawn:
            from judge.commands.master import deliver_held_press

            deliver_held_press(ctx, ctx.game)
            view = ctx.service.view(ctx.game)
            mails = game_over_mails(
                ctx.config, [*ctx.service.addresses(ctx.game).values(), *ctx.service.observers(ctx.game)],
                ctx.game, view["position"], "draw",
                list(view["winners"] or []),
            )  # fmt: skip
            ctx.mails.extend((mail, "result") for mail in mails)
            return ["Every surviving power has voted for a draw: the game is drawn."]
        return ["Your vote for a draw is recorded." if self.accept else "Your draw vote is withdrawn."]


@command
class SetDraw(_Draw):
    name = "SET DRAW"
    usage = "SET DRAW"
    example = "SET DRAW"
    summary = "vote for a draw among the survivors"
    accept = True


@command
class SetNoDraw(_Draw):
    name = "SET NO DRAW"
    usage = "SET NO DRAW"
    example = "SET NO DRAW"
    summary = "withdraw your draw vote"
    accept = False


class _Press(Command):
    role = "signed"
    takes_body = True
    broadcast = False

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None
        to: list[str] = ["*"]
        if not self.broadcast:
            require(len(args) >= 2 and args[0].upper() == "TO", "usage: PRESS TO power [power ...] (lines) ENDPRESS")
            to = args[1:]
        text = "\n".join(body).strip()
        require(bool(text), "the press message is empty (write it on the lines before ENDPRESS)")
        sender = "the GM" if ctx.master and ctx.power is None else (ctx.power or "the GM")
        addresses, held = ctx.service.add_press(ctx.game, None if sender == "the GM" else sender, to, text)
        if held:
            return [f"Press held: it goes to {len(addresses)} address(es) with the next results."]
        subject = f"{ctx.game}: press from {sender}"
        heading = f"Press from {sender} to {'everybody' if to == ['*'] else ', '.join(to)}:\n\n"
        for address in addresses:
            ctx.mails.append((notice(ctx.config, address, subject, heading + text), "press"))
        return [f"Press sent to {len(addresses)} address(es)."]


@command
class Press(_Press):
    name = "PRESS"
    usage = "PRESS TO power [power ...] ... ENDPRESS"
    example = "PRESS TO England Germany / Shall we? / ENDPRESS"
    summary = "send press to some powers"


@command
class Broadcast(_Press):
    name = "BROADCAST"
    usage = "BROADCAST ... ENDPRESS"
    example = "BROADCAST / Peace in our time. / ENDPRESS"
    summary = "send press to every power"
    broadcast = True


@command
class Resign(Command):
    name = "RESIGN"
    usage = "RESIGN"
    example = "SIGNON alpha France s3cret / RESIGN"
    summary = "leave the game; your power waits for a replacement"
    role = "player"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        ctx.service.eject(ctx.game, ctx.power)
        gm = ctx.service.addresses(ctx.game)["MASTER"]
        text = f"The player of {ctx.power} has resigned from {ctx.game}. REPLACE {ctx.power} address to fill the seat."
        ctx.mails.append((notice(ctx.config, gm, f"{ctx.game}: {ctx.power} resigned", text), "notice"))
        resigned = ctx.power
        ctx.power = None
        return [f"You have resigned {resigned}."]


_ = CommandError
