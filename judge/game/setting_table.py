"""The settings a GM may change by mail, each with its kind and what it does, as HELP SET lists them: the table
that says which names exist (`judge.game.settings` reads and shows their values). Each wave's settings sit in one
block, under a comment naming what they are for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    kind: str
    """bool (on/off), int, number, year (1905, 440 BC), hours (a duration: 36h, 90m, 2d), days (5d), spans
    (durations: 24h,6h,1h), text, zone, time, weekdays, choice"""
    description: str
    choices: tuple[str, ...] = ()


_PHASE = {
    "hours": Setting("hours", "the least time from a phase's opening to its deadline"),
    "at": Setting("time", "the time of day its deadlines fall on (HH:MM, in the game's zone)"),
    "weekdays": Setting("weekdays", "the days its deadlines may fall on (mon,tue,wed,thu,fri or 0-6, 0 Monday)"),
    "grace_hours": Setting("hours", "how long after its deadline orders are still awaited"),
}

SETTINGS: dict[str, Setting] = {
    "manual": Setting("bool", "the GM processes every phase; deadlines only remind and warn (= timing.manual)"),
    "grace_hours": Setting("hours", "orders still awaited this long after every deadline"),
    "nmr": Setting("choice", "at the end of grace, without a power's orders", ("process", "wait")),
    "abandon_after": Setting("int", "phases in a row without orders before a power is marked abandoned"),
    "auto_start": Setting("bool", "start the game when the last player joins"),
    "press_with_results": Setting("bool", "hold press and release it with the next results"),
    "press.type": Setting(
        "choice", "white (signed), grey (unsigned), both (the sender chooses), none", ("white", "grey", "both", "none")
    ),
    "press.partial": Setting("bool", "press to some powers, not only to everybody"),
    "draw.dias": Setting("bool", "a draw includes every surviving power (false: draws among named powers)"),
    "draw.eliminated": Setting(
        "choice", "eliminated powers are left out of draws, or may share one", ("exclude", "include")
    ),
    "absence.mode": Setting(
        "choice", "a player's absence moves deadlines past it, or holds the power's units", ("extend", "hold")
    ),
    "absence.max_days": Setting("days", "the most an absence moves one deadline"),
    "results.orders": Setting(
        "choice", "how results print orders: the zines' F Nth C A Yor - Nwy, or njudge's lines", ("zine", "njudge")
    ),
    "results.names": Setting(
        "choice", "places in results by abbreviation (Nwy) or full name (Norway)", ("short", "full")
    ),
    "web.private": Setting("bool", "the game's web pages show nothing without its page password (SET WEB PASSWORD)"),
    "web.orders_in": Setting(
        "bool", "the game's web page shows whether each player's orders are in (never what they are)"
    ),
    "timing.zone": Setting("zone", "the game's time zone, for deadlines (Europe/London)"),
    "timing.reminder_hours": Setting("hours", "reminders this long before a deadline"),
    "timing.manual": Setting("bool", "the GM processes every phase; deadlines only remind and warn"),
    **{f"timing.{phase}.{key}": s for phase in ("movement", "retreat", "adjustment") for key, s in _PHASE.items()},
    # deadlines (issue 43: DELAY, reminders at intervals, who hears who is late)
    "timing.delay": Setting(
        "hours",
        "when every order is in early, the phase waits this long after the last came in, so a typo can still be "
        "corrected; new orders within it start it again (njudge's DELAY, 30m there; default 0: at once)",
    ),
    "timing.reminders": Setting(
        "spans",
        "reminders to players without (valid) orders, each this long before the deadline, such as 24h,6h,1h "
        "(default: one, timing.reminder_hours before)",
    ),
    "late.to": Setting(
        "choice",
        "who gets the list of late players at the deadline: all (every player, observer and the GM, as njudge) "
        "or gm (the GM alone; the default)",
        ("all", "gm"),
    ),
    # joining (issue 43 items 5 and 9, issue 44 item 3): who may take a place (judge.game.openings)
    "join.approval": Setting(
        "bool", "a JOIN, SIGNON ? or TAKEOVER waits for the GM to APPROVE or DECLINE it (off: none waits)"
    ),
    "join.open": Setting(
        "bool", "anyone may join the forming game without its password: SIGNON ? may place a player in it (off)"
    ),
    "join.takeover": Setting(
        "bool", "a registered player may TAKEOVER an open place (abandoned, resigned, never filled) (on)"
    ),
    # press rules (piece `press`, issues 43 and 44; the defaults are njudge's and DPjudge's: judge.game.house_rules)
    "press.fake": Setting(
        "bool",
        "a player may send press shown as from another power (AS France) or as to others (FAKE TO ...); "
        "the GM is told the truth (default off)",
    ),
    "press.minor": Setting("bool", "press between players in retreat and adjustment phases too (default on)"),
    "press.late": Setting(
        "bool", "after the deadline, a player whose orders are missing may still send press (default on)"
    ),
    "press.grace": Setting(
        "bool", "after the deadline, while anyone's orders are missing, press between players goes on (default on)"
    ),
    "press.must_order": Setting(
        "bool", "a player sends press (but to the GM) only once his orders for the phase are in (default off)"
    ),
    "press.observers": Setting(
        "choice",
        "what press observers may send: any (as players), white (never grey), broadcast (to everybody only), "
        "none (to the GM only) (default any)",
        ("any", "white", "broadcast", "none"),
    ),
    "press.gm_reads": Setting(
        "bool", "the GM is sent a copy of all private press between players; the players are told (default off)"
    ),
    # --- gunboat (issue 44 items 1 and 3): anonymous games, unlisted games, the GM's comment ---
    "gunboat": Setting(
        "bool",
        "who plays which power is kept from everyone but the GM (mail, LIST, the web) until the game ends or the "
        "GM sends REVEAL; only before the start (default off)",
    ),
    "reveal_at_end": Setting(
        "bool", "a gunboat game names its players when it ends (off: only the GM's REVEAL does; default on)"
    ),
    "unlisted": Setting(
        "bool",
        "the game is left out of LIST, the site's list of games and its feed; LIST game, its page and JOIN "
        "by name still work (default off)",
    ),
    "comment": Setting("text", "the GM's words about the game, shown by LIST FULL and LIST game (SET COMMENT)"),
    # records (issue 46): a game's entry limits, read by judge.game.entry_limits; none is set by default (no limit)
    "entry.dedication": Setting(
        "int", "the least dedication (njudge's points: +3 a phase on time, -1 late, -100 missed) a player needs to JOIN"
    ),
    "entry.on_time": Setting("number", "the least on-time ratio (0 to 1: phases on time over phases due) to JOIN"),
    "entry.resignation": Setting(
        "number",
        "the most civil-disorder ratio (phases missed over games started and taken over) a player may JOIN with",
    ),
    # the game's own end taken back (issue 44 item 5, piece undo): judge.game.undoing
    "end.undo_hours": Setting(
        "hours",
        "how long after a TERMINATE the GM may take it back with UNTERMINATE (TERMINATE OFF); the game returns to "
        "the status it had, its deadline moved on by the time it lay terminated (default 48h)",
    ),
    # piece njudge (issue 45): njudge's results layout, line for line, for the tools that read njudge's mails
    "results.layout": Setting(
        "choice",
        "the results mail's layout: the judge's own (zine, the default) or njudge's line for line (njudge), which "
        "jDip's judge import and njudge's mappers read",
        ("zine", "njudge"),
    ),
    # the game's own end (issue 44 item 5, piece `ending`): judge.game.year_end, judge.game.house_rules.DrawRules
    "draw.allowed": Setting(
        "bool",
        "the players may end the game in a draw by SET DRAW; off: draw votes are refused, and those cast before "
        "are dropped, the players told (default on)",
    ),
    "concede.allowed": Setting(
        "bool",
        "the players may concede the game by SET CONCEDE; off: concessions are refused, and those made before "
        "are dropped, the players told (default on)",
    ),
    "end.year": Setting(
        "year",
        "the game ends with the last phase of this year (1905, or 440 BC), won by the player(s) holding the most "
        "supply centres, leaders level sharing it (default none: the game runs until a victory or a draw)",
    ),
}
