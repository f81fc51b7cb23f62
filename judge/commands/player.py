"""Commands for joining and playing a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.commands.base import Command, CommandError, MailContext, Role, command, require
from judge.commands.interpreter import flush_orders
from judge.commands.shown import options_lines
from judge.game.seating import Joined
from judge.game.when import DeadlineError, read_days
from judge.mail.pictures import map_files
from judge.render import reply_results
from judge.render.bounds import ANSWER_LINES, asks_full, fit
from judge.render.dates import day_text, when_text
from judge.render.orders import check_lines, on_file_lines, withdrawn_lines
from judge.render.results import Brief, phase_code
from judge.variants import UnknownVariant, get_variant


@command
class Create(Command):
    name = "CREATE"
    usage = "CREATE game variant password [option=value ...]"
    example = "CREATE alpha standard joinpw edition=1982"
    summary = "create a game; you become its GM"
    secrets = (2,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 3, f"usage: {self.usage}")
        creators = ctx.config.creators
        require(not creators or ctx.sender in creators, "this judge lets only its named GMs create games")
        name, variant, password = args[0], args[1], args[2]  # the name's rules: judge.game.names
        options: dict[str, Any] = {}
        for pair in args[3:]:
            key, sep, value = pair.partition("=")
            require(bool(sep), f"options are written option=value, not {pair!r}")
            options[key.lower()] = value  # read against the option's choices by the use case
        created = ctx.games.seating.create_game(name, variant, ctx.sender, password, options=options)
        return [
            f"Game {created.name} ({variant}) created; you are its GM. Players JOIN {created.name} <password>.",
            *options_lines(created.options, created.settings),
        ]


@command
class Join(Command):
    name = "JOIN"
    usage = "JOIN game password [power or player ...]   ([France Germany] or France=Germany: liked alike; ANY: none)"
    example = "JOIN alpha joinpw France [England Germany] ANY"
    summary = "join a forming game, naming the powers you would like, best first"
    secrets = (1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 2, f"usage: {self.usage}")
        return joined_lines(ctx.games.seating.join(args[0].lower(), ctx.sender, args[1], args[2:]))


@command
class SetPreference(Command):
    name = "SET PREFERENCE"
    usage = "SET PREFERENCE game power ...   ([France Germany] or France=Germany: liked alike; ANY: none)"
    example = "SET PREFERENCE alpha Italy [France Germany]"
    summary = "change the powers you would like in a forming game you joined, until they are given at the start"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) >= 2, f"usage: {self.usage}")
        shown = ctx.games.openings.set_preferences(args[0].lower(), ctx.sender, args[1:])
        return [f"Your wishes in {args[0].lower()}, best first: {shown}. The powers are given when it starts."]


def joined_lines(joined: Joined) -> list[str]:
    """The reply to a JOIN or a SIGNON ?: joined, joined and started, or waiting for the GM's answer."""
    if joined.waiting:
        return [
            f"The GM of {joined.game} approves who joins: your wish is sent to him, and you will be told his answer."
        ]
    lines = [f"You have joined {joined.game}."]
    if joined.side is not None:
        lines.append(f"The game is full and has started; you play {joined.side.described}.")
    return lines


@command
class Observe(Command):
    name = "OBSERVE"
    usage = "OBSERVE game password | OBSERVE game OFF"
    example = "OBSERVE alpha joinpw"
    summary = "receive a game's results and broadcasts without playing (OFF: stop)"
    secrets = (1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2, f"usage: {self.usage}")
        game = args[0].lower()
        stopping = args[1].upper() == "OFF"
        if ctx.games.seating.observe(game, ctx.sender, None if stopping else args[1]):
            return [f"You observe {game}: its results and broadcasts will reach you."]
        return [f"You no longer observe {game}."]


