"""A game as archives read it (issue 43 item 8): SUMMARY's players and their changes, and HISTORY over a range of
phases -- each phase's results as the results mail printed them, then the press everybody read in it -- cut into
mails of a bounded length where long.

njudge's summary (`summary.c`) listed each power with its player and, under it, "from S1903M" with each newcomer;
its history (`data/history`) returned what an observer would have read over a period, turn results and broadcast
press, up to 1000 lines unless asked for more (`LINES n`). Here nothing is cut off: a long answer comes in parts,
each within `PART_LINES` / `PART_BYTES`, a phase never cut between two mails unless it alone is longer than one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from judge.engine.supply import halves
from judge.render.bounds import REPLY_BYTES
from judge.render.tally import holdings, side_total

PART_LINES = 1000
"""the most lines of one mail of an archive's answer: njudge's HISTORY sent at most 1000 lines unless told (`LINES
n`); here the rest follows in further mails"""
PART_BYTES = REPLY_BYTES
"""the most bytes of one mail of an archive's answer (a reply's bound)"""
FEWEST_LINES = 40
"""the fewest lines a part may be asked to hold (`LINES n`): a phase's results in full run about that long"""
UNKNOWN = "(not kept: a gunboat game's first player)"
"""a gunboat game's first player of a side, replaced before the names were known: his name was never stored"""
HIDDEN = "(hidden)"
"""a player's name while a gunboat game keeps it from the reader"""


class Change(Protocol):
    """A change of a side's player (`judge.game.archive.SideChange`)."""

    @property
    def side(self) -> str: ...
    @property
    def how(self) -> str: ...
    @property
    def player(self) -> str | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def centres(self) -> dict[str, list[str]]: ...
    @property
    def unknown(self) -> bool: ...


_CAME = {
    "replaced": "put in by the GM (REPLACE)",
    "took over": "a volunteer (TAKEOVER)",
}
_LEFT = {
    "resigned": "resigned",
    "ejected": "was removed by the GM (EJECT)",
    "abandoned": "abandoned it (too many phases without orders)",
}


def players_lines(
    game: str,
    variant: str,
    options: dict[str, Any] | None,
    sides: Mapping[str, tuple[str, ...]],
    changes: Sequence[Change],
    hidden: bool,
) -> list[str]:
    """Who played each side (`sides`: label -> powers, in the order lists name them) and, under it, every change
    with its phase and the side's centres then; names as `changes` give them (None: `HIDDEN` where the game hides
    them, else nobody)."""
    by_side: dict[str, list[Change]] = {}
    for change in changes:
        by_side.setdefault(change.side, []).append(change)
    width = max([6, *(len(label) for label in sides)]) + 2
    lines = [f"Players of {game}{' (their names are hidden: a gunboat game)' if hidden else ''}:"]
    for label, powers in sides.items():
        told = by_side.get(label, [])
        first = told[0] if told and told[0].how == "started" else None
        lines.append(f"  {label:<{width}}{_name(first, hidden) if first else 'nobody'}")
        for change in told[1:] if first else told:
            count = _count(variant, options, powers, change.centres)
            if change.how in _CAME:
                lines.append(
                    f"  {'':<{width}}from {change.phase}: {_name(change, hidden)}, {_CAME[change.how]}; {count}"
                )
            else:
                who = HIDDEN if hidden else change.player or (UNKNOWN if change.unknown else "its player")
                lines.append(f"  {'':<{width}}in {change.phase}: {who} {_LEFT[change.how]}; {count}; left open")
    return lines


def _name(change: Change, hidden: bool) -> str:
    """Who came to the side: nobody at the start (civil disorder), or a name the judge never kept (a gunboat game's
    first player, replaced before the names were made known)."""
    if hidden:
        return HIDDEN
    if change.player is None:
        return UNKNOWN if change.unknown else "nobody (civil disorder)"
    return change.player


def _count(variant: str, options: dict[str, Any] | None, powers: tuple[str, ...], centres: dict[str, list[str]]) -> str:
    """The side's centres when it changed hands, counted as the results count them."""
    held = holdings(variant, {"supply_centers": centres}, options)
    total = halves(side_total(powers, held).centres)
    return f"{total} centre{'' if total == '1' else 's'} then"


def parts(blocks: Sequence[list[str]], lines: int = PART_LINES, size: int = PART_BYTES) -> list[list[str]]:
    """`blocks` (a heading, then one a phase) packed into mails of at most `lines` lines and `size` bytes, in order:
    a block goes whole into the mail it starts in where it fits there, else it starts the next; a block longer than
    a mail alone is cut where the mail is full. The parts joined are the blocks joined, line for line."""
    found: list[list[str]] = [[]]
    used = 0
    for block in blocks:
        weight = sum(len(line.encode()) + 1 for line in block)
        if found[-1] and (len(found[-1]) + len(block) > lines or used + weight > size):
            found.append([])
            used = 0
        for line in block:
            cost = len(line.encode()) + 1
            if found[-1] and (len(found[-1]) >= lines or used + cost > size):
                found.append([])
                used = 0
            found[-1].append(line)
            used += cost
    return found
