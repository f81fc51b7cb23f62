"""Commands anyone may send: what games there are, how they stand, what happened, and help."""

from __future__ import annotations

from judge.commands.archive import asks_range, history_range, summary_players
from judge.commands.base import REGISTRY, Command, CommandError, MailContext, Role, command, require
from judge.commands.joining import opening_lines
from judge.commands.shown import ending_line, options_lines, press_lines
from judge.game.end_rules import ending_terms
from judge.game.settings import help_lines
from judge.mail.pictures import animation_gif, map_files
from judge.render import reply_results
from judge.render.bounds import ANSWER_LINES, asks_full, fit
from judge.render.position import position_lines
from judge.render.results import Brief, phase_code
from judge.render.summary import Year, summary_lines


@command
class Help(Command):
    name = "HELP"
    usage = "HELP [command]"
    example = "HELP SET DEADLINE"
    summary = "list the commands, or explain one"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        if args:
            wanted = " ".join(a.upper() for a in args)
            if wanted == "SET":  # every SET command, and every setting SET name=value changes
                lines = ["The SET commands:"]
                for cls in sorted((c for c in REGISTRY.values() if c.name.startswith("SET ")), key=lambda c: c.name):
                    lines.append(f"  {cls.usage:45} {cls.summary}")
                lines.append("Settings the GM changes with SET name=value (several on one line):")
                return lines + help_lines()
            found = REGISTRY.get(wanted)
            require(found is not None, f"there is no command {wanted}; send HELP for the list")
            assert found is not None
            lines = [found.usage, f"  {found.summary}", f"  (may be sent by: {found.role.value})"]
            if found.example:
                lines.append(f"  example: {found.example}")
            if found.name == "SET OPTION":
                lines += help_lines()
            return lines
        return command_list()


def command_list() -> list[str]:
    """HELP's answer: every command with its usage and what it does (the web's help page prints the same)."""
    lines = ["Commands (one a line; orders follow SIGNON until SIGNOFF or the end of the mail):"]
    for cls in sorted(REGISTRY.values(), key=lambda c: (c.role is not Role.ANYONE, c.name)):
        lines.append(f"  {cls.usage:45} {cls.summary}")
    return lines


@command
class List(Command):
    name = "LIST"
    usage = "LIST [game [FULL]]"
    example = "LIST alpha"
    summary = (
        "the games on this judge, or one game's players and its position now (units, centres, deadline; FULL: "
        "every power's units however many)"
    )

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        args, whole = asks_full(args)
        if args:
            view = ctx.games.reads.game(args[0].lower())
            lines = [f"{view.name}: {view.variant}, {view.status}, GM {view.gm}"]
            lines += [f"  {line}" for line in options_lines(view.options, view.settings)]
            lines.append(f"  {ending_line(ending_terms(view.variant, view.options, view.settings))}")
            lines += press_lines(view.co_gms, view.observers, view.gm_reads_press)
            if view.players:
                width = max(12, *(len(p.side) for p in view.players))
                for player in view.players:
                    lines.append(f"  {player.side:{width}} {player.player or '-':30} {player.status}")
            else:
                for seat in view.seats:
                    lines.append(f"  {'(not yet assigned)':12} {seat.player or '-':30} {seat.status}")
                if view.status == "forming":
                    lines.append(f"  {view.places - len(view.seats)} of {view.places} places open.")
                    if view.open_sides:
                        lines.append(f"  Not yet asked for by anyone who joined: {', '.join(view.open_sides)}.")
                    lines.append("  (the powers are given at the start, by the preferences each player named at JOIN)")
            # joining: the places open to volunteers (judge.game.openings), never who played them
            opened = ctx.games.openings.of(view.name)
            if opened:
                lines += ["  Open to a volunteer:", *opening_lines(opened, with_game=False)]
            if view.position and view.status != "finished":
                zone = ctx.games.setup.zone(view.name)
                position = position_lines(view.variant, view.position, view.deadline, view.options, zone=zone.key)
                if len(lines) + len(position) >= ANSWER_LINES and not whole:  # a power a line (Heptadiplomacy)
                    position = position_lines(
                        view.variant, view.position, view.deadline, view.options, brief=True, zone=zone.key
                    )
                lines += ["", *position]
                return fit(lines, f"LIST {view.name} FULL", whole)
            elif view.status == "finished":
                lines.append(f"  the game is over: {view.result} {', '.join(view.winners or [])}".rstrip())
            return lines
        games = ctx.games.listing.games()
        if not games:
            return ["No games yet."]
        lines = []
        for g in games:
            lines.append(f"{g.name:16} {g.variant:14} {g.status:9} {g.phase}")
            if whole:  # LIST FULL: what a player choosing a game reads (njudge's LIST FULL gave each game's settings)
                taken = f"{g.players} of {g.places} places taken" if g.status == "forming" else f"{g.places} players"
                lines.append(f"  GM {g.gm}; {taken}")
                lines += [f"  {line}" for line in options_lines(g.options, g.settings)]
        return fit(lines, "LIST FULL", whole)


