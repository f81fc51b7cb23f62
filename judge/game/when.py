"""A deadline as a GM types it: `2026-11-23 21:17`, `2026-12-01T18:00Z`, `+3h`, `+2d`, `tomorrow 18:00`,
`friday 18:00`, `18:00`, `none`. Times without a zone are in the game's own time zone; the reply says how the
text was read, in that zone and in UTC (`judge.render.dates.when_text`, the one form of a moment), so a
misreading is seen at once."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

_RELATIVE = re.compile(r"^\+\s*(\d+)\s*(m|min|minutes?|h|hours?|d|days?)$", re.IGNORECASE)
_CLOCK = re.compile(r"^(\d{1,2})[:.h](\d{2})$")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


class DeadlineError(ValueError):
    pass


def read_deadline(text: str, now: datetime, zone: ZoneInfo) -> datetime | None:
    """The moment `text` names (aware, UTC), or None for `none`; DeadlineError saying the forms it knows."""
    written = " ".join(text.split())
    lowered = written.lower()
    if lowered in ("none", "off"):
        return None
    relative = _RELATIVE.match(lowered)
    if relative:
        amount, unit = int(relative[1]), relative[2][0]
        step = {"m": timedelta(minutes=amount), "h": timedelta(hours=amount), "d": timedelta(days=amount)}[unit]
        return now + step
    words = lowered.split()
    local_now = now.astimezone(zone)
    if words and (words[0] in ("today", "tomorrow") or words[0] in _DAYS or _CLOCK.match(words[0])):
        day_word = words[0] if not _CLOCK.match(words[0]) else ""
        clock = words[1] if day_word and len(words) == 2 else (words[0] if not day_word and len(words) == 1 else "")
        found = _CLOCK.match(clock)
        if found is None or int(found[1]) > 23 or int(found[2]) > 59:
            raise DeadlineError(f"{written!r}: expected a time of day after {day_word or 'it'}, like 18:00")
        at = time(int(found[1]), int(found[2]))
        on = local_now.date()
        if day_word == "tomorrow":
            on += timedelta(days=1)
        elif day_word in _DAYS:
            on += timedelta(days=(_DAYS.index(day_word) - on.weekday()) % 7)
        moment = datetime.combine(on, at, zone)
        if moment <= now and day_word != "today":
            moment += timedelta(days=7 if day_word in _DAYS else 1)
        return moment.astimezone(UTC)
    try:
        moment = datetime.fromisoformat(written.replace("Z", "+00:00"))
    except ValueError:
        raise DeadlineError(
            f"{written!r} is not a time; write 2026-11-23 21:17, +3h, +2d, tomorrow 18:00, friday 18:00 or none"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC)


_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def _day(text: str, today: date) -> date:
    lowered = text.lower()
    if lowered == "today":
        return today
    if lowered == "tomorrow":
        return today + timedelta(days=1)
    found = _DAY.match(text)
    if found is None:
        raise DeadlineError(f"{text!r} is not a day: write it as 2026-12-01 (or today, tomorrow)")
    try:
        return date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        raise DeadlineError(f"{text!r} is not a day of the calendar") from None


def read_days(text: str, now: datetime, zone: ZoneInfo) -> tuple[date, date]:
    """The first and last day of an absence as written: `2026-12-01 TO 2026-12-05`, `2026-12-01 - 2026-12-05`,
    `2026-12-01` (one day), `today TO 2026-12-05`."""
    words = [w for w in text.replace(" - ", " to ").split() if w]
    today = now.astimezone(zone).date()
    if len(words) == 1:
        day = _day(words[0], today)
        return day, day
    if len(words) == 3 and words[1].lower() in ("to", "until", "till"):
        return _day(words[0], today), _day(words[2], today)
    raise DeadlineError(f"{text!r}: write the days away as 2026-12-01 TO 2026-12-05 (or one day: 2026-12-01)")
