"""Deadlines fall where the game's settings say, in the game's own time zone, across summer time changes."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from judge.game.timing import PhaseTiming, Timing, deadline_after, grace_end, timing_from_settings

LONDON = ZoneInfo("Europe/London")


def test_a_plain_interval_is_exactly_that_many_hours() -> None:
    opened = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
    assert deadline_after(opened, Timing(), "Movement") == datetime(2026, 3, 4, 9, 30, tzinfo=UTC)
    assert deadline_after(opened, Timing(), "Retreat") == datetime(2026, 3, 3, 9, 30, tzinfo=UTC)


def test_the_deadline_moves_on_to_the_games_time_of_day() -> None:
    timing = Timing(zone="Europe/London", movement=PhaseTiming(hours=48, at=time(18, 0)))
    opened = datetime(2026, 1, 5, 19, 0, tzinfo=UTC)  # Monday 19:00 in London
    assert deadline_after(opened, timing, "Movement") == datetime(2026, 1, 8, 18, 0, tzinfo=UTC)


def test_18_00_stays_18_00_local_across_the_spring_change_of_clocks() -> None:
    timing = Timing(zone="Europe/London", movement=PhaseTiming(hours=24, at=time(18, 0)))
    before = deadline_after(datetime(2026, 3, 27, 18, 0, tzinfo=UTC), timing, "Movement")  # GMT
    after = deadline_after(datetime(2026, 3, 29, 17, 0, tzinfo=UTC), timing, "Movement")  # BST from 29 March
    assert before.astimezone(LONDON).time() == time(18, 0) == after.astimezone(LONDON).time()
    assert before == datetime(2026, 3, 28, 18, 0, tzinfo=UTC)
    assert after == datetime(2026, 3, 30, 17, 0, tzinfo=UTC)


def test_a_time_of_day_the_clocks_skip_is_moved_past_the_gap() -> None:
    timing = Timing(zone="Europe/London", movement=PhaseTiming(hours=1, at=time(1, 30)))
    deadline = deadline_after(datetime(2026, 3, 28, 23, 0, tzinfo=UTC), timing, "Movement")
    assert deadline.astimezone(LONDON).date().isoformat() == "2026-03-29"
    assert deadline == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 01:30 GMT does not exist: it is 02:30 BST


def test_only_allowed_weekdays_take_a_deadline() -> None:
    timing = Timing(movement=PhaseTiming(hours=24, at=time(20, 0), weekdays=(0, 3)))  # Mondays and Thursdays
    deadline = deadline_after(datetime(2026, 1, 9, 12, 0, tzinfo=UTC), timing, "Movement")  # a Friday
    assert deadline == datetime(2026, 1, 12, 20, 0, tzinfo=UTC)


def test_grace_and_the_settings_that_set_it() -> None:
    timing = timing_from_settings({"grace_hours": 6, "timing": {"zone": "America/New_York", "reminder_hours": 4}})
    deadline = datetime(2026, 6, 1, 22, 0, tzinfo=UTC)
    assert grace_end(deadline, timing, "Movement") == datetime(2026, 6, 2, 4, 0, tzinfo=UTC)
    assert timing.reminder_hours == 4
    assert timing_from_settings({"timing": {"zone": "Mars/Olympus"}}).tz == ZoneInfo("UTC")
