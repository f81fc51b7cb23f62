"""Commands for joining and playing a game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from judge.commands.base import Command, CommandError, MailContext, command, require
from judge.commands.interpreter import flush_orders
from judge.engine import PhaseType
from judge.game.house_rules import press_heading
from judge.mail.announce import game_over_mails
from judge.mail.compose import notice
from judge.render import render
from judge.render.results import deadline_text
from judge.schedule.when import DeadlineError, describe, read_days
from judge.variants import get_variant


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
            announce_start(ctx, game)
        return lines


def announce_start(ctx: MailContext, game: str) -> None:
    """The game-start mail, to every player, the GM and the observers."""
    text = start_text(ctx, ctx.service.view(game))
    addresses = {*ctx.service.addresses(game).values(), *ctx.service.observers(game)}
    for address in sorted(addresses):
        ctx.mails.append((notice(ctx.config, address, f"{game} has started", text), "notice"))


def start_text(ctx: MailContext, view: dict[str, Any]) -> str:
    """The game-start mail: the players and their powers, the variant and its options, the first phase and its
    deadline, and how to place units where the game opens with a placement."""
    variant = get_variant(view["variant"])
    phase = variant.first_phase()
    options = ", ".join(f"{k}={v}" for k, v in sorted(view["options"].items()))
    placing = variant.opening_help
    if phase.type is not PhaseType.MOVEMENT and not placing:
        placing = (
            f"The game opens with {variant.phase_name(phase)}: each power places its units on its home centres, "
            "one order a unit (Build A Par, Build F StP/nc), as the variant's rules allow."
        )
    deadline = datetime.fromisoformat(view["deadline"]) if view["deadline"] else None
    return render(
        "start.txt.j2",
        view["variant"],
        judge=ctx.config.judge_code,
        game=view["name"],
        title=variant.title,
        options=options,
        players=[
            (s["power"], s["name"] or ("civil disorder" if s["status"] == "disorder" else "(no player)"))
            for s in sorted(view["seats"], key=lambda s: s["power"] or "")
        ],
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
class SetPictures(Command):
    name = "SET PICTURES"
    usage = "SET PICTURES ON | SET PICTURES OFF"
    example = "SET PICTURES OFF"
    summary = "the map picture on your results mails (on by default)"
    role = "player"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(len(args) == 1 and args[0].upper() in ("ON", "OFF"), f"usage: {self.usage}")
        wanted = args[0].upper() == "ON"
        powers = ctx.service.side_of(ctx.game, ctx.power)
        ctx.service.set_pictures(ctx.game, powers, wanted)
        if wanted:
            return ["Your results mails carry the map after each phase again."]
        return ["Your results mails come without the map picture (MAP still sends one when asked)."]


class _Absence(Command):
    role = "signed"
    away: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None
        words = list(args)
        power = ctx.power
        if ctx.master and ctx.power is None:  # the GM names the power
            require(bool(words), f"usage: {self.usage}")
            power = ctx.service.power_named(ctx.game, words.pop(0))
        assert power is not None
        if self.away and [w.upper() for w in words] != ["OFF"]:
            require(bool(words), f"usage: {self.usage}")
            zone = ctx.service.zone(ctx.game)
            try:
                first, last = read_days(" ".join(words), ctx.now, zone)
            except DeadlineError as exc:
                raise CommandError(str(exc)) from None
            moved = ctx.service.set_absence(ctx.game, power, first, last)
            lines = [f"{power} is away from {first:%a %d %b %Y} to {last:%a %d %b %Y} (whole days, {zone.key})."]
        else:
            ctx.service.set_absence(ctx.game, power, None, None)
            return [f"{power} has no absence now."]
        if moved is not None:
            from judge.commands.master import announce

            when = describe(moved, zone)
            announce(ctx, "deadline extended", f"The deadline is extended to {when} for a player's absence.")
            lines.append(f"The deadline falls in it and moves to {when}; everyone in the game is told.")
        elif ctx.service.absence_mode(ctx.game) == "hold":
            lines.append(
                "Deadlines stand; while you are away the game does not wait for your orders (absence.mode=hold)."
            )
        else:
            lines.append("Any deadline that falls in it moves to a day after it ends (absence.mode=extend).")
        return lines


@command
class SetAbsence(_Absence):
    name = "SET ABSENCE"
    usage = "SET ABSENCE 2026-12-01 TO 2026-12-05 | SET ABSENCE OFF   (the GM: SET ABSENCE France ...)"
    example = "SET ABSENCE 2026-12-01 TO 2026-12-05"
    summary = "days you are away: deadlines move past them, or the game goes on without you, as the GM set"
    away = True


@command
class SetNoAbsence(_Absence):
    name = "SET NO ABSENCE"
    usage = "SET NO ABSENCE   (the GM: SET NO ABSENCE France)"
    example = "SET NO ABSENCE"
    summary = "withdraw your absence"
    away = False


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
        among = [word for arg in args for word in arg.replace(",", " ").split()]
        require(self.accept or not among, f"usage: {self.usage}")
        drawn = ctx.service.vote_draw(ctx.game, ctx.power, self.accept, among)
        if drawn:
            game_over(ctx, ctx.game, "draw", drawn)
            return [f"Every surviving power has voted for the same draw: the game is drawn ({', '.join(drawn)})."]
        if not self.accept:
            return ["Your draw vote is withdrawn."]
        return [f"Your vote for a draw{' among ' + ', '.join(among) if among else ''} is recorded."]


def game_over(ctx: MailContext, game: str, how: str, powers: list[str]) -> None:
    """A game ended by its players (a draw, a concession): held press delivered, everyone in it told."""
    from judge.commands.master import deliver_held_press

    deliver_held_press(ctx, game)
    view = ctx.service.view(game)
    addresses = [*ctx.service.addresses(game).values(), *ctx.service.observers(game)]
    mails = game_over_mails(ctx.config, addresses, game, view["position"], how, powers)
    ctx.mails.extend((mail, "result") for mail in mails)


@command
class SetDraw(_Draw):
    name = "SET DRAW"
    usage = "SET DRAW [power ...]"
    example = "SET DRAW   (or, where draw.dias is off: SET DRAW France Germany)"
    summary = "vote for a draw among the survivors (or, where the game allows it, among the powers named)"
    accept = True


@command
class SetNoDraw(_Draw):
    name = "SET NO DRAW"
    usage = "SET NO DRAW"
    example = "SET NO DRAW"
    summary = "withdraw your draw vote"
    accept = False


@command
class Concede(Command):
    name = "CONCEDE"
    usage = "CONCEDE power | CONCEDE OFF"
    example = "CONCEDE France"
    summary = "concede the game to a power; it wins when every other survivor has (OFF: withdraw)"
    role = "player"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(len(args) == 1, f"usage: {self.usage}")
        if args[0].upper() == "OFF":
            ctx.service.concede(ctx.game, ctx.power, None)
            return ["Your concession is withdrawn."]
        to = ctx.service.power_named(ctx.game, args[0])
        if ctx.service.concede(ctx.game, ctx.power, to):
            game_over(ctx, ctx.game, "conceded", [to])
            return [f"Every other surviving power has conceded to {to}: {to} wins the game."]
        return [f"Your concession to {to} is recorded; {to} wins when every other surviving power concedes too."]


class _Press(Command):
    role = "signed"
    takes_body = True
    broadcast = False

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None
        words = [a for a in args if a.upper() not in ("GREY", "GRAY", "WHITE")]
        marked = {a.upper() for a in args} - {a.upper() for a in words}
        grey = True if marked & {"GREY", "GRAY"} else False if "WHITE" in marked else None
        require(len(marked) <= 1, "press is GREY or WHITE, not both")
        to: list[str] = ["*"]
        if not self.broadcast:
            require(len(words) >= 2 and words[0].upper() == "TO", f"usage: {self.usage}")
            to = words[1:]
        else:
            require(not words, f"usage: {self.usage}")
        text = "\n".join(body).strip()
        require(bool(text), "the press message is empty (write it on the lines before ENDPRESS)")
        gm_writes = ctx.master and ctx.power is None
        sender = None if gm_writes else ctx.power
        sent = ctx.service.add_press(ctx.game, sender, to, text, grey)
        readers = len(sent.to) + 1
        if sent.held:
            return [f"Press held: it goes to {readers} address(es) with the next results."]
        subject = f"{ctx.game}: press" + (f" from {sender}" if sender and not sent.press["grey"] else "")
        for address, for_gm in [*((a, False) for a in sent.to), (sent.gm, True)]:
            if for_gm and gm_writes:
                continue  # the GM wrote it
            heading = press_heading(sent.press, for_gm)
            ctx.mails.append((notice(ctx.config, address, subject, f"{heading}\n\n{text}"), "press"))
        grey_note = " as grey press (your power is not named)" if sent.press["grey"] else ""
        return [f"Press sent{grey_note} to {readers if not gm_writes else readers - 1} address(es)."]


@command
class Press(_Press):
    name = "PRESS"
    usage = "PRESS TO power [power ...] [GREY] ... ENDPRESS   (PRESS TO GM: to the GM alone)"
    example = "PRESS TO England Germany / Shall we? / ENDPRESS"
    summary = "send press to some powers (GREY: without naming yours, where the game allows it)"


@command
class Broadcast(_Press):
    name = "BROADCAST"
    usage = "BROADCAST [GREY] ... ENDPRESS"
    example = "BROADCAST / Peace in our time. / ENDPRESS"
    summary = "send press to every power (and the game's observers)"
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
