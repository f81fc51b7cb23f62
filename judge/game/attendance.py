"""Who a phase waits for: players away (`SET ABSENCE`) and powers nobody plays (civil disorder); and how what is
still owed is named, a side at a time.

Attendance is reckoned per power owed and reported per side: a phase waits for every power that owes orders (a
Hepta player's seven board-nations are seven sets of orders, a Hoplite Major and its Minor two), and a notice or a
list names the player's side once, with the powers in question when they are not all it has (`owed_text`).

An absence is whole days in the game's zone, from the start of its first day to the end of its last. The GM
chooses (`absence.mode`) what it does:
- `extend` (the default): a deadline that falls within the absence of a power that has to order moves to a day
  after the absence ends (`EXTENSION_AFTER`), never more than `absence.max_days` past the deadline it replaces;
- `hold`: the deadline stands, the game does not wait for the power, its units hold (or are dealt with by the
  civil-disorder rules), and it is not counted late.
A power in civil disorder (no player, since the GM started the game short or left it so) is never waited for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from judge.game.settings import section
from judge.store.models import Seat, SeatStatus
from judge.variants import Side

EXTENSION_AFTER = timedelta(hours=24)
"""how long after an absence ends an extended deadline falls: a day to read the position and order"""
DEFAULT_MAX_DAYS = 14


@dataclass(frozen=True)
class Absence:
    power: str
    start: datetime
    end: datetime
    """aware instants; `end` is the end of the absence's last day"""

    def covers(self, moment: datetime) -> bool:
        return self.start <= moment < self.end

    def days(self, zone: ZoneInfo) -> tuple[date, date]:
        """The first and the last whole day away, in the game's zone, as the player gave them (`end` is the
        midnight after the last day: written as a day, it would be one day late)."""
        return self.start.astimezone(zone).date(), (self.end - timedelta(microseconds=1)).astimezone(zone).date()


LONGEST = timedelta(days=90)
"""the longest one absence may be: a player away longer is replaced, not waited for"""


class AbsenceError(ValueError):
    """An absence the judge will not record; the message says why."""


def absence_of(power: str, first: date, last: date, zone: ZoneInfo) -> Absence:
    if last < first:
        raise AbsenceError("an absence ends on or after the day it starts")
    if last - first >= LONGEST:
        raise AbsenceError(f"an absence is at most {LONGEST.days} days; for longer, the GM replaces the player")
    try:
        start = datetime.combine(first, time(0), tzinfo=zone).astimezone(UTC)
        end = datetime.combine(last + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)
    except (OverflowError, ValueError):
        raise AbsenceError(f"{last} is a day the judge cannot count to") from None
    return Absence(power, start, end)


Away = Mapping[str, Sequence[str]]
"""a game's absences as kept (`Game.absences`): power -> [start, end], ISO instants"""


def absences(away: Away) -> list[Absence]:
    """The absences a game holds (`Game.absences`)."""
    found = []
    for power, (start, end) in sorted(away.items()):
        found.append(Absence(power, datetime.fromisoformat(start), datetime.fromisoformat(end)))
    return found


def stored(absence: Absence) -> list[str]:
    return [absence.start.isoformat(), absence.end.isoformat()]


def mode(settings: dict[str, Any]) -> str:
    return str(section(settings, "absence").get("mode", "extend"))


def max_days(settings: dict[str, Any]) -> float:
    return float(section(settings, "absence").get("max_days", DEFAULT_MAX_DAYS))


def extended_deadline(settings: dict[str, Any], kept: Away, deadline: datetime, due: Iterable[str]) -> datetime | None:
    """The deadline an absence (of those `kept`) moves `deadline` to under the game's `settings` (mode `extend`),
    or None when no absence of a power in `due` covers it. A later absence that the moved deadline falls in moves
    it again, within the same limit."""
    if mode(settings) != "extend":
        return None
    powers = set(due)
    away = [a for a in absences(kept) if a.power in powers]
    limit = deadline + timedelta(days=max_days(settings))
    moved = deadline
    for _ in range(len(away) + 1):
        covering = [a for a in away if a.covers(moved)]
        if not covering:
            break
        moved = min(max(a.end for a in covering) + EXTENSION_AFTER, limit)
        if moved == limit:
            break
    return moved if moved != deadline else None


def not_awaited(seats: Iterable[Seat], settings: dict[str, Any], kept: Away, moment: datetime) -> set[str]:
    """The powers a phase does not wait for and does not count late: in civil disorder, or away under `hold`."""
    disorder = {seat.power for seat in seats if seat.power and seat.status == SeatStatus.CIVIL_DISORDER}
    return disorder | held_away(settings, kept, moment)


def held_away(settings: dict[str, Any], kept: Away, moment: datetime) -> set[str]:
    """The powers not waited for at `moment` because their player is away (`kept`) and the GM holds their
    orders (`absence.mode=hold` in the `settings`)."""
    if mode(settings) != "hold":
        return set()
    return {a.power for a in absences(kept) if a.covers(moment)}


def owed_by_sides(sides: Iterable[Side], owing: Iterable[str]) -> list[tuple[Side, list[str]]]:
    """The sides these powers (`owing`: owing orders, or with errors on file) belong to, each once, in the order of
    `sides`, with its powers among them; a power of no side is a side of its own."""
    wanted = set(owing)
    found: list[tuple[Side, list[str]]] = []
    placed: set[str] = set()
    for side in sides:
        mine = [power for power in side.powers if power in wanted]
        if mine:
            found.append((side, mine))
            placed.update(mine)
    found.extend((Side(power, (power,)), [power]) for power in sorted(wanted - placed))
    return found


def owed_text(side: Side, powers: list[str]) -> str:
    """A side as a notice or a late list names it: its name alone when the powers in question are all it has (a
    player of one power, or a side that owes for every power); else its name and those powers, `England
    (3:England, 7:England)`, so that a player who sent six boards of seven reads which one is missing, and a list
    of a Hepta game names seven players, never 49 board-nations."""
    if set(powers) >= set(side.powers):
        return side.label
    return f"{side.label} ({', '.join(powers)})"


def owed_texts(sides: Iterable[Side], owing: Iterable[str]) -> list[str]:
    """The sides owing these powers as a list names them (`owed_text`), sorted."""
    return sorted(owed_text(side, powers) for side, powers in owed_by_sides(sides, owing))