@command
class Summary(Command):
    name = "SUMMARY"
    usage = "SUMMARY game"
    example = "SUMMARY alpha"
    summary = (
        "the supply-centre counts, year by year, and who played each side: every takeover, replacement, resignation "
        "and abandonment with its phase (names hidden in a gunboat game, but to its GM)"
    )

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(len(args) == 1, f"usage: {self.usage}")
        history = ctx.games.reads.centre_history(args[0])
        if not history:
            return [f"{args[0]} has no processed phase yet."]
        view = ctx.games.reads.game(args[0])
        years = [Year(y.year, y.owned, y.finished) for y in history]
        return [*summary_lines(args[0], view.variant, view.options, years), "", *summary_players(ctx, view)]


def _processed_phase(ctx: MailContext, game: str, given: str | int) -> int:
    """The index of a processed phase named by its number or its code (F1901M), or given as an index."""
    if isinstance(given, int):
        index = given
    else:
        index = int(given) if given.isdigit() else ctx.games.reads.phase_index_of(game, given)
    if index < 0:
        raise CommandError(f"{game} has no processed phase yet")
    return index


@command
class Map(Command):
    name = "MAP"
    usage = "MAP game [phase number or code, e.g. F1901M | ALL]"
    example = "MAP alpha F1901M   (MAP alpha ALL: the whole game as an animation)"
    summary = "the map as a picture: now, after a processed phase with its orders drawn, or every phase (ALL)"

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        require(1 <= len(args) <= 2, f"usage: {self.usage}")
        game = args[0]
        view = ctx.games.reads.game(game)
        if len(args) == 2 and args[1].upper() == "ALL":
            outcomes = ctx.games.reads.outcomes(game)
            require(bool(outcomes), f"{game} has no processed phase yet")
            gif = animation_gif(view.variant, outcomes)
            if gif is None:
                raise CommandError(f"the {view.variant} map has no picture yet")
            name = f"{game}-all.gif"
            ctx.attachments.append((name, gif))
            return [f"Every phase of {game} ({len(outcomes)}, with their orders) is attached as an animation ({name})."]
        if len(args) == 1:
            data = view.position
            require(data is not None, f"{game} has no position yet")
            assert data is not None
            code = phase_code(data["phase"])
            what = f"the position of {game} now ({code})"
        else:
            data = ctx.games.reads.phase(game, _processed_phase(ctx, game, args[1])).outcome
            code = phase_code(data["phase"])
            what = f"{game} after {code}, with its orders"
        files = map_files(view.variant, data, f"{game}-{code}")
        if not files:
            raise CommandError(f"the {view.variant} map has no picture yet")
        ctx.attachments.extend(files)
        names = ", ".join(name for name, _ in files)
        return [f"The map of {what} is attached ({names})."]


@command
class History(Command):
    name = "HISTORY"
    usage = "HISTORY game [phase [FULL] | ALL | phase phase | FROM date [TO date]] [LINES n]"
    example = "HISTORY alpha F1901M   (HISTORY alpha ALL; HISTORY alpha S1901M F1902M; HISTORY alpha FROM 2026-12-01)"
    summary = (
        "the results of a processed phase again (the last by default; FULL: every order, every row); or of the whole "
        "game, a range of phases or of dates, in full with the press everybody read, in several mails where long "
        "(LINES n: at most n lines a mail)"
    )

    def run(self, ctx: MailContext, args: list[str], body: list[str]) -> list[str]:
        args, whole = asks_full(args)
        require(len(args) >= 1, f"usage: {self.usage}")
        if asks_range(args[1:]):
            return history_range(ctx, args[0], args[1:])
        require(1 <= len(args) <= 2, f"usage: {self.usage}")
        view = ctx.games.reads.game(args[0])
        given: str | int = args[1] if len(args) == 2 else view.last_processed
        index = _processed_phase(ctx, args[0], given)
        outcome = ctx.games.reads.phase(args[0], index).outcome
        full = f"HISTORY {args[0]} {phase_code(outcome['phase'])} FULL"
        mine = (ctx.power,) if ctx.power and ctx.game == args[0].lower() else ()  # his side, first and in full
        lines = reply_results(
            args[0],
            outcome,
            outcome.get("next_phase"),
            None if whole else Brief(full, mine),
            ANSWER_LINES,
            judge=ctx.config.judge_code,
            style=view.style,
            options=view.options,  # the players' sides and the powers' names as the game's rule options make them
        )
        return fit(lines, full, whole)