@command
class Signon(Command):
    name = "SIGNON"
    usage = (
        "SIGNON game power password   (or njudge's SIGNON Fgame password; SIGNON game OBSERVER password; "
        "SIGNON ?game password [powers] joins a forming game; SIGNON ? yourpassword [variant] [powers] joins the "
        "one open to anyone that waited longest)"
    )
    example = "SIGNON alpha France s3cret   (CW Heptadiplomacy: SIGNON hep England s3cret, or Player 2)"
    summary = (
        "sign on as your power or player (or as MASTER; an observer as OBSERVER, for press); the lines after it "
        "are your orders"
    )
    secrets = (-1,)

    @classmethod
    def masked(cls, line: str) -> str:
        """The line as it may be quoted: the password blanked, the last word -- or, in njudge's SIGNON ? forms,
        the word after the ?, since powers or a variant may follow it."""
        words = line.split()
        width = len(cls.name.split())
        if len(words) > width + 1 and words[width].startswith("?"):
            return " ".join([*words[: width + 1], "****", *words[width + 2 :]])
        return super().masked(line)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        flush_orders(ctx)
        if args and args[0].startswith("?"):  # njudge: SIGNON ?game password, SIGNON ? password [variant]
            return _signon_to_join(ctx, args)
        if len(args) == 2:  # njudge: the power's initial glued to the game name
            power = ctx.games.seating.power_by_initial(args[0][1:].lower(), args[0][0])
            game = args[0][1:].lower()
            require(power is not None, "signon failed: wrong game, power or password")
            assert power is not None
            args = [game, power, args[1]]
        require(len(args) >= 3, f"usage: {self.usage}")
        who = " ".join(args[1:-1])  # a player's name may be two words (Player 2)
        if who.upper() == "OBSERVER":  # njudge's observer signon: for press, with his registered password
            ctx.game = ctx.power = ctx.as_address = ctx.later_phase = None
            ctx.master = False
            ctx.as_address = ctx.games.seating.signon_observer(args[0].lower(), ctx.sender, args[-1])
            ctx.observing = ctx.game_of_reply = args[0].lower()
            return [f"Signed on to {ctx.observing} as an observer: you may send press as the game allows it."]
        ctx.observing = None
        admin = ctx.config.admin.strip().lower() if ctx.config.admin else None  # he stands in for a vanished GM,
        signed = ctx.games.seating.signon(  # from his own address only
            args[0].lower(), who, args[-1], admin=admin if admin and ctx.sender.strip().lower() == admin else None
        )
        ctx.later_phase = None
        ctx.game = args[0].lower()
        ctx.master = signed.power == "MASTER"
        ctx.power = None if ctx.master else signed.power
        ctx.as_address = signed.address
        ctx.game_of_reply = ctx.game
        if ctx.power is not None:  # the reply ends with the side's orders on file (`interpreter.on_file`)
            ctx.signed_sides.append((ctx.game, ctx.power))
        if len(signed.holds) > 1:
            return [
                f"Signed on to {ctx.game} as {who.strip() or signed.power}: you play {signed.side} "
                f"({', '.join(signed.holds)}); each order is filed with the power whose unit it names."
            ]
        return [f"Signed on to {ctx.game} as {signed.power}."]


def is_variant(word: str) -> bool:
    """Whether a word names a variant of this judge (SIGNON ? yourpassword standard)."""
    try:
        get_variant(word)
    except UnknownVariant:
        return False
    return True


def _signon_to_join(ctx: MailContext, args: list[str]) -> list[str]:
    """njudge's ways to join by SIGNON: `SIGNON ?game password [powers]` joins that game as JOIN does (its
    password); `SIGNON ? yourpassword [variant] [powers]` joins the forming game open to anyone (`join.open`)
    that has waited longest, of the variant named, with your own password. Either way the mail is not signed on
    to a power: the powers are given when the game starts."""
    named = args[0][1:].lower()
    require(len(args) >= 2, f"usage: {Signon.usage}")
    if named:
        return joined_lines(ctx.games.seating.join(named, ctx.sender, args[1], args[2:]))
    rest = args[2:]
    variant = rest[0] if rest and rest[0].upper() not in ("ANY", "*") and is_variant(rest[0]) else None
    wishes = rest[1:] if variant is not None else rest
    return joined_lines(ctx.games.seating.join_next(ctx.sender, args[1], variant, wishes))


@command
class Signoff(Command):
    name = "SIGNOFF"
    usage = "SIGNOFF"
    example = "SIGNOFF"
    summary = "end your orders (the rest of the mail is read as commands again)"
    role = Role.SPEAKER  # an observer signs off too

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        flush_orders(ctx)
        ctx.game = ctx.power = ctx.as_address = ctx.later_phase = ctx.observing = None
        ctx.master = False
        return ["Signed off."]


class _Wait(Command):
    role = Role.PLAYER
    wait: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        ctx.games.setup.set_wait(ctx.game, ctx.power, self.wait)
        return ["The phase will wait for your deadline." if self.wait else "The phase may be processed early."]


@command
class SetPictures(Command):
    name = "SET PICTURES"
    usage = "SET PICTURES ON | SET PICTURES OFF"
    example = "SET PICTURES OFF"
    summary = "the map picture on your results mails (on by default)"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(len(args) == 1 and args[0].upper() in ("ON", "OFF"), f"usage: {self.usage}")
        wanted = args[0].upper() == "ON"
        powers = ctx.games.seating.side_of(ctx.game, ctx.power)
        ctx.games.setup.set_pictures(ctx.game, powers, wanted)
        if wanted:
            return ["Your results mails carry the map after each phase again."]
        return ["Your results mails come without the map picture (MAP still sends one when asked)."]


