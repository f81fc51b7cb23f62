"""How everything the judge writes to a person gives a moment and a stretch of time: one form, here.

A moment is `Sat 03 Jan 2026 12:00 UTC` in a game on UTC, and in a game with a zone of its own the same form in
that zone with the UTC time after it: `Sat 03 Jan 2026 18:00 Europe/Paris (17:00 UTC)` (the UTC day too, where
it is another: `(23:30 UTC Fri 02 Jan)`). The time left or taken is in words a person says: `in 2 days 5 hours`,
`in 40 minutes`, `3 hours 10 minutes` (issue 40: STATUS wrote `2026-12-05 18:43 UTC`, SET DEADLINE an ISO stamp
with microseconds, RESUME "(0.0 hours)"; issue 28: four forms across the mails).

The one exception is njudge's `:: Deadline:` header line (`deadline_text`), a contract with the mapping tools
that read it (docs/results.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

FORM = "%a %d %b %Y %H:%M"
"""the day and time of every moment written to a person; the zone's name follows"""


def _zone(zone: str | ZoneInfo | None) -> ZoneInfo:
    if isinstance(zone, ZoneInfo):
        return zone
    try:
        return ZoneInfo(zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when_text(moment: datetime, zone: str | ZoneInfo | None = None) -> str:
    """A moment as every mail, reply and page writes it, in the game's zone (`timing.zone`; UTC by default):
    `Sat 03 Jan 2026 12:00 UTC`, `Sat 03 Jan 2026 13:00 Europe/London (12:00 UTC)`."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    place = _zone(zone)
    if place.key == "UTC":
        return f"{aware.astimezone(UTC):{FORM}} UTC"
    local, utc = aware.astimezone(place), aware.astimezone(UTC)
    day = "" if utc.date() == local.date() else f" {utc:%a %d %b}"
    return f"{local:{FORM}} {place.key} ({utc:%H:%M} UTC{day})"


def machine_stamp(moment: datetime) -> str:
    """A moment as RFC 3339 writes it in UTC (`2026-01-03T12:00:00Z`), for programs, not people: the Atom feeds'
    times, the `datetime` of a page's `<time>` (which a script then writes in the reader's zone)."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def day_text(day: date) -> str:
    """A day as every mail writes it (a player's absence): the moment's form without its time, `Sat 03 Jan 2026`."""
    return f"{day:%a %d %b %Y}"


def span_text(span: timedelta) -> str:
    """A stretch of time in words, to the minute, in its two largest units: `2 days 5 hours`, `3 hours 10
    minutes`, `1 minute`, `less than a minute`."""
    minutes = int(abs(span).total_seconds() // 60)
    if minutes == 0:
        return "less than a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    units = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    first = next(i for i, (n, _) in enumerate(units) if n)
    return " ".join(f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in units[first : first + 2] if n)


def time_left(left: timedelta) -> str:
    """How long until a moment: `in 2 days 5 hours`, `in 12 minutes`; one already past, `passed 3 hours ago`."""
    if left.total_seconds() < 0:
        return f"passed {span_text(left)} ago"
    return f"in {span_text(left)}"


def due_text(moment: datetime, now: datetime, zone: str | ZoneInfo | None = None) -> str:
    """A deadline with the time left: `Sat 03 Jan 2026 12:00 UTC (in 2 days)`."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return f"{when_text(aware, zone)} ({time_left(aware - now)})"


def deadline_text(moment: datetime) -> str:
    """njudge's deadline form (`ptime()` in its `jm.c`), e.g. "Sun Nov 29 2026 20:00:00 +0000", the zone a number
    (issue 45), in UTC, for the `:: Deadline:` header line and njudge's layout only."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%a %b %d %Y %H:%M:%S %z")


def resumed_text(deadline: datetime | None, paused_for: timedelta | None, zone: str | None) -> str:
    """What became of the deadline when the GM resumed a game, as his reply and everyone's notice say it:
    moved on by the time paused (`paused_for`), set anew (None), or none."""
    if deadline is None:
        return "There is no deadline: the phase waits for the GM's PROCESS."
    if paused_for is not None:
        return f"The deadline is moved on by the time the game was paused ({span_text(paused_for)}): " + (
            f"{when_text(deadline, zone)}."
        )
    return f"The GM has set the deadline: {when_text(deadline, zone)}."
