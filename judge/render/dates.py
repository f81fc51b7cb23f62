"""How every mail the judge writes gives a moment: one form, `Sun 29 Nov 2026 20:11 UTC` (issue 28: four forms
across the mails). The one exception is njudge's `:: Deadline:` header line (`deadline_text`), a contract with the
mapping tools that read it (docs/results.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def when_text(moment: datetime) -> str:
    """A moment as every mail writes it: `Sun 29 Nov 2026 20:11 UTC` (the same form as SET DEADLINE's reply in
    UTC, `judge.game.when.describe`)."""
    return f"{moment.astimezone(UTC) if moment.tzinfo else moment:%a %d %b %Y %H:%M} UTC"


def deadline_text(moment: datetime) -> str:
    """njudge's deadline form, e.g. "Sun Nov 29 2026 20:00:00 UTC", for the `:: Deadline:` header line only."""
    return moment.strftime("%a %b %d %Y %H:%M:%S ") + (moment.tzname() or "UTC")


def time_left(left: timedelta) -> str:
    """How long until a deadline, as the reply's footer says it: in minutes under two hours ("in 2 minutes"), in
    hours beyond (issue 28: two minutes were "0 hours from now")."""
    minutes = max(0, int(left.total_seconds() // 60))
    if minutes < 120:
        return f"{minutes} minute{'' if minutes == 1 else 's'} from now"
    return f"{minutes // 60} hours from now"