@command
class SetLayout(Command):
    name = "SET LAYOUT"
    usage = "SET LAYOUT NJUDGE | SET LAYOUT ZINE"
    example = "SET LAYOUT NJUDGE"
    summary = "your results mails in njudge's layout, line for line, or the judge's own (the game's by default)"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(len(args) == 1 and args[0].upper() in ("NJUDGE", "ZINE"), f"usage: {self.usage}")
        njudge = args[0].upper() == "NJUDGE"
        powers = ctx.games.seating.side_of(ctx.game, ctx.power)
        ctx.games.setup.set_layout(ctx.game, powers, njudge)
        if njudge:
            return ["Your results mails come in njudge's layout, line for line, for the tools that read njudge's."]
        return ["Your results mails come in the game's layout (results.layout) again."]


class _Absence(Command):
    role = Role.SIGNED
    away: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None
        words = list(args)
        power = ctx.power
        if ctx.master and ctx.power is None:  # the GM names the player, by any name the judge prints
            require(bool(words), f"usage: {self.usage}")
            power, width = ctx.games.seating.power_leading(ctx.game, words)
            del words[:width]
        assert power is not None
        who = ctx.games.seating.side_named(ctx.game, power).label  # the player, as LIST and STATUS name him
        if self.away and [w.upper() for w in words] != ["OFF"]:
            require(bool(words), f"usage: {self.usage}")
            zone = ctx.games.setup.zone(ctx.game)
            try:
                first, last = read_days(" ".join(words), ctx.now, zone)
            except DeadlineError as exc:
                raise CommandError(str(exc)) from None
            moved = ctx.games.setup.set_absence(ctx.game, power, first, last)
            lines = [f"{who} is away from {day_text(first)} to {day_text(last)} (whole days, {zone.key})."]
        else:
            ctx.games.setup.set_absence(ctx.game, power, None, None)
            return [f"{who} has no absence now."]
        if moved is not None:
            when = when_text(moved, zone)
            lines.append(f"The deadline falls in it and moves to {when}; everyone in the game is told.")
        elif ctx.games.setup.absence_mode(ctx.game) == "hold":
            lines.append(
                "Deadlines stand; while you are away the game does not wait for your orders (absence.mode=hold)."
            )
        else:
            lines.append("Any deadline that falls in it moves to a day after it ends (absence.mode=extend).")
        return lines


@command
class SetAbsence(_Absence):
    name = "SET ABSENCE"
    usage = "SET ABSENCE 2026-12-01 TO 2026-12-05 | SET ABSENCE OFF   (the GM: SET ABSENCE player ...)"
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


@command
class PhaseOrders(Command):
    name = "PHASE"
    usage = "PHASE season year phase   (or njudge's code: PHASE F1901R)"
    example = "PHASE Fall 1901 Retreat / A Mun - Boh / PHASE Winter 1901 Builds / Build A Par"
    summary = "the orders that follow are for that later phase: held, and checked when it opens"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(bool(args), f"usage: {self.usage}")
        flush_orders(ctx)  # the lines before it are for the phase they were for
        later, said = ctx.games.later.phase_for(ctx.game, args)
        ctx.later_phase = tuple(args) if later else None
        if not later:
            return [f"{said} is the phase under way: the orders that follow are for it."]
        return [f"The orders that follow are held for {said}, and checked when it opens."]


class _Draw(Command):
    role = Role.PLAYER
    accept: bool

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        among = [word for arg in args for word in arg.replace(",", " ").split()]
        require(self.accept or not among, f"usage: {self.usage}")
        drawn = ctx.games.talk.vote_draw(ctx.game, ctx.power, self.accept, among)
        if drawn:
            return [f"Every surviving power has voted for the same draw: the game is drawn ({', '.join(drawn)})."]
        if not self.accept:
            return ["Your draw vote is withdrawn."]
        return [f"Your vote for a draw{' among ' + ', '.join(among) if among else ''} is recorded."]


