"""When a phase's deadline falls: an interval after the phase opened, moved on to the game's time of day on an
allowed weekday, in the game's own time zone (so 18:00 stays 18:00 across a change of summer time).

Pure functions of the settings and an instant; the clock is the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DELAY_HOURS = 0.0
"""the delay before early processing where the GM set none: none, the judge's way until issue 43 (njudge's default
is half an hour, `SET DELAY 30m`; docs/deadlines.md)"""

PHASE_KEYS = {"Movement": "movement", "Retreat": "retreat", "Adjustment": "adjustment"}


@dataclass(frozen=True)
class PhaseTiming:
    hours: float = 48.0
    """the least time between a phase opening and its deadline"""
    at: time | None = None
    """the time of day deadlines fall on (None: exactly `hours` later)"""
    weekdays: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    """Monday is 0"""
    grace_hours: float = 0.0
    """how long after the deadline orders are still waited for, before the phase goes without them"""


@dataclass(frozen=True)
class Timing:
    zone: str = "UTC"
    reminder_hours: float = 12.0
    manual: bool = False
    """the GM processes; deadlines only remind and warn"""
    reminders: tuple[float, ...] = ()
    """the reminders before a deadline, each this many hours before it (`timing.reminders`: `24h,6h,1h`); none set:
    one, `reminder_hours` before"""
    delay_hours: float = DELAY_HOURS
    """how long after the last orders came in a phase with every order in waits before it goes early
    (`timing.delay`, njudge's DELAY), so that a player can still correct a typo"""
    movement: PhaseTiming = PhaseTiming()
    retreat: PhaseTiming = PhaseTiming(hours=24.0)
    adjustment: PhaseTiming = PhaseTiming(hours=24.0)

    def for_phase(self, phase_type: str) -> PhaseTiming:
        phase: PhaseTiming = getattr(self, PHASE_KEYS.get(phase_type, "movement"))
        return phase

    def reminder_leads(self) -> tuple[float, ...]:
        """The reminders' hours before the deadline, the earliest reminder first (24, 6, 1)."""
        return tuple(sorted({*(self.reminders or (self.reminder_hours,))}, reverse=True))

    @property
    def tz(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")


def _phase_timing(raw: Any, default: PhaseTiming) -> PhaseTiming:
    if not isinstance(raw, dict):
        return default
    at = raw.get("at")
    return PhaseTiming(
        hours=float(raw.get("hours", default.hours)),
        at=time.fromisoformat(at) if isinstance(at, str) and at else default.at,
        weekdays=tuple(int(d) for d in raw.get("weekdays", default.weekdays)),
        grace_hours=float(raw.get("grace_hours", default.grace_hours)),
    )


def timing_from_settings(settings: dict[str, Any]) -> Timing:
    """A game's timing from its settings (see docs/deadlines.md for the keys)."""
    raw = settings.get("timing", {})
    raw = raw if isinstance(raw, dict) else {}
    base = Timing()
    grace = settings.get("grace_hours")
    timing = Timing(
        zone=str(raw.get("zone", base.zone)),
        reminder_hours=float(raw.get("reminder_hours", base.reminder_hours)),
        manual=bool(raw.get("manual", settings.get("manual", False))),
        reminders=tuple(float(h) for h in raw.get("reminders", ()) or ()),
        delay_hours=float(raw.get("delay", DELAY_HOURS)),
        movement=_phase_timing(raw.get("movement"), base.movement),
        retreat=_phase_timing(raw.get("retreat"), base.retreat),
        adjustment=_phase_timing(raw.get("adjustment"), base.adjustment),
    )
    if grace is not None:  # SET GRACE hours applies to every phase
        timing = Timing(
            timing.zone,
            timing.reminder_hours,
            timing.manual,
            timing.reminders,
            timing.delay_hours,
            *(
                PhaseTiming(p.hours, p.at, p.weekdays, float(grace))
                for p in (timing.movement, timing.retreat, timing.adjustment)
            ),
        )
    return timing


def deadline_after(opened: datetime, timing: Timing, phase_type: str) -> datetime:
    """The deadline of a phase that opened at `opened` (an aware instant), as an aware UTC instant."""
    phase = timing.for_phase(phase_type)
    tz = timing.tz
    earliest = (opened + timedelta(hours=phase.hours)).astimezone(tz)
    if phase.at is None and len(phase.weekdays) == 7:
        return earliest.astimezone(UTC)
    day = earliest.date()
    for _ in range(15):  # two weeks always hold an allowed weekday
        if day.weekday() in phase.weekdays:
            local = datetime.combine(day, phase.at or earliest.timetz().replace(tzinfo=None), tzinfo=tz)
            # a time of day that a spring-forward skips is moved past the gap; fold=0 picks the first of a repeat
            local = local.astimezone(UTC).astimezone(tz)
            if local >= earliest:
                return local.astimezone(UTC)
        day += timedelta(days=1)
    return earliest.astimezone(UTC)


def grace_end(deadline: datetime, timing: Timing, phase_type: str) -> datetime:
    return deadline + timedelta(hours=timing.for_phase(phase_type).grace_hours)


def reminder_time(deadline: datetime, timing: Timing) -> datetime:
    """The first reminder's moment."""
    return reminder_times(deadline, timing)[0]


def reminder_times(deadline: datetime, timing: Timing) -> tuple[datetime, ...]:
    """Every reminder's moment before a deadline, the earliest first."""
    return tuple(deadline - timedelta(hours=hours) for hours in timing.reminder_leads())


def early_from(last_in: datetime | None, timing: Timing) -> datetime | None:
    """When a phase whose orders are all in may go early: the game's delay after the last of them came in
    (njudge's DELAY; a change of orders within it starts it again, as njudge's does); None: at once."""
    if last_in is None or timing.delay_hours <= 0:
        return None
    return last_in + timedelta(hours=timing.delay_hours)
