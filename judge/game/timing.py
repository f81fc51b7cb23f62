"""When a phase's deadline falls: an interval after the phase opened, moved on to the game's time of day on an
allowed weekday, in the game's own time zone (so 18:00 stays 18:00 across a change of summer time).

Pure functions of the settings and an instant; the clock is the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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
    movement: PhaseTiming = PhaseTiming()
    retreat: PhaseTiming = PhaseTiming(hours=24.0)
    adjustment: PhaseTiming = PhaseTiming(hours=24.0)

    def for_phase(self, phase_type: str) -> PhaseTiming:
        phase: PhaseTiming = getattr(self, PHASE_KEYS.get(phase_type, "movement"))
        return phase

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
        movement=_phase_timing(raw.get("movement"), base.movement),
        retreat=_phase_timing(raw.get("retreat"), base.retreat),
        adjustment=_phase_timing(raw.get("adjustment"), base.adjustment),
    )
    if grace is not None:  # SET GRACE hours applies to every phase
        timing = Timing(
            timing.zone,
            timing.reminder_hours,
            timing.manual,
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
    return deadline - timedelta(hours=timing.reminder_hours)
