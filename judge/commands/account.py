"""Commands about a player's own account."""

from __future__ import annotations

from judge.commands.base import Command, CommandError, MailContext, command, require
from judge.commands.card import card_lines
from judge.game.profiles import LEVELS, read_form


@command
class Register(Command):
    name = "REGISTER"
    usage = "REGISTER your name password | REGISTER (then the form's lines)"
    example = "REGISTER Anna Smith s3cret / Country: Norway / Timezone: Europe/Oslo / Level: Novice"
    summary = (
        "register your address with the judge (needed before JOIN or CREATE); the form's lines after it (Country:, "
        "Timezone:, Level:, Show address:) say more, now or later"
    )
    secrets = (-1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        if not args:  # njudge's form sent again: its lines follow, each a command of its own
            return ["Your registration: the form's lines that follow change it (WHOIS shows it)."]
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


class FormLine(Command):
    """One line of REGISTER's form (njudge's `data/form`): sets one field of the sender's registration."""

    key: str = ""

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        change = read_form([f"{self.key}: {' '.join(args)}"])
        player = ctx.games.accounts.update_profile(ctx.as_address or ctx.sender, change)
        value = {
            "Country": player.country,
            "Timezone": player.zone,
            "Level": player.level,
            "Show address": "yes" if player.show_address else "no",
        }[self.key]
        return [f"{self.key}: {value or '(not given)'}"]


@command
class FormCountry(FormLine):
    name = "COUNTRY:"
    key = "Country"
    usage = "Country: where you play from"
    example = "Country: Norway"
    summary = "REGISTER's form: your country, for GMs who balance a game (empty: none)"


@command
class FormTimezone(FormLine):
    name = "TIMEZONE:"
    key = "Timezone"
    usage = "Timezone: zone"
    example = "Timezone: Europe/Oslo"
    summary = "REGISTER's form: your time zone, as the judge names zones"


@command
class FormLevel(FormLine):
    name = "LEVEL:"
    key = "Level"
    usage = "Level: " + " | ".join(level.capitalize() for level in LEVELS)
    example = "Level: Intermediate"
    summary = "REGISTER's form: your experience at Diplomacy (njudge's levels)"


@command
class FormShowAddress(FormLine):
    name = "SHOW ADDRESS:"
    key = "Show address"
    usage = "Show address: yes | no"
    example = "Show address: yes"
    summary = "REGISTER's form: whether WHOIS and your page show your address (no, unless you say yes)"


@command
class FormEnd(Command):
    name = "END"
    usage = "END"
    example = "REGISTER Anna Smith s3cret / Country: Norway / Level: Novice / END"
    summary = "ends REGISTER's form, as njudge's form does (nothing else to do)"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(not args, "END ends REGISTER's form and takes nothing after it")
        return ["End of the form."]


@command
class IAmAlso(Command):
    name = "I AM ALSO"
    usage = "I AM ALSO address password"
    example = "I AM ALSO anna@home.example.org s3cret"
    summary = (
        "sent from a new address: it becomes yours as well (your account's address and password prove it); mail "
        "from it is yours"
    )
    secrets = (1,)

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 2 and "@" in args[0], f"usage: {self.usage}")
        name = ctx.games.accounts.also(ctx.sender, args[0], args[1])
        return [f"{ctx.sender} is now also {name}'s: mail from it is his, as from {args[0].lower()}."]


@command
class IAmAlsoOneWord(IAmAlso):
    name = "IAMALSO"
    usage = "IAMALSO address password"
    summary = "njudge's spelling of I AM ALSO"


@command
class Whois(Command):
    name = "WHOIS"
    usage = "WHOIS name | address"
    example = "WHOIS Anna Smith"
    summary = (
        "a registered player: his registration, record (games, phases on time, late, missed; dedication, ratios), "
        "ratings and games; his address only where he allows it"
    )

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(bool(args), f"usage: {self.usage}")
        return card_lines(ctx.games.whois.card(" ".join(args), asker=ctx.as_address or ctx.sender))


@command
class InfoPlayer(Whois):
    name = "INFO PLAYER"
    usage = "INFO PLAYER name | address"
    summary = "as WHOIS (njudge's INFOPLAYER)"


@command
class InfoPlayerOneWord(Whois):
    name = "INFOPLAYER"
    usage = "INFOPLAYER name | address"
    summary = "as WHOIS (njudge's spelling)"


@command
class GetDedication(Command):
    name = "GET DEDICATION"
    usage = "GET DEDICATION"
    example = "GET DEDICATION"
    summary = "your own record, as WHOIS gives it (njudge's GET DEDICATION)"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        me = ctx.as_address or ctx.sender
        return card_lines(ctx.games.whois.card(me, asker=me))


_ = CommandError