@command
class SetDraw(_Draw):
    name = "SET DRAW"
    usage = "SET DRAW [player ...]   (any name the judge prints)"
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
    usage = "CONCEDE player | CONCEDE OFF   (any name the judge prints: France, Sparta + Elatea, Player 2)"
    example = "CONCEDE France"
    summary = "concede the game to a power; it wins when every other survivor has (OFF: withdraw)"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        require(bool(args), f"usage: {self.usage}")
        if [a.upper() for a in args] == ["OFF"]:
            ctx.games.talk.concede(ctx.game, ctx.power, None)
            return ["Your concession is withdrawn."]
        named = " ".join(args)
        to = ctx.games.seating.power_named(ctx.game, named)
        who = ctx.games.seating.side_named(ctx.game, named).label
        if ctx.games.talk.concede(ctx.game, ctx.power, to):
            return [f"Every other surviving power has conceded to {who}: {who} wins the game."]
        return [f"Your concession to {who} is recorded; {who} wins when every other surviving power concedes too."]


class _Press(Command):
    role = Role.SPEAKER
    takes_body = True
    broadcast = False

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        game = ctx.game or ctx.observing
        assert game is not None  # Role.SPEAKER: signed on, or an observer signed on
        written = _written_press(args, self.broadcast, self.usage)
        text = "\n".join(body).strip()
        require(bool(text), "the press message is empty (write it on the lines before ENDPRESS)")
        gm_writes = ctx.master and ctx.power is None
        sender = None if gm_writes or ctx.observing else ctx.power
        sent = ctx.games.talk.post_press(
            game,
            sender,
            written.to,
            text,
            written.grey,
            observer=ctx.as_address if ctx.observing else None,
            shown_as=written.shown_as,
            shown_to=written.shown_to,
        )
        readers = len(sent.to) + (len(sent.gms) if not gm_writes else 0)
        if sent.held:
            return [f"Press held: it goes to {readers} address(es) with the next results."]
        notes = []
        if sent.press["grey"]:
            notes.append("as grey press (your power is not named)" if sender else "as grey press (unsigned)")
        if written.shown_as or written.shown_to:
            notes.append("as fake press (its readers see the heading you chose; the GM is told the truth)")
        return [f"Press sent{' ' + ' and '.join(notes) if notes else ''} to {readers} address(es)."]


@dataclass(frozen=True)
class _Written:
    """A PRESS or BROADCAST line as read: the readers, GREY or WHITE (None: the game's default), and what fake
    press shows (`AS power`, `FAKE TO names` or `FAKE BROADCAST`)."""

    to: list[str]
    grey: bool | None
    shown_as: str | None
    shown_to: list[str] | None


def _written_press(args: list[str], broadcast: bool, usage: str) -> _Written:
    """Read `PRESS TO names [GREY|WHITE] [AS power] [FAKE TO names | FAKE BROADCAST]` (BROADCAST without TO):
    njudge's FAKE words and DPjudge's impersonation, AS. Two readings of one line are refused, never guessed."""
    words = [a for a in args if a.upper() not in ("GREY", "GRAY", "WHITE")]
    marked = {a.upper() for a in args} - {a.upper() for a in words}
    require(len(marked) <= 1, "press is GREY or WHITE, not both")
    grey = True if marked & {"GREY", "GRAY"} else False if "WHITE" in marked else None
    upper = [w.upper() for w in words]
    shown_to: list[str] | None = None
    if "FAKE" in upper:
        at = upper.index("FAKE")
        faked, words, upper = words[at + 1 :], words[:at], upper[:at]
        if not faked or [w.upper() for w in faked] == ["BROADCAST"]:
            shown_to = ["*"]
        else:
            require(faked[0].upper() == "TO" and len(faked) > 1, "fake press is FAKE TO names or FAKE BROADCAST")
            shown_to = faked[1:]
    shown_as = None
    if "AS" in upper:
        at = upper.index("AS")
        require(at + 1 < len(words), "AS names the power the press is shown as from: AS Germany")
        shown_as, words = " ".join(words[at + 1 :]), words[:at]
    if broadcast:
        require(not words, f"usage: {usage}")
        return _Written(["*"], grey, shown_as, shown_to)
    require(len(words) >= 2 and words[0].upper() == "TO", f"usage: {usage}")
    return _Written(words[1:], grey, shown_as, shown_to)


@command
class Press(_Press):
    name = "PRESS"
    usage = (
        "PRESS TO player [player ...] [GREY] [AS player] [FAKE TO player ... | FAKE BROADCAST] ... ENDPRESS   "
        "(any name the judge prints; PRESS TO GM: the GM alone)"
    )
    example = "PRESS TO England Germany / Shall we? / ENDPRESS   (fake press: PRESS TO England AS Germany)"
    summary = (
        "send press to some powers (GREY: without naming yours; AS, FAKE: shown as from or to others; where the "
        "game allows it)"
    )


