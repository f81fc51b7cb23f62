"""Issue 42, item 3: the deadline's rules are a use case of the game layer (`judge.game.deadlines`), raising events
like every other; the keeper decides only when to look and which process takes which game; the deadline's words
come from the notifier's templates, in the one form of a moment (`judge.render.dates`). docs/deadlines.md, "Where
the rules live" and "What happens"."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from judge.config import Config
from judge.game.deadline_events import OrdersLate, PhaseDeadline, Reminder
from judge.game.deadlines import next_moment, processed_at
from judge.game.events import Audience
from judge.mail.notifier import Notifier
from judge.render.dates import deadline_text, span_text, when_text
from judge.store import Marks

DEADLINE = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
NOW = DEADLINE - timedelta(days=1)
SETTINGS: dict[str, Any] = {"timing": {"reminder_hours": 12, "zone": "Europe/Paris"}, "grace_hours": 6}
SCHEDULE = Path(__file__).resolve().parent.parent / "judge" / "schedule"


def test_the_rules_wake_the_judge_for_the_reminder_then_the_deadline_then_the_end_of_grace() -> None:
    """Reminder `reminder_hours` before, late notices at the deadline, processing at the end of grace: each once a
    phase, so a moment whose work is marked done for the phase no longer wakes the judge."""
    assert next_moment(SETTINGS, Marks(), DEADLINE, "Movement", 3, NOW) == DEADLINE - timedelta(hours=12)
    assert next_moment(SETTINGS, Marks(reminded=3), DEADLINE, "Movement", 3, NOW) == DEADLINE
    done = Marks(reminded=3, late=3)
    assert next_moment(SETTINGS, done, DEADLINE, "Movement", 3, NOW) == DEADLINE + timedelta(hours=6)
    assert next_moment(SETTINGS, Marks(reminded=2, late=2), DEADLINE, "Movement", 3, NOW) == (
        DEADLINE - timedelta(hours=12)  # the marks of the phase before say nothing of this one
    )
    assert next_moment(SETTINGS, Marks(reminded=3, late=3, processed=3), DEADLINE, "Movement", 3, NOW) is None
    assert next_moment(SETTINGS, Marks(), None, "Movement", 3, NOW) is None  # no deadline: the GM's PROCESS


def test_a_manual_game_is_never_processed_at_its_deadline_its_gm_is_told() -> None:
    manual = {**SETTINGS, "timing": {**SETTINGS["timing"], "manual": True}}
    assert processed_at(manual, Marks(), DEADLINE, "Movement", 3) is None
    assert next_moment(manual, Marks(reminded=3, late=3), DEADLINE, "Movement", 3, NOW) == DEADLINE + timedelta(hours=6)
    assert next_moment(manual, Marks(reminded=3, late=3, gm_told=3), DEADLINE, "Movement", 3, NOW) is None


def test_a_phase_is_processed_at_the_end_of_its_grace_once() -> None:
    assert processed_at(SETTINGS, Marks(), DEADLINE, "Movement", 3) == DEADLINE + timedelta(hours=6)
    assert processed_at(SETTINGS, Marks(processed=3), DEADLINE, "Movement", 3) is None


def _body(mail: EmailMessage) -> str:
    content = mail.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


def test_the_notifier_words_the_deadline_a_reminder_and_a_late_notice_carry_as_moments() -> None:
    """The events carry moments; the words are the templates', each moment in the game's zone with UTC after it,
    the grace as a stretch of time, and njudge's header line in its own form (docs/results.md)."""
    moments = PhaseDeadline("standard", "F1901M", DEADLINE, DEADLINE + timedelta(hours=6), "Europe/Paris")
    reminder = Reminder(game="alpha", phase="Fall 1901 Movement", power="France", signon="France",
                        deadline=moments, address="france@example.org")  # fmt: skip
    late = OrdersLate(game="alpha", phase="Fall 1901 Movement", missing=("France",), deadline=moments,
                      audience=Audience({"France": "france@example.org"}, "gm@example.org"),
                      addresses={"France": "france@example.org"})  # fmt: skip
    reminded, told, gm = (_body(mail.message) for mail in Notifier(Config()).mails([reminder, late]))
    assert f":: Deadline: F1901M {deadline_text(DEADLINE)}" in reminded
    assert f"The deadline is {when_text(DEADLINE, 'Europe/Paris')}, with {span_text(timedelta(hours=6))}" in reminded
    assert "Sat 05 Dec 2026 18:00 Europe/Paris (17:00 UTC)" in reminded
    assert f"before {when_text(DEADLINE + timedelta(hours=6), 'Europe/Paris')} are still used" in told
    assert gm.strip() == "No orders yet from: France."


def test_the_keeper_raises_no_event_and_writes_no_moment() -> None:
    """Whatever judge/schedule does, it says nothing itself: no game event is made there and no moment is worded
    there (the one mail it causes, the admin's when a game's work fails, is the mail layer's `GameWorkFailed`)."""
    imported = set()
    for path in SCHEDULE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    events = ("judge.game.events", "judge.game.seat_events", "judge.game.deadline_events")
    assert {module for module in imported if module.startswith((*events, "judge.render"))} == set()