@command
class Broadcast(_Press):
    name = "BROADCAST"
    usage = "BROADCAST [GREY] [AS player] [FAKE TO player ...] ... ENDPRESS"
    example = "BROADCAST / Peace in our time. / ENDPRESS"
    summary = "send press to every power (and the game's observers)"
    broadcast = True


@command
class Resign(Command):
    name = "RESIGN"
    usage = "RESIGN"
    example = "SIGNON alpha France s3cret / RESIGN"
    summary = "leave the game; your power (all of your side) waits for a replacement"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        side = ctx.games.controls.resign(ctx.game, ctx.power)
        ctx.signed_sides = [(g, p) for g, p in ctx.signed_sides if g != ctx.game]
        ctx.power = None
        return [f"You have resigned {side.label}; the game's mail will not reach you any more."]


_ = CommandError


@command
class ShowOrders(Command):
    """njudge has no command for it (its replies end with "Pending orders"); DPjudge's is STATUS, which here is
    the game's state. ORDERS is what a player asking for his orders would write."""

    name = "ORDERS"
    usage = "ORDERS [FULL]"
    example = "SIGNON alpha France s3cret / ORDERS"
    summary = "show your side's orders on file for this phase, changing nothing (a long list cut unless FULL)"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        args, whole = asks_full(args)
        require(not args, f"usage: {self.usage}")
        shown = on_file_lines(ctx.games.on_file.view(ctx.game, ctx.power), pending=bool(ctx.orders))
        return fit(shown, "ORDERS FULL", whole)  # a CW Heptadiplomacy side late in a game: bounded as every answer


@command
class Clear(Command):
    name = "CLEAR"
    usage = "CLEAR   (all your side's orders for this phase)  |  CLEAR A Par, F Bre   (those units' orders)"
    example = "SIGNON alpha France s3cret / CLEAR A Par, F Bre"
    summary = "withdraw your orders on file for this phase, all or those of the units named: they are as unordered"
    role = Role.PLAYER

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        flush_orders(ctx)  # the orders written above it are filed first: CLEAR acts on them too
        units = [unit.strip() for unit in " ".join(args).split(",") if unit.strip()]
        cleared = ctx.games.on_file.clear(ctx.game, ctx.power, units)
        return withdrawn_lines(cleared, bool(units))


@command
class Preview(Command):
    name = "PREVIEW"
    usage = "PREVIEW [game] [FULL], then orders for any powers, up to ENDPRESS or the end of the mail"
    example = "SIGNON alpha France pw / PREVIEW / A Par - Bur / A Mun - Bur / ENDPRESS"
    summary = (
        "what-if: adjudicate the orders that follow against the position now; nothing is stored (FULL: every "
        "power's orders and every board's map)"
    )
    role = Role.PLAYER
    takes_body = True

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        assert ctx.game is not None and ctx.power is not None
        args, whole = asks_full(args)
        require(len(args) <= 1, f"usage: {self.usage}")
        require(not args or args[0].lower() == ctx.game, f"you are signed on to {ctx.game}: PREVIEW {ctx.game}")
        lines = [line.strip() for line in body if line.strip()]
        require(bool(lines), "PREVIEW needs orders on the lines after it (up to ENDPRESS or the end of the mail)")
        seen = ctx.games.adjudication.preview(ctx.game, ctx.power, lines)
        out = [
            "What these orders alone would give against the position now: units not ordered hold; no order on",
            "file, yours or anyone's, is used, and nothing is stored. Your orders, read for the powers they order:",
        ]
        for power, checks in seen.checks.items():
            out.append(f"{power}:")
            out += check_lines(checks)
        code = phase_code(seen.outcome["phase"])
        full = f"PREVIEW {ctx.game} FULL"
        brief = None if whole else Brief(full, (*seen.checks, *seen.side))
        room = ANSWER_LINES - len(out) - 3
        out += ["", *reply_results(ctx.game, seen.outcome, None, brief, room, judge=ctx.config.judge_code,
                                   title="preview", style=seen.style)]  # fmt: skip
        out = fit(out, full, whole)
        if not ctx.config.pictures:  # `[judge] pictures = false`: no picture on any mail of this judge
            return out
        ordered = None if whole else [str(o["at"]) for o in seen.outcome["orders"] if o.get("input") and o.get("at")]
        stem = f"{ctx.game}-{code}-preview"
        files = map_files(seen.variant, seen.outcome, stem, at=ordered)
        if files:
            ctx.attachments.extend(files)
            out.append(f"The map of the preview is attached ({', '.join(name for name, _ in files)}).")
            if ordered is not None and [name for name, _ in files] != [f"{stem}.png"]:  # one board of several
                out.append(f"It is the board most of your orders are on; {full} attaches every board.")
        return out
